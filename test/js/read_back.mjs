#!/usr/bin/env node
// Print a Parquet file as DuckDB reads it (used by scripts/demo.sh to show
// that a file written by COPY ... TO ... (FORMAT parquet) reads back).
import { duckQuery, sqlString } from './lib/duck.mjs';

const file = process.argv[2];
const limit = Number(process.argv[3] || 5);
const all = await duckQuery(`SELECT count(*) FROM read_parquet(${sqlString(file)})`);
const r = await duckQuery(`SELECT * FROM read_parquet(${sqlString(file)}) LIMIT ${limit}`);
console.log(`DuckDB reads ${file}: ${all.rows[0][0]} rows; first ${r.rows.length}:`);
console.log(r.names.join(' | '));
for (const row of r.rows) console.log(row.map((v) => (v === null ? 'NULL' : String(v))).join(' | '));
