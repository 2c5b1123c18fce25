#!/usr/bin/env node
// Delta Lake tables read through parquet_fdw (OPTIONS (format 'delta',
// location '<table directory>')), checked against what a correct reader
// returns. The source of truth is the delta-kernel-rs golden tables
// (../shared/testdata/table-formats/delta/golden, or $TABLE_FORMATS_DIR/
// delta/golden; README.md there), read in place:
//
//   rows        every table with an expected/ folder: the rows of SELECT *
//               equal, as a multiset, the rows of expected/*.parquet as
//               DuckDB reads those plain Parquet files (DuckDB never reads
//               the Delta table itself: its delta extension is not loaded);
//               the same rows with the columns selected in reverse order;
//               count(*) equals the expected row count
//   must-fail   the tables the README says a reader must refuse: CREATE
//               FOREIGN TABLE may succeed, SELECT * and count(*) must fail
//               with the SQLSTATE listed below (0A000 unsupported protocol,
//               58P01 table not found, XX001 damaged log), with a message
//               that is a whole sentence naming the table location (and,
//               for a protocol, the reader version), and the session must
//               still work afterwards (no crash)
//   skipped     tables without expected/ that are not must-fail: a SKIP
//               line with the reason, never counted
//
// Columns: the table's own schema (the latest metaData.schemaString of its
// _delta_log, lib/delta_log.mjs) names them; their types are what
// parquet_fdw.create_table_sql() declares for an expected/ file (the types
// parquet_fdw naturally reads the same Parquet values as), checked against
// the Delta type (lib/delta_log.mjs deltaPgType) and replaced by it where the
// two disagree. expected/'s column names must equal the schema's, as the
// kernel's own test asserts.
//
// Values are compared as canonical text per PostgreSQL type (lib/canon.mjs,
// as compare.mjs does): integers and numeric(p,s) exact (p,s padded), real
// as float32 and double as float64 values (shortest round-trip text, NaN =
// NaN, -0 <> 0), text as is, bytea as lowercase hex, date as days, timestamp
// (timestamp_ntz) as microseconds of wall-clock time, timestamptz (Delta
// timestamp, UTC-adjusted) as the instant in microseconds, arrays element by
// element, jsonb (structs, maps, nested arrays) as canonical JSON: object
// keys sorted, numbers by exact value, ISO dates/timestamps by what they
// name, binary as base64 (docs/JSON.md).
//
//   node test/js/check_delta.mjs [--dir TABLE_FORMATS_DIR] [--only REGEX] [--reference-only]
//
// PostgreSQL through the PG* environment variables (superuser; as
// scripts/cluster.sh exports them). --reference-only: no PostgreSQL, only
// the log, expected/ and the canonical forms (for developing the harness).
// Per table "PASS <table>: ..." / "FAIL <table>: ..." / "SKIP <table>:
// <reason>"; the last line is "delta: N passed, N failed". Without the
// golden tables: a NOT FOUND warning and "delta: 0 passed, 0 failed", exit 1
// under CI=true (as compare.mjs). Exit 0 only if nothing failed and
// something passed.
//
//   node test/js/check_delta.mjs --s3 [--dir TABLE_FORMATS_DIR] [--only REGEX]
//
// --s3: the same tables in a bucket. A local S3 (lib/s3_emulator.mjs:
// s3rver behind the front that checks every SigV4 signature; requests noted
// by lib/request_log.mjs in front of it) gets every golden table's delta/
// tree, object keys exactly the file names on disk (_delta_log/, _sidecars/,
// deletion_vector_*.bin, escaped partition folders), at
// s3://lake/golden/<table>/; a server with the endpoint and a user mapping
// with the keys (as check_object_store.mjs) reads them with location
// 's3://lake/golden/<table>'; every rows and must-fail comparison above is
// made again (a missing _delta_log/ is 58P01 too). Then, in the bucket only
// (PASS/FAIL lines named "s3 ..."):
//   time travel   version '0'/'1', timestamp, parquet_fdw.as_of (by the
//                 commits' commitInfo timestamps: a bucket gives no file
//                 times) on time-travel-start-start20-start40, against the
//                 expected/ of time-travel-start and -start20; a time before
//                 the first commit refused (22023)
//   absolute URLs a log naming its data files by s3:// URLs of the same
//                 bucket (the log of a golden table rewritten, its files
//                 left where they are: a shallow clone)
//   checkpoint    a version of checkpoints only (its commit JSON gone, as
//                 after a log cleanup): read as the same copy is locally
//   parallel      forced parallel plans over the deletion vector tables
//                 and over a version
//   trailing /    location 's3://lake/golden/<table>/' reads as without
//                 (and, as a control, the local directory with a "/")
//   requests      _delta_log/ listed once per statement (two statements:
//                 two listings; one statement reading the table twice: one),
//                 a version already read not read again
// The last line is then "delta_s3: N passed, N failed".

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { canonDuck, canonPg, pgFamily, Unrepresentable } from './lib/canon.mjs';
import { anyFields, deltaPgType, deltaTypeName, latestState, listLog } from './lib/delta_log.mjs';
import { filesBelow } from './lib/stage.mjs';
import { listingsOf } from './lib/request_log.mjs';
import { alive, errorOf, sessionClient, waitForServer as waitForServerOf } from './lib/pg_session.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const TABLE = 'pqfdw_delta';
const TYPES_TABLE = 'pqfdw_delta_types';
const SERVER = 'pqfdw_delta_srv';
const SESSION_OPTIONS = '-c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=iso_8601 ' +
  '-c extra_float_digits=1 -c bytea_output=hex -c statement_timeout=300s -c client_min_messages=warning';
const pgClient = () => sessionClient(SESSION_OPTIONS, { query_timeout: 600000 });
const waitForServer = (maxMs = 60000) => waitForServerOf(pgClient, maxMs);

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = opt('--only') ? new RegExp(opt('--only')) : null;
const referenceOnly = argv.includes('--reference-only');
// --s3: the tables in a bucket of a local S3 (s3rver behind the SigV4 front)
const S3 = argv.includes('--s3') && !referenceOnly;
const STAGE = S3 ? 'delta_s3' : 'delta';
const BUCKET = 'lake';
const S3_KEY = { id: 'AKIADELTA000000001', secret: 'delta/Secret+Key=01' };
// the Delta tables' server: with --s3 one reaching the bucket (the expected/
// files' types still come through SERVER, a local one)
const TABLE_SERVER = S3 ? 'pqfdw_delta_s3_srv' : SERVER;
/** The URL of golden table name in the bucket (its delta/ folder's contents). */
const s3Location = (name) => `s3://${BUCKET}/golden/${name}`;

// ------------------------------------------------------- corpus knowledge

// README: a correct reader must refuse these. code: the SQLSTATE required;
// names: what the message (or its detail) must name besides the location.
const MUST_FAIL = {
  'deltalog-invalid-protocol-version': { code: '0A000', why: 'protocol needs reader version 99', names: ['99'] },
  'deltalog-state-reconstruction-from-checkpoint-missing-metadata': { code: 'XX001', why: 'no metaData in the checkpoint and the commits after it' },
  'deltalog-state-reconstruction-from-checkpoint-missing-protocol': { code: 'XX001', why: 'no protocol in the checkpoint and the commits after it' },
  'deltalog-state-reconstruction-without-metadata': { code: 'XX001', why: 'no metaData action in the log' },
  'deltalog-state-reconstruction-without-protocol': { code: 'XX001', why: 'no protocol action in the log' },
  'no-delta-log-folder': { code: '58P01', why: 'no _delta_log folder: table not found' },
  'versions-not-contiguous': { code: 'XX001', why: 'commit 1 missing between commits 0 and 2' },
};

// Tables with expected/ whose comparison needs a word (README: the kernel's
// own tests skip them).
const ROW_SPECIAL = {
  // The one exception compared differently: the expected file holds
  // as_timestamp = 2021-09-08 18:11:11 UTC (the partition value
  // "2021-09-08 11:11:11" read in the writer's session time zone,
  // America/Los_Angeles), but Delta partition timestamps without an offset
  // are UTC (delta-kernel-rs: "Golden data needs to have
  // 2021-09-08T11:11:11+00:00 as expected value for as_timestamp col"; the
  // kernel-timestamp-* tables' expected files read "2021-10-01 08:09:20" as
  // 08:09:20 UTC too). Every other column of every row is compared as is;
  // as_timestamp is compared with 11:11:11 UTC, and the expected file must
  // still hold 18:11:11 UTC there (otherwise the exception is stale).
  'data-reader-partition-values': {
    fix: {
      column: 'as_timestamp', from: '2021-09-08 18:11:11+00', to: '2021-09-08 11:11:11+00',
      why: 'as_timestamp 18:11:11 UTC in expected/ compared as 11:11:11 UTC (partition value read as UTC, as delta-kernel-rs)',
    },
  },
  // The kernel skips these over their expected files' schemas (nullability;
  // the legacy file's list element named "array"): names and values are the
  // same, so the values are compared.
  'parquet-all-types': { note: 'kernel skips it over schema nullability; values compared' },
  'parquet-all-types-legacy-format': { note: 'kernel skips it over legacy list naming; values compared' },
};

// Tables without expected/ (not must-fail): why there is nothing to compare.
const NO_EXPECTED = {
  'canonicalized-paths-normal-a': 'no expected/: an add and a remove of one absolute path spelled differently (kernel skips it: path canonicalization)',
  'canonicalized-paths-normal-b': 'no expected/: an add and a remove of one absolute path spelled differently (kernel skips it: path canonicalization)',
  'canonicalized-paths-special-a': 'no expected/: an add and a remove of one escaped absolute path spelled differently (kernel skips it: path canonicalization)',
  'canonicalized-paths-special-b': 'no expected/: an add and a remove of one escaped absolute path spelled differently (kernel skips it: path canonicalization)',
  'checkpoint': 'no expected/: the kernel only checks the snapshot version (14) and its scan files',
  'data-reader-absolute-paths-escaped-chars': 'no expected/ and no schema in the log: its adds name files that are not there (one by an absolute path of the writer\'s machine)',
  'delete-re-add-same-file-different-transactions': 'no expected/ and no data files: the kernel checks the surviving add actions (test not yet implemented there)',
  'deltalog-commit-info': 'no expected/ and no schema in the log: a log for reading commitInfo; its one add names no file',
  'hive': 'not a Delta table layout (Hive metastore tests; kernel skips it)',
  'log-replay-special-characters-b': 'no expected/ and its data file does not exist: the kernel checks the path only (test not yet implemented there)',
  'update-deleted-directory': 'no expected/ and no schema in the log: a log-only table (its adds name files that do not exist)',
};

function findGolden() {
  const cands = [opt('--dir'), process.env.TABLE_FORMATS_DIR, path.resolve(REPO, '..', 'shared', 'testdata', 'table-formats')];
  for (const c of cands) if (c && fs.existsSync(path.join(c, 'delta', 'golden'))) return fs.realpathSync(path.join(c, 'delta', 'golden'));
  return null;
}

/** One entry per table folder: { name, dir (the Delta table), mode: 'rows'|'error'|'skip', ... } */
function entries(golden) {
  const out = [];
  const present = new Set();
  for (const d of fs.readdirSync(golden, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    present.add(d);
    const dir = path.join(golden, d, 'delta');
    const expected = path.join(golden, d, 'expected');
    // loc: what option location names (the directory, or with --s3 its URL)
    const loc = S3 ? s3Location(d) : dir;
    if (MUST_FAIL[d]) out.push({ name: d, dir, loc, mode: 'error', ...MUST_FAIL[d] });
    else if (fs.existsSync(expected)) out.push({ name: d, dir, loc, expected, mode: 'rows', ...(ROW_SPECIAL[d] || {}) });
    else out.push({ name: d, dir, loc, mode: 'skip', skip: NO_EXPECTED[d] || 'no expected/ and not one of the README\'s must-fail tables' });
  }
  // a corpus missing what the README lists must not pass quietly
  for (const d of [...Object.keys(MUST_FAIL), ...Object.keys(ROW_SPECIAL)]) {
    if (!present.has(d)) out.push({ name: d, mode: 'missing' });
  }
  return out;
}

// ----------------------------------------------------------- PostgreSQL

const firstLine = (s) => String(s).split('\n')[0].slice(0, 300);
const ident = (s) => `"${String(s).replace(/"/g, '""')}"`;
const TEXT = { getTypeParser: () => (v) => v };

async function pgSetup() {
  const c = pgClient();
  await c.connect();
  try {
    await c.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
    await c.query(`DROP SERVER IF EXISTS ${SERVER} CASCADE`);
    await c.query(`CREATE SERVER ${SERVER} FOREIGN DATA WRAPPER parquet_fdw`);
    if (S3) {
      // as check_object_store.mjs: the endpoint in the server, the keys in the user mapping
      await c.query(`DROP SERVER IF EXISTS ${TABLE_SERVER} CASCADE`);
      await c.query(`CREATE SERVER ${TABLE_SERVER} FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', region 'us-east-1', url_style 'path')`);
      await c.query(`CREATE USER MAPPING FOR CURRENT_USER SERVER ${TABLE_SERVER} OPTIONS (key_id '${S3_KEY.id}', secret '${S3_KEY.secret}')`);
    }
  } finally {
    await c.end();
  }
}

/** The OPTIONS clause of a Delta foreign table over dir (more: further options, ", version '1'"). */
const deltaOptions = (dir, more = '') => `OPTIONS (format 'delta', location ${sqlString(dir)}${more})`;
const showErr = (e) => `${e.code ?? '(no SQLSTATE)'} ${firstLine(e.message)}${e.detail ? ` (DETAIL: ${firstLine(e.detail)})` : ''}`;

// -------------------------------------------------------------- columns

/**
 * The columns to declare: the Delta schema's names, with the types
 * create_table_sql() gives for the expected file where they agree with the
 * Delta type. Returns { cols: [{name, type}], notes: [] }.
 */
async function declaredColumns(c, fields, expectedFile) {
  const notes = [];
  let natural = new Map();
  if (c) {
    try {
      await c.query(`DROP FOREIGN TABLE IF EXISTS ${TYPES_TABLE}`);
      const ddl = (await c.query('SELECT parquet_fdw.create_table_sql($1, $2, $3) AS sql', [expectedFile, TYPES_TABLE, SERVER])).rows[0].sql;
      await c.query(ddl);
      const rows = (await c.query(`SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
        WHERE attrelid = '${TYPES_TABLE}'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`)).rows;
      await c.query(`DROP FOREIGN TABLE ${TYPES_TABLE}`);
      natural = new Map(rows.map((r) => [r.name, r.type]));
    } catch (err) {
      notes.push(`create_table_sql() on expected/ failed (${showErr(err)}): types from the Delta schema`);
    }
  }
  const cols = fields.map((f) => {
    const fromDelta = deltaPgType(f.type);
    const fromFile = natural.get(f.name);
    let type = fromFile ?? fromDelta;
    if (fromFile && fromDelta && fromFile !== fromDelta) {
      notes.push(`${f.name}: create_table_sql says ${fromFile}, Delta ${deltaTypeName(f.type)} is ${fromDelta}: declared ${fromDelta}`);
      type = fromDelta;
    }
    if (!type) throw new Error(`column ${f.name}: no PostgreSQL type for Delta ${deltaTypeName(f.type)}`);
    return { name: f.name, type };
  });
  return { cols, notes };
}

// ------------------------------------------------------------ compare

function show(v) {
  if (v === null || v === undefined) return 'NULL';
  const s = String(v);
  return s.length > 60 ? JSON.stringify(s.slice(0, 60)) + '...' : JSON.stringify(s);
}

const rowKey = (row) => JSON.stringify(row);

function countRows(rows) {
  const m = new Map();
  for (const { canon, raw } of rows) {
    const k = rowKey(canon);
    const e = m.get(k);
    if (e) e.n++;
    else m.set(k, { n: 1, canon, raw });
  }
  return m;
}

const showRow = (cols, raw) => `(${cols.map((c, j) => `${c.name}=${show(raw[j])}`).join(', ')})`;

/** Rows of a that b lacks: [{ n (how many more), canon, raw }] */
function surplus(a, b) {
  const out = [];
  for (const [k, x] of a) {
    const n = x.n - (b.get(k)?.n ?? 0);
    if (n > 0) out.push({ ...x, n });
  }
  return out;
}

/**
 * Multiset difference of canonical rows; null when equal, else a message
 * listing a few rows each way and, for the first missing row, the columns
 * in which the closest row read differs from it.
 */
function multisetDiff(cols, got, exp, label) {
  const g = countRows(got);
  const e = countRows(exp);
  const extra = surplus(g, e);
  const missing = surplus(e, g);
  if (!extra.length && !missing.length) return null;
  const few = (a) => a.slice(0, 3).map((x) => `${x.n > 1 ? `${x.n}x ` : ''}${showRow(cols, x.raw)}`).join(' ') +
    (a.length > 3 ? ` ... (${a.length} distinct)` : '');
  let closest = '';
  if (extra.length && missing.length) {
    const want = missing[0];
    const same = (x) => x.canon.filter((v, j) => v === want.canon[j]).length;
    const best = extra.reduce((a, b) => (same(b) > same(a) ? b : a));
    const diffs = cols.map((c, j) => (best.canon[j] === want.canon[j] ? null
      : `${c.name} read ${show(best.raw[j])}, expected ${show(want.raw[j])}`)).filter(Boolean);
    closest = `; closest row read differs from the first missing one in ${diffs.length} column(s): ${diffs.slice(0, 4).join('; ')}`;
  }
  return `${label}: ${got.length} rows, expected ${exp.length}` + closest +
    (extra.length ? `; not expected: ${few(extra)}` : '') +
    (missing.length ? `; missing: ${few(missing)}` : '');
}

/** The expected rows, canonical, and as shown (raw). */
function expectedRows(ref, cols, fams, fix) {
  const rows = [];
  let fixed = 0;
  const j = fix ? cols.findIndex((c) => c.name === fix.column) : -1;
  if (fix && j < 0) throw new Error(`exception for column ${fix.column}: no such column`);
  const from = fix ? canonPg(fams[j], fix.from) : null;
  const to = fix ? canonPg(fams[j], fix.to) : null;
  for (let r = 0; r < ref.rows.length; r++) {
    const canon = ref.rows[r].map((v, k) => {
      try {
        return canonDuck(fams[k], v, ref.typeObjs[k]);
      } catch (err) {
        const what = err instanceof Unrepresentable ? 'not representable in PostgreSQL' : 'cannot canonicalize';
        throw new Error(`expected row ${r + 1} column ${cols[k].name}: ${what}: ${err.message}`);
      }
    });
    const raw = ref.rows[r].map((v) => (v === null ? null : typeof v === 'object' ? v.toString() : String(v)));
    if (fix && canon[j] !== null) {
      if (canon[j] !== from) throw new Error(`the documented exception is stale: expected/ ${fix.column} is ${raw[j]}, not ${fix.from}`);
      canon[j] = to;
      raw[j] = `${fix.to} (expected/: ${fix.from})`;
      fixed++;
    }
    rows.push({ canon, raw });
  }
  if (fix && fixed === 0) throw new Error(`the documented exception is stale: no ${fix.column} value to correct in expected/`);
  return rows;
}

/** PostgreSQL's rows (text), canonical; throws on a value that does not parse as its type. */
function pgRows(rows, cols, fams) {
  return rows.map((row, r) => ({
    canon: row.map((v, k) => {
      try {
        return canonPg(fams[k], v);
      } catch (err) {
        throw new Error(`row ${r + 1} column ${cols[k].name} (${cols[k].type}): ${err.message}`);
      }
    }),
    raw: row,
  }));
}

// ---------------------------------------------------------------- cases

/** The rows of expected/*.parquet (DuckDB, plain Parquet), columns in the Delta schema's order. */
async function referenceRows(e, fields) {
  const files = fs.readdirSync(e.expected).filter((f) => f.endsWith('.parquet') && !f.startsWith('.') && !f.startsWith('_')).sort()
    .map((f) => path.join(e.expected, f));
  if (!files.length) throw new Error(`no Parquet files in ${e.expected}`);
  const src = `read_parquet([${files.map(sqlString).join(', ')}], binary_as_string = false, hive_partitioning = false, union_by_name = true)`;
  const names = (await duckQuery(`DESCRIBE SELECT * FROM ${src}`)).rows.map((r) => String(r[0]));
  const want = fields.map((f) => f.name);
  if (names.join('\u0000') !== want.join('\u0000')) {
    throw new Error(`expected/ columns (${names.join(', ')}) are not the Delta schema's (${want.join(', ')})`);
  }
  const ref = await duckQuery(`SELECT ${want.map(ident).join(', ')} FROM ${src}`);
  return { ...ref, files };
}

async function checkRows(e) {
  const state = await latestState(e.dir);
  if (!state.fields) throw new Error('the log has no schema (metaData.schemaString)');
  const ref = await referenceRows(e, state.fields);
  const extras = [e.note, e.fix && e.fix.why].filter(Boolean);

  if (referenceOnly) {
    const { cols, notes } = await declaredColumns(null, state.fields, ref.files[0]);
    const fams = cols.map((col) => pgFamily(col.type));
    const exp = expectedRows(ref, cols, fams, e.fix);
    return { ok: true, msg: `expected/ ${exp.length} rows x ${cols.length} columns (${cols.map((x) => x.type).join(', ')}), version ${state.version}${[...notes, ...extras].length ? ` [${[...notes, ...extras].join('; ')}]` : ''}` };
  }

  const c = pgClient();
  await c.connect();
  let stage = 'create_table_sql';
  try {
    // settings of the session the table is read in (SET parquet_fdw.as_of)
    for (const s of e.session || []) await c.query(s);
    const { cols, notes } = await declaredColumns(c, state.fields, ref.files[0]);
    const fams = cols.map((col) => pgFamily(col.type));
    const exp = expectedRows(ref, cols, fams, e.fix);
    const problems = [];

    stage = 'CREATE FOREIGN TABLE';
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    await c.query(`CREATE FOREIGN TABLE ${TABLE} (${cols.map((col) => `${ident(col.name)} ${col.type}`).join(', ')}) SERVER ${e.server ?? TABLE_SERVER} ${deltaOptions(e.loc, e.options)}`);

    if (e.explain) {
      stage = 'EXPLAIN';
      const plan = (await c.query(`EXPLAIN (COSTS OFF) SELECT * FROM ${TABLE}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      notes.push(e.explain.test(plan) ? `plan: ${e.explain}` : `plan without ${e.explain}`);
    }

    stage = 'SELECT *';
    const all = (await c.query({ text: `SELECT * FROM ${TABLE}`, rowMode: 'array', types: TEXT })).rows;
    const d = multisetDiff(cols, pgRows(all, cols, fams), exp, 'SELECT *');
    if (d) problems.push(d);

    // the columns in reverse order: a projection that is not the schema's
    stage = 'SELECT (columns reversed)';
    const rev = [...cols].reverse();
    const revRows = (await c.query({ text: `SELECT ${rev.map((col) => ident(col.name)).join(', ')} FROM ${TABLE}`, rowMode: 'array', types: TEXT })).rows;
    const revExp = exp.map(({ canon, raw }) => ({ canon: [...canon].reverse(), raw: [...raw].reverse() }));
    const rd = multisetDiff(rev, pgRows(revRows, rev, [...fams].reverse()), revExp, 'SELECT reversed columns');
    if (rd && !d) problems.push(rd);

    stage = 'count(*)';
    const n = (await c.query({ text: `SELECT count(*) FROM ${TABLE}`, rowMode: 'array', types: TEXT })).rows[0][0];
    if (String(n) !== String(exp.length)) problems.push(`count(*) = ${n}, expected ${exp.length}`);

    await c.query(`DROP FOREIGN TABLE ${TABLE}`);
    if (problems.length) return { ok: false, msg: problems.join('; ') };
    const why = [...notes, ...extras];
    return { ok: true, msg: `${exp.length} rows x ${cols.length} columns = expected/ (${ref.files.length} files), reversed projection, count(*); version ${state.version}${why.length ? ` [${why.join('; ')}]` : ''}` };
  } catch (err) {
    if (!err.code && !/timeout/i.test(String(err.message)) && stage === 'create_table_sql') throw err; // harness error
    const crashed = !(await alive(c));
    if (crashed && !(await waitForServer())) throw new Error('PostgreSQL did not come back after a crash');
    return { ok: false, msg: `${crashed ? 'SERVER CRASHED: ' : ''}${err.code ? 'ERROR ' : ''}at ${stage}: ${err.code ? showErr(err) : firstLine(err.message)}` };
  } finally {
    await c.end().catch(() => {});
  }
}

/** A message that reads as a sentence: starts with a letter, several words, not cut off. */
const isSentence = (m) => /^[A-Za-z"]/.test(m) && m.trim().split(/\s+/).length >= 4 && !/[:,;(]$/.test(m.trim());

/** Problems with an error the must-fail table raised (null error: it raised none). */
function refusalProblems(e, err, what) {
  if (!err) return [`${what} succeeded, expected ERROR ${e.code} (${e.why})`];
  const p = [];
  if (err.code !== e.code) p.push(`${what}: ${showErr(err)}, expected SQLSTATE ${e.code} (${e.why})`);
  else {
    if (!isSentence(err.message)) p.push(`${what}: message "${firstLine(err.message)}" is not a whole sentence`);
    if (!err.message.includes(e.loc)) p.push(`${what}: message "${firstLine(err.message)}" does not name the location ${e.loc}`);
    for (const s of e.names || []) {
      if (![err.message, err.detail].filter(Boolean).join(' ').includes(s)) p.push(`${what}: ${showErr(err)} does not name ${s}`);
    }
  }
  return p;
}

async function checkError(e) {
  if (referenceOnly) return { ok: true, msg: `expects ERROR ${e.code} (${e.why})` };
  const fields = anyFields(e.dir);
  // without a schema in the log, any column: the refusal comes first
  const cols = fields ? fields.map((f) => ({ name: f.name, type: deltaPgType(f.type) ?? 'text' })) : [{ name: 'id', type: 'integer' }];
  const c = pgClient();
  await c.connect();
  try {
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    const createErr = await errorOf(c, `CREATE FOREIGN TABLE ${TABLE} (${cols.map((col) => `${ident(col.name)} ${col.type}`).join(', ')}) SERVER ${TABLE_SERVER} ${deltaOptions(e.loc)}`);
    let problems;
    let msg;
    if (createErr) {
      // refusing at CREATE FOREIGN TABLE is as good, with the same SQLSTATE
      problems = refusalProblems(e, createErr, 'CREATE FOREIGN TABLE');
      msg = `CREATE FOREIGN TABLE: ${showErr(createErr)}`;
    } else {
      const selErr = await errorOf(c, `SELECT * FROM ${TABLE}`);
      const selAlive = await alive(c);
      const cntErr = selAlive ? await errorOf(c, `SELECT count(*) FROM ${TABLE}`) : null;
      problems = [...refusalProblems(e, selErr, 'SELECT *')];
      if (selAlive) problems.push(...refusalProblems(e, cntErr, 'SELECT count(*)'));
      msg = selErr ? `SELECT: ${showErr(selErr)}` : '';
    }
    if (!(await alive(c))) {
      if (!(await waitForServer())) throw new Error('PostgreSQL did not come back after a crash');
      return { ok: false, msg: `SERVER CRASHED or session lost (${msg || problems.join('; ')})` };
    }
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    return problems.length ? { ok: false, msg: problems.join('; ') } : { ok: true, msg: `${msg}; session still works` };
  } finally {
    await c.end().catch(() => {});
  }
}

// ------------------------------------------------------------ --s3 only

let s3 = null; // lib/s3_emulator.mjs: s3rver behind the SigV4 front
let rec = null; // lib/request_log.mjs in front of that: what PostgreSQL asked for
let scratch = null; // local copies made here (rewritten logs), removed at the end

async function startBucket() {
  const { startS3 } = await import('./lib/s3_emulator.mjs');
  const { startRequestLog } = await import('./lib/request_log.mjs');
  s3 = await startS3({ credentials: new Map([[S3_KEY.id, { secret: S3_KEY.secret }]]), buckets: [BUCKET] });
  rec = await startRequestLog(Number(new URL(s3.endpoint).port));
  // PostgreSQL reaches the bucket through the request log
  s3.endpoint = rec.endpoint;
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw_delta_s3_'));
  fs.chmodSync(scratch, 0o755);
}

async function stopBucket() {
  if (rec) await rec.close().catch(() => {});
  if (s3) await s3.stop().catch(() => {});
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  rec = s3 = scratch = null;
}

/**
 * Every file below dir put at prefix (keys exactly the relative names), then
 * the bucket's listing of prefix compared with them: null, or what differs
 * (the harness's problem, not parquet_fdw's).
 */
async function uploadTree(dir, prefix) {
  const files = filesBelow(dir);
  await s3.putDir(BUCKET, prefix, dir, files);
  const keys = (await s3.list(BUCKET, prefix)).sort();
  const want = files.map((f) => prefix + f).sort();
  if (keys.join('\n') === want.join('\n')) return null;
  const missing = want.filter((k) => !keys.includes(k));
  const extra = keys.filter((k) => !want.includes(k));
  return `${prefix}: ${files.length} files, ${keys.length} keys listed; missing ${JSON.stringify(missing.slice(0, 3))}, unexpected ${JSON.stringify(extra.slice(0, 3))}`;
}

/** Every golden table's delta/ tree at golden/<table>/: the tables whose keys came out wrong. */
async function uploadGolden(list) {
  const t0 = Date.now();
  const bad = [];
  let n = 0;
  for (const e of list) {
    if (!e.dir || !fs.existsSync(e.dir)) continue;
    const p = await uploadTree(e.dir, `golden/${e.name}/`);
    if (p) bad.push(p);
    n += filesBelow(e.dir).length;
  }
  console.log(`${STAGE}: ${n} objects put at s3://${BUCKET}/golden/<table>/ (${Date.now() - t0} ms), keys listed back equal to the file names`);
  return bad;
}

/** The commit versions of a local table's log and their commitInfo timestamps (ms). */
function commitTimes(tableDir) {
  const { commits } = listLog(tableDir);
  return [...commits.keys()].sort((a, b) => a - b).map((v) => {
    const info = fs.readFileSync(commits.get(v), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
      .find((a) => a.commitInfo)?.commitInfo;
    return { version: v, ms: info?.inCommitTimestamp ?? info?.timestamp };
  });
}

const iso = (ms) => new Date(ms).toISOString();

/** A copy of a table's log whose add/remove paths are absolute URLs below urlBase. */
function absoluteLog(srcDir, destDir, urlBase) {
  const from = path.join(srcDir, '_delta_log');
  const to = path.join(destDir, '_delta_log');
  fs.mkdirSync(to, { recursive: true, mode: 0o755 });
  let rewritten = 0;
  for (const f of fs.readdirSync(from)) {
    if (!/^\d{20}\.json$/.test(f)) continue;
    const lines = fs.readFileSync(path.join(from, f), 'utf8').split('\n').filter((l) => l.trim()).map((l) => {
      const a = JSON.parse(l);
      for (const kind of ['add', 'remove']) {
        // the logged path is a URI (escaped): the URL keeps its escapes
        if (a[kind] && !a[kind].path.includes('://')) {
          a[kind].path = `${urlBase}/${a[kind].path}`;
          rewritten++;
        }
      }
      return JSON.stringify(a);
    });
    fs.writeFileSync(path.join(to, f), lines.join('\n') + '\n');
  }
  return rewritten;
}

/** A local copy of dir (files world-readable: PostgreSQL reads it too). */
function copyTree(src, dest) {
  fs.cpSync(src, dest, { recursive: true });
  const walk = (d) => {
    fs.chmodSync(d, 0o755);
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else fs.chmodSync(path.join(d, e.name), 0o644);
    }
  };
  walk(dest);
}

/** One "s3 ..." check: res { ok, msg } printed and counted. */
function report(counts, name, res) {
  if (res.ok) counts.passed++;
  else counts.failed++;
  console.log(`${res.ok ? 'PASS' : 'FAIL'} ${name}: ${res.msg}`);
}

async function rowsCheck(counts, e) {
  if (only && !only.test(e.name)) return;
  let res;
  try {
    res = await checkRows(e);
  } catch (err) {
    res = { ok: false, msg: `harness error: ${firstLine(err.stack || err.message)}` };
  }
  report(counts, e.name, res);
}

/** The checks only a bucket has (see the head of this file). */
async function bucketChecks(golden) {
  const counts = { passed: 0, failed: 0 };
  const g = (name, ...rest) => path.join(golden, name, ...rest);
  const TT = 'time-travel-start-start20-start40';
  const ttDir = g(TT, 'delta');

  // time travel: the expected/ of the tables that stopped at versions 0 and 1
  {
    const times = commitTimes(ttDir);
    const ms = (v) => times.find((t) => t.version === v).ms;
    const v0 = { expected: g('time-travel-start', 'expected'), note: 'version 0: time-travel-start\'s expected/' };
    const v1 = { expected: g('time-travel-start-start20', 'expected'), note: 'version 1: time-travel-start-start20\'s expected/' };
    const v2 = { expected: g(TT, 'expected'), note: 'version 2 (latest)' };
    const base = { dir: ttDir, loc: s3Location(TT), mode: 'rows' };
    const asOf = (t) => [`SET parquet_fdw.as_of = '${t}'`];
    for (const [what, extra] of [
      ["version '0'", { ...v0, options: ", version '0'" }],
      ["version '1'", { ...v1, options: ", version '1'" }],
      [`timestamp '${iso(ms(1))}' (commit 1's commitInfo time)`, { ...v1, options: `, timestamp '${iso(ms(1))}'` }],
      [`as_of '${iso(ms(1))}' (commit 1's time)`, { ...v1, session: asOf(iso(ms(1))) }],
      [`as_of '${iso(ms(2) - 1)}' (1 ms before commit 2)`, { ...v1, session: asOf(iso(ms(2) - 1)) }],
      [`as_of '${iso(ms(0))}' (commit 0's time)`, { ...v0, session: asOf(iso(ms(0))) }],
      [`as_of a day after commit 2 over a table of version '0'`, { ...v2, options: ", version '0'", session: asOf(iso(ms(2) + 86400000)) }],
    ]) await rowsCheck(counts, { ...base, ...extra, name: `s3 time travel ${TT}: ${what}` });

    const name = `s3 time travel ${TT}: as_of 1 ms before commit 0 is refused`;
    if (!only || only.test(name)) {
      const c = pgClient();
      await c.connect();
      try {
        await c.query(`SET parquet_fdw.as_of = '${iso(ms(0) - 1)}'`);
        await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
        await c.query(`CREATE FOREIGN TABLE ${TABLE} (id bigint) SERVER ${TABLE_SERVER} ${deltaOptions(s3Location(TT))}`);
        const err = await errorOf(c, `SELECT * FROM ${TABLE}`);
        const p = !err ? ['SELECT succeeded']
          : err.code !== '22023' || !err.message.includes(s3Location(TT)) ? [`${showErr(err)}, expected 22023 naming ${s3Location(TT)}`] : [];
        report(counts, name, { ok: !p.length, msg: p.length ? p.join('; ') : showErr(err) });
        await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
      } finally {
        await c.end().catch(() => {});
      }
    }
  }

  // data files named by absolute URLs of the same bucket: the log alone at
  // abs/<table>/, its adds and removes naming the golden table's objects
  for (const src of ['data-reader-escaped-chars', 'snapshot-data2-deleted']) {
    const dest = path.join(scratch, 'abs', src);
    const n = absoluteLog(g(src, 'delta'), dest, s3Location(src));
    const up = await uploadTree(dest, `abs/${src}/`);
    if (up) {
      report(counts, `s3 absolute URLs ${src}`, { ok: false, msg: `harness: upload: ${up}` });
      continue;
    }
    await rowsCheck(counts, { name: `s3 absolute URLs ${src}`, dir: dest, loc: `s3://${BUCKET}/abs/${src}`, expected: g(src, 'expected'), mode: 'rows',
      note: `${n} add/remove paths rewritten to ${s3Location(src)}/<path>, the log alone at s3://${BUCKET}/abs/${src}/` });
  }

  // a version of checkpoints only: only-checkpoint-files without 2.json
  {
    const src = 'only-checkpoint-files';
    const dest = path.join(scratch, 'cponly');
    copyTree(g(src, 'delta'), dest);
    fs.rmSync(path.join(dest, '_delta_log', '00000000000000000002.json'));
    const up = await uploadTree(dest, 'cponly/');
    const e = { dir: dest, expected: g(src, 'expected'), mode: 'rows', note: `${src} without _delta_log/00000000000000000002.json (version 2: its checkpoint only)` };
    if (up) report(counts, 's3 checkpoint-only version', { ok: false, msg: `harness: upload: ${up}` });
    else await rowsCheck(counts, { ...e, name: 's3 checkpoint-only version (bucket)', loc: `s3://${BUCKET}/cponly` });
    await rowsCheck(counts, { ...e, name: 's3 checkpoint-only version (control: the same copy in a local directory)', loc: dest, server: SERVER });
  }

  // parallel plans (forced) over tables with deletion vectors, and over a version
  {
    const PARALLEL = ['SET max_parallel_workers_per_gather = 2', 'SET parallel_setup_cost = 0', 'SET parallel_tuple_cost = 0',
      'SET min_parallel_table_scan_size = 0', 'SET cpu_tuple_cost = 10'];
    for (const src of ['dv-partitioned-with-checkpoint', 'dv-with-columnmapping', 'log-replay-dv-key-cases']) {
      if (!fs.existsSync(g(src, 'expected'))) continue;
      await rowsCheck(counts, { name: `s3 parallel plan ${src}`, dir: g(src, 'delta'), loc: s3Location(src), expected: g(src, 'expected'), mode: 'rows',
        session: PARALLEL, explain: /Parallel Foreign Scan/ });
    }
    await rowsCheck(counts, { name: `s3 parallel plan ${TT}: version '1'`, dir: ttDir, loc: s3Location(TT), expected: g('time-travel-start-start20', 'expected'),
      mode: 'rows', options: ", version '1'", session: PARALLEL, explain: /Parallel Foreign Scan/ });
  }

  // location with a trailing "/"
  {
    const src = 'data-reader-escaped-chars';
    const e = { dir: g(src, 'delta'), expected: g(src, 'expected'), mode: 'rows' };
    await rowsCheck(counts, { ...e, name: `s3 location with a trailing / (${s3Location(src)}/)`, loc: `${s3Location(src)}/` });
    await rowsCheck(counts, { ...e, name: 's3 location with a trailing / (control: the local directory with one)', loc: `${e.dir}/`, server: SERVER });
  }

  // requests: _delta_log/ listed once per statement, a version read once
  const rname = `s3 requests ${TT}`;
  if (!only || only.test(rname)) {
    const prefix = `golden/${TT}/_delta_log/`;
    const c = pgClient();
    await c.connect();
    try {
      await c.query('DROP FOREIGN TABLE IF EXISTS pqfdw_delta_r1, pqfdw_delta_r0');
      await c.query(`CREATE FOREIGN TABLE pqfdw_delta_r1 (id bigint) SERVER ${TABLE_SERVER} ${deltaOptions(s3Location(TT))}`);
      await c.query(`CREATE FOREIGN TABLE pqfdw_delta_r0 (id bigint) SERVER ${TABLE_SERVER} ${deltaOptions(s3Location(TT), ", version '0'")}`);
      const run = async (sql) => {
        rec.reset();
        const rows = (await c.query({ text: sql, rowMode: 'array', types: TEXT })).rows;
        const log = [...rec.log];
        const lists = listingsOf(log, BUCKET, prefix).length;
        const allLists = log.filter((r) => r.query.get('list-type') === '2').length;
        const logGets = log.filter((r) => r.method === 'GET' && r.key.startsWith(prefix) && !r.query.has('list-type')).map((r) => r.key.slice(prefix.length));
        const logHeads = log.filter((r) => r.method === 'HEAD' && r.key.startsWith(prefix)).length;
        const dataReqs = log.filter((r) => !r.key.startsWith(prefix) && r.key);
        const data = `${dataReqs.length} (${dataReqs.filter((r) => r.method === 'HEAD').length} HEAD, ${dataReqs.filter((r) => r.method === 'GET').length} GET)`;
        const suffix = log.filter((r) => /^bytes=-/.test(r.range || '')).length;
        return { rows, lists, allLists, logGets, logHeads, data, suffix, total: log.length };
      };
      const show1 = (r) => `${r.lists} listing(s) of ${prefix} (${r.allLists} in all), log GETs [${r.logGets.join(', ')}], ` +
        `${r.logHeads} log HEADs, ${r.data} data requests, ${r.total} requests`;
      const a = await run('SELECT count(*) FROM pqfdw_delta_r1');
      const b = await run('SELECT count(*) FROM pqfdw_delta_r1');
      const suffixes = [a, b].reduce((n, r) => n + r.suffix, 0);
      const p = [];
      if (a.lists !== 1 || b.lists !== 1) p.push(`listings of ${prefix}: ${a.lists} then ${b.lists}, expected 1 per statement`);
      if (a.rows[0][0] !== b.rows[0][0]) p.push(`count(*) ${a.rows[0][0]} then ${b.rows[0][0]}`);
      report(counts, `${rname}: two statements, _delta_log/ listed once each`, { ok: !p.length, msg: `${p.join('; ')}${p.length ? ' -- ' : ''}first: ${show1(a)}; second: ${show1(b)}` });
      report(counts, `${rname}: the second statement reads no commit of the version it read before`,
        { ok: b.logGets.length === 0, msg: `second statement: log GETs [${b.logGets.join(', ')}] (first: [${a.logGets.join(', ')}]), log HEADs ${b.logHeads}` });
      const s = await run('SELECT (SELECT count(*) FROM pqfdw_delta_r1), (SELECT count(*) FROM pqfdw_delta_r1 x JOIN pqfdw_delta_r1 y USING (id))');
      report(counts, `${rname}: one statement reading the table three times lists _delta_log/ once`,
        { ok: s.lists === 1, msg: show1(s) });
      const v = await run('SELECT (SELECT count(*) FROM pqfdw_delta_r1), (SELECT count(*) FROM pqfdw_delta_r0)');
      report(counts, `${rname}: one statement reading version 0 and the latest lists _delta_log/ once`,
        { ok: v.lists === 1 && v.rows[0][0] !== v.rows[0][1], msg: `count(*) ${v.rows[0][0]} (latest), ${v.rows[0][1]} (version 0); ${show1(v)}` });
      if (suffixes) console.log(`NOTE ${rname}: ${suffixes} suffix range request(s) (bytes=-N), which s3rver mis-parses`);
      await c.query('DROP FOREIGN TABLE IF EXISTS pqfdw_delta_r1, pqfdw_delta_r0');
    } catch (err) {
      report(counts, rname, { ok: false, msg: `${err.code ? `ERROR ${showErr(err)}` : `harness error: ${firstLine(err.stack || err.message)}`}` });
    } finally {
      await c.end().catch(() => {});
    }
  }
  return counts;
}

// ------------------------------------------------------------------ main

async function main() {
  const golden = findGolden();
  if (!golden) {
    console.log(`!!!!!!!! WARNING: Delta golden tables NOT FOUND (looked at --dir, $TABLE_FORMATS_DIR and ../shared/testdata/table-formats, for delta/golden): ${STAGE} suite NOT RUN !!!!!!!!`);
    console.log(`${STAGE}: 0 passed, 0 failed`);
    return process.env.CI === 'true' ? 1 : 0;
  }
  console.log(`${STAGE}: golden tables ${golden}`);
  const list = entries(golden);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (S3) {
    try {
      await startBucket();
      const bad = await uploadGolden(list);
      for (const b of bad) console.log(`FAIL s3 upload ${b}`);
      failed += bad.length;
    } catch (err) {
      console.log(`FAIL ${STAGE}: cannot start the local S3 or upload the golden tables: ${firstLine(err.stack || err.message)}`);
      console.log(`${STAGE}: 0 passed, 1 failed`);
      await stopBucket();
      return 1;
    }
  }
  if (!referenceOnly) {
    try {
      await pgSetup();
    } catch (err) {
      console.log(`FAIL ${STAGE}: cannot set up parquet_fdw in PostgreSQL: ${firstLine(err.message)}`);
      console.log(`${STAGE}: 0 passed, ${Math.max(list.filter((e) => e.mode !== 'skip').length, 1)} failed`);
      await stopBucket();
      return 1;
    }
  }
  for (const e of list) {
    if (only && !only.test(e.name)) continue;
    if (e.mode === 'skip') {
      skipped++;
      console.log(`SKIP ${e.name}: ${e.skip}`);
      continue;
    }
    let res;
    try {
      if (e.mode === 'missing') res = { ok: false, msg: 'listed in the README but not in the corpus' };
      else if (e.mode === 'error') res = await checkError(e);
      else res = await checkRows(e);
    } catch (err) {
      res = { ok: false, msg: `harness error: ${firstLine(err.stack || err.message)}` };
    }
    if (res.ok) passed++;
    else failed++;
    console.log(`${res.ok ? 'PASS' : 'FAIL'} ${e.name}: ${res.msg}`);
  }
  if (S3) {
    const r = await bucketChecks(golden);
    passed += r.passed;
    failed += r.failed;
  }
  if (!referenceOnly) {
    const c = pgClient();
    await c.connect().then(() => c.query(`DROP SERVER IF EXISTS ${SERVER} CASCADE`)).catch(() => {});
    if (S3) await c.query(`DROP SERVER IF EXISTS ${TABLE_SERVER} CASCADE`).catch(() => {});
    await c.end().catch(() => {});
  }
  await stopBucket();
  if (skipped) console.log(`${STAGE}: ${skipped} tables skipped (SKIP lines above), not counted`);
  console.log(`${STAGE}: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
