#!/usr/bin/env node
// The S3 client (src/io/aws/s3_client.c, through src/io/store/store.c)
// against s3rver on loopback behind lib/sigv4_front.mjs, which checks every
// signature with the AWS SDK's own signer, through test/unit/store_cli
// (ASan + UBSan):
//
//   make store_cli && node test/js/check_s3.mjs
//
// Objects are put, and read back for comparison, through s3rver's own
// HTTP API (plain fetch, listings parsed here in JS): sizes, ETags and
// listings come from the emulator, bytes from the objects the test made.
// s3rver makes continuation tokens with DES, which OpenSSL 3 keeps in its
// legacy provider: the script runs itself again with it.
//
// Last line: "s3: N passed, N failed".
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import S3rver from 's3rver';
import { startSigV4Front } from './lib/sigv4_front.mjs';

if (!process.execArgv.includes('--openssl-legacy-provider')) {
	const r = spawnSync(process.execPath, ['--openssl-legacy-provider', ...process.execArgv,
		new URL(import.meta.url).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
	process.exit(r.status ?? 1);
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cli = path.join(root, 'test/unit/store_cli');

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

function runCli(commands) {
	return new Promise((resolve, reject) => {
		const p = spawn(cli, [], { stdio: ['pipe', 'pipe', 'inherit'] });
		let out = '';
		p.stdout.on('data', d => out += d);
		p.on('error', reject);
		p.on('close', code => code === 0 ? resolve(out.trim().split('\n').filter(Boolean).map(l => JSON.parse(l)))
			: reject(new Error(`store_cli exited ${code}`)));
		p.stdin.end(commands.map(c => c.join('\t')).join('\n') + '\n');
	});
}

const sha = b => crypto.createHash('sha256').update(b).digest('hex');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw_s3_'));
const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
const { port: upstream } = await s3rver.run();
// s3rver's own API, unsigned (it accepts that): the test's view of the bucket
const emu = `http://127.0.0.1:${upstream}`;
const keyPath = k => k.split('/').map(encodeURIComponent).join('/');
async function emuFetch(method, p, body) {
	const r = await fetch(`${emu}${p}`, { method, body });
	if (r.status >= 300 && !(method === 'HEAD' && r.status === 404))
		throw new Error(`s3rver ${method} ${p}: ${r.status}`);
	return r;
}
const put = (bucket, key, body) => emuFetch('PUT', `/${bucket}/${keyPath(key)}`, body);
async function head(bucket, key) {
	const r = await emuFetch('HEAD', `/${bucket}/${keyPath(key)}`);
	return { ContentLength: Number(r.headers.get('content-length')), ETag: r.headers.get('etag') };
}
const unxml = t => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
	.replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
	.replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(parseInt(n, 16))).replace(/&amp;/g, '&');
const tag = (x, t) => { const m = new RegExp(`<${t}>([^<]*)</${t}>`).exec(x); return m ? unxml(m[1]) : undefined; };
for (const b of ['lake', 'open-data'])
	await emuFetch('PUT', `/${b}`);

const creds = new Map([
	['AKIATESTKEY0000001', { secret: 'test/Secret+Key=0001' }],
	['ASIATEMPKEY0000002', { secret: 'tempSecret0002', token: 'FwoGZXIvYXdzEJr//////////wEaDM+token=' }],
]);
const front = await startSigV4Front(upstream, creds, new Set(['open-data']));
const endpoint = `http://127.0.0.1:${front.port}`;
const signedAs = (id) => [['set', 'endpoint', endpoint], ['set', 'region', 'us-east-1'],
	['set', 'key_id', id], ['set', 'secret', creds.get(id).secret],
	['set', 'session_token', creds.get(id).token || '']];
const user = signedAs('AKIATESTKEY0000001');

// objects: odd keys, a big one, and 2,500 under one prefix (3 pages)
const odd = ["a b/ü €/x.parquet", "odd!'()*&$@=;:+,.parquet", 'deep/year=2024/month=01/part-0.parquet', 'tilde~_-.parquet'];
const data = new Map();
for (const [i, k] of odd.entries())
	data.set(k, crypto.randomBytes(1000 + i * 777));
data.set('big.parquet', crypto.randomBytes(5 * 1024 * 1024 + 3));
for (const [k, v] of data)
	await put('lake', k, v);
const many = [];
for (let i = 0; i < 2500; i++)
	many.push(`many/${String(i % 7)}/f${String(i).padStart(5, '0')}.parquet`);
// s3rver fails (500) under many concurrent puts into new folders: 8 at once
for (let i = 0; i < many.length; i += 8)
	await Promise.all(many.slice(i, i + 8).map(k => put('lake', k, k)));
await put('open-data', 'pub.parquet', data.get(odd[0]));

// HEAD
{
	const cmds = [...user, ...[...data.keys()].map(k => ['head', `s3://lake/${k}`]), ['head', 's3://lake/nope.parquet']];
	const res = await runCli(cmds);
	let i = 0;
	for (const k of data.keys()) {
		const h = await head('lake', k);
		check(res[i].found && res[i].size === h.ContentLength && res[i].etag === h.ETag, `head ${k}: ${JSON.stringify(res[i])} vs ${h.ContentLength} ${h.ETag}`);
		i++;
	}
	check(res[i].found === false, 'head: a missing key is not found');
}

// ranged GETs, several in flight, If-Match of the current ETag
{
	const big = data.get('big.parquet');
	const h = await head('lake', 'big.parquet');
	const ranges = [[0, 4], [big.length - 8, 8], [1000, 1 << 20], [3 << 20, 123457]];
	const res = await runCli([...user, ['get', 's3://lake/big.parquet', h.ETag, ...ranges.flat().map(String)],
		...odd.map(k => ['get', `s3://lake/${k}`, '-', '0', String(data.get(k).length)])]);
	check(JSON.stringify(res[0].sha256) === JSON.stringify(ranges.map(([o, l]) => sha(big.subarray(o, o + l)))), 'get: four ranges of one object, If-Match');
	odd.forEach((k, i) => check(res[1 + i].sha256 && res[1 + i].sha256[0] === sha(data.get(k)), `get: key ${JSON.stringify(k)} (${JSON.stringify(res[1 + i])})`));
}

// listings, compared with the emulator's own, read page by page here
async function sdkList(bucket, prefix, delimiter) {
	const keys = [];
	const prefixes = [];
	let token;
	do {
		const q = new URLSearchParams({ 'list-type': '2', prefix });
		if (delimiter)
			q.set('delimiter', delimiter);
		if (token)
			q.set('continuation-token', token);
		const x = await (await emuFetch('GET', `/${bucket}?${q}`)).text();
		for (const m of x.matchAll(/<Contents>(.*?)<\/Contents>/gs))
			keys.push([tag(m[1], 'Key'), Number(tag(m[1], 'Size')), tag(m[1], 'ETag')]);
		for (const m of x.matchAll(/<CommonPrefixes>(.*?)<\/CommonPrefixes>/gs))
			prefixes.push(tag(m[1], 'Prefix'));
		token = tag(x, 'IsTruncated') === 'true' ? tag(x, 'NextContinuationToken') : undefined;
	} while (token);
	return { keys, prefixes };
}
{
	front.stats.lists = 0;
	const res = await runCli([...user, ['list', 's3://lake/many/'], ['list', 's3://lake/'], ['list', 's3://lake/many/', '/'], ['list', 's3://lake/a b/'], ['list', 's3://lake/zzz/']]);
	const want = await sdkList('lake', 'many/');
	check(res[0].objects.length === 2500 && JSON.stringify(res[0].objects) === JSON.stringify(want.keys), `list: 2,500 keys over pages equal the emulator's (${res[0].objects && res[0].objects.length})`);
	check(res[0].requests === 3, `list: 3 requests for 2,500 keys (${res[0].requests})`);
	const all = await sdkList('lake', '');
	check(JSON.stringify(res[1].objects) === JSON.stringify(all.keys), `list: the whole bucket (${res[1].objects && res[1].objects.length} vs ${all.keys.length}: ${JSON.stringify(res[1].objects.filter((o, i) => JSON.stringify(o) !== JSON.stringify(all.keys[i])).slice(0, 2))} vs ${JSON.stringify(all.keys.filter((o, i) => JSON.stringify(o) !== JSON.stringify(res[1].objects[i])).slice(0, 2))})`);
	const delim = await sdkList('lake', 'many/', '/');
	check(res[2].objects.length === 0 && JSON.stringify(res[2].prefixes) === JSON.stringify(delim.prefixes) && res[2].prefixes.length === 7, `list: delimiter gives the 7 prefixes (${JSON.stringify(res[2].prefixes)})`);
	check(res[3].objects.length === 1 && res[3].objects[0][0] === odd[0], 'list: a prefix with a space and UTF-8');
	check(res[4].objects.length === 0 && res[4].requests === 1, 'list: an empty prefix');
}

// credentials
{
	const res = await runCli([
		['set', 'endpoint', endpoint], ['set', 'key_id', 'AKIATESTKEY0000001'], ['set', 'secret', 'wrong'], ['head', 's3://lake/big.parquet'],
		['set', 'key_id', 'AKIAUNKNOWN0000009'], ['head', 's3://lake/big.parquet'],
		...signedAs('ASIATEMPKEY0000002'), ['head', 's3://lake/big.parquet'],
		['set', 'session_token', 'not-the-token'], ['head', 's3://lake/big.parquet'],
		['set', 'key_id', ''], ['set', 'session_token', ''], ['head', 's3://open-data/pub.parquet'], ['head', 's3://lake/big.parquet'],
	]);
	check(res[0].error === '28000' && /HTTP status 403/.test(res[0].message), `credentials: a wrong secret is 28000 (${JSON.stringify(res[0])})`);
	check(res[1].error === '28000', 'credentials: an unknown key id is 28000');
	check(res[2].found === true, 'credentials: a session token is signed and accepted');
	check(res[3].error === '28000', 'credentials: a wrong session token is refused');
	check(res[4].found === true, 'credentials: anonymous access to a public bucket');
	check(res[5].error === '28000', 'credentials: anonymous access to a private bucket is refused');
	// a token with a line break would add a header: refused before sending
	const before = front.stats.requests;
	const inj = await runCli([...signedAs('ASIATEMPKEY0000002'), ['set', 'session_token', 'tok\\nX-Evil: 1'], ['head', 's3://lake/big.parquet']]);
	check(inj[0].error === '22023' && /line break/.test(inj[0].message) && front.stats.requests === before,
		`credentials: a line break in a token is refused, nothing sent (${JSON.stringify(inj[0])})`);
	// the store's message reaches the user (a GET has a body to carry it)
	const g = await runCli([['set', 'endpoint', endpoint], ['set', 'key_id', 'AKIATESTKEY0000001'], ['set', 'secret', 'wrong'], ['get', 's3://lake/big.parquet', '-', '0', '10']]);
	check(g[0].error === '28000' && /SignatureDoesNotMatch: The request signature we calculated does not match/.test(g[0].message), `credentials: the store's code and message (${JSON.stringify(g[0])})`);
}

// an object replaced between the footer's read and the data's
{
	const h = await head('lake', odd[3]);
	await put('lake', odd[3], crypto.randomBytes(5000));
	const res = await runCli([...user, ['get', `s3://lake/${odd[3]}`, h.ETag, '0', '100']]);
	check(res[0].error === 'HV021' && /changed while it was being read/.test(res[0].message), `replaced: HV021 (${JSON.stringify(res[0])})`);
}
check(front.stats.signed > 0 && front.stats.anonymous >= 1, `front: ${front.stats.signed} signatures checked, ${front.stats.anonymous} anonymous`);

await front.close();
await s3rver.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`s3: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
