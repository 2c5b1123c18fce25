-- Aggregates of a foreign table without quals answered from the footers:
-- count(*) (the sum of the row groups' row counts), count(column) (less the
-- null counts) and min/max of integer, date, time, timestamp, DECIMAL and
-- string columns (the row groups' statistics; a column without usable ones
-- is read instead).  Uses the tables and files of the parallel test;
-- every answer is compared with the heap table's.  Anything else (quals,
-- GROUP BY, count of a nested column, FILTER, HAVING, other types, joins) is
-- not answered from the footers: a grouped scan computes it from the rows
-- (grouped_scan.sql), or PostgreSQL's Aggregate over the scan does.
SET datestyle = 'ISO, YMD';
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

-- min/max from the statistics: integers (also declared wider), dates,
-- timestamps; all-null and empty columns give NULL
EXPLAIN (VERBOSE, COSTS OFF)
SELECT min(id), max(id), min(grp), max(grp), min(day), max(day), count(*) FROM par_one;
SELECT * FROM par_explain('SELECT min(id), max(id), min(grp), max(grp), min(day), max(day), count(*) FROM par_one');
SELECT min(id), max(id), min(grp), max(grp), min(day), max(day), count(*) FROM par_one;
SELECT min(id), max(id), min(grp), max(grp), min(day), max(day), count(*) FROM par_src;
SELECT min(id) + max(id) AS s, max(day) - min(day) AS days FROM par_many;
SELECT min(id) + max(id) AS s, max(day) - min(day) AS days FROM par_enc;
SELECT min(id) + max(id) AS s, max(day) - min(day) AS days FROM par_src;
CREATE FOREIGN TABLE par_wide (id numeric, grp int8) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/par_a.parquet');
EXPLAIN (COSTS OFF) SELECT min(grp), max(grp) FROM par_wide;
SELECT min(grp), max(grp) FROM par_wide;
SELECT min(id) FROM par_empty;

CREATE TABLE par_ts_src AS
SELECT i AS id,
  CASE WHEN i % 7 = 0 THEN NULL ELSE TIMESTAMPTZ '2024-01-01 00:00+00' + i * INTERVAL '37 minutes' END AS tstz,
  TIMESTAMP '2020-01-01' - i * INTERVAL '1 day 3 seconds' AS ts,
  (i % 300 - 150)::int2 AS small,
  NULL::int4 AS nothing
FROM generate_series(1, 5000) AS g(i);
COPY par_ts_src TO '/tmp/parquet_fdw_test/out/par_ts.parquet'
  WITH (FORMAT parquet, row_group_size 1000);
CREATE FOREIGN TABLE par_ts (id int8, tstz timestamptz, ts timestamp, small int2, nothing int4)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/par_ts.parquet');
SELECT * FROM par_explain('SELECT min(tstz), max(tstz), min(ts), max(ts), min(small), max(small), min(nothing), max(nothing) FROM par_ts');
SELECT (SELECT row(min(tstz), max(tstz), min(ts), max(ts), min(small), max(small), min(nothing), max(nothing)) FROM par_ts)
     = (SELECT row(min(tstz), max(tstz), min(ts), max(ts), min(small), max(small), min(nothing), max(nothing)) FROM par_ts_src)
       AS same;

-- without statistics the column is read, with the same answer
COPY par_src TO '/tmp/parquet_fdw_test/out/par_nostats.parquet'
  WITH (FORMAT parquet, row_group_size 5000, statistics off);
CREATE FOREIGN TABLE par_nostats (id int8, grp int4, day date) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/par_nostats.parquet');
SELECT * FROM par_explain('SELECT min(id), max(day), count(*) FROM par_nostats');
SELECT min(id), max(day), count(*) FROM par_nostats;
SELECT min(id), max(day), count(*) FROM par_src;

-- count(column) of flat columns: their row counts less their null counts
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(id), count(grp), count(name), count(amount), count(day), count(doc) FROM par_one;
SELECT * FROM par_explain('SELECT count(id), count(grp), count(name), count(amount), count(day), count(doc), count(*) FROM par_many');
SELECT (SELECT row(count(id), count(grp), count(name), count(amount), count(ratio), count(day), count(doc)) FROM par_one)
     = (SELECT row(count(id), count(grp), count(name), count(amount), count(ratio), count(day), count(doc)) FROM par_src) AS one,
       (SELECT row(count(id), count(grp), count(name), count(amount), count(ratio), count(day), count(doc)) FROM par_enc)
     = (SELECT row(count(id), count(grp), count(name), count(amount), count(ratio), count(day), count(doc)) FROM par_src) AS enc;
SELECT count(tstz), count(nothing), count(small) * 2 AS twice FROM par_ts;
SELECT count(tstz), count(nothing), count(small) * 2 AS twice FROM par_ts_src;
-- without null counts the column is read (only tested for NULL)
SELECT * FROM par_explain('SELECT count(grp) FROM par_nostats');
SELECT count(grp) FROM par_nostats;
SELECT count(grp) FROM par_src;
-- a nested column: PostgreSQL counts the scan's rows
EXPLAIN (COSTS OFF) SELECT count(tags) FROM par_one;

-- min/max of strings, DECIMALs and times: bounds marked exact, in
-- PostgreSQL's order for the declared type and collation (strings as bytes
-- under "C", the test database's default), else the column is read; every
-- answer equals the heap table's
CREATE TABLE par_mm_src AS
SELECT i AS id,
  CASE WHEN i % 11 = 0 THEN NULL
       ELSE 'w' || (i * 7919 % 5003)::text || repeat('é', i % 3) END AS word,
  CASE WHEN i % 13 = 0 THEN NULL
       ELSE ((i * 104729 % 20001 - 10000) / 100.0)::numeric(9,2) END AS d9,
  (i * 1234567.891 - 3e9)::numeric(18,3) AS d18,
  (i * 98765.4321 - 1e8)::numeric(30,4) AS d30,
  TIME '00:00' + (i * 7919 % 86400) * INTERVAL '1 second' AS t
FROM generate_series(1, 6000) AS g(i);
COPY par_mm_src TO '/tmp/parquet_fdw_test/out/par_mm.parquet'
  WITH (FORMAT parquet, row_group_size 1000);
CREATE FOREIGN TABLE par_mm (id int8, word text, d9 numeric(9,2),
                             d18 numeric(18,3), d30 numeric(30,4), t time)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/par_mm.parquet');
SELECT physical_type FROM parquet_fdw.schema('/tmp/parquet_fdw_test/out/par_mm.parquet')
  WHERE name IN ('d9', 'd18', 'd30') ORDER BY name;
SELECT * FROM par_explain('SELECT min(word), max(word), min(d9), max(d9), min(d18), max(d18), min(d30), max(d30), min(t), max(t) FROM par_mm');
SELECT (SELECT row(min(word), max(word), min(d9), max(d9), min(d18), max(d18), min(d30), max(d30), min(t), max(t)) FROM par_mm)
     = (SELECT row(min(word), max(word), min(d9), max(d9), min(d18), max(d18), min(d30), max(d30), min(t), max(t)) FROM par_mm_src)
       AS same;
SELECT min(word), max(word), max(d9), min(t) FROM par_mm;
SELECT * FROM par_explain('SELECT min(name), max(name), min(amount), max(amount) FROM par_many');
SELECT (SELECT row(min(name), max(name), min(amount), max(amount)) FROM par_one)
     = (SELECT row(min(name), max(name), min(amount), max(amount)) FROM par_src) AS one,
       (SELECT row(min(name), max(name), min(amount), max(amount)) FROM par_many)
     = (SELECT row(min(name), max(name), min(amount), max(amount)) FROM par_src) AS many,
       (SELECT row(min(name), max(name), min(amount), max(amount)) FROM par_enc)
     = (SELECT row(min(name), max(name), min(amount), max(amount)) FROM par_src) AS enc;
-- under another collation the strings are read
CREATE FOREIGN TABLE par_mm_icu (word text COLLATE "en-x-icu")
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/par_mm.parquet');
SELECT * FROM par_explain('SELECT min(word), max(word) FROM par_mm_icu');
SELECT (SELECT row(min(word), max(word)) FROM par_mm_icu)
     = (SELECT row(min(word COLLATE "en-x-icu"), max(word COLLATE "en-x-icu")) FROM par_mm_src)
       AS same;
-- truncated string bounds (marked inexact) are not taken
COPY par_mm_src TO '/tmp/parquet_fdw_test/out/par_mm_trunc.parquet'
  WITH (FORMAT parquet, row_group_size 1000, statistics_truncate_length 2);
CREATE FOREIGN TABLE par_mm_trunc (word text)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/par_mm_trunc.parquet');
SELECT * FROM par_explain('SELECT min(word), max(word) FROM par_mm_trunc');
SELECT (SELECT row(min(word), max(word)) FROM par_mm_trunc)
     = (SELECT row(min(word), max(word)) FROM par_mm_src) AS same;
-- DuckDB's file: it marks its string and DECIMAL bounds exact
SELECT parquet_fdw.create_table_sql('/tmp/parquet_fdw_test/fixtures/duckdb_types_snappy_dict.parquet', 'par_duck') \gexec
SELECT * FROM par_explain('SELECT min(c_varchar), max(c_varchar), min(c_dec9_3), max(c_dec18_4), min(c_dec38_10), max(c_dec38_10), min(c_time), max(c_time) FROM par_duck');
SELECT (SELECT row(min(c_varchar), max(c_varchar), min(c_dec9_3), max(c_dec18_4), min(c_dec38_10), max(c_dec38_10), min(c_time), max(c_time)) FROM par_duck)
     = (SELECT row(min(c_varchar), max(c_varchar), min(c_dec9_3), max(c_dec18_4), min(c_dec38_10), max(c_dec38_10), min(c_time), max(c_time)) FROM expected_types)
       AS same;

-- not answered from the footers: the scan aggregates its rows (a grouped
-- scan, FILTER included), or PostgreSQL does (joins)
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_one WHERE id > 5;
EXPLAIN (COSTS OFF) SELECT count(id + 1) FROM par_one;
EXPLAIN (COSTS OFF) SELECT count(*) FILTER (WHERE id > 3) FROM par_one;
EXPLAIN (COSTS OFF) SELECT grp, count(*) FROM par_one GROUP BY grp;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_one HAVING count(*) > 1;
EXPLAIN (COSTS OFF) SELECT count(*), sum(id) FROM par_one;
EXPLAIN (COSTS OFF) SELECT min(ratio) FROM par_one;
EXPLAIN (COSTS OFF) SELECT min(id + 1) FROM par_one;
-- (no Materialize: later PostgreSQL versions put one over the inner scan)
SET enable_material = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_one a, par_chg b;
RESET enable_material;
SELECT count(*) FROM par_one WHERE id > 5;
SELECT count(*) FROM par_src WHERE id > 5;
