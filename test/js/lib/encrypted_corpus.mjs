// The encrypted files of the parquet-testing corpus: keys, options and the
// values each must read to, for the conformance suite (compare.mjs).
//
// Keys and AAD prefixes come from data/README.md. The expected values come
// from the generators of the files (Arrow C++ test_encryption_util.cc, whose
// formulas parquet-java's aes256 files follow too, and
// bloom_filter_encryption_test.cc for the bloom filter file: doubles i + 0.5,
// floats i + 0.25), evaluated in DuckDB: an independent computation of every
// value.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ascii = (s) => Buffer.from(s, 'ascii').toString('hex');

// key id -> key, per key set (the aes256 files reuse the ids with other keys)
const KEYS_128 = { kf: '0123456789012345', kc1: '1234567890123450', kc2: '1234567890123451' };
// Under ids of our own, named through the footer_key/column_keys options:
// the files' key_metadata (kf, kc1, ...) finds nothing in this directory.
const KEYS_256 = {
  kf256: '01234567890123456789012345678901',
  ...Object.fromEntries([2, 3, 4, 5, 6, 7, 8, 9].map((d, i) => [`kc${i + 1}_256`, `1234567890123456789012345678901${d}`])),
};
// wrong keys: every id maps to a key of the right size that is not its own
const KEYS_WRONG = { kf: KEYS_128.kc1, kc1: KEYS_128.kf, kc2: KEYS_128.kf };

/** Write the key sets as key files; returns { k128, k256, wrong, none }. */
export function writeKeyDirs() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parquet_fdw_corpus_keys.'));
  fs.chmodSync(root, 0o755);
  const dirs = {};
  for (const [name, keys] of Object.entries({ k128: KEYS_128, k256: KEYS_256, wrong: KEYS_WRONG, none: {} })) {
    const d = path.join(root, name);
    fs.mkdirSync(d, { mode: 0o755 });
    fs.chmodSync(d, 0o755);
    for (const [id, k] of Object.entries(keys)) fs.writeFileSync(path.join(d, `${id}.key`), ascii(k) + '\n', { mode: 0o644 });
    dirs[name] = d;
  }
  dirs.root = root;
  return dirs;
}

// Arrow's FileEncryptor: 50 rows per row group, i counted within the group.
const ARROW_ROWS = `
  WITH g AS (SELECT i FROM range(0, 50) t(i))
  SELECT i % 2 = 0 AS boolean_field,
         TIME '00:00:00' + to_milliseconds(i) AS int32_field,
         [2 * i * 1000000000000, (2 * i + 1) * 1000000000000]::BIGINT[] AS int64_field,
         make_timestamp(((i + 2) - 2440588) * 86400000000 + (((i + 1) * 4294967296 + i) // 1000)) AS int96_field,
         i::FLOAT * 1.1::FLOAT AS float_field,
         i::DOUBLE * 1.1111111 AS double_field,
         CASE WHEN i % 2 = 0 THEN ('parquet' || lpad(i::VARCHAR, 3, '0'))::BLOB END AS ba_field,
         from_hex(repeat(printf('%02x', i), 10)) AS flba_field
  FROM g ORDER BY i`;
// Arrow C++ key_management_test.cc (ReadParquetMRExternalKeyMaterialFile):
// 100 rows, integers = row, strings = "a".."j"[row % 10] || row.
const EXTERNAL_KEY_MATERIAL_ROWS = `
  SELECT i::INTEGER AS integers, chr(97 + (i % 10)::INTEGER) || i::VARCHAR AS strings
  FROM range(0, 100) t(i) ORDER BY i`;
const PLAINTEXT_COLUMNS = ['boolean_field', 'int32_field', 'int96_field', 'ba_field', 'flba_field'];

const BLOOM_ROWS = `
  SELECT i::DOUBLE + 0.5 AS double_field, i::FLOAT + 0.25::FLOAT AS float_field,
         i::INTEGER AS int32_field, 'name_' || i AS name
  FROM range(0, 2000) t(i) ORDER BY i`;

const AES256_OPTIONS = {
  footer_key: 'kf256',
  column_keys: 'double_field:kc1_256, float_field:kc2_256, boolean_field:kc3_256, int32_field:kc4_256, ' +
    'ba_field:kc5_256, flba_field:kc6_256, int64_field.list.element:kc7_256, int96_field:kc8_256',
};

const projected = (cols) => `SELECT ${cols.join(', ')} FROM (${ARROW_ROWS})`;

/**
 * Conformance entries for one encrypted corpus file (rel under the corpus
 * root): each { rel, file, mode, keyDir, keyOptions? ({footer_key,
 * column_keys, aad_prefix}: table options), pgColumns?, referenceSql?,
 * errorCode?, why }.
 */
export function encryptedEntries(rel, file, dirs) {
  const base = path.basename(rel);
  const aes256 = rel.includes('aes256/');
  const keyDir = aes256 ? dirs.k256 : dirs.k128;
  const opts = aes256 ? AES256_OPTIONS : {};
  const rows = (extra = {}) => ({
    rel, file, mode: 'rows', keyDir, keyOptions: opts, referenceSql: ARROW_ROWS,
    referenceName: 'the generator\'s formulas', ...extra,
  });
  const error = (suffix, code, why, extra = {}) => ({
    rel: `${rel} (${suffix})`, file, mode: 'error', errorCode: code, why, keyDir, keyOptions: opts, ...extra,
  });

  if (base.startsWith('external_key_material')) {
    // parquet-java key tools: double-wrapped keys in the key material file
    // beside it, master keys kf, kc1, kc2 (the 128-bit keys above)
    return [
      rows({ referenceSql: EXTERNAL_KEY_MATERIAL_ROWS, referenceName: 'Arrow C++ key_management_test.cc (master keys only)' }),
      error('wrong master keys', 'XX001', 'wrong master keys unwrap nothing', { keyDir: dirs.wrong }),
      error('no master keys', '42704', 'the master key is not registered', { keyDir: dirs.none }),
    ];
  }
  if (base === 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted') {
    // the Bloom filters of the encrypted columns prune (values i + 0.5 and
    // i + 0.25 exist: 5.25 and 5.5 do not)
    return [rows({
      referenceSql: BLOOM_ROWS, referenceName: 'bloom_filter_encryption_test.cc formulas',
      bloomProbes: [
        { qual: 'double_field = 5.25', present: false },
        { qual: 'double_field = 100.5', present: true },
        { qual: 'float_field = 5.5', present: false },
        { qual: 'float_field = 100.25', present: true },
      ],
    })];
  }
  const out = [];
  if (base.includes('disable_aad_storage')) {
    const withPrefix = { ...opts, aad_prefix: 'tester' };
    out.push(rows({ keyOptions: withPrefix }));
    out.push(error('AAD prefix not supplied', '22023', 'the file needs its AAD prefix supplied'));
    out.push(error('wrong AAD prefix', 'XX001', 'a wrong AAD prefix fails authentication',
      { keyOptions: { ...opts, aad_prefix: 'tester2' } }));
    if (!aes256) {
      out.push(error('wrong keys', 'XX001', 'wrong keys fail authentication',
        { keyDir: dirs.wrong, keyOptions: withPrefix }));
    }
  } else {
    out.push(rows());
    if (!aes256) out.push(error('wrong keys', 'XX001', 'wrong keys fail authentication', { keyDir: dirs.wrong }));
  }
  // parquet-java encrypted every column of the aes256 files: none is plaintext
  if (base.includes('plaintext_footer') && !aes256) {
    out.push(rows({
      rel: `${rel} (no keys, plaintext columns)`, keyDir: dirs.none, pgColumns: PLAINTEXT_COLUMNS,
      referenceSql: projected(PLAINTEXT_COLUMNS),
    }));
    out.push(error('no keys, encrypted column', '42704', 'an encrypted column without its key', {
      keyDir: dirs.none, pgColumns: ['double_field'],
    }));
  }
  return out;
}
