#!/usr/bin/env node
// Nested-column benchmark (issue 3, "Benchmark"), driven by bench/nested.sh:
//
//   node bench/nested.mjs gen FILE ROWS     write the file with DuckDB
//   node bench/nested.mjs run FILE RUNS     time the queries through
//        parquet_fdw (PG* environment, a superuser) and in DuckDB
//        (threads = 1) on the same file; print medians and ratios. Exit
//        status 1 if a query's result differs between the two.
//
// The file: id BIGINT; l LIST<BIGINT> with 0..20 elements (10 on average),
// no NULLs; s STRUCT(a BIGINT, b DOUBLE, c VARCHAR, d INTEGER, e DATE), NULL
// in 1 row of 50; v a VARIANT object of 10 fields (f0..f9: integers,
// doubles, strings) shredded into all ten. Snappy, DuckDB's default row
// groups.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import { median } from './lib.mjs';

const require = createRequire(new URL('../test/js/package.json', import.meta.url));
const { DuckDBInstance } = require('@duckdb/node-api');
const pg = require('pg');

const sqlString = (s) => `'${String(s).replace(/'/g, "''")}'`;

// Each query: the PostgreSQL form (on tables nested_l, nested_s,
// nested_s_json) and DuckDB's on read_parquet(FILE) AS t.
const QUERIES = [
  { key: 'list', title: 'list<int64> -> bigint[]: count(l)',
    pg: 'SELECT count(l) FROM nested_l', duck: 'SELECT count(l) FROM t' },
  { key: 'list_sum', title: 'list<int64> -> bigint[]: sum of all elements',
    pg: 'SELECT sum(x) FROM nested_l, LATERAL unnest(l) AS x', duck: 'SELECT sum(x) FROM (SELECT unnest(l) AS x FROM t)' },
  { key: 'struct', title: 'struct of 5 -> composite: count(s)',
    pg: 'SELECT count(s) FROM nested_s', duck: 'SELECT count(s) FROM t' },
  { key: 'struct_fields', title: 'struct of 5 -> composite: every field aggregated',
    pg: 'SELECT sum((s).a), count((s).b), max((s).c COLLATE "C"), sum((s).d), max((s).e)::text FROM nested_s',
    duck: 'SELECT sum(s.a), count(s.b), max(s.c), sum(s.d), max(s.e)::VARCHAR FROM t' },
  { key: 'struct_json', title: 'struct of 5 -> jsonb (IMPORT default): count(s)',
    pg: 'SELECT count(s) FROM nested_s_json', duck: 'SELECT count(s) FROM t' },
  // the whole value turned into text forces every field to be assembled
  { key: 'variant', title: 'shredded VARIANT of 10 -> jsonb: whole value',
    pg: "SELECT count(*) FROM nested_v WHERE v::text <> ''", duck: "SELECT count(*) FROM t WHERE v::VARCHAR <> ''" },
  { key: 'variant_field', title: "shredded VARIANT of 10 -> jsonb: v ->> 'f3' only",
    pg: "SELECT sum((v ->> 'f3')::bigint) FROM nested_v", duck: "SELECT sum(variant_extract(v, 'f3')::BIGINT) FROM t" },
];

async function duck() {
  const inst = await DuckDBInstance.create(':memory:', {
    threads: '1', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false',
  });
  return inst.connect();
}

async function gen(file, rows) {
  const c = await duck();
  await c.run(`COPY (SELECT i AS id,
      list_transform(range((i * 7919) % 21), x -> i * 100 + x) AS l,
      CASE WHEN i % 50 = 7 THEN NULL ELSE struct_pack(
        a := i * 3, b := i / 7, c := 'name_' || (i % 1000), d := (i % 100000)::INTEGER,
        e := DATE '2000-01-01' + (i % 9000)::INTEGER) END AS s,
      {'f0': i, 'f1': i * 0.5, 'f2': 'name_' || (i % 977), 'f3': i % 1000, 'f4': i * 3,
       'f5': 'tag_' || (i % 13), 'f6': i / 3, 'f7': i % 7, 'f8': 'x' || i, 'f9': i + 1}::VARIANT AS v
    FROM range(${rows}) t(i)) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION snappy,
      SHREDDING {v: 'STRUCT(f0 BIGINT, f1 DOUBLE, f2 VARCHAR, f3 BIGINT, f4 BIGINT, f5 VARCHAR, f6 DOUBLE, f7 BIGINT, f8 VARCHAR, f9 BIGINT)'})`);
  const r = await c.runAndReadAll(`SELECT count(*), avg(len(l)), count(s) FROM read_parquet(${sqlString(file)})`);
  const md = await c.runAndReadAll(`SELECT count(DISTINCT row_group_id) FROM parquet_metadata(${sqlString(file)})`);
  const [n, avgLen, nStruct] = r.getRows()[0];
  console.log(`nested.mjs: ${file}: ${n} rows in ${md.getRows()[0][0]} row groups, ` +
    `${(fs.statSync(file).size / 1048576).toFixed(1)} MiB; ${Number(avgLen).toFixed(2)} list elements per row, ${nStruct} non-NULL structs`);
}

async function time(fn) {
  const t0 = process.hrtime.bigint();
  const res = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, res };
}

const canon = (row) => row.map((v) => (v === null ? null : String(v).replace(/\.0+$/, ''))).join('|');

async function run(file, runs) {
  const c = new pg.Client();
  await c.connect();
  await c.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
  await c.query('CREATE SERVER IF NOT EXISTS parquet_srv FOREIGN DATA WRAPPER parquet_fdw');
  await c.query(`DROP TYPE IF EXISTS bench_s CASCADE`);
  await c.query(`CREATE TYPE bench_s AS (a bigint, b float8, c text, d int, e date)`);
  for (const [t, cols] of [['nested_l', 'id bigint, l bigint[]'], ['nested_s', 'id bigint, s bench_s'],
    ['nested_s_json', 'id bigint, s jsonb'], ['nested_v', 'id bigint, v jsonb']]) {
    await c.query(`DROP FOREIGN TABLE IF EXISTS ${t}`);
    await c.query(`CREATE FOREIGN TABLE ${t} (${cols}) SERVER parquet_srv OPTIONS (filename ${sqlString(file)})`);
  }
  const d = await duck();
  await d.run(`CREATE VIEW t AS SELECT * FROM read_parquet(${sqlString(file)})`);

  let bad = 0;
  const lines = [];
  for (const q of QUERIES) {
    // one warm-up each (file in the page cache), then alternate
    const pgWarm = await c.query({ text: q.pg, rowMode: 'array' });
    const dWarm = await d.runAndReadAll(q.duck);
    const pgRes = canon(pgWarm.rows[0]);
    const dRes = canon(dWarm.getRows()[0]);
    const pgT = [];
    const dT = [];
    for (let i = 0; i < runs; i++) {
      pgT.push((await time(() => c.query(q.pg))).ms);
      dT.push((await time(() => d.runAndReadAll(q.duck))).ms);
    }
    const same = pgRes === dRes;
    if (!same) bad++;
    lines.push({ title: q.title, pg: median(pgT), duck: median(dT), same, pgRes, dRes });
  }
  // v ->> 'f3' reads only f3's shredded columns: pages read, field vs whole
  const pages = async (q) => (await c.query(`EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF, SUMMARY OFF) ${q}`)).rows[0]['QUERY PLAN'][0].Plan.Plans[0]['Data Pages Read'];
  const vWhole = lines.find((l) => l.title.includes('whole value'));
  const vField = lines.find((l) => l.title.includes("'f3' only"));
  const pWhole = await pages(QUERIES.find((q) => q.key === 'variant').pg);
  const pField = await pages(QUERIES.find((q) => q.key === 'variant_field').pg);
  await c.end();

  const w = Math.max(...lines.map((l) => l.title.length));
  console.log(`\n${'query'.padEnd(w)}  parquet_fdw ms  DuckDB ms  fdw/DuckDB  results`);
  for (const l of lines) {
    console.log(`${l.title.padEnd(w)}  ${l.pg.toFixed(0).padStart(14)}  ${l.duck.toFixed(0).padStart(9)}  ${(l.pg / l.duck).toFixed(2).padStart(10)}  ` +
      (l.same ? 'equal' : `DIFFER: fdw ${l.pgRes}, DuckDB ${l.dRes}`));
  }
  console.log(`(medians of ${runs} runs after one warm-up; DuckDB with threads = 1)`);
  console.log(`\nVARIANT: v ->> 'f3' vs the whole value through parquet_fdw: ${(vField.pg / vWhole.pg).toFixed(2)}x the time, ` +
    `${pField} vs ${pWhole} data pages read (${(pField / pWhole).toFixed(2)}x)`);
  return bad ? 1 : 0;
}

const [cmd, file, arg] = process.argv.slice(2);
const main = cmd === 'gen' ? () => gen(file, Number(arg)).then(() => 0)
  : cmd === 'run' ? () => run(file, Number(arg))
    : async () => { console.error('usage: nested.mjs gen FILE ROWS | run FILE RUNS'); return 2; };
main().then((code) => process.exit(code), (err) => { console.error(err.stack || String(err)); process.exit(1); });
