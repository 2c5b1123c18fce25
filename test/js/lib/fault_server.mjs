// An HTTP(S) object server on loopback with faults chosen by the path's
// first segment, for the transport's tests (check_http.mjs):
//
//   /ok/NAME            Range (bytes=a-b), If-Match (412), HEAD, ETag
//   /flaky503/NAME      the first two requests of each path: 503 with
//                       Retry-After: 1, then as /ok
//   /flaky429/NAME      the same with 429 and no Retry-After
//   /always503/NAME     always 503
//   /reset/NAME         first request: half the body, then the connection
//                       is destroyed
//   /slow/NAME          first request: no byte for 3 s
//   /badrange/NAME      first request: a 206 whose Content-Range starts one
//                       byte later than asked, with those bytes
//   /alwaysbadrange/NAME  every request so
//   /ignorerange/NAME   Range ignored: 200 with the whole object
//   /forbidden/NAME     403 with S3's XML error body (AccessDenied)
//   /missing/NAME       404 with S3's NoSuchKey body
//   /replaced/NAME      the object's ETag changes after the first request
//   /hang/NAME          never answers
//   /redirect/NAME      302 to /ok/NAME
//   /delay/NAME         as /ok, each answer 100 ms late (so requests overlap)
//
// FAULT@N (as /reset@3/NAME): the fault from the path's Nth request on,
// so that it hits a data read rather than the first HEAD.
//
// The server counts requests per path and the most in flight at once.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import crypto from 'node:crypto';

// tls with http2: true: HTTP/2 offered by ALPN (HTTP/1.1 still allowed);
// the HTTP versions requests came with are kept in versions.
export function startFaultServer(objects, tls) {
	const counts = new Map();
	const versions = new Set();
	let inFlight = 0;
	let maxInFlight = 0;
	const sockets = new Set();
	const handler = (req, res) => {
		versions.add(req.httpVersion);
		inFlight++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		res.on('close', () => inFlight--);
		const [, spec, ...rest] = req.url.split('?')[0].split('/');
		// FAULT@N: the fault from the path's Nth request on (default 1)
		const [fault, atSpec] = spec.split('@');
		const at = atSpec ? Number(atSpec) : 1;
		const name = rest.join('/');
		const n = (counts.get(req.url) || 0) + 1;
		counts.set(req.url, n);
		const body = objects.get(name);
		const xmlError = (status, code, message) => {
			const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`;
			res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml) });
			res.end(xml);
		};
		if (fault === 'hang')
			return;
		if (fault === 'forbidden')
			return xmlError(403, 'AccessDenied', 'Access Denied');
		if (body === undefined || fault === 'missing')
			return xmlError(404, 'NoSuchKey', 'The specified key does not exist.');
		if (fault === 'redirect') {
			res.writeHead(302, { Location: `/ok/${name}`, 'Content-Length': 0 });
			return res.end();
		}
		if ((fault === 'flaky503' && n >= at && n < at + 2) || fault === 'always503') {
			res.writeHead(503, { 'Retry-After': '1', 'Content-Length': 0 });
			return res.end();
		}
		if (fault === 'flaky429' && n >= at && n < at + 2) {
			res.writeHead(429, { 'Content-Length': 0 });
			return res.end();
		}
		const version = fault === 'replaced' && n > at ? 2 : 1;
		const etag = `"${crypto.createHash('md5').update(body).digest('hex').slice(0, 16)}-v${version}"`;
		if (req.headers['if-match'] && req.headers['if-match'] !== etag)
			return xmlError(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
		let status = 200;
		let first = 0;
		let last = body.length - 1;
		const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || '');
		if (m && fault !== 'ignorerange') {
			first = Number(m[1]);
			last = Math.min(Number(m[2]), body.length - 1);
			if (first >= body.length) {
				res.writeHead(416, { 'Content-Range': `bytes */${body.length}`, 'Content-Length': 0 });
				return res.end();
			}
			status = 206;
			if (fault === 'alwaysbadrange' || (fault === 'badrange' && n === at)) {
				first++;
				last = Math.min(last + 1, body.length - 1);
			}
		}
		const part = body.subarray(first, last + 1);
		const headers = { ETag: etag, 'Content-Length': part.length, 'Accept-Ranges': 'bytes' };
		if (status === 206)
			headers['Content-Range'] = `bytes ${first}-${last}/${body.length}`;
		const send = () => {
			res.writeHead(status, headers);
			if (req.method === 'HEAD')
				return res.end();
			if ((fault === 'reset') && n === at) {
				res.write(part.subarray(0, part.length >> 1));
				return setTimeout(() => res.socket.destroy(), 50);
			}
			res.end(part);
		};
		if (fault === 'slow' && n === at)
			return setTimeout(send, 3000);
		if (fault === 'delay')
			return setTimeout(send, 100);
		send();
	};
	const server = tls?.http2 ? http2.createSecureServer({ ...tls, allowHTTP1: true }, handler)
		: tls ? https.createServer(tls, handler) : http.createServer(handler);
	server.on('connection', s => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	let connections = 0;
	server.on(tls ? 'secureConnection' : 'connection', () => connections++);
	return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve({
		port: server.address().port,
		counts,
		versions,
		maxInFlight: () => maxInFlight,
		resetStats: () => { maxInFlight = 0; connections = 0; },
		connections: () => connections,
		close: () => new Promise(r => { for (const s of sockets) s.destroy(); server.close(r); }),
	})));
}
