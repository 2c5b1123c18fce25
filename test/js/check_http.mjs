#!/usr/bin/env node
// The HTTP transport (src/io/http/) against a fault-injecting object server
// on loopback (lib/fault_server.mjs), through test/unit/http_cli (ASan +
// UBSan):
//
//   make http_cli && node test/js/check_http.mjs
//
// Each scenario's expected bytes are the server's own object sliced in
// Node; expected errors are the SQLSTATEs of docs (58030 I/O, 28000 for
// 403, 58P01 for 404, HV021 for an object replaced during a read, 42501
// for a link-local address, 57014 for a cancel).  HTTPS uses a CA the test
// makes with openssl.
//
// Last line: "http: N passed, N failed".
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import { startFaultServer } from './lib/fault_server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cli = path.join(root, 'test/unit/http_cli');

let passed = 0;
let failed = 0;
function check(ok, what) {
	if (ok)
		passed++;
	else {
		failed++;
		console.log(`FAIL ${what}`);
	}
}

// Run the CLI on commands; resolves to the JSON lines it printed.
function runCli(commands) {
	return new Promise((resolve, reject) => {
		const p = spawn(cli, [], { stdio: ['pipe', 'pipe', 'inherit'] });
		let out = '';
		p.stdout.on('data', d => out += d);
		p.on('error', reject);
		p.on('close', code => {
			if (code !== 0)
				return reject(new Error(`http_cli exited ${code}`));
			resolve(out.trim().split('\n').filter(Boolean).map(l => JSON.parse(l)));
		});
		p.stdin.end(commands.map(c => c.join('\t')).join('\n') + '\n');
	});
}

const sha = b => crypto.createHash('sha256').update(b).digest('hex');
const rnd = n => crypto.randomBytes(n);
const objects = new Map([
	['tiny', Buffer.from('PAR1')],
	['small', rnd(100 * 1024)],
	['big', rnd(3 * 1024 * 1024 + 17)],
]);

const server = await startFaultServer(objects);
const base = `http://127.0.0.1:${server.port}`;
const fast = [['set', 'retry_base_ms', '10'], ['set', 'max_retries', '3']];

async function scenario(name, commands, verify) {
	const t0 = Date.now();
	let res;
	try {
		res = await runCli([...commands, ['run']]);
	} catch (e) {
		check(false, `${name}: ${e.message}`);
		return;
	}
	verify(res, Date.now() - t0);
}

const slice = (name, first, len) => objects.get(name).subarray(first, first + len);
const okRange = (r, name, first, len) =>
	r && r.status === 206 && r.len === len && r.sha256 === sha(slice(name, first, len));

// whole objects and ranges
await scenario('ranges', [
	['get', `${base}/ok/small`, '0', String(objects.get('small').length)],
	['get', `${base}/ok/big`, '1000', '65536'],
	['get', `${base}/ok/big`, String(objects.get('big').length - 8), '8'],
	['get', `${base}/ok/tiny`, '0', '4'],
], res => {
	check(okRange(res[0], 'small', 0, objects.get('small').length), 'ranges: a whole object as one range');
	check(okRange(res[1], 'big', 1000, 65536), 'ranges: a range in the middle');
	check(okRange(res[2], 'big', objects.get('big').length - 8, 8), 'ranges: the last 8 bytes (a footer tail)');
	check(res[2].object_size === objects.get('big').length, 'ranges: the object size from Content-Range');
	check(okRange(res[3], 'tiny', 0, 4), 'ranges: a 4-byte object');
	check(res.every(r => r.attempts === 1), 'ranges: one attempt each');
});

await scenario('head', [['head', `${base}/ok/big`]], res => {
	check(res[0].status === 200 && res[0].content_length === objects.get('big').length && /^"[0-9a-f]{16}-v1"$/.test(res[0].etag),
		`head: status, Content-Length and ETag (${JSON.stringify(res[0])})`);
});

// many ranges, a bounded number in flight, connections kept alive
server.resetStats();
const many = [];
for (let i = 0; i < 40; i++)
	many.push(['get', `${base}/delay/big`, String(i * 70000), '65536']);
await scenario('concurrency', [['set', 'max_in_flight', '4'], ...many], res => {
	check(res.length === 40 && res.every((r, i) => okRange(r, 'big', i * 70000, 65536)), 'concurrency: 40 ranges, all right');
	check(server.maxInFlight() === 4, `concurrency: 4 in flight at once, no more (saw ${server.maxInFlight()})`);
	check(server.connections() <= 4, `concurrency: connections reused (${server.connections()} opened for 40 requests)`);
});

// retries
await scenario('503 with Retry-After', [...fast, ['get', `${base}/flaky503/small`, '0', '1000']], (res, ms) => {
	check(okRange(res[0], 'small', 0, 1000) && res[0].attempts === 3, `503: third attempt succeeds (${JSON.stringify(res[0])})`);
	check(ms >= 2000, `503: Retry-After: 1 honoured twice (${ms} ms)`);
});
await scenario('429', [...fast, ['get', `${base}/flaky429/small`, '0', '1000']], res => {
	check(okRange(res[0], 'small', 0, 1000) && res[0].attempts === 3, '429: retried with backoff');
});
await scenario('reset mid-body', [...fast, ['get', `${base}/reset/big`, '0', '2000000']], res => {
	check(okRange(res[0], 'big', 0, 2000000) && res[0].attempts === 2, `reset: retried (${JSON.stringify(res[0])})`);
});
await scenario('slow first byte', [...fast, ['set', 'idle_timeout_ms', '1000'], ['get', `${base}/slow/small`, '0', '100']], res => {
	check(okRange(res[0], 'small', 0, 100) && res[0].attempts === 2, `slow: timed out, then retried (${JSON.stringify(res[0])})`);
});
await scenario('wrong Content-Range', [...fast, ['get', `${base}/badrange/small`, '10', '100']], res => {
	check(okRange(res[0], 'small', 10, 100) && res[0].attempts === 2, `badrange: refused, then retried (${JSON.stringify(res[0])})`);
});
await scenario('Range ignored', [['get', `${base}/ignorerange/big`, '5000', '4096']], res => {
	check(res[0].status === 200 && res[0].sha256 === sha(slice('big', 5000, 4096)), 'ignorerange: the range taken from a 200');
});

// final errors
const wantError = (res, state, re, what) =>
	check(res[0].error === state && re.test(res[0].message), `${what}: ${JSON.stringify(res[0])}`);
await scenario('always 503', [...fast, ['get', `${base}/always503/small`, '0', '10']], res => {
	wantError(res, '58030', /after 4 attempts: HTTP status 503/, 'always503: 58030 after 1 + 3 retries');
	check(res[0].attempts && res[0].attempts[0] === 4 && server.counts.get('/always503/small') === 4, 'always503: 4 requests reached the server');
});
await scenario('always a wrong range', [...fast, ['get', `${base}/alwaysbadrange/small`, '10', '100']], res => {
	wantError(res, '58030', /after 4 attempts: got 100 of 100 bytes at offset 10 \(Content-Range 11-110\)/, 'alwaysbadrange');
});
await scenario('403', [['get', `${base}/forbidden/small`, '0', '10']], res => {
	wantError(res, '28000', /could not read ".*\/forbidden\/small": HTTP status 403\|The store answered AccessDenied: Access Denied/, '403: 28000 with the store\'s code and message');
	check(res[0].attempts[0] === 1, '403: not retried');
});
await scenario('404', [['get', `${base}/missing/small`, '0', '10']], res => {
	wantError(res, '58P01', /HTTP status 404\|The store answered NoSuchKey: The specified key does not exist\./, '404: 58P01');
});
await scenario('404 handled', [['set', 'ok_404', '1'], ['head', `${base}/missing/x`]], res => {
	check(res[0].status === 404, '404: left to a caller that asked for it');
});
await scenario('replaced', [['head', `${base}/replaced/small`]], async () => {});
{
	const etag = `"${crypto.createHash('md5').update(objects.get('small')).digest('hex').slice(0, 16)}-v1"`;
	await scenario('replaced object', [['get', `${base}/replaced/small`, '0', '10', etag]], res => {
		wantError(res, 'HV021', /object ".*\/replaced\/small" changed while it was being read/, 'replaced: If-Match fails with HV021');
	});
}
await scenario('redirect', [['get', `${base}/redirect/small`, '0', '10']], res => {
	wantError(res, '58030', /HTTP status 302/, 'redirect: not followed');
});
await scenario('link-local', [['set', 'connect_timeout_ms', '2000'], ['get', 'http://169.254.169.254/latest/meta-data/', '0', '10']], (res, ms) => {
	wantError(res, '42501', /link-local address 169\.254\.169\.254/, 'link-local: refused');
	check(ms < 1500, `link-local: refused before connecting (${ms} ms)`);
});
await scenario('link-local mapped into IPv6', [['get', 'http://[::ffff:169.254.169.254]/x', '0', '10']], res => {
	wantError(res, '42501', /link-local address/, 'link-local: IPv4-mapped IPv6 refused');
});
await scenario('cancel', [['set', 'cancel_after_ms', '500'], ['get', `${base}/hang/small`, '0', '10']], (res, ms) => {
	wantError(res, '57014', /canceling statement/, 'cancel: a hanging request stops');
	check(ms < 1500, `cancel: within a second of the cancel (${ms} ms)`);
});
await scenario('cancel during backoff', [['set', 'cancel_after_ms', '300'], ['set', 'retry_base_ms', '5000'], ['set', 'retry_max_ms', '5000'], ['get', `${base}/always503/small`, '0', '10']], (res, ms) => {
	wantError(res, '57014', /canceling statement/, 'cancel: a retry\'s wait stops');
	check(ms < 1500, `cancel: during the backoff (${ms} ms)`);
});
await scenario('connection refused', [['set', 'max_retries', '1'], ['set', 'retry_base_ms', '10'], ['get', 'http://127.0.0.1:1/x', '0', '10']], res => {
	wantError(res, '58030', /after 2 attempts: Couldn't connect to server/, 'refused: retried, then 58030');
});

// HTTPS with a CA of the test's own
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw_http_'));
const ossl = (...a) => execFileSync('openssl', a, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
ossl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=parquet_fdw test CA');
ossl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'srv.key', '-out', 'srv.csr', '-subj', '/CN=127.0.0.1');
fs.writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
ossl('x509', '-req', '-in', 'srv.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'srv.pem', '-days', '2', '-extfile', 'ext.cnf');
const tlsServer = await startFaultServer(objects, {
	key: fs.readFileSync(path.join(dir, 'srv.key')), cert: fs.readFileSync(path.join(dir, 'srv.pem')),
});
const tbase = `https://127.0.0.1:${tlsServer.port}`;
await scenario('https', [['set', 'ca_file', path.join(dir, 'ca.pem')], ['get', `${tbase}/ok/big`, '77', '300000']], res => {
	check(okRange(res[0], 'big', 77, 300000), `https: verified with ca_file (${JSON.stringify(res[0])})`);
});
await scenario('https unknown CA', [['get', `${tbase}/ok/big`, '0', '10']], res => {
	wantError(res, '58030', /certificate/i, 'https: a certificate no CA vouches for is refused, not retried');
	check(tlsServer.counts.size === 1, 'https: the refused connection sent no request');
});
await tlsServer.close();
await server.close();
fs.rmSync(dir, { recursive: true, force: true });

console.log(`http: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
