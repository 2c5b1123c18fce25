#!/usr/bin/env bash
# Scale-out benchmark (docs/SCALE_OUT.md): one scan-heavy aggregate over the
# same files on 1, 2 and 4 parquet_fdw data nodes under a postgres_fdw
# coordinator (scripts/scale_out_cluster.sh), as root after scripts/setup.sh:
#
#   bash bench/scale_out.sh      BENCH_ROWS (default 40,000,000), BENCH_RUNS
#                                (default 5 timed runs after one warm-up)
#
# Every cluster runs with max_parallel_workers_per_gather = 0 and jit off, so
# a node is one backend on one core.  The nodes of one machine share its
# cores (the count and the load are printed first), so besides wall times
# it reads the CPU time of the backends from /proc (bench/scale_out_time.mjs):
# what each would spend on a machine of its own.  For each N it prints the
# median wall time of the query on the coordinator and its ratio to 1 node;
# the coordinator backend's CPU time; the merge alone: the same query on the
# coordinator over tables on the nodes that already hold the nodes' results
# (connections, remote planning, transfer, append, the final aggregate, no
# scan); and each node's CPU time in the distributed run, as its scan rate
# in rows and file bytes per CPU second.  With N = 1 it also times the query
# on the node directly, parquet_fdw with no postgres_fdw in between, serial
# and with two parallel workers.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROWS=${BENCH_ROWS:-40000000}
RUNS=${BENCH_RUNS:-5}
REGIONS=8
[ "$(id -u)" = 0 ] || {
	echo "scale_out: run as root (the clusters run as postgres)" >&2
	exit 1
}
SO_SETTINGS="max_parallel_workers_per_gather = 0
jit = off
shared_buffers = 256MB"
# shellcheck source=scripts/scale_out_cluster.sh
source scripts/scale_out_cluster.sh
so_init

# The same text on the coordinator and on a single node: per-region groups
# (pushed to each node whole, computed in its parquet scan), merged by category.
INNER="SELECT region, category, count(*) AS n, sum(price * qty) AS revenue, sum(qty) AS sq
  FROM events WHERE day >= '2024-02-01' GROUP BY region, category"
OUTER="SELECT category, sum(n), sum(revenue), round(sum(sq)::numeric / sum(n), 4)
  FROM %s p GROUP BY category ORDER BY category"
# shellcheck disable=SC2059 # OUTER is the format
QUERY=$(printf "$OUTER" "($INNER)")

# bench_time NAME SETUP SQL [NODE ...]: JSON medians of RUNS runs after a
# warm-up (bench/scale_out_time.mjs): wall, the backend's CPU, each node's CPU
bench_time() {
	local name=$1 setup=$2 sql=$3 nodes=() n
	shift 3
	for n in "$@"; do
		nodes+=("$SO_WORK/$n:$(cat "$SO_WORK/$n.port")")
	done
	node bench/scale_out_time.mjs "$RUNS" "$SO_WORK/$name" "$(cat "$SO_WORK/$name.port")" \
		"$setup" "$sql" "${nodes[@]}"
}
json() { node -e "const v = JSON.parse(process.argv[1]); console.log(Math.round($2))" "$1"; }

echo "== machine: $(nproc) CPUs (nproc), $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM; load average $(cut -d' ' -f1-3 /proc/loadavg)"
so_data "$ROWS" "$REGIONS" 2
BYTES=$(du -cb "$SO_WORK"/data/*.parquet | tail -n 1 | cut -f1)
echo "== query (coordinator: events partitioned over the nodes; node: its parquet_fdw table events):"
echo "$QUERY"
echo

RESULT=
BASE=
for N in 1 2 4; do
	so_nodes "$N" >/dev/null
	so_coordinator "$N" >/dev/null
	result=$(so_psql coord -A -t -c "$QUERY" | md5sum)
	if [ -n "$RESULT" ] && [ "$result" != "$RESULT" ]; then
		echo "scale_out: the result on $N nodes differs from the result on 1 node" >&2
		exit 1
	fi
	RESULT=$result
	remote=$(so_psql coord -A -t -c "EXPLAIN (VERBOSE) $QUERY" | sed -n 's/^ *Remote SQL: //p' | head -n 1)
	[ -n "$remote" ] || {
		echo "scale_out: no Remote SQL in the plan" >&2
		exit 1
	}

	if [ "$N" = 1 ]; then
		serial=$(bench_time node1 "" "$QUERY")
		parallel=$(bench_time node1 "SET max_parallel_workers_per_gather = 2" "$QUERY")
		echo "single node, parquet_fdw directly (no postgres_fdw): serial $(json "$serial" v.wall) ms" \
			"(CPU $(json "$serial" v.cpu) ms), 2 parallel workers $(json "$parallel" v.wall) ms;" \
			"$ROWS rows, $((BYTES / 1048576)) MiB of Parquet"
	fi

	names=()
	for ((i = 1; i <= N; i++)); do
		names+=("node$i")
	done
	dist=$(bench_time coord "" "$QUERY" "${names[@]}")
	wall=$(json "$dist" v.wall)
	[ -n "$BASE" ] || BASE=$wall

	# the merge alone: the nodes' results already in tables on the nodes
	for ((i = 1; i <= N; i++)); do
		so_psql "node$i" -c "CREATE TABLE partial (region, category, n, revenue, sq) AS $remote"
	done
	{
		echo "CREATE TABLE partial (region integer, category text, n bigint, revenue numeric, sq bigint) PARTITION BY LIST (region);"
		for ((i = 1; i <= N; i++)); do
			echo "CREATE FOREIGN TABLE partial_node$i PARTITION OF partial FOR VALUES IN ($(so_node_regions "$i" "$N")) SERVER node$i OPTIONS (table_name 'partial');"
		done
	} | so_psql coord
	# shellcheck disable=SC2059
	merge=$(bench_time coord "" "$(printf "$OUTER" partial)")

	echo "$N node(s): $wall ms on the coordinator, $(awk -v t="$wall" -v b="$BASE" 'BEGIN { printf "%.2fx of 1 node (speed-up %.2f)", t / b, b / t }');" \
		"coordinator CPU $(json "$dist" v.cpu) ms; merge only (nodes' results in tables) $(json "$merge" v.wall) ms wall," \
		"$(json "$merge" v.cpu) ms coordinator CPU"
	for ((i = 1; i <= N; i++)); do
		rows=$(so_psql "node$i" -A -t -c "SELECT count(*) FROM events")
		bytes=$(so_node_files "$i" "$N" | tr ',' '\n' | xargs du -cb | tail -n 1 | cut -f1)
		ms=$(json "$dist" "v.nodes[$((i - 1))]")
		awk -v ms="$ms" -v r="$rows" -v b="$bytes" -v i="$i" \
			'BEGIN { printf "   node%d: %d rows, %d ms CPU: %.1f M rows/s, %.0f MB/s per core\n", i, r, ms, r / ms / 1000, b / ms / 1000 }'
	done
	echo "   (load average $(cut -d' ' -f1-3 /proc/loadavg))"

	for ((i = N; i >= 1; i--)); do
		so_stop "node$i"
	done
	so_stop coord
	SO_CLUSTERS=()
done
