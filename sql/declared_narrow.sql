-- Columns declared narrower than the file's type read each value through
-- PostgreSQL's own assignment cast, as an INSERT of the file's values into
-- a table of the declared types would: every value that fits reads as that
-- INSERT stores it, and the first one that does not raises the same error.
-- The heap table is the truth; the files are DuckDB's dictionary, plain and
-- delta encodings and one COPY TO writes with small pages and a page index.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
LOAD 'parquet_fdw';
SET TimeZone = 'America/New_York';
CREATE TABLE dn_heap AS SELECT * FROM expected_types;
ALTER TABLE dn_heap ALTER COLUMN c_uint8 TYPE numeric(20,0),
    ALTER COLUMN c_dec38_10 TYPE numeric(38,10);
COPY (SELECT * FROM dn_heap ORDER BY id)
    TO '/tmp/parquet_fdw_test/out/dn_ours.parquet'
    WITH (FORMAT parquet, row_group_size 1500, data_page_size 2000);

CREATE FUNCTION dn_files() RETURNS TABLE (label text, path text)
LANGUAGE sql AS $$
    VALUES ('dict', '/tmp/parquet_fdw_test/fixtures/duckdb_types_snappy_dict.parquet'),
           ('plain', '/tmp/parquet_fdw_test/fixtures/duckdb_types_zstd_plain.parquet'),
           ('delta', '/tmp/parquet_fdw_test/fixtures/duckdb_types_zstd_delta.parquet'),
           ('ours', '/tmp/parquet_fdw_test/out/dn_ours.parquet')
$$;

-- What the INSERT does (its error, or the md5 of the rows it stores) and
-- what each file's foreign table reads, for rows matching cond.
CREATE FUNCTION dn_check(col text, decl text, cond text DEFAULT 'true')
    RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    want text;
    got text;
    f record;
    n bigint;
    bad text := '';
BEGIN
    EXECUTE format('CREATE TEMP TABLE dn_want (id bigint, v %s)', decl);
    BEGIN
        EXECUTE format('INSERT INTO dn_want SELECT id, %I FROM dn_heap', col);
        EXECUTE format('SELECT count(*), md5(string_agg(id || %L || coalesce(v::text, %L), %L ORDER BY id)) FROM dn_want WHERE %s',
                       ':', 'NULL', ',', cond) INTO n, want;
        want := format('%s rows %s', n, want);
    EXCEPTION WHEN OTHERS THEN
        want := format('ERROR %s: %s', SQLSTATE, SQLERRM);
    END;
    DROP TABLE dn_want;
    FOR f IN SELECT * FROM dn_files() LOOP
        EXECUTE format('CREATE FOREIGN TABLE dn_ft (id bigint, v %s OPTIONS (column_name %L)) SERVER parquet_srv OPTIONS (filename %L)',
                       decl, col, f.path);
        BEGIN
            EXECUTE format('SELECT count(*), md5(string_agg(id || %L || coalesce(v::text, %L), %L ORDER BY id)) FROM dn_ft WHERE %s',
                           ':', 'NULL', ',', cond) INTO n, got;
            got := format('%s rows %s', n, got);
        EXCEPTION WHEN OTHERS THEN
            got := format('ERROR %s: %s', SQLSTATE, SQLERRM);
        END;
        DROP FOREIGN TABLE dn_ft;
        IF got IS DISTINCT FROM want THEN
            bad := bad || format(' %s: %s;', f.label, got);
        END IF;
    END LOOP;
    RETURN CASE WHEN bad = '' THEN 'same: ' || regexp_replace(want, ' [0-9a-f]{32}$', '')
                ELSE format('DIFFERENT from the INSERT (%s):%s', want, bad) END;
END
$$;

SELECT col, decl, dn_check(col, decl) FROM (VALUES
    -- integers by range
    ('c_int4_nn', 'smallint'), ('c_int4', 'smallint'), ('c_int8', 'integer'),
    ('c_int8', 'smallint'), ('c_uint2', 'smallint'), ('c_uint4', 'integer'),
    ('c_uint8', 'bigint'), ('c_int1', 'smallint'),
    -- floats: rounded to integers, double to real
    ('c_double_nn', 'smallint'), ('c_double_nn', 'integer'), ('c_double_nn', 'real'),
    ('c_double', 'real'), ('c_float', 'integer'), ('c_float', 'bigint'),
    ('c_double_nn', 'numeric(6,1)'), ('c_double_nn', 'numeric(4,1)'),
    -- decimals: fewer digits round, too few overflow; to integers round
    ('c_dec9_3', 'numeric(12,2)'), ('c_dec9_3', 'numeric(10,1)'), ('c_dec9_3', 'numeric(6,1)'),
    ('c_dec18_4', 'numeric(10,2)'), ('c_dec18_4', 'bigint'), ('c_dec9_3', 'integer'),
    ('c_dec4_2', 'smallint'), ('c_dec38_10', 'bigint'), ('c_dec38_10', 'numeric(38,2)'),
    ('c_int8', 'numeric(10,0)'), ('c_int4_nn', 'numeric(4,0)'),
    -- strings by length
    ('c_varchar', 'varchar(5)'), ('c_varchar', 'varchar(8)'), ('c_varchar_nn', 'char(7)'),
    ('c_varchar_nn', 'char(5)'), ('c_varchar_long', 'varchar(200)'),
    ('c_varchar_long', 'varchar(120)'), ('c_enum', 'varchar(3)'), ('c_enum', 'char(5)'),
    -- date and time
    ('c_timestamp', 'date'), ('c_timestamp', 'time'), ('c_timestamptz', 'timestamp'),
    ('c_timestamptz', 'date'), ('c_timestamptz', 'time'), ('c_timestamptz', 'timetz'),
    ('c_interval', 'time'), ('c_timestamp_ns', 'date')
) AS t(col, decl);

-- Rows a WHERE clause on the narrowed column keeps, where every value fits:
-- the clause compares the cast values, and statistics prune by them.
SELECT col, decl, cond, dn_check(col, decl, cond) FROM (VALUES
    ('c_int4_nn', 'smallint', 'v < -6990'), ('c_int4_nn', 'smallint', 'v = 7001'),
    ('c_int4_nn', 'smallint', 'v BETWEEN 100 AND 200'), ('c_int4_nn', 'smallint', 'v IN (5, 8, 11)'),
    ('c_double_nn', 'smallint', 'v = 2'), ('c_double_nn', 'smallint', 'v >= 2499'),
    ('c_double_nn', 'real', 'v = 1.5'), ('c_double_nn', 'real', 'v > 2400'),
    ('c_double_nn', 'numeric(6,1)', 'v = 12.5'),
    ('c_dec9_3', 'numeric(10,1)', 'v > 400000'), ('c_dec9_3', 'numeric(10,1)', 'v < -499000'),
    ('c_dec9_3', 'integer', 'v = 0'), ('c_dec18_4', 'bigint', 'v > 0 AND v < 100000000000'),
    ('c_varchar', 'varchar(8)', 'v = ''str_42'''), ('c_varchar', 'varchar(8)', 'v LIKE ''str_1%'''),
    ('c_timestamp', 'date', 'v = DATE ''1900-01-15'''), ('c_timestamp', 'date', 'v > DATE ''2090-01-01''')
) AS t(col, decl, cond);

-- Statistics that do not fit bound nothing: a row group holding a value
-- out of range is read, and its value is the error.
CREATE FOREIGN TABLE dn_int8 (id bigint, c_int8 integer)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/dn_ours.parquet');
SELECT count(*) FROM dn_int8 WHERE c_int8 = 5;
DO $$
BEGIN
    PERFORM count(*) FROM dn_int8 WHERE c_int8 = 5;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE '%: %', SQLSTATE, SQLERRM;
END $$;
-- min and max from the footers only where the bounds fit: else read
SELECT max(c_int8) FROM dn_int8;
CREATE FOREIGN TABLE dn_small (id bigint, c_int4_nn smallint, c_double_nn real,
                               c_dec9_3 numeric(10,1), c_varchar varchar(8))
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/dn_ours.parquet');
SELECT (SELECT row(min(c_int4_nn), max(c_int4_nn), min(c_double_nn), max(c_double_nn),
                   min(c_dec9_3), max(c_dec9_3), min(c_varchar), max(c_varchar))::text
          FROM dn_small) =
       (SELECT row(min(c_int4_nn::smallint), max(c_int4_nn::smallint),
                   min(c_double_nn::real), max(c_double_nn::real),
                   min(c_dec9_3::numeric(10,1)), max(c_dec9_3::numeric(10,1)),
                   min(c_varchar::varchar(8)), max(c_varchar::varchar(8)))::text
          FROM dn_heap) AS same_min_max;
-- grouped in the scan, and as vectors
SELECT (SELECT md5(string_agg(g::text, ',' ORDER BY g)) FROM
          (SELECT (c_int4_nn / 1000, count(*), sum(c_double_nn), sum(c_dec9_3)) AS g
             FROM dn_small GROUP BY c_int4_nn / 1000) s) =
       (SELECT md5(string_agg(g::text, ',' ORDER BY g)) FROM
          (SELECT (c_int4_nn::smallint / 1000, count(*), sum(c_double_nn::real),
                   sum(c_dec9_3::numeric(10,1))) AS g
             FROM dn_heap GROUP BY c_int4_nn::smallint / 1000) s) AS same_groups;
-- row groups still pruned by the narrowed column's statistics
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF',
                      $q$SELECT count(*) FROM dn_small WHERE c_int4_nn BETWEEN 100 AND 200$q$);

-- A local timestamp read as timestamptz: across a DST gap a later local
-- time can be an earlier instant (02:30 is 03:30+02, after 03:00+02), so
-- under a zone with DST its statistics neither prune nor answer min/max.
SET TimeZone = 'Europe/Paris';
CREATE TABLE dn_gap AS
    SELECT TIMESTAMP '2024-03-31 00:00' + g * interval '15 min' AS ts
    FROM generate_series(0, 23) g;
COPY (SELECT ts FROM dn_gap ORDER BY ts) TO '/tmp/parquet_fdw_test/out/dn_gap.parquet'
    WITH (FORMAT parquet, row_group_size 5, data_page_rows 2);
CREATE FOREIGN TABLE dn_gap_ft (ts timestamptz)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/dn_gap.parquet');
SELECT (SELECT count(*) FROM dn_gap_ft WHERE ts = '2024-03-31 03:00+02') AS ft,
       (SELECT count(*) FROM dn_gap WHERE ts::timestamptz = '2024-03-31 03:00+02') AS heap;
SELECT (SELECT count(*) FROM dn_gap_ft WHERE ts < '2024-03-31 03:10+02') AS ft,
       (SELECT count(*) FROM dn_gap WHERE ts::timestamptz < '2024-03-31 03:10+02') AS heap;
SELECT (SELECT row(min(ts), max(ts)) FROM dn_gap_ft) =
       (SELECT row(min(ts::timestamptz), max(ts::timestamptz)) FROM dn_gap) AS same_min_max;
SET TimeZone = 'America/New_York';

-- Declarations no assignment cast allows are refused before any row.
CREATE FOREIGN TABLE dn_refused (c_int8 date)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/dn_ours.parquet');
SELECT * FROM dn_refused;
DROP FOREIGN TABLE dn_int8, dn_small, dn_refused;
DROP FUNCTION dn_check, dn_files;
DROP FOREIGN TABLE dn_gap_ft;
DROP TABLE dn_heap, dn_gap;
RESET TimeZone;
