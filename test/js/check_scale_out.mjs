#!/usr/bin/env node
// The scale_out stage (test/scale_out/scale_out.sh starts the clusters of
// scripts/scale_out_cluster.sh first):
//
//   node check_scale_out.mjs WORK FIRST_PORT N REGIONS
//
// On the coordinator (socket WORK/coord, port FIRST_PORT), `events` is
// partitioned by region over postgres_fdw foreign tables on N parquet_fdw
// data nodes (WORK/node<i>, FIRST_PORT + i); `events_all` is one parquet_fdw
// table over every file.  Every query must give the same text from the
// distributed table, from the single-node table and from a heap table loaded
// from DuckDB's CSV of the same rows (never read through parquet_fdw); COPY
// TO from the coordinator writes the same bytes as from the other two, and
// its Parquet output reads in DuckDB as DuckDB's own query of the files.
// The plans must show one Async Foreign Scan per node (or, for an ordered
// result, a Merge Append of the nodes' remotely sorted scans, as PostgreSQL
// 17 and 18 plan it) and the aggregates in each node's Remote SQL, and a node must
// run that SQL inside its parquet scan.
//
// With --bucket, the data files go into a local S3 (lib/s3_emulator.mjs)
// and each node's `events` reads its regions' objects from that one bucket
// (a glob per region) instead of files of its own; events_all and the heap
// table stay local, so every check compares the bucket with local reads.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { startS3 } from './lib/s3_emulator.mjs';
import { counter } from './lib/stage.mjs';

const BUCKET = process.argv.includes('--bucket');
const [work, portArg, nArg, regionsArg] = process.argv.slice(2).filter((a) => a !== '--bucket');
const firstPort = Number(portArg);
const N = Number(nArg);
const REGIONS = Number(regionsArg);
if (!work || !(firstPort > 0) || !(N > 0) || !(REGIONS > 0)) {
  console.error('usage: check_scale_out.mjs WORK FIRST_PORT N REGIONS');
  process.exit(2);
}
const t = counter();

// text of every value, as psql prints it: no client-side parsing
const raw = { getTypeParser: () => (v) => v };
async function connect(name, port) {
  const c = new pg.Client({ host: path.join(work, name), port, user: 'postgres', database: 'postgres', types: raw });
  await c.connect();
  return c;
}
const coord = await connect('coord', firstPort);
const node1 = await connect('node1', firstPort + 1);
const rowsOf = async (c, sql) => (await c.query({ text: sql, rowMode: 'array' })).rows;
const planOf = async (c, sql) => (await rowsOf(c, `EXPLAIN (VERBOSE, COSTS OFF) ${sql}`)).map((r) => r[0]).join('\n');

// --bucket: every node reads its share of one bucket
let s3 = null;
if (BUCKET) {
  const key = { id: 'AKIASCALEOUT000001', secret: 'scale/out+Secret=1' };
  s3 = await startS3({ credentials: new Map([[key.id, { secret: key.secret }]]), buckets: ['scale'] });
  const dataDir = path.join(work, 'data');
  await s3.putDir('scale', 'events/', dataDir, fs.readdirSync(dataDir).filter((f) => f.endsWith('.parquet')).sort());
  const columns = (await rowsOf(node1, `SELECT string_agg(quote_ident(attname) || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
    FROM pg_attribute WHERE attrelid = 'events'::regclass AND attnum > 0`))[0][0];
  for (let i = 1; i <= N; i++) {
    const node = i === 1 ? node1 : await connect(`node${i}`, firstPort + i);
    const globs = [];
    for (let r = i - 1; r < REGIONS; r += N) globs.push(`s3://scale/events/events_r${r}_*.parquet`);
    for (const s of ['DROP FOREIGN TABLE events',
      `CREATE SERVER bucket FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', url_style 'path')`,
      `CREATE USER MAPPING FOR postgres SERVER bucket OPTIONS (key_id '${key.id}', secret '${key.secret}')`,
      `CREATE FOREIGN TABLE events (${columns}) SERVER bucket OPTIONS (filename '${globs.join(', ')}')`])
      await node.query(s);
    const got = (await rowsOf(node, 'SELECT count(*), sum(qty) FROM events'))[0];
    const want = (await duckQuery(`SELECT count(*)::VARCHAR, sum(qty)::VARCHAR FROM read_parquet([${
      globs.map((g) => sqlString(g.replace('s3://scale/events', dataDir))).join(', ')}])`)).rows[0];
    t.check(`--bucket: node${i} reads its regions' objects from the bucket (${got[0]} rows, as DuckDB reads the local files)`,
      got.join('|') === want.join('|') ? [] : [`${got} vs ${want}`]);
    if (node !== node1) await node.end();
  }
}

const cols = 'id, region, day, category, qty, price, score, note';
await coord.query(`CREATE TABLE events_heap (LIKE events)`);
await coord.query(`COPY events_heap FROM ${sqlString(path.join(work, 'data/all.csv'))} (FORMAT csv)`);
await coord.query(`CREATE TABLE regions (region integer PRIMARY KEY, name text NOT NULL)`);
await coord.query(`INSERT INTO regions SELECT r, (ARRAY['north', 'south', 'east', 'west'])[r % 4 + 1]
                     FROM generate_series(0, ${REGIONS - 1}) r`);
await coord.query('ANALYZE events_heap, regions');

// [what, query over T, plan checks on the distributed table's plan]
const groupedOnNodes = { asyncScans: N, remoteAggregates: N };
const QUERIES = [
  ['aggregates over the whole table', `SELECT count(*), count(note), sum(qty), sum(price), avg(price), avg(qty),
      min(price), max(price), min(day), max(day), min(score), max(score), min(category), max(note) FROM T`, {}],
  ['aggregates merged from per-region partials', `SELECT sum(n), sum(nn), sum(q), sum(s), sum(s) / sum(n),
      min(lo), max(hi) FROM (SELECT region, count(*) n, count(note) nn, sum(qty) q, sum(price) s,
      min(day) lo, max(day) hi FROM T GROUP BY region) p`, { ...groupedOnNodes, localAggregate: true }],
  ['GROUP BY the partition key', `SELECT region, count(*), sum(price), avg(qty), min(day), max(score), max(note)
      FROM T GROUP BY region ORDER BY region`, { ...groupedOnNodes, localAggregate: false }],
  ['GROUP BY another column', `SELECT category, count(*), sum(price), avg(price), min(score)
      FROM T GROUP BY category ORDER BY category`, {}],
  ['GROUP BY another column, merged from per-region groups', `SELECT category, sum(n), sum(s), sum(s) / sum(n)
      FROM (SELECT region, category, count(*) n, sum(price) s FROM T GROUP BY region, category) p
      GROUP BY category ORDER BY category`, { ...groupedOnNodes, localAggregate: true }],
  ['GROUP BY the key and another column, HAVING', `SELECT region, category, count(*), sum(qty), avg(price)
      FROM T GROUP BY region, category HAVING sum(qty) > 0 ORDER BY region, category`,
  { ...groupedOnNodes, localAggregate: false, remote: /HAVING/ }],
  ['filter returning rows', `SELECT ${cols} FROM T WHERE qty > 48 AND day < '2024-02-01' ORDER BY id`,
    { asyncScans: N, orMergeAppend: true, remote: /WHERE .*qty > 48/ }],
  ['filter under GROUP BY the key', `SELECT region, count(*), sum(price) FROM T
      WHERE category IN ('alpha', 'kilo') AND price > 500 GROUP BY region ORDER BY region`,
  { ...groupedOnNodes, remote: /WHERE .*price > 500.*GROUP BY/ }],
  ['filter on the partition key', `SELECT count(*), sum(price), min(id) FROM T WHERE region IN (1, 3)`,
    { nodes: [...new Set([1, 3].map((r) => (r % N) + 1))] }],
  ['join with a coordinator table', `SELECT r.name, count(*), sum(e.price), avg(e.qty) FROM T e
      JOIN regions r USING (region) WHERE e.qty > 25 GROUP BY r.name ORDER BY r.name`, { asyncScans: N }],
  ['join with a coordinator table after per-region aggregates', `SELECT r.name, sum(n), sum(s)
      FROM (SELECT region, count(*) n, sum(price) s FROM T WHERE qty > 25 GROUP BY region) e
      JOIN regions r USING (region) GROUP BY r.name ORDER BY r.name`, { ...groupedOnNodes, localAggregate: true }],
  ['ORDER BY ... LIMIT', `SELECT id, price, note FROM T ORDER BY price DESC, id LIMIT 20`, { asyncScans: N, orMergeAppend: true }],
];

const sameRows = (a, b) => JSON.stringify(a) === JSON.stringify(b);
function diffRows(name, a, b) {
  if (a.length !== b.length) return [`${name}: ${a.length} rows, expected ${b.length}`];
  const i = a.findIndex((r, k) => JSON.stringify(r) !== JSON.stringify(b[k]));
  return i < 0 ? [] : [`${name} row ${i}: ${JSON.stringify(a[i])}, expected ${JSON.stringify(b[i])}`];
}

function planProblems(plan, want) {
  const p = [];
  const lines = plan.split('\n');
  const asyncScans = lines.filter((l) => /Async Foreign Scan/.test(l)).length;
  const remote = lines.filter((l) => /Remote SQL:/.test(l));
  // An ordered result may instead merge the nodes' sorted scans
  // (PostgreSQL 17 and 18 plan Merge Append, which runs no child asynchronously):
  // then every node must sort remotely.
  const merged = want.orMergeAppend && lines.some((l) => /^\s*(->\s+)?Merge Append\b/.test(l)) &&
    lines.filter((l) => /Foreign Scan on public\.events_node/.test(l)).length === N &&
    remote.length === N && remote.every((l) => /ORDER BY/.test(l));
  if (want.asyncScans !== undefined && asyncScans !== want.asyncScans && !merged)
    p.push(`${asyncScans} Async Foreign Scans, expected one per node (${want.asyncScans}); plan: ${lines.filter((l) => /->|^\S/.test(l)).map((l) => l.trim()).join(' | ')}`);
  if (want.remoteAggregates !== undefined) {
    const agg = remote.filter((l) => /\b(count|sum|avg|min|max)\(.*GROUP BY/.test(l)).length;
    if (agg !== want.remoteAggregates)
      p.push(`${agg} Remote SQL with the aggregates and GROUP BY, expected ${want.remoteAggregates}`);
  }
  if (want.localAggregate !== undefined) {
    const local = lines.some((l) => /^\s*(->\s+)?(Finalize |Partial )?(Hash|Group|Mixed)?Aggregate\b/.test(l));
    if (local !== want.localAggregate)
      p.push(want.localAggregate ? 'no coordinator Aggregate merging the nodes\' groups' : 'a coordinator Aggregate');
  }
  if (want.remote && !remote.every((l) => want.remote.test(l)))
    p.push(`a Remote SQL without ${want.remote}`);
  if (want.nodes) {
    const scanned = [...plan.matchAll(/Foreign Scan on public\.events_node(\d+)/g)].map((m) => Number(m[1])).sort();
    if (!sameRows(scanned, [...want.nodes].sort()))
      p.push(`nodes scanned ${JSON.stringify(scanned)}, expected only ${JSON.stringify(want.nodes)} (partition pruning)`);
  }
  return p;
}

for (const [what, sql, want] of QUERIES) {
  const on = (table) => sql.replace(/\bT\b/g, table);
  const dist = await rowsOf(coord, on('events'));
  const single = await rowsOf(coord, on('events_all'));
  const heap = await rowsOf(coord, on('events_heap'));
  const p = [...diffRows('single-node parquet_fdw vs heap', single, heap),
    ...diffRows('distributed vs single-node', dist, single)];
  if (heap.length === 0) p.push('the heap query returned no rows: it proves nothing');
  t.check(`${what}: distributed = single-node = heap (${dist.length} rows)`, p);
  if (Object.keys(want).length)
    t.check(`${what}: plan`, planProblems(await planOf(coord, on('events')), want));
}

// The merge docs/SCALE_OUT.md gives for avg (sums over counts of the
// nodes' groups) is PostgreSQL's avg, to the last digit.
{
  const merged = await rowsOf(coord, `SELECT sum(s) / sum(n), sum(q) / sum(n) FROM (SELECT region, count(*) n,
    sum(price) s, sum(qty) q FROM events GROUP BY region) p`);
  const avg = await rowsOf(coord, 'SELECT avg(price), avg(qty) FROM events_heap');
  t.check('avg merged as sum/count from the nodes = avg over the heap', diffRows('merged avg', merged, avg));
}

// A node runs the aggregate the coordinator sends it inside its parquet scan.
{
  const plan = await planOf(coord, 'SELECT region, count(*), sum(price) FROM events GROUP BY region');
  const m = plan.match(/Remote SQL: (.*)/);
  const nodePlan = m ? await planOf(node1, m[1]) : '';
  t.check('node1 runs the pushed aggregate in its parquet scan (Parquet Aggregate)',
    m && /Parquet Aggregate: count\(\*\), sum\(/.test(nodePlan) ? [] : [`node plan: ${nodePlan || plan}`]);
}

// enable_partitionwise_aggregate (on at the coordinator) leaves a plain
// parquet_fdw table's grouped scans and footer answers alone.
{
  const grouped = await planOf(coord, 'SELECT region, count(*), sum(price) FROM events_all GROUP BY region');
  const footer = await planOf(coord, 'SELECT count(*), max(day) FROM events_all');
  const p = [];
  if (!/Parquet Aggregate: count\(\*\), sum\(.*GROUP BY/.test(grouped)) p.push(`GROUP BY plan: ${grouped}`);
  if (!/Parquet Aggregate: count\(\*\), max\(.*from the footers/.test(footer)) p.push(`footer plan: ${footer}`);
  t.check('with enable_partitionwise_aggregate on, a parquet_fdw table aggregates in its scan and from its footers', p);
}

// COPY (SELECT ...) TO a file from the coordinator.
const out = path.join(work, 'out');
fs.mkdirSync(out, { recursive: true });
fs.chmodSync(out, 0o777);
const copyQueries = [
  ['rows', `SELECT ${cols} FROM T WHERE qty > 45 ORDER BY id`],
  ['groups', `SELECT region, category, count(*), sum(price), avg(qty) FROM T GROUP BY region, category ORDER BY 1, 2`],
];
for (const [what, sql] of copyQueries) {
  const files = {};
  for (const table of ['events', 'events_all', 'events_heap']) {
    files[table] = path.join(out, `${what}_${table}.csv`);
    await coord.query(`COPY (${sql.replace(/\bT\b/g, table)}) TO ${sqlString(files[table])} (FORMAT csv)`);
  }
  const [d, s, h] = ['events', 'events_all', 'events_heap'].map((k) => fs.readFileSync(files[k]));
  const p = [];
  if (!s.equals(h)) p.push('single-node and heap files differ');
  if (!d.equals(s)) p.push('the distributed file differs from the single-node one');
  if (h.length === 0) p.push('empty output');
  t.check(`COPY (${what}) TO csv from the coordinator: same bytes as single-node and heap (${d.length} bytes)`, p);
}
{
  const file = path.join(out, 'rows.parquet');
  await coord.query(`COPY (SELECT ${cols} FROM events WHERE qty > 45 ORDER BY id) TO ${sqlString(file)} (FORMAT parquet)`);
  const src = `read_parquet(${sqlString(path.join(work, 'data/*.parquet'))})`;
  const mine = `read_parquet(${sqlString(file)})`;
  const q = (a, b) => `SELECT count(*) FROM (SELECT ${cols} FROM ${a} EXCEPT ALL SELECT ${cols} FROM ${b}) d`;
  const [extra] = (await duckQuery(q(mine, `(SELECT * FROM ${src} WHERE qty > 45)`))).rows;
  const [missing] = (await duckQuery(q(`(SELECT * FROM ${src} WHERE qty > 45)`, mine))).rows;
  const [n] = (await duckQuery(`SELECT count(*) FROM ${mine}`)).rows;
  const ordered = (await duckQuery(`SELECT bool_and(id > prev) FROM (SELECT id, lag(id, 1, -1) OVER () prev FROM ${mine})`)).rows;
  const p = [];
  if (Number(extra[0]) || Number(missing[0])) p.push(`${extra[0]} rows not in DuckDB's query of the files, ${missing[0]} missing`);
  if (!Number(n[0])) p.push('no rows');
  if (ordered[0][0] !== true) p.push('rows not in id order');
  t.check(`COPY (rows) TO parquet from the coordinator: DuckDB reads DuckDB's own query of the files (${n[0]} rows)`, p);
}

await coord.end();
await node1.end();
if (s3) await s3.stop();
process.exit(t.summary(BUCKET ? 'scale_out_bucket' : 'scale_out'));
