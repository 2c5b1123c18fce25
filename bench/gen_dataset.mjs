#!/usr/bin/env node
// A hive-partitioned dataset with DuckDB: OUT/tree/part=P/data_F.parquet for
// P < PARTS and F < FILES, ROWS rows each (id, part, v, s), and the same rows
// in one file OUT/one.parquet (with part as a column), in the same order, and
// again in OUT/one_small_groups.parquet with row groups of about ROWS rows.
//
//   node bench/gen_dataset.mjs OUT PARTS FILES ROWS
//
// The datasets benchmark's data (bench/datasets.sh).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const { DuckDBInstance } = require('@duckdb/node-api');

const [out, parts, files, rows] = process.argv.slice(2);
if (!out || !(Number(parts) > 0) || !(Number(files) > 0) || !(Number(rows) > 0)) {
  console.error('usage: gen_dataset.mjs OUT PARTS FILES ROWS');
  process.exit(2);
}
const P = Number(parts);
const F = Number(files);
const R = Number(rows);
const lit = (s) => `'${s.replace(/'/g, "''")}'`;
const tree = path.join(out, 'tree');
fs.rmSync(tree, { recursive: true, force: true });

const db = await DuckDBInstance.create(':memory:', {
  threads: '1',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
});
const c = await db.connect();
const rowsOf = (p, f) => `SELECT ((${p} * ${F} + ${f}) * ${R} + i)::BIGINT AS id,
  (((i * 7919 + ${f}) % 10000) / 100.0)::DOUBLE AS v, 'k' || ((i + ${p}) % 50) AS s FROM range(${R}) t(i)`;
for (let p = 0; p < P; p++) {
  const dir = path.join(tree, `part=${p}`);
  fs.mkdirSync(dir, { recursive: true });
  for (let f = 0; f < F; f++)
    await c.run(`COPY (${rowsOf(p, f)}) TO ${lit(path.join(dir, `data_${f}.parquet`))} (FORMAT parquet)`);
}
const oneFile = `SELECT id, v, s, (id // ${F * R})::INT AS part FROM range(${P * F * R}) t(n),
  LATERAL (SELECT n AS id) x, LATERAL (SELECT (((n % ${R}) * 7919 + (n // ${R}) % ${F}) % 10000 / 100.0)::DOUBLE AS v,
  'k' || ((n % ${R}) + n // ${F * R}) % 50 AS s) y ORDER BY id`;
await c.run(`COPY (${oneFile}) TO ${lit(path.join(out, 'one.parquet'))} (FORMAT parquet)`);
// The same rows in row groups as small as the files (DuckDB rounds ROW_GROUP_SIZE
// up to 2048), so that each column gets the files' encoding: with the default
// 122,880-row groups DuckDB stores v dictionary-encoded, in 1,000-row files PLAIN.
await c.run(`COPY (${oneFile}) TO ${lit(path.join(out, 'one_small_groups.parquet'))}
  (FORMAT parquet, ROW_GROUP_SIZE ${R})`);
console.log(`${P * F} files in ${P} partitions, ${P * F * R} rows`);
