#!/usr/bin/env node
// Sample data for scripts/demo.sh: node demo_data.mjs OUT.parquet
// 10,000 taxi-like trips written by DuckDB (ZSTD, 4096-row groups).
import fs from 'node:fs';
import { duck, sqlString } from './lib/duck.mjs';

const out = process.argv[2];
if (!out) {
  console.error('usage: demo_data.mjs OUT.parquet');
  process.exit(2);
}
const c = await duck();
await c.run(`COPY (
  SELECT i AS trip_id,
         TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 397) AS pickup_at,
         (1 + i % 5)::INTEGER AS city_id,
         (1 + (i * 37 % 200) / 10.0)::DECIMAL(6,1) AS distance_km,
         (3.5 + (i * 37 % 200) / 10.0 * 1.8)::DECIMAL(8,2) AS fare,
         (['card', 'cash', 'app'])[i % 3 + 1] AS payment
    FROM range(10000) AS t(i) ORDER BY i
) TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 4096)`);
fs.chmodSync(out, 0o644);
console.log(`demo: wrote ${out} (${fs.statSync(out).size} bytes, 10000 rows)`);
