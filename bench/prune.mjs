#!/usr/bin/env node
// Helpers for bench/prune.sh (the pruning benchmark; the queries live here, once):
//
//   node bench/prune.mjs verify-file FILE ROWS RG_ROWS PAGE_BYTES OUT.json
//        check the file written by bench/gen_sorted.mjs with DuckDB
//        (parquet_schema, parquet_metadata: rows, row groups, id sorted across
//        row groups, a bloom filter on every uuid_s chunk) and with hyparquet
//        (every chunk has a ColumnIndex and an OffsetIndex; pages per chunk and
//        their sizes; id's boundary_order). Prints a summary, writes the
//        figures to OUT.json; exit status 1 when a property is missing.
//   node bench/prune.mjs heap-sql ROWS
//        the SQL that creates heap1000 (1000 ids spread over 0..ROWS-1).
//   node bench/prune.mjs timing-script WORKDIR ROWS RUNS
//        a psql script: per case one warm-up of each variant (pruned, full
//        scan; result rows to WORKDIR/result_<case>_<variant>.txt), then RUNS
//        timed runs alternating between the variants; "@@ case variant run"
//        markers precede each statement so `report` can attribute \timing lines.
//   node bench/prune.mjs explain-script WORKDIR ROWS
//        a psql script writing EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) of every
//        case and variant to WORKDIR/explain_<case>_<variant>.json, and for
//        (a) one column at a time (explain_acol_<column>.json).
//   node bench/prune.mjs show-plans-script ROWS
//        a psql script printing EXPLAIN (VERBOSE) of (a), (b), (c), (d) with pruning on.
//   node bench/prune.mjs plan-script WORKDIR ROWS [SUFFIX]
//        a psql script writing EXPLAIN (FORMAT JSON) of the join (c) as the
//        planner picks it and with each join method forced to
//        WORKDIR/plan_c_{default,nl,hash}SUFFIX.json.
//   node bench/prune.mjs report WORKDIR
//        the results: tables of times, ratios and counters, the targets.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));

export const COLUMNS = ['id', 'uuid_s', 'payload', 'amount', 'tag'];
const PRUNING_GUCS = ['enable_statistics_pruning', 'enable_bloom_pruning',
  'enable_dictionary_pruning', 'enable_page_index_pruning'].map((g) => `parquet_fdw.${g}`);
const OFF = PRUNING_GUCS.map((g) => `SET ${g} = off`);
const OFF_RESET = PRUNING_GUCS.map((g) => `RESET ${g}`);

// The same formula as bench/gen_sorted.mjs: md5 of the decimal text, as a UUID.
export function uuidOf(s) {
  const h = crypto.createHash('md5').update(String(s)).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// Ids and values of the cases, as functions of the row count.
export function params(rows) {
  const clamp = (x) => Math.min(Math.max(x, 0), rows - 1);
  const xs = [...new Set([clamp(Math.floor(rows * 0.37) + 123), clamp(Math.floor(rows * 0.81) + 4567), rows - 1])];
  const hitId = clamp(Math.floor(rows * 0.63) + 89);
  const lo = clamp(Math.floor(rows * 0.42) + 17);
  const span = Math.max(1, Math.floor(rows / 100));
  const hi = Math.min(lo + span - 1, rows - 1);
  return { xs, hitId, hit: uuidOf(hitId), miss: uuidOf('absent: not the md5 of an id'), lo, hi, step: Math.max(1, Math.floor(rows / 1000)) };
}

export function heapSql(rows) {
  const { step } = params(rows);
  // 1000 ids, one in each 1/1000 of the id range, at a pseudo-random offset in it.
  return `CREATE TABLE heap1000 AS SELECT (g * ${step} + (g * 7919) % ${step})::bigint AS id FROM generate_series(0, 999) g`;
}

// Every case has a pruned variant ("on") and a full-scan variant ("off").
export function cases(rows) {
  const p = params(rows);
  const out = [];
  p.xs.forEach((x, k) => out.push({
    key: `a${k + 1}`, group: 'a', title: `(a) SELECT * WHERE id = ${x}`,
    sql: `SELECT * FROM t WHERE id = ${x}`,
    on: { pre: [], post: [] }, off: { pre: OFF, post: OFF_RESET }, x,
  }));
  out.push({
    key: 'b_hit', group: 'b', title: '(b) SELECT * WHERE uuid_s = <present>',
    sql: `SELECT * FROM t WHERE uuid_s = '${p.hit}'`, on: { pre: [], post: [] }, off: { pre: OFF, post: OFF_RESET },
  });
  out.push({
    key: 'b_miss', group: 'b', title: '(b) SELECT * WHERE uuid_s = <absent>',
    sql: `SELECT * FROM t WHERE uuid_s = '${p.miss}'`, on: { pre: [], post: [] }, off: { pre: OFF, post: OFF_RESET },
  });
  const nl = ['SET enable_hashjoin = off', 'SET enable_mergejoin = off'];
  const hash = ['SET enable_nestloop = off'];
  out.push({
    key: 'c', group: 'c', title: '(c) heap1000 JOIN t ON id: nested loop vs hash join',
    sql: 'SELECT count(*), sum(t.payload) FROM heap1000 h JOIN t ON t.id = h.id',
    on: { pre: nl, post: ['RESET enable_hashjoin', 'RESET enable_mergejoin'] },
    off: { pre: [...hash, ...OFF], post: ['RESET enable_nestloop', ...OFF_RESET] },
  });
  out.push({
    key: 'd', group: 'd', title: `(d) all columns WHERE id BETWEEN (1% of ids)`,
    sql: `SELECT count(*), sum(id), sum(payload), sum(amount), min(uuid_s), max(uuid_s), min(tag), max(tag) FROM t WHERE id BETWEEN ${p.lo} AND ${p.hi}`,
    on: { pre: [], post: [] }, off: { pre: OFF, post: OFF_RESET },
  });
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const n = s.length;
  return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : null;
};

function die(msg) {
  console.error(`prune.mjs: ${msg}`);
  process.exit(2);
}

// ---------------------------------------------------------------- verify-file
async function verifyFile(file, rows, rgRows, pageBytes, outFile) {
  const problems = [];
  const { DuckDBInstance } = require('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await inst.connect();
  const q = async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
  const f = file.replace(/'/g, "''");
  const schema = await q(`SELECT name, type, repetition_type, converted_type, logical_type, duckdb_type
                            FROM parquet_schema('${f}') WHERE type IS NOT NULL ORDER BY column_id`);
  const meta = await q(`SELECT row_group_id, row_group_num_rows, column_id, path_in_schema, encodings, compression,
                               stats_min_value, stats_max_value, bloom_filter_offset, bloom_filter_length,
                               total_compressed_size, total_uncompressed_size
                          FROM parquet_metadata('${f}') ORDER BY row_group_id, column_id`);
  const rgs = [...new Set(meta.map((m) => m.row_group_id))];
  const total = rgs.reduce((s, g) => s + Number(meta.find((m) => m.row_group_id === g).row_group_num_rows), 0);
  const names = schema.map((s) => s.name);
  if (names.join(',') !== COLUMNS.join(',')) problems.push(`columns are ${names.join(',')}, expected ${COLUMNS.join(',')}`);
  if (total !== rows) problems.push(`${total} rows, expected ${rows}`);
  if (rgs.length !== Math.ceil(rows / rgRows)) problems.push(`${rgs.length} row groups, expected ${Math.ceil(rows / rgRows)}`);
  let prevMax = -1;
  for (const m of meta.filter((m) => m.path_in_schema === 'id')) {
    const lo = Number(m.stats_min_value);
    const hi = Number(m.stats_max_value);
    if (lo !== prevMax + 1) problems.push(`row group ${m.row_group_id}: id min ${lo} does not follow the previous max ${prevMax}`);
    prevMax = hi;
  }
  const noBloom = meta.filter((m) => m.path_in_schema === 'uuid_s' && m.bloom_filter_offset == null);
  if (noBloom.length) problems.push(`${noBloom.length} uuid_s chunks without a bloom filter (DuckDB)`);

  // The page index, with hyparquet (an independent reader).
  const { parquetMetadata, readColumnIndex, readOffsetIndex } = await import(
    new URL('../test/js/node_modules/hyparquet/src/index.js', import.meta.url));
  const fd = fs.openSync(file, 'r');
  const size = fs.fstatSync(fd).size;
  const readAt = (off, len) => {
    const b = Buffer.alloc(len);
    fs.readSync(fd, b, 0, len, off);
    return b;
  };
  const tail = readAt(size - 8, 8);
  const footLen = tail.readUInt32LE(0);
  const foot = readAt(size - 8 - footLen, footLen + 8);
  const md = parquetMetadata(foot.buffer.slice(foot.byteOffset, foot.byteOffset + foot.length));
  const perCol = {};
  for (const c of COLUMNS) perCol[c] = { pages: 0, compressed: 0, uncompressed: 0, chunks: 0, ci: 0, oi: 0, bloom: 0, bloom_bytes: 0, orders: new Set(), ci_bytes: 0, oi_bytes: 0 };
  md.row_groups.forEach((rg, g) => {
    rg.columns.forEach((cc, k) => {
      const name = cc.meta_data.path_in_schema.join('.');
      const s = perCol[name];
      s.chunks++;
      s.compressed += Number(cc.meta_data.total_compressed_size);
      s.uncompressed += Number(cc.meta_data.total_uncompressed_size);
      if (cc.meta_data.bloom_filter_offset != null) {
        s.bloom++;
        s.bloom_bytes += Number(cc.meta_data.bloom_filter_length ?? 0);
      }
      if (cc.offset_index_offset != null) {
        s.oi++;
        s.oi_bytes += Number(cc.offset_index_length);
        const oi = readOffsetIndex({ view: new DataView(readAt(Number(cc.offset_index_offset), cc.offset_index_length).buffer), offset: 0 });
        s.pages += oi.page_locations.length;
      } else problems.push(`row group ${g} column ${name}: no OffsetIndex`);
      if (cc.column_index_offset != null) {
        s.ci++;
        s.ci_bytes += Number(cc.column_index_length);
        const buf = readAt(Number(cc.column_index_offset), cc.column_index_length);
        const ci = readColumnIndex({ view: new DataView(buf.buffer, buf.byteOffset, buf.length), offset: 0 }, md.schema[k + 1]);
        s.orders.add(ci.boundary_order);
      } else problems.push(`row group ${g} column ${name}: no ColumnIndex`);
    });
  });
  fs.closeSync(fd);
  if (!perCol.id.orders.has('ASCENDING') || perCol.id.orders.size !== 1) problems.push(`id ColumnIndex boundary_order ${[...perCol.id.orders]}, expected ASCENDING`);
  if (perCol.uuid_s.bloom !== rgs.length) problems.push('not every uuid_s chunk has a bloom filter (hyparquet)');

  console.log(`file: ${file}`);
  console.log(`  ${(size / 1048576).toFixed(1)} MiB, ${total} rows, ${rgs.length} row groups of ${[...new Set(meta.filter((m) => m.column_id === '0' || m.column_id === 0).map((m) => m.row_group_num_rows))].join('/')} rows, created by ${md.created_by}`);
  console.log('  column   type (DuckDB parquet_schema)         encodings             pages  rows/page  bytes/page (uncompr.)  ColumnIndex  OffsetIndex  boundary_order  CI+OI KiB/RG  bloom filters         MiB (compr.)');
  for (const c of COLUMNS) {
    const s = perCol[c];
    const sch = schema.find((x) => x.name === c) ?? {};
    const typ = `${sch.type}${sch.converted_type ? ' ' + sch.converted_type : ''} ${sch.repetition_type} -> ${sch.duckdb_type}`;
    const enc = meta.find((m) => m.path_in_schema === c)?.encodings ?? '';
    console.log(`  ${c.padEnd(8)} ${typ.padEnd(36)} ${enc.padEnd(20)} ${String(s.pages).padStart(6)}  ${(total / s.pages).toFixed(0).padStart(9)}  ${(s.uncompressed / s.pages).toFixed(0).padStart(21)}  ${`${s.ci}/${s.chunks}`.padStart(11)}  ${`${s.oi}/${s.chunks}`.padStart(11)}  ${[...s.orders].join(',').padEnd(14)}  ${`${(s.ci_bytes / s.chunks / 1024).toFixed(1)}+${(s.oi_bytes / s.chunks / 1024).toFixed(1)}`.padStart(12)}  ${s.bloom ? `${s.bloom} (${(s.bloom_bytes / s.bloom / 1048576).toFixed(1)} MiB each)` : '-'.padEnd(15)}  ${(s.compressed / 1048576).toFixed(1).padStart(12)}`);
  }
  console.log(`  (bytes/page: the chunks' total_uncompressed_size, dictionary pages and page headers included, over the data pages; target page size ${pageBytes} bytes;`);
  console.log('   CI+OI KiB/RG: ColumnIndex and OffsetIndex bytes per column chunk)');
  const res = {
    file, size, rows: total, row_groups: rgs.length,
    columns: Object.fromEntries(COLUMNS.map((c) => [c, { ...perCol[c], orders: [...perCol[c].orders] }])),
    problems,
  };
  fs.writeFileSync(outFile, JSON.stringify(res, null, 1));
  if (problems.length) {
    console.log('FILE PROBLEMS:');
    for (const p of problems) console.log('  - ' + p);
    process.exitCode = 1;
  }
}

// ---------------------------------------------------------------- scripts
const stmts = (xs) => xs.map((s) => s + ';');

function timingScript(work, rows, runs) {
  const out = ['\\set ON_ERROR_STOP 1', '\\pset footer off', '\\timing on', '\\o /dev/null'];
  const stmt = (c, v, run) => {
    out.push(...stmts(c[v].pre));
    out.push(`\\echo @@ ${c.key} ${v} ${run}`);
    if (run === 'warmup') out.push(`\\o ${path.join(work, `result_${c.key}_${v}.txt`)}`);
    out.push(c.sql + ';');
    if (run === 'warmup') out.push('\\o /dev/null');
    out.push(...stmts(c[v].post));
  };
  for (const c of cases(rows)) {
    stmt(c, 'on', 'warmup');
    stmt(c, 'off', 'warmup');
    for (let r = 1; r <= runs; r++) {
      const order = r % 2 ? ['on', 'off'] : ['off', 'on'];
      for (const v of order) stmt(c, v, r);
    }
  }
  return out.join('\n') + '\n';
}

function explainScript(work, rows) {
  const out = ['\\set ON_ERROR_STOP 1', '\\pset footer off', '\\pset tuples_only on', '\\pset format unaligned'];
  const ex = (file, pre, sql, post, analyze = true) => {
    out.push(...stmts(pre));
    out.push(`\\o ${path.join(work, file)}`);
    out.push(`EXPLAIN (${analyze ? 'ANALYZE, ' : ''}VERBOSE, FORMAT JSON) ${sql};`);
    out.push('\\o');
    out.push(...stmts(post));
  };
  const all = cases(rows);
  for (const c of all) {
    for (const v of ['on', 'off']) ex(`explain_${c.key}_${v}.json`, c[v].pre, c.sql, c[v].post);
  }
  const a1 = all.find((c) => c.key === 'a1');
  for (const col of COLUMNS) ex(`explain_acol_${col}.json`, [], `SELECT ${col} FROM t WHERE id = ${a1.x}`, []);
  return out.join('\n') + '\n';
}

function showPlansScript(rows) {
  const out = ['\\set ON_ERROR_STOP 1'];
  for (const c of cases(rows).filter((x) => ['a1', 'b_hit', 'c', 'd'].includes(x.key))) {
    out.push(`\\echo '-- ${c.key}: ${c.sql.replace(/'/g, '"')}'`, ...stmts(c.on.pre), `EXPLAIN (VERBOSE) ${c.sql};`, ...stmts(c.on.post));
  }
  return out.join('\n') + '\n';
}

function planScript(work, rows, sfx) {
  const out = ['\\set ON_ERROR_STOP 1', '\\pset tuples_only on', '\\pset format unaligned'];
  const c = cases(rows).find((x) => x.key === 'c');
  const ex = (file, pre, post) => {
    out.push(...stmts(pre), `\\o ${path.join(work, file)}`, `EXPLAIN (FORMAT JSON) ${c.sql};`, '\\o', ...stmts(post));
  };
  ex(`plan_c_default${sfx}.json`, [], []);
  ex(`plan_c_nl${sfx}.json`, c.on.pre, c.on.post);
  ex(`plan_c_hash${sfx}.json`, ['SET enable_nestloop = off'], ['RESET enable_nestloop']);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------- report
function parseTiming(file) {
  const times = {};
  let cur = null;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    let m;
    if ((m = /^@@ (\S+) (\S+) (\S+)$/.exec(line))) cur = m.slice(1);
    else if ((m = /^Time: ([\d.]+) ms/.exec(line)) && cur) {
      const [c, v, run] = cur;
      if (run !== 'warmup') ((times[c] ??= {})[v] ??= []).push(Number(m[1]));
      cur = null;
    }
  }
  return times;
}

function walk(node, fn, parent = null) {
  fn(node, parent);
  for (const ch of node.Plans ?? []) walk(ch, fn, node);
}

const COUNTERS = ['Row Groups', 'Row Groups Read', 'Row Groups Pruned by Statistics', 'Row Groups Pruned by Bloom Filter',
  'Row Groups Pruned by Dictionary', 'Row Groups Pruned by Page Index', 'Pages Total', 'Pages Pruned by Page Index',
  'Data Pages Read', 'Bytes Read'];

function loadExplain(work, file) {
  const p = path.join(work, file);
  if (!fs.existsSync(p)) return null;
  const j = JSON.parse(fs.readFileSync(p, 'utf8'))[0];
  const scans = [];
  walk(j.Plan, (n, parent) => {
    if (n['Node Type'] === 'Foreign Scan') scans.push({ n, parent });
  });
  if (scans.length !== 1) return { json: j, error: `${scans.length} foreign scans` };
  const { n, parent } = scans[0];
  const c = {};
  for (const k of COUNTERS) c[k] = n[k] ?? null;
  return {
    json: j, scan: n, parent, counters: c,
    columns: n['Parquet Columns'] === '(none)' ? [] : (n['Parquet Columns'] ?? '').split(', ').filter(Boolean),
    loops: n['Actual Loops'] ?? 1,
    top: j.Plan,
  };
}

function readRows(work, key, v) {
  const p = path.join(work, `result_${key}_${v}.txt`);
  return fs.existsSync(p) ? fs.readFileSync(p, 'utf8').split('\n').filter((l) => l !== '') : null;
}

const fmtMs = (x) => (x == null ? 'n/a' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const fmtX = (x) => (x == null || !Number.isFinite(x) ? 'n/a' : x >= 100 ? x.toFixed(0) + 'x' : x.toFixed(1) + 'x');
const fmtN = (x) => (x == null ? '-' : String(x));
const fmtB = (b) => (b == null ? '-' : b >= 1048576 ? (b / 1048576).toFixed(1) + ' MiB' : (b / 1024).toFixed(1) + ' KiB');
const pct = (x, y) => (x == null || !y ? 'n/a' : (100 * x / y).toFixed(x / y < 0.01 ? 3 : 1) + '%');

function table(head, rows, leftCols = [0]) {
  const w = head.map((x, i) => Math.max(x.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((x, i) => (leftCols.includes(i) ? String(x).padEnd(w[i]) : String(x).padStart(w[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(w.map((n) => '-'.repeat(n)).join('  '));
  for (const r of rows) console.log(line(r));
}

function planSummary(work, sfx) {
  const load = (k) => {
    const p = path.join(work, `plan_c_${k}${sfx}.json`);
    return fs.existsSync(p) ? JSON.parse(fs.readFileSync(p, 'utf8'))[0].Plan : null;
  };
  const joinOf = (plan) => {
    let j = null;
    if (plan) walk(plan, (n) => { if (!j && /Join|Nested Loop/.test(n['Node Type'])) j = n; });
    return j;
  };
  const fsOf = (plan) => {
    let f = null;
    if (plan) walk(plan, (n) => { if (n['Node Type'] === 'Foreign Scan') f = n; });
    return f;
  };
  const res = {};
  for (const k of ['default', 'nl', 'hash']) {
    const p = load(k);
    if (!p) continue;
    const j = joinOf(p);
    const f = fsOf(p);
    res[k] = {
      total: p['Total Cost'], join: j?.['Node Type'], join_cost: j?.['Total Cost'], join_rows: j?.['Plan Rows'],
      fs_startup: f?.['Startup Cost'], fs_total: f?.['Total Cost'], fs_rows: f?.['Plan Rows'],
    };
  }
  return res;
}

function report(work) {
  const info = JSON.parse(fs.readFileSync(path.join(work, 'info.json'), 'utf8'));
  const file = JSON.parse(fs.readFileSync(path.join(work, 'file.json'), 'utf8'));
  const timing = parseTiming(path.join(work, 'timing.log'));
  const all = cases(info.rows);
  const p = params(info.rows);
  const notes = [];
  const ex = {};
  for (const c of all) {
    for (const v of ['on', 'off']) {
      const e = loadExplain(work, `explain_${c.key}_${v}.json`);
      if (e?.error) notes.push(`${c.title} (${v}): EXPLAIN shows ${e.error}`);
      (ex[c.key] ??= {})[v] = e;
    }
  }

  // Results: pruned vs full scan.
  const same = {};
  for (const c of all) {
    const a = readRows(work, c.key, 'on');
    const b = readRows(work, c.key, 'off');
    if (a == null || b == null) same[c.key] = 'MISSING';
    else if (a.join('\n') === b.join('\n')) same[c.key] = `identical (${a.length} row${a.length === 1 ? '' : 's'})`;
    else {
      same[c.key] = 'DIFFERENT';
      notes.push(`${c.title}: results DIFFER with pruning on and off:\n      on:  ${a.slice(0, 5).join('\n           ')}\n      off: ${b.slice(0, 5).join('\n           ')}`);
    }
  }

  // Times.
  const med = {};
  for (const c of all) {
    med[c.key] = { on: median(timing[c.key]?.on ?? []), off: median(timing[c.key]?.off ?? []) };
    for (const v of ['on', 'off']) {
      const n = (timing[c.key]?.[v] ?? []).length;
      if (n !== info.runs) notes.push(`${c.title} (${v}): expected ${info.runs} timed runs, found ${n}`);
    }
  }
  console.log('Latency (client-side \\timing, median of the timed runs; "full scan" = all four pruning GUCs off;');
  console.log('for (c) "pruned" = parameterized nested loop (enable_hashjoin/mergejoin off),');
  console.log('"full scan" = hash join over a full scan (enable_nestloop off, pruning GUCs off)):');
  console.log();
  table(['query', 'pruned ms', 'full scan ms', 'speedup', 'result rows: pruned vs full scan'],
    all.map((c) => [c.title, fmtMs(med[c.key].on), fmtMs(med[c.key].off), fmtX(med[c.key].off / med[c.key].on), same[c.key]]),
    [0, 4]);

  // Counters.
  console.log();
  console.log(`Counters from EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) (file: ${fmtB(file.size)}, ${file.row_groups} row groups; for (c) summed over the`);
  console.log('inner scan\'s loops; cols = columns the scan reads; pages/col = Data Pages Read / cols, per loop for (c)):');
  console.log();
  const crow = (c, v) => {
    const e = ex[c.key][v];
    if (!e?.counters) return [c.key + (v === 'off' ? ' full' : ''), ...Array(12).fill('n/a')];
    const k = e.counters;
    const ncol = e.columns.length;
    return [
      c.key + (v === 'off' ? ' full' : ''), ncol, e.loops,
      fmtN(k['Row Groups Read']), fmtN(k['Row Groups Pruned by Statistics']), fmtN(k['Row Groups Pruned by Bloom Filter']),
      fmtN(k['Row Groups Pruned by Dictionary']), fmtN(k['Pages Total']), fmtN(k['Pages Pruned by Page Index']),
      fmtN(k['Data Pages Read']), ncol ? (k['Data Pages Read'] / ncol / e.loops).toFixed(1) : '-',
      fmtB(k['Bytes Read']), pct(k['Bytes Read'], file.size),
    ];
  };
  const rowsC = [];
  for (const c of all) rowsC.push(crow(c, 'on'));
  for (const c of all) rowsC.push(crow(c, 'off'));
  table(['case', 'cols', 'loops', 'RG read', 'RG pruned stats', 'RG pruned bloom', 'RG pruned dict', 'pages total',
    'pages pruned (page index)', 'data pages read', 'pages/col', 'bytes read', 'of file'], rowsC);
  console.log('  (pages total / pruned: pages of the columns a pruning qual uses, in the row groups that reached the page index;');
  console.log('   bytes read: data pages read plus page indexes, bloom filters and dictionaries read for pruning)');

  // (a) per column.
  const pcol = {};
  for (const col of COLUMNS) pcol[col] = loadExplain(work, `explain_acol_${col}.json`)?.counters?.['Data Pages Read'];
  const idOnly = pcol.id;
  const perCol = COLUMNS.map((col) => [col, col === 'id' ? idOnly : pcol[col] - idOnly]);
  const aKeys = all.filter((c) => c.group === 'a');

  console.log();
  console.log('Targets:');
  const aMax = Math.max(...aKeys.map((c) => med[c.key].on));
  console.log(`  (a) id = X latency: ${aKeys.map((c) => fmtMs(med[c.key].on) + ' ms').join(', ')} (X = ${p.xs.join(', ')}); ` +
    `target < 5 ms: ${aMax < 5 ? 'MET' : 'NOT MET'}; vs full scan ${aKeys.map((c) => fmtX(med[c.key].off / med[c.key].on)).join(', ')} faster`);
  const a1 = ex.a1.on;
  if (a1?.counters) {
    const ppc = a1.counters['Data Pages Read'] / a1.columns.length;
    console.log(`  (a) pages read per projected column: ${aKeys.map((c) => { const e = ex[c.key].on; return e?.counters ? `${e.counters['Data Pages Read']}/${e.columns.length} = ${(e.counters['Data Pages Read'] / e.columns.length).toFixed(1)}` : 'n/a'; }).join(', ')}; ` +
      `target 1: ${ppc <= 1 ? 'MET' : 'NOT MET'}`);
    console.log(`      per column for X = ${p.xs[0]} (SELECT <col> WHERE id = X, minus the id page for the other columns): ` +
      perCol.map(([c, n]) => `${c} ${n}`).join(', '));
    console.log('      rows per data page: ' + COLUMNS.map((c) => `${c} ${(file.rows / file.columns[c].pages).toFixed(0)}`).join(', ') +
      ': the id page that holds X covers ~' + (file.rows / file.columns.id.pages).toFixed(0) + ' rows, and every other column reads the pages overlapping those rows');
  }
  // Page index bytes per row group that a lookup on id reads: id's ColumnIndex and
  // OffsetIndex (fdw/prune/pages.c), then the OffsetIndex of every projected column
  // (fdw/scan/table_reader.c start_columns; id's a second time).
  const perRg = (c, k) => file.columns[c][k] / file.row_groups;
  const indexBytes = (cols) => perRg('id', 'ci_bytes') + perRg('id', 'oi_bytes') + cols.reduce((t, c) => t + perRg(c, 'oi_bytes'), 0);
  if (a1?.counters) {
    const ib = indexBytes(a1.columns);
    console.log(`  (a) bytes read for X = ${p.xs[0]}: ${fmtB(a1.counters['Bytes Read'])}, of which ~${fmtB(ib)} (${pct(ib, a1.counters['Bytes Read'])}) is page index ` +
      '(id\'s ColumnIndex + OffsetIndex for pruning, then the OffsetIndex of each of the 5 columns, id\'s again, for reading)');
  }
  const bh = ex.b_hit.on?.counters;
  const bm = ex.b_miss.on?.counters;
  const frac = (k) => (k ? (k['Row Groups'] - k['Row Groups Read']) / k['Row Groups'] : null);
  const bOk = frac(bh) >= 0.95 && frac(bm) >= 0.95;
  console.log(`  (b) uuid_s = present: ${bh ? `${bh['Row Groups'] - bh['Row Groups Read']}/${bh['Row Groups']} row groups pruned (${(100 * frac(bh)).toFixed(1)}%; bloom ${bh['Row Groups Pruned by Bloom Filter']}, statistics ${bh['Row Groups Pruned by Statistics']})` : 'n/a'}, ` +
    `${fmtMs(med.b_hit.on)} ms vs ${fmtMs(med.b_hit.off)} ms full scan (${fmtX(med.b_hit.off / med.b_hit.on)})`);
  console.log(`      uuid_s = absent:  ${bm ? `${bm['Row Groups'] - bm['Row Groups Read']}/${bm['Row Groups']} row groups pruned (${(100 * frac(bm)).toFixed(1)}%; bloom ${bm['Row Groups Pruned by Bloom Filter']}, statistics ${bm['Row Groups Pruned by Statistics']})` : 'n/a'}, ` +
    `${fmtMs(med.b_miss.on)} ms vs ${fmtMs(med.b_miss.off)} ms full scan (${fmtX(med.b_miss.off / med.b_miss.on)}); target >= 95%: ${bOk ? 'MET' : 'NOT MET'}`);
  const bl = file.columns.uuid_s;
  if (bm && bl.bloom) {
    console.log(`      bytes read: present ${fmtB(bh?.['Bytes Read'])}, absent ${fmtB(bm['Bytes Read'])}; the file's uuid_s bloom filters are ${bl.bloom} x ${fmtB(bl.bloom_bytes / bl.bloom)} = ${fmtB(bl.bloom_bytes)} ` +
      '(each probed filter counts whole; the present value also reads its row group: uuid_s has no usable page index, being unsorted)');
  }
  const cOn = ex.c.on;
  let isParamNl = false;
  if (cOn?.scan) {
    const pq = cOn.scan['Pruning Quals'] ?? '';
    isParamNl = cOn.parent?.['Node Type'] === 'Nested Loop' && cOn.parent.Plans?.[1] === cOn.scan && cOn.loops === 1000 && /\bh\.id\b|\$\d+/.test(pq);
    console.log(`  (c) plan check: inner Foreign Scan under ${cOn.parent?.['Node Type']}, ${cOn.loops} loops, Pruning Quals "${pq}": ` +
      `${isParamNl ? 'parameterized nested loop' : 'NOT a parameterized nested loop'}`);
    if (!isParamNl) notes.push('(c): the forced plan is not a Nested Loop over a parameterized Foreign Scan');
  }
  const cRatio = med.c.off / med.c.on;
  if (cOn?.counters) {
    const k = cOn.counters;
    const ib = indexBytes(cOn.columns);
    console.log(`  (c) per loop of the nested loop: ${(1000 * med.c.on / cOn.loops).toFixed(0)} us, ${fmtB(k['Bytes Read'] / cOn.loops)} read, ` +
      `${(k['Data Pages Read'] / cOn.loops).toFixed(1)} data pages; the page index read per loop is ~${fmtB(ib)} (${pct(ib, k['Bytes Read'] / cOn.loops)} of the bytes): ` +
      'id\'s ColumnIndex + OffsetIndex + the OffsetIndex of id and payload, read again on every rescan');
  }
  console.log(`  (c) nested loop ${fmtMs(med.c.on)} ms vs hash join over a full scan ${fmtMs(med.c.off)} ms: ${fmtX(cRatio)} faster; ` +
    `target >= 10x: ${cRatio >= 10 ? 'MET' : 'NOT MET'}`);
  for (const [sfx, label] of [['', 'foreign table not analyzed'], ['_analyzed', `after ANALYZE t (${info.analyze_ms != null ? info.analyze_ms.toFixed(0) + ' ms' : '?'})`]]) {
    const ps = planSummary(work, sfx);
    if (!ps.default) continue;
    const picks = ps.default.join === 'Nested Loop' ? 'the nested loop' : ps.default.join === 'Hash Join' ? 'the hash join' : ps.default.join;
    console.log(`  (c) default plan (${label}): the planner picks ${picks}; costs: ` +
      `nested loop total ${ps.nl?.total} (join rows ${ps.nl?.join_rows}; inner param. Foreign Scan ${ps.nl?.fs_startup}..${ps.nl?.fs_total}, rows ${ps.nl?.fs_rows} per loop), ` +
      `hash join total ${ps.hash?.total} (join rows ${ps.hash?.join_rows}; Foreign Scan ${ps.hash?.fs_startup}..${ps.hash?.fs_total}, rows ${ps.hash?.fs_rows})`);
    if (ps.default.join !== 'Nested Loop') notes.push(`(c) ${label}: the planner does not choose the nested loop by default (see the costs above)`);
  }
  const d = ex.d.on?.counters;
  const dOff = ex.d.off?.counters;
  console.log(`  (d) id BETWEEN ${p.lo} AND ${p.hi} (${p.hi - p.lo + 1} ids, ${(100 * (p.hi - p.lo + 1) / info.rows).toFixed(2)}%): ` +
    `bytes read ${fmtB(d?.['Bytes Read'])} = ${pct(d?.['Bytes Read'], file.size)} of the file (${fmtB(file.size)}; full scan ${fmtB(dOff?.['Bytes Read'])}), ` +
    `${fmtMs(med.d.on)} ms vs ${fmtMs(med.d.off)} ms full scan (${fmtX(med.d.off / med.d.on)})`);

  console.log();
  console.log('Per-run times (ms), pruned | full scan:');
  for (const c of all) {
    const r = (xs) => (xs ?? []).map((x) => fmtMs(x)).join(' ');
    console.log(`  ${c.key.padEnd(6)} ${r(timing[c.key]?.on)} | ${r(timing[c.key]?.off)}`);
  }
  console.log();
  console.log('Queries:');
  for (const c of all) console.log(`  ${c.key.padEnd(6)} ${c.sql}`);
  console.log('  heap1000: ' + heapSql(info.rows));
  if (notes.length) {
    console.log();
    console.log('Notes:');
    for (const n of notes) console.log('  - ' + n);
  }
}

// ---------------------------------------------------------------- main
const [cmd, ...args] = process.argv.slice(2);
switch (cmd) {
  case 'verify-file': {
    const [file, rows, rg, page, out] = args;
    if (!out) die('usage: verify-file FILE ROWS RG_ROWS PAGE_BYTES OUT.json');
    await verifyFile(path.resolve(file), Number(rows), Number(rg), Number(page), out);
    break;
  }
  case 'heap-sql':
    if (!args[0]) die('usage: heap-sql ROWS');
    console.log(heapSql(Number(args[0])) + ';');
    break;
  case 'timing-script': {
    const [work, rows, runs] = args;
    if (!runs) die('usage: timing-script WORKDIR ROWS RUNS');
    process.stdout.write(timingScript(path.resolve(work), Number(rows), Number(runs)));
    break;
  }
  case 'explain-script': {
    const [work, rows] = args;
    if (!rows) die('usage: explain-script WORKDIR ROWS');
    process.stdout.write(explainScript(path.resolve(work), Number(rows)));
    break;
  }
  case 'show-plans-script':
    if (!args[0]) die('usage: show-plans-script ROWS');
    process.stdout.write(showPlansScript(Number(args[0])));
    break;
  case 'plan-script': {
    const [work, rows, sfx = ''] = args;
    if (!rows) die('usage: plan-script WORKDIR ROWS [SUFFIX]');
    process.stdout.write(planScript(path.resolve(work), Number(rows), sfx));
    break;
  }
  case 'report':
    if (!args[0]) die('usage: report WORKDIR');
    report(args[0]);
    break;
  default:
    die('usage: prune.mjs verify-file|heap-sql|timing-script|explain-script|plan-script|report ...');
}
