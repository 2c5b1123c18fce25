// A local S3 for the tests that read buckets through PostgreSQL: s3rver on
// loopback behind sigv4_front.mjs (which checks every signature with the
// AWS SDK's own signer, since s3rver checks none), with buckets made and
// objects put through s3rver's own unsigned API: the test's view of the
// bucket, independent of the code under test.
//
// s3rver makes listing continuation tokens with DES, which OpenSSL 3 keeps
// in its legacy provider: scripts that list more than 1,000 keys call
// needLegacyOpenSsl() first, which runs the script again with it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import S3rver from 's3rver';
import { startSigV4Front } from './sigv4_front.mjs';

export function needLegacyOpenSsl(scriptUrl) {
  if (process.execArgv.includes('--openssl-legacy-provider')) return;
  const r = spawnSync(process.execPath, ['--openssl-legacy-provider', ...process.execArgv,
    new URL(scriptUrl).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const keyPath = (k) => k.split('/').map(encodeURIComponent).join('/');

// s3rver keeps every object as a folder of files: on tmpfs, writing
// 10,000 objects takes half the time it does on disk.
function storeBase() {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
}

/**
 * Start the emulator.  credentials: Map key id -> { secret, token };
 * buckets: names to make; publicBuckets: those anonymous requests may read.
 * Returns { endpoint, emu, storedFile, put, putFile, putDir, head, del, stats, stop }.
 */
export async function startS3({ credentials, buckets, publicBuckets = [] }) {
  const dir = fs.mkdtempSync(path.join(storeBase(), 'pqfdw_s3rver_'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port: upstream } = await s3rver.run();
  const emu = `http://127.0.0.1:${upstream}`;
  async function emuFetch(method, p, body) {
    const r = await fetch(`${emu}${p}`, { method, body });
    if (r.status >= 300 && !(method === 'HEAD' && r.status === 404))
      throw new Error(`s3rver ${method} ${p}: ${r.status}`);
    return r;
  }
  for (const b of buckets) await emuFetch('PUT', `/${b}`);
  const front = await startSigV4Front(upstream, credentials, new Set(publicBuckets));
  const put = (bucket, key, body) => emuFetch('PUT', `/${bucket}/${keyPath(key)}`, body);
  const putFile = (bucket, key, file) => put(bucket, key, fs.readFileSync(file));
  // s3rver fails (500) under many concurrent puts into new folders: 8 at once
  async function putDir(bucket, prefix, localDir, files) {
    for (let i = 0; i < files.length; i += 8)
      await Promise.all(files.slice(i, i + 8).map((f) => putFile(bucket, `${prefix}${f}`, path.join(localDir, f))));
  }
  async function head(bucket, key) {
    const r = await emuFetch('HEAD', `/${bucket}/${keyPath(key)}`);
    return r.status === 404 ? null : { size: Number(r.headers.get('content-length')), etag: r.headers.get('etag') };
  }
  const del = (bucket, key) => emuFetch('DELETE', `/${bucket}/${keyPath(key)}`);
  async function stop() {
    await front.close();
    await s3rver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // the object's bytes as s3rver holds them, or null
  async function get(bucket, key) {
    const r = await fetch(`${emu}/${bucket}/${keyPath(key)}`);
    return r.status === 404 ? null : Buffer.from(await r.arrayBuffer());
  }
  async function list(bucket, prefix = '') {
    const keys = [];
    let token = null;
    do {
      const q = new URLSearchParams({ 'list-type': '2', prefix });
      if (token) q.set('continuation-token', token);
      const body = await (await fetch(`${emu}/${bucket}?${q}`)).text();
      for (const m of body.matchAll(/<Key>([^<]*)<\/Key>/g))
        keys.push(m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&'));
      token = /<IsTruncated>true<\/IsTruncated>/.test(body) ? (/<NextContinuationToken>([^<]*)</.exec(body) || [])[1] : null;
    } while (token);
    return keys;
  }
  // where s3rver keeps an object's bytes (its filesystem store's layout)
  const storedFile = (bucket, key) => path.join(dir, bucket, `${key}._S3rver_object`);
  return { endpoint: `http://127.0.0.1:${front.port}`, emu, storedFile, put, putFile, putDir, head, get, list, del, stats: front.stats,
    uploads: front.uploads, setFault: front.setFault, stop };
}
