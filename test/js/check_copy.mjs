#!/usr/bin/env node
// Independent check of COPY ... TO ... (FORMAT parquet), run after the
// regression suite (sql/copy_to.sql), which leaves its files in DIR
// (default /tmp/parquet_fdw_test/out):
//
//   node test/js/check_copy.mjs [DIR]
//
//   values    DuckDB reads copy_all.parquet and every option variant
//             (copy_<option>.parquet, same table) and each value is compared
//             with the CSV PostgreSQL wrote of the same table
//             (copy_all.csv, column types in copy_all.types.csv): a path
//             that involves neither our writer nor our reader
//   schema    parquet_schema: physical, logical and converted types,
//             REQUIRED for NOT NULL columns
//   metadata  parquet_metadata: codec per option file, row groups,
//             statistics present / absent, Bloom filters present,
//             created_by and key/value metadata
//   bloom     parquet_bloom_probe: present values never excluded, an absent
//             one excluded
//   stdout    the file psql's \copy wrote from COPY ... TO STDOUT
// Last line: "copy: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { canonCsv, canonDuck, pgFamily } from './lib/canon.mjs';
import { parseCsv } from './lib/csv.mjs';

const DIR = process.argv[2] || '/tmp/parquet_fdw_test/out';
const NUMERIC_SCALE = 9; // DECIMAL(38, 9) for numeric without typmod (default)

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`);
  }
}

const file = (name) => path.join(DIR, name);
const kind = (v) => (v && typeof v === 'object' ? v.constructor?.name : typeof v);

// ------------------------------------------------------------ families

// canon.mjs's families, plus what COPY TO defines: numeric without typmod
// carries NUMERIC_SCALE digits, a negative scale is an integer, and timetz
// is the UTC time of day.
function family(pgType) {
  const t = pgType.toLowerCase();
  if (t === 'numeric') return { fam: 'numeric', scale: NUMERIC_SCALE };
  if (/^numeric\(\d+,-\d+\)$/.test(t)) return { fam: 'numeric', scale: 0 };
  if (/^time(\(\d+\))? with time zone$/.test(t)) return { fam: 'timetz' };
  return pgFamily(pgType);
}

function timetzFromPg(text) {
  const m = /^(\d+):(\d+):(\d+)(?:\.(\d+))?([+-])(\d+)(?::(\d+))?(?::(\d+))?$/.exec(text);
  if (!m) throw new Error(`bad timetz ${text}`);
  const local = ((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n + BigInt(m[3])) * 1000000n +
    BigInt((m[4] || '').padEnd(6, '0'));
  let zone = (BigInt(m[6]) * 60n + BigInt(m[7] || 0)) * 60n + BigInt(m[8] || 0);
  if (m[5] === '-') zone = -zone;
  const day = 86400000000n;
  let utc = local - zone * 1000000n;
  if (utc < 0n) utc += day;
  else if (utc > day) utc -= day;
  return utc.toString();
}

function canonPgValue(f, text) {
  if (text === null) return null;
  return f.fam === 'timetz' ? timetzFromPg(text) : canonCsv(f, text);
}

function canonDuckValue(f, v) {
  if (v === null || v === undefined) return null;
  if (f.fam === 'timetz') {
    // TIME(isAdjustedToUTC) reads as TIMETZ (offset 0) or TIME
    const micros = BigInt(v.micros);
    const offset = v.offset !== undefined ? BigInt(v.offset) : 0n;
    return (micros - offset * 1000000n).toString();
  }
  return canonDuck(f, v);
}

// ------------------------------------------------------------ values

async function checkValues(name, expected, types) {
  const r = await duckQuery(`SELECT * FROM read_parquet(${sqlString(file(name))}, binary_as_string = false)`);
  check(`${name}: columns`, r.names.join(',') === types.map((t) => t[0]).join(','), r.names.join(','));
  check(`${name}: rows`, r.rows.length === expected.length, `${r.rows.length} != ${expected.length}`);
  const fams = types.map((t) => family(t[1]));
  for (let c = 0; c < types.length; c++) {
    let bad = 0;
    let first = null;
    for (let i = 0; i < Math.min(r.rows.length, expected.length); i++) {
      let want;
      let got;
      try {
        want = canonPgValue(fams[c], expected[i][c]);
        got = canonDuckValue(fams[c], r.rows[i][c]);
      } catch (e) {
        want = 'error';
        got = String(e.message);
      }
      if (want !== got) {
        bad++;
        if (first === null) first = `row ${i}: expected ${want}, DuckDB ${got} (${kind(r.rows[i][c])})`;
      }
    }
    check(`${name}: ${types[c][0]} (${types[c][1]})`, bad === 0, `${bad} mismatches, first ${first}`);
  }
}

// ------------------------------------------------------------ metadata

async function meta(name) {
  return (await duckQuery(`SELECT path_in_schema, row_group_id, compression, encodings,
      stats_min_value IS NOT NULL AS has_stats, bloom_filter_offset IS NOT NULL AS has_bloom
    FROM parquet_metadata(${sqlString(file(name))})`)).rows;
}

const EXPECTED_SCHEMA = {
  id: ['INT64', 'REQUIRED', 'INTEGER'],
  c_bool: ['BOOLEAN', 'OPTIONAL', null],
  c_int2: ['INT32', 'OPTIONAL', 'INTEGER'],
  c_int4: ['INT32', 'OPTIONAL', 'INTEGER'],
  c_int8: ['INT64', 'OPTIONAL', 'INTEGER'],
  c_float4: ['FLOAT', 'OPTIONAL', null],
  c_float8: ['DOUBLE', 'OPTIONAL', null],
  c_dec4_2: ['INT32', 'OPTIONAL', 'DECIMAL'],
  c_dec9_3: ['INT32', 'OPTIONAL', 'DECIMAL'],
  c_dec18_4: ['INT64', 'OPTIONAL', 'DECIMAL'],
  c_dec38_10: ['FIXED_LEN_BYTE_ARRAY', 'OPTIONAL', 'DECIMAL'],
  c_dec_neg: ['INT32', 'OPTIONAL', 'DECIMAL'],
  c_numeric: ['FIXED_LEN_BYTE_ARRAY', 'OPTIONAL', 'DECIMAL'],
  c_text: ['BYTE_ARRAY', 'OPTIONAL', 'STRING'],
  c_bytea: ['BYTE_ARRAY', 'OPTIONAL', null],
  c_date: ['INT32', 'OPTIONAL', 'DATE'],
  c_time: ['INT64', 'OPTIONAL', 'TIME'],
  c_timetz: ['INT64', 'OPTIONAL', 'TIME'],
  c_timestamp: ['INT64', 'OPTIONAL', 'TIMESTAMP'],
  c_timestamptz: ['INT64', 'OPTIONAL', 'TIMESTAMP'],
  c_interval: ['FIXED_LEN_BYTE_ARRAY', 'OPTIONAL', null],
  c_uuid: ['FIXED_LEN_BYTE_ARRAY', 'OPTIONAL', 'UUID'],
  c_json: ['BYTE_ARRAY', 'OPTIONAL', 'JSON'],
  c_jsonb: ['BYTE_ARRAY', 'OPTIONAL', 'JSON'],
  c_enum: ['BYTE_ARRAY', 'OPTIONAL', 'ENUM'],
  c_int4_nn: ['INT32', 'REQUIRED', 'INTEGER'],
  c_text_nn: ['BYTE_ARRAY', 'REQUIRED', 'STRING'],
};

async function checkSchema() {
  const r = await duckQuery(`SELECT name, type, repetition_type, logical_type::VARCHAR, converted_type
    FROM parquet_schema(${sqlString(file('copy_all.parquet'))})`);
  const byName = new Map(r.rows.map((row) => [row[0], row]));
  for (const [col, [phys, rep, logical]] of Object.entries(EXPECTED_SCHEMA)) {
    const row = byName.get(col);
    if (!row) {
      check(`schema ${col}`, false, 'missing');
      continue;
    }
    const lt = row[3] === null ? null : String(row[3]);
    // DuckDB prints INTEGER as IntType(...)
    const want = logical === 'INTEGER' ? 'INTTYPE' : logical;
    const ltOk = logical === null ? lt === null || lt === '' : lt !== null && lt.toUpperCase().includes(want);
    check(`schema ${col}`, row[1] === phys && row[2] === rep && ltOk,
      `${row[1]} ${row[2]} ${lt} (want ${phys} ${rep} ${logical})`);
  }
  const iv = byName.get('c_interval');
  check('schema c_interval converted type', iv && iv[4] === 'INTERVAL', iv && iv[4]);
}

async function checkMetadata() {
  const codecs = {
    copy_uncompressed: 'UNCOMPRESSED', copy_snappy: 'SNAPPY', copy_gzip: 'GZIP',
    copy_brotli: 'BROTLI', copy_zstd: 'ZSTD', copy_lz4_raw: 'LZ4_RAW', copy_all: 'SNAPPY',
  };
  for (const [name, codec] of Object.entries(codecs)) {
    const rows = await meta(`${name}.parquet`);
    const got = [...new Set(rows.map((r) => r[2]))].join(',');
    check(`${name}: codec`, got === codec, got);
  }
  const rg = await meta('copy_rg.parquet');
  check('copy_rg: 3 row groups', new Set(rg.map((r) => r[1])).size === 3);
  const all = await meta('copy_all.parquet');
  // INTERVAL has no order; chunks holding NaN get no float min/max
  const noStats = all.filter((r) => !['c_interval', 'c_float4', 'c_float8'].includes(r[0]) && !r[4]).map((r) => r[0]);
  check('copy_all: statistics on every ordered column', noStats.length === 0, noStats.join(','));
  const nostats = await meta('copy_nostats.parquet');
  check('copy_nostats: no statistics', nostats.every((r) => !r[4]));
  const plain = await meta('copy_plain.parquet');
  check('copy_plain: no dictionary encoding', plain.every((r) => !String(r[3]).includes('DICTIONARY')));
  const bloom = await meta('copy_bloom.parquet');
  const withBloom = [...new Set(bloom.filter((r) => r[5]).map((r) => r[0]))].sort().join(',');
  check('copy_bloom: Bloom filter columns', withBloom === 'c_int8,c_text,c_uuid', withBloom);

  const fm = await duckQuery(`SELECT created_by FROM parquet_file_metadata(${sqlString(file('copy_all.parquet'))})`);
  check('created_by', /^parquet_fdw version /.test(String(fm.rows[0][0])), String(fm.rows[0][0]));
  const kv = await duckQuery(`SELECT decode(key), decode(value) FROM parquet_kv_metadata(${sqlString(file('copy_kv.parquet'))}) ORDER BY 1`);
  check('key_value_metadata', JSON.stringify(kv.rows) === JSON.stringify([['k2', 'v2'], ['origin', 'regress']]),
    JSON.stringify(kv.rows));
}

async function checkBloom() {
  const probe = async (col, value) => (await duckQuery(
    `SELECT bool_and(bloom_filter_excludes) FROM parquet_bloom_probe(${sqlString(file('copy_bloom.parquet'))}, ${sqlString(col)}, ${value})`)).rows[0][0];
  check('bloom c_text present', (await probe('c_text', "'str_1 ü€😀日本'")) === false);
  check('bloom c_int8 present', (await probe('c_int8', '11::BIGINT * 1000000007 - 2500000000000')) === false);
  check('bloom c_uuid present', (await probe('c_uuid', "md5('10')::UUID")) === false);
  check('bloom c_text absent', (await probe('c_text', "'no such value'")) === true);
  check('bloom c_int8 absent', (await probe('c_int8', '42')) === true);
}

// ------------------------------------------------------------ main

async function main() {
  const types = parseCsv(fs.readFileSync(file('copy_all.types.csv'), 'utf8'));
  const expected = parseCsv(fs.readFileSync(file('copy_all.csv'), 'utf8'));
  const variants = fs.readdirSync(DIR)
    .filter((f) => /^copy_[a-z0-9_]+\.parquet$/.test(f))
    .filter((f) => ['copy_all', 'copy_uncompressed', 'copy_snappy', 'copy_gzip', 'copy_brotli', 'copy_zstd',
      'copy_lz4_raw', 'copy_rg', 'copy_rg_bytes', 'copy_pages', 'copy_v2', 'copy_v2_plain', 'copy_plain',
      'copy_nostats', 'copy_noindex', 'copy_bloom', 'copy_bloom_list', 'copy_kv', 'copy_kv_list']
      .includes(f.replace(/\.parquet$/, '')))
    .sort();
  check('option variants present', variants.length === 19, variants.join(' '));
  for (const v of variants) await checkValues(v, expected, types);
  await checkSchema();
  await checkMetadata();
  await checkBloom();

  const so = await duckQuery(`SELECT count(*), count(c_numeric) FROM read_parquet(${sqlString(file('copy_stdout.parquet'))})`);
  check('stdout: DuckDB reads the \\copy file', Number(so.rows[0][0]) === expected.length, String(so.rows[0][0]));
}

try {
  await main();
} catch (e) {
  failed++;
  console.log(`FAIL: ${e.stack || e}`);
}
console.log(`copy: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
