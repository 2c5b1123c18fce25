#!/usr/bin/env node
// Differential tester of aggregation, top-N and vector scans: random
// queries (aggregates over columns and expressions with CASE/AND/OR,
// function calls, FILTER, DISTINCT, WHERE, GROUP BY of 0-3 keys, HAVING,
// ORDER BY + LIMIT; ORDER BY + LIMIT [OFFSET] of rows; and rows of
// expressions under quals with function calls, which vector scans compute)
// run on a heap table and on foreign tables over
// the same rows written by our COPY TO and by DuckDB, at 0 and 2 workers;
// every answer must be the heap's.  A third of the queries run on the
// foreign tables with work_mem = 64kB, so that grouped scans with many
// groups spill (the heap's always with enough memory not to).
//
//   node test/js/differential.mjs [--queries N] [--rows N] [--seed N] [--dir D]
//                                 [--keep]  (the tables stay, to look into a failure)
//
// The heap table is the source of truth (PostgreSQL's own aggregates over
// rows generated in SQL).  Results compare as text, exactly, except float
// columns of plans that do not feed the rows in file order (workers, a
// Sort before GroupAggregate, DISTINCT): those within 1e-12 relative, as
// PostgreSQL's own float sums depend on the order its plan feeds them.  A
// query that fails on the heap must fail on the foreign table with an error
// of the same class (which of two bad rows is reported first is not fixed
// by SQL).  Last line: "differential: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { duck, sqlString } from './lib/duck.mjs';

const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const QUERIES = Number(opt('queries', 1000));
const ROWS = Number(opt('rows', 20000));
const SEED = Number(opt('seed', 20261125));
const DIR = opt('dir', '/tmp/parquet_fdw_test/differential');

// mulberry32: the queries are a function of the seed
let state = SEED >>> 0;
function rand() {
  state = (state + 0x6D2B79F5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const chance = (p) => rand() < p;
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

// column, type, formula over g (1..ROWS) and random(); NULLs where noted
const COLUMNS = [
  ['id', 'bigint', 'g'],
  ['k', 'integer', 'CASE WHEN random() < 0.05 THEN NULL ELSE (random() * 6)::int END'],
  ['i2', 'smallint', 'CASE WHEN random() < 0.1 THEN NULL ELSE (random() * 200 - 100)::int END'],
  ['i4', 'integer', 'CASE WHEN random() < 0.1 THEN NULL ELSE (random() * 2e6 - 1e6)::int END'],
  ['i4big', 'integer', 'CASE WHEN random() < 0.0005 THEN 2147483000 + (random() * 600)::int ELSE (random() * 1000)::int END'],
  ['i8', 'bigint', 'CASE WHEN random() < 0.1 THEN NULL ELSE (random() * 1e15 - 5e14)::bigint END'],
  ['i8big', 'bigint', 'CASE WHEN random() < 0.3 THEN 9223372036854775000 - (random() * 1000)::bigint ELSE (random() * 100)::bigint END'],
  ['f4', 'real', 'CASE WHEN random() < 0.1 THEN NULL ELSE (random() * 1000 - 500)::real END'],
  ['f8', 'double precision', 'CASE WHEN random() < 0.1 THEN NULL ELSE random() * 1e6 - 5e5 END'],
  // NaN, infinities and -0 in a few rows (most groups have none)
  ['fx', 'double precision', "CASE WHEN random() < 0.1 THEN NULL WHEN random() < 0.0005 THEN (ARRAY['NaN', 'Infinity', '-Infinity', '-0'])[1 + (random() * 3)::int]::float8 ELSE random() * 10 END"],
  ['f4x', 'real', "CASE WHEN random() < 0.1 THEN NULL WHEN random() < 0.0005 THEN (ARRAY['NaN', 'Infinity', '-Infinity', '-0'])[1 + (random() * 3)::int]::real ELSE (random() * 10)::real END"],
  ['f8big', 'double precision', 'CASE WHEN random() < 0.001 THEN 1e307 * random() ELSE random() END'],
  ['d', 'date', "CASE WHEN random() < 0.1 THEN NULL ELSE date '2000-01-01' + (random() * 3650)::int END"],
  ['ts', 'timestamp', "CASE WHEN random() < 0.1 THEN NULL ELSE timestamp '2000-01-01' + random() * interval '3650 days' END"],
  ['tstz', 'timestamptz', "CASE WHEN random() < 0.1 THEN NULL ELSE timestamptz '2000-01-01 00:00+00' + random() * interval '3650 days' END"],
  ['tm', 'time', "CASE WHEN random() < 0.1 THEN NULL ELSE time '00:00' + random() * interval '86399 seconds' END"],
  ['t', 'text', "CASE WHEN random() < 0.05 THEN NULL ELSE (ARRAY['apple', 'banana', 'cherry', 'Éclair', 'fig', '', 'date'])[1 + (random() * 6)::int] END"],
  ['s', 'text', 'CASE WHEN random() < 0.1 THEN NULL ELSE substr(md5(g::text), 1, 1 + (random() * 6)::int) END'],
  ['vc', 'varchar(8)', "CASE WHEN random() < 0.1 THEN NULL ELSE (ARRAY['x', 'yy', 'zzz', 'X'])[1 + (random() * 3)::int] END"],
  ['b', 'boolean', 'CASE WHEN random() < 0.1 THEN NULL ELSE random() < 0.5 END'],
  ['n', 'numeric(12,2)', 'CASE WHEN random() < 0.1 THEN NULL ELSE round((random() * 2e6 - 1e6)::numeric, 2) END'],
  ['n4', 'numeric(6,4)', 'CASE WHEN random() < 0.1 THEN NULL ELSE round((random() * 20 - 10)::numeric, 4) END'],
  // precision over 18: FIXED_LEN_BYTE_ARRAY, 128-bit in the scan
  ['nw', 'numeric(30,6)', "CASE WHEN random() < 0.1 THEN NULL ELSE round((random() * 2e20 - 1e20)::numeric, 6) END"],
];

const INTS = ['i2', 'i4', 'i8', 'k'];
const FLOATS = ['f4', 'f8'];
const ORDERED = ['d', 'ts', 'tstz', 'tm', 't', 's', 'vc', 'n', 'n4', 'nw'];
const NUMERICS = ['n', 'n4', 'nw'];

function intExpr() {
  const c = pick(INTS);
  switch (int(0, 12)) {
    case 0: return `${c} + ${pick(INTS)}`;
    case 1: return `${c} * 3`;
    case 2: return `${c} - 7`;
    case 3: return `${c} / ${pick(['3', '-1', 'k'])}`;
    case 4: return `${c} % ${pick(['4', 'k'])}`;
    case 5: return `-${c}`;
    case 6: return `${c}::bigint * ${c}`;
    case 7: return 'i4big + i4big';
    // column + constant (offset_sums.c), some rows past the type's range
    case 8: return pick(['i8big * 2', 'i4big + 1000', 'i2 - 32700::smallint', 'k + 2147483600', 'i8 - 5']);
    // CASE, AND, OR: branches and operands PostgreSQL skips are not evaluated
    case 9: return pick([`CASE WHEN i2 <> 0 THEN i4 / i2 ELSE ${c} END`, `CASE WHEN b THEN ${c} ELSE -${c} END`,
      `CASE WHEN k > 4 THEN i8big * 2 WHEN k IS NULL THEN 0 END`, `CASE WHEN ${c} < 0 THEN -1 WHEN ${c} > 0 THEN 1 ELSE 0 END`,
      `CASE k WHEN 1 THEN ${c} WHEN 2 THEN -${c} ELSE 0 END`, `CASE WHEN t < 'cherry' THEN ${c} WHEN vc = 'x' THEN 1 END`]);
    // immutable functions through fmgr, once per dictionary entry
    case 11: return pick(['length(t)', `length(s) * ${c}`, 'ascii(s)', "strpos(t, 'a')", 'length(t || s)',
      'extract(hour FROM ts)', 'extract(microseconds FROM tm)',
      'num_nulls(t, s)', "length(regexp_replace(s, '[0-9]', '', 'g'))"]);
    case 10: return pick([`CASE WHEN i2 = 0 OR i4 / i2 > 100 THEN k ELSE ${c} END`,
      `CASE WHEN k IS NOT NULL AND k <> 0 AND i4 % k = 0 THEN 1 ELSE CASE WHEN b THEN 2 END END`,
      `CASE WHEN NOT (i4big > 1000 OR b) THEN i4big + i4big ELSE ${c} END`]);
    default: return c;
  }
}

function floatExpr() {
  const f = chance(0.15) ? pick(['fx', 'f4x']) : pick(FLOATS);
  switch (int(0, 10)) {
    case 0: return `${f} * 2`;
    case 1: return `${f} + ${pick(FLOATS)}`;
    case 2: return `f8 / ${pick(['f4', '3', 'i2'])}`;
    case 3: return `${f} - 1.5`;
    case 4: return `${pick(INTS)}::float8 * ${f}`;
    case 5: return `f8big * f8big`;
    case 6: return `f8 * (1 - f4)`;
    case 7: return pick([`CASE WHEN f4 <> 0 THEN f8 / f4 ELSE ${f} END`, `CASE WHEN f8big < 0.5 THEN f8big * f8big END`,
      `CASE WHEN i2 > 0 AND f8 > 0 THEN ${f} WHEN i2 IS NULL THEN 1.5 ELSE -${f} END`]);
    default: return f;
  }
}

// numeric + - * and casts, exact in the scan while bounds keep them in 64 bits
function numericExpr() {
  return pick(['n', 'n4', 'n * 2', 'n - n4', 'n * n4', 'n4 * n4 * n4', '-n + 1.25', 'k::numeric * n',
    'n * (1 - n4 * 0.01)', 'i2::numeric + n4']);
}

function aggregate() {
  switch (int(0, 15)) {
    case 0: return 'count(*)';
    case 1: return `count(${pick([...INTS, ...FLOATS, ...ORDERED, 'b'])})`;
    case 2: case 3: return `sum(${intExpr()})`;
    case 4: return `avg(${intExpr()})`;
    case 5: return `sum(${floatExpr()})`;
    case 6: return `avg(${floatExpr()})`;
    case 7: return `${pick(['min', 'max'])}(${intExpr()})`;
    case 8: return `${pick(['min', 'max'])}(${floatExpr()})`;
    case 9: return `${pick(['min', 'max'])}(${pick(ORDERED)})`;
    // function results as text min/max arguments; a negative substring
    // length is an error of class 22, as the arithmetic ones (which of two
    // failing arguments reports first is not fixed by SQL, their class is)
    case 10: return `${pick(['min', 'max'])}(${pick(['lower(t)', 'upper(vc)', 'substr(s, 2)',
      "regexp_replace(t, '[aeiou]', '', 'g')", 'substr(t, 1, i2 + 95)', "date_trunc('month', ts)", 't || vc'])})`;
    case 11: return chance(0.5) ? `${pick(['bool_and', 'bool_or'])}(b)`
      : chance(0.5) ? `${pick(['sum', 'avg'])}(${pick(NUMERICS)})`
        : pick([`${pick(['sum', 'avg', 'min', 'max'])}(${numericExpr()})`, 'max(n::float8)',
          'count(*) FILTER (WHERE n > n4 * 1000)', `sum(${numericExpr()}) FILTER (WHERE n4 < 0)`]);
    // FILTER: rows it rejects are not evaluated (no division by zero)
    case 12: return pick([`sum(${pick(INTS)}) FILTER (WHERE b)`, `count(*) FILTER (WHERE ${pick(INTS)} > 0)`,
      'sum(i4 / i2) FILTER (WHERE i2 <> 0)', `avg(${floatExpr()}) FILTER (WHERE k IS NOT NULL AND d > date '2005-01-01')`,
      `max(t) FILTER (WHERE t LIKE 'b%')`, 'count(fx) FILTER (WHERE fx < 5)',
      'count(*) FILTER (WHERE i2 <> 0 AND i4 / i2 > 100)', `bool_and(i2 = 0 OR i4 / i2 > 5)`,
      `min(${pick(ORDERED)}) FILTER (WHERE b OR k IS NULL)`, `sum(${intExpr()}) FILTER (WHERE NOT b)`,
      `count(*) FILTER (WHERE t >= s)`, `sum(${pick(INTS)}) FILTER (WHERE t = 'fig' OR vc <> 'x')`,
      `${pick(['min', 'max'])}(CASE WHEN b THEN t ELSE s END)`, `max(CASE k WHEN 1 THEN 'one' WHEN 2 THEN vc ELSE t END)`]);
    // DISTINCT (distinct.c); float sums and averages of DISTINCT stay PostgreSQL's
    case 13: return pick([`count(DISTINCT ${pick(['k', 't', 'b', 's', 'f4x', 'fx', 'i8', 'n4', 'd', 'tm'])})`,
      'sum(DISTINCT i2)', 'avg(DISTINCT i4 % 100)', 'max(DISTINCT d)', 'sum(DISTINCT n4)', 'count(DISTINCT lower(t))',
      'sum(DISTINCT f4)', 'count(DISTINCT i2) FILTER (WHERE b)']);
    // not computed by the scan: PostgreSQL aggregates these
    case 14: return `string_agg(t, ',' ORDER BY t)`;
    default: return `sum(i8)`;
  }
}

const KEYS = ['k', 't', 'b', 'd', 'i2 % 5', 'vc', 'i4 / 400000', 'tm', 'f4', 's', 'n4',
  'CASE WHEN i2 < 0 THEN -1 WHEN i2 > 0 THEN 1 END', 'k > 2 AND b',
  "CASE t WHEN 'apple' THEN 'a' WHEN 'fig' THEN s ELSE vc END", "t < 'c'", 'n4 * 10', 'nw',
  'lower(t)', "regexp_replace(t, '[aeiou]', '', 'g')", 'length(s)', "date_trunc('year', ts)",
  'substr(vc, 1, 1)', 'num_nulls(t)', 'extract(minute FROM ts)', 'extract(dow FROM d)'];

function condition() {
  switch (int(0, 11)) {
    case 0: return `${pick(INTS)} > ${int(-50, 50)}`;
    case 1: return `${pick([...INTS, ...FLOATS, 'd', 't'])} IS NULL`;
    case 2: return `${pick([...INTS, 'f8', 't'])} IS NOT NULL`;
    case 3: return `t = ${sqlString(pick(['apple', 'fig', 'Éclair']))}`;
    case 4: return "t LIKE 'b%'";
    case 5: return `d < date '${2000 + int(0, 10)}-06-01'`;
    case 6: return 'f8 > 0';
    case 7: return pick(['b', 'NOT b']);
    case 8: return 'i2 BETWEEN -10 AND 50';
    case 9: return 'k IN (1, 2, 3)';
    case 10: return pick(['f4 < 100', 'fx > 5', 'fx IS NOT NULL', 'n > 0', 'n4 IS NULL', 'n4 BETWEEN -5 AND 2.5',
      'nw < 0', 'n IN (0.5, -3.25) OR n > 500000',
      // function calls: the grouped scan's own quals
      'length(t) > 4', "lower(vc) = 'x'", 'extract(dow FROM d) < 3', "regexp_replace(s, '[0-9]', '', 'g') <> ''"]);
    default: return `i8 < ${int(-4e14, 4e14)}`;
  }
}

// ORDER BY ... LIMIT without aggregates (top-N scans); id last: a total order
function topNQuery(table) {
  const cols = Array.from({ length: int(1, 3) }, () => pick(['id', ...INTS, ...FLOATS, ...ORDERED, 'b', 'fx']));
  const keys = Array.from({ length: int(1, 3) }, () =>
    `${pick([...INTS, ...FLOATS, ...ORDERED, 'b', 'fx'])}${pick(['', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST'])}`);
  let sql = `SELECT id, ${cols.join(', ')} FROM ${table}`;
  const conds = Array.from({ length: pick([0, 0, 1]) }, condition);
  if (conds.length) sql += ` WHERE ${conds.join(' AND ')}`;
  sql += ` ORDER BY ${keys.join(', ')}, id LIMIT ${pick([1, 5, 10, 100])}`;
  if (chance(0.3)) sql += ` OFFSET ${int(0, 20)}`;
  return sql;
}

// rows of expressions under quals (vector scans: quals beyond the batch
// filter and projected expressions in the scan); id first: a total order
function rowsQuery(table) {
  const exprs = Array.from({ length: int(1, 3) }, () => pick([intExpr(), floatExpr(), 'lower(t)',
    "regexp_replace(s, '[0-9]', '', 'g')", "date_trunc('month', ts)", 'extract(dow FROM d)', 'length(t) + k',
    'CASE WHEN b THEN t ELSE vc END', 'substr(s, 2)', 't || vc', 'i2 < i4 OR b']));
  const conds = Array.from({ length: pick([0, 1, 1, 2]) }, () => (chance(0.6)
    ? pick(['length(t) > 4', "lower(vc) = 'x'", 'extract(dow FROM d) < 3', "regexp_replace(s, '[0-9]', '', 'g') <> ''",
      'i4 / i2 > 10', 'f8 * 2 > f4', "upper(t) LIKE '%A%'", 'k + i2 > 3', 'CASE WHEN b THEN i2 > 0 ELSE i4 < 0 END'])
    : condition()));
  let sql = `SELECT id, ${exprs.join(', ')} FROM ${table}`;
  if (conds.length) sql += ` WHERE ${conds.join(' AND ')}`;
  sql += ' ORDER BY id';
  if (chance(0.2)) sql += ` LIMIT ${int(1, 100)}`;
  return sql;
}

// sum(|x|) for sum(x), avg(|x|) for avg(x): how far float rounding can move
// a sum depends on the magnitudes of its terms, not on what they cancel to
function absolute(agg) {
  const m = /^(sum|avg)\(/.exec(agg);
  if (!m) return agg;
  let depth = 0;
  for (let i = m[0].length - 1; i < agg.length; i++) {
    if (agg[i] === '(') depth++;
    else if (agg[i] === ')' && --depth === 0)
      return `${m[1]}(abs(${agg.slice(m[0].length, i)}))${agg.slice(i + 1)}`;
  }
  throw new Error(`unbalanced ${agg}`);
}

// the select list of the last aggregate query() made, its float sums and
// averages over absolute values (same keys, same row order); null for top-N
let magnitudes = null;

function query(table) {
  magnitudes = null;
  if (chance(0.2)) return topNQuery(table);
  if (chance(0.15)) return rowsQuery(table);
  const keys = [];
  const nkeys = pick([0, 0, 1, 1, 1, 2, 2, 3]);
  while (keys.length < nkeys) {
    const k = pick(KEYS);
    if (!keys.includes(k)) keys.push(k);
  }
  // a key the other keys decide, which grouped scans leave out of the groups
  const base = keys.find((k) => ['k', 'd', 'b'].includes(k));
  if (base && chance(0.4))
    keys.push({ k: `k * 3 - ${int(0, 9)}`, d: `d + ${int(1, 30)}`, b: 'NOT b' }[base]);
  const aggs = Array.from({ length: int(1, 4) }, aggregate);
  const out = [...keys, ...aggs];
  let sql = `SELECT ${out.join(', ')} FROM ${table}`;
  magnitudes = `SELECT ${[...keys, ...aggs.map(absolute)].join(', ')}`;
  const conds = Array.from({ length: pick([0, 0, 1, 1, 2]) }, condition);
  if (conds.length) sql += ` WHERE ${conds.join(' AND ')}`;
  if (keys.length) sql += ` GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`;
  if (keys.length && chance(0.2)) sql += ` HAVING count(*) > ${int(1, 50)}`;
  sql += ` ORDER BY ${out.map((_, i) => i + 1).join(', ')}`;
  if (chance(0.2)) sql += ` LIMIT ${int(1, 10)}`;
  return sql;
}

const FLOAT_OIDS = new Set([700, 701]);

// rows of a result (text), or its error
async function run(client, sql) {
  try {
    const r = await client.query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v) => v } });
    return { rows: r.rows, floats: r.fields.map((f) => (FLOAT_OIDS.has(f.dataTypeID) ? f.dataTypeID : 0)) };
  } catch (e) {
    return { error: e };
  }
}

// float8 within 1e-12 relative.  A float4 sum rounds to float4 (2^-24
// relative) at each of up to thousands of additions of values up to 500,
// and cancellation can leave a small result: 1e-4 relative plus 1e-2.
// Relative to the sum of the terms' magnitudes m where known: the rounding
// of terms of 5e5 that cancel to 2e3 moves the result by 1e-12 of 5e5.
function close(a, b, oid, m) {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  const scale = Math.max(Math.abs(x), Math.abs(y), Math.abs(Number(m ?? 0)) || 0);
  return Math.abs(x - y) <= (oid === 700 ? 1e-4 * scale + 1e-2 : 1e-12 * scale);
}

// '' when same, else what differs; mag: the magnitudes' rows, or none
function differ(want, got, tolerant, mag) {
  if (want.error || got.error) {
    if (want.error && got.error) {
      const same = want.error.code.slice(0, 2) === got.error.code.slice(0, 2);
      return same ? '' : `errors ${want.error.code} ${want.error.message} vs ${got.error.code} ${got.error.message}`;
    }
    return want.error ? `heap fails (${want.error.message}), foreign table returns rows`
      : `foreign table fails: ${got.error.code} ${got.error.message}`;
  }
  if (want.rows.length !== got.rows.length) return `${want.rows.length} rows vs ${got.rows.length}`;
  for (let i = 0; i < want.rows.length; i++)
    for (let j = 0; j < want.rows[i].length; j++) {
      const a = want.rows[i][j];
      const b = got.rows[i][j];
      if (a === b) continue;
      if (tolerant && want.floats[j] && close(a, b, want.floats[j], mag?.rows[i]?.[j])) continue;
      return `row ${i + 1} column ${j + 1}: ${a} vs ${b}`;
    }
  return '';
}

async function setup(client) {
  fs.mkdirSync(DIR, { recursive: true });
  fs.chmodSync(DIR, 0o777);
  const ours = path.join(DIR, 'ours.parquet');
  const duckFile = path.join(DIR, 'duck.parquet');
  for (const f of [ours, duckFile]) fs.rmSync(f, { force: true });
  const cols = COLUMNS.map(([n, t]) => `${n} ${t}`).join(', ');
  await client.query(`DROP TABLE IF EXISTS diff_heap;
    DROP FOREIGN TABLE IF EXISTS diff_ours, diff_duck;
    CREATE TABLE diff_heap (${cols})`);
  await client.query('SELECT setseed(0.25)');
  await client.query(`INSERT INTO diff_heap SELECT ${COLUMNS.map((c) => c[2]).join(', ')}
    FROM generate_series(1, ${ROWS}) AS g ORDER BY g`);
  await client.query('VACUUM ANALYZE diff_heap');
  await client.query(`COPY diff_heap TO ${sqlString(ours)} WITH (FORMAT parquet, row_group_size ${Math.ceil(ROWS / 5)})`);
  const c = await duck();
  await c.run(`COPY (SELECT * FROM read_parquet(${sqlString(ours)})) TO ${sqlString(duckFile)}
    (FORMAT parquet, ROW_GROUP_SIZE ${Math.ceil(ROWS / 3)})`);
  fs.chmodSync(duckFile, 0o644);
  await client.query(`CREATE FOREIGN TABLE diff_ours (${cols}) SERVER diff_srv OPTIONS (filename ${sqlString(ours)});
    CREATE FOREIGN TABLE diff_duck (${cols}) SERVER diff_srv OPTIONS (filename ${sqlString(duckFile)})`);
}

async function main() {
  const client = new pg.Client({ options: '-c client_min_messages=warning' });
  await client.connect();
  await client.query(`CREATE EXTENSION IF NOT EXISTS parquet_fdw;
    DROP SERVER IF EXISTS diff_srv CASCADE;
    CREATE SERVER diff_srv FOREIGN DATA WRAPPER parquet_fdw`);
  await setup(client);
  // heap plans feed rows in insertion order: HashAggregate over a Seq Scan
  await client.query(`SET enable_sort = off; SET extra_float_digits = 1;
    SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0`);

  let passed = 0;
  let failed = 0;
  let pushed = 0;
  let parallelGrouped = 0;
  let partitioned = 0;
  let vector = 0;
  const failures = [];
  for (let q = 0; q < QUERIES; q++) {
    const sql = query('TBL');
    const magSql = magnitudes && sql.replace(/^SELECT .* FROM TBL/, `${magnitudes} FROM diff_heap`);
    let mag = null;
    // the heap's HashAggregate fits in memory, so that it needs no
    // (unstable) Sort below it and sees each group's rows in file order
    await client.query(`SET work_mem = '64MB'`);
    await client.query('SET max_parallel_workers_per_gather = 0');
    const heapSql = sql.replace('TBL', 'diff_heap');
    const heapPlan = (await run(client, `EXPLAIN (COSTS OFF) ${heapSql}`)).rows?.flat().join('\n') ?? '';
    const want = await run(client, heapSql);
    // a small hash_mem makes grouped scans with many groups spill
    await client.query(`SET work_mem = '${chance(0.3) ? '64kB' : '4MB'}'`);
    const heapInOrder = !/GroupAggregate|Sort\n.*->.*Sort/.test(heapPlan) && !/DISTINCT|ORDER BY t\)/.test(sql);
    for (const table of ['diff_ours', 'diff_duck'])
      for (const workers of [0, 2]) {
        const fsql = sql.replace('TBL', table);
        await client.query(`SET max_parallel_workers_per_gather = ${workers}`);
        const plan = (await run(client, `EXPLAIN (COSTS OFF) ${fsql}`)).rows?.flat().join('\n') ?? '';
        const grouped = /Parquet Aggregate: (?!.*from the footers)|Parquet Top-N: /.test(plan);
        if (grouped && workers === 0) pushed++;
        if (/Parquet (Aggregate|Top-N): PARTIAL/.test(plan)) parallelGrouped++;
        if (/Shared Partitions: /.test(plan)) partitioned++;
        if (/Parquet (Row Filter|Computed Columns): /.test(plan)) vector++;
        const inOrder = workers === 0 && heapInOrder && !/GroupAggregate|Gather/.test(plan);
        const got = await run(client, fsql);
        let d = differ(want, got, !inOrder);
        if (d && !inOrder && magSql && !want.error && !got.error) {
          if (!mag) {
            await client.query(`SET max_parallel_workers_per_gather = 0`);
            mag = await run(client, magSql);
            await client.query(`SET max_parallel_workers_per_gather = ${workers}`);
          }
          if (!mag.error && mag.rows.length === want.rows.length) d = differ(want, got, true, mag);
        }
        // a plan that stops early (LIMIT over sorted groups) may never
        // evaluate the row that fails: without LIMIT both must fail alike
        if (d && !want.error !== !got.error && / LIMIT \d+( OFFSET \d+)?$/.test(sql)) {
          const failing = want.error ? fsql : heapSql;
          const code = (want.error || got.error).code;
          // the query itself, not count(*) over it, which may drop the
          // failing expression from its target list
          const all = await run(client, failing.replace(/ LIMIT \d+( OFFSET \d+)?$/, ''));
          if (all.error && all.error.code === code) d = '';
        }
        // PostgreSQL's own Sort + GroupAggregate over the foreign scan feeds a
        // group's rows in its sort's order, not the heap plan's: with float
        // cancellation that moves more than 1e-12 of the result.  Such a plan
        // is checked against the heap under the same plan shape and settings
        // (the same rows in the same order reach the same sort).
        if (d && !grouped && !want.error && !got.error && /GroupAggregate/.test(plan)) {
          await client.query('SET enable_hashagg = off');
          const again = await run(client, heapSql);
          await client.query('RESET enable_hashagg');
          if (!differ(again, got, !inOrder)) d = '';
        }
        if (d) {
          failed++;
          failures.push(`${fsql} [workers ${workers}${grouped ? ', grouped scan' : ''}]: ${d}`);
        } else passed++;
      }
  }
  if (!process.argv.includes('--keep'))
    await client.query(`DROP TABLE diff_heap; DROP SERVER diff_srv CASCADE`);
  await client.end();
  for (const f of failures.slice(0, 30)) console.log(`FAIL ${f}`);
  console.log(`${QUERIES} queries over ${ROWS} rows (seed ${SEED}), each on 2 files at 0 and 2 workers; grouped and top-N scans at 0 workers: ${pushed} of ${2 * QUERIES}, parallel grouped and top-N scans at 2 workers: ${parallelGrouped} partial, ${partitioned} partitioned, of ${2 * QUERIES}; vector scans: ${vector} of ${4 * QUERIES} runs`);
  // the tester must exercise the grouped scan, not only PostgreSQL's Aggregate
  if (pushed < QUERIES / 2) {
    console.log(`FAIL only ${pushed} queries ran as grouped scans`);
    failed++;
  }
  if (vector < QUERIES / 20) {
    console.log(`FAIL only ${vector} runs were vector scans`);
    failed++;
  }
  console.log(`differential: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  console.log('differential: 0 passed, 1 failed');
  process.exit(1);
});
