#!/usr/bin/env node
// Independent check of the Iceberg manifest reader (src/table/iceberg/
// manifest.c, avro_file.c) against the npm package avsc's decoding of the
// same Avro files:
//
//   make iceberg_manifest_cli && node test/js/check_iceberg_manifests.mjs [--dir TABLE_FORMATS_DIR] [--cli PATH]
//
// Every .avro file under <table-formats>/iceberg, read in place.  A manifest
// list (a record with manifest_path) is compared entry by entry; a manifest
// (status and data_file) is read with its entry of a manifest list of the
// same metadata folder (the first snap-*.avro that lists it), and the
// inheritance of snapshot ids and sequence numbers is computed here from
// avsc's reading of that list (format/spec.md "Sequence Number
// Inheritance", as Java's InheritableMetadataFactory: a null number becomes
// the manifest's when the entry is ADDED or the manifest's number is 0).
// Any other Avro file (a data file) must be refused.  Compared field by
// field: paths, counts, content, sequence numbers, partition values with
// their field ids (the partition-spec metadata's, by name; else the Avro
// schema's field-id), int-keyed maps sorted by key (a key's last entry),
// bounds as hex.
//
// The container's framing (header, blocks, deflate) is read here with
// node's zlib; avsc decodes the header and each record with the file's own
// schema, longs as BigInt.
//
// One "PASS <file>" / "FAIL <file>: <first difference>" line per file, then
// "iceberg_manifests: N passed, N failed".  Without the test data the suite
// reports NOT RUN (a failure under CI=true).

import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readAvro as readAvroBytes } from './lib/avro_container.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const CLI = opt('--cli') || path.join(REPO, 'test', 'unit', 'iceberg_manifest_cli');
const SUITE = 'iceberg_manifests';

function findIceberg() {
  const cands = [opt('--dir'), process.env.TABLE_FORMATS_DIR, path.resolve(REPO, '..', 'shared', 'testdata', 'table-formats')];
  for (const c of cands) if (c && fs.existsSync(path.join(c, 'iceberg'))) return fs.realpathSync(path.join(c, 'iceberg'));
  return null;
}

function avroFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = e.isSymbolicLink() ? fs.statSync(p) : e;
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && e.name.endsWith('.avro')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

// ------------------------------------------------------------- avsc reading

/** {meta (strings), schema (JSON), records} of an Avro container file. */
function readAvro(file) {
  try {
    return readAvroBytes(fs.readFileSync(file));
  } catch (e) {
    throw new Error(`avsc: ${file}: ${e.message}`);
  }
}

// --------------------------------------------------------- expected values

const hex = (b) => (b === null || b === undefined ? null : Buffer.from(b).toString('hex'));
const str64 = (v) => (v === null || v === undefined ? null : BigInt(v).toString());
const isList = (s) => s.type === 'record' && s.fields.some((f) => f.name === 'manifest_path');
const isManifest = (s) => s.type === 'record' && s.fields.some((f) => f.name === 'status') &&
  s.fields.some((f) => f.name === 'data_file');

function expectList(avr) {
  const v = avr.meta['format-version'] ? Number(avr.meta['format-version']) : 1;
  const v1 = (x) => (x === undefined && v < 2 ? 0n : x);
  return {
    manifests: avr.records.map((r) => ({
      manifest_path: r.manifest_path,
      manifest_length: str64(r.manifest_length),
      partition_spec_id: r.partition_spec_id,
      content: Number(v1(r.content)),
      sequence_number: str64(v1(r.sequence_number)),
      min_sequence_number: str64(v1(r.min_sequence_number)),
      added_snapshot_id: str64(r.added_snapshot_id),
      first_row_id: str64(r.first_row_id),
      partitions: (r.partitions || []).map((s) => ({
        contains_null: s.contains_null,
        contains_nan: s.contains_nan === undefined ? null : s.contains_nan,
        lower_bound: hex(s.lower_bound),
        upper_bound: hex(s.upper_bound),
      })),
    })),
  };
}

/** The non-null branch's type of a field type, as a name. */
function avroTypeName(t) {
  if (Array.isArray(t)) t = t.find((b) => b !== 'null');
  if (t && typeof t === 'object') t = t.type;
  return t;
}

const recordOf = (t) => (Array.isArray(t) ? t.find((b) => b && typeof b === 'object') : t);

function partitionIds(avr) {
  const bySpec = new Map();
  if (avr.meta['partition-spec'] !== undefined) {
    let spec = JSON.parse(avr.meta['partition-spec']);
    if (!Array.isArray(spec)) spec = spec.fields;
    spec.forEach((f, i) => {
      if (typeof f.name === 'string') bySpec.set(f.name, Number.isInteger(f['field-id']) ? f['field-id'] : 1000 + i);
    });
  }
  const df = recordOf(avr.schema.fields.find((f) => f.name === 'data_file').type);
  const part = recordOf(df.fields.find((f) => f.name === 'partition')?.type);
  const fields = part?.fields || [];
  const byName = new Map();
  for (const f of fields) if (Number.isInteger(f['field-id'])) byName.set(f.name, f['field-id']);
  return fields.map((f) => ({
    name: f.name,
    type: avroTypeName(f.type),
    id: bySpec.has(f.name) ? bySpec.get(f.name) : byName.has(f.name) ? byName.get(f.name) : -1,
  }));
}

function partitionValue(type, v) {
  if (v === null || v === undefined) return { type: 'null', value: null };
  switch (type) {
    case 'boolean': return { type, value: v };
    case 'int': return { type, value: String(v) };
    case 'long': return { type, value: v.toString() };
    case 'float': case 'double': return { type, num: v };
    case 'string': return { type, value: v };
    case 'bytes': case 'fixed': return { type, value: hex(v) };
    default: throw new Error(`avsc side: partition type ${type} not handled`);
  }
}

/** An int-keyed map (array of {key, value}): sorted by key, a key's last entry. */
function intMap(arr, bytes) {
  const m = new Map();
  for (const kv of arr || []) {
    if (kv.value === null) continue;
    m.set(kv.key, bytes ? hex(kv.value) : kv.value.toString());
  }
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
}

function expectManifest(avr, listed) {
  const pids = partitionIds(avr);
  const entries = avr.records.map((r) => {
    const d = r.data_file;
    let snap = r.snapshot_id === undefined ? null : r.snapshot_id;
    let seq = r.sequence_number === undefined ? null : r.sequence_number;
    let fseq = r.file_sequence_number === undefined ? null : r.file_sequence_number;
    if (listed) {
      if (snap === null) snap = listed.added_snapshot_id;
      const inherit = listed.sequence_number === 0n || r.status === 1;
      if (seq === null && inherit) seq = listed.sequence_number;
      if (fseq === null && inherit) fseq = listed.sequence_number;
    }
    return {
      status: r.status,
      snapshot_id: str64(snap),
      sequence_number: str64(seq),
      file_sequence_number: str64(fseq),
      data_file: {
        content: d.content === undefined ? 0 : d.content,
        file_path: d.file_path,
        file_format: d.file_format,
        partition: pids.map((p) => ({ field_id: p.id, name: p.name, ...partitionValue(p.type, d.partition[p.name]) })),
        record_count: str64(d.record_count),
        file_size_in_bytes: str64(d.file_size_in_bytes),
        value_counts: intMap(d.value_counts, false),
        null_value_counts: intMap(d.null_value_counts, false),
        nan_value_counts: intMap(d.nan_value_counts, false),
        lower_bounds: intMap(d.lower_bounds, true),
        upper_bounds: intMap(d.upper_bounds, true),
        equality_ids: d.equality_ids || [],
        referenced_data_file: d.referenced_data_file ?? null,
        content_offset: str64(d.content_offset),
        content_size_in_bytes: str64(d.content_size_in_bytes),
        first_row_id: str64(d.first_row_id),
      },
    };
  });
  return { entries };
}

// --------------------------------------------------------------- comparison

/** The first difference of got from want, as a path and both values. */
function diff(want, got, at = '') {
  if (want && typeof want === 'object' && 'num' in want && !Array.isArray(want)) {
    // a floating-point partition value: the CLI's "%.17g" text parsed
    const { num, ...rest } = want;
    const { value: _text, ...gotRest } = got || {};
    const d = diff(rest, gotRest, at);
    if (d) return d;
    const g = got?.value === 'nan' || got?.value === 'NaN' ? NaN : Number(got?.value);
    return Object.is(g, num) || g === num ? null : `${at}.value: want ${num}, got ${got?.value}`;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${at}: want an array, got ${JSON.stringify(got)}`;
    if (want.length !== got.length) return `${at}: want ${want.length} items, got ${got.length}`;
    for (let i = 0; i < want.length; i++) {
      const d = diff(want[i], got[i], `${at}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (want && typeof want === 'object') {
    if (!got || typeof got !== 'object') return `${at}: want an object, got ${JSON.stringify(got)}`;
    for (const k of Object.keys(want)) {
      const d = diff(want[k], got[k], `${at}.${k}`);
      if (d) return d;
    }
    for (const k of Object.keys(got)) if (!(k in want)) return `${at}.${k}: not expected`;
    return null;
  }
  return want === got ? null : `${at}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
}

function runCli(argv) {
  try {
    return { out: execFileSync(CLI, argv, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }), rc: 0 };
  } catch (e) {
    return { out: (e.stdout || '') + (e.stderr || ''), rc: e.status };
  }
}

/** The manifest lists of a metadata folder, decoded once. */
const listCache = new Map();
function listsOf(dir) {
  if (!listCache.has(dir)) {
    const lists = [];
    for (const n of fs.readdirSync(dir).filter((n) => /^snap-.*\.avro$/.test(n)).sort()) {
      const avr = readAvro(path.join(dir, n));
      if (isList(avr.schema)) lists.push({ file: path.join(dir, n), avr });
    }
    listCache.set(dir, lists);
  }
  return listCache.get(dir);
}

function checkFile(file) {
  const avr = readAvro(file);
  let want;
  let argv;
  if (isList(avr.schema)) {
    want = expectList(avr);
    argv = ['list', file];
  } else if (isManifest(avr.schema)) {
    let listed = null;
    let listFile = null;
    for (const l of listsOf(path.dirname(file))) {
      listed = l.avr.records.find((m) => path.basename(m.manifest_path) === path.basename(file));
      if (listed) {
        listFile = l.file;
        const v = l.avr.meta['format-version'] ? Number(l.avr.meta['format-version']) : 1;
        if (listed.sequence_number === undefined && v < 2) listed = { ...listed, sequence_number: 0n };
        if (listed.content === undefined) listed = { ...listed, content: 0 };
        break;
      }
    }
    want = expectManifest(avr, listed);
    argv = listFile ? ['manifest', file, listFile] : ['manifest', file];
  } else {
    const r = runCli(['manifest', file]);
    if (r.rc === 1 && /^REFUSED /.test(r.out)) return { what: `not a manifest, refused (${r.out.trim().slice(8)})` };
    return `not a manifest, yet the CLI answered ${r.rc}: ${r.out.slice(0, 200)}`;
  }
  const r = runCli(argv);
  if (r.rc !== 0) return `CLI ${argv[0]} exited ${r.rc}: ${r.out.trim().slice(0, 300)}`;
  const got = JSON.parse(r.out);
  const d = diff(want, got);
  if (d) return d;
  const n = (want.manifests || want.entries).length;
  return { what: `${argv[0]}, ${n} ${want.manifests ? 'manifests' : 'entries'}${argv[2] ? ', inheriting from ' + path.basename(argv[2]) : ''}` };
}

function main() {
  const iceberg = findIceberg();
  if (!iceberg) {
    console.log(`!!!!!!!! WARNING: Iceberg test tables NOT FOUND (looked at --dir, $TABLE_FORMATS_DIR and ../shared/testdata/table-formats, for iceberg/): ${SUITE} suite NOT RUN !!!!!!!!`);
    console.log(`${SUITE}: 0 passed, 0 failed`);
    return process.env.CI === 'true' ? 1 : 0;
  }
  if (!fs.existsSync(CLI)) {
    console.log(`FAIL ${SUITE}: ${CLI} is not built (make iceberg_manifest_cli)`);
    console.log(`${SUITE}: 0 passed, 1 failed`);
    return 1;
  }
  const files = avroFiles(iceberg);
  let passed = 0;
  let failed = 0;
  for (const f of files) {
    const rel = path.relative(iceberg, f);
    let r;
    try {
      r = checkFile(f);
    } catch (e) {
      r = `${e.message.split('\n')[0]}`;
    }
    if (typeof r === 'string') {
      failed++;
      console.log(`FAIL ${rel}: ${r}`);
    } else {
      passed++;
      console.log(`PASS ${rel}: ${r.what}`);
    }
  }
  if (files.length === 0) {
    failed++;
    console.log(`FAIL ${SUITE}: no .avro files under ${iceberg}`);
  }
  console.log(`${SUITE}: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error(e);
  console.log(`${SUITE}: 0 passed, 1 failed`);
  process.exitCode = 1;
}
