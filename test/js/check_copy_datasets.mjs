// COPY ... TO '<dir>' (FORMAT parquet, partition_by / file_size_bytes /
// row_groups_per_file): the trees we write, read back by DuckDB
// (read_parquet('<dir>/**/*.parquet', hive_partitioning = true)) and by
// our own foreign tables over the directory (with quals on the partition
// columns), compared with the heap table they came from; folder names checked
// against Hive's escaping (its FileUtils.escapePathName character set,
// written down here from Hive's source) and against the names DuckDB's
// own COPY ... (PARTITION_BY ...) writes for the same values (both decode
// to the value); file splitting; 10,000 partitions through 100 open
// files, with the backend's peak memory (VmHWM); an existing target;
// failures leave nothing.  Connects with the PG* environment; prints
// "copy_datasets: N passed, N failed".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { counter, filesBelow } from './lib/stage.mjs';

const c = counter();
// A section that throws is one failure, and the others still run.
async function section(name, fn) {
  try {
    await fn();
  } catch (e) {
    c.check(name, [`${e.code || ''} ${e.message}`]);
  }
}
const client = new pg.Client();
await client.connect();
const q = async (sql) => (await client.query(sql)).rows;
await q('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
await q("SET TimeZone = 'UTC'");

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parquet_fdw_datasets.'));
fs.chmodSync(root, 0o777); // the server writes here

// Hive's FileUtils.charToEscape: 0x00-0x1F, 0x7F and these.
const HIVE_SET = new Set([...'"#%\'*/:=?\\{[]^'].map((ch) => ch.charCodeAt(0)));
function hiveEscape(s) {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    if (b < 0x20 || b === 0x7f || HIVE_SET.has(b)) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    else out += String.fromCharCode(b);
  }
  return Buffer.from(out, 'latin1').toString('utf8');
}
// Percent-decoding of a folder value, bytes then UTF-8 (no '+' rule).
function percentDecode(s) {
  const bytes = [];
  const raw = Buffer.from(s, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === 0x25 && i + 2 < raw.length + 0 && /^[0-9A-Fa-f]{2}$/.test(raw.subarray(i + 1, i + 3).toString())) {
      bytes.push(parseInt(raw.subarray(i + 1, i + 3).toString(), 16));
      i += 2;
    } else bytes.push(raw[i]);
  }
  return Buffer.from(bytes).toString('utf8');
}

const listFiles = filesBelow;
const leftovers = () => fs.readdirSync(root).filter((n) => n.startsWith('.'));

// Rows as canonical text, sorted: the same on both sides.
const canon = (rows) => rows.map((r) => r.map((v) => (v === null ? '\\N' : String(v))).join('|')).sort();
function sameRows(what, ours, theirs) {
  const a = canon(ours);
  const b = canon(theirs);
  const p = [];
  if (a.length !== b.length) p.push(`${a.length} heap rows, ${b.length} read back`);
  for (let i = 0; i < Math.min(a.length, b.length) && p.length < 5; i++)
    if (a[i] !== b[i]) p.push(`row ${i}: heap ${a[i]} != read back ${b[i]}`);
  c.check(what, p);
}

// The heap table: every partition column type, values needing escapes.
const TEXTS = ['plain', 'a/b', 'k=v', '100%', 'with space', 'ü€🦆', 'a+b', 'q?x#y', "it's", '', 'tab\there',
  'back\\slash', 'c:d', '[x]{y}^*', 'a.b-c_d~e', '!$&()', 'ends.'];
await q('DROP TABLE IF EXISTS ds_src');
await q(`CREATE TABLE ds_src (id int, i int, big bigint, t text, d date, ts timestamp, b bool, pay text)`);
await q(`INSERT INTO ds_src
  SELECT g,
         CASE WHEN g % 11 = 0 THEN NULL ELSE (g % 7) - 3 END,
         (g % 3) * 10000000000,
         CASE WHEN g % 13 = 0 THEN NULL ELSE (ARRAY[${TEXTS.map(sqlString).join(',')}])[1 + g % ${TEXTS.length}] END,
         CASE WHEN g % 17 = 0 THEN NULL ELSE DATE '2024-02-27' + (g % 4) END,
         TIMESTAMP '2024-01-02 03:04:05' + (g % 3) * interval '1 day 1.25 second',
         CASE WHEN g % 19 = 0 THEN NULL ELSE g % 2 = 0 END,
         md5(g::text)
  FROM generate_series(1, 3000) g`);

const TYPES = { i: 'INTEGER', big: 'BIGINT', t: 'VARCHAR', d: 'DATE', ts: 'TIMESTAMP', b: 'BOOLEAN' };
const PG_TEXT = (cols) => cols.map((col) => (col === 'b' ? `CASE WHEN b THEN 'true' WHEN NOT b THEN 'false' END` : `${col}::text`)).join(', ');
const DUCK_TEXT = (cols) => cols.map((col) => `CAST(${col} AS VARCHAR)`).join(', ');
const ALL = ['id', 'i', 'big', 't', 'd', 'ts', 'b', 'pay'];
// partCols: the tree's partition columns (none: files only)
async function duckRead(dir, cols, partCols = []) {
  const hive = partCols.length > 0;
  const types = `{${partCols.map((k) => `'${k}': '${TYPES[k]}'`).join(', ')}}`;
  const r = await duckQuery(`SELECT ${DUCK_TEXT(cols)} FROM read_parquet(${sqlString(dir + '/**/*.parquet')}, hive_partitioning = ${hive}${hive ? `, hive_types = ${types}` : ''})`);
  return r.rows.map((row) => row.map((v) => (v === null ? null : String(v))));
}
// The same tree through our own foreign table: partCols from the folders
// (hive_partitioning 'true'), the rest from the files.
const PG_TYPES = { id: 'int', i: 'int', big: 'bigint', t: 'text', d: 'date', ts: 'timestamp', b: 'bool', pay: 'text' };
let ftNo = 0;
async function oursRead(dir, cols, partCols = [], where = '') {
  const ft = `ds_back_${ftNo++}`;
  await q(`CREATE FOREIGN TABLE ${ft} (${ALL.map((col) => `${col} ${PG_TYPES[col]}`).join(', ')}) SERVER ds_back
           OPTIONS (filename '${dir}', hive_partitioning '${partCols.length > 0}')`);
  const r = await client.query({ text: `SELECT ${PG_TEXT(cols)} FROM ${ft} ${where}`, rowMode: 'array' });
  return r.rows;
}
await q('CREATE SERVER IF NOT EXISTS ds_back FOREIGN DATA WRAPPER parquet_fdw');
const heap = async (cols, where = '') => (await client.query({ text: `SELECT ${PG_TEXT(cols)} FROM ds_src ${where}`, rowMode: 'array' })).rows;

// 1. Every partition type at once, read back by DuckDB.
await section('section 1: Every partition type at once, read back by DuckDB', async () => {
  const dir = path.join(root, 'all');
  await q(`COPY ds_src TO '${dir}' (FORMAT parquet, partition_by (i, big, t, d, ts, b))`);
  sameRows('partition_by (i, big, t, d, ts, b): DuckDB reads the heap rows', await heap(ALL), await duckRead(dir, ALL, ['i', 'big', 't', 'd', 'ts', 'b']));
  sameRows('partition_by (i, big, t, d, ts, b): our hive foreign table reads the heap rows', await heap(ALL), await oursRead(dir, ALL, ['i', 'big', 't', 'd', 'ts', 'b']));
  for (const w of ["WHERE t = 'a/b'", "WHERE t IS NULL AND b", 'WHERE i = -3 AND d > DATE \'2024-02-28\'', "WHERE ts = TIMESTAMP '2024-01-03 03:04:06.25'"])
  {
    const want = await heap(ALL, w);
    if (want.length === 0) c.check(`partition_by: ${w} selects heap rows`, ['none: the check would prove nothing']);
    sameRows(`partition_by: our hive foreign table ${w} reads the ${want.length} heap rows`, want, await oursRead(dir, ALL, ['i', 'big', 't', 'd', 'ts', 'b'], w));
  }
  const schema = await duckQuery(`SELECT name FROM parquet_schema(${sqlString(path.join(dir, listFiles(dir)[0]))}) WHERE name <> 'schema'`);
  c.check('partition columns are left out of the files', JSON.stringify(schema.rows.map((r) => String(r[0]))) === '["id","pay"]' ? [] : [`file columns ${schema.rows}`]);
  c.check('no temporary tree left', leftovers().length === 0 ? [] : leftovers());
});

// 2. write_partition_columns keeps them (read without hive columns).
await section('section 2: write_partition_columns keeps them (read without hive columns)', async () => {
  const dir = path.join(root, 'keep');
  await q(`COPY ds_src TO '${dir}' (FORMAT parquet, partition_by 't, b', write_partition_columns true)`);
  sameRows('write_partition_columns true: the files hold every column', await heap(ALL), await duckRead(dir, ALL));
  sameRows('write_partition_columns true: our foreign table reads the heap rows from the files alone', await heap(ALL), await oursRead(dir, ALL));
});

// 3. Folder names: Hive's escaping, and the values DuckDB's names decode to.
await section("section 3: Folder names: Hive's escaping, and the values DuckDB's names decode to", async () => {
  const dir = path.join(root, 'names');
  await q(`COPY (SELECT DISTINCT t, i, d, ts, b, 1 AS one FROM ds_src) TO '${dir}' (FORMAT parquet, partition_by (t))`);
  const duckDir = path.join(root, 'names_duck');
  await duckQuery(`CREATE OR REPLACE TABLE names_src AS SELECT * FROM read_parquet(${sqlString(dir + '/**/*.parquet')}, hive_partitioning = true, hive_types = {'t': 'VARCHAR'})`);
  await duckQuery(`COPY names_src TO ${sqlString(duckDir)} (FORMAT parquet, PARTITION_BY (t))`);
  const ours = fs.readdirSync(dir).sort();
  const theirs = fs.readdirSync(duckDir).sort();
  const p = [];
  const expected = [...TEXTS.map((v) => `t=${hiveEscape(v)}`), 't=__HIVE_DEFAULT_PARTITION__'].sort();
  if (JSON.stringify(ours) !== JSON.stringify(expected)) p.push(`ours ${JSON.stringify(ours)} != Hive's ${JSON.stringify(expected)}`);
  const decode = (names) => names.map((n) => percentDecode(n.slice(n.indexOf('=') + 1))).sort();
  if (JSON.stringify(decode(ours)) !== JSON.stringify(decode(theirs)))
    p.push(`decoded: ours ${JSON.stringify(decode(ours))} != DuckDB's ${JSON.stringify(decode(theirs))}`);
  c.check(`text folder names: Hive's escaping of ${TEXTS.length} values + NULL, decoding to DuckDB's`, p);

  // other types: the same text as DuckDB's folders (after decoding)
  for (const col of ['i', 'd', 'ts', 'b', 'big']) {
    const o = path.join(root, `names_${col}`);
    const dd = path.join(root, `names_${col}_duck`);
    await q(`COPY (SELECT DISTINCT ${col}, 1 AS one FROM ds_src) TO '${o}' (FORMAT parquet, partition_by (${col}))`);
    await duckQuery(`COPY (SELECT * FROM read_parquet(${sqlString(o + '/**/*.parquet')}, hive_partitioning = true, hive_types = {'${col}': '${TYPES[col]}'})) TO ${sqlString(dd)} (FORMAT parquet, PARTITION_BY (${col}))`);
    const a = decode(fs.readdirSync(o));
    const b = decode(fs.readdirSync(dd));
    c.check(`${col} folder names decode to DuckDB's: ${a.join(' ')}`, JSON.stringify(a) === JSON.stringify(b) ? [] : [`ours ${a} DuckDB ${b}`]);
  }
});

// 4. Numbered files: row_groups_per_file, file_size_bytes, with partitions.
await section('section 4: Numbered files: row_groups_per_file, file_size_bytes, with partitions', async () => {
  const dir = path.join(root, 'split_rg');
  await q(`COPY ds_src TO '${dir}' (FORMAT parquet, row_group_size 100, row_groups_per_file 4)`);
  const files = listFiles(dir);
  const want = Array.from({ length: 8 }, (_, n) => `data_${n}.parquet`).sort();
  c.check(`row_groups_per_file 4 of 100 rows: 3000 rows in data_0..data_7 (${files.length} files)`, JSON.stringify(files) === JSON.stringify(want) ? [] : [JSON.stringify(files)]);
  const rg = await duckQuery(`SELECT file_name, count(DISTINCT row_group_id)::INTEGER FROM parquet_metadata(${sqlString(dir + '/*.parquet')}) GROUP BY ALL ORDER BY 1`);
  const counts = rg.rows.map((r) => Number(r[1]));
  c.check('each file holds at most 4 row groups', counts.every((n) => n <= 4) && counts.reduce((a, b) => a + b, 0) === 30 ? [] : [JSON.stringify(counts)]);
  sameRows('row_groups_per_file: DuckDB reads the heap rows', await heap(ALL), await duckRead(dir, ALL));
  sameRows('row_groups_per_file: our foreign table over the directory reads the heap rows', await heap(ALL), await oursRead(dir, ALL));

  const dir2 = path.join(root, 'split_size');
  await q(`COPY ds_src TO '${dir2}' (FORMAT parquet, row_group_size 200, file_size_bytes '20KB', compression 'uncompressed')`);
  const sizes = listFiles(dir2).map((f) => fs.statSync(path.join(dir2, f)).size);
  const rgBytes = await duckQuery(`SELECT max(total_compressed_size)::BIGINT FROM (SELECT file_name, row_group_id, sum(total_compressed_size) AS total_compressed_size FROM parquet_metadata(${sqlString(dir2 + '/*.parquet')}) GROUP BY ALL)`);
  const maxRg = Number(rgBytes.rows[0][0]);
  const p = [];
  if (sizes.length < 3) p.push(`only ${sizes.length} files`);
  // a file ends at the first row group at or past 20 kB: below 20 kB +
  // one row group + the footer
  for (const s of sizes.slice(0, -1)) if (s < 20000 || s > 20000 + maxRg + 20000) p.push(`file of ${s} bytes`);
  c.check(`file_size_bytes '20KB': ${sizes.length} files of ${sizes.join(', ')} bytes (row groups <= ${maxRg} bytes)`, p);
  sameRows('file_size_bytes: DuckDB reads the heap rows', await heap(ALL), await duckRead(dir2, ALL));
  sameRows('file_size_bytes: our foreign table over the directory reads the heap rows', await heap(ALL), await oursRead(dir2, ALL));

  const dir3 = path.join(root, 'split_part');
  await q(`COPY (SELECT * FROM ds_src ORDER BY id) TO '${dir3}' (FORMAT parquet, partition_by (b), row_group_size 50, row_groups_per_file 2)`);
  const f3 = listFiles(dir3);
  const p3 = [];
  for (const b of ['true', 'false', '__HIVE_DEFAULT_PARTITION__']) {
    const n = f3.filter((f) => f.startsWith(`b=${b}/data_`)).length;
    const rows = Number((await q(`SELECT count(*) FROM ds_src WHERE b IS NOT DISTINCT FROM ${b === '__HIVE_DEFAULT_PARTITION__' ? 'NULL' : b}`))[0].count);
    if (n !== Math.ceil(rows / 100)) p3.push(`b=${b}: ${n} files for ${rows} rows`);
  }
  c.check(`partition_by + row_groups_per_file: numbered files per folder (${f3.length})`, p3);
  sameRows('partition_by + splitting: DuckDB reads the heap rows', await heap(ALL), await duckRead(dir3, ALL, ['b']));
  sameRows('partition_by + splitting: our hive foreign table reads the heap rows', await heap(ALL), await oursRead(dir3, ALL, ['b']));
});

// 5. An existing target: error, overwrite_or_ignore, overwrite.
await section('section 5: An existing target: error, overwrite_or_ignore, overwrite', async () => {
  const dir = path.join(root, 'exists');
  await q(`COPY (SELECT * FROM ds_src WHERE id <= 1000) TO '${dir}' (FORMAT parquet, partition_by (b))`);
  const before = listFiles(dir);
  let err = null;
  try {
    await q(`COPY ds_src TO '${dir}' (FORMAT parquet, partition_by (b))`);
  } catch (e) {
    err = e;
  }
  c.check('an existing tree: ERROR 58P02 naming it, the tree untouched',
    err && err.code === '58P02' && err.message.includes(dir) && JSON.stringify(listFiles(dir)) === JSON.stringify(before) && leftovers().length === 0
      ? [] : [`${err && err.code} ${err && err.message}`]);

  await q(`COPY (SELECT * FROM ds_src WHERE id > 1000) TO '${dir}' (FORMAT parquet, partition_by (b), overwrite_or_ignore true)`);
  const after = listFiles(dir);
  const p = [];
  for (const f of before) if (!after.includes(f)) p.push(`${f} gone`);
  if (after.length !== 2 * before.length) p.push(`${after.length} files after adding to ${before.length}`);
  c.check(`overwrite_or_ignore: files added beside the old ones (${after.join(' ')})`, p);
  sameRows('overwrite_or_ignore: the tree holds both COPYs\' rows', await heap(ALL), await duckRead(dir, ALL, ['b']));

  // success_marker into the existing tree, where links named _SUCCESS wait:
  // each replaced by a new empty file, what they point to untouched
  for (const kind of ['symbolic', 'hard']) {
    const victim = path.join(root, `victim_${kind}`);
    fs.writeFileSync(victim, 'precious');
    fs.chownSync(victim, fs.statSync(dir).uid, fs.statSync(dir).gid);
    const marker = path.join(dir, '_SUCCESS');
    fs.rmSync(marker, { force: true });
    if (kind === 'symbolic') fs.symlinkSync(victim, marker);
    else fs.linkSync(victim, marker);
    await q(`COPY (SELECT * FROM ds_src WHERE id = 1) TO '${dir}' (FORMAT parquet, partition_by (b), overwrite_or_ignore true, success_marker true)`);
    const st = fs.lstatSync(marker);
    const pm = [];
    if (fs.readFileSync(victim, 'utf8') !== 'precious') pm.push('the linked file changed');
    if (!st.isFile() || st.size !== 0 || st.nlink !== 1) pm.push(`_SUCCESS: file ${st.isFile()}, size ${st.size}, links ${st.nlink}`);
    c.check(`success_marker over a ${kind} link named _SUCCESS: a new empty file, the linked file untouched`, pm);
    fs.rmSync(victim);
  }

  await q(`COPY (SELECT * FROM ds_src WHERE id <= 10) TO '${dir}' (FORMAT parquet, partition_by (b), overwrite true)`);
  sameRows('overwrite: the old tree is replaced', await heap(ALL, 'WHERE id <= 10'), await duckRead(dir, ALL, ['b']));
  c.check('overwrite: no temporary tree left', leftovers().length === 0 ? [] : leftovers());

  const fresh = path.join(root, 'fresh');
  await q(`COPY ds_src TO '${fresh}' (FORMAT parquet, partition_by (b), overwrite_or_ignore true)`);
  sameRows('overwrite_or_ignore without a target: the tree is written', await heap(ALL), await duckRead(fresh, ALL, ['b']));

  const empty = path.join(root, 'empty');
  fs.mkdirSync(empty);
  fs.chmodSync(empty, 0o777);
  await q(`COPY ds_src TO '${empty}' (FORMAT parquet, partition_by (b))`);
  sameRows('an existing empty directory is replaced by the tree', await heap(ALL), await duckRead(empty, ALL, ['b']));
});

// 6. A failure mid-way leaves nothing.
await section('section 6: A failure mid-way leaves nothing', async () => {
  const dir = path.join(root, 'fails');
  let err = null;
  try {
    await q(`COPY (SELECT *, CASE WHEN g = 150000 THEN 1 / 0 END AS boom FROM (SELECT g, g % 500 AS p FROM generate_series(1, 200000) g) s) TO '${dir}' (FORMAT parquet, partition_by (p), max_open_files 50, row_group_size 100)`);
  } catch (e) {
    err = e;
  }
  c.check('an ERROR after thousands of files: 22012, no target, no temporary tree',
    err && err.code === '22012' && !fs.existsSync(dir) && leftovers().length === 0 ? [] : [`${err && err.code} exists=${fs.existsSync(dir)} left=${leftovers()}`]);

  // A value the writer refuses (NaN as DECIMAL) in row 5051: rows reach
  // the files sorted by partition, but the ERROR names the row as COPY
  // read it, for flat and nested columns alike (the plain COPY of the same
  // query names the same row).
  for (const [what, expr] of [['flat numeric(10,2)', 'x'], ['nested numeric(10,2)[]', 'ARRAY[1, x]'], ['composite field', 'ROW(g, x)::ds_pair']]) {
    await q('DROP TYPE IF EXISTS ds_pair CASCADE');
    await q('CREATE TYPE ds_pair AS (g int, x numeric(10,2))');
    const sql = `SELECT g % 7 AS p, ${expr} AS v FROM (SELECT g, CASE WHEN g = 5051 THEN 'NaN'::numeric ELSE g::numeric END::numeric(10,2) AS x FROM generate_series(1, 8000) g) s`;
    const named = [];
    for (const opts of ['', ', partition_by (p)']) {
      try {
        await q(`COPY (${sql}) TO '${path.join(root, 'nan' + named.length)}${opts ? '' : '.parquet'}' (FORMAT parquet${opts})`);
        named.push('no error');
      } catch (e) {
        named.push(`${e.code} ${e.message}`);
      }
    }
    c.check(`${what}: partition_by's ERROR names row 5051 as plain COPY does (${named[1]})`,
      named[0] === named[1] && /row 5051 of column "v/.test(named[1]) && named[1].startsWith('22003') ? [] : named);
  }
  await q('DROP TYPE ds_pair');
});

// 7. 10,000 partitions through 100 open files; the backend's peak memory.
await section("section 7: 10,000 partitions through 100 open files; the backend's peak memory", async () => {
  // 150 partitions in every batch of 4096 rows: with 100 open files the
  // least recently written ones are finished and reopened as new files;
  // with 200 every partition keeps its one file
  const counts = [];
  for (const open of [100, 200]) {
    const d = path.join(root, `lru_${open}`);
    await q(`COPY (SELECT g % 150 AS p, g FROM generate_series(1, 20000) g) TO '${d}' (FORMAT parquet, partition_by (p), max_open_files ${open})`);
    counts.push(listFiles(d).length);
    sameRows(`max_open_files ${open}: DuckDB reads the rows in their partitions`,
      (await client.query({ text: 'SELECT g % 150, g FROM generate_series(1, 20000) g', rowMode: 'array' })).rows,
      (await duckQuery(`SELECT p, g FROM read_parquet(${sqlString(d + '/**/*.parquet')}, hive_partitioning = true)`)).rows);
  }
  c.check(`150 cycling partitions: ${counts[0]} files with max_open_files 100, ${counts[1]} with 200`,
    counts[0] > 150 && counts[1] === 150 ? [] : ['expected more than 150 files, then exactly 150']);

  const dir = path.join(root, 'many');
  const mem = new pg.Client();
  await mem.connect();
  const pid = (await mem.query('SELECT pg_backend_pid() AS p')).rows[0].p;
  const hwm = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  await mem.query('SELECT 1');
  const before = hwm();
  const t0 = Date.now();
  // rows cycle through the partitions: each is evicted and reopened
  await mem.query(`COPY (SELECT g % 10000 AS p, g, md5(g::text) AS pad FROM generate_series(1, 30000) g) TO '${dir}' (FORMAT parquet, partition_by (p), max_open_files 100)`);
  const ms = Date.now() - t0;
  const after = hwm();
  await mem.end();
  const files = listFiles(dir);
  const folders = new Set(files.map((f) => f.split('/')[0]));
  const p = [];
  if (folders.size !== 10000) p.push(`${folders.size} folders`);
  if (files.length < 20000) p.push(`only ${files.length} files: partitions were not closed and reopened`);
  c.check(`10,000 partitions, max_open_files 100: ${folders.size} folders, ${files.length} files in ${ms} ms; backend VmHWM ${before} kB before, ${after} kB after`, p);
  const r = await duckQuery(`SELECT count(*)::INTEGER, count(DISTINCT p)::INTEGER, sum(g)::BIGINT, count(*) FILTER (WHERE p <> g % 10000)::INTEGER FROM read_parquet(${sqlString(dir + '/**/*.parquet')}, hive_partitioning = true, hive_types = {'p': 'INTEGER'})`);
  const got = r.rows[0].map(String).join(' ');
  c.check(`10,000 partitions: DuckDB reads every row in its partition (${got})`, got === `30000 10000 ${(30000 * 30001) / 2} 0` ? [] : [got]);
  await q(`CREATE FOREIGN TABLE ds_back_many (g int, pad text, p int) SERVER ds_back OPTIONS (filename '${dir}')`);
  const o = (await client.query({ text: 'SELECT count(*), count(DISTINCT p), sum(g), count(*) FILTER (WHERE p <> g % 10000), count(*) FILTER (WHERE pad <> md5(g::text)) FROM ds_back_many', rowMode: 'array' })).rows[0].map(String).join(' ');
  c.check(`10,000 partitions: our hive foreign table reads every row in its partition (${o})`, o === `30000 10000 ${(30000 * 30001) / 2} 0 0` ? [] : [o]);
  const one = (await client.query({ text: 'SELECT count(*), sum(g) FROM ds_back_many WHERE p = 4242', rowMode: 'array' })).rows[0].map(String).join(' ');
  c.check(`10,000 partitions: p = 4242 through our table (${one})`, one === `3 ${4242 * 3 + 10000 + 20000}` ? [] : [one]);
  console.log(`memory (copy_datasets): VmHWM ${before} kB -> ${after} kB (10,000 partitions, 100 open files)`);
});

// 8. Partition columns whose names start with "_" or ".": a _t=0 folder is
// read back (Spark's rule: key=value folders are never hidden); a .t=0 one
// would be skipped by every reader, so COPY refuses the name.
await section('section 8: Partition columns named _x and .x', async () => {
  const dir = path.join(root, 'underscore');
  await q(`COPY (SELECT id, i AS _t FROM ds_src) TO '${dir}' (FORMAT parquet, partition_by (_t))`);
  const want = (await client.query({ text: 'SELECT count(*), sum(id), count(DISTINCT i) FROM ds_src', rowMode: 'array' })).rows[0].map(String).join(' ');
  await q(`CREATE FOREIGN TABLE ds_back_underscore (id int, _t int) SERVER ds_back OPTIONS (filename '${dir}')`);
  const got = (await client.query({ text: 'SELECT count(*), sum(id), count(DISTINCT _t) FROM ds_back_underscore', rowMode: 'array' })).rows[0].map(String).join(' ');
  c.check(`partition_by (_t): our foreign table reads every heap row (${got})`, got === want ? [] : [`${got} vs heap ${want}`]);
  const duck = await duckRead(dir, ['id'], []);
  c.check(`partition_by (_t): DuckDB reads every row (${duck.length})`, duck.length === 3000 ? [] : [`${duck.length} rows`]);
  // _SUCCESS and _temporary are still skipped
  fs.writeFileSync(path.join(dir, '_SUCCESS'), '');
  fs.mkdirSync(path.join(dir, '_temporary'));
  fs.copyFileSync(path.join(dir, listFiles(dir).find((f) => f.endsWith('.parquet'))), path.join(dir, '_temporary', 'x.parquet'));
  const again = (await client.query({ text: 'SELECT count(*), sum(id), count(DISTINCT _t) FROM ds_back_underscore', rowMode: 'array' })).rows[0].map(String).join(' ');
  c.check('_SUCCESS and _temporary/ beside _t= folders are skipped', again === want ? [] : [`${again} vs heap ${want}`]);
  let err = null;
  try {
    await q(`COPY (SELECT id, i AS ".t" FROM ds_src) TO '${path.join(root, 'dot')}' (FORMAT parquet, partition_by (".t"))`);
  } catch (e) {
    err = e;
  }
  c.check('partition_by (".t") is refused with 42602, nothing written',
    err && err.code === '42602' && !fs.existsSync(path.join(root, 'dot')) && leftovers().length === 0 ? [] : [err ? `${err.code} ${err.message}` : 'no error']);
});

await q('DROP SERVER ds_back CASCADE');
await client.end();
fs.rmSync(root, { recursive: true, force: true });
process.exit(c.summary('copy_datasets'));
