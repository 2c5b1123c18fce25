// A lean S3-compatible object server for bench/object_store.mjs: objects
// are files below a directory, answered with HEAD, ranged GET (If-Match on
// an ETag of size and mtime) and ListObjectsV2 (no paging: the benchmark's
// listings are small), anonymously.  s3rver, the suite's emulator, serves
// about 60-100 MB/s, which would measure s3rver rather than the reader;
// this one streams files as fast as Node can.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const xml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startLeanStore(root) {
  const server = http.createServer((req, res) => {
    const [rawPath, rawQuery = ''] = req.url.split('?');
    const parts = rawPath.split('/').slice(1).map(decodeURIComponent);
    const bucket = parts[0];
    const key = parts.slice(1).join('/');
    const query = new URLSearchParams(rawQuery);
    if (query.get('list-type') === '2') {
      const prefix = query.get('prefix') || '';
      const base = path.join(root, bucket);
      const keys = fs.readdirSync(base, { recursive: true })
        .filter((f) => fs.statSync(path.join(base, f)).isFile() && f.startsWith(prefix)).sort();
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult><Name>${xml(bucket)}</Name><Prefix>${xml(prefix)}</Prefix>` +
        `<KeyCount>${keys.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>` +
        keys.map((k) => {
          const st = fs.statSync(path.join(base, k));
          return `<Contents><Key>${xml(k)}</Key><Size>${st.size}</Size><ETag>"${st.size}-${st.mtimeMs}"</ETag></Contents>`;
        }).join('') + '</ListBucketResult>';
      res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
      return res.end(body);
    }
    const file = path.join(root, bucket, key);
    let st;
    try {
      st = fs.statSync(file);
    } catch {
      res.writeHead(404, { 'Content-Length': 0 });
      return res.end();
    }
    const etag = `"${st.size}-${st.mtimeMs}"`;
    if (req.headers['if-match'] && req.headers['if-match'] !== etag) {
      res.writeHead(412, { 'Content-Length': 0 });
      return res.end();
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || '');
    const first = m ? Number(m[1]) : 0;
    const last = m ? Math.min(Number(m[2]), st.size - 1) : st.size - 1;
    const headers = { ETag: etag, 'Content-Length': last - first + 1, 'Accept-Ranges': 'bytes' };
    if (m) headers['Content-Range'] = `bytes ${first}-${last}/${st.size}`;
    res.writeHead(m ? 206 : 200, headers);
    if (req.method === 'HEAD') return res.end();
    fs.createReadStream(file, { start: first, end: last, highWaterMark: 1 << 20 }).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { endpoint: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}
