// Impala SQL -> PostgreSQL, for the read queries of Impala's Iceberg tests
// (check_iceberg.mjs). A small translator for what those queries use, on
// the tokens of lib/iceberg_impala.mjs; anything else throws Untranslatable
// with the reason (the query is then a SKIP line, never a pass):
//
//   table names        -> a foreign table per (table directory, snapshot),
//                         aliased as the query names it (table name or alias)
//   FOR SYSTEM_VERSION AS OF <id>   -> that table with snapshot_id '<id>'
//   FOR SYSTEM_TIME AS OF '<ts>'    -> timestamp '<ts as an instant>': Impala
//                         reads the literal in its session time zone (SET
//                         TIMEZONE in the block; UTC when none); now() ->
//                         the time the harness runs at
//   column names       -> the declared (lowercased) column name, quoted (so
//                         that "user", a PostgreSQL key word, stays a column)
//   "string"           -> 'string' (Impala's double quotes are strings)
//   * (select list)    -> the columns Impala's * returns, listed when they
//                         are not simply the declared ones: nested columns
//                         (struct, array, map) are in it unless EXPAND_COMPLEX_
//                         TYPES is false (Impala prints them as JSON: an array
//                         column through to_jsonb()), timestamptz columns are
//                         read as below
//   timestamptz column -> (col AT TIME ZONE '<session zone>'): Impala has no
//                         time zone type; it reads an Iceberg timestamptz as
//                         the wall-clock time of its session zone and compares
//                         it with literals as such (so both instants of a DST
//                         fall-back hour equal one literal)
//   concat(a, b, ..)   -> (CAST(a AS text) || ..) (NULL if any is, as Impala)
//   nvl / ifnull / isnull(a, b) -> coalesce; if(c, a, b) -> CASE
//   length             -> octet_length (Impala counts bytes)
//   struct.field       -> (struct #>> '{field}') (a struct is a jsonb column)
//   year/month/day/hour/minute/second(x) -> EXTRACT(.. FROM x)::integer
//   to_timestamp(s, 'yyyy-MM-dd HH:mm:ss') -> CAST(s AS timestamp)
//   CAST(.. AS STRING/INT/TINYINT/DOUBLE/FLOAT) -> text/integer/smallint/
//                         double precision/real
//   a / b              -> a * 1.0 / b (Impala's / is never integer division)
//   <=>                -> IS NOT DISTINCT FROM; MINUS -> EXCEPT; hints dropped
//
// Refused: other functions (rand(), base64decode(), ...), DIV, ||, regexp
// operators, INTERVAL outside time travel, LIMIT without ORDER BY (which
// rows is unspecified), semi/anti joins.

import { isWord, nameOf } from './iceberg_impala.mjs';

export class Untranslatable extends Error {}

const fail = (why) => {
  throw new Untranslatable(why);
};

// Words after which '(' is no function call.
const NOT_FUNCTIONS = new Set(['in', 'exists', 'values', 'over', 'as', 'from', 'join', 'on', 'and', 'or', 'not', 'when', 'then', 'else',
  'select', 'where', 'using', 'by', 'union', 'all', 'any', 'some', 'with', 'case', 'between', 'like', 'ilike', 'is', 'distinct',
  'into', 'table', 'group', 'having', 'limit', 'order', 'set', 'except', 'intersect', 'minus', 'partition', 'rows', 'range', 'filter']);

/** Functions the same in both (name -> PostgreSQL name). */
const SAME_FUNCTIONS = {
  count: 'count', sum: 'sum', min: 'min', max: 'max', avg: 'avg', upper: 'upper', lower: 'lower', coalesce: 'coalesce',
  abs: 'abs', split_part: 'split_part', trim: 'trim', ltrim: 'ltrim', rtrim: 'rtrim', substr: 'substr', substring: 'substr',
  now: 'now', greatest: 'greatest', least: 'least', nullif: 'nullif', replace: 'replace', length: 'octet_length',
  nvl: 'coalesce', ifnull: 'coalesce', isnull: 'coalesce', row_number: 'row_number', rank: 'rank', dense_rank: 'dense_rank',
};

const CAST_TYPES = {
  string: 'text', int: 'integer', integer: 'integer', tinyint: 'smallint', smallint: 'smallint', bigint: 'bigint',
  double: 'double precision', float: 'real', real: 'double precision', boolean: 'boolean', timestamp: 'timestamp', date: 'date',
};

/** A string literal for PostgreSQL. */
export function pgString(v) {
  if (v.includes('\\')) return `E'${v.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return `'${v.replace(/'/g, "''")}'`;
}

const ident = (s) => `"${String(s).replace(/"/g, '""')}"`;

// ------------------------------------------------------------ time zones

const dtf = new Map();
/** The UTC offset (ms) of zone tz at instant ms. */
export function offsetAt(tz, ms) {
  if (!dtf.has(tz)) {
    dtf.set(tz, new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }));
  }
  const p = Object.fromEntries(dtf.get(tz).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour) % 24, Number(p.minute), Number(p.second));
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant (ms) a wall-clock time (ms as if UTC) names in zone tz (the earlier one in a repeated hour). */
export function zonedToUtc(tz, wallMs) {
  let g = wallMs - offsetAt(tz, wallMs);
  g = wallMs - offsetAt(tz, g);
  const earlier = wallMs - offsetAt(tz, g - 3600000);
  if (earlier !== g && wallMs - offsetAt(tz, earlier) === earlier && earlier < g) return earlier;
  return g;
}

/** A zone name PostgreSQL and Intl both know, from Impala's TIMEZONE option value. */
export function zoneOf(options) {
  const v = options.timezone;
  if (v === undefined) return null;
  return v.replace(/^'|'$/g, '').trim();
}

/** Wall-clock 'YYYY-MM-DD HH:MM:SS[.f]' -> ms as if UTC (null if not one). */
export function wallMs(text) {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?$/.exec(text.trim());
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] || 0), Number(m[5] || 0), Number(m[6] || 0),
    Number((m[7] || '0').padEnd(3, '0').slice(0, 3)));
}

// ----------------------------------------------------------- translation

/** Index of the ')' closing the '(' at s[open]. */
function closeParen(s, open) {
  let d = 0;
  for (let k = open; k < s.length; k++) {
    if (s[k].t === 'op' && s[k].v === '(') d++;
    if (s[k].t === 'op' && s[k].v === ')') {
      d--;
      if (d === 0) return k;
    }
  }
  return fail('unbalanced parentheses');
}

/** Top-level comma-separated argument ranges [from, to) between s[open] '(' and s[close] ')'. */
function argRanges(s, open, close) {
  const out = [];
  let d = 0;
  let from = open + 1;
  for (let k = open + 1; k < close; k++) {
    if (s[k].t === 'op' && s[k].v === '(') d++;
    if (s[k].t === 'op' && s[k].v === ')') d--;
    if (d === 0 && s[k].t === 'op' && s[k].v === ',') {
      out.push([from, k]);
      from = k + 1;
    }
  }
  if (from < close || out.length) out.push([from, close]);
  return out;
}

/**
 * Translate query q (collectQueries' entry) for PostgreSQL.
 *   tableInfo(ref, travelOption) -> { columns: [{ name, field, type }] }:
 *     the columns of the foreign table for that reference (declared names)
 *   nowIso: the instant now() means
 * Returns { sql, tables: [{ pgName, dir, option: {snapshot_id}|{timestamp}|null, columns }],
 *   zone, ordered, orderItems } or throws Untranslatable.
 */
export function translate(q, tableInfo, nowIso) {
  const s = q.s;
  const zone = zoneOf(q.options) || 'UTC';
  const tables = [];
  const replace = new Map(); // solid index -> emitted text; skipped indices map to ''
  const scope = []; // { alias, cols }
  let refNo = 0;

  // ---- table references
  for (const { ref, res } of q.refs) {
    if (res.kind === 'cte') continue;
    if (res.kind !== 'corpus') fail(`reads ${res.name}`);
    let option = null;
    if (ref.travel) {
      const t = ref.travel.tokens;
      if (ref.travel.kind === 'version') {
        if (t.length === 1 && t[0].t === 'num' && /^\d+$/.test(t[0].v)) option = { snapshot_id: t[0].v };
        else fail(`FOR SYSTEM_VERSION AS OF ${t.map((x) => x.raw).join(' ')}`);
      } else if (t.length === 3 && isWord(t[0], 'now')) {
        option = { timestamp: nowIso, now: true };
      } else if (t.length === 1 && t[0].t === 'str' && wallMs(t[0].v) !== null) {
        option = { timestamp: new Date(zonedToUtc(zone, wallMs(t[0].v))).toISOString().replace('T', ' ').replace('Z', '+00'), literal: t[0].v };
      } else fail(`FOR SYSTEM_TIME AS OF ${t.map((x) => x.raw).join(' ')}`);
    }
    const info = tableInfo(res.dir, option);
    const pgName = `pqfdw_ice_${refNo++}`;
    tables.push({ pgName, dir: res.dir, option, columns: info.columns, impalaName: res.name });
    const alias = ref.alias || ref.parts[ref.parts.length - 1];
    scope.push({ alias: alias.toLowerCase(), cols: info.columns });
    const end = ref.travel ? ref.travel.end : ref.end;
    for (let k = ref.start; k <= end; k++) replace.set(k, '');
    replace.set(ref.start, ref.alias ? pgName : `${pgName} AS ${ident(alias.toLowerCase())}`);
  }
  if (!tables.length) fail('no corpus table to read');

  const colByName = new Map();
  for (const t of scope) for (const c of t.cols) if (!colByName.has(c.name.toLowerCase())) colByName.set(c.name.toLowerCase(), c);
  const tzWrap = (text) => `(${text} AT TIME ZONE ${pgString(zone)})`;
  const isTz = (c) => c && (c.field.type === 'timestamptz' || c.field.type === 'timestamptz_ns');
  const isNested = (c) => typeof c.field.type === 'object';
  const selects = s.filter((x) => isWord(x, 'select')).length;
  const expandComplex = !/^'?false'?$/i.test(String(q.options.expand_complex_types ?? 'true').trim());

  // ---- the statement as a whole
  const words = s.filter((x) => x.t === 'id').map((x) => x.v.toLowerCase());
  if (words.includes('limit') && !words.includes('order')) fail('LIMIT without ORDER BY: which rows is unspecified');
  if (words.includes('anti') || words.includes('semi')) fail('semi/anti join');
  if (words.includes('interval')) fail('INTERVAL arithmetic');
  for (const op of ['||', '&&']) if (s.some((x) => x.t === 'op' && x.v === op)) fail(`operator ${op} (logical in Impala)`);
  for (const w of ['div', 'rlike', 'regexp', 'iregexp']) if (words.includes(w)) fail(`operator ${w.toUpperCase()}`);

  /** The dotted names from s[k] on: [names], last index. */
  const dotted = (k) => {
    const names = [nameOf(s[k])];
    let j = k;
    while (s[j + 1] && s[j + 1].t === 'op' && s[j + 1].v === '.' && s[j + 2] && nameOf(s[j + 2])) {
      names.push(nameOf(s[j + 2]));
      j += 2;
    }
    return { names, last: j };
  };
  /** A column, possibly alias-qualified, possibly with struct fields after it (jsonb path). */
  const columnRef = (k) => {
    if (s[k - 1] && s[k - 1].t === 'op' && s[k - 1].v === '.') return null;
    const { names, last } = dotted(k);
    let col = null;
    let text = null;
    let rest = [];
    const tbl = names.length > 1 ? scope.find((t) => t.alias === names[0].toLowerCase()) : null;
    if (tbl) {
      col = tbl.cols.find((c) => c.name.toLowerCase() === names[1].toLowerCase());
      if (!col) fail(`${names[0]}.${names[1]}: no such column`);
      text = `${ident(tbl.alias)}.${ident(col.name)}`;
      rest = names.slice(2);
    } else {
      col = colByName.get(names[0].toLowerCase());
      if (!col) return null;
      text = ident(col.name);
      rest = names.slice(1);
    }
    if (rest.length) {
      if (col.type !== 'jsonb') fail(`field ${rest.join('.')} of ${col.name}, a ${col.type} column`);
      // a struct field: its value as text (jsonb #>>), which compares by the TYPES like any text
      return { text: `(${text} #>> ${pgString(`{${rest.join(',')}}`)})`, last };
    }
    return { text: isTz(col) ? tzWrap(text) : text, last };
  };

  /** The PostgreSQL text of s[from..to). */
  function tr(from, to, top) {
    const out = [];
    let glue = false;
    const emit = (text) => {
      if (glue && out.length) out[out.length - 1] += text;
      else out.push(text);
      glue = false;
    };
    let selectListDepth = -1;
    let depth = 0;
    for (let k = from; k < to; k++) {
      if (replace.has(k)) {
        if (replace.get(k)) emit(replace.get(k));
        continue;
      }
      const x = s[k];
      const prev = s[k - 1];
      const next = s[k + 1];
      if (x.t === 'op' && x.v === '(') depth++;
      if (x.t === 'op' && x.v === ')') depth--;
      if (isWord(x, 'select')) selectListDepth = depth;
      if (isWord(x, 'from')) selectListDepth = -1;
      if (x.t === 'str') {
        emit(pgString(x.v));
        continue;
      }
      if (x.t === 'num') {
        emit(x.v);
        continue;
      }
      if (x.t === 'op') {
        if (x.v === '*') {
          const inList = top && selectListDepth === depth && prev && (isWord(prev, 'select') || isWord(prev, 'distinct') || (prev.t === 'op' && prev.v === ','))
            && (!next || isWord(next, 'from') || (next.t === 'op' && next.v === ','));
          const qualified = prev && prev.t === 'op' && prev.v === '.';
          if (inList && !qualified && scope.some((t) => t.cols.some((c) => isTz(c) || isNested(c)))) {
            if (selects > 1) fail('* over a table with nested or timestamptz columns in a query with subqueries');
            const list = [];
            for (const t of scope) {
              for (const c of t.cols) {
                const txt = `${ident(t.alias)}.${ident(c.name)}`;
                if (isNested(c)) {
                  // Impala's * has nested columns too unless EXPAND_COMPLEX_TYPES
                  // is false; it shows them as JSON: arrays through to_jsonb()
                  if (!expandComplex) continue;
                  list.push(c.type.endsWith('[]') ? `to_jsonb(${txt})` : txt);
                } else list.push(isTz(c) ? tzWrap(txt) : txt);
              }
            }
            emit(list.join(', '));
          } else emit('*');
          continue;
        }
        if (x.v === '/') emit('* 1.0 /');
        else if (x.v === '<=>') emit('IS NOT DISTINCT FROM');
        else if (x.v === '==') emit('=');
        else if (x.v === '.' && prev && next && out.length) {
          out[out.length - 1] += '.';
          glue = true;
        } else emit(x.v);
        continue;
      }
      // identifiers and key words
      const w = x.v.toLowerCase();
      if (x.t === 'id') {
        if (w === 'straight_join') continue;
        if (w === 'minus') {
          emit('EXCEPT');
          continue;
        }
        if (next && next.t === 'op' && next.v === '(' && !NOT_FUNCTIONS.has(w) && !(prev && prev.t === 'op' && prev.v === '.')) {
          const { text, close } = callText(k);
          emit(text);
          k = close;
          continue;
        }
      }
      const isAliasDef = prev && isWord(prev, 'as');
      const ref = isAliasDef ? null : columnRef(k);
      if (ref) {
        emit(ref.text);
        k = ref.last;
        continue;
      }
      if (x.t === 'qid' || (prev && prev.t === 'op' && prev.v === '.')) {
        // a column of a WITH or FROM subquery (t.id), or a `quoted` name
        emit(ident(x.v.toLowerCase()));
        continue;
      }
      emit(x.v);
    }
    return out.join(' ');
  }

  /** The function call starting at s[k]: { text, close (index of its ')') }. */
  function callText(k) {
    const name = s[k].v.toLowerCase();
    const open = k + 1;
    const close = closeParen(s, open);
    const args = argRanges(s, open, close);
    const sub = (a, b) => tr(a, b, false);
    const done = (text) => ({ text, close });
    if (name === 'cast') {
      // CAST(expr AS type)
      let asAt = -1;
      let d = 0;
      for (let j = open + 1; j < close; j++) {
        if (s[j].t === 'op' && s[j].v === '(') d++;
        if (s[j].t === 'op' && s[j].v === ')') d--;
        if (d === 0 && isWord(s[j], 'as')) asAt = j;
      }
      if (asAt < 0) fail('CAST without AS');
      const tname = s.slice(asAt + 1, close).map((y) => y.raw).join('').toLowerCase();
      let pgType = CAST_TYPES[tname];
      if (!pgType && /^(decimal|numeric)\(\d+,\d+\)$/.test(tname)) pgType = tname.replace('decimal', 'numeric');
      if (!pgType && /^(varchar|char)\(\d+\)$/.test(tname)) pgType = tname;
      if (!pgType) fail(`CAST to ${tname}`);
      return done(`CAST(${sub(open + 1, asAt)} AS ${pgType})`);
    }
    if (name === 'concat') return done(`(${args.map(([a, b]) => `CAST(${sub(a, b)} AS text)`).join(' || ')})`);
    if (name === 'if') {
      if (args.length !== 3) fail('if() without three arguments');
      return done(`(CASE WHEN ${sub(...args[0])} THEN ${sub(...args[1])} ELSE ${sub(...args[2])} END)`);
    }
    if (['year', 'month', 'day', 'hour', 'minute', 'second'].includes(name)) {
      if (args.length !== 1) fail(`${name}() with ${args.length} arguments`);
      return done(`CAST(EXTRACT(${name.toUpperCase()} FROM ${sub(...args[0])}) AS integer)`);
    }
    if (name === 'to_timestamp') {
      const fmt = args[1] && s[args[1][0]];
      if (args.length !== 2 || !fmt || fmt.t !== 'str' || fmt.v !== 'yyyy-MM-dd HH:mm:ss') fail('to_timestamp() with another format');
      return done(`CAST(${sub(...args[0])} AS timestamp)`);
    }
    if (name === 'count' && isWord(s[open + 1], 'distinct') && args.length > 1) fail('count(DISTINCT a, b)');
    const pg = SAME_FUNCTIONS[name];
    if (!pg) fail(`Impala function ${name}()`);
    if (open + 1 === close) return done(`${pg}()`);
    if (s[open + 1].t === 'op' && s[open + 1].v === '*' && open + 2 === close) return done(`${pg}(*)`);
    let lead = '';
    let first = open + 1;
    if (isWord(s[first], 'distinct')) {
      lead = 'DISTINCT ';
      first++;
    }
    const parts = argRanges(s, first - 1, close).map(([a, b]) => sub(a, b));
    if (isWord(s[close + 1], 'over')) fail('analytic function');
    return done(`${pg}(${lead}${parts.join(', ')})`);
  }

  const sql = tr(0, s.length, true);
  // ORDER BY: Impala's verifier compares in order iff the query says "order by"
  const ordered = /order\s+by\b/i.test(q.sql);
  return { sql, tables, zone, ordered, orderItems: ordered ? orderItems(s) : null };
}

/**
 * The items of the statement's last top-level ORDER BY: [{ name | ordinal }]
 * when each is a plain name or a position, else null (then ties cannot be
 * told apart and the order is compared row by row).
 */
function orderItems(s) {
  let at = -1;
  let d = 0;
  for (let k = 0; k < s.length; k++) {
    if (s[k].t === 'op' && s[k].v === '(') d++;
    if (s[k].t === 'op' && s[k].v === ')') d--;
    if (d === 0 && isWord(s[k], 'order') && isWord(s[k + 1], 'by')) at = k + 2;
  }
  if (at < 0) return null;
  const items = [];
  let k = at;
  while (k < s.length) {
    let item = null;
    if (s[k].t === 'num' && /^\d+$/.test(s[k].v)) {
      item = { ordinal: Number(s[k].v) };
      k++;
    } else if (nameOf(s[k])) {
      let name = nameOf(s[k]);
      k++;
      while (s[k] && s[k].t === 'op' && s[k].v === '.' && s[k + 1] && nameOf(s[k + 1])) {
        name = nameOf(s[k + 1]);
        k += 2;
      }
      item = { name: name.toLowerCase() };
    } else return null;
    if (isWord(s[k], 'asc') || isWord(s[k], 'desc')) {
      item.desc = isWord(s[k], 'desc');
      k++;
    }
    if (isWord(s[k], 'nulls')) k += 2;
    items.push(item);
    if (s[k] && s[k].t === 'op' && s[k].v === ',') {
      k++;
      continue;
    }
    if (!s[k] || isWord(s[k], 'limit') || isWord(s[k], 'offset')) break;
    return null;
  }
  return items;
}
