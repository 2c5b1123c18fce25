#!/usr/bin/env node
// Independent check of the VARIANT decoder (src/format/variant/variant.c,
// format/variant/shredded.c) against test/js/lib/variant.mjs, a second decoder
// written from the spec, and against the corpus's documented values:
//
//   make variant_cli && node test/js/check_variant.mjs [--random N] [--seed S]
//
//   binary    every metadata/value pair in parquet-testing variant/: the
//             CLI's JSON equals the JS decoder's byte for byte, and equals
//             data_dictionary.json semantically (numbers exact; see
//             compareDictionary for the dictionary's own spellings)
//   bin       every shredded_variant/*.variant.bin: CLI = JS, byte for byte
//   random    N random Variant values (every primitive type, objects and
//             arrays with every offset/id width and is_large): CLI = JS
//   mutated   the corpus and random encodings with bytes flipped, cut or
//             appended: CLI and JS agree (same JSON, or both an ERROR with
//             the same SQLSTATE); the CLI runs under ASan/UBSan
//   tree      every shredded_variant case: hyparquet assembles the Parquet
//             file's VARIANT group (standing in for our record assembler),
//             the CLI reconstructs it (pq_variant_group_to_json) and the
//             result must equal the JS decoding of the case's .variant.bin,
//             SQL NULL where cases.json has no variant, ERROR XX001 for the
//             error cases and the -INVALID files
//
//   node test/js/check_variant.mjs --shredded
//
//   Every shredded_variant case read through PostgreSQL (PG* environment,
//   e.g. scripts/cluster.sh, extension installed): a foreign table
//   (id int, var jsonb) over case-NNN.parquet; each row's jsonb must equal
//   the JS decoding of the expected .variant.bin semantically (jsonb
//   re-spells numbers and orders keys its own way); error cases must fail
//   with SQLSTATE XX001. Needs the record assembler; last line
//   "variant_shredded: N passed, N failed".
//
// Last line of the default run: "variant: N passed, N failed".

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import {
  VariantError, decodeVariant, metadataLength, toJson, compareBytes, floatText,
} from './lib/variant.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const CLI = opt('--cli', path.join(REPO, 'test', 'unit', 'variant_cli'));
const NRANDOM = Number(opt('--random', 3000));
const SEED = BigInt(opt('--seed', 20250416));

function findCorpus() {
  const cands = [process.env.PARQUET_TESTING_DIR, path.resolve(REPO, '..', 'shared', 'testdata', 'parquet-testing')];
  for (const c of cands) {
    if (c && fs.existsSync(path.join(c, 'variant')) && fs.existsSync(path.join(c, 'shredded_variant'))) return path.resolve(c);
  }
  return null;
}
const CORPUS = findCorpus();
if (!CORPUS) {
  console.log('!!!!!!!! WARNING: parquet-testing corpus NOT FOUND (looked at $PARQUET_TESTING_DIR and ../shared/testdata/parquet-testing): VARIANT checks NOT RUN !!!!!!!!');
  console.log(`${process.argv.includes('--shredded') ? 'variant_shredded' : 'variant'}: 0 passed, 0 failed`);
  process.exit(process.env.CI === 'true' ? 1 : 0);
}
const VDIR = path.join(CORPUS, 'variant');
const SDIR = path.join(CORPUS, 'shredded_variant');

let passed = 0;
let failed = 0;
const failures = [];
function result(ok, what, detail) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(`${what}: ${detail}`);
    console.log(`FAIL ${what}: ${detail}`);
  }
}

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw-variant-'));
process.on('exit', () => fs.rmSync(TMP, { recursive: true, force: true }));

// ------------------------------------------------------------- helpers

/** The JS decoder's verdict: { json } or { error: sqlstate }. */
function jsRender(meta, value) {
  try {
    return { json: toJson(decodeVariant(meta, value)) };
  } catch (err) {
    if (err instanceof VariantError) return { error: err.sqlstate, message: err.message };
    throw err;
  }
}

/** Run the CLI on many (metadata, value) pairs at once: one result per pair. */
function cliBatch(pairs) {
  const parts = [];
  for (const [m, v] of pairs) {
    const lm = Buffer.alloc(4); lm.writeUInt32LE(m.length);
    const lv = Buffer.alloc(4); lv.writeUInt32LE(v.length);
    parts.push(lm, Buffer.from(m), lv, Buffer.from(v));
  }
  const file = path.join(TMP, 'batch.bin');
  fs.writeFileSync(file, Buffer.concat(parts));
  const out = execFileSync(CLI, ['batch', file], { maxBuffer: 1 << 30 }).toString('utf8');
  const lines = out.split('\n');
  lines.pop();
  if (lines.length !== pairs.length) throw new Error(`variant_cli printed ${lines.length} lines for ${pairs.length} values`);
  return lines.map(parseCliLine);
}

function parseCliLine(line) {
  const m = /^ERROR (\w{5}) (.*)$/.exec(line);
  if (m) return { error: m[1], message: m[2] };
  if (line === 'NULL') return { sqlNull: true };
  return { json: line };
}

const show = (r) => (r.error ? `ERROR ${r.error} ${r.message || ''}` : r.sqlNull ? 'NULL' : r.json);

function sameVerdict(c, j) {
  if (c.error || j.error) return c.error === j.error;
  return c.json === j.json;
}

// ---- a JSON parser that keeps number literals as text (and tolerates the
// trailing comma data_dictionary.json has)

function parseJsonExact(text) {
  let i = 0;
  const ws = () => { while (i < text.length && /\s/.test(text[i])) i++; };
  const fail = (why) => { throw new Error(`JSON ${why} at ${i}`); };
  function value() {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      const out = c === '{' ? { k: 'obj', map: new Map() } : { k: 'arr', items: [] };
      for (;;) {
        ws();
        if (text[i] === close) { i++; return out; }
        if (c === '{') {
          const key = value();
          if (key.k !== 'str') fail('key');
          ws();
          if (text[i++] !== ':') fail('colon');
          if (out.map.has(key.v)) fail(`duplicate key ${key.v}`);
          out.map.set(key.v, value());
        } else out.items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== close) fail('separator');
      }
    }
    if (c === '"') {
      const start = i;
      i++;
      while (text[i] !== '"') { if (text[i] === '\\') i++; i++; if (i > text.length) fail('string'); }
      i++;
      return { k: 'str', v: JSON.parse(text.slice(start, i)) };
    }
    const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!m) fail('value');
    i += m[0].length;
    if (m[0] === 'true' || m[0] === 'false') return { k: 'bool', v: m[0] === 'true' };
    if (m[0] === 'null') return { k: 'null' };
    return { k: 'num', text: m[0] };
  }
  const v = value();
  ws();
  if (i !== text.length) fail('trailing text');
  return v;
}

/** Exact value of a decimal literal: { neg, digits (no leading/trailing 0), exp } */
function decimalKey(text) {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  let digits = m[2] + (m[3] || '');
  let exp = Number(m[4] || 0) - (m[3] || '').length;
  digits = digits.replace(/^0+/, '');
  if (!digits) return '0';
  while (digits.endsWith('0')) { digits = digits.slice(0, -1); exp++; }
  return `${m[1]}${digits}e${exp}`;
}

/** Semantic equality of two parsed JSON values (numbers by exact value). */
function jsonEqual(a, b, where = '$') {
  if (a.k !== b.k) return `${where}: ${a.k} vs ${b.k}`;
  switch (a.k) {
    case 'num':
      return decimalKey(a.text) === decimalKey(b.text) ? null : `${where}: ${a.text} vs ${b.text}`;
    case 'str':
    case 'bool':
      return a.v === b.v ? null : `${where}: ${JSON.stringify(a.v)} vs ${JSON.stringify(b.v)}`;
    case 'null':
      return null;
    case 'arr':
      if (a.items.length !== b.items.length) return `${where}: ${a.items.length} vs ${b.items.length} elements`;
      for (let i = 0; i < a.items.length; i++) {
        const d = jsonEqual(a.items[i], b.items[i], `${where}[${i}]`);
        if (d) return d;
      }
      return null;
    case 'obj': {
      const ka = [...a.map.keys()].sort();
      const kb = [...b.map.keys()].sort();
      if (ka.join('\u0000') !== kb.join('\u0000')) return `${where}: keys ${ka} vs ${kb}`;
      for (const k of ka) {
        const d = jsonEqual(a.map.get(k), b.map.get(k), `${where}.${k}`);
        if (d) return d;
      }
      return null;
    }
  }
  return `${where}: unknown`;
}

// ---- data_dictionary.json compares through the typed tree, because the
// dictionary spells some values its own way (Spark/Python): floats as
// doubles ("1234567940.0" for the float 1.2345679e+09), decimal16 as a
// double, timestamps with a space or a -04:00 offset, and a time of day
// as "12:33:54:123456".

function instant(s) {
  const m = /^(\d{4,})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.:](\d+))?(Z|[+-]\d\d(?::?\d\d)?)?$/.exec(s);
  if (!m) return null;
  const days = BigInt(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86400000);
  let ns = ((days * 24n + BigInt(m[4])) * 60n + BigInt(m[5])) * 60n + BigInt(m[6]);
  ns = ns * 1000000000n + BigInt((m[7] || '').padEnd(9, '0').slice(0, 9) || 0);
  if (m[8] && m[8] !== 'Z') {
    const sign = m[8][0] === '-' ? -1n : 1n;
    const hh = BigInt(m[8].slice(1, 3));
    const mm = BigInt(m[8].replace(':', '').slice(3, 5) || 0);
    ns -= sign * (hh * 60n + mm) * 60000000000n;
  }
  return { ns, zoned: !!m[8] };
}

function timeOfDay(s) {
  const m = /^(\d\d):(\d\d):(\d\d)(?:[.:](\d+))?(\+00:00)?$/.exec(s);
  if (!m) return null;
  return ((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n + BigInt(m[3])) * 1000000000n +
    BigInt((m[4] || '').padEnd(9, '0').slice(0, 9) || 0);
}

function float32(x) { return Math.fround(x); }

/** null when `ours` (parsed CLI JSON, typed by `node`) matches the dictionary's `dict`. */
function compareDictionary(node, ours, dict, where = '$', notes = []) {
  const bad = (why) => `${where}: ${why}`;
  switch (node.t) {
    case 'float':
      if (dict.k !== 'num' || ours.k !== 'num') return bad('float kinds');
      if (float32(Number(ours.text)) !== float32(Number(dict.text))) return bad(`float ${ours.text} vs ${dict.text}`);
      if (decimalKey(ours.text) !== decimalKey(dict.text)) notes.push(`${where}: float ${ours.text} = ${dict.text} as float4`);
      return null;
    case 'double':
      if (dict.k !== 'num' || ours.k !== 'num') return bad('double kinds');
      return Number(ours.text) === Number(dict.text) ? null : bad(`double ${ours.text} vs ${dict.text}`);
    case 'decimal':
      if (dict.k !== 'num' || ours.k !== 'num') return bad('decimal kinds');
      if (decimalKey(ours.text) === decimalKey(dict.text)) return null;
      // the dictionary went through a double: accept only an exponent-form literal
      if (/[eE]/.test(dict.text) && Number(ours.text) === Number(dict.text)) {
        notes.push(`${where}: decimal ${ours.text} ~ ${dict.text} (a double in the dictionary)`);
        return null;
      }
      return bad(`decimal ${ours.text} vs ${dict.text}`);
    case 'timestamp': {
      if (dict.k !== 'str' || ours.k !== 'str') return bad('timestamp kinds');
      const a = instant(ours.v);
      const b = instant(dict.v);
      if (!a || !b) return bad(`unparsable timestamp ${ours.v} / ${dict.v}`);
      if (a.ns !== b.ns || a.zoned !== b.zoned) return bad(`timestamp ${ours.v} vs ${dict.v}`);
      if (ours.v !== dict.v) notes.push(`${where}: ${ours.v} = ${dict.v}`);
      return null;
    }
    case 'time': {
      if (dict.k !== 'str' || ours.k !== 'str') return bad('time kinds');
      const a = timeOfDay(ours.v);
      const b = timeOfDay(dict.v);
      if (a === null || b === null || a !== b) return bad(`time ${ours.v} vs ${dict.v}`);
      if (ours.v !== dict.v) notes.push(`${where}: ${ours.v} = ${dict.v}`);
      return null;
    }
    case 'array':
      if (dict.k !== 'arr' || ours.k !== 'arr' || dict.items.length !== node.items.length) return bad('array shape');
      for (let i = 0; i < node.items.length; i++) {
        const d = compareDictionary(node.items[i], ours.items[i], dict.items[i], `${where}[${i}]`, notes);
        if (d) return d;
      }
      return null;
    case 'object': {
      if (dict.k !== 'obj' || ours.k !== 'obj' || dict.map.size !== node.fields.length) return bad('object shape');
      for (const [kb, child] of node.fields) {
        const k = Buffer.from(kb).toString('utf8');
        if (!dict.map.has(k)) return bad(`key ${k} missing in dictionary`);
        const d = compareDictionary(child, ours.map.get(k), dict.map.get(k), `${where}.${k}`, notes);
        if (d) return d;
      }
      return null;
    }
    default:
      return jsonEqual(ours, dict, where);
  }
}

// ------------------------------------------------------------- binary

function checkBinary() {
  const dictionary = parseJsonExact(fs.readFileSync(path.join(VDIR, 'data_dictionary.json'), 'utf8'));
  const names = fs.readdirSync(VDIR).filter((f) => f.endsWith('.metadata')).map((f) => f.slice(0, -9)).sort();
  const pairs = names.map((n) => [fs.readFileSync(path.join(VDIR, `${n}.metadata`)), fs.readFileSync(path.join(VDIR, `${n}.value`))]);
  const cli = cliBatch(pairs);
  let withDict = 0;
  for (let i = 0; i < names.length; i++) {
    const js = jsRender(...pairs[i]);
    const what = `binary ${names[i]}`;
    if (cli[i].error || js.error) {
      result(false, what, `CLI ${show(cli[i])}, JS ${show(js)}`);
      continue;
    }
    result(cli[i].json === js.json, `${what} (CLI = JS)`, `CLI ${cli[i].json} | JS ${js.json}`);
    if (dictionary.map.has(names[i])) {
      withDict++;
      const notes = [];
      const d = compareDictionary(decodeVariant(...pairs[i]), parseJsonExact(cli[i].json), dictionary.map.get(names[i]), '$', notes);
      result(!d, `${what} (data_dictionary.json)`, d);
      for (const n of notes) console.log(`  note ${names[i]}: ${n}`);
    } else console.log(`  ${names[i]}: not in data_dictionary.json (CLI = JS only)`);
  }
  const missing = [...dictionary.map.keys()].filter((k) => !names.includes(k));
  result(missing.length === 0, 'binary: every data_dictionary.json entry has files', missing.join(', '));
  console.log(`binary: ${names.length} pairs, ${withDict} with a dictionary value`);
}

// ---------------------------------------------------------- .variant.bin

function variantBinFiles() {
  return fs.readdirSync(SDIR).filter((f) => f.endsWith('.variant.bin')).sort();
}

function splitBin(bytes) {
  const ml = metadataLength(bytes);
  return [bytes.subarray(0, ml), bytes.subarray(ml)];
}

function checkBin() {
  const files = variantBinFiles();
  const pairs = files.map((f) => splitBin(new Uint8Array(fs.readFileSync(path.join(SDIR, f)))));
  const cli = cliBatch(pairs);
  for (let i = 0; i < files.length; i++) {
    const js = jsRender(...pairs[i]);
    result(!js.error && sameVerdict(cli[i], js), `bin ${files[i]}`, `CLI ${show(cli[i])} | JS ${show(js)}`);
  }
  console.log(`bin: ${files.length} .variant.bin files`);
}

// ------------------------------------------------------------- random

// xorshift32, seeded: the same run every time unless --seed changes
let rng = Number(SEED % 4294967295n) || 1;
function rand32() {
  rng ^= rng << 13; rng >>>= 0;
  rng ^= rng >>> 17;
  rng ^= rng << 5; rng >>>= 0;
  return rng;
}
const rand64 = () => (BigInt(rand32()) << 32n) | BigInt(rand32());
const randInt = (n) => rand32() % n;
const randBytes = (n) => Uint8Array.from({ length: n }, () => randInt(256));
const pick = (arr) => arr[randInt(arr.length)];

function le(v, width) {
  const out = new Uint8Array(width);
  let x = BigInt.asUintN(width * 8, BigInt(v));
  for (let i = 0; i < width; i++) { out[i] = Number(x & 0xffn); x >>= 8n; }
  return out;
}
const cat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};
const widthFor = (max) => (max < 256 ? 1 : max < 65536 ? 2 : max < 1 << 24 ? 3 : 4);

const WORDS = ['a', 'b', 'ab', 'é', 'zz', 'key', 'Key', 'k\u0000', 'tab\t', 'quote"', 'back\\', '日本', '🐢', ''];
const STRINGS = ['', 'x', 'hello world', 'h\u00e9llo', 'line\nbreak', '\u0001\u001f', 'quote " back \\ slash /',
  '🐢💖♥️', 'a'.repeat(63), 'b'.repeat(64), 'c'.repeat(300), '\u2028\u2029'];

function randomPrimitive() {
  const t = randInt(24);
  const special = (bits) => pick(bits);
  switch (t) {
    case 0: return [0x00];
    case 1: return [0x04];
    case 2: return [0x08];
    case 3: return cat([3 << 2], le(pick([0, 1, -1, 127, -128, randInt(256)]), 1));
    case 4: return cat([4 << 2], le(pick([0, 32767, -32768, randInt(65536)]), 2));
    case 5: return cat([5 << 2], le(pick([0, 2147483647, -2147483648, rand64()]), 4));
    case 6: return cat([6 << 2], le(pick([0n, (1n << 63n) - 1n, -(1n << 63n), rand64()]), 8));
    case 7: return cat([7 << 2], le(special([rand64(), rand64(), rand64(), 0x7ff0000000000000n, 0xfff0000000000000n,
      0x7ff8000000000000n, 0x8000000000000000n, 1n, 0x0010000000000000n, 0x7fefffffffffffffn, rand64() & 0x000fffffffffffffn]), 8));
    case 8: return cat([8 << 2, randInt(39)], le(rand64(), 4));
    case 9: return cat([9 << 2, randInt(39)], le(rand64(), 8));
    case 10: return cat([10 << 2, randInt(39)], le((rand64() << 64n) | rand64(), 16));
    case 11: return cat([11 << 2], le(pick([0, -1, 20194, -719163, 2147483647, -2147483648, rand64()]), 4));
    case 12: case 13: case 18: case 19:
      return cat([t << 2], le(pick([0n, -1n, 1744806896780000n, (1n << 63n) - 1n, -(1n << 63n), rand64()]), 8));
    case 14: return cat([14 << 2], le(special([rand64(), rand64(), rand64(), 0x7f800000n, 0xff800000n, 0x7fc00000n,
      0x80000000n, 1n, 0x4e932c06n, rand64() & 0x7fffffn]), 4));
    case 15: { const b = randBytes(randInt(40)); return cat([15 << 2], le(b.length, 4), b); }
    case 16: { const s = new TextEncoder().encode(pick(STRINGS)); return cat([16 << 2], le(s.length, 4), s); }
    case 17: return cat([17 << 2], le(pick([0n, 86400000000n, 45234123456n, rand64() % 86400000001n]), 8));
    case 20: return cat([20 << 2], randBytes(16));
    default: { // short string
      const s = new TextEncoder().encode(pick(STRINGS).slice(0, 20));
      return cat([(s.length << 2) | 1], s);
    }
  }
}

/** A random value (bytes) using keys from dict (array of strings). */
function randomValue(dict, depth) {
  const r = randInt(10);
  if (depth > 3 || r < 5) return randomPrimitive();
  // sometimes more than 255 elements (then primitives only)
  const n = randInt(r === 9 ? 300 : 6);
  const children = Array.from({ length: n }, () => (n > 6 ? randomPrimitive() : randomValue(dict, depth + 1)));
  const data = cat(...children);
  // offsets: elements in order, or (objects) shuffled placement
  const offs = [];
  let o = 0;
  for (const c of children) { offs.push(o); o += c.length; }
  const offSize = Math.max(widthFor(data.length), randInt(5) === 0 ? 4 : 1);
  const large = n > 255 || randInt(4) === 0;
  const count = le(n, large ? 4 : 1);
  const offBytes = cat(...offs.map((x) => le(x, offSize)), le(data.length, offSize));
  if (r % 2 === 0) {
    return cat([((large ? 1 : 0) << 2 | (offSize - 1)) << 2 | 3], count, offBytes, data);
  }
  // object: distinct keys, ids sorted by key bytes
  const ids = [...new Set(Array.from({ length: n }, () => randInt(dict.length)))];
  const enc = new TextEncoder();
  ids.sort((a, b) => compareBytes(enc.encode(dict[a]), enc.encode(dict[b])));
  const k = ids.length;
  const kids = children.slice(0, k);
  const perm = kids.map((_, i) => i).sort(() => randInt(3) - 1); // values stored in any order
  const placed = [];
  const offsets = new Array(k);
  let pos = 0;
  for (const i of perm) { offsets[i] = pos; placed.push(kids[i]); pos += kids[i].length; }
  const odata = cat(...placed);
  const oSize = Math.max(widthFor(odata.length), randInt(5) === 0 ? 3 : 1);
  const idSize = Math.max(widthFor(dict.length), randInt(5) === 0 ? 4 : 1);
  const olarge = k > 255 || randInt(4) === 0;
  return cat([((olarge ? 1 : 0) << 4 | (idSize - 1) << 2 | (oSize - 1)) << 2 | 2], le(k, olarge ? 4 : 1),
    ...ids.map((id) => le(id, idSize)), ...offsets.map((x) => le(x, oSize)), le(odata.length, oSize), odata);
}

function encodeMetadata(dict) {
  const enc = new TextEncoder();
  const strs = dict.map((s) => enc.encode(s));
  const total = strs.reduce((n, s) => n + s.length, 0);
  const osz = Math.max(widthFor(Math.max(total, dict.length)), randInt(4) === 0 ? 4 : 1);
  const offs = [];
  let o = 0;
  for (const s of strs) { offs.push(o); o += s.length; }
  offs.push(o);
  return cat([1 | (randInt(2) << 4) | ((osz - 1) << 6)], le(dict.length, osz), ...offs.map((x) => le(x, osz)), ...strs);
}

function randomPairs(n) {
  const pairs = [];
  for (let i = 0; i < n; i++) {
    const dict = [...new Set(Array.from({ length: 1 + randInt(12) }, () => pick(WORDS) + (randInt(3) ? '' : String(randInt(99)))))];
    pairs.push([encodeMetadata(dict), randomValue(dict, 0)]);
  }
  return pairs;
}

function checkRandom(pairs) {
  const cli = cliBatch(pairs);
  let bad = 0;
  for (let i = 0; i < pairs.length; i++) {
    const js = jsRender(...pairs[i]);
    if (js.error || !sameVerdict(cli[i], js)) {
      bad++;
      if (bad <= 10) console.log(`FAIL random #${i}: CLI ${show(cli[i]).slice(0, 300)} | JS ${show(js).slice(0, 300)}`);
    }
  }
  if (bad > 10) console.log(`  ... ${bad - 10} more random failures`);
  passed += pairs.length - bad;
  failed += bad;
  console.log(`random: ${pairs.length} values, ${bad} disagreements`);
}

function mutate([m, v]) {
  const which = randInt(2) ? 'v' : 'm';
  let b = Uint8Array.from(which === 'v' ? v : m);
  const k = randInt(4);
  if (k === 0 && b.length) b[randInt(b.length)] ^= 1 << randInt(8);
  else if (k === 1 && b.length) b[randInt(b.length)] = randInt(256);
  else if (k === 2) b = b.subarray(0, randInt(b.length + 1));
  else b = cat(b, randBytes(1 + randInt(3)));
  return which === 'v' ? [m, b] : [b, v];
}

function checkMutated(seeds, n) {
  const pairs = Array.from({ length: n }, () => mutate(pick(seeds)));
  const cli = cliBatch(pairs);
  let bad = 0;
  let errors = 0;
  for (let i = 0; i < pairs.length; i++) {
    const js = jsRender(...pairs[i]);
    if (js.error) errors++;
    if (!sameVerdict(cli[i], js)) {
      bad++;
      if (bad <= 10) {
        console.log(`FAIL mutated #${i}: CLI ${show(cli[i]).slice(0, 200)} | JS ${show(js).slice(0, 200)}`);
        console.log(`  metadata ${Buffer.from(pairs[i][0]).toString('hex').slice(0, 200)} value ${Buffer.from(pairs[i][1]).toString('hex').slice(0, 200)}`);
      }
    }
  }
  passed += pairs.length - bad;
  failed += bad;
  console.log(`mutated: ${pairs.length} values (${errors} invalid), ${bad} disagreements`);
}

// --------------------------------------------------------------- tree

const LT = {
  STRING: 1, MAP: 2, LIST: 3, ENUM: 4, DECIMAL: 5, DATE: 6, TIME: 7, TIMESTAMP: 8, INTEGER: 10, NULL: 11,
  UNKNOWN: 11, JSON: 12, BSON: 13, UUID: 14, FLOAT16: 15, VARIANT: 16, GEOMETRY: 17, GEOGRAPHY: 18,
};
const PHYS = { BOOLEAN: 0, INT32: 1, INT64: 2, INT96: 3, FLOAT: 4, DOUBLE: 5, BYTE_ARRAY: 6, FIXED_LEN_BYTE_ARRAY: 7 };
const REP = { REQUIRED: 0, OPTIONAL: 1, REPEATED: 2 };
const UNIT = { MILLIS: 1, MICROS: 2, NANOS: 3 };

/** Resolved logical type of an element, as the reader's format/metadata/schema.c resolves it. */
function resolvedType(el) {
  const t = { id: 0, scale: 0, precision: 0, utc: 0, unit: 0, bits: 0, signed: 0 };
  const lt = el.logical_type;
  if (lt && LT[lt.type] !== undefined) {
    t.id = LT[lt.type];
    if (lt.type === 'DECIMAL') { t.scale = lt.scale; t.precision = lt.precision; }
    if (lt.type === 'TIME' || lt.type === 'TIMESTAMP') { t.utc = lt.isAdjustedToUTC ? 1 : 0; t.unit = UNIT[lt.unit]; }
    if (lt.type === 'INTEGER') { t.bits = lt.bitWidth; t.signed = lt.isSigned ? 1 : 0; }
    return t;
  }
  const ct = el.converted_type;
  if (!ct) return t;
  const m = /^(U?)INT_(\d+)$/.exec(ct);
  if (m) return { ...t, id: LT.INTEGER, bits: Number(m[2]), signed: m[1] ? 0 : 1 };
  switch (ct) {
    case 'UTF8': return { ...t, id: LT.STRING };
    case 'LIST': return { ...t, id: LT.LIST };
    case 'MAP': case 'MAP_KEY_VALUE': return { ...t, id: LT.MAP };
    case 'ENUM': return { ...t, id: LT.ENUM };
    case 'DECIMAL': return { ...t, id: LT.DECIMAL, scale: el.scale || 0, precision: el.precision || 0 };
    case 'DATE': return { ...t, id: LT.DATE };
    case 'TIME_MILLIS': case 'TIME_MICROS': return { ...t, id: LT.TIME, utc: 1, unit: ct.endsWith('MILLIS') ? 1 : 2 };
    case 'TIMESTAMP_MILLIS': case 'TIMESTAMP_MICROS': return { ...t, id: LT.TIMESTAMP, utc: 1, unit: ct.endsWith('MILLIS') ? 1 : 2 };
    case 'JSON': return { ...t, id: LT.JSON };
    case 'BSON': return { ...t, id: LT.BSON };
    case 'INTERVAL': return { ...t, id: 1001 };
    default: return t;
  }
}

/** Schema elements (flat, depth first) -> tree of { el, children }. */
function schemaTree(schema) {
  let i = 0;
  const build = () => {
    const el = schema[i++];
    const node = { el, children: [] };
    for (let k = 0; k < (el.num_children || 0); k++) node.children.push(build());
    return node;
  };
  return build();
}

function describeNode(node, out) {
  const el = node.el;
  const t = resolvedType(el);
  const leaf = node.children.length === 0 && el.num_children === undefined;
  out.push(['node', Buffer.from(el.name, 'utf8').toString('hex'), REP[el.repetition_type || 'OPTIONAL'], leaf ? 1 : 0,
    leaf ? PHYS[el.type] : -1, el.type_length || 0, t.id, t.scale, t.precision, t.utc, t.unit, t.bits, t.signed,
    node.children.length].join(' '));
  for (const c of node.children) describeNode(c, out);
}

const isListNode = (node) => node.el.converted_type === 'LIST' || node.el.logical_type?.type === 'LIST';

/** hyparquet's assembled value of `node` -> the CLI's value tokens. */
function describeValue(node, v, out) {
  if (v === null || v === undefined) { out.push('n'); return; }
  if (node.children.length === 0) {
    switch (node.el.type) {
      case 'BOOLEAN': out.push(`b ${v ? 1 : 0}`); return;
      case 'INT32': out.push(`i ${v}`); return;
      case 'INT64': out.push(`l ${BigInt(v)}`); return;
      case 'FLOAT': out.push(`f ${Buffer.from(new Float32Array([v]).buffer).readUInt32LE().toString(16)}`); return;
      case 'DOUBLE': out.push(`d ${Buffer.from(new Float64Array([v]).buffer).readBigUInt64LE().toString(16)}`); return;
      case 'BYTE_ARRAY': case 'FIXED_LEN_BYTE_ARRAY': out.push(`s ${Buffer.from(v).toString('hex') || '-'}`); return;
      default: throw new Error(`harness: physical type ${node.el.type} not supported`);
    }
  }
  if (isListNode(node)) {
    // LIST group -> its repeated child -> the element (hyparquet gives the elements)
    const rep = node.children[0];
    out.push('g 1', `L ${v.length}`);
    for (const item of v) {
      out.push(`g ${rep.children.length}`);
      if (rep.children.length !== 1) throw new Error('harness: list with more than one child');
      describeValue(rep.children[0], item, out);
    }
    return;
  }
  out.push(`g ${node.children.length}`);
  for (const c of node.children) describeValue(c, v[c.el.name], out);
}

/** Read a case's Parquet file with hyparquet, annotations below VARIANT removed. */
async function assembleWithHyparquet(file) {
  const b = fs.readFileSync(file);
  const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  const original = parquetMetadata(ab);
  const md = parquetMetadata(ab);
  // raw physical values: no conversions, no variant decoding by hyparquet
  for (const el of md.schema) {
    if (el.logical_type?.type === 'VARIANT') delete el.logical_type;
    if (el.num_children === undefined) { delete el.logical_type; delete el.converted_type; }
  }
  const rows = await parquetReadObjects({ file: ab, metadata: md, utf8: false });
  const root = schemaTree(original.schema);
  const varNode = root.children.find((c) => c.el.name === 'var');
  if (!varNode) throw new Error('no var column');
  const out = [];
  describeNode(varNode, out);
  out.push(`rows ${rows.length}`);
  for (const r of rows) describeValue(varNode, r.var, out);
  return { text: out.join('\n') + '\n', ids: rows.map((r) => r.id) };
}

function casesList() {
  return JSON.parse(fs.readFileSync(path.join(SDIR, 'cases.json'), 'utf8'));
}

/**
 * The -INVALID files whose notes let a reader "choose to error, or read the
 * shredded value": an ERROR XX001, or rows equal to the case's .variant.bin.
 * (DuckDB and hyparquet-writer write case 84's optional field groups, so
 * parquet_fdw reads them.)
 */
function mayReadInvalid(c) {
  return !c.error_message && /-INVALID/.test(c.parquet_file) && /choose to error, or read/.test(c.notes || '');
}

/** Expected result per row: { json } | { sqlNull } | { error: 'XX001' } | null (whole file errors). */
function expectations(c, readingInvalid = false) {
  if (c.error_message || (/-INVALID/.test(c.parquet_file) && !readingInvalid)) return null;
  const files = c.variant_files || [c.variant_file];
  return files.map((f) => {
    if (f === null) return { sqlNull: true };
    const r = jsRender(...splitBin(new Uint8Array(fs.readFileSync(path.join(SDIR, f)))));
    if (r.error) throw new Error(`JS cannot decode ${f}: ${r.message}`);
    return r;
  });
}

async function checkTree() {
  let cases = 0;
  for (const c of casesList()) {
    if (!c.parquet_file) {
      console.log(`  tree: case ${c.case_number} has no files in cases.json`);
      continue;
    }
    cases++;
    const what = `tree case-${String(c.case_number).padStart(3, '0')} (${c.test})`;
    let assembled;
    try {
      assembled = await assembleWithHyparquet(path.join(SDIR, c.parquet_file));
    } catch (err) {
      result(false, what, `hyparquet could not assemble ${c.parquet_file}: ${err.message}`);
      continue;
    }
    const file = path.join(TMP, 'tree.txt');
    fs.writeFileSync(file, assembled.text);
    const got = execFileSync(CLI, ['tree', file], { maxBuffer: 1 << 30 }).toString('utf8').split('\n').slice(0, -1).map(parseCliLine);
    let expected = expectations(c);
    if (expected === null && mayReadInvalid(c) && !got.some((g) => g.error)) expected = expectations(c, true);
    if (expected === null) {
      const err = got.find((g) => g.error);
      result(err && err.error === 'XX001', what, `expected ERROR XX001 (${c.error_message || 'INVALID file'}), got ${got.map(show).join(' / ')}`);
      if (err) console.log(`  ${what}: ${show(err)}`);
      continue;
    }
    if (got.length !== expected.length) {
      result(false, what, `${got.length} rows, expected ${expected.length}`);
      continue;
    }
    for (let i = 0; i < got.length; i++) {
      result(sameVerdict(got[i], expected[i]) && !!got[i].sqlNull === !!expected[i].sqlNull,
        `${what} row ${i}`, `got ${show(got[i])}, expected ${show(expected[i])}`);
    }
  }
  console.log(`tree: ${cases} shredded cases`);
}

// ----------------------------------------------------------- --shredded

/*
 * The JS reference prints floats with its own exact search; PostgreSQL
 * (whose Ryu the C side calls) must print the same text for the float that
 * text reads back as.  Random bit patterns, a quarter with low bytes
 * cleared (powers of two, short decimals, subnormals).
 */
async function checkFloatsWithPg(c) {
  let bad = 0;
  let n = 0;
  for (const [kind, typ, w] of [['double', 'float8', 8], ['float', 'float4', 4]]) {
    const texts = [];
    for (let i = 0; i < 10000; i++) {
      const b = randBytes(w);
      if (i % 4 === 1) b.fill(0, 0, w - 2);
      const t = floatText(b, kind);
      if (!t.startsWith('"')) texts.push(t);
    }
    const r = await c.query(`SELECT x, x::${typ}::text AS y FROM unnest($1::text[]) x`, [texts]);
    for (const row of r.rows) {
      n++;
      if (row.x !== row.y) {
        bad++;
        if (bad <= 10) console.log(`FAIL ${kind}: JS ${row.x}, PostgreSQL ${row.y}`);
      }
    }
  }
  passed += n - bad;
  failed += bad;
  console.log(`floats: ${n} JS float texts, ${bad} differ from PostgreSQL's`);
}

async function checkShredded() {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ options: '-c TimeZone=UTC -c statement_timeout=60000' });
  c.on('error', () => {});
  await c.connect();
  await checkFloatsWithPg(c);
  await c.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
  await c.query('CREATE SERVER IF NOT EXISTS parquet_srv FOREIGN DATA WRAPPER parquet_fdw');
  for (const cs of casesList()) {
    if (!cs.parquet_file) {
      console.log(`  case ${cs.case_number} has no files in cases.json`);
      continue;
    }
    const what = `pg case-${String(cs.case_number).padStart(3, '0')} (${cs.test})`;
    const file = path.join(SDIR, cs.parquet_file);
    let expected = expectations(cs);
    let rows;
    try {
      await c.query('DROP FOREIGN TABLE IF EXISTS variant_case');
      await c.query(`CREATE FOREIGN TABLE variant_case (id int, var jsonb) SERVER parquet_srv
                     OPTIONS (filename '${file.replace(/'/g, "''")}')`);
      rows = (await c.query({ text: 'SELECT id, var::text FROM variant_case', rowMode: 'array' })).rows;
    } catch (err) {
      if (expected === null) result(err.code === 'XX001', what, `expected SQLSTATE XX001, got ${err.code}: ${err.message}`);
      else result(false, what, `ERROR ${err.code}: ${err.message}`);
      continue;
    }
    if (expected === null && mayReadInvalid(cs)) {
      expected = expectations(cs, true);
      console.log(`  ${what}: INVALID file read (allowed by its notes); rows must equal ${cs.variant_file}`);
    }
    if (expected === null) {
      result(false, what, `expected ERROR XX001 (${cs.error_message || 'INVALID file'}), got ${rows.length} rows`);
      continue;
    }
    if (rows.length !== expected.length) {
      result(false, what, `${rows.length} rows, expected ${expected.length}`);
      continue;
    }
    for (let i = 0; i < rows.length; i++) {
      const got = rows[i][1];
      const exp = expected[i];
      if (exp.sqlNull || got === null) {
        result(!!exp.sqlNull && got === null, `${what} row ${i}`, `got ${got}, expected ${show(exp)}`);
        continue;
      }
      const d = jsonEqual(parseJsonExact(got), parseJsonExact(exp.json));
      result(!d, `${what} row ${i}`, `${d}: got ${got}, expected ${exp.json}`);
    }
  }
  await c.end();
}

// --------------------------------------------------------------- main

async function main() {
  if (args.includes('--shredded')) {
    await checkShredded();
    console.log(`variant_shredded: ${passed} passed, ${failed} failed`);
    process.exitCode = failed ? 1 : 0;
    return;
  }
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} not found: make variant_cli`);
  checkBinary();
  checkBin();
  const rnd = randomPairs(NRANDOM);
  checkRandom(rnd);
  const seeds = [
    ...fs.readdirSync(VDIR).filter((f) => f.endsWith('.metadata')).map((f) => [
      new Uint8Array(fs.readFileSync(path.join(VDIR, f))), new Uint8Array(fs.readFileSync(path.join(VDIR, f.replace(/\.metadata$/, '.value'))))]),
    ...variantBinFiles().map((f) => splitBin(new Uint8Array(fs.readFileSync(path.join(SDIR, f))))),
    ...rnd.slice(0, 500),
  ];
  checkMutated(seeds, NRANDOM * 3);
  await checkTree();
  console.log(`variant: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  console.log(`variant: ${passed} passed, ${failed + 1} failed`);
  process.exitCode = 1;
});
