/*-------------------------------------------------------------------------
 *
 * snappy.c
 *		SNAPPY page compression (raw snappy format, no framing), with
 *		libsnappy; decompression is snappy_decode.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <snappy-c.h>

#include "format/codec/codec.h"

void
pq_snappy_compress(int level, const uint8 *src, size_t srclen, PqBuffer *out)
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
