/*-------------------------------------------------------------------------
 *
 * file_encrypt.c
 *		Parquet Modular Encryption on the write side: keys per column,
 *		file AAD, module encryption with invocation counting, encrypted
 *		column metadata and both footer modes.
 *
 * Which ColumnChunk fields an encrypted column gets (Encryption spec 5.3,
 * as Arrow C++ and parquet-java write them):
 *
 *	footer		column key		crypto_metadata		meta_data		encrypted_column_metadata
 *	encrypted	= footer key	FOOTER_KEY			complete		-
 *	encrypted	own key			COLUMN_KEY			-				column key
 *	plaintext	= footer key	FOOTER_KEY			no statistics	footer key
 *	plaintext	own key			COLUMN_KEY			no statistics	column key
 *
 * "No statistics" leaves out everything that describes the values
 * (statistics, encoding_stats, size and geospatial statistics); offsets
 * and sizes stay so that older readers can still skip the chunk.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/write/file_encrypt.h"
#include "utils/memutils.h"

/* Bytes of aad_file_unique (Arrow C++ and parquet-java use 8). */
#define PQ_FILE_UNIQUE_LEN 8

/* column: the column whose key it is, or NULL for the footer key */
static void
check_key(const PqKey *key, const char *column)
{
	if (key->len != 16 && key->len != 24 && key->len != 32)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 column ?
				 errmsg("the key of column \"%s\" must be an AES key of 128, 192 or 256 bits",
						column) :
				 errmsg("the footer key must be an AES key of 128, 192 or 256 bits")));
}

static PqBytes
copy_bytes(PqBytes b)
{
	PqBytes		out = {NULL, 0};
	uint8	   *p;

	if (b.len <= 0)
		return out;
	p = palloc(b.len);
	memcpy(p, b.ptr, b.len);
	out.ptr = p;
	out.len = b.len;
	return out;
}

/* The key slot holding key, added if it is new (counters are per key). */
static int
key_slot(PqFileEncryptor *fe, const PqKey *key)
{
	int			i;

	for (i = 0; i < fe->n_keys; i++)
		if (fe->keys[i].key.len == key->len &&
			memcmp(fe->keys[i].key.bytes, key->bytes, key->len) == 0)
			return i;
	fe->keys[fe->n_keys].key = *key;
	fe->keys[fe->n_keys].invocations = 0;
	return fe->n_keys++;
}

/* Memory context callback: no key outlives the writer. */
static void
forget_keys(void *arg)
{
	PqFileEncryptor *fe = (PqFileEncryptor *) arg;

	explicit_bzero(fe->keys, sizeof(PqKeyUse) * fe->n_keys);
	pq_crypto_forget();
}

PqFileEncryptor *
pq_file_encryptor_create(const PqEncryptionOptions *opts, int ncols,
						 const char *const *paths)
{
	PqFileEncryptor *fe = palloc0(sizeof(PqFileEncryptor));
	MemoryContextCallback *cb = palloc0(sizeof(MemoryContextCallback));
	uint8	   *unique = palloc(PQ_FILE_UNIQUE_LEN);
	size_t		prefix_len = opts->aad_prefix.len > 0 ? opts->aad_prefix.len : 0;
	int			i;
	int			c;

	/* zeroed with the writer's context, whatever happens from here on */
	fe->keys = palloc0(sizeof(PqKeyUse) * (opts->n_columns + 1));
	cb->func = forget_keys;
	cb->arg = fe;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);

	if (opts->algorithm != PQ_AES_GCM_V1 && opts->algorithm != PQ_AES_GCM_CTR_V1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown Parquet encryption algorithm %d", opts->algorithm)));
	check_key(&opts->footer_key, NULL);
	fe->algorithm = opts->algorithm;
	fe->plaintext_footer = opts->plaintext_footer;
	fe->footer_key_metadata = copy_bytes(opts->footer_key_metadata);
	(void) key_slot(fe, &opts->footer_key);

	/* file AAD: prefix + fresh random aad_file_unique */
	pq_crypto_random(unique, PQ_FILE_UNIQUE_LEN);
	fe->file_aad_len = prefix_len + PQ_FILE_UNIQUE_LEN;
	fe->file_aad = palloc(fe->file_aad_len);
	if (prefix_len > 0)
		memcpy(fe->file_aad, opts->aad_prefix.ptr, prefix_len);
	memcpy(fe->file_aad + prefix_len, unique, PQ_FILE_UNIQUE_LEN);
	fe->aad = palloc(fe->file_aad_len + 7);
	fe->alg.kind = opts->algorithm;
	fe->alg.aad_file_unique.ptr = unique;
	fe->alg.aad_file_unique.len = PQ_FILE_UNIQUE_LEN;
	if (prefix_len > 0 && opts->store_aad_prefix)
		fe->alg.aad_prefix = copy_bytes(opts->aad_prefix);
	fe->alg.supply_aad_prefix = prefix_len > 0 && !opts->store_aad_prefix;

	fe->ncols = ncols;
	fe->col_key = palloc(sizeof(int) * Max(ncols, 1));
	fe->col_kind = palloc(sizeof(int) * Max(ncols, 1));
	fe->col_key_metadata = palloc0(sizeof(PqBytes) * Max(ncols, 1));
	for (c = 0; c < ncols; c++)
	{
		/* no column list: everything under the footer key */
		fe->col_key[c] = opts->n_columns == 0 ? 0 : -1;
		fe->col_kind[c] = opts->n_columns == 0 ? PQ_CRYPTO_FOOTER_KEY :
			PQ_CRYPTO_NONE;
	}
	for (i = 0; i < opts->n_columns; i++)
	{
		const PqColumnEncryption *ce = &opts->columns[i];
		size_t		plen = strlen(ce->path);
		int			k = -1;
		bool		found = false;

		if (!ce->footer_key)
		{
			check_key(&ce->key, ce->path);
			k = key_slot(fe, &ce->key);
		}
		for (c = 0; c < ncols; c++)
		{
			/* a leaf, or every leaf of a group */
			if (strncmp(paths[c], ce->path, plen) != 0 ||
				(paths[c][plen] != '\0' && paths[c][plen] != '.'))
				continue;
			found = true;
			if (fe->col_key[c] >= 0)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_COLUMN),
						 errmsg("column \"%s\" is named for encryption more than once",
								paths[c])));
			fe->col_key[c] = ce->footer_key ? 0 : k;
			fe->col_kind[c] = ce->footer_key ? PQ_CRYPTO_FOOTER_KEY :
				PQ_CRYPTO_COLUMN_KEY;
			if (!ce->footer_key)
				fe->col_key_metadata[c] = copy_bytes(ce->key_metadata);
		}
		if (!found)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("column \"%s\" named for encryption is not a column of the Parquet file",
							ce->path)));
	}
	return fe;
}

const char *
pq_encryptor_magic(const PqFileEncryptor *fe)
{
	return fe->plaintext_footer ? "PAR1" : "PARE";
}

/* Count one use of key slot k, refusing the one that reaches the limit. */
static const PqKey *
use_key(PqFileEncryptor *fe, int k)
{
	if (fe->keys[k].invocations >= PQ_KEY_INVOCATION_LIMIT - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("an encryption key of the Parquet file has reached its limit of 2^32 encryptions"),
				 errhint("Write the data to several files, or with larger pages.")));
	fe->keys[k].invocations++;
	return &fe->keys[k].key;
}

/* The AAD ordinals are 16-bit: say what to change when they do not fit. */
static void
check_ordinals(PqModuleType type, int row_group, int column, int page)
{
	if (type == PQ_MODULE_FOOTER)
		return;
	if (row_group > PG_INT16_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("an encrypted Parquet file can hold at most %d row groups",
						PG_INT16_MAX + 1),
				 errhint("Use a larger row group size.")));
	if (column > PG_INT16_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("an encrypted Parquet file can hold at most %d columns",
						PG_INT16_MAX + 1)));
	if (pq_module_has_page_ordinal(type) && page > PG_INT16_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("an encrypted Parquet column chunk can hold at most %d data pages",
						PG_INT16_MAX + 1),
				 errhint("Use a larger data page size or a smaller row group size.")));
}

void
pq_encrypt_module(PqFileEncryptor *fe, PqModuleType type, int row_group,
				  int column, int page, const uint8 *in, size_t len,
				  PqBuffer *out)
{
	bool		is_page = type == PQ_MODULE_DATA_PAGE || type == PQ_MODULE_DICT_PAGE;
	bool		gcm = !is_page || fe->algorithm == PQ_AES_GCM_V1;
	int			k = type == PQ_MODULE_FOOTER ? 0 : fe->col_key[column];
	size_t		aad_len;

	Assert(k >= 0);
	check_ordinals(type, row_group, column, page);
	aad_len = pq_crypto_aad(fe->aad, fe->file_aad, fe->file_aad_len, type,
							row_group, column, page);
	pq_buffer_reserve(out, len + PQ_GCM_OVERHEAD);
	out->len += pq_crypto_encrypt(use_key(fe, k), gcm, fe->aad, aad_len, in,
								  len, out->data + out->len);
}

void
pq_encryptor_column_chunk(PqFileEncryptor *fe, int row_group, int column,
						  PqColumnChunk *cc)
{
	int			kind = fe->col_kind[column];
	PqBuffer	plain;
	PqBuffer	sealed;

	if (kind == PQ_CRYPTO_NONE)
		return;
	cc->crypto_metadata.kind = kind;
	if (kind == PQ_CRYPTO_COLUMN_KEY)
	{
		cc->crypto_metadata.path_in_schema = cc->meta_data.path_in_schema;
		cc->crypto_metadata.n_path_in_schema = cc->meta_data.n_path_in_schema;
		cc->crypto_metadata.key_metadata = fe->col_key_metadata[column];
	}
	/* an encrypted footer already protects metadata under its own key */
	if (!fe->plaintext_footer && kind == PQ_CRYPTO_FOOTER_KEY)
		return;

	pq_buffer_init(&plain, 256);
	pq_write_column_metadata(&plain, &cc->meta_data);
	pq_buffer_init(&sealed, plain.len + PQ_GCM_OVERHEAD);
	pq_encrypt_module(fe, PQ_MODULE_COLUMN_META, row_group, column, 0,
					  plain.data, plain.len, &sealed);
	pfree(plain.data);
	cc->encrypted_column_metadata.ptr = sealed.data;
	cc->encrypted_column_metadata.len = (int32) sealed.len;
	if (!fe->plaintext_footer)
		cc->has_meta_data = false;
	else
	{
		cc->meta_data.has_statistics = false;
		cc->meta_data.has_encoding_stats = false;
		cc->meta_data.has_size_statistics = false;
		cc->meta_data.has_geospatial_statistics = false;
	}
}

void
pq_encryptor_footer(PqFileEncryptor *fe, PqFileMetaData *md, PqBuffer *out)
{
	if (!fe->plaintext_footer)
	{
		PqFileCryptoMetaData fcmd;
		PqBuffer	plain;

		memset(&fcmd, 0, sizeof(fcmd));
		fcmd.encryption_algorithm = fe->alg;
		fcmd.key_metadata = fe->footer_key_metadata;
		pq_write_file_crypto_metadata(out, &fcmd);
		pq_buffer_init(&plain, 4096);
		pq_write_file_metadata(&plain, md);
		pq_encrypt_module(fe, PQ_MODULE_FOOTER, 0, 0, 0, plain.data,
						  plain.len, out);
		pfree(plain.data);
	}
	else
	{
		size_t		start = out->len;
		size_t		aad_len;
		uint8		nonce[PQ_NONCE_LEN];
		uint8		tag[PQ_TAG_LEN];

		md->encryption_algorithm = fe->alg;
		md->footer_signing_key_metadata = fe->footer_key_metadata;
		pq_write_file_metadata(out, md);
		/* the signature: nonce and tag of a GCM encryption of the footer */
		pq_crypto_random(nonce, PQ_NONCE_LEN);
		aad_len = pq_crypto_aad(fe->aad, fe->file_aad, fe->file_aad_len,
								PQ_MODULE_FOOTER, 0, 0, 0);
		pq_crypto_gcm_tag(use_key(fe, 0), nonce, fe->aad, aad_len,
						  out->data + start, out->len - start, tag);
		pq_buffer_append(out, nonce, PQ_NONCE_LEN);
		pq_buffer_append(out, tag, PQ_TAG_LEN);
	}
}
