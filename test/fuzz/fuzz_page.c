/*
 * fuzz_page.c
 *		One data page's sections, driven by a small header in the input:
 *		physical type, FLBA length, value encoding, codec, maximum
 *		definition and repetition levels, the value count and the claimed
 *		uncompressed size; then the page bytes.  The body is decompressed
 *		(when the size is plausible, as the column reader checks first),
 *		its levels decoded as a v1 page prefixes them, and its values read
 *		in uneven batches with the decoder of the encoding.  Decoding may
 *		allocate what pq_decoded_limit() allows for the values section and
 *		little more: a page that makes it allocate beyond is a crash.
 */
#include "fuzz.h"

#include "format/codec/codec.h"
#include "format/encoding/encoding.h"

static const int encodings[] = {
	PQ_ENC_PLAIN, PQ_ENC_PLAIN_DICTIONARY, PQ_ENC_RLE, PQ_ENC_BIT_PACKED,
	PQ_ENC_DELTA_BINARY_PACKED, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
	PQ_ENC_DELTA_BYTE_ARRAY, PQ_ENC_RLE_DICTIONARY, PQ_ENC_BYTE_STREAM_SPLIT
};

static void
one(const uint8 *data, size_t size)
{
	FuzzInput	in = {data, size};
	int			ptype = fuzz_byte(&in) % 8;
	int			type_length = ptype == PQ_INT96 ? 12 : 1 + fuzz_byte(&in) % 24;
	int			encoding = encodings[fuzz_byte(&in) % lengthof(encodings)];
	int			codec = fuzz_byte(&in) % 8;
	int			max_def = fuzz_byte(&in) % 4;
	int			max_rep = fuzz_byte(&in) % 3;
	int			level_encoding = (fuzz_byte(&in) & 1) ? PQ_ENC_BIT_PACKED : PQ_ENC_RLE;
	int			nvalues = fuzz_u32(&in) % 20000;
	size_t		ulen = fuzz_u32(&in) % (1 << 20);
	uint32		dict_size = fuzz_byte(&in);
	size_t		len;
	uint8	   *body = fuzz_bytes(&in, in.left, &len);
	int16	   *levels = palloc(sizeof(int16) * Max(nvalues, 1));
	PqValueDecoder d;
	int			width;
	void	   *out;
	int			done = 0;
	int			step = 1;
	size_t		base;
	size_t		budget;

	if (codec != PQ_CODEC_UNCOMPRESSED)
	{
		uint8	   *plain;

		if (!pq_codec_supported(codec))
			return;
		pq_check_page_size(codec, len, ulen);
		plain = palloc(Max(ulen, 1));
		pq_decompress(codec, body, len, plain, ulen);
		body = ut_exact_copy(plain, ulen);
		len = ulen;
	}
	if (max_rep > 0)
	{
		size_t		used = pq_decode_levels(level_encoding, true, body, len,
											max_rep, levels, nvalues);

		body += used;
		len -= used;
	}
	if (max_def > 0)
	{
		size_t		used = pq_decode_levels(level_encoding, true, body, len,
											max_def, levels, nvalues);

		body += used;
		len -= used;
	}

	width = pq_fixed_width(ptype, type_length);
	out = palloc(Max((size_t) Max(width, (int) sizeof(PqByteArray)) * 4096, 1));

	/*
	 * Beyond the values: DELTA_BYTE_ARRAY's prefix lengths, copies of
	 * BYTE_STREAM_SPLIT FIXED_LEN_BYTE_ARRAY values (at most the section).
	 */
	budget = pq_decoded_limit(len) + sizeof(int32) * (size_t) nvalues + len +
		64 * 1024;
	base = shim_live_bytes();
	shim_peak_reset();
	pq_valdec_init(&d, encoding, ptype, type_length, body, len, nvalues);
	while (done < nvalues)
	{
		int			n = Min(step, nvalues - done);

		if (pq_encoding_is_dictionary(encoding))
			pq_valdec_read_indices(&d, n, out, dict_size);
		else if (ptype == PQ_BYTE_ARRAY)
			pq_valdec_read_byte_array(&d, n, out);
		else
			pq_valdec_read_fixed(&d, n, out);
		done += n;
		step = step * 3 % 4096 + 1;
	}
	if (shim_peak_above(base) > budget)
	{
		fprintf(stderr, "fuzz_page: %zu bytes of values allocated %zu bytes, more than %zu\n",
				len, shim_peak_above(base), budget);
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
