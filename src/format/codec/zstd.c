/*-------------------------------------------------------------------------
 *
 * zstd.c
 *		ZSTD page compression.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <zstd.h>
#include <zstd_errors.h>

#include "format/codec/codec.h"

/*
 * One decompression context per process, reused for every page: creating
 * one costs more than decoding a small page.  ZSTD_decompressDCtx() resets
 * it, so an earlier error leaves nothing behind.
 */
static ZSTD_DCtx *pq_zstd_dctx = NULL;

void
pq_zstd_decompress(const uint8 *src, size_t srclen,
				   uint8 *dst, size_t dstlen)
{
	size_t		ret;

	if (pq_zstd_dctx == NULL)
	{
		pq_zstd_dctx = ZSTD_createDCtx();
		if (pq_zstd_dctx == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory"),
					 errdetail("Could not create a ZSTD decoder.")));
	}

	/*
	 * The one-shot call decodes every frame in src (skippable ones too)
	 * straight into dst, whether or not the frames record their content size,
	 * and fails rather than write past dstlen.
	 */
	ret = ZSTD_decompressDCtx(pq_zstd_dctx, dst, dstlen, src, srclen);
	if (ZSTD_isError(ret))
	{
		if (ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall)
			pq_corrupt("ZSTD data decompresses to more than %zu bytes",
					   dstlen);
		pq_corrupt("could not decompress ZSTD data: %s",
				   ZSTD_getErrorName(ret));
	}
	if (ret != dstlen)
		pq_corrupt("ZSTD data decompresses to %zu bytes, expected %zu",
				   ret, dstlen);
}

void
pq_zstd_compress(int level, const uint8 *src, size_t srclen, PqBuffer *out)
{
	size_t		bound = ZSTD_compressBound(srclen);
	size_t		ret;

	pq_buffer_reserve(out, bound);
	ret = ZSTD_compress(out->data + out->len, bound, src, srclen, level);
	if (ZSTD_isError(ret))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compress data with ZSTD: %s",
						ZSTD_getErrorName(ret))));
	out->len += ret;
}
