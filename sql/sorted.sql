-- The option sorted declares the order of the files' rows: the scan then
-- offers that order to the planner (no Sort under ORDER BY, Merge Join,
-- Gather Merge), checked against the footers' statistics.  Results are
-- compared with the same queries on a heap table.
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
COPY (SELECT 1) TO PROGRAM 'cat >/dev/null; mkdir -p /tmp/parquet_fdw_test/out/sorted; chmod 777 /tmp/parquet_fdw_test/out/sorted; rm -f /tmp/parquet_fdw_test/out/sorted/*; true';

CREATE TABLE so_heap AS
SELECT i AS k, (i * 7919 % 1000)::int4 AS v, 'r' || i AS name,
       CASE WHEN i % 5 = 0 THEN NULL ELSE (2000 - i / 3)::int4 END AS d
FROM generate_series(1, 6000) AS g(i);
-- two files, the second continuing the first; small row groups
COPY (SELECT * FROM so_heap WHERE k <= 3000 ORDER BY k)
    TO '/tmp/parquet_fdw_test/out/sorted/a.parquet' WITH (FORMAT parquet, row_group_size 500);
COPY (SELECT * FROM so_heap WHERE k > 3000 ORDER BY k)
    TO '/tmp/parquet_fdw_test/out/sorted/b.parquet' WITH (FORMAT parquet, row_group_size 500);
CREATE FOREIGN TABLE so_k (k int4, v int4, name text, d int4) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/sorted', sorted 'k');
-- the same files without the option
CREATE FOREIGN TABLE so_plain (k int4, v int4, name text, d int4) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/sorted');

-- ORDER BY the key: no Sort; LIMIT stops after the first rows
EXPLAIN (COSTS OFF) SELECT k, name FROM so_k ORDER BY k LIMIT 3;
SELECT k, name FROM so_k ORDER BY k LIMIT 3;
EXPLAIN (COSTS OFF) SELECT k FROM so_k WHERE v < 10 ORDER BY k;
EXPLAIN (COSTS OFF) SELECT k, name FROM so_plain ORDER BY k LIMIT 3;
-- ORDER BY k DESC reads backwards: not offered, PostgreSQL sorts
EXPLAIN (COSTS OFF) SELECT k FROM so_k ORDER BY k DESC LIMIT 3;

-- every row, in order, as the heap gives it
CREATE FUNCTION so_same(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    got text;
    want text;
BEGIN
    EXECUTE format('SELECT md5(string_agg(x::text, %L)) FROM (%s) x', '|', q) INTO got;
    EXECUTE format('SELECT md5(string_agg(x::text, %L)) FROM (%s) x', '|',
                   replace(replace(q, 'so_k', 'so_heap'), 'so_d', 'so_heap')) INTO want;
    RETURN CASE WHEN got = want THEN 'same' ELSE 'DIFFERENT' END;
END
$$;
SELECT so_same('SELECT k, v, name FROM so_k ORDER BY k');
SELECT so_same('SELECT k, v FROM so_k WHERE v BETWEEN 100 AND 200 ORDER BY k');

-- Merge Join of two sorted scans needs no Sort
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF)
    SELECT a.k, b.v FROM so_k a JOIN so_k b ON a.k = b.k WHERE a.v = 3;
SELECT so_same('SELECT a.k, b.v FROM so_k a JOIN so_k b ON a.k = b.k WHERE a.v = 3 ORDER BY a.k');
RESET enable_hashjoin;
RESET enable_nestloop;

-- Gather Merge over a parallel scan: each process's row groups are in order
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT k, v FROM so_k WHERE v > 500 ORDER BY k;
SELECT so_same('SELECT k, v FROM so_k WHERE v > 500 ORDER BY k');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- a descending key with NULLs first, then a second key
COPY (SELECT * FROM so_heap ORDER BY d DESC NULLS FIRST, k DESC)
    TO '/tmp/parquet_fdw_test/out/sorted/d.parquet' WITH (FORMAT parquet, row_group_size 700);
CREATE FOREIGN TABLE so_d (k int4, v int4, name text, d int4) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/sorted/d.parquet',
             sorted 'd DESC NULLS FIRST, k DESC');
EXPLAIN (COSTS OFF) SELECT d, k FROM so_d ORDER BY d DESC, k DESC LIMIT 4;
SELECT d, k FROM so_d ORDER BY d DESC, k DESC LIMIT 4;
SELECT so_same('SELECT d, k FROM so_d ORDER BY d DESC, k DESC');
-- ORDER BY d DESC NULLS LAST is another order: sorted by PostgreSQL
EXPLAIN (COSTS OFF) SELECT d FROM so_d ORDER BY d DESC NULLS LAST LIMIT 4;

-- The footers contradict the declaration: an error, not a wrong order.
CREATE FOREIGN TABLE so_wrong (k int4, v int4, name text, d int4) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/sorted/a.parquet', sorted 'v');
SELECT expect_error('SELECT k FROM so_wrong ORDER BY v LIMIT 1');
SELECT k FROM so_wrong ORDER BY v LIMIT 1;
-- any query of the table plans its scan: the same error
SELECT count(*) FROM so_wrong;
-- NULLs first in the file, declared last
ALTER FOREIGN TABLE so_wrong OPTIONS (SET filename '/tmp/parquet_fdw_test/out/sorted/d.parquet', SET sorted 'd DESC NULLS LAST');
SELECT expect_error('SELECT d FROM so_wrong ORDER BY d DESC NULLS LAST LIMIT 1');
-- ascending files, declared descending
ALTER FOREIGN TABLE so_wrong OPTIONS (SET filename '/tmp/parquet_fdw_test/out/sorted/[ab].parquet', SET sorted 'k DESC');
SELECT expect_error('SELECT k FROM so_wrong ORDER BY k DESC LIMIT 1');

-- The option's syntax is checked when it is set, its columns when planned.
ALTER FOREIGN TABLE so_wrong OPTIONS (SET sorted 'k DESC DESC');
ALTER FOREIGN TABLE so_wrong OPTIONS (SET sorted 'k NULLS');
ALTER FOREIGN TABLE so_wrong OPTIONS (SET sorted 'k, ');
ALTER FOREIGN TABLE so_wrong OPTIONS (SET sorted '"k');
ALTER FOREIGN TABLE so_wrong OPTIONS (SET sorted 'nope');
SELECT k FROM so_wrong LIMIT 1;
