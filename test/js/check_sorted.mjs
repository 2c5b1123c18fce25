#!/usr/bin/env node
// The option sorted against a file that declares sorting_columns: the
// corpus's data/sort_columns.parquet (README: two identical row groups,
// each sorted by a DESC NULLS FIRST, then b ASC NULLS LAST).
//
//   node test/js/check_sorted.mjs [--corpus DIR]
//
// A declaration the row groups' sorting_columns contradict (other column,
// other direction, other NULLs) must fail naming sorting_columns; the
// declaration they agree with must still fail on the statistics, because
// the second row group starts again at the first one's values; and without
// the option the file reads as DuckDB reads it.  Last line:
// "sorted_corpus: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { DuckDBInstance } from '@duckdb/node-api';
import { corpusDir } from './lib/corpus.mjs';

const corpus = corpusDir();
const FILE = path.join(corpus, 'data', 'sort_columns.parquet');

// [option value, what the error's detail must say]
const CASES = [
  ['a', /says it is sorted by leaf column 0 DESC NULLS FIRST/],
  ['a DESC NULLS LAST', /says it is sorted by leaf column 0 DESC NULLS FIRST/],
  ['b', /says it is sorted by leaf column 0 DESC NULLS FIRST as its key 1/],
  ['a DESC, b DESC', /says it is sorted by leaf column 1 NULLS LAST as its key 2/],
  ['a DESC', /has NULLs of column "a" after row groups with values|greater than the end/],
  ['a DESC NULLS FIRST, b', /has NULLs of column "a" after row groups with values|greater than the end/],
];

async function main() {
  if (!fs.existsSync(FILE)) {
    console.log(`!!!! parquet-testing corpus not found at ${corpus}: sorted check NOT RUN !!!!`);
    console.log('sorted_corpus: 0 passed, 0 failed');
    process.exit(process.env.CI === 'true' ? 1 : 0);
  }
  const client = new pg.Client({ options: '-c client_min_messages=warning' });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
  await client.query('DROP FOREIGN TABLE IF EXISTS pqfdw_sorted_chk');
  const ddl = await client.query('SELECT parquet_fdw.create_table_sql($1, $2)', [FILE, 'pqfdw_sorted_chk']);
  await client.query(ddl.rows[0].create_table_sql);
  let passed = 0;
  let failed = 0;
  const result = (ok, what) => {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${what}`);
  };

  // without the option: the rows DuckDB reads, in file order
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const want = (await duck.runAndReadAll(`SELECT a::VARCHAR, b FROM read_parquet('${FILE}')`))
    .getRowsJson().map((r) => `${r[0]}|${r[1]}`).join(',');
  const got = (await client.query('SELECT a::text, b FROM pqfdw_sorted_chk')).rows
    .map((r) => `${r.a}|${r.b}`).join(',');
  result(got === want, `rows without the option: ${got === want ? 'as DuckDB reads them' : `${got} vs DuckDB ${want}`}`);

  for (const [value, detail] of CASES) {
    await client.query(`ALTER FOREIGN TABLE pqfdw_sorted_chk OPTIONS (${passed + failed > 1 ? 'SET' : 'ADD'} sorted '${value}')`);
    try {
      await client.query('SELECT a, b FROM pqfdw_sorted_chk ORDER BY a DESC LIMIT 1');
      result(false, `sorted '${value}': no error`);
    } catch (e) {
      const ok = e.code === 'HV021' && detail.test(e.detail ?? '');
      result(ok, `sorted '${value}': ${e.code} ${e.detail}`);
    }
  }
  await client.query('DROP FOREIGN TABLE pqfdw_sorted_chk');
  await client.end();
  console.log(`sorted_corpus: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

main();
