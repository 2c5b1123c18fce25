-- ANALYZE samples rows from the files: a small table is read whole, so
-- the statistics equal those of the expected rows.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_brotli_plain.parquet', 'ft_analyze') \gexec
ANALYZE ft_analyze;
CREATE TABLE heap_analyze AS SELECT * FROM expected_types;
ANALYZE heap_analyze;
SELECT f.attname,
       f.null_frac = h.null_frac AS same_null_frac,
       f.n_distinct = h.n_distinct AS same_n_distinct,
       f.most_common_vals::text IS NOT DISTINCT FROM h.most_common_vals::text AS same_mcv
FROM pg_stats f JOIN pg_stats h USING (attname)
WHERE f.tablename = 'ft_analyze' AND h.tablename = 'heap_analyze'
  AND f.attname IN ('id', 'c_bool', 'c_int4', 'c_enum', 'c_varchar', 'c_date', 'c_bool_nn')
ORDER BY 1;
SELECT reltuples FROM pg_class WHERE relname = 'ft_analyze';
-- Estimates now use the statistics.
EXPLAIN SELECT * FROM ft_analyze WHERE c_enum = 'red';
DROP TABLE heap_analyze;
