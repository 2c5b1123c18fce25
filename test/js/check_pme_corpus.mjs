#!/usr/bin/env node
// Self-test of the independent PME verifier (lib/pme.mjs) on the Apache
// parquet-testing encrypted files, written by parquet-java and Arrow C++:
//
//   node test/js/check_pme_corpus.mjs [DATA_DIR]
//
// Per file: verification with the keys from data/README.md succeeds and the
// report matches what the README and file names say (algorithm, footer mode,
// AAD prefix, which columns use which key id, Bloom filters); then a wrong
// footer key, a wrong or missing column key, a wrong or missing AAD prefix,
// one flipped byte in a page, page header, ColumnIndex or footer, a module
// length pointing past the file, two swapped modules, and a truncated file
// must each be caught, and so must a bit flip at every byte of the ranges
// the verifier reports as protected. The page walker is also run over the
// unencrypted corpus files (no false alarms; documented bad CRCs found).
// The external-key-material file must be reported as
// needing its key material; its keys are then unwrapped from the JSON next
// to it with the test KMS master keys and the file is verified with them.
// Last line: "pme-corpus: N passed, N failed".

import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { MODULE, moduleAad, protectedRanges, verifyEncryptedFile } from './lib/pme.mjs';
import { decodeStruct, ThriftError } from './lib/thrift_compact.mjs';

// The corpus: the argument, else $PARQUET_TESTING_DIR, else ../shared beside
// the repository (as the other corpus stages look for it).
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const CORPUS = process.env.PARQUET_TESTING_DIR ?? path.join(REPO, '..', 'shared', 'testdata', 'parquet-testing');
const DATA = process.argv[2] ?? path.join(CORPUS, 'data');
if (!fs.existsSync(DATA)) {
  console.log(`!!!!!!!! WARNING: parquet-testing corpus NOT FOUND at ${DATA}: pme-corpus checks NOT RUN !!!!!!!!`);
  console.log('pme-corpus: 0 passed, 0 failed');
  process.exit(process.env.CI === 'true' ? 1 : 0);
}

// data/README.md lists the keys as digit sequences; the writers used them as
// ASCII strings (Arrow C++ read-configurations-test.cc: "0123456789012345").
const ascii = (s) => Buffer.from(s, 'ascii');
const KEYS_128 = {
  footer: ascii('0123456789012345'),
  columns: {
    double_field: { key: ascii('1234567890123450'), id: 'kc1' },
    float_field: { key: ascii('1234567890123451'), id: 'kc2' },
  },
};
// aes256: key id kcN's key ends in the digit N + 1 (README: {1,2,...,0,1,N+1}).
const KEYS_256 = {
  footer: ascii('01234567890123456789012345678901'),
  columns: Object.fromEntries([
    ['double_field', 1], ['float_field', 2], ['boolean_field', 3], ['int32_field', 4],
    ['ba_field', 5], ['flba_field', 6], ['int64_field.list.element', 7], ['int96_field', 8],
  ].map(([p, n]) => [p, { key: ascii(`1234567890123456789012345678901${n + 1}`), id: `kc${n}` }])),
};
const AAD_PREFIX = 'tester';
// Master keys of the test KMS (parquet-java InMemoryKMS / Arrow C++
// TestOnlyInServerWrapKms) for the external-key-material file.
const KMS_MASTER_KEYS = { kf: KEYS_128.footer, kc1: KEYS_128.columns.double_field.key, kc2: KEYS_128.columns.float_field.key };

// What each file is, from data/README.md and the file names.
const EXPECT = {
  'encrypt_columns_and_footer.parquet.encrypted': {},
  'encrypt_columns_and_footer_aad.parquet.encrypted': { aad: 'stored' },
  'encrypt_columns_and_footer_bloom_filter.parquet.encrypted': { bloom: ['double_field', 'float_field'] },
  'encrypt_columns_and_footer_ctr.parquet.encrypted': { ctr: true },
  'encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted': { aad: 'supplied' },
  'encrypt_columns_plaintext_footer.parquet.encrypted': { plaintextFooter: true },
  'uniform_encryption.parquet.encrypted': { uniform: true },
  'external_key_material_java.parquet.encrypted': { external: true },
};

let passed = 0;
let failed = 0;

/** fn returns a list of problems (empty = pass) or throws. */
function check(name, fn) {
  let problems;
  try {
    problems = fn();
  } catch (e) {
    problems = [`threw ${e.stack}`];
  }
  if (problems.length === 0) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name}`);
    for (const p of problems.slice(0, 8))
      console.log(`        ${p}`);
  }
}

function keysFor(set, expect, overrides = {}) {
  const k = {
    footerKey: set.footer,
    columnKeys: expect.uniform ? {} : Object.fromEntries(Object.entries(set.columns).map(([p, c]) => [p, c.key])),
  };
  if (expect.aad)
    k.aadPrefix = ascii(AAD_PREFIX);
  return { ...k, ...overrides };
}

const flipBit = (b) => {
  const c = Buffer.from(b);
  c[c.length - 1] ^= 1;
  return c;
};

/** A copy of bytes with one byte changed. */
function mutate(bytes, at) {
  const c = Buffer.from(bytes);
  c[at] ^= 0x5a;
  return c;
}

/** The report's problems as failures of a positive check. */
function positive(r, set, expect) {
  const p = [];
  if (!r.ok)
    p.push(`not ok: ${r.errors.join(' | ') || `needs ${r.needs}`}`);
  if (!r.footerVerified)
    p.push('footer not verified');
  const alg = expect.ctr ? 'AES_GCM_CTR_V1' : 'AES_GCM_V1';
  if (r.algorithm !== alg)
    p.push(`algorithm ${r.algorithm}, expected ${alg}`);
  const mode = expect.plaintextFooter ? 'plaintext' : 'encrypted';
  if (r.footerMode !== mode)
    p.push(`footer mode ${r.footerMode}, expected ${mode}`);
  if (mode === 'plaintext' ? r.footerSignatures !== 1 : r.modules.footer !== 1)
    p.push('footer module/signature not counted once');
  if (r.footerKeyMetadata !== 'kf')
    p.push(`footer key metadata ${r.footerKeyMetadata}, expected kf`);
  const a = r.aad ?? {};
  if (expect.aad === 'stored' && !(a.prefixStored && a.prefix === AAD_PREFIX && !a.supplyAadPrefix))
    p.push(`AAD ${JSON.stringify(a)}: expected stored prefix "${AAD_PREFIX}"`);
  if (expect.aad === 'supplied' && !(!a.prefixStored && a.supplyAadPrefix))
    p.push(`AAD ${JSON.stringify(a)}: expected supply_aad_prefix without a stored prefix`);
  if (!expect.aad && (a.prefixStored || a.supplyAadPrefix))
    p.push(`AAD ${JSON.stringify(a)}: expected no AAD prefix`);
  if (!a.fileUnique)
    p.push('no aad_file_unique');
  if (r.columns.length === 0)
    p.push('no columns');
  let encPages = 0;
  let encDict = 0;
  for (const c of r.columns) {
    const want = expect.uniform ? 'footer_key' : set.columns[c.path] ? 'column_key' : 'plaintext';
    if (c.encryption !== want)
      p.push(`${c.path}: encryption ${c.encryption}, expected ${want}`);
    if (want === 'column_key' && c.keyMetadata !== set.columns[c.path].id)
      p.push(`${c.path}: key metadata ${c.keyMetadata}, expected ${set.columns[c.path].id}`);
    const status = want === 'plaintext' ? 'plaintext' : 'verified';
    if (c.status !== status)
      p.push(`${c.path}: status ${c.status}, expected ${status}`);
    if (c.dataPages < 1)
      p.push(`${c.path}: no data pages`);
    if (c.offsetIndexOffset === null)
      p.push(`${c.path}: no OffsetIndex verified`);
    const bloom = (expect.bloom ?? []).includes(c.path);
    if (bloom !== (c.bloomFilterOffset !== null))
      p.push(`${c.path}: Bloom filter ${c.bloomFilterOffset !== null ? 'found' : 'missing'}`);
    if (want !== 'plaintext') {
      encPages += c.dataPages;
      encDict += c.dictionaryPages;
    }
  }
  const m = r.modules;
  const pages = expect.ctr ? r.ctrPages.data_page : m.data_page;
  if (m.data_page_header !== encPages || pages !== encPages)
    p.push(`data page modules ${m.data_page_header} headers / ${pages} pages for ${encPages} encrypted data pages`);
  if (m.dictionary_page_header !== encDict)
    p.push(`dictionary page header modules ${m.dictionary_page_header} for ${encDict} dictionary pages`);
  if (expect.ctr && m.data_page !== 0)
    p.push('CTR file has GCM data pages');
  const nbloom = (expect.bloom ?? []).length;
  if (m.bloom_filter_header !== nbloom || m.bloom_filter_bitset !== nbloom)
    p.push(`Bloom modules ${m.bloom_filter_header}/${m.bloom_filter_bitset}, expected ${nbloom}`);
  if (r.unverifiedColumns !== 0)
    p.push(`${r.unverifiedColumns} columns not verified`);
  return p;
}

/** Expect the verification to fail with an error matching re. */
function mustFail(r, re) {
  if (r.ok)
    return ['verification passed'];
  if (!r.errors.some((e) => re.test(e)))
    return [`no error matching ${re}: ${r.errors.join(' | ') || `needs ${r.needs}`}`];
  return [];
}

function firstEncryptedColumn(r) {
  return r.columns.find((c) => c.status === 'verified');
}

function checkFile(dir, name, set) {
  const file = path.join(dir, name);
  const label = path.relative(DATA, file);
  const expect = EXPECT[name];
  if (!expect) {
    check(`${label}: known file`, () => [`no expectations for ${name}: add it to EXPECT`]);
    return;
  }
  const bytes = fs.readFileSync(file);
  if (expect.external) {
    checkExternal(dir, name, label, bytes);
    return;
  }
  const keys = keysFor(set, expect);
  const good = verifyEncryptedFile(bytes, keys);
  check(`${label}: verifies with the README keys`, () => positive(good, set, expect));

  check(`${label}: wrong footer key fails`, () =>
    mustFail(verifyEncryptedFile(bytes, { ...keys, footerKey: flipBit(set.footer) }),
      expect.plaintextFooter ? /signature does not verify/ : /footer: GCM authentication failed/));

  if (!expect.uniform) {
    const [p0] = Object.keys(set.columns);
    check(`${label}: wrong column key for ${p0} fails that column only`, () => {
      const r = verifyEncryptedFile(bytes, { ...keys, columnKeys: { ...keys.columnKeys, [p0]: flipBit(keys.columnKeys[p0]) } });
      const p = mustFail(r, new RegExp(`GCM authentication failed \\(column_meta_data`));
      const bad = r.columns.filter((c) => c.status === 'failed').map((c) => c.path);
      if (bad.length !== 1 || bad[0] !== p0)
        p.push(`failed columns [${bad}], expected [${p0}]`);
      return p;
    });
    check(`${label}: missing key for ${p0} leaves it "not verified (no key)"`, () => {
      const ck = { ...keys.columnKeys };
      delete ck[p0];
      const r = verifyEncryptedFile(bytes, { ...keys, columnKeys: ck });
      const c = r.columns.filter((x) => x.path === p0);
      const p = [];
      if (!r.ok)
        p.push(`not ok: ${r.errors.join(' | ')}`);
      if (c.length === 0 || c.some((x) => x.status !== 'not verified (no key)'))
        p.push(`${p0} status ${c.map((x) => x.status)}`);
      if (r.unverifiedColumns !== c.length)
        p.push(`unverifiedColumns ${r.unverifiedColumns}`);
      return p;
    });
  }

  if (expect.aad === 'stored') {
    check(`${label}: a different AAD prefix is refused`, () =>
      mustFail(verifyEncryptedFile(bytes, { ...keys, aadPrefix: ascii('tester1') }), /differs from the stored/));
    check(`${label}: an altered stored AAD prefix fails the footer`, () => {
      const at = bytes.lastIndexOf(ascii(AAD_PREFIX));
      return mustFail(verifyEncryptedFile(mutate(bytes, at), { ...keys, aadPrefix: undefined }), /footer: GCM authentication failed/);
    });
  } else if (expect.aad === 'supplied') {
    check(`${label}: without the AAD prefix it needs one`, () => {
      const r = verifyEncryptedFile(bytes, { ...keys, aadPrefix: undefined });
      return r.ok || r.needs !== 'AAD prefix' || r.errors.length ? [`ok ${r.ok} needs ${r.needs} errors ${r.errors}`] : [];
    });
    check(`${label}: a wrong AAD prefix fails the footer`, () =>
      mustFail(verifyEncryptedFile(bytes, { ...keys, aadPrefix: ascii('tester1') }), /footer: GCM authentication failed/));
  } else {
    check(`${label}: an AAD prefix the file was not written with is refused`, () =>
      mustFail(verifyEncryptedFile(bytes, { ...keys, aadPrefix: ascii(AAD_PREFIX) }), /not written with one/));
  }

  const col = firstEncryptedColumn(good);
  if (!col) {
    check(`${label}: has an encrypted column for the tamper tests`, () => ['none verified']);
    return;
  }
  const dp = col.pages.find((p) => p.type === 'data');
  // Middle of the ciphertext: past length (4) and nonce (12).
  const inCipher = (at, end) => at + 4 + 12 + Math.floor((end - at - 4 - 12) / 2);
  if (!expect.ctr) {
    check(`${label}: a flipped byte in a data page of ${col.path} fails its tag`, () =>
      mustFail(verifyEncryptedFile(mutate(bytes, inCipher(dp.body, dp.end)), keys),
        new RegExp(`GCM authentication failed \\(data_page module at ${dp.body}`)));
  }
  check(`${label}: a flipped byte in a data page header of ${col.path} fails its tag`, () =>
    mustFail(verifyEncryptedFile(mutate(bytes, inCipher(dp.header, dp.body)), keys),
      new RegExp(`GCM authentication failed \\(data_page_header module at ${dp.header}`)));
  const ciCol = good.columns.find((c) => c.status === 'verified' && c.columnIndexOffset !== null);
  if (ciCol) {
    const at = ciCol.columnIndexOffset;
    check(`${label}: a flipped byte in the ColumnIndex of ${ciCol.path} fails its tag`, () =>
      mustFail(verifyEncryptedFile(mutate(bytes, at + 20), keys), /GCM authentication failed \(column_index/));
  }
  check(`${label}: a page module length past the file is caught`, () => {
    const c = Buffer.from(bytes);
    c.writeUInt32LE(0x7ffffff0, dp.body);
    return mustFail(verifyEncryptedFile(c, keys), /runs past/);
  });
  check(`${label}: a flipped footer byte fails ${expect.plaintextFooter ? 'the signature' : 'the footer tag'}`, () => {
    const flen = bytes.readUInt32LE(bytes.length - 8);
    let at;
    if (expect.plaintextFooter) {
      at = bytes.indexOf(ascii('parquet-'), bytes.length - 8 - flen) + 2; // inside created_by
    } else {
      const { end } = decodeStruct(bytes, bytes.length - 8 - flen, bytes.length - 8);
      at = inCipher(end, bytes.length - 8);
    }
    return mustFail(verifyEncryptedFile(mutate(bytes, at), keys),
      expect.plaintextFooter ? /signature does not verify/ : /footer: GCM authentication failed/);
  });
  check(`${label}: a truncated file is an error, not a crash`, () =>
    mustFail(verifyEncryptedFile(bytes.subarray(0, bytes.length - 100), keys), /./));
  if (expect.uniform) {
    checkSwap(label, bytes, keys, good);
    checkNonceReuse(label, bytes, keys, good);
  }
  checkEveryByte(label, bytes, keys, good);
}

/** Each single-bit change inside the protected ranges must fail verification. */
function checkEveryByte(label, bytes, keys, good) {
  const ranges = protectedRanges(bytes, good);
  const total = ranges.reduce((n, [a, b]) => n + b - a, 0);
  check(`${label}: each of the ${total} protected bytes, bit-flipped, fails verification`, () => {
    const missed = [];
    const c = Buffer.from(bytes);
    for (const [a, b] of ranges) {
      for (let at = a; at < b; at++) {
        c[at] ^= 1;
        if (verifyEncryptedFile(c, keys).ok)
          missed.push(at);
        c[at] ^= 1;
      }
    }
    const p = missed.length ? [`${missed.length} flips went unnoticed, at ${missed.slice(0, 10)}`] : [];
    if (total < bytes.length / 4)
      p.push(`only ${total} of ${bytes.length} bytes protected`);
    return p;
  });
}

/** Two same-length OffsetIndex modules under one key, swapped: the AAD's column ordinal catches it. */
function checkSwap(label, bytes, keys, good) {
  check(`${label}: two swapped OffsetIndex modules fail their tags`, () => {
    const cols = good.columns.filter((c) => c.offsetIndexOffset !== null);
    const len = (c) => bytes.readUInt32LE(c.offsetIndexOffset);
    let pair = null;
    for (let i = 0; i < cols.length && !pair; i++) {
      for (let j = i + 1; j < cols.length && !pair; j++) {
        if (len(cols[i]) === len(cols[j]))
          pair = [cols[i], cols[j]];
      }
    }
    if (!pair)
      return ['no two OffsetIndex modules of equal length'];
    const [a, b] = pair;
    const n = 4 + len(a);
    const c = Buffer.from(bytes);
    bytes.copy(c, a.offsetIndexOffset, b.offsetIndexOffset, b.offsetIndexOffset + n);
    bytes.copy(c, b.offsetIndexOffset, a.offsetIndexOffset, a.offsetIndexOffset + n);
    const r = verifyEncryptedFile(c, keys);
    const p = mustFail(r, /GCM authentication failed \(offset_index/);
    const bad = r.columns.filter((x) => x.status === 'failed').map((x) => x.path);
    if (bad.join() !== [a.path, b.path].join())
      p.push(`failed columns [${bad}], expected [${a.path},${b.path}]`);
    return p;
  });
}

/**
 * Re-encrypt column 1's OffsetIndex under the nonce of column 0's: every tag
 * verifies (right key, right AAD), and only the nonce check can object.
 */
function checkNonceReuse(label, bytes, keys, good) {
  check(`${label}: a nonce reused under one key is reported`, () => {
    const [a, b] = good.columns;
    const key = keys.footerKey;
    const at = b.offsetIndexOffset;
    const len = bytes.readUInt32LE(at);
    const aad = moduleAad(Buffer.alloc(0), Buffer.from(good.aad.fileUnique, 'hex'), MODULE.OFFSET_INDEX, 0, b.column);
    const cipher = `aes-${key.length * 8}-gcm`;
    const d = crypto.createDecipheriv(cipher, key, bytes.subarray(at + 4, at + 16));
    d.setAAD(aad);
    d.setAuthTag(bytes.subarray(at + 4 + len - 16, at + 4 + len));
    const plain = Buffer.concat([d.update(bytes.subarray(at + 16, at + 4 + len - 16)), d.final()]);
    const nonce = bytes.subarray(a.offsetIndexOffset + 4, a.offsetIndexOffset + 16);
    const e = crypto.createCipheriv(cipher, key, nonce);
    e.setAAD(aad);
    const ct = Buffer.concat([e.update(plain), e.final()]);
    const c = Buffer.from(bytes);
    Buffer.concat([nonce, ct, e.getAuthTag()]).copy(c, at + 4);
    const r = verifyEncryptedFile(c, keys);
    const p = mustFail(r, /nonce [0-9a-f]{24} reused under one key/);
    if (r.errors.length !== 1)
      p.push(`expected the nonce error alone: ${r.errors.join(' | ')}`);
    return p;
  });
}

/** Key material outside the file: reported as such; then unwrapped with the test KMS. */
function checkExternal(dir, name, label, bytes) {
  const bare = verifyEncryptedFile(bytes, {});
  check(`${label}: reported as needing external key material`, () =>
    (bare.ok || bare.needs !== 'external key material' || !bare.externalKeyMaterial || bare.errors.length
      ? [`ok ${bare.ok} needs ${bare.needs} external ${bare.externalKeyMaterial} errors ${bare.errors}`] : []));
  check(`${label}: the README footer key is not the data key`, () =>
    mustFail(verifyEncryptedFile(bytes, { footerKey: KEYS_128.footer }), /footer: GCM authentication failed/));
  const kmFile = path.join(dir, `_KEY_MATERIAL_FOR_${name}.json`);
  check(`${label}: verifies with keys unwrapped from ${path.basename(kmFile)}`, () => {
    const material = JSON.parse(fs.readFileSync(kmFile, 'utf8'));
    const dek = (ref) => unwrapDoubleWrapped(JSON.parse(material[ref]));
    const footerRef = JSON.parse(Buffer.from(bare.footerKeyMetadata, 'utf8')).keyReference;
    const footerKey = dek(footerRef);
    // The column key references are in the footer, readable once the footer key is known.
    const first = verifyEncryptedFile(bytes, { footerKey });
    const columnKeys = {};
    for (const c of first.columns) {
      if (c.encryption === 'column_key')
        columnKeys[c.path] = dek(JSON.parse(c.keyMetadata).keyReference);
    }
    const r = verifyEncryptedFile(bytes, { footerKey, columnKeys });
    const p = [];
    if (!r.ok)
      p.push(`not ok: ${r.errors.join(' | ')}`);
    if (Object.keys(columnKeys).length === 0)
      p.push('no column-key columns');
    if (r.columns.some((c) => c.status !== 'verified' && c.status !== 'plaintext'))
      p.push(`statuses ${r.columns.map((c) => `${c.path}=${c.status}`)}`);
    return p;
  });
}

/**
 * parquet-java key tools, double wrapping: the KEK is wrapped by the KMS
 * master key (AAD = master key id), the DEK by the KEK (AAD = the KEK id);
 * each wrapped key is base64(nonce || ciphertext || tag), AES-GCM.
 */
function unwrapDoubleWrapped(m) {
  const unwrap = (b64, key, aad) => {
    const b = Buffer.from(b64, 'base64');
    const d = crypto.createDecipheriv(`aes-${key.length * 8}-gcm`, key, b.subarray(0, 12));
    d.setAAD(aad);
    d.setAuthTag(b.subarray(b.length - 16));
    return Buffer.concat([d.update(b.subarray(12, b.length - 16)), d.final()]);
  };
  if (!m.doubleWrapping)
    throw new Error('only double-wrapped key material is handled');
  const master = KMS_MASTER_KEYS[m.masterKeyID];
  const kek = unwrap(m.wrappedKEK, master, ascii(m.masterKeyID));
  return unwrap(m.wrappedDEK, kek, Buffer.from(m.keyEncryptionKeyID, 'base64'));
}

/** The Thrift decoder on hand-encoded compact-protocol bytes (values worked out from the Thrift spec). */
function checkThrift() {
  const bytes = Buffer.from([
    0x15, 0x01, // 1: i32 -1 (zigzag 1)
    0x11, // 2: bool true, in the field header
    0x18, 0x02, 0x61, 0x62, // 3: binary "ab"
    0x06, 0x28, 0xd8, 0x04, // 20 (long form, zigzag 40): i64 300 (zigzag 600)
    0x19, 0x31, 0x01, 0x02, 0x01, // 21: list<bool> [true, false, true], one byte each
    0x1c, 0x17, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0x00, // 22: struct { 1: double 1.5 }
    0x1b, 0x01, 0x58, 0x02, 0x01, 0x78, // 23: map<i32, binary> { 1: "x" }
    0x19, 0xf5, 0x14, ...Array.from({ length: 20 }, (_, i) => i * 2), // 24: list<i32> 0..19, long size form
    0x00,
  ]);
  check('thrift: hand-encoded struct decodes to the expected values', () => {
    const { value: v, end } = decodeStruct(bytes, 0);
    const p = [];
    const want = {
      1: -1, 2: true, 3: 'ab', 20: 300n, 21: [true, false, true], 22: { 1: 1.5 },
      23: [[1, 'x']], 24: Array.from({ length: 20 }, (_, i) => i),
    };
    const norm = (x) => JSON.stringify(x, (k, y) => (typeof y === 'bigint' ? `${y}n`
      : y && y.type === 'Buffer' ? Buffer.from(y.data).toString('latin1') : y));
    if (norm(v) !== norm(want))
      p.push(`got ${norm(v)}`);
    if (end !== bytes.length)
      p.push(`end ${end}, expected ${bytes.length}`);
    return p;
  });
  check('thrift: truncated input and oversized lengths are ThriftErrors', () => {
    const p = [];
    for (const [what, buf] of [
      ['truncated', bytes.subarray(0, bytes.length - 1)],
      ['binary length past the end', Buffer.from([0x18, 0x7f, 0x61, 0x00])],
      ['list size past the end', Buffer.from([0x19, 0xf5, 0xff, 0x01, 0x00])],
      ['unknown type 14', Buffer.from([0x1e, 0x00])],
    ]) {
      try {
        decodeStruct(buf, 0);
        p.push(`${what}: decoded`);
      } catch (e) {
        if (!(e instanceof ThriftError))
          p.push(`${what}: ${e}`);
      }
    }
    return p;
  });
}

// Plain corpus files the page walker must reject, with the README's reason.
const WALK_BAD = {
  // Column a page 0 and column b page 1 carry bad CRCs.
  'datapage_v1-corrupt-checksum.parquet': [[0, 0], [1, 1]],
  // Both columns' dictionary pages carry bad CRCs.
  'rle-dict-uncompressed-corrupt-checksum.parquet': [[0, 0], [1, 0]],
};
const WALK_MALFORMED = { 'nation.dict-malformed.parquet': /runs past the chunk end/ };

/**
 * The page walker (sizes, decompression, levels, OffsetIndex, CRCs) on the
 * unencrypted corpus: no false alarms on valid files, and the documented
 * corrupt checksums found exactly where the README puts them.
 */
function checkWalker() {
  const names = fs.readdirSync(DATA).filter((n) => n.endsWith('.parquet')).sort();
  const clean = [];
  const bad = [];
  for (const n of names) {
    const r = verifyEncryptedFile(fs.readFileSync(path.join(DATA, n)), {}, { allowUnencrypted: true });
    if (WALK_BAD[n]) {
      check(`walker: ${n}: bad CRCs found at the documented pages only`, () => {
        const want = WALK_BAD[n].map(([c, k]) => `row group 0 column ${c} page at ${r.columns[c].pages[k].header}: page CRC`);
        const got = r.errors.map((e) => e.replace(/ [0-9a-f]+ does not match.*/, ''));
        return got.sort().join('\n') === want.sort().join('\n') ? [] : [`errors: ${r.errors.join(' | ')}`];
      });
    } else if (WALK_MALFORMED[n]) {
      check(`walker: ${n}: rejected`, () => mustFail(r, WALK_MALFORMED[n]));
    } else if (r.ok && r.encrypted === false && r.columns.length > 0) {
      clean.push(n);
      if (/-checksum/.test(n) && r.crcChecked === 0)
        bad.push(`${n}: no CRC checked`);
    } else {
      bad.push(`${n}: ${r.errors.slice(0, 2).join(' | ') || `encrypted ${r.encrypted}, ${r.columns.length} columns`}`);
    }
  }
  check(`walker: ${clean.length} unencrypted corpus files walk without errors`, () => bad);
}

function main() {
  checkThrift();
  checkWalker();
  const sets = [[DATA, KEYS_128], [path.join(DATA, 'aes256'), KEYS_256]];
  for (const [dir, set] of sets) {
    const names = fs.readdirSync(dir).filter((n) => n.endsWith('.parquet.encrypted')).sort();
    check(`${path.relative(DATA, dir) || '.'}: has encrypted files`, () => (names.length ? [] : [`none in ${dir}`]));
    for (const n of names)
      checkFile(dir, n, set);
  }
  check('alltypes_plain.parquet: an unencrypted file is reported as such', () => {
    const r = verifyEncryptedFile(fs.readFileSync(path.join(DATA, 'alltypes_plain.parquet')), { footerKey: KEYS_128.footer });
    return r.ok || r.encrypted !== false ? [`ok ${r.ok} encrypted ${r.encrypted}`] : [];
  });
  console.log(`pme-corpus: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
