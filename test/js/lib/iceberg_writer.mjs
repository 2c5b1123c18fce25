// Apache Iceberg tables written from JavaScript, by the table spec
// (https://iceberg.apache.org/spec/, format versions 2 and 3) and the Puffin
// spec, independently of the C reader: for check_iceberg_generated.mjs and
// bench/iceberg.mjs. The data and delete files themselves (Parquet) are the
// caller's (COPY TO, hyparquet-writer); this module writes what describes
// them, and reads it back for the generator's own checks.
//
//   single-value serialization   boundBytes(type, value): the bytes of
//       lower_bounds / upper_bounds and partition summaries (Appendix D):
//       int/date 4 bytes LE, long/timestamp[tz] 8 bytes LE (µs), double 8
//       bytes LE IEEE 754, boolean one byte, string UTF-8, decimal the
//       unscaled value's two's complement big-endian in the fewest bytes
//   Avro container files          writeAvro(schema, meta, records): the
//       header (magic "Obj\x01", metadata with avro.schema as written here,
//       field-id attributes included, and avro.codec deflate), blocks of at
//       most 16 records with the sync marker; longs are BigInt (avsc with a
//       long type of its own), so 64-bit snapshot ids survive
//   manifests                     manifestEntrySchema(): manifest_entry with
//       its data_file (partition struct from the spec, int-keyed maps as
//       arrays of {key, value} records, v3's first_row_id,
//       referenced_data_file, content_offset, content_size_in_bytes); Avro
//       metadata schema, schema-id, partition-spec, partition-spec-id,
//       format-version, content (data | deletes)
//   manifest lists                manifestFileSchema(): manifest_file with
//       the partition field summaries; Avro metadata snapshot-id,
//       parent-snapshot-id, sequence-number, format-version (v3 first-row-id)
//   table metadata                IcebergTable: metadata/vN.metadata.json
//       (schemas, partition specs, snapshots, snapshot-log, metadata-log,
//       refs, properties with schema.name-mapping.default when asked) and
//       metadata/version-hint.text; 64-bit ids written as JSON integers
//   Puffin                        PuffinFile: magic PFA1, deletion-vector-v1
//       blobs (4-byte BE length of magic + vector, magic D1 D3 39 64, the
//       64-bit roaring portable serialization (lib/delta_dv.mjs's dvData:
//       the same bytes Delta writes), CRC-32 BE of magic + vector), footer
//       (PFA1, JSON payload, payload size LE, flags, PFA1)
//
// Sequence numbers: entries ADDED by a manifest's own snapshot are written
// with null sequence_number and file_sequence_number (inherited from the
// manifest list, "Sequence Number Inheritance"); EXISTING and DELETED
// entries carry theirs explicitly.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { crc32, dvData, newUuid } from './delta_dv.mjs';
import { HEADER, LONG, MAGIC, avroOptions, longType, readAvro } from './avro_container.mjs';

const require = createRequire(import.meta.url);
const avro = require('avsc');

/**
 * JSON.parse keeping integers beyond 2^53 (snapshot ids) as BigInt: their
 * text is marked before parsing (Node 20's JSON.parse gives a reviver no
 * source text).
 */
export function parseJsonBig(text) {
  const mark = '@@iceberg-big:';
  const marked = text.replace(/([:,[]\s*)(-?\d{16,})(?=\s*[,}\]])/g, (m, pre, digits) => `${pre}"${mark}${digits}"`);
  return JSON.parse(marked, (k, v) => (typeof v === 'string' && v.startsWith(mark) ? BigInt(v.slice(mark.length)) : v));
}

export const FIELD_FILE_PATH = 2147483546; // position delete file_path
export const FIELD_POS = 2147483545; // position delete pos
export const FIELD_ROW_POS = 2147483645; // _pos, the DV blob's field

// ------------------------------------------------------------------ values

const EPOCH_DAY_MS = 86400000;

/** Days since 1970-01-01 of 'YYYY-MM-DD'. */
export const dateDays = (s) => Math.round(Date.parse(`${s}T00:00:00Z`) / EPOCH_DAY_MS);

/** Unscaled BigInt of a decimal's text ('-123.40') at scale. */
export function unscaled(text, scale) {
  const neg = text.startsWith('-');
  const [whole, frac = ''] = (neg ? text.slice(1) : text).split('.');
  const digits = BigInt(whole + frac.padEnd(scale, '0').slice(0, scale));
  return neg ? -digits : digits;
}

/** Two's complement big-endian of v in the fewest bytes. */
export function minimalBigEndian(v) {
  let n = 1;
  while (v < -(1n << BigInt(8 * n - 1)) || v >= (1n << BigInt(8 * n - 1))) n++;
  const out = Buffer.alloc(n);
  let x = BigInt.asUintN(8 * n, v);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(x & 0xFFn);
    x >>= 8n;
  }
  return out;
}

/**
 * The single-value serialization of value as Iceberg type (a string:
 * int, long, double, boolean, date, timestamp, timestamptz, string,
 * decimal(P,S)). Values: numbers or BigInt for the integers, the text
 * 'YYYY-MM-DD' or a day number for dates, BigInt microseconds for
 * timestamps, decimal text for decimals, true/false (or 't'/'f').
 */
export function boundBytes(type, value) {
  if (value === null || value === undefined) throw new Error(`boundBytes(${type}): null`);
  const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(type);
  if (dec) return minimalBigEndian(typeof value === 'bigint' ? value : unscaled(String(value), Number(dec[2])));
  switch (type) {
    case 'boolean':
      return Buffer.from([value === true || value === 't' || value === 1 ? 1 : 0]);
    case 'int': {
      const b = Buffer.alloc(4);
      b.writeInt32LE(Number(value));
      return b;
    }
    case 'date': {
      const b = Buffer.alloc(4);
      b.writeInt32LE(typeof value === 'string' ? dateDays(value) : Number(value));
      return b;
    }
    case 'long':
    case 'timestamp':
    case 'timestamptz': {
      const b = Buffer.alloc(8);
      b.writeBigInt64LE(BigInt(value));
      return b;
    }
    case 'double': {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(Number(value));
      return b;
    }
    case 'float': {
      const b = Buffer.alloc(4);
      b.writeFloatLE(Number(value));
      return b;
    }
    case 'string':
      return Buffer.from(String(value), 'utf8');
    default:
      throw new Error(`boundBytes: type ${type} not handled`);
  }
}

/** The inverse of boundBytes, for the read-back checks: a comparable value. */
export function boundValue(type, buf) {
  const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(type);
  if (dec) {
    let x = 0n;
    for (const b of buf) x = (x << 8n) | BigInt(b);
    return BigInt.asIntN(8 * buf.length, x);
  }
  switch (type) {
    case 'boolean': return buf[0] !== 0;
    case 'int': case 'date': return buf.readInt32LE(0);
    case 'long': case 'timestamp': case 'timestamptz': return buf.readBigInt64LE(0);
    case 'double': return buf.readDoubleLE(0);
    case 'float': return buf.readFloatLE(0);
    case 'string': return buf.toString('utf8');
    default: throw new Error(`boundValue: type ${type} not handled`);
  }
}

// -------------------------------------------------------------------- JSON

/** JSON with BigInt written as integers (snapshot ids are 64-bit). */
export function jsonBig(obj, indent = 0) {
  const mark = '\u0000big:';
  return JSON.stringify(obj, (k, v) => (typeof v === 'bigint' ? `${mark}${v}` : v), indent || undefined)
    .replace(/"\\u0000big:(-?\d+)"/g, '$1');
}

// -------------------------------------------------------------------- Avro

const avroOpts = () => avroOptions();

/** Longs of a record tree as BigInt (avsc's long type here takes only BigInt). */
function bigLongs(schema, v) {
  if (v === null || v === undefined) return v;
  if (typeof schema === 'string') return schema === 'long' ? BigInt(v) : v;
  if (Array.isArray(schema)) {
    const branch = schema.find((s) => s !== 'null');
    return bigLongs(branch, v);
  }
  if (schema.type === 'record')
    return Object.fromEntries(schema.fields.map((f) => [f.name, bigLongs(f.type, v[f.name] ?? null)]));
  if (schema.type === 'array') return v.map((x) => bigLongs(schema.items, x));
  if (schema.type === 'long') return BigInt(v);
  return v;
}

/**
 * An Avro object container file: schema (an object, written as given, so
 * its field-id attributes stay), meta (string values), records. sync: 16
 * bytes (a seeded one keeps runs reproducible).
 */
export function writeAvro(schema, meta, records, { sync = null, codec = 'deflate', blockRecords = 16 } = {}) {
  const type = avro.Type.forSchema(schema, avroOpts());
  const metaBuf = { 'avro.schema': Buffer.from(JSON.stringify(schema)), 'avro.codec': Buffer.from(codec) };
  for (const [k, v] of Object.entries(meta)) metaBuf[k] = Buffer.from(String(v));
  const syncBuf = sync ?? Buffer.from(Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 0xFF));
  const parts = [HEADER.toBuffer({ magic: MAGIC, meta: metaBuf, sync: syncBuf })];
  for (let i = 0; i < records.length; i += blockRecords) {
    const chunk = records.slice(i, i + blockRecords);
    let data = Buffer.concat(chunk.map((r) => type.toBuffer(bigLongs(schema, r))));
    if (codec === 'deflate') data = zlib.deflateRawSync(data);
    else if (codec !== 'null') throw new Error(`writeAvro: codec ${codec}`);
    parts.push(LONG.toBuffer(BigInt(chunk.length)), LONG.toBuffer(BigInt(data.length)), data, syncBuf);
  }
  return Buffer.concat(parts);
}

export { readAvro, longType };

// ------------------------------------------------------- manifest schemas

const intMap = (name, id, keyId, valueId, valueType) => ({
  name, 'field-id': id, default: null,
  type: ['null', {
    type: 'array', logicalType: 'map',
    items: { type: 'record', name: `k${keyId}_v${valueId}`, fields: [
      { name: 'key', type: 'int', 'field-id': keyId },
      { name: 'value', type: valueType, 'field-id': valueId },
    ] },
  }],
});

/** The Avro type a partition value of Iceberg type t is written with. */
export function avroPrimitive(t) {
  if (/^decimal/.test(t)) {
    const [, p, s] = /^decimal\((\d+),\s*(\d+)\)$/.exec(t);
    return { type: 'fixed', name: `decimal_${p}_${s}`, size: decimalBytes(Number(p)), logicalType: 'decimal', precision: Number(p), scale: Number(s) };
  }
  return {
    boolean: 'boolean', int: 'int', long: 'long', float: 'float', double: 'double', string: 'string',
    date: { type: 'int', logicalType: 'date' },
    timestamp: { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': false },
    timestamptz: { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': true },
  }[t] ?? (() => { throw new Error(`avroPrimitive: ${t}`); })();
}
const decimalBytes = (p) => {
  let n = 1;
  while (Math.floor(Math.log10(2 ** (8 * n - 1) - 1)) < p) n++;
  return n;
};

/**
 * manifest_entry (field ids of the spec's "Manifests" section).
 * partitionFields: [{name, fieldId, type (Iceberg type of the partition value)}].
 */
export function manifestEntrySchema(partitionFields, formatVersion) {
  const dataFile = [
    { name: 'content', type: 'int', 'field-id': 134 },
    { name: 'file_path', type: 'string', 'field-id': 100 },
    { name: 'file_format', type: 'string', 'field-id': 101 },
    { name: 'partition', 'field-id': 102, type: { type: 'record', name: 'r102', fields: partitionFields.map((f) => ({
      name: f.name, type: ['null', avroPrimitive(f.type)], default: null, 'field-id': f.fieldId,
    })) } },
    { name: 'record_count', type: 'long', 'field-id': 103 },
    { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
    intMap('column_sizes', 108, 117, 118, 'long'),
    intMap('value_counts', 109, 119, 120, 'long'),
    intMap('null_value_counts', 110, 121, 122, 'long'),
    intMap('nan_value_counts', 137, 138, 139, 'long'),
    intMap('lower_bounds', 125, 126, 127, 'bytes'),
    intMap('upper_bounds', 128, 129, 130, 'bytes'),
    { name: 'key_metadata', type: ['null', 'bytes'], default: null, 'field-id': 131 },
    { name: 'split_offsets', type: ['null', { type: 'array', items: 'long', 'element-id': 133 }], default: null, 'field-id': 132 },
    { name: 'equality_ids', type: ['null', { type: 'array', items: 'int', 'element-id': 136 }], default: null, 'field-id': 135 },
    { name: 'sort_order_id', type: ['null', 'int'], default: null, 'field-id': 140 },
  ];
  if (formatVersion >= 3) {
    dataFile.push(
      { name: 'first_row_id', type: ['null', 'long'], default: null, 'field-id': 142 },
      { name: 'referenced_data_file', type: ['null', 'string'], default: null, 'field-id': 143 },
      { name: 'content_offset', type: ['null', 'long'], default: null, 'field-id': 144 },
      { name: 'content_size_in_bytes', type: ['null', 'long'], default: null, 'field-id': 145 },
    );
  }
  return {
    type: 'record', name: 'manifest_entry', fields: [
      { name: 'status', type: 'int', 'field-id': 0 },
      { name: 'snapshot_id', type: ['null', 'long'], default: null, 'field-id': 1 },
      { name: 'sequence_number', type: ['null', 'long'], default: null, 'field-id': 3 },
      { name: 'file_sequence_number', type: ['null', 'long'], default: null, 'field-id': 4 },
      { name: 'data_file', type: { type: 'record', name: 'r2', fields: dataFile }, 'field-id': 2 },
    ],
  };
}

/** manifest_file, the records of a manifest list. */
export function manifestFileSchema(formatVersion) {
  const fields = [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    { name: 'content', type: 'int', 'field-id': 517 },
    { name: 'sequence_number', type: 'long', 'field-id': 515 },
    { name: 'min_sequence_number', type: 'long', 'field-id': 516 },
    { name: 'added_snapshot_id', type: 'long', 'field-id': 503 },
    { name: 'added_files_count', type: 'int', 'field-id': 504 },
    { name: 'existing_files_count', type: 'int', 'field-id': 505 },
    { name: 'deleted_files_count', type: 'int', 'field-id': 506 },
    { name: 'added_rows_count', type: 'long', 'field-id': 512 },
    { name: 'existing_rows_count', type: 'long', 'field-id': 513 },
    { name: 'deleted_rows_count', type: 'long', 'field-id': 514 },
    { name: 'partitions', default: null, 'field-id': 507, type: ['null', { type: 'array', 'element-id': 508, items: {
      type: 'record', name: 'r508', fields: [
        { name: 'contains_null', type: 'boolean', 'field-id': 509 },
        { name: 'contains_nan', type: ['null', 'boolean'], default: null, 'field-id': 518 },
        { name: 'lower_bound', type: ['null', 'bytes'], default: null, 'field-id': 510 },
        { name: 'upper_bound', type: ['null', 'bytes'], default: null, 'field-id': 511 },
      ] } }] },
    { name: 'key_metadata', type: ['null', 'bytes'], default: null, 'field-id': 519 },
  ];
  if (formatVersion >= 3) fields.push({ name: 'first_row_id', type: ['null', 'long'], default: null, 'field-id': 520 });
  return { type: 'record', name: 'manifest_file', fields };
}

// ------------------------------------------------------------------ stats

/**
 * value_counts, null_value_counts, nan_value_counts, lower_bounds,
 * upper_bounds of a data file from per-column statistics:
 * cols [{id, type, rows, nulls, min, max, nans}] (min/max null: all NULL).
 */
export function fileMetrics(cols) {
  const kv = (pairs) => pairs.map(([key, value]) => ({ key, value }));
  return {
    value_counts: kv(cols.map((c) => [c.id, BigInt(c.rows)])),
    null_value_counts: kv(cols.map((c) => [c.id, BigInt(c.nulls)])),
    nan_value_counts: kv(cols.filter((c) => c.type === 'double' || c.type === 'float').map((c) => [c.id, BigInt(c.nans ?? 0)])),
    lower_bounds: kv(cols.filter((c) => c.min !== null && c.min !== undefined).map((c) => [c.id, boundBytes(c.type, c.min)])),
    upper_bounds: kv(cols.filter((c) => c.max !== null && c.max !== undefined).map((c) => [c.id, boundBytes(c.type, c.max)])),
  };
}

/**
 * SQL giving per group (groupExpr) the rows, and per column its NULLs,
 * min and max as text fit for boundBytes. cols: [{name (SQL expression),
 * type}]. Text compares as UTF-8 bytes (COLLATE "C"), as Iceberg orders
 * strings; timestamps as microseconds since the epoch.
 */
export function statsSql(from, groupExpr, cols) {
  const expr = (c) => {
    if (c.type === 'timestamptz' || c.type === 'timestamp') return `(extract(epoch FROM ${c.name}) * 1000000)::bigint`;
    if (c.type === 'string') return `${c.name} COLLATE "C"`;
    if (c.type === 'boolean') return `${c.name}::int`;
    return c.name;
  };
  const aggs = cols.flatMap((c) => [`count(*) - count(${c.name})`, `min(${expr(c)})::text`, `max(${expr(c)})::text`]);
  return `SELECT ${groupExpr}, count(*), ${aggs.join(', ')} FROM ${from} GROUP BY 1 ORDER BY 1`;
}

/** The rows of statsSql as {key, rows, cols: [{id, type, rows, nulls, min, max}]}. */
export function statsRows(rows, cols) {
  return rows.map((r) => {
    const n = Number(r[1]);
    return {
      key: r[0], rows: n,
      cols: cols.map((c, j) => {
        const [nulls, mn, mx] = r.slice(2 + 3 * j, 5 + 3 * j);
        const conv = (v) => (v === null ? null : c.type === 'boolean' ? v === '1' : c.type === 'timestamptz' || c.type === 'timestamp' ? BigInt(v) : v);
        return { id: c.id, type: c.type, rows: n, nulls: Number(nulls), min: conv(mn), max: conv(mx), nans: 0 };
      }),
    };
  });
}

// ----------------------------------------------------------------- Puffin

/** A Puffin file of deletion-vector-v1 blobs being put together. */
export class PuffinFile {
  constructor(createdBy = 'check_iceberg_generated.mjs') {
    this.parts = [Buffer.from('PFA1')];
    this.length = 4;
    this.blobs = [];
    this.createdBy = createdBy;
  }

  /** A DV of positions for the data file recorded as referencedDataFile: {offset, length, cardinality}. */
  addDv(referencedDataFile, positions, { corruptCrc = false } = {}) {
    const { data, cardinality } = dvData(positions); // magic D1 D3 39 64 + 64-bit roaring, portable
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE((crc32(data) + (corruptCrc ? 1 : 0)) >>> 0);
    const blob = Buffer.concat([len, data, crc]);
    const offset = this.length;
    this.parts.push(blob);
    this.length += blob.length;
    this.blobs.push({
      type: 'deletion-vector-v1', fields: [FIELD_ROW_POS], 'snapshot-id': -1, 'sequence-number': -1,
      offset, length: blob.length, properties: { 'referenced-data-file': referencedDataFile, cardinality: String(cardinality) },
    });
    return { offset, length: blob.length, cardinality };
  }

  bytes() {
    const payload = Buffer.from(JSON.stringify({ blobs: this.blobs, properties: { 'created-by': this.createdBy } }));
    const size = Buffer.alloc(4);
    size.writeUInt32LE(payload.length);
    return Buffer.concat([...this.parts, Buffer.from('PFA1'), payload, size, Buffer.alloc(4), Buffer.from('PFA1')]);
  }
}

/**
 * The values of a 32-bit roaring bitmap in the portable serialization
 * (RoaringFormatSpec: cookie 12346 without run containers, 12347 with a
 * run bitmap; array, bitmap and run containers) starting at buf[0]:
 * {values, size (bytes used)}. Written here, not taken from the npm
 * package, so that the read-back does not share the writer's code.
 */
export function readRoaring32(buf) {
  let o = 0;
  const cookie = buf.readUInt32LE(0);
  let n;
  let runs = null;
  if (cookie === 12346) {
    n = buf.readUInt32LE(4);
    o = 8;
  } else if ((cookie & 0xFFFF) === 12347) {
    n = (cookie >>> 16) + 1;
    o = 4;
    runs = buf.subarray(o, o + Math.ceil(n / 8));
    o += Math.ceil(n / 8);
  } else {
    throw new Error(`roaring: cookie ${cookie}`);
  }
  const keys = [];
  const cards = [];
  for (let j = 0; j < n; j++) {
    keys.push(buf.readUInt16LE(o));
    cards.push(buf.readUInt16LE(o + 2) + 1);
    o += 4;
  }
  if (runs === null || n >= 4) o += 4 * n; // offsets
  const values = [];
  for (let j = 0; j < n; j++) {
    const hi = keys[j] * 65536;
    if (runs && runs[j >> 3] & (1 << (j & 7))) {
      const nr = buf.readUInt16LE(o);
      o += 2;
      for (let r = 0; r < nr; r++) {
        const start = buf.readUInt16LE(o);
        const len = buf.readUInt16LE(o + 2);
        o += 4;
        for (let v = start; v <= start + len; v++) values.push(hi + v);
      }
    } else if (cards[j] > 4096) {
      for (let b = 0; b < 8192; b++) {
        const byte = buf[o + b];
        if (byte) for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) values.push(hi + b * 8 + bit);
      }
      o += 8192;
    } else {
      for (let v = 0; v < cards[j]; v++) values.push(hi + buf.readUInt16LE(o + 2 * v));
      o += 2 * cards[j];
    }
  }
  return { values, size: o };
}

/**
 * Reads a Puffin file's deletion vectors back: [{referencedDataFile,
 * offset, length, positions (sorted numbers)}]; throws on a bad magic,
 * length or CRC.
 */
export function readPuffinDvs(buf) {
  if (buf.subarray(0, 4).toString() !== 'PFA1' || buf.subarray(buf.length - 4).toString() !== 'PFA1') throw new Error('Puffin magic');
  const size = buf.readUInt32LE(buf.length - 12);
  const start = buf.length - 12 - size;
  if (buf.subarray(start - 4, start).toString() !== 'PFA1') throw new Error('Puffin footer magic');
  const footer = JSON.parse(buf.subarray(start, start + size).toString('utf8'));
  return footer.blobs.map((b) => {
    const blob = buf.subarray(b.offset, b.offset + b.length);
    const n = blob.readUInt32BE(0);
    if (n + 8 !== blob.length) throw new Error(`blob at ${b.offset}: length word ${n}, blob ${blob.length}`);
    const data = blob.subarray(4, 4 + n);
    if (!data.subarray(0, 4).equals(Buffer.from([0xD1, 0xD3, 0x39, 0x64]))) throw new Error(`blob at ${b.offset}: DV magic`);
    if (crc32(data) !== blob.readUInt32BE(4 + n)) throw new Error(`blob at ${b.offset}: CRC`);
    const count = Number(data.readBigUInt64LE(4));
    let o = 12;
    const positions = [];
    for (let k = 0; k < count; k++) {
      const key = data.readUInt32LE(o);
      o += 4;
      const { values, size } = readRoaring32(data.subarray(o));
      o += size;
      for (const v of values) positions.push(key * 4294967296 + v);
    }
    if (o !== data.length) throw new Error(`blob at ${b.offset}: ${data.length - o} bytes after the bitmaps`);
    return { referencedDataFile: b.properties?.['referenced-data-file'], cardinality: Number(b.properties?.cardinality), offset: b.offset, length: b.length, positions, type: b.type, fields: b.fields };
  });
}

// ------------------------------------------------------------------ table

/**
 * One Iceberg table being written, commit by commit.
 *
 *   new IcebergTable({ dir, location, formatVersion, schema, partitionFields,
 *                      nameMapping, properties, rand, tableUuid })
 *
 * dir: where it is on disk; location: what its metadata records (the same
 * as dir, or a prefix such as s3://warehouse/gen/t that a reader maps);
 * schema: {fields: [{id, name, type, required, 'initial-default'?, ...}]};
 * partitionFields: [{name, sourceId, fieldId, transform: 'identity'}].
 *
 * path(rel) is the recorded path of a file below the table, local(rel) where it is.
 * commit() writes the manifests, the manifest list and a metadata file;
 * evolveSchema() a metadata file with a new current schema.
 */
export class IcebergTable {
  constructor({ dir, location = dir, formatVersion = 2, schema, partitionFields = [], nameMapping = false,
    properties = {}, rand, tableUuid = null, lastUpdatedMs = 1700000000000 }) {
    this.dir = dir;
    this.location = location.replace(/\/+$/, '');
    this.formatVersion = formatVersion;
    this.rand = rand;
    this.uuid = tableUuid ?? newUuid(rand).text;
    this.schemas = [{ type: 'struct', 'schema-id': 0, fields: schema.fields }];
    this.currentSchemaId = 0;
    this.lastColumnId = Math.max(...schema.fields.map((f) => f.id));
    this.partitionFields = partitionFields;
    this.spec = { 'spec-id': 0, fields: partitionFields.map((f) => ({ name: f.name, transform: f.transform ?? 'identity', 'source-id': f.sourceId, 'field-id': f.fieldId })) };
    this.properties = { ...properties };
    this.nameMappingOn = nameMapping;
    this.nameMap = new Map(schema.fields.map((f) => [f.id, [f.name]]));
    if (nameMapping) this.updateNameMapping();
    this.snapshots = [];
    this.snapshotLog = [];
    this.metadataLog = [];
    this.refs = {};
    this.lastSeq = 0n;
    this.nextRowId = 0n;
    this.version = 0;
    this.lastUpdatedMs = lastUpdatedMs;
    this.current = null; // current snapshot
    this.manifests = []; // manifest_file records of the current snapshot
    this.metadataFiles = [];
    fs.mkdirSync(path.join(dir, 'metadata'), { recursive: true });
  }

  path(rel) {
    return `${this.location}/${rel}`;
  }

  local(rel) {
    return path.join(this.dir, rel);
  }

  get schema() {
    return this.schemas.find((s) => s['schema-id'] === this.currentSchemaId);
  }

  /** Iceberg type of a field id in the current schema (or any earlier one). */
  fieldType(id) {
    for (const s of [...this.schemas].reverse()) {
      const f = s.fields.find((x) => x.id === id);
      if (f) return f.type;
    }
    throw new Error(`no field ${id}`);
  }

  /** A partition field's Iceberg type (identity: its source's). */
  partitionTypes() {
    return this.partitionFields.map((f) => ({ name: f.name, fieldId: f.fieldId, type: this.fieldType(f.sourceId) }));
  }

  updateNameMapping() {
    const mapping = [...this.nameMap].map(([id, names]) => ({ 'field-id': id, names }));
    this.properties['schema.name-mapping.default'] = JSON.stringify(mapping);
  }

  /** A snapshot id: 63-bit, random, not yet used. */
  newSnapshotId() {
    for (;;) {
      const hi = BigInt(Math.floor(this.rand() * 2 ** 31));
      const lo = BigInt(Math.floor(this.rand() * 2 ** 32));
      const id = (hi << 32n) | lo;
      if (id > 0n && !this.snapshots.some((s) => s['snapshot-id'] === id)) return id;
    }
  }

  /**
   * A new current schema: fields as they become (same ids for renamed
   * fields, new ids for added ones). The name mapping keeps a renamed
   * field's old names (as Iceberg's MappingUtil.update does) and gains the
   * added fields.
   */
  evolveSchema(fields, { timestampMs } = {}) {
    const id = Math.max(...this.schemas.map((s) => s['schema-id'])) + 1;
    this.schemas.push({ type: 'struct', 'schema-id': id, fields });
    this.currentSchemaId = id;
    this.lastColumnId = Math.max(this.lastColumnId, ...fields.map((f) => f.id));
    for (const f of fields) {
      const names = this.nameMap.get(f.id) ?? [];
      if (!names.includes(f.name)) names.push(f.name);
      this.nameMap.set(f.id, names);
    }
    if (this.nameMappingOn) this.updateNameMapping();
    if (timestampMs) this.lastUpdatedMs = timestampMs;
    return this.writeMetadata();
  }

  /**
   * Writes a manifest: entries [{status, snapshotId, seq, fileSeq,
   * dataFile}] (seq/fileSeq undefined: null, inherited). Returns its
   * manifest_file record, less what the commit fills in.
   */
  writeManifest({ content, entries, snapshotId, seq, name }) {
    const schema = manifestEntrySchema(this.partitionTypes(), this.formatVersion);
    const rel = `metadata/${name ?? `${newUuid(this.rand).text}-m0`}.avro`;
    const records = entries.map((e) => ({
      status: e.status, snapshot_id: e.snapshotId ?? null,
      sequence_number: e.seq ?? null, file_sequence_number: e.fileSeq ?? null,
      data_file: {
        content: 0, file_format: 'PARQUET', partition: {}, column_sizes: null, value_counts: null, null_value_counts: null,
        nan_value_counts: null, lower_bounds: null, upper_bounds: null, key_metadata: null, split_offsets: null,
        equality_ids: null, sort_order_id: null,
        ...(this.formatVersion >= 3 ? { first_row_id: null, referenced_data_file: null, content_offset: null, content_size_in_bytes: null } : {}),
        ...e.dataFile,
      },
    }));
    const meta = {
      schema: jsonBig(this.schema), 'schema-id': this.currentSchemaId,
      'partition-spec': JSON.stringify(this.spec.fields), 'partition-spec-id': 0,
      'format-version': this.formatVersion, content: content === 0 ? 'data' : 'deletes',
    };
    const bytes = writeAvro(schema, meta, records, { sync: Buffer.from(newUuid(this.rand).bytes) });
    fs.writeFileSync(this.local(rel), bytes);
    // partition summaries over the entries that are not DELETED
    const live = records.filter((r) => r.status !== 2);
    const partitions = this.partitionTypes().map((pf) => {
      const vals = live.map((r) => r.data_file.partition[pf.name]);
      const nn = vals.filter((v) => v !== null && v !== undefined);
      const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
      const sorted = [...nn].sort(cmp);
      return {
        contains_null: vals.length !== nn.length, contains_nan: false,
        lower_bound: sorted.length ? boundBytes(pf.type, sorted[0]) : null,
        upper_bound: sorted.length ? boundBytes(pf.type, sorted[sorted.length - 1]) : null,
      };
    });
    const count = (st) => records.filter((r) => r.status === st);
    const rows = (rs) => rs.reduce((s, r) => s + BigInt(r.data_file.record_count), 0n);
    const seqs = live.map((r) => (r.sequence_number ?? seq)).map(BigInt);
    return {
      rel, records, file: {
        manifest_path: this.path(rel), manifest_length: BigInt(bytes.length), partition_spec_id: 0, content,
        sequence_number: BigInt(seq), min_sequence_number: seqs.reduce((a, b) => (b < a ? b : a), BigInt(seq)),
        added_snapshot_id: BigInt(snapshotId),
        added_files_count: count(1).length, existing_files_count: count(0).length, deleted_files_count: count(2).length,
        added_rows_count: rows(count(1)), existing_rows_count: rows(count(0)), deleted_rows_count: rows(count(2)),
        partitions: this.partitionFields.length ? partitions : [], key_metadata: null,
        ...(this.formatVersion >= 3 ? { first_row_id: null } : {}),
      },
    };
  }

  /**
   * A snapshot: keep (manifest_file records carried over from the current
   * snapshot: a predicate on them, default all), add ([{content, entries}]:
   * new manifests; entries with status 1 get this snapshot's id and
   * inherited sequence numbers). Returns {snapshot, seq, snapshotId, manifests: [{rel, records, file}]}.
   */
  commit({ operation, timestampMs, keep = () => true, add = [], summary = {}, manifestName = null }) {
    const seq = this.lastSeq + 1n;
    const snapshotId = this.newSnapshotId();
    const written = add.map((m, j) => this.writeManifest({
      content: m.content, snapshotId, seq,
      name: manifestName ? `${manifestName}-${j}` : null,
      entries: m.entries.map((e) => ({ ...e, snapshotId: e.snapshotId ?? snapshotId })),
    }));
    const kept = this.manifests.filter(keep);
    const list = [...written.map((w) => w.file), ...kept];
    let firstRowId = null;
    let addedRows = 0n;
    if (this.formatVersion >= 3) {
      firstRowId = this.nextRowId;
      let next = firstRowId;
      for (const m of list) {
        if (m.content === 0 && m.first_row_id === null) {
          m.first_row_id = next;
          next += m.added_rows_count + m.existing_rows_count;
        }
      }
      addedRows = next - firstRowId;
      this.nextRowId = next;
    }
    const listRel = `metadata/snap-${snapshotId}-1-${newUuid(this.rand).text}.avro`;
    const listMeta = {
      'snapshot-id': snapshotId, 'sequence-number': seq, 'format-version': this.formatVersion,
      ...(this.current ? { 'parent-snapshot-id': this.current['snapshot-id'] } : { 'parent-snapshot-id': 'null' }),
      ...(this.formatVersion >= 3 ? { 'first-row-id': firstRowId } : {}),
    };
    fs.writeFileSync(this.local(listRel), writeAvro(manifestFileSchema(this.formatVersion), listMeta, list, { sync: Buffer.from(newUuid(this.rand).bytes) }));
    const snapshot = {
      'snapshot-id': snapshotId,
      ...(this.current ? { 'parent-snapshot-id': this.current['snapshot-id'] } : {}),
      'sequence-number': seq, 'timestamp-ms': timestampMs,
      summary: { operation, ...Object.fromEntries(Object.entries(summary).map(([k, v]) => [k, String(v)])) },
      'manifest-list': this.path(listRel), 'schema-id': this.currentSchemaId,
      ...(this.formatVersion >= 3 ? { 'first-row-id': firstRowId, 'added-rows': addedRows } : {}),
    };
    this.snapshots.push(snapshot);
    this.snapshotLog.push({ 'timestamp-ms': timestampMs, 'snapshot-id': snapshotId });
    this.current = snapshot;
    this.manifests = list;
    this.lastSeq = seq;
    this.lastUpdatedMs = timestampMs;
    this.refs.main = { 'snapshot-id': snapshotId, type: 'branch' };
    const metadataRel = this.writeMetadata();
    return { snapshot, seq, snapshotId, listRel, metadataRel, manifests: written, list };
  }

  /** A tag or branch naming a snapshot. */
  setRef(name, snapshotId, type = 'tag') {
    this.refs[name] = { 'snapshot-id': snapshotId, type };
  }

  metadataObject() {
    const md = {
      'format-version': this.formatVersion,
      'table-uuid': this.uuid,
      location: this.location,
      'last-sequence-number': this.lastSeq,
      'last-updated-ms': this.lastUpdatedMs,
      'last-column-id': this.lastColumnId,
      'current-schema-id': this.currentSchemaId,
      schemas: this.schemas,
      'default-spec-id': 0,
      'partition-specs': [this.spec],
      'last-partition-id': Math.max(999, ...this.partitionFields.map((f) => f.fieldId)),
      'default-sort-order-id': 0,
      'sort-orders': [{ 'order-id': 0, fields: [] }],
      properties: this.properties,
      'current-snapshot-id': this.current ? this.current['snapshot-id'] : -1,
      refs: this.refs,
      snapshots: this.snapshots,
      statistics: [],
      'snapshot-log': this.snapshotLog,
      'metadata-log': this.metadataLog,
    };
    if (this.formatVersion >= 3) md['next-row-id'] = this.nextRowId;
    return md;
  }

  /** Writes metadata/v<N>.metadata.json and version-hint.text; returns the file's path relative to the table. */
  writeMetadata(mutate = null) {
    this.version++;
    const rel = `metadata/v${this.version}.metadata.json`;
    const md = this.metadataObject();
    if (mutate) mutate(md);
    fs.writeFileSync(this.local(rel), jsonBig(md, 2));
    fs.writeFileSync(this.local('metadata/version-hint.text'), String(this.version));
    this.metadataLog = [...this.metadataLog, { 'timestamp-ms': this.lastUpdatedMs, 'metadata-file': this.path(rel) }];
    this.metadataFiles.push({ rel, version: this.version, snapshotId: this.current ? this.current['snapshot-id'] : null, schemaId: this.currentSchemaId });
    return rel;
  }
}

/** A data_file record of a data file (content 0). */
export function dataFileRecord({ recordedPath, size, rows, partition = {}, metrics, sortOrderId = 0, splitOffsets = null }) {
  return {
    content: 0, file_path: recordedPath, file_format: 'PARQUET', partition, record_count: BigInt(rows),
    file_size_in_bytes: BigInt(size), ...metrics, sort_order_id: sortOrderId, split_offsets: splitOffsets,
  };
}
