#!/usr/bin/env node
// The sample files README.md's tour and the docs' examples read, written by
// DuckDB (an independent writer): node tour_data.mjs DIR
//   DIR/trips.parquet            100,000 trips of 2024 in time order, ZSTD,
//                                10 row groups (pruning shows in EXPLAIN)
//   DIR/trips_by_month/year=2024/month=M/*.parquet   the same rows as a hive
//                                dataset, one folder per month
//   DIR/delta_sales/             a Delta Lake table partitioned by region:
//                                versions 0 (two files), 1 (a third), 2 (one
//                                file replaced by a smaller one)
//   DIR/iceberg_events/          an Apache Iceberg v2 table (two appends,
//                                two snapshots, a tag) whose metadata records
//                                hdfs://nn:8020/warehouse/db/events
//   DIR/out/                     where the examples' COPY TO writes (the
//                                server writes as user postgres; mode 1777)
import fs from 'node:fs';
import path from 'node:path';
import { duck, sqlString } from './lib/duck.mjs';
import { newUuid, prng } from './lib/delta_dv.mjs';
import { IcebergTable, dataFileRecord } from './lib/iceberg_writer.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: tour_data.mjs DIR');
  process.exit(2);
}
fs.mkdirSync(dir, { recursive: true });
const trips = path.join(dir, 'trips.parquet');
const byMonth = path.join(dir, 'trips_by_month');
fs.rmSync(trips, { force: true });
fs.rmSync(byMonth, { recursive: true, force: true });

const c = await duck();
const rows = `
  SELECT i AS trip_id,
         TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 315) AS pickup_at,
         (1 + i * 7 % 5)::INTEGER AS city_id,
         round(1 + (i * 37 % 300) / 10.0, 1)::DOUBLE AS distance_km,
         (3.5 + (i * 37 % 300) / 10.0 * 1.8)::DECIMAL(8,2) AS fare,
         CASE WHEN i % 4 = 0 THEN NULL ELSE ((i * 13 % 50) / 10.0)::DECIMAL(6,2) END AS tip,
         (['card', 'cash', 'app'])[i % 3 + 1] AS payment
    FROM range(100000) AS t(i)`;
await c.run(`COPY (${rows} ORDER BY trip_id) TO ${sqlString(trips)}
  (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 10240)`);
await c.run(`COPY (SELECT *, year(pickup_at) AS year, month(pickup_at) AS month
                     FROM (${rows}) ORDER BY trip_id)
  TO ${sqlString(byMonth)} (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (year, month))`);

// Delta: the log is JSON lines (PROTOCOL.md); data files by DuckDB.
const deltaDir = path.join(dir, 'delta_sales');
fs.rmSync(deltaDir, { recursive: true, force: true });
fs.mkdirSync(path.join(deltaDir, '_delta_log'), { recursive: true });
const rand = prng(20241129);
const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);
async function salesFile(rel, from, to) {
  const file = path.join(deltaDir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await c.run(`COPY (SELECT i AS id, (i * 7 % 1000 + 0.25)::DECIMAL(12,2) AS amount
                       FROM range(${from}, ${to}) t(i) ORDER BY i)
    TO ${sqlString(file)} (FORMAT parquet)`);
  return { path: rel, size: fs.statSync(file).size, from, to };
}
// with file statistics on id, which prune files at plan time
const add = (f, region, ms) => ({ add: { path: f.path, partitionValues: { region }, size: f.size,
  modificationTime: ms, dataChange: true,
  stats: JSON.stringify({ numRecords: f.to - f.from, minValues: { id: f.from }, maxValues: { id: f.to - 1 }, nullCount: { id: 0 } }) } });
// a local commit's time is its file's (Delta's rule without in-commit timestamps)
function commit(v, actions, ms) {
  const file = path.join(deltaDir, '_delta_log', `${String(v).padStart(20, '0')}.json`);
  fs.writeFileSync(file, [{ commitInfo: { timestamp: ms, operation: 'WRITE' } }, ...actions]
    .map((a) => JSON.stringify(a)).join('\n') + '\n');
  fs.utimesSync(file, ms / 1000, ms / 1000);
}
const salesSchema = { type: 'struct', fields: [
  { name: 'id', type: 'long', nullable: true, metadata: {} },
  { name: 'amount', type: 'decimal(12,2)', nullable: true, metadata: {} },
  { name: 'region', type: 'string', nullable: true, metadata: {} }] };
const eu = await salesFile('region=eu/part-00000.parquet', 0, 1000);
const us = await salesFile('region=us/part-00000.parquet', 1000, 2500);
commit(0, [{ protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
  { metaData: { id: newUuid(rand).text, format: { provider: 'parquet', options: {} },
    schemaString: JSON.stringify(salesSchema), partitionColumns: ['region'], configuration: {}, createdTime: T0 } },
  add(eu, 'eu', T0), add(us, 'us', T0)], T0);
const apac = await salesFile('region=apac/part-00000.parquet', 2500, 3000);
commit(1, [add(apac, 'apac', T0 + 3600e3)], T0 + 3600e3);
const eu2 = await salesFile('region=eu/part-00001.parquet', 0, 500);
commit(2, [{ remove: { path: eu.path, deletionTimestamp: T0 + 7200e3, dataChange: true } }, add(eu2, 'eu', T0 + 7200e3)], T0 + 7200e3);

// Iceberg: metadata, manifest lists and manifests by lib/iceberg_writer.mjs;
// DuckDB's files carry no field ids, so a name mapping says which is which.
const iceDir = path.join(dir, 'iceberg_events');
fs.rmSync(iceDir, { recursive: true, force: true });
const ice = new IcebergTable({
  dir: iceDir, location: 'hdfs://nn:8020/warehouse/db/events', formatVersion: 2, rand, nameMapping: true,
  schema: { fields: [
    { id: 1, name: 'id', type: 'long', required: false },
    { id: 2, name: 'action', type: 'string', required: false },
    { id: 3, name: 'event_time', type: 'timestamptz', required: false }] },
  properties: { 'write.format.default': 'parquet' }, lastUpdatedMs: T0,
});
ice.writeMetadata();
async function eventsFile(rel, from, to) {
  const file = ice.local(rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await c.run(`COPY (SELECT i AS id, (['view', 'click', 'buy'])[i % 3 + 1] AS action,
                            TIMESTAMPTZ '2024-05-01 00:00:00+00' + to_minutes(i) AS event_time
                       FROM range(${from}, ${to}) t(i) ORDER BY i)
    TO ${sqlString(file)} (FORMAT parquet)`);
  return { status: 1, dataFile: dataFileRecord({ recordedPath: ice.path(rel), size: fs.statSync(file).size, rows: to - from }) };
}
const s1 = ice.commit({ operation: 'append', timestampMs: T0 + 3600e3,
  add: [{ content: 0, entries: [await eventsFile('data/00000-events.parquet', 0, 600)] }] });
ice.setRef('first_load', s1.snapshotId);
ice.commit({ operation: 'append', timestampMs: T0 + 7200e3,
  add: [{ content: 0, entries: [await eventsFile('data/00001-events.parquet', 600, 1000)] }] });
ice.writeMetadata();

// the server (user postgres) reads them
const open = (p) => {
  const st = fs.statSync(p);
  fs.chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
  if (st.isDirectory()) for (const e of fs.readdirSync(p)) open(path.join(p, e));
};
open(dir);
const out = path.join(dir, 'out');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out);
fs.chmodSync(out, 0o1777);
console.log(`tour data: ${trips} (100000 rows), ${byMonth}/ (12 months), ${deltaDir}/ (Delta, 3 versions), ${iceDir}/ (Iceberg, 2 snapshots)`);
