#!/usr/bin/env node
// Files real writers produced that a reader must read as their writers
// meant (issue 38, "Files real writers produced"): Impala's test data in
// ../shared/testdata/interop-cases (or $INTEROP_CASES_DIR), whose README
// says what each file holds and what a correct reader does.
//
//   node test/js/check_interop_cases.mjs [--dir DIR]
//
// Each file is read through parquet_fdw (create_table_sql, then SELECT) and
// compared with the README's values and an independent reader's: DuckDB
// where it reads the file (it does not finish the four deepest nesting
// files in a minute, and returns wrong timestamps for the dateless ones),
// hyparquet (JS) for the nested values.  Files the README calls damaged
// must end in a clean ERROR naming the file, the place and both counts.
// Last line: "interop_cases: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { parquetReadObjects } from 'hyparquet';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { counter } from './lib/stage.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2);
const DIR = (argv.indexOf('--dir') >= 0 ? argv[argv.indexOf('--dir') + 1] : null) ||
  process.env.INTEROP_CASES_DIR || path.resolve(REPO, '..', 'shared', 'testdata', 'interop-cases');
const STAGE = 'interop_cases';
const TABLE = 'pqfdw_interop_case';
const SERVER = 'pqfdw_interop_srv';
const IMPORTED = 'pqfdw_interop_import';
const c = counter();

/** hyparquet's rows of a file (BigInts as strings, as JSON has them). */
async function hyparquetRows(file) {
  const b = fs.readFileSync(file);
  const rows = await parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) });
  return JSON.parse(JSON.stringify(rows, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
}

/** The foreign table over file, as create_table_sql() declares it; its column types. */
async function createTable(client, file) {
  await client.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
  const ddl = await client.query('SELECT parquet_fdw.create_table_sql($1, $2, $3)', [file, TABLE, SERVER]);
  await client.query(ddl.rows[0].create_table_sql);
  const cols = await client.query(
    `SELECT attname, format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = '${TABLE}'::regclass AND attnum > 0 ORDER BY attnum`);
  return Object.fromEntries(cols.rows.map((r) => [r.attname, r.type]));
}

/** The error a query raises, or null. */
async function errorOf(client, sql) {
  try {
    await client.query(sql);
    return null;
  } catch (e) {
    return e;
  }
}

const showErr = (e) => (e ? `${e.code} ${e.message}${e.detail ? ` (${e.detail})` : ''}` : 'no error');

// ------------------------------------------------------------ the cases

async function repeatedValues(client) {
  const file = path.join(DIR, 'repeated_values.parquet');
  const p = [];
  const types = await createTable(client, file);
  if (types.x !== 'bytea') p.push(`column x is ${types.x}, not bytea (un-annotated BYTE_ARRAY)`);
  let got = null;
  try {
    got = (await client.query(`SELECT encode(x, 'hex') AS x FROM ${TABLE}`)).rows.map((r) => r.x);
  } catch (e) {
    p.push(showErr(e));
  }
  if (got) {
    const duck = (await duckQuery(`SELECT hex(x) FROM read_parquet(${sqlString(file)}, binary_as_string = false)`))
      .rows.map((r) => String(r[0]).toLowerCase());
    const readme = ['parquet', 'parquet', 'parquet'].map((s) => Buffer.from(s).toString('hex'));
    if (!isDeepStrictEqual(got, readme)) p.push(`rows ${JSON.stringify(got)}, README says three 'parquet'`);
    if (!isDeepStrictEqual(got, duck)) p.push(`rows ${JSON.stringify(got)}, DuckDB ${JSON.stringify(duck)}`);
  }
  c.check('repeated_values.parquet (parquet-mr 1.2.5, dictionary page header not in the chunk size): 3 rows as the README and DuckDB', p);
}

// [file, the path from the column's value to the innermost one: 'a' a
// list's only element, 'm' a map's only value, 's' the struct field f0;
// 99 nested values below the row, Impala's 100 levels with the row]
const NESTING = [
  ['max_nesting_depth_struct.parquet', 's'.repeat(99)],
  ['max_nesting_depth_int_array.parquet', 'a'.repeat(99)],
  ['max_nesting_depth_int_map.parquet', 'm'.repeat(99)],
  ['max_nesting_depth_struct_array.parquet', 'as'.repeat(49) + 'a'],
  ['max_nesting_depth_struct_map.parquet', 'ms'.repeat(49) + 'm'],
];

/** The value at the end of the path in v, or a problem. */
function follow(v, steps) {
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    if (s === 'a' && Array.isArray(v) && v.length === 1) v = v[0];
    else if (s === 's' && v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && 'f0' in v) v = v.f0;
    else if (s === 'm' && v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1) v = Object.values(v)[0];
    else return { problem: `level ${i + 1}: ${JSON.stringify(v).slice(0, 60)} is not a one-entry ${{ a: 'list', s: 'struct', m: 'map' }[s]}` };
  }
  return { value: v };
}

/** Problems of the column f of table, read as one JSON value, against the references. */
async function checkNested(client, table, name, steps, file) {
  const p = [];
  let got = null;
  try {
    const type = (await client.query(
      `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = '${table}'::regclass AND attname = 'f'`)).rows[0]?.t;
    if (type !== 'jsonb') p.push(`column f is ${type}, not jsonb`);
    const rows = (await client.query(`SELECT f::text AS f FROM ${table}`)).rows;
    if (rows.length !== 1) p.push(`${rows.length} rows, the README says one`);
    got = rows.length ? JSON.parse(rows[0].f) : null;
  } catch (e) {
    p.push(showErr(e));
  }
  if (got !== null) {
    const end = follow(got, steps);
    if (end.problem) p.push(end.problem);
    else if (end.value !== 42) p.push(`innermost value ${JSON.stringify(end.value)}, the README says 42`);
    const hyp = await hyparquetRows(file);
    if (!isDeepStrictEqual(got, hyp[0].f)) p.push('value differs from hyparquet\'s');
    if (name === 'max_nesting_depth_struct.parquet') {
      // DuckDB finishes only this one of the five
      const duck = await duckQuery(`SELECT to_json(f)::VARCHAR FROM read_parquet(${sqlString(file)})`);
      if (!isDeepStrictEqual(got, JSON.parse(duck.rows[0][0]))) p.push('value differs from DuckDB\'s');
    }
  }
  return p;
}

async function nesting(client) {
  const names = NESTING.map(([name]) => name.replace(/\.parquet$/, ''));
  let imported = null;
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${IMPORTED} CASCADE`);
    await client.query(`CREATE SCHEMA ${IMPORTED}`);
    await client.query(`IMPORT FOREIGN SCHEMA "${DIR}" LIMIT TO (${names.join(', ')}) FROM SERVER ${SERVER} INTO ${IMPORTED}`);
  } catch (e) {
    imported = e;
  }
  for (const [name, steps] of NESTING) {
    const file = path.join(DIR, name);
    const refs = name.includes('_struct.') ? 'the README, hyparquet and DuckDB' : 'the README and hyparquet';
    let p;
    try {
      await createTable(client, file);
      p = await checkNested(client, TABLE, name, steps, file);
    } catch (e) {
      p = [showErr(e)];
    }
    c.check(`${name} (create_table_sql): one value 42, ${steps.length} levels below the column, as ${refs}`, p);
    p = imported ? [`IMPORT FOREIGN SCHEMA: ${showErr(imported)}`] :
      await checkNested(client, `${IMPORTED}.${name.replace(/\.parquet$/, '')}`, name, steps, file);
    c.check(`${name} (IMPORT FOREIGN SCHEMA): the same`, p);
  }
  await client.query(`DROP SCHEMA IF EXISTS ${IMPORTED} CASCADE`);
}

async function badColumnMetadata(client) {
  const file = path.join(DIR, 'bad_column_metadata.parquet');
  await createTable(client, file);
  // [query, row group, column, stated, read]
  const cases = [
    [`SELECT * FROM ${TABLE}`, 1, 'int_array.list.element', 50, 100],
    [`SELECT id FROM ${TABLE}`, 2, 'id', 11, 10],
    [`SELECT sum(id) FROM ${TABLE}`, 2, 'id', 11, 10],
    [`SELECT int_array FROM ${TABLE}`, 1, 'int_array.list.element', 50, 100],
  ];
  for (const [sql, rg, col, stated, read] of cases) {
    const e = await errorOf(client, sql);
    const p = [];
    const text = e ? `${e.message} ${e.detail ?? ''} ${e.context ?? ''}` : '';
    if (!e) p.push('no error: rows returned silently');
    else {
      if (e.code !== 'XX001') p.push(`SQLSTATE ${e.code}, not XX001`);
      for (const [what, re] of [['the file', file], ['the row group', `Row group ${rg - 1}`],
        ['the column', col], ['the stated count', String(stated)], ['the count read', String(read)]])
        if (!text.includes(re)) p.push(`the error does not name ${what} (${re}): ${showErr(e)}`);
    }
    c.check(`bad_column_metadata.parquet, ${sql.replace(TABLE, 't')}: XX001 naming row group ${rg - 1}, ${col}, ${stated} and ${read}`, p);
  }
  // the count from the footers needs no page: the row groups' counts agree
  const n = await client.query(`SELECT count(*) AS n FROM ${TABLE}`);
  c.check('bad_column_metadata.parquet: count(*) is the footer\'s 30 rows', n.rows[0].n === '30' ? [] : [`count ${n.rows[0].n}`]);
}

async function datelessTimestamps(client) {
  const file = path.join(DIR, 'dateless_timestamps.parquet');
  const types = await createTable(client, file);
  c.check('dateless_timestamps.parquet: INT96 column t is timestamp',
    types.t === 'timestamp without time zone' ? [] : [`t is ${types.t}`]);

  // the rows with dates: DuckDB's first five, and the README's 1996-04-22
  const duck = (await duckQuery(`SELECT strftime(t, '%Y-%m-%d %H:%M:%S.%f') FROM read_parquet(${sqlString(file)})`))
    .rows.map((r) => String(r[0]).replace(/\.?0+$/, ''));
  const dated = duck.slice(0, 5);
  const ok = dated.every((d) => d.startsWith('1996-04-22'));
  c.check('DuckDB reads five rows with dates (1996-04-22) then two without', ok ? [] : [`DuckDB ${JSON.stringify(duck)}`]);

  for (const where of ["t >= '1996-01-01'", "t > '4714-11-24 00:00:00 BC'", "t < '2000-01-01' AND t >= '1996-04-22'"]) {
    const p = [];
    try {
      const rows = (await client.query(
        `SELECT to_char(t, 'YYYY-MM-DD HH24:MI:SS.US') AS t FROM ${TABLE} WHERE ${where}`)).rows
        .map((r) => r.t.replace(/\.?0+$/, ''));
      if (!isDeepStrictEqual(rows, dated)) p.push(`rows ${JSON.stringify(rows)}, DuckDB's dated rows ${JSON.stringify(dated)}`);
    } catch (e) {
      p.push(showErr(e));
    }
    c.check(`dateless_timestamps.parquet WHERE ${where}: the five dated rows, as DuckDB reads them`, p);
  }

  const e = await errorOf(client, `SELECT t FROM ${TABLE}`);
  const text = e ? `${e.message} ${e.detail ?? ''}` : '';
  const p = [];
  if (!e) p.push('no error for the rows without a date');
  else {
    if (e.code !== '22008') p.push(`SQLSTATE ${e.code}, not 22008 (datetime_field_overflow)`);
    for (const [what, re] of [['the file', file], ['the row', 'row 6'], ['the column', '"t"'], ['what is wrong', 'without a date']])
      if (!text.includes(re)) p.push(`the error does not name ${what} (${re}): ${showErr(e)}`);
  }
  c.check('dateless_timestamps.parquet SELECT t: 22008 naming the file, row 6, column t, no date', p);

  // counts need no value: the levels say every row holds one
  const p2 = [];
  for (const [sql, want] of [[`SELECT count(*) AS n FROM ${TABLE}`, '7'],
    [`SELECT count(t) AS n FROM ${TABLE}`, '7'],
    [`SELECT count(*) AS n FROM ${TABLE} WHERE t IS NULL`, '0'],
    [`SELECT count(*) AS n FROM ${TABLE} WHERE t < '1996-01-01'`, '2']]) {
    try {
      const n = (await client.query(sql)).rows[0].n;
      if (n !== want) p2.push(`${sql.replace(TABLE, 't')}: ${n}, not ${want}`);
    } catch (e) {
      p2.push(`${sql.replace(TABLE, 't')}: ${showErr(e)}`);
    }
  }
  c.check('dateless_timestamps.parquet: 7 rows, none NULL, two before 1996 (a value without a date is no NULL)', p2);
}

// ---------------------------------------------------------------- main

async function main() {
  if (!fs.existsSync(path.join(DIR, 'README.md'))) {
    console.log(`!!!!!!!! WARNING: interop cases NOT FOUND at ${DIR} (set $INTEROP_CASES_DIR): ${STAGE} checks NOT RUN !!!!!!!!`);
    console.log(`${STAGE}: 0 passed, 0 failed`);
    return process.env.CI === 'true' ? 1 : 0;
  }
  const client = new pg.Client({ options: '-c client_min_messages=warning -c TimeZone=UTC -c DateStyle=ISO' });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
  await client.query(`CREATE SERVER IF NOT EXISTS ${SERVER} FOREIGN DATA WRAPPER parquet_fdw`);
  for (const run of [repeatedValues, nesting, badColumnMetadata, datelessTimestamps]) {
    try {
      await run(client);
    } catch (e) {
      c.check(`${run.name}`, [`stopped: ${e.stack || e}`]);
    }
  }
  await client.query(`DROP FOREIGN TABLE IF EXISTS ${TABLE}`);
  await client.query(`DROP SERVER ${SERVER}`);
  await client.end();
  return c.summary(STAGE) || (c.passed > 0 ? 0 : 1);
}

main().then((code) => process.exit(code), (err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
