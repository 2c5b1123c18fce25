// Delta Lake deletion vectors written from JavaScript, for
// check_delta_generated.mjs, by the Delta protocol (PROTOCOL.md, "Deletion
// Vectors" and "Deletion Vector Format"), independently of the C reader:
//
//   data       RoaringBitmapArray, portable layout: magic 1681511377 (4 bytes,
//              little-endian), the number of 32-bit bitmaps (8 bytes LE),
//              then each bitmap's key (the positions' high 32 bits, 4 bytes
//              LE) followed by that bitmap in the standard portable Roaring
//              serialization (npm `roaring`, CRoaring's port; a small
//              hand-written serializer without run containers if the package
//              cannot be loaded or DELTA_DV_NO_ROARING is set)
//   file       ('u' storage) a version byte (1), then per deletion vector:
//              the data's size (4 bytes big-endian), the data, the CRC-32 of
//              the data (4 bytes BE); the descriptor's offset is the place of
//              the size word, its sizeInBytes the data's size; the file is
//              <prefix>/deletion_vector_<uuid>.bin, pathOrInlineDv the prefix
//              and the UUID's 16 bytes in Z85
//   inline     ('i' storage) pathOrInlineDv is the Z85 text of the data padded
//              with zero bytes to a multiple of 4; sizeInBytes the unpadded size
//
// Also a seeded PRNG, so that a run is reproducible from its seed.

import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

const require = createRequire(import.meta.url);

let Roaring = null;
let roaringWhy = null;
if (process.env.DELTA_DV_NO_ROARING) {
  roaringWhy = 'DELTA_DV_NO_ROARING is set';
} else {
  try {
    Roaring = require('roaring');
  } catch (err) {
    roaringWhy = String(err.message).split('\n')[0];
  }
}

/** Which serializer is in use, for the report. */
export const serializerName = () => (Roaring ? 'npm roaring' : `hand-written (npm roaring not loadable: ${roaringWhy})`);

// ------------------------------------------------------------------ PRNG

/** mulberry32: a small seeded generator; returns a function giving [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ------------------------------------------------------------------ CRC-32

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE, as java.util.zip.CRC32): node's zlib.crc32 where there is one. */
export function crc32(buf) {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(buf) >>> 0;
  let c = 0xFFFFFFFF;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xFF] ^ (c >>> 8);
  return (c ^ 0xFFFFFFFF) >>> 0;
}

// -------------------------------------------------------------------- Z85

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';

/** Z85 (ZeroMQ RFC 32) of buf, whose length must be a multiple of 4. */
export function z85Encode(buf) {
  if (buf.length % 4 !== 0) throw new Error(`z85Encode: ${buf.length} bytes, not a multiple of 4`);
  let out = '';
  for (let i = 0; i < buf.length; i += 4) {
    let v = buf.readUInt32BE(i);
    const chunk = new Array(5);
    for (let j = 4; j >= 0; j--) {
      chunk[j] = Z85[v % 85];
      v = Math.floor(v / 85);
    }
    out += chunk.join('');
  }
  return out;
}

/** Z85 decoding (for the harness's own round-trip check). */
export function z85Decode(s) {
  if (s.length % 5 !== 0) throw new Error('z85Decode: length not a multiple of 5');
  const out = Buffer.alloc((s.length / 5) * 4);
  for (let i = 0; i < s.length; i += 5) {
    let v = 0;
    for (let j = 0; j < 5; j++) {
      const d = Z85.indexOf(s[i + j]);
      if (d < 0) throw new Error(`z85Decode: bad character ${s[i + j]}`);
      v = v * 85 + d;
    }
    out.writeUInt32BE(v, (i / 5) * 4);
  }
  return out;
}

// ------------------------------------------------------------ UUIDs, paths

/** A random UUID: { bytes (16), text (lower-case hex with dashes) }. */
export function newUuid(rand) {
  const bytes = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) bytes[i] = Math.floor(rand() * 256);
  bytes[6] = (bytes[6] & 0x0F) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3F) | 0x80; // variant
  const h = bytes.toString('hex');
  return { bytes, text: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` };
}

/** A fresh random UUID text (not seeded: table ids and the like). */
export const randomUuidText = () => crypto.randomUUID();

// ------------------------------------------------------- roaring bitmaps

/** The portable 32-bit Roaring serialization of ascending distinct values, without run containers. */
function portable32(values) {
  const containers = [];
  for (const v of values) {
    const key = v >>> 16;
    const last = containers[containers.length - 1];
    if (last && last.key === key) last.vals.push(v & 0xFFFF);
    else containers.push({ key, vals: [v & 0xFFFF] });
  }
  const n = containers.length;
  const parts = [];
  const head = Buffer.alloc(8 + 8 * n);
  head.writeUInt32LE(12346, 0);
  head.writeUInt32LE(n, 4);
  let offset = head.length;
  const bodies = containers.map((c) => {
    let body;
    if (c.vals.length > 4096) {
      body = Buffer.alloc(8192);
      for (const v of c.vals) body[v >>> 3] |= 1 << (v & 7);
    } else {
      body = Buffer.alloc(2 * c.vals.length);
      c.vals.forEach((v, i) => body.writeUInt16LE(v, 2 * i));
    }
    return body;
  });
  containers.forEach((c, i) => {
    head.writeUInt16LE(c.key, 8 + 4 * i);
    head.writeUInt16LE(c.vals.length - 1, 8 + 4 * i + 2);
    head.writeUInt32LE(offset, 8 + 4 * n + 4 * i);
    offset += bodies[i].length;
  });
  parts.push(head, ...bodies);
  return Buffer.concat(parts);
}

/**
 * A deletion vector's data for row positions (numbers, any order, < 2^53):
 * { data (Buffer), cardinality }. runOptimize: let CRoaring use run
 * containers where they are smaller.
 */
export function dvData(positions, { runOptimize = true } = {}) {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const byKey = new Map();
  for (const p of sorted) {
    if (!Number.isInteger(p) || p < 0) throw new Error(`bad row position ${p}`);
    const key = Math.floor(p / 4294967296);
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(p % 4294967296);
  }
  const head = Buffer.alloc(12);
  head.writeUInt32LE(1681511377, 0);
  head.writeBigUInt64LE(BigInt(byKey.size), 4);
  const parts = [head];
  for (const [key, vals] of byKey) {
    const k = Buffer.alloc(4);
    k.writeUInt32LE(key, 0);
    let bm;
    if (Roaring) {
      const r = new Roaring.RoaringBitmap32(vals);
      if (runOptimize) r.runOptimize();
      bm = Buffer.from(r.serialize(true));
    } else {
      bm = portable32(vals);
    }
    parts.push(k, bm);
  }
  return { data: Buffer.concat(parts), cardinality: sorted.length };
}

/** The descriptor of an inline deletion vector of data. */
export function inlineDescriptor({ data, cardinality }) {
  const padded = Buffer.alloc(Math.ceil(data.length / 4) * 4);
  data.copy(padded);
  return { storageType: 'i', pathOrInlineDv: z85Encode(padded), sizeInBytes: data.length, cardinality };
}

/**
 * A deletion vector file being put together: add() each deletion vector's
 * data, get its descriptor; bytes() is the file's content. corruptCrc on an
 * add() writes a CRC one off (for the must-fail cases).
 */
export class DvFile {
  constructor(rand, prefix = '') {
    this.uuid = newUuid(rand);
    this.prefix = prefix;
    this.chunks = [Buffer.from([1])];
    this.length = 1;
  }

  /** Path relative to the table's root. */
  get relPath() {
    return `${this.prefix ? `${this.prefix}/` : ''}deletion_vector_${this.uuid.text}.bin`;
  }

  add({ data, cardinality }, { corruptCrc = false } = {}) {
    const size = Buffer.alloc(4);
    size.writeUInt32BE(data.length, 0);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE((crc32(data) + (corruptCrc ? 1 : 0)) >>> 0, 0);
    const offset = this.length;
    this.chunks.push(size, data, crc);
    this.length += 8 + data.length;
    return {
      storageType: 'u',
      pathOrInlineDv: this.prefix + z85Encode(this.uuid.bytes),
      offset,
      sizeInBytes: data.length,
      cardinality,
    };
  }

  bytes() {
    return Buffer.concat(this.chunks);
  }
}
