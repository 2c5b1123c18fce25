-- Parsed footers are kept across queries (fdw/common/footer_cache.c): a
-- file that changed (size, modification time, inode) is read again, never
-- served stale, also within a transaction and at the same size; after each
-- transaction the kept footers fit parquet_fdw.metadata_cache_size.
LOAD 'parquet_fdw';
COPY (SELECT 1) TO PROGRAM 'cat >/dev/null; mkdir -p /tmp/parquet_fdw_test/out/fc; chmod 777 /tmp/parquet_fdw_test/out/fc; rm -f /tmp/parquet_fdw_test/out/fc/*; true';
COPY (SELECT i AS id, 'v' || i AS v FROM generate_series(1, 100) i)
    TO '/tmp/parquet_fdw_test/out/fc/t.parquet' WITH (FORMAT parquet);
CREATE FOREIGN TABLE fc (id int4, v text) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/fc/t.parquet');
CREATE FUNCTION fc_kept() RETURNS TABLE (entries bigint, bytes bigint) LANGUAGE sql AS
$$ SELECT count(*), coalesce(sum(total_bytes), 0)::bigint FROM pg_backend_memory_contexts
   WHERE name = 'parquet_fdw footer' $$;
SELECT count(*), sum(id), max(v) FROM fc;
SELECT entries FROM fc_kept();
SELECT count(*), sum(id), max(v) FROM fc;
SELECT entries FROM fc_kept();

-- rewritten with other rows: the new footer is read
COPY (SELECT i AS id, 'w' || i AS v FROM generate_series(1, 250) i)
    TO '/tmp/parquet_fdw_test/out/fc/t.parquet' WITH (FORMAT parquet);
SELECT count(*), sum(id), max(v) FROM fc;
-- rewritten between two reads of one transaction, then at the same size
BEGIN;
SELECT count(*), max(v) FROM fc;
COPY (SELECT i AS id, 'x' || i AS v FROM generate_series(1, 7) i)
    TO '/tmp/parquet_fdw_test/out/fc/t.parquet' WITH (FORMAT parquet);
SELECT count(*), max(v) FROM fc;
COMMIT;
COPY (SELECT i AS id, 'y' || i AS v FROM generate_series(1, 7) i)
    TO '/tmp/parquet_fdw_test/out/fc/u.parquet' WITH (FORMAT parquet);
SELECT (pg_stat_file('/tmp/parquet_fdw_test/out/fc/t.parquet')).size =
       (pg_stat_file('/tmp/parquet_fdw_test/out/fc/u.parquet')).size AS same_size;
COPY (SELECT i AS id, 'y' || i AS v FROM generate_series(1, 7) i)
    TO '/tmp/parquet_fdw_test/out/fc/t.parquet' WITH (FORMAT parquet);
SELECT count(*), max(v) FROM fc;

-- within one statement a file found unchanged is not checked again; COPY
-- TO forgets the footer of the file it writes, so a function that rewrites
-- a file and reads it in one statement sees the new rows
CREATE FUNCTION fc_rewrite_and_count(n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    before text;
    after text;
BEGIN
    SELECT count(*) || '/' || max(v) INTO before FROM fc;
    EXECUTE format('COPY (SELECT i AS id, %L || i AS v FROM generate_series(1, %s) i) TO %L WITH (FORMAT parquet)',
                   'r', n, '/tmp/parquet_fdw_test/out/fc/t.parquet');
    SELECT count(*) || '/' || max(v) INTO after FROM fc;
    RETURN before || ' then ' || after;
END $$;
SELECT fc_rewrite_and_count(33);
SELECT fc_rewrite_and_count(12);

-- a cap: at the end of a transaction the least recently used footers go
DO $$
BEGIN
    FOR i IN 1..30 LOOP
        EXECUTE format('COPY (SELECT g AS id, repeat(%L, 40) || g AS v FROM generate_series(1, 50) g) TO %L WITH (FORMAT parquet)',
                       'z', '/tmp/parquet_fdw_test/out/fc/m' || i || '.parquet');
    END LOOP;
END $$;
CREATE FOREIGN TABLE fc_many (id int4, v text) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/fc/m*.parquet');
SET parquet_fdw.metadata_cache_size = '64kB';
SELECT count(*), count(DISTINCT v) FROM fc_many;
SELECT entries > 0 AS some_kept, entries < 30 AS not_all, bytes <= 64 * 1024 AS within_cap
FROM fc_kept();
SELECT count(*), count(DISTINCT v) FROM fc_many;
-- the planner's estimate is the files' 30 * 50 rows with some footers
-- evicted, whichever are (planning peeks at the kept ones, reads the rest)
SELECT top_plan_rows('SELECT * FROM fc_many') = 30 * 50 AS estimate_all_rows;
SELECT top_plan_rows('SELECT * FROM fc_many') = 30 * 50 AS estimate_all_rows;
-- 0: nothing kept
SET parquet_fdw.metadata_cache_size = 0;
SELECT count(*) FROM fc_many;
SELECT entries FROM fc_kept();
RESET parquet_fdw.metadata_cache_size;

-- a table's files are compared with its first file's schema once, while
-- that schema lives: the first file rewritten with another type is
-- compared again, within the transaction that rewrote it and after it
COPY (SELECT i AS id, 'a' || i AS v FROM generate_series(1, 20) i)
    TO '/tmp/parquet_fdw_test/out/fc/s1.parquet' WITH (FORMAT parquet);
COPY (SELECT i AS id, 'b' || i AS v FROM generate_series(1, 30) i)
    TO '/tmp/parquet_fdw_test/out/fc/s2.parquet' WITH (FORMAT parquet);
CREATE FOREIGN TABLE fc_two (id int4, v text) SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/out/fc/s*.parquet');
SELECT count(*), sum(id) FROM fc_two;
SELECT top_plan_rows('SELECT * FROM fc_two') = 20 + 30 AS estimate_all_rows;
BEGIN;
COPY (SELECT i::int8 AS id, 'c' || i AS v FROM generate_series(1, 40) i)
    TO '/tmp/parquet_fdw_test/out/fc/s1.parquet' WITH (FORMAT parquet);
SELECT count(*) FROM fc_two;
ROLLBACK;
SELECT count(*) FROM fc_two;
-- the same schema again: the files agree, the estimate is the new rows
COPY (SELECT i AS id, 'd' || i AS v FROM generate_series(1, 40) i)
    TO '/tmp/parquet_fdw_test/out/fc/s1.parquet' WITH (FORMAT parquet);
SELECT top_plan_rows('SELECT * FROM fc_two') = 40 + 30 AS estimate_all_rows;
SELECT count(*), sum(id) FROM fc_two;
