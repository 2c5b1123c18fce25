#!/usr/bin/env node
// Verify a Parquet Modular Encryption file with the independent JS verifier
// (lib/pme.mjs) and print its report as JSON:
//
//   node test/js/verify_encryption.mjs FILE --footer-key HEX
//        [--column-key dotted.path=HEX ...] [--aad-prefix STR]
//
// Exit status: 0 verified (chunks whose column key was not given are listed
// as "not verified (no key)" and counted on stderr); 1 verification failed
// (report.errors); 2 usage error; 3 nothing failed but the file could not be
// verified (report.needs: footer key, AAD prefix or external key material).

import fs from 'node:fs';
import { verifyEncryptedFile } from './lib/pme.mjs';

function usage(msg) {
  console.error(`verify_encryption: ${msg}`);
  console.error('usage: node verify_encryption.mjs FILE --footer-key HEX [--column-key path=HEX ...] [--aad-prefix STR]');
  process.exit(2);
}

function hexKey(s, what) {
  if (!/^([0-9a-fA-F]{2})+$/.test(s ?? ''))
    usage(`${what}: "${s}" is not hex`);
  return Buffer.from(s, 'hex');
}

const args = process.argv.slice(2);
const keys = { columnKeys: {} };
let file = null;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--footer-key') {
    keys.footerKey = hexKey(args[++i], '--footer-key');
  } else if (a === '--column-key') {
    const v = args[++i] ?? '';
    const eq = v.lastIndexOf('=');
    if (eq <= 0)
      usage(`--column-key wants path=HEX, got "${v}"`);
    keys.columnKeys[v.slice(0, eq)] = hexKey(v.slice(eq + 1), `--column-key ${v.slice(0, eq)}`);
  } else if (a === '--aad-prefix') {
    if (i + 1 >= args.length)
      usage('--aad-prefix wants a value');
    keys.aadPrefix = Buffer.from(args[++i], 'utf8');
  } else if (a.startsWith('-')) {
    usage(`unknown option ${a}`);
  } else if (file === null) {
    file = a;
  } else {
    usage(`more than one file: ${file}, ${a}`);
  }
}
if (file === null)
  usage('no file');

let bytes;
try {
  bytes = fs.readFileSync(file);
} catch (e) {
  usage(`cannot read ${file}: ${e.message}`);
}
const report = verifyEncryptedFile(bytes, keys);
console.log(JSON.stringify({ file, ...report }, null, 2));
if (report.unverifiedColumns)
  console.error(`verify_encryption: ${report.unverifiedColumns} column chunk(s) not verified (no key)`);
process.exit(report.errors.length ? 1 : report.needs ? 3 : 0);
