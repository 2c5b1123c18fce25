// ISO WKB (either byte order) -> WKT, and a WKT comparison that reads
// numbers as numbers: checks GEOMETRY/GEOGRAPHY bytes against the WKT a
// file's generator stored beside them (parquet-testing's geospatial files,
// gen_fixtures.mjs's GEO_WKT), independently of DuckDB and PostGIS.

const TYPES = ['', 'POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON', 'GEOMETRYCOLLECTION'];
const DIMS = ['', ' Z', ' M', ' ZM'];

/** WKT of one WKB value (Buffer). Throws on malformed input. */
export function wkbToWkt(buf) {
  let p = 0;
  const need = (n) => { if (p + n > buf.length) throw new Error(`WKB truncated at byte ${p}`); };
  const geom = (inner) => {
    need(5);
    const le = buf[p] === 1;
    if (buf[p] > 1) throw new Error(`bad WKB byte order ${buf[p]}`);
    const code = le ? buf.readUInt32LE(p + 1) : buf.readUInt32BE(p + 1);
    p += 5;
    const type = code % 1000;
    const dim = Math.floor(code / 1000);
    if (!TYPES[type] || dim > 3) throw new Error(`unknown WKB type ${code}`);
    const n = 2 + (dim === 1 || dim === 2 ? 1 : dim === 3 ? 2 : 0);
    const u32 = () => { need(4); const v = le ? buf.readUInt32LE(p) : buf.readUInt32BE(p); p += 4; return v; };
    const coord = () => {
      need(8 * n);
      const c = [];
      for (let i = 0; i < n; i++, p += 8) c.push(le ? buf.readDoubleLE(p) : buf.readDoubleBE(p));
      return c;
    };
    const fmt = (c) => c.map((x) => (Number.isNaN(x) ? 'nan' : String(x))).join(' ');
    const seq = () => { const k = u32(); const a = []; for (let i = 0; i < k; i++) a.push(fmt(coord())); return a; };
    const list = (items) => (items.length ? `(${items.join(', ')})` : 'EMPTY');
    let body;
    switch (type) {
      case 1: {
        const c = coord();
        // By convention POINT EMPTY is a point whose coordinates are all NaN.
        body = c.every(Number.isNaN) ? 'EMPTY' : `(${fmt(c)})`;
        break;
      }
      case 2: body = list(seq()); break;
      case 3: { const k = u32(); const r = []; for (let i = 0; i < k; i++) r.push(`(${seq().join(', ')})`); body = list(r); break; }
      default: {
        const k = u32();
        const parts = [];
        for (let i = 0; i < k; i++) parts.push(geom(type !== 7));
        body = list(parts);
      }
    }
    // Members of MULTI* are written without their type name.
    return inner ? body : `${TYPES[type]}${DIMS[dim]} ${body}`;
  };
  const wkt = geom(false);
  if (p !== buf.length) throw new Error(`${buf.length - p} bytes after the geometry`);
  return wkt;
}

function tokens(wkt) {
  return wkt.toUpperCase().match(/[A-Z]+|[-+0-9.eE]+|NAN|[(),]/g)
    .map((t) => (/^[-+0-9.]/.test(t) ? Number(t) : t === 'NAN' ? NaN : t));
}

/** Same WKT up to spacing, case and number formatting (NaN equals NaN). */
export function sameWkt(a, b) {
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.length !== tb.length) return false;
  return ta.every((t, i) => t === tb[i] || (Number.isNaN(t) && Number.isNaN(tb[i])));
}
