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
//
// For bench/copy.sh (COPY TO parquet, issue 5):
//   node bench/bench.mjs copy-psql-script WORKDIR RUNS TABLE [VARIANT...]
//        psql script: LOAD 'parquet_fdw', then per COPY variant (pq_snappy,
//        pq_zstd, csv; default all) one warm-up and RUNS timed runs, alternating,
//        `\! sync` before each; "@@ copy <variant> <run>" markers.
//   node bench/bench.mjs copy-sql VARIANT TABLE FILE      print one variant's COPY statement.
//   node bench/bench.mjs checksum-sql pg|duckdb FROM      print the aggregate-checksum query.
//   node bench/bench.mjs peak-rss-copy LABEL RUNS VARIANT TABLE WORKDIR
//        as peak-rss, for the variant's COPY (after LOAD and a 1000-row COPY warm-up, no EXPLAIN).
//   node bench/bench.mjs duckdb-copy SRC.parquet WORKDIR RUNS OUT.json
//        DuckDB (threads = 1) loads SRC into a table, then times COPY TO parquet
//        with snappy and zstd (WORKDIR/duck_<codec>.parquet).
//   node bench/bench.mjs copy-check WORKDIR OUT.json
//        DuckDB reads every Parquet file in WORKDIR the run wrote: checksums, sizes, layout.
//   node bench/bench.mjs copy-ratio WORKDIR     COPY TO parquet (snappy) / COPY TO csv median time.
//   node bench/bench.mjs copy-report WORKDIR    the results of copy.sh (exit 1 if DuckDB's checksums differ).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { median, oneLine, rowsEqual, sig6 } from './lib.mjs';

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

// opts (bench/copy.sh): pre = statements run first on each new connection
// (e.g. LOAD and a small warm-up COPY); explain = false skips the EXPLAIN
// (a COPY cannot be explained). The defaults are reader.sh's behaviour.
async function peakRss(label, runs, sql, { pre = [], explain = true } = {}) {
  const pg = require('pg');
  const out = [];
  for (let r = 0; r < runs; r++) {
    // PGHOST/PGPORT/PGUSER/PGDATABASE come from the environment (scripts/cluster.sh).
    const client = new pg.Client();
    await client.connect();
    try {
      const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      for (const p of pre) await client.query(p);
      if (explain) await client.query(`EXPLAIN ${sql}`);
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

// ---------------------------------------------------------------- COPY TO benchmark (bench/copy.sh)
// The statements timed by copy.sh, on the heap table T, writing file F.
export const COPY_VARIANTS = {
  pq_snappy: {
    title: 'COPY TO parquet (snappy)',
    file: 'pg_snappy.parquet',
    codec: 'snappy',
    sql: (t, f) => `COPY ${t} TO '${f}' WITH (FORMAT parquet)`,
  },
  pq_zstd: {
    title: 'COPY TO parquet (zstd)',
    file: 'pg_zstd.parquet',
    codec: 'zstd',
    sql: (t, f) => `COPY ${t} TO '${f}' WITH (FORMAT parquet, compression 'zstd')`,
  },
  csv: {
    title: 'COPY TO csv',
    file: 'pg.csv',
    sql: (t, f) => `COPY ${t} TO '${f}' WITH (FORMAT csv)`,
  },
};
const DUCK_CODECS = ['snappy', 'zstd'];

// Aggregate checksums of the lineitem columns (bench/gen_lineitem.mjs), exact
// in both engines: integers, doubles as rounded cents, decimals, text lengths
// and a 60-bit md5 prefix, dates as days and the timestamp as microseconds.
const LI_COLUMNS = ['l_orderkey', 'l_partkey', 'l_suppkey', 'l_linenumber', 'l_quantity', 'l_extendedprice',
  'l_discount', 'l_tax', 'l_returnflag', 'l_linestatus', 'l_shipdate', 'l_commitdate', 'l_receiptdate',
  'l_shipinstruct', 'l_shipmode', 'l_comment', 'l_ts', 'l_price'];
const cents = (c) => [`sum(round(${c} * 100)::bigint)`, `sum(CAST(round(${c} * 100) AS BIGINT))`];
const days = (d) => (c) => `(${c} - ${d} '1970-01-01')`;
export const CHECKSUMS = [
  ['rows', 'count(*)', 'count(*)'],
  ['non-null values', LI_COLUMNS.map((c) => `count(${c})`).join(' + '), LI_COLUMNS.map((c) => `count(${c})`).join(' + ')],
  ...['l_orderkey', 'l_partkey', 'l_suppkey', 'l_linenumber'].map((c) => [`sum(${c})`, `sum(${c})`, `sum(${c})`]),
  ...['l_quantity', 'l_extendedprice', 'l_discount', 'l_tax'].map((c) => [`sum(round(${c} * 100))`, ...cents(c)]),
  ['sum(l_price)', 'sum(l_price)', 'sum(l_price)'],
  ['sum(ascii(flags))', 'sum(ascii(l_returnflag) * 256 + ascii(l_linestatus))', 'sum(ascii(l_returnflag) * 256 + ascii(l_linestatus))'],
  ...['l_shipinstruct', 'l_shipmode', 'l_comment'].map((c) => [`sum(length(${c}))`, `sum(length(${c}))`, `sum(length(${c}))`]),
  ['sum(md5 60 bits(l_comment))', "sum(('x' || left(md5(l_comment), 15))::bit(60)::bigint)",
    "sum(CAST('0x' || left(md5(l_comment), 15) AS BIGINT))"],
  ['sum(md5 60 bits(shipinstruct|shipmode))', "sum(('x' || left(md5(l_shipinstruct || '|' || l_shipmode), 15))::bit(60)::bigint)",
    "sum(CAST('0x' || left(md5(l_shipinstruct || '|' || l_shipmode), 15) AS BIGINT))"],
  ...['l_shipdate', 'l_commitdate', 'l_receiptdate'].map((c) => [`sum(days(${c}))`, `sum${days('date')(c)}`, `sum${days('DATE')(c)}`]),
  ['sum(epoch_us(l_ts))', 'sum((extract(epoch FROM l_ts) * 1000000)::bigint)', 'sum(epoch_us(l_ts))'],
];
const checksumSql = (dialect, from) => `SELECT ${CHECKSUMS.map((c) => (dialect === 'pg' ? c[1] : c[2])).join(',\n       ')}\n  FROM ${from}`;

// psql script: LOAD, then per variant one warm-up and RUNS timed runs,
// alternating between the variants; `sync` (psql's \!) before every statement
// so that no dirty pages of the previous run are written back during the next.
function copyPsqlScript(work, runs, table, keys) {
  const out = ['\\set ON_ERROR_STOP 1', "LOAD 'parquet_fdw';", '\\timing on'];
  const stmt = (key, run) => {
    const v = COPY_VARIANTS[key];
    out.push('\\! sync', `\\echo @@ copy ${key} ${run}`, v.sql(table, path.join(work, v.file)) + ';');
  };
  for (const k of keys) stmt(k, 'warmup');
  for (let r = 1; r <= runs; r++) for (let i = 0; i < keys.length; i++) stmt(keys[(r - 1 + i) % keys.length], r);
  return out.join('\n') + '\n';
}

async function duckConnect(threads) {
  const { DuckDBInstance } = require('@duckdb/node-api');
  const opts = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };
  if (threads) opts.threads = String(threads);
  return (await DuckDBInstance.create(':memory:', opts)).connect();
}
const sqlStr = (s) => `'${String(s).replace(/'/g, "''")}'`;

// DuckDB (threads = 1) loads SRC into an in-memory table, then writes it with
// COPY ... (FORMAT parquet, COMPRESSION snappy|zstd): one warm-up and RUNS
// timed runs per codec, alternating, `sync` before each.
async function duckdbCopy(src, work, runs, outFile) {
  const { execFileSync } = await import('node:child_process');
  const conn = await duckConnect(1);
  let t0 = performance.now();
  await conn.run(`CREATE TABLE li AS SELECT * FROM read_parquet(${sqlStr(src)})`);
  const loadMs = performance.now() - t0;
  const version = (await conn.runAndReadAll('SELECT version()')).getRows()[0][0];
  const res = { version, load_ms: loadMs, codecs: {} };
  const copy = async (codec) => {
    const file = path.join(work, `duck_${codec}.parquet`);
    const sql = `COPY li TO ${sqlStr(file)} (FORMAT parquet, COMPRESSION ${codec})`;
    execFileSync('sync');
    t0 = performance.now();
    await conn.run(sql);
    const ms = performance.now() - t0;
    res.codecs[codec] ??= { sql, file, times: [] };
    return ms;
  };
  for (const c of DUCK_CODECS) await copy(c);
  for (let r = 1; r <= runs; r++) {
    for (let i = 0; i < DUCK_CODECS.length; i++) {
      const c = DUCK_CODECS[(r - 1 + i) % DUCK_CODECS.length];
      res.codecs[c].times.push(await copy(c));
    }
  }
  for (const c of DUCK_CODECS) res.codecs[c].median_ms = median(res.codecs[c].times);
  fs.writeFileSync(outFile, JSON.stringify(res, null, 1));
}

// DuckDB reads every Parquet file of the run: the checksums, size and layout
// (row groups, per-column compressed bytes, encodings, codecs, created_by).
async function copyCheck(work, outFile) {
  const conn = await duckConnect(0);
  const files = [...Object.values(COPY_VARIANTS).filter((v) => v.codec).map((v) => v.file),
    ...DUCK_CODECS.map((c) => `duck_${c}.parquet`)];
  const res = {};
  for (const f of files) {
    const file = path.join(work, f);
    if (!fs.existsSync(file)) continue;
    const q = sqlStr(file);
    const r = { size: fs.statSync(file).size };
    try {
      r.checksums = (await conn.runAndReadAll(checksumSql('duckdb', `read_parquet(${q})`))).getRowsJson()[0].map(String);
      r.types = (await conn.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${q}))`))
        .getRowsJson().map(([n, t]) => `${n} ${t}`);
      r.file_meta = (await conn.runAndReadAll(`SELECT created_by, num_rows, num_row_groups, format_version FROM parquet_file_metadata(${q})`))
        .getRowObjectsJson()[0];
      const meta = (await conn.runAndReadAll(`SELECT * FROM parquet_metadata(${q})`)).getRowObjectsJson();
      const cols = {};
      const rgs = {};
      for (const m of meta) {
        const c = (cols[m.path_in_schema] ??= { compressed: 0, uncompressed: 0, encodings: new Set(), codecs: new Set(),
          bloom: 0, stats: 0 });
        c.compressed += Number(m.total_compressed_size);
        c.uncompressed += Number(m.total_uncompressed_size);
        for (const e of String(m.encodings).split(',')) c.encodings.add(e.trim());
        c.codecs.add(m.compression);
        if (m.bloom_filter_offset != null && m.bloom_filter_offset !== '') c.bloom++;
        if (m.stats_min_value != null || m.stats_min != null) c.stats++;
        const g = (rgs[m.row_group_id] ??= { rows: Number(m.row_group_num_rows), compressed: 0, uncompressed: 0 });
        g.compressed += Number(m.total_compressed_size);
        g.uncompressed += Number(m.total_uncompressed_size);
      }
      for (const c of Object.values(cols)) {
        c.encodings = [...c.encodings].sort().join(',');
        c.codecs = [...c.codecs].join(',');
      }
      r.columns = cols;
      const g = Object.values(rgs);
      r.row_groups = g.length;
      r.max_rg_rows = Math.max(...g.map((x) => x.rows));
      r.max_rg_compressed = Math.max(...g.map((x) => x.compressed));
      r.max_rg_uncompressed = Math.max(...g.map((x) => x.uncompressed));
      r.chunks_total = g.reduce((a, x) => a + x.compressed, 0);
    } catch (e) {
      r.error = String(e.message ?? e);
    }
    res[f] = r;
  }
  fs.writeFileSync(outFile, JSON.stringify(res, null, 1));
}

function table(head, rows, leftCols = [0]) {
  const w = head.map((x, i) => Math.max(x.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((x, i) => (leftCols.includes(i) ? String(x).padEnd(w[i]) : String(x).padStart(w[i]))).join('  ').trimEnd();
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

// The ratios copy.sh needs before the report (whether to profile).
function copyRatio(work) {
  const t = parseTiming(path.join(work, 'timing.log')).copy ?? {};
  const m = (k) => (t[k]?.length ? median(t[k]) : NaN);
  console.log((m('pq_snappy') / m('csv')).toFixed(3));
}

function copyReport(work) {
  const load = (f) => (fs.existsSync(path.join(work, f)) ? JSON.parse(fs.readFileSync(path.join(work, f), 'utf8')) : null);
  const info = load('info.json');
  const timing = parseTiming(path.join(work, 'timing.log')).copy ?? {};
  const tFsync = fs.existsSync(path.join(work, 'timing_fsync.log')) ? parseTiming(path.join(work, 'timing_fsync.log')).copy ?? {} : {};
  const duck = load('duck_copy.json');
  const check = load('check.json') ?? {};
  const heapSums = fs.readFileSync(path.join(work, 'checksum_heap.txt'), 'utf8').trim().split('|');
  const rss = {};
  for (const k of Object.keys(COPY_VARIANTS)) rss[k] = load(`rss_${k}.json`);
  const notes = [];
  const mibB = (b) => (b / 1048576).toFixed(1);
  const med = (xs) => (xs?.length ? median(xs) : null);
  const csvMs = med(timing.csv);
  const duckMs = (c) => duck?.codecs?.[c]?.median_ms ?? null;
  const duckSize = (c) => check[`duck_${c}.parquet`]?.size ?? null;
  const sumsOk = (f) => {
    const r = check[f];
    if (!r) return 'not read';
    if (r.error) return 'ERROR';
    const bad = CHECKSUMS.filter((_, i) => r.checksums[i] !== heapSums[i]).map((c) => c[0]);
    if (bad.length) {
      notes.push(`${f}: checksums differ from the heap table's: ${bad.join(', ')}`);
      return `DIFFERENT (${bad.length}/${CHECKSUMS.length})`;
    }
    return `identical (${r.checksums[0]} rows, ${CHECKSUMS.length - 1} sums)`;
  };
  const rows = [];
  for (const [k, v] of Object.entries(COPY_VARIANTS)) {
    const ms = med(timing[k]);
    const size = v.codec ? check[v.file]?.size : fs.existsSync(path.join(work, v.file)) ? fs.statSync(path.join(work, v.file)).size : null;
    rows.push([v.title, fmtMs(ms), fmtRatio(ms, csvMs), v.codec ? fmtRatio(ms, duckMs(v.codec)) : '',
      size == null ? 'n/a' : mibB(size), v.codec ? fmtRatio(size, duckSize(v.codec)) : '',
      rss[k] ? mib(rss[k].median_delta_kB) : 'n/a', v.codec ? sumsOk(v.file) : '']);
  }
  for (const c of DUCK_CODECS) {
    const ms = duckMs(c);
    const f = `duck_${c}.parquet`;
    rows.push([`DuckDB COPY TO parquet (${c})`, fmtMs(ms), fmtRatio(ms, csvMs), '', duckSize(c) == null ? 'n/a' : mibB(duckSize(c)), '', '', sumsOk(f)]);
  }
  if (tFsync.pq_snappy_fsync?.length) {
    const ms = med(tFsync.pq_snappy_fsync);
    rows.push(['COPY TO parquet (snappy), fsync = on', fmtMs(ms), fmtRatio(ms, csvMs), fmtRatio(ms, duckMs('snappy')), '', '', '', '']);
  }
  console.log(table(['writer', 'median ms', 'vs csv', 'vs DuckDB', 'file MiB', 'size vs DuckDB', 'peak RssAnon', 'DuckDB reads it: rows, checksums vs heap'],
    rows, [0, 7]));
  console.log();
  console.log(`Times: median of ${info.runs} runs after one warm-up; PostgreSQL: one psql session, client-side \\timing, the`);
  console.log('variants alternating; DuckDB (threads = 1): the table in memory, only COPY ... TO timed. `sync` before every run.');
  console.log('"vs csv": time / COPY TO csv time; "vs DuckDB" and "size vs DuckDB": against DuckDB with the same codec.');
  console.log('The cluster runs with fsync = off (scripts/cluster.sh): the writer\'s fsyncs before the rename are no-ops,');
  console.log('as DuckDB, which renames its temporary file without fsync; the "fsync = on" row pays for them.');

  // Targets.
  const tgt = (label, x, limit) => {
    const ok = x != null && Number.isFinite(x) && x <= limit;
    console.log(`  ${label.padEnd(44)} ${x == null || !Number.isFinite(x) ? 'n/a' : x.toFixed(2) + 'x'}  (target <= ${limit}x: ${ok ? 'MET' : 'NOT MET'})`);
  };
  console.log();
  console.log('Targets (issue 5):');
  for (const k of ['pq_snappy', 'pq_zstd']) {
    const v = COPY_VARIANTS[k];
    tgt(`time ${v.codec}: COPY TO parquet / COPY TO csv`, med(timing[k]) / csvMs, 1.5);
  }
  for (const k of ['pq_snappy', 'pq_zstd']) {
    const v = COPY_VARIANTS[k];
    tgt(`size ${v.codec}: ours / DuckDB's`, check[v.file]?.size / duckSize(v.codec), 1.1);
  }
  const allOk = ['pq_snappy', 'pq_zstd'].every((k) => sumsOk(COPY_VARIANTS[k].file).startsWith('identical'));
  console.log(`  ${'DuckDB reads our files: rows and checksums'.padEnd(44)} ${allOk ? 'identical to the heap table\'s' : 'NOT identical'}`);
  if (!allOk) process.exitCode = 1;

  // Memory.
  console.log();
  console.log('Peak backend memory during COPY (RssAnon peak minus RssAnon just before; sampled every 10 ms; a new');
  console.log("connection per run, after LOAD 'parquet_fdw' and a 1000-row COPY of the same kind as warm-up):");
  for (const [k, v] of Object.entries(COPY_VARIANTS)) {
    if (!rss[k]) continue;
    console.log(`  ${v.title.padEnd(26)} ${mib(rss[k].median_delta_kB).padStart(10)} (median; runs: ${rss[k].runs.map((x) => mib(x.delta_kB)).join(', ')}; ` +
      `RssAnon before: ${mib(rss[k].runs[0].before_kB)}; ${median(rss[k].runs.map((x) => x.ms))} ms)`);
  }
  for (const k of ['pq_snappy', 'pq_zstd']) {
    const r = check[COPY_VARIANTS[k].file];
    if (r?.row_groups) {
      console.log(`  largest row group of our ${COPY_VARIANTS[k].codec} file: ${r.max_rg_rows} rows, ${mibB(r.max_rg_uncompressed)} MiB uncompressed, ` +
        `${mibB(r.max_rg_compressed)} MiB compressed (${r.row_groups} row groups)`);
    }
  }

  // Layout: per column, ours vs DuckDB's.
  for (const c of DUCK_CODECS) {
    const ours = check[`pg_${c}.parquet`];
    const theirs = check[`duck_${c}.parquet`];
    if (!ours?.columns || !theirs?.columns) continue;
    console.log();
    console.log(`Column chunks, ${c} (compressed bytes summed over row groups; encodings as DuckDB's parquet_metadata lists them):`);
    const lr = [];
    for (const col of Object.keys(ours.columns)) {
      const o = ours.columns[col];
      const t = theirs.columns[col];
      lr.push([col, mibB(o.compressed), t ? mibB(t.compressed) : 'n/a', t ? fmtRatio(o.compressed, t.compressed) : '',
        mibB(o.uncompressed), t ? mibB(t.uncompressed) : 'n/a', o.encodings, t ? t.encodings : '']);
    }
    const other = (r) => r.size - r.chunks_total;
    lr.push(['(footer, page index, bloom filters)', mibB(other(ours)), mibB(other(theirs)), fmtRatio(other(ours), other(theirs)), '', '', '', '']);
    lr.push(['total file', mibB(ours.size), mibB(theirs.size), fmtRatio(ours.size, theirs.size), '', '', '', '']);
    console.log(table(['column', 'ours MiB', 'DuckDB MiB', 'ratio', 'ours uncompr.', 'DuckDB uncompr.', 'ours encodings', 'DuckDB encodings'],
      lr, [0, 6, 7]));
    console.log(`  created_by: ours "${ours.file_meta?.created_by}", DuckDB "${theirs.file_meta?.created_by}"; ` +
      `row groups ${ours.row_groups} vs ${theirs.row_groups}`);
  }

  // Checksums.
  console.log();
  console.log('Checksums (heap table in PostgreSQL; the Parquet files read by DuckDB):');
  const files = Object.keys(check);
  const cr = CHECKSUMS.map((c, i) => [c[0], heapSums[i], ...files.map((f) => {
    const v = check[f].checksums?.[i];
    return v === heapSums[i] ? '=' : v ?? 'n/a';
  })]);
  console.log(table(['checksum', 'heap', ...files], cr, [0]));
  console.log('  ("=": equal to the heap\'s value)');

  console.log();
  console.log('Per-run times (ms):');
  for (const [k, v] of Object.entries(COPY_VARIANTS)) console.log(`  ${v.title.padEnd(36)} ${(timing[k] ?? []).map((x) => x.toFixed(0)).join(' ')}`);
  if (tFsync.pq_snappy_fsync) console.log(`  ${'COPY TO parquet (snappy), fsync = on'.padEnd(36)} ${tFsync.pq_snappy_fsync.map((x) => x.toFixed(0)).join(' ')}`);
  for (const c of DUCK_CODECS) console.log(`  ${`DuckDB COPY TO parquet (${c})`.padEnd(36)} ${(duck?.codecs?.[c]?.times ?? []).map((x) => x.toFixed(0)).join(' ')}`);
  if (duck) console.log(`  (DuckDB ${duck.version}; loading the table into memory: ${duck.load_ms.toFixed(0)} ms, not timed above)`);
  for (const [f, r] of Object.entries(check)) if (r.error) notes.push(`DuckDB could not read ${f}: ${r.error}`);
  if (notes.length) {
    console.log();
    console.log('Notes:');
    for (const n of notes) console.log('  - ' + n);
  }
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
  case 'copy-psql-script': {
    const [work, runs, table, ...keys] = args;
    if (!table) die('usage: copy-psql-script WORKDIR RUNS TABLE [VARIANT...]');
    const ks = keys.length ? keys : Object.keys(COPY_VARIANTS);
    for (const k of ks) if (!COPY_VARIANTS[k]) die(`unknown COPY variant ${k}`);
    process.stdout.write(copyPsqlScript(path.resolve(work), Number(runs), table, ks));
    break;
  }
  case 'copy-sql': {
    const [key, table, file] = args;
    if (!file || !COPY_VARIANTS[key]) die('usage: copy-sql VARIANT TABLE FILE');
    console.log(COPY_VARIANTS[key].sql(table, path.resolve(file)));
    break;
  }
  case 'checksum-sql': {
    const [dialect, from] = args;
    if (!from || !['pg', 'duckdb'].includes(dialect)) die('usage: checksum-sql pg|duckdb FROM');
    console.log(checksumSql(dialect, from));
    break;
  }
  case 'peak-rss-copy': {
    const [label, runs, key, table, work] = args;
    if (!work || !COPY_VARIANTS[key]) die('usage: peak-rss-copy LABEL RUNS VARIANT TABLE WORKDIR');
    const v = COPY_VARIANTS[key];
    const w = path.resolve(work);
    const warm = v.sql(`(SELECT * FROM ${table} LIMIT 1000)`, path.join(w, 'warm_' + v.file));
    await peakRss(label, Number(runs), v.sql(table, path.join(w, 'mem_' + v.file)),
      { pre: ["LOAD 'parquet_fdw'", warm], explain: false });
    break;
  }
  case 'duckdb-copy': {
    const [src, work, runs, out] = args;
    if (!out) die('usage: duckdb-copy SRC.parquet WORKDIR RUNS OUT.json');
    await duckdbCopy(path.resolve(src), path.resolve(work), Number(runs), out);
    break;
  }
  case 'copy-check': {
    const [work, out] = args;
    if (!out) die('usage: copy-check WORKDIR OUT.json');
    await copyCheck(path.resolve(work), out);
    break;
  }
  case 'copy-ratio':
    if (!args[0]) die('usage: copy-ratio WORKDIR');
    copyRatio(args[0]);
    break;
  case 'copy-report':
    if (!args[0]) die('usage: copy-report WORKDIR');
    copyReport(args[0]);
    break;
  case 'memory-report':
    if (!args[0]) die('usage: memory-report WORKDIR [MAX_RATIO]');
    memoryReport(args[0], Number(args[1] ?? 1.5));
    break;
  case 'report':
    if (!args[0]) die('usage: report WORKDIR');
    report(args[0]);
    break;
  default:
    die('usage: bench.mjs psql-script|duckdb|peak-rss|query|rowgroup-size|memory-report|report|' +
      'copy-psql-script|copy-sql|checksum-sql|peak-rss-copy|duckdb-copy|copy-check|copy-ratio|copy-report ...');
}
