-- Whole-row values (t.*) that the scan forms itself (row_former.c) are, byte
-- for byte, those PostgreSQL forms from the same row when the scan does not
-- (parquet_fdw.enable_whole_row_forming = off: ExecEvalWholeRowVar).  Both
-- are stored in tables and the rows compared with *= (record_image_eq: the
-- composite datums' bytes, detoasted, header and padding included).
\set fixtures '/tmp/parquet_fdw_test/fixtures'
SET TimeZone = 'UTC';

-- Rows of query stored with the setting on and off: how many, and how many
-- differ.
CREATE FUNCTION compare_whole_rows(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    nrows bigint;
    ndiff bigint;
BEGIN
    SET LOCAL client_min_messages = warning;
    DROP TABLE IF EXISTS wr_on, wr_off;
    SET LOCAL parquet_fdw.enable_whole_row_forming = on;
    EXECUTE 'CREATE TABLE wr_on AS ' || query;
    SET LOCAL parquet_fdw.enable_whole_row_forming = off;
    EXECUTE 'CREATE TABLE wr_off AS ' || query;
    SELECT count(*) INTO nrows FROM wr_on;
    SELECT count(*) INTO ndiff
    FROM wr_on w1 FULL JOIN wr_off w2 ON w1.ctid = w2.ctid
    WHERE w1.ctid IS NULL OR w2.ctid IS NULL OR NOT (w1 *= w2);
    RETURN nrows || ' rows, ' || ndiff || ' differ';
END $$;

SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_types_snappy_dict.parquet', 'ft_wr') \gexec

-- The plan says who forms the whole rows.
EXPLAIN (VERBOSE, COSTS OFF) SELECT t FROM ft_wr t;
SET parquet_fdw.enable_whole_row_forming = off;
EXPLAIN (VERBOSE, COSTS OFF) SELECT t FROM ft_wr t;
RESET parquet_fdw.enable_whole_row_forming;

-- Every flat type with NULLs; rows filtered in batches; whole rows in quals
-- and expressions next to plain columns; a chunk boundary in a LIMIT.
SELECT compare_whole_rows('SELECT t FROM ft_wr t ORDER BY id');
SELECT compare_whole_rows('SELECT t.id, t FROM ft_wr t WHERE c_int4_nn > 0 ORDER BY id');
SELECT compare_whole_rows('SELECT t, c_varchar FROM ft_wr t WHERE t IS DISTINCT FROM NULL AND c_bool ORDER BY id');
SELECT compare_whole_rows('SELECT (SELECT array_agg(t) FROM ft_wr t WHERE id % 7 = 0) AS a');
SELECT compare_whole_rows('SELECT t FROM ft_wr t ORDER BY id LIMIT 300');
SELECT count(*), count(*) FILTER (WHERE row_to_json(t)::text = row_to_json(e)::text)
FROM ft_wr t JOIN expected_types e USING (id);

-- Leading by-value attributes without NULLs are laid out once per chunk:
-- a table of only those (with padding between them), and one where they
-- are followed by a varlena, a fixed-width by-reference type and NULLs.
\set types_file :fixtures '/duckdb_types_snappy_dict.parquet'
CREATE FOREIGN TABLE ft_wr_lead (id bigint, c_int4_nn int, c_double_nn float8, c_bool_nn bool)
SERVER parquet_srv OPTIONS (filename :'types_file');
CREATE FOREIGN TABLE ft_wr_mixed (c_bool_nn bool, c_int4_nn int, c_varchar_nn text,
    c_uuid uuid, c_int2 smallint, id bigint)
SERVER parquet_srv OPTIONS (filename :'types_file');
SELECT compare_whole_rows('SELECT t FROM ft_wr_lead t ORDER BY id');
SELECT compare_whole_rows('SELECT t FROM ft_wr_mixed t ORDER BY id');
SELECT compare_whole_rows('SELECT t FROM ft_wr_mixed t WHERE c_int2 > 0 ORDER BY id');

-- Parameterized rescans.
SELECT compare_whole_rows('SELECT x, s.r FROM generate_series(0, 4999, 97) x, LATERAL (SELECT t FROM ft_wr t WHERE id = x) s(r)');
EXPLAIN (COSTS OFF) SELECT x, s.r FROM generate_series(0, 4999, 97) x, LATERAL (SELECT t FROM ft_wr t WHERE id = x) s(r);

-- A dropped column is NULL in every whole row.
ALTER FOREIGN TABLE ft_wr DROP COLUMN c_int8;
SELECT compare_whole_rows('SELECT t FROM ft_wr t ORDER BY id');
SELECT count(*) FROM ft_wr t WHERE (row_to_json(t)::jsonb) ? 'c_int8';

-- Arrays, composites and jsonb of nested fields; values over 126 bytes keep
-- 4-byte headers.
SELECT parquet_fdw.create_table_sql(:'fixtures' || '/duckdb_nested_types.parquet', 'ft_wr_nested') \gexec
SELECT compare_whole_rows('SELECT t FROM ft_wr_nested t');
SELECT count(*) FILTER (WHERE pg_column_size(t) > 127) > 0 AS long_rows FROM ft_wr_nested t;

-- A row mark's copy of the row (FOR UPDATE of a joined table; UPDATE ...
-- FROM) may come back through EvalPlanQual into the scan tuple, which must
-- then have the table's row type: PostgreSQL's path.
CREATE TABLE wr_local (id bigint PRIMARY KEY, n int);
INSERT INTO wr_local SELECT g, 0 FROM generate_series(0, 9) g;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT l.n, t.c_varchar FROM wr_local l JOIN ft_wr t USING (id) FOR UPDATE OF l;
UPDATE wr_local l SET n = t.c_int4_nn FROM ft_wr t WHERE t.id = l.id;
SELECT count(*) FROM wr_local l JOIN expected_types e USING (id) WHERE l.n = e.c_int4_nn;
DROP TABLE wr_local;

-- System columns are not formed by the scan: PostgreSQL's path.
EXPLAIN (VERBOSE, COSTS OFF) SELECT t, t.tableoid FROM ft_wr t;
SELECT count(*) FROM ft_wr t WHERE t.tableoid = 'ft_wr'::regclass AND t IS NOT NULL;

DROP TABLE wr_on, wr_off;
DROP FOREIGN TABLE ft_wr, ft_wr_nested, ft_wr_lead, ft_wr_mixed;
DROP FUNCTION compare_whole_rows(text);
