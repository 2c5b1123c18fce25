#!/usr/bin/env bash
# COPY ... TO ... (FORMAT parquet) under faults: whatever goes wrong, the
# target is either the old file or the new one, whole, and no temporary
# file is left behind.  Run as root (it mounts a small tmpfs to fill the
# disk); starts its own cluster (scripts/cluster.sh).  Prints
# "copy_faults: N passed, N failed".
#
#   cancel      pg_cancel_backend() from another session while the COPY is
#               writing row groups (seen: its temporary file has grown)
#   error       the query fails after row groups were written
#   readonly    the target directory is not writable by the server
#   disk_full   a 4 MB tmpfs fills up: ERROR 53100, the old target intact,
#               the tmpfs empty again
#   concurrent  two sessions COPY different rows to one target at once:
#               both succeed, the file is all of one of them (DuckDB reads it)
#   dataset     COPY TO a directory (partition_by) cancelled once its
#               temporary tree holds files, and failing mid-way: neither the
#               target nor the temporary tree remains
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
REPO=$(pwd)
export PGFDW_NO_TRAP=1
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
PSQL=("$("$PG_CONFIG" --bindir)/psql" -X -q -v ON_ERROR_STOP=1 -At)

D=$(mktemp -d /tmp/parquet_fdw_faults.XXXXXX)
chmod 777 "$D"
MOUNTED=
cleanup() {
	[ -n "$MOUNTED" ] && umount "$MOUNTED" 2>/dev/null
	pgfdw_cluster_stop >/dev/null 2>&1 || true
	rm -rf "$D"
}
trap cleanup EXIT

passed=0
failed=0
check() { # NAME CONDITION-DESCRIPTION RESULT(0 ok)
	if [ "$3" = 0 ]; then
		passed=$((passed + 1))
		echo "PASS $1: $2"
	else
		failed=$((failed + 1))
		echo "FAIL $1: $2"
	fi
}
no_tmp() { # DIR: no temporary file of ours left
	[ -z "$(find "$1" -maxdepth 1 -name '.*.tmp' -print -quit)" ]
}
sqlstate_of() { # LOGFILE: the SQLSTATE psql printed (VERBOSITY verbose)
	grep -oE 'ERROR:  [0-9A-Z]{5}' "$1" | head -n 1 | awk '{print $2}'
}

pgfdw_cluster_start >/dev/null
"${PSQL[@]}" -c "CREATE EXTENSION IF NOT EXISTS parquet_fdw"

# A row of ~100 bytes: row groups of 1000 rows flush 100 KB at a time.
ROWS="SELECT i, repeat(md5(i::text), 3) AS pad FROM generate_series(1, %s) i"

# ------------------------------------------------------------------ cancel
q=$(printf "$ROWS" 2000000)
( "${PSQL[@]}" -v VERBOSITY=verbose -c "SET application_name = 'fault_cancel'" \
	-c "COPY (SELECT *, CASE WHEN i % 1000 = 0 THEN pg_sleep(0.002) END FROM ($q) s) TO '$D/cancel.parquet' WITH (FORMAT parquet, row_group_size 1000)" \
	>"$D/cancel.log" 2>&1 || true ) &
copy_pid=$!
grown=1
for _ in $(seq 1 300); do
	tmp=$(find "$D" -maxdepth 1 -name '.cancel.parquet.*.tmp' -size +300k -print -quit)
	if [ -n "$tmp" ]; then grown=0; break; fi
	sleep 0.1
done
check cancel "the temporary file grew past 300 kB before the cancel" $grown
"${PSQL[@]}" -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'fault_cancel'" >/dev/null
wait $copy_pid
[ "$(sqlstate_of "$D/cancel.log")" = 57014 ]
check cancel "the COPY ended in 57014 (query_canceled): $(grep -m1 ERROR "$D/cancel.log" || echo none)" $?
[ ! -e "$D/cancel.parquet" ] && no_tmp "$D"
check cancel "no target and no temporary file" $?

# ------------------------------------------------------------------- error
q=$(printf "$ROWS" 300000)
"${PSQL[@]}" -v VERBOSITY=verbose -c "COPY (SELECT *, CASE WHEN i = 250000 THEN 1 / 0 END AS boom FROM ($q) s) TO '$D/error.parquet' WITH (FORMAT parquet, row_group_size 1000)" \
	>"$D/error.log" 2>&1 || true
[ "$(sqlstate_of "$D/error.log")" = 22012 ]
check error "the COPY ended in 22012 (division_by_zero) after 249 row groups" $?
[ ! -e "$D/error.parquet" ] && no_tmp "$D"
check error "no target and no temporary file" $?

# ---------------------------------------------------------------- readonly
mkdir "$D/ro" && chmod 755 "$D/ro" # root's: the server cannot write there
"${PSQL[@]}" -v VERBOSITY=verbose -c "COPY (SELECT 1 AS a) TO '$D/ro/x.parquet' WITH (FORMAT parquet)" >"$D/ro.log" 2>&1 || true
[ "$(sqlstate_of "$D/ro.log")" = 42501 ] && grep -q "could not open file \"$D/ro/x.parquet\" for writing" "$D/ro.log"
check readonly "42501 naming the target: $(grep -m1 ERROR "$D/ro.log" || echo none)" $?
[ -z "$(ls -A "$D/ro")" ]
check readonly "nothing created in the directory" $?

# --------------------------------------------------------------- disk full
mkdir "$D/full"
if mount -t tmpfs -o size=4m,mode=0777 tmpfs "$D/full"; then
	MOUNTED="$D/full"
	"${PSQL[@]}" -c "COPY (SELECT 42 AS old) TO '$D/full/big.parquet' WITH (FORMAT parquet)"
	before=$(stat -c %s "$D/full/big.parquet")
	q=$(printf "$ROWS" 400000)
	"${PSQL[@]}" -v VERBOSITY=verbose -c "COPY ($q) TO '$D/full/big.parquet' WITH (FORMAT parquet, compression 'uncompressed', dictionary false)" \
		>"$D/full.log" 2>&1 || true
	[ "$(sqlstate_of "$D/full.log")" = 53100 ] && grep -q "could not write to file \"$D/full/big.parquet\"" "$D/full.log"
	check disk_full "53100 (disk_full) naming the target: $(grep -m1 ERROR "$D/full.log" || echo none)" $?
	[ "$(stat -c %s "$D/full/big.parquet")" = "$before" ] &&
		[ "$("${PSQL[@]}" -c "SELECT name FROM parquet_fdw.schema('$D/full/big.parquet') WHERE depth = 1")" = old ]
	check disk_full "the old target is untouched and readable" $?
	no_tmp "$D/full" && [ "$(df --output=used -k "$D/full" | tail -n 1 | tr -d ' ')" -lt 100 ]
	check disk_full "no temporary file, the space is free again" $?
	umount "$D/full" && MOUNTED=
else
	check disk_full "a tmpfs could be mounted to fill (needs root and mount rights)" 1
fi

# -------------------------------------------------------------- concurrent
# Both COPYs wait on an advisory lock held here, then run at once.
"${PSQL[@]}" -c "SELECT pg_advisory_lock(4711)" -c "SELECT pg_sleep(2)" \
	-c "SELECT pg_advisory_unlock(4711)" >/dev/null &
holder=$!
sleep 0.5
pids=()
for who in a b; do
	( "${PSQL[@]}" -v VERBOSITY=verbose -c "SELECT pg_advisory_lock_shared(4711)" \
		-c "COPY (SELECT i, '$who' AS who, repeat('$who', 100) AS pad FROM generate_series(1, 200000) i) TO '$D/same.parquet' WITH (FORMAT parquet, row_group_size 5000)" \
		>"$D/conc_$who.log" 2>&1 ) &
	pids+=($!)
done
wait $holder "${pids[@]}"
! grep -q ERROR "$D/conc_a.log" "$D/conc_b.log"
check concurrent "both COPYs succeeded" $?
no_tmp "$D"
check concurrent "no temporary file" $?
verdict=$(cd test/js && node --input-type=module -e "
import { duckQuery } from './lib/duck.mjs';
const r = await duckQuery(\"SELECT count(*)::INTEGER AS n, count(DISTINCT who)::INTEGER AS w, min(who) AS who, count(DISTINCT i)::INTEGER AS ids FROM read_parquet('$D/same.parquet')\");
console.log(r.rows[0].map(String).join(' '));" 2>&1 || true)
[[ "$verdict" =~ ^200000\ 1\ [ab]\ 200000$ ]]
check concurrent "DuckDB reads one COPY's rows whole: $verdict (rows, writers, writer, distinct ids)" $?

# ----------------------------------------------------------------- dataset
q="SELECT i % 300 AS p, i, repeat(md5(i::text), 3) AS pad FROM generate_series(1, 2000000) i"
( "${PSQL[@]}" -v VERBOSITY=verbose -c "SET application_name = 'fault_dataset'" \
	-c "COPY (SELECT *, CASE WHEN i % 1000 = 0 THEN pg_sleep(0.002) END FROM ($q) s) TO '$D/tree' WITH (FORMAT parquet, partition_by (p), row_group_size 100, row_groups_per_file 1)" \
	>"$D/tree.log" 2>&1 || true ) &
copy_pid=$!
grown=1
for _ in $(seq 1 300); do
	if [ "$(find "$D" -path "$D/.tree.*.tmp/*" -name 'data_*.parquet' 2>/dev/null | head -n 400 | wc -l)" -ge 300 ]; then
		grown=0
		break
	fi
	sleep 0.1
done
check dataset "the temporary tree held 300 finished files before the cancel" $grown
"${PSQL[@]}" -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'fault_dataset'" >/dev/null
wait $copy_pid
[ "$(sqlstate_of "$D/tree.log")" = 57014 ]
check dataset "the COPY ended in 57014 (query_canceled): $(grep -m1 ERROR "$D/tree.log" || echo none)" $?
[ ! -e "$D/tree" ] && [ -z "$(find "$D" -maxdepth 1 -name '.tree.*' -print -quit)" ]
check dataset "no target and no temporary tree after the cancel" $?
"${PSQL[@]}" -v VERBOSITY=verbose -c "COPY (SELECT *, CASE WHEN i = 250000 THEN 1 / 0 END AS boom FROM ($q) s) TO '$D/tree' WITH (FORMAT parquet, partition_by (p), row_group_size 100)" \
	>"$D/tree_err.log" 2>&1 || true
[ "$(sqlstate_of "$D/tree_err.log")" = 22012 ] && [ ! -e "$D/tree" ] &&
	[ -z "$(find "$D" -maxdepth 1 -name '.tree.*' -print -quit)" ]
check dataset "an ERROR mid-way (22012) leaves no target and no temporary tree" $?

echo "copy_faults: $passed passed, $failed failed"
[ $failed = 0 ]
