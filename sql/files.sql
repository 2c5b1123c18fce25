-- The filename option: one file, a list, a glob, a directory; absolute paths.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
\set two :fixtures '/duckdb_types_snappy_dict.parquet, ' :fixtures '/duckdb_types_zstd_plain.parquet'
\set glob :fixtures '/duckdb_types_*_dict.parquet'

CREATE FOREIGN TABLE ft_list (id bigint, c_varchar text)
    SERVER parquet_srv OPTIONS (filename :'two');
SELECT count(*), count(DISTINCT id), sum(id) FROM ft_list;
-- files are read in the order given
SELECT id FROM ft_list LIMIT 1 OFFSET 5000;

CREATE FOREIGN TABLE ft_glob (id bigint, c_int4 integer)
    SERVER parquet_srv OPTIONS (filename :'glob');
SELECT count(*), count(DISTINCT id) FROM ft_glob;
SELECT count(*) FROM ft_glob g JOIN expected_types e USING (id)
WHERE g.c_int4 IS DISTINCT FROM e.c_int4;

-- A glob that matches nothing.
CREATE FOREIGN TABLE ft_noglob (id bigint)
    SERVER parquet_srv OPTIONS (filename '/nonexistent_dir_pqfdw/*.parquet');
SELECT * FROM ft_noglob;

-- Files whose schemas differ: the first one that differs is named.
\set mixed :fixtures '/duckdb_types_snappy_dict.parquet,' :fixtures '/duckdb_types_gzip_dict.parquet,' :fixtures '/pw_v2_zstd.parquet'
CREATE FOREIGN TABLE ft_mixed (id bigint)
    SERVER parquet_srv OPTIONS (filename :'mixed');
SELECT expect_error('SELECT count(*) FROM ft_mixed', 'pw_v2_zstd.parquet');

-- Relative and empty paths are rejected when the table is defined.
CREATE FOREIGN TABLE ft_rel (id bigint)
    SERVER parquet_srv OPTIONS (filename 'relative/file.parquet');
CREATE FOREIGN TABLE ft_empty (id bigint)
    SERVER parquet_srv OPTIONS (filename '/a.parquet,,/b.parquet');
CREATE FOREIGN TABLE ft_nofile (id bigint) SERVER parquet_srv;
CREATE FOREIGN TABLE ft_badopt (id bigint)
    SERVER parquet_srv OPTIONS (filename '/a.parquet', compression 'snappy');
CREATE FOREIGN TABLE ft_badcolopt (id bigint OPTIONS (colname 'x'))
    SERVER parquet_srv OPTIONS (filename '/a.parquet');
