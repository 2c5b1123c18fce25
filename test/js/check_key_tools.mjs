#!/usr/bin/env node
// Files of parquet-java's / Arrow's key tools (KMS envelope keys) read by
// parquet_fdw, made without Java: COPY ... TO ... (FORMAT parquet,
// footer_key ...) writes a file with data keys (DEKs) of the key store, and
// lib/key_tools.mjs rewrites its key_metadata into key material that master
// keys wrap.  The reader then sees only a key directory of master keys.
//
//   layout    lib/key_tools.mjs against the corpus's parquet-java file
//             (external_key_material_java): the same JSON bytes, and its keys
//             unwrap (when the corpus is there)
//   rewrite   every combination of {single, double wrapping} x {internal,
//             external storage} x {uniform encryption, per-column keys under
//             two master keys} x {encrypted, plaintext footer}: the
//             independent verifier (lib/pme.mjs) accepts the rewritten file
//             with the keys unwrapped from its key material, the bytes before
//             the footer and aad_file_unique unchanged
//   read      each through a foreign table and COPY FROM: the source's rows
//             (EXCEPT ALL both ways, counts); plaintext-footer files: the
//             plaintext columns read without any key
//   errors    key material file missing (58P01) or without the entry,
//             malformed JSON, non-base64 fields, a wrong master key or KEK
//             id (XX001), another key material type (0A000), a master key
//             not registered (42704), a role without a grant on a master key
//             (42501): each statement fails, no rows; a plaintext footer's
//             signature fails with a wrong footer master key, and is skipped
//             (plaintext columns read) without one
//   leakage   the reads and errors run with log_statement = all and every
//             log level at debug5: no DEK, KEK or master key (hex, raw or
//             base64) in the server log, results, errors or notices; the key
//             directories gain no file
//
//   node check_key_tools.mjs [--dir DIR] [--log SERVER_LOG] [--corpus DIR]
//
// PostgreSQL through the PG* environment variables (superuser, parquet_fdw
// installed and preloaded).  DIR (default /tmp/parquet_fdw_test/key_tools)
// is recreated, with key directories DIR/deks (data keys, for writing),
// DIR/masters (master keys only, for reading) and DIR/nokeys (empty).
// Prints PASS/FAIL lines, then "key-tools: N passed, N failed".

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { verifyEncryptedFile } from './lib/pme.mjs';
import { sqlString } from './lib/duck.mjs';
import { corpusDir } from './lib/corpus.mjs';
import { connectWatched, counter, keysFound, logSize, serverLogSince } from './lib/stage.mjs';
import {
  externalKeyMetadata, keyMaterial, keyMaterialFileJson, keyMaterialFilePath, materialJson,
  rewriteKeyMetadata, unwrapMaterial, writeKeyMaterialFile,
} from './lib/key_tools.mjs';

const argv = process.argv.slice(2);
const arg = (name, def) => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : def);
const DIR = arg('--dir', '/tmp/parquet_fdw_test/key_tools');
const LOG = arg('--log', process.env.PGHOST ? path.join(process.env.PGHOST, 'server.log') : null);
const KEYDIRS = { deks: path.join(DIR, 'deks'), masters: path.join(DIR, 'masters'), nokeys: path.join(DIR, 'nokeys') };
const ROLE = 'kt_stage_user';

const { check, summary } = counter();

// every result, error and notice, searched for keys at the end
const { client, q, seen } = await connectWatched();

// ------------------------------------------------------------------ layout
// parquet-java's own output (the corpus's external key material file; its
// master keys kf, kc1, kc2 are the README's 128-bit keys): our serialiser
// writes the same bytes and our unwrapping gives keys that decrypt the file.
{
  const corpus = path.join(corpusDir(argv), 'data');
  const name = 'external_key_material_java.parquet.encrypted';
  const file = path.join(corpus, name);
  if (!fs.existsSync(file)) {
    console.log(`NOTE corpus file ${file} not found: the layout check against parquet-java did not run`);
  } else {
    const p = [];
    const fileText = fs.readFileSync(keyMaterialFilePath(file), 'utf8');
    const entries = JSON.parse(fileText);
    if (keyMaterialFileJson(entries) !== fileText) p.push('key material file layout differs');
    for (const [ref, text] of Object.entries(entries))
      if (materialJson(JSON.parse(text)) !== text) p.push(`entry ${ref}: layout differs`);
    const bytes = fs.readFileSync(file);
    const masters = Object.fromEntries([['kf', '0123456789012345'], ['kc1', '1234567890123450'], ['kc2', '1234567890123451']]
      .map(([id, k]) => [id, Buffer.from(k, 'latin1')]));
    const bare = verifyEncryptedFile(bytes, {});
    if (bare.footerKeyMetadata !== externalKeyMetadata('footerKey')) p.push(`footer key metadata ${bare.footerKeyMetadata}`);
    const footerKey = unwrapMaterial(bare.footerKeyMetadata, masters, fileText);
    const columnKeys = {};
    for (const c of verifyEncryptedFile(bytes, { footerKey }).columns)
      if (c.encryption === 'column_key') columnKeys[c.path] = unwrapMaterial(c.keyMetadata, masters, fileText);
    const r = verifyEncryptedFile(bytes, { footerKey, columnKeys });
    if (!r.ok || r.unverifiedColumns || !Object.keys(columnKeys).length) p.push(`verifier: ${r.errors.join(' | ')}`);
    check(`layout: parquet-java's ${name} and its key material file, re-serialised byte for byte, keys unwrapped`, p);
  }
}

// ------------------------------------------------------------------ setup
// The server writes the Parquet files and the keys: the directories are its.
const dataDir = (await q('SHOW data_directory'))[0].data_directory;
const owner = fs.statSync(dataDir);
fs.rmSync(DIR, { recursive: true, force: true });
fs.mkdirSync(path.dirname(DIR), { recursive: true }); // not 0700: the server must reach DIR
for (const d of [DIR, ...Object.values(KEYDIRS)]) {
  fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  try {
    fs.chownSync(d, owner.uid, owner.gid);
  } catch (e) {
    if (process.getuid() !== owner.uid) throw e;
  }
}
fs.chmodSync(DIR, 0o755);

await q('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await q('LOAD \'parquet_fdw\'');
await q('SET datestyle = \'ISO, YMD\'');
await q('SET timezone = \'UTC\'');
await q('SET extra_float_digits = 3');
const useKeys = (d) => q(`SET parquet_fdw.key_directory = ${sqlString(KEYDIRS[d])}`);

/** Create keys { id: bits } in key directory d; their bytes, read from the key files. */
async function createKeys(d, keys) {
  await useKeys(d);
  const out = {};
  for (const [id, bits] of Object.entries(keys)) {
    await q('SELECT parquet_fdw.create_key($1, $2)', [id, bits]);
    out[id] = Buffer.from(fs.readFileSync(path.join(KEYDIRS[d], `${id}.key`), 'utf8').trim(), 'hex');
  }
  return out;
}
const dek = await createKeys('deks', { dk_footer: 256, dk_col1: 128, dk_col2: 192 });
const master = await createKeys('masters', { mk_footer: 256, mk_col1: 128, mk_col2: 192 });
const MASTER_OF = { dk_footer: 'mk_footer', dk_col1: 'mk_col1', dk_col2: 'mk_col2' };
const keyDirFiles = Object.fromEntries(Object.values(KEYDIRS).map((d) => [d, fs.readdirSync(d).sort().join(',')]));
// KEKs and stray master keys made below, for the leakage search
const otherKeys = [];

if ((await q('SELECT count(*) AS n FROM pg_foreign_server WHERE srvname = \'kt_stage_srv\''))[0].n === '0')
  await q('CREATE SERVER kt_stage_srv FOREIGN DATA WRAPPER parquet_fdw');
await q('DROP TABLE IF EXISTS kt_src, kt_in, kt_plain_in');
await q(`CREATE TABLE kt_src AS
  SELECT i::int8 AS id,
         CASE WHEN i % 11 = 1 THEN NULL ELSE i % 3 = 0 END AS flag,
         CASE WHEN i % 13 = 1 THEN NULL ELSE (i % 10)::int4 END AS grp,
         CASE WHEN i % 13 = 2 THEN NULL ELSE 'n' || (i % 500) END AS name,
         CASE WHEN i % 13 = 3 THEN NULL ELSE ((i * 37 % 100000) * 0.01 - 300)::numeric(12,2) END AS amount,
         CASE WHEN i % 13 = 4 THEN NULL ELSE i / 7.0::float8 END AS ratio,
         CASE WHEN i % 13 = 5 THEN NULL ELSE DATE '2020-01-01' + (i % 1000)::int END AS day,
         CASE WHEN i % 13 = 6 THEN NULL ELSE TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '67 seconds' END AS ts,
         CASE WHEN i % 13 = 7 THEN NULL ELSE decode(md5(i::text), 'hex') END AS blob,
         md5(i::text) AS note
    FROM generate_series(1, 5000) AS g(i)`);
await q('CREATE TABLE kt_in (LIKE kt_src)');
const TABLE_COLS = 'id int8, flag bool, grp int4, name text, amount numeric(12,2), ratio float8, day date, ts timestamptz, blob bytea, note text';
const PLAIN_COLS = 'id, flag, grp, day, ts'; // not encrypted with per-column keys
await q(`CREATE TABLE kt_plain_in AS SELECT ${PLAIN_COLS} FROM kt_src WHERE false`);

// ratio is "encrypted with the footer key"; name and note share one DEK
const COLUMN_KEYS = 'name:dk_col1, note:dk_col1, amount:dk_col2, blob:dk_col2, ratio:dk_footer';
const BASES = [
  { name: 'uniform_encf', perColumn: false, plaintext: false, opts: '' },
  { name: 'uniform_plainf', perColumn: false, plaintext: true, opts: ', aad_prefix \'kt/uniform\'' },
  { name: 'columns_encf', perColumn: true, plaintext: false, opts: ', aad_prefix \'kt/columns\'' },
  { name: 'columns_plainf', perColumn: true, plaintext: true, opts: '' },
];
await useKeys('deks');
for (const b of BASES) {
  b.file = path.join(DIR, `base_${b.name}.parquet`);
  await q(`COPY kt_src TO ${sqlString(b.file)} WITH (FORMAT parquet, row_group_size 2000, footer_key 'dk_footer',
           plaintext_footer ${b.plaintext}${b.perColumn ? `, column_keys '${COLUMN_KEYS}'` : ''}${b.opts})`);
  b.bytes = fs.readFileSync(b.file);
  b.report = verifyEncryptedFile(b.bytes, { footerKey: dek.dk_footer, columnKeys: { name: dek.dk_col1, note: dek.dk_col1, amount: dek.dk_col2, blob: dek.dk_col2 } });
  check(`base ${b.name}: written with DEKs, verified, ${b.report.rowGroups} row groups`,
    b.report.ok && b.report.rowGroups === 3 ? [] : [`verifier: ${b.report.errors.join(' | ')}, ${b.report.rowGroups} row groups`]);
}

/**
 * The base file with its key ids turned into key material (variant v: wrap
 * 'single'|'double', storage 'internal'|'external'), written as
 * DIR/<v.name>.parquet.  Hooks for the error cases: v.tweak(args, where)
 * changes keyMaterial's arguments, v.damage(text, where) its text,
 * v.entries(entries) the key material file's entries (v.fileText replaces
 * the whole file, v.noFile leaves it out).
 */
function makeVariant(base, v) {
  const kekCache = new Map();
  const entries = {};
  let next = 0;
  const map = (old, where) => {
    if (!MASTER_OF[old]) throw new Error(`unexpected key metadata "${old}" for ${where}`);
    const args = {
      dek: dek[old], masterKeyId: MASTER_OF[old], masterKey: master[MASTER_OF[old]], isFooterKey: where === 'footer',
      doubleWrapping: v.wrap === 'double', internalStorage: v.storage === 'internal', kekCache,
    };
    v.tweak?.(args, where);
    const text = v.damage ? v.damage(keyMaterial(args), where) : keyMaterial(args);
    if (v.storage === 'internal') return text;
    // parquet-java's references: the footer's, then columnKey0, 1, ... in order
    const ref = where === 'footer' ? 'footerKey' : `columnKey${next++}`;
    entries[ref] = text;
    return externalKeyMetadata(ref);
  };
  const file = path.join(DIR, `${v.name}.parquet`);
  const bytes = rewriteKeyMetadata(base.bytes, { footerKey: dek.dk_footer, map });
  fs.writeFileSync(file, bytes, { mode: 0o644 });
  otherKeys.push(...[...kekCache.values()].map((k) => k.key));
  v.entries?.(entries);
  if (v.storage === 'external' && !v.noFile) {
    if (v.fileText) fs.writeFileSync(keyMaterialFilePath(file), v.fileText);
    else writeKeyMaterialFile(file, entries);
  }
  const fileText = fs.existsSync(keyMaterialFilePath(file)) ? fs.readFileSync(keyMaterialFilePath(file), 'utf8') : null;
  return { file, bytes, fileText };
}

/** The rewritten file: verified with the keys its own key material unwraps. */
function checkRewrite(base, v, made) {
  const p = [];
  let chunks = '?';
  try {
    chunks = verifyRewrite(base, v, made, p);
  } catch (e) {
    p.push(`unwrapping: ${e.message}`);
  }
  check(`rewrite ${v.name}: verified with unwrapped keys (${chunks} column-key chunks)`, p);
}

/** Problems into p; returns the number of column-key chunks. */
function verifyRewrite(base, v, made, p) {
  const ext = made.fileText ?? undefined;
  const bare = verifyEncryptedFile(made.bytes, {});
  const footerKey = unwrapMaterial(bare.footerKeyMetadata, master, ext);
  if (!footerKey.equals(dek.dk_footer)) p.push('footer key material unwraps to another key');
  const first = verifyEncryptedFile(made.bytes, { footerKey });
  const columnKeys = {};
  for (const c of first.columns) {
    if (c.encryption !== 'column_key') continue;
    columnKeys[c.path] = unwrapMaterial(c.keyMetadata, master, ext);
    const want = dek[COLUMN_KEYS.split(', ').find((e) => e.startsWith(`${c.path}:`)).split(':')[1]];
    if (!columnKeys[c.path].equals(want)) p.push(`${c.path}: key material unwraps to another key`);
  }
  const r = verifyEncryptedFile(made.bytes, { footerKey, columnKeys });
  if (!r.ok || !r.footerVerified || r.unverifiedColumns) p.push(`verifier: ${r.errors.join(' | ')}`);
  if (r.footerMode !== (base.plaintext ? 'plaintext' : 'encrypted')) p.push(`footer mode ${r.footerMode}`);
  if (base.plaintext && r.footerSignatures !== 1) p.push('signature not verified');
  if (r.aad?.fileUnique !== base.report.aad.fileUnique) p.push('aad_file_unique changed');
  const tail = (x) => x.length - 8 - x.readUInt32LE(x.length - 8);
  if (!made.bytes.subarray(0, tail(made.bytes)).equals(base.bytes.subarray(0, tail(base.bytes))))
    p.push('bytes before the footer changed');
  const km = [bare.footerKeyMetadata, ...r.columns.map((c) => c.keyMetadata).filter(Boolean)];
  if (km.some((t) => !t.startsWith('{"') || t.includes('dk_'))) p.push('a key id is left in the key metadata');
  if (v.storage === 'external' && km.some((t) => JSON.parse(t).internalStorage !== false)) p.push('internal key material in an external variant');
  return r.columns.filter((c) => c.encryption === 'column_key').length;
}

// ------------------------------------------------------------------ read
const logStart = logSize(LOG);
for (const s of ['log_statement = \'all\'', 'log_min_messages = debug5', 'log_min_error_statement = debug5'])
  await q(`SET ${s}`);
await useKeys('masters');

async function foreignTable(name, file) {
  await q(`DROP FOREIGN TABLE IF EXISTS ${name}`);
  await q(`CREATE FOREIGN TABLE ${name} (${TABLE_COLS}) SERVER kt_stage_srv OPTIONS (filename ${sqlString(file)})`);
}

/** Problems of table t against the source's columns cols (EXCEPT ALL both ways, counts). */
async function compare(t, cols = '*') {
  const d = (await q(`SELECT (SELECT count(*) FROM (SELECT ${cols} FROM kt_src EXCEPT ALL SELECT ${cols} FROM ${t}) x) AS missing,
                             (SELECT count(*) FROM (SELECT ${cols} FROM ${t} EXCEPT ALL SELECT ${cols} FROM kt_src) x) AS extra,
                             (SELECT count(*) FROM ${t}) AS n`))[0];
  seen.push(JSON.stringify(d));
  return d.missing === '0' && d.extra === '0' && d.n === '5000' ? [] : [`${t}: ${d.n} rows, ${d.missing} missing, ${d.extra} extra`];
}

/** Foreign table and COPY FROM both give the source's rows (cols: a subset). */
async function readBack(file, cols = '*') {
  const into = cols === '*' ? 'kt_in' : 'kt_plain_in';
  const p = [];
  try {
    await foreignTable('kt_ft', file);
    p.push(...await compare('kt_ft', cols));
    await q(`TRUNCATE ${into}`);
    await q(`COPY ${into} FROM ${sqlString(file)} WITH (FORMAT parquet)`);
    p.push(...await compare(into, cols));
  } catch (e) {
    seen.push(JSON.stringify({ message: e.message, detail: e.detail, hint: e.hint, code: e.code }));
    p.push(`SQLSTATE ${e.code}: ${e.message}${e.detail ? ` (${e.detail})` : ''}`);
  }
  return p;
}

const variants = [];
for (const base of BASES)
  for (const wrap of ['single', 'double'])
    for (const storage of ['internal', 'external']) {
      const v = { name: `${base.name}_${wrap}_${storage}`, wrap, storage };
      const made = makeVariant(base, v);
      checkRewrite(base, v, made);
      check(`read ${v.name}: foreign table and COPY FROM give the source's rows`, await readBack(made.file));
      if (base.perColumn && base.plaintext) {
        await useKeys('nokeys');
        check(`read ${v.name} without any key: the plaintext columns (${PLAIN_COLS})`, await readBack(made.file, PLAIN_COLS));
        await useKeys('masters');
      }
      variants.push({ base, v, made });
    }

// ------------------------------------------------------------------ errors
/**
 * Every statement on file fails with SQLSTATE code (and so returns no row),
 * its message and detail matching re; what.msg gets the first message.
 */
async function expectError(file, code, re, what, select = '*') {
  const p = [];
  const stmts = [`SELECT ${select} FROM kt_ft`, `COPY kt_in${select === '*' ? '' : ` (${select})`} FROM ${sqlString(file)} WITH (FORMAT parquet)`];
  await foreignTable('kt_ft', file);
  for (const sql of stmts) {
    try {
      const r = await client.query(sql);
      p.push(`${sql.split(' ')[0]} succeeded (${r.rowCount} rows)`);
    } catch (e) {
      seen.push(JSON.stringify({ message: e.message, detail: e.detail, hint: e.hint, code: e.code }));
      const text = `${e.message}${e.detail ? ` (${e.detail})` : ''}`;
      if (e.code !== code) p.push(`${sql.split(' ')[0]}: SQLSTATE ${e.code}, expected ${code}: ${text}`);
      else if (!re.test(text)) p.push(`${sql.split(' ')[0]}: "${text}" does not match ${re}`);
      else what.msg ??= text;
    }
  }
  return p;
}

const base = (n) => BASES.find((b) => b.name === n);
const setField = (field, value) => (text, where) => (where === 'name'
  ? materialJson({ ...JSON.parse(text), [field]: value }) : text);
const strayKey = () => {
  const k = crypto.randomBytes(16);
  otherKeys.push(k);
  return k;
};
// re: the footer or column the message names, and the cause where its wording is settled
const NAME = 'column "name"';
const FOOTER = 'the footer';
const ERRORS = [
  { name: 'no key material file', storage: 'external', noFile: true, code: '58P01',
    re: new RegExp(`key material file .*${FOOTER}`) },
  { name: 'key material file without the entry of column name', storage: 'external', code: 'XX001',
    entries: (e) => delete e.columnKey0, re: new RegExp(`${NAME}.*no entry "columnKey0"`) },
  { name: 'key material file not JSON', storage: 'external', code: 'XX001', fileText: '{"footerKey": ',
    re: new RegExp(`${FOOTER}.*JSON`) },
  { name: 'malformed JSON in key_metadata', code: 'XX001', damage: (t, w) => (w === 'name' ? t.slice(0, -4) : t),
    re: new RegExp(`${NAME}.*JSON`) },
  { name: 'key material type PKMT2', code: '0A000', damage: setField('keyMaterialType', 'PKMT2'),
    re: new RegExp(`"PKMT2" for ${NAME}`) },
  // parquet-java writes both booleans and rejects material without them
  ...['internalStorage', 'doubleWrapping'].map((f) => ({ name: `key material without ${f}`, code: 'XX001',
    damage: (t, w) => (w === 'name' ? JSON.stringify({ ...JSON.parse(t), [f]: undefined }) : t),
    re: new RegExp(`${NAME}.*${f}`) })),
  { name: 'key material without masterKeyID', code: 'XX001',
    damage: (t, w) => (w === 'name' ? JSON.stringify({ ...JSON.parse(t), masterKeyID: undefined }) : t),
    re: new RegExp(`${NAME}.*masterKeyID`) },
  ...['single', 'double'].flatMap((wrap) => [
    { name: 'wrappedDEK not base64', wrap, code: 'XX001', damage: setField('wrappedDEK', '*not base64*'),
      re: new RegExp(NAME) },
    { name: 'wrong master key for column name', wrap, code: 'XX001',
      tweak: (a, w) => { if (w === 'name') a.masterKey = strayKey(); }, re: new RegExp(`${NAME}.*failed authentication`) },
    { name: 'wrong master key for the footer', wrap, code: 'XX001',
      tweak: (a, w) => { if (w === 'footer') a.masterKey = strayKey(); }, re: new RegExp(`${FOOTER}.*failed authentication`) },
    { name: 'master key not registered', wrap, code: '42704',
      tweak: (a, w) => { if (w === 'name') Object.assign(a, { masterKeyId: 'mk_unregistered', masterKey: strayKey() }); },
      re: new RegExp(`"mk_unregistered".*${NAME}.*not registered`) },
  ]),
  { name: 'wrappedKEK not base64', wrap: 'double', code: 'XX001', damage: setField('wrappedKEK', '*not base64*'),
    re: new RegExp(NAME) },
  { name: 'keyEncryptionKeyID of another KEK', wrap: 'double', code: 'XX001',
    damage: setField('keyEncryptionKeyID', crypto.randomBytes(16).toString('base64')),
    re: new RegExp(`${NAME}.*failed authentication`) },
  // a plaintext footer's signature is checked when its master key is there
  // (as parquet-java does): a wrong one fails every read, the plaintext
  // columns' too; without it the plaintext columns read and the footer-key
  // column (ratio) fails
  { name: 'wrong master key for the footer, plaintext footer', base: 'columns_plainf', code: 'XX001', plainFails: true,
    tweak: (a, w) => { if (w === 'footer') a.masterKey = strayKey(); }, re: new RegExp(`${FOOTER}.*failed authentication`) },
  { name: 'no key material file, plaintext footer', base: 'columns_plainf', storage: 'external', noFile: true,
    code: '58P01', plainReads: true, re: /could not open key material file/ },
  { name: 'footer master key not registered, plaintext footer', base: 'columns_plainf', code: '42704', plainReads: true,
    tweak: (a, w) => { if (w === 'footer') Object.assign(a, { masterKeyId: 'mk_unregistered', masterKey: strayKey() }); },
    re: new RegExp(`"mk_unregistered".*${FOOTER}.*not registered`) },
];
for (const [i, e] of ERRORS.entries()) {
  const b = base(e.base ?? 'columns_encf');
  const v = { wrap: 'single', storage: 'internal', ...e, name: `err${i}` };
  const made = makeVariant(b, v);
  const what = {};
  const p = await expectError(made.file, e.code, e.re, what);
  if (e.plainReads) p.push(...await readBack(made.file, PLAIN_COLS));
  if (e.plainFails) p.push(...await expectError(made.file, e.code, e.re, {}, PLAIN_COLS));
  check(`error ${e.name} (${v.wrap}, ${v.storage}${b.plaintext ? ', plaintext footer' : ''}): ${e.code}${what.msg ? ` "${what.msg}"` : ''}${e.plainReads ? '; plaintext columns read' : ''}${e.plainFails ? '; plaintext columns fail too' : ''}`, p);
}

// grants: a role needs a grant on each master key it uses, also when the
// superuser has just read the file (unwrapped keys are no way around it)
{
  await q(`DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '${ROLE}') THEN
             EXECUTE 'DROP OWNED BY ${ROLE}'; EXECUTE 'DROP ROLE ${ROLE}'; END IF; END $$`);
  await q(`CREATE ROLE ${ROLE}`);
  await q(`GRANT pg_read_server_files TO ${ROLE}`);
  await q(`GRANT INSERT, TRUNCATE, SELECT ON kt_in, kt_plain_in TO ${ROLE}`);
  await q(`GRANT SELECT ON kt_src TO ${ROLE}`);
  await q(`GRANT USAGE ON FOREIGN SERVER kt_stage_srv TO ${ROLE}`);
  await q(`GRANT CREATE ON SCHEMA public TO ${ROLE}`);
  await q('DELETE FROM parquet_fdw.key_grants WHERE grantee::text = $1', [ROLE]);
  for (const { v, made } of variants.filter((x) => x.base.name === 'columns_encf' && x.v.storage === 'internal')) {
    await readBack(made.file);
    // the role makes its own foreign table (it may not drop the superuser's)
    const asRole = async (f) => {
      await q('DROP FOREIGN TABLE IF EXISTS kt_ft');
      await q(`SET ROLE ${ROLE}`);
      try {
        return await f();
      } finally {
        await q('RESET ROLE');
      }
    };
    const denied = (id) => new RegExp(`permission denied to use encryption key "${id}"`);
    check(`grant ${v.name}: no grant at all: 42501`, await asRole(() => expectError(made.file, '42501', denied('mk_footer'), {})));
    await q('SELECT parquet_fdw.grant_key(\'mk_footer\', $1)', [ROLE]);
    check(`grant ${v.name}: footer master key only: plaintext columns read, the others 42501`, await asRole(async () => [
      ...await readBack(made.file, PLAIN_COLS),
      ...await expectError(made.file, '42501', denied('mk_col[12]'), {}),
      ...await expectError(made.file, '42501', denied('mk_col1'), {}, 'name'),
      ...await expectError(made.file, '42501', denied('mk_col2'), {}, 'amount'),
    ]));
    await q('SELECT parquet_fdw.grant_key(\'mk_col1\', $1)', [ROLE]);
    await q('SELECT parquet_fdw.grant_key(\'mk_col2\', $1)', [ROLE]);
    check(`grant ${v.name}: every master key granted: the source's rows`, await asRole(() => readBack(made.file)));
    await q('DELETE FROM parquet_fdw.key_grants WHERE grantee::text = $1', [ROLE]);
  }
  await q(`DROP OWNED BY ${ROLE}`);
  await q(`DROP ROLE ${ROLE}`);
}

// ------------------------------------------------------------------ leakage
for (const s of ['log_statement', 'log_min_messages', 'log_min_error_statement']) await q(`RESET ${s}`);
{
  // not vacuous: the statements, debug output and errors reached the log
  const { log, problems: p } = serverLogSince(LOG, logStart, [['CREATE FOREIGN TABLE kt_ft', 'log_statement output'],
    [/DEBUG: {2}/, 'DEBUG output'], ['mk_unregistered', 'the errors']]);
  const haystacks = [['server log', log], ['results, errors and notices', Buffer.from(seen.join('\n'))]];
  const keys = [...Object.entries(dek), ...Object.entries(master), ...otherKeys.map((k, i) => [`KEK or stray master key ${i}`, k])];
  p.push(...keysFound(keys, haystacks));
  check(`leakage: no DEK, KEK or master key (${keys.length} keys) in the server log (${log.length} bytes at debug5) or ${seen.length} results, errors and notices`, p);
  const now = Object.fromEntries(Object.values(KEYDIRS).map((d) => [d, fs.readdirSync(d).sort().join(',')]));
  check('the key directories gained no file', Object.keys(now).filter((d) => now[d] !== keyDirFiles[d]).map((d) => `${d}: ${now[d]}`));
}

await q('DROP FOREIGN TABLE IF EXISTS kt_ft');
await q('DROP TABLE kt_src, kt_in, kt_plain_in');
await q('DROP SERVER kt_stage_srv CASCADE');
await client.end();
process.exit(summary('key-tools'));
