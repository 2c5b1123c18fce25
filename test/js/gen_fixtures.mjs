#!/usr/bin/env node
// Deterministic Parquet fixtures for the regression (pg_regress) and interop
// suites, written by three independent writers:
//   DuckDB         (duckdb_*)  the "types" table (test/fixtures.md) per codec x dictionary/plain x page v1/v2
//   hyparquet-writer (hyp_*)   data page v2, tiny pages, DELTA_*, BYTE_STREAM_SPLIT, FLOAT16, RLE booleans, page index
//   parquet-wasm / arrow-rs (pw_*) v1/v2 pages, page index, the deprecated LZ4 (Hadoop) codec, LZ4_RAW/ZSTD/GZIP/BROTLI
// plus bad_* files that must give a clean ERROR.
//
//   node gen_fixtures.mjs OUTDIR     write the fixtures and OUTDIR/manifest.json
//   node gen_fixtures.mjs --doc      print the formula table of test/fixtures.md
//
// After writing, every fixture's intended properties (codec, page types,
// encodings, pages per chunk, page index) are verified by walking its page
// headers; a writer that silently stops producing them fails the run.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer, schemaFromColumnData } from 'hyparquet-writer';
import * as pw from 'parquet-wasm';
import { duck, duckQuery, sqlString } from './lib/duck.mjs';
import { duckCreateTypesSql, markdownTable, pgTypesQuery, COLUMNS } from './lib/types_table.mjs';
import { walkPages } from './lib/parquet.mjs';
import { deltaBytesBomb, BOMB_PREFIX, BOMB_VALUES, wideFixedFile, WIDE_WIDTH, WIDE_VALUES, brotliZerosFile, ZEROS_VALUES } from './lib/hostile_parquet.mjs';
import { fixedArraysSql, legacyLists, nestedDeclSql, nestedTypesSql } from './lib/nested_tables.mjs';

if (process.argv[2] === '--doc') {
  // The generated part of test/fixtures.md (checked by scripts/test.sh).
  console.log(markdownTable());
  console.log('\nThe whole table in PostgreSQL, row for row:\n\n```sql\n' + pgTypesQuery() + '\n```');
  process.exit(0);
}
if (!process.argv[2]) {
  console.error('usage: gen_fixtures.mjs OUTDIR | --doc');
  process.exit(2);
}

const OUT = path.resolve(process.argv[2]);
fs.mkdirSync(OUT, { recursive: true, mode: 0o755 });
fs.chmodSync(OUT, 0o755);
for (const f of fs.readdirSync(OUT)) fs.rmSync(path.join(OUT, f), { recursive: true, force: true });
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw-gen-'));

const manifest = [];
/** Register a fixture. reference: 'duckdb' | 'arrow-rs'; expect: 'rows' | 'error'. */
function add(name, { writer, exercises, reference = 'duckdb', expect = 'rows', why, twin, referenceSql, errorCode }) {
  manifest.push({ name, writer, exercises, reference, expect, why, twin, referenceSql, errorCode });
}

function check(name, cond, what) {
  if (!cond) throw new Error(`fixture ${name}: expected ${what}`);
}

/** Verify page-level properties of a written fixture. */
function verifyPages(name, want) {
  const w = walkPages(path.join(OUT, name));
  if (want.codec) check(name, w.codecs.size === 1 && w.codecs.has(want.codec), `codec ${want.codec}, found ${[...w.codecs]}`);
  for (const t of want.pageTypes || []) check(name, w.pageTypes.has(t), `page type ${t}, found ${[...w.pageTypes]}`);
  for (const t of want.noPageTypes || []) check(name, !w.pageTypes.has(t), `no ${t} pages`);
  for (const e of want.encodings || []) check(name, w.dataEncodings.has(e), `data page encoding ${e}, found ${[...w.dataEncodings]}`);
  if (want.minPages) check(name, w.pagesPerChunkMax >= want.minPages, `>= ${want.minPages} pages in a chunk, found ${w.pagesPerChunkMax}`);
  if (want.minRowGroups) check(name, w.rowGroups >= want.minRowGroups, `>= ${want.minRowGroups} row groups, found ${w.rowGroups}`);
  if (want.pageIndex) check(name, w.hasColumnIndex && w.hasOffsetIndex, 'column index and offset index');
  return w;
}

// ------------------------------------------------------------- DuckDB types

const DUCK_CODECS = [
  ['uncompressed', 'UNCOMPRESSED'], ['snappy', 'SNAPPY'], ['gzip', 'GZIP'],
  ['zstd', 'ZSTD'], ['brotli', 'BROTLI'], ['lz4', 'LZ4_RAW'], // DuckDB's 'lz4' writes LZ4_RAW
];

async function duckdbFixtures() {
  const c = await duck();
  for (const s of duckCreateTypesSql()) await c.run(s);
  // Dictionary on: DuckDB only dictionary-encodes a chunk whose distinct
  // values fit DICTIONARY_SIZE_LIMIT (default is small for 2048-row groups);
  // 4096 makes every column except BOOLEAN, DECIMAL(38,10), INTERVAL use it.
  // Dictionary off: DICTIONARY_SIZE_LIMIT 1 (ENUM columns stay dictionary-encoded).
  // (PARQUET_VERSION V2 does not make DuckDB write DATA_PAGE_V2 headers; the
  // page v2 fixtures come from hyparquet-writer and arrow-rs.)
  // Dictionary off + PARQUET_VERSION V2: DuckDB then uses DELTA_BINARY_PACKED,
  // DELTA_LENGTH_BYTE_ARRAY and BYTE_STREAM_SPLIT (still in v1 data pages).
  const variants = [
    ['dict', 'DICTIONARY_SIZE_LIMIT 4096', 'dictionary encoding'],
    ['plain', 'DICTIONARY_SIZE_LIMIT 1', 'plain encoding'],
    ['delta', 'DICTIONARY_SIZE_LIMIT 1, PARQUET_VERSION V2', 'DELTA_BINARY_PACKED / DELTA_LENGTH_BYTE_ARRAY / BYTE_STREAM_SPLIT encodings'],
  ];
  for (const [codecName, codecId] of DUCK_CODECS) {
    for (const [variant, opts, label] of variants) {
      if (variant === 'delta' && !['uncompressed', 'snappy', 'zstd'].includes(codecName)) continue;
      const name = `duckdb_types_${codecName}_${variant}.parquet`;
      const file = path.join(OUT, name);
      // ROW_GROUP_SIZE 1024 is rounded up to DuckDB's vector size: groups of 2048, 2048, 904 rows.
      await c.run(`COPY (SELECT * FROM types ORDER BY id) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION ${codecName}, ` +
        `ROW_GROUP_SIZE 1024, ${opts})`);
      const md = await duckQuery(`SELECT count(DISTINCT path_in_schema) FILTER (WHERE dictionary_page_offset IS NOT NULL) AS d,
                                         count(DISTINCT compression) AS nc, min(compression) AS codec, count(DISTINCT row_group_id) AS rg
                                    FROM parquet_metadata(${sqlString(file)})`);
      const [d, nc, codec, rg] = md.rows[0];
      check(name, Number(nc) === 1 && codec === codecId, `compression ${codecId}, found ${codec}`);
      check(name, Number(rg) >= 3, '>= 3 row groups');
      if (variant === 'dict') check(name, Number(d) >= 25, `>= 25 dictionary-encoded columns, found ${d}`);
      else check(name, Number(d) <= 1, `<= 1 dictionary-encoded column (ENUM), found ${d}`);
      verifyPages(name, variant === 'delta'
        ? { pageTypes: ['DATA_PAGE'], encodings: ['DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY', 'BYTE_STREAM_SPLIT'] }
        : { pageTypes: ['DATA_PAGE'], noPageTypes: ['DATA_PAGE_V2'], encodings: variant === 'dict' ? ['PLAIN_DICTIONARY'] : ['PLAIN'] });
      add(name, {
        writer: 'duckdb',
        exercises: `types table (${COLUMNS.length} columns, 5000 rows, row groups of 2048/2048/904), ${codecId}, ${label}, data page v1`,
      });
    }
  }
}

// ------------------------------------------------------- hyparquet-writer

const HYP_CODECS = {
  UNCOMPRESSED: undefined,
  SNAPPY: undefined, // built in
  GZIP: (b) => new Uint8Array(zlib.gzipSync(b)),
  BROTLI: (b) => new Uint8Array(zlib.brotliCompressSync(b)),
};

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;

/** Columns DuckDB can read (BSS only on FLOAT/DOUBLE). 3000 rows. */
function hypEncodingsColumns() {
  const n = 3000;
  const seq = (f) => Array.from({ length: n }, (_, i) => f(i));
  return [
    { name: 'id', data: seq((i) => BigInt(i)), type: 'INT64', nullable: false, encoding: 'DELTA_BINARY_PACKED' },
    // Deltas between INT32 extremes overflow 32 bits: decoders must wrap.
    { name: 'delta_i32', type: 'INT32', encoding: 'DELTA_BINARY_PACKED',
      data: seq((i) => (i % 5 === 2 ? null : i % 10 < 5 ? [I32_MIN, I32_MAX, 0, -1, 1][i % 5] : (i * 7919) % 100000 - 50000)) },
    { name: 'delta_i64', type: 'INT64', encoding: 'DELTA_BINARY_PACKED',
      data: seq((i) => (i % 11 === 4 ? null : i % 97 === 0 ? -9223372036854775808n : i % 89 === 0 ? 9223372036854775807n : BigInt(i) * BigInt(i) * 1000000007n - 4500000000000000n)) },
    { name: 'delta_len_str', type: 'STRING', encoding: 'DELTA_LENGTH_BYTE_ARRAY',
      data: seq((i) => (i % 6 === 1 ? null : `len_${'x'.repeat(i % 17)}${i}`)) },
    { name: 'delta_str', type: 'STRING', encoding: 'DELTA_BYTE_ARRAY',
      data: seq((i) => (i % 13 === 5 ? null : i % 50 === 0 ? '' : `prefix/${String(Math.floor(i / 10)).padStart(5, '0')}/${i % 10}/é`)) },
    { name: 'delta_bin', type: 'BYTE_ARRAY', encoding: 'DELTA_BYTE_ARRAY',
      data: seq((i) => (i % 9 === 0 ? null : Uint8Array.from([0, 255, i & 255, (i >> 8) & 255, ...Array(i % 4).fill(7)]))) },
    { name: 'bss_float', type: 'FLOAT', encoding: 'BYTE_STREAM_SPLIT',
      data: seq((i) => (i % 7 === 3 ? null : i === 10 ? NaN : i === 11 ? Infinity : i === 12 ? -0 : Math.fround((i - 1500) / 3))) },
    { name: 'bss_double', type: 'DOUBLE', encoding: 'BYTE_STREAM_SPLIT',
      data: seq((i) => (i % 7 === 4 ? null : i === 10 ? NaN : i === 11 ? -Infinity : i === 12 ? -0 : (i - 1500) / 7 * 1e-3)) },
    { name: 'rle_bool', type: 'BOOLEAN', encoding: 'RLE', data: seq((i) => (i % 8 === 0 ? null : Math.floor(i / 37) % 2 === 0)) },
    { name: 'dict_str', type: 'STRING', data: seq((i) => (i % 10 === 9 ? null : ['red', 'green', 'blue', 'cyan'][i % 4])) },
    { name: 'f16', type: 'FLOAT16', data: seq((i) => (i % 9 === 1 ? null : i === 2 ? NaN : i === 3 ? -Infinity : i === 4 ? -0 : (i % 2000 - 1000) / 8)) },
    { name: 'uuid', type: 'UUID', data: seq((i) => (i % 7 === 0 ? null : `${String(i).padStart(8, '0')}-0000-4000-8000-${String(i * 7).padStart(12, '0')}`)) },
    { name: 'ts_millis', type: 'TIMESTAMP', data: seq((i) => (i % 7 === 5 ? null : new Date(Date.UTC(1965, 0, 1) + i * 123456789))) },
    { name: 'json', type: 'JSON', data: seq((i) => (i % 7 === 6 ? null : { k: i, a: [i % 3, 'x'], nested: { ok: i % 2 === 0 } })) },
    { name: 'req_i32', type: 'INT32', nullable: false, data: seq((i) => i * 3 - 4000) },
  ];
}

/** Columns only arrow-rs reads among our references: BSS on INT32/INT64/FLBA/FLOAT16, decimals. */
function hypBssColumns() {
  const n = 2000;
  const seq = (f) => Array.from({ length: n }, (_, i) => f(i));
  const cols = [
    { name: 'id', data: seq((i) => i), encoding: 'DELTA_BINARY_PACKED' },
    { name: 'bss_i32', data: seq((i) => (i % 7 === 3 ? null : i % 100 === 0 ? I32_MIN : (i * 104729) % 2000003 - 1000000)), encoding: 'BYTE_STREAM_SPLIT' },
    { name: 'bss_i64', data: seq((i) => (i % 7 === 4 ? null : BigInt(i) * 12345678901n - 9876543210987n)), encoding: 'BYTE_STREAM_SPLIT' },
    { name: 'bss_flba5', data: seq((i) => (i % 7 === 5 ? null : Uint8Array.from([i & 255, (i >> 8) & 255, 0, 255, i % 3]))), encoding: 'BYTE_STREAM_SPLIT' },
    { name: 'bss_f16', data: seq((i) => (i % 7 === 6 ? null : (i % 1000 - 500) / 4)), encoding: 'BYTE_STREAM_SPLIT' },
    { name: 'dec_flba', data: seq((i) => (i % 5 === 0 ? null : BigInt(i) * 99999999999n - 99999999999999n)) },
    { name: 'dec_ba', data: seq((i) => (i % 5 === 1 ? null : (BigInt(i) - 1000n) * 123456789012345678901n)) },
    { name: 'dec_i32', data: seq((i) => (i % 5 === 2 ? null : BigInt(i * 37 - 30000))) },
    // Sign extension of a short FLBA: negative, positive, both extremes.
    { name: 'dec_flba6', data: seq((i) => (i % 5 === 3 ? null : i % 97 === 0 ? -(10n ** 13n) + 1n : i % 89 === 0 ? 10n ** 13n - 1n : (BigInt(i) - 1000n) * 1234567n + BigInt(i % 3))) },
  ];
  const schema = schemaFromColumnData({
    columnData: cols,
    schemaOverrides: {
      id: { name: 'id', type: 'INT32', repetition_type: 'REQUIRED' },
      bss_i32: { name: 'bss_i32', type: 'INT32', repetition_type: 'OPTIONAL' },
      bss_i64: { name: 'bss_i64', type: 'INT64', repetition_type: 'OPTIONAL' },
      bss_flba5: { name: 'bss_flba5', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 5, repetition_type: 'OPTIONAL' },
      bss_f16: { name: 'bss_f16', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 2, logical_type: { type: 'FLOAT16' }, repetition_type: 'OPTIONAL' },
      dec_flba: { name: 'dec_flba', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 9, converted_type: 'DECIMAL', precision: 20, scale: 4,
        logical_type: { type: 'DECIMAL', precision: 20, scale: 4 }, repetition_type: 'OPTIONAL' },
      dec_ba: { name: 'dec_ba', type: 'BYTE_ARRAY', converted_type: 'DECIMAL', precision: 30, scale: 5,
        logical_type: { type: 'DECIMAL', precision: 30, scale: 5 }, repetition_type: 'OPTIONAL' },
      dec_i32: { name: 'dec_i32', type: 'INT32', converted_type: 'DECIMAL', precision: 9, scale: 2, repetition_type: 'OPTIONAL' },
      dec_flba6: { name: 'dec_flba6', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 6, converted_type: 'DECIMAL', precision: 13, scale: 2,
        logical_type: { type: 'DECIMAL', precision: 13, scale: 2 }, repetition_type: 'OPTIONAL' },
    },
  });
  return { cols, schema };
}

function writeHyp(name, opts) {
  const buf = parquetWriteBuffer(opts);
  fs.writeFileSync(path.join(OUT, name), new Uint8Array(buf));
}

function hypFixtures() {
  for (const [codec, fn] of Object.entries(HYP_CODECS)) {
    const name = `hyp_encodings_${codec.toLowerCase()}.parquet`;
    const columnData = hypEncodingsColumns().map((c) => ({ ...c, columnIndex: true, bloomFilter: c.name === 'dict_str' || c.name === 'id' }));
    writeHyp(name, {
      columnData, codec, compressors: fn ? { [codec]: fn } : undefined,
      pageSize: 512, rowGroupSize: 1000, statisticsTruncateLength: 16, createdBy: 'hyparquet-writer (parquet_fdw fixtures)',
    });
    verifyPages(name, {
      codec, pageTypes: ['DATA_PAGE_V2', 'DICTIONARY_PAGE'], noPageTypes: ['DATA_PAGE'], minPages: 10, minRowGroups: 3, pageIndex: true,
      encodings: ['DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT', 'RLE', 'RLE_DICTIONARY', 'PLAIN'],
    });
    add(name, {
      writer: 'hyparquet-writer',
      exercises: `${codec}; data page v2 only; ~512-byte pages (many pages per chunk); 3 row groups; DELTA_BINARY_PACKED (INT32/INT64 extremes, overflowing deltas), ` +
        'DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY (strings, binary), BYTE_STREAM_SPLIT (FLOAT/DOUBLE with NaN/Inf/-0), RLE booleans, ' +
        'dictionary strings, FLOAT16, UUID, TIMESTAMP_MILLIS (converted type only), JSON, REQUIRED columns, column/offset index, bloom filters',
    });
  }
  {
    const name = 'hyp_bss_decimal.parquet';
    const { cols, schema } = hypBssColumns();
    writeHyp(name, { columnData: cols.map((c) => ({ ...c, columnIndex: true })), schema, codec: 'SNAPPY', pageSize: 1024, rowGroupSize: 700 });
    verifyPages(name, { codec: 'SNAPPY', pageTypes: ['DATA_PAGE_V2'], encodings: ['BYTE_STREAM_SPLIT', 'DELTA_BINARY_PACKED'], minPages: 3, minRowGroups: 3, pageIndex: true });
    add(name, {
      writer: 'hyparquet-writer', reference: 'arrow-rs',
      exercises: 'BYTE_STREAM_SPLIT on INT32, INT64, FIXED_LEN_BYTE_ARRAY(5) and FLOAT16 (DuckDB cannot read these, so arrow-rs is the reference); ' +
        'DECIMAL on FIXED_LEN_BYTE_ARRAY(9) and (6), BYTE_ARRAY (variable length) and INT32 (converted type only)',
    });
  }
}

// ------------------------------------------------------- parquet-wasm (arrow-rs)

async function pwFixtures() {
  // Seed: the DuckDB types table minus INTERVAL (arrow-rs reads Parquet
  // INTERVAL as a day-time interval and would drop the months).
  const seed = path.join(TMP, 'seed.parquet');
  const cols = COLUMNS.map((c) => c.name).filter((n) => n !== 'c_interval');
  const c = await duck();
  await c.run(`COPY (SELECT ${cols.join(', ')} FROM types ORDER BY id) TO ${sqlString(seed)} (FORMAT parquet, COMPRESSION uncompressed)`);
  const seedBytes = new Uint8Array(fs.readFileSync(seed));
  const C = pw.Compression;

  const write = (name, build) => {
    const table = pw.readParquet(seedBytes);
    let b = new pw.WriterPropertiesBuilder()
      .setCreatedBy('parquet-wasm (arrow-rs) (parquet_fdw fixtures)')
      .setStatisticsEnabled(pw.EnabledStatistics.Page)
      .setMaxRowGroupSize(2000)
      // Small pages, checked every 64 rows: many pages per column chunk.
      .setDataPageSizeLimit(1024)
      .setWriteBatchSize(64)
      // A 4 KiB dictionary fills up mid-chunk for high-cardinality columns,
      // so those chunks fall back from RLE_DICTIONARY to PLAIN pages.
      .setDictionaryPageSizeLimit(4096);
    b = build(b);
    fs.writeFileSync(path.join(OUT, name), pw.writeParquet(table, b.build()));
  };

  const codecs = [
    ['lz4', C.LZ4, 'LZ4'], ['lz4_raw', C.LZ4_RAW, 'LZ4_RAW'], ['zstd', C.ZSTD, 'ZSTD'],
    ['gzip', C.GZIP, 'GZIP'], ['brotli', C.BROTLI, 'BROTLI'], ['snappy', C.SNAPPY, 'SNAPPY'], ['uncompressed', C.UNCOMPRESSED, 'UNCOMPRESSED'],
  ];
  for (const [cname, cid, cstr] of codecs) {
    for (const ver of ['v1', 'v2']) {
      if (ver === 'v1' && !['lz4', 'snappy'].includes(cname)) continue;
      const name = `pw_${ver}_${cname}.parquet`;
      write(name, (b) => b.setCompression(cid).setWriterVersion(ver === 'v2' ? pw.WriterVersion.V2 : pw.WriterVersion.V1));
      verifyPages(name, { codec: cstr, pageTypes: [ver === 'v2' ? 'DATA_PAGE_V2' : 'DATA_PAGE', 'DICTIONARY_PAGE'], minPages: 20, minRowGroups: 3,
        pageIndex: true, encodings: ['RLE_DICTIONARY', 'PLAIN'] });
      const lz4 = cname === 'lz4';
      add(name, {
        writer: 'parquet-wasm (arrow-rs)',
        reference: lz4 ? 'arrow-rs' : 'duckdb',
        twin: lz4 ? 'pw_v2_lz4_raw.parquet' : undefined, // same seed table, LZ4_RAW (DuckDB reads it)
        exercises: `${cstr}${lz4 ? ' (deprecated codec, Hadoop framing; DuckDB cannot read it, reference is arrow-rs plus the LZ4_RAW twin)' : ''}; ` +
          `data page ${ver}; ~1 KiB pages; 2000-row groups; 4 KiB dictionaries (fallback from dictionary to PLAIN mid-chunk); ` +
          'page statistics + column/offset index; arrow-rs type annotations ' +
          '(INTEGER logical types, UUID as plain FLBA(16), JSON/ENUM as STRING) of the types table without c_interval',
      });
    }
  }

  // Encodings chosen per column, dictionary off.
  const enc = pw.Encoding;
  const intCols = ['id', 'c_int1', 'c_int2', 'c_int4', 'c_int8', 'c_uint1', 'c_uint2', 'c_uint4', 'c_uint8', 'c_date', 'c_time',
    'c_timestamp', 'c_timestamptz', 'c_timestamp_ms', 'c_timestamp_s', 'c_timestamp_ns', 'c_dec4_2', 'c_dec9_3', 'c_dec18_4', 'c_int4_nn'];
  const strCols = ['c_varchar', 'c_varchar_long', 'c_blob', 'c_json', 'c_enum', 'c_varchar_nn'];
  for (const [name, strEnc, label] of [['pw_v2_delta_byte_array.parquet', enc.DELTA_BYTE_ARRAY, 'DELTA_BYTE_ARRAY'],
    ['pw_v1_delta_length_byte_array.parquet', enc.DELTA_LENGTH_BYTE_ARRAY, 'DELTA_LENGTH_BYTE_ARRAY']]) {
    write(name, (b) => {
      b = b.setCompression(C.ZSTD).setDictionaryEnabled(false)
        .setWriterVersion(name.includes('_v2_') ? pw.WriterVersion.V2 : pw.WriterVersion.V1);
      for (const col of intCols) b = b.setColumnEncoding(col, enc.DELTA_BINARY_PACKED);
      for (const col of strCols) b = b.setColumnEncoding(col, strEnc);
      for (const col of ['c_float', 'c_double', 'c_double_nn']) b = b.setColumnEncoding(col, enc.BYTE_STREAM_SPLIT);
      return b;
    });
    verifyPages(name, { codec: 'ZSTD', encodings: ['DELTA_BINARY_PACKED', label, 'BYTE_STREAM_SPLIT'], noPageTypes: ['DICTIONARY_PAGE'], minPages: 5, pageIndex: true });
    add(name, {
      writer: 'parquet-wasm (arrow-rs)',
      exercises: `ZSTD; dictionary off; DELTA_BINARY_PACKED on every integer/date/time/timestamp/decimal column, ${label} on string/binary columns, ` +
        `BYTE_STREAM_SPLIT on FLOAT/DOUBLE; data page ${name.includes('_v2_') ? 'v2' : 'v1'}`,
    });
  }
}

// ------------------------------------------------------------- out of range

/** Valid Parquet values that PostgreSQL's date and timestamp cannot hold. */
async function rangeFixtures() {
  const c = await duck();
  const name = 'range_datetime.parquet';
  await c.run(`COPY (SELECT i AS id,
      CASE WHEN i = 2 THEN DATE '5880000-01-01' ELSE DATE '2000-01-01' + i::INTEGER END AS d,
      CASE WHEN i = 3 THEN TIMESTAMP '5000-01-01 (BC)' ELSE TIMESTAMP '2000-01-01' + to_seconds(i) END AS ts
    FROM range(10) t(i)) TO ${sqlString(path.join(OUT, name))} (FORMAT parquet, COMPRESSION snappy, DICTIONARY_SIZE_LIMIT 1)`);
  add(name, { writer: 'duckdb', exercises: 'a date after 5874897 AD (row 3) and a timestamp before 4713 BC (row 4): reading them is a class-22 ERROR naming column and row; other columns read' });
  // The same date in a dictionary: an ERROR only for the row that holds it.
  const dictName = 'range_date_dict.parquet';
  const dictFile = path.join(OUT, dictName);
  await c.run(`COPY (SELECT i AS id,
      CASE WHEN i % 10 = 2 THEN DATE '5880000-01-01' ELSE DATE '2000-01-01' + (i % 10)::INTEGER END AS d
    FROM range(100) t(i)) TO ${sqlString(dictFile)} (FORMAT parquet, COMPRESSION snappy)`);
  const enc = await duckQuery(`SELECT encodings FROM parquet_metadata(${sqlString(dictFile)}) WHERE path_in_schema = 'd'`);
  check(dictName, String(enc.rows[0][0]).includes('DICTIONARY'), `column d dictionary-encoded, found ${enc.rows[0][0]}`);
  const why = 'the date after 5874897 AD in a dictionary, held by rows 3, 13, ..., 93 (id % 10 = 2): reading d is an ERROR only for those rows (sql/errors.sql reads the others)';
  add(dictName, { writer: 'duckdb', reference: 'none', expect: 'error', errorCode: '22008', why, exercises: why });
}

// ------------------------------------------------------------- bad files

async function badFixtures() {
  const base = path.join(TMP, 'base.parquet');
  const c = await duck();
  await c.run(`COPY (SELECT i AS id, 'row ' || i AS s, i * 1.5 AS d FROM range(1000) t(i)) TO ${sqlString(base)} (FORMAT parquet, COMPRESSION snappy)`);
  const good = fs.readFileSync(base);
  const footerLen = good.readUInt32LE(good.length - 8);
  const md = await duckQuery(`SELECT data_page_offset, total_compressed_size FROM parquet_metadata(${sqlString(base)}) WHERE column_id = 1`);
  const [dataOff] = md.rows[0].map(Number);

  const bad = async (name, bytes, why, duckMustFail = true) => {
    const file = path.join(OUT, name);
    fs.writeFileSync(file, bytes);
    // Sanity: the damage must be real, i.e. DuckDB must fail to read it too.
    let readable = true;
    try { await duckQuery(`SELECT * FROM read_parquet(${sqlString(file)})`); } catch { readable = false; }
    if (duckMustFail) check(name, !readable, 'a file DuckDB cannot read');
    add(name, { writer: 'gen_fixtures.mjs (corrupted DuckDB file)', expect: 'error', reference: 'none', why, exercises: why });
  };
  await bad('bad_empty.parquet', Buffer.alloc(0), 'empty file');
  await bad('bad_not_parquet.parquet', Buffer.from('this is a text file, not Parquet\n'.repeat(10)), 'not a Parquet file');
  await bad('bad_only_magic.parquet', Buffer.from('PAR1'), 'file of 4 bytes: magic only');
  const head = Buffer.from(good); head.write('PARX', 0, 'latin1');
  // DuckDB only checks the trailing magic, so it still reads this one.
  await bad('bad_magic_head.parquet', head, 'wrong leading magic', false);
  const tail = Buffer.from(good); tail.write('PARX', good.length - 4, 'latin1');
  await bad('bad_magic_tail.parquet', tail, 'wrong trailing magic');
  await bad('bad_truncated.parquet', good.subarray(0, Math.floor(good.length / 2)), 'file truncated to half its size');
  const flen = Buffer.from(good); flen.writeUInt32LE(good.length + 1000, good.length - 8);
  await bad('bad_footer_len.parquet', flen, 'footer length points past the start of the file');
  const fneg = Buffer.from(good); fneg.writeUInt32LE(0xffffffff, good.length - 8);
  await bad('bad_footer_len_huge.parquet', fneg, 'footer length 0xFFFFFFFF');
  const thr = Buffer.from(good); thr.fill(0xff, good.length - 8 - footerLen, good.length - 8);
  await bad('bad_footer_thrift.parquet', thr, 'footer bytes overwritten with 0xFF (corrupt Thrift)');
  const ph = Buffer.from(good); ph.fill(0xff, dataOff, dataOff + 16);
  await bad('bad_page_header.parquet', ph, 'first page header of column 1 overwritten with 0xFF');
  // Overwrite the compressed body of the first data page (after its header).
  const body = Buffer.from(good);
  const hdrEnd = findPageBodyStart(good, dataOff);
  body.fill(0xff, hdrEnd, hdrEnd + 24);
  await bad('bad_snappy_data.parquet', body, 'corrupt SNAPPY page body (decompression failure or size mismatch)');
  add('bad_missing_file.parquet', { writer: 'none', expect: 'error', reference: 'none', why: 'file does not exist', exercises: 'missing file (58P01)' });

  // STRING values that are not valid UTF-8 text: a 0xFF byte, and a NUL
  // byte (valid UTF-8, but no PostgreSQL text can hold it), in the first
  // eight bytes of a value, in its last bytes past them, and in a value
  // shorter than eight bytes (the reader checks eight bytes at a time).
  // Plain, uncompressed pages, so the marker bytes can be patched in place.
  const plain = path.join(TMP, 'plain_strings.parquet');
  await c.run(`COPY (SELECT i AS id, CASE WHEN i = 500 THEN 'bad_Q_marker' WHEN i = 600 THEN 'bQm' ELSE 'row ' || i END AS s FROM range(1000) t(i))
    TO ${sqlString(plain)} (FORMAT parquet, COMPRESSION uncompressed, DICTIONARY_SIZE_LIMIT 1)`);
  const strings = fs.readFileSync(plain);
  for (const [name, marker, pos, byte, why] of [
    ['str_invalid_utf8.parquet', 'bad_Q_marker', 4, 0xff, 'a STRING value with a 0xFF byte (invalid UTF-8)'],
    ['str_invalid_utf8_tail.parquet', 'bad_Q_marker', 10, 0xff, 'a STRING value with a 0xFF byte past its first eight bytes (invalid UTF-8)'],
    ['str_invalid_utf8_short.parquet', 'bQm', 1, 0xff, 'a three-byte STRING value with a 0xFF byte (invalid UTF-8)'],
    ['str_nul_byte.parquet', 'bad_Q_marker', 4, 0x00, 'a STRING value with a NUL byte (not storable as text)'],
    ['str_nul_byte_tail.parquet', 'bad_Q_marker', 11, 0x00, 'a STRING value ending in a NUL byte (not storable as text)']]) {
    const buf = Buffer.from(strings);
    let at = buf.indexOf(marker);
    let n = 0;
    for (; at >= 0; at = buf.indexOf(marker, at + 1), n++) buf[at + pos] = byte;
    check(name, n > 0, 'the marker string in the file');
    fs.writeFileSync(path.join(OUT, name), buf);
    add(name, { writer: 'gen_fixtures.mjs (patched DuckDB file)', expect: 'error', reference: 'none', errorCode: '22021', why, exercises: why });
  }

  // A data page v2 whose header gives one row less than its repetition
  // levels hold: the levels and the header disagree, and neither may be
  // taken on trust. arrow-rs writes the v2 pages (a list column, 1000 rows
  // of two elements, one page); num_rows 1000 (zigzag varint D0 0F, after
  // num_nulls 0) becomes 999 (CE 0F), same length.
  {
    const name = 'v2_num_rows_mismatch.parquet';
    const seed = path.join(TMP, 'v2_rows_seed.parquet');
    await c.run(`COPY (SELECT i AS id, [i, i + 1] AS l FROM range(1000) t(i)) TO ${sqlString(seed)} (FORMAT parquet, COMPRESSION uncompressed)`);
    const props = new pw.WriterPropertiesBuilder().setCompression(pw.Compression.UNCOMPRESSED)
      .setWriterVersion(pw.WriterVersion.V2).setDictionaryEnabled(false).build();
    const buf = Buffer.from(pw.writeParquet(pw.readParquet(new Uint8Array(fs.readFileSync(seed))), props));
    const pat = Buffer.from([0x15, 0x00, 0x15, 0xd0, 0x0f]);
    const at = buf.lastIndexOf(pat);
    check(name, at >= 0 && buf.indexOf(pat) !== at, 'v2 page headers with num_nulls 0, num_rows 1000 for both columns');
    buf[at + 3] = 0xce;
    fs.writeFileSync(path.join(OUT, name), buf);
    verifyPages(name, { pageTypes: ['DATA_PAGE_V2'] });
    const why = 'data page v2 of a list column whose num_rows (999) disagrees with its repetition levels (1000 rows)';
    add(name, { writer: 'gen_fixtures.mjs (patched arrow-rs file)', expect: 'error', reference: 'none', errorCode: 'XX001', why, exercises: why });
  }
  // Issue 38, defect 2: a 300-byte file whose one DELTA_BYTE_ARRAY page
  // decodes to 268 MB.  DuckDB reads it (it is valid Parquet): the refusal
  // is the reader's limit on decoded bytes, not damage.
  {
    const name = 'bad_delta_bytes_bomb.parquet';
    const file = path.join(OUT, name);
    fs.writeFileSync(file, deltaBytesBomb());
    const r = await duckQuery(`SELECT count(*), min(length(s)), sum(length(s)) FROM read_parquet(${sqlString(file)})`);
    const [count, minLen, total] = r.rows[0].map(Number);
    check(name, fs.statSync(file).size < 512 && count === BOMB_VALUES && minLen === BOMB_PREFIX &&
      total === BOMB_PREFIX + (BOMB_VALUES - 1) * (BOMB_PREFIX + 1),
    `a file under 512 bytes DuckDB reads as ${BOMB_VALUES} values of ${BOMB_PREFIX}+ bytes, found ${count}, ${minLen}, ${total}`);
    const why = 'DELTA_BYTE_ARRAY page of 65,536 values repeating 4096-byte prefixes: 268 MB decoded from 300 bytes';
    add(name, { writer: 'test/js/lib/hostile_parquet.mjs (hand-built)', expect: 'error', reference: 'none', errorCode: 'XX001', why, exercises: why });
  }
  // Issue 38: a FIXED_LEN_BYTE_ARRAY 2 MB wide is read with segments of one
  // value, not scratch of 4096 values (8 GB) sized by a width from the file.
  {
    const name = 'flba_wide.parquet';
    const file = path.join(OUT, name);
    fs.writeFileSync(file, wideFixedFile());
    const r = await duckQuery(`SELECT count(*), min(octet_length(s)), max(octet_length(s)) FROM read_parquet(${sqlString(file)})`);
    const [count, minLen, maxLen] = r.rows[0].map(Number);
    check(name, fs.statSync(file).size < 64 * 1024 && count === WIDE_VALUES && minLen === WIDE_WIDTH && maxLen === WIDE_WIDTH,
      `DuckDB reads ${WIDE_VALUES} values of ${WIDE_WIDTH} bytes, found ${count}, ${minLen}, ${maxLen}`);
    add(name, { writer: 'test/js/lib/hostile_parquet.mjs (hand-built)', exercises: 'FIXED_LEN_BYTE_ARRAY(2097152): 3 values of 2 MB in one GZIP page' });
  }
  // Issue 38: a BROTLI page of 40 MB from a few hundred bytes.  Valid (DuckDB
  // reads it); refused because ZSTD and BROTLI pages over 32 MB are held to
  // 1032 times their compressed size.
  {
    const name = 'bad_brotli_ratio.parquet';
    const file = path.join(OUT, name);
    fs.writeFileSync(file, brotliZerosFile());
    const r = await duckQuery(`SELECT count(*), sum(s) FROM read_parquet(${sqlString(file)})`);
    const [count, sum] = r.rows[0].map(Number);
    check(name, fs.statSync(file).size < 1024 && count === ZEROS_VALUES && sum === 0,
      `a file under 1 kB DuckDB reads as ${ZEROS_VALUES} zeros, found ${count}, ${sum}`);
    const why = 'BROTLI page of 40 MB (10,485,760 INT32 zeros) in under 1 kB: over 32 MB and 1032 times its size';
    add(name, { writer: 'test/js/lib/hostile_parquet.mjs (hand-built)', expect: 'error', reference: 'none', errorCode: '54000', why, exercises: why });
  }
}

/** Offset just past the page header at `off` (Thrift compact struct skip). */
function findPageBodyStart(buf, off) {
  let p = off;
  const varint = () => { let r = 0n; let s = 0n; for (;;) { const b = buf[p++]; r |= BigInt(b & 0x7f) << s; s += 7n; if (!(b & 0x80)) return r; } };
  const skip = (type) => {
    switch (type) {
      case 1: case 2: return; // bool true/false
      case 3: p++; return; // byte
      case 4: case 5: case 6: varint(); return; // i16/i32/i64
      case 7: p += 8; return; // double
      case 8: { const n = Number(varint()); p += n; return; } // binary
      case 9: case 10: { const h = buf[p++]; let n = h >> 4; const et = h & 15; if (n === 15) n = Number(varint()); for (let i = 0; i < n; i++) skip(et); return; }
      case 12: struct(); return;
      default: throw new Error(`thrift type ${type}`);
    }
  };
  const struct = () => {
    for (;;) {
      const h = buf[p++];
      if (h === 0) return;
      if ((h >> 4) === 0) varint(); // long-form field id (zigzag i16)
      skip(h & 15);
    }
  };
  struct();
  return p;
}

// ------------------------------------------------------- bloom / dictionary

/**
 * Bloom filter and dictionary pruning (test/fixtures.md, "Bloom filter and
 * dictionary fixtures"). p = (i * 7919) % n is a permutation of 0..n-1, so
 * the h_* columns hold each even number 2p once, spread over every row
 * group: min/max statistics cannot prune an equality, Bloom filters can;
 * odd numbers are absent everywhere. lc_* columns hold three values per row
 * group, one of them different in each group.
 */
const BLOOM_DUCK_SELECT = `SELECT i AS id,
    p * 2 AS h_int8,
    (p * 2)::INTEGER AS h_int4,
    (p * 2 - 8192)::SMALLINT AS h_int2,
    (p * 2 + 3000000000)::UINTEGER AS h_uint4,
    (p * 2 + 10000000000000000000)::UBIGINT AS h_uint8,
    (p * 2 * 0.01)::DECIMAL(9,2) AS h_dec9,
    (p * 2 * 0.001)::DECIMAL(18,3) AS h_dec18,
    (p * 2 + 0.5)::FLOAT AS h_float,
    (p * 2 + 0.25)::DOUBLE AS h_double,
    'k' || (p * 2) AS h_str,
    md5(p::VARCHAR)::UUID AS h_uuid,
    DATE '2000-01-01' + (p * 2)::INTEGER AS h_date,
    TIMESTAMP '2000-01-01' + to_seconds(p * 2) AS h_ts,
    (TIMESTAMP '2000-01-01' + to_milliseconds(p * 2 * 1001))::TIMESTAMP_MS AS h_ts_ms,
    TIMESTAMPTZ '2000-01-01 00:00:00+00' + to_seconds(p * 2) AS h_tstz,
    TIME '00:00:00' + to_seconds(p * 2) AS h_time,
    CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || (p * 2) END AS h_null,
    CASE i % 3 WHEN 0 THEN 'aa' WHEN 1 THEN 'zz' ELSE 'm' || (i // 2048) END AS lc_str,
    (CASE i % 3 WHEN 0 THEN 0 WHEN 1 THEN 100 ELSE 10 + i // 2048 END)::INTEGER AS lc_int
  FROM (SELECT i, (i * 7919) % 8192 AS p FROM range(8192) t(i)) ORDER BY i`;

async function bloomDictFixtures() {
  const { readMetadata } = await import('./lib/parquet.mjs');
  const c = await duck();
  {
    // DuckDB writes a Bloom filter for every dictionary-encoded chunk; the
    // large DICTIONARY_SIZE_LIMIT dictionary-encodes the 2048 distinct
    // values of each h_* chunk. It writes no encoding_stats, so its
    // dictionaries cannot prove that a chunk holds nothing else.
    const name = 'duckdb_bloom.parquet';
    const file = path.join(OUT, name);
    await c.run(`COPY (${BLOOM_DUCK_SELECT}) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048, DICTIONARY_SIZE_LIMIT 1000000)`);
    const md = await duckQuery(`SELECT count(DISTINCT row_group_id), min(row_group_num_rows), max(row_group_num_rows),
        count(*) FILTER (WHERE path_in_schema LIKE 'h\\_%' ESCAPE '\\' AND bloom_filter_offset IS NULL),
        count(*) FILTER (WHERE path_in_schema LIKE 'h\\_%' ESCAPE '\\')
      FROM parquet_metadata(${sqlString(file)})`);
    const [rg, minRows, maxRows, noBloom, hChunks] = md.rows[0].map(Number);
    check(name, rg === 4 && minRows === 2048 && maxRows === 2048, `4 row groups of 2048 rows, found ${rg} (${minRows}..${maxRows})`);
    check(name, hChunks === 4 * 17 && noBloom === 0, `a Bloom filter on every h_* chunk, ${noBloom} of ${hChunks} without`);
    // every row group spans nearly the whole range: statistics cannot prune
    // an absent odd value in [300, 16000]
    const spans = await duckQuery(`SELECT count(*) FROM (SELECT id // 2048 AS g, min(h_int8) AS lo, max(h_int8) AS hi
        FROM read_parquet(${sqlString(file)}) GROUP BY g) WHERE lo > 300 OR hi < 16000`);
    check(name, Number(spans.rows[0][0]) === 0, 'every row group\'s h_int8 bounds to contain [300, 16000]');
    verifyPages(name, { codec: 'ZSTD', pageTypes: ['DICTIONARY_PAGE', 'DATA_PAGE'], encodings: ['PLAIN_DICTIONARY'], minRowGroups: 4 });
    add(name, {
      writer: 'duckdb',
      exercises: '8192 rows in 4 row groups of 2048; unsorted high-cardinality columns (INT64, INT32, INT(16), UINT32, UINT64, DECIMAL in INT32/INT64, FLOAT, DOUBLE, STRING, UUID, DATE, TIMESTAMP MICROS/MILLIS, timestamptz, TIME) with DuckDB Bloom filters that statistics cannot replace; low-cardinality dictionary columns (no encoding_stats)',
    });
  }
  {
    // hyparquet-writer: encoding_stats (so dictionary pruning applies), its
    // own Bloom filter hashing (INT32, INT64, STRING), SNAPPY pages.
    const name = 'hyp_bloom_dict.parquet';
    const n = 4000;
    const seq = (f) => Array.from({ length: n }, (_, i) => f(i));
    const perm = (i) => (i * 7919) % n;
    const columnData = [
      { name: 'id', type: 'INT32', nullable: false, data: seq((i) => i) },
      { name: 'h_int4', type: 'INT32', bloomFilter: true, data: seq((i) => perm(i) * 2) },
      { name: 'h_int8', type: 'INT64', bloomFilter: true, data: seq((i) => BigInt(perm(i) * 2)) },
      { name: 'h_str', type: 'STRING', bloomFilter: true, data: seq((i) => (i % 7 === 3 ? null : `k${perm(i) * 2}`)) },
      { name: 'lc_str', type: 'STRING', data: seq((i) => ['aa', 'zz', `m${Math.floor(i / 1000)}`][i % 3]) },
      { name: 'lc_int', type: 'INT32', data: seq((i) => [0, 100, 10 + Math.floor(i / 1000)][i % 3]) },
    ];
    writeHyp(name, { columnData, codec: 'SNAPPY', rowGroupSize: 1000, pageSize: 2048, createdBy: 'hyparquet-writer (parquet_fdw fixtures)' });
    const fmd = readMetadata(path.join(OUT, name));
    check(name, fmd.row_groups.length === 4, `4 row groups, found ${fmd.row_groups.length}`);
    for (const rg of fmd.row_groups) {
      for (const col of rg.columns) {
        const m = col.meta_data;
        const cname = m.path_in_schema.join('.');
        if (cname.startsWith('lc_')) {
          const es = m.encoding_stats || [];
          check(name, es.some((e) => e.page_type === 'DICTIONARY_PAGE') &&
            es.every((e) => e.page_type === 'DICTIONARY_PAGE' || ['RLE_DICTIONARY', 'PLAIN_DICTIONARY'].includes(e.encoding)),
          `${cname}: encoding_stats with only dictionary-encoded data pages, found ${JSON.stringify(es)}`);
        }
        if (cname.startsWith('h_')) check(name, m.bloom_filter_offset !== undefined, `${cname}: a Bloom filter`);
      }
    }
    verifyPages(name, { codec: 'SNAPPY', pageTypes: ['DICTIONARY_PAGE'], minRowGroups: 4 });
    add(name, {
      writer: 'hyparquet-writer',
      exercises: '4000 rows in 4 row groups of 1000; Bloom filters (INT32, INT64, STRING with nulls) hashed by hyparquet; encoding_stats proving fully dictionary-encoded low-cardinality chunks; SNAPPY dictionary pages',
    });
  }
}

// ------------------------------------------------------------- geospatial

// GEOMETRY rows as WKT: test/js/lib and sql/geo.sql, sql/postgis.sql take
// their expected values from these definitions (docs/GEOSPATIAL.md).
export const GEO_WKT = [
  'POINT (30 10)',
  'LINESTRING (30 10, 10 30, 40 40)',
  'POLYGON ((30 10, 40 40, 20 40, 10 20, 30 10))',
  null,
  'MULTIPOINT ((10 40), (40 30))',
  'MULTILINESTRING ((10 10, 20 20), (40 40, 30 30))',
  'MULTIPOLYGON (((30 20, 45 40, 10 40, 30 20)), ((15 5, 40 10, 10 20, 5 10, 15 5)))',
  'GEOMETRYCOLLECTION (POINT (4 6), LINESTRING (4 6, 7 10))',
  'POINT Z (1 2 3)',
  'POINT M (1 2 4)',
  'POINT ZM (1 2 3 4)',
  'POINT EMPTY',
  'LINESTRING EMPTY',
];

// GeoJSON rows of the hyparquet-writer fixture (two row groups of three).
const HYP_GEO = [
  { type: 'Point', coordinates: [30, 10] },
  { type: 'LineString', coordinates: [[30, 10], [10, 30], [40, 40]] },
  null,
  { type: 'Point', coordinates: [-120.5, 45.25, 100] },
  { type: 'Polygon', coordinates: [[[0, 0], [4, 0], [4, 3], [0, 0]]] },
  { type: 'MultiPoint', coordinates: [[1, 2, 5, 7], [3, 4, 6, 8]] },
];

const HYP_POINTS = [[30, 10], [40, 20], null, [-120.5, 45.25], [0, 0], [1, 2]]
  .map((c) => c && { type: 'Point', coordinates: c });

async function geoFixtures() {
  const c = await duck();
  // DuckDB's built-in GEOMETRY (no spatial extension): a GEOMETRY('OGC:CRS84')
  // column is written with the CRS as PROJJSON; plain GEOMETRY has no CRS.
  // GeoParquet has no M: DuckDB leaves out the "geo" metadata when a column
  // has M values, so the V2 file gets the rows without M.
  for (const [name, version, type, withM] of [
    ['duckdb_geo_none.parquet', 'NONE', "GEOMETRY('OGC:CRS84')", true],
    ['duckdb_geo_v2.parquet', 'V2', 'GEOMETRY', false],
  ]) {
    const file = path.join(OUT, name);
    const rows = GEO_WKT.map((w, i) => (withM || !/ Z?M /.test(w ?? '') ? `(${i + 1}, ${w === null ? 'NULL' : sqlString(w)})` : null))
      .filter(Boolean).join(', ');
    await c.run(`COPY (SELECT id, wkt, wkt::${type} AS geom FROM (VALUES ${rows}) t(id, wkt) ORDER BY id) TO ${sqlString(file)} ` +
      `(FORMAT parquet, GEOPARQUET_VERSION '${version}')`);
    const lt = (await duckQuery(`SELECT logical_type FROM parquet_schema(${sqlString(file)}) WHERE name = 'geom'`)).rows[0][0];
    check(name, String(lt).startsWith('GeometryType('), `a GEOMETRY logical type, found ${lt}`);
    check(name, (type === 'GEOMETRY') === String(lt).includes('crs=<null>'), `CRS as declared (${type}), found ${lt}`);
    const kv = await duckQuery(`SELECT decode(key) FROM parquet_kv_metadata(${sqlString(file)})`);
    check(name, (version === 'V2') === kv.rows.some((r) => r[0] === 'geo'), `GeoParquet "geo" metadata only for V2`);
    add(name, {
      writer: 'duckdb',
      exercises: `GEOMETRY (${type}) with GEOPARQUET_VERSION '${version}': every geometry type, Z${withM ? '/M/ZM' : ''}, EMPTY, NULL; GeospatialStatistics`,
    });
  }

  const name = 'hyp_geo_crs.parquet';
  const geo = (n, logical) => ({ name: n, data: HYP_GEO, logical });
  const cols = [
    { name: 'id', data: HYP_GEO.map((_, i) => i + 1), logical: null },
    geo('g_default', { type: 'GEOMETRY' }),
    geo('g_srid', { type: 'GEOMETRY', crs: 'srid:3857' }),
    geo('g_epsg', { type: 'GEOMETRY', crs: 'EPSG:32633' }),
    geo('g_projjson', { type: 'GEOMETRY', crs: 'projjson:crs_key' }),
    geo('g_other', { type: 'GEOMETRY', crs: 'local engineering grid' }),
    geo('geog', { type: 'GEOGRAPHY' }),
    geo('geog_karney', { type: 'GEOGRAPHY', crs: 'OGC:CRS84', algorithm: 'KARNEY' }),
    // 2D points only, for PostGIS typmods such as geometry(Point, 3857)
    { name: 'g_points', data: HYP_POINTS, logical: { type: 'GEOMETRY', crs: 'EPSG:3857' } },
  ];
  const schema = [
    { name: 'root', num_children: cols.length },
    ...cols.map((col) => (col.logical
      ? { name: col.name, type: 'BYTE_ARRAY', logical_type: col.logical, repetition_type: 'OPTIONAL' }
      : { name: col.name, type: 'INT32', repetition_type: 'REQUIRED' })),
  ];
  writeHyp(name, {
    columnData: cols.map(({ name: n, data }) => ({ name: n, data })), schema, codec: 'SNAPPY', rowGroupSize: 3,
    kvMetadata: [{ key: 'crs_key', value: '{"type":"GeographicCRS","name":"WGS 84","id":{"authority":"EPSG","code":4326}}' }],
  });
  verifyPages(name, { codec: 'SNAPPY', minRowGroups: 2 });
  // Edge cases of the CRS -> SRID rules (docs/GEOSPATIAL.md), one column each.
  const edge = 'hyp_geo_crs_edge.parquet';
  const crsCases = ['epsg:4326', 'EPSG:0', 'EPSG:1000000', 'EPSG:12a', 'srid:', 'SRID:2154', 'OGC:CRS83',
    '{"id":{"authority":"EPSG","code":"2154"}}', '{"base_crs":{"id":{"authority":"EPSG","code":4269}}}',
    '{"id":{"authority":"IGNF","code":"LAMB93"}}', '{"id":{"authority":"EPSG","code":2154}', '{"id":5}'];
  const edgeCols = crsCases.map((crs, i) => ({ name: `c${i + 1}`, data: [HYP_GEO[0]], crs }));
  writeHyp(edge, {
    columnData: edgeCols.map(({ name: n, data }) => ({ name: n, data })), codec: 'SNAPPY',
    schema: [{ name: 'root', num_children: edgeCols.length },
      ...edgeCols.map((col) => ({ name: col.name, type: 'BYTE_ARRAY', logical_type: { type: 'GEOMETRY', crs: col.crs }, repetition_type: 'OPTIONAL' }))],
  });
  add(edge, { writer: 'hyparquet-writer', exercises: 'GEOMETRY columns with unusual CRS strings (lower case, out of range, malformed PROJJSON)' });
  add(name, {
    writer: 'hyparquet-writer',
    exercises: 'GEOMETRY with no CRS, srid:N, EPSG:N, projjson:KEY (+ file metadata), an arbitrary CRS; GEOGRAPHY with the default ' +
      'and with KARNEY edges; 2D, Z and ZM points; a column of 2D points only (EPSG:3857); GeospatialStatistics per row group (2 row groups of 3 rows)',
  });
}

// ------------------------------------------------------------------ nested

/** Nested LIST/STRUCT/MAP fixtures (lib/nested_tables.mjs). */
async function nestedFixtures() {
  const c = await duck();
  {
    const name = 'duckdb_nested_types.parquet';
    // the types table exists: duckdbFixtures() created it
    await c.run(`COPY (${nestedTypesSql()}) TO ${sqlString(path.join(OUT, name))} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)`);
    verifyPages(name, { codec: 'ZSTD', minRowGroups: 3, pageTypes: ['DATA_PAGE'] });
    add(name, {
      writer: 'duckdb',
      exercises: 'every scalar type of the types table in a LIST (NULL list, empty list, NULL elements), in one STRUCT (NULL struct, NULL fields) ' +
        'and as MAP values (NULL map, empty map, NULL values); INTEGER/BIGINT/DATE/DECIMAL/TIMESTAMP map keys; list of lists, list of lists of lists, ' +
        'list of structs, struct of lists and structs, map of lists, list of maps, struct of struct; lists of 9000 elements and of 3000 strings ' +
        '(rows longer than a segment); 5000 rows in row groups of 2048',
    });
  }
  {
    // The same without INTERVAL (arrow-rs would drop its months), rewritten
    // by arrow-rs with ~1 KiB v2 pages: long rows span many pages.
    const name = 'pw_nested_types.parquet';
    const seed = path.join(TMP, 'nested_seed.parquet');
    await c.run(`COPY (${nestedTypesSql(['c_interval'])}) TO ${sqlString(seed)} (FORMAT parquet, COMPRESSION uncompressed, ROW_GROUP_SIZE 2048)`);
    const table = pw.readParquet(new Uint8Array(fs.readFileSync(seed)));
    const props = new pw.WriterPropertiesBuilder()
      .setCreatedBy('parquet-wasm (arrow-rs) (parquet_fdw fixtures)')
      .setCompression(pw.Compression.SNAPPY)
      .setWriterVersion(pw.WriterVersion.V2)
      .setMaxRowGroupSize(2000)
      .setDataPageSizeLimit(1024)
      .setWriteBatchSize(64)
      .build();
    fs.writeFileSync(path.join(OUT, name), pw.writeParquet(table, props));
    verifyPages(name, { codec: 'SNAPPY', minRowGroups: 3, minPages: 5, pageTypes: ['DATA_PAGE_V2'] });
    add(name, {
      writer: 'parquet-wasm (arrow-rs)',
      exercises: 'duckdb_nested_types.parquet without c_interval, rewritten by arrow-rs: data page v2, ~1 KiB pages (nested rows span pages), ' +
        'arrow-rs LIST/MAP naming and annotations',
    });
  }
  {
    // NULL fixed-size arrays are one level entry per slot: (rep 0, def 0)
    // then (rep 1, def 0) twice for INTEGER[3]; the check below makes sure
    // DuckDB still writes them so.
    const name = 'duckdb_fixed_arrays.parquet';
    await c.run(`COPY (${fixedArraysSql()}) TO ${sqlString(path.join(OUT, name))} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 2048)`);
    verifyPages(name, { codec: 'SNAPPY', minRowGroups: 3 });
    const r = await c.runAndReadAll(`SELECT num_values FROM parquet_metadata(${sqlString(path.join(OUT, name))})
      WHERE row_group_id = 0 AND path_in_schema = 'a_c_int4, list, element'`);
    check(name, Number(r.getRows()[0][0]) === 3 * 2048, `3 level entries per row (NULL arrays too) in a_c_int4, found ${r.getRows()[0][0]} for 2048 rows`);
    add(name, {
      writer: 'duckdb',
      exercises: 'fixed-size ARRAY columns, whose NULL arrays carry an entry per slot that continues a NULL list (rep 1, def 0): every scalar ' +
        'type as T[3] with NULL arrays and NULL elements, INTEGER[2][3], INTEGER[3][], STRUCT[2], INTEGER[][2], a struct and a map of fixed arrays; ' +
        '5000 rows in row groups of 2048',
    });
  }
  {
    const name = 'hyp_legacy_lists.parquet';
    writeHyp(name, { ...legacyLists(), codec: 'SNAPPY', rowGroupSize: 1000, pageSize: 4096 });
    verifyPages(name, { codec: 'SNAPPY', minRowGroups: 3 });
    add(name, {
      writer: 'hyparquet-writer', reference: 'arrow-rs',
      exercises: 'LIST backward-compatibility shapes: a top-level repeated group, one-field repeated groups ' +
        'named "array" and "<list>_tuple" (lists of one-field structs), a repeated group misnamed "element" (a list of strings); ' +
        'DuckDB collapses one-field repeated groups against the spec, so arrow-rs is the reference',
    });
  }
  {
    const name = 'duckdb_nested_decl.parquet';
    await c.run(`COPY (${nestedDeclSql()}) TO ${sqlString(path.join(OUT, name))} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 1024)`);
    verifyPages(name, { codec: 'SNAPPY', minRowGroups: 2 });
    add(name, {
      writer: 'duckdb',
      exercises: 'declared arrays, composites and jsonb in sql/nested.sql (expected values computed there): lists, NULL/empty/NULL-element ' +
        'lists, a struct with a nested struct and list, maps of strings and of lists, list of structs, list of lists, a wide struct for projection',
    });
  }
}

// ----------------------------------------------------------------- VARIANT

// Values every engine renders alike as JSON (numbers, strings, booleans,
// nulls, decimals, objects, arrays); DuckDB's VARIANT -> JSON is the
// reference. Row ids order the rows.
const VARIANT_ROWS_SQL = `
  SELECT * FROM (VALUES
    (0, {'a': 1::BIGINT, 'b': 'one', 'c': {'x': 10}}::VARIANT),
    (1, {'a': '-9223372036854775808'::BIGINT, 'b': 'two'}::VARIANT),
    (2, {'b': 'no a', 'extra': [1, 2, 3]}::VARIANT),
    (3, {'a': 'a string', 'b': NULL}::VARIANT),
    (4, 'just a string'::VARIANT),
    (5, [1.5::DOUBLE, -2.25::DOUBLE]::VARIANT),
    (6, 123.45::DECIMAL(10, 2)::VARIANT),
    (7, 12345678901234567890.123456789::DECIMAL(38, 9)::VARIANT),
    (8, true::VARIANT),
    (9, NULL::VARIANT),
    (10, {'a': 7::BIGINT, 'b': 'ünïcode ✓', 'c': {'x': NULL, 'y': [{'z': 1}]}}::VARIANT),
    (11, MAP {}::MAP(VARCHAR, INTEGER)::VARIANT)
  ) t(id, v)`;

const VARIANT_UNSORTED_SQL = `
  SELECT id, v::JSON::VARIANT AS v FROM (VALUES
    (0, '{"id": 1, "name": "x", "tags": ["a", "b"], "price": 9.5, "active": true}'),
    (1, '{"zeta": 1, "alpha": {"y": 2, "b": [3, {"q": 1, "p": 2}]}, "mid": null}'),
    (2, '[{"k2": 1, "k1": 2}, {"b": true, "a": false}, []]'),
    (3, '{"nested": {"z": 5, "a": "five"}, "id": 7, "extra": {"d": 1, "c": 2}}'),
    (4, '{"price": 1.25, "name": "y", "id": 2}'),
    (5, '{}'),
    (6, '"not an object"'),
    (7, NULL)
  ) t(id, v)`;

async function variantFixtures() {
  const c = await duck();
  const ref = (name) => `SELECT id, v::JSON AS v FROM read_parquet(${sqlString(path.join(OUT, name))}) ORDER BY id`;
  {
    const name = 'duckdb_variant_plain.parquet';
    await c.run(`COPY (${VARIANT_ROWS_SQL}) TO ${sqlString(path.join(OUT, name))} (FORMAT parquet)`);
    add(name, { writer: 'duckdb', referenceSql: ref(name), exercises: 'unshredded VARIANT (objects, arrays, scalars, decimals, Variant null, SQL NULL) as jsonb' });
  }
  {
    const name = 'duckdb_variant_shredded.parquet';
    await c.run(`COPY (${VARIANT_ROWS_SQL}) TO ${sqlString(path.join(OUT, name))} ` +
      `(FORMAT parquet, SHREDDING {v: 'STRUCT(a BIGINT, b VARCHAR, c STRUCT(x INTEGER))'})`);
    const md = (await duckQuery(`SELECT path_in_schema FROM parquet_metadata(${sqlString(path.join(OUT, name))})`)).rows.map((r) => String(r[0]));
    check(name, md.some((p) => /typed_value, c, typed_value, x, typed_value/.test(p)), `nested shredded field c.x, found ${md.join(' | ')}`);
    add(name, { writer: 'duckdb', referenceSql: ref(name), exercises: 'shredded VARIANT: shredded, missing, mistyped and extra fields, non-object values, nested shredded object' });
  }
  // DuckDB writes object field ids in insertion order, not sorted by key as
  // the spec asks; readers must accept them (keys stay unique).
  for (const [name, opts, what] of [
    ['duckdb_variant_unsorted.parquet', '', 'unshredded'],
    ['duckdb_variant_unsorted_shredded.parquet',
      ", SHREDDING {v: 'STRUCT(id BIGINT, name VARCHAR, price DOUBLE, nested STRUCT(z INTEGER, a VARCHAR))'}", 'shredded']]) {
    await c.run(`COPY (${VARIANT_UNSORTED_SQL}) TO ${sqlString(path.join(OUT, name))} (FORMAT parquet${opts})`);
    const buf = fs.readFileSync(path.join(OUT, name));
    const rows = await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) });
    // hyparquet builds each object in the stored field order
    const keys = Object.keys(rows.find((r) => r.id === 0).v);
    check(name, keys.join() !== [...keys].sort().join(), `object fields stored unsorted, found ${keys.join(', ')}`);
    add(name, {
      writer: 'duckdb', referenceSql: ref(name),
      exercises: `${what} VARIANT objects whose field ids DuckDB stores in insertion order (unsorted): flat, nested, in arrays, an empty object`,
    });
  }
  {
    // hyparquet-writer writes a field with an empty name, which no column
    // can have: IMPORT names the column column1 and maps it back
    const name = 'hyp_empty_name.parquet';
    fs.writeFileSync(path.join(OUT, name), Buffer.from(parquetWriteBuffer({
      columnData: [{ name: '', data: [1, 2, 3], type: 'INT32' }, { name: 'b', data: ['x', 'y', null], type: 'STRING' }],
    })));
    add(name, { writer: 'hyparquet-writer', reference: 'arrow-rs', exercises: 'a top-level field with an empty name (IMPORT and create_table_sql name the column column1 with column_name \'\')' });
  }
  {
    const name = 'hyp_variant_shredded.parquet';
    const values = [
      { a: 1n, b: 'one', arr: [1.5, 2.5] },
      { a: 2n, extra: true },
      { b: 'no a', arr: [] },
      'a string',
      [1, 2, 3],
      null,
      { a: 3n, b: 'three', arr: [0.25], nested: { deep: [1, { k: 'v' }] } },
    ];
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: values.map((_, i) => i), type: 'INT32', nullable: false },
        { name: 'v', data: values, type: 'VARIANT', shredding: { a: 'INT64', b: 'STRING', arr: ['DOUBLE'] } },
      ],
    });
    fs.writeFileSync(path.join(OUT, name), Buffer.from(buf));
    add(name, { writer: 'hyparquet-writer', referenceSql: ref(name), exercises: 'shredded VARIANT from hyparquet-writer (shredded array field, missing fields, Variant null, SQL NULL)' });
  }
  {
    const name = 'hyp_variant_plain.parquet';
    // no SQL NULL row: DuckDB reads a null VARIANT group as a Variant null
    // (the copy stage checks that distinction with arrow-rs)
    const values = [{ a: 1n, s: 'x' }, [true, false, null], 42n, -0.5, 'str', null, { o: { p: { q: [] } } }];
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: values.map((_, i) => i), type: 'INT32', nullable: false },
        { name: 'v', data: values, type: 'VARIANT' },
      ],
    });
    fs.writeFileSync(path.join(OUT, name), Buffer.from(buf));
    add(name, { writer: 'hyparquet-writer', referenceSql: ref(name), exercises: 'unshredded VARIANT from hyparquet-writer' });
  }
}

// ------------------------------------------------------------------ main

try {
  await duckdbFixtures();
  hypFixtures();
  await pwFixtures();
  await rangeFixtures();
  await badFixtures();
  await bloomDictFixtures();
  await geoFixtures();
  await nestedFixtures();
  await variantFixtures();
  const mf = path.join(OUT, 'manifest.json');
  fs.writeFileSync(mf, JSON.stringify({ generated_by: 'test/js/gen_fixtures.mjs', files: manifest }, null, 2) + '\n');
  for (const f of fs.readdirSync(OUT)) fs.chmodSync(path.join(OUT, f), 0o644);
  const good = manifest.filter((m) => m.expect === 'rows').length;
  console.log(`fixtures: ${manifest.length} entries in ${OUT} (${good} readable, ${manifest.length - good} must fail)`);
} finally {
  fs.rmSync(TMP, { recursive: true, force: true });
}
