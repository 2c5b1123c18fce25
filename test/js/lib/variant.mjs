// An independent Variant decoder (Parquet VariantEncoding.md and
// VariantShredding.md), written from the specs, and a JSON renderer that
// follows docs/JSON.md. It is the reference the C decoder
// (src/format/variant/variant.c, format/variant/shredded.c) is compared with byte for byte,
// so it shares no code with it: values are decoded into a typed tree first
// (decodeVariant), and only then rendered (toJson). Floats are printed with
// an exact BigInt search for the shortest decimal, not with PostgreSQL's Ryu.
//
// Errors are VariantError with a SQLSTATE: 'XX001' for data the spec does
// not allow, '0A000' for primitive type ids this decoder does not know.

export class VariantError extends Error {
  constructor(sqlstate, message) {
    super(message);
    this.sqlstate = sqlstate;
  }
}
const corrupt = (msg) => { throw new VariantError('XX001', msg); };

export const MAX_DEPTH = 1000;

// ------------------------------------------------------------ reading

function uintLE(bytes, pos, width) {
  let v = 0;
  for (let i = width - 1; i >= 0; i--) v = v * 256 + bytes[pos + i];
  return v;
}

function bigIntLE(bytes, pos, width, signed) {
  let v = 0n;
  for (let i = width - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[pos + i]);
  if (signed && width > 0 && (bytes[pos + width - 1] & 0x80)) v -= 1n << BigInt(8 * width);
  return v;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
function text(bytes, what) {
  try {
    return utf8.decode(bytes);
  } catch {
    return corrupt(`${what} is not valid UTF-8`);
  }
}

/** Metadata: { dict: Uint8Array[] } (strings kept as bytes for byte-order sorting). */
export function decodeMetadata(bytes) {
  if (bytes.length < 1) corrupt('metadata is empty');
  const header = bytes[0];
  const version = header & 0x0f;
  if (version > 1) throw new VariantError('0A000', `metadata version ${version}`);
  if (version !== 1) corrupt(`metadata version ${version}`);
  const osz = (header >> 6) + 1;
  if (bytes.length < 1 + osz) corrupt('metadata header truncated');
  const n = uintLE(bytes, 1, osz);
  const stringsStart = 1 + osz + (n + 1) * osz;
  if (stringsStart > bytes.length) corrupt('metadata offsets truncated');
  const offs = [];
  for (let i = 0; i <= n; i++) offs.push(uintLE(bytes, 1 + osz + i * osz, osz));
  const strings = bytes.subarray(stringsStart);
  if (offs[n] !== strings.length) corrupt('metadata: last offset is not the length of the string bytes');
  return { n, offs, strings, sorted: !!(header & 0x10) };
}

function metadataKey(meta, id) {
  if (id >= meta.n) corrupt(`field id ${id} not in dictionary of ${meta.n}`);
  const a = meta.offs[id];
  const b = meta.offs[id + 1];
  if (a > b || b > meta.strings.length) corrupt(`dictionary string ${id} out of range`);
  return meta.strings.subarray(a, b);
}

/** Length of an encoded metadata (a .variant.bin file is metadata followed by value). */
export function metadataLength(bytes) {
  const osz = (bytes[0] >> 6) + 1;
  const n = uintLE(bytes, 1, osz);
  return 1 + osz + (n + 1) * osz + uintLE(bytes, 1 + osz + n * osz, osz);
}

export function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

// Typed tree nodes: { t: type, ... }
//   null | bool {v} | int {v: bigint} | decimal {v: bigint, scale}
//   double {bits: 8 LE bytes} | float {bits: 4 LE bytes}
//   date {days} | timestamp {v: bigint, digits, utc} | time {v: bigint, digits}
//   binary {bytes} | string {bytes} | uuid {bytes}
//   object {fields: [[keyBytes, node], ...] sorted} | array {items}

/**
 * Decode the value starting at pos, which may use bytes up to end.
 * Returns [node, size].
 */
function decodeAt(meta, bytes, pos, end, depth) {
  if (depth > MAX_DEPTH) corrupt('nesting too deep');
  if (pos >= end) corrupt('value is empty');
  const first = bytes[pos];
  const basic = first & 3;
  const header = first >> 2;
  const need = (k) => { if (pos + k > end) corrupt(`value needs ${k} bytes, has ${end - pos}`); };

  if (basic === 1) {
    need(1 + header);
    return [{ t: 'string', bytes: checkUtf8(bytes.subarray(pos + 1, pos + 1 + header)) }, 1 + header];
  }
  if (basic === 2 || basic === 3) {
    const isObject = basic === 2;
    const offSize = (header & 3) + 1;
    const idSize = isObject ? ((header >> 2) & 3) + 1 : 0;
    const large = isObject ? (header >> 4) & 1 : (header >> 2) & 1;
    const countSize = large ? 4 : 1;
    need(1 + countSize);
    const n = uintLE(bytes, pos + 1, countSize);
    const idsAt = pos + 1 + countSize;
    const offsAt = idsAt + n * idSize;
    const dataAt = offsAt + (n + 1) * offSize;
    need(dataAt - pos);
    const dataLen = uintLE(bytes, offsAt + n * offSize, offSize);
    need(dataAt - pos + dataLen);
    const dataEnd = dataAt + dataLen;
    const children = [];
    // Keys in any order (DuckDB writes them unsorted), but unique.
    const seen = new Set();
    // Each value is contiguous (spec: "each nested Variant value is
    // contiguous and self-contained"): values that share bytes would make
    // their sizes add up to more than the data (issue 38).
    let used = 0;
    for (let i = 0; i < n; i++) {
      let key = null;
      if (isObject) key = metadataKey(meta, uintLE(bytes, idsAt + i * idSize, idSize));
      const off = uintLE(bytes, offsAt + i * offSize, offSize);
      if (off >= dataLen) corrupt(`element ${i} offset ${off} outside ${dataLen} data bytes`);
      if (isObject) {
        const k = Buffer.from(key).toString('hex');
        if (seen.has(k)) corrupt('object has a key twice');
        seen.add(k);
        checkUtf8(key);
      }
      const [child, size] = decodeAt(meta, bytes, dataAt + off, dataEnd, depth + 1);
      used += size;
      if (used > dataLen) corrupt(`values take ${used} of ${dataLen} data bytes: they overlap`);
      children.push(isObject ? [key, child] : child);
    }
    const node = isObject ? { t: 'object', fields: children } : { t: 'array', items: children };
    return [node, dataEnd - pos];
  }

  // primitive
  const d = pos + 1;
  const fixed = (k, node) => { need(1 + k); return [node(), 1 + k]; };
  const scale = () => {
    if (bytes[d] > 38) corrupt(`decimal scale ${bytes[d]}`);
    return bytes[d];
  };
  switch (header) {
    case 0: return [{ t: 'null' }, 1];
    case 1: return [{ t: 'bool', v: true }, 1];
    case 2: return [{ t: 'bool', v: false }, 1];
    case 3: return fixed(1, () => ({ t: 'int', v: bigIntLE(bytes, d, 1, true) }));
    case 4: return fixed(2, () => ({ t: 'int', v: bigIntLE(bytes, d, 2, true) }));
    case 5: return fixed(4, () => ({ t: 'int', v: bigIntLE(bytes, d, 4, true) }));
    case 6: return fixed(8, () => ({ t: 'int', v: bigIntLE(bytes, d, 8, true) }));
    case 7: return fixed(8, () => ({ t: 'double', bits: bytes.slice(d, d + 8) }));
    case 8: return fixed(5, () => ({ t: 'decimal', scale: scale(), v: bigIntLE(bytes, d + 1, 4, true) }));
    case 9: return fixed(9, () => ({ t: 'decimal', scale: scale(), v: bigIntLE(bytes, d + 1, 8, true) }));
    case 10: return fixed(17, () => ({ t: 'decimal', scale: scale(), v: bigIntLE(bytes, d + 1, 16, true) }));
    case 11: return fixed(4, () => ({ t: 'date', days: Number(bigIntLE(bytes, d, 4, true)) }));
    case 12: return fixed(8, () => ({ t: 'timestamp', v: bigIntLE(bytes, d, 8, true), digits: 6, utc: true }));
    case 13: return fixed(8, () => ({ t: 'timestamp', v: bigIntLE(bytes, d, 8, true), digits: 6, utc: false }));
    case 14: return fixed(4, () => ({ t: 'float', bits: bytes.slice(d, d + 4) }));
    case 15:
    case 16: {
      need(5);
      const len = uintLE(bytes, d, 4);
      need(5 + len);
      const b = bytes.subarray(d + 4, d + 4 + len);
      return [header === 15 ? { t: 'binary', bytes: b } : { t: 'string', bytes: checkUtf8(b) }, 5 + len];
    }
    case 17: return fixed(8, () => {
      const v = bigIntLE(bytes, d, 8, true);
      if (v < 0n || v > 86400000000n) corrupt('time of day out of range');
      return { t: 'time', v, digits: 6 };
    });
    case 18: return fixed(8, () => ({ t: 'timestamp', v: bigIntLE(bytes, d, 8, true), digits: 9, utc: true }));
    case 19: return fixed(8, () => ({ t: 'timestamp', v: bigIntLE(bytes, d, 8, true), digits: 9, utc: false }));
    case 20: return fixed(16, () => ({ t: 'uuid', bytes: bytes.slice(d, d + 16) }));
    default: throw new VariantError('0A000', `primitive type ${header}`);
  }
}

function checkUtf8(b) {
  text(b, 'string');
  return b;
}

/** Decode one encoded value exactly filling `value`, with parsed metadata. */
export function decodeValue(meta, value, depth = 0) {
  const [node, size] = decodeAt(meta, value, 0, value.length, depth);
  if (size !== value.length) corrupt(`value of ${size} bytes followed by ${value.length - size} more`);
  return node;
}

export function decodeVariant(metadata, value) {
  return decodeValue(decodeMetadata(metadata), value);
}

// ------------------------------------------------------------ rendering

function base64(bytes) {
  return Buffer.from(bytes).toString('base64');
}

export function jsonString(bytes) {
  let out = '"';
  for (const ch of text(bytes, 'string')) {
    const c = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

export function decimalText(v, scale) {
  const neg = v < 0n;
  let s = (neg ? -v : v).toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  }
  return (neg ? '-' : '') + s;
}

// Proleptic Gregorian calendar from a day count (0 = 1970-01-01), written
// independently of the C code: walk 400-year cycles, then years, then months.
const DAYS_400 = 146097n;
function isLeap(y) { return (y % 4n === 0n && y % 100n !== 0n) || y % 400n === 0n; }
function civil(days) {
  // days since 2000-03-01 makes leap days the last day of a "year"
  let d = BigInt(days) - 11017n; // 2000-03-01 is day 11017
  let cycles = d / DAYS_400;
  if (d % DAYS_400 < 0n) cycles -= 1n;
  d -= cycles * DAYS_400; // 0 .. 146096
  let year = 2000n + 400n * cycles;
  // years starting in March: year Y runs from Y-03-01 to (Y+1)-02-28/29
  for (;;) {
    const len = isLeap(year + 1n) ? 366n : 365n;
    if (d < len) break;
    d -= len;
    year += 1n;
  }
  const monthLens = [31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 31, 29];
  let m = 0;
  let dd = Number(d);
  while (dd >= monthLens[m]) { dd -= monthLens[m]; m++; }
  let month = m + 3;
  if (month > 12) { month -= 12; year += 1n; }
  return { year, month, day: dd + 1 };
}

function dateText(days) {
  const { year, month, day } = civil(days);
  const bc = year <= 0n;
  const y = (bc ? 1n - year : year).toString().padStart(4, '0');
  return { s: `${y}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, bc };
}

function fraction(frac, digits) {
  if (frac === 0n) return '';
  return ('.' + frac.toString().padStart(digits, '0')).replace(/0+$/, '');
}

function clock(secOfDay, frac, digits) {
  const h = secOfDay / 3600n;
  const m = (secOfDay / 60n) % 60n;
  const s = secOfDay % 60n;
  const two = (x) => x.toString().padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}${fraction(frac, digits)}`;
}

function floorDiv(a, b) {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

export function timestampText(v, digits, utc) {
  const unit = 10n ** BigInt(digits);
  const secs = floorDiv(v, unit);
  const frac = v - secs * unit;
  const days = floorDiv(secs, 86400n);
  const { s, bc } = dateText(days);
  return `"${s}T${clock(secs - days * 86400n, frac, digits)}${utc ? '+00:00' : ''}${bc ? ' BC' : ''}"`;
}

export function timeText(v, digits, utc = false) {
  const unit = 10n ** BigInt(digits);
  if (v < 0n || v > 86400n * unit) corrupt('time of day out of range');
  return `"${clock(v / unit, v % unit, digits)}${utc ? '+00:00' : ''}"`;
}

export function dateJson(days) {
  const { s, bc } = dateText(days);
  return `"${s}${bc ? ' BC' : ''}"`;
}

export function uuidText(bytes) {
  const h = Buffer.from(bytes).toString('hex');
  return `"${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}"`;
}

// ---- floats: PostgreSQL's float8out/float4out text, computed exactly.
//
// The shortest decimal strictly inside the interval of reals that round to
// the float (the interval's ends excluded, as PostgreSQL's Ryu does), the
// one closest to the float when several are equally short (ties to an even
// last digit); fixed notation for decimal exponents -4 .. 14 (float: 5),
// else d.ddde+XX.

const FORMATS = {
  double: { bytes: 8, mant: 52, exp: 11, bias: 1023, fixedMax: 15 },
  float: { bytes: 4, mant: 23, exp: 8, bias: 127, fixedMax: 6 },
};

export function floatText(bitsLE, kind) {
  const f = FORMATS[kind];
  const bits = bigIntLE(bitsLE, 0, f.bytes, false);
  const neg = (bits >> BigInt(f.mant + f.exp)) & 1n;
  const bexp = Number((bits >> BigInt(f.mant)) & ((1n << BigInt(f.exp)) - 1n));
  const frac = bits & ((1n << BigInt(f.mant)) - 1n);
  const sign = neg ? '-' : '';
  if (bexp === (1 << f.exp) - 1) return frac ? '"NaN"' : `"${sign}Infinity"`;
  if (bexp === 0 && frac === 0n) return sign + '0';

  // value = m * 2^e exactly
  let m, e;
  if (bexp === 0) { m = frac; e = 1 - f.bias - f.mant; } else { m = frac | (1n << BigInt(f.mant)); e = bexp - f.bias - f.mant; }
  // interval ends in units of 2^(e-2): x = 4m, hi = 4m+2, lo = 4m-2 (or 4m-1
  // when m is a power of two above the smallest normal: the float below is
  // closer)
  const lowerCloser = frac === 0n && bexp > 1;
  const X = 4n * m;
  const HI = X + 2n;
  const LO = X - (lowerCloser ? 1n : 2n);
  const b = e - 2; // all three are V * 2^b

  // Rationals as [num, den]: V * 2^b / 10^t
  const scaled = (V, t) => {
    let num = V;
    let den = 1n;
    if (b >= 0) num <<= BigInt(b); else den <<= BigInt(-b);
    if (t >= 0) den *= 10n ** BigInt(t); else num *= 10n ** BigInt(-t);
    return [num, den];
  };
  // start at a grid coarser than the value, refine until a multiple fits
  let t = Math.floor((X.toString(2).length + b) * Math.LOG10E * Math.LN2) + 2;
  for (;; t--) {
    const [ln, ld] = scaled(LO, t);
    const [hn, hd] = scaled(HI, t);
    const sMin = ln / ld + 1n;                       // smallest s with s > lo
    const sMax = hn % hd === 0n ? hn / hd - 1n : hn / hd; // largest s with s < hi
    if (sMin > sMax) continue;
    const [xn, xd] = scaled(X, t);
    let s = xn / xd;
    const rem2 = 2n * (xn - s * xd);
    if (rem2 > xd || (rem2 === xd && s % 2n === 1n)) s += 1n;
    if (s < sMin) s = sMin;
    if (s > sMax) s = sMax;
    if (s === 0n) continue;
    let digits = s.toString();
    let exp10 = t;
    while (digits.length > 1 && digits.endsWith('0')) { digits = digits.slice(0, -1); exp10++; }
    const X10 = exp10 + digits.length - 1; // exponent of the leading digit
    let out;
    if (X10 >= -4 && X10 < f.fixedMax) {
      if (X10 < 0) out = '0.' + '0'.repeat(-X10 - 1) + digits;
      else if (digits.length <= X10 + 1) out = digits + '0'.repeat(X10 + 1 - digits.length);
      else out = digits.slice(0, X10 + 1) + '.' + digits.slice(X10 + 1);
    } else {
      out = digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') +
        'e' + (X10 < 0 ? '-' : '+') + String(Math.abs(X10)).padStart(2, '0');
    }
    return sign + out;
  }
}

/** JSON text of a typed tree (docs/JSON.md). */
export function toJson(node) {
  switch (node.t) {
    case 'null': return 'null';
    case 'bool': return node.v ? 'true' : 'false';
    case 'int': return node.v.toString();
    case 'decimal': return decimalText(node.v, node.scale);
    case 'double': return floatText(node.bits, 'double');
    case 'float': return floatText(node.bits, 'float');
    case 'date': return dateJson(node.days);
    case 'timestamp': return timestampText(node.v, node.digits, node.utc);
    case 'time': return timeText(node.v, node.digits, !!node.utc);
    case 'binary': return `"${base64(node.bytes)}"`;
    case 'string': return jsonString(node.bytes);
    case 'uuid': return uuidText(node.bytes);
    case 'json': return node.text;
    case 'interval': return node.text;
    case 'array': return '[' + node.items.map(toJson).join(',') + ']';
    case 'object': return '{' + node.fields.map(([k, v]) => jsonString(k) + ':' + toJson(v)).join(',') + '}';
    default: throw new Error(`unknown node type ${node.t}`);
  }
}

export { base64 };
