#!/usr/bin/env node
// Split a Parquet file into files of N consecutive rows each, with DuckDB:
// OUT_DIR/part_0000.parquet, part_0001.parquet, ... (row order kept).
//
//   node bench/split_files.mjs IN OUT_DIR ROWS_PER_FILE
//
// The analytic benchmark's many-file table (count(*) and min/max answered
// from 1000 footers).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const { DuckDBInstance } = require('@duckdb/node-api');

const [input, outDir, perFile] = process.argv.slice(2);
if (!input || !outDir || !(Number(perFile) > 0)) {
  console.error('usage: split_files.mjs IN OUT_DIR ROWS_PER_FILE');
  process.exit(2);
}
const lit = (s) => `'${s.replace(/'/g, "''")}'`;
const tmp = path.join(outDir, 'tmp');
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

const db = await DuckDBInstance.create(':memory:', {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
});
const c = await db.connect();
await c.run('SET preserve_insertion_order = true');
// one hive folder per file number, then flattened into numbered files
await c.run(`COPY (SELECT *, (row_number() OVER () - 1) // ${Number(perFile)} AS part
  FROM read_parquet(${lit(input)})) TO ${lit(tmp)} (FORMAT parquet, PARTITION_BY (part))`);
for (const d of fs.readdirSync(tmp)) {
  const n = d.split('=')[1].padStart(4, '0');
  const files = fs.readdirSync(path.join(tmp, d));
  if (files.length !== 1) throw new Error(`${d}: ${files.length} files`);
  fs.renameSync(path.join(tmp, d, files[0]), path.join(outDir, `part_${n}.parquet`));
}
fs.rmSync(tmp, { recursive: true });
console.log(`split_files: ${fs.readdirSync(outDir).length} files of ${perFile} rows in ${outDir}`);
