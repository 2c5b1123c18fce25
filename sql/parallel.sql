-- Parallel foreign scans: the workers and the leader take row groups from
-- one cursor in shared memory.  Every query here must return exactly what
-- the heap table with the same rows returns (EXCEPT ALL both ways: 0 rows
-- differ), and the row groups read, summed over the processes, must be
-- each row group once.  Files: our COPY TO with many small row groups
-- (plain; v2 pages, zstd and a Bloom filter; encrypted), one and several
-- files per table.
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 3;
-- the aggregates here test the scan under them, not grouped scans
SET parquet_fdw.enable_grouped_scan = off;
COPY (SELECT 1) TO PROGRAM 'cat >/dev/null; mkdir -p /tmp/parquet_fdw_test/out; chmod 777 /tmp/parquet_fdw_test/out 2>/dev/null; rm -f /tmp/parquet_fdw_test/out/par_*; rm -f /tmp/parquet_fdw_test/keys/par_*.key; true';
SET parquet_fdw.key_directory = '/tmp/parquet_fdw_test/keys';
SELECT parquet_fdw.create_key('par_footer');

CREATE TYPE par_pair AS (a int4, b text);
CREATE TABLE par_src (
    id int8 NOT NULL, grp int4, name text, amount numeric(12,2),
    ratio float8, day date, tags int4[], pair par_pair, doc jsonb
);
INSERT INTO par_src
SELECT i,
  CASE WHEN i % 13 = 1 THEN NULL ELSE (i % 10)::int4 END,
  CASE WHEN i % 13 = 2 THEN NULL ELSE 'n' || (i % 700) END,
  CASE WHEN i % 13 = 3 THEN NULL ELSE (i * 37 % 100000) * 0.01 - 300 END,
  CASE WHEN i % 13 = 4 THEN NULL ELSE i / 7.0 END,
  CASE WHEN i % 13 = 5 THEN NULL ELSE DATE '2020-01-01' + (i % 1000)::int END,
  CASE WHEN i % 13 = 6 THEN NULL WHEN i % 13 = 7 THEN '{}'
       ELSE ARRAY[i::int4, NULL, (i % 5)::int4] END,
  CASE WHEN i % 13 = 8 THEN NULL ELSE ROW((i % 100)::int4, 'p' || i)::par_pair END,
  CASE WHEN i % 13 = 9 THEN NULL ELSE jsonb_build_object('i', i, 'odd', i % 2 = 1) END
FROM generate_series(1, 60000) AS g(i);

COPY par_src TO '/tmp/parquet_fdw_test/out/par_a.parquet'
  WITH (FORMAT parquet, row_group_size 2000);
COPY (SELECT * FROM par_src WHERE id <= 30000) TO '/tmp/parquet_fdw_test/out/par_b1.parquet'
  WITH (FORMAT parquet, row_group_size 3000, page_version 2, compression zstd,
        bloom_filter 'name');
COPY (SELECT * FROM par_src WHERE id > 30000) TO '/tmp/parquet_fdw_test/out/par_b2.parquet'
  WITH (FORMAT parquet, row_group_size 2500, page_version 2, compression zstd,
        bloom_filter 'name');
COPY par_src TO '/tmp/parquet_fdw_test/out/par_enc.parquet'
  WITH (FORMAT parquet, row_group_size 4000, footer_key 'par_footer');

CREATE FOREIGN TABLE par_one (
    id int8, grp int4, name text, amount numeric(12,2), ratio float8,
    day date, tags int4[], pair par_pair, doc jsonb
) SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/par_a.parquet');
CREATE FOREIGN TABLE par_many (
    id int8, grp int4, name text, amount numeric(12,2), ratio float8,
    day date, tags int4[], pair par_pair, doc jsonb
) SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/par_b*.parquet');
CREATE FOREIGN TABLE par_enc (
    id int8, grp int4, name text, amount numeric(12,2), ratio float8,
    day date, tags int4[], pair par_pair, doc jsonb
) SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/par_enc.parquet', footer_key 'par_footer');

-- parallel_workers: as the storage parameter, 0 to 1024
ALTER FOREIGN TABLE par_one OPTIONS (ADD parallel_workers 'x');
ALTER FOREIGN TABLE par_one OPTIONS (ADD parallel_workers '1025');

-- The lines of EXPLAIN ANALYZE that do not depend on which process read
-- which row group.
CREATE FUNCTION par_explain(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q
    LOOP
        IF line ~ '(Parallel|Gather|Workers|Row Groups|Pages|Rows Removed by Parquet|Columns Read)' THEN
            RETURN NEXT regexp_replace(line, '\(actual rows=.*\)', '');
        END IF;
    END LOOP;
END $$;

-- serial plans first: the same answers without workers
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT * FROM par_one;
SELECT count(*) FROM (SELECT * FROM par_one EXCEPT ALL SELECT * FROM par_src) d;

SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;

-- every column, every row: each row once, whichever process read it
EXPLAIN (COSTS OFF) SELECT * FROM par_one;
SELECT * FROM par_explain('SELECT * FROM par_one');
SELECT count(*) FROM (SELECT * FROM par_one EXCEPT ALL SELECT * FROM par_src) d;
SELECT count(*) FROM (SELECT * FROM par_src EXCEPT ALL SELECT * FROM par_one) d;
SELECT count(*) FROM (SELECT * FROM par_many EXCEPT ALL SELECT * FROM par_src) d;
SELECT count(*) FROM (SELECT * FROM par_src EXCEPT ALL SELECT * FROM par_many) d;
SELECT * FROM par_explain('SELECT * FROM par_enc');
SELECT count(*) FROM (SELECT * FROM par_enc EXCEPT ALL SELECT * FROM par_src) d;
SELECT count(*) FROM (SELECT * FROM par_src EXCEPT ALL SELECT * FROM par_enc) d;

-- the leader takes row groups too
SET parallel_leader_participation = on;
SELECT count(*) FROM (SELECT * FROM par_one EXCEPT ALL SELECT * FROM par_src) d;
SELECT count(*) FROM (SELECT * FROM par_src EXCEPT ALL SELECT * FROM par_one) d;

-- partial aggregates under Gather, with filters on batches and pruning
EXPLAIN (COSTS OFF)
SELECT grp, count(*), sum(amount), min(day), max(id) FROM par_one
WHERE id BETWEEN 10001 AND 25000 GROUP BY grp;
SELECT * FROM par_explain('SELECT grp, count(*), sum(amount), min(day), max(id) FROM par_one WHERE id BETWEEN 10001 AND 25000 GROUP BY grp');
SELECT count(*) FROM (
  (SELECT grp, count(*), sum(amount), min(day), max(id) FROM par_one
   WHERE id BETWEEN 10001 AND 25000 GROUP BY grp)
  EXCEPT ALL
  (SELECT grp, count(*), sum(amount), min(day), max(id) FROM par_src
   WHERE id BETWEEN 10001 AND 25000 GROUP BY grp)) d;
-- a name within every row group's min/max that no row has: Bloom filters
SELECT * FROM par_explain('SELECT count(*) FROM par_many WHERE name = ''n70x''');
SELECT count(*) FROM par_many WHERE name IN ('n70x', 'n70');
SELECT count(*) FROM par_src WHERE name IN ('n70x', 'n70');

-- whole rows formed by the workers
SELECT count(*) FROM (
  SELECT row_to_json(t)::text FROM par_one t WHERE grp = 3
  EXCEPT ALL SELECT row_to_json(s)::text FROM par_src s WHERE grp = 3) d;

-- pruning values from a generic plan's parameters, evaluated by each process
SET plan_cache_mode = force_generic_plan;
PREPARE par_q(int8) AS
  SELECT count(*), sum(amount), sum(id) FROM par_one WHERE id > $1;
EXPLAIN (COSTS OFF) EXECUTE par_q(55000);
SELECT * FROM par_explain('EXECUTE par_q(55000)');
EXECUTE par_q(55000);
SELECT count(*), sum(amount), sum(id) FROM par_src WHERE id > 55000;
DEALLOCATE par_q;
RESET plan_cache_mode;

-- a Gather rescanned by a nested loop: the cursor starts again each time,
-- and every rescan reads the 30 row groups once
SET enable_material = off;
SELECT * FROM par_explain('SELECT * FROM (SELECT count(*), sum(id) FROM par_one WHERE grp = 1) ss RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true');
SELECT * FROM (SELECT count(*), sum(id) FROM par_one WHERE grp = 1) ss
  RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true;
SELECT count(*), sum(id) FROM par_src WHERE grp = 1;
RESET enable_material;

-- Too few row groups for the processes: each row group of a file with a
-- page index is cut into equal row ranges, each read through the page
-- index by whichever process takes it.  2 row groups of 30000 rows, pages
-- of about 2000 bytes, 2 workers: 3 pieces each (at least 8192 rows).
COPY (SELECT * FROM par_src ORDER BY id) TO '/tmp/parquet_fdw_test/out/par_split.parquet'
  WITH (FORMAT parquet, row_group_size 30000, data_page_size 2000);
CREATE FOREIGN TABLE par_split (
    id int8, grp int4, name text, amount numeric(12,2), ratio float8,
    day date, tags int4[], pair par_pair, doc jsonb
) SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/par_split.parquet');
SET parallel_leader_participation = off;
SELECT * FROM par_explain('SELECT * FROM par_split');
SELECT count(*) FROM (SELECT * FROM par_split EXCEPT ALL SELECT * FROM par_src) d;
SELECT count(*) FROM (SELECT * FROM par_src EXCEPT ALL SELECT * FROM par_split) d;
-- with filters, page index pruning and whole rows
SELECT * FROM par_explain('SELECT count(*), sum(amount) FROM par_split WHERE id BETWEEN 20001 AND 41000 AND grp <> 4');
SELECT count(*), sum(amount) FROM par_split WHERE id BETWEEN 20001 AND 41000 AND grp <> 4;
SELECT count(*), sum(amount) FROM par_src WHERE id BETWEEN 20001 AND 41000 AND grp <> 4;
SELECT count(*) FROM (
  SELECT row_to_json(t)::text FROM par_split t WHERE name LIKE 'n1%'
  EXCEPT ALL SELECT row_to_json(t)::text FROM par_src t WHERE name LIKE 'n1%') d;
-- declared sorted: Gather Merge, each process's pieces in order
ALTER FOREIGN TABLE par_split OPTIONS (ADD sorted 'id');
EXPLAIN (COSTS OFF) SELECT id FROM par_split WHERE grp = 2 ORDER BY id;
SELECT count(*), bool_and(id > prev) FROM (
  SELECT id, lag(id, 1, 0::int8) OVER () AS prev
  FROM (SELECT id FROM par_split WHERE grp = 2 ORDER BY id) s) x;
SELECT count(*) FROM par_src WHERE grp = 2;
SET parallel_leader_participation = on;

-- force_parallel_mode (debug_parallel_query from PostgreSQL 16): the whole
-- plan runs in one worker under a Gather, over every kind of file above
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000
       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END AS force_parallel \gset
SET :force_parallel = on;
SET parallel_setup_cost = 1e9;
EXPLAIN (COSTS OFF) SELECT count(*), sum(amount) FROM par_split WHERE grp = 1;
SELECT (SELECT row(count(*), sum(amount), sum(id)) FROM par_one WHERE grp = 1)
     = (SELECT row(count(*), sum(amount), sum(id)) FROM par_src WHERE grp = 1) AS one,
       (SELECT row(count(*), sum(amount), sum(id)) FROM par_many WHERE name LIKE 'n2%')
     = (SELECT row(count(*), sum(amount), sum(id)) FROM par_src WHERE name LIKE 'n2%') AS many,
       (SELECT row(count(*), sum(amount), sum(id)) FROM par_enc WHERE day > DATE '2021-06-01')
     = (SELECT row(count(*), sum(amount), sum(id)) FROM par_src WHERE day > DATE '2021-06-01') AS enc,
       (SELECT row(count(*), sum(amount), sum(id)) FROM par_split WHERE id % 7 = 3)
     = (SELECT row(count(*), sum(amount), sum(id)) FROM par_src WHERE id % 7 = 3) AS split;
SELECT count(*) FROM (SELECT * FROM par_one WHERE grp = 5 EXCEPT ALL
                      SELECT * FROM par_src WHERE grp = 5) d;
RESET :force_parallel;
SET parallel_setup_cost = 0;

-- the option: parallel_workers 0 keeps the scan serial
ALTER FOREIGN TABLE par_one OPTIONS (ADD parallel_workers '0');
EXPLAIN (COSTS OFF) SELECT sum(id) FROM par_one;
ALTER FOREIGN TABLE par_one OPTIONS (SET parallel_workers '3');
EXPLAIN (COSTS OFF) SELECT sum(id) FROM par_one;

RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;
