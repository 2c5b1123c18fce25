#!/usr/bin/env bash
# Instructions per query of this tree's build against an earlier commit's, for
# single-file scans: callgrind counts in a single-user backend, which (unlike
# time on a shared machine) neither load nor frequency scaling moves.  Issue
# 17 requires that the dataset work not slow down the single-file case.
# Run as root after scripts/setup.sh:
#
#   bash bench/instructions.sh BASE_REV
#
# Environment:
#   BENCH_ROWS   rows of the lineitem file (default 300000: callgrind runs
#                ~50x slower than native; the whole run takes ~3 min)
#   BENCH_KEEP=1 keep the work directory (callgrind outputs for
#                callgrind_annotate)
#
# BASE_REV is built from `git archive` in the work directory; this tree is
# built in place.  Each build is installed, in turn, into overlays over the
# server's library and share directories inside a private mount namespace,
# so the installed extension stays untouched.  For each query a backend runs
# it once and another three times; (Ir(3) - Ir(1)) / 2 is one warm
# execution, without start-up, catalog loading and first-use costs.  Rows
# printed by both builds must be equal, else the script exits 1.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
BINDIR=$("$PG_CONFIG" --bindir)

if [ "${1:-}" = --inner ]; then
	WORK=$2
	# shellcheck source=bench/overlay.sh
	source bench/overlay.sh
	bench_overlay "$WORK"
	for build in base current; do
		bench_install $build "$WORK"
		D=$WORK/$build
		mkdir -p "$D"
		chown postgres "$D"
		runuser -u postgres -- "$BINDIR/initdb" -D "$D/data" -A trust >/dev/null
		printf '%s\n' 'CREATE EXTENSION parquet_fdw' \
			'CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw' \
			"IMPORT FOREIGN SCHEMA \"$WORK/data\" FROM SERVER parquet_srv INTO public" |
			runuser -u postgres -- "$BINDIR/postgres" --single -D "$D/data" postgres >"$D/setup.out" 2>&1
		while IFS='|' read -r name query; do
			for k in 1 3; do
				for _ in $(seq $k); do echo "$query"; done >"$D/${name}_$k.sql"
				runuser -u postgres -- valgrind --tool=callgrind \
					--callgrind-out-file="$D/${name}_$k.callgrind" \
					"$BINDIR/postgres" --single -D "$D/data" \
					-c max_parallel_workers_per_gather=0 -c jit=off postgres \
					<"$D/${name}_$k.sql" >"$D/${name}_$k.out" 2>"$D/${name}_$k.err"
			done
		done <"$WORK/queries"
	done
	exit 0
fi

if [ "$(id -u)" != 0 ] || [ $# -ne 1 ]; then
	echo "usage (as root): bash bench/instructions.sh BASE_REV" >&2
	exit 2
fi
BASE_REV=$(git rev-parse --verify "$1^{commit}")
ROWS=${BENCH_ROWS:-300000}
[ -d test/js/node_modules/@duckdb/node-api ] || {
	echo "instructions.sh: test/js/node_modules missing; run scripts/setup.sh first" >&2
	exit 1
}
if ! command -v valgrind >/dev/null; then
	echo "== apt-get install valgrind"
	flock /run/lock/parquet_fdw-apt.lock apt-get install -y -q --no-install-recommends valgrind >/dev/null
fi

WORK=$(mktemp -d /tmp/parquet_fdw_instr.XXXXXX)
chmod 755 "$WORK"
trap '[ "${BENCH_KEEP:-0}" = 1 ] && echo "kept $WORK" || rm -rf "$WORK"' EXIT

echo "== base $(git log -1 --format='%h %s' "$BASE_REV")"
echo "== current $(git log -1 --format='%h %s')$(git diff --quiet HEAD || echo ' + uncommitted changes')"
mkdir -p "$WORK/base_src" "$WORK/data"
git archive "$BASE_REV" | tar -x -C "$WORK/base_src"
echo "== building both"
make -s -C "$WORK/base_src" -j"$(nproc)" >/dev/null
make -s -j"$(nproc)" >/dev/null
node bench/gen_lineitem.mjs "$WORK/data/li.parquet" "$ROWS"
chmod 644 "$WORK/data/li.parquet"

# One line per query: the single-user backend ends a statement at a newline.
cat >"$WORK/queries" <<EOF
filter_count|SELECT count(*) FROM li WHERE l_quantity < 10
sum_avg|SELECT sum(l_extendedprice), avg(l_discount), count(*) FROM li
rows_local_qual|SELECT l_orderkey, l_comment, l_shipdate FROM li WHERE l_orderkey % 1000 = 7
group_by|SELECT l_returnflag, l_linestatus, sum(l_quantity), count(*) FROM li GROUP BY 1, 2 ORDER BY 1, 2
top_n|SELECT l_orderkey, l_extendedprice FROM li ORDER BY l_extendedprice DESC, l_orderkey LIMIT 10
all_columns|SELECT * FROM li OFFSET $((ROWS - 5))
plan_only|EXPLAIN SELECT * FROM li WHERE l_orderkey = 5
EOF
echo "== callgrind, single-user backends (BENCH_ROWS=$ROWS)"
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m bash -c 'mount --make-rprivate / && exec bash "$0" --inner "$1"' \
	"$PWD/bench/instructions.sh" "$WORK"

ir() { awk '/^summary:/ { print $2; exit }' "$1"; }
# one warm execution of query $2 by build $1
per_query() { echo $((($(ir "$WORK/$1/$2_3.callgrind") - $(ir "$WORK/$1/$2_1.callgrind")) / 2)); }
rows() { grep -E '^[[:space:]]+[0-9]+: ' "$1" || true; }
status=0
printf '%-18s %15s %15s %9s\n' query base current ratio
while IFS='|' read -r name _; do
	base_ir=$(per_query base "$name")
	current_ir=$(per_query current "$name")
	printf '%-18s %15d %15d %9.4f\n' "$name" "$base_ir" "$current_ir" \
		"$(awk -v a="$current_ir" -v b="$base_ir" 'BEGIN { print a / b }')"
	if [ "$(rows "$WORK/base/${name}_3.out")" != "$(rows "$WORK/current/${name}_3.out")" ]; then
		echo "instructions.sh: rows of \"$name\" differ between the builds" >&2
		status=1
	fi
	if grep -q ERROR "$WORK/base/${name}_3.err" "$WORK/current/${name}_3.err"; then
		echo "instructions.sh: \"$name\" failed:" >&2
		grep -h ERROR "$WORK/base/${name}_3.err" "$WORK/current/${name}_3.err" >&2
		status=1
	fi
done <"$WORK/queries"
exit $status
