#!/usr/bin/env node
// SQL-level soak: mutants of real Parquet files read through a running
// server (PG* environment variables) every way a user can: metadata(),
// schema(), file_info(), create_table_sql(), IMPORT FOREIGN SCHEMA, SELECT
// of every column (and count(*) and a filter), COPY FROM. A mutant passes
// when every statement either works or ends in a clean ERROR; a backend
// that dies (the connection drops, or the server log says "terminated by
// signal") or a statement that outlives its timeout fails it, and the
// mutant and statement are kept under --out.
//
//   node soak.mjs --minutes M [--seed S] --work DIR --out DIR --log SERVERLOG SOURCE...
//
// SOURCE: Parquet files or directories of them. Mutations (seeded, so a run
// is repeatable): bit flips, interesting values written over bytes of the
// footer (where Thrift lengths, counts and offsets live), truncation
// anywhere or inside the footer, a byte range copied over another (chunks
// moved), a page-sized range swapped with another.

import fs from 'node:fs';
import path from 'node:path';
import pg from '../js/node_modules/pg/lib/index.js';

const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
const MINUTES = Number(opt('--minutes', 1));
let seed = BigInt(opt('--seed', 20261124));
const WORK = opt('--work');
const OUT = opt('--out');
const LOG = opt('--log');
const TIMEOUT_MS = Number(opt('--timeout-ms', 10000));
const sources = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i].startsWith('--')) { i++; continue; }
  sources.push(argv[i]);
}
if (!WORK || !OUT || !LOG || sources.length === 0) {
  console.error('usage: soak.mjs --minutes M [--seed S] --work DIR --out DIR --log SERVERLOG SOURCE...');
  process.exit(2);
}

function rnd() { // xorshift64*
  seed ^= seed >> 12n; seed ^= (seed << 25n) & 0xffffffffffffffffn; seed ^= seed >> 27n;
  return Number(((seed * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn) >> 11n) / 2 ** 53;
}
const pick = (n) => Math.floor(rnd() * n);

function listFiles(p, out) {
  if (!fs.existsSync(p)) return;
  const st = fs.statSync(p);
  if (st.isDirectory()) for (const n of fs.readdirSync(p).sort()) listFiles(path.join(p, n), out);
  else if (/\.parquet$/.test(p) && st.size < 4 << 20 && st.size >= 12) out.push(p);
}
fs.mkdirSync(WORK, { recursive: true });
const found = [];
for (const s of sources) listFiles(s, found);
if (found.length === 0) { console.error('soak: no source files'); process.exit(2); }
// private copies: the sources may be rewritten while the soak runs
fs.mkdirSync(path.join(WORK, 'sources'), { recursive: true });
const files = found.map((f, i) => {
  const copy = path.join(WORK, 'sources', `${i}-${path.basename(f)}`);
  fs.copyFileSync(f, copy);
  return copy;
});

const INTERESTING = [0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0x15, 0x16, 0x18, 0x19, 0x1c, 0x2c];
const INTERESTING_VARINTS = [[0xff, 0xff, 0xff, 0xff, 0x0f], [0xfe, 0xff, 0xff, 0xff, 0x0f], [0x01], [0x00],
  [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], [0x80, 0x80, 0x80, 0x80, 0x08]];

function mutate(buf) {
  const b = Buffer.from(buf);
  const flen = b.length >= 12 ? b.readUInt32LE(b.length - 8) : 0;
  const fstart = flen > 0 && flen + 8 <= b.length ? b.length - 8 - flen : 0;
  const kind = pick(6);
  let what;
  switch (kind) {
    case 0: { const n = 1 + pick(8); for (let i = 0; i < n; i++) { const at = pick(b.length); b[at] ^= 1 << pick(8); } what = `${n} bit flips`; break; }
    case 1: { const n = 1 + pick(4); for (let i = 0; i < n; i++) b[fstart + pick(b.length - 8 - fstart)] = INTERESTING[pick(INTERESTING.length)]; what = `${n} footer bytes set`; break; }
    case 2: { const v = INTERESTING_VARINTS[pick(INTERESTING_VARINTS.length)]; const at = fstart + pick(Math.max(1, b.length - 8 - fstart - v.length)); for (let i = 0; i < v.length; i++) b[at + i] = v[i]; what = `varint ${v.length} bytes at ${at}`; break; }
    case 3: { const cut = rnd() < 0.5 ? pick(b.length) : fstart + pick(b.length - fstart); what = `truncated to ${cut}`; return { bytes: Buffer.concat([b.subarray(0, cut), rnd() < 0.5 ? b.subarray(b.length - 8) : Buffer.alloc(0)]), what }; }
    case 4: { const len = 1 + pick(4096); const from = pick(b.length); const to = pick(b.length); b.copy(b, to, from, Math.min(b.length, from + len)); what = `${len} bytes copied from ${from} to ${to}`; break; }
    default: { const len = 16 + pick(2048); const x = pick(Math.max(1, fstart - len)); const y = pick(Math.max(1, fstart - len)); const t = Buffer.from(b.subarray(x, x + len)); b.copy(b, x, y, y + len); t.copy(b, y); what = `${len}-byte ranges at ${x} and ${y} swapped`; break; }
  }
  return { bytes: b, what };
}

const client = () => {
  const c = new pg.Client({ options: `-c statement_timeout=${TIMEOUT_MS} -c client_min_messages=error`, query_timeout: TIMEOUT_MS + 20000, connectionTimeoutMillis: 30000 });
  c.on('error', () => {});
  return c;
};
async function waitForServer() {
  for (let i = 0; i < 120; i++) {
    const c = client();
    try { await c.connect(); await c.query('SELECT 1'); await c.end(); return; } catch { await c.end().catch(() => {}); }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not come back');
}
const logSize = () => (fs.existsSync(LOG) ? fs.statSync(LOG).size : 0);
function crashedSince(offset) {
  if (!fs.existsSync(LOG)) return false;
  const fd = fs.openSync(LOG, 'r');
  const len = fs.statSync(LOG).size - offset;
  if (len <= 0) { fs.closeSync(fd); return false; }
  const buf = Buffer.alloc(len);
  fs.readSync(fd, buf, 0, len, offset);
  fs.closeSync(fd);
  return /terminated by signal|PANIC/.test(buf.toString('latin1'));
}

/* Rows the row groups of the file claim (0 when unknown). */
async function claimedRows(c, f) {
  try {
    const r = await c.query(`SELECT coalesce(sum(n), 0)::text AS n FROM (SELECT DISTINCT row_group, row_group_num_rows AS n FROM parquet_fdw.metadata(${f})) s`);
    return Number(r.rows[0].n);
  } catch {
    return 0;
  }
}

const sqlString = (s) => `'${s.replace(/'/g, "''")}'`;
const errors = {};
let mutants = 0;
let statements = 0;
let crashes = 0;
let hangs = 0;
let slow = 0;
fs.mkdirSync(OUT, { recursive: true });
fs.chmodSync(WORK, 0o777);

const setup = client();
await setup.connect();
await setup.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await setup.query('CREATE SERVER IF NOT EXISTS soak_srv FOREIGN DATA WRAPPER parquet_fdw');
await setup.end();

const deadline = Date.now() + MINUTES * 60000;
while (Date.now() < deadline) {
  const src = files[pick(files.length)];
  const { bytes, what } = mutate(fs.readFileSync(src));
  const dir = path.join(WORK, `m${mutants % 4}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  const file = path.join(dir, 'mutant.parquet');
  fs.writeFileSync(file, bytes, { mode: 0o644 });
  mutants++;
  const f = sqlString(file);
  const stmts = [
    `SELECT count(*) FROM parquet_fdw.metadata(${f})`,
    `SELECT count(*) FROM parquet_fdw.schema(${f})`,
    `SELECT count(*) FROM parquet_fdw.file_info(${f})`,
    'DROP SCHEMA IF EXISTS soak CASCADE',
    'CREATE SCHEMA soak',
    `IMPORT FOREIGN SCHEMA "${dir}" FROM SERVER soak_srv INTO soak`,
    'SELECT * FROM soak.mutant',
    'SELECT count(*) FROM soak.mutant',
    'SELECT * FROM soak.mutant WHERE (soak.mutant.*)::text < \'m\' LIMIT 10',
    'CREATE TABLE soak.copy_target (LIKE soak.mutant)',
    `COPY soak.copy_target FROM ${f} WITH (FORMAT parquet)`,
  ];
  const c = client();
  let ok = true;
  try {
    await c.connect();
    for (const s of stmts) {
      const before = logSize();
      statements++;
      try {
        await c.query(s);
      } catch (err) {
        let died = false;
        if (err.code === '57014') {
          // A footer may claim billions of rows that need no data to
          // produce (count(*) reads no column): the scan then runs as long
          // as the rows take, answering cancels. That is work, not a hang.
          const claimed = await claimedRows(c, f);
          if (claimed > 10000000) {
            slow++;
            console.log(`SLOW mutant ${mutants} (${src}: ${what}): ${s}: its row groups claim ${claimed} rows; cancelled cleanly`);
            break;
          }
          hangs++;
          ok = false;
          fs.copyFileSync(file, path.join(OUT, `hang-${mutants}.parquet`));
          fs.writeFileSync(path.join(OUT, `hang-${mutants}.txt`), `${src}\n${what}\n${s}\n${err.message}\n`);
          console.log(`HANG mutant ${mutants} (${src}: ${what}): ${s}`);
          break;
        }
        try { await c.query('SELECT 1'); } catch { died = true; }
        if (died || !err.code || crashedSince(before)) {
          crashes++;
          ok = false;
          fs.copyFileSync(file, path.join(OUT, `crash-${mutants}.parquet`));
          fs.writeFileSync(path.join(OUT, `crash-${mutants}.txt`), `${src}\n${what}\n${s}\n${err.message}\n`);
          console.log(`CRASH mutant ${mutants} (${src}: ${what}): ${s}: ${err.message}`);
          await waitForServer();
          break;
        }
        errors[err.code] = (errors[err.code] ?? 0) + 1;
        // the first mutant of each SQLSTATE, to look at
        if (errors[err.code] === 1) {
          fs.copyFileSync(file, path.join(OUT, `error-${err.code}.parquet`));
          fs.writeFileSync(path.join(OUT, `error-${err.code}.txt`), `${src}\n${what}\n${s}\n${err.message}\n`);
        }
        // the statements after a failed IMPORT have no table to use
        if (s.startsWith('IMPORT') || s.startsWith('CREATE TABLE')) break;
      }
    }
  } finally {
    await c.end().catch(() => {});
  }
  if (!ok && crashes + hangs > 20) break;
}

const byCode = Object.entries(errors).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
console.log(`soak: ${mutants} mutants of ${files.length} files, ${statements} statements, ${crashes} crashes, ${hangs} statements over ${TIMEOUT_MS / 1000} s, ${slow} cancelled after ${TIMEOUT_MS / 1000} s on files whose row groups claim over 10 million rows`);
console.log(`soak: clean errors by SQLSTATE: ${byCode || 'none'}`);
console.log(`soak: ${mutants - (crashes + hangs)} passed, ${crashes + hangs} failed`);
process.exit(crashes + hangs > 0 ? 1 : 0);
