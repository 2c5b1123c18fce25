#!/usr/bin/env node
// A KMS behind parquet_fdw's kms_command, for tests: what a Vault or cloud
// KMS client script does, with master keys from a JSON file ({ id: hex }).
//
//   node kms_test_command.mjs STATE_DIR MODE %o %i %u
//
// STATE_DIR/master_keys.json holds the keys; every call is appended to
// STATE_DIR/calls.log as "operation master_id url" (never a key), so that
// tests count KMS calls.  Its wrapped keys are "testkms:" + base64 of nonce,
// AES-GCM ciphertext and tag with the master key id as AAD: unlike the key
// store's wrapping, so a file only this KMS can open proves the command ran.
// MODE: ok; fail (exit 3); sleep (hangs); garbage (prints a non-key);
// bad-wrap (prints a wrapped key with a control character); deaf (hangs
// without reading stdin, so that a large input fills the pipe).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const [dir, mode, op, id, url] = process.argv.slice(2);
fs.appendFileSync(path.join(dir, 'calls.log'), `${op} ${id} ${url}\n`);
const input = mode === 'deaf' ? '' : fs.readFileSync(0, 'utf8').trim();

if (mode === 'fail') {
  process.stderr.write('test KMS: refusing on purpose\n');
  process.exit(3);
}
if (mode === 'sleep' || mode === 'deaf') {
  setTimeout(() => {}, 3600e3);
} else if (mode === 'garbage') {
  process.stdout.write('not a key\n');
} else if (mode === 'bad-wrap' && op === 'wrap') {
  process.stdout.write('testkms:\u0001\n');
} else {
  const keys = JSON.parse(fs.readFileSync(path.join(dir, 'master_keys.json'), 'utf8'));
  if (!(id in keys)) {
    process.stderr.write(`test KMS: no master key ${id}\n`);
    process.exit(4);
  }
  const master = Buffer.from(keys[id], 'hex');
  const alg = `aes-${master.length * 8}-gcm`;
  if (op === 'wrap') {
    const nonce = crypto.randomBytes(12);
    const c = crypto.createCipheriv(alg, master, nonce).setAAD(Buffer.from(id));
    const ct = Buffer.concat([c.update(Buffer.from(input, 'base64')), c.final()]);
    process.stdout.write(`testkms:${Buffer.concat([nonce, ct, c.getAuthTag()]).toString('base64')}\n`);
  } else if (op === 'unwrap') {
    if (!input.startsWith('testkms:')) {
      process.stderr.write('test KMS: not a key this KMS wrapped\n');
      process.exit(5);
    }
    const w = Buffer.from(input.slice(8), 'base64');
    const d = crypto.createDecipheriv(alg, master, w.subarray(0, 12)).setAAD(Buffer.from(id));
    d.setAuthTag(w.subarray(w.length - 16));
    const key = Buffer.concat([d.update(w.subarray(12, w.length - 16)), d.final()]);
    process.stdout.write(`${key.toString('base64')}\n`);
  } else {
    process.stderr.write(`test KMS: unknown operation ${op}\n`);
    process.exit(6);
  }
}
