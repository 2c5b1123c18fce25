/*-------------------------------------------------------------------------
 *
 * codec.c
 *		Dispatch of page compression and decompression to the per-library
 *		files, codec support and compression level ranges.
 *
 *-------------------------------------------------------------------------
 */
#include "format/codec/codec.h"

#include "utils/memutils.h"

/*
 * Level ranges of the codecs that take a level, and the level used when the
 * user gives none.  GZIP 6 and ZSTD 3 are the libraries' own defaults;
 * BROTLI 8 follows Arrow, because Brotli's own default (11) is several
 * times slower for a few percent smaller pages.  ZSTD's negative "fast"
 * levels are left out so that every level is a plain non-negative number;
 * 22 is ZSTD_maxCLevel() in every zstd release.
 */
typedef struct PqCodecLevels
{
	int			codec;
	int			min_level;
	int			max_level;
	int			default_level;
} PqCodecLevels;

static const PqCodecLevels pq_codec_levels[] = {
	{PQ_CODEC_GZIP, 1, 9, 6},
	{PQ_CODEC_BROTLI, 0, 11, 8},
	{PQ_CODEC_ZSTD, 1, 22, 3}
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

bool
pq_codec_supported(int codec)
{
	switch (codec)
	{
		case PQ_CODEC_UNCOMPRESSED:
		case PQ_CODEC_SNAPPY:
		case PQ_CODEC_GZIP:
		case PQ_CODEC_BROTLI:
		case PQ_CODEC_LZ4:
		case PQ_CODEC_ZSTD:
		case PQ_CODEC_LZ4_RAW:
			return true;
		default:
			return false;
	}
}

static const PqCodecLevels *
pq_codec_find_levels(int codec)
{
	int			i;

	for (i = 0; i < (int) lengthof(pq_codec_levels); i++)
	{
		if (pq_codec_levels[i].codec == codec)
			return &pq_codec_levels[i];
	}
	return NULL;
}

bool
pq_codec_level_range(int codec, int *min_level, int *max_level)
{
	const PqCodecLevels *levels = pq_codec_find_levels(codec);

	if (levels == NULL)
		return false;
	*min_level = levels->min_level;
	*max_level = levels->max_level;
	return true;
}

/* The level to hand to the library; codecs without levels ignore it. */
static int
pq_codec_resolve_level(int codec, int level)
{
	const PqCodecLevels *levels = pq_codec_find_levels(codec);

	if (levels == NULL)
		return 0;
	if (level < 0)
		return levels->default_level;
	if (level < levels->min_level || level > levels->max_level)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("compression level %d is out of range for codec %s",
						level, pq_codec_name(codec)),
				 errdetail("Valid levels are %d to %d.",
						   levels->min_level, levels->max_level)));
	return level;
}

void
pq_decompress(int codec, const uint8 *src, size_t srclen,
			  uint8 *dst, size_t dstlen)
{
	static const uint8 empty_in = 0;
	uint8		empty_out;

	if (!pq_codec_supported(codec))
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

	switch (codec)
	{
		case PQ_CODEC_UNCOMPRESSED:
			if (srclen != dstlen)
				pq_corrupt("UNCOMPRESSED page has %zu bytes, expected %zu",
						   srclen, dstlen);
			memcpy(dst, src, dstlen);
			break;
		case PQ_CODEC_SNAPPY:
			pq_snappy_decompress(src, srclen, dst, dstlen);
			break;
		case PQ_CODEC_GZIP:
			pq_gzip_decompress(src, srclen, dst, dstlen);
			break;
		case PQ_CODEC_BROTLI:
			pq_brotli_decompress(src, srclen, dst, dstlen);
			break;
		case PQ_CODEC_LZ4:
			pq_lz4_hadoop_decompress(src, srclen, dst, dstlen);
			break;
		case PQ_CODEC_ZSTD:
			pq_zstd_decompress(src, srclen, dst, dstlen);
			break;
		case PQ_CODEC_LZ4_RAW:
			pq_lz4_raw_decompress(src, srclen, dst, dstlen);
			break;
	}
}

void
pq_compress(int codec, int level, const uint8 *src, size_t srclen,
			PqBuffer *out)
{
	static const uint8 empty_in = 0;

	if (!pq_codec_supported(codec))
		pq_codec_not_supported(codec);
	if (srclen > PQ_CODEC_MAX_SIZE)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Parquet page of %zu bytes exceeds the maximum page size",
						srclen)));
	level = pq_codec_resolve_level(codec, level);

	/* Libraries may pass the input pointer to memcpy even for 0 bytes. */
	if (srclen == 0)
		src = &empty_in;

	switch (codec)
	{
		case PQ_CODEC_UNCOMPRESSED:
			pq_buffer_append(out, src, srclen);
			break;
		case PQ_CODEC_SNAPPY:
			pq_snappy_compress(src, srclen, out);
			break;
		case PQ_CODEC_GZIP:
			pq_gzip_compress(level, src, srclen, out);
			break;
		case PQ_CODEC_BROTLI:
			pq_brotli_compress(level, src, srclen, out);
			break;
		case PQ_CODEC_LZ4:
			pq_lz4_hadoop_compress(src, srclen, out);
			break;
		case PQ_CODEC_ZSTD:
			pq_zstd_compress(level, src, srclen, out);
			break;
		case PQ_CODEC_LZ4_RAW:
			pq_lz4_raw_compress(src, srclen, out);
			break;
	}
}

/*
 * ZSTD and BROTLI allow ratios past 30,000 and 10^6 (a block or meta-block
 * of one repeated byte), so a few kB could stand for a 1 GB page, and a file
 * of many such columns for far more memory than its size.  Beyond
 * PQ_DECODED_MIN, which holds every page real writers cut, their pages are
 * held to DEFLATE's own maximum ratio.
 */
#define PQ_UNBOUNDED_CODEC_RATIO 1032

/*
 * Upper bound of uncompressed/compressed size per codec, so that a page
 * header cannot make us allocate far more than its data can produce.
 */
void
pq_check_page_size(int codec, size_t compressed, size_t uncompressed)
{
	if (uncompressed > MaxAllocSize)
		pq_too_large("page of %zu uncompressed bytes is larger than PostgreSQL's 1 GB limit",
					 uncompressed);
	if (!pq_decompressed_size_plausible(codec, compressed, uncompressed))
		pq_corrupt("page claims %zu uncompressed bytes from %zu %s-compressed bytes",
				   uncompressed, compressed, pq_codec_name(codec));
	if ((codec == PQ_CODEC_ZSTD || codec == PQ_CODEC_BROTLI) &&
		uncompressed > PQ_DECODED_MIN &&
		uncompressed / PQ_UNBOUNDED_CODEC_RATIO > compressed)
		pq_too_large("%s page of %zu bytes decompresses to %zu bytes: pages over %zu bytes are read up to %d times their compressed size",
					 pq_codec_name(codec), compressed, uncompressed,
					 PQ_DECODED_MIN, PQ_UNBOUNDED_CODEC_RATIO);
}

bool
pq_decompressed_size_plausible(int codec, size_t compressed, size_t uncompressed)
{
	double		ratio;

	if (uncompressed > MaxAllocSize)
		return false;
	switch (codec)
	{
		case PQ_CODEC_UNCOMPRESSED:
			return uncompressed == compressed;
		case PQ_CODEC_SNAPPY:
			ratio = 32.0;
			break;
		case PQ_CODEC_GZIP:
			ratio = 1032.0;
			break;
		case PQ_CODEC_LZ4:
		case PQ_CODEC_LZ4_RAW:
			ratio = 256.0;
			break;
		default:
			return true;
	}
	return (double) uncompressed <= (double) compressed * ratio + 64.0;
}
