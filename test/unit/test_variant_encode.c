/*
 * test_variant_encode.c
 *		JSON -> Variant encoding: bytes worked out by hand from
 *		VariantEncoding.md, and the values of the parquet-testing variant/
 *		examples Spark wrote (read in place when the corpus is present).
 */
#include "postgres.h"

#include <stdio.h>
#include <sys/stat.h>

#include "unit_test.h"
#include "format/variant/encode.h"

#define VARIANT_DIR "/work/shared/testdata/parquet-testing/variant"

static bool
encode_is(const char *json, const uint8 *meta, size_t meta_len,
		  const uint8 *value, size_t value_len)
{
	PqBuffer	m;
	PqBuffer	v;

	pq_buffer_init(&m, 16);
	pq_buffer_init(&v, 16);
	pq_variant_encode_json(json, strlen(json), &m, &v);
	if (meta != NULL && (m.len != meta_len || memcmp(m.data, meta, meta_len) != 0))
		return false;
	return v.len == value_len && memcmp(v.data, value, value_len) == 0;
}

/* metadata without keys: version 1, sorted, 1-byte offsets, no strings */
static const uint8 empty_meta[] = {0x11, 0x00, 0x00};

#define ENCODES(json, value) \
	CHECK(encode_is(json, empty_meta, sizeof(empty_meta), value, sizeof(value)))

static void
test_primitives(void)
{
	static const uint8 null_v[] = {0x00};
	static const uint8 true_v[] = {0x04};
	static const uint8 false_v[] = {0x08};
	static const uint8 i8[] = {0x0C, 0x2A};
	static const uint8 i8_neg[] = {0x0C, 0x80};
	static const uint8 i16[] = {0x10, 0x80, 0x00};
	static const uint8 i32[] = {0x14, 0x00, 0x80, 0x00, 0x00};
	static const uint8 i64[] = {0x18, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00};
	static const uint8 hundred[] = {0x0C, 0x64};
	static const uint8 dec4[] = {0x20, 0x02, 0xD2, 0x04, 0x00, 0x00};
	static const uint8 dec4_zero[] = {0x20, 0x02, 0x00, 0x00, 0x00, 0x00};
	static const uint8 dec4_neg[] = {0x20, 0x01, 0xF1, 0xFF, 0xFF, 0xFF};
	static const uint8 dec8[] = {0x24, 0x01, 0x00, 0xE4, 0x0B, 0x54, 0x02, 0x00, 0x00, 0x00};
	static const uint8 dec16[] = {0x28, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

	ENCODES("null", null_v);
	ENCODES(" true ", true_v);
	ENCODES("false", false_v);
	ENCODES("42", i8);
	ENCODES("-128", i8_neg);
	ENCODES("128", i16);
	ENCODES("32768", i32);
	ENCODES("2147483648", i64);
	/* exponents and zeros past the last digit give an integer */
	ENCODES("1e2", hundred);
	ENCODES("1.0e2", hundred);
	/* decimals keep the digits as written */
	ENCODES("12.34", dec4);
	ENCODES("0.00", dec4_zero);
	ENCODES("-1.5", dec4_neg);
	ENCODES("1000000000.0", dec8);
	/* 2^63 does not fit int64: decimal16 with scale 0 */
	ENCODES("9223372036854775808", dec16);
}

static void
test_numbers_out_of_range(void)
{
	PqBuffer	m;
	PqBuffer	v;

	pq_buffer_init(&m, 16);
	pq_buffer_init(&v, 16);
	/* 39 significant digits */
	CHECK_ERROR(pq_variant_encode_json("123456789012345678901234567890123456789", 39, &m, &v),
				ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE);
	CHECK_ERROR(pq_variant_encode_json("1e-39", 5, &m, &v),
				ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE);
	CHECK_ERROR(pq_variant_encode_json("1e38", 4, &m, &v),
				ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE);
	/* zeros beyond 38 digits only scale: 1.000... keeps 37 zeros */
	pq_buffer_reset(&m);
	pq_buffer_reset(&v);
	pq_variant_encode_json("1.0000000000000000000000000000000000000000", 42, &m, &v);
	CHECK_EQ_INT(v.len, 18);
	CHECK_EQ_INT(v.data[0], 0x28);
	CHECK_EQ_INT(v.data[1], 37);
}

static void
test_strings(void)
{
	static const uint8 short_v[] = {0x0D, 'a', 'b', 'c'};
	static const uint8 empty_v[] = {0x01};
	static const uint8 escapes[] = {0x29, '"', '\\', '/', '\n', 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80};
	char		long_json[80];
	uint8		long_v[1 + 4 + 70];

	ENCODES("\"abc\"", short_v);
	ENCODES("\"\"", empty_v);
	ENCODES("\"\\\"\\\\\\/\\n\\u00e9\\ud83d\\ude00\"", escapes);

	/* 64 bytes and more: primitive string with a 4-byte length */
	long_json[0] = '"';
	memset(long_json + 1, 'x', 70);
	long_json[71] = '"';
	long_json[72] = '\0';
	long_v[0] = 0x40;
	long_v[1] = 70;
	long_v[2] = long_v[3] = long_v[4] = 0;
	memset(long_v + 5, 'x', 70);
	ENCODES(long_json, long_v);
}

static void
test_containers(void)
{
	static const uint8 obj_meta[] = {0x11, 0x02, 0x00, 0x01, 0x02, 'a', 'b'};

	/* fields in key order: a ("x": 2 bytes at 0), b (1: 2 bytes at 2) */
	static const uint8 obj_v[] = {0x02, 0x02, 0x00, 0x01, 0x00, 0x02, 0x04,
	0x05, 'x', 0x0C, 0x01};

	/* a duplicate key keeps its last value */
	static const uint8 dup_meta[] = {0x11, 0x01, 0x00, 0x01, 'k'};
	static const uint8 dup_v[] = {0x02, 0x01, 0x00, 0x00, 0x02, 0x0C, 0x02};
	static const uint8 empty_obj[] = {0x02, 0x00, 0x00};
	static const uint8 empty_arr[] = {0x03, 0x00, 0x00};
	static const uint8 nested[] = {0x03, 0x02, 0x00, 0x05, 0x06,
	0x03, 0x01, 0x00, 0x01, 0x00, 0x00};
	PqBuffer	m;
	PqBuffer	v;
	char	   *big;
	int			i;

	CHECK(encode_is("{\"b\": 1, \"a\": \"x\"}", obj_meta, sizeof(obj_meta),
					obj_v, sizeof(obj_v)));
	CHECK(encode_is("{\"k\": 1, \"k\": 2}", dup_meta, sizeof(dup_meta),
					dup_v, sizeof(dup_v)));
	ENCODES("{}", empty_obj);
	ENCODES("[]", empty_arr);
	/* [[null], null]: inner array (5 bytes at 0), null at 5 */
	ENCODES("[[null], null]", nested);

	/* 300 elements: is_large, a 4-byte count, 2-byte offsets */
	big = palloc(300 * 2 + 2);
	big[0] = '[';
	for (i = 0; i < 300; i++)
	{
		big[1 + 2 * i] = '0';
		big[2 + 2 * i] = i < 299 ? ',' : ']';
	}
	big[601] = '\0';
	pq_buffer_init(&m, 16);
	pq_buffer_init(&v, 16);
	pq_variant_encode_json(big, strlen(big), &m, &v);
	CHECK_EQ_INT(v.data[0], 0x03 | (((1 << 2) | 1) << 2));
	CHECK_EQ_INT(v.data[1] | (v.data[2] << 8), 300);
	CHECK_EQ_INT(v.len, 1 + 4 + 301 * 2 + 300 * 2);
}

static void
test_invalid_json(void)
{
	static const char *const bad[] = {
		"", "tru", "[1,", "{\"a\" 1}", "{1: 2}", "01", "1.", "-", "\"abc",
		"\"\\x\"", "\"\\ud800\"", "[1] x", "\"a\tb\"", "{\"a\":1,}"
	};
	PqBuffer	m;
	PqBuffer	v;
	char	   *deep;
	int			i;

	pq_buffer_init(&m, 16);
	pq_buffer_init(&v, 16);
	for (i = 0; i < lengthof(bad); i++)
		CHECK_ERROR(pq_variant_encode_json(bad[i], strlen(bad[i]), &m, &v),
					ERRCODE_INVALID_TEXT_REPRESENTATION);

	deep = palloc(2 * (PQ_VARIANT_MAX_DEPTH + 2));
	for (i = 0; i < PQ_VARIANT_MAX_DEPTH + 2; i++)
	{
		deep[i] = '[';
		deep[2 * (PQ_VARIANT_MAX_DEPTH + 2) - 1 - i] = ']';
	}
	CHECK_ERROR(pq_variant_encode_json(deep, 2 * (PQ_VARIANT_MAX_DEPTH + 2), &m, &v),
				ERRCODE_INVALID_TEXT_REPRESENTATION);
}

/*
 * Random strings over JSON's alphabet: every one is encoded or rejected
 * with one of the two documented errors, never read out of bounds (ASan).
 */
static void
test_random_inputs(void)
{
	static const char alphabet[] = "{}[]\":,0123456789.eE-+ truefalsn\\u\x01\xc3\xa9";
	int			iter;

	ut_rng_seed(20251121);
	for (iter = 0; iter < 20000; iter++)
	{
		int			len = (int) (ut_rng_next() % 24);
		uint8	   *buf = palloc(len + 1);
		PqBuffer	m;
		PqBuffer	v;
		volatile bool failed = false;
		int			i;

		for (i = 0; i < len; i++)
			buf[i] = alphabet[ut_rng_next() % (sizeof(alphabet) - 1)];
		buf = ut_exact_copy(buf, len);
		pq_buffer_init(&m, 16);
		pq_buffer_init(&v, 16);
		shim_last_sqlstate = 0;
		PG_TRY();
		{
			pq_variant_encode_json((const char *) buf, len, &m, &v);
		}
		PG_CATCH();
		{
			failed = true;
		}
		PG_END_TRY();
		if (failed)
			CHECK(shim_last_sqlstate == ERRCODE_INVALID_TEXT_REPRESENTATION ||
				  shim_last_sqlstate == ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE);
		else
			CHECK(v.len > 0 && m.len >= 3);
		if (iter % 1000 == 0)
			shim_free_all();
	}
}

/* The bytes of a corpus file, or NULL when the corpus is absent. */
static uint8 *
read_corpus(const char *name, const char *ext, size_t *len)
{
	char		path[512];
	FILE	   *f;
	struct stat st;
	uint8	   *buf;

	snprintf(path, sizeof(path), "%s/%s.%s", VARIANT_DIR, name, ext);
	if (stat(path, &st) != 0)
		return NULL;
	buf = palloc(st.st_size + 1);
	f = fopen(path, "rb");
	if (f == NULL || fread(buf, 1, st.st_size, f) != (size_t) st.st_size)
	{
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	*len = st.st_size;
	return buf;
}

/*
 * Spark's values of the corpus examples without objects (whose field ids
 * depend on its unsorted dictionary) equal ours; their JSON is that of
 * data_dictionary.json.
 */
static void
test_corpus_values(void)
{
	static const struct
	{
		const char *name;
		const char *json;
	}			cases[] = {
		{"primitive_null", "null"},
		{"primitive_boolean_true", "true"},
		{"primitive_boolean_false", "false"},
		{"primitive_int8", "42"},
		{"primitive_decimal4", "12.34"},
		{"short_string", "\"Less than 64 bytes (\\u2764\\ufe0f with utf8)\""},
		{"array_empty", "[]"},
		{"array_primitive", "[2, 1, 5, 9]"},
		{"object_empty", "{}"},
	};
	int			found = 0;
	int			i;

	for (i = 0; i < lengthof(cases); i++)
	{
		size_t		len;
		uint8	   *want = read_corpus(cases[i].name, "value", &len);

		if (want == NULL)
			continue;
		found++;
		if (!encode_is(cases[i].json, NULL, 0, want, len))
		{
			ut_fail(__FILE__, __LINE__, cases[i].name);
			return;
		}
	}
	/* the corpus is optional, but when present every case must be there */
	CHECK(found == 0 || found == lengthof(cases));
}

void
suite_variant_encode(void)
{
	ut_run("variant_encode_primitives", test_primitives);
	ut_run("variant_encode_numbers_out_of_range", test_numbers_out_of_range);
	ut_run("variant_encode_strings", test_strings);
	ut_run("variant_encode_containers", test_containers);
	ut_run("variant_encode_invalid_json", test_invalid_json);
	ut_run("variant_encode_corpus_values", test_corpus_values);
	ut_run("variant_encode_random_inputs", test_random_inputs);
}
