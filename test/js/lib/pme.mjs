// Independent verifier for Parquet Modular Encryption (PME), written from the
// spec (parquet-format Encryption.md) with Node's crypto module; it shares no
// code with our C reader/writer, so it is a second opinion on the encrypted
// files the writer produces.
//
//   verifyEncryptedFile(bytes, keys, opts) -> report   (see the end of file)
//   protectedRanges(bytes, report) -> byte ranges any change to which must fail
//
// What it checks: file layout (magic, footer lengths), the footer (decrypted
// or its signature verified), every encrypted module of every column it has a
// key for -- ColumnMetaData, page headers, pages, ColumnIndex, OffsetIndex,
// Bloom filter header and bitset -- each with the AAD the spec prescribes, so
// a module moved, swapped or altered fails its GCM tag; module lengths inside
// the file and inside their column chunk; decrypted Thrift structs filling
// their module (zero padding is a warning); page sizes after decryption and decompression; page
// ordinals; OffsetIndex locations against the page walk; nonce reuse per key.

import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { snappyUncompress } from 'hyparquet/src/snappy.js';
import { decodeStruct, ThriftError } from './thrift_compact.mjs';

/** Module types of the AAD suffix (spec 4.4.2). */
export const MODULE = Object.freeze({
  FOOTER: 0,
  COLUMN_META_DATA: 1,
  DATA_PAGE: 2,
  DICTIONARY_PAGE: 3,
  DATA_PAGE_HEADER: 4,
  DICTIONARY_PAGE_HEADER: 5,
  COLUMN_INDEX: 6,
  OFFSET_INDEX: 7,
  BLOOM_FILTER_HEADER: 8,
  BLOOM_FILTER_BITSET: 9,
});
export const MODULE_NAMES = Object.freeze([
  'footer', 'column_meta_data', 'data_page', 'dictionary_page',
  'data_page_header', 'dictionary_page_header', 'column_index',
  'offset_index', 'bloom_filter_header', 'bloom_filter_bitset',
]);

const NONCE = 12;
const TAG = 16;
const LEN = 4;
const INT16_MAX = 32767;

// PageType
const DATA_PAGE = 0;
const INDEX_PAGE = 1;
const DICTIONARY_PAGE = 2;
const DATA_PAGE_V2 = 3;

/** A verification failure that ends the current unit (file or column). */
class VerifyError extends Error {}

/**
 * Module AAD = aad_prefix || aad_file_unique || module type (1 byte)
 *   || row group ordinal (i16 LE) || column ordinal (i16 LE)   [not footer]
 *   || page ordinal (i16 LE)           [data pages and data page headers]
 */
export function moduleAad(aadPrefix, fileUnique, type, rowGroup, column, page) {
  const parts = [aadPrefix, fileUnique, Buffer.from([type])];
  if (type !== MODULE.FOOTER) {
    const ords = [rowGroup, column];
    if (type === MODULE.DATA_PAGE || type === MODULE.DATA_PAGE_HEADER)
      ords.push(page);
    for (const o of ords) {
      if (!Number.isInteger(o) || o < 0 || o > INT16_MAX)
        throw new VerifyError(`AAD ordinal ${o} does not fit a 2-byte short`);
      const b = Buffer.alloc(2);
      b.writeUInt16LE(o);
      parts.push(b);
    }
  }
  return Buffer.concat(parts);
}

const num = (v) => (typeof v === 'bigint' ? Number(v) : v);

const isStruct = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);
const KINDS = { list: Array.isArray, binary: Buffer.isBuffer, struct: isStruct };

/** A decoded Thrift field of the expected kind; another wire type is corruption, not a crash. */
function want(v, kind, what) {
  if (!KINDS[kind](v))
    throw new VerifyError(`${what}: expected ${kind}, found ${v === undefined ? 'nothing' : typeof v}`);
  return v;
}
const optBinary = (v, what) => (v === undefined ? undefined : want(v, 'binary', what));
const strList = (v, what) => want(v ?? [], 'list', what).map((x) => want(x, 'binary', what).toString('utf8'));
const hex = (b, n = b.length) => Buffer.from(b.subarray(0, n)).toString('hex');

/** Printable UTF-8 as a string, anything else as "hex:..." */
function showBytes(b) {
  if (b === undefined)
    return null;
  const s = Buffer.from(b).toString('utf8');
  if (Buffer.from(s, 'utf8').equals(Buffer.from(b)) && /^[\x20-\x7e\u00a0-\uffff]*$/.test(s))
    return s;
  return `hex:${hex(b)}`;
}

/** key_metadata of parquet-java's key tools (PKMT1 JSON) saying the key material is outside the file. */
function isExternalKeyMaterial(km) {
  if (km === undefined)
    return false;
  try {
    const j = JSON.parse(Buffer.from(km).toString('utf8'));
    return Boolean(j && typeof j === 'object' && j.keyMaterialType && j.internalStorage === false);
  } catch {
    return false; // not JSON: a plain key id
  }
}

function aesName(key, mode) {
  if (![16, 24, 32].includes(key.length))
    throw new VerifyError(`key of ${key.length} bytes is not an AES key`);
  return `aes-${key.length * 8}-${mode}`;
}

/** Leaf columns of the schema: dotted path and max definition/repetition levels. */
function schemaLeaves(schema) {
  const leaves = [];
  let i = 1;
  function walk(prefix, def, rep) {
    if (i >= schema.length)
      throw new VerifyError('schema ends early (num_children exceeds the element count)');
    const el = want(schema[i++], 'struct', 'SchemaElement');
    const name = want(el[4], 'binary', 'SchemaElement.name').toString('utf8');
    const path = [...prefix, name];
    const r = el[3];
    const d2 = def + (r === 1 || r === 2 ? 1 : 0);
    const r2 = rep + (r === 2 ? 1 : 0);
    const kids = el[5];
    if (el[1] === undefined && kids !== undefined) {
      for (let k = 0; k < kids; k++)
        walk(path, d2, r2);
    } else {
      leaves.push({ path: path.join('.'), maxDef: d2, maxRep: r2 });
    }
  }
  const rootKids = schema.length ? want(schema[0], 'struct', 'schema root')[5] ?? 0 : 0;
  for (let k = 0; k < rootKids; k++)
    walk([], 0, 0);
  if (i !== schema.length)
    throw new VerifyError(`schema has ${schema.length - i} elements outside the root's children`);
  return leaves;
}

class Verifier {
  constructor(bytes, keys, opts) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.footerKey = keys.footerKey ? Buffer.from(keys.footerKey) : null;
    this.columnKeys = new Map(Object.entries(keys.columnKeys ?? {}).map(([k, v]) => [k, Buffer.from(v)]));
    this.suppliedPrefix = keys.aadPrefix === undefined || keys.aadPrefix === null ? null
      : Buffer.from(keys.aadPrefix);
    this.nonces = new Map(); // key hex -> Map(nonce hex -> where)
    this.usedColumnKeys = new Set();
    this.padded = MODULE_NAMES.map(() => 0);
    this.allowUnencrypted = opts.allowUnencrypted === true;
    const counts = Object.fromEntries(MODULE_NAMES.map((n) => [n, 0]));
    this.report = {
      ok: false,
      errors: [],
      warnings: [],
      encrypted: null,
      footerMode: null,
      algorithm: null,
      aad: null,
      footerKeyMetadata: null,
      footerVerified: false,
      footerOffset: null,
      needs: null,
      externalKeyMaterial: false,
      numRows: null,
      rowGroups: null,
      modules: counts, // GCM-authenticated modules per type
      footerSignatures: 0,
      ctrPages: { data_page: 0, dictionary_page: 0 }, // CTR: decrypted, no tag
      plaintextModules: { page_header: 0, page: 0, column_index: 0, offset_index: 0, bloom_filter: 0 },
      crcChecked: 0,
      columns: [],
      unverifiedColumns: 0,
    };
  }

  error(msg) {
    this.report.errors.push(msg);
  }

  warn(msg) {
    this.report.warnings.push(msg);
  }

  /** Record a nonce; a nonce used twice under one key breaks GCM's security. */
  noteNonce(key, nonce, where) {
    const k = key.toString('hex');
    if (!this.nonces.has(k))
      this.nonces.set(k, new Map());
    const seen = this.nonces.get(k);
    const n = nonce.toString('hex');
    if (seen.has(n))
      this.error(`nonce ${n} reused under one key: ${seen.get(n)} and ${where}`);
    else
      seen.set(n, where);
  }

  /** Frame of the module at src[pos]: [len][nonce][ciphertext][tag?], inside [pos, limit). */
  frame(src, pos, limit, withTag, where) {
    if (pos < 0 || pos + LEN > limit)
      throw new VerifyError(`${where}: module length at ${pos} outside its range (limit ${limit})`);
    const len = src.readUInt32LE(pos);
    const min = NONCE + (withTag ? TAG : 0);
    if (len < min)
      throw new VerifyError(`${where}: module length ${len} at ${pos} shorter than nonce${withTag ? ' + tag' : ''} (${min})`);
    const end = pos + LEN + len;
    if (end > limit)
      throw new VerifyError(`${where}: module at ${pos} of ${LEN + len} bytes runs past ${limit}`);
    const body = src.subarray(pos + LEN, end);
    return {
      nonce: body.subarray(0, NONCE),
      ct: body.subarray(NONCE, withTag ? body.length - TAG : body.length),
      tag: withTag ? body.subarray(body.length - TAG) : null,
      end,
    };
  }

  /** Decrypt a GCM module; a wrong key, AAD or byte fails the tag. */
  gcm(src, pos, limit, key, type, ords, where) {
    const f = this.frame(src, pos, limit, true, where);
    let aad;
    try {
      aad = moduleAad(this.aadPrefix, this.fileUnique, type, ...ords);
    } catch (e) {
      throw new VerifyError(`${where}: ${e.message}`);
    }
    let plain;
    try {
      const d = crypto.createDecipheriv(aesName(key, 'gcm'), key, f.nonce, { authTagLength: TAG });
      d.setAAD(aad);
      d.setAuthTag(f.tag);
      plain = Buffer.concat([d.update(f.ct), d.final()]);
    } catch (e) {
      if (e instanceof VerifyError)
        throw e;
      throw new VerifyError(`${where}: GCM authentication failed (${MODULE_NAMES[type]} module at ${pos}, AAD ${aad.toString('hex')})`);
    }
    this.noteNonce(key, f.nonce, where);
    this.report.modules[MODULE_NAMES[type]]++;
    return { plain, end: f.end };
  }

  /**
   * The Thrift struct of a decrypted module. parquet-java (1.17) leaves zero
   * padding after the struct inside the module: tolerated, counted, and
   * reported as a warning; any other trailing byte is an error.
   */
  decodeModule(plain, type, where) {
    const { value, end } = decodeStruct(plain, 0);
    if (end < plain.length) {
      if (plain.subarray(end).some((x) => x !== 0))
        throw new VerifyError(`${where}: decrypted ${MODULE_NAMES[type]} has ${plain.length - end} non-zero bytes after its Thrift struct`);
      this.padded[type]++;
    }
    return value;
  }

  /** Decrypt a CTR page: IV = nonce || 0x00000001 (spec 4.2.2); nothing to authenticate. */
  ctr(src, pos, limit, key, type, where) {
    const f = this.frame(src, pos, limit, false, where);
    const iv = Buffer.concat([f.nonce, Buffer.from([0, 0, 0, 1])]);
    const d = crypto.createDecipheriv(aesName(key, 'ctr'), key, iv);
    const plain = Buffer.concat([d.update(f.ct), d.final()]);
    this.noteNonce(key, f.nonce, where);
    this.report.ctrPages[MODULE_NAMES[type]]++;
    return { plain, end: f.end };
  }

  run() {
    const r = this.report;
    try {
      this.readFooter();
      // A plaintext footer without its key still locates the columns.
      if (this.fmd && this.aadPrefix)
        this.walkRowGroups();
    } catch (e) {
      if (!(e instanceof VerifyError || e instanceof ThriftError))
        throw e;
      this.error(e.message);
    }
    this.padded.forEach((n, t) => {
      if (n)
        this.warn(`${n} ${MODULE_NAMES[t]} module(s) carry zero padding after the Thrift struct`);
    });
    for (const k of this.columnKeys.keys()) {
      if (!this.usedColumnKeys.has(k))
        this.warn(`column key for "${k}" supplied but no column chunk uses it`);
    }
    r.unverifiedColumns = r.columns.filter((c) => c.status === 'not verified (no key)').length;
    r.ok = r.errors.length === 0 && r.needs === null;
    return r;
  }

  readFooter() {
    const b = this.buf;
    const r = this.report;
    if (b.length < 12)
      throw new VerifyError(`file of ${b.length} bytes is too short for Parquet`);
    const head = b.toString('latin1', 0, 4);
    const tail = b.toString('latin1', b.length - 4);
    if (tail !== 'PARE' && tail !== 'PAR1')
      throw new VerifyError(`tail magic "${tail}" is neither PAR1 nor PARE`);
    if (head !== tail)
      throw new VerifyError(`head magic "${head}" differs from tail magic "${tail}"`);
    const flen = b.readUInt32LE(b.length - 8);
    const fstart = b.length - 8 - flen;
    if (fstart < 4)
      throw new VerifyError(`footer length ${flen} exceeds the file`);
    this.dataEnd = fstart; // column data and indexes lie in [4, fstart)

    let alg;
    if (tail === 'PARE') {
      r.encrypted = true;
      r.footerMode = 'encrypted';
      const { value: fcmd, end } = decodeStruct(b, fstart, b.length - 8);
      alg = fcmd[1];
      this.footerKm = optBinary(fcmd[2], 'FileCryptoMetaData.key_metadata');
      r.footerKeyMetadata = showBytes(this.footerKm);
      this.footerModuleAt = end;
      r.footerOffset = end;
    } else {
      const { value: fmd, end } = decodeStruct(b, fstart, b.length - 8);
      if (fmd[8] === undefined) {
        r.encrypted = false;
        r.footerMode = 'unencrypted';
        if (!this.allowUnencrypted)
          throw new VerifyError('not an encrypted file: PAR1 footer without encryption_algorithm');
        // Walk it as plaintext throughout (a self-test of the page walker).
        if (end !== b.length - 8)
          throw new VerifyError(`footer ends at ${end}, ${b.length - 8 - end} bytes before the footer length`);
        this.fmd = fmd;
        this.aadPrefix = Buffer.alloc(0);
        r.footerOffset = fstart;
        return;
      }
      r.encrypted = true;
      r.footerMode = 'plaintext';
      if (end + NONCE + TAG !== b.length - 8)
        throw new VerifyError(`plaintext footer ends at ${end}, expected ${NONCE + TAG} signature bytes before ${b.length - 8}, found ${b.length - 8 - end}`);
      alg = fmd[8];
      this.footerKm = optBinary(fmd[9], 'FileMetaData.footer_signing_key_metadata');
      r.footerKeyMetadata = showBytes(this.footerKm);
      this.fmd = fmd;
      this.footerBytes = b.subarray(fstart, end);
      r.footerOffset = fstart;
      this.signature = b.subarray(end, end + NONCE + TAG);
    }
    this.readAlgorithm(alg);

    if (isExternalKeyMaterial(this.footerKm))
      r.externalKeyMaterial = true;
    if (!this.footerKey) {
      r.needs = r.externalKeyMaterial ? 'external key material' : 'footer key';
      return;
    }
    if (r.needs)
      return;

    if (tail === 'PARE') {
      const { plain, end } = this.gcm(b, this.footerModuleAt, b.length - 8, this.footerKey, MODULE.FOOTER, [], 'footer');
      if (end !== b.length - 8)
        throw new VerifyError(`encrypted footer module ends at ${end}, ${b.length - 8 - end} bytes before the footer length`);
      this.fmd = this.decodeModule(plain, MODULE.FOOTER, 'footer');
      if (this.fmd[8] !== undefined)
        this.error('encrypted footer also carries FileMetaData.encryption_algorithm (plaintext-footer field)');
    } else {
      this.verifySignature();
    }
    r.footerVerified = true;
  }

  readAlgorithm(alg) {
    const r = this.report;
    const members = Object.keys(want(alg, 'struct', 'EncryptionAlgorithm'));
    if (members.length !== 1 || !['1', '2'].includes(members[0]))
      throw new VerifyError(`EncryptionAlgorithm union has members [${members}], expected exactly one of 1 (AES_GCM_V1), 2 (AES_GCM_CTR_V1)`);
    const ctr = members[0] === '2';
    r.algorithm = ctr ? 'AES_GCM_CTR_V1' : 'AES_GCM_V1';
    this.ctrMode = ctr;
    const a = want(alg[members[0]], 'struct', r.algorithm);
    const stored = optBinary(a[1], 'aad_prefix') ?? null;
    const unique = optBinary(a[2], 'aad_file_unique');
    const supply = a[3] === true;
    r.aad = {
      prefixStored: stored !== null,
      prefix: stored === null ? null : showBytes(stored),
      supplyAadPrefix: supply,
      fileUnique: unique === undefined ? null : hex(unique),
    };
    if (unique === undefined || unique.length === 0)
      this.warn('aad_file_unique is missing or empty: modules are not bound to this file');
    this.fileUnique = unique ?? Buffer.alloc(0);
    if (stored && supply)
      this.error('aad_prefix is stored and supply_aad_prefix is also set');
    const sup = this.suppliedPrefix;
    if (sup && stored && !sup.equals(stored))
      throw new VerifyError(`supplied AAD prefix "${showBytes(sup)}" differs from the stored one "${showBytes(stored)}"`);
    if (sup && !stored && !supply)
      throw new VerifyError('an AAD prefix was supplied but the file was not written with one (no aad_prefix, no supply_aad_prefix)');
    if (supply && !sup) {
      r.needs = 'AAD prefix';
      return;
    }
    this.aadPrefix = stored ?? sup ?? Buffer.alloc(0);
  }

  /** Signature = nonce || tag of GCM(footer key, nonce, footer AAD) over the footer bytes. */
  verifySignature() {
    const nonce = this.signature.subarray(0, NONCE);
    const tag = this.signature.subarray(NONCE);
    const aad = moduleAad(this.aadPrefix, this.fileUnique, MODULE.FOOTER);
    const c = crypto.createCipheriv(aesName(this.footerKey, 'gcm'), this.footerKey, nonce, { authTagLength: TAG });
    c.setAAD(aad);
    c.update(this.footerBytes);
    c.final();
    if (!crypto.timingSafeEqual(c.getAuthTag(), tag))
      throw new VerifyError('plaintext footer signature does not verify (wrong footer key, AAD prefix, or altered footer)');
    this.noteNonce(this.footerKey, nonce, 'footer signature');
    this.report.footerSignatures = 1;
  }

  walkRowGroups() {
    const r = this.report;
    const fmd = this.fmd;
    r.numRows = num(fmd[3]);
    const rgs = want(fmd[4] ?? [], 'list', 'FileMetaData.row_groups');
    r.rowGroups = rgs.length;
    this.leaves = schemaLeaves(want(fmd[2] ?? [], 'list', 'FileMetaData.schema'));
    rgs.forEach((rg, i) => {
      want(rg, 'struct', `row group ${i}`);
      if (rg[7] !== undefined && rg[7] !== i)
        this.error(`row group ${i}: RowGroup.ordinal is ${rg[7]}`);
      const cols = want(rg[1] ?? [], 'list', `row group ${i} columns`);
      if (cols.length !== this.leaves.length)
        this.error(`row group ${i}: ${cols.length} column chunks for ${this.leaves.length} leaf columns`);
      cols.forEach((cc, j) => {
        const col = this.verifyColumn(i, j, cc);
        r.columns.push(col);
      });
    });
  }

  verifyColumn(rgi, ci, cc) {
    const where = `row group ${rgi} column ${ci}`;
    const leaf = this.leaves[ci];
    const col = {
      rowGroup: rgi,
      column: ci,
      path: leaf?.path ?? null,
      encryption: 'plaintext',
      keyMetadata: null,
      status: null,
      dataPages: 0,
      dictionaryPages: 0,
      firstPageHex: null,
      pages: [],
      columnIndexOffset: null,
      offsetIndexOffset: null,
      bloomFilterOffset: null,
    };
    try {
      want(cc, 'struct', `${where} ColumnChunk`);
      const cm = cc[8];
      let key = null;
      if (cm !== undefined) {
        const m = Object.keys(want(cm, 'struct', `${where} ColumnCryptoMetaData`));
        if (m.length !== 1 || !['1', '2'].includes(m[0]))
          throw new VerifyError(`${where}: ColumnCryptoMetaData union has members [${m}]`);
        if (m[0] === '1') {
          col.encryption = 'footer_key';
          key = this.footerKey;
        } else {
          col.encryption = 'column_key';
          const ewck = want(cm[2], 'struct', `${where} EncryptionWithColumnKey`);
          const path = strList(ewck[1], `${where} EncryptionWithColumnKey.path_in_schema`).join('.');
          if (leaf && path !== leaf.path)
            this.error(`${where}: crypto metadata path "${path}" differs from schema leaf "${leaf.path}"`);
          col.path = path;
          col.keyMetadata = showBytes(optBinary(ewck[2], `${where} key_metadata`));
          if (isExternalKeyMaterial(ewck[2]))
            this.report.externalKeyMaterial = true;
          key = this.columnKeys.get(path) ?? null;
          if (key)
            this.usedColumnKeys.add(path);
        }
      }
      if (cc[1] !== undefined)
        throw new VerifyError(`${where}: column data in another file (file_path) is not verified`);
      if (col.encryption !== 'plaintext' && !key) {
        col.status = 'not verified (no key)';
        return col;
      }
      const cmd = this.columnMetaData(where, cc, col, key, rgi, ci);
      const ctx = { where, key, rgi, ci, cmd, leaf, col };
      this.walkPages(ctx);
      this.readOffsetIndex(ctx, cc);
      this.readColumnIndex(ctx, cc);
      this.readBloomFilter(ctx);
      col.status = key ? 'verified' : 'plaintext';
    } catch (e) {
      if (!(e instanceof VerifyError || e instanceof ThriftError))
        throw e;
      this.error(e instanceof ThriftError ? `${where}: ${e.message}` : e.message);
      col.status = 'failed';
    }
    return col;
  }

  /** The chunk's ColumnMetaData: in place, or decrypted from encrypted_column_metadata. */
  columnMetaData(where, cc, col, key, rgi, ci) {
    let cmd = cc[3];
    if (cc[9] !== undefined) {
      if (!key)
        throw new VerifyError(`${where}: encrypted_column_metadata on a plaintext column`);
      const m = want(cc[9], 'binary', `${where} encrypted_column_metadata`);
      // The binary holds one whole module, length prefix included.
      const { plain, end } = this.gcm(m, 0, m.length, key, MODULE.COLUMN_META_DATA, [rgi, ci], `${where} ColumnMetaData`);
      if (end !== m.length)
        throw new VerifyError(`${where}: encrypted_column_metadata has ${m.length - end} bytes after its module`);
      const dec = this.decodeModule(plain, MODULE.COLUMN_META_DATA, where);
      if (cmd !== undefined) {
        // Plaintext footer: the visible copy (stats stripped) must locate the same data.
        for (const [f, name] of [[1, 'type'], [4, 'codec'], [5, 'num_values'], [7, 'total_compressed_size'], [9, 'data_page_offset'], [11, 'dictionary_page_offset']]) {
          if (num(cmd[f]) !== num(dec[f]))
            this.error(`${where}: plaintext ColumnMetaData.${name} ${cmd[f]} differs from the encrypted copy's ${dec[f]}`);
        }
        if (this.report.footerMode === 'encrypted')
          this.warn(`${where}: ColumnChunk.meta_data set next to encrypted_column_metadata in an encrypted-footer file`);
      }
      cmd = dec;
    } else if (col.encryption === 'column_key') {
      throw new VerifyError(`${where}: column-key column without encrypted_column_metadata`);
    } else if (col.encryption === 'footer_key' && this.report.footerMode === 'plaintext') {
      this.warn(`${where}: footer-key column in a plaintext footer keeps its ColumnMetaData unencrypted`);
    }
    if (cmd === undefined)
      throw new VerifyError(`${where}: no ColumnMetaData`);
    want(cmd, 'struct', `${where} ColumnMetaData`);
    const path = strList(cmd[3], `${where} ColumnMetaData.path_in_schema`).join('.');
    if (col.path !== null && path !== col.path)
      this.error(`${where}: ColumnMetaData path "${path}" differs from "${col.path}"`);
    col.path ??= path;
    return cmd;
  }

  /** Walk header/page pairs through the chunk [start, start + total_compressed_size). */
  walkPages(ctx) {
    const { where, key, rgi, ci, cmd, col } = ctx;
    const dictOff = cmd[11] !== undefined ? num(cmd[11]) : null;
    const dataOff = num(cmd[9]);
    const hasDict = dictOff !== null && dictOff > 0;
    const start = hasDict ? dictOff : dataOff;
    const size = num(cmd[7]);
    const end = start + size;
    if (!(start >= 4 && size >= 0 && end <= this.dataEnd))
      throw new VerifyError(`${where}: chunk [${start}, ${end}) outside the data region [4, ${this.dataEnd})`);
    // data_page_offset 0: Arrow C++ writes that for a chunk with no data page.
    if (hasDict && dataOff !== 0 && dictOff >= dataOff)
      throw new VerifyError(`${where}: dictionary_page_offset ${dictOff} not before data_page_offset ${dataOff}`);
    const codec = cmd[4];
    let pos = start;
    let ordinal = 0;
    let values = 0;
    while (pos < end) {
      const first = pos === start;
      const hdrWhere = `${where} page header at ${pos}`;
      let ph;
      let bodyAt;
      if (key) {
        // The AAD says which header this is: the metadata announces a dictionary page.
        const dict = first && hasDict;
        const type = dict ? MODULE.DICTIONARY_PAGE_HEADER : MODULE.DATA_PAGE_HEADER;
        let dec;
        try {
          dec = this.gcm(this.buf, pos, end, key, type, [rgi, ci, ordinal], hdrWhere);
        } catch (e) {
          if (first && e instanceof VerifyError && /GCM/.test(e.message))
            this.diagnoseFirstHeader(ctx, pos, end, dict);
          throw e;
        }
        ph = this.decodeModule(dec.plain, type, hdrWhere);
        bodyAt = dec.end;
      } else {
        const d = decodeStruct(this.buf, pos, end);
        ph = d.value;
        bodyAt = d.end;
        this.report.plaintextModules.page_header++;
      }
      const ptype = ph[1];
      const csize = ph[3];
      const usize = ph[2];
      if (!(Number.isInteger(csize) && csize >= 0 && Number.isInteger(usize) && usize >= 0))
        throw new VerifyError(`${hdrWhere}: bad page sizes compressed ${csize} uncompressed ${usize}`);
      const bodyEnd = bodyAt + csize;
      if (bodyEnd > end)
        throw new VerifyError(`${hdrWhere}: page of ${csize} bytes runs past the chunk end ${end}`);
      if (ptype === DICTIONARY_PAGE) {
        if (!first)
          throw new VerifyError(`${hdrWhere}: dictionary page is not the chunk's first page`);
        // Encrypted, this is fatal: readers pick the header's AAD module type
        // from dictionary_page_offset. Plaintext, old writers often omit it.
        if (!hasDict && key)
          throw new VerifyError(`${hdrWhere}: dictionary page without dictionary_page_offset`);
        if (!hasDict)
          this.warn(`${hdrWhere}: dictionary page without dictionary_page_offset`);
        if (!ph[7])
          throw new VerifyError(`${hdrWhere}: dictionary page without dictionary_page_header`);
      } else if (ptype === DATA_PAGE || ptype === DATA_PAGE_V2) {
        if (first && hasDict)
          throw new VerifyError(`${hdrWhere}: dictionary_page_offset set but the first page is a data page`);
        const dph = ptype === DATA_PAGE ? ph[5] : ph[8];
        if (!dph)
          throw new VerifyError(`${hdrWhere}: page type ${ptype} without its header struct`);
        values += dph[1];
      } else {
        throw new VerifyError(`${hdrWhere}: page type ${ptype} ${ptype === INDEX_PAGE ? '(INDEX_PAGE) ' : ''}not expected`);
      }
      const isDict = ptype === DICTIONARY_PAGE;
      let plain;
      if (key) {
        // The page module must fill exactly compressed_page_size bytes.
        const type = isDict ? MODULE.DICTIONARY_PAGE : MODULE.DATA_PAGE;
        const pWhere = `${where} ${isDict ? 'dictionary' : `data page ${ordinal}`} at ${bodyAt}`;
        const dec = this.ctrMode
          ? this.ctr(this.buf, bodyAt, bodyEnd, key, type, pWhere)
          : this.gcm(this.buf, bodyAt, bodyEnd, key, type, [rgi, ci, ordinal], pWhere);
        if (dec.end !== bodyEnd)
          throw new VerifyError(`${pWhere}: module of ${dec.end - bodyAt} bytes, compressed_page_size is ${csize}`);
        plain = dec.plain;
      } else {
        plain = this.buf.subarray(bodyAt, bodyEnd);
        this.report.plaintextModules.page++;
      }
      if (ph[4] !== undefined)
        this.checkCrc(`${where} page at ${pos}`, ph[4], this.buf.subarray(bodyAt, bodyEnd), plain);
      this.checkPageBody(`${where} ${isDict ? 'dictionary page' : `data page ${ordinal}`}`, ph, codec, plain, ctx.leaf);
      col.pages.push({ type: isDict ? 'dictionary' : 'data', header: pos, body: bodyAt, end: bodyEnd });
      if (isDict) {
        col.dictionaryPages++;
      } else {
        if (col.firstPageHex === null)
          col.firstPageHex = hex(plain, 16);
        ordinal++;
        col.dataPages++;
      }
      pos = bodyEnd;
    }
    if (pos !== end)
      throw new VerifyError(`${where}: pages end at ${pos}, chunk ends at ${end}`);
    if (values !== num(cmd[5]))
      this.error(`${where}: data pages hold ${values} values, ColumnMetaData.num_values is ${num(cmd[5])}`);
  }

  /** After a failed first header, name the likely cause if the other header type decrypts. */
  diagnoseFirstHeader(ctx, pos, end, wasDict) {
    const other = wasDict ? MODULE.DATA_PAGE_HEADER : MODULE.DICTIONARY_PAGE_HEADER;
    const saved = { ...this.report.modules };
    try {
      this.gcm(this.buf, pos, end, ctx.key, other, [ctx.rgi, ctx.ci, 0], 'probe');
      this.error(`${ctx.where}: first page header authenticates as ${MODULE_NAMES[other]}, not as ${MODULE_NAMES[wasDict ? 5 : 4]} as dictionary_page_offset says`);
    } catch {
      // the other type fails too: the plain GCM failure stands alone
    }
    this.report.modules = saved;
  }

  checkCrc(where, crc, stored, plain) {
    this.report.crcChecked++;
    const want = crc >>> 0;
    if (zlib.crc32(stored) === want)
      return;
    const alt = zlib.crc32(plain) === want ? ' (it matches the decrypted bytes)' : '';
    this.error(`${where}: page CRC ${want.toString(16)} does not match the stored page bytes${alt}`);
  }

  /** Decompress as the codec says and check sizes and (v1) level-section lengths. */
  checkPageBody(where, ph, codec, plain, leaf) {
    const ptype = ph[1];
    const usize = ph[2];
    let levels = Buffer.alloc(0);
    let payload = plain;
    let compressed = true;
    if (ptype === DATA_PAGE_V2) {
      const v2 = ph[8];
      const ll = v2[5] + v2[6];
      if (!(v2[5] >= 0 && v2[6] >= 0 && ll <= plain.length))
        throw new VerifyError(`${where}: level byte lengths ${v2[5]} + ${v2[6]} exceed the page's ${plain.length} bytes`);
      levels = plain.subarray(0, ll);
      payload = plain.subarray(ll);
      compressed = v2[7] !== false;
    }
    const want = usize - levels.length;
    let out;
    try {
      out = compressed ? decompress(codec, payload, want) : payload;
    } catch (e) {
      throw new VerifyError(`${where}: ${e.message}`);
    }
    if (out === null)
      return; // codec without a checker here
    if (out.length !== want)
      throw new VerifyError(`${where}: page body is ${out.length} bytes after decompression, header says ${want}`);
    if (ptype === DATA_PAGE && leaf)
      checkV1Levels(where, ph[5], Buffer.concat([levels, out]), leaf);
  }

  readOffsetIndex(ctx, cc) {
    if (cc[4] === undefined)
      return;
    const oi = this.indexStruct(ctx, num(cc[4]), cc[5], MODULE.OFFSET_INDEX, 'offset index');
    const locs = want(oi[1] ?? [], 'list', `${ctx.where} OffsetIndex.page_locations`);
    const pages = ctx.col.pages.filter((p) => p.type === 'data');
    if (locs.length !== pages.length)
      this.error(`${ctx.where}: OffsetIndex has ${locs.length} page locations, the chunk ${pages.length} data pages`);
    locs.forEach((l, k) => {
      want(l, 'struct', `${ctx.where} PageLocation`);
      const p = pages[k];
      if (p && (num(l[1]) !== p.header || l[2] !== p.end - p.header))
        this.error(`${ctx.where}: OffsetIndex page ${k} at ${num(l[1])} size ${l[2]}, the walk found ${p.header} size ${p.end - p.header}`);
      if (k === 0 ? num(l[3]) !== 0 : num(l[3]) < num(locs[k - 1][3]))
        this.error(`${ctx.where}: OffsetIndex page ${k} first_row_index ${num(l[3])} out of order`);
    });
    ctx.col.offsetIndexOffset = num(cc[4]);
  }

  readColumnIndex(ctx, cc) {
    if (cc[6] === undefined)
      return;
    const ci = this.indexStruct(ctx, num(cc[6]), cc[7], MODULE.COLUMN_INDEX, 'column index');
    const n = ctx.col.dataPages;
    for (const [f, name] of [[1, 'null_pages'], [2, 'min_values'], [3, 'max_values']]) {
      const len = want(ci[f] ?? [], 'list', `${ctx.where} ColumnIndex.${name}`).length;
      if (len !== n)
        this.error(`${ctx.where}: ColumnIndex.${name} has ${len} entries for ${n} data pages`);
    }
    ctx.col.columnIndexOffset = num(cc[6]);
  }

  /** A ColumnIndex/OffsetIndex: one module (or plain struct) filling [off, off + len). */
  indexStruct(ctx, off, len, type, what) {
    const where = `${ctx.where} ${what} at ${off}`;
    const limit = len === undefined ? this.dataEnd : off + len;
    if (!(off >= 4 && limit <= this.dataEnd && (len === undefined || len > 0)))
      throw new VerifyError(`${where}: range [${off}, ${limit}) outside the data region`);
    let value;
    let end;
    if (ctx.key) {
      const d = this.gcm(this.buf, off, limit, ctx.key, type, [ctx.rgi, ctx.ci], where);
      value = this.decodeModule(d.plain, type, where);
      end = d.end;
    } else {
      const d = decodeStruct(this.buf, off, limit);
      value = d.value;
      end = d.end;
      this.report.plaintextModules[type === MODULE.COLUMN_INDEX ? 'column_index' : 'offset_index']++;
    }
    if (len !== undefined && end !== limit)
      this.error(`${where}: ${what} occupies ${end - off} bytes, its length field says ${len}`);
    return value;
  }

  /** Bloom filter: header module then bitset module, numBytes long once decrypted. */
  readBloomFilter(ctx) {
    const cmd = ctx.cmd;
    if (cmd[14] === undefined)
      return;
    const off = num(cmd[14]);
    const len = cmd[15];
    const where = `${ctx.where} bloom filter at ${off}`;
    const limit = len === undefined ? this.dataEnd : off + len;
    if (!(off >= 4 && limit <= this.dataEnd))
      throw new VerifyError(`${where}: range [${off}, ${limit}) outside the data region`);
    let hdr;
    let bitsAt;
    let end;
    let bits;
    if (ctx.key) {
      const h = this.gcm(this.buf, off, limit, ctx.key, MODULE.BLOOM_FILTER_HEADER, [ctx.rgi, ctx.ci], `${where} header`);
      hdr = this.decodeModule(h.plain, MODULE.BLOOM_FILTER_HEADER, where);
      bitsAt = h.end;
      const d = this.gcm(this.buf, bitsAt, limit, ctx.key, MODULE.BLOOM_FILTER_BITSET, [ctx.rgi, ctx.ci], `${where} bitset`);
      bits = d.plain;
      end = d.end;
    } else {
      const h = decodeStruct(this.buf, off, limit);
      hdr = h.value;
      bitsAt = h.end;
      if (!(hdr[1] >= 0 && bitsAt + hdr[1] <= limit))
        throw new VerifyError(`${where}: bitset of ${hdr[1]} bytes runs past ${limit}`);
      bits = this.buf.subarray(bitsAt, bitsAt + hdr[1]);
      end = bitsAt + hdr[1];
      this.report.plaintextModules.bloom_filter++;
    }
    const nb = hdr[1];
    if (bits.length !== nb)
      this.error(`${where}: bitset has ${bits.length} bytes, BloomFilterHeader.numBytes is ${nb}`);
    if (!(nb >= 32 && (nb & (nb - 1)) === 0))
      this.error(`${where}: numBytes ${nb} is not a power of two >= 32`);
    if (len !== undefined && end !== limit)
      this.error(`${where}: filter occupies ${end - off} bytes, bloom_filter_length says ${len}`);
    ctx.col.bloomFilterOffset = off;
  }
}

/**
 * Decompress for checking. Returns the bytes, or null when this codec has no
 * checker here (LZO, LZ4, LZ4_RAW: only ZSTD's frame magic is checked).
 */
function decompress(codec, data, want) {
  if (data.length === 0 && want === 0)
    return data; // an empty page (v2 with only levels): no codec frame at all
  switch (codec) {
    case 0:
      return data;
    case 1: {
      // The preamble (varint uncompressed length) first: it bounds the allocation.
      let n = 0;
      for (let s = 0, i = 0; i < 5 && i < data.length; i++, s += 7) {
        n += (data[i] & 0x7f) * 2 ** s;
        if (!(data[i] & 0x80))
          break;
      }
      if (n !== want)
        throw new Error(`snappy preamble says ${n} bytes, header says ${want}`);
      const out = new Uint8Array(want);
      snappyUncompress(data, out);
      return Buffer.from(out);
    }
    case 2: return zlib.gunzipSync(data, { maxOutputLength: want + 1 });
    case 4: return zlib.brotliDecompressSync(data, { maxOutputLength: want + 1 });
    case 6:
      if (data.length < 4 || data.readUInt32LE(0) !== 0xfd2fb528)
        throw new Error('ZSTD page does not start with the ZSTD frame magic');
      return null;
    default:
      return null;
  }
}

/** Data page v1: RLE level sections carry a 4-byte length that must fit the page. */
function checkV1Levels(where, dph, page, leaf) {
  let p = 0;
  for (const [max, enc, what] of [[leaf.maxRep, dph[4], 'repetition'], [leaf.maxDef, dph[3], 'definition']]) {
    if (max === 0 || enc !== 3)
      continue; // absent, or BIT_PACKED without a length prefix
    if (p + 4 > page.length)
      throw new VerifyError(`${where}: page too short for its ${what} level length`);
    const n = page.readUInt32LE(p);
    if (p + 4 + n > page.length)
      throw new VerifyError(`${where}: ${what} levels of ${n} bytes exceed the ${page.length}-byte page`);
    p += 4 + n;
  }
}

/**
 * Verify a Parquet file written with Parquet Modular Encryption.
 *
 * bytes: Buffer/Uint8Array with the whole file.
 * keys:  { footerKey?: Buffer, columnKeys?: { 'dotted.path': Buffer },
 *          aadPrefix?: Buffer|string }
 *        Keys are the raw AES keys (16, 24 or 32 bytes). aadPrefix is needed
 *        when the file sets supply_aad_prefix; if given for a file that
 *        stores its prefix, it must match.
 * opts:  { allowUnencrypted: true } walks an unencrypted PAR1 file as all
 *        plaintext (a self-test of the page walker) instead of failing it.
 *
 * Returns a report (plain JSON-able object):
 *   ok                 true iff no error and nothing needed (see needs)
 *   errors, warnings   strings naming the place (row group, column, offset)
 *   encrypted          false for a PAR1 file without encryption_algorithm
 *   footerMode         'encrypted' (PARE) | 'plaintext' (PAR1 + signature)
 *   algorithm          'AES_GCM_V1' | 'AES_GCM_CTR_V1'
 *   aad                { prefixStored, prefix, supplyAadPrefix, fileUnique (hex) }
 *   footerKeyMetadata  key_metadata (FileCryptoMetaData) or
 *                      footer_signing_key_metadata, as text or "hex:..."
 *   footerVerified     footer decrypted, or signature verified
 *   footerOffset       the encrypted footer module, or the plaintext FileMetaData
 *   needs              null | 'footer key' | 'AAD prefix' | 'external key material'
 *   externalKeyMaterial  key metadata says the key material is outside the file
 *   numRows, rowGroups
 *   modules            GCM-authenticated modules per type (MODULE_NAMES)
 *   footerSignatures   1 when a plaintext footer's signature was verified
 *   ctrPages           { data_page, dictionary_page } decrypted with CTR (no tag)
 *   plaintextModules   page_header, page, column_index, offset_index,
 *                      bloom_filter walked in plaintext columns
 *   crcChecked         page CRCs checked (over the stored, encrypted bytes)
 *   columns            per chunk: { rowGroup, column, path, encryption
 *                      ('plaintext'|'footer_key'|'column_key'), keyMetadata,
 *                      status ('verified'|'plaintext'|'not verified (no key)'|
 *                      'failed'), dataPages, dictionaryPages, firstPageHex
 *                      (first 16 bytes of the first data page, decrypted,
 *                      before decompression), pages (in file order:
 *                      { type: 'data'|'dictionary', header, body, end } file
 *                      offsets of the header module, the page module and the
 *                      end), columnIndexOffset, offsetIndexOffset,
 *                      bloomFilterOffset (null unless present and verified) }
 *   unverifiedColumns  chunks left 'not verified (no key)'
 * Throws only for bad arguments; everything wrong with the file is in errors.
 */
export function verifyEncryptedFile(bytes, keys = {}, opts = {}) {
  if (!(bytes instanceof Uint8Array))
    throw new TypeError('verifyEncryptedFile: bytes must be a Buffer or Uint8Array');
  const v = new Verifier(bytes, keys, opts);
  try {
    return v.run();
  } catch (e) {
    // Thrift decoding errors and the like: the file is bad, not the call.
    v.report.errors.push(`${e.name}: ${e.message}`);
    v.report.ok = false;
    return v.report;
  }
}

/**
 * Byte ranges [start, end) of a verified file in which any change must make
 * verification fail: magic bytes, footer length, the footer (its module, or
 * the plaintext footer and its signature), and every module of the verified
 * encrypted columns (CTR page bodies excepted: CTR has no tag). Plaintext
 * columns and FileCryptoMetaData (its key_metadata is not authenticated) are
 * left out. `report` is verifyEncryptedFile's report for these bytes.
 */
export function protectedRanges(bytes, report) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ranges = [[0, 4], [b.length - 8, b.length], [report.footerOffset, b.length - 8]];
  const mod = (at) => [at, at + LEN + b.readUInt32LE(at)];
  for (const c of report.columns) {
    if (c.status !== 'verified')
      continue;
    for (const p of c.pages) {
      ranges.push([p.header, p.body]);
      if (report.algorithm === 'AES_GCM_V1')
        ranges.push([p.body, p.end]);
    }
    for (const at of [c.columnIndexOffset, c.offsetIndexOffset]) {
      if (at !== null)
        ranges.push(mod(at));
    }
    if (c.bloomFilterOffset !== null) {
      const h = mod(c.bloomFilterOffset);
      ranges.push(h, mod(h[1]));
    }
  }
  ranges.sort((x, y) => x[0] - y[0]);
  const out = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1])
      last[1] = Math.max(last[1], r[1]);
    else
      out.push([...r]);
  }
  return out;
}
