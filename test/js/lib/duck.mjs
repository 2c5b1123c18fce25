// DuckDB (the reference reader) and parquet-wasm (arrow-rs, the fallback
// reference for codecs DuckDB cannot read, e.g. the deprecated Hadoop LZ4).
//
// Only DuckDB's built-in extensions are used (parquet, json, icu); nothing is
// ever INSTALLed. One thread and preserve_insertion_order keep file order.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import * as pw from 'parquet-wasm';

let conn = null;

export async function duck() {
  if (!conn) {
    const inst = await DuckDBInstance.create(':memory:', {
      threads: '1',
      preserve_insertion_order: 'true',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    conn = await inst.connect();
    await conn.run("SET TimeZone = 'UTC'");
  }
  return conn;
}

export const sqlString = (s) => `'${String(s).replace(/'/g, "''")}'`;

/**
 * Run SQL, return { names, types (DuckDB type strings), typeObjs (DuckDB type
 * objects: lists, structs and maps carry their children's types), rows
 * (DuckDBValue[][]) }.
 */
export async function duckQuery(sql) {
  const c = await duck();
  const r = await c.runAndReadAll(sql);
  const typeObjs = r.columnTypes();
  return {
    names: r.columnNames(),
    types: typeObjs.map((t) => t.toString()),
    typeObjs,
    rows: r.getRows(),
  };
}

/** DuckDB's reading of a Parquet file, in file order. */
export async function duckReadParquet(file) {
  // binary_as_string=false: un-annotated BYTE_ARRAY stays BLOB (-> bytea).
  return duckQuery(`SELECT * FROM read_parquet(${sqlString(file)}, binary_as_string = false)`);
}

/**
 * arrow-rs's reading of a file: parquet-wasm decodes it and re-encodes it as
 * an uncompressed Parquet file that DuckDB then reads. Used only where DuckDB
 * cannot decode the file itself. arrow-rs maps some logical types differently
 * (e.g. INTERVAL loses months, UUID becomes plain FLBA(16)); comparisons are
 * driven by the PostgreSQL column type, so representation changes that keep
 * the value are harmless.
 */
export async function arrowRsReadParquet(file) {
  const table = pw.readParquet(new Uint8Array(fs.readFileSync(file)));
  const props = new pw.WriterPropertiesBuilder().setCompression(pw.Compression.UNCOMPRESSED).build();
  const bytes = pw.writeParquet(table, props);
  const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw-arrowrs-')), 'rt.parquet');
  try {
    fs.writeFileSync(tmp, bytes);
    return await duckReadParquet(tmp);
  } finally {
    fs.rmSync(path.dirname(tmp), { recursive: true, force: true });
  }
}
