#!/usr/bin/env bash
# ALTER EXTENSION parquet_fdw UPDATE from 0.1, the first release, over
# existing foreign tables and keys.  Needs the extension installed (every
# sql/parquet_fdw--*.sql and the library); as root, starts its own cluster
# (scripts/cluster.sh).  Prints "upgrade: N passed, N failed".
#
#   under 0.1   CREATE EXTENSION parquet_fdw VERSION '0.1' (its script as
#               released, sql/parquet_fdw--0.1.sql); a foreign table over a
#               file DuckDB wrote, a key k1 put in the key directory by the
#               administrator (0.1 has no create_key()), a file COPY TO
#               encrypted with it; 0.1's functions called with this library
#   update      ALTER EXTENSION parquet_fdw UPDATE reaches the control
#               file's default_version
#   after       the tables read what DuckDB reads and the heap table holds,
#               k1 still decrypts, 0.2's key functions work (create_key,
#               keys, grant_key for a non-superuser, revoke_key), 0.4's
#               import_parquet() (adjust/parquet_fdw's, in public) makes a
#               table over the files a function returns
#   catalog     every object of the updated extension, with its definition
#               and privileges (test/upgrade/catalog.sql), equals those of a
#               fresh CREATE EXTENSION in another database
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PGFDW_NO_TRAP=1
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh

VERSION=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" parquet_fdw.control)
D=$(mktemp -d /tmp/parquet_fdw_upgrade.XXXXXX)
chmod 755 "$D"
cleanup() {
	pgfdw_cluster_stop >/dev/null 2>&1 || true
	rm -rf "$D"
}
trap cleanup EXIT

passed=0
failed=0
check() { # NAME DESCRIPTION GOT WANT
	if [ "$3" = "$4" ]; then
		passed=$((passed + 1))
		echo "PASS $1: $2"
	else
		failed=$((failed + 1))
		echo "FAIL $1: $2"
		diff <(echo "$4") <(echo "$3") | head -n 40 | sed 's/^/    /' || true
	fi
}

# The administrator's key k1 (hex, as create_key() writes them), and the
# key directory only the server's user may enter.
mkdir -m 700 "$D/keys"
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$D/keys/k1.key"
chmod 600 "$D/keys/k1.key"
chown -R postgres:postgres "$D/keys"
node test/js/demo_data.mjs "$D/trips.parquet" >/dev/null
mkdir -m 777 "$D/out"

# shellcheck disable=SC2034 # read by scripts/cluster.sh
PGFDW_CLUSTER_SETTINGS="parquet_fdw.key_directory = '$D/keys'"
pgfdw_cluster_start >/dev/null
PSQL=("$PGFDW_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -At)
sql() { # DB SQL...: rows as psql -At prints them
	local db=$1
	shift
	"${PSQL[@]}" -d "$db" "$@"
}
"${PSQL[@]}" -c 'CREATE DATABASE upgraded' -c 'CREATE DATABASE fresh' \
	-c 'CREATE ROLE reader LOGIN' -c 'GRANT pg_read_server_files TO reader'

AGG="SELECT payment, count(*), sum(fare), min(pickup_at), max(trip_id) FROM %s GROUP BY payment ORDER BY payment"
# shellcheck disable=SC2059
duck_agg=$(node test/js/duck_sql.mjs "$(printf "$AGG" "read_parquet('$D/trips.parquet')" |
	sed 's/min(pickup_at)/strftime(min(pickup_at), '\''%Y-%m-%d %H:%M:%S'\'')/')")
# shellcheck disable=SC2059
trips_agg() { sql "$1" -c "$(printf "$AGG" trips)"; }

# ------------------------------------------------------------ under 0.1
sql upgraded <<SQL
CREATE EXTENSION parquet_fdw VERSION '0.1';
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;
CREATE FOREIGN TABLE trips (trip_id bigint, pickup_at timestamp, city_id int,
    distance_km numeric(6,1), fare numeric(8,2), payment text)
  SERVER parquet_srv OPTIONS (filename '$D/trips.parquet');
CREATE TABLE secrets AS
  SELECT i AS id, md5(i::text) AS secret, i * 0.25 AS amount
    FROM generate_series(1, 5000) i;
COPY secrets TO '$D/out/secrets.parquet' WITH (FORMAT parquet, footer_key 'k1');
CREATE FOREIGN TABLE secrets_ft (id int, secret text, amount numeric)
  SERVER parquet_srv OPTIONS (filename '$D/out/secrets.parquet');
GRANT SELECT ON trips, secrets_ft TO reader;
SQL
check v0.1 "CREATE EXTENSION ... VERSION '0.1'" \
	"$(sql upgraded -c "SELECT extversion FROM pg_extension WHERE extname = 'parquet_fdw'")" 0.1
check v0.1 "trips reads what DuckDB reads" "$(trips_agg upgraded)" "$duck_agg"
check v0.1 "k1 decrypts the file COPY TO encrypted with it" \
	"$(sql upgraded -c 'SELECT count(*) FROM (TABLE secrets EXCEPT TABLE secrets_ft) d' \
		-c 'SELECT count(*) FROM secrets_ft')" "$(printf '0\n5000')"
# 0.1's declarations with this library: schema() is
# without the CRS columns, create_table_sql() has three arguments.
check v0.1 "0.1's schema() has no CRS columns" \
	"$(sql upgraded -c "SELECT string_agg(ordinal || ':' || name, ',' ORDER BY ordinal)
	      FROM parquet_fdw.schema('$D/trips.parquet') WHERE depth = 1" \
		-c "SELECT count(*) FROM pg_proc p, unnest(p.proargnames) a
	      WHERE p.proname = 'schema' AND a = 'crs'")" \
	"$(printf '1:trip_id,2:pickup_at,3:city_id,4:distance_km,5:fare,6:payment\n0')"
check v0.1 "0.1's create_table_sql(path, name, server)" \
	"$(sql upgraded -c "SELECT parquet_fdw.create_table_sql('$D/trips.parquet', 't2', 'parquet_srv') LIKE 'CREATE FOREIGN TABLE t2 (%'")" t

# --------------------------------------------------------------- update
sql upgraded -c 'ALTER EXTENSION parquet_fdw UPDATE'
check update "ALTER EXTENSION parquet_fdw UPDATE reaches $VERSION" \
	"$(sql upgraded -c "SELECT extversion FROM pg_extension WHERE extname = 'parquet_fdw'")" "$VERSION"

# ---------------------------------------------------------------- after
check after "trips still reads what DuckDB reads" "$(trips_agg upgraded)" "$duck_agg"
check after "k1 still decrypts" \
	"$(sql upgraded -c 'SELECT count(*) FROM (TABLE secrets EXCEPT TABLE secrets_ft) d' \
		-c 'SELECT count(*) FROM (TABLE secrets_ft EXCEPT TABLE secrets) d')" "$(printf '0\n0')"
check after "schema() is 0.2's (ordinal, crs)" \
	"$(sql upgraded -c "SELECT string_agg(ordinal || ':' || name || ':' || coalesce(crs, '-'), ',' ORDER BY ordinal)
	      FROM parquet_fdw.schema('$D/trips.parquet') WHERE depth = 1")" \
	"1:trip_id:-,2:pickup_at:-,3:city_id:-,4:distance_km:-,5:fare:-,6:payment:-"
sql upgraded >/dev/null <<SQL
SELECT parquet_fdw.create_key('k2');
COPY secrets TO '$D/out/secrets2.parquet' WITH (FORMAT parquet, footer_key 'k2', column_keys 'secret: k1');
CREATE FOREIGN TABLE secrets2_ft (id int, secret text, amount numeric)
  SERVER parquet_srv OPTIONS (filename '$D/out/secrets2.parquet');
GRANT SELECT ON secrets2_ft TO reader;
SQL
check after "keys() lists the administrator's k1 and create_key()'s k2" \
	"$(sql upgraded -c "SELECT key_id || ':' || bits FROM parquet_fdw.keys() ORDER BY 1")" \
	"$(printf 'k1:256\nk2:256')"
check after "a file encrypted with k2 (footer) and k1 (column) reads back" \
	"$(sql upgraded -c 'SELECT count(*) FROM (TABLE secrets EXCEPT TABLE secrets2_ft) d' \
		-c 'SELECT count(*) FROM secrets2_ft')" "$(printf '0\n5000')"
check after "without a grant the reader may not use k1" \
	"$(sql upgraded -U reader -c 'SELECT count(*) FROM secrets_ft' 2>&1 | grep -c 'permission denied to use encryption key "k1"')" 1
sql upgraded -c "SELECT parquet_fdw.grant_key('k1', 'reader')" >/dev/null
check after "grant_key('k1', 'reader') lets the reader decrypt" \
	"$(sql upgraded -U reader -c 'SELECT count(*), round(sum(amount), 2) FROM secrets_ft')" \
	"$(sql upgraded -c 'SELECT count(*), round(sum(amount), 2) FROM secrets')"
sql upgraded -c "SELECT parquet_fdw.revoke_key('k1', 'reader')" >/dev/null
check after "revoke_key() takes it back" \
	"$(sql upgraded -U reader -c 'SELECT count(*) FROM secrets_ft' 2>&1 | grep -c 'permission denied to use encryption key "k1"')" 1

sql upgraded >/dev/null <<SQL
CREATE FUNCTION trips_files(args jsonb) RETURNS text[] LANGUAGE sql
  AS \$\$ SELECT ARRAY[args->>'file'] \$\$;
SELECT import_parquet('trips_imported', NULL, 'parquet_srv', 'trips_files',
                      '{"file": "$D/trips.parquet"}');
SQL
# shellcheck disable=SC2059
check after "0.4's import_parquet(), called unqualified, makes a table that reads what DuckDB reads" \
	"$(sql upgraded -c "$(printf "$AGG" trips_imported)")" "$duck_agg"

# -------------------------------------------------------------- catalog
sql fresh -c 'CREATE EXTENSION parquet_fdw' 2>/dev/null
updated_objects=$(sql upgraded -f test/upgrade/catalog.sql)
fresh_objects=$(sql fresh -f test/upgrade/catalog.sql)
check catalog "the updated extension's objects are a fresh install's" \
	"$updated_objects" "$fresh_objects"
members=$(grep -c '^function \|^table \|^foreign-data wrapper ' <<<"$fresh_objects" || true)
nfuncs=$(grep -c '^CREATE FUNCTION' "sql/parquet_fdw--$VERSION.sql")
check catalog "the comparison covers the $nfuncs functions of the install script, the table and the wrapper" \
	"$members" $((nfuncs + 2))

echo "upgrade: $passed passed, $failed failed"
[ "$failed" = 0 ]
