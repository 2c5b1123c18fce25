#!/usr/bin/env node
// META.json against the PGXN Meta Spec v1 (the JSON Schemas of
// github.com/pgxn/meta in schema/, validated by Ajv), and against the tree:
// the version PGXN sees is parquet_fdw.control's default_version, and the
// file it names is that version's install script.  Prints
// "meta: N passed, N failed".  Usage: node check_meta.mjs [META.json]
// schema/ is pgxn/meta's schema/v1 at commit 53f43ea8 (v0.7.0), PostgreSQL
// License (LICENSE-schema.md); run "npm ci" here first (ajv, ajv-formats).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const metaPath = process.argv[2] || path.join(repo, 'META.json');

// The schemas' patterns are written for Rust's regex crate: its POSIX and
// Unicode class names become JavaScript's (same sets of characters).
const rustClasses = [
  ['[:digit:]', '0-9'],
  ['\\p{Space}', '\\p{White_Space}'],
  ['\\p{Cntrl}', '\\p{Cc}'],
  ['\\p{lower}', '\\p{Lowercase}'],
];
function regExp(src, flags) {
  let js = src;
  for (const [rust, ecma] of rustClasses) js = js.split(rust).join(ecma);
  return new RegExp(js, flags);
}
regExp.code = 'regExp';

const ajv = new Ajv2020({ allErrors: true, strict: false, code: { regExp } });
addFormats(ajv);
// pgxn/meta's own "path" format (src/valid/compiler/mod.rs): a relative
// path, "./" allowed in front, with no "." or ".." component.
ajv.addFormat('path', (p) => !p.startsWith('/') &&
  !p.replace(/^\.\//, '').split('/').some((c) => c === '.' || c === '..'));
for (const f of fs.readdirSync(path.join(here, 'schema')))
  ajv.addSchema(JSON.parse(fs.readFileSync(path.join(here, 'schema', f), 'utf8')));
const validate = ajv.getSchema('https://pgxn.org/meta/v1/distribution.schema.json');

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
}

const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8'));
check('META.json is valid against the PGXN Meta Spec v1 schema', validate(meta),
  ajv.errorsText(validate.errors));

// The validator must catch what the spec forbids (else the check above
// proves nothing): a missing required key, a prereq that is not a version,
// a license outside the spec's list.
const broken = [
  ['without "provides"', (m) => delete m.provides],
  ['with a prereq version "15+"', (m) => { m.prereqs.runtime.requires.PostgreSQL = '15+'; }],
  ['with license "PostgreSQL License"', (m) => { m.license = 'PostgreSQL License'; }],
  ['with an unknown top-level key', (m) => { m.system_libraries = []; }],
  ['with provides\' file "../x.sql"', (m) => { m.provides[m.name].file = '../x.sql'; }],
];
for (const [what, mutate] of broken) {
  const m = structuredClone(meta);
  mutate(m);
  check(`the schema rejects META.json ${what}`, !validate(m));
}

// The tree: control file, install script, semantic version of it.
const control = fs.readFileSync(path.join(repo, `${meta.name}.control`), 'utf8');
const defaultVersion = /^default_version\s*=\s*'([^']+)'/m.exec(control)?.[1];
const ext = meta.provides?.[meta.name];
check('provides names the extension of the control file', Boolean(ext && defaultVersion));
const semver = `${defaultVersion}${defaultVersion?.split('.').length === 2 ? '.0' : ''}`;
check(`provides' version is default_version ${defaultVersion} as semver`, ext?.version === semver,
  `${ext?.version} != ${semver}`);
check('the distribution version is the extension version', meta.version === ext?.version);
check(`provides' file is sql/${meta.name}--${defaultVersion}.sql and exists`,
  ext?.file === `sql/${meta.name}--${defaultVersion}.sql` && fs.existsSync(path.join(repo, ext.file)),
  ext?.file);

console.log(`meta: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
