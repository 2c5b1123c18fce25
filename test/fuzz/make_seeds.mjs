#!/usr/bin/env node
// Seed corpora for the libFuzzer targets (test/fuzz/), cut from real
// Parquet files: node make_seeds.mjs OUTDIR FILE_OR_DIR...
//
//   file      the files themselves (up to 256 KiB)
//   thrift    footers, page headers, column and offset indexes, each after
//             the selector byte fuzz_thrift.c reads
//   page      v1 data pages with the header fuzz_page.c reads (type,
//             encoding, codec, levels, counts) taken from their chunk
//   decrypt   footers and page headers as plaintexts of modes 0 and 1
//   variant   the corpus's variant/ metadata and value pairs
//   assemble  a few level streams of every schema shape
//   delta_log Delta Lake logs: a table's first commits joined by 0x00
//   iceberg_metadata, iceberg_manifest  Iceberg metadata files, manifest
//             lists and manifests as they are
//   iceberg_deletes  the Parquet files of Iceberg tables (position and
//             equality delete files first, then data files) as they are
//   json      single lines of those logs, and their schemaString
//   http      response header blocks, XML error bodies and listings as S3,
//             GCS and Azure send them; STS, container and instance metadata
//             credential answers; a shared credentials file
//
// The files are read with the project's own independent Thrift decoder
// (test/js/lib/thrift_compact.mjs), not with the code under test.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeStruct } from '../js/lib/thrift_compact.mjs';

const [out, ...inputs] = process.argv.slice(2);
if (!out) {
  console.error('usage: make_seeds.mjs OUTDIR FILE_OR_DIR...');
  process.exit(2);
}
const MAX_SEEDS = 400;
const counts = {};

function seed(target, bytes) {
  counts[target] = counts[target] ?? 0;
  if (counts[target] >= MAX_SEEDS || bytes.length > 262144) return;
  const dir = path.join(out, target);
  fs.mkdirSync(dir, { recursive: true });
  const name = crypto.createHash('sha1').update(bytes).digest('hex');
  fs.writeFileSync(path.join(dir, name), bytes);
  counts[target]++;
}

const u8 = (...b) => Buffer.from(b);
const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v >>> 0); return b; };
const ENCODINGS = [0, 2, 3, 4, 5, 6, 7, 8, 9]; // fuzz_page.c's table

/** Leaves in column order with their type, length and maximum levels. */
function leaves(schema) {
  const res = [];
  let i = 1;
  const walk = (def, rep) => {
    const el = schema[i++];
    const r = el[3] ?? 0;
    const d = def + (r === 0 ? 0 : 1);
    const p = rep + (r === 2 ? 1 : 0);
    if (el[5] === undefined || el[5] === 0) res.push({ type: el[1], len: el[2] ?? 0, def: d, rep: p });
    else for (let k = 0; k < el[5]; k++) walk(d, p);
  };
  const n = schema[0][5] ?? 0;
  for (let k = 0; k < n && i < schema.length; k++) walk(0, 0);
  return res;
}

function fromFile(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 12) return;
  if (buf.length <= 262144) seed('file', buf);
  const magic = buf.subarray(buf.length - 4).toString('latin1');
  if (magic !== 'PAR1') return; // encrypted footers: no plaintext to cut
  const flen = buf.readUInt32LE(buf.length - 8);
  if (flen + 12 > buf.length) return;
  const footer = buf.subarray(buf.length - 8 - flen, buf.length - 8);
  seed('thrift', Buffer.concat([u8(0), footer]));
  seed('decrypt', Buffer.concat([u8(0, 0, 8), Buffer.from('uniqueid'), footer]));
  let md;
  try { md = decodeStruct(footer).value; } catch { return; }
  let cols;
  try { cols = leaves(md[2]); } catch { return; }
  for (const rg of md[4] ?? []) {
    (rg[1] ?? []).forEach((cc, c) => { try {
      const cm = cc[3];
      if (cc[4] !== undefined && cc[5] !== undefined)
        seed('thrift', Buffer.concat([u8(4), buf.subarray(Number(cc[4]), Number(cc[4]) + cc[5])]));
      if (cc[6] !== undefined && cc[7] !== undefined)
        seed('thrift', Buffer.concat([u8(3), buf.subarray(Number(cc[6]), Number(cc[6]) + cc[7])]));
      if (!cm || !cols[c]) return;
      const dict = cm[11] !== undefined && Number(cm[11]) > 0 ? Number(cm[11]) : Infinity;
      let off = Math.min(dict, Number(cm[9]));
      const end = off + Number(cm[7]);
      for (let pages = 0; off < end && off < buf.length && pages < 4; pages++) {
        let ph;
        try { ph = decodeStruct(buf, off, Math.min(buf.length, off + 4096)); } catch { return; }
        const csize = Number(ph.value[3] ?? 0);
        const hdr = buf.subarray(off, ph.end);
        const body = buf.subarray(ph.end, ph.end + csize);
        seed('thrift', Buffer.concat([u8(2), hdr]));
        seed('decrypt', Buffer.concat([u8(1, 4, 0, 255, 1, 0, 0), hdr]));
        const dp = ph.value[5];
        if (ph.value[1] === 0 && dp && ENCODINGS.includes(dp[2])) {
          const col = cols[c];
          seed('page', Buffer.concat([
            u8(col.type, Math.max(col.len - 1, 0), ENCODINGS.indexOf(dp[2]), cm[4], col.def, col.rep, 0),
            u32(Number(dp[1])), u32(Number(ph.value[2])), u8(255), body]));
        }
        off = ph.end + csize;
      }
    } catch { /* a chunk the walk cannot follow gives no seeds */ } });
  }
}

function fromDir(dir) {
  for (const name of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    const st = fs.statSync(p);
    if (st.isFile() && /\.parq(uet)?$/.test(name) && p.split(path.sep).includes('iceberg'))
      icebergParquet.push(p);
    if (st.isDirectory()) {
      if (name === 'variant') fromVariant(p);
      else {
        if (name === '_delta_log') fromDeltaLog(p);
        fromDir(p);
      }
    } else if (/\.parquet(\.encrypted)?$/.test(name)) {
      fromFile(p);
    } else if (name.endsWith('.metadata.json')) {
      seed('iceberg_metadata', fs.readFileSync(p));
    } else if (name.endsWith('.avro') && st.size <= 262144) {
      seed('iceberg_manifest', fs.readFileSync(p));
    }
  }
}

function fromDeltaLog(dir) {
  const commits = fs.readdirSync(dir).filter((n) => /^\d{20}\.json$/.test(n)).sort().slice(0, 4);
  const texts = commits.map((n) => fs.readFileSync(path.join(dir, n)));
  if (texts.length === 0) return;
  seed('delta_log', Buffer.concat(texts.flatMap((t, i) => (i ? [u8(0), t] : [t]))));
  for (const line of texts[0].toString('utf8').split('\n').filter(Boolean)) {
    seed('json', Buffer.from(line));
    try {
      const md = JSON.parse(line).metaData;
      if (md?.schemaString) seed('json', Buffer.from(md.schemaString));
    } catch { /* a line that is not JSON seeds as it is */ }
  }
}

function fromVariant(dir) {
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.metadata')).sort()) {
    const base = name.slice(0, -'.metadata'.length);
    const valueFile = path.join(dir, `${base}.value`);
    if (!fs.existsSync(valueFile)) continue;
    const meta = fs.readFileSync(path.join(dir, name));
    seed('variant', Buffer.concat([u8(0, meta.length & 255, meta.length >> 8), meta, fs.readFileSync(valueFile)]));
  }
}

// Iceberg tables' Parquet files, met by fromDir: delete files first (a
// table's files name them "delete" or, for equality deletes, end in -00002)
const icebergParquet = [];
for (const input of inputs) {
  if (!fs.existsSync(input)) continue;
  if (fs.statSync(input).isDirectory()) fromDir(input);
  else fromFile(input);
}
const isDelete = (p) => /delete/.test(path.basename(p)) || /-0000[2-9]\.parquet$/.test(p);
for (const p of [...icebergParquet.filter(isDelete), ...icebergParquet.filter((p) => !isDelete(p))])
  seed('iceberg_deletes', fs.readFileSync(p));
// level streams: shape, segment size, batch, skip, then per leaf a count and levels
for (let shape = 0; shape < 7; shape++) {
  for (const s of [1, 3, 64]) {
    const levels = [];
    for (let k = 0; k < 40; k++) levels.push(((k * 7) % 3) << 4 | ((k * 5) % 6));
    seed('assemble', Buffer.concat([u8(shape, s - 1, 2, 1), ...[0, 1, 2].map(() => Buffer.concat([u8(40), Buffer.from(levels)]))]));
  }
}
seed('variant', u8(1, 0, 0, 0, 0, 0, 0));
for (const [status, headers, body] of [
  [206, ['ETag: "3858f62230ac3c915f300c664312c11f"', 'Content-Length: 8', 'Content-Range: bytes 1016-1023/1024'], ''],
  [200, ['Content-Length: 1024', 'ETag: W/"x"', 'Accept-Ranges: bytes'], ''],
  [503, ['Retry-After: 2', 'Content-Length: 0'], ''],
  [403, ['Content-Type: application/xml'], '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied &amp; &#39;more&#39;</Message><RequestId>X</RequestId></Error>'],
  [404, ['x-ms-error-code: BlobNotFound'], '\ufeff<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code><Message>The specified blob does not exist.\nRequestId:1</Message></Error>'],
  [416, ['Content-Range: bytes */1024'], ''],
  [200, ['Content-Type: application/xml'], '\ufeff<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="http://a/" ContainerName="c"><Prefix>y/</Prefix><Blobs><Blob><Name>y/a&amp;b.parquet</Name><Properties><Content-Length>12</Content-Length><Etag>0x8D</Etag></Properties></Blob><BlobPrefix><Name>y/m=1/</Name></BlobPrefix></Blobs><NextMarker>2!96!x</NextMarker></EnumerationResults>'],
  [200, ['Content-Type: application/xml'], '<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>y/</Prefix><IsTruncated>true</IsTruncated><NextContinuationToken>1ue/x=</NextContinuationToken><Contents><Key>y/a b&amp;&#x27;.parquet</Key><Size>434234</Size><ETag>&quot;fba9&quot;</ETag></Contents><CommonPrefixes><Prefix>y/m=1/</Prefix></CommonPrefixes></ListBucketResult>'],
  [200, ['Content-Type: application/xml'], '<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>b</Bucket><NextKeyMarker>y/b.parquet</NextKeyMarker><NextUploadIdMarker>VXBsb2Fk</NextUploadIdMarker><IsTruncated>true</IsTruncated><Upload><Key>y/a &amp; b.parquet</Key><UploadId>XMgbGlr</UploadId><Initiator><ID>arn:aws:iam::1:user/u</ID></Initiator><Initiated>2010-11-10T20:48:33.000Z</Initiated></Upload></ListMultipartUploadsResult>'],
  [200, ['Content-Type: text/xml'], '<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleWithWebIdentityResult><Credentials><SessionToken>AQoDYXdzEE0a8ANXXXXXXXXNO1ewxE5TijQyp+IEXAMPLE</SessionToken><SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY</SecretAccessKey><Expiration>2014-10-24T23:00:23Z</Expiration><AccessKeyId>ASgeIAIOSFODNN7EXAMPLE</AccessKeyId></Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>'],
  [200, ['Content-Type: application/json'], '{\n  "Code" : "Success",\n  "LastUpdated" : "2012-04-26T16:39:16Z",\n  "Type" : "AWS-\\u0048MAC \\u00e9\\ud834\\udd1e",\n  "AccessKeyId" : "ASIAIOSFODNN7EXAMPLE",\n  "SecretAccessKey" : "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",\n  "Token" : "token",\n  "Expiration" : "2017-05-17T15:09:54.000+02:00",\n  "Nested" : [1, -2.5e3, {"a": null, "b": true}]\n}'],
  [200, [], '# c\n[default]\r\naws_access_key_id = AKIAIOSFODNN7EXAMPLE ; c\naws_secret_access_key=wJalr\n[profile dev]\nregion = eu-west-1\ns3 =\n  max_concurrent_requests = 20\n'],
  [200, [], '2019-11-09T08:04:41.5-05:30'],
])
  seed('http', Buffer.from(`HTTP/1.1 ${status} X\r\n${headers.map((h) => h + '\r\n').join('')}\r\n${body}`));
console.log(`seeds: ${Object.entries(counts).map(([t, n]) => `${t} ${n}`).join(', ')}`);
