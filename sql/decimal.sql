-- DECIMAL stored as INT32/INT64 becomes numeric through convert_decimal.c,
-- which writes numeric's storage format itself: every value must be, byte
-- for byte, the numeric PostgreSQL computes (*= on a one-field composite
-- compares the datums' bytes).  Written by COPY TO (INT32 for precision up
-- to 9, INT64 up to 18; the library loaded for COPY's format), read back,
-- compared with the source.  Scales 0 to 4 and 6 have conversion loops of
-- their own; 5, 9, 17 and 18 take the general one.
LOAD 'parquet_fdw';
COPY (SELECT 1) TO PROGRAM 'mkdir -p /tmp/parquet_fdw_test/out; chmod 777 /tmp/parquet_fdw_test/out 2>/dev/null; true';
CREATE TYPE dec_image AS (v numeric);

CREATE TABLE dec_src AS
SELECT i,
       v::numeric(9, 0) AS d9_0, (v * 1e-3)::numeric(9, 3) AS d9_3,
       (v * 1e-9)::numeric(9, 9) AS d9_9, (w * 1e-2)::numeric(18, 2) AS d18_2,
       (w * 1e-4)::numeric(18, 4) AS d18_4, (w * 1e-5)::numeric(18, 5) AS d18_5,
       (w * 1e-17)::numeric(18, 17) AS d18_17, (w * 1e-18)::numeric(18, 18) AS d18_18,
       w::numeric(18, 0) AS d18_0,
       (v * 1e-1)::numeric(9, 1) AS d9_1, (v * 1e-2)::numeric(9, 2) AS d9_2,
       (v * 1e-4)::numeric(9, 4) AS d9_4, (v * 1e-6)::numeric(9, 6) AS d9_6,
       (w * 1e-1)::numeric(18, 1) AS d18_1, (w * 1e-3)::numeric(18, 3) AS d18_3,
       (w * 1e-6)::numeric(18, 6) AS d18_6
FROM (SELECT i,
             CASE i % 5 WHEN 0 THEN 0 WHEN 1 THEN 999999999 WHEN 2 THEN -999999999
                  ELSE (hashint4(i) % 1000000000) END::numeric AS v,
             CASE i % 7 WHEN 0 THEN 0 WHEN 1 THEN 999999999999999999
                  WHEN 2 THEN -999999999999999999 WHEN 3 THEN 10000
                  WHEN 4 THEN (hashint4(i)::int8 % 100000000 * 1234567)
                  ELSE (hashint8(i)::int8 * 214748364) END::numeric AS w
      FROM generate_series(0, 9999) i) s;
INSERT INTO dec_src (i) VALUES (-1);

COPY dec_src TO '/tmp/parquet_fdw_test/out/decimals.parquet' WITH (FORMAT parquet);
SELECT name, physical_type, logical_type
FROM parquet_fdw.schema('/tmp/parquet_fdw_test/out/decimals.parquet')
WHERE depth = 1 ORDER BY ordinal;
SELECT parquet_fdw.create_table_sql('/tmp/parquet_fdw_test/out/decimals.parquet', 'ft_dec') \gexec

SELECT count(*) AS rows,
       count(*) FILTER (WHERE NOT (row(f.d9_0)::dec_image *= row(s.d9_0)::dec_image)) AS d9_0,
       count(*) FILTER (WHERE NOT (row(f.d9_3)::dec_image *= row(s.d9_3)::dec_image)) AS d9_3,
       count(*) FILTER (WHERE NOT (row(f.d9_9)::dec_image *= row(s.d9_9)::dec_image)) AS d9_9,
       count(*) FILTER (WHERE NOT (row(f.d18_0)::dec_image *= row(s.d18_0)::dec_image)) AS d18_0,
       count(*) FILTER (WHERE NOT (row(f.d18_2)::dec_image *= row(s.d18_2)::dec_image)) AS d18_2,
       count(*) FILTER (WHERE NOT (row(f.d18_4)::dec_image *= row(s.d18_4)::dec_image)) AS d18_4,
       count(*) FILTER (WHERE NOT (row(f.d18_5)::dec_image *= row(s.d18_5)::dec_image)) AS d18_5,
       count(*) FILTER (WHERE NOT (row(f.d18_17)::dec_image *= row(s.d18_17)::dec_image)) AS d18_17,
       count(*) FILTER (WHERE NOT (row(f.d18_18)::dec_image *= row(s.d18_18)::dec_image)) AS d18_18,
       count(*) FILTER (WHERE NOT (row(f.d9_1)::dec_image *= row(s.d9_1)::dec_image)) AS d9_1,
       count(*) FILTER (WHERE NOT (row(f.d9_2)::dec_image *= row(s.d9_2)::dec_image)) AS d9_2,
       count(*) FILTER (WHERE NOT (row(f.d9_4)::dec_image *= row(s.d9_4)::dec_image)) AS d9_4,
       count(*) FILTER (WHERE NOT (row(f.d9_6)::dec_image *= row(s.d9_6)::dec_image)) AS d9_6,
       count(*) FILTER (WHERE NOT (row(f.d18_1)::dec_image *= row(s.d18_1)::dec_image)) AS d18_1,
       count(*) FILTER (WHERE NOT (row(f.d18_3)::dec_image *= row(s.d18_3)::dec_image)) AS d18_3,
       count(*) FILTER (WHERE NOT (row(f.d18_6)::dec_image *= row(s.d18_6)::dec_image)) AS d18_6
FROM ft_dec f FULL JOIN dec_src s USING (i);

-- The comparison sees a difference in dscale alone.
SELECT row(1.50::numeric)::dec_image *= row(1.5::numeric)::dec_image AS same_image,
       1.50::numeric = 1.5::numeric AS same_value;

DROP FOREIGN TABLE ft_dec;
DROP TABLE dec_src;
DROP TYPE dec_image;
