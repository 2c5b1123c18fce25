// A front for s3rver that does what s3rver does not: it checks every
// request's SigV4 signature by computing it again with the AWS SDK's own
// signer (@smithy/signature-v4), refuses what S3 would refuse (unknown key
// id 403 InvalidAccessKeyId, wrong signature 403 SignatureDoesNotMatch, a
// clock 15 minutes off 403 RequestTimeTooSkewed, anonymous requests to a
// private bucket 403 AccessDenied), and answers If-Match itself (412), which
// s3rver ignores.  What passes goes on to s3rver without its credentials.
//
// Writes are held to S3's rules: a body signed with its SHA-256 must match
// it (400 XAmzContentSHA256Mismatch), and multipart uploads, which s3rver
// implements only in part (no abort, no listing, no part size rule), are
// answered here as S3 answers them: CreateMultipartUpload, UploadPart,
// CompleteMultipartUpload (parts in order, ETags matching, every part but
// the last of 5 MiB or more: 400 InvalidPart, InvalidPartOrder,
// EntityTooSmall), AbortMultipartUpload, ListMultipartUploads; a completed
// upload's object is put into s3rver whole, so reads see it as any other.
// setFault(fn) makes writes fail: fn({ method, key, query, part }) returns
// '503' (answered so), 'reset' (the connection is destroyed after the body
// arrived), 'delay' (answered a second late) or null.  stats.writes.events
// lists the objects as they appear ('put' or 'complete', key) and go
// ('delete', key), in order.  s3rver fails under many concurrent writes: at
// most 8 go to it at once.
import crypto from 'node:crypto';
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

const MIN_PART = 5 * 1024 * 1024;

// at most n calls of fn at once
function limiter(n) {
	let active = 0;
	const queue = [];
	const next = () => {
		if (active >= n || queue.length === 0) return;
		active++;
		const { fn, resolve, reject } = queue.shift();
		fn().then(resolve, reject).finally(() => { active--; next(); });
	};
	return (fn) => new Promise((resolve, reject) => { queue.push({ fn, resolve, reject }); next(); });
}
const upstreamWrites = limiter(8);

function xmlOk(res, body, headers = {}) {
	const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
	res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml), ...headers });
	res.end(xml);
}

const readBody = (req) => new Promise((resolve, reject) => {
	const chunks = [];
	req.on('data', (c) => chunks.push(c));
	req.on('end', () => resolve(Buffer.concat(chunks)));
	req.on('error', reject);
});

// Multipart uploads as S3 keeps them: id -> { bucket, key, initiated, parts }
function multipart(upstreamPort, stats, uploads) {
	return async function handle(req, res, bucket, key, params, body) {
		const w = stats.writes;
		if (req.method === 'POST' && params.has('uploads')) {
			const id = crypto.randomBytes(24).toString('base64url');
			uploads.set(id, { bucket, key, initiated: new Date(), parts: new Map() });
			w.created++;
			return xmlOk(res, `<InitiateMultipartUploadResult><Bucket>${xmlText(bucket)}</Bucket><Key>${xmlText(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
		}
		const id = params.get('uploadId');
		const up = uploads.get(id);
		if (!up || up.bucket !== bucket || up.key !== key)
			return xmlError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
		if (req.method === 'PUT') {
			const n = Number(params.get('partNumber'));
			if (!Number.isInteger(n) || n < 1 || n > 10000)
				return xmlError(res, 400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
			const etag = `"${crypto.createHash('md5').update(body).digest('hex')}"`;
			up.parts.set(n, { etag, data: body });
			w.parts++;
			w.partSizes.push(body.length);
			res.writeHead(200, { ETag: etag, 'Content-Length': 0 });
			return res.end();
		}
		if (req.method === 'DELETE') {
			uploads.delete(id);
			w.aborted++;
			res.writeHead(204);
			return res.end();
		}
		if (req.method === 'POST') {
			const listed = [...body.toString().matchAll(/<Part>\s*<PartNumber>(\d+)<\/PartNumber>\s*<ETag>([^<]*)<\/ETag>\s*<\/Part>/g)]
				.map((m) => ({ n: Number(m[1]), etag: m[2].replace(/&quot;/g, '"') }));
			if (listed.length === 0)
				return xmlError(res, 400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.');
			for (let i = 0; i < listed.length; i++) {
				const p = up.parts.get(listed[i].n);
				if (i > 0 && listed[i].n <= listed[i - 1].n)
					return xmlError(res, 400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
				if (!p || p.etag !== listed[i].etag)
					return xmlError(res, 400, 'InvalidPart', 'One or more of the specified parts could not be found.');
				if (i < listed.length - 1 && p.data.length < MIN_PART)
					return xmlError(res, 400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
			}
			const whole = Buffer.concat(listed.map((l) => up.parts.get(l.n).data));
			const put = await upstreamWrites(() => fetch(`http://127.0.0.1:${upstreamPort}/${encodeURIComponent(bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`,
				{ method: 'PUT', body: whole }));
			if (put.status !== 200)
				return xmlError(res, 500, 'InternalError', `s3rver answered ${put.status}`);
			uploads.delete(id);
			w.completed++;
			w.events.push(['complete', key]);
			const md5s = Buffer.concat(listed.map((l) => Buffer.from(l.etag.replace(/"/g, ''), 'hex')));
			const etag = `"${crypto.createHash('md5').update(md5s).digest('hex')}-${listed.length}"`;
			return xmlOk(res, `<CompleteMultipartUploadResult><Bucket>${xmlText(bucket)}</Bucket><Key>${xmlText(key)}</Key><ETag>${xmlText(etag)}</ETag></CompleteMultipartUploadResult>`);
		}
		return xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
	};
}

function listUploads(res, bucket, params, uploads) {
	const prefix = params.get('prefix') || '';
	const all = [...uploads.entries()].filter(([, u]) => u.bucket === bucket && u.key.startsWith(prefix))
		.map(([id, u]) => ({ id, ...u }))
		.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	const km = params.get('key-marker');
	const im = params.get('upload-id-marker') || '';
	const from = km === null ? 0 : all.findIndex((u) => u.key > km || (u.key === km && im !== '' && u.id > im));
	const max = Math.min(Number(params.get('max-uploads') || 1000), 1000);
	const page = from < 0 ? [] : all.slice(from, from + max);
	const truncated = from >= 0 && from + max < all.length;
	const last = page[page.length - 1];
	xmlOk(res, `<ListMultipartUploadsResult><Bucket>${xmlText(bucket)}</Bucket><Prefix>${xmlText(prefix)}</Prefix>` +
		`<MaxUploads>${max}</MaxUploads><IsTruncated>${truncated}</IsTruncated>` +
		(truncated ? `<NextKeyMarker>${xmlText(last.key)}</NextKeyMarker><NextUploadIdMarker>${last.id}</NextUploadIdMarker>` : '') +
		page.map((u) => `<Upload><Key>${xmlText(u.key)}</Key><UploadId>${u.id}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`).join('') +
		'</ListMultipartUploadsResult>');
}

// credentials: Map key id -> { secret, token }; publicBuckets: Set of names
export function startSigV4Front(upstreamPort, credentials, publicBuckets) {
	// listed: each listing's "prefix" and "delimiter" parameters, in order;
	// writes: what writes did, partsInFlightMax the most parts at once,
	// inFlight requests in flight by 'part <key>' and 'create <key>'
	const stats = {
		requests: 0, signed: 0, anonymous: 0, rejected: 0, lists: 0, listed: [],
		writes: { events: [], puts: 0, putSizes: [], created: 0, parts: 0, partSizes: [], completed: 0, aborted: 0, deletes: 0, faults: 0, partsInFlight: 0, inFlight: new Map(), partsInFlightMax: 0 },
	};
	const uploads = new Map();
	const handleMultipart = multipart(upstreamPort, stats, uploads);
	let fault = null;
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
		const params = new URLSearchParams(rawQuery);
		const key = decodeURIComponent(rawPath.split('/').slice(2).join('/'));
		if (req.method === 'GET' && params.has('uploads') && !key)
			return listUploads(res, bucket, params, uploads);
		if (req.method === 'PUT' || req.method === 'POST' || req.method === 'DELETE') {
			const isPart = req.method === 'PUT' && params.has('uploadId');
			const isCreate = req.method === 'POST' && params.has('uploads');
			const what = isPart ? `part ${key}` : isCreate ? `create ${key}` : null;
			if (what)
				stats.writes.inFlight.set(what, (stats.writes.inFlight.get(what) || 0) + 1);
			if (isPart) {
				stats.writes.partsInFlight++;
				stats.writes.partsInFlightMax = Math.max(stats.writes.partsInFlightMax, stats.writes.partsInFlight);
			}
			try {
				let body;
				try {
					body = await readBody(req);
				} catch {
					return res.destroy();	// the client went away mid-body
				}
				const claimed = req.headers['x-amz-content-sha256'];
				if (claimed && claimed !== 'UNSIGNED-PAYLOAD' && claimed !== crypto.createHash('sha256').update(body).digest('hex'))
					return xmlError(res, 400, 'XAmzContentSHA256Mismatch', 'The provided \'x-amz-content-sha256\' header does not match what was computed.');
				const f = fault && key ? fault({ method: req.method, key, query: params, part: isPart ? Number(params.get('partNumber')) : null }) : null;
				if (f === '503') {
					stats.writes.faults++;
					return xmlError(res, 503, 'SlowDown', 'Please reduce your request rate.');
				}
				if (f === 'reset') {
					stats.writes.faults++;
					return req.socket.destroy();
				}
				if (f === 'delay')
					await new Promise((r) => setTimeout(r, 1000));
				if (params.has('uploads') || params.has('uploadId'))
					return await handleMultipart(req, res, bucket, key, params, body);
				if (req.method === 'PUT' && key) {
					stats.writes.puts++;
					stats.writes.putSizes.push(body.length);
				}
				if (req.method === 'DELETE' && key)
					stats.writes.deletes++;
				const up = await upstreamWrites(() => fetch(`http://127.0.0.1:${upstreamPort}${req.url}`, {
					method: req.method, body: req.method === 'DELETE' ? undefined : body,
					headers: req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {},
				}));
				if (key && up.status < 300)
					stats.writes.events.push([req.method === 'DELETE' ? 'delete' : 'put', key]);
				const text = Buffer.from(await up.arrayBuffer());
				const headers = {};
				for (const h of ['etag', 'content-type'])
					if (up.headers.get(h))
						headers[h] = up.headers.get(h);
				headers['content-length'] = text.length;
				res.writeHead(up.status, headers);
				return res.end(text);
			} finally {
				if (isPart)
					stats.writes.partsInFlight--;
				if (what)
					stats.writes.inFlight.set(what, stats.writes.inFlight.get(what) - 1);
			}
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
		port: server.address().port, stats, uploads,
		setFault: (fn) => { fault = fn; },
		close: () => new Promise(r => { server.closeAllConnections(); server.close(r); }),
	})));
}
