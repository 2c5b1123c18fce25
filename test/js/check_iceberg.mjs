#!/usr/bin/env node
// Apache Iceberg tables read through parquet_fdw (OPTIONS (format 'iceberg',
// location '<table directory>', location_map '<recorded prefix> -> <local
// prefix>; ...' [, snapshot_id | ref | timestamp])), checked against two
// independent sources of truth. The tables are Impala's Iceberg test tables
// (../shared/testdata/table-formats/iceberg/impala, or $TABLE_FORMATS_DIR/
// iceberg/impala; README.md there), read in place:
//
//   impala      Impala's own expected results: the read queries of
//               iceberg/impala-expected/iceberg-*.test (lib/iceberg_impala.mjs
//               parses them as Impala's test driver does and knows which
//               table each name means) that read a corpus table as the corpus
//               holds it, translated to PostgreSQL (lib/iceberg_sql.mjs), run
//               over foreign tables, and their rows compared with the RESULTS
//               section per the TYPES section (lib/iceberg_values.mjs:
//               integers and decimals exact, FLOAT as float32, DOUBLE to 15
//               digits, strings as Impala's verifier prints them, TIMESTAMP as
//               wall-clock nanoseconds, a NULL string as 'NULL', JSON by
//               value, Impala's "<unsupported-type>" for a VARIANT value it
//               cannot show as any value); as a multiset, or in order when
//               Impala's verifier would (the query says ORDER BY, or
//               VERIFY_IS_EQUAL; rows tied on the ORDER BY columns compared as
//               a multiset);
//               VERIFY_IS_SUBSET / _SUPERSET / _NOT_IN as Impala checks them.
//               Virtual columns that are only select items (select *,
//               ICEBERG__DATA__SEQUENCE__NUMBER ...) are left out with their
//               RESULTS columns. One PASS/FAIL line per query, named
//               <file>:<line> (the line of its QUERY section). Also the rows
//               Impala's Python tests assert for a table no .test file reads
//               (PY_EXPECTATIONS below).
//   icebird     icebird (npm, a JavaScript Iceberg reader applying position
//               and equality deletes; lib/iceberg_icebird.mjs) reads every
//               table's current snapshot, every older snapshot (snapshot_id),
//               every ref (ref) and the first snapshot-log entry's time
//               (timestamp): SELECT * through parquet_fdw with the same
//               option equals icebird's rows as a multiset (canonical forms
//               per the declared PostgreSQL type, lib/canon.mjs), and
//               count(*) their number. A table without a snapshot, or a
//               snapshot whose manifests list no data file, has no rows
//               (known from the manifests; icebird refuses those). A table
//               icebird cannot read is a SKIP with its error; a column whose
//               values icebird cannot decode (VARIANT) is left out and named;
//               tables icebird reads wrongly (ICEBIRD_WRONG below, each shown
//               by Impala's results) are a SKIP, never compared with it.
//   unsupported tables whose current snapshot has files parquet_fdw does not
//               read (ORC or Avro data files): SELECT * and count(*) must fail
//               with SQLSTATE 0A000 and a message that is a sentence, and the
//               session must still work.
//
// Anything that cannot be compared is a "SKIP <name>: <reason>" line, counted
// in the skipped total, never a pass: queries over a table the .test file
// changed first (INSERT, ALTER, DELETE, ... unless Impala expected that
// statement to fail, or a ROLLBACK to the corpus's snapshot undid it),
// metadata tables, virtual columns used in expressions, row_regex results,
// Impala functions with no translation, expected errors (CATCH), ...
//
// Foreign table columns: the Iceberg schema's fields (the current schema;
// for time travel the snapshot's) by name, lowercased unless two differ only
// in case, with types from the metadata JSON (lib/iceberg_table.mjs pgTypeOf:
// boolean, integer, bigint, real, double precision, numeric(p,s), date, time,
// timestamp, timestamptz, text, uuid, bytea, arrays of primitives, jsonb for
// structs, maps, nested lists and VARIANT). location_map: each location the
// table's metadata records as its own -> the table directory, then
// /test-warehouse/iceberg_test and hdfs://localhost:20500/test-warehouse/
// iceberg_test -> the impala directory (every metadata file, manifest list,
// manifest, data and delete file recorded maps to a file that is there,
// except metadata-log entries and the ORC files the corpus left out; the
// NOTE table lines say what each table holds).
//
//   node test/js/check_iceberg.mjs [--dir TABLE_FORMATS_DIR] [--only REGEX] [--reference-only | --heap]
//
// PostgreSQL through the PG* environment variables (superuser; as
// scripts/cluster.sh exports them), sessions with TimeZone=UTC (a query's
// SET TIMEZONE is applied to its run), DateStyle=ISO, extra_float_digits=1,
// bytea_output=hex. --only REGEX: the tables (directories below impala/)
// and queries (by file:line or the SQL text) to check. --reference-only: no
// PostgreSQL: parse and translate every query, build every DDL, read every
// table with icebird, and cross-check icebird with Impala's results for the
// queries a small evaluator (lib/iceberg_eval.mjs) can run in JavaScript.
// --heap: a check of this harness, not of parquet_fdw: each query runs over
// temporary heap tables holding icebird's rows instead of foreign tables
// (the translations tried on PostgreSQL itself; no parquet_fdw needed).
// The last line is "iceberg: N passed, N failed" (the skipped count on the
// line before). Without the corpus: a NOT FOUND warning and "iceberg: 0
// passed, 0 failed", exit 1 under CI=true. Exit 0 only if nothing failed and
// something passed.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonPg, pgFamily } from './lib/canon.mjs';
import {
  currentMetadataFile, currentSchema, findIcebergCorpus, ident, impalaLocationMap, listTableDirs, locationMapOption,
  mapPath, pgColumns, readMetadata, recordedLocations, snapshotAsOfTime, snapshotById, snapshotSchema, currentSnapshot,
  icebergTypeName,
} from './lib/iceberg_table.mjs';
import { collectQueries, resultLines, splitRow, staticSkipReason, withoutVirtualItems } from './lib/iceberg_impala.mjs';
import { offsetAt, translate, Untranslatable } from './lib/iceberg_sql.mjs';
import { ANY_VALUE, canonExpected, canonPgAs, expectedAsJson } from './lib/iceberg_values.mjs';
import { canonForPg, icebirdRead, icebirdVersion, metadataForIcebird, pgInputText, typedValue } from './lib/iceberg_icebird.mjs';
import { evaluate, NotEvaluated } from './lib/iceberg_eval.mjs';
import { alive, errorOf, sessionClient, waitForServer as waitForServerOf } from './lib/pg_session.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const STAGE = 'iceberg';
const SERVER = 'pqfdw_iceberg_srv';
const TABLE = 'pqfdw_iceberg';
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
// --heap: a check of the harness, not of parquet_fdw: every foreign table of
// a query is replaced by a temporary heap table holding icebird's rows, so
// that the translations and comparisons are tried on PostgreSQL itself
const HEAP = argv.includes('--heap') && !referenceOnly;

// ------------------------------------------------------- corpus knowledge

// Tables icebird reads wrongly (icebird 0.3.1's src/read.js and utils.js),
// each shown by Impala's expected results for the same snapshot: compared
// neither with parquet_fdw nor counted as icebird-vs-Impala disagreements.
const ICEBIRD_WRONG = {
  'hadoop_catalog/ice/iceberg_v2_delete_equality_nulls':
    'icebird treats a NULL in an equality delete row as matching any value (utils.js equalityMatch skips null keys); the spec matches NULL to NULL only',
  'hadoop_catalog/ice/iceberg_v2_equality_delete_schema_evolution':
    'icebird finds a file\'s columns by the current schema\'s names when the file has no iceberg.schema key, so column 3, renamed s -> str, reads as NULL from the older files',
  'iceberg_v3/test_default_part':
    'icebird takes a column missing from a file from the current spec\'s identity partition (NULL for files written before the table was partitioned by it) instead of its initial-default',
};

// Impala's expectations that live in its Python tests rather than in a
// .test file (tests/query_test/test_iceberg.py at the corpus's commit),
// compared like a .test query: test_read_null_delete_records reads a table
// whose position delete files hold rows with a NULL file_path (which a
// reader skips: they delete nothing) and asserts 6 rows, count(*) 6, and
// the rows (1,1), (2,2) for j < 3.
const PY_EXPECTATIONS = [
  { name: 'test_iceberg.py test_read_null_delete_records: select *', rel: 'hadoop_catalog/ice/iceberg_v2_null_delete_record', sql: 'SELECT count(*) FROM (SELECT * FROM {t}) s', types: ['BIGINT'], rows: ['6'] },
  { name: 'test_iceberg.py test_read_null_delete_records: count(*)', rel: 'hadoop_catalog/ice/iceberg_v2_null_delete_record', sql: 'SELECT count(*) FROM {t}', types: ['BIGINT'], rows: ['6'] },
  { name: 'test_iceberg.py test_read_null_delete_records: j < 3', rel: 'hadoop_catalog/ice/iceberg_v2_null_delete_record', sql: 'SELECT * FROM {t} WHERE j < 3', types: ['INT', 'INT'], rows: ['1,1', '2,2'] },
];

// ----------------------------------------------------------- PostgreSQL

const firstLine = (s) => String(s).split('\n')[0].slice(0, 300);
const TEXT = { getTypeParser: () => (v) => v };
const showErr = (e) => `${e.code ?? '(no SQLSTATE)'} ${firstLine(e.message)}${e.detail ? ` (DETAIL: ${firstLine(e.detail)})` : ''}`;
const sqlString = (s) => `'${String(s).replace(/'/g, "''")}'`;

/** A connection for a batch of checks, reconnected after a crash. */
class Session {
  constructor() {
    this.c = null;
  }

  async get() {
    if (this.c && (await alive(this.c))) return this.c;
    if (this.c) {
      await this.c.end().catch(() => {});
      if (!(await waitForServer())) throw new Error('PostgreSQL did not come back after a crash');
    }
    this.c = pgClient();
    await this.c.connect();
    return this.c;
  }

  async end() {
    if (this.c) await this.c.end().catch(() => {});
    this.c = null;
  }
}

// ---------------------------------------------------------------- tables

/**
 * What the harness knows of a table directory, independently of
 * parquet_fdw: its current metadata, the location map, the recorded files
 * that are not there, the data file formats of the current snapshot.
 */
function tableInfo(impala, rel) {
  const dir = path.join(impala, rel);
  const cur = currentMetadataFile(dir);
  const m = readMetadata(cur.file);
  const { entries, locations } = recordedLocations(dir);
  const map = impalaLocationMap(dir, impala, locations);
  const missing = entries.filter((e) => !e.optional && (!mapPath(map, e.path) || !fs.existsSync(mapPath(map, e.path))));
  // the files of a snapshot (its manifest list's manifests), by content and format
  const formatsOf = (snap) => {
    const formats = new Map(); // "<content> <FORMAT>" -> files
    if (!snap) return formats;
    const listName = path.basename(snap['manifest-list'] || '');
    const manifests = new Set(entries.filter((e) => e.what === 'manifest' && e.from === listName).map((e) => path.basename(e.path)));
    for (const e of entries) {
      const kind = /^(data|position delete|equality delete) file/.exec(e.what);
      if (kind && manifests.has(e.from) && e.status !== 2) {
        const k = `${kind[1]} ${e.format}`;
        formats.set(k, (formats.get(k) || 0) + 1);
      }
    }
    return formats;
  };
  // files parquet_fdw does not read: data files not in Parquet, delete files
  // neither Parquet nor Puffin (deletion vectors)
  const unsupportedOf = (formats) => [...formats].filter(([k]) => !/^data PARQUET$|^(position|equality) delete PARQUET$|^position delete PUFFIN$/.test(k));
  const formats = formatsOf(currentSnapshot(m));
  // position delete files may name data files with the scheme and authority
  // the manifests leave out (see lib/iceberg_icebird.mjs): their spellings
  const aliases = new Map();
  for (const e of entries) if (e.what.startsWith('data file') && e.path.startsWith('/')) aliases.set(`hdfs://localhost:20500${e.path}`, e.path);
  return { rel, dir, cur, m, map, missing, formats, unsupported: unsupportedOf(formats), formatsOf, unsupportedOf, aliases, schema: currentSchema(m) };
}

/** The DDL of a foreign table over a table: { sql, cols, notes }. */
function foreignTableDdl(name, t, fields, option) {
  const cols = pgColumns(fields);
  const notes = [];
  const declared = cols.filter((c) => {
    if (c.type) return true;
    notes.push(`column ${c.field.name} (${icebergTypeName(c.field.type)}) not declared: no PostgreSQL type`);
    return false;
  });
  const opts = [`format 'iceberg'`, `location ${sqlString(option?.metadataFile ?? t.dir)}`, `location_map ${sqlString(locationMapOption(t.map))}`];
  if (option?.snapshot_id) opts.push(`snapshot_id ${sqlString(option.snapshot_id)}`);
  if (option?.ref) opts.push(`ref ${sqlString(option.ref)}`);
  if (option?.timestamp) opts.push(`timestamp ${sqlString(option.timestamp)}`);
  const sql = `CREATE FOREIGN TABLE ${name} (${declared.map((c) => `${ident(c.name)} ${c.type}`).join(', ')}) SERVER ${SERVER} OPTIONS (${opts.join(', ')})`;
  return { sql, cols: declared, notes };
}

/** The snapshot and schema a time travel option names (null option: current). */
function snapshotFor(t, option) {
  if (!option || !(option.snapshot_id || option.ref || option.timestamp)) return { snap: currentSnapshot(t.m), schema: t.schema };
  let snap;
  if (option.snapshot_id) snap = snapshotById(t.m, option.snapshot_id);
  else if (option.ref) snap = t.m.refs?.[option.ref] ? snapshotById(t.m, t.m.refs[option.ref]['snapshot-id']) : undefined;
  else if (option.timestamp) snap = snapshotAsOfTime(t.m, Date.parse(option.timestamp.replace(' ', 'T').replace(/\+00$/, 'Z')));
  return { snap, schema: snap ? snapshotSchema(t.m, snap) : t.schema };
}

// ------------------------------------------------------------- icebird

const icebirdCache = new Map();

/** icebird's rows of a table at a snapshot: { rows, fields } or { error }. */
async function icebirdRows(t, option) {
  const { snap, schema } = snapshotFor(t, option);
  const key = `${t.rel}|${snap ? String(snap['snapshot-id']) : 'none'}`;
  if (icebirdCache.has(key)) return icebirdCache.get(key);
  let res;
  if (option && (option.snapshot_id || option.ref || option.timestamp) && !snap) res = { error: 'no such snapshot in the metadata' };
  else if (!snap || ![...t.formatsOf(snap).keys()].some((k) => k.startsWith('data '))) {
    // no snapshot, or no data file in its manifests: no rows (icebird refuses to read those)
    res = { rows: [], fields: schema.fields, undecodable: new Map(), empty: true };
  } else {
    try {
      const md = metadataForIcebird(t.m, snap, schema);
      const { rows } = await icebirdRead({ metadata: md, tableUrl: t.m.location, entries: t.map, pathAliases: t.aliases });
      // typed values, per field; a field icebird cannot decode is dropped, named
      const undecodable = new Map();
      const typed = rows.map((r) => {
        const o = {};
        for (const f of schema.fields) {
          try {
            o[f.name] = typedValue(f.type, r[f.name]);
          } catch (err) {
            undecodable.set(f.name, err.message);
          }
        }
        return o;
      });
      res = { rows: typed, fields: schema.fields.filter((f) => !undecodable.has(f.name)), undecodable };
    } catch (err) {
      res = { error: firstLine(err.message) };
    }
  }
  icebirdCache.set(key, res);
  return res;
}

// ------------------------------------------------------------- comparing

const show = (v) => (v === null || v === undefined ? 'NULL' : JSON.stringify(String(v).length > 60 ? `${String(v).slice(0, 60)}...` : String(v)));
const showRow = (r) => `(${r.map(show).join(', ')})`;

function counted(rows) {
  const m = new Map();
  for (const r of rows) {
    const k = JSON.stringify(r.canon);
    const e = m.get(k);
    if (e) e.n++;
    else m.set(k, { n: 1, row: r });
  }
  return m;
}

function surplus(a, b) {
  const out = [];
  for (const [k, x] of a) {
    const n = x.n - (b.get(k)?.n ?? 0);
    if (n > 0) out.push({ ...x, n });
  }
  return out;
}

/** null when the multisets are equal, else what differs. rows: [{ canon, raw }] */
function multisetDiff(got, exp, label = 'rows') {
  const g = counted(got);
  const e = counted(exp);
  const extra = surplus(g, e);
  const missing = surplus(e, g);
  if (!extra.length && !missing.length) return null;
  const few = (a) => a.slice(0, 3).map((x) => `${x.n > 1 ? `${x.n}x ` : ''}${showRow(x.row.raw)}`).join(' ') + (a.length > 3 ? ` ... (${a.length} distinct)` : '');
  return `${label}: ${got.length} rows, expected ${exp.length}` +
    (extra.length ? `; not expected: ${few(extra)}` : '') + (missing.length ? `; missing: ${few(missing)}` : '');
}

/**
 * Rows in order: the sequences of ORDER BY key values must be equal and the
 * rows of each run of equal keys equal as multisets (keys: result column
 * indices, or null: every row in place).
 */
function orderedDiff(got, exp, keys) {
  const keyOf = (r) => JSON.stringify(keys ? keys.map((k) => r.canon[k]) : r.canon);
  for (let i = 0, j = 0; i < exp.length || j < got.length;) {
    const ke = exp[i] ? keyOf(exp[i]) : null;
    const kg = got[j] ? keyOf(got[j]) : null;
    if (ke !== kg) return `row ${Math.min(i, j) + 1} out of order: got ${got[j] ? showRow(got[j].raw) : '(none)'}, expected ${exp[i] ? showRow(exp[i].raw) : '(none)'}`;
    let i2 = i;
    let j2 = j;
    while (i2 < exp.length && keyOf(exp[i2]) === ke) i2++;
    while (j2 < got.length && keyOf(got[j2]) === kg) j2++;
    const d = multisetDiff(got.slice(j, j2), exp.slice(i, i2), `rows ${j + 1}..${j2}`);
    if (d) return d;
    i = i2;
    j = j2;
  }
  return null;
}

/**
 * Expected values that match anything (ANY_VALUE): each expected row holding
 * one takes an actual row equal to it in every other column, whose value
 * there is then ANY_VALUE too (in place, before the comparison).
 */
function applyAnyValues(got, exp) {
  const used = new Set();
  for (const e of exp) {
    const any = e.canon.map((v, j) => (v === ANY_VALUE ? j : -1)).filter((j) => j >= 0);
    if (!any.length) continue;
    const i = got.findIndex((g, gi) => !used.has(gi) && g.canon.every((v, j) => any.includes(j) || v === e.canon[j]));
    if (i < 0) continue;
    used.add(i);
    got[i] = { ...got[i], canon: got[i].canon.map((v, j) => (any.includes(j) ? ANY_VALUE : v)) };
  }
}

/** Compare actual with expected rows as Impala's verifier (verifier: the RESULTS comment). */
function verify(got, exp, { verifier, ordered, keys }) {
  applyAnyValues(got, exp);
  const v = (verifier || '').toUpperCase().replace(/\s/g, '');
  const setOf = (rows) => new Map(rows.map((r) => [JSON.stringify(r.canon), r]));
  if (v === 'VERIFY_IS_SUBSET') {
    const g = setOf(got);
    const miss = exp.filter((r) => !g.has(JSON.stringify(r.canon)));
    return miss.length ? `expected rows missing (subset check): ${miss.slice(0, 3).map((r) => showRow(r.raw)).join(' ')}` : null;
  }
  if (v === 'VERIFY_IS_SUPERSET') {
    const e = setOf(exp);
    const extra = got.filter((r) => !e.has(JSON.stringify(r.canon)));
    return extra.length ? `rows outside the expected set (superset check): ${extra.slice(0, 3).map((r) => showRow(r.raw)).join(' ')}` : null;
  }
  if (v === 'VERIFY_IS_NOT_IN') {
    const e = setOf(exp);
    const bad = got.filter((r) => e.has(JSON.stringify(r.canon)));
    return bad.length ? `banned rows returned: ${bad.slice(0, 3).map((r) => showRow(r.raw)).join(' ')}` : null;
  }
  const inOrder = v === 'VERIFY_IS_EQUAL' || (ordered && v !== 'VERIFY_IS_EQUAL_SORTED');
  const d = multisetDiff(got, exp);
  if (d || !inOrder) return d;
  return orderedDiff(got, exp, keys);
}

/** The expected rows of a query: [{ canon, raw }] per its TYPES. */
function expectedRows(q, types, jsonCols = new Set()) {
  return resultLines(q.sub.RESULTS.text).map((line, r) => {
    const vals = splitRow(line);
    if (vals.length !== types.length) throw new Error(`RESULTS row ${r + 1} has ${vals.length} values, TYPES ${types.length}`);
    const canon = vals.map((v, j) => {
      const c = canonExpected(types[j], v);
      return jsonCols.has(j) ? expectedAsJson(c) : c;
    });
    return { canon, raw: vals };
  });
}

const typesOf = (q) => q.sub.TYPES.text.split('\n').filter((l) => !l.trim().startsWith('#')).join('').split(',').map((t) => t.trim().toUpperCase()).filter(Boolean);

// ------------------------------------------------------------ the checks

const counts = { passed: 0, failed: 0, skipped: 0 };
const skipReasons = new Map();

function report(name, res) {
  if (res.skip) {
    counts.skipped++;
    const key = [
      [/^metadata table .*/, 'metadata table'],
      [/^\S+ was changed by this file before.*/, 'table changed by the .test file first'],
      [/^virtual column .*/, 'virtual column in an expression'],
      [/^also reads .*, not a corpus table$/, 'also reads a table not in the corpus'],
      [/^also reads .*, a table this file creates.*/, 'also reads a table the .test file creates'],
      [/^reads .*, with files parquet_fdw does not read.*/, 'reads a table with ORC/Avro files'],
      [/^collection reference .*/, 'collection reference in FROM'],
      [/^snapshot \S+ has .*/, 'snapshot with ORC/Avro files'],
    ].reduce((k, [re, to]) => k.replace(re, to), res.skip).replace(/ \(.*$/s, '').replace(/: .*$/s, '').slice(0, 80);
    skipReasons.set(key, (skipReasons.get(key) || 0) + 1);
    console.log(`SKIP ${name}: ${res.skip}`);
    return;
  }
  if (res.ok) counts.passed++;
  else counts.failed++;
  console.log(`${res.ok ? 'PASS' : 'FAIL'} ${name}: ${res.msg}`);
}

/**
 * The icebird checks of a table: the current snapshot, every older snapshot
 * (snapshot_id), every ref, and the oldest snapshot-log entry's time
 * (timestamp): [{ name, option }].
 */
function icebirdVariants(t) {
  const out = [{ name: `icebird ${t.rel}`, option: null }];
  // location naming the metadata file itself (the table's current one)
  out.push({ name: `icebird ${t.rel} location ${path.basename(t.cur.file)}`, option: { metadataFile: t.cur.file } });
  const cur = currentSnapshot(t.m);
  for (const sn of t.m.snapshots || []) {
    if (cur && String(sn['snapshot-id']) === String(cur['snapshot-id'])) continue;
    out.push({ name: `icebird ${t.rel} snapshot_id ${sn['snapshot-id']}`, option: { snapshot_id: String(sn['snapshot-id']) } });
  }
  for (const r of Object.keys(t.m.refs || {}).sort()) out.push({ name: `icebird ${t.rel} ref ${r}`, option: { ref: r } });
  const log = t.m['snapshot-log'] || [];
  if (log.length > 1) {
    const ts = new Date(Number(log[0]['timestamp-ms'])).toISOString().replace('T', ' ').replace('Z', '+00');
    out.push({ name: `icebird ${t.rel} timestamp ${ts}`, option: { timestamp: ts } });
  }
  return out;
}

/** One icebird check: SELECT * and count(*) through parquet_fdw vs icebird's rows at that snapshot. */
async function checkTableWithIcebird(session, t, option) {
  const { snap, schema } = snapshotFor(t, option);
  if (option && !option.metadataFile && !snap) return { skip: `the metadata has no snapshot for ${JSON.stringify(option)}` };
  const unsupported = t.unsupportedOf(t.formatsOf(snap));
  if (unsupported.length) return { skip: `snapshot ${snap ? snap['snapshot-id'] : '(none)'} has ${unsupported.map(([k]) => k).join(', ')} files (refusal checked for the current snapshot)` };
  if (ICEBIRD_WRONG[t.rel]) return { skip: `icebird reads this table wrongly: ${ICEBIRD_WRONG[t.rel]} (Impala's results check it)` };
  // a table without a snapshot, or a snapshot whose manifests list no data
  // file, has no rows (icebird refuses to read those)
  const ib = await icebirdRows(t, option);
  if (ib.error) return { skip: `icebird cannot read it: ${ib.error}` };
  const { sql, cols, notes } = foreignTableDdl(TABLE, t, schema.fields, option);
  if (ib.empty) notes.push(snap ? 'no data file in the snapshot\'s manifests: no rows' : 'no current snapshot: no rows');
  const compared = cols.filter((c) => ib.fields.some((f) => f.name === c.field.name));
  for (const [f, why] of ib.undecodable) notes.push(`column ${f} not compared: ${why}`);
  if (option && !option.metadataFile) notes.push(`snapshot ${snap['snapshot-id']}`);
  if (option?.metadataFile) notes.push(`location ${option.metadataFile}`);
  const exp = ib.rows.map((r) => {
    const canon = compared.map((c) => canonForPg(c.field.type, c.type, r[c.field.name]));
    return { canon, raw: canon };
  });
  if (referenceOnly) {
    return { ok: true, msg: `icebird ${exp.length} rows x ${compared.length} columns (${cols.map((c) => c.type).join(', ')}); DDL built${notes.length ? ` [${notes.join('; ')}]` : ''}` };
  }
  const c = await session.get();
  let stage = 'CREATE FOREIGN TABLE';
  try {
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    await c.query(sql);
    stage = 'SELECT';
    const list = compared.map((col) => ident(col.name)).join(', ') || '1';
    const res = await c.query({ text: `SELECT ${list} FROM ${TABLE}`, rowMode: 'array', types: TEXT });
    const fams = compared.map((col) => pgFamily(col.type));
    const got = res.rows.map((row) => {
      const canon = row.map((v, j) => canonPg(fams[j], v));
      return { canon, raw: row };
    });
    const problems = [];
    const d = multisetDiff(got, exp, `SELECT ${compared.length === cols.length ? '*' : 'columns'}`);
    if (d) problems.push(d);
    stage = 'count(*)';
    const n = (await c.query({ text: `SELECT count(*) FROM ${TABLE}`, rowMode: 'array', types: TEXT })).rows[0][0];
    if (String(n) !== String(exp.length)) problems.push(`count(*) = ${n}, icebird ${exp.length}`);
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    if (problems.length) return { ok: false, msg: problems.join('; ') };
    return { ok: true, msg: `${exp.length} rows x ${compared.length} columns = icebird, count(*)${notes.length ? ` [${notes.join('; ')}]` : ''}` };
  } catch (err) {
    if (!err.code && stage !== 'SELECT' && stage !== 'count(*)' && !/timeout|terminat|connection/i.test(err.message)) throw err;
    const crashed = !(await alive(c));
    return { ok: false, msg: `${crashed ? 'SERVER CRASHED: ' : ''}ERROR at ${stage}: ${showErr(err)}` };
  }
}

/** A table with data files parquet_fdw does not read must be refused with 0A000. */
async function checkUnsupported(session, t) {
  const why = `the current snapshot has ${t.unsupported.map(([k, n]) => `${n} ${k} file${n > 1 ? 's' : ''}`).join(', ')}`;
  if (referenceOnly) return { ok: true, msg: `expects ERROR 0A000 (${why})` };
  const c = await session.get();
  const { sql } = foreignTableDdl(TABLE, t, t.schema.fields, null);
  await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
  const createErr = await errorOf(c, sql);
  const problems = [];
  const judge = (err, what) => {
    if (!err) return problems.push(`${what} succeeded, expected ERROR 0A000 (${why})`);
    if (err.code !== '0A000') return problems.push(`${what}: ${showErr(err)}, expected SQLSTATE 0A000 (${why})`);
    const m = err.message.trim();
    if (!(/^[A-Za-z"]/.test(m) && m.split(/\s+/).length >= 4 && !/[:,;(]$/.test(m))) problems.push(`${what}: message "${firstLine(m)}" is not a whole sentence`);
    return null;
  };
  let msg;
  if (createErr) {
    judge(createErr, 'CREATE FOREIGN TABLE');
    msg = `CREATE FOREIGN TABLE: ${showErr(createErr)}`;
  } else {
    const e1 = await errorOf(c, `SELECT * FROM ${TABLE}`);
    const ok1 = await alive(c);
    judge(e1, 'SELECT *');
    if (ok1) judge(await errorOf(c, `SELECT count(*) FROM ${TABLE}`), 'SELECT count(*)');
    msg = e1 ? `SELECT *: ${showErr(e1)}` : '';
  }
  if (!(await alive(c))) return { ok: false, msg: `SERVER CRASHED or session lost (${msg || problems.join('; ')})` };
  await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
  return problems.length ? { ok: false, msg: problems.join('; ') } : { ok: true, msg: `${msg}; session still works` };
}

/** One Impala query: translated and run through parquet_fdw (or, --reference-only, evaluated over icebird's rows). */
async function checkQuery(session, q0, tables, nowIso) {
  // virtual columns only as select items: compared without them
  const q = withoutVirtualItems(q0);
  const dropped = q.dropped ? ` [virtual column${q.dropped.length > 1 ? 's' : ''} ${q.dropped.join(', ')} left out]` : '';
  const why = staticSkipReason(q);
  if (why) return { skip: why, stat: 'static' };
  let tr;
  try {
    tr = translate(q, (dir, option) => {
      const t = tables.get(dir);
      const { schema } = snapshotFor(t, option);
      return { columns: pgColumns(schema.fields).filter((c) => c.type) };
    }, nowIso);
  } catch (err) {
    if (err instanceof Untranslatable) return { skip: `not translated: ${err.message}`, stat: 'translate' };
    throw err;
  }
  const types = typesOf(q);
  const verifier = q.sub.RESULTS.comment;
  const ordered = tr.ordered;
  for (const x of tr.tables) {
    const t = tables.get(x.dir);
    const bad = t.unsupportedOf(t.formatsOf(snapshotFor(t, x.option).snap));
    if (bad.length) {
      return { skip: `reads ${t.rel}${x.option ? ' at another snapshot' : ''}, with files parquet_fdw does not read (${bad.map(([k]) => k).join(', ')}; the refusal is checked: "unsupported ${t.rel}")`, stat: 'unsupported' };
    }
  }

  if (referenceOnly) {
    // icebird's rows through the evaluator, against Impala's
    if (tr.tables.length !== 1) return { stat: 'translated', skip: null, refOnly: 'not evaluated: more than one table', tr };
    const x = tr.tables[0];
    const t = tables.get(x.dir);
    if (ICEBIRD_WRONG[t.rel]) return { stat: 'translated', refOnly: `icebird reads ${t.rel} wrongly (${ICEBIRD_WRONG[t.rel]})`, tr };
    const ib = await icebirdRows(t, x.option);
    if (ib.error) return { stat: 'translated', refOnly: `icebird cannot read ${t.rel}: ${ib.error}`, tr };
    let ev;
    try {
      const wallOf = (us) => wallInZone(us, tr.zone);
      ev = evaluate(q, { rows: ib.rows, fields: ib.fields }, types, wallOf);
    } catch (err) {
      if (err instanceof NotEvaluated) return { stat: 'translated', refOnly: `not evaluated: ${err.message}`, tr };
      throw err;
    }
    const exp = expectedRows(q, types, ev.jsonCols);
    const got = ev.rows.map((canon) => ({ canon, raw: canon }));
    const keys = ordered && tr.orderItems ? orderKeys(tr.orderItems, ev.labels, types.length) : null;
    const d = verify(got, exp, { verifier, ordered, keys });
    return { stat: 'translated', evaluated: true, ok: !d, msg: d ? `icebird vs Impala: ${d}` : `icebird = Impala (${exp.length} rows${ordered ? ', ordered' : ''})${dropped}`, tr };
  }

  const c = await session.get();
  let stage = 'CREATE FOREIGN TABLE';
  try {
    for (const x of tr.tables) {
      const t = tables.get(x.dir);
      const { schema } = snapshotFor(t, x.option);
      if (HEAP) {
        stage = 'heap copy of icebird\'s rows';
        const wrong = ICEBIRD_WRONG[t.rel];
        const ib = wrong ? { error: `icebird reads it wrongly (${wrong})` } : await icebirdRows(t, x.option);
        if (ib.error) return { stat: 'translated', skip: `(--heap) ${t.rel}: ${ib.error}` };
        const undecoded = [...ib.undecodable.keys()].filter((f) => q.s.some((x) => (x.t === 'id' || x.t === 'qid') && x.v.toLowerCase() === f.toLowerCase()) || q.s.some((x) => x.v === '*'));
        if (undecoded.length) return { stat: 'translated', skip: `(--heap) ${t.rel}: icebird cannot decode column ${undecoded.join(', ')}` };
        await heapCopy(c, x.pgName, foreignTableDdl(x.pgName, t, schema.fields, x.option).cols, ib);
        continue;
      }
      await c.query(`DROP FOREIGN TABLE IF EXISTS ${x.pgName}`);
      await c.query(foreignTableDdl(x.pgName, t, schema.fields, x.option).sql);
    }
    await c.query(`SET TimeZone = ${sqlString(tr.zone)}`);
    stage = 'query';
    const res = await c.query({ text: tr.sql, rowMode: 'array', types: TEXT });
    await c.query('SET TimeZone = UTC');
    if (res.fields.length !== types.length) return { stat: 'translated', ok: false, msg: `${res.fields.length} columns returned, TYPES has ${types.length} [${tr.sql}]` };
    const jsonCols = new Set(res.fields.map((f, j) => ([114, 3802].includes(f.dataTypeID) ? j : -1)).filter((j) => j >= 0));
    const exp = expectedRows(q, types, jsonCols);
    const got = res.rows.map((row) => ({ canon: row.map((v, j) => canonPgAs(types[j], v, jsonCols.has(j))), raw: row }));
    const keys = ordered && tr.orderItems ? orderKeys(tr.orderItems, res.fields.map((f) => f.name.toLowerCase()), types.length) : null;
    const d = verify(got, exp, { verifier, ordered, keys });
    for (const x of tr.tables) await c.query(HEAP ? `DROP TABLE IF EXISTS pg_temp.${x.pgName}` : `DROP FOREIGN TABLE IF EXISTS ${x.pgName}`);
    return { stat: 'translated', ok: !d, msg: d ? `${d} [${tr.sql}]` : `${exp.length} rows = Impala${ordered ? ' (ordered)' : ''}${dropped}${tr.tables.some((x) => x.option) ? ` (${tr.tables.filter((x) => x.option).map((x) => (x.option.snapshot_id ? `snapshot_id ${x.option.snapshot_id}` : `timestamp ${x.option.timestamp}`)).join(', ')})` : ''}` };
  } catch (err) {
    if (!err.code && stage !== 'query' && !/timeout|terminat|connection/i.test(err.message)) throw err;
    const crashed = !(await alive(c));
    if (!crashed) await c.query('SET TimeZone = UTC').catch(() => {});
    return { stat: 'translated', ok: false, msg: `${crashed ? 'SERVER CRASHED: ' : ''}ERROR at ${stage}: ${showErr(err)} [${tr.sql}]` };
  }
}

/** A temporary table name holding icebird's rows ib for columns cols (--heap). */
async function heapCopy(c, name, cols, ib) {
  await c.query(`DROP TABLE IF EXISTS pg_temp.${name}`);
  await c.query(`CREATE TEMPORARY TABLE ${name} (${cols.map((col) => `${ident(col.name)} ${col.type}`).join(', ')})`);
  const usable = cols.filter((col) => ib.fields.some((f) => f.name === col.field.name));
  if (!usable.length) return;
  for (let i = 0; i < ib.rows.length; i += 500) {
    const chunk = ib.rows.slice(i, i + 500);
    const params = [];
    const tuples = chunk.map((r) => `(${usable.map((col) => {
      params.push(pgInputText(col.field.type, col.type, r[col.field.name] ?? null));
      return `$${params.length}::${col.type}`;
    }).join(', ')})`);
    await c.query(`INSERT INTO ${name} (${usable.map((col) => ident(col.name)).join(', ')}) VALUES ${tuples.join(', ')}`, params);
  }
}

/** Result column indices of ORDER BY items (null: not all known). */
function orderKeys(items, labels, n) {
  const keys = [];
  for (const it of items) {
    if (it.ordinal) keys.push(it.ordinal - 1);
    else if (labels && labels.includes(it.name)) keys.push(labels.indexOf(it.name));
    else return null;
  }
  return keys.every((k) => k >= 0 && k < n) ? keys : null;
}

/** Microseconds of wall-clock time in zone of the instant us. */
function wallInZone(us, zone) {
  if (zone === 'UTC') return us;
  const ms = Number(us >= 0n ? us / 1000n : -((-us + 999n) / 1000n));
  return us + BigInt(offsetAt(zone, ms)) * 1000n;
}

// ------------------------------------------------------------------ main

async function main() {
  const corpus = findIcebergCorpus(opt('--dir'), REPO);
  if (!corpus) {
    console.log(`!!!!!!!! WARNING: Iceberg test tables NOT FOUND (looked at --dir, $TABLE_FORMATS_DIR and ../shared/testdata/table-formats, for iceberg/impala): ${STAGE} suite NOT RUN !!!!!!!!`);
    console.log(`${STAGE}: 0 passed, 0 failed`);
    return process.env.CI === 'true' ? 1 : 0;
  }
  console.log(`${STAGE}: tables ${corpus.impala}, expected results ${corpus.expected}, icebird ${await icebirdVersion()}${referenceOnly ? ' (--reference-only: no PostgreSQL)' : ''}`);
  const tables = new Map();
  for (const rel of listTableDirs(corpus.impala)) {
    try {
      tables.set(rel, tableInfo(corpus.impala, rel));
    } catch (err) {
      report(`table ${rel}`, { ok: false, msg: `harness cannot read its metadata: ${firstLine(err.message)}` });
    }
  }
  // what a reader must cope with in this corpus
  for (const t of tables.values()) {
    const hint = t.cur.hint === 'text' ? '' : ` (version-hint.text ${t.cur.hint === 'none' ? 'absent' : t.cur.hint}${fs.existsSync(path.join(t.dir, 'metadata', 'version-hint.txt')) ? ', a version-hint.txt' : ''}: the newest vN)`;
    const miss = t.missing.length ? `; ${t.missing.length} recorded files not in the corpus (${[...new Set(t.missing.map((e) => e.what))].join(', ')})` : '';
    if (!only || only.test(t.rel)) console.log(`NOTE table ${t.rel}: format v${t.m['format-version']}, ${path.basename(t.cur.file)}${hint}, location ${t.m.location}, files ${[...t.formats].map(([f, n]) => `${n} ${f}`).join(', ') || 'none (no snapshot)'}${miss}`);
  }

  const session = new Session();
  if (!referenceOnly) {
    try {
      const c = await session.get();
      if (!HEAP) await c.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
      if (!HEAP) await c.query(`DROP SERVER IF EXISTS ${SERVER} CASCADE`);
      if (!HEAP) await c.query(`CREATE SERVER ${SERVER} FOREIGN DATA WRAPPER parquet_fdw`);
    } catch (err) {
      console.log(`FAIL ${STAGE}: cannot set up parquet_fdw in PostgreSQL: ${firstLine(err.message)}`);
      console.log(`${STAGE}: 0 passed, 1 failed`);
      await session.end();
      return 1;
    }
  }

  // ---- the tables: icebird at every snapshot, and the unsupported ones
  for (const t of tables.values()) {
    if (only && !only.test(t.rel)) continue;
    if (HEAP) continue;
    const checks = t.unsupported.length ? [{ name: `unsupported ${t.rel}`, unsupported: true }] : icebirdVariants(t);
    for (const v of checks) {
      let res;
      try {
        res = v.unsupported ? await checkUnsupported(session, t) : await checkTableWithIcebird(session, t, v.option);
      } catch (err) {
        res = { ok: false, msg: `harness error: ${firstLine(err.stack || err.message)}` };
      }
      report(v.name, res);
      // one SKIP line for a table icebird cannot read at all
      if (res.skip && /reads this table wrongly|cannot read it/.test(res.skip) && !v.option) break;
    }
  }

  // ---- Impala's expectations from its Python tests
  for (const e of PY_EXPECTATIONS) {
    const t = tables.get(e.rel);
    if (!t || (only && !only.test(e.rel) && !only.test(e.name))) continue;
    if (referenceOnly || HEAP) {
      console.log(`NOTE ${e.name}: expects ${e.rows.length} row(s) (${e.rows.join('; ')}) from ${e.sql.replace('{t}', e.rel)}`);
      continue;
    }
    let res;
    try {
      const c = await session.get();
      const { sql } = foreignTableDdl(TABLE, t, t.schema.fields, null);
      await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
      await c.query(sql);
      const r = await c.query({ text: e.sql.replace('{t}', TABLE), rowMode: 'array', types: TEXT });
      const got = r.rows.map((row) => ({ canon: row.map((v, j) => canonPgAs(e.types[j], v)), raw: row }));
      const exp = e.rows.map((l) => splitRow(l)).map((vals) => ({ canon: vals.map((v, j) => canonExpected(e.types[j], v)), raw: vals }));
      const d = multisetDiff(got, exp);
      await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
      res = d ? { ok: false, msg: d } : { ok: true, msg: `${exp.length} row(s) = Impala's` };
    } catch (err) {
      res = { ok: false, msg: err.code ? `ERROR ${showErr(err)}` : `harness error: ${firstLine(err.message)}` };
    }
    report(e.name, res);
  }

  // ---- Impala's queries
  const files = fs.readdirSync(corpus.expected).filter((f) => f.endsWith('.test')).sort()
    .map((name) => ({ name, text: fs.readFileSync(path.join(corpus.expected, name), 'utf8') }));
  const { queries, counts: qc } = collectQueries(files, new Set(tables.keys()), (dir) => {
    const snap = tables.get(dir) && currentSnapshot(tables.get(dir).m);
    return snap ? String(snap['snapshot-id']) : null;
  });
  const nowIso = new Date().toISOString().replace('T', ' ').replace('Z', '+00');
  const stats = { applicable: 0, static: 0, translate: 0, unsupported: 0, translated: 0, evaluated: 0, agree: 0, disagree: 0, notEvaluated: new Map() };
  for (const q of queries) {
    const name = `${q.file}:${q.line}`;
    const dirs = q.refs.map((r) => r.res.dir || r.res.table?.dir).filter(Boolean);
    if (only && !only.test(name) && !only.test(q.sql) && !dirs.some((d) => only.test(d))) continue;
    stats.applicable++;
    let res;
    try {
      res = await checkQuery(session, q, tables, nowIso);
    } catch (err) {
      res = { ok: false, stat: 'translated', msg: `harness error: ${firstLine(err.stack || err.message)}` };
    }
    stats[res.stat] = (stats[res.stat] || 0) + 1;
    if (referenceOnly && res.stat === 'translated') {
      if (res.evaluated) {
        stats.evaluated++;
        if (res.ok) stats.agree++;
        else stats.disagree++;
        report(name, res);
      } else {
        const k = res.refOnly ? res.refOnly.replace(/: .*$/, '').replace(/ \(.*$/, '') : 'translated';
        stats.notEvaluated.set(k, (stats.notEvaluated.get(k) || 0) + 1);
        console.log(`NOTE ${name}: translated (${res.tr.sql}); ${res.refOnly}`);
      }
      continue;
    }
    report(name, res);
  }

  if (!referenceOnly && !HEAP) {
    const c = await session.get().catch(() => null);
    if (c) await c.query(`DROP SERVER IF EXISTS ${SERVER} CASCADE`).catch(() => {});
  }
  await session.end();

  console.log(`${STAGE}: ${qc.files} test files, ${qc.cases} cases, ${qc.readStatements} read queries; ${stats.applicable} read a corpus table: ` +
    `${stats.static} skipped before translation, ${stats.unsupported} over unsupported tables, ${stats.translate} not translated, ${stats.translated} translated`);
  if (referenceOnly) {
    console.log(`${STAGE}: icebird vs Impala: ${stats.evaluated} of the translated queries evaluated over icebird's rows, ${stats.agree} agree, ${stats.disagree} disagree; not evaluated: ` +
      `${[...stats.notEvaluated].map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}`);
  }
  if (counts.skipped) {
    console.log(`${STAGE}: ${counts.skipped} skipped (SKIP lines above, not counted): ${[...skipReasons].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join('; ')}`);
  }
  console.log(`${STAGE}: ${counts.passed} passed, ${counts.failed} failed`);
  return counts.failed === 0 && counts.passed > 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
