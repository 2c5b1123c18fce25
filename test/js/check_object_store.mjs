#!/usr/bin/env node
// Foreign tables over s3:// URLs (issue 39), read through a local S3
// (lib/s3_emulator.mjs: s3rver behind a front that checks every SigV4
// signature with the AWS SDK's signer), compared with the same files read
// locally (a foreign table over the local copy) and with DuckDB reading
// the local copy:
//
//   files       one file, a list, a prefix ending with "/", globs with *,
//               ** and classes, a mix of a URL and a local path
//   datasets    a hive tree DuckDB wrote, with partition quals; union_by_name
//   plans       parallel plans, in-scan aggregates, top-N, footer answers,
//               ANALYZE, IMPORT FOREIGN SCHEMA of a prefix, create_table_sql,
//               COPY FROM a URL with the option server
//   access      per-role user mappings, a role without one refused, a wrong
//               secret refused as S3 refuses it (the store's message shown),
//               anonymous reads of a public bucket (a mapping without
//               keys), URLs refused without a server; option validation
//   chain       use_credential_chain: the server process's own keys from its
//               environment, a profile of its credentials file (--aws-dir:
//               where the test's scripts/test.sh pointed the server's
//               AWS_SHARED_CREDENTIALS_FILE), only for superusers and members
//               of parquet_fdw.object_store_role; anonymous reads unbroken by
//               the AWS variables in the server's environment
//   secrets     no key id's secret or session token in EXPLAIN VERBOSE,
//               errors, pg_stat_activity or the server log at debug5
//   requests    a cached footer is not read again; a row group's chunks go
//               out together (request counts from the front)
//   azure       az:// and abfss:// objects in azurite (Shared Key and an
//               account SAS made here from Azure's documentation): one
//               object, a prefix, a hive tree, a wrong key refused
//   faults      http:// and https:// objects behind lib/fault_server.mjs:
//               503 with Retry-After, 429, a reset mid-body, a slow first
//               byte past request_timeout, a wrong Content-Range, a range
//               ignored (the same rows); a range always wrong, 403 with the
//               store's XML, 404, an object replaced between the footer and
//               the data (errors with their SQLSTATEs); statement_timeout
//               ends a hung read; TLS verified with the server's ca_file
//
//   node check_object_store.mjs --aws-dir DIR [--log SERVER_LOG]
//
// PostgreSQL through the PG* environment variables (superuser, parquet_fdw
// installed).  Last line: "object_store: N passed, N failed".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { duckQuery, sqlString } from './lib/duck.mjs';
import crypto from 'node:crypto';
import { ACCOUNT, KEY, startAzurite } from './lib/azure_emulator.mjs';
import { startFaultServer } from './lib/fault_server.mjs';
import { startS3, needLegacyOpenSsl } from './lib/s3_emulator.mjs';
import { connectWatched, counter, expectError, filesBelow, logSize, serverLogSince, sqlError as sqlErrorOf } from './lib/stage.mjs';

needLegacyOpenSsl(import.meta.url);

const argv = process.argv.slice(2);
const LOG = argv.indexOf('--log') >= 0 ? argv[argv.indexOf('--log') + 1] : null;
const AWS_DIR = argv.indexOf('--aws-dir') >= 0 ? argv[argv.indexOf('--aws-dir') + 1] : null;
const { check, summary } = counter();
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw_object_store_'));
fs.chmodSync(DIR, 0o755);

const ALICE = { id: 'AKIAALICE000000001', secret: 'alice/Secret+Key=0001' };
const CAROL = { id: 'ASIACAROL000000003', secret: 'carolSecret0003', token: 'FwoGZXIvYXdzEJr//////////wEaDM+carol=' };
// the server process's own: in its environment (scripts/test.sh), in its credentials file (written below)
const CHAIN_ENV = { id: 'AKIACHAINENV000001', secret: 'chain/env+Secret=1' };
const CHAIN_FILE = { id: 'AKIACHAINFILE00001', secret: 'chain/file+Secret=2' };
const credentials = new Map([[ALICE.id, { secret: ALICE.secret }], [CAROL.id, { secret: CAROL.secret, token: CAROL.token }],
  [CHAIN_ENV.id, { secret: CHAIN_ENV.secret }], [CHAIN_FILE.id, { secret: CHAIN_FILE.secret }]]);
if (AWS_DIR)
  fs.writeFileSync(path.join(AWS_DIR, 'credentials'),
    `[default]\naws_access_key_id = AKIAUNKNOWN0000000\naws_secret_access_key = unused\n\n[filekeys]\naws_access_key_id = ${CHAIN_FILE.id}\naws_secret_access_key = ${CHAIN_FILE.secret}\n`);
const s3 = await startS3({ credentials, buckets: ['lake', 'open-data'], publicBuckets: ['open-data'] });

// ------------------------------------------------------------------ data
const local = (f) => path.join(DIR, f);
await duckQuery(`COPY (SELECT i AS id, ((i * 7) % 50)::INTEGER AS qty, ((i % 1000) * 1.25)::DECIMAL(12,2) AS price,
  CASE i % 3 WHEN 0 THEN 'A' WHEN 1 THEN 'N' ELSE 'R' END AS flag, DATE '2024-01-01' + (i % 365)::INTEGER AS ship,
  CASE WHEN i % 11 = 0 THEN NULL ELSE 'comment ' || (i * 31 % 977) END AS comment
  FROM range(120000) t(i)) TO ${sqlString(local('items.parquet'))} (FORMAT parquet, ROW_GROUP_SIZE 10000)`);
// 30 row groups (DuckDB rounds 3000 rows up to 4096): windows of 16 read ahead in the background while one decodes
await duckQuery(`COPY (SELECT * FROM ${sqlString(local('items.parquet'))}) TO ${sqlString(local('items40.parquet'))} (FORMAT parquet, ROW_GROUP_SIZE 3000)`);
await duckQuery(`COPY (SELECT i AS id, {'a': i, 'b': 'x' || i} AS s, [i, i + 1, NULL] AS l
  FROM range(3000) t(i)) TO ${sqlString(local('nested.parquet'))} (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
fs.mkdirSync(local('parts'));
for (let p = 0; p < 4; p++)
  await duckQuery(`COPY (SELECT i AS id, i * ${p + 1} AS v FROM range(${p * 500}, ${p * 500 + 500}) t(i))
    TO ${sqlString(local(`parts/part-${p}.parquet`))} (FORMAT parquet)`);
fs.writeFileSync(local('parts/_SUCCESS'), '');
await duckQuery(`COPY (SELECT i AS id, i % 3 AS region, 2020 + i % 4 AS year, i * 0.5 AS amount FROM range(4000) t(i))
  TO ${sqlString(local('hive'))} (FORMAT parquet, PARTITION_BY (year, region))`);
fs.mkdirSync(local('evolved'));
await duckQuery(`COPY (SELECT i AS id, i::INTEGER AS n FROM range(100) t(i)) TO ${sqlString(local('evolved/a.parquet'))} (FORMAT parquet)`);
await duckQuery(`COPY (SELECT i AS id, i::BIGINT AS n, 'v' || i AS extra FROM range(100, 200) t(i)) TO ${sqlString(local('evolved/b.parquet'))} (FORMAT parquet)`);

await s3.putDir('lake', 'data/', DIR, filesBelow(DIR));
await s3.putFile('open-data', 'pub/items.parquet', local('items.parquet'));

// ------------------------------------------------------------------ SQL
const { client, q } = await connectWatched();
const qa = async (sql) => (await client.query({ text: sql, rowMode: 'array', types: { getTypeParser: () => (v) => v } })).rows;
const sqlError = (sql) => sqlErrorOf(client, sql);
const text = (rows) => rows.map((r) => r.map((v) => (v === null ? 'NULL' : v)).join('|'));
function sameRows(got, want, what) {
  const a = text(got);
  const b = text(want);
  if (a.length !== b.length) return [`${what}: ${a.length} rows, want ${b.length}`];
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i]) return [`${what}: row ${i}: ${a[i]} vs ${b[i]}`];
  return [];
}

const setup = [
  'CREATE EXTENSION IF NOT EXISTS parquet_fdw',
  'DROP SERVER IF EXISTS os_s3 CASCADE', 'DROP SERVER IF EXISTS os_pub CASCADE', 'DROP SERVER IF EXISTS os_local CASCADE',
  'DROP ROLE IF EXISTS os_alice', 'DROP ROLE IF EXISTS os_bob', 'DROP ROLE IF EXISTS os_carol', 'DROP ROLE IF EXISTS os_dave',
  'CREATE ROLE os_alice', 'CREATE ROLE os_bob', 'CREATE ROLE os_carol', 'CREATE ROLE os_dave',
  'CREATE SERVER os_local FOREIGN DATA WRAPPER parquet_fdw',
  `CREATE SERVER os_s3 FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', region 'us-east-1', url_style 'path')`,
  `CREATE SERVER os_pub FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', url_style 'path')`,
  'GRANT USAGE ON FOREIGN SERVER os_s3 TO os_alice, os_bob, os_carol, os_dave',
  `CREATE USER MAPPING FOR postgres SERVER os_s3 OPTIONS (key_id '${ALICE.id}', secret '${ALICE.secret}')`,
  `CREATE USER MAPPING FOR os_alice SERVER os_s3 OPTIONS (key_id '${ALICE.id}', secret '${ALICE.secret}')`,
  `CREATE USER MAPPING FOR os_carol SERVER os_s3 OPTIONS (key_id '${CAROL.id}', secret '${CAROL.secret}', session_token '${CAROL.token}')`,
  `CREATE USER MAPPING FOR os_dave SERVER os_s3 OPTIONS (key_id '${ALICE.id}', secret 'not-the-secret')`,
  'CREATE USER MAPPING FOR PUBLIC SERVER os_pub',
  'GRANT pg_read_server_files TO os_alice',
];
for (const s of setup) await q(s);

let tableNo = 0;
async function table(filename, { server = 'os_s3', columns, options = '' } = {}) {
  const name = `os_t${tableNo++}`;
  await q(`CREATE FOREIGN TABLE ${name} (${columns}) SERVER ${server} OPTIONS (filename ${sqlString(filename)}${options})`);
  await q(`GRANT SELECT ON ${name} TO PUBLIC`);
  return name;
}
const ITEMS = 'id bigint, qty integer, price numeric(12,2), flag text, ship date, comment text';
const URL = (k) => `s3://lake/data/${k}`;

// files: the same rows through the URL as through the local path and DuckDB
{
  const remote = await table(URL('items.parquet'), { columns: ITEMS });
  const loc = await table(local('items.parquet'), { server: 'os_local', columns: ITEMS });
  const got = await qa(`SELECT * FROM ${remote} ORDER BY id`);
  const want = await qa(`SELECT * FROM ${loc} ORDER BY id`);
  check('one object: every row equals the local file', sameRows(got, want, 'rows'));
  const duck = await duckQuery(`SELECT count(*)::VARCHAR, sum(qty)::VARCHAR, sum(price)::VARCHAR, count(comment)::VARCHAR FROM ${sqlString(local('items.parquet'))}`);
  const agg = await qa(`SELECT count(*), sum(qty), sum(price), count(comment) FROM ${remote}`);
  check('one object: aggregates equal DuckDB on the local copy', sameRows(agg, duck.rows, 'aggregates'));
  const filtered = await qa(`SELECT flag, count(*), sum(price) FROM ${remote} WHERE id BETWEEN 25000 AND 64999 AND qty < 10 GROUP BY flag ORDER BY flag`);
  const filteredLocal = await qa(`SELECT flag, count(*), sum(price) FROM ${loc} WHERE id BETWEEN 25000 AND 64999 AND qty < 10 GROUP BY flag ORDER BY flag`);
  check('one object: filtered grouping (pruned row groups) equals the local file', sameRows(filtered, filteredLocal, 'grouped'));
  const topn = await qa(`SELECT * FROM ${remote} ORDER BY price DESC, id LIMIT 7`);
  const topnLocal = await qa(`SELECT * FROM ${loc} ORDER BY price DESC, id LIMIT 7`);
  check('one object: top-N equals the local file', sameRows(topn, topnLocal, 'top-N'));
  const plan = (await q(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM ${remote}`)).map((r) => r['QUERY PLAN']).join('\n');
  check('one object: count(*) answered from the footer', /footer/i.test(plan) ? [] : [`plan: ${plan}`]);
}

// gs:// speaks S3's XML API with HMAC keys: the same requests to the endpoint
{
  await q('DROP SERVER IF EXISTS os_gs CASCADE');
  await q(`CREATE SERVER os_gs FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', region 'auto', url_style 'path')`);
  await q(`CREATE USER MAPPING FOR postgres SERVER os_gs OPTIONS (key_id '${ALICE.id}', secret '${ALICE.secret}')`);
  const remote = await table('gs://lake/data/items.parquet', { server: 'os_gs', columns: ITEMS });
  const loc = await table(local('items.parquet'), { server: 'os_local', columns: ITEMS });
  check('gs:// through an S3-compatible endpoint with HMAC keys', sameRows(await qa(`SELECT * FROM ${remote} WHERE qty = 9 ORDER BY id`),
    await qa(`SELECT * FROM ${loc} WHERE qty = 9 ORDER BY id`), 'rows'));
}

// read-ahead: three windows of row groups, the next one fetched while one decodes
{
  const remote = await table(URL('items40.parquet'), { columns: ITEMS });
  const loc = await table(local('items40.parquet'), { server: 'os_local', columns: ITEMS });
  const rg = (await qa(`SELECT num_row_groups FROM parquet_fdw.file_info('${local('items40.parquet')}')`))[0][0];
  check(`read-ahead: ${rg} row groups, every row equals the local file`,
    sameRows(await qa(`SELECT * FROM ${remote} ORDER BY id`), await qa(`SELECT * FROM ${loc} ORDER BY id`), 'rows'));
  check('read-ahead: a filtered grouping equals the local file',
    sameRows(await qa(`SELECT flag, count(*), sum(price) FROM ${remote} WHERE qty < 7 GROUP BY 1 ORDER BY 1`),
      await qa(`SELECT flag, count(*), sum(price) FROM ${loc} WHERE qty < 7 GROUP BY 1 ORDER BY 1`), 'rows'));
  const before = s3.stats.requests;
  await qa(`SELECT sum(qty), sum(price) FROM ${remote}`);
  const used = s3.stats.requests - before;
  check(`read-ahead: ${rg} row groups in ${used} requests (the HEAD and one per row group, in windows)`, used <= Number(rg) + 1 ? [] : [`${used}`]);
  // a LIMIT leaves the background window in flight: the next statement is unharmed
  await qa(`SELECT * FROM ${remote} LIMIT 5`);
  check('read-ahead: a scan ended with a window in flight leaves nothing behind',
    sameRows(await qa(`SELECT count(*) FROM ${remote}`), [['120000']], 'count'));
}

// nested columns
{
  const cols = 'id bigint, s jsonb, l bigint[]';
  const remote = await table(URL('nested.parquet'), { columns: cols });
  const loc = await table(local('nested.parquet'), { server: 'os_local', columns: cols });
  check('nested: rows equal the local file', sameRows(await qa(`SELECT * FROM ${remote} ORDER BY id`), await qa(`SELECT * FROM ${loc} ORDER BY id`), 'rows'));
}

// lists, prefixes, globs, a URL beside a local path
{
  const cols = 'id bigint, v bigint';
  const want = await qa(`SELECT * FROM ${await table(local('parts'), { server: 'os_local', columns: cols })} ORDER BY id`);
  for (const [what, filename] of [
    ['a prefix ending with "/" (the _SUCCESS marker skipped)', URL('parts/')],
    ['a glob *', URL('parts/part-*.parquet')],
    ['a glob with a class', URL('parts/part-[0-3].parquet')],
    ['a glob **', 's3://lake/data/**/part-?.parquet'],
    ['a list of URLs', [0, 1, 2, 3].map((p) => URL(`parts/part-${p}.parquet`)).join(', ')],
    ['URLs beside a local path', `${URL('parts/part-0.parquet')}, ${local('parts/part-1.parquet')}, ${URL('parts/part-2.parquet')}, ${URL('parts/part-3.parquet')}`],
  ]) {
    const t = await table(filename, { columns: cols });
    check(`files: ${what}`, sameRows(await qa(`SELECT * FROM ${t} ORDER BY id`), want, 'rows'));
  }
  const none = await table(URL('parts/nothing-*.parquet'), { columns: cols });
  check('files: a glob that matches nothing is an error', expectError(await sqlError(`SELECT * FROM ${none}`), '58P01', /no Parquet files match/));
  const missing = await table(URL('parts/missing.parquet'), { columns: cols });
  check('files: a missing object is 58P01 naming the URL', expectError(await sqlError(`SELECT * FROM ${missing}`), '58P01', /s3:\/\/lake\/data\/parts\/missing\.parquet/));
}

// hive datasets and union_by_name
{
  const cols = 'id bigint, amount double precision, year integer, region integer';
  const remote = await table(URL('hive/'), { columns: cols, options: ", hive_partitioning 'true'" });
  const loc = await table(local('hive'), { server: 'os_local', columns: cols, options: ", hive_partitioning 'true'" });
  for (const where of ['true', 'year = 2022', 'year IN (2021, 2023) AND region = 1', 'region IS NOT NULL AND amount > 1000']) {
    const sql = (t) => `SELECT * FROM ${t} WHERE ${where} ORDER BY id`;
    check(`hive: WHERE ${where}`, sameRows(await qa(sql(remote)), await qa(sql(loc)), 'rows'));
  }
  // planning lists only the partitions the quals leave, a level at a time
  const listedFrom = s3.stats.listed.length;
  const plan = (await q(`EXPLAIN (COSTS OFF) SELECT * FROM ${remote} WHERE year = 2022 AND region = 2`)).map((r) => r['QUERY PLAN']).join('\n');
  const listed = s3.stats.listed.slice(listedFrom).map((l) => `${l.prefix} ${l.delimiter}`);
  check('hive: planning lists only the partitions the quals leave',
    JSON.stringify(listed) === JSON.stringify(['data/hive/ /', 'data/hive/year=2022/ /', 'data/hive/year=2022/region=2/ /']) && /Files: 1 of 1\b/.test(plan)
      ? [] : [`listings: ${JSON.stringify(listed)}`, `plan: ${plan}`]);
  // a level the quals leave whole: the rest in one listing
  const listedFrom2 = s3.stats.listed.length;
  const plan2 = (await q(`EXPLAIN (COSTS OFF) SELECT * FROM ${remote} WHERE region = 2`)).map((r) => r['QUERY PLAN']).join('\n');
  const listed2 = s3.stats.listed.slice(listedFrom2).map((l) => `${l.prefix} ${l.delimiter}`);
  check('hive: a level the quals keep whole is listed at once, pruned after',
    JSON.stringify(listed2) === JSON.stringify(['data/hive/ /', 'data/hive/ null']) && /Files: 4 of 12 \(pruned by partition: 8\)/.test(plan2)
      ? [] : [`listings: ${JSON.stringify(listed2)}`, `plan: ${plan2}`]);
  // every partition ruled out: the whole listing tells it from an empty prefix
  check('hive: no partition left is no rows, not an error',
    sameRows(await qa(`SELECT count(*) FROM ${remote} WHERE year = 1999`), [['0']], 'count'));
  // a plan made on a narrowed listing, run in later statements: listed
  // again with the plan's file clauses, the same partitions only
  await q(`PREPARE hive_narrowed AS SELECT count(*), sum(amount * 2)::bigint FROM ${remote} WHERE year = 2022 AND region = 2`);
  const want = await qa(`SELECT count(*), sum(amount * 2)::bigint FROM ${loc} WHERE year = 2022 AND region = 2`);
  const first = sameRows(await qa('EXECUTE hive_narrowed'), want, 'first');
  const listedFrom3 = s3.stats.listed.length;
  const second = sameRows(await qa('EXECUTE hive_narrowed'), want, 'second');
  const listed3 = s3.stats.listed.slice(listedFrom3).map((l) => `${l.prefix} ${l.delimiter}`);
  check('hive: a prepared plan on a narrowed listing, executed twice later, lists the same partitions',
    [...first, ...second, ...(JSON.stringify(listed3) === JSON.stringify(['data/hive/ /', 'data/hive/year=2022/ /', 'data/hive/year=2022/region=2/ /'])
      ? [] : [`listings of the second execution: ${JSON.stringify(listed3)}`])]);
  await q('DEALLOCATE hive_narrowed');
  for (const where of ['year = 2022 AND region IN (0, 2)', 'year >= 2022 AND region <> 1', 'year::text = \'2021\'', 'year IS NULL']) {
    const sql = (t) => `SELECT * FROM ${t} WHERE ${where} ORDER BY id`;
    check(`hive (listed by partition): WHERE ${where}`, sameRows(await qa(sql(remote)), await qa(sql(loc)), 'rows'));
  }
  const duck = await duckQuery(`SELECT count(*)::VARCHAR, sum(amount * 2)::BIGINT::VARCHAR FROM read_parquet(${sqlString(local('hive/**/*.parquet'))}, hive_partitioning = true) WHERE year = 2021`);
  check('hive: equals DuckDB on the local tree', sameRows(await qa(`SELECT count(*), sum(amount * 2)::bigint FROM ${remote} WHERE year = 2021`), duck.rows, 'aggregate'));

  const ucols = 'id bigint, n bigint, extra text';
  const u = await table(URL('evolved/'), { columns: ucols, options: ", union_by_name 'true'" });
  const ul = await table(local('evolved'), { server: 'os_local', columns: ucols, options: ", union_by_name 'true'" });
  check('union_by_name over objects', sameRows(await qa(`SELECT * FROM ${u} ORDER BY id`), await qa(`SELECT * FROM ${ul} ORDER BY id`), 'rows'));
}

// parallel plans
{
  const remote = await table(URL('items.parquet'), { columns: ITEMS });
  const loc = await table(local('items.parquet'), { server: 'os_local', columns: ITEMS });
  await q('SET max_parallel_workers_per_gather = 2');
  await q('SET parallel_setup_cost = 0');
  await q('SET parallel_tuple_cost = 0');
  await q('SET min_parallel_table_scan_size = 0');
  const plan = (await q(`EXPLAIN (COSTS OFF) SELECT flag, sum(qty) FROM ${remote} WHERE comment IS NOT NULL GROUP BY flag`)).map((r) => r['QUERY PLAN']).join('\n');
  const got = await qa(`SELECT flag, sum(qty), count(*) FROM ${remote} WHERE comment IS NOT NULL GROUP BY flag ORDER BY flag`);
  const rows = await qa(`SELECT * FROM ${remote} WHERE qty = 3 ORDER BY id`);
  await q('RESET ALL');
  check('parallel: a parallel plan over an object', /Parallel Foreign Scan|Gather/.test(plan) ? [] : [`plan: ${plan}`]);
  check('parallel: grouped rows equal the local file',
    sameRows(got, await qa(`SELECT flag, sum(qty), count(*) FROM ${loc} WHERE comment IS NOT NULL GROUP BY flag ORDER BY flag`), 'rows'));
  check('parallel: filtered rows equal the local file', sameRows(rows, await qa(`SELECT * FROM ${loc} WHERE qty = 3 ORDER BY id`), 'rows'));
}

// ANALYZE, IMPORT FOREIGN SCHEMA, create_table_sql, COPY FROM
{
  const remote = await table(URL('items.parquet'), { columns: ITEMS });
  await q(`ANALYZE ${remote}`);
  const st = await q(`SELECT reltuples FROM pg_class WHERE relname = '${remote}'`);
  check('ANALYZE samples an object', Number(st[0].reltuples) === 120000 ? [] : [`reltuples ${st[0].reltuples}`]);

  await q('DROP SCHEMA IF EXISTS os_import CASCADE');
  await q('CREATE SCHEMA os_import');
  await q(`IMPORT FOREIGN SCHEMA "s3://lake/data/parts" FROM SERVER os_s3 INTO os_import`);
  const imported = (await q(`SELECT c.relname, ftoptions FROM pg_foreign_table f JOIN pg_class c ON c.oid = f.ftrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'os_import' ORDER BY 1`));
  check('IMPORT FOREIGN SCHEMA of a prefix: a table per object',
    imported.length === 4 && imported.every((r, i) => r.ftoptions.some((o) => o === `filename=s3://lake/data/parts/part-${i}.parquet`))
      ? [] : [JSON.stringify(imported)]);
  const sum = imported.length === 4 ? await qa(`SELECT (SELECT sum(v) FROM os_import."${imported[0].relname}") + (SELECT sum(v) FROM os_import."${imported[3].relname}")`) : [];
  const sumLocal = await duckQuery(`SELECT sum(v)::VARCHAR FROM read_parquet([${sqlString(local('parts/part-0.parquet'))}, ${sqlString(local('parts/part-3.parquet'))}])`);
  check('IMPORT FOREIGN SCHEMA: imported tables read the objects', sameRows(sum, sumLocal.rows, 'sum'));

  // the inspection functions: a URL through a server equals the local file
  for (const fn of ['file_info', 'metadata', 'schema']) {
    const got = await qa(`SELECT * FROM parquet_fdw.${fn}('${URL('items.parquet')}', 'os_s3')`);
    const want = await qa(`SELECT * FROM parquet_fdw.${fn}('${local('items.parquet')}')`);
    const strip = (rows) => (fn === 'schema' ? rows : rows.map((r) => r.slice(1)));
    const names = fn === 'schema' ? [] : got.map((r) => r[0]).filter((n) => n !== URL('items.parquet'));
    check(`${fn}() of a URL with a server equals the local file's`,
      [...sameRows(strip(got), strip(want), fn), ...(names.length ? [`file_name ${names[0]}`] : [])]);
  }
  await q('SET ROLE os_bob');
  check('file_info() of a URL without a server is refused to a role not in parquet_fdw.object_store_role',
    expectError(await sqlError(`SELECT * FROM parquet_fdw.file_info('${URL('items.parquet')}')`), '42501', /credentials of the database server/));
  const fe = await sqlError(`SELECT * FROM parquet_fdw.file_info('${URL('items.parquet')}', 'os_s3')`);
  await q('RESET ROLE');
  check('file_info() of a URL as a role without a user mapping is refused', expectError(fe, '42704', /user mapping not found/));

  const ddl = (await q(`SELECT parquet_fdw.create_table_sql('${URL('items.parquet')}', 'os_made', 'os_s3') AS sql`))[0].sql;
  check('create_table_sql over a URL declares the columns', /\bid bigint/.test(ddl) && /SERVER os_s3/.test(ddl) ? [] : [ddl]);

  await q('DROP TABLE IF EXISTS os_heap');
  await q(`CREATE TABLE os_heap (${ITEMS})`);
  await q(`COPY os_heap FROM '${URL('items.parquet')}' WITH (FORMAT parquet, server 'os_s3')`);
  const loc = await table(local('items.parquet'), { server: 'os_local', columns: ITEMS });
  check('COPY FROM a URL with the option server', sameRows(await qa('SELECT * FROM os_heap ORDER BY id'), await qa(`SELECT * FROM ${loc} ORDER BY id`), 'rows'));
  await q('GRANT INSERT ON os_heap TO os_bob');
  await q('SET ROLE os_bob');
  const e = await sqlError(`COPY os_heap FROM '${URL('items.parquet')}' WITH (FORMAT parquet, server 'os_s3')`);
  const noServer = await sqlError(`COPY os_heap FROM '${URL('items.parquet')}' WITH (FORMAT parquet)`);
  await q('RESET ROLE');
  check('COPY FROM a URL without the option server is refused to a role not in parquet_fdw.object_store_role',
    expectError(noServer, '42501', /credentials of the database server/));
  check('COPY FROM a URL as a role without a user mapping is refused', expectError(e, '42704', /user mapping not found for role "os_bob"/));
}

// access: per-role mappings, wrong keys, anonymous, no server
{
  const t = await table(URL('items.parquet'), { columns: ITEMS });
  const asRole = async (role, sql) => {
    await q(`SET ROLE ${role}`);
    try {
      return await sqlError(sql);
    } finally {
      await q('RESET ROLE');
    }
  };
  check('access: a role with its own mapping reads', (await asRole('os_alice', `SELECT count(*) FROM ${t}`)) === null ? [] : ['error']);
  check('access: a role with a session token reads', (await asRole('os_carol', `SELECT count(*) FROM ${t}`)) === null ? [] : ['error']);
  check('access: a role without a mapping is refused, never served by another role\'s',
    expectError(await asRole('os_bob', `SELECT count(*) FROM ${t}`), '42704', /user mapping not found for role "os_bob" on server "os_s3"/));
  const wrong = await asRole('os_dave', `SELECT count(*) FROM ${t}`);
  check('access: a wrong secret fails as S3 fails it, with the store\'s message',
    expectError(wrong, '28000', /SignatureDoesNotMatch/));
  check('access: the error names the URL', wrong && /s3:\/\/lake\/data\/items\.parquet/.test(wrong.message) ? [] : [wrong?.message]);

  // through a view, the view owner's mapping, as postgres_fdw (checkAsUser)
  const want = await qa(`SELECT count(*), sum(id) FROM ${t}`);
  for (const s of [
    `CREATE VIEW ${t}_alice AS SELECT count(*) AS n, sum(id) AS s FROM ${t}`,
    `CREATE VIEW ${t}_alice_rows AS SELECT id FROM ${t}`,
    `CREATE VIEW ${t}_bob AS SELECT count(*) AS n FROM ${t}`,
    `CREATE VIEW ${t}_invoker WITH (security_invoker = true) AS SELECT count(*) AS n FROM ${t}`,
    `ALTER VIEW ${t}_alice OWNER TO os_alice`, `ALTER VIEW ${t}_alice_rows OWNER TO os_alice`,
    `ALTER VIEW ${t}_bob OWNER TO os_bob`, `ALTER VIEW ${t}_invoker OWNER TO os_alice`,
    `GRANT SELECT ON ${t}_alice, ${t}_alice_rows, ${t}_invoker TO os_bob`,
  ]) await q(s);
  const viewRows = async (role, sql) => {
    await q(`SET ROLE ${role}`);
    try {
      return await qa(sql);
    } catch (e) {
      return [[`ERROR ${e.code} ${e.message}`]];
    } finally {
      await q('RESET ROLE');
    }
  };
  check('access: a view read by a role without a mapping uses its owner\'s (footer answers)',
    sameRows(await viewRows('os_bob', `SELECT * FROM ${t}_alice`), want, 'view'));
  check('access: a view read by a role without a mapping uses its owner\'s (rows)',
    sameRows(await viewRows('os_bob', `SELECT count(*), sum(id) FROM ${t}_alice_rows WHERE id % 7 = 3`),
      await qa(`SELECT count(*), sum(id) FROM ${t} WHERE id % 7 = 3`), 'view rows'));
  check('access: a view whose owner has no mapping is refused to a role that has one',
    expectError(await sqlError(`SELECT * FROM ${t}_bob`), '42704', /user mapping not found for role "os_bob"/));
  check('access: a security_invoker view uses the querying role\'s mapping',
    expectError(await asRole('os_bob', `SELECT * FROM ${t}_invoker`), '42704', /user mapping not found for role "os_bob"/));

  const pub = await table('s3://open-data/pub/items.parquet', { server: 'os_pub', columns: ITEMS });
  const pubCount = await asRole('os_bob', `SELECT count(*) FROM ${pub}`);
  check('access: a public bucket is read anonymously (a mapping without keys)', pubCount === null ? [] : [pubCount.message]);
  const priv = await table(URL('items.parquet'), { server: 'os_pub', columns: ITEMS });
  check('access: anonymous requests to a private bucket are refused',
    expectError(await sqlError(`SELECT count(*) FROM ${priv}`), '28000', /AccessDenied/));
  check('access: a URL in a table of a server without endpoint options still needs a mapping',
    expectError(await sqlError(`SELECT * FROM ${await table(URL('items.parquet'), { server: 'os_local', columns: ITEMS })}`), '42704', /user mapping not found/));
}

// the credential chain: the server's own keys, for whom it is granted
if (!AWS_DIR)
  check('chain: --aws-dir names the directory of the server\'s AWS_SHARED_CREDENTIALS_FILE', ['--aws-dir not given']);
else {
  for (const s of ['DROP SERVER IF EXISTS os_chain CASCADE', 'DROP SERVER IF EXISTS os_chain_file CASCADE',
    `CREATE SERVER os_chain FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', url_style 'path', use_credential_chain 'true')`,
    `CREATE SERVER os_chain_file FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${s3.endpoint}', url_style 'path', use_credential_chain 'true', profile 'filekeys')`,
    'CREATE USER MAPPING FOR PUBLIC SERVER os_chain', 'CREATE USER MAPPING FOR PUBLIC SERVER os_chain_file',
    'GRANT USAGE ON FOREIGN SERVER os_chain TO os_bob',
    'DROP ROLE IF EXISTS parquet_fdw_object_store', 'CREATE ROLE parquet_fdw_object_store NOLOGIN']) await q(s);
  const env = await table(URL('items.parquet'), { server: 'os_chain', columns: ITEMS });
  const file = await table(URL('items.parquet'), { server: 'os_chain_file', columns: ITEMS });
  const loc = await table(local('items.parquet'), { server: 'os_local', columns: ITEMS });
  const want = await qa(`SELECT count(*), sum(price) FROM ${loc}`);
  const e1 = await sqlError(`SELECT count(*), sum(price) FROM ${env}`);
  check('chain: the server\'s environment keys (a superuser)', e1 ? [`${e1.code} ${e1.message} ${e1.detail ?? ''}`] : sameRows(await qa(`SELECT count(*), sum(price) FROM ${env}`), want, 'rows'));
  const e2 = await sqlError(`SELECT count(*), sum(price) FROM ${file}`);
  check('chain: a profile of the server\'s credentials file', e2 ? [`${e2.code} ${e2.message} ${e2.detail ?? ''}`] : sameRows(await qa(`SELECT count(*), sum(price) FROM ${file}`), want, 'rows'));
  await q('SET ROLE os_bob');
  const denied = await sqlError(`SELECT count(*) FROM ${env}`);
  await q('RESET ROLE');
  check('chain: a role that is not a member of parquet_fdw.object_store_role is refused', expectError(denied, '42501', /object_store_role/));
  await q('GRANT parquet_fdw_object_store TO os_bob');
  await q('SET ROLE os_bob');
  const granted = await sqlError(`SELECT count(*) FROM ${env}`);
  await q('RESET ROLE');
  check('chain: granted the role, it reads', granted ? [`${granted.code} ${granted.message}`] : []);
  await q('REVOKE parquet_fdw_object_store FROM os_bob');
  await q('SET ROLE os_bob');
  const revoked = await sqlError(`SELECT count(*) FROM ${env}`);
  await q('RESET ROLE');
  check('chain: revoked, refused again (membership checked at each use)', expectError(revoked, '42501', /object_store_role/));
  const mapped = await sqlError(`SELECT count(*) FROM ${await table(URL('items.parquet'), { server: 'os_pub', columns: ITEMS })}`);
  check('chain: a server without use_credential_chain never uses the server\'s keys (anonymous: refused by a private bucket)',
    expectError(mapped, '28000', /AccessDenied/));
}

// option validation
{
  const cases = [
    [`ALTER SERVER os_pub OPTIONS (SET url_style 'sideways')`, '22023', /url_style/],
    [`ALTER SERVER os_pub OPTIONS (ADD max_connections '0')`, '22023', /max_connections/],
    [`ALTER SERVER os_pub OPTIONS (ADD connect_timeout 'soon')`, '22023', /connect_timeout/],
    [`ALTER SERVER os_pub OPTIONS (SET endpoint 'ftp://x')`, '22023', /endpoint/],
    [`ALTER SERVER os_pub OPTIONS (ADD region 'EU West')`, '22023', /region/],
    [`CREATE USER MAPPING FOR os_bob SERVER os_pub OPTIONS (key_id 'AKIA')`, 'HV00J', /together/],
    [`CREATE USER MAPPING FOR os_bob SERVER os_pub OPTIONS (key_id 'AKIA', secret 'has space s3cr3t')`, '22023', /secret/],
    [`CREATE USER MAPPING FOR os_bob SERVER os_pub OPTIONS (bogus 'x')`, 'HV00D', /key_id, secret/],
  ];
  for (const [sql, code, re] of cases)
    check(`options: ${sql}`, expectError(await sqlError(sql), code, re));
  const e = await sqlError(`CREATE USER MAPPING FOR os_bob SERVER os_pub OPTIONS (key_id 'AKIA', secret 'has space s3cr3t')`);
  check('options: a bad secret is not shown', e && !JSON.stringify(e).includes('s3cr3t') ? [] : ['secret shown']);
  await q('SET ROLE os_alice');
  const ll = await sqlError(`CREATE SERVER os_ll FOREIGN DATA WRAPPER parquet_fdw OPTIONS (allow_link_local 'true')`);
  await q('RESET ROLE');
  check('options: only superusers allow link-local addresses', expectError(ll, '42501', /allow_link_local|permission denied/));
}

// secrets: never in EXPLAIN, errors, pg_stat_activity or the log
{
  const start = logSize(LOG);
  await q("SET log_min_messages = 'debug5'");
  await q("SET client_min_messages = 'debug5'");
  const t = await table(URL('items.parquet'), { columns: ITEMS });
  const plan = (await q(`EXPLAIN (ANALYZE, VERBOSE, COSTS OFF) SELECT sum(qty) FROM ${t} WHERE id < 5000`)).map((r) => r['QUERY PLAN']).join('\n');
  const err = await sqlError(`SELECT * FROM ${await table(URL('nope.parquet'), { columns: ITEMS })}`);
  const act = await q('SELECT query FROM pg_stat_activity');
  await q('RESET log_min_messages');
  await q('RESET client_min_messages');
  const haystack = [plan, JSON.stringify(err), JSON.stringify(act)].join('\n');
  const problems = [];
  for (const s of [ALICE.secret, CAROL.secret, CAROL.token])
    if (haystack.includes(s)) problems.push(`a secret in EXPLAIN, an error or pg_stat_activity`);
  if (LOG) {
    const { log, problems: p } = serverLogSince(LOG, start, [[/DEBUG/, 'debug5 lines']]);
    problems.push(...p);
    for (const s of [ALICE.secret, CAROL.secret, CAROL.token])
      if (log.includes(Buffer.from(s))) problems.push('a secret in the server log at debug5');
  }
  check('secrets: absent from EXPLAIN VERBOSE, errors, pg_stat_activity and the log', problems);
  check('EXPLAIN VERBOSE names the objects read', /s3:\/\/lake\/data\/items\.parquet/.test(plan) || /Files: 1/.test(plan) ? [] : [plan]);
}

// requests: footers cached by URL and ETag; chunks fetched together
{
  const t = await table(URL('items.parquet'), { columns: ITEMS });
  await q(`SELECT count(*) FROM ${t} WHERE qty = 1`);
  const before = s3.stats.requests;
  await q(`SELECT sum(price) FROM ${t} WHERE id = 5`);
  const point = s3.stats.requests - before;
  check(`requests: a point lookup with the footer cached: ${point} requests (HEAD + data)`, point <= 3 ? [] : [`${point} requests`]);
  const before2 = s3.stats.requests;
  await q(`SELECT sum(qty), sum(price), count(comment) FROM ${t}`);
  const full = s3.stats.requests - before2;
  check(`requests: three columns of 12 row groups in ${full} requests (one per row group and the HEAD)`, full <= 13 ? [] : [`${full} requests`]);
}

// an object replaced between statements: the new version, never a mix
{
  const cols = 'id bigint, v bigint';
  const t = await table(URL('swap/x.parquet'), { columns: cols });
  await duckQuery(`COPY (SELECT i AS id, i AS v FROM range(10) t(i)) TO ${sqlString(local('x1.parquet'))} (FORMAT parquet)`);
  await duckQuery(`COPY (SELECT i AS id, -i AS v FROM range(20) t(i)) TO ${sqlString(local('x2.parquet'))} (FORMAT parquet)`);
  await s3.putFile('lake', 'data/swap/x.parquet', local('x1.parquet'));
  const a = await qa(`SELECT count(*), sum(v) FROM ${t}`);
  await s3.putFile('lake', 'data/swap/x.parquet', local('x2.parquet'));
  const b = await qa(`SELECT count(*), sum(v) FROM ${t}`);
  check('a replaced object is read in its new version (footer cache keyed by ETag)', sameRows([...a, ...b], [['10', '45'], ['20', '-190']], 'rows'));
}

// Azure: azurite checks every Shared Key and SAS signature
{
  const azr = await startAzurite();
  await azr.az('PUT', '/lake', { query: { restype: 'container' } });
  const files = filesBelow(DIR).filter((f) => f.startsWith('hive/') || f === 'items.parquet');
  for (let i = 0; i < files.length; i += 8)
    await Promise.all(files.slice(i, i + 8).map((f) => azr.putBlob('lake', `data/${f}`, fs.readFileSync(local(f)))));
  // an account SAS (signed version 2019-12-12: no encryption scope line)
  const sasFields = { sv: '2019-12-12', ss: 'b', srt: 'sco', sp: 'rl', se: '2030-01-01T00:00:00Z', spr: 'https,http' };
  const sts = [ACCOUNT, sasFields.sp, sasFields.ss, sasFields.srt, '', sasFields.se, '', sasFields.spr, sasFields.sv, ''].join('\n');
  const sig = crypto.createHmac('sha256', Buffer.from(KEY, 'base64')).update(sts, 'utf8').digest('base64');
  const sas = new URLSearchParams({ ...sasFields, sig }).toString();
  for (const r of ['os_az_key', 'os_az_sas', 'os_az_bad']) await q(`DROP SERVER IF EXISTS ${r} CASCADE`);
  await q(`CREATE SERVER os_az_key FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${azr.endpoint}', account '${ACCOUNT}')`);
  await q(`CREATE USER MAPPING FOR postgres SERVER os_az_key OPTIONS (account_key '${KEY}')`);
  await q(`CREATE SERVER os_az_sas FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${azr.endpoint}', account '${ACCOUNT}')`);
  await q(`CREATE USER MAPPING FOR postgres SERVER os_az_sas OPTIONS (sas_token '${sas}')`);
  await q(`CREATE SERVER os_az_bad FOREIGN DATA WRAPPER parquet_fdw OPTIONS (endpoint '${azr.endpoint}', account '${ACCOUNT}')`);
  await q(`CREATE USER MAPPING FOR postgres SERVER os_az_bad OPTIONS (account_key '${Buffer.alloc(64, 7).toString('base64')}')`);
  const loc = await table(local('items.parquet'), { server: 'os_local', columns: ITEMS });
  const want = await qa(`SELECT * FROM ${loc} WHERE qty = 7 ORDER BY id`);
  for (const [what, server, url] of [['az:// with Shared Key', 'os_az_key', 'az://lake/data/items.parquet'],
    ['abfss:// with Shared Key', 'os_az_key', `abfss://lake@${ACCOUNT}.dfs.core.windows.net/data/items.parquet`],
    ['az:// with an account SAS', 'os_az_sas', 'az://lake/data/items.parquet']]) {
    const t = await table(url, { server, columns: ITEMS });
    const e = await sqlError(`SELECT count(*) FROM ${t}`);
    check(`azure: ${what}: rows equal the local file`, e ? [`${e.code} ${e.message} ${e.detail ?? ''}`] : sameRows(await qa(`SELECT * FROM ${t} WHERE qty = 7 ORDER BY id`), want, 'rows'));
  }
  const hcols = 'id bigint, amount double precision, year integer, region integer';
  const h = await table('az://lake/data/hive/', { server: 'os_az_key', columns: hcols, options: ", hive_partitioning 'true'" });
  const hl = await table(local('hive'), { server: 'os_local', columns: hcols, options: ", hive_partitioning 'true'" });
  const hq = (t) => `SELECT year, region, count(*), sum(id) FROM ${t} WHERE year >= 2022 GROUP BY 1, 2 ORDER BY 1, 2`;
  check('azure: a hive tree below a prefix', sameRows(await qa(hq(h)), await qa(hq(hl)), 'rows'));
  const bad = await table('az://lake/data/items.parquet', { server: 'os_az_bad', columns: ITEMS });
  check('azure: a wrong account key is refused with Azure\'s code', expectError(await sqlError(`SELECT count(*) FROM ${bad}`), '28000', /AuthorizationFailure|AuthenticationFailed|403/));
  await azr.stop();
}

// faults: the transport's faults under a scan of a real file
{
  const items = fs.readFileSync(local('items.parquet'));
  const objects = new Map([['items.parquet', items]]);
  const web = await startFaultServer(objects);
  const base = `http://127.0.0.1:${web.port}`;
  await q('DROP SERVER IF EXISTS os_web CASCADE');
  await q(`CREATE SERVER os_web FOREIGN DATA WRAPPER parquet_fdw OPTIONS (request_timeout '1s', max_retries '3')`);
  await q('CREATE USER MAPPING FOR PUBLIC SERVER os_web');
  const loc = await table(local('items.parquet'), { server: 'os_local', columns: ITEMS });
  const want = await qa(`SELECT flag, count(*), sum(price), min(comment) FROM ${loc} WHERE qty < 20 GROUP BY flag ORDER BY flag`);
  const query = (t) => `SELECT flag, count(*), sum(price), min(comment) FROM ${t} WHERE qty < 20 GROUP BY flag ORDER BY flag`;
  // the 5th request of a path is a data read: HEAD, then magic and tail
  for (const [fault, what] of [['ok', 'no fault'], ['flaky503@5', '503 with Retry-After twice'], ['flaky429@5', '429 twice'],
    ['reset@5', 'a connection reset mid-body'], ['slow@5', 'no byte for 3 s (request_timeout 1s): retried'],
    ['badrange@5', 'a 206 of other bytes than asked: retried'], ['ignorerange', 'ranges ignored (200, whole object)']]) {
    const t = await table(`${base}/${fault}/items.parquet`, { server: 'os_web', columns: ITEMS });
    const e = await sqlError(query(t));
    check(`faults: ${what}: the same rows`, e ? [`${e.code} ${e.message}`] : sameRows(await qa(query(t)), want, 'rows'));
  }
  const retried = web.counts.get('/flaky503@5/items.parquet') - web.counts.get('/ok/items.parquet');
  check(`faults: the 503s were retried (${retried} more requests than without faults over two scans)`, retried === 2 ? [] : [`${retried}`]);
  for (const [fault, code, re, what] of [
    ['alwaysbadrange', '58030', /after \d+ attempts/, 'a range always wrong: an I/O error after the retries'],
    ['forbidden', '28000', /AccessDenied/, '403 with the store\'s XML: its code shown'],
    ['missing', '58P01', /no such object/, '404'],
    ['replaced@3', 'HV021', /changed while it was being read/, 'an object replaced between the footer and the data'],
  ]) {
    const t = await table(`${base}/${fault}/items.parquet`, { server: 'os_web', columns: ITEMS });
    check(`faults: ${what}`, expectError(await sqlError(query(t)), code, re));
  }
  // faults in a background window: the 30th request of a path is one
  const items40 = fs.readFileSync(local('items40.parquet'));
  objects.set('items40.parquet', items40);
  const loc40 = await table(local('items40.parquet'), { server: 'os_local', columns: ITEMS });
  const want40 = await qa(query(loc40));
  for (const [fault, what] of [['reset@30', 'a reset'], ['flaky503@30', '503s']]) {
    const t = await table(`${base}/${fault}/items40.parquet`, { server: 'os_web', columns: ITEMS });
    const e = await sqlError(query(t));
    check(`faults in a background window: ${what}: the same rows`, e ? [`${e.code} ${e.message}`] : sameRows(await qa(query(t)), want40, 'rows'));
  }
  const replaced = await table(`${base}/replaced@25/items40.parquet`, { server: 'os_web', columns: ITEMS });
  check('faults in a background window: the object replaced: HV021', expectError(await sqlError(query(replaced)), 'HV021', /changed while it was being read/));
  const hung40 = await table(`${base}/hang@30/items40.parquet`, { server: 'os_web', columns: ITEMS });
  await q("SET statement_timeout = '1s'");
  const h0 = Date.now();
  const he40 = await sqlError(query(hung40));
  const took40 = Date.now() - h0;
  await q('RESET statement_timeout');
  check(`faults in a background window: statement_timeout ends a hung read (${took40} ms)`,
    [...expectError(he40, '57014', /timeout/), ...(took40 < 2500 ? [] : [`took ${took40} ms`])]);
  check('faults: after them the same file reads whole', sameRows(await qa(query(await table(`${base}/ok/items40.parquet`, { server: 'os_web', columns: ITEMS }))), want40, 'rows'));

  // small objects read one after another: fetched whole together, not a
  // round trip each (every answer of /delay/ is 100 ms late)
  for (let p = 0; p < 4; p++)
    objects.set(`part-${p}.parquet`, fs.readFileSync(local(`parts/part-${p}.parquet`)));
  const smallUrls = [0, 1, 2, 3].map((p) => `${base}/delay/part-${p}.parquet`).join(', ');
  const small = await table(smallUrls, { server: 'os_web', columns: 'id bigint, v bigint' });
  const smallLoc = await table([0, 1, 2, 3].map((p) => local(`parts/part-${p}.parquet`)).join(', '), { server: 'os_local', columns: 'id bigint, v bigint' });
  const smallSql = (t) => `SELECT count(*), sum(v), min(id), max(id) FROM (SELECT * FROM ${t} OFFSET 0) s`;
  const smallWant = await qa(smallSql(smallLoc));
  check('small objects: the same rows (footers read)', sameRows(await qa(smallSql(small)), smallWant, 'rows'));
  web.resetStats();
  const smallGot = await qa(smallSql(small));
  check(`small objects: with footers cached, their bytes fetched together (${web.maxInFlight()} requests in flight at most)`,
    [...sameRows(smallGot, smallWant, 'rows'), ...(web.maxInFlight() >= 4 ? [] : [`at most ${web.maxInFlight()} in flight`])]);

  const hung = await table(`${base}/hang@5/items.parquet`, { server: 'os_web', columns: ITEMS });
  await q("SET statement_timeout = '1s'");
  const t0 = Date.now();
  const he = await sqlError(query(hung));
  const took = Date.now() - t0;
  await q('RESET statement_timeout');
  check(`faults: statement_timeout ends a hung read (${took} ms)`, [...expectError(he, '57014', /timeout/), ...(took < 2500 ? [] : [`took ${took} ms`])]);

  // TLS: a CA of the test's own, named by the server's ca_file
  const tdir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw_os_tls_'));
  fs.chmodSync(tdir, 0o755);
  const ossl = (...a) => execFileSync('openssl', a, { cwd: tdir, stdio: ['ignore', 'ignore', 'pipe'] });
  ossl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=parquet_fdw test CA');
  ossl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'srv.key', '-out', 'srv.csr', '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(path.join(tdir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  ossl('x509', '-req', '-in', 'srv.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'srv.pem', '-days', '2', '-extfile', 'ext.cnf');
  fs.chmodSync(path.join(tdir, 'ca.pem'), 0o644);
  const tls = await startFaultServer(objects, { key: fs.readFileSync(path.join(tdir, 'srv.key')), cert: fs.readFileSync(path.join(tdir, 'srv.pem')), http2: true });
  await q('DROP SERVER IF EXISTS os_tls CASCADE');
  await q(`CREATE SERVER os_tls FOREIGN DATA WRAPPER parquet_fdw OPTIONS (ca_file '${path.join(tdir, 'ca.pem')}')`);
  await q('CREATE USER MAPPING FOR PUBLIC SERVER os_tls');
  const https = `https://127.0.0.1:${tls.port}/ok/items.parquet`;
  const tt = await table(https, { server: 'os_tls', columns: ITEMS });
  check('https: verified with the server\'s ca_file, the same rows', sameRows(await qa(query(tt)), want, 'rows'));
  check(`https: HTTP/2 where the server offers it (versions seen: ${[...tls.versions].join(', ')})`,
    tls.versions.has('2.0') && !tls.versions.has('1.1') ? [] : [[...tls.versions].join(', ')]);
  const tu = await table(https, { server: 'os_web', columns: ITEMS });
  check('https: a certificate no CA vouches for is refused', expectError(await sqlError(query(tu)), '58030', /certificate|SSL/i));
  await tls.close();
  await web.close();
  fs.rmSync(tdir, { recursive: true, force: true });
}

await client.end();
await s3.stop();
fs.rmSync(DIR, { recursive: true, force: true });
process.exit(summary('object_store'));
