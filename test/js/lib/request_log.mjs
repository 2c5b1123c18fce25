// A recording pass-through in front of another local HTTP server (here the
// SigV4 front of lib/s3_emulator.mjs): every request is forwarded as it
// came, Host header included (so a SigV4 signature made for this address
// still verifies behind it), and noted as { method, bucket, key, query
// (URLSearchParams), range } in log, in arrival order.  The tests count
// requests by kind from it (listings of a prefix, GETs of a key), which the
// front's own counters do not tell apart.
import http from 'node:http';

/** Start it in front of 127.0.0.1:targetPort; returns { endpoint, port, log, reset, close }. */
export function startRequestLog(targetPort) {
  const log = [];
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const [rawPath, rawQuery = ''] = req.url.split('?');
    const parts = rawPath.split('/');
    let key;
    try {
      key = decodeURIComponent(parts.slice(2).join('/'));
    } catch {
      key = parts.slice(2).join('/');
    }
    log.push({ method: req.method, bucket: decodeURIComponent(parts[1] || ''), key, query: new URLSearchParams(rawQuery), range: req.headers.range ?? null });
    const up = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers, agent }, (ur) => {
      res.writeHead(ur.statusCode, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    endpoint: `http://127.0.0.1:${server.address().port}`,
    port: server.address().port,
    log,
    reset: () => { log.length = 0; },
    close: () => new Promise((r) => { server.closeAllConnections(); agent.destroy(); server.close(r); }),
  })));
}

/** The requests of log that list objects below prefix (ListObjectsV2 with that prefix). */
export const listingsOf = (log, bucket, prefix) => log.filter((r) => r.method === 'GET' && r.bucket === bucket &&
  r.query.get('list-type') === '2' && (r.query.get('prefix') || '') === prefix);
