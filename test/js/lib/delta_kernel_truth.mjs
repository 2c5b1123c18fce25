// The rows a correct Delta reader returns for a table, computed here in
// JavaScript from the table's files alone, by the Delta protocol
// (PROTOCOL.md), independently of the C reader -- for check_delta_kernel.mjs:
//
//   log replay   the newest complete checkpoint (classic, multi-part, or v2
//                with sidecars; Parquet read with hyparquet, or JSON), then
//                every JSON commit after it (contiguous, or an error); the
//                latest protocol and metaData win; add and remove actions are
//                reconciled by their (path, deletion vector id) key, the last
//                action for a key deciding whether it is live
//   data files   each live add's Parquet file read with hyparquet, its values
//                taken raw (type annotations stripped from the footer before
//                decoding, so decimals stay exact integers, timestamps exact
//                microseconds, binary bytes) and interpreted by the file's own
//                Parquet types
//   deletion     the add's deletion vector ('u': deletion_vector_<uuid>.bin
//   vectors      below the table, 'p': an absolute path, 'i': inline Z85),
//                the data's size word and CRC-32 checked, decoded as a
//                RoaringBitmapArray with npm roaring; its positions (rows of
//                the file, from 0) are dropped, and its cardinality checked
//   columns      the table's schema names them; under column mapping the
//                file's columns are found by field id ('id' mode, when the
//                file has ids) or by physical name, and partition values
//                are keyed by physical names; a column a file lacks is NULL
//   partitions   partition values from the add's partitionValues, parsed by
//                the column's type (PROTOCOL.md "Partition Value
//                Serialization"; null and "" are NULL)
//   widening     a file value of a narrower type read as the table's current
//                type (int -> long/double/decimal, float -> double, decimal
//                -> wider decimal, date -> timestamp_ntz): the value itself,
//                exactly; any other mismatch is a harness error
//   void         Delta's NullType ("void"): every value NULL
//
// Values come out canonical, as lib/canon.mjs's canonPg() makes PostgreSQL's
// text of the PostgreSQL type deltaKernelPgType() gives: integers and
// numeric(p,s) exact (s digits), real as float32 and double as float64
// values (NaN, -0 kept), text as is, bytea "\x" + lowercase hex, boolean
// t/f, date as days, timestamps (both kinds) as microseconds.
//
// Nested columns (struct, array, map) are not computed (a harness error).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { listLog } from './delta_log.mjs';
import { crc32, z85Decode } from './delta_dv.mjs';
import { daysFromCivil, nsToUs, scaledDecimal } from './canon.mjs';

const require = createRequire(import.meta.url);
const Roaring = require('roaring');

/** The reader features this truth knows how to apply (anything else: the table must be refused). */
export const TRUTH_READER_FEATURES = new Set([
  'columnMapping', 'deletionVectors', 'timestampNtz', 'typeWidening', 'typeWidening-preview',
  'v2Checkpoint', 'vacuumProtocolCheck',
]);

// ------------------------------------------------------------------ files

function readJsonLines(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l, i) => {
    try {
      return JSON.parse(l);
    } catch (err) {
      throw new Error(`${file} line ${i + 1}: ${err.message}`);
    }
  });
}

function arrayBufferOf(file) {
  const b = fs.readFileSync(file);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
}

/** A Parquet map as hyparquet gives it (object, Map, or [{key, value}]) as a plain object. */
function plainMap(m) {
  if (m === null || m === undefined) return {};
  if (m instanceof Map) return Object.fromEntries(m);
  if (Array.isArray(m)) return Object.fromEntries(m.map((e) => [e.key, e.value]));
  return m;
}

const drop = (o) => (o === null || o === undefined ? undefined
  : Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)));

/** The actions of a checkpoint (or sidecar) file, JSON or Parquet. */
async function checkpointActions(file) {
  if (file.endsWith('.json')) return readJsonLines(file);
  const ab = arrayBufferOf(file);
  const top = new Set(parquetMetadata(ab).schema.slice(1).map((el) => el.name));
  const columns = ['protocol', 'metaData', 'add', 'remove', 'sidecar'].filter((c) => top.has(c));
  if (!columns.length) return [];
  const rows = await parquetReadObjects({ file: ab, columns, rowFormat: 'object' });
  const out = [];
  for (const r of rows) {
    for (const c of columns) {
      const a = r[c];
      if (a === null || a === undefined) continue;
      const x = drop(a);
      // a struct of all-null fields is an absent action
      if (!Object.keys(x).length) continue;
      if (c === 'add' || c === 'remove') {
        if (x.path === undefined) continue;
        x.partitionValues = plainMap(a.partitionValues);
        if (x.deletionVector) x.deletionVector = drop(x.deletionVector);
        if (x.deletionVector && x.deletionVector.storageType === undefined) delete x.deletionVector;
      }
      if (c === 'metaData') {
        if (x.schemaString === undefined) continue;
        x.configuration = plainMap(a.configuration);
      }
      if (c === 'protocol' && x.minReaderVersion === undefined) continue;
      out.push({ [c]: x });
    }
  }
  return out;
}

/** The deletion vector's unique id (PROTOCOL.md): storageType + pathOrInlineDv [+ '@' + offset]. */
export function dvId(dv) {
  if (!dv) return '';
  return `${dv.storageType}${dv.pathOrInlineDv}${dv.offset !== undefined && dv.offset !== null ? `@${dv.offset}` : ''}`;
}

/** A logged path (a relative or absolute URI) as a file name. */
function filePath(tableDir, p) {
  if (/^file:/.test(p)) return fileURLToPath(p.replace(/^file:\/*/, 'file:///'));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) throw new Error(`data file ${p} is not local`);
  return path.join(tableDir, decodeURIComponent(p));
}

/**
 * Replays the log: { version, protocol, metaData, schema (fields), files: [add],
 * checkpoint (its version or null), commits (how many JSON commits applied) }.
 */
export async function replayLog(tableDir) {
  const { commits, checkpoints } = listLog(tableDir);
  const versions = [...commits.keys(), ...checkpoints.keys()];
  if (!versions.length) throw new Error(`no commit or checkpoint in ${tableDir}/_delta_log`);
  const version = Math.max(...versions);
  const cp = [...checkpoints.keys()].filter((v) => v <= version).sort((a, b) => b - a)[0];
  let protocol = null;
  let metaData = null;
  const live = new Map();
  const keyOf = (a) => `${decodeURIComponent(a.path)}\u0000${dvId(a.deletionVector)}`;
  const apply = (a, fromCheckpoint) => {
    if (a.protocol) protocol = a.protocol;
    if (a.metaData) metaData = a.metaData;
    if (a.add) live.set(keyOf(a.add), a.add);
    // a checkpoint's removes are tombstones of files it does not hold
    if (a.remove && !fromCheckpoint) live.delete(keyOf(a.remove));
  };
  if (cp !== undefined) {
    const logDir = path.join(tableDir, '_delta_log');
    for (const f of checkpoints.get(cp)) {
      for (const a of await checkpointActions(f)) {
        if (a.sidecar) {
          const sc = a.sidecar.path.includes('/') ? filePath(logDir, a.sidecar.path) : path.join(logDir, '_sidecars', a.sidecar.path);
          for (const b of await checkpointActions(sc)) apply(b, true);
        } else {
          apply(a, true);
        }
      }
    }
  }
  const after = [...commits.keys()].filter((v) => cp === undefined || v > cp).sort((a, b) => a - b);
  let expect = cp === undefined ? 0 : cp + 1;
  for (const v of after) {
    if (v !== expect) throw new Error(`log not contiguous: commit ${v} after ${expect - 1}`);
    expect++;
    for (const a of readJsonLines(commits.get(v))) apply(a, false);
  }
  if (!protocol) throw new Error('no protocol action in the log');
  if (!metaData) throw new Error('no metaData action in the log');
  const schema = JSON.parse(metaData.schemaString);
  return { version, protocol, metaData, fields: schema.fields, files: [...live.values()], checkpoint: cp ?? null, commits: after.length };
}

/** The reader features the protocol requires that this truth does not apply. */
export function unknownReaderFeatures(protocol) {
  if (protocol.minReaderVersion > 3) return [`reader version ${protocol.minReaderVersion}`];
  if (protocol.minReaderVersion < 3) return [];
  return (protocol.readerFeatures || []).filter((f) => !TRUTH_READER_FEATURES.has(f));
}

// -------------------------------------------------------- deletion vectors

const uuidText = (b) => {
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** The deletion vector's data bytes: { data, where (for messages) }. */
function dvBytes(tableDir, dv) {
  if (dv.storageType === 'i') {
    const raw = z85Decode(dv.pathOrInlineDv);
    if (raw.length < dv.sizeInBytes) throw new Error(`inline deletion vector: ${raw.length} bytes, sizeInBytes ${dv.sizeInBytes}`);
    return { data: raw.subarray(0, dv.sizeInBytes), where: 'inline' };
  }
  let file;
  if (dv.storageType === 'u') {
    const p = dv.pathOrInlineDv;
    const prefix = p.slice(0, -20);
    file = path.join(tableDir, prefix, `deletion_vector_${uuidText(z85Decode(p.slice(-20)))}.bin`);
  } else if (dv.storageType === 'p') {
    file = filePath(tableDir, dv.pathOrInlineDv);
  } else {
    throw new Error(`deletion vector storage type ${dv.storageType}`);
  }
  const b = fs.readFileSync(file);
  const off = dv.offset ?? 1;
  if (b[0] !== 1) throw new Error(`${file}: format version ${b[0]}, expected 1`);
  const size = b.readUInt32BE(off);
  if (size !== dv.sizeInBytes) throw new Error(`${file}@${off}: size word ${size}, sizeInBytes ${dv.sizeInBytes}`);
  const data = b.subarray(off + 4, off + 4 + size);
  const crc = b.readUInt32BE(off + 4 + size);
  if (crc !== crc32(data)) throw new Error(`${file}@${off}: CRC-32 ${crc} does not match the data's ${crc32(data)}`);
  return { data, where: `${path.basename(file)}@${off}` };
}

/** The row positions a deletion vector deletes (sorted numbers), its cardinality checked. */
export function dvPositions(tableDir, dv) {
  const { data, where } = dvBytes(tableDir, dv);
  if (data.readUInt32LE(0) !== 1681511377) throw new Error(`deletion vector ${where}: bad magic ${data.readUInt32LE(0)}`);
  const n = Number(data.readBigUInt64LE(4));
  let p = 12;
  const out = [];
  for (let i = 0; i < n; i++) {
    const key = data.readUInt32LE(p);
    p += 4;
    const bm = Roaring.RoaringBitmap32.deserialize(data.subarray(p), 'portable');
    p += bm.getSerializationSizeInBytes('portable');
    for (const v of bm.toArray()) out.push(key * 4294967296 + v);
  }
  if (p !== data.length) throw new Error(`deletion vector ${where}: ${data.length} bytes, bitmaps end at ${p}`);
  if (dv.cardinality !== undefined && Number(dv.cardinality) !== out.length) {
    throw new Error(`deletion vector ${where}: ${out.length} positions, cardinality ${dv.cardinality}`);
  }
  return { positions: out, where };
}

// ------------------------------------------------------------- Parquet

const STRIP = new Set(['DECIMAL', 'DATE', 'TIMESTAMP', 'TIMESTAMP_MILLIS', 'TIMESTAMP_MICROS', 'TIME', 'TIME_MILLIS', 'TIME_MICROS', 'JSON', 'UUID', 'BSON', 'INTERVAL', 'GEOMETRY', 'GEOGRAPHY', 'FLOAT16']);

/** Top-level columns of a footer's schema: [{ name, fieldId, el (leaf element, or null if nested) }]. */
function topColumns(schema) {
  const out = [];
  let i = 1;
  const skip = (j) => {
    let n = schema[j].num_children || 0;
    let k = j + 1;
    while (n-- > 0) k = skip(k);
    return k;
  };
  while (i < schema.length) {
    const el = schema[i];
    out.push({ name: el.name, fieldId: el.field_id, el: el.num_children ? null : el });
    i = skip(i);
  }
  return out;
}

const twos = (bytes) => {
  let v = 0n;
  for (const x of bytes) v = v * 256n + BigInt(x);
  const bits = BigInt(bytes.length * 8);
  if (bytes.length && v >= 1n << (bits - 1n)) v -= 1n << bits;
  return v;
};

/** A raw value of Parquet element el as a typed source value (null stays null). */
function sourceValue(el, raw) {
  if (raw === null || raw === undefined) return null;
  const lt = el.logical_type?.type;
  const ct = el.converted_type;
  const dec = lt === 'DECIMAL' || ct === 'DECIMAL';
  switch (el.type) {
    case 'BOOLEAN': return { k: 'bool', v: Boolean(raw) };
    case 'INT32':
    case 'INT64': {
      if (dec) return { k: 'dec', u: BigInt(raw), s: el.logical_type?.scale ?? el.scale ?? 0 };
      if (lt === 'DATE' || ct === 'DATE') return { k: 'date', days: Number(raw) };
      if (lt === 'TIMESTAMP' || ct === 'TIMESTAMP_MILLIS' || ct === 'TIMESTAMP_MICROS') {
        const unit = el.logical_type?.unit ?? (ct === 'TIMESTAMP_MILLIS' ? 'MILLIS' : 'MICROS');
        const v = BigInt(raw);
        const us = unit === 'MILLIS' ? v * 1000n : unit === 'NANOS' ? nsToUs(v) : v;
        return { k: 'ts', us, utc: el.logical_type ? el.logical_type.isAdjustedToUTC !== false : true };
      }
      if (lt === 'TIME' || /^TIME_/.test(ct || '')) throw new Error(`column ${el.name}: Parquet TIME has no Delta type`);
      let v = BigInt(raw);
      const unsigned = (lt === 'INTEGER' && el.logical_type.isSigned === false) || /^UINT_/.test(ct || '');
      if (unsigned && v < 0n) v += el.type === 'INT32' ? 1n << 32n : 1n << 64n;
      return { k: 'int', v };
    }
    case 'INT96': return { k: 'ts', us: nsToUs(raw), utc: true };
    case 'FLOAT': return { k: 'f32', v: Number(raw) };
    case 'DOUBLE': return { k: 'f64', v: Number(raw) };
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      if (dec) return { k: 'dec', u: twos(raw), s: el.logical_type?.scale ?? el.scale ?? 0 };
      if (typeof raw === 'string') return { k: 'str', v: raw };
      return { k: 'bin', v: Buffer.from(raw) };
    default:
      throw new Error(`column ${el.name}: Parquet type ${el.type}`);
  }
}

/**
 * The rows of one Parquet file: { n, columns: Map(top-level name -> { fieldId,
 * values: [source value] }) }.
 */
export async function readDataFile(file) {
  const ab = arrayBufferOf(file);
  const metadata = parquetMetadata(ab, { geoparquet: false });
  const tops = topColumns(metadata.schema);
  const raw = structuredClone(metadata);
  for (const el of raw.schema) {
    if (STRIP.has(el.logical_type?.type) || STRIP.has(el.converted_type)) {
      delete el.logical_type;
      delete el.converted_type;
    }
  }
  const rows = await parquetReadObjects({
    file: ab, metadata: raw, rowFormat: 'object', utf8: false, geoparquet: false,
    parsers: { timestampFromNanoseconds: (ns) => ns },
  });
  const n = Number(metadata.num_rows);
  if (rows.length !== n) throw new Error(`${file}: hyparquet read ${rows.length} rows, the footer says ${n}`);
  const columns = new Map();
  for (const t of tops) {
    if (!t.el) {
      columns.set(t.name, { fieldId: t.fieldId, nested: true });
      continue;
    }
    columns.set(t.name, { fieldId: t.fieldId, values: rows.map((r) => sourceValue(t.el, r[t.name])) });
  }
  return { n, columns };
}

// ------------------------------------------------------------- values

const INT_TYPES = new Set(['byte', 'short', 'integer', 'long']);

const decimalOf = (t) => {
  const m = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t);
  return m ? { p: Number(m[1]), s: Number(m[2]) } : null;
};

/** Delta's type name for messages. */
const typeName = (t) => (typeof t === 'string' ? t : t?.type ?? String(t));

/**
 * The PostgreSQL type (format_type() spelling) for a Delta primitive type,
 * by the brief's mapping; void (NullType) as text (its values are all NULL),
 * geometry/geography as bytea (WKB); null for nested types.
 */
export function deltaKernelPgType(t) {
  if (typeof t !== 'string') return null;
  if (t === 'byte' || t === 'short') return 'smallint';
  if (t === 'integer') return 'integer';
  if (t === 'long') return 'bigint';
  if (t === 'float') return 'real';
  if (t === 'double') return 'double precision';
  if (t === 'boolean') return 'boolean';
  if (t === 'string') return 'text';
  if (t === 'binary') return 'bytea';
  if (t === 'date') return 'date';
  if (t === 'timestamp') return 'timestamp with time zone';
  if (t === 'timestamp_ntz') return 'timestamp without time zone';
  if (t === 'void') return 'text';
  if (/^(geometry|geography)\b/.test(t)) return 'bytea';
  const d = decimalOf(t);
  if (d) return `numeric(${d.p},${d.s})`;
  return null;
}

const fmtFloat = (x) => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : String(x));

function rescale(u, from, to, what) {
  if (to < from) throw new Error(`${what}: decimal of scale ${from} read as scale ${to} (narrowing)`);
  return u * 10n ** BigInt(to - from);
}

/** The canonical text of source value sv read as Delta type t (what = column, for messages). */
export function canonAs(t, sv, what) {
  if (t === 'void' || sv === null) return null;
  const bad = () => new Error(`${what}: a file value of kind ${sv.k} cannot be read as Delta ${typeName(t)}`);
  if (INT_TYPES.has(t)) {
    if (sv.k !== 'int') throw bad();
    return sv.v.toString();
  }
  if (t === 'float') {
    if (sv.k !== 'f32') throw bad();
    return fmtFloat(Math.fround(sv.v));
  }
  if (t === 'double') {
    if (sv.k === 'f32' || sv.k === 'f64') return fmtFloat(sv.v);
    if (sv.k === 'int') return fmtFloat(Number(sv.v));
    throw bad();
  }
  const d = typeof t === 'string' ? decimalOf(t) : null;
  if (d) {
    let u;
    if (sv.k === 'dec') u = rescale(sv.u, sv.s, d.s, what);
    else if (sv.k === 'int') u = rescale(sv.v, 0, d.s, what);
    else throw bad();
    if ((u < 0n ? -u : u).toString().length > d.p) throw new Error(`${what}: ${scaledDecimal(u, d.s)} does not fit ${t}`);
    return scaledDecimal(u, d.s);
  }
  if (t === 'string') {
    if (sv.k === 'str') return sv.v;
    throw bad();
  }
  if (t === 'binary' || /^(geometry|geography)\b/.test(t)) {
    if (sv.k === 'bin') return `\\x${sv.v.toString('hex')}`;
    throw bad();
  }
  if (t === 'boolean') {
    if (sv.k !== 'bool') throw bad();
    return sv.v ? 't' : 'f';
  }
  if (t === 'date') {
    if (sv.k !== 'date') throw bad();
    return String(sv.days);
  }
  if (t === 'timestamp' || t === 'timestamp_ntz') {
    if (sv.k === 'ts') return sv.us.toString();
    if (sv.k === 'date' && t === 'timestamp_ntz') return (BigInt(sv.days) * 86400000000n).toString();
    throw bad();
  }
  throw new Error(`${what}: Delta type ${typeName(t)} is not computed by this harness`);
}

/** A partition value (log text) as a source value of Delta type t (PROTOCOL.md, Partition Value Serialization). */
export function partitionSource(t, text, what) {
  if (text === null || text === undefined || text === '') return null;
  if (t === 'void') return null;
  if (INT_TYPES.has(t)) {
    if (!/^-?\d+$/.test(text)) throw new Error(`${what}: partition value ${JSON.stringify(text)} is not an integer`);
    return { k: 'int', v: BigInt(text) };
  }
  if (t === 'float') return { k: 'f32', v: Math.fround(Number(text)) };
  if (t === 'double') return { k: 'f64', v: Number(text) };
  const d = decimalOf(t);
  if (d) {
    const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
    if (!m) throw new Error(`${what}: partition value ${JSON.stringify(text)} is not a decimal`);
    const frac = m[3] || '';
    return { k: 'dec', u: BigInt(`${m[1]}${(m[2] || '0')}${frac}`), s: frac.length };
  }
  if (t === 'string') return { k: 'str', v: text };
  if (t === 'binary') return { k: 'bin', v: Buffer.from([...text].map((c) => c.charCodeAt(0) & 0xFF)) };
  if (t === 'boolean') return { k: 'bool', v: text.toLowerCase() === 'true' };
  if (t === 'date') {
    const m = /^(\d{4,})-(\d\d)-(\d\d)$/.exec(text);
    if (!m) throw new Error(`${what}: partition value ${JSON.stringify(text)} is not a date`);
    return { k: 'date', days: daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])) };
  }
  if (t === 'timestamp' || t === 'timestamp_ntz') {
    // "yyyy-MM-dd HH:mm:ss[.SSSSSS]" (UTC for timestamp) or ISO 8601 with an offset
    const m = /^(\d{4,})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)?$/.exec(text);
    if (!m) throw new Error(`${what}: partition value ${JSON.stringify(text)} is not a timestamp`);
    let us = BigInt(daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]))) * 86400000000n +
      (BigInt(m[4]) * 3600n + BigInt(m[5]) * 60n + BigInt(m[6])) * 1000000n + BigInt((m[7] || '').padEnd(6, '0').slice(0, 6));
    if (m[8] && m[8] !== 'Z') {
      const o = /^([+-])(\d\d):?(\d\d)$/.exec(m[8]);
      const off = (BigInt(o[2]) * 3600n + BigInt(o[3]) * 60n) * 1000000n;
      us += o[1] === '+' ? -off : off;
    }
    return { k: 'ts', us, utc: t === 'timestamp' };
  }
  throw new Error(`${what}: partition column of Delta type ${typeName(t)}`);
}

// ------------------------------------------------------------- the rows

/**
 * The table's rows: { state (replayLog), columns: [{ name, type (Delta),
 * physical, id, partition }], rows: [[canonical]], deleted: [[canonical]] (the
 * rows deletion vectors drop), files: [{ path, rows, deleted, dv }] }.
 */
export async function tableTruth(tableDir) {
  const state = await replayLog(tableDir);
  const cfg = state.metaData.configuration || {};
  const mode = cfg['delta.columnMapping.mode'] || 'none';
  const parts = new Set(state.metaData.partitionColumns || []);
  const columns = state.fields.map((f) => {
    const md = f.metadata || {};
    const mapped = mode === 'name' || mode === 'id';
    return {
      name: f.name,
      type: f.type,
      physical: mapped && md['delta.columnMapping.physicalName'] ? md['delta.columnMapping.physicalName'] : f.name,
      id: mapped ? md['delta.columnMapping.id'] : undefined,
      partition: parts.has(f.name),
    };
  });
  for (const p of parts) if (!columns.some((c) => c.name === p)) throw new Error(`partition column ${p} is not in the schema`);
  for (const c of columns) if (typeof c.type !== 'string') throw new Error(`column ${c.name}: nested Delta type ${typeName(c.type)} is not computed by this harness`);
  const unknown = unknownReaderFeatures(state.protocol);
  if (unknown.length) return { state, columns, mode, unsupported: unknown, rows: [], deleted: [], files: [] };

  const rows = [];
  const deleted = [];
  const files = [];
  for (const add of state.files) {
    const file = filePath(tableDir, add.path);
    const data = await readDataFile(file);
    // the file column of each table column (null: the file lacks it)
    const byId = new Map([...data.columns].filter(([, c]) => c.fieldId !== undefined).map(([n, c]) => [c.fieldId, n]));
    const src = columns.map((c) => {
      if (c.partition) return null;
      let name = c.physical;
      if (mode === 'id' && c.id !== undefined && byId.size) name = byId.get(Number(c.id));
      const col = name === undefined ? undefined : data.columns.get(name);
      if (col?.nested) throw new Error(`${add.path}: column ${name} is nested in the file`);
      return col || null;
    });
    const pv = add.partitionValues || {};
    const partVals = columns.map((c) => {
      if (!c.partition) return undefined;
      const key = Object.prototype.hasOwnProperty.call(pv, c.physical) ? c.physical : c.name;
      return canonAs(c.type, partitionSource(c.type, pv[key], `${add.path} partition ${c.name}`), `${add.path} partition ${c.name}`);
    });
    let del = new Set();
    let dvWhere = null;
    if (add.deletionVector) {
      const d = dvPositions(tableDir, add.deletionVector);
      for (const p of d.positions) if (p >= data.n) throw new Error(`${add.path}: deletion vector ${d.where} deletes row ${p} of ${data.n}`);
      del = new Set(d.positions);
      dvWhere = `${add.deletionVector.storageType}:${d.where}`;
    }
    for (let r = 0; r < data.n; r++) {
      const row = columns.map((c, j) => {
        if (c.partition) return partVals[j];
        if (!src[j]) return null;
        return canonAs(c.type, src[j].values[r], `${add.path} row ${r} column ${c.name}`);
      });
      (del.has(r) ? deleted : rows).push(row);
    }
    files.push({ path: add.path, rows: data.n, deleted: del.size, dv: dvWhere });
  }
  return { state, columns, mode, unsupported: [], rows, deleted, files };
}
