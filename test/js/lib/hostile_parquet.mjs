// Hand-built Parquet files with hostile page layouts (issue 38, defect 2),
// written byte by byte here so that no writer's own limits shape them: a
// Thrift compact encoder for the few structures a one-column file needs,
// and a DELTA_BINARY_PACKED encoder for the page streams.
//
//   deltaBytesBomb(): one required BYTE_ARRAY (STRING) column "s" of one
//   GZIP DATA_PAGE in DELTA_BYTE_ARRAY: 65,536 values, the first 4096
//   bytes of 'a', each later one the previous value's first 4096 bytes and
//   one 'b'.  Decoded, 268 MB; on disk, a few hundred bytes.
//   wideFixedFile(): a valid FIXED_LEN_BYTE_ARRAY column 2 MB wide.
//   brotliZerosFile(): a valid BROTLI page of 40 MB in under 1 kB.
import zlib from 'node:zlib';

// Thrift compact protocol: field types
const T = { I32: 5, I64: 6, BINARY: 8, LIST: 9, STRUCT: 12 };

class CompactWriter {
  constructor() { this.bytes = []; this.last = [0]; }
  varint(v) {
    let x = BigInt(v);
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x > 0n) b |= 0x80;
      this.bytes.push(b);
    } while (x > 0n);
  }
  zigzag(v) { const x = BigInt(v); this.varint(x >= 0n ? x << 1n : ((-x) << 1n) - 1n); }
  field(id, type) {
    const delta = id - this.last[this.last.length - 1];
    if (delta > 0 && delta <= 15) this.bytes.push((delta << 4) | type);
    else { this.bytes.push(type); this.zigzag(id); }
    this.last[this.last.length - 1] = id;
  }
  i32(id, v) { this.field(id, T.I32); this.zigzag(v); }
  i64(id, v) { this.field(id, T.I64); this.zigzag(v); }
  string(id, s) { const b = Buffer.from(s); this.field(id, T.BINARY); this.varint(b.length); this.bytes.push(...b); }
  begin(id) { if (id !== undefined) this.field(id, T.STRUCT); this.last.push(0); }
  end() { this.bytes.push(0); this.last.pop(); }
  list(id, type, items, each) {
    this.field(id, T.LIST);
    if (items.length < 15) this.bytes.push((items.length << 4) | type);
    else { this.bytes.push(0xf0 | type); this.varint(items.length); }
    for (const it of items) each(it);
  }
  buffer() { return Buffer.from(this.bytes); }
}

// DELTA_BINARY_PACKED with blocks of 128 values in 4 miniblocks of 32.
function deltaBinaryPacked(values) {
  const w = new CompactWriter();
  const zz = (v) => { const x = BigInt(v); return x >= 0n ? x << 1n : ((-x) << 1n) - 1n; };
  w.varint(128); w.varint(4); w.varint(values.length); w.varint(zz(values[0] ?? 0));
  for (let start = 1; start < values.length; start += 128) {
    const deltas = [];
    for (let i = start; i < Math.min(start + 128, values.length); i++) deltas.push(BigInt(values[i]) - BigInt(values[i - 1]));
    const min = deltas.reduce((a, b) => (b < a ? b : a));
    w.varint(zz(min));
    const widths = [];
    const packed = [];
    for (let m = 0; m < 4; m++) {
      const mini = deltas.slice(m * 32, m * 32 + 32).map((d) => d - min);
      if (mini.length === 0) { widths.push(0); continue; }
      while (mini.length < 32) mini.push(0n);
      const max = mini.reduce((a, b) => (b > a ? b : a));
      const bw = max === 0n ? 0 : max.toString(2).length;
      widths.push(bw);
      let acc = 0n; let nbits = 0;
      for (const v of mini) {
        acc |= v << BigInt(nbits); nbits += bw;
        while (nbits >= 8) { packed.push(Number(acc & 0xffn)); acc >>= 8n; nbits -= 8; }
      }
    }
    w.bytes.push(...widths, ...packed);
  }
  return w.buffer();
}

/**
 * A one-column file: the page header and body given, the footer built.  The
 * column "s" is a required UTF8 BYTE_ARRAY unless type (a physical type
 * number) and typeLength say otherwise.
 */
function oneColumnFile({ body, uncompressedSize, numValues, encoding, codec, type = 6, typeLength }) {
  const ph = new CompactWriter();
  ph.begin();
  ph.i32(1, 0); // DATA_PAGE
  ph.i32(2, uncompressedSize);
  ph.i32(3, body.length);
  ph.begin(5);
  ph.i32(1, numValues);
  ph.i32(2, encoding);
  ph.i32(3, 3); // RLE
  ph.i32(4, 3);
  ph.end();
  ph.end();
  const header = ph.buffer();
  const chunkLen = header.length + body.length;

  const md = new CompactWriter();
  md.begin();
  md.i32(1, 1);
  md.list(2, T.STRUCT, [0, 1], (i) => {
    md.begin();
    if (i === 0) { md.string(4, 'schema'); md.i32(5, 1); }
    else if (type === 6) { md.i32(1, 6); md.i32(3, 0); md.string(4, 's'); md.i32(6, 0); } // BYTE_ARRAY REQUIRED UTF8
    else {
      md.i32(1, type);
      if (typeLength !== undefined) md.i32(2, typeLength);
      md.i32(3, 0); // REQUIRED
      md.string(4, 's');
    }
    md.end();
  });
  md.i64(3, numValues);
  md.list(4, T.STRUCT, [0], () => {
    md.begin();
    md.list(1, T.STRUCT, [0], () => {
      md.begin();
      md.i64(2, 4);
      md.begin(3);
      md.i32(1, type);
      md.list(2, T.I32, [encoding, 3], (e) => md.zigzag(e));
      md.list(3, T.BINARY, ['s'], (s) => { md.varint(s.length); md.bytes.push(...Buffer.from(s)); });
      md.i32(4, codec);
      md.i64(5, numValues);
      md.i64(6, header.length + uncompressedSize);
      md.i64(7, chunkLen);
      md.i64(9, 4);
      md.end();
      md.end();
    });
    md.i64(2, header.length + uncompressedSize);
    md.i64(3, numValues);
    md.end();
  });
  md.string(6, 'parquet_fdw test/js/lib/hostile_parquet.mjs');
  md.end();
  const footer = md.buffer();
  const len = Buffer.alloc(4);
  len.writeUInt32LE(footer.length);
  return Buffer.concat([Buffer.from('PAR1'), header, body, footer, len, Buffer.from('PAR1')]);
}

export const BOMB_VALUES = 65536;
export const BOMB_PREFIX = 4096;

/**
 * A DELTA_BYTE_ARRAY values section of n values: prefix bytes of 'a', then
 * values each repeating the previous one's first prefix bytes plus a 'b'.
 */
export function deltaBytesPage(n, prefix) {
  const prefixes = new Array(n).fill(prefix); prefixes[0] = 0;
  const suffixLens = new Array(n).fill(1); suffixLens[0] = prefix;
  return Buffer.concat([
    deltaBinaryPacked(prefixes),
    deltaBinaryPacked(suffixLens),
    Buffer.alloc(prefix, 'a'),
    Buffer.alloc(n - 1, 'b'),
  ]);
}

/** The DELTA_BYTE_ARRAY prefix bomb; see the top of this file. */
export function deltaBytesBomb() {
  const n = BOMB_VALUES;
  const plain = deltaBytesPage(n, BOMB_PREFIX);
  const body = zlib.gzipSync(plain, { level: 9 });
  return oneColumnFile({ body, uncompressedSize: plain.length, numValues: n, encoding: 7 /* DELTA_BYTE_ARRAY */, codec: 2 /* GZIP */ });
}

export const WIDE_WIDTH = 2 * 1024 * 1024;
export const WIDE_VALUES = 3;

/**
 * A valid FIXED_LEN_BYTE_ARRAY(width) column of n values, value k all bytes
 * k + 1, in one GZIP PLAIN page (by default 3 values of 2 MB, 6 MB in a few
 * kB).  Readers that size their scratch as width x values-per-batch ask for
 * gigabytes.  typeLength, when given, is what the schema claims instead.
 */
export function wideFixedFile(width = WIDE_WIDTH, n = WIDE_VALUES, typeLength = width) {
  const plain = Buffer.alloc(width * n);
  for (let k = 0; k < n; k++) plain.fill(k + 1, k * width, (k + 1) * width);
  const body = zlib.gzipSync(plain, { level: 9 });
  return oneColumnFile({ body, uncompressedSize: plain.length, numValues: n, encoding: 0, codec: 2, type: 7, typeLength });
}

export const ZEROS_VALUES = 10 * 1024 * 1024;

/**
 * A valid required INT32 column of 10,485,760 zeros: one BROTLI PLAIN page
 * of 40 MB in well under 1 kB (a ratio past 40,000).
 */
export function brotliZerosFile() {
  const plain = Buffer.alloc(ZEROS_VALUES * 4);
  const body = zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  return oneColumnFile({ body, uncompressedSize: plain.length, numValues: ZEROS_VALUES, encoding: 0, codec: 4, type: 1 });
}
