#!/usr/bin/env bash
# The cost of planning a query over every file of a hive dataset, warm, in
# this tree's build against an earlier commit's: callgrind instructions per
# EXPLAIN (load-independent) and the median wall-clock time of 60 EXPLAINs
# in one backend (A and B interleaved, three rounds: the VM is noisy).
# Run as root after scripts/setup.sh:
#
#   bash bench/plan_instructions.sh BASE_REV [DATASET]
#
# DATASET is a directory that bench/gen_dataset.mjs wrote (its tree/ is
# read); without it one is written to the work directory with BENCH_PARTS
# (100) partitions of BENCH_FILES (100) files of BENCH_ROWS (1000) rows,
# which takes minutes and the machine.  Each build is installed, in turn,
# into overlays over the server's library and share directories in a
# private mount namespace, as bench/instructions.sh does; a backend runs
# EXPLAIN SELECT sum(v) over the tree 4 times and another 2 times, and
# (Ir(4) - Ir(2)) / 2 is one warm planning.  Both builds' plans must be
# equal, else the script exits 1.  BENCH_KEEP=1 keeps the work directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
BINDIR=$("$PG_CONFIG" --bindir)
QUERY='EXPLAIN SELECT sum(v) FROM t'

if [ "${1:-}" = --inner ]; then
	WORK=$2
	TREE=$3
	# shellcheck source=bench/overlay.sh
	source bench/overlay.sh
	bench_overlay "$WORK"
	for build in base current; do
		bench_install $build "$WORK"
		cp "$("$PG_CONFIG" --pkglibdir)/parquet_fdw.so" "$WORK/$build.so"
	done
	D=$WORK/data
	runuser -u postgres -- "$BINDIR/initdb" -D "$D" -A trust >/dev/null
	printf '%s\n' 'CREATE EXTENSION parquet_fdw' \
		'CREATE SERVER ds FOREIGN DATA WRAPPER parquet_fdw' \
		"CREATE FOREIGN TABLE t (id bigint, v float8, s text, part int) SERVER ds OPTIONS (filename '$TREE')" |
		runuser -u postgres -- "$BINDIR/postgres" --single -D "$D" postgres >"$WORK/setup.out" 2>&1
	for k in 2 4; do
		for _ in $(seq $k); do echo "$QUERY"; done >"$WORK/q$k.sql"
	done
	{
		printf '%s\n' '\timing on'
		for _ in $(seq 61); do echo "$QUERY;"; done
	} >"$WORK/wall.sql"
	for build in base current; do
		cp "$WORK/$build.so" "$("$PG_CONFIG" --pkglibdir)/parquet_fdw.so"
		for k in 2 4; do
			runuser -u postgres -- valgrind --tool=callgrind \
				--callgrind-out-file="$WORK/${build}_$k.callgrind" \
				"$BINDIR/postgres" --single -D "$D" -c jit=off postgres \
				<"$WORK/q$k.sql" >"$WORK/${build}_$k.out" 2>"$WORK/${build}_$k.err"
		done
	done
	for round in 1 2 3; do
		for build in base current; do
			cp "$WORK/$build.so" "$("$PG_CONFIG" --pkglibdir)/parquet_fdw.so"
			runuser -u postgres -- "$BINDIR/pg_ctl" -D "$D" -l "$WORK/server.log" -w \
				-o "-c listen_addresses='' -k $WORK -c jit=off" start >/dev/null
			# the first EXPLAIN reads the footers: timed are the 60 after it
			runuser -u postgres -- psql -h "$WORK" -X -q -f "$WORK/wall.sql" postgres |
				awk '/^Time:/ { print $2 }' | tail -n 60 >"$WORK/${build}_wall_$round"
			runuser -u postgres -- "$BINDIR/pg_ctl" -D "$D" -m fast -w stop >/dev/null
		done
	done
	exit 0
fi

if [ "$(id -u)" != 0 ] || [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage (as root): bash bench/plan_instructions.sh BASE_REV [DATASET]" >&2
	exit 2
fi
BASE_REV=$(git rev-parse --verify "$1^{commit}")
command -v valgrind >/dev/null || {
	echo "plan_instructions.sh: valgrind missing (apt-get install valgrind)" >&2
	exit 1
}
WORK=$(mktemp -d /tmp/parquet_fdw_plan.XXXXXX)
chmod 755 "$WORK"
chown postgres "$WORK"
trap '[ "${BENCH_KEEP:-0}" = 1 ] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
DATASET=${2:-$WORK/dataset}
if [ $# -lt 2 ]; then
	node bench/gen_dataset.mjs "$DATASET" "${BENCH_PARTS:-100}" "${BENCH_FILES:-100}" "${BENCH_ROWS:-1000}"
	chmod -R a+rX "$DATASET"
fi

echo "== base $(git log -1 --format='%h %s' "$BASE_REV")"
echo "== current $(git log -1 --format='%h %s')$(git diff --quiet HEAD || echo ' + uncommitted changes')"
mkdir -p "$WORK/base_src"
git archive "$BASE_REV" | tar -x -C "$WORK/base_src"
make -s -C "$WORK/base_src" -j"$(nproc)" >/dev/null
make -s -j"$(nproc)" >/dev/null
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m bash -c 'mount --make-rprivate / && exec bash "$0" --inner "$1" "$2"' \
	"$PWD/bench/plan_instructions.sh" "$WORK" "$DATASET/tree"

ir() { awk '/^summary:/ { print $2; exit }' "$1"; }
median() { sort -n "$@" | awk '{ a[NR] = $1 } END { print (a[int((NR + 1) / 2)] + a[int(NR / 2) + 1]) / 2 }'; }
plan() { grep 'QUERY PLAN = ' "$1" | tail -n 2; }
status=0
printf '%-8s %15s %10s  %s\n' build 'Ir/EXPLAIN' 'median ms' 'median ms per round'
for build in base current; do
	printf '%-8s %15d %10.2f  %s\n' $build \
		$((($(ir "$WORK/${build}_4.callgrind") - $(ir "$WORK/${build}_2.callgrind")) / 2)) \
		"$(median "$WORK/${build}_wall_"*)" \
		"$(for r in 1 2 3; do median "$WORK/${build}_wall_$r"; done | tr '\n' ' ')"
	if grep -q ERROR "$WORK/${build}_4.err"; then
		echo "plan_instructions.sh: $build failed:" >&2
		grep -h ERROR "$WORK/${build}_4.err" >&2
		status=1
	fi
done
if [ "$(plan "$WORK/base_4.out")" != "$(plan "$WORK/current_4.out")" ]; then
	echo "plan_instructions.sh: the plans of the builds differ" >&2
	status=1
fi
exit $status
