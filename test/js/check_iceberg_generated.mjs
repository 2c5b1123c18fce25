#!/usr/bin/env node
// Apache Iceberg tables generated from heap tables, read through parquet_fdw
// (format 'iceberg') and checked against the same rows kept in heap tables:
// a differential test whose truth is computed in SQL. The model is
// check_delta_generated.mjs; the tables are written here (data and delete
// files by COPY TO (FORMAT parquet) and hyparquet-writer, everything else by
// lib/iceberg_writer.mjs), nothing of the C side writes them.
//
// Tables (each a directory below the stage's directory):
//
//   part  format v2, identity-partitioned on p (6 values, one NULL: files
//         under data/p=<v>/), files by COPY TO (no Parquet field ids: the
//         schema.name-mapping.default property maps names to ids), absolute
//         local paths. ~ROWS rows, 12 files, two per partition (id ranges
//         split in halves in three partitions, by id parity in the others:
//         overlapping file bounds).
//           s1 append (two data manifests)
//           s2 position delete files, one per partition (one covering two
//              data files): ~1% of the rows of six files, plus first/last
//              rows, a run across a row-group boundary, a whole row group
//           s3 equality deletes on id, partition-scoped (p=0 and p=4): each
//              file also names ids of rows in other partitions (they stay)
//           -- schema: t renamed label (same id), extra bigint added
//           s4 append: rows with the ids s3 deleted in p=0 again (new
//              values; data sequence number 4 > 3: the delete does not
//              apply) and new ids, extra filled (older files: NULL)
//           s5 the files of p=2 removed (a rewritten manifest: EXISTING and
//              DELETED entries with explicit sequence numbers); their
//              position deletes left dangling
//         refs: tag before_deletes -> s1, branch audit -> s3, main -> s5
//   flat  format v2, unpartitioned, ROWS/2 rows in 8 files by COPY TO, its
//         paths recorded under s3://warehouse/gen/flat (read with
//         location_map 's3://warehouse/gen -> <dir>'); one file's z all NULL
//           s1 append
//           s2 one position delete file for two data files
//           s3 a file appended and an equality delete on id in the same
//              commit (sequence 3 both: the delete applies to the older
//              files only)
//           s4 an equality delete on (z, t) with NULLs (NULL equals NULL)
//   v3    format v3, files by hyparquet-writer WITH Parquet field ids (and
//         the iceberg.schema key, as Iceberg's writers do), no name mapping
//           s1 append (one file of 70,000 rows: positions past 2^16)
//           s2 deletion vectors in a Puffin file (three files)
//           -- schema: t renamed label, w int added with initial-default 7
//           s3 append of a file that has w (NULLs among its values)
//           s4 a DV replaced (old positions and more: the old entry
//              DELETED in a rewritten delete manifest) and a DV on the new
//              file
//   name_reuse  v2, field ids: z dropped and a new z (new id) added: the
//         files' z (old id) must not show (NULL)
//   bad_*  a truncated metadata JSON, a manifest list naming a missing
//         manifest, a data file missing, a wrong file_size_in_bytes, an ORC
//         data file, format-version 4
//
// Truth: the heap tables (<table>_rows: each row with its file_no and pos,
// its position in the file) and one heap table per snapshot, <table>_s<k>:
// the previous one with the snapshot's deletes applied by DELETE ... WHERE
// (positions; ids in the delete file's partition; (z, t) IS NOT DISTINCT
// FROM) and its appended rows inserted.
//
// Checks (PASS/FAIL lines):
//   gen ...      the generator's own output, without parquet_fdw: metadata
//                files, manifest lists and manifests read back with avsc
//                (field ids, Avro metadata, lengths and sizes, counts), each
//                data file's lower/upper bounds and counts against its
//                contents (hyparquet), position delete files sorted and
//                naming recorded paths, DVs read back (CRC; the roaring
//                bitmaps by a reader of lib/iceberg_writer.mjs's own), and a
//                reference reading in JS of every snapshot from those bytes
//                (spec semantics) equal to the heap truth; icebird (if in
//                node_modules) as a second reader where it supports what
//                the snapshot holds (NOTE lines elsewhere)
//   <table> s<k> by snapshot_id / by timestamp / as_of / ref, serial and
//                parallel (forced as check_delta_generated.mjs forces
//                them): SELECT * as multisets, count(*), aggregates,
//                filtered sums, GROUP BY, ORDER BY ... LIMIT, probes of the
//                deleted and re-inserted ids, the added columns. The
//                foreign table's columns: the snapshot's own schema when
//                travelling by snapshot_id, timestamp or as_of (Iceberg's
//                SnapshotUtil.schemaFor; part s1..s3 have t, no extra), the
//                current schema for the latest snapshot and refs
//                (timestamps: even snapshots at their exact time, odd ones
//                half an hour later)
//   prune        EXPLAIN (ANALYZE, FORMAT JSON): the Foreign Scan's "Files:
//                N of M (...)": N the data files whose [lower, upper] id
//                bounds (and partition) meet the qual, M the snapshot's data
//                files; rows equal the heap's
//   deletes      EXPLAIN ANALYZE of SELECT id: the scan's rows removed by
//                deletes ("Rows Removed by Deletion Vectors" or any
//                "Rows Removed by ...Delet..." counter) equal the position
//                deletes / DVs applied (equality deletes counted with them
//                or by a counter of their own), serial and parallel
//   bad_input    each bad table: SELECT * fails with the SQLSTATE given
//                (truncated JSON XX/22P02/22032, missing manifest or data
//                file 58, wrong size XX, ORC 0A, format-version 4 0A as
//                check_delta.mjs wants 0A000 for an unknown protocol), the
//                message (or detail, hint, context) names the table's
//                location or the file, and the session still reads a good
//                table
//
//   node test/js/check_iceberg_generated.mjs [--seed N] [--rows N] [--keep] [--no-icebird]
//   node test/js/check_iceberg_generated.mjs --write-only DIR [--seed N] [--rows N]
//
// --write-only writes the tables into DIR (kept), prints their layout and
// runs the gen checks only (PostgreSQL is still needed: COPY TO writes the
// files, the truths are heap tables). Otherwise the tables go below
// /tmp/parquet_fdw_test/iceberg (scripts/test.sh makes it; else /tmp), in a
// directory removed at the end unless --keep.
//
// PostgreSQL through the PG* environment variables (superuser; the server
// must see this machine's /tmp). Works in its own database
// iceberg_gen_test, created and dropped. The last line is
// "iceberg_generated: N passed, N failed".
//
//   node test/js/check_iceberg_generated.mjs --s3 [--seed N] [--rows N (default 20000)] [--keep] [--no-icebird]
//
// --s3: the same tables in a bucket, as check_delta.mjs --s3 reads its
// golden tables. They are written as above (the files still by COPY TO and
// hyparquet-writer into the stage's directory, then put into the bucket)
// but their recorded locations (metadata "location", manifest-list,
// manifest, data file, delete file and Puffin paths, the position delete
// files' file_path values, the DVs' referenced-data-file) are
// s3://lake/gen/<table>/... URLs; every file is put at exactly that key of a
// local S3 (lib/s3_emulator.mjs: s3rver behind the front that checks every
// SigV4 signature; lib/request_log.mjs in front of it notes each request),
// and read by a server with endpoint, region and url_style 'path' and a
// user mapping with the keys, with location 's3://lake/gen/<table>'. The
// exception: flat's recorded paths are local, /x/warehouse/gen/flat/...,
// read with location_map '/x/warehouse/gen -> s3://lake/gen'. Every check
// above is made again through the bucket (gen checks on the local copies,
// which the upload check shows equal to the objects; every snapshot by
// snapshot_id, timestamp, as_of and ref, serial and parallel; pruning;
// the deletes counters; the bad tables, a missing manifest or data file an
// absent object). Then, in the bucket only (PASS/FAIL lines "s3 ..."):
//   upload        each table's files listed back from the bucket under
//                 gen/<table>/ with the local files' sizes and MD5s (ETags)
//   metadata file location 's3://lake/gen/part/metadata/vN.metadata.json'
//                 (the current file, and the file of an older snapshot with
//                 its own schema; v3's current file) reads that snapshot's
//                 heap truth; the same with an explicit location_map of the
//                 table's recorded location onto itself
//   location_map  a table whose metadata records /x/warehouse/mapped and
//                 whose data file is recorded at /x/landing/mapped/...
//                 (object landing/mapped/..., outside the table's prefix)
//                 reads with location_map '/x/landing -> s3://lake/landing;
//                 /x/warehouse -> s3://lake/gen', and without the first
//                 pair fails 0A000 naming the recorded path
//   locations     's3://lake/gen/part/' (a trailing /) reads as without;
//                 a prefix holding no table fails 58P01
//   requests      over a copy of part at gen/req/ (its recorded paths still
//                 s3://lake/gen/part/..., mapped onto the copy by the
//                 table's own location), counted per statement by the
//                 request log, as iceberg_table.c caches snapshots (keyed by
//                 metadata file, its stamp (size, ETag) and snapshot id,
//                 revalidated once per statement): a first statement lists
//                 metadata/ once, GETs version-hint.text and the metadata
//                 file once and each manifest list and manifest once; each
//                 later statement over the unchanged table (or one reading
//                 it three times) lists metadata/ at most once, GETs the
//                 hint at most once, the metadata file at most once and no
//                 manifest list or manifest; a hint naming an older
//                 metadata file reads that file and its snapshot's
//                 manifests (and its rows); the hint put back reads no
//                 manifest again (the snapshot still cached); the current
//                 metadata file rewritten (other bytes) is read with its
//                 manifests again; a statement reading two snapshots of the
//                 table GETs the metadata file once per snapshot asked (a
//                 NOTE); a parallel statement over the table the leader has
//                 cached: the leader reads no manifest again, each worker
//                 (a process with a cold cache of its own) at most once
//   consistency   a commit between the leader's read of the table and its
//                 workers' (version-hint.text of a copy moved to a later
//                 metadata file the moment the request log sees the
//                 leader's GET; workers only, parallel_leader_participation
//                 off): the statement returns the rows of the metadata file
//                 the leader read: flat s3 with s4 (an equality delete)
//                 committed in between; part as its schema-change metadata
//                 file has it (current snapshot s3, current schema with
//                 label and extra) with s4 committed in between
// The last line is then "iceberg_s3: N passed, N failed".

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { counter, filesBelow } from './lib/stage.mjs';
import { canonPg, pgFamily, scaledDecimal } from './lib/canon.mjs';
import { foreignScan } from './lib/pruning.mjs';
import { newUuid, prng } from './lib/delta_dv.mjs';
import { alive, connectRetrying, sessionClient } from './lib/pg_session.mjs';
import { multisetDiff, orderedDiff } from './lib/text_rows.mjs';
import {
  FIELD_FILE_PATH, FIELD_POS, IcebergTable, PuffinFile, boundValue, dataFileRecord, fileMetrics,
  boundBytes, jsonBig, parseJsonBig, readAvro, readPuffinDvs, statsRows, statsSql, writeAvro,
} from './lib/iceberg_writer.mjs';

const argv = process.argv.slice(2);
// --s3: the tables in a bucket of a local S3 (s3rver behind the SigV4 front)
const S3 = argv.includes('--s3');
const STAGE = S3 ? 'iceberg_s3' : 'iceberg_generated';
const DB = S3 ? 'iceberg_s3_test' : 'iceberg_gen_test';
const SERVER = S3 ? 'iceberg_s3_srv' : 'iceberg_gen_srv';
const BUCKET = 'lake';
const S3_KEY = { id: 'AKIAICEBERG00000001', secret: 'iceberg/Secret+Key=01' };
/** The bucket's prefix of the generated tables: s3://lake/gen/<table> */
const S3_PREFIX = `s3://${BUCKET}/gen`;
const SESSION_OPTIONS = '-c TimeZone=UTC -c DateStyle=ISO -c extra_float_digits=1 -c statement_timeout=600s -c client_min_messages=warning';

const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const SEED = Number(opt('--seed', String(Date.now() % 1000000)));
const ROWS = Number(opt('--rows', S3 ? '20000' : '200000'));
const KEEP = argv.includes('--keep');
const WRITE_ONLY = opt('--write-only', null);
if (S3 && WRITE_ONLY) {
  console.error('--s3 and --write-only do not go together');
  process.exit(2);
}
const ICEBIRD = !argv.includes('--no-icebird');

const ROW_GROUP = 2000;
const PAGE_ROWS = 500;
const BIG_ROWS = 70000; // the v3 table's big file: positions past 2^16
const WORDS = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig', 'grape', 'hazel', 'kiwi', 'lemon', 'mango', 'nectarine'];
const PARTS = [0, 1, 2, 3, 4, null];
const T0 = Date.UTC(2024, 2, 1, 10, 0, 0); // snapshot times: T0 + table offset + k hours
const HOUR = 3600000;
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
const note = (s) => console.log(`NOTE ${s}`);
const iso = (ms) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '+00');

// ------------------------------------------------------------ PostgreSQL

const pgClient = (database) => sessionClient(SESSION_OPTIONS, { database });

let c = null; // the session in DB
const rowsOf = async (sql, params) => (await c.query({ text: sql, values: params, rowMode: 'array', types: TEXT })).rows;
const run = async (sql, params) => c.query(sql, params);

async function reconnect() {
  await c?.end().catch(() => {});
  c = await connectRetrying(() => pgClient(DB), 60000, (cl) => cl.query(`LOAD 'parquet_fdw'`));
}

// ----------------------------------------------------------- directories

function stageRoot() {
  if (WRITE_ONLY) {
    const dir = path.resolve(WRITE_ONLY);
    if (fs.existsSync(dir) && fs.readdirSync(dir).length) throw new Error(`--write-only ${dir}: not empty`);
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o777);
    return dir;
  }
  const base = fs.existsSync('/tmp/parquet_fdw_test/iceberg') ? '/tmp/parquet_fdw_test/iceberg' : '/tmp';
  const dir = fs.mkdtempSync(path.join(base, base === '/tmp' ? 'iceberg_gen_' : 'gen_'));
  fs.chmodSync(dir, 0o777);
  return dir;
}
const OUT = stageRoot();
// flat's recorded prefix: a bucket the tests never reach (mapped onto the
// stage's directory), or with --s3 local paths (mapped into the bucket)
const FAKE_PREFIX = S3 ? '/x/warehouse/gen' : 's3://warehouse/gen';
const LOCATION_MAP = S3 ? `${FAKE_PREFIX} -> ${S3_PREFIX}` : `${FAKE_PREFIX} -> ${OUT}`;
/** The location a table's metadata records: its directory, or with --s3 its URL in the bucket. */
const recordedLocation = (key, dir) => (S3 ? `${S3_PREFIX}/${key}` : dir);

function mkdirOpen(dir) {
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o777); // the server (user postgres) writes the COPY TO files
}

/** Local path of a recorded path (the fake prefix, or with --s3 the bucket's, mapped). */
function localOf(p) {
  for (const pre of S3 ? [FAKE_PREFIX, S3_PREFIX] : [FAKE_PREFIX]) if (p.startsWith(`${pre}/`)) return path.join(OUT, p.slice(pre.length + 1));
  return p;
}

// ------------------------------------------------------------ schemas

/** A field: id, Iceberg name and type, the heap column (sql), extra attributes. */
const F = (id, name, type, sql = name, more = {}) => ({ id, name, type, sql, ...more });
// eslint-disable-next-line no-unused-vars
const icebergFields = (fields) => fields.map(({ sql, id, name, type, required = false, ...rest }) => ({ id, name, required, type, ...rest }));
const PG_TYPE = { long: 'bigint', int: 'integer', string: 'text', 'decimal(12,2)': 'numeric(12,2)', date: 'date', timestamptz: 'timestamptz', double: 'double precision', boolean: 'boolean' };

const BASE = (txt, idRequired = false) => [F(1, 'id', 'long', 'id', { required: idRequired }), F(2, 'i', 'int'), F(3, txt, 'string', 'txt_col')];
const REST = (first) => [F(first, 'n', 'decimal(12,2)'), F(first + 1, 'd', 'date'), F(first + 2, 'ts', 'timestamptz'),
  F(first + 3, 'f', 'double'), F(first + 4, 'b', 'boolean'), F(first + 5, 'z', 'int')];

// part: heap column of field 3 is label
const PART0 = [...BASE('t').map((f) => (f.id === 3 ? { ...f, sql: 'label' } : f)), F(4, 'p', 'int'), ...REST(5)];
const PART1 = [...PART0.map((f) => (f.id === 3 ? { ...f, name: 'label' } : f)), F(11, 'extra', 'long')];
const FLAT0 = [...BASE('t').map((f) => (f.id === 3 ? { ...f, sql: 't' } : f)), ...REST(4)];
const V3_0 = [...BASE('t', true).map((f) => (f.id === 3 ? { ...f, sql: 'label' } : f)), ...REST(4)];
const V3_1 = [...V3_0.map((f) => (f.id === 3 ? { ...f, name: 'label' } : f)), F(10, 'w', 'int', 'w', { 'initial-default': 7, 'write-default': 7 })];

/** The foreign table's columns: the current schema's names and types. */
const ddlOf = (fields) => fields.map((f) => `${f.name} ${PG_TYPE[f.type]}`).join(', ');

// --------------------------------------------------------------- helpers

/** n distinct random picks of arr */
function sampleOf(arr, n) {
  const a = [...arr];
  const out = [];
  n = Math.min(n, a.length);
  for (let j = 0; j < n; j++) {
    const x = j + Math.floor(rand() * (a.length - j));
    [a[j], a[x]] = [a[x], a[j]];
    out.push(a[j]);
  }
  return out;
}
const range = (lo, hi) => Array.from({ length: Math.max(0, hi - lo + 1) }, (_, j) => lo + j); // inclusive
const pad5 = (k) => String(k).padStart(5, '0');
const uuid = () => newUuid(rand).text;
const words = `ARRAY[${WORDS.map(sqlString).join(', ')}]`;

/** The heap's random rows with ids from..to (column txt_col: the text column). */
const genSql = (from, to) => `SELECT g::bigint AS id,
    (random() * 2000000 - 1000000)::int AS i,
    CASE WHEN random() < 0.02 THEN NULL ELSE (${words})[1 + floor(random() * random() * ${WORDS.length})::int] END AS txt_col,
    round(((random() - 0.5) * 2000000)::numeric, 2)::numeric(12,2) AS n,
    date '2000-01-01' + floor(random() * 10000)::int AS d,
    timestamptz '2015-01-01 00:00:00+00' + random() * interval '3000 days' AS ts,
    CASE WHEN random() < 0.05 THEN NULL ELSE random() * 2000000 - 1000000 END AS f,
    random() < 0.3 AS b,
    CASE WHEN random() < 0.15 THEN NULL ELSE floor(random() * 1000)::int END AS z
  FROM generate_series(${from}, ${to}) g`;

/** COPY TO a Parquet file; returns its size. */
async function copyTo(query, abs) {
  mkdirOpen(path.dirname(abs));
  await run(`COPY (${query}) TO ${sqlString(abs)} WITH (FORMAT parquet, row_group_size ${ROW_GROUP}, data_page_rows ${PAGE_ROWS})`);
  return fs.statSync(abs).size;
}

const selectList = (fields) => fields.map((f) => `${f.sql} AS ${f.name}`).join(', ');

/** Per-file statistics of heap rows (file_no in ks) for fields: Map file_no -> {rows, cols}. */
async function statsOf(heap, ks, fields) {
  const cols = fields.map((f) => ({ name: f.sql, id: f.id, type: f.type }));
  const rows = await rowsOf(statsSql(`(SELECT * FROM ${heap} WHERE file_no = ANY($1)) s`, 'file_no', cols), [ks]);
  return new Map(statsRows(rows, cols).map((s) => [Number(s.key), s]));
}

// --------------------------------------------------------------- tables

/**
 * The state of one generated table: its IcebergTable (t), its data files
 * (files[file_no] = {k, rel, recorded, rows, size, idMin, idMax, p,
 * snap (added by)}), its snapshots (snaps[k] = {k, id, seq, ts, live
 * (file_nos), pos (Map file_no -> Set of positions deleted by position
 * deletes / DVs), metadata (vN.metadata.json where it is current)}), the
 * foreign table's options, the columns and the probe ids.
 */
const tables = {};

function newState(key, { schemas, opts = {}, group }) {
  const ids = Object.keys(schemas).map(Number);
  const st = { key, files: [], snaps: [null], schemas, fields: schemas[Math.max(...ids)], opts, group, probe: new Set() };
  tables[key] = st;
  return st;
}

/**
 * The columns a read of snapshot s has: the snapshot's own schema when it
 * is chosen by snapshot_id, timestamp or parquet_fdw.as_of (as Iceberg's
 * SnapshotUtil.schemaFor: time travel reads the schema the snapshot was
 * written with), the current schema otherwise (the latest snapshot, refs).
 */
function fieldsAt(st, s, timeTravel) {
  if (!timeTravel) return st.fields;
  const snap = st.t.snapshots.find((x) => x['snapshot-id'] === st.snaps[s].id);
  return st.schemas[snap['schema-id']];
}

/** Truth table of snapshot k: the previous one (or from), then statements. */
async function makeTruth(st, k, { from = null, statements = [] }) {
  const name = `${st.key}_s${k}`;
  await run(`CREATE TABLE ${name} AS SELECT * FROM ${from ?? `${st.key}_s${k - 1}`}`);
  for (const s of statements) await run(s.replaceAll('{S}', name));
  await run(`ANALYZE ${name}`);
}

function snapRecord(st, k, commit, live, pos, extra = {}) {
  st.snaps[k] = {
    k, id: commit.snapshotId, seq: commit.seq, ts: commit.snapshot['timestamp-ms'], live: [...live].sort((a, b) => a - b),
    pos, metadata: path.basename(commit.metadataRel), ...extra,
  };
}

const copyPos = (m) => new Map([...m].map(([k, s]) => [k, new Set(s)]));

/** Random positions: ~pct of n, plus extra ones (those < n). */
function positions(n, pct, extra = []) {
  const s = new Set(sampleOf(range(0, n - 1), Math.max(1, Math.round(n * pct))));
  for (const p of extra) if (p >= 0 && p < n) s.add(p);
  return s;
}

/** A position delete file (file_path, pos) written by COPY TO from heap rows; its manifest entry's data_file. */
async function positionDeleteFile(st, rel, byFile, partition = {}) {
  await run('CREATE TEMP TABLE IF NOT EXISTS posdel_src (file_path text, pos bigint)');
  await run('TRUNCATE posdel_src');
  for (const [k, set] of byFile) {
    await run('INSERT INTO posdel_src SELECT $1, unnest($2::bigint[])', [st.files[k].recorded, [...set]]);
  }
  const size = await copyTo('SELECT file_path, pos FROM posdel_src ORDER BY file_path COLLATE "C", pos', st.t.local(rel));
  const [[n, minPath, maxPath, minPos, maxPos]] = await rowsOf('SELECT count(*), min(file_path COLLATE "C"), max(file_path COLLATE "C"), min(pos)::text, max(pos)::text FROM posdel_src');
  const metrics = fileMetrics([
    { id: FIELD_FILE_PATH, type: 'string', rows: Number(n), nulls: 0, min: minPath, max: maxPath },
    { id: FIELD_POS, type: 'long', rows: Number(n), nulls: 0, min: minPos, max: maxPos },
  ]);
  return { ...dataFileRecord({ recordedPath: st.t.path(rel), size, rows: Number(n), partition, metrics, sortOrderId: null }), content: 1 };
}

/** An equality delete file from heap rows (query giving the equality columns); its data_file. */
async function equalityDeleteFile(st, rel, query, eqFields, partition = {}) {
  await run('DROP TABLE IF EXISTS eqdel_src');
  await run(`CREATE TEMP TABLE eqdel_src AS ${query}`);
  const size = await copyTo(`SELECT ${eqFields.map((f) => f.name).join(', ')} FROM eqdel_src ORDER BY ${eqFields.map((f) => f.name).join(', ')}`, st.t.local(rel));
  const cols = eqFields.map((f) => ({ name: f.name, id: f.id, type: f.type }));
  const [s] = statsRows(await rowsOf(statsSql('(SELECT 1 AS one, * FROM eqdel_src) s', 'one', cols)), cols);
  return {
    ...dataFileRecord({ recordedPath: st.t.path(rel), size, rows: s.rows, partition, metrics: fileMetrics(s.cols), sortOrderId: null }),
    content: 2, equality_ids: eqFields.map((f) => f.id),
  };
}

/** Writes data files of heap rows file_no = k (COPY TO) and records them; returns their data_file records. */
async function copyDataFiles(st, heap, ks, fields, relOf, snapIndex) {
  const recs = [];
  for (const k of ks) {
    const rel = relOf(k);
    const size = await copyTo(`SELECT ${selectList(fields)} FROM ${heap} WHERE file_no = ${k} ORDER BY id, i`, st.t.local(rel));
    st.files[k] = { k, rel, recorded: st.t.path(rel), size, snap: snapIndex };
  }
  const stats = await statsOf(heap, ks, fields);
  for (const k of ks) {
    const s = stats.get(k);
    const f = st.files[k];
    f.rows = s.rows;
    const idc = s.cols.find((x) => x.id === 1);
    f.idMin = BigInt(idc.min);
    f.idMax = BigInt(idc.max);
    const pf = st.partitionSql ? s.cols.find((x) => x.id === st.partitionFieldSource) : null;
    f.p = pf ? (pf.min === null ? null : Number(pf.min)) : undefined;
    if (pf && pf.min !== pf.max) throw new Error(`harness: file ${k} holds several partition values`);
    recs.push(dataFileRecord({ recordedPath: f.recorded, size: f.size, rows: f.rows, partition: st.partitionSql ? { p: f.p } : {}, metrics: fileMetrics(s.cols) }));
  }
  return recs;
}

const added = (dataFile) => ({ status: 1, dataFile });

// ------------------------------------------------------------------ part

async function buildPart() {
  const st = newState('part', { schemas: { 0: PART0, 1: PART1 }, group: 'p' });
  st.partitionSql = 'p';
  st.partitionFieldSource = 4;
  const dir = path.join(OUT, 'part');
  const t = st.t = new IcebergTable({
    dir, location: recordedLocation('part', dir), formatVersion: 2, schema: { fields: icebergFields(PART0) }, rand, nameMapping: true,
    partitionFields: [{ name: 'p', sourceId: 4, fieldId: 1000 }],
    properties: { 'write.format.default': 'parquet', 'write.delete.mode': 'merge-on-read' }, lastUpdatedMs: T0,
  });
  t.writeMetadata(); // v1: the table created, no snapshot
  const R = ROWS;
  await run(`SELECT setseed(${(SEED % 997) / 997})`);
  await run(`CREATE TABLE part_rows AS
    WITH base AS (${genSql(1, R)}),
    b AS (SELECT base.*, floor((id - 1) * 6 / ${R})::int AS blk FROM base),
    r AS (SELECT b.*, row_number() OVER (PARTITION BY blk ORDER BY id) - 1 AS rk, count(*) OVER (PARTITION BY blk) AS cnt FROM b),
    f AS (SELECT r.*, 2 * blk + CASE WHEN blk % 2 = 0 THEN floor(rk * 2 / cnt)::int ELSE (id % 2)::int END AS file_no FROM r)
    SELECT id, i, txt_col AS label, (ARRAY[0, 1, 2, 3, 4, NULL]::int[])[blk + 1] AS p, n, d, ts, f, b, z,
      NULL::bigint AS extra, file_no, (row_number() OVER (PARTITION BY file_no ORDER BY id) - 1)::int AS pos
    FROM f`);
  await run('UPDATE part_rows SET z = NULL WHERE file_no = 7'); // one file's z all NULL
  const pv = (p) => (p === null ? 'null' : String(p));
  const partOf = (k) => PARTS[Math.floor(k / 2)];
  const relOf = (k) => `data/p=${pv(partOf(k))}/${pad5(k)}-${uuid()}-00001.parquet`;

  // s1: append, two data manifests
  const recs = await copyDataFiles(st, 'part_rows', range(0, 11), PART0, relOf, 1);
  const c1 = t.commit({
    operation: 'append', timestampMs: T0 + HOUR,
    add: [{ content: 0, entries: recs.slice(0, 6).map(added) }, { content: 0, entries: recs.slice(6).map(added) }],
    summary: { 'added-data-files': 12, 'added-records': recs.reduce((s, r) => s + Number(r.record_count), 0) },
  });
  st.m1a = c1.manifests[0].file;
  await makeTruth(st, 1, { from: '(SELECT * FROM part_rows WHERE file_no < 12) s' });
  snapRecord(st, 1, c1, range(0, 11), new Map());

  // s2: position deletes, one file per partition (p=null: one file for two data files)
  const f = st.files;
  const del2 = new Map([
    [0, positions(f[0].rows, 0.01, range(ROW_GROUP - 10, ROW_GROUP + 10))],
    [3, positions(f[3].rows, 0.01, range(3 * ROW_GROUP, 4 * ROW_GROUP - 1))], // a whole row group
    [5, positions(f[5].rows, 0.01, [0, f[5].rows - 1])],
    [6, positions(f[6].rows, 0.01, [0])],
    [10, positions(f[10].rows, 0.01, [f[10].rows - 1])],
    [11, positions(f[11].rows, 0.01, range(f[11].rows - 6, f[11].rows - 1))],
  ]);
  const groups = new Map();
  for (const [k, s] of del2) {
    const p = partOf(k);
    if (!groups.has(p)) groups.set(p, new Map());
    groups.get(p).set(k, s);
  }
  const posFiles = [];
  for (const [p, byFile] of groups) {
    posFiles.push(await positionDeleteFile(st, `data/p=${pv(p)}/${pad5(90 + posFiles.length)}-${uuid()}-deletes.parquet`, byFile, { p }));
  }
  const c2 = t.commit({ operation: 'delete', timestampMs: T0 + 2 * HOUR, add: [{ content: 1, entries: posFiles.map(added) }],
    summary: { 'added-delete-files': posFiles.length, 'added-position-deletes': [...del2.values()].reduce((s, x) => s + x.size, 0) } });
  await run('CREATE TABLE part_pos (snap int, file_no int, pos int)');
  for (const [k, s] of del2) await run('INSERT INTO part_pos SELECT 2, $1, unnest($2::int[])', [k, [...s]]);
  await makeTruth(st, 2, { statements: ['DELETE FROM {S} r USING part_pos x WHERE x.snap = 2 AND x.file_no = r.file_no AND x.pos = r.pos'] });
  snapRecord(st, 2, c2, range(0, 11), del2);

  // s3: equality deletes on id in p=0 and p=4, each naming ids of other partitions too (they stay)
  const idsIn = async (p, n, not = []) => (await rowsOf(`SELECT id FROM part_s2 WHERE p = $1 AND NOT (id = ANY($2::bigint[])) ORDER BY id`, [p, not])).map((r) => r[0]);
  const eq0 = sampleOf(await idsIn(0, 0), Math.max(3, Math.round(R / 6 * 0.005)));
  const trap3 = sampleOf(await idsIn(3, 0), 3);
  const eq4 = sampleOf(await idsIn(4, 0), Math.max(3, Math.round(R / 6 * 0.004)));
  const trap0 = sampleOf(await idsIn(0, 0, eq0), 3);
  await run('CREATE TABLE part_eq (snap int, p int, id bigint)');
  await run('INSERT INTO part_eq SELECT 3, 0, unnest($1::bigint[])', [[...eq0, ...trap3, String(10 * R + 7)]]);
  await run('INSERT INTO part_eq SELECT 3, 4, unnest($1::bigint[])', [[...eq4, ...trap0]]);
  const idField = [PART0[0]];
  const eqFiles = [
    await equalityDeleteFile(st, `data/p=0/${pad5(95)}-${uuid()}-eq-deletes.parquet`, 'SELECT id FROM part_eq WHERE snap = 3 AND p = 0', idField, { p: 0 }),
    await equalityDeleteFile(st, `data/p=4/${pad5(96)}-${uuid()}-eq-deletes.parquet`, 'SELECT id FROM part_eq WHERE snap = 3 AND p = 4', idField, { p: 4 }),
  ];
  const c3 = t.commit({ operation: 'delete', timestampMs: T0 + 3 * HOUR, add: [{ content: 1, entries: eqFiles.map(added) }],
    summary: { 'added-delete-files': 2, 'added-equality-deletes': eqFiles.reduce((s, x) => s + Number(x.record_count), 0) } });
  await makeTruth(st, 3, { statements: ['DELETE FROM {S} r USING part_eq e WHERE e.snap = 3 AND r.id = e.id AND r.p IS NOT DISTINCT FROM e.p'] });
  snapRecord(st, 3, c3, range(0, 11), copyPos(del2));
  for (const id of [...eq0.slice(0, 20), ...trap3, ...eq4.slice(0, 10), ...trap0]) st.probe.add(String(id));

  // schema: t renamed label, extra added (metadata only)
  t.evolveSchema(icebergFields(PART1), { timestampMs: T0 + 3 * HOUR + 20 * 60000 });

  // s4: the ids s3 deleted in p=0 inserted again (i + 1, extra) with new ones (file 12, p=0), new ids (file 13, p=null)
  await run(`INSERT INTO part_rows
    SELECT id, i + 1, label, p, n, d, ts, f, b, z, id * 10, 12, 0 FROM part_rows WHERE file_no < 12 AND id = ANY($1::bigint[])`, [eq0]);
  await run(`INSERT INTO part_rows SELECT id, i, txt_col, 0, n, d, ts, f, b, z, CASE WHEN random() < 0.1 THEN NULL ELSE id * 3 END, 12, 0
    FROM (${genSql(R + 1, R + 300)}) s`);
  await run(`INSERT INTO part_rows SELECT id, i, txt_col, NULL, n, d, ts, f, b, z, CASE WHEN random() < 0.1 THEN NULL ELSE -id END, 13, 0
    FROM (${genSql(R + 301, R + 800)}) s`);
  await run(`UPDATE part_rows r SET pos = x.pos FROM (SELECT ctid, (row_number() OVER (PARTITION BY file_no ORDER BY id) - 1)::int AS pos
    FROM part_rows WHERE file_no IN (12, 13)) x WHERE r.ctid = x.ctid`);
  const recs4 = await copyDataFiles(st, 'part_rows', [12, 13], PART1, (k) => `data/p=${k === 12 ? '0' : 'null'}/${pad5(k)}-${uuid()}-00001.parquet`, 4);
  const c4 = t.commit({ operation: 'append', timestampMs: T0 + 4 * HOUR, add: [{ content: 0, entries: recs4.map(added) }],
    summary: { 'added-data-files': 2 } });
  await makeTruth(st, 4, { statements: ['INSERT INTO {S} SELECT * FROM part_rows WHERE file_no IN (12, 13)'] });
  snapRecord(st, 4, c4, range(0, 13), copyPos(del2));
  for (const id of [R + 1, R + 300, R + 301, R + 800]) st.probe.add(String(id));

  // s5: the files of p=2 (4 and 5) removed: manifest 1a rewritten
  const c1Seq = c1.seq;
  const c5 = t.commit({
    operation: 'delete', timestampMs: T0 + 5 * HOUR, keep: (m) => m !== st.m1a,
    add: [{ content: 0, entries: recs.slice(0, 6).map((dataFile, j) => (j < 4
      ? { status: 0, snapshotId: c1.snapshotId, seq: c1Seq, fileSeq: c1Seq, dataFile }
      : { status: 2, seq: c1Seq, fileSeq: c1Seq, dataFile })) }],
    summary: { 'deleted-data-files': 2 },
  });
  await makeTruth(st, 5, { statements: ['DELETE FROM {S} WHERE p = 2'] });
  snapRecord(st, 5, c5, [0, 1, 2, 3, ...range(6, 13)], copyPos(del2));
  st.removedFiles = [4, 5];

  t.setRef('before_deletes', c1.snapshotId, 'tag');
  t.setRef('audit', c3.snapshotId, 'branch');
  t.writeMetadata(); // the refs
  st.snaps[5].metadata = path.basename(t.metadataFiles[t.metadataFiles.length - 1].rel);
  st.refs = { before_deletes: 1, audit: 3, main: 5 };
  st.tags = new Set(['before_deletes']);
  st.location = dir;
  return st;
}

// ------------------------------------------------------------------ flat

async function buildFlat() {
  const st = newState('flat', { schemas: { 0: FLAT0 }, group: 't', opts: { location_map: LOCATION_MAP } });
  const dir = path.join(OUT, 'flat');
  const t = st.t = new IcebergTable({
    dir, location: `${FAKE_PREFIX}/flat`, formatVersion: 2, schema: { fields: icebergFields(FLAT0) }, rand, nameMapping: true,
    properties: { 'write.format.default': 'parquet' }, lastUpdatedMs: T0 + 10 * HOUR,
  });
  t.writeMetadata();
  const R = Math.max(16000, Math.floor(ROWS / 2));
  await run(`SELECT setseed(${((SEED + 1) % 997) / 997})`);
  await run(`CREATE TABLE flat_rows AS
    WITH base AS (${genSql(1, R)}), f AS (SELECT base.*, floor((id - 1) * 8 / ${R})::int AS file_no FROM base)
    SELECT id, i, txt_col AS t, n, d, ts, f, b, z, file_no, (row_number() OVER (PARTITION BY file_no ORDER BY id) - 1)::int AS pos FROM f`);
  await run('UPDATE flat_rows SET z = NULL WHERE file_no = 6');
  const relOf = (k) => `data/${pad5(k)}-${uuid()}-00001.parquet`;
  const recs = await copyDataFiles(st, 'flat_rows', range(0, 7), FLAT0, relOf, 1);
  const c1 = t.commit({ operation: 'append', timestampMs: T0 + 11 * HOUR, add: [{ content: 0, entries: recs.map(added) }] });
  await makeTruth(st, 1, { from: 'flat_rows' });
  snapRecord(st, 1, c1, range(0, 7), new Map());

  // s2: one position delete file for files 2 and 5
  const f = st.files;
  const del2 = new Map([[2, positions(f[2].rows, 0.01, [0, f[2].rows - 1])], [5, positions(f[5].rows, 0.012, range(ROW_GROUP - 3, ROW_GROUP + 3))]]);
  const pf = await positionDeleteFile(st, `data/${pad5(90)}-${uuid()}-deletes.parquet`, del2);
  const c2 = t.commit({ operation: 'delete', timestampMs: T0 + 12 * HOUR, add: [{ content: 1, entries: [added(pf)] }] });
  await run('CREATE TABLE flat_pos (snap int, file_no int, pos int)');
  for (const [k, s] of del2) await run('INSERT INTO flat_pos SELECT 2, $1, unnest($2::int[])', [k, [...s]]);
  await makeTruth(st, 2, { statements: ['DELETE FROM {S} r USING flat_pos x WHERE x.snap = 2 AND x.file_no = r.file_no AND x.pos = r.pos'] });
  snapRecord(st, 2, c2, range(0, 7), del2);

  // s3: file 8 appended and an equality delete on id in the same commit
  await run(`INSERT INTO flat_rows SELECT id, i, txt_col, n, d, ts, f, b, z, 8, (id - ${R + 1})::int FROM (${genSql(R + 1, R + 2000)}) s`);
  const [rec8] = await copyDataFiles(st, 'flat_rows', [8], FLAT0, relOf, 3);
  const olds = (await rowsOf('SELECT id FROM flat_s2 ORDER BY id')).map((r) => r[0]);
  const eq3 = sampleOf(olds, Math.max(5, Math.round(R * 0.003)));
  const eq3new = sampleOf(range(R + 1, R + 2000).map(String), 20);
  await run('CREATE TABLE flat_eq3 (id bigint)');
  await run('INSERT INTO flat_eq3 SELECT unnest($1::bigint[])', [[...eq3, ...eq3new]]);
  const e3 = await equalityDeleteFile(st, `data/${pad5(91)}-${uuid()}-eq-deletes.parquet`, 'SELECT id FROM flat_eq3', [FLAT0[0]]);
  const c3 = t.commit({ operation: 'overwrite', timestampMs: T0 + 13 * HOUR,
    add: [{ content: 0, entries: [added(rec8)] }, { content: 1, entries: [added(e3)] }] });
  await makeTruth(st, 3, { statements: ['DELETE FROM {S} r USING flat_eq3 e WHERE r.id = e.id', 'INSERT INTO {S} SELECT * FROM flat_rows WHERE file_no = 8'] });
  snapRecord(st, 3, c3, range(0, 8), copyPos(del2));
  for (const id of [...eq3.slice(0, 15), ...eq3new.slice(0, 10)]) st.probe.add(String(id));

  // s4: equality delete on (z, t), NULLs among the values
  // sampled pairs with a z (each ~20 rows); the NULL-bearing pairs fixed (a sampled (NULL, 'apple') would take 4%)
  const pairs = await rowsOf('SELECT z, t FROM flat_s3 WHERE z IS NOT NULL AND t IS NOT NULL ORDER BY id');
  const chosen = new Map();
  for (const [z, tt] of sampleOf(pairs, 25)) chosen.set(`${z}|${tt}`, [z, tt]);
  for (const p of [[null, 'kiwi'], [null, null], ['17', null], ['250', 'fig']]) chosen.set(`${p[0]}|${p[1]}`, p);
  await run('CREATE TABLE flat_eq4 (z int, t text)');
  for (const [z, tt] of chosen.values()) await run('INSERT INTO flat_eq4 VALUES ($1, $2)', [z, tt]);
  const e4 = await equalityDeleteFile(st, `data/${pad5(92)}-${uuid()}-eq-deletes.parquet`, 'SELECT z, t FROM flat_eq4',
    [FLAT0.find((x) => x.name === 'z'), FLAT0.find((x) => x.name === 't')]);
  const c4 = t.commit({ operation: 'delete', timestampMs: T0 + 14 * HOUR, add: [{ content: 1, entries: [added(e4)] }] });
  await makeTruth(st, 4, { statements: ['DELETE FROM {S} r USING flat_eq4 e WHERE r.z IS NOT DISTINCT FROM e.z AND r.t IS NOT DISTINCT FROM e.t'] });
  snapRecord(st, 4, c4, range(0, 8), copyPos(del2));
  const nullHits = await rowsOf(`SELECT id FROM flat_s3 r WHERE EXISTS (SELECT 1 FROM flat_eq4 e WHERE (e.z IS NULL OR e.t IS NULL)
    AND r.z IS NOT DISTINCT FROM e.z AND r.t IS NOT DISTINCT FROM e.t) ORDER BY id LIMIT 15`);
  for (const [id] of nullHits) st.probe.add(id);
  st.location = `${FAKE_PREFIX}/flat`;
  return st;
}

// -------------------------------------------------------------------- v3

const HP = { // hyparquet-writer schema elements by Iceberg type
  long: { type: 'INT64' },
  int: { type: 'INT32' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  'decimal(12,2)': { type: 'INT64', converted_type: 'DECIMAL', scale: 2, precision: 12, logical_type: { type: 'DECIMAL', scale: 2, precision: 12 } },
  date: { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
  timestamptz: { type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } },
  double: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
};

/** Heap rows of file k as hyparquet-writer column data for fields; writes the file with field ids. */
async function writeFieldIdFile(heap, k, fields, abs, { kvSchema = null } = {}) {
  const exprs = fields.map((f) => {
    switch (f.type) {
      case 'decimal(12,2)': return `(${f.sql} * 100)::bigint::text`;
      case 'date': return `(${f.sql} - date '1970-01-01')::text`;
      case 'timestamptz': return `(extract(epoch FROM ${f.sql}) * 1000000)::bigint::text`;
      default: return `${f.sql}::text`;
    }
  });
  // ORDER BY the table's columns (the output columns are text)
  const rows = await rowsOf(`SELECT ${exprs.join(', ')} FROM ${heap} h WHERE file_no = ${k} ORDER BY h.id, h.i`);
  const conv = (type, v) => {
    if (v === null) return null;
    switch (type) {
      case 'long': case 'decimal(12,2)': case 'timestamptz': return BigInt(v);
      case 'int': case 'date': case 'double': return Number(v);
      case 'boolean': return v === 't' || v === 'true';
      default: return v;
    }
  };
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const schema = [{ name: 'table', num_children: fields.length }, ...fields.map((f) => ({
    name: f.name, ...HP[f.type], repetition_type: f.required ? 'REQUIRED' : 'OPTIONAL', field_id: f.id,
  }))];
  const columnData = fields.map((f, j) => ({ name: f.name, data: rows.map((r) => conv(f.type, r[j])) }));
  const buf = parquetWriteBuffer({
    columnData, schema, rowGroupSize: ROW_GROUP, statistics: true,
    kvMetadata: kvSchema ? [{ key: 'iceberg.schema', value: JSON.stringify(kvSchema) }] : undefined,
  });
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, Buffer.from(buf));
  return fs.statSync(abs).size;
}

async function fieldIdDataFiles(st, heap, ks, fields, relOf, snapIndex, kvSchema) {
  for (const k of ks) {
    const rel = relOf(k);
    const size = await writeFieldIdFile(heap, k, fields, st.t.local(rel), { kvSchema });
    st.files[k] = { k, rel, recorded: st.t.path(rel), size, snap: snapIndex };
  }
  const stats = await statsOf(heap, ks, fields);
  return ks.map((k) => {
    const s = stats.get(k);
    const f = st.files[k];
    f.rows = s.rows;
    const idc = s.cols.find((x) => x.id === 1);
    f.idMin = BigInt(idc.min);
    f.idMax = BigInt(idc.max);
    return dataFileRecord({ recordedPath: f.recorded, size: f.size, rows: f.rows, metrics: fileMetrics(s.cols) });
  });
}

async function buildV3() {
  const st = newState('v3', { schemas: { 0: V3_0, 1: V3_1 }, group: 3 });
  const dir = path.join(OUT, 'v3');
  const t = st.t = new IcebergTable({
    dir, location: recordedLocation('v3', dir), formatVersion: 3, schema: { fields: icebergFields(V3_0) }, rand,
    properties: { 'write.format.default': 'parquet', 'write.delete.mode': 'merge-on-read' }, lastUpdatedMs: T0 + 20 * HOUR,
  });
  t.writeMetadata();
  const small = Math.max(3000, Math.floor(ROWS / 20));
  await run(`SELECT setseed(${((SEED + 2) % 997) / 997})`);
  // files 0 and 1 interleaved (by parity) over 2 * small ids, 2..4 consecutive, 5 the big one
  await run(`CREATE TABLE v3_rows AS
    WITH base AS (${genSql(1, 5 * small + BIG_ROWS)}),
    f AS (SELECT base.*, CASE WHEN id <= 2 * ${small} THEN (id % 2)::int WHEN id <= 5 * ${small} THEN 2 + ((id - 2 * ${small} - 1) / ${small})::int ELSE 5 END AS file_no FROM base)
    SELECT id, i, txt_col AS label, n, d, ts, f, b, z, 7 AS w, file_no, (row_number() OVER (PARTITION BY file_no ORDER BY id) - 1)::int AS pos FROM f`);
  const relOf = (k) => `data/${pad5(k)}-${uuid()}-00001.parquet`;
  const kv0 = { type: 'struct', 'schema-id': 0, fields: icebergFields(V3_0) };
  const recs = await fieldIdDataFiles(st, 'v3_rows', range(0, 5), V3_0, relOf, 1, kv0);
  const c1 = t.commit({ operation: 'append', timestampMs: T0 + 21 * HOUR, add: [{ content: 0, entries: recs.map(added) }] });
  await makeTruth(st, 1, { from: 'v3_rows' });
  snapRecord(st, 1, c1, range(0, 5), new Map());

  // s2: DVs in one Puffin file on files 0, 2, 5
  const f = st.files;
  const del2 = new Map([
    [0, positions(f[0].rows, 0.01, [0, f[0].rows - 1])],
    [2, positions(f[2].rows, 0.01, range(ROW_GROUP, 2 * ROW_GROUP - 1).concat(range(ROW_GROUP * 2 - 5, ROW_GROUP * 2 + 5)))],
    [5, positions(f[5].rows, 0.01, [...range(65530, 65541), f[5].rows - 1])],
  ]);
  const puffinEntries = (puffin, rel, dvs) => dvs.map(([k, set]) => {
    const d = puffin.addDv(f[k].recorded, [...set]);
    return { k, d };
  }).map(({ k, d }) => ({
    content: 1, file_path: t.path(rel), file_format: 'PUFFIN', partition: {}, record_count: BigInt(d.cardinality),
    file_size_in_bytes: 0n, referenced_data_file: f[k].recorded, content_offset: BigInt(d.offset), content_size_in_bytes: BigInt(d.length),
  }));
  const p2 = new PuffinFile();
  const p2rel = `data/${pad5(90)}-${uuid()}-deletes.puffin`;
  const dv2 = puffinEntries(p2, p2rel, [...del2]);
  fs.writeFileSync(t.local(p2rel), p2.bytes());
  for (const e of dv2) e.file_size_in_bytes = BigInt(fs.statSync(t.local(p2rel)).size);
  const c2 = t.commit({ operation: 'delete', timestampMs: T0 + 22 * HOUR, add: [{ content: 1, entries: dv2.map(added) }] });
  st.dvManifest2 = c2.manifests[0].file;
  await run('CREATE TABLE v3_pos (snap int, file_no int, pos int)');
  for (const [k, s] of del2) await run('INSERT INTO v3_pos SELECT 2, $1, unnest($2::int[])', [k, [...s]]);
  await makeTruth(st, 2, { statements: ['DELETE FROM {S} r USING v3_pos x WHERE x.snap = 2 AND x.file_no = r.file_no AND x.pos = r.pos'] });
  snapRecord(st, 2, c2, range(0, 5), del2);

  // schema: t renamed label, w added with initial-default 7
  t.evolveSchema(icebergFields(V3_1), { timestampMs: T0 + 22 * HOUR + 20 * 60000 });

  // s3: file 6, written with w (some NULL)
  const base6 = 5 * small + BIG_ROWS;
  await run(`INSERT INTO v3_rows SELECT id, i, txt_col, n, d, ts, f, b, z, CASE WHEN random() < 0.2 THEN NULL ELSE floor(random() * 50)::int END, 6, (id - ${base6 + 1})::int
    FROM (${genSql(base6 + 1, base6 + 3000)}) s`);
  const kv1 = { type: 'struct', 'schema-id': 1, fields: icebergFields(V3_1) };
  const [rec6] = await fieldIdDataFiles(st, 'v3_rows', [6], V3_1, relOf, 3, kv1);
  const c3 = t.commit({ operation: 'append', timestampMs: T0 + 23 * HOUR, add: [{ content: 0, entries: [added(rec6)] }] });
  await makeTruth(st, 3, { statements: ['INSERT INTO {S} SELECT * FROM v3_rows WHERE file_no = 6'] });
  snapRecord(st, 3, c3, range(0, 6), copyPos(del2));

  // s4: file 2's DV replaced (old and new positions), a DV on file 6
  const del4 = copyPos(del2);
  for (const p of positions(f[2].rows, 0.01)) del4.get(2).add(p);
  del4.set(6, positions(f[6].rows, 0.02, [0]));
  const p4 = new PuffinFile();
  const p4rel = `data/${pad5(91)}-${uuid()}-deletes.puffin`;
  const dv4 = puffinEntries(p4, p4rel, [[2, del4.get(2)], [6, del4.get(6)]]);
  fs.writeFileSync(t.local(p4rel), p4.bytes());
  for (const e of dv4) e.file_size_in_bytes = BigInt(fs.statSync(t.local(p4rel)).size);
  const c4 = t.commit({
    operation: 'delete', timestampMs: T0 + 24 * HOUR, keep: (m) => m !== st.dvManifest2,
    add: [
      { content: 1, entries: dv2.map((dataFile) => (dataFile.referenced_data_file === f[2].recorded
        ? { status: 2, seq: c2.seq, fileSeq: c2.seq, dataFile }
        : { status: 0, snapshotId: c2.snapshotId, seq: c2.seq, fileSeq: c2.seq, dataFile })) },
      { content: 1, entries: dv4.map(added) },
    ],
  });
  await run('INSERT INTO v3_pos SELECT 4, 2, unnest($1::int[])', [[...del4.get(2)].filter((p) => !del2.get(2).has(p))]);
  await run('INSERT INTO v3_pos SELECT 4, 6, unnest($1::int[])', [[...del4.get(6)]]);
  await makeTruth(st, 4, { statements: ['DELETE FROM {S} r USING v3_pos x WHERE x.snap = 4 AND x.file_no = r.file_no AND x.pos = r.pos'] });
  snapRecord(st, 4, c4, range(0, 6), del4);
  for (const k of [0, 2, 5, 6]) {
    const [[id]] = await rowsOf('SELECT id FROM v3_rows WHERE file_no = $1 AND pos = $2', [k, Math.min(...del4.get(k))]);
    st.probe.add(id);
  }
  st.location = dir;
  return st;
}

// ------------------------------------------------------------ name_reuse

async function buildNameReuse() {
  const dir = path.join(OUT, 'name_reuse');
  const f0 = [F(1, 'id', 'long', 'id', { required: true }), F(2, 'z', 'int')];
  const f1 = [f0[0], F(3, 'z', 'int')];
  const st = newState('name_reuse', { schemas: { 0: f0, 1: f1 }, group: null });
  const t = st.t = new IcebergTable({ dir, location: recordedLocation('name_reuse', dir), formatVersion: 2, schema: { fields: icebergFields(f0) }, rand, lastUpdatedMs: T0 + 30 * HOUR });
  t.writeMetadata();
  await run('CREATE TABLE name_reuse_rows AS SELECT id, z, 0 AS file_no, (id - 1)::int AS pos, 0 AS i FROM flat_rows WHERE id <= 1000');
  const [rec] = await fieldIdDataFiles(st, 'name_reuse_rows', [0], f0, (k) => `data/${pad5(k)}-${uuid()}.parquet`, 1, null);
  const c1 = t.commit({ operation: 'append', timestampMs: T0 + 31 * HOUR, add: [{ content: 0, entries: [added(rec)] }] });
  t.evolveSchema(icebergFields(f1), { timestampMs: T0 + 32 * HOUR });
  snapRecord(st, 1, c1, [0], new Map(), { metadata: path.basename(t.metadataFiles[t.metadataFiles.length - 1].rel) });
  st.location = dir;
  return st;
}

// ------------------------------------------------------------ bad tables

const badTables = [];

/**
 * Small bad tables; each {name, dir, classes (SQLSTATE classes or codes
 * accepted), names (the table's location or the file: the error's message,
 * detail, hint or context must name one)}.
 */
async function buildBad() {
  const small = path.join(OUT, 'small.parquet');
  await copyTo(`SELECT ${selectList(FLAT0)} FROM flat_rows WHERE file_no = 0 ORDER BY id LIMIT 3000`, small);
  const base = async (name, mutateEntry = (e) => e, after = () => {}) => {
    const dir = path.join(OUT, `bad_${name}`);
    const t = new IcebergTable({ dir, location: recordedLocation(`bad_${name}`, dir), formatVersion: 2, schema: { fields: icebergFields(FLAT0) }, rand, nameMapping: true, lastUpdatedMs: T0 + 40 * HOUR });
    t.writeMetadata();
    const rel = `data/${pad5(0)}-${uuid()}.parquet`;
    fs.mkdirSync(path.dirname(t.local(rel)), { recursive: true });
    fs.copyFileSync(small, t.local(rel));
    const size = fs.statSync(t.local(rel)).size;
    const stats = statsRows(await rowsOf(statsSql(`(SELECT 1 AS one, * FROM flat_rows WHERE file_no = 0 ORDER BY id LIMIT 3000) s`, 'one',
      FLAT0.map((x) => ({ name: x.sql, id: x.id, type: x.type })))), FLAT0.map((x) => ({ name: x.sql, id: x.id, type: x.type })))[0];
    const entry = mutateEntry({ rec: dataFileRecord({ recordedPath: t.path(rel), size, rows: 3000, metrics: fileMetrics(stats.cols) }), t, rel });
    const cm = t.commit({ operation: 'append', timestampMs: T0 + 41 * HOUR, add: [{ content: 0, entries: [added(entry.rec)] }] });
    const names = after({ t, cm, rel, dir }) ?? [];
    // loc: what option location names (the directory, or with --s3 the table's URL)
    return { dir, loc: S3 ? t.location : dir, t, names };
  };
  const add = (name, classes, b) => badTables.push({ name, classes, dir: b.dir, loc: b.loc, names: [b.loc, ...b.names] });

  add('truncated_metadata', ['XX', '22P02', '22032'], await base('truncated_metadata', undefined, ({ t, cm }) => {
    const p = t.local(cm.metadataRel);
    const text = fs.readFileSync(p, 'utf8');
    fs.writeFileSync(p, text.slice(0, Math.floor(text.length / 2)));
    return [S3 ? t.path(cm.metadataRel) : p];
  }));
  add('missing_manifest', ['58'], await base('missing_manifest', undefined, ({ t, cm }) => {
    fs.rmSync(t.local(cm.manifests[0].rel));
    return [cm.manifests[0].file.manifest_path];
  }));
  add('missing_data_file', ['58'], await base('missing_data_file', undefined, ({ t, rel }) => {
    fs.rmSync(t.local(rel));
    return [t.path(rel)];
  }));
  add('wrong_file_size', ['XX'], await base('wrong_file_size', (e) => ({ ...e, rec: { ...e.rec, file_size_in_bytes: e.rec.file_size_in_bytes + 4096n } }),
    ({ t, rel }) => [t.path(rel)]));
  add('orc_data_file', ['0A'], await base('orc_data_file', (e) => {
    const orcRel = e.rel.replace(/\.parquet$/, '.orc');
    fs.writeFileSync(e.t.local(orcRel), Buffer.concat([Buffer.from('ORC'), Buffer.alloc(200, 7)]));
    return { ...e, rec: { ...e.rec, file_path: e.t.path(orcRel), file_format: 'ORC', file_size_in_bytes: 203n } };
  }, ({ t, rel }) => [t.path(rel.replace(/\.parquet$/, '.orc')), 'ORC']));
  add('format_version_4', ['0A'], await base('format_version_4', undefined, ({ t }) => {
    t.writeMetadata((md) => { md['format-version'] = 4; });
    return [];
  }));
}

// ---------------------------------------------------------------- layout

function printLayout() {
  for (const st of Object.values(tables)) {
    const t = st.t;
    const nd = st.files.filter(Boolean);
    console.log(`${STAGE}: table ${st.key}: ${t.dir}${S3 ? ` at ${readLocation(st)}` : ''} (format v${t.formatVersion}, recorded location ${t.location}` +
      `${st.opts.location_map ? `, location_map '${st.opts.location_map}'` : ''}); ${nd.length} data files, ${nd.reduce((s, f) => s + f.rows, 0)} rows; ` +
      `metadata v1..v${t.version}; columns ${st.fields.map((f) => `${f.name}(${f.id})`).join(', ')}`);
    for (const s of st.snaps.filter(Boolean)) {
      const pos = [...s.pos.values()].reduce((a, x) => a + x.size, 0);
      const snap = t.snapshots.find((x) => x['snapshot-id'] === s.id);
      console.log(`  s${s.k}: snapshot ${s.id}, seq ${s.seq}, ${iso(s.ts)}, ${snap.summary.operation}, ${s.metadata}; live files ${s.live.join(',')}; ` +
        `positions deleted ${pos}; rows ${s.truthRows ?? '?'}`);
    }
  }
  for (const b of badTables) console.log(`${STAGE}: bad table ${b.name}: ${b.dir}${S3 ? ` at ${b.loc}` : ''} (expected SQLSTATE ${b.classes.join('/')})`);
}

// ------------------------------------------------------ generator checks

/** Canonical text of a heap value (PostgreSQL text) by the field's Iceberg type (canon.mjs's forms). */
const FAMILY = { long: 'bigint', int: 'integer', string: 'text', 'decimal(12,2)': 'numeric(12,2)', date: 'date', timestamptz: 'timestamp with time zone', double: 'double precision', boolean: 'boolean' };
const canonTruth = (type, text) => canonPg(pgFamily(FAMILY[type]), text);
/** The same form of a value read from a Parquet file by hyparquet (dates as days, timestamps as µs BigInt). */
function canonFile(type, v) {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'long': case 'int': return BigInt(v).toString();
    case 'decimal(12,2)': return scaledDecimal(typeof v === 'bigint' ? v : BigInt(Math.round(Number(v) * 100)), 2);
    case 'date': return String(v instanceof Date ? Math.round(v.getTime() / 86400000) : Number(v));
    case 'timestamptz': return (v instanceof Date ? BigInt(v.getTime()) * 1000n : BigInt(v)).toString();
    case 'double': return Object.is(v, -0) ? '-0' : String(Number(v));
    case 'boolean': return v ? 't' : 'f';
    default: return String(v);
  }
}
/** Canonical of an Iceberg default value (JSON single-value form). */
const canonDefault = (type, v) => (v === undefined || v === null ? null : canonFile(type, v));

const parquetCache = new Map();
/** A Parquet file read with hyparquet: {md, rows (objects), byId (field_id -> column name)}. */
async function readParquet(abs) {
  if (parquetCache.has(abs)) return parquetCache.get(abs);
  const { parquetMetadata, parquetReadObjects } = await import('hyparquet');
  const { compressors } = await import('hyparquet-compressors');
  const b = fs.readFileSync(abs);
  const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
  const md = parquetMetadata(ab);
  const rows = await parquetReadObjects({ file: ab, metadata: md, compressors,
    parsers: { timestampFromMicroseconds: (x) => x, timestampFromMilliseconds: (x) => BigInt(x) * 1000n, dateFromDays: (d) => d } });
  const byId = new Map(md.schema.slice(1).filter((e) => e.field_id !== undefined).map((e) => [e.field_id, e.name]));
  const r = { md, rows, byId, names: md.schema.slice(1).map((e) => e.name) };
  parquetCache.set(abs, r);
  return r;
}

/** Name mapping of a metadata object: field id -> names. */
function nameMappingOf(md) {
  const text = md.properties?.['schema.name-mapping.default'];
  if (!text) return null;
  return new Map(JSON.parse(text).map((m) => [m['field-id'], m.names]));
}

/** The Parquet column of field id in file r: by field id, else by the name mapping. */
function columnFor(r, id, mapping) {
  if (r.byId.size) return r.byId.get(id) ?? null;
  for (const n of mapping?.get(id) ?? []) if (r.names.includes(n)) return n;
  return null;
}

const metadataOf = (st, file) => parseJsonBig(fs.readFileSync(st.t.local(`metadata/${file}`), 'utf8'));

/**
 * The spec's reading of snapshot s of table st from the bytes on disk:
 * manifest list, manifests (inheritance of sequence numbers), data files
 * (columns by field id or name mapping, initial-default), position
 * deletes, DVs, equality deletes (data seq < delete seq, same partition
 * unless unpartitioned, NULL = NULL). Rows as canonical text of the
 * current schema's fields; also what it met (counts) for the checks.
 */
async function referenceRead(st, s) {
  const md = metadataOf(st, st.snaps[s].metadata);
  const snapId = BigInt(st.snaps[s].id);
  const snap = md.snapshots.find((x) => BigInt(x['snapshot-id']) === snapId);
  if (!snap) throw new Error(`snapshot ${snapId} not in ${st.snaps[s].metadata}`);
  const schema = md.schemas.find((x) => x['schema-id'] === md['current-schema-id']);
  const mapping = nameMappingOf(md);
  const list = readAvro(fs.readFileSync(localOf(snap['manifest-list']))).records;
  const data = [];
  const posDel = [];
  const eqDel = [];
  const dvs = [];
  for (const m of list) {
    const man = readAvro(fs.readFileSync(localOf(m.manifest_path)));
    for (const e of man.records) {
      if (e.status === 2) continue;
      const seq = e.sequence_number ?? (e.status === 1 ? m.sequence_number : null);
      if (seq === null) throw new Error(`${m.manifest_path}: an EXISTING entry without a sequence number`);
      const df = e.data_file;
      if (df.content === 0) data.push({ df, seq });
      else if (df.content === 1 && df.file_format === 'PUFFIN') dvs.push({ df, seq });
      else if (df.content === 1) posDel.push({ df, seq });
      else eqDel.push({ df, seq });
    }
  }
  const deletedPos = new Map(); // data path -> Set
  const addPos = (p, pos) => {
    if (!deletedPos.has(p)) deletedPos.set(p, new Set());
    deletedPos.get(p).add(Number(pos));
  };
  const seqOf = new Map(data.map((d) => [d.df.file_path, d.seq]));
  for (const { df, seq } of posDel) {
    const r = await readParquet(localOf(df.file_path));
    for (const row of r.rows) if (seqOf.has(row.file_path) && seqOf.get(row.file_path) <= seq) addPos(row.file_path, row.pos);
  }
  for (const { df, seq } of dvs) {
    const blobs = readPuffinDvs(fs.readFileSync(localOf(df.file_path)));
    const b = blobs.find((x) => BigInt(x.offset) === df.content_offset);
    if (!b || BigInt(b.length) !== df.content_size_in_bytes) throw new Error(`${df.file_path}: no blob at ${df.content_offset}`);
    if (seqOf.has(df.referenced_data_file) && seqOf.get(df.referenced_data_file) <= seq) for (const p of b.positions) addPos(df.referenced_data_file, p);
  }
  const eqSets = [];
  for (const { df, seq } of eqDel) {
    const r = await readParquet(localOf(df.file_path));
    const ids = df.equality_ids;
    const cols = ids.map((id) => columnFor(r, id, mapping));
    const keys = new Set(r.rows.map((row) => JSON.stringify(cols.map((cn, j) => canonFile(fieldTypeIn(md, ids[j]), row[cn])))));
    eqSets.push({ ids, keys, seq, partition: df.partition });
  }
  const out = [];
  let posRemoved = 0;
  let eqRemoved = 0;
  for (const { df, seq } of data) {
    const r = await readParquet(localOf(df.file_path));
    const cols = schema.fields.map((fl) => columnFor(r, fl.id, mapping));
    const dels = deletedPos.get(df.file_path) ?? new Set();
    const applicable = eqSets.filter((e) => seq < e.seq && (Object.keys(e.partition).length === 0 || JSON.stringify(e.partition) === JSON.stringify(df.partition)));
    r.rows.forEach((row, pos) => {
      if (dels.has(pos)) {
        posRemoved++;
        return;
      }
      const vals = schema.fields.map((fl, j) => (cols[j] === null ? canonDefault(fl.type, fl['initial-default']) : canonFile(fl.type, row[cols[j]])));
      for (const e of applicable) {
        const key = JSON.stringify(e.ids.map((id) => vals[schema.fields.findIndex((fl) => fl.id === id)]));
        if (e.keys.has(key)) {
          eqRemoved++;
          return;
        }
      }
      out.push(vals);
    });
  }
  return { rows: out, fields: schema.fields, dataFiles: data.map((d) => d.df.file_path), posRemoved, eqRemoved };
}

function fieldTypeIn(md, id) {
  for (const s of md.schemas) {
    const f = s.fields.find((x) => x.id === id);
    if (f) return f.type;
  }
  throw new Error(`field ${id} in no schema`);
}

/** Truth rows of snapshot s as canonical text of fields (heap columns by the current names). */
async function truthCanon(st, s, fields) {
  const rows = await rowsOf(`SELECT ${fields.map((f) => st.fields.find((x) => x.id === f.id).sql ?? f.name).join(', ')} FROM ${st.key}_s${s}`);
  return rows.map((r) => r.map((v, j) => canonTruth(fields[j].type, v)));
}

async function genChecked(name, fn) {
  try {
    const r = await fn();
    check(`${name}${r.note ? `: ${r.note}` : ''}`, r.problems);
  } catch (err) {
    check(name, [firstLine(err.stack || err.message)]);
  }
}

const hasFieldIds = (schema) => {
  const walk = (t) => {
    if (typeof t === 'string' || t === null) return true;
    if (Array.isArray(t)) return t.every(walk);
    if (t.type === 'record') return t.fields.every((f) => f['field-id'] !== undefined && walk(f.type));
    if (t.type === 'array') return walk(t.items);
    return true;
  };
  return walk(schema);
};

async function generatorChecks() {
  for (const st of Object.values(tables)) {
    const t = st.t;
    // metadata files
    await genChecked(`gen ${st.key} metadata`, async () => {
      const problems = [];
      const hint = fs.readFileSync(t.local('metadata/version-hint.text'), 'utf8');
      if (hint !== String(t.version)) problems.push(`version-hint.text ${hint}, expected ${t.version}`);
      for (let v = 1; v <= t.version; v++) {
        const md = metadataOf(st, `v${v}.metadata.json`);
        if (md['format-version'] !== t.formatVersion) problems.push(`v${v}: format-version ${md['format-version']}`);
        const ids = new Set(md.snapshots.map((s) => String(s['snapshot-id'])));
        if (md['current-snapshot-id'] !== -1 && !ids.has(String(md['current-snapshot-id']))) problems.push(`v${v}: current snapshot not among the snapshots`);
        const log = md['snapshot-log'].map((e) => e['timestamp-ms']);
        if (log.some((x, j) => j && x < log[j - 1])) problems.push(`v${v}: snapshot-log not ascending`);
        for (const s of md.snapshots) if (!fs.existsSync(localOf(s['manifest-list']))) problems.push(`v${v}: ${s['manifest-list']} missing`);
        for (const [name, r] of Object.entries(md.refs ?? {})) if (!ids.has(String(r['snapshot-id']))) problems.push(`v${v}: ref ${name} names no snapshot`);
        if (t.formatVersion >= 3 && md['next-row-id'] === undefined) problems.push(`v${v}: no next-row-id`);
        const seqs = md.snapshots.map((s) => BigInt(s['sequence-number']));
        if (seqs.some((x, j) => j && x <= seqs[j - 1])) problems.push(`v${v}: sequence numbers not increasing`);
      }
      return { problems, note: `v1..v${t.version}, ${t.snapshots.length} snapshots` };
    });
    // manifest lists and manifests, read back with avsc
    await genChecked(`gen ${st.key} manifests (avsc)`, async () => {
      const problems = [];
      let nManifests = 0;
      let nEntries = 0;
      const seen = new Set();
      for (const snap of t.snapshots) {
        const listPath = localOf(snap['manifest-list']);
        const list = readAvro(fs.readFileSync(listPath));
        for (const k of ['snapshot-id', 'sequence-number', 'format-version', 'parent-snapshot-id'])
          if (list.meta[k] === undefined) problems.push(`${path.basename(listPath)}: no ${k} in the Avro metadata`);
        if (list.meta['snapshot-id'] !== String(snap['snapshot-id'])) problems.push(`${path.basename(listPath)}: snapshot-id ${list.meta['snapshot-id']}`);
        if (!hasFieldIds(list.schema)) problems.push(`${path.basename(listPath)}: a field without field-id`);
        for (const m of list.records) {
          const mp = localOf(m.manifest_path);
          if (!fs.existsSync(mp)) {
            problems.push(`${m.manifest_path} missing`);
            continue;
          }
          if (BigInt(fs.statSync(mp).size) !== m.manifest_length) problems.push(`${m.manifest_path}: manifest_length ${m.manifest_length}, file ${fs.statSync(mp).size}`);
          if (seen.has(mp)) continue;
          seen.add(mp);
          nManifests++;
          const man = readAvro(fs.readFileSync(mp));
          for (const k of ['schema', 'partition-spec', 'partition-spec-id', 'format-version', 'content'])
            if (man.meta[k] === undefined) problems.push(`${path.basename(mp)}: no ${k}`);
          if (man.meta.content !== (m.content === 0 ? 'data' : 'deletes')) problems.push(`${path.basename(mp)}: content ${man.meta.content}, list says ${m.content}`);
          if (!hasFieldIds(man.schema)) problems.push(`${path.basename(mp)}: a field without field-id`);
          const cnt = (s) => man.records.filter((e) => e.status === s).length;
          if (cnt(1) !== m.added_files_count || cnt(0) !== m.existing_files_count || cnt(2) !== m.deleted_files_count)
            problems.push(`${path.basename(mp)}: entry counts ${cnt(1)}/${cnt(0)}/${cnt(2)}, list ${m.added_files_count}/${m.existing_files_count}/${m.deleted_files_count}`);
          for (const e of man.records) {
            nEntries++;
            const df = e.data_file;
            if ((df.content === 0) !== (m.content === 0)) problems.push(`${path.basename(mp)}: content ${df.content} in a ${man.meta.content} manifest`);
            if (e.status === 2) continue;
            const lp = localOf(df.file_path);
            if (!fs.existsSync(lp)) {
              problems.push(`${df.file_path} missing`);
              continue;
            }
            if (BigInt(fs.statSync(lp).size) !== df.file_size_in_bytes) problems.push(`${df.file_path}: file_size_in_bytes ${df.file_size_in_bytes}, file ${fs.statSync(lp).size}`);
            if (df.file_format === 'PARQUET') {
              const r = await readParquet(lp);
              if (BigInt(r.md.num_rows) !== df.record_count) problems.push(`${df.file_path}: record_count ${df.record_count}, Parquet ${r.md.num_rows}`);
            }
          }
        }
      }
      return { problems, note: `${t.snapshots.length} manifest lists, ${nManifests} manifests, ${nEntries} entries` };
    });
    // data file bounds against their contents; position delete files; DVs
    await genChecked(`gen ${st.key} bounds and delete files`, async () => {
      const problems = [];
      const md = metadataOf(st, `v${t.version}.metadata.json`);
      const mapping = nameMappingOf(md);
      const recorded = new Set(st.files.filter(Boolean).map((f) => f.recorded));
      let nb = 0;
      let npos = 0;
      let ndv = 0;
      const seen = new Set();
      for (const snap of t.snapshots) {
        for (const m of readAvro(fs.readFileSync(localOf(snap['manifest-list']))).records) {
          if (seen.has(m.manifest_path)) continue;
          seen.add(m.manifest_path);
          for (const e of readAvro(fs.readFileSync(localOf(m.manifest_path))).records) {
            const df = e.data_file;
            if (df.file_format === 'PUFFIN') {
              const b = readPuffinDvs(fs.readFileSync(localOf(df.file_path))).find((x) => BigInt(x.offset) === df.content_offset);
              if (!b) problems.push(`${df.file_path}: no blob at ${df.content_offset}`);
              else {
                ndv++;
                if (BigInt(b.length) !== df.content_size_in_bytes) problems.push(`DV ${df.content_offset}: length ${b.length}`);
                if (b.referencedDataFile !== df.referenced_data_file) problems.push(`DV ${df.content_offset}: referenced-data-file ${b.referencedDataFile} vs ${df.referenced_data_file}`);
                if (BigInt(b.positions.length) !== df.record_count || b.cardinality !== b.positions.length) problems.push(`DV ${df.content_offset}: ${b.positions.length} positions, record_count ${df.record_count}`);
                if (!recorded.has(df.referenced_data_file)) problems.push(`DV names ${df.referenced_data_file}, not a data file`);
                const k = st.files.find((f) => f && f.recorded === df.referenced_data_file)?.k;
                if (k !== undefined && b.positions.some((p) => p >= st.files[k].rows)) problems.push(`DV on file ${k}: a position past its ${st.files[k].rows} rows`);
              }
              continue;
            }
            const r = await readParquet(localOf(df.file_path));
            if (df.content === 1) {
              npos++;
              let prev = null;
              for (const row of r.rows) {
                const cur = [row.file_path, BigInt(row.pos)];
                if (prev && (Buffer.compare(Buffer.from(prev[0]), Buffer.from(cur[0])) > 0 || (prev[0] === cur[0] && prev[1] >= cur[1]))) {
                  problems.push(`${df.file_path}: not sorted by file_path, pos`);
                  break;
                }
                if (!recorded.has(row.file_path)) {
                  problems.push(`${df.file_path}: file_path ${row.file_path} is no data file's recorded path`);
                  break;
                }
                prev = cur;
              }
            }
            // bounds and counts against the file's values
            const fieldsById = new Map();
            for (const s of md.schemas) for (const fl of s.fields) fieldsById.set(fl.id, fl);
            fieldsById.set(FIELD_FILE_PATH, { name: 'file_path', type: 'string' });
            fieldsById.set(FIELD_POS, { name: 'pos', type: 'long' });
            const lower = new Map((df.lower_bounds ?? []).map((x) => [x.key, x.value]));
            const upper = new Map((df.upper_bounds ?? []).map((x) => [x.key, x.value]));
            for (const { key, value } of df.value_counts ?? []) {
              const fl = fieldsById.get(key);
              const col = key >= FIELD_POS ? fl.name : columnFor(r, key, mapping);
              if (col === null) {
                problems.push(`${path.basename(df.file_path)}: value_counts names field ${key}, not in the file`);
                continue;
              }
              nb++;
              const vals = r.rows.map((row) => row[col]);
              const nn = vals.filter((v) => v !== null && v !== undefined);
              if (BigInt(vals.length) !== value) problems.push(`${path.basename(df.file_path)} field ${key}: value_counts ${value}, file ${vals.length}`);
              const nulls = df.null_value_counts.find((x) => x.key === key)?.value;
              if (BigInt(vals.length - nn.length) !== nulls) problems.push(`${path.basename(df.file_path)} field ${key}: null_value_counts ${nulls}, file ${vals.length - nn.length}`);
              if (!nn.length) {
                if (lower.has(key) || upper.has(key)) problems.push(`${path.basename(df.file_path)} field ${key}: bounds on an all-NULL column`);
                continue;
              }
              const cv = (v) => {
                switch (fl.type) {
                  case 'decimal(12,2)': return BigInt(Math.round(Number(v) * 100));
                  case 'long': case 'timestamptz': return BigInt(v);
                  case 'boolean': return Boolean(v);
                  case 'string': return Buffer.from(v);
                  default: return Number(v);
                }
              };
              const cmp = (a, b) => (Buffer.isBuffer(a) ? Buffer.compare(a, b) : a < b ? -1 : a > b ? 1 : 0);
              const xs = nn.map(cv).sort(cmp);
              const bv = (buf) => (fl.type === 'string' ? buf : boundValue(fl.type, buf));
              if (!lower.has(key) || cmp(bv(lower.get(key)), xs[0]) !== 0) problems.push(`${path.basename(df.file_path)} field ${key}: lower bound ${lower.has(key) ? bv(lower.get(key)) : '(none)'}, file min ${xs[0]}`);
              if (!upper.has(key) || cmp(bv(upper.get(key)), xs[xs.length - 1]) !== 0) problems.push(`${path.basename(df.file_path)} field ${key}: upper bound ${upper.has(key) ? bv(upper.get(key)) : '(none)'}, file max ${xs[xs.length - 1]}`);
            }
          }
        }
      }
      return { problems, note: `${nb} column bounds/counts, ${npos} position delete files, ${ndv} DVs` };
    });
    // every snapshot read by the spec from the bytes written equals the heap truth
    for (const s of st.snaps.filter(Boolean)) {
      await genChecked(`gen ${st.key} s${s.k} reference reading = heap`, async () => {
        const r = await referenceRead(st, s.k);
        const exp = await truthCanon(st, s.k, r.fields);
        const d = multisetDiff(r.rows, exp);
        const problems = d ? [d] : [];
        const live = new Set(s.live.map((k) => st.files[k].recorded));
        if (r.dataFiles.length !== live.size || r.dataFiles.some((p) => !live.has(p))) problems.push(`data files ${r.dataFiles.length}, expected ${live.size}`);
        // what the C side's counters must show (deleteCounterChecks) from this reading too
        const pos = [...s.pos].filter(([k]) => s.live.includes(k)).reduce((a, [, set]) => a + set.size, 0);
        if (st.key !== 'name_reuse' && r.posRemoved !== pos) problems.push(`${r.posRemoved} rows removed by positions/DVs, the generator deleted ${pos}`);
        return { problems, note: `${r.rows.length} rows; ${r.posRemoved} removed by positions/DVs, ${r.eqRemoved} by equality deletes` };
      });
    }
  }
  if (ICEBIRD) await icebirdChecks();
}

// ---------------------------------------------------------------- icebird

/** fetch for icebird/hyparquet: local paths and the fake bucket served from disk (ranges too). */
async function withLocalFetch(fn) {
  const realFetch = globalThis.fetch;
  // icebird reads s3://<bucket>/<key> at https://<bucket>.s3.amazonaws.com/<key>
  const httpsPrefixes = ['https://warehouse.s3.amazonaws.com/gen/', `https://${BUCKET}.s3.amazonaws.com/gen/`];
  globalThis.fetch = async (url, init = {}) => {
    let u = String(url);
    const pre = httpsPrefixes.find((x) => u.startsWith(x));
    if (pre) u = path.join(OUT, u.slice(pre.length));
    else if (u.startsWith('file://')) u = u.slice(7);
    else if (!u.startsWith('/')) return realFetch(url, init);
    else u = localOf(u); // flat's /x/warehouse/gen/... (--s3)
    if (!fs.existsSync(u)) return new Response(null, { status: 404, statusText: 'Not Found' });
    const buf = fs.readFileSync(u);
    if ((init.method ?? 'GET') === 'HEAD') return new Response(null, { status: 200, headers: { 'content-length': String(buf.length) } });
    const range = new Headers(init.headers ?? {}).get('range');
    if (range) {
      const m = /bytes=(\d+)-(\d*)/.exec(range);
      const start = Number(m[1]);
      const end = m[2] ? Number(m[2]) + 1 : buf.length;
      return new Response(buf.subarray(start, end), { status: 206 });
    }
    return new Response(buf, { status: 200 });
  };
  try {
    return await fn();
  } finally {
    globalThis.fetch = realFetch;
  }
}

async function icebirdChecks() {
  let icebird;
  try {
    icebird = await import('icebird');
  } catch (err) {
    note(`icebird not in test/js/node_modules (${firstLine(err.message)}): no second reader of the generated tables`);
    return;
  }
  // where icebird 0.3.1 reads by the spec (README and src/read.js): v2, position
  // and equality deletes by id, no renamed name-mapped columns, no
  // partition-scoped equality deletes, no NULL in equality delete rows, no DVs
  const supported = {
    part: { 1: true, 2: true, 3: 'applies equality deletes across partitions', 4: 'names columns by the current schema, not the name mapping (t renamed label)', 5: 'as s4' },
    flat: { 1: true, 2: true, 3: true, 4: 'an equality delete row with a NULL matches any value' },
    v3: { 1: true, 2: 'no deletion vectors (Puffin)', 3: 'no deletion vectors (Puffin)', 4: 'no deletion vectors (Puffin)' },
    name_reuse: { 1: 'reads a file without the iceberg.schema key by column names (no Parquet field ids)' },
  };
  for (const st of Object.values(tables)) {
    for (const s of st.snaps.filter(Boolean)) {
      const why = supported[st.key]?.[s.k];
      const name = `gen ${st.key} s${s.k} icebird = heap`;
      const attempt = async () => {
        const rows = await withLocalFetch(() => icebird.icebergRead({ tableUrl: st.t.location, metadataFileName: s.metadata }));
        const md = metadataOf(st, s.metadata);
        const fields = md.schemas.find((x) => x['schema-id'] === md['current-schema-id']).fields;
        // icebird's timestamps are Dates (milliseconds): compare them as such
        const canonIce = (fl, v) => (fl.type === 'timestamptz' && v instanceof Date ? `${BigInt(v.getTime())}ms` : canonFile(fl.type, v));
        const got = rows.map((r) => fields.map((fl) => canonIce(fl, r[fl.name] ?? null)));
        const exp = (await truthCanon(st, s.k, fields)).map((r) => r.map((v, j) => (fields[j].type === 'timestamptz' && v !== null ? `${BigInt(v) / 1000n - (BigInt(v) % 1000n < 0n ? 1n : 0n)}ms` : v)));
        return { d: multisetDiff(got, exp), n: got.length };
      };
      if (why === true) {
        await genChecked(name, async () => {
          const { d, n } = await attempt();
          return { problems: d ? [d] : [], note: `${n} rows (timestamps compared to the millisecond)` };
        });
      } else {
        try {
          const { d, n } = await attempt();
          note(`${name} (not a check: icebird ${why ?? 'not expected to read this'}): ${d ? `differs as expected: ${d}` : `${n} rows, equal`}`);
        } catch (err) {
          note(`${name} (not a check: icebird ${why ?? 'not expected to read this'}): ${firstLine(err.message)}`);
        }
      }
    }
  }
}

// ------------------------------------------------------------ the checks

/** createForeign, a failure a FAIL line: true when the table is there. */
async function created(label, name, st, options = {}, fields = st.fields) {
  try {
    await createForeign(name, st, options, fields);
    return true;
  } catch (err) {
    if (!(await alive(c))) await reconnect();
    check(`${label}: CREATE FOREIGN TABLE ${name}`, [`ERROR ${showErr(err)}`]);
    return false;
  }
}

/** What option location names for table st: its directory, or with --s3 s3://lake/gen/<table>. */
const readLocation = (st) => (S3 ? `${S3_PREFIX}/${st.key}` : st.t.dir);

async function createForeign(name, st, options = {}, fields = st.fields) {
  await run(`DROP FOREIGN TABLE IF EXISTS ${name}`);
  // location: the directory (a table whose metadata records another prefix
  // is read through location_map), or with --s3 the table's URL in the bucket
  const o = { format: 'iceberg', location: readLocation(st), ...st.opts, ...options };
  await run(`CREATE FOREIGN TABLE ${name} (${ddlOf(fields)}) SERVER ${SERVER} OPTIONS (${Object.entries(o).map(([k, v]) => `${k} ${sqlString(v)}`).join(', ')})`);
}

/**
 * The queries compared: [name, sql with {T} (the table) and {C} (its
 * columns), ordered?, in the reduced set?]; fields: the columns the target
 * has (names of its schema: the text column is t or label).
 */
function queries(st, fields) {
  const has = (id) => fields.find((f) => f.id === id);
  const X = has(3).name;
  const G = typeof st.group === 'number' ? has(st.group).name : st.group;
  const ids = st.files.filter(Boolean).map((f) => Number(f.idMin));
  const mid = ids.sort((a, b) => a - b)[Math.floor(ids.length / 2)];
  const probe = [...st.probe].join(',');
  const q = [
    ['count', 'SELECT count(*) FROM {T}', true, true],
    ['aggregates', `SELECT count(*), count(z), min(id), max(id), min(i), max(i), min(n), max(n), min(d), max(d), min(ts), max(ts),
      min(${X}), max(${X}), min(f), max(f), sum(f::numeric), count(*) FILTER (WHERE b) FROM {T}`, true, false],
    ['filtered_sum', `SELECT count(*), sum(i), sum(n), sum(f::numeric), min(ts), max(d) FROM {T} WHERE id BETWEEN ${mid - 3000} AND ${mid + 2000}`, true, true],
    ['filter_mixed', `SELECT count(*), sum(i), avg(n) FROM {T} WHERE ${X} IN ('apple', 'fig') AND b AND z IS NULL`, true, false],
    ['filter_ts_date_float', `SELECT count(*), sum(z), min(id) FROM {T} WHERE ts >= '2019-01-01' AND d < '2010-01-01' AND f > 0`, true, false],
    ['filter_text_null', `SELECT count(*), sum(i) FROM {T} WHERE ${X} IS NULL OR ${X} > 'kiwi'`, true, false],
    ['group_by', `SELECT ${G}, count(*), sum(i), sum(n), avg(n), min(d), max(ts), count(z), sum(z), count(*) FILTER (WHERE b), max(id)
      FROM {T} GROUP BY ${G} ORDER BY 1 NULLS FIRST`, true, true],
    ['topn_n', 'SELECT {C} FROM {T} ORDER BY n DESC, id, i LIMIT 10', true, true],
    ['topn_ts', `SELECT id, ${X}, z FROM {T} ORDER BY ts, id, i LIMIT 10`, true, false],
    ['topn_id_desc', 'SELECT id, i, z FROM {T} ORDER BY id DESC, i DESC LIMIT 10', true, false],
  ];
  if (probe) q.push(['probe_deleted_ids', `SELECT {C} FROM {T} WHERE id IN (${probe}) ORDER BY id, i`, true, false]);
  if (st.key === 'part') q.push(['partition_filter', 'SELECT p, count(*), sum(i) FROM {T} WHERE p IN (1, 3) OR p IS NULL GROUP BY p ORDER BY p NULLS FIRST', true, false]);
  if (has(11)) q.push(['added_column', 'SELECT count(*), count(extra), sum(extra), min(extra), max(extra) FROM {T}', true, false]);
  if (st.key === 'v3' && has(10)) q.push(['initial_default', 'SELECT w, count(*), min(id), max(id) FROM {T} GROUP BY w ORDER BY w NULLS FIRST', true, true]);
  return q;
}

async function setMode(mode) {
  for (const s of RESET_SETTINGS) await run(s);
  for (const s of (mode === 'parallel' ? PARALLEL_SETTINGS : SERIAL_SETTINGS)) await run(s);
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
/** The heap truth of snapshot s under the target's column names: {T} a subquery of the truth table. */
const truthRel = (st, s, fields) => `(SELECT ${fields.map((f) => `${f.sql} AS ${f.name}`).join(', ')} FROM ${st.key}_s${s}) truth`;
async function truthOf(st, s, fields, key, sql) {
  const cols = fields.map((f) => f.name).join(', ');
  const k = `${st.key}\u0000${s}\u0000${cols}\u0000${key}`;
  if (!truthCache.has(k)) {
    await setMode('serial');
    truthCache.set(k, await rowsOf(sql.replaceAll('{T}', truthRel(st, s, fields)).replaceAll('{C}', cols)));
  }
  return truthCache.get(k);
}

/**
 * One target: foreign table ft (created by the caller with the columns
 * fields; or the GUC set by setup) read as snapshot s, each query serial
 * and parallel.
 */
async function checkTarget(label, st, s, ft, fields, { reduced = false, setup = null, modes = ['serial', 'parallel'] } = {}) {
  await reconnect();
  if (setup) {
    try {
      await setup();
    } catch (err) {
      check(`${label}: setup`, [`ERROR ${showErr(err)}`]);
      return;
    }
  }
  const cols = fields.map((f) => f.name).join(', ');
  for (const mode of modes) {
    const tag = `${label}/${mode}`;
    await guarded(`${tag} select_all`, async () => {
      const exp = await truthOf(st, s, fields, 'select_all', 'SELECT {C} FROM {T}');
      await setMode(mode);
      let note = '';
      if (mode === 'parallel') {
        const plan = (await rowsOf(`EXPLAIN (COSTS OFF) SELECT ${cols} FROM ${ft}`)).map((r) => r[0]).join('\n');
        note = /Parallel Foreign Scan|Gather/.test(plan) ? ', parallel plan' : ', no parallel plan';
      }
      const got = await rowsOf(`SELECT ${cols} FROM ${ft}`);
      const d = multisetDiff(got, exp);
      return { problems: d ? [`SELECT * FROM ${ft}: ${d}`] : [], note: `${got.length} rows${note}` };
    });
    for (const [name, sql, ordered, inReduced] of queries(st, fields)) {
      if (reduced && !inReduced) continue;
      await guarded(`${tag} ${name}`, async () => {
        const exp = await truthOf(st, s, fields, name, sql);
        await setMode(mode);
        const qq = sql.replaceAll('{T}', ft).replaceAll('{C}', cols);
        const got = await rowsOf(qq);
        const d = ordered ? orderedDiff(got, exp) : multisetDiff(got, exp);
        return { problems: d ? [`${qq.replace(/\s+/g, ' ').slice(0, 200)}: ${d}`] : [], note: `${got.length} rows` };
      });
    }
  }
}

/** Files whose id bounds meet [lo, hi] (and whose partition passes), among the live data files of snapshot s. */
function expectedFiles(st, s, lo, hi, partOk = () => true) {
  return st.snaps[s].live.filter((k) => {
    const f = st.files[k];
    return f.idMin <= BigInt(hi) && f.idMax >= BigInt(lo) && partOk(f.p);
  });
}

async function pruneChecks(st) {
  const last = st.snaps.length - 1;
  const targets = [[last, {}], [1, { snapshot_id: String(st.snaps[1].id) }]];
  const live = st.snaps[last].live.map((k) => st.files[k]);
  const one = live[Math.floor(live.length / 3)];
  const inside = one.idMin + (one.idMax - one.idMin) / 2n;
  const quals = [
    ['narrow', inside, inside + 40n],
    ['file_boundary', one.idMax - 30n, one.idMax + 30n],
    ['wide', one.idMin, one.idMin + (one.idMax - one.idMin) * 3n],
    ['past_the_end', live.reduce((m, f) => (f.idMax > m ? f.idMax : m), 0n) + 100n, live.reduce((m, f) => (f.idMax > m ? f.idMax : m), 0n) + 200n],
  ];
  await reconnect();
  await setMode('serial');
  for (const [s, options] of targets) {
    const ft = `prune_${st.key}_${s}`;
    if (!(await created(`prune ${st.key} s${s}`, ft, st, options, fieldsAt(st, s, Boolean(options.snapshot_id))))) continue;
    const cases = quals.map(([name, lo, hi]) => [name, `id BETWEEN ${lo} AND ${hi}`, expectedFiles(st, s, lo, hi)]);
    if (st.key === 'part') {
      cases.push(['partition_eq', 'p = 3', expectedFiles(st, s, -(2n ** 62n), 2n ** 62n, (p) => p === 3)]);
      cases.push(['partition_null_and_id', `p IS NULL AND id <= ${ROWS + 400}`, expectedFiles(st, s, -(2n ** 62n), ROWS + 400, (p) => p === null)]);
    }
    for (const [name, qual, exp] of cases) {
      await guarded(`prune ${st.key} s${s} ${name} (${qual})`, async () => {
        const node = await foreignScan(c, `SELECT id, i FROM ${ft} WHERE ${qual}`);
        const problems = [];
        const total = st.snaps[s].live.length;
        const filesText = node.Files;
        const m = /^(\d+) of (\d+)/.exec(filesText ?? '');
        if (!m) {
          if (exp.length !== total) problems.push(`no "Files: N of M" in the plan (keys: ${Object.keys(node).join(', ')}); expected ${exp.length} of ${total}`);
        } else {
          if (Number(m[1]) !== exp.length) problems.push(`Files: ${filesText}; expected ${exp.length} kept (files ${exp.join(', ')} meet the qual by their id bounds)`);
          if (Number(m[2]) !== total) problems.push(`Files: ${filesText}; the snapshot has ${total} data files`);
        }
        const got = await rowsOf(`SELECT count(*), sum(i) FROM ${ft} WHERE ${qual}`);
        const want = await rowsOf(`SELECT count(*), sum(i) FROM ${st.key}_s${s} WHERE ${qual}`);
        const d = orderedDiff(got, want);
        if (d) problems.push(`rows: ${d}`);
        return { problems, note: `Files: ${filesText ?? '(no line)'}; expected ${exp.length} of ${total}` };
      });
    }
  }
}

/**
 * The manifest list's partition summaries are read: a copy of part's
 * metadata whose manifest list says (falsely) that no manifest holds p = 3
 * (every data manifest's p bounds [0, 0], no nulls), its files read where
 * they are.  p = 3 then keeps no file, all "pruned by partition", though
 * the files' own partition values say 3: only the summaries ruled them out.
 */
async function summaryCheck(st) {
  const dir = path.join(OUT, 'part_summary');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(path.join(st.location, 'metadata'), path.join(dir, 'metadata'), { recursive: true });
  const hint = fs.readFileSync(path.join(dir, 'metadata', 'version-hint.text'), 'utf8').trim();
  const md = parseJsonBig(fs.readFileSync(path.join(dir, 'metadata', `v${hint}.metadata.json`), 'utf8'));
  const cur = md.snapshots.find((s) => s['snapshot-id'] === md['current-snapshot-id']);
  const listFile = path.join(dir, 'metadata', path.basename(cur['manifest-list']));
  const avr = readAvro(fs.readFileSync(listFile));
  const zero = boundBytes('int', 0);
  let data = 0;
  for (const r of avr.records) {
    if (Number(r.content ?? 0) !== 0 || !r.partitions?.length) continue;
    r.partitions[0] = { ...r.partitions[0], contains_null: false, lower_bound: zero, upper_bound: zero };
    data++;
  }
  const meta = Object.fromEntries(Object.entries(avr.meta).filter(([k]) => !k.startsWith('avro.')));
  fs.writeFileSync(listFile, writeAvro(avr.schema, meta, avr.records, { codec: avr.meta['avro.codec'] ?? 'null' }));
  const map = `${st.location}/metadata -> ${dir}/metadata; ${st.location}/data -> ${st.location}/data`;
  await reconnect();
  await setMode('serial');
  if (!(await created('summary: part with false partition summaries', 'part_summary', st, { location: dir, location_map: map }))) return;
  await guarded(`summary: p = 3 over ${data} data manifests whose summaries exclude it keeps no file`, async () => {
    const node = await foreignScan(c, 'SELECT id FROM part_summary WHERE p = 3');
    const m = /^(\d+) of (\d+) \(pruned by partition: (\d+)/.exec(node.Files ?? '');
    const problems = [];
    if (!m || m[1] !== '0' || m[3] !== m[2]) problems.push(`Files: ${node.Files ?? '(no line)'}; expected 0 kept, all pruned by partition`);
    // p = 0 is inside the (false) bounds: its files are kept and read
    const [[n]] = await rowsOf('SELECT count(*) FROM part_summary WHERE p = 0');
    const [[want]] = await rowsOf(`SELECT count(*) FROM part_s${st.snaps.length - 1} WHERE p = 0`);
    if (n !== want) problems.push(`p = 0: ${n} rows, expected ${want}`);
    return { problems, note: `Files: ${node.Files}` };
  });
}

/** The deletes counters of EXPLAIN ANALYZE SELECT id, serial and parallel, for each snapshot with deletes. */
async function deleteCounterChecks(st) {
  for (const s of st.snaps.filter(Boolean)) {
    const liveRows = s.live.reduce((a, k) => a + st.files[k].rows, 0);
    const truthRows = s.truthRows;
    const pos = [...s.pos].filter(([k]) => s.live.includes(k)).reduce((a, [, set]) => a + set.size, 0);
    const eq = liveRows - truthRows - pos;
    if (pos + eq === 0) continue;
    const ft = `del_${st.key}_${s.k}`;
    await reconnect();
    if (!(await created(`deletes ${st.key} s${s.k}`, ft, st, { snapshot_id: String(s.id) }, fieldsAt(st, s.k, true)))) continue;
    for (const mode of ['serial', 'parallel']) {
      await guarded(`deletes ${st.key} s${s.k}/${mode}: ${pos} rows by positions/DVs, ${eq} by equality deletes`, async () => {
        await setMode(mode);
        const node = await foreignScan(c, `SELECT id FROM ${ft}`);
        const keys = Object.keys(node).filter((k) => /^Rows Removed by .*Delet/i.test(k));
        const eqKeys = keys.filter((k) => /equality/i.test(k));
        const posKeys = keys.filter((k) => !/equality/i.test(k));
        const sum = (ks) => ks.reduce((a, k) => a + Number(node[k]), 0);
        const problems = [];
        const shown = keys.map((k) => `${k}: ${node[k]}`).join(', ') || '(no deletes counter)';
        const ok = (sum(posKeys) === pos && (eqKeys.length === 0 || sum(eqKeys) === eq)) || (eqKeys.length === 0 && sum(posKeys) === pos + eq);
        if (!ok) problems.push(`${shown}; expected ${pos} removed by position deletes/DVs${eq ? ` and ${eq} by equality deletes (their own counter or counted with them)` : ''}`);
        const loops = node['Actual Loops'];
        const rows = node['Actual Rows'];
        const workers = node.Workers ?? [];
        const exact = workers.length === 0 && loops === 1;
        if (exact ? rows !== truthRows : Math.abs(rows * loops - truthRows) > loops) problems.push(`scan rows ${rows} x ${loops} loops, expected ${truthRows} in all`);
        return { problems, note: shown };
      });
    }
  }
}

async function badInputChecks(good) {
  for (const b of badTables) {
    await guarded(`bad_input ${b.name}`, async () => {
      const ft = `bad_${b.name}`;
      let err = null;
      try {
        await run(`DROP FOREIGN TABLE IF EXISTS ${ft}`);
        await run(`CREATE FOREIGN TABLE ${ft} (${ddlOf(FLAT0)}) SERVER ${SERVER} OPTIONS (format 'iceberg', location ${sqlString(b.loc)})`);
        await run(`SELECT * FROM ${ft}`);
      } catch (e) {
        err = e;
      }
      if (!(await alive(c))) {
        await reconnect();
        return { problems: [`session lost (${err ? showErr(err) : 'no error'})`] };
      }
      const problems = [];
      if (!err) problems.push(`SELECT * FROM ${ft} succeeded, expected an ERROR of class ${b.classes.join('/')}`);
      else {
        if (!b.classes.some((x) => String(err.code).startsWith(x))) problems.push(`${showErr(err)}: expected SQLSTATE ${b.classes.join('/')}`);
        const text = [err.message, err.detail, err.hint, err.where].filter(Boolean).join(' ');
        if (!b.names.some((n) => text.includes(n))) problems.push(`${showErr(err)} names none of ${b.names.join(', ')}`);
      }
      // the session still works: a good table reads
      const [[n]] = await rowsOf(`SELECT count(*) FROM ${good.ft}`);
      if (n !== good.count) problems.push(`afterwards count(*) FROM ${good.ft} = ${n}, expected ${good.count}`);
      await run(`DROP FOREIGN TABLE IF EXISTS ${ft}`).catch(() => {});
      return { problems, note: err ? `${showErr(err)}; session still works` : '' };
    });
  }
}

async function pgChecks() {
  const all = Object.values(tables).filter((st) => st.key !== 'name_reuse');
  for (const st of all) {
    const last = st.snaps.length - 1;
    for (const s of st.snaps.filter(Boolean)) {
      const ft = `${st.key}_id_${s.k}`;
      const label = `${st.key} s${s.k} snapshot_id`;
      await reconnect();
      const fields = fieldsAt(st, s.k, true);
      if (await created(label, ft, st, { snapshot_id: String(s.id) }, fields)) await checkTarget(label, st, s.k, ft, fields);
    }
    await reconnect();
    if (await created(`${st.key} latest`, `${st.key}_latest`, st)) await checkTarget(`${st.key} latest (s${last})`, st, last, `${st.key}_latest`, st.fields);
    for (const s of st.snaps.filter(Boolean)) {
      // even snapshots at their own time, odd ones half an hour later (before the next)
      const at = s.ts + (s.k % 2 ? 30 * 60000 : 0);
      const fields = fieldsAt(st, s.k, true);
      const ft = `${st.key}_ts_${s.k}`;
      const label = `${st.key} s${s.k} timestamp ${iso(at)}`;
      await reconnect();
      if (await created(label, ft, st, { timestamp: iso(at) }, fields)) await checkTarget(label, st, s.k, ft, fields, { reduced: true });
      // as_of: a table without a snapshot option, its columns those of the snapshot the time picks
      const asOf = `${st.key}_asof_${s.k}`;
      const asOfLabel = `${st.key} s${s.k} as_of ${iso(at)}`;
      if (await created(asOfLabel, asOf, st, {}, fields)) {
        await checkTarget(asOfLabel, st, s.k, asOf, fields, {
          reduced: true, setup: () => run(`SET parquet_fdw.as_of = ${sqlString(iso(at))}`),
        });
      }
    }
    // refs, as Iceberg's Java (SnapshotUtil.schemaFor) reads them: a
    // branch with the table's current schema, a tag with the tagged
    // snapshot's own
    for (const [ref, s] of Object.entries(st.refs ?? {})) {
      const ft = `${st.key}_ref_${ref}`;
      const label = `${st.key} ref ${ref} (s${s})`;
      const fields = st.tags?.has(ref) ? fieldsAt(st, s, true) : st.fields;
      await reconnect();
      if (await created(label, ft, st, { ref }, fields)) await checkTarget(label, st, s, ft, fields, { reduced: true });
    }
    await pruneChecks(st);
    if (st.key === 'part' && !S3) await summaryCheck(st);
    await deleteCounterChecks(st);
  }
  // name_reuse: z of the files (old id) must not show
  const nr = tables.name_reuse;
  await reconnect();
  await guarded('name_reuse: a dropped z re-added under a new id reads NULL', async () => {
    await createForeign('name_reuse_t', nr);
    const got = await rowsOf('SELECT count(*), count(z), sum(id) FROM name_reuse_t');
    const want = [['1000', '0', String(500500)]];
    const d = orderedDiff(got, want);
    return { problems: d ? [d] : [], note: got[0].join('|') };
  });
  await reconnect();
  const [[n]] = await rowsOf(`SELECT count(*) FROM flat_s${tables.flat.snaps.length - 1}`);
  if (await created('bad_input (the good table read after each)', 'good_flat', tables.flat)) await badInputChecks({ ft: 'good_flat', count: n });
  else await badInputChecks({ ft: `flat_s${tables.flat.snaps.length - 1}`, count: n });
}

// ------------------------------------------------------------ --s3 only

let s3 = null; // lib/s3_emulator.mjs: s3rver behind the SigV4 front
let rec = null; // lib/request_log.mjs in front of that: what PostgreSQL asked for
const uploads = []; // [local directory, key prefix] put into the bucket

async function startBucket() {
  const { startS3 } = await import('./lib/s3_emulator.mjs');
  const { startRequestLog } = await import('./lib/request_log.mjs');
  s3 = await startS3({ credentials: new Map([[S3_KEY.id, { secret: S3_KEY.secret }]]), buckets: [BUCKET] });
  rec = await startRequestLog(Number(new URL(s3.endpoint).port));
  // PostgreSQL reaches the bucket through the request log
  s3.endpoint = rec.endpoint;
}

async function stopBucket() {
  if (rec) await rec.close().catch(() => {});
  if (s3) await s3.stop().catch(() => {});
  rec = s3 = null;
}

const md5 = (file) => crypto.createHash('md5').update(fs.readFileSync(file)).digest('hex');

/**
 * Every file below dir put at prefix (keys exactly the relative names),
 * then listed back: problems (the harness's, not parquet_fdw's) unless the
 * keys are the file names and each object has the file's size and MD5.
 */
async function uploadTree(dir, prefix) {
  const files = filesBelow(dir);
  await s3.putDir(BUCKET, prefix, dir, files);
  const keys = (await s3.list(BUCKET, prefix)).sort();
  const want = files.map((f) => prefix + f).sort();
  const problems = [];
  if (keys.join('\n') !== want.join('\n')) {
    const missing = want.filter((k) => !keys.includes(k));
    const extra = keys.filter((k) => !want.includes(k));
    problems.push(`${files.length} files, ${keys.length} keys listed; missing ${JSON.stringify(missing.slice(0, 3))}, unexpected ${JSON.stringify(extra.slice(0, 3))}`);
  }
  for (const f of files) {
    const h = await s3.head(BUCKET, prefix + f);
    const local = path.join(dir, f);
    if (!h) problems.push(`${prefix}${f}: no object`);
    else if (h.size !== fs.statSync(local).size || String(h.etag).replace(/"/g, '') !== md5(local))
      problems.push(`${prefix}${f}: object of ${h.size} bytes, ETag ${h.etag}; file of ${fs.statSync(local).size}, MD5 ${md5(local)}`);
  }
  return { files: files.length, problems };
}

/** The bucket's copies: every table's directory at gen/<table>/, and the extra trees (uploads). */
async function uploadAll() {
  const t0 = Date.now();
  const trees = [
    ...Object.values(tables).map((st) => [st.t.dir, `gen/${st.key}/`]),
    ...badTables.map((b) => [b.dir, `gen/bad_${b.name}/`]),
    ...uploads,
  ];
  let n = 0;
  for (const [dir, prefix] of trees) {
    await genChecked(`s3 upload ${prefix}`, async () => {
      const r = await uploadTree(dir, prefix);
      n += r.files;
      return { problems: r.problems, note: `${r.files} objects, keys, sizes and ETags (MD5) those of ${dir}` };
    });
  }
  console.log(`${STAGE}: ${n} objects put into s3://${BUCKET}/ (${Date.now() - t0} ms)`);
}

/** mapped: metadata recorded at /x/warehouse/mapped, its data file at /x/landing/mapped/... (outside the table's prefix). */
const mapped = {};
async function buildMapped() {
  const dir = path.join(OUT, 'mapped');
  const landing = path.join(OUT, 'landing');
  const t = new IcebergTable({ dir, location: '/x/warehouse/mapped', formatVersion: 2, schema: { fields: icebergFields(FLAT0) }, rand,
    nameMapping: true, lastUpdatedMs: T0 + 50 * HOUR });
  t.writeMetadata();
  const rel = `mapped/data/${pad5(0)}-${uuid()}.parquet`;
  const local = path.join(landing, rel);
  const src = '(SELECT * FROM flat_rows WHERE file_no = 1 ORDER BY id LIMIT 3000) s';
  const size = await copyTo(`SELECT ${selectList(FLAT0)} FROM ${src} ORDER BY id`, local);
  const cols = FLAT0.map((x) => ({ name: x.sql, id: x.id, type: x.type }));
  const stats = statsRows(await rowsOf(statsSql(`(SELECT 1 AS one, * FROM ${src}) s2`, 'one', cols)), cols)[0];
  t.commit({ operation: 'append', timestampMs: T0 + 51 * HOUR,
    add: [{ content: 0, entries: [added(dataFileRecord({ recordedPath: `/x/landing/${rel}`, size, rows: stats.rows, metrics: fileMetrics(stats.cols) }))] }] });
  await run(`CREATE TABLE mapped_s1 AS SELECT ${selectList(FLAT0)} FROM ${src}`);
  uploads.push([dir, 'gen/mapped/'], [landing, 'landing/']);
  Object.assign(mapped, { t, recorded: `/x/landing/${rel}`, rows: stats.rows });
}

/** The rows of a foreign table (created by the caller) against the heap truth of snapshot s, in each mode. */
async function sameRows(label, ft, st, s, fields, modes = ['serial', 'parallel']) {
  const cols = fields.map((f) => f.name).join(', ');
  for (const mode of modes) {
    await guarded(`${label}/${mode}`, async () => {
      const exp = await truthOf(st, s, fields, 'select_all', 'SELECT {C} FROM {T}');
      await setMode(mode);
      const got = await rowsOf(`SELECT ${cols} FROM ${ft}`);
      const d = multisetDiff(got, exp);
      const [[n]] = await rowsOf(`SELECT count(*) FROM ${ft}`);
      const problems = d ? [`SELECT ${cols} FROM ${ft}: ${d}`] : [];
      if (Number(n) !== exp.length) problems.push(`count(*) ${n}, expected ${exp.length}`);
      return { problems, note: `${got.length} rows` };
    });
  }
}

/** An error the statements must raise: SQLSTATE (prefix) code, text naming one of names; then the session still works. */
async function mustFail(label, statements, code, names) {
  await guarded(label, async () => {
    let err = null;
    try {
      for (const q of statements) await run(q);
    } catch (e) {
      err = e;
    }
    if (!(await alive(c))) {
      await reconnect();
      return { problems: [`session lost (${err ? showErr(err) : 'no error'})`] };
    }
    const problems = [];
    if (!err) problems.push(`succeeded, expected an ERROR ${code}`);
    else {
      if (!String(err.code).startsWith(code)) problems.push(`${showErr(err)}: expected SQLSTATE ${code}`);
      const text = [err.message, err.detail, err.hint, err.where].filter(Boolean).join(' ');
      if (!names.some((x) => text.includes(x))) problems.push(`${showErr(err)} names none of ${names.join(', ')}`);
    }
    await rowsOf('SELECT 1');
    return { problems, note: err ? `${showErr(err)}; session still works` : '' };
  });
}

/** Options clause of an Iceberg foreign table (location and more). */
const icebergOptions = (o) => `OPTIONS (${Object.entries({ format: 'iceberg', ...o }).map(([k, v]) => `${k} ${sqlString(v)}`).join(', ')})`;

async function locationChecks() {
  const part = tables.part;
  const v3 = tables.v3;
  const lastPart = part.snaps.length - 1;
  const lastV3 = v3.snaps.length - 1;
  // location naming a metadata file: the current one, an older one (its
  // own current snapshot and schema), v3's; then with an explicit map
  const mdUrl = (st, file) => `${readLocation(st)}/metadata/${file}`;
  for (const [st, s, file, fields, more, what] of [
    [part, lastPart, part.snaps[lastPart].metadata, part.fields, {}, 'the current metadata file'],
    [part, 3, part.snaps[3].metadata, fieldsAt(part, 3, true), {}, `s3's metadata file (its schema: ${ddlOf(fieldsAt(part, 3, true)).split(', ').slice(0, 3).join(', ')}, ...)`],
    [v3, lastV3, v3.snaps[lastV3].metadata, v3.fields, {}, 'v3\'s current metadata file (DVs)'],
    [part, lastPart, part.snaps[lastPart].metadata, part.fields, { location_map: `${part.t.location} -> ${part.t.location}` },
      `the current metadata file, with location_map '${part.t.location} -> ${part.t.location}'`],
  ]) {
    const url = mdUrl(st, file);
    const ft = `mdfile_${st.key}_${s}`;
    const label = `s3 metadata file location ${url} (${what}) = ${st.key}_s${s}`;
    await reconnect();
    if (await created(label, ft, st, { location: url, ...more }, fields)) await sameRows(label, ft, st, s, fields);
  }
  // a trailing "/"
  {
    const label = `s3 location with a trailing / (${readLocation(part)}/) = part_s${lastPart}`;
    await reconnect();
    if (await created(label, 'part_slash', part, { location: `${readLocation(part)}/` })) await sameRows(label, 'part_slash', part, lastPart, part.fields, ['serial']);
  }
  // a prefix holding no table
  await reconnect();
  await mustFail(`s3 location ${S3_PREFIX}/no_such_table: 58P01 naming it`, [
    'DROP FOREIGN TABLE IF EXISTS nothing_here',
    `CREATE FOREIGN TABLE nothing_here (id bigint) SERVER ${SERVER} ${icebergOptions({ location: `${S3_PREFIX}/no_such_table` })}`,
    'SELECT * FROM nothing_here',
  ], '58P01', [`${S3_PREFIX}/no_such_table`]);

  // location_map: the data file outside the table's prefix
  const mapOk = `/x/landing -> s3://${BUCKET}/landing; /x/warehouse -> ${S3_PREFIX}`;
  const mst = { key: 'mapped', t: mapped.t };
  await reconnect();
  await guarded(`s3 location_map '${mapOk}': a data file recorded at ${mapped.recorded} (object landing/mapped/...)`, async () => {
    await run('DROP FOREIGN TABLE IF EXISTS mapped_t');
    await run(`CREATE FOREIGN TABLE mapped_t (${ddlOf(FLAT0)}) SERVER ${SERVER} ${icebergOptions({ location: `${S3_PREFIX}/mapped`, location_map: mapOk })}`);
    const problems = [];
    for (const mode of ['serial', 'parallel']) {
      const exp = await truthOf(mst, 1, FLAT0, 'select_all', 'SELECT {C} FROM {T}');
      await setMode(mode);
      const got = await rowsOf(`SELECT ${FLAT0.map((f) => f.name).join(', ')} FROM mapped_t`);
      const d = multisetDiff(got, exp);
      if (d) problems.push(`${mode}: ${d}`);
    }
    return { problems, note: `${mapped.rows} rows, serial and parallel` };
  });
  await mustFail(`s3 location_map '/x/warehouse -> ${S3_PREFIX}' only: 0A000 naming ${mapped.recorded}`, [
    'DROP FOREIGN TABLE IF EXISTS mapped_t',
    `CREATE FOREIGN TABLE mapped_t (${ddlOf(FLAT0)}) SERVER ${SERVER} ${icebergOptions({ location: `${S3_PREFIX}/mapped`, location_map: `/x/warehouse -> ${S3_PREFIX}` })}`,
    'SELECT * FROM mapped_t',
  ], '0A000', [mapped.recorded]);
}

/**
 * The requests per statement over gen/req/ (a copy of part), as the head
 * of this file says. Serial plans: a parallel worker is a backend of its
 * own, with a cache of its own.
 */
async function requestChecks() {
  const st = tables.part;
  const last = st.snaps.length - 1;
  const loc = `${S3_PREFIX}/req`;
  const md = 'gen/req/metadata/';
  const { listingsOf } = await import('./lib/request_log.mjs');
  const manifestsOf = (k) => {
    const snap = st.t.snapshots.find((x) => x['snapshot-id'] === st.snaps[k].id);
    const list = path.basename(snap['manifest-list']);
    return { list, manifests: readAvro(fs.readFileSync(localOf(snap['manifest-list']))).records.map((m) => path.basename(m.manifest_path)).sort() };
  };
  const truthCount = async (k) => (await rowsOf(`SELECT count(*) FROM part_s${k}`))[0][0];
  const measure = async (sql) => {
    rec.reset();
    const rows = await rowsOf(sql);
    const log = [...rec.log];
    const gets = (pred) => log.filter((r) => r.method === 'GET' && !r.query.has('list-type') && r.key.startsWith(md) && pred(r.key.slice(md.length)))
      .map((r) => r.key.slice(md.length));
    const r = {
      rows,
      lists: listingsOf(log, BUCKET, md).length,
      hint: gets((k) => k === 'version-hint.text').length,
      metadata: gets((k) => k.endsWith('.metadata.json')),
      lists_avro: gets((k) => /^snap-.*\.avro$/.test(k)),
      manifests: gets((k) => k.endsWith('.avro') && !k.startsWith('snap-')),
      heads: log.filter((x) => x.method === 'HEAD' && x.key.startsWith(md)).length,
      data: log.filter((x) => x.key.startsWith('gen/req/data/')).length,
      total: log.length,
    };
    r.show = `${r.lists} listing(s) of ${md}, ${r.hint} GET(s) of version-hint.text, metadata GETs [${r.metadata.join(', ')}], ` +
      `manifest list GETs ${r.lists_avro.length}, manifest GETs ${r.manifests.length}, ${r.heads} HEADs in metadata/, ${r.data} data requests, ${r.total} requests`;
    return r;
  };
  const sameSet = (got, want) => JSON.stringify([...got].sort()) === JSON.stringify([...want].sort());
  /** Problems of a statement that must (or must not: read null) read snapshot k's metadata file, list and manifests. */
  const expect = (r, { file, read, count }) => {
    const p = [];
    if (r.lists > 1) p.push(`${r.lists} listings of ${md}, expected at most 1`);
    if (r.hint > 1) p.push(`${r.hint} GETs of version-hint.text, expected at most 1`);
    if (r.metadata.length > 1 || r.metadata.some((f) => f !== file)) p.push(`metadata GETs [${r.metadata.join(', ')}], expected at most one, of ${file}`);
    if (read === null) {
      if (r.lists_avro.length || r.manifests.length) p.push(`manifest list/manifests read again: [${[...r.lists_avro, ...r.manifests].join(', ')}]`);
    } else {
      if (!r.metadata.length) p.push(`${file} not read`);
      if (!sameSet(r.lists_avro, [read.list])) p.push(`manifest list GETs [${r.lists_avro.join(', ')}], expected [${read.list}] once`);
      if (!sameSet(r.manifests, read.manifests)) p.push(`manifest GETs [${r.manifests.join(', ')}], expected each of [${read.manifests.join(', ')}] once`);
    }
    if (count !== undefined && r.rows[0].some((v) => v !== count)) p.push(`rows ${JSON.stringify(r.rows[0])}, expected ${count}`);
    return p;
  };
  const step = async (name, sql, want) => {
    await guarded(`s3 requests: ${name}`, async () => {
      const r = await measure(sql);
      return { problems: expect(r, want), note: r.show };
    });
  };
  const s1 = st.snaps[1];
  const fileN = st.snaps[last].metadata;
  const file4 = st.snaps[4].metadata;
  const count5 = await truthCount(last);
  const count4 = await truthCount(4);
  const count1 = await truthCount(1);
  await reconnect(); // a new backend: nothing cached
  await setMode('serial');
  try {
    await run('DROP FOREIGN TABLE IF EXISTS req_latest, req_s1');
    await run(`CREATE FOREIGN TABLE req_latest (${ddlOf(st.fields)}) SERVER ${SERVER} ${icebergOptions({ location: loc })}`);
    await run(`CREATE FOREIGN TABLE req_s1 (${ddlOf(fieldsAt(st, 1, true))}) SERVER ${SERVER} ${icebergOptions({ location: loc, snapshot_id: String(s1.id) })}`);
  } catch (err) {
    check('s3 requests: CREATE FOREIGN TABLE', [`ERROR ${showErr(err)}`]);
    return;
  }
  const q = 'SELECT count(*) FROM req_latest';
  await step(`first statement (a new backend) reads ${fileN}, s${last}'s manifest list and each manifest once`, q,
    { file: fileN, read: manifestsOf(last), count: count5 });
  await step('a second statement: the metadata file at most once, no manifest list or manifest', q, { file: fileN, read: null, count: count5 });
  await step('one statement reading the table three times: the same', `SELECT (SELECT count(*) FROM req_latest),
    (SELECT count(*) FROM req_latest WHERE i IS NOT NULL OR i IS NULL), (SELECT count(*) FROM (SELECT id FROM req_latest ORDER BY id) x)`,
  { file: fileN, read: null, count: count5 });
  await step(`snapshot_id of s1 (not yet read): s1's manifest list and manifests once`, 'SELECT count(*) FROM req_s1',
    { file: fileN, read: manifestsOf(1), count: count1 });
  // the latest and s1 in one statement: both cached; the metadata file is
  // found and read once per snapshot asked (iceberg_table.c: the statement's
  // answers are keyed by location and snapshot choice)
  await guarded('s3 requests: one statement reading the latest snapshot and s1: no manifest list or manifest, the metadata file read once per snapshot asked (2)', async () => {
    const r = await measure('SELECT (SELECT count(*) FROM req_latest), (SELECT count(*) FROM req_s1)');
    const p = [];
    if (r.lists > 1) p.push(`${r.lists} listings`);
    if (r.metadata.length > 2 || r.metadata.some((f) => f !== fileN)) p.push(`metadata GETs [${r.metadata.join(', ')}], expected at most 2, of ${fileN}`);
    if (r.lists_avro.length || r.manifests.length) p.push(`manifest list/manifests read again: [${[...r.lists_avro, ...r.manifests].join(', ')}]`);
    if (r.rows[0][0] !== count5 || r.rows[0][1] !== count1) p.push(`rows ${JSON.stringify(r.rows[0])}, expected [${count5}, ${count1}]`);
    if (r.metadata.length === 2) note(`s3 requests: one statement reading two snapshots of one table GETs its metadata file ${fileN} twice (once per snapshot asked)`);
    return { problems: p, note: r.show };
  });
  // a hint naming an older metadata file (as a writer's commit would change it)
  const v4 = /^v(\d+)\.metadata\.json$/.exec(file4)[1];
  const vN = /^v(\d+)\.metadata\.json$/.exec(fileN)[1];
  await s3.put(BUCKET, `${md}version-hint.text`, Buffer.from(v4));
  await step(`version-hint.text now ${v4}: ${file4} read, and s4's manifest list and manifests`, q, { file: file4, read: manifestsOf(4), count: count4 });
  await s3.put(BUCKET, `${md}version-hint.text`, Buffer.from(vN));
  await step(`version-hint.text back to ${vN}: ${fileN} read, no manifest (its snapshot still cached)`, q, { file: fileN, read: null, count: count5 });
  // the current metadata file rewritten: other bytes (no indentation), the same table
  const text = fs.readFileSync(st.t.local(`metadata/${fileN}`), 'utf8');
  await s3.put(BUCKET, `${md}${fileN}`, Buffer.from(jsonBig(parseJsonBig(text))));
  await step(`${fileN} rewritten (another size and ETag): read with its manifests again`, q, { file: fileN, read: manifestsOf(last), count: count5 });
  await step('then a statement more: no manifest', q, { file: fileN, read: null, count: count5 });
  // a parallel plan: its workers are backends of their own
  await guarded('s3 requests: a parallel statement over the table the leader has cached: manifests read at most once per worker', async () => {
    await setMode('parallel');
    const plan = (await rowsOf(`EXPLAIN (COSTS OFF) ${q}`)).map((r) => r[0]).join('\n');
    const r = await measure(q);
    const launched = (await rowsOf(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${q}`)).map((x) => x[0]).join('\n').match(/Workers Launched: (\d+)/);
    r.show += `; Workers Launched ${launched ? launched[1] : '?'} (an EXPLAIN ANALYZE of the same statement)`;
    await setMode('serial');
    const p = [];
    if (!/Parallel Foreign Scan|Gather/.test(plan)) p.push('no parallel plan');
    // the leader reads nothing again; each worker, a process of its own
    // with a cold cache, reads the snapshot's manifest list and manifests
    // once (known cost, as for Delta's workers: a snapshot is not shared
    // through dynamic shared memory)
    const workers = launched ? Number(launched[1]) : 0;
    const times = new Map();
    for (const k of [...r.lists_avro, ...r.manifests]) times.set(k, (times.get(k) ?? 0) + 1);
    const most = Math.max(0, ...times.values());
    if (most > workers) p.push(`the manifest list or a manifest read ${most} times with ${workers} worker(s): more than once per worker`);
    if (times.size) r.show += `; each of ${times.size} manifest files read ${[...new Set(times.values())].join(' or ')} time(s) by the workers`;
    if (r.metadata.some((f) => f !== fileN)) p.push(`metadata GETs [${r.metadata.join(', ')}], expected only ${fileN}`);
    if (r.rows[0][0] !== count5) p.push(`count ${r.rows[0][0]}, expected ${count5}`);
    if (p.length) p.push(r.show);
    return { problems: p, note: r.show };
  });
  await run('DROP FOREIGN TABLE IF EXISTS req_latest, req_s1').catch(() => {});
}

/**
 * A commit between the leader's read of a table and its workers' (raceCase):
 * over a copy of the table (at gen/<copy>/, its version-hint.text first
 * naming leaderFile), a parallel plan without leader participation reads
 * the table while version-hint.text is moved to hintFile (a later commit)
 * the moment the leader has fetched leaderFile (s3rver's stored object
 * written in place, synchronously, as the request log notes the leader's
 * GET: the workers start later). The statement must return the rows of
 * the table as leaderFile has it (snapshot s, columns fields), as it does
 * without the move.
 */
async function raceCase({ st, copy, options, leaderFile, hintFile, s, fields, what }) {
  const md = `gen/${copy}/metadata/`;
  const vLeader = /^v(\d+)\./.exec(leaderFile)[1];
  const vHint = /^v(\d+)\./.exec(hintFile)[1];
  const vLatest = String(st.t.version);
  const stored = s3.storedFile(BUCKET, `${md}version-hint.text`);
  const cols = fields.map((f) => f.name).join(', ');
  const name = `s3 snapshot consistency ${st.key}: ${what}`;
  await reconnect();
  await guarded(name, async () => {
    if (!fs.existsSync(stored) || fs.readFileSync(stored, 'utf8') !== vLatest || vLeader.length !== vLatest.length || vHint.length !== vLatest.length)
      return { problems: [`harness: s3rver's stored object ${stored} is not there holding ${vLatest} (or a version of another length)`] };
    const exp = await truthOf(st, s, fields, 'select_all', 'SELECT {C} FROM {T}');
    await run(`DROP FOREIGN TABLE IF EXISTS race_${st.key}`);
    await run(`CREATE FOREIGN TABLE race_${st.key} (${ddlOf(fields)}) SERVER ${SERVER} ${icebergOptions({ location: `${S3_PREFIX}/${copy}`, ...options })}`);
    const problems = [];
    let swapped = false;
    let metadataGets = [];
    let n = null;
    fs.writeFileSync(stored, vLeader); // the table as leaderFile has it
    try {
      await setMode('parallel');
      await run('SET parallel_leader_participation = off');
      const plan = (await rowsOf(`EXPLAIN (COSTS OFF) SELECT ${cols} FROM race_${st.key}`)).map((r) => r[0]).join('\n');
      if (!/Gather/.test(plan)) problems.push('harness: no parallel plan');
      const before = multisetDiff(await rowsOf(`SELECT ${cols} FROM race_${st.key}`), exp);
      if (before) problems.push(`without the move: ${before}`);
      rec.reset();
      rec.log.push = function push(e) {
        if (!swapped && e.method === 'GET' && e.key === `${md}${leaderFile}`) {
          fs.writeFileSync(stored, vHint);
          swapped = true;
        }
        return Array.prototype.push.call(this, e);
      };
      const got = await rowsOf(`SELECT ${cols} FROM race_${st.key}`);
      n = got.length;
      metadataGets = rec.log.filter((r) => r.method === 'GET' && r.key.startsWith(md) && r.key.endsWith('.metadata.json')).map((r) => r.key.slice(md.length));
      const d = multisetDiff(got, exp);
      if (!swapped) problems.push(`harness: the leader's GET of ${leaderFile} was not seen`);
      else if (d) problems.push(`SELECT ${cols} FROM race_${st.key}: ${d}; metadata GETs in the statement [${metadataGets.join(', ')}]`);
    } finally {
      delete rec.log.push;
      fs.writeFileSync(stored, vLatest);
      await run('RESET parallel_leader_participation').catch(() => {});
      await setMode('serial').catch(() => {});
    }
    return { problems, note: `${n} rows; metadata GETs [${metadataGets.join(', ')}] (the leader's, then its workers')` };
  });
  await run(`DROP FOREIGN TABLE IF EXISTS race_${st.key}`).catch(() => {});
}

async function raceChecks() {
  // flat: s3 read by the leader, s4 (an equality delete, the same files and schema) committed before its workers start
  const flat = tables.flat;
  await raceCase({
    st: flat, copy: 'race_flat', options: { location_map: `${FAKE_PREFIX}/flat -> ${S3_PREFIX}/race_flat` },
    leaderFile: flat.snaps[3].metadata, hintFile: flat.snaps[4].metadata, s: 3, fields: flat.fields,
    what: `the leader reads ${flat.snaps[3].metadata} (s3), ${flat.snaps[4].metadata} (s4: an equality delete) is committed before its workers read: s3's rows`,
  });
  // part: the leader reads the metadata file written by the schema change
  // (current snapshot s3, current schema label and extra), s4 is committed
  // before its workers read: s3's rows in the current schema's columns
  const part = tables.part;
  const evolved = part.t.metadataFiles.find((m) => m.snapshotId === part.snaps[3].id && m.schemaId === 1);
  await raceCase({
    st: part, copy: 'race_part', options: {},
    leaderFile: path.basename(evolved.rel), hintFile: part.snaps[4].metadata, s: 3, fields: part.fields,
    what: `the leader reads ${path.basename(evolved.rel)} (current snapshot s3, current schema ${ddlOf(part.fields).split(', ').filter((c) => /^(label|extra) /.test(c)).join(', ')} added after it), ` +
      `${part.snaps[4].metadata} (s4) is committed before its workers read: s3's rows in the current schema's columns`,
  });
}

async function s3Checks() {
  console.log(`${STAGE}: bucket only (s3 ...)`);
  await locationChecks();
  await requestChecks();
  await raceChecks();
}

// ------------------------------------------------------------------ main

async function build() {
  await buildPart();
  await buildFlat();
  await buildV3();
  await buildNameReuse();
  await buildBad();
  if (S3) {
    await buildMapped();
    uploads.push([tables.part.t.dir, 'gen/req/']); // requestChecks' copy of part
    uploads.push([tables.flat.t.dir, 'gen/race_flat/'], [tables.part.t.dir, 'gen/race_part/']); // raceChecks' copies
  }
  for (const st of Object.values(tables)) {
    for (const s of st.snaps.filter(Boolean)) {
      if (st.key === 'name_reuse') {
        s.truthRows = 1000;
        continue;
      }
      s.truthRows = Number((await rowsOf(`SELECT count(*) FROM ${st.key}_s${s.k}`))[0][0]);
    }
  }
  await run('CREATE TABLE name_reuse_s1 AS SELECT id, NULL::int AS z FROM name_reuse_rows');
}

async function main() {
  console.log(`${STAGE}: seed ${SEED} (--seed ${SEED} reproduces the tables), ${ROWS} rows, directory ${OUT}${WRITE_ONLY ? ' (--write-only)' : ''}`);
  if (S3) {
    try {
      await startBucket();
    } catch (err) {
      console.log(`FAIL ${STAGE}: cannot start the local S3: ${firstLine(err.stack || err.message)}`);
      console.log(`${STAGE}: 0 passed, 1 failed`);
      return 1;
    }
    console.log(`${STAGE}: local S3 at ${s3.endpoint} (request log) in front of the SigV4 front and s3rver; bucket ${BUCKET}`);
  }
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
    if (S3) {
      // as check_delta.mjs --s3: the endpoint in the server, the keys in the user mapping
      await run(`CREATE SERVER ${SERVER} FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint ${sqlString(s3.endpoint)}, region 'us-east-1', url_style 'path')`);
      await run(`CREATE USER MAPPING FOR CURRENT_USER SERVER ${SERVER} OPTIONS (key_id ${sqlString(S3_KEY.id)}, secret ${sqlString(S3_KEY.secret)})`);
    } else await run(`CREATE SERVER ${SERVER} FOREIGN DATA WRAPPER parquet_fdw`);
    await run(`LOAD 'parquet_fdw'`);
    try {
      await build();
    } catch (err) {
      check('build the tables', [`${err.code ? showErr(err) : firstLine(err.stack || err.message)}`]);
      return summary(STAGE);
    }
    printLayout();
    await generatorChecks();
    if (S3) await uploadAll();
    if (!WRITE_ONLY) {
      console.log(`${STAGE}: parquet_fdw part (format 'iceberg')${S3 ? `, through s3://${BUCKET}/` : ''}`);
      await pgChecks();
      if (S3) await s3Checks();
    }
    code = summary(STAGE);
  } finally {
    await c.end().catch(() => {});
    if (!KEEP) await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch((err) => console.log(`${STAGE}: could not drop ${DB}: ${err.message}`));
    else console.log(`${STAGE}: kept database ${DB} (--keep)`);
    if (!KEEP && !WRITE_ONLY) fs.rmSync(OUT, { recursive: true, force: true });
    else console.log(`${STAGE}: kept ${OUT}`);
    await admin.end().catch(() => {});
    await stopBucket();
  }
  return code;
}

main().then((code) => process.exit(code), (err) => {
  console.error(err.stack || String(err));
  console.log(`${STAGE}: 0 passed, 1 failed`);
  if (!KEEP && !WRITE_ONLY) fs.rmSync(OUT, { recursive: true, force: true });
  stopBucket().finally(() => process.exit(1));
});
