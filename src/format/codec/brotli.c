/*-------------------------------------------------------------------------
 *
 * brotli.c
 *		BROTLI page compression.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <brotli/decode.h>
#include <brotli/encode.h>

#include "format/codec/codec.h"

void
pq_brotli_decompress(const uint8 *src, size_t srclen,
					 uint8 *dst, size_t dstlen)
{
	BrotliDecoderState *state;
	BrotliDecoderResult res;
	BrotliDecoderErrorCode err;
	const uint8_t *next_in = src;
	size_t		avail_in = srclen;
	uint8_t    *next_out = dst;
	size_t		avail_out = dstlen;

	state = BrotliDecoderCreateInstance(NULL, NULL, NULL);
	if (state == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("Could not create a BROTLI decoder.")));

	/*
	 * The streaming call (rather than BrotliDecoderDecompress) tells a
	 * too-small output apart from corruption and reveals trailing bytes.
	 */
	res = BrotliDecoderDecompressStream(state, &avail_in, &next_in,
										&avail_out, &next_out, NULL);
	err = BrotliDecoderGetErrorCode(state);
	BrotliDecoderDestroyInstance(state);

	if (res == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
		pq_corrupt("BROTLI data is truncated");
	if (res == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT)
		pq_corrupt("BROTLI data decompresses to more than %zu bytes", dstlen);
	if (res != BROTLI_DECODER_RESULT_SUCCESS)
		pq_corrupt("could not decompress BROTLI data: %s",
				   BrotliDecoderErrorString(err));
	if (avail_in != 0)
		pq_corrupt("BROTLI data has %zu bytes after the end of the stream",
				   avail_in);
	if (avail_out != 0)
		pq_corrupt("BROTLI data decompresses to %zu bytes, expected %zu",
				   dstlen - avail_out, dstlen);
}

void
pq_brotli_compress(int level, const uint8 *src, size_t srclen, PqBuffer *out)
{
	size_t		len = BrotliEncoderMaxCompressedSize(srclen);

	/* 0 means the bound overflowed, impossible for an int32-sized page. */
	if (len == 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Parquet page of %zu bytes is too large for BROTLI",
						srclen)));
	pq_buffer_reserve(out, len);
	if (!BrotliEncoderCompress(level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
							   srclen, src, &len, out->data + out->len))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compress data with BROTLI")));
	out->len += len;
}
