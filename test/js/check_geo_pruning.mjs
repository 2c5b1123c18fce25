#!/usr/bin/env node
// Row group pruning on GEOMETRY columns by bounding box (issue 17, section
// 4; docs/GEOSPATIAL.md).  DuckDB (built-in GEOMETRY, no spatial
// extension) writes a file whose row groups hold spatially separated
// geometries, hyparquet-writer a GEOMETRY and a GEOGRAPHY file; both
// writers store GeospatialStatistics.  For each qual the rows with
// statistics pruning on and off must equal an independent answer, and
// "Row Groups Pruned by Bounding Box" must count exactly the row groups
// whose box (computed here from the generated coordinates) misses the
// qual's box:
//   - parquet_fdw.bbox_intersects on bytea columns (always run): the rows
//     whose bounding box, computed here in JS, meets the box;
//   - "&&", ST_Intersects, ST_Contains, ST_Within, ST_DWithin on geometry
//     columns (PostGIS installed in the server): a heap table of the same
//     geometries (from their WKT) queried by PostGIS.  Without PostGIS this
//     part reports NOT RUN loudly, and counts one failure under CI=true on
//     PostgreSQL 15 (the version Debian 12 has PostGIS for).
// GEOGRAPHY columns, empty constants and quals that cannot prune must
// prune nothing; malformed WKB must fail with its SQLSTATE.  GeoParquet
// 1.1 files with a bbox covering (lib/geo_covering.mjs, DuckDB and
// hyparquet-writer) prune by the rules of docs/GEOSPATIAL.md: X and Y for
// a projected CRS, Y only for CRS84 or an unknown CRS (a row whose box
// wraps the antimeridian must still be found), nothing for spherical edges
// or a malformed covering.
//
//   node check_geo_pruning.mjs [--dir DIR]
//
// PostgreSQL through the PG* environment variables (superuser).  Prints
// PASS/FAIL per check, then "geo_pruning: N passed, N failed".

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { duckQuery, sqlString } from './lib/duck.mjs';
import { counter } from './lib/stage.mjs';
import { connectParquet } from './lib/pruning.mjs';
import { COVERING_FILES, INWARD_X, N_GROUPS, coveringRows, expectCoveringPruned, floatOutward,
  meets, rowsMeeting, writeCoveringFiles } from './lib/geo_covering.mjs';

const argDir = process.argv.indexOf('--dir');
const dir = argDir > 0 ? process.argv[argDir + 1] :
  fs.mkdtempSync(path.join(os.tmpdir(), 'pqfdw-geo-prune-'));
fs.mkdirSync(dir, { recursive: true });
fs.chmodSync(dir, 0o777);	// the server writes the COPY TO file here
const duckFile = path.join(dir, 'geo_duck.parquet');
const duckV1File = path.join(dir, 'geo_duck_v1.parquet');
const oursFile = path.join(dir, 'geo_ours.parquet');
const hypFile = path.join(dir, 'geo_hyp.parquet');
const geogFile = path.join(dir, 'geog_hyp.parquet');

const ROWS = 8192;
const ROW_GROUP = 2048;		// DuckDB's unit
const GUC = 'parquet_fdw.enable_statistics_pruning';
// "pruning off": every kind
const GUCS = ['statistics', 'bloom', 'dictionary', 'page_index']
  .map((k) => `parquet_fdw.enable_${k}_pruning`);
const setPruning = async (client, on) => {
  for (const g of GUCS) await client.query(`SET ${g} = ${on ? 'on' : 'off'}`);
};

// Row i lies in cell floor(i / ROW_GROUP): x from 100 * cell to 100 * cell
// + 42, y from 0 to 52, so the row groups' boxes are disjoint.  Points,
// line strings, polygons and multipoints; some NULL, some POINT EMPTY.
function makeRows(n, perGroup) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const x = 100 * Math.floor(i / perGroup) + (i % 40);
    const y = (i * 7) % 50;
    let coords;
    let wkt;
    if (i % 97 === 0) {
      rows.push({ id: i, wkt: null, geojson: null, box: null });
      continue;
    }
    if (i % 89 === 0) {
      rows.push({ id: i, wkt: 'POINT EMPTY', geojson: null, empty: true, box: null });
      continue;
    }
    let geojson;
    switch (i % 4) {
      case 0:
        coords = [[x, y]];
        wkt = `POINT (${x} ${y})`;
        geojson = { type: 'Point', coordinates: [x, y] };
        break;
      case 1:
        coords = [[x, y], [x + 3, y + 2]];
        wkt = `LINESTRING (${x} ${y}, ${x + 3} ${y + 2})`;
        geojson = { type: 'LineString', coordinates: coords };
        break;
      case 2:
        coords = [[x, y], [x + 2, y], [x + 2, y + 2], [x, y + 2], [x, y]];
        wkt = `POLYGON ((${coords.map((c) => c.join(' ')).join(', ')}))`;
        geojson = { type: 'Polygon', coordinates: [coords] };
        break;
      default:
        coords = [[x, y], [x + 1.5, y + 0.5]];
        wkt = `MULTIPOINT ((${x} ${y}), (${x + 1.5} ${y + 0.5}))`;
        geojson = { type: 'MultiPoint', coordinates: coords };
    }
    const xs = coords.map((c) => c[0]);
    const ys = coords.map((c) => c[1]);
    rows.push({ id: i, wkt, geojson,
      box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] });
  }
  return rows;
}

function groupBoxes(rows, perGroup) {
  const boxes = [];
  for (const r of rows) {
    if (!r.box) continue;
    const g = Math.floor(r.id / perGroup);
    const b = boxes[g];
    boxes[g] = b ? [Math.min(b[0], r.box[0]), Math.min(b[1], r.box[1]),
      Math.max(b[2], r.box[2]), Math.max(b[3], r.box[3])] : [...r.box];
  }
  return boxes;
}

// Row groups none of whose rows can meet any of the query boxes.
const expectPruned = (gboxes, qboxes) =>
  gboxes.filter((g) => !qboxes.some((q) => meets(g, q))).length;

async function writeFiles(rows, hypRows) {
  const values = rows.map((r) => `(${r.id}, ${r.wkt === null ? 'NULL' : sqlString(r.wkt)})`).join(',\n');
  await duckQuery(`COPY (SELECT id, w::GEOMETRY AS g FROM (VALUES ${values}) t(id, w) ORDER BY id)
    TO ${sqlString(duckFile)} (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP}, GEOPARQUET_VERSION 'V2')`);
  // DuckDB's default: GeoParquet 1.0, WKB in an unannotated column
  await duckQuery(`COPY (SELECT id, w::GEOMETRY AS g FROM (VALUES ${values}) t(id, w) ORDER BY id)
    TO ${sqlString(duckV1File)} (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP})`);
  const schema = (type) => [{ name: 'root', num_children: 2 },
    { name: 'id', type: 'INT32', repetition_type: 'REQUIRED' },
    { name: 'g', type: 'BYTE_ARRAY', logical_type: { type }, repetition_type: 'OPTIONAL' }];
  fs.writeFileSync(hypFile, Buffer.from(parquetWriteBuffer({
    columnData: [{ name: 'id', data: hypRows.map((r) => r.id) },
      { name: 'g', data: hypRows.map((r) => r.geojson) }],
    schema: schema('GEOMETRY'), rowGroupSize: 1000,
  })));
  fs.writeFileSync(geogFile, Buffer.from(parquetWriteBuffer({
    columnData: [{ name: 'id', data: GEOG.map((_, i) => i) },
      { name: 'g', data: GEOG.map((c) => ({ type: 'Point', coordinates: c })) }],
    schema: schema('GEOGRAPHY'), rowGroupSize: 2,
  })));
  for (const f of [duckFile, duckV1File, hypFile, geogFile]) fs.chmodSync(f, 0o644);
}

// GEOGRAPHY points on both sides of the antimeridian, two per row group
const GEOG = [[179.5, 1], [-179.5, 2], [170, 3], [175, 4], [-175, 5], [-170, 6]];

async function explain(client, sql) {
  const r = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`);
  let node = r.rows[0]['QUERY PLAN'][0].Plan;
  while (node['Node Type'] !== 'Foreign Scan') node = node.Plans[0];
  return {
    read: node['Row Groups Read'],
    stats: node['Row Groups Pruned by Statistics'] ?? 0,
    bbox: node['Row Groups Pruned by Bounding Box'] ?? null,
  };
}

const ids = async (client, sql, params = []) =>
  (await client.query(sql, params)).rows.map((x) => Number(x.id)).join(',');

/*
 * One qual on table t: rows with pruning on and off against want, the
 * bounding box counter against bbox (null: no counter line at all).
 */
async function checkQual(client, check, t, qual, want, bbox, groups) {
  const problems = [];
  const sql = `SELECT id FROM ${t} WHERE ${qual} ORDER BY id`;
  await setPruning(client, true);
  const on = await ids(client, sql);
  const c = await explain(client, sql);
  await setPruning(client, false);
  const off = await ids(client, sql);
  const cOff = await explain(client, sql);
  await setPruning(client, true);
  if (on !== want) problems.push(`pruning on: rows ${on.slice(0, 80)} but expected ${want.slice(0, 80)}`);
  if (off !== want) problems.push(`pruning off: rows ${off.slice(0, 80)} but expected ${want.slice(0, 80)}`);
  if (c.bbox !== bbox) problems.push(`Row Groups Pruned by Bounding Box ${c.bbox}, expected ${bbox}`);
  if (bbox !== null && c.read !== groups - bbox) problems.push(`read ${c.read} of ${groups} row groups`);
  if (cOff.read !== groups) problems.push(`pruning off read ${cOff.read} of ${groups} row groups`);
  if ((cOff.bbox ?? 0) !== 0) problems.push(`pruning off: bounding box counter ${cOff.bbox}`);
  check(`${t}: ${qual} (bbox pruned ${c.bbox}, read ${c.read})`, problems);
}

async function errorCode(client, sql) {
  try {
    await client.query(sql);
    return 'no error';
  } catch (e) {
    return e.code;
  }
}

// parquet_fdw.bbox_intersects on bytea columns: the truth from the boxes here.
async function checkFunction(client, check, t, rows, perGroup) {
  const gboxes = groupBoxes(rows, perGroup);
  const groups = Math.ceil(rows.length / perGroup);
  const boxes = [[110, 10, 130, 20], [30, 5, 130, 5], [500, 0, 600, 10], [20, 0, 10, 10],
    [-1e300, -1e300, 1e300, 1e300], [NaN, 0, 10, 10], [141.5, 0, 141.5, 100],
    // touching the second row group's box at its right edge only
    [gboxes[1][2], 0, gboxes[1][2] + 5, 100]];
  for (const q of boxes) {
    const want = rows.filter((r) => r.box && meets(r.box, q)).map((r) => r.id).join(',');
    const sqlBox = q.map((v) => (Number.isNaN(v) ? "'NaN'" : String(v))).join(', ');
    await checkQual(client, check, t, `parquet_fdw.bbox_intersects(g, ${sqlBox})`, want,
      expectPruned(gboxes, [q]), groups);
  }
  // Params of a generic plan are evaluated when the scan starts
  await client.query(`PREPARE bq(float8, float8, float8, float8) AS
    SELECT id FROM ${t} WHERE parquet_fdw.bbox_intersects(g, $1, $2, $3, $4) ORDER BY id`);
  await client.query('SET plan_cache_mode = force_generic_plan');
  const q = [205, 0, 210, 60];
  const got = await ids(client, 'EXECUTE bq(205, 0, 210, 60)');
  const c = await explain(client, 'EXECUTE bq(205, 0, 210, 60)');
  const want = rows.filter((r) => r.box && meets(r.box, q)).map((r) => r.id).join(',');
  check(`${t}: generic plan, bbox_intersects(g, $1..$4) (bbox pruned ${c.bbox})`,
    [...(got !== want ? [`rows ${got.slice(0, 80)} but expected ${want.slice(0, 80)}`] : []),
      ...(c.bbox !== expectPruned(gboxes, [q]) ? [`bbox pruned ${c.bbox}, expected ${expectPruned(gboxes, [q])}`] : [])]);
  await client.query('RESET plan_cache_mode');
  await client.query('DEALLOCATE bq');
  // a parallel scan: the workers' counts are summed
  await client.query(`SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
    SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2`);
  await checkQual(client, check, t, 'parquet_fdw.bbox_intersects(g, 110, 10, 130, 20) /* parallel */',
    rows.filter((r) => r.box && meets(r.box, [110, 10, 130, 20])).map((r) => r.id).join(','),
    expectPruned(gboxes, [[110, 10, 130, 20]]), groups);
  const plan = (await client.query(`EXPLAIN (COSTS OFF) SELECT id FROM ${t}
    WHERE parquet_fdw.bbox_intersects(g, 110, 10, 130, 20)`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  check(`${t}: that plan is parallel`, plan.includes('Parallel Foreign Scan') ? [] : [plan]);
  await client.query(`RESET parallel_setup_cost; RESET parallel_tuple_cost;
    RESET min_parallel_table_scan_size; SET max_parallel_workers_per_gather = 0`);
}

// WKB the function reads, encoded by hand: [hex, box, expected result]
const WKB_CASES = [
  // big-endian POINT (1 2)
  ['00000000013ff00000000000004000000000000000', [0, 0, 1, 2], true],
  // PostGIS extended WKB: SRID 4326, POINT Z (5 6 7)
  ['01010000a0e6100000000000000000144000000000000018400000000000001c40', [5, 6, 5, 6], true],
  // ISO LINESTRING M (0 0 9, 10 0 9): the box holds its M values, not Y
  ['01d207000002000000000000000000000000000000000000000000000000002240000000000000244000000000000000000000000000002240', [5, 8.5, 6, 9.5], false],
  // the same line against a box on it
  ['01d207000002000000000000000000000000000000000000000000000000002240000000000000244000000000000000000000000000002240', [5, -1, 6, 0], true],
  // GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (5 5, 6 7)): the box of both
  ['0107000000020000000101000000000000000000f03f00000000000000400102000000020000000000000000001440000000000000144000000000000018400000000000001c40',
    [1.5, 6.5, 1.6, 6.6], true],
  ['0107000000020000000101000000000000000000f03f00000000000000400102000000020000000000000000001440000000000000144000000000000018400000000000001c40',
    [6.5, 0, 9, 9], false],
  // GEOMETRYCOLLECTION EMPTY
  ['010700000000000000', [-1e300, -1e300, 1e300, 1e300], false],
  // LINESTRING (0 0, 10 10) against empty boxes (xmin > xmax, ymin > ymax)
  // inside its extent: an empty box meets nothing, there is no wrap
  ['0102000000020000000000000000000000000000000000000000000000000024400000000000002440', [6, 2, 4, 8], false],
  ['0102000000020000000000000000000000000000000000000000000000000024400000000000002440', [2, 6, 8, 4], false],
  ['0102000000020000000000000000000000000000000000000000000000000024400000000000002440', [4, 2, 6, 8], true],
];

const BAD_WKB = [
  ['0101', '22P03', 'truncated'],
  ['020100000000000000000000000000000000000000', '22P03', 'byte order 2'],
  ['0101000000000000000000f03f000000000000004000', '22P03', 'a byte after the point'],
  ['010200000000ffffff', '22P03', 'a point count beyond the value'],
  ['016300000000000000', '22P03', 'geometry type 99'],
  ['010800000000000000', '0A000', 'a CircularString'],
  // 40 collections, each holding the next, around POINT (0 0)
  [`${'010700000001000000'.repeat(40)}010100000000000000000000000000000000000000`, '22P03',
    'collections nested 40 deep'],
];

async function checkWkb(client, check) {
  for (const [hex, box, want] of WKB_CASES) {
    const r = await client.query(`SELECT parquet_fdw.bbox_intersects('\\x${hex}'::bytea, ${box.join(', ')}) AS b`);
    check(`bbox_intersects on WKB ${hex.slice(0, 24)}... is ${want}`,
      r.rows[0].b === want ? [] : [`got ${r.rows[0].b}`]);
  }
  for (const [hex, code, what] of BAD_WKB) {
    const got = await errorCode(client, `SELECT parquet_fdw.bbox_intersects('\\x${hex}'::bytea, 0, 0, 1, 1)`);
    check(`bbox_intersects on WKB with ${what}: SQLSTATE ${code}`, got === code ? [] : [`got ${got}`]);
  }
}

// PostGIS quals; the truth is PostGIS on a heap table of the same WKT.
// [qual on column g, query boxes (pruning expected), or null]
const POSTGIS_CASES = [
  ['g && ST_MakeEnvelope(110, 10, 130, 20, 4326)', [[110, 10, 130, 20]]],
  ['ST_MakeEnvelope(110, 10, 130, 20, 4326) && g', [[110, 10, 130, 20]]],
  ['ST_Intersects(g, ST_MakeEnvelope(10, 10, 20, 20, 4326))', [[10, 10, 20, 20]]],
  ["ST_Intersects(ST_GeomFromText('LINESTRING(30 5, 130 5)', 4326), g)", [[30, 5, 130, 5]]],
  ['ST_Contains(ST_MakeEnvelope(200, 0, 260, 60, 4326), g)', [[200, 0, 260, 60]]],
  ["ST_Contains(g, 'SRID=4326;POINT(301 1)'::geometry)", [[301, 1, 301, 1]]],
  ['ST_Within(g, ST_MakeEnvelope(300, 0, 320, 30, 4326))', [[300, 0, 320, 30]]],
  ["ST_DWithin(g, 'SRID=4326;POINT(150 10)'::geometry, 10)", [[140, 0, 160, 20]]],
  ["ST_DWithin('SRID=4326;POINT(170 10)'::geometry, g, 5)", [[165, 5, 175, 15]]],
  ['(g && ST_MakeEnvelope(0, 0, 5, 5, 4326) OR ST_Intersects(g, ST_MakeEnvelope(300, 0, 305, 5, 4326)))',
    [[0, 0, 5, 5], [300, 0, 305, 5]]],
  // an empty constant has no box: nothing pruned (and nothing matches)
  ["ST_Intersects(g, 'SRID=4326;POINT EMPTY'::geometry)", []],
  // not a bounding box qual: no counter
  ['ST_Disjoint(g, ST_MakeEnvelope(0, 0, 5, 5, 4326))', null],
];

async function checkPostgis(client, check, t, heap, rows, perGroup) {
  const gboxes = groupBoxes(rows, perGroup);
  const groups = Math.ceil(rows.length / perGroup);
  for (const [qual, qboxes] of POSTGIS_CASES) {
    const want = await ids(client, `SELECT id FROM ${heap} WHERE ${qual} ORDER BY id`);
    const bbox = qboxes === null ? null : qboxes.length === 0 ? 0 : expectPruned(gboxes, qboxes);
    await checkQual(client, check, t, qual, want, bbox, groups);
  }
  // a generic plan's geometry Param
  await client.query(`PREPARE gq(geometry) AS SELECT id FROM ${t} WHERE ST_Intersects(g, $1) ORDER BY id`);
  await client.query('SET plan_cache_mode = force_generic_plan');
  const env = 'ST_MakeEnvelope(205, 0, 210, 60, 4326)';
  const got = await ids(client, `EXECUTE gq(${env})`);
  const c = await explain(client, `EXECUTE gq(${env})`);
  const want = await ids(client, `SELECT id FROM ${heap} WHERE ST_Intersects(g, ${env}) ORDER BY id`);
  const exp = expectPruned(gboxes, [[205, 0, 210, 60]]);
  check(`${t}: generic plan, ST_Intersects(g, $1) (bbox pruned ${c.bbox})`,
    [...(got !== want ? [`rows ${got.slice(0, 80)} but heap ${want.slice(0, 80)}`] : []),
      ...(c.bbox !== exp ? [`bbox pruned ${c.bbox}, expected ${exp}`] : [])]);
  await client.query('RESET plan_cache_mode');
  await client.query('DEALLOCATE gq');
  // PostGIS's error for a negative distance stays, pruning or not
  for (const on of ['on', 'off']) {
    await client.query(`SET ${GUC} = ${on}`);
    const code = await errorCode(client,
      `SELECT id FROM ${t} WHERE ST_DWithin(g, 'SRID=4326;POINT(10 10)'::geometry, -1)`);
    check(`${t}: ST_DWithin with a negative distance errors with pruning ${on}`,
      code === 'no error' ? ['no error'] : []);
  }
  await client.query(`SET ${GUC} = on`);
}

// Query boxes for the covering files (lib/geo_covering.mjs)
const COVER_BOXES = [
  [12, 42, 14, 44],				// row group 1 only: the others miss in X or Y
  [102, 12, 104, 14],			// row group 2: row group 0 misses in X only
  [178, -17, 179, -16.5],		// Fiji's east, beyond its wrapped box's xmin
  [-179.9, -17, -179.85, -16.5],	// Fiji's west
  [20.0000005, 10, 30, 20],		// the point at x = 20.0000009
  // just above the float that point's FLOAT leaf rounds to
  [floatOutward(Math.fround(INWARD_X) + 1e-9, true), 10, 30, 20],
  [-1e300, -1e300, 1e300, 1e300],
];

/*
 * GeoParquet 1.1 bbox coverings: rows against the planar boxes of the WKB,
 * the counter against the row groups the documented rules let the
 * covering prune (X and Y for a projected CRS, Y only for CRS84 or an
 * unknown CRS, nothing for spherical edges or a bad covering).
 */
async function checkCoverings(client, check, dir, postgis) {
  const rows = coveringRows();
  const paths = await writeCoveringFiles(dir, rows);
  const table = async (name, file, type) => {
    await client.query(`DROP FOREIGN TABLE IF EXISTS ${name}`);
    await client.query(`CREATE FOREIGN TABLE ${name} (id bigint, geom ${type})
      SERVER parquet_srv OPTIONS (filename ${sqlString(file)})`);
  };
  if (postgis) {
    await client.query('DROP TABLE IF EXISTS cov_heap');
    await client.query(`CREATE TABLE cov_heap AS SELECT i AS id, ST_GeomFromWKB(w) AS geom
      FROM unnest($1::bigint[], $2::bytea[]) u(i, w)`, [rows.map((r) => r.id), rows.map((r) => r.wkb)]);
  }
  for (const f of COVERING_FILES) {
    // the writer stored our "geo" entry, and no "geo" of its own
    const kv = await duckQuery(`SELECT decode(key) AS k, decode(value) AS v
      FROM parquet_kv_metadata(${sqlString(paths[f.name])}) WHERE decode(key) = 'geo'`);
    check(`${f.name}: its one "geo" entry is ours`,
      kv.rows.length === 1 && String(kv.rows[0][1]) === f.geo ? [] : [JSON.stringify(kv.rows.map(String))]);
    const t = `${f.name}_b`;
    await table(t, paths[f.name], 'bytea');
    for (const q of COVER_BOXES)
      await checkQual(client, check, t, `parquet_fdw.bbox_intersects(geom, ${q.join(', ')})`,
        rowsMeeting(rows, q), expectCoveringPruned(rows, f, q), N_GROUPS);
    if (!postgis || !['cov_projected', 'cov_crs84'].includes(f.name)) continue;
    await table(`${f.name}_g`, paths[f.name], 'geometry');
    for (const q of [COVER_BOXES[1], COVER_BOXES[2]]) {
      for (const qual of [`geom && ST_MakeEnvelope(${q.join(', ')})`,
        `ST_Intersects(geom, ST_MakeEnvelope(${q.join(', ')}))`]) {
        const want = await ids(client, `SELECT id FROM cov_heap WHERE ${qual} ORDER BY id`);
        await checkQual(client, check, `${f.name}_g`, qual, want, expectCoveringPruned(rows, f, q), N_GROUPS);
      }
    }
  }
}

async function main() {
  const { check, summary } = counter();
  const rows = makeRows(ROWS, ROW_GROUP);
  // GeoJSON has no POINT EMPTY: hyparquet-writer's empty rows are NULL
  const hypRows = makeRows(4000, 1000).map((r) => (r.empty ? { ...r, wkt: null } : r));
  await writeFiles(rows, hypRows);
  const client = await connectParquet();
  const table = async (name, file, type) => {
    await client.query(`DROP FOREIGN TABLE IF EXISTS ${name}`);
    await client.query(`CREATE FOREIGN TABLE ${name} (id bigint, g ${type})
      SERVER parquet_srv OPTIONS (filename ${sqlString(file)})`);
  };

  // the writers stored what the checks assume: one box per row group
  for (const [file, n] of [[duckFile, ROWS / ROW_GROUP], [hypFile, 4]]) {
    const r = await client.query(`SELECT count(bbox_xmin) AS n FROM parquet_fdw.metadata($1)
      WHERE path_in_schema = 'g'`, [file]);
    check(`${path.basename(file)}: ${n} row groups with a GeospatialStatistics box`,
      Number(r.rows[0].n) === n ? [] : [`found ${r.rows[0].n}`]);
  }

  await table('geo_duck_b', duckFile, 'bytea');
  await table('geo_hyp_b', hypFile, 'bytea');
  await table('geog_hyp_b', geogFile, 'bytea');
  await checkFunction(client, check, 'geo_duck_b', rows, ROW_GROUP);
  await checkFunction(client, check, 'geo_hyp_b', hypRows, 1000);
  await checkWkb(client, check);
  // no GeospatialStatistics (GeoParquet 1.0 "geo" metadata only): nothing pruned
  await table('geo_duck_v1_b', duckV1File, 'bytea');
  await checkQual(client, check, 'geo_duck_v1_b', 'parquet_fdw.bbox_intersects(g, 110, 10, 130, 20)',
    rows.filter((r) => r.box && meets(r.box, [110, 10, 130, 20])).map((r) => r.id).join(','), 0,
    ROWS / ROW_GROUP);
  // GEOGRAPHY never prunes: its box may wrap and its edges are not straight
  {
    const q = [179, 0, 180, 10];
    const want = GEOG.map((c, i) => ({ id: i, box: [c[0], c[1], c[0], c[1]] }))
      .filter((r) => meets(r.box, q)).map((r) => r.id).join(',');
    await checkQual(client, check, 'geog_hyp_b', `parquet_fdw.bbox_intersects(g, ${q.join(', ')})`,
      want, 0, GEOG.length / 2);
  }

  // WKB in a plain BYTE_ARRAY column with a page index (our COPY TO): no
  // box to prune with, and the page index must not decide the function
  await client.query('DROP TABLE IF EXISTS geo_wkb_heap');
  await client.query('CREATE TABLE geo_wkb_heap AS SELECT id, g FROM geo_duck_b');
  await client.query(`COPY geo_wkb_heap TO ${sqlString(oursFile)}
    WITH (FORMAT parquet, row_group_size ${ROW_GROUP}, data_page_rows 256)`);
  await table('geo_ours_b', oursFile, 'bytea');
  for (const q of [[110, 10, 130, 20], [0, 0, 1e300, 1e300]]) {
    await checkQual(client, check, 'geo_ours_b', `parquet_fdw.bbox_intersects(g, ${q.join(', ')})`,
      rows.filter((r) => r.box && meets(r.box, q)).map((r) => r.id).join(','), 0, ROWS / ROW_GROUP);
  }

  const postgis = (await client.query(
    "SELECT count(*) AS n FROM pg_available_extensions WHERE name = 'postgis'")).rows[0].n > 0;
  if (postgis) await client.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await checkCoverings(client, check, dir, postgis);
  if (!postgis) {
    console.log('!!!!!!!! geo_pruning: PostGIS is not installed: the PostGIS quals did NOT RUN !!!!!!!!');
    // as the postgis stage: Debian 12 ships PostGIS for PostgreSQL 15 only
    const major = Math.floor(Number((await client.query('SHOW server_version_num')).rows[0].server_version_num) / 10000);
    if (process.env.CI === 'true' && major === 15)
      check('PostGIS quals', ['PostGIS not installed under CI=true']);
  } else {
    await table('geo_duck_g', duckFile, 'geometry');
    await table('geo_hyp_g', hypFile, 'geometry');
    for (const [heap, rs] of [['geo_duck_heap', rows], ['geo_hyp_heap', hypRows]]) {
      await client.query(`DROP TABLE IF EXISTS ${heap}`);
      await client.query(`CREATE TABLE ${heap} AS SELECT i::bigint AS id, ST_GeomFromText(w, 4326) AS g
        FROM unnest($1::int[], $2::text[]) u(i, w)`, [rs.map((r) => r.id), rs.map((r) => r.wkt)]);
    }
    await checkPostgis(client, check, 'geo_duck_g', 'geo_duck_heap', rows, ROW_GROUP);
    await checkPostgis(client, check, 'geo_hyp_g', 'geo_hyp_heap', hypRows, 1000);
  }
  await client.end();
  if (argDir < 0) fs.rmSync(dir, { recursive: true, force: true });
  process.exit(summary('geo_pruning'));
}

main().catch((e) => {
  console.error(e);
  console.log('geo_pruning: 0 passed, 1 failed');
  process.exit(1);
});
