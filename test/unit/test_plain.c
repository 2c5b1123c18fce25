/*
 * test_plain.c
 *		PLAIN values, dictionary indices and RLE booleans through the page
 *		value decoder, and the PLAIN encoders.
 */
#include "postgres.h"

#include "format/encoding/encoding.h"
#include "unit_test.h"


static void
valdec(PqValueDecoder *d, int encoding, int ptype, int type_length,
	   const void *bytes, size_t len, int num_values)
{
	pq_valdec_init(d, encoding, ptype, type_length, ut_exact_copy(bytes, len),
				   len, num_values);
}

static void
test_plain_numbers(void)
{
	static const uint8 i32[] = {0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF,
	0x00, 0x00, 0x00, 0x80};
	static const uint8 i64[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
	static const uint8 f32[] = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0};
	static const uint8 f64[] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x3F,
	0x18, 0x2D, 0x44, 0x54, 0xFB, 0x21, 0x09, 0x40};
	PqValueDecoder d;
	int32		o32[3];
	int64		o64[2];
	float4		of[2];
	float8		od[2];

	valdec(&d, PQ_ENC_PLAIN, PQ_INT32, 0, i32, sizeof(i32), 3);
	pq_valdec_read_fixed(&d, 1, o32);
	pq_valdec_read_fixed(&d, 2, o32 + 1);
	CHECK_EQ_INT(o32[0], 1);
	CHECK_EQ_INT(o32[1], -1);
	CHECK_EQ_INT(o32[2], PG_INT32_MIN);

	valdec(&d, PQ_ENC_PLAIN, PQ_INT64, 0, i64, sizeof(i64), 2);
	pq_valdec_read_fixed(&d, 2, o64);
	CHECK(o64[0] == INT64CONST(0x0807060504030201));
	CHECK_EQ_INT(o64[1], -1);

	valdec(&d, PQ_ENC_PLAIN, PQ_FLOAT, 0, f32, sizeof(f32), 2);
	pq_valdec_read_fixed(&d, 2, of);
	CHECK(of[0] == 1.0f);
	CHECK(of[1] == -2.0f);

	valdec(&d, PQ_ENC_PLAIN, PQ_DOUBLE, 0, f64, sizeof(f64), 2);
	pq_valdec_read_fixed(&d, 2, od);
	CHECK(od[0] == 1.0);
	CHECK(od[1] == 3.141592653589793);
}

static void
test_plain_int96_flba(void)
{
	static const char i96[] = "0123456789ABcdefghijklmn";
	PqValueDecoder d;
	uint8		out[24];
	PqByteArray ba[2];

	valdec(&d, PQ_ENC_PLAIN, PQ_INT96, 0, i96, 24, 2);
	pq_valdec_read_fixed(&d, 1, out);
	pq_valdec_read_fixed(&d, 1, out + 12);
	CHECK(memcmp(out, i96, 24) == 0);

	valdec(&d, PQ_ENC_PLAIN, PQ_FIXED_LEN_BYTE_ARRAY, 3, "abcdefghi", 9, 3);
	pq_valdec_read_fixed(&d, 1, out);
	CHECK(memcmp(out, "abc", 3) == 0);
	pq_valdec_read_byte_array(&d, 2, ba);
	CHECK_EQ_INT(ba[0].len, 3);
	CHECK(memcmp(ba[0].ptr, "def", 3) == 0);
	CHECK(memcmp(ba[1].ptr, "ghi", 3) == 0);

	CHECK_EQ_INT(pq_fixed_width(PQ_BOOLEAN, 0), 1);
	CHECK_EQ_INT(pq_fixed_width(PQ_INT32, 0), 4);
	CHECK_EQ_INT(pq_fixed_width(PQ_FLOAT, 0), 4);
	CHECK_EQ_INT(pq_fixed_width(PQ_INT64, 0), 8);
	CHECK_EQ_INT(pq_fixed_width(PQ_DOUBLE, 0), 8);
	CHECK_EQ_INT(pq_fixed_width(PQ_INT96, 0), 12);
	CHECK_EQ_INT(pq_fixed_width(PQ_FIXED_LEN_BYTE_ARRAY, 7), 7);
}

/*
 * 0xB2 0x01 0xFF, LSB first: 0,1,0,0,1,1,0,1 1,0,0,0,0,0,0,0 1.  Reads of
 * odd sizes continue mid-byte.
 */
static void
test_plain_bool(void)
{
	static const uint8 bytes[] = {0xB2, 0x01, 0xFF};
	static const uint8 expect[17] = {0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0,
	0, 0, 1};
	static const int reads1[] = {3, 7, 1, 6};
	static const int reads2[] = {1, 16};
	static const int reads3[] = {17};
	static const int *const plans[] = {reads1, reads2, reads3};
	static const int plan_len[] = {4, 2, 1};
	int			p;

	for (p = 0; p < 3; p++)
	{
		PqValueDecoder d;
		uint8		out[17];
		int			got = 0;
		int			r;

		memset(out, 0xEE, sizeof(out));
		valdec(&d, PQ_ENC_PLAIN, PQ_BOOLEAN, 0, bytes, sizeof(bytes), 17);
		for (r = 0; r < plan_len[p]; r++)
		{
			pq_valdec_read_fixed(&d, plans[p][r], out + got);
			got += plans[p][r];
		}
		CHECK(memcmp(out, expect, 17) == 0);
	}
}

static void
test_plain_byte_array(void)
{
	static const char bytes[] = "\x05\0\0\0hello\0\0\0\0\x03\0\0\0abc";
	PqValueDecoder d;
	PqByteArray ba[3];

	valdec(&d, PQ_ENC_PLAIN, PQ_BYTE_ARRAY, 0, bytes, sizeof(bytes) - 1, 3);
	pq_valdec_read_byte_array(&d, 1, ba);
	pq_valdec_read_byte_array(&d, 2, ba + 1);
	CHECK_EQ_INT(ba[0].len, 5);
	CHECK(memcmp(ba[0].ptr, "hello", 5) == 0);
	CHECK_EQ_INT(ba[1].len, 0);
	CHECK_EQ_INT(ba[2].len, 3);
	CHECK(memcmp(ba[2].ptr, "abc", 3) == 0);
}

static void
test_plain_corrupt(void)
{
	PqValueDecoder d;
	PqByteArray ba[2];
	int64		o64[3];
	uint8		b[17];

	/* a length past the end, a cut length, a huge length */
	valdec(&d, PQ_ENC_PLAIN, PQ_BYTE_ARRAY, 0, "\x06\0\0\0hello", 9, 1);
	CHECK_ERROR(pq_valdec_read_byte_array(&d, 1, ba), ERRCODE_DATA_CORRUPTED);
	valdec(&d, PQ_ENC_PLAIN, PQ_BYTE_ARRAY, 0, "\x01\0\0\0x\x05\0\0", 8, 2);
	CHECK_ERROR(pq_valdec_read_byte_array(&d, 2, ba), ERRCODE_DATA_CORRUPTED);
	valdec(&d, PQ_ENC_PLAIN, PQ_BYTE_ARRAY, 0, "\xFF\xFF\xFF\xFFxx", 6, 1);
	CHECK_ERROR(pq_valdec_read_byte_array(&d, 1, ba), ERRCODE_DATA_CORRUPTED);

	/*
	 * Fixed-size values that do not fit.  The count may include nulls, so
	 * only reading the missing values is an error.
	 */
	valdec(&d, PQ_ENC_PLAIN, PQ_INT64, 0, "0123456789abcde", 15, 2);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 2, o64), ERRCODE_DATA_CORRUPTED);
	pq_valdec_read_fixed(&d, 1, o64);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 1, o64), ERRCODE_DATA_CORRUPTED);
	valdec(&d, PQ_ENC_PLAIN, PQ_BOOLEAN, 0, "\xFF\xFF", 2, 17);
	pq_valdec_read_fixed(&d, 9, b);
	pq_valdec_read_fixed(&d, 7, b);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 1, b), ERRCODE_DATA_CORRUPTED);
	valdec(&d, PQ_ENC_PLAIN, PQ_FIXED_LEN_BYTE_ARRAY, 4, "abcdefg", 7, 2);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 2, b), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_valdec_read_byte_array(&d, 2, ba), ERRCODE_DATA_CORRUPTED);
	pq_valdec_read_byte_array(&d, 1, ba);
	CHECK(memcmp(ba[0].ptr, "abcd", 4) == 0);

	/* reading more values than the page has */
	valdec(&d, PQ_ENC_PLAIN, PQ_INT64, 0, "0123456789abcdef", 16, 2);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 3, o64), ERRCODE_DATA_CORRUPTED);
	pq_valdec_read_fixed(&d, 2, o64);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 1, o64), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_valdec_read_fixed(&d, -1, o64), ERRCODE_DATA_CORRUPTED);
	valdec(&d, PQ_ENC_PLAIN, PQ_BOOLEAN, 0, "\xFF", 1, 8);
	pq_valdec_read_fixed(&d, 5, b);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 4, b), ERRCODE_DATA_CORRUPTED);
}

/* A page with no values may have no bytes, in any encoding. */
static void
test_empty_pages(void)
{
	static const int encodings[] = {PQ_ENC_PLAIN, PQ_ENC_RLE_DICTIONARY,
	PQ_ENC_DELTA_BINARY_PACKED, PQ_ENC_BYTE_STREAM_SPLIT};
	PqValueDecoder d;
	int32		o[1];
	int			i;

	for (i = 0; i < lengthof(encodings); i++)
	{
		pq_valdec_init(&d, encodings[i], PQ_INT32, 0, NULL, 0, 0);
		pq_valdec_read_fixed(&d, 0, o);
		CHECK_ERROR(pq_valdec_read_fixed(&d, 1, o), ERRCODE_DATA_CORRUPTED);
	}
}

/*
 * Dictionary indices, bit width 2: one bit-packed group 0,1,2,0,1,2,0,1
 * (00100100 01001001), then RLE 4 x 3.
 */
static const uint8 dict_page[] = {0x02, 0x03, 0x24, 0x49, 0x08, 0x03};

static void
test_dictionary_indices(void)
{
	static const uint32 expect[12] = {0, 1, 2, 0, 1, 2, 0, 1, 3, 3, 3, 3};
	static const uint8 width0[] = {0x00, 0x18};
	PqValueDecoder d;
	uint32		out[13];
	int			i;

	valdec(&d, PQ_ENC_RLE_DICTIONARY, PQ_BYTE_ARRAY, 0, dict_page,
		   sizeof(dict_page), 12);
	pq_valdec_read_indices(&d, 5, out, 4);
	pq_valdec_read_indices(&d, 7, out + 5, 4);
	for (i = 0; i < 12; i++)
		CHECK_EQ_INT(out[i], expect[i]);

	/* PLAIN_DICTIONARY data pages have the same layout */
	valdec(&d, PQ_ENC_PLAIN_DICTIONARY, PQ_INT64, 0, dict_page,
		   sizeof(dict_page), 12);
	pq_valdec_read_indices(&d, 12, out, 4);
	CHECK_EQ_INT(out[11], 3);

	/* bit width 0: every index is 0 */
	valdec(&d, PQ_ENC_RLE_DICTIONARY, PQ_INT32, 0, width0, sizeof(width0), 12);
	pq_valdec_read_indices(&d, 12, out, 1);
	for (i = 0; i < 12; i++)
		CHECK_EQ_INT(out[i], 0);
}

/*
 * pq_valdec_skip: dictionary indices and PLAIN fixed-width values are
 * stepped over (the next read returns the value after them; past the
 * page's data is corrupt); byte arrays, booleans and DELTA need decoding,
 * so it consumes nothing and says so.
 */
static void
test_valdec_skip(void)
{
	static const uint32 expect[12] = {0, 1, 2, 0, 1, 2, 0, 1, 3, 3, 3, 3};
	static const uint8 i32[] = {0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
	0x03, 0x00, 0x00, 0x00};
	PqValueDecoder d;
	uint32		out[12];
	int32		o32[1];
	PqByteArray ba[1];
	int			skip;

	for (skip = 0; skip < 12; skip++)
	{
		valdec(&d, PQ_ENC_RLE_DICTIONARY, PQ_BYTE_ARRAY, 0, dict_page,
			   sizeof(dict_page), 12);
		CHECK(pq_valdec_skip(&d, skip));
		pq_valdec_read_indices(&d, 12 - skip, out, 4);
		CHECK(memcmp(out, expect + skip, sizeof(uint32) * (12 - skip)) == 0);
	}
	valdec(&d, PQ_ENC_RLE_DICTIONARY, PQ_BYTE_ARRAY, 0, dict_page,
		   sizeof(dict_page), 12);
	CHECK_ERROR(pq_valdec_skip(&d, 13), ERRCODE_DATA_CORRUPTED);

	valdec(&d, PQ_ENC_PLAIN, PQ_INT32, 0, i32, sizeof(i32), 3);
	CHECK(pq_valdec_skip(&d, 2));
	pq_valdec_read_fixed(&d, 1, o32);
	CHECK_EQ_INT(o32[0], 3);
	/* the page says 4 values, its data holds 3 */
	valdec(&d, PQ_ENC_PLAIN, PQ_INT32, 0, i32, sizeof(i32), 4);
	CHECK_ERROR(pq_valdec_skip(&d, 4), ERRCODE_DATA_CORRUPTED);

	valdec(&d, PQ_ENC_PLAIN, PQ_BYTE_ARRAY, 0, "\x01\0\0\0x\x01\0\0\0y", 10, 2);
	CHECK(!pq_valdec_skip(&d, 1));
	pq_valdec_read_byte_array(&d, 1, ba);
	CHECK(ba[0].len == 1 && ba[0].ptr[0] == 'x');
}

static void
test_dictionary_corrupt(void)
{
	static const uint8 wide[] = {0x21, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00};
	PqValueDecoder d;
	uint32		out[13];

	valdec(&d, PQ_ENC_RLE_DICTIONARY, PQ_INT32, 0, dict_page,
		   sizeof(dict_page), 12);
	CHECK_ERROR(pq_valdec_read_indices(&d, 12, out, 3),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message,
				 "dictionary index 3 out of range (dictionary has 3 entries)") != NULL);
	valdec(&d, PQ_ENC_RLE_DICTIONARY, PQ_INT32, 0, dict_page,
		   sizeof(dict_page), 13);
	CHECK_ERROR(pq_valdec_read_indices(&d, 13, out, 4),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_RLE_DICTIONARY, PQ_INT32, 0, wide,
					   sizeof(wide), 1), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_RLE_DICTIONARY, PQ_INT32, 0, NULL, 0,
							   1), ERRCODE_DATA_CORRUPTED);
	/* indices are not values */
	valdec(&d, PQ_ENC_RLE_DICTIONARY, PQ_INT32, 0, dict_page,
		   sizeof(dict_page), 12);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 1, out), ERRCODE_INTERNAL_ERROR);
}

/*
 * RLE booleans: 4-byte length, then runs of width 1.  The first vector is
 * the values section of rle_boolean_encoding.parquet (parquet-testing,
 * written by parquet-mr): one bit-packed run of 8 groups for 62 values.
 */
static void
test_rle_boolean(void)
{
	static const uint8 real[] = {0x09, 0x00, 0x00, 0x00, 0x11, 0xcd, 0xd9,
	0x6c, 0x0e, 0x9b, 0x33, 0xb7, 0x39};
	static const uint8 real_expect[16] = {1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1,
	1, 0, 1, 1};
	static const uint8 hand[] = {0x04, 0x00, 0x00, 0x00, 0x06, 0x01, 0x03,
	0xA5, 0xEE};
	static const uint8 hand_expect[11] = {1, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1};
	PqValueDecoder d;
	uint8		out[62];

	valdec(&d, PQ_ENC_RLE, PQ_BOOLEAN, 0, real, sizeof(real), 62);
	pq_valdec_read_fixed(&d, 62, out);
	CHECK(memcmp(out, real_expect, 16) == 0);
	CHECK_EQ_INT(out[61], 1);

	valdec(&d, PQ_ENC_RLE, PQ_BOOLEAN, 0, hand, sizeof(hand), 11);
	pq_valdec_read_fixed(&d, 2, out);
	pq_valdec_read_fixed(&d, 9, out + 2);
	CHECK(memcmp(out, hand_expect, 11) == 0);
}

static void
test_rle_boolean_corrupt(void)
{
	static const uint8 two[] = {0x02, 0x00, 0x00, 0x00, 0x02, 0x02};
	static const uint8 long_prefix[] = {0x03, 0x00, 0x00, 0x00, 0x02, 0x01};
	static const uint8 one[] = {0x02, 0x00, 0x00, 0x00, 0x02, 0x01};
	PqValueDecoder d;
	uint8		out[12];

	valdec(&d, PQ_ENC_RLE, PQ_BOOLEAN, 0, two, sizeof(two), 1);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 1, out), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_RLE, PQ_BOOLEAN, 0, long_prefix,
					   sizeof(long_prefix), 1), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_RLE, PQ_BOOLEAN, 0, two, 3, 1),
				ERRCODE_DATA_CORRUPTED);
	/* one RLE run of 1 cannot give 2 values */
	valdec(&d, PQ_ENC_RLE, PQ_BOOLEAN, 0, one, sizeof(one), 2);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 2, out), ERRCODE_DATA_CORRUPTED);
}

static void
test_invalid_combinations(void)
{
	PqValueDecoder d;
	PqByteArray ba[1];
	int32		o[1];

	CHECK_ERROR(valdec(&d, PQ_ENC_DELTA_BINARY_PACKED, PQ_FLOAT, 0, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK(strstr(shim_last_message,
				 "encoding DELTA_BINARY_PACKED is not supported for FLOAT columns") != NULL);
	CHECK_ERROR(valdec(&d, PQ_ENC_RLE, PQ_INT32, 0, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
					   PQ_FIXED_LEN_BYTE_ARRAY, 4, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_INT64, 0, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_BYTE_STREAM_SPLIT, PQ_BOOLEAN, 0, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_BYTE_STREAM_SPLIT, PQ_BYTE_ARRAY, 0, "", 0,
					   1), ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_BYTE_STREAM_SPLIT, PQ_INT96, 0, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, 1, PQ_INT32, 0, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_ALP, PQ_DOUBLE, 0, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, 99, PQ_INT32, 0, "", 0, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_BIT_PACKED, PQ_INT32, 0, "", 0, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_PLAIN, PQ_FIXED_LEN_BYTE_ARRAY, 0, "", 0, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_PLAIN, 8, 0, "", 0, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(valdec(&d, PQ_ENC_PLAIN, PQ_INT32, 0, "", 0, -1),
				ERRCODE_DATA_CORRUPTED);

	/* asking for the wrong kind of value is a caller bug */
	valdec(&d, PQ_ENC_PLAIN, PQ_INT32, 0, "abcd", 4, 1);
	CHECK_ERROR(pq_valdec_read_byte_array(&d, 1, ba), ERRCODE_INTERNAL_ERROR);
	CHECK_ERROR(pq_valdec_read_indices(&d, 1, (uint32 *) o, 1),
				ERRCODE_INTERNAL_ERROR);
	valdec(&d, PQ_ENC_PLAIN, PQ_BYTE_ARRAY, 0, "\0\0\0\0", 4, 1);
	CHECK_ERROR(pq_valdec_read_fixed(&d, 1, o), ERRCODE_INTERNAL_ERROR);
}

static void
test_plain_encoders(void)
{
	static const int32 ints[] = {1, -1};
	static const uint8 bools[] = {0, 1, 0, 0, 1, 1, 0, 1, 1};
	static const char ba_bytes[] = "\x05\0\0\0hello\0\0\0\0\x03\0\0\0abc";
	PqByteArray ba[3] = {{(const uint8 *) "hello", 5}, {NULL, 0},
	{(const uint8 *) "abc", 3}};
	PqBuffer	buf;

	pq_buffer_init(&buf, 0);
	pq_plain_encode_fixed(&buf, PQ_INT32, 0, ints, 2);
	CHECK_EQ_INT(buf.len, 8);
	CHECK(memcmp(buf.data, "\x01\0\0\0\xFF\xFF\xFF\xFF", 8) == 0);
	pq_buffer_reset(&buf);
	pq_plain_encode_fixed(&buf, PQ_BOOLEAN, 0, bools, 9);
	CHECK_EQ_INT(buf.len, 2);
	CHECK_EQ_INT(buf.data[0], 0xB2);
	CHECK_EQ_INT(buf.data[1], 0x01);
	pq_buffer_reset(&buf);
	pq_plain_encode_byte_array(&buf, ba, 3);
	CHECK_EQ_INT(buf.len, sizeof(ba_bytes) - 1);
	CHECK(memcmp(buf.data, ba_bytes, buf.len) == 0);
}

/* Random round trips for every physical type. */
static void
test_plain_roundtrip(void)
{
	static const int types[] = {PQ_BOOLEAN, PQ_INT32, PQ_INT64, PQ_INT96,
	PQ_FLOAT, PQ_DOUBLE, PQ_FIXED_LEN_BYTE_ARRAY};
	int			t;
	int			n = 1001;

	ut_rng_seed(11);
	for (t = 0; t < lengthof(types); t++)
	{
		int			width = pq_fixed_width(types[t], 5);
		uint8	   *vals = palloc((size_t) n * width);
		uint8	   *out = palloc((size_t) n * width);
		PqBuffer	buf;
		PqValueDecoder d;
		int			got = 0;
		int			i;

		for (i = 0; i < n * width; i++)
			vals[i] = (uint8) ut_rng_next();
		if (types[t] == PQ_BOOLEAN)
			for (i = 0; i < n; i++)
				vals[i] &= 1;
		pq_buffer_init(&buf, 0);
		pq_plain_encode_fixed(&buf, types[t], 5, vals, n);
		valdec(&d, PQ_ENC_PLAIN, types[t], 5, buf.data, buf.len, n);
		while (got < n)
		{
			int			k = 1 + (int) (ut_rng_next() % 37);

			k = Min(k, n - got);
			pq_valdec_read_fixed(&d, k, out + (size_t) got * width);
			got += k;
		}
		CHECK(memcmp(vals, out, (size_t) n * width) == 0);
	}
}

static void
test_plain_roundtrip_byte_array(void)
{
	int			n = 1001;
	PqByteArray *vals = palloc(sizeof(PqByteArray) * n);
	PqByteArray *out = palloc(sizeof(PqByteArray) * n);
	PqBuffer	buf;
	PqValueDecoder d;
	int			got = 0;
	int			i;

	ut_rng_seed(12);
	for (i = 0; i < n; i++)
	{
		uint32		len = (uint32) (ut_rng_next() % 20);
		uint8	   *p = palloc(len + 1);
		uint32		j;

		for (j = 0; j < len; j++)
			p[j] = (uint8) ut_rng_next();
		vals[i].ptr = p;
		vals[i].len = len;
	}
	pq_buffer_init(&buf, 0);
	pq_plain_encode_byte_array(&buf, vals, n);
	valdec(&d, PQ_ENC_PLAIN, PQ_BYTE_ARRAY, 0, buf.data, buf.len, n);
	while (got < n)
	{
		int			k = 1 + (int) (ut_rng_next() % 37);

		k = Min(k, n - got);
		pq_valdec_read_byte_array(&d, k, out + got);
		got += k;
	}
	for (i = 0; i < n; i++)
	{
		CHECK_EQ_INT(out[i].len, vals[i].len);
		CHECK(memcmp(out[i].ptr, vals[i].ptr, vals[i].len) == 0);
	}
}

/* One page of random bytes through the value decoder. */
static void
garbage_page(int encoding, int ptype, const uint8 *buf, size_t len,
			 int num_values)
{
	PqValueDecoder d;
	uint8		fixed[16 * 10];
	PqByteArray ba[10];
	uint32		idx[10];

	pq_valdec_init(&d, encoding, ptype, 1 + (int) (ut_rng_next() % 16), buf,
				   len, num_values);
	while (d.remaining > 0)
	{
		int			k = 1 + (int) (ut_rng_next() % 10);

		k = Min(k, d.remaining);
		if (pq_encoding_is_dictionary(encoding))
			pq_valdec_read_indices(&d, k, idx, 1 + (uint32) (ut_rng_next() % 8));
		else if (ptype == PQ_BYTE_ARRAY)
			pq_valdec_read_byte_array(&d, k, ba);
		else
			pq_valdec_read_fixed(&d, k, fixed);
	}
}

/*
 * Random bytes through every encoding and type: errors are expected, but
 * only corruption or unsupported-feature errors, and no sanitizer reports.
 * Small byte values make plausible headers more likely.
 */
static void
test_garbage(void)
{
	static const int encodings[] = {PQ_ENC_PLAIN, PQ_ENC_PLAIN_DICTIONARY,
		PQ_ENC_RLE, PQ_ENC_DELTA_BINARY_PACKED, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
	PQ_ENC_DELTA_BYTE_ARRAY, PQ_ENC_RLE_DICTIONARY, PQ_ENC_BYTE_STREAM_SPLIT};
	int			iter;
	int			bad_errors = 0;

	ut_rng_seed(23);
	for (iter = 0; iter < 30000; iter++)
	{
		int			encoding = encodings[ut_rng_next() % lengthof(encodings)];
		int			ptype = (int) (ut_rng_next() % 8);
		size_t		len = (size_t) (ut_rng_next() % ((iter % 10) ? 40 : 600));
		int			num_values = (int) (ut_rng_next() % 200);
		uint8		mask = (ut_rng_next() & 1) ? 0xFF : 0x07;
		uint8	   *buf = palloc(len + 1);
		size_t		i;

		for (i = 0; i < len; i++)
			buf[i] = (uint8) ut_rng_next() & mask;
		if (len > 0 && encoding == PQ_ENC_DELTA_BINARY_PACKED)
			buf[0] = 0x80;		/* block size 128 */
		PG_TRY();
		{
			garbage_page(encoding, ptype, ut_exact_copy(buf, len), len,
						 num_values);
		}
		PG_CATCH();
		{
			if (shim_last_sqlstate != ERRCODE_DATA_CORRUPTED &&
				shim_last_sqlstate != ERRCODE_FEATURE_NOT_SUPPORTED)
				bad_errors++;
		}
		PG_END_TRY();
		pfree(buf);
	}
	CHECK_EQ_INT(bad_errors, 0);
}

/* A valid page of n random values in one of the encodings, via encoders. */
static void
valid_page(PqBuffer *buf, int kind, int n)
{
	PqByteArray *ba = palloc(sizeof(PqByteArray) * n);
	int64	   *ints = palloc(sizeof(int64) * n);
	PqRleEncoder e;
	int			bw = 1 + (int) (ut_rng_next() % 12);
	int			i;

	for (i = 0; i < n; i++)
	{
		uint32		len = (uint32) (ut_rng_next() % 6);
		uint8	   *p = palloc(len + 1);

		memset(p, 'a' + (int) (ut_rng_next() % 3), len);
		ba[i].ptr = p;
		ba[i].len = len;
		ints[i] = (int64) (ut_rng_next() >> (ut_rng_next() % 64));
	}
	switch (kind)
	{
		case 0:
			pq_plain_encode_byte_array(buf, ba, n);
			break;
		case 1:
			pq_buffer_append_byte(buf, (uint8) bw);
			pq_rle_encoder_init(&e, buf, bw);
			for (i = 0; i < n; i++)
				pq_rle_encoder_put(&e, (i % 3) ? (uint32) (ut_rng_next() % 3) : 1);
			pq_rle_encoder_flush(&e);
			break;
		case 2:
			pq_buffer_append(buf, "\0\0\0\0", 4);
			pq_rle_encoder_init(&e, buf, 1);
			for (i = 0; i < n; i++)
				pq_rle_encoder_put(&e, (i / 10) % 2);
			pq_rle_encoder_flush(&e);
			pq_store_le32(buf->data, (uint32) (buf->len - 4));
			break;
		case 3:
			pq_delta_encode_i64(buf, ints, n);
			break;
		case 4:
			pq_delta_length_encode(buf, ba, n);
			break;
		default:
			pq_delta_byte_array_encode(buf, ba, n);
			break;
	}
}

/*
 * Valid pages with a few bytes changed, or cut short: errors are expected,
 * sanitizer reports are not.
 */
static void
test_corrupted_pages(void)
{
	static const int encodings[] = {PQ_ENC_PLAIN, PQ_ENC_RLE_DICTIONARY,
		PQ_ENC_RLE, PQ_ENC_DELTA_BINARY_PACKED, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
	PQ_ENC_DELTA_BYTE_ARRAY};
	static const int ptypes[] = {PQ_BYTE_ARRAY, PQ_INT32, PQ_BOOLEAN,
	PQ_INT64, PQ_BYTE_ARRAY, PQ_BYTE_ARRAY};
	int			iter;
	int			bad_errors = 0;

	ut_rng_seed(31);
	for (iter = 0; iter < 6000; iter++)
	{
		int			kind = iter % lengthof(encodings);
		int			n = 1 + (int) (ut_rng_next() % 300);
		PqBuffer	buf;

		pq_buffer_init(&buf, 0);
		valid_page(&buf, kind, n);
		if (ut_rng_next() % 4 == 0)
			buf.len = (size_t) (ut_rng_next() % (buf.len + 1));
		else
		{
			int			flips = 1 + (int) (ut_rng_next() % 3);

			while (flips-- > 0)
				buf.data[ut_rng_next() % buf.len] ^= (uint8) (1 + ut_rng_next() % 255);
		}
		PG_TRY();
		{
			garbage_page(encodings[kind], ptypes[kind],
						 ut_exact_copy(buf.data, buf.len), buf.len, n);
		}
		PG_CATCH();
		{
			if (shim_last_sqlstate != ERRCODE_DATA_CORRUPTED &&
				shim_last_sqlstate != ERRCODE_FEATURE_NOT_SUPPORTED)
				bad_errors++;
		}
		PG_END_TRY();
	}
	CHECK_EQ_INT(bad_errors, 0);
}

void
suite_plain(void)
{
	ut_run("plain: numbers", test_plain_numbers);
	ut_run("plain: INT96 and FIXED_LEN_BYTE_ARRAY", test_plain_int96_flba);
	ut_run("plain: booleans across reads", test_plain_bool);
	ut_run("plain: byte arrays", test_plain_byte_array);
	ut_run("plain: corrupt", test_plain_corrupt);
	ut_run("valdec: empty pages", test_empty_pages);
	ut_run("valdec: dictionary indices", test_dictionary_indices);
	ut_run("valdec: dictionary corrupt", test_dictionary_corrupt);
	ut_run("valdec: skipping values", test_valdec_skip);
	ut_run("valdec: RLE booleans", test_rle_boolean);
	ut_run("valdec: RLE booleans corrupt", test_rle_boolean_corrupt);
	ut_run("valdec: invalid combinations", test_invalid_combinations);
	ut_run("plain: encoders", test_plain_encoders);
	ut_run("plain: round trips, fixed-size types", test_plain_roundtrip);
	ut_run("plain: round trip, byte arrays", test_plain_roundtrip_byte_array);
	ut_run("valdec: random garbage", test_garbage);
	ut_run("valdec: corrupted valid pages", test_corrupted_pages);
}
