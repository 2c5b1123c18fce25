-- COPY ... TO ... (FORMAT parquet) of arrays (LIST), composites (struct),
-- enums, domains and jsonb as VARIANT.  The values are checked by DuckDB in
-- the copy stage (test/js/check_copy.mjs compares its reading of each file
-- with the JSON PostgreSQL writes here of the same rows); this file checks
-- the schema, the options and the errors.
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 3;
\set out '/tmp/parquet_fdw_test/out'

CREATE TYPE cn_color AS ENUM ('red', 'green', 'blue');
CREATE DOMAIN cn_pos AS int4 CHECK (VALUE > 0);
CREATE DOMAIN cn_ints AS int4[] CHECK (cardinality(VALUE) < 100);
CREATE TYPE cn_point AS (x float8, y float8);
CREATE TYPE cn_item AS (name text, qty cn_pos, tags text[], at cn_point,
                        color cn_color, price numeric(10,2), day date);
CREATE TABLE cn_src (
    id int4 NOT NULL,
    ints int4[],
    texts text[],
    nums numeric(12,3)[],
    colors cn_color[],
    doms cn_pos[],
    dints cn_ints,
    pt cn_point,
    item cn_item,
    items cn_item[],
    j jsonb,
    ja jsonb[],
    bigs int8[] NOT NULL,
    uuids uuid[]
);
-- NULL arrays, empty arrays, NULL elements, NULL composites and composites
-- of NULLs, lists of structs holding lists, long arrays, unicode
INSERT INTO cn_src
SELECT i,
  CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN '{}'
       ELSE ARRAY(SELECT CASE WHEN k % 4 = 3 THEN NULL ELSE k * i - 500 END FROM generate_series(1, i % 9) k) END,
  CASE WHEN i % 6 = 0 THEN NULL WHEN i % 6 = 1 THEN ARRAY[NULL]::text[]
       ELSE ARRAY['t' || i, '', 'ü€😀' || i, CASE WHEN i % 2 = 0 THEN NULL ELSE '"q\' END] END,
  CASE WHEN i % 7 = 0 THEN NULL ELSE ARRAY[i * 1.5, -i * 0.001, 123456789.123]::numeric(12,3)[] END,
  CASE WHEN i % 4 = 0 THEN NULL ELSE ARRAY[(ARRAY['red', 'green', 'blue'])[i % 3 + 1], 'blue']::cn_color[] END,
  CASE WHEN i % 3 = 0 THEN NULL ELSE ARRAY[i, i + 1]::cn_pos[] END,
  CASE WHEN i % 8 = 0 THEN NULL ELSE ARRAY[i, -i]::cn_ints END,
  CASE WHEN i % 5 = 2 THEN NULL WHEN i % 5 = 3 THEN ROW(NULL, NULL)::cn_point
       ELSE ROW(i / 4.0, -i * 0.25)::cn_point END,
  CASE WHEN i % 6 = 2 THEN NULL
       ELSE ROW('item ' || i, i % 10 + 1, CASE WHEN i % 2 = 0 THEN ARRAY['a' || i] END,
                CASE WHEN i % 3 = 0 THEN NULL ELSE ROW(i, i)::cn_point END,
                (ARRAY['red', 'green', 'blue'])[i % 3 + 1]::cn_color, i * 0.25, DATE '2020-02-28' + i)::cn_item END,
  CASE WHEN i % 9 = 0 THEN NULL WHEN i % 9 = 1 THEN '{}'
       ELSE ARRAY(SELECT CASE WHEN k = 2 THEN NULL
                              ELSE ROW('n' || k, k, ARRAY(SELECT 'tag' || m FROM generate_series(1, k) m),
                                       ROW(k, -k)::cn_point, 'green', k * 10.5, DATE '2000-01-01' + k)::cn_item END
                  FROM generate_series(1, i % 4 + 1) k) END,
  CASE WHEN i % 10 = 0 THEN NULL WHEN i % 10 = 1 THEN 'null'
       ELSE jsonb_build_object('i', i, 'a', jsonb_build_array(i, 'x', NULL, true, 1.50, jsonb_build_object('k', 'ü')), 'f', i * 0.125) END,
  CASE WHEN i % 4 = 0 THEN NULL ELSE ARRAY[jsonb_build_object('n', i), '[1, 2]', NULL] END,
  ARRAY(SELECT k::int8 * 1000000007 FROM generate_series(1, CASE WHEN i = 7 THEN 1000 ELSE i % 3 END) k),
  CASE WHEN i % 2 = 0 THEN ARRAY[md5(i::text)::uuid, NULL] END
FROM generate_series(0, 299) AS g(i);

COPY cn_src TO '/tmp/parquet_fdw_test/out/copy_nested.parquet' WITH (FORMAT parquet);
COPY cn_src TO '/tmp/parquet_fdw_test/out/copy_nested_variant.parquet'
  WITH (FORMAT parquet, jsonb_as variant, page_version 2, row_group_size 100, data_page_size 512);
-- PostgreSQL's JSON of the same rows, for check_copy.mjs
COPY (SELECT id, row_to_json(s)::text FROM cn_src s ORDER BY id)
  TO '/tmp/parquet_fdw_test/out/copy_nested.json.csv' WITH (FORMAT csv);

-- jsonb as VARIANT: every kind of JSON value, integer and decimal widths,
-- short and long strings, 1- to 3-byte offsets and ids, large objects and
-- arrays (is_large), deep nesting; DuckDB's JSON of each is compared with
-- this jsonb text in the copy stage
CREATE TABLE cn_variant (id int4, j jsonb);
INSERT INTO cn_variant VALUES
  (1, 'null'), (2, 'true'), (3, 'false'), (4, '0'), (5, '-128'), (6, '127'),
  (7, '128'), (8, '-32769'), (9, '2147483647'), (10, '2147483648'),
  (11, '-9223372036854775808'), (12, '9223372036854775807'),
  (13, '9223372036854775808'), (14, '0.5'), (15, '-0.001'), (16, '1.50'),
  (17, '123456789.123456789'), (18, '12345678901234567890123456789012345678'),
  (19, '-0.12345678901234567890123456789012345678'), (20, '1e30'),
  (21, '""'), (22, '"a"'), (23, to_jsonb(repeat('x', 63))), (24, to_jsonb(repeat('y', 64))),
  (25, '"ü€😀 \" \\ \n \t \u0001"'), (26, '{}'), (27, '[]'), (28, '[[], {}, [[]]]'),
  (29, '{"": 0, "A": 1, "a": 2, "ab": 3, "b": 4, "é": 5, "z": {"a": null}}'),
  (30, (SELECT jsonb_agg(i) FROM generate_series(1, 300) i)),
  (31, (SELECT jsonb_object_agg('k' || i, i) FROM generate_series(1, 300) i)),
  (32, (SELECT jsonb_object_agg('key' || i, repeat('v', 300)) FROM generate_series(1, 300) i)),
  (33, jsonb_build_object('big', repeat('w', 70000), 'small', 1)),
  (34, (SELECT string_agg('[', '') || '1' || string_agg(']', '') FROM generate_series(1, 200))::jsonb),
  (35, '{"a": [1, {"b": [2, {"c": "d"}]}], "e": [{"f": 1}, {"f": 2.25}]}'),
  (36, NULL);
COPY cn_variant TO '/tmp/parquet_fdw_test/out/copy_variant.parquet' WITH (FORMAT parquet, jsonb_as variant);
COPY cn_variant TO '/tmp/parquet_fdw_test/out/copy_variant.csv' WITH (FORMAT csv);

-- the schema: 3-level lists, groups for composites, REQUIRED for NOT NULL
SELECT repeat('  ', depth - 1) || name AS field, repetition, physical_type,
       logical_type, converted_type, max_definition_level AS d, max_repetition_level AS r
  FROM parquet_fdw.schema(:'out' || '/copy_nested.parquet') WHERE depth > 0 ORDER BY ordinal;
-- jsonb as VARIANT: a group of metadata and value
SELECT repeat('  ', depth - 1) || name AS field, repetition, physical_type, logical_type
  FROM parquet_fdw.schema(:'out' || '/copy_nested_variant.parquet')
 WHERE path_in_schema = 'j' OR path_in_schema LIKE 'j.%' OR path_in_schema LIKE 'ja%' ORDER BY ordinal;
SELECT num_rows, num_row_groups FROM parquet_fdw.file_info(:'out' || '/copy_nested_variant.parquet');
-- every leaf has statistics and a page index, as flat columns do
SELECT path_in_schema, stats_min, stats_max, null_count, has_column_index
  FROM parquet_fdw.metadata(:'out' || '/copy_nested.parquet')
 WHERE path_in_schema IN ('ints.list.element', 'items.list.element.tags.list.element', 'bigs.list.element')
 ORDER BY 1;

-- records with a known row type are structs, others text
COPY (SELECT ROW(1, 2)::cn_point AS typed, ROW(1, 'a') AS anonymous)
  TO '/tmp/parquet_fdw_test/out/copy_nested_rec.parquet' WITH (FORMAT parquet);
SELECT repeat('  ', depth - 1) || name AS field, physical_type, logical_type
  FROM parquet_fdw.schema(:'out' || '/copy_nested_rec.parquet') WHERE depth > 0 ORDER BY ordinal;

-- ------------------------------------------------------------ errors
-- multi-dimensional arrays have no LIST form
COPY (SELECT 1 AS id, '{{1,2},{3,4}}'::int4[] AS m)
  TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet);
COPY (SELECT i, CASE WHEN i = 3 THEN '{{1}}'::int4[] ELSE '{1}' END AS m FROM generate_series(1, 5) i)
  TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet);
-- a composite without fields
CREATE TYPE cn_empty AS ();
COPY (SELECT ROW()::cn_empty AS e) TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet);
-- Bloom filters are for scalar columns
COPY cn_src TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet, bloom_filter 'ints');
-- element values are checked like column values, naming the element
COPY (SELECT ARRAY[INTERVAL '1 ms', INTERVAL '1 us'] AS ivs)
  TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet);
COPY (SELECT ARRAY[1.5, 'NaN']::numeric[] AS n)
  TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet);
-- JSON numbers a Variant cannot hold exactly
COPY (SELECT '{"tiny": 1e-50}'::jsonb AS j)
  TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet, jsonb_as variant);
COPY (SELECT '123456789012345678901234567890123456789'::jsonb AS j)
  TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet, jsonb_as variant);
COPY (SELECT '{}'::jsonb AS j) TO '/tmp/parquet_fdw_test/out/e_nested.parquet' WITH (FORMAT parquet, jsonb_as 'bson');
SELECT pg_stat_file(:'out' || '/e_nested.parquet', true) IS NULL AS no_file;

-- COPY FROM reads the nested files back (arrays, composites, arrays of
-- composites holding arrays, jsonb from JSON and from VARIANT): the source
-- tables are the reference, compared both ways.
CREATE TABLE cn_back (LIKE cn_src);
COPY cn_back FROM '/tmp/parquet_fdw_test/out/copy_nested.parquet' WITH (FORMAT parquet);
SELECT (SELECT count(*) FROM (SELECT * FROM cn_src EXCEPT ALL SELECT * FROM cn_back) a) AS missing,
       (SELECT count(*) FROM (SELECT * FROM cn_back EXCEPT ALL SELECT * FROM cn_src) b) AS extra;
CREATE TABLE cn_variant_back (LIKE cn_variant);
COPY cn_variant_back FROM '/tmp/parquet_fdw_test/out/copy_variant.parquet' WITH (FORMAT parquet);
SELECT (SELECT count(*) FROM (SELECT * FROM cn_variant EXCEPT ALL SELECT * FROM cn_variant_back) a) AS missing,
       (SELECT count(*) FROM (SELECT * FROM cn_variant_back EXCEPT ALL SELECT * FROM cn_variant) b) AS extra;
DROP TABLE cn_back, cn_variant_back;
