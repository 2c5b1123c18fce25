// Canonical forms for comparing a value read by PostgreSQL (as text) with the
// same value read by a reference reader (DuckDB value objects, CSV text).
//
// Both sides are turned into one canonical string per PostgreSQL type family,
// then compared as strings. The family is chosen from the column's PostgreSQL
// type (format_type() output), so the comparison is "what PostgreSQL should
// show for the value the reference reader saw".
//
// Decisions (documented in test/fixtures.md as well):
//   * integers / numeric: exact decimal strings; numeric(p,s) carries exactly
//     s fraction digits (PostgreSQL prints them, so the reference is padded).
//   * real: compared as float32 (Math.fround of both), double precision
//     exactly. NaN equals NaN. -0 and +0 are DIFFERENT: Parquet stores the
//     sign bit and PostgreSQL can represent -0, so a reader must keep it.
//   * timestamps: microseconds since 1970-01-01 (timestamptz read with
//     TimeZone=UTC). Nanosecond sources are converted with NS_TO_US below.
//   * date: days since 1970-01-01; time: microseconds since midnight.
//   * interval: months|days|microseconds, component-wise (no 30-day folding).
//   * bytea: lowercase hex; uuid: lowercase 8-4-4-4-12.
//   * arrays (one-dimensional): the list of the elements' canonical forms.
//   * json/jsonb: compared semantically (canonJsonTree below): numbers by
//     exact decimal value, object keys sorted, strings that are ISO 8601
//     dates, times, timestamps or durations by the instant/amount they
//     name (an instant, whatever offset it is written with: DuckDB does not
//     say which legacy timestamps are UTC-adjusted). DuckDB values of any type (lists, structs, maps, scalars) are
//     put in the same form by the JSON rules of docs/JSON.md: maps are
//     objects keyed by the keys' text, binary is base64, floats are the
//     shortest decimal of their width, NaN/Infinity are strings.

// How nanosecond timestamps/times become microseconds. The project documents
// "nanoseconds truncate to microseconds"; for instants before 1970 truncation
// toward zero and toward -infinity differ. 'floor' is the calendar meaning of
// truncation (date_trunc('microseconds', ts)): 1969-12-31 23:59:59.9999995
// becomes ...59.999999, never 1970-01-01 00:00:00. Keep in sync with the C code.
export const NS_TO_US = 'floor';

export function nsToUs(ns) {
  ns = BigInt(ns);
  let q = ns / 1000n; // BigInt division truncates toward zero
  if (NS_TO_US === 'floor' && ns < 0n && q * 1000n !== ns) q -= 1n;
  return q;
}

/** Map format_type() output to a comparison family. */
export function pgFamily(pgType) {
  const t = pgType.toLowerCase();
  if (t.endsWith('[]')) return { fam: 'array', elem: pgFamily(t.slice(0, -2)) };
  if (t === 'boolean') return { fam: 'bool' };
  if (t === 'smallint' || t === 'integer' || t === 'bigint') return { fam: 'int' };
  let m = /^numeric(?:\((\d+),(\d+)\))?$/.exec(t);
  if (m) return { fam: 'numeric', scale: m[2] === undefined ? null : Number(m[2]) };
  if (t === 'real') return { fam: 'float4' };
  if (t === 'double precision') return { fam: 'float8' };
  if (t === 'text' || /^character varying/.test(t) || /^character\b/.test(t) || t === 'name') return { fam: 'text' };
  if (t === 'bytea') return { fam: 'bytea' };
  if (t === 'uuid') return { fam: 'uuid' };
  if (t === 'json' || t === 'jsonb') return { fam: 'json' };
  if (t === 'date') return { fam: 'date' };
  if (/^time(\(\d+\))? without time zone$/.test(t)) return { fam: 'time' };
  if (/^timestamp(\(\d+\))? without time zone$/.test(t)) return { fam: 'timestamp' };
  if (/^timestamp(\(\d+\))? with time zone$/.test(t)) return { fam: 'timestamptz' };
  if (/^interval/.test(t)) return { fam: 'interval' };
  return { fam: 'other' };
}

// ---------------------------------------------------------------- helpers

const hex = (bytes) => Buffer.from(bytes).toString('hex');

function fmtFloat(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

/** Days from civil (proleptic Gregorian, astronomical year numbering). */
export function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Exact decimal string of an integer `v` (bigint) scaled by 10^-scale. */
export function scaledDecimal(v, scale) {
  v = BigInt(v);
  const neg = v < 0n;
  let s = (neg ? -v : v).toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  }
  return (neg ? '-' : '') + s;
}

/** Re-scale an exact decimal string to exactly `scale` fraction digits
 *  (only padding/removing zeros; a non-zero digit removed is an error). */
function rescaleDecimal(str, scale) {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(str);
  if (!m) throw new Error(`not a decimal: ${str}`);
  let [, sign, ip, fp = ''] = m;
  if (fp.length > scale) {
    if (/[^0]/.test(fp.slice(scale))) throw new Error(`decimal ${str} has more than ${scale} fraction digits`);
    fp = fp.slice(0, scale);
  }
  fp = fp.padEnd(scale, '0');
  ip = ip.replace(/^0+(?=\d)/, '');
  if (/^0*$/.test(ip + fp)) sign = '';
  return sign + ip + (scale > 0 ? '.' + fp : '');
}

// ------------------------------------------------------------ JSON forms

/** A JSON number kept as its text (JSON.parse would round big integers). */
class JsonNum {
  constructor(text) { this.text = text; }
}

/** JSON.parse with numbers kept exact (as JsonNum). */
export function parseJsonExact(text) {
  let p = 0;
  const ws = () => { while (p < text.length && ' \t\n\r'.includes(text[p])) p++; };
  const fail = (what) => { throw new Error(`bad JSON at ${p}: ${what}: ${text.slice(0, 80)}`); };
  const value = () => {
    ws();
    const c = text[p];
    if (c === '{') {
      p++;
      const o = new Map();
      ws();
      if (text[p] === '}') { p++; return o; }
      for (;;) {
        ws();
        if (text[p] !== '"') fail('object key');
        const k = str();
        ws();
        if (text[p++] !== ':') fail('colon');
        o.set(k, value()); // a later duplicate wins, as in jsonb
        ws();
        if (text[p] === ',') { p++; continue; }
        if (text[p++] !== '}') fail('object end');
        return o;
      }
    }
    if (c === '[') {
      p++;
      const a = [];
      ws();
      if (text[p] === ']') { p++; return a; }
      for (;;) {
        a.push(value());
        ws();
        if (text[p] === ',') { p++; continue; }
        if (text[p++] !== ']') fail('array end');
        return a;
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', p)) { p += 4; return true; }
    if (text.startsWith('false', p)) { p += 5; return false; }
    if (text.startsWith('null', p)) { p += 4; return null; }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(p));
    if (!m) fail('value');
    p += m[0].length;
    return new JsonNum(m[0]);
  };
  const str = () => {
    let end = p + 1;
    while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    const s = JSON.parse(text.slice(p, end + 1));
    p = end + 1;
    return s;
  };
  const v = value();
  ws();
  if (p !== text.length) fail('trailing text');
  return v;
}

/** Exact decimal text -> "<digits>e<exponent>" without redundant zeros. */
export function normNumber(text) {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a number: ${text}`);
  let digits = m[2] + (m[3] || '');
  let exp = BigInt(m[4] || 0) - BigInt((m[3] || '').length);
  digits = digits.replace(/^0+/, '');
  if (digits === '') return '0'; // jsonb has no negative zero
  const t = /0*$/.exec(digits)[0].length;
  digits = digits.slice(0, digits.length - t);
  exp += BigInt(t);
  return `${m[1]}${digits}e${exp}`;
}

const NS_PER_DAY = 86400000000000n;

function fracNanos(f) {
  return BigInt(((f || '') + '000000000').slice(0, 9));
}

/**
 * Canonical form of a JSON string: ISO 8601 dates, times, timestamps and
 * durations become what they name, anything else stays itself.
 */
export function normString(s) {
  // PostgreSQL's spelling of years before 1 AD: a " BC" suffix at the end
  const bc = / BC$/.test(s);
  const body = bc ? s.slice(0, -3) : s;
  const year = (y) => (bc ? 1 - Number(y) : Number(y));
  let m = /^(\d{4,})-(\d\d)-(\d\d)$/.exec(body);
  if (m) return `d:${daysFromCivil(year(m[1]), Number(m[2]), Number(m[3]))}`;
  m = /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?:\+00(?::?00)?)?$/.exec(s);
  if (m) return `t:${(BigInt(m[1]) * 3600n + BigInt(m[2]) * 60n + BigInt(m[3])) * 1000000000n + fracNanos(m[4])}`;
  m = /^(\d{4,})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d(?::?\d\d)?)?$/.exec(body);
  if (m) {
    let ns = BigInt(daysFromCivil(year(m[1]), Number(m[2]), Number(m[3]))) * NS_PER_DAY +
      (BigInt(m[4]) * 3600n + BigInt(m[5]) * 60n + BigInt(m[6])) * 1000000000n + fracNanos(m[7]);
    if (m[8] && m[8] !== 'Z') {
      const o = /^([+-])(\d\d):?(\d\d)?$/.exec(m[8]);
      const off = (BigInt(o[2]) * 3600n + BigInt(o[3] || 0) * 60n) * 1000000000n;
      ns += o[1] === '+' ? -off : off;
    }
    return `ts:${ns}`;
  }
  m = /^(-)?P(?=.)(?:(-?\d+)Y)?(?:(-?\d+)M)?(?:(-?\d+)W)?(?:(-?\d+)D)?(?:T(?=.)(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+)(?:\.(\d{1,9}))?S)?)?$/.exec(s);
  if (m) {
    const n = (x) => BigInt(x || 0);
    const sign = m[1] ? -1n : 1n;
    let secNs = n(m[8]) * 1000000000n;
    secNs += (m[8] && m[8].startsWith('-') ? -1n : 1n) * fracNanos(m[9]);
    const months = sign * (n(m[2]) * 12n + n(m[3]));
    const days = sign * (n(m[4]) * 7n + n(m[5]));
    const ns = sign * ((n(m[6]) * 3600n + n(m[7]) * 60n) * 1000000000n + secNs);
    return `i:${months}|${days}|${ns}`;
  }
  return `s:${s}`;
}

/** A map key's text as it would be compared (numbers, booleans, strings). */
export function normKey(k) {
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(k)) return `n:${normNumber(k)}`;
  if (k === 'true' || k === 'false') return `b:${k}`;
  return normString(k);
}

/** Canonical tree of parsed JSON (parseJsonExact output). */
function jsonTree(v) {
  if (v === null || typeof v === 'boolean') return v;
  if (v instanceof JsonNum) return `n:${normNumber(v.text)}`;
  if (typeof v === 'string') return normString(v);
  if (Array.isArray(v)) return v.map(jsonTree);
  const o = {};
  for (const [k, x] of v) o[normKey(k)] = jsonTree(x);
  return o;
}

/** JSON text of a canonical tree, object keys sorted. */
function treeText(v) {
  if (Array.isArray(v)) return `[${v.map(treeText).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${treeText(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export function canonJson(text) {
  return treeText(jsonTree(parseJsonExact(text)));
}

/** Shortest decimal text that reads back as the same float32. */
function shortestFloat32(x) {
  for (let p = 1; p <= 9; p++) {
    const t = x.toPrecision(p);
    if (Math.fround(Number(t)) === x) return t;
  }
  return x.toPrecision(9);
}

const b64 = (bytes) => Buffer.from(bytes).toString('base64');

function isoDays(days) {
  return `d:${days}`;
}

/**
 * Canonical tree of a DuckDB value of type t (a DuckDB type object) by the
 * JSON rules: what parquet_fdw's jsonb of the same Parquet value must be.
 */
export function duckJsonTree(v, t) {
  if (v === null || v === undefined) return null;
  const k = kind(v);
  const tn = t?.constructor?.name;
  switch (k) {
    case 'DuckDBListValue':
    case 'DuckDBArrayValue':
      return v.items.map((x) => duckJsonTree(x, t?.valueType));
    case 'DuckDBStructValue': {
      const o = {};
      for (const [name, x] of Object.entries(v.entries)) o[normKey(name)] = duckJsonTree(x, t?.typeForEntry?.(name));
      return o;
    }
    case 'DuckDBMapValue': {
      const o = {};
      for (const { key, value } of v.entries) {
        const kt = duckJsonTree(key, t?.keyType);
        // keys are text: a string key is compared like a JSON string key
        o[typeof key === 'string' ? normKey(key) : kt] = duckJsonTree(value, t?.valueType);
      }
      return o;
    }
    case 'DuckDBDecimalValue': return `n:${normNumber(scaledDecimal(v.value, v.scale))}`;
    case 'DuckDBBlobValue': return `s:${b64(v.bytes)}`;
    case 'DuckDBUUIDValue': return `s:${v.toString().toLowerCase()}`;
    case 'DuckDBDateValue': return isoDays(v.days);
    case 'DuckDBTimeValue': return `t:${BigInt(v.micros) * 1000n}`;
    case 'DuckDBTimeNSValue': return `t:${BigInt(v.nanos)}`;
    case 'DuckDBTimestampValue': return `ts:${BigInt(v.micros) * 1000n}`;
    case 'DuckDBTimestampTZValue': return `ts:${BigInt(v.micros) * 1000n}`;
    case 'DuckDBTimestampMillisecondsValue': return `ts:${BigInt(v.millis) * 1000000n}`;
    case 'DuckDBTimestampSecondsValue': return `ts:${BigInt(v.seconds) * 1000000000n}`;
    case 'DuckDBTimestampNanosecondsValue': return `ts:${BigInt(v.nanos)}`;
    case 'DuckDBIntervalValue': return `i:${v.months}|${v.days}|${BigInt(v.micros) * 1000n}`;
    case 'boolean': return v;
    case 'bigint': return `n:${normNumber(v.toString())}`;
    case 'number': {
      if (Number.isNaN(v)) return 's:NaN';
      if (v === Infinity) return 's:Infinity';
      if (v === -Infinity) return 's:-Infinity';
      const text = tn === 'DuckDBFloatType' ? shortestFloat32(v) : String(v);
      return `n:${normNumber(text.replace(/e\+/, 'e'))}`;
    }
    case 'string':
      if (t?.alias === 'JSON') return jsonTree(parseJsonExact(v));
      return normString(v);
    default:
      throw new Error(`no JSON form for DuckDB ${k}`);
  }
}

/** Elements of a one-dimensional PostgreSQL array's text (null for NULL). */
export function parsePgArray(text) {
  const m = /^(?:\[\d+:\d+\]=)?\{(.*)\}$/s.exec(text);
  if (!m) throw new Error(`not a one-dimensional array: ${text.slice(0, 80)}`);
  const body = m[1];
  const out = [];
  if (body === '') return out;
  let p = 0;
  for (;;) {
    if (body[p] === '"') {
      let s = '';
      p++;
      while (body[p] !== '"') {
        if (body[p] === '\\') p++;
        s += body[p++];
      }
      p++;
      out.push(s);
    } else {
      let end = p;
      while (end < body.length && body[end] !== ',') end++;
      const s = body.slice(p, end);
      if (s.startsWith('{')) throw new Error(`not a one-dimensional array: ${text.slice(0, 80)}`);
      out.push(s === 'NULL' ? null : s);
      p = end;
    }
    if (p >= body.length) return out;
    if (body[p++] !== ',') throw new Error(`bad array text: ${text.slice(0, 80)}`);
  }
}

function fmtUuid(bytes) {
  const h = hex(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---------------------------------------------------------- PostgreSQL side

// Text output of PostgreSQL under DateStyle=ISO, TimeZone=UTC,
// IntervalStyle=iso_8601, extra_float_digits=1, bytea_output=hex.

function pgDateToDays(s) {
  const m = /^(\d+)-(\d\d)-(\d\d)( BC)?$/.exec(s);
  if (!m) throw new Error(`unparsable date ${s}`);
  let y = Number(m[1]);
  if (m[4]) y = 1 - y; // 1 BC is astronomical year 0
  return daysFromCivil(y, Number(m[2]), Number(m[3]));
}

function pgTimeToMicros(s) {
  const m = /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/.exec(s);
  if (!m) throw new Error(`unparsable time ${s}`);
  return BigInt(m[1]) * 3600000000n + BigInt(m[2]) * 60000000n + BigInt(m[3]) * 1000000n +
    BigInt((m[4] || '').padEnd(6, '0'));
}

function pgTimestampToMicros(s, tz) {
  if (s === 'infinity' || s === '-infinity') return s;
  const re = tz
    ? /^(\d+-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d{1,6})?)\+00( BC)?$/
    : /^(\d+-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d{1,6})?)( BC)?$/;
  const m = re.exec(s);
  if (!m) throw new Error(`unparsable ${tz ? 'timestamptz (is TimeZone UTC?)' : 'timestamp'} ${s}`);
  const days = pgDateToDays(m[1] + (m[3] || ''));
  return (BigInt(days) * 86400000000n + pgTimeToMicros(m[2])).toString();
}

function pgIntervalToCanon(s) {
  // IntervalStyle iso_8601: P[nY][nM][nD][T[nH][nM][n[.f]S]], each part signed.
  const m = /^P(?:(-?\d+)Y)?(?:(-?\d+)M)?(?:(-?\d+)D)?(?:T(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?)(\d+)(?:\.(\d+))?S)?)?$/.exec(s);
  if (!m) throw new Error(`unparsable interval ${s} (is IntervalStyle iso_8601?)`);
  const n = (x) => BigInt(x || 0);
  const months = n(m[1]) * 12n + n(m[2]);
  const days = n(m[3]);
  let secMicros = n(m[7]) * 1000000n + BigInt((m[8] || '').padEnd(6, '0').slice(0, 6) || 0);
  if (m[6] === '-') secMicros = -secMicros;
  const micros = n(m[4]) * 3600000000n + n(m[5]) * 60000000n + secMicros;
  return `${months}|${days}|${micros}`;
}

/** Canonical string of a PostgreSQL text value (null stays null). */
export function canonPg(f, text) {
  if (text === null || text === undefined) return null;
  switch (f.fam) {
    case 'bool': return text;
    case 'int': return BigInt(text).toString();
    case 'numeric': return f.scale === null ? text : rescaleDecimal(text, f.scale);
    case 'float4': return fmtFloat(Math.fround(Number(text)));
    case 'float8': return fmtFloat(Number(text));
    case 'text': return text;
    case 'bytea': return text.toLowerCase();
    case 'uuid': return text.toLowerCase();
    case 'json': return canonJson(text);
    case 'array': return JSON.stringify(parsePgArray(text).map((e) => canonPg(f.elem, e)));
    case 'date': return text.endsWith('infinity') ? text : String(pgDateToDays(text));
    case 'time': return pgTimeToMicros(text).toString();
    case 'timestamp': return pgTimestampToMicros(text, false);
    case 'timestamptz': return pgTimestampToMicros(text, true);
    case 'interval': return pgIntervalToCanon(text);
    default: return text;
  }
}

// ------------------------------------------------------------- DuckDB side

// PostgreSQL's representable ranges (for "this value must be an ERROR").
const PG_MIN_DATE_DAYS = -2440588;           // 4714-11-24 BC (Julian day 0)
const PG_END_DATE_DAYS = 2147483494 - 2440588; // exclusive
const PG_MIN_TS_US = -210866803200000000n;   // 4714-11-24 00:00:00 BC
const PG_END_TS_US = 9224318016000000000n;   // 294277-01-01 (exclusive)

export class Unrepresentable extends Error {}

function utf8(bytes) {
  try {
    const s = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (s.includes('\u0000')) throw new Unrepresentable('text contains NUL');
    return s;
  } catch (e) {
    if (e instanceof Unrepresentable) throw e;
    throw new Unrepresentable('invalid UTF-8 in text value');
  }
}

function checkTs(us) {
  if (us < PG_MIN_TS_US || us >= PG_END_TS_US) throw new Unrepresentable(`timestamp ${us} us out of PostgreSQL range`);
  return us.toString();
}

/** Which DuckDB value class is this? (constructor name, robust across versions) */
const kind = (v) => (v && typeof v === 'object' ? v.constructor?.name : typeof v);

function duckBytes(v) {
  if (v instanceof Uint8Array) return v;
  if (v && v.bytes instanceof Uint8Array) return v.bytes; // Blob, Geometry
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  if (kind(v) === 'DuckDBUUIDValue') return Buffer.from(v.toString().replace(/-/g, ''), 'hex');
  throw new Error(`cannot take bytes of ${kind(v)}`);
}

function duckMicros(v) {
  switch (kind(v)) {
    case 'DuckDBTimestampValue':
    case 'DuckDBTimestampTZValue': return BigInt(v.micros);
    case 'DuckDBTimestampMillisecondsValue': return BigInt(v.millis) * 1000n;
    case 'DuckDBTimestampSecondsValue': return BigInt(v.seconds) * 1000000n;
    case 'DuckDBTimestampNanosecondsValue': return nsToUs(v.nanos);
    default: throw new Error(`not a timestamp: ${kind(v)}`);
  }
}

/**
 * Canonical string of a DuckDB value for PostgreSQL family `f`.
 * Throws Unrepresentable when PostgreSQL cannot hold the value (then the
 * reader must raise an ERROR instead of returning rows).
 */
export function canonDuck(f, v, t) {
  if (v === null || v === undefined) return null;
  const k = kind(v);
  switch (f.fam) {
    case 'array':
      if (k !== 'DuckDBListValue' && k !== 'DuckDBArrayValue') throw new Error(`not a list: ${k}`);
      return JSON.stringify(v.items.map((x) => canonDuck(f.elem, x, t?.valueType)));
    case 'bool': return v ? 't' : 'f';
    case 'int':
      if (k === 'DuckDBDecimalValue') return rescaleDecimal(scaledDecimal(v.value, v.scale), 0);
      return BigInt(v).toString();
    case 'numeric': {
      const s = k === 'DuckDBDecimalValue' ? scaledDecimal(v.value, v.scale) : BigInt(v).toString();
      return f.scale === null ? s : rescaleDecimal(s, f.scale);
    }
    case 'float4': return fmtFloat(Math.fround(Number(v)));
    case 'float8': return fmtFloat(Number(v));
    case 'text':
      if (typeof v === 'string') {
        if (v.includes('\u0000')) throw new Unrepresentable('text contains NUL');
        return v;
      }
      if (k === 'DuckDBUUIDValue') return v.toString();
      return utf8(duckBytes(v));
    case 'bytea': return '\\x' + hex(duckBytes(v));
    case 'uuid': return k === 'DuckDBUUIDValue' ? v.toString().toLowerCase() : fmtUuid(duckBytes(v));
    case 'json':
      // JSON text (a JSON column), or any other value by the JSON rules
      if (typeof v === 'string' && (t === undefined || t?.alias === 'JSON')) return canonJson(v);
      if (k === 'DuckDBBlobValue' && t === undefined) return canonJson(utf8(duckBytes(v)));
      return treeText(duckJsonTree(v, t));
    case 'date': {
      if (k !== 'DuckDBDateValue') throw new Error(`not a date: ${k}`);
      if (v.days < PG_MIN_DATE_DAYS || v.days >= PG_END_DATE_DAYS) throw new Unrepresentable(`date ${v.days} days out of PostgreSQL range`);
      return String(v.days);
    }
    case 'time':
      if (k === 'DuckDBTimeValue' || k === 'DuckDBTimeTZValue') return BigInt(v.micros).toString();
      if (k === 'DuckDBTimeNSValue') return nsToUs(v.nanos).toString();
      throw new Error(`not a time: ${k}`);
    case 'timestamp':
    case 'timestamptz': return checkTs(duckMicros(v));
    case 'interval': {
      if (k !== 'DuckDBIntervalValue') throw new Error(`not an interval: ${k}`);
      return `${v.months}|${v.days}|${BigInt(v.micros)}`;
    }
    default: return String(v);
  }
}

/** Canonical string of a CSV field (expect files): compared as PG text. */
export function canonCsv(f, text) {
  return text === null ? null : canonPg(f, text);
}
