#!/usr/bin/env node
// Stage docs: every fenced ```sql block of README.md and docs/*.md runs
// against the server (PG* environment variables), so the documentation
// cannot drift from the code.
//
// Per markdown file: a fresh database (for docs/ pages with the extension,
// the server parquet_srv and the library loaded first), the blocks in order
// in one psql session.  A block must raise no ERROR, except one whose first
// line is `-- error: SQLSTATE`, which must raise exactly one ERROR of that
// SQLSTATE.  A block whose first line is `-- not run: REASON` is printed as
// NOT RUN with its reason and counted as neither.  The sample files come
// from test/js/tour_data.mjs (scripts/tour-data.sh), written here first;
// /tmp/parquet_tour/out is emptied before each file.
//
// Usage: node check_docs.mjs [FILE.md ...]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const TOUR = '/tmp/parquet_tour';
const PSQL = process.env.PSQL || 'psql';

/** The fenced sql blocks of a markdown file: {line, text, kind, reason}. */
export function sqlBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```sql\s*$/.exec(lines[i]);
    if (!open) continue;
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j]);
    if (j >= lines.length) throw new Error(`unclosed sql block at line ${i + 1}`);
    const text = body.map((l) => l.slice(open[1].length)).join('\n');
    const first = (body.find((l) => l.trim() !== '') || '').trim();
    let kind = 'ok';
    let reason = null;
    let m;
    if ((m = /^--\s*error:\s*([0-9A-Z]{5})\b/.exec(first))) {
      kind = 'error';
      reason = m[1];
    } else if ((m = /^--\s*not run:\s*(.+)$/.exec(first))) {
      kind = 'skip';
      reason = m[1];
    }
    blocks.push({ line: i + 1, text, kind, reason });
    i = j;
  }
  return blocks;
}

function psql(db, input, extra = []) {
  return spawnSync(PSQL, ['-X', '-q', '-d', db, ...extra], {
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, PGOPTIONS: `${process.env.PGOPTIONS || ''} -c statement_timeout=300s` },
  });
}

function emptyOut() {
  const out = path.join(TOUR, 'out');
  for (const e of fs.readdirSync(out)) fs.rmSync(path.join(out, e), { recursive: true, force: true });
}

/** Run one markdown file's blocks; returns {passed, failed, skipped}. */
function runFile(rel) {
  const file = path.join(repo, rel);
  const blocks = sqlBlocks(fs.readFileSync(file, 'utf8'));
  const res = { passed: 0, failed: 0, skipped: 0 };
  const run = blocks.filter((b) => b.kind !== 'skip');
  for (const b of blocks.filter((x) => x.kind === 'skip')) {
    console.log(`  NOT RUN ${rel}:${b.line}: ${b.reason}`);
    res.skipped++;
  }
  if (run.length === 0) return res;

  const db = `docs_${rel.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase()}`;
  const admin = psql('postgres', `DROP DATABASE IF EXISTS ${db};\nCREATE DATABASE ${db};\n`, ['-v', 'ON_ERROR_STOP=1']);
  if (admin.status !== 0) {
    console.log(`FAIL ${rel}: could not create database ${db}: ${admin.stderr.trim()}`);
    res.failed += run.length;
    return res;
  }
  emptyOut();
  let script = '\\set VERBOSITY verbose\n';
  if (rel !== 'README.md') {
    script += "\\warn @@@ setup\nCREATE EXTENSION parquet_fdw;\nCREATE SERVER parquet_srv FOREIGN DATA WRAPPER parquet_fdw;\nLOAD 'parquet_fdw';\n";
  }
  run.forEach((b, k) => {
    script += `\\warn @@@ block ${k}\n${b.text}\n;\n`;
  });
  script += '\\warn @@@ end\n';
  const r = psql(db, script);
  // stderr holds the markers and every ERROR, in order
  const segments = new Map();
  let current = null;
  for (const line of r.stderr.split('\n')) {
    const m = /^@@@ (block (\d+)|setup|end)$/.exec(line);
    if (m) {
      current = m[2] !== undefined ? Number(m[2]) : m[1];
      segments.set(current, []);
      continue;
    }
    if (current !== null) segments.get(current).push(line);
  }
  const errorsOf = (lines) =>
    lines.map((l) => /(?:^|: )(ERROR|FATAL|PANIC):\s+([0-9A-Z]{5}): (.*)$/.exec(l)).filter(Boolean);

  const setupErrors = errorsOf(segments.get('setup') || []);
  if (setupErrors.length > 0) console.log(`FAIL ${rel}: the page's setup failed: ${setupErrors[0][0]}`);
  const ended = segments.has('end');
  run.forEach((b, k) => {
    const where = `${rel}:${b.line}`;
    if (!segments.has(k)) {
      console.log(`FAIL ${where}: never ran (psql stopped: exit ${r.status}; ${r.stderr.trim().split('\n').slice(-3).join(' | ')})`);
      res.failed++;
      return;
    }
    const errs = errorsOf(segments.get(k));
    let bad = null;
    if (b.kind === 'error') {
      if (errs.length !== 1) bad = `expected one ERROR ${b.reason}, got ${errs.length}${errs.length ? `: ${errs.map((e) => e[0]).join(' | ')}` : ''}`;
      else if (errs[0][2] !== b.reason) bad = `expected ERROR ${b.reason}, got ${errs[0][2]}: ${errs[0][3]}`;
    } else if (errs.length > 0) {
      bad = `${errs[0][1]} ${errs[0][2]}: ${errs[0][3]}`;
    }
    if (bad) {
      console.log(`FAIL ${where}: ${bad}`);
      res.failed++;
    } else res.passed++;
  });
  if (!ended) {
    console.log(`FAIL ${rel}: psql did not reach the end (exit ${r.status})`);
    res.failed++;
  }
  psql('postgres', `DROP DATABASE IF EXISTS ${db};\n`);
  return res;
}

function main() {
  let files = process.argv.slice(2);
  if (files.length === 0) {
    files = ['README.md', ...fs.readdirSync(path.join(repo, 'docs'))
      .filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  }
  const gen = spawnSync('node', [path.join(here, 'tour_data.mjs'), TOUR], { encoding: 'utf8' });
  if (gen.status !== 0) {
    console.log(`could not write the tour data: ${gen.stderr}`);
    console.log('docs: 0 passed, 1 failed');
    process.exit(1);
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const rel of files) {
    const r = runFile(rel);
    const total = r.passed + r.failed + r.skipped;
    if (total > 0) {
      console.log(`${rel}: ${r.passed} of ${total - r.skipped} blocks ran as documented${r.skipped ? `, ${r.skipped} NOT RUN` : ''}`);
    }
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
  }
  if (passed + failed === 0) {
    console.log('no sql blocks found: the parser is broken');
    failed++;
  }
  if (skipped) console.log(`${skipped} blocks NOT RUN (reasons above)`);
  console.log(`docs: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
