#!/usr/bin/env node
// The timing part of bench/hits.sh (issue 35): the queries of
// bench/hits_queries.mjs on a heap table (hits_heap, loaded from DuckDB's
// CSV), the foreign table over DuckDB's Parquet file (hits) and DuckDB on
// the same file, at each max_parallel_workers_per_gather given (DuckDB:
// threads = 1 + workers).
//
//   node bench/hits.mjs FILE RUNS [WORKERS...] [--only KEY,KEY]
//
// PostgreSQL through the PG* environment.  Per query and worker count: the
// plans, one warm-up per reader (its rows kept), then RUNS timed runs
// rotating which PostgreSQL reader goes first; client-side wall time of
// the whole statement.  The foreign table's and DuckDB's rows must equal
// the heap table's (numbers to 6 significant digits: avg() is numeric in
// PostgreSQL and a double in DuckDB); a difference is printed and makes the
// exit status 1.  Prints medians, ratios, totals, geometric means and the
// issue's targets.
import { createRequire } from 'node:module';
import { median, oneLine, rowsEqual, sig6 } from './lib.mjs';
import { QUERIES } from './hits_queries.mjs';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const asText = (v) => (v === null || v === undefined ? '' : String(v));

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function run(file, runs, workerCounts, only) {
  const pg = require('pg');
  const { DuckDBInstance } = require('@duckdb/node-api');
  const client = new pg.Client();
  await client.connect();
  const pgRows = async (sql) => (await client.query({
    text: sql, rowMode: 'array', types: { getTypeParser: () => (v) => v },
  })).rows.map((r) => r.map(asText));
  const queries = QUERIES.filter((q) => !only || only.includes(q.key));
  const results = [];
  let differences = 0;
  for (const workers of workerCounts) {
    await client.query(`SET max_parallel_workers_per_gather = ${workers}`);
    const duck = await DuckDBInstance.create(':memory:', {
      threads: String(1 + workers), autoinstall_known_extensions: 'false', autoload_known_extensions: 'false',
    });
    const dconn = await duck.connect();
    await dconn.run(`CREATE VIEW hits AS SELECT * FROM read_parquet('${file.replace(/'/g, "''")}')`);
    for (const q of queries) {
      const sql = { heap: oneLine(q.sql('hits_heap')), fdw: oneLine(q.sql('hits')) };
      const dsql = oneLine(q.sql('hits'));
      const plans = {};
      const rows = {};
      for (const k of ['heap', 'fdw']) {
        const plan = (await pgRows(`EXPLAIN (COSTS OFF) ${sql[k]}`)).map((x) => x[0]).join('\n');
        plans[k] = /Gather/.test(plan) ? 'parallel' : 'serial';
        rows[k] = await pgRows(sql[k]);
      }
      rows.duckdb = (await dconn.runAndReadAll(dsql)).getRowsJson().map((r) => r.map(asText));
      const ms = { heap: [], fdw: [], duckdb: [] };
      for (let i = 0; i < runs; i++) {
        for (const k of i % 2 ? ['fdw', 'heap'] : ['heap', 'fdw'])
          ms[k].push(await timed(() => client.query(sql[k])));
        ms.duckdb.push(await timed(() => dconn.runAndReadAll(dsql)));
      }
      const same = {};
      for (const k of ['fdw', 'duckdb']) {
        same[k] = rowsEqual(rows[k], rows.heap, sig6);
        if (!same[k]) {
          differences++;
          console.log(`DIFFERENT: ${q.key} at ${workers} workers, ${k}: ${JSON.stringify(rows[k]).slice(0, 600)} vs heap ${JSON.stringify(rows.heap).slice(0, 600)}`);
        }
      }
      const med = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)]));
      results.push({ q, workers, med, plans, same });
      console.error(`  ${q.key} w=${workers}: heap ${med.heap.toFixed(0)} fdw ${med.fdw.toFixed(0)} duckdb ${med.duckdb.toFixed(0)} ms`);
    }
    dconn.closeSync?.();
  }
  await client.end();
  report(results, runs, workerCounts, queries);
  return differences;
}

const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

function report(results, runs, workerCounts, queries) {
  const f0 = (x) => x.toFixed(0);
  const r2 = (x) => x.toFixed(2);
  const head = ['query', 'shape', 'w', 'heap ms', 'fdw ms', 'duck ms', 'fdw/duck', 'fdw/heap', 'fdw plan', 'rows'];
  const table = results.map(({ q, workers, med, plans, same }) => [q.key, q.shape, String(workers), f0(med.heap), f0(med.fdw),
    f0(med.duckdb), r2(med.fdw / med.duckdb), r2(med.fdw / med.heap), plans.fdw,
    same.fdw && same.duckdb ? 'equal' : 'DIFFERENT']);
  const w = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (i < 2 || i >= 8 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(w.map((k) => '-'.repeat(k)).join('  '));
  for (const r of table) console.log(line(r));
  console.log();
  console.log(`Medians of ${runs} runs after one warm-up; w = max_parallel_workers_per_gather (DuckDB: threads = 1 + w).`);
  console.log('rows: the foreign table\'s and DuckDB\'s rows against the heap table\'s (numbers to 6 significant digits).');
  console.log();
  console.log('| workers | heap total s | fdw total s | DuckDB total s | fdw/DuckDB total | fdw/DuckDB geomean | worst fdw/DuckDB | queries slower than heap |');
  console.log('|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const workers of workerCounts) {
    const rs = results.filter((r) => r.workers === workers);
    const tot = (k) => rs.reduce((a, r) => a + r.med[k], 0);
    const worst = rs.reduce((a, r) => (r.med.fdw / r.med.duckdb > a.med.fdw / a.med.duckdb ? r : a));
    console.log(`| ${workers} | ${(tot('heap') / 1000).toFixed(1)} | ${(tot('fdw') / 1000).toFixed(1)} | ${(tot('duckdb') / 1000).toFixed(1)} | `
      + `${r2(tot('fdw') / tot('duckdb'))} | ${r2(geomean(rs.map((r) => r.med.fdw / r.med.duckdb)))} | `
      + `${worst.q.key} ${r2(worst.med.fdw / worst.med.duckdb)} | ${rs.filter((r) => r.med.fdw > r.med.heap).length} |`);
  }
  if (workerCounts.includes(0) && workerCounts.some((x) => x > 0)) {
    const most = Math.max(...workerCounts);
    const at = (w, k) => results.filter((r) => r.workers === w).reduce((a, r) => a + r.med[k], 0);
    console.log();
    console.log(`Speed-up of the totals from 0 to ${most} workers: heap ${r2(at(0, 'heap') / at(most, 'heap'))}x, `
      + `fdw ${r2(at(0, 'fdw') / at(most, 'fdw'))}x, DuckDB ${r2(at(0, 'duckdb') / at(most, 'duckdb'))}x (target: fdw's at least heap's).`);
  }
  console.log();
  console.log('Targets of issue 35 (fdw/DuckDB at each worker count):');
  for (const workers of workerCounts) {
    const get = (key) => results.find((r) => r.workers === workers && r.q.key === key);
    const shown = [['referer_domains', 2], ['ninety_sums', 3], ['distinct_phrases', 2], ['distinct_users', 2], ['topn_star', 1.5]]
      .filter(([k]) => queries.some((q) => q.key === k))
      .map(([k, goal]) => `${k} ${r2(get(k).med.fdw / get(k).med.duckdb)} (<= ${goal})`);
    console.log(`  w=${workers}: ${shown.join(', ')}`);
  }
}

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1].split(',') : null;
if (args.length < 2) {
  console.error('usage: hits.mjs FILE RUNS [WORKERS...] [--only KEY,KEY]');
  process.exit(2);
}
const workerCounts = args.length > 2 ? args.slice(2).map(Number) : [0, 2];
process.exit(await run(args[0], Number(args[1]), workerCounts, only) ? 1 : 0);
