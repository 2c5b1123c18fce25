#!/usr/bin/env bash
# Delta Lake tables: a lineitem-like table of BENCH_ROWS rows in BENCH_FILES
# files as a Delta table whose deletion vectors delete 1% of the rows, against
# the same files read as a plain dataset (filename = the table's directory:
# every row, no log, no deletion vectors), both measured in the same run.
# Run as root after scripts/setup.sh:
#
#   bash bench/delta.sh
#
# Environment:
#   BENCH_ROWS            rows (default 10000000)
#   BENCH_FILES           data files (default 100)
#   BENCH_DELETE_PCT      percent of the rows deleted by deletion vectors (default 1)
#   BENCH_SEED            seed of the deleted positions (default 1)
#   BENCH_RUNS            timed runs per query and table (default 5)
#   BENCH_PLAN_RUNS       EXPLAIN runs for planning times (default 15: warm
#                         runs in one session, and as many new connections)
#   BENCH_WORKERS         max_parallel_workers_per_gather values (default "0 2")
#   BENCH_SHARED_BUFFERS  shared_buffers (default 4GB)
#   BENCH_DIAG=0          skip the two diagnostic tables (the Delta table at
#                         version 0, without deletion vectors; the dataset
#                         with union_by_name 'true')
#   BENCH_EXPLAIN=1       print EXPLAIN ANALYZE of every timed query (by
#                         default only of those whose Delta/dataset ratio is
#                         over the 1.1x target)
#   BENCH_KEEP=1          keep the work directory (the table, DuckDB's file)
#   BENCH_DELTA_TIMING=0  write the Delta table but do not time it
#   BENCH_ICEBERG=0       skip the Iceberg half (bench/iceberg.sh: the same
#                         files as Iceberg tables, v2 position delete files
#                         and v3 deletion vectors, timed the same way)
#   BENCH_ICEBERG_WRITE_ONLY=1  write the Iceberg tables, do not time them
#
# 1. bench/gen_lineitem.mjs writes the rows (DuckDB, l_orderkey order); the
#    heap table li_heap gets them with each row's file (file_no) and position
#    in it (pos): BENCH_FILES consecutive slices of the (l_orderkey,
#    l_linenumber) order.
# 2. bench/delta_data.mjs writes each file with COPY (SELECT ... WHERE file_no
#    = k ORDER BY pos) TO 'part-NNNNN.parquet' (FORMAT parquet), and the log:
#    version 0 the protocol (reader 3, deletionVectors, timestampNtz), the
#    metadata and one add per file with its statistics (from the heap rows);
#    version 1 a remove and an add with a deletion vector for every file that
#    has deleted rows (positions drawn at random over the whole table, kept
#    in the heap table li_del).
# 3. bench/delta.mjs times the queries and prints the report; it exits 1 if a
#    Delta answer differs from the heap's with the deleted rows removed
#    (view li_live), or a dataset answer from the heap's with every row.
# 4. bench/iceberg.sh: the same data files and deleted rows as Iceberg
#    tables, the same report for them (see that script).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${BENCH_ROWS:-10000000}
FILES=${BENCH_FILES:-100}
DELETE_PCT=${BENCH_DELETE_PCT:-1}
SEED=${BENCH_SEED:-1}
RUNS=${BENCH_RUNS:-5}
PLAN_RUNS=${BENCH_PLAN_RUNS:-15}
SHARED_BUFFERS=${BENCH_SHARED_BUFFERS:-4GB}
read -r -a WORKERS <<<"${BENCH_WORKERS:-0 2}"

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start delta.sh parquet_fdw_delta pg

FILE=$WORK/lineitem.parquet
TABLE=$WORK/table
# The server (user postgres) writes the data files under $TABLE.
chown postgres:postgres "$WORK"

echo "== generating $ROWS rows with DuckDB"
node bench/gen_lineitem.mjs "$FILE" "$ROWS"
chmod 644 "$FILE"

PGFDW_CLUSTER_SETTINGS="shared_buffers = '$SHARED_BUFFERS'
jit = off"
pgfdw_cluster_start
BINDIR=$("$PG_CONFIG" --bindir)
PSQL=("$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off)
echo "cluster: $("${PSQL[@]}" -Atc "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'jit', 'max_worker_processes', 'max_parallel_workers', 'max_parallel_workers_per_gather', 'work_mem')")"
# What is measured is the installed library, which need not be this tree's build.
SO=$("$PG_CONFIG" --pkglibdir)/parquet_fdw.so
echo "extension: $("${PSQL[@]}" -Atc "SELECT default_version FROM pg_available_extensions WHERE name = 'parquet_fdw'"), installed $SO of $(stat -c '%y' "$SO" | cut -d. -f1), md5 $(md5sum "$SO" | cut -c1-12)"
echo "tree: HEAD $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(git status --short -- src 2>/dev/null | wc -l) files under src/ modified or new"

echo "== loading li_heap (rows numbered in (l_orderkey, l_linenumber) order, file_no and pos of each)"
"${PSQL[@]}" -v file="$FILE" -v files="$FILES" <<'SQL'
CREATE EXTENSION parquet_fdw;
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;
SELECT parquet_fdw.create_table_sql(:'file', 'li') \gexec
SELECT count(*) AS n FROM li \gset
SET max_parallel_workers_per_gather = 0;
-- the rows come sorted: the sort only checks that, in memory
SET work_mem = '4GB';
\timing on
CREATE TABLE li_heap AS
WITH s AS (SELECT li.*, row_number() OVER (ORDER BY l_orderkey, l_linenumber) - 1 AS rn FROM li),
     f AS (SELECT s.*, rn * :files / :n AS file_no FROM s)
SELECT l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
       l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode,
       l_comment, l_ts, l_price,
       file_no::int AS file_no,
       -- the first rn of file k is ceil(k * n / files)
       (rn - (file_no * :n + :files - 1) / :files)::int AS pos
  FROM f;
CREATE INDEX ON li_heap (file_no, pos);
\timing off
RESET work_mem;
VACUUM (ANALYZE) li_heap;
DROP FOREIGN TABLE li;
CREATE TABLE li_del (file_no int, pos int, PRIMARY KEY (file_no, pos));
CREATE VIEW li_live AS
SELECT h.* FROM li_heap h
 WHERE NOT EXISTS (SELECT 1 FROM li_del d WHERE d.file_no = h.file_no AND d.pos = h.pos);
\pset footer off
SELECT count(*) AS rows, count(DISTINCT file_no) AS files, min(pos) AS min_pos, max(pos) AS max_pos,
       pg_size_pretty(pg_relation_size('li_heap')) AS heap_size
  FROM li_heap;
SQL
# the DuckDB file is no longer needed
rm -f "$FILE"

echo "== writing the Delta table ($FILES files, $DELETE_PCT% of the rows deleted)"
node bench/delta_data.mjs "$TABLE" "$FILES" "$DELETE_PCT" "$SEED"
chmod -R a+rX "$TABLE"

# a difference in one half does not stop the other; the exit status is the first failure's
RC=0
if [ "${BENCH_DELTA_TIMING:-1}" = 1 ]; then
	echo "== timing (progress on stderr)"
	node bench/delta.mjs run "$TABLE" "$RUNS" "$PLAN_RUNS" "${WORKERS[@]}" || RC=$?
fi

if [ "${BENCH_ICEBERG:-1}" = 1 ]; then
	bash bench/iceberg.sh "$TABLE" "$WORK" || { ICEBERG_RC=$?; [ "$RC" != 0 ] || RC=$ICEBERG_RC; }
fi
exit "$RC"
