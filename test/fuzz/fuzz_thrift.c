/*
 * fuzz_thrift.c
 *		Thrift compact decoding of the Parquet structs read from files
 *		(FileMetaData, ColumnMetaData, PageHeader, ColumnIndex, OffsetIndex,
 *		BloomFilterHeader, FileCryptoMetaData), chosen by the first byte.
 *		What decodes is encoded again, and that must decode and encode to
 *		the same bytes: the descriptor tables drive both directions.
 */
#include "fuzz.h"

#include "format/metadata/metadata.h"

typedef size_t (*ReadFn) (const uint8 *buf, size_t len, void *out);
typedef void (*WriteFn) (PqBuffer *out, const void *in);

typedef struct Codec
{
	ReadFn		read;
	WriteFn		write;
	size_t		size;
} Codec;

#define CODEC(x, T) \
	{ (ReadFn) pq_read_##x, (WriteFn) pq_write_##x, sizeof(T) }

static const Codec codecs[] = {
	CODEC(file_metadata, PqFileMetaData),
	CODEC(column_metadata, PqColumnMetaData),
	CODEC(page_header, PqPageHeader),
	CODEC(column_index, PqColumnIndex),
	CODEC(offset_index, PqOffsetIndex),
	CODEC(bloom_filter_header, PqBloomFilterHeader),
	CODEC(file_crypto_metadata, PqFileCryptoMetaData),
};

/* Encode v; false when the writer refuses a value it cannot write. */
static bool
encode(const Codec *c, const void *v, PqBuffer *out)
{
	volatile bool ok = true;

	pq_buffer_init(out, 64);
	PG_TRY();
	{
		c->write(out, v);
	}
	PG_CATCH();
	{
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

static void
one(const uint8 *data, size_t size)
{
	FuzzInput	in = {data, size};
	const Codec *c = &codecs[fuzz_byte(&in) % lengthof(codecs)];
	size_t		len;
	uint8	   *buf = fuzz_bytes(&in, in.left, &len);
	void	   *v = palloc0(c->size);
	void	   *w = palloc0(c->size);
	PqBuffer	first;
	PqBuffer	second;
	size_t		used;

	used = c->read(buf, len, v);
	if (used > len)
		abort();
	if (!encode(c, v, &first))
		return;
	/* what we write we must read, and write again the same */
	if (c->read(first.data, first.len, w) != first.len ||
		!encode(c, w, &second) ||
		second.len != first.len ||
		memcmp(first.data, second.data, first.len) != 0)
	{
		fprintf(stderr, "fuzz_thrift: re-encoding differs\n");
		abort();
	}
}

int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
