-- count(*) of a foreign table without quals is answered from the footers
-- (the sum of the row groups' row counts): no data page is read.  Uses the
-- tables and files of the parallel test; every count is compared with the
-- heap table's.  Anything else (quals, GROUP BY, count(col), FILTER,
-- HAVING, joins) keeps PostgreSQL's Aggregate over the scan.
SET parquet_fdw.key_directory = '/tmp/parquet_fdw_test/keys';

EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM par_one;
SELECT * FROM par_explain('SELECT count(*) FROM par_many');
SELECT (SELECT count(*) FROM par_one) = (SELECT count(*) FROM par_src) AS one,
       (SELECT count(*) FROM par_many) = (SELECT count(*) FROM par_src) AS many,
       (SELECT count(*) FROM par_enc) = (SELECT count(*) FROM par_src) AS enc;
SELECT count(*), count(*) * 2 AS twice, count(*) + 1 AS plus FROM par_one;
SELECT count(*), count(*) * 2 AS twice, count(*) + 1 AS plus FROM par_src;
-- with parallel plans on offer, the footers still win
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_many;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- an empty file: 0
COPY (SELECT * FROM par_src WHERE false) TO '/tmp/parquet_fdw_test/out/par_empty.parquet'
  WITH (FORMAT parquet);
CREATE FOREIGN TABLE par_empty (id int8) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/par_empty.parquet');
SELECT count(*) FROM par_empty;

-- the footers are read when the statement runs, not when it was planned
COPY (SELECT * FROM par_src WHERE id <= 1000) TO '/tmp/parquet_fdw_test/out/par_chg.parquet'
  WITH (FORMAT parquet, row_group_size 300);
CREATE FOREIGN TABLE par_chg (id int8) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/par_chg.parquet');
SET plan_cache_mode = force_generic_plan;
PREPARE par_count AS SELECT count(*) FROM par_chg;
EXECUTE par_count;
COPY (SELECT * FROM par_src WHERE id <= 2500) TO '/tmp/parquet_fdw_test/out/par_chg.parquet'
  WITH (FORMAT parquet, row_group_size 700);
EXECUTE par_count;
DEALLOCATE par_count;
RESET plan_cache_mode;

-- not answered from the footers: PostgreSQL aggregates the scan's rows
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_one WHERE id > 5;
EXPLAIN (COSTS OFF) SELECT count(id) FROM par_one;
EXPLAIN (COSTS OFF) SELECT count(*) FILTER (WHERE id > 3) FROM par_one;
EXPLAIN (COSTS OFF) SELECT grp, count(*) FROM par_one GROUP BY grp;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_one HAVING count(*) > 1;
EXPLAIN (COSTS OFF) SELECT count(*), sum(id) FROM par_one;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_one a, par_chg b;
SELECT count(*) FROM par_one WHERE id > 5;
SELECT count(*) FROM par_src WHERE id > 5;
