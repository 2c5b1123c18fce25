// Azure's own emulator, azurite, on a free loopback port, and a Shared Key
// signer written from Azure's documentation ("Authorize with Shared Key",
// version 2015-02-21 and later) for putting fixtures up: azurite checks
// every signature, so the test's view of the container is azurite's.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const azuriteBin = path.join(path.dirname(require.resolve('azurite/package.json')), 'dist/src/blob/main.js');

export const ACCOUNT = 'devstoreaccount1';
export const KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** Start azurite; returns { endpoint, az, putBlob, blobPath, stop }. */
export async function startAzurite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw_azurite_'));
  const azurite = spawn(process.execPath, [azuriteBin, '--blobHost', '127.0.0.1', '--blobPort', '0',
    '--location', dir, '--silent', '--disableTelemetry', '--skipApiVersionCheck'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const kill = () => azurite.kill();
  process.on('exit', kill);
  const port = await new Promise((resolve, reject) => {
    let out = '';
    azurite.stdout.on('data', (d) => {
      out += d;
      const m = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    azurite.on('exit', (c) => reject(new Error(`azurite exited ${c}`)));
  });
  const endpoint = `http://127.0.0.1:${port}/${ACCOUNT}`;
  async function az(method, p, { query = {}, body, headers = {} } = {}) {
    const h = { 'x-ms-date': new Date().toUTCString(), 'x-ms-version': '2021-08-06', ...headers };
    if (body !== undefined) h['content-length'] = String(body.length);
    const ms = Object.keys(h).filter((k) => k.startsWith('x-ms-')).sort().map((k) => `${k}:${h[k]}\n`).join('');
    const q = Object.keys(query).sort().map((k) => `\n${k}:${query[k]}`).join('');
    const sts = [method, '', '', body && body.length ? String(body.length) : '', '', h['content-type'] || '', '', '', '', '', '', ''].join('\n') +
      '\n' + ms + `/${ACCOUNT}/${ACCOUNT}${p}` + q;
    h.authorization = `SharedKey ${ACCOUNT}:${crypto.createHmac('sha256', Buffer.from(KEY, 'base64')).update(sts, 'utf8').digest('base64')}`;
    const qs = new URLSearchParams(query).toString();
    const r = await fetch(`${endpoint}${p}${qs ? '?' + qs : ''}`, { method, headers: h, body });
    if (r.status >= 300) throw new Error(`azurite ${method} ${p}: ${r.status} ${await r.text()}`);
    return r;
  }
  const blobPath = (c, name) => `/${c}/${name.split('/').map(encodeURIComponent).join('/')}`;
  const putBlob = (c, name, body) => az('PUT', blobPath(c, name), { body, headers: { 'x-ms-blob-type': 'BlockBlob' } });
  async function stop() {
    process.off('exit', kill);
    azurite.kill();
    await new Promise((r) => (azurite.exitCode !== null ? r() : azurite.on('exit', r)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { endpoint, az, putBlob, blobPath, stop };
}
