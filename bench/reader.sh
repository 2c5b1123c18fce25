#!/usr/bin/env bash
# Reader benchmark (issue 2, "Benchmark"): parquet_fdw vs a heap table vs DuckDB
# on a TPC-H-lineitem-like table. Run as root from anywhere, after
# scripts/setup.sh (the extension installed, test/js/node_modules present):
#
#   bash bench/reader.sh
#
# Environment:
#   BENCH_ROWS            rows in the file (default 10000000)
#   BENCH_RUNS            timed runs per query and table (default 5)
#   BENCH_CODEC           snappy (default), zstd or uncompressed
#   BENCH_SHARED_BUFFERS  shared_buffers of the cluster (default 4GB)
#   BENCH_MEM_RUNS        runs of the peak-memory measurement (default 3)
#   BENCH_KEEP=1          keep the work directory (file, logs) at the end
#
# Steps: write the file with DuckDB (bench/gen_lineitem.mjs) into a temporary
# directory; start a throwaway cluster (scripts/cluster.sh) and set
# shared_buffers, jit = off, max_parallel_workers_per_gather = 0
# (PGFDW_CLUSTER_SETTINGS); foreign table li (parquet_fdw.create_table_sql) and heap
# table li_heap (CREATE TABLE AS, VACUUM ANALYZE, pg_prewarm); time queries
# (a), (b), (c) (bench/bench.mjs) in one psql session, the same in DuckDB, and
# sample the backend's RssAnon during (c). Prints a table of medians and ratios.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${BENCH_ROWS:-10000000}
RUNS=${BENCH_RUNS:-5}
CODEC=${BENCH_CODEC:-snappy}
SHARED_BUFFERS=${BENCH_SHARED_BUFFERS:-4GB}
MEM_RUNS=${BENCH_MEM_RUNS:-3}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start reader.sh parquet_fdw_bench

FILE=$WORK/lineitem.parquet


echo "== generating $ROWS rows ($CODEC) with DuckDB"
node bench/gen_lineitem.mjs "$FILE" "$ROWS" --codec "$CODEC"
chmod 644 "$FILE"

PGFDW_CLUSTER_SETTINGS="shared_buffers = '$SHARED_BUFFERS'
jit = off
max_parallel_workers_per_gather = 0"
pgfdw_cluster_start
BINDIR=$("$PG_CONFIG" --bindir)
PSQL=("$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off)

echo "cluster: running with $("${PSQL[@]}" -Atc "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'jit', 'max_parallel_workers_per_gather', 'work_mem')") ($("${PSQL[@]}" -Atc 'SELECT version()' | cut -d, -f1))"

echo "== loading"
"${PSQL[@]}" -v file="$FILE" -f bench/load_lineitem.sql
"${PSQL[@]}" -v file="$FILE" <<'SQL'
\pset footer off
SELECT pg_size_pretty(file_size) AS file_size, num_rows, num_row_groups, num_columns, created_by
  FROM parquet_fdw.file_info(:'file');
SELECT pg_size_pretty(pg_relation_size('li_heap')) AS heap_size,
       pg_relation_size('li_heap') / current_setting('block_size')::int AS heap_pages,
       (SELECT count(*) FROM pg_buffercache
         WHERE relfilenode = pg_relation_filenode('li_heap')
           AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND relforknumber = 0) AS pages_in_shared_buffers;
SQL

tables_json='{"fdw":"li","heap":"li_heap"}'
printf '{"runs":%d,"rows":%d,"tables":%s}\n' "$RUNS" "$ROWS" "$tables_json" >"$WORK/info.json"

echo "== plans"
variant=()
for q in a b c; do
	for t in li li_heap; do
		echo "-- ($q) on $t"
		"${PSQL[@]}" -P footer=off -c "EXPLAIN (COSTS OFF) $(node bench/bench.mjs query "$q" "$t")" >"$WORK/plan_${q}_$t.txt"
		sed 's/^/   /' "$WORK/plan_${q}_$t.txt"
	done
	# Without statistics on the foreign table the planner may pick Sort +
	# GroupAggregate for (b) (it does at 1M rows, not at 10M); then also time the fdw
	# with a larger work_mem, which gives the heap table's HashAggregate.
	if [ "$q" = b ] && grep -q GroupAggregate "$WORK/plan_b_li.txt" && ! grep -q GroupAggregate "$WORK/plan_b_li_heap.txt"; then
		variant=(--hashagg-variant)
		echo "-- (b') on li with work_mem = 256MB (also timed: the plan of (b) on li differs from li_heap's)"
		"${PSQL[@]}" -P footer=off -c "SET work_mem = '256MB'" \
			-c "EXPLAIN (COSTS OFF) $(node bench/bench.mjs query "$q" li)" | sed 's/^/   /'
	fi
done

echo "== timing: 1 warm-up + $RUNS runs per query and table, one psql session"
node bench/bench.mjs psql-script "${variant[@]}" "$WORK" "$RUNS" li li_heap >"$WORK/timing.sql"
"${PSQL[@]}" -A -t -f "$WORK/timing.sql" >"$WORK/timing.log"

echo "== DuckDB (threads = 1): 1 warm-up + $RUNS runs per query"
node bench/bench.mjs duckdb "$FILE" "$RUNS" "$WORK/duckdb.json"

echo "== peak backend memory during (c): $MEM_RUNS runs per table"
node bench/bench.mjs peak-rss fdw "$MEM_RUNS" li >"$WORK/rss_fdw.json"
node bench/bench.mjs peak-rss heap "$MEM_RUNS" li_heap >"$WORK/rss_heap.json"

echo
echo "== results ($ROWS rows, $CODEC, $(du -m "$FILE" | cut -f1) MiB file; load average now $(cut -d' ' -f1-3 /proc/loadavg))"
node bench/bench.mjs report "$WORK"
