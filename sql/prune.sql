-- Row group pruning from statistics: the same rows with pruning on and off
-- and as the expected rows (computed independently), and the row groups it
-- skips.  The DuckDB fixture has 3 row groups (ids 0-2047, 2048-4095,
-- 4096-4999).
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SET TimeZone = 'UTC';
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_zstd_dict.parquet', 'ft_prune') \gexec

CREATE FUNCTION compare_prune(cond text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    got_on text;
    got_off text;
    want text;
    plan jsonb;
BEGIN
    SET LOCAL parquet_fdw.enable_statistics_pruning = on;
    EXECUTE 'SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM ft_prune WHERE ' || cond INTO got_on;
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, FORMAT JSON, COSTS OFF, TIMING OFF) SELECT id FROM ft_prune WHERE ' || cond INTO plan;
    SET LOCAL parquet_fdw.enable_statistics_pruning = off;
    EXECUTE 'SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM ft_prune WHERE ' || cond INTO got_off;
    EXECUTE 'SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM expected_types WHERE ' || cond INTO want;
    RETURN CASE WHEN got_on = want AND got_off = want
                THEN split_part(want, ':', 1) || ' rows, same'
                ELSE format('DIFFERENT: on %s, off %s, expected %s', got_on, got_off, want) END
        || ', pruned ' || coalesce(jsonb_path_query_first(plan, 'strict $.**."Row Groups Pruned by Statistics"')::text, '-');
END
$$;

SELECT cond, compare_prune(cond) FROM unnest(ARRAY[
    'id < 100',
    'id <= 2047',
    'id = 2048',
    'id > 4999',
    'id >= 4096',
    '100 > id',
    'id BETWEEN 2100 AND 2200',
    'id <> 7',
    'id IN (5, 4500)',
    'id = ANY (ARRAY[1, 2, NULL])',
    'id < 100::numeric',
    'id::int4 < 10',
    'c_int4_nn::numeric = -7000.0',
    'c_int4_nn::float8 < -6000.5',
    'c_date::timestamp < TIMESTAMP ''1900-01-01 12:00''',
    'c_int4_nn < -6000',
    'c_int4_nn = -7000',
    'c_int4_nn > 100::int8',
    'c_double_nn >= 2400.5',
    'c_varchar_nn = ''nn_4321''',
    'c_varchar_nn IN (''nn_1'', ''nn_4999'')',
    'c_varchar_nn < ''nn_2'' COLLATE "und-x-icu"',
    'c_varchar_nn < ''nn_2'' COLLATE "C"',
    'c_varchar_nn LIKE ''nn_49%''',
    'c_varchar_nn LIKE ''nn\_4999''',
    'c_varchar_nn LIKE ''zz%''',
    'c_varchar_nn LIKE ''%99''',
    'c_varchar_nn LIKE ''nn_2%'' COLLATE "und-x-icu"',
    'c_bool_nn',
    'NOT c_bool_nn',
    'c_int4 IS NULL',
    'c_int4 IS NOT NULL',
    'c_float > 1000',
    'c_float < -356',
    'c_double = ''NaN''',
    'c_date < DATE ''1900-01-01''',
    'c_timestamp >= TIMESTAMP ''2090-01-01''',
    'c_timestamptz < TIMESTAMPTZ ''1901-01-01 00:00:00+00''',
    'c_dec18_4 > 0',
    'c_uint8 > 18000000000000000000',
    'c_uuid = ''cfcd2084-95d5-65ef-66e7-dff9f98764da''',
    'c_blob = ''\xffffffff''::bytea',
    'c_interval > INTERVAL ''1 year''',
    'id > 4096 AND c_int4_nn < 0',
    'id < 10 OR id > 4990']) AS cond;

-- IN lists of one and of 1000 elements (a literal list and an initplan's
-- array), and a file written without statistics: nothing to prune, same rows.
SELECT label, compare_prune(cond) FROM (VALUES
    ('one element', 'id = ANY (ARRAY[2048])'),
    ('1000 constants', (SELECT 'id IN (' || string_agg(g::text, ', ') || ')' FROM generate_series(4000, 4999) g)),
    ('1000 from an initplan', 'id = ANY (ARRAY(SELECT generate_series(4000, 4999)::int8))')) AS v(label, cond);
COPY (SELECT id, c_int4_nn FROM expected_types)
    TO '/tmp/parquet_fdw_prune_nostats.parquet'
    WITH (FORMAT parquet, statistics off, page_index off, row_group_size 1000);
CREATE FOREIGN TABLE ft_nostats (id bigint, c_int4_nn integer)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_prune_nostats.parquet');
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT count(*) FROM ft_nostats WHERE id < 100$q$);
SELECT count(*), sum(c_int4_nn) FROM ft_nostats WHERE id < 100 OR c_int4_nn = -7000;
SELECT count(*), sum(c_int4_nn) FROM expected_types WHERE id < 100 OR c_int4_nn = -7000;
COPY (SELECT 1) TO PROGRAM 'cat > /dev/null; rm -f /tmp/parquet_fdw_prune_nostats.parquet';

-- Declared types change how statistics are compared: read as text, ids
-- order as strings, so no range pruning is possible.
\set file :fixtures '/duckdb_types_zstd_dict.parquet'
CREATE FOREIGN TABLE ft_prune_text (id text)
    SERVER parquet_srv OPTIONS (filename :'file');
SELECT count(*) FROM ft_prune_text WHERE id < '2';
SELECT count(*) FROM expected_types WHERE id::text < '2';

-- Values known only at run time: prepared statements with generic plans,
-- initplans, stable expressions; re-evaluated on every execution.
SET plan_cache_mode = force_generic_plan;
PREPARE by_id(bigint, bigint) AS SELECT count(*), sum(id) FROM ft_prune WHERE id BETWEEN $1 AND $2;
EXECUTE by_id(10, 20);
EXECUTE by_id(4000, 4100);
SELECT count(*), sum(id) FROM expected_types WHERE id BETWEEN 4000 AND 4100;
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$EXECUTE by_id(4000, 4100)$q$);
EXECUTE by_id(NULL, 4100);
PREPARE by_list(bigint[]) AS SELECT count(*) FROM ft_prune WHERE id = ANY ($1);
EXECUTE by_list(ARRAY[1, 4999]);
EXECUTE by_list(ARRAY[NULL]::bigint[]);
RESET plan_cache_mode;
SELECT compare_prune('id < (SELECT 100)');
SELECT compare_prune('c_timestamptz > TIMESTAMPTZ ''2060-01-01 00:00:00+00'' + INTERVAL ''1 day''');
SELECT compare_prune('id = NULL::bigint');

-- Join clauses prune per outer row through a parameterized path (a nested
-- loop re-scans the file with each outer value).
CREATE TABLE outer_ids AS SELECT * FROM (VALUES (5), (100), (4500), (7000)) v(id);
ANALYZE outer_ids;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT explain_filter('ANALYZE, BUFFERS OFF, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT o.id, f.c_varchar FROM outer_ids o JOIN ft_prune f ON f.id = o.id$q$);
SELECT o.id, f.c_varchar FROM outer_ids o JOIN ft_prune f ON f.id = o.id ORDER BY 1;
SELECT o.id, e.c_varchar FROM outer_ids o JOIN expected_types e ON e.id = o.id ORDER BY 1;
-- LATERAL with a range
SELECT o.id, s.n FROM outer_ids o,
    LATERAL (SELECT count(*) AS n FROM ft_prune f
             WHERE f.id BETWEEN o.id AND o.id + 9 AND f.c_int4_nn > -6980) s
ORDER BY 1;
SELECT o.id, s.n FROM outer_ids o,
    LATERAL (SELECT count(*) AS n FROM expected_types e
             WHERE e.id BETWEEN o.id AND o.id + 9 AND e.c_int4_nn > -6980) s
ORDER BY 1;
RESET enable_hashjoin;
RESET enable_mergejoin;
DROP TABLE outer_ids;

-- Plan-time estimates leave out row groups that constant quals prune.
CREATE FUNCTION plan_rows(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
    RETURN jsonb_path_query_first(plan, 'strict $.**."Plan Rows"')::float8;
END
$$;
SELECT plan_rows('SELECT * FROM ft_prune WHERE id > 10000') AS pruned_everything,
       plan_rows('SELECT * FROM ft_prune WHERE id >= 4096') <= 904 AS within_last_row_group;
SET parquet_fdw.enable_statistics_pruning = off;
SELECT plan_rows('SELECT * FROM ft_prune WHERE id > 10000') > 1 AS estimate_without_pruning;
RESET parquet_fdw.enable_statistics_pruning;

-- Without ANALYZE, quals the chunks' min/max judge are estimated from them
-- (values uniform between min and max): within a factor of 2 of the rows
-- the expected table has, where PostgreSQL's default selectivity is not.
SELECT cond, plan_rows('SELECT * FROM ft_prune WHERE ' || cond) BETWEEN n / 2.0 AND n * 2.0 AS close
FROM (SELECT cond, (xpath('//n/text()',
        query_to_xml('SELECT count(*) AS n FROM expected_types WHERE ' || cond, false, false, '')))[1]::text::int AS n
      FROM unnest(ARRAY['id < 100', 'id > 4000', 'c_double_nn >= 2400.5', 'c_int4 IS NULL',
                        'c_timestamp >= TIMESTAMP ''2090-01-01''', 'c_dec18_4 > 0']) AS cond) s;

-- Rescans of a table of two files (the open file is reused when a rescan
-- comes back to it): both files hold ids 0..4999.
\set two :fixtures '/pw_v2_zstd.parquet, ' :fixtures '/pw_v1_snappy.parquet'
CREATE FOREIGN TABLE ft_two (id bigint, c_varchar text)
    SERVER parquet_srv OPTIONS (filename :'two');
CREATE TABLE outer_two AS SELECT * FROM (VALUES (5), (1999), (4000), (4999)) v(id);
ANALYZE outer_two;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT o.id, s.n FROM outer_two o,
    LATERAL (SELECT count(*) AS n FROM ft_two f WHERE f.id BETWEEN o.id - 2 AND o.id + 2) s
ORDER BY 1;
SELECT o.id, s.n FROM outer_two o,
    LATERAL (SELECT 2 * count(*) AS n FROM expected_types e WHERE e.id BETWEEN o.id - 2 AND o.id + 2) s
ORDER BY 1;
RESET enable_hashjoin;
RESET enable_mergejoin;
DROP TABLE outer_two;
