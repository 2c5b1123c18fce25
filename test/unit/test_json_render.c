/*
 * test_json_render.c
 *		JSON rendering of Parquet values (format/json/render.c, format/json/validate.c)
 *		against values computed independently: Python's repr, decimal,
 *		datetime and base64 modules for the tables below, PostgreSQL's
 *		float4out/to_json() for the float and date/time spellings, and
 *		round trips through strtod/strtof.
 */
#include "postgres.h"

#include <math.h>

#include "format/json/render.h"
#include "unit_test.h"

/* Render with fn into a fresh buffer and compare with the expected text. */
#define CHECK_JSON(stmt_with_buf, expected) \
	do { \
		PqBuffer	buf; \
		pq_buffer_init(&buf, 16); \
		stmt_with_buf; \
		if (buf.len != strlen(expected) || memcmp(buf.data, expected, buf.len) != 0) \
		{ \
			char _m[512]; \
			snprintf(_m, sizeof(_m), "got %.*s, expected %s", (int) buf.len, \
					 (const char *) buf.data, expected); \
			ut_fail(__FILE__, __LINE__, _m); \
			return; \
		} \
	} while (0)

static double
double_from_bits(uint64 bits)
{
	double		d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static float
float_from_bits(uint32 bits)
{
	float		f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

static void
test_json_string(void)
{
	CHECK_JSON(pq_json_string(&buf, "", 0), "\"\"");
	CHECK_JSON(pq_json_string(&buf, "a\"b\\c/d", 7), "\"a\\\"b\\\\c/d\"");
	CHECK_JSON(pq_json_string(&buf, "\b\f\n\r\t", 5), "\"\\b\\f\\n\\r\\t\"");
	CHECK_JSON(pq_json_string(&buf, "\x01\x1f\x7f", 3), "\"\\u0001\\u001f\x7f\"");
	CHECK_JSON(pq_json_string(&buf, "a\0b", 3), "\"a\\u0000b\"");
	/* multibyte UTF-8 passes through unchanged */
	CHECK_JSON(pq_json_string(&buf, "h\xc3\xa9 \xe2\x99\xa5 \xf0\x9f\x90\xa2", 12),
			   "\"h\xc3\xa9 \xe2\x99\xa5 \xf0\x9f\x90\xa2\"");
}

static void
test_json_string_invalid_utf8(void)
{
	static const char *const bad[] = {
		"\x80", "\xc3", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xff", "a\xe2\x99"
	};
	int			i;

	for (i = 0; i < lengthof(bad); i++)
	{
		PqBuffer	buf;

		pq_buffer_init(&buf, 16);
		CHECK_ERROR(pq_json_string(&buf, bad[i], strlen(bad[i])),
					ERRCODE_DATA_CORRUPTED);
	}
	/* the largest code point and the edges around the surrogates are fine */
	CHECK(pq_utf8_valid((const uint8 *) "\xf4\x8f\xbf\xbf\xed\x9f\xbf\xee\x80\x80", 10));
}

static void
test_json_integers(void)
{
	CHECK_JSON(pq_json_int64(&buf, 0), "0");
	CHECK_JSON(pq_json_int64(&buf, PG_INT64_MIN), "-9223372036854775808");
	CHECK_JSON(pq_json_int64(&buf, PG_INT64_MAX), "9223372036854775807");
	CHECK_JSON(pq_json_uint64(&buf, PG_UINT64_MAX), "18446744073709551615");
}

/* Expected texts: Python repr digits, laid out as PostgreSQL's float8out. */
static void
test_json_double_vectors(void)
{
	static const struct
	{
		uint64		bits;
		const char *text;
	}			cases[] = {
		{UINT64CONST(0x3fb999999999999a), "0.1"},
		{UINT64CONST(0x7e37e43c8800759c), "1e+300"},
		{UINT64CONST(0x0000000000000001), "5e-324"},
		{UINT64CONST(0x7fefffffffffffff), "1.7976931348623157e+308"},
		{UINT64CONST(0x437b69b4ba630f35), "1.2345678901234568e+17"},
		{UINT64CONST(0x4059000000000000), "100"},
		{UINT64CONST(0x4341c37937e08000), "1e+16"},
		{UINT64CONST(0x430c6bf526340000), "1e+15"},
		{UINT64CONST(0x42d6bcc41e900000), "100000000000000"},
		{UINT64CONST(0x42dc12218377de40), "123456789012345"},
		{UINT64CONST(0x4132d68700000000), "1234567"},
		{UINT64CONST(0x8000000000000000), "-0"},
		{UINT64CONST(0x0000000000000000), "0"},
		{UINT64CONST(0x3e7ad7f29abcaf48), "1e-07"},
		{UINT64CONST(0x3ee4f8b588e368f1), "1e-05"},
		{UINT64CONST(0x3f1a36e2eb1c432d), "0.0001"},
		{UINT64CONST(0x3f202e4b6ce5dc68), "0.00012345"},
		{UINT64CONST(0x4004000000000000), "2.5"},
		{UINT64CONST(0x3fd5555555555555), "0.3333333333333333"},
		{UINT64CONST(0x4340000000000000), "9.007199254740992e+15"},
		{UINT64CONST(0x4340000000000001), "9.007199254740994e+15"},
		{UINT64CONST(0x444b1ae4d6e2ef50), "1e+21"},
		{UINT64CONST(0x4480f0cf064dd592), "1e+22"},
		{UINT64CONST(0x0010000000000000), "2.2250738585072014e-308"},
		{UINT64CONST(0x0000000000000003), "1.5e-323"},
		{UINT64CONST(0x41d26580b487e5c9), "1234567890.1234"},
		{UINT64CONST(0x3ff3c0ca4283de1b), "1.23456789"},
		{UINT64CONST(0xf2a74de452e6b438), "-1.989032661366619e+244"},
		{UINT64CONST(0x6513270e269e0d37), "7.761117632285041e+178"},
		{UINT64CONST(0x0c5c7fd0a6a3a450), "3.980498358697587e-249"},
		{UINT64CONST(0xd23f0824128b2f33), "-1.5432835417340557e+88"},
		{UINT64CONST(0x1818e811892f902b), "1.3647584518757569e-192"},
		{UINT64CONST(0x9531985d5d9dc9f8), "-1.3701135617873088e-206"},
		{UINT64CONST(0xe8e25d940ed90475), "-1.7160537630466207e+197"},
		{UINT64CONST(0x36f675cc81e74ef5), "6.294675241195386e-44"},
		{UINT64CONST(0x1600a35a099950d8), "1.0613447212142254e-202"},
		{UINT64CONST(0x6b0d549b6f03675a), "4.708325160387546e+207"},
		{UINT64CONST(0x3d9c172411e20b8f), "6.387016158513563e-12"},
		{UINT64CONST(0x8d116ece1738f7d9), "-9.973130378568733e-246"},
		{UINT64CONST(0x0f21ddb66cad4a26), "8.779753225680271e-236"},
		{UINT64CONST(0x90c192cfd3ac94af), "-5.795503248498993e-228"},
		{UINT64CONST(0xf28c105d1fb17c23), "-5.988180159386011e+243"},
		{UINT64CONST(0xa170b33839263059), "-1.306052388527796e-147"},
		{UINT64CONST(0x953f48f1a09f76b5), "-2.436117699484841e-206"},
		{UINT64CONST(0x0fd630f1f29d0da9), "2.233386999150174e-232"},
		{UINT64CONST(0x95e60af593bd04cf), "-3.51527970626667e-203"},
		{UINT64CONST(0x0cb1e29c658cda14), "1.5987381841032883e-247"},
		{UINT64CONST(0x408dc414e99a29e4), "952.51021118584"},
		{UINT64CONST(0xc08c56ad5716ab94), "-906.8346387644874"},
		{UINT64CONST(0x4086677eceea5980), "716.936918097359"},
		{UINT64CONST(0xc07a4c80b9f3719e), "-420.7814273366474"},
		{UINT64CONST(0xc0863beb2db6a0d4), "-711.4898332851249"},
		{UINT64CONST(0xc087e352fe2a2c31), "-764.4155238432633"},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
		CHECK_JSON(pq_json_double(&buf, double_from_bits(cases[i].bits)),
				   cases[i].text);
	CHECK_JSON(pq_json_double(&buf, NAN), "\"NaN\"");
	CHECK_JSON(pq_json_double(&buf, INFINITY), "\"Infinity\"");
	CHECK_JSON(pq_json_double(&buf, -INFINITY), "\"-Infinity\"");
}

/* Number of significant digits of a JSON number's mantissa. */
static int
significant_digits(const char *s, size_t len)
{
	int			first = -1;
	int			last = -1;
	size_t		i;

	for (i = 0; i < len && s[i] != 'e'; i++)
		if (s[i] >= '1' && s[i] <= '9')
		{
			if (first < 0)
				first = (int) i;
			last = (int) i;
		}
	if (first < 0)
		return 1;
	/* digits between first and last nonzero, minus a decimal point */
	return last - first + 1 - (memchr(s + first, '.', last - first) != NULL);
}

/*
 * Random bit patterns: the text reads back as the same double, and the
 * correctly rounded string with one digit less does not (except exactly
 * on a rounding boundary).
 */
static void
test_json_double_roundtrip(void)
{
	int			i;

	ut_rng_seed(4242);
	for (i = 0; i < 20000; i++)
	{
		double		v = double_from_bits(ut_rng_next());
		PqBuffer	buf;
		char		s[64];
		int			nd;

		if (isnan(v) || isinf(v))
			continue;
		pq_buffer_init(&buf, 16);
		pq_json_double(&buf, v);
		CHECK(buf.len < sizeof(s));
		memcpy(s, buf.data, buf.len);
		s[buf.len] = '\0';
		CHECK(strtod(s, NULL) == v);
		nd = significant_digits(s, buf.len);
		if (nd > 1)
		{
			char		shorter[64];

			snprintf(shorter, sizeof(shorter), "%.*e", nd - 2, v);
			/*
			 * PostgreSQL's Ryu excludes the interval's bounds: a shorter
			 * string may read back only if it lies exactly halfway to the
			 * neighbouring double (exact in x86-64 long double).
			 */
			if (strtod(shorter, NULL) == v)
			{
				long double ls = strtold(shorter, NULL);
				double		nb = nextafter(v, ls > v ? INFINITY : -INFINITY);

				CHECK(ls == ((long double) v + nb) / 2);
			}
		}
	}
}

/* Expected texts: PostgreSQL's float4out of the same bits. */
static void
test_json_float(void)
{
	static const struct
	{
		uint32		bits;
		const char *text;
	}			cases[] = {
		{0x3dcccccd, "0.1"},
		{0x4b800000, "1.6777216e+07"},
		{0x7f7fffff, "3.4028235e+38"},
		{0x00000001, "1e-45"},
		{0x4e932c06, "1.2345679e+09"},
		{0x33800000, "5.9604645e-08"},
		{0x3eaaa000, "0.33325195"},
		{0x38d1b717, "0.0001"},
		{0x47f12000, "123456"},
		{0x4996b438, "1.234567e+06"},
		{0x49742400, "1e+06"},
		{0x477fe000, "65504"},
		{0x38800000, "6.1035156e-05"},
		{0x40200000, "2.5"},
		{0x3e4ccccd, "0.2"},
		{0x00000005, "7e-45"},
		{0x00800000, "1.1754944e-38"},
		{0x80000000, "-0"},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
		CHECK_JSON(pq_json_float(&buf, float_from_bits(cases[i].bits)),
				   cases[i].text);
	CHECK_JSON(pq_json_float(&buf, NAN), "\"NaN\"");
	CHECK_JSON(pq_json_float(&buf, -INFINITY), "\"-Infinity\"");

	/* random floats read back through strtof */
	ut_rng_seed(77);
	for (i = 0; i < 20000; i++)
	{
		float		v = float_from_bits((uint32) ut_rng_next());
		PqBuffer	buf;
		char		s[64];

		if (isnan(v) || isinf(v))
			continue;
		pq_buffer_init(&buf, 16);
		pq_json_float(&buf, v);
		CHECK(buf.len < sizeof(s));
		memcpy(s, buf.data, buf.len);
		s[buf.len] = '\0';
		CHECK(strtof(s, NULL) == v);
	}
}

/* Expected texts: Python int.from_bytes(signed=True) placed by the scale. */
static void
test_json_decimal(void)
{
	static const struct
	{
		const char *bytes;
		int			len;
		int			scale;
		const char *text;
	}			cases[] = {
		{"\x7f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 16, 0, "170141183460469231731687303715884105727"},
		{"\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 16, 0, "-170141183460469231731687303715884105728"},
		{"\x7f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 16, 38, "1.70141183460469231731687303715884105727"},
		{"\x7f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 32, 10, "5789604461865809771178549250434395392663499233282028201972879200395.6564819967"},
		{"\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 32, 76, "-5.7896044618658097711785492504343953926634992332820282019728792003956564819968"},
		{"\xff", 1, 2, "-0.01"},
		{"\x00", 1, 3, "0.000"},
		{"\x01\x00", 2, 0, "256"},
		{"\x4b\x3b\x4c\xa8\x5a\x86\xc4\x7a\x09\x8a\x22\x3f\xff\xff\xff\xff", 16, 2, "999999999999999999999999999999999999.99"},
		{"\xb4\xc4\xb3\x57\xa5\x79\x3b\x85\xf6\x75\xdd\xc0\x00\x00\x00\x01", 16, 38, "-0.99999999999999999999999999999999999999"},
		{"\xff\xff\xff\xff\xff\xff\xff\xff\xff", 9, 0, "-1"},
		{"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 32, 5, "-0.00001"},
		{"\x73\xdd\x8f", 3, 29, "0.00000000000000000000007593359"},
		{"\x73\x82\xda\x96\x30", 5, 11, "4.96116602416"},
		{"\xcd\x83\x79\xa1\x9d\xcb\x2f\x18\x72", 9, 19, "-93.1310166768945784718"},
		{"\x24\x17\x89\xcf\xe3\xb1\xa2\x0a\x98\xfb\x65\xf6\x73", 13, 39, "0.000000002859498610306766957636923815539"},
		{"\xa6\x28\x9f\x03\xd4\x87\x10\x0f\x09\x30\xe1\x3d\x99\x07\xc7\x76\x53", 17, 28, "-3057141825016.7158885071539673694752770477"},
		{"\x97\xd7\x32\x84\x3b\xa3\x4b\x7f\x01\xa9\x15\x75\xa7\x47\x68\xff\x8d\xfe\xee\xd7\x15", 21, 16, "-15222911234764229558025686988153916.4515333139671275"},
		{"\x50\xc2\x3a\x83\x49\x07\x11\x90\xc4\x1b\x66\x1b\xd8\x4a\x62\x11\xf5\x04\xd8\xaf\x00\x36\x35\xed\xe9", 25, 3, "506930609405766702683600269266674455826425644410238206864.873"},
		{"\x78\x60\xfa\xb5\x65\x6b\x12\x90\xa1\x32\xc7\xac\x45\x56\x16\x4f\x55\x03\xf6\x68\xc2\xec\x1e\x22\x3f\xb4\x19\x02\x0f\x77\xcc", 31, 31, "21269097451261064231962575879126055679296105.4770440013905402853226051499980"},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
		CHECK_JSON(pq_json_decimal_be(&buf, ut_exact_copy(cases[i].bytes, cases[i].len),
									  cases[i].len, cases[i].scale),
				   cases[i].text);
	CHECK_JSON(pq_json_decimal_be(&buf, NULL, 0, 2), "0.00");
	CHECK_JSON(pq_json_decimal_int64(&buf, 1234, 2), "12.34");
	CHECK_JSON(pq_json_decimal_int64(&buf, -5, 3), "-0.005");
	CHECK_JSON(pq_json_decimal_int64(&buf, 0, 0), "0");
	CHECK_JSON(pq_json_decimal_int64(&buf, 100, 2), "1.00");
	CHECK_JSON(pq_json_decimal_int64(&buf, PG_INT64_MIN, 0), "-9223372036854775808");
	CHECK_JSON(pq_json_decimal_int64(&buf, PG_INT64_MIN, 19), "-0.9223372036854775808");
	CHECK_JSON(pq_json_decimal_int64(&buf, PG_INT64_MAX, 20), "0.09223372036854775807");
}

static void
test_json_decimal_errors(void)
{
	uint8		big[33];
	PqBuffer	buf;

	memset(big, 0, sizeof(big));
	pq_buffer_init(&buf, 16);
	CHECK_ERROR(pq_json_decimal_be(&buf, big, 33, 0), ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(pq_json_decimal_int64(&buf, 1, -1), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_json_decimal_int64(&buf, 1, 100000), ERRCODE_FEATURE_NOT_SUPPORTED);
}

/* Expected texts: Python datetime (shifted by 400-year cycles), PostgreSQL's BC style. */
static void
test_json_date(void)
{
	static const struct
	{
		int32		days;
		const char *text;
	}			cases[] = {
		{0, "\"1970-01-01\""},
		{-1, "\"1969-12-31\""},
		{19098, "\"2022-04-16\""},
		{-719162, "\"0001-01-01\""},
		{-719163, "\"0001-12-31 BC\""},
		{-719528, "\"0001-01-01 BC\""},
		{-719529, "\"0002-12-31 BC\""},
		{2932896, "\"9999-12-31\""},
		{2932897, "\"10000-01-01\""},
		{2147483647, "\"5881580-07-11\""},
		{-2147483648, "\"5877642-06-23 BC\""},
		{2145042906, "\"5874898-01-01\""},
		{-2440589, "\"4714-11-23 BC\""},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
		CHECK_JSON(pq_json_date(&buf, cases[i].days), cases[i].text);
}

static void
test_json_time(void)
{
	PqBuffer	buf;

	CHECK_JSON(pq_json_time(&buf, 0, 6, false), "\"00:00:00\"");
	CHECK_JSON(pq_json_time(&buf, INT64CONST(86400000000), 6, false), "\"24:00:00\"");
	CHECK_JSON(pq_json_time(&buf, 45296789, 3, false), "\"12:34:56.789\"");
	CHECK_JSON(pq_json_time(&buf, 45296780, 3, true), "\"12:34:56.78+00:00\"");
	CHECK_JSON(pq_json_time(&buf, INT64CONST(45234123456), 6, false), "\"12:33:54.123456\"");
	CHECK_JSON(pq_json_time(&buf, INT64CONST(45234123456789), 9, false), "\"12:33:54.123456789\"");
	CHECK_JSON(pq_json_time(&buf, INT64CONST(45234000000001), 9, false), "\"12:33:54.000000001\"");
	pq_buffer_init(&buf, 16);
	CHECK_ERROR(pq_json_time(&buf, -1, 6, false), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_json_time(&buf, 86400001, 3, false), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_json_time(&buf, PG_INT64_MAX, 9, false), ERRCODE_DATA_CORRUPTED);
}

/* Expected texts: Python datetime, as above. */
static void
test_json_timestamp(void)
{
	static const struct
	{
		int64		v;
		int			digits;
		bool		utc;
		const char *text;
	}			cases[] = {
		{INT64CONST(0), 6, true, "\"1970-01-01T00:00:00+00:00\""},
		{INT64CONST(1744806896780000), 6, false, "\"2025-04-16T12:34:56.78\""},
		{INT64CONST(1744821296780000), 6, true, "\"2025-04-16T16:34:56.78+00:00\""},
		{INT64CONST(1730982834123456789), 9, true, "\"2024-11-07T12:33:54.123456789+00:00\""},
		{INT64CONST(-1), 6, false, "\"1969-12-31T23:59:59.999999\""},
		{INT64CONST(-1), 9, true, "\"1969-12-31T23:59:59.999999999+00:00\""},
		{INT64CONST(-1), 3, false, "\"1969-12-31T23:59:59.999\""},
		{INT64CONST(9223372036854775807), 6, false, "\"294247-01-10T04:00:54.775807\""},
		{PG_INT64_MIN, 6, true, "\"290309-12-21T19:59:05.224192+00:00 BC\""},
		{INT64CONST(9223372036854775807), 3, false, "\"292278994-08-17T07:12:55.807\""},
		{PG_INT64_MIN, 3, false, "\"292275056-05-16T16:47:04.192 BC\""},
		{INT64CONST(9223372036854775807), 9, true, "\"2262-04-11T23:47:16.854775807+00:00\""},
		{INT64CONST(-62135596800000001), 6, false, "\"0001-12-31T23:59:59.999999 BC\""},
		{INT64CONST(-62135596800000000), 6, false, "\"0001-01-01T00:00:00\""},
		{INT64CONST(253402300800000), 3, false, "\"10000-01-01T00:00:00\""},
		{INT64CONST(-6807455768523086626), 9, false, "\"1754-04-13T00:03:51.476913374\""},
		{INT64CONST(-1939613002809247809), 3, true, "\"61461921-09-30T10:45:52.191+00:00 BC\""},
		{INT64CONST(-5336454456688606017), 6, true, "\"167137-06-27T19:48:31.393983+00:00 BC\""},
		{INT64CONST(9026023186047144949), 3, false, "\"286025258-07-01T14:52:24.949\""},
		{INT64CONST(-2099793609772765040), 3, true, "\"66537842-05-20T05:20:34.96+00:00 BC\""},
		{INT64CONST(4157729464033157960), 3, true, "\"131755171-10-08T16:19:17.96+00:00\""},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
		CHECK_JSON(pq_json_timestamp(&buf, cases[i].v, cases[i].digits, cases[i].utc),
				   cases[i].text);
}

/* Expected texts: Python base64.b64encode. */
static void
test_json_base64_uuid_interval(void)
{
	static const struct
	{
		const char *bytes;
		int			len;
		const char *b64;
	}			cases[] = {
		{"", 0, ""},
		{"\xaf", 1, "rw=="},
		{"\xf3\x63", 2, "82M="},
		{"\xe1\x7b\x9a", 3, "4Xua"},
		{"\x14\x6b\x0c\x1a", 4, "FGsMGg=="},
		{"\x1b\x09\x83\xf6\x41", 5, "GwmD9kE="},
		{"\x3d\xbd\xb4\x64\x41\x6b", 6, "Pb20ZEFr"},
	};
	static const uint8 uuid[16] = {
		0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1,
		0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56
	};
	/* months, days, millis little-endian; PostgreSQL's iso_8601 spelling */
	static const struct
	{
		uint32		months;
		uint32		days;
		uint32		millis;
		const char *text;
	}			ivs[] = {
		{0, 0, 0, "\"PT0S\""},
		{14, 3, 3723004, "\"P1Y2M3DT1H2M3.004S\""},
		{0, 0, 500, "\"PT0.5S\""},
		{12, 0, 0, "\"P1Y\""},
		{1, 0, 0, "\"P1M\""},
		{0, 1, 0, "\"P1D\""},
		{0, 0, 90000000, "\"PT25H\""},
		{0, 0, 60000, "\"PT1M\""},
		{0, 0, 1000, "\"PT1S\""},
		{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF,
		"\"P357913941Y3M4294967295DT1193H2M47.295S\""},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
	{
		char		expected[64];

		snprintf(expected, sizeof(expected), "\"%s\"", cases[i].b64);
		CHECK_JSON(pq_json_base64(&buf, ut_exact_copy(cases[i].bytes, cases[i].len),
								  cases[i].len), expected);
	}
	CHECK_JSON(pq_json_uuid(&buf, uuid), "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\"");
	for (i = 0; i < lengthof(ivs); i++)
	{
		uint8		raw[12];

		pq_store_le32(raw, ivs[i].months);
		pq_store_le32(raw + 4, ivs[i].days);
		pq_store_le32(raw + 8, ivs[i].millis);
		CHECK_JSON(pq_json_interval(&buf, raw), ivs[i].text);
	}
}

static void
test_json_valid(void)
{
	static const char *const good[] = {
		"0", "-0", "1.5e+10", "-12.25E-3", "\"\"", "\"\\u00e9\\n\\/\"", "true",
		"false", "null", "[]", "{}", " [ 1 , { \"a\" : [ null ] } ] ",
		"{\"a\":1,\"b\":{\"c\":[true,false]}}", "\"h\xc3\xa9\""
	};
	static const char *const bad[] = {
		"", " ", "01", "1.", ".5", "+1", "1e", "-", "\"abc", "\"\\x\"",
		"\"\\u12g4\"", "\"a\tb\"", "[1,]", "[1 2]", "{\"a\"}", "{\"a\":}",
		"{1:2}", "tru", "nul", "1 2", "1, \"b\": 2", "\"a\"], \"b\": [1",
		"[", "]", "{\"a\":1,}", "NaN", "\"\xc3\"", "[1]x"
	};
	char		deep[2100];
	int			i;

	for (i = 0; i < lengthof(good); i++)
		CHECK(pq_json_valid((const uint8 *) good[i], strlen(good[i])));
	for (i = 0; i < lengthof(bad); i++)
		CHECK(!pq_json_valid((const uint8 *) bad[i], strlen(bad[i])));

	/* 999 levels are fine, 1001 are refused */
	memset(deep, '[', 999);
	memset(deep + 999, ']', 999);
	CHECK(pq_json_valid((const uint8 *) deep, 1998));
	memset(deep, '[', 1001);
	memset(deep + 1001, ']', 1001);
	CHECK(!pq_json_valid((const uint8 *) deep, 2002));
}

/* ---- pq_json_scalar: a leaf of every physical/logical combination ---- */

static PqSchemaNode *
leaf(int physical, int type_length, int lt_id)
{
	PqSchemaNode *n = palloc0(sizeof(PqSchemaNode));

	n->name = "col";
	n->is_leaf = true;
	n->physical_type = physical;
	n->type_length = type_length;
	n->logical.id = lt_id;
	n->converted_type = -1;
	return n;
}

static PqValue
scalar_bytes(const void *p, uint32 len)
{
	PqValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.bytes.ptr = ut_exact_copy(p, len);
	v.u.scalar.bytes.len = len;
	return v;
}

static PqValue
scalar_i32(int32 x)
{
	PqValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.i32 = x;
	return v;
}

static PqValue
scalar_i64(int64 x)
{
	PqValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.i64 = x;
	return v;
}

static void
test_scalar_physical(void)
{
	PqValue		v;
	PqSchemaNode *n;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.b = true;
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BOOLEAN, 0, PQ_LT_NONE), &v), "true");
	v.u.scalar.b = false;
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BOOLEAN, 0, PQ_LT_NONE), &v), "false");
	v = scalar_i32(-7);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_INT32, 0, PQ_LT_NONE), &v), "-7");
	v = scalar_i64(PG_INT64_MIN);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_INT64, 0, PQ_LT_NONE), &v), "-9223372036854775808");
	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.f = 0.1f;
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FLOAT, 0, PQ_LT_NONE), &v), "0.1");
	v.u.scalar.d = 1234567890.1234;
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_DOUBLE, 0, PQ_LT_NONE), &v), "1234567890.1234");
	v = scalar_bytes("\x03\x13\x37\xde\xad\xbe\xef\xca\xfe", 9);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_NONE), &v), "\"AxM33q2+78r+\"");
	v = scalar_bytes("ab", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_NONE), &v), "\"YWI=\"");

	/* SQL NULL leaf -> JSON null; UNKNOWN logical type is always null */
	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_NULL;
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_INT32, 0, PQ_LT_NONE), &v), "null");
	v = scalar_i32(5);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_INT32, 0, PQ_LT_UNKNOWN), &v), "null");

	/* an unrecognized LogicalType is read as its physical type */
	v = scalar_i32(5);
	n = leaf(PQ_INT32, 0, PQ_LT_UNRECOGNIZED);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "5");
}

/*
 * INT96: Julian day 2440588 is 1970-01-01; Spark's year-290000 value from
 * int96_from_spark.md (9089380393200000000 us) as Spark encodes it, with
 * the Julian day wrapped and negative nanoseconds (computed in Python).
 */
static void
test_scalar_int96(void)
{
	uint8		raw[12];
	PqValue		v;
	PqSchemaNode *n = leaf(PQ_INT96, 12, PQ_LT_NONE);

	pq_store_le64(raw, 0);
	pq_store_le32(raw + 8, 2440588);
	v = scalar_bytes(raw, 12);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"1970-01-01T00:00:00\"");
	pq_store_le64(raw, 1);
	v = scalar_bytes(raw, 12);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"1970-01-01T00:00:00.000000001\"");
	pq_store_le64(raw, UINT64CONST(74096123456000));
	pq_store_le32(raw + 8, 2460311);
	v = scalar_bytes(raw, 12);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"2024-01-01T20:34:56.123456\"");
	pq_store_le64(raw, (uint64) INT64CONST(-32509551616000));
	pq_store_le32(raw + 8, (uint32) -105862232);
	v = scalar_bytes(raw, 12);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"290000-12-30T23:00:00\"");
	/* negative sub-microsecond nanoseconds borrow from the microseconds */
	pq_store_le64(raw, (uint64) INT64CONST(-1));
	pq_store_le32(raw + 8, 2440588);
	v = scalar_bytes(raw, 12);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"1969-12-31T23:59:59.999999999\"");
}

static void
test_scalar_logical(void)
{
	PqValue		v;
	PqSchemaNode *n;
	static const uint8 uuid[16] = {
		0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1,
		0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56
	};
	uint8		iv[12];

	v = scalar_bytes("h\xc3\xa9\"", 4);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_STRING), &v), "\"h\xc3\xa9\\\"\"");
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_ENUM), &v), "\"h\xc3\xa9\\\"\"");
	v = scalar_bytes(" {\"a\": [1, 2.5e3, \"x\"]} ", 24);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_JSON), &v),
			   " {\"a\": [1, 2.5e3, \"x\"]} ");
	v = scalar_bytes("\x05\x00\x00\x00\x00", 5);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_BSON), &v), "\"BQAAAAA=\"");
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_GEOMETRY), &v), "\"BQAAAAA=\"");
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_GEOGRAPHY), &v), "\"BQAAAAA=\"");
	v = scalar_bytes(uuid, 16);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 16, PQ_LT_UUID), &v),
			   "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\"");

	/* FLOAT16 (little-endian half) as the float it is exactly */
	v = scalar_bytes("\x00\x3c", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_FLOAT16), &v), "1");
	v = scalar_bytes("\x55\x35", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_FLOAT16), &v), "0.33325195");
	v = scalar_bytes("\x01\x00", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_FLOAT16), &v), "5.9604645e-08");
	v = scalar_bytes("\xff\x7b", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_FLOAT16), &v), "65504");
	v = scalar_bytes("\x00\x80", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_FLOAT16), &v), "-0");
	v = scalar_bytes("\x00\x7c", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_FLOAT16), &v), "\"Infinity\"");
	v = scalar_bytes("\x00\xfc", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_FLOAT16), &v), "\"-Infinity\"");
	v = scalar_bytes("\x00\x7e", 2);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_LT_FLOAT16), &v), "\"NaN\"");

	/* DECIMAL in every physical type */
	n = leaf(PQ_INT32, 0, PQ_LT_DECIMAL);
	n->logical.decimal_scale = 2;
	n->logical.decimal_precision = 4;
	v = scalar_i32(-1234);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "-12.34");
	n = leaf(PQ_INT64, 0, PQ_LT_DECIMAL);
	n->logical.decimal_scale = 1;
	n->logical.decimal_precision = 18;
	v = scalar_i64(123456789);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "12345678.9");
	n = leaf(PQ_FIXED_LEN_BYTE_ARRAY, 16, PQ_LT_DECIMAL);
	n->logical.decimal_scale = 3;
	n->logical.decimal_precision = 38;
	v = scalar_bytes("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x85", 16);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "-0.123");
	n = leaf(PQ_BYTE_ARRAY, 0, PQ_LT_DECIMAL);
	n->logical.decimal_scale = 0;
	n->logical.decimal_precision = 5;
	v = scalar_bytes("\x30\x39", 2);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "12345");

	/* DATE, TIME, TIMESTAMP */
	v = scalar_i32(20194);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_INT32, 0, PQ_LT_DATE), &v), "\"2025-04-16\"");
	n = leaf(PQ_INT32, 0, PQ_LT_TIME);
	n->logical.time_unit = PQ_UNIT_MILLIS;
	v = scalar_i32(45296789);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"12:34:56.789\"");
	n = leaf(PQ_INT64, 0, PQ_LT_TIME);
	n->logical.time_unit = PQ_UNIT_MICROS;
	v = scalar_i64(INT64CONST(45234123456));
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"12:33:54.123456\"");
	n->logical.time_unit = PQ_UNIT_NANOS;
	n->logical.is_adjusted_to_utc = true;
	v = scalar_i64(INT64CONST(45234123456789));
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"12:33:54.123456789+00:00\"");
	n = leaf(PQ_INT64, 0, PQ_LT_TIMESTAMP);
	n->logical.time_unit = PQ_UNIT_MILLIS;
	v = scalar_i64(INT64CONST(1744806896780));
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"2025-04-16T12:34:56.78\"");
	n->logical.time_unit = PQ_UNIT_MICROS;
	n->logical.is_adjusted_to_utc = true;
	v = scalar_i64(INT64CONST(1744806896780000));
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"2025-04-16T12:34:56.78+00:00\"");
	n->logical.time_unit = PQ_UNIT_NANOS;
	v = scalar_i64(INT64CONST(1744806896000000001));
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "\"2025-04-16T12:34:56.000000001+00:00\"");

	/* INTEGER annotations, signed and unsigned */
	n = leaf(PQ_INT32, 0, PQ_LT_INTEGER);
	n->logical.int_bit_width = 8;
	n->logical.int_is_signed = true;
	v = scalar_i32(-128);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "-128");
	n->logical.int_bit_width = 16;
	n->logical.int_is_signed = false;
	v = scalar_i32(65535);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "65535");
	n->logical.int_bit_width = 32;
	v = scalar_i32(-1);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "4294967295");
	n->logical.int_is_signed = true;
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "-1");
	n = leaf(PQ_INT64, 0, PQ_LT_INTEGER);
	n->logical.int_bit_width = 64;
	v = scalar_i64(-1);
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "18446744073709551615");
	n->logical.int_is_signed = true;
	CHECK_JSON(pq_json_scalar(&buf, n, &v), "-1");

	/* INTERVAL */
	pq_store_le32(iv, 14);
	pq_store_le32(iv + 4, 3);
	pq_store_le32(iv + 8, 3723004);
	v = scalar_bytes(iv, 12);
	CHECK_JSON(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 12, PQ_LT_INTERVAL), &v),
			   "\"P1Y2M3DT1H2M3.004S\"");
}

static void
test_scalar_errors(void)
{
	PqBuffer	buf;
	PqValue		v;
	PqSchemaNode *n;

	pq_buffer_init(&buf, 16);
	v = scalar_bytes("\xc3(", 2);
	CHECK_ERROR(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_STRING), &v),
				ERRCODE_DATA_CORRUPTED);
	/* JSON that is not one value would change the surrounding structure */
	v = scalar_bytes("1, \"b\": 2", 9);
	CHECK_ERROR(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_JSON), &v),
				ERRCODE_DATA_CORRUPTED);
	v = scalar_bytes("", 0);
	CHECK_ERROR(pq_json_scalar(&buf, leaf(PQ_BYTE_ARRAY, 0, PQ_LT_JSON), &v),
				ERRCODE_DATA_CORRUPTED);
	v = scalar_bytes("0123456789abcde", 15);
	CHECK_ERROR(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 15, PQ_LT_UUID), &v),
				ERRCODE_DATA_CORRUPTED);
	v = scalar_i32(5);
	CHECK_ERROR(pq_json_scalar(&buf, leaf(PQ_INT32, 0, PQ_LT_UUID), &v),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_json_scalar(&buf, leaf(PQ_INT64, 0, PQ_LT_DATE), &v),
				ERRCODE_DATA_CORRUPTED);
	n = leaf(PQ_INT32, 0, PQ_LT_INTEGER);
	n->logical.int_bit_width = 8;
	n->logical.int_is_signed = true;
	v = scalar_i32(128);
	CHECK_ERROR(pq_json_scalar(&buf, n, &v), ERRCODE_DATA_CORRUPTED);
	n->logical.int_is_signed = false;
	v = scalar_i32(-1);
	CHECK_ERROR(pq_json_scalar(&buf, n, &v), ERRCODE_DATA_CORRUPTED);
	n = leaf(PQ_INT64, 0, PQ_LT_TIME);
	n->logical.time_unit = PQ_UNIT_MICROS;
	v = scalar_i64(INT64CONST(86400000001));
	CHECK_ERROR(pq_json_scalar(&buf, n, &v), ERRCODE_DATA_CORRUPTED);
	n = leaf(PQ_INT64, 0, PQ_LT_TIMESTAMP);
	n->logical.time_unit = PQ_UNIT_NONE;
	CHECK_ERROR(pq_json_scalar(&buf, n, &v), ERRCODE_DATA_CORRUPTED);
	v = scalar_bytes("\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 11);
	CHECK_ERROR(pq_json_scalar(&buf, leaf(PQ_FIXED_LEN_BYTE_ARRAY, 11, PQ_LT_INTERVAL), &v),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_json_scalar(&buf, leaf(PQ_INT96, 12, PQ_LT_NONE), &v),
				ERRCODE_DATA_CORRUPTED);
}

void
suite_json_render(void)
{
	ut_run("json: strings and escapes", test_json_string);
	ut_run("json: invalid UTF-8 is corrupt", test_json_string_invalid_utf8);
	ut_run("json: integers", test_json_integers);
	ut_run("json: doubles, Python repr vectors", test_json_double_vectors);
	ut_run("json: doubles round-trip and are shortest", test_json_double_roundtrip);
	ut_run("json: floats, PostgreSQL float4out vectors", test_json_float);
	ut_run("json: decimals up to 32 bytes", test_json_decimal);
	ut_run("json: decimal errors", test_json_decimal_errors);
	ut_run("json: dates, BC and large years", test_json_date);
	ut_run("json: times of day", test_json_time);
	ut_run("json: timestamps", test_json_timestamp);
	ut_run("json: base64, uuid, interval", test_json_base64_uuid_interval);
	ut_run("json: JSON syntax validation", test_json_valid);
	ut_run("json: scalars by physical type", test_scalar_physical);
	ut_run("json: INT96 scalars", test_scalar_int96);
	ut_run("json: scalars by logical type", test_scalar_logical);
	ut_run("json: invalid scalars", test_scalar_errors);
}
