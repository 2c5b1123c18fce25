#!/usr/bin/env bash
# Reading from object storage (issue 39, "Benchmark and targets"): the
# lineitem file served by nginx and by a local S3 (s3rver behind the
# SigV4-checking front of the tests), each adding a fixed latency to every
# request (0, 5 and 20 ms, as a real store would), against the same file
# read locally in the same run.  Run as root after scripts/setup.sh:
#
#   bash bench/object_store.sh
#
# Environment:
#   BENCH_ROWS       lineitem rows (default 10000000: ~82 row groups)
#   BENCH_RUNS       timed runs per query and reader (default 3)
#   BENCH_LATENCIES  added latencies in ms (default "0 5 20")
#   BENCH_FILES      files of the hive dataset (default 1000)
#   BENCH_KEEP=1     keep the work directory
#
# bench/object_store.mjs prints, per latency and query, the local time, the
# bucket's time and their ratio, requests per query and bytes fetched
# (against the column chunks the query needs, from the footer); the
# requests of a point lookup once the footer is cached; the listing
# requests of planning a two-partition query over the hive dataset.  It
# exits 1 if the bucket's rows differ from the local file's.  DuckDB is not
# compared: its httpfs extension cannot be installed here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${BENCH_ROWS:-10000000}
FILES=${BENCH_FILES:-1000}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start object_store.sh parquet_fdw_object_store s3rver

bench_need_nginx

FILE=$WORK/lineitem.parquet
echo "== generating $ROWS rows with DuckDB"
node bench/gen_lineitem.mjs "$FILE" "$ROWS"
chmod 644 "$FILE"

PGFDW_CLUSTER_SETTINGS="shared_buffers = '1GB'
jit = off
max_parallel_workers_per_gather = 0"
pgfdw_cluster_start
"$("$PG_CONFIG" --bindir)/psql" -X -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION parquet_fdw'

echo "== timing (progress on stderr)"
node --openssl-legacy-provider bench/object_store.mjs "$WORK" "${BENCH_RUNS:-3}" "$FILES" ${BENCH_LATENCIES:-0 5 20}
