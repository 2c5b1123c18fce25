-- COPY table FROM 'file' | STDIN WITH (FORMAT parquet): files written by
-- COPY TO (sql/copy_to.sql, same schedule before this one) and by DuckDB
-- (fixtures), compared with their sources (copy_src, expected_types) with
-- EXCEPT both ways; PostgreSQL's COPY FROM semantics (column lists,
-- defaults, triggers, constraints, partitions, WHERE, FREEZE), permissions,
-- row-level security, progress reporting and errors.
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
SET intervalstyle = 'postgres';
SET extra_float_digits = 3;
\set out '/tmp/parquet_fdw_test/out'
\set fix '/tmp/parquet_fdw_test/fixtures'

-- Rows of a and b (tables or subqueries) that the other lacks, both ways,
-- over the given columns.
CREATE FUNCTION cf_diff(a text, b text, cols text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    n_a bigint;
    n_b bigint;
    only_a bigint;
    only_b bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM %s', a) INTO n_a;
    EXECUTE format('SELECT count(*) FROM %s', b) INTO n_b;
    EXECUTE format('SELECT count(*) FROM (SELECT %s FROM %s EXCEPT ALL SELECT %s FROM %s) x',
                   cols, a, cols, b) INTO only_a;
    EXECUTE format('SELECT count(*) FROM (SELECT %s FROM %s EXCEPT ALL SELECT %s FROM %s) x',
                   cols, b, cols, a) INTO only_b;
    RETURN format('%s and %s rows, %s only in %s, %s only in %s', n_a, n_b, only_a, a, only_b, b);
END
$$;

-- copy_src's columns in a comparable form: timetz as its UTC instant (Parquet
-- keeps the instant, not the offset), json as text (no equality operator)
CREATE FUNCTION cf_src_cols() RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(CASE WHEN atttypid = 'timetz'::regtype THEN format('%I AT TIME ZONE ''UTC''', attname)
                           WHEN atttypid = 'json'::regtype THEN format('%I::text', attname)
                           ELSE quote_ident(attname) END, ', ' ORDER BY attnum)
      FROM pg_attribute WHERE attrelid = 'copy_src'::regclass AND attnum > 0 AND NOT attisdropped
$$;

-- ------------------------------------------------------------ round trips
-- every flat type COPY TO writes, back into a table like the source
CREATE TABLE cf_all (LIKE copy_src INCLUDING ALL);
COPY cf_all FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
SELECT cf_diff('copy_src', 'cf_all', cf_src_cols());
-- other encodings and page layouts of the same rows
TRUNCATE cf_all;
COPY cf_all FROM '/tmp/parquet_fdw_test/out/copy_v2_plain.parquet' WITH (FORMAT parquet);
COPY cf_all FROM '/tmp/parquet_fdw_test/out/copy_rg.parquet' WITH (FORMAT parquet);
SELECT cf_diff('(SELECT * FROM copy_src UNION ALL SELECT * FROM copy_src) s', 'cf_all', cf_src_cols());
-- the file of COPY ... TO STDOUT, through \copy FROM (COPY ... FROM STDIN)
CREATE TABLE cf_stdout (id int8, c_text text, c_numeric numeric);
\copy cf_stdout FROM '/tmp/parquet_fdw_test/out/copy_stdout.parquet' WITH (FORMAT parquet)
SELECT cf_diff('cf_stdout', '(SELECT id, c_text, c_numeric FROM copy_src) s', '*');

-- DuckDB's files: the rows test/fixtures.md defines (expected_types, setup.sql)
CREATE TABLE cf_duck AS SELECT * FROM expected_types WITH NO DATA;
COPY cf_duck FROM '/tmp/parquet_fdw_test/fixtures/duckdb_types_zstd_dict.parquet' WITH (FORMAT parquet);
SELECT cf_diff('expected_types', 'cf_duck', '*');
TRUNCATE cf_duck;
COPY cf_duck FROM '/tmp/parquet_fdw_test/fixtures/duckdb_types_snappy_delta.parquet' WITH (FORMAT parquet);
SELECT cf_diff('expected_types', 'cf_duck', '*');
-- declared types other than the file's convert as the reader converts:
-- wider integers, text from anything, numeric from integers
CREATE TABLE cf_conv (id numeric, c_int2 int8, c_int4 text, c_date text, c_varchar varchar(20), c_float float8);
COPY cf_conv FROM '/tmp/parquet_fdw_test/fixtures/duckdb_types_uncompressed_plain.parquet' WITH (FORMAT parquet);
SELECT cf_diff('cf_conv', '(SELECT id, c_int2, c_int4::text, c_date::text, c_varchar, c_float FROM expected_types) e', '*');

-- ------------------------------------------------------------ COPY FROM semantics
-- a file in id order, so that line numbers are ids + 1
COPY (SELECT id, c_text FROM copy_src ORDER BY id) TO '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);

-- a column list: extra Parquet columns are ignored, others take defaults;
-- names match case-insensitively when that is unambiguous
CREATE SEQUENCE cf_seq;
CREATE TABLE cf_cols ("ID" int8, "C_Text" text, d int DEFAULT 42, s int DEFAULT nextval('cf_seq'),
                      g int GENERATED ALWAYS AS (d * 2) STORED);
COPY cf_cols ("ID", "C_Text") FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
SELECT count(*), count(DISTINCT s), min(d), max(d), min(g), max(g) FROM cf_cols;
SELECT cf_diff('cf_cols', '(SELECT id AS "ID", c_text AS "C_Text" FROM copy_src) s', '"ID", "C_Text"');
-- without a list every column must be in the file
COPY cf_cols FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
COPY cf_cols ("ID", d) FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
-- PostgreSQL's own column list errors
COPY cf_cols (nope) FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
COPY cf_cols (g) FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
COPY cf_cols ("ID", "ID") FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
-- a declared type that cannot hold the file's values
CREATE TABLE cf_bad_type (id int8, c_uuid int4);
COPY cf_bad_type FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
CREATE TABLE cf_short (id int8, c_varchar varchar(5));
COPY cf_short FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);

-- WHERE filters converted rows; generated columns cannot be used in it
TRUNCATE cf_cols;
COPY cf_cols ("ID", "C_Text") FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet)
  WHERE "ID" % 100 = 7 AND "C_Text" IS NOT NULL;
SELECT cf_diff('cf_cols', '(SELECT id AS "ID", c_text AS "C_Text" FROM copy_src WHERE id % 100 = 7 AND c_text IS NOT NULL) s',
               '"ID", "C_Text"');
COPY cf_cols ("ID") FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet) WHERE g > 0;

-- constraints and domains are checked as for any COPY FROM
CREATE DOMAIN cf_small AS int4 CHECK (VALUE < 1000000);
CREATE DOMAIN cf_nn AS text NOT NULL;
CREATE TABLE cf_check (id int8 PRIMARY KEY, c_int4 cf_small, c_text text CHECK (c_text <> 'str_4 ü€😀日本'));
COPY cf_check (id, c_int4) FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
COPY cf_check (id, c_text) FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
COPY cf_check (id) FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet) WHERE id < 10;
COPY cf_check (id) FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet) WHERE id >= 5 AND id < 20;
CREATE TABLE cf_domnn (id int8, c_text cf_nn);
COPY cf_domnn FROM '/tmp/parquet_fdw_test/out/copy_all.parquet' WITH (FORMAT parquet);
SELECT count(*) FROM cf_check;

-- triggers: BEFORE ROW changes rows, AFTER STATEMENT sees them all in its
-- transition table
CREATE TABLE cf_trig (id int8, c_text text);
CREATE FUNCTION cf_upper() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.c_text := upper(NEW.c_text);
    RETURN CASE WHEN NEW.id % 2 = 0 THEN NEW END;
END
$$;
CREATE FUNCTION cf_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE NOTICE 'statement inserted % rows', (SELECT count(*) FROM new_rows);
    RETURN NULL;
END
$$;
CREATE TRIGGER cf_upper BEFORE INSERT ON cf_trig FOR EACH ROW EXECUTE FUNCTION cf_upper();
CREATE TRIGGER cf_count AFTER INSERT ON cf_trig REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cf_count();
COPY cf_trig FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
SELECT cf_diff('cf_trig', '(SELECT id, upper(c_text) FROM copy_src WHERE id % 2 = 0) s', '*');

-- partitioned tables: rows are routed, a partition's own trigger fires
CREATE TABLE cf_part (id int8, c_text text) PARTITION BY RANGE (id);
CREATE TABLE cf_part_1 PARTITION OF cf_part FOR VALUES FROM (MINVALUE) TO (1000);
CREATE TABLE cf_part_2 (c_text text, id int8);
ALTER TABLE cf_part ATTACH PARTITION cf_part_2 FOR VALUES FROM (1000) TO (2000);
CREATE TABLE cf_part_3 PARTITION OF cf_part FOR VALUES FROM (2000) TO (2500);
CREATE TRIGGER cf_upper BEFORE INSERT ON cf_part_2 FOR EACH ROW EXECUTE FUNCTION cf_upper();
COPY cf_part FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet) WHERE id < 2500;
SELECT tableoid::regclass, count(*) FROM cf_part GROUP BY 1 ORDER BY 1;
SELECT cf_diff('cf_part', '(SELECT id, CASE WHEN id >= 1000 AND id < 2000 THEN upper(c_text) ELSE c_text END
                            FROM copy_src WHERE id < 2500 AND NOT (id >= 1000 AND id < 2000 AND id % 2 = 1)) s', '*');
COPY cf_part FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);

-- FREEZE, as COPY allows it: table created or truncated in this transaction
BEGIN;
CREATE TABLE cf_freeze (id int8, c_text text);
COPY cf_freeze FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet, FREEZE);
COMMIT;
SELECT count(*) FROM cf_freeze;
COPY cf_freeze FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet, FREEZE true);

-- ------------------------------------------------------------ progress
-- pg_stat_progress_copy of this backend, read by a trigger during the COPY:
-- tuples processed (rows before this one), Parquet bytes read of the file
CREATE TABLE cf_progress_log (at_id int8, command text, type text, tuples bigint,
                              bytes_processed bigint, bytes_total bigint);
CREATE FUNCTION cf_progress_probe() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IN (0, 1500, 2999) THEN
        PERFORM pg_stat_clear_snapshot();
        INSERT INTO cf_progress_log
        SELECT NEW.id, command, type, tuples_processed, bytes_processed, bytes_total
          FROM pg_stat_progress_copy WHERE pid = pg_backend_pid();
    END IF;
    RETURN NEW;
END
$$;
CREATE TABLE cf_progress (id int8, c_text text);
CREATE TRIGGER cf_probe BEFORE INSERT ON cf_progress FOR EACH ROW EXECUTE FUNCTION cf_progress_probe();
COPY cf_progress FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
SELECT at_id, command, type, tuples = at_id AS tuples_ok,
       bytes_total = (pg_stat_file(:'out' || '/cf_sorted.parquet')).size AS total_is_file_size,
       bytes_processed > 0 AND bytes_processed <= bytes_total AS bytes_ok
  FROM cf_progress_log ORDER BY at_id;
-- COPY TO: rows handed to the writer (whole batches) and bytes written
TRUNCATE cf_progress_log;
CREATE FUNCTION cf_progress_to(i int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    IF i IN (1, 5000, 20000) THEN
        PERFORM pg_stat_clear_snapshot();
        INSERT INTO cf_progress_log
        SELECT i, command, type, tuples_processed, bytes_processed, bytes_total
          FROM pg_stat_progress_copy WHERE pid = pg_backend_pid();
    END IF;
    RETURN i;
END
$$;
COPY (SELECT cf_progress_to(i) AS i, md5(i::text) || md5((-i)::text) AS h FROM generate_series(1, 20000) i)
  TO '/tmp/parquet_fdw_test/out/cf_progress.parquet' WITH (FORMAT parquet, row_group_size 1000, dictionary off);
-- rows 1..i-1 were received; 1000-row batches end row groups
SELECT at_id, command, type, tuples = (at_id - 1) / 1000 * 1000 AS tuples_ok,
       bytes_processed <= (pg_stat_file(:'out' || '/cf_progress.parquet')).size AS bytes_ok,
       CASE at_id WHEN 1 THEN bytes_processed = 0 WHEN 20000 THEN bytes_processed > 0 END AS some_bytes
  FROM cf_progress_log ORDER BY at_id;

-- ------------------------------------------------------------ errors
COPY cf_progress FROM '/tmp/parquet_fdw_test/no_such.parquet' WITH (FORMAT parquet);
COPY cf_progress FROM '/tmp/parquet_fdw_test/out' WITH (FORMAT parquet);
COPY cf_progress FROM '/tmp/parquet_fdw_test/fixtures/bad_magic_tail.parquet' WITH (FORMAT parquet);
COPY cf_progress FROM '/tmp/parquet_fdw_test/out/copy_all.csv' WITH (FORMAT parquet);
COPY cf_progress FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet, compression zstd);
COPY cf_progress FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet, freeze 'maybe');
COPY cf_progress FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet, format parquet);
COPY cf_progress FROM PROGRAM 'cat /tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
COPY cf_progress FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet, footer_key 'no such key!');
-- a view without INSTEAD OF triggers cannot take rows, as for any COPY FROM
CREATE VIEW cf_view AS SELECT * FROM cf_progress;
COPY cf_view FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
-- a read-only transaction
BEGIN READ ONLY;
COPY cf_progress FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
ROLLBACK;
-- no temporary file of COPY FROM STDIN is left behind
SELECT count(*) AS tmp_files FROM pg_ls_tmpdir() WHERE name LIKE 'pgsql_tmp' || pg_backend_pid() || '.%';

-- ------------------------------------------------------------ permissions
CREATE ROLE regress_cf_user;
CREATE TABLE cf_perm (id int8, c_text text, secret text);
SET ROLE regress_cf_user;
-- server files need pg_read_server_files
COPY cf_perm (id, c_text) FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
RESET ROLE;
GRANT pg_read_server_files TO regress_cf_user;
SET ROLE regress_cf_user;
-- and INSERT privilege, on the columns loaded
COPY cf_perm (id, c_text) FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
RESET ROLE;
GRANT INSERT (id, c_text) ON cf_perm TO regress_cf_user;
SET ROLE regress_cf_user;
COPY cf_perm FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
COPY cf_perm (id, c_text) FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet);
RESET ROLE;
REVOKE pg_read_server_files FROM regress_cf_user;
SET ROLE regress_cf_user;
-- STDIN needs no file privilege
\copy cf_perm (id, c_text) FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet)
RESET ROLE;
SELECT count(*), count(DISTINCT id) FROM cf_perm;
-- row-level security: refused, as PostgreSQL refuses COPY FROM
ALTER TABLE cf_perm ENABLE ROW LEVEL SECURITY;
CREATE POLICY cf_perm_all ON cf_perm USING (true) WITH CHECK (true);
SET ROLE regress_cf_user;
\copy cf_perm (id, c_text) FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet)
RESET ROLE;
-- the owner is not subject to the policy
COPY cf_perm (id, c_text) FROM '/tmp/parquet_fdw_test/out/cf_sorted.parquet' WITH (FORMAT parquet) WHERE id < 5;
DROP TABLE cf_perm;
DROP ROLE regress_cf_user;

-- Errors in a file read from STDIN name STDIN, not the temporary file the
-- stream is kept in: a value out of range, a damaged page, not Parquet.
CREATE TABLE cf_named (id bigint, d date);
\copy cf_named FROM '/tmp/parquet_fdw_test/fixtures/range_datetime.parquet' WITH (FORMAT parquet)
CREATE TABLE cf_named_s (s text);
\copy cf_named_s FROM '/tmp/parquet_fdw_test/fixtures/bad_page_header.parquet' WITH (FORMAT parquet)
DROP TABLE cf_named_s;
\copy cf_named (id) FROM '/tmp/parquet_fdw_test/fixtures/bad_not_parquet.parquet' WITH (FORMAT parquet)
SELECT count(*) AS rows_loaded FROM cf_named;
DROP TABLE cf_named;
