/*
 * test_bss.c
 *		BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and
 *		FIXED_LEN_BYTE_ARRAY.
 */
#include "postgres.h"

#include "format/encoding/encoding.h"
#include "unit_test.h"


static void
bss(PqValueDecoder *d, int ptype, int type_length, const uint8 *bytes,
	size_t len, int num_values)
{
	pq_valdec_init(d, PQ_ENC_BYTE_STREAM_SPLIT, ptype, type_length,
				   ut_exact_copy(bytes, len), len, num_values);
}

/* The specification's example: three 4-byte values. */
static void
test_bss_spec(void)
{
	static const uint8 raw[] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33,
	0xA3, 0xB4, 0xC5, 0xD6};
	static const uint8 split[] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC,
	0x22, 0xC5, 0xDD, 0x33, 0xD6};
	PqValueDecoder d;
	uint8		out[12];
	PqBuffer	buf;

	bss(&d, PQ_FLOAT, 0, split, sizeof(split), 3);
	pq_valdec_read_fixed(&d, 1, out);
	pq_valdec_read_fixed(&d, 2, out + 4);
	CHECK(memcmp(out, raw, 12) == 0);

	pq_buffer_init(&buf, 0);
	pq_byte_stream_split_encode(&buf, 4, raw, 3);
	CHECK_EQ_INT(buf.len, 12);
	CHECK(memcmp(buf.data, split, 12) == 0);
}

/* 1.0f = 00 00 80 3F, -2.0f = 00 00 00 C0; 1.0 and 2.0 as doubles. */
static void
test_bss_floats(void)
{
	static const uint8 f32[] = {0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x3F,
	0xC0};
	static const uint8 f64[] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x00, 0x3F,
	0x40};
	PqValueDecoder d;
	float4		of[2];
	float8		od[2];

	bss(&d, PQ_FLOAT, 0, f32, sizeof(f32), 2);
	pq_valdec_read_fixed(&d, 2, of);
	CHECK(of[0] == 1.0f);
	CHECK(of[1] == -2.0f);
	bss(&d, PQ_DOUBLE, 0, f64, sizeof(f64), 2);
	pq_valdec_read_fixed(&d, 2, od);
	CHECK(od[0] == 1.0);
	CHECK(od[1] == 2.0);
}

/* INT32 1, -1; INT64 0x0102030405060708, 0; FLBA(3) "abc", "def". */
static void
test_bss_integers_flba(void)
{
	static const uint8 i32[] = {0x01, 0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x00,
	0xFF};
	static const uint8 i64[] = {0x08, 0x00, 0x07, 0x00, 0x06, 0x00, 0x05,
	0x00, 0x04, 0x00, 0x03, 0x00, 0x02, 0x00, 0x01, 0x00};
	PqValueDecoder d;
	int32		o32[2];
	int64		o64[2];
	uint8		fixed[6];
	PqByteArray ba[2];

	bss(&d, PQ_INT32, 0, i32, sizeof(i32), 2);
	pq_valdec_read_fixed(&d, 2, o32);
	CHECK_EQ_INT(o32[0], 1);
	CHECK_EQ_INT(o32[1], -1);
	bss(&d, PQ_INT64, 0, i64, sizeof(i64), 2);
	pq_valdec_read_fixed(&d, 2, o64);
	CHECK(o64[0] == INT64CONST(0x0102030405060708));
	CHECK_EQ_INT(o64[1], 0);
	bss(&d, PQ_FIXED_LEN_BYTE_ARRAY, 3, (const uint8 *) "adbecf", 6, 2);
	pq_valdec_read_fixed(&d, 2, fixed);
	CHECK(memcmp(fixed, "abcdef", 6) == 0);
	bss(&d, PQ_FIXED_LEN_BYTE_ARRAY, 3, (const uint8 *) "adbecf", 6, 2);
	pq_valdec_read_byte_array(&d, 1, ba);
	pq_valdec_read_byte_array(&d, 1, ba + 1);
	CHECK_EQ_INT(ba[0].len, 3);
	CHECK(memcmp(ba[0].ptr, "abc", 3) == 0);
	CHECK(memcmp(ba[1].ptr, "def", 3) == 0);
}

/*
 * The streams are as long as the section says, even when the caller wants
 * fewer values.
 */
static void
test_bss_stride(void)
{
	static const uint8 split[] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC,
	0x22, 0xC5, 0xDD, 0x33, 0xD6};
	PqValueDecoder d;
	uint8		out[8];

	bss(&d, PQ_INT32, 0, split, sizeof(split), 2);
	pq_valdec_read_fixed(&d, 2, out);
	CHECK(memcmp(out, "\xAA\xBB\xCC\xDD\x00\x11\x22\x33", 8) == 0);
}

static void
test_bss_corrupt(void)
{
	static const uint8 bytes[16] = {0};
	PqValueDecoder d;
	uint8		out[16];

	/* too short for the values, not a whole number of values */
	bss(&d, PQ_FLOAT, 0, bytes, 8, 3);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 3, out), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(bss(&d, PQ_DOUBLE, 0, bytes, 15, 1), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(bss(&d, PQ_FIXED_LEN_BYTE_ARRAY, 5, bytes, 9, 1),
				ERRCODE_DATA_CORRUPTED);
	/* reading past the page's values */
	bss(&d, PQ_INT64, 0, bytes, 16, 2);
	pq_valdec_read_fixed(&d, 1, out);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 2, out), ERRCODE_DATA_CORRUPTED);
}

/* Random round trips for every width, read in uneven pieces. */
static void
test_bss_roundtrip(void)
{
	int			width;

	ut_rng_seed(17);
	for (width = 1; width <= 16; width++)
	{
		int			n = 777;
		int			ptype = PQ_FIXED_LEN_BYTE_ARRAY;
		uint8	   *vals = palloc((size_t) n * width);
		uint8	   *out = palloc((size_t) n * width);
		PqValueDecoder d;
		PqBuffer	buf;
		int			got;
		int			i;

		if (width == 4)
			ptype = (ut_rng_next() & 1) ? PQ_FLOAT : PQ_INT32;
		else if (width == 8)
			ptype = (ut_rng_next() & 1) ? PQ_DOUBLE : PQ_INT64;
		for (i = 0; i < n * width; i++)
			vals[i] = (uint8) ut_rng_next();
		pq_buffer_init(&buf, 0);
		pq_byte_stream_split_encode(&buf, width, vals, n);
		CHECK_EQ_INT(buf.len, (size_t) n * width);
		bss(&d, ptype, width, buf.data, buf.len, n);
		for (got = 0; got < n;)
		{
			int			k = 1 + (int) (ut_rng_next() % 50);

			k = Min(k, n - got);
			pq_valdec_read_fixed(&d, k, out + (size_t) got * width);
			got += k;
		}
		CHECK(memcmp(vals, out, (size_t) n * width) == 0);
	}
}

void
suite_byte_stream_split(void)
{
	ut_run("bss: spec example", test_bss_spec);
	ut_run("bss: FLOAT and DOUBLE", test_bss_floats);
	ut_run("bss: INT32, INT64, FIXED_LEN_BYTE_ARRAY", test_bss_integers_flba);
	ut_run("bss: stream length from the section", test_bss_stride);
	ut_run("bss: corrupt", test_bss_corrupt);
	ut_run("bss: round trips, widths 1..16", test_bss_roundtrip);
}
