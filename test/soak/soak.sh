#!/usr/bin/env bash
# SQL soak (test/soak/soak.mjs) against a throwaway cluster:
#
#   test/soak/soak.sh [MINUTES] [SEED]
#
# Mutates the Apache corpus (../shared/testdata/parquet-testing or
# $PARQUET_TESTING_DIR), the test fixtures (/tmp/parquet_fdw_test/fixtures)
# and files COPY TO writes here (every type, nested, dictionary, page index,
# bloom filters), reads every mutant through SQL, and fails if a backend
# dies or a statement hangs.  Crashes and hangs are kept under
# /tmp/parquet_fdw_soak_out/.  Needs the extension installed
# (scripts/setup.sh) and root (the server runs as postgres).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
MINUTES=${1:-1}
SEED=${2:-20261124}
export PGFDW_NO_TRAP=1
# shellcheck source=scripts/cluster.sh
source scripts/cluster.sh
WORK=$(mktemp -d /tmp/parquet_fdw_soak.XXXXXX)
OUT=/tmp/parquet_fdw_soak_out
chmod 777 "$WORK"
cleanup() {
	pgfdw_cluster_stop >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
pgfdw_cluster_start >/dev/null
PSQL=("$("$PG_CONFIG" --bindir)/psql" -X -q -v ON_ERROR_STOP=1)
mkdir -p "$WORK/written" && chmod 777 "$WORK/written"
"${PSQL[@]}" <<SQL
CREATE EXTENSION IF NOT EXISTS parquet_fdw;
CREATE TYPE soak_pair AS (a int, b text);
CREATE TABLE soak_src AS
SELECT i, i::int2 AS s, (i * 7919)::int8 AS big, round(i / 7.0, 6) AS n, (i * 0.01)::numeric(10,2) AS dec,
       i::float4 / 3 AS f4, i::float8 / 3 AS f8, 'text ' || (i % 50) AS t, i % 3 = 0 AS b,
       DATE '2000-01-01' + i AS d, TIMESTAMP '2000-01-01' + i * INTERVAL '1 minute' AS ts,
       TIMESTAMPTZ '2000-01-01' + i * INTERVAL '1 second' AS tstz, md5(i::text)::uuid AS u,
       CASE WHEN i % 5 = 0 THEN NULL ELSE ARRAY[i, i + 1, NULL] END AS arr,
       ROW(i, 'p' || i)::soak_pair AS comp, jsonb_build_object('k', i, 'l', ARRAY[i]) AS j,
       decode(md5(i::text), 'hex') AS bytes
FROM generate_series(1, 3000) i;
COPY soak_src TO '$WORK/written/plain.parquet' WITH (FORMAT parquet, row_group_size 700);
COPY soak_src TO '$WORK/written/indexed.parquet' WITH (FORMAT parquet, row_group_size 1000, page_index true, bloom_filter 'i, t', data_page_size 2048);
COPY soak_src TO '$WORK/written/v2_zstd.parquet' WITH (FORMAT parquet, page_version 2, compression zstd, dictionary false);
COPY soak_src TO '$WORK/written/variant.parquet' WITH (FORMAT parquet, jsonb_as variant);
SQL
node test/soak/soak.mjs --minutes "$MINUTES" --seed "$SEED" --work "$WORK/mutants" --out "$OUT" \
	--log "$PGFDW_CLUSTER_DIR/server.log" "$WORK/written" /tmp/parquet_fdw_test/fixtures \
	"${PARQUET_TESTING_DIR:-$(pwd)/../shared/testdata/parquet-testing}/data"
