#!/usr/bin/env bash
# The Iceberg half of bench/delta.sh, run by it (BENCH_ICEBERG=0 skips it) in
# its cluster once the Delta table is written: the same BENCH_FILES data files
# (the Delta table's part-NNNNN.parquet, hard-linked) as Apache Iceberg tables
# with the same rows deleted (li_del), timed against the same files read as a
# plain dataset, as the Delta half is:
#
#   bash bench/iceberg.sh DELTA_TABLE_DIR WORK_DIR
#
# (PostgreSQL through the PG* environment delta.sh's cluster exports; the
# heap tables li_heap, li_del and the view li_live of delta.sh.)
#
#   WORK_DIR/iceberg     format v2: one position delete file per data file
#                        with deleted rows (file_path, pos; COPY TO from li_del)
#   WORK_DIR/iceberg_v3  format v3: the same rows deleted by deletion vectors
#                        (one Puffin file)
#
# Both written by bench/iceberg.mjs with test/js/lib/iceberg_writer.mjs
# (manifests with every column's bounds and counts, from li_heap); timed by
# bench/iceberg.mjs run: a filtered sum and a Q1-like GROUP BY at each of
# BENCH_WORKERS (Iceberg/dataset ratio, target <= 1.1x), planning time warm
# and cold, the files a selective l_orderkey range keeps ("Files: N of M
# (pruned by partition: K, by table statistics: S)"). Every answer is checked
# against the heap (exit status 1 otherwise).
#
# Environment (as delta.sh's): BENCH_SEED, BENCH_RUNS, BENCH_PLAN_RUNS,
# BENCH_WORKERS, BENCH_DIAG=0 (skip the v3 and snapshot-1 tables in the
# timings), BENCH_EXPLAIN=1; BENCH_ICEBERG_WRITE_ONLY=1 writes the tables
# and stops (no timing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TABLE=${1:?usage: bash bench/iceberg.sh DELTA_TABLE_DIR WORK_DIR}
WORK=${2:?usage: bash bench/iceberg.sh DELTA_TABLE_DIR WORK_DIR}
SEED=${BENCH_SEED:-1}
RUNS=${BENCH_RUNS:-5}
PLAN_RUNS=${BENCH_PLAN_RUNS:-15}
read -r -a WORKERS <<<"${BENCH_WORKERS:-0 2}"
ICE=$WORK/iceberg
ICE3=$WORK/iceberg_v3

echo "== writing the Iceberg tables (the Delta table's data files; li_del's rows deleted: v2 position delete files, v3 deletion vectors)"
node bench/iceberg.mjs write "$TABLE" "$ICE" "$ICE3" "$SEED"
chmod -R a+rX "$ICE" "$ICE3"
if [ "${BENCH_ICEBERG_WRITE_ONLY:-0}" = 1 ]; then
	echo "== BENCH_ICEBERG_WRITE_ONLY=1: the Iceberg tables are written, not timed"
	exit 0
fi

echo "== timing the Iceberg tables (progress on stderr)"
node bench/iceberg.mjs run "$ICE" "$ICE3" "$TABLE" "$RUNS" "$PLAN_RUNS" "${WORKERS[@]}"
