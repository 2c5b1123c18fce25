#!/usr/bin/env bash
# Pruning benchmark (issue 4, "Benchmark"): row-group statistics, bloom
# filters, the page index and parameterized nested loops on a file sorted by
# id. Run as root from anywhere, after scripts/setup.sh and `make install`
# (the extension installed, test/js/node_modules present):
#
#   bash bench/prune.sh
#
# Environment:
#   BENCH_ROWS        rows in the file (default 20000000)
#   BENCH_RG_ROWS     rows per row group (default 1000000)
#   BENCH_PAGE_BYTES  target data page size (default 8192)
#   BENCH_RUNS        timed runs per query and variant (default 5)
#   BENCH_FILE        use this file (written by bench/gen_sorted.mjs with the
#                     same BENCH_ROWS / BENCH_RG_ROWS) instead of writing one;
#                     it is checked like a fresh one and never removed
#   BENCH_ANALYZE=0   skip ANALYZE of the foreign table at the end (the
#                     planner's choice for (c) is then only shown without it)
#   BENCH_KEEP=1      keep the work directory (file, psql scripts, EXPLAIN
#                     JSON, result rows, logs) at the end
#
# Steps: write the file with hyparquet-writer (bench/gen_sorted.mjs); check
# its page index, bloom filters and row groups (bench/prune.mjs verify-file:
# DuckDB and hyparquet; then parquet_fdw.metadata()); start a throwaway
# cluster (scripts/cluster.sh) with jit = off and
# max_parallel_workers_per_gather = 0; foreign table t, heap table heap1000
# (1000 ids spread over the id range, analyzed); time every query with pruning
# on and with the four pruning GUCs off (full scan) in one psql session; run
# EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) of each for the counters; record the
# planner's default plan for the join before and after ANALYZE t; print the
# report (bench/prune.mjs report).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$(pwd)

ROWS=${BENCH_ROWS:-20000000}
RG_ROWS=${BENCH_RG_ROWS:-1000000}
PAGE_BYTES=${BENCH_PAGE_BYTES:-8192}
RUNS=${BENCH_RUNS:-5}
T_START=$(date +%s)

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start prune.sh parquet_fdw_bench_prune hyparquet-writer
if [ "$ROWS" -lt 1000 ]; then
	echo "prune.sh: BENCH_ROWS must be at least 1000 (heap1000 takes 1000 distinct ids)" >&2
	exit 1
fi


PKGLIB=$("$PG_CONFIG" --pkglibdir)
[ -f "$PKGLIB/parquet_fdw.so" ] || {
	echo "prune.sh: $PKGLIB/parquet_fdw.so missing; run make install first" >&2
	exit 1
}

if [ -n "${BENCH_FILE:-}" ]; then
	FILE=$(realpath "$BENCH_FILE")
	echo "== using $FILE (BENCH_FILE)"
	if ! runuser -u postgres -- test -r "$FILE"; then
		echo "prune.sh: the postgres user cannot read $FILE" >&2
		exit 1
	fi
else
	FILE=$WORK/sorted.parquet
	echo "== generating $ROWS rows ($RG_ROWS-row row groups, $PAGE_BYTES-byte pages) with hyparquet-writer"
	node bench/gen_sorted.mjs "$FILE" "$ROWS" --rg "$RG_ROWS" --page "$PAGE_BYTES"
	chmod 644 "$FILE"
fi

echo "== checking the file (DuckDB parquet_schema/parquet_metadata; page index read with hyparquet)"
node bench/prune.mjs verify-file "$FILE" "$ROWS" "$RG_ROWS" "$PAGE_BYTES" "$WORK/file.json"

PGFDW_CLUSTER_SETTINGS="jit = off
max_parallel_workers_per_gather = 0"
pgfdw_cluster_start
BINDIR=$("$PG_CONFIG" --bindir)
PSQL=("$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off)
echo "cluster: running with $("${PSQL[@]}" -Atc "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'jit', 'max_parallel_workers_per_gather', 'work_mem', 'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost')") ($("${PSQL[@]}" -Atc 'SELECT version()' | cut -d, -f1))"

echo "== loading"
"${PSQL[@]}" -v file="$FILE" <<SQL
CREATE EXTENSION parquet_fdw;
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;
SELECT parquet_fdw.create_table_sql(:'file', 't') \gexec
$(node bench/prune.mjs heap-sql "$ROWS")
ANALYZE heap1000;
SQL
"${PSQL[@]}" -v file="$FILE" <<'SQL'
\pset footer off
\echo parquet_fdw.file_info() and parquet_fdw.metadata() per column:
SELECT pg_size_pretty(file_size) AS file_size, num_rows, num_row_groups, num_columns, created_by
  FROM parquet_fdw.file_info(:'file');
SELECT path_in_schema AS column, physical_type, count(*) AS chunks,
       count(*) FILTER (WHERE has_column_index) AS has_column_index,
       count(*) FILTER (WHERE has_offset_index) AS has_offset_index,
       count(*) FILTER (WHERE has_bloom_filter) AS has_bloom_filter,
       pg_size_pretty(sum(total_compressed_size)) AS compressed
  FROM parquet_fdw.metadata(:'file') GROUP BY path_in_schema, physical_type ORDER BY min(column_id);
SELECT count(*) AS heap1000_rows, min(id), max(id), count(DISTINCT id) AS distinct_ids FROM heap1000;
SELECT set_config('bench.file', :'file', false) \g /dev/null
DO $$
DECLARE
  bad text;
BEGIN
  SELECT string_agg(format('row group %s column %s: column index %s, offset index %s, bloom filter %s',
                           row_group, path_in_schema, has_column_index, has_offset_index, has_bloom_filter), '; ')
    INTO bad
    FROM parquet_fdw.metadata(current_setting('bench.file'))
   WHERE NOT has_column_index OR NOT has_offset_index
      OR (path_in_schema = 'uuid_s' AND NOT has_bloom_filter);
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'parquet_fdw.metadata(): %', bad;
  END IF;
END $$;
\echo parquet_fdw.metadata(): every chunk has a column index and an offset index, every uuid_s chunk a bloom filter
SQL

echo "== plans (EXPLAIN VERBOSE with pruning on; (c) with hash and merge join off)"
node bench/prune.mjs show-plans-script "$ROWS" >"$WORK/show_plans.sql"
"${PSQL[@]}" -P footer=off -f "$WORK/show_plans.sql" | sed 's/^/   /'
echo "-- (c) as the planner picks it (defaults)"
"${PSQL[@]}" -P footer=off -c "EXPLAIN SELECT count(*), sum(t.payload) FROM heap1000 h JOIN t ON t.id = h.id" | sed 's/^/   /'
node bench/prune.mjs plan-script "$WORK" "$ROWS" >"$WORK/plans.sql"
"${PSQL[@]}" -f "$WORK/plans.sql"

echo "== timing: per query 1 warm-up + $RUNS runs with pruning on and with the pruning GUCs off, one psql session"
node bench/prune.mjs timing-script "$WORK" "$ROWS" "$RUNS" >"$WORK/timing.sql"
t0=$(date +%s)
"${PSQL[@]}" -A -t -f "$WORK/timing.sql" >"$WORK/timing.log"
echo "   ($(($(date +%s) - t0)) s)"

echo "== EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) of every query and variant"
node bench/prune.mjs explain-script "$WORK" "$ROWS" >"$WORK/explain.sql"
t0=$(date +%s)
"${PSQL[@]}" -f "$WORK/explain.sql"
echo "   ($(($(date +%s) - t0)) s)"

analyze_ms=null
if [ "${BENCH_ANALYZE:-1}" != 0 ]; then
	echo "== ANALYZE t, then the planner's choice for (c) again"
	t0=$(date +%s%N)
	"${PSQL[@]}" -c 'ANALYZE t'
	analyze_ms=$((($(date +%s%N) - t0) / 1000000))
	echo "   (ANALYZE t: $analyze_ms ms; pg_stats for t.id: $("${PSQL[@]}" -Atc "SELECT format('n_distinct %s, correlation %s', n_distinct, correlation) FROM pg_stats WHERE tablename = 't' AND attname = 'id'"))"
	"${PSQL[@]}" -P footer=off -c "EXPLAIN SELECT count(*), sum(t.payload) FROM heap1000 h JOIN t ON t.id = h.id" | sed 's/^/   /'
	node bench/prune.mjs plan-script "$WORK" "$ROWS" _analyzed >"$WORK/plans_analyzed.sql"
	"${PSQL[@]}" -f "$WORK/plans_analyzed.sql"
fi
printf '{"rows":%d,"runs":%d,"analyze_ms":%s}\n' "$ROWS" "$RUNS" "$analyze_ms" >"$WORK/info.json"

echo
echo "== results ($ROWS rows, $(du -m "$FILE" | cut -f1) MiB file; load average now $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - T_START)) s so far)"
node bench/prune.mjs report "$WORK"
echo
echo "Reproduce: bash bench/prune.sh   (as root, from $REPO; BENCH_ROWS=$ROWS BENCH_RG_ROWS=$RG_ROWS BENCH_PAGE_BYTES=$PAGE_BYTES BENCH_RUNS=$RUNS are the settings of this run)"
