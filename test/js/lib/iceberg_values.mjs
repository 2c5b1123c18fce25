// Canonical forms for comparing Impala's expected RESULTS values (as its
// test files print them) with the values PostgreSQL returns (as text), per
// the Impala type of the column (the query's TYPES section):
//
//   BOOLEAN                     true / false (PostgreSQL's t / f)
//   TINYINT SMALLINT INT BIGINT the integer, exact
//   DECIMAL                     the decimal value, exact (trailing fraction
//                               zeros dropped: Impala prints the scale's
//                               digits, PostgreSQL's numeric may print more)
//   FLOAT                       the float32 value: both sides rounded to
//                               float32 and printed shortest
//   DOUBLE                      15 significant digits (Impala prints up to
//                               17 and its own verifier accepts a relative
//                               difference of 1e-9)
//   STRING VARCHAR CHAR BINARY  the text as Impala's verifier prints it:
//                               Python's unicode_escape of the value with '
//                               doubled; SQL NULL is the string NULL (Impala
//                               prints both as 'NULL'); a json/jsonb value
//                               from PostgreSQL (a VARIANT or nested column)
//                               and its expected text compared as JSON
//                               (lib/canon.mjs canonJson)
//   TIMESTAMP                   the wall-clock time in nanoseconds (Impala
//                               prints 2020-01-01 10:00:00[.123456789]);
//                               a timestamptz from PostgreSQL by its wall
//                               clock in the session zone
//   DATE                        YYYY-MM-DD
//   NULL (unquoted)             SQL NULL for every type but the string ones
//   '"<unsupported-type>"'      any value (ANY_VALUE): what Impala prints for a
//                               VARIANT value of a type it cannot show

import { canonJson, daysFromCivil } from './canon.mjs';

/**
 * An expected value that matches any value: Impala prints a VARIANT value of
 * a type it cannot show as the JSON string "<unsupported-type>".
 */
export const ANY_VALUE = '\u0000any';

export const INT_TYPES = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT']);
export const STRING_TYPES = new Set(['STRING', 'VARCHAR', 'CHAR', 'BINARY']);

/** Python's str.encode('unicode_escape').decode() (what Impala's verifier applies to result strings). */
export function pyUnicodeEscape(s) {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '\\') out += '\\\\';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || (c >= 0x7f && c < 0x100)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0x100 && c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (c >= 0x10000) out += `\\U${c.toString(16).padStart(8, '0')}`;
    else out += ch;
  }
  return out;
}

/** The inverse of pyUnicodeEscape (for reading an expected JSON string). */
export function pyUnicodeUnescape(s) {
  return s.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\\tnr'])/g, (m, e) => {
    if (e === '\\') return '\\';
    if (e === 't') return '\t';
    if (e === 'n') return '\n';
    if (e === 'r') return '\r';
    if (e === "'") return "'";
    return String.fromCodePoint(parseInt(e.slice(1), 16));
  });
}

/** Exact decimal text without redundant zeros ('-0' is '0'). */
export function normDecimal(text) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(String(text).trim());
  if (!m) return String(text);
  let ip = (m[2] || '0').replace(/^0+(?=\d)/, '');
  let fp = (m[3] || '').replace(/0+$/, '');
  const neg = m[1] === '-' && !/^0*$/.test(ip + fp);
  if (ip === '') ip = '0';
  return `${neg ? '-' : ''}${ip}${fp ? `.${fp}` : ''}`;
}

function fmtFloat(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

const parseNum = (t) => {
  const s = String(t).trim();
  if (/^-?inf(inity)?$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return Number(s);
};

export const canonFloat32 = (x) => fmtFloat(Math.fround(parseNum(x)));

export function canonDouble(x) {
  const v = parseNum(x);
  if (!Number.isFinite(v)) return fmtFloat(v);
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  return String(Number(v.toPrecision(15)));
}

/** 'YYYY-MM-DD HH:MM:SS[.f]' (optionally with a zone offset, ignored: its wall clock) -> nanoseconds as a string. */
export function wallNanos(text) {
  const m = /^(\d{4,})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?)?(?:[+-]\d\d(?::?\d\d)?|Z)?( BC)?$/.exec(String(text).trim());
  if (!m) return null;
  const y = m[8] ? 1 - Number(m[1]) : Number(m[1]);
  const days = BigInt(daysFromCivil(y, Number(m[2]), Number(m[3])));
  const secs = BigInt(Number(m[4] || 0) * 3600 + Number(m[5] || 0) * 60 + Number(m[6] || 0));
  return (days * 86400n * 1000000000n + secs * 1000000000n + BigInt((m[7] || '').padEnd(9, '0'))).toString();
}

/** A canonical value of Impala type `type` from one value of a RESULTS row. */
export function canonExpected(type, token) {
  const t = type.toUpperCase().replace(/\(.*$/, '');
  const quoted = /^'.*'$/s.test(token);
  const inner = quoted ? token.slice(1, -1) : token;
  if (STRING_TYPES.has(t)) {
    if (!quoted && token === 'NULL') return 'NULL';
    if (inner === '"<unsupported-type>"') return ANY_VALUE;
    return inner;
  }
  if (!quoted && token === 'NULL') return null;
  switch (t) {
    case 'BOOLEAN': return inner.toLowerCase();
    case 'TINYINT': case 'SMALLINT': case 'INT': case 'BIGINT':
      return /^-?\d+$/.test(inner) ? BigInt(inner).toString() : inner;
    case 'DECIMAL': return normDecimal(inner);
    case 'FLOAT': return canonFloat32(inner);
    case 'DOUBLE': return canonDouble(inner);
    case 'TIMESTAMP': return wallNanos(inner) ?? inner;
    case 'DATE': return inner;
    default: return inner;
  }
}

/**
 * A canonical value of Impala type `type` from PostgreSQL's text (null for
 * NULL). json: the PostgreSQL column is json/jsonb.
 */
export function canonPgAs(type, text, json = false) {
  const t = type.toUpperCase().replace(/\(.*$/, '');
  if (STRING_TYPES.has(t)) {
    if (text === null || text === undefined) return 'NULL';
    if (json) {
      try {
        return `json:${canonJson(text)}`;
      } catch {
        return pyUnicodeEscape(text).replace(/'/g, "''");
      }
    }
    if (t === 'BINARY' && /^\\x[0-9a-f]*$/i.test(text)) text = Buffer.from(text.slice(2), 'hex').toString('utf8');
    return pyUnicodeEscape(text).replace(/'/g, "''");
  }
  if (text === null || text === undefined) return null;
  switch (t) {
    case 'BOOLEAN': return text === 't' || text === 'true' ? 'true' : text === 'f' || text === 'false' ? 'false' : text;
    case 'TINYINT': case 'SMALLINT': case 'INT': case 'BIGINT':
      return /^-?\d+$/.test(text) ? BigInt(text).toString() : text;
    case 'DECIMAL': return normDecimal(text);
    case 'FLOAT': return canonFloat32(text);
    case 'DOUBLE': return canonDouble(text);
    case 'TIMESTAMP': return wallNanos(text) ?? text;
    case 'DATE': return text;
    default: return text;
  }
}

/** An expected STRING value compared with a json/jsonb column: as JSON when it parses. */
export function expectedAsJson(canon) {
  if (canon === 'NULL' || canon === ANY_VALUE) return canon;
  try {
    return `json:${canonJson(pyUnicodeUnescape(canon.replace(/''/g, "'")))}`;
  } catch {
    return canon;
  }
}
