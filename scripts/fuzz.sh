#!/usr/bin/env bash
# Build and run the libFuzzer targets of test/fuzz/ (see docs/FUZZING.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# For each target (default: all): first every reproducer kept in
# test/fuzz/regressions/<target>/ runs once, then the target fuzzes for
# SECONDS (default 60) from its corpus test/fuzz/corpus/<target>/ (seeded
# from the Apache corpus, the test fixtures and the format layer's writer
# when empty; new inputs are added to it).  Prints "<target>: N execs,
# 0 crashes" per target and "fuzz: N passed, N failed"; exits non-zero on
# any crash, leak, timeout or sanitizer report, leaving the input under
# test/fuzz/crashes/<target>/ (the path is printed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SECONDS_EACH=${1:-60}
shift || true
ALL=(thrift file page assemble variant decrypt http json delta_log dv delta_checkpoint iceberg_metadata iceberg_manifest iceberg_deletes)
TARGETS=("${@:-${ALL[@]}}")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL[@]}")
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
CORPUS=${PARQUET_TESTING_DIR:-$(pwd)/../shared/testdata/parquet-testing}
TABLE_FORMATS=${TABLE_FORMATS_DIR:-$(pwd)/../shared/testdata/table-formats}
FIXTURES=/tmp/parquet_fdw_test/fixtures

echo "fuzz: building"
make -s fuzz PG_CONFIG="$PG_CONFIG" >/dev/null

# seeds for targets whose corpus is empty
need_seeds=0
for t in "${TARGETS[@]}"; do
	[ -n "$(ls -A "test/fuzz/corpus/$t" 2>/dev/null)" ] || need_seeds=1
done
if [ $need_seeds = 1 ]; then
	writer_dir=$(mktemp -d /tmp/parquet_fdw_fuzzseed.XXXXXX)
	make -s writer_cli PG_CONFIG="$PG_CONFIG" >/dev/null
	test/unit/writer_cli "$writer_dir" >/dev/null
	node test/fuzz/make_seeds.mjs test/fuzz/corpus "$writer_dir" "$FIXTURES" "$CORPUS" "$TABLE_FORMATS"
	rm -rf "$writer_dir"
fi

passed=0
failed=0
for t in "${TARGETS[@]}"; do
	bin=test/fuzz/build/fuzz_$t
	crashes=test/fuzz/crashes/$t
	log=$(mktemp /tmp/parquet_fdw_fuzzlog.XXXXXX)
	mkdir -p "test/fuzz/corpus/$t" "$crashes"
	maxlen=65536
	[ "$t" = file ] && maxlen=262144
	ok=1
	# every kept reproducer once: a fixed bug must stay fixed
	if compgen -G "test/fuzz/regressions/$t/*" >/dev/null; then
		if ! "$bin" -rss_limit_mb=2048 -timeout=10 test/fuzz/regressions/"$t"/* >"$log" 2>&1; then
			echo "$t: a regression input fails again:"
			tail -n 40 "$log"
			ok=0
		fi
	fi
	if [ $ok = 1 ]; then
		set +e
		"$bin" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 \
			-max_len=$maxlen -dict=test/fuzz/parquet.dict -print_final_stats=1 \
			-artifact_prefix="$crashes/" "test/fuzz/corpus/$t" >"$log" 2>&1
		rc=$?
		set -e
		execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
		cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)
		if [ $rc = 0 ]; then
			echo "$t: $execs execs, 0 crashes ($cov)"
		else
			echo "$t: $execs execs, CRASH (exit $rc); reproducer under $crashes/:"
			ls -t "$crashes" | head -n 3 | sed "s|^|  $crashes/|"
			grep -E 'ERROR|SUMMARY|fuzz[_:]|runtime error' "$log" | head -n 20
			ok=0
		fi
	fi
	rm -f "$log"
	if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed = 0 ]
