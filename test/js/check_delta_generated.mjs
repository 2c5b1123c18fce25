#!/usr/bin/env node
// A generated Delta Lake table read through parquet_fdw (format 'delta'),
// checked against the same rows kept in a heap table: a differential test
// whose truth is computed in SQL.
//
// The table (in its own temporary directory under /tmp, removed at the end;
// nothing of the C side writes it): ~200k rows of mixed types (bigint,
// integer, low-cardinality text, numeric(12,2), date, timestamptz with
// microseconds, boolean, a nullable integer, all NULL in one file) in a
// heap table, written by COPY TO (FORMAT parquet, row_group_size 2000) as 20
// Parquet files, hive-partitioned on `part` (8 values: one with a space, so
// add.path is percent-encoded, and NULL, __HIVE_DEFAULT_PARTITION__), the
// partition column left out of the files as Spark does. The log is written
// here, by PROTOCOL.md:
//
//   v0  protocol (reader 3 / writer 7, deletionVectors), metaData (Spark
//       schemaString, partitionColumns ["part"]), one add per file with
//       partitionValues, size, modificationTime and stats (numRecords,
//       minValues, maxValues, nullCount, computed here from the rows;
//       timestamps truncated to milliseconds as Spark does)
//   v1  removes two files, adds one of 70,000 rows (two roaring containers)
//   v2  deletion vectors on ~1/3 of the files (remove + add with
//       deletionVector): ~1% of rows at random positions, plus runs across
//       row-group boundaries, a whole row group, the 2^16 container boundary,
//       first and last rows, and the rows holding the table's extremes
//       (min/max the footers would give); one inline ('i'), the others in
//       two deletion_vector_<uuid>.bin files ('u', several at different
//       offsets in one file, one file under a random prefix directory)
//   v3  more rows deleted from two files that already have a DV: a 'u' one
//       (now a bitset container) and the inline one (remove(path, old dv) +
//       add(path, new dv)); every row of another file deleted by a DV
//
// The heap keeps each row's (file, position): its order in the COPY's
// ORDER BY id. The truth of version v is the rows of the files live at v
// less the positions deleted at v (tables truth_v0..truth_v3).
//
// For versions 0..3 (OPTIONS version 'N') and the latest (no option), each
// serial (max_parallel_workers_per_gather 0) and parallel (forced: zero
// parallel costs, as compare.mjs --parallel), the foreign table and the
// truth give the same: SELECT * (as multisets), count(*), footer-answerable
// aggregates (no WHERE, and a partition-only WHERE), aggregates GROUP BY
// part, filters on id ranges, part, text, timestamps and NULLs, ORDER BY ...
// LIMIT 10, count(DISTINCT ...), joins with small heap tables (one holding
// every deleted id); EXPLAIN (ANALYZE, FORMAT JSON) of count(*) shows the
// live rows, not the files' total.
//
// Bad inputs, each in a table of its own: a DV with a wrong CRC (XX001), a
// DV file missing (58P01), a truncated log line (XX001), an unknown reader
// feature (0A000 naming it), a commit missing in the middle (XX001): the
// error's SQLSTATE from SELECT *, and the session still works (count(*)'s
// outcome is shown, not required). A DV file whose version byte is not 1 is
// a NOTE line, not a check (Spark does not look at that byte either).
//
// checkpoint (a separate, labelled part; --no-checkpoint skips it): v4
// removes a file and a classic Parquet checkpoint of v4 (written by DuckDB)
// plus _last_checkpoint are added, v5 adds a DV; the latest and version 4
// read the same as the truth with the commits 0..4 there and then without
// them; version 3 without them fails with a hint naming version 4.
//
// DELTA_DV_NO_ROARING=1 uses lib/delta_dv.mjs's own roaring serializer
// instead of the npm package (no run containers).
//
//   node test/js/check_delta_generated.mjs [--seed N] [--rows N] [--keep] [--no-checkpoint]
//
// PostgreSQL through the PG* environment variables (superuser; as
// scripts/cluster.sh exports them; the server must see this machine's /tmp).
// Works in its own database delta_gen_test, created and dropped. One
// PASS/FAIL line per check; the last line is
// "delta_generated: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import { counter } from './lib/stage.mjs';
import { DvFile, dvData, inlineDescriptor, newUuid, prng, randomUuidText, serializerName, z85Decode } from './lib/delta_dv.mjs';
import { alive, connectRetrying, sessionClient } from './lib/pg_session.mjs';
import { multisetDiff, orderedDiff } from './lib/text_rows.mjs';

const STAGE = 'delta_generated';
const DB = 'delta_gen_test';
const SERVER = 'delta_gen_srv';
const SESSION_OPTIONS = '-c TimeZone=UTC -c DateStyle=ISO -c extra_float_digits=1 -c statement_timeout=600s -c client_min_messages=warning';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const SEED = Number(opt('--seed', String(Date.now() % 1000000)));
const ROWS = Number(opt('--rows', '200000'));
const KEEP = argv.includes('--keep');
const CHECKPOINT = !argv.includes('--no-checkpoint');

const ROW_GROUP = 2000;
const PAGE_ROWS = 500; // 4 pages a row group: the page index can skip pages inside one
const PARTS = ['north', 'south', 'east', 'west', 'centre', 'south east', 'island', null];
const FILES_PER_PART = [3, 2, 3, 2, 3, 2, 3, 2]; // 20 files
const WORDS = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig', 'grape', 'hazel', 'kiwi', 'lemon', 'mango', 'nectarine'];
const BIG_FILE = 20; // v1's new file
const BIG_ROWS = 70000;
const BIG_PART = 2; // 'east'
const ALL_NULL_Z_FILE = 7;
const COLS = ['id', 'i', 't', 'part', 'n', 'd', 'ts', 'b', 'z'];
const FILE_COLS = COLS.filter((c) => c !== 'part');
const DDL_COLS = 'id bigint, i integer, t text, part text, n numeric(12,2), d date, ts timestamptz, b boolean, z integer';
const SCHEMA = {
  type: 'struct',
  fields: [['id', 'long', false], ['i', 'integer', true], ['t', 'string', true], ['part', 'string', true],
    ['n', 'decimal(12,2)', true], ['d', 'date', true], ['ts', 'timestamp', true], ['b', 'boolean', true], ['z', 'integer', true]]
    .map(([name, type, nullable]) => ({ name, type, nullable, metadata: {} })),
};
const PROTOCOL = { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['deletionVectors'], writerFeatures: ['deletionVectors'] };
const PARALLEL_SETTINGS = ['SET max_parallel_workers_per_gather = 2', 'SET parallel_setup_cost = 0',
  'SET parallel_tuple_cost = 0', 'SET min_parallel_table_scan_size = 0', 'SET cpu_tuple_cost = 10'];
const SERIAL_SETTINGS = ['SET max_parallel_workers_per_gather = 0'];
const RESET_SETTINGS = ['RESET max_parallel_workers_per_gather', 'RESET parallel_setup_cost', 'RESET parallel_tuple_cost',
  'RESET min_parallel_table_scan_size', 'RESET cpu_tuple_cost'];

const rand = prng(SEED);
const { check, summary } = counter();
const sqlString = (s) => `'${String(s).replace(/'/g, "''")}'`;
const firstLine = (s) => String(s).split('\n')[0].slice(0, 300);
const showErr = (e) => `${e.code ?? '(no SQLSTATE)'} ${firstLine(e.message)}${e.detail ? ` (DETAIL: ${firstLine(e.detail)})` : ''}`;
const TEXT = { getTypeParser: () => (v) => v };
const pad20 = (v) => String(v).padStart(20, '0');

// ------------------------------------------------------------ PostgreSQL

const pgClient = (database) => sessionClient(SESSION_OPTIONS, { database });

let c = null; // the session in DB
const rowsOf = async (sql, params) => (await c.query({ text: sql, values: params, rowMode: 'array', types: TEXT })).rows;
const run = async (sql, params) => c.query(sql, params);

async function reconnect() {
  await c?.end().catch(() => {});
  c = await connectRetrying(() => pgClient(DB), 60000, (cl) => cl.query(`LOAD 'parquet_fdw'`));
}

// ---------------------------------------------------------- the table

const tmp = fs.mkdtempSync('/tmp/delta_gen_');
fs.chmodSync(tmp, 0o777);
const TABLE_DIR = path.join(tmp, 'table');
const LOG_DIR = path.join(TABLE_DIR, '_delta_log');

function mkdirOpen(dir) {
  fs.mkdirSync(dir, { recursive: true });
  // the server (user postgres) writes the data files
  fs.chmodSync(dir, 0o777);
}

const partDir = (part) => `part=${part === null ? '__HIVE_DEFAULT_PARTITION__' : part}`;

/** files[k]: { k, part, rel (on disk, relative to the table), uri (add.path), size, mtime, rows, stats } */
const files = [];

async function writeDataFile(k, part, tableDir = TABLE_DIR) {
  const dir = path.join(tableDir, partDir(part));
  mkdirOpen(dir);
  const name = `part-${String(k).padStart(5, '0')}-${newUuid(rand).text}.c000.snappy.parquet`;
  const abs = path.join(dir, name);
  await run(`COPY (SELECT ${FILE_COLS.join(', ')} FROM gen_rows WHERE file_no = ${k} ORDER BY id) TO ${sqlString(abs)}
    WITH (FORMAT parquet, row_group_size ${ROW_GROUP}, data_page_rows ${PAGE_ROWS})`);
  const st = fs.statSync(abs);
  const rel = `${partDir(part)}/${name}`;
  files[k] = { k, part, rel, uri: encodeURI(rel), size: st.size, mtime: Math.floor(st.mtimeMs), rows: 0, stats: null };
  return files[k];
}

/** Spark-style stats of each file from its rows: numRecords, minValues, maxValues, nullCount. */
async function computeStats(ks) {
  const rows = await rowsOf(`SELECT file_no, id, i, t, n::text, d::text, (extract(epoch FROM ts) * 1000000)::bigint::text, z
    FROM gen_rows WHERE file_no = ANY($1) ORDER BY file_no, id`, [ks]);
  const acc = new Map();
  const num = (v) => (v === null ? null : Number(v));
  for (const r of rows) {
    const k = Number(r[0]);
    if (!acc.has(k)) acc.set(k, { n: 0, min: {}, max: {}, nulls: { id: 0, i: 0, t: 0, n: 0, d: 0, ts: 0, b: 0, z: 0 } });
    const a = acc.get(k);
    a.n++;
    const vals = { id: num(r[1]), i: num(r[2]), t: r[3], n: num(r[4]), d: r[5], ts: r[6] === null ? null : BigInt(r[6]), z: num(r[7]) };
    for (const [col, v] of Object.entries(vals)) {
      if (v === null) {
        a.nulls[col]++;
        continue;
      }
      if (a.min[col] === undefined || v < a.min[col]) a.min[col] = v;
      if (a.max[col] === undefined || v > a.max[col]) a.max[col] = v;
    }
  }
  // Spark: timestamps truncated down to milliseconds (the max too)
  const tsText = (us) => new Date(Number(us / 1000n)).toISOString();
  for (const k of ks) {
    const a = acc.get(k);
    if (!a) throw new Error(`file ${k} has no rows`);
    const fix = (o) => Object.fromEntries(Object.entries(o).map(([col, v]) => [col, col === 'ts' ? tsText(v) : v]));
    files[k].rows = a.n;
    files[k].stats = { numRecords: a.n, minValues: fix(a.min), maxValues: fix(a.max), nullCount: a.nulls };
  }
}

const commitInfo = (op, v) => ({ commitInfo: { timestamp: 1700000000000 + v * 1000, operation: op, operationParameters: {}, engineInfo: 'check_delta_generated.mjs', isBlindAppend: false } });

function addAction(f, dv = null) {
  const stats = { ...f.stats, tightBounds: dv === null };
  const add = { path: f.uri, partitionValues: { part: f.part }, size: f.size, modificationTime: f.mtime, dataChange: true, stats: JSON.stringify(stats) };
  if (dv) add.deletionVector = dv;
  return { add };
}

function removeAction(f, dv = null, v = 0) {
  const remove = { path: f.uri, deletionTimestamp: 1700000000000 + v * 1000, dataChange: true, extendedFileMetadata: true,
    partitionValues: { part: f.part }, size: f.size };
  if (dv) remove.deletionVector = dv;
  return { remove };
}

const metaDataAction = () => ({
  metaData: {
    id: randomUuidText(), format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(SCHEMA),
    partitionColumns: ['part'], configuration: { 'delta.enableDeletionVectors': 'true' }, createdTime: 1700000000000,
  },
});

function writeCommit(logDir, v, actions, { trailingNewline = false } = {}) {
  fs.mkdirSync(logDir, { recursive: true });
  fs.writeFileSync(path.join(logDir, `${pad20(v)}.json`), actions.map((a) => JSON.stringify(a)).join('\n') + (trailingNewline ? '\n' : ''));
}

// The history: live files and deleted positions per version (also in the heap).
const live = []; // live[v] = Set(file_no)
const deleted = []; // deleted[v] = Map(file_no -> Set(pos))
const dvOf = []; // dvOf[v] = Map(file_no -> descriptor)
const dvKind = new Map(); // file_no -> 'inline' | 'u' | 'u (prefix)' (for messages)

async function recordVersion(v) {
  await run('INSERT INTO gen_live SELECT $1, unnest($2::int[])', [v, [...live[v]]]);
  for (const [k, set] of deleted[v]) {
    await run('INSERT INTO gen_del SELECT $1, $2, unnest($3::int[])', [v, k, [...set]]);
  }
  await run(`CREATE TABLE truth_v${v} AS SELECT ${COLS.join(', ')} FROM gen_rows r
    WHERE file_no IN (SELECT file_no FROM gen_live WHERE version = ${v})
      AND NOT EXISTS (SELECT 1 FROM gen_del x WHERE x.version = ${v} AND x.file_no = r.file_no AND x.pos = r.pos)`);
  await run(`ANALYZE truth_v${v}`);
}

/** n distinct random integers in [lo, hi) */
function sample(n, lo, hi) {
  const s = new Set();
  if (n > hi - lo) throw new Error('sample: too many');
  while (s.size < n) s.add(lo + Math.floor(rand() * (hi - lo)));
  return [...s];
}

const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, j) => lo + j); // inclusive
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
function shuffle(a) {
  for (let j = a.length - 1; j > 0; j--) {
    const x = Math.floor(rand() * (j + 1));
    [a[j], a[x]] = [a[x], a[j]];
  }
  return a;
}

/** Position (in its file) and file of the row with id. */
async function whereIs(id) {
  const r = await rowsOf('SELECT file_no, pos FROM gen_rows WHERE id = $1', [id]);
  return { k: Number(r[0][0]), pos: Number(r[0][1]) };
}

async function buildTable() {
  mkdirOpen(TABLE_DIR);
  fs.mkdirSync(LOG_DIR);
  await run(`SELECT setseed(${(SEED % 1000) / 1000})`);
  const words = `ARRAY[${WORDS.map(sqlString).join(', ')}]`;
  const parts = `ARRAY[${PARTS.map((p) => (p === null ? 'NULL' : sqlString(p))).join(', ')}]::text[]`;
  const offsets = FILES_PER_PART.map((_, j) => FILES_PER_PART.slice(0, j).reduce((x, y) => x + y, 0));
  // random() is evaluated row by row: one statement, reproducible from the seed
  const gen = (from, to, pi) => `SELECT g::bigint AS id,
      (random() * 2000000 - 1000000)::int AS i,
      (${words})[1 + floor(random() * random() * ${WORDS.length})::int] AS t,
      ${pi === null ? 'floor(random() * 8)::int' : pi} AS pi,
      round(((random() - 0.5) * 2000000)::numeric, 2)::numeric(12,2) AS n,
      date '2000-01-01' + floor(random() * 10000)::int AS d,
      timestamptz '2015-01-01 00:00:00+00' + random() * interval '3000 days' AS ts,
      random() < 0.3 AS b,
      CASE WHEN random() < 0.15 THEN NULL ELSE floor(random() * 1000)::int END AS z
    FROM generate_series(${from}, ${to}) g`;
  await run(`CREATE TABLE gen_rows AS
    WITH base AS (${gen(1, ROWS, null)}),
    r AS (SELECT base.*, row_number() OVER (PARTITION BY pi ORDER BY id) - 1 AS rk, count(*) OVER (PARTITION BY pi) AS cnt FROM base),
    f AS (SELECT r.*, (ARRAY[${offsets.join(', ')}])[pi + 1] + floor(rk * (ARRAY[${FILES_PER_PART.join(', ')}])[pi + 1] / cnt)::int AS file_no FROM r)
    SELECT id, i, t, (${parts})[pi + 1] AS part, n, d, ts, b, z, file_no,
      (row_number() OVER (PARTITION BY file_no ORDER BY id) - 1)::int AS pos
    FROM f`);
  await run(`UPDATE gen_rows SET z = NULL WHERE file_no = ${ALL_NULL_Z_FILE}`);
  await run(`INSERT INTO gen_rows
    SELECT id, i, t, (${parts})[pi + 1], n, d, ts, b, z, ${BIG_FILE}, (id - 1000001)::int FROM (${gen(1000001, 1000000 + BIG_ROWS, BIG_PART)}) s`);
  await run('CREATE INDEX ON gen_rows (file_no, pos)');
  await run('CREATE UNIQUE INDEX ON gen_rows (id)');
  await run('ANALYZE gen_rows');
  await run('CREATE TABLE gen_live (version int, file_no int)');
  await run('CREATE TABLE gen_del (version int, file_no int, pos int, PRIMARY KEY (version, file_no, pos))');

  const nfiles = FILES_PER_PART.reduce((x, y) => x + y, 0);
  const partOf = (k) => PARTS[offsets.findLastIndex((o) => o <= k)];
  for (let k = 0; k < nfiles; k++) await writeDataFile(k, partOf(k));
  await writeDataFile(BIG_FILE, PARTS[BIG_PART]);
  await computeStats([...range(0, nfiles - 1), BIG_FILE]);

  // v0
  writeCommit(LOG_DIR, 0, [commitInfo('CREATE TABLE AS SELECT', 0), { protocol: PROTOCOL }, metaDataAction(),
    ...range(0, nfiles - 1).map((k) => addAction(files[k]))]);
  live[0] = new Set(range(0, nfiles - 1));
  deleted[0] = new Map();
  dvOf[0] = new Map();
  await recordVersion(0);

  // v1: two files removed, the big one added
  const gone = shuffle(range(0, nfiles - 1).filter((k) => k !== ALL_NULL_Z_FILE)).slice(0, 2);
  writeCommit(LOG_DIR, 1, [commitInfo('WRITE', 1), ...gone.map((k) => removeAction(files[k], null, 1)), addAction(files[BIG_FILE])],
    { trailingNewline: true });
  live[1] = new Set([...live[0]].filter((k) => !gone.includes(k)).concat([BIG_FILE]));
  deleted[1] = new Map();
  dvOf[1] = new Map();
  await recordVersion(1);

  // v2: deletion vectors. The rows holding the extremes of v1 are deleted
  // (their files get a DV), so that a min/max or count from the footers
  // would show them.
  const extremes = [];
  for (const q of ['id ASC', 'id DESC', 'i DESC', 'n ASC', 'ts DESC', 'd ASC']) {
    const [[id]] = await rowsOf(`SELECT id FROM truth_v1 ORDER BY ${q}, id LIMIT 1`);
    extremes.push(await whereIs(id));
  }
  const dvFiles = new Set([BIG_FILE, ...extremes.map((e) => e.k)]);
  const target = Math.max(dvFiles.size, Math.round(live[1].size / 3));
  for (const k of shuffle([...live[1]])) {
    if (dvFiles.size >= target) break;
    dvFiles.add(k);
  }
  const dvList = [...dvFiles].sort((a, b) => a - b);
  const del2 = new Map();
  for (const k of dvList) {
    const n = files[k].rows;
    const s = new Set(sample(Math.ceil(n * 0.01), 0, n));
    del2.set(k, s);
  }
  for (const e of extremes) del2.get(e.k).add(e.pos);
  const others = dvList.filter((k) => k !== BIG_FILE);
  // runs across row-group boundaries; a whole row group; first/last rows
  const [fa, fb, fc] = others;
  for (const p of [...range(ROW_GROUP - 10, ROW_GROUP + 10), 2 * ROW_GROUP - 1, 2 * ROW_GROUP]) if (p < files[fa].rows) del2.get(fa).add(p);
  if (fb !== undefined) for (const p of range(2 * ROW_GROUP - 10, 3 * ROW_GROUP + 10)) if (p < files[fb].rows) del2.get(fb).add(p);
  if (fc !== undefined) {
    del2.get(fc).add(0);
    del2.get(fc).add(files[fc].rows - 1);
  }
  const big = del2.get(BIG_FILE);
  for (const p of [...range(65530, 65541), ...range(33 * ROW_GROUP - 10, 33 * ROW_GROUP + 10), BIG_ROWS - 1]) big.add(p);

  // storage: one inline, the big file and one other under a prefix, the rest in one file
  const inlineK = others[others.length - 1];
  const prefix = String.fromCharCode(97 + Math.floor(rand() * 26)) + String(Math.floor(rand() * 10)) + '_';
  const plainBin = new DvFile(rand);
  const prefixBin = new DvFile(rand, prefix);
  const dv2 = new Map();
  const prefixed = new Set([BIG_FILE, others.find((k) => k !== inlineK && k !== fa)]);
  for (const k of dvList) {
    const data = dvData([...del2.get(k)]);
    if (k === inlineK) {
      dv2.set(k, inlineDescriptor(data));
      dvKind.set(k, 'inline');
    } else if (prefixed.has(k)) {
      dv2.set(k, prefixBin.add(data));
      dvKind.set(k, `u ${prefix}/`);
    } else {
      dv2.set(k, plainBin.add(data));
      dvKind.set(k, 'u');
    }
  }
  for (const b of [plainBin, prefixBin]) {
    fs.mkdirSync(path.dirname(path.join(TABLE_DIR, b.relPath)), { recursive: true });
    fs.writeFileSync(path.join(TABLE_DIR, b.relPath), b.bytes());
  }
  // the harness's own round trip of the inline encoding
  {
    const d = dv2.get(inlineK);
    const back = z85Decode(d.pathOrInlineDv).subarray(0, d.sizeInBytes);
    if (!back.equals(dvData([...del2.get(inlineK)]).data)) throw new Error('harness: inline DV does not round-trip');
  }
  writeCommit(LOG_DIR, 2, [commitInfo('DELETE', 2), ...dvList.flatMap((k) => [removeAction(files[k], null, 2), addAction(files[k], dv2.get(k))])]);
  live[2] = new Set(live[1]);
  deleted[2] = del2;
  dvOf[2] = dv2;
  await recordVersion(2);

  // v3: more rows deleted from a 'u' file (to a bitset container) and from the inline one
  const uK = dvList.find((k) => dvKind.get(k) === 'u' && files[k].rows > 6000);
  const del3 = new Map([...del2].map(([k, s]) => [k, new Set(s)]));
  const dv3 = new Map(dv2);
  const bin3 = new DvFile(rand);
  const again = [];
  if (uK !== undefined) {
    for (const p of sample(4500, 0, Math.min(files[uK].rows, 65536))) del3.get(uK).add(p);
    dv3.set(uK, bin3.add(dvData([...del3.get(uK)])));
    again.push(uK);
  }
  for (const p of sample(50, 0, files[inlineK].rows)) del3.get(inlineK).add(p);
  dv3.set(inlineK, inlineDescriptor(dvData([...del3.get(inlineK)])));
  again.push(inlineK);
  // a file without a DV so far gets one deleting every row it has
  const allK = shuffle([...live[2]].filter((k) => !dv2.has(k) && k !== BIG_FILE))[0];
  const newDv = [];
  if (allK !== undefined) {
    del3.set(allK, new Set(range(0, files[allK].rows - 1)));
    dv3.set(allK, bin3.add(dvData([...del3.get(allK)])));
    newDv.push(allK);
  }
  fs.writeFileSync(path.join(TABLE_DIR, bin3.relPath), bin3.bytes());
  writeCommit(LOG_DIR, 3, [commitInfo('DELETE', 3), ...again.flatMap((k) => [removeAction(files[k], dv2.get(k), 3), addAction(files[k], dv3.get(k))]),
    ...newDv.flatMap((k) => [removeAction(files[k], null, 3), addAction(files[k], dv3.get(k))])]);
  live[3] = new Set(live[2]);
  deleted[3] = del3;
  dvOf[3] = dv3;
  await recordVersion(3);

  const counts = [];
  for (let v = 0; v <= 3; v++) counts.push(Number((await rowsOf(`SELECT count(*) FROM truth_v${v}`))[0][0]));
  console.log(`${STAGE}: table ${TABLE_DIR}: ${Object.keys(files).length} data files (row groups of ${ROW_GROUP}), ` +
    `rows per version ${counts.join(' / ')}; v1 removed files ${gone.join(', ')}; v2 DVs on files ${dvList.map((k) => `${k} (${dvKind.get(k)}, ${del2.get(k).size})`).join(', ')}; ` +
    `v3 DVs grown on ${again.join(', ')}, every row of file ${newDv.join(', ')} deleted; serializer: ${serializerName()}`);
  return { gone, dvList, inlineK, uK, fa, fb };
}

// ------------------------------------------------------------ the checks

/** Foreign table name for a target: v0..v3, latest. */
async function createForeign(name, dir, version) {
  await run(`DROP FOREIGN TABLE IF EXISTS ${name}`);
  const v = version === null ? '' : `, version ${sqlString(version)}`;
  await run(`CREATE FOREIGN TABLE ${name} (${DDL_COLS}) SERVER ${SERVER} OPTIONS (format 'delta', location ${sqlString(dir)}${v})`);
}

/** The queries compared: [name, sql with {T}, ordered?] */
function queries(ctx) {
  const { idRanges, tsEdge, tsExact } = ctx;
  return [
    ['count', 'SELECT count(*) FROM {T}', true],
    ['footer_aggregates', `SELECT count(*), count(z), min(id), max(id), min(i), max(i), min(n), max(n), min(d), max(d),
      min(ts), max(ts), min(t), max(t) FROM {T}`, true],
    ['footer_aggregates_part', `SELECT count(*), min(id), max(id), max(i), min(ts) FROM {T} WHERE part = 'east'`, true],
    ['group_by_part', `SELECT part, count(*), sum(i), avg(n), sum(n), min(d), max(ts), count(z), sum(z), min(t), max(id),
      count(*) FILTER (WHERE b) FROM {T} GROUP BY part ORDER BY part NULLS FIRST`, true],
    ['where_id_range', `SELECT count(*), sum(i), sum(n), min(ts), max(d) FROM {T} WHERE id BETWEEN 50000 AND 90000`, true],
    ...idRanges.map(([what, lo, hi]) => [`where_id_rows_${what}`, `SELECT * FROM {T} WHERE id BETWEEN ${lo} AND ${hi} ORDER BY id`, true]),
    ['where_part_space', `SELECT count(*), sum(z), count(z), sum(i) FROM {T} WHERE part = 'south east'`, true],
    ['part_only_group', 'SELECT part, count(*) FROM {T} GROUP BY part ORDER BY part NULLS FIRST', true],
    ['part_only_where', `SELECT count(*) FROM {T} WHERE part IN ('east', 'north')`, true],
    ['where_part_null', 'SELECT count(*), sum(i), min(id), max(id) FROM {T} WHERE part IS NULL', true],
    ['where_part_in_id', `SELECT count(*), sum(i), avg(n) FROM {T} WHERE part IN ('east', 'west') AND id < 100000`, true],
    ['where_text_eq', `SELECT count(*), sum(i), avg(n) FROM {T} WHERE t = 'cherry'`, true],
    ['where_text_range', `SELECT t, count(*), sum(z) FROM {T} WHERE t > 'hazel' GROUP BY t ORDER BY t`, true],
    ['where_text_bool_null', `SELECT count(*), sum(i) FROM {T} WHERE t IN ('apple', 'fig') AND b AND z IS NULL`, true],
    ['where_ts_edge', `SELECT id, ts FROM {T} WHERE ts >= '${tsEdge}' ORDER BY ts, id`, true],
    ['where_ts_exact', `SELECT id FROM {T} WHERE ts = '${tsExact}' ORDER BY id`, true],
    ['where_date_num', `SELECT count(*), sum(i) FROM {T} WHERE d < '2003-06-01' AND n > 500000`, true],
    ['order_n_limit', 'SELECT * FROM {T} ORDER BY n DESC, id LIMIT 10', true],
    ['order_ts_limit', 'SELECT * FROM {T} ORDER BY ts, id LIMIT 10', true],
    ['order_id_desc_limit', 'SELECT id, part, z FROM {T} ORDER BY id DESC LIMIT 10', true],
    ['count_distinct', 'SELECT count(DISTINCT t), count(DISTINCT z), count(DISTINCT part), count(DISTINCT d) FROM {T}', true],
    ['join_dim', `SELECT d.label, count(*), sum(f.i::bigint * d.weight), sum(f.n) FROM {T} f JOIN gen_dim d USING (t)
      GROUP BY d.label ORDER BY d.label`, true],
    ['join_probe', 'SELECT f.id, f.part, f.i FROM {T} f JOIN gen_probe p ON p.id = f.id ORDER BY f.id', true],
    // a correlated subquery: the scan is run again per outer row, its partition qual a parameter
    ['rescan_correlated', `SELECT o.p, o.k, (SELECT count(*) FROM {T} f WHERE f.part IS NOT DISTINCT FROM o.p AND f.z = o.k),
      (SELECT max(f.id) FROM {T} f WHERE f.part = o.p AND f.id < o.k * 1000)
      FROM (VALUES ('east', 5), ('north', 7), (NULL, 9), ('south east', 11), ('east', 400)) o(p, k) ORDER BY 1, 2`, true],
  ];
}

async function setMode(mode) {
  for (const s of RESET_SETTINGS) await run(s);
  for (const s of (mode === 'parallel' ? PARALLEL_SETTINGS : SERIAL_SETTINGS)) await run(s);
}

/** The Foreign Scan nodes of an EXPLAIN JSON plan. */
function foreignScans(node, out = []) {
  if (node['Node Type'] === 'Foreign Scan') out.push(node);
  for (const p of node.Plans ?? []) foreignScans(p, out);
  return out;
}

/** Run check fn, turning an error into a FAIL (reconnecting after a crash). */
async function guarded(name, fn) {
  let problems;
  try {
    const r = await fn();
    problems = r.problems;
    if (!problems.length) {
      check(`${name}${r.note ? `: ${r.note}` : ''}`, []);
      return;
    }
  } catch (err) {
    const crashed = !(await alive(c));
    problems = [`${crashed ? 'SERVER CRASHED or session lost: ' : ''}${err.code ? `ERROR ${showErr(err)}` : firstLine(err.stack || err.message)}`];
    if (crashed) await reconnect();
  }
  check(name, problems);
}

const truthCache = new Map();
async function truthOf(v, key, sql) {
  const k = `${v}\u0000${key}`;
  if (!truthCache.has(k)) {
    await setMode('serial');
    truthCache.set(k, await rowsOf(sql.replaceAll('{T}', `truth_v${v}`)));
  }
  return truthCache.get(k);
}

async function checkTarget(label, ft, v, ctx, modes = ['serial', 'parallel']) {
  // a new session: parquet_fdw keeps the snapshots it read per backend, by
  // (location, version); each target's first read replays the log itself
  await reconnect();
  for (const mode of modes) {
    const tag = `${label}/${mode}`;
    // SELECT *: the multiset of rows
    await guarded(`${tag} select_all`, async () => {
      const exp = await truthOf(v, 'select_all', `SELECT ${COLS.join(', ')} FROM {T}`);
      await setMode(mode);
      let note = '';
      if (mode === 'parallel') {
        const plan = (await rowsOf(`EXPLAIN (COSTS OFF) SELECT ${COLS.join(', ')} FROM ${ft}`)).map((r) => r[0]).join('\n');
        note = /Parallel Foreign Scan/.test(plan) ? ', Parallel Foreign Scan' : ', no parallel plan';
      }
      const got = await rowsOf(`SELECT ${COLS.join(', ')} FROM ${ft}`);
      const d = multisetDiff(got, exp);
      return { problems: d ? [`SELECT * FROM ${ft}: ${d}`] : [], note: `${got.length} rows${note}` };
    });
    for (const [name, sql, ordered] of queries(ctx)) {
      await guarded(`${tag} ${name}`, async () => {
        const exp = await truthOf(v, name, sql);
        await setMode(mode);
        const q = sql.replaceAll('{T}', ft);
        const got = await rowsOf(q);
        const d = ordered ? orderedDiff(got, exp) : multisetDiff(got, exp);
        let note = `${got.length} rows`;
        if (name.startsWith('where_id_rows_') && mode === 'serial') {
          // what the scan skipped (a note: shows the page index was in play)
          const plan = (await rowsOf(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${q}`)).map((r) => r[0]).join('\n');
          const rg = /Row Groups Pruned by Statistics: (\d+)/.exec(plan);
          const pages = /Pages Pruned by Page Index: (\d+)/.exec(plan);
          note += `; row groups pruned ${rg ? rg[1] : '?'}, pages pruned ${pages ? pages[1] : '?'}`;
        }
        return { problems: d ? [`${q.replace(/\s+/g, ' ')}: ${d}`] : [], note };
      });
    }
    // EXPLAIN ANALYZE of count(*): the rows the scan returned are the live ones
    await guarded(`${tag} explain_analyze_count`, async () => {
      const [[n]] = await truthOf(v, 'count', 'SELECT count(*) FROM {T}');
      await setMode(mode);
      const q = `EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) SELECT count(*) FROM ${ft}`;
      const res = await c.query(q);
      const plan = res.rows[0]['QUERY PLAN'][0].Plan;
      const scans = foreignScans(plan);
      if (scans.length !== 1) return { problems: [`${q}: ${scans.length} Foreign Scan nodes`] };
      const s = scans[0];
      const loops = s['Actual Loops'];
      const rows = s['Actual Rows'];
      const workers = s.Workers ?? [];
      const problems = [];
      const want = Number(n);
      // in a parallel plan the scan's rows are the average per loop, rounded
      const exact = workers.length === 0 && loops === 1;
      if ((s.Output ?? []).some((o) => /count\(/.test(o))) {
        // a scan of the grouping relation: answered from the footers ("Row
        // Groups Counted"), never on a version with deletion vectors; or
        // counted by the scan from the rows it reads (a grouped scan), whose
        // count is checked below
        if (deleted[v]?.size && s['Row Groups Counted'] !== undefined)
          problems.push(`count(*) answered from the footers (${JSON.stringify(s.Output)}) on a version with deletion vectors`);
        if (rows !== 1) problems.push(`aggregate scan returned ${rows} rows`);
      } else if (exact ? rows !== want : Math.abs(rows * loops - want) > loops) {
        problems.push(`${q}: Foreign Scan Actual Rows ${rows} x ${loops} loops${workers.length ? ` (workers ${workers.map((w) => w['Actual Rows']).join(', ')})` : ''}, expected ${want} rows in all`);
      }
      const got = (await rowsOf(`SELECT count(*) FROM ${ft}`))[0][0];
      if (String(got) !== String(want)) problems.push(`count(*) = ${got}, expected ${want}`);
      return { problems, note: `scan rows ${rows} x ${loops} loops, count ${want}` };
    });
  }
}

// ---------------------------------------------------------- bad inputs

async function badCase(name, code, build, { names = [], note = null } = {}) {
  const dir = path.join(tmp, `bad_${name}`);
  // note: not counted, a NOTE line with what happened (and why it is not a check)
  const runner = note ? async (what, fn) => {
    try {
      const r = await fn();
      console.log(`NOTE ${what} (${note}): ${r.problems.length ? r.problems.join('; ') : `as expected: ${r.note}`}`);
    } catch (err) {
      console.log(`NOTE ${what} (${note}): ${err.code ? showErr(err) : firstLine(err.message)}`);
      if (!(await alive(c))) await reconnect();
    }
  } : guarded;
  await runner(`bad_input ${name}`, async () => {
    build(dir);
    const ft = `bad_${name}`;
    await createForeign(ft, dir, null).catch((err) => {
      throw Object.assign(err, { atCreate: true });
    });
    const problems = [];
    let err = null;
    try {
      await run(`SELECT * FROM ${ft}`);
    } catch (e) {
      err = e;
    }
    const ok = await alive(c);
    if (!ok) {
      await reconnect();
      return { problems: [`session lost after SELECT * (${err ? showErr(err) : 'no error'})`] };
    }
    if (!err) problems.push(`SELECT * FROM ${ft} succeeded, expected ERROR ${code}`);
    else if (err.code !== code) problems.push(`SELECT * FROM ${ft}: ${showErr(err)}, expected SQLSTATE ${code}`);
    else {
      const text = [err.message, err.detail, err.hint].filter(Boolean).join(' ');
      for (const s of names) if (!text.includes(s)) problems.push(`${showErr(err)} does not name ${s}`);
    }
    // count(*) too (may be answered without reading the damaged part: reported, not required)
    let cnt;
    try {
      cnt = `count(*) = ${(await rowsOf(`SELECT count(*) FROM ${ft}`))[0][0]}`;
    } catch (e) {
      cnt = `count(*): ${e.code}`;
    }
    if (!(await alive(c))) {
      await reconnect();
      problems.push('session lost after count(*)');
    }
    await run(`DROP FOREIGN TABLE IF EXISTS ${ft}`);
    return { problems, note: err ? `${showErr(err)}; ${cnt}; session still works` : cnt };
  });
}

async function badInputs(small) {
  // every bad table: one small data file (the first 3000 rows of file 0) in part=north
  const f = { ...files[0] };
  const setup = (dir) => {
    const rel = 'part=north/part-00000-small.c000.snappy.parquet';
    fs.mkdirSync(path.join(dir, 'part=north'), { recursive: true });
    fs.copyFileSync(small, path.join(dir, rel));
    const st = fs.statSync(path.join(dir, rel));
    return { ...f, part: 'north', rel, uri: rel, size: st.size, mtime: Math.floor(st.mtimeMs), rows: 3000, stats: { numRecords: 3000, nullCount: {} } };
  };
  const head = () => [commitInfo('WRITE', 0), { protocol: PROTOCOL }, metaDataAction()];
  const someDv = () => dvData(sample(30, 0, 3000));

  await badCase('dv_crc', 'XX001', (dir) => {
    const sf = setup(dir);
    const bin = new DvFile(rand);
    bin.add(someDv()); // a good one first
    const dv = bin.add(someDv(), { corruptCrc: true });
    fs.writeFileSync(path.join(dir, bin.relPath), bin.bytes());
    writeCommit(path.join(dir, '_delta_log'), 0, [...head(), addAction(sf, dv)]);
  });
  await badCase('dv_file_missing', '58P01', (dir) => {
    const sf = setup(dir);
    const bin = new DvFile(rand, 'q9');
    const dv = bin.add(someDv());
    writeCommit(path.join(dir, '_delta_log'), 0, [...head(), addAction(sf, dv)]);
  });
  await badCase('log_line_truncated', 'XX001', (dir) => {
    const sf = setup(dir);
    const log = path.join(dir, '_delta_log');
    writeCommit(log, 0, [...head(), addAction(sf)]);
    const line1 = JSON.stringify(removeAction(sf, null, 1));
    const line2 = JSON.stringify(addAction(sf, inlineDescriptor(someDv())));
    fs.writeFileSync(path.join(log, `${pad20(1)}.json`), `${line1}\n${line2.slice(0, Math.floor(line2.length / 2))}`);
  });
  await badCase('unknown_reader_feature', '0A000', (dir) => {
    const sf = setup(dir);
    const protocol = { ...PROTOCOL, readerFeatures: ['deletionVectors', 'quantumEntanglementZ'], writerFeatures: ['deletionVectors', 'quantumEntanglementZ'] };
    writeCommit(path.join(dir, '_delta_log'), 0, [commitInfo('WRITE', 0), { protocol }, metaDataAction(), addAction(sf)]);
  }, { names: ['quantumEntanglementZ'] });
  await badCase('commit_missing', 'XX001', (dir) => {
    const sf = setup(dir);
    const log = path.join(dir, '_delta_log');
    writeCommit(log, 0, [...head(), addAction(sf)]);
    writeCommit(log, 1, [commitInfo('WRITE', 1), removeAction(sf, null, 1), addAction(sf)]);
    // 2 missing
    writeCommit(log, 3, [commitInfo('WRITE', 3), removeAction(sf, null, 3), addAction(sf)]);
  });
  // The file's first byte is its format version (1). Spark reads a DV at its
  // offset and never looks at that byte, and neither does parquet_fdw today
  // (delete_rows.c reads only the span): a NOTE, not a check.
  await badCase('dv_file_version_byte', 'XX001', (dir) => {
    const sf = setup(dir);
    const bin = new DvFile(rand);
    const dv = bin.add(someDv());
    const bytes = bin.bytes();
    bytes[0] = 2;
    fs.writeFileSync(path.join(dir, bin.relPath), bytes);
    writeCommit(path.join(dir, '_delta_log'), 0, [...head(), addAction(sf, dv)]);
  }, { note: 'informational: the version byte is not covered by the CRC; Spark does not check it on a ranged read' });
}

/**
 * A table directory removed and written again as a new table (a new
 * metaData id, its own version 0 naming another file) while a session that
 * read the first one goes on: that session must read the new table.
 */
async function recreatedLocation(small, small2) {
  const dir = path.join(tmp, 'recreated');
  const make = (file, rows) => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, 'part=north'), { recursive: true });
    const rel = `part=north/${path.basename(file, '.parquet')}-${newUuid(rand).text}.parquet`;
    fs.copyFileSync(file, path.join(dir, rel));
    const st = fs.statSync(path.join(dir, rel));
    const f = { part: 'north', rel, uri: rel, size: st.size, mtime: Math.floor(st.mtimeMs), stats: { numRecords: rows } };
    writeCommit(path.join(dir, '_delta_log'), 0, [commitInfo('CREATE TABLE', 0), { protocol: PROTOCOL }, metaDataAction(), addAction(f)]);
  };
  await reconnect();
  await guarded('recreated_location', async () => {
    make(small, 3000);
    await createForeign('recreated', dir, null);
    const first = (await rowsOf('SELECT count(*) FROM recreated'))[0][0];
    if (first !== '3000') return { problems: [`first table: count(*) = ${first}, expected 3000`] };
    make(small2, 1000);
    const q = 'SELECT count(*), min(id), max(id) FROM recreated';
    const want = (await rowsOf(`SELECT count(*), min(id), max(id) FROM (SELECT id FROM gen_rows WHERE file_no = 1 ORDER BY id LIMIT 1000) s`))[0];
    let got;
    try {
      got = (await rowsOf(q))[0];
    } catch (err) {
      return { problems: [`after ${dir} was removed and written again as a new table (new metaData id, version 0 naming another file), the same session's ${q}: ${showErr(err)}; expected ${want.join('|')} (a new session reads it)`] };
    }
    const d = orderedDiff([got], [want]);
    return { problems: d ? [`after ${dir} was written again as a new table, the same session's ${q}: ${d}`] : [], note: got.join('|') };
  });
}

// ---------------------------------------------------------- checkpoint

/**
 * A classic checkpoint of the state at version v (protocol, metaData, the
 * live adds with their DVs, the removes of that version as tombstones),
 * written as Parquet by DuckDB.
 */
async function writeCheckpoint(v, tombstones) {
  const { duckQuery } = await import('./lib/duck.mjs');
  const actions = [{ protocol: PROTOCOL }, metaDataAction(),
    ...[...live[v]].sort((a, b) => a - b).map((k) => addAction(files[k], dvOf[v].get(k) ?? null)),
    ...tombstones.map((k) => removeAction(files[k], null, v))];
  const nd = path.join(tmp, `checkpoint_${v}.ndjson`);
  fs.writeFileSync(nd, actions.map((a) => JSON.stringify(a)).join('\n') + '\n');
  const dvType = 'STRUCT(storageType VARCHAR, pathOrInlineDv VARCHAR, "offset" INTEGER, sizeInBytes INTEGER, cardinality BIGINT)';
  const cols = {
    protocol: 'STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER, readerFeatures VARCHAR[], writerFeatures VARCHAR[])',
    metaData: 'STRUCT(id VARCHAR, name VARCHAR, description VARCHAR, format STRUCT(provider VARCHAR, options MAP(VARCHAR, VARCHAR)), ' +
      'schemaString VARCHAR, partitionColumns VARCHAR[], configuration MAP(VARCHAR, VARCHAR), createdTime BIGINT)',
    add: `STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, modificationTime BIGINT, dataChange BOOLEAN, stats VARCHAR, tags MAP(VARCHAR, VARCHAR), deletionVector ${dvType})`,
    remove: `STRUCT(path VARCHAR, deletionTimestamp BIGINT, dataChange BOOLEAN, extendedFileMetadata BOOLEAN, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, deletionVector ${dvType})`,
  };
  const colSpec = `{${Object.entries(cols).map(([k, t]) => `${k}: '${t}'`).join(', ')}}`;
  const out = path.join(LOG_DIR, `${pad20(v)}.checkpoint.parquet`);
  await duckQuery(`COPY (SELECT protocol, metaData, add, remove FROM read_json('${nd}', format = 'newline_delimited', columns = ${colSpec}))
    TO '${out}' (FORMAT parquet)`);
  const n = actions.length;
  fs.writeFileSync(path.join(LOG_DIR, '_last_checkpoint'), JSON.stringify({ version: v, size: n }));
  return n;
}

async function checkpointCase(info, ctx) {
  // v4: a file without a DV removed; v5: a DV on another file
  const plain = [...live[3]].filter((k) => !dvOf[3].has(k));
  const [g4, k5] = shuffle(plain);
  writeCommit(LOG_DIR, 4, [commitInfo('DELETE', 4), removeAction(files[g4], null, 4)]);
  live[4] = new Set([...live[3]].filter((k) => k !== g4));
  deleted[4] = new Map([...deleted[3]].map(([k, s]) => [k, new Set(s)]));
  dvOf[4] = new Map(dvOf[3]);
  await recordVersion(4);
  let written = 0;
  await guarded('checkpoint write (DuckDB)', async () => {
    written = await writeCheckpoint(4, [g4]);
    return { problems: [], note: `${pad20(4)}.checkpoint.parquet, ${written} actions` };
  });
  if (!written) return;
  const bin = new DvFile(rand, 'ck');
  const s5 = new Set(sample(Math.ceil(files[k5].rows * 0.02), 0, files[k5].rows));
  const dv5 = bin.add(dvData([...s5]));
  fs.mkdirSync(path.join(TABLE_DIR, 'ck'), { recursive: true });
  fs.writeFileSync(path.join(TABLE_DIR, bin.relPath), bin.bytes());
  writeCommit(LOG_DIR, 5, [commitInfo('DELETE', 5), removeAction(files[k5], null, 5), addAction(files[k5], dv5)]);
  live[5] = new Set(live[4]);
  deleted[5] = new Map([...deleted[4]].map(([k, s]) => [k, new Set(s)]));
  deleted[5].set(k5, s5);
  dvOf[5] = new Map(dvOf[4]);
  dvOf[5].set(k5, dv5);
  await recordVersion(5);

  await createForeign('ck_latest', TABLE_DIR, null);
  await createForeign('ck_v4', TABLE_DIR, '4');
  await checkTarget('checkpoint(with commits) latest', 'ck_latest', 5, ctx, ['serial']);
  // a version before the newest checkpoint: from the commits alone
  await createForeign('ck_v3_commits', TABLE_DIR, '3');
  await checkTarget('checkpoint(with commits) v3', 'ck_v3_commits', 3, ctx, ['serial']);
  // the commits up to the checkpoint gone: only the checkpoint can give v4
  const moved = path.join(tmp, 'moved_commits');
  fs.mkdirSync(moved);
  for (let v = 0; v <= 4; v++) fs.renameSync(path.join(LOG_DIR, `${pad20(v)}.json`), path.join(moved, `${pad20(v)}.json`));
  await checkTarget('checkpoint(only) latest', 'ck_latest', 5, ctx, ['serial', 'parallel']);
  await checkTarget('checkpoint(only) v4', 'ck_v4', 4, ctx, ['serial']);
  // a version before the checkpoint is gone: an error whose hint names the
  // earliest version still readable, the checkpoint's (4); a new session,
  // which has not kept version 3 from before
  await reconnect();
  await createForeign('ck_v3', TABLE_DIR, '3');
  await guarded('checkpoint(only) v3 cleaned up', async () => {
    let err = null;
    try {
      await run('SELECT count(*) FROM ck_v3');
    } catch (e) {
      err = e;
    }
    if (!err) return { problems: ['SELECT count(*) FROM ck_v3 (version 3, commits 0..4 removed, checkpoint 4 kept) succeeded'] };
    const problems = [];
    if (!/\b4\b/.test(err.hint ?? '')) problems.push(`${showErr(err)} HINT: ${err.hint ?? '(none)'}: expected the hint to name version 4 (the checkpoint's), the earliest readable`);
    if (!(await alive(c))) {
      await reconnect();
      problems.push('session lost');
    }
    return { problems, note: `${showErr(err)} HINT: ${err.hint}` };
  });
}

// ------------------------------------------------------------------ main

async function main() {
  console.log(`${STAGE}: seed ${SEED} (--seed ${SEED} reproduces the data and deletions), ${ROWS} rows, temp ${tmp}`);
  const admin = pgClient(process.env.PGDATABASE || 'postgres');
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DB}`);
  } catch (err) {
    console.log(`FAIL ${STAGE}: cannot create database ${DB}: ${showErr(err)}`);
    console.log(`${STAGE}: 0 passed, 1 failed`);
    await admin.end().catch(() => {});
    return 1;
  }
  c = pgClient(DB);
  let code = 1;
  try {
    await c.connect();
    await run('CREATE EXTENSION parquet_fdw');
    await run(`CREATE SERVER ${SERVER} FOREIGN DATA WRAPPER parquet_fdw`);
    await run(`LOAD 'parquet_fdw'`);

    let info;
    try {
      info = await buildTable();
    } catch (err) {
      check('build the table', [`${err.code ? showErr(err) : firstLine(err.stack || err.message)}`]);
      return summary(STAGE);
    }

    // small heap tables for the joins; query constants
    await run('CREATE TABLE gen_dim (t text PRIMARY KEY, label text, weight int)');
    await run(`INSERT INTO gen_dim SELECT w, CASE WHEN o % 3 = 0 THEN 'red' WHEN o % 3 = 1 THEN 'green' ELSE 'blue' END, o
      FROM unnest($1::text[]) WITH ORDINALITY AS u(w, o) WHERE o <> 5`, [WORDS]);
    await run(`CREATE TABLE gen_probe AS
      SELECT DISTINCT r.id FROM gen_rows r JOIN gen_del x ON x.file_no = r.file_no AND x.pos = r.pos
      UNION SELECT id FROM gen_rows WHERE file_no = ANY($1)
      UNION (SELECT id FROM gen_rows ORDER BY hashint8(id) LIMIT 1000)`, [info.gone]);
    await run('ANALYZE gen_probe');
    const fa = info.fa;
    // narrow id ranges over the places the DVs cut: a row-group boundary, a
    // page inside a row group, the end of the wholly deleted row group, the
    // 2^16 container boundary of the big file
    const idRanges = [];
    for (const [what, k, lo, hi] of [['rg_boundary', fa, ROW_GROUP - 15, ROW_GROUP + 15], ['mid_page', fa, 1230, 1270],
      ['deleted_rg_end', info.fb, 3 * ROW_GROUP - 5, 3 * ROW_GROUP + 30], ['container_edge', BIG_FILE, 65490, 65560]]) {
      if (k === undefined) continue;
      const [[a, b]] = await rowsOf(`SELECT min(id), max(id) FROM gen_rows WHERE file_no = $1 AND pos BETWEEN ${lo} AND ${hi}`, [k]);
      if (a !== null) idRanges.push([what, a, b]);
    }
    const [[tsEdge]] = await rowsOf('SELECT ts FROM gen_rows ORDER BY ts DESC LIMIT 1 OFFSET 40');
    const [[tsExact]] = await rowsOf(`SELECT max(ts) FROM gen_rows WHERE file_no = $1`, [info.uK ?? fa]);
    const ctx = { idRanges, tsEdge, tsExact };

    for (let v = 0; v <= 3; v++) {
      await createForeign(`delta_v${v}`, TABLE_DIR, String(v));
      await checkTarget(`v${v}`, `delta_v${v}`, v, ctx);
    }
    await createForeign('delta_latest', TABLE_DIR, null);
    await checkTarget('latest', 'delta_latest', 3, ctx);

    const small = path.join(tmp, 'small.parquet');
    await run(`COPY (SELECT ${FILE_COLS.join(', ')} FROM gen_rows WHERE file_no = 0 ORDER BY id LIMIT 3000) TO ${sqlString(small)}
      WITH (FORMAT parquet, row_group_size 1000)`);
    await badInputs(small);
    const small2 = path.join(tmp, 'small2.parquet');
    await run(`COPY (SELECT ${FILE_COLS.join(', ')} FROM gen_rows WHERE file_no = 1 ORDER BY id LIMIT 1000) TO ${sqlString(small2)}
      WITH (FORMAT parquet)`);
    await recreatedLocation(small, small2);

    if (CHECKPOINT) {
      console.log(`${STAGE}: checkpoint part (classic Parquet checkpoints; support is being added, failures here are expected for now)`);
      try {
        await checkpointCase(info, ctx);
      } catch (err) {
        check('checkpoint', [`${err.code ? showErr(err) : firstLine(err.stack || err.message)}`]);
      }
    }
    code = summary(STAGE);
  } finally {
    await c.end().catch(() => {});
    if (!KEEP) {
      await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch((err) => console.log(`${STAGE}: could not drop ${DB}: ${err.message}`));
      fs.rmSync(tmp, { recursive: true, force: true });
    } else {
      console.log(`${STAGE}: kept ${tmp} and database ${DB} (--keep)`);
    }
    await admin.end().catch(() => {});
  }
  return code;
}

main().then((code) => process.exit(code), (err) => {
  console.error(err.stack || String(err));
  console.log(`${STAGE}: 0 passed, 1 failed`);
  if (!KEEP) fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
});
