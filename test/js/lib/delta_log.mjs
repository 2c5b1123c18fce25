// What check_delta.mjs needs from a Delta table's _delta_log, read here
// independently of the C code, by the Delta protocol (PROTOCOL.md): the
// commit and checkpoint files, the latest protocol and metaData actions, the
// table's schema (metaData.schemaString: the logical column names), and the
// PostgreSQL type each Delta type maps to. Checkpoints (classic, multi-part,
// v2 in JSON or Parquet) are read with hyparquet, never with DuckDB.
//
// This is no Delta reader: it does not replay add/remove actions, and it
// does not check that versions are contiguous (the must-fail tables exist to
// check the C side does).

import fs from 'node:fs';
import path from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';

const COMMIT = /^(\d{20})\.json$/;
// classic, multi-part (part.parts) and v2 (uuid) checkpoints
const CHECKPOINT = /^(\d{20})\.checkpoint(?:\.(\d{10})\.(\d{10}))?(?:\.[0-9a-fA-F-]{36})?\.(parquet|json)$/;

/** The log's files: { logDir, commits: Map(version -> file), checkpoints: Map(version -> [file]) } */
export function listLog(tableDir) {
  const logDir = path.join(tableDir, '_delta_log');
  if (!fs.existsSync(logDir)) throw new Error(`no _delta_log in ${tableDir}`);
  const commits = new Map();
  const parts = new Map(); // version -> { expected parts, files }
  for (const name of fs.readdirSync(logDir).sort()) {
    let m = COMMIT.exec(name);
    if (m) {
      commits.set(Number(m[1]), path.join(logDir, name));
      continue;
    }
    m = CHECKPOINT.exec(name);
    if (m) {
      const v = Number(m[1]);
      const want = m[3] ? Number(m[3]) : 1;
      if (!parts.has(v)) parts.set(v, { want, files: [] });
      parts.get(v).files.push(path.join(logDir, name));
    }
  }
  const checkpoints = new Map();
  // a checkpoint counts only when all its parts are there
  for (const [v, p] of parts) if (p.files.length >= p.want) checkpoints.set(v, p.files);
  return { logDir, commits, checkpoints };
}

const jsonActions = (file) => fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

async function parquetActions(file) {
  const b = fs.readFileSync(file);
  const ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  const top = new Set(parquetMetadata(ab).schema.slice(1).map((el) => el.name));
  const columns = ['protocol', 'metaData'].filter((c) => top.has(c));
  if (!columns.length) return [];
  const rows = await parquetReadObjects({ file: ab, columns });
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null && v !== undefined)));
}

/**
 * The latest protocol and metaData: those of the newest complete checkpoint,
 * replaced by any in the commits after it (without a checkpoint, the commits
 * from the first on). Returns { version, protocol, metaData, fields,
 * partitionColumns }; protocol/metaData null when the log has none.
 */
export async function latestState(tableDir) {
  const { commits, checkpoints } = listLog(tableDir);
  const versions = [...commits.keys(), ...checkpoints.keys()];
  if (!versions.length) throw new Error(`no commit or checkpoint in ${tableDir}/_delta_log`);
  const version = Math.max(...versions);
  const cp = [...checkpoints.keys()].filter((v) => v <= version).sort((a, b) => b - a)[0];
  let protocol = null;
  let metaData = null;
  const apply = (a) => {
    if (a.protocol) protocol = a.protocol;
    if (a.metaData) metaData = a.metaData;
  };
  if (cp !== undefined) {
    for (const f of checkpoints.get(cp)) {
      const actions = f.endsWith('.json') ? jsonActions(f) : await parquetActions(f);
      actions.forEach(apply);
    }
  }
  for (const v of [...commits.keys()].sort((a, b) => a - b)) {
    if (cp !== undefined && v <= cp) continue;
    jsonActions(commits.get(v)).forEach(apply);
  }
  const schema = metaData?.schemaString ? JSON.parse(metaData.schemaString) : null;
  return {
    version,
    protocol,
    metaData,
    fields: schema ? schema.fields : null,
    partitionColumns: metaData?.partitionColumns ?? [],
  };
}

/** Any schema the log's JSON commits name (for tables that must fail: best effort, never throws). */
export function anyFields(tableDir) {
  try {
    const { commits } = listLog(tableDir);
    let fields = null;
    for (const v of [...commits.keys()].sort((a, b) => a - b)) {
      for (const a of jsonActions(commits.get(v))) {
        if (a.metaData?.schemaString) fields = JSON.parse(a.metaData.schemaString).fields;
      }
    }
    return fields;
  } catch {
    return null;
  }
}

const PRIMITIVE_PG = {
  byte: 'smallint',
  short: 'smallint',
  integer: 'integer',
  long: 'bigint',
  float: 'real',
  double: 'double precision',
  boolean: 'boolean',
  string: 'text',
  binary: 'bytea',
  date: 'date',
  // PROTOCOL.md: timestamp is an instant (UTC-adjusted), timestamp_ntz a
  // wall-clock value
  timestamp: 'timestamp with time zone',
  timestamp_ntz: 'timestamp without time zone',
};

/**
 * The PostgreSQL type (format_type() spelling) a Delta type maps to, as
 * parquet_fdw maps the same Parquet types: primitives one to one, arrays of
 * primitives as PostgreSQL arrays, every other nested type (struct, map,
 * array of nested) as jsonb. null for a type with no single answer.
 */
export function deltaPgType(t) {
  if (typeof t === 'string') {
    if (PRIMITIVE_PG[t]) return PRIMITIVE_PG[t];
    const m = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t);
    if (m) return `numeric(${m[1]},${m[2]})`;
    return null;
  }
  if (t && t.type === 'array' && typeof t.elementType === 'string') {
    const e = deltaPgType(t.elementType);
    return e ? `${e}[]` : null;
  }
  if (t && (t.type === 'struct' || t.type === 'map' || t.type === 'array')) return 'jsonb';
  return null;
}

/** A Delta type as text, for messages. */
export const deltaTypeName = (t) => (typeof t === 'string' ? t : t?.type === 'array' ? `array<${deltaTypeName(t.elementType)}>`
  : t?.type === 'map' ? `map<${deltaTypeName(t.keyType)},${deltaTypeName(t.valueType)}>` : t?.type ?? String(t));
