#!/usr/bin/env node
// The analytic query shapes of issue 15 on three readers of the same rows:
// a heap table, parquet_fdw foreign tables (the DuckDB-written file and the
// file our COPY TO wrote from the heap table) and DuckDB on the DuckDB file,
// at max_parallel_workers_per_gather 0 and 2 (DuckDB: threads = 1 + workers).
//
//   node bench/analytic.mjs run DUCK_FILE RUNS [WORKERS...]
//
// PostgreSQL through the PG* environment (scripts/cluster.sh), tables li_heap,
// li (DUCK_FILE) and li_ours (COPY TO file) already loaded (bench/analytic.sh).
// Per query and worker count: one warm-up per reader (its rows kept), then RUNS
// timed runs rotating which reader goes first; client-side wall time of the
// whole statement (node-postgres, rows as text).  Every reader's rows must
// equal the heap table's (floats to 6 significant digits, where the order of a
// parallel sum changes the last digits): a difference is printed and makes the
// exit status 1.  Prints medians, fdw/heap and fdw/DuckDB ratios, whether the
// foreign scan ran in parallel, and fdw(0 workers)/fdw(2 workers).

import { createRequire } from 'node:module';
import { median, oneLine, rowsEqual, sig6 } from './lib.mjs';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));

// l_orderkey of the point lookup: chosen from the heap table at run time.
let pointKey = null;

export const SHAPES = [
  {
    key: 'filtered_sum', title: 'filtered sum',
    sql: (t) => `SELECT sum(l_extendedprice), count(*) FROM ${t} WHERE l_quantity < 25`,
  },
  {
    key: 'q1', title: 'TPC-H Q1-like GROUP BY',
    sql: (t) => `SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
       sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
       avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
  FROM ${t} WHERE l_shipdate <= DATE '1998-09-02'
 GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2`,
  },
  {
    key: 'full_row', title: 'count(t.*) (every row formed)',
    sql: (t) => `SELECT count(t.*) FROM ${t} t`,
    duck: (t) => `SELECT count(t) FROM ${t} t`,
  },
  {
    key: 'point', title: 'point lookup on the sorted key',
    sql: (t) => `SELECT l_orderkey, l_linenumber, l_quantity, l_comment FROM ${t}
 WHERE l_orderkey = ${pointKey} ORDER BY l_linenumber`,
  },
  {
    key: 'like', title: "LIKE '%xyz%' count",
    sql: (t) => `SELECT count(*) FROM ${t} WHERE l_comment LIKE '%xyz%'`,
  },
  {
    key: 'count', title: 'count(*)', many: true,
    sql: (t) => `SELECT count(*) FROM ${t}`,
  },
  {
    key: 'minmax', title: 'min/max of a date and a bigint', many: true,
    sql: (t) => `SELECT min(l_shipdate), max(l_shipdate), min(l_orderkey), max(l_orderkey) FROM ${t}`,
  },
  {
    key: 'top10', title: 'top-10 by a float',
    sql: (t) => `SELECT l_orderkey, l_linenumber, l_extendedprice FROM ${t}
 ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 10`,
  },
  {
    key: 'group10k', title: 'GROUP BY 10k keys, top 5 sums',
    sql: (t) => `SELECT l_suppkey % 10000 AS k, sum(l_extendedprice) AS s FROM ${t}
 GROUP BY 1 ORDER BY s DESC, k LIMIT 5`,
  },
  {
    key: 'numeric_sums', title: 'numeric (DECIMAL) sums and products by flag',
    sql: (t) => `SELECT l_returnflag, sum(l_price), sum(l_price * (1 - l_price * 0.00001)), avg(l_price), count(*)
  FROM ${t} GROUP BY l_returnflag ORDER BY l_returnflag`,
  },
  {
    key: 'year_group', title: 'one year of dates by ship mode',
    sql: (t) => `SELECT l_shipmode, count(*), sum(l_quantity) FROM ${t}
 WHERE l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1996-01-01'
 GROUP BY l_shipmode ORDER BY l_shipmode`,
  },
];

const READERS = [
  { key: 'heap', table: 'li_heap' },
  { key: 'fdw', table: 'li' },
  { key: 'fdw_copy', table: 'li_ours' },
];

// the shapes marked many also on li_many: the same rows in 1000 files
const MANY_TABLE = 'li_many';

const asText = (v) => (v === null || v === undefined ? '' : String(v));

async function timed(fn) {
  const t0 = performance.now();
  const rows = await fn();
  return { ms: performance.now() - t0, rows };
}

/*
 * The shapes marked many on the 1000-file table and DuckDB over the same
 * files: rows checked against the heap table's, medians of runs.
 */
async function runMany(pgRows, client, dconn, manyGlob, runs, heapRows) {
  const out = [];
  let differences = 0;
  for (const shape of SHAPES.filter((s) => s.many)) {
    const sql = oneLine(shape.sql(MANY_TABLE));
    const dsql = oneLine((shape.duck || shape.sql)(`read_parquet('${manyGlob.replace(/'/g, "''")}')`));
    const rows = { fdw: await pgRows(sql) };
    rows.duckdb = (await dconn.runAndReadAll(dsql)).getRowsJson().map((r) => r.map(asText));
    const timings = { fdw: [], duckdb: [] };
    for (let i = 0; i < runs; i++) {
      timings.fdw.push((await timed(() => client.query(sql))).ms);
      timings.duckdb.push((await timed(() => dconn.runAndReadAll(dsql))).ms);
    }
    for (const k of ['fdw', 'duckdb'])
      if (!rowsEqual(rows[k], heapRows[shape.key], asText)) {
        differences++;
        console.log(`DIFFERENT: ${shape.key} on 1000 files, ${k}: ${JSON.stringify(rows[k])} vs heap ${JSON.stringify(heapRows[shape.key])}`);
      }
    out.push({ shape, med: { fdw: median(timings.fdw), duckdb: median(timings.duckdb) } });
  }
  return { out, differences };
}

async function run(duckFile, runs, workerCounts) {
  const pg = require('pg');
  const { DuckDBInstance } = require('@duckdb/node-api');
  const client = new pg.Client();
  await client.connect();
  const pgRows = async (sql) => (await client.query({
    text: sql, rowMode: 'array', types: { getTypeParser: () => (v) => v },
  })).rows.map((r) => r.map(asText));
  const n = Number((await pgRows('SELECT count(*) FROM li_heap'))[0][0]);
  pointKey = (await pgRows(`SELECT l_orderkey FROM li_heap OFFSET ${Math.floor(n / 2)} LIMIT 1`))[0][0];

  const results = [];
  const many = [];
  const heapRows = {};
  const manyGlob = duckFile.replace(/[^/]*$/, 'many/*.parquet');
  let differences = 0;
  for (const workers of workerCounts) {
    await client.query(`SET max_parallel_workers_per_gather = ${workers}`);
    const duck = await DuckDBInstance.create(':memory:', {
      threads: String(1 + workers),
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    const dconn = await duck.connect();
    const src = `read_parquet('${duckFile.replace(/'/g, "''")}')`;
    for (const shape of SHAPES) {
      const timings = {};
      const rows = {};
      const plans = {};
      for (const r of READERS) {
        const sql = oneLine(shape.sql(r.table));
        const plan = (await pgRows(`EXPLAIN (COSTS OFF) ${sql}`)).map((x) => x[0]).join('\n');
        plans[r.key] = /Gather/.test(plan) ? 'parallel' : 'serial';
        rows[r.key] = await pgRows(sql);
        timings[r.key] = [];
      }
      const dsql = oneLine((shape.duck || shape.sql)(src));
      rows.duckdb = (await dconn.runAndReadAll(dsql)).getRowsJson().map((r) => r.map(asText));
      timings.duckdb = [];
      for (let i = 0; i < runs; i++) {
        for (let k = 0; k < READERS.length; k++) {
          const r = READERS[(i + k) % READERS.length];
          const sql = oneLine(shape.sql(r.table));
          timings[r.key].push((await timed(() => client.query(sql))).ms);
        }
        timings.duckdb.push((await timed(() => dconn.runAndReadAll(dsql))).ms);
      }
      const same = {};
      for (const k of ['fdw', 'fdw_copy', 'duckdb']) {
        same[k] = rowsEqual(rows[k], rows.heap, asText) ? 'identical'
          : rowsEqual(rows[k], rows.heap, sig6) ? 'equal to 6 digits' : 'DIFFERENT';
        if (same[k] === 'DIFFERENT') {
          differences++;
          console.log(`DIFFERENT: ${shape.key} at ${workers} workers, ${k}: ${JSON.stringify(rows[k])} vs heap ${JSON.stringify(rows.heap)}`);
        }
      }
      const med = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, median(v)]));
      results.push({ shape, workers, med, plans, same, timings });
      heapRows[shape.key] = rows.heap;
      console.error(`  ${shape.key} workers=${workers}: heap ${med.heap.toFixed(1)} fdw ${med.fdw.toFixed(1)} fdw_copy ${med.fdw_copy.toFixed(1)} duckdb ${med.duckdb.toFixed(1)} ms`);
    }
    const m = await runMany(pgRows, client, dconn, manyGlob, runs, heapRows);
    many.push(...m.out.map((x) => ({ ...x, workers })));
    differences += m.differences;
    dconn.closeSync?.();
  }
  await client.end();
  report(results, runs, workerCounts);
  console.log();
  console.log(`The same rows in 1000 files (${MANY_TABLE}, DuckDB over ${manyGlob}), medians of ${runs} runs:`);
  for (const { shape, workers, med } of many)
    console.log(`  ${shape.title.padEnd(32)} w=${workers}  fdw ${med.fdw.toFixed(1)} ms  duckdb ${med.duckdb.toFixed(1)} ms  fdw/duck ${(med.fdw / med.duckdb).toFixed(3)}`);
  return differences;
}

function report(results, runs, workerCounts) {
  const f1 = (x) => x.toFixed(1);
  const ratio = (x, y) => (x / y).toFixed(2);
  const head = ['query', 'w', 'heap ms', 'fdw ms', 'fdw/heap', 'fdw/duck', 'copy ms', 'copy/heap',
    'duck ms', 'fdw plan', 'heap plan', 'rows vs heap (fdw, copy, duck)'];
  const table = results.map(({ shape, workers, med, plans, same }) => [
    shape.title, String(workers), f1(med.heap), f1(med.fdw), ratio(med.fdw, med.heap),
    ratio(med.fdw, med.duckdb), f1(med.fdw_copy), ratio(med.fdw_copy, med.heap), f1(med.duckdb),
    plans.fdw, plans.heap, `${same.fdw}, ${same.fdw_copy}, ${same.duckdb}`]);
  const w = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (i === 0 || i >= 9 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(w.map((k) => '-'.repeat(k)).join('  '));
  for (const r of table) console.log(line(r));
  console.log();
  console.log(`Medians of ${runs} runs after one warm-up; w = max_parallel_workers_per_gather (DuckDB: threads = 1 + w).`);
  console.log('fdw: the DuckDB-written file; copy: the file COPY TO (FORMAT parquet) wrote from the heap table.');
  console.log('Ratios below 1 mean parquet_fdw is faster; plans say whether a Gather ran the scan in workers.');
  if (workerCounts.includes(0) && workerCounts.some((x) => x > 0)) {
    const most = Math.max(...workerCounts);
    console.log();
    console.log(`Foreign scan speed-up from 0 to ${most} workers (fdw ms at 0 / fdw ms at ${most}):`);
    for (const shape of SHAPES) {
      const a = results.find((r) => r.shape === shape && r.workers === 0);
      const b = results.find((r) => r.shape === shape && r.workers === most);
      console.log(`  ${shape.title.padEnd(w[0])}  ${(a.med.fdw / b.med.fdw).toFixed(2)}x (heap ${(a.med.heap / b.med.heap).toFixed(2)}x)`);
    }
  }
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'run' && args.length >= 2) {
  const workerCounts = args.length > 2 ? args.slice(2).map(Number) : [0, 2];
  const diffs = await run(args[0], Number(args[1]), workerCounts);
  process.exit(diffs ? 1 : 0);
} else if (cmd === 'run') {
  console.error('usage: analytic.mjs run DUCK_FILE RUNS [WORKERS...]');
  process.exit(2);
}
