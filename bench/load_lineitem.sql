-- Shared by bench/reader.sh and bench/copy.sh: foreign table li over the
-- file (psql variable file), heap table li_heap with the same rows, cached.
CREATE EXTENSION parquet_fdw;
CREATE EXTENSION pg_prewarm;
CREATE EXTENSION pg_buffercache;
CREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;
SELECT parquet_fdw.create_table_sql(:'file', 'li') \gexec
\echo CREATE TABLE li_heap AS SELECT * FROM li:
\timing on
CREATE TABLE li_heap AS SELECT * FROM li;
\timing off
VACUUM (ANALYZE) li_heap;
SELECT pg_prewarm('li_heap') \g /dev/null
