-- Every flat type DuckDB writes, with every codec, dictionary and plain
-- encodings and DuckDB's delta/byte-stream-split encodings, compared with
-- the formulas of test/fixtures.md (view expected_types).
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SET TimeZone = 'UTC';

SELECT f AS fixture, check_file(:'fixtures' || '/' || f, 'expected_types')
FROM unnest(ARRAY[
    'duckdb_types_uncompressed_dict.parquet',
    'duckdb_types_uncompressed_plain.parquet',
    'duckdb_types_uncompressed_delta.parquet',
    'duckdb_types_snappy_dict.parquet',
    'duckdb_types_snappy_plain.parquet',
    'duckdb_types_snappy_delta.parquet',
    'duckdb_types_gzip_dict.parquet',
    'duckdb_types_gzip_plain.parquet',
    'duckdb_types_zstd_dict.parquet',
    'duckdb_types_zstd_plain.parquet',
    'duckdb_types_zstd_delta.parquet',
    'duckdb_types_brotli_dict.parquet',
    'duckdb_types_brotli_plain.parquet',
    'duckdb_types_lz4_dict.parquet',
    'duckdb_types_lz4_plain.parquet']) AS f;

-- The natural types chosen for each Parquet type (issue 2, item 7).
SELECT name, physical_type, logical_type, converted_type, pg_type
FROM parquet_fdw.schema(:'fixtures' || '/duckdb_types_snappy_dict.parquet')
WHERE depth = 1
ORDER BY ordinal;

-- Projection: only referenced columns are read, in any order.
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_zstd_dict.parquet', 'ft_types') \gexec
SELECT count(*) FROM ft_types t JOIN expected_types e USING (id)
WHERE (t.c_varchar, t.c_int8, t.c_date) IS DISTINCT FROM (e.c_varchar, e.c_int8, e.c_date);
SELECT c_uuid, id FROM ft_types WHERE id IN (0, 3, 4999) ORDER BY id;
SELECT count(*), count(c_bool), count(c_bool_nn), sum(c_int4_nn) FROM ft_types;
SELECT count(*) FROM ft_types;
