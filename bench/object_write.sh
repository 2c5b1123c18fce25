#!/usr/bin/env bash
# Writing to object storage (issue 34, "Benchmark"): COPY of the lineitem
# heap table to an s3:// URL against COPY to a local Parquet file and COPY
# TO csv, measured in the same run.  The bucket is nginx answering S3's
# writes (bench/nginx_store.mjs), adding 0 and 20 ms to every request, so
# that the backend, not an emulator, is measured; one more COPY goes
# through the SigV4-checking local S3 of the tests and its object must be
# the local file byte for byte.  Run as root after scripts/setup.sh:
#
#   bash bench/object_write.sh
#
# Environment:
#   BENCH_ROWS           lineitem rows (default 10000000)
#   BENCH_RUNS           timed runs per target (default 3)
#   BENCH_LATENCIES      added latencies in ms (default "0 20")
#   BENCH_SHARED_BUFFERS shared_buffers (default 4GB: the heap table stays cached)
#   BENCH_KEEP=1         keep the work directory
#
# bench/object_write.mjs prints the medians, the ratio of each to the local
# file, the issue's targets, each COPY's peak backend memory and the
# requests of a bucket COPY.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${BENCH_ROWS:-10000000}
SHARED_BUFFERS=${BENCH_SHARED_BUFFERS:-4GB}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start object_write.sh parquet_fdw_object_write s3rver

bench_need_nginx

FILE=$WORK/lineitem.parquet
echo "== generating $ROWS rows with DuckDB"
node bench/gen_lineitem.mjs "$FILE" "$ROWS"
chmod 644 "$FILE"
# the server writes the local COPY targets here
chown postgres:postgres "$WORK"

PGFDW_CLUSTER_SETTINGS="shared_buffers = '$SHARED_BUFFERS'
jit = off
max_parallel_workers_per_gather = 0"
pgfdw_cluster_start
echo "== loading"
"$("$PG_CONFIG" --bindir)/psql" -X -q -v ON_ERROR_STOP=1 -v file="$FILE" -f bench/load_lineitem.sql

echo "== timing (progress on stderr)"
# shellcheck disable=SC2086
node --openssl-legacy-provider bench/object_write.mjs "$WORK" "${BENCH_RUNS:-3}" ${BENCH_LATENCIES:-0 20}
