#!/usr/bin/env bash
# "Peak memory does not grow with file size" (issue 2, scope item 9): the
# backend's peak private memory during SELECT count(t.*) (every column of every
# row) through parquet_fdw, on a small file and on a >= 1 GiB file of the same
# schema. Run as root from anywhere, after scripts/setup.sh:
#
#   bash bench/memory.sh
#
# Environment:
#   BENCH_SMALL_ROWS      rows of the small file (default 2000000)
#   BENCH_LARGE_ROWS      rows of the large file (default 25000000, ~1.1 GiB with snappy)
#   BENCH_CODEC           snappy (default), zstd or uncompressed
#   BENCH_MIN_LARGE_BYTES the large file must be at least this big (default 1073741824)
#   BENCH_MEM_RUNS        measurements per file (default 3; the median is reported)
#   BENCH_MAX_RATIO       fail (exit 1) when large/small peak exceeds this (default 1.5)
#   BENCH_KEEP=1          keep the work directory at the end
#
# Memory is the backend's RssAnon from /proc/<pid>/status (private anonymous
# memory: palloc'd and malloc'd data, not shared buffers, not the page cache),
# sampled every 10 ms while the query runs, minus its value just before; see
# `peak-rss` in bench/bench.mjs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SMALL_ROWS=${BENCH_SMALL_ROWS:-2000000}
LARGE_ROWS=${BENCH_LARGE_ROWS:-25000000}
CODEC=${BENCH_CODEC:-snappy}
MIN_LARGE_BYTES=${BENCH_MIN_LARGE_BYTES:-1073741824}
RUNS=${BENCH_MEM_RUNS:-3}
MAX_RATIO=${BENCH_MAX_RATIO:-1.5}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start memory.sh parquet_fdw_bench_mem

echo "== generating the files ($CODEC) with DuckDB"
node bench/gen_lineitem.mjs "$WORK/small.parquet" "$SMALL_ROWS" --codec "$CODEC"
node bench/gen_lineitem.mjs "$WORK/large.parquet" "$LARGE_ROWS" --codec "$CODEC"
chmod 644 "$WORK"/*.parquet
large_bytes=$(stat -c %s "$WORK/large.parquet")
if [ "$large_bytes" -lt "$MIN_LARGE_BYTES" ]; then
	echo "memory.sh: the large file has $large_bytes bytes, less than $MIN_LARGE_BYTES; raise BENCH_LARGE_ROWS" >&2
	exit 1
fi
for k in small large; do
	node bench/bench.mjs rowgroup-size "$WORK/$k.parquet" >"$WORK/rg_$k.json"
done

# The same settings as bench/reader.sh.
PGFDW_CLUSTER_SETTINGS="jit = off
max_parallel_workers_per_gather = 0"
pgfdw_cluster_start
PSQL=("$("$PG_CONFIG" --bindir)/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off)
"${PSQL[@]}" -v small="$WORK/small.parquet" -v large="$WORK/large.parquet" <<'SQL'
CREATE EXTENSION parquet_fdw;
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;
SELECT parquet_fdw.create_table_sql(:'small', 'li_small') \gexec
SELECT parquet_fdw.create_table_sql(:'large', 'li_large') \gexec
SQL

echo "== SELECT count(t.*): $RUNS runs per file"
for k in small large; do
	node bench/bench.mjs peak-rss "$k" "$RUNS" "li_$k" >"$WORK/rss_$k.json"
done

echo
echo "== results"
node bench/bench.mjs memory-report "$WORK" "$MAX_RATIO"
