#!/usr/bin/env node
// Independent check of the Parquet writer (src/format/write/file_writer.c):
//
//   make writer_cli && test/unit/writer_cli DIR && node test/js/check_writer.mjs DIR
//
// writer_cli writes every file below with the same table, each value a
// closed-form function of the row number; this script computes the same
// formulas and checks, per file:
//   values     every value as DuckDB reads it (canonical strings, lib/canon.mjs)
//   schema     physical, logical and converted types (parquet_schema)
//   metadata   row groups, codec, encodings, statistics, exactness, Bloom
//              filter presence, key/value metadata (parquet_metadata & co)
//   bloom      parquet_bloom_probe: present values never excluded, absent
//              values nearly always
//   raw        the bytes themselves through hyparquet's Thrift decoder (not
//              ours): page headers walked chunk by chunk, page CRC-32 (zlib),
//              OffsetIndex = the walk, ColumnIndex bounds/nulls/order, float
//              statistics (NaN counts, -0.0/+0.0 rule), column orders
//   arrow-rs   parquet-wasm reads the file and counts the rows
//   parquet_fdw  with --pg: every value through our own reader, in the
//              cluster the PG* environment names (scripts/cluster.sh), with
//              the extension installed
// Last line: "writer: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import * as pw from 'parquet-wasm';
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { canonDuck, canonJson, canonPg, pgFamily, scaledDecimal } from './lib/canon.mjs';

const NROWS = 12000;
const RG_ROWS = [5000, 5000, 2000];
const TRUNCATE = 64;

// ------------------------------------------------------------ the files

const CODECS = ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw', 'brotli'];
const FILES = [];
for (const codec of CODECS) {
  for (let k = 0; k < 4; k++) {
    const version = 1 + (k % 2);
    const dict = k < 2;
    FILES.push({ name: `m_${codec}_v${version}_${dict ? 'dict' : 'plain'}`, codec, version, dict, stats: true, index: true, rows: NROWS });
  }
}
FILES.push(
  { name: 'opt_zstd_level19', codec: 'zstd', version: 2, dict: true, stats: true, index: true, rows: NROWS },
  { name: 'opt_gzip_level1', codec: 'gzip', version: 1, dict: true, stats: true, index: true, rows: NROWS },
  { name: 'opt_no_page_index', codec: 'snappy', version: 1, dict: true, stats: true, index: false, rows: NROWS },
  { name: 'opt_no_statistics', codec: 'snappy', version: 2, dict: true, stats: false, index: false, rows: NROWS },
  { name: 'opt_empty', codec: 'snappy', version: 1, dict: true, stats: true, index: true, rows: 0 },
);

// ------------------------------------------------------------ the table

const WORDS = ['alpha', 'héllo', '日本語', 'emoji😀', '', 'Ωmega', 'naïve', 'zebra', 'Zürich', 'ça', '東京', 'a b c'];
const LCHARS = ['a', 'b', '€', '日'];
const B = BigInt;
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const be64 = (v) => B.asUintN(64, v).toString(16).padStart(16, '0');
const fmtFloat = (x) => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : String(x));

function fltValue(i) {
  switch (i % 101) {
    case 0: return NaN;
    case 1: return Infinity;
    case 2: return -Infinity;
    case 3: return -0;
    default: return Math.fround((i - 6000) / 8);
  }
}
function dblValue(i) {
  switch (i % 89) {
    case 0: return NaN;
    case 1: return Infinity;
    case 2: return -Infinity;
    case 3: return -0;
    case 4: return 0;
    default: return (i - 6000) * 0.1;
  }
}
function f16Value(i) {
  switch (i % 211) {
    case 1: return NaN;
    case 2: return Infinity;
    case 3: return -0;
    default: return ((i % 2000) - 1000) / 4;
  }
}
function lstr(i) {
  let s = '';
  for (let k = 0; k < 40 + ((i * 37) % 200); k++) s += LCHARS[(i + k) % 4];
  return s;
}
function binBytes(i) {
  const b = [];
  for (let k = 0; k < i % 5; k++) b.push((i * (k + 1) * 37) & 255);
  return Buffer.from(b);
}
function listValue(i) {
  if (i % 8 === 7) return null;
  const a = [];
  if (i % 4 !== 0) for (let j = 0; j < i % 4; j++) a.push((i + j) % 5 === 0 ? null : i * 10 + j);
  return a;
}

// Each column: family (lib/canon.mjs), raw value or null, canonical string,
// and the expectations on its schema and statistics.
//   num: the value as a number/bigint for min/max (null: compare `key`)
//   show: how DuckDB's parquet_metadata prints a bound (null: not checked)
const COLUMNS = [
  { name: 'id', fam: 'int', v: (i) => B(i), type: 'INT64', logical: null },
  { name: 'i8', fam: 'int', v: (i) => (i % 17 === 3 ? null : B(((i * 7) % 256) - 128)), type: 'INT32', converted: 'INT_8' },
  { name: 'i16', fam: 'int', v: (i) => (i % 19 === 4 ? null : B(((i * 31) % 65536) - 32768)), type: 'INT32', converted: 'INT_16' },
  { name: 'i32', fam: 'int', v: (i) => (i % 7 === 0 ? null : B.asIntN(32, B(i) * 2654435761n)), type: 'INT32', converted: 'INT_32', bloom: true },
  { name: 'i64', fam: 'int', v: (i) => (i % 23 === 5 ? null : (B(i) - 6000n) * 1000000007n), type: 'INT64', converted: 'INT_64' },
  { name: 'u8', fam: 'int', v: (i) => (i % 13 === 0 ? null : B(i % 256)), type: 'INT32', converted: 'UINT_8', unsigned: true },
  { name: 'u16', fam: 'int', v: (i) => B((i * 37) % 65536), type: 'INT32', converted: 'UINT_16', unsigned: true },
  { name: 'u32', fam: 'int', v: (i) => (i % 29 === 1 ? null : B.asUintN(32, B(i) * 2654435761n)), type: 'INT32', converted: 'UINT_32', unsigned: true },
  { name: 'u64', fam: 'int', v: (i) => B.asUintN(64, B(i) * 0x9E3779B97F4A7C15n), type: 'INT64', converted: 'UINT_64', unsigned: true },
  { name: 'dec9', fam: 'numeric', scale: 2, v: (i) => (i % 31 === 7 ? null : ((B(i) * 987654321n) % 1999999999n) - 999999999n), type: 'INT32', converted: 'DECIMAL', precision: 9 },
  { name: 'dec18', fam: 'numeric', scale: 4, v: (i) => (B(i) - 6000n) * 123456789012n, type: 'INT64', converted: 'DECIMAL', precision: 18 },
  { name: 'dec38', fam: 'numeric', scale: 6, v: (i) => (i % 37 === 2 ? null : (B(i) - 6000n) * 10n ** 20n + B(i) * 7n), type: 'FIXED_LEN_BYTE_ARRAY', converted: 'DECIMAL', precision: 38 },
  { name: 'flt', fam: 'float4', v: (i) => (i % 9 === 4 ? null : fltValue(i)), type: 'FLOAT', float: 4 },
  { name: 'dbl', fam: 'float8', v: (i) => dblValue(i), type: 'DOUBLE', float: 8 },
  { name: 'str', fam: 'text', v: (i) => (i % 10 === 9 ? null : i % 1000 === 1 ? '' : `${WORDS[i % 12]}-${i % 500}`), type: 'BYTE_ARRAY', converted: 'UTF8', bloom: true },
  { name: 'lstr', fam: 'text', v: (i) => lstr(i), type: 'BYTE_ARRAY', converted: 'UTF8', truncated: true },
  { name: 'bin', fam: 'bytea', v: (i) => (i % 6 === 5 ? null : binBytes(i)), type: 'BYTE_ARRAY' },
  { name: 'uuid', fam: 'uuid', v: (i) => be64(B(i) * 0x9E3779B97F4A7C15n) + be64(B(i) * 0xC2B2AE3D27D4EB4Fn), type: 'FIXED_LEN_BYTE_ARRAY', logical: 'UUIDType' },
  { name: 'date', fam: 'date', v: (i) => (i % 41 === 0 ? null : ((i * 3) % 40000) - 20000), type: 'INT32', converted: 'DATE' },
  { name: 'time', fam: 'time', v: (i) => (B(i) * 1234567891n) % 86400000000n, type: 'INT64', converted: 'TIME_MICROS', logical: 'isAdjustedToUTC=0' },
  { name: 'ts', fam: 'timestamp', v: (i) => (i % 43 === 1 ? null : (B(i) - 6000n) * 86400000123n), type: 'INT64', converted: 'TIMESTAMP_MICROS', logical: 'isAdjustedToUTC=0' },
  { name: 'tstz', fam: 'timestamptz', v: (i) => (B(i) - 6000n) * 86400000123n + 1n, type: 'INT64', converted: 'TIMESTAMP_MICROS', logical: 'isAdjustedToUTC=1' },
  { name: 'f16', fam: 'float4', v: (i) => (i % 47 === 0 ? null : f16Value(i)), type: 'FIXED_LEN_BYTE_ARRAY', logical: 'Float16Type', float: 2 },
  { name: 'flag', fam: 'bool', v: (i) => (i % 3 === 2 ? null : i % 4 === 0), type: 'BOOLEAN' },
  { name: 'lst', fam: 'list', v: (i) => listValue(i), type: 'INT32', converted: 'LIST', path: 'lst, list, element' },
  { name: 'ivl', fam: 'interval', v: (i) => (i % 53 === 0 ? null : [i % 12, i % 30, B(i) * 1000n % 86400000n]), type: 'FIXED_LEN_BYTE_ARRAY', converted: 'INTERVAL', noBounds: true },
  { name: 'json', fam: 'json', v: (i) => (i % 59 === 0 ? null : `{"i":${i},"s":"x${i % 7}"}`), type: 'BYTE_ARRAY', converted: 'JSON' },
];

/** Canonical string of an expected value (the form canonDuck gives). */
function canonExpected(c, v) {
  if (v === null) return null;
  switch (c.fam) {
    case 'int': return v.toString();
    case 'numeric': return scaledDecimal(v, c.scale);
    case 'float4': return fmtFloat(Math.fround(v));
    case 'float8': return fmtFloat(v);
    case 'bool': return v ? 't' : 'f';
    case 'bytea': return '\\x' + hex(v);
    case 'uuid': return `${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20)}`;
    case 'date': return String(v);
    case 'time': case 'timestamp': case 'timestamptz': return v.toString();
    case 'interval': return `${v[0]}|${v[1]}|${v[2] * 1000n}`;
    case 'list': return JSON.stringify(v);
    case 'json': return canonJson(v);
    default: return v;
  }
}

// every file holds the same table: its canonical strings, computed once
const EXPECTED = COLUMNS.map(() => []);
function expectedCanon(k, i) {
  if (EXPECTED[k].length <= i) EXPECTED[k][i] = canonExpected(COLUMNS[k], COLUMNS[k].v(i));
  return EXPECTED[k][i];
}

function canonRead(c, v) {
  if (c.fam === 'list') return v === null ? null : JSON.stringify(v.items.map((x) => (x === null ? null : Number(x))));
  return canonDuck({ fam: c.fam, scale: c.scale ?? null }, v);
}

/** PLAIN bytes of a bound (no length prefix), as the writer stores it. */
function boundBytes(c, v) {
  const b = Buffer.alloc(16);
  switch (c.type) {
    case 'INT32': b.writeInt32LE(Number(B.asIntN(32, v))); return b.subarray(0, 4);
    case 'INT64': b.writeBigInt64LE(B.asIntN(64, v)); return b.subarray(0, 8);
    case 'FLOAT': b.writeFloatLE(v); return b.subarray(0, 4);
    case 'DOUBLE': b.writeDoubleLE(v); return b.subarray(0, 8);
    default: return null;
  }
}

// ---------------------------------------------------------------- checks

let passed = 0;
let failed = 0;
function record(file, what, problems) {
  if (problems.length === 0) {
    passed++;
    return;
  }
  failed++;
  console.log(`FAIL ${file} ${what}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`);
}
const seconds = {};
async function check(file, what, fn) {
  const problems = [];
  const t0 = Date.now();
  try {
    await fn(problems);
  } catch (e) {
    problems.push(`threw ${e.stack || e}`);
  }
  seconds[what] = (seconds[what] ?? 0) + (Date.now() - t0) / 1000;
  record(file, what, problems);
}

/** Row groups of the file as [start, end) row ranges. */
const groupsOf = (f) => (f.rows === 0 ? [] : RG_ROWS.map((n, g) => [g * 5000, g * 5000 + n]));

/** Expected statistics of column c over rows [a, b). */
function expectedStats(c, a, b) {
  let nulls = 0;
  let nans = 0;
  let lo = null;
  let hi = null;
  const less = (x, y) => {
    if (c.fam === 'text') return Buffer.compare(Buffer.from(x), Buffer.from(y)) < 0;
    if (c.fam === 'bytea') return Buffer.compare(x, y) < 0;
    if (c.fam === 'bool') return !x && y;
    return x < y;
  };
  for (let i = a; i < b; i++) {
    const v = c.v(i);
    if (c.fam === 'list') {
      if (v === null || v.length === 0) nulls++;
      else for (const e of v) if (e === null) nulls++; else { if (lo === null || e < lo) lo = e; if (hi === null || e > hi) hi = e; }
      continue;
    }
    if (v === null) { nulls++; continue; }
    if (c.float && Number.isNaN(v)) { nans++; continue; }
    if (lo === null || less(v, lo)) lo = v;
    if (hi === null || less(hi, v)) hi = v;
  }
  return { nulls, nans, lo, hi };
}

const daysToIso = (d) => new Date(d * 86400000).toISOString().slice(0, 10);

async function checkFile(dir, f) {
  const file = path.join(dir, `${f.name}.parquet`);
  if (!fs.existsSync(file)) {
    record(f.name, 'exists', ['file missing']);
    return;
  }
  const q = sqlString(file);
  const bytes = fs.readFileSync(file);

  await check(f.name, 'values', async (problems) => {
    const r = await duckQuery(`SELECT * FROM read_parquet(${q})`);
    if (r.rows.length !== f.rows) problems.push(`${r.rows.length} rows, expected ${f.rows}`);
    if (r.names.join() !== COLUMNS.map((c) => c.name).join()) problems.push(`columns ${r.names.join()}`);
    for (let i = 0; i < Math.min(r.rows.length, f.rows); i++) {
      COLUMNS.forEach((c, k) => {
        const got = canonRead(c, r.rows[i][k]);
        const want = expectedCanon(k, i);
        if (got !== want) problems.push(`row ${i} ${c.name}: got ${got}, want ${want}`);
      });
      if (problems.length > 20) break;
    }
  });

  await check(f.name, 'schema', async (problems) => {
    const r = await duckQuery(`SELECT name, type, converted_type, logical_type, repetition_type, type_length, scale, precision FROM parquet_schema(${q})`);
    const byName = new Map(r.rows.map((row) => [row[0], row]));
    for (const c of COLUMNS) {
      const row = byName.get(c.name === 'lst' ? 'element' : c.name);
      if (!row) { problems.push(`no ${c.name}`); continue; }
      if (row[1] !== c.type) problems.push(`${c.name} type ${row[1]}`);
      const conv = c.name === 'lst' ? byName.get('lst')[2] : row[2];
      if ((c.converted ?? null) !== conv) problems.push(`${c.name} converted ${conv}`);
      if (c.precision && (Number(row[6]) !== c.scale || Number(row[7]) !== c.precision)) problems.push(`${c.name} scale/precision ${row[6]}/${row[7]}`);
      if (c.logical && !String(row[3]).includes(c.logical)) problems.push(`${c.name} logical ${row[3]}`);
    }
    if (byName.get('lst')[4] !== 'OPTIONAL' || byName.get('list')[4] !== 'REPEATED') problems.push('list repetition');
    if (byName.get('id')[4] !== 'REQUIRED' || byName.get('i8')[4] !== 'OPTIONAL') problems.push('repetition');
  });

  await check(f.name, 'metadata', async (problems) => {
    const r = await duckQuery(`SELECT row_group_id, row_group_num_rows, path_in_schema, compression, encodings,
        stats_null_count, stats_min_value, stats_max_value, stats_min, min_is_exact, max_is_exact, bloom_filter_offset
      FROM parquet_metadata(${q}) ORDER BY row_group_id, column_id`);
    const groups = groupsOf(f);
    if (r.rows.length !== groups.length * COLUMNS.length) problems.push(`${r.rows.length} chunks`);
    for (const row of r.rows) {
      const [g, nrows, pth, codec, enc, nulls, minv, maxv, legacyMin, minExact, maxExact, bloomOff] = row;
      const c = COLUMNS.find((x) => (x.path ?? x.name) === pth);
      const [a, b] = groups[Number(g)];
      const where = `rg ${g} ${pth}`;
      if (Number(nrows) !== b - a) problems.push(`${where} rows ${nrows}`);
      if (codec !== f.codec.toUpperCase()) problems.push(`${where} codec ${codec}`);
      const encs = enc.split(', ');
      if (!f.dict && encs.includes('RLE_DICTIONARY')) problems.push(`${where} dictionary while off`);
      if (c.name === 'str' && f.dict !== encs.includes('RLE_DICTIONARY')) problems.push(`${where} encodings ${enc}`);
      if (c.name === 'str' && !f.dict && f.version === 2 && !encs.some((e) => e.startsWith('DELTA_'))) problems.push(`${where} v2 fallback ${enc}`);
      if (c.name === 'id' && enc !== (f.version === 2 ? 'DELTA_BINARY_PACKED' : 'PLAIN')) problems.push(`${where} encodings ${enc}`);
      if (c.name === 'flag' && enc !== (f.version === 2 ? 'RLE' : 'PLAIN, RLE')) problems.push(`${where} encodings ${enc}`);
      if ((bloomOff !== null) !== !!c.bloom) problems.push(`${where} bloom offset ${bloomOff}`);
      if (!f.stats) {
        if (nulls !== null || minv !== null) problems.push(`${where} statistics while off`);
        continue;
      }
      const e = expectedStats(c, a, b);
      if (Number(nulls) !== e.nulls) problems.push(`${where} null_count ${nulls}, want ${e.nulls}`);
      if (c.noBounds) {
        if (minv !== null || maxv !== null || minExact !== null) problems.push(`${where} bounds for an undefined order`);
        continue;
      }
      // legacy min/max only where the signed order is the type's order
      // (DuckDB shows no float bound that is infinite: those are checked raw)
      const legacy = ['INT32', 'INT64'].includes(c.type) && !c.unsigned;
      if (!c.float && (legacyMin !== null) !== (legacy && e.lo !== null)) problems.push(`${where} legacy min ${legacyMin}`);
      if (c.truncated) {
        const lo = Buffer.from(e.lo);
        const hi = Buffer.from(e.hi);
        const gotLo = Buffer.from(minv);
        const gotHi = Buffer.from(maxv);
        if (minExact !== lo.length <= TRUNCATE || maxExact !== hi.length <= TRUNCATE) problems.push(`${where} exactness ${minExact}/${maxExact}`);
        if (gotLo.length > TRUNCATE || !lo.subarray(0, gotLo.length).equals(gotLo)) problems.push(`${where} min ${minv} is not a prefix`);
        if (gotHi.length > TRUNCATE + 3 || Buffer.compare(gotHi, hi) <= 0) problems.push(`${where} max ${maxv} is not above ${e.hi}`);
        continue;
      }
      if (minExact !== true || maxExact !== true) problems.push(`${where} not exact`);
      let show = null;
      switch (c.fam) {
        case 'int': case 'text': show = (v) => String(v); break;
        case 'uuid': show = (v) => canonExpected(c, v); break;
        case 'numeric': show = (v) => scaledDecimal(v, c.scale); break;
        case 'date': show = daysToIso; break;
        case 'bool': show = (v) => String(v); break;
        case 'list': show = (v) => String(v); break;
        case 'json': show = (v) => v; break;
        default: break;  // floats (DuckDB hides infinite bounds) and others: raw check
      }
      if (show && (minv !== show(e.lo) || maxv !== show(e.hi))) problems.push(`${where} bounds ${minv}..${maxv}, want ${show(e.lo)}..${show(e.hi)}`);
    }
    const kv = await duckQuery(`SELECT decode(key), decode(value) FROM parquet_kv_metadata(${q})`);
    if (!kv.rows.some((x) => x[0] === 'writer' && x[1] === 'parquet_fdw writer_cli')) problems.push(`key/value ${JSON.stringify(kv.rows)}`);
    const fm = await duckQuery(`SELECT created_by, num_rows, num_row_groups FROM parquet_file_metadata(${q})`);
    if (fm.rows[0][0] !== 'parquet_fdw version test (writer_cli)' || Number(fm.rows[0][1]) !== f.rows) problems.push(`file metadata ${fm.rows[0]}`);
  });

  if (f.rows > 0) {
    await check(f.name, 'bloom', async (problems) => {
      const probe = async (col, lit) => (await duckQuery(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${q}, '${col}', ${lit}) ORDER BY 1`)).rows.map((x) => x[1]);
      let absentExcluded = 0;
      let absentTotal = 0;
      for (let k = 0; k < 12; k++) {
        const i = (k * 997 + 13) % NROWS;
        for (const c of COLUMNS.filter((x) => x.bloom)) {
          const v = c.v(i);
          if (v === null) continue;
          const lit = c.fam === 'text' ? sqlString(v) : `${v}::INTEGER`;
          const ex = await probe(c.name, lit);
          groupsOf(f).forEach(([a, b], g) => {
            let present = false;
            for (let j = a; j < b && !present; j++) present = c.v(j) !== null && c.v(j) === v;
            if (present && ex[g] !== false) problems.push(`${c.name} ${v} excluded from rg ${g}`);
          });
        }
        for (const [col, lit] of [['str', sqlString(`absent-${k}`)], ['i32', `${1000 + k}::INTEGER`]]) {
          for (const x of await probe(col, lit)) {
            absentTotal++;
            absentExcluded += x === true ? 1 : 0;
          }
        }
      }
      if (absentExcluded < absentTotal * 0.9) problems.push(`only ${absentExcluded}/${absentTotal} absent probes excluded`);
    });
  }

  await check(f.name, 'raw', async (problems) => rawChecks(f, bytes, problems));

  if (pgClient) {
    await check(f.name, 'parquet_fdw', async (problems) => {
      await pgClient.query('DROP FOREIGN TABLE IF EXISTS pqfdw_writer');
      let ddl = (await pgClient.query('SELECT parquet_fdw.create_table_sql($1, $2) AS sql', [file, 'pqfdw_writer'])).rows[0].sql;
      // the reader does not read nested columns yet: leave the list out
      ddl = ddl.replace(/^\s*lst [^,]*,\n/m, '');
      await pgClient.query(ddl);
      const cols = (await pgClient.query({
        text: `SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
               WHERE attrelid = 'pqfdw_writer'::regclass AND attnum > 0 ORDER BY attnum`,
        rowMode: 'array',
      })).rows;
      const ks = cols.map(([name]) => COLUMNS.findIndex((c) => c.name === name));
      if (cols.length !== COLUMNS.length - 1 || ks.includes(-1)) problems.push(`columns ${cols.map((x) => x[0])}`);
      const r = await pgClient.query({ text: 'SELECT * FROM pqfdw_writer', rowMode: 'array', types: { getTypeParser: () => (v) => v } });
      if (r.rows.length !== f.rows) problems.push(`${r.rows.length} rows, expected ${f.rows}`);
      for (let i = 0; i < Math.min(r.rows.length, f.rows) && problems.length <= 20; i++) {
        ks.forEach((k, j) => {
          const got = canonPg(pgFamily(cols[j][1]), r.rows[i][j]);
          const want = expectedCanon(k, i);
          if (got !== want) problems.push(`row ${i} ${COLUMNS[k].name}: got ${got}, want ${want}`);
        });
      }
    });
  }

  await check(f.name, 'arrow-rs', async (problems) => {
    const t = pw.readParquet(new Uint8Array(bytes));
    let n = 0;
    for (let k = 0; k < t.numBatches; k++) n += t.recordBatch(k).numRows;
    if (n !== f.rows) problems.push(`arrow-rs read ${n} rows`);
  });
}

// ------------------------------------------------------------ raw bytes

const thrift = (bytes, offset) => {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset };
  const value = deserializeTCompactProtocol(reader);
  return { value, end: reader.offset };
};
const asBuf = (x) => Buffer.from(x ?? []);

/** Bound as written: floats ignore NaN, -0.0 for a zero min, +0.0 for a zero max. */
function floatBound(c, v, isMin) {
  if (v === 0) v = isMin ? -0 : 0;
  if (c.float === 2) {
    const b = Buffer.alloc(2);
    const h = v === 0 ? (isMin ? 0x8000 : 0) : Number.isFinite(v) ? halfBits(v) : v > 0 ? 0x7c00 : 0xfc00;
    b.writeUInt16LE(h);
    return b;
  }
  return boundBytes(c, v);
}
function halfBits(v) {
  // exact for the values the table uses (multiples of 1/4 below 2048)
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  return sign | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}

function rawChecks(f, bytes, problems) {
  const n = bytes.length;
  if (bytes.subarray(0, 4).toString() !== 'PAR1' || bytes.subarray(n - 4).toString() !== 'PAR1') problems.push('magic');
  const flen = bytes.readUInt32LE(n - 8);
  const { value: md, end } = thrift(bytes, n - 8 - flen);
  if (end !== n - 8) problems.push(`footer ends at ${end}, not ${n - 8}`);
  const leaves = COLUMNS.length;
  if (md.field_7?.length !== leaves || !md.field_7.every((o) => o.field_1 !== undefined)) problems.push('column_orders not TYPE_ORDER for every leaf');
  const groups = groupsOf(f);
  (md.field_4 ?? []).forEach((rg, g) => {
    const [a, b] = groups[g];
    rg.field_1.forEach((cc, k) => {
      const c = COLUMNS[k];
      const cm = cc.field_3;
      const where = `rg ${g} ${c.name}`;
      // walk the pages
      let pos = Number(cm.field_11 ?? cm.field_9);
      const stop = pos + Number(cm.field_7);
      const pages = [];
      let rows = 0;
      let values = 0;
      while (pos < stop) {
        const { value: ph, end: bodyAt } = thrift(bytes, pos);
        const size = ph.field_3;
        const body = bytes.subarray(bodyAt, bodyAt + size);
        if ((zlib.crc32(body) | 0) !== ph.field_4) problems.push(`${where} page at ${pos}: crc ${ph.field_4} != ${zlib.crc32(body) | 0}`);
        if (ph.field_1 === 2) {
          if (pages.length > 0 || !f.dict) problems.push(`${where} dictionary page out of place`);
        } else {
          if (ph.field_1 !== (f.version === 2 ? 3 : 0)) problems.push(`${where} page type ${ph.field_1}`);
          const h = ph.field_1 === 3 ? ph.field_8 : ph.field_5;
          // rows of the page: v2 headers say; v1 flat pages have one per value
          const nrows = ph.field_1 === 3 ? h.field_3 : c.fam === 'list' ? NaN : h.field_1;
          pages.push({ offset: pos, size: bodyAt - pos + size, firstRow: rows, nrows, h });
          values += h.field_1;
          rows += nrows;
          if (ph.field_1 === 3 && h.field_7 !== (f.codec !== 'uncompressed')) problems.push(`${where} is_compressed ${h.field_7}`);
          // page header statistics only when there is no page index
          const pageStats = ph.field_1 === 3 ? h.field_8 : h.field_5;
          if ((pageStats !== undefined) !== (!f.index && f.stats)) problems.push(`${where} page statistics`);
        }
        pos = bodyAt + size;
      }
      if (pos !== stop) problems.push(`${where} pages end at ${pos}, not ${stop}`);
      if (values !== Number(cm.field_5)) problems.push(`${where} num_values ${cm.field_5} != pages ${values}`);
      if (c.fam !== 'list' && f.version === 1 && values !== b - a) problems.push(`${where} ${values} values`);
      if (!f.dict && c.name === 'lstr' && pages.length < 2) problems.push(`${where} only ${pages.length} page`);
      // encoding_stats match the pages
      const dataStats = (cm.field_13 ?? []).filter((s) => s.field_1 !== 2).reduce((s, x) => s + x.field_3, 0);
      if (dataStats !== pages.length) problems.push(`${where} encoding_stats count ${dataStats} pages ${pages.length}`);

      // float statistics: nan_count and the zero rule
      if (f.stats && c.float) {
        const st = cm.field_12;
        const e = expectedStats(c, a, b);
        if (Number(st.field_9) !== e.nans) problems.push(`${where} nan_count ${st.field_9}, want ${e.nans}`);
        if (!asBuf(st.field_6).equals(floatBound(c, e.lo, true)) || !asBuf(st.field_5).equals(floatBound(c, e.hi, false))) {
          problems.push(`${where} float bounds ${hex(asBuf(st.field_6))}..${hex(asBuf(st.field_5))}`);
        }
        // legacy min/max too (signed order, as Arrow writes them), not for FLBA
        if ((st.field_2 !== undefined) !== (c.float !== 2)) problems.push(`${where} legacy float min`);
      }

      if (!f.index) {
        if (cc.field_4 !== undefined || cc.field_6 !== undefined) problems.push(`${where} page index while off`);
        return;
      }
      const oi = thrift(bytes, Number(cc.field_4)).value;
      if (oi.field_1.length !== pages.length) problems.push(`${where} OffsetIndex ${oi.field_1.length} pages, walk ${pages.length}`);
      oi.field_1.forEach((loc, p) => {
        const pg = pages[p] ?? {};
        if (Number(loc.field_1) !== pg.offset || loc.field_2 !== pg.size) problems.push(`${where} page ${p} location`);
        if (!Number.isNaN(pg.firstRow) && Number(loc.field_3) !== pg.firstRow) problems.push(`${where} page ${p} first row ${loc.field_3} != ${pg.firstRow}`);
        if (p > 0 && !(Number(loc.field_3) > Number(oi.field_1[p - 1].field_3))) problems.push(`${where} first rows not increasing`);
      });
      if (c.noBounds) {
        if (cc.field_6 !== undefined) problems.push(`${where} ColumnIndex for an undefined order`);
        return;
      }
      if (cc.field_6 === undefined) { problems.push(`${where} no ColumnIndex`); return; }
      const ci = thrift(bytes, Number(cc.field_6)).value;
      if (ci.field_1.length !== pages.length || ci.field_2.length !== pages.length) problems.push(`${where} ColumnIndex length`);
      if (c.name === 'id' && ci.field_4 !== 1) problems.push(`${where} boundary order ${ci.field_4}, want ASCENDING`);
      if ((ci.field_8 !== undefined) !== !!c.float) problems.push(`${where} nan_counts`);
      if (c.fam !== 'list') {
        // each page's rows are known: its nulls and bounds from the formulas
        const bounds = [];
        pages.forEach((pg, p) => {
          const [pa, pb] = [a + pg.firstRow, a + pg.firstRow + pg.nrows];
          let nulls = 0;
          for (let i = pa; i < pb; i++) nulls += c.v(i) === null ? 1 : 0;
          if (Number(ci.field_5[p]) !== nulls) problems.push(`${where} page ${p} null count ${ci.field_5[p]}, want ${nulls}`);
          if (f.version === 2 && pg.h.field_2 !== nulls) problems.push(`${where} page ${p} num_nulls ${pg.h.field_2}, want ${nulls}`);
          if (ci.field_1[p] !== (nulls === pg.nrows)) problems.push(`${where} page ${p} null_pages`);
          // bounds of fixed-width integer and float pages
          if (['int', 'float4', 'float8'].includes(c.fam) && !c.unsigned && c.type !== 'FIXED_LEN_BYTE_ARRAY' && nulls < pg.nrows) {
            const e = expectedStats(c, pa, pb);
            const lo = c.float ? floatBound(c, e.lo, true) : boundBytes(c, e.lo);
            const hi = c.float ? floatBound(c, e.hi, false) : boundBytes(c, e.hi);
            if (!asBuf(ci.field_2[p]).equals(lo) || !asBuf(ci.field_3[p]).equals(hi)) problems.push(`${where} page ${p} bounds`);
            bounds.push([e.lo === 0 ? -0 : e.lo, e.hi]);
          }
        });
        // boundary order from those bounds: ASCENDING wins ties
        if (bounds.length === pages.length - ci.field_1.filter((x) => x).length && bounds.length > 0) {
          const cmp = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
          let asc = true;
          let desc = true;
          for (let p = 1; p < bounds.length; p++) {
            const cl = cmp(bounds[p - 1][0], bounds[p][0]);
            const ch = cmp(bounds[p - 1][1], bounds[p][1]);
            if (cl > 0 || ch > 0) asc = false;
            if (cl < 0 || ch < 0) desc = false;
          }
          const want = asc ? 1 : desc ? 2 : 0;
          if (ci.field_4 !== want) problems.push(`${where} boundary order ${ci.field_4}, want ${want}`);
        }
      }
    });
  });
}

// ---------------------------------------------------------------- main

const dir = process.argv[2];
if (!dir || (process.argv[3] !== undefined && process.argv[3] !== '--pg')) {
  console.error('usage: node test/js/check_writer.mjs DIR [--pg]   (DIR written by test/unit/writer_cli DIR)');
  process.exit(2);
}
let pgClient = null;
if (process.argv[3] === '--pg') {
  pgClient = new pg.Client({
    options: '-c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=iso_8601 -c extra_float_digits=1 ' +
      '-c bytea_output=hex -c client_min_messages=warning',
  });
  await pgClient.connect();
  const installed = (await pgClient.query("SELECT to_regproc('parquet_fdw.create_table_sql') IS NOT NULL AS x")).rows[0].x;
  if (!installed) await pgClient.query('CREATE EXTENSION parquet_fdw');
  await pgClient.query('CREATE SERVER IF NOT EXISTS parquet_srv FOREIGN DATA WRAPPER parquet_fdw');
}
const started = Date.now();
for (const f of FILES) await checkFile(dir, f);
if (pgClient) {
  await pgClient.query('DROP FOREIGN TABLE IF EXISTS pqfdw_writer');
  await pgClient.end();
}
console.log(`(${FILES.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s: ${Object.entries(seconds).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')})`);
console.log(`writer: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
