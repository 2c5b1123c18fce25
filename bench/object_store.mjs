// The timing part of bench/object_store.sh:
//
//   node --openssl-legacy-provider bench/object_store.mjs WORK RUNS FILES LATENCY_MS...
//
// WORK holds lineitem.parquet; PostgreSQL through the PG* environment
// variables with parquet_fdw created.  Two stores serve it: nginx
// (bench/nginx_store.mjs: a port per latency, which it adds itself, and
// almost no CPU), and the local S3 of the tests (test/js/lib/s3_emulator.mjs,
// signed requests) behind a proxy that holds every request for the latency
// being measured; both count requests and the bytes they send.  Each query
// runs once to warm caches (the footer cache, the page cache of the local
// file and of s3rver's copy), then RUNS times for each reader; the median
// is reported.
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { median } from './lib.mjs';

const require = createRequire(path.resolve('test/js/package.json'));
const pg = require('pg');
const { startS3 } = await import(path.resolve('test/js/lib/s3_emulator.mjs'));
const { duckQuery, sqlString } = await import(path.resolve('test/js/lib/duck.mjs'));

const [WORK, RUNS_S, FILES_S, ...LAT] = process.argv.slice(2);
const RUNS = Number(RUNS_S);
const FILES = Number(FILES_S);
const LATENCIES = LAT.map(Number);
const FILE = path.join(WORK, 'lineitem.parquet');
const KEY = { id: 'AKIABENCH000000001', secret: 'bench/Secret+Key=01' };

const s3 = await startS3({ credentials: new Map([[KEY.id, { secret: KEY.secret }]]), buckets: ['bench'] });
const { startNginxStore } = await import(path.resolve('bench/nginx_store.mjs'));
const NGINX_ROOT = path.join(WORK, 'nginx-root');
const { mkdirSync, linkSync } = await import('node:fs');
mkdirSync(path.join(NGINX_ROOT, 'bench'), { recursive: true });
linkSync(FILE, path.join(NGINX_ROOT, 'bench', 'lineitem.parquet'));
const ngx = await startNginxStore(NGINX_ROOT, path.join(WORK, 'nginx'), LATENCIES);

// A TCP proxy that holds what the client sends for `latency` ms (each
// request then reaches the store that much later) and passes the answers
// on untouched; it counts requests (request lines), listings and the bytes
// answered (headers included).
async function latencyProxy(target) {
  const upstream = new URL(target);
  const p = { stats: { requests: 0, bytes: 0, lists: 0, listed: [] }, latency: 0 };
  const server = net.createServer((client) => {
    const up = net.connect(Number(upstream.port), upstream.hostname);
    client.on('data', (d) => {
      const text = d.toString('latin1');
      p.stats.requests += (text.match(/^(GET|HEAD|PUT|POST|DELETE) /gm) || []).length;
      for (const m of text.matchAll(/^GET \S*\?(\S*list-type=2\S*) /gm)) {
        const params = new URLSearchParams(m[1]);
        p.stats.lists++;
        p.stats.listed.push(`${params.get('prefix')}${params.get('delimiter') ? ` (delimiter ${params.get('delimiter')})` : ''}`);
      }
      if (p.latency > 0) setTimeout(() => up.write(d), p.latency);
      else up.write(d);
    });
    up.on('data', (d) => { p.stats.bytes += d.length; });
    up.pipe(client);
    client.on('error', () => up.destroy());
    up.on('error', () => client.destroy());
    client.on('close', () => up.destroy());
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  p.endpoint = `http://127.0.0.1:${server.address().port}`;
  p.close = () => new Promise((r) => server.close(r));
  return p;
}
const viaS3 = await latencyProxy(s3.endpoint);
// nginx adds the latency itself: a proxy in Node would take the CPU the
// backend needs
const viaNginx = new Map(LATENCIES.map((ms) => [ms, {
  endpoint: ngx.endpoint(ms),
  get stats() { return ngx.stats(ms); },
}]));

console.error('== uploading');
await s3.putFile('bench', 'lineitem.parquet', FILE);
// the hive dataset: FILES small files in FILES partitions (k1=0..9/k2=...)
const HIVE = path.join(WORK, 'hive');
await duckQuery(`COPY (SELECT i AS id, i % 10 AS k1, (i // 10) % ${FILES / 10} AS k2, i * 0.5 AS v FROM range(${FILES * 100}) t(i))
  TO ${sqlString(HIVE)} (FORMAT parquet, PARTITION_BY (k1, k2))`);
const { readdirSync, statSync } = await import('node:fs');
const hiveFiles = readdirSync(HIVE, { recursive: true }).filter((f) => statSync(path.join(HIVE, f)).isFile());
await s3.putDir('bench', 'hive/', HIVE, hiveFiles);

const client = new pg.Client();
await client.connect();
const q = async (sql) => (await client.query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v) => v } })).rows;
for (const s of [
  'DROP SERVER IF EXISTS bench_local CASCADE', 'DROP SERVER IF EXISTS bench_s3 CASCADE',
  'CREATE SERVER bench_local FOREIGN DATA WRAPPER parquet_fdw',
  `CREATE SERVER bench_s3 FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${viaS3.endpoint}', url_style 'path', region 'us-east-1')`,
  `CREATE USER MAPPING FOR CURRENT_USER SERVER bench_s3 OPTIONS (key_id '${KEY.id}', secret '${KEY.secret}')`,
  ...LATENCIES.flatMap((ms) => [
    `DROP SERVER IF EXISTS bench_nginx_${ms} CASCADE`,
    `CREATE SERVER bench_nginx_${ms} FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${ngx.endpoint(ms)}', url_style 'path')`,
    `CREATE USER MAPPING FOR CURRENT_USER SERVER bench_nginx_${ms}`,
  ]),
]) await q(s);
const ddl = (await q(`SELECT parquet_fdw.create_table_sql('${FILE}', 'li_local', 'bench_local')`))[0][0];
await q(ddl);
await q(ddl.replace('li_local', 'li_s3').replace('bench_local', 'bench_s3').replace(FILE, 's3://bench/lineitem.parquet'));
for (const ms of LATENCIES)
  await q(ddl.replace('li_local', `li_nginx_${ms}`).replace('bench_local', `bench_nginx_${ms}`).replace(FILE, 's3://bench/lineitem.parquet'));
await q(`CREATE FOREIGN TABLE hive_s3 (id bigint, v double precision, k1 bigint, k2 bigint) SERVER bench_s3
  OPTIONS (filename 's3://bench/hive/', hive_partitioning 'true')`);
const nrows = Number((await q('SELECT count(*) FROM li_local'))[0][0]);
const point = (await q(`SELECT l_orderkey FROM li_local OFFSET ${Math.floor(nrows / 2)} LIMIT 1`))[0][0];

// the bytes of the column chunks a query needs, from the footer
async function chunkBytes(columns) {
  const r = await q(`SELECT sum(total_compressed_size) FROM parquet_fdw.metadata('${FILE}')
    WHERE path_in_schema IN (${columns.map((c) => `'${c}'`).join(', ')})`);
  return Number(r[0][0]);
}

const QUERIES = [
  { key: 'filtered_sum', sql: 'SELECT sum(l_extendedprice * l_discount) FROM T WHERE l_quantity < 24',
    columns: ['l_extendedprice', 'l_discount', 'l_quantity'] },
  { key: 'q1_grouping', sql: `SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
      sum(l_extendedprice * (1 - l_discount)), avg(l_discount), count(*) FROM T
      WHERE l_shipdate <= date '1998-09-02' GROUP BY 1, 2 ORDER BY 1, 2` },
  { key: 'full_rows', sql: `SELECT * FROM T OFFSET ${nrows - 5}` },
  { key: 'point_lookup', sql: `SELECT * FROM T WHERE l_orderkey = ${point} ORDER BY l_linenumber` },
];

async function timed(sql) {
  const t0 = process.hrtime.bigint();
  const rows = await q(sql);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, rows };
}

let bad = 0;
const table = [];
for (const lat of LATENCIES) {
  for (const [store, tableName, proxy] of [['nginx', `li_nginx_${lat}`, viaNginx.get(lat)], ['s3rver', 'li_s3', viaS3]]) {
    proxy.latency = lat;
    for (const query of QUERIES) {
      const local = query.sql.replace(/\bT\b/g, 'li_local');
      const remote = query.sql.replace(/\bT\b/g, tableName);
      const want = await q(local);
      const got = await q(remote);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        bad++;
        console.error(`${store} ${query.key}: the bucket's rows differ from the local file's`);
      }
      const lt = [];
      const rt = [];
      let requests = 0;
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        lt.push((await timed(local)).ms);
        const r0 = proxy.stats.requests;
        const b0 = proxy.stats.bytes;
        rt.push((await timed(remote)).ms);
        requests = proxy.stats.requests - r0;
        bytes = proxy.stats.bytes - b0;
      }
      const row = { latency: lat, store, query: query.key, local_ms: median(lt), s3_ms: median(rt), requests, bytes };
      if (query.columns) row.needed = await chunkBytes(query.columns);
      table.push(row);
      console.error(`${lat} ms ${store} ${query.key}: local ${row.local_ms.toFixed(0)} ms, bucket ${row.s3_ms.toFixed(0)} ms, ${requests} requests, ${bytes} bytes`);
    }
  }
}

// the whole hive dataset from a new connection (no footer cached): its
// footers fetched in batches, against the local tree
await q(`CREATE FOREIGN TABLE hive_local (id bigint, v double precision, k1 bigint, k2 bigint) SERVER bench_local
  OPTIONS (filename '${HIVE}', hive_partitioning 'true')`);
async function coldTimed(sql) {
  const c = new pg.Client();
  await c.connect();
  const t0 = process.hrtime.bigint();
  const rows = (await c.query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v) => v } })).rows;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  await c.end();
  return { ms, rows };
}
const hiveTable = [];
for (const lat of LATENCIES) {
  viaS3.latency = lat;
  for (const [what, sql] of [['count(*) (the footers)', 'SELECT count(*) FROM T'], ['sum(v) (the data)', 'SELECT sum(v * 2)::bigint FROM T']]) {
    const lt = [];
    const rt = [];
    let requests = 0;
    for (let i = 0; i < RUNS; i++) {
      const l = await coldTimed(sql.replace(/\bT\b/, 'hive_local'));
      lt.push(l.ms);
      const r0 = viaS3.stats.requests;
      const r = await coldTimed(sql.replace(/\bT\b/, 'hive_s3'));
      rt.push(r.ms);
      requests = viaS3.stats.requests - r0;
      if (JSON.stringify(l.rows) !== JSON.stringify(r.rows)) {
        bad++;
        console.error(`hive dataset ${what}: ${JSON.stringify(r.rows)} vs local ${JSON.stringify(l.rows)}`);
      }
    }
    hiveTable.push({ lat, what, local: median(lt), s3: median(rt), requests });
    console.error(`${lat} ms hive dataset ${what}, cold: local ${median(lt).toFixed(0)} ms, s3rver ${median(rt).toFixed(0)} ms, ${requests} requests`);
  }
}

// planning a two-partition query over the hive dataset: requests, listings
viaS3.latency = 0;
const r0 = viaS3.stats.requests;
const l0 = viaS3.stats.lists;
const listed0 = viaS3.stats.listed.length;
const plan = (await q('EXPLAIN SELECT count(*), sum(v) FROM hive_s3 WHERE k1 = 3 AND k2 IN (5, 6)')).map((r) => r[0]).join('\n');
const planRequests = viaS3.stats.requests - r0;
const planLists = viaS3.stats.lists - l0;
const hiveGot = await q('SELECT count(*), sum(v * 2)::bigint FROM hive_s3 WHERE k1 = 3 AND k2 IN (5, 6)');
const hiveWant = await duckQuery(`SELECT count(*)::VARCHAR, sum(v * 2)::BIGINT::VARCHAR FROM read_parquet(${sqlString(`${HIVE}/**/*.parquet`)}, hive_partitioning = true) WHERE k1 = 3 AND k2 IN (5, 6)`);
if (JSON.stringify(hiveGot) !== JSON.stringify(hiveWant.rows)) {
  bad++;
  console.error(`hive: ${JSON.stringify(hiveGot)} vs DuckDB ${JSON.stringify(hiveWant.rows)}`);
}

console.log('\n| added latency | store | query | local ms | bucket ms | bucket / local | requests | bytes fetched | fetched / needed |');
console.log('|---:|---|---|---:|---:|---:|---:|---:|---:|');
for (const r of table)
  console.log(`| ${r.latency} ms | ${r.store} | ${r.query} | ${r.local_ms.toFixed(0)} | ${r.s3_ms.toFixed(0)} | ${(r.s3_ms / r.local_ms).toFixed(2)} | ${r.requests} | ${r.bytes} | ${r.needed ? (r.bytes / r.needed).toFixed(3) : ''} |`);
console.log(`\n| added latency | hive dataset of ${hiveFiles.length} files, a new connection | local ms | s3rver ms | s3 / local | requests |`);
console.log('|---:|---|---:|---:|---:|---:|');
for (const r of hiveTable)
  console.log(`| ${r.lat} ms | ${r.what} | ${r.local.toFixed(0)} | ${r.s3.toFixed(0)} | ${(r.s3 / r.local).toFixed(2)} | ${r.requests} |`);
console.log(`\nhive dataset of ${hiveFiles.length} files, planning WHERE k1 = 3 AND k2 IN (5, 6): ${planRequests} requests, ${planLists} of them listing pages:`);
for (const l of viaS3.stats.listed.slice(listed0, listed0 + planLists))
  console.log(`        ${l}`);
console.log(plan.split('\n').filter((l) => /Files/.test(l)).join('\n'));
console.log('DuckDB reading the bucket: not measured (its httpfs extension cannot be installed here).');

await client.end();
await viaS3.close();
await ngx.close();
await s3.stop();
process.exit(bad ? 1 : 0);
