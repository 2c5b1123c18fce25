-- GEOMETRY/GEOGRAPHY columns declared as PostGIS geometry or geography
-- (test/schedule_postgis; scripts/test.sh runs it when PostGIS is
-- installed).  Values are compared with the WKT of the fixture definitions
-- (test/js/gen_fixtures.mjs: GEO_WKT, stored in the files' wkt column, and
-- HYP_GEO); SRIDs follow docs/GEOSPATIAL.md.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
CREATE EXTENSION postgis;

CREATE FOREIGN TABLE pg_none (id int, wkt text, geom geometry)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/duckdb_geo_none.parquet');
SELECT id, wkt, ST_AsText(geom) AS geom, ST_SRID(geom) AS srid,
       ST_AsText(geom) = ST_AsText(ST_GeomFromText(wkt)) AS same
  FROM pg_none ORDER BY id;
-- The same through EWKT, with the SRID (CRS84 as PROJJSON -> 4326).
SELECT id, ST_AsEWKT(geom) FROM pg_none WHERE id IN (1, 9, 11) ORDER BY id;

-- No CRS -> OGC:CRS84 -> 4326.
CREATE FOREIGN TABLE pg_v2 (id int, wkt text, geom geometry)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/duckdb_geo_v2.parquet');
SELECT count(*) AS rows, count(*) FILTER (WHERE ST_AsText(geom) = ST_AsText(ST_GeomFromText(wkt))) AS same,
       count(*) FILTER (WHERE geom IS NULL AND wkt IS NULL) AS nulls,
       array_agg(DISTINCT ST_SRID(geom)) AS srids
  FROM pg_v2;

-- The SRID of each CRS (projjson:crs_key: the PROJJSON the file stores under
-- crs_key, whose id is EPSG 4326); the same WKB in every column.
CREATE FOREIGN TABLE pg_hyp (id int, g_default geometry, g_srid geometry,
    g_epsg geometry, g_projjson geometry, g_other geometry,
    geog geography, geog_karney geography)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/hyp_geo_crs.parquet');
SELECT id, ST_AsText(g_default) AS wkt, ST_SRID(g_default) AS d, ST_SRID(g_srid) AS srid,
       ST_SRID(g_epsg) AS epsg, ST_SRID(g_projjson) AS projjson, ST_SRID(g_other) AS other,
       ST_SRID(geog) AS geog, ST_SRID(geog_karney) AS karney
  FROM pg_hyp ORDER BY id;
SELECT count(*) FILTER (WHERE ST_AsText(g_default) = ST_AsText(g_srid)
                          AND ST_AsText(g_default) = ST_AsText(g_epsg)
                          AND ST_AsText(g_default) = ST_AsText(g_projjson)
                          AND ST_AsText(g_default) = ST_AsText(g_other)
                          AND ST_AsText(g_default) = ST_AsText(geog)
                          AND ST_AsText(g_default) = ST_AsText(geog_karney)) AS same,
       count(*) FILTER (WHERE g_default IS NULL) AS nulls
  FROM pg_hyp;

-- Spatial predicates and operators work on the values (and quals on a
-- geometry column are evaluated as usual: no statistics are used).
SELECT id FROM pg_none WHERE ST_Intersects(geom, ST_MakeEnvelope(0, 0, 12, 12, 4326)) ORDER BY id;
SELECT id FROM pg_none WHERE geom = ST_GeomFromText('POINT (30 10)', 4326);
-- geography: distances on the spheroid (1 degree of latitude, ~111 km).
SELECT id, round(ST_Distance(geog, 'SRID=4326;POINT(30 11)'::geography)::numeric, -3) AS metres
  FROM pg_hyp WHERE id = 1;

-- Typmods are enforced by PostGIS (on every value the scan converts).
CREATE FOREIGN TABLE pg_typmod (id int, g_points geometry(Point, 3857))
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/hyp_geo_crs.parquet');
SELECT id, ST_AsEWKT(g_points) FROM pg_typmod ORDER BY id;
CREATE FOREIGN TABLE pg_typmod_point (id int, g_default geometry(Point, 4326))
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/hyp_geo_crs.parquet');
SELECT g_default FROM pg_typmod_point;
CREATE FOREIGN TABLE pg_typmod_srid (id int, g_epsg geometry(Geometry, 4326))
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/hyp_geo_crs.parquet');
SELECT g_epsg FROM pg_typmod_srid;

-- A projected CRS cannot be geography: PostGIS's error, naming the column
-- and file in its context.
CREATE FOREIGN TABLE pg_bad_geog (id int, g_srid geography)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/hyp_geo_crs.parquet');
\set VERBOSITY default
SELECT g_srid FROM pg_bad_geog WHERE id = 1;
\set VERBOSITY terse

-- IMPORT FOREIGN SCHEMA and create_table_sql() keep bytea with PostGIS
-- installed: the mapping does not depend on the database.
SELECT pg_type FROM parquet_fdw.schema(:'fixtures' || '/hyp_geo_crs.parquet') WHERE name = 'g_srid';
-- bytea declared columns still read WKB.
CREATE FOREIGN TABLE pg_bytea (id int, g_srid bytea)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/hyp_geo_crs.parquet');
SELECT id, g_srid FROM pg_bytea WHERE id = 1;

-- COPY TO writes PostGIS columns as GEOMETRY / GEOGRAPHY (ISO WKB from
-- ST_AsBinary), with the typmod's SRID as the CRS: read back as PostGIS
-- values they equal the source (the source table is the reference).
LOAD 'parquet_fdw';
CREATE TABLE pg_src (id int, g geometry, p geometry(Point, 3857), z geometry(PointZ, 4326), gg geography);
INSERT INTO pg_src VALUES
  (1, 'POINT(1 2)', 'SRID=3857;POINT(100 200)', 'SRID=4326;POINT Z(1 2 3)', 'POINT(10 20)'),
  (2, 'LINESTRING(0 0, 1 1, 2 0)', NULL, 'SRID=4326;POINT Z(4 5 6)', 'LINESTRING(0 0, 1 1)'),
  (3, 'POLYGON((0 0, 1 0, 1 1, 0 1, 0 0))', 'SRID=3857;POINT(-1 -2)', NULL, NULL),
  (4, 'MULTIPOINT((1 1), (2 2))', 'SRID=3857;POINT(0 0)', 'SRID=4326;POINT Z(0 0 0)', 'POINT(-170 -80)'),
  (5, NULL, NULL, NULL, NULL);
COPY pg_src TO '/tmp/parquet_fdw_postgis_copy.parquet' WITH (FORMAT parquet);
SELECT name, logical_type, crs, srid FROM parquet_fdw.schema('/tmp/parquet_fdw_postgis_copy.parquet')
WHERE name IN ('g', 'p', 'z', 'gg') ORDER BY ordinal;
CREATE FOREIGN TABLE pg_back (id int, g geometry, p geometry(Point, 3857), z geometry(PointZ, 4326), gg geography)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_postgis_copy.parquet');
SELECT count(*) AS differences FROM (
  (SELECT id, ST_AsEWKT(g), ST_AsEWKT(p), ST_AsEWKT(z), ST_AsText(gg) FROM pg_src
   EXCEPT SELECT id, ST_AsEWKT(g), ST_AsEWKT(p), ST_AsEWKT(z), ST_AsText(gg) FROM pg_back)
  UNION ALL
  (SELECT id, ST_AsEWKT(g), ST_AsEWKT(p), ST_AsEWKT(z), ST_AsText(gg) FROM pg_back
   EXCEPT SELECT id, ST_AsEWKT(g), ST_AsEWKT(p), ST_AsEWKT(z), ST_AsText(gg) FROM pg_src)) d;
-- the WKB as stored is PostGIS's own ST_AsBinary
SELECT count(*) AS wkb_differences FROM pg_src s JOIN
  (SELECT * FROM pg_back) b USING (id)
WHERE ST_AsBinary(s.g) IS DISTINCT FROM ST_AsBinary(b.g);
DROP FOREIGN TABLE pg_back;
DROP TABLE pg_src;
COPY (SELECT 1) TO PROGRAM 'cat > /dev/null; rm -f /tmp/parquet_fdw_postgis_copy.parquet';

-- The files of one table must agree on a PostGIS column's SRID.
COPY (SELECT 1 AS id, 'SRID=3857;POINT(1 2)'::geometry(Point, 3857) AS g)
  TO '/tmp/parquet_fdw_postgis_a.parquet' WITH (FORMAT parquet);
COPY (SELECT 2 AS id, 'SRID=4326;POINT(1 2)'::geometry(Point, 4326) AS g)
  TO '/tmp/parquet_fdw_postgis_b.parquet' WITH (FORMAT parquet);
CREATE FOREIGN TABLE pg_two_crs (id int, g geometry)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_postgis_a.parquet, /tmp/parquet_fdw_postgis_b.parquet');
SELECT id, ST_AsEWKT(g) FROM pg_two_crs ORDER BY id;
CREATE FOREIGN TABLE pg_two_crs_bytea (id int, g bytea)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_postgis_a.parquet, /tmp/parquet_fdw_postgis_b.parquet');
SELECT id, ST_AsText(ST_GeomFromWKB(g)) FROM pg_two_crs_bytea ORDER BY id;
DROP FOREIGN TABLE pg_two_crs, pg_two_crs_bytea;
COPY (SELECT 1) TO PROGRAM 'cat > /dev/null; rm -f /tmp/parquet_fdw_postgis_a.parquet /tmp/parquet_fdw_postgis_b.parquet';

DROP FOREIGN TABLE pg_none, pg_v2, pg_hyp, pg_typmod, pg_typmod_point, pg_typmod_srid,
  pg_bad_geog, pg_bytea;
DROP EXTENSION postgis;
