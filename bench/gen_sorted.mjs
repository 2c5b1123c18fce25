#!/usr/bin/env node
// Write the pruning benchmark's Parquet file with hyparquet-writer (DuckDB
// writes no page index and one page per column chunk).
//
//   node bench/gen_sorted.mjs OUT [ROWS] [--rg ROWS_PER_GROUP] [--page BYTES]
//
// ROWS defaults to 20,000,000, row groups to 1,000,000 rows, the target data
// page size to 8192 bytes; snappy. The file is written one row group at a
// time with hyparquet-writer's streaming ParquetWriter (memory stays at about
// one row group; the page indexes and bloom filters of all row groups are
// kept until the footer is written).
//
// Every value is a formula of the row number i (0-based), so files are
// identical across runs:
//   id       bigint  (INT64, REQUIRED)   i: sorted, 0..ROWS-1
//   uuid_s   text    (BYTE_ARRAY UTF8)   md5(i as decimal text) formatted as a
//                                        UUID (8-4-4-4-12 lowercase hex):
//                                        unsorted, all distinct; bloom filter
//   payload  int     (INT32)            (i * 7919) % 1000003
//   amount   double  (DOUBLE)           ((i * 31337) % 100000) / 100
//   tag      text    (BYTE_ARRAY UTF8)   one of 16 words, i % 16 (dictionary-encoded)
// Every column is REQUIRED and has a page index (ColumnIndex + OffsetIndex);
// id and uuid_s are PLAIN-encoded (no dictionary attempt on unique values).
// The bloom filter has fpp 0.01 (2 MiB per row group of 1M distinct values).
//
// The same md5-as-UUID is `bench_uuid(i)` in SQL:
//   regexp_replace(md5(i::text), '^(.{8})(.{4})(.{4})(.{4})(.{12})$', '\1-\2-\3-\4-\5')

import crypto from 'node:crypto';
import fs from 'node:fs';

const hw = await import(new URL('../test/js/node_modules/hyparquet-writer/src/node.js', import.meta.url));
const { ParquetWriter, fileWriter, schemaFromColumnData } = hw;

function usage(msg) {
  if (msg) console.error(`gen_sorted: ${msg}`);
  console.error('usage: node bench/gen_sorted.mjs OUT [ROWS] [--rg ROWS_PER_GROUP] [--page BYTES]');
  process.exit(2);
}

const args = process.argv.slice(2);
let rg = 1_000_000;
let pageSize = 8192;
const pos = [];
for (let k = 0; k < args.length; k++) {
  const a = args[k];
  if (a === '--rg') rg = Number(args[++k]);
  else if (a === '--page') pageSize = Number(args[++k]);
  else if (a.startsWith('--')) usage(`unknown option ${a}`);
  else pos.push(a);
}
if (pos.length < 1 || pos.length > 2) usage();
const out = pos[0];
const rows = pos.length > 1 ? Number(pos[1]) : 20_000_000;
if (!Number.isSafeInteger(rows) || rows <= 0) usage(`bad ROWS ${pos[1]}`);
if (!Number.isSafeInteger(rg) || rg <= 0) usage(`bad --rg ${rg}`);
if (!Number.isSafeInteger(pageSize) || pageSize <= 0) usage(`bad --page ${pageSize}`);

const TAGS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel',
  'india', 'juliett', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa'];

function uuidOf(i) {
  const h = crypto.createHash('md5').update(String(i)).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function columns(start, n) {
  const id = new BigInt64Array(n);
  const uuid = new Array(n);
  const payload = new Int32Array(n);
  const amount = new Float64Array(n);
  const tag = new Array(n);
  for (let k = 0; k < n; k++) {
    const i = start + k;
    id[k] = BigInt(i);
    uuid[k] = uuidOf(i);
    payload[k] = (i * 7919) % 1000003;
    amount[k] = ((i * 31337) % 100000) / 100;
    tag[k] = TAGS[i % 16];
  }
  const common = { nullable: false, columnIndex: true, offsetIndex: true };
  return [
    { name: 'id', data: id, type: 'INT64', encoding: 'PLAIN', ...common },
    { name: 'uuid_s', data: uuid, type: 'STRING', encoding: 'PLAIN', bloomFilter: { fpp: 0.01, maxBytes: 4 << 20 }, ...common },
    { name: 'payload', data: payload, type: 'INT32', ...common },
    { name: 'amount', data: amount, type: 'DOUBLE', ...common },
    { name: 'tag', data: tag, type: 'STRING', ...common },
  ];
}

const t0 = performance.now();
const writer = fileWriter(out);
let pq;
for (let start = 0; start < rows; start += rg) {
  const n = Math.min(rg, rows - start);
  const columnData = columns(start, n);
  if (!pq) {
    pq = new ParquetWriter({
      writer,
      schema: schemaFromColumnData({ columnData }),
      codec: 'SNAPPY',
      createdBy: 'parquet_fdw bench/gen_sorted.mjs (hyparquet-writer 0.17.0)',
      kvMetadata: [{ key: 'bench', value: `gen_sorted rows=${rows} rg=${rg} page=${pageSize}` }],
    });
  }
  // The columns carry their types; ParquetWriter takes the schema only.
  const w = pq.write({ columnData: columnData.map(({ type, ...c }) => c), rowGroupSize: rg, pageSize });
  if (w) await w;
  if (process.stderr.isTTY || process.env.GEN_PROGRESS) {
    process.stderr.write(`gen_sorted: ${start + n}/${rows} rows, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  }
}
await pq.finish();
const size = fs.statSync(out).size;
console.log(`gen_sorted: wrote ${out}: ${rows} rows, ${Math.ceil(rows / rg)} row groups of ${rg}, ` +
  `${pageSize}-byte pages, snappy, ${(size / 1048576).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
