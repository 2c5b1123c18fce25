#!/usr/bin/env node
// The timings and report of bench/delta.sh: a Delta table with deletion
// vectors against the same files as a plain dataset.
//
//   node bench/delta.mjs run TABLE_DIR RUNS PLAN_RUNS [WORKERS...]
//
// PostgreSQL through the PG* environment (scripts/cluster.sh), with server
// parquet_srv, heap table li_heap (every row, with file_no and pos), table
// li_del (the deleted (file_no, pos)) and view li_live (li_heap less li_del)
// made by delta.sh and bench/delta_data.mjs.  Creates the foreign tables
//
//   li_delta  OPTIONS (format 'delta', location TABLE_DIR)   the Delta table
//   li_ds     OPTIONS (filename TABLE_DIR)                  its *.parquet files as
//             a plain dataset (_delta_log and the .bin file are not *.parquet
//             files): every row, the deleted ones too, no log
//
// and measures (client-side wall time through node-postgres, rows as text):
//
// 1. A filtered sum and a TPC-H Q1-like GROUP BY at each
//    max_parallel_workers_per_gather of WORKERS: one warm-up per table (its
//    rows kept), then RUNS runs alternating which table goes first; medians,
//    Delta/dataset (target <= 1.1x).  The Delta rows must equal the same
//    query's on li_live, the dataset's those on li_heap (text, else to 6
//    significant digits: parallel float sums add in another order); not timed.
// 2. Planning: "Planning Time" of EXPLAIN (SUMMARY) of a simple query, warm
//    (one session, one warm-up, then the median of PLAN_RUNS; target < 5 ms)
//    and cold (the first statement of a new connection, so the backend has
//    no snapshot, footer or catalog cache: median of PLAN_RUNS connections),
//    on li_delta, li_ds and li_heap.
// 3. Files pruned by the log's statistics: a range of l_orderkey inside one
//    file (the files are consecutive slices of the l_orderkey order), its
//    EXPLAIN's "Files: N of M (pruned by partition: K, by table statistics:
//    S)" on both tables, and its time at 0 workers as in 1.
//
// With BENCH_DIAG (default on; 0 turns it off) 1 and 3 also time, in the
// same rotation, li_delta_v0 (version '0' of the Delta table: the same files
// without deletion vectors) and li_ds_ubn (the dataset with union_by_name
// 'true', as a Delta table's files are read while their schemas may differ):
// they separate the deletion vectors' cost from the rest of the Delta path.
//
// EXPLAIN ANALYZE of both tables is printed for every query of 1 and 3 whose
// ratio is over 1.1 (BENCH_EXPLAIN=1: for every query).  Exit status 1 when
// any answer differs from the heap's.

import { createRequire } from 'node:module';
import { PLAN_TARGET, TARGET, TEXT, asText, lit, median, oneLine, rowsEqual, sig6 } from './lib.mjs';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const pg = require('pg');


const QUERIES = [
  {
    key: 'filtered_sum', title: 'filtered sum',
    sql: (t) => `SELECT sum(l_extendedprice * (1 - l_discount)) FROM ${t}
 WHERE l_shipdate >= date '1995-01-01' AND l_shipdate < date '1996-01-01' AND l_quantity < 24`,
  },
  {
    key: 'q1', title: 'Q1-like GROUP BY',
    sql: (t) => `SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
       sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
       avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
  FROM ${t} WHERE l_shipdate <= date '1998-09-02'
 GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2`,
  },
];
const PLAN_QUERY = (t) => `SELECT sum(l_extendedprice) FROM ${t} WHERE l_quantity < 24`;

async function connect() {
  const c = new pg.Client({ options: '-c DateStyle=ISO -c jit=off' });
  await c.connect();
  return c;
}
const rowsOf = async (c, sql) => (await c.query({ text: oneLine(sql), rowMode: 'array', types: TEXT })).rows.map((r) => r.map(asText));
const lines = async (c, sql) => (await rowsOf(c, sql)).map((r) => r[0]);
async function timed(c, sql) {
  const t0 = performance.now();
  const rows = await rowsOf(c, sql);
  return { ms: performance.now() - t0, rows };
}
const planningMs = (plan) => {
  const m = /Planning Time: ([\d.]+) ms/.exec(plan.join('\n'));
  if (!m) throw new Error(`no Planning Time in\n${plan.join('\n')}`);
  return Number(m[1]);
};
const filesLine = (plan) => plan.map((l) => l.trim()).find((l) => l.startsWith('Files:')) ?? '(no Files line)';
const same = (x, y) => (rowsEqual(x, y, asText) ? 'identical' : rowsEqual(x, y, sig6) ? 'equal to 6 digits' : 'DIFFERENT');

let differences = 0;
const explains = [];

// The two tables compared, and (BENCH_DIAG, default on) two that tell where
// a difference comes from: the Delta table at version 0 (the same files, no
// deletion vectors) and the dataset read as a table format's files are
// (union_by_name 'true').  truth: the heap query each must equal.
const READERS = {
  delta: { table: 'li_delta', truth: 'li_live' },
  dataset: { table: 'li_ds', truth: 'li_heap' },
  delta_v0: { table: 'li_delta_v0', truth: 'li_heap', diag: true },
  dataset_ubn: { table: 'li_ds_ubn', truth: 'li_heap', diag: true },
};
const DIAG = process.env.BENCH_DIAG !== '0';

/*
 * One query on li_delta and li_ds (and the diagnostic tables): plans,
 * warm-ups, the heap's answers, RUNS timed runs rotating which table goes
 * first.
 */
async function measure(c, q, workers, runs) {
  const keys = Object.keys(READERS).filter((k) => DIAG || !READERS[k].diag);
  const r = { q, workers, plan: {}, files: {}, rows: {}, truth: {}, same: {}, ms: {}, med: {} };
  for (const k of keys) {
    const { table: t, truth } = READERS[k];
    const plan = await lines(c, `EXPLAIN (COSTS OFF) ${q.sql(t)}`);
    r.plan[k] = plan.some((l) => /Gather/.test(l)) ? 'parallel' : 'serial';
    r.files[k] = filesLine(plan);
    r.rows[k] = (await timed(c, q.sql(t))).rows;
    r.truth[k] = await rowsOf(c, q.sql(truth));
    r.same[k] = same(r.rows[k], r.truth[k]);
    r.ms[k] = [];
    if (r.same[k] === 'DIFFERENT') {
      differences++;
      console.log(`DIFFERENT: ${q.title} at ${workers} workers, ${t}: ${JSON.stringify(r.rows[k])} vs ${truth} ${JSON.stringify(r.truth[k])}`);
    }
  }
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[(i + j) % keys.length];
      r.ms[k].push((await timed(c, q.sql(READERS[k].table))).ms);
    }
  }
  for (const k of keys) r.med[k] = median(r.ms[k]);
  r.ratio = r.med.delta / r.med.dataset;
  if (r.ratio > TARGET || process.env.BENCH_EXPLAIN === '1') {
    for (const k of ['delta', 'dataset']) {
      const plan = await lines(c, `EXPLAIN (ANALYZE, VERBOSE) ${q.sql(READERS[k].table)}`);
      explains.push({ title: `${q.title}, ${workers} workers, ${k} (${READERS[k].table}), ratio ${r.ratio.toFixed(2)}`, plan });
    }
  }
  console.error(`  ${q.title} w=${workers}: ${keys.map((k) => `${k} ${r.med[k].toFixed(1)}`).join(', ')} ms; delta/dataset ${r.ratio.toFixed(2)}`);
  return r;
}

async function planning(planRuns) {
  const tables = ['li_delta', 'li_ds', 'li_heap'];
  const warm = Object.fromEntries(tables.map((t) => [t, []]));
  const cold = Object.fromEntries(tables.map((t) => [t, []]));
  const c = await connect();
  for (const t of tables) await lines(c, `EXPLAIN (SUMMARY) ${PLAN_QUERY(t)}`);
  for (let i = 0; i < planRuns; i++)
    for (const t of tables) warm[t].push(planningMs(await lines(c, `EXPLAIN (SUMMARY) ${PLAN_QUERY(t)}`)));
  await c.end();
  for (let i = 0; i < planRuns; i++) {
    for (const t of tables) {
      const n = await connect();
      cold[t].push(planningMs(await lines(n, `EXPLAIN (SUMMARY) ${PLAN_QUERY(t)}`)));
      await n.end();
    }
  }
  return { warm, cold };
}

async function run(dir, runs, planRuns, workerCounts) {
  const c = await connect();
  const [[ddl]] = await rowsOf(c, `SELECT string_agg(quote_ident(attname) || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
    FROM pg_attribute WHERE attrelid = 'li_heap'::regclass AND attnum > 0 AND NOT attisdropped AND attname NOT IN ('file_no', 'pos')`);
  await c.query(`CREATE FOREIGN TABLE li_delta (${ddl}) SERVER parquet_srv OPTIONS (format 'delta', location ${lit(dir)})`);
  await c.query(`CREATE FOREIGN TABLE li_ds (${ddl}) SERVER parquet_srv OPTIONS (filename ${lit(dir)})`);
  await c.query(`CREATE FOREIGN TABLE li_delta_v0 (${ddl}) SERVER parquet_srv OPTIONS (format 'delta', location ${lit(dir)}, version '0')`);
  await c.query(`CREATE FOREIGN TABLE li_ds_ubn (${ddl}) SERVER parquet_srv OPTIONS (filename ${lit(dir)}, union_by_name 'true')`);

  // what the log holds, and the row counts
  const [[nfiles, nrec, ndel]] = await rowsOf(c, `SELECT count(*), sum(num_records), sum(deleted_rows) FROM parquet_fdw.table_files(${lit(dir)})`);
  const [[heapRows, delRows]] = await rowsOf(c, 'SELECT (SELECT count(*) FROM li_heap), (SELECT count(*) FROM li_del)');
  const [[deltaCount]] = await rowsOf(c, 'SELECT count(*) FROM li_delta');
  const [[dsCount]] = await rowsOf(c, 'SELECT count(*) FROM li_ds');
  console.log(`table_files: ${nfiles} files, ${nrec} records, ${ndel} deleted rows; li_heap ${heapRows} rows, li_del ${delRows}`);
  const liveRows = String(Number(heapRows) - Number(delRows));
  console.log(`count(*): li_delta ${deltaCount} (heap less deleted: ${liveRows}), li_ds ${dsCount} (heap: ${heapRows})`);
  if (deltaCount !== liveRows || dsCount !== heapRows || ndel !== delRows) {
    console.log('DIFFERENT: row counts');
    differences++;
  }
  console.log();
  console.log('Plans at 0 workers:');
  await c.query('SET max_parallel_workers_per_gather = 0');
  for (const q of QUERIES) {
    for (const t of ['li_delta', 'li_ds']) {
      console.log(`-- ${q.title} on ${t}`);
      console.log((await lines(c, `EXPLAIN (COSTS OFF) ${q.sql(t)}`)).join('\n'));
    }
  }
  console.log();

  // 1. the scans
  const results = [];
  for (const w of workerCounts) {
    await c.query(`SET max_parallel_workers_per_gather = ${w}`);
    for (const q of QUERIES) results.push(await measure(c, q, w, runs));
  }

  // 3. pruning by the log's statistics: the middle half of one file's keys
  await c.query('SET max_parallel_workers_per_gather = 0');
  const [[nf]] = await rowsOf(c, 'SELECT max(file_no) + 1 FROM li_heap');
  const m = Math.floor(Number(nf) * 0.4);
  const [[cnt]] = await rowsOf(c, `SELECT count(*) FROM li_heap WHERE file_no = ${m}`);
  const keyAt = async (p) => (await rowsOf(c, `SELECT l_orderkey FROM li_heap WHERE file_no = ${m} AND pos = ${p}`))[0][0];
  const lo = await keyAt(Math.floor(Number(cnt) / 4));
  const hi = await keyAt(Math.floor((3 * Number(cnt)) / 4));
  const pq = {
    key: 'pruned', title: 'l_orderkey range (1 file)',
    sql: (t) => `SELECT count(*), sum(l_extendedprice), min(l_shipdate), max(l_comment) FROM ${t}
 WHERE l_orderkey BETWEEN ${lo} AND ${hi}`,
  };
  const pruned = await measure(c, pq, 0, runs);
  const prunePlans = {};
  const prunePlanning = {};
  for (const t of ['li_delta', 'li_ds']) {
    prunePlans[t] = await lines(c, `EXPLAIN (ANALYZE, SUMMARY) ${pq.sql(t)}`);
    const ms = [];
    for (let i = 0; i < runs; i++) ms.push(planningMs(await lines(c, `EXPLAIN (SUMMARY) ${pq.sql(t)}`)));
    prunePlanning[t] = median(ms);
  }
  const fm = /Files: (\d+) of (\d+) \(pruned by partition: (\d+)(?:, by table statistics: (\d+))?\)/.exec(filesLine(prunePlans.li_delta));
  await c.end();

  // 2. planning
  const plan = await planning(planRuns);

  report({ results, pruned, pq, prunePlans, prunePlanning, fm, plan, runs, planRuns });
  return differences;
}

function table(head, rows, left = [0]) {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (left.includes(i) ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(w.map((k) => '-'.repeat(k)).join('  '));
  for (const r of rows) console.log(line(r));
}

function report({ results, pruned, pq, prunePlans, prunePlanning, fm, plan, runs, planRuns }) {
  const f1 = (x) => x.toFixed(1);
  const f2 = (x) => x.toFixed(2);
  const mark = (ok) => (ok ? 'met' : 'NOT MET');
  console.log();
  console.log(`Delta (deletion vectors) vs plain dataset: medians of ${runs} runs after one warm-up; w = max_parallel_workers_per_gather`);
  const diag = (r, k) => (r.med[k] === undefined ? '' : f1(r.med[k]));
  const diagHead = DIAG ? ['v0 ms', 'dataset ubn ms'] : [];
  table(['query', 'w', 'delta ms', 'dataset ms', 'delta/dataset', 'target', ...diagHead, 'plans (delta, dataset)',
    'rows: delta vs heap less deleted, dataset vs heap'],
  [...results, pruned].map((r) => [r.q.title, String(r.workers), f1(r.med.delta), f1(r.med.dataset), `${f2(r.ratio)}x`,
    r === pruned ? '' : `<= ${TARGET}x ${mark(r.ratio <= TARGET)}`, ...(DIAG ? [diag(r, 'delta_v0'), diag(r, 'dataset_ubn')] : []),
    `${r.plan.delta}, ${r.plan.dataset}`, `${r.same.delta}, ${r.same.dataset}`]), DIAG ? [0, 5, 8, 9] : [0, 5, 6, 7]);
  if (DIAG) {
    console.log('v0: li_delta_v0, the Delta table at version 0 (the same files, no deletion vectors);');
    console.log("dataset ubn: li_ds_ubn, the dataset with union_by_name 'true' (as a table format's files are read when their schemas may differ)");
    const bad = [...results, pruned].filter((r) => r.same.delta_v0 === 'DIFFERENT' || r.same.dataset_ubn === 'DIFFERENT');
    if (bad.length) console.log(`diagnostic tables' rows DIFFERENT from li_heap's in: ${bad.map((r) => `${r.q.title} w=${r.workers}`).join(', ')}`);
  }
  console.log();
  console.log('Planning Time (ms) of EXPLAIN (SUMMARY) ' + oneLine(PLAN_QUERY('T')));
  const pl = (xs) => `${f2(median(xs))} (${f2(Math.min(...xs))}..${f2(Math.max(...xs))})`;
  table(['', 'li_delta', 'li_ds (dataset)', 'li_heap', 'target'], [
    [`warm: one session, median (min..max) of ${planRuns}`, pl(plan.warm.li_delta), pl(plan.warm.li_ds), pl(plan.warm.li_heap),
      `< ${PLAN_TARGET} ms ${mark(median(plan.warm.li_delta) < PLAN_TARGET)}`],
    [`cold: first query of a new connection, median (min..max) of ${planRuns}`, pl(plan.cold.li_delta), pl(plan.cold.li_ds), pl(plan.cold.li_heap), ''],
  ], [0, 4]);
  console.log();
  console.log(`Pruning: ${oneLine(pq.sql('T'))}`);
  console.log(`  li_delta: ${filesLine(prunePlans.li_delta)}`);
  console.log(`  li_ds:    ${filesLine(prunePlans.li_ds)}`);
  console.log(`  files pruned by table statistics: ${fm ? `${fm[4] ?? 0} of ${fm[2]}` : 'unknown (no Files line)'}; ` +
    `query ${f1(pruned.med.delta)} ms on li_delta, ${f1(pruned.med.dataset)} ms on li_ds (${f2(pruned.ratio)}x); ` +
    `planning ${f2(prunePlanning.li_delta)} ms and ${f2(prunePlanning.li_ds)} ms (medians of ${runs})`);
  console.log();
  console.log('Per-run times (ms):');
  for (const r of [...results, pruned])
    console.log(`  ${r.q.title}, w=${r.workers}: ${Object.entries(r.ms).map(([k, xs]) => `${k} ${xs.map(f1).join(' ')}`).join('; ')}`);
  console.log(`  cold planning, li_delta: ${plan.cold.li_delta.map(f2).join(' ')}`);
  console.log();
  console.log('EXPLAIN ANALYZE of the pruned query:');
  for (const t of ['li_delta', 'li_ds']) console.log(`-- ${t}\n${prunePlans[t].join('\n')}`);
  for (const e of explains) {
    console.log();
    console.log(`EXPLAIN ANALYZE: ${e.title}`);
    console.log(e.plan.join('\n'));
  }
  console.log();
  console.log('Queries:');
  for (const q of [...QUERIES, pq]) console.log(`  ${q.title}: ${oneLine(q.sql('T'))}`);
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'run' && args.length >= 3) {
  const workerCounts = args.length > 3 ? args.slice(3).map(Number) : [0, 2];
  const diffs = await run(args[0], Number(args[1]), Number(args[2]), workerCounts);
  if (diffs) console.log(`${diffs} answer(s) DIFFERENT from the heap's`);
  process.exit(diffs ? 1 : 0);
} else {
  console.error('usage: node bench/delta.mjs run TABLE_DIR RUNS PLAN_RUNS [WORKERS...]');
  process.exit(2);
}
