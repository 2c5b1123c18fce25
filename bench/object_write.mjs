// The timing part of bench/object_write.sh:
//
//   node --openssl-legacy-provider bench/object_write.mjs WORK RUNS LATENCY_MS...
//
// PostgreSQL through the PG* environment variables, with li_heap loaded
// (bench/load_lineitem.sql).  COPY li_heap TO, each in a new connection:
// a local Parquet file, a local CSV file, and s3:// URLs answered by
// nginx (bench/nginx_store.mjs startNginxWriteStore: a port per added
// latency, almost no CPU); one warm-up of each, then RUNS rounds in
// rotating order, medians reported.  Each COPY's peak backend memory is
// RssAnon sampled every 10 ms minus RssAnon before it; each bucket COPY's
// requests come from nginx's access log.  Then one COPY through the local
// S3 of the tests (s3rver behind the SigV4-checking front): the object
// downloaded must be the local file byte for byte (exit 1 otherwise), and
// its time is shown for what the emulator costs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { median } from './lib.mjs';

const require = createRequire(path.resolve('test/js/package.json'));
const pg = require('pg');
const { startS3 } = await import(path.resolve('test/js/lib/s3_emulator.mjs'));
const { startNginxWriteStore } = await import(path.resolve('bench/nginx_store.mjs'));

const [WORK, RUNS_S, ...LAT] = process.argv.slice(2);
const RUNS = Number(RUNS_S);
const LATENCIES = LAT.map(Number);
const KEY = { id: 'AKIABENCH000000001', secret: 'bench/Secret+Key=01' };
const LOCAL = path.join(WORK, 'out.parquet');
const CSV = path.join(WORK, 'out.csv');

const ngx = await startNginxWriteStore(path.join(WORK, 'nginx'), LATENCIES);
const s3 = await startS3({ credentials: new Map([[KEY.id, { secret: KEY.secret }]]), buckets: ['bench'] });

async function connect() {
  const c = new pg.Client();
  await c.connect();
  return c;
}

{
  const c = await connect();
  for (const ms of LATENCIES) {
    await c.query(`CREATE SERVER ngx_${ms} FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${ngx.endpoint(ms)}', url_style 'path')`);
    await c.query(`CREATE USER MAPPING FOR CURRENT_USER SERVER ngx_${ms} OPTIONS (key_id '${KEY.id}', secret '${KEY.secret}')`);
  }
  await c.query(`CREATE SERVER s3emu FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', url_style 'path')`);
  await c.query(`CREATE USER MAPPING FOR CURRENT_USER SERVER s3emu OPTIONS (key_id '${KEY.id}', secret '${KEY.secret}')`);
  await c.end();
}

const rssAnon = (pid) => Number(/^RssAnon:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

// One COPY in a new connection: { ms, peak_kB }.
async function timed(sql) {
  const c = await connect();
  const pid = (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p;
  await c.query("LOAD 'parquet_fdw'");
  const before = rssAnon(pid);
  let peak = before;
  const timer = setInterval(() => { peak = Math.max(peak, rssAnon(pid)); }, 10);
  const t = process.hrtime.bigint();
  await c.query(sql);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  clearInterval(timer);
  peak = Math.max(peak, rssAnon(pid));
  await c.end();
  return { ms, peak_kB: peak - before };
}

const targets = [
  { key: 'file', title: 'COPY TO parquet, local file', sql: `COPY li_heap TO '${LOCAL}' WITH (FORMAT parquet)` },
  { key: 'csv', title: 'COPY TO csv, local file', sql: `COPY li_heap TO '${CSV}' WITH (FORMAT csv)` },
  ...LATENCIES.map((ms) => ({
    key: `s3_${ms}`, ms, title: `COPY TO parquet, s3:// (nginx, +${ms} ms per request)`,
    sql: `COPY li_heap TO 's3://bench/out.parquet' WITH (FORMAT parquet, server 'ngx_${ms}')`,
  })),
];
const results = new Map(targets.map((t) => [t.key, { runs: [], requests: null }]));

// Requests of one bucket COPY, by kind.
function kinds(reqs) {
  const k = { create: 0, part: 0, complete: 0, put: 0, other: 0 };
  for (const [method, , uri] of reqs) {
    if (method === 'POST' && /\?uploads/.test(uri)) k.create++;
    else if (method === 'PUT' && /partNumber=/.test(uri)) k.part++;
    else if (method === 'POST' && /uploadId=/.test(uri)) k.complete++;
    else if (method === 'PUT') k.put++;
    else k.other++;
  }
  return k;
}

async function run(t, record) {
  const seen = t.ms !== undefined ? ngx.requests(t.ms).length : 0;
  process.stderr.write(`${t.key} `);
  const r = await timed(t.sql);
  if (t.ms !== undefined) {
    const reqs = ngx.requests(t.ms).slice(seen);
    if (reqs.some(([, status]) => status !== 200)) throw new Error(`${t.key}: nginx answered ${reqs.map(([, s]) => s)}`);
    r.requests = kinds(reqs);
  }
  if (record) results.get(t.key).runs.push(r);
}

console.error('== warm-up, then timing');
for (const t of targets) await run(t, false);
for (let i = 0; i < RUNS; i++)
  for (let j = 0; j < targets.length; j++) await run(targets[(i + j) % targets.length], true);
console.error('');

// the bytes: through the SigV4-checking local S3, then compared
const emu = await timed(`COPY li_heap TO 's3://bench/out.parquet' WITH (FORMAT parquet, server 's3emu')`);
await timed(`COPY li_heap TO '${LOCAL}' WITH (FORMAT parquet)`);
const sha = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const localBytes = fs.readFileSync(LOCAL);
const stored = fs.readFileSync(s3.storedFile('bench', 'out.parquet'));
const same = sha(localBytes) === sha(stored);
const parts = s3.stats.writes.partSizes;

const med = (k, f) => median(results.get(k).runs.map(f));
const file = med('file', (r) => r.ms);
const mib = (kB) => `${(kB / 1024).toFixed(1)} MiB`;
const row = (cols) => `| ${cols.join(' | ')} |`;
console.log('');
console.log(`COPY li_heap (${(localBytes.length / 1048576).toFixed(1)} MiB of Parquet, snappy) — medians of ${RUNS} runs, a new connection each:`);
console.log('');
console.log(row(['target', 'median ms', 'vs local file', 'target ratio', 'peak RssAnon', 'requests (create / part / complete / put)']));
console.log(row(['---', '---:', '---:', '---:', '---:', '---']));
for (const t of targets) {
  const m = med(t.key, (r) => r.ms);
  const goal = t.ms === 0 ? '<= 1.2' : t.ms > 0 ? '<= 1.5' : '';
  const req = results.get(t.key).runs[0].requests;
  console.log(row([t.title, m.toFixed(0), (m / file).toFixed(2), goal, mib(med(t.key, (r) => r.peak_kB)),
    req ? `${req.create} / ${req.part} / ${req.complete} / ${req.put}${req.other ? ` (+${req.other} other)` : ''}` : '']));
}
console.log(row(['COPY TO parquet, s3:// (s3rver behind the SigV4 front, once)', emu.ms.toFixed(0), (emu.ms / file).toFixed(2), '', mib(emu.peak_kB),
  `${s3.stats.writes.created} / ${parts.length} / ${s3.stats.writes.completed} / ${s3.stats.writes.puts}`]));
console.log('');
console.log(`Object through s3rver equals the local file byte for byte: ${same ? 'yes' : 'NO'} (${stored.length} bytes; parts of ${[...new Set(parts)].join(', ')} bytes)`);
console.log('Peak RssAnon: the backend\'s private memory, sampled every 10 ms during the COPY, minus before it (shared buffers excluded).');
console.log('Bound for a bucket: what the local file takes + (parts_in_flight + 1) x part_size (4 in flight and the one being filled, 8 MB each).');

await ngx.close();
await s3.stop();
process.exit(same ? 0 : 1);
