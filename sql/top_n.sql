-- ORDER BY ... LIMIT over one foreign table computed inside the scan
-- (top-N scans, fdw/plan/top_n.c): a bounded heap of the best rows, row
-- groups skipped when their statistics show no row can enter it.  Every
-- answer is compared with the same query on the heap table par_src (the
-- parallel test's rows), in order; the keys end with id, so the order is
-- total.
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 1;
SET parquet_fdw.key_directory = '/tmp/parquet_fdw_test/keys';
SET max_parallel_workers_per_gather = 0;

-- whether q_fdw ran as a top-N scan, and whether its rows, in order, are
-- q_heap's
CREATE FUNCTION tn_check(q_fdw text, q_heap text, OUT top_n bool, OUT same bool)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
    a text[];
    b text[];
BEGIN
    top_n := false;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q_fdw LOOP
        IF line ~ 'Parquet Top-N: ' THEN
            top_n := true;
        END IF;
    END LOOP;
    EXECUTE format('SELECT array_agg(x::text) FROM (%s) x', q_fdw) INTO a;
    EXECUTE format('SELECT array_agg(x::text) FROM (%s) x', q_heap) INTO b;
    same := a IS NOT DISTINCT FROM b;
END $$;

CREATE FUNCTION tn_same(q text) RETURNS TABLE (tbl text, top_n bool, same bool)
LANGUAGE plpgsql AS $$
BEGIN
    FOREACH tbl IN ARRAY ARRAY['par_one', 'par_many', 'par_enc'] LOOP
        SELECT * INTO top_n, same
          FROM tn_check(replace(q, 'TBL', tbl), replace(q, 'TBL', 'par_src'));
        RETURN NEXT;
    END LOOP;
END $$;

EXPLAIN (VERBOSE, COSTS OFF)
SELECT id, name, ratio * 2 FROM par_one ORDER BY ratio DESC NULLS LAST, id LIMIT 5;
SELECT id, name, ratio * 2 FROM par_one ORDER BY ratio DESC NULLS LAST, id LIMIT 5;
SELECT id, name, ratio * 2 FROM par_src ORDER BY ratio DESC NULLS LAST, id LIMIT 5;

-- directions, NULLs first and last, several keys, each type's order
SELECT * FROM tn_same('SELECT id, ratio FROM TBL ORDER BY ratio, id LIMIT 7');
SELECT * FROM tn_same('SELECT id, ratio FROM TBL ORDER BY ratio DESC NULLS LAST, id LIMIT 7');
SELECT * FROM tn_same('SELECT id, grp, name FROM TBL ORDER BY grp NULLS FIRST, name DESC, id LIMIT 12');
SELECT * FROM tn_same('SELECT id, name FROM TBL ORDER BY name COLLATE "C", id DESC LIMIT 9');
SELECT * FROM tn_same('SELECT id, day, amount FROM TBL ORDER BY day DESC, amount, id LIMIT 11');
SELECT * FROM tn_same('SELECT id, amount FROM TBL ORDER BY amount DESC, id LIMIT 4 OFFSET 10');
SELECT * FROM tn_same('SELECT id, pair, tags FROM TBL ORDER BY id DESC LIMIT 3');
-- quals the scan evaluates; LIMIT 0; more rows asked than there are
SELECT * FROM tn_same('SELECT id, grp FROM TBL WHERE grp = 3 AND id > 30000 ORDER BY id LIMIT 5');
SELECT * FROM tn_same('SELECT id FROM TBL ORDER BY id LIMIT 0');
SELECT * FROM tn_same('SELECT id FROM TBL WHERE id < 20 ORDER BY id DESC LIMIT 100');

-- the heap fills from the first row group; in id order every later row
-- group starts past its worst row and is skipped, unread
CREATE FUNCTION tn_skipped(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ '(Row Groups|Top-N|Data Pages)' THEN
            RETURN NEXT regexp_replace(line, '\(actual rows=.*\)', '');
        END IF;
    END LOOP;
END $$;
SELECT * FROM tn_skipped('SELECT id, name FROM par_one ORDER BY id LIMIT 5');
SELECT * FROM tn_skipped('SELECT id, name FROM par_one ORDER BY id DESC LIMIT 5');

-- of a row group that is read, the pages whose page index shows no row can
-- enter are left out: tn_pages has pages of 1000 rows, each holding a fifth
-- of a 0..4999 run (so in its second row group only the pages of the
-- run's top or bottom fifth can enter), NULLs on every page, and is
-- compared with the same rows in the heap table tn_pages_src.  By hand:
-- DESC NULLS LAST keeps the second row group's 4 pages of 4001..4999
-- (16000 rows skipped); ASC the 8 holding 0 or 1 (12000); where NULLs sort
-- first and a page holds one, no page is skipped; with the quals' ranges
-- 20001..33000 the 5 pages of those 8 in them are read (8000 skipped)
CREATE TABLE tn_pages_src AS
SELECT i, CASE WHEN i % 997 = 0 THEN NULL ELSE i % 5000 END AS v
  FROM generate_series(1, 40000) AS i;
COPY tn_pages_src TO '/tmp/parquet_fdw_test/out/tn_pages.parquet'
    WITH (FORMAT parquet, row_group_size 20000, data_page_rows 1000);
CREATE FOREIGN TABLE tn_pages (i int, v int) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/tn_pages.parquet');
SELECT q, c.*, (SELECT string_agg(l, '; ') FROM tn_skipped(replace(q, 'TBL', 'tn_pages')) AS l
                 WHERE l ~ 'Skipped') AS skipped
  FROM (VALUES ('SELECT i, v FROM TBL ORDER BY v DESC NULLS LAST, i LIMIT 5'),
               ('SELECT i, v FROM TBL ORDER BY v, i LIMIT 5'),
               ('SELECT i, v FROM TBL ORDER BY v DESC, i LIMIT 5'),
               ('SELECT i, v FROM TBL ORDER BY v NULLS FIRST, i LIMIT 45'),
               ('SELECT i, v FROM TBL WHERE i > 10500 AND i < 33000 ORDER BY v, i DESC LIMIT 3 OFFSET 2')) AS x(q),
       LATERAL tn_check(replace(q, 'TBL', 'tn_pages'), replace(q, 'TBL', 'tn_pages_src')) AS c;
DROP FOREIGN TABLE tn_pages;
DROP TABLE tn_pages_src;

-- late materialization: only the sort keys and the filter's columns are
-- read while rows compete; the other columns (arrays, composites, jsonb,
-- NULLs among them) are read for the rows returned only
SELECT * FROM tn_same('SELECT * FROM TBL ORDER BY ratio DESC NULLS LAST, id LIMIT 7');
SELECT * FROM tn_same('SELECT * FROM TBL WHERE name LIKE ''n1%'' ORDER BY day, id LIMIT 6 OFFSET 3');
SELECT * FROM tn_same('SELECT id, doc, tags, pair, amount FROM TBL WHERE grp = 4 ORDER BY amount NULLS FIRST, id DESC LIMIT 20');
SELECT * FROM tn_same('SELECT doc, pair, id, tags FROM TBL ORDER BY name, id LIMIT 30');
SELECT * FROM tn_same('SELECT * FROM TBL WHERE id < 20 ORDER BY id DESC LIMIT 100');
-- the 30 rows returned lie in as many row groups of 2000 rows as par_src's
-- ids say, and only those are read for the other columns
CREATE FUNCTION tn_late(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ 'Late (Columns|Rows|Row Groups)' THEN
            RETURN NEXT btrim(line);
        END IF;
    END LOOP;
END $$;
SELECT * FROM tn_late('SELECT doc, pair, id, tags FROM par_one ORDER BY name, id LIMIT 30');
SELECT count(DISTINCT (id - 1) / 2000) AS row_groups
  FROM (SELECT id FROM par_src ORDER BY name, id LIMIT 30) s;
SET parquet_fdw.enable_late_materialization = off;
SELECT * FROM tn_late('SELECT doc, pair, id, tags FROM par_one ORDER BY name, id LIMIT 30');
SELECT * FROM tn_same('SELECT * FROM TBL ORDER BY ratio DESC NULLS LAST, id LIMIT 7');
RESET parquet_fdw.enable_late_materialization;
-- rescans: a parameterized top-N per outer row
SELECT g, x.* FROM generate_series(1, 3) g,
  LATERAL (SELECT id, name, day, tags FROM par_one WHERE grp = g ORDER BY ratio DESC NULLS LAST, id LIMIT 2) x
EXCEPT ALL
SELECT g, x.* FROM generate_series(1, 3) g,
  LATERAL (SELECT id, name, day, tags FROM par_src WHERE grp = g ORDER BY ratio DESC NULLS LAST, id LIMIT 2) x;
SELECT count(*) FROM generate_series(1, 3) g,
  LATERAL (SELECT id, name, day, tags FROM par_one WHERE grp = g ORDER BY ratio DESC NULLS LAST, id LIMIT 2) x;
DROP FUNCTION tn_late(text);

-- with workers: each process keeps the best LIMIT + OFFSET rows of the row
-- groups it claims, sorted; Gather Merge and PostgreSQL's Limit combine them
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT id FROM par_one ORDER BY ratio, id LIMIT 3;
SELECT * FROM tn_same('SELECT id, ratio FROM TBL ORDER BY ratio DESC NULLS LAST, id LIMIT 7');
SELECT * FROM tn_same('SELECT id, grp, name FROM TBL ORDER BY grp NULLS FIRST, name DESC, id LIMIT 12');
SELECT * FROM tn_same('SELECT id, amount FROM TBL ORDER BY amount DESC, id LIMIT 4 OFFSET 10');
SELECT * FROM tn_same('SELECT id, grp FROM TBL WHERE grp = 3 AND id > 30000 ORDER BY id LIMIT 5');
SELECT * FROM tn_same('SELECT id FROM TBL WHERE id < 20 ORDER BY id DESC LIMIT 100');
SELECT * FROM tn_same('SELECT * FROM TBL ORDER BY ratio DESC NULLS LAST, id LIMIT 7');
SELECT * FROM tn_same('SELECT doc, pair, id, tags FROM TBL WHERE name LIKE ''n1%'' ORDER BY name, id LIMIT 30 OFFSET 5');
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- left to PostgreSQL: expressions as keys, quals the scan cannot
-- evaluate, whole rows, DISTINCT, row locks, LIMIT from a parameter, and
-- everything with the setting off
EXPLAIN (COSTS OFF) SELECT id FROM par_one ORDER BY id + 1 LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM par_one WHERE id::text = '5' ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT t FROM par_one t ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT DISTINCT grp FROM par_one ORDER BY grp LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM par_one ORDER BY id LIMIT 3 FOR UPDATE;
PREPARE tn_prep(int) AS SELECT id FROM par_one ORDER BY id LIMIT $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE tn_prep(2);
EXECUTE tn_prep(2);
RESET plan_cache_mode;
DEALLOCATE tn_prep;
SET parquet_fdw.enable_top_n_scan = off;
EXPLAIN (COSTS OFF) SELECT id FROM par_one ORDER BY id LIMIT 3;
RESET parquet_fdw.enable_top_n_scan;

RESET max_parallel_workers_per_gather;
DROP FUNCTION tn_same(text);
DROP FUNCTION tn_check(text, text);
DROP FUNCTION tn_skipped(text);
