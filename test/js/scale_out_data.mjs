#!/usr/bin/env node
// The scale-out dataset (scripts/scale_out_cluster.sh): node scale_out_data.mjs
// OUT_DIR ROWS REGIONS FILES_PER_REGION [--csv]
//
// DuckDB writes ROWS event rows split by the partition key `region`
// (0 .. REGIONS-1): OUT_DIR/events_r<region>_<k>.parquet, FILES_PER_REGION
// files per region, each file holding one region's rows only, so a data node
// given a region's files holds all of that region.  `region` is a real
// column of the files (no hive directories).  With --csv it also writes
// every row to OUT_DIR/all.csv, the heap table's load independent of
// parquet_fdw's reading.
//
// Every value is a formula of the row number i; price is DECIMAL(12,2) and
// qty an integer, so sums and averages are exact whatever the order in which
// nodes add them; score (double) is for min/max; note is NULL every tenth row.
import fs from 'node:fs';
import path from 'node:path';
import { duck, sqlString } from './lib/duck.mjs';

const args = process.argv.slice(2);
const csv = args.includes('--csv');
const [outDir, rowsArg, regionsArg, filesArg] = args.filter((a) => a !== '--csv');
const rows = Number(rowsArg);
const regions = Number(regionsArg);
const files = Number(filesArg);
if (!outDir || !(rows > 0) || !(regions > 0) || !(files > 0)) {
  console.error('usage: scale_out_data.mjs OUT_DIR ROWS REGIONS FILES_PER_REGION [--csv]');
  process.exit(2);
}

const c = await duck();
await c.run(`SET threads = 2`);
fs.mkdirSync(outDir, { recursive: true });
// the multiplier's hash spreads regions over the row numbers unevenly
// (region sizes differ by a few percent), as real partition keys do
await c.run(`CREATE TABLE events AS
  SELECT i AS id,
         ((i * 2654435761) % 4294967291 % ${regions})::INTEGER AS region,
         (DATE '2024-01-01' + (i * 37 % 366)::INTEGER) AS day,
         (['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf',
           'hotel', 'india', 'juliett', 'kilo', 'lima'])[i * 13 % 12 + 1] AS category,
         (1 + i * 31 % 50)::INTEGER AS qty,
         ((i * 7877 % 100000) / 100)::DECIMAL(12,2) AS price,
         (i * 104729 % 1000003) / 1000.0::DOUBLE AS score,
         CASE WHEN i % 10 = 0 THEN NULL ELSE 'n' || (i % 1000)::VARCHAR END AS note,
         (i % ${files})::INTEGER AS part
    FROM range(${rows}) AS t(i)`);
const cols = 'id, region, day, category, qty, price, score, note';
for (let r = 0; r < regions; r++) {
  for (let k = 0; k < files; k++) {
    const file = path.join(outDir, `events_r${r}_${k}.parquet`);
    await c.run(`COPY (SELECT ${cols} FROM events WHERE region = ${r} AND part = ${k} ORDER BY id)
      TO ${sqlString(file)} (FORMAT parquet, COMPRESSION snappy)`);
    fs.chmodSync(file, 0o644);
  }
}
if (csv) {
  const file = path.join(outDir, 'all.csv');
  await c.run(`COPY (SELECT ${cols} FROM events ORDER BY id) TO ${sqlString(file)} (FORMAT csv, HEADER false)`);
  fs.chmodSync(file, 0o644);
}
const bytes = fs.readdirSync(outDir).filter((f) => f.endsWith('.parquet'))
  .reduce((s, f) => s + fs.statSync(path.join(outDir, f)).size, 0);
console.log(`scale_out_data: ${rows} rows, ${regions} regions x ${files} files, ${bytes} bytes of Parquet in ${outDir}`);
