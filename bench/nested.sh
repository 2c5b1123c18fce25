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
REPO=$(pwd)

ROWS=${BENCH_ROWS:-1000000}
RUNS=${BENCH_RUNS:-5}

if [ "$(id -u)" != 0 ]; then
	echo "nested.sh: run as root (the cluster runs as postgres)" >&2
	exit 1
fi
[ -d test/js/node_modules/@duckdb/node-api ] || {
	echo "nested.sh: test/js/node_modules missing; run scripts/setup.sh first" >&2
	exit 1
}

WORK=$(mktemp -d /tmp/parquet_fdw_bench.XXXXXX)
chmod 755 "$WORK" # the server (user postgres) reads the file from here
FILE=$WORK/nested.parquet

export PGFDW_NO_TRAP=1
# shellcheck source=scripts/cluster.sh
source "$REPO/scripts/cluster.sh"
cleanup() {
	local rc=$?
	if [ $rc -ne 0 ] && [ -n "${PGFDW_CLUSTER_DIR:-}" ]; then
		echo "nested.sh: failed (exit $rc); server log tail:" >&2
		tail -n 30 "$PGFDW_CLUSTER_DIR/server.log" >&2 || true
	fi
	pgfdw_cluster_stop || true
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "nested.sh: kept $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

echo "== machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== generating $ROWS rows with DuckDB"
node bench/nested.mjs gen "$FILE" "$ROWS"
chmod 644 "$FILE"

PGFDW_CLUSTER_SETTINGS="jit = off
max_parallel_workers_per_gather = 0"
pgfdw_cluster_start >/dev/null

echo "== timing: 1 warm-up + $RUNS runs per query"
node bench/nested.mjs run "$FILE" "$RUNS"
