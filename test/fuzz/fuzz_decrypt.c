/*
 * fuzz_decrypt.c
 *		Parquet Modular Encryption with a fixed test key.  Random bytes
 *		never pass a GCM tag, so the harness encrypts the input as a real
 *		writer would, with the right AAD, and the reader decrypts it and
 *		decodes what is behind:
 *
 *		mode 0  an encrypted footer: a PARE file whose FileCryptoMetaData
 *				(AES_GCM_V1 or AES_GCM_CTR_V1, an input aad_file_unique)
 *				precedes the footer module; the file is opened (FileMetaData,
 *				schema, column crypto metadata) and its chunks read;
 *		mode 1  a module of a column chunk (type, row group, column and page
 *				ordinal from the input): decrypted, then decoded as the
 *				Thrift struct the type holds; with a bit flipped after
 *				encryption a GCM module must fail its tag;
 *		mode 2  the input as a module as it is (length prefix, nonce).
 */
#include "fuzz.h"

#include "format/read/column_reader.h"
#include "format/read/file_reader.h"

static const uint8 test_key[16] = "0123456789012345";

static bool
get_key(void *arg, const char *file, const PqBytes *key_metadata,
		const char *column, bool required, PqKey *out)
{
	memcpy(out->bytes, test_key, sizeof(test_key));
	out->len = sizeof(test_key);
	return true;
}

static void
mem_read(PqSource *src, int64 offset, size_t len, uint8 *buf)
{
	const PqBuffer *file = src->opaque;

	if (offset < 0 || (uint64) offset > file->len || len > file->len - offset)
		pq_corrupt("read past the end");
	memcpy(buf, file->data + offset, len);
}

static PqKey
key(void)
{
	PqKey		k;

	memcpy(k.bytes, test_key, sizeof(test_key));
	k.len = sizeof(test_key);
	return k;
}

/* Encrypt in as a module of type with the AAD the reader will build. */
static uint8 *
encrypt_module(bool gcm, const uint8 *file_aad, size_t file_aad_len,
			   PqModuleType type, int rg, int col, int page,
			   const uint8 *in, size_t len, size_t *size)
{
	uint8	   *aad = palloc(file_aad_len + 7);
	size_t		aad_len = pq_crypto_aad(aad, file_aad, file_aad_len, type,
										rg, col, page);
	uint8	   *out = palloc(len + PQ_GCM_OVERHEAD);
	PqKey		k = key();

	*size = pq_crypto_encrypt(&k, gcm, aad, aad_len, in, len, out);
	return out;
}

static void
encrypted_footer(FuzzInput *in)
{
	PqFileCryptoMetaData fcmd;
	PqBuffer	file;
	PqBuffer	crypto_md;
	PqDecryptionConfig config = {get_key, NULL, NULL, 0};
	PqSource	src = {0};
	size_t		unique_len;
	uint8	   *unique;
	size_t		plain_len;
	uint8	   *plain;
	size_t		module_len;
	uint8	   *module;
	uint8		len4[4];
	PqFile	   *f;
	int			rg;
	int			c;

	memset(&fcmd, 0, sizeof(fcmd));
	fcmd.encryption_algorithm.kind = (fuzz_byte(in) & 1) ? PQ_AES_GCM_CTR_V1 : PQ_AES_GCM_V1;
	unique = fuzz_bytes(in, fuzz_byte(in) % 16, &unique_len);
	fcmd.encryption_algorithm.aad_file_unique.ptr = unique;
	fcmd.encryption_algorithm.aad_file_unique.len = unique_len;
	plain = fuzz_bytes(in, in->left, &plain_len);

	pq_buffer_init(&crypto_md, 64);
	pq_write_file_crypto_metadata(&crypto_md, &fcmd);
	module = encrypt_module(true, unique, unique_len, PQ_MODULE_FOOTER, 0, 0, 0,
							plain, plain_len, &module_len);
	pq_buffer_init(&file, 64);
	pq_buffer_append(&file, "PARE", 4);
	pq_buffer_append(&file, crypto_md.data, crypto_md.len);
	pq_buffer_append(&file, module, module_len);
	pq_store_le32(len4, (uint32) (crypto_md.len + module_len));
	pq_buffer_append(&file, len4, 4);
	pq_buffer_append(&file, "PARE", 4);

	src.name = "fuzz.parquet.encrypted";
	src.size = file.len;
	src.read = mem_read;
	src.opaque = &file;
	src.decrypt = &config;
	f = pq_file_open(&src);
	for (rg = 0; rg < f->md.n_row_groups; rg++)
		for (c = 0; c < f->schema->n_columns; c++)
		{
			PqColumnReader *r = pq_column_reader_create(f, c, CurrentMemoryContext);
			PqSegment	seg;

			pq_column_reader_start(r, rg);
			while (pq_column_reader_next(r, PQ_SEGMENT_CAP, &seg) > 0)
				;
		}
}

static void
chunk_module(FuzzInput *in, bool as_is)
{
	static const uint8 file_aad[8] = "fuzzaad!";
	PqChunkCipher cipher;
	PqModuleType type = fuzz_byte(in) % 10;
	int			page = fuzz_byte(in);
	int			flip = fuzz_byte(in);
	size_t		plain_len;
	uint8	   *plain;
	uint8	   *module;
	size_t		module_len;
	uint8	   *out;
	size_t		consumed;
	size_t		out_len;
	bool		gcm;

	memset(&cipher, 0, sizeof(cipher));
	cipher.key = key();
	cipher.gcm_pages = fuzz_byte(in) & 1;
	cipher.file_aad = file_aad;
	cipher.file_aad_len = sizeof(file_aad);
	cipher.row_group = fuzz_byte(in);
	cipher.column = fuzz_byte(in);
	if (type == PQ_MODULE_FOOTER)
		type = PQ_MODULE_COLUMN_META;
	plain = fuzz_bytes(in, in->left, &plain_len);
	gcm = cipher.gcm_pages ||
		(type != PQ_MODULE_DATA_PAGE && type != PQ_MODULE_DICT_PAGE);
	if (as_is)
	{
		module = plain;
		module_len = plain_len;
	}
	else
	{
		module = encrypt_module(gcm, file_aad, sizeof(file_aad), type,
								cipher.row_group, cipher.column, page,
								plain, plain_len, &module_len);
		module = ut_exact_copy(module, module_len);
		/* a flipped bit past the length prefix: a GCM tag must catch it */
		if (flip < 128 && module_len > 4)
			module[4 + flip % (module_len - 4)] ^= 1 << (flip % 8);
	}
	out = pq_chunk_decrypt(&cipher, type, page, module, module_len,
						   &consumed, &out_len);
	if (!as_is && flip < 128 && gcm)
	{
		fprintf(stderr, "fuzz_decrypt: a tampered GCM module decrypted\n");
		abort();
	}
	if (!as_is && flip >= 128 &&
		(out_len != plain_len || memcmp(out, plain, plain_len) != 0))
	{
		fprintf(stderr, "fuzz_decrypt: decryption differs from the plaintext\n");
		abort();
	}
	out = ut_exact_copy(out, out_len);
	switch (type)
	{
		case PQ_MODULE_COLUMN_META:
			{
				PqColumnMetaData cm;

				pq_read_column_metadata(out, out_len, &cm);
			}
			break;
		case PQ_MODULE_DATA_PAGE_HEADER:
		case PQ_MODULE_DICT_PAGE_HEADER:
			{
				PqPageHeader ph;

				pq_read_page_header(out, out_len, &ph);
			}
			break;
		case PQ_MODULE_COLUMN_INDEX:
			{
				PqColumnIndex ci;

				pq_read_column_index(out, out_len, &ci);
			}
			break;
		case PQ_MODULE_OFFSET_INDEX:
			{
				PqOffsetIndex oi;

				pq_read_offset_index(out, out_len, &oi);
			}
			break;
		case PQ_MODULE_BLOOM_HEADER:
			{
				PqBloomFilterHeader bf;

				pq_read_bloom_filter_header(out, out_len, &bf);
			}
			break;
		default:
			break;
	}
}

static void
one(const uint8 *data, size_t size)
{
	FuzzInput	in = {data, size};

	switch (fuzz_byte(&in) % 3)
	{
		case 0:
			encrypted_footer(&in);
			break;
		case 1:
			chunk_module(&in, false);
			break;
		default:
			chunk_module(&in, true);
			break;
	}
}

int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
