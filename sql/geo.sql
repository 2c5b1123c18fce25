-- GEOMETRY and GEOGRAPHY without PostGIS: WKB bytea exactly as stored, the
-- CRS / edge algorithm / SRID in schema(), GeospatialStatistics in
-- metadata().  Expected values come from the fixture definitions in
-- test/js/gen_fixtures.mjs (GEO_WKT, HYP_GEO): the WKB below is their ISO
-- WKB, little endian, encoded by hand (docs/GEOSPATIAL.md), not read back.
\set fixtures '/tmp/parquet_fdw_test/fixtures'

CREATE TEMP TABLE geo_wkt_expected (id int, wkb bytea);
INSERT INTO geo_wkt_expected VALUES
 (1, '\x01010000000000000000003e400000000000002440'),
 (2, '\x0102000000030000000000000000003e40000000000000244000000000000024400000000000003e4000000000000044400000000000004440'),
 (3, '\x010300000001000000050000000000000000003e4000000000000024400000000000004440000000000000444000000000000034400000000000004440000000000000244000000000000034400000000000003e400000000000002440'),
 (4, NULL),
 (5, '\x010400000002000000010100000000000000000024400000000000004440010100000000000000000044400000000000003e40'),
 (6, '\x0105000000020000000102000000020000000000000000002440000000000000244000000000000034400000000000003440010200000002000000000000000000444000000000000044400000000000003e400000000000003e40'),
 (7, '\x010600000002000000010300000001000000040000000000000000003e40000000000000344000000000008046400000000000004440000000000000244000000000000044400000000000003e400000000000003440010300000001000000050000000000000000002e4000000000000014400000000000004440000000000000244000000000000024400000000000003440000000000000144000000000000024400000000000002e400000000000001440'),
 (8, '\x010700000002000000010100000000000000000010400000000000001840010200000002000000000000000000104000000000000018400000000000001c400000000000002440'),
 (9, '\x01e9030000000000000000f03f00000000000000400000000000000840'),      -- POINT Z: type 1001
 (10, '\x01d1070000000000000000f03f00000000000000400000000000001040'),     -- POINT M: type 2001
 (11, '\x01b90b0000000000000000f03f000000000000004000000000000008400000000000001040'), -- POINT ZM: 3001
 (12, '\x0101000000000000000000f87f000000000000f87f'),                     -- POINT EMPTY: NaN NaN
 (13, '\x010200000000000000');                                             -- LINESTRING EMPTY

CREATE TEMP TABLE geo_hyp_expected (id int, wkb bytea);
INSERT INTO geo_hyp_expected VALUES
 (1, '\x01010000000000000000003e400000000000002440'),
 (2, '\x0102000000030000000000000000003e40000000000000244000000000000024400000000000003e4000000000000044400000000000004440'),
 (3, NULL),
 (4, '\x01e90300000000000000205ec00000000000a046400000000000005940'),
 (5, '\x0103000000010000000400000000000000000000000000000000000000000000000000104000000000000000000000000000001040000000000000084000000000000000000000000000000000'),
 (6, '\x01bc0b00000200000001b90b0000000000000000f03f000000000000004000000000000014400000000000001c4001b90b00000000000000000840000000000000104000000000000018400000000000002040');

-- The natural type is bytea (IMPORT FOREIGN SCHEMA and create_table_sql()).
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_geo_none.parquet', 'geo_none');
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_geo_none.parquet', 'geo_none') \gexec
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_geo_v2.parquet', 'geo_v2') \gexec
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/hyp_geo_crs.parquet', 'geo_hyp') \gexec

-- Every byte as the definitions say (GeoParquet V2 leaves out the M rows).
SELECT 'none' AS file, count(*) AS rows, count(*) FILTER (WHERE g.geom IS DISTINCT FROM e.wkb) AS mismatches
  FROM geo_none g FULL JOIN geo_wkt_expected e USING (id)
UNION ALL
SELECT 'v2', count(*), count(*) FILTER (WHERE g.geom IS DISTINCT FROM e.wkb)
  FROM geo_v2 g JOIN geo_wkt_expected e USING (id);
SELECT id FROM geo_wkt_expected EXCEPT SELECT id FROM geo_v2 ORDER BY 1;
SELECT id, wkt, geom FROM geo_none WHERE id IN (1, 4, 9, 10, 11, 12, 13) ORDER BY id;

-- Every GEOMETRY/GEOGRAPHY column of the hyparquet-writer file holds the
-- same WKB whatever its CRS.
SELECT c.col, count(*) AS rows,
       count(*) FILTER (WHERE c.wkb IS DISTINCT FROM e.wkb) AS mismatches
  FROM geo_hyp h
  CROSS JOIN LATERAL (VALUES ('g_default', g_default), ('g_srid', g_srid),
                             ('g_epsg', g_epsg), ('g_projjson', g_projjson),
                             ('g_other', g_other), ('geog', geog),
                             ('geog_karney', geog_karney)) AS c(col, wkb)
  FULL JOIN geo_hyp_expected e USING (id)
 GROUP BY c.col ORDER BY c.col;

-- Quals on WKB: equality works (statistics of GEOMETRY are never used).
SELECT id FROM geo_none WHERE geom = '\x01e9030000000000000000f03f00000000000000400000000000000840';
SELECT id FROM geo_hyp WHERE geog_karney IS NULL;

-- CRS (OGC:CRS84 when absent), edge algorithm (SPHERICAL when absent, NULL
-- for GEOMETRY), and the SRID PostGIS values get (docs/GEOSPATIAL.md).
SELECT name, logical_type, pg_type, crs, edge_algorithm, srid
  FROM parquet_fdw.schema(:'fixtures' || '/hyp_geo_crs.parquet')
 WHERE depth = 1 ORDER BY ordinal;
-- DuckDB writes GEOMETRY('OGC:CRS84') as PROJJSON whose id is OGC CRS84.
SELECT name, left(crs, 16) AS crs_start,
       crs LIKE '%"id":{"authority":"OGC","code":"CRS84"}}' AS projjson_crs84,
       edge_algorithm, srid
  FROM parquet_fdw.schema(:'fixtures' || '/duckdb_geo_none.parquet') WHERE name = 'geom';
SELECT name, crs, edge_algorithm, srid
  FROM parquet_fdw.schema(:'fixtures' || '/duckdb_geo_v2.parquet') WHERE name = 'geom';
-- Unusual CRS strings: SRIDs only from well-formed EPSG/srid codes in
-- 1..999999 and from a PROJJSON object's own top-level id.
SELECT name, crs, srid
  FROM parquet_fdw.schema(:'fixtures' || '/hyp_geo_crs_edge.parquet')
 WHERE depth = 1 ORDER BY ordinal;
-- Not a geospatial column: all three NULL.
SELECT name, crs, edge_algorithm, srid
  FROM parquet_fdw.schema(:'fixtures' || '/hyp_geo_crs.parquet') WHERE name = 'id';

-- GeospatialStatistics: bounding boxes and WKB type codes, per row group.
-- duckdb_geo_none: x 1..45, y 2..40, z from POINT Z/ZM only (3), m from
-- POINT M/ZM only (4); types 1-7 plus 1001, 2001, 3001.
SELECT row_group, bbox_xmin, bbox_xmax, bbox_ymin, bbox_ymax, bbox_zmin,
       bbox_zmax, bbox_mmin, bbox_mmax, geospatial_types
  FROM parquet_fdw.metadata(:'fixtures' || '/duckdb_geo_none.parquet')
 WHERE path_in_schema = 'geom';
-- Without the M rows there is no M range.
SELECT row_group, bbox_xmin, bbox_xmax, bbox_ymin, bbox_ymax, bbox_zmin,
       bbox_zmax, bbox_mmin, bbox_mmax, geospatial_types
  FROM parquet_fdw.metadata(:'fixtures' || '/duckdb_geo_v2.parquet')
 WHERE path_in_schema = 'geom';
-- hyp_geo_crs: rows 1-3 are 2D (x 10..40, y 10..40, types 1, 2); rows 4-6
-- hold POINT Z (-120.5 45.25 100), a 2D polygon, MULTIPOINT ZM ((1 2 5 7),
-- (3 4 6 8)): x -120.5..4, y 0..45.25, z 5..100, m 7..8, types 3, 1001, 3004.
SELECT path_in_schema, row_group, bbox_xmin, bbox_xmax, bbox_ymin, bbox_ymax,
       bbox_zmin, bbox_zmax, bbox_mmin, bbox_mmax, geospatial_types
  FROM parquet_fdw.metadata(:'fixtures' || '/hyp_geo_crs.parquet')
 WHERE path_in_schema IN ('g_default', 'geog_karney')
 ORDER BY row_group, path_in_schema;
-- Other columns have none.
SELECT count(*) FILTER (WHERE bbox_xmin IS NOT NULL OR geospatial_types IS NOT NULL)
  FROM parquet_fdw.metadata(:'fixtures' || '/hyp_geo_crs.parquet')
 WHERE path_in_schema = 'id';

-- PostGIS is found by the declared type's extension, not by its name: a
-- domain called geometry (no PostGIS here) takes the WKB as it is.
CREATE DOMAIN geometry AS bytea;
CREATE FOREIGN TABLE geo_domain (id int, g_srid geometry)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/hyp_geo_crs.parquet');
SELECT id, g_srid FROM geo_domain WHERE id = 1;
DROP FOREIGN TABLE geo_domain;
DROP DOMAIN geometry;

DROP FOREIGN TABLE geo_none, geo_v2, geo_hyp;
