/*
 * test_codec.c
 *		Page codecs and CRC32.  Besides round trips through pq_compress, the
 *		decoders are fed streams made independently: by the command-line
 *		tools (gzip -n, zstd, as byte arrays below), by hand (snappy, LZ4,
 *		Hadoop framing) or by calling the libraries directly.
 */
#include "postgres.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "format/codec/codec.h"
#include "unit_test.h"

static const int all_codecs[] = {
	PQ_CODEC_UNCOMPRESSED, PQ_CODEC_SNAPPY, PQ_CODEC_GZIP, PQ_CODEC_BROTLI,
	PQ_CODEC_LZ4, PQ_CODEC_ZSTD, PQ_CODEC_LZ4_RAW
};

/* Codecs that actually compress (UNCOMPRESSED has no stream to damage). */
static const int real_codecs[] = {
	PQ_CODEC_SNAPPY, PQ_CODEC_GZIP, PQ_CODEC_BROTLI, PQ_CODEC_LZ4,
	PQ_CODEC_ZSTD, PQ_CODEC_LZ4_RAW
};

#define MB (1024 * 1024)

/* Deterministic xorshift64 generator. */

static uint8 *
random_bytes(size_t len)
{
	uint8	   *p = palloc_extended(len + 1, MCXT_ALLOC_HUGE);
	size_t		i;

	for (i = 0; i < len; i++)
		p[i] = (uint8) ut_rng_next();
	return p;
}

/* Text-like data with lots of repetition. */
static uint8 *
compressible_bytes(size_t len)
{
	static const char *const words[] = {
		"parquet ", "column ", "page ", "row group ", "dictionary ",
		"12345 ", "null ", "\n"
	};
	uint8	   *p = palloc_extended(len + 1, MCXT_ALLOC_HUGE);
	size_t		i = 0;

	while (i < len)
	{
		const char *w = words[ut_rng_next() % lengthof(words)];
		size_t		n = Min(strlen(w), len - i);

		memcpy(p + i, w, n);
		i += n;
	}
	return p;
}

/*
 * Run pq_decompress; 0 on success, else the SQLSTATE raised.  ASan and
 * UBSan watch every call.
 */
static int
decompress_status(int codec, const uint8 *src, size_t srclen,
				  uint8 *dst, size_t dstlen)
{
	volatile int status = 0;

	shim_last_sqlstate = 0;
	PG_TRY();
	{
		pq_decompress(codec, src, srclen, dst, dstlen);
	}
	PG_CATCH();
	{
		status = shim_last_sqlstate;
	}
	PG_END_TRY();
	return status;
}

/* Compress, decompress and compare; reports and returns false on failure. */
static bool
roundtrip_ok(int codec, int level, const uint8 *data, size_t len)
{
	PqBuffer	out;
	uint8	   *back;
	int			status;

	pq_buffer_init(&out, 0);
	pq_compress(codec, level, data, len, &out);
	back = palloc_extended(len + 1, MCXT_ALLOC_HUGE);
	status = decompress_status(codec, out.data, out.len, back, len);
	if (status != 0 || (len > 0 && memcmp(back, data, len) != 0))
	{
		fprintf(stderr, "  round trip %s level %d size %zu: %s\n",
				pq_codec_name(codec), level, len,
				status ? shim_last_message : "data differs");
		return false;
	}
	pfree(back);
	pfree(out.data);
	return true;
}

static void
test_codec_supported(void)
{
	int			i;

	for (i = 0; i < (int) lengthof(all_codecs); i++)
		CHECK(pq_codec_supported(all_codecs[i]));
	CHECK(!pq_codec_supported(PQ_CODEC_LZO));
	CHECK(!pq_codec_supported(8));
	CHECK(!pq_codec_supported(-1));
}

static void
test_level_ranges(void)
{
	int			lo = -1,
				hi = -1;

	CHECK(pq_codec_level_range(PQ_CODEC_GZIP, &lo, &hi));
	CHECK_EQ_INT(lo, 1);
	CHECK_EQ_INT(hi, 9);
	CHECK(pq_codec_level_range(PQ_CODEC_BROTLI, &lo, &hi));
	CHECK_EQ_INT(lo, 0);
	CHECK_EQ_INT(hi, 11);
	CHECK(pq_codec_level_range(PQ_CODEC_ZSTD, &lo, &hi));
	CHECK_EQ_INT(lo, 1);
	CHECK_EQ_INT(hi, ZSTD_maxCLevel());
	CHECK(!pq_codec_level_range(PQ_CODEC_UNCOMPRESSED, &lo, &hi));
	CHECK(!pq_codec_level_range(PQ_CODEC_SNAPPY, &lo, &hi));
	CHECK(!pq_codec_level_range(PQ_CODEC_LZ4, &lo, &hi));
	CHECK(!pq_codec_level_range(PQ_CODEC_LZ4_RAW, &lo, &hi));
	CHECK(!pq_codec_level_range(PQ_CODEC_LZO, &lo, &hi));
}

static void
test_roundtrip_sizes(void)
{
	uint8	   *rnd = random_bytes(MB);
	uint8	   *txt = compressible_bytes(MB);
	int			i;

	for (i = 0; i < (int) lengthof(all_codecs); i++)
	{
		int			c = all_codecs[i];

		CHECK(roundtrip_ok(c, -1, txt, 0));
		CHECK(roundtrip_ok(c, -1, txt, 1));
		CHECK(roundtrip_ok(c, -1, rnd, 1));
		CHECK(roundtrip_ok(c, -1, txt, 1000));
		CHECK(roundtrip_ok(c, -1, rnd, 65537));
		CHECK(roundtrip_ok(c, -1, rnd, MB));
		CHECK(roundtrip_ok(c, -1, txt, MB));
	}
}

static void
test_roundtrip_levels(void)
{
	static const int leveled[] = {PQ_CODEC_GZIP, PQ_CODEC_BROTLI, PQ_CODEC_ZSTD};
	uint8	   *txt = compressible_bytes(64 * 1024);
	uint8	   *rnd = random_bytes(4096);
	int			i;

	for (i = 0; i < (int) lengthof(leveled); i++)
	{
		int			lo,
					hi,
					level;

		CHECK(pq_codec_level_range(leveled[i], &lo, &hi));
		for (level = lo; level <= hi; level++)
		{
			CHECK(roundtrip_ok(leveled[i], level, txt, 64 * 1024));
			CHECK(roundtrip_ok(leveled[i], level, rnd, 4096));
		}
	}
	/* Codecs without levels ignore the level. */
	CHECK(roundtrip_ok(PQ_CODEC_SNAPPY, 99, txt, 1000));
}

static void
test_level_out_of_range(void)
{
	PqBuffer	out;
	uint8		b = 'x';

	pq_buffer_init(&out, 0);
	CHECK_ERROR(pq_compress(PQ_CODEC_GZIP, 0, &b, 1, &out),
				ERRCODE_INVALID_PARAMETER_VALUE);
	CHECK_ERROR(pq_compress(PQ_CODEC_GZIP, 10, &b, 1, &out),
				ERRCODE_INVALID_PARAMETER_VALUE);
	CHECK_ERROR(pq_compress(PQ_CODEC_BROTLI, 12, &b, 1, &out),
				ERRCODE_INVALID_PARAMETER_VALUE);
	CHECK_ERROR(pq_compress(PQ_CODEC_ZSTD, 23, &b, 1, &out),
				ERRCODE_INVALID_PARAMETER_VALUE);
	CHECK(strstr(shim_last_message, "ZSTD") != NULL);
}

/* pq_compress appends after what the buffer already holds. */
static void
test_compress_appends(void)
{
	uint8	   *txt = compressible_bytes(5000);
	uint8		back[5000];
	int			i;

	for (i = 0; i < (int) lengthof(all_codecs); i++)
	{
		PqBuffer	out;

		pq_buffer_init(&out, 0);
		pq_buffer_append(&out, "XYZ", 3);
		pq_compress(all_codecs[i], -1, txt, 5000, &out);
		CHECK(memcmp(out.data, "XYZ", 3) == 0);
		pq_decompress(all_codecs[i], out.data + 3, out.len - 3, back, 5000);
		CHECK(memcmp(back, txt, 5000) == 0);
	}
}

/* Our output must decode with the libraries called directly. */
static void
test_compress_format(void)
{
	uint8	   *txt = compressible_bytes(20000);
	uint8	   *back = palloc(20000);
	PqBuffer	out;
	z_stream	zs;
	size_t		n;

	/* GZIP: a gzip member (not zlib or raw deflate) */
	pq_buffer_init(&out, 0);
	pq_compress(PQ_CODEC_GZIP, -1, txt, 20000, &out);
	CHECK(out.len > 10);
	CHECK(out.data[0] == 0x1f && out.data[1] == 0x8b && out.data[2] == 8);
	memset(&zs, 0, sizeof(zs));
	CHECK_EQ_INT(inflateInit2(&zs, 15 + 16), Z_OK);
	zs.next_in = out.data;
	zs.avail_in = out.len;
	zs.next_out = back;
	zs.avail_out = 20000;
	CHECK_EQ_INT(inflate(&zs, Z_FINISH), Z_STREAM_END);
	CHECK_EQ_INT(zs.total_out, 20000);
	inflateEnd(&zs);
	CHECK(memcmp(back, txt, 20000) == 0);

	/* LZ4: one Hadoop frame, sizes big-endian */
	pq_buffer_reset(&out);
	pq_compress(PQ_CODEC_LZ4, -1, txt, 20000, &out);
	CHECK(out.len > 8);
	CHECK_EQ_INT(((uint32) out.data[0] << 24) | (out.data[1] << 16) |
				 (out.data[2] << 8) | out.data[3], 20000);
	CHECK_EQ_INT(((uint32) out.data[4] << 24) | (out.data[5] << 16) |
				 (out.data[6] << 8) | out.data[7], out.len - 8);
	CHECK_EQ_INT(LZ4_decompress_safe((char *) out.data + 8, (char *) back,
									 out.len - 8, 20000), 20000);
	CHECK(memcmp(back, txt, 20000) == 0);

	/* LZ4_RAW: a bare block */
	pq_buffer_reset(&out);
	pq_compress(PQ_CODEC_LZ4_RAW, -1, txt, 20000, &out);
	CHECK_EQ_INT(LZ4_decompress_safe((char *) out.data, (char *) back,
									 out.len, 20000), 20000);
	CHECK(memcmp(back, txt, 20000) == 0);

	/* SNAPPY */
	pq_buffer_reset(&out);
	pq_compress(PQ_CODEC_SNAPPY, -1, txt, 20000, &out);
	n = 20000;
	CHECK(snappy_uncompress((char *) out.data, out.len, (char *) back, &n) == SNAPPY_OK);
	CHECK_EQ_INT(n, 20000);
	CHECK(memcmp(back, txt, 20000) == 0);

	/* ZSTD */
	pq_buffer_reset(&out);
	pq_compress(PQ_CODEC_ZSTD, -1, txt, 20000, &out);
	CHECK_EQ_INT(ZSTD_decompress(back, 20000, out.data, out.len), 20000);
	CHECK(memcmp(back, txt, 20000) == 0);

	/* BROTLI */
	pq_buffer_reset(&out);
	pq_compress(PQ_CODEC_BROTLI, -1, txt, 20000, &out);
	n = 20000;
	CHECK(BrotliDecoderDecompress(out.len, out.data, &n, back) ==
		  BROTLI_DECODER_RESULT_SUCCESS);
	CHECK_EQ_INT(n, 20000);
	CHECK(memcmp(back, txt, 20000) == 0);
}

/* "hello parquet hello parquet hello parquet\n", by gzip -n */
static const uint8 gzip_cli_1[] = {
	0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48,
	0xcd, 0xc9, 0xc9, 0x57, 0x28, 0x48, 0x2c, 0x2a, 0x2c, 0x4d, 0x2d, 0x51,
	0xc8, 0xc0, 0xcd, 0xe3, 0x02, 0x00, 0x3b, 0xa0, 0x65, 0xa6, 0x2a, 0x00,
	0x00, 0x00
};
static const char gzip_cli_1_text[] = "hello parquet hello parquet hello parquet\n";

/* "second member\n", by gzip -n */
static const uint8 gzip_cli_2[] = {
	0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x2b, 0x4e,
	0x4d, 0xce, 0xcf, 0x4b, 0x51, 0xc8, 0x4d, 0xcd, 0x4d, 0x4a, 0x2d, 0xe2,
	0x02, 0x00, 0x36, 0x18, 0x4b, 0x0e, 0x0e, 0x00, 0x00, 0x00
};
static const char gzip_cli_2_text[] = "second member\n";

/* Append one gzip member made by zlib directly. */
static void
append_gzip_member(PqBuffer *buf, const uint8 *data, size_t len)
{
	z_stream	zs;
	uLong		bound;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	bound = deflateBound(&zs, len);
	pq_buffer_reserve(buf, bound);
	zs.next_in = (Bytef *) data;
	zs.avail_in = len;
	zs.next_out = buf->data + buf->len;
	zs.avail_out = bound;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		abort();
	buf->len += zs.total_out;
	deflateEnd(&zs);
}

static void
test_gzip_independent(void)
{
	uint8	   *txt = compressible_bytes(300000);
	uint8	   *rnd = random_bytes(70000);
	uint8	   *expect = palloc(300000 + 70000 + 200);
	uint8	   *back = palloc(300000 + 70000 + 200);
	size_t		elen = 0;
	PqBuffer	buf;
	uLongf		zlen;

	/* CLI members, alone and concatenated */
	pq_decompress(PQ_CODEC_GZIP, gzip_cli_1, sizeof(gzip_cli_1), back,
				  strlen(gzip_cli_1_text));
	CHECK(memcmp(back, gzip_cli_1_text, strlen(gzip_cli_1_text)) == 0);

	pq_buffer_init(&buf, 0);
	pq_buffer_append(&buf, gzip_cli_1, sizeof(gzip_cli_1));
	pq_buffer_append(&buf, gzip_cli_2, sizeof(gzip_cli_2));
	pq_decompress(PQ_CODEC_GZIP, buf.data, buf.len, back,
				  strlen(gzip_cli_1_text) + strlen(gzip_cli_2_text));
	CHECK(memcmp(back, gzip_cli_1_text, strlen(gzip_cli_1_text)) == 0);
	CHECK(memcmp(back + strlen(gzip_cli_1_text), gzip_cli_2_text,
				 strlen(gzip_cli_2_text)) == 0);

	/* Only the first member's size: the second member does not fit. */
	CHECK_ERROR(pq_decompress(PQ_CODEC_GZIP, buf.data, buf.len, back,
							  strlen(gzip_cli_1_text)),
				ERRCODE_DATA_CORRUPTED);

	/* Three zlib-made members, the middle one empty, then a CLI one */
	pq_buffer_reset(&buf);
	append_gzip_member(&buf, txt, 300000);
	memcpy(expect + elen, txt, 300000);
	elen += 300000;
	append_gzip_member(&buf, txt, 0);
	append_gzip_member(&buf, rnd, 70000);
	memcpy(expect + elen, rnd, 70000);
	elen += 70000;
	pq_buffer_append(&buf, gzip_cli_2, sizeof(gzip_cli_2));
	memcpy(expect + elen, gzip_cli_2_text, strlen(gzip_cli_2_text));
	elen += strlen(gzip_cli_2_text);
	pq_decompress(PQ_CODEC_GZIP, buf.data, buf.len, back, elen);
	CHECK(memcmp(back, expect, elen) == 0);

	/* A lone empty member decodes to zero bytes. */
	pq_buffer_reset(&buf);
	append_gzip_member(&buf, txt, 0);
	pq_decompress(PQ_CODEC_GZIP, buf.data, buf.len, back, 0);

	/* zlib-wrapped data (compress2) is detected too. */
	pq_buffer_reset(&buf);
	zlen = compressBound(300000);
	pq_buffer_reserve(&buf, zlen);
	CHECK_EQ_INT(compress2(buf.data, &zlen, txt, 300000, 6), Z_OK);
	pq_decompress(PQ_CODEC_GZIP, buf.data, zlen, back, 300000);
	CHECK(memcmp(back, txt, 300000) == 0);

	/* A damaged CRC in the trailer is caught. */
	pq_buffer_reset(&buf);
	pq_buffer_append(&buf, gzip_cli_1, sizeof(gzip_cli_1));
	buf.data[sizeof(gzip_cli_1) - 6] ^= 1;
	CHECK_ERROR(pq_decompress(PQ_CODEC_GZIP, buf.data, buf.len, back,
							  strlen(gzip_cli_1_text)),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "GZIP") != NULL);
}

/* "zstd frame without content size, zstd frame without content size\n" | zstd */
static const uint8 zstd_cli_nosize[] = {
	0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0x55, 0x01, 0x00, 0x24, 0x02, 0x7a,
	0x73, 0x74, 0x64, 0x20, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x20, 0x77, 0x69,
	0x74, 0x68, 0x6f, 0x75, 0x74, 0x20, 0x63, 0x6f, 0x6e, 0x74, 0x65, 0x6e,
	0x74, 0x20, 0x73, 0x69, 0x7a, 0x65, 0x2c, 0x20, 0x0a, 0x01, 0x00, 0x21,
	0x8d, 0x7a, 0x02, 0xeb, 0x50, 0xf9, 0x03
};
static const char zstd_cli_nosize_text[] =
"zstd frame without content size, zstd frame without content size\n";

/* An empty input, by zstd (content size 0, with checksum) */
static const uint8 zstd_cli_empty[] = {
	0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x00, 0x01, 0x00, 0x00, 0x99, 0xe9, 0xd8,
	0x51
};

static void
test_zstd_independent(void)
{
	uint8	   *txt = compressible_bytes(200000);
	uint8	   *back = palloc(400000);
	size_t		tlen = strlen(zstd_cli_nosize_text);
	PqBuffer	buf;
	size_t		n;
	ZSTD_CCtx  *cctx;
	ZSTD_inBuffer in;
	ZSTD_outBuffer zout;
	static const uint8 skippable[] = {
		0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'a', 'b', 'c'
	};

	pq_decompress(PQ_CODEC_ZSTD, zstd_cli_nosize, sizeof(zstd_cli_nosize),
				  back, tlen);
	CHECK(memcmp(back, zstd_cli_nosize_text, tlen) == 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_ZSTD, zstd_cli_nosize,
							  sizeof(zstd_cli_nosize), back, tlen - 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decompress(PQ_CODEC_ZSTD, zstd_cli_nosize,
							  sizeof(zstd_cli_nosize), back, tlen + 1),
				ERRCODE_DATA_CORRUPTED);

	/* Two library frames with a skippable frame and a CLI frame between */
	pq_buffer_init(&buf, 0);
	n = ZSTD_compressBound(200000);
	pq_buffer_reserve(&buf, n);
	n = ZSTD_compress(buf.data, n, txt, 100000, 5);
	CHECK(!ZSTD_isError(n));
	buf.len = n;
	pq_buffer_append(&buf, skippable, sizeof(skippable));
	pq_buffer_append(&buf, zstd_cli_nosize, sizeof(zstd_cli_nosize));
	n = ZSTD_compressBound(100000);
	pq_buffer_reserve(&buf, n);
	n = ZSTD_compress(buf.data + buf.len, n, txt + 100000, 100000, 1);
	CHECK(!ZSTD_isError(n));
	buf.len += n;
	pq_decompress(PQ_CODEC_ZSTD, buf.data, buf.len, back, 200000 + tlen);
	CHECK(memcmp(back, txt, 100000) == 0);
	CHECK(memcmp(back + 100000, zstd_cli_nosize_text, tlen) == 0);
	CHECK(memcmp(back + 100000 + tlen, txt + 100000, 100000) == 0);

	/* A large streamed frame that does not record its content size */
	cctx = ZSTD_createCCtx();
	CHECK(cctx != NULL);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
	pq_buffer_reset(&buf);
	pq_buffer_reserve(&buf, ZSTD_compressBound(200000) + 64);
	in.src = txt;
	in.size = 200000;
	in.pos = 0;
	zout.dst = buf.data;
	zout.size = buf.cap;
	zout.pos = 0;
	n = ZSTD_compressStream2(cctx, &zout, &in, ZSTD_e_end);
	ZSTD_freeCCtx(cctx);
	CHECK_EQ_INT(n, 0);
	CHECK(ZSTD_getFrameContentSize(buf.data, zout.pos) == ZSTD_CONTENTSIZE_UNKNOWN);
	pq_decompress(PQ_CODEC_ZSTD, buf.data, zout.pos, back, 200000);
	CHECK(memcmp(back, txt, 200000) == 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_ZSTD, buf.data, zout.pos, back, 199999),
				ERRCODE_DATA_CORRUPTED);
}

/* page_v2_empty_compressed: a real ZSTD frame of zero bytes must decode. */
static void
test_zstd_empty_frame(void)
{
	uint8		out[1];
	uint8		small[32];
	size_t		n;

	pq_decompress(PQ_CODEC_ZSTD, zstd_cli_empty, sizeof(zstd_cli_empty), NULL, 0);
	pq_decompress(PQ_CODEC_ZSTD, zstd_cli_empty, sizeof(zstd_cli_empty), out, 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_ZSTD, zstd_cli_empty,
							  sizeof(zstd_cli_empty), out, 1),
				ERRCODE_DATA_CORRUPTED);

	/* The library's own empty frame, without checksum */
	n = ZSTD_compress(small, sizeof(small), "", 0, 3);
	CHECK(!ZSTD_isError(n) && n > 0);
	pq_decompress(PQ_CODEC_ZSTD, small, n, NULL, 0);
}

static void
test_snappy_independent(void)
{
	/* Hand-made: length 5, one 5-byte literal */
	static const uint8 hello[] = {0x05, 0x10, 'h', 'e', 'l', 'l', 'o'};

	/* Length 12, 4-byte literal, copy of 8 bytes at offset 4 */
	static const uint8 abcd[] = {0x0c, 0x0c, 'a', 'b', 'c', 'd', 0x11, 0x04};
	static const uint8 empty[] = {0x00};
	uint8	   *txt = compressible_bytes(100000);
	uint8	   *back = palloc(100000);
	PqBuffer	buf;
	size_t		n;

	pq_decompress(PQ_CODEC_SNAPPY, hello, sizeof(hello), back, 5);
	CHECK(memcmp(back, "hello", 5) == 0);
	pq_decompress(PQ_CODEC_SNAPPY, abcd, sizeof(abcd), back, 12);
	CHECK(memcmp(back, "abcdabcdabcd", 12) == 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_SNAPPY, abcd, sizeof(abcd), back, 11),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "SNAPPY") != NULL);

	/* Zero bytes of input for an empty page, and snappy's empty stream */
	pq_decompress(PQ_CODEC_SNAPPY, NULL, 0, NULL, 0);
	pq_decompress(PQ_CODEC_SNAPPY, empty, 0, back, 0);
	pq_decompress(PQ_CODEC_SNAPPY, empty, sizeof(empty), back, 0);

	/* The library called directly */
	pq_buffer_init(&buf, 0);
	n = snappy_max_compressed_length(100000);
	pq_buffer_reserve(&buf, n);
	CHECK(snappy_compress((char *) txt, 100000, (char *) buf.data, &n) == SNAPPY_OK);
	pq_decompress(PQ_CODEC_SNAPPY, buf.data, n, back, 100000);
	CHECK(memcmp(back, txt, 100000) == 0);
}

/* Inputs that make each kind of snappy element, some n bytes long. */
static uint8 *
snappy_shape(int kind, size_t n)
{
	uint8	   *p = palloc_extended(n + 1, MCXT_ALLOC_HUGE);
	size_t		i;

	for (i = 0; i < n; i++)
	{
		uint64		r = ut_rng_next();

		switch (kind)
		{
			case 0:				/* incompressible: long literals */
				p[i] = (uint8) r;
				break;
			case 1:				/* runs: copies with offsets 1 to 7 */
				p[i] = i < 8 || r % 61 == 0 ? (uint8) r : p[i - 1 - (i / 97) % 7];
				break;
			case 2:				/* the bench's PLAIN doubles */
				{
					double		d = (double) ((i / 8 * 7919) % 10000) / 100.0;

					p[i] = ((uint8 *) &d)[i % 8];
				}
				break;
			case 3:				/* sequential int64: 1-byte literals, 7-byte copies */
				{
					uint64		id = 5000000 + i / 8;

					p[i] = (uint8) (id >> (8 * (i % 8)));
				}
				break;
			case 4:				/* 12-byte records: copies of 4 to 11 bytes, offset 12 */
				p[i] = i < 12 || r % 5 == 0 ? (uint8) r : p[i - 12];
				break;
			default:			/* far copies (2- and 4-byte offsets) */
				p[i] = i < 70000 ? (uint8) (r % 7) : p[i - 70000 + r % 3];
				break;
		}
	}
	return p;
}

/*
 * The decoder against libsnappy: on streams libsnappy wrote, of every kind
 * of element and length, the same bytes; on each stream with one byte
 * changed, the same verdict, and the same bytes when both accept it.
 */
static void
test_snappy_against_library(void)
{
	static const size_t sizes[] = {1, 15, 16, 17, 64, 65, 1000, 70001, 200000};
	int			kind;
	int			k;
	int			accepted = 0;
	int			rejected = 0;

	for (kind = 0; kind < 6; kind++)
		for (k = 0; k < lengthof(sizes); k++)
		{
			size_t		n = sizes[k];
			uint8	   *in = snappy_shape(kind, n);
			size_t		clen = snappy_max_compressed_length(n);
			uint8	   *c = palloc(clen);
			uint8	   *mine = palloc(n + 1);
			uint8	   *theirs = palloc(n + 1);
			int			m;

			CHECK(snappy_compress((char *) in, n, (char *) c, &clen) == SNAPPY_OK);
			pq_decompress(PQ_CODEC_SNAPPY, c, clen, mine, n);
			CHECK(memcmp(mine, in, n) == 0);

			for (m = 0; m < (n > 1000 ? 40 : 200); m++)
			{
				size_t		at = ut_rng_next() % clen;
				uint8		was = c[at];
				size_t		len;
				size_t		tlen = n;
				bool		ok;
				volatile bool raised = false;

				shim_last_sqlstate = 0;
				c[at] ^= (uint8) (1 + ut_rng_next() % 255);
				ok = snappy_uncompressed_length((char *) c, clen, &len) == SNAPPY_OK &&
					len == n &&
					snappy_uncompress((char *) c, clen, (char *) theirs, &tlen) == SNAPPY_OK;
				PG_TRY();
				{
					pq_decompress(PQ_CODEC_SNAPPY, c, clen, mine, n);
				}
				PG_CATCH();
				{
					raised = true;
				}
				PG_END_TRY();
				CHECK(ok != raised);
				CHECK(!raised || shim_last_sqlstate == ERRCODE_DATA_CORRUPTED);
				if (ok && !raised)
				{
					CHECK(memcmp(mine, theirs, n) == 0);
					accepted++;
				}
				else
					rejected++;
				c[at] = was;
			}
		}
	/* both verdicts came up */
	CHECK(accepted > 0 && rejected > 0);
}

static void
test_brotli_independent(void)
{
	/* Brotli's encoding of empty input */
	static const uint8 empty[] = {0x06};
	uint8	   *txt = compressible_bytes(100000);
	uint8	   *back = palloc(100000 + 1);
	PqBuffer	buf;
	size_t		n;

	pq_decompress(PQ_CODEC_BROTLI, empty, sizeof(empty), back, 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_BROTLI, empty, sizeof(empty), back, 1),
				ERRCODE_DATA_CORRUPTED);

	pq_buffer_init(&buf, 0);
	n = BrotliEncoderMaxCompressedSize(100000);
	pq_buffer_reserve(&buf, n + 1);
	CHECK(BrotliEncoderCompress(5, 18, BROTLI_MODE_TEXT, 100000, txt, &n,
								buf.data));
	pq_decompress(PQ_CODEC_BROTLI, buf.data, n, back, 100000);
	CHECK(memcmp(back, txt, 100000) == 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_BROTLI, buf.data, n, back, 100001),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decompress(PQ_CODEC_BROTLI, buf.data, n, back, 99999),
				ERRCODE_DATA_CORRUPTED);

	/* Bytes after the end of the stream */
	buf.data[n] = 0;
	CHECK_ERROR(pq_decompress(PQ_CODEC_BROTLI, buf.data, n + 1, back, 100000),
				ERRCODE_DATA_CORRUPTED);
}

/* Append a Hadoop frame holding data[0..len) as one LZ4 block. */
static void
append_hadoop_frame(PqBuffer *buf, const uint8 *data, int len)
{
	int			bound = LZ4_compressBound(len);
	int			n;
	uint8	   *hdr;

	pq_buffer_reserve(buf, 8 + bound);
	hdr = buf->data + buf->len;
	n = LZ4_compress_default((const char *) data, (char *) hdr + 8, len, bound);
	if (n <= 0)
		abort();
	hdr[0] = (uint8) (len >> 24);
	hdr[1] = (uint8) (len >> 16);
	hdr[2] = (uint8) (len >> 8);
	hdr[3] = (uint8) len;
	hdr[4] = (uint8) (n >> 24);
	hdr[5] = (uint8) (n >> 16);
	hdr[6] = (uint8) (n >> 8);
	hdr[7] = (uint8) n;
	buf->len += 8 + n;
}

/*
 * ZSTD and BROTLI allow ratios of 30,000 and more: their pages are read
 * whatever the ratio up to PQ_DECODED_MIN, beyond it up to 1032 times the
 * compressed bytes (issue 38: no tiny file stands for gigabytes).  The
 * pages are real: made by the libraries, 40 MB of zeros in a few kB.
 */
static void
test_unbounded_codec_ratio(void)
{
	size_t		big = PQ_DECODED_MIN + 8 * 1024 * 1024;
	size_t		small = 16 * 1024 * 1024;
	uint8	   *zeros = palloc0(big);
	size_t		zcap = ZSTD_compressBound(big);
	uint8	   *z = palloc(zcap);
	size_t		zlen = ZSTD_compress(z, zcap, zeros, big, 3);
	size_t		blen = BrotliEncoderMaxCompressedSize(big);
	uint8	   *b = palloc(blen);
	uint8	   *out = palloc(small);
	size_t		i;

	CHECK(!ZSTD_isError(zlen) && zlen < big / 1032);
	CHECK_ERROR(pq_check_page_size(PQ_CODEC_ZSTD, zlen, big),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	CHECK(strstr(shim_last_message, "read up to 1032 times their compressed size") != NULL);
	CHECK(BrotliEncoderCompress(1, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
								big, zeros, &blen, b));
	CHECK(blen < big / 1032);
	CHECK_ERROR(pq_check_page_size(PQ_CODEC_BROTLI, blen, big),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);

	/* up to the floor any ratio is read, and decompresses */
	zlen = ZSTD_compress(z, zcap, zeros, small, 3);
	CHECK(!ZSTD_isError(zlen) && zlen < small / 1032);
	pq_check_page_size(PQ_CODEC_ZSTD, zlen, small);
	memset(out, 1, small);
	pq_decompress(PQ_CODEC_ZSTD, z, zlen, out, small);
	for (i = 0; i < small && out[i] == 0; i++)
		;
	CHECK(i == small);

	/* beyond it, at 1032 times or less */
	pq_check_page_size(PQ_CODEC_ZSTD, big / 1032 + 1, big);
	pq_check_page_size(PQ_CODEC_BROTLI, big / 1000, big);
	CHECK_ERROR(pq_check_page_size(PQ_CODEC_BROTLI, big / 1032 - 1, big),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	/* GZIP keeps its own bound, its format's maximum */
	pq_check_page_size(PQ_CODEC_GZIP, big / 1032 + 1, big);
	shim_free_all();
}

static void
test_lz4_independent(void)
{
	/*
	 * Hand-made block for "abcd" x 5: 4 literals + match (offset 4, length
	 * 11), then the 5 final literals "dabcd".
	 */
	static const uint8 block[] = {
		0x47, 'a', 'b', 'c', 'd', 0x04, 0x00, 0x50, 'd', 'a', 'b', 'c', 'd'
	};
	static const char block_text[] = "abcdabcdabcdabcdabcd";
	uint8	   *txt = compressible_bytes(300000);
	uint8	   *back = palloc(300001);
	PqBuffer	buf;
	int			n;

	pq_decompress(PQ_CODEC_LZ4_RAW, block, sizeof(block), back, 20);
	CHECK(memcmp(back, block_text, 20) == 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZ4_RAW, block, sizeof(block), back, 19),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZ4_RAW, block, sizeof(block), back, 21),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "LZ4_RAW") != NULL);

	/* The same bare block under the deprecated codec: raw fallback */
	pq_decompress(PQ_CODEC_LZ4, block, sizeof(block), back, 20);
	CHECK(memcmp(back, block_text, 20) == 0);

	/* A library-made bare block under both codecs */
	pq_buffer_init(&buf, 0);
	pq_buffer_reserve(&buf, LZ4_compressBound(300000));
	n = LZ4_compress_default((char *) txt, (char *) buf.data, 300000,
							 LZ4_compressBound(300000));
	CHECK(n > 0);
	pq_decompress(PQ_CODEC_LZ4_RAW, buf.data, n, back, 300000);
	CHECK(memcmp(back, txt, 300000) == 0);
	memset(back, 0, 300000);
	pq_decompress(PQ_CODEC_LZ4, buf.data, n, back, 300000);
	CHECK(memcmp(back, txt, 300000) == 0);

	/* Hadoop framing, three frames of different sizes (one empty) */
	pq_buffer_reset(&buf);
	append_hadoop_frame(&buf, txt, 100000);
	append_hadoop_frame(&buf, txt + 100000, 0);
	append_hadoop_frame(&buf, txt + 100000, 150000);
	append_hadoop_frame(&buf, txt + 250000, 50000);
	memset(back, 0, 300000);
	pq_decompress(PQ_CODEC_LZ4, buf.data, buf.len, back, 300000);
	CHECK(memcmp(back, txt, 300000) == 0);

	/* Frames add up to less or more than expected: neither reading fits. */
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZ4, buf.data, buf.len, back, 300001),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZ4, buf.data, buf.len, back, 299999),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "LZ4") != NULL);

	/* A frame whose uncompressed size is off by one */
	buf.data[3] ^= 1;
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZ4, buf.data, buf.len, back, 300000),
				ERRCODE_DATA_CORRUPTED);
	buf.data[3] ^= 1;

	/* A compressed size running past the input */
	buf.data[4] = 0x7f;
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZ4, buf.data, buf.len, back, 300000),
				ERRCODE_DATA_CORRUPTED);

	/* A partial frame header at the end */
	pq_buffer_reset(&buf);
	append_hadoop_frame(&buf, txt, 1000);
	pq_buffer_append(&buf, "\0\0\0", 3);
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZ4, buf.data, buf.len, back, 1000),
				ERRCODE_DATA_CORRUPTED);
}

/* A decoded size other than the expected one is corruption, for every codec. */
static void
test_size_mismatch(void)
{
	uint8	   *txt = compressible_bytes(10000);
	uint8	   *back = palloc(10001);
	int			i;

	for (i = 0; i < (int) lengthof(all_codecs); i++)
	{
		PqBuffer	out;

		pq_buffer_init(&out, 0);
		pq_compress(all_codecs[i], -1, txt, 10000, &out);
		CHECK_ERROR(pq_decompress(all_codecs[i], out.data, out.len, back, 9999),
					ERRCODE_DATA_CORRUPTED);
		CHECK_ERROR(pq_decompress(all_codecs[i], out.data, out.len, back, 10001),
					ERRCODE_DATA_CORRUPTED);
		CHECK_ERROR(pq_decompress(all_codecs[i], out.data, out.len, back, 0),
					ERRCODE_DATA_CORRUPTED);
		CHECK(strstr(shim_last_message, pq_codec_name(all_codecs[i])) != NULL);
	}
}

/*
 * Damaged and random input must raise DATA_CORRUPTED (or, for a damaged
 * byte that still decodes to the right size, succeed), never crash or
 * read out of bounds.
 */
static void
test_garbage(void)
{
	uint8	   *txt = compressible_bytes(3000);
	uint8	   *back = palloc(3000);
	uint8	   *junk = palloc(4096);
	int			i;

	for (i = 0; i < (int) lengthof(real_codecs); i++)
	{
		int			c = real_codecs[i];
		PqBuffer	out;
		size_t		len;
		size_t		pos;
		int			round;

		pq_buffer_init(&out, 0);
		pq_compress(c, -1, txt, 3000, &out);

		/* Every truncation */
		for (len = 0; len < out.len; len++)
			CHECK_EQ_INT(decompress_status(c, out.data, len, back, 3000),
						 ERRCODE_DATA_CORRUPTED);

		/* Trailing junk */
		pq_buffer_append(&out, "\x01\x02\x03\x04\x05\x06\x07\x08\x09", 9);
		for (len = out.len - 9; len < out.len; len++)
			CHECK_EQ_INT(decompress_status(c, out.data, len + 1, back, 3000),
						 ERRCODE_DATA_CORRUPTED);
		out.len -= 9;

		/* Every byte flipped in turn */
		for (pos = 0; pos < out.len; pos++)
		{
			int			st;

			out.data[pos] ^= 0xa5;
			st = decompress_status(c, out.data, out.len, back, 3000);
			CHECK(st == 0 || st == ERRCODE_DATA_CORRUPTED);
			out.data[pos] ^= 0xa5;
		}

		/* Random bytes, all-ones, all-zeros */
		for (round = 0; round < 200; round++)
		{
			size_t		jlen = 1 + ut_rng_next() % 4096;

			for (pos = 0; pos < jlen; pos++)
				junk[pos] = (uint8) ut_rng_next();
			CHECK_EQ_INT(decompress_status(c, junk, jlen, back, 3000),
						 ERRCODE_DATA_CORRUPTED);
			CHECK_EQ_INT(decompress_status(c, junk, jlen, back, 0),
						 ERRCODE_DATA_CORRUPTED);
		}
		memset(junk, 0xff, 4096);
		CHECK_EQ_INT(decompress_status(c, junk, 4096, back, 3000),
					 ERRCODE_DATA_CORRUPTED);
		memset(junk, 0, 4096);
		CHECK_EQ_INT(decompress_status(c, junk, 4096, back, 3000),
					 ERRCODE_DATA_CORRUPTED);

		/* No stream at all for a non-empty page */
		CHECK_EQ_INT(decompress_status(c, NULL, 0, back, 3000),
					 ERRCODE_DATA_CORRUPTED);
	}
}

/* srclen 0 with dstlen 0 is an empty page for every codec. */
static void
test_empty_page(void)
{
	int			i;

	for (i = 0; i < (int) lengthof(all_codecs); i++)
		pq_decompress(all_codecs[i], NULL, 0, NULL, 0);
}

static void
test_uncompressed(void)
{
	uint8		back[4];

	pq_decompress(PQ_CODEC_UNCOMPRESSED, (const uint8 *) "abcd", 4, back, 4);
	CHECK(memcmp(back, "abcd", 4) == 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_UNCOMPRESSED, (const uint8 *) "abcd", 4,
							  back, 3),
				ERRCODE_DATA_CORRUPTED);
}

static void
test_unsupported(void)
{
	PqBuffer	out;
	uint8		b[4] = {0};

	pq_buffer_init(&out, 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZO, b, 4, b, 4),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK(strstr(shim_last_message, "LZO") != NULL);
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZO, NULL, 0, NULL, 0),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(pq_compress(PQ_CODEC_LZO, -1, b, 4, &out),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK(strstr(shim_last_message, "LZO") != NULL);
	CHECK_ERROR(pq_decompress(42, b, 4, b, 4), ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK(strstr(shim_last_message, "42") != NULL);
	CHECK_ERROR(pq_decompress(-1, b, 4, b, 4), ERRCODE_FEATURE_NOT_SUPPORTED);
}

/* Sizes beyond a Parquet page are refused before any library call. */
static void
test_oversize(void)
{
	uint8		b[4] = {0};
	PqBuffer	out;

	pq_buffer_init(&out, 0);
	CHECK_ERROR(pq_decompress(PQ_CODEC_LZ4_RAW, b, (size_t) PG_INT32_MAX + 1,
							  b, 4),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decompress(PQ_CODEC_GZIP, b, 4, b,
							  (size_t) PG_UINT32_MAX + 2),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_compress(PQ_CODEC_SNAPPY, -1, b, (size_t) PG_INT32_MAX + 1,
							&out),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);
}

static void
test_crc32(void)
{
	static const char fox[] = "The quick brown fox jumps over the lazy dog";

	CHECK_EQ_INT(pq_crc32((const uint8 *) "123456789", 9), 0xCBF43926U);
	CHECK_EQ_INT(pq_crc32((const uint8 *) fox, strlen(fox)), 0x414FA339U);
	CHECK_EQ_INT(pq_crc32(NULL, 0), 0);
}

void
suite_codec(void)
{
	ut_run("codec_supported", test_codec_supported);
	ut_run("codec_level_ranges", test_level_ranges);
	ut_run("codec_roundtrip_sizes", test_roundtrip_sizes);
	ut_run("codec_roundtrip_levels", test_roundtrip_levels);
	ut_run("codec_level_out_of_range", test_level_out_of_range);
	ut_run("codec_compress_appends", test_compress_appends);
	ut_run("codec_compress_format", test_compress_format);
	ut_run("codec_gzip_independent", test_gzip_independent);
	ut_run("codec_zstd_independent", test_zstd_independent);
	ut_run("codec_zstd_empty_frame", test_zstd_empty_frame);
	ut_run("codec_snappy_independent", test_snappy_independent);
	ut_run("codec_snappy_against_library", test_snappy_against_library);
	ut_run("codec_brotli_independent", test_brotli_independent);
	ut_run("codec_lz4_independent", test_lz4_independent);
	ut_run("codec_unbounded_ratio", test_unbounded_codec_ratio);
	ut_run("codec_size_mismatch", test_size_mismatch);
	ut_run("codec_garbage", test_garbage);
	ut_run("codec_empty_page", test_empty_page);
	ut_run("codec_uncompressed", test_uncompressed);
	ut_run("codec_unsupported", test_unsupported);
	ut_run("codec_oversize", test_oversize);
	ut_run("codec_crc32", test_crc32);
}
