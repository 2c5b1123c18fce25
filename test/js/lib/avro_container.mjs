// Avro object container files as the Iceberg tests read and write them
// (avsc): 64-bit longs as BigInt, the header, blocks checked against the
// sync marker, null and deflate codecs.

import zlib from 'node:zlib';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const avro = require('avsc');

/** avsc's long as BigInt both ways (manifest ids and sizes pass 2^53). */
export const longType = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt(n));
    return b;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n) => typeof n === 'bigint',
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});

/** avsc options with BigInt longs; extra (e.g. { wrapUnions: false }) added. */
export const avroOptions = (extra = {}) => ({ registry: { long: longType }, ...extra });

export const HEADER = avro.Type.forSchema({
  type: 'record', name: 'Header', fields: [
    { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
    { name: 'meta', type: { type: 'map', values: 'bytes' } },
    { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
  ],
});
export const LONG = avro.Type.forSchema('long', avroOptions());
export const MAGIC = Buffer.from('Obj\x01', 'latin1');

/**
 * {meta (strings), schema (parsed), records} of an Avro container file's
 * bytes. Every block must end at its sync marker and hold exactly its
 * records; codecs null and deflate.
 */
export function readAvro(buf, extraOptions = {}) {
  let { value: hdr, offset: pos } = HEADER.decode(buf, 0);
  if (pos < 0 || !hdr.magic.equals(MAGIC)) throw new Error('not an Avro object container file');
  const meta = {};
  for (const [k, v] of Object.entries(hdr.meta)) meta[k] = v.toString('utf8');
  const codec = meta['avro.codec'] || 'null';
  const schema = JSON.parse(meta['avro.schema']);
  const type = avro.Type.forSchema(schema, avroOptions(extraOptions));
  const records = [];
  while (pos < buf.length) {
    let r = LONG.decode(buf, pos);
    const count = Number(r.value);
    r = LONG.decode(buf, r.offset);
    const size = Number(r.value);
    pos = r.offset;
    let data = buf.subarray(pos, pos + size);
    pos += size;
    if (!buf.subarray(pos, pos + 16).equals(hdr.sync)) throw new Error('a block without the sync marker');
    pos += 16;
    if (codec === 'deflate') data = zlib.inflateRawSync(data);
    else if (codec !== 'null') throw new Error(`Avro codec ${codec} not handled here`);
    let o = 0;
    for (let j = 0; j < count; j++) {
      const d = type.decode(data, o);
      if (d.offset < 0) throw new Error('a truncated Avro record');
      records.push(d.value);
      o = d.offset;
    }
    if (o !== data.length) throw new Error(`a block of ${count} records leaves ${data.length - o} bytes`);
  }
  return { meta, schema, records };
}
