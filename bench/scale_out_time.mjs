#!/usr/bin/env node
// Times one query for bench/scale_out.sh, in wall time and in CPU time of
// the backends that run it (read from /proc, so as root), because the data
// nodes of one machine share its cores: CPU time is what each node would
// spend on a machine of its own.
//
//   node bench/scale_out_time.mjs RUNS SOCKET_DIR PORT SETUP SQL [NODE_SOCKET_DIR:PORT ...]
//
// Connects to the server at SOCKET_DIR/PORT, runs SETUP (SET commands, or
// an empty string), runs SQL once to warm up and
// then RUNS times, and prints one JSON line: medians of the wall time, of
// the CPU time of its backend and, for each NODE given (the data nodes of a
// coordinator), of the CPU time of the postgres_fdw backend the coordinator
// keeps open there, all in milliseconds.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const pg = require('pg');

const [runsArg, host, port, setup, sql, ...nodeArgs] = process.argv.slice(2);
const runs = Number(runsArg);
if (!(runs > 0) || !host || !sql) {
  console.error('usage: scale_out_time.mjs RUNS SOCKET_DIR PORT SETUP SQL [NODE_SOCKET_DIR:PORT ...]');
  process.exit(2);
}
const tick = 1000 / 100; // USER_HZ: 100 on Linux
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * tick; // utime, stime (fields 14, 15)
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const client = (h, p) => new pg.Client({ host: h, port: Number(p), user: 'postgres', database: 'postgres' });

const c = client(host, port);
await c.connect();
const pid = (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p;
if (setup) await c.query(setup);
await c.query(sql);

// the coordinator's connections to the nodes exist after the warm-up
const nodePids = [];
for (const n of nodeArgs) {
  const [h, p] = n.split(':');
  const nc = client(h, p);
  await nc.connect();
  const r = await nc.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'postgres_fdw'`);
  await nc.end();
  if (r.rows.length !== 1) throw new Error(`${n}: ${r.rows.length} postgres_fdw backends, expected 1`);
  nodePids.push(r.rows[0].pid);
}

const wall = [];
const cpu = [];
const nodes = nodePids.map(() => []);
for (let i = 0; i < runs; i++) {
  const before = [cpuMs(pid), ...nodePids.map(cpuMs)];
  const t0 = process.hrtime.bigint();
  await c.query(sql);
  wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
  const after = [cpuMs(pid), ...nodePids.map(cpuMs)];
  cpu.push(after[0] - before[0]);
  nodePids.forEach((_, k) => nodes[k].push(after[k + 1] - before[k + 1]));
}
await c.end();
console.log(JSON.stringify({ wall: median(wall), cpu: median(cpu), nodes: nodes.map(median) }));
