#!/usr/bin/env bash
# Planning over a hive tree of 10,000 leaf directories (issue 35, item 6):
# EXPLAIN of queries whose quals leave few partitions, warm and as a new
# backend's first query, against a heap table and DuckDB in the same run.
# Run as root after scripts/setup.sh:
#
#   bash bench/partition_walk.sh
#
# Environment: BENCH_RUNS (timed runs per query, default 7), BENCH_KEEP=1
# keeps the work directory.  bench/partition_walk.mjs writes the tree with
# DuckDB and prints the table; it exits 1 if an answer differs from DuckDB's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${BENCH_RUNS:-7}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start partition_walk.sh parquet_fdw_walk pg

PGFDW_CLUSTER_SETTINGS="jit = off"
pgfdw_cluster_start
node bench/partition_walk.mjs "$WORK" "$RUNS"
