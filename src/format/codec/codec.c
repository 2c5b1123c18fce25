/*-------------------------------------------------------------------------
 *
 * codec.c
 *		Dispatch of page compression and decompression to the per-library
 *		files, codec support and compression level ranges.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/codec/codec.h"
#include "utils/memutils.h"

/* UNCOMPRESSED: the page is its own bytes. */
static void
copy_decompress(const uint8 *src, size_t srclen, uint8 *dst, size_t dstlen)
{
	if (srclen != dstlen)
		pq_corrupt("UNCOMPRESSED page has %zu bytes, expected %zu",
				   srclen, dstlen);
	memcpy(dst, src, dstlen);
}

static void
copy_compress(int level, const uint8 *src, size_t srclen, PqBuffer *out)
{
	pq_buffer_append(out, src, srclen);
}

/*
 * Every codec: its library's entry points, its level range and the level
 * used when the user gives none (has_level false: it takes none), and the
 * largest expansion its format allows (1: none, the same size; 0: none
 * useful, see PQ_UNBOUNDED_CODEC_RATIO).  GZIP 6 and ZSTD 3
 * are the libraries' own defaults; BROTLI 8 follows Arrow, because
 * Brotli's own default (11) is several times slower for a few percent
 * smaller pages.  ZSTD's negative "fast" levels are left out so that every
 * level is a plain non-negative number; 22 is ZSTD_maxCLevel() in every
 * zstd release.  Adding a codec is its library file and one row here.
 */
typedef struct PqCodecOps
{
	void		(*decompress) (const uint8 *src, size_t srclen,
							   uint8 *dst, size_t dstlen);
	void		(*compress) (int level, const uint8 *src, size_t srclen,
							 PqBuffer *out);
	bool		has_level;
	int			min_level;
	int			max_level;
	int			default_level;
	double		max_ratio;
} PqCodecOps;

static const PqCodecOps pq_codecs[] = {
	[PQ_CODEC_UNCOMPRESSED] = {copy_decompress, copy_compress, false, 0, 0, 0, 1.0},
	[PQ_CODEC_SNAPPY] = {pq_snappy_decompress, pq_snappy_compress, false, 0, 0, 0, 32.0},
	[PQ_CODEC_GZIP] = {pq_gzip_decompress, pq_gzip_compress, true, 1, 9, 6, 1032.0},
	/* PQ_CODEC_LZO: no entry points, not supported */
	[PQ_CODEC_BROTLI] = {pq_brotli_decompress, pq_brotli_compress, true, 0, 11, 8, 0.0},
	[PQ_CODEC_LZ4] = {pq_lz4_hadoop_decompress, pq_lz4_hadoop_compress, false, 0, 0, 0, 256.0},
	[PQ_CODEC_ZSTD] = {pq_zstd_decompress, pq_zstd_compress, true, 1, 22, 3, 0.0},
	[PQ_CODEC_LZ4_RAW] = {pq_lz4_raw_decompress, pq_lz4_raw_compress, false, 0, 0, 0, 256.0},
};

/* Page sizes are i32 in the Parquet page header. */
#define PQ_CODEC_MAX_SIZE ((size_t) PG_INT32_MAX)

static void pq_codec_not_supported(int codec) pg_attribute_noreturn();

static void
pq_codec_not_supported(int codec)
{
	if (codec >= PQ_CODEC_UNCOMPRESSED && codec <= PQ_CODEC_LZ4_RAW)
		pq_unsupported("compression codec %s is not supported",
					   pq_codec_name(codec));
	pq_unsupported("unknown compression codec %d", codec);
}

/* The codec's row, or NULL when it is unknown or not supported. */
static const PqCodecOps *
codec_ops(int codec)
{
	if (codec < 0 || codec >= (int) lengthof(pq_codecs) ||
		pq_codecs[codec].decompress == NULL)
		return NULL;
	return &pq_codecs[codec];
}

bool
pq_codec_supported(int codec)
{
	return codec_ops(codec) != NULL;
}

bool
pq_codec_level_range(int codec, int *min_level, int *max_level)
{
	const PqCodecOps *ops = codec_ops(codec);

	if (ops == NULL || !ops->has_level)
		return false;
	*min_level = ops->min_level;
	*max_level = ops->max_level;
	return true;
}

/* The level to hand to the library; codecs without levels ignore it. */
static int
pq_codec_resolve_level(const PqCodecOps *ops, int codec, int level)
{
	if (!ops->has_level)
		return 0;
	if (level < 0)
		return ops->default_level;
	if (level < ops->min_level || level > ops->max_level)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("compression level %d is out of range for codec %s",
						level, pq_codec_name(codec)),
				 errdetail("Valid levels are %d to %d.",
						   ops->min_level, ops->max_level)));
	return level;
}

void
pq_decompress(int codec, const uint8 *src, size_t srclen,
			  uint8 *dst, size_t dstlen)
{
	static const uint8 empty_in = 0;
	uint8		empty_out;
	const PqCodecOps *ops = codec_ops(codec);

	if (ops == NULL)
		pq_codec_not_supported(codec);
	if (srclen > PQ_CODEC_MAX_SIZE || dstlen > PQ_CODEC_MAX_SIZE)
		pq_corrupt("%s page of %zu bytes (%zu uncompressed) exceeds the maximum page size",
				   pq_codec_name(codec), srclen, dstlen);

	/* An empty page (e.g. a v2 page without values) has no stream at all. */
	if (srclen == 0 && dstlen == 0)
		return;

	/* Libraries reject NULL pointers even for zero bytes. */
	if (srclen == 0)
		src = &empty_in;
	if (dstlen == 0)
		dst = &empty_out;
	ops->decompress(src, srclen, dst, dstlen);
}

void
pq_compress(int codec, int level, const uint8 *src, size_t srclen,
			PqBuffer *out)
{
	static const uint8 empty_in = 0;
	const PqCodecOps *ops = codec_ops(codec);

	if (ops == NULL)
		pq_codec_not_supported(codec);
	if (srclen > PQ_CODEC_MAX_SIZE)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Parquet page of %zu bytes exceeds the maximum page size",
						srclen)));
	level = pq_codec_resolve_level(ops, codec, level);

	/* Libraries may pass the input pointer to memcpy even for 0 bytes. */
	if (srclen == 0)
		src = &empty_in;
	ops->compress(level, src, srclen, out);
}

/*
 * ZSTD and BROTLI allow ratios past 30,000 and 10^6 (a block or meta-block
 * of one repeated byte), so a few kB could stand for a 1 GB page, and a file
 * of many such columns for far more memory than its size.  Beyond
 * PQ_DECODED_MIN, which holds every page real writers cut, pages of codecs
 * without a useful bound are held to DEFLATE's own maximum ratio.
 */
#define PQ_UNBOUNDED_CODEC_RATIO 1032

/*
 * Upper bound of uncompressed/compressed size per codec, so that a page
 * header cannot make us allocate far more than its data can produce.
 */
void
pq_check_page_size(int codec, size_t compressed, size_t uncompressed)
{
	const PqCodecOps *ops = codec_ops(codec);

	if (uncompressed > MaxAllocSize)
		pq_too_large("page of %zu uncompressed bytes is larger than PostgreSQL's 1 GB limit",
					 uncompressed);
	if (!pq_decompressed_size_plausible(codec, compressed, uncompressed))
		pq_corrupt("page claims %zu uncompressed bytes from %zu %s-compressed bytes",
				   uncompressed, compressed, pq_codec_name(codec));
	if (ops != NULL && ops->max_ratio == 0 &&
		uncompressed > PQ_DECODED_MIN &&
		uncompressed / PQ_UNBOUNDED_CODEC_RATIO > compressed)
		pq_too_large("%s page of %zu bytes decompresses to %zu bytes: pages over %zu bytes are read up to %d times their compressed size",
					 pq_codec_name(codec), compressed, uncompressed,
					 PQ_DECODED_MIN, PQ_UNBOUNDED_CODEC_RATIO);
}

bool
pq_decompressed_size_plausible(int codec, size_t compressed, size_t uncompressed)
{
	const PqCodecOps *ops = codec_ops(codec);

	if (uncompressed > MaxAllocSize)
		return false;
	/* unsupported codecs fail when decompressed, with their own message */
	if (ops == NULL || ops->max_ratio == 0)
		return true;
	if (ops->max_ratio == 1.0)
		return uncompressed == compressed;
	return (double) uncompressed <= (double) compressed * ops->max_ratio + 64.0;
}
