-- Partitioned parallel grouping (fdw/pushdown/group_shared.h): under
-- Gather, each process writes the rows it reads to shared partition files
-- by the hash of their keys, then aggregates whole partitions to final
-- groups.  Every answer is compared with the same query on the heap table
-- par_src (the parallel test's rows); float sums are rounded, as their
-- order of addition is no longer the file's.
SET datestyle = 'ISO, YMD';
SET parquet_fdw.key_directory = '/tmp/parquet_fdw_test/keys';
SET max_parallel_workers_per_gather = 2;
-- the partitioned plan is the cheapest on these small tables when
-- starting workers costs nothing; it is offered for many groups (over
-- 10,000, or a count nothing tells: keys such as id % 10007) or DISTINCT,
-- unless one key of 8 bytes or with dictionary indices decides them
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;

-- q over par_one, par_many (two files) and par_enc (encrypted) against
-- par_src: whether it ran partitioned, and rows in one answer but not the
-- other (as text)
CREATE FUNCTION gp_same(q text) RETURNS TABLE (tbl text, partitioned bool, differing bigint)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    q_fdw text;
    q_heap text := replace(q, 'TBL', 'par_src');
BEGIN
    FOREACH tbl IN ARRAY ARRAY['par_one', 'par_many', 'par_enc'] LOOP
        q_fdw := replace(q, 'TBL', tbl);
        partitioned := false;
        FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q_fdw LOOP
            IF line ~ 'Shared Partitions: 16' THEN
                partitioned := true;
            END IF;
        END LOOP;
        differing := rows_differing(q_fdw, q_heap);
        RETURN NEXT;
    END LOOP;
END $$;

-- the plans: Gather over the grouping relation's scan; Limit over Gather
-- Merge over each process's best groups
SELECT explain_filter('COSTS OFF', $q$SELECT id % 10007, id % 2, count(*), max(day) FROM par_one GROUP BY 1, 2$q$);
SELECT explain_filter('COSTS OFF', $q$SELECT id % 10007, id % 2, count(*) FROM par_one GROUP BY 1, 2
 ORDER BY count(*) DESC, 1, 2 LIMIT 5 OFFSET 3$q$);
-- few groups: partial states, not partitions; one integer key: partial
-- states too (its group table is faster than moving the rows)
SELECT explain_filter('COSTS OFF', $q$SELECT grp, count(*) FROM par_one GROUP BY grp$q$);
SELECT explain_filter('COSTS OFF', $q$SELECT id % 10007, count(*) FROM par_one GROUP BY 1$q$);

-- integer, date, text and numeric aggregates by each kind of key
SELECT * FROM gp_same($$SELECT id % 10007 AS b, grp, count(*), count(name), sum(id), avg(id),
    min(id), max(id), sum(grp), avg(grp), min(ratio), max(ratio), min(day), max(day),
    min(name), max(name), bool_and(id % 2 = 0), bool_or(grp > 8) FROM TBL GROUP BY 1, 2$$);
SELECT * FROM gp_same($$SELECT name, id % 10007, count(*), max(day) FROM TBL GROUP BY 1, 2$$);
SELECT * FROM gp_same($$SELECT day, grp, id % 10007, count(*), avg(id), min(name) FROM TBL
    GROUP BY 1, 2, 3$$);
SELECT * FROM gp_same($$SELECT id % 7 AS k, grp IS NULL AS n, sum(id) FROM TBL GROUP BY 1, 2$$);
SELECT * FROM gp_same($$SELECT id % 10007, id % 2, sum(amount), avg(amount), min(amount), max(amount),
    count(amount), sum(amount * 2 - 1) FROM TBL GROUP BY 1, 2$$);
-- one group per row
SELECT * FROM gp_same($$SELECT id, name, count(*), max(day) FROM TBL GROUP BY id, name$$);
-- DISTINCT aggregates: a group's values all land in one partition
SELECT * FROM gp_same($$SELECT grp, count(DISTINCT name), sum(DISTINCT id % 100),
    avg(DISTINCT amount), count(DISTINCT day), max(DISTINCT name), count(*) FROM TBL GROUP BY grp$$);
SELECT * FROM gp_same($$SELECT day, name, count(DISTINCT grp) FROM TBL WHERE id < 30000 GROUP BY 1, 2$$);
-- FILTER, HAVING, quals the scan evaluates itself (function calls)
SELECT * FROM gp_same($$SELECT id % 10007, id % 2, count(*) FILTER (WHERE id % 2 = 0),
    sum(id) FILTER (WHERE grp > 3) FROM TBL GROUP BY 1, 2 HAVING count(*) > 5$$);
SELECT * FROM gp_same($$SELECT id % 10007, grp, count(*) FROM TBL
    WHERE lower(name) <> 'n7' AND id > 100 GROUP BY 1, 2$$);
-- the best groups, LIMIT and OFFSET, ties broken by a key
SELECT * FROM gp_same($$SELECT id % 10007, id % 2, count(*) FROM TBL GROUP BY 1, 2
    ORDER BY count(*) DESC, 1, 2 LIMIT 5 OFFSET 3$$);
SELECT * FROM gp_same($$SELECT grp, day, count(DISTINCT name) AS c FROM TBL GROUP BY grp, day
    ORDER BY c DESC, grp NULLS FIRST, day DESC LIMIT 7$$);

-- partitions past hash_mem spill again, privately, by the next hash bits
SET work_mem = '64kB';
SELECT * FROM gp_same($$SELECT id, name, count(*), sum(amount) FROM TBL GROUP BY id, name$$);
SELECT * FROM gp_same($$SELECT name, count(DISTINCT id) FROM TBL GROUP BY name$$);
RESET work_mem;

-- without the leader: the workers do it all
SET parallel_leader_participation = off;
SELECT * FROM gp_same($$SELECT id % 10007, id % 2, count(*), max(day) FROM TBL GROUP BY 1, 2$$);
SELECT * FROM gp_same($$SELECT id % 10007, id % 2, count(*) FROM TBL GROUP BY 1, 2
    ORDER BY count(*) DESC, 1, 2 LIMIT 5$$);
RESET parallel_leader_participation;

-- groups the processes counted, rows they wrote: each row once
SELECT line FROM explain_filter('ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF',
    $q$SELECT id % 10007, id % 2, count(*) FROM par_many GROUP BY 1, 2$q$) AS line
 WHERE line ~ '(Groups|Rows Written|Shared Partitions)';

-- Gather rescanned in a subplan: each scan starts afresh (each of the three
-- returns every group; the counters add up over the scans)
SELECT line FROM explain_filter('ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF',
    $q$SELECT g, (SELECT c FROM (SELECT id % 10007 AS k, id % 2 AS h, count(*) AS c FROM par_one
     GROUP BY 1, 2 OFFSET 0) s WHERE s.k = g.g AND s.h = 1) FROM generate_series(1, 3) g$q$) AS line
 WHERE line ~ '(Gather|Groups:|Rows Written|Shared Partitions)';
SELECT g, (SELECT c FROM (SELECT id % 10007 AS k, id % 2 AS h, count(*) AS c FROM par_one
    GROUP BY 1, 2 OFFSET 0) s WHERE s.k = g.g AND s.h = 1) FROM generate_series(1, 3) g;
SELECT g, (SELECT c FROM (SELECT id % 10007 AS k, id % 2 AS h, count(*) AS c FROM par_src
    GROUP BY 1, 2 OFFSET 0) s WHERE s.k = g.g AND s.h = 1) FROM generate_series(1, 3) g;

-- errors raised in any process are PostgreSQL's (terse: which process
-- raised it, leader or worker, shows in CONTEXT only)
\set VERBOSITY terse
SELECT id % 10007, id % 2, sum(100 / (id - 31234)) FROM par_one GROUP BY 1, 2;
SELECT id % 10007, id % 2, sum(id::int2) FROM par_one GROUP BY 1, 2;
\set VERBOSITY default

-- with parquet_fdw.enable_grouped_scan off, PostgreSQL aggregates
SET parquet_fdw.enable_grouped_scan = off;
EXPLAIN (COSTS OFF) SELECT id % 10007, id % 2, count(*) FROM par_one GROUP BY 1, 2;
RESET parquet_fdw.enable_grouped_scan;
DROP FUNCTION gp_same(text);
