-- Shared set-up for the regression suites: the extension, a server, the
-- fixture directory and the expected contents of the DuckDB "types" fixtures
-- computed independently from the formulas in test/fixtures.md.
CREATE EXTENSION parquet_fdw;
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;

-- Reads every fixture through a foreign table with the natural types and
-- compares it row by row (as text) with the expected rows.
CREATE FUNCTION check_file(path text, expected regclass) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    nrows bigint;
    nbad bigint;
    firstbad bigint;
BEGIN
    EXECUTE parquet_fdw.create_table_sql(path, 'ft_check');
    EXECUTE format(
        'SELECT count(*), count(*) FILTER (WHERE e::text IS DISTINCT FROM t::text),
                min(coalesce(e.id, t.id)) FILTER (WHERE e::text IS DISTINCT FROM t::text)
           FROM %s e FULL JOIN ft_check t USING (id)', expected)
        INTO nrows, nbad, firstbad;
    DROP FOREIGN TABLE ft_check;
    RETURN format('%s rows, %s mismatches%s', nrows, nbad,
                  CASE WHEN nbad > 0 THEN ', first at id ' || firstbad ELSE '' END);
END
$$;

-- Rows of query a missing from query b's answer and the other way round,
-- compared as a multiset of their text forms: 0 when the answers are the
-- same.  The heap-comparison helpers of the suites call it.
CREATE FUNCTION rows_differing(a text, b text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM ((SELECT x::text FROM (%s) x EXCEPT ALL SELECT x::text FROM (%s) x)'
                   ' UNION ALL (SELECT x::text FROM (%s) x EXCEPT ALL SELECT x::text FROM (%s) x)) d',
                   a, b, b, a)
        INTO n;
    RETURN n;
END $$;

-- EXPLAIN (options) of a query, its text the same on every PostgreSQL
-- version the suites run on: actual row counts rounded as versions before
-- 18 print them (18 prints two decimals), "Disabled: true" lines (18)
-- left out, an equality of two qualified columns or parameters written in
-- name order (17 commutes some join clauses), and lines matching drop (when
-- given) left out.  One function instead of an alternate expected file per version.
CREATE FUNCTION explain_filter(options text, q text, drop text DEFAULT NULL)
RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    m text[];
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (' || options || ') ' || q LOOP
        CONTINUE WHEN line ~ '^\s*Disabled: true$';
        CONTINUE WHEN drop IS NOT NULL AND line ~ drop;
        LOOP
            m := regexp_match(line, 'rows=([0-9]+\.[0-9]+)');
            EXIT WHEN m IS NULL;
            line := regexp_replace(line, 'rows=[0-9]+\.[0-9]+',
                                   'rows=' || round(m[1]::float8)::bigint);
        END LOOP;
        m := regexp_match(line, '\((\$[0-9]+|[a-z_][a-z0-9_]*\.[a-z0-9_]+) = (\$[0-9]+|[a-z_][a-z0-9_]*\.[a-z0-9_]+)\)');
        IF m IS NOT NULL AND m[1] > m[2] THEN
            line := replace(line, '(' || m[1] || ' = ' || m[2] || ')',
                            '(' || m[2] || ' = ' || m[1] || ')');
        END IF;
        RETURN NEXT line;
    END LOOP;
END
$$;

-- Runs a statement that must fail; reports the SQLSTATE and whether the
-- message names the file.
CREATE FUNCTION expect_error(stmt text, file text DEFAULT NULL) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE stmt;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE ||
        CASE WHEN file IS NULL THEN ''
             WHEN position(file IN SQLERRM) > 0 THEN ' (message names the file)'
             ELSE ' (message does not name the file: ' || SQLERRM || ')' END;
END
$$;

CREATE VIEW expected_types AS
SELECT
  i AS id,
  CASE WHEN i % 7 = 3 THEN NULL ELSE i % 3 = 0 END AS c_bool,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (i % 256 - 128)::int2 END AS c_int1,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 37 % 65536 - 32768)::int2 END AS c_int2,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (CASE WHEN i = 1 THEN -2147483648 WHEN i = 2 THEN 2147483647 ELSE i * 7919 % 2000000 - 1000000 END)::int4 END AS c_int4,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (CASE WHEN i = 1 THEN -9223372036854775808 WHEN i = 2 THEN 9223372036854775807 ELSE i * 1000000007 - 2500000000000 END)::int8 END AS c_int8,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (i % 256)::int2 END AS c_uint1,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (CASE WHEN i = 2 THEN 65535 ELSE i * 13 % 65536 END)::int4 END AS c_uint2,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (CASE WHEN i = 2 THEN 4294967295 ELSE i * 858993 END)::int8 END AS c_uint4,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (CASE WHEN i = 2 THEN 18446744073709551615 ELSE i::numeric * 3689348814741910 END)::numeric END AS c_uint8,
  CASE WHEN i % 7 = 3 THEN NULL ELSE CASE WHEN i = 4 THEN 'NaN'::float4 WHEN i = 5 THEN 'Infinity'::float4 WHEN i = 6 THEN '-Infinity'::float4 WHEN i = 8 THEN '-0'::float4 ELSE (i - 2500)::float4 / 7::float4 END END AS c_float,
  CASE WHEN i % 7 = 3 THEN NULL ELSE CASE WHEN i = 4 THEN 'NaN'::float8 WHEN i = 5 THEN 'Infinity'::float8 WHEN i = 6 THEN '-Infinity'::float8 WHEN i = 8 THEN '-0'::float8 WHEN i = 9 THEN '1.7976931348623157e308'::float8 WHEN i = 11 THEN '4.9e-324'::float8 ELSE (i - 2500)::float8 / 7::float8 END END AS c_double,
  CASE WHEN i % 7 = 3 THEN NULL ELSE ((i * 4 - 9999) * 0.01)::numeric(4,2) END AS c_dec4_2,
  CASE WHEN i % 7 = 3 THEN NULL ELSE ((i * 199999 - 499999999) * 0.001)::numeric(9,3) END AS c_dec9_3,
  CASE WHEN i % 7 = 3 THEN NULL ELSE ((i * 199999999999999 - 499999999999999999) * 0.0001)::numeric(18,4) END AS c_dec18_4,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (((i - 2500) * 3999999999999999999999999)::text || '.' || lpad((i * 7777777 % 10000000000)::text, 10, '0'))::numeric(38,10) END AS c_dec38_10,
  CASE WHEN i % 7 = 3 THEN NULL ELSE 'str_' || i END AS c_varchar,
  CASE WHEN i % 7 = 3 THEN NULL ELSE repeat('abcdefghij', (10 + i % 5)::int) || 'ü€😀' || i END AS c_varchar_long,
  CASE WHEN i % 7 = 3 THEN NULL ELSE CASE WHEN i % 11 = 0 THEN ''::bytea ELSE decode(lpad(to_hex(i * 2654435761 % 4294967296), 8, '0'), 'hex') END END AS c_blob,
  CASE WHEN i % 7 = 3 THEN NULL ELSE CASE WHEN i = 1 THEN DATE '0001-01-01' WHEN i = 2 THEN DATE '9999-12-31' ELSE DATE '1970-01-01' + (i * 13 - 30000)::int4 END END AS c_date,
  CASE WHEN i % 7 = 3 THEN NULL ELSE CASE WHEN i = 2 THEN TIME '23:59:59.999999' ELSE TIME '00:00:00' + (i * 17000123) * INTERVAL '1 microsecond' END END AS c_time,
  CASE WHEN i % 7 = 3 THEN NULL ELSE TIMESTAMP '1900-01-01 00:00:00' + (i * 1234567890123) * INTERVAL '1 microsecond' END AS c_timestamp,
  CASE WHEN i % 7 = 3 THEN NULL ELSE TIMESTAMPTZ '1900-01-01 00:00:00+00' + (i * 1234567890123) * INTERVAL '1 microsecond' END AS c_timestamptz,
  CASE WHEN i % 7 = 3 THEN NULL ELSE TIMESTAMP '1900-01-01 00:00:00' + (i * 1234567890) * INTERVAL '1 millisecond' END AS c_timestamp_ms,
  CASE WHEN i % 7 = 3 THEN NULL ELSE TIMESTAMP '1900-01-01 00:00:00' + (i * 1234567) * INTERVAL '1 second' END AS c_timestamp_s,
  CASE WHEN i % 7 = 3 THEN NULL ELSE TIMESTAMP '1970-01-01 00:00:00' + (((i - 2500) * 123456789012345 - (((i - 2500) * 123456789012345) % 1000 + 1000) % 1000) / 1000) * INTERVAL '1 microsecond' END AS c_timestamp_ns,
  CASE WHEN i % 7 = 3 THEN NULL ELSE md5(i::text)::uuid END AS c_uuid,
  CASE WHEN i % 7 = 3 THEN NULL ELSE make_interval(months => (i % 13)::int, days => (i % 31)::int) + (i * 123457) * INTERVAL '1 millisecond' END AS c_interval,
  CASE WHEN i % 7 = 3 THEN NULL ELSE jsonb_build_object('i', i, 's', 'v' || i) END AS c_json,
  CASE WHEN i % 7 = 3 THEN NULL ELSE (ARRAY['red', 'green', 'blue'])[i % 3 + 1] END AS c_enum,
  (i * 3 - 7000)::int4 AS c_int4_nn,
  (i * 0.5)::float8 AS c_double_nn,
  'nn_' || i AS c_varchar_nn,
  i % 2 = 1 AS c_bool_nn
FROM generate_series(0::bigint, 4999) AS g(i);

-- The top plan node's row estimate.
CREATE FUNCTION top_plan_rows(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
    RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
