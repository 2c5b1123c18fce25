-- Delta Lake tables built here (../shared's golden tables are check_delta.mjs's):
-- data files written by COPY TO, the log's JSON lines written by COPY, rows
-- compared with the heap table they came from.
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
-- (scripts/test.sh makes /tmp/parquet_fdw_test/delta, writable by the server)
COPY (SELECT 1) TO PROGRAM 'rm -rf /tmp/parquet_fdw_test/delta/*; mkdir -p /tmp/parquet_fdw_test/delta/t/_delta_log /tmp/parquet_fdw_test/delta/t/p=1 /tmp/parquet_fdw_test/delta/t/p=2 /tmp/parquet_fdw_test/delta/m/_delta_log /tmp/parquet_fdw_test/delta/f/_delta_log /tmp/parquet_fdw_test/delta/g/_delta_log';

-- one JSON line per element, as written (CSV quoting on characters JSON never holds)
CREATE FUNCTION dl_write(path text, lines text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('COPY (SELECT unnest(%L::text[])) TO %L WITH (FORMAT csv, QUOTE E''\x01'', DELIMITER E''\x02'')',
                   lines, path);
END $$;

-- an add action with the file's statistics, computed from the heap rows it holds
CREATE FUNCTION dl_add(path text, p int, cond text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    stats text;
BEGIN
    EXECUTE format('SELECT json_build_object(%L, count(*), %L, json_build_object(%L, min(id), %L, min(x)), '
                   '%L, json_build_object(%L, max(id), %L, max(x)), '
                   '%L, json_build_object(%L, count(*) - count(id), %L, count(*) - count(x)))::text '
                   'FROM dl_src WHERE %s',
                   'numRecords', 'minValues', 'id', 'x', 'maxValues', 'id', 'x',
                   'nullCount', 'id', 'x', cond) INTO stats;
    RETURN json_build_object('add', json_build_object('path', path,
        'partitionValues', json_build_object('p', p::text), 'size', 1,
        'modificationTime', 1, 'dataChange', true, 'stats', stats))::text;
END $$;

CREATE TABLE dl_src AS
SELECT i::int8 AS id, (i % 2 + 1)::int4 AS p, 'v' || i AS v, (i * 1.5)::float8 AS x
FROM generate_series(1, 1000) i;
COPY (SELECT id, v, x FROM dl_src WHERE p = 1 ORDER BY id)
  TO '/tmp/parquet_fdw_test/delta/t/p=1/a.parquet' WITH (FORMAT parquet);
COPY (SELECT id, v, x FROM dl_src WHERE p = 2 ORDER BY id)
  TO '/tmp/parquet_fdw_test/delta/t/p=2/b.parquet' WITH (FORMAT parquet);
COPY (SELECT id, v, x FROM dl_src WHERE p = 2 AND id > 900 ORDER BY id)
  TO '/tmp/parquet_fdw_test/delta/t/p=2/c d.parquet' WITH (FORMAT parquet);

-- version 0: a and b; version 1: b replaced by "c d" (its path escaped in the log)
SELECT dl_write('/tmp/parquet_fdw_test/delta/t/_delta_log/00000000000000000000.json', ARRAY[
  '{"commitInfo":{"inCommitTimestamp":1700000000000,"timestamp":1,"operation":"WRITE"}}',
  '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}',
  '{"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},{\"name\":\"p\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}},{\"name\":\"v\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},{\"name\":\"x\",\"type\":\"double\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["p"],"configuration":{},"createdTime":1}}',
  dl_add('p=1/a.parquet', 1, 'p = 1'),
  dl_add('p=2/b.parquet', 2, 'p = 2')]);
SELECT dl_write('/tmp/parquet_fdw_test/delta/t/_delta_log/00000000000000000001.json', ARRAY[
  '{"commitInfo":{"inCommitTimestamp":1700000100000,"timestamp":2,"operation":"DELETE"}}',
  '{"remove":{"path":"p=2/b.parquet","deletionTimestamp":2,"dataChange":true}}',
  dl_add('p=2/c%20d.parquet', 2, 'p = 2 AND id > 900')]);

CREATE FOREIGN TABLE dl (id int8, p int4, v text, x float8) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp/parquet_fdw_test/delta/t');
CREATE FOREIGN TABLE dl_v0 (id int8, p int4, v text, x float8) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp/parquet_fdw_test/delta/t', version '0');
-- columns in another order, a subset: matched by name
CREATE FOREIGN TABLE dl_t (x float8, id int8) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp/parquet_fdw_test/delta/t',
           timestamp '2023-11-14 22:14:00+00');

-- the latest version: a, and "c d" instead of b
SELECT rows_differing('SELECT * FROM dl',
                      'SELECT * FROM dl_src WHERE p = 1 OR id > 900');
SELECT rows_differing('SELECT * FROM dl_v0', 'SELECT * FROM dl_src');
SELECT rows_differing('SELECT * FROM dl_t', 'SELECT x, id FROM dl_src');
SELECT rows_differing('SELECT p, count(*), sum(id), min(v), max(x) FROM dl GROUP BY p',
                      'SELECT p, count(*), sum(id), min(v), max(x) FROM dl_src WHERE p = 1 OR id > 900 GROUP BY p');
SELECT count(*) FROM dl;
SELECT count(*) FROM dl_v0;
-- partition values prune files
SELECT explain_filter('COSTS OFF', 'SELECT count(*) FROM dl WHERE p = 2 AND x > 0');
SELECT count(*), min(id) FROM dl WHERE p = 2;
-- the log's statistics prune files before their footers are read
SELECT explain_filter('COSTS OFF', 'SELECT * FROM dl WHERE id < 100');
SELECT explain_filter('COSTS OFF', 'SELECT * FROM dl_v0 WHERE x >= 1400 AND id > 999');
SELECT explain_filter('COSTS OFF', 'SELECT * FROM dl WHERE x IS NULL');
SELECT rows_differing('SELECT * FROM dl WHERE id < 100',
                      'SELECT * FROM dl_src WHERE (p = 1 OR id > 900) AND id < 100');
SELECT rows_differing('SELECT * FROM dl_v0 WHERE x >= 1400 AND id > 999',
                      'SELECT * FROM dl_src WHERE x >= 1400 AND id > 999');
SELECT rows_differing('SELECT * FROM dl WHERE id = 905 OR id = 906',
                      'SELECT * FROM dl_src WHERE id IN (905, 906)');
-- a parameter is not known when planning: no file pruned then
PREPARE dl_param(int8) AS SELECT count(*) FROM dl WHERE id < $1;
SET plan_cache_mode = force_generic_plan;
EXECUTE dl_param(100);
RESET plan_cache_mode;
DEALLOCATE dl_param;

-- time travel per statement: parquet_fdw.as_of over the options
SET parquet_fdw.as_of = '2023-11-14 22:16:00+00';
SELECT count(*) FROM dl_v0;
SET parquet_fdw.as_of = '2023-11-14 22:14:00+00';
SELECT count(*) FROM dl;
SET parquet_fdw.as_of = '2023-11-14 22:00:00+00';
SELECT count(*) FROM dl;
SET parquet_fdw.as_of = 'infinity';
SELECT count(*) FROM dl;
RESET parquet_fdw.as_of;

-- a prepared statement sees the table's newer version on its next execution
PREPARE dl_count AS SELECT count(*) FROM dl;
EXECUTE dl_count;
COPY (SELECT id, v, x FROM dl_src WHERE p = 1 AND id <= 11 ORDER BY id)
  TO '/tmp/parquet_fdw_test/delta/t/p=1/e.parquet' WITH (FORMAT parquet);
SELECT dl_write('/tmp/parquet_fdw_test/delta/t/_delta_log/00000000000000000002.json', ARRAY[
  '{"commitInfo":{"inCommitTimestamp":1700000200000,"timestamp":3,"operation":"WRITE"}}',
  '{"remove":{"path":"p=1/a.parquet","deletionTimestamp":3,"dataChange":true}}',
  dl_add('p=1/e.parquet', 1, 'p = 1 AND id <= 11')]);
EXECUTE dl_count;
SELECT rows_differing('SELECT * FROM dl',
                      'SELECT * FROM dl_src WHERE (p = 1 AND id <= 11) OR (p = 2 AND id > 900)');
DEALLOCATE dl_count;

-- column mapping: the files name columns by their physical names
COPY (SELECT id AS "col-1", v AS "col-2" FROM dl_src ORDER BY id)
  TO '/tmp/parquet_fdw_test/delta/m/part-0.parquet' WITH (FORMAT parquet);
SELECT dl_write('/tmp/parquet_fdw_test/delta/m/_delta_log/00000000000000000000.json', ARRAY[
  '{"protocol":{"minReaderVersion":2,"minWriterVersion":5}}',
  '{"metaData":{"id":"m","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"Ident\",\"type\":\"long\",\"nullable\":true,\"metadata\":{\"delta.columnMapping.id\":1,\"delta.columnMapping.physicalName\":\"col-1\"}},{\"name\":\"label\",\"type\":\"string\",\"nullable\":true,\"metadata\":{\"delta.columnMapping.id\":2,\"delta.columnMapping.physicalName\":\"col-2\"}}]}","partitionColumns":[],"configuration":{"delta.columnMapping.mode":"name"}}}',
  '{"add":{"path":"part-0.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}']);
CREATE FOREIGN TABLE dl_m (ident int8, label text) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp/parquet_fdw_test/delta/m');
SELECT rows_differing('SELECT * FROM dl_m WHERE ident < 100',
                      'SELECT id, v FROM dl_src WHERE id < 100');

-- what a table holds, version by version
SELECT version, committed_at, operation
FROM parquet_fdw.table_versions('/tmp/parquet_fdw_test/delta/t');
SELECT regexp_replace(path, '^.*/delta/', '') AS path, partition_values,
       num_records, deleted_rows, stats->'minValues' AS min
FROM parquet_fdw.table_files('/tmp/parquet_fdw_test/delta/t') ORDER BY path;
SELECT regexp_replace(path, '^.*/delta/', '') AS path, num_records
FROM parquet_fdw.table_files('/tmp/parquet_fdw_test/delta/t', 0) ORDER BY path;
SELECT * FROM parquet_fdw.table_schema('/tmp/parquet_fdw_test/delta/m');
SELECT * FROM parquet_fdw.table_schema('/tmp/parquet_fdw_test/delta/t', 0);
SELECT parquet_fdw.create_table_sql('/tmp/parquet_fdw_test/delta/t');
CREATE SCHEMA dl_import;
IMPORT FOREIGN SCHEMA "/tmp/parquet_fdw_test/delta" LIMIT TO (t, m)
  FROM SERVER parquet_srv INTO dl_import;
SELECT foreign_table_name, option_name, regexp_replace(option_value, '^.*/delta/', '') AS option_value
FROM information_schema.foreign_table_options
WHERE foreign_table_schema = 'dl_import' ORDER BY 1, 2;
SELECT rows_differing('SELECT * FROM dl_import.t', 'SELECT * FROM dl');
SELECT rows_differing('SELECT * FROM dl_import.m', 'SELECT * FROM dl_m');
DROP SCHEMA dl_import CASCADE;
SELECT * FROM parquet_fdw.table_files(NULL);
SELECT * FROM parquet_fdw.table_versions('relative/t');

-- refused: a reader feature we do not read, a gap in the versions
SELECT dl_write('/tmp/parquet_fdw_test/delta/f/_delta_log/00000000000000000000.json', ARRAY[
  '{"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors","fancyNewFeature"],"writerFeatures":[]}}',
  '{"metaData":{"id":"f","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[]}","partitionColumns":[],"configuration":{}}}']);
CREATE FOREIGN TABLE dl_f (a int) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp/parquet_fdw_test/delta/f');
SELECT * FROM dl_f;
SELECT dl_write('/tmp/parquet_fdw_test/delta/g/_delta_log/00000000000000000000.json', ARRAY[
  '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}',
  '{"metaData":{"id":"g","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[]}","partitionColumns":[],"configuration":{}}}']);
SELECT dl_write('/tmp/parquet_fdw_test/delta/g/_delta_log/00000000000000000002.json', ARRAY[
  '{"commitInfo":{}}']);
CREATE FOREIGN TABLE dl_g (a int) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp/parquet_fdw_test/delta/g');
SELECT * FROM dl_g;
-- a truncated line
SELECT dl_write('/tmp/parquet_fdw_test/delta/g/_delta_log/00000000000000000001.json', ARRAY[
  '{"commitInfo":{}}', '{"add":{"path":"x.parquet","size":']);
SELECT * FROM dl_g;
SELECT * FROM dl WHERE false;	-- the session is fine

-- options
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv
  OPTIONS (format 'delta', location 'relative/dir');
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv
  OPTIONS (format 'orc', location '/tmp');
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv OPTIONS (format 'delta');
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp', filename '/tmp/x.parquet');
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp', version '1', timestamp '2024-01-01 00:00:00+00');
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp', version 'one');
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp', timestamp 'soon');
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv
  OPTIONS (filename '/tmp/x.parquet', version '1');
CREATE FOREIGN TABLE dl_bad (a int) SERVER parquet_srv
  OPTIONS (format 'delta', location '/tmp/parquet_fdw_test/delta/none');
SELECT * FROM dl_bad;
ALTER FOREIGN TABLE dl_bad OPTIONS (SET location '/tmp/parquet_fdw_test/delta/t', ADD version '7');
SELECT * FROM dl_bad;

DROP FOREIGN TABLE dl, dl_v0, dl_t, dl_m, dl_f, dl_g, dl_bad;
DROP FUNCTION dl_write(text, text[]);
DROP FUNCTION dl_add(text, int, text);
DROP TABLE dl_src;
