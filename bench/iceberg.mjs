#!/usr/bin/env node
// The Iceberg half of bench/delta.sh (run by bench/iceberg.sh): the Delta
// table's data files as Apache Iceberg tables with the same rows deleted,
// timed against the same files read as a plain dataset.
//
//   node bench/iceberg.mjs write DELTA_TABLE_DIR ICEBERG_DIR ICEBERG_V3_DIR SEED
//   node bench/iceberg.mjs run ICEBERG_DIR ICEBERG_V3_DIR DATASET_DIR RUNS PLAN_RUNS [WORKERS...]
//
// PostgreSQL through the PG* environment (scripts/cluster.sh), with server
// parquet_srv, the heap table li_heap (every row, with file_no and pos),
// li_del (the deleted (file_no, pos)) and the view li_live (li_heap less
// li_del), all made by delta.sh and bench/delta_data.mjs.
//
// write: the data files are the Delta table's part-NNNNN.parquet (COPY TO
// from li_heap by file_no, ORDER BY pos), hard-linked (copied if linking
// fails) into ICEBERG_DIR/data and ICEBERG_V3_DIR/data, so the three tables
// and the dataset read the same bytes. Written with
// test/js/lib/iceberg_writer.mjs:
//   ICEBERG_DIR     format v2, the 18 columns (types from li_heap's), name
//                   mapping (COPY TO writes no field ids); s1 appends every
//                   file (one manifest; record counts, sizes, value/null
//                   counts and lower/upper bounds of every column from
//                   li_heap); s2 deletes li_del's rows: one position delete
//                   file per data file with deleted rows (file_path, pos;
//                   COPY TO from li_del; as Iceberg writes them with
//                   write.delete.granularity=file), one delete manifest
//   ICEBERG_V3_DIR  format v3, the same s1; s2 the same rows deleted by
//                   deletion vectors, one Puffin file holding one
//                   deletion-vector-v1 blob per data file
// Prints what it wrote.
//
// run: creates the foreign tables
//   li_iceberg      format 'iceberg', location ICEBERG_DIR (s2: position deletes)
//   li_ds           filename DATASET_DIR (the Delta table's directory: its
//                   *.parquet files, every row), unless it exists
//   li_iceberg_v3   the v3 table (s2: deletion vectors)            } BENCH_DIAG
//   li_iceberg_s1   ICEBERG_DIR at snapshot s1 (no deletes)        } (default on)
// and measures, as bench/delta.mjs does for the Delta table (client-side
// wall time through node-postgres, rows as text):
// 1. a filtered sum and a TPC-H Q1-like GROUP BY at each
//    max_parallel_workers_per_gather of WORKERS: one warm-up per table, then
//    RUNS runs rotating which table goes first; medians, Iceberg/dataset
//    (target <= 1.1x). Each answer must equal the heap's (li_live for the
//    tables with deletes, li_heap otherwise; text, else to 6 significant
//    digits); not timed.
// 2. planning: "Planning Time" of EXPLAIN (SUMMARY), warm (one session,
//    median of PLAN_RUNS after a warm-up) and cold (the first statement of
//    a new connection, median of PLAN_RUNS connections), on li_iceberg,
//    li_ds and li_heap.
// 3. files pruned by the manifests' statistics: a range of l_orderkey inside
//    one file, its EXPLAIN's "Files: N of M (pruned by partition: K, by
//    table statistics: S)", and its time at 0 workers as in 1.
// Exit status 1 when any answer differs from the heap's.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PLAN_TARGET, TARGET, TEXT, asText, lit, median, oneLine, rowsEqual, sig6 } from './lib.mjs';
import { prng } from '../test/js/lib/delta_dv.mjs';
import { IcebergTable, PuffinFile, dataFileRecord, fileMetrics, statsRows, statsSql, FIELD_FILE_PATH, FIELD_POS } from '../test/js/lib/iceberg_writer.mjs';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const pg = require('pg');

const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);

async function connect(options = '-c DateStyle=ISO -c jit=off') {
  const c = new pg.Client({ options });
  await c.connect();
  return c;
}
const rowsOf = async (c, sql, values) => (await c.query({ text: oneLine(sql), values, rowMode: 'array', types: TEXT })).rows.map((r) => r.map(asText));
const rawRows = async (c, sql, values) => (await c.query({ text: sql, values, rowMode: 'array', types: TEXT })).rows;
const lines = async (c, sql) => (await rowsOf(c, sql)).map((r) => r[0]);

// ------------------------------------------------------------------ write

/** Iceberg type of a PostgreSQL column type (format_type). */
function icebergType(t) {
  const m = /^numeric\((\d+),(\d+)\)$/.exec(t);
  if (m) return `decimal(${m[1]},${m[2]})`;
  const map = {
    bigint: 'long', integer: 'int', smallint: 'int', 'double precision': 'double', real: 'float', text: 'string',
    'character varying': 'string', date: 'date', boolean: 'boolean',
    'timestamp without time zone': 'timestamp', 'timestamp with time zone': 'timestamptz',
  };
  if (map[t] || /^character varying/.test(t)) return map[t] ?? 'string';
  throw new Error(`li_heap column type ${t}: no Iceberg type here`);
}

async function write(deltaDir, iceDir, v3Dir, seed) {
  const rand = prng(seed);
  const c = await connect('-c DateStyle=ISO -c extra_float_digits=1 -c max_parallel_workers_per_gather=2');
  const t0 = performance.now();
  const cols = (await rawRows(c, `SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
    WHERE attrelid = 'li_heap'::regclass AND attnum > 0 AND NOT attisdropped AND attname NOT IN ('file_no', 'pos') ORDER BY attnum`))
    .map(([name, type], j) => ({ id: j + 1, name, type: icebergType(type) }));
  const fields = cols.map((f) => ({ id: f.id, name: f.name, required: false, type: f.type }));
  const parts = fs.readdirSync(deltaDir).filter((x) => /^part-\d{5}\.parquet$/.test(x)).sort();
  if (!parts.length) throw new Error(`no part-NNNNN.parquet in ${deltaDir}`);

  // per-file statistics from the heap
  const statCols = cols.map((f) => ({ name: f.name, id: f.id, type: f.type }));
  const stats = new Map(statsRows(await rawRows(c, statsSql('li_heap', 'file_no', statCols)), statCols).map((s) => [Number(s.key), s]));
  const tStats = performance.now() - t0;

  const del = new Map();
  for (const [k, p] of await rawRows(c, 'SELECT file_no, array_agg(pos ORDER BY pos) FROM li_del GROUP BY file_no')) {
    del.set(Number(k), p.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number));
  }

  const tables = [];
  for (const [dir, formatVersion] of [[iceDir, 2], [v3Dir, 3]]) {
    fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
    fs.chmodSync(dir, 0o777);
    fs.chmodSync(path.join(dir, 'data'), 0o777); // the server writes the position delete files
    const t = new IcebergTable({
      dir, formatVersion, schema: { fields }, rand, nameMapping: true, lastUpdatedMs: Date.now() - 2000,
      properties: { 'write.format.default': 'parquet', 'write.delete.mode': 'merge-on-read', 'write.delete.granularity': 'file' },
    });
    t.writeMetadata();
    let linked = 0;
    const files = parts.map((name) => {
      const k = Number(/\d{5}/.exec(name)[0]);
      const rel = `data/${name}`;
      try {
        fs.linkSync(path.join(deltaDir, name), t.local(rel));
        linked++;
      } catch {
        fs.copyFileSync(path.join(deltaDir, name), t.local(rel));
      }
      const s = stats.get(k);
      if (!s) throw new Error(`li_heap has no file_no ${k}`);
      return { k, rel, recorded: t.path(rel), rows: s.rows, size: fs.statSync(t.local(rel)).size, metrics: fileMetrics(s.cols) };
    });
    const s1 = t.commit({
      operation: 'append', timestampMs: Date.now() - 1000,
      add: [{ content: 0, entries: files.map((f) => ({ status: 1, dataFile: dataFileRecord({ recordedPath: f.recorded, size: f.size, rows: f.rows, metrics: f.metrics }) })) }],
      summary: { 'added-data-files': files.length, 'added-records': files.reduce((a, f) => a + f.rows, 0) },
    });
    const byK = new Map(files.map((f) => [f.k, f]));
    let deletes;
    let deleteBytes = 0;
    const t1 = performance.now();
    if (formatVersion === 2) {
      deletes = [];
      for (const [k, ps] of [...del].sort((a, b) => a[0] - b[0])) {
        const f = byK.get(k);
        const rel = `data/delete-${String(k).padStart(5, '0')}.parquet`;
        await c.query(`COPY (SELECT ${lit(f.recorded)}::text AS file_path, pos::bigint AS pos FROM li_del WHERE file_no = ${k} ORDER BY pos)
          TO ${lit(t.local(rel))} WITH (FORMAT parquet)`);
        const size = fs.statSync(t.local(rel)).size;
        deleteBytes += size;
        const metrics = fileMetrics([
          { id: FIELD_FILE_PATH, type: 'string', rows: ps.length, nulls: 0, min: f.recorded, max: f.recorded },
          { id: FIELD_POS, type: 'long', rows: ps.length, nulls: 0, min: ps[0], max: ps[ps.length - 1] },
        ]);
        deletes.push({ status: 1, dataFile: { ...dataFileRecord({ recordedPath: t.path(rel), size, rows: ps.length, metrics, sortOrderId: null }), content: 1 } });
      }
    } else {
      const puffin = new PuffinFile('bench/iceberg.mjs');
      const rel = `data/deletes-${Date.now()}.puffin`;
      const blobs = [...del].sort((a, b) => a[0] - b[0]).map(([k, ps]) => ({ k, d: puffin.addDv(byK.get(k).recorded, ps) }));
      fs.writeFileSync(t.local(rel), puffin.bytes());
      deleteBytes = fs.statSync(t.local(rel)).size;
      deletes = blobs.map(({ k, d }) => ({
        status: 1, dataFile: {
          content: 1, file_path: t.path(rel), file_format: 'PUFFIN', partition: {}, record_count: BigInt(d.cardinality),
          file_size_in_bytes: BigInt(deleteBytes), referenced_data_file: byK.get(k).recorded,
          content_offset: BigInt(d.offset), content_size_in_bytes: BigInt(d.length),
        },
      }));
    }
    const s2 = t.commit({ operation: 'delete', timestampMs: Date.now(), add: [{ content: 1, entries: deletes }],
      summary: { 'added-delete-files': formatVersion === 2 ? deletes.length : 1, 'added-position-deletes': [...del.values()].reduce((a, x) => a + x.length, 0) } });
    tables.push({ dir, formatVersion, files: files.length, linked, deletes: deletes.length, deleteBytes, s1: s1.snapshotId, s2: s2.snapshotId, ms: performance.now() - t1, version: t.version });
  }
  await c.end();
  const nDel = [...del.values()].reduce((a, x) => a + x.length, 0);
  console.log(`iceberg_data: statistics of ${parts.length} files from li_heap in ${(tStats / 1000).toFixed(1)} s; ${nDel} rows deleted (li_del) in ${del.size} files`);
  for (const x of tables) {
    console.log(`iceberg_data: ${x.dir}: format v${x.formatVersion}, ${x.files} data files (${x.linked} hard links to the Delta table's), ` +
      `s1 ${x.s1} (append), s2 ${x.s2} (${x.formatVersion === 2 ? `${x.deletes} position delete files` : `${x.deletes} deletion vectors in one Puffin file`}, ` +
      `${(x.deleteBytes / 1024).toFixed(1)} KiB, ${(x.ms / 1000).toFixed(1)} s); metadata v1..v${x.version}`);
  }
}

// -------------------------------------------------------------------- run

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

const READERS = {
  iceberg: { table: 'li_iceberg', truth: 'li_live' },
  dataset: { table: 'li_ds', truth: 'li_heap' },
  iceberg_v3: { table: 'li_iceberg_v3', truth: 'li_live', diag: true },
  iceberg_s1: { table: 'li_iceberg_s1', truth: 'li_heap', diag: true },
};
const DIAG = process.env.BENCH_DIAG !== '0';

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

async function measure(c, q, workers, runs) {
  const keys = Object.keys(READERS).filter((k) => DIAG || !READERS[k].diag);
  const r = { q, workers, plan: {}, rows: {}, same: {}, ms: {}, med: {} };
  for (const k of keys) {
    const { table: t, truth } = READERS[k];
    const plan = await lines(c, `EXPLAIN (COSTS OFF) ${q.sql(t)}`);
    r.plan[k] = plan.some((l) => /Gather/.test(l)) ? 'parallel' : 'serial';
    r.rows[k] = (await timed(c, q.sql(t))).rows;
    const want = await rowsOf(c, q.sql(truth));
    r.same[k] = same(r.rows[k], want);
    r.ms[k] = [];
    if (r.same[k] === 'DIFFERENT') {
      differences++;
      console.log(`DIFFERENT: ${q.title} at ${workers} workers, ${t}: ${JSON.stringify(r.rows[k])} vs ${truth} ${JSON.stringify(want)}`);
    }
  }
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[(i + j) % keys.length];
      r.ms[k].push((await timed(c, q.sql(READERS[k].table))).ms);
    }
  }
  for (const k of keys) r.med[k] = median(r.ms[k]);
  r.ratio = r.med.iceberg / r.med.dataset;
  if (r.ratio > TARGET || process.env.BENCH_EXPLAIN === '1') {
    for (const k of ['iceberg', 'dataset']) {
      const plan = await lines(c, `EXPLAIN (ANALYZE, VERBOSE) ${q.sql(READERS[k].table)}`);
      explains.push({ title: `${q.title}, ${workers} workers, ${k} (${READERS[k].table}), ratio ${r.ratio.toFixed(2)}`, plan });
    }
  }
  console.error(`  ${q.title} w=${workers}: ${keys.map((k) => `${k} ${r.med[k].toFixed(1)}`).join(', ')} ms; iceberg/dataset ${r.ratio.toFixed(2)}`);
  return r;
}

async function planning(planRuns) {
  const tables = ['li_iceberg', 'li_ds', 'li_heap'];
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

function table(head, rows, left = [0]) {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (left.includes(i) ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(w.map((k) => '-'.repeat(k)).join('  '));
  for (const r of rows) console.log(line(r));
}

async function run(iceDir, v3Dir, dsDir, runs, planRuns, workerCounts) {
  const c = await connect();
  const [[ddl]] = await rowsOf(c, `SELECT string_agg(quote_ident(attname) || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
    FROM pg_attribute WHERE attrelid = 'li_heap'::regclass AND attnum > 0 AND NOT attisdropped AND attname NOT IN ('file_no', 'pos')`);
  const md = JSON.parse(fs.readFileSync(path.join(iceDir, 'metadata', `v${fs.readFileSync(path.join(iceDir, 'metadata', 'version-hint.text'), 'utf8').trim()}.metadata.json`), 'utf8')
    .replace(/("snapshot-id"\s*:\s*)(\d+)/g, '$1"$2"'));
  const s1 = md.snapshots[0]['snapshot-id'];
  await c.query(`CREATE FOREIGN TABLE li_iceberg (${ddl}) SERVER parquet_srv OPTIONS (format 'iceberg', location ${lit(iceDir)})`);
  await c.query(`CREATE FOREIGN TABLE li_iceberg_v3 (${ddl}) SERVER parquet_srv OPTIONS (format 'iceberg', location ${lit(v3Dir)})`);
  await c.query(`CREATE FOREIGN TABLE li_iceberg_s1 (${ddl}) SERVER parquet_srv OPTIONS (format 'iceberg', location ${lit(iceDir)}, snapshot_id ${lit(s1)})`);
  const [[hasDs]] = await rowsOf(c, "SELECT count(*) FROM pg_class WHERE relname = 'li_ds'");
  if (hasDs === '0') await c.query(`CREATE FOREIGN TABLE li_ds (${ddl}) SERVER parquet_srv OPTIONS (filename ${lit(dsDir)})`);

  const [[heapRows, delRows]] = await rowsOf(c, 'SELECT (SELECT count(*) FROM li_heap), (SELECT count(*) FROM li_del)');
  const counts = {};
  for (const t of ['li_iceberg', 'li_iceberg_v3', 'li_iceberg_s1', 'li_ds']) counts[t] = (await rowsOf(c, `SELECT count(*) FROM ${t}`))[0][0];
  const liveRows = String(Number(heapRows) - Number(delRows));
  console.log(`count(*): li_iceberg ${counts.li_iceberg}, li_iceberg_v3 ${counts.li_iceberg_v3} (heap less deleted: ${liveRows}); ` +
    `li_iceberg_s1 ${counts.li_iceberg_s1}, li_ds ${counts.li_ds} (heap: ${heapRows})`);
  if (counts.li_iceberg !== liveRows || counts.li_iceberg_v3 !== liveRows || counts.li_iceberg_s1 !== heapRows || counts.li_ds !== heapRows) {
    console.log('DIFFERENT: row counts');
    differences++;
  }
  console.log();
  console.log('Plans at 0 workers:');
  await c.query('SET max_parallel_workers_per_gather = 0');
  for (const q of QUERIES) {
    for (const t of ['li_iceberg', 'li_ds']) {
      console.log(`-- ${q.title} on ${t}`);
      console.log((await lines(c, `EXPLAIN (COSTS OFF) ${q.sql(t)}`)).join('\n'));
    }
  }
  console.log();

  const results = [];
  for (const w of workerCounts) {
    await c.query(`SET max_parallel_workers_per_gather = ${w}`);
    for (const q of QUERIES) results.push(await measure(c, q, w, runs));
  }

  // pruning by the manifests' statistics: the middle half of one file's keys
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
  for (const t of ['li_iceberg', 'li_ds']) {
    prunePlans[t] = await lines(c, `EXPLAIN (ANALYZE, SUMMARY) ${pq.sql(t)}`);
    const ms = [];
    for (let i = 0; i < runs; i++) ms.push(planningMs(await lines(c, `EXPLAIN (SUMMARY) ${pq.sql(t)}`)));
    prunePlanning[t] = median(ms);
  }
  const fm = /Files: (\d+) of (\d+) \(pruned by partition: (\d+)(?:, by table statistics: (\d+))?\)/.exec(filesLine(prunePlans.li_iceberg));
  await c.end();

  const plan = await planning(planRuns);
  report({ results, pruned, pq, prunePlans, prunePlanning, fm, plan, runs, planRuns });
  return differences;
}

function report({ results, pruned, pq, prunePlans, prunePlanning, fm, plan, runs, planRuns }) {
  const mark = (ok) => (ok ? 'met' : 'NOT MET');
  console.log();
  console.log(`Iceberg (position delete files) vs plain dataset: medians of ${runs} runs after one warm-up; w = max_parallel_workers_per_gather`);
  const diag = (r, k) => (r.med[k] === undefined ? '' : f1(r.med[k]));
  const diagHead = DIAG ? ['v3 (DVs) ms', 's1 (no deletes) ms'] : [];
  table(['query', 'w', 'iceberg ms', 'dataset ms', 'iceberg/dataset', 'target', ...diagHead, 'plans (iceberg, dataset)',
    'rows: iceberg vs heap less deleted, dataset vs heap'],
  [...results, pruned].map((r) => [r.q.title, String(r.workers), f1(r.med.iceberg), f1(r.med.dataset), `${f2(r.ratio)}x`,
    r === pruned ? '' : `<= ${TARGET}x ${mark(r.ratio <= TARGET)}`, ...(DIAG ? [diag(r, 'iceberg_v3'), diag(r, 'iceberg_s1')] : []),
    `${r.plan.iceberg}, ${r.plan.dataset}`, `${r.same.iceberg}, ${r.same.dataset}`]), DIAG ? [0, 5, 8, 9] : [0, 5, 6, 7]);
  if (DIAG) {
    console.log('v3 (DVs): li_iceberg_v3, the same files and deleted rows as a format v3 table with deletion vectors;');
    console.log('s1 (no deletes): li_iceberg_s1, the Iceberg table at its first snapshot (the same files, nothing deleted)');
    const bad = [...results, pruned].filter((r) => r.same.iceberg_v3 === 'DIFFERENT' || r.same.iceberg_s1 === 'DIFFERENT');
    if (bad.length) console.log(`diagnostic tables' rows DIFFERENT from the heap's in: ${bad.map((r) => `${r.q.title} w=${r.workers}`).join(', ')}`);
  }
  console.log();
  console.log('Planning Time (ms) of EXPLAIN (SUMMARY) ' + oneLine(PLAN_QUERY('T')));
  const pl = (xs) => `${f2(median(xs))} (${f2(Math.min(...xs))}..${f2(Math.max(...xs))})`;
  table(['', 'li_iceberg', 'li_ds (dataset)', 'li_heap', 'target'], [
    [`warm: one session, median (min..max) of ${planRuns}`, pl(plan.warm.li_iceberg), pl(plan.warm.li_ds), pl(plan.warm.li_heap),
      `< ${PLAN_TARGET} ms ${mark(median(plan.warm.li_iceberg) < PLAN_TARGET)}`],
    [`cold: first query of a new connection, median (min..max) of ${planRuns}`, pl(plan.cold.li_iceberg), pl(plan.cold.li_ds), pl(plan.cold.li_heap), ''],
  ], [0, 4]);
  console.log();
  console.log(`Pruning: ${oneLine(pq.sql('T'))}`);
  console.log(`  li_iceberg: ${filesLine(prunePlans.li_iceberg)}`);
  console.log(`  li_ds:      ${filesLine(prunePlans.li_ds)}`);
  console.log(`  files pruned by table statistics: ${fm ? `${fm[4] ?? 0} of ${fm[2]}` : 'unknown (no Files line)'}; ` +
    `query ${f1(pruned.med.iceberg)} ms on li_iceberg, ${f1(pruned.med.dataset)} ms on li_ds (${f2(pruned.ratio)}x); ` +
    `planning ${f2(prunePlanning.li_iceberg)} ms and ${f2(prunePlanning.li_ds)} ms (medians of ${runs})`);
  console.log();
  console.log('Per-run times (ms):');
  for (const r of [...results, pruned])
    console.log(`  ${r.q.title}, w=${r.workers}: ${Object.entries(r.ms).map(([k, xs]) => `${k} ${xs.map(f1).join(' ')}`).join('; ')}`);
  console.log(`  cold planning, li_iceberg: ${plan.cold.li_iceberg.map(f2).join(' ')}`);
  console.log();
  console.log('EXPLAIN ANALYZE of the pruned query:');
  for (const t of ['li_iceberg', 'li_ds']) console.log(`-- ${t}\n${prunePlans[t].join('\n')}`);
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
if (cmd === 'write' && args.length >= 3) {
  await write(args[0], args[1], args[2], Number(args[3] ?? 1));
} else if (cmd === 'run' && args.length >= 5) {
  const workerCounts = args.length > 5 ? args.slice(5).map(Number) : [0, 2];
  const diffs = await run(args[0], args[1], args[2], Number(args[3]), Number(args[4]), workerCounts);
  if (diffs) console.log(`${diffs} answer(s) DIFFERENT from the heap's`);
  process.exit(diffs ? 1 : 0);
} else {
  console.error('usage: node bench/iceberg.mjs write DELTA_TABLE_DIR ICEBERG_DIR ICEBERG_V3_DIR SEED\n' +
    '       node bench/iceberg.mjs run ICEBERG_DIR ICEBERG_V3_DIR DATASET_DIR RUNS PLAN_RUNS [WORKERS...]');
  process.exit(2);
}
