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

-- A directory is every *.parquet file below it, at any depth, sorted by
-- path; names starting with "." or "_" (Spark's _SUCCESS and _temporary,
-- hidden files, COPY's temporary files) are skipped, files and directories
-- alike.  "**" in a glob stands for any number of directories.
LOAD 'parquet_fdw';
COPY (SELECT 1) TO PROGRAM 'd=/tmp/parquet_fdw_test/out/files_tree; rm -rf $d; mkdir -p $d/p=1/q=a $d/p=2 $d/_temporary $d/.hidden_dir';
\set tree '/tmp/parquet_fdw_test/out/files_tree'
-- 10 rows (sum 55), 20 rows (sum 410), 100 rows (sum 14950) are read
COPY (SELECT g::int8 AS id FROM generate_series(1, 10) g) TO '/tmp/parquet_fdw_test/out/files_tree/p=1/q=a/f1.parquet' WITH (FORMAT parquet);
COPY (SELECT g::int8 AS id FROM generate_series(11, 30) g) TO '/tmp/parquet_fdw_test/out/files_tree/p=2/f2.parquet' WITH (FORMAT parquet);
COPY (SELECT g::int8 AS id FROM generate_series(100, 199) g) TO '/tmp/parquet_fdw_test/out/files_tree/top.parquet' WITH (FORMAT parquet);
-- skipped: 1000, 2000, 3000, 4000 never appear
COPY (SELECT 1000::int8 AS id) TO '/tmp/parquet_fdw_test/out/files_tree/_temporary/part.parquet' WITH (FORMAT parquet);
COPY (SELECT 2000::int8 AS id) TO '/tmp/parquet_fdw_test/out/files_tree/.hidden_dir/h.parquet' WITH (FORMAT parquet);
COPY (SELECT 3000::int8 AS id) TO '/tmp/parquet_fdw_test/out/files_tree/p=2/_x.parquet' WITH (FORMAT parquet);
COPY (SELECT 4000::int8 AS id) TO '/tmp/parquet_fdw_test/out/files_tree/p=2/.y.parquet' WITH (FORMAT parquet);
COPY (SELECT 1) TO '/tmp/parquet_fdw_test/out/files_tree/_SUCCESS';
COPY (SELECT 'not parquet') TO '/tmp/parquet_fdw_test/out/files_tree/p=1/notes.txt';
CREATE FOREIGN TABLE ft_tree (id int8) SERVER parquet_srv OPTIONS (filename :'tree');
SELECT count(*), sum(id), max(id) FROM ft_tree;
-- in path order: p=1/q=a/f1, p=2/f2, top
SELECT id FROM ft_tree LIMIT 3;
SELECT id FROM ft_tree OFFSET 9 LIMIT 3;
SELECT id FROM ft_tree OFFSET 29 LIMIT 2;
-- "**" matches no directory as well as several
\set ss :tree '/**/*.parquet'
CREATE FOREIGN TABLE ft_tree_all (id int8) SERVER parquet_srv OPTIONS (filename :'ss');
SELECT count(*), sum(id) FROM ft_tree_all;
\set ss2 :tree '/p=*/**/f?.parquet'
CREATE FOREIGN TABLE ft_tree_f (id int8) SERVER parquet_srv OPTIONS (filename :'ss2');
SELECT count(*), sum(id) FROM ft_tree_f;
\set ss3 :tree '/**/q=a/*.parquet'
CREATE FOREIGN TABLE ft_tree_q (id int8) SERVER parquet_srv OPTIONS (filename :'ss3');
SELECT count(*), sum(id) FROM ft_tree_q;
-- "**" inside a segment is an error
\set bad :tree '/p**/*.parquet'
CREATE FOREIGN TABLE ft_tree_bad (id int8) SERVER parquet_srv OPTIONS (filename :'bad');
SELECT expect_error('SELECT count(*) FROM ft_tree_bad', 'whole path segment');
