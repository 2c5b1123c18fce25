-- COPY ... TO ... WITH (FORMAT parquet): the ProcessUtility hook exists only
-- once the library is loaded in this session (CREATE EXTENSION in setup ran
-- in another session).
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
SET intervalstyle = 'postgres';
SET extra_float_digits = 3;
\set out '/tmp/parquet_fdw_test/out'
-- The output directory, created by the server's user; test/js/check_copy.mjs
-- reads the files after the run.
COPY (SELECT 1) TO PROGRAM 'mkdir -p /tmp/parquet_fdw_test/out; chmod 777 /tmp/parquet_fdw_test/out 2>/dev/null; rm -f /tmp/parquet_fdw_test/out/e.parquet /tmp/parquet_fdw_test/out/e_cancel.parquet; true';

CREATE TYPE copy_color AS ENUM ('red', 'green', 'blue');
CREATE DOMAIN copy_posint AS int4 CHECK (VALUE >= 0);
CREATE TABLE copy_src (
    id int8 NOT NULL,
    c_bool bool, c_int2 int2, c_int4 int4, c_int8 int8,
    c_float4 float4, c_float8 float8,
    c_dec4_2 numeric(4,2), c_dec9_3 numeric(9,3), c_dec18_4 numeric(18,4),
    c_dec38_10 numeric(38,10), c_dec_neg numeric(5,-2), c_numeric numeric,
    c_text text, c_varchar varchar(300), c_bpchar char(10), c_name name,
    c_bytea bytea, c_date date, c_time time, c_timetz timetz,
    c_timestamp timestamp, c_timestamptz timestamptz, c_interval interval,
    c_uuid uuid, c_json json, c_jsonb jsonb, c_enum copy_color,
    c_domain copy_posint, c_inet inet,
    c_int4_nn int4 NOT NULL, c_text_nn text NOT NULL
);
INSERT INTO copy_src
SELECT i,
  CASE WHEN i % 7 = 3 THEN NULL ELSE i % 3 = 0 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN -32768 WHEN i = 2 THEN 32767 ELSE i * 37 % 65536 - 32768 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN -2147483648 WHEN i = 2 THEN 2147483647 ELSE i * 7919 % 2000000 - 1000000 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN -9223372036854775808 WHEN i = 2 THEN 9223372036854775807 ELSE i::int8 * 1000000007 - 2500000000000 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 4 THEN 'NaN' WHEN i = 5 THEN 'Infinity' WHEN i = 6 THEN '-Infinity' WHEN i = 8 THEN '-0' ELSE (i - 1500)::float4 / 7 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 4 THEN 'NaN' WHEN i = 5 THEN 'Infinity' WHEN i = 6 THEN '-Infinity' WHEN i = 8 THEN '-0' WHEN i = 9 THEN 1.7976931348623157e308 WHEN i = 11 THEN 4.9e-324 ELSE (i - 1500)::float8 / 7 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN 99.99 WHEN i = 2 THEN -99.99 ELSE (i * 4 - 5999) * 0.01 END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 199999 - 299999999) * 0.001 END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 199999999999999 - 299999999999999999) * 0.0001 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN 9999999999999999999999999999.9999999999 WHEN i = 2 THEN -9999999999999999999999999999.9999999999
       ELSE (((i - 1500) * 3999999999999999999999999)::text || '.' || lpad((i::int8 * 7777777 % 10000000000)::text, 10, '0'))::numeric END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE i * 100 - 150000 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN 99999999999999999999999999999.999999999 WHEN i = 2 THEN -99999999999999999999999999999.999999999
       WHEN i = 4 THEN 0 ELSE (i - 1500) * 1234567.123456789 END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i % 11 = 0 THEN '' WHEN i = 5 THEN repeat('abcdefghij', 2000) || 'ü€😀' ELSE 'str_' || i || ' ü€😀日本' END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE repeat('x', (i % 300)::int) END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE 'b' || i END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE 'name_' || i END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i % 11 = 0 THEN ''::bytea ELSE decode(md5(i::text), 'hex') END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN DATE '0001-01-01' WHEN i = 2 THEN DATE '9999-12-31' ELSE DATE '1970-01-01' + (i * 13 - 20000)::int END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN TIME '00:00' WHEN i = 2 THEN TIME '23:59:59.999999' ELSE TIME '00:00' + (i::int8 * 17000123) * INTERVAL '1 microsecond' END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE ((TIME '00:00' + (i::int8 * 17000123) * INTERVAL '1 microsecond')::text || (ARRAY['+02', '-05:30', '+00'])[i % 3 + 1])::timetz END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN TIMESTAMP '0001-01-01 00:00' WHEN i = 2 THEN TIMESTAMP '9999-12-31 23:59:59.999999' ELSE TIMESTAMP '1900-01-01' + (i * 1234567890123) * INTERVAL '1 microsecond' END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 1 THEN TIMESTAMPTZ '0001-01-01 00:00+00' WHEN i = 2 THEN TIMESTAMPTZ '9999-12-31 23:59:59.999999+00' ELSE TIMESTAMPTZ '1900-01-01 00:00+00' + (i * 1234567890123) * INTERVAL '1 microsecond' END,
  CASE WHEN i % 7 = 3 THEN NULL WHEN i = 2 THEN make_interval(months => 2147483647, days => 2147483647) + INTERVAL '1193 hours'
       ELSE make_interval(months => i % 13, days => i % 31) + (i * 123457) * INTERVAL '1 millisecond' END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE md5(i::text)::uuid END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE json_build_object('i', i, 's', 'v' || i, 'u', 'ü') END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE jsonb_build_object('i', i, 'a', jsonb_build_array(i, 'x')) END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE ((ARRAY['red', 'green', 'blue'])[i % 3 + 1])::copy_color END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE i::int4 END,
  CASE WHEN i % 7 = 3 THEN NULL ELSE ('10.0.' || (i / 256) % 256 || '.' || i % 256)::inet END,
  i * 3 - 7000,
  'nn_' || i
FROM generate_series(0, 2999) AS g(i);

-- Reads a file back through a foreign table declared like the source and
-- compares every row's text form (timetz normalised to UTC, json as jsonb,
-- numeric without typmod without trailing zeros: Parquet keeps the instant,
-- the document and the value, not the offset, spacing or display scale).
CREATE FUNCTION copy_check(path text, src regclass DEFAULT 'copy_src') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    cols text;
    exprs_s text;
    exprs_f text;
    nrows bigint;
    nbad bigint;
    firstbad bigint;
BEGIN
    -- the reader gives JSON as jsonb and a UTC-adjusted TIME as time
    SELECT string_agg(format('%I %s', attname, CASE WHEN atttypid = 'json'::regtype THEN 'jsonb'
                                                    WHEN atttypid = 'timetz'::regtype THEN 'time'
                                                    ELSE format_type(atttypid, atttypmod) END), ', ' ORDER BY attnum),
           string_agg(CASE WHEN atttypid = 'timetz'::regtype THEN format('(s.%I AT TIME ZONE ''UTC'')::time::text', attname)
                           WHEN atttypid = 'numeric'::regtype AND atttypmod = -1 THEN format('trim_scale(s.%I)::text', attname)
                           WHEN atttypid = 'json'::regtype THEN format('s.%I::jsonb::text', attname)
                           ELSE format('s.%I::text', attname) END, ', ' ORDER BY attnum),
           string_agg(CASE WHEN atttypid = 'timetz'::regtype THEN format('f.%I::text', attname)
                           WHEN atttypid = 'numeric'::regtype AND atttypmod = -1 THEN format('trim_scale(f.%I)::text', attname)
                           WHEN atttypid = 'json'::regtype THEN format('f.%I::jsonb::text', attname)
                           ELSE format('f.%I::text', attname) END, ', ' ORDER BY attnum)
      INTO cols, exprs_s, exprs_f
      FROM pg_attribute WHERE attrelid = src AND attnum > 0 AND NOT attisdropped;
    EXECUTE format('CREATE FOREIGN TABLE copy_ft (%s) SERVER parquet_srv OPTIONS (filename %L)', cols, path);
    EXECUTE format(
        'SELECT count(*), count(*) FILTER (WHERE ROW(%s)::text IS DISTINCT FROM ROW(%s)::text),
                min(coalesce(s.id, f.id)) FILTER (WHERE ROW(%s)::text IS DISTINCT FROM ROW(%s)::text)
           FROM %s s FULL JOIN copy_ft f USING (id)', exprs_s, exprs_f, exprs_s, exprs_f, src)
        INTO nrows, nbad, firstbad;
    DROP FOREIGN TABLE copy_ft;
    RETURN format('%s rows, %s mismatches%s', nrows, nbad,
                  CASE WHEN nbad > 0 THEN ', first at id ' || firstbad ELSE '' END);
END
$$;

-- Leftover temporary files (".<name>.<pid>.tmp") in the output directory.
CREATE FUNCTION copy_tmp_files() RETURNS bigint
LANGUAGE sql AS $$
    SELECT count(*) FROM pg_ls_dir('/tmp/parquet_fdw_test/out') AS f WHERE f LIKE '.%.tmp'
$$;

-- ------------------------------------------------------------ round trip
COPY copy_src TO '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
SELECT copy_check(:'out' || '/copy_all.parquet');
-- the same rows as CSV, and the column types, for check_copy.mjs (in the
-- text forms its canonicaliser expects)
SET timezone = 'UTC';
SET intervalstyle = 'iso_8601';
COPY copy_src TO '/tmp/parquet_fdw_test/out/copy_all.csv' WITH (FORMAT csv);
RESET timezone;
SET intervalstyle = 'postgres';
COPY (SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
      WHERE attrelid = 'copy_src'::regclass AND attnum > 0 ORDER BY attnum)
  TO '/tmp/parquet_fdw_test/out/copy_all.types.csv' WITH (FORMAT csv);
SELECT name, repetition, physical_type, type_length, logical_type, converted_type
  FROM parquet_fdw.schema(:'out' || '/copy_all.parquet') WHERE depth > 0 ORDER BY ordinal;
SELECT num_rows, num_row_groups, num_columns, created_by
  FROM parquet_fdw.file_info(:'out' || '/copy_all.parquet');

-- ------------------------------------------------------------ options
CREATE FUNCTION copy_with(name text, opts text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('COPY copy_src TO %L WITH (FORMAT parquet%s)',
                   '/tmp/parquet_fdw_test/out/' || name || '.parquet', opts);
    RETURN copy_check('/tmp/parquet_fdw_test/out/' || name || '.parquet');
END
$$;
SELECT name, copy_with(name, opts) FROM (VALUES
    ('copy_uncompressed', ', compression uncompressed'),
    ('copy_snappy', ', compression snappy'),
    ('copy_gzip', ', compression gzip, compression_level 9'),
    ('copy_brotli', ', compression ''brotli'', compression_level 1'),
    ('copy_zstd', ', compression zstd, compression_level 19'),
    ('copy_lz4_raw', ', compression lz4_raw'),
    ('copy_rg', ', row_group_size 1000'),
    ('copy_rg_bytes', ', row_group_size_bytes 100000'),
    ('copy_pages', ', data_page_size 4096'),
    ('copy_page_rows', ', data_page_rows 700'),
    ('copy_v2', ', page_version 2'),
    ('copy_v2_plain', ', page_version 2, dictionary off'),
    ('copy_plain', ', dictionary false'),
    ('copy_nostats', ', statistics off, page_index off'),
    ('copy_noindex', ', page_index off'),
    ('copy_bloom', ', bloom_filter ''c_text,c_int8,c_uuid'', bloom_filter_fpp 0.001'),
    ('copy_bloom_list', ', bloom_filter (c_int4, c_date)'),
    ('copy_kv', ', key_value_metadata ''origin=regress,k2=v2'''),
    ('copy_kv_list', ', key_value_metadata (''a=1,2'', ''b='')')
) AS v(name, opts) ORDER BY name;
SELECT file_name, array_agg(DISTINCT codec) AS codecs
  FROM parquet_fdw.metadata(:'out' || '/copy_zstd.parquet') GROUP BY 1;
SELECT num_row_groups, key_value_metadata FROM parquet_fdw.file_info(:'out' || '/copy_rg.parquet');
-- row_group_size_bytes is checked after each batch (up to 4096 rows)
COPY (SELECT i, md5(i::text) AS h FROM generate_series(1, 40000) i)
  TO '/tmp/parquet_fdw_test/out/copy_rg_bytes2.parquet' WITH (FORMAT parquet, row_group_size_bytes 100000);
SELECT num_row_groups > 1 AS several, num_rows FROM parquet_fdw.file_info(:'out' || '/copy_rg_bytes2.parquet');
-- data_page_rows: pages of at most that many rows, 20000 by default (as
-- parquet-mr and arrow-rs write); the reader counts the offset index's pages
COPY (SELECT i FROM generate_series(1, 50000) i)
  TO '/tmp/parquet_fdw_test/out/copy_page_rows_default.parquet' WITH (FORMAT parquet);
COPY (SELECT i FROM generate_series(1, 50000) i)
  TO '/tmp/parquet_fdw_test/out/copy_page_rows_7000.parquet' WITH (FORMAT parquet, data_page_rows 7000);
CREATE FOREIGN TABLE copy_pr (i int) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/copy_page_rows_default.parquet');
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT * FROM copy_pr WHERE i = 45000$q$);
ALTER FOREIGN TABLE copy_pr OPTIONS (SET filename '/tmp/parquet_fdw_test/out/copy_page_rows_7000.parquet');
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT * FROM copy_pr WHERE i = 45000$q$);
SELECT count(*), sum(i) FROM copy_pr;
DROP FOREIGN TABLE copy_pr;
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, data_page_rows 0);
SELECT key_value_metadata FROM parquet_fdw.file_info(:'out' || '/copy_kv.parquet');
SELECT key_value_metadata FROM parquet_fdw.file_info(:'out' || '/copy_kv_list.parquet');
SELECT path_in_schema FROM parquet_fdw.metadata(:'out' || '/copy_bloom.parquet')
  WHERE has_bloom_filter ORDER BY 1;
SELECT count(*) FILTER (WHERE stats_min IS NOT NULL) AS with_stats,
       count(*) FILTER (WHERE has_column_index) AS with_index
  FROM parquet_fdw.metadata(:'out' || '/copy_nostats.parquet');
SELECT count(*) FILTER (WHERE has_column_index AND has_offset_index) AS with_index
  FROM parquet_fdw.metadata(:'out' || '/copy_all.parquet');
SELECT bool_or(encodings LIKE '%DICTIONARY%') AS dict
  FROM parquet_fdw.metadata(:'out' || '/copy_plain.parquet');
SELECT bool_or(encodings LIKE '%DELTA%') AS delta
  FROM parquet_fdw.metadata(:'out' || '/copy_v2_plain.parquet');
-- numeric without typmod: DECIMAL(38, numeric_scale)
COPY (SELECT 1.5::numeric AS n) TO '/tmp/parquet_fdw_test/out/copy_scale.parquet' WITH (FORMAT parquet, numeric_scale 1);
SELECT logical_type FROM parquet_fdw.schema(:'out' || '/copy_scale.parquet') WHERE name = 'n';
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, numeric_scale 12);

-- column lists, queries, empty results, replacing a file
COPY copy_src (c_text, id, c_int4_nn) TO '/tmp/parquet_fdw_test/out/copy_cols.parquet' WITH (FORMAT parquet);
SELECT name, repetition FROM parquet_fdw.schema(:'out' || '/copy_cols.parquet') WHERE depth > 0 ORDER BY ordinal;
COPY (SELECT id, c_text || '!' AS t, c_int8 * 2 AS d FROM copy_src WHERE id % 10 = 0 ORDER BY id)
  TO '/tmp/parquet_fdw_test/out/copy_query.parquet' WITH (FORMAT parquet);
CREATE FOREIGN TABLE copy_q (id int8, t text, d int8) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/copy_query.parquet');
SELECT count(*), count(*) FILTER (WHERE (q.t, q.d) IS DISTINCT FROM (s.c_text || '!', s.c_int8 * 2))
  FROM copy_q q JOIN copy_src s USING (id);
COPY (SELECT id FROM copy_src WHERE false) TO '/tmp/parquet_fdw_test/out/copy_query.parquet' WITH (FORMAT parquet);
SELECT count(*) FROM copy_q;
DROP FOREIGN TABLE copy_q;
COPY (SELECT 1 AS a, 'x'::text AS b) TO '/tmp/parquet_fdw_test/out/copy_one.parquet' (FORMAT 'Parquet');
CREATE TABLE copy_gen (a int, b int GENERATED ALWAYS AS (a * 2) STORED);
INSERT INTO copy_gen VALUES (1), (2);
COPY copy_gen TO '/tmp/parquet_fdw_test/out/copy_gen.parquet' WITH (FORMAT parquet);
SELECT name FROM parquet_fdw.schema(:'out' || '/copy_gen.parquet') WHERE depth > 0;
COPY copy_gen (b) TO '/tmp/parquet_fdw_test/out/copy_gen.parquet' WITH (FORMAT parquet);
COPY copy_gen (a, a) TO '/tmp/parquet_fdw_test/out/copy_gen.parquet' WITH (FORMAT parquet);
COPY copy_gen (nope) TO '/tmp/parquet_fdw_test/out/copy_gen.parquet' WITH (FORMAT parquet);
-- DML with RETURNING, as COPY (query) allows
COPY (INSERT INTO copy_gen (a) VALUES (3) RETURNING a, b) TO '/tmp/parquet_fdw_test/out/copy_gen.parquet' WITH (FORMAT parquet);
SELECT num_rows FROM parquet_fdw.file_info(:'out' || '/copy_gen.parquet');
COPY (UPDATE copy_gen SET a = a) TO '/tmp/parquet_fdw_test/out/copy_gen.parquet' WITH (FORMAT parquet);

-- partitioned tables: every partition; inheritance parents: ONLY
CREATE TABLE copy_parted (k int, v text) PARTITION BY RANGE (k);
CREATE TABLE copy_parted_1 PARTITION OF copy_parted FOR VALUES FROM (0) TO (10);
CREATE TABLE copy_parted_2 PARTITION OF copy_parted FOR VALUES FROM (10) TO (20);
INSERT INTO copy_parted SELECT i, 'v' || i FROM generate_series(0, 19) i;
COPY copy_parted TO '/tmp/parquet_fdw_test/out/copy_parted.parquet' WITH (FORMAT parquet);
SELECT num_rows FROM parquet_fdw.file_info(:'out' || '/copy_parted.parquet');
CREATE TABLE copy_inh_child () INHERITS (copy_gen);
INSERT INTO copy_inh_child VALUES (100);
COPY copy_gen TO '/tmp/parquet_fdw_test/out/copy_inh.parquet' WITH (FORMAT parquet);
SELECT num_rows FROM parquet_fdw.file_info(:'out' || '/copy_inh.parquet');

-- psql's \copy sends COPY ... TO STDOUT; the client writes the stream
\copy (SELECT id, c_text, c_numeric FROM copy_src ORDER BY id) TO '/tmp/parquet_fdw_test/out/copy_stdout.parquet' WITH (FORMAT parquet)
SELECT (pg_stat_file(:'out' || '/copy_stdout.parquet')).size > 1000 AS big,
       substring(pg_read_binary_file(:'out' || '/copy_stdout.parquet') FROM 1 FOR 4) AS head,
       substring(pg_read_binary_file(:'out' || '/copy_stdout.parquet')
                 FROM (pg_stat_file(:'out' || '/copy_stdout.parquet')).size::int - 3) AS tail;
CREATE FOREIGN TABLE copy_so (id int8, c_text text, c_numeric numeric) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/copy_stdout.parquet');
SELECT count(*), count(*) FILTER (WHERE (o.c_text, o.c_numeric) IS DISTINCT FROM (s.c_text, s.c_numeric))
  FROM copy_so o JOIN copy_src s USING (id);
DROP FOREIGN TABLE copy_so;

-- ------------------------------------------------------------ errors
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, header true);
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, compression 'lzo');
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, compression_level 3);
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, compression zstd, compression_level 23);
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, row_group_size 0);
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, row_group_size 'many');
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, page_version 3);
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, dictionary 'maybe');
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, bloom_filter 'nope');
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, bloom_filter_fpp 1.5);
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, key_value_metadata 'novalue');
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, numeric_scale 39);
COPY copy_src TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet, compression gzip, compression gzip);
COPY copy_src TO PROGRAM 'cat' WITH (FORMAT parquet);
COPY copy_src TO 'relative.parquet' WITH (FORMAT parquet);
COPY copy_src TO '/tmp/parquet_fdw_test/out' WITH (FORMAT parquet);
COPY copy_src TO '/tmp/parquet_fdw_test/no_such_dir/e.parquet' WITH (FORMAT parquet);
COPY copy_src TO '/copy_to_denied.parquet' WITH (FORMAT parquet);
COPY (SELECT) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
-- values Parquet cannot hold exactly: errors naming column and row, no file
SELECT pg_stat_file(:'out' || '/e.parquet', true) IS NULL AS no_file;
COPY (SELECT i, CASE WHEN i = 2500 THEN 1e30 ELSE i END AS n FROM generate_series(1, 3000) i)
  TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
COPY (SELECT 1.0000000001::numeric AS n) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
COPY (SELECT 1.5::numeric(10,1) AS n UNION ALL SELECT 'NaN') TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
COPY (SELECT 'Infinity'::numeric AS n) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
COPY (SELECT INTERVAL '1 second 1 microsecond' AS iv) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
COPY (SELECT INTERVAL '-1 day' AS iv) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
COPY (SELECT 'infinity'::date AS d) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
COPY (SELECT '-infinity'::timestamptz AS t) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
SELECT pg_stat_file(:'out' || '/e.parquet', true) IS NULL AS no_file, copy_tmp_files() AS tmp_files;
-- each way out the HINT of the first error names writes the value exactly
COPY (SELECT i, CASE WHEN i = 2500 THEN 1e30 ELSE i END AS n FROM generate_series(1, 3000) i)
  TO '/tmp/parquet_fdw_test/out/hint_scale.parquet' WITH (FORMAT parquet, numeric_scale 0);
COPY (SELECT i, CASE WHEN i = 2500 THEN 1e30 ELSE i END AS n FROM generate_series(1, 3000) i)
  TO '/tmp/parquet_fdw_test/out/hint_string.parquet' WITH (FORMAT parquet, numeric_as 'string');
COPY (SELECT i, (CASE WHEN i = 2500 THEN 1e30 ELSE i END)::numeric(38,1) AS n FROM generate_series(1, 3000) i)
  TO '/tmp/parquet_fdw_test/out/hint_typmod.parquet' WITH (FORMAT parquet);
CREATE FOREIGN TABLE hint_scale (i int4, n numeric) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/hint_scale.parquet');
CREATE FOREIGN TABLE hint_string (i int4, n text) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/hint_string.parquet');
CREATE FOREIGN TABLE hint_typmod (i int4, n numeric) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/hint_typmod.parquet');
SELECT (SELECT count(*) FILTER (WHERE n <> CASE WHEN i = 2500 THEN 1e30 ELSE i END) FROM hint_scale) AS scale_diff,
       (SELECT count(*) FILTER (WHERE n::numeric <> CASE WHEN i = 2500 THEN 1e30 ELSE i END) FROM hint_string) AS string_diff,
       (SELECT count(*) FILTER (WHERE n <> CASE WHEN i = 2500 THEN 1e30 ELSE i END) FROM hint_typmod) AS typmod_diff,
       (SELECT n FROM hint_typmod WHERE i = 2500) AS big;
-- an existing file survives a failed COPY untouched
COPY (SELECT 1 AS keep) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
COPY (SELECT 1e40 AS keep) TO '/tmp/parquet_fdw_test/out/e.parquet' WITH (FORMAT parquet);
SELECT name FROM parquet_fdw.schema(:'out' || '/e.parquet') WHERE depth > 0;
-- cancel during the scan: no file, no temporary file
SET statement_timeout = '300ms';
COPY (SELECT i, CASE WHEN i % 1000 = 0 THEN pg_sleep(0.01) END AS s FROM generate_series(1, 200000) i)
  TO '/tmp/parquet_fdw_test/out/e_cancel.parquet' WITH (FORMAT parquet, row_group_size 1000);
RESET statement_timeout;
SELECT pg_stat_file(:'out' || '/e_cancel.parquet', true) IS NULL AS no_file, copy_tmp_files() AS tmp_files;
-- every other COPY passes through untouched
COPY (SELECT 1 AS a) TO STDOUT;
COPY (SELECT 1 AS a) TO STDOUT WITH (FORMAT csv, HEADER);

-- ------------------------------------------------------------ permissions
CREATE ROLE regress_copy_user;
CREATE TABLE copy_rls (id int, owner text);
INSERT INTO copy_rls VALUES (1, 'regress_copy_user'), (2, 'someone_else');
SET ROLE regress_copy_user;
COPY copy_rls TO '/tmp/parquet_fdw_test/out/copy_rls.parquet' WITH (FORMAT parquet);
RESET ROLE;
GRANT pg_write_server_files TO regress_copy_user;
SET ROLE regress_copy_user;
COPY copy_rls TO '/tmp/parquet_fdw_test/out/copy_rls.parquet' WITH (FORMAT parquet);
RESET ROLE;
GRANT SELECT (id) ON copy_rls TO regress_copy_user;
SET ROLE regress_copy_user;
COPY copy_rls TO '/tmp/parquet_fdw_test/out/copy_rls.parquet' WITH (FORMAT parquet);
COPY copy_rls (id) TO '/tmp/parquet_fdw_test/out/copy_rls.parquet' WITH (FORMAT parquet);
RESET ROLE;
GRANT SELECT ON copy_rls TO regress_copy_user;
ALTER TABLE copy_rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY copy_rls_own ON copy_rls USING (owner = current_user);
SET ROLE regress_copy_user;
COPY copy_rls TO '/tmp/parquet_fdw_test/out/copy_rls.parquet' WITH (FORMAT parquet);
RESET ROLE;
SELECT num_rows FROM parquet_fdw.file_info(:'out' || '/copy_rls.parquet');
DROP TABLE copy_rls;
REVOKE pg_write_server_files FROM regress_copy_user;
DROP ROLE regress_copy_user;
DROP TABLE copy_parted, copy_gen CASCADE;
