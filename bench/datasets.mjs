#!/usr/bin/env node
// The datasets benchmark's timings (bench/datasets.sh): OUT/tree (hive) and
// OUT/one.parquet, PostgreSQL through the PG* environment variables.
//
//   node bench/datasets.mjs OUT RUNS
import { createRequire } from 'node:module';
import { median } from './lib.mjs';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const pg = require('pg');
const { DuckDBInstance } = require('@duckdb/node-api');

const [out, runsArg] = process.argv.slice(2);
const RUNS = Number(runsArg) || 5;
const lit = (s) => `'${s.replace(/'/g, "''")}'`;

async function connect() {
  const c = new pg.Client();
  await c.connect();
  await c.query('SET jit = off');
  return c;
}
async function timed(c, sql) {
  const t = performance.now();
  const r = await c.query({ text: sql, rowMode: 'array' });
  return { ms: performance.now() - t, rows: JSON.stringify(r.rows) };
}

const setup = await connect();
await setup.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await setup.query('CREATE SERVER IF NOT EXISTS ds FOREIGN DATA WRAPPER parquet_fdw');
await setup.query(`CREATE FOREIGN TABLE tree (id bigint, v float8, s text, part int) SERVER ds OPTIONS (filename ${lit(out + '/tree')})`);
await setup.query(`CREATE FOREIGN TABLE one (id bigint, v float8, s text, part int) SERVER ds OPTIONS (filename ${lit(out + '/one.parquet')})`);
await setup.query(`CREATE FOREIGN TABLE one_small_groups (id bigint, v float8, s text, part int) SERVER ds OPTIONS (filename ${lit(out + '/one_small_groups.parquet')})`);
await setup.end();

const PART = 42;
const queries = [
  ['EXPLAIN count(*) WHERE part = x', `EXPLAIN SELECT count(*) FROM tree WHERE part = ${PART}`, null, 20],
  ['count(*) WHERE part = x', `SELECT count(*) FROM tree WHERE part = ${PART}`, `SELECT count(*) FROM one WHERE part = ${PART}`, 50],
  ['sum(id) WHERE part = x', `SELECT sum(id) FROM tree WHERE part = ${PART}`, `SELECT sum(id) FROM one WHERE part = ${PART}`, null],
  ['EXPLAIN sum(v) (every file)', 'EXPLAIN SELECT sum(v) FROM tree', null, 20],
];
let failed = 0;
const report = [];
for (const [name, sql, ref, target] of queries) {
  // cold: the first query of a new backend
  const cold = await connect();
  const first = await timed(cold, sql);
  const warm = [];
  let rows = first.rows;
  for (let i = 0; i < RUNS; i++) {
    const r = await timed(cold, sql);
    warm.push(r.ms);
    rows = r.rows;
  }
  if (ref && (await timed(cold, ref)).rows !== rows) {
    console.log(`WRONG ${name}: ${rows} vs the one-file table's`);
    failed++;
  }
  await cold.end();
  report.push(`${name.padEnd(32)} cold ${first.ms.toFixed(1).padStart(8)} ms   warm ${median(warm).toFixed(1).padStart(8)} ms${target ? `   (target < ${target} ms)` : ''}`);
}

// every file against one file, same rows, at 0 and 2 workers; DuckDB with 1 and 3 threads
// sum(v) rounded: float sums depend on the order rows are added in
const scan = 'SELECT round(sum(v)::numeric, 3), sum(id), count(*), min(s) FROM';
for (const workers of [0, 2]) {
  const c = await connect();
  await c.query(`SET max_parallel_workers_per_gather = ${workers}`);
  const t = {};
  const answers = {};
  const tables = ['tree', 'one', 'one_small_groups'];
  const ms = Object.fromEntries(tables.map((table) => [table, []]));
  for (const table of tables)
    await timed(c, `${scan} ${table}`);
  // the tables take turns, so that the VM's speed drifting between runs
  // reaches every table alike
  for (let i = 0; i < RUNS; i++) {
    for (const table of tables) {
      const r = await timed(c, `${scan} ${table}`);
      ms[table].push(r.ms);
      answers[table] = r.rows;
    }
  }
  for (const table of tables)
    t[table] = median(ms[table]);
  for (const other of ['one', 'one_small_groups']) {
    if (answers.tree !== answers[other]) {
      console.log(`WRONG every file at ${workers} workers: ${answers.tree} vs ${other}'s ${answers[other]}`);
      failed++;
    }
  }
  await c.end();
  const db = await DuckDBInstance.create(':memory:', { threads: String(workers + 1) });
  const d = await db.connect();
  const dk = {};
  for (const [table, src] of [['tree', `read_parquet(${lit(out + '/tree/**/*.parquet')}, hive_partitioning = true)`], ['one', `read_parquet(${lit(out + '/one.parquet')})`]]) {
    await d.run(`${scan} ${src}`);
    const ms = [];
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      await d.runAndReadAll(`${scan} ${src}`);
      ms.push(performance.now() - s);
    }
    dk[table] = median(ms);
  }
  report.push(`every file, ${workers} workers: tree ${t.tree.toFixed(0)} ms, one file ${t.one.toFixed(0)} ms, ratio ${(t.tree / t.one).toFixed(2)} (target < 2); ` +
    `DuckDB ${workers + 1} threads: tree ${dk.tree.toFixed(0)} ms, one file ${dk.one.toFixed(0)} ms, ratio ${(dk.tree / dk.one).toFixed(2)}; fdw/DuckDB on the tree ${(t.tree / dk.tree).toFixed(2)}\n` +
    `  against one file with the files' encodings (small row groups): ${t.one_small_groups.toFixed(0)} ms, ratio ${(t.tree / t.one_small_groups).toFixed(2)}`);
}
console.log(report.join('\n'));
process.exit(failed ? 1 : 0);
