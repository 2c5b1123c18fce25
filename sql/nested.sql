-- Nested Parquet fields as arrays, composites and jsonb (issue 3).
-- duckdb_nested_decl.parquet is written by DuckDB from the formulas in
-- test/js/lib/nested_tables.mjs (nestedDeclSql); the view expected_nested
-- computes the same rows with PostgreSQL formulas.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
\set decl :fixtures '/duckdb_nested_decl.parquet'
SET TimeZone = 'UTC';

-- Natural types: arrays for lists of primitives, jsonb for the rest.
SELECT parquet_fdw.create_table_sql(:'decl', 'nested_natural');
SELECT name, repetition, logical_type, num_children, max_repetition_level, pg_type
FROM parquet_fdw.schema(:'decl') WHERE depth = 1 ORDER BY ordinal;

CREATE TYPE nst_f AS (x int, y text[]);
CREATE TYPE nst AS (a int, b text, c float8, d numeric(9,2), e date, f nst_f);
CREATE TYPE kv_text_int AS (key text, value int);
CREATE TYPE nab AS (a int, b text);
CREATE TYPE kv_int_ints AS (k int, v int[]);

CREATE VIEW expected_nested AS
SELECT i AS id,
  CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN '{}'::int[] WHEN 2 THEN ARRAY[NULL::int]
    ELSE ARRAY[i::int, NULL, -i::int] END AS li,
  CASE WHEN i % 3 = 0 THEN NULL ELSE ARRAY['a' || i, NULL] END AS lt,
  CASE WHEN i % 5 = 0 THEN NULL ELSE ROW(
    CASE WHEN i % 3 = 0 THEN NULL ELSE i::int END,
    's' || i,
    i::float8 / 4,
    (i * 0.01)::numeric(9,2),
    DATE '2000-01-01' + i::int,
    CASE WHEN i % 7 = 0 THEN NULL ELSE ROW(i::int, ARRAY['y' || i])::nst_f END)::nst END AS st,
  CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN '{}'::kv_text_int[]
    ELSE ARRAY[ROW('k' || i, i::int)::kv_text_int, ROW('n', NULL)::kv_text_int] END AS mp,
  CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN '{}'::nab[] WHEN 2 THEN ARRAY[NULL::nab]
    ELSE ARRAY[ROW(i::int, NULL)::nab, ROW(NULL, 'b' || i)::nab] END AS ls,
  CASE WHEN i % 5 = 0 THEN NULL
    ELSE ARRAY[ROW(i::int, ARRAY[i::int, i::int + 1])::kv_int_ints, ROW(-1, NULL)::kv_int_ints] END AS ml,
  CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN '[]'::jsonb WHEN 2 THEN '[null]' WHEN 3 THEN '[[]]'
    ELSE jsonb_build_array(jsonb_build_array(i, NULL), NULL, jsonb_build_array(i + 1)) END AS ll
FROM generate_series(0::bigint, 2999) AS g(i);

-- Declared arrays, composites (a struct in a struct), maps as arrays of
-- (key, value) composites, a list of structs; the list of lists as jsonb.
CREATE FOREIGN TABLE nested_decl (
  id bigint, li int[], lt text[], st nst, mp kv_text_int[], ls nab[],
  ml kv_int_ints[], ll jsonb
) SERVER parquet_srv OPTIONS (filename :'decl');

SELECT count(*) AS rows,
  count(*) FILTER (WHERE t.li::text IS DISTINCT FROM e.li::text) AS li,
  count(*) FILTER (WHERE t.lt::text IS DISTINCT FROM e.lt::text) AS lt,
  count(*) FILTER (WHERE t.st::text IS DISTINCT FROM e.st::text) AS st,
  count(*) FILTER (WHERE t.mp::text IS DISTINCT FROM e.mp::text) AS mp,
  count(*) FILTER (WHERE t.ls::text IS DISTINCT FROM e.ls::text) AS ls,
  count(*) FILTER (WHERE t.ml::text IS DISTINCT FROM e.ml::text) AS ml,
  count(*) FILTER (WHERE t.ll IS DISTINCT FROM e.ll) AS ll
FROM nested_decl t FULL JOIN expected_nested e USING (id);

-- NULL list, empty list, list of a NULL, NULL struct, NULL field, NULL map.
SELECT id, li, lt, st, mp, ls, ll FROM nested_decl WHERE id IN (0, 1, 2, 7, 10) ORDER BY id;

-- Nested values in quals, array subscripts and composite fields.
SELECT id, li[3], (st).f.y[1], mp[1].key FROM nested_decl
WHERE li = ARRAY[7, NULL, -7] OR (st).a = 11 ORDER BY id;
SELECT count(*) FILTER (WHERE st IS NULL) AS null_st,
       count(*) FILTER (WHERE mp IS NULL) AS null_mp,
       count(*) FILTER (WHERE cardinality(ls) = 0) AS empty_ls
FROM nested_decl;

-- Everything as jsonb: structs are objects, maps objects keyed by the
-- keys' text, lists arrays; decimals keep their digits, dates are strings.
CREATE FOREIGN TABLE nested_json (
  id bigint, li jsonb, lt jsonb, st jsonb, mp jsonb, ls jsonb, ml jsonb, ll jsonb
) SERVER parquet_srv OPTIONS (filename :'decl');

SELECT count(*) AS rows,
  count(*) FILTER (WHERE t.li IS DISTINCT FROM to_jsonb(e.li)) AS li,
  count(*) FILTER (WHERE t.lt IS DISTINCT FROM to_jsonb(e.lt)) AS lt,
  count(*) FILTER (WHERE t.st IS DISTINCT FROM to_jsonb(e.st)) AS st,
  count(*) FILTER (WHERE t.mp IS DISTINCT FROM
    CASE e.id % 4 WHEN 0 THEN NULL WHEN 1 THEN '{}'::jsonb
      ELSE jsonb_build_object('k' || e.id, e.id, 'n', NULL) END) AS mp,
  count(*) FILTER (WHERE t.ls IS DISTINCT FROM to_jsonb(e.ls)) AS ls,
  count(*) FILTER (WHERE t.ml IS DISTINCT FROM
    CASE WHEN e.id % 5 = 0 THEN NULL
      ELSE jsonb_build_object(e.id::text, jsonb_build_array(e.id, e.id + 1), '-1', NULL) END) AS ml,
  count(*) FILTER (WHERE t.ll IS DISTINCT FROM e.ll) AS ll
FROM nested_json t FULL JOIN expected_nested e USING (id);
SELECT st, mp, ml FROM nested_json WHERE id = 13;
-- json (not jsonb) keeps the text as rendered
CREATE FOREIGN TABLE nested_json_text (id bigint, st json)
SERVER parquet_srv OPTIONS (filename :'decl');
SELECT st FROM nested_json_text WHERE id = 13;

-- A composite with fewer fields, one matched case-insensitively and one
-- the file does not have (NULL): only the leaves of the matched fields are
-- read.
CREATE TYPE nst_part AS ("B" text, extra int, a int);
CREATE FOREIGN TABLE nested_part (id bigint, st nst_part)
SERVER parquet_srv OPTIONS (filename :'decl');
SELECT count(*) AS rows,
  count(*) FILTER (WHERE t.st::text IS DISTINCT FROM
    CASE WHEN e.st IS NULL THEN NULL ELSE ROW((e.st).b, NULL, (e.st).a)::nst_part::text END) AS mismatches
FROM nested_part t JOIN expected_nested e USING (id);
-- two attributes matching one field (exactly and case-insensitively)
CREATE TYPE twice_a AS (a int, "A" int);
CREATE FOREIGN TABLE nested_twice (id bigint, st twice_a)
SERVER parquet_srv OPTIONS (filename :'decl');
SELECT count(*) FILTER (WHERE t.st::text IS DISTINCT FROM
    CASE WHEN e.st::text IS NULL THEN NULL ELSE ROW((e.st).a, (e.st).a)::twice_a::text END) AS mismatches
FROM nested_twice t JOIN expected_nested e USING (id);
-- a map read as composites of its key alone
CREATE TYPE kv_key AS (key text);
CREATE FOREIGN TABLE nested_keys (id bigint, mp kv_key[])
SERVER parquet_srv OPTIONS (filename :'decl');
SELECT id, mp FROM nested_keys WHERE id BETWEEN 4 AND 6 ORDER BY id;

-- Projection: a composite of one of the wide struct's twelve fields reads
-- one of its twelve column chunks.
CREATE TYPE wide1 AS (w3 text);
CREATE FOREIGN TABLE nested_wide (id bigint, wide wide1)
SERVER parquet_srv OPTIONS (filename :'decl');
CREATE FOREIGN TABLE nested_wide_all (id bigint, wide jsonb)
SERVER parquet_srv OPTIONS (filename :'decl');
CREATE FUNCTION scan_counter(query text, counter text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, FORMAT JSON) ' || query INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> counter)::bigint;
END
$$;
SELECT wide FROM nested_wide WHERE id = 5;
SELECT wide->>'w3' FROM nested_wide_all WHERE id = 5;
SELECT scan_counter('SELECT wide FROM nested_wide', 'Data Pages Read') AS pages_one_field,
       scan_counter('SELECT wide FROM nested_wide_all', 'Data Pages Read') AS pages_all_fields,
       scan_counter('SELECT wide FROM nested_wide', 'Bytes Read') * 6 <
       scan_counter('SELECT wide FROM nested_wide_all', 'Bytes Read') AS one_sixth_of_the_bytes;

-- Declarations that cannot hold the field: errors at the first file that
-- name the column and the field.
CREATE TYPE nst_bad AS (a int, c date);
CREATE FOREIGN TABLE nested_bad (st nst_bad) SERVER parquet_srv OPTIONS (filename :'decl');
SELECT * FROM nested_bad;
-- strings convert to any type through its input function, as for flat
-- columns; a value that does not is an error naming column and field
CREATE TYPE nst_int_b AS (a int, b int);
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE nst_int_b;
SELECT * FROM nested_bad;
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE int;
SELECT * FROM nested_bad;
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE int[];
SELECT * FROM nested_bad;
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE jsonb, ALTER COLUMN st OPTIONS (ADD column_name 'li');
SELECT count(*) FROM nested_bad WHERE st IS NOT NULL;
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE text;
SELECT * FROM nested_bad;
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE text[], ALTER COLUMN st OPTIONS (SET column_name 'mp');
SELECT * FROM nested_bad;
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE nab[], ALTER COLUMN st OPTIONS (SET column_name 'll');
SELECT * FROM nested_bad;
-- a list of int read as numeric[] and varchar(2)[]: element casts and typmods
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE numeric[], ALTER COLUMN st OPTIONS (SET column_name 'li');
SELECT st FROM nested_bad LIMIT 4;
ALTER FOREIGN TABLE nested_bad ALTER COLUMN st TYPE varchar(2)[];
SELECT st FROM nested_bad LIMIT 4;

-- Page index pruning on another column: the nested columns' rows outside
-- the pruned ranges are skipped (struct leaves through the page index,
-- list leaves by their repetition levels); same rows as without pruning.
CREATE FOREIGN TABLE nested_pw (id bigint, l_c_int4 int[], long_l bigint[],
  s_all jsonb, ls jsonb, m_c_date jsonb)
SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/pw_nested_types.parquet');
SELECT scan_counter('SELECT * FROM nested_pw WHERE id BETWEEN 1000 AND 1010', 'Pages Pruned by Page Index') > 0 AS pages_pruned;
CREATE TEMP TABLE pruned AS
SELECT * FROM nested_pw WHERE id BETWEEN 1000 AND 1010 OR id BETWEEN 3500 AND 3520;
SET parquet_fdw.enable_page_index_pruning = off;
SET parquet_fdw.enable_statistics_pruning = off;
SELECT count(*) AS rows, count(*) FILTER (WHERE p::text IS DISTINCT FROM n::text) AS mismatches
FROM pruned p FULL JOIN (SELECT * FROM nested_pw WHERE id BETWEEN 1000 AND 1010 OR id BETWEEN 3500 AND 3520) n USING (id);
RESET parquet_fdw.enable_page_index_pruning;
RESET parquet_fdw.enable_statistics_pruning;
-- long_l: range(id, id + 9000) where id % 500 = 7, else range(id % 4)
SELECT id, cardinality(long_l), long_l[1], long_l[9000], long_l[1:3] FROM pruned WHERE id IN (1007, 1008, 3507) ORDER BY id;

-- jsonb is built directly, json is the rendered text: the same values
-- (as jsonb text, so numeric scales count too), over every type in
-- structs, maps and deeper nestings.
\set types :fixtures '/duckdb_nested_types.parquet'
\set ECHO none
SELECT parquet_fdw.create_table_sql(:'types', 'nt_jsonb') \gexec
SELECT regexp_replace(parquet_fdw.create_table_sql(:'types', 'nt_json'), ' jsonb(,|\n)', ' json\1', 'g') \gexec
SELECT format('SELECT count(*) AS rows, %s AS mismatches FROM nt_jsonb a JOIN nt_json b USING (id)',
              string_agg(format('count(*) FILTER (WHERE a.%1$I::text IS DISTINCT FROM b.%1$I::jsonb::text)', attname), ' + '))
FROM pg_attribute
WHERE attrelid = 'nt_json'::regclass AND atttypid = 'json'::regtype \gexec
\set ECHO all
SELECT count(*) AS json_columns FROM pg_attribute
WHERE attrelid = 'nt_json'::regclass AND atttypid = 'json'::regtype;

-- Round trip: COPY TO writes arrays as LIST and composites as structs;
-- read back with the same declared types they equal the source rows.
LOAD 'parquet_fdw';
CREATE TYPE rt_pt AS (x float8, y float8);
CREATE TYPE rt_item AS (name text, qty int, tags text[], at rt_pt, price numeric(10,2), day date);
CREATE TABLE rt_src AS
SELECT i AS id,
  CASE WHEN i % 4 = 0 THEN NULL WHEN i % 4 = 1 THEN '{}'::int[] ELSE ARRAY[i, NULL, -i] END AS ints,
  CASE WHEN i % 3 = 0 THEN NULL ELSE ARRAY['t' || i, NULL, ''] END AS texts,
  CASE WHEN i % 5 = 0 THEN NULL ELSE ROW(i / 3.0, NULL)::rt_pt END AS pt,
  CASE WHEN i % 6 = 0 THEN NULL
       ELSE ROW('n' || i, i, ARRAY['a', NULL], ROW(i, -i)::rt_pt, i * 1.25, DATE '2020-02-29' + i)::rt_item END AS item,
  CASE WHEN i % 7 = 0 THEN NULL WHEN i % 7 = 1 THEN '{}'::rt_item[]
       ELSE ARRAY[ROW('m' || i, NULL, NULL, NULL, NULL, NULL)::rt_item, NULL] END AS items
FROM generate_series(1, 2000) AS g(i);
COPY rt_src TO '/tmp/parquet_fdw_test/out/nested_roundtrip.parquet' WITH (FORMAT parquet);
CREATE FOREIGN TABLE rt_back (id int, ints int[], texts text[], pt rt_pt, item rt_item, items rt_item[])
SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/nested_roundtrip.parquet');
SELECT count(*) AS rows, count(*) FILTER (WHERE s::text IS DISTINCT FROM b::text) AS mismatches
FROM rt_src s FULL JOIN rt_back b USING (id);

-- A query that uses a VARIANT column only as v -> 'key' / v ->> 'key' reads
-- only those fields' shredded columns (plus metadata and value): the same
-- results as taking the fields of the whole value, from fewer pages.
CREATE FOREIGN TABLE variant_shred (id integer, v jsonb)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/duckdb_variant_shredded.parquet');
CREATE TEMP TABLE variant_whole AS SELECT id, v FROM variant_shred;
SELECT count(*) AS differences FROM (
  (SELECT id, v -> 'a' AS a, v ->> 'b' AS b FROM variant_shred
   EXCEPT SELECT id, v -> 'a', v ->> 'b' FROM variant_whole)
  UNION ALL
  (SELECT id, v -> 'a', v ->> 'b' FROM variant_whole
   EXCEPT SELECT id, v -> 'a' AS a, v ->> 'b' AS b FROM variant_shred)) d;
SELECT id, v -> 'c' -> 'x' AS cx FROM variant_shred WHERE v ->> 'b' IS NOT NULL ORDER BY id;
SELECT id, v -> 'c' -> 'x' AS cx FROM variant_whole WHERE v ->> 'b' IS NOT NULL ORDER BY id;
CREATE FUNCTION variant_pages(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q INTO plan;
    RETURN jsonb_path_query_first(plan, 'strict $.**."Data Pages Read"')::bigint;
END
$$;
SELECT variant_pages('SELECT v ->> ''b'' FROM variant_shred') <
       variant_pages('SELECT v FROM variant_shred') AS fewer_pages_for_one_field,
       variant_pages('SELECT v ->> ''b'', v FROM variant_shred') =
       variant_pages('SELECT v FROM variant_shred') AS whole_value_when_used_whole;

-- DuckDB's fixed-size arrays (duckdb_fixed_arrays.parquet, written from
-- fixedArraysSql() in test/js/lib/nested_tables.mjs): a NULL INTEGER[3] is
-- an entry per slot, the two after the first continuing a NULL list.  They
-- add nothing: no row may shift.  Expected values from the types table's
-- formulas (test/fixtures.md) and the fixture's own CASEs.
\set fixed :fixtures '/duckdb_fixed_arrays.parquet'
CREATE TYPE fx_struct AS (x bigint[], y bigint);
CREATE FOREIGN TABLE fixed_arrays (id bigint, a_c_int4 int[], a_c_varchar text[],
    fixed_of_fixed jsonb, list_of_fixed jsonb, struct_of_fixed fx_struct)
  SERVER parquet_srv OPTIONS (filename :'fixed');
CREATE FUNCTION fx_int4(i bigint) RETURNS int4 LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN i % 7 = 3 OR i > 4999 THEN NULL
    ELSE (CASE WHEN i = 1 THEN -2147483648 WHEN i = 2 THEN 2147483647
          ELSE i * 7919 % 2000000 - 1000000 END)::int4 END $$;
CREATE VIEW expected_fixed AS
SELECT i AS id,
  CASE WHEN i % 4 = 1 THEN NULL ELSE ARRAY[fx_int4(i), NULL, fx_int4(i + 1)] END AS a_c_int4,
  CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN jsonb_build_array(NULL, jsonb_build_array(i, NULL), NULL)
    ELSE jsonb_build_array(jsonb_build_array(i, i + 1), NULL, jsonb_build_array(NULL, -i)) END AS fixed_of_fixed,
  CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN '[]'::jsonb WHEN 2 THEN '[null]'
    ELSE jsonb_build_array(jsonb_build_array(i, NULL, 1), NULL, jsonb_build_array(2, 3, i)) END AS list_of_fixed,
  CASE WHEN i % 3 = 0 THEN NULL
    ELSE ROW(CASE WHEN i % 2 = 0 THEN NULL ELSE ARRAY[i, -i] END, i)::fx_struct END AS struct_of_fixed
FROM generate_series(0::bigint, 4999) AS g(i);
SELECT count(*) AS rows,
       count(*) FILTER (WHERE f.a_c_int4 IS DISTINCT FROM e.a_c_int4) AS int4_mismatches,
       count(*) FILTER (WHERE f.fixed_of_fixed IS DISTINCT FROM e.fixed_of_fixed) AS nested_mismatches,
       count(*) FILTER (WHERE f.list_of_fixed IS DISTINCT FROM e.list_of_fixed) AS list_mismatches,
       count(*) FILTER (WHERE f.struct_of_fixed::text IS DISTINCT FROM e.struct_of_fixed::text) AS struct_mismatches,
       count(*) FILTER (WHERE f.a_c_int4 IS NULL) AS null_arrays
FROM fixed_arrays f FULL JOIN expected_fixed e USING (id);
SELECT id, a_c_int4, a_c_varchar, fixed_of_fixed FROM fixed_arrays WHERE id BETWEEN 0 AND 5 ORDER BY id;
-- A filter on id: the nested columns skip the rows between the survivors.
SELECT count(*) AS rows,
       count(*) FILTER (WHERE f.a_c_int4 IS DISTINCT FROM e.a_c_int4
                          OR f.fixed_of_fixed IS DISTINCT FROM e.fixed_of_fixed
                          OR f.struct_of_fixed::text IS DISTINCT FROM e.struct_of_fixed::text) AS mismatches
FROM fixed_arrays f JOIN expected_fixed e USING (id)
WHERE f.id % 97 = 5 OR f.id > 4990;
-- COPY FROM reads the same levels.
CREATE TABLE fixed_copy (id bigint, a_c_int4 int[], a_c_varchar text[],
    fixed_of_fixed jsonb, list_of_fixed jsonb, struct_of_fixed fx_struct);
COPY fixed_copy FROM :'fixed' WITH (FORMAT parquet);
SELECT count(*) AS rows,
       count(*) FILTER (WHERE c.a_c_int4 IS DISTINCT FROM e.a_c_int4
                          OR c.fixed_of_fixed IS DISTINCT FROM e.fixed_of_fixed
                          OR c.list_of_fixed IS DISTINCT FROM e.list_of_fixed
                          OR c.struct_of_fixed::text IS DISTINCT FROM e.struct_of_fixed::text) AS mismatches
FROM fixed_copy c FULL JOIN expected_fixed e USING (id);
