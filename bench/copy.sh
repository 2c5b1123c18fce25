#!/usr/bin/env bash
# COPY TO Parquet benchmark (issue 5, "Benchmark"): COPY li_heap TO parquet
# (snappy, zstd) vs COPY li_heap TO csv vs DuckDB (threads = 1) writing the same
# data to Parquet, on the 10M-row lineitem-like heap table. Run as root from
# anywhere, after scripts/setup.sh (the extension installed, test/js/node_modules
# present):
#
#   bash bench/copy.sh
#
# Environment:
#   BENCH_ROWS            rows (default 10000000)
#   BENCH_RUNS            timed runs per writer (default 5)
#   BENCH_MEM_RUNS        runs of the peak-memory measurement per COPY (default 3)
#   BENCH_SHARED_BUFFERS  shared_buffers of the cluster (default 4GB: the heap table stays cached)
#   BENCH_FSYNC_ROW=0     skip the extra "fsync = on" timing of COPY TO parquet (snappy)
#   BENCH_PERF            auto (default: profile one COPY TO parquet (snappy) with
#                         `perf record -g -p <backend>` when parquet/csv > 1.5x), 1 (always), 0 (never)
#   BENCH_KEEP=1          keep the work directory (files, logs, JSON) at the end
#
# Steps: write the lineitem-like file with DuckDB (bench/gen_lineitem.mjs, snappy);
# start a throwaway cluster (scripts/cluster.sh) and set shared_buffers,
# jit = off, max_parallel_workers_per_gather = 0 (PGFDW_CLUSTER_SETTINGS);
# foreign table li over the file, heap table li_heap (CREATE TABLE AS, VACUUM
# ANALYZE, pg_prewarm); aggregate checksums of li_heap; time the COPY variants
# (bench/bench.mjs COPY_VARIANTS) in one psql session after LOAD 'parquet_fdw';
# DuckDB loads the same file into an in-memory table and times COPY TO parquet
# with snappy and zstd; DuckDB reads every Parquet file written (checksums,
# sizes, layout); sample the backend's RssAnon during each COPY. Prints a table
# of medians, ratios, sizes and the issue's targets.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${BENCH_ROWS:-10000000}
RUNS=${BENCH_RUNS:-5}
MEM_RUNS=${BENCH_MEM_RUNS:-3}
SHARED_BUFFERS=${BENCH_SHARED_BUFFERS:-4GB}
FSYNC_ROW=${BENCH_FSYNC_ROW:-1}
PERF=${BENCH_PERF:-auto}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start copy.sh parquet_fdw_bench_copy

FILE=$WORK/lineitem.parquet


echo "== generating $ROWS rows (snappy) with DuckDB"
node bench/gen_lineitem.mjs "$FILE" "$ROWS" --codec snappy
chmod 644 "$FILE"
# The server (user postgres) reads the file and writes the COPY output here.
chown postgres:postgres "$WORK"
chmod 755 "$WORK"

PGFDW_CLUSTER_SETTINGS="shared_buffers = '$SHARED_BUFFERS'
jit = off
max_parallel_workers_per_gather = 0"
pgfdw_cluster_start
BINDIR=$("$PG_CONFIG" --bindir)
PSQL=("$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off)

echo "cluster: running with $("${PSQL[@]}" -Atc "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'jit', 'max_parallel_workers_per_gather', 'fsync')") ($("${PSQL[@]}" -Atc 'SELECT version()' | cut -d, -f1))"

echo "== loading"
"${PSQL[@]}" -v file="$FILE" -f bench/load_lineitem.sql
"${PSQL[@]}" <<'SQL'
\pset footer off
SELECT pg_size_pretty(pg_relation_size('li_heap')) AS heap_size,
       pg_relation_size('li_heap') / current_setting('block_size')::int AS heap_pages,
       (SELECT count(*) FROM pg_buffercache
         WHERE relfilenode = pg_relation_filenode('li_heap')
           AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND relforknumber = 0) AS pages_in_shared_buffers;
SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum) AS li_heap_columns
  FROM pg_attribute WHERE attrelid = 'li_heap'::regclass AND attnum > 0 AND NOT attisdropped;
SQL

echo "== checksums of li_heap"
"${PSQL[@]}" -At -F '|' -c "$(node bench/bench.mjs checksum-sql pg li_heap)" >"$WORK/checksum_heap.txt"
printf '{"runs":%d,"mem_runs":%d,"rows":%d}\n' "$RUNS" "$MEM_RUNS" "$ROWS" >"$WORK/info.json"

echo "== timing: COPY TO parquet (snappy, zstd) and csv, 1 warm-up + $RUNS runs each, alternating, one psql session"
node bench/bench.mjs copy-psql-script "$WORK" "$RUNS" li_heap >"$WORK/timing.sql"
"${PSQL[@]}" -A -t -f "$WORK/timing.sql" >"$WORK/timing.log"
grep -v '^$' "$WORK/timing.sql" | grep -v '^\\' | sort -u | sed 's/^/   /'

if [ "$FSYNC_ROW" = 1 ]; then
	echo "== timing: COPY TO parquet (snappy) with fsync = on, 1 warm-up + $RUNS runs"
	"${PSQL[@]}" -c "ALTER SYSTEM SET fsync = on" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 1
	[ "$("${PSQL[@]}" -Atc 'SHOW fsync')" = on ] || {
		echo "copy.sh: fsync is not on after the reload" >&2
		exit 1
	}
	node bench/bench.mjs copy-psql-script "$WORK" "$RUNS" li_heap pq_snappy |
		sed 's/^\\echo @@ copy pq_snappy /\\echo @@ copy pq_snappy_fsync /' >"$WORK/timing_fsync.sql"
	"${PSQL[@]}" -A -t -f "$WORK/timing_fsync.sql" >"$WORK/timing_fsync.log"
	"${PSQL[@]}" -c "ALTER SYSTEM RESET fsync" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 1
	echo "   fsync back to $("${PSQL[@]}" -Atc 'SHOW fsync')"
fi

echo "== DuckDB (threads = 1): load the file into a table, then COPY TO parquet snappy and zstd, 1 warm-up + $RUNS runs each"
node bench/bench.mjs duckdb-copy "$FILE" "$WORK" "$RUNS" "$WORK/duck_copy.json"

echo "== DuckDB reads the Parquet files (checksums, sizes, layout)"
node bench/bench.mjs copy-check "$WORK" "$WORK/check.json"

echo "== peak backend memory during COPY: $MEM_RUNS runs per variant"
for v in pq_snappy pq_zstd csv; do
	node bench/bench.mjs peak-rss-copy "$v" "$MEM_RUNS" "$v" li_heap "$WORK" >"$WORK/rss_$v.json"
done
rm -f "$WORK"/mem_* "$WORK"/warm_*

ratio=$(node bench/bench.mjs copy-ratio "$WORK")
if [ "$PERF" = 1 ] || { [ "$PERF" = auto ] && awk -v r="$ratio" 'BEGIN { exit !(r > 1.5) }'; }; then
	echo "== perf: one COPY TO parquet (snappy) (parquet/csv = ${ratio}x)"
	sql=$(node bench/bench.mjs copy-sql pq_snappy li_heap "$WORK/perf.parquet")
	PGAPPNAME=copy_perf "${PSQL[@]}" -c "LOAD 'parquet_fdw'" -c "SELECT pg_sleep(2)" -c "$sql" >/dev/null &
	psql_pid=$!
	pid=
	for _ in $(seq 100); do
		pid=$("${PSQL[@]}" -Atc "SELECT pid FROM pg_stat_activity WHERE application_name = 'copy_perf'")
		[ -n "$pid" ] && break
		sleep 0.05
	done
	[ -n "$pid" ] || {
		echo "copy.sh: no backend for the perf run" >&2
		exit 1
	}
	perf record -g -p "$pid" -o "$WORK/perf.data" >"$WORK/perf_record.log" 2>&1 &
	perf_pid=$!
	wait "$psql_pid"
	kill -INT "$perf_pid"
	wait "$perf_pid" || true
	# perf prints empty IPC columns ("-  -") at the end of each line: cut them.
	perf report -i "$WORK/perf.data" --no-children --stdio -g none --percent-limit 0.5 \
		--sort dso,symbol 2>/dev/null | grep -v '^#' | grep -v '^$' | sed 's/ *- *- *$//' >"$WORK/perf.txt" || true
	perf report -i "$WORK/perf.data" --children --stdio -g none --percent-limit 2 \
		--sort symbol 2>/dev/null | grep -v '^#' | grep -v '^$' | sed 's/ *- *- *$//' |
		grep -v -E '\] (0x[0-9a-f]+|main|__libc_start_call_main|_start|__libc_start_main.*|PostmasterMain|ServerLoop|BackendStartup|BackendRun|PostgresMain|exec_simple_query|PortalRun.*|ProcessUtility|standard_ProcessUtility)$' \
		>"$WORK/perf_children.txt" || true
	rm -f "$WORK/perf.parquet"
fi

echo
echo "== results ($ROWS rows; heap table $("${PSQL[@]}" -Atc "SELECT pg_size_pretty(pg_relation_size('li_heap'))"); load average now $(cut -d' ' -f1-3 /proc/loadavg))"
rc=0
node bench/bench.mjs copy-report "$WORK" || rc=$?
if [ -s "$WORK/perf.txt" ]; then
	echo
	echo "perf profile of one COPY TO parquet (snappy) (self time, >= 0.5%; perf record -g -p <backend pid>):"
	sed 's/^/  /' "$WORK/perf.txt" | head -30
	echo
	echo "inclusive time (children, >= 2%; frame-pointer call chains, so some callers are missing; the first column includes callees):"
	sed 's/^/  /' "$WORK/perf_children.txt" | head -40
fi
echo
repro="bash bench/copy.sh"
[ "$ROWS" != 10000000 ] && repro="BENCH_ROWS=$ROWS $repro"
[ "$RUNS" != 5 ] && repro="BENCH_RUNS=$RUNS $repro"
[ "$SHARED_BUFFERS" != 4GB ] && repro="BENCH_SHARED_BUFFERS=$SHARED_BUFFERS $repro"
[ "$MEM_RUNS" != 3 ] && repro="BENCH_MEM_RUNS=$MEM_RUNS $repro"
[ "$FSYNC_ROW" != 1 ] && repro="BENCH_FSYNC_ROW=$FSYNC_ROW $repro"
[ "$PERF" != auto ] && repro="BENCH_PERF=$PERF $repro"
echo "Reproduce (as root, from the repository root, after scripts/setup.sh): $repro"
exit $rc
