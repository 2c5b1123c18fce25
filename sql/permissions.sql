-- Reading server files needs superuser or pg_read_server_files, as file_fdw.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
CREATE ROLE regress_pqfdw_user;
GRANT USAGE ON FOREIGN SERVER parquet_srv TO regress_pqfdw_user;
GRANT CREATE ON SCHEMA public TO regress_pqfdw_user;
SET ROLE regress_pqfdw_user;
CREATE FOREIGN TABLE ft_perm (id bigint)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
SELECT parquet_fdw.create_table_sql('/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
SELECT count(*) FROM parquet_fdw.metadata('/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
RESET ROLE;
-- Members of parquet_fdw.read_files_role read Parquet files without
-- pg_read_server_files, never in the key directory, and no other file.
CREATE ROLE regress_pqfdw_readers;
SET parquet_fdw.read_files_role = 'regress_pqfdw_readers';
SET ROLE regress_pqfdw_user;
CREATE FOREIGN TABLE ft_member (id bigint)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
RESET ROLE;
GRANT regress_pqfdw_readers TO regress_pqfdw_user;
CREATE TABLE perm_member (id bigint);
GRANT SELECT, INSERT ON perm_member TO regress_pqfdw_user;
SET ROLE regress_pqfdw_user;
CREATE FOREIGN TABLE ft_member (id bigint)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
SELECT count(*) FROM ft_member;
SELECT count(*) > 0 AS has_columns FROM parquet_fdw.schema('/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
COPY perm_member FROM '/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet' WITH (FORMAT parquet);
SELECT count(*) = (SELECT count(*) FROM ft_member) AS copied_all FROM perm_member;
-- not other files, nor the key directory, by any path
DO $$
BEGIN
    COPY perm_member FROM '/tmp/parquet_fdw_test/fixtures/manifest.json';
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'COPY FROM a file that is not Parquet: %', SQLSTATE;
END $$;
RESET ROLE;
SELECT set_config('regress.key_dir', current_setting('data_directory') ||
                  '/parquet_fdw_keys', false) IS NOT NULL AS set;
SET ROLE regress_pqfdw_user;
DO $$
BEGIN
    EXECUTE format('CREATE FOREIGN TABLE ft_keys (id bigint) SERVER parquet_srv OPTIONS (filename %L)',
                   current_setting('regress.key_dir') || '/*.key');
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'a glob in the key directory: %', SQLSTATE;
END $$;
DO $$
BEGIN
    EXECUTE format('CREATE FOREIGN TABLE ft_keys (id bigint) SERVER parquet_srv OPTIONS (filename %L)',
                   current_setting('regress.key_dir') || '/../parquet_fdw_keys/k.key');
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'a path with .. into the key directory: %', SQLSTATE;
END $$;
DO $$
BEGIN
    EXECUTE format('COPY perm_member FROM %L WITH (FORMAT parquet)',
                   current_setting('regress.key_dir') || '/k.key');
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'COPY FROM the key directory: %', SQLSTATE;
END $$;
-- a pattern whose text is outside the key directory but whose matches are
-- in it: the key files are left out, never opened or named
RESET ROLE;
SELECT parquet_fdw.create_key('regress_perm_key') IS NULL AS created;
SET ROLE regress_pqfdw_user;
DO $$
BEGIN
    EXECUTE format('CREATE FOREIGN TABLE ft_keyglob (a text) SERVER parquet_srv OPTIONS (filename %L)',
                   regexp_replace(current_setting('regress.key_dir'), '_keys$', '_k*') || '/*');
    PERFORM count(*) FROM ft_keyglob;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'a glob reaching into the key directory: % (names a key file: %)',
        SQLSTATE, SQLERRM LIKE '%regress_perm_key%';
END $$;
RESET ROLE;
SELECT parquet_fdw.drop_key('regress_perm_key') IS NULL AS dropped;
RESET parquet_fdw.read_files_role;
SET ROLE regress_pqfdw_user;
SELECT count(*) FROM parquet_fdw.schema('/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
RESET ROLE;
DROP FOREIGN TABLE ft_member;
DROP TABLE perm_member;
REVOKE regress_pqfdw_readers FROM regress_pqfdw_user;
DROP ROLE regress_pqfdw_readers;
GRANT pg_read_server_files TO regress_pqfdw_user;
SET ROLE regress_pqfdw_user;
CREATE FOREIGN TABLE ft_perm (id bigint)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
SELECT count(*) FROM ft_perm;
RESET ROLE;
-- Key files are not for COPY by roles with pg_read_server_files or
-- pg_write_server_files, by any path or format (docs/ENCRYPTION.md).
SELECT parquet_fdw.create_key('regress_perm_key', 128);
SELECT set_config('regress.key_file', current_setting('data_directory') ||
                  '/parquet_fdw_keys/regress_perm_key.key', false) IS NOT NULL AS set;
CREATE TABLE perm_text (t text);
GRANT SELECT, INSERT ON perm_text TO regress_pqfdw_user;
GRANT pg_write_server_files TO regress_pqfdw_user;
SET ROLE regress_pqfdw_user;
COPY perm_text FROM 'parquet_fdw_keys/regress_perm_key.key';
COPY perm_text FROM 'base/../parquet_fdw_keys/regress_perm_key.key';
COPY perm_text FROM 'parquet_fdw_keys/regress_perm_key.key' WITH (FORMAT parquet);
DO $$
BEGIN
    EXECUTE format('COPY perm_text FROM %L', current_setting('regress.key_file'));
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'COPY FROM the key file: %', SQLSTATE;
END $$;
DO $$
BEGIN
    EXECUTE format('COPY perm_text TO %L', current_setting('regress.key_file'));
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'COPY TO the key file: %', SQLSTATE;
END $$;
DO $$
BEGIN
    EXECUTE format('COPY perm_text TO %L WITH (FORMAT parquet)',
                   current_setting('regress.key_file') || '.parquet');
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'COPY TO the key directory: %', SQLSTATE;
END $$;
SELECT count(*) FROM perm_text;
RESET ROLE;
-- the key file is intact
SELECT bits FROM parquet_fdw.keys() WHERE key_id = 'regress_perm_key';
SELECT parquet_fdw.drop_key('regress_perm_key');
DROP TABLE perm_text;
DROP FOREIGN TABLE ft_perm;
REVOKE CREATE ON SCHEMA public FROM regress_pqfdw_user;
DROP OWNED BY regress_pqfdw_user;
DROP ROLE regress_pqfdw_user;
