-- Coming from adjust/parquet_fdw (docs/migrating.md).  The DDL of adjust's
-- README, adapted in paths and column names only, reads what the heap view
-- expected_types holds; what cannot keep its meaning is refused with a
-- HINT naming what to write instead.  (Declared types, which adjust cast
-- and parquet_fdw converts, are declared.sql's.)
\set fixtures '/tmp/parquet_fdw_test/fixtures'
\set f1 :fixtures '/duckdb_types_snappy_dict.parquet'
\set f2 :fixtures '/duckdb_types_zstd_plain.parquet'
\set dir '/tmp/parquet_fdw_test/out/migrate_adjust'
\set p1 :dir '/part_1.parquet'
\set p2 :dir '/part_2.parquet'
\set p3 :dir '/part_3.parquet'
\set userdata1 '/tmp/parquet_fdw_test/out/migrate_adjust_sp/userdata1.parquet'
\set spaced '/tmp/parquet_fdw_test/out/migrate_adjust_sp'
\set sp1 :spaced '/my files/part 1.parquet'
\set empty '/tmp/parquet_fdw_test/out/migrate_adjust_empty'
\set p12 :p1 ' ' :p2
\set f12 :f1 ' ' :f2
\set quoted '"' :sp1 '" ' :p1
SET TimeZone = 'UTC';

-- Two files sorted by id that do not overlap (ids 0-2499 and 2500-4999),
-- with the types adjust read; a third (id 5000-5009) added later; one in a
-- directory with spaces in its path; the README's userdata1.parquet.
LOAD 'parquet_fdw';
COPY (SELECT 1) TO PROGRAM 'rm -rf /tmp/parquet_fdw_test/out/migrate_adjust /tmp/parquet_fdw_test/out/migrate_adjust_sp /tmp/parquet_fdw_test/out/migrate_adjust_empty; mkdir -p /tmp/parquet_fdw_test/out/migrate_adjust "/tmp/parquet_fdw_test/out/migrate_adjust_sp/my files" /tmp/parquet_fdw_test/out/migrate_adjust_empty';
CREATE VIEW adjust_rows AS
SELECT id, c_bool, c_int2, c_int4, c_int8, c_float, c_double, c_varchar,
       c_blob, c_date, c_timestamp
  FROM expected_types;
COPY (SELECT * FROM adjust_rows WHERE id < 2500 ORDER BY id) TO :'p1' WITH (FORMAT parquet);
COPY (SELECT * FROM adjust_rows WHERE id >= 2500 ORDER BY id) TO :'p2' WITH (FORMAT parquet);
COPY (SELECT * FROM adjust_rows WHERE id < 10 ORDER BY id) TO :'sp1' WITH (FORMAT parquet);
COPY (SELECT id::int AS id, c_varchar AS first_name, c_enum AS last_name
        FROM expected_types ORDER BY id) TO :'userdata1' WITH (FORMAT parquet);

-- "Basic usage": a server (setup made parquet_srv), a user mapping with
-- adjust's option user (accepted: it meant nothing there either), a table.
CREATE USER MAPPING FOR CURRENT_USER SERVER parquet_srv OPTIONS (user 'postgres');
create foreign table userdata (
    id           int,
    first_name   text,
    last_name    text
)
server parquet_srv
options (
    filename :'userdata1'
);
SELECT rows_differing('SELECT id, first_name, last_name FROM userdata',
                      'SELECT id, c_varchar, c_enum FROM expected_types');

-- filename as adjust's space-separated list, with every option of its
-- README: sorted (adjust's space-separated columns), files_in_order,
-- use_mmap, use_threads, max_open_files.
CREATE FOREIGN TABLE adjust_multi (
    id bigint, c_bool boolean, c_int2 smallint, c_int4 integer,
    c_int8 bigint, c_float real, c_double double precision, c_varchar text,
    c_blob bytea, c_date date, c_timestamp timestamp
) SERVER parquet_srv
OPTIONS (filename :'p12', sorted 'id c_int4', files_in_order 'true',
         use_mmap 'true', use_threads 'true', max_open_files '1');
SELECT rows_differing('SELECT * FROM adjust_multi', 'SELECT * FROM adjust_rows');
-- the files are in order one after another: no Sort for ORDER BY
SELECT * FROM explain_filter('COSTS OFF', 'SELECT id FROM adjust_multi ORDER BY id, c_int4 LIMIT 3', 'Parquet');
SELECT id FROM adjust_multi ORDER BY id, c_int4 LIMIT 3;
-- the other values of the options adjust took: no difference
ALTER FOREIGN TABLE adjust_multi OPTIONS (SET use_mmap 'false', SET use_threads 'false', SET max_open_files '0');
SELECT rows_differing('SELECT * FROM adjust_multi', 'SELECT * FROM adjust_rows');
-- a value they do not take
ALTER FOREIGN TABLE adjust_multi OPTIONS (SET use_threads 'sometimes');
ALTER FOREIGN TABLE adjust_multi OPTIONS (SET max_open_files 'ten');

-- Files each sorted but overlapping (the same file twice): adjust merged
-- them; here sorted alone says the files are in order one after another,
-- which their statistics refute, and the HINT names files_in_order.
CREATE FOREIGN TABLE adjust_overlap (id bigint, c_varchar text) SERVER parquet_srv
OPTIONS (filename :'f12', sorted 'id');
SELECT count(*) FROM adjust_overlap;
ALTER FOREIGN TABLE adjust_overlap OPTIONS (ADD files_in_order 'false');
SELECT rows_differing('SELECT id, c_varchar FROM adjust_overlap',
                      'SELECT id, c_varchar FROM expected_types UNION ALL SELECT id, c_varchar FROM expected_types');
-- two files: PostgreSQL sorts; one file keeps its order
SELECT * FROM explain_filter('COSTS OFF', 'SELECT id FROM adjust_overlap ORDER BY id', 'Parquet');
ALTER FOREIGN TABLE adjust_overlap OPTIONS (SET filename :'f1');
SELECT * FROM explain_filter('COSTS OFF', 'SELECT id FROM adjust_overlap ORDER BY id', 'Parquet');

-- The space-separated list: a path with spaces in double quotes; one
-- existing path with spaces stays one path.
CREATE FOREIGN TABLE adjust_quoted (id bigint) SERVER parquet_srv
OPTIONS (filename :'quoted');
SELECT count(*), sum(id) FROM adjust_quoted;
CREATE FOREIGN TABLE adjust_one_spaced (id bigint) SERVER parquet_srv
OPTIONS (filename :'sp1');
SELECT count(*), sum(id) FROM adjust_one_spaced;

-- files_func: adjust's README function, asked for the files at each query
-- (ORDER BY added: pg_ls_dir() lists in the file system's order, and the
-- files of a table with option sorted must come in order).
create function list_parquet_files(args jsonb)
returns text[] as
$$
begin
    return array_agg(args->>'dir' || '/' || filename ORDER BY filename)
           from pg_ls_dir(args->>'dir') as files(filename)
           where filename ~~ '%.parquet';
end
$$
language plpgsql;
CREATE FOREIGN TABLE adjust_func (
    id bigint, c_bool boolean, c_int2 smallint, c_int4 integer,
    c_int8 bigint, c_float real, c_double double precision, c_varchar text,
    c_blob bytea, c_date date, c_timestamp timestamp
) SERVER parquet_srv
OPTIONS (files_func 'list_parquet_files',
         files_func_arg '{"dir": "/tmp/parquet_fdw_test/out/migrate_adjust"}');
SELECT rows_differing('SELECT * FROM adjust_func', 'SELECT * FROM adjust_rows');
-- a plan made before a file is added reads it when it runs again
SET plan_cache_mode = force_generic_plan;
PREPARE adjust_count AS SELECT count(*), max(id) FROM adjust_func WHERE id >= $1;
EXECUTE adjust_count(0);
COPY (SELECT id + 5000 AS id, c_bool, c_int2, c_int4, c_int8, c_float, c_double,
             c_varchar, c_blob, c_date, c_timestamp
        FROM adjust_rows WHERE id < 10 ORDER BY id) TO :'p3' WITH (FORMAT parquet);
EXECUTE adjust_count(0);
DEALLOCATE adjust_count;
RESET plan_cache_mode;
-- no file (an empty directory, a NULL answer) is no row, as in adjust
ALTER FOREIGN TABLE adjust_func OPTIONS (SET files_func_arg '{"dir": "/tmp/parquet_fdw_test/out/migrate_adjust_empty"}');
SELECT count(*), max(id) FROM adjust_func;
SELECT * FROM adjust_func;
-- the DuckDB files, each item a file, a directory or a glob as in filename
CREATE FUNCTION duckdb_files(args jsonb) RETURNS text[] LANGUAGE sql
AS $$ SELECT array_remove(ARRAY[args->>'first', args->>'second'], NULL) $$;
CREATE FOREIGN TABLE adjust_duckdb (id bigint, c_int4 integer, c_varchar text)
SERVER parquet_srv OPTIONS (files_func 'public.duckdb_files',
    files_func_arg '{"first": "/tmp/parquet_fdw_test/fixtures/duckdb_types_snappy_dict.parquet", "second": "/tmp/parquet_fdw_test/fixtures/duckdb_types_zstd_*.parquet"}');
SELECT rows_differing('SELECT id, c_int4, c_varchar FROM adjust_duckdb',
                      'SELECT id, c_int4, c_varchar FROM expected_types, generate_series(1, 4)');
-- files_func wins over filename, as in adjust
CREATE FOREIGN TABLE adjust_both (id bigint) SERVER parquet_srv
OPTIONS (filename '/nonexistent/x.parquet', files_func 'public.duckdb_files',
         files_func_arg '{"first": "/tmp/parquet_fdw_test/fixtures/duckdb_types_snappy_dict.parquet"}');
SELECT count(*) FROM adjust_both;

-- What a files function may not do.
CREATE FUNCTION bad_files(args jsonb) RETURNS text[] LANGUAGE sql
AS $$ SELECT CASE args->>'what' WHEN 'null' THEN NULL
                                WHEN 'null path' THEN ARRAY[NULL]
                                ELSE ARRAY['relative/x.parquet'] END $$;
CREATE FOREIGN TABLE adjust_bad (id bigint) SERVER parquet_srv
OPTIONS (files_func 'bad_files', files_func_arg '{"what": "null"}');
SELECT count(*) FROM adjust_bad;
ALTER FOREIGN TABLE adjust_bad OPTIONS (SET files_func_arg '{"what": "null path"}');
SELECT count(*) FROM adjust_bad;
ALTER FOREIGN TABLE adjust_bad OPTIONS (SET files_func_arg '{"what": "relative"}');
SELECT count(*) FROM adjust_bad;
ALTER FOREIGN TABLE adjust_bad OPTIONS (SET files_func_arg '{not json}');
ALTER FOREIGN TABLE adjust_bad OPTIONS (SET files_func 'no_such_function');
ALTER FOREIGN TABLE adjust_bad OPTIONS (SET files_func 'lower');
CREATE FOREIGN TABLE adjust_arg_only (id bigint) SERVER parquet_srv
OPTIONS (files_func_arg '{}');
CREATE FOREIGN TABLE adjust_func_location (id bigint) SERVER parquet_srv
OPTIONS (format 'delta', location '/tmp/x', files_func 'list_parquet_files');
-- a function owned by a role that may not read files on the server
CREATE ROLE regress_adjust_owner;
CREATE FUNCTION owned_files(args jsonb) RETURNS text[] LANGUAGE sql
AS $$ SELECT ARRAY['/tmp/parquet_fdw_test/fixtures/duckdb_types_snappy_dict.parquet'] $$;
CREATE FOREIGN TABLE adjust_owned (id bigint) SERVER parquet_srv
OPTIONS (files_func 'owned_files');
SELECT count(*) FROM adjust_owned;
ALTER FUNCTION owned_files(jsonb) OWNER TO regress_adjust_owner;
SELECT count(*) FROM adjust_owned;
CREATE FOREIGN TABLE adjust_owned2 (id bigint) SERVER parquet_srv
OPTIONS (files_func 'owned_files');
DROP FOREIGN TABLE adjust_owned;
DROP FUNCTION owned_files(jsonb);
DROP ROLE regress_adjust_owner;

-- Refused where the meaning cannot be kept, with a HINT.
-- adjust read relative paths from the data directory:
CREATE FOREIGN TABLE adjust_relative (id bigint) SERVER parquet_srv
OPTIONS (filename 'userdata1.parquet');
-- adjust gave IMPORT FOREIGN SCHEMA's options to every table, any option:
IMPORT FOREIGN SCHEMA "/tmp/parquet_fdw_test/out/migrate_adjust_sp" FROM SERVER parquet_srv
INTO public OPTIONS (filename '/x.parquet');

-- IMPORT FOREIGN SCHEMA as adjust's README writes it, with options every
-- table gets (here sorted); a table per file of the directory.
CREATE SCHEMA adjust_import;
import foreign schema "/tmp/parquet_fdw_test/out/migrate_adjust"
from server parquet_srv
into adjust_import options (sorted 'id');
SELECT foreign_table_name, option_name, option_value
  FROM information_schema.foreign_table_options
 WHERE foreign_table_schema = 'adjust_import' AND option_name <> 'filename'
 ORDER BY 1, 2;
SELECT rows_differing('SELECT * FROM adjust_import.part_1 UNION ALL SELECT * FROM adjust_import.part_2',
                      'SELECT * FROM adjust_rows');

-- import_parquet_explicit and import_parquet as adjust's README calls
-- them, unqualified: a table over the files the function returns now.
COPY (SELECT 1) TO PROGRAM 'rm /tmp/parquet_fdw_test/out/migrate_adjust/part_3.parquet';
select import_parquet_explicit(
    'abc',
    'public',
    'parquet_srv',
    array['id', 'c_varchar', 'c_bool'],
    array['int8', 'text', 'bool']::regtype[],
    'list_parquet_files',
    '{"dir": "/tmp/parquet_fdw_test/out/migrate_adjust"}',
    '{"sorted": "id"}'
);
SELECT rows_differing('SELECT * FROM abc', 'SELECT id, c_varchar, c_bool FROM adjust_rows');
SELECT option_name, option_value FROM information_schema.foreign_table_options
 WHERE foreign_table_name = 'abc' AND option_name <> 'filename';
select import_parquet('abc_all', NULL, 'parquet_srv', 'list_parquet_files',
                      '{"dir": "/tmp/parquet_fdw_test/out/migrate_adjust"}',
                      '{"files_in_order": true, "max_open_files": 4}');
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
 WHERE attrelid = 'abc_all'::regclass AND attnum > 0 ORDER BY attnum;
SELECT rows_differing('SELECT * FROM abc_all', 'SELECT * FROM adjust_rows');
-- no file: a WARNING and no table, as in adjust
select import_parquet('abc_none', 'public', 'parquet_srv', 'list_parquet_files',
                      '{"dir": "/tmp/parquet_fdw_test/out/migrate_adjust_empty"}');
SELECT to_regclass('abc_none');
select import_parquet('abc_bad', 'public', 'parquet_srv', 'now', '{}');
select import_parquet('abc_bad', 'public', 'parquet_srv', 'list_parquet_files', '{}', '["sorted"]');
select import_parquet_explicit('abc_bad', 'public', 'parquet_srv', array['a', 'b'],
                               array['int8']::regtype[], 'list_parquet_files', '{}');

-- adjust's settings: accepted, without effect.
SET parquet_fdw.use_threads = off;
SET parquet_fdw.enable_multifile = off;
SET parquet_fdw.enable_multifile_merge = off;
SELECT rows_differing('SELECT * FROM adjust_multi', 'SELECT * FROM adjust_rows');
RESET parquet_fdw.use_threads;
RESET parquet_fdw.enable_multifile;
RESET parquet_fdw.enable_multifile_merge;

DROP SCHEMA adjust_import CASCADE;
DROP FOREIGN TABLE userdata, adjust_multi, adjust_overlap, adjust_quoted,
    adjust_one_spaced, adjust_func, adjust_duckdb, adjust_both, adjust_bad,
    abc, abc_all;
DROP FUNCTION list_parquet_files(jsonb), duckdb_files(jsonb), bad_files(jsonb);
DROP VIEW adjust_rows;
DROP USER MAPPING FOR CURRENT_USER SERVER parquet_srv;
RESET TimeZone;
