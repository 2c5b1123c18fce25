// Parquet metadata helpers built on hyparquet (an independent JS reader):
// footer parsing, the natural PostgreSQL type of each top-level field
// (issue 2, scope item 7; issue 3 for nested fields), and a page
// header walker used to verify that generated fixtures really contain the
// page types / encodings / codecs they are meant to exercise.

import fs from 'node:fs';
import { parquetMetadata } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';

export function readMetadata(file) {
  const b = fs.readFileSync(file);
  return parquetMetadata(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

const KNOWN_LOGICAL = new Set(['STRING', 'MAP', 'LIST', 'ENUM', 'DECIMAL', 'DATE', 'TIME', 'TIMESTAMP',
  'INTEGER', 'NULL', 'JSON', 'BSON', 'UUID', 'FLOAT16', 'VARIANT', 'GEOMETRY', 'GEOGRAPHY']);

/**
 * The natural PostgreSQL type (format_type() spelling) of a flat leaf column,
 * or null when there is no single answer to check (UNKNOWN/NULL logical type).
 */
export function naturalPgType(el) {
  const lt = el.logical_type && KNOWN_LOGICAL.has(el.logical_type.type) ? el.logical_type : null;
  const ct = el.converted_type;
  const phys = el.type;
  if (lt) {
    switch (lt.type) {
      case 'STRING': case 'ENUM': return 'text';
      case 'JSON': return 'jsonb';
      case 'BSON': return 'bytea';
      case 'UUID': return 'uuid';
      case 'DECIMAL': return `numeric(${lt.precision},${lt.scale})`;
      case 'DATE': return 'date';
      case 'TIME': return 'time without time zone';
      case 'TIMESTAMP': return lt.isAdjustedToUTC ? 'timestamp with time zone' : 'timestamp without time zone';
      case 'INTEGER':
        if (lt.isSigned) return { 8: 'smallint', 16: 'smallint', 32: 'integer', 64: 'bigint' }[lt.bitWidth];
        return { 8: 'smallint', 16: 'integer', 32: 'bigint', 64: 'numeric' }[lt.bitWidth];
      case 'FLOAT16': return 'real';
      case 'GEOMETRY': case 'GEOGRAPHY': return 'bytea';
      case 'NULL': return null;
      default: break;
    }
  }
  switch (ct) {
    case 'UTF8': case 'ENUM': return 'text';
    case 'JSON': return 'jsonb';
    case 'BSON': return 'bytea';
    case 'DECIMAL': return `numeric(${el.precision},${el.scale})`;
    case 'DATE': return 'date';
    case 'TIME_MILLIS': case 'TIME_MICROS': return 'time without time zone';
    // Legacy converted timestamps mean isAdjustedToUTC = true (LogicalTypes.md).
    case 'TIMESTAMP_MILLIS': case 'TIMESTAMP_MICROS': return 'timestamp with time zone';
    case 'INT_8': case 'INT_16': case 'UINT_8': return 'smallint';
    case 'INT_32': case 'UINT_16': return 'integer';
    case 'INT_64': case 'UINT_32': return 'bigint';
    case 'UINT_64': return 'numeric';
    case 'INTERVAL': return 'interval';
    default: break;
  }
  return {
    BOOLEAN: 'boolean', INT32: 'integer', INT64: 'bigint', INT96: 'timestamp without time zone',
    FLOAT: 'real', DOUBLE: 'double precision', BYTE_ARRAY: 'bytea', FIXED_LEN_BYTE_ARRAY: 'bytea',
  }[phys] ?? null;
}

/** The schema as a tree: { el, children }, root first. */
function schemaTree(md) {
  let i = 0;
  const build = () => {
    const el = md.schema[i++];
    const children = [];
    for (let k = 0; k < (el.num_children || 0); k++) children.push(build());
    return { el, children };
  };
  return build();
}

const isLeaf = (n) => n.el.num_children === undefined;
const annotated = (n, t) => n.el.logical_type?.type === t || n.el.converted_type === t;

/**
 * What a node's values are, by the LIST/MAP rules of the LogicalTypes spec
 * (written here independently of the C code): 'primitive', 'struct',
 * 'list' (with its element node and whether that is the repeated node
 * itself), 'map' or 'variant'. asElement: the node is an element that is a
 * repeated node, whose repetition the enclosing list accounts for.
 */
function shapeOf(n, asElement) {
  if (n.el.repetition_type === 'REPEATED' && !asElement) return { kind: 'list', element: n, occ: true };
  if (isLeaf(n)) return { kind: 'primitive' };
  if (annotated(n, 'LIST')) {
    const rep = n.children[0];
    const one = !isLeaf(rep) && rep.children.length === 1;
    if (isLeaf(rep) || !one || rep.children[0].el.repetition_type === 'REPEATED' ||
        rep.el.name === 'array' || rep.el.name === `${n.el.name}_tuple`) return { kind: 'list', element: rep, occ: true };
    return { kind: 'list', element: rep.children[0], occ: false };
  }
  if (annotated(n, 'MAP') || annotated(n, 'MAP_KEY_VALUE')) return { kind: 'map' };
  if (n.el.logical_type?.type === 'VARIANT') return { kind: 'variant' };
  return { kind: 'struct' };
}

/**
 * Each top-level field's natural PostgreSQL type (format_type() spelling):
 * flat leaves as naturalPgType(), lists of primitives as arrays of the
 * element's type, other nested fields jsonb. type is null where there is no
 * single answer to check.
 */
export function fieldPgTypes(md) {
  return schemaTree(md).children.map((f) => {
    const sh = shapeOf(f, false);
    let type = 'jsonb';
    if (sh.kind === 'primitive') type = naturalPgType(f.el);
    else if (sh.kind === 'list' && shapeOf(sh.element, sh.occ).kind === 'primitive') {
      const et = naturalPgType(sh.element.el);
      type = et === null ? null : `${et}[]`;
    }
    return { name: f.el.name, type };
  });
}

/**
 * Walk every page header of every column chunk. Returns a summary:
 * { pageTypes: Set, dataEncodings: Set, codecs: Set, pagesPerChunkMax,
 *   hasColumnIndex, hasOffsetIndex, crc: bool }
 */
export function walkPages(file) {
  const buf = fs.readFileSync(file);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const md = parquetMetadata(ab);
  const out = {
    pageTypes: new Set(), dataEncodings: new Set(), codecs: new Set(), pagesPerChunkMax: 0,
    hasColumnIndex: false, hasOffsetIndex: false, crc: false, rowGroups: md.row_groups.length,
  };
  for (const rg of md.row_groups) {
    for (const col of rg.columns) {
      const cm = col.meta_data;
      out.codecs.add(cm.codec);
      if (col.column_index_offset !== undefined) out.hasColumnIndex = true;
      if (col.offset_index_offset !== undefined) out.hasOffsetIndex = true;
      const dictOff = cm.dictionary_page_offset;
      let off = Number(dictOff !== undefined && dictOff > 0n ? dictOff : cm.data_page_offset);
      const end = off + Number(cm.total_compressed_size);
      let values = 0n;
      let pages = 0;
      while (off < end && values < BigInt(cm.num_values)) {
        const reader = { view: new DataView(ab), offset: off };
        const ph = parquetHeader(reader);
        out.pageTypes.add(ph.type);
        if (ph.crc !== undefined) out.crc = true;
        const dh = ph.data_page_header || ph.data_page_header_v2;
        if (dh) {
          out.dataEncodings.add(dh.encoding);
          values += BigInt(dh.num_values);
          pages++;
        }
        off = reader.offset + ph.compressed_page_size;
      }
      out.pagesPerChunkMax = Math.max(out.pagesPerChunkMax, pages);
    }
  }
  return out;
}
