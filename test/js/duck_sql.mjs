#!/usr/bin/env node
// Run one DuckDB query and print its rows as psql -At does ("|" between
// columns, NULL as empty): the reference answers of the shell tests
// (test/upgrade/upgrade.sh, the deb stage).  Usage: node duck_sql.mjs SQL
import { duckQuery } from './lib/duck.mjs';

const sql = process.argv[2];
if (!sql) {
  console.error('usage: duck_sql.mjs SQL');
  process.exit(2);
}
const r = await duckQuery(sql);
for (const row of r.rows) console.log(row.map((v) => (v === null ? '' : String(v))).join('|'));
