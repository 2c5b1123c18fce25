// The second source of truth of check_iceberg.mjs: icebird (npm), an
// independent Iceberg reader in JavaScript (hyparquet for Parquet, its own
// Avro reader for manifests) that applies position and equality deletes.
// This file gives it the corpus's files and turns its values into the
// canonical forms the other sources are compared in.
//
// Files: icebird fetch()es every location the metadata records (metadata
// JSON, manifest lists, manifests, data and delete files, with HTTP Range
// requests for Parquet). While it reads, globalThis.fetch is a local
// reader: the URL (a recorded location such as /test-warehouse/iceberg_test/..
// or hdfs://localhost:20500/...) goes through the table's location map (the
// same one the foreign table gets) to a file below the table formats
// directory; Range requests are answered 206 with the bytes asked for; a
// location the map does not name, or a file that is not there, is a 404 (so
// icebird fails, and the table is a SKIP with its error). Nothing listens on
// a port.
//
// Values: hyparquet's default conversions would lose precision (timestamps
// to JavaScript Dates, milliseconds) and make binary text, so its parsers
// (hyparquet's exported DEFAULT_PARSERS, the instance icebird imports) are
// replaced while icebird reads: timestamps become "ts:<microseconds>" (ns:
// for nanoseconds), dates "d:<days>", bytes a string that keeps them (the
// text when it is valid UTF-8, else a marked hex string). All are plain
// strings, so icebird's equality deletes (which compare values with ===)
// still match. Decimals stay hyparquet's float64 (icebird passes no option
// for them): compared exactly only up to 15 digits of precision.
//
// Two adaptations of the input, both documented where used:
//   * position delete files of this corpus name their data files
//     hdfs://localhost:20500/test-warehouse/... where the manifests say
//     /test-warehouse/... (Impala resolves both to the same file); icebird
//     matches them as strings, so the harness gives it the manifest's
//     spelling for exactly those paths (aliases), as a reader resolving
//     locations does
//   * initial-default values are wrapped ({ initialDefault: v }) in the
//     metadata handed to icebird, so that a default (JSON single-value form:
//     a date as "2024-01-01", binary as hex) is never mistaken for a value
//     read from a file

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { canonJson, daysFromCivil } from './canon.mjs';
import { mapPath } from './iceberg_table.mjs';
import { canonDouble, canonFloat32, normDecimal, pyUnicodeEscape } from './iceberg_values.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BIN = '\u0000BIN:';

let icebirdMod = null;
let parsers = null;

/** icebird and the DEFAULT_PARSERS object of the hyparquet it imports. */
async function load() {
  if (icebirdMod) return;
  icebirdMod = await import('icebird');
  const pkg = path.dirname(fileURLToPath(import.meta.resolve('icebird')));
  const root = path.resolve(pkg, '..');
  // the hyparquet icebird resolves: its own node_modules first, then the shared one
  const cands = [path.join(root, 'node_modules', 'hyparquet', 'src', 'convert.js'), path.resolve(root, '..', 'hyparquet', 'src', 'convert.js')];
  const conv = cands.find((c) => fs.existsSync(c));
  if (!conv) throw new Error('cannot find the hyparquet icebird uses');
  parsers = (await import(pathToFileURL(conv).href)).DEFAULT_PARSERS;
}

export async function icebirdVersion() {
  const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('icebird'))), '..', 'package.json');
  return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
let aliases = new Map();

const OUR_PARSERS = {
  timestampFromMilliseconds: (v) => `ts:${BigInt(v) * 1000n}`,
  timestampFromMicroseconds: (v) => `ts:${BigInt(v)}`,
  timestampFromNanoseconds: (v) => `ns:${BigInt(v)}`,
  dateFromDays: (v) => `d:${v}`,
  stringFromBytes: (b) => {
    if (b === undefined || b === null) return b;
    let s;
    try {
      s = utf8.decode(b);
    } catch {
      return BIN + Buffer.from(b).toString('hex');
    }
    return aliases.get(s) ?? s;
  },
};

/** A Response for a local file (whole, or the Range asked for). */
function fileResponse(file, init) {
  const size = fs.statSync(file).size;
  const h = init?.headers;
  const range = h ? (typeof h.get === 'function' ? h.get('Range') : h.Range || h.range) : null;
  if (range) {
    const m = /^bytes=(\d+)-(\d*)$/.exec(range);
    if (!m) return new Response(null, { status: 416 });
    const start = Number(m[1]);
    const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    const fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(Math.max(0, end - start + 1));
    fs.readSync(fd, buf, 0, buf.length, start);
    fs.closeSync(fd);
    return new Response(buf, { status: 206, headers: { 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(buf.length) } });
  }
  return new Response(fs.readFileSync(file), { status: 200, headers: { 'Content-Length': String(size) } });
}

/**
 * Read a table with icebird: every row of the snapshot metadata m names as
 * current (the caller sets current-snapshot-id / current-schema-id for time
 * travel). entries: the location map; pathAliases: Map(recorded spelling ->
 * manifest spelling). Returns { rows (objects by field name), requests }.
 */
export async function icebirdRead({ metadata, tableUrl, entries, pathAliases }) {
  await load();
  const requests = [];
  const saved = globalThis.fetch;
  const savedParsers = { ...parsers };
  aliases = pathAliases || new Map();
  globalThis.fetch = async (url, init) => {
    const u = String(url);
    const local = mapPath(entries, u);
    requests.push(u);
    if (!local || !fs.existsSync(local) || !fs.statSync(local).isFile()) return new Response(`not found: ${u}`, { status: 404, statusText: 'Not Found' });
    return fileResponse(local, init);
  };
  Object.assign(parsers, OUR_PARSERS);
  try {
    const rows = await icebirdMod.icebergRead({ tableUrl, metadata });
    return { rows, requests };
  } finally {
    globalThis.fetch = saved;
    Object.assign(parsers, savedParsers);
    aliases = new Map();
  }
}

/**
 * The metadata object handed to icebird: the table's (ids exact, as
 * strings), its snapshot and schema those of option (null: current), v1's
 * lone "schema" also as "schemas" (icebird reads only "schemas"), and
 * initial-default values wrapped (see the head of this file).
 */
export function metadataForIcebird(m, snap, schema) {
  const copy = JSON.parse(JSON.stringify(m));
  if (!Array.isArray(copy.schemas)) copy.schemas = [{ ...copy.schema, 'schema-id': copy.schema['schema-id'] ?? 0 }];
  if (copy['current-schema-id'] === undefined) copy['current-schema-id'] = copy.schemas[0]['schema-id'];
  if (snap) copy['current-snapshot-id'] = String(snap['snapshot-id']);
  if (schema) copy['current-schema-id'] = schema['schema-id'] ?? copy['current-schema-id'];
  for (const s of copy.schemas) {
    for (const f of s.fields) if (f['initial-default'] !== undefined) f['initial-default'] = { initialDefault: f['initial-default'] };
  }
  return copy;
}

// ----------------------------------------------------------- typed values

/**
 * icebird's value of Iceberg type t in a typed form:
 *   boolean; int/long -> BigInt; float/double -> number; decimal -> { dec: text };
 *   string -> string; binary/fixed -> Buffer; uuid -> string (lowercase);
 *   date -> { days }; time -> { us }; timestamp(tz) -> { us } (tz: UTC);
 *   list -> array; map -> [[k, v]]; struct -> { name: value }; null.
 * Throws for a value it cannot interpret (reported as a harness problem).
 */
export function typedValue(t, v) {
  if (v === null || v === undefined) return null;
  if (v && typeof v === 'object' && 'initialDefault' in v && Object.keys(v).length === 1) return defaultValue(t, v.initialDefault);
  if (typeof t === 'object') {
    if (t.type === 'list') return Array.from(v, (x) => typedValue(t.element, x));
    if (t.type === 'map') {
      const pairs = v instanceof Map ? [...v] : Array.isArray(v) ? v.map((e) => [e.key, e.value]) : Object.entries(v);
      return pairs.map(([k, x]) => [typedValue(t.key, k), typedValue(t.value, x)]);
    }
    if (t.type === 'struct') {
      const o = {};
      for (const f of t.fields) o[f.name] = typedValue(f.type, v[f.name]);
      return o;
    }
  }
  let m;
  switch (true) {
    case t === 'boolean': return Boolean(v);
    case t === 'int' || t === 'long': return BigInt(v);
    case t === 'float' || t === 'double': return Number(v);
    case (m = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t)) !== null: {
      const scale = Number(m[2]);
      if (typeof v === 'bigint') return { dec: normDecimal(scaleBig(v, scale)), approx: false };
      return { dec: normDecimal(Number(v).toFixed(scale)), approx: Number(m[1]) > 15 };
    }
    case t === 'string': return typeof v === 'string' && v.startsWith(BIN) ? Buffer.from(v.slice(BIN.length), 'hex').toString('latin1') : String(v);
    case t === 'binary' || /^fixed\[/.test(t):
      if (v instanceof Uint8Array) return Buffer.from(v);
      if (typeof v === 'string') return v.startsWith(BIN) ? Buffer.from(v.slice(BIN.length), 'hex') : Buffer.from(v, 'utf8');
      throw new Error(`binary value of kind ${typeof v}`);
    case t === 'uuid': {
      const b = v instanceof Uint8Array ? Buffer.from(v) : Buffer.from(String(v).replace(/-/g, ''), 'hex');
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case t === 'date':
      if (typeof v === 'string' && v.startsWith('d:')) return { days: Number(v.slice(2)) };
      if (typeof v === 'number') return { days: v };
      throw new Error(`date value ${v}`);
    case t === 'time' || t === 'time_ns':
      return { us: BigInt(v) };
    case ['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'].includes(t):
      if (typeof v === 'string' && v.startsWith('ts:')) return { us: BigInt(v.slice(3)) };
      if (typeof v === 'string' && v.startsWith('ns:')) return { us: floorDiv(BigInt(v.slice(3)), 1000n), ns: BigInt(v.slice(3)) };
      if (typeof v === 'bigint') return t.endsWith('_ns') ? { us: floorDiv(v, 1000n), ns: v } : { us: v };
      throw new Error(`timestamp value ${String(v)}`);
    case t === 'variant':
      throw new Error('VARIANT values are not decoded by this icebird');
    default:
      throw new Error(`no typed form for ${JSON.stringify(t)}`);
  }
}

const floorDiv = (a, b) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

function scaleBig(v, scale) {
  const neg = v < 0n;
  let s = (neg ? -v : v).toString().padStart(scale + 1, '0');
  if (scale > 0) s = `${s.slice(0, -scale)}.${s.slice(-scale)}`;
  return (neg ? '-' : '') + s;
}

/** An initial-default value (the spec's JSON single-value serialization) in the typed form. */
function defaultValue(t, v) {
  if (v === null) return null;
  let m;
  if (typeof t === 'object') {
    if (t.type === 'struct') {
      const o = {};
      for (const f of t.fields) o[f.name] = f['initial-default'] !== undefined && (v[f.name] === undefined) ? defaultValue(f.type, f['initial-default']) : defaultValue(f.type, v[f.name] ?? null);
      return o;
    }
    if (t.type === 'list') return v.map((x) => defaultValue(t.element, x));
    if (t.type === 'map') return v.keys.map((k, i) => [defaultValue(t.key, k), defaultValue(t.value, v.values[i])]);
  }
  switch (true) {
    case t === 'boolean': return Boolean(v);
    case t === 'int' || t === 'long': return BigInt(v);
    case t === 'float' || t === 'double': return Number(v);
    case (m = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t)) !== null: return { dec: normDecimal(String(v)), approx: false };
    case t === 'string': return String(v);
    case t === 'uuid': return String(v).toLowerCase();
    case t === 'binary' || /^fixed\[/.test(t): return Buffer.from(String(v), 'hex');
    case t === 'date': {
      const d = /^(-?\d+)-(\d\d)-(\d\d)$/.exec(v);
      return { days: daysFromCivil(Number(d[1]), Number(d[2]), Number(d[3])) };
    }
    case t === 'time': {
      const x = /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?$/.exec(v);
      return { us: BigInt(Number(x[1]) * 3600 + Number(x[2]) * 60 + Number(x[3])) * 1000000n + BigInt((x[4] || '').padEnd(6, '0').slice(0, 6)) };
    }
    case ['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'].includes(t): {
      const x = /^(-?\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)?$/.exec(v);
      if (!x) throw new Error(`timestamp default ${v}`);
      let us = (BigInt(daysFromCivil(Number(x[1]), Number(x[2]), Number(x[3]))) * 86400n + BigInt(Number(x[4]) * 3600 + Number(x[5]) * 60 + Number(x[6]))) * 1000000n
        + BigInt((x[7] || '').padEnd(6, '0').slice(0, 6));
      if (x[8] && x[8] !== 'Z') {
        const o = /([+-])(\d\d):(\d\d)/.exec(x[8]);
        const off = BigInt(Number(o[2]) * 3600 + Number(o[3]) * 60) * 1000000n;
        us += o[1] === '+' ? -off : off;
      }
      return { us };
    }
    default:
      throw new Error(`no default form for ${JSON.stringify(t)}`);
  }
}

// --------------------------------------------------- canonical for PostgreSQL

const fmtFloat = (x) => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : String(x));

/** ISO text of a day number. */
export function isoDate(days) {
  const d = new Date(days * 86400000);
  const y = d.getUTCFullYear();
  const ys = y < 0 ? `-${String(-y).padStart(4, '0')}` : String(y).padStart(4, '0');
  return `${ys}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** 'YYYY-MM-DD HH:MM:SS[.ffffff]' of microseconds since the epoch (UTC wall clock). */
export function isoTimestamp(us, sep = ' ') {
  const days = Number(floorDiv(us, 86400000000n));
  const rem = us - BigInt(days) * 86400000000n;
  const secs = Number(rem / 1000000n);
  const frac = rem % 1000000n;
  const hh = String(Math.floor(secs / 3600)).padStart(2, '0');
  const mm = String(Math.floor(secs / 60) % 60).padStart(2, '0');
  const ss = String(secs % 60).padStart(2, '0');
  const f = frac ? `.${String(frac).padStart(6, '0').replace(/0+$/, '')}` : '';
  return `${isoDate(days)}${sep}${hh}:${mm}:${ss}${f}`;
}

/** The JSON text (docs/JSON.md rules) of a typed value of Iceberg type t. */
function jsonText(t, v) {
  if (v === null) return 'null';
  if (typeof t === 'object') {
    if (t.type === 'list') return `[${v.map((x) => jsonText(t.element, x)).join(',')}]`;
    if (t.type === 'struct') return `{${t.fields.map((f) => `${JSON.stringify(f.name)}:${jsonText(f.type, v[f.name] ?? null)}`).join(',')}}`;
    if (t.type === 'map') {
      return `{${v.map(([k, x]) => `${JSON.stringify(typeof k === 'string' ? k : stripQuotes(jsonText(t.key, k)))}:${jsonText(t.value, x)}`).join(',')}}`;
    }
  }
  if (t === 'boolean') return v ? 'true' : 'false';
  if (t === 'int' || t === 'long') return v.toString();
  if (t === 'float') return Number.isFinite(v) ? shortestFloat32(v) : JSON.stringify(fmtFloat(v));
  if (t === 'double') return Number.isFinite(v) ? String(v) : JSON.stringify(fmtFloat(v));
  if (/^decimal/.test(t)) return v.dec;
  if (t === 'string' || t === 'uuid') return JSON.stringify(v);
  if (t === 'binary' || /^fixed\[/.test(t)) return JSON.stringify(v.toString('base64'));
  if (t === 'date') return JSON.stringify(isoDate(v.days));
  if (t === 'timestamp' || t === 'timestamp_ns') return JSON.stringify(isoTimestamp(v.us, 'T'));
  if (t === 'timestamptz' || t === 'timestamptz_ns') return JSON.stringify(`${isoTimestamp(v.us, 'T')}+00:00`);
  throw new Error(`no JSON form for ${JSON.stringify(t)}`);
}

/** The canonical JSON (lib/canon.mjs canonJson) of a typed value of Iceberg type t. */
export const jsonCanon = (t, v) => canonJson(jsonText(t, v));

const stripQuotes = (s) => (s.startsWith('"') ? JSON.parse(s) : s);

function shortestFloat32(x) {
  for (let p = 1; p <= 9; p++) {
    const t = x.toPrecision(p);
    if (Math.fround(Number(t)) === x) return String(Number(t));
  }
  return String(x);
}

/**
 * The canonical form lib/canon.mjs canonPg gives PostgreSQL's text of the
 * same value, for a typed value of Iceberg type t declared as pgType.
 */
export function canonForPg(t, pgType, v) {
  if (v === null) return null;
  if (pgType === 'jsonb') return canonJson(jsonText(t, v));
  if (pgType.endsWith('[]')) return JSON.stringify(v.map((x) => canonForPg(t.element, pgType.slice(0, -2), x)));
  if (t === 'boolean') return v ? 't' : 'f';
  if (t === 'int' || t === 'long') return v.toString();
  if (t === 'float') return fmtFloat(Math.fround(v));
  if (t === 'double') return fmtFloat(v);
  const m = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t);
  if (m) {
    const scale = Number(m[2]);
    const [ip, fp = ''] = v.dec.replace(/^-/, '').split('.');
    const neg = v.dec.startsWith('-');
    return `${neg ? '-' : ''}${ip}${scale ? `.${fp.padEnd(scale, '0')}` : ''}`;
  }
  if (t === 'string') return v;
  if (t === 'uuid') return v;
  if (t === 'binary' || /^fixed\[/.test(t)) return `\\x${v.toString('hex')}`;
  if (t === 'date') return String(v.days);
  if (t === 'time') return v.us.toString();
  if (['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'].includes(t)) return v.us.toString();
  throw new Error(`no canonical form for ${JSON.stringify(t)}`);
}

/** Whether a value's canonical form is approximate (a float64 decimal beyond 15 digits). */
export const isApprox = (v) => Boolean(v && typeof v === 'object' && v.approx);

// ------------------------------------------------------ canonical for Impala

/**
 * The canonical form (lib/iceberg_values.mjs) Impala's RESULTS would have for
 * a typed value of Iceberg type t, as Impala type impType; zone: the
 * session time zone timestamptz values are shown in.
 */
export function canonForImpala(impType, t, v, zone, wallOf) {
  const T = impType.toUpperCase().replace(/\(.*$/, '');
  const str = ['STRING', 'VARCHAR', 'CHAR', 'BINARY'].includes(T);
  if (v === null) return str ? 'NULL' : null;
  if (str) {
    if (typeof v === 'string') return pyUnicodeEscape(v).replace(/'/g, "''");
    if (Buffer.isBuffer(v)) return pyUnicodeEscape(v.toString('utf8')).replace(/'/g, "''");
    return pyUnicodeEscape(String(v)).replace(/'/g, "''");
  }
  switch (T) {
    case 'BOOLEAN': return v ? 'true' : 'false';
    case 'TINYINT': case 'SMALLINT': case 'INT': case 'BIGINT': return BigInt(v).toString();
    case 'DECIMAL': return v.dec;
    case 'FLOAT': return canonFloat32(v);
    case 'DOUBLE': return typeof v === 'object' && v.dec ? canonDouble(v.dec) : canonDouble(v);
    case 'DATE': return isoDate(v.days);
    case 'TIMESTAMP': {
      let us = v.us;
      if (t === 'timestamptz' || t === 'timestamptz_ns') us = wallOf(us, zone);
      const ns = v.ns !== undefined && !(t === 'timestamptz' || t === 'timestamptz_ns') ? v.ns : us * 1000n;
      return ns.toString();
    }
    default: return String(v);
  }
}

/** PostgreSQL input text of a typed value of Iceberg type t declared as pgType (for loading a heap copy). */
export function pgInputText(t, pgType, v) {
  if (v === null) return null;
  if (pgType === 'jsonb') return jsonText(t, v);
  if (pgType.endsWith('[]')) {
    const el = (x) => {
      const s = pgInputText(t.element, pgType.slice(0, -2), x);
      return s === null ? 'NULL' : `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    };
    return `{${v.map(el).join(',')}}`;
  }
  if (t === 'boolean') return v ? 't' : 'f';
  if (t === 'int' || t === 'long') return v.toString();
  if (t === 'float' || t === 'double') return fmtFloat(v);
  if (/^decimal/.test(t)) return v.dec;
  if (t === 'string' || t === 'uuid') return v;
  if (t === 'binary' || /^fixed\[/.test(t)) return `\\x${v.toString('hex')}`;
  if (t === 'date') return isoDate(v.days);
  if (t === 'time') return isoTimestamp(v.us).slice(11);
  if (t === 'timestamp' || t === 'timestamp_ns') return isoTimestamp(v.us);
  if (t === 'timestamptz' || t === 'timestamptz_ns') return `${isoTimestamp(v.us)}+00`;
  throw new Error(`no input text for ${JSON.stringify(t)}`);
}
