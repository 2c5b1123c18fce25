// A front for s3rver that does what s3rver does not: it checks every
// request's SigV4 signature by computing it again with the AWS SDK's own
// signer (@smithy/signature-v4), refuses what S3 would refuse (unknown key
// id 403 InvalidAccessKeyId, wrong signature 403 SignatureDoesNotMatch, a
// clock 15 minutes off 403 RequestTimeTooSkewed, anonymous requests to a
// private bucket 403 AccessDenied), and answers If-Match itself (412), which
// s3rver ignores.  What passes goes on to s3rver without its credentials.
import http from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

function xmlError(res, status, code, message) {
	const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>F00DCAFE</RequestId></Error>`;
	res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml) });
	res.end(xml);
}

const xmlText = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// s3rver answers a listing with a delimiter without CommonPrefixes for keys
// below the prefix's next level: such listings are answered here as S3
// does, from s3rver's whole listing below the prefix (paged as S3 pages:
// keys and common prefixes together, max-keys at a time, in key order).
async function listWithDelimiter(upstreamPort, rawPath, params, res) {
	const prefix = params.get('prefix') || '';
	const delimiter = params.get('delimiter');
	const maxKeys = Math.min(Number(params.get('max-keys') || 1000), 1000);
	const objects = [];
	let token = null;
	do {
		const q = new URLSearchParams({ 'list-type': '2', prefix });
		if (token)
			q.set('continuation-token', token);
		const body = await (await fetch(`http://127.0.0.1:${upstreamPort}${rawPath}?${q}`)).text();
		for (const m of body.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
			const field = (name) => (new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(m[1]) || [])[1];
			objects.push({ key: field('Key'), raw: m[0] });
		}
		token = /<IsTruncated>true<\/IsTruncated>/.test(body) ? (/<NextContinuationToken>([^<]*)</.exec(body) || [])[1] : null;
	} while (token);
	const decode = (k) => k.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
	const entries = [];
	const seen = new Set();
	for (const o of objects) {
		const key = decode(o.key);
		const cut = key.indexOf(delimiter, prefix.length);
		if (cut < 0)
			entries.push({ name: key, xml: o.raw });
		else if (!seen.has(key.slice(0, cut + delimiter.length))) {
			const p = key.slice(0, cut + delimiter.length);
			seen.add(p);
			entries.push({ name: p, xml: `<CommonPrefixes><Prefix>${xmlText(p)}</Prefix></CommonPrefixes>` });
		}
	}
	entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const after = params.get('continuation-token') ? Buffer.from(params.get('continuation-token'), 'base64').toString() : null;
	const from = after === null ? 0 : entries.findIndex((e) => e.name > after);
	const page = from < 0 ? [] : entries.slice(from, from + maxKeys);
	const truncated = from >= 0 && from + maxKeys < entries.length;
	const next = truncated ? `<NextContinuationToken>${Buffer.from(page[page.length - 1].name).toString('base64')}</NextContinuationToken>` : '';
	const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlText(rawPath.split('/')[1])}</Name>` +
		`<Prefix>${xmlText(prefix)}</Prefix><Delimiter>${xmlText(delimiter)}</Delimiter><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys>` +
		`<IsTruncated>${truncated}</IsTruncated>${next}${page.map((e) => e.xml).join('')}</ListBucketResult>`;
	res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
	res.end(body);
}

// credentials: Map key id -> { secret, token }; publicBuckets: Set of names
export function startSigV4Front(upstreamPort, credentials, publicBuckets) {
	// listed: each listing's "prefix" and "delimiter" parameters, in order
	const stats = { requests: 0, signed: 0, anonymous: 0, rejected: 0, lists: 0, listed: [] };
	const server = http.createServer(async (req, res) => {
		stats.requests++;
		const [rawPath, rawQuery = ''] = req.url.split('?');
		const bucket = decodeURIComponent(rawPath.split('/')[1] || '');
		if (rawQuery.includes('list-type=2')) {
			const params = new URLSearchParams(rawQuery);
			stats.lists++;
			stats.listed.push({ prefix: params.get('prefix') || '', delimiter: params.get('delimiter') });
		}
		const auth = req.headers.authorization;
		if (!auth) {
			if (!publicBuckets.has(bucket)) {
				stats.rejected++;
				return xmlError(res, 403, 'AccessDenied', 'Access Denied');
			}
			stats.anonymous++;
		} else {
			const m = AUTH.exec(auth);
			if (!m) {
				stats.rejected++;
				return xmlError(res, 400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed');
			}
			const [, keyId, , region, signedHeaders] = m;
			const cred = credentials.get(keyId);
			if (!cred) {
				stats.rejected++;
				return xmlError(res, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
			}
			const amzDate = req.headers['x-amz-date'] || '';
			const d = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
			const when = d ? new Date(Date.UTC(+d[1], d[2] - 1, +d[3], +d[4], +d[5], +d[6])) : null;
			if (!when || Math.abs(when - Date.now()) > 15 * 60 * 1000) {
				stats.rejected++;
				return xmlError(res, 403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
			}
			if (cred.token && req.headers['x-amz-security-token'] !== cred.token) {
				stats.rejected++;
				return xmlError(res, 403, 'InvalidToken', 'The provided token is malformed or otherwise invalid.');
			}
			const headers = {};
			for (const h of signedHeaders.split(';'))
				if (h !== 'x-amz-date' && h !== 'x-amz-security-token')
					headers[h] = req.headers[h];
			const query = {};
			for (const p of rawQuery ? rawQuery.split('&') : []) {
				const i = p.indexOf('=');
				query[decodeURIComponent(i < 0 ? p : p.slice(0, i))] = i < 0 ? '' : decodeURIComponent(p.slice(i + 1));
			}
			const signer = new SignatureV4({
				credentials: { accessKeyId: keyId, secretAccessKey: cred.secret, sessionToken: req.headers['x-amz-security-token'] },
				region, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false,
			});
			const [hostname, port] = req.headers.host.split(':');
			const signed = await signer.sign({
				method: req.method, protocol: 'http:', hostname, port: port ? Number(port) : undefined,
				path: rawPath, query, headers,
			}, { signingDate: when });
			if (signed.headers.authorization !== auth || !signedHeaders.split(';').includes('host')) {
				stats.rejected++;
				return xmlError(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
			}
			stats.signed++;
		}
		const forward = {};
		for (const h of ['range', 'content-length', 'content-type'])
			if (req.headers[h])
				forward[h] = req.headers[h];
		if (req.headers['if-match'] && req.method === 'GET') {
			const head = await fetch(`http://127.0.0.1:${upstreamPort}${rawPath}`, { method: 'HEAD' });
			if (head.status === 200 && head.headers.get('etag') !== req.headers['if-match'])
				return xmlError(res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
		}
		if (req.method === 'GET' && rawQuery.includes('list-type=2') && new URLSearchParams(rawQuery).get('delimiter'))
			return listWithDelimiter(upstreamPort, rawPath, new URLSearchParams(rawQuery), res);
		const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: forward }, ur => {
			res.writeHead(ur.statusCode, ur.headers);
			ur.pipe(res);
		});
		up.on('error', () => res.destroy());
		req.pipe(up);
	});
	return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({
		port: server.address().port, stats,
		close: () => new Promise(r => { server.closeAllConnections(); server.close(r); }),
	})));
}
