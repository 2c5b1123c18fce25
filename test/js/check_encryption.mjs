#!/usr/bin/env node
// Encrypted Parquet written by COPY ... TO ... (FORMAT parquet, footer_key ...),
// checked from outside the C code:
//
//   modes     every mode (algorithm x footer x keys x AAD prefix, plus page v2
//             and zstd) verified by the independent verifier lib/pme.mjs
//             with the keys read from the key files: every module decrypted
//             and authenticated with the spec's AAD, layout, key metadata =
//             key ids, the encryption of each column as asked, fresh
//             aad_file_unique per file
//   legacy    plaintext-footer files: DuckDB and hyparquet (readers without
//             encryption support) read the plaintext columns, equal to the
//             source table; the plaintext ColumnMetaData of encrypted columns
//             carries no statistics
//   tamper    a flipped byte in a page, page header, dictionary page, column
//             index, offset index, Bloom filter, footer or signature; pages
//             swapped between row groups; a page replayed from another file
//             with the same key; a truncated file: parquet_fdw fails with
//             SQLSTATE XX001 and never returns a row that differs from the
//             source, and the verifier rejects the file too
//   leakage   COPY with encryption, failing COPYs, reads with a wrong key and
//             EXPLAIN VERBOSE with log_statement = all, log_min_messages and
//             client_min_messages = debug5: no key (hex, raw or base64) in
//             the server log, the results, errors or notices
//
//   node check_encryption.mjs [--dir DIR] [--log SERVER_LOG]
//
// PostgreSQL through the PG* environment variables (superuser, parquet_fdw
// installed and preloaded).  DIR (default /tmp/parquet_fdw_test/enc_stage)
// is recreated, with DIR/keys for the key store (owned by the server's user,
// 0700); the server log defaults to $PGHOST/server.log (scripts/cluster.sh).
// Prints PASS/FAIL lines, then "encryption: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { parquetReadObjects } from 'hyparquet';
import { verifyEncryptedFile } from './lib/pme.mjs';
import { readMetadata } from './lib/parquet.mjs';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { keysFound, logSize, serverLogSince } from './lib/stage.mjs';

const argv = process.argv.slice(2);
const arg = (name, def) => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : def);
const DIR = arg('--dir', '/tmp/parquet_fdw_test/enc_stage');
const KEYDIR = path.join(DIR, 'keys');
const LOG = arg('--log', process.env.PGHOST ? path.join(process.env.PGHOST, 'server.log') : null);

let passed = 0;
let failed = 0;
function pass(what) {
  passed++;
  console.log(`PASS ${what}`);
}
function fail(what, why) {
  failed++;
  console.log(`FAIL ${what}: ${why}`);
}
function check(what, problems) {
  if (problems.length === 0) pass(what);
  else fail(what, problems.slice(0, 6).join('; ') + (problems.length > 6 ? `; ... (${problems.length})` : ''));
}

const client = new pg.Client();
await client.connect();
const q = async (sql, params) => (await client.query(sql, params)).rows;

// ------------------------------------------------------------------ setup
// The server writes the files and the keys: both directories belong to it.
const dataDir = (await q('SHOW data_directory'))[0].data_directory;
const owner = fs.statSync(dataDir);
fs.rmSync(DIR, { recursive: true, force: true });
fs.mkdirSync(KEYDIR, { recursive: true, mode: 0o700 });
for (const d of [DIR, KEYDIR]) {
  try {
    fs.chownSync(d, owner.uid, owner.gid);
  } catch (e) {
    if (process.getuid() !== owner.uid) throw e;
  }
}
fs.chmodSync(DIR, 0o755);
fs.chmodSync(KEYDIR, 0o700);

// Its own set-up: the stages before it may not have run (no corpus).
await q('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await q('LOAD \'parquet_fdw\'');
await q(`SET parquet_fdw.key_directory = ${sqlString(KEYDIR)}`);
await q('SET datestyle = \'ISO, YMD\'');
await q('SET timezone = \'UTC\'');
await q('SET extra_float_digits = 3');
const KEYS = { st_footer: 256, st_c128: 128, st_c192: 192, st_c256: 256, st_other: 256 };
for (const [id, bits] of Object.entries(KEYS)) await q('SELECT parquet_fdw.create_key($1, $2)', [id, bits]);
const keyBytes = {};
for (const id of Object.keys(KEYS)) {
  keyBytes[id] = Buffer.from(fs.readFileSync(path.join(KEYDIR, `${id}.key`), 'utf8').trim(), 'hex');
  if (keyBytes[id].length * 8 !== KEYS[id]) throw new Error(`key file of ${id} does not hold ${KEYS[id]} bits`);
}
const server = (await q('SELECT count(*) AS n FROM pg_foreign_server WHERE srvname = \'enc_stage_srv\''))[0].n;
if (server === '0') await q('CREATE SERVER enc_stage_srv FOREIGN DATA WRAPPER parquet_fdw');

// 20000 rows: NULLs in the nullable columns, a low-cardinality column
// (dictionary), a NOT NULL fixed-width column (equal-sized pages in every
// row group for the swap tests)
await q('DROP TABLE IF EXISTS enc_stage_src');
await q(`CREATE TABLE enc_stage_src AS
  SELECT i::int8 AS id,
         CASE WHEN i % 13 = 1 THEN NULL ELSE (i % 10)::int4 END AS grp,
         CASE WHEN i % 13 = 2 THEN NULL ELSE 'v' || (i % 700) END AS name,
         CASE WHEN i % 13 = 3 THEN NULL ELSE ((i * 37 % 100000) * 0.01 - 300)::numeric(12,2) END AS amount,
         CASE WHEN i % 13 = 4 THEN NULL ELSE i / 7.0::float8 END AS ratio,
         CASE WHEN i % 13 = 5 THEN NULL ELSE DATE '2020-01-01' + (i % 1000)::int END AS day,
         md5(i::text) AS note
    FROM generate_series(1, 20000) AS g(i)`);
const COLS = ['id', 'grp', 'name', 'amount', 'ratio', 'day', 'note'];
const TABLE_COLS = 'id int8, grp int4, name text, amount numeric(12,2), ratio float8, day date, note text';

// Key assignments: column -> key id (absent: plaintext); null: every column
// under the footer key
const KEYSETS = {
  footer: null,
  columns: { id: 'st_footer', grp: 'st_c128', name: 'st_c192', amount: 'st_c256', ratio: 'st_c128', day: 'st_footer', note: 'st_c192' },
  mixed: { name: 'st_c128', amount: 'st_c256', note: 'st_footer' },
};

function copyOptions(m) {
  let o = `footer_key 'st_footer', encryption_algorithm '${m.alg}', plaintext_footer ${m.plaintext}`;
  if (KEYSETS[m.keys]) o += `, column_keys '${Object.entries(KEYSETS[m.keys]).map(([c, k]) => `${c}:${k}`).join(', ')}'`;
  if (m.aad === 'stored') o += `, aad_prefix ${sqlString(m.prefix)}`;
  if (m.aad === 'supplied') o += `, aad_prefix ${sqlString(m.prefix)}, store_aad_prefix false`;
  return o + (m.extra ? `, ${m.extra}` : '');
}

async function writeFile(m) {
  await q(`COPY enc_stage_src TO ${sqlString(m.file)} WITH (FORMAT parquet, row_group_size 5000,
           data_page_size 4096, bloom_filter 'name', ${copyOptions(m)})`);
}

function verifierKeys(m) {
  const columnKeys = {};
  for (const [c, k] of Object.entries(KEYSETS[m.keys] ?? {}))
    if (k !== 'st_footer') columnKeys[c] = keyBytes[k];
  return { footerKey: keyBytes.st_footer, columnKeys, aadPrefix: m.aad === 'supplied' ? m.prefix : undefined };
}

/** How column c is encrypted in mode m: plaintext, footer_key or column_key. */
function expectedEncryption(m, c) {
  const ks = KEYSETS[m.keys];
  if (ks === null) return 'footer_key';
  if (!(c in ks)) return 'plaintext';
  return ks[c] === 'st_footer' ? 'footer_key' : 'column_key';
}

const modes = [];
for (const alg of ['AES_GCM_V1', 'AES_GCM_CTR_V1'])
  for (const plaintext of [false, true])
    for (const keys of Object.keys(KEYSETS))
      for (const aad of ['none', 'stored', 'supplied']) {
        const name = `${alg === 'AES_GCM_V1' ? 'gcm' : 'ctr'}_${plaintext ? 'plainf' : 'encf'}_${keys}_${aad}`;
        modes.push({ name, alg, plaintext, keys, aad, prefix: `stage/${name}` });
      }
modes.push({ name: 'gcm_encf_mixed_v2zstd', alg: 'AES_GCM_V1', plaintext: false, keys: 'mixed', aad: 'none',
  extra: 'page_version 2, compression zstd, dictionary false' });
modes.push({ name: 'ctr_plainf_columns_v2', alg: 'AES_GCM_CTR_V1', plaintext: true, keys: 'columns', aad: 'stored',
  prefix: 'stage/v2', extra: 'page_version 2, compression gzip' });
for (const m of modes) m.file = path.join(DIR, `${m.name}.parquet`);

// ------------------------------------------------------------------ modes
const fileUniques = new Map();
const reports = new Map();
for (const m of modes) {
  await writeFile(m);
  const bytes = fs.readFileSync(m.file);
  const r = verifyEncryptedFile(bytes, verifierKeys(m));
  reports.set(m.name, r);
  const p = [...r.errors.map((e) => `verifier: ${e}`), ...r.warnings.map((w) => `verifier warning: ${w}`)];
  if (!r.ok) p.push(`verifier not ok (needs ${r.needs})`);
  if (r.footerMode !== (m.plaintext ? 'plaintext' : 'encrypted')) p.push(`footer mode ${r.footerMode}`);
  if (r.algorithm !== m.alg) p.push(`algorithm ${r.algorithm}`);
  if (!r.footerVerified) p.push('footer not verified');
  if (r.footerKeyMetadata !== 'st_footer') p.push(`footer key metadata ${r.footerKeyMetadata}`);
  if (r.numRows !== 20000 || r.rowGroups !== 4) p.push(`${r.numRows} rows in ${r.rowGroups} row groups`);
  if (r.unverifiedColumns !== 0) p.push(`${r.unverifiedColumns} chunks not verified`);
  const a = r.aad ?? {};
  if (a.prefixStored !== (m.aad === 'stored') || a.supplyAadPrefix !== (m.aad === 'supplied') ||
      (m.aad === 'stored' && a.prefix !== m.prefix))
    p.push(`AAD prefix fields ${JSON.stringify(a)}`);
  if (!a.fileUnique || a.fileUnique.length < 16) p.push(`aad_file_unique ${a.fileUnique}`);
  else if (fileUniques.has(a.fileUnique)) p.push(`aad_file_unique ${a.fileUnique} also in ${fileUniques.get(a.fileUnique)}`);
  else fileUniques.set(a.fileUnique, m.name);
  let expectMeta = 0;
  for (const c of r.columns) {
    const want = expectedEncryption(m, c.path);
    if (c.encryption !== want) p.push(`rg ${c.rowGroup} ${c.path}: ${c.encryption}, expected ${want}`);
    if (c.status !== (want === 'plaintext' ? 'plaintext' : 'verified')) p.push(`rg ${c.rowGroup} ${c.path}: ${c.status}`);
    if (want === 'column_key' && c.keyMetadata !== KEYSETS[m.keys][c.path])
      p.push(`rg ${c.rowGroup} ${c.path}: key metadata ${c.keyMetadata}`);
    if (want === 'column_key' || (m.plaintext && want === 'footer_key')) expectMeta++;
  }
  const mods = r.modules;
  if (mods.column_meta_data !== expectMeta) p.push(`${mods.column_meta_data} encrypted ColumnMetaData, expected ${expectMeta}`);
  const pages = m.alg === 'AES_GCM_V1' ? mods.data_page : r.ctrPages.data_page;
  if (!(pages > 0 && mods.data_page_header === pages)) p.push(`${pages} data pages, ${mods.data_page_header} headers`);
  if (m.alg !== 'AES_GCM_V1' && mods.data_page !== 0) p.push('GCM data pages in a CTR file');
  if (!(mods.column_index > 0 && mods.offset_index > 0)) p.push(`page index modules ${mods.column_index}/${mods.offset_index}`);
  // grp and day get dictionaries (name's values are too distinct in its first page)
  if (!m.extra && expectedEncryption(m, 'grp') !== 'plaintext' && !(mods.dictionary_page_header > 0 && mods.dictionary_page_header === (m.alg === 'AES_GCM_V1' ? mods.dictionary_page : r.ctrPages.dictionary_page)))
    p.push('no encrypted dictionary page');
  if (expectedEncryption(m, 'name') !== 'plaintext' && !(mods.bloom_filter_header === 4 && mods.bloom_filter_bitset === 4))
    p.push(`Bloom filter modules ${mods.bloom_filter_header}/${mods.bloom_filter_bitset}`);
  if (m.plaintext && r.footerSignatures !== 1) p.push('footer signature not checked');
  if (!(r.crcChecked > 0)) p.push('no page CRC checked');
  check(`modes ${m.name} (${Object.entries(mods).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')}${r.ctrPages.data_page ? `, CTR pages ${r.ctrPages.data_page + r.ctrPages.dictionary_page}` : ''})`, p);

  // our reader agrees with the heap table (both ways)
  await q('DROP FOREIGN TABLE IF EXISTS enc_stage_ft');
  await q(`CREATE FOREIGN TABLE enc_stage_ft (${TABLE_COLS}) SERVER enc_stage_srv OPTIONS (filename ${sqlString(m.file)}${m.aad === 'supplied' ? `, aad_prefix ${sqlString(m.prefix)}` : ''})`);
  const d = (await q(`SELECT (SELECT count(*) FROM (SELECT * FROM enc_stage_src EXCEPT ALL SELECT * FROM enc_stage_ft) x) AS missing,
                             (SELECT count(*) FROM (SELECT * FROM enc_stage_ft EXCEPT ALL SELECT * FROM enc_stage_src) x) AS extra`))[0];
  check(`read back ${m.name}`, d.missing === '0' && d.extra === '0' ? [] : [`${d.missing} missing, ${d.extra} extra`]);
}
await q('DROP FOREIGN TABLE IF EXISTS enc_stage_ft');

// nested columns: a group in column_keys encrypts every leaf under it, a
// dotted path one leaf; the others stay plaintext
await q('DROP TYPE IF EXISTS enc_stage_pt CASCADE');
await q('CREATE TYPE enc_stage_pt AS (x float8, label text)');
for (const plaintext of [false, true]) {
  const file = path.join(DIR, `nested_${plaintext ? 'plainf' : 'encf'}.parquet`);
  await q(`COPY (SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE ARRAY[i, NULL, i + 1] END AS arr,
                        ROW(i / 2.0, 'p' || i)::enc_stage_pt AS rec
                   FROM generate_series(1, 10000) i)
           TO ${sqlString(file)} WITH (FORMAT parquet, footer_key 'st_footer', plaintext_footer ${plaintext},
                                       column_keys 'arr:st_c128, rec.label:st_c256', row_group_size 3000)`);
  const r = verifyEncryptedFile(fs.readFileSync(file), {
    footerKey: keyBytes.st_footer, columnKeys: { 'arr.list.element': keyBytes.st_c128, 'rec.label': keyBytes.st_c256 } });
  const p = [...r.errors, ...r.warnings];
  if (!r.ok) p.push('verifier not ok');
  const want = { id: null, 'arr.list.element': 'st_c128', 'rec.x': null, 'rec.label': 'st_c256' };
  for (const c of r.columns) {
    if (!(c.path in want)) p.push(`unexpected leaf ${c.path}`);
    else if (want[c.path] === null ? c.encryption !== 'plaintext' : c.encryption !== 'column_key' || c.keyMetadata !== want[c.path] || c.status !== 'verified')
      p.push(`rg ${c.rowGroup} ${c.path}: ${c.encryption} ${c.keyMetadata} ${c.status}`);
  }
  if (r.rowGroups !== 4 || r.columns.length !== 16) p.push(`${r.rowGroups} row groups, ${r.columns.length} chunks`);
  check(`nested columns ${plaintext ? 'plaintext' : 'encrypted'} footer (arr and rec.label encrypted, id and rec.x not)`, p);
}
await q('DROP TYPE enc_stage_pt');

// the verifier is no rubber stamp: a wrong key, a wrong prefix fail it
{
  const m = modes.find((x) => x.name === 'gcm_encf_columns_supplied');
  const bytes = fs.readFileSync(m.file);
  const k = verifierKeys(m);
  const bad = [];
  if (verifyEncryptedFile(bytes, { ...k, footerKey: keyBytes.st_other }).ok) bad.push('accepted a wrong footer key');
  if (verifyEncryptedFile(bytes, { ...k, aadPrefix: 'stage/other' }).ok) bad.push('accepted a wrong AAD prefix');
  if (verifyEncryptedFile(bytes, { ...k, columnKeys: { ...k.columnKeys, name: keyBytes.st_c128 } }).ok) bad.push('accepted a wrong column key');
  check('verifier rejects wrong keys and prefixes', bad);
}

// ------------------------------------------------------------------ legacy
// Readers without encryption support read the plaintext columns of a
// plaintext-footer file; their values equal the source table's.
const srcRows = await q('SELECT s.id::text AS id, s.grp, s.ratio, s.day::text AS day FROM enc_stage_src s ORDER BY s.id');
const srcText = srcRows.map((r) => [r.id, r.grp === null ? 'null' : String(r.grp), r.ratio === null ? 'null' : String(r.ratio), r.day ?? 'null'].join('|'));
for (const m of modes.filter((x) => x.plaintext && x.keys === 'mixed')) {
  const p = [];
  // DuckDB reads encrypted files of AES_GCM_V1 only (it refuses the others)
  if (m.alg === 'AES_GCM_V1') {
    const dk = await duckQuery(`SELECT t.id::VARCHAR, t.grp::VARCHAR, t.ratio, t.day::VARCHAR FROM read_parquet(${sqlString(m.file)}) t ORDER BY t.id`);
    const duckText = dk.rows.map((r) => [String(r[0]), r[1] === null ? 'null' : r[1], r[2] === null ? 'null' : String(r[2]), r[3] ?? 'null'].join('|'));
    if (duckText.length !== srcText.length) p.push(`DuckDB read ${duckText.length} rows`);
    else if (duckText.some((t, i) => t !== srcText[i])) p.push(`DuckDB row ${duckText.findIndex((t, i) => t !== srcText[i])} differs`);
    try {
      await duckQuery(`SELECT count(name) FROM read_parquet(${sqlString(m.file)})`);
      p.push('DuckDB read the encrypted column "name"');
    } catch {
      // expected: the pages are ciphertext to a reader without the key
    }
  }
  const file = await (async () => {
    const b = fs.readFileSync(m.file);
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  })();
  const hy = await parquetReadObjects({ file, columns: ['id', 'grp', 'ratio'] });
  const hyText = hy.map((r) => [String(r.id), r.grp === null || r.grp === undefined ? 'null' : String(r.grp), r.ratio === null || r.ratio === undefined ? 'null' : String(r.ratio)].join('|'));
  const srcNoDay = srcText.map((t) => t.split('|').slice(0, 3).join('|'));
  if (hyText.length !== srcNoDay.length || hyText.some((t, i) => t !== srcNoDay[i])) p.push('hyparquet values differ');
  // statistics of encrypted columns are stripped from the plaintext metadata
  const md = readMetadata(m.file);
  for (const rg of md.row_groups)
    for (const cc of rg.columns) {
      const c = cc.meta_data.path_in_schema.join('.');
      const enc = expectedEncryption(m, c) !== 'plaintext';
      if (enc && (cc.meta_data.statistics || cc.meta_data.encoding_stats)) p.push(`plaintext metadata of encrypted ${c} has statistics`);
      if (!enc && !cc.meta_data.statistics) p.push(`plaintext column ${c} lost its statistics`);
      if (enc !== (cc.encrypted_column_metadata !== undefined)) p.push(`${c}: encrypted_column_metadata ${enc ? 'missing' : 'present'}`);
    }
  check(`legacy readers ${m.name} (${m.alg === 'AES_GCM_V1' ? 'DuckDB and ' : ''}hyparquet read the plaintext columns)`, p);
}

// ------------------------------------------------------------------ tamper
// Base files: uncompressed, no dictionary, so that the NOT NULL int8 column
// id has equal-sized pages in every row group (swaps keep the offsets).
// Statistics pruning is off so that the quals reach the page index and the
// Bloom filters of every row group.  A query "on" a column has a qual on it:
// it reads the column's ColumnIndex in every row group (name: its Bloom
// filters too); the amount query prunes pages in every row group, so it
// reads every column's OffsetIndex.
const QUERIES = {
  all: 'SELECT * FROM %T',
  id: 'SELECT * FROM %T WHERE id BETWEEN 7000 AND 7100',
  grp: 'SELECT * FROM %T WHERE grp = 3',
  name: 'SELECT * FROM %T WHERE name = \'v42\'',
  amount: 'SELECT * FROM %T WHERE amount BETWEEN 100 AND 101',
  ratio: 'SELECT * FROM %T WHERE ratio BETWEEN 1000 AND 1001',
  day: 'SELECT * FROM %T WHERE day = \'2020-03-01\'',
  note: `SELECT * FROM %T WHERE note = '${(await q('SELECT md5(\'5\') AS h'))[0].h}'`,
};
await q('SET parquet_fdw.enable_statistics_pruning = off');
const expected = {};
for (const [k, sql] of Object.entries(QUERIES))
  expected[k] = (await q(`SELECT count(*) AS n, md5(string_agg(t::text, ',' ORDER BY id)) AS h FROM (${sql.replace('%T', 'enc_stage_src')}) t`))[0];

/**
 * Read a (tampered) file with every query: each must fail with XX001 or
 * return exactly the source's rows; mustFail names the query that must fail.
 */
// A flipped byte of the footer length makes the footer start up to 90
// bytes off; now and then those bytes still parse, skipped as unknown
// fields, into a FileMetaData whose encryption_algorithm is a union member
// no writer uses.  Its signature cannot be checked, so the reader reports
// the algorithm as unsupported (0A000): still an error, never rows.
const UNKNOWN_ALGORITHM = /encryption algorithm \d+ is not supported/;

async function readTampered(m, file, mustFail, allowUnknownAlgorithm = false) {
  const p = [];
  const failedQueries = [];
  await q('DROP FOREIGN TABLE IF EXISTS enc_stage_t');
  await q(`CREATE FOREIGN TABLE enc_stage_t (${TABLE_COLS}) SERVER enc_stage_srv OPTIONS (filename ${sqlString(file)}${m.aad === 'supplied' ? `, aad_prefix ${sqlString(m.prefix)}` : ''})`);
  for (const [k, sql] of Object.entries(QUERIES)) {
    try {
      const r = (await q(`SELECT count(*) AS n, md5(string_agg(t::text, ',' ORDER BY id)) AS h FROM (${sql.replace('%T', 'enc_stage_t')}) t`))[0];
      if (r.n !== expected[k].n || r.h !== expected[k].h) p.push(`query ${k} returned wrong rows (${r.n})`);
    } catch (e) {
      if (e.code !== 'XX001' &&
          !(allowUnknownAlgorithm && e.code === '0A000' && UNKNOWN_ALGORITHM.test(e.message)))
        p.push(`query ${k}: SQLSTATE ${e.code}: ${e.message}`);
      failedQueries.push(k);
    }
  }
  if (mustFail && !failedQueries.includes(mustFail)) p.push(`query ${mustFail} did not fail`);
  await q('DROP FOREIGN TABLE enc_stage_t');
  return { p, failedQueries };
}

const flip = (b, at) => {
  const c = Buffer.from(b);
  c[at] ^= 0x5a;
  return c;
};

async function tamper(m, what, bytes, mustFail) {
  const file = path.join(DIR, `tampered_${m.name}.parquet`);
  fs.writeFileSync(file, bytes);
  fs.chmodSync(file, 0o644);
  const { p, failedQueries } = await readTampered(m, file, mustFail, what === 'footer length');
  const r = verifyEncryptedFile(bytes, verifierKeys(m));
  if (r.ok) p.push('the verifier accepts the tampered file');
  check(`tamper ${m.name}: ${what} -> XX001 (${failedQueries.join(', ')})`, p);
}

const TAMPER_BASES = [
  { name: 't_gcm_encf', alg: 'AES_GCM_V1', plaintext: false, keys: 'columns', aad: 'none' },
  { name: 't_ctr_encf', alg: 'AES_GCM_CTR_V1', plaintext: false, keys: 'footer', aad: 'supplied', prefix: 'stage/t' },
  { name: 't_gcm_plainf', alg: 'AES_GCM_V1', plaintext: true, keys: 'columns', aad: 'stored', prefix: 'stage/tp' },
  { name: 't_ctr_plainf', alg: 'AES_GCM_CTR_V1', plaintext: true, keys: 'columns', aad: 'none' },
];
for (const base of TAMPER_BASES) {
  const m = { ...base, extra: 'compression uncompressed, dictionary false', file: path.join(DIR, `${base.name}.parquet`) };
  const twin = { ...m, file: path.join(DIR, `${base.name}_twin.parquet`) };
  await writeFile(m);
  await writeFile(twin);
  const bytes = fs.readFileSync(m.file);
  const twinBytes = fs.readFileSync(twin.file);
  const r = verifyEncryptedFile(bytes, verifierKeys(m));
  const untouched = await readTampered(m, m.file, null);
  check(`tamper base ${m.name} verifies and reads with every query`, [
    ...(r.ok ? [] : [`verifier: ${r.errors.join(', ')}`]),
    ...untouched.p,
    ...(untouched.failedQueries.length ? [`queries failed: ${untouched.failedQueries}`] : []),
  ]);
  const chunk = (rg, col) => r.columns.find((c) => c.rowGroup === rg && c.path === col);
  // a byte in the ciphertext of the module at [start, end)
  const mid = (start, end) => start + 16 + Math.floor((end - start - 32) / 2);
  const modEnd = (at) => at + 4 + bytes.readUInt32LE(at);

  // one module of each kind of each column, in a row group that varies
  COLS.forEach((c, ci) => {
    const kinds = [];
    const rg = ci % 4;
    const pages = chunk(rg, c).pages.filter((x) => x.type === 'data');
    const pg_ = pages[(ci * 3) % pages.length];
    kinds.push([`data page ${(ci * 3) % pages.length} of ${c} in row group ${rg}`, mid(pg_.body, pg_.end), 'all']);
    kinds.push([`data page header of ${c} in row group ${rg}`, mid(pg_.header, pg_.body), 'all']);
    const ci2 = chunk((rg + 1) % 4, c).columnIndexOffset;
    kinds.push([`column index of ${c} in row group ${(rg + 1) % 4}`, mid(ci2, modEnd(ci2)), c]);
    const oi = chunk((rg + 2) % 4, c).offsetIndexOffset;
    kinds.push([`offset index of ${c} in row group ${(rg + 2) % 4}`, mid(oi, modEnd(oi)), 'amount']);
    m.samples = (m.samples ?? []).concat(kinds);
  });
  for (const [what, at, mustFail] of m.samples) await tamper(m, what, flip(bytes, at), mustFail);
  const bloom = chunk(2, 'name').bloomFilterOffset;
  await tamper(m, 'Bloom filter header of name in row group 2', flip(bytes, mid(bloom, modEnd(bloom))), 'name');
  await tamper(m, 'Bloom filter bitset of name in row group 2', flip(bytes, mid(modEnd(bloom), modEnd(modEnd(bloom)))), 'name');
  const amount = chunk(1, 'amount').pages.find((x) => x.type === 'data');
  await tamper(m, 'data page nonce', flip(bytes, amount.body + 6), 'all');
  await tamper(m, 'data page module length', flip(bytes, amount.body + 1), 'all');
  await tamper(m, 'data page header tag', flip(bytes, amount.body - 3), 'all');
  const footerEnd = bytes.length - 8;
  await tamper(m, 'footer byte', flip(bytes, Math.floor((r.footerOffset + footerEnd) / 2)), 'all');
  await tamper(m, m.plaintext ? 'footer signature' : 'footer tag', flip(bytes, footerEnd - 1), 'all');
  await tamper(m, 'footer length', flip(bytes, footerEnd), 'all');
  await tamper(m, 'magic', flip(bytes, bytes.length - 1), 'all');

  // whole pages (header + body) of two row groups swapped; bodies only; the
  // same page from an identical file written with the same key.  Page
  // headers vary by a byte or two (the CRC of the ciphertext is a varint):
  // take pages of equal layout.
  const same = (a, b) => a.body - a.header === b.body - b.header && a.end - a.body === b.end - b.body;
  const dataPages = (rep, rg) => rep.columns.find((c) => c.rowGroup === rg && c.path === 'id').pages.filter((x) => x.type === 'data');
  const pair = dataPages(r, 0).flatMap((a) => dataPages(r, 3).map((b) => [a, b])).find(([a, b]) => same(a, b));
  if (!pair)
    fail(`tamper ${m.name}: swap`, 'no two id pages of row groups 0 and 3 have the same layout');
  else {
    const [p0, p3] = pair;
    const s = Buffer.from(bytes);
    bytes.copy(s, p3.header, p0.header, p0.end);
    bytes.copy(s, p0.header, p3.header, p3.end);
    await tamper(m, 'pages of row groups 0 and 3 swapped', s, 'all');
    const s2 = Buffer.from(bytes);
    bytes.copy(s2, p3.body, p0.body, p0.end);
    bytes.copy(s2, p0.body, p3.body, p3.end);
    await tamper(m, 'page bodies of row groups 0 and 3 swapped', s2, 'all');
  }
  // the same page (row group, column, ordinal) of the twin, of equal layout
  const rt = verifyEncryptedFile(twinBytes, verifierKeys(twin));
  let replay = null;
  for (const c of r.columns) {
    const tc = rt.columns.find((x) => x.rowGroup === c.rowGroup && x.path === c.path);
    const i = c.pages.findIndex((a, k) => tc && tc.pages[k] && a.type === 'data' && same(a, tc.pages[k]));
    if (i >= 0) {
      replay = [c, c.pages[i], tc.pages[i], i];
      break;
    }
  }
  if (!replay)
    fail(`tamper ${m.name}: replay`, 'no page of the twin file has the layout of the same page here');
  else {
    const [c, a, b, i] = replay;
    const s3 = Buffer.from(bytes);
    twinBytes.copy(s3, a.header, b.header, b.end);
    await tamper(m, `page ${i} of ${c.path} in row group ${c.rowGroup} replayed from another file with the same key`, s3, 'all');
  }
  await tamper(m, 'truncated by 100 bytes', bytes.subarray(0, bytes.length - 100), 'all');
  await tamper(m, 'truncated to half', bytes.subarray(0, Math.floor(bytes.length / 2)), 'all');
}
// dictionary pages (the tamper bases have none): grp's of two mode files
for (const name of ['gcm_plainf_footer_none', 'ctr_encf_columns_supplied']) {
  const m = modes.find((x) => x.name === name);
  const bytes = fs.readFileSync(m.file);
  const dict = reports.get(name).columns.find((c) => c.rowGroup === 1 && c.path === 'grp').pages.find((x) => x.type === 'dictionary');
  const mid = (start, end) => start + 16 + Math.floor((end - start - 32) / 2);
  await tamper(m, 'dictionary page header of grp in row group 1', flip(bytes, mid(dict.header, dict.body)), 'all');
  await tamper(m, 'dictionary page of grp in row group 1', flip(bytes, mid(dict.body, dict.end)), 'all');
}
await q('RESET parquet_fdw.enable_statistics_pruning');

// ------------------------------------------------------------------ leakage
{
  const outputs = [];
  const notices = [];
  client.on('notice', (n) => notices.push(JSON.stringify(n)));
  const run = async (sql) => {
    try {
      outputs.push(JSON.stringify((await client.query(sql)).rows));
    } catch (e) {
      outputs.push(JSON.stringify({ message: e.message, detail: e.detail, hint: e.hint, where: e.where, code: e.code }));
    }
  };
  const logStart = logSize(LOG);
  await q('SET log_statement = \'all\'');
  await q('SET log_min_messages = \'debug5\'');
  await q('SET log_min_error_statement = \'debug5\'');
  await q('SET client_min_messages = \'debug5\'');
  const leakFile = path.join(DIR, 'leak.parquet');
  const all = 'id:st_c128, grp:st_c192, name:st_c256, amount:st_footer';
  await run(`COPY enc_stage_src TO ${sqlString(leakFile)} WITH (FORMAT parquet, footer_key 'st_footer', column_keys '${all}', plaintext_footer true)`);
  await run(`COPY enc_stage_src TO ${sqlString(leakFile + '.x')} WITH (FORMAT parquet, footer_key 'st_footer', column_keys 'name:st_c256, note:no_such_key')`);
  await run(`COPY (SELECT id, CASE WHEN id = 19000 THEN 1e40 ELSE amount END AS amount FROM enc_stage_src) TO ${sqlString(leakFile + '.y')} WITH (FORMAT parquet, footer_key 'st_other', column_keys 'amount:st_c192')`);
  await run(`CREATE FOREIGN TABLE enc_stage_leak (${TABLE_COLS}) SERVER enc_stage_srv OPTIONS (filename ${sqlString(leakFile)})`);
  await run('SELECT count(*), sum(id), min(name) FROM enc_stage_leak');
  await run('EXPLAIN VERBOSE SELECT * FROM enc_stage_leak WHERE name = \'v1\'');
  await run('EXPLAIN (ANALYZE, VERBOSE) SELECT * FROM enc_stage_leak WHERE amount > 100');
  await run(`CREATE FOREIGN TABLE enc_stage_leak2 (${TABLE_COLS}) SERVER enc_stage_srv OPTIONS (filename ${sqlString(leakFile)}, column_keys 'name:st_c128', footer_key 'st_footer')`);
  await run('SELECT name FROM enc_stage_leak2');
  await run('SELECT * FROM parquet_fdw.keys()');
  await run('SELECT query FROM pg_stat_activity');
  // pg_stat_statements where the server preloads it (scripts/cluster.sh does)
  if ((await q("SELECT count(*) AS n FROM pg_settings WHERE name = 'shared_preload_libraries' AND setting ~ 'pg_stat_statements'"))[0].n !== '0') {
    await q('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  }
  const pss = await q('SELECT count(*) AS n FROM pg_extension WHERE extname = \'pg_stat_statements\'');
  if (pss[0].n !== '0') await run('SELECT query FROM pg_stat_statements');
  await run('DROP FOREIGN TABLE enc_stage_leak, enc_stage_leak2');
  for (const s of ['log_statement', 'log_min_messages', 'log_min_error_statement', 'client_min_messages']) await q(`RESET ${s}`);
  client.removeAllListeners('notice');

  // not vacuous: the statements, the debug output and the error reached the log
  const { log, problems: p } = serverLogSince(LOG, logStart, [
    ['column_keys \'name:st_c256, note:no_such_key\'', 'log_statement output'], [/DEBUG: {2}/, 'DEBUG output'],
    ['is not registered', 'the failing COPY\'s error']]);
  if (!outputs.some((o) => o.includes('Parquet'))) p.push('EXPLAIN output missing');
  const haystacks = [['server log', log], ['results and errors', Buffer.from(outputs.join('\n'))], ['notices', Buffer.from(notices.join('\n'))]];
  p.push(...keysFound(Object.entries(keyBytes), haystacks, { halfHex: true }));
  check(`no key material in the server log (${log.length} bytes at debug5), ${outputs.length} results/errors, ${notices.length} notices${pss[0].n === '0' ? '; pg_stat_statements not installed here' : ', pg_stat_statements'}`, p);
}

await q('DROP TABLE enc_stage_src');
await q('DROP SERVER enc_stage_srv CASCADE');
await client.end();
console.log(`encryption: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
