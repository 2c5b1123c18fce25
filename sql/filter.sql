-- Quals evaluated inside the scan on decoded batches give the same rows as
-- the same quals on the expected rows (computed independently).
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SET TimeZone = 'UTC';
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_gzip_dict.parquet', 'ft_filter') \gexec

CREATE FUNCTION compare_filter(cond text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    got bigint;
    want bigint;
    gotsum numeric;
    wantsum numeric;
BEGIN
    EXECUTE 'SELECT count(*), sum(id) FROM ft_filter WHERE ' || cond INTO got, gotsum;
    EXECUTE 'SELECT count(*), sum(id) FROM expected_types WHERE ' || cond INTO want, wantsum;
    RETURN CASE WHEN got = want AND gotsum IS NOT DISTINCT FROM wantsum
                THEN format('%s rows, same', got)
                ELSE format('DIFFERENT: %s rows, expected %s', got, want) END;
END
$$;

SELECT cond, compare_filter(cond) FROM unnest(ARRAY[
    'c_int4 > 0',
    '0 < c_int4',
    'c_int4 < 100000::bigint',
    'c_int4 = 2147483647',
    'c_int2 <> 11521',
    'c_int8 >= 0 AND c_int8 < 4000000000000',
    'c_uint8 > 9223372036854775807::numeric',
    'c_float < 0',
    'c_float > ''NaN''::real',
    'c_float = ''NaN''::real',
    'c_double >= 1e300',
    'c_dec9_3 < -100.5',
    'c_dec38_10 > 0',
    'c_varchar = ''str_77''',
    'c_varchar < ''str_5''',
    'c_varchar_long LIKE ''%4''',
    'c_enum = ''green''',
    'c_date < DATE ''1950-01-01''',
    'c_timestamp > TIMESTAMP ''2000-01-01''',
    'c_timestamptz <= TIMESTAMPTZ ''1990-06-01 12:00:00+02''',
    'c_timestamp_ns < TIMESTAMP ''1970-01-01''',
    'c_uuid = ''cfcd2084-95d5-65ef-66e7-dff9f98764da''',
    'c_bool',
    'NOT c_bool_nn',
    'c_json @> ''{"i": 42}''',
    'c_blob = ''\x''::bytea',
    'c_int4 > 0 OR c_int4 IS NULL',
    'c_interval > INTERVAL ''6 months''']) AS cond;

-- Pushed quals are shown, and the rows they remove are counted.
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT id FROM ft_filter WHERE c_int4 > 0 AND c_varchar LIKE 'str_1%'$q$);
