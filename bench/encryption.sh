#!/usr/bin/env bash
# Encryption overhead benchmark (issue 6, "Benchmark"): COPY TO parquet and
# scans of the written files, plaintext vs AES_GCM_V1 vs AES_GCM_CTR_V1 (every
# column under the footer key, encrypted footer), on the 10M-row
# lineitem-like table. Target: each encrypted time <= 1.2x the plaintext one.
# Run as root from anywhere, after scripts/setup.sh:
#
#   bash bench/encryption.sh
#
# Environment:
#   BENCH_ROWS            rows (default 10000000)
#   BENCH_RUNS            timed runs per variant (default 5)
#   BENCH_SHARED_BUFFERS  shared_buffers of the cluster (default 4GB: the heap table stays cached)
#   BENCH_KEEP=1          keep the work directory (files, logs) at the end
#
# Steps: write the lineitem-like file with DuckDB (bench/gen_lineitem.mjs,
# snappy); start a throwaway cluster (scripts/cluster.sh) with shared_buffers,
# jit = off, max_parallel_workers_per_gather = 0; heap table li_heap
# (bench/load_lineitem.sql); a 256-bit key in a key directory of the work
# directory (parquet_fdw.create_key); time, in one psql session, COPY li_heap
# TO parquet (snappy) plain / GCM / CTR, one warm-up each and BENCH_RUNS runs
# alternating; then foreign tables over the three files and time
#   (a) SELECT sum(l_extendedprice), count(*) FROM T WHERE l_quantity < 25
#   (c) SELECT count(t.*) FROM T t            (decrypts and decodes every page)
# the same way. The aggregates of every scan must agree with the heap table's.
# Each statement is measured as wall time (psql's \timing) and as the
# backend's CPU time (/proc/<pid>/schedstat before and after: user + system,
# nanoseconds), which other processes on the machine do not inflate.
# Prints medians and ratios of both; the target is judged on CPU time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROWS=${BENCH_ROWS:-10000000}
RUNS=${BENCH_RUNS:-5}
SHARED_BUFFERS=${BENCH_SHARED_BUFFERS:-4GB}

# shellcheck source=bench/common.sh
source bench/common.sh
bench_start encryption.sh parquet_fdw_bench_enc

FILE=$WORK/lineitem.parquet
KEYS=$WORK/keys


echo "== AES-NI: $(grep -qw aes /proc/cpuinfo && echo yes || echo no)"
echo "== generating $ROWS rows (snappy) with DuckDB"
node bench/gen_lineitem.mjs "$FILE" "$ROWS" --codec snappy
chmod 644 "$FILE"
# the server (user postgres) writes the COPY output here and keeps its keys
chown postgres:postgres "$WORK"
chmod 755 "$WORK"
mkdir -m 700 "$KEYS"
chown postgres:postgres "$KEYS"

PGFDW_CLUSTER_SETTINGS="shared_buffers = '$SHARED_BUFFERS'
jit = off
max_parallel_workers_per_gather = 0
parquet_fdw.key_directory = '$KEYS'"
pgfdw_cluster_start
BINDIR=$("$PG_CONFIG" --bindir)
PSQL=("$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off)

echo "== loading"
"${PSQL[@]}" -v file="$FILE" -f bench/load_lineitem.sql
"${PSQL[@]}" -c "SELECT parquet_fdw.create_key('bench_key', 256)" >/dev/null

VARIANTS=(plain gcm ctr)
copy_sql() { # VARIANT FILE
	local opts=""
	case $1 in
	gcm) opts=", footer_key 'bench_key'" ;;
	ctr) opts=", footer_key 'bench_key', encryption_algorithm 'AES_GCM_CTR_V1'" ;;
	esac
	echo "COPY li_heap TO '$2' WITH (FORMAT parquet$opts);"
}
query_sql() { # a|c TABLE
	case $1 in
	a) echo "SELECT sum(l_extendedprice), count(*) FROM $2 WHERE l_quantity < 25;" ;;
	c) echo "SELECT count(t.*) FROM $2 t;" ;;
	esac
}

# One psql session: "@@ <what> <variant> <run>" before each timed statement,
# the backend's CPU time (schedstat, ns) before ("CPU0") and after ("CPU1").
timed() { # WHAT VARIANT RUN SQL
	echo "\\echo @@ $1 $2 $3"
	echo "\\! awk '{print \"CPU0\", \$1}' /proc/\$BENCH_PID/schedstat"
	echo "$4"
	echo "\\! awk '{print \"CPU1\", \$1}' /proc/\$BENCH_PID/schedstat"
}
session_head() {
	echo "SELECT pg_backend_pid() AS pid \\gset"
	echo '\setenv BENCH_PID :pid'
	echo "LOAD 'parquet_fdw';"
	echo '\timing on'
	echo '\o /dev/null'
}
{
	session_head
	for run in $(seq 0 "$RUNS"); do
		for v in "${VARIANTS[@]}"; do
			timed copy "$v" "$run" "$(copy_sql "$v" "$WORK/li_$v.parquet")"
		done
	done
} >"$WORK/copy.sql"
echo "== timing COPY TO parquet: plain, AES_GCM_V1, AES_GCM_CTR_V1; 1 warm-up + $RUNS runs each, alternating"
"${PSQL[@]}" -A -t -f "$WORK/copy.sql" >"$WORK/copy.log" 2>&1

for v in "${VARIANTS[@]}"; do
	"${PSQL[@]}" -c "CREATE FOREIGN TABLE li_$v ($("${PSQL[@]}" -Atc "SELECT string_agg(format('%I %s', attname, format_type(atttypid, atttypmod)), ', ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'li_heap'::regclass AND attnum > 0 AND NOT attisdropped")) SERVER parquet_srv OPTIONS (filename '$WORK/li_$v.parquet')"
done
echo "== files"
for v in "${VARIANTS[@]}"; do
	printf '   %-6s %s bytes, magic %s..%s\n' "$v" "$(stat -c %s "$WORK/li_$v.parquet")" \
		"$(head -c 4 "$WORK/li_$v.parquet")" "$(tail -c 4 "$WORK/li_$v.parquet")"
done

echo "== the scans agree with the heap table"
ok=1
for q in a c; do
	want=$("${PSQL[@]}" -Atc "$(query_sql "$q" li_heap)")
	for v in "${VARIANTS[@]}"; do
		got=$("${PSQL[@]}" -Atc "$(query_sql "$q" "li_$v")")
		if [ "$got" = "$want" ]; then
			echo "   ($q) li_$v: $got"
		else
			echo "   ($q) li_$v: $got, heap: $want  MISMATCH"
			ok=0
		fi
	done
done

{
	session_head
	for q in a c; do
		for run in $(seq 0 "$RUNS"); do
			for v in "${VARIANTS[@]}"; do
				timed "scan_$q" "$v" "$run" "$(query_sql "$q" "li_$v")"
			done
		done
	done
} >"$WORK/scan.sql"
echo "== timing scans (a) and (c) of the three files; 1 warm-up + $RUNS runs each, alternating"
"${PSQL[@]}" -A -t -f "$WORK/scan.sql" >"$WORK/scan.log" 2>&1

echo
echo "== results ($ROWS rows, median of $RUNS runs after a warm-up; load average now $(cut -d' ' -f1-3 /proc/loadavg))"
# "@@ what variant run", "CPU0 ns", "Time: ms", "CPU1 ns" per statement
cat "$WORK/copy.log" "$WORK/scan.log" | awk '
	/^@@ / { what = $2; v = $3; run = $4; next }
	/^CPU0 / { c0 = $2; next }
	/^Time: / { ms = $2; next }
	/^CPU1 / { if (run > 0) { k = ++n[what, v]; wall[what, v, k] = ms; cpu[what, v, k] = ($2 - c0) / 1e6 } }
	function median(arr, what, v,    k, i, j, a, tmp) {
		k = n[what, v]
		for (i = 1; i <= k; i++) a[i] = arr[what, v, i]
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { tmp = a[i]; a[i] = a[j]; a[j] = tmp }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	END {
		split("copy scan_a scan_c", whats, " ")
		label["copy"] = "COPY li_heap TO parquet (snappy)"
		label["scan_a"] = "(a) sum/count WHERE l_quantity < 25"
		label["scan_c"] = "(c) count(t.*)"
		printf "%-37s %-5s %9s %9s %9s %9s %9s\n", "", "", "plain ms", "GCM ms", "CTR ms", "GCM/plain", "CTR/plain"
		worst = 0
		for (w = 1; w <= 3; w++) {
			x = whats[w]
			p = median(cpu, x, "plain"); g = median(cpu, x, "gcm"); c = median(cpu, x, "ctr")
			printf "%-37s %-5s %9.0f %9.0f %9.0f %8.2fx %8.2fx\n", label[x], "CPU", p, g, c, g / p, c / p
			if (g / p > worst) worst = g / p
			if (c / p > worst) worst = c / p
			p = median(wall, x, "plain"); g = median(wall, x, "gcm"); c = median(wall, x, "ctr")
			printf "%-37s %-5s %9.0f %9.0f %9.0f %8.2fx %8.2fx\n", "", "wall", p, g, c, g / p, c / p
		}
		printf "\ntarget: encrypted <= 1.2x plain (backend CPU time); worst ratio %.2fx: %s\n", worst, worst <= 1.2 ? "met" : "NOT met"
	}'
[ $ok = 1 ] || {
	echo "encryption.sh: a scan of an encrypted file disagrees with the heap table" >&2
	exit 1
}
repro="bash bench/encryption.sh"
[ "$ROWS" != 10000000 ] && repro="BENCH_ROWS=$ROWS $repro"
[ "$RUNS" != 5 ] && repro="BENCH_RUNS=$RUNS $repro"
[ "$SHARED_BUFFERS" != 4GB ] && repro="BENCH_SHARED_BUFFERS=$SHARED_BUFFERS $repro"
echo "Reproduce (as root, from the repository root, after scripts/setup.sh): $repro"
