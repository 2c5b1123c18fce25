#!/usr/bin/env node
// Write a TPC-H-lineitem-like Parquet file with DuckDB (deterministic).
//
//   node bench/gen_lineitem.mjs OUT [ROWS] [--codec snappy|zstd|uncompressed]
//
// ROWS defaults to 10,000,000; the codec to snappy. Row groups have 122,880
// rows (DuckDB's default, set explicitly). The rows are in l_orderkey order,
// like dbgen's output; no other column is sorted, so row-group statistics
// prune nothing for the benchmark's predicates. --zstd is short for
// --codec zstd.
//
// Every value is a formula of the row number i (0-based). The per-row draws
// r1..r11 are a Park-Miller chain (x -> x * 48271 mod 2^31-1) seeded with a
// 32-bit integer hash of i; the order date is drawn the same way from the
// order number. Only integer arithmetic below 2^63 is used and the rows keep
// their order (preserve_insertion_order), so the file's values do not depend
// on the DuckDB version or thread count.
//
// Columns (16 + 1), after TPC-H's dbgen where it is simple to follow:
//   l_orderkey      bigint   sparse keys as dbgen's; orders of 3, 5, 2, 6 lines (avg 4)
//   l_partkey       int      1..2,000,000 uniform
//   l_suppkey       int      1..100,000, from partkey as in dbgen
//   l_linenumber    int      1..6
//   l_quantity      double   1..50 uniform (l_quantity < 25 selects 48%)
//   l_extendedprice double   l_quantity * retail price (dbgen formula), to the cent
//   l_discount      double   0.00..0.10
//   l_tax           double   0.00..0.08
//   l_returnflag    text     'R'/'A' if received before 1995-06-17, else 'N'
//   l_linestatus    text     'O' if shipped after 1995-06-17, else 'F'
//   l_shipdate      date     order date + 1..121 days (order date 1992-01-01 .. 1998-08-02)
//   l_commitdate    date     order date + 30..90 days
//   l_receiptdate   date     ship date + 1..30 days
//   l_shipinstruct  text     4 distinct values
//   l_shipmode      text     7 distinct values
//   l_comment       text     10..45 characters of words (63-word list), nearly all distinct
//   l_ts            timestamp ship date + a time of day with microseconds
//   l_price         decimal(12,2) net price: extended price * (1 - discount), to the cent
//
// Afterwards the file's row groups, codec and size are printed (from DuckDB's
// parquet_metadata), so a caller can check them.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

// @duckdb/node-api lives in test/js/node_modules (installed by scripts/setup.sh).
const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const { DuckDBInstance } = require('@duckdb/node-api');

function usage(msg) {
  if (msg) console.error(`gen_lineitem: ${msg}`);
  console.error('usage: node bench/gen_lineitem.mjs OUT [ROWS] [--codec snappy|zstd|uncompressed]');
  process.exit(2);
}

const args = process.argv.slice(2);
let codec = 'snappy';
const pos = [];
for (let k = 0; k < args.length; k++) {
  const a = args[k];
  if (a === '--codec') codec = args[++k];
  else if (a.startsWith('--codec=')) codec = a.slice(8);
  else if (a === '--zstd') codec = 'zstd';
  else if (a === '-h' || a === '--help') usage();
  else if (a.startsWith('-')) usage(`unknown option ${a}`);
  else pos.push(a);
}
if (pos.length < 1 || pos.length > 2) usage();
if (!['snappy', 'zstd', 'uncompressed'].includes(codec)) usage(`unknown codec ${codec}`);
const OUT = path.resolve(pos[0]);
const ROWS = pos[1] === undefined ? 10_000_000 : Number(pos[1].replace(/[_,]/g, ''));
if (!Number.isSafeInteger(ROWS) || ROWS < 1) usage(`bad ROWS ${pos[1]}`);
const ROW_GROUP_SIZE = 122880;

const q = (s) => `'${String(s).replace(/'/g, "''")}'`;
const P = 2147483647; // 2^31 - 1
// Park-Miller step, applied n times to expression x (x in 1..P-1).
const pm = (x) => `((${x}) * 48271 % ${P})`;

const WORDS = [
  'the', 'quick', 'slyly', 'final', 'deposits', 'ironic', 'packages', 'furiously',
  'regular', 'accounts', 'blithely', 'express', 'requests', 'carefully', 'bold',
  'pending', 'instructions', 'sleep', 'among', 'fluffily', 'special', 'theodolites',
  'haggle', 'above', 'quickly', 'unusual', 'foxes', 'nag', 'against', 'even',
  'pinto', 'beans', 'cajole', 'along', 'silent', 'ideas', 'wake', 'according',
  'to', 'dependencies', 'boost', 'furious', 'platelets', 'detect', 'across',
  'asymptotes', 'use', 'dolphins', 'integrate', 'courts', 'dugouts', 'warhorses',
  'excuses', 'doze', 'after', 'busy', 'sheaves', 'promise', 'ruthless', 'frets',
  'breach', 'hockey', 'players',
];
const words = `[${WORDS.map(q).join(', ')}]`;
const NW = WORDS.length;

// Seeds: a 32-bit integer hash (multiply, then twice xor-shift-multiply; a
// bijection on 0..2^32-1) of the row number and of the order number, mapped to
// 1..P-1; each further draw is one Park-Miller step from the previous one.
const M32 = 4294967296;
const hashLayers = (name, x, mult) => [
  `${name}_h0 AS (SELECT *, (${x}) * ${mult} % ${M32} AS ${name}h FROM `,
  `${name}_h1 AS (SELECT * REPLACE ((xor(${name}h >> 16, ${name}h) * 73244475) % ${M32} AS ${name}h) FROM `,
  `${name}_h2 AS (SELECT * REPLACE ((xor(${name}h >> 16, ${name}h) * 73244475) % ${M32} AS ${name}h) FROM `,
  `${name}_h3 AS (SELECT * REPLACE (xor(${name}h >> 16, ${name}h) % ${P - 1} + 1 AS ${name}h) FROM `,
];
const ctes = [];
let prev = 'ord';
for (const l of [...hashLayers('row', 'i', 2654435761), ...hashLayers('ord', 'o', 2246822519)]) {
  const name = l.slice(0, l.indexOf(' AS ('));
  ctes.push(`  ${l}${prev}),`);
  prev = name;
}
let draws = '';
let last = 'rowh';
for (let k = 1; k <= 11; k++) {
  draws += `  rnd${k} AS (SELECT *, ${pm(last)} AS r${k}${k === 1 ? `, ${pm('ordh')} AS ro` : ''} FROM ${prev}),\n`;
  prev = `rnd${k}`;
  last = `r${k}`;
}

// Orders: every 16 rows are 4 orders of 3, 5, 2 and 6 lines (mean 4).
const sql = `
COPY (
  WITH base AS (
    SELECT i, i // 16 AS blk, i % 16 AS pos FROM range(${ROWS}) t(i)
  ),
  ord AS (
    SELECT *,
           blk * 4 + CASE WHEN pos < 3 THEN 0 WHEN pos < 8 THEN 1 WHEN pos < 10 THEN 2 ELSE 3 END AS o,
           CASE WHEN pos < 3 THEN pos WHEN pos < 8 THEN pos - 3 WHEN pos < 10 THEN pos - 8 ELSE pos - 10 END AS line
    FROM base
  ),
${ctes.join('\n')}
${draws}  vals AS (
    SELECT i,
           -- dbgen-style sparse order keys: 8 used out of every 32
           (o // 8) * 32 + (o % 8) + 1 AS orderkey,
           line + 1 AS linenumber,
           1 + r1 % 2000000 AS partkey,
           1 + r2 % 50 AS qty,
           r3 % 11 AS disc_pct,
           r4 % 9 AS tax_pct,
           DATE '1992-01-01' + CAST(ro % 2406 AS INTEGER) AS orderdate,
           1 + r5 % 121 AS ship_off,
           30 + r6 % 61 AS commit_off,
           1 + r7 % 30 AS receipt_off,
           r5, r6, r8, r9, r10, r11
    FROM ${prev}
  ),
  vals2 AS (
    SELECT *,
           -- dbgen retail price, in cents
           90000 + (partkey // 10) % 20001 + 100 * (partkey % 1000) AS rp_cents,
           orderdate + CAST(ship_off AS INTEGER) AS shipdate
    FROM vals
  )
  SELECT
    CAST(orderkey AS BIGINT) AS l_orderkey,
    CAST(partkey AS INTEGER) AS l_partkey,
    CAST(1 + (partkey + (linenumber - 1) * 25001 + (partkey - 1) // 100000) % 100000 AS INTEGER) AS l_suppkey,
    CAST(linenumber AS INTEGER) AS l_linenumber,
    CAST(qty AS DOUBLE) AS l_quantity,
    CAST(qty * rp_cents AS DOUBLE) / 100 AS l_extendedprice,
    CAST(disc_pct AS DOUBLE) / 100 AS l_discount,
    CAST(tax_pct AS DOUBLE) / 100 AS l_tax,
    CASE WHEN shipdate + CAST(receipt_off AS INTEGER) <= DATE '1995-06-17'
         THEN CASE WHEN r8 % 2 = 0 THEN 'R' ELSE 'A' END
         ELSE 'N' END AS l_returnflag,
    CASE WHEN shipdate > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus,
    shipdate AS l_shipdate,
    orderdate + CAST(commit_off AS INTEGER) AS l_commitdate,
    shipdate + CAST(receipt_off AS INTEGER) AS l_receiptdate,
    (['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])[1 + r8 // 2 % 4] AS l_shipinstruct,
    (['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])[1 + r8 // 8 % 7] AS l_shipmode,
    -- 8 words from 4 draws (two words per draw), cut to 10..45 characters
    left(concat_ws(' ',
           ${words}[1 + r9 % ${NW}], ${words}[1 + r9 // ${NW} % ${NW}],
           ${words}[1 + r10 % ${NW}], ${words}[1 + r10 // ${NW} % ${NW}],
           ${words}[1 + r11 % ${NW}], ${words}[1 + r11 // ${NW} % ${NW}],
           ${words}[1 + r9 // ${NW * NW} % ${NW}], ${words}[1 + r10 // ${NW * NW} % ${NW}]),
         CAST(10 + r11 // ${NW * NW} % 36 AS BIGINT)) AS l_comment,
    CAST(shipdate AS TIMESTAMP)
      + to_microseconds(CAST((r5 // 121 % 86400) * 1000000 + r6 // 61 % 1000000 AS BIGINT)) AS l_ts,
    CAST(CAST((qty * rp_cents * (100 - disc_pct) + 50) // 100 AS DECIMAL(18, 0)) / 100 AS DECIMAL(12, 2)) AS l_price
  FROM vals2
) TO ${q(OUT)} (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`;

const t0 = performance.now();
const inst = await DuckDBInstance.create(':memory:', {
  preserve_insertion_order: 'true',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
});
const conn = await inst.connect();
fs.mkdirSync(path.dirname(OUT), { recursive: true });
await conn.run(sql);

const meta = (await conn.runAndReadAll(`
  SELECT count(DISTINCT row_group_id) AS row_groups,
         min(row_group_num_rows) AS min_rows, max(row_group_num_rows) AS max_rows,
         string_agg(DISTINCT compression, ',') AS codecs
  FROM parquet_metadata(${q(OUT)})`)).getRowObjects()[0];
const nrows = (await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${q(OUT)})`)).getRows()[0][0];
const size = fs.statSync(OUT).size;
console.log(
  `gen_lineitem: ${OUT}: ${nrows} rows, ${meta.row_groups} row groups ` +
  `(${meta.min_rows}..${meta.max_rows} rows), ${meta.codecs}, ` +
  `${(size / 1048576).toFixed(1)} MiB, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
if (BigInt(nrows) !== BigInt(ROWS)) {
  console.error(`gen_lineitem: expected ${ROWS} rows`);
  process.exit(1);
}
