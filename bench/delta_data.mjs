#!/usr/bin/env node
// The Delta table of bench/delta.sh, from the heap table li_heap (its rows'
// file_no and pos set by delta.sh), PostgreSQL through the PG* environment:
//
//   node bench/delta_data.mjs TABLE_DIR FILES DELETE_PCT SEED
//
// Data files: COPY (SELECT <the 18 columns> FROM li_heap WHERE file_no = k
// ORDER BY pos) TO 'TABLE_DIR/part-NNNNN.parquet' (FORMAT parquet), so a
// row's position in its file is its pos (written by the server, user
// postgres; our writer's defaults: snappy, 122,880-row row groups).
//
// Deletions: round(rows * DELETE_PCT / 100) distinct row numbers drawn
// uniformly over the whole table (a seeded PRNG, lib/delta_dv.mjs's), kept
// in li_del (file_no, pos): the truth of the Delta table is the view li_live.
//
// The log (_delta_log), by PROTOCOL.md, as Spark writes it:
//   v0  commitInfo; protocol (reader 3 / writer 7, deletionVectors and
//       timestampNtz: l_ts is a timestamp without time zone); metaData (the
//       schemaString of li_heap's 18 columns); one add per file with size,
//       modificationTime and stats: numRecords, minValues, maxValues,
//       nullCount of every column except l_ts (computed from the heap rows;
//       writers may leave columns out of the statistics)
//   v1  commitInfo (DELETE); for each file with deleted rows a remove and an
//       add of the same path with its deletionVector ('u' storage: all of
//       them in one deletion_vector_<uuid>.bin, as a Spark DELETE writes)
//       and the same stats with tightBounds false
//
// Prints what it wrote (files, rows, bytes, deleted rows, files with a
// deletion vector, the DV file's size).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { DvFile, dvData, prng, randomUuidText, serializerName } from '../test/js/lib/delta_dv.mjs';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const pg = require('pg');

const [dir, filesArg, pctArg, seedArg] = process.argv.slice(2);
if (!dir || !filesArg) {
  console.error('usage: node bench/delta_data.mjs TABLE_DIR FILES DELETE_PCT SEED');
  process.exit(2);
}
const FILES = Number(filesArg);
const PCT = Number(pctArg ?? 1);
const SEED = Number(seedArg ?? 1);
const rand = prng(SEED);
const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;

// li_heap's data columns, their Delta types, and whether the stats hold them
const COLUMNS = [
  ['l_orderkey', 'long'], ['l_partkey', 'integer'], ['l_suppkey', 'integer'], ['l_linenumber', 'integer'],
  ['l_quantity', 'double'], ['l_extendedprice', 'double'], ['l_discount', 'double'], ['l_tax', 'double'],
  ['l_returnflag', 'string'], ['l_linestatus', 'string'], ['l_shipdate', 'date'], ['l_commitdate', 'date'],
  ['l_receiptdate', 'date'], ['l_shipinstruct', 'string'], ['l_shipmode', 'string'], ['l_comment', 'string'],
  ['l_ts', 'timestamp_ntz'], ['l_price', 'decimal(12,2)'],
];
const STATS_COLUMNS = COLUMNS.filter(([, t]) => t !== 'timestamp_ntz');
const NUMERIC = new Set(['long', 'integer', 'double', 'decimal(12,2)']);
const SCHEMA = {
  type: 'struct',
  fields: COLUMNS.map(([name, type]) => ({ name, type, nullable: true, metadata: {} })),
};
const PROTOCOL = {
  minReaderVersion: 3, minWriterVersion: 7,
  readerFeatures: ['deletionVectors', 'timestampNtz'], writerFeatures: ['deletionVectors', 'timestampNtz'],
};

const c = new pg.Client({ options: '-c DateStyle=ISO -c extra_float_digits=1 -c max_parallel_workers_per_gather=2' });
await c.connect();
const TEXT = { getTypeParser: () => (v) => v };
const rowsOf = async (sql, values) => (await c.query({ text: sql, values, rowMode: 'array', types: TEXT })).rows;

// ------------------------------------------------------------ data files
const t0 = performance.now();
fs.mkdirSync(path.join(dir, '_delta_log'), { recursive: true });
fs.chmodSync(dir, 0o777);
const name = (k) => `part-${String(k).padStart(5, '0')}.parquet`;
const cols = COLUMNS.map(([n]) => n).join(', ');
for (let k = 0; k < FILES; k++) {
  await c.query(`COPY (SELECT ${cols} FROM li_heap WHERE file_no = ${k} ORDER BY pos)
    TO ${lit(path.join(dir, name(k)))} WITH (FORMAT parquet)`);
}
const tCopy = performance.now() - t0;

// ------------------------------------------------------- per-file stats
const t1 = performance.now();
const aggs = STATS_COLUMNS.flatMap(([n]) => [`min(${n})::text`, `max(${n})::text`, `count(*) - count(${n})`]);
const statRows = await rowsOf(`SELECT file_no, count(*), ${aggs.join(', ')} FROM li_heap GROUP BY file_no ORDER BY file_no`);
if (statRows.length !== FILES) throw new Error(`li_heap has ${statRows.length} files, not ${FILES}`);
const files = statRows.map((r) => {
  const k = Number(r[0]);
  const minValues = {};
  const maxValues = {};
  const nullCount = {};
  STATS_COLUMNS.forEach(([n, type], j) => {
    const v = (x) => (x === null ? null : NUMERIC.has(type) ? Number(x) : x);
    const [mn, mx, nulls] = r.slice(2 + 3 * j, 5 + 3 * j);
    if (mn !== null) minValues[n] = v(mn);
    if (mx !== null) maxValues[n] = v(mx);
    nullCount[n] = Number(nulls);
  });
  const st = fs.statSync(path.join(dir, name(k)));
  return {
    k, path: name(k), size: st.size, mtime: Math.floor(st.mtimeMs), rows: Number(r[1]),
    stats: { numRecords: Number(r[1]), minValues, maxValues, nullCount },
  };
});
const tStats = performance.now() - t1;

// ------------------------------------------------------------ deletions
const total = files.reduce((s, f) => s + f.rows, 0);
const nDel = Math.round((total * PCT) / 100);
const picked = new Set();
while (picked.size < nDel) picked.add(Math.floor(rand() * total));
const starts = [];
let acc = 0;
for (const f of files) {
  starts.push(acc);
  acc += f.rows;
}
const byFile = new Map();
for (const rn of [...picked].sort((a, b) => a - b)) {
  let lo = 0;
  let hi = files.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= rn) lo = mid;
    else hi = mid - 1;
  }
  if (!byFile.has(lo)) byFile.set(lo, []);
  byFile.get(lo).push(rn - starts[lo]);
}
await c.query('TRUNCATE li_del');
for (const [k, ps] of byFile)
  await c.query('INSERT INTO li_del SELECT $1, unnest($2::int[])', [files[k].k, ps]);
await c.query('ANALYZE li_del');

const bin = new DvFile(rand);
const dvs = new Map();
for (const [k, ps] of byFile) dvs.set(k, bin.add(dvData(ps)));
fs.writeFileSync(path.join(dir, bin.relPath), bin.bytes());

// ------------------------------------------------------------------ log
const now = Date.now();
const commitInfo = (op, ts) => ({
  commitInfo: { timestamp: ts, operation: op, operationParameters: {}, engineInfo: 'bench/delta_data.mjs', isBlindAppend: op === 'WRITE' },
});
const add = (f, dv) => ({
  add: {
    path: f.path, partitionValues: {}, size: f.size, modificationTime: f.mtime, dataChange: true,
    stats: JSON.stringify({ ...f.stats, tightBounds: !dv }), ...(dv ? { deletionVector: dv } : {}),
  },
});
const remove = (f, ts) => ({
  remove: { path: f.path, deletionTimestamp: ts, dataChange: true, extendedFileMetadata: true, partitionValues: {}, size: f.size },
});
const writeCommit = (v, actions) => fs.writeFileSync(path.join(dir, '_delta_log', `${String(v).padStart(20, '0')}.json`),
  actions.map((a) => JSON.stringify(a)).join('\n') + '\n');

writeCommit(0, [
  commitInfo('WRITE', now - 1000),
  { protocol: PROTOCOL },
  {
    metaData: {
      id: randomUuidText(), format: { provider: 'parquet', options: {} }, schemaString: JSON.stringify(SCHEMA),
      partitionColumns: [], configuration: { 'delta.enableDeletionVectors': 'true' }, createdTime: now - 1000,
    },
  },
  ...files.map((f) => add(f, null)),
]);
writeCommit(1, [
  commitInfo('DELETE', now),
  ...[...byFile.keys()].sort((a, b) => a - b).flatMap((k) => [remove(files[k], now), add(files[k], dvs.get(k))]),
]);
await c.end();

const bytes = files.reduce((s, f) => s + f.size, 0);
const mib = (b) => (b / 1048576).toFixed(1);
console.log(`delta_data: ${dir}: ${FILES} files, ${total} rows, ${mib(bytes)} MiB (COPY TO ${(tCopy / 1000).toFixed(1)} s, stats ${(tStats / 1000).toFixed(1)} s)`);
console.log(`delta_data: ${nDel} rows deleted (${PCT}%, seed ${SEED}) in ${byFile.size} files, ` +
  `${Math.min(...[...byFile.values()].map((x) => x.length))}..${Math.max(...[...byFile.values()].map((x) => x.length))} per file; ` +
  `deletion vectors in ${bin.relPath} (${(bin.length / 1024).toFixed(1)} KiB; roaring: ${serializerName()})`);
console.log(`delta_data: log: 00000000000000000000.json (${files.length} adds), 00000000000000000001.json (${byFile.size} removes + adds with a deletion vector)`);
