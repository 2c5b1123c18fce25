#!/usr/bin/env bash
# Datasets (issue 17, "Metadata cache" targets): a foreign table over 10,000
# files in 100 hive partitions (1,000 rows each) against the same rows in
# one file, and DuckDB over both.  Run as root after scripts/setup.sh:
#
#   bash bench/datasets.sh
#
# Environment:
#   BENCH_PARTS, BENCH_FILES, BENCH_ROWS   partitions, files per partition,
#                                          rows per file (100, 100, 1000)
#   BENCH_RUNS                             timed runs per query (default 5)
#   BENCH_KEEP=1                           keep the work directory
#
# bench/datasets.mjs times, in one backend after a first (cold) run: EXPLAIN
# and count(*) with a partition qual, EXPLAIN of the whole table, and a sum
# over every file against the one-file table at 0 and 2 workers (and against
# the same rows in one file with row groups as small as the files, whose
# columns get the files' encodings); cold times are the first query of a new
# backend.  It exits 1 if any answer differs from the one-file tables'.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PARTS=${BENCH_PARTS:-100}
FILES=${BENCH_FILES:-100}
ROWS=${BENCH_ROWS:-1000}
RUNS=${BENCH_RUNS:-5}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start datasets.sh parquet_fdw_datasets pg

echo "== generating $PARTS x $FILES files of $ROWS rows with DuckDB"
node bench/gen_dataset.mjs "$WORK" "$PARTS" "$FILES" "$ROWS"
chmod -R a+rX "$WORK"

PGFDW_CLUSTER_SETTINGS="jit = off"
pgfdw_cluster_start
echo "== timing"
node bench/datasets.mjs "$WORK" "$RUNS"
