#!/usr/bin/env bash
# Nested-column benchmark (issue 3, "Benchmark"): parquet_fdw vs DuckDB
# (threads = 1) on one file of a list<int64> column (10 elements per row on
# average) and a struct of 5 fields. Run as root from anywhere, after
# scripts/setup.sh (the extension installed, test/js/node_modules present):
#
#   bash bench/nested.sh
#
# Environment:
#   BENCH_ROWS   rows in the file (default 1000000)
#   BENCH_RUNS   timed runs per query (default 5)
#   BENCH_KEEP=1 keep the work directory (the file) at the end
#
# Steps: write the file with DuckDB (bench/nested.mjs gen) into a temporary
# directory; start a throwaway cluster (scripts/cluster.sh) with jit = off
# and max_parallel_workers_per_gather = 0; foreign tables over the list
# (bigint[]), the struct as a composite type and as jsonb; time each query
# through parquet_fdw and in DuckDB (bench/nested.mjs run), print medians and
# fdw/DuckDB ratios, and check that both give the same results.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${BENCH_ROWS:-1000000}
RUNS=${BENCH_RUNS:-5}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start nested.sh parquet_fdw_bench

FILE=$WORK/nested.parquet


echo "== generating $ROWS rows with DuckDB"
node bench/nested.mjs gen "$FILE" "$ROWS"
chmod 644 "$FILE"

PGFDW_CLUSTER_SETTINGS="jit = off
max_parallel_workers_per_gather = 0"
pgfdw_cluster_start >/dev/null

echo "== timing: 1 warm-up + $RUNS runs per query"
node bench/nested.mjs run "$FILE" "$RUNS"
