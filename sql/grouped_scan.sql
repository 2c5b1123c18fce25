-- GROUP BY and aggregates computed inside the scan (grouped scans): the
-- planner offers a ForeignScan of the grouping relation when every WHERE
-- qual is the scan's and every key and aggregate is one the scan computes
-- (fdw/plan/grouping.c).  Every answer here is compared with the same
-- query on the heap table par_src (the parallel test's rows): as text, so
-- floats must be bit-identical (the grouped scan adds in file order, as
-- HashAggregate over a sequential scan of the heap does).
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 1;
SET parquet_fdw.key_directory = '/tmp/parquet_fdw_test/keys';
SET max_parallel_workers_per_gather = 0;
-- the heap's plans feed rows in insertion order
SET enable_sort = off;

-- rows of q_fdw missing from q_heap's and the other way round (as text),
-- and whether q_fdw ran as a grouped scan
CREATE FUNCTION gs_check(q_fdw text, q_heap text,
                         OUT grouped bool, OUT differing bigint)
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    grouped := false;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q_fdw LOOP
        IF line ~ 'Parquet Aggregate: ' AND line !~ 'from the footers' THEN
            grouped := true;
        END IF;
    END LOOP;
    differing := rows_differing(q_fdw, q_heap);
END $$;

-- q over par_one, par_many (two files) and par_enc (encrypted) against par_src
CREATE FUNCTION gs_same(q text) RETURNS TABLE (tbl text, grouped bool, differing bigint)
LANGUAGE plpgsql AS $$
BEGIN
    FOREACH tbl IN ARRAY ARRAY['par_one', 'par_many', 'par_enc'] LOOP
        SELECT * INTO grouped, differing
          FROM gs_check(replace(q, 'TBL', tbl), replace(q, 'TBL', 'par_src'));
        RETURN NEXT;
    END LOOP;
END $$;

SELECT explain_filter('VERBOSE, COSTS OFF', $q$SELECT grp, count(*), sum(id), avg(ratio) FROM par_one
 WHERE id > 1000 GROUP BY grp ORDER BY grp$q$);
EXPLAIN (COSTS OFF)
SELECT name, day, min(ratio) FROM par_many GROUP BY name, day HAVING count(*) > 1;

-- integer, float, date and text aggregates by each kind of key
SELECT * FROM gs_same($$SELECT grp, count(*), count(name), sum(id), avg(id), min(id), max(id),
    sum(grp), avg(grp), sum(ratio), avg(ratio), min(ratio), max(ratio), min(day), max(day),
    min(name), max(name), bool_and(id % 2 = 0), bool_or(grp > 8) FROM TBL GROUP BY grp$$);
SELECT * FROM gs_same($$SELECT name, count(*), sum(ratio), max(day) FROM TBL GROUP BY name$$);
SELECT * FROM gs_same($$SELECT day, grp, count(*), avg(id), min(name) FROM TBL GROUP BY day, grp$$);
SELECT * FROM gs_same($$SELECT id % 7 AS k, grp IS NULL AS n, sum(id) FROM TBL GROUP BY 1, 2$$);
-- numeric (DECIMAL in INT64): exact 128-bit sums, PostgreSQL's display scale
SELECT * FROM gs_same($$SELECT grp, sum(amount), avg(amount), min(amount), max(amount), count(amount)
    FROM TBL GROUP BY grp$$);
SELECT * FROM gs_same($$SELECT amount, count(*) FROM TBL GROUP BY amount$$);
SELECT sum(amount), avg(amount), min(amount) FROM par_one WHERE grp = 3;
SELECT sum(amount), avg(amount), min(amount) FROM par_src WHERE grp = 3;
-- numeric + - * and casts: exact, at numeric.c's display scales, while the
-- bounds (statistics: |amount| < 700, so 70000 unscaled) keep them in 64 bits
SELECT * FROM gs_same($$SELECT amount * 2 AS k, sum(amount * 2), sum(amount * (1 - amount * 0.001)),
    avg(-amount + 1.5), min(amount * 0.10), max(amount::float8), sum(amount::float8),
    count(*) FILTER (WHERE amount > 100.5), sum(grp::numeric * amount), sum(grp::numeric - amount)
    FROM TBL GROUP BY 1$$);
SELECT * FROM gs_same($$SELECT grp, sum(amount * amount * amount), max(amount - 0.001),
    count(*) FILTER (WHERE amount * 3 >= grp), bool_or(amount = -299.99) FROM TBL GROUP BY grp$$);
SELECT sum(amount * (1 - amount * 0.001)), avg(amount * 0.10) FROM par_one WHERE grp = 3;
SELECT sum(amount * (1 - amount * 0.001)), avg(amount * 0.10) FROM par_src WHERE grp = 3;
-- numeric columns the quals test too: the filter reads numerics, the
-- aggregates unscaled values (table_reader.c converts the column twice)
SELECT * FROM gs_same($$SELECT grp, sum(amount), max(amount), count(*), sum(amount * 2)
    FROM TBL WHERE amount > 100.5 AND amount < 400 GROUP BY grp$$);
SELECT * FROM gs_same($$SELECT sum(amount), min(amount), count(*) FROM TBL
    WHERE amount IN (10.37, -299.99, 699.63) OR amount IS NULL$$);
-- without statistics the bound is the precision's (10^12): amount * amount
-- could pass 64 bits and is left to PostgreSQL, amount * 2 cannot
COPY (SELECT id, amount FROM par_src) TO '/tmp/parquet_fdw_test/out/gs_nostats.parquet'
    WITH (FORMAT parquet, statistics off);
CREATE FOREIGN TABLE gs_nostats (id int8, amount numeric(12,2)) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/gs_nostats.parquet');
EXPLAIN (COSTS OFF) SELECT sum(amount * amount) FROM gs_nostats;
EXPLAIN (COSTS OFF) SELECT sum(amount * 2) FROM gs_nostats;
SELECT sum(amount * 2) FROM gs_nostats;
SELECT sum(amount * 2) FROM par_src;
DROP FOREIGN TABLE gs_nostats;
-- expressions of columns, casts between numeric types
SELECT * FROM gs_same($$SELECT grp, sum(id * 2 + grp), sum(ratio * 2.5 - id), avg(grp::float8 / 3),
    max(-id), sum(id::float8 * ratio) FROM TBL GROUP BY grp$$);
-- sum and avg of a column plus or minus constants, without keys, from one
-- pass over the column per batch (offset_sums.c): the states row-by-row
-- additions give, NULLs left out; where a row's x + c leaves the type, the
-- row-by-row expression raises PostgreSQL's error
SELECT * FROM gs_same($$SELECT sum(id), sum(id + 1), sum(id - 7), avg(3 + id), sum(grp),
    sum(grp + 2147483000), avg(grp - 5), sum(grp - 9223372036854775807), count(*) FROM TBL$$);
SELECT sum(grp + 2147483640) FROM par_one;
SELECT sum(grp + 2147483640) FROM par_src;
SELECT sum(grp + 2147483630), avg(id - 1) FROM par_one WHERE id > 59990;
SELECT sum(grp + 2147483630), avg(id - 1) FROM par_src WHERE id > 59990;
-- DISTINCT aggregates (distinct.c): count, integer and numeric sum and avg,
-- min and max of each group's distinct values, NULLs left out, text by its
-- dictionary, with FILTER and over function results
SELECT * FROM gs_same($$SELECT grp, count(DISTINCT name), count(DISTINCT grp), sum(DISTINCT id % 100),
    avg(DISTINCT id % 7), count(DISTINCT day), max(DISTINCT name), sum(DISTINCT amount),
    avg(DISTINCT amount), count(DISTINCT ratio), min(DISTINCT day), count(*) FROM TBL GROUP BY grp$$);
SELECT * FROM gs_same($$SELECT count(DISTINCT name), count(DISTINCT id % 1000), sum(DISTINCT grp),
    count(DISTINCT name) FILTER (WHERE grp > 3), count(DISTINCT lower(name)), count(DISTINCT amount) FROM TBL$$);
SELECT * FROM gs_same($$SELECT day, name, count(DISTINCT grp) FROM TBL WHERE id < 30000 GROUP BY 1, 2$$);
-- floats: -0 equals 0 and every NaN is one value, as float8eq says
CREATE TABLE fd_src AS
SELECT i, (ARRAY['0'::float8, '-0'::float8, 'NaN'::float8, 'NaN'::float8 * -1, 1.5, NULL])[1 + i % 6] AS f,
       i % 4 AS g
  FROM generate_series(1, 600) AS i;
COPY fd_src TO '/tmp/parquet_fdw_test/out/fd.parquet' WITH (FORMAT parquet, row_group_size 100);
CREATE FOREIGN TABLE fd (i int, f float8, g int)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/fd.parquet');
SELECT * FROM gs_check('SELECT g, count(DISTINCT f), min(DISTINCT f), max(DISTINCT f) FROM fd GROUP BY g',
                       'SELECT g, count(DISTINCT f), min(DISTINCT f), max(DISTINCT f) FROM fd_src GROUP BY g');
SELECT count(DISTINCT f) FROM fd;
DROP FOREIGN TABLE fd;
DROP TABLE fd_src;
-- numerics held in byte arrays (precision up to 38) as 128-bit integers:
-- count, min, max and keys; sum and avg where the statistics bound the sum
-- in 128 bits (w38 reaches 4.9e37 over 5000 rows: its sums stay
-- PostgreSQL's).  Against the heap table wide_src, and spilled
CREATE TABLE wide_src AS
SELECT i, i % 7 AS g,
       CASE WHEN i % 13 = 0 THEN NULL
            ELSE round((i - 2500) * 1234567890123456789.1234 / 7, 4) END::numeric(30,4) AS w30,
       CASE WHEN i % 11 = 0 THEN NULL
            ELSE ((i % 50) - 25) * 10::numeric ^ 36 END::numeric(38,0) AS w38,
       ((i % 4) * 0.5)::numeric(20,1) AS k20
  FROM generate_series(1, 5000) AS i;
COPY wide_src TO '/tmp/parquet_fdw_test/out/gs_wide.parquet' WITH (FORMAT parquet, row_group_size 1500);
CREATE FOREIGN TABLE gs_wide (i int, g int, w30 numeric(30,4), w38 numeric(38,0), k20 numeric(20,1))
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/gs_wide.parquet');
SELECT path_in_schema, physical_type, logical_type
  FROM parquet_fdw.metadata('/tmp/parquet_fdw_test/out/gs_wide.parquet')
 WHERE row_group = 0 AND path_in_schema IN ('w30', 'w38', 'k20');
SELECT * FROM gs_check($$SELECT g, count(w30), sum(w30), avg(w30), min(w30), max(w30), min(w38), max(w38),
    count(w38), count(*) FILTER (WHERE w38 IS NULL) FROM gs_wide GROUP BY g$$,
    $$SELECT g, count(w30), sum(w30), avg(w30), min(w30), max(w30), min(w38), max(w38),
    count(w38), count(*) FILTER (WHERE w38 IS NULL) FROM wide_src GROUP BY g$$);
SELECT * FROM gs_check('SELECT k20, w38, count(*), max(i), min(w30) FROM gs_wide GROUP BY k20, w38',
                       'SELECT k20, w38, count(*), max(i), min(w30) FROM wide_src GROUP BY k20, w38');
EXPLAIN (COSTS OFF) SELECT sum(w38) FROM gs_wide;
SELECT * FROM gs_check('SELECT g, sum(w30), min(w38), count(*) FROM gs_wide WHERE w30 > 0 AND w38 < 0 GROUP BY g',
                       'SELECT g, sum(w30), min(w38), count(*) FROM wide_src WHERE w30 > 0 AND w38 < 0 GROUP BY g');
SET work_mem = '64kB';
SELECT * FROM gs_check('SELECT w30, g, count(*), max(w38) FROM gs_wide GROUP BY w30, g',
                       'SELECT w30, g, count(*), max(w38) FROM wide_src GROUP BY w30, g');
RESET work_mem;
-- DECIMAL in FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY (variable length), as
-- hyparquet-writer writes them: the grouped scan against PostgreSQL's
-- Aggregate over the plain scan (which converts through numeric text)
SELECT parquet_fdw.create_table_sql('/tmp/parquet_fdw_test/fixtures/hyp_bss_decimal.parquet', 'gs_hypdec') \gexec
EXPLAIN (COSTS OFF) SELECT id % 3 AS k, sum(dec_ba), min(dec_flba) FROM gs_hypdec GROUP BY 1;
EXPLAIN (COSTS OFF) SELECT count(*) FROM gs_hypdec GROUP BY dec_ba, dec_flba6;
CREATE TEMP VIEW gs_hyp_q AS
SELECT id % 3 AS k, count(dec_ba) AS n, sum(dec_ba)::text AS s1, avg(dec_ba)::text AS a1,
       min(dec_ba)::text AS m1, max(dec_ba)::text AS x1, sum(dec_flba)::text AS s2,
       min(dec_flba)::text AS m2, max(dec_flba6)::text AS x3, sum(dec_flba6)::text AS s3
  FROM gs_hypdec GROUP BY 1
UNION ALL
SELECT count(*), NULL, dec_ba::text, NULL, NULL, NULL, dec_flba6::text, NULL, NULL, NULL
  FROM gs_hypdec GROUP BY dec_ba, dec_flba6;
CREATE TEMP TABLE gs_hyp_fdw AS SELECT * FROM gs_hyp_q;
SET parquet_fdw.enable_grouped_scan = off;
CREATE TEMP TABLE gs_hyp_pg AS SELECT * FROM gs_hyp_q;
RESET parquet_fdw.enable_grouped_scan;
SELECT (SELECT count(*) FROM gs_hyp_fdw) AS fdw_rows,
       (SELECT count(*) FROM ((TABLE gs_hyp_fdw EXCEPT ALL TABLE gs_hyp_pg)
        UNION ALL (TABLE gs_hyp_pg EXCEPT ALL TABLE gs_hyp_fdw)) d) AS differing;
DROP VIEW gs_hyp_q;
DROP FOREIGN TABLE gs_wide, gs_hypdec;
DROP TABLE wide_src;

-- FILTER: rows the filter rejects are not evaluated (no division by zero)
SELECT * FROM gs_same($$SELECT grp, count(*) FILTER (WHERE id > 100), sum(id / (grp - 3)) FILTER (WHERE grp <> 3),
    avg(ratio) FILTER (WHERE day > DATE '2021-01-01'), min(name) FILTER (WHERE ratio IS NULL)
    FROM TBL GROUP BY grp$$);
SELECT sum(id / (grp - 3)) FILTER (WHERE grp <> 3) FROM par_one;
SELECT sum(id / (grp - 3)) FILTER (WHERE grp <> 3) FROM par_src;
-- CASE, AND, OR, NOT: what PostgreSQL short-circuits past, or a branch a
-- row does not take, is not evaluated for that row
SELECT * FROM gs_same($$SELECT CASE WHEN grp < 3 THEN 1 WHEN grp < 7 THEN 2 END IS NULL AS hi,
    CASE WHEN grp < 3 THEN -1 WHEN grp > 6 THEN 1 ELSE 0 END AS band,
    sum(CASE WHEN grp <> 3 THEN id / (grp - 3) ELSE 0 END),
    count(*) FILTER (WHERE grp <> 3 AND id / (grp - 3) > 1000),
    bool_or(grp = 3 OR id / (grp - 3) < 0), bool_and(NOT (ratio > 10 OR ratio IS NULL)),
    avg(CASE WHEN ratio IS NOT NULL AND ratio <> 0 THEN id / ratio END),
    max(CASE WHEN day > DATE '2021-01-01' THEN grp END) FILTER (WHERE NOT (grp = 3))
    FROM TBL GROUP BY 1, 2$$);
-- simple CASE (as WHEN x = v, nested ones too), CASE of text (keys and
-- arguments), text comparisons: equality by bytes, orderings under the
-- comparison's collation ("und-x-icu" orders 'n1' before 'N5', bytes do not)
SELECT * FROM gs_same($$SELECT CASE grp WHEN 1 THEN 'one' WHEN 2 THEN name
        ELSE CASE WHEN grp > 5 THEN 'big' END END AS k,
    CASE id % 3 WHEN 0 THEN CASE grp WHEN 3 THEN 30 ELSE 0 END
        WHEN CASE grp WHEN 4 THEN 1 ELSE 2 END THEN -1 END AS s,
    count(*), min(CASE WHEN name < 'n5' THEN name END),
    max(CASE name WHEN 'n1' THEN 'x' ELSE name END),
    count(*) FILTER (WHERE name >= 'n3' AND name <> 'n35'),
    sum(id) FILTER (WHERE name COLLATE "C" > 'n2'),
    count(*) FILTER (WHERE name < 'N5' COLLATE "und-x-icu"),
    count(*) FILTER (WHERE name < 'N5' COLLATE "C")
    FROM TBL GROUP BY 1, 2$$);
SELECT count(*) FILTER (WHERE name < 'N5' COLLATE "und-x-icu") AS icu,
    count(*) FILTER (WHERE name < 'N5' COLLATE "C") AS bytes FROM par_one;
SELECT sum(CASE WHEN grp <> 3 THEN id / (grp - 3) ELSE 0 END),
    count(*) FILTER (WHERE grp <> 3 AND id / (grp - 3) > 1000) FROM par_one;
SELECT sum(CASE WHEN grp <> 3 THEN id / (grp - 3) ELSE 0 END),
    count(*) FILTER (WHERE grp <> 3 AND id / (grp - 3) > 1000) FROM par_src;
-- quals the scan evaluates; no key: one row, also over no rows
SELECT * FROM gs_same($$SELECT count(*), sum(id), avg(ratio), min(name) FROM TBL
    WHERE grp < 5 AND name LIKE 'n1%'$$);
SELECT * FROM gs_same($$SELECT count(*), count(id), sum(id), avg(ratio), max(day), bool_and(true)
    FROM TBL WHERE id < 0$$);
SELECT count(*), count(id), sum(id), avg(ratio), max(day) FROM par_one WHERE id < 0;
SELECT grp, count(*) FROM par_one WHERE id < 0 GROUP BY grp;
-- HAVING, and expressions over keys and aggregates: PostgreSQL evaluates
-- them on the scan's groups
SELECT * FROM gs_same($$SELECT grp + 1, sum(id) / count(*), max(day) - min(day) > 100
    FROM TBL GROUP BY grp HAVING sum(id) > 166140000$$);
SELECT grp, sum(id) FROM par_one GROUP BY grp HAVING sum(id) > 166140000 ORDER BY grp;
-- comparisons and NULL tests as arguments and keys
SELECT * FROM gs_same($$SELECT day > DATE '2021-06-01', ratio IS NULL, count(*), bool_or(id < 100),
    count(grp = 3), bool_and(ratio >= 1000.5) FROM TBL GROUP BY 1, 2$$);

-- keys looked up by their dictionary indices (group_table.c): row groups
-- whose dictionaries list the same strings in other orders, NULL keys
-- (looked up by value), a chunk that falls back from its dictionary to
-- PLAIN pages within a row group (dict_fb.wide), filters that select rows
-- (late materialization) or test a key.  rows_by_index counts the rows
-- EXPLAIN ANALYZE reports found by index, keyed the rows whose keys are
-- all non-NULL: equal where every key's chunk is dictionary-encoded
CREATE TABLE dict_src AS
SELECT i, CASE WHEN i % 11 = 0 THEN NULL
               WHEN (i / 3000) % 2 = 0 THEN chr(65 + i % 5)
               ELSE chr(69 - i % 5) END AS k,
       (i % 3)::int2 AS g, i % 4 = 0 AS b, 'v' || (i * 7919 % 700) AS wide
  FROM generate_series(1, 20000) AS i;
COPY dict_src TO '/tmp/parquet_fdw_test/out/dict_rg.parquet'
    WITH (FORMAT parquet, row_group_size 3000);
COPY dict_src TO '/tmp/parquet_fdw_test/out/dict_fb.parquet'
    WITH (FORMAT parquet, dictionary_page_size 2000);
CREATE FOREIGN TABLE dict_rg (i int, k text, g int2, b bool, wide text)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/dict_rg.parquet');
CREATE FOREIGN TABLE dict_fb (i int, k text, g int2, b bool, wide text)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/dict_fb.parquet');
-- the number EXPLAIN ANALYZE VERBOSE shows for property prop, 0 if none
CREATE FUNCTION gs_explain_value(q text, prop text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF line ~ (prop || ': ') THEN
            RETURN substring(line from ': (\d+)')::bigint;
        END IF;
    END LOOP;
    RETURN 0;
END $$;
CREATE FUNCTION gs_keyed(cond text, OUT n bigint) LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT count(*) FROM dict_src WHERE ' || cond INTO n;
END $$;
SELECT tbl, c.grouped, c.differing,
       gs_explain_value(replace(q, 'TBL', tbl), 'Rows Grouped by Dictionary Index') AS rows_by_index,
       gs_keyed(keyed_by) AS keyed
  FROM (VALUES ('dict_rg'), ('dict_fb')) AS t(tbl),
       (VALUES (1, $$SELECT k, count(*), sum(i), min(wide) FROM TBL GROUP BY k$$, 'k IS NOT NULL'),
               (2, $$SELECT k, wide, count(*), max(i) FROM TBL GROUP BY k, wide$$, 'k IS NOT NULL'),
               (3, $$SELECT g, k, count(*), sum(i) FROM TBL GROUP BY g, k$$, 'k IS NOT NULL'),
               (4, $$SELECT k, count(*), sum(i) FROM TBL WHERE wide < 'v3' GROUP BY k$$,
                'k IS NOT NULL AND wide < ''v3'''),
               (5, $$SELECT k, count(*), sum(i) FROM TBL WHERE k <> 'A' GROUP BY k$$, 'k <> ''A'''),
               (6, $$SELECT b, k, count(*) FROM TBL GROUP BY b, k$$, 'false')) AS x(n, q, keyed_by),
       LATERAL gs_check(replace(q, 'TBL', tbl), replace(q, 'TBL', 'dict_src')) AS c
 ORDER BY n, tbl;

-- immutable functions of a column as keys and arguments (vexpr_func.c):
-- once per dictionary entry the rows name (rows by index counted as for
-- columns), NULLs through the function unless it is strict (num_nulls is
-- not), several entries with one result (regexp_replace), results as text
-- min/max arguments, two variable arguments (per row), and a memo bounded
-- by work_mem that spills with the groups
SELECT tbl, c.grouped, c.differing,
       gs_explain_value(replace(q, 'TBL', tbl), 'Rows Grouped by Dictionary Index') AS rows_by_index,
       gs_keyed(keyed_by) AS keyed
  FROM (VALUES ('dict_rg'), ('dict_fb')) AS t(tbl),
       (VALUES (1, $$SELECT lower(k), count(*), sum(i) FROM TBL GROUP BY 1$$, 'k IS NOT NULL'),
               (2, $$SELECT regexp_replace(wide, '[0-9]$', '') AS p, avg(length(wide)),
                     min(upper(wide)), max(wide || '!'), count(*) FROM TBL GROUP BY p$$, 'true'),
               (3, $$SELECT num_nulls(k) AS n, k, count(*) FROM TBL GROUP BY 1, 2$$, 'k IS NOT NULL'),
               (4, $$SELECT k || wide AS kw, count(*) FROM TBL GROUP BY 1$$, 'false'),
               (5, $$SELECT length(k) + g AS l, sum(length(wide) * 2), count(*) FILTER (WHERE upper(k) > 'B')
                     FROM TBL WHERE lower(wide) <> 'v1' GROUP BY 1$$, 'false'),
               (6, $$SELECT k, count(*), max(wide) FROM TBL
                     WHERE length(wide) > 3 AND lower(k) <> 'b' AND i > 100 GROUP BY k$$,
                'k IS NOT NULL AND length(wide) > 3 AND lower(k) <> ''b'' AND i > 100')) AS x(n, q, keyed_by),
       LATERAL gs_check(replace(q, 'TBL', tbl), replace(q, 'TBL', 'dict_src')) AS c
 ORDER BY n, tbl;
SELECT * FROM gs_same($$SELECT date_trunc('month', day::timestamp) AS m, (ratio * 10)::int % 7 AS r,
    count(*), max(id), min(substr(name, 2)), sum(id) FILTER (WHERE name LIKE 'n1%')
    FROM TBL GROUP BY 1, 2$$);
-- extract() of fields whose values are integers is a numeric of scale 0:
-- vectors hold it unscaled (as keys, in sums); year, whose infinite inputs
-- give Infinity, stays PostgreSQL's
SELECT * FROM gs_same($$SELECT extract(dow FROM day) AS w, extract(month FROM day::timestamp) AS m,
    count(*), sum(extract(doy FROM day) + 1), max(extract(doy FROM day + (id % 300)::int)),
    count(DISTINCT extract(hour FROM day::timestamp)) FROM TBL GROUP BY 1, 2$$);
EXPLAIN (COSTS OFF) SELECT extract(year FROM day), count(*) FROM par_one GROUP BY 1;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT regexp_replace(wide, '[0-9]$', '') AS p, count(*) FROM dict_rg GROUP BY p;
SET work_mem = '64kB';
SELECT * FROM gs_check('SELECT md5(wide || k) AS h, count(*), min(lower(k)) FROM dict_rg GROUP BY 1',
                       'SELECT md5(wide || k) AS h, count(*), min(lower(k)) FROM dict_src GROUP BY 1');
RESET work_mem;
-- an entry no surviving row names is not computed: decode() fails on 'zz'
-- only when a row holding it reaches the function, as in PostgreSQL
CREATE TABLE hex_src AS
SELECT i, (ARRAY['aa', 'bb', 'zz', 'c0'])[1 + i % 4] AS s FROM generate_series(1, 400) AS i;
COPY hex_src TO '/tmp/parquet_fdw_test/out/hex.parquet' WITH (FORMAT parquet);
CREATE FOREIGN TABLE hex_fdw (i int, s text)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/hex.parquet');
SELECT * FROM gs_check($$SELECT length(decode(s, 'hex')) AS l, get_byte(decode(s, 'hex'), 0) AS b, count(*)
                         FROM hex_fdw WHERE s <> 'zz' GROUP BY 1, 2$$,
                       $$SELECT length(decode(s, 'hex')) AS l, get_byte(decode(s, 'hex'), 0) AS b, count(*)
                         FROM hex_src WHERE s <> 'zz' GROUP BY 1, 2$$);
-- WHERE quals the batch filter leaves run on the rows it passed
SELECT * FROM gs_check($$SELECT s, count(*) FROM hex_fdw WHERE s <> 'zz' AND get_byte(decode(s, 'hex'), 0) > 170 GROUP BY 1$$,
                       $$SELECT s, count(*) FROM hex_src WHERE s <> 'zz' AND get_byte(decode(s, 'hex'), 0) > 170 GROUP BY 1$$);
EXPLAIN (COSTS OFF)
SELECT s, count(*) FROM hex_fdw WHERE s <> 'zz' AND get_byte(decode(s, 'hex'), 0) > 170 GROUP BY 1;
SELECT count(*) FROM hex_fdw WHERE get_byte(decode(s, 'hex'), 0) > 170;
SELECT count(*) FROM hex_src WHERE get_byte(decode(s, 'hex'), 0) > 170;
SELECT get_byte(decode(s, 'hex'), 0) AS b, count(*) FROM hex_fdw GROUP BY 1;
SELECT get_byte(decode(s, 'hex'), 0) AS b, count(*) FROM hex_src GROUP BY 1;
SELECT sum(get_byte(decode(s, 'hex'), 0)) FILTER (WHERE s <> 'zz') FROM hex_fdw;
SELECT sum(get_byte(decode(s, 'hex'), 0)) FILTER (WHERE s <> 'zz') FROM hex_src;
DROP FOREIGN TABLE hex_fdw;
DROP TABLE hex_src;

-- DISTINCT aggregates past hash_mem: the pairs the sets cannot take go to
-- files and are deduplicated there (EXPLAIN counts them), with the groups
-- spilled too
SET work_mem = '64kB';
SELECT tbl, c.grouped, c.differing,
       gs_explain_value(replace(q, 'TBL', tbl), 'Distinct Values Spilled') > 0 AS pairs_spilled
  FROM (VALUES ('par_one'), ('par_many')) AS t(tbl),
       (VALUES (1, $$SELECT count(DISTINCT id), sum(DISTINCT id % 5000), count(*) FROM TBL$$),
               (2, $$SELECT grp, count(DISTINCT id), count(DISTINCT name), avg(DISTINCT id % 777) FROM TBL GROUP BY grp$$),
               (3, $$SELECT id % 3000 AS k, count(DISTINCT upper(name)), max(DISTINCT day) FROM TBL GROUP BY 1$$))
         AS x(n, q),
       LATERAL gs_check(replace(q, 'TBL', tbl), replace(q, 'TBL', 'par_src')) AS c
 ORDER BY n, tbl;
RESET work_mem;

-- ORDER BY ... LIMIT of the groups (grouped_top_n.c, group_top_n.c): the
-- best groups kept by their sort keys (aggregates or keys, either
-- direction, NULLs first or last), formed only when kept; over spilled
-- groups too; with HAVING the Sort stays PostgreSQL's
EXPLAIN (COSTS OFF)
SELECT grp, count(*), avg(ratio) FROM par_one GROUP BY grp ORDER BY count(*) DESC, grp LIMIT 3;
SELECT explain_filter('COSTS OFF',
    $q$SELECT grp, count(*) FROM par_one GROUP BY grp HAVING count(*) > 10 ORDER BY 2 DESC, 1 LIMIT 3$q$);
CREATE FUNCTION gs_plan_has(q text, pattern text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ pattern THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;
SELECT n, c.grouped, c.differing,
       gs_plan_has(replace(q, 'TBL', 'par_one'), 'Parquet Group Order') AS top_n
  FROM (VALUES (1, $$SELECT grp, count(*), avg(ratio) FROM TBL GROUP BY grp ORDER BY count(*) DESC, grp LIMIT 3$$),
               (2, $$SELECT name, sum(id), min(day) FROM TBL GROUP BY name ORDER BY 3 DESC NULLS LAST, 2, 1 LIMIT 7 OFFSET 4$$),
               (3, $$SELECT id % 5000 AS k, grp, count(*), avg(amount) FROM TBL GROUP BY 1, 2
                     ORDER BY 4 NULLS FIRST, 1 DESC, 2 LIMIT 20$$),
               (4, $$SELECT day, count(*) FROM TBL GROUP BY day ORDER BY day DESC NULLS FIRST LIMIT 5 OFFSET 1$$),
               (5, $$SELECT name, grp, max(id) FROM TBL GROUP BY 1, 2 ORDER BY 1 NULLS FIRST, 2 NULLS FIRST LIMIT 0$$),
               (6, $$SELECT count(*), sum(grp) FROM TBL ORDER BY 1 LIMIT 1$$)) AS x(n, q),
       LATERAL gs_check(replace(q, 'TBL', 'par_one'), replace(q, 'TBL', 'par_src')) AS c
 ORDER BY n;
SELECT name, sum(id), min(day) FROM par_one GROUP BY name ORDER BY 3 DESC NULLS LAST, 2, 1 LIMIT 3 OFFSET 4;
SELECT name, sum(id), min(day) FROM par_src GROUP BY name ORDER BY 3 DESC NULLS LAST, 2, 1 LIMIT 3 OFFSET 4;
SET work_mem = '64kB';
SELECT *, gs_plan_has('SELECT id % 20000 AS k, name, count(*) FROM par_one GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 10',
                      'Parquet Group Order') AS top_n
  FROM gs_check('SELECT id % 20000 AS k, name, count(*) FROM par_one GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 10',
                'SELECT id % 20000 AS k, name, count(*) FROM par_src GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 10');
RESET work_mem;
-- keys the other keys decide (expressions of integer, date or timestamp key
-- columns) are neither hashed nor held: PostgreSQL computes them from those
-- keys above the scan.  Not of numeric or text keys, where equal values
-- may differ ('1.0', '1.00'; collations)
SELECT n, c.grouped, c.differing,
       gs_plan_has(replace(q, 'TBL', 'par_one'), 'Keys Decided by Others') AS decided
  FROM (VALUES (1, $$SELECT grp, grp - 1, grp * 2, count(*) FROM TBL GROUP BY grp, grp - 1, grp * 2$$),
               (2, $$SELECT id, id + grp, count(*) FROM TBL GROUP BY id, grp, id + grp ORDER BY 3 DESC, 1 LIMIT 5$$),
               (3, $$SELECT day, day + 1, extract(dow FROM day), count(*), max(id) FROM TBL GROUP BY 1, 2, 3$$),
               (4, $$SELECT grp, grp IS NULL, sum(id) FROM TBL GROUP BY 1, 2 HAVING count(*) > 10$$),
               (5, $$SELECT grp - 1, count(*) FROM TBL GROUP BY grp, grp - 1 ORDER BY 2 DESC, 1 LIMIT 3$$),
               (6, $$SELECT amount, amount + 1, count(*) FROM TBL GROUP BY 1, 2$$),
               (7, $$SELECT name, upper(name), count(*) FROM TBL GROUP BY 1, 2$$)) AS x(n, q),
       LATERAL gs_check(replace(q, 'TBL', 'par_one'), replace(q, 'TBL', 'par_src')) AS c
 ORDER BY n;
SELECT explain_filter('VERBOSE, COSTS OFF',
    $q$SELECT grp, grp - 1, count(*) FROM par_one GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 2$q$);
-- the scan still evaluates them on every row: an overflow in a group that
-- LIMIT leaves out is PostgreSQL's error too
SELECT grp, grp * 1000000000, count(*) FROM par_src GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 1;
SELECT grp, grp * 1000000000, count(*) FROM par_one GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 1;
SELECT grp, grp * 100000000, count(*) FROM par_one WHERE grp < 3 GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 1;
SELECT grp, grp * 100000000, count(*) FROM par_src WHERE grp < 3 GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT 1;

-- text min/max compare each dictionary index once (accumulate.c), so
-- indices must not carry over between dictionaries: in tmm, index 0 of each
-- row group's dictionary holds another string ('m', 'b', 'a'), index 1 too
-- ('q', 'z', 'y'), and the extremes come in the later row groups; per group
-- (g) and without, with NULLs, and under FILTER (which reads no indices).
-- Under a nondeterministic collation every row is compared: on a tie the
-- later value wins, as in text_smaller, so 'b', 'B', 'b' give 'b'
CREATE TABLE tmm_src AS
SELECT i, i % 2 AS g,
       CASE WHEN i % 7 = 3 THEN NULL
            ELSE (ARRAY['m', 'q', 'b', 'z', 'a', 'y'])[(i / 1000) * 2 + i % 2 + 1] END AS t
  FROM generate_series(0, 2999) AS i;
COPY tmm_src TO '/tmp/parquet_fdw_test/out/tmm.parquet'
    WITH (FORMAT parquet, row_group_size 1000);
CREATE FOREIGN TABLE tmm (i int, g int, t text)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/tmm.parquet');
SELECT n, c.grouped, c.differing
  FROM (VALUES (1, $$SELECT min(t), max(t), count(t), sum(i) FROM TBL$$),
               (2, $$SELECT g, min(t), max(t) FROM TBL GROUP BY g$$),
               (3, $$SELECT min(t), max(t) FROM TBL WHERE i >= 1000$$),
               (4, $$SELECT min(t) FILTER (WHERE i % 3 = 0), max(t) FROM TBL$$)) AS x(n, q),
       LATERAL gs_check(replace(q, 'TBL', 'tmm'), replace(q, 'TBL', 'tmm_src')) AS c
 ORDER BY n;
SELECT min(t), max(t) FROM tmm;
-- Under the C collation text min/max compare bytes, not through bttextcmp:
-- prefixes, the empty string and bytes above 0x7f; under a deterministic
-- ICU collation, whose order is not the bytes' ('a' < 'B' < 'e' < 'é' <
-- 'Z'), they still go through bttextcmp
CREATE TABLE tcoll_src AS
SELECT i, (ARRAY['b', 'B', 'ab', 'a', 'A', 'é', 'e', 'Z', ''])[i % 9 + 1] AS t
  FROM generate_series(0, 899) AS i;
COPY tcoll_src TO '/tmp/parquet_fdw_test/out/tcoll.parquet'
    WITH (FORMAT parquet, row_group_size 100);
CREATE FOREIGN TABLE tcoll (i int, t text)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/tcoll.parquet');
SELECT n, c.grouped, c.differing
  FROM (VALUES (1, $$SELECT min(t), max(t), sum(i) FROM TBL$$),
               (2, $$SELECT min(t), max(t) FROM TBL WHERE t <> ''$$),
               (3, $$SELECT min(t COLLATE "und-x-icu"), max(t COLLATE "und-x-icu") FROM TBL$$),
               (4, $$SELECT i % 4, min(t), max(t COLLATE "und-x-icu") FROM TBL GROUP BY 1$$),
               (5, $$SELECT min(t), max(t) FROM TBL WHERE t < 'b'$$)) AS x(n, q),
       LATERAL gs_check(replace(q, 'TBL', 'tcoll'), replace(q, 'TBL', 'tcoll_src')) AS c
 ORDER BY n;
SELECT min(t), max(t), min(t COLLATE "und-x-icu") AS icu_min,
       max(t COLLATE "und-x-icu") AS icu_max FROM tcoll WHERE t <> '';
SELECT min(t), max(t) FROM tcoll WHERE t < 'b';
DROP FOREIGN TABLE tcoll;
DROP TABLE tcoll_src;
SELECT tbl, c.grouped, c.differing
  FROM (VALUES ('dict_rg'), ('dict_fb')) AS t(tbl),
       LATERAL gs_check(replace($$SELECT g, min(k), max(k), min(wide), max(wide) FROM TBL GROUP BY g$$, 'TBL', tbl),
                        $$SELECT g, min(k), max(k), min(wide), max(wide) FROM dict_src GROUP BY g$$) AS c
 ORDER BY tbl;
CREATE COLLATION gs_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE tci_src (i int, t text COLLATE gs_ci);
INSERT INTO tci_src
SELECT i, (ARRAY['b', 'B', 'b', 'c'])[i % 4 + 1] FROM generate_series(0, 98) AS i;
COPY tci_src TO '/tmp/parquet_fdw_test/out/tci.parquet' WITH (FORMAT parquet);
CREATE FOREIGN TABLE tci (i int, t text COLLATE gs_ci)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/tci.parquet');
SELECT * FROM gs_check($$SELECT min(t), max(t), sum(i) FROM tci$$,
                       $$SELECT min(t), max(t), sum(i) FROM tci_src$$);
-- equality under it is texteq's own call (vexpr_func.c), not bytes
SELECT * FROM gs_check($$SELECT count(*) FILTER (WHERE t = 'B'), sum(i) FILTER (WHERE t <> 'c') FROM tci$$,
                       $$SELECT count(*) FILTER (WHERE t = 'B'), sum(i) FILTER (WHERE t <> 'c') FROM tci_src$$);
SELECT count(*) FILTER (WHERE t = 'B') FROM tci;
SELECT min(t), max(t), sum(i) FROM tci;
DROP FOREIGN TABLE tci;
DROP TABLE tci_src;
DROP COLLATION gs_ci;

-- PostgreSQL's errors, from the same rows: the heap's first
SELECT sum(id * 1000000000000000) FROM par_src;
SELECT sum(id * 1000000000000000) FROM par_one;
SELECT grp, sum(id / (grp - grp)) FROM par_src GROUP BY grp;
SELECT grp, sum(id / (grp - grp)) FROM par_one GROUP BY grp;
SELECT sum(ratio * 1e306) FROM par_src;
SELECT sum(ratio * 1e306) FROM par_one;
SELECT sum(CASE WHEN grp = 3 THEN id / (grp - 3) END) FROM par_src;
SELECT sum(CASE WHEN grp = 3 THEN id / (grp - 3) END) FROM par_one;
-- integer + - * run as one loop per batch: a row past int4's or int2's
-- range, NULL rows among them, is PostgreSQL's error; in range, its sums
SELECT sum(grp * 300000000) FROM par_src;
SELECT sum(grp * 300000000) FROM par_one;
SELECT sum(grp::int2 * 4000::int2) FROM par_src;
SELECT sum(grp::int2 * 4000::int2) FROM par_one;
SELECT sum(CASE WHEN grp < 8 THEN grp * 300000000 END) FROM par_src;
SELECT sum(CASE WHEN grp < 8 THEN grp * 300000000 END) FROM par_one;
SELECT * FROM gs_same($$SELECT sum(grp * 200000000), sum(grp + 1), avg(grp - 1),
    sum(grp * grp), sum(id * 3), avg(id - 5), count(grp) FROM TBL$$);

-- past hash_mem the groups spill to temporary files, and the answer stays
-- the same
SET work_mem = '64kB';
SELECT * FROM gs_same($$SELECT id % 20000 AS k, name, count(*), sum(ratio), min(name)
    FROM TBL GROUP BY 1, 2$$);
SELECT gs_explain_value('SELECT id % 20000, count(*) FROM par_one GROUP BY 1',
                        'Spilled Partitions') > 0 AS spilled;
RESET work_mem;

-- rescans: correlated subqueries and prepared statements with parameters
SELECT x, (SELECT sum(id) FROM par_one WHERE grp = x) AS fdw,
          (SELECT sum(id) FROM par_src WHERE grp = x) AS heap
  FROM generate_series(1, 3) AS x;
PREPARE gs_prep(int) AS SELECT grp, count(*), max(id) FROM par_one WHERE grp > $1 GROUP BY grp ORDER BY grp;
SET plan_cache_mode = force_generic_plan;
SELECT explain_filter('COSTS OFF', $q$EXECUTE gs_prep(6)$q$);
EXECUTE gs_prep(6);
EXECUTE gs_prep(8);
RESET plan_cache_mode;
DEALLOCATE gs_prep;

-- parallel plans: each process aggregates the row groups it claims into
-- partial states, PostgreSQL combines them (floats left out: their sums
-- depend on which process adds which rows)
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT grp, count(*), sum(grp), avg(grp), min(name), max(day) FROM par_one GROUP BY grp;
SELECT * FROM gs_same($$SELECT grp, count(*), count(ratio), sum(grp), avg(grp), min(name), max(day),
    min(id), max(amount), bool_or(id > 50000) FROM TBL GROUP BY grp$$);
SELECT * FROM gs_same($$SELECT name, count(*), avg(grp) FROM TBL WHERE id > 100 GROUP BY name$$);
-- sum(bigint) and sum(numeric) have internal states, which no parallel
-- grouped scan returns: a grouped scan without workers, or PostgreSQL's
-- partial aggregation over the parallel scan, whichever costs less
EXPLAIN (COSTS OFF) SELECT grp, sum(id) FROM par_one GROUP BY grp;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- left to PostgreSQL's Aggregate: DISTINCT float sums and averages (their
-- rounding depends on the order), FILTERs the scan cannot evaluate
-- (a function that is not immutable), ordered and other
-- aggregates, numeric division and numeric expressions whose bounds pass
-- 64 bits,
-- keys of floats or of a nondeterministic collation, quals the scan cannot
-- evaluate, grouping sets
-- (Sort Key lines left out: PostgreSQL 16 and later also sort by name)
SELECT explain_filter('COSTS OFF', $q$SELECT grp, sum(DISTINCT ratio) FROM par_one GROUP BY grp$q$, '^\s+Sort Key:');
EXPLAIN (COSTS OFF) SELECT sum(id) FILTER (WHERE to_char(id, 'FM9') = '1') FROM par_one;
EXPLAIN (COSTS OFF) SELECT string_agg(name, ',') FROM par_one;
EXPLAIN (COSTS OFF) SELECT sum(amount / 2) FROM par_one;
EXPLAIN (COSTS OFF) SELECT sum(amount * amount * amount * amount * amount * amount) FROM par_one;
EXPLAIN (COSTS OFF) SELECT sum(amount * 1234567890123456.7) FROM par_one;
EXPLAIN (COSTS OFF) SELECT ratio, count(*) FROM par_one GROUP BY ratio;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_one WHERE id::text = '5';
EXPLAIN (COSTS OFF) SELECT grp, count(*) FROM par_one GROUP BY ROLLUP (grp);
CREATE COLLATION gs_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXPLAIN (COSTS OFF) SELECT name COLLATE gs_ci, count(*) FROM par_one GROUP BY 1;
DROP COLLATION gs_ci;
-- and everything, when grouped scans are off
SET parquet_fdw.enable_grouped_scan = off;
EXPLAIN (COSTS OFF) SELECT grp, count(*) FROM par_one GROUP BY grp;
RESET parquet_fdw.enable_grouped_scan;

RESET enable_sort;
RESET max_parallel_workers_per_gather;
DROP FUNCTION gs_same(text);
DROP FUNCTION gs_check(text, text);
DROP FUNCTION gs_explain_value(text, text);
DROP FUNCTION gs_keyed(text);
DROP TABLE dict_src;
DROP FOREIGN TABLE dict_rg, dict_fb;
DROP FOREIGN TABLE tmm;
DROP TABLE tmm_src;
