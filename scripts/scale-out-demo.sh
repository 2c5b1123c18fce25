#!/usr/bin/env bash
# Scale-out demo (Debian 12, as root): scripts/scale-out-demo.sh [N] [ROWS]
#
# Starts N (default 2) local PostgreSQL "data nodes" and a coordinator as the
# postgres user, each a throwaway cluster on a private socket; writes ROWS
# (default 1,000,000) event rows with DuckDB, split by the column `region`
# into 8 regions x 2 files; gives each node a parquet_fdw foreign table over
# its regions' files only; on the coordinator, makes `events` a table
# partitioned by LIST (region) whose partitions are postgres_fdw foreign
# tables on the nodes (async_capable, enable_partitionwise_aggregate = on).
# Then runs queries with their EXPLAIN and stops everything on exit.
# docs/SCALE_OUT.md explains the set-up.  Needs the extension installed:
# scripts/setup.sh runs first if it is not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
N=${1:-2}
ROWS=${2:-1000000}
if ! [[ $N =~ ^[1-8]$ ]] || ! [[ $ROWS =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: scripts/scale-out-demo.sh [N (1-8 data nodes)] [ROWS]" >&2
	exit 2
fi
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
if [ ! -f "$("$PG_CONFIG" --sharedir)/extension/parquet_fdw.control" ] ||
	[ ! -d test/js/node_modules/@duckdb/node-api ]; then
	bash scripts/setup.sh
fi
# shellcheck source=scripts/scale_out_cluster.sh
source scripts/scale_out_cluster.sh
so_init

echo "================ the dataset: $ROWS rows, 8 regions x 2 files ================"
so_data "$ROWS" 8 2
so_nodes "$N"
so_coordinator "$N" >/dev/null
for ((i = 1; i <= N; i++)); do
	echo "node$i (socket $SO_WORK/node$i): regions $(so_node_regions "$i" "$N"): $(so_node_files "$i" "$N" | tr ',' '\n' | xargs -n1 basename | paste -sd' ')"
done

echo
echo "================ the coordinator ================"
so_psql coord --echo-all <<'SQL'
SHOW enable_partitionwise_aggregate;
SELECT c.relname AS partition, pg_get_expr(c.relpartbound, c.oid) AS bound,
       s.srvname AS server, s.srvoptions AS server_options
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  JOIN pg_foreign_table f ON f.ftrelid = c.oid JOIN pg_foreign_server s ON s.oid = f.ftserver
 WHERE i.inhparent = 'events'::regclass ORDER BY 1;

-- GROUP BY the partition key: each node computes its regions' groups
-- inside its parquet scan; the coordinator appends them.
SELECT region, count(*), sum(price), round(avg(qty), 3) AS avg_qty, max(day)
  FROM events GROUP BY region ORDER BY region;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT region, count(*), sum(price), round(avg(qty), 3) AS avg_qty, max(day)
  FROM events GROUP BY region ORDER BY region;

-- Totals: per-region partial aggregates on the nodes, merged here.
-- (A plain SELECT count(*), sum(price) FROM events would ship every row:
-- postgres_fdw does not push partial aggregates; docs/SCALE_OUT.md.)
SELECT sum(n) AS rows, sum(s) AS revenue, round(sum(s) / sum(n), 6) AS avg_price
  FROM (SELECT region, count(*) AS n, sum(price) AS s FROM events
         WHERE day >= '2024-06-01' GROUP BY region) p;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT sum(n) AS rows, sum(s) AS revenue, round(sum(s) / sum(n), 6) AS avg_price
  FROM (SELECT region, count(*) AS n, sum(price) AS s FROM events
         WHERE day >= '2024-06-01' GROUP BY region) p;

-- The same answer from one parquet_fdw table over all the files.
SELECT count(*) AS rows, sum(price) AS revenue, round(avg(price), 6) AS avg_price
  FROM events_all WHERE day >= '2024-06-01';

-- A filter on the partition key reaches only the nodes holding those regions.
EXPLAIN (VERBOSE, COSTS OFF)
SELECT region, category, count(*) FROM events WHERE region IN (1, 3) GROUP BY region, category;
SQL
