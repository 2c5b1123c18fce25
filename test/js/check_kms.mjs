#!/usr/bin/env node
// KMS-wrapped encryption written by parquet_fdw, and kms_command, checked
// from outside the C code:
//
//   write     COPY ... TO ... (FORMAT parquet, kms_footer_key ...) in every
//             combination of {single, double wrapping} x {internal, external
//             key material} x {uniform, per-column keys under two master
//             keys} x {encrypted, plaintext footer}: lib/key_tools.mjs
//             unwraps the key material with the master keys (Node crypto),
//             and the independent verifier (lib/pme.mjs) decrypts and
//             authenticates every module with the keys it recovers; the
//             material says what was asked (master key ids, wrapping, footer
//             flag, one fresh key per column, one KEK per master key); the
//             file reads back through a foreign table with master keys only
//   command   kms_command (test/js/kms_test_command.mjs, a KMS whose wrapping
//             the key store cannot undo): COPY TO wraps through it and the
//             test KMS unwraps what it wrote; foreign tables on a server with
//             kms_command and COPY FROM read the files with no key in the key
//             store; KEKs are cached per backend (one KMS call per master
//             key over several files; every time with kek_cache_lifetime 0)
//   failures  a failing command, one that hangs past kms_command_timeout,
//             one that answers garbage, a cancel while it runs: SQLSTATE
//             38000 or 57014, no file written, no command left running
//   grants    setting kms_command needs pg_execute_server_program (42501);
//             a role without a grant on the master key gets 42501 and the
//             KMS is not asked; with the grant it reads
//   leakage   no data key, KEK or master key (hex or base64) in the server
//             log (debug5, log_statement = all) or any result or error
//
//   node check_kms.mjs [--dir DIR] [--log SERVER_LOG]
//
// PostgreSQL through the PG* environment variables (superuser, parquet_fdw
// installed and preloaded).  Prints PASS/FAIL lines, then
// "kms: N passed, N failed".

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { verifyEncryptedFile } from './lib/pme.mjs';
import { sqlString } from './lib/duck.mjs';
import { keyMaterialFilePath, unwrapKey, unwrapMaterial, wrapKey } from './lib/key_tools.mjs';
import { connectWatched, counter, keysFound, logSize, serverLogSince } from './lib/stage.mjs';

const argv = process.argv.slice(2);
const arg = (name, def) => (argv.indexOf(name) >= 0 ? argv[argv.indexOf(name) + 1] : def);
const DIR = arg('--dir', '/tmp/parquet_fdw_test/kms');
const LOG = arg('--log', process.env.PGHOST ? path.join(process.env.PGHOST, 'server.log') : null);
const KEYS = path.join(DIR, 'masters'); // the key store's master keys
const EMPTY = path.join(DIR, 'nokeys');
const STATE = path.join(DIR, 'testkms'); // the test KMS's keys and call log
const KMS_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'kms_test_command.mjs');
const ROLE = 'kms_stage_user';

const { check, summary } = counter();

// every result, error and notice, searched for keys at the end
const { client, q, seen } = await connectWatched();
const secrets = []; // every key of the stage, for the leakage search
const logStart = logSize(LOG);
async function sqlError(sql, c = client) {
  try {
    seen.push(JSON.stringify(await c.query(sql)));
    return null;
  } catch (e) {
    seen.push(`${e.code} ${e.message} ${e.detail ?? ''}`);
    return e;
  }
}
const expectError = (e, code, re) => (!e ? [`no error, expected ${code}`]
  : e.code !== code || !re.test(e.message) ? [`${e.code} ${e.message}, expected ${code} ${re}`] : []);

// ------------------------------------------------------------------ setup
const dataDir = (await q('SHOW data_directory'))[0].data_directory;
const owner = fs.statSync(dataDir);
fs.rmSync(DIR, { recursive: true, force: true });
for (const d of [DIR, KEYS, EMPTY, STATE]) {
  fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  fs.chownSync(d, owner.uid, owner.gid);
}
fs.chmodSync(DIR, 0o755);
await q('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await q('SET timezone = \'UTC\'');
await q('SET extra_float_digits = 3');
const useKeys = (d) => q(`SET parquet_fdw.key_directory = ${sqlString(d)}`);
await useKeys(KEYS);
const master = {};
for (const [id, bits] of [['mk_footer', 256], ['mk_col1', 128], ['mk_col2', 192]]) {
  await q('SELECT parquet_fdw.create_key($1, $2)', [id, bits]);
  master[id] = Buffer.from(fs.readFileSync(path.join(KEYS, `${id}.key`), 'utf8').trim(), 'hex');
  secrets.push(master[id]);
}
// the test KMS holds its own master keys under the same ids
const testMaster = Object.fromEntries(Object.keys(master).map((id) => [id, crypto.randomBytes(32)]));
secrets.push(...Object.values(testMaster));
fs.writeFileSync(path.join(STATE, 'master_keys.json'),
  JSON.stringify(Object.fromEntries(Object.entries(testMaster).map(([id, k]) => [id, k.toString('hex')]))));
fs.writeFileSync(path.join(STATE, 'calls.log'), '');
// a copy the server's user can reach wherever the checkout is
fs.copyFileSync(KMS_SCRIPT, path.join(STATE, 'kms.mjs'));
for (const f of ['master_keys.json', 'calls.log', 'kms.mjs']) fs.chownSync(path.join(STATE, f), owner.uid, owner.gid);
const command = (mode) => `node ${path.join(STATE, 'kms.mjs')} ${STATE} ${mode} %o %i %u`;
const calls = () => fs.readFileSync(path.join(STATE, 'calls.log'), 'utf8').split('\n').filter(Boolean);

await q('DROP TABLE IF EXISTS kms_src, kms_in');
await q(`CREATE TABLE kms_src AS
  SELECT i::int8 AS id, CASE WHEN i % 7 = 1 THEN NULL ELSE 'n' || (i % 300) END AS name,
         md5(i::text) AS note, ((i * 37 % 100000) * 0.01)::numeric(12,2) AS amount,
         CASE WHEN i % 9 = 2 THEN NULL ELSE decode(md5(i::text), 'hex') END AS blob,
         DATE '2020-01-01' + (i % 1000) AS day
    FROM generate_series(1, 3000) AS g(i)`);
await q('CREATE TABLE kms_in (LIKE kms_src)');
const COLS = 'id int8, name text, note text, amount numeric(12,2), blob bytea, day date';
await q('DROP SERVER IF EXISTS kms_store_srv, kms_cmd_srv CASCADE');
await q('CREATE SERVER kms_store_srv FOREIGN DATA WRAPPER parquet_fdw');
await q(`CREATE SERVER kms_cmd_srv FOREIGN DATA WRAPPER parquet_fdw OPTIONS (kms_command ${sqlString(command('ok'))})`);

let tables = 0;
async function sameRows(file, server) {
  const t = `kms_t${tables++}`;
  await q(`CREATE FOREIGN TABLE ${t} (${COLS}) SERVER ${server} OPTIONS (filename ${sqlString(file)})`);
  try {
    const r = await q(`SELECT (SELECT count(*) FROM ${t}) AS n,
      (SELECT count(*) FROM (SELECT * FROM ${t} EXCEPT ALL SELECT * FROM kms_src) d) AS extra,
      (SELECT count(*) FROM (SELECT * FROM kms_src EXCEPT ALL SELECT * FROM ${t}) d) AS missing`);
    const { n, extra, missing } = r[0];
    return n === '3000' && extra === '0' && missing === '0' ? [] : [`${t}: ${n} rows, ${extra} extra, ${missing} missing`];
  } catch (e) {
    return [`${t}: ${e.code} ${e.message}`];
  }
}

/*
 * The keys of a file written with key material, recovered independently:
 * the footer's from FileCryptoMetaData (or the plaintext footer), the
 * columns' from the footer the footer key opens; unwrap(wrapped, id) is the
 * KMS's.  Returns { problems, materials, report }.
 */
function recover(file, unwrap) {
  const bytes = fs.readFileSync(file);
  const ext = fs.existsSync(keyMaterialFilePath(file)) ? fs.readFileSync(keyMaterialFilePath(file), 'utf8') : undefined;
  const materials = {};
  const text = (km) => {
    const j = JSON.parse(km);
    return j.internalStorage === false ? JSON.parse(ext)[j.keyReference] : km;
  };
  const bare = verifyEncryptedFile(bytes, {});
  materials.footer = JSON.parse(text(bare.footerKeyMetadata));
  const footerKey = unwrapMaterial(bare.footerKeyMetadata, unwrap, ext);
  const columnKeys = {};
  for (const c of verifyEncryptedFile(bytes, { footerKey }).columns)
    if (c.encryption === 'column_key') {
      columnKeys[c.path] = unwrapMaterial(c.keyMetadata, unwrap, ext);
      materials[c.path] = JSON.parse(text(c.keyMetadata));
    }
  secrets.push(footerKey, ...Object.values(columnKeys));
  const report = verifyEncryptedFile(bytes, { footerKey, columnKeys });
  const problems = report.ok && !report.unverifiedColumns ? [] : [`verifier: ${report.errors.slice(0, 3).join(' | ')}`];
  return { problems, materials, report, keys: [footerKey, ...Object.values(columnKeys)] };
}

const storeUnwrap = (wrapped, id) => unwrapMaterial(JSON.stringify({
  keyMaterialType: 'PKMT1', internalStorage: true, masterKeyID: id, doubleWrapping: false, wrappedDEK: wrapped,
}), master);
const testKmsUnwrap = (wrapped, id) => {
  if (!wrapped.startsWith('testkms:')) throw new Error(`${wrapped.slice(0, 12)}... is not the test KMS's`);
  const w = Buffer.from(wrapped.slice(8), 'base64');
  const d = crypto.createDecipheriv(`aes-256-gcm`, testMaster[id], w.subarray(0, 12)).setAAD(Buffer.from(id));
  d.setAuthTag(w.subarray(w.length - 16));
  const k = Buffer.concat([d.update(w.subarray(12, w.length - 16)), d.final()]);
  secrets.push(k);
  return k;
};

// What the material must say for the options of a write.
function materialProblems(v, materials) {
  const p = [];
  const want = { footer: 'mk_footer', ...(v.perColumn ? { name: 'mk_col1', note: 'mk_col1', amount: 'mk_col2', blob: 'mk_col2' } : {}) };
  for (const [where, id] of Object.entries(want)) {
    const m = materials[where];
    if (!m) {
      p.push(`${where}: no key material`);
      continue;
    }
    if (m.keyMaterialType !== 'PKMT1' || m.masterKeyID !== id || m.doubleWrapping !== v.double ||
        m.isFooterKey !== (where === 'footer') || (m.internalStorage === true) !== v.internal)
      p.push(`${where}: material ${JSON.stringify(m)}`);
  }
  if (Object.keys(materials).length !== Object.keys(want).length)
    p.push(`key material for ${Object.keys(materials).join(', ')}`);
  if (v.double) {
    const kek = {};
    for (const [where, m] of Object.entries(materials))
      if ((kek[m.masterKeyID] ??= m.keyEncryptionKeyID) !== m.keyEncryptionKeyID)
        p.push(`${where}: a second KEK for ${m.masterKeyID}`);
  }
  return p;
}

// ------------------------------------------------------------------ write
const VARIANTS = [];
for (const double of [false, true])
  for (const internal of [true, false])
    for (const perColumn of [false, true])
      for (const plaintextFooter of [false, true])
        VARIANTS.push({ double, internal, perColumn, plaintextFooter });
const vname = (v) => `${v.double ? 'double' : 'single'}-${v.internal ? 'internal' : 'external'}-${v.perColumn ? 'columns' : 'uniform'}-${v.plaintextFooter ? 'plainfooter' : 'encfooter'}`;
const copyOptions = (v) => `FORMAT parquet, kms_footer_key 'mk_footer', double_wrapping ${v.double}, ` +
  `key_material '${v.internal ? 'internal' : 'external'}', plaintext_footer ${v.plaintextFooter}, row_group_size 1000` +
  (v.perColumn ? ', kms_column_keys \'mk_col1: name, note; mk_col2: amount, blob\'' : '');

await q('SET log_statement = \'all\'');
await q('SET log_min_messages = debug5');
for (const v of VARIANTS) {
  const file = path.join(DIR, `${vname(v)}.parquet`);
  const p = [];
  const e = await sqlError(`COPY kms_src TO ${sqlString(file)} WITH (${copyOptions(v)})`);
  if (e) {
    check(`write ${vname(v)}`, [`COPY: ${e.code} ${e.message}`]);
    continue;
  }
  if (fs.existsSync(keyMaterialFilePath(file)) === v.internal) p.push(`key material file exists: ${!v.internal}`);
  try {
    const r = recover(file, storeUnwrap);
    p.push(...r.problems, ...materialProblems(v, r.materials));
    if (new Set(r.keys.map((k) => k.toString('hex'))).size !== r.keys.length) p.push('a data key used twice');
    if (v.perColumn && !r.report.columns.some((c) => c.path === 'id' && c.encryption === 'plaintext'))
      p.push('column id is not plaintext');
  } catch (err) {
    p.push(`independent unwrap: ${err.message}`);
  }
  p.push(...await sameRows(file, 'kms_store_srv'));
  check(`write ${vname(v)}: key material unwrapped and every module verified independently, rows read back`, p);
}

// An existing target is replaced with its material; COPY TO STDOUT cannot keep it outside.
{
  const e = await sqlError('COPY kms_src TO STDOUT WITH (FORMAT parquet, kms_footer_key \'mk_footer\', key_material \'external\')');
  const p = expectError(e, '0A000', /external file/);
  for (const [opts, code, re] of [
    ['footer_key \'mk_footer\', kms_footer_key \'mk_footer\'', '22023', /cannot be used together/],
    ['double_wrapping false', '22023', /needs option "kms_footer_key"/],
    ['kms_footer_key \'mk_footer\', key_material \'elsewhere\'', '22023', /key_material/],
    ['kms_footer_key \'mk_footer\', kms_column_keys \'mk_col1 name\'', '22023', /kms_column_keys/],
    ['kms_footer_key \'mk_footer\', kms_column_keys \'mk_col1: nosuch\'', '42703', /nosuch/],
    ['kms_footer_key \'mk_nosuch\'', '42704', /mk_nosuch/],
  ])
    p.push(...expectError(await sqlError(`COPY kms_src TO ${sqlString(path.join(DIR, 'bad.parquet'))} WITH (FORMAT parquet, ${opts})`), code, re));
  if (fs.existsSync(path.join(DIR, 'bad.parquet'))) p.push('a failed COPY left its file');
  check('COPY option errors: conflicting, missing and unknown master keys, columns, STDOUT with external material', p);
}

// ------------------------------------------------------------------ command
{
  await q(`SET parquet_fdw.kms_command = ${sqlString(command('ok'))}`);
  await useKeys(EMPTY);
  const files = [];
  const p = [];
  const before = calls().length;
  for (let i = 0; i < 3; i++) {
    const file = path.join(DIR, `cmd${i}.parquet`);
    files.push(file);
    const e = await sqlError(`COPY kms_src TO ${sqlString(file)} WITH (${copyOptions({ double: true, internal: i !== 1, perColumn: true, plaintextFooter: i === 2 })})`);
    if (e) p.push(`COPY ${i}: ${e.code} ${e.message}`);
  }
  // one KEK per master key for all three files: three wraps
  const wraps = calls().slice(before).filter((c) => c.startsWith('wrap '));
  if (wraps.length !== 3) p.push(`${wraps.length} wrap calls for 3 master keys over 3 files: ${wraps.join(' | ')}`);
  for (const file of files) {
    try {
      p.push(...recover(file, testKmsUnwrap).problems);
    } catch (err) {
      p.push(`${path.basename(file)}: the test KMS cannot unwrap it: ${err.message}`);
    }
  }
  check('kms_command: COPY TO wraps through the command, one KEK per master key across files, the test KMS unwraps every key', p);

  // a new backend reads through the server option, with an empty key store
  const c2 = new pg.Client();
  await c2.connect();
  c2.on('notice', (n) => seen.push(JSON.stringify(n)));
  await c2.query(`SET parquet_fdw.key_directory = ${sqlString(EMPTY)}`);
  const p2 = [];
  const mark = calls().length;
  for (const [i, file] of files.entries()) {
    await c2.query(`CREATE FOREIGN TABLE kms_cmd${i} (${COLS}) SERVER kms_cmd_srv OPTIONS (filename ${sqlString(file)})`);
    const r = (await c2.query(`SELECT count(*) AS n, count(*) FILTER (WHERE (s.*) IS DISTINCT FROM (k.*)) AS diff
      FROM kms_cmd${i} s JOIN kms_src k USING (id)`)).rows[0];
    if (r.n !== '3000' || r.diff !== '0') p2.push(`${path.basename(file)}: ${r.n} rows, ${r.diff} differ`);
  }
  const unwraps = calls().slice(mark);
  if (unwraps.length !== 3 || unwraps.some((c) => !c.startsWith('unwrap ')))
    p2.push(`${unwraps.length} KMS calls for 3 master keys over 3 files: ${unwraps.join(' | ')}`);
  for (const opts of ['VERBOSE', 'ANALYZE, VERBOSE'])
    seen.push(JSON.stringify((await c2.query(`EXPLAIN (${opts}) SELECT * FROM kms_cmd2 WHERE amount > 10`)).rows));
  // without the cache every read asks again, once per key it needs
  await c2.query('SET parquet_fdw.kek_cache_lifetime = 0');
  const asked = [];
  for (let i = 0; i < 2; i++) {
    const m = calls().length;
    await c2.query('SELECT sum(length(name)), sum(amount) FROM kms_cmd0');
    asked.push(calls().length - m);
  }
  if (asked[0] < 2 || asked[1] !== asked[0]) p2.push(`KMS calls of two reads without the cache: ${asked.join(', ')}`);
  // COPY FROM takes the command from parquet_fdw.kms_command
  await c2.query(`SET parquet_fdw.kms_command = ${sqlString(command('ok'))}`);
  await c2.query('TRUNCATE kms_in');
  const e = await sqlError(`COPY kms_in FROM ${sqlString(files[1])} WITH (FORMAT parquet)`, c2);
  if (e) p2.push(`COPY FROM: ${e.code} ${e.message}`);
  else if ((await c2.query('SELECT count(*) AS n FROM (SELECT * FROM kms_in EXCEPT ALL SELECT * FROM kms_src) d')).rows[0].n !== '0')
    p2.push('COPY FROM rows differ');
  // the key store's wrapping cannot open the command's files, nor the reverse
  await c2.query('RESET parquet_fdw.kms_command');
  p2.push(...expectError(await sqlError(`COPY kms_in FROM ${sqlString(files[0])} WITH (FORMAT parquet)`, c2), '42704', /mk_footer/));
  await c2.end();
  check('kms_command: foreign tables (server option) and COPY FROM read with no key in the store; KEKs cached per backend, not with lifetime 0', p2);
}

// ------------------------------------------------------------------ failures
{
  const p = [];
  const file = path.join(DIR, 'cmd0.parquet');
  await q(`CREATE FOREIGN TABLE kms_fail (${COLS}) SERVER kms_store_srv OPTIONS (filename ${sqlString(file)})`);
  await q('SET parquet_fdw.kek_cache_lifetime = 0');
  const server = (mode) => q(`ALTER SERVER kms_store_srv OPTIONS (${mode === null ? 'DROP kms_command' : `ADD kms_command ${sqlString(command(mode))}`})`);
  await server('fail');
  p.push(...expectError(await sqlError('SELECT count(*) FROM kms_fail'), '38000', /kms_command could not unwrap/));
  await server(null);
  await server('garbage');
  p.push(...expectError(await sqlError('SELECT count(*) FROM kms_fail'), '38000', /did not answer a key/));
  await server(null);
  await server('sleep');
  await q('SET parquet_fdw.kms_command_timeout = 400');
  let t = Date.now();
  p.push(...expectError(await sqlError('SELECT count(*) FROM kms_fail'), '38000', /did not answer within 400 ms/));
  if (Date.now() - t > 10000) p.push(`timeout took ${Date.now() - t} ms`);
  await q('SET parquet_fdw.kms_command_timeout = \'1h\'');
  await q('SET statement_timeout = 500');
  t = Date.now();
  p.push(...expectError(await sqlError('SELECT count(*) FROM kms_fail'), '57014', /statement timeout/));
  if (Date.now() - t > 10000) p.push(`cancel took ${Date.now() - t} ms`);
  await q('RESET statement_timeout');
  await server(null);
  // writing: a wrapped key that is not printable text
  await q(`SET parquet_fdw.kms_command = ${sqlString(command('bad-wrap'))}`);
  const target = path.join(DIR, 'badwrap.parquet');
  p.push(...expectError(await sqlError(`COPY kms_src TO ${sqlString(target)} WITH (FORMAT parquet, kms_footer_key 'mk_footer')`), '38000', /printable/));
  if (fs.existsSync(target)) p.push('a failed COPY left its file');
  await q('RESET parquet_fdw.kms_command');
  await q('RESET parquet_fdw.kms_command_timeout');
  await q('RESET parquet_fdw.kek_cache_lifetime');
  let left = '';
  try {
    left = execFileSync('pgrep', ['-f', `${STATE} sleep`]).toString().trim();
  } catch {
    left = ''; // pgrep exits 1 when nothing matches
  }
  if (left) p.push(`commands left running: ${left}`);
  check('kms_command failures: exit status, garbage, timeout, cancel -> 38000/57014, nothing left running or written', p);
}

// ------------------------------------------------------------------ grants
{
  const p = [];
  await q(`DROP ROLE IF EXISTS ${ROLE}`);
  await q(`CREATE ROLE ${ROLE} LOGIN`);
  await q(`GRANT pg_read_server_files TO ${ROLE}`);
  await q(`GRANT USAGE ON FOREIGN DATA WRAPPER parquet_fdw TO ${ROLE}`);
  await q(`GRANT USAGE ON FOREIGN SERVER kms_cmd_srv, kms_store_srv TO ${ROLE}`);
  await q(`GRANT SELECT ON kms_cmd0 TO ${ROLE}`);
  await q(`ALTER SERVER kms_store_srv OWNER TO ${ROLE}`);
  await q(`SET ROLE ${ROLE}`);
  p.push(...expectError(await sqlError(`ALTER SERVER kms_store_srv OPTIONS (ADD kms_command 'true')`), '42501', /kms_command/));
  p.push(...expectError(await sqlError(`CREATE SERVER kms_mine FOREIGN DATA WRAPPER parquet_fdw OPTIONS (kms_command 'true')`), '42501', /kms_command/));
  p.push(...expectError(await sqlError(`SET parquet_fdw.kms_command = 'true'`), '42501', /kms_command/));
  const mark = calls().length;
  p.push(...expectError(await sqlError('SELECT count(*) FROM kms_cmd0'), '42501', /mk_footer/));
  if (calls().length !== mark) p.push('the KMS was asked for a user without a grant');
  await q('RESET ROLE');
  for (const id of Object.keys(master)) await q('SELECT parquet_fdw.grant_key($1, $2)', [id, ROLE]);
  await q(`SET ROLE ${ROLE}`);
  const r = await sqlError('SELECT count(*) FROM kms_cmd0');
  if (r) p.push(`with grants: ${r.code} ${r.message}`);
  await q('RESET ROLE');
  await q('ALTER SERVER kms_store_srv OWNER TO CURRENT_USER');
  for (const id of Object.keys(master)) await q('SELECT parquet_fdw.revoke_key($1, $2)', [id, ROLE]);
  await q(`DROP OWNED BY ${ROLE}`);
  await q(`DROP ROLE ${ROLE}`);
  check('grants: kms_command needs pg_execute_server_program; master keys need a grant, checked before the KMS is asked', p);
}

// ------------------------------------------------------------------ hardening (issue 38)
// A COPY whose key material goes to a file another OS user planted a
// symlink for (the name has the backend's pid, which pg_stat_activity
// shows): the symlink's target must stay untouched.  The directory is not
// sticky, so fs.protected_symlinks does not stop the symlink either way.
{
  const p = [];
  await useKeys(KEYS);
  const plant = path.join(DIR, 'plant');
  const victim = path.join(DIR, 'victim');
  for (const d of [plant, victim]) {
    fs.mkdirSync(d, { recursive: true });
    fs.chownSync(d, owner.uid, owner.gid);
  }
  fs.chmodSync(plant, 0o777);
  const precious = path.join(victim, 'precious.conf');
  fs.writeFileSync(precious, 'precious = true\n');
  fs.chownSync(precious, owner.uid, owner.gid);
  const pid = (await q('SELECT pg_backend_pid() AS pid'))[0].pid;
  const target = path.join(plant, 'x.parquet');
  const tmp = `${keyMaterialFilePath(target)}.${pid}.tmp`;
  fs.symlinkSync(precious, tmp);
  fs.lchownSync(tmp, 65534, 65534); // nobody's
  const e = await sqlError(`COPY kms_src TO ${sqlString(target)} WITH (FORMAT parquet, kms_footer_key 'mk_footer', key_material 'external')`);
  if (e) p.push(`COPY: ${e.code} ${e.message}`);
  if (fs.readFileSync(precious, 'utf8') !== 'precious = true\n') p.push('the symlink\'s target was overwritten');
  if (!fs.lstatSync(precious).isFile()) p.push('the symlink\'s target is no longer a regular file');
  const material = keyMaterialFilePath(target);
  if (!fs.existsSync(material) || !fs.lstatSync(material).isFile()) p.push('the key material file is not a regular file');
  if (fs.existsSync(tmp)) p.push('the temporary name is left');
  if (!e) p.push(...await sameRows(target, 'kms_store_srv'));
  // create_key: never into a directory others may write to
  const open = path.join(DIR, 'openkeys');
  fs.mkdirSync(open);
  fs.chownSync(open, owner.uid, owner.gid);
  fs.chmodSync(open, 0o777);
  await useKeys(open);
  p.push(...expectError(await sqlError('SELECT parquet_fdw.create_key(\'k_open\')'), '42501', /writable by others/));
  if (fs.existsSync(path.join(open, 'k_open.key'))) p.push('a key file was written into a world-writable directory');
  await useKeys(KEYS);
  check('created files: a planted symlink at the key material\'s temporary name is replaced, never written through; no key in a world-writable directory', p);
}

// kms_command injection: a template that quotes a placeholder itself (as
// archive_command examples do) is refused, and so is any value with a
// character the shell could interpret, from SQL or from a file.
{
  const p = [];
  const marker = path.join(DIR, 'marker-file');
  const grantee = 'kms_stage_grantee';
  await q(`DROP ROLE IF EXISTS ${grantee}`);
  await q(`CREATE ROLE ${grantee}`);
  await q(`GRANT SELECT ON kms_src TO ${grantee}`);
  await q('SELECT parquet_fdw.grant_key(\'mk_footer\', $1)', [grantee]);
  p.push(...expectError(await sqlError('SET parquet_fdw.kms_command = \'/bin/echo wrapped-"%u"-%i\''), '22023', /kms_command/));
  p.push(...expectError(await sqlError('CREATE SERVER kms_quoted FOREIGN DATA WRAPPER parquet_fdw OPTIONS (kms_command \'/bin/echo \'\'%i\'\' %u\')'), '22023', /inside quotes/));
  p.push(...expectError(await sqlError('CREATE SERVER kms_quoted FOREIGN DATA WRAPPER parquet_fdw OPTIONS (kms_command \'/bin/echo \\%u\')'), '22023', /after a backslash/));
  await q(`SET ROLE ${grantee}`);
  // old code: the quoted template ran id as the server's user
  await sqlError(`COPY kms_src TO STDOUT WITH (FORMAT parquet, kms_footer_key 'mk_footer', kms_instance_url '$(id > ${marker})')`);
  await q('RESET ROLE');
  // with a template that is fine, the value itself is refused
  await q(`SET parquet_fdw.kms_command = ${sqlString(command('ok'))}`);
  await q(`SET ROLE ${grantee}`);
  p.push(...expectError(await sqlError(`COPY kms_src TO STDOUT WITH (FORMAT parquet, kms_footer_key 'mk_footer', kms_instance_url '$(id > ${marker})')`), '22023', /kms_instance_url/));
  await q('RESET ROLE');
  // a value from a file: the footer's kmsInstanceURL of external key material
  const file = path.join(DIR, 'inject.parquet');
  const e = await sqlError(`COPY kms_src TO ${sqlString(file)} WITH (FORMAT parquet, kms_footer_key 'mk_footer', key_material 'external')`);
  if (e) p.push(`COPY: ${e.code} ${e.message}`);
  else {
    const ext = JSON.parse(fs.readFileSync(keyMaterialFilePath(file), 'utf8'));
    const footer = JSON.parse(ext.footerKey);
    footer.kmsInstanceURL = `$(id > ${marker})`;
    ext.footerKey = JSON.stringify(footer);
    fs.writeFileSync(keyMaterialFilePath(file), JSON.stringify(ext));
    await q('SET parquet_fdw.kek_cache_lifetime = 0');
    const mark = calls().length;
    p.push(...expectError(await sqlError(`COPY kms_in FROM ${sqlString(file)} WITH (FORMAT parquet)`), 'XX001', /KMS instance URL .*cannot be passed to kms_command as %u/));
    if (calls().length !== mark) p.push('the KMS was run with the file\'s URL');
    await q('RESET parquet_fdw.kek_cache_lifetime');
  }
  await q('RESET parquet_fdw.kms_command');
  if (fs.existsSync(marker)) p.push(`the marker file appeared: ${fs.readFileSync(marker, 'utf8').trim()}`);
  await q('SELECT parquet_fdw.revoke_key(\'mk_footer\', $1)', [grantee]);
  await q(`DROP OWNED BY ${grantee}`);
  await q(`DROP ROLE ${grantee}`);
  check('kms_command injection: quoted placeholders refused (22023); unsafe %u from SQL (22023) or a file (XX001) refused; no marker file', p);
}

// kms_command_timeout while the wrapped key is written to stdin, and the
// size cap of key material fields: a 64 kB wrappedKEK (the cap) fills a
// pipe (64 kB on Linux) that a command which never reads leaves full.
{
  const p = [];
  await q(`SET parquet_fdw.kms_command = ${sqlString(command('ok'))}`);
  const file = path.join(DIR, 'bigkek.parquet');
  const e = await sqlError(`COPY kms_src TO ${sqlString(file)} WITH (FORMAT parquet, kms_footer_key 'mk_footer', key_material 'external')`);
  await q('RESET parquet_fdw.kms_command');
  const setKek = (kek) => {
    const ext = JSON.parse(fs.readFileSync(keyMaterialFilePath(file), 'utf8'));
    const footer = JSON.parse(ext.footerKey);
    footer.wrappedKEK = kek;
    ext.footerKey = JSON.stringify(footer);
    fs.writeFileSync(keyMaterialFilePath(file), JSON.stringify(ext));
  };
  // a watchdog: the old code waited in write() for as long as the command lived
  const deaf = `${STATE} deaf`;
  const killDeaf = () => {
    let pids = '';
    try {
      pids = execFileSync('pgrep', ['-f', deaf]).toString().trim();
    } catch {
      pids = '';
    }
    for (const pid of pids.split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
    return pids;
  };
  if (e) p.push(`COPY: ${e.code} ${e.message}`);
  else {
    await q(`CREATE FOREIGN TABLE kms_deaf (${COLS}) SERVER kms_cmd_srv OPTIONS (filename ${sqlString(file)})`);
    await q(`ALTER SERVER kms_cmd_srv OPTIONS (SET kms_command ${sqlString(command('deaf'))})`);
    await q('SET parquet_fdw.kek_cache_lifetime = 0');
    const timed = async (sql) => {
      const watchdog = setTimeout(killDeaf, 20000);
      const t = Date.now();
      const err = await sqlError(sql);
      clearTimeout(watchdog);
      return { err, ms: Date.now() - t };
    };
    // too large: refused before the KMS is asked
    setKek(`testkms:${'A'.repeat(100 * 1024)}`);
    let mark = calls().length;
    let r = await timed('SELECT count(*) FROM kms_deaf');
    p.push(...expectError(r.err, 'XX001', /invalid key material/));
    if (r.err && !/"wrappedKEK" is longer than 65536 bytes/.test(r.err.detail ?? '')) p.push(`detail: ${r.err.detail}`);
    if (calls().length !== mark) p.push('a 100 kB wrappedKEK went to the KMS');
    // at the cap: the write blocks; the timeout ends it
    setKek(`testkms:${'A'.repeat(64 * 1024 - 8)}`);
    await q('SET parquet_fdw.kms_command_timeout = 1000');
    mark = calls().length;
    r = await timed('SELECT count(*) FROM kms_deaf');
    p.push(...expectError(r.err, '38000', /did not answer within 1000 ms/));
    if (r.ms > 5000) p.push(`the 1 s timeout took ${r.ms} ms`);
    if (calls().length === mark) p.push('the command was not run');
    // and a cancel (statement_timeout) while it blocks
    await q('SET parquet_fdw.kms_command_timeout = \'1h\'');
    await q('SET statement_timeout = 1000');
    r = await timed('SELECT count(*) FROM kms_deaf');
    await q('RESET statement_timeout');
    p.push(...expectError(r.err, '57014', /statement timeout/));
    if (r.ms > 5000) p.push(`the cancel took ${r.ms} ms`);
    await q('RESET parquet_fdw.kms_command_timeout');
    await q('RESET parquet_fdw.kek_cache_lifetime');
    await q(`ALTER SERVER kms_cmd_srv OPTIONS (SET kms_command ${sqlString(command('ok'))})`);
    await q('DROP FOREIGN TABLE kms_deaf');
  }
  await new Promise((res) => setTimeout(res, 200));
  const left = killDeaf();
  if (left) p.push(`commands left running: ${left.replace(/\n/g, ' ')}`);
  check('kms_command: wrappedKEK over 64 kB refused (XX001); a full stdin pipe ends at kms_command_timeout (38000) or a cancel (57014) within 5 s', p);
}

// The KEK cache is keyed by the wrapped KEK too: file B names file A's KEK
// id (its data key wrapped under B's own KEK with A's id as AAD, as a
// writer may do); read after A in the same backend, B must get its own KEK.
{
  const p = [];
  const files = { a: path.join(DIR, 'kek_a.parquet'), b: path.join(DIR, 'kek_b.parquet') };
  await q('SET parquet_fdw.kek_cache_lifetime = 0'); // a fresh KEK for each COPY
  for (const f of Object.values(files)) {
    const e = await sqlError(`COPY kms_src TO ${sqlString(f)} WITH (FORMAT parquet, kms_footer_key 'mk_footer', key_material 'external')`);
    if (e) p.push(`COPY: ${e.code} ${e.message}`);
  }
  await q('RESET parquet_fdw.kek_cache_lifetime');
  const read = (f) => JSON.parse(fs.readFileSync(keyMaterialFilePath(f), 'utf8'));
  if (p.length === 0) {
    const a = JSON.parse(read(files.a).footerKey);
    const ext = read(files.b);
    const b = JSON.parse(ext.footerKey);
    if (a.keyEncryptionKeyID === b.keyEncryptionKeyID || a.wrappedKEK === b.wrappedKEK) p.push('A and B share a KEK already');
    const kekB = unwrapKey(b.wrappedKEK, master.mk_footer, Buffer.from('mk_footer'));
    const dek = unwrapKey(b.wrappedDEK, kekB, Buffer.from(b.keyEncryptionKeyID, 'base64'));
    secrets.push(kekB, dek);
    b.keyEncryptionKeyID = a.keyEncryptionKeyID;
    b.wrappedDEK = wrapKey(dek, kekB, Buffer.from(a.keyEncryptionKeyID, 'base64'));
    ext.footerKey = JSON.stringify(b);
    fs.writeFileSync(keyMaterialFilePath(files.b), JSON.stringify(ext));
    const c3 = new pg.Client();
    await c3.connect();
    await c3.query(`SET parquet_fdw.key_directory = ${sqlString(KEYS)}`);
    for (const [n, f] of Object.entries(files))
      await c3.query(`CREATE FOREIGN TABLE kms_kek_${n} (${COLS}) SERVER kms_store_srv OPTIONS (filename ${sqlString(f)})`);
    for (const n of ['a', 'b']) {
      try {
        const r = (await c3.query(`SELECT count(*) AS n, count(*) FILTER (WHERE (s.*) IS DISTINCT FROM (k.*)) AS diff
          FROM kms_kek_${n} s JOIN kms_src k USING (id)`)).rows[0];
        if (r.n !== '3000' || r.diff !== '0') p.push(`${n}: ${r.n} rows, ${r.diff} differ`);
      } catch (err) {
        p.push(`${n} after a: ${err.code} ${err.message}`);
      }
    }
    await c3.query('DROP FOREIGN TABLE kms_kek_a, kms_kek_b');
    await c3.end();
  }
  check('KEK cache: a file naming a cached KEK id with other wrapped KEK bytes gets its own KEK in the same backend', p);
}

// The key store against roles with pg_read_server_files and
// pg_write_server_files: COPY (any format) from or to a key file, by any
// path to it, is refused; other files still work for them.
{
  const p = [];
  const role = 'kms_files_user';
  await q(`DROP ROLE IF EXISTS ${role}`);
  await q(`CREATE ROLE ${role}`);
  await q(`GRANT pg_read_server_files, pg_write_server_files TO ${role}`);
  await q('DROP TABLE IF EXISTS kms_keytext');
  await q('CREATE TABLE kms_keytext (t text)');
  await q(`GRANT SELECT, INSERT ON kms_keytext, kms_src TO ${role}`);
  await q('RESET parquet_fdw.key_directory');
  await q('SELECT parquet_fdw.create_key(\'mk_default\')');
  const defaultKey = path.join(dataDir, 'parquet_fdw_keys', 'mk_default.key');
  const keyBytes = fs.readFileSync(defaultKey);
  secrets.push(Buffer.from(keyBytes.toString().trim(), 'hex'));
  const link = path.join(DIR, 'keylink');
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.join(dataDir, 'parquet_fdw_keys'), link);
  const storeKey = path.join(KEYS, 'mk_footer.key');
  const storeBytes = fs.readFileSync(storeKey);
  const outside = path.join(DIR, 'plain.txt');
  fs.writeFileSync(outside, 'hello\n');
  const cases = [
    [`COPY kms_keytext FROM ${sqlString(defaultKey)}`, 'from'],
    ['COPY kms_keytext FROM \'parquet_fdw_keys/mk_default.key\'', 'from'], // relative to the data directory
    [`COPY kms_keytext FROM ${sqlString(path.join(link, 'mk_default.key'))}`, 'from'],
    [`COPY kms_keytext FROM ${sqlString(`${DIR}/plant/../keylink/mk_default.key`)}`, 'from'],
    [`COPY kms_keytext FROM ${sqlString(defaultKey)} WITH (FORMAT parquet)`, 'from'],
    [`COPY kms_keytext TO ${sqlString(defaultKey)}`, 'to'],
    [`COPY kms_keytext TO ${sqlString(path.join(link, 'new.key'))}`, 'to'],
    [`COPY kms_src TO ${sqlString(path.join(link, 'new.parquet'))} WITH (FORMAT parquet)`, 'to'],
  ];
  await q(`SET ROLE ${role}`);
  for (const [sql, dir] of cases)
    p.push(...expectError(await sqlError(sql), '42501', new RegExp(`permission denied to COPY ${dir}`)).map((m) => `${sql}: ${m}`));
  const ok = await sqlError(`COPY kms_keytext FROM ${sqlString(outside)}`);
  if (ok) p.push(`a file outside the key directory: ${ok.code} ${ok.message}`);
  await q('RESET ROLE');
  if ((await q('SELECT count(*) AS n FROM kms_keytext WHERE t <> \'hello\''))[0].n !== '0') p.push('key text was copied in');
  if (!fs.readFileSync(defaultKey).equals(keyBytes) || !fs.readFileSync(storeKey).equals(storeBytes)) p.push('a key file changed');
  if (fs.existsSync(path.join(dataDir, 'parquet_fdw_keys', 'new.key')) || fs.existsSync(path.join(dataDir, 'parquet_fdw_keys', 'new.parquet')))
    p.push('a file was written into the key directory');
  // a superuser still may
  const su = await sqlError(`COPY kms_keytext FROM ${sqlString(defaultKey)}`);
  if (su) p.push(`superuser: ${su.code} ${su.message}`);
  await q('SELECT parquet_fdw.drop_key(\'mk_default\')');
  fs.rmSync(link);
  // the session's key directory (set by a superuser) too
  await q(`SET parquet_fdw.key_directory = ${sqlString(KEYS)}`);
  await q(`SET ROLE ${role}`);
  p.push(...expectError(await sqlError(`COPY kms_keytext FROM ${sqlString(storeKey)}`), '42501', /permission denied to COPY from/));
  await q('RESET ROLE');
  await q('DROP TABLE kms_keytext');
  await q(`DROP OWNED BY ${role}`);
  await q(`DROP ROLE ${role}`);
  check('key store: a role with pg_read/write_server_files cannot COPY from or to a key file (absolute, relative, symlink, ..; any format) -> 42501', p);
}

// ------------------------------------------------------------------ leakage
{
  await q('RESET log_statement');
  await q('RESET log_min_messages');
  const { log, problems: p } = serverLogSince(LOG, logStart, [['kms_footer_key \'mk_footer\'', 'log_statement output'],
    [/DEBUG: {2}/, 'DEBUG output'], ['kms_command could not unwrap', 'the failing command\'s error']]);
  const keys = secrets.map((k, i) => [`${i}`, k]);
  p.push(...keysFound(keys, [['server log', log], ['results, errors and EXPLAIN', Buffer.from(seen.join('\n'))]]));
  // files: what COPY wrote (not the key stores themselves) and temp files
  const walk = (d) => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []).flatMap((e) =>
    (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  const files = [...walk(DIR).filter((f) => !f.startsWith(STATE) && !f.startsWith(KEYS)), ...walk(path.join(dataDir, 'base', 'pgsql_tmp'))];
  p.push(...keysFound(keys, files.map((f) => [f, fs.readFileSync(f)])));
  check(`leakage: none of ${secrets.length} keys in the server log, any output or EXPLAIN, or ${files.length} files written`, p);
}

await q('DROP SERVER kms_store_srv, kms_cmd_srv CASCADE');
await q('DROP TABLE kms_src, kms_in');
await client.end();
process.exit(summary('kms'));
