#!/usr/bin/env node
// The delta-kernel-rs test tables (../shared/testdata/table-formats/delta/
// kernel-data, or $TABLE_FORMATS_DIR/delta/kernel-data; README.md there)
// read through parquet_fdw (OPTIONS (format 'delta', location '<dir>')),
// read in place. They have no expected/ rows: the truth is computed here, in
// JavaScript, from the tables' own files (lib/delta_kernel_truth.mjs: the log
// replayed -- checkpoints with hyparquet, adds and removes reconciled by
// (path, deletion vector id), the latest protocol and metaData -- each live
// data file read with hyparquet, its deletion vector applied (npm roaring;
// 'u' files and inline 'i'), partition values from the log typed by the
// schema, column mapping's physical names mapped to the logical ones, type
// widening applied: a narrower file value read as the table's current type).
//
// Per table, one PASS/FAIL line:
//   rows        (every table the truth can read) CREATE FOREIGN TABLE with
//               the columns of the Delta schema (types: byte/short smallint,
//               integer, long bigint, float real, double double precision,
//               decimal(p,s) numeric(p,s), string text, binary bytea, date,
//               timestamp timestamptz, timestamp_ntz timestamp); then
//                 SELECT *                    = the truth, as a multiset
//                 the columns reversed, and each column alone
//                 count(*)                    = the number of live rows
//                 SELECT * in a forced parallel plan
//                 WHERE col = v               for a few live values and the
//                                             values of rows deletion vectors
//                                             delete (int, numeric, text
//                                             columns), and IS [NOT] NULL on
//                                             partition columns
//               and parquet_fdw.create_table_sql('<dir>') must declare the
//               same column names and types (checked against the schema)
//   refused     (a table whose protocol needs a reader feature outside
//               columnMapping, deletionVectors, timestampNtz, typeWidening
//               [-preview], v2Checkpoint, vacuumProtocolCheck, e.g.
//               geospatial) SELECT * and count(*) fail with SQLSTATE 0A000
//               naming the feature (or CREATE FOREIGN TABLE does), the
//               session survives
//   void        (a column of Delta's NullType, "void", declared text) the
//               truth is NULL in every row: the reader either returns the
//               rows with NULLs (compared as above) or refuses the table with
//               a clean ERROR (a SQLSTATE, the session alive); the line says
//               which
//
// Values are compared as canonical text per PostgreSQL type (lib/canon.mjs's
// canonPg, as check_delta.mjs): integers and numeric(p,s) exact (s digits),
// real as float32 and double as float64 values, text as is, bytea as hex,
// date as days, timestamp/timestamptz as microseconds (TimeZone=UTC).
//
//   node test/js/check_delta_kernel.mjs [--dir TABLE_FORMATS_DIR] [--only REGEX] [--reference-only]
//
// PostgreSQL through the PG* environment variables (superuser; as
// scripts/cluster.sh exports them). --reference-only: no PostgreSQL, only
// the truth (for developing the harness). The last line is "delta_kernel: N
// passed, N failed". Without the tables: a NOT FOUND warning and
// "delta_kernel: 0 passed, 0 failed", exit 1 under CI=true (as
// check_delta.mjs). Exit 0 only if nothing failed and something passed.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonPg, pgFamily } from './lib/canon.mjs';
import { deltaKernelPgType, tableTruth } from './lib/delta_kernel_truth.mjs';
import { alive, errorOf, sessionClient, waitForServer as waitForServerOf } from './lib/pg_session.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const STAGE = 'delta_kernel';
const TABLE = 'pqfdw_dk';
const TYPES_TABLE = 'pqfdw_dk_types';
const SERVER = 'pqfdw_dk_srv';
const SESSION_OPTIONS = '-c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=iso_8601 ' +
  '-c extra_float_digits=1 -c bytea_output=hex -c statement_timeout=300s -c client_min_messages=warning';
const pgClient = () => sessionClient(SESSION_OPTIONS, { query_timeout: 600000 });
const waitForServer = (maxMs = 60000) => waitForServerOf(pgClient, maxMs);
const PARALLEL = ['SET max_parallel_workers_per_gather = 2', 'SET parallel_setup_cost = 0', 'SET parallel_tuple_cost = 0',
  'SET min_parallel_table_scan_size = 0', 'SET cpu_tuple_cost = 10'];

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = opt('--only') ? new RegExp(opt('--only')) : null;
const referenceOnly = argv.includes('--reference-only');

// The tables README.md lists (a corpus without one of them fails); any other
// table found below kernel-data is checked the same way.
const KNOWN = ['type-widening', 'with-short-dv', 'table-with-dv-small', 'table-without-dv-small', 'basic_partitioned',
  'partition_cm/none', 'partition_cm/name', 'partition_cm/id', 'table-with-geo', 'void-column'];

function findKernel() {
  const cands = [opt('--dir'), process.env.TABLE_FORMATS_DIR, path.resolve(REPO, '..', 'shared', 'testdata', 'table-formats')];
  for (const c of cands) if (c && fs.existsSync(path.join(c, 'delta', 'kernel-data'))) return fs.realpathSync(path.join(c, 'delta', 'kernel-data'));
  return null;
}

/** Table directories below root (those holding _delta_log), as names relative to root. */
function tablesBelow(root, rel = '', depth = 0) {
  const dir = path.join(root, rel);
  if (fs.existsSync(path.join(dir, '_delta_log'))) return [rel];
  if (depth >= 3) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .flatMap((e) => tablesBelow(root, rel ? `${rel}/${e.name}` : e.name, depth + 1));
}

// ----------------------------------------------------------- PostgreSQL

const firstLine = (s) => String(s).split('\n')[0].slice(0, 500);
const ident = (s) => `"${String(s).replace(/"/g, '""')}"`;
const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;
const TEXT = { getTypeParser: () => (v) => v };
const showErr = (e) => `${e.code ?? '(no SQLSTATE)'} ${firstLine(e.message)}${e.detail ? ` (DETAIL: ${firstLine(e.detail)})` : ''}`;

const deltaOptions = (dir) => `OPTIONS (format 'delta', location ${lit(dir)})`;
const createSql = (name, cols, dir) => `CREATE FOREIGN TABLE ${name} (${cols.map((c) => `${ident(c.name)} ${c.pg}`).join(', ')}) SERVER ${SERVER} ${deltaOptions(dir)}`;
const select = async (c, sql) => (await c.query({ text: sql, rowMode: 'array', types: TEXT })).rows;

// ------------------------------------------------------------- compare

function show(v) {
  if (v === null || v === undefined) return 'NULL';
  const s = String(v);
  return s.length > 60 ? JSON.stringify(s.slice(0, 60)) + '...' : JSON.stringify(s);
}

const showRow = (names, row) => `(${names.map((n, j) => `${n}=${show(row[j])}`).join(', ')})`;

function counted(rows) {
  const m = new Map();
  for (const r of rows) {
    const k = JSON.stringify(r.canon);
    const e = m.get(k);
    if (e) e.n++;
    else m.set(k, { n: 1, ...r });
  }
  return m;
}

/** Multiset difference: null when equal, else a message (a few rows each way). */
function multisetDiff(names, got, exp, label) {
  const g = counted(got);
  const e = counted(exp);
  const surplus = (a, b) => [...a].map(([k, x]) => ({ ...x, n: x.n - (b.get(k)?.n ?? 0) })).filter((x) => x.n > 0);
  const extra = surplus(g, e);
  const missing = surplus(e, g);
  if (!extra.length && !missing.length) return null;
  const few = (a) => a.slice(0, 4).map((x) => `${x.n > 1 ? `${x.n}x ` : ''}${showRow(names, x.raw)}`).join(' ') +
    (a.length > 4 ? ` ... (${a.length} distinct)` : '');
  return `${label}: ${got.length} rows, expected ${exp.length}` +
    (extra.length ? `; not expected: ${few(extra)}` : '') + (missing.length ? `; missing: ${few(missing)}` : '');
}

/** PostgreSQL's text rows, canonical (raw kept for messages). */
const pgRows = (rows, fams) => rows.map((row) => ({ canon: row.map((v, k) => canonPg(fams[k], v)), raw: row }));
/** Truth rows (canonical already): raw is the canonical text. */
const truthRows = (rows) => rows.map((r) => ({ canon: r, raw: r }));

// ---------------------------------------------------------------- checks

/**
 * What create_table_sql('<dir>') declares: [{ name, type }] (format_type
 * spelling), by creating the table it prints (on this script's server).
 */
async function declaredByFunction(c, dir) {
  await c.query(`DROP FOREIGN TABLE IF EXISTS ${TYPES_TABLE}`);
  const ddl = (await c.query('SELECT parquet_fdw.create_table_sql($1, $2, $3) AS sql', [dir, TYPES_TABLE, SERVER])).rows[0].sql;
  await c.query(ddl);
  const rows = (await c.query(`SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
    WHERE attrelid = '${TYPES_TABLE}'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`)).rows;
  await c.query(`DROP FOREIGN TABLE ${TYPES_TABLE}`);
  return rows;
}

/** Problems with create_table_sql's columns against the schema (void: its type noted, any accepted). */
function functionProblems(cols, declared, notes) {
  const p = [];
  const names = declared.map((d) => d.name);
  if (names.join('\u0000') !== cols.map((x) => x.name).join('\u0000')) {
    p.push(`create_table_sql declares columns (${names.join(', ')}), the schema has (${cols.map((x) => x.name).join(', ')})`);
    return p;
  }
  cols.forEach((col, j) => {
    if (col.type === 'void') notes.push(`create_table_sql declares void column ${col.name} as ${declared[j].type}`);
    else if (declared[j].type !== col.pg) p.push(`create_table_sql declares ${col.name} ${declared[j].type}, Delta ${col.type} is ${col.pg}`);
  });
  return p;
}

/** A canonical value (lib/canon.mjs form) as PostgreSQL input text for family fam. */
function pgLiteral(fam, v) {
  if (fam === 'date') return new Date(Number(v) * 86400000).toISOString().slice(0, 10);
  if (fam === 'timestamp' || fam === 'timestamptz') {
    const us = BigInt(v);
    let ms = us / 1000n;
    if (us < 0n && ms * 1000n !== us) ms -= 1n;
    const sub = String(us - ms * 1000n).padStart(3, '0');
    return new Date(Number(ms)).toISOString().replace('T', ' ').replace('Z', sub) + (fam === 'timestamptz' ? '+00' : '');
  }
  return v;
}

/** Order of two canonical non-null values of family fam (null: not ordered here). */
function order(fam, a, b) {
  if (fam === 'int' || fam === 'timestamp' || fam === 'timestamptz') return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
  if (fam === 'numeric') {
    const n = (x) => BigInt(x.replace('.', ''));
    return n(a) < n(b) ? -1 : n(a) > n(b) ? 1 : 0;
  }
  if (fam === 'float4' || fam === 'float8' || fam === 'date') {
    if ([a, b].includes('NaN')) return null;
    return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
  }
  return null;
}

/**
 * WHERE clauses worth asking, with the truth's rows for each: [{ where, rows,
 * deadValue }]. Per column: = for a few live values and for the values of
 * rows deletion vectors delete; >= and <= for the live ones (file and row
 * group statistics, the log's stats); IS [NOT] NULL on partition columns.
 */
function filterCases(cols, truth) {
  const out = [];
  const FILTERABLE = new Set(['int', 'numeric', 'text', 'float4', 'float8', 'date', 'timestamp', 'timestamptz']);
  cols.forEach((col, j) => {
    const fam = pgFamily(col.pg).fam;
    if (col.type === 'void') return;
    if (col.partition) {
      out.push({ where: `${ident(col.name)} IS NULL`, keep: (r) => r[j] === null });
      out.push({ where: `${ident(col.name)} IS NOT NULL`, keep: (r) => r[j] !== null });
    }
    if (!FILTERABLE.has(fam)) return;
    const liveVals = [...new Set(truth.rows.map((r) => r[j]).filter((v) => v !== null))];
    const deadVals = [...new Set(truth.deleted.map((r) => r[j]).filter((v) => v !== null))].filter((v) => !liveVals.includes(v));
    const live = [...new Set([...liveVals.slice(0, 2), ...liveVals.slice(-1)])];
    const cond = (op, v) => `${ident(col.name)} ${op} ${lit(pgLiteral(fam, v))}::${col.pg}`;
    for (const v of [...live, ...deadVals.slice(0, 3)]) {
      out.push({ where: cond('=', v), keep: (r) => r[j] === v, deadValue: !liveVals.includes(v) });
    }
    if (order(fam, live[0] ?? '0', live[0] ?? '0') === null) return;
    for (const v of live) {
      out.push({ where: cond('>=', v), keep: (r) => r[j] !== null && order(fam, r[j], v) >= 0 });
      out.push({ where: cond('<=', v), keep: (r) => r[j] !== null && order(fam, r[j], v) <= 0 });
    }
  });
  return out.map((f) => ({ ...f, rows: truth.rows.filter(f.keep) }));
}

async function checkRows(e, truth) {
  const cols = truth.columns.map((c) => ({ ...c, pg: deltaKernelPgType(c.type) }));
  const bad = cols.find((c) => !c.pg);
  if (bad) throw new Error(`column ${bad.name}: no PostgreSQL type for Delta ${bad.type}`);
  const fams = cols.map((col) => pgFamily(col.pg));
  const names = cols.map((col) => col.name);
  const hasVoid = cols.some((col) => col.type === 'void');
  const dvFiles = truth.files.filter((f) => f.dv);
  const what = `${truth.rows.length} rows x ${cols.length} columns (${cols.map((x) => `${x.name} ${x.pg}${x.partition ? ' partition' : ''}`).join(', ')})` +
    `, ${truth.files.length} files${dvFiles.length ? `, ${truth.deleted.length} rows deleted by ${dvFiles.map((f) => f.dv).join(', ')}` : ''}` +
    `, version ${truth.state.version}${truth.mode !== 'none' ? `, column mapping ${truth.mode}` : ''}`;
  if (referenceOnly) return { ok: true, msg: `truth: ${what}` };

  const c = pgClient();
  await c.connect();
  let stage = 'create_table_sql';
  const problems = [];
  const notes = [];
  try {
    try {
      problems.push(...functionProblems(cols, await declaredByFunction(c, e.dir), notes));
    } catch (err) {
      if (!err.code) throw err;
      if (!(await alive(c))) throw err;
      (hasVoid ? notes : problems).push(`create_table_sql('${e.name}') failed: ${showErr(err)}`);
    }

    stage = 'CREATE FOREIGN TABLE';
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    await c.query(createSql(TABLE, cols, e.dir));

    stage = 'SELECT *';
    const all = await errorOrRows(c, `SELECT * FROM ${TABLE}`);
    if (all.err) {
      if (!hasVoid) throw all.err;
      // the void column's table refused: cleanly is SQLSTATE 0A000 naming
      // the type (as for a reader feature), the session alive
      if (!(await alive(c))) throw all.err;
      const voids = cols.filter((col) => col.type === 'void');
      const clean = refusalProblems(all.err, 'SELECT *', ['void']);
      // what still reads: the other columns, count(*)
      stage = 'SELECT (columns other than void)';
      const others = [...cols.keys()].filter((j) => cols[j].type !== 'void');
      const rest = [];
      if (others.length) {
        const or = await errorOrRows(c, `SELECT ${others.map((j) => ident(names[j])).join(', ')} FROM ${TABLE}`);
        const od = or.err ? `ERROR ${showErr(or.err)}` : multisetDiff(others.map((j) => names[j]), pgRows(or.rows, others.map((j) => fams[j])),
          truthRows(truth.rows.map((r) => others.map((j) => r[j]))), 'the other columns');
        rest.push(od ? `the columns other than void: ${od}` : `the other columns (${others.map((j) => names[j]).join(', ')}) read = truth`);
      }
      const cnt = await errorOrRows(c, `SELECT count(*) FROM ${TABLE}`);
      rest.push(cnt.err ? `count(*): ERROR ${showErr(cnt.err)}` : `count(*) = ${cnt.rows[0][0]} (truth ${truth.rows.length})`);
      const verdict = clean.length
        ? `void column ${voids.map((v) => v.name).join(', ')}: REFUSED, but not cleanly (truth: NULL in all ${truth.rows.length} rows; a clean refusal is 0A000 naming the type): ${clean.join('; ')}`
        : `void column ${voids.map((v) => v.name).join(', ')}: REFUSED cleanly: ${showErr(all.err)}`;
      return { ok: !clean.length && !problems.length, msg: `${verdict}; ${[...rest, ...problems].join('; ')}; session still works${notes.length ? ` [${notes.join('; ')}]` : ''}` };
    }
    const d = multisetDiff(names, pgRows(all.rows, fams), truthRows(truth.rows), 'SELECT *');
    if (d) problems.push(d);

    if (cols.length > 1) {
      stage = 'SELECT (columns reversed)';
      const rev = [...cols.keys()].reverse();
      const rr = await select(c, `SELECT ${rev.map((j) => ident(names[j])).join(', ')} FROM ${TABLE}`);
      const rd = multisetDiff(rev.map((j) => names[j]), pgRows(rr, rev.map((j) => fams[j])),
        truthRows(truth.rows.map((r) => rev.map((j) => r[j]))), 'SELECT reversed columns');
      if (rd && !d) problems.push(rd);
      for (let j = 0; j < cols.length; j++) {
        stage = `SELECT ${names[j]}`;
        const one = await select(c, `SELECT ${ident(names[j])} FROM ${TABLE}`);
        const od = multisetDiff([names[j]], pgRows(one, [fams[j]]), truthRows(truth.rows.map((r) => [r[j]])), `SELECT ${names[j]}`);
        if (od && !d) problems.push(od);
      }
    }

    stage = 'count(*)';
    const n = (await select(c, `SELECT count(*) FROM ${TABLE}`))[0][0];
    if (String(n) !== String(truth.rows.length)) problems.push(`count(*) = ${n}, expected ${truth.rows.length}`);

    stage = 'WHERE';
    const filters = filterCases(cols, truth);
    for (const f of filters) {
      const fr = await select(c, `SELECT * FROM ${TABLE} WHERE ${f.where}`);
      const fd = multisetDiff(names, pgRows(fr, fams), truthRows(f.rows), `WHERE ${f.where}${f.deadValue ? ' (a deleted row\'s value)' : ''}`);
      if (fd) problems.push(fd);
    }

    stage = 'SELECT * (forced parallel plan)';
    {
      const p = pgClient();
      await p.connect();
      try {
        for (const s of PARALLEL) await p.query(s);
        const plan = (await p.query(`EXPLAIN (COSTS OFF) SELECT * FROM ${TABLE}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
        const pr = await select(p, `SELECT * FROM ${TABLE}`);
        const pd = multisetDiff(names, pgRows(pr, fams), truthRows(truth.rows), 'SELECT * (forced parallel plan)');
        if (pd) problems.push(pd);
        notes.push(/Parallel/.test(plan) ? 'parallel plan' : 'no parallel plan chosen');
      } finally {
        await p.end().catch(() => {});
      }
    }

    await c.query(`DROP FOREIGN TABLE ${TABLE}`);
    if (problems.length) return { ok: false, msg: `${problems.join('; ')} [truth: ${what}]` };
    return {
      ok: true,
      msg: `${what}: SELECT * = truth, reversed and single-column projections, count(*), ${filters.length} WHERE queries, ` +
        `forced parallel; create_table_sql types = schema${hasVoid ? `; void column: READ, NULL in every row` : ''}` +
        `${notes.length ? ` [${notes.join('; ')}]` : ''}`,
    };
  } catch (err) {
    if (!err.code && !/timeout/i.test(String(err.message)) && !/Connection terminated/i.test(String(err.message))) throw err;
    const crashed = !(await alive(c));
    if (crashed && !(await waitForServer())) throw new Error('PostgreSQL did not come back after a crash');
    return { ok: false, msg: `${crashed ? 'SERVER CRASHED: ' : ''}${err.code ? 'ERROR ' : ''}at ${stage}: ${err.code ? showErr(err) : firstLine(err.message)}${problems.length ? `; ${problems.join('; ')}` : ''}` };
  } finally {
    await c.end().catch(() => {});
  }
}

async function errorOrRows(c, sql) {
  try {
    return { rows: await select(c, sql) };
  } catch (err) {
    if (!err.code) throw err;
    return { err };
  }
}

/** A whole sentence: starts with a letter, several words, not cut off. */
const isSentence = (m) => /^[A-Za-z"]/.test(m) && m.trim().split(/\s+/).length >= 4 && !/[:,;(]$/.test(m.trim());

function refusalProblems(err, what, features) {
  if (!err) return [`${what} succeeded, expected ERROR 0A000 naming ${features.join(', ')}`];
  const p = [];
  const text = [err.message, err.detail, err.hint].filter(Boolean).join(' ');
  if (err.code !== '0A000') p.push(`${what}: ${showErr(err)}, expected SQLSTATE 0A000`);
  if (!isSentence(err.message)) p.push(`${what}: message "${firstLine(err.message)}" is not a whole sentence`);
  for (const f of features) if (!text.includes(f)) p.push(`${what}: ${showErr(err)} does not name ${f}`);
  return p;
}

async function checkRefused(e, truth) {
  const features = truth.unsupported;
  if (referenceOnly) return { ok: true, msg: `truth: must be refused (reader features ${features.join(', ')})` };
  const cols = truth.columns.map((col) => ({ ...col, pg: deltaKernelPgType(col.type) ?? 'text' }));
  const c = pgClient();
  await c.connect();
  try {
    const notes = [];
    const fnErr = await errorOf(c, `SELECT parquet_fdw.create_table_sql(${lit(e.dir)}, '${TYPES_TABLE}', '${SERVER}')`);
    notes.push(fnErr ? `create_table_sql: ${showErr(fnErr)}` : 'create_table_sql succeeded');
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    const createErr = await errorOf(c, createSql(TABLE, cols, e.dir));
    let problems;
    let msg;
    if (createErr) {
      problems = refusalProblems(createErr, 'CREATE FOREIGN TABLE', features);
      msg = `CREATE FOREIGN TABLE: ${showErr(createErr)}`;
    } else {
      const selErr = await errorOf(c, `SELECT * FROM ${TABLE}`);
      const selAlive = await alive(c);
      const cntErr = selAlive ? await errorOf(c, `SELECT count(*) FROM ${TABLE}`) : null;
      problems = refusalProblems(selErr, 'SELECT *', features);
      if (selAlive) problems.push(...refusalProblems(cntErr, 'SELECT count(*)', features));
      msg = selErr ? `SELECT *: ${showErr(selErr)}` : '';
    }
    if (!(await alive(c))) {
      if (!(await waitForServer())) throw new Error('PostgreSQL did not come back after a crash');
      return { ok: false, msg: `SERVER CRASHED or session lost (${msg || problems.join('; ')})` };
    }
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    return problems.length ? { ok: false, msg: problems.join('; ') }
      : { ok: true, msg: `refused (reader feature ${features.join(', ')}): ${msg}; session still works [${notes.join('; ')}]` };
  } finally {
    await c.end().catch(() => {});
  }
}

// ------------------------------------------------------------------ main

async function main() {
  const root = findKernel();
  if (!root) {
    console.log(`!!!!!!!! WARNING: Delta kernel test tables NOT FOUND (looked at --dir, $TABLE_FORMATS_DIR and ../shared/testdata/table-formats, for delta/kernel-data): ${STAGE} suite NOT RUN !!!!!!!!`);
    console.log(`${STAGE}: 0 passed, 0 failed`);
    return process.env.CI === 'true' ? 1 : 0;
  }
  console.log(`${STAGE}: kernel test tables ${root}`);
  const found = tablesBelow(root).sort();
  const names = [...new Set([...KNOWN, ...found])];
  if (!referenceOnly) {
    try {
      const c = pgClient();
      await c.connect();
      await c.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
      await c.query(`DROP SERVER IF EXISTS ${SERVER} CASCADE`);
      await c.query(`CREATE SERVER ${SERVER} FOREIGN DATA WRAPPER parquet_fdw`);
      await c.end();
    } catch (err) {
      console.log(`FAIL ${STAGE}: cannot set up parquet_fdw in PostgreSQL: ${firstLine(err.message)}`);
      console.log(`${STAGE}: 0 passed, ${names.length} failed`);
      return 1;
    }
  }
  let passed = 0;
  let failed = 0;
  for (const name of names) {
    if (only && !only.test(name)) continue;
    const e = { name, dir: path.join(root, name) };
    let res;
    try {
      if (!found.includes(name)) {
        res = { ok: false, msg: 'listed in the README but not in the corpus (no _delta_log)' };
      } else {
        const truth = await tableTruth(e.dir);
        res = truth.unsupported.length ? await checkRefused(e, truth) : await checkRows(e, truth);
      }
    } catch (err) {
      res = { ok: false, msg: `harness error: ${firstLine(err.stack || err.message)}` };
    }
    if (res.ok) passed++;
    else failed++;
    console.log(`${res.ok ? 'PASS' : 'FAIL'} ${name}: ${res.msg}`);
  }
  if (!referenceOnly) {
    const c = pgClient();
    await c.connect().then(() => c.query(`DROP SERVER IF EXISTS ${SERVER} CASCADE`)).catch(() => {});
    await c.end().catch(() => {});
  }
  console.log(`${STAGE}: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
