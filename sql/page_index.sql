-- Page index pruning: the same rows with page index pruning on and off and
-- as the expected rows (computed independently), and the pages it skips.
-- The arrow-rs fixtures hold the types table (minus c_interval) in row
-- groups of 2000 rows with many small pages, each with a ColumnIndex and an
-- OffsetIndex; the hyparquet-writer fixture 3000 rows in row groups of 1000
-- with ~512-byte pages.  Whole rows are compared (as text), so every column
-- must stay aligned when pages of it are skipped.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SET TimeZone = 'UTC';
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/pw_v1_snappy.parquet', 'ft_pages_v1') \gexec
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/pw_v2_zstd.parquet', 'ft_pages_v2') \gexec
-- (a column named json: later PostgreSQL versions quote the name, 15 does not)
SELECT replace(parquet_fdw.create_table_sql(:'fixtures' || '/hyp_encodings_snappy.parquet', 'ft_pages_hyp'),
               E'\n  json jsonb', E'\n  "json" jsonb') \gexec

-- expected_types as arrow-rs annotates it: UUID as plain FLBA(16)
CREATE VIEW expected_pages_pw AS
SELECT id, c_bool, c_int1, c_int2, c_int4, c_int8, c_uint1, c_uint2, c_uint4,
       c_uint8, c_float, c_double, c_dec4_2, c_dec9_3, c_dec18_4, c_dec38_10,
       c_varchar, c_varchar_long, c_blob, c_date, c_time, c_timestamp,
       c_timestamptz, c_timestamp_ms, c_timestamp_s, c_timestamp_ns,
       decode(replace(c_uuid::text, '-', ''), 'hex') AS c_uuid, c_enum,
       c_int4_nn, c_double_nn, c_varchar_nn, c_bool_nn
  FROM expected_types;
-- the hyparquet-writer fixture's sorted columns
CREATE VIEW expected_pages_hyp AS
SELECT i AS id, (i * 3 - 4000)::int4 AS req_i32
  FROM generate_series(0::bigint, 2999) AS g(i);

-- Rows (count, sum of ids, hash of the whole rows) with page index pruning
-- on and off must agree, and agree with the expected view (count and sum);
-- reports the page counters of EXPLAIN ANALYZE with pruning on.
CREATE FUNCTION compare_pages(tbl text, expected text, cond text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    q text := format('SELECT count(*) || '':'' || coalesce(sum(id), 0) || '':'' || '
                     'md5(coalesce(string_agg(t::text, ''|'' ORDER BY id), '''')) '
                     'FROM %s t WHERE %s', tbl, cond);
    got_on text;
    got_off text;
    want text;
    plan jsonb;
BEGIN
    SET LOCAL parquet_fdw.enable_page_index_pruning = on;
    EXECUTE q INTO got_on;
    EXECUTE format('EXPLAIN (ANALYZE, BUFFERS OFF, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) '
                   'SELECT * FROM %s t WHERE %s', tbl, cond) INTO plan;
    SET LOCAL parquet_fdw.enable_page_index_pruning = off;
    EXECUTE q INTO got_off;
    EXECUTE format('SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM %s t WHERE %s',
                   expected, cond) INTO want;
    RETURN CASE WHEN got_on = got_off AND split_part(got_on, ':', 1) || ':' ||
                     split_part(got_on, ':', 2) = want
                THEN split_part(want, ':', 1) || ' rows, same'
                ELSE format('DIFFERENT: on %s, off %s, expected %s', got_on, got_off, want) END
        || ', pages pruned '
        || coalesce(jsonb_path_query_first(plan, 'strict $.**."Pages Pruned by Page Index"')::text, '-')
        || ' of '
        || coalesce(jsonb_path_query_first(plan, 'strict $.**."Pages Total"')::text, '-');
END
$$;

SELECT cond, compare_pages('ft_pages_v1', 'expected_pages_pw', cond) FROM unnest(ARRAY[
    'id = 2500',
    'id = 0',
    'id = 4999',
    'id = 5000',
    'id < 100',
    'id <= 2047',
    'id > 4900',
    '100 > id',
    'id BETWEEN 2100 AND 2200',
    'id <> 7',
    'id IN (5, 2500, 4999)',
    'id = ANY (ARRAY[1, 2, NULL])',
    'id = ANY (ARRAY[NULL]::int8[])',
    'id < 100::numeric',
    'id::int4 < 10',
    'c_int4_nn < -6000',
    'c_int4_nn = -7000',
    'c_int4_nn > 100::int8',
    'c_double_nn >= 2400.5',
    'c_double_nn = 10',
    'c_varchar = ''str_2500''',
    'c_varchar < ''str_21'' COLLATE "C"',
    'c_varchar_nn = ''nn_4321''',
    'c_varchar_nn IN (''nn_1'', ''nn_4999'')',
    'c_bool_nn',
    'NOT c_bool_nn',
    'c_int4 IS NULL',
    'c_int4 IS NOT NULL',
    'c_float > 1000',
    'c_float < -356',
    'c_double = ''NaN''',
    'c_date < DATE ''1900-01-01''',
    'c_timestamp >= TIMESTAMP ''2090-01-01''',
    'c_timestamp = TIMESTAMP ''1900-01-01'' + 3000 * INTERVAL ''1234567890123 microseconds''',
    'c_timestamptz < TIMESTAMPTZ ''1901-01-01 00:00:00+00''',
    'c_timestamp_ns > TIMESTAMP ''1979-01-01''',
    'c_dec18_4 > 0',
    'c_dec38_10 < -9000000000000000000000000000',
    'c_uint8 > 18000000000000000000',
    'c_uuid = ''\xcfcd208495d565ef66e7dff9f98764da''::bytea',
    'c_blob = ''\xffffffff''::bytea',
    'id > 1000 AND c_int4_nn < -3000',
    'id > 3000 AND c_timestamp < TIMESTAMP ''2030-01-01''',
    'id < 10 OR id > 4990',
    'id = 3 OR c_int4_nn = 5000',
    'id < 10 OR c_int4 IS NULL',
    'id = 2500 AND c_varchar_long IS NOT NULL']) AS cond;

-- DATA_PAGE_V2 pages
SELECT cond, compare_pages('ft_pages_v2', 'expected_pages_pw', cond) FROM unnest(ARRAY[
    'id = 2500',
    'id BETWEEN 2100 AND 2200',
    'id IN (5, 2500, 4999)',
    'c_double_nn >= 2400.5',
    'c_varchar_nn = ''nn_4321''',
    'c_timestamp >= TIMESTAMP ''2090-01-01''',
    'id > 1000 AND c_int4_nn < -3000',
    'id < 10 OR id > 4990']) AS cond;

-- hyparquet-writer: ~16 pages per row group in id, REQUIRED columns
SELECT cond, compare_pages('ft_pages_hyp', 'expected_pages_hyp', cond) FROM unnest(ARRAY[
    'id = 1500',
    'id IN (0, 999, 1000, 2999)',
    'id BETWEEN 1234 AND 1300',
    'id >= 2990',
    'req_i32 < -3900',
    'req_i32 = 2000',
    'id > 100 AND req_i32 < -3000',
    'id < 3 OR req_i32 > 4980']) AS cond;

-- Parameters: a generic plan decides at execution time, per execution.
SET plan_cache_mode = force_generic_plan;
PREPARE page_q(int8) AS
    SELECT count(*), sum(id), min(c_varchar_long) FROM ft_pages_v1 WHERE id = $1;
EXECUTE page_q(2500);
EXECUTE page_q(17);
EXECUTE page_q(NULL);
DEALLOCATE page_q;
RESET plan_cache_mode;

-- A nested loop rescans the foreign table with new outer values.
SET enable_hashjoin = off;
SET enable_mergejoin = off;
CREATE TEMP TABLE page_keys AS
SELECT * FROM (VALUES (3::int8), (1999), (2000), (4321), (7777)) AS v(k);
ANALYZE page_keys;
SELECT k, (SELECT t.c_varchar FROM ft_pages_v1 t WHERE t.id = k) FROM page_keys ORDER BY k;
SET parquet_fdw.enable_page_index_pruning = off;
SELECT k, (SELECT t.c_varchar FROM ft_pages_v1 t WHERE t.id = k) FROM page_keys ORDER BY k;
RESET parquet_fdw.enable_page_index_pruning;
SELECT k, t.c_varchar FROM page_keys JOIN LATERAL
    (SELECT * FROM ft_pages_v1 WHERE id = k) t ON true ORDER BY k;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- Only the selected pages of each column are read: far fewer bytes.
CREATE FUNCTION page_bytes_read(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q INTO plan;
    RETURN jsonb_path_query_first(plan, 'strict $.**."Bytes Read"')::bigint;
END
$$;
SELECT page_bytes_read('SELECT * FROM ft_pages_v1 WHERE id = 2500') AS all_on,
       page_bytes_read('SELECT id, c_varchar_long FROM ft_pages_v1 WHERE id = 2500') AS two_on \gset
SET parquet_fdw.enable_page_index_pruning = off;
SELECT page_bytes_read('SELECT * FROM ft_pages_v1 WHERE id = 2500') AS all_off,
       page_bytes_read('SELECT id, c_varchar_long FROM ft_pages_v1 WHERE id = 2500') AS two_off \gset
RESET parquet_fdw.enable_page_index_pruning;
SELECT :all_on * 2 < :all_off AS fewer_bytes, :two_on * 2 < :two_off AS fewer_bytes_two_columns;

-- Files without a page index (DuckDB) report no page counters.
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_zstd_dict.parquet', 'ft_pages_duck') \gexec
SELECT compare_pages('ft_pages_duck', 'expected_types', 'id = 2500');

-- Late materialization: the filtered column is decoded first and the other
-- columns read only the pages of the rows that pass: one data page per
-- column for a single-row lookup; the same rows either way.
CREATE FUNCTION data_pages_read(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q INTO plan;
    RETURN jsonb_path_query_first(plan, 'strict $.**."Data Pages Read"')::bigint;
END
$$;
SELECT count(*) AS ncols FROM pg_attribute
WHERE attrelid = 'ft_pages_v1'::regclass AND attnum > 0 \gset
SELECT data_pages_read('SELECT * FROM ft_pages_v1 WHERE id = 2500') = :ncols AS one_page_per_column;
SELECT count(*), sum(c_int4), min(c_varchar) FROM ft_pages_v1 WHERE id BETWEEN 2490 AND 2610;
SET parquet_fdw.enable_late_materialization = off;
SELECT data_pages_read('SELECT * FROM ft_pages_v1 WHERE id = 2500') > :ncols AS more_pages_without;
SELECT count(*), sum(c_int4), min(c_varchar) FROM ft_pages_v1 WHERE id BETWEEN 2490 AND 2610;
RESET parquet_fdw.enable_late_materialization;
SELECT count(*), sum(c_int4), min(c_varchar) FROM expected_types WHERE id BETWEEN 2490 AND 2610;
