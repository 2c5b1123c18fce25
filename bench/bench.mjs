#!/usr/bin/env node
// Helpers for bench/reader.sh and bench/memory.sh (the queries live here, once):
//
//   node bench/bench.mjs psql-script [--hashagg-variant] WORKDIR RUNS FDW_TABLE HEAP_TABLE
//        print a psql script: per query one warm-up on each table (its rows
//        written to WORKDIR/result_<q>_<table>.txt), then RUNS timed runs
//        alternating between the tables (with --hashagg-variant, for (b)
//        also the fdw with work_mem = 256MB, key FDW_TABLE+hashagg); "@@ <q> <key> <run>" markers
//        precede each statement so `report` can attribute psql's \timing lines.
//   node bench/bench.mjs duckdb FILE RUNS OUT.json
//        the same queries in DuckDB (threads = 1) on read_parquet(FILE): one
//        warm-up, then RUNS timed runs each; times and result rows to OUT.json.
//   node bench/bench.mjs peak-rss LABEL RUNS TABLE [QUERY]
//        RUNS times: a new connection (PG* environment), EXPLAIN of query
//        QUERY (default c) on TABLE (loads catalogs, the extension and the
//        file footer), then the query while sampling
//        /proc/<backend pid>/status RssAnon every 10 ms. Prints one JSON line:
//        { label, sql, runs: [{ before_kB, peak_kB, delta_kB, samples, ms, result }], median_delta_kB }.
//   node bench/bench.mjs query a|b|c TABLE
//        print the query's SQL on one line.
//   node bench/bench.mjs rowgroup-size FILE
//        JSON: the largest row group's compressed/uncompressed bytes (all columns), per DuckDB.
//   node bench/bench.mjs memory-report WORKDIR [MAX_RATIO]
//        the table of memory.sh, from WORKDIR/{rg,rss}_{small,large}.json;
//        exit status 1 when large/small peak > MAX_RATIO (default 1.5).
//   node bench/bench.mjs report WORKDIR
//        the results table of reader.sh, from WORKDIR/{timing.log,result_*,duckdb.json,rss_*.json,info.json}.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));

export const QUERIES = {
  a: {
    title: '(a) sum/count WHERE l_quantity < 25',
    sql: (t) => `SELECT sum(l_extendedprice), count(*) FROM ${t} WHERE l_quantity < 25`,
  },
  b: {
    title: '(b) TPC-H Q1-like GROUP BY',
    // A second fdw measurement with the heap table's plan shape. Without
    // statistics on the foreign table the planner expects ~40,000 groups and,
    // with the default work_mem, picks Sort + GroupAggregate (whose unstable
    // sort also changes the order of the float sums); a larger work_mem gives
    // HashAggregate, as on the analyzed heap table.
    fdwVariant: {
      key: 'hashagg',
      title: "(b') same, fdw with work_mem = 256MB",
      pre: "SET work_mem = '256MB'",
      post: 'RESET work_mem',
    },
    sql: (t) => `SELECT l_returnflag, l_linestatus,
       sum(l_quantity) AS sum_qty,
       sum(l_extendedprice) AS sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       avg(l_quantity) AS avg_qty,
       avg(l_extendedprice) AS avg_price,
       avg(l_discount) AS avg_disc,
       count(*) AS count_order
  FROM ${t}
 WHERE l_shipdate <= date '1998-09-02'
 GROUP BY l_returnflag, l_linestatus
 ORDER BY 1, 2`,
  },
  c: {
    title: '(c) count(t.*) (forms every row)',
    sql: (t) => `SELECT count(t.*) FROM ${t} t`,
    // DuckDB: a table alias used as a column is the whole row as a STRUCT.
    duck: (t) => `SELECT count(t) FROM ${t} t`,
  },
};

const oneLine = (s) => s.replace(/\s+/g, ' ').trim();
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

function die(msg) {
  console.error(`bench.mjs: ${msg}`);
  process.exit(2);
}

// ---------------------------------------------------------------- psql-script
function psqlScript(work, runs, fdw, heap, withVariant) {
  const out = ['\\set ON_ERROR_STOP 1', '\\pset footer off', '\\timing on', '\\o /dev/null'];
  const stmt = (q, v, run) => {
    if (v.pre) out.push(v.pre + ';');
    out.push(`\\echo @@ ${q} ${v.key} ${run}`);
    if (run === 'warmup') out.push(`\\o ${path.join(work, `result_${q}_${v.key}.txt`)}`);
    out.push(oneLine(QUERIES[q].sql(v.table)) + ';');
    if (run === 'warmup') out.push('\\o /dev/null');
    if (v.post) out.push(v.post + ';');
  };
  for (const [q, def] of Object.entries(QUERIES)) {
    const variants = [{ key: fdw, table: fdw }, { key: heap, table: heap }];
    if (withVariant && def.fdwVariant) {
      const fv = def.fdwVariant;
      variants.push({ key: `${fdw}+${fv.key}`, table: fdw, pre: fv.pre, post: fv.post });
    }
    for (const v of variants) stmt(q, v, 'warmup');
    for (let r = 1; r <= runs; r++) {
      // Rotate which variant goes first.
      for (let k = 0; k < variants.length; k++) stmt(q, variants[(r - 1 + k) % variants.length], r);
    }
  }
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------- duckdb
async function duckdbBench(file, runs, outFile) {
  const { DuckDBInstance } = require('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:', {
    threads: '1',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const conn = await inst.connect();
  const src = `read_parquet('${file.replace(/'/g, "''")}')`;
  const res = {};
  for (const [q, def] of Object.entries(QUERIES)) {
    const sql = oneLine((def.duck || def.sql)(src));
    const rows = (await conn.runAndReadAll(sql)).getRowsJson(); // warm-up, keeps the rows
    const times = [];
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      await conn.runAndReadAll(sql);
      times.push(performance.now() - t0);
    }
    res[q] = { sql, times, median_ms: median(times), rows };
  }
  fs.writeFileSync(outFile, JSON.stringify(res, null, 1));
}

// ---------------------------------------------------------------- peak-rss
function rssAnonKB(pid) {
  const m = /^RssAnon:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no RssAnon in /proc/${pid}/status`);
  return Number(m[1]);
}

async function peakRss(label, runs, sql) {
  const pg = require('pg');
  const out = [];
  for (let r = 0; r < runs; r++) {
    // PGHOST/PGPORT/PGUSER/PGDATABASE come from the environment (scripts/cluster.sh).
    const client = new pg.Client();
    await client.connect();
    try {
      const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await client.query(`EXPLAIN ${sql}`);
      const before = rssAnonKB(pid);
      let peak = before;
      let samples = 0;
      const sample = () => {
        try {
          peak = Math.max(peak, rssAnonKB(pid));
          samples++;
        } catch { /* backend gone: the query fails below */ }
      };
      const timer = setInterval(sample, 10);
      const t0 = performance.now();
      let result;
      try {
        result = (await client.query({ text: sql, rowMode: 'array' })).rows;
      } finally {
        clearInterval(timer);
      }
      const ms = performance.now() - t0;
      sample();
      out.push({ before_kB: before, peak_kB: peak, delta_kB: peak - before, samples, ms: Math.round(ms), result });
    } finally {
      await client.end();
    }
  }
  console.log(JSON.stringify({ label, sql, runs: out, median_delta_kB: median(out.map((x) => x.delta_kB)) }));
}

// ---------------------------------------------------------------- rowgroup-size
async function rowgroupSize(file) {
  const { DuckDBInstance } = require('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  const r = (await conn.runAndReadAll(`
    SELECT max(c) AS compressed, max(u) AS uncompressed, count(*) AS row_groups, max(n) AS rows,
           sum(n) AS rows_total
      FROM (SELECT row_group_id, sum(total_compressed_size) c, sum(total_uncompressed_size) u,
                   max(row_group_num_rows) n
              FROM parquet_metadata('${file.replace(/'/g, "''")}') GROUP BY row_group_id)`)).getRowObjectsJson()[0];
  console.log(JSON.stringify({ file, size: fs.statSync(file).size, ...r }));
}

// ---------------------------------------------------------------- report
const fmtMs = (x) => (x == null ? 'n/a' : x.toFixed(1));
const fmtRatio = (x, y) => (x == null || y == null ? 'n/a' : (x / y).toFixed(2) + 'x');
const mib = (kB) => (kB / 1024).toFixed(1) + ' MiB';

function parseTiming(file) {
  // "@@ q table run" then psql's "Time: 123.456 ms" (possibly "(00:01.234)" after).
  const times = {};
  let cur = null;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    let m;
    if ((m = /^@@ (\S+) (\S+) (\S+)$/.exec(line))) cur = m.slice(1);
    else if ((m = /^Time: ([\d.]+) ms/.exec(line)) && cur) {
      const [q, t, run] = cur;
      if (run !== 'warmup') ((times[q] ??= {})[t] ??= []).push(Number(m[1]));
      cur = null;
    }
  }
  return times;
}

// Six significant digits for numbers, text otherwise.
function sig6(v) {
  const s = String(v).trim();
  if (s !== '' && /^[-+\d.eE]+$/.test(s) && Number.isFinite(Number(s))) return Number(Number(s).toPrecision(6)).toString();
  return s;
}

function rowsEqual(x, y, f) {
  if (x.length !== y.length) return false;
  return x.every((row, i) => row.length === y[i].length && row.every((v, j) => f(v) === f(y[i][j])));
}

function report(work) {
  const info = JSON.parse(fs.readFileSync(path.join(work, 'info.json'), 'utf8'));
  const timing = parseTiming(path.join(work, 'timing.log'));
  const duck = fs.existsSync(path.join(work, 'duckdb.json'))
    ? JSON.parse(fs.readFileSync(path.join(work, 'duckdb.json'), 'utf8')) : {};
  const { fdw, heap } = info.tables;
  const readRows = (q, t) => fs.readFileSync(path.join(work, `result_${q}_${t}.txt`), 'utf8')
    .split('\n').filter((l) => l !== '').map((l) => l.split('|'));

  const rows = [];
  const notes = [];
  const lines = [];
  for (const [q, def] of Object.entries(QUERIES)) {
    lines.push({ q, title: def.title, key: fdw, duck: true });
    const vkey = def.fdwVariant && `${fdw}+${def.fdwVariant.key}`;
    if (vkey && timing[q]?.[vkey]) lines.push({ q, title: def.fdwVariant.title, key: vkey, duck: false });
  }
  for (const { q, title, key, duck: withDuck } of lines) {
    const th = timing[q]?.[heap] ?? [];
    const tf = timing[q]?.[key] ?? [];
    if (th.length !== info.runs || tf.length !== info.runs) {
      notes.push(`${title}: expected ${info.runs} timed runs per table, found heap ${th.length}, fdw ${tf.length}`);
    }
    const h = th.length ? median(th) : null;
    const f = tf.length ? median(tf) : null;
    const d = withDuck ? duck[q]?.median_ms ?? null : null;
    const rf = readRows(q, key);
    const rh = readRows(q, heap);
    let same;
    if (rowsEqual(rf, rh, (v) => v)) same = 'identical';
    else if (rowsEqual(rf, rh, sig6)) {
      same = 'equal to 6 sig. digits';
      notes.push(`${title}: fdw and heap results differ in the last digits (equal when rounded to 6 significant digits)`);
    } else {
      same = 'DIFFERENT';
      notes.push(`${title}: fdw and heap results DIFFER:\n    fdw:  ${rf.map((r) => r.join('|')).join('\n          ')}\n    heap: ${rh.map((r) => r.join('|')).join('\n          ')}`);
    }
    let duckSame = withDuck ? 'n/a' : '';
    if (withDuck && duck[q]) {
      const dr = duck[q].rows.map((r) => r.map((v) => (v === null ? '' : String(v))));
      duckSame = rowsEqual(dr, rh, (v) => v) ? 'identical' : rowsEqual(dr, rh, sig6) ? 'equal to 6 sig. digits' : 'DIFFERENT';
      if (duckSame === 'DIFFERENT') {
        notes.push(`${title}: DuckDB's result differs from the heap's:\n    duckdb: ${dr.map((r) => r.join('|')).join('\n            ')}\n    heap:   ${rh.map((r) => r.join('|')).join('\n            ')}`);
      }
    }
    rows.push([title, fmtMs(h), fmtMs(f), withDuck ? fmtMs(d) : '', fmtRatio(f, h), withDuck ? fmtRatio(d, h) : '', same, duckSame]);
  }
  const head = ['query', 'heap ms', 'fdw ms', 'duckdb ms', 'fdw/heap', 'duckdb/heap', 'fdw vs heap rows', 'duckdb vs heap rows'];
  const w = head.map((x, i) => Math.max(x.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (i === 0 || i >= 6 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(w.map((n) => '-'.repeat(n)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log();
  console.log(`Times: median of ${info.runs} runs after one warm-up, one psql session (client-side \\timing, output to /dev/null);`);
  console.log('DuckDB: median of the same number of runs, threads = 1, read_parquet on the same file, (c) as count(t).');
  console.log('Ratios are relative to the heap table measured in the same run.');
  console.log();
  console.log('Per-run times (ms):');
  for (const [q, def] of Object.entries(QUERIES)) {
    const r = (xs) => (xs ?? []).map((x) => x.toFixed(0)).join(' ');
    const fv = def.fdwVariant && timing[q]?.[`${fdw}+${def.fdwVariant.key}`] ? ` | fdw ${def.fdwVariant.key} ${r(timing[q]?.[`${fdw}+${def.fdwVariant.key}`])}` : '';
    console.log(`  ${q}: heap ${r(timing[q]?.[heap])} | fdw ${r(timing[q]?.[fdw])}${fv} | duckdb ${r(duck[q]?.times)}`);
  }

  // Peak backend memory for (c).
  const rss = {};
  for (const t of ['fdw', 'heap']) {
    const f = path.join(work, `rss_${t}.json`);
    if (fs.existsSync(f)) rss[t] = JSON.parse(fs.readFileSync(f, 'utf8'));
  }
  if (rss.fdw || rss.heap) {
    console.log();
    console.log('Peak backend memory during (c) (RssAnon peak minus RssAnon before the query; sampled every 10 ms;');
    console.log('a new connection per run, after EXPLAIN of the query; shared buffers are not anonymous memory):');
    for (const t of ['fdw', 'heap']) {
      if (!rss[t]) continue;
      const runs = rss[t].runs.map((x) => mib(x.delta_kB)).join(', ');
      console.log(`  ${t.padEnd(4)}: ${mib(rss[t].median_delta_kB)} (median; runs: ${runs}; RssAnon before: ${mib(rss[t].runs[0].before_kB)})`);
    }
  }
  if (notes.length) {
    console.log();
    console.log('Notes:');
    for (const n of notes) console.log('  - ' + n);
  }
}

// ---------------------------------------------------------------- memory-report
// bench/memory.sh: WORKDIR/{rg,rss}_{small,large}.json. Exit status 1 when the
// large file's peak exceeds MAX_RATIO times the small file's.
function memoryReport(work, maxRatio) {
  const load = (f) => JSON.parse(fs.readFileSync(path.join(work, f), 'utf8'));
  const rows = [];
  const res = {};
  for (const k of ['small', 'large']) {
    const rg = load(`rg_${k}.json`);
    const rss = load(`rss_${k}.json`);
    res[k] = rss.median_delta_kB;
    for (const run of rss.runs) {
      if (String(run.result?.[0]?.[0]) !== String(rg.rows_total)) {
        console.log(`${k}: the query returned ${JSON.stringify(run.result)}, expected count ${rg.rows_total}`);
        process.exitCode = 1;
      }
    }
    rows.push([
      k,
      String(rg.rows_total ?? ''),
      (rg.size / 1048576).toFixed(1) + ' MiB',
      String(rg.row_groups),
      mib(rg.uncompressed / 1024) + ' / ' + mib(rg.compressed / 1024),
      mib(rss.median_delta_kB),
      rss.runs.map((x) => mib(x.delta_kB)).join(', '),
      String(median(rss.runs.map((x) => x.ms))),
    ]);
  }
  const head = ['file', 'rows', 'size', 'row groups', 'largest row group (uncompr. / compr.)', 'peak RssAnon delta', 'runs', 'query ms'];
  const w = head.map((x, i) => Math.max(x.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (i === 0 || i === 6 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(w.map((n) => '-'.repeat(n)).join('  '));
  for (const r of rows) console.log(line(r));
  const ratio = res.large / res.small;
  console.log();
  console.log('Peak RssAnon delta: backend RssAnon (private anonymous memory) sampled every 10 ms during');
  console.log('SELECT count(t.*) (all columns), minus RssAnon before the query; median of the runs, a new');
  console.log('connection per run, after EXPLAIN of the query. Row group sizes are all columns (DuckDB parquet_metadata).');
  console.log();
  const ok = Number.isFinite(ratio) && ratio <= maxRatio;
  console.log(`large/small peak ratio: ${Number.isFinite(ratio) ? ratio.toFixed(2) : 'n/a'} ` +
    `(${ok ? 'OK' : 'FAIL'}: limit ${maxRatio}; peak memory ${ok ? 'does not grow' : 'GROWS'} with file size)`);
  if (!ok) process.exitCode = 1;
}

// ---------------------------------------------------------------- main
const [cmd, ...args] = process.argv.slice(2);
switch (cmd) {
  case 'psql-script': {
    const withVariant = args[0] === '--hashagg-variant';
    const [work, runs, fdw, heap] = withVariant ? args.slice(1) : args;
    if (!heap) die('usage: psql-script [--hashagg-variant] WORKDIR RUNS FDW_TABLE HEAP_TABLE');
    process.stdout.write(psqlScript(path.resolve(work), Number(runs), fdw, heap, withVariant));
    break;
  }
  case 'duckdb': {
    const [file, runs, out] = args;
    if (!out) die('usage: duckdb FILE RUNS OUT.json');
    await duckdbBench(path.resolve(file), Number(runs), out);
    break;
  }
  case 'peak-rss': {
    const [label, runs, table, q = 'c'] = args;
    if (!table || !QUERIES[q]) die('usage: peak-rss LABEL RUNS TABLE [a|b|c]');
    await peakRss(label, Number(runs), oneLine(QUERIES[q].sql(table)));
    break;
  }
  case 'query': {
    const [q, table] = args;
    if (!table || !QUERIES[q]) die('usage: query a|b|c TABLE');
    console.log(oneLine(QUERIES[q].sql(table)));
    break;
  }
  case 'rowgroup-size': {
    if (!args[0]) die('usage: rowgroup-size FILE');
    await rowgroupSize(path.resolve(args[0]));
    break;
  }
  case 'memory-report':
    if (!args[0]) die('usage: memory-report WORKDIR [MAX_RATIO]');
    memoryReport(args[0], Number(args[1] ?? 1.5));
    break;
  case 'report':
    if (!args[0]) die('usage: report WORKDIR');
    report(args[0]);
    break;
  default:
    die('usage: bench.mjs psql-script|duckdb|peak-rss|query|rowgroup-size|memory-report|report ...');
}
