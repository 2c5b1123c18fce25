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
GRANT pg_read_server_files TO regress_pqfdw_user;
SET ROLE regress_pqfdw_user;
CREATE FOREIGN TABLE ft_perm (id bigint)
    SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/pw_v2_zstd.parquet');
SELECT count(*) FROM ft_perm;
RESET ROLE;
DROP FOREIGN TABLE ft_perm;
REVOKE CREATE ON SCHEMA public FROM regress_pqfdw_user;
DROP OWNED BY regress_pqfdw_user;
DROP ROLE regress_pqfdw_user;
