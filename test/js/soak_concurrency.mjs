// Concurrency soak (issue 38): sessions scan a hive dataset and a single
// file while other sessions COPY TO the same targets with overwrite, add and
// remove files beside them, and cancel each other at random points, for a
// bounded time on the cluster of scripts/test.sh (PG* environment).
//
// Each version v of the dataset holds rows (v, id, p) for id in 1..n(v),
// p = id % 4, one file per partition: so every file's rows are known from
// its version and partition alone.  A statement passes if it returns rows
// that are whole files (per file, as reported by filename_column: one
// version, exactly that version's count and sum of ids for the partition)
// or ends in an ERROR whose SQLSTATE is one a PostgreSQL user would expect
// here (57014 canceled, 58P01 a file gone between listing and opening,
// HV021 a file replaced while a parallel scan's workers read it).  A torn or
// partial file, a crash, a leftover temporary file or a change outside
// the targets fails the stage.  Prints "soak_concurrency: N passed, N failed".
//
//   node test/js/soak_concurrency.mjs [SECONDS] [SEED]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { counter } from './lib/stage.mjs';

const SECONDS = Number(process.argv[2] || 60);
let seed = Number(process.argv[3] || 20261128);
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const c = counter();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parquet_fdw_concurrency.'));
fs.chmodSync(root, 0o777);
const dataset = path.join(root, 'ds');
const single = path.join(root, 'one.parquet');
const sentinel = path.join(root, 'sentinel');
fs.mkdirSync(sentinel);
fs.writeFileSync(path.join(sentinel, 'keep.txt'), 'keep\n');

const n = (v) => 400 + (v % 7) * 60;
// rows of partition p of version v: count and sum of ids
function partition(v, p) {
  let count = 0;
  let sum = 0;
  for (let id = 1; id <= n(v); id++)
    if (id % 4 === p) {
      count++;
      sum += id;
    }
  return { count, sum };
}
const versionRows = (v) => `SELECT ${v} AS v, id, id % 4 AS p FROM generate_series(1, ${n(v)}) id`;

async function connect(name) {
  const cl = new pg.Client({ application_name: name });
  await cl.connect();
  cl.on('error', () => {});
  return cl;
}
const admin = await connect('soak_admin');
await admin.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await admin.query('DROP SERVER IF EXISTS soak_conc CASCADE');
await admin.query('CREATE SERVER soak_conc FOREIGN DATA WRAPPER parquet_fdw');
await admin.query(`COPY (${versionRows(1)}) TO '${dataset}' (FORMAT parquet, partition_by (p))`);
await admin.query(`COPY (${versionRows(1)}) TO '${single}' (FORMAT parquet)`);
await admin.query(`CREATE FOREIGN TABLE soak_ds (v int, id int, p int, f text) SERVER soak_conc
                   OPTIONS (filename '${dataset}', filename_column 'f')`);
await admin.query(`CREATE FOREIGN TABLE soak_one (v int, id int, p int) SERVER soak_conc
                   OPTIONS (filename '${single}')`);

const stats = { reads: 0, writes: 0, adds: 0, removes: 0, cancels: 0, errors: {} };
const problems = [];
const allowed = new Set(['57014', '58P01']);
const firstOf = {};
function noteError(who, e) {
  const code = e.code || 'none';
  stats.errors[code] = (stats.errors[code] || 0) + 1;
  if (!firstOf[code]) firstOf[code] = e.message;
  const replacedUnderWorkers = code === 'HV021' && / changed during a parallel scan$/.test(e.message);
  if (!allowed.has(code) && !replacedUnderWorkers) problems.push(`${who}: ${code} ${e.message}`);
}

// Extra files beside the partitions: versions 1000 + k, all of partition 0..3
// (a file of its own under p=<x>/extra_<k>.parquet, rows of partition x).
const extras = new Map();
function checkFiles(rows, what) {
  for (const r of rows) {
    const m = /\/p=(\d)\/(data_0|extra_(\d+))\.parquet$/.exec(r.f);
    if (!m) {
      problems.push(`${what}: a row of an unexpected file ${r.f}`);
      continue;
    }
    const p = Number(m[1]);
    if (r.vmin !== r.vmax) {
      problems.push(`${what}: ${r.f} mixes versions ${r.vmin} and ${r.vmax}`);
      continue;
    }
    const want = partition(r.vmin, p);
    if (Number(r.count) !== want.count || Number(r.sum) !== want.sum)
      problems.push(`${what}: ${r.f} of version ${r.vmin} has ${r.count} rows, sum ${r.sum} (want ${want.count}, ${want.sum})`);
  }
}

const deadline = Date.now() + SECONDS * 1000;
const running = () => Date.now() < deadline;

async function reader(i) {
  const cl = await connect(`soak_reader_${i}`);
  await cl.query(`PREPARE ds_files AS SELECT f, count(*) AS count, min(v) AS vmin, max(v) AS vmax, sum(id) AS sum FROM soak_ds GROUP BY f`);
  await cl.query(`PREPARE ds_part(int) AS SELECT f, count(*) AS count, min(v) AS vmin, max(v) AS vmax, sum(id) AS sum FROM soak_ds WHERE p = $1 GROUP BY f`);
  while (running()) {
    const r = rand();
    try {
      await cl.query(`SET plan_cache_mode = '${r < 0.5 ? 'force_generic_plan' : 'auto'}'`);
      if (r < 0.2) {
        await cl.query('SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0');
      } else await cl.query('SET max_parallel_workers_per_gather = 0');
      let rows;
      if (r < 0.4) rows = (await cl.query('EXECUTE ds_files')).rows;
      else if (r < 0.6) rows = (await cl.query(`EXECUTE ds_part(${Math.floor(rand() * 4)})`)).rows;
      else if (r < 0.8) {
        const one = (await cl.query('SELECT count(*) AS count, min(v) AS vmin, max(v) AS vmax, sum(id) AS sum FROM soak_one')).rows[0];
        const v = one.vmin;
        if (one.vmin !== one.vmax || Number(one.count) !== n(v) || Number(one.sum) !== (n(v) * (n(v) + 1)) / 2)
          problems.push(`reader ${i}: one.parquet gave ${JSON.stringify(one)}`);
        rows = [];
      } else rows = (await cl.query('SELECT f, count(*) AS count, min(v) AS vmin, max(v) AS vmax, sum(id) AS sum FROM soak_ds GROUP BY f')).rows;
      checkFiles(rows, `reader ${i}`);
      stats.reads++;
    } catch (e) {
      noteError(`reader ${i}`, e);
    }
  }
  await cl.end();
}

async function writer(i) {
  const cl = await connect(`soak_writer_${i}`);
  while (running()) {
    const v = 2 + Math.floor(rand() * 500);
    try {
      if (rand() < 0.7)
        await cl.query(`COPY (${versionRows(v)}) TO '${dataset}' (FORMAT parquet, partition_by (p), overwrite true, row_group_size 50)`);
      else await cl.query(`COPY (${versionRows(v)}) TO '${single}' (FORMAT parquet, row_group_size 50)`);
      stats.writes++;
    } catch (e) {
      noteError(`writer ${i}`, e);
    }
  }
  await cl.end();
}

async function adder() {
  const cl = await connect('soak_adder');
  let k = 0;
  while (running()) {
    const p = Math.floor(rand() * 4);
    try {
      if (extras.size < 6 || rand() < 0.5) {
        const f = path.join(dataset, `p=${p}`, `extra_${k}.parquet`);
        // rows of partition p of version 1000 + k: whole-file checks hold
        await cl.query(`COPY (SELECT v, id FROM (${versionRows(1000 + k)}) s WHERE p = ${p}) TO '${f}' (FORMAT parquet)`);
        extras.set(f, 1000 + k);
        k++;
        stats.adds++;
      } else {
        const [f] = extras.keys();
        extras.delete(f);
        fs.rmSync(f, { force: true });
        stats.removes++;
      }
    } catch (e) {
      // the partition folder may be exchanged away by an overwrite meanwhile
      if (e.code !== '58P01' && e.code !== '42501' && !/No such file/.test(e.message)) noteError('adder', e);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  await cl.end();
}

async function canceller() {
  while (running()) {
    await new Promise((r) => setTimeout(r, 50 + rand() * 300));
    try {
      const r = await admin.query(`SELECT pg_cancel_backend(pid) AS ok FROM pg_stat_activity
        WHERE application_name LIKE 'soak\\_%' AND application_name NOT IN ('soak_admin', 'soak_adder')
          AND state = 'active' ORDER BY random() LIMIT 1`);
      if (r.rows.length) stats.cancels++;
    } catch (e) {
      problems.push(`canceller: ${e.message}`);
    }
  }
}

const t0 = Date.now();
await Promise.all([reader(0), reader(1), reader(2), writer(0), writer(1), adder(), canceller()]);
const secs = ((Date.now() - t0) / 1000).toFixed(0);
console.log(`soak_concurrency: ${secs} s, ${stats.reads} reads, ${stats.writes} writes, ${stats.adds} files added, ${stats.removes} removed, ${stats.cancels} cancels, errors by SQLSTATE ${JSON.stringify(stats.errors)}`);
for (const [code, msg] of Object.entries(firstOf)) console.log(`  first ${code}: ${msg}`);

c.check(`every statement returned whole files or a clean ERROR (${stats.reads} reads)`, problems);
c.check('reads and writes both happened', stats.reads > 20 && stats.writes > 5 ? [] : [`${stats.reads} reads, ${stats.writes} writes`]);
const leftovers = [];
const walk = (d) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.name.endsWith('.tmp')) leftovers.push(path.relative(root, p));
    if (e.isDirectory() && !e.isSymbolicLink()) walk(p);
  }
};
walk(root);
c.check('no temporary file or directory left', leftovers);
const top = fs.readdirSync(root).sort();
c.check('nothing created or removed outside the targets',
  JSON.stringify(top) === JSON.stringify(['ds', 'one.parquet', 'sentinel']) &&
  fs.readdirSync(sentinel).join() === 'keep.txt' ? [] : [JSON.stringify(top)]);
const alive = await admin.query('SELECT 1 AS one');
c.check('the server is alive', alive.rows[0].one === 1 ? [] : ['no answer']);
await admin.query('DROP SERVER soak_conc CASCADE');
await admin.end();
fs.rmSync(root, { recursive: true, force: true });
process.exit(c.summary('soak_concurrency'));
