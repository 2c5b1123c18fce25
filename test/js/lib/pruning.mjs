// Parts the pruning stages share (check_nested_pruning.mjs,
// check_variant_pruning.mjs): the stage's directory, the connection with
// the extension and server in place, the pruning GUCs, and the Foreign Scan
// node of EXPLAIN ANALYZE with its counters.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The GUCs that switch each pruning kind on and off. */
export const PRUNING_GUCS = ['statistics', 'bloom', 'dictionary', 'page_index']
  .map((k) => `parquet_fdw.enable_${k}_pruning`);

/**
 * The directory of --dir DIR, else a new temporary one (remove with
 * done()), writable by the server (it writes COPY TO files there).
 */
export function stageDir(prefix) {
  const arg = process.argv.indexOf('--dir');
  const dir = arg > 0 ? process.argv[arg + 1] : fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o777);
  return { dir, done: () => { if (arg < 0) fs.rmSync(dir, { recursive: true, force: true }); } };
}

/** A client (PG* environment) with parquet_fdw and server parquet_srv. */
export async function connectParquet() {
  const client = new pg.Client({ options: '-c client_min_messages=warning' });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS parquet_fdw');
  await client.query(`DO $$ BEGIN
    CREATE SERVER IF NOT EXISTS parquet_srv FOREIGN DATA WRAPPER parquet_fdw; END $$`);
  await client.query('SET max_parallel_workers_per_gather = 0');
  return client;
}

/** The Foreign Scan node of EXPLAIN ANALYZE (JSON) of query. */
export async function foreignScan(client, query) {
  const r = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) ${query}`);
  let node = r.rows[0]['QUERY PLAN'][0].Plan;
  while (node['Node Type'] !== 'Foreign Scan') node = node.Plans[0];
  return node;
}
