/*
 * test_encrypt.c
 *		Parquet Modular Encryption on the write side (format/write/file_encrypt.c):
 *		module layout and AAD checked by decrypting with OpenSSL directly
 *		and an AAD built here byte by byte from the spec, the per-key
 *		invocation limit, 16-bit ordinal limits, column metadata in both
 *		footer modes, the footer signature, option errors, and the keys
 *		zeroed with the memory context.
 */
#include "postgres.h"

#include <openssl/evp.h>

#include "format/write/file_encrypt.h"
#include "unit_test.h"

static PqKey
test_key(int len, uint8 seed)
{
	PqKey		k;
	int			i;

	memset(&k, 0, sizeof(k));
	k.len = len;
	for (i = 0; i < len; i++)
		k.bytes[i] = (uint8) (seed + i * 7);
	return k;
}

static PqEncryptionOptions
base_options(void)
{
	PqEncryptionOptions o;

	memset(&o, 0, sizeof(o));
	o.algorithm = PQ_AES_GCM_V1;
	o.footer_key = test_key(16, 1);
	o.footer_key_metadata.ptr = (const uint8 *) "kf";
	o.footer_key_metadata.len = 2;
	return o;
}

static const char *const paths3[] = {"a", "b.c", "d"};

/* The spec's AAD: file AAD, type, then LE16 row group, column (, page). */
static size_t
spec_aad(const PqFileEncryptor *fe, uint8 *out, int type, int rg, int col,
		 int page)
{
	const PqEncryptionAlgorithm *a = &fe->alg;
	size_t		n = 0;

	/* prefix: what the file stores, else what the test supplied */
	if (a->aad_prefix.len > 0)
	{
		memcpy(out, a->aad_prefix.ptr, a->aad_prefix.len);
		n = a->aad_prefix.len;
	}
	else if (a->supply_aad_prefix)
	{
		memcpy(out, "pre", 3);
		n = 3;
	}
	memcpy(out + n, a->aad_file_unique.ptr, a->aad_file_unique.len);
	n += a->aad_file_unique.len;
	out[n++] = (uint8) type;
	if (type == 0)
		return n;
	out[n++] = rg & 0xff;
	out[n++] = rg >> 8;
	out[n++] = col & 0xff;
	out[n++] = col >> 8;
	if (type == 2 || type == 4)
	{
		out[n++] = page & 0xff;
		out[n++] = page >> 8;
	}
	return n;
}

/*
 * Decrypt a module with OpenSSL (not format/crypto/crypto.c): GCM with the tag checked,
 * or CTR with the IV nonce || 00000001.  Returns the plaintext length, -1
 * when the tag does not verify.
 */
static int
openssl_open(const PqKey *key, bool gcm, const uint8 *aad, size_t aad_len,
			 const uint8 *module, size_t size, uint8 *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	const EVP_CIPHER *c;
	uint32		len = module[0] | (module[1] << 8) | (module[2] << 16) |
		((uint32) module[3] << 24);
	int			ctlen = (int) size - 4 - 12 - (gcm ? 16 : 0);
	int			outl;
	int			ok;

	if (len != size - 4)
		return -2;
	if (key->len == 16)
		c = gcm ? EVP_aes_128_gcm() : EVP_aes_128_ctr();
	else if (key->len == 24)
		c = gcm ? EVP_aes_192_gcm() : EVP_aes_192_ctr();
	else
		c = gcm ? EVP_aes_256_gcm() : EVP_aes_256_ctr();
	if (gcm)
	{
		EVP_DecryptInit_ex(ctx, c, NULL, key->bytes, module + 4);
		EVP_DecryptUpdate(ctx, NULL, &outl, aad, (int) aad_len);
		EVP_DecryptUpdate(ctx, out, &outl, module + 16, ctlen);
		EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16,
							(void *) (module + 16 + ctlen));
		ok = EVP_DecryptFinal_ex(ctx, out + outl, &outl);
	}
	else
	{
		uint8		iv[16];

		memcpy(iv, module + 4, 12);
		iv[12] = iv[13] = iv[14] = 0;
		iv[15] = 1;
		EVP_DecryptInit_ex(ctx, c, NULL, key->bytes, iv);
		EVP_DecryptUpdate(ctx, out, &outl, module + 16, ctlen);
		ok = 1;
	}
	EVP_CIPHER_CTX_free(ctx);
	return ok == 1 ? ctlen : -1;
}

static void
test_module_layout_and_aad(void)
{
	static const char *const plain = "the page bytes";
	PqEncryptionOptions o = base_options();
	PqColumnEncryption cols[2];
	PqFileEncryptor *fe;
	PqBuffer	out;
	uint8		aad[64];
	uint8		dec[64];
	size_t		aad_len;
	int			types[] = {2, 3, 4, 5, 6, 7, 8, 9, 1};
	int			t;

	memset(cols, 0, sizeof(cols));
	cols[0].path = "b.c";
	cols[0].key = test_key(24, 50);
	cols[1].path = "d";
	cols[1].footer_key = true;
	o.columns = cols;
	o.n_columns = 2;
	o.algorithm = PQ_AES_GCM_CTR_V1;
	o.aad_prefix.ptr = (const uint8 *) "pre";
	o.aad_prefix.len = 3;
	o.store_aad_prefix = false;
	fe = pq_file_encryptor_create(&o, 3, paths3);

	CHECK(!pq_encryptor_column_encrypted(fe, 0));
	CHECK(pq_encryptor_column_encrypted(fe, 1));
	CHECK(pq_encryptor_column_encrypted(fe, 2));
	CHECK_EQ_INT(fe->alg.aad_file_unique.len, 8);
	CHECK_EQ_INT(fe->alg.aad_prefix.len, 0);
	CHECK(fe->alg.supply_aad_prefix);
	CHECK_EQ_INT(fe->n_keys, 2);

	for (t = 0; t < lengthof(types); t++)
	{
		int			type = types[t];
		bool		gcm = type != 2 && type != 3;	/* CTR pages */
		int			n;

		pq_buffer_init(&out, 64);
		pq_encrypt_module(fe, type, 300, 1, 7, (const uint8 *) plain,
						  strlen(plain), &out);
		CHECK_EQ_INT(out.len, strlen(plain) + (gcm ? 32 : 16));
		aad_len = spec_aad(fe, aad, type, 300, 1, 7);
		n = openssl_open(&cols[0].key, gcm, aad, aad_len, out.data, out.len,
						 dec);
		CHECK_EQ_INT(n, strlen(plain));
		CHECK(memcmp(dec, plain, n) == 0);
		if (gcm)
		{
			/* another ordinal in the AAD: the tag does not verify */
			aad_len = spec_aad(fe, aad, type, 301, 1, 7);
			CHECK_EQ_INT(openssl_open(&cols[0].key, gcm, aad, aad_len,
									  out.data, out.len, dec), -1);
		}
	}
	/* the footer-key column uses the footer key */
	pq_buffer_init(&out, 64);
	pq_encrypt_module(fe, PQ_MODULE_COLUMN_INDEX, 0, 2, 0,
					  (const uint8 *) plain, strlen(plain), &out);
	aad_len = spec_aad(fe, aad, 6, 0, 2, 0);
	CHECK_EQ_INT(openssl_open(&o.footer_key, true, aad, aad_len, out.data,
							  out.len, dec), strlen(plain));
}

static void
test_fresh_nonces_and_file_unique(void)
{
	PqEncryptionOptions o = base_options();
	PqFileEncryptor *f1 = pq_file_encryptor_create(&o, 3, paths3);
	PqFileEncryptor *f2 = pq_file_encryptor_create(&o, 3, paths3);
	PqBuffer	a;
	PqBuffer	b;

	CHECK(memcmp(f1->alg.aad_file_unique.ptr, f2->alg.aad_file_unique.ptr, 8) != 0);
	pq_buffer_init(&a, 64);
	pq_buffer_init(&b, 64);
	pq_encrypt_module(f1, PQ_MODULE_DATA_PAGE, 0, 0, 0, (const uint8 *) "x", 1, &a);
	pq_encrypt_module(f1, PQ_MODULE_DATA_PAGE, 0, 0, 0, (const uint8 *) "x", 1, &b);
	CHECK(memcmp(a.data + 4, b.data + 4, 12) != 0);
}

static void
test_invocation_limit(void)
{
	PqEncryptionOptions o = base_options();
	PqColumnEncryption cols[2];
	PqFileEncryptor *fe;
	PqBuffer	out;

	/* two columns with the same key bytes (other ids) share one counter */
	memset(cols, 0, sizeof(cols));
	cols[0].path = "a";
	cols[0].key = test_key(32, 9);
	cols[1].path = "d";
	cols[1].key = test_key(32, 9);
	o.columns = cols;
	o.n_columns = 2;
	fe = pq_file_encryptor_create(&o, 3, paths3);
	CHECK_EQ_INT(fe->n_keys, 2);
	CHECK_EQ_INT(fe->col_key[0], fe->col_key[2]);

	pq_buffer_init(&out, 64);
	fe->keys[1].invocations = PQ_KEY_INVOCATION_LIMIT - 3;
	pq_encrypt_module(fe, PQ_MODULE_DATA_PAGE, 0, 0, 0, (const uint8 *) "x", 1, &out);
	pq_encrypt_module(fe, PQ_MODULE_DATA_PAGE_HEADER, 0, 2, 0, (const uint8 *) "x", 1, &out);
	CHECK_ERROR(pq_encrypt_module(fe, PQ_MODULE_DATA_PAGE, 0, 0, 1,
								  (const uint8 *) "x", 1, &out),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	CHECK_ERROR(pq_encrypt_module(fe, PQ_MODULE_OFFSET_INDEX, 0, 2, 0,
								  (const uint8 *) "x", 1, &out),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	CHECK_EQ_INT(fe->keys[1].invocations, PQ_KEY_INVOCATION_LIMIT - 1);
	/* the footer key has its own count */
	pq_encrypt_module(fe, PQ_MODULE_FOOTER, 0, 0, 0, (const uint8 *) "x", 1, &out);
	CHECK_EQ_INT(fe->keys[0].invocations, 1);
}

static void
test_ordinal_limits(void)
{
	PqEncryptionOptions o = base_options();
	PqFileEncryptor *fe = pq_file_encryptor_create(&o, 3, paths3);
	PqBuffer	out;

	pq_buffer_init(&out, 64);
	pq_encrypt_module(fe, PQ_MODULE_DATA_PAGE, 32767, 2, 32767, (const uint8 *) "x", 1, &out);
	CHECK_ERROR(pq_encrypt_module(fe, PQ_MODULE_DATA_PAGE, 32768, 0, 0,
								  (const uint8 *) "x", 1, &out),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	CHECK_ERROR(pq_encrypt_module(fe, PQ_MODULE_DATA_PAGE_HEADER, 0, 0, 32768,
								  (const uint8 *) "x", 1, &out),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	/* the page ordinal is not part of other modules' AAD */
	pq_encrypt_module(fe, PQ_MODULE_DICT_PAGE, 0, 0, 40000, (const uint8 *) "x", 1, &out);
}

static void
column_chunk(PqColumnChunk *cc, char **path)
{
	static PqPageEncodingStats es = {0, 0, 1};

	memset(cc, 0, sizeof(*cc));
	cc->has_meta_data = true;
	cc->meta_data.type = PQ_INT64;
	cc->meta_data.path_in_schema = path;
	cc->meta_data.n_path_in_schema = 2;
	cc->meta_data.num_values = 10;
	cc->meta_data.data_page_offset = 4;
	cc->meta_data.has_statistics = true;
	cc->meta_data.statistics.has_null_count = true;
	cc->meta_data.statistics.null_count = 3;
	cc->meta_data.has_encoding_stats = true;
	cc->meta_data.encoding_stats = &es;
	cc->meta_data.n_encoding_stats = 1;
}

static void
test_column_metadata(void)
{
	static char *path[] = {"b", "c"};
	PqEncryptionOptions o = base_options();
	PqColumnEncryption cols[2];
	PqFileEncryptor *fe;
	PqColumnChunk cc;
	PqBuffer	expect;
	uint8		aad[64];
	uint8		dec[512];
	int			footer;

	memset(cols, 0, sizeof(cols));
	cols[0].path = "b.c";
	cols[0].key = test_key(16, 77);
	cols[0].key_metadata.ptr = (const uint8 *) "k1";
	cols[0].key_metadata.len = 2;
	cols[1].path = "d";
	cols[1].footer_key = true;
	o.columns = cols;
	o.n_columns = 2;

	for (footer = 0; footer < 2; footer++)
	{
		o.plaintext_footer = footer == 1;
		fe = pq_file_encryptor_create(&o, 3, paths3);

		/* plaintext column: untouched */
		column_chunk(&cc, path);
		pq_encryptor_column_chunk(fe, 0, 0, &cc);
		CHECK_EQ_INT(cc.crypto_metadata.kind, PQ_CRYPTO_NONE);
		CHECK(cc.meta_data.has_statistics && cc.encrypted_column_metadata.ptr == NULL);

		/* column key: metadata encrypted with it, AAD type 1 */
		column_chunk(&cc, path);
		pq_buffer_init(&expect, 64);
		pq_write_column_metadata(&expect, &cc.meta_data);
		pq_encryptor_column_chunk(fe, 5, 1, &cc);
		CHECK_EQ_INT(cc.crypto_metadata.kind, PQ_CRYPTO_COLUMN_KEY);
		CHECK_EQ_INT(cc.crypto_metadata.n_path_in_schema, 2);
		CHECK_EQ_INT(cc.crypto_metadata.key_metadata.len, 2);
		CHECK(cc.encrypted_column_metadata.ptr != NULL);
		CHECK_EQ_INT(openssl_open(&cols[0].key, true, aad,
								  spec_aad(fe, aad, 1, 5, 1, 0),
								  cc.encrypted_column_metadata.ptr,
								  cc.encrypted_column_metadata.len, dec),
					 expect.len);
		CHECK(memcmp(dec, expect.data, expect.len) == 0);
		/* encrypted footer: no plaintext copy; plaintext: no statistics */
		CHECK_EQ_INT(cc.has_meta_data, footer == 1);
		CHECK(!cc.meta_data.has_statistics || footer == 0);
		CHECK(!cc.meta_data.has_encoding_stats || footer == 0);

		/* footer key: in place under an encrypted footer */
		column_chunk(&cc, path);
		pq_encryptor_column_chunk(fe, 0, 2, &cc);
		CHECK_EQ_INT(cc.crypto_metadata.kind, PQ_CRYPTO_FOOTER_KEY);
		CHECK_EQ_INT(cc.encrypted_column_metadata.ptr != NULL, footer == 1);
		CHECK(cc.has_meta_data);
		CHECK_EQ_INT(cc.meta_data.has_statistics, footer == 0);
	}
}

static void
test_footer_modes(void)
{
	PqEncryptionOptions o = base_options();
	PqFileMetaData md;
	PqFileEncryptor *fe;
	PqBuffer	out;
	PqBuffer	plain;
	PqFileMetaData back;
	uint8		aad[64];
	uint8		dec[512];
	uint8		tag[16];
	EVP_CIPHER_CTX *ctx;
	int			outl;
	size_t		used;
	PqFileCryptoMetaData fcmd;

	memset(&md, 0, sizeof(md));
	md.version = 1;
	md.num_rows = 0;
	md.created_by = "test";

	/* encrypted footer: FileCryptoMetaData, then the footer module */
	fe = pq_file_encryptor_create(&o, 3, paths3);
	CHECK(strcmp(pq_encryptor_magic(fe), "PARE") == 0);
	pq_buffer_init(&out, 64);
	pq_encryptor_footer(fe, &md, &out);
	used = pq_read_file_crypto_metadata(out.data, out.len, &fcmd);
	CHECK_EQ_INT(fcmd.encryption_algorithm.kind, PQ_AES_GCM_V1);
	CHECK_EQ_INT(fcmd.key_metadata.len, 2);
	CHECK(memcmp(fcmd.key_metadata.ptr, "kf", 2) == 0);
	pq_buffer_init(&plain, 64);
	pq_write_file_metadata(&plain, &md);
	CHECK_EQ_INT(openssl_open(&o.footer_key, true, aad,
							  spec_aad(fe, aad, 0, 0, 0, 0),
							  out.data + used, out.len - used, dec),
				 plain.len);
	CHECK(memcmp(dec, plain.data, plain.len) == 0);

	/* plaintext footer: FileMetaData naming the algorithm, then nonce+tag */
	o.plaintext_footer = true;
	o.aad_prefix.ptr = (const uint8 *) "stored";
	o.aad_prefix.len = 6;
	o.store_aad_prefix = true;
	fe = pq_file_encryptor_create(&o, 3, paths3);
	CHECK(strcmp(pq_encryptor_magic(fe), "PAR1") == 0);
	pq_buffer_init(&out, 64);
	pq_encryptor_footer(fe, &md, &out);
	used = pq_read_file_metadata(out.data, out.len, &back);
	CHECK_EQ_INT(out.len - used, 28);
	CHECK_EQ_INT(back.encryption_algorithm.kind, PQ_AES_GCM_V1);
	CHECK_EQ_INT(back.encryption_algorithm.aad_prefix.len, 6);
	CHECK(!back.encryption_algorithm.supply_aad_prefix);
	CHECK_EQ_INT(back.footer_signing_key_metadata.len, 2);
	ctx = EVP_CIPHER_CTX_new();
	EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, o.footer_key.bytes,
					   out.data + used);
	EVP_EncryptUpdate(ctx, NULL, &outl, aad, (int) spec_aad(fe, aad, 0, 0, 0, 0));
	{
		uint8	   *scratch = palloc(used + 16);

		EVP_EncryptUpdate(ctx, scratch, &outl, out.data, (int) used);
	}
	EVP_EncryptFinal_ex(ctx, dec, &outl);
	EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag);
	EVP_CIPHER_CTX_free(ctx);
	CHECK(memcmp(tag, out.data + used + 12, 16) == 0);
	CHECK_EQ_INT(fe->keys[0].invocations, 1);
}

static void
test_option_errors(void)
{
	PqEncryptionOptions o = base_options();
	PqColumnEncryption cols[2];

	memset(cols, 0, sizeof(cols));
	cols[0].path = "nope";
	cols[0].key = test_key(16, 3);
	o.columns = cols;
	o.n_columns = 1;
	CHECK_ERROR(pq_file_encryptor_create(&o, 3, paths3), ERRCODE_UNDEFINED_COLUMN);
	cols[0].path = "a";
	cols[1].path = "a";
	cols[1].footer_key = true;
	o.n_columns = 2;
	CHECK_ERROR(pq_file_encryptor_create(&o, 3, paths3), ERRCODE_DUPLICATE_COLUMN);
	o.n_columns = 1;
	cols[0].key.len = 20;
	CHECK_ERROR(pq_file_encryptor_create(&o, 3, paths3), ERRCODE_INVALID_PARAMETER_VALUE);
	o = base_options();
	o.footer_key.len = 0;
	CHECK_ERROR(pq_file_encryptor_create(&o, 3, paths3), ERRCODE_INVALID_PARAMETER_VALUE);
	o = base_options();
	o.algorithm = 3;
	CHECK_ERROR(pq_file_encryptor_create(&o, 3, paths3), ERRCODE_INVALID_PARAMETER_VALUE);
}

/* A group's path stands for its leaves; a prefix of a name is no match. */
static void
test_group_paths(void)
{
	static const char *const paths[] = {"rec.x", "rec.y", "recx", "l.list.element"};
	PqEncryptionOptions o = base_options();
	PqColumnEncryption cols[2];
	PqFileEncryptor *fe;

	memset(cols, 0, sizeof(cols));
	cols[0].path = "rec";
	cols[0].key = test_key(16, 5);
	cols[1].path = "l.list";
	cols[1].footer_key = true;
	o.columns = cols;
	o.n_columns = 2;
	fe = pq_file_encryptor_create(&o, 4, paths);
	CHECK_EQ_INT(fe->col_kind[0], PQ_CRYPTO_COLUMN_KEY);
	CHECK_EQ_INT(fe->col_kind[1], PQ_CRYPTO_COLUMN_KEY);
	CHECK_EQ_INT(fe->col_kind[2], PQ_CRYPTO_NONE);
	CHECK_EQ_INT(fe->col_kind[3], PQ_CRYPTO_FOOTER_KEY);
	cols[1].path = "rec.y";
	CHECK_ERROR(pq_file_encryptor_create(&o, 4, paths), ERRCODE_DUPLICATE_COLUMN);
	cols[1].path = "re";
	CHECK_ERROR(pq_file_encryptor_create(&o, 4, paths), ERRCODE_UNDEFINED_COLUMN);
}

/* Deleting the writer's memory context zeroes every key. */
static void
test_keys_zeroed(void)
{
	PqEncryptionOptions o = base_options();
	PqColumnEncryption cols[1];
	PqFileEncryptor *fe;
	PqKeyUse	zero;
	int			i;

	memset(cols, 0, sizeof(cols));
	cols[0].path = "d";
	cols[0].key = test_key(32, 99);
	o.columns = cols;
	o.n_columns = 1;
	fe = pq_file_encryptor_create(&o, 3, paths3);
	CHECK_EQ_INT(fe->n_keys, 2);
	CHECK(memcmp(fe->keys[1].key.bytes, cols[0].key.bytes, 32) == 0);
	shim_run_reset_callbacks();
	memset(&zero, 0, sizeof(zero));
	for (i = 0; i < fe->n_keys; i++)
		CHECK(memcmp(&fe->keys[i], &zero, sizeof(zero)) == 0);
}

void
suite_encrypt(void)
{
	ut_run("encrypt_module_layout_and_aad", test_module_layout_and_aad);
	ut_run("encrypt_fresh_nonces_and_file_unique", test_fresh_nonces_and_file_unique);
	ut_run("encrypt_invocation_limit", test_invocation_limit);
	ut_run("encrypt_ordinal_limits", test_ordinal_limits);
	ut_run("encrypt_column_metadata", test_column_metadata);
	ut_run("encrypt_footer_modes", test_footer_modes);
	ut_run("encrypt_option_errors", test_option_errors);
	ut_run("encrypt_group_paths", test_group_paths);
	ut_run("encrypt_keys_zeroed", test_keys_zeroed);
}
