#!/usr/bin/env node
// Pruning on leaves inside nested columns (issue 17, section 4): struct
// fields "(s).f op value" of composite-mapped structs and list elements
// "value op ANY (list)".  DuckDB writes a file of sorted row groups (so that
// the leaves' statistics separate them) with Bloom filters; for each qual
// the rows through parquet_fdw with every pruning kind on, and with all of
// them off, must equal DuckDB's answer to the same question over the same
// file, and the quals that exclude row groups must show them pruned in
// EXPLAIN ANALYZE (a qual that cannot prune must show none), with "Row
// Groups Pruned by Nested Fields" counting those a field or element qual
// excludes by itself.  The same rows written by our COPY TO (with a page
// index) must give a heap table's rows with pruning on and off, and a
// field's page index must prune pages.
//
//   node check_nested_pruning.mjs [--dir DIR]
//
// PostgreSQL through the PG* environment variables (superuser).  Prints
// PASS/FAIL per qual, then "nested_pruning: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { connectParquet, foreignScan, PRUNING_GUCS as GUCS, stageDir } from './lib/pruning.mjs';
import { counter } from './lib/stage.mjs';

const { dir, done } = stageDir('pqfdw-nested-prune-');
const file = path.join(dir, 'nested_prune.parquet');

// 4 row groups of 2048 rows (DuckDB's unit); field a and the lists' elements
// grow with the row, so each row group's leaf bounds are disjoint from the
// others'.  Field g and list ev repeat even numbers in every row group: only
// their Bloom filters (DuckDB writes them for dictionary-encoded chunks) can
// exclude an odd one.  Every 7th struct is NULL, every 5th field b NULL,
// every 11th list NULL, every 13th empty: the leaves hold nulls of both
// levels.
const ROWS = 8192;
const ROW_GROUP = 2048;

async function writeFile() {
  await duckQuery(`COPY (
    SELECT i AS id,
      CASE WHEN i % 7 = 0 THEN NULL ELSE
        {'a': i::INTEGER, 'b': CASE WHEN i % 5 = 0 THEN NULL ELSE 'k' || lpad(i::VARCHAR, 5, '0') END,
         'c': {'d': (i * 2)::BIGINT}, 'g': ((i % 50) * 2)::INTEGER} END AS s,
      CASE WHEN i % 11 = 0 THEN NULL WHEN i % 13 = 0 THEN []::INTEGER[]
        ELSE [i * 10, i * 10 + 1, NULL, i * 10 + 3]::INTEGER[] END AS arr,
      CASE WHEN i % 3 = 0 THEN NULL ELSE ['t' || lpad(i::VARCHAR, 5, '0')] END AS tags,
      [(i % 40) * 2, (i % 40) * 2 + 2]::INTEGER[] AS ev
    FROM range(${ROWS}) t(i) ORDER BY i
  ) TO ${sqlString(file)} (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP})`);
  fs.chmodSync(file, 0o644);
}

// [PostgreSQL qual, DuckDB qual, row groups that may hold a match]
const CASES = [
  ['(s).a = 4321', 's.a = 4321', 1],
  ['(s).a = 4321 OR (s).a = 10', 's.a = 4321 OR s.a = 10', 2],
  ['(s).a < 1500', 's.a < 1500', 1],
  ['(s).a >= 7000', 's.a >= 7000', 1],
  ['(s).a::bigint > 6999', 's.a > 6999', 1],
  ['(s).a::numeric BETWEEN 2000 AND 3100', 's.a BETWEEN 2000 AND 3100', 2],
  ['(s).a IN (4321, 99999)', 's.a IN (4321, 99999)', 1],
  ['(s).a <> 5', 's.a <> 5', 4],
  ['(s).a = 7', 's.a = 7', 1],	// a NULL struct (7 % 7), inside one range
  ['(s).a = 99999', 's.a = 99999', 0],
  ["(s).b = 'k04321'", "s.b = 'k04321'", 1],
  ["(s).b = 'k04320'", "s.b = 'k04320'", 1],	// a NULL field, inside one range
  ["(s).b > 'k06000'", "s.b > 'k06000'", 2],
  ['((s).c).d = 8642', 's.c.d = 8642', 1],
  ['((s).c).d < 0', 's.c.d < 0', 0],
  ['(s).g = 51', 's.g = 51', 0],	// Bloom filters alone
  ['(s).g = 50', 's.g = 50', 4],
  ['43210 = ANY (arr)', 'list_contains(arr, 43210)', 1],
  ['43212 = ANY (arr)', 'list_contains(arr, 43212)', 1],	// the NULL slot's value
  ['43213 = ANY (arr)', 'list_contains(arr, 43213)', 1],
  ['5 = ANY (arr)', 'list_contains(arr, 5)', 0],
  ['15 = ANY (arr)', 'list_contains(arr, 15)', 1],
  ['75000 < ANY (arr)', 'len(list_filter(arr, x -> x > 75000)) > 0', 1],
  ['-1 > ANY (arr)', 'len(list_filter(arr, x -> x < -1)) > 0', 0],
  ['(43210 = ANY (arr) OR 10 = ANY (arr))', 'list_contains(arr, 43210) OR list_contains(arr, 10)', 2],
  ["'t04321' = ANY (tags)", "list_contains(tags, 't04321')", 1],
  ["'t04323' = ANY (tags)", "list_contains(tags, 't04323')", 1],	// a NULL list
  ["'zzz' = ANY (tags)", "list_contains(tags, 'zzz')", 0],
  ['51 = ANY (ev)', 'list_contains(ev, 51)', 0],	// Bloom filters alone
  ['52 = ANY (ev)', 'list_contains(ev, 52)', 4],
  // not prunable: ALL holds for empty lists; IS NULL is not a comparison
  ['5 = ALL (arr)', 'len(arr) = 0 OR len(list_filter(arr, x -> x IS NULL OR x <> 5)) = 0', null],
  ['(s).a IS NULL', 's.a IS NULL', null],
  // a flat qual beside a field's: statistics prune 4, the field's alone 2
  ['id < 100 AND (s).a > 5000', 'id < 100 AND s.a > 5000', 0, 2],
  ['id < 100', 'id < 100', 1, null],
];

async function rows(client, qual) {
  const r = await client.query(`SELECT id FROM nested_prune WHERE ${qual} ORDER BY id`);
  return r.rows.map((x) => Number(x.id)).join(',');
}

async function pruned(client, qual) {
  const node = await foreignScan(client, `SELECT id FROM nested_prune WHERE ${qual}`);
  return {
    read: node['Row Groups Read'],
    stats: node['Row Groups Pruned by Statistics'] ?? 0,
    bloom: node['Row Groups Pruned by Bloom Filter'] ?? 0,
    nested: node['Row Groups Pruned by Nested Fields'] ?? null,
  };
}

// Decided by Bloom filters alone, which our COPY TO writes only on request.
const BLOOM_ONLY = new Set(['(s).g = 51', '51 = ANY (ev)']);

// The same table written by our COPY TO (pages of 256 rows with a page
// index): every qual's rows with pruning on and off equal a heap table's,
// and a struct field's page index prunes pages inside a row group.
async function checkOurs(client, check) {
  const ours = path.join(dir, 'nested_prune_ours.parquet');
  await client.query('DROP TABLE IF EXISTS np_heap');
  await client.query('CREATE TABLE np_heap AS SELECT * FROM nested_prune');
  await client.query(`COPY np_heap TO ${sqlString(ours)}
    WITH (FORMAT parquet, row_group_size ${ROW_GROUP}, data_page_rows 256)`);
  await client.query('DROP FOREIGN TABLE IF EXISTS np_ours');
  await client.query(`CREATE FOREIGN TABLE np_ours (id bigint, s np_s, arr int[], tags text[], ev int[])
    SERVER parquet_srv OPTIONS (filename ${sqlString(ours)})`);
  for (const [pgQual, , mayMatch] of CASES) {
    const problems = [];
    const q = (t) => `SELECT id FROM ${t} WHERE ${pgQual} ORDER BY id`;
    const want = (await client.query(q('np_heap'))).rows.map((x) => Number(x.id)).join(',');
    for (const g of GUCS) await client.query(`SET ${g} = on`);
    const on = (await client.query(q('np_ours'))).rows.map((x) => Number(x.id)).join(',');
    const node = await foreignScan(client, q('np_ours'));
    for (const g of GUCS) await client.query(`SET ${g} = off`);
    const off = (await client.query(q('np_ours'))).rows.map((x) => Number(x.id)).join(',');
    if (on !== want) problems.push(`pruning on: rows ${on.slice(0, 80)} but heap ${want.slice(0, 80)}`);
    if (off !== want) problems.push(`pruning off: rows ${off.slice(0, 80)} but heap ${want.slice(0, 80)}`);
    // statistics alone decide these the same way in both files
    if (mayMatch !== null && !BLOOM_ONLY.has(pgQual) && node['Row Groups Read'] > mayMatch)
      problems.push(`read ${node['Row Groups Read']} row groups, expected at most ${mayMatch}`);
    const pages = node['Pages Pruned by Page Index'] ?? 0;
    if (pgQual === '(s).a = 4321' && !(pages > 0))
      problems.push(`no page pruned by the field's page index (${pages})`);
    check(`COPY TO file: ${pgQual} (read ${node['Row Groups Read']}, pages pruned ${pages})`, problems);
  }
}

async function main() {
  const { check, summary } = counter();
  await writeFile();
  const client = await connectParquet();
  await client.query('DROP FOREIGN TABLE IF EXISTS nested_prune');
  await client.query('DROP TYPE IF EXISTS np_c, np_s CASCADE');
  await client.query('CREATE TYPE np_c AS (d bigint)');
  await client.query('CREATE TYPE np_s AS (a int, b text, c np_c, g int)');
  await client.query(`CREATE FOREIGN TABLE nested_prune (id bigint, s np_s, arr int[], tags text[], ev int[])
    SERVER parquet_srv OPTIONS (filename ${sqlString(file)})`);

  for (const [pgQual, duckQual, mayMatch, nestedArg] of CASES) {
    const problems = [];
    const want = (await duckQuery(`SELECT id FROM read_parquet(${sqlString(file)})
      WHERE ${duckQual} ORDER BY id`)).rows.map((r) => Number(r[0])).join(',');
    for (const g of GUCS) await client.query(`SET ${g} = on`);
    const on = await rows(client, pgQual);
    const counts = await pruned(client, pgQual);
    for (const g of GUCS) await client.query(`SET ${g} = off`);
    const off = await rows(client, pgQual);
    const offCounts = await pruned(client, pgQual);
    if (on !== want) problems.push(`pruning on: rows ${on.slice(0, 80)} but DuckDB ${want.slice(0, 80)}`);
    if (off !== want) problems.push(`pruning off: rows ${off.slice(0, 80)} but DuckDB ${want.slice(0, 80)}`);
    if (offCounts.read !== ROWS / ROW_GROUP)
      problems.push(`pruning off read ${offCounts.read} row groups`);
    const expectRead = mayMatch === null ? ROWS / ROW_GROUP : mayMatch;
    if (counts.read !== expectRead)
      problems.push(`read ${counts.read} row groups, expected ${expectRead} ` +
        `(statistics pruned ${counts.stats}, bloom ${counts.bloom})`);
    // the nested counter: absent without a field or element qual; else by
    // default every pruned row group (only nested quals)
    const expectNested = nestedArg !== undefined ? nestedArg :
      (mayMatch === null ? null : counts.stats + counts.bloom);
    if (counts.nested !== expectNested)
      problems.push(`Row Groups Pruned by Nested Fields ${counts.nested}, expected ${expectNested}`);
    check(`${pgQual} (read ${counts.read}, statistics pruned ${counts.stats}, bloom ${counts.bloom}, ` +
      `nested ${counts.nested})`, problems);
  }
  await checkOurs(client, check);
  await client.end();
  done();
  process.exit(summary('nested_pruning'));
}

main().catch((e) => {
  console.error(e);
  console.log('nested_pruning: 0 passed, 1 failed');
  process.exit(1);
});
