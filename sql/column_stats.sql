-- Planner statistics from the footers (fdw/plan/column_stats.c): without
-- ANALYZE, the planner takes null fractions from the files' null counts and
-- distinct counts from their dictionary-encoded chunks, so its estimates
-- equal those over a heap table of the same rows whose ANALYZE sampled
-- every row; once ANALYZE has run on the foreign table, its statistics win.
LOAD 'parquet_fdw';
SET max_parallel_workers_per_gather = 0;

-- 10000 rows in row groups of 1000: k has 7 values, t 3, n 35 and 30%
-- NULLs, u is unique; the values are spread over every row group.  u's
-- chunks are PLAIN (a dictionary of unique values does not pay), so they
-- count no distinct values and u keeps PostgreSQL's default of 200.
CREATE TABLE cs_heap AS
SELECT g AS u, (g * 7919) % 7 AS k, (ARRAY['x', 'y', 'z'])[1 + (g * 31) % 3] AS t,
       CASE WHEN g % 10 < 3 THEN NULL ELSE (g * 13) % 50 END AS n
  FROM generate_series(1, 10000) g;
ANALYZE cs_heap;
COPY cs_heap TO '/tmp/parquet_fdw_test/out/column_stats.parquet'
    WITH (FORMAT parquet, row_group_size 1000);
CREATE FOREIGN TABLE cs_fdw (u int, k int, t text, n int) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/column_stats.parquet');

-- the distinct counts our COPY TO wrote, as DuckDB writes them
SELECT path_in_schema, count(*) AS row_groups, min(distinct_count), max(distinct_count)
  FROM parquet_fdw.metadata('/tmp/parquet_fdw_test/out/column_stats.parquet')
 GROUP BY 1 ORDER BY 1;

SELECT q, top_plan_rows(replace(q, 'TBL', 'cs_fdw')) AS fdw, top_plan_rows(replace(q, 'TBL', 'cs_heap')) AS heap
  FROM unnest(ARRAY[
    'SELECT k, count(*) FROM TBL GROUP BY k',
    'SELECT t, count(*) FROM TBL GROUP BY t',
    'SELECT n, count(*) FROM TBL GROUP BY n',
    'SELECT k, t, count(*) FROM TBL GROUP BY k, t',
    'SELECT u, count(*) FROM TBL GROUP BY u',
    'SELECT * FROM TBL WHERE n IS NULL',
    'SELECT * FROM TBL WHERE n IS NOT NULL',
    'SELECT DISTINCT k FROM TBL']) AS q;

-- a DuckDB-written file: its dictionary columns' distinct counts
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_snappy_dict.parquet', 'cs_duck') \gexec
CREATE TABLE cs_expected AS SELECT * FROM expected_types;
ANALYZE cs_expected;
SELECT q, top_plan_rows(replace(q, 'TBL', 'cs_duck')) AS fdw, top_plan_rows(replace(q, 'TBL', 'cs_expected')) AS heap
  FROM unnest(ARRAY[
    'SELECT c_enum, count(*) FROM TBL GROUP BY 1',
    'SELECT c_bool, count(*) FROM TBL GROUP BY 1',
    'SELECT * FROM TBL WHERE c_int4 IS NULL']) AS q;

-- ANALYZE's statistics win over the footers'
ALTER FOREIGN TABLE cs_fdw ALTER COLUMN k SET (n_distinct = 42);
ANALYZE cs_fdw;
SELECT top_plan_rows('SELECT k, count(*) FROM cs_fdw GROUP BY k') AS k_groups,
       top_plan_rows('SELECT t, count(*) FROM cs_fdw GROUP BY t') AS t_groups;

DROP FOREIGN TABLE cs_fdw, cs_duck;
DROP TABLE cs_heap, cs_expected;
