#!/usr/bin/env node
// Independent check of the Delta checkpoint reader (src/table/delta/
// checkpoint.c) against DuckDB's reading of the same Parquet files:
//
//   make delta_checkpoint_cli && node test/js/check_delta_checkpoints.mjs [--dir TABLE_FORMATS_DIR] [--cli PATH]
//
// Every checkpoint file under <table-formats>/delta (golden and kernel-data:
// *.checkpoint*.parquet of _delta_log, and the v2 checkpoints' sidecars of
// _delta_log/_sidecars), read in place: the CLI's JSON lines must be, line
// for line, DuckDB's to_json() of each row's non-null action columns, in the
// order add, remove, metaData, protocol, sidecar, checkpointMetadata (the
// typed copies stats_parsed and partitionValues_parsed left out of add and
// remove, as the reader leaves them out).  Lines are compared as parsed
// JSON: numbers by exact value, objects by key set, an absent member equal
// to a null one.  Each line must also parse as strict JSON without a name
// given twice in one object (what the log replay's parser refuses), and the
// CLI's --replay run of the same lines is shown (a replay refusal of what
// the file holds, e.g. a metaData without schemaString, is not a failure of
// the reader).
//
// One "PASS <file>" / "FAIL <file>: <first difference>" line per file, then
// "delta_checkpoints: N passed, N failed".  Without the test data the suite
// reports NOT RUN (a failure under CI=true).

import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { parseJsonExact, normNumber } from './lib/canon.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const CLI = opt('--cli') || path.join(REPO, 'test', 'unit', 'delta_checkpoint_cli');
const ACTIONS = ['add', 'remove', 'metaData', 'protocol', 'sidecar', 'checkpointMetadata'];
const TYPED_COPIES = ['stats_parsed', 'partitionValues_parsed'];
const SUITE = 'delta_checkpoints';

function findDelta() {
  const cands = [opt('--dir'), process.env.TABLE_FORMATS_DIR, path.resolve(REPO, '..', 'shared', 'testdata', 'table-formats')];
  for (const c of cands) if (c && fs.existsSync(path.join(c, 'delta'))) return fs.realpathSync(path.join(c, 'delta'));
  return null;
}

/** Checkpoint files under dir: Parquet files of a _delta_log or its _sidecars. */
function checkpointFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = e.isSymbolicLink() ? fs.statSync(p) : e;
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && !e.name.startsWith('.') && e.name.endsWith('.parquet')) {
        const parent = path.basename(d);
        const inLog = parent === '_delta_log' && /\.checkpoint\./.test(e.name);
        const sidecar = parent === '_sidecars' && path.basename(path.dirname(d)) === '_delta_log';
        if (inLog || sidecar) out.push(p);
      }
    }
  };
  walk(dir);
  return out.sort();
}

// ------------------------------------------------------------ canonical JSON

const isNum = (v) => v !== null && typeof v === 'object' && !(v instanceof Map) && !Array.isArray(v) && typeof v.text === 'string';

/** Canonical text of parseJsonExact output: nulls in objects dropped, keys sorted. */
function canon(v) {
  if (v === null || typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'string') return `s${JSON.stringify(v)}`;
  if (isNum(v)) return `n:${normNumber(v.text)}`;
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  const keys = [...v.keys()].filter((k) => v.get(k) !== null).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canon(v.get(k))}`).join(',')}}`;
}

/**
 * Strict JSON (JSON.parse) with no object holding a name twice: a scan of
 * the text's objects, names decoded as JSON.parse decodes them.
 */
function strictProblem(line) {
  try {
    JSON.parse(line);
  } catch (e) {
    return `not JSON: ${e.message}`;
  }
  const stack = [];
  let p = 0;
  while (p < line.length) {
    const c = line[p];
    if (c === '"') {
      let end = p + 1;
      while (line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
      const s = JSON.parse(line.slice(p, end + 1));
      p = end + 1;
      let q = p;
      while (' \t\n\r'.includes(line[q])) q++;
      const top = stack[stack.length - 1];
      if (line[q] === ':' && top instanceof Set) {
        if (top.has(s)) return `name ${JSON.stringify(s)} given twice in one object`;
        top.add(s);
      }
      continue;
    }
    if (c === '{') stack.push(new Set());
    else if (c === '[') stack.push(null);
    else if (c === '}' || c === ']') stack.pop();
    p++;
  }
  return null;
}

// ------------------------------------------------------------------ readers

async function duckLines(file) {
  const cols = (await duckQuery(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`)).rows.map((r) => String(r[0]));
  const present = ACTIONS.filter((a) => cols.includes(a));
  if (present.length === 0) return [];
  const sel = present.map((a) => `to_json("${a}")::VARCHAR AS "${a}"`).join(', ');
  const res = await duckQuery(`SELECT ${sel} FROM read_parquet(${sqlString(file)}, file_row_number = true) ORDER BY file_row_number`);
  const lines = [];
  for (const row of res.rows) {
    present.forEach((a, i) => {
      if (row[i] === null) return;
      const obj = parseJsonExact(String(row[i]));
      if (obj === null) return;
      if (a === 'add' || a === 'remove') for (const k of TYPED_COPIES) obj.delete(k);
      lines.push({ action: a, value: obj });
    });
  }
  return lines;
}

function cliRun(cliArgs) {
  try {
    return { ok: true, out: execFileSync(CLI, cliArgs, { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8') };
  } catch (e) {
    return { ok: false, out: `${e.stdout || ''}${e.stderr || ''}`.trim() };
  }
}

async function checkFile(file) {
  const run = cliRun([file]);
  if (!run.ok) return `CLI failed: ${run.out.split('\n')[0]}`;
  const text = run.out;
  if (text.length > 0 && !text.endsWith('\n')) return 'output does not end with a newline';
  const got = text.length ? text.slice(0, -1).split('\n') : [];
  const want = await duckLines(file);
  for (let i = 0; i < got.length; i++) {
    const bad = strictProblem(got[i]);
    if (bad) return `line ${i + 1}: ${bad}`;
  }
  if (got.length !== want.length) return `${got.length} lines, DuckDB has ${want.length} actions`;
  for (let i = 0; i < got.length; i++) {
    const g = parseJsonExact(got[i]);
    if (!(g instanceof Map) || g.size !== 1) return `line ${i + 1}: not an object of one action`;
    const [name, value] = [...g][0];
    if (name !== want[i].action) return `line ${i + 1}: action ${name}, DuckDB has ${want[i].action}`;
    const a = canon(value);
    const b = canon(want[i].value);
    if (a !== b) return `line ${i + 1} (${name}): ${a.slice(0, 300)} != DuckDB ${b.slice(0, 300)}`;
  }
  const replay = cliRun(['--replay', file]);
  return { lines: got.length, replay: replay.out.split('\n')[0] };
}

async function main() {
  const delta = findDelta();
  if (!delta) {
    console.log(`!!!!!!!! WARNING: Delta test tables NOT FOUND (looked at --dir, $TABLE_FORMATS_DIR and ../shared/testdata/table-formats, for delta/): ${SUITE} suite NOT RUN !!!!!!!!`);
    console.log(`${SUITE}: 0 passed, 0 failed`);
    return process.env.CI === 'true' ? 1 : 0;
  }
  if (!fs.existsSync(CLI)) {
    console.log(`FAIL ${SUITE}: ${CLI} is not built (make delta_checkpoint_cli)`);
    console.log(`${SUITE}: 0 passed, 1 failed`);
    return 1;
  }
  const files = checkpointFiles(delta);
  let passed = 0;
  let failed = 0;
  for (const f of files) {
    const rel = path.relative(delta, f);
    let r;
    try {
      r = await checkFile(f);
    } catch (e) {
      r = `${e.message.split('\n')[0]}`;
    }
    if (typeof r === 'string') {
      failed++;
      console.log(`FAIL ${rel}: ${r}`);
    } else {
      passed++;
      console.log(`PASS ${rel}: ${r.lines} lines (${r.replay})`);
    }
  }
  if (files.length === 0) {
    failed++;
    console.log(`FAIL ${SUITE}: no checkpoint files under ${delta}`);
  }
  console.log(`${SUITE}: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then((rc) => process.exit(rc), (e) => {
  console.error(e);
  console.log(`${SUITE}: 0 passed, 1 failed`);
  process.exit(1);
});
