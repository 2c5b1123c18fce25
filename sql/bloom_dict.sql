-- Row group pruning from Bloom filters and dictionaries: the same rows with
-- every combination of statistics, Bloom filter and dictionary pruning on
-- and off, and as the expected rows (computed independently from the
-- formulas in test/fixtures.md); then the row groups each kind skips alone
-- and all together (statistics, then Bloom filters, then dictionaries).
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SET TimeZone = 'UTC';

-- DuckDB: 4 row groups of 2048 rows (ids 0-2047, ...), Bloom filters on
-- every chunk, no encoding_stats.
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_bloom.parquet', 'ft_bloom') \gexec
CREATE VIEW expected_bloom AS
SELECT i AS id,
  p * 2 AS h_int8,
  (p * 2)::int4 AS h_int4,
  (p * 2 - 8192)::int2 AS h_int2,
  p * 2 + 3000000000 AS h_uint4,
  (p * 2 + 10000000000000000000)::numeric AS h_uint8,
  (p * 2 * 0.01)::numeric(9,2) AS h_dec9,
  (p * 2 * 0.001)::numeric(18,3) AS h_dec18,
  (p * 2 + 0.5)::float4 AS h_float,
  (p * 2 + 0.25)::float8 AS h_double,
  'k' || (p * 2) AS h_str,
  md5(p::text)::uuid AS h_uuid,
  DATE '2000-01-01' + (p * 2)::int4 AS h_date,
  TIMESTAMP '2000-01-01' + (p * 2) * INTERVAL '1 second' AS h_ts,
  TIMESTAMP '2000-01-01' + (p * 2 * 1001) * INTERVAL '1 millisecond' AS h_ts_ms,
  TIMESTAMPTZ '2000-01-01 00:00:00+00' + (p * 2) * INTERVAL '1 second' AS h_tstz,
  TIME '00:00:00' + (p * 2) * INTERVAL '1 second' AS h_time,
  CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || (p * 2) END AS h_null,
  CASE i % 3 WHEN 0 THEN 'aa' WHEN 1 THEN 'zz' ELSE 'm' || (i / 2048) END AS lc_str,
  (CASE i % 3 WHEN 0 THEN 0 WHEN 1 THEN 100 ELSE 10 + i / 2048 END)::int4 AS lc_int
FROM (SELECT i, (i * 7919) % 8192 AS p FROM generate_series(0::bigint, 8191) AS g(i)) s;
-- every value as expected (check_file() would race with parallel tests)
SELECT count(*) AS rows, count(*) FILTER (WHERE e::text IS DISTINCT FROM t::text) AS mismatches
FROM expected_bloom e FULL JOIN ft_bloom t USING (id);

-- hyparquet-writer: 4 row groups of 1000 rows, Bloom filters on h_*,
-- encoding_stats proving lc_* fully dictionary-encoded.
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/hyp_bloom_dict.parquet', 'ft_hyp') \gexec
CREATE VIEW expected_hyp AS
SELECT i AS id,
  p * 2 AS h_int4,
  (p * 2)::int8 AS h_int8,
  CASE WHEN i % 7 = 3 THEN NULL ELSE 'k' || (p * 2) END AS h_str,
  (ARRAY['aa', 'zz', 'm' || (i / 1000)])[i % 3 + 1] AS lc_str,
  (ARRAY[0, 100, 10 + i / 1000])[i % 3 + 1] AS lc_int
FROM (SELECT i, (i * 7919) % 4000 AS p FROM generate_series(0, 3999) AS g(i)) s;
SELECT count(*) AS rows, count(*) FILTER (WHERE e::text IS DISTINCT FROM t::text) AS mismatches
FROM expected_hyp e FULL JOIN ft_hyp t USING (id);

-- arrow-rs: the types table, 3 row groups of 2000 rows, encoding_stats.
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/pw_v2_zstd.parquet', 'ft_pw') \gexec

-- Declared types other than the natural ones, several per Parquet column.
\set file :fixtures '/duckdb_bloom.parquet'
CREATE FOREIGN TABLE ft_bloom_decl (
    id bigint,
    i4_as_int8 bigint OPTIONS (column_name 'h_int4'),
    i4_as_numeric numeric OPTIONS (column_name 'h_int4'),
    i4_as_float8 float8 OPTIONS (column_name 'h_int4'),
    i8_as_numeric numeric OPTIONS (column_name 'h_int8'),
    i8_as_text text OPTIONS (column_name 'h_int8'),
    f4_as_float8 float8 OPTIONS (column_name 'h_float'),
    date_as_ts timestamp OPTIONS (column_name 'h_date'),
    str_as_varchar varchar OPTIONS (column_name 'h_str'),
    str_as_varchar10 varchar(10) OPTIONS (column_name 'h_str')
) SERVER parquet_srv OPTIONS (filename :'file');
CREATE VIEW expected_bloom_decl AS
SELECT id, h_int4::int8 AS i4_as_int8, h_int4::numeric AS i4_as_numeric,
       h_int4::float8 AS i4_as_float8, h_int8::numeric AS i8_as_numeric,
       h_int8::text AS i8_as_text, h_float::float8 AS f4_as_float8,
       h_date::timestamp AS date_as_ts, h_str::varchar AS str_as_varchar,
       h_str::varchar(10) AS str_as_varchar10
FROM expected_bloom;

-- Rows (count:sum of ids) under all 8 settings of the three GUCs must equal
-- the expected rows; then how many row groups hold a matching row (rg_rows
-- rows per group), and the row groups pruned by statistics / Bloom filters
-- / dictionaries with only that kind on, and with all three on.
CREATE FUNCTION compare_bd(tab text, expected text, rg_rows int, cond text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    want text;
    got text;
    groups bigint;
    plan jsonb;
    counter text;
    alone text[] := '{}';
    together text[] := '{}';
    kinds text[] := ARRAY['Statistics', 'Bloom Filter', 'Dictionary'];
    gucs text[] := ARRAY['parquet_fdw.enable_statistics_pruning',
                         'parquet_fdw.enable_bloom_pruning',
                         'parquet_fdw.enable_dictionary_pruning'];
BEGIN
    EXECUTE format('SELECT count(*) || '':'' || coalesce(sum(id), 0), count(DISTINCT id / %s) FROM %s WHERE %s',
                   rg_rows, expected, cond) INTO want, groups;
    -- bit k - 1 of setting switches kind k on
    FOR setting IN 0..7 LOOP
        FOR k IN 1..3 LOOP
            PERFORM set_config(gucs[k], CASE WHEN setting & (1 << (k - 1)) <> 0 THEN 'on' ELSE 'off' END, true);
        END LOOP;
        EXECUTE format('SELECT count(*) || '':'' || coalesce(sum(id), 0) FROM %s WHERE %s', tab, cond) INTO got;
        IF got IS DISTINCT FROM want THEN
            RETURN format('DIFFERENT with setting %s: got %s, expected %s', setting, got, want);
        END IF;
        CONTINUE WHEN setting NOT IN (1, 2, 4, 7);
        EXECUTE format('EXPLAIN (ANALYZE, BUFFERS OFF, FORMAT JSON, COSTS OFF, TIMING OFF) SELECT id FROM %s WHERE %s', tab, cond) INTO plan;
        FOR k IN 1..3 LOOP
            counter := coalesce(jsonb_path_query_first(plan, ('strict $.**."Row Groups Pruned by ' || kinds[k] || '"')::jsonpath)::text, '-');
            IF setting = 7 THEN
                together := together || counter;
            ELSIF setting = 1 << (k - 1) THEN
                alone := alone || counter;
            END IF;
        END LOOP;
    END LOOP;
    RETURN format('%s rows in %s row groups, same; pruned by stats/bloom/dict alone %s, together %s',
                  split_part(want, ':', 1), groups, array_to_string(alone, '/'), array_to_string(together, '/'));
END
$$;

-- Equality under a nondeterministic collation holds for other bytes too:
-- no pruning may use it.
CREATE COLLATION bd_case_insensitive (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

-- DuckDB's Bloom filters: cross-type constants, every encoded type, values
-- absent everywhere (odd numbers) and values no stored value can equal.
SELECT cond, compare_bd('ft_bloom', 'expected_bloom', 2048, cond) FROM unnest(ARRAY[
    'h_int8 = 1000',
    'h_int8 = 1001',
    'h_int8 = 1000::int4',
    'h_int8 IN (1000, 1001, 16000)',
    'h_int8 IN (1001, 1003)',
    'h_int8 = ANY (ARRAY[NULL, 1000]::int8[])',
    'h_int8 = ANY (ARRAY[NULL]::int8[])',
    'h_int8 = NULL::int8',
    'h_int4 = 1000::int8',
    'h_int4 = 1001::int8',
    'h_int4 = 5000000000',
    'h_int2 = 1000',
    'h_int2 = -7192',
    'h_int2 = -3001',
    'h_uint4 = 3000001000',
    'h_uint4 = 3000001001',
    'h_uint8 = 10000000000000001000',
    'h_uint8 = 10000000000000001001',
    'h_uint8 = 10000000000000001000.5',
    'h_dec9 = 10.00',
    'h_dec9 = 10.01',
    'h_dec9 = 10.005',
    'h_dec18 = 1',
    'h_dec18 = 1.001',
    'h_float = 1000.5',
    'h_float = 1000.5::float8',
    'h_float = 1001.5',
    'h_float = 1000.1',
    'h_double = 1000.25',
    'h_double = 1000.75',
    'h_str = ''k1000''',
    'h_str = ''k1001''',
    'h_str IN (''k1000'', ''k1001'')',
    'h_str = ''k1001'' COLLATE "C"',
    'h_str = ''K1000'' COLLATE bd_case_insensitive',
    'h_uuid = md5(''500'')::uuid',
    'h_uuid = md5(''x'')::uuid',
    'h_date = DATE ''2002-09-27''',
    'h_date = DATE ''2002-09-28''',
    'h_date = TIMESTAMP ''2002-09-27 00:00''',
    'h_date = TIMESTAMP ''2002-09-27 12:00''',
    'h_ts = TIMESTAMP ''2000-01-01 00:16:40''',
    'h_ts = TIMESTAMP ''2000-01-01 00:16:41''',
    'h_ts_ms = TIMESTAMP ''2000-01-01 00:16:41''',
    'h_ts_ms = TIMESTAMP ''2000-01-01 00:16:42''',
    'h_ts_ms = TIMESTAMP ''2000-01-01 00:16:41.0005''',
    'h_tstz = TIMESTAMPTZ ''2000-01-01 00:16:40+00''',
    'h_tstz = TIMESTAMP ''2000-01-01 00:16:40''',
    'h_tstz = TIMESTAMPTZ ''2000-01-01 00:16:41+00''',
    'h_time = TIME ''00:16:40''',
    'h_time = TIME ''00:16:41''',
    'h_null = ''n1002''',
    'h_null = ''n1000''',
    'h_null IS NULL',
    'h_int8 = 1001 OR h_str = ''k1001''',
    'h_int8 = 1000 OR h_str = ''k1001''',
    'h_int8 = 1001 OR h_int8 > 16000',
    'h_int8 = 1000 AND h_str = ''k1001''',
    'h_int8 <> 1000',
    'lc_str = ''m1''',
    'lc_int BETWEEN 11 AND 12']) AS cond;

-- IN lists of 1000 values: all absent, and one present.
SELECT label, compare_bd('ft_bloom', 'expected_bloom', 2048, cond)
FROM (SELECT '1000 absent values' AS label,
             'h_int8 IN (' || string_agg((2 * g + 1)::text, ', ') || ')' AS cond
        FROM generate_series(1000, 1999) AS g
      UNION ALL
      SELECT '999 absent values and 1000',
             'h_int8 IN (' || string_agg((2 * g + 1)::text, ', ') || ', 1000)'
        FROM generate_series(1000, 1998) AS g
      UNION ALL
      SELECT '1000 absent strings',
             'h_str IN (' || string_agg(quote_literal('k' || (2 * g + 1)), ', ') || ')'
        FROM generate_series(1000, 1999) AS g) AS l;

-- Values from parameters: the hashes are computed again on every rescan.
PREPARE bloom_by_h(int8) AS SELECT count(*), sum(id) FROM ft_bloom WHERE h_int8 = $1;
SET plan_cache_mode = force_generic_plan;
EXECUTE bloom_by_h(1000);
SELECT count(*), sum(id) FROM expected_bloom WHERE h_int8 = 1000;
EXECUTE bloom_by_h(1001);
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$EXECUTE bloom_by_h(1001)$q$);
RESET plan_cache_mode;
SELECT v.x, (SELECT count(*) FROM ft_bloom f WHERE f.h_int8 = v.x) AS got,
       (SELECT count(*) FROM expected_bloom e WHERE e.h_int8 = v.x) AS want
FROM (VALUES (1000::int8), (1001), (2000), (NULL)) AS v(x);
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT v.x, (SELECT count(*) FROM ft_bloom f WHERE f.h_int8 = v.x)
FROM (VALUES (1000::int8), (1001), (2000), (NULL)) AS v(x)$q$);

-- Declared types: only casts that keep stored values apart use the filters
-- (varchar(10) and text do not).
SELECT cond, compare_bd('ft_bloom_decl', 'expected_bloom_decl', 2048, cond) FROM unnest(ARRAY[
    'i4_as_int8 = 1000',
    'i4_as_int8 = 1001',
    'i4_as_numeric = 1000.0',
    'i4_as_numeric = 1000.5',
    'i4_as_float8 = 1000',
    'i4_as_float8 = 1001',
    'i4_as_float8 = 1000.5',
    'i8_as_numeric = 1000',
    'i8_as_numeric = 1001',
    'i8_as_text = ''1001''',
    'f4_as_float8 = 1000.5',
    'f4_as_float8 = 1000.1',
    'date_as_ts = ''2002-09-27''',
    'date_as_ts = ''2002-09-28''',
    'str_as_varchar = ''k1001''',
    'str_as_varchar10 = ''k1001''']) AS cond;

-- hyparquet-writer: its own Bloom filter hashing, and dictionaries that
-- encoding_stats prove complete, for every comparison.
SELECT cond, compare_bd('ft_hyp', 'expected_hyp', 1000, cond) FROM unnest(ARRAY[
    'h_int4 = 1000',
    'h_int4 = 1001',
    'h_int8 = 1000',
    'h_int8 = 1001::int4',
    'h_str = ''k1000''',
    'h_str = ''k1001''',
    'h_str IS NULL',
    'lc_str = ''m1''',
    'lc_str = ''m9''',
    'lc_str IN (''m0'', ''m3'')',
    'lc_str >= ''m1'' COLLATE "C" AND lc_str <= ''m2'' COLLATE "C"',
    'lc_str > ''m2'' COLLATE "C"',
    'lc_str < ''m'' COLLATE "C"',
    'lc_str <> ''aa''',
    'lc_str = ''m1'' COLLATE "und-x-icu"',
    'lc_str = ''M1'' COLLATE bd_case_insensitive',
    'lc_int = 13',
    'lc_int = 12::int8',
    'lc_int BETWEEN 11 AND 12',
    'lc_int IN (5, 50)',
    'lc_int <> 0',
    'lc_int > 13 AND lc_int < 100',
    'lc_int = 13 OR lc_int = 10',
    'lc_int = 13 OR h_int4 = 1001',
    'lc_int IS NOT NULL']) AS cond;

-- arrow-rs: encoding_stats make the small dictionaries usable (ENUM as
-- STRING: red, green, blue in every row group).
SELECT cond, compare_bd('ft_pw', 'expected_types', 2000, cond) FROM unnest(ARRAY[
    'c_enum = ''purple''',
    'c_enum = ''red''',
    'c_enum >= ''c'' COLLATE "C" AND c_enum <= ''f'' COLLATE "C"',
    'c_enum IN (''black'', ''white'')']) AS cond;

-- Settings only affect pruning; the GUCs exist and default to on.
SHOW parquet_fdw.enable_bloom_pruning;
SHOW parquet_fdw.enable_dictionary_pruning;
