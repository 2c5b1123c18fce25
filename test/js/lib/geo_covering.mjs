// GeoParquet 1.1 files with a bbox covering (check_geo_pruning.mjs):
// WKB in an unannotated BLOB column "geom" beside a root group "bbox" of
// per-row xmin/ymin/xmax/ymax, described by a "geo" key/value entry that
// the test writes itself, and the truth for their checks computed here
// from the coordinates: which rows meet a box, and which row groups a
// covering may prune (docs/GEOSPATIAL.md, "bbox covering").
import fs from 'node:fs';
import path from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { duckQuery, sqlString } from './duck.mjs';

export const PER_GROUP = 2048;	// DuckDB's row group unit

/*
 * Row groups: spatially separated points and squares; one holds a
 * Fiji-like multipolygon split at the antimeridian, whose GeoJSON box
 * wraps ([177, -18.3, -179.8, -16]); one is all NULL; one has a single
 * NULL row (its bbox NULL too).  Row group 0 holds a point at
 * x = 20.0000009, which a FLOAT leaf rounds inward to 20.
 */
const GROUPS = [
  { x: [10, 20], y: [10, 20], inward: true },
  { x: [10, 20], y: [40, 50] },
  { x: [100, 110], y: [10, 20] },
  { x: [170, 176], y: [-20, -15], fiji: true },
  { allNull: true },
  { x: [60, 70], y: [60, 70], nullRow: true },
];
export const N_GROUPS = GROUPS.length;
export const INWARD_X = 20.0000009;
const FIJI = [[[177, -18.3], [180, -18.3], [180, -16], [177, -16], [177, -18.3]],
  [[-180, -18.3], [-179.8, -18.3], [-179.8, -16], [-180, -16], [-180, -18.3]]];

function wkbPolygonBody(ring) {
  const b = Buffer.alloc(8 + 16 * ring.length);
  b.writeUInt32LE(1, 0);
  b.writeUInt32LE(ring.length, 4);
  ring.forEach(([x, y], i) => { b.writeDoubleLE(x, 8 + 16 * i); b.writeDoubleLE(y, 16 + 16 * i); });
  return b;
}
const wkbHeader = (type) => { const h = Buffer.alloc(5); h[0] = 1; h.writeUInt32LE(type, 1); return h; };
const wkbPoint = (x, y) => { const b = Buffer.alloc(16); b.writeDoubleLE(x, 0); b.writeDoubleLE(y, 8); return Buffer.concat([wkbHeader(1), b]); };
const wkbPolygon = (ring) => Buffer.concat([wkbHeader(3), wkbPolygonBody(ring)]);
function wkbMultiPolygon(rings) {
  const n = Buffer.alloc(4);
  n.writeUInt32LE(rings.length, 0);
  return Buffer.concat([wkbHeader(6), n, ...rings.map(wkbPolygon)]);
}
const ringBox = (ring) => [Math.min(...ring.map((c) => c[0])), Math.min(...ring.map((c) => c[1])),
  Math.max(...ring.map((c) => c[0])), Math.max(...ring.map((c) => c[1]))];

/*
 * { id, wkb (Buffer or null), box (planar box of the WKB, null for NULL),
 *   geoBox (the GeoJSON box a geographic writer stores: wraps for Fiji) }
 */
export function coveringRows() {
  const rows = [];
  GROUPS.forEach((g, gi) => {
    for (let j = 0; j < PER_GROUP; j++) {
      const id = gi * PER_GROUP + j;
      if (g.allNull || (g.nullRow && j === 3)) {
        rows.push({ id, wkb: null, box: null, geoBox: null });
        continue;
      }
      if (g.fiji && j === 0) {
        rows.push({ id, wkb: wkbMultiPolygon(FIJI), box: [-180, -18.3, 180, -16],
          geoBox: [177, -18.3, -179.8, -16] });
        continue;
      }
      const x = g.inward && j === 1 ? INWARD_X : g.x[0] + (j % 11) * (g.x[1] - g.x[0]) / 10;
      const y = g.y[0] + (j % 7) * (g.y[1] - g.y[0]) / 6;
      if (j % 5 === 0 && x + 0.5 <= g.x[1] && y + 0.5 <= g.y[1]) {
        const ring = [[x, y], [x + 0.5, y], [x + 0.5, y + 0.5], [x, y + 0.5], [x, y]];
        rows.push({ id, wkb: wkbPolygon(ring), box: ringBox(ring), geoBox: ringBox(ring) });
      } else {
        rows.push({ id, wkb: wkbPoint(x, y), box: [x, y, x, y], geoBox: [x, y, x, y] });
      }
    }
  });
  return rows;
}

const PATHS = { xmin: ['bbox', 'xmin'], ymin: ['bbox', 'ymin'], xmax: ['bbox', 'xmax'], ymax: ['bbox', 'ymax'] };
const PROJECTED = { type: 'ProjectedCRS', name: 'WGS 84 / Pseudo-Mercator',
  base_crs: { type: 'GeographicCRS', name: 'WGS 84' }, id: { authority: 'EPSG', code: 3857 } };
const geo = (column) => JSON.stringify({ version: '1.1.0', primary_column: 'geom',
  columns: { geom: { encoding: 'WKB', geometry_types: ['Point', 'Polygon', 'MultiPolygon'], ...column } } });

/*
 * The files: name, leaf type, "geo" value, the axes a covering may prune
 * ('xy', 'y' or 'none'), whether its boxes are the planar ones.
 */
export const COVERING_FILES = [
  { name: 'cov_projected', type: 'DOUBLE', axes: 'xy', planar: true,
    geo: geo({ crs: PROJECTED, covering: { bbox: PATHS } }) },
  { name: 'cov_crs84', type: 'DOUBLE', axes: 'y', geo: geo({ covering: { bbox: PATHS } }) },
  { name: 'cov_crs_null', type: 'DOUBLE', axes: 'y', geo: geo({ crs: null, covering: { bbox: PATHS } }) },
  { name: 'cov_spherical', type: 'DOUBLE', axes: 'none',
    geo: geo({ crs: PROJECTED, edges: 'spherical', covering: { bbox: PATHS } }) },
  { name: 'cov_bad_json', type: 'DOUBLE', axes: 'none', planar: true,
    geo: geo({ crs: PROJECTED, covering: { bbox: PATHS } }).slice(0, 60) },
  { name: 'cov_missing_column', type: 'DOUBLE', axes: 'none', planar: true,
    geo: geo({ crs: PROJECTED, covering: { bbox: { ...PATHS, ymax: ['box', 'ymax'] } } }) },
  { name: 'cov_int', type: 'INTEGER', axes: 'none', planar: true,
    geo: geo({ crs: PROJECTED, covering: { bbox: PATHS } }) },
  { name: 'cov_float', type: 'FLOAT', axes: 'xy', planar: true,
    geo: geo({ crs: PROJECTED, covering: { bbox: PATHS } }) },
  // against the spec: one row of row group 2 has a geometry but no box
  { name: 'cov_box_missing', type: 'DOUBLE', axes: 'xy', planar: true, dropBox: 2 * PER_GROUP + 5,
    geo: geo({ crs: PROJECTED, covering: { bbox: PATHS } }) },
  // hyparquet-writer: kvMetadata and a struct column
  { name: 'cov_hyp_crs84', type: 'DOUBLE', axes: 'y', writer: 'hyparquet',
    geo: geo({ covering: { bbox: PATHS } }) },
];

const coverOf = (r, f) => (r.id === f.dropBox ? null : f.planar ? r.box : r.geoBox);

async function writeDuck(rows, f, file) {
  // through a string: DuckDB reads it as the double JS prints
  const lit = (v) => `'${v}'::DOUBLE::${f.type}`;
  const values = rows.map((r) => {
    const c = coverOf(r, f);
    return `(${r.id}, ${r.wkb ? `from_hex('${r.wkb.toString('hex')}')` : 'NULL'}, ${c
      ? `{'xmin': ${lit(c[0])}, 'ymin': ${lit(c[1])}, 'xmax': ${lit(c[2])}, 'ymax': ${lit(c[3])}}`
      : 'NULL'})`;
  }).join(',\n');
  await duckQuery(`COPY (SELECT * FROM (VALUES ${values}) t(id, geom, bbox) ORDER BY id)
    TO ${sqlString(file)} (FORMAT parquet, ROW_GROUP_SIZE ${PER_GROUP}, KV_METADATA {geo: ${sqlString(f.geo)}})`);
}

function writeHyparquet(rows, f, file) {
  const leaf = (name) => ({ name, type: f.type, repetition_type: 'REQUIRED' });
  fs.writeFileSync(file, Buffer.from(parquetWriteBuffer({
    columnData: [{ name: 'id', data: rows.map((r) => r.id) },
      { name: 'geom', data: rows.map((r) => (r.wkb ? new Uint8Array(r.wkb) : null)) },
      { name: 'bbox', data: rows.map((r) => {
        const c = coverOf(r, f);
        return c ? { xmin: c[0], ymin: c[1], xmax: c[2], ymax: c[3] } : null;
      }) }],
    schema: [{ name: 'root', num_children: 3 },
      { name: 'id', type: 'INT32', repetition_type: 'REQUIRED' },
      { name: 'geom', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
      { name: 'bbox', repetition_type: 'OPTIONAL', num_children: 4 },
      leaf('xmin'), leaf('ymin'), leaf('xmax'), leaf('ymax')],
    rowGroupSize: PER_GROUP,
    kvMetadata: [{ key: 'geo', value: f.geo }],
  })));
}

/* Write every file into dir; returns { file name -> path } */
export async function writeCoveringFiles(dir, rows) {
  const paths = {};
  for (const f of COVERING_FILES) {
    const file = path.join(dir, `${f.name}.parquet`);
    if (f.writer === 'hyparquet') writeHyparquet(rows, f, file);
    else await writeDuck(rows, f, file);
    fs.chmodSync(file, 0o644);
    paths[f.name] = file;
  }
  return paths;
}

// float4 rounding, as in C: the float nearest to d, the next float up or down
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function nextFloat(f, up) {
  if (f === 0) return up ? 1.401298464324817e-45 : -1.401298464324817e-45;
  f32[0] = f;
  u32[0] += (f > 0) === up ? 1 : -1;
  return f32[0];
}
/* The float at or below d (at or above when up), as PostGIS rounds boxes. */
export function floatOutward(d, up) {
  if (!Number.isFinite(d)) return d;
  const f = Math.fround(d);
  if (up ? f >= d : f <= d) return f;
  return nextFloat(f, up);
}
const outward = (b) => [floatOutward(b[0], false), floatOutward(b[1], false),
  floatOutward(b[2], true), floatOutward(b[3], true)];

/* Closed boxes [xmin, ymin, xmax, ymax] meet; false with any NaN. */
export const meets = (a, b) => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];

/*
 * How many row groups a covering of file f may prune for query box q:
 * all-NULL row groups always (the quals never hold for NULL), row groups
 * with more NULL boxes than NULL geometries never, else those whose box
 * from the leaves' min/max over the rows with a box (each FLOAT bound one
 * float step outward), restricted to f's axes and rounded outward to
 * float4 like q, misses q.
 */
export function expectCoveringPruned(rows, f, q) {
  if (f.axes === 'none') return 0;
  let pruned = 0;
  for (let g = 0; g < N_GROUPS; g++) {
    const rs = rows.slice(g * PER_GROUP, (g + 1) * PER_GROUP);
    if (rs.every((r) => r.wkb === null)) { pruned++; continue; }
    const cs = rs.map((r) => coverOf(r, f)).filter((c) => c !== null);
    if (cs.length !== rs.filter((r) => r.wkb !== null).length) continue;
    let b = [Math.min(...cs.map((c) => c[0])), Math.min(...cs.map((c) => c[1])),
      Math.max(...cs.map((c) => c[2])), Math.max(...cs.map((c) => c[3]))];
    if (f.type === 'FLOAT')
      b = [nextFloat(Math.fround(b[0]), false), nextFloat(Math.fround(b[1]), false),
        nextFloat(Math.fround(b[2]), true), nextFloat(Math.fround(b[3]), true)];
    if (f.axes === 'y') b = [-Infinity, b[1], Infinity, b[3]];
    if (!meets(outward(b), outward(q))) pruned++;
  }
  return pruned;
}

/* The ids of the rows whose geometry's planar box meets q, as the SQL lists them. */
export const rowsMeeting = (rows, q) =>
  rows.filter((r) => r.box && meets(r.box, q)).map((r) => r.id).join(',');
