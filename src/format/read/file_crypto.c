/*-------------------------------------------------------------------------
 *
 * file_crypto.c
 *		Parquet Modular Encryption on the read side: file AAD, footer
 *		decryption and signature, column keys and metadata, modules.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/read/file_crypto.h"
#include "format/read/file_reader.h"

const char *
pq_module_name(PqModuleType type)
{
	static const char *const names[] = {
		"footer", "column metadata", "data page", "dictionary page",
		"data page header", "dictionary page header", "column index",
		"offset index", "bloom filter header", "bloom filter bitset"
	};

	if ((int) type >= 0 && (int) type < (int) lengthof(names))
		return names[type];
	return "module";
}

static bool
get_key(const PqFileCrypto *fc, const PqBytes *key_metadata,
		const char *column, bool required, PqKey *out)
{
	const PqDecryptionConfig *config = fc->config;

	if (config != NULL && config->get_key != NULL)
		return config->get_key(config->arg, fc->file_name, key_metadata,
							   column, required, out);
	if (required)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("no decryption key is available for %s%s%s of Parquet file \"%s\"",
						column ? "column \"" : "the footer",
						column ? column : "", column ? "\"" : "",
						fc->file_name)));
	return false;
}

/*
 * Zero the keys a file's decryption state holds when its memory goes away
 * (normal end, error or cancel alike).
 */
static void
forget_keys(void *arg)
{
	PqFileCrypto *fc = arg;
	size_t		i;

	explicit_bzero(&fc->footer_key, sizeof(PqKey));
	if (fc->chunk_cipher)
		for (i = 0; i < fc->n_chunks; i++)
			if (fc->chunk_cipher[i])
				explicit_bzero(&fc->chunk_cipher[i]->key, sizeof(PqKey));
}

PqFileCrypto *
pq_file_crypto_create(const PqEncryptionAlgorithm *alg, bool footer_encrypted,
					  const PqDecryptionConfig *config, const char *file_name)
{
	PqFileCrypto *fc = palloc0(sizeof(PqFileCrypto));
	MemoryContextCallback *cb = palloc0(sizeof(MemoryContextCallback));
	const uint8 *prefix = NULL;
	size_t		prefix_len = 0;

	cb->func = forget_keys;
	cb->arg = fc;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);

	if (alg->kind != PQ_AES_GCM_V1 && alg->kind != PQ_AES_GCM_CTR_V1)
		pq_unsupported("encryption algorithm %d is not supported", alg->kind);
	fc->algorithm = alg->kind;
	fc->footer_encrypted = footer_encrypted;
	fc->config = config;
	fc->file_name = file_name;

	if (alg->aad_prefix.len > 0)
	{
		prefix = alg->aad_prefix.ptr;
		prefix_len = alg->aad_prefix.len;
		if (config && config->aad_prefix &&
			(config->aad_prefix_len != prefix_len ||
			 memcmp(config->aad_prefix, prefix, prefix_len) != 0))
			pq_auth_failure("the AAD prefix supplied differs from the one stored in the file");
	}
	else if (config && config->aad_prefix)
	{
		prefix = config->aad_prefix;
		prefix_len = config->aad_prefix_len;
	}
	else if (alg->supply_aad_prefix)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Parquet file \"%s\" is encrypted with an AAD prefix that is not stored in the file",
						fc->file_name),
				 errhint("Supply the AAD prefix the file was written with (option aad_prefix).")));

	fc->file_aad_len = prefix_len + alg->aad_file_unique.len;
	fc->file_aad = palloc(Max(fc->file_aad_len, 1));
	if (prefix_len > 0)
		memcpy(fc->file_aad, prefix, prefix_len);
	if (alg->aad_file_unique.len > 0)
		memcpy(fc->file_aad + prefix_len, alg->aad_file_unique.ptr,
			   alg->aad_file_unique.len);
	return fc;
}

uint8 *
pq_file_crypto_footer(PqFileCrypto *fc, const PqBytes *key_metadata,
					  const uint8 *module, size_t avail, size_t *len)
{
	uint8	   *aadbuf = palloc(fc->file_aad_len + 7);
	size_t		aad_len;
	size_t		size;
	uint8	   *out;

	get_key(fc, key_metadata, NULL, true, &fc->footer_key);
	fc->has_footer_key = true;
	size = pq_crypto_module_size(module, avail, true, "footer");
	if (size != avail)
		pq_corrupt("encrypted footer of %zu bytes does not fill the %zu bytes before the file's end",
				   size, avail);
	aad_len = pq_crypto_aad(aadbuf, fc->file_aad, fc->file_aad_len,
							PQ_MODULE_FOOTER, 0, 0, 0);
	out = palloc_extended(Max(size - PQ_GCM_OVERHEAD, 1), MCXT_ALLOC_HUGE);
	*len = pq_crypto_decrypt(&fc->footer_key, true, aadbuf, aad_len, module,
							 size, out, "footer");
	return out;
}

bool
pq_file_crypto_verify_footer(PqFileCrypto *fc, const PqBytes *key_metadata,
							 const uint8 *footer, size_t len,
							 const uint8 *signature)
{
	uint8	   *aad = palloc(fc->file_aad_len + 7);
	size_t		aad_len;
	uint8		tag[PQ_TAG_LEN];

	if (!get_key(fc, key_metadata, NULL, false, &fc->footer_key))
		return false;
	fc->has_footer_key = true;
	aad_len = pq_crypto_aad(aad, fc->file_aad, fc->file_aad_len,
							PQ_MODULE_FOOTER, 0, 0, 0);
	pq_crypto_gcm_tag(&fc->footer_key, signature, aad, aad_len, footer, len,
					  tag);
	if (memcmp(tag, signature + PQ_NONCE_LEN, PQ_TAG_LEN) != 0)
		pq_auth_failure("the plaintext footer's signature does not verify");
	pfree(aad);
	return true;
}

void
pq_file_crypto_init_chunks(PqFile *file)
{
	PqFileCrypto *fc = file->crypto;
	size_t		n = (size_t) file->md.n_row_groups * file->schema->n_columns;

	fc->n_chunks = n;
	fc->chunk_meta = palloc_extended(sizeof(PqColumnMetaData *) * Max(n, 1),
									 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	fc->chunk_cipher = palloc_extended(sizeof(PqChunkCipher *) * Max(n, 1),
									   MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
}

/* The row group ordinal of the AAD: RowGroup.ordinal when the file has it. */
static int
row_group_ordinal(const PqFile *file, int row_group)
{
	const PqRowGroup *g = &file->md.row_groups[row_group];

	return g->has_ordinal ? g->ordinal : row_group;
}

const PqChunkCipher *
pq_file_chunk_cipher(const PqFile *file, int row_group, int column)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[column];
	PqFileCrypto *fc = file->crypto;
	size_t		slot;
	PqChunkCipher *c;
	MemoryContext old;

	if (cc->crypto_metadata.kind == PQ_CRYPTO_NONE)
		return NULL;
	if (fc == NULL)
		pq_corrupt("column chunk is encrypted, but the file names no encryption algorithm");
	slot = (size_t) row_group * file->schema->n_columns + column;
	if (fc->chunk_cipher[slot])
		return fc->chunk_cipher[slot];

	old = MemoryContextSwitchTo(file->cxt);
	c = palloc0(sizeof(PqChunkCipher));
	if (cc->crypto_metadata.kind == PQ_CRYPTO_FOOTER_KEY)
	{
		if (!fc->has_footer_key)
		{
			get_key(fc, &file->md.footer_signing_key_metadata,
					NULL, true, &fc->footer_key);
			fc->has_footer_key = true;
		}
		c->key = fc->footer_key;
	}
	else
		get_key(fc, &cc->crypto_metadata.key_metadata,
				file->schema->columns[column].path, true, &c->key);
	c->gcm_pages = fc->algorithm == PQ_AES_GCM_V1;
	c->file_aad = fc->file_aad;
	c->file_aad_len = fc->file_aad_len;
	c->row_group = row_group_ordinal(file, row_group);
	c->column = column;
	fc->chunk_cipher[slot] = c;
	MemoryContextSwitchTo(old);
	return c;
}

static bool
module_is_page(PqModuleType type)
{
	return type == PQ_MODULE_DATA_PAGE || type == PQ_MODULE_DICT_PAGE;
}

size_t
pq_chunk_module_size(const PqChunkCipher *c, PqModuleType type,
					 const uint8 *p, size_t avail)
{
	bool		gcm = !module_is_page(type) || c->gcm_pages;

	return pq_crypto_module_size(p, avail, gcm, pq_module_name(type));
}

uint8 *
pq_chunk_decrypt(const PqChunkCipher *c, PqModuleType type, int page,
				 const uint8 *p, size_t avail, size_t *consumed, size_t *len)
{
	bool		gcm = !module_is_page(type) || c->gcm_pages;
	size_t		size = pq_crypto_module_size(p, avail, gcm, pq_module_name(type));
	uint8	   *aad = palloc(c->file_aad_len + 7);
	size_t		aad_len;
	uint8	   *out;

	aad_len = pq_crypto_aad(aad, c->file_aad, c->file_aad_len, type,
							c->row_group, c->column, page);
	out = palloc_extended(Max(size, 1), MCXT_ALLOC_HUGE);
	*len = pq_crypto_decrypt(&c->key, gcm, aad, aad_len, p, size, out,
							 pq_module_name(type));
	*consumed = size;
	pfree(aad);
	return out;
}
