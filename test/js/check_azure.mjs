#!/usr/bin/env node
// The Azure Blob client (src/io/azure/, through src/io/store/store.c)
// against azurite, Azure's own emulator, which checks every Shared Key
// signature, through test/unit/store_cli (ASan + UBSan):
//
//   make store_cli && node test/js/check_azure.mjs
//
// The fixtures go up with a Shared Key signer written here from Azure's
// documentation (azurite checks it too); expected sizes, ETags and listings
// come from azurite's own answers, read in JS; bytes from the blobs the
// test made.
//
// Last line: "azure: N passed, N failed".
import crypto from 'node:crypto';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ACCOUNT, KEY, startAzurite } from './lib/azure_emulator.mjs';

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

const { endpoint, az, putBlob, blobPath, stop: stopAzurite } = await startAzurite();
const account = ACCOUNT;
const key = KEY;
const sha = b => crypto.createHash('sha256').update(b).digest('hex');

await az('PUT', '/lake', { query: { restype: 'container' } });
const names = ["a b/ü €/x.parquet", "odd!'()*&$@=;:+,.parquet", 'deep/year=2024/part-0.parquet'];
const data = new Map(names.map((n, i) => [n, crypto.randomBytes(2000 + i * 333)]));
data.set('big.parquet', crypto.randomBytes(3 * 1024 * 1024 + 5));
for (const [n, b] of data)
	await putBlob('lake', n, b);
const many = [];
for (let i = 0; i < 2500; i++)
	many.push(`many/${i % 5}/f${String(i).padStart(5, '0')}.parquet`);
for (let i = 0; i < many.length; i += 16)
	await Promise.all(many.slice(i, i + 16).map(n => putBlob('lake', n, Buffer.from(n))));

const conf = [['set', 'az_endpoint', endpoint], ['set', 'account', account], ['set', 'account_key', key], ['set', 'list_page_size', '1000']];

// properties and ranges
{
	const res = await runCli([...conf, ...[...data.keys()].map(n => ['head', `az://lake/${n}`]), ['head', 'az://lake/nope.parquet']]);
	let i = 0;
	for (const n of data.keys()) {
		const r = await az('HEAD', blobPath('lake', n));
		check(res[i].found && res[i].size === Number(r.headers.get('content-length')) && res[i].etag === r.headers.get('etag'),
			`head ${n}: ${JSON.stringify(res[i])} vs ${r.headers.get('content-length')} ${r.headers.get('etag')}`);
		i++;
	}
	check(res[i].found === false, 'head: a missing blob is not found');
	const big = data.get('big.parquet');
	const etag = res[names.length].etag;
	const ranges = [[0, 4], [big.length - 8, 8], [12345, 1 << 20]];
	const g = await runCli([...conf, ['get', 'az://lake/big.parquet', etag, ...ranges.flat().map(String)],
		...names.map(n => ['get', `az://lake/${n}`, '-', '0', String(data.get(n).length)])]);
	check(JSON.stringify(g[0].sha256) === JSON.stringify(ranges.map(([o, l]) => sha(big.subarray(o, o + l)))), `get: ranges with If-Match (${JSON.stringify(g[0])})`);
	names.forEach((n, k) => check(g[1 + k].sha256 && g[1 + k].sha256[0] === sha(data.get(n)), `get: blob ${JSON.stringify(n)} (${JSON.stringify(g[1 + k])})`));
}

// listings against azurite's own, page by page
async function emuList(prefix, delimiter) {
	const keys = [];
	const prefixes = [];
	let marker;
	do {
		const query = { restype: 'container', comp: 'list' };
		if (prefix)
			query.prefix = prefix;
		if (delimiter)
			query.delimiter = delimiter;
		if (marker)
			query.marker = marker;
		const x = await (await az('GET', '/lake', { query })).text();
		const un = t => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'")
			.replace(/&#x([0-9a-f]+);/gi, (_, v) => String.fromCodePoint(parseInt(v, 16))).replace(/&#(\d+);/g, (_, v) => String.fromCodePoint(Number(v))).replace(/&amp;/g, '&');
		for (const m of x.matchAll(/<Blob>(.*?)<\/Blob>/gs)) {
			const etag = /<Etag>([^<]*)<\/Etag>/.exec(m[1])[1];
			keys.push([un(/<Name>([^<]*)<\/Name>/.exec(m[1])[1]), Number(/<Content-Length>(\d+)<\/Content-Length>/.exec(m[1])[1]),
				etag.startsWith('"') ? etag : `"${etag}"`]);
		}
		for (const m of x.matchAll(/<BlobPrefix><Name>([^<]*)<\/Name><\/BlobPrefix>/g))
			prefixes.push(un(m[1]));
		marker = (/<NextMarker>([^<]+)<\/NextMarker>/.exec(x) || [])[1];
	} while (marker);
	return { keys, prefixes };
}
{
	const res = await runCli([...conf, ['list', 'az://lake/many/'], ['list', 'az://lake/many/', '/'], ['list', 'az://lake/a b/'], ['list', 'az://lake/']]);
	const want = await emuList('many/');
	check(res[0].objects.length === 2500 && JSON.stringify(res[0].objects) === JSON.stringify(want.keys), `list: 2,500 blobs over pages equal azurite's (${res[0].objects && res[0].objects.length})`);
	check(res[0].requests === 3, `list: 3 pages of up to 1,000 (${res[0].requests})`);
	const delim = await emuList('many/', '/');
	check(res[1].objects.length === 0 && JSON.stringify(res[1].prefixes) === JSON.stringify(delim.prefixes) && res[1].prefixes.length === 5, `list: delimiter gives the 5 prefixes (${JSON.stringify(res[1].prefixes)})`);
	check(res[2].objects.length === 1 && res[2].objects[0][0] === names[0], `list: a prefix with a space and UTF-8 (${JSON.stringify(res[2].objects)})`);
	const all = await emuList('');
	check(JSON.stringify(res[3].objects) === JSON.stringify(all.keys), 'list: the whole container');
}

// credentials and errors
{
	const wrongKey = Buffer.from('x'.repeat(64)).toString('base64');
	const res = await runCli([['set', 'az_endpoint', endpoint], ['set', 'account', account], ['set', 'account_key', wrongKey], ['get', 'az://lake/big.parquet', '-', '0', '10'],
		['set', 'account_key', 'not base64!'], ['head', 'az://lake/big.parquet'],
		['set', 'account_key', ''], ['head', 'az://lake/big.parquet']]);
	check(res[0].error === '28000' && /HTTP status 403\|The store answered AuthorizationFailure|AuthenticationFailed/.test(res[0].message), `credentials: a wrong key is 28000 with azurite's code (${JSON.stringify(res[0])})`);
	check(res[1].error === '22023' && /not base64/.test(res[1].message), `credentials: a key that is not base64 (${JSON.stringify(res[1])})`);
	check(res[2].error === '28000' || res[2].error === '58P01', `credentials: anonymous access to a private container is refused (${JSON.stringify(res[2])})`);
	const nokey = await runCli([['set', 'az_endpoint', ''], ['set', 'account', ''], ['head', 'az://lake/x.parquet']]);
	check(nokey[0].error === 'HV00J' && /no storage account is named/.test(nokey[0].message), `no account: a clear error (${JSON.stringify(nokey[0])})`);
}

// a blob replaced between reads
{
	const r = await az('HEAD', blobPath('lake', names[2]));
	await putBlob('lake', names[2], crypto.randomBytes(100));
	const res = await runCli([...conf, ['get', `az://lake/${names[2]}`, r.headers.get('etag'), '0', '10']]);
	check(res[0].error === 'HV021' && /changed while it was being read/.test(res[0].message), `replaced: HV021 (${JSON.stringify(res[0])})`);
}

await stopAzurite();
console.log(`azure: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
