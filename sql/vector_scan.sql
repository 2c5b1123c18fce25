-- Vector scans (fdw/pushdown/vector_scan.c): quals the batch filter
-- cannot take (function calls, expressions of several columns, CASE) and
-- the expressions a query projects run inside a plain scan on whole
-- batches, a function of a dictionary-encoded column once per entry.
-- Every answer is compared with the same query on the heap table rf_src
-- (EXCEPT ALL both ways: 0 rows differ); errors are PostgreSQL's.
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 3;
SET max_parallel_workers_per_gather = 0;
COPY (SELECT 1) TO PROGRAM 'cat >/dev/null; mkdir -p /tmp/parquet_fdw_test/out; chmod 777 /tmp/parquet_fdw_test/out 2>/dev/null; rm -f /tmp/parquet_fdw_test/out/rf_*; true';

CREATE TABLE rf_src (
    id int8 NOT NULL, grp int4, code text, note text, day date,
    ts timestamp, ratio float8, amount numeric(10,2), flag bool
);
-- code: 37 values (dictionary-encoded); note: distinct (plain pages)
INSERT INTO rf_src
SELECT i,
  CASE WHEN i % 11 = 1 THEN NULL ELSE (i % 9)::int4 END,
  CASE WHEN i % 11 = 2 THEN NULL ELSE 'Code-' || (i % 37) END,
  CASE WHEN i % 11 = 3 THEN NULL ELSE md5(i::text) END,
  CASE WHEN i % 11 = 4 THEN NULL ELSE DATE '2021-01-01' + (i % 400) END,
  TIMESTAMP '2021-01-01' + i * interval '17 minutes',
  CASE WHEN i % 11 = 5 THEN NULL ELSE i / 3.0 END,
  (i % 1000) * 0.25,
  CASE WHEN i % 11 = 6 THEN NULL ELSE i % 3 = 0 END
FROM generate_series(1, 30000) AS g(i);

COPY rf_src TO '/tmp/parquet_fdw_test/out/rf_a.parquet'
  WITH (FORMAT parquet, row_group_size 4000);
COPY (SELECT * FROM rf_src WHERE id <= 15000) TO '/tmp/parquet_fdw_test/out/rf_b1.parquet'
  WITH (FORMAT parquet, row_group_size 3000, page_version 2, compression zstd);
COPY (SELECT * FROM rf_src WHERE id > 15000) TO '/tmp/parquet_fdw_test/out/rf_b2.parquet'
  WITH (FORMAT parquet, row_group_size 2500, page_version 2, compression zstd);
CREATE FOREIGN TABLE rf_one (
    id int8, grp int4, code text, note text, day date, ts timestamp,
    ratio float8, amount numeric(10,2), flag bool
) SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/rf_a.parquet');
CREATE FOREIGN TABLE rf_many (
    id int8, grp int4, code text, note text, day date, ts timestamp,
    ratio float8, amount numeric(10,2), flag bool
) SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/rf_b*.parquet');

-- q over rf_one and rf_many against rf_src: whether the scan ran a row
-- filter and computed columns, the heap's row count, and rows in one answer
-- but not the other
CREATE FUNCTION rf_same(q text) RETURNS TABLE (tbl text, row_filter bool, computed bool, heap_rows bigint, differing bigint)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    q_fdw text;
    q_heap text := replace(q, 'TBL', 'rf_src');
BEGIN
    FOREACH tbl IN ARRAY ARRAY['rf_one', 'rf_many'] LOOP
        q_fdw := replace(q, 'TBL', tbl);
        row_filter := false;
        computed := false;
        FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q_fdw LOOP
            row_filter := row_filter OR line ~ 'Parquet Row Filter';
            computed := computed OR line ~ 'Parquet Computed Columns';
        END LOOP;
        EXECUTE format('SELECT count(*) FROM (%s) x', q_heap) INTO heap_rows;
        differing := rows_differing(q_fdw, q_heap);
        RETURN NEXT;
    END LOOP;
END $$;

-- The plan: the batch filter takes grp > 3, the row filter the call
SELECT explain_filter('COSTS OFF', $q$SELECT id, code FROM rf_one WHERE upper(code) LIKE '%-1%' AND grp > 3$q$);
SELECT explain_filter('ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF',
    $q$SELECT id, code FROM rf_one WHERE upper(code) LIKE '%-1%' AND grp > 3$q$);
-- the rows the batch filter removed, and those the row filter removed
-- (NULL codes included: the qual is not true for them)
SELECT count(*) FILTER (WHERE (grp > 3) IS NOT TRUE) AS batch_filter,
       count(*) FILTER (WHERE grp > 3 AND (upper(code) LIKE '%-1%') IS NOT TRUE) AS row_filter
  FROM rf_src;

-- functions of a dictionary column, of a plain one, of dates and timestamps
SELECT * FROM rf_same($$SELECT id, code FROM TBL WHERE lower(code) = 'code-7'$$);
SELECT * FROM rf_same($$SELECT id FROM TBL WHERE upper(code) LIKE '%-1%' AND grp > 3$$);
SELECT * FROM rf_same($$SELECT id, note FROM TBL WHERE substr(note, 1, 1) = 'a'$$);
-- (IN over a call is left to the executor, as is IS NOT TRUE below)
SELECT * FROM rf_same($$SELECT id, note FROM TBL WHERE substr(note, 1, 1) IN ('a', 'b')$$);
SELECT * FROM rf_same($$SELECT * FROM TBL WHERE regexp_replace(code, '-.*$', '') = 'Code' AND id % 7 = 0$$);
SELECT * FROM rf_same($$SELECT id, ts FROM TBL WHERE date_trunc('month', ts) = '2021-03-01'$$);
SELECT * FROM rf_same($$SELECT id, day FROM TBL WHERE extract(dow FROM day) = 1$$);
SELECT * FROM rf_same($$SELECT id, code FROM TBL WHERE flag AND length(code) = 7$$);
-- expressions of several columns, CASE, NULLs
SELECT * FROM rf_same($$SELECT id, grp FROM TBL WHERE grp * 2 > id % 10$$);
SELECT * FROM rf_same($$SELECT id FROM TBL WHERE CASE WHEN grp IS NULL THEN ratio > 100 ELSE grp = 3 END$$);
SELECT * FROM rf_same($$SELECT id FROM TBL WHERE NOT (length(code) > 6)$$);
SELECT * FROM rf_same($$SELECT id FROM TBL WHERE (length(code) > 6) IS NOT TRUE$$);
SELECT * FROM rf_same($$SELECT id, ratio FROM TBL WHERE ratio / 3 > grp$$);
-- whole rows of the rows kept
SELECT * FROM rf_same($$SELECT t FROM TBL t WHERE lower(code) = 'code-3'$$);
SELECT * FROM rf_same($$SELECT row_to_json(t) FROM TBL t WHERE length(code) = 6 AND id % 5 = 1$$);
-- no row passes
SELECT * FROM rf_same($$SELECT id FROM TBL WHERE lower(code) = 'none'$$);

-- Computed columns: what the scan projects, alone or with the filters
SELECT explain_filter('VERBOSE, COSTS OFF', $q$SELECT id, lower(code), grp * 2 + 1 FROM rf_one WHERE length(code) = 7$q$);
SELECT * FROM rf_same($$SELECT id, lower(code), length(note), grp * 2 + 1, CASE WHEN grp > 3 THEN code ELSE 'x' END FROM TBL$$);
SELECT * FROM rf_same($$SELECT extract(dow FROM day), date_trunc('month', ts), ratio / 3, flag AND grp > 2 FROM TBL$$);
SELECT * FROM rf_same($$SELECT regexp_replace(code, '^(\w+)-.*$', '\1'), id FROM TBL WHERE length(code) = 7$$);
SELECT * FROM rf_same($$SELECT upper(code), substr(note, 3, 4) FROM TBL WHERE grp > 5$$);
SELECT * FROM rf_same($$SELECT t, lower(code) FROM TBL t WHERE grp = 2$$);
SELECT * FROM rf_same($$SELECT lower(code) AS c, id FROM TBL ORDER BY 1, 2 LIMIT 20$$);
SELECT * FROM rf_same($$SELECT 100 / (grp - 4) FROM TBL WHERE grp <> 4$$);
-- a LIMIT without ORDER BY may stop the scan early: left to the executor
SELECT explain_filter('COSTS OFF', $q$SELECT lower(code) FROM rf_one WHERE length(code) = 7 LIMIT 3$q$);
SET parquet_fdw.enable_scan_projection = off;
SELECT * FROM rf_same($$SELECT id, lower(code), grp * 2 + 1 FROM TBL$$);
RESET parquet_fdw.enable_scan_projection;

-- Errors are PostgreSQL's; rows the batch filter removed are never
-- evaluated, nor the dictionary entries only they use ('Code-0' to
-- 'Code-9' would divide by zero)
\set VERBOSITY terse
SELECT id FROM rf_one WHERE 100 / (grp - 4) > 1;
SELECT id FROM rf_src WHERE 100 / (grp - 4) > 1;
SELECT 100 / (grp - 4) FROM rf_one;
SELECT 100 / (grp - 4) FROM rf_src;
\set VERBOSITY default
SELECT * FROM rf_same($$SELECT id FROM TBL WHERE grp <> 4 AND 100 / (grp - 4) > 1$$);
SELECT * FROM rf_same($$SELECT id FROM TBL WHERE code LIKE 'Code-1_' AND 1 / (length(code) - 6) = 1$$);

-- Left to the executor: numeric columns (vectors hold them unscaled),
-- parameters, quals under a security barrier, and with the switch off
SELECT explain_filter('COSTS OFF', $q$SELECT id FROM rf_one WHERE amount * 2 > 100$q$);
SELECT * FROM rf_same($$SELECT id FROM TBL WHERE amount * 2 > 100$$);
PREPARE rf_p(text) AS SELECT id FROM rf_one WHERE lower(code) = $1;
SET plan_cache_mode = force_generic_plan;
SELECT explain_filter('COSTS OFF', $q$EXECUTE rf_p('code-7')$q$);
RESET plan_cache_mode;
CREATE VIEW rf_view WITH (security_barrier) AS SELECT * FROM rf_one WHERE grp > 2;
SELECT explain_filter('COSTS OFF', $q$SELECT id FROM rf_view WHERE lower(code) = 'code-7'$q$);
SET parquet_fdw.enable_row_filter = off;
SELECT explain_filter('COSTS OFF', $q$SELECT id, code FROM rf_one WHERE lower(code) = 'code-7'$q$);
SELECT * FROM rf_same($$SELECT id, code FROM TBL WHERE lower(code) = 'code-7'$$);
RESET parquet_fdw.enable_row_filter;

-- A rescanned scan (inner side of a nested loop): three times the rows
SET enable_material = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT count(*) AS fdw,
       (SELECT 3 * count(*) FROM rf_src WHERE lower(code) = 'code-7') AS heap
  FROM generate_series(1, 3) g,
       LATERAL (SELECT id FROM rf_one WHERE lower(code) = 'code-7' OFFSET 0) s;
RESET enable_material;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- Parallel scans: each process selects the rows of its batches; the
-- removed rows, summed over the processes, are the heap's count
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
ALTER FOREIGN TABLE rf_one OPTIONS (ADD parallel_workers '2');
ALTER FOREIGN TABLE rf_many OPTIONS (ADD parallel_workers '2');
SELECT * FROM rf_same($$SELECT id, code FROM TBL WHERE upper(code) LIKE '%-1%' AND grp > 3$$);
SELECT * FROM rf_same($$SELECT t FROM TBL t WHERE lower(code) = 'code-3' OR length(note) < 32$$);
SELECT * FROM rf_same($$SELECT id, lower(code), extract(dow FROM day) FROM TBL WHERE grp > 3$$);
CREATE FUNCTION rf_removed(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Gather|Rows Removed by Parquet Row Filter' THEN
            RETURN NEXT regexp_replace(line, '\(actual .*\)', '');
        END IF;
    END LOOP;
END $$;
SELECT rf_removed($q$SELECT id, code FROM rf_one WHERE upper(code) LIKE '%-1%' AND grp > 3$q$);
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
