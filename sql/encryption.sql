-- Parquet Modular Encryption written by COPY ... TO ... (FORMAT parquet) and
-- read back through foreign tables: every mode, key and AAD errors, grants.
-- Files land in /tmp/parquet_fdw_test/out/enc_*; the keys in
-- /tmp/parquet_fdw_test/keys, which scripts/test.sh creates for the server's
-- user (0700) and this test empties first.  Programs read their input
-- first: one that exits before COPY has written to the pipe fails COPY.
LOAD 'parquet_fdw';
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 3;
\set out '/tmp/parquet_fdw_test/out'
COPY (SELECT 1) TO PROGRAM 'cat >/dev/null; mkdir -p /tmp/parquet_fdw_test/out; chmod 777 /tmp/parquet_fdw_test/out 2>/dev/null; rm -f /tmp/parquet_fdw_test/out/enc_*; rm -f /tmp/parquet_fdw_test/keys/*.key; true';
SET parquet_fdw.key_directory = '/tmp/parquet_fdw_test/keys';

SELECT parquet_fdw.create_key('enc_footer');
SELECT parquet_fdw.create_key('enc_c1', 128);
SELECT parquet_fdw.create_key('enc_c2', 256);
SELECT parquet_fdw.create_key('enc_c3', 192);
SELECT parquet_fdw.create_key('enc_other');
SELECT parquet_fdw.create_key('enc_user', 128);
SELECT * FROM parquet_fdw.keys() ORDER BY 1;

-- 4000 rows, NULLs in every nullable column, low-cardinality columns that
-- get dictionaries and high-cardinality ones that do not
CREATE TABLE enc_src (
    id int8 NOT NULL, grp int4, name text, amount numeric(12,2),
    ratio float8, day date, ts timestamptz, flag bool, blob bytea
);
INSERT INTO enc_src
SELECT i,
  CASE WHEN i % 11 = 1 THEN NULL ELSE (i % 10)::int4 END,
  CASE WHEN i % 11 = 2 THEN NULL ELSE 'n' || (i % 500) END,
  CASE WHEN i % 11 = 3 THEN NULL ELSE (i * 37 % 100000) * 0.01 - 300 END,
  CASE WHEN i % 11 = 4 THEN NULL ELSE i / 7.0 END,
  CASE WHEN i % 11 = 5 THEN NULL ELSE DATE '2020-01-01' + (i % 1000)::int END,
  CASE WHEN i % 11 = 6 THEN NULL ELSE TIMESTAMPTZ '2024-01-01 00:00+00' + i * INTERVAL '37 minutes' END,
  CASE WHEN i % 11 = 7 THEN NULL ELSE i % 3 = 0 END,
  CASE WHEN i % 11 = 8 THEN NULL ELSE decode(md5(i::text), 'hex') END
FROM generate_series(1, 4000) AS g(i);

-- COPY to enc_<name>.parquet: 4 row groups of several pages each, a Bloom
-- filter on name, page indexes (the default)
CREATE FUNCTION enc_copy(fname text, opts text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('COPY enc_src TO %L WITH (FORMAT parquet, row_group_size 1000, data_page_size 2048, bloom_filter ''name''%s)',
                   '/tmp/parquet_fdw_test/out/enc_' || fname || '.parquet', opts);
END
$$;

-- Reads enc_<name>.parquet through a foreign table with the given options
-- and compares it with enc_src both ways (EXCEPT ALL), then with quals that
-- use the Bloom filter, the page index and statistics.
CREATE FUNCTION enc_check(fname text, topts text DEFAULT '') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    missing bigint;
    extra bigint;
    q1 bigint;
    q2 bigint;
    q3 bigint;
BEGIN
    EXECUTE format('CREATE FOREIGN TABLE enc_ft (id int8, grp int4, name text, amount numeric(12,2), ratio float8, day date, ts timestamptz, flag bool, blob bytea) SERVER parquet_srv OPTIONS (filename %L%s)',
                   '/tmp/parquet_fdw_test/out/enc_' || fname || '.parquet', topts);
    SELECT count(*) INTO n FROM enc_ft;
    SELECT count(*) INTO missing FROM (SELECT * FROM enc_src EXCEPT ALL SELECT * FROM enc_ft) x;
    SELECT count(*) INTO extra FROM (SELECT * FROM enc_ft EXCEPT ALL SELECT * FROM enc_src) x;
    SELECT count(*) INTO q1 FROM (SELECT * FROM enc_ft WHERE name = 'n42' EXCEPT ALL SELECT * FROM enc_src WHERE name = 'n42') x;
    SELECT count(*) INTO q2 FROM (SELECT * FROM enc_src WHERE id BETWEEN 1500 AND 1620 EXCEPT ALL SELECT * FROM enc_ft WHERE id BETWEEN 1500 AND 1620) x;
    SELECT count(*) INTO q3 FROM (SELECT * FROM enc_src WHERE amount > 690 EXCEPT ALL SELECT * FROM enc_ft WHERE amount > 690) x;
    DROP FOREIGN TABLE enc_ft;
    RETURN format('%s rows, %s missing, %s extra, quals %s', n, missing, extra,
                  CASE WHEN q1 + q2 + q3 = 0 THEN 'agree' ELSE 'differ' END);
END
$$;

-- SQLSTATE and message of a statement that must fail
CREATE FUNCTION enc_error(stmt text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE stmt;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- The magic bytes at both ends of a file
CREATE FUNCTION enc_magic(fname text) RETURNS text
LANGUAGE sql AS $$
    SELECT convert_from(substring(b FROM 1 FOR 4), 'SQL_ASCII') || '..' ||
           convert_from(substring(b FROM length(b) - 3), 'SQL_ASCII')
      FROM pg_read_binary_file('/tmp/parquet_fdw_test/out/enc_' || fname || '.parquet') AS b
$$;

-- ------------------------------------------------------------ every mode
-- algorithm x footer x keys x AAD prefix.  Keys: "footer" encrypts every
-- column with the footer key; "columns" gives every column a key (some the
-- footer key's id, others 128-, 192- and 256-bit column keys); "mixed"
-- encrypts three columns and leaves the others in plaintext.  The prefix is
-- not stored in "supplied" files: the reader must name it.
CREATE TABLE enc_modes AS
SELECT a.alg || '_' || f.footer || '_' || k.keys || '_' || p.aad AS name,
       format(', footer_key ''enc_footer'', encryption_algorithm %L, plaintext_footer %s%s%s',
              a.algorithm, f.plaintext, k.opt,
              CASE p.aad WHEN 'none' THEN ''
                         WHEN 'stored' THEN ', aad_prefix ''enc-stored'''
                         ELSE format(', aad_prefix %L, store_aad_prefix false',
                                     'enc-' || a.alg || '_' || f.footer || '_' || k.keys) END) AS opts,
       CASE p.aad WHEN 'supplied' THEN format(', aad_prefix %L', 'enc-' || a.alg || '_' || f.footer || '_' || k.keys)
                  ELSE '' END AS topts
  FROM (VALUES ('gcm', 'AES_GCM_V1'), ('ctr', 'AES_GCM_CTR_V1')) AS a(alg, algorithm),
       (VALUES ('encf', 'false'), ('plainf', 'true')) AS f(footer, plaintext),
       (VALUES ('footer', ''),
               ('columns', ', column_keys ''id:enc_footer, grp:enc_c1, name:enc_c2, amount:enc_c3, ratio:enc_c1, day:enc_footer, ts:enc_c2, flag:enc_c3, blob:enc_c1'''),
               ('mixed', ', column_keys ''name:enc_c1, amount:enc_c2, blob:enc_footer''')) AS k(keys, opt),
       (VALUES ('none'), ('stored'), ('supplied')) AS p(aad);
SELECT count(*) FROM (SELECT enc_copy(name, opts) FROM enc_modes) x;
SELECT name, enc_magic(name), enc_check(name, topts) FROM enc_modes ORDER BY name;

-- a file with default options otherwise (one row group, bigger pages)
COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_default.parquet' WITH (FORMAT parquet, footer_key 'enc_footer');
SELECT enc_magic('default'), enc_check('default');
-- COPY (query), data page v2, zstd, no dictionary
COPY (SELECT * FROM enc_src ORDER BY id) TO '/tmp/parquet_fdw_test/out/enc_v2.parquet'
  WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'name:enc_c1, blob:enc_c2', page_version 2,
        compression zstd, dictionary false, row_group_size 1500, data_page_size 1024);
SELECT enc_check('v2');
-- COPY TO STDOUT: the client writes the encrypted stream
\copy (SELECT * FROM enc_src) TO '/tmp/parquet_fdw_test/out/enc_stdout.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'name:enc_c1', plaintext_footer true)
SELECT enc_magic('stdout'), enc_check('stdout');
-- an empty result
COPY (SELECT * FROM enc_src WHERE false) TO '/tmp/parquet_fdw_test/out/enc_empty.parquet' WITH (FORMAT parquet, footer_key 'enc_footer');
CREATE FOREIGN TABLE enc_empty (id int8, name text) SERVER parquet_srv
  OPTIONS (filename '/tmp/parquet_fdw_test/out/enc_empty.parquet');
SELECT enc_magic('empty'), count(*) FROM enc_empty;
DROP FOREIGN TABLE enc_empty;

-- COPY FROM reads an encrypted file too (keys from its key metadata)
CREATE TABLE enc_back (LIKE enc_src);
COPY enc_back FROM '/tmp/parquet_fdw_test/out/enc_ctr_plainf_columns_supplied.parquet'
  WITH (FORMAT parquet, aad_prefix 'enc-ctr_plainf_columns');
SELECT (SELECT count(*) FROM (SELECT * FROM enc_src EXCEPT ALL SELECT * FROM enc_back) x) AS missing,
       (SELECT count(*) FROM (SELECT * FROM enc_back EXCEPT ALL SELECT * FROM enc_src) x) AS extra;
DROP TABLE enc_back;
-- nested columns: a group named in column_keys encrypts all its leaves, a
-- dotted path one leaf (the verifier of the encryption stage checks which)
CREATE TYPE enc_pt AS (x float8, label text);
COPY (SELECT i AS id, ARRAY[i, i + 1] AS arr, ROW(i / 2.0, 'p' || i)::enc_pt AS rec FROM generate_series(1, 100) i)
  TO '/tmp/parquet_fdw_test/out/enc_nested.parquet'
  WITH (FORMAT parquet, footer_key 'enc_footer', plaintext_footer true, column_keys 'arr:enc_c1, rec.label:enc_c2');
SELECT path_in_schema FROM parquet_fdw.schema(:'out' || '/enc_nested.parquet') WHERE column_id IS NOT NULL ORDER BY column_id;
CREATE FOREIGN TABLE enc_nested (id int) SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/enc_nested.parquet');
SELECT count(*), sum(id) FROM enc_nested;
DROP FOREIGN TABLE enc_nested;
SELECT enc_error($$COPY (SELECT 1 AS id, ARRAY[1] AS arr) TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'arr.nope:enc_c1')$$);
SELECT enc_error($$COPY (SELECT 1 AS id, ROW(1.0, 'a')::enc_pt AS rec) TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'rec:enc_c1, rec.x:enc_c2')$$);
DROP TYPE enc_pt;

-- ------------------------------------------------------------ read errors
-- a plaintext footer without any key: the plaintext columns read (the
-- footer signature cannot be checked), an encrypted one is an error naming
-- its key and column
SET parquet_fdw.key_directory = '/tmp/parquet_fdw_test/no_keys_here';
CREATE FOREIGN TABLE enc_nokey (id int8, grp int4, name text, ratio float8, day date, ts timestamptz, flag bool)
  SERVER parquet_srv OPTIONS (filename '/tmp/parquet_fdw_test/out/enc_gcm_plainf_mixed_none.parquet');
SELECT count(*) AS rows,
       (SELECT count(*) FROM (SELECT id, grp, ratio, day, ts, flag FROM enc_nokey
                              EXCEPT ALL SELECT id, grp, ratio, day, ts, flag FROM enc_src) x) AS extra,
       (SELECT count(*) FROM (SELECT id, grp, ratio, day, ts, flag FROM enc_src
                              EXCEPT ALL SELECT id, grp, ratio, day, ts, flag FROM enc_nokey) x) AS missing
  FROM enc_nokey;
SELECT count(*) FROM enc_nokey WHERE grp = 3 AND day > '2020-06-01';
SELECT enc_error('SELECT name FROM enc_nokey');
SELECT enc_error('SELECT count(*) FROM enc_nokey WHERE name = ''n1''');
-- the encrypted footer cannot be read at all without its key
SELECT enc_error($$SELECT parquet_fdw.create_table_sql('/tmp/parquet_fdw_test/out/enc_gcm_encf_mixed_none.parquet')$$);
DROP FOREIGN TABLE enc_nokey;
SET parquet_fdw.key_directory = '/tmp/parquet_fdw_test/keys';

-- a wrong key named in the table's options: authentication fails
CREATE FUNCTION enc_read_error(fname text, topts text, cols text DEFAULT '*') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE format('CREATE FOREIGN TABLE enc_bad (id int8, grp int4, name text, amount numeric(12,2), ratio float8, day date, ts timestamptz, flag bool, blob bytea) SERVER parquet_srv OPTIONS (filename %L%s)',
                   '/tmp/parquet_fdw_test/out/enc_' || fname || '.parquet', topts);
    r := enc_error(format('SELECT %s FROM enc_bad', cols));
    DROP FOREIGN TABLE enc_bad;
    RETURN r;
END
$$;
SELECT enc_read_error('gcm_encf_footer_none', ', footer_key ''enc_other''');
SELECT enc_read_error('ctr_encf_footer_none', ', footer_key ''enc_other''');
SELECT enc_read_error('gcm_plainf_footer_none', ', footer_key ''enc_other''');
SELECT enc_read_error('gcm_plainf_columns_none', ', column_keys ''name:enc_other''', 'name');
SELECT enc_read_error('ctr_encf_columns_none', ', column_keys ''amount:enc_c1''', 'amount');
-- the right key under a wrong id is the same error, and a key id that does
-- not exist is named
SELECT enc_read_error('gcm_encf_mixed_none', ', footer_key ''nope''');
-- AAD prefix: missing, wrong, and contradicting the stored one
SELECT enc_read_error('gcm_encf_footer_supplied', '');
SELECT enc_read_error('gcm_plainf_footer_supplied', '');
SELECT enc_read_error('gcm_encf_footer_supplied', ', aad_prefix ''enc-wrong''');
SELECT enc_read_error('ctr_plainf_mixed_supplied', ', aad_prefix ''enc-wrong''');
SELECT enc_read_error('gcm_encf_footer_stored', ', aad_prefix ''enc-wrong''');
-- the stored prefix, supplied again, is fine
SELECT enc_check('gcm_encf_footer_stored', ', aad_prefix ''enc-stored''');
-- a file moved to another name keeps its identity: the prefix it was
-- written with still reads it
COPY (SELECT 1) TO PROGRAM 'cat >/dev/null; cp /tmp/parquet_fdw_test/out/enc_ctr_encf_columns_supplied.parquet /tmp/parquet_fdw_test/out/enc_moved.parquet';
SELECT enc_check('moved', ', aad_prefix ''enc-ctr_encf_columns''');
SELECT enc_read_error('moved', ', aad_prefix ''enc-ctr_encf_mixed''');

-- ------------------------------------------------------------ COPY errors
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, column_keys 'name:enc_c1')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, plaintext_footer true)$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, encryption_algorithm 'AES_GCM_CTR_V1')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, aad_prefix 'x')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', store_aad_prefix false)$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', aad_prefix '')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', encryption_algorithm 'AES_CTR')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'no_such_key')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'name:no_such_key')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'nope:enc_c1')$$);
SELECT enc_error($$COPY enc_src (id, grp) TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'name:enc_c1')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'name:enc_c1, name:enc_c2')$$);
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key 'enc_footer', column_keys 'name')$$);
-- raw key material is never an id: options only take ids
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_e.parquet' WITH (FORMAT parquet, footer_key '0123456789012345+/==')$$);
SELECT pg_stat_file(:'out' || '/enc_e.parquet', true) IS NULL AS no_file,
       (SELECT count(*) FROM pg_ls_dir(:'out') AS f WHERE f LIKE '.%.tmp') AS tmp_files;

-- ------------------------------------------------------------ grants
CREATE ROLE regress_enc_user;
GRANT pg_write_server_files, pg_read_server_files TO regress_enc_user;
GRANT SELECT ON enc_src TO regress_enc_user;
GRANT USAGE ON FOREIGN SERVER parquet_srv TO regress_enc_user;
GRANT CREATE ON SCHEMA public TO regress_enc_user;
SET ROLE regress_enc_user;
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_user.parquet' WITH (FORMAT parquet, footer_key 'enc_user')$$);
SELECT enc_error($$SELECT parquet_fdw.create_key('enc_mine')$$);
SELECT enc_error($$SELECT parquet_fdw.grant_key('enc_user', 'regress_enc_user')$$);
RESET ROLE;
SELECT parquet_fdw.grant_key('enc_user', 'regress_enc_user');
SET ROLE regress_enc_user;
COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_user.parquet' WITH (FORMAT parquet, footer_key 'enc_user', plaintext_footer true, column_keys 'name:enc_user');
-- a granted key reads; a key that is not granted does not
SELECT enc_check('user');
SELECT enc_read_error('gcm_encf_footer_none', '');
SELECT enc_error($$COPY enc_src TO '/tmp/parquet_fdw_test/out/enc_user2.parquet' WITH (FORMAT parquet, footer_key 'enc_user', column_keys 'name:enc_c1')$$);
RESET ROLE;
SELECT parquet_fdw.revoke_key('enc_user', 'regress_enc_user');
SET ROLE regress_enc_user;
SELECT enc_read_error('user', '');
-- without the grant, the plaintext columns of the plaintext-footer file stay
-- readable (the footer's signature, needing the key, is not checked)
SELECT enc_read_error('user', '', 'id, grp, amount');
RESET ROLE;
DROP OWNED BY regress_enc_user;
DROP ROLE regress_enc_user;


-- The key store's own errors: an existing id, a bad size, ids that are not
-- key ids (no path tricks), dropping, and a key file that holds no key.
SELECT enc_error($$SELECT parquet_fdw.create_key('enc_c1')$$);
SELECT enc_error($$SELECT parquet_fdw.create_key('enc_odd', 100)$$);
SELECT enc_error($$SELECT parquet_fdw.create_key('../escape')$$);
SELECT enc_error($$SELECT parquet_fdw.create_key('')$$);
SELECT parquet_fdw.create_key('enc_dropme');
SELECT parquet_fdw.drop_key('enc_dropme');
SELECT enc_error($$SELECT parquet_fdw.drop_key('enc_dropme')$$);
SELECT count(*) AS dropped_listed FROM parquet_fdw.keys() WHERE key_id = 'enc_dropme';
COPY (SELECT 'not hexadecimal at all') TO '/tmp/parquet_fdw_test/keys/enc_badfile.key';
COPY (SELECT '0011223344') TO '/tmp/parquet_fdw_test/keys/enc_short.key';
SELECT enc_error($$COPY enc_modes TO '/tmp/parquet_fdw_test/out/enc_bad.parquet' WITH (FORMAT parquet, footer_key 'enc_badfile')$$);
SELECT enc_error($$COPY enc_modes TO '/tmp/parquet_fdw_test/out/enc_bad.parquet' WITH (FORMAT parquet, footer_key 'enc_short')$$);
SELECT parquet_fdw.drop_key('enc_badfile');
SELECT parquet_fdw.drop_key('enc_short');

DROP FUNCTION enc_read_error(text, text, text);
DROP TABLE enc_modes, enc_src;
