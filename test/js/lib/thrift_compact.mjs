// Generic Thrift compact-protocol decoder, written from the Thrift spec
// (thrift/doc/specs/thrift-compact-protocol.md), independent of both our C
// code and hyparquet's decoder, so that encryption tests have their own
// reading of the bytes.
//
// decodeStruct(buf, offset, limit) -> { value, end }   (buf: Buffer or Uint8Array)
//   value: a plain object keyed by numeric field id ({ 1: ..., 4: ... });
//          unions are structs with one key.
//   end:   offset just past the struct's STOP byte.
// Value mapping: bool -> boolean, i8/i16/i32 -> number, i64 -> bigint,
// double -> number, binary/string -> Buffer (a view into buf), list/set ->
// Array, map -> Array of [key, value], struct -> object, uuid -> Buffer(16).
// Every read is bounds-checked against limit; bad input throws ThriftError.

export class ThriftError extends Error {}

const T = {
  STOP: 0, TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7,
  BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12, UUID: 13,
};
const MAX_DEPTH = 64;

class Reader {
  constructor(buf, offset, limit) {
    this.buf = buf;
    this.pos = offset;
    this.limit = limit;
  }

  need(n) {
    if (n < 0 || this.pos + n > this.limit)
      throw new ThriftError(`thrift: need ${n} bytes at offset ${this.pos}, only ${this.limit - this.pos} left`);
  }

  byte() {
    this.need(1);
    return this.buf[this.pos++];
  }

  /** Unsigned LEB128, at most 10 bytes, as a bigint. */
  varint() {
    let r = 0n;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      r |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (!(b & 0x80))
        return r;
    }
    throw new ThriftError(`thrift: varint longer than 10 bytes at offset ${this.pos}`);
  }

  zigzag() {
    const u = this.varint() & 0xffffffffffffffffn;
    return (u >> 1n) ^ -(u & 1n);
  }

  /** Zigzag integer that must fit `bits` signed bits, as a number. */
  smallInt(bits) {
    const at = this.pos;
    const v = this.zigzag();
    const lim = 1n << BigInt(bits - 1);
    if (v < -lim || v >= lim)
      throw new ThriftError(`thrift: i${bits} out of range at offset ${at}`);
    return Number(v);
  }

  /** A length or element count: every element takes at least one byte. */
  size() {
    const at = this.pos;
    const n = this.varint();
    if (n > BigInt(this.limit - this.pos))
      throw new ThriftError(`thrift: size ${n} at offset ${at} exceeds the ${this.limit - this.pos} bytes left`);
    return Number(n);
  }

  bytes(n) {
    this.need(n);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
}

function readValue(r, type, depth) {
  switch (type) {
    case T.TRUE: return true;
    case T.FALSE: return false;
    case T.BYTE: { const b = r.byte(); return b > 127 ? b - 256 : b; }
    case T.I16: return r.smallInt(16);
    case T.I32: return r.smallInt(32);
    case T.I64: return BigInt.asIntN(64, r.zigzag());
    case T.DOUBLE: { const b = r.bytes(8); return b.readDoubleLE(0); }
    case T.BINARY: return r.bytes(r.size());
    case T.UUID: return r.bytes(16);
    case T.LIST:
    case T.SET: return readList(r, depth);
    case T.MAP: return readMap(r, depth);
    case T.STRUCT: return readStruct(r, depth);
    default: throw new ThriftError(`thrift: unknown type ${type} at offset ${r.pos}`);
  }
}

/** A collection element: bools are one byte each (1 = true) inside lists. */
function readElem(r, type, depth) {
  if (type === T.TRUE || type === T.FALSE)
    return r.byte() === T.TRUE;
  return readValue(r, type, depth);
}

function readList(r, depth) {
  const h = r.byte();
  const et = h & 0x0f;
  let n = h >> 4;
  if (n === 15)
    n = r.size();
  else if (n > r.limit - r.pos)
    throw new ThriftError(`thrift: list of ${n} at offset ${r.pos} exceeds the bytes left`);
  const out = new Array(n);
  for (let i = 0; i < n; i++)
    out[i] = readElem(r, et, depth + 1);
  return out;
}

function readMap(r, depth) {
  const n = r.size();
  if (n === 0)
    return [];
  const kv = r.byte();
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const k = readElem(r, kv >> 4, depth + 1);
    out[i] = [k, readElem(r, kv & 0x0f, depth + 1)];
  }
  return out;
}

function readStruct(r, depth) {
  if (depth > MAX_DEPTH)
    throw new ThriftError(`thrift: nesting deeper than ${MAX_DEPTH} at offset ${r.pos}`);
  const obj = {};
  let fid = 0;
  for (;;) {
    const h = r.byte();
    const type = h & 0x0f;
    if (type === T.STOP) {
      if (h !== 0)
        throw new ThriftError(`thrift: bad STOP byte 0x${h.toString(16)} at offset ${r.pos - 1}`);
      return obj;
    }
    const delta = h >> 4;
    fid = delta ? fid + delta : r.smallInt(16);
    if (fid in obj)
      throw new ThriftError(`thrift: field ${fid} repeated at offset ${r.pos}`);
    obj[fid] = readValue(r, type, depth + 1);
  }
}

/**
 * Decode one struct starting at `offset`, reading no byte at or past `limit`.
 * Returns { value, end }.
 */
export function decodeStruct(buf, offset = 0, limit = buf.length) {
  if (!Number.isInteger(offset) || offset < 0 || limit > buf.length || offset > limit)
    throw new ThriftError(`thrift: bad range ${offset}..${limit} of ${buf.length} bytes`);
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const r = new Reader(b, offset, limit);
  const value = readStruct(r, 0);
  return { value, end: r.pos };
}
