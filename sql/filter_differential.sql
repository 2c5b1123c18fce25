-- Quals the scan evaluates on raw Parquet values, dictionaries and Datums
-- (filter.c, filter_eval.c) return exactly the rows, and the column values,
-- that the same quals return on a heap table holding the same rows: over
-- DuckDB's dictionary, plain and delta encodings, and over a file COPY TO
-- writes with small pages and a page index (the late-materialization path
-- that narrows row ranges first).
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SET TimeZone = 'UTC';
CREATE TABLE fd_heap AS SELECT * FROM expected_types;
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_snappy_dict.parquet', 'fd_dict') \gexec
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_zstd_plain.parquet', 'fd_plain') \gexec
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_zstd_delta.parquet', 'fd_delta') \gexec
COPY (SELECT * FROM fd_heap ORDER BY id)
    TO '/tmp/parquet_fdw_test/out/fd_ours.parquet'
    WITH (FORMAT parquet, row_group_size 1500, data_page_size 2000,
          numeric_as 'string');
-- not byte order, and not byte equality
CREATE COLLATION fd_nocase (provider = icu, locale = 'und-u-ks-level2',
                            deterministic = false);
SELECT format('CREATE FOREIGN TABLE fd_ours (%s) SERVER parquet_srv OPTIONS (filename %L)',
              string_agg(format('%I %s', attname, format_type(atttypid, atttypmod)), ', ' ORDER BY attnum),
              '/tmp/parquet_fdw_test/out/fd_ours.parquet')
FROM pg_attribute WHERE attrelid = 'fd_heap'::regclass AND attnum > 0 \gexec

-- Per table: every column of the matching rows (a whole-row value), and
-- the ids alone (the filtered columns are then only tested, not formed).
CREATE FUNCTION fd_compare(cond text, heap text DEFAULT 'fd_heap',
                           tables text[] DEFAULT ARRAY['fd_dict', 'fd_plain', 'fd_delta', 'fd_ours'])
    RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    want_rows text;
    want_ids text;
    got_rows text;
    got_ids text;
    n bigint;
    t text;
    bad text := '';
BEGIN
    EXECUTE format('SELECT count(*), md5(string_agg(x::text, %L ORDER BY id)), md5(string_agg(id::text, %L ORDER BY id)) FROM (SELECT * FROM %I WHERE %s) x', '|', ',', heap, cond)
        INTO n, want_rows, want_ids;
    FOREACH t IN ARRAY tables LOOP
        EXECUTE format('SELECT md5(string_agg(x::text, %L ORDER BY id)) FROM (SELECT * FROM %I WHERE %s) x', '|', t, cond)
            INTO got_rows;
        EXECUTE format('SELECT md5(string_agg(id::text, %L ORDER BY id)) FROM %I WHERE %s', ',', t, cond)
            INTO got_ids;
        IF got_rows IS DISTINCT FROM want_rows THEN
            bad := bad || ' ' || t || ' rows differ;';
        END IF;
        IF got_ids IS DISTINCT FROM want_ids THEN
            bad := bad || ' ' || t || ' ids differ;';
        END IF;
    END LOOP;
    RETURN CASE WHEN bad = '' THEN format('%s rows, same', n)
                ELSE format('DIFFERENT (%s rows on the heap):%s', n, bad) END;
END
$$;

SELECT cond, fd_compare(cond) FROM unnest(ARRAY[
    -- integers, both sides, every comparison, other integer widths
    'c_int4 < 0', 'c_int4 <= -1000000', 'c_int4 = 2147483647',
    'c_int4 <> 0', 'c_int4 > 999000', 'c_int4 >= -2147483648',
    '0 > c_int4', '-5 <= c_int4', 'c_int4 < 100000::bigint',
    'c_int4 > 3::int2', 'c_int4 > 3000000000',
    'c_int8 = 9223372036854775807', 'c_int8 = -9223372036854775808',
    'c_int8 < 0', 'c_int8 > 4::int4', 'c_int8 <> 2500000000000',
    'c_int2 < -30000', 'c_int1 = -128', 'c_uint4 > 4294967290',
    'c_uint2 = 65535', 'c_int4_nn BETWEEN 0 AND 100',
    -- IN, NOT IN, NULL elements, empty arrays
    'c_int4 IN (-2147483648, 2147483647, 0, 7919)',
    'c_int4 NOT IN (-2147483648, 2147483647)',
    'c_int4 IN (2147483647, NULL)', 'c_int4 NOT IN (1, NULL)',
    'c_int4 = ANY (''{}''::int[])', 'c_int4 <> ALL (''{}''::int[])',
    'c_int8 = ANY (ARRAY[9223372036854775807, -9223372036854775808])',
    'c_int4 < ANY (ARRAY[-999000, 5])', 'c_int4 > ALL (ARRAY[-999000, 5])',
    -- floats: NaN sorts above everything and equals itself; -0 = 0
    'c_double < 0', 'c_double > ''NaN''', 'c_double = ''NaN''',
    'c_double >= ''NaN''', 'c_double <> ''NaN''', 'c_double <= ''NaN''',
    'c_double > ''Infinity''', 'c_double < ''-Infinity''',
    'c_double = 0', 'c_double > 1e300', 'c_double < 5e-324',
    'c_float = ''-0''', 'c_float > 1.5::float4', 'c_float < 1.5',
    'c_float > ''NaN''::real', 'c_float = ''NaN''::real',
    'c_double IN (0.5, ''NaN'', ''-Infinity'')',
    'c_double NOT IN (0.5, ''NaN'')', 'c_double_nn > 1000',
    -- dates and timestamps, finite and infinite constants
    'c_date < DATE ''1950-01-01''', 'c_date >= DATE ''9999-12-31''',
    'c_date = DATE ''0001-01-01''', 'c_date > ''-infinity''',
    'c_date < ''infinity''', 'c_date <> DATE ''1970-01-01''',
    'c_date IN (DATE ''0001-01-01'', DATE ''9999-12-31'')',
    'c_timestamp > TIMESTAMP ''2000-01-01''',
    'c_timestamp <= TIMESTAMP ''1900-01-01''',
    'c_timestamp < ''infinity''', 'c_timestamp > ''-infinity''',
    'c_timestamptz <= TIMESTAMPTZ ''1990-06-01 12:00:00+02''',
    'c_timestamptz = ANY (ARRAY[TIMESTAMPTZ ''1900-01-01 00:00:00+00''])',
    'c_timestamp_ms > TIMESTAMP ''2000-01-01''',
    'c_timestamp_ns < TIMESTAMP ''1970-01-01''',
    'c_date > TIMESTAMP ''2000-01-01''',
    'c_time > TIME ''12:00''',
    -- strings: bytes where PostgreSQL compares bytes, else the collation
    'c_varchar = ''str_77''', 'c_varchar <> ''str_77''',
    'c_varchar < ''str_5''', 'c_varchar COLLATE "C" < ''str_5''',
    'c_varchar COLLATE "C" >= ''str_4999''', 'c_varchar > ''STR''',
    'c_varchar COLLATE "en-x-icu" < ''str_5''',
    'c_varchar COLLATE "en-x-icu" > ''STR_5''',
    'c_varchar COLLATE fd_nocase = ''STR_77''',
    'c_varchar COLLATE fd_nocase IN (''STR_1'', ''Str_2'')',
    'c_varchar IN (''str_1'', ''str_22'', ''nope'')',
    'c_varchar IN (''str_1'', NULL)', 'c_varchar NOT IN (''str_1'', ''str_2'')',
    'c_varchar LIKE ''str_1%''', 'c_varchar LIKE ''%7''',
    'c_varchar LIKE ''%_7''', 'c_varchar LIKE ''str\_1%''',
    'c_varchar LIKE ''%''', 'c_varchar LIKE ''''', 'c_varchar LIKE ''str_12''',
    'c_varchar LIKE ''s%1%2''', 'c_varchar LIKE ''%1%1%''',
    'c_varchar NOT LIKE ''%1%''', 'c_varchar ILIKE ''STR_1%''',
    'c_varchar ILIKE ''%TR%1%''', 'c_varchar NOT ILIKE ''S%7''',
    'c_varchar COLLATE "C" ILIKE ''sTr\_1%''',
    'c_varchar COLLATE "en-x-icu" ILIKE ''%R\_1%''',
    'c_varchar_long ILIKE ''%Ü€😀1%''', 'c_varchar_long ILIKE ''%ü€😀1%''',
    'c_varchar_long ILIKE ''ABCDEFGHIJ%''', 'c_enum ILIKE ''GR%''',
    'c_varchar LIKE ''str%%9''', 'c_varchar_nn LIKE ''nn\_9%''',
    'c_varchar LIKE ''str''', 'c_varchar_nn LIKE ''nn\_12''',
    'c_varchar_nn LIKE ''%\%''', 'c_varchar_nn LIKE ''nn\_1%2''',
    'c_varchar_long LIKE ''%€😀1%''',
    'c_varchar_long LIKE ''abcdefghij%ü€😀4_''',
    'c_varchar_long LIKE ''%ü€😀4''',
    'c_enum = ''green''', 'c_enum IN (''red'', ''blue'')',
    'c_enum < ''green''', 'c_enum LIKE ''%e%''',
    -- decimals held as integers: the constant scaled to the column's
    -- scale; between two unscaled values, < and >= take the next one up,
    -- <= and > the one below; = and <> of such a constant, NaN, infinities
    -- and constants past int64 go through the operator
    'c_dec9_3 < -100.5', 'c_dec18_4 > 0', 'c_dec4_2 = 0.01',
    'c_dec9_3 < -462600.1855', 'c_dec9_3 <= -462600.1865',
    'c_dec9_3 > -462600.1865', 'c_dec9_3 >= -462600.1855',
    'c_dec9_3 <= -462600.186', 'c_dec9_3 < -462600.186',
    'c_dec9_3 = -462600.1860', 'c_dec9_3 = 1.0005', 'c_dec9_3 <> 1.0005',
    'c_dec9_3 < 40797.297000001', '40797.2969 < c_dec9_3',
    'c_dec4_2 >= 8.165', 'c_dec4_2 > 8.175', 'c_dec4_2 <= 8.1700001',
    'c_dec4_2 < 8.1699999', 'c_dec4_2 IN (8.17, -92.51, 8.175)',
    'c_dec18_4 < 4079999999999.72975', 'c_dec18_4 >= 4079999999999.72965',
    'c_dec18_4 = 4079999999999.7297',
    'c_dec18_4 BETWEEN -5.5 AND 1e10', 'c_dec18_4 > 1e30',
    'c_dec18_4 < -1e30', 'c_dec18_4 <= 99999999999999.99995',
    'c_dec18_4 IN (0, 1.5, -2.25, 1.00001)', 'c_dec18_4 NOT IN (0, 1.5)',
    'c_dec18_4 < ANY (ARRAY[-1.5, 2.25])', 'c_dec18_4 >= ALL (ARRAY[-1.5, 2.25])',
    'c_dec4_2 > ''NaN''', 'c_dec4_2 < ''NaN''', 'c_dec4_2 = ''NaN''',
    'c_dec4_2 < ''Infinity''', 'c_dec4_2 > ''-Infinity''',
    'c_dec4_2 = ANY (ARRAY[0.01, 0.5, NULL])', 'c_dec4_2 >= 0.015',
    '0.5 < c_dec4_2', 'c_dec4_2 > 0.5::numeric(3,1)',
    'c_dec38_10 > 0', 'c_uint8 > 9223372036854775807::numeric',
    'c_uuid = ''cfcd2084-95d5-65ef-66e7-dff9f98764da''',
    'c_blob = ''\x''::bytea', 'c_json @> ''{"i": 42}''',
    'c_interval > INTERVAL ''6 months''', 'c_bool = true',
    'c_bool_nn <> false',
    -- NULL tests
    'c_int4 IS NULL', 'c_varchar IS NOT NULL', 'c_json IS NULL',
    'c_interval IS NOT NULL', 'c_bool IS NULL', 'c_double_nn IS NULL',
    -- AND, OR, NOT and three-valued logic
    'c_int4 > 0 OR c_int4 IS NULL', 'NOT (c_int4 > 0)',
    'NOT (c_varchar LIKE ''str_1%'')',
    '(c_int4 > 0 AND c_double < 0) OR c_varchar = ''str_5''',
    'NOT (c_int4 IN (1, 2) OR c_date IS NULL)',
    'c_int8 > 0 AND NOT (c_float = ''NaN'')',
    'NOT (c_int4 NOT IN (1, NULL))',
    'c_int4 > 0 AND c_varchar LIKE ''%3%'' AND c_date > DATE ''2000-01-01''',
    '(c_int4 < 0 OR c_double > 100) AND (c_varchar IS NULL OR c_enum = ''red'')',
    'NOT (c_double = ''NaN'' OR c_double IS NULL)',
    'id % 10 = 0 AND c_int4 > 0'
    ]) AS cond;

-- Decimals of hyparquet-writer: FIXED_LEN_BYTE_ARRAY(6) (compared as
-- sign-extended integers), (9) (through the operator) and INT32 with the
-- converted type only.  The heap holds the rows as read (their values are
-- checked against arrow-rs by the interop stage).
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/hyp_bss_decimal.parquet', 'fd_hypdec') \gexec
CREATE TABLE fd_hypdec_heap AS SELECT * FROM fd_hypdec;
SELECT cond, fd_compare(cond, 'fd_hypdec_heap', ARRAY['fd_hypdec']) FROM unnest(ARRAY[
    'dec_flba6 < 0', 'dec_flba6 >= -12345.67', 'dec_flba6 > -12345.675',
    'dec_flba6 <= -12345.665', 'dec_flba6 < -12345.67', 'dec_flba6 = 12345.69',
    'dec_flba6 = -99999999999.99', 'dec_flba6 = 99999999999.99',
    'dec_flba6 IN (-1234567.00, 12.35, 2.5)', 'dec_flba6 < -99999999999.985',
    'dec_flba6 <> 0.02', 'dec_flba6 > 1e20', 'dec_flba6 IS NULL',
    'dec_flba < -5000', 'dec_flba >= 0.00005', 'dec_i32 < -1.5',
    'dec_i32 BETWEEN -100.005 AND 100.005', 'dec_i32 = ANY (ARRAY[-299.63, 4.07])'
    ]) AS cond;

-- Rows removed in the scan are counted; a filter that keeps nothing reads
-- no other column's values.
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT id, c_varchar_long FROM fd_plain
    WHERE c_int4 > 0 AND c_varchar LIKE 'str_1%'$q$);
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT count(*) FROM fd_dict WHERE c_varchar LIKE '%nothing%'$q$);

-- A value that does not convert is an error even where the filter would
-- reject its row (the raw comparison does not hide it).
CREATE FOREIGN TABLE fd_range (id bigint, d date, ts timestamp)
    SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/range_datetime.parquet');
SELECT expect_error('SELECT id FROM fd_range WHERE d < DATE ''2000-01-01''');
SELECT expect_error('SELECT id FROM fd_range WHERE ts > TIMESTAMP ''2000-01-01''');
SELECT count(*) FROM fd_range WHERE id > 5;
