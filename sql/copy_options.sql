-- COPY ... TO ... (FORMAT parquet) options beyond sql/copy_to.sql's: Bloom
-- filter sizing per column, the dictionary size limit, statistics
-- truncation, sub-millisecond intervals, numeric as text, jsonb as JSON or
-- VARIANT; values read back through foreign tables and compared with what
-- PostgreSQL computes from the source.
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
SET intervalstyle = 'postgres';
SET extra_float_digits = 3;
\set out '/tmp/parquet_fdw_test/out'

-- ------------------------------------------------------------ Bloom filters
-- bytes of a split-block filter for ndv values at fpp (the spec's formula,
-- a power of two of at least 32 bytes); the chunk's ColumnMetaData length
-- adds the filter's header (a few bytes)
CREATE FUNCTION co_bloom_bytes(ndv numeric, fpp numeric) RETURNS bigint LANGUAGE sql AS $$
    SELECT (2 ^ ceil(log(2, greatest(32, ceil(-8 * ndv::float8 / ln(1 - fpp::float8 ^ (1 / 8.0)) / 8))::numeric)))::bigint
$$;
COPY (SELECT i AS a, i AS b, i AS c, i AS d FROM generate_series(1, 5000) i)
  TO '/tmp/parquet_fdw_test/out/copy_bloom_ndv.parquet'
  WITH (FORMAT parquet, bloom_filter 'a, b, c, d', bloom_filter_ndv 'a=1000, b=100000',
        bloom_filter_fpp (' b = 0.001', 'd=0.2'));
SELECT path_in_schema,
       bloom_filter_length - co_bloom_bytes(v.ndv, v.fpp) BETWEEN 1 AND 32 AS sized_by_formula,
       co_bloom_bytes(v.ndv, v.fpp) AS bitset_bytes
  FROM parquet_fdw.metadata(:'out' || '/copy_bloom_ndv.parquet') m
  JOIN (VALUES ('a', 1000, 0.01), ('b', 100000, 0.001), ('c', 5000, 0.01), ('d', 5000, 0.2)) v(col, ndv, fpp)
    ON v.col = m.path_in_schema
 ORDER BY 1;
-- one ndv and fpp for every Bloom filter column
COPY (SELECT i AS a, i AS b FROM generate_series(1, 5000) i)
  TO '/tmp/parquet_fdw_test/out/copy_bloom_ndv2.parquet'
  WITH (FORMAT parquet, bloom_filter 'a,b', bloom_filter_ndv 50000, bloom_filter_fpp 0.05);
SELECT path_in_schema, bloom_filter_length - co_bloom_bytes(50000, 0.05) BETWEEN 1 AND 32 AS sized_by_formula
  FROM parquet_fdw.metadata(:'out' || '/copy_bloom_ndv2.parquet') ORDER BY 1;
-- the filters are usable: a present value is found, an absent one pruned
CREATE FOREIGN TABLE co_bloom (a int4, b int4, c int4, d int4) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/copy_bloom_ndv.parquet');
SELECT count(*) FROM co_bloom WHERE b = 4321;
SET parquet_fdw.enable_statistics_pruning = off;
SELECT count(*) FROM co_bloom WHERE b = -7;
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT * FROM co_bloom WHERE b = -7$q$);
RESET parquet_fdw.enable_statistics_pruning;
DROP FOREIGN TABLE co_bloom;

-- ------------------------------------------------------------ dictionary size
-- 500 distinct 24-byte strings: a 13 kB dictionary; limited to 2000 bytes
-- the chunk falls back to PLAIN after the first batch
COPY (SELECT (i % 500)::text || repeat('x', 20) AS s FROM generate_series(1, 20000) i)
  TO '/tmp/parquet_fdw_test/out/copy_dict_default.parquet' WITH (FORMAT parquet, compression uncompressed);
COPY (SELECT (i % 500)::text || repeat('x', 20) AS s FROM generate_series(1, 20000) i)
  TO '/tmp/parquet_fdw_test/out/copy_dict_limit.parquet'
  WITH (FORMAT parquet, compression uncompressed, dictionary_page_size 2000);
SELECT l.total_uncompressed_size > 5 * d.total_uncompressed_size AS plain_after_limit
  FROM parquet_fdw.metadata(:'out' || '/copy_dict_default.parquet') d,
       parquet_fdw.metadata(:'out' || '/copy_dict_limit.parquet') l;
CREATE FOREIGN TABLE co_dict (s text) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/copy_dict_limit.parquet');
SELECT count(*), count(DISTINCT s),
       count(*) FILTER (WHERE s <> (row_number % 500)::text || repeat('x', 20)) AS wrong
  FROM (SELECT s, row_number() OVER () FROM co_dict) x;
DROP FOREIGN TABLE co_dict;

-- ------------------------------------------------------------ statistics truncation
COPY (SELECT repeat('z', 100) || i AS s FROM generate_series(1, 9) i)
  TO '/tmp/parquet_fdw_test/out/copy_trunc_default.parquet' WITH (FORMAT parquet);
COPY (SELECT repeat('z', 100) || i AS s FROM generate_series(1, 9) i)
  TO '/tmp/parquet_fdw_test/out/copy_trunc_10.parquet' WITH (FORMAT parquet, statistics_truncate_length 10);
COPY (SELECT repeat('z', 100) || i AS s FROM generate_series(1, 9) i)
  TO '/tmp/parquet_fdw_test/out/copy_trunc_never.parquet' WITH (FORMAT parquet, statistics_truncate_length 0);
SELECT f, octet_length(stats_min) AS min_len, is_min_exact, octet_length(stats_max) AS max_len, is_max_exact,
       stats_min = repeat('z', 100) || '1' AS exact_min
  FROM unnest(ARRAY['default', '10', 'never']) f,
       parquet_fdw.metadata(:'out' || '/copy_trunc_' || f || '.parquet')
 ORDER BY 1;

-- ------------------------------------------------------------ intervals
COPY (SELECT i, CASE WHEN i = 3 THEN NULL ELSE make_interval(days => i, secs => i * 1.000999) END AS iv
        FROM generate_series(1, 5) i)
  TO '/tmp/parquet_fdw_test/out/copy_interval_trunc.parquet' WITH (FORMAT parquet, interval_truncate true);
CREATE FOREIGN TABLE co_iv (i int4, iv interval) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/copy_interval_trunc.parquet');
SELECT i, iv, iv IS NOT DISTINCT FROM
       date_trunc('milliseconds', CASE WHEN i = 3 THEN NULL ELSE make_interval(days => i, secs => i * 1.000999) END) AS truncated
  FROM co_iv ORDER BY i;
DROP FOREIGN TABLE co_iv;
COPY (SELECT INTERVAL '1.5 ms' AS iv) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, interval_truncate off);

-- ------------------------------------------------------------ numeric as text
CREATE TABLE co_num (id int4, n numeric, n2 numeric(6,2));
INSERT INTO co_num VALUES (1, 1.5, 1.5), (2, 'NaN', NULL), (3, 'Infinity', 2), (4, '-Infinity', 3),
  (5, 1e-40, 4), (6, 123456789012345678901234567890.123456789012, 5), (7, NULL, 6), (8, -0.000, 7);
COPY co_num TO '/tmp/parquet_fdw_test/out/copy_numeric_string.parquet' WITH (FORMAT parquet, numeric_as string);
SELECT name, physical_type, logical_type FROM parquet_fdw.schema(:'out' || '/copy_numeric_string.parquet')
 WHERE depth > 0 ORDER BY ordinal;
CREATE TABLE co_num_back (LIKE co_num);
COPY co_num_back FROM '/tmp/parquet_fdw_test/out/copy_numeric_string.parquet' WITH (FORMAT parquet);
-- the exact values and their display scale come back
SELECT count(*) AS differing FROM (
    (SELECT id, n::text, n2 FROM co_num EXCEPT ALL SELECT id, n::text, n2 FROM co_num_back)
    UNION ALL
    (SELECT id, n::text, n2 FROM co_num_back EXCEPT ALL SELECT id, n::text, n2 FROM co_num)) x;
COPY co_num TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, numeric_as decimal);

-- ------------------------------------------------------------ jsonb
COPY (SELECT '{"a": 1}'::jsonb AS j) TO '/tmp/parquet_fdw_test/out/copy_jsonb_json.parquet' WITH (FORMAT parquet, jsonb_as 'JSON');
SELECT name, physical_type, logical_type FROM parquet_fdw.schema(:'out' || '/copy_jsonb_json.parquet') WHERE depth > 0;

-- ------------------------------------------------------------ errors
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, bloom_filter 'a', bloom_filter_ndv 0);
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, bloom_filter 'a', bloom_filter_ndv 'a=many');
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, bloom_filter 'a', bloom_filter_fpp 'b=0.1');
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, bloom_filter 'a', bloom_filter_fpp 'a=1');
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, bloom_filter 'a', bloom_filter_fpp 'a');
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, dictionary_page_size 0);
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, statistics_truncate_length -1);
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, interval_truncate 'maybe');
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_opt.parquet' WITH (FORMAT parquet, numeric_as 'float');
SELECT pg_stat_file(:'out' || '/e_opt.parquet', true) IS NULL AS no_file;

-- ------------------------------------------------- datasets (a directory)
-- (trees themselves are checked by the datasets stage, check_datasets.mjs,
-- with DuckDB as the reader)
COPY (SELECT 1 AS a, 2 AS b) TO STDOUT WITH (FORMAT parquet, partition_by 'a');
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, overwrite true);
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, max_open_files 10);
COPY (SELECT 1 AS a, 2 AS b) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, partition_by 'a', overwrite true, overwrite_or_ignore true);
COPY (SELECT 1 AS a, 2 AS b) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, partition_by (c));
COPY (SELECT 1 AS a, 2 AS b) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, partition_by (a, a));
COPY (SELECT ARRAY[1] AS a, 2 AS b) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, partition_by (a));
COPY (SELECT 1 AS a, 2 AS b) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, partition_by (a, b));
COPY (SELECT 1 AS a, 2 AS b) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, partition_by (a), bloom_filter 'a');
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, file_size_bytes '10 parsecs');
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, file_size_bytes 0);
COPY (SELECT 1 AS a) TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, row_groups_per_file 0);
-- the row an ERROR names is the output row, though rows are grouped by
-- partition (row 5000 is the 1667th of partition p=2)
COPY (SELECT i % 3 AS p, CASE WHEN i = 5000 THEN 'NaN'::numeric ELSE i END AS n FROM generate_series(1, 6000) i)
  TO '/tmp/parquet_fdw_test/out/e_ds' WITH (FORMAT parquet, partition_by (p));
SELECT pg_stat_file(:'out' || '/e_ds', true) IS NULL AS no_tree,
       (SELECT count(*) FROM pg_ls_dir(:'out') AS f WHERE f LIKE '.e_ds.%') AS no_temporary;
-- sizes as DuckDB spells them ('2 KiB' = 2048 bytes): every file but the
-- last ends past the size
COPY (SELECT i, md5(i::text) AS pad FROM generate_series(1, 400) i)
  TO '/tmp/parquet_fdw_test/out/copy_ds_kib' WITH (FORMAT parquet, row_group_size 10, file_size_bytes '2 KiB', overwrite true);
SELECT count(*) AS files, min(size) >= 2048 AS each_past_2048
  FROM pg_ls_dir(:'out' || '/copy_ds_kib') AS f,
       LATERAL pg_stat_file(:'out' || '/copy_ds_kib/' || f) AS s
 WHERE f LIKE 'data\_%.parquet' AND f <> 'data_' || (SELECT count(*) - 1 FROM pg_ls_dir(:'out' || '/copy_ds_kib')) || '.parquet';
