#!/usr/bin/env node
// Independent check of the Iceberg table metadata reader (src/table/iceberg/
// metadata.c) against the spec's reading of the real files:
//
//   make iceberg_metadata_cli && node test/js/check_iceberg_metadata.mjs [--dir TABLE_FORMATS_DIR] [--cli PATH]
//
// Every *.metadata.json of a metadata/ directory under <table-formats>/iceberg
// (Impala's test tables: format versions 1, 2 and 3), read in place.  Each
// file is parsed here with JSON.parse (integers exactly, from their source
// text: snapshot ids are 64-bit) and its values are extracted as the spec's
// "Table Metadata" section and Appendices C and E say, with no help from the
// C code: format version, table uuid, location, sequence numbers, current
// snapshot and schema, every schema's fields (ids, names, requiredness,
// canonical type names, the nested type and defaults as written), partition
// specs (v1's field ids assigned from 1000), snapshots (ids, parents,
// sequence numbers, timestamps, manifest lists, operations), the snapshot
// log, refs, properties, and what the lookups must answer: the snapshot of
// each ref and of "main", and the snapshot current at each timestamp of the
// log and of the snapshots, a millisecond either side (Appendix F: the
// log's last entry at or before the time; an expired one is no answer).
// The CLI's JSON must equal it, member by member.
//
// One "PASS <file>" / "FAIL <file>: <first difference>" line per file, then
// "iceberg_metadata: N passed, N failed".  Without the test data the suite
// reports NOT RUN (a failure under CI=true).

import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const SUITE = 'iceberg_metadata';
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const CLI = opt('--cli') || path.join(REPO, 'test', 'unit', 'iceberg_metadata_cli');

// JSON.parse hands a reviver the number's source text from Node 21 on (and
// with --harmony-json-parse-with-source before): without it, this script
// runs itself again with the flag.
const SOURCE_FLAG = '--harmony-json-parse-with-source';
function hasSource() {
  let ok = false;
  JSON.parse('1', (k, v, ctx) => { ok = ctx !== undefined && ctx.source === '1'; return v; });
  return ok;
}
if (!hasSource()) {
  if (process.execArgv.includes(SOURCE_FLAG)) {
    console.log(`FAIL ${SUITE}: this node cannot give JSON numbers' source text`);
    console.log(`${SUITE}: 0 passed, 1 failed`);
    process.exit(1);
  }
  const r = spawnSync(process.execPath, [...process.execArgv, SOURCE_FLAG, fileURLToPath(import.meta.url), ...args],
    { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

/** A JSON number, as written. */
class Num {
  constructor(text) { this.text = text; }
}
const parseExact = (text) => JSON.parse(text, (k, v, ctx) => (typeof v === 'number' ? new Num(ctx.source) : v));

/** An integer (Num of an integer's text) as a BigInt; anything else throws. */
function big(v, what) {
  if (!(v instanceof Num) || !/^-?\d+$/.test(v.text)) throw new Error(`${what} is not an integer`);
  return BigInt(v.text);
}
const bigOr = (v, dflt, what) => (v === undefined || v === null ? dflt : big(v, what));

// ------------------------------------------------------------ the spec

const SIMPLE_TYPES = ['boolean', 'int', 'long', 'float', 'double', 'date', 'time', 'timestamp',
  'timestamptz', 'timestamp_ns', 'timestamptz_ns', 'string', 'uuid', 'binary', 'unknown', 'variant'];

/** Appendix C's type names, in the canonical form metadata.h promises. */
function typeName(t) {
  if (typeof t === 'object') return t.type;
  const lower = t.toLowerCase();
  if (SIMPLE_TYPES.includes(lower)) return lower;
  let m = /^decimal\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$/i.exec(t);
  if (m) return `decimal(${Number(m[1])},${Number(m[2])})`;
  m = /^fixed\[(\d+)\]$/i.exec(t);
  if (m) return `fixed[${Number(m[1])}]`;
  m = /^(geometry|geography)\s*(?:\(\s*([^,)]*?)\s*(?:,\s*(\w+)\s*)?\))?$/i.exec(t);
  if (m) {
    const kw = m[1].toLowerCase();
    if (!m[2]) return kw;
    return m[3] ? `${kw}(${m[2]},${m[3].toLowerCase()})` : `${kw}(${m[2]})`;
  }
  throw new Error(`unknown type ${t}`);
}

function transformName(t) {
  const lower = t.toLowerCase();
  if (['identity', 'year', 'month', 'day', 'hour', 'void'].includes(lower)) return lower;
  const m = /^(bucket|truncate)\[(\d+)\]$/i.exec(t);
  return m ? `${m[1].toLowerCase()}[${Number(m[2])}]` : t;
}

/** What the reader must give for the file's JSON d (parsed exactly). */
function expected(d) {
  const version = Number(big(d['format-version'], 'format-version'));
  const current = bigOr(d['current-snapshot-id'], -1n, 'current-snapshot-id');
  const schemasJson = d.schemas ?? [d.schema];
  const schemas = schemasJson.map((s, i) => ({
    schema_id: bigOr(s['schema-id'], d.schemas ? BigInt(i) : 0n, 'schema-id'),
    identifier_field_ids: (s['identifier-field-ids'] ?? []).map((x) => big(x, 'identifier id')),
    fields: s.fields.map((f) => ({
      id: big(f.id, 'field id'),
      name: f.name,
      required: f.required,
      type: typeName(f.type),
      type_tree: f.type,
      initial_default: f['initial-default'] ?? null,
      write_default: f['write-default'] ?? null,
    })),
  }));
  const specFields = (fields) => {
    let last = 999n; // v1: ids from 1000, past any given
    return fields.map((f) => {
      const sources = f['source-ids'] && f['source-ids'].length > 0
        ? f['source-ids'].map((x) => big(x, 'source id')) : [big(f['source-id'], 'source-id')];
      let id;
      if (f['field-id'] !== undefined) {
        id = big(f['field-id'], 'field-id');
        if (id > last) last = id;
      } else id = ++last;
      return { source_id: sources.length === 1 ? sources[0] : -1n, source_ids: sources, field_id: id,
        name: f.name, transform: transformName(f.transform) };
    });
  };
  const specs = d['partition-specs']
    ? d['partition-specs'].map((s) => ({ spec_id: big(s['spec-id'], 'spec-id'), fields: specFields(s.fields) }))
    : [{ spec_id: 0n, fields: specFields(d['partition-spec'] ?? []) }];
  const snapshots = (d.snapshots ?? []).map((s) => ({
    snapshot_id: big(s['snapshot-id'], 'snapshot-id'),
    parent_id: bigOr(s['parent-snapshot-id'], -1n, 'parent'),
    sequence_number: bigOr(s['sequence-number'], 0n, 'sequence-number'),
    timestamp_ms: big(s['timestamp-ms'], 'timestamp-ms'),
    manifest_list: s['manifest-list'] ?? null,
    manifests: s['manifest-list'] ? [] : (s.manifests ?? []),
    schema_id: bigOr(s['schema-id'], -1n, 'schema-id'),
    operation: s.summary ? s.summary.operation : null,
    first_row_id: bigOr(s['first-row-id'], -1n, 'first-row-id'),
    added_rows: bigOr(s['added-rows'], -1n, 'added-rows'),
  }));
  const log = (d['snapshot-log'] ?? []).map((e) => [big(e['timestamp-ms'], 'log time'), big(e['snapshot-id'], 'log id')]);
  const refs = Object.entries(d.refs ?? {}).map(([name, r]) => ({
    name, snapshot_id: big(r['snapshot-id'], 'ref'), is_tag: r.type === 'tag',
  }));

  // the lookups, by the spec's words
  const byId = new Map(snapshots.map((s) => [s.snapshot_id, s]));
  const idOrNull = (id) => (byId.has(id) ? id : null);
  const refLookups = {};
  for (const r of refs) refLookups[r.name] = idOrNull(r.snapshot_id);
  const mainRef = refs.find((r) => r.name === 'main');
  const asOf = (ms) => {
    if (log.length > 0) {
      let hit = null;
      for (const [t, id] of log) if (t <= ms) hit = id;
      return hit === null ? null : idOrNull(hit);
    }
    // no log: the current snapshot's ancestors, newest first
    let s = byId.get(current);
    for (let n = 0; s && n < snapshots.length; n++) {
      if (s.timestamp_ms <= ms) return s.snapshot_id;
      s = byId.get(s.parent_id);
    }
    return null;
  };
  const times = [];
  for (const delta of [-1n, 0n, 1n]) {
    for (const [t] of log) times.push(t + delta);
    for (const s of snapshots) times.push(s.timestamp_ms + delta);
  }
  return {
    format_version: BigInt(version),
    table_uuid: d['table-uuid'] ?? null,
    location: d.location,
    last_sequence_number: bigOr(d['last-sequence-number'], 0n, 'last-sequence-number'),
    last_updated_ms: big(d['last-updated-ms'], 'last-updated-ms'),
    current_snapshot_id: current,
    current_schema_id: d.schemas ? big(d['current-schema-id'], 'current-schema-id') : schemas[0].schema_id,
    schemas,
    default_spec_id: d['partition-specs'] ? big(d['default-spec-id'], 'default-spec-id') : 0n,
    specs,
    snapshots,
    snapshot_log: log,
    refs,
    properties: d.properties ?? {},
    lookups: {
      main: mainRef ? idOrNull(mainRef.snapshot_id) : idOrNull(current),
      refs: refLookups,
      as_of: times.map((t) => [t, asOf(t)]),
    },
  };
}

// ------------------------------------------------------------ comparing

/** The CLI's JSON with integers as BigInt (Num kept for nested JSON values). */
function normalize(v) {
  if (v instanceof Num) return /^-?\d+$/.test(v.text) ? BigInt(v.text) : v;
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalize(x)]));
  return v;
}

const show = (v) => (v instanceof Num ? v.text : typeof v === 'bigint' ? `${v}` : JSON.stringify(v,
  (k, x) => (typeof x === 'bigint' ? `${x}` : x instanceof Num ? x.text : x)));

/** The first difference between got and want, or null: numbers by their text or value. */
function diff(got, want, where) {
  if (want instanceof Num || got instanceof Num) {
    const g = got instanceof Num ? got.text : typeof got === 'bigint' ? `${got}` : null;
    const w = want instanceof Num ? want.text : typeof want === 'bigint' ? `${want}` : null;
    return g !== null && g === w ? null : `${where}: ${show(got)} != ${show(want)}`;
  }
  if (typeof want === 'bigint' || typeof got === 'bigint' || want === null || typeof want !== 'object') {
    return got === want ? null : `${where}: ${show(got)} != ${show(want)}`;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return `${where}: ${show(got)} != ${show(want)}`;
    for (let i = 0; i < want.length; i++) {
      const d = diff(got[i], want[i], `${where}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (!got || typeof got !== 'object' || Array.isArray(got)) return `${where}: ${show(got)} != ${show(want)}`;
  const gk = Object.keys(got);
  const wk = Object.keys(want);
  if (gk.join('\u0000') !== wk.join('\u0000')) return `${where}: members ${gk} != ${wk}`;
  for (const k of wk) {
    const d = diff(got[k], want[k], `${where}.${k}`);
    if (d) return d;
  }
  return null;
}

// ------------------------------------------------------------ running

function findIceberg() {
  const cands = [opt('--dir'), process.env.TABLE_FORMATS_DIR, path.resolve(REPO, '..', 'shared', 'testdata', 'table-formats')];
  for (const c of cands) if (c && fs.existsSync(path.join(c, 'iceberg'))) return fs.realpathSync(path.join(c, 'iceberg'));
  return null;
}

function metadataFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = e.isSymbolicLink() ? fs.statSync(p) : e;
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && path.basename(d) === 'metadata' && e.name.endsWith('.metadata.json')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

function check(file) {
  const want = expected(parseExact(fs.readFileSync(file, 'utf8')));
  let text;
  try {
    text = execFileSync(CLI, [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  } catch (e) {
    return `the CLI failed (status ${e.status}): ${(e.stdout || '').slice(0, 300)}${(e.stderr || '').slice(0, 300)}`;
  }
  const got = normalize(parseExact(text));
  return diff(got, want, 'metadata') ?? {
    summary: `v${want.format_version}, ${want.schemas.length} schemas, ${want.specs.length} specs, ` +
      `${want.snapshots.length} snapshots, ${want.lookups.as_of.length} time-travel lookups`,
  };
}

function main() {
  const dir = findIceberg();
  if (!dir) {
    console.log(`!!!!!!!! WARNING: Iceberg test tables NOT FOUND (looked at --dir, $TABLE_FORMATS_DIR and ../shared/testdata/table-formats, for iceberg/): ${SUITE} suite NOT RUN !!!!!!!!`);
    console.log(`${SUITE}: 0 passed, 0 failed`);
    return process.env.CI === 'true' ? 1 : 0;
  }
  if (!fs.existsSync(CLI)) {
    console.log(`FAIL ${SUITE}: ${CLI} is not built (make iceberg_metadata_cli)`);
    console.log(`${SUITE}: 0 passed, 1 failed`);
    return 1;
  }
  let passed = 0;
  let failed = 0;
  const files = metadataFiles(dir);
  for (const file of files) {
    const rel = path.relative(dir, file);
    let r;
    try {
      r = check(file);
    } catch (e) {
      r = `cannot read it as the spec says: ${e.message}`;
    }
    if (typeof r === 'string') {
      failed++;
      console.log(`FAIL ${rel}: ${r}`);
    } else {
      passed++;
      console.log(`PASS ${rel}: ${r.summary}`);
    }
  }
  if (files.length === 0) {
    failed++;
    console.log(`FAIL ${SUITE}: no metadata files under ${dir}`);
  }
  console.log(`${SUITE}: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exit(main());
