#!/usr/bin/env node
// Pruning must never change results: for parquet-testing files with
// statistics, page indexes and bloom filters (the ones issue 4 names, plus
// others), run many quals per column with every pruning kind on and with
// all of them off, and compare the rows.  The rows read with pruning off are
// themselves checked against DuckDB by the conformance runner, so the pruned
// results are compared with an independently verified read.
//
//   node check_pruning.mjs [--corpus DIR]
//
// PostgreSQL through the PG* environment variables (superuser).  Prints
// "PASS <file> (<n> quals, <k> with row groups or pages pruned)" or
// "FAIL <file>: <qual> ...", then "pruning: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { corpusDir } from './lib/corpus.mjs';

const corpus = corpusDir();

const FILES = [
  'data/data_index_bloom_encoding_stats.parquet',
  'data/data_index_bloom_encoding_with_length.parquet',
  'data/alltypes_tiny_pages.parquet',
  'data/alltypes_tiny_pages_plain.parquet',
  'data/int32_with_null_pages.parquet',
  'data/sort_columns.parquet',
  'data/nan_in_stats.parquet',
  'data/floating_orders_nan_count.parquet',
  'data/binary_truncated_min_max.parquet',
  'data/fixed_length_byte_array.parquet',
  'data/alltypes_plain.parquet',
  'data/byte_array_decimal.parquet',
  'data/fixed_length_decimal.parquet',
  'data/float16_nonzeros_and_nans.parquet',
  'data/plain-dict-uncompressed-checksum.parquet',
  'data/rle-dict-snappy-checksum.parquet',
  'data/delta_binary_packed.parquet',
  'data/single_nan.parquet',
];

const GUCS = ['statistics', 'bloom', 'dictionary', 'page_index']
  .map((k) => `parquet_fdw.enable_${k}_pruning`)
  .concat(['parquet_fdw.enable_late_materialization']);
const ORDERABLE = /^(smallint|integer|bigint|numeric|real|double precision|text|bytea|date|time|timestamp|uuid|interval|boolean)/;

const lit = (v, type) => (v === null ? `NULL::${type}` : `'${String(v).replace(/'/g, "''")}'::${type}`);

async function setPruning(client, on) {
  for (const g of GUCS) await client.query(`SET ${g} = ${on ? 'on' : 'off'}`);
}

/** Quals over one column, with constants taken from the column's values. */
function qualsFor(col, type, s) {
  const c = `"${col.replace(/"/g, '""')}"`;
  const q = [`${c} IS NULL`, `${c} IS NOT NULL`];
  if (type === 'boolean') return q.concat([`${c}`, `NOT ${c}`]);
  for (const v of [s.min, s.mid, s.max]) {
    if (v === null) continue;
    for (const op of ['=', '<', '<=', '>', '>=', '<>']) q.push(`${c} ${op} ${lit(v, type)}`);
  }
  if (s.min !== null && s.mid !== null) {
    q.push(`${c} BETWEEN ${lit(s.min, type)} AND ${lit(s.mid, type)}`);
    q.push(`${c} IN (${lit(s.min, type)}, ${lit(s.max, type)})`);
    q.push(`${c} = ANY (ARRAY[${lit(s.mid, type)}, NULL])`);
    q.push(`(${c} = ${lit(s.min, type)} OR ${c} = ${lit(s.max, type)})`);
  }
  if (s.absent !== null) q.push(`${c} = ${lit(s.absent, type)}`);
  if (type === 'text' && s.mid !== null && s.mid.length > 1) {
    q.push(`${c} LIKE ${lit(s.mid.slice(0, 2).replace(/[%_\\]/g, '\\$&') + '%', 'text')}`);
    q.push(`${c} < ${lit(s.mid, 'text')} COLLATE "C"`);
  }
  return q;
}

async function checkFile(client, rel) {
  const file = path.join(corpus, rel);
  await client.query('DROP FOREIGN TABLE IF EXISTS pqfdw_prune_chk');
  const ddl = await client.query('SELECT parquet_fdw.create_table_sql($1, $2)', [file, 'pqfdw_prune_chk']);
  await client.query(ddl.rows[0].create_table_sql);
  const cols = await client.query(`SELECT attname, format_type(atttypid, atttypmod) AS type
      FROM pg_attribute WHERE attrelid = 'pqfdw_prune_chk'::regclass AND attnum > 0 ORDER BY attnum`);

  let nquals = 0;
  let pruned = 0;
  for (const { attname, type } of cols.rows) {
    if (!ORDERABLE.test(type)) continue;
    const c = `"${attname.replace(/"/g, '""')}"`;
    const base = type.replace(/\(.*\)/, '');
    await setPruning(client, false);
    const st = await client.query(`SELECT min(${c})::text AS min, max(${c})::text AS max,
        (SELECT ${c}::text FROM pqfdw_prune_chk WHERE ${c} IS NOT NULL ORDER BY ${c}
           OFFSET (SELECT count(${c}) / 2 FROM pqfdw_prune_chk) LIMIT 1) AS mid
      FROM pqfdw_prune_chk`).catch(() => null);
    if (!st) continue;
    const s = st.rows[0];
    s.absent = null;
    const limits = { smallint: 32767n, integer: 2147483647n, bigint: 9223372036854775807n };
    if (limits[base] !== undefined && s.max !== null && BigInt(s.max) < limits[base])
      s.absent = String(BigInt(s.max) + 1n);
    if (type === 'text') s.absent = 'zzzz-no-such-value';
    for (const qual of qualsFor(attname, base, s)) {
      nquals++;
      const sql = `SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|')), '') AS r FROM pqfdw_prune_chk t WHERE ${qual}`;
      await setPruning(client, false);
      const off = (await client.query(sql)).rows[0].r;
      await setPruning(client, true);
      const on = (await client.query(sql)).rows[0].r;
      if (on !== off) return { ok: false, why: `${qual}: pruning on ${on}, off ${off}` };
      const plan = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF) SELECT * FROM pqfdw_prune_chk WHERE ${qual}`)).rows[0]['QUERY PLAN'];
      const text = JSON.stringify(plan);
      const num = (k) => Number((text.match(new RegExp(`"${k}":\\s*(\\d+)`)) || [0, 0])[1]);
      if (num('Row Groups Pruned by Statistics') + num('Row Groups Pruned by Bloom Filter') +
          num('Row Groups Pruned by Dictionary') + num('Pages Pruned by Page Index') > 0) pruned++;
    }
  }
  await client.query('DROP FOREIGN TABLE pqfdw_prune_chk');
  return { ok: true, nquals, pruned };
}

async function main() {
  if (!fs.existsSync(path.join(corpus, 'data'))) {
    console.log(`!!!! parquet-testing corpus not found at ${corpus}: pruning check NOT RUN !!!!`);
    console.log('pruning: 0 passed, 0 failed');
    process.exit(process.env.CI === 'true' ? 1 : 0);
  }
  const client = new pg.Client({ options: '-c TimeZone=UTC -c extra_float_digits=1 -c client_min_messages=warning' });
  await client.connect();
  // Its own set-up, whatever ran before it.
  await client.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
  // also when it runs alone (TEST_ONLY=pruning)
  await client.query('CREATE SERVER IF NOT EXISTS parquet_srv FOREIGN DATA WRAPPER parquet_fdw');
  let passed = 0;
  let failed = 0;
  for (const rel of FILES) {
    try {
      const r = await checkFile(client, rel);
      if (r.ok) {
        passed++;
        console.log(`PASS ${rel} (${r.nquals} quals, ${r.pruned} with row groups or pages pruned)`);
      } else {
        failed++;
        console.log(`FAIL ${rel}: ${r.why}`);
      }
    } catch (e) {
      failed++;
      console.log(`FAIL ${rel}: ${e.message}`);
    }
  }
  await client.end();
  console.log(`pruning: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

main();
