// A small evaluator of Impala read queries over the rows icebird returns,
// for check_iceberg.mjs --reference-only (icebird cross-checked against
// Impala's expected results without PostgreSQL). It covers what the corpus's
// simple queries use, with Impala's semantics:
//
//   SELECT [DISTINCT] items FROM <one table> [alias] [WHERE e] [GROUP BY
//   names] [ORDER BY items] [LIMIT n]
//   items: *, columns, literals, + - * / %, count(*), count([DISTINCT] e),
//   min / max / sum / avg(e)
//   e: comparisons (= != <> < > <= >=), [NOT] LIKE, [NOT] IN (list),
//   BETWEEN, IS [NOT] NULL, AND / OR / NOT, parentheses
//
// Values: integers as BigInt, float/double as numbers, decimals by their
// text (compared as numbers), strings, dates (days), timestamps (wall clock
// microseconds: a timestamptz in the session zone, as Impala shows it); a
// string literal compared with a date or timestamp is read as one. Anything
// else throws NotEvaluated (counted, never a failure).

import { isWord, nameOf } from './iceberg_impala.mjs';
import { canonDouble, canonFloat32, normDecimal, pyUnicodeEscape, STRING_TYPES } from './iceberg_values.mjs';
import { isoDate, jsonCanon } from './iceberg_icebird.mjs';
import { daysFromCivil } from './canon.mjs';

export class NotEvaluated extends Error {}
const no = (why) => {
  throw new NotEvaluated(why);
};

const NULL = { t: 'null', v: null };
const num = (x) => (x.t === 'int' ? Number(x.v) : x.t === 'dec' ? Number(x.v) : x.t === 'float' ? x.v : no(`number of ${x.t}`));

let zoneWall = (us) => us;

/** A value of the evaluator from a typed icebird value of Iceberg type t. */
function fromTyped(t, v, wallOf = zoneWall) {
  if (v === null || v === undefined) return NULL;
  if (typeof t === 'object' || t === 'variant') return { t: 'complex', v, type: t };
  if (t === 'int' || t === 'long') return { t: 'int', v };
  if (t === 'float' || t === 'double') return { t: 'float', v, f32: t === 'float' };
  if (/^decimal/.test(t)) return { t: 'dec', v: v.dec };
  if (t === 'string' || t === 'uuid') return { t: 'str', v };
  if (t === 'boolean') return { t: 'bool', v };
  if (t === 'date') return { t: 'date', v: v.days };
  if (t === 'timestamp' || t === 'timestamp_ns') return { t: 'ts', v: v.us };
  if (t === 'timestamptz' || t === 'timestamptz_ns') return { t: 'ts', v: wallOf(v.us) };
  if (t === 'binary' || /^fixed/.test(t)) return { t: 'str', v: v.toString('latin1') };
  return no(`type ${t}`);
}

function strToDate(s) {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(s.trim());
  return m ? daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])) : no(`'${s}' as a date`);
}

function strToTs(s) {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?$/.exec(s.trim());
  if (!m) no(`'${s}' as a timestamp`);
  const days = BigInt(daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])));
  return days * 86400000000n + BigInt(Number(m[4] || 0) * 3600 + Number(m[5] || 0) * 60 + Number(m[6] || 0)) * 1000000n
    + BigInt((m[7] || '').padEnd(6, '0').slice(0, 6));
}

/** -1 / 0 / 1, or null when either is NULL. */
function compare(a, b) {
  if (a.t === 'null' || b.t === 'null') return null;
  if (a.t === 'str' && (b.t === 'date' || b.t === 'ts')) return -compare(b, a);
  if (a.t === 'date' && b.t === 'str') b = { t: 'date', v: strToDate(b.v) };
  if (a.t === 'ts' && b.t === 'str') b = { t: 'ts', v: strToTs(b.v) };
  if (a.t === 'date' && b.t === 'ts') a = { t: 'ts', v: BigInt(a.v) * 86400000000n };
  if (a.t === 'ts' && b.t === 'date') b = { t: 'ts', v: BigInt(b.v) * 86400000000n };
  if (a.t === 'int' && b.t === 'int') return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
  if (['int', 'dec', 'float'].includes(a.t) && ['int', 'dec', 'float'].includes(b.t)) {
    let x = num(a);
    let y = num(b);
    // a float column against a decimal literal: Impala casts the literal to FLOAT
    if (a.f32 && b.t !== 'float') y = Math.fround(y);
    if (b.f32 && a.t !== 'float') x = Math.fround(x);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a.t !== b.t) no(`comparing ${a.t} with ${b.t}`);
  if (a.t === 'str') {
    const x = Buffer.from(a.v, 'utf8');
    const y = Buffer.from(b.v, 'utf8');
    return Math.sign(Buffer.compare(x, y));
  }
  return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
}

const truth = (x) => (x.t === 'null' ? null : x.t === 'bool' ? x.v : no(`truth of ${x.t}`));
const bool = (b) => (b === null ? NULL : { t: 'bool', v: b });

function likeRe(p) {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\' && i + 1 < p.length) re += p[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

// ------------------------------------------------------------------ parser

/** Parse tokens s[from..to) as an expression tree. */
function parseExpr(s, from, to) {
  let k = from;
  const peek = () => (k < to ? s[k] : null);
  const op = (v) => peek() && peek().t === 'op' && peek().v === v;
  const word = (w) => isWord(peek(), w);
  const expect = (v) => {
    if (!op(v)) no(`expected ${v}`);
    k++;
  };
  function orE() {
    let l = andE();
    while (word('or')) {
      k++;
      l = { k: 'or', a: l, b: andE() };
    }
    return l;
  }
  function andE() {
    let l = notE();
    while (word('and')) {
      k++;
      l = { k: 'and', a: l, b: notE() };
    }
    return l;
  }
  function notE() {
    if (word('not')) {
      k++;
      return { k: 'not', a: notE() };
    }
    return cmpE();
  }
  function cmpE() {
    const l = addE();
    for (const c of ['=', '!=', '<>', '<=', '>=', '<', '>']) {
      if (op(c)) {
        k++;
        return { k: 'cmp', op: c, a: l, b: addE() };
      }
    }
    let neg = false;
    if (word('not') && (isWord(s[k + 1], 'like') || isWord(s[k + 1], 'in') || isWord(s[k + 1], 'between'))) {
      neg = true;
      k++;
    }
    if (word('like')) {
      k++;
      return { k: 'like', neg, a: l, b: addE() };
    }
    if (word('in')) {
      k++;
      expect('(');
      if (word('select')) no('IN (subquery)');
      const items = [];
      for (;;) {
        items.push(addE());
        if (op(',')) {
          k++;
          continue;
        }
        break;
      }
      expect(')');
      return { k: 'in', neg, a: l, items };
    }
    if (word('between')) {
      k++;
      const lo = addE();
      if (!word('and')) no('BETWEEN without AND');
      k++;
      return { k: 'between', neg, a: l, lo, hi: addE() };
    }
    if (word('is')) {
      k++;
      let n = false;
      if (word('not')) {
        n = true;
        k++;
      }
      if (!word('null')) no('IS other than [NOT] NULL');
      k++;
      return { k: 'isnull', neg: n, a: l };
    }
    return l;
  }
  function addE() {
    let l = mulE();
    while (op('+') || op('-')) {
      const o = s[k++].v;
      l = { k: 'arith', op: o, a: l, b: mulE() };
    }
    return l;
  }
  function mulE() {
    let l = unE();
    while (op('*') || op('/') || op('%')) {
      const o = s[k++].v;
      l = { k: 'arith', op: o, a: l, b: unE() };
    }
    return l;
  }
  function unE() {
    if (op('-')) {
      k++;
      return { k: 'neg', a: unE() };
    }
    return prim();
  }
  function prim() {
    const x = peek();
    if (!x) no('unexpected end');
    if (op('(')) {
      k++;
      const e = orE();
      expect(')');
      return e;
    }
    if (x.t === 'num') {
      k++;
      return /^\d+$/.test(x.v) ? { k: 'lit', v: { t: 'int', v: BigInt(x.v) } } : /[eE]/.test(x.v) ? { k: 'lit', v: { t: 'float', v: Number(x.v) } } : { k: 'lit', v: { t: 'dec', v: x.v } };
    }
    if (x.t === 'str') {
      k++;
      return { k: 'lit', v: { t: 'str', v: x.v } };
    }
    if (isWord(x, 'null')) {
      k++;
      return { k: 'lit', v: NULL };
    }
    if (isWord(x, 'true') || isWord(x, 'false')) {
      k++;
      return { k: 'lit', v: { t: 'bool', v: isWord(x, 'true') } };
    }
    if (nameOf(x)) {
      const n = nameOf(x).toLowerCase();
      if (s[k + 1] && s[k + 1].t === 'op' && s[k + 1].v === '(' && x.t === 'id') {
        k += 2;
        if (n === 'to_timestamp') {
          const a = orE();
          expect(',');
          const f = peek();
          if (!f || f.t !== 'str' || f.v !== 'yyyy-MM-dd HH:mm:ss') no('to_timestamp() format');
          k++;
          expect(')');
          return { k: 'to_ts', a };
        }
        if (!['count', 'min', 'max', 'sum', 'avg'].includes(n)) no(`function ${n}()`);
        let distinct = false;
        if (word('distinct')) {
          distinct = true;
          k++;
        }
        let arg = null;
        if (op('*')) k++;
        else arg = orE();
        if (op(',')) no(`${n}() with several arguments`);
        expect(')');
        if (word('over')) no('analytic function');
        return { k: 'agg', fn: n, distinct, arg };
      }
      k++;
      const parts = [n];
      while (op('.')) {
        k++;
        const f = peek() && nameOf(peek());
        if (!f) no('dotted name');
        parts.push(f.toLowerCase());
        k++;
      }
      return { k: 'col', parts };
    }
    return no(`token ${x.raw}`);
  }
  const e = orE();
  if (k !== to) no(`unparsed text from ${s[k].raw}`);
  return e;
}

const hasAgg = (e) => Boolean(e && (e.k === 'agg' || ['a', 'b', 'lo', 'hi'].some((p) => hasAgg(e[p])) || (e.items || []).some(hasAgg)));

function evalE(e, row, groupRows) {
  switch (e.k) {
    case 'lit': return e.v;
    case 'col': {
      if (!(e.name in row)) no(`column ${e.name}`);
      let v = row[e.name];
      for (const f of e.path || []) {
        if (v.t === 'null') return NULL;
        if (v.t !== 'complex' || typeof v.type !== 'object' || v.type.type !== 'struct') no(`field ${f} of a ${v.t}`);
        const fd = v.type.fields.find((x) => x.name.toLowerCase() === f);
        if (!fd) no(`no field ${f}`);
        v = fromTyped(fd.type, v.v[fd.name]);
      }
      return v;
    }
    case 'to_ts': {
      const a = evalE(e.a, row, groupRows);
      if (a.t === 'null') return NULL;
      if (a.t !== 'str') no('to_timestamp() of a non-string');
      return { t: 'ts', v: strToTs(a.v) };
    }
    case 'or': {
      const a = truth(evalE(e.a, row, groupRows));
      const b = truth(evalE(e.b, row, groupRows));
      return bool(a === true || b === true ? true : a === null || b === null ? null : false);
    }
    case 'and': {
      const a = truth(evalE(e.a, row, groupRows));
      const b = truth(evalE(e.b, row, groupRows));
      return bool(a === false || b === false ? false : a === null || b === null ? null : true);
    }
    case 'not': {
      const a = truth(evalE(e.a, row, groupRows));
      return bool(a === null ? null : !a);
    }
    case 'cmp': {
      const c = compare(evalE(e.a, row, groupRows), evalE(e.b, row, groupRows));
      if (c === null) return NULL;
      return bool({ '=': c === 0, '!=': c !== 0, '<>': c !== 0, '<': c < 0, '>': c > 0, '<=': c <= 0, '>=': c >= 0 }[e.op]);
    }
    case 'like': {
      const a = evalE(e.a, row, groupRows);
      const b = evalE(e.b, row, groupRows);
      if (a.t === 'null' || b.t === 'null') return NULL;
      if (a.t !== 'str' || b.t !== 'str') no('LIKE on a non-string');
      const r = likeRe(b.v).test(a.v);
      return bool(e.neg ? !r : r);
    }
    case 'in': {
      const a = evalE(e.a, row, groupRows);
      if (a.t === 'null') return NULL;
      let sawNull = false;
      for (const it of e.items) {
        const c = compare(a, evalE(it, row, groupRows));
        if (c === 0) return bool(!e.neg);
        if (c === null) sawNull = true;
      }
      return sawNull ? NULL : bool(e.neg);
    }
    case 'between': {
      const a = evalE(e.a, row, groupRows);
      const lo = compare(a, evalE(e.lo, row, groupRows));
      const hi = compare(a, evalE(e.hi, row, groupRows));
      if (lo === null || hi === null) return NULL;
      const r = lo >= 0 && hi <= 0;
      return bool(e.neg ? !r : r);
    }
    case 'isnull': {
      const a = evalE(e.a, row, groupRows);
      return bool(e.neg ? a.t !== 'null' : a.t === 'null');
    }
    case 'neg': {
      const a = evalE(e.a, row, groupRows);
      if (a.t === 'null') return NULL;
      if (a.t === 'int') return { t: 'int', v: -a.v };
      if (a.t === 'dec') return { t: 'dec', v: normDecimal(a.v.startsWith('-') ? a.v.slice(1) : `-${a.v}`) };
      return { t: 'float', v: -num(a) };
    }
    case 'arith': {
      const a = evalE(e.a, row, groupRows);
      const b = evalE(e.b, row, groupRows);
      if (a.t === 'null' || b.t === 'null') return NULL;
      if (a.t === 'int' && b.t === 'int' && e.op !== '/') {
        if (e.op === '%') return b.v === 0n ? NULL : { t: 'int', v: a.v % b.v };
        return { t: 'int', v: e.op === '+' ? a.v + b.v : e.op === '-' ? a.v - b.v : a.v * b.v };
      }
      if (a.t === 'dec' || b.t === 'dec') no('decimal arithmetic');
      const x = num(a);
      const y = num(b);
      return { t: 'float', v: e.op === '+' ? x + y : e.op === '-' ? x - y : e.op === '*' ? x * y : e.op === '/' ? x / y : x % y };
    }
    case 'agg': {
      if (!groupRows) no('aggregate outside a group');
      let vals = e.arg ? groupRows.map((r) => evalE(e.arg, r, null)).filter((v) => v.t !== 'null') : groupRows.map(() => ({ t: 'int', v: 1n }));
      if (e.distinct) {
        const seen = new Map();
        for (const v of vals) seen.set(`${v.t}:${String(v.v)}`, v);
        vals = [...seen.values()];
      }
      if (e.fn === 'count') return { t: 'int', v: BigInt(vals.length) };
      if (!vals.length) return NULL;
      if (e.fn === 'min' || e.fn === 'max') return vals.reduce((m, v) => (compare(v, m) * (e.fn === 'min' ? -1 : 1) > 0 ? v : m));
      if (e.fn === 'sum') {
        if (vals.every((v) => v.t === 'int')) return { t: 'int', v: vals.reduce((a, v) => a + v.v, 0n) };
        if (vals.some((v) => v.t === 'dec')) no('decimal sum');
        return { t: 'float', v: vals.reduce((a, v) => a + num(v), 0) };
      }
      if (e.fn === 'avg') {
        if (vals.some((v) => v.t === 'dec')) no('decimal avg');
        return { t: 'float', v: vals.reduce((a, v) => a + num(v), 0) / vals.length };
      }
      return no(e.fn);
    }
    default: return no(e.k);
  }
}

/** The canonical form (lib/iceberg_values.mjs) of an evaluator value as Impala type impType. */
function canonOut(impType, x) {
  const T = impType.toUpperCase().replace(/\(.*$/, '');
  if (STRING_TYPES.has(T)) {
    if (x.t === 'null') return 'NULL';
    if (x.t === 'complex') {
      if (x.type === 'variant') no('VARIANT value');
      return `json:${jsonCanon(x.type, x.v)}`;
    }
    if (x.t !== 'str') no(`${x.t} as ${T}`);
    return pyUnicodeEscape(x.v).replace(/'/g, "''");
  }
  if (x.t === 'null') return null;
  switch (T) {
    case 'BOOLEAN': return x.t === 'bool' ? String(x.v) : no(`${x.t} as BOOLEAN`);
    case 'TINYINT': case 'SMALLINT': case 'INT': case 'BIGINT': return x.t === 'int' ? x.v.toString() : no(`${x.t} as ${T}`);
    case 'DECIMAL': return x.t === 'dec' ? normDecimal(x.v) : x.t === 'int' ? x.v.toString() : no(`${x.t} as DECIMAL`);
    case 'FLOAT': return canonFloat32(num(x));
    case 'DOUBLE': return canonDouble(x.t === 'dec' ? x.v : num(x));
    case 'DATE': return x.t === 'date' ? isoDate(x.v) : no(`${x.t} as DATE`);
    case 'TIMESTAMP': return x.t === 'ts' ? (x.v * 1000n).toString() : no(`${x.t} as TIMESTAMP`);
    default: return no(`Impala type ${T}`);
  }
}

/**
 * Evaluate query q (collectQueries' entry; its one table read as `table`:
 * { rows (typed icebird values by field name), fields }) as Impala would.
 * Returns { rows: canonical rows as Impala TYPES, ordered } or throws NotEvaluated.
 */
export function evaluate(q, table, types, wallOf) {
  zoneWall = wallOf;
  const s = q.s;
  if (q.refs.length !== 1) no('more than one table');
  const kw = (w) => s.findIndex((x) => isWord(x, w));
  if (!isWord(s[0], 'select')) no('not a plain SELECT');
  if (s.filter((x) => isWord(x, 'select')).length > 1) no('subquery');
  for (const w of ['join', 'union', 'except', 'intersect', 'minus', 'having', 'with', 'over']) if (kw(w) >= 0) no(w.toUpperCase());
  const ref = q.refs[0].ref;
  const fromAt = kw('from');
  const afterRef = (ref.aliasEnd ?? (ref.travel ? ref.travel.end : ref.end)) + 1;
  const clauseAt = (w) => {
    const i = s.findIndex((x, j) => j >= afterRef && isWord(x, w));
    return i;
  };
  const whereAt = clauseAt('where');
  const groupAt = clauseAt('group');
  const orderAt = clauseAt('order');
  const limitAt = clauseAt('limit');
  const ends = [whereAt, groupAt, orderAt, limitAt, s.length].filter((i) => i >= 0);
  const endOf = (i) => Math.min(...ends.filter((e) => e > i));
  if (afterRef !== Math.min(...ends)) no(`text after the table: ${s[afterRef].raw}`);
  let listFrom = 1;
  let distinct = false;
  if (isWord(s[1], 'distinct')) {
    distinct = true;
    listFrom = 2;
  }
  // rows as evaluator values, by lowercased name (and alias.name)
  const alias = (ref.alias || ref.parts[ref.parts.length - 1]).toLowerCase();
  const rows = table.rows.map((r) => {
    const o = {};
    for (const f of table.fields) o[f.name.toLowerCase()] = fromTyped(f.type, r[f.name], wallOf);
    return o;
  });
  const qualify = (e) => {
    if (!e || typeof e !== 'object') return e;
    if (e.k === 'col') {
      const parts = e.parts.length > 1 && e.parts[0] === alias && !(e.parts[0] in (rows[0] || {})) ? e.parts.slice(1) : e.parts;
      return { k: 'col', name: parts[0], path: parts.slice(1) };
    }
    const c = { ...e };
    for (const p of ['a', 'b', 'lo', 'hi', 'arg']) if (c[p]) c[p] = qualify(c[p]);
    if (c.items) c.items = c.items.map(qualify);
    return c;
  };
  // select items
  const items = [];
  {
    let k = listFrom;
    let d = 0;
    let start = k;
    for (; k <= fromAt; k++) {
      const x = s[k];
      if (x.t === 'op' && x.v === '(') d++;
      if (x.t === 'op' && x.v === ')') d--;
      if (k === fromAt || (d === 0 && x.t === 'op' && x.v === ',')) {
        const toks = s.slice(start, k);
        if (toks.length === 1 && toks[0].t === 'op' && toks[0].v === '*') {
          const expand = !/^'?false'?$/i.test(String(q.options.expand_complex_types ?? 'true').trim());
          for (const f of table.fields) if (expand || typeof f.type !== 'object') items.push({ e: { k: 'col', name: f.name.toLowerCase() }, label: f.name.toLowerCase() });
        } else {
          let end = k;
          let label = null;
          if (end - start >= 2 && isWord(s[end - 2], 'as') && nameOf(s[end - 1])) {
            label = nameOf(s[end - 1]).toLowerCase();
            end -= 2;
          }
          const e = qualify(parseExpr(s, start, end));
          items.push({ e, label: label ?? (e.k === 'col' && !(e.path || []).length ? e.name : null) });
        }
        start = k + 1;
      }
    }
  }
  if (items.length !== types.length) no(`${items.length} select items, TYPES has ${types.length}`);
  let rs = rows;
  if (whereAt >= 0) {
    const w = qualify(parseExpr(s, whereAt + 1, endOf(whereAt)));
    rs = rs.filter((r) => truth(evalE(w, r, null)) === true);
  }
  let out;
  const aggregate = items.some((it) => hasAgg(it.e));
  if (groupAt >= 0) {
    if (!isWord(s[groupAt + 1], 'by')) no('GROUP without BY');
    const keys = [];
    let k = groupAt + 2;
    const end = endOf(groupAt);
    let start = k;
    for (; k <= end; k++) {
      if (k === end || (s[k].t === 'op' && s[k].v === ',')) {
        keys.push(qualify(parseExpr(s, start, k)));
        start = k + 1;
      }
    }
    const groups = new Map();
    for (const r of rs) {
      const kv = keys.map((e) => evalE(e, r, null));
      const key = JSON.stringify(kv.map((v) => `${v.t}:${String(v.v)}`));
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(r);
    }
    out = [...groups.values()].map((g) => items.map((it) => evalE(it.e, g[0], g)));
  } else if (aggregate) {
    out = [items.map((it) => evalE(it.e, rs[0] || {}, rs))];
  } else {
    out = rs.map((r) => items.map((it) => evalE(it.e, r, null)));
  }
  if (distinct) {
    const seen = new Map();
    for (const r of out) seen.set(JSON.stringify(r.map((v) => `${v.t}:${String(v.v)}`)), r);
    out = [...seen.values()];
  }
  if (orderAt >= 0) {
    if (!isWord(s[orderAt + 1], 'by')) no('ORDER without BY');
    const keys = [];
    let k = orderAt + 2;
    const end = endOf(orderAt);
    let start = k;
    for (; k <= end; k++) {
      if (k === end || (s[k].t === 'op' && s[k].v === ',')) {
        let e2 = k;
        let desc = false;
        if (isWord(s[e2 - 1], 'desc') || isWord(s[e2 - 1], 'asc')) {
          desc = isWord(s[e2 - 1], 'desc');
          e2--;
        }
        if (e2 - start === 1 && s[start].t === 'num') keys.push({ idx: Number(s[start].v) - 1, desc });
        else {
          const e = qualify(parseExpr(s, start, e2));
          const idx = items.findIndex((it) => (e.k === 'col' && it.label === e.name) || JSON.stringify(it.e) === JSON.stringify(e));
          if (idx < 0) no('ORDER BY an expression not selected');
          keys.push({ idx, desc });
        }
        start = k + 1;
      }
    }
    out.sort((a, b) => {
      for (const { idx, desc } of keys) {
        const x = a[idx];
        const y = b[idx];
        // NULLs last ascending, first descending (Impala's default)
        if (x.t === 'null' || y.t === 'null') {
          if (x.t === y.t) continue;
          const c = x.t === 'null' ? 1 : -1;
          return desc ? -c : c;
        }
        const c = compare(x, y);
        if (c) return desc ? -c : c;
      }
      return 0;
    });
  }
  if (limitAt >= 0) {
    const n = s[limitAt + 1];
    if (!n || n.t !== 'num') no('LIMIT other than a number');
    if (orderAt < 0) no('LIMIT without ORDER BY');
    out = out.slice(0, Number(n.v));
  }
  const jsonCols = new Set();
  out.forEach((r) => r.forEach((v, j) => v.t === 'complex' && jsonCols.add(j)));
  return { rows: out.map((r) => r.map((v, j) => canonOut(types[j], v))), labels: items.map((it) => it.label), jsonCols };
}

