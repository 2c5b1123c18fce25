#!/usr/bin/env node
// Pruning on key paths of nested columns read as jsonb (issue 17, section
// 4): shredded VARIANT fields ("v->>'name' = text", "(v->>'price')::numeric
// > 10") and struct fields of a struct declared jsonb ("(s->>'a')::int =
// 5").  DuckDB writes a file of 4 sorted row groups whose leaves' statistics
// separate them (and Bloom filters for a repeating field); in row group 2 a
// few rows hold "price" as a DOUBLE, which DuckDB puts in the field's
// residual "value" column: those rows must still be found, so that row
// group must never be pruned by price.  For each qual the rows through
// parquet_fdw with every pruning kind on, and with all of them off, must
// equal DuckDB's answer over the same file, the row groups read must be the
// ones that can hold a match, and "Row Groups Pruned by Variant Fields" /
// "by Nested Fields" must count the row groups the qual excludes (0 for
// quals that must not prune).  hyparquet-writer writes a second shredded
// file (with a mistyped value in one row group too), checked the same way
// against the rows computed in JS.
//
//   node check_variant_pruning.mjs [--dir DIR]
//
// PostgreSQL through the PG* environment variables (superuser).  Prints
// PASS/FAIL per qual, then "variant_pruning: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { connectParquet, foreignScan, PRUNING_GUCS as GUCS, stageDir } from './lib/pruning.mjs';
import { counter } from './lib/stage.mjs';

const { dir, done } = stageDir('pqfdw-variant-prune-');
const file = path.join(dir, 'variant_prune.parquet');
const hypFile = path.join(dir, 'variant_prune_hyp.parquet');

const ROWS = 8192;
const ROW_GROUP = 2048;
const GROUPS = ROWS / ROW_GROUP;

// Every 7th variant is SQL NULL, every 11th a string (not an object), every
// 5th object lacks "name"; rows 4100..4110 (row group 2) hold price as the
// DOUBLE 99999.5, not the shredded BIGINT.  "g" repeats even numbers in
// every row group: only Bloom filters can exclude an odd one.  Struct s: a
// NULL struct every 13th row, a NULL field b every 3rd.
async function writeDuckFile() {
  const obj = (price, withName) => `{'price': ${price}, ` +
    (withName ? "'name': 'n' || lpad(i::VARCHAR, 5, '0'), " : '') +
    "'d': (i / 100.0)::DECIMAL(9,2), 'x': i * 0.5::DOUBLE, 'g': ((i % 50) * 2)::BIGINT, " +
    "'c': {'z': i::INTEGER}, 'extra': i % 3}::VARIANT";
  await duckQuery(`COPY (
    SELECT i AS id,
      CASE WHEN i % 7 = 0 THEN NULL
        WHEN i % 11 = 0 THEN 'not an object'::VARIANT
        WHEN i BETWEEN 4100 AND 4110 THEN ${obj('99999.5::DOUBLE', true)}
        WHEN i % 5 = 0 THEN ${obj('i::BIGINT', false)}
        ELSE ${obj('i::BIGINT', true)} END AS v,
      CASE WHEN i % 13 = 0 THEN NULL ELSE
        {'a': i::INTEGER, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 'k' || lpad(i::VARCHAR, 5, '0') END,
         'c': {'d': (i * 2)::BIGINT}, 'f': (i * 0.25)::FLOAT} END AS s
    FROM range(${ROWS}) t(i) ORDER BY i
  ) TO ${sqlString(file)} (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP},
    SHREDDING {v: 'STRUCT(price BIGINT, name VARCHAR, d DECIMAL(9,2), x DOUBLE, g BIGINT, c STRUCT(z INTEGER))'})`);
  fs.chmodSync(file, 0o644);
}

const J = (k) => `(v::JSON->>'${k}')`;

// [table, PostgreSQL qual, DuckDB qual, row groups read, counter, its value]
// (a counter value of null: the line must be absent)
const V = 'Row Groups Pruned by Variant Fields';
const N = 'Row Groups Pruned by Nested Fields';
const CASES = [
  // price: row group 2 holds mistyped prices in its residual: always read
  ['vt', "(v->>'price')::numeric = 1000", `TRY_CAST(${J('price')} AS DECIMAL(18,3)) = 1000`, 2, V, 2],
  ['vt', "(v->>'price')::numeric > 9000", `TRY_CAST(${J('price')} AS DECIMAL(18,3)) > 9000`, 1, V, 3],
  ['vt', "(v->>'price')::numeric = 99999.5", `TRY_CAST(${J('price')} AS DECIMAL(18,3)) = 99999.5`, 1, V, 3],
  ['vt', "(v->>'price')::numeric BETWEEN 6500 AND 7000",
    `TRY_CAST(${J('price')} AS DECIMAL(18,3)) BETWEEN 6500 AND 7000`, 2, V, 2],
  ['vt', "(v->>'price')::numeric < 0", `TRY_CAST(${J('price')} AS DECIMAL(18,3)) < 0`, 1, V, 3],
  // name: typed in every row that has it
  ['vt', "v->>'name' = 'n01001'", `${J('name')} = 'n01001'`, 1, V, 3],
  ['vt', "v->>'name' = 'n01000'", `${J('name')} = 'n01000'`, 1, V, 3],	// a row without name
  ['vt', "v->>'name' IN ('n01001', 'n07001')", `${J('name')} IN ('n01001', 'n07001')`, 2, V, 2],
  ['vt', "v->>'name' > 'n06000' COLLATE \"C\"", `${J('name')} > 'n06000'`, 2, V, 2],
  ['vt', "v->>'name' = 'zzz'", `${J('name')} = 'zzz'`, 0, V, 4],
  ['vt', "(v->>'d')::numeric > 70", `TRY_CAST(${J('d')} AS DECIMAL(18,3)) > 70`, 1, V, 3],
  ['vt', "(v->>'d')::numeric = 20.47", `TRY_CAST(${J('d')} AS DECIMAL(18,3)) = 20.47`, 1, V, 3],
  ['vt', "(v->>'x')::float8 < 100", `TRY_CAST(${J('x')} AS DOUBLE) < 100`, 1, V, 3],
  // a float chunk without a NaN count may hold NaN above its max: row
  // group 0 cannot be excluded by "= 1500"
  ['vt', "(v->>'x')::float8 = 1500", `TRY_CAST(${J('x')} AS DOUBLE) = 1500`, 2, V, 2],
  ['vt', "(v->'c'->>'z')::int = 3001", `TRY_CAST(v::JSON->'c'->>'z' AS INTEGER) = 3001`, 1, V, 3],
  ['vt', "(v->>'g')::bigint = 51", `TRY_CAST(${J('g')} AS BIGINT) = 51`, 0, V, 4],	// Bloom filters alone
  ['vt', "(v->>'g')::bigint = 50", `TRY_CAST(${J('g')} AS BIGINT) = 50`, 4, V, 0],
  ['vt', "((v->>'price')::numeric = 1000 OR v->>'name' = 'n07001')",
    `TRY_CAST(${J('price')} AS DECIMAL(18,3)) = 1000 OR ${J('name')} = 'n07001'`, 3, V, 1],
  // containment: the first scalar whose key has a typed leaf decides
  ['vt', `v @> '{"name": "n01001"}'`, `json_contains(v::JSON, '{"name": "n01001"}')`, 1, V, 3],
  ['vt', `v @> '{"price": 1000}'`, `json_contains(v::JSON, '{"price": 1000}')`, 2, V, 2],
  // jsonb orders keys shorter first: "x" (a DOUBLE: no numeric leaf), then "name"
  ['vt', `v @> '{"x": 3500.5, "name": "n07001"}'`, `json_contains(v::JSON, '{"x": 3500.5, "name": "n07001"}')`, 1, V, 3],
  ['vt', `v @> '{"price": "1000"}'`, `json_contains(v::JSON, '{"price": "1000"}')`, 4, V, 0],	// a string: no leaf
  ['vt', `v @> '{"c": {"z": 3001}}'`, `json_contains(v::JSON, '{"c": {"z": 3001}}')`, 4, V, null],	// no scalar at a key: not a pruning qual
  // must not prune: a DOUBLE read as numeric (the shortest text is not the
  // binary value), a number compared as text, a key that is not shredded
  ['vt', "(v->>'x')::numeric < 100", `TRY_CAST(${J('x')} AS DOUBLE) < 100`, 4, V, 0],
  ['vt', "v->>'price' = '1001'", `${J('price')} = '1001'`, 4, V, 0],
  ['vt', "v->>'extra' = '1'", `${J('extra')} = '1'`, 4, V, 0],	// reads no shredded field but one
  ['vt', "(v->>'extra')::int = 2 AND v->>'name' IS NOT NULL", `${J('extra')} = '2' AND ${J('name')} IS NOT NULL`, 4, V, 0],
  // a struct declared jsonb
  ['st', "(s->>'a')::int = 4321", 's.a = 4321', 1, N, 3],
  ['st', "(s->>'a')::numeric < 1500", 's.a < 1500', 1, N, 3],
  ['st', "(s->>'a')::bigint >= 7000", 's.a >= 7000', 1, N, 3],
  ['st', "s->>'b' = 'k04321'", "s.b = 'k04321'", 1, N, 3],
  ['st', "s->>'b' = 'k04320'", "s.b = 'k04320'", 1, N, 3],	// a NULL field
  ['st', "(s->'c'->>'d')::bigint > 16000", 's.c.d > 16000', 1, N, 3],
  ['st', "(s->>'f')::real < 100", 's.f < 100', 1, N, 3],
  ['st', "(s->>'a')::int = 99999", 's.a = 99999', 0, N, 4],
  ['st', `s @> '{"a": 4321}'`, 's.a = 4321', 1, N, 3],
  ['st', "s->>'a' = '4321'", 's.a = 4321', 4, N, 0],
  ['st', "(s->>'f')::float8 > 2000", 's.f > 2000', 4, N, 0],	// a FLOAT's text as double
];

const ids = (rows) => rows.map((x) => Number(x.id)).join(',');

// The rows of one qual with pruning on and off, and the counters with it on.
async function run(client, table, qual) {
  const sel = `SELECT id FROM ${table} WHERE ${qual}`;
  for (const g of GUCS) await client.query(`SET ${g} = on`);
  const on = ids((await client.query(`${sel} ORDER BY id`)).rows);
  const node = await foreignScan(client, sel);
  for (const g of GUCS) await client.query(`SET ${g} = off`);
  const off = ids((await client.query(`${sel} ORDER BY id`)).rows);
  const offNode = await foreignScan(client, sel);
  return { on, off, node, offRead: offNode['Row Groups Read'] };
}

function compare(problems, got, want, expectRead, groups, ctr, ctrValue) {
  if (got.on !== want) problems.push(`pruning on: rows ${got.on.slice(0, 80)} but expected ${want.slice(0, 80)}`);
  if (got.off !== want) problems.push(`pruning off: rows ${got.off.slice(0, 80)} but expected ${want.slice(0, 80)}`);
  if (got.offRead !== groups) problems.push(`pruning off read ${got.offRead} row groups`);
  if (got.node['Row Groups Read'] !== expectRead)
    problems.push(`read ${got.node['Row Groups Read']} row groups, expected ${expectRead}`);
  const c = got.node[ctr] ?? null;
  if (c !== ctrValue) problems.push(`${ctr} ${c}, expected ${ctrValue}`);
}

// hyparquet-writer: 4 row groups of 1000 objects, shredded price (INT64) and
// name (STRING); in row group 2 one price is the double 99999.5 (residual).
const HYP_ROWS = 4000;
function hypData() {
  const data = [];
  for (let i = 0; i < HYP_ROWS; i++) {
    if (i % 9 === 0) data.push(null);
    else if (i === 2500) data.push({ price: 99999.5, name: `m${String(i).padStart(5, '0')}` });
    else data.push({ price: BigInt(i), name: `m${String(i).padStart(5, '0')}` });
  }
  return data;
}

const HYP_CASES = [
  // [qual, JS truth, row groups read]
  // row group 2 (the residual's) is read for every price qual
  ["(v->>'price')::numeric = 1234", (o) => Number(o.price) === 1234, 2],
  ["(v->>'price')::numeric > 3500", (o) => Number(o.price) > 3500, 2],
  ["(v->>'price')::numeric < 0", (o) => Number(o.price) < 0, 1],
  ["v->>'name' = 'm00777'", (o) => o.name === 'm00777', 1],
  ["v->>'price' = '99999.5'", (o) => o.price === 99999.5, 4],	// a number as text: not prunable
];

async function checkHyparquet(client, check) {
  const data = hypData();
  fs.writeFileSync(hypFile, Buffer.from(parquetWriteBuffer({
    columnData: [
      { name: 'id', data: data.map((_, i) => BigInt(i)), type: 'INT64' },
      { name: 'v', data, type: 'VARIANT', shredding: { price: 'INT64', name: 'STRING' }, columnIndex: true },
    ],
    rowGroupSize: 1000,
    pageSize: 2048,
  })));
  fs.chmodSync(hypFile, 0o644);
  await client.query('DROP FOREIGN TABLE IF EXISTS ht');
  await client.query(`CREATE FOREIGN TABLE ht (id bigint, v jsonb) SERVER parquet_srv
    OPTIONS (filename ${sqlString(hypFile)})`);
  for (const [qual, pred, expectRead] of HYP_CASES) {
    const problems = [];
    const want = data.map((o, i) => (o !== null && pred(o) ? i : -1)).filter((i) => i >= 0).join(',');
    let got;
    try {
      got = await run(client, 'ht', qual);
    } catch (e) {
      check(`hyparquet-writer: ${qual}`, [`error: ${e.message}`]);
      continue;
    }
    compare(problems, got, want, expectRead, 4, V, 4 - expectRead);
    const pages = got.node['Pages Pruned by Page Index'] ?? 0;
    if (qual === "v->>'name' = 'm00777'" && !(pages > 0))
      problems.push(`no page pruned by the typed leaf's page index (${pages})`);
    check(`hyparquet-writer: ${qual} (read ${got.node['Row Groups Read']}, pages pruned ${pages})`, problems);
  }
}

// A flat text column declared jsonb: its key paths have no leaf, and its
// dictionary (our COPY TO writes encoding stats that prove every page uses
// it) holds jsonb documents, not the values of "t->>'k'": nothing may prune.
async function checkFlat(client, check) {
  const flat = path.join(dir, 'variant_prune_flat.parquet');
  await client.query("LOAD 'parquet_fdw'");
  await client.query('DROP TABLE IF EXISTS vp_flat_heap');
  await client.query(`CREATE TABLE vp_flat_heap AS SELECT i AS id, '{"k": "v' || (i % 5) || '"}' AS t
    FROM generate_series(0, ${ROWS - 1}) i`);
  await client.query(`COPY vp_flat_heap TO ${sqlString(flat)} WITH (FORMAT parquet, row_group_size ${ROW_GROUP})`);
  await client.query('DROP FOREIGN TABLE IF EXISTS vp_flat');
  await client.query(`CREATE FOREIGN TABLE vp_flat (id int, t jsonb) SERVER parquet_srv
    OPTIONS (filename ${sqlString(flat)})`);
  for (const qual of ["t->>'k' = 'v3'", "t->>'k' IN ('v1', 'zz')"]) {
    const problems = [];
    const want = ids((await client.query(`SELECT id FROM vp_flat_heap
      WHERE ${qual.replace('t->>', 't::jsonb->>')} ORDER BY id`)).rows);
    const got = await run(client, 'vp_flat', qual);
    compare(problems, got, want, GROUPS, GROUPS, N, 0);
    check(`flat text column declared jsonb: ${qual} (read ${got.node['Row Groups Read']})`, problems);
  }
}

async function main() {
  const { check, summary } = counter();
  await writeDuckFile();
  const client = await connectParquet();
  for (const t of ['vt', 'st'])
    await client.query(`DROP FOREIGN TABLE IF EXISTS ${t}`);
  await client.query(`CREATE FOREIGN TABLE vt (id bigint, v jsonb) SERVER parquet_srv
    OPTIONS (filename ${sqlString(file)})`);
  await client.query(`CREATE FOREIGN TABLE st (id bigint, s jsonb) SERVER parquet_srv
    OPTIONS (filename ${sqlString(file)})`);

  for (const [table, pgQual, duckQual, expectRead, ctr, ctrValue] of CASES) {
    const problems = [];
    const want = ids((await duckQuery(`SELECT id FROM read_parquet(${sqlString(file)})
      WHERE ${duckQual} ORDER BY id`)).rows.map((r) => ({ id: r[0] })));
    let got;
    try {
      got = await run(client, table, pgQual);
    } catch (e) {
      check(pgQual, [`error: ${e.message}`]);
      continue;
    }
    compare(problems, got, want, expectRead, GROUPS, ctr, ctrValue);
    check(`${pgQual} (read ${got.node['Row Groups Read']}, ${ctr.replace('Row Groups Pruned by ', '')} ` +
      `${got.node[ctr] ?? null})`, problems);
  }
  await checkHyparquet(client, check);
  await checkFlat(client, check);
  await client.end();
  done();
  process.exit(summary('variant_pruning'));
}

main().catch((e) => {
  console.error(e);
  console.log('variant_pruning: 0 passed, 1 failed');
  process.exit(1);
});
