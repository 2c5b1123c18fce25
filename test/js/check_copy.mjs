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
//             one excluded (also for filters sized by bloom_filter_ndv/fpp)
//   stdout    the file psql's \copy wrote from COPY ... TO STDOUT
//   nested    DuckDB reads copy_nested.parquet (arrays as LIST, composites as
//             structs, enums, domains) and copy_nested_variant.parquet (the
//             same with jsonb as VARIANT) and each row, as JSON, equals the
//             row_to_json() PostgreSQL wrote of the source row
//             (copy_nested.json.csv); numbers compare by exact value, object
//             keys unordered
//   variant   copy_variant.parquet (sql/copy_nested.sql: every kind of JSON
//             value) read by DuckDB as JSON equals the jsonb text
//             PostgreSQL wrote (copy_variant.csv)
// Last line: "copy: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import { arrowRsReadParquet, duckQuery, sqlString } from './lib/duck.mjs';
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

  // per-column ndv and fpp (sql/copy_options.sql): every size probes right
  const ndvFile = sqlString(file('copy_bloom_ndv.parquet'));
  for (const col of ['a', 'b', 'c', 'd']) {
    const r = await duckQuery(`SELECT
        (SELECT bool_or(bloom_filter_excludes) FROM parquet_bloom_probe(${ndvFile}, '${col}', 4321)),
        (SELECT bool_and(bloom_filter_excludes) FROM parquet_bloom_probe(${ndvFile}, '${col}', -7))`);
    check(`bloom ndv ${col}: present value kept`, r.rows[0][0] === false, String(r.rows[0][0]));
    // d was written with fpp 0.2: an absent value may pass it
    if (col !== 'd') check(`bloom ndv ${col}: absent value excluded`, r.rows[0][1] === true, String(r.rows[0][1]));
  }
}

// ------------------------------------------------------------ nested

// JSON text -> canonical string: object keys sorted, numbers as their exact
// decimal value (trailing fraction zeros and the sign of zero dropped).
// Accepts DuckDB's rendering of VARIANT decimals below 1 (".25").
function canonJson(text) {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
  const num = (t) => {
    let m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t);
    if (!m) throw new Error(`bad number ${t}`);
    let digits = (m[2] || '') + (m[3] || '');
    let exp = Number(m[4] || 0) - (m[3] || '').length;
    digits = digits.replace(/^0+/, '');
    if (digits === '') return '0';
    while (digits.endsWith('0')) { digits = digits.slice(0, -1); exp++; }
    return `${m[1]}${digits}e${exp}`;
  };
  const val = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out = [];
      ws();
      if (text[i] === '}') { i++; return '{}'; }
      for (;;) {
        ws();
        const k = str();
        ws();
        if (text[i++] !== ':') throw new Error(`expected : at ${i}`);
        out.push([k, val()]);
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] !== '}') throw new Error(`expected }} at ${i}`);
        break;
      }
      out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      return `{${out.map(([k, v]) => `${k}:${v}`).join(',')}}`;
    }
    if (c === '[') {
      i++;
      const out = [];
      ws();
      if (text[i] === ']') { i++; return '[]'; }
      for (;;) {
        out.push(val());
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] !== ']') throw new Error(`expected ] at ${i}`);
        break;
      }
      return `[${out.join(',')}]`;
    }
    if (c === '"') return str();
    for (const w of ['true', 'false', 'null']) {
      if (text.startsWith(w, i)) { i += w.length; return w; }
    }
    const m = /^-?[0-9.]+(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) throw new Error(`unexpected ${text.slice(i, i + 20)}`);
    i += m[0].length;
    return num(m[0]);
  };
  const str = () => {
    if (text[i] !== '"') throw new Error(`expected string at ${i}`);
    let j = i + 1;
    while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    const s = JSON.stringify(JSON.parse(text.slice(i, j + 1)));
    i = j + 1;
    return s;
  };
  const out = val();
  ws();
  if (i !== text.length) throw new Error(`trailing ${text.slice(i, i + 20)}`);
  return out;
}

// Rows of PostgreSQL's JSON, by id.
function pgJsonRows(name) {
  const rows = parseCsv(fs.readFileSync(file(name), 'utf8'));
  return new Map(rows.map((r) => [String(r[0]), r[1]]));
}

async function checkNested() {
  const pg = pgJsonRows('copy_nested.json.csv');
  check('nested: PostgreSQL rows', pg.size === 300, String(pg.size));
  const compare = (label, id, want, got) => {
    let ok;
    try {
      ok = canonJson(want) === canonJson(got);
    } catch (e) {
      ok = false;
      got = `${got} (${e.message})`;
    }
    return ok ? null : `${label} id ${id}: PostgreSQL ${want} DuckDB ${got}`;
  };

  // arrays, composites, enums, domains; jsonb as JSON
  const plain = await duckQuery(`SELECT id, to_json(t)::VARCHAR FROM read_parquet(${sqlString(file('copy_nested.parquet'))}) t ORDER BY id`);
  let bad = plain.rows.map((r) => compare('copy_nested', r[0], pg.get(String(r[0])), String(r[1]))).filter(Boolean);
  check('nested: DuckDB rows of copy_nested.parquet', plain.rows.length === pg.size, String(plain.rows.length));
  check('nested: copy_nested.parquet values', bad.length === 0, `${bad.length} rows differ, first ${bad[0]}`);

  // the same with jsonb as VARIANT: DuckDB renders VARIANT as JSON text
  const vfile = sqlString(file('copy_nested_variant.parquet'));
  const v = await duckQuery(`SELECT id, to_json(t)::VARCHAR
    FROM (SELECT * EXCLUDE (j, ja) FROM read_parquet(${vfile})) t ORDER BY id`);
  const vj = await duckQuery(`SELECT id, j::JSON::VARCHAR,
      CASE WHEN ja IS NULL THEN NULL ELSE '[' || array_to_string(list_transform(ja, x -> coalesce(x::JSON::VARCHAR, 'null')), ',') || ']' END
    FROM read_parquet(${vfile}) ORDER BY id`);
  bad = [];
  for (const [n, r0] of v.rows.entries()) {
    const r = [r0[0], r0[1], vj.rows[n][1], vj.rows[n][2]];
    const id = String(r[0]);
    const want = JSON.parse(pg.get(id));
    const wantJ = JSON.stringify(want.j);
    const wantJa = JSON.stringify(want.ja);
    delete want.j;
    delete want.ja;
    const gotRow = JSON.parse(String(r[1]));
    delete gotRow.j;
    delete gotRow.ja;
    // the rest of the row: compared through JSON.stringify of both parses
    // (no number in these columns exceeds double precision)
    bad.push(compare('variant row', id, JSON.stringify(want), JSON.stringify(gotRow)));
    bad.push(compare('variant j', id, wantJ, r[2] === null ? 'null' : String(r[2])));
    bad.push(compare('variant ja', id, wantJa, r[3] === null ? 'null' : String(r[3])));
  }
  bad = bad.filter(Boolean);
  check('nested: DuckDB rows of copy_nested_variant.parquet', v.rows.length === pg.size, String(v.rows.length));
  check('nested: copy_nested_variant.parquet values', bad.length === 0, `${bad.length} differ, first ${bad[0]}`);

  // DuckDB sees VARIANT, LIST and STRUCT types
  const types = await duckQuery(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file('copy_nested_variant.parquet'))})`);
  const t = new Map(types.rows.map((r) => [String(r[0]), String(r[1])]));
  check('nested: VARIANT column type', t.get('j') === 'VARIANT', t.get('j'));
  check('nested: list of VARIANT type', t.get('ja') === 'VARIANT[]', t.get('ja'));
  check('nested: list of structs type', /^STRUCT\(.*\)\[\]$/.test(t.get('items') || ''), t.get('items'));
  check('nested: decimal list type', t.get('nums') === 'DECIMAL(12,3)[]', t.get('nums'));
}

async function checkVariant() {
  const pg = pgJsonRows('copy_variant.csv');
  const r = await duckQuery(`SELECT id, j::JSON::VARCHAR FROM read_parquet(${sqlString(file('copy_variant.parquet'))}) ORDER BY id`);
  check('variant: rows', r.rows.length === pg.size && pg.size > 0, `${r.rows.length} of ${pg.size}`);
  let bad = 0;
  let first = null;
  for (const row of r.rows) {
    const id = String(row[0]);
    const want = pg.get(id);
    const got = row[1] === null ? null : String(row[1]);
    let ok;
    try {
      // DuckDB reads a null group and a Variant null alike (checked below)
      ok = canonJson(want === null ? 'null' : want) === canonJson(got === null ? 'null' : got);
    } catch (e) {
      ok = false;
    }
    if (!ok) {
      bad++;
      if (first === null) first = `id ${id}: PostgreSQL ${want} DuckDB ${got}`;
    }
  }
  check('variant: every JSON value', bad === 0, `${bad} differ, first ${first}`);

  // arrow-rs reads the VARIANT group as a struct: null exactly for SQL NULL,
  // a struct holding the Variant null (value 0x00) for JSON null
  const a = await arrowRsReadParquet(file('copy_variant.parquet'));
  const nullIds = a.rows.filter((row) => row[1] === null).map((row) => String(row[0])).join(',');
  const wantNull = [...pg.entries()].filter(([, j]) => j === null).map(([id]) => id).join(',');
  check('variant: SQL NULL rows are null groups', nullIds === wantNull, `${nullIds} != ${wantNull}`);
  const jsonNull = a.rows.find((row) => pg.get(String(row[0])) === 'null');
  check('variant: JSON null is the Variant null',
    jsonNull && jsonNull[1] !== null && Buffer.from(jsonNull[1].entries.value.bytes).equals(Buffer.from([0])),
    jsonNull && String(jsonNull[1]));
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

  await checkNested();
  await checkVariant();

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
