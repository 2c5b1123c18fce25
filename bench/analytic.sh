#!/usr/bin/env bash
# Analytic query shapes (issue 15, "Benchmark and targets"): a heap table, the
# foreign table over a DuckDB-written file, the foreign table over the file
# COPY TO writes from the heap table, and DuckDB, at
# max_parallel_workers_per_gather 0 and 2 (DuckDB threads = 1 + workers).
# Run as root after scripts/setup.sh:
#
#   bash bench/analytic.sh
#
# Environment:
#   BENCH_ROWS            rows (default 10000000)
#   BENCH_RUNS            timed runs per query, reader and worker count (default 5)
#   BENCH_SHARED_BUFFERS  shared_buffers (default 4GB: the heap table is cached)
#   BENCH_WORKERS         worker counts to measure (default "0 2")
#   BENCH_KEEP=1          keep the work directory
#
# The data is bench/gen_lineitem.mjs's (DuckDB's default 122,880-row row
# groups, snappy), also split into 1000 files (bench/split_files.mjs) for
# count(*) and min/max over many footers; the heap table is CREATE TABLE AS from the foreign table,
# VACUUM ANALYZEd and prewarmed; jit is off.  bench/analytic.mjs times the
# queries and exits 1 if any reader's rows differ from the heap table's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${BENCH_ROWS:-10000000}
RUNS=${BENCH_RUNS:-5}
SHARED_BUFFERS=${BENCH_SHARED_BUFFERS:-4GB}
read -r -a WORKERS <<<"${BENCH_WORKERS:-0 2}"

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start analytic.sh parquet_fdw_analytic pg

FILE=$WORK/lineitem.parquet
OURS=$WORK/lineitem_copy.parquet
# The server (user postgres) reads the file and writes the COPY output here.
chown postgres:postgres "$WORK"

echo "== generating $ROWS rows with DuckDB"
node bench/gen_lineitem.mjs "$FILE" "$ROWS"
chmod 644 "$FILE"

PGFDW_CLUSTER_SETTINGS="shared_buffers = '$SHARED_BUFFERS'
jit = off"
pgfdw_cluster_start
BINDIR=$("$PG_CONFIG" --bindir)
PSQL=("$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off)
echo "cluster: $("${PSQL[@]}" -Atc "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'jit', 'max_worker_processes', 'max_parallel_workers', 'work_mem')")"

echo "== loading"
"${PSQL[@]}" -v file="$FILE" -f bench/load_lineitem.sql
echo "== COPY li_heap TO $OURS (FORMAT parquet)"
"${PSQL[@]}" -v ours="$OURS" <<'SQL'
\timing on
COPY li_heap TO :'ours' WITH (FORMAT parquet);
\timing off
SELECT parquet_fdw.create_table_sql(:'ours', 'li_ours') \gexec
SQL
"${PSQL[@]}" -v file="$FILE" -v ours="$OURS" <<'SQL'
\pset footer off
SELECT f AS file, pg_size_pretty(file_size) AS size, num_rows, num_row_groups, created_by
  FROM (VALUES (:'file'), (:'ours')) v(f), parquet_fdw.file_info(f);
SELECT pg_size_pretty(pg_relation_size('li_heap')) AS heap_size;
SQL

# The same rows as 1000 files (count(*) and min/max from 1000 footers).
MANY=$WORK/many
node bench/split_files.mjs "$FILE" "$MANY" $(((ROWS + 999) / 1000))
chmod -R a+rX "$MANY"
"${PSQL[@]}" -v first="$MANY/part_0000.parquet" -v dir="$MANY" <<'SQL'
SELECT replace(parquet_fdw.create_table_sql(:'first', 'li_many'), :'first', :'dir') \gexec
SQL

echo "== timing (progress on stderr)"
node bench/analytic.mjs run "$FILE" "$RUNS" "${WORKERS[@]}"
