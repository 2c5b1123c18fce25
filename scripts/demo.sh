#!/usr/bin/env bash
# parquet_fdw demo (Debian 12, as root): installs and builds everything
# (scripts/setup.sh), writes a sample Parquet file with DuckDB, starts a
# throwaway PostgreSQL 15 cluster as the postgres user on a private socket,
# queries the file through a foreign table (including a join with an ordinary
# table), prints the results and stops the cluster.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$(pwd)

bash scripts/setup.sh

DEMO_DIR=$(mktemp -d /tmp/parquet_fdw_demo.XXXXXX)
chmod 755 "$DEMO_DIR" # the server (user postgres) reads the file from here
export PGFDW_NO_TRAP=1
# shellcheck source=scripts/cluster.sh
source "$REPO/scripts/cluster.sh"
cleanup() {
	pgfdw_cluster_stop || true
	rm -rf "$DEMO_DIR"
}
trap cleanup EXIT

echo
node test/js/demo_data.mjs "$DEMO_DIR/trips.parquet"
pgfdw_cluster_start
PSQL=("$("$PG_CONFIG" --bindir)/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off)

echo
echo "================ querying $DEMO_DIR/trips.parquet through parquet_fdw ================"
"${PSQL[@]}" --echo-all -v file="$DEMO_DIR/trips.parquet" <<'SQL'
CREATE EXTENSION parquet_fdw;
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;

-- What is in the file?
SELECT num_rows, num_row_groups, num_columns, created_by FROM parquet_fdw.file_info(:'file');

-- A foreign table over the file (parquet_fdw.create_table_sql(path) writes this for you).
CREATE FOREIGN TABLE trips (
    trip_id     bigint,
    pickup_at   timestamp,
    city_id     integer,
    distance_km numeric(6,1),
    fare        numeric(8,2),
    payment     text
) SERVER parquet_srv OPTIONS (filename :'file');

SELECT * FROM trips ORDER BY trip_id LIMIT 5;

SELECT payment, count(*) AS trips, round(avg(fare), 2) AS avg_fare
  FROM trips WHERE distance_km > 10 GROUP BY payment ORDER BY payment;

-- Join with an ordinary table.
CREATE TABLE cities (city_id integer PRIMARY KEY, name text NOT NULL);
INSERT INTO cities VALUES (1, 'Amsterdam'), (2, 'Berlin'), (3, 'Copenhagen'), (4, 'Dublin'), (5, 'Edinburgh');

SELECT c.name, count(*) AS trips, sum(t.fare) AS revenue,
       min(t.pickup_at) AS first_pickup, max(t.pickup_at) AS last_pickup
  FROM trips t JOIN cities c USING (city_id)
 GROUP BY c.name ORDER BY revenue DESC;

EXPLAIN (COSTS OFF) SELECT count(*) FROM trips WHERE city_id = 3;
SQL

echo
echo "================ COPY ... TO ... (FORMAT parquet) ================"
# ---------------------------------------------------------------------------
# COPY TO parquet needs the library loaded in the session (LOAD, or
# shared_preload_libraries); the file is read back with DuckDB.  The server
# (user postgres) writes into a directory it may write to.
# ---------------------------------------------------------------------------
mkdir -p "$DEMO_DIR/out"
chmod 777 "$DEMO_DIR/out"
OUT="$DEMO_DIR/out/expensive_trips.parquet"
if "${PSQL[@]}" -c "LOAD 'parquet_fdw'" \
	-c "COPY (SELECT * FROM trips WHERE fare > 35 ORDER BY trip_id) TO '$OUT' WITH (FORMAT parquet)" \
	>"$DEMO_DIR/copy.log" 2>&1; then
	node test/js/read_back.mjs "$OUT" 5
else
	echo "COPY ... TO ... (FORMAT parquet) failed:"
	sed 's/^/    /' "$DEMO_DIR/copy.log"
	exit 1
fi

echo
echo "demo: done"
