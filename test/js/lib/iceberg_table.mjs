// What check_iceberg.mjs needs to know about an Iceberg table, read here
// independently of the C code, by the Iceberg spec (format/spec.md): which
// metadata file is current, the metadata JSON with its 64-bit ids exact, the
// Avro manifest lists and manifests (decoded with avsc), every location the
// metadata records (to build the location_map option and to check that
// every file it names is found there), the schema of a snapshot, the
// snapshot current at a time, and the PostgreSQL type of each Iceberg type.
//
// This is no Iceberg reader: it applies no deletes and reads no data files.

import fs from 'node:fs';
import path from 'node:path';
import { readAvro as readAvroBytes } from './avro_container.mjs';

// ------------------------------------------------------------- corpus

/**
 * The Impala test tables and their expected results: { root (iceberg/),
 * impala (iceberg/impala), expected (iceberg/impala-expected) }, or null.
 */
export function findIcebergCorpus(dirOpt, repo) {
  const cands = [dirOpt, process.env.TABLE_FORMATS_DIR, path.resolve(repo, '..', 'shared', 'testdata', 'table-formats')];
  for (const c of cands) {
    if (c && fs.existsSync(path.join(c, 'iceberg', 'impala'))) {
      const root = fs.realpathSync(path.join(c, 'iceberg'));
      return { root, impala: path.join(root, 'impala'), expected: path.join(root, 'impala-expected') };
    }
  }
  return null;
}

/** Every table directory below impalaDir (one holding metadata/), as paths relative to it, sorted. */
export function listTableDirs(impalaDir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      if (e.name === 'metadata') out.push(path.relative(impalaDir, d));
      else walk(path.join(d, e.name));
    }
  };
  walk(impalaDir);
  return out.sort();
}

// ------------------------------------------------------------- metadata

/**
 * The metadata file a reader given the table directory uses: the version
 * named by metadata/version-hint.text (a decimal number N: vN.metadata.json),
 * else the vN.metadata.json with the largest N. An empty or unreadable hint
 * counts as none (iceberg_v3_deletion_vectors has an empty one), and so does
 * version-hint.txt (a misspelling some of Impala's tables have).
 * Returns { file, version, hint: 'text'|'empty'|'none'|'missing-file' }.
 */
export function currentMetadataFile(tableDir) {
  const md = path.join(tableDir, 'metadata');
  const names = fs.readdirSync(md);
  const versions = names.map((n) => /^v(\d+)\.metadata\.json$/.exec(n)).filter(Boolean).map((m) => Number(m[1])).sort((a, b) => a - b);
  let hint = 'none';
  if (names.includes('version-hint.text')) {
    const t = fs.readFileSync(path.join(md, 'version-hint.text'), 'utf8').trim();
    if (/^\d+$/.test(t)) {
      const v = Number(t);
      if (versions.includes(v)) return { file: path.join(md, `v${v}.metadata.json`), version: v, hint: 'text' };
      hint = 'missing-file';
    } else hint = 'empty';
  }
  if (!versions.length) throw new Error(`no vN.metadata.json in ${md}`);
  const v = versions[versions.length - 1];
  return { file: path.join(md, `v${v}.metadata.json`), version: v, hint };
}

/**
 * JSON.parse with integers beyond 2^53 kept exact: such literals (outside
 * strings) become strings of their digits before parsing. Snapshot ids are
 * 64-bit; every id this file hands out is a string of decimal digits.
 */
export function parseJsonBig(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      const lit = m[0];
      const isInt = !m[1] && !m[2];
      out += isInt && !Number.isSafeInteger(Number(lit)) ? `"${lit}"` : lit;
      i += lit.length;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

/** A table's metadata JSON (ids exact: see parseJsonBig). */
export const readMetadata = (file) => parseJsonBig(fs.readFileSync(file, 'utf8'));

const idStr = (v) => (v === undefined || v === null ? null : String(v));

/** The current schema ({fields, schema-id}) of metadata m (v1's single "schema" too). */
export function currentSchema(m) {
  if (Array.isArray(m.schemas)) {
    const s = m.schemas.find((x) => x['schema-id'] === m['current-schema-id']);
    if (s) return s;
  }
  if (m.schema) return m.schema;
  throw new Error('metadata has no current schema');
}

/** The snapshot with id (string or number), or undefined. */
export const snapshotById = (m, id) => (m.snapshots || []).find((s) => idStr(s['snapshot-id']) === idStr(id));

/** The current snapshot (the main branch's), or undefined when the table has none. */
export function currentSnapshot(m) {
  const id = idStr(m['current-snapshot-id']);
  if (id === null || id === '-1') return undefined;
  return snapshotById(m, id);
}

/** The schema a snapshot was written with (its schema-id; the current one when it names none). */
export function snapshotSchema(m, snap) {
  if (snap && snap['schema-id'] !== undefined && Array.isArray(m.schemas)) {
    const s = m.schemas.find((x) => x['schema-id'] === snap['schema-id']);
    if (s) return s;
  }
  return currentSchema(m);
}

/**
 * The snapshot current at time ms (Appendix F / the reference
 * implementation's SnapshotUtil.snapshotIdAsOfTime): the last snapshot-log
 * entry at or before ms; undefined when none.
 */
export function snapshotAsOfTime(m, ms) {
  let best;
  for (const e of m['snapshot-log'] || []) if (Number(e['timestamp-ms']) <= ms) best = e;
  return best ? snapshotById(m, best['snapshot-id']) : undefined;
}

// ------------------------------------------------------------------ Avro

/** The records of an Avro container file (avsc; longs as BigInt): { meta, records }. */
export function readAvro(file) {
  try {
    const { meta, records } = readAvroBytes(fs.readFileSync(file), { wrapUnions: false });
    return { meta, records };
  } catch (e) {
    throw new Error(`${file}: ${e.message}`);
  }
}

// ------------------------------------------------------------ locations

/**
 * The location map of a table directory: recorded prefix -> local prefix.
 * entries: [[old, new]]; a path maps by the longest old prefix it starts
 * with at a '/' boundary (the old prefix equal to the whole path, or
 * followed by '/').
 */
export function mapPath(entries, p) {
  let best = null;
  for (const [from, to] of entries) {
    if (p === from || p.startsWith(from.endsWith('/') ? from : `${from}/`)) {
      if (!best || from.length > best[0].length) best = [from, to];
    }
  }
  if (!best) return null;
  return best[1] + p.slice(best[0].length);
}

/** The option text: "OLD -> NEW; OLD2 -> NEW2". */
export const locationMapOption = (entries) => entries.map(([a, b]) => `${a} -> ${b}`).join('; ');

/**
 * Every location the table's metadata records, read from all its metadata
 * JSON files, their manifest lists and the manifests those list (all
 * snapshots, not only the current one): [{ path, what, from }], and the
 * tables' recorded root locations.
 */
export function recordedLocations(tableDir) {
  const md = path.join(tableDir, 'metadata');
  const out = [];
  const locations = new Set();
  const seenLists = new Set();
  const seenManifests = new Set();
  const byName = (p) => path.join(md, path.basename(p)); // a first guess, only to read the file
  for (const name of fs.readdirSync(md).filter((n) => n.endsWith('.metadata.json')).sort()) {
    const m = readMetadata(path.join(md, name));
    if (m.location) {
      locations.add(m.location);
      out.push({ path: m.location, what: 'table location', from: name, dir: true });
    }
    for (const e of m['metadata-log'] || []) out.push({ path: e['metadata-file'], what: 'metadata-log entry', from: name, optional: true });
    for (const s of m.snapshots || []) {
      const lists = s['manifest-list'] ? [s['manifest-list']] : [];
      for (const ml of lists) {
        out.push({ path: ml, what: 'manifest list', from: name });
        if (seenLists.has(ml)) continue;
        seenLists.add(ml);
        let recs = [];
        try {
          recs = readAvro(byName(ml)).records;
        } catch {
          continue; // reported as missing by the caller
        }
        for (const r of recs) {
          out.push({ path: r.manifest_path, what: 'manifest', from: path.basename(ml) });
          if (seenManifests.has(r.manifest_path)) continue;
          seenManifests.add(r.manifest_path);
          let ents = [];
          try {
            ents = readAvro(byName(r.manifest_path)).records;
          } catch {
            continue;
          }
          for (const e of ents) {
            const df = e.data_file;
            const kind = df.content === 1 ? 'position delete file' : df.content === 2 ? 'equality delete file' : 'data file';
            out.push({ path: df.file_path, what: `${kind} (${df.file_format}${e.status === 2 ? ', status DELETED' : ''})`, from: path.basename(r.manifest_path), format: df.file_format, status: e.status });
          }
        }
      }
      for (const mf of s.manifests || []) out.push({ path: mf, what: 'manifest (v1 snapshot list)', from: name });
    }
  }
  return { entries: out, locations: [...locations] };
}

/**
 * The location_map entries for a table of Impala's corpus (the brief's
 * rule): each recorded table location -> the table directory, then
 * /test-warehouse/iceberg_test and hdfs://localhost:20500/test-warehouse/
 * iceberg_test -> the impala directory (for files a table keeps outside its
 * own directory, as iceberg_multiple_storage_locations does).
 */
export function impalaLocationMap(tableDir, impalaDir, recordedRoots) {
  const entries = [];
  for (const loc of recordedRoots) {
    const l = loc.replace(/\/+$/, '');
    if (!entries.some(([a]) => a === l)) entries.push([l, tableDir]);
  }
  for (const p of ['/test-warehouse/iceberg_test', 'hdfs://localhost:20500/test-warehouse/iceberg_test']) {
    if (!entries.some(([a]) => a === p)) entries.push([p, impalaDir]);
  }
  return entries;
}

// ---------------------------------------------------------------- types

/** The canonical name of an Iceberg type (primitive string or nested object). */
export function icebergTypeName(t) {
  if (typeof t === 'string') return t;
  if (t.type === 'list') return `list<${icebergTypeName(t.element)}>`;
  if (t.type === 'map') return `map<${icebergTypeName(t.key)},${icebergTypeName(t.value)}>`;
  if (t.type === 'struct') return `struct<${t.fields.map((f) => `${f.name}:${icebergTypeName(f.type)}`).join(',')}>`;
  return JSON.stringify(t);
}

/** The PostgreSQL type of a primitive Iceberg type, or null. */
function pgPrimitive(t) {
  if (typeof t !== 'string') return null;
  let m;
  switch (t) {
    case 'boolean': return 'boolean';
    case 'int': return 'integer';
    case 'long': return 'bigint';
    case 'float': return 'real';
    case 'double': return 'double precision';
    case 'date': return 'date';
    case 'time': return 'time without time zone';
    case 'timestamp': case 'timestamp_ns': return 'timestamp without time zone';
    case 'timestamptz': case 'timestamptz_ns': return 'timestamp with time zone';
    case 'string': return 'text';
    case 'uuid': return 'uuid';
    case 'binary': return 'bytea';
    default:
      if ((m = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t))) return `numeric(${m[1]},${m[2]})`;
      if (/^fixed\[\d+\]$/.test(t)) return 'bytea';
      return null;
  }
}

/**
 * The PostgreSQL type declared for an Iceberg field type (format_type()
 * spelling): primitives as above, a list of a primitive as that type's
 * array, anything nested (struct, map, list of nested) as jsonb, variant as
 * json: a variant may hold a string with U+0000, which json keeps as the
 * escape \u0000 and jsonb cannot hold at all (parquet_fdw reads variants as
 * either). null when there is no mapping (geometry, geography, unknown).
 */
export function pgTypeOf(t) {
  const p = pgPrimitive(t);
  if (p) return p;
  if (t === 'variant') return 'json';
  if (typeof t === 'object') {
    if (t.type === 'list') {
      const e = pgPrimitive(t.element);
      return e ? `${e}[]` : 'jsonb';
    }
    if (t.type === 'map' || t.type === 'struct') return 'jsonb';
  }
  return null;
}

/** Is the Iceberg type nested (struct, list, map) or variant? */
export const isComplex = (t) => typeof t === 'object' || t === 'variant';

/**
 * The columns to declare for schema fields: [{ name (declared), field, type }].
 * Names are lowercased (so that Impala's case-insensitive SQL reads them
 * unquoted) unless two fields differ only in case; then they are declared
 * as written.
 */
export function pgColumns(fields) {
  const lower = fields.map((f) => f.name.toLowerCase());
  const clash = new Set(lower.filter((n, i) => lower.indexOf(n) !== i));
  return fields.map((f) => ({
    name: clash.has(f.name.toLowerCase()) ? f.name : f.name.toLowerCase(),
    field: f,
    type: pgTypeOf(f.type),
  }));
}

export const ident = (s) => `"${String(s).replace(/"/g, '""')}"`;
