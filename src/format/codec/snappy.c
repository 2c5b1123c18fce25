/*-------------------------------------------------------------------------
 *
 * snappy.c
 *		SNAPPY page compression (raw snappy format, no framing).
 *
 *-------------------------------------------------------------------------
 */
#include "format/codec/codec.h"

#include <snappy-c.h>

void
pq_snappy_decompress(const uint8 *src, size_t srclen,
					 uint8 *dst, size_t dstlen)
{
	size_t		len;

	if (snappy_uncompressed_length((const char *) src, srclen,
								   &len) != SNAPPY_OK)
		pq_corrupt("could not decompress SNAPPY data: invalid length prefix");
	if (len != dstlen)
		pq_corrupt("SNAPPY data decompresses to %zu bytes, expected %zu",
				   len, dstlen);

	/*
	 * snappy_uncompress() succeeds only if the stream fills exactly the
	 * length checked above, and never writes past it.
	 */
	if (snappy_uncompress((const char *) src, srclen,
						  (char *) dst, &len) != SNAPPY_OK)
		pq_corrupt("could not decompress SNAPPY data: invalid stream");
}

void
pq_snappy_compress(const uint8 *src, size_t srclen, PqBuffer *out)
{
	size_t		len = snappy_max_compressed_length(srclen);

	pq_buffer_reserve(out, len);
	if (snappy_compress((const char *) src, srclen,
						(char *) out->data + out->len, &len) != SNAPPY_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compress data with SNAPPY")));
	out->len += len;
}
