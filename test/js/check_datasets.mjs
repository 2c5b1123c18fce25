#!/usr/bin/env node
// Datasets (issue 17) read through foreign tables, checked against DuckDB's
// reading of the same files:
//
//   hive        a tree DuckDB wrote with PARTITION_BY (int, text with
//               characters DuckDB encodes, NULL, date keys): every row with
//               its partition values equals read_parquet(hive_partitioning)
//   pruning     quals on partition keys (=, IN, ranges, IS NULL, OR, LIKE,
//               expressions): same rows as DuckDB, and EXPLAIN's planned
//               file count equals the number of files DuckDB finds rows of
//               matching the qual (files of one directory share their keys)
//   runtime     the same quals as parameters of generic plans and as the
//               inner side of parameterized nested loops: same rows, files
//               pruned at run time counted; also in parallel plans
//   virtual     filename_column and file_row_number_column equal DuckDB's
//               filename and file_row_number; a qual on the file name plans
//               one file
//   footers     count(*) with only partition quals is answered from the
//               footers of the files kept, equal to DuckDB's count
//   union       union_by_name over files whose schemas grew (columns added,
//               INT32 -> INT64, FLOAT -> DOUBLE, DECIMAL widened) equals
//               read_parquet(union_by_name = true), also through a column
//               declared narrower than a later file's type; without it,
//               and with a type no cast allows, clear errors
//   import      IMPORT FOREIGN SCHEMA and create_table_sql declare the
//               partition keys with the types DuckDB's autocast infers
//   errors      hive_partitioning true without keys, a partition value the
//               declared type rejects, options naming missing columns
//
//   node check_datasets.mjs [--dir DIR]
//
// PostgreSQL through the PG* environment variables (superuser, parquet_fdw
// installed).  Prints PASS/FAIL lines, then "datasets: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { connectWatched, counter, expectError, sqlError as sqlErrorOf } from './lib/stage.mjs';

const argv = process.argv.slice(2);
const DIR = argv.indexOf('--dir') >= 0 ? argv[argv.indexOf('--dir') + 1] : '/tmp/parquet_fdw_test/datasets';
const TREE = path.join(DIR, 'tree');
const EVOLVED = path.join(DIR, 'evolved');
const IMPORTED = path.join(DIR, 'import');

const { check, summary } = counter();
const { client, q } = await connectWatched();
// rows as arrays: columns of one name (count, count) stay apart
const qa = async (sql) => (await client.query({ text: sql, rowMode: 'array' })).rows;

const canon = (v) => (v === null || v === undefined ? 'NULL' : typeof v === 'bigint' ? v.toString() : String(v));
const rowsText = (rows) => rows.map((r) => (Array.isArray(r) ? r : Object.values(r)).map(canon).join('|'));
function sameRows(a, b) {
  const x = rowsText(a);
  const y = rowsText(b);
  if (x.length !== y.length) return [`${x.length} rows, DuckDB ${y.length}`];
  for (let i = 0; i < x.length; i++)
    if (x[i] !== y[i]) return [`row ${i}: ${x[i]} vs DuckDB ${y[i]}`];
  return [];
}
const sqlError = (sql) => sqlErrorOf(client, sql);
const explain = async (sql) => (await q(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`))
  .map((r) => r['QUERY PLAN']).join('\n');
const plannedFiles = (plan) => {
  const m = /Files: (\d+) of (\d+) \(pruned by partition: (\d+)\)/.exec(plan);
  return m ? { planned: +m[1], total: +m[2], pruned: +m[3] } : null;
};
const skippedDirs = (plan) => { const m = /Partition Directories Skipped: (\d+)/.exec(plan); return m ? +m[1] : 0; };
// Every directory below root (fs), deepest last.
const dirsBelow = (root) => fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory())
  .flatMap((e) => { const d = path.join(root, e.name); return [d, ...dirsBelow(d)]; });
const sumRuntime = (plan) => [...plan.matchAll(/Files Pruned at Run Time: (\d+)/g)].reduce((s, m) => s + +m[1], 0);

// ------------------------------------------------------------------ data
fs.rmSync(DIR, { recursive: true, force: true });
fs.mkdirSync(EVOLVED, { recursive: true });
fs.mkdirSync(path.join(IMPORTED, 'events'), { recursive: true });
const TAGS = `['a/b', 'x=y', '100%', 'sp ace', 'ünï', NULL, 'plain', 'q?#']`;
const SOURCE = `SELECT i AS id, (i % 7)::INT AS part, ${TAGS}[1 + (i % 8)::INT] AS tag,
  DATE '2024-02-27' + (i % 5)::INT AS d, 's' || (i % 13) AS s, i * 0.5 AS v FROM range(4000) t(i)`;
await duckQuery(`COPY (${SOURCE}) TO ${sqlString(TREE)} (FORMAT parquet, PARTITION_BY (part, tag, d), ROW_GROUP_SIZE 100)`);
// a schema that grew: a column added, INT32 -> INT64, FLOAT -> DOUBLE, DECIMAL(9,2) -> DECIMAL(18,3)
await duckQuery(`COPY (SELECT i::INT AS id, (i * 2)::INT AS a, i::FLOAT AS f, (i / 4)::DECIMAL(9,2) AS m, 's' || i AS s, (i % 5)::INT AS c FROM range(50) t(i))
  TO ${sqlString(path.join(EVOLVED, 'p1.parquet'))} (FORMAT parquet)`);
await duckQuery(`COPY (SELECT (i + 50)::BIGINT AS id, 'n' || i AS added, (i * 3)::BIGINT AS a, i::DOUBLE / 3 AS f, (i / 8)::DECIMAL(18,3) AS m, (i % 5 + 3)::BIGINT AS c FROM range(40) t(i))
  TO ${sqlString(path.join(EVOLVED, 'p2.parquet'))} (FORMAT parquet)`);
await duckQuery(`COPY (SELECT (i + 90)::BIGINT AS id, 's' || i AS s FROM range(10) t(i))
  TO ${sqlString(path.join(EVOLVED, 'p3.parquet'))} (FORMAT parquet)`);
await duckQuery(`COPY (SELECT i AS id, (i % 3)::INT AS k FROM range(30) t(i))
  TO ${sqlString(path.join(IMPORTED, 'events'))} (FORMAT parquet, PARTITION_BY (k))`);
await duckQuery(`COPY (SELECT i AS id FROM range(3) t(i)) TO ${sqlString(path.join(IMPORTED, 'single.parquet'))} (FORMAT parquet)`);
fs.chmodSync(DIR, 0o755);
// the server's user reads the files
const ownAll = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); fs.chmodSync(p, e.isDirectory() ? 0o755 : 0o644); if (e.isDirectory()) ownAll(p); } };
ownAll(DIR);

const HIVE = `read_parquet(${sqlString(TREE + '/**/*.parquet')}, hive_partitioning = true, hive_types = {'part': INT, 'tag': VARCHAR, 'd': DATE}, filename = true, file_row_number = true)`;
const nfiles = (await duckQuery(`SELECT count(DISTINCT filename) FROM ${HIVE}`)).rows[0][0];
const allFiles = (await duckQuery(`SELECT DISTINCT filename FROM ${HIVE}`)).rows.map((r) => r[0]);

// also when it runs alone (TEST_ONLY=datasets)
await q('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await q('DROP SERVER IF EXISTS ds_stage CASCADE');
await q('CREATE SERVER ds_stage FOREIGN DATA WRAPPER parquet_fdw');
await q(`CREATE FOREIGN TABLE ds_hive (id bigint, part int, tag text, d date, s text, v float8, fname text, rn bigint)
  SERVER ds_stage OPTIONS (filename ${sqlString(TREE)}, filename_column 'fname', file_row_number_column 'rn')`);

// ------------------------------------------------------------------ hive
{
  const pgRows = await qa('SELECT id, part, tag, d::text, s, (v * 2)::bigint FROM ds_hive ORDER BY id');
  const dk = await duckQuery(`SELECT id, part, tag, CAST(d AS VARCHAR), s, CAST(v * 2 AS BIGINT) FROM ${HIVE} ORDER BY id`);
  check(`hive: all ${dk.rows.length} rows of ${nfiles} files with their partition values`, sameRows(pgRows, dk.rows));
}

// Expressions the scan computes beside partition quals that prune files:
// the file clauses' columns are in the scan's target list, generic plans
// prune at run time, with and without the row filter (a plan error, and a
// crash without the row filter, before).
for (const [label, setting] of [['row filter on', 'on'], ['row filter off', 'off']]) {
  await q(`SET parquet_fdw.enable_row_filter = ${setting}`);
  const sql = 'SELECT id * 2, id - 1 FROM ds_hive WHERE part = 3 AND tag IS NOT NULL ORDER BY id';
  const want = (await duckQuery(`SELECT id * 2, id - 1 FROM ${HIVE} WHERE part = 3 AND tag IS NOT NULL ORDER BY id`)).rows;
  check(`hive: computed columns beside partition quals (${label})`, sameRows(await qa(sql), want));
  await q('DEALLOCATE ALL');
  await q('SET plan_cache_mode = force_generic_plan');
  await q('PREPARE ds_comp(int) AS SELECT id * 2, id - 1 FROM ds_hive WHERE part = $1 AND tag IS NOT NULL ORDER BY id LIMIT 50');
  const gen = (await duckQuery(`SELECT id * 2, id - 1 FROM ${HIVE} WHERE part = 3 AND tag IS NOT NULL ORDER BY id LIMIT 50`)).rows;
  check(`hive: computed columns, files pruned at run time by a generic plan (${label})`,
    sameRows(await qa('EXECUTE ds_comp(3)'), gen));
  await q('DEALLOCATE ds_comp');
  await q('RESET plan_cache_mode');
}
await q('RESET parquet_fdw.enable_row_filter');

// --------------------------------------------------------------- pruning
const QUALS = [
  'part = 3',
  'part = 99',
  'part IN (1, 5)',
  'part >= 2 AND part < 4 AND d = DATE \'2024-02-29\'',
  'tag IS NULL',
  'tag = \'a/b\'',
  'tag IN (\'x=y\', \'100%\', \'sp ace\', \'ünï\', \'q?#\')',
  'tag LIKE \'%a%\' OR part = 0',
  'd > DATE \'2024-03-01\'',
  'part + 1 = 2 AND tag IS NOT NULL',
  'coalesce(tag, \'none\') = \'none\' AND part <> 6',
];
for (const qual of QUALS) {
  const sql = `SELECT count(*), sum(id), min(s), max(rn) FROM ds_hive WHERE ${qual}`;
  const pgRows = await qa(sql);
  const dk = await duckQuery(`SELECT count(*), sum(id), min(s), max(file_row_number) FROM ${HIVE} WHERE ${qual}`);
  const matching = Number((await duckQuery(`SELECT count(DISTINCT filename) FROM ${HIVE} WHERE ${qual}`)).rows[0][0]);
  const plan = await explain(`SELECT id, s FROM ds_hive WHERE ${qual}`);
  const f = plannedFiles(plan);
  const p = sameRows(pgRows, dk.rows);
  // The walk never lists a directory below which DuckDB finds no row: the
  // topmost such directories are skipped, their files never counted (when
  // every file is ruled out, one stands for them and is pruned).
  const hits = new Set((await duckQuery(`SELECT DISTINCT filename FROM ${HIVE} WHERE ${qual}`)).rows.map((r) => r[0]));
  const empty = (d) => ![...hits].some((h) => h.startsWith(d + '/'));
  const skipped = dirsBelow(TREE).filter((d) => empty(d) && (path.dirname(d) === TREE || !empty(path.dirname(d))));
  const inSkipped = allFiles.filter((x) => skipped.some((d) => x.startsWith(d + '/'))).length;
  const listed = Number(nfiles) - inSkipped + (matching === 0 ? 1 : 0);
  if (!f) p.push(`no Files line in ${plan}`);
  else if (f.planned !== matching || f.total !== listed || f.pruned !== listed - matching)
    p.push(`Files: ${f.planned} of ${f.total} (pruned ${f.pruned}); DuckDB finds rows in ${matching} of ${nfiles}, ${listed} outside the ${skipped.length} directories to skip`);
  if (skippedDirs(plan) !== skipped.length)
    p.push(`Partition Directories Skipped: ${skippedDirs(plan)}, expected ${skipped.length}`);
  check(`pruning: ${qual} (${matching} of ${nfiles} files, ${skipped.length} directories never listed)`, p);
}

{
  // a "**" glob walks the tree as a directory does; hive_partitioning
  // 'false' has no partition columns, so it lists every directory
  await q(`CREATE FOREIGN TABLE ds_glob (id bigint, part int, tag text) SERVER ds_stage OPTIONS (filename ${sqlString(TREE + '/**/*.parquet')})`);
  await q(`CREATE FOREIGN TABLE ds_flat (id bigint, s text) SERVER ds_stage OPTIONS (filename ${sqlString(TREE)}, hive_partitioning 'false')`);
  const pgRows = await qa('SELECT count(*), sum(id) FROM ds_glob WHERE part = 5 AND tag = \'plain\'');
  const dk = await duckQuery(`SELECT count(*), sum(id) FROM ${HIVE} WHERE part = 5 AND tag = 'plain'`);
  const p = sameRows(pgRows, dk.rows);
  const plan = await explain('SELECT id FROM ds_glob WHERE part = 5 AND tag = \'plain\'');
  // 6 other part= directories, and 7 other tag= directories below part=5
  if (skippedDirs(plan) !== 6 + 7) p.push(`Partition Directories Skipped: ${skippedDirs(plan)}, expected 13`);
  const flat = await explain('SELECT id FROM ds_flat WHERE s = \'s1\'');
  if (skippedDirs(flat) !== 0 || !/Files: 280 of 280|Parquet Files: .*\(27[0-9] more\)/.test(flat))
    p.push(`hive_partitioning 'false' lists all files: ${flat}`);
  check('pruning: a ** glob skips partitions as a directory does; hive_partitioning false skips none', p);
  await q('DROP FOREIGN TABLE ds_glob, ds_flat');
}

// --------------------------------------------------------------- runtime
await q('SET plan_cache_mode = force_generic_plan');
await q('PREPARE ds_p(int, text) AS SELECT count(*), sum(id) FROM ds_hive WHERE part = $1 AND (tag = $2 OR tag IS NULL)');
for (const [part, tag] of [[2, 'plain'], [6, 'a/b'], [9, 'none']]) {
  const pgRows = await qa(`EXECUTE ds_p(${part}, ${sqlString(tag)})`);
  const dk = await duckQuery(`SELECT count(*), sum(id) FROM ${HIVE} WHERE part = ${part} AND (tag = ${sqlString(tag)} OR tag IS NULL)`);
  const matching = Number((await duckQuery(`SELECT count(DISTINCT filename) FROM ${HIVE} WHERE part = ${part} AND (tag = ${sqlString(tag)} OR tag IS NULL)`)).rows[0][0]);
  const plan = await explain(`EXECUTE ds_p(${part}, ${sqlString(tag)})`);
  const f = plannedFiles(plan);
  const p = sameRows(pgRows, dk.rows);
  if (!f || f.pruned !== 0) p.push(`a generic plan prunes nothing at plan time: ${f && f.pruned}`);
  if (sumRuntime(plan) !== Number(nfiles) - matching)
    p.push(`Files Pruned at Run Time ${sumRuntime(plan)}, expected ${Number(nfiles) - matching}`);
  check(`runtime: generic plan part = ${part}, tag = ${tag}`, p);
}
await q('DEALLOCATE ds_p');
{
  // A generic plan whose constant quals narrowed the walk: later
  // executions list the tree again with the plan's file clauses, so an
  // unchanged tree needs no new file list, a file added to a kept
  // partition is read, and one added to a skipped partition is not.
  const small = path.join(DIR, 'walked');
  fs.rmSync(small, { recursive: true, force: true });
  await duckQuery(`COPY (SELECT i AS id, (i % 5)::INT AS k FROM range(100) t(i)) TO ${sqlString(small)} (FORMAT parquet, PARTITION_BY (k))`);
  ownAll(small);
  await q(`CREATE FOREIGN TABLE ds_walked (id bigint, k int) SERVER ds_stage OPTIONS (filename ${sqlString(small)})`);
  await q('PREPARE ds_w(bigint) AS SELECT count(*), sum(id) FROM ds_walked WHERE k = 2 AND id > $1');
  const duckAnswer = async () => (await duckQuery(`SELECT count(*), sum(id) FROM read_parquet(${sqlString(small + '/**/*.parquet')}, hive_partitioning = true) WHERE k = 2 AND id > 10`)).rows;
  const p = [];
  for (let i = 0; i < 2; i++)
    p.push(...sameRows(await qa('EXECUTE ds_w(10)'), await duckAnswer()).map((x) => `unchanged tree: ${x}`));
  const plan = await explain('EXECUTE ds_w(10)');
  if (skippedDirs(plan) !== 4) p.push(`Partition Directories Skipped: ${skippedDirs(plan)}, expected 4`);
  // the plan's own file: the other partitions were not listed again
  if (sumRuntime(plan) !== 0 || !/Parquet File: \S*k=2\//.test(plan))
    p.push(`the executor listed other partitions: ${plan}`);
  const addFile = async (k, first) => {
    const file = path.join(small, `k=${k}`, 'added.parquet');
    await duckQuery(`COPY (SELECT (${first} + i)::BIGINT AS id FROM range(7) t(i)) TO ${sqlString(file)} (FORMAT parquet)`);
    fs.chmodSync(file, 0o644);
  };
  await addFile(2, 1000);
  p.push(...sameRows(await qa('EXECUTE ds_w(10)'), await duckAnswer()).map((x) => `a file added to k=2: ${x}`));
  await addFile(3, 2000);
  p.push(...sameRows(await qa('EXECUTE ds_w(10)'), await duckAnswer()).map((x) => `a file added to k=3: ${x}`));
  check('runtime: a generic plan over a walk its constant quals narrowed sees files added to kept partitions only', p);
  await q('DEALLOCATE ds_w');
  await q('DROP FOREIGN TABLE ds_walked');
}
await q('RESET plan_cache_mode');
{
  await q('DROP TABLE IF EXISTS ds_parts');
  await q('CREATE TEMP TABLE ds_parts (p int, t text)');
  await q(`INSERT INTO ds_parts VALUES (1, 'plain'), (4, 'x=y'), (4, 'sp ace'), (8, 'plain')`);
  await q('ANALYZE ds_parts');
  await q('SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_material = off');
  const sql = 'SELECT x.p, x.t, count(*), sum(h.id) FROM ds_parts x JOIN ds_hive h ON h.part = x.p AND h.tag = x.t GROUP BY 1, 2 ORDER BY 1, 2';
  const pgRows = await qa(sql);
  await duckQuery(`CREATE OR REPLACE TABLE ds_parts AS SELECT * FROM (VALUES (1, 'plain'), (4, 'x=y'), (4, 'sp ace'), (8, 'plain')) v(p, t)`);
  const dk = await duckQuery(`SELECT x.p, x.t, count(*), sum(h.id) FROM ds_parts x JOIN ${HIVE} h ON h.part = x.p AND h.tag = x.t GROUP BY 1, 2 ORDER BY 1, 2`);
  const plan = await explain(sql);
  const p = sameRows(pgRows, dk.rows);
  if (!/Nested Loop/.test(plan) || sumRuntime(plan) === 0)
    p.push(`expected a parameterized nested loop pruning files at run time:\n${plan}`);
  check('runtime: parameterized nested loop over partition keys', p);
  await q('RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_material');
}
{
  await q(`SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
    SET max_parallel_workers_per_gather = 2; SET plan_cache_mode = force_generic_plan`);
  await q('PREPARE ds_par(int) AS SELECT count(*), sum(id), sum(rn) FROM ds_hive WHERE part <= $1');
  const pgRows = await qa('EXECUTE ds_par(2)');
  const dk = await duckQuery(`SELECT count(*), sum(id), sum(file_row_number) FROM ${HIVE} WHERE part <= 2`);
  const plan = await explain('EXECUTE ds_par(2)');
  const p = sameRows(pgRows, dk.rows);
  if (!/Parallel Foreign Scan/.test(plan)) p.push(`not a parallel plan:\n${plan}`);
  check('runtime: parallel generic plan with row numbers', p);
  await q('DEALLOCATE ds_par');
  await q(`RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
    RESET max_parallel_workers_per_gather; RESET plan_cache_mode`);
}

// --------------------------------------------------------------- virtual
{
  const pgRows = await qa('SELECT fname, rn, id FROM ds_hive ORDER BY fname, rn');
  const dk = await duckQuery(`SELECT filename, file_row_number, id FROM ${HIVE} ORDER BY filename, file_row_number`);
  check('virtual: filename_column and file_row_number_column equal DuckDB\'s', sameRows(pgRows, dk.rows));
  const one = dk.rows[dk.rows.length - 1][0];
  const plan = await explain(`SELECT count(*) FROM ds_hive WHERE fname = ${sqlString(one)} AND rn < 5`);
  const f = plannedFiles(plan);
  const cnt = await qa(`SELECT count(*) FROM ds_hive WHERE fname = ${sqlString(one)} AND rn < 5`);
  const dcnt = await duckQuery(`SELECT count(*) FROM ${HIVE} WHERE filename = ${sqlString(one)} AND file_row_number < 5`);
  const p = sameRows(cnt, dcnt.rows);
  if (!f || f.planned !== 1) p.push(`a file name qual plans ${f && f.planned} files`);
  check('virtual: a qual on the file name plans one file', p);
}

// --------------------------------------------------------------- footers
{
  const sql = 'SELECT count(*) FROM ds_hive WHERE part = 4 AND d <> DATE \'2024-02-27\'';
  const pgRows = await qa(sql);
  const dk = await duckQuery(`SELECT count(*) FROM ${HIVE} WHERE part = 4 AND d <> DATE '2024-02-27'`);
  const plan = (await q(`EXPLAIN (COSTS OFF) ${sql}`)).map((r) => r['QUERY PLAN']).join('\n');
  const p = sameRows(pgRows, dk.rows);
  if (!/count\(\*\) from the footers/.test(plan)) p.push(`not answered from the footers:\n${plan}`);
  check('footers: count(*) with partition quals only', p);
}

// ----------------------------------------------------------------- union
{
  await q(`CREATE FOREIGN TABLE ds_union (id bigint, a bigint, f float8, m numeric, s text, added text, c bigint)
    SERVER ds_stage OPTIONS (filename ${sqlString(EVOLVED)}, union_by_name 'true')`);
  const U = `read_parquet(${sqlString(EVOLVED + '/*.parquet')}, union_by_name = true)`;
  const pgRows = await qa('SELECT id, a, f::text, m::text, s, added FROM ds_union ORDER BY id');
  const dk = await duckQuery(`SELECT id, a, CAST(f AS DOUBLE), CAST(m AS VARCHAR), s, added FROM ${U} ORDER BY id`);
  // float text: PostgreSQL's shortest form and DuckDB's agree on these values; numerics by value
  const norm = (rows) => rows.map((r) => { const v = Array.isArray(r) ? [...r] : Object.values(r); v[2] = v[2] === null ? null : Number(v[2]); v[3] = v[3] === null ? null : Number(v[3]); return v; });
  check('union: union_by_name equals read_parquet(union_by_name = true)', sameRows(norm(pgRows), norm(dk.rows)));
  const f1 = await qa('SELECT count(*), sum(a), count(added), count(s) FROM ds_union WHERE a > 20 OR added IS NOT NULL');
  const d1 = await duckQuery(`SELECT count(*), sum(a), count(added), count(s) FROM ${U} WHERE a > 20 OR added IS NOT NULL`);
  check('union: quals and aggregates over missing and widened columns', sameRows(f1, d1.rows));
  // equality prunes with Bloom filters and dictionaries: c is INT32 (with a
  // Bloom filter) in one file, INT64 in the other
  const blooms = await q(`SELECT count(*) AS n FROM parquet_fdw.metadata(${sqlString(path.join(EVOLVED, 'p1.parquet'))})
    WHERE path_in_schema = 'c' AND has_bloom_filter`);
  const f2 = await qa('SELECT id, c FROM ds_union WHERE c = 4 ORDER BY id');
  const d2 = await duckQuery(`SELECT id, c FROM ${U} WHERE c = 4 ORDER BY id`);
  const p2 = sameRows(f2, d2.rows);
  if (Number(blooms[0].n) === 0) p2.push('p1.parquet has no Bloom filter on c: the check proves nothing');
  check('union: equality on a column widened from INT32 to INT64 (Bloom filters)', p2);
  await q('DROP FOREIGN TABLE IF EXISTS ds_union_strict, ds_union_narrow, ds_union_tiny');
  await q(`CREATE FOREIGN TABLE ds_union_strict (id bigint, s text) SERVER ds_stage OPTIONS (filename ${sqlString(EVOLVED)})`);
  check('union: without union_by_name a schema change is an error naming both files',
    expectError(await sqlError('SELECT * FROM ds_union_strict'), 'HV021',
      /p2\.parquet.*differs from the schema of .*p1\.parquet/));
  await q(`CREATE FOREIGN TABLE ds_union_narrow (id int, a int) SERVER ds_stage OPTIONS (filename ${sqlString(EVOLVED)}, union_by_name 'true')`);
  // integer over a later file's INT64: each value through the assignment cast
  check('union: a column declared narrower than a later file\'s type reads the values that fit',
    sameRows(await qa('SELECT id, a FROM ds_union_narrow ORDER BY id'),
      (await duckQuery(`SELECT id::INTEGER, a::INTEGER FROM ${U} ORDER BY id`)).rows));
  await q(`CREATE FOREIGN TABLE ds_union_tiny (id bigint, a "char") SERVER ds_stage OPTIONS (filename ${sqlString(EVOLVED)}, union_by_name 'true')`);
  check('union: a declaration no assignment cast allows names the column and both types',
    expectError(await sqlError('SELECT * FROM ds_union_tiny'), 'HV004',
      /column "a" of type "char" cannot hold .*INT32/s));
}

// ---------------------------------------------------------------- import
{
  await q('DROP SCHEMA IF EXISTS ds_imp CASCADE');
  await q('CREATE SCHEMA ds_imp');
  await q(`IMPORT FOREIGN SCHEMA ${client.escapeIdentifier(IMPORTED)} FROM SERVER ds_stage INTO ds_imp`);
  const cols = await q(`SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'ds_imp' AND a.attnum > 0 ORDER BY 1, a.attnum`);
  const got = cols.map((r) => `${r.relname}.${r.attname} ${r.type}`).join(', ');
  const want = 'events.id bigint, events.k bigint, single.id bigint';
  check('import: a hive subdirectory is one table with its keys typed as DuckDB infers', got === want ? [] : [`${got}, expected ${want}`]);
  const dk = await duckQuery(`SELECT typeof(k) FROM read_parquet(${sqlString(IMPORTED + '/events/**/*.parquet')}, hive_partitioning = true) LIMIT 1`);
  check('import: DuckDB\'s autocast gives the same key type', dk.rows[0][0] === 'BIGINT' ? [] : [`DuckDB: ${dk.rows[0][0]}`]);
  const pgRows = await qa('SELECT k, count(*), sum(id) FROM ds_imp.events GROUP BY k ORDER BY k');
  const dr = await duckQuery(`SELECT k, count(*), sum(id) FROM read_parquet(${sqlString(IMPORTED + '/events/**/*.parquet')}, hive_partitioning = true) GROUP BY k ORDER BY k`);
  check('import: the imported dataset reads as DuckDB reads it', sameRows(pgRows, dr.rows));
  const sql = (await q(`SELECT parquet_fdw.create_table_sql(${sqlString(TREE)}, 't') AS s`))[0].s;
  check('import: create_table_sql adds part bigint, tag text, d date',
    /part bigint,\s+tag text,\s+d date\s+\)/.test(sql) ? [] : [sql]);
}

// ---------------------------------------------------------------- errors
{
  await q('DROP FOREIGN TABLE IF EXISTS ds_e1, ds_e2, ds_e3, ds_e4');
  await q(`CREATE FOREIGN TABLE ds_e1 (id bigint) SERVER ds_stage OPTIONS (filename ${sqlString(EVOLVED)}, hive_partitioning 'true')`);
  check('errors: hive_partitioning true over files without keys',
    expectError(await sqlError('SELECT * FROM ds_e1'), 'HV021', /is not in a hive partition directory/));
  await q(`CREATE FOREIGN TABLE ds_e2 (id bigint, tag int) SERVER ds_stage OPTIONS (filename ${sqlString(TREE)})`);
  check('errors: a partition value the declared type rejects names the file',
    expectError(await sqlError('SELECT * FROM ds_e2'), '22P02', /invalid input syntax for type integer.*hive partition key "tag" of the path of Parquet file/s));
  await q(`CREATE FOREIGN TABLE ds_e3 (id bigint) SERVER ds_stage OPTIONS (filename ${sqlString(TREE)}, filename_column 'nope')`);
  check('errors: filename_column naming no column',
    expectError(await sqlError('SELECT * FROM ds_e3'), '42703', /column "nope" named by option filename_column does not exist/));
  await q(`CREATE FOREIGN TABLE ds_e4 (id bigint, part int) SERVER ds_stage OPTIONS (filename ${sqlString(TREE)}, hive_partitioning 'false')`);
  check('errors: hive_partitioning false leaves part a missing field',
    expectError(await sqlError('SELECT part FROM ds_e4'), 'HV005', /column "part" of foreign table "ds_e4" does not exist in Parquet file/));
  check('errors: hive_partitioning accepts auto, true, false only',
    expectError(await sqlError(`ALTER FOREIGN TABLE ds_e4 OPTIONS (SET hive_partitioning 'maybe')`), '22023', /invalid value for option "hive_partitioning"/));
}

await q('DROP SERVER ds_stage CASCADE');
await q('DROP SCHEMA IF EXISTS ds_imp CASCADE');
await client.end();
process.exit(summary('datasets'));
