/*
 * test_decode_limits.c
 *		Pages whose values decode to far more memory than the page holds
 *		(issue 38, defect 2): each fails with data_corrupted before any
 *		large allocation, and pages just inside the limit still decode.
 *
 * The pages are built here: the prefix and length streams with the
 * writer's DELTA_BINARY_PACKED encoder, the count bombs and the Variant
 * value by hand.  The
 * limit is the one encoding.h documents (PQ_DECODED_MIN, PQ_DECODED_RATIO
 * times the encoded section); the boundary cases are computed from those
 * two numbers, which are checked first.
 */
#include "postgres.h"

#include "format/encoding/encoding.h"
#include "format/variant/variant.h"
#include "unit_test.h"
#include "utils/memutils.h"

/* More than any page here may allocate: the limit is 32 MB and more */
#define SMALL_PEAK ((size_t) 4 * 1024 * 1024)

/*
 * A DELTA_BYTE_ARRAY page of n values: the first is first_len bytes of
 * 'a' (no prefix); every later one repeats prefix bytes of the one before
 * it and adds suffix bytes of 'b'.
 */
static uint8 *
dba_page(int n, int first_len, int prefix, int suffix, size_t *len)
{
	int32	   *prefixes = palloc(sizeof(int32) * n);
	PqByteArray *suffixes = palloc(sizeof(PqByteArray) * n);
	uint8	   *a = palloc(first_len);
	uint8	   *b = palloc(Max(suffix, 1));
	PqBuffer	buf;
	uint8	   *page;
	int			i;

	memset(a, 'a', first_len);
	memset(b, 'b', Max(suffix, 1));
	for (i = 0; i < n; i++)
	{
		prefixes[i] = i == 0 ? 0 : prefix;
		suffixes[i].ptr = i == 0 ? a : b;
		suffixes[i].len = i == 0 ? first_len : suffix;
	}
	pq_buffer_init(&buf, 0);
	pq_delta_encode_i32(&buf, prefixes, n);
	pq_delta_length_encode(&buf, suffixes, n);
	page = ut_exact_copy(buf.data, buf.len);
	*len = buf.len;
	pfree(buf.data);
	pfree(prefixes);
	pfree(suffixes);
	pfree(a);
	pfree(b);
	return page;
}

/* The limit the tests below are built around. */
static void
test_limit_rule(void)
{
	CHECK_EQ_INT(PQ_DECODED_MIN, 32 * 1024 * 1024);
	CHECK_EQ_INT(PQ_DECODED_RATIO, 64);
	CHECK_EQ_INT(pq_decoded_limit(0), PQ_DECODED_MIN);
	CHECK_EQ_INT(pq_decoded_limit(1024 * 1024), 64 * 1024 * 1024);
	CHECK_EQ_INT(pq_decoded_limit((size_t) 512 * 1024 * 1024), MaxAllocSize);
	pq_check_decoded_size("test data", 0, PQ_DECODED_MIN);
	CHECK_ERROR(pq_check_decoded_size("test data", 0, PQ_DECODED_MIN + 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "test data") != NULL);
}

/*
 * The file: 65,536 values, each repeating the previous value's
 * 4096 bytes and adding one.  Decoded, they are 268 MB; the page is 70 kB
 * (a few hundred bytes compressed).
 */
static void
test_dba_prefix_bomb(void)
{
	size_t		len;
	uint8	   *page = dba_page(65536, 4096, 4096, 1, &len);
	size_t		base = shim_live_bytes();
	PqValueDecoder d;

	CHECK(len < 80 * 1024);
	shim_peak_reset();
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   page, len, 65536),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "DELTA_BYTE_ARRAY") != NULL);
	CHECK(shim_peak_above(base) < SMALL_PEAK);
}

/*
 * Values that only repeat the previous one need no copy in the decoder,
 * but every one of them is a value the scan converts: they count too.
 */
static void
test_dba_repeat_bomb(void)
{
	size_t		len;
	uint8	   *page = dba_page(65536, 4096, 4096, 0, &len);
	size_t		base = shim_live_bytes();
	PqValueDecoder d;

	shim_peak_reset();
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   page, len, 65536),
				ERRCODE_DATA_CORRUPTED);
	CHECK(shim_peak_above(base) < SMALL_PEAK);
}

/* FIXED_LEN_BYTE_ARRAY(4096): the same expansion through the type length */
static void
test_dba_flba_bomb(void)
{
	size_t		len;
	uint8	   *page = dba_page(65536, 4096, 4095, 1, &len);
	size_t		base = shim_live_bytes();
	PqValueDecoder d;

	shim_peak_reset();
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY,
							   PQ_FIXED_LEN_BYTE_ARRAY, 4096,
							   page, len, 65536),
				ERRCODE_DATA_CORRUPTED);
	CHECK(shim_peak_above(base) < SMALL_PEAK);
}

/*
 * A small page may decode to PQ_DECODED_MIN: value bytes plus one
 * PqByteArray per value.  1024-byte values: 32263 fit, 32264 do not.
 */
static void
test_dba_floor_boundary(void)
{
	int			fit = (int) (PQ_DECODED_MIN / (1024 + sizeof(PqByteArray)));
	size_t		len;
	uint8	   *page;
	PqValueDecoder d;
	PqByteArray out[2];

	CHECK_EQ_INT(fit, 32263);
	page = dba_page(fit, 1024, 1024, 0, &len);
	pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0, page, len,
				   fit);
	CHECK_EQ_INT(d.remaining, fit);
	pq_valdec_read_byte_array(&d, 2, out);
	CHECK_EQ_INT(out[1].len, 1024);
	CHECK(out[1].ptr[1023] == 'a');

	page = dba_page(fit + 1, 1024, 1024, 0, &len);
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   page, len, fit + 1),
				ERRCODE_DATA_CORRUPTED);
}

/*
 * A large page may decode to PQ_DECODED_RATIO times its size: a 1 MB
 * value and its repeats, 64 values in all, fit; 65 do not.
 */
static void
test_dba_ratio_boundary(void)
{
	int			big = 1024 * 1024;
	size_t		len;
	uint8	   *page;
	PqValueDecoder d;
	PqByteArray out[64];

	page = dba_page(64, big, big, 0, &len);
	CHECK(pq_decoded_limit(len) > PQ_DECODED_MIN);
	CHECK((uint64) 64 * (big + sizeof(PqByteArray)) <= pq_decoded_limit(len));
	pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0, page, len,
				   64);
	pq_valdec_read_byte_array(&d, 64, out);
	CHECK_EQ_INT(out[63].len, big);

	page = dba_page(65, big, big, 0, &len);
	CHECK((uint64) 65 * (big + sizeof(PqByteArray)) > pq_decoded_limit(len));
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
							   page, len, 65),
				ERRCODE_DATA_CORRUPTED);
}

/*
 * A length stream of 2^31 - 128 zeros in 14 bytes: one block of that many
 * values in one miniblock of bit width 0.  Nothing but the page's value
 * count bounded the decoder's array of 16 bytes per value.
 */
static const uint8 zero_lengths[] = {
	0x80, 0xFF, 0xFF, 0xFF, 0x07,	/* block size 2^31 - 128 */
	0x01,						/* one miniblock */
	0x80, 0xFF, 0xFF, 0xFF, 0x07,	/* 2^31 - 128 values */
	0x00,						/* first value 0 */
	0x00, 0x00					/* min delta 0, bit width 0 */
};

static void
test_delta_length_count_bomb(void)
{
	uint8	   *page = ut_exact_copy(zero_lengths, sizeof(zero_lengths));
	size_t		base = shim_live_bytes();
	PqValueDecoder d;

	shim_peak_reset();
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
							   PQ_BYTE_ARRAY, 0, page, sizeof(zero_lengths),
							   8 * 1024 * 1024),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "DELTA_LENGTH_BYTE_ARRAY") != NULL);
	CHECK(shim_peak_above(base) < SMALL_PEAK);

	/* the same stream as DELTA_BYTE_ARRAY prefix lengths */
	shim_peak_reset();
	CHECK_ERROR(pq_valdec_init(&d, PQ_ENC_DELTA_BYTE_ARRAY,
							   PQ_BYTE_ARRAY, 0, page, sizeof(zero_lengths),
							   8 * 1024 * 1024),
				ERRCODE_DATA_CORRUPTED);
	CHECK(shim_peak_above(base) < SMALL_PEAK);

	/* a page of 100,000 empty values is no bomb */
	pq_valdec_init(&d, PQ_ENC_DELTA_LENGTH_BYTE_ARRAY, PQ_BYTE_ARRAY, 0,
				   page, sizeof(zero_lengths), 100000);
	CHECK_EQ_INT(d.remaining, 100000);
}

/*
 * Nested Variant arrays whose elements all share their bytes: depth d
 * levels of 5 bytes each (two elements) stand for 2^d nulls.  At depth 24 that is 100 MB
 * of JSON from a 121-byte value.  Values are contiguous, so elements whose
 * sizes add up to more than their array's data are corrupt.
 */
static uint8 *
variant_doubling(int depth, int elements, size_t *len)
{
	int			level = 3 + elements;	/* header, count, offsets */
	uint8	   *v = palloc0(level * depth + 1);
	int			i;

	/* innermost: a primitive null; each array's last offset is its size */
	for (i = 0; i < depth; i++)
	{
		uint8	   *a = v + level * i;

		a[0] = 0x03;			/* array, 1-byte count and offsets */
		a[1] = (uint8) elements;	/* every element at offset 0 */
		a[2 + elements] = (uint8) (level * (depth - 1 - i) + 1);
	}
	*len = level * depth + 1;
	return ut_exact_copy(v, *len);
}

static void
test_variant_shared_elements(void)
{
	static const uint8 meta[] = {0x01, 0x00, 0x00};
	PqBuffer	buf;
	size_t		len;
	uint8	   *v;
	size_t		base;

	/* one element per array: nothing shared, [[[null]]] */
	v = variant_doubling(3, 1, &len);
	pq_buffer_init(&buf, 64);
	pq_variant_binary_to_json(&buf, meta, sizeof(meta), v, len);
	CHECK(buf.len == 10 && memcmp(buf.data, "[[[null]]]", 10) == 0);

	v = variant_doubling(24, 2, &len);
	CHECK_EQ_INT(len, 121);
	pq_buffer_reset(&buf);
	base = shim_live_bytes();
	shim_peak_reset();
	CHECK_ERROR(pq_variant_binary_to_json(&buf, meta, sizeof(meta), v, len),
				ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "overlap") != NULL);
	CHECK(shim_peak_above(base) < SMALL_PEAK);
}

/* What a dictionary page's claimed count must fit before it sizes arrays */
static void
test_plain_min_bytes(void)
{
	CHECK_EQ_INT(pq_plain_min_bytes(PQ_BOOLEAN, 0, 9), 2);
	CHECK_EQ_INT(pq_plain_min_bytes(PQ_INT32, 0, 3), 12);
	CHECK_EQ_INT(pq_plain_min_bytes(PQ_INT96, 12, 2), 24);
	CHECK_EQ_INT(pq_plain_min_bytes(PQ_BYTE_ARRAY, 0, 5), 20);
	/* 1000 FIXED_LEN_BYTE_ARRAY(2^20) entries: 1 GB, not 1000 bytes */
	CHECK_EQ_INT(pq_plain_min_bytes(PQ_FIXED_LEN_BYTE_ARRAY, 1 << 20, 1000),
				 (int64) 1000 << 20);
	CHECK_EQ_INT(pq_plain_min_bytes(PQ_DOUBLE, 0, 0), 0);
}

void
suite_decode_limits(void)
{
	ut_run("decode limits: the rule", test_limit_rule);
	ut_run("decode limits: DELTA_BYTE_ARRAY prefix bomb", test_dba_prefix_bomb);
	ut_run("decode limits: DELTA_BYTE_ARRAY repeated values", test_dba_repeat_bomb);
	ut_run("decode limits: DELTA_BYTE_ARRAY FIXED_LEN_BYTE_ARRAY", test_dba_flba_bomb);
	ut_run("decode limits: small page at the floor", test_dba_floor_boundary);
	ut_run("decode limits: large page at the ratio", test_dba_ratio_boundary);
	ut_run("decode limits: DELTA_LENGTH count bomb", test_delta_length_count_bomb);
	ut_run("decode limits: Variant elements sharing bytes", test_variant_shared_elements);
	ut_run("decode limits: PLAIN sizes of dictionary claims", test_plain_min_bytes);
}
