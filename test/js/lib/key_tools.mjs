// Key material of parquet-java's key tools (PropertiesDrivenCryptoFactory,
// KeyMaterial/KeyMetadata, FileKeyWrapper, HadoopFSKeyMaterialStore) and
// Arrow's CryptoFactory, written with Node's crypto module from those
// sources, independent of our C reader:
//
//   wrapKey / unwrapKey       KeyToolkit.encryptKeyLocally: base64(nonce ||
//                             AES-GCM ciphertext || tag) with the given AAD
//   keyMaterial(...)          the "PKMT1" JSON text, single or double wrapped
//                             with a master key as parquet-java's InMemoryKMS
//                             does (AAD = the master key id's UTF-8 bytes)
//   externalKeyMetadata(ref), keyMaterialFileJson(entries),
//   writeKeyMaterialFile(parquetPath, entries)
//                             external storage: key_metadata holding a
//                             reference, and _KEY_MATERIAL_FOR_<name>.json
//   unwrapMaterial(...)       the data key (DEK) that key material wraps
//   rewriteKeyMetadata(...)   a PME file with every key_metadata replaced,
//                             footer re-encrypted or re-signed
//
// JSON texts are byte for byte what parquet-java writes: Jackson serialises
// a java.util.HashMap, so the fields come in HashMap iteration order.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeStruct } from './thrift_compact.mjs';
import { MODULE, moduleAad } from './pme.mjs';

const NONCE = 12;
const TAG = 16;
const KEK_LENGTH = 16; // KeyToolkit.KEK_LENGTH_DEFAULT (128 bits)
const KEK_ID_LENGTH = 16; // FileKeyWrapper.KEK_ID_LENGTH
const MATERIAL_TYPE = 'PKMT1';
// KmsClient.KMS_INSTANCE_ID_DEFAULT / KMS_INSTANCE_URL_DEFAULT
const KMS_DEFAULT = 'DEFAULT';

// KeyMaterial.createSerialized's put() order into new HashMap(10)
const MATERIAL_FIELDS = ['keyMaterialType', 'internalStorage', 'isFooterKey', 'kmsInstanceID', 'kmsInstanceURL',
  'masterKeyID', 'wrappedDEK', 'doubleWrapping', 'keyEncryptionKeyID', 'wrappedKEK'];

function gcmName(key) {
  if (![16, 24, 32].includes(key.length))
    throw new Error(`key of ${key.length} bytes is not an AES key`);
  return `aes-${key.length * 8}-gcm`;
}

const utf8 = (s) => Buffer.from(s, 'utf8');

/** base64(nonce || ciphertext || tag): AES-GCM of key under wrappingKey with a fresh nonce. */
export function wrapKey(key, wrappingKey, aad) {
  const nonce = crypto.randomBytes(NONCE);
  const c = crypto.createCipheriv(gcmName(wrappingKey), wrappingKey, nonce, { authTagLength: TAG });
  c.setAAD(aad);
  const ct = Buffer.concat([c.update(key), c.final()]);
  return Buffer.concat([nonce, ct, c.getAuthTag()]).toString('base64');
}

/** The key wrapKey wrapped; throws when the tag does not verify (wrong key or AAD). */
export function unwrapKey(b64, wrappingKey, aad) {
  if (typeof b64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
    throw new Error('wrapped key is not base64');
  const b = Buffer.from(b64, 'base64');
  if (b.length < NONCE + TAG)
    throw new Error(`wrapped key of ${b.length} bytes is shorter than nonce and tag`);
  const d = crypto.createDecipheriv(gcmName(wrappingKey), wrappingKey, b.subarray(0, NONCE), { authTagLength: TAG });
  d.setAAD(aad);
  d.setAuthTag(b.subarray(b.length - TAG));
  try {
    return Buffer.concat([d.update(b.subarray(NONCE, b.length - TAG)), d.final()]);
  } catch {
    throw new Error('wrapped key fails authentication (wrong wrapping key, AAD or damaged material)');
  }
}

/** java.lang.String.hashCode, spread as java.util.HashMap.hash() does. */
function javaHash(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++)
    h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h ^ (h >>> 16);
}

/**
 * Keys (in insertion order) in the iteration order of a java.util.HashMap
 * that grew to hold them: by bucket, insertion order within a bucket (a
 * resize splits buckets keeping that order).  Treeified buckets (8 or more
 * collisions in one bucket) are not modelled; no key set here comes close.
 */
function hashMapOrder(keys, initialCapacity) {
  let cap = 1;
  while (cap < initialCapacity)
    cap *= 2;
  while (keys.length > cap * 0.75)
    cap *= 2;
  return keys.map((k, i) => [javaHash(k) & (cap - 1), i, k])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((x) => x[2]);
}

function javaMapJson(obj, initialCapacity) {
  const parts = hashMapOrder(Object.keys(obj), initialCapacity)
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k])}`);
  return `{${parts.join(',')}}`;
}

/** Key material JSON from its fields (any of MATERIAL_FIELDS), in parquet-java's layout. */
export function materialJson(fields) {
  const unknown = Object.keys(fields).filter((k) => !MATERIAL_FIELDS.includes(k));
  if (unknown.length)
    throw new Error(`not key material fields: ${unknown}`);
  const ordered = {};
  for (const k of MATERIAL_FIELDS) {
    if (k in fields)
      ordered[k] = fields[k];
  }
  return javaMapJson(ordered, 10);
}

/**
 * Key material for data key dek under master key masterKey (id masterKeyId),
 * as FileKeyWrapper.getEncryptionKeyMetadata writes it.  Double wrapping: a
 * random KEK and KEK id wrap the DEK; kekCache (a Map, optional) keeps one
 * KEK per master key id, as parquet-java's KEK cache does, so the columns of
 * a file under one master key share it.  internalStorage false: the text is
 * the entry for the key material file (no "internalStorage" field).
 */
export function keyMaterial({ dek, masterKeyId, masterKey, doubleWrapping = true, isFooterKey = false,
  kmsInstanceID = KMS_DEFAULT, kmsInstanceURL = KMS_DEFAULT, internalStorage = true, kekCache = null }) {
  const f = { keyMaterialType: MATERIAL_TYPE };
  if (internalStorage)
    f.internalStorage = true;
  f.isFooterKey = isFooterKey;
  if (isFooterKey) {
    f.kmsInstanceID = kmsInstanceID;
    f.kmsInstanceURL = kmsInstanceURL;
  }
  f.masterKeyID = masterKeyId;
  f.doubleWrapping = doubleWrapping;
  if (!doubleWrapping) {
    f.wrappedDEK = wrapKey(dek, masterKey, utf8(masterKeyId));
  } else {
    let kek = kekCache?.get(masterKeyId);
    if (!kek) {
      const key = crypto.randomBytes(KEK_LENGTH);
      kek = { key, id: crypto.randomBytes(KEK_ID_LENGTH), wrapped: wrapKey(key, masterKey, utf8(masterKeyId)) };
      kekCache?.set(masterKeyId, kek);
    }
    f.wrappedDEK = wrapKey(dek, kek.key, kek.id);
    f.keyEncryptionKeyID = kek.id.toString('base64');
    f.wrappedKEK = kek.wrapped;
  }
  return materialJson(f);
}

/** key_metadata of external storage (KeyMetadata.createSerializedForExternalMaterial). */
export function externalKeyMetadata(ref) {
  return javaMapJson({ keyMaterialType: MATERIAL_TYPE, internalStorage: false, keyReference: ref }, 3);
}

/** The key material file's text: { ref: material text } as HadoopFSKeyMaterialStore saves it. */
export function keyMaterialFileJson(entries) {
  return javaMapJson(entries, 16);
}

export function keyMaterialFilePath(parquetPath) {
  return path.join(path.dirname(parquetPath), `_KEY_MATERIAL_FOR_${path.basename(parquetPath)}.json`);
}

/** Write the key material file beside parquetPath; returns its path. */
export function writeKeyMaterialFile(parquetPath, entries) {
  const p = keyMaterialFilePath(parquetPath);
  fs.writeFileSync(p, keyMaterialFileJson(entries));
  return p;
}

function parseObject(text, what) {
  const j = JSON.parse(text);
  if (j === null || typeof j !== 'object' || Array.isArray(j))
    throw new Error(`${what} is not a JSON object`);
  return j;
}

/**
 * The DEK of key material (key_metadata text), with master keys
 * { masterKeyID: Buffer } (or a function (wrapped, masterKeyID) -> key, the
 * unwrapping of another KMS); externalFileJson: the key material file's text,
 * for key_metadata that only references its entry.
 */
export function unwrapMaterial(materialJsonText, masterKeys, externalFileJson) {
  let m = parseObject(materialJsonText, 'key metadata');
  if (m.keyMaterialType !== MATERIAL_TYPE)
    throw new Error(`key material type ${m.keyMaterialType}, not ${MATERIAL_TYPE}`);
  if (m.internalStorage === false) {
    if (externalFileJson === undefined)
      throw new Error(`key material "${m.keyReference}" is external: the key material file is needed`);
    const entry = parseObject(externalFileJson, 'key material file')[m.keyReference];
    if (typeof entry !== 'string')
      throw new Error(`the key material file has no entry "${m.keyReference}"`);
    m = parseObject(entry, `key material "${m.keyReference}"`);
    if (m.keyMaterialType !== MATERIAL_TYPE)
      throw new Error(`key material type ${m.keyMaterialType}, not ${MATERIAL_TYPE}`);
  } else if (m.internalStorage !== true) {
    throw new Error('key metadata without a boolean "internalStorage"');
  }
  // a function: the KMS's own unwrapping (wrapped text, master key id)
  const byMaster = typeof masterKeys === 'function' ? masterKeys : (wrapped, id) => {
    if (!masterKeys[id])
      throw new Error(`no master key "${id}"`);
    return unwrapKey(wrapped, masterKeys[id], utf8(id));
  };
  if (m.doubleWrapping === false)
    return byMaster(m.wrappedDEK, m.masterKeyID);
  if (m.doubleWrapping !== true)
    throw new Error('key material without a boolean "doubleWrapping"');
  const kek = byMaster(m.wrappedKEK, m.masterKeyID);
  return unwrapKey(m.wrappedDEK, kek, Buffer.from(m.keyEncryptionKeyID, 'base64'));
}

// ------------------------------------------------------------ rewriting

function varint(n) {
  const out = [];
  do {
    out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.from(out);
}

/**
 * buf with each Thrift binary field (a Buffer view into buf, from
 * decodeStruct) replaced by new bytes; the varint length before it too.
 */
function spliceBinaries(buf, edits) {
  const ranges = edits.map(({ view, bytes }) => {
    const at = view.byteOffset - buf.byteOffset;
    if (view.buffer !== buf.buffer || at < 0 || at + view.length > buf.length)
      throw new Error('binary field is not a view into the struct bytes');
    const len = varint(view.length);
    if (at < len.length || !buf.subarray(at - len.length, at).equals(len))
      throw new Error(`no canonical varint length before the binary field at ${at}`);
    return { start: at - len.length, end: at + view.length, bytes: Buffer.concat([varint(bytes.length), bytes]) };
  }).sort((a, b) => a.start - b.start);
  const parts = [];
  let pos = 0;
  for (const r of ranges) {
    if (r.start < pos)
      throw new Error('overlapping binary fields');
    parts.push(buf.subarray(pos, r.start), r.bytes);
    pos = r.end;
  }
  parts.push(buf.subarray(pos));
  return Buffer.concat(parts);
}

/** The AAD prefix and aad_file_unique of an EncryptionAlgorithm union. */
function algorithmAad(alg) {
  const a = alg?.[1] ?? alg?.[2];
  if (!a || !a[2])
    throw new Error('EncryptionAlgorithm without aad_file_unique');
  if (a[3] === true && !a[1])
    throw new Error('the file does not store its AAD prefix (supply_aad_prefix): not supported');
  return { prefix: a[1] ?? Buffer.alloc(0), unique: a[2] };
}

/** Edits for every column's EncryptionWithColumnKey.key_metadata in FileMetaData fmd. */
function columnEdits(fmd, replace) {
  const edits = [];
  for (const rg of fmd[4] ?? []) {
    for (const cc of rg[1] ?? []) {
      const ewck = cc[8]?.[2];
      if (!ewck)
        continue; // plaintext, or encrypted with the footer key
      const where = (ewck[1] ?? []).map((p) => p.toString('utf8')).join('.');
      if (!ewck[2])
        throw new Error(`column ${where} has no key_metadata to replace`);
      edits.push({ view: ewck[2], bytes: replace(ewck[2], where) });
    }
  }
  return edits;
}

function gcmEncrypt(key, aad, plain) {
  const nonce = crypto.randomBytes(NONCE);
  const c = crypto.createCipheriv(gcmName(key), key, nonce, { authTagLength: TAG });
  c.setAAD(aad);
  const ct = Buffer.concat([c.update(plain), c.final()]);
  return { nonce, ct, tag: c.getAuthTag() };
}

function gcmDecrypt(key, aad, nonce, ct, tag) {
  const d = crypto.createDecipheriv(gcmName(key), key, nonce, { authTagLength: TAG });
  d.setAAD(aad);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(ct), d.final()]);
}

function uint32le(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/**
 * A copy of the PME file bytes with every key_metadata (the footer's and
 * each column key's) replaced by map(old key metadata text, where), where
 * is 'footer' or the column's dotted path.  map is called once per distinct
 * (where, old) pair, so all row groups of a column get the same key
 * metadata, as parquet-java writes them.  footerKey: the footer's DEK, to
 * decrypt and re-encrypt an encrypted footer, or to re-sign a plaintext
 * one; both with a fresh nonce.  Everything before the footer is unchanged.
 */
export function rewriteKeyMetadata(bytes, { footerKey, map }) {
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = b.toString('latin1', b.length - 4);
  if (b.length < 12 || b.toString('latin1', 0, 4) !== magic || (magic !== 'PARE' && magic !== 'PAR1'))
    throw new Error('not a Parquet file');
  const tailEnd = b.length - 8;
  const tail = tailEnd - b.readUInt32LE(tailEnd);
  if (tail < 4)
    throw new Error('footer length exceeds the file');
  const seen = new Map();
  const replace = (view, where) => {
    const old = view.toString('utf8');
    const k = JSON.stringify([where, old]);
    if (!seen.has(k))
      seen.set(k, utf8(map(old, where)));
    return seen.get(k);
  };
  const head = b.subarray(0, tail);
  if (magic === 'PARE') {
    const { value: fcmd, end } = decodeStruct(b, tail, tailEnd);
    if (!fcmd[2])
      throw new Error('FileCryptoMetaData has no key_metadata to replace');
    const { prefix, unique } = algorithmAad(fcmd[1]);
    const aad = moduleAad(prefix, unique, MODULE.FOOTER);
    const len = b.readUInt32LE(end);
    if (end + 4 + len !== tailEnd || len < NONCE + TAG)
      throw new Error('the footer module does not end at the footer length');
    const body = b.subarray(end + 4, tailEnd);
    let plain;
    try {
      plain = gcmDecrypt(footerKey, aad, body.subarray(0, NONCE), body.subarray(NONCE, len - TAG), body.subarray(len - TAG));
    } catch {
      throw new Error('the footer does not decrypt with footerKey');
    }
    // The footer's own key first: parquet-java makes it before the columns'.
    const newFcmd = spliceBinaries(b.subarray(tail, end), [{ view: fcmd[2], bytes: replace(fcmd[2], 'footer') }]);
    // bytes after the struct (padding some writers leave) are kept
    const { value: fmd } = decodeStruct(plain, 0, plain.length);
    const e = gcmEncrypt(footerKey, aad, spliceBinaries(plain, columnEdits(fmd, replace)));
    const module = Buffer.concat([uint32le(NONCE + e.ct.length + TAG), e.nonce, e.ct, e.tag]);
    return Buffer.concat([head, newFcmd, module, uint32le(newFcmd.length + module.length), Buffer.from('PARE')]);
  }
  const sigAt = tailEnd - NONCE - TAG;
  const { value: fmd, end } = decodeStruct(b, tail, sigAt);
  if (end !== sigAt || !fmd[8])
    throw new Error('not a plaintext-footer PME file (no encryption_algorithm and signature)');
  if (!fmd[9])
    throw new Error('FileMetaData has no footer_signing_key_metadata to replace');
  const { prefix, unique } = algorithmAad(fmd[8]);
  const footerEdit = { view: fmd[9], bytes: replace(fmd[9], 'footer') };
  const newFmd = spliceBinaries(b.subarray(tail, sigAt), [footerEdit, ...columnEdits(fmd, replace)]);
  // the signature: nonce and tag of the footer's encryption (ciphertext dropped)
  const e = gcmEncrypt(footerKey, moduleAad(prefix, unique, MODULE.FOOTER), newFmd);
  return Buffer.concat([head, newFmd, e.nonce, e.tag, uint32le(newFmd.length + NONCE + TAG), Buffer.from('PAR1')]);
}
