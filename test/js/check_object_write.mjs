#!/usr/bin/env node
// COPY ... TO URLs (issue 34): Parquet written into a local S3 (s3rver
// behind lib/sigv4_front.mjs, which checks every signature and body hash
// and keeps multipart uploads as S3 does) and into azurite, then read back
// by other means than ours:
//
//   options     every COPY TO option family, each written to a local file
//               and to the bucket: the object, downloaded with the AWS SDK
//               for JavaScript, is the local file byte for byte, and DuckDB
//               reads the values PostgreSQL computed (the types table of
//               lib/types_table.mjs); arrow-rs reads one
//   parts       a 20 MB file in 5 MiB parts: the parts as S3 needs them, at
//               most parts_in_flight at once; a small file in one PUT; a
//               110 MB object's backend memory (RssAnon sampled) against
//               the same COPY to a local file
//   encryption  footer and column keys: the downloaded object verified by
//               the independent verifier (lib/pme.mjs) with the key files;
//               kms_footer_key with external key material: the material
//               object is put before the file appears, and its keys,
//               unwrapped independently (lib/key_tools.mjs), verify it
//   azure       az:// and abfss:// objects in azurite (small and in
//               blocks), downloaded with Azure's SDK: the local file byte
//               for byte; COPY FROM abfss:// gives the table back
//   gs          gs:// through the S3 XML API with HMAC keys (region
//               auto): multipart and one PUT, byte for byte; COPY FROM
//   datasets    partition_by into a prefix, read by DuckDB from a download
//               of the tree; an existing prefix refused; overwrite_or_ignore
//               numbering; overwrite deleting only old data files after the
//               new ones appear; success_marker last; 10,000 partitions
//               with max_open_files 100
//   faults      a part answered 503 once, a part's connection reset: the
//               same bytes; a part failing past max_retries: an ERROR naming
//               the URL and the store's error, no object, no upload left;
//               an error in the query mid-dataset: no file, no upload;
//               cancel mid-upload, and while CreateMultipartUpload is
//               answered late; pg_terminate_backend mid-upload; a
//               backend killed with SIGKILL: its upload left, then removed
//               by parquet_fdw.abort_uploads()
//   access      no user mapping, no USAGE, pg_write_server_files alone, no
//               server without parquet_fdw.object_store_role: refused;
//               options only for URLs
//
// Last line: "object_write: N passed, N failed".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { GetObjectCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { arrowRsReadParquet, duckQuery, sqlString } from './lib/duck.mjs';
import { canonDuck, canonPg, pgFamily } from './lib/canon.mjs';
import { ACCOUNT, KEY, startAzurite } from './lib/azure_emulator.mjs';
import { externalKeyMetadata, unwrapMaterial } from './lib/key_tools.mjs';
import { verifyEncryptedFile } from './lib/pme.mjs';
import { startS3, needLegacyOpenSsl } from './lib/s3_emulator.mjs';
import { connectWatched, counter, expectError, sqlError as sqlErrorOf } from './lib/stage.mjs';
import { COLUMNS, pgTypesQuery } from './lib/types_table.mjs';

needLegacyOpenSsl(import.meta.url);

const { check, summary } = counter();
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw_object_write_'));
fs.chmodSync(DIR, 0o777);
const KEYDIR = path.join(DIR, 'keys');
fs.mkdirSync(KEYDIR);
const local = (f) => path.join(DIR, f);
const ALICE = { id: 'AKIAALICE000000001', secret: 'alice/Secret+Key=0001' };
const s3 = await startS3({ credentials: new Map([[ALICE.id, { secret: ALICE.secret }]]), buckets: ['lake'] });
const sdk = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true,
  credentials: { accessKeyId: ALICE.id, secretAccessKey: ALICE.secret } });
const download = async (key) => {
  try {
    const r = await sdk.send(new GetObjectCommand({ Bucket: 'lake', Key: key }));
    return Buffer.from(await r.Body.transformToByteArray());
  } catch (e) {
    if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return null;
    throw e;
  }
};
const sdkUploads = async (prefix) => (await sdk.send(new ListMultipartUploadsCommand({ Bucket: 'lake', Prefix: prefix }))).Uploads || [];
const azr = await startAzurite();
await azr.az('PUT', '/lake', { query: { restype: 'container' } });
const blobs = new BlobServiceClient(azr.endpoint, new StorageSharedKeyCredential(ACCOUNT, KEY)).getContainerClient('lake');

const { client, q } = await connectWatched();
const sqlError = (sql, c = client) => sqlErrorOf(c, sql);
const keysBelow = async (prefix) => (await s3.list('lake', prefix)).sort();

// the postgres user must own the key directory (check_encryption.mjs's rule)
const owner = fs.statSync((await q('SHOW data_directory'))[0].data_directory);
fs.chownSync(KEYDIR, owner.uid, owner.gid);
fs.chmodSync(KEYDIR, 0o700);

const setup = [
  'CREATE EXTENSION IF NOT EXISTS parquet_fdw',
  'DROP SERVER IF EXISTS ow_s3 CASCADE', 'DROP SERVER IF EXISTS ow_s3_fragile CASCADE', 'DROP SERVER IF EXISTS ow_az CASCADE', 'DROP SERVER IF EXISTS ow_gs CASCADE',
  'DROP ROLE IF EXISTS ow_alice', 'DROP ROLE IF EXISTS ow_bob', 'DROP ROLE IF EXISTS ow_files',
  'CREATE ROLE ow_alice', 'CREATE ROLE ow_bob', 'CREATE ROLE ow_files',
  'GRANT pg_write_server_files TO ow_files',
  `CREATE SERVER ow_s3 FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', region 'us-east-1', url_style 'path')`,
  `CREATE SERVER ow_s3_fragile FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', url_style 'path', max_retries '2')`,
  `CREATE SERVER ow_az FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${azr.endpoint}', account '${ACCOUNT}')`,
  `CREATE SERVER ow_gs FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', region 'auto', url_style 'path')`,
  `CREATE USER MAPPING FOR CURRENT_USER SERVER ow_gs OPTIONS (key_id '${ALICE.id}', secret '${ALICE.secret}')`,
  'GRANT USAGE ON FOREIGN SERVER ow_s3 TO ow_alice, ow_files',
  `CREATE USER MAPPING FOR CURRENT_USER SERVER ow_s3 OPTIONS (key_id '${ALICE.id}', secret '${ALICE.secret}')`,
  `CREATE USER MAPPING FOR CURRENT_USER SERVER ow_s3_fragile OPTIONS (key_id '${ALICE.id}', secret '${ALICE.secret}')`,
  `CREATE USER MAPPING FOR ow_alice SERVER ow_s3 OPTIONS (key_id '${ALICE.id}', secret '${ALICE.secret}')`,
  `CREATE USER MAPPING FOR CURRENT_USER SERVER ow_az OPTIONS (account_key '${KEY}')`,
  'DROP TABLE IF EXISTS ow_types, ow_big, ow_parts',
  `CREATE TABLE ow_types (${COLUMNS.map((c) => `${c.name} ${c.pgType}`).join(', ')})`,
  `INSERT INTO ow_types ${pgTypesQuery()}`,
  'GRANT SELECT ON ow_types TO PUBLIC',
  'CREATE TABLE ow_big AS SELECT i AS id, md5(i::text) || md5((i * 7)::text) AS s, i * 0.5 AS x FROM generate_series(1, 300000) i',
  'CREATE TABLE ow_parts AS SELECT i AS id, (i % 7)::int AS k, (i % 3)::int AS j, md5(i::text) AS s FROM generate_series(1, 20000) i',
  `SET parquet_fdw.key_directory = ${sqlString(KEYDIR)}`,
  "SET timezone = 'UTC'", "SET datestyle = 'ISO, YMD'", "SET intervalstyle = 'iso_8601'", 'SET extra_float_digits = 3',
];
for (const s of setup) await q(s);
await q("SELECT parquet_fdw.create_key('ow_footer', 256), parquet_fdw.create_key('ow_col', 128), parquet_fdw.create_key('ow_master', 256)");
const keyBytes = (id) => Buffer.from(fs.readFileSync(path.join(KEYDIR, `${id}.key`), 'utf8').trim(), 'hex');

// PostgreSQL's own text of the types table, for DuckDB's reading to equal
const pgRows = (await client.query({ text: 'SELECT * FROM ow_types ORDER BY id', rowMode: 'array', types: { getTypeParser: () => (v) => v } })).rows;
const fams = COLUMNS.map((c) => pgFamily(c.pgType));
// numeric without typmod is written as DECIMAL(38, 9) (check_copy.mjs
// compares it); arrow-rs maps intervals and JSON its own way (lib/duck.mjs)
const SKIP = { duckdb: new Set(['c_uint8']), 'arrow-rs': new Set(['c_uint8', 'c_interval', 'c_json']) };
async function duckValues(file, reader = 'duckdb') {
  const r = reader === 'arrow-rs' ? await arrowRsReadParquet(file)
    : await duckQuery(`SELECT * FROM read_parquet(${sqlString(file)}, binary_as_string = false) ORDER BY id`);
  const p = [];
  if (r.rows.length !== pgRows.length) return [`${reader}: ${r.rows.length} rows, want ${pgRows.length}`];
  const rows = reader === 'arrow-rs' ? [...r.rows].sort((a, b) => (BigInt(a[0]) < BigInt(b[0]) ? -1 : 1)) : r.rows;
  for (let c = 0; c < COLUMNS.length && p.length < 5; c++) {
    if (SKIP[reader].has(COLUMNS[c].name)) continue;
    const idx = r.names.indexOf(COLUMNS[c].name);
    if (idx < 0) { p.push(`${reader}: no column ${COLUMNS[c].name}`); continue; }
    for (let i = 0; i < rows.length; i++) {
      const want = pgRows[i][c] === null ? 'NULL' : canonPg(fams[c], pgRows[i][c]);
      let got;
      try {
        got = rows[i][idx] === null ? 'NULL' : canonDuck(fams[c], rows[i][idx], r.typeObjs[idx]);
      } catch (e) { got = `(${e.message})`; }
      if (got !== want) { p.push(`${reader}: ${COLUMNS[c].name} row ${i}: ${got} vs ${want}`); break; }
    }
  }
  return p;
}

// ------------------------------------------------------------------ options
const VARIANTS = {
  plain: '',
  gzip: "compression 'gzip', compression_level 9",
  zstd: "compression 'zstd'",
  lz4: "compression 'lz4_raw'",
  brotli: "compression 'brotli'",
  uncompressed: "compression 'uncompressed'",
  row_groups: 'row_group_size 700, data_page_rows 100',
  row_group_bytes: 'row_group_size_bytes 20000, data_page_size 4096',
  page_v2: "page_version 2, dictionary false",
  no_stats: 'statistics false',
  page_index: 'page_index true, statistics_truncate_length 8',
  bloom: "bloom_filter 'c_int4, c_varchar', bloom_filter_fpp 0.01",
  kv: "key_value_metadata 'a=1, b=two', interval_truncate true",
  numeric: 'numeric_scale 4',
};
for (const [name, opts] of Object.entries(VARIANTS)) {
  const o = opts ? `, ${opts}` : '';
  const p = [];
  let e = await sqlError(`COPY ow_types TO ${sqlString(local(`${name}.parquet`))} WITH (FORMAT parquet${o})`);
  if (!e) e = await sqlError(`COPY ow_types TO 's3://lake/opts/${name}.parquet' WITH (FORMAT parquet, server 'ow_s3'${o})`);
  if (e) { check(`option set ${name}`, [`${e.code} ${e.message}`]); continue; }
  const got = await download(`opts/${name}.parquet`);
  const want = fs.readFileSync(local(`${name}.parquet`));
  if (!got) p.push('no object');
  else if (!got.equals(want)) p.push(`the object (${got.length} bytes) differs from the local file (${want.length} bytes)`);
  if (got) {
    fs.writeFileSync(local(`${name}.dl.parquet`), got);
    if (name !== 'numeric' && name !== 'kv') p.push(...await duckValues(local(`${name}.dl.parquet`)));
  }
  check(`option set ${name}: the downloaded object is the local file${name !== 'numeric' && name !== 'kv' ? ', DuckDB reads PostgreSQL\'s values' : ''}`, p);
}
check('arrow-rs reads PostgreSQL\'s values from a downloaded object', await duckValues(local('zstd.dl.parquet'), 'arrow-rs'));

// ------------------------------------------------------------------ parts
{
  const before = { ...s3.stats.writes, partSizes: [...s3.stats.writes.partSizes] };
  await q(`COPY ow_big TO ${sqlString(local('big.parquet'))} WITH (FORMAT parquet, compression 'uncompressed')`);
  await q("COPY ow_big TO 's3://lake/big.parquet' WITH (FORMAT parquet, compression 'uncompressed', server 'ow_s3', part_size '5MiB', parts_in_flight 2)");
  const w = s3.stats.writes;
  const sizes = w.partSizes.slice(before.partSizes.length);
  const want = fs.readFileSync(local('big.parquet'));
  const p = [];
  const got = await download('big.parquet');
  if (!got || !got.equals(want)) p.push('object differs from the local file');
  if (w.created - before.created !== 1) p.push(`${w.created - before.created} uploads created`);
  if (sizes.length !== Math.ceil(want.length / (5 * 1048576))) p.push(`${sizes.length} parts for ${want.length} bytes`);
  // in the order they arrived: all but the last part are 5 MiB
  if (sizes.filter((s) => s !== 5 * 1048576).length > 1) p.push(`part sizes ${sizes}`);
  if (w.partsInFlightMax > 2) p.push(`${w.partsInFlightMax} parts in flight at once, parts_in_flight 2`);
  check(`a ${(want.length / 1048576).toFixed(1)} MB file in 5 MiB parts, at most 2 in flight: the local file byte for byte`, p);
  const puts = w.puts;
  await q("COPY (SELECT 1 AS one) TO 's3://lake/one.parquet' WITH (FORMAT parquet, server 'ow_s3')");
  check('a small file goes in one PUT', s3.stats.writes.puts === puts + 1 && s3.stats.writes.created === w.created ? [] : ['not one PUT']);
}
{
  // memory: the same COPY to a local file and to the bucket, the backend's
  // RssAnon sampled; the bucket may add (parts_in_flight + 1) part buffers
  const src = "(SELECT i, md5(i::text) || md5((i * 3)::text) AS s FROM generate_series(1, 1500000) i)";
  const peak = async (target, opts) => {
    const c = new pg.Client();
    await c.connect();
    const pid = (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p;
    await c.query("LOAD 'parquet_fdw'");
    const rss = () => Number(/^RssAnon:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    const before = rss();
    let top = before;
    const timer = setInterval(() => { top = Math.max(top, rss()); }, 5);
    await c.query(`COPY ${src} TO ${target} WITH (FORMAT parquet, compression 'uncompressed'${opts})`);
    clearInterval(timer);
    await c.end();
    return (top - before) / 1024;
  };
  const localMiB = await peak(sqlString(local('mem.parquet')), '');
  const bucketMiB = await peak("'s3://lake/mem.parquet'", ", server 'ow_s3', part_size '5MiB', parts_in_flight 1");
  const size = fs.statSync(local('mem.parquet')).size / 1048576;
  const p = bucketMiB - localMiB > 2 * 5 + 8 ? [`local ${localMiB.toFixed(1)} MiB, bucket ${bucketMiB.toFixed(1)} MiB`] : [];
  check(`memory: a ${size.toFixed(0)} MB object in 5 MiB parts, 1 in flight, takes at most two part buffers more than the local file (${localMiB.toFixed(1)} vs ${bucketMiB.toFixed(1)} MiB)`, p);
}

// ------------------------------------------------------------------ encryption
{
  const opts = "footer_key 'ow_footer', column_keys 'c_varchar:ow_col, c_int4:ow_col'";
  await q(`COPY ow_types TO 's3://lake/enc/types.parquet' WITH (FORMAT parquet, server 'ow_s3', ${opts})`);
  const got = await download('enc/types.parquet');
  const p = [];
  if (!got) p.push('no object');
  else {
    const r = verifyEncryptedFile(got, { footerKey: keyBytes('ow_footer'), columnKeys: { c_varchar: keyBytes('ow_col'), c_int4: keyBytes('ow_col') } });
    if (r.errors?.length) p.push(...r.errors.map((x) => `verifier: ${x}`));
    if (!r.columns?.some((c) => c.path === 'c_varchar' && c.encryption !== 'plaintext')) p.push('c_varchar not encrypted');
  }
  check('an encrypted object (footer and column keys) verified by the independent verifier', p);
}
{
  const events = s3.stats.writes.events.length;
  await q("COPY ow_types TO 's3://lake/kms/types.parquet' WITH (FORMAT parquet, server 'ow_s3', kms_footer_key 'ow_master', key_material 'external', double_wrapping false)");
  const ev = s3.stats.writes.events.slice(events).map(([op, k]) => `${op} ${k}`);
  const p = [];
  const matKey = 'kms/_KEY_MATERIAL_FOR_types.parquet.json';
  if (ev.indexOf(`put ${matKey}`) < 0 || ev.indexOf(`put ${matKey}`) > ev.findIndex((x) => x.endsWith(' kms/types.parquet')))
    p.push(`order of writes: ${ev.join(', ')}`);
  const material = await download(matKey);
  const file = await download('kms/types.parquet');
  if (!material || !file) p.push('material or file missing');
  else {
    try {
      const text = material.toString();
      const footer = unwrapMaterial(externalKeyMetadata('footerKey'), { ow_master: keyBytes('ow_master') }, text);
      const r = verifyEncryptedFile(file, { footerKey: footer });
      if (r.errors?.length) p.push(...r.errors.map((x) => `verifier: ${x}`));
    } catch (e) { p.push(`independent unwrap: ${e.message}`); }
  }
  check('kms_footer_key with external key material: the material object first, its keys verify the object', p);
}

// ------------------------------------------------------------------ azure
{
  const p = [];
  await q(`COPY ow_types TO ${sqlString(local('az_small.parquet'))} WITH (FORMAT parquet)`);
  await q("COPY ow_types TO 'az://lake/w/small.parquet' WITH (FORMAT parquet, server 'ow_az')");
  await q("COPY ow_big TO 'az://lake/w/big.parquet' WITH (FORMAT parquet, compression 'uncompressed', server 'ow_az', part_size '5MiB')");
  const small = await blobs.getBlobClient('w/small.parquet').downloadToBuffer();
  const big = await blobs.getBlobClient('w/big.parquet').downloadToBuffer();
  const blocks = await blobs.getBlockBlobClient('w/big.parquet').getBlockList('committed');
  if (!small.equals(fs.readFileSync(local('az_small.parquet')))) p.push('small blob differs');
  if (!big.equals(fs.readFileSync(local('big.parquet')))) p.push('big blob differs');
  if (blocks.committedBlocks.length < 2) p.push(`${blocks.committedBlocks.length} blocks`);
  check('az:// objects (one Put Blob; blocks and a block list) downloaded with Azure\'s SDK: the local files byte for byte', p);
}

{
  // abfss:// names the same container and blob through the DFS host name
  const p = [];
  await q(`COPY ow_big TO 'abfss://lake@${ACCOUNT}.dfs.core.windows.net/w/dfs.parquet' WITH (FORMAT parquet, compression 'uncompressed', server 'ow_az', part_size '5MiB')`);
  const got = await blobs.getBlobClient('w/dfs.parquet').downloadToBuffer();
  if (!got.equals(fs.readFileSync(local('big.parquet')))) p.push('blob differs');
  await q('CREATE TEMP TABLE ow_back_az (LIKE ow_big)');
  await q(`COPY ow_back_az FROM 'abfss://lake@${ACCOUNT}.dfs.core.windows.net/w/dfs.parquet' WITH (FORMAT parquet, server 'ow_az')`);
  const diff = await q('SELECT count(*) AS n FROM ((TABLE ow_big EXCEPT ALL TABLE ow_back_az) UNION ALL (TABLE ow_back_az EXCEPT ALL TABLE ow_big)) d');
  if (diff[0].n !== '0') p.push(`COPY FROM: ${diff[0].n} rows differ`);
  check('abfss:// in blocks: Azure\'s SDK downloads the local file byte for byte; COPY FROM abfss:// gives the table back', p);
}

// ------------------------------------------------------------------ gs://
// Google Cloud Storage's XML API speaks S3's multipart uploads with HMAC keys
{
  const p = [];
  const before = { ...s3.stats.writes };
  await q("COPY ow_big TO 'gs://lake/gs/big.parquet' WITH (FORMAT parquet, compression 'uncompressed', server 'ow_gs', part_size '5MiB')");
  await q("COPY ow_types TO 'gs://lake/gs/small.parquet' WITH (FORMAT parquet, server 'ow_gs')");
  if (s3.stats.writes.completed !== before.completed + 1 || s3.stats.writes.puts !== before.puts + 1) p.push('not one multipart upload and one PUT');
  const big = await download('gs/big.parquet');
  if (!big || !big.equals(fs.readFileSync(local('big.parquet')))) p.push('big object differs');
  await q('CREATE TEMP TABLE ow_back_gs (LIKE ow_big)');
  await q("COPY ow_back_gs FROM 'gs://lake/gs/big.parquet' WITH (FORMAT parquet, server 'ow_gs')");
  const diff = await q('SELECT count(*) AS n FROM ((TABLE ow_big EXCEPT ALL TABLE ow_back_gs) UNION ALL (TABLE ow_back_gs EXCEPT ALL TABLE ow_big)) d');
  if (diff[0].n !== '0') p.push(`COPY FROM: ${diff[0].n} rows differ`);
  check('gs:// (S3 XML API, HMAC keys): multipart and one PUT, the local file byte for byte; COPY FROM gs:// gives the table back', p);
}

// ------------------------------------------------------------------ datasets
const duckTree = async (prefix, sql) => {
  const dir = local(`tree_${prefix.replace(/\W/g, '_')}`);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const k of await keysBelow(prefix)) {
    fs.mkdirSync(path.dirname(path.join(dir, k)), { recursive: true });
    fs.writeFileSync(path.join(dir, k), await download(k));
  }
  return (await duckQuery(sql(sqlString(path.join(dir, prefix, '**/*.parquet'))))).rows.map((r) => r.map(String).join('|'));
};
const pgText = async (sql) => (await client.query({ text: sql, rowMode: 'array' })).rows.map((r) => r.map(String).join('|'));
{
  await q("COPY ow_parts TO 's3://lake/ds' WITH (FORMAT parquet, server 'ow_s3', partition_by (k, j), row_group_size 1000, success_marker true)");
  const keys = await keysBelow('ds/');
  const p = [];
  if (keys.length !== 22 || keys[0] !== 'ds/_SUCCESS') p.push(`keys: ${keys.length} ${keys.slice(0, 3)}`);
  const ev = s3.stats.writes.events.filter(([, k]) => k.startsWith('ds/')).map(([, k]) => k);
  if (ev[ev.length - 1] !== 'ds/_SUCCESS') p.push('_SUCCESS not last');
  const got = await duckTree('ds/', (g) => `SELECT k, j, count(*), sum(id) FROM read_parquet(${g}, hive_partitioning = true) GROUP BY 1, 2 ORDER BY 1, 2`);
  const want = await pgText('SELECT k, j, count(*), sum(id) FROM ow_parts GROUP BY 1, 2 ORDER BY 1, 2');
  if (got.join() !== want.join()) p.push(`DuckDB ${got.slice(0, 2)} vs ${want.slice(0, 2)}`);
  check('partition_by into a prefix: 21 hive folders and _SUCCESS last; DuckDB reads the download as PostgreSQL sums the table', p);
}
{
  await s3.put('lake', 'ds/README.txt', 'not ours');
  check('a prefix with objects is refused without overwrite options',
    expectError(await sqlError("COPY ow_parts TO 's3://lake/ds' WITH (FORMAT parquet, server 'ow_s3', partition_by (k))"), '58P02', /already exists/));
  await q("COPY (SELECT * FROM ow_parts WHERE id <= 70) TO 's3://lake/ds' WITH (FORMAT parquet, server 'ow_s3', partition_by (k, j), overwrite_or_ignore true)");
  const keys = await keysBelow('ds/k=0/j=0/');
  check('overwrite_or_ignore adds data_1.parquet beside data_0.parquet', keys.join() === 'ds/k=0/j=0/data_0.parquet,ds/k=0/j=0/data_1.parquet' ? [] : [keys.join()]);
  const events = s3.stats.writes.events.length;
  await q("COPY (SELECT * FROM ow_parts WHERE id <= 700) TO 's3://lake/ds' WITH (FORMAT parquet, server 'ow_s3', partition_by (k), overwrite true)");
  const after = await keysBelow('ds/');
  const ev = s3.stats.writes.events.slice(events);
  const p = [];
  if (!after.includes('ds/README.txt')) p.push('README.txt deleted');
  if (after.some((k) => k.includes('j='))) p.push('old files left');
  if (after.includes('ds/_SUCCESS')) p.push('old _SUCCESS left');
  const firstDelete = ev.findIndex(([op, k]) => op === 'delete' && k.includes('/data_'));
  const lastNew = ev.map(([op]) => op).lastIndexOf('complete');
  if (firstDelete < lastNew) p.push('an old file deleted before every new one appeared');
  const got = await duckTree('ds/', (g) => `SELECT k, count(*), sum(id) FROM read_parquet(${g}, hive_partitioning = true) GROUP BY 1 ORDER BY 1`);
  const want = await pgText('SELECT k, count(*), sum(id) FROM ow_parts WHERE id <= 700 GROUP BY 1 ORDER BY 1');
  if (got.join() !== want.join()) p.push(`DuckDB ${got.slice(0, 2)} vs ${want.slice(0, 2)}`);
  check('overwrite: the new files appear, then the old data files and _SUCCESS go; README.txt stays', p);
}
{
  const t = Date.now();
  const e = await sqlError("COPY (SELECT i AS id, i % 10000 AS p FROM generate_series(1, 30000) i ORDER BY p) TO 's3://lake/many' WITH (FORMAT parquet, server 'ow_s3', partition_by (p), max_open_files 100)");
  const keys = e ? [] : await keysBelow('many/');
  const p = e ? [`${e.code} ${e.message}`] : [];
  if (!e && new Set(keys.map((k) => k.split('/')[1])).size !== 10000) p.push(`${keys.length} objects`);
  if (!e) {
    // 10,000 downloads through s3rver would take minutes: DuckDB reads the
    // bytes where s3rver stores them
    const glob = s3.storedFile('lake', 'many/**/*.parquet');
    const [[n, s, bad, parts]] = (await duckQuery(`SELECT count(*), sum(id), count(*) FILTER (WHERE id % 10000 <> p), count(DISTINCT p) FROM read_parquet(${sqlString(glob)}, hive_partitioning = true)`)).rows;
    if (`${n}|${s}|${bad}|${parts}` !== `30000|${30000 * 30001 / 2}|0|10000`) p.push(`DuckDB read ${n}|${s}|${bad}|${parts}`);
    await q("CREATE FOREIGN TABLE IF NOT EXISTS ow_many (id int, p int) SERVER ow_s3 OPTIONS (filename 's3://lake/many/', hive_partitioning 'true')");
    const r = await q('SELECT count(*) AS n, sum(id) AS s FROM ow_many WHERE p = 4321');
    if (r[0].n !== '3' || r[0].s !== String(3 * 4321 + 10000 + 20000)) p.push(`read back ${JSON.stringify(r[0])}`);
  }
  if ((await sdkUploads('many/')).length) p.push('uploads left');
  check(`10,000 partitions with max_open_files 100: 10,000 folders, DuckDB reads them all, one partition read back (${((Date.now() - t) / 1000).toFixed(1)} s)`, p);
}

// ------------------------------------------------------------------ faults
const copyBig = (key, server = 'ow_s3', extra = '') => `COPY ow_big TO 's3://lake/${key}' WITH (FORMAT parquet, compression 'uncompressed', server '${server}', part_size '5MiB'${extra})`;
for (const kind of ['503', 'reset']) {
  let n = 0;
  s3.setFault(({ key, part }) => (key === `faults/${kind}.parquet` && part === 2 && n === 0 ? (n++, kind) : null));
  const e = await sqlError(copyBig(`faults/${kind}.parquet`));
  s3.setFault(null);
  const got = await download(`faults/${kind}.parquet`);
  check(`a part answered ${kind === '503' ? '503' : 'with a reset connection'} once is sent again: the same bytes`,
    e ? [`${e.code} ${e.message}`] : got && got.equals(fs.readFileSync(local('big.parquet'))) && n === 1 ? [] : ['object differs or fault not hit']);
}
{
  const aborted = s3.stats.writes.aborted;
  s3.setFault(({ key, part }) => (key === 'faults/always.parquet' && part === 2 ? '503' : null));
  const e = await sqlError(copyBig('faults/always.parquet', 'ow_s3_fragile'));
  s3.setFault(null);
  const p = expectError(e, '58030', /s3:\/\/lake\/faults\/always\.parquet.*after 3 attempts.*HTTP status 503/s);
  if (await download('faults/always.parquet')) p.push('object visible');
  if ((await sdkUploads('faults/')).length) p.push('upload left');
  if (s3.stats.writes.aborted !== aborted + 1) p.push('not aborted');
  check('a part failing past max_retries: an ERROR naming the URL and status, no object, the upload aborted', p);
}
{
  const e = await sqlError("COPY (SELECT id, k, s, 1 / (20000 - id) AS z FROM ow_parts) TO 's3://lake/broken' WITH (FORMAT parquet, server 'ow_s3', partition_by (k), row_group_size 500, file_size_bytes '20kB')");
  const p = expectError(e, '22012', /division by zero/);
  if ((await keysBelow('broken/')).length) p.push('files visible');
  if ((await sdkUploads('broken/')).length) p.push('uploads left');
  check('an ERROR in the query mid-dataset: no file visible, no upload left', p);
}
async function midUpload(what, act, { fault = 'delay', waitFor = 'part' } = {}) {
  const other = new pg.Client();
  await other.connect();
  const pid = (await other.query('SELECT pg_backend_pid() AS p')).rows[0].p;
  s3.setFault((r) => (r.key === `faults/${what}.parquet` ? (typeof fault === 'function' ? fault(r) : fault) : null));
  const running = other.query(copyBig(`faults/${what}.parquet`)).then(() => null, (e) => e);
  other.on('error', () => {});
  const t = Date.now();
  // this object's request in flight (an earlier test's may still be)
  while (!s3.stats.writes.inFlight.get(`${waitFor} faults/${what}.parquet`) && Date.now() - t < 30000) await new Promise((r) => setTimeout(r, 50));
  await act(pid);
  const e = await running;
  s3.setFault(null);
  await other.end().catch(() => {});
  return e;
}
{
  const e = await midUpload('cancel', (pid) => q('SELECT pg_cancel_backend($1)', [pid]));
  const p = expectError(e, '57014', /cancel/);
  if (await download('faults/cancel.parquet')) p.push('object visible');
  if ((await sdkUploads('faults/')).length) p.push('upload left');
  check('cancel mid-upload: no object, the upload aborted', p);
}
{
  // the UploadId not yet known: the create's answer is awaited, then aborted
  const createdBefore = s3.stats.writes.created;
  const e = await midUpload('creating', (pid) => q('SELECT pg_cancel_backend($1)', [pid]),
    { fault: ({ method, query }) => (method === 'POST' && query.has('uploads') ? 'delay' : null), waitFor: 'create' });
  const p = expectError(e, '57014', /cancel/);
  if (s3.stats.writes.created === createdBefore) p.push('no upload was created');
  if (await download('faults/creating.parquet')) p.push('object visible');
  if ((await sdkUploads('faults/')).length) p.push('upload left');
  check('cancel while CreateMultipartUpload is answered late: the upload it made is aborted', p);
}
{
  const e = await midUpload('terminate', (pid) => q('SELECT pg_terminate_backend($1)', [pid]));
  const p = e ? [] : ['no error'];
  await new Promise((r) => setTimeout(r, 500));
  if (await download('faults/terminate.parquet')) p.push('object visible');
  if ((await sdkUploads('faults/')).length) p.push('upload left');
  check('pg_terminate_backend mid-upload: no object, the exiting backend aborted the upload', p);
}

// ------------------------------------------------------------------ access
{
  const as = async (role, sql) => { await q(`SET ROLE ${role}`); const e = await sqlError(sql); await q('RESET ROLE'); return e; };
  check('a role without a user mapping is refused, pg_write_server_files or not',
    expectError(await as('ow_files', "COPY ow_types TO 's3://lake/acl/x.parquet' WITH (FORMAT parquet, server 'ow_s3')"), '42704', /user mapping not found for role "ow_files"/));
  check('a role without USAGE on the server is refused',
    expectError(await as('ow_bob', "COPY ow_types TO 's3://lake/acl/x.parquet' WITH (FORMAT parquet, server 'ow_s3')"), '42501', /permission denied for foreign server ow_s3/));
  check('without server, a role not in parquet_fdw.object_store_role is refused the server\'s credentials',
    expectError(await as('ow_alice', "COPY ow_types TO 's3://lake/acl/x.parquet' WITH (FORMAT parquet)"), '42501', /credentials of the database server/));
  const e = await as('ow_alice', "COPY ow_types TO 's3://lake/acl/alice.parquet' WITH (FORMAT parquet, server 'ow_s3')");
  check('a role with USAGE and its own mapping writes without pg_write_server_files', e ? [`${e.code} ${e.message}`] : (await download('acl/alice.parquet')) ? [] : ['no object']);
  check('server is refused for a local file',
    expectError(await sqlError(`COPY ow_types TO ${sqlString(local('x.parquet'))} WITH (FORMAT parquet, server 'ow_s3')`), '22023', /applies only to URLs/));
  check('part_size below 5 MiB is refused',
    expectError(await sqlError("COPY ow_types TO 's3://lake/x.parquet' WITH (FORMAT parquet, server 'ow_s3', part_size '1MB')"), '22023', /part_size/));
  check('an http:// target is refused',
    expectError(await sqlError("COPY ow_types TO 'https://example.invalid/x.parquet' WITH (FORMAT parquet, server 'ow_s3')"), '0A000', /take no uploads/));
}

// A backend killed outright leaves its upload; abort_uploads() removes it.
// Last: the postmaster restarts every backend after a SIGKILL.
{
  client.on('error', () => {});	// the crash restart ends every session
  const e = await midUpload('killed', async (pid) => { process.kill(pid, 'SIGKILL'); });
  const p = e ? [] : ['no error'];
  const left = await sdkUploads('faults/killed');
  if (left.length !== 1) p.push(`${left.length} uploads left after SIGKILL`);
  let c2 = null;
  for (let i = 0; i < 100 && !c2; i++) {
    try { c2 = new pg.Client(); await c2.connect(); } catch { c2 = null; await new Promise((r) => setTimeout(r, 200)); }
  }
  const young = (await c2.query("SELECT * FROM parquet_fdw.abort_uploads('s3://lake/faults/', 'ow_s3')")).rows;
  if (young.length !== 0) p.push('an upload younger than older_than aborted');
  const rows = (await c2.query("SELECT * FROM parquet_fdw.abort_uploads('s3://lake/faults/', 'ow_s3', '0')")).rows;
  if (rows.length !== 1 || rows[0].url !== 's3://lake/faults/killed.parquet' || rows[0].upload_id !== left[0]?.UploadId) p.push(`abort_uploads: ${JSON.stringify(rows)}`);
  if ((await sdkUploads('faults/')).length) p.push('upload left after abort_uploads');
  await c2.end();
  check('SIGKILL mid-upload leaves the upload; abort_uploads(prefix, server, \'0\') lists and aborts it', p);
}

await client.end().catch(() => {});
await s3.stop();
await azr.stop();
fs.rmSync(DIR, { recursive: true, force: true });
process.exit(summary('object_write'));
