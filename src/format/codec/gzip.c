/*-------------------------------------------------------------------------
 *
 * gzip.c
 *		GZIP page compression with zlib.
 *
 * Pages are written as one gzip member.  Readers accept several
 * concatenated members (some writers produce them) and, because zlib
 * detects the header, zlib-wrapped streams as well.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <zlib.h>

#include "format/codec/codec.h"

/* windowBits for inflateInit2(): 32K window, detect gzip or zlib header. */
#define PQ_GZIP_INFLATE_BITS (15 + 32)
/* windowBits for deflateInit2(): 32K window, gzip header and trailer. */
#define PQ_GZIP_DEFLATE_BITS (15 + 16)

void
pq_gzip_decompress(const uint8 *src, size_t srclen,
				   uint8 *dst, size_t dstlen)
{
	z_stream	zs;
	int			ret;
	size_t		produced;

	memset(&zs, 0, sizeof(zs));
	ret = inflateInit2(&zs, PQ_GZIP_INFLATE_BITS);
	if (ret != Z_OK)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("could not initialize GZIP decompression: %s",
						zError(ret))));

	/* codec.c has checked that both sizes fit in uInt. */
	zs.next_in = (Bytef *) src;
	zs.avail_in = (uInt) srclen;
	zs.next_out = dst;
	zs.avail_out = (uInt) dstlen;

	/*
	 * inflate() returns Z_OK only after making progress, so this ends.  A
	 * member that ends before the input does is followed by another one.
	 */
	for (;;)
	{
		ret = inflate(&zs, Z_NO_FLUSH);
		if (ret == Z_STREAM_END)
		{
			if (zs.avail_in == 0)
				break;
			ret = inflateReset(&zs);
		}
		if (ret != Z_OK)
			break;
	}
	produced = dstlen - zs.avail_out;

	/* Release zlib's memory before raising an error. */
	inflateEnd(&zs);

	if (ret == Z_BUF_ERROR && zs.avail_in == 0)
		pq_corrupt("GZIP data is truncated");
	if (ret == Z_BUF_ERROR)
		pq_corrupt("GZIP data decompresses to more than %zu bytes", dstlen);
	if (ret != Z_STREAM_END)
		pq_corrupt("could not decompress GZIP data: %s",
				   zs.msg ? zs.msg : zError(ret));
	if (produced != dstlen)
		pq_corrupt("GZIP data decompresses to %zu bytes, expected %zu",
				   produced, dstlen);
}

void
pq_gzip_compress(int level, const uint8 *src, size_t srclen, PqBuffer *out)
{
	z_stream	zs;
	int			ret;
	uLong		bound;

	memset(&zs, 0, sizeof(zs));
	ret = deflateInit2(&zs, level, Z_DEFLATED, PQ_GZIP_DEFLATE_BITS, 8,
					   Z_DEFAULT_STRATEGY);
	if (ret != Z_OK)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("could not initialize GZIP compression: %s",
						zError(ret))));

	/* deflateBound() counts the gzip header and trailer set up above. */
	bound = deflateBound(&zs, (uLong) srclen);
	pq_buffer_reserve(out, bound);

	zs.next_in = (Bytef *) src;
	zs.avail_in = (uInt) srclen;
	zs.next_out = out->data + out->len;
	zs.avail_out = (uInt) bound;
	ret = deflate(&zs, Z_FINISH);
	deflateEnd(&zs);

	if (ret != Z_STREAM_END)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compress data with GZIP: %s", zError(ret))));
	out->len += zs.total_out;
}
