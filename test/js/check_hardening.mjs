// Hostile file systems (issue 38): what another OS user can plant in a
// directory the server writes to or reads from must never make parquet_fdw
// touch a file outside its target, return a row twice, or hang.
//
//   dataset_link     a link planted under COPY's temporary-tree name, an
//                    overwrite target that is a link, a link inside an
//                    overwrite_or_ignore tree, another user's directory
//                    under overwrite: the victim directory is untouched
//   walk_links       a "latest" link to a partition, 17 levels of two links
//                    each to the next: every file once (rows counted here)
//   dir_cache        70,000 directories listed: the listing cache stays in
//                    its 64 MB budget (pg_backend_memory_contexts)
//   walk_cancel      a cancel during the walk of 20,000 directories stops
//                    it there: the backend's listing cache holds a part of
//                    what a whole walk leaves
//   footer_memory    a statement over 20,000 files in a transaction that
//                    goes on: the footers kept stay within the cache budget
//   fifo             a FIFO named x.parquet, matched by a glob, named, and
//                    found by a walk: ERROR 42809 or skipped, never a hang
//   stale_plan       a prepared statement and a PL/pgSQL function over a
//                    directory: files added and removed after planning are
//                    seen, as by a fresh query
//   wide_fixed       a FIXED_LEN_BYTE_ARRAY 64 MB wide (2 values) reads,
//                    values checked by MD5 computed here; a hand-built
//                    file whose type_length is over 1 GB is XX001
//   parallel_replace a file replaced by one of the same size and row groups
//                    after two processes of a parallel scan opened it and
//                    before a third did: ERROR HV021, never rows of both
//
// Runs as root against the cluster of scripts/test.sh (PG* environment): the
// planted links belong to the user nobody, in directories without the
// sticky bit, so fs.protected_symlinks does not stop the server following
// them.  Prints "hardening: N passed, N failed".
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { wideFixedFile } from './lib/hostile_parquet.mjs';
import { counter, filesBelow } from './lib/stage.mjs';

const c = counter();
// HARDENING_ONLY="fifo stale_plan" runs only the sections named.
const only = (process.env.HARDENING_ONLY || '').split(/\s+/).filter(Boolean);
async function section(name, fn) {
  if (only.length && !only.includes(name)) return;
  const t0 = Date.now();
  try {
    await fn();
  } catch (e) {
    c.check(name, [`threw: ${e.code || ''} ${e.message}`]);
  }
  console.log(`(${name}: ${Date.now() - t0} ms)`);
}
const client = new pg.Client();
await client.connect();
const q = async (sql, params) => (await client.query(sql, params)).rows;
// The SQLSTATE and message of a statement that must fail ('' if it did not).
async function failure(sql) {
  try {
    await client.query(sql);
    return { code: '', message: 'no error' };
  } catch (e) {
    return { code: e.code, message: e.message };
  }
}
await q('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await q('CREATE SERVER IF NOT EXISTS hardening_srv FOREIGN DATA WRAPPER parquet_fdw');

const pgUid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
const pgGid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
const nobodyUid = Number(execFileSync('id', ['-u', 'nobody']).toString().trim());
const asNobody = (...args) => execFileSync('runuser', ['-u', 'nobody', '--', ...args]);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parquet_fdw_hardening.'));
fs.chmodSync(root, 0o777); // writable by all, no sticky bit

// A victim directory the server's user may write: what the server must not touch.
function makeVictim(name) {
  const v = path.join(root, name);
  fs.mkdirSync(v);
  fs.writeFileSync(path.join(v, 'precious.conf'), 'keep me\n');
  fs.chownSync(v, pgUid, pgGid);
  fs.chownSync(path.join(v, 'precious.conf'), pgUid, pgGid);
  return v;
}
function victimProblems(v) {
  const p = [];
  const names = fs.readdirSync(v).sort();
  if (names.join(',') !== 'precious.conf') p.push(`victim holds [${names.join(', ')}]`);
  else if (fs.readFileSync(path.join(v, 'precious.conf'), 'utf8') !== 'keep me\n') p.push('precious.conf was changed');
  return p;
}
// A directory the server may write in (root's, mode 0777 without sticky bit).
function openDir(p) {
  fs.mkdirSync(p);
  fs.chmodSync(p, 0o777);
  return p;
}
const tmpLeft = (dir) => fs.readdirSync(dir).filter((n) => n.startsWith('.') && n.endsWith('.tmp'));
const isRealDir = (p) => fs.existsSync(p) && fs.lstatSync(p).isDirectory();
const ROWS = 'SELECT i, i % 3 AS t FROM generate_series(1, 30) i';
// Rows of a tree, read back through a foreign table (hive partitioning).
async function countTree(dir) {
  await q('DROP FOREIGN TABLE IF EXISTS hardening_back');
  await q(`CREATE FOREIGN TABLE hardening_back (i int, t int) SERVER hardening_srv OPTIONS (filename '${dir}')`);
  return (await q('SELECT count(*)::int AS n, sum(i)::int AS s FROM hardening_back'))[0];
}

// ------------------------------------------------------------ dataset_link
await section('dataset_link', async () => {
  const victim = makeVictim('victim1');
  const pid = (await q('SELECT pg_backend_pid() AS pid'))[0].pid;
  // the names the temporary tree had before: .<name>.<pid>.tmp
  asNobody('ln', '-s', victim, path.join(root, `.out2.${pid}.tmp`));
  await q(`COPY (${ROWS}) TO '${root}/out2' (FORMAT parquet, partition_by (t))`);
  const p = victimProblems(victim);
  if (!isRealDir(path.join(root, 'out2'))) p.push('out2 is not a real directory');
  else {
    const back = await countTree(path.join(root, 'out2'));
    if (back.n !== 30 || back.s !== 465) p.push(`out2 reads back ${back.n} rows, sum ${back.s} (30, 465 expected)`);
  }
  if (fs.readlinkSync(path.join(root, `.out2.${pid}.tmp`)) !== victim) p.push('the planted link was changed');
  c.check('dataset_link: a link planted under the temporary tree name is neither followed nor used', p);
});

await section('dataset_link', async () => {
  const victim = makeVictim('victim2');
  asNobody('ln', '-s', victim, path.join(root, 'out3'));
  await q(`COPY (${ROWS}) TO '${root}/out3' (FORMAT parquet, partition_by (t), overwrite true)`);
  const p = victimProblems(victim);
  if (!isRealDir(path.join(root, 'out3'))) p.push('out3 is not a real directory');
  else if (filesBelow(path.join(root, 'out3')).length !== 3) p.push(`out3 holds ${filesBelow(path.join(root, 'out3')).join(', ')}`);
  if (tmpLeft(root).some((n) => n.startsWith('.out3.'))) p.push(`left ${tmpLeft(root).join(', ')}`);
  c.check('dataset_link: overwrite of a target that is a link removes the link, not what it points to', p);
});

await section('dataset_link', async () => {
  const victim = makeVictim('victim3');
  const tree = path.join(root, 'out4');
  fs.mkdirSync(tree);
  fs.chmodSync(tree, 0o777);
  asNobody('ln', '-s', victim, path.join(tree, 't=1'));
  const f = await failure(`COPY (${ROWS}) TO '${tree}' (FORMAT parquet, partition_by (t), overwrite_or_ignore true)`);
  const p = victimProblems(victim);
  if (f.code !== '42809' || !f.message.includes(`${tree}/t=1`)) p.push(`expected 42809 naming t=1, got ${f.code} ${f.message}`);
  if (tmpLeft(root).some((n) => n.startsWith('.out4.'))) p.push(`left ${tmpLeft(root).join(', ')}`);
  c.check('dataset_link: overwrite_or_ignore refuses a link inside the target tree', p);

  const victim5 = makeVictim('victim5');
  asNobody('ln', '-s', victim5, path.join(root, 'out5'));
  const f5 = await failure(`COPY (${ROWS}) TO '${root}/out5' (FORMAT parquet, partition_by (t), overwrite_or_ignore true)`);
  const p5 = victimProblems(victim5);
  if (f5.code !== '42809') p5.push(`expected 42809, got ${f5.code} ${f5.message}`);
  c.check('dataset_link: overwrite_or_ignore refuses a target that is a link', p5);
});

await section('dataset_link', async () => {
  const theirs = path.join(root, 'out6');
  fs.mkdirSync(theirs);
  fs.writeFileSync(path.join(theirs, 'their.parquet'), 'x');
  fs.chownSync(theirs, nobodyUid, 0);
  fs.chmodSync(theirs, 0o777);
  const f = await failure(`COPY (${ROWS}) TO '${theirs}' (FORMAT parquet, partition_by (t), overwrite true)`);
  const p = [];
  if (f.code !== '42501') p.push(`expected 42501, got ${f.code} ${f.message}`);
  if (!fs.existsSync(path.join(theirs, 'their.parquet'))) p.push("the other user's file is gone");
  if (tmpLeft(root).some((n) => n.startsWith('.out6.'))) p.push(`left ${tmpLeft(root).join(', ')}`);
  c.check("dataset_link: overwrite refuses to remove another user's directory", p);
});

// -------------------------------------------------------------- walk_links
await section('walk_links', async () => {
  const ds = path.join(root, 'ds');
  await q(`COPY (SELECT i, CASE WHEN i < 10 THEN 1 ELSE 2 END AS day FROM unnest(ARRAY[1, 2, 3, 10, 11]) i)
           TO '${ds}' (FORMAT parquet, partition_by (day))`);
  // links in the server's own tree: planted by root, which may write there
  fs.symlinkSync('day=1', path.join(ds, 'latest'));
  // "a_first" sorts before "day=2": still found under its real path
  fs.symlinkSync('day=2', path.join(ds, 'a_first'));
  await q('DROP FOREIGN TABLE IF EXISTS hardening_ds');
  await q(`CREATE FOREIGN TABLE hardening_ds (i int, day int) SERVER hardening_srv OPTIONS (filename '${ds}')`);
  const got = await q('SELECT day, count(*)::int AS n, sum(i)::int AS s FROM hardening_ds GROUP BY day ORDER BY day');
  const want = [{ day: 1, n: 3, s: 6 }, { day: 2, n: 2, s: 21 }];
  c.check('walk_links: links to partitions add no rows, and files keep their real partition values',
    JSON.stringify(got) === JSON.stringify(want) ? [] : [`got ${JSON.stringify(got)}`]);

  await q('DROP FOREIGN TABLE IF EXISTS hardening_glob');
  await q(`CREATE FOREIGN TABLE hardening_glob (i int) SERVER hardening_srv OPTIONS (filename '${ds}/**/*.parquet')`);
  const g = (await q('SELECT count(*)::int AS n FROM hardening_glob'))[0].n;
  c.check('walk_links: a ** glob lists each linked directory once', g === 5 ? [] : [`${g} rows, 5 expected`]);
});

await section('walk_links', async () => {
  // d0 .. d16, each holding links a and b to the next; one 3-row file in d16
  const store = path.join(root, 'bomb');
  fs.mkdirSync(store);
  for (let i = 0; i <= 16; i++) openDir(path.join(store, `d${i}`));
  await q(`COPY (SELECT i FROM generate_series(1, 3) i) TO '${store}/d16/x.parquet' (FORMAT parquet)`);
  for (let i = 0; i < 16; i++) {
    fs.symlinkSync(`../d${i + 1}`, path.join(store, `d${i}`, 'a'));
    fs.symlinkSync(`../d${i + 1}`, path.join(store, `d${i}`, 'b'));
  }
  await q('DROP FOREIGN TABLE IF EXISTS hardening_bomb');
  await q(`CREATE FOREIGN TABLE hardening_bomb (i int) SERVER hardening_srv OPTIONS (filename '${store}/d0')`);
  const t0 = Date.now();
  const n = (await q('SELECT count(*)::int AS n FROM hardening_bomb'))[0].n;
  c.check(`walk_links: 16 levels of two links each list the one file once (${Date.now() - t0} ms)`,
    n === 3 ? [] : [`${n} rows, 3 expected`]);
  // a loop: d16/up -> d0
  fs.symlinkSync('../d0', path.join(store, 'd16', 'up'));
  const n2 = (await q('SELECT count(*)::int AS n FROM hardening_bomb'))[0].n;
  c.check('walk_links: a link back up the tree ends the walk', n2 === 3 ? [] : [`${n2} rows, 3 expected`]);
});

// groups x each empty directories under root/name and one file in the first;
// a foreign table `table` over the tree.  Returns the tree's path.
async function directoryTree(name, groups, each, table) {
  const tree = path.join(root, name);
  fs.mkdirSync(tree);
  for (let i = 0; i < groups; i++) {
    const d = path.join(tree, `g${i}`);
    fs.mkdirSync(d);
    for (let j = 0; j < each; j++) fs.mkdirSync(path.join(d, `h${j}`));
  }
  fs.chmodSync(path.join(tree, 'g0', 'h0'), 0o777);
  await q(`COPY (SELECT 1 AS i) TO '${tree}/g0/h0/x.parquet' (FORMAT parquet)`);
  await q(`DROP FOREIGN TABLE IF EXISTS ${table}`);
  await q(`CREATE FOREIGN TABLE ${table} (i int) SERVER hardening_srv OPTIONS (filename '${tree}')`);
  return tree;
}

// --------------------------------------------------------------- dir_cache
await section('dir_cache', async () => {
  const many = await directoryTree('many', 280, 250, 'hardening_many');
  const n = (await q('SELECT count(*)::int AS n FROM hardening_many'))[0].n;
  const mem = (await q("SELECT coalesce(sum(total_bytes), 0)::bigint AS b FROM pg_backend_memory_contexts WHERE name = 'parquet_fdw directory listings'"))[0].b;
  const p = [];
  if (n !== 1) p.push(`${n} rows, 1 expected`);
  if (Number(mem) > 68 * 1024 * 1024) p.push(`the listing cache holds ${mem} bytes`);
  if (Number(mem) === 0) p.push('no listing cache context found');
  c.check(`dir_cache: 70,280 directories listed, cache ${(Number(mem) / 1048576).toFixed(1)} MB (budget 64 MB)`, p);
  fs.rmSync(many, { recursive: true });
});

// ------------------------------------------------------------- walk_cancel
await section('walk_cancel', async () => {
  const tree = await directoryTree('walk', 100, 200, 'hardening_walk');
  // each session has its own listing cache: a new one starts cold
  const session = async () => {
    const cl = new pg.Client();
    await cl.connect();
    const pid = (await cl.query('SELECT pg_backend_pid() AS p')).rows[0].p;
    const cacheBytes = async () => Number((await cl.query("SELECT coalesce(sum(total_bytes), 0)::bigint AS b FROM pg_backend_memory_contexts WHERE name = 'parquet_fdw directory listings'")).rows[0].b);
    return { cl, pid, cacheBytes };
  };
  const whole = await session();
  const t0 = Date.now();
  const n = (await whole.cl.query('SELECT count(*)::int AS n FROM hardening_walk')).rows[0].n;
  const walkMs = Date.now() - t0;
  const wholeBytes = await whole.cacheBytes();
  await whole.cl.end();
  const cut = await session();
  const cancelAt = Math.max(20, Math.floor(walkMs / 4));
  const timer = setTimeout(() => client.query('SELECT pg_cancel_backend($1)', [cut.pid]), cancelAt);
  let code = '';
  try {
    await cut.cl.query('SELECT count(*)::int AS n FROM hardening_walk');
  } catch (e) {
    code = e.code;
  }
  clearTimeout(timer);
  const cutBytes = await cut.cacheBytes();
  await cut.cl.end();
  const p = [];
  if (n !== 1) p.push(`the whole walk found ${n} rows, 1 expected`);
  if (code !== '57014') p.push(`cancelled at ${cancelAt} ms of a ${walkMs} ms walk: ${code || 'no error'}`);
  if (!(cutBytes < wholeBytes * 0.75)) p.push(`the listing cache holds ${cutBytes} bytes after the cancel, ${wholeBytes} after a whole walk`);
  c.check(`walk_cancel: a cancel at ${cancelAt} ms of a ${walkMs} ms walk of 20,100 directories stops it (cache ${(cutBytes / 1048576).toFixed(1)} of ${(wholeBytes / 1048576).toFixed(1)} MB)`, p);
  fs.rmSync(tree, { recursive: true });
});

// ----------------------------------------------------------- footer_memory
// One statement over 20,000 files, in a transaction that goes on: the
// footers it read stay only within parquet_fdw.metadata_cache_size.
await section('footer_memory', async () => {
  const dir = openDir(path.join(root, 'footers'));
  await q(`COPY (SELECT i, md5(i::text) AS s FROM generate_series(1, 3) i) TO '${dir}/seed.parquet' (FORMAT parquet)`);
  const N = 20000;
  for (let d = 0; d < 100; d++) {
    fs.mkdirSync(path.join(dir, `d${d}`));
    for (let f = 0; f < N / 100; f++) fs.copyFileSync(path.join(dir, 'seed.parquet'), path.join(dir, `d${d}`, `f${f}.parquet`));
  }
  fs.rmSync(path.join(dir, 'seed.parquet'));
  await q('DROP FOREIGN TABLE IF EXISTS hardening_footers');
  await q(`CREATE FOREIGN TABLE hardening_footers (i int, s text) SERVER hardening_srv OPTIONS (filename '${dir}')`);
  const footerBytes = async () => Number((await q(`SELECT coalesce(sum(total_bytes), 0)::bigint AS b FROM pg_backend_memory_contexts
    WHERE name IN ('parquet_fdw footer cache', 'parquet_fdw footer entries', 'parquet_fdw footer')`))[0].b);
  const vmHWM = async () => {
    const pid = (await q('SELECT pg_backend_pid() AS pid'))[0].pid;
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  };
  // every footer kept: the bytes one costs
  await q('BEGIN');
  await q("SET LOCAL parquet_fdw.metadata_cache_size = '1GB'");
  const all = (await q('SELECT count(*)::int AS n, sum(i)::int AS s FROM hardening_footers'))[0];
  const perFooter = (await footerBytes()) / N;
  await q('COMMIT');
  await q('BEGIN');
  await q("SET LOCAL parquet_fdw.metadata_cache_size = '1MB'");
  const hwm0 = await vmHWM();
  const small = (await q('SELECT count(*)::int AS n, sum(i)::int AS s FROM hardening_footers'))[0];
  const kept = await footerBytes();
  const hwm1 = await vmHWM();
  await q('COMMIT');
  const p = [];
  if (all.n !== 3 * N || all.s !== 6 * N || small.n !== 3 * N || small.s !== 6 * N)
    p.push(`rows ${JSON.stringify(all)} / ${JSON.stringify(small)}, ${3 * N} and ${6 * N} expected`);
  if (kept > 2 * 1024 * 1024) p.push(`${kept} bytes of footers kept after the statement`);
  c.check(`footer_memory: after a statement over ${N} files the transaction keeps ${(kept / 1048576).toFixed(2)} MB of footers (budget 1 MB; ` +
    `${Math.round(perFooter)} bytes per footer, so planning 100,000 such files holds ${(perFooter * 100000 / 1048576).toFixed(0)} MB; VmHWM ${hwm0} -> ${hwm1} kB)`, p);
  fs.rmSync(dir, { recursive: true });
});

// -------------------------------------------------------------------- fifo
// A statement that may hang in open(): if no answer within 15 s, a writer
// opens the FIFO to release it, and the check fails.
async function withFifoGuard(fifo, fn) {
  let released = false;
  const timer = setTimeout(() => {
    released = true;
    try {
      const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
      fs.closeSync(fd);
    } catch { /* a reader may not be there yet */ }
  }, 15000);
  try {
    return { ...(await fn()), released };
  } finally {
    clearTimeout(timer);
  }
}
await section('fifo', async () => {
  const dir = openDir(path.join(root, 'fifo'));
  await q(`COPY (SELECT i FROM generate_series(1, 4) i) TO '${dir}/a.parquet' (FORMAT parquet)`);
  execFileSync('mkfifo', [path.join(dir, 'x.parquet')]);
  fs.chmodSync(path.join(dir, 'x.parquet'), 0o666);
  for (const [what, filename] of [['matched by a glob', `${dir}/*.parquet`], ['named', `${dir}/x.parquet`]]) {
    await q('DROP FOREIGN TABLE IF EXISTS hardening_fifo');
    await q(`CREATE FOREIGN TABLE hardening_fifo (i int) SERVER hardening_srv OPTIONS (filename '${filename}')`);
    const r = await withFifoGuard(path.join(dir, 'x.parquet'), () => failure('SELECT count(*) FROM hardening_fifo'));
    const p = [];
    if (r.released) p.push('the backend hung in open() until a writer came');
    if (r.code !== '42809' || !r.message.includes('x.parquet') || !r.message.includes('not a regular file'))
      p.push(`expected 42809 "not a regular file", got ${r.code} ${r.message}`);
    c.check(`fifo: a FIFO ${what} is refused at once`, p);
  }
  await q('DROP FOREIGN TABLE IF EXISTS hardening_fifo');
  await q(`CREATE FOREIGN TABLE hardening_fifo (i int) SERVER hardening_srv OPTIONS (filename '${dir}')`);
  const r = await withFifoGuard(path.join(dir, 'x.parquet'), async () => ({ rows: await q('SELECT count(*)::int AS n FROM hardening_fifo') }));
  c.check('fifo: a walk skips a FIFO and reads the files', !r.released && r.rows[0].n === 4 ? [] : [`released ${r.released}, ${JSON.stringify(r.rows)}`]);
  const r2 = await withFifoGuard(path.join(dir, 'x.parquet'), () => failure(`COPY (SELECT 1 AS i) TO '${dir}/x.parquet' (FORMAT parquet)`));
  c.check('fifo: COPY TO over a FIFO does not hang', !r2.released ? [] : [`released ${r2.released}, ${r2.code} ${r2.message}`]);
});

// -------------------------------------------------------------- stale_plan
await section('stale_plan', async () => {
  const dir = openDir(path.join(root, 'grow'));
  const addFile = async (k, part) => {
    const sub = path.join(dir, `p=${part}`);
    if (!fs.existsSync(sub)) openDir(sub);
    await q(`COPY (SELECT ${k} * 100 + i AS v FROM generate_series(1, 10) i) TO '${sub}/f${k}.parquet' (FORMAT parquet)`);
  };
  // sum of v over files ks: computed here, not by the server
  const expect = (ks) => ({ n: ks.length * 10, s: ks.reduce((a, k) => a + k * 1000 + 55, 0) });
  await addFile(1, 'a');
  await q('DROP FOREIGN TABLE IF EXISTS hardening_grow');
  await q(`CREATE FOREIGN TABLE hardening_grow (v int, p text) SERVER hardening_srv OPTIONS (filename '${dir}')`);
  await q("SET plan_cache_mode = 'force_generic_plan'");
  await q('PREPARE grow_all AS SELECT count(*)::int AS n, sum(v)::int AS s FROM hardening_grow');
  await q("PREPARE grow_part AS SELECT count(*)::int AS n, sum(v)::int AS s FROM hardening_grow WHERE p = 'b'");
  await q('PREPARE grow_count AS SELECT count(*)::int AS n FROM hardening_grow');
  await q("PREPARE grow_count_b AS SELECT count(*)::int AS n FROM hardening_grow WHERE p = 'b'");
  // the plan kinds covered: a scan, a grouped scan, answers from footers
  const plans = [];
  for (const name of ['grow_all', 'grow_part', 'grow_count', 'grow_count_b'])
    plans.push((await q(`EXPLAIN (COSTS OFF) EXECUTE ${name}`)).map((r) => r['QUERY PLAN']).join('\n'));
  c.check('stale_plan: count(*) plans answer from the footers',
    plans[2].includes('Aggregate on') && plans[3].includes('Aggregate on') ? [] : [plans[2], plans[3]]);
  await q(`CREATE OR REPLACE FUNCTION hardening_grow_sum() RETURNS bigint LANGUAGE plpgsql AS
           $$ BEGIN RETURN (SELECT sum(v) FROM hardening_grow); END $$`);
  const state = async () => ({
    all: (await q('EXECUTE grow_all'))[0],
    part: (await q('EXECUTE grow_part'))[0],
    count: (await q('EXECUTE grow_count'))[0].n,
    countB: (await q('EXECUTE grow_count_b'))[0].n,
    fn: Number((await q('SELECT hardening_grow_sum() AS s'))[0].s),
  });
  const compare = (what, got, files, partFiles) => {
    const all = expect(files);
    const part = expect(partFiles);
    const p = [];
    if (got.all.n !== all.n || got.all.s !== all.s) p.push(`all: ${JSON.stringify(got.all)} vs ${JSON.stringify(all)}`);
    if ((got.part.n ?? 0) !== part.n || (got.part.s ?? 0) !== part.s) p.push(`p = 'b': ${JSON.stringify(got.part)} vs ${JSON.stringify(part)}`);
    if (got.count !== all.n) p.push(`count(*): ${got.count} vs ${all.n}`);
    if (got.countB !== part.n) p.push(`count(*) WHERE p = 'b': ${got.countB} vs ${part.n}`);
    if (got.fn !== all.s) p.push(`plpgsql: ${got.fn} vs ${all.s}`);
    c.check(`stale_plan: ${what}`, p);
  };
  compare('planned over one file', await state(), [1], []);
  await addFile(2, 'a');
  await addFile(3, 'b');
  compare('files added after planning are read', await state(), [1, 2, 3], [3]);
  fs.rmSync(path.join(dir, 'p=a', 'f1.parquet'));
  compare('a file removed after planning is not opened', await state(), [2, 3], [3]);
  await q('DEALLOCATE grow_all');
  await q('DEALLOCATE grow_part');
  await q('DEALLOCATE grow_count');
  await q('DEALLOCATE grow_count_b');
  await q('RESET plan_cache_mode');
});

// -------------------------------------------------------------- wide_fixed
await section('wide_fixed', async () => {
  // 4096 values of 64 MB would be 256 GB of scratch: the reader takes one
  // value a segment instead.
  const width = 64 * 1024 * 1024;
  const file = path.join(root, 'wide.parquet');
  fs.writeFileSync(file, wideFixedFile(width, 2));
  const want = [1, 2].map((b) => createHash('md5').update(Buffer.alloc(width, b)).digest('hex'));
  await q('DROP FOREIGN TABLE IF EXISTS hardening_wide');
  await q(`CREATE FOREIGN TABLE hardening_wide (s bytea) SERVER hardening_srv OPTIONS (filename '${file}')`);
  const r = await failure('SELECT 1 FROM hardening_wide LIMIT 0');
  const rows = r.code ? [] : await q('SELECT octet_length(s) AS n, md5(s) AS h FROM hardening_wide');
  const got = rows.map((x) => `${x.n}:${x.h}`).join(',');
  c.check('wide_fixed: a FIXED_LEN_BYTE_ARRAY(67108864) column reads (MD5 computed here)',
    got === want.map((h) => `${width}:${h}`).join(',') ? [] : [`${r.code || ''} got ${got}`]);
  // type_length 2^30 + 1: one value could not fit a page
  fs.writeFileSync(path.join(root, 'huge_width.parquet'), wideFixedFile(4, 1, 2 ** 30 + 1));
  await q('DROP FOREIGN TABLE IF EXISTS hardening_huge_width');
  await q(`CREATE FOREIGN TABLE hardening_huge_width (s bytea) SERVER hardening_srv OPTIONS (filename '${root}/huge_width.parquet')`);
  const e = await failure('SELECT octet_length(s) FROM hardening_huge_width');
  c.check('wide_fixed: type_length 1073741825 is XX001',
    e.code === 'XX001' && /type_length 1073741825/.test(e.message) ? [] : [`${e.code} ${e.message}`]);
});

// -------------------------------------------------------- parallel_replace
await section('parallel_replace', async () => {
  const dir = openDir(path.join(root, 'replace'));
  // a.parquet: 4 row groups, the last slow (150 ms a row, 1.5 s); b.parquet:
  // 100 row groups of 10 rows, 5 ms a row.  Whoever takes a's last row group
  // opens b about 1.5 s in; the others opened it at once.  b is replaced at
  // 0.6 s by version 2, of the same size and row groups.
  await q(`COPY (SELECT 1 AS v, i AS id FROM generate_series(1, 40) i) TO '${dir}/a.parquet' (FORMAT parquet, row_group_size 10)`);
  const bRows = (v) => `SELECT ${v} AS v, 100000 + i AS id FROM generate_series(1, 1000) i`;
  await q(`COPY (${bRows(1)}) TO '${dir}/b.parquet' (FORMAT parquet, row_group_size 10)`);
  await q(`COPY (${bRows(2)}) TO '${root}/b2.parquet' (FORMAT parquet, row_group_size 10)`);
  const same = fs.statSync(`${dir}/b.parquet`).size === fs.statSync(`${root}/b2.parquet`).size;
  c.check('parallel_replace: both versions of b.parquet have the same size', same ? [] : ['sizes differ']);
  await q(`CREATE OR REPLACE FUNCTION hardening_slow(id int) RETURNS bool LANGUAGE plpgsql PARALLEL SAFE AS
           $$ BEGIN PERFORM pg_sleep(CASE WHEN id > 100000 THEN 0.005 WHEN id > 30 THEN 0.15 ELSE 0 END); RETURN true; END $$`);
  await q('DROP FOREIGN TABLE IF EXISTS hardening_replace');
  await q(`CREATE FOREIGN TABLE hardening_replace (v int, id int, f text) SERVER hardening_srv
           OPTIONS (filename '${dir}', filename_column 'f')`);
  await q('SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0');
  const sql = `SELECT f, count(*)::int AS n, min(v) AS vmin, max(v) AS vmax FROM hardening_replace WHERE hardening_slow(id) GROUP BY f`;
  const plan = (await q(`EXPLAIN (COSTS OFF) ${sql}`)).map((r) => r['QUERY PLAN']).join('\n');
  c.check('parallel_replace: the scan is parallel', /Parallel Foreign Scan/.test(plan) && /Workers Planned: [1-9]/.test(plan) ? [] : [plan]);
  const swap = setTimeout(() => fs.renameSync(`${root}/b2.parquet`, `${dir}/b.parquet`), 600);
  let r;
  try {
    r = { rows: (await client.query(sql)).rows };
  } catch (e) {
    r = { code: e.code, message: e.message };
  }
  clearTimeout(swap);
  const p = [];
  for (const row of r.rows || []) if (row.vmin !== row.vmax) p.push(`${row.f} gave rows of versions ${row.vmin} and ${row.vmax}`);
  if (r.code !== 'HV021' || !/b\.parquet" changed during a parallel scan/.test(r.message))
    p.push(`expected HV021 "changed during a parallel scan", got ${r.code ? `${r.code} ${r.message}` : JSON.stringify(r.rows)}`);
  c.check('parallel_replace: a file replaced under a parallel scan is an ERROR, not a mix', p);
  await q('RESET max_parallel_workers_per_gather; RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size');
});

await client.end();
fs.rmSync(root, { recursive: true, force: true });
process.exit(c.summary('hardening'));
