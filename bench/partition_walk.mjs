#!/usr/bin/env node
// Planning over a deep hive tree (bench/partition_walk.sh): DuckDB writes
// OUT/tree/a=A/b=B/{data,more}_0.parquet for A, B < 100 (10,000 leaf
// directories, 20,000 files); PostgreSQL through the PG* environment
// variables.  Times EXPLAIN of queries whose quals leave two partitions,
// one first-level partition, or one second-level value under every
// first-level one, warm (median of RUNS in one backend) and as the first
// query of a new backend (median of RUNS new backends), against the same
// EXPLAIN over a heap table in the same run, and DuckDB's EXPLAIN of the
// same query over the tree (1 thread); then a generic plan's executions.
// Exits 1 if a query's rows differ from DuckDB's (the generic plan's from
// the heap table's).
//
//   node bench/partition_walk.mjs OUT RUNS
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { median } from './lib.mjs';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const pg = require('pg');
const { DuckDBInstance } = require('@duckdb/node-api');

const [out, runsArg] = process.argv.slice(2);
const RUNS = Number(runsArg) || 7;
const lit = (s) => `'${s.replace(/'/g, "''")}'`;
const tree = path.join(out, 'tree');

const db = await DuckDBInstance.create(':memory:', {
  threads: '1',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
});
const duck = await db.connect();
fs.rmSync(tree, { recursive: true, force: true });
const t0 = performance.now();
for (const pattern of ['data_{i}', 'more_{i}'])
  await duck.run(`COPY (SELECT (i % 100)::INT AS a, ((i // 100) % 100)::INT AS b, i::BIGINT AS id, (i * 7 % 1000)::DOUBLE AS v
    FROM range(100000) t(i)) TO ${lit(tree)} (FORMAT parquet, PARTITION_BY (a, b), FILENAME_PATTERN ${lit(pattern)}, OVERWRITE_OR_IGNORE)`);
const files = fs.readdirSync(tree, { recursive: true }).filter((f) => f.endsWith('.parquet')).length;
console.log(`== ${files} files in 10,000 leaf directories (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
for (const f of fs.readdirSync(tree, { recursive: true }))
  fs.chmodSync(path.join(tree, f), fs.statSync(path.join(tree, f)).isDirectory() ? 0o755 : 0o644);

async function connect() {
  const c = new pg.Client();
  await c.connect();
  return c;
}
async function timed(c, sql) {
  const t = performance.now();
  const r = await c.query({ text: sql, rowMode: 'array' });
  return { ms: performance.now() - t, rows: r.rows };
}

const setup = await connect();
await setup.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await setup.query('CREATE SERVER IF NOT EXISTS walk FOREIGN DATA WRAPPER parquet_fdw');
await setup.query(`CREATE FOREIGN TABLE walk_tree (id bigint, v float8, a int, b int) SERVER walk OPTIONS (filename ${lit(tree)})`);
await setup.query('CREATE TABLE walk_heap (id bigint, v float8, a int, b int)');
// the tree's rows: each of its two files per directory holds the same ids
await setup.query('INSERT INTO walk_heap SELECT i, i * 7 % 1000, i % 100, (i / 100) % 100 FROM generate_series(0, 99999) i, generate_series(1, 2)');
await setup.query('ANALYZE walk_heap');
await setup.end();

const QUALS = [
  ['two partitions', 'a = 3 AND b IN (5, 6)', 5, 20],
  ['one first-level partition', 'a = 42', null, null],
  ['one value of the second level', 'b = 7', null, null],
];
let failed = 0;
const lines = [];
for (const [name, qual, warmTarget, coldTarget] of QUALS) {
  const sql = (table) => `SELECT count(*), sum(id), round(sum(v)) FROM ${table} WHERE ${qual}`;
  const ms = { tree: { cold: [], warm: [] }, heap: { cold: [], warm: [] } };
  // the tables take turns: the VM's speed drifting reaches both alike
  for (let i = 0; i < RUNS; i++) {
    for (const [key, table] of [['tree', 'walk_tree'], ['heap', 'walk_heap']]) {
      const c = await connect();
      ms[key].cold.push((await timed(c, `EXPLAIN ${sql(table)}`)).ms);
      await c.end();
    }
  }
  for (const [key, table] of [['tree', 'walk_tree'], ['heap', 'walk_heap']]) {
    const c = await connect();
    await timed(c, `EXPLAIN ${sql(table)}`);
    for (let i = 0; i < RUNS; i++)
      ms[key].warm.push((await timed(c, `EXPLAIN ${sql(table)}`)).ms);
    await c.end();
  }
  const c = await connect();
  const plan = (await timed(c, `EXPLAIN ${sql('walk_tree')}`)).rows.map((r) => r[0]).join('\n');
  const ours = JSON.stringify((await timed(c, sql('walk_tree'))).rows.map((r) => r.map(String)));
  await c.end();
  const dsql = sql(`read_parquet(${lit(tree + '/**/*.parquet')}, hive_partitioning = true)`);
  const duckMs = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await duck.runAndReadAll(`EXPLAIN ${dsql}`);
    duckMs.push(performance.now() - t);
  }
  const theirs = JSON.stringify((await duck.runAndReadAll(dsql)).getRows().map((r) => r.map(String)));
  if (ours !== theirs) {
    console.log(`WRONG ${name}: ${ours} vs DuckDB's ${theirs}`);
    failed++;
  }
  const skipped = /Partition Directories Skipped: (\d+)/.exec(plan);
  const planned = /Files: (\d+) of/.exec(plan) || [null, String(plan.match(/\.parquet/g)?.length ?? 0)];
  const m = (xs) => median(xs);
  lines.push({
    name, qual,
    treeWarm: m(ms.tree.warm), heapWarm: m(ms.heap.warm), treeCold: m(ms.tree.cold), heapCold: m(ms.heap.cold),
    duck: m(duckMs), files: planned[1], skipped: skipped ? skipped[1] : '0', warmTarget, coldTarget,
  });
}
// a generic plan (constant a, parameter b) executed in later statements:
// the executor lists the tree again to see whether files changed
const generic = {};
for (const [key, table] of [['tree', 'walk_tree'], ['heap', 'walk_heap']]) {
  const c = await connect();
  await c.query('SET plan_cache_mode = force_generic_plan');
  await c.query(`PREPARE g(int) AS SELECT count(*), sum(id) FROM ${table} WHERE a = 3 AND b = $1`);
  await timed(c, 'EXECUTE g(5)');
  const xs = [];
  const answers = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await timed(c, `EXECUTE g(${i % 100})`);
    xs.push(r.ms);
    answers.push(JSON.stringify(r.rows.map((row) => row.map(String))));
  }
  generic[key] = { ms: median(xs), answers: answers.join() };
  await c.end();
}
if (generic.tree.answers !== generic.heap.answers) {
  console.log(`WRONG generic plan: ${generic.tree.answers} vs the heap table's ${generic.heap.answers}`);
  failed++;
}
const f = (x) => x.toFixed(2).padStart(7);
console.log('\n| quals | files planned | directories skipped | warm ms | heap warm ms | new backend ms | heap new backend ms | new backend / heap | DuckDB EXPLAIN ms | target |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const l of lines)
  console.log(`| ${l.name}: \`${l.qual}\` | ${l.files} | ${l.skipped} | ${f(l.treeWarm)} | ${f(l.heapWarm)} | ${f(l.treeCold)} | ${f(l.heapCold)} | ${f(l.treeCold / l.heapCold)} | ${f(l.duck)} | ${l.warmTarget ? `warm < ${l.warmTarget} ms, new backend < ${l.coldTarget} ms: ${l.treeWarm < l.warmTarget && l.treeCold < l.coldTarget ? 'met' : 'NOT met'}` : ''} |`);
console.log(`\nGeneric plan \`a = 3 AND b = $1\`, EXECUTE in later statements: ${f(generic.tree.ms)} ms (heap ${f(generic.heap.ms)} ms)`);
process.exit(failed ? 1 : 0);
