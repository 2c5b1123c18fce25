/*
 * test_delta.c
 *		DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
 *
 * The hand vectors follow the specification's examples, re-encoded with a
 * valid block size (128 values, 4 miniblocks of 32; the examples' block
 * size 8 is invalid, as the specification notes).  One vector is a page
 * written by parquet-mr 1.10 (delta_binary_packed.parquet in
 * parquet-testing, column bitwidth3: two blocks, the last one short).
 */
#include "postgres.h"

#include "format/encoding/encoding.h"
#include "unit_test.h"


static bool
buffer_is(const PqBuffer *buf, const uint8 *expect, size_t len)
{
	return buf->len == len && memcmp(buf->data, expect, len) == 0;
}

/* Spec example 1: 1, 2, 3, 4, 5; min delta 1, all bit widths 0. */
static const uint8 spec1[] = {
	0x80, 0x01, 0x04, 0x05, 0x02,
	0x02, 0x00, 0x00, 0x00, 0x00
};

/*
 * Spec example 2: 7, 5, 3, 1, 2, 3, 4, 5; min delta -2, relative deltas
 * 0,0,0,3,3,3,3 in 2 bits (11000000 00111111), the miniblock padded to 32
 * values.
 */
static const uint8 spec2[] = {
	0x80, 0x01, 0x04, 0x08, 0x0E,
	0x03, 0x02, 0x00, 0x00, 0x00,
	0xC0, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
};
static const int64 spec2_values[] = {7, 5, 3, 1, 2, 3, 4, 5};

static const uint8 parquet_mr_bitwidth3[] = {
	0x80, 0x01, 0x04, 0xc8, 0x01, 0x00, 0x07, 0x03, 0x03, 0x03, 0x03, 0xb8,
	0xd0, 0xb9, 0x45, 0x85, 0x92, 0x57, 0xe4, 0xb4, 0xd8, 0xae, 0xbf, 0x1a,
	0x03, 0xb8, 0xb3, 0x96, 0x06, 0x62, 0xdf, 0x3c, 0x42, 0x6c, 0x8a, 0xd9,
	0xef, 0x77, 0xd4, 0xdb, 0x0e, 0x56, 0xcc, 0x3b, 0x21, 0x28, 0x64, 0x90,
	0x5e, 0x38, 0x23, 0x99, 0x0f, 0x18, 0xc5, 0xfe, 0xf8, 0xe6, 0xde, 0x07,
	0x03, 0x03, 0x03, 0x03, 0xb7, 0xd8, 0xb0, 0x21, 0x75, 0x5e, 0x42, 0x46,
	0x3a, 0x45, 0x12, 0x6d, 0xab, 0x11, 0xf7, 0xa2, 0x26, 0x2b, 0x9e, 0xab,
	0xcf, 0xff, 0x37, 0xdb, 0x37, 0x3b, 0x64, 0xd4, 0xdb, 0x0e, 0x56, 0xcc,
	0x3b, 0x21, 0x28, 0x64
};
static const int8 parquet_mr_bitwidth3_expect[200] = {
	0, -4, -1, -3, -7, -6, -7, -5, -4, -3, -7, -6, -8, -12, -11, -11,
	-11, -8, -10, -13, -15, -13, -16, -15, -14, -18, -19, -20, -17, -19, -16, -13,
	-12, -14, -15, -15, -18, -22, -26, -24, -23, -24, -22, -24, -25, -28, -27, -30,
	-34, -36, -36, -35, -32, -31, -34, -31, -34, -36, -40, -43, -41, -39, -39, -41,
	-41, -44, -45, -42, -39, -37, -34, -33, -34, -34, -36, -33, -32, -31, -30, -31,
	-35, -33, -35, -38, -36, -36, -33, -31, -34, -37, -37, -41, -41, -43, -47, -50,
	-51, -55, -57, -59, -56, -55, -59, -57, -60, -61, -61, -61, -61, -64, -61, -62,
	-66, -70, -71, -71, -73, -73, -72, -69, -66, -70, -67, -68, -69, -67, -66, -63,
	-61, -58, -56, -58, -58, -57, -60, -60, -59, -62, -62, -62, -64, -61, -61, -58,
	-60, -62, -66, -69, -70, -70, -70, -68, -71, -70, -74, -77, -80, -83, -85, -86,
	-87, -88, -87, -85, -89, -92, -90, -89, -86, -88, -88, -90, -91, -93, -91, -93,
	-96, -94, -95, -93, -92, -94, -91, -92, -90, -87, -84, -81, -82, -83, -81, -79,
	-77, -74, -72, -72, -71, -72, -76, -79
};

static void
test_delta_spec_examples(void)
{
	PqDeltaDecoder d;
	uint8	   *buf = ut_exact_copy(spec1, sizeof(spec1));
	int64		out[8];
	int32		out32[8];
	int			i;

	pq_delta_init(&d, buf, sizeof(spec1));
	pq_delta_read_i64(&d, out, 5);
	for (i = 0; i < 5; i++)
		CHECK_EQ_INT(out[i], i + 1);
	CHECK(pq_delta_end(&d) == buf + sizeof(spec1));

	buf = ut_exact_copy(spec2, sizeof(spec2));
	pq_delta_init(&d, buf, sizeof(spec2));
	pq_delta_read_i32(&d, out32, 3);
	pq_delta_read_i32(&d, out32 + 3, 5);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(out32[i], spec2_values[i]);
	CHECK(pq_delta_end(&d) == buf + sizeof(spec2));
}

/* The encoder produces exactly the hand vectors. */
static void
test_delta_encoder_vectors(void)
{
	static const int64 v1[] = {1, 2, 3, 4, 5};
	static const int32 v2[] = {7, 5, 3, 1, 2, 3, 4, 5};
	PqBuffer	buf;

	pq_buffer_init(&buf, 0);
	pq_delta_encode_i64(&buf, v1, 5);
	CHECK(buffer_is(&buf, spec1, sizeof(spec1)));
	pq_buffer_reset(&buf);
	pq_delta_encode_i32(&buf, v2, 8);
	CHECK(buffer_is(&buf, spec2, sizeof(spec2)));
	pq_buffer_reset(&buf);
	pq_delta_encode_i64(&buf, spec2_values, 8);
	CHECK(buffer_is(&buf, spec2, sizeof(spec2)));
	/* no values: header only, first value 0 */
	pq_buffer_reset(&buf);
	pq_delta_encode_i32(&buf, NULL, 0);
	CHECK(buffer_is(&buf, (const uint8 *) "\x80\x01\x04\x00\x00", 5));
}

static void
test_delta_parquet_mr(void)
{
	PqDeltaDecoder d;
	uint8	   *buf = ut_exact_copy(parquet_mr_bitwidth3,
								 sizeof(parquet_mr_bitwidth3));
	int64		out[200];
	int			i;

	pq_delta_init(&d, buf, sizeof(parquet_mr_bitwidth3));
	pq_delta_read_i64(&d, out, 1);
	pq_delta_read_i64(&d, out + 1, 150);
	pq_delta_read_i64(&d, out + 151, 49);
	for (i = 0; i < 200; i++)
		CHECK_EQ_INT(out[i], parquet_mr_bitwidth3_expect[i]);
	CHECK(pq_delta_end(&d) == buf + sizeof(parquet_mr_bitwidth3));
}

static void
test_delta_single_value(void)
{
	static const uint8 one[] = {0x80, 0x01, 0x04, 0x01, 0x05};
	PqDeltaDecoder d;
	uint8	   *buf = ut_exact_copy(one, sizeof(one));
	int64		out[2];

	pq_delta_init(&d, buf, sizeof(one));
	pq_delta_read_i64(&d, out, 1);
	CHECK_EQ_INT(out[0], -3);
	CHECK(pq_delta_end(&d) == buf + sizeof(one));
	CHECK_ERROR(pq_delta_read_i64(&d, out, 1), ERRCODE_DATA_CORRUPTED);
}

/*
 * 0, INT64_MIN, -1: deltas INT64_MIN and INT64_MAX, min delta INT64_MIN
 * (zigzag 2^64 - 1, ten varint bytes), relative deltas 0 and 2^64 - 1 in
 * one 64-bit miniblock.
 */
static void
test_delta_width64(void)
{
	static const int64 vals[] = {0, PG_INT64_MIN, -1};
	uint8		bytes[275];
	PqDeltaDecoder d;
	PqBuffer	buf;
	int64		out[3];
	int			i;

	memset(bytes, 0, sizeof(bytes));
	memcpy(bytes, "\x80\x01\x04\x03\x00", 5);
	memset(bytes + 5, 0xFF, 9);
	bytes[14] = 0x01;
	bytes[15] = 64;
	memset(bytes + 19 + 8, 0xFF, 8);

	pq_delta_init(&d, ut_exact_copy(bytes, sizeof(bytes)), sizeof(bytes));
	pq_delta_read_i64(&d, out, 3);
	for (i = 0; i < 3; i++)
		CHECK(out[i] == vals[i]);
	pq_buffer_init(&buf, 0);
	pq_delta_encode_i64(&buf, vals, 3);
	CHECK(buffer_is(&buf, bytes, sizeof(bytes)));
}

/* Alternating extremes overflow every delta; the wrap restores them. */
static void
test_delta_int64_extremes(void)
{
	int			n = 300;
	int64	   *vals = palloc(sizeof(int64) * n);
	int64	   *out = palloc(sizeof(int64) * n);
	PqDeltaDecoder d;
	PqBuffer	buf;
	int			i;

	for (i = 0; i < n; i++)
		vals[i] = (i % 2) ? PG_INT64_MAX : PG_INT64_MIN;
	pq_buffer_init(&buf, 0);
	pq_delta_encode_i64(&buf, vals, n);
	pq_delta_init(&d, ut_exact_copy(buf.data, buf.len), buf.len);
	pq_delta_read_i64(&d, out, n);
	for (i = 0; i < n; i++)
		CHECK(out[i] == vals[i]);
}

/*
 * INT32_MAX, INT32_MIN: a 32-bit writer stores the delta as +1 (wrapped).
 * Values written with 64-bit deltas (33-bit miniblocks) must truncate to
 * the same INT32 values.
 */
static void
test_delta_int32_wrap(void)
{
	static const uint8 wrap[] = {0x80, 0x01, 0x04, 0x02,
		0xFE, 0xFF, 0xFF, 0xFF, 0x0F,
	0x02, 0x00, 0x00, 0x00, 0x00};
	static const int32 vals[] = {PG_INT32_MAX, PG_INT32_MIN, PG_INT32_MAX, 5,
	-7};
	int64		vals64[5];
	int32		out[5];
	PqDeltaDecoder d;
	PqBuffer	buf;
	int			i;

	pq_delta_init(&d, ut_exact_copy(wrap, sizeof(wrap)), sizeof(wrap));
	pq_delta_read_i32(&d, out, 2);
	CHECK_EQ_INT(out[0], PG_INT32_MAX);
	CHECK_EQ_INT(out[1], PG_INT32_MIN);
	pq_buffer_init(&buf, 0);
	pq_delta_encode_i32(&buf, vals, 2);
	CHECK(buffer_is(&buf, wrap, sizeof(wrap)));

	for (i = 0; i < 5; i++)
		vals64[i] = vals[i];
	pq_buffer_reset(&buf);
	pq_delta_encode_i64(&buf, vals64, 5);
	CHECK_EQ_INT(buf.data[14], 33);
	pq_delta_init(&d, ut_exact_copy(buf.data, buf.len), buf.len);
	pq_delta_read_i32(&d, out, 5);
	for (i = 0; i < 5; i++)
		CHECK_EQ_INT(out[i], vals[i]);
}

/* Unused miniblocks' bit widths and padding bits may be anything. */
static void
test_delta_garbage(void)
{
	uint8		bytes[sizeof(spec2)];
	PqDeltaDecoder d;
	uint8	   *buf;
	int64		out[8];
	int			i;

	memcpy(bytes, spec2, sizeof(spec2));
	memset(bytes + 7, 0xFF, 3);
	bytes[11] = 0xFF;
	memset(bytes + 12, 0xA5, 6);
	buf = ut_exact_copy(bytes, sizeof(bytes));
	pq_delta_init(&d, buf, sizeof(bytes));
	pq_delta_read_i64(&d, out, 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(out[i], spec2_values[i]);
	CHECK(pq_delta_end(&d) == buf + sizeof(bytes));
}

/*
 * A last miniblock without its padding: values decode, but the end of the
 * data (where DELTA_LENGTH_BYTE_ARRAY bytes would start) is unknown.
 */
static void
test_delta_short_last_block(void)
{
	PqDeltaDecoder d;
	int64		out[8];
	int			i;

	pq_delta_init(&d, ut_exact_copy(spec2, 12), 12);
	pq_delta_read_i64(&d, out, 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(out[i], spec2_values[i]);
	CHECK_ERROR(pq_delta_end(&d), ERRCODE_DATA_CORRUPTED);

	/* the bytes of a needed value must exist */
	pq_delta_init(&d, ut_exact_copy(spec2, 11), 11);
	CHECK_ERROR(pq_delta_read_i64(&d, out, 8), ERRCODE_DATA_CORRUPTED);
}

static void
test_delta_corrupt_headers(void)
{
	static const uint8 literal_spec[] = {0x08, 0x01, 0x05, 0x02, 0x02, 0x00};
	static const uint8 block0[] = {0x00, 0x04, 0x01, 0x00};
	static const uint8 block100[] = {0x64, 0x04, 0x01, 0x00};
	static const uint8 huge_block[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
	0x04, 0x01, 0x00};
	static const uint8 mb0[] = {0x80, 0x01, 0x00, 0x01, 0x00};
	static const uint8 mb3[] = {0x80, 0x01, 0x03, 0x01, 0x00};
	static const uint8 mb8[] = {0x80, 0x01, 0x08, 0x01, 0x00};
	static const uint8 huge_total[] = {0x80, 0x01, 0x04,
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
	static const uint8 cut_header[] = {0x80, 0x01, 0x04};
	PqDeltaDecoder d;

	CHECK_ERROR(pq_delta_init(&d, literal_spec, sizeof(literal_spec)),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_init(&d, block0, sizeof(block0)),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_init(&d, block100, sizeof(block100)),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_init(&d, huge_block, sizeof(huge_block)),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_init(&d, mb0, sizeof(mb0)), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_init(&d, mb3, sizeof(mb3)), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_init(&d, mb8, sizeof(mb8)), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_init(&d, huge_total, sizeof(huge_total)),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_init(&d, cut_header, sizeof(cut_header)),
				ERRCODE_DATA_CORRUPTED);
}

static void
test_delta_corrupt_blocks(void)
{
	static const uint8 two_blocks[] = {
		0x80, 0x01, 0x04, 0x82, 0x01, 0x00,
		0x80, 0x80, 0x80, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00
	};
	uint8		wide[10 + 4 * 65];
	PqDeltaDecoder d;
	int64		out[8];
	int			i;

	/* a used miniblock wider than 64 bits, with bytes enough for 65 */
	memset(wide, 0, sizeof(wide));
	memcpy(wide, spec2, 10);
	wide[6] = 65;
	pq_delta_init(&d, wide, sizeof(wide));
	CHECK_ERROR(pq_delta_read_i64(&d, out, 2), ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "bit width 65") != NULL);
	/* too short for even one block header */
	CHECK_ERROR(pq_delta_init(&d, spec2, 8), ERRCODE_DATA_CORRUPTED);

	/*
	 * 130 values in two blocks; a long min delta varint in the first leaves
	 * the second block's bit widths cut short.
	 */
	pq_delta_init(&d, two_blocks, sizeof(two_blocks));
	pq_delta_read_i64(&d, out, 8);
	CHECK_EQ_INT(out[7], 7 * INT64CONST(0x8000000));
	for (i = 8; i < 129; i += 8)
		pq_delta_read_i64(&d, out, Min(8, 129 - i));
	CHECK_ERROR(pq_delta_read_i64(&d, out, 1), ERRCODE_DATA_CORRUPTED);
	/* more values than the header promises */
	pq_delta_init(&d, spec1, sizeof(spec1));
	CHECK_ERROR(pq_delta_read_i64(&d, out, 6), ERRCODE_DATA_CORRUPTED);
	pq_delta_read_i64(&d, out, 4);
	CHECK_ERROR(pq_delta_read_i64(&d, out, 2), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_delta_read_i64(&d, out, -1), ERRCODE_DATA_CORRUPTED);
}

/* pq_delta_end skips values that were not read. */
static void
test_delta_end_skips(void)
{
	int			n = 1000;
	int64	   *vals = palloc(sizeof(int64) * n);
	int64		out[10];
	PqDeltaDecoder d;
	PqBuffer	buf;
	uint8	   *copy;
	int			i;

	ut_rng_seed(3);
	for (i = 0; i < n; i++)
		vals[i] = (int64) (ut_rng_next() % 100000);
	pq_buffer_init(&buf, 0);
	pq_delta_encode_i64(&buf, vals, n);
	pq_buffer_append(&buf, "XYZ", 3);
	copy = ut_exact_copy(buf.data, buf.len);

	pq_delta_init(&d, copy, buf.len);
	CHECK(pq_delta_end(&d) == copy + buf.len - 3);
	pq_delta_init(&d, copy, buf.len);
	pq_delta_read_i64(&d, out, 10);
	CHECK(out[9] == vals[9]);
	CHECK(pq_delta_end(&d) == copy + buf.len - 3);
	/* a truncated skipped miniblock is noticed */
	pq_delta_init(&d, copy, buf.len - 100);
	CHECK_ERROR(pq_delta_end(&d), ERRCODE_DATA_CORRUPTED);
}

/* Random data of several shapes, read back in uneven pieces. */
static void
test_delta_roundtrip(void)
{
	static const int counts[] = {0, 1, 2, 31, 32, 33, 127, 128, 129, 130,
	1000, 5000};
	int			shape;
	int			c;

	ut_rng_seed(99);
	for (shape = 0; shape < 6; shape++)
		for (c = 0; c < lengthof(counts); c++)
		{
			int			n = counts[c];
			int64	   *v64 = palloc(sizeof(int64) * (n + 1));
			int32	   *v32 = palloc(sizeof(int32) * (n + 1));
			int64	   *o64 = palloc(sizeof(int64) * (n + 1));
			int32	   *o32 = palloc(sizeof(int32) * (n + 1));
			PqDeltaDecoder d;
			PqBuffer	buf;
			uint8	   *copy;
			int			got;
			int			i;

			for (i = 0; i < n; i++)
			{
				uint64		r = ut_rng_next();

				switch (shape)
				{
					case 0:		/* full range */
						v64[i] = (int64) r;
						break;
					case 1:		/* small noise */
						v64[i] = (int64) (r % 16) - 8;
						break;
					case 2:		/* ascending */
						v64[i] = i * 3 + (int64) (r % 3);
						break;
					case 3:		/* constant */
						v64[i] = -42;
						break;
					case 4:		/* varying magnitude per miniblock */
						v64[i] = (int64) (r >> ((i / 32) % 64));
						break;
					default:	/* extremes */
						v64[i] = (r & 1) ? PG_INT64_MAX : PG_INT64_MIN + (int64) (r % 5);
						break;
				}
				v32[i] = (int32) v64[i];
			}

			pq_buffer_init(&buf, 0);
			pq_delta_encode_i64(&buf, v64, n);
			copy = ut_exact_copy(buf.data, buf.len);
			pq_delta_init(&d, copy, buf.len);
			for (got = 0; got < n;)
			{
				int			k = 1 + (int) (ut_rng_next() % 100);

				k = Min(k, n - got);
				pq_delta_read_i64(&d, o64 + got, k);
				got += k;
			}
			for (i = 0; i < n; i++)
				CHECK(o64[i] == v64[i]);
			CHECK(pq_delta_end(&d) == copy + buf.len);

			pq_buffer_reset(&buf);
			pq_delta_encode_i32(&buf, v32, n);
			copy = ut_exact_copy(buf.data, buf.len);
			pq_delta_init(&d, copy, buf.len);
			for (got = 0; got < n;)
			{
				int			k = 1 + (int) (ut_rng_next() % 100);

				k = Min(k, n - got);
				pq_delta_read_i32(&d, o32 + got, k);
				got += k;
			}
			for (i = 0; i < n; i++)
				CHECK_EQ_INT(o32[i], v32[i]);
			CHECK(pq_delta_end(&d) == copy + buf.len);
		}
}

/* ---- DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY ---- */

/* Spec: "Hello", "World", "Foobar", "ABCDEF": lengths 5,5,6,6 in 1 bit. */
static const uint8 dlba_spec[] = {
	0x80, 0x01, 0x04, 0x04, 0x0A,
	0x00, 0x01, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00,
	'H', 'e', 'l', 'l', 'o', 'W', 'o', 'r', 'l', 'd',
	'F', 'o', 'o', 'b', 'a', 'r', 'A', 'B', 'C', 'D', 'E', 'F'
};
static const char *const dlba_words[] = {"Hello", "World", "Foobar", "ABCDEF"};

/*
 * Spec: "axis", "axle", "babble", "babyhood": prefix lengths 0,2,0,3
 * (min delta -2, 3 bits: 4,0,5), suffix lengths 4,2,6,5 (min delta -2,
 * 3 bits: 0,6,1), then "axislebabbleyhood".
 */
static const uint8 dba_spec[] = {
	0x80, 0x01, 0x04, 0x04, 0x00,
	0x03, 0x03, 0x00, 0x00, 0x00,
	0x44, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x01, 0x04, 0x04, 0x08,
	0x03, 0x03, 0x00, 0x00, 0x00,
	0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	'a', 'x', 'i', 's', 'l', 'e', 'b', 'a', 'b', 'b', 'l', 'e',
	'y', 'h', 'o', 'o', 'd'
};
static const char *const dba_words[] = {"axis", "axle", "babble", "babyhood"};

static bool
arrays_are(const PqByteArray *got, const char *const *words, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (got[i].len != strlen(words[i]) ||
			memcmp(got[i].ptr, words[i], got[i].len) != 0)
			return false;
	return true;
}

static void
words_to_arrays(const char *const *words, int n, PqByteArray *out)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		out[i].ptr = (const uint8 *) words[i];
		out[i].len = strlen(words[i]);
	}
}

static void
test_dlba_spec(void)
{
	PqValueDecoder d;
	PqByteArray out[4];
	PqBuffer	buf;

	pq_valdec_init(&d, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
				   ut_exact_copy(dlba_spec, sizeof(dlba_spec)),
				   sizeof(dlba_spec), 4);
	pq_valdec_read_byte_array(&d, 1, out);
	pq_valdec_read_byte_array(&d, 3, out + 1);
	CHECK(arrays_are(out, dlba_words, 4));

	/* a header with more lengths than the caller's values */
	pq_valdec_init(&d, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
				   ut_exact_copy(dlba_spec, sizeof(dlba_spec)),
				   sizeof(dlba_spec), 3);
	pq_valdec_read_byte_array(&d, 3, out);
	CHECK(arrays_are(out, dlba_words, 3));

	words_to_arrays(dlba_words, 4, out);
	pq_buffer_init(&buf, 0);
	pq_delta_length_encode(&buf, out, 4);
	CHECK(buffer_is(&buf, dlba_spec, sizeof(dlba_spec)));
}

static void
test_dlba_corrupt(void)
{
	static const uint8 negative[] = {0x80, 0x01, 0x04, 0x01, 0x01};
	PqValueDecoder d;
	PqByteArray out[5];

	/* data cut short, too few lengths, a negative length */
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
							   PQ_BYTE_ARRAY, 0,
							   ut_exact_copy(dlba_spec, sizeof(dlba_spec) - 1),
							   sizeof(dlba_spec) - 1, 4),
				ERRCODE_DATA_CORRUPTED);
	/* five values asked for (nulls included?), four present */
	pq_valdec_init(&d, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
				   dlba_spec, sizeof(dlba_spec), 5);
	CHECK_ERROR(pq_valdec_read_byte_array(&d, 5, out),
				ERRCODE_DATA_CORRUPTED);
	pq_valdec_read_byte_array(&d, 4, out);
	CHECK(arrays_are(out, dlba_words, 4));
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
							   PQ_BYTE_ARRAY, 0, negative,
							   sizeof(negative), 1),
				ERRCODE_DATA_CORRUPTED);
}

static void
test_dba_spec(void)
{
	PqValueDecoder d;
	PqByteArray out[6];
	PqBuffer	buf;

	pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
				   ut_exact_copy(dba_spec, sizeof(dba_spec)), sizeof(dba_spec),
				   4);
	pq_valdec_read_byte_array(&d, 2, out);
	pq_valdec_read_byte_array(&d, 2, out + 2);
	CHECK(arrays_are(out, dba_words, 4));

	/* three of four: the unread prefix length is skipped */
	pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
				   ut_exact_copy(dba_spec, sizeof(dba_spec)), sizeof(dba_spec),
				   3);
	pq_valdec_read_byte_array(&d, 3, out);
	CHECK(arrays_are(out, dba_words, 3));

	/* six asked for (nulls included?), four present */
	pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
				   ut_exact_copy(dba_spec, sizeof(dba_spec)), sizeof(dba_spec),
				   6);
	CHECK_ERROR(pq_valdec_read_byte_array(&d, 5, out),
				ERRCODE_DATA_CORRUPTED);
	pq_valdec_read_byte_array(&d, 4, out);
	CHECK(arrays_are(out, dba_words, 4));

	words_to_arrays(dba_words, 4, out);
	pq_buffer_init(&buf, 0);
	pq_delta_byte_array_encode(&buf, out, 4);
	CHECK(buffer_is(&buf, dba_spec, sizeof(dba_spec)));
}

static void
test_dba_flba(void)
{
	static const char *const words[] = {"abcd", "abce", "abce", "xbce"};
	PqValueDecoder d;
	PqByteArray in[4];
	PqByteArray out[4];
	PqBuffer	buf;
	uint8		fixed[16];

	words_to_arrays(words, 4, in);
	pq_buffer_init(&buf, 0);
	pq_delta_byte_array_encode(&buf, in, 4);
	pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_FIXED_LEN_BYTE_ARRAY, 4,
				   ut_exact_copy(buf.data, buf.len), buf.len, 4);
	pq_valdec_read_fixed(&d, 3, fixed);
	pq_valdec_read_fixed(&d, 1, fixed + 12);
	CHECK(memcmp(fixed, "abcdabceabcexbce", 16) == 0);
	pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_FIXED_LEN_BYTE_ARRAY, 4,
				   ut_exact_copy(buf.data, buf.len), buf.len, 4);
	pq_valdec_read_byte_array(&d, 4, out);
	CHECK(arrays_are(out, words, 4));

	/* "babble" is not 4 bytes long */
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY,
							   PQ_FIXED_LEN_BYTE_ARRAY, 4, dba_spec,
							   sizeof(dba_spec), 4),
				ERRCODE_DATA_CORRUPTED);
}

static void
test_dba_corrupt(void)
{
	/* prefixes 0, 5 after a 2-byte value; suffixes 2, 1: "abc" */
	static const uint8 long_prefix[] = {
		0x80, 0x01, 0x04, 0x02, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x01, 0x04, 0x02, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00,
		'a', 'b', 'c'
	};
	/* the first value cannot have a prefix */
	static const uint8 first_prefix[] = {
		0x80, 0x01, 0x04, 0x01, 0x02,
		0x80, 0x01, 0x04, 0x01, 0x02,
		'a'
	};
	/* a negative prefix length */
	static const uint8 negative[] = {
		0x80, 0x01, 0x04, 0x01, 0x01,
		0x80, 0x01, 0x04, 0x01, 0x02,
		'a'
	};
	/* two prefix lengths, one suffix */
	static const uint8 few_suffixes[] = {
		0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x01, 0x04, 0x01, 0x02,
		'a'
	};
	PqValueDecoder d;

	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   few_suffixes, sizeof(few_suffixes), 2),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   long_prefix, sizeof(long_prefix), 2),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "prefix length 5") != NULL);
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   first_prefix, sizeof(first_prefix), 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   negative, sizeof(negative), 1),
				ERRCODE_DATA_CORRUPTED);
	/* suffix section cut short */
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   ut_exact_copy(dba_spec, 30), 30, 4),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   ut_exact_copy(dba_spec, sizeof(dba_spec) - 1),
							   sizeof(dba_spec) - 1, 4),
				ERRCODE_DATA_CORRUPTED);
}

/* Random sorted words with shared prefixes and duplicates. */
static void
test_delta_bytes_roundtrip(void)
{
	int			n = 3000;
	PqByteArray *vals = palloc(sizeof(PqByteArray) * n);
	PqByteArray *out = palloc(sizeof(PqByteArray) * n);
	int			enc;
	int			i;

	ut_rng_seed(5);
	for (i = 0; i < n; i++)
	{
		uint32		len;
		uint8	   *p;
		uint32		keep = 0;
		uint32		j;

		if (i > 0 && ut_rng_next() % 5 == 0)
		{
			vals[i] = vals[i - 1];	/* duplicate */
			continue;
		}
		len = (uint32) (ut_rng_next() % 24);
		p = palloc(len + 1);
		if (i > 0)
		{
			keep = (uint32) (ut_rng_next() % (vals[i - 1].len + 1));
			keep = Min(keep, len);
		}
		if (keep > 0)
			memcpy(p, vals[i - 1].ptr, keep);
		for (j = keep; j < len; j++)
			p[j] = (uint8) ('a' + ut_rng_next() % 4);
		vals[i].ptr = p;
		vals[i].len = len;
	}

	for (enc = 0; enc < 2; enc++)
	{
		int			encoding = enc ? PQ_ENC_DELTA_BYTE_ARRAY :
			PQ_ENC_DELTA_LENGTH_BYTE_ARRAY;
		PqValueDecoder d;
		PqBuffer	buf;
		int			got;

		pq_buffer_init(&buf, 0);
		if (enc)
			pq_delta_byte_array_encode(&buf, vals, n);
		else
			pq_delta_length_encode(&buf, vals, n);
		pq_valdec_init(&d, encoding, PQ_BYTE_ARRAY, 0,
					   ut_exact_copy(buf.data, buf.len), buf.len, n);
		for (got = 0; got < n;)
		{
			int			k = 1 + (int) (ut_rng_next() % 200);

			k = Min(k, n - got);
			pq_valdec_read_byte_array(&d, k, out + got);
			got += k;
		}
		for (i = 0; i < n; i++)
		{
			CHECK_EQ_INT(out[i].len, vals[i].len);
			CHECK(vals[i].len == 0 ||
				  memcmp(out[i].ptr, vals[i].ptr, vals[i].len) == 0);
		}
		CHECK_ERROR(pq_valdec_read_byte_array(&d, 1, out),
					ERRCODE_DATA_CORRUPTED);
	}
}

/* DELTA_BINARY_PACKED pages through the value decoder. */
static void
test_delta_valdec(void)
{
	PqValueDecoder d;
	int32		o32[8];
	int64		o64[6];
	int			i;

	pq_valdec_init(&d, PQ_ENC_DELTA_BINARY_PACKED, PQ_INT32, 0,
				   ut_exact_copy(spec2, sizeof(spec2)), sizeof(spec2), 8);
	pq_valdec_read_fixed(&d, 8, o32);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(o32[i], spec2_values[i]);
	pq_valdec_init(&d, PQ_ENC_DELTA_BINARY_PACKED, PQ_INT64, 0,
				   ut_exact_copy(spec1, sizeof(spec1)), sizeof(spec1), 5);
	pq_valdec_read_fixed(&d, 5, o64);
	CHECK_EQ_INT(o64[4], 5);
	/* six values asked for (nulls included?), five present */
	pq_valdec_init(&d, PQ_ENC_DELTA_BINARY_PACKED, PQ_INT64, 0, spec1,
				   sizeof(spec1), 6);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 6, o64), ERRCODE_DATA_CORRUPTED);
	pq_valdec_read_fixed(&d, 5, o64);
	CHECK_EQ_INT(o64[4], 5);
}

void
suite_delta(void)
{
	ut_run("delta: spec examples", test_delta_spec_examples);
	ut_run("delta: encoder matches hand vectors", test_delta_encoder_vectors);
	ut_run("delta: parquet-mr page, two blocks", test_delta_parquet_mr);
	ut_run("delta: single value", test_delta_single_value);
	ut_run("delta: 64-bit miniblock", test_delta_width64);
	ut_run("delta: INT64 extremes wrap", test_delta_int64_extremes);
	ut_run("delta: INT32 wrap and wide miniblocks", test_delta_int32_wrap);
	ut_run("delta: garbage widths and padding", test_delta_garbage);
	ut_run("delta: short last block", test_delta_short_last_block);
	ut_run("delta: corrupt headers", test_delta_corrupt_headers);
	ut_run("delta: corrupt blocks", test_delta_corrupt_blocks);
	ut_run("delta: end skips unread values", test_delta_end_skips);
	ut_run("delta: round trips", test_delta_roundtrip);
	ut_run("delta: value decoder", test_delta_valdec);
	ut_run("delta length: spec example", test_dlba_spec);
	ut_run("delta length: corrupt", test_dlba_corrupt);
	ut_run("delta byte array: spec example", test_dba_spec);
	ut_run("delta byte array: FIXED_LEN_BYTE_ARRAY", test_dba_flba);
	ut_run("delta byte array: corrupt", test_dba_corrupt);
	ut_run("delta byte arrays: round trips", test_delta_bytes_roundtrip);
}
