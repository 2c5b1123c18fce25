-- Broken files give a clean ERROR with the right SQLSTATE, naming the file;
-- the server keeps running.
\set fixtures '/tmp/parquet_fdw_test/fixtures'

SELECT f AS fixture,
       expect_error(format('SELECT parquet_fdw.create_table_sql(%L)', :'fixtures' || '/' || f),
                    :'fixtures' || '/' || f) AS result
FROM unnest(ARRAY[
    'bad_empty.parquet',
    'bad_not_parquet.parquet',
    'bad_only_magic.parquet',
    'bad_magic_head.parquet',
    'bad_magic_tail.parquet',
    'bad_truncated.parquet',
    'bad_footer_len.parquet',
    'bad_footer_len_huge.parquet',
    'bad_footer_thrift.parquet',
    'bad_missing_file.parquet']) AS f;

-- Damage inside column data is found when the data is read.
CREATE FOREIGN TABLE ft_bad_page (id bigint, s text, d numeric)
    SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/bad_page_header.parquet');
SELECT expect_error('SELECT * FROM ft_bad_page', 'bad_page_header.parquet');
CREATE FOREIGN TABLE ft_bad_snappy (id bigint, s text, d numeric)
    SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/bad_snappy_data.parquet');
SELECT expect_error('SELECT * FROM ft_bad_snappy', 'bad_snappy_data.parquet');

-- The message of a corrupt file names the file, row group, column and page.
\set VERBOSITY default
SELECT s FROM ft_bad_page;

-- Valid Parquet values PostgreSQL cannot hold: an error naming column and
-- row (rows 3 and 4 hold a date after 5874897 AD and a timestamp before
-- 4713 BC); other columns of the same file read normally.
CREATE FOREIGN TABLE ft_range (id bigint, d date, ts timestamp)
    SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/range_datetime.parquet');
SELECT sum(id) FROM ft_range;
SELECT d FROM ft_range;
SELECT ts FROM ft_range;
SELECT 1 AS still_alive;

-- The same date in a dictionary page: an ERROR for the rows that hold it
-- only, when a row's value is needed.  The rows the scan's WHERE clause
-- leaves out, and the other rows, read (the entry stands in filters as a
-- date just after the range, as its value would).  Row id + 1 holds
-- DATE '2000-01-01' + id % 10, except that id % 10 = 2 holds the date out
-- of range (rows 3, 13, ...).
CREATE FOREIGN TABLE ft_range_dict (id bigint, d date)
    SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/range_date_dict.parquet');
SELECT id, d FROM ft_range_dict WHERE id < 10 AND id <> 2 ORDER BY id;
SELECT count(*), min(d), max(d) FROM ft_range_dict WHERE d < DATE '2000-01-06';
-- 40 rows of 2000-01-07 to 2000-01-10 and the 10 rows after the range
SELECT count(*) FROM ft_range_dict WHERE d > DATE '2000-01-06';
SELECT d FROM ft_range_dict;
SELECT id, d FROM ft_range_dict WHERE id > 10 AND d > DATE '2000-01-06';

-- Readers take their large buffers from the backend's pool and give them
-- back when their scan ends, also when it fails: failing scans over and
-- over do not grow the pool.
CREATE FUNCTION reader_buffer_bytes() RETURNS bigint LANGUAGE sql AS
$$ SELECT coalesce(sum(total_bytes), 0)::bigint FROM pg_backend_memory_contexts
   WHERE name = 'parquet_fdw reader buffers' $$;
SELECT expect_error('SELECT d FROM ft_range');
SELECT reader_buffer_bytes() AS after_one \gset
DO $$
BEGIN
    FOR i IN 1..50 LOOP
        BEGIN
            PERFORM d FROM ft_range;
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
    END LOOP;
END
$$;
SELECT :after_one > 0 AS pooled, reader_buffer_bytes() <= :after_one AS not_grown;

-- A page whose values decode to far more than the file holds (issue 38):
-- 300 bytes, one DELTA_BYTE_ARRAY page of 65,536 values each repeating a
-- 4096-byte prefix, 268 MB decoded.  A role whose only privilege is INSERT
-- on the table loads it through COPY FROM STDIN: a clean ERROR
-- (data_corrupted), no row, the backend alive.
CREATE TABLE decode_bomb (s text);
CREATE ROLE regress_decode_user;
GRANT INSERT, SELECT ON decode_bomb TO regress_decode_user;
SET ROLE regress_decode_user;
\set VERBOSITY sqlstate
\copy decode_bomb FROM '/tmp/parquet_fdw_test/fixtures/bad_delta_bytes_bomb.parquet' WITH (FORMAT parquet)
\set VERBOSITY default
SELECT count(*) AS rows_loaded FROM decode_bomb;
RESET ROLE;
SELECT 1 AS still_alive;
-- The message names the limit, the column and the page.
CREATE FOREIGN TABLE ft_decode_bomb (s text)
    SERVER parquet_srv
    OPTIONS (filename '/tmp/parquet_fdw_test/fixtures/bad_delta_bytes_bomb.parquet');
SELECT s FROM ft_decode_bomb;
DROP TABLE decode_bomb;
DROP ROLE regress_decode_user;
