#!/usr/bin/env node
// docs/reference.md against the code: every name the code defines is in the
// reference, and every name the reference documents is in the code.
//
// From the code (comments stripped):
//   option tables   {"name", <Catalog>RelationId ...} entries of src/**/*.c
//                   (foreign server, user mapping, foreign table, column
//                   options), and the names the validator and the table
//                   option reader compare, which must be in those tables
//   COPY options    the names pqfdw_copy_parse_options() (COPY TO) and
//                   parse_from_options() (COPY FROM) compare, which must
//                   equal the lists of their hints (VALID_OPTIONS,
//                   VALID_FROM_OPTIONS)
//   IMPORT options  the names pqfdw_key_option() compares
//   GUCs            DefineCustom*Variable() calls: name (a literal, or the
//                   .guc fields of the structures a loop passes), type,
//                   default, context, unit
//   SQL functions   CREATE FUNCTION names of sql/parquet_fdw--X.Y.sql, X.Y
//                   the default_version of parquet_fdw.control
//   EXPLAIN fields  the labels of ExplainProperty*() calls (literals, both
//                   arms of a ?:, or the .explain fields of the structures
//                   a loop passes), with their type and unit
// From docs/reference.md: the tables under the "## ..." headings below
// (HEADINGS), the name being the first `code` of a row's first cell.
//
// A reference row whose "since" is newer than default_version (a version
// being prepared, such as the 0.4 compatibility rows) may name what the code
// does not have yet; once default_version reaches it, it must be there.
// Each kind must be found in a plausible number (MINIMUM) on both sides, so
// that a parser that silently finds nothing fails.  GUC rows must give the
// code's type, context and default (and unit); EXPLAIN rows the property's
// type and unit.
//
// Prints a FAIL line per problem, one line per kind with its counts, and
// "reference: N passed, N failed"; exits 1 on any failure.
//
//   node test/docs/check_reference.mjs [docs/reference.md]
//   node test/docs/check_reference.mjs --list    (the code's names only)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const listOnly = process.argv.includes('--list');
const refArg = process.argv.slice(2).find(a => a !== '--list');
const refPath = path.resolve(refArg || path.join(repo, 'docs/reference.md'));

let passed = 0;
let failed = 0;
function check(ok, msg) {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${msg}`);
  }
  return ok;
}
function fatal(msg) {
  console.log(`FAIL ${msg}`);
  console.log(`reference: ${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}

// ------------------------------------------------------------------ code

// C text without comments (strings and character constants kept).
function stripComments(src) {
  let out = '';
  for (let i = 0; i < src.length;) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const skipped = src.slice(i, end < 0 ? src.length : end + 2);
      out += skipped.replace(/[^\n]/g, ' ');
      i = end < 0 ? src.length : end + 2;
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

// The index just past the string or character constant starting at i.
function skipQuoted(s, i) {
  const q = s[i];
  let j = i + 1;
  while (j < s.length && s[j] !== q) j += s[j] === '\\' ? 2 : 1;
  return j + 1;
}

// The top-level arguments of the call whose "(" is at open, and the index
// of its ")".
function callArgs(s, open) {
  const args = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < s.length;) {
    const c = s[i];
    if (c === '"' || c === "'") {
      i = skipQuoted(s, i);
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        args.push(s.slice(start, i).trim());
        return { args, end: i };
      }
    } else if (c === ',' && depth === 1) {
      args.push(s.slice(start, i).trim());
      start = i + 1;
    }
    i++;
  }
  return { args, end: s.length };
}

// The C string of a literal's body (the escapes the names use).
function unescape(body) {
  return body.replace(/\\(["'\\])/g, '$1').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}

// The string literals of an expression; adjacent ones ("a" "b") joined.
function literals(expr) {
  const out = [];
  let cur = null;
  for (let i = 0; i < expr.length;) {
    const c = expr[i];
    if (c === '"') {
      const j = skipQuoted(expr, i);
      const body = unescape(expr.slice(i + 1, j - 1));
      cur = cur === null ? body : cur + body;
      i = j;
    } else if (/\s/.test(c) || c === '\\') {
      i++;
    } else {
      if (cur !== null) out.push(cur);
      cur = null;
      i = c === "'" ? skipQuoted(expr, i) : i + 1;
    }
  }
  if (cur !== null) out.push(cur);
  return out;
}

// The body ({ ... }) of the C function defined as "\nname(" in text.
function functionBody(text, name, file) {
  const m = new RegExp(`\\n${name}\\s*\\(`).exec(text);
  if (!m) fatal(`${file}: no definition of ${name}() found`);
  const open = text.indexOf('{', callArgs(text, text.indexOf('(', m.index)).end);
  let depth = 0;
  for (let i = open; i < text.length;) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = skipQuoted(text, i);
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(open, i + 1);
    i++;
  }
  fatal(`${file}: the body of ${name}() does not end`);
}

// The names compared by strcmp(<var>, "name") in text.
function strcmpNames(text, vars) {
  const re = new RegExp(`strcmp\\(\\s*(?:${vars})\\s*,\\s*"([^"]+)"\\s*\\)`, 'g');
  return [...text.matchAll(re)].map(m => m[1]);
}

// The names of a "#define NAME "a, b, " \ "c"" list.
function definedList(text, macro, file) {
  const m = new RegExp(`#define\\s+${macro}\\b((?:[^\\n]*\\\\\\n)*[^\\n]*)`).exec(text);
  if (!m) fatal(`${file}: no #define ${macro}`);
  return literals(m[1]).join('').split(',').map(s => s.trim()).filter(Boolean);
}

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.c$/.test(e.name)) out.push(p);
  }
  return out;
}

function read(rel) {
  const p = path.join(repo, rel);
  if (!fs.existsSync(p)) fatal(`${rel} is missing`);
  return fs.readFileSync(p, 'utf8');
}

const sources = walk(path.join(repo, 'src')).sort()
  .map(f => ({ file: path.relative(repo, f), text: stripComments(fs.readFileSync(f, 'utf8')) }));
const allText = sources.map(s => s.text).join('\n');

// "member = "x"" initialisers of structures, for calls that pass s->member.
function memberValues(member) {
  const re = new RegExp(`\\.${member}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"(?:\\s*"(?:[^"\\\\]|\\\\.)*")*)`, 'g');
  return [...allText.matchAll(re)].map(m => literals(m[1])[0]);
}

// The names an argument gives: its literals, else the values of the
// member it reads (methods[i]->guc: every ".guc = "..."").
function argNames(arg, where) {
  const lits = literals(arg);
  if (lits.length > 0) return lits;
  const m = /(?:->|\.)\s*(\w+)\s*$/.exec(arg);
  if (m) {
    const vals = memberValues(m[1]);
    if (vals.length > 0) return vals;
  }
  check(false, `${where}: cannot tell the name(s) of "${arg}"`);
  return [];
}

// Option tables.
const CATALOGS = {
  ForeignServerRelationId: 'server',
  UserMappingRelationId: 'usermapping',
  ForeignTableRelationId: 'table',
  AttributeRelationId: 'column',
  ForeignDataWrapperRelationId: 'wrapper',
};
const code = {
  server: new Map(), usermapping: new Map(), table: new Map(), column: new Map(), wrapper: new Map(),
  copy_to: new Map(), copy_from: new Map(), import: new Map(), guc: new Map(), function: new Map(),
  explain: new Map(),
};
function add(kind, name, info = {}) {
  const prev = code[kind].get(name);
  if (prev && kind === 'explain') {
    for (const t of info.types || []) if (!prev.types.includes(t)) prev.types.push(t);
    for (const u of info.units || []) if (!prev.units.includes(u)) prev.units.push(u);
  } else if (!prev) code[kind].set(name, info);
}
for (const { file, text } of sources) {
  for (const m of text.matchAll(/\{\s*"([^"]+)"\s*,\s*(\w+RelationId)\b/g)) {
    if (!(m[2] in CATALOGS)) check(false, `${file}: option "${m[1]}" of an unknown catalog ${m[2]}`);
    else add(CATALOGS[m[2]], m[1], { file });
  }
}
const optionNames = new Set(['server', 'usermapping', 'table', 'column', 'wrapper']
  .flatMap(k => [...code[k].keys()]));

// The validator and the table option reader compare only names of the tables.
{
  const f = 'src/fdw/common/table_options.c';
  const t = stripComments(read(f));
  const compared = [
    ...strcmpNames(functionBody(t, 'parquet_fdw_validator', f), 'def->defname'),
    ...strcmpNames(functionBody(t, 'pqfdw_get_table_options_as', f), 'def->defname'),
  ];
  check(compared.length >= 10, `${f}: only ${compared.length} option names compared by the validator and reader (parser broken?)`);
  for (const n of new Set(compared))
    check(optionNames.has(n), `${f}: the validator or reader handles option "${n}", which no option table lists`);
  const r = 'src/fdw/remote/remote_options.c';
  const rt = stripComments(read(r));
  for (const n of new Set(strcmpNames(functionBody(rt, 'pqfdw_remote_check_options', r), 'def->defname')))
    check(optionNames.has(n), `${r}: pqfdw_remote_check_options() handles option "${n}", which no option table lists`);
}

// COPY TO and COPY FROM: the names compared and the names of the hint agree.
function copyOptions(kind, file, fn, macro) {
  const t = stripComments(read(file));
  const compared = [...new Set(strcmpNames(functionBody(t, fn, file), 'name'))];
  const listed = definedList(t, macro, file);
  for (const n of compared)
    check(listed.includes(n), `${file}: ${fn}() accepts "${n}", which ${macro} (its hint) does not list`);
  for (const n of listed)
    check(compared.includes(n), `${file}: ${macro} (the hint) lists "${n}", which ${fn}() does not accept`);
  for (const n of compared) add(kind, n, { file });
}
copyOptions('copy_to', 'src/fdw/copy/copy_options.c', 'pqfdw_copy_parse_options', 'VALID_OPTIONS');
copyOptions('copy_from', 'src/fdw/copy/from.c', 'parse_from_options', 'VALID_FROM_OPTIONS');

// IMPORT FOREIGN SCHEMA ... OPTIONS: the key options.
{
  const f = 'src/fdw/common/table_options.c';
  for (const n of strcmpNames(functionBody(stripComments(read(f)), 'pqfdw_key_option', f), 'def->defname'))
    add('import', n, { file: f });
}

// GUCs.
const CONTEXTS = {
  PGC_USERSET: 'user', PGC_SUSET: 'superuser', PGC_SIGHUP: 'sighup', PGC_POSTMASTER: 'postmaster',
  PGC_BACKEND: 'backend', PGC_SU_BACKEND: 'superuser-backend', PGC_INTERNAL: 'internal',
};
const UNITS = { GUC_UNIT_MS: 'ms', GUC_UNIT_S: 's', GUC_UNIT_MIN: 'min', GUC_UNIT_KB: 'kB', GUC_UNIT_MB: 'MB', GUC_UNIT_BYTE: 'B' };
function intValue(expr) {
  const e = expr.replace(/\bINT64CONST\(([^)]*)\)/g, '$1');
  if (!/^[\d\s*+\-/()]+$/.test(e)) return null;
  return Function(`"use strict"; return Math.trunc(${e});`)();
}
for (const { file, text } of sources) {
  for (const m of text.matchAll(/\bDefineCustom(Bool|Int|Real|String|Enum)Variable\s*\(/g)) {
    const { args } = callArgs(text, m.index + m[0].length - 1);
    const type = { Bool: 'boolean', Int: 'integer', Real: 'real', String: 'string', Enum: 'enum' }[m[1]];
    const numeric = type === 'integer' || type === 'real';
    const ctxArg = args[numeric ? 7 : type === 'enum' ? 6 : 5];
    const flagArg = args[numeric ? 8 : type === 'enum' ? 7 : 6] || '';
    const boot = args[4];
    let dflt;
    if (type === 'boolean') dflt = boot === 'true' ? 'on' : boot === 'false' ? 'off' : null;
    else if (type === 'string') dflt = literals(boot)[0] ?? (boot === 'NULL' ? '' : null);
    else if (numeric) dflt = intValue(boot);
    else dflt = boot;
    const unit = Object.entries(UNITS).find(([k]) => new RegExp(`\\b${k}\\b`).test(flagArg));
    const info = {
      file, type, context: CONTEXTS[ctxArg], dflt, unit: unit ? unit[1] : null,
      min: numeric ? intValue(args[5]) : null, max: numeric ? intValue(args[6]) : null,
    };
    check(info.context !== undefined, `${file}: ${m[0]} with an unknown context "${ctxArg}"`);
    check(dflt !== null && dflt !== undefined, `${file}: ${m[0]} with a default the check cannot read: "${boot}"`);
    for (const n of argNames(args[0], `${file}: ${m[0]}`)) add('guc', n, info);
  }
}

// SQL functions of the default version's install script.
const control = read('parquet_fdw.control');
const versionMatch = /^\s*default_version\s*=\s*'([^']+)'/m.exec(control);
if (!versionMatch) fatal('parquet_fdw.control has no default_version');
const defaultVersion = versionMatch[1];
const scriptRel = `sql/parquet_fdw--${defaultVersion}.sql`;
{
  const sql = read(scriptRel).replace(/--[^\n]*/g, '');
  for (const m of sql.matchAll(/\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:(?:parquet_fdw|@extschema@|%I)\.)?"?(\w+)"?\s*\(/gi))
    add('function', m[1], { file: scriptRel });
}

// EXPLAIN fields.
for (const { file, text } of sources) {
  for (const m of text.matchAll(/\bExplainProperty(Text|Integer|UInteger|Float|Bool|List|ListNested)\s*\(/g)) {
    const { args } = callArgs(text, m.index + m[0].length - 1);
    const type = { Text: 'text', Integer: 'integer', UInteger: 'integer', Float: 'float', Bool: 'boolean', List: 'list', ListNested: 'list' }[m[1]];
    const units = /Integer|Float/.test(m[1]) ? literals(args[1]) : [];
    for (const n of argNames(args[0], `${file}: ${m[0]}`)) add('explain', n, { file, types: [type], units });
  }
}

// --list: what the code has, kind by kind (to write the reference's rows)
if (listOnly) {
  for (const [k, m] of Object.entries(code)) {
    console.log(`${k} (${m.size}):`);
    for (const [n, info] of m) {
      const extra = Object.entries(info).filter(([a]) => a !== 'file')
        .map(([a, v]) => `${a}=${JSON.stringify(v)}`).join(' ');
      console.log(`  ${n}  ${info.file}${extra ? `  ${extra}` : ''}`);
    }
  }
  process.exit(0);
}

// ------------------------------------------------------------- reference

// "## heading" -> kind, and the columns its tables must have.
const OPTION_COLUMNS = ['name', 'type', 'default', 'allowed values', 'since', 'meaning'];
const HEADINGS = [
  { re: /^Foreign server options/i, kind: 'server', label: 'foreign server options', title: 'Foreign server options', columns: OPTION_COLUMNS },
  { re: /^User mapping options/i, kind: 'usermapping', label: 'user mapping options', title: 'User mapping options', columns: OPTION_COLUMNS },
  { re: /^Foreign table options/i, kind: 'table', label: 'foreign table options', title: 'Foreign table options', columns: OPTION_COLUMNS },
  { re: /^Column options/i, kind: 'column', label: 'column options', title: 'Column options', columns: OPTION_COLUMNS },
  { re: /^Foreign data wrapper options/i, kind: 'wrapper', label: 'foreign data wrapper options', title: 'Foreign data wrapper options', columns: OPTION_COLUMNS },
  { re: /^COPY TO options/i, kind: 'copy_to', label: 'COPY TO options', title: 'COPY TO options', columns: OPTION_COLUMNS },
  { re: /^COPY FROM options/i, kind: 'copy_from', label: 'COPY FROM options', title: 'COPY FROM options', columns: OPTION_COLUMNS },
  { re: /^IMPORT FOREIGN SCHEMA options/i, kind: 'import', label: 'IMPORT FOREIGN SCHEMA options', title: 'IMPORT FOREIGN SCHEMA options', columns: OPTION_COLUMNS },
  { re: /^Settings/i, kind: 'guc', label: 'settings (GUCs)', title: 'Settings (GUCs)', columns: ['name', 'type', 'default', 'context', 'since', 'meaning'] },
  { re: /^SQL functions/i, kind: 'function', label: 'SQL functions', title: 'SQL functions', columns: ['name', 'arguments', 'returns', 'since', 'meaning'] },
  { re: /^EXPLAIN fields/i, kind: 'explain', label: 'EXPLAIN fields', title: 'EXPLAIN fields', columns: ['name', 'type', 'shown', 'since', 'meaning'] },
];
// Fewer than this many names of a kind on either side: a parser is broken.
const MINIMUM = {
  server: 10, usermapping: 4, table: 15, column: 1, wrapper: 0, copy_to: 30, copy_from: 5,
  import: 3, guc: 10, function: 10, explain: 30,
};

function cells(line) {
  const out = [];
  let cur = '';
  let inCode = false;
  const s = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && s[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (c === '`') {
      inCode = !inCode;
      cur += c;
    } else if (c === '|' && !inCode) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

function versionKey(v) {
  return v.split('.').map(Number).reduce((a, n) => a * 1000 + n, 0);
}

if (!fs.existsSync(refPath)) fatal(`${path.relative(repo, refPath)} does not exist`);
const refLines = fs.readFileSync(refPath, 'utf8').split('\n');
const ref = Object.fromEntries(Object.keys(code).map(k => [k, new Map()]));
const seenHeadings = new Set();
{
  let section = null;
  let fence = false;
  let table = null; // { columns, line }
  refLines.forEach((line, idx) => {
    const where = `docs/reference.md:${idx + 1}`;
    if (/^\s*```/.test(line)) {
      fence = !fence;
      table = null;
      return;
    }
    if (fence) return;
    const h2 = /^##\s+(.*)$/.exec(line);
    if (h2) {
      section = HEADINGS.find(h => h.re.test(h2[1].trim())) || null;
      if (section) seenHeadings.add(section.kind);
      table = null;
      return;
    }
    if (!/^\s*\|/.test(line)) {
      table = null;
      return;
    }
    if (!section) return;
    const row = cells(line);
    if (table === null) {
      table = { columns: row.map(c => c.toLowerCase()), header: true };
      check(JSON.stringify(table.columns) === JSON.stringify(section.columns),
        `${where}: a table of "${section.label}" has the columns | ${row.join(' | ')} |, not | ${section.columns.join(' | ')} |`);
      return;
    }
    if (table.header) {
      table.header = false;
      if (row.every(c => /^:?-{3,}:?$/.test(c))) return;
      check(false, `${where}: a table without a separator line under its header`);
    }
    const columns = table.columns;
    const col = name => row[columns.indexOf(name)] ?? '';
    const nameCode = /`([^`]+)`/.exec(row[0] || '');
    if (!check(nameCode !== null, `${where}: a row of "${section.label}" whose first cell names nothing in \`code\``))
      return;
    let name = nameCode[1].trim();
    if (section.kind === 'function') name = name.replace(/^parquet_fdw\./, '').replace(/\s*\(.*$/, '');
    const since = col('since');
    const version = /\b(\d+\.\d+)\b/.exec(since);
    check(version !== null, `${where}: ${name}: no version in the since column ("${since}")`);
    check(row.length === columns.length, `${where}: ${name}: ${row.length} cells for ${columns.length} columns`);
    check(col('meaning').length > 0, `${where}: ${name}: the meaning is empty`);
    const compat = /compatibility/i.test(row.join(' '));
    const entry = { where, since: version ? version[1] : null, compat, row, col };
    const prev = ref[section.kind].get(name);
    if (prev && !compat && !prev.compat)
      check(false, `${where}: ${name} is documented twice among "${section.label}" (also ${prev.where})`);
    if (!prev || prev.compat) ref[section.kind].set(name, entry);
  });
}

// ------------------------------------------------------------ comparison

const summary = [];
for (const h of HEADINGS) {
  const k = h.kind;
  const inCode = code[k];
  const inRef = ref[k];
  if (inCode.size === 0 && MINIMUM[k] === 0 && !seenHeadings.has(k)) continue;
  check(seenHeadings.has(k), `docs/reference.md has no "## ${h.title}" section`);
  check(inCode.size >= MINIMUM[k], `${h.label}: only ${inCode.size} found in the code (at least ${MINIMUM[k]} expected: parser broken?)`);
  check(inRef.size >= MINIMUM[k], `${h.label}: only ${inRef.size} rows found in docs/reference.md (at least ${MINIMUM[k]} expected)`);
  let missing = 0;
  let unknown = 0;
  let pending = 0;
  for (const [name, info] of inCode)
    if (!check(inRef.has(name), `${h.label}: ${name} (${info.file}) is not in docs/reference.md`)) missing++;
  for (const [name, e] of inRef) {
    if (inCode.has(name)) continue;
    if (e.since && versionKey(e.since) > versionKey(defaultVersion)) {
      pending++;
      console.log(`note ${h.label}: ${name} (${e.where}) is documented for ${e.since}, not in the code of ${defaultVersion} yet`);
      continue;
    }
    unknown++;
    check(false, `${h.label}: ${name} (${e.where}) is documented but not in the code (default_version ${defaultVersion})`);
  }
  // the attributes the code states
  for (const [name, e] of inRef) {
    const info = inCode.get(name);
    if (!info) continue;
    const plain = s => s.replace(/`/g, '').trim();
    if (k === 'guc') {
      const t = plain(e.col('type')).toLowerCase();
      const typeOk = t === info.type || (info.type === 'boolean' && t === 'bool');
      check(typeOk, `${e.where}: ${name}: type "${plain(e.col('type'))}", the code's is ${info.type}`);
      check(plain(e.col('context')) === info.context,
        `${e.where}: ${name}: context "${plain(e.col('context'))}", the code's is ${info.context}`);
      const d = e.col('default');
      let ok;
      if (info.type === 'boolean') ok = new RegExp(`\`${info.dflt}\``).test(d);
      else if (info.type === 'string')
        ok = info.dflt === '' ? /empty|``|`''`/.test(d) : d.includes(`\`${info.dflt}\``);
      else ok = new RegExp(`\`${info.dflt}\``).test(d) && (!info.unit || new RegExp(`\\b${info.unit}\\b`).test(d));
      check(ok, `${e.where}: ${name}: default "${d}", the code's is ${info.dflt === '' ? 'empty' : info.dflt}${info.unit ? ` ${info.unit}` : ''}`);
    } else if (k === 'explain') {
      const t = e.col('type');
      check(info.types.some(ty => new RegExp(`\\b${ty}\\b`, 'i').test(t)),
        `${e.where}: ${name}: type "${t}", the code prints ${info.types.join(' or ')}`);
      for (const u of info.units)
        check(t.includes(u), `${e.where}: ${name}: type "${t}" does not give the unit ${u}`);
    }
  }
  const line = `${h.label}: ${inCode.size} in the code, ${inRef.size} in docs/reference.md` +
    (pending ? ` (${pending} documented for a later version)` : '') +
    `, ${missing} missing from the reference, ${unknown} not in the code`;
  summary.push(line);
}
for (const l of summary) console.log(l);
console.log(`(code: option tables of src/, ${path.relative(repo, refPath)} against ${scriptRel}, default_version ${defaultVersion})`);
console.log(`reference: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
