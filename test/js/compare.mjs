#!/usr/bin/env node
// Generic comparison runner: PostgreSQL (parquet_fdw) against a reference
// reader (DuckDB; arrow-rs via parquet-wasm where DuckDB cannot decode a file;
// *_expect.csv where the corpus ships them).
//
//   node compare.mjs conformance [--corpus DIR]   the parquet-testing corpus
//   node compare.mjs interop --dir DIR            generated fixtures (DIR/manifest.json)
//   node compare.mjs formulas                     test/fixtures.md formulas: PostgreSQL vs DuckDB
// Options: --only REGEX (restrict files), --reference-only (no PostgreSQL:
//   check that every reference can be read; for developing the runner),
//   --parallel (every read through a parallel plan, forced with zero
//   parallel costs: the plan must show a Parallel Foreign Scan wherever the
//   file has rows; rows are then compared in sorted order, since
//   processes return row groups in the order they take them), --s3 (every
//   file read through an s3:// URL: put into a local S3, s3rver behind the
//   SigV4-checking front of lib/s3_emulator.mjs, read through a server with
//   the endpoint and a user mapping; the references read the local file).
//
// PostgreSQL is reached through the usual PG* environment variables (as set
// by scripts/cluster.sh) as a superuser. Every file gets its own connection
// with TimeZone=UTC, DateStyle=ISO, IntervalStyle=iso_8601,
// extra_float_digits=1, bytea_output=hex; every column is fetched as text.
//
// Per file: "PASS <file> ..." / "FAIL <file>: <first difference>" /
// "SKIP <file>: <reason>" (out of scope, listed, never counted). The last line
// is "<suite>: N passed, N failed". Exit status 0 only if nothing failed and
// something passed.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arrowRsReadParquet, duckQuery, duckReadParquet, duck, sqlString } from './lib/duck.mjs';
import { canonDuck, canonPg, canonCsv, pgFamily, Unrepresentable } from './lib/canon.mjs';
import { readMetadata, fieldPgTypes } from './lib/parquet.mjs';
import { parseCsv } from './lib/csv.mjs';
import { COLUMNS, duckCreateTypesSql, pgTypesQuery } from './lib/types_table.mjs';
import { encryptedEntries, writeKeyDirs } from './lib/encrypted_corpus.mjs';
import { wkbToWkt, sameWkt } from './lib/wkb.mjs';
import { sessionClient, waitForServer as waitForServerOf } from './lib/pg_session.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');

// SQLSTATEs that count as a clean, expected ERROR for bad input.
const CLEAN_ERROR_CODES = new Set(['XX001', '0A000', '58P01']);
const SESSION_OPTIONS = '-c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=iso_8601 ' +
  '-c extra_float_digits=1 -c bytea_output=hex -c statement_timeout=300s -c client_min_messages=warning';
const pgClient = () => sessionClient(SESSION_OPTIONS, { query_timeout: 600000 });
const waitForServer = (maxMs = 60000) => waitForServerOf(pgClient, maxMs);
const TABLE = 'pqfdw_cmp';
// column types whose min/max the footers may answer (fdw/plan/upper.c)
const AGG_TYPES = new Set(['smallint', 'integer', 'bigint', 'date']);
// min/max of these from the footers are checked against PostgreSQL's own
// aggregate over the scanned rows (a subquery the footers cannot answer):
// its order is the collation's, not one computed here
const isSqlAggType = (type) => type === 'text' || /^numeric(\(.*\))?$/.test(type) || type === 'time without time zone';
// count(column) from the footers' null counts: scalar columns (a jsonb may be
// a nested field, which the footers do not count)
const isCountable = (type) => !type.endsWith('[]') && type !== 'jsonb' && /^[a-z ]+(\(.*\))?$/.test(type);

// ------------------------------------------------------------------ args

const argv = process.argv.slice(2);
const suite = argv[0];
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const flag = (name) => argv.includes(name);
const only = opt('--only') ? new RegExp(opt('--only')) : null;
const PARALLEL = flag('--parallel');
const PARALLEL_SETTINGS = ['SET max_parallel_workers_per_gather = 2', 'SET parallel_setup_cost = 0',
  'SET parallel_tuple_cost = 0', 'SET min_parallel_table_scan_size = 0',
  // per-row costs far above the footer-reading startup cost: on a file of a
  // few rows the parallel path is otherwise within add_path()'s 1% fuzz
  'SET cpu_tuple_cost = 10'];
const referenceOnly = flag('--reference-only');
const S3 = flag('--s3');

// ------------------------------------------------------- corpus knowledge

// Files of data/ with a known expected outcome other than "rows as DuckDB
// reads them". Everything else in data/ is compared with DuckDB.
const CORPUS_SPECIAL = {
  // DuckDB does not verify page CRCs, so its values are no reference here:
  // data/README.md documents these CRCs as wrong, which must be an ERROR.
  'data/datapage_v1-corrupt-checksum.parquet': { mode: 'error', why: 'page CRC mismatch (data/README.md)' },
  'data/rle-dict-uncompressed-corrupt-checksum.parquet': { mode: 'error', why: 'dictionary page CRC mismatch (data/README.md)' },
  // Data page headers claim more bytes than the chunk holds (PARQUET-816).
  // Arrow C++ and DuckDB decode it optimistically, parquet-java rejects it:
  // a clean ERROR or DuckDB's rows both pass.
  'data/nation.dict-malformed.parquet': { mode: 'error-or-rows', why: 'truncated data page (PARQUET-816)' },
  // Deprecated LZ4 codec: DuckDB cannot read it; the reference is arrow-rs,
  // and the LZ4_RAW twin (same values, verified here too) is a second check.
  'data/hadoop_lz4_compressed.parquet': { twin: 'data/lz4_raw_compressed.parquet' },
  'data/hadoop_lz4_compressed_larger.parquet': { twin: 'data/lz4_raw_compressed_larger.parquet' },
  'data/non_hadoop_lz4_compressed.parquet': { twin: 'data/lz4_raw_compressed.parquet' },
  // data/README.md: each BYTE_STREAM_SPLIT column equals its PLAIN twin.
  'data/byte_stream_split_extended.gzip.parquet': { bssPairs: true },
  // DuckDB overflows the year-290000 INT96 value (it goes through int64
  // nanoseconds); int96_from_spark.md documents the microseconds instead.
  // DuckDB cannot read a MAP without a value field; map_no_value.md documents
  // the keys. Its value-less map reads as a map of NULL values (the spec
  // allows that or a set of keys).
  'data/map_no_value.parquet': {
    referenceSql: `SELECT my_map, my_map_no_v, my_list FROM (VALUES
      (1, MAP {1: NULL::INTEGER, 2: NULL::INTEGER, 3: NULL::INTEGER}, MAP {1: NULL::INTEGER, 2: NULL::INTEGER, 3: NULL::INTEGER}, [1, 2, 3]),
      (2, MAP {4: NULL::INTEGER, 5: NULL::INTEGER, 6: NULL::INTEGER}, MAP {4: NULL::INTEGER, 5: NULL::INTEGER, 6: NULL::INTEGER}, [4, 5, 6]),
      (3, MAP {7: NULL::INTEGER, 8: NULL::INTEGER, 9: NULL::INTEGER}, MAP {7: NULL::INTEGER, 8: NULL::INTEGER, 9: NULL::INTEGER}, [7, 8, 9]))
      AS t(n, my_map, my_map_no_v, my_list) ORDER BY n`,
    referenceName: 'documented values (map_no_value.md)',
  },
  // README "Large string map": two rows whose map key is a 2^30-byte string.
  // No PostgreSQL value can hold it (text and bytea end below 1 GB, jsonb
  // strings at 256 MB), nor can DuckDB read it: a clean ERROR is required.
  'data/large_string_map.brotli.parquet': {
    mode: 'error', why: '2^30-byte map keys (README: Large string map) exceed PostgreSQL\'s value size limit',
    errorCode: '54000',
  },
  'data/int96_from_spark.parquet': {
    referenceSql: `SELECT make_timestamp(us) AS a FROM (VALUES (1, 1704141296123456), (2, 1704070800000000),
      (3, 253402225200000000), (4, 1735599600000000), (5, NULL), (6, 9089380393200000000)) AS t(n, us) ORDER BY n`,
    referenceName: 'documented values (int96_from_spark.md)',
  },
};

function findCorpus() {
  const cands = [process.env.PARQUET_TESTING_DIR, path.resolve(REPO, '..', 'shared', 'testdata', 'parquet-testing')];
  for (const c of cands) if (c && fs.existsSync(path.join(c, 'data'))) return path.resolve(c);
  return null;
}

function listParquet(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.parquet(\.encrypted)?$/.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Entries for the conformance suite: { rel, file, mode, skip?, ...special } */
function conformanceEntries(root) {
  const entries = [];
  let keyDirs = null;
  for (const file of [...listParquet(path.join(root, 'data')), ...listParquet(path.join(root, 'bad_data'))]) {
    const rel = path.relative(root, file);
    const e = { rel, file, mode: 'rows', ...(CORPUS_SPECIAL[rel] || {}) };
    if (e.twin) e.twin = path.join(root, e.twin);
    if (/\.encrypted$/.test(rel)) {
      keyDirs = keyDirs || writeKeyDirs();
      entries.push(...encryptedEntries(rel, file, keyDirs));
      continue;
    }
    if (rel.startsWith('bad_data/')) {
      e.mode = 'error-or-rows';
      e.why = 'bad_data/';
    }
    const csv = file.replace(/\.parquet$/, '_expect.csv');
    if (fs.existsSync(csv)) e.expectCsv = csv;
    entries.push(e);
  }
  return entries;
}

function interopEntries(dir) {
  const mf = path.join(dir, 'manifest.json');
  if (!fs.existsSync(mf)) throw new Error(`${mf} not found: run gen_fixtures.mjs first`);
  const manifest = JSON.parse(fs.readFileSync(mf, 'utf8'));
  return manifest.files.map((f) => ({
    rel: f.name,
    file: path.join(dir, f.name),
    mode: f.expect === 'error' ? 'error' : 'rows',
    why: f.why,
    reference: f.reference, // 'duckdb' | 'arrow-rs'
    twin: f.twin ? path.join(dir, f.twin) : undefined,
    referenceSql: f.referenceSql, // DuckDB query giving the expected rows
    referenceName: f.referenceSql ? 'DuckDB (query)' : undefined,
    errorCode: f.errorCode, // the SQLSTATE an error fixture must give
  }));
}

// ------------------------------------------------------------ reference

/** Reference rows: { names, types, rows, via } or throws. */
async function reference(e) {
  if (e.referenceSql) return { ...(await duckQuery(e.referenceSql)), via: e.referenceName };
  if (e.reference === 'arrow-rs') return { ...(await arrowRsReadParquet(e.file)), via: 'arrow-rs' };
  try {
    return { ...(await duckReadParquet(e.file)), via: 'duckdb' };
  } catch (err) {
    // DuckDB cannot decode some valid files (deprecated LZ4); arrow-rs can.
    try {
      return { ...(await arrowRsReadParquet(e.file)), via: `arrow-rs (DuckDB: ${firstLine(err.message)})` };
    } catch (err2) {
      const e2 = new Error(`no reference reader: DuckDB: ${firstLine(err.message)}; arrow-rs: ${firstLine(String(err2.message || err2))}`);
      e2.noReference = true;
      throw e2;
    }
  }
}

const firstLine = (s) => String(s).split('\n')[0].slice(0, 200);

// ----------------------------------------------------------- PostgreSQL

// --s3: the local S3, the server reaching it, and the URL each file was put at
const S3_KEY = { id: 'AKIACOMPARE0000001', secret: 'compare/Secret+Key=1' };
let s3 = null;
const s3Urls = new Map();
const SERVER = S3 ? 'pqfdw_cmp_s3' : 'parquet_srv';

async function pgSetup() {
  const c = pgClient();
  await c.connect();
  try {
    await c.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
    await c.query('CREATE SERVER IF NOT EXISTS parquet_srv FOREIGN DATA WRAPPER parquet_fdw');
    if (S3) {
      const { startS3 } = await import('./lib/s3_emulator.mjs');
      s3 = await startS3({ credentials: new Map([[S3_KEY.id, { secret: S3_KEY.secret }]]), buckets: ['corpus'] });
      await c.query(`DROP SERVER IF EXISTS ${SERVER} CASCADE`);
      await c.query(`CREATE SERVER ${SERVER} FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', url_style 'path')`);
      await c.query(`CREATE USER MAPPING FOR CURRENT_USER SERVER ${SERVER} OPTIONS (key_id '${S3_KEY.id}', secret '${S3_KEY.secret}')`);
    }
  } finally {
    await c.end();
  }
}

/** What PostgreSQL reads for file: the file, or with --s3 its URL (put on first use). */
async function pgPath(file) {
  if (!S3) return file;
  if (!s3Urls.has(file)) {
    const dir = `f${s3Urls.size}`;
    const key = `${dir}/${path.basename(file)}`;
    // a file that does not exist (bad_missing_file) is an object that does not
    if (fs.existsSync(file)) await s3.putFile('corpus', key, file);
    // external key material goes beside the object, as beside the file
    const material = path.join(path.dirname(file), `_KEY_MATERIAL_FOR_${path.basename(file)}.json`);
    if (fs.existsSync(material)) await s3.putFile('corpus', `${dir}/${path.basename(material)}`, material);
    s3Urls.set(file, `s3://corpus/${key}`);
  }
  return s3Urls.get(file);
}

/**
 * Read a file through parquet_fdw. Returns
 *   { cols: [{name, type}], rows: (string|null)[][] }  or
 *   { error: {code, message, stage}, crashed: bool }
 */
async function pgRead(file, e = {}) {
  const c = pgClient();
  await c.connect();
  let stage = 'create_table_sql';
  let cols = null;
  try {
    // encrypted files: the key directory, table options and columns of the entry
    if (e.keyDir) await c.query(`SET parquet_fdw.key_directory = '${e.keyDir}'`);
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
    const k = e.keyOptions || {};
    const ddl = (await c.query('SELECT parquet_fdw.create_table_sql($1, $2, $3, $4, $5, $6) AS sql',
      [await pgPath(file), TABLE, SERVER, k.footer_key ?? null, k.column_keys ?? null, k.aad_prefix ?? null])).rows[0].sql;
    stage = 'CREATE FOREIGN TABLE';
    await c.query(ddl);
    const colFilter = e.pgColumns ? `AND attname IN (${e.pgColumns.map((n) => `'${n}'`).join(', ')})` : '';
    cols = (await c.query(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
        WHERE attrelid = '${TABLE}'::regclass AND attnum > 0 AND NOT attisdropped ${colFilter} ORDER BY attnum`)).rows;
    stage = 'SELECT';
    const select = e.pgColumns ? cols.map((col) => `"${col.name}"`).join(', ') : '*';
    let parallel = null;
    if (PARALLEL) {
      for (const s of PARALLEL_SETTINGS) await c.query(s);
      stage = 'EXPLAIN';
      const plan = (await c.query(`EXPLAIN (COSTS OFF) SELECT ${select} FROM ${TABLE}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      const groups = /Row Groups: (\d+)/.exec(plan);
      parallel = { planned: /Parallel Foreign Scan/.test(plan), rowGroups: groups ? Number(groups[1]) : null };
      stage = 'SELECT';
    }
    const res = await c.query({ text: `SELECT ${select} FROM ${TABLE}`, rowMode: 'array', types: { getTypeParser: () => (v) => v } });
    // count(*) and min/max of integer and date columns: answered from the
    // footers where they can be (fdw/plan/upper.c), checked against the rows
    stage = 'aggregates';
    const aggCols = cols.filter((col) => AGG_TYPES.has(col.type));
    const aggSql = ['count(*)', ...aggCols.flatMap((col) => [`min("${col.name}")`, `max("${col.name}")`])].join(', ');
    const aggPlan = (await c.query(`EXPLAIN (COSTS OFF) SELECT ${aggSql} FROM ${TABLE}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const agg = (await c.query({ text: `SELECT ${aggSql} FROM ${TABLE}`, rowMode: 'array', types: { getTypeParser: () => (v) => v } })).rows[0];
    // count(column): from the null counts where the footers have them
    const countCols = cols.filter((col) => isCountable(col.type));
    let counts = null;
    if (countCols.length > 0) {
      const countSql = countCols.map((col) => `count("${col.name}")`).join(', ');
      counts = (await c.query({ text: `SELECT ${countSql} FROM ${TABLE}`, rowMode: 'array', types: { getTypeParser: () => (v) => v } })).rows[0];
    }
    const sqlAggCols = cols.filter((col) => isSqlAggType(col.type));
    let sqlAggs = null;
    if (sqlAggCols.length > 0) {
      const list = sqlAggCols.flatMap((col) => [`min("${col.name}")::text`, `max("${col.name}")::text`]).join(', ');
      const q = async (from) => (await c.query({ text: `SELECT ${list} FROM ${from}`, rowMode: 'array' })).rows[0];
      sqlAggs = { got: await q(TABLE), want: await q(`(SELECT * FROM ${TABLE} OFFSET 0) s`) };
    }
    await c.query(`DROP FOREIGN TABLE ${TABLE}`);
    return { cols, rows: res.rows, ddl, parallel, aggs: { cols: aggCols, values: agg, footers: /from the footers/.test(aggPlan), countCols, counts, sqlAggCols, sqlAggs } };
  } catch (err) {
    // A SQL error leaves the session usable; a crashed backend does not.
    let crashed = false;
    let code = err.code;
    if (!code && /timeout/i.test(String(err.message))) {
      code = '(client timeout)';
    } else {
      try { await c.query('SELECT 1'); } catch { crashed = true; }
      if (!code) code = '(connection lost)';
    }
    if (crashed && !(await waitForServer())) throw new Error('PostgreSQL did not come back after a crash');
    return { error: { code, message: firstLine(err.message), stage }, crashed, cols };
  } finally {
    await c.end().catch(() => {});
  }
}

// -------------------------------------------------------------- compare

/** Build the expected canonical rows; a value PostgreSQL cannot hold makes
 *  the whole read an expected ERROR (class 22). */
function expectedRows(ref, fams) {
  const rows = [];
  for (let r = 0; r < ref.rows.length; r++) {
    const row = ref.rows[r];
    const out = new Array(fams.length);
    for (let j = 0; j < fams.length; j++) {
      try {
        out[j] = canonDuck(fams[j], row[j], ref.typeObjs?.[j]);
      } catch (err) {
        if (err instanceof Unrepresentable) return { unrepresentable: `row ${r + 1} column ${ref.names[j]}: ${err.message}` };
        throw new Error(`row ${r + 1} column ${ref.names[j]}: ${err.message}`);
      }
    }
    rows.push(out);
  }
  return { rows };
}

function show(v) {
  if (v === null) return 'NULL';
  return v.length > 80 ? JSON.stringify(v.slice(0, 80)) + '...' : JSON.stringify(v);
}

/** Compare PostgreSQL rows (text) with expected canonical rows. null = equal. */
function diffRows(pgr, fams, expected, label) {
  if (pgr.rows.length !== expected.length) return `${label}: ${pgr.rows.length} rows, expected ${expected.length}`;
  for (let r = 0; r < expected.length; r++) {
    for (let j = 0; j < fams.length; j++) {
      let got;
      try {
        got = canonPg(fams[j], pgr.rows[r][j]);
      } catch (err) {
        return `${label}: row ${r + 1} column "${pgr.cols[j].name}" (${pgr.cols[j].type}): ${err.message}`;
      }
      if (got !== expected[r][j]) {
        return `${label}: row ${r + 1} column "${pgr.cols[j].name}" (${pgr.cols[j].type}): ` +
          `got ${show(pgr.rows[r][j])}, expected ${show(expected[r][j])}` +
          (pgr.rows[r][j] !== null && got !== pgr.rows[r][j] ? ` [canonical got ${show(got)}]` : '');
      }
    }
  }
  return null;
}

/** Compare the declared column types with the natural mapping (issues 2, 3). */
function typeMappingProblems(e, pgr) {
  let md;
  try { md = readMetadata(e.file); } catch { return []; }
  const fields = fieldPgTypes(md);
  if (fields.length !== pgr.cols.length) return [`${pgr.cols.length} columns, file has ${fields.length} top-level fields`];
  const problems = [];
  fields.forEach(({ name, type: want }, j) => {
    if (want && want !== pgr.cols[j].type) problems.push(`column "${name}": declared ${pgr.cols[j].type}, natural type is ${want}`);
  });
  return problems;
}

// ------------------------------------------------------------ geospatial

/** Each bytea column against a text column "wkt" beside it (the WKT its
 *  generator wrote): decoded WKB == WKT, numbers compared as numbers. */
function wktProblems(pgr) {
  const w = pgr.cols.findIndex((c) => c.name === 'wkt' && c.type === 'text');
  if (w < 0) return null;
  const geoCols = pgr.cols.map((c, j) => (c.type === 'bytea' ? j : -1)).filter((j) => j >= 0);
  if (!geoCols.length) return null;
  for (let r = 0; r < pgr.rows.length; r++) {
    for (const j of geoCols) {
      const v = pgr.rows[r][j];
      const want = pgr.rows[r][w];
      if (v === null || want === null) {
        if (v !== want) return `WKT: row ${r + 1} column "${pgr.cols[j].name}": ${show(v)} vs wkt ${show(want)}`;
        continue;
      }
      let got;
      try { got = wkbToWkt(Buffer.from(v.slice(2), 'hex')); } catch (err) {
        return `WKT: row ${r + 1} column "${pgr.cols[j].name}": ${err.message}`;
      }
      if (!sameWkt(got, want)) return `WKT: row ${r + 1} column "${pgr.cols[j].name}": WKB says ${show(got)}, wkt ${show(want)}`;
    }
  }
  return { checked: pgr.rows.length * geoCols.length };
}

const GEO_NAMES = ['', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection'];
const GEO_SUFFIX = { '': 0, _z: 1000, _m: 2000, _zm: 3000 };
const BBOX = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax', 'mmin', 'mmax'];

/** DuckDB's geo type name ("point_zm") as the WKB code (3001). */
function geoCode(name) {
  const m = /^([a-z]+)(_z|_m|_zm)?$/.exec(name);
  const base = m ? GEO_NAMES.indexOf(m[1]) : -1;
  if (base <= 0) throw new Error(`unknown DuckDB geometry type ${name}`);
  return base + GEO_SUFFIX[m[2] || ''];
}

/** parquet_fdw.metadata() GeospatialStatistics vs DuckDB's parquet_metadata(). */
async function geoStatsProblems(file) {
  const c = pgClient();
  await c.connect();
  let pgRows;
  try {
    pgRows = (await c.query({
      text: `SELECT row_group, column_id, ${BBOX.map((b) => 'bbox_' + b).join(', ')}, geospatial_types
               FROM parquet_fdw.metadata($1, $2) WHERE logical_type ~ '^GEO(METRY|GRAPHY)' ORDER BY 1, 2`,
      values: [await pgPath(file), SERVER], rowMode: 'array', types: { getTypeParser: () => (v) => v },
    })).rows;
  } finally {
    await c.end();
  }
  if (!pgRows.length) return null;
  const duckRows = (await duckQuery(`SELECT row_group_id, column_id, ${BBOX.map((b) => `geo_bbox.${b}`).join(', ')},
      array_to_string(geo_types, ',') FROM parquet_metadata(${sqlString(file)}) ORDER BY 1, 2`)).rows;
  const byKey = new Map(duckRows.map((r) => [`${r[0]}/${r[1]}`, r]));
  for (const p of pgRows) {
    const d = byKey.get(`${p[0]}/${p[1]}`);
    const where = `geo stats: row group ${p[0]} column ${p[1]}`;
    if (!d) return `${where}: not in DuckDB's parquet_metadata()`;
    for (let k = 0; k < 8; k++) {
      const got = p[2 + k] === null ? null : Number(p[2 + k]);
      const want = d[2 + k] === null ? null : Number(d[2 + k]);
      if (got !== want) return `${where}: bbox_${BBOX[k]} ${got}, DuckDB ${want}`;
    }
    const got = p[10] === null ? null : p[10].replace(/[{}]/g, '').split(',').filter(Boolean).map(Number).sort((a, b) => a - b).join(',');
    const want = d[10] === null ? null : String(d[10]).split(',').filter(Boolean).map(geoCode).sort((a, b) => a - b).join(',');
    if (got !== want) return `${where}: geospatial_types {${got}}, DuckDB {${want}}`;
  }
  return { checked: pgRows.length };
}

/**
 * Encrypted files with Bloom filters: an absent value must prune every row
 * group by its (decrypted) Bloom filter and read no data page; a present
 * value must keep its row group and find its row.
 */
async function bloomProbeProblems(e) {
  const c = pgClient();
  await c.connect();
  const problems = [];
  try {
    if (e.keyDir) await c.query(`SET parquet_fdw.key_directory = '${e.keyDir}'`);
    const k = e.keyOptions || {};
    const ddl = (await c.query('SELECT parquet_fdw.create_table_sql($1, $2, $3, $4, $5, $6) AS sql',
      [await pgPath(e.file), 'pqfdw_bloom', SERVER, k.footer_key ?? null, k.column_keys ?? null, k.aad_prefix ?? null])).rows[0].sql;
    await c.query('DROP FOREIGN TABLE IF EXISTS pqfdw_bloom');
    await c.query(ddl);
    for (const p of e.bloomProbes) {
      const plan = (await c.query(`EXPLAIN (ANALYZE, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM pqfdw_bloom WHERE ${p.qual}`)).rows[0]['QUERY PLAN'][0].Plan;
      const pruned = plan['Row Groups Pruned by Bloom Filter'];
      const rows = plan['Actual Rows'];
      if (p.present ? (pruned !== 0 || rows !== 1) : (pruned !== plan['Row Groups'] || rows !== 0 || plan['Data Pages Read'] !== 0)) {
        problems.push(`bloom probe ${p.qual}: ${rows} rows, ${pruned} of ${plan['Row Groups']} row groups pruned by Bloom filter, ` +
          `${plan['Data Pages Read']} data pages read (want ${p.present ? '1 row, none pruned' : '0 rows, all pruned, no page read'})`);
      }
    }
    await c.query('DROP FOREIGN TABLE pqfdw_bloom');
  } finally {
    await c.end();
  }
  return problems;
}

/** --parallel: rows in the canonical order, so that row groups read by
 *  different processes compare as a multiset. */
const rowKey = (row) => JSON.stringify(row);
const byKey = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function sortedRows(rows) {
  if (!PARALLEL) return rows;
  return rows.map((row) => [rowKey(row), row]).sort(byKey).map(([, row]) => row);
}

function sortPgRows(pgr, fams) {
  const canon = (v, j) => { try { return canonPg(fams[j], v); } catch { return v; } };
  pgr.rows = pgr.rows.map((row) => [rowKey(row.map(canon)), row]).sort(byKey).map(([, row]) => row);
}

/**
 * count(*), count(column) and min/max (integers, dates) against the rows
 * the scan read; min/max of text, numeric and time against PostgreSQL's
 * aggregate over those rows.
 */
function aggregateProblem(pgr) {
  const { cols, values, countCols, counts } = pgr.aggs;
  if (String(values[0]) !== String(pgr.rows.length)) return `count(*) = ${values[0]}, the scan read ${pgr.rows.length} rows`;
  for (let k = 0; k < (counts ? countCols.length : 0); k++) {
    const j = pgr.cols.findIndex((c) => c.name === countCols[k].name);
    const want = pgr.rows.filter((row) => row[j] !== null).length;
    if (String(counts[k]) !== String(want)) return `count("${countCols[k].name}") = ${counts[k]}, the rows have ${want} values`;
  }
  for (let k = 0; k < cols.length; k++) {
    const j = pgr.cols.findIndex((c) => c.name === cols[k].name);
    const key = cols[k].type === 'date'
      ? (v) => v // ISO dates of years 0001..9999 order as text
      : (v) => BigInt(v);
    let lo = null;
    let hi = null;
    for (const row of pgr.rows) {
      const v = row[j];
      if (v === null || (cols[k].type === 'date' && !/^\d{4}-\d\d-\d\d$/.test(v))) {
        if (v !== null) return null; // infinity or BC dates: not compared here
        continue;
      }
      if (lo === null || key(v) < key(lo)) lo = v;
      if (hi === null || key(v) > key(hi)) hi = v;
    }
    const [gotLo, gotHi] = [values[1 + 2 * k], values[2 + 2 * k]];
    if (gotLo !== lo || gotHi !== hi) {
      return `min/max("${cols[k].name}") = ${gotLo}/${gotHi}${pgr.aggs.footers ? ' (from the footers)' : ''}, the rows give ${lo}/${hi}`;
    }
  }
  const { sqlAggCols, sqlAggs } = pgr.aggs;
  for (let k = 0; k < (sqlAggs ? sqlAggCols.length : 0); k++) {
    const [gotLo, gotHi, wantLo, wantHi] = [sqlAggs.got[2 * k], sqlAggs.got[2 * k + 1], sqlAggs.want[2 * k], sqlAggs.want[2 * k + 1]];
    if (gotLo !== wantLo || gotHi !== wantHi) {
      return `min/max("${sqlAggCols[k].name}") = ${gotLo}/${gotHi}, PostgreSQL's aggregate over the scanned rows gives ${wantLo}/${wantHi}`;
    }
  }
  return null;
}

async function checkEntry(e) {
  // Reference first (it decides what PostgreSQL must do).
  let ref = null;
  let refError = null;
  if (e.mode !== 'error') {
    try { ref = await reference(e); } catch (err) { refError = err; }
  }
  if (e.mode === 'rows' && refError) return { ok: false, msg: refError.message };
  if (referenceOnly) {
    if (e.mode === 'error') return { ok: true, msg: `expects a clean ERROR (${e.why})` };
    return { ok: true, msg: ref ? `reference ${ref.via}: ${ref.rows.length} rows x ${ref.names.length} columns` : `no reference (${firstLine(refError.message)}); a clean ERROR is required` };
  }

  const pgr = await pgRead(e.file, e);
  if (pgr.error) {
    const { code, message, stage } = pgr.error;
    const desc = `${code} at ${stage}: ${message}`;
    if (pgr.crashed) return { ok: false, msg: `SERVER CRASHED (${desc})` };
    if (e.errorCode) {
      return [].concat(e.errorCode).includes(code)
        ? { ok: true, msg: `ERROR ${desc} (${e.why})` }
        : { ok: false, msg: `ERROR with SQLSTATE ${desc}, want ${e.errorCode} (${e.why})` };
    }
    if (e.mode === 'error' || e.mode === 'error-or-rows') {
      return CLEAN_ERROR_CODES.has(code)
        ? { ok: true, msg: `clean ERROR ${desc}` }
        : { ok: false, msg: `ERROR with unexpected SQLSTATE ${desc} (want one of ${[...CLEAN_ERROR_CODES].join(', ')})` };
    }
    // A value PostgreSQL cannot represent must be an ERROR (class 22).
    if (ref && pgr.cols && e.mode === 'rows') {
      const exp = expectedRows(ref, pgr.cols.map((c) => pgFamily(c.type)));
      if (exp.unrepresentable && code.startsWith('22')) return { ok: true, msg: `clean ERROR ${desc} (${exp.unrepresentable})` };
    }
    return { ok: false, msg: `ERROR ${desc}` };
  }

  if (e.mode === 'error') return { ok: false, msg: `read ${pgr.rows.length} rows, expected an ERROR (${e.why})` };
  if (!ref) return { ok: false, msg: `read ${pgr.rows.length} rows, but no reader can read this file (${firstLine(refError.message)}); expected a clean ERROR` };

  if (pgr.cols.length !== ref.names.length) {
    return { ok: false, msg: `${pgr.cols.length} columns, reference has ${ref.names.length}` };
  }
  const fams = pgr.cols.map((c) => pgFamily(c.type));
  const exp = expectedRows(ref, fams);
  if (exp.unrepresentable) {
    return { ok: false, msg: `read rows, but ${exp.unrepresentable}: expected an ERROR` };
  }
  const problems = [];
  if (PARALLEL) {
    // nothing to share out in a file without rows: its scan costs nothing
    if (!pgr.parallel.planned && pgr.parallel.rowGroups !== 0 && exp.rows.length > 0) problems.push('no Parallel Foreign Scan in the plan');
    sortPgRows(pgr, fams);
    exp.rows = sortedRows(exp.rows);
  }
  const d = diffRows(pgr, fams, exp.rows, `vs ${ref.via}`);
  if (d) problems.push(d);
  if (e.mode === 'rows' && !e.pgColumns) problems.push(...typeMappingProblems(e, pgr).map((p) => `type mapping: ${p}`));

  if (e.twin) {
    const twin = await duckReadParquet(e.twin);
    const texp = expectedRows(twin, fams);
    const td = texp.rows ? diffRows(pgr, fams, sortedRows(texp.rows), `vs twin ${path.basename(e.twin)}`) : texp.unrepresentable;
    if (td) problems.push(td);
  }
  if (e.expectCsv) {
    const csv = parseCsv(fs.readFileSync(e.expectCsv, 'utf8'));
    const body = csv.slice(1);
    const cexp = body.map((row) => row.map((v, j) => canonCsv(fams[j], v)));
    if (csv[0].length !== fams.length) problems.push(`expect.csv has ${csv[0].length} columns, table has ${fams.length}`);
    else {
      const cd = diffRows(pgr, fams, sortedRows(cexp), `vs ${path.basename(e.expectCsv)}`);
      if (cd) problems.push(cd);
    }
  }
  const aggProblem = aggregateProblem(pgr);
  if (aggProblem) problems.push(aggProblem);
  if (e.bloomProbes) problems.push(...await bloomProbeProblems(e));
  if (e.bssPairs) {
    let pairs = 0;
    pgr.cols.forEach((c, j) => {
      if (!c.name.endsWith('_byte_stream_split')) return;
      const k = pgr.cols.findIndex((x) => x.name === c.name.replace(/_byte_stream_split$/, '_plain'));
      if (k < 0) return;
      pairs++;
      const r = pgr.rows.findIndex((row) => row[j] !== row[k]);
      if (r >= 0) problems.push(`BYTE_STREAM_SPLIT twin: row ${r + 1}: ${c.name} = ${show(pgr.rows[r][j])}, ${pgr.cols[k].name} = ${show(pgr.rows[r][k])}`);
    });
    if (pairs === 0) problems.push('BYTE_STREAM_SPLIT twin: no *_plain / *_byte_stream_split column pairs found');
  }
  const wkt = wktProblems(pgr);
  if (typeof wkt === 'string') problems.push(wkt);
  // GEOMETRY/GEOGRAPHY read as bytea: only such files can have geo stats.
  const geo = !e.keyDir && pgr.cols.some((c) => c.type === 'bytea') ? await geoStatsProblems(e.file) : null;
  if (typeof geo === 'string') problems.push(geo);
  if (problems.length) return { ok: false, msg: problems.join('; ') };
  const extras = [pgr.aggs.footers && 'footer aggregates', e.twin && 'twin', e.expectCsv && 'expect.csv', e.bssPairs && 'BSS pairs',
    wkt && `WKB = wkt column (${wkt.checked} values)`, geo && `geo stats = DuckDB (${geo.checked} chunks)`].filter(Boolean);
  const validNote = (e.mode === 'error-or-rows' ? ' (file is readable; rows match)' : '') +
    (PARALLEL ? (pgr.parallel.planned ? ', parallel plan' : ', serial plan: no rows') : '');
  return { ok: true, msg: `${pgr.rows.length} rows x ${fams.length} columns = ${ref.via}${extras.length ? ' + ' + extras.join(' + ') : ''}${validNote}` };
}

async function runSuite(suite, entries) {
  // the test command's stage of the --parallel runs is <suite>_parallel,
  // of the --s3 runs <suite>_s3
  const name = `${suite}${PARALLEL ? '_parallel' : ''}${S3 ? '_s3' : ''}`;
  let passed = 0;
  let failed = 0;
  const skipped = [];
  if (!referenceOnly) {
    try {
      await pgSetup();
    } catch (err) {
      console.log(`FAIL ${name}: cannot set up parquet_fdw in PostgreSQL: ${firstLine(err.message)}`);
      const n = entries.filter((e) => !e.skip).length;
      console.log(`${name}: 0 passed, ${Math.max(n, 1)} failed`);
      return 1;
    }
  }
  for (const e of entries) {
    if (only && !only.test(e.rel)) continue;
    if (e.skip) {
      skipped.push(e);
      console.log(`SKIP ${e.rel}: ${e.skip}`);
      continue;
    }
    let res;
    try {
      res = await checkEntry(e);
    } catch (err) {
      res = { ok: false, msg: `runner error: ${firstLine(err.stack || err.message)}` };
    }
    if (res.ok) passed++;
    else failed++;
    console.log(`${res.ok ? 'PASS' : 'FAIL'} ${e.rel}: ${res.msg}`);
  }
  if (skipped.length) console.log(`${name}: ${skipped.length} files listed as out of scope (SKIP lines above), not counted`);
  if (s3) await s3.stop();
  console.log(`${name}: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

// ---------------------------------------------------- formulas self-check

/** Every PostgreSQL formula of test/fixtures.md against DuckDB's table. */
async function runFormulas() {
  for (const s of duckCreateTypesSql()) await (await duck()).run(s);
  const ref = await duckQuery('SELECT * FROM types ORDER BY id');
  const c = pgClient();
  await c.connect();
  let res;
  try {
    res = await c.query({ text: pgTypesQuery(), rowMode: 'array', types: { getTypeParser: () => (v) => v } });
  } finally {
    await c.end();
  }
  let passed = 0;
  let failed = 0;
  COLUMNS.forEach((col, j) => {
    const f = pgFamily(col.pgType);
    let bad = null;
    for (let r = 0; r < ref.rows.length && !bad; r++) {
      const want = canonDuck(f, ref.rows[r][j]);
      const got = canonPg(f, res.rows[r][j]);
      if (want !== got) bad = `row i=${r}: PostgreSQL ${show(res.rows[r][j])} (${show(got)}), DuckDB ${show(want)}`;
    }
    if (res.rows.length !== ref.rows.length) bad = `${res.rows.length} rows vs ${ref.rows.length}`;
    if (bad) failed++;
    else passed++;
    console.log(`${bad ? 'FAIL' : 'PASS'} formula ${col.name}${bad ? ': ' + bad : ''}`);
  });
  console.log(`formulas: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

// ------------------------------------------------------------------ main

async function main() {
  if (suite === 'conformance') {
    const root = opt('--corpus') ? path.resolve(opt('--corpus')) : findCorpus();
    if (!root) {
      const name = `conformance${PARALLEL ? '_parallel' : ''}${S3 ? '_s3' : ''}`;
      console.log(`!!!!!!!! WARNING: parquet-testing corpus NOT FOUND (looked at $PARQUET_TESTING_DIR and ../shared/testdata/parquet-testing): ${name} suite NOT RUN !!!!!!!!`);
      console.log(`${name}: 0 passed, 0 failed`);
      return process.env.CI === 'true' ? 1 : 0;
    }
    console.log(`conformance: corpus ${root}`);
    return runSuite('conformance', conformanceEntries(root));
  }
  if (suite === 'interop') {
    const dir = opt('--dir');
    if (!dir) throw new Error('interop needs --dir DIR');
    return runSuite('interop', interopEntries(path.resolve(dir)));
  }
  if (suite === 'formulas') return runFormulas();
  console.error('usage: compare.mjs conformance [--corpus DIR] | interop --dir DIR | formulas  [--only RE] [--reference-only]');
  return 2;
}

main().then((code) => process.exit(code), (err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
