/*
 * test_json_tree.c
 *		The JSON tree parser (src/table/common/json_tree.c), with texts and
 *		decoded values written out by hand from RFC 8259 (its examples, its
 *		grammar, UTF-8 of RFC 3629), the refusals it promises and the
 *		bounds on depth and memory.
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "table/common/json_tree.h"
#include "unit_test.h"

/* Parse n bytes from an exact-size copy, so that ASan sees any overread. */
static PqJv *
parse_n(const char *text, size_t n, const char **why)
{
	return pq_jv_parse((const char *) ut_exact_copy(text, n), n, why);
}

static PqJv *
parse(const char *text, const char **why)
{
	return parse_n(text, strlen(text), why);
}

/* v is a string or number of exactly these bytes */
static bool
text_is(const PqJv *v, PqJvType type, const char *bytes)
{
	return v != NULL && v->type == type && v->u.str != NULL &&
		v->len == strlen(bytes) && strcmp(v->u.str, bytes) == 0;
}

static bool
int_is(const PqJv *v, int64 expected)
{
	int64		got = -42;

	return pq_jv_int64(v, &got) && got == expected;
}

static void
test_kinds(void)
{
	const char *why = "unset";
	PqJv	   *v;
	const PqJv *a;
	bool		b;

	/* RFC 8259, section 13: texts that are one scalar */
	v = parse("3", &why);
	CHECK(text_is(v, PQ_JV_NUMBER, "3"));
	CHECK(why == NULL);
	CHECK(text_is(parse("\"Hello world!\"", &why), PQ_JV_STRING, "Hello world!"));
	v = parse(" true ", &why);
	CHECK(v != NULL && v->type == PQ_JV_TRUE);
	CHECK(pq_jv_bool(v, &b) && b);
	v = parse("\tfalse\n", &why);
	CHECK(v != NULL && v->type == PQ_JV_FALSE);
	CHECK(pq_jv_bool(v, &b) && !b);
	v = parse("\r\nnull", &why);
	CHECK(v != NULL && v->type == PQ_JV_NULL);
	CHECK(!pq_jv_bool(v, &b));
	CHECK(text_is(parse("\"\"", &why), PQ_JV_STRING, ""));

	v = parse("[]", &why);
	CHECK(v != NULL && v->type == PQ_JV_ARRAY && v->len == 0);
	v = parse(" { } ", &why);
	CHECK(v != NULL && v->type == PQ_JV_OBJECT && v->len == 0);

	/* every kind inside an array, blanks of all four kinds between tokens */
	v = parse("[ 1 ,\t\"s\"\r,\ntrue,false,null,[],{},[[2]],{\"k\":{\"l\":[]}}]",
			  &why);
	CHECK(v != NULL && v->type == PQ_JV_ARRAY);
	CHECK_EQ_INT(v->len, 9);
	CHECK(text_is(&v->u.items[0], PQ_JV_NUMBER, "1"));
	CHECK(text_is(&v->u.items[1], PQ_JV_STRING, "s"));
	CHECK_EQ_INT(v->u.items[2].type, PQ_JV_TRUE);
	CHECK_EQ_INT(v->u.items[3].type, PQ_JV_FALSE);
	CHECK_EQ_INT(v->u.items[4].type, PQ_JV_NULL);
	CHECK(v->u.items[5].type == PQ_JV_ARRAY && v->u.items[5].len == 0);
	CHECK(v->u.items[6].type == PQ_JV_OBJECT && v->u.items[6].len == 0);
	a = &v->u.items[7];
	CHECK(a->type == PQ_JV_ARRAY && a->len == 1);
	CHECK(a->u.items[0].type == PQ_JV_ARRAY && a->u.items[0].len == 1);
	CHECK(text_is(&a->u.items[0].u.items[0], PQ_JV_NUMBER, "2"));
	a = pq_jv_get(pq_jv_get(&v->u.items[8], "k"), "l");
	CHECK(a != NULL && a->type == PQ_JV_ARRAY && a->len == 0);

	/* RFC 8259, section 13: an object whose one member is an object */
	v = parse("{\n  \"Image\": {\n    \"Width\":  800,\n    \"Height\": 600,\n"
			  "    \"Title\":  \"View from 15th Floor\",\n    \"Thumbnail\": {\n"
			  "      \"Url\":    \"http://www.example.com/image/481989943\",\n"
			  "      \"Height\": 125,\n      \"Width\":  100\n    },\n"
			  "    \"Animated\" : false,\n    \"IDs\": [116, 943, 234, 38793]\n"
			  "  }\n}", &why);
	CHECK(v != NULL && v->type == PQ_JV_OBJECT && v->len == 1);
	CHECK(strcmp(v->u.members[0].name, "Image") == 0);
	a = pq_jv_get(v, "Image");
	CHECK(a != NULL && a->type == PQ_JV_OBJECT && a->len == 6);
	/* members in the text's order */
	CHECK(strcmp(a->u.members[0].name, "Width") == 0);
	CHECK(strcmp(a->u.members[1].name, "Height") == 0);
	CHECK(strcmp(a->u.members[2].name, "Title") == 0);
	CHECK(strcmp(a->u.members[3].name, "Thumbnail") == 0);
	CHECK(strcmp(a->u.members[4].name, "Animated") == 0);
	CHECK(strcmp(a->u.members[5].name, "IDs") == 0);
	CHECK(int_is(pq_jv_get(a, "Width"), 800));
	CHECK(strcmp(pq_jv_str(pq_jv_get(a, "Title")), "View from 15th Floor") == 0);
	CHECK(strcmp(pq_jv_str(pq_jv_get(pq_jv_get(a, "Thumbnail"), "Url")),
				 "http://www.example.com/image/481989943") == 0);
	CHECK(int_is(pq_jv_get(pq_jv_get(a, "Thumbnail"), "Height"), 125));
	CHECK(pq_jv_bool(pq_jv_get(a, "Animated"), &b) && !b);
	CHECK(pq_jv_get(a, "IDs")->len == 4);
	CHECK(int_is(&pq_jv_get(a, "IDs")->u.items[3], 38793));
	CHECK(pq_jv_get(a, "ids") == NULL);

	/* RFC 8259, section 13: an array of two objects */
	v = parse("[\n  {\n     \"precision\": \"zip\",\n     \"Latitude\":  37.7668,\n"
			  "     \"Longitude\": -122.3959,\n     \"Address\":   \"\",\n"
			  "     \"City\":      \"SAN FRANCISCO\",\n     \"State\":     \"CA\",\n"
			  "     \"Zip\":       \"94107\",\n     \"Country\":   \"US\"\n  },\n"
			  "  {\n     \"precision\": \"zip\",\n     \"Latitude\":  37.371991,\n"
			  "     \"Longitude\": -122.026020,\n     \"Address\":   \"\",\n"
			  "     \"City\":      \"SUNNYVALE\",\n     \"State\":     \"CA\",\n"
			  "     \"Zip\":       \"94085\",\n     \"Country\":   \"US\"\n  }\n]",
			  &why);
	CHECK(v != NULL && v->type == PQ_JV_ARRAY && v->len == 2);
	CHECK_EQ_INT(v->u.items[1].len, 8);
	CHECK(text_is(pq_jv_get(&v->u.items[0], "Latitude"), PQ_JV_NUMBER, "37.7668"));
	CHECK(text_is(pq_jv_get(&v->u.items[1], "Longitude"), PQ_JV_NUMBER,
				  "-122.026020"));
	CHECK(text_is(pq_jv_get(&v->u.items[1], "City"), PQ_JV_STRING, "SUNNYVALE"));
	CHECK(text_is(pq_jv_get(&v->u.items[1], "Address"), PQ_JV_STRING, ""));
	CHECK(!pq_jv_int64(pq_jv_get(&v->u.items[1], "Latitude"), &(int64) {0}));

	/* the accessors on what they do not apply to */
	CHECK(pq_jv_get(NULL, "a") == NULL);
	CHECK(pq_jv_get(&v->u.items[0], "zip") == NULL);
	CHECK(pq_jv_get(v, "precision") == NULL);
	CHECK(pq_jv_str(NULL) == NULL);
	CHECK(pq_jv_str(pq_jv_get(&v->u.items[0], "Latitude")) == NULL);
	CHECK(!pq_jv_int64(NULL, &(int64) {0}));
	CHECK(!pq_jv_int64(pq_jv_get(&v->u.items[0], "Zip"), &(int64) {0}));
	CHECK(!pq_jv_bool(NULL, &b));
	CHECK(!pq_jv_bool(pq_jv_get(&v->u.items[0], "Zip"), &b));
}

static void
test_strings(void)
{
	const char *why;
	PqJv	   *v;

	/* the escapes of RFC 8259, section 7 */
	CHECK(text_is(parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", &why), PQ_JV_STRING,
				  "\"\\/\b\f\n\r\t"));
	/* U+00E9, and RFC 8259's G clef U+1D11E as a surrogate pair */
	CHECK(text_is(parse("\"caf\\u00e9 \\uD834\\uDD1E\"", &why), PQ_JV_STRING,
				  "caf\xc3\xa9 \xf0\x9d\x84\x9e"));
	/* each UTF-8 length at its edges (RFC 3629, section 3) */
	CHECK(text_is(parse("\"\\u0001\\u007F\"", &why), PQ_JV_STRING, "\x01\x7f"));
	CHECK(text_is(parse("\"\\u0080\\u07ff\"", &why), PQ_JV_STRING,
				  "\xc2\x80\xdf\xbf"));
	CHECK(text_is(parse("\"\\u0800\\u20AC\\uFFFF\"", &why), PQ_JV_STRING,
				  "\xe0\xa0\x80\xe2\x82\xac\xef\xbf\xbf"));
	CHECK(text_is(parse("\"\\uD800\\uDC00\\uDBFF\\uDFFF\"", &why), PQ_JV_STRING,
				  "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"));
	/* UTF-8 as it is, at the same edges, and DEL */
	CHECK(text_is(parse("\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80"
						"\xf4\x8f\xbf\xbf\x7f\"", &why), PQ_JV_STRING,
				  "\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80"
				  "\xf4\x8f\xbf\xbf\x7f"));
	/* U+E000 and U+FFFD, just past the surrogates and near the end */
	CHECK(text_is(parse("\"\xee\x80\x80\xef\xbf\xbd\"", &why), PQ_JV_STRING,
				  "\xee\x80\x80\xef\xbf\xbd"));
	/* names are decoded as strings are; a long escaped string shrinks */
	v = parse("{\"n\\u0041me\":\"\\u0041\\u0042\\u0043\\n\",\"\\/\":1}", &why);
	CHECK(v != NULL && v->len == 2);
	CHECK(text_is(pq_jv_get(v, "nAme"), PQ_JV_STRING, "ABC\n"));
	CHECK(int_is(pq_jv_get(v, "/"), 1));
	/* a quote escaped at the very end, and a backslash before the close */
	CHECK(text_is(parse("\"\\\"\"", &why), PQ_JV_STRING, "\""));
	CHECK(text_is(parse("\"\\\\\"", &why), PQ_JV_STRING, "\\"));
}

static void
test_numbers(void)
{
	const char *why;
	PqJv	   *v;

	/* the text as written */
	v = parse("[-12.5e+3,0,-0,1E400,0.000001,123456789012345678901234567890,"
			  " 1e-7 ,-0.0E-0,2E+00]", &why);
	CHECK(v != NULL && v->len == 9);
	CHECK(text_is(&v->u.items[0], PQ_JV_NUMBER, "-12.5e+3"));
	CHECK(text_is(&v->u.items[1], PQ_JV_NUMBER, "0"));
	CHECK(text_is(&v->u.items[2], PQ_JV_NUMBER, "-0"));
	CHECK(text_is(&v->u.items[3], PQ_JV_NUMBER, "1E400"));
	CHECK(text_is(&v->u.items[4], PQ_JV_NUMBER, "0.000001"));
	CHECK(text_is(&v->u.items[5], PQ_JV_NUMBER, "123456789012345678901234567890"));
	CHECK(text_is(&v->u.items[6], PQ_JV_NUMBER, "1e-7"));
	CHECK(text_is(&v->u.items[7], PQ_JV_NUMBER, "-0.0E-0"));
	CHECK(text_is(&v->u.items[8], PQ_JV_NUMBER, "2E+00"));
}

static void
test_int64(void)
{
	static const struct
	{
		const char *text;
		int64		value;
	}			whole[] = {
		{"0", 0},
		{"-0", 0},
		{"123", 123},
		{"-123", -123},
		{"1e3", 1000},
		{"1E3", 1000},
		{"1.0E2", 100},
		{"1e+2", 100},
		{"5e-0", 5},
		{"100e-2", 1},
		{"12300e-2", 123},
		{"1.23e2", 123},
		{"-1.0", -1},
		{"0.0", 0},
		{"-0.0e-5", 0},
		{"0e999999999999999999999", 0},
		{"1e18", INT64CONST(1000000000000000000)},
		{"1000000000000000000000e-3", INT64CONST(1000000000000000000)},
		{"9223372036854775807", INT64CONST(9223372036854775807)},
		{"9.223372036854775807e18", INT64CONST(9223372036854775807)},
		{"92233720368547758070e-1", INT64CONST(9223372036854775807)},
		{"-9223372036854775808", -INT64CONST(9223372036854775807) - 1},
		{"-9223372036854775807", -INT64CONST(9223372036854775807)},
	};
	static const char *const refused[] = {
		"1.5", "0.1", "1e-1", "1.234e2", "-0.5",
		"9223372036854775808", "-9223372036854775809",
		"9223372036854775807.5", "1e19", "10e18", "-1e19",
		"18446744073709551616", "99999999999999999999",
		"12345678901234567890123", "1e999999999999999999999",
		"1e-999999999999999999999",
	};
	int			i;

	for (i = 0; i < lengthof(whole); i++)
	{
		const char *why;
		PqJv	   *v = parse(whole[i].text, &why);

		if (!text_is(v, PQ_JV_NUMBER, whole[i].text) ||
			!int_is(v, whole[i].value))
		{
			char		m[128];

			snprintf(m, sizeof(m), "\"%s\" is not %lld", whole[i].text,
					 (long long) whole[i].value);
			ut_fail(__FILE__, __LINE__, m);
			return;
		}
	}
	for (i = 0; i < lengthof(refused); i++)
	{
		const char *why;
		PqJv	   *v = parse(refused[i], &why);
		int64		out = 42;

		if (!text_is(v, PQ_JV_NUMBER, refused[i]) || pq_jv_int64(v, &out) ||
			out != 42)
		{
			char		m[128];

			snprintf(m, sizeof(m), "\"%s\" is taken as a whole int64",
					 refused[i]);
			ut_fail(__FILE__, __LINE__, m);
			return;
		}
	}
	/* strings, even of digits, and other kinds are not numbers */
	CHECK(!pq_jv_int64(parse("\"1\"", &(const char *) {NULL}), &(int64) {0}));
	CHECK(!pq_jv_int64(parse("true", &(const char *) {NULL}), &(int64) {0}));
}

/* Each text must be refused with why, and why must hold none of it. */
static void
test_refused(void)
{
	static const struct
	{
		const char *text;
		size_t		len;		/* 0: strlen */
		const char *why;
	}			cases[] = {
		{"", 0, "a value expected where the text ends at byte 0"},
		{" \t\r\n", 0, "a value expected where the text ends at byte 4"},
		{"\"SECRET", 0, "an unterminated string at byte 0"},
		{"[\"SECRET\\\"]", 0, "an unterminated string at byte 1"},
		{"\"SECRET\\", 0, "an unterminated string at byte 0"},
		{"\"SE\tCRET\"", 0, "a control character in a string at byte 3"},
		{"\"SECRET\0\"", 9, "a control character in a string at byte 7"},
		{"\"SECRET\n\"", 0, "a control character in a string at byte 7"},
		{"\"\\x\"", 0, "an unknown escape in a string at byte 1"},
		{"\"\\U0041\"", 0, "an unknown escape in a string at byte 1"},
		{"\"\\u12G4\"", 0, "a \\u escape without four hexadecimal digits at byte 1"},
		{"\"\\u12\"", 0, "a \\u escape without four hexadecimal digits at byte 1"},
		{"\"\\uD800\"", 0, "a lone surrogate in a \\u escape at byte 1"},
		{"\"\\uDC00\\uD800\"", 0, "a lone surrogate in a \\u escape at byte 1"},
		{"\"\\uD800\\u0041\"", 0, "a lone surrogate in a \\u escape at byte 1"},
		{"\"\\uD800\\uD800\"", 0, "a lone surrogate in a \\u escape at byte 1"},
		{"\"ab\\uD800\\n\"", 0, "a lone surrogate in a \\u escape at byte 3"},
		{"\"\\uD800\\uDC0\"", 0, "a lone surrogate in a \\u escape at byte 1"},
		{"\"\\u0000\"", 0, "\\u0000 in a string at byte 1"},
		{"{\"a\\u0000\":1}", 0, "\\u0000 in a string at byte 3"},
		{"\"\xc0\xaf\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\xc1\xbf\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\xe0\x80\xaf\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\xf0\x80\x80\xaf\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\xed\xa0\x80\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\xed\xbf\xbf\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\xf4\x90\x80\x80\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"a\xe2\x82\"", 0, "invalid UTF-8 in a string at byte 2"},
		{"\"\xff\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\x80\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\xc3\x28\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"\"\xf8\x88\x80\x80\x80\"", 0, "invalid UTF-8 in a string at byte 1"},
		{"01", 0, "more than blanks after the value at byte 1"},
		{"-01", 0, "more than blanks after the value at byte 2"},
		{"+1", 0, "a value expected at byte 0"},
		{".5", 0, "a value expected at byte 0"},
		{"1.", 0, "a malformed number at byte 0"},
		{"-", 0, "a malformed number at byte 0"},
		{"1e", 0, "a malformed number at byte 0"},
		{"1e+", 0, "a malformed number at byte 0"},
		{"1.e5", 0, "a malformed number at byte 0"},
		{"[-a]", 0, "a malformed number at byte 1"},
		{"NaN", 0, "a value expected at byte 0"},
		{"-Infinity", 0, "a malformed number at byte 0"},
		{"0x10", 0, "more than blanks after the value at byte 1"},
		{"[1,]", 0, "a value expected at byte 3"},
		{"[1,,2]", 0, "a value expected at byte 3"},
		{"[01]", 0, "a ',' or ']' expected at byte 2"},
		{"tru", 0, "a word other than true, false or null at byte 0"},
		{"True", 0, "a value expected at byte 0"},
		{"nulls", 0, "more than blanks after the value at byte 4"},
		{"[nul]", 0, "a word other than true, false or null at byte 1"},
		{"[1 2]", 0, "a ',' or ']' expected at byte 3"},
		{"[1", 0, "an unterminated array at byte 0"},
		{"[", 0, "a value expected where the text ends at byte 1"},
		{"{", 0, "an unterminated object at byte 0"},
		{"{\"a\" 1}", 0, "a ':' expected at byte 5"},
		{"{\"a\":1,}", 0, "a member's name expected at byte 7"},
		{"{1:2}", 0, "a member's name expected at byte 1"},
		{"{'a':1}", 0, "a member's name expected at byte 1"},
		{"{\"a\":1 \"b\":2}", 0, "a ',' or '}' expected at byte 7"},
		{"{\"a\"}", 0, "a ':' expected at byte 4"},
		{"{\"a\":}", 0, "a value expected at byte 5"},
		{"{\"a\":", 0, "a value expected where the text ends at byte 5"},
		{"{\"a\":1", 0, "an unterminated object at byte 0"},
		{"{\"a\"", 0, "an unterminated object at byte 0"},
		{"[1]]", 0, "more than blanks after the value at byte 3"},
		{"{}{}", 0, "more than blanks after the value at byte 2"},
		{"]", 0, "a value expected at byte 0"},
		{"\xef\xbb\xbf{}", 0, "a value expected at byte 0"},
		{"1\0", 2, "more than blanks after the value at byte 1"},
		{"\"SECRET\"\f", 0, "more than blanks after the value at byte 8"},
		{"{\"a\":1,\"a\":2}", 0, "a name given twice in an object at byte 0"},
		{"[0,{\"a\":1,\"b\":{\"a\":2},\"a\":3}]", 0,
		"a name given twice in an object at byte 3"},
		{"{\"a\":1,\"\\u0061\":2}", 0, "a name given twice in an object at byte 0"},
		{"{\"a\":{\"SECRET\":1,\"SECRET\":2}}", 0,
		"a name given twice in an object at byte 5"},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
	{
		const char *why = NULL;
		size_t		n = cases[i].len ? cases[i].len : strlen(cases[i].text);

		if (parse_n(cases[i].text, n, &why) != NULL || why == NULL ||
			strcmp(why, cases[i].why) != 0 || strstr(why, "SECRET") != NULL)
		{
			char		m[256];

			snprintf(m, sizeof(m), "case %d: why is \"%s\", not \"%s\"", i,
					 why ? why : "(none)", cases[i].why);
			ut_fail(__FILE__, __LINE__, m);
			return;
		}
	}
	/* no text at all, and no why wanted */
	CHECK(pq_jv_parse(NULL, 0, NULL) == NULL);
}

/* Every strict prefix of a document is refused, none overreads (ASan). */
static void
test_prefixes(void)
{
	static const char doc[] =
		"{\"a\":[1,-2.5e+3,true,false,null,\"x\\u00e9\\uD834\\uDD1E\\n\"],"
		"\"b\":{\"c\":{}},\"\xe2\x82\xac\":[[]],\"d\":0}";
	/* the number's prefixes that are numbers themselves, by hand */
	static const bool number_ok[] = {false, true, true, false, true, false, false};
	const char *number = "-12.5e+3";
	size_t		n = strlen(doc);
	size_t		k;
	const char *why;

	CHECK(parse_n(doc, n, &why) != NULL);
	for (k = 0; k < n; k++)
	{
		why = NULL;
		if (parse_n(doc, k, &why) != NULL || why == NULL)
		{
			char		m[64];

			snprintf(m, sizeof(m), "the prefix of %zu bytes is taken", k);
			ut_fail(__FILE__, __LINE__, m);
			return;
		}
	}
	for (k = 0; k < lengthof(number_ok); k++)
		CHECK((parse_n(number, k + 1, &why) != NULL) == number_ok[k]);
	CHECK(parse_n(number, strlen(number), &why) != NULL);
}

static void
test_depth(void)
{
	StringInfoData b;
	const char *why;
	const PqJv *v;
	int			i;

	/* 256 arrays, one in the other, are allowed */
	initStringInfo(&b);
	for (i = 0; i < PQ_JV_MAX_DEPTH; i++)
		appendStringInfoChar(&b, '[');
	for (i = 0; i < PQ_JV_MAX_DEPTH; i++)
		appendStringInfoChar(&b, ']');
	v = parse(b.data, &why);
	CHECK(v != NULL);
	for (i = 1; i < PQ_JV_MAX_DEPTH; i++)
	{
		CHECK(v->type == PQ_JV_ARRAY && v->len == 1);
		v = &v->u.items[0];
	}
	CHECK(v->type == PQ_JV_ARRAY && v->len == 0);

	/* 257 are not; the 257th '[' is byte 256 */
	resetStringInfo(&b);
	for (i = 0; i <= PQ_JV_MAX_DEPTH; i++)
		appendStringInfoChar(&b, '[');
	for (i = 0; i <= PQ_JV_MAX_DEPTH; i++)
		appendStringInfoChar(&b, ']');
	CHECK(parse(b.data, &why) == NULL);
	CHECK(strcmp(why, "nesting deeper than 256 levels at byte 256") == 0);

	/* objects count as arrays do: {"a": is five bytes */
	resetStringInfo(&b);
	for (i = 0; i < PQ_JV_MAX_DEPTH; i++)
		appendStringInfoString(&b, "{\"a\":");
	appendStringInfoString(&b, "\"deep\"");
	for (i = 0; i < PQ_JV_MAX_DEPTH; i++)
		appendStringInfoChar(&b, '}');
	v = parse(b.data, &why);
	CHECK(v != NULL);
	for (i = 0; i < PQ_JV_MAX_DEPTH; i++)
		v = pq_jv_get(v, "a");
	CHECK(text_is(v, PQ_JV_STRING, "deep"));
	resetStringInfo(&b);
	for (i = 0; i <= PQ_JV_MAX_DEPTH; i++)
		appendStringInfoString(&b, "{\"a\":");
	appendStringInfoString(&b, "1");
	for (i = 0; i <= PQ_JV_MAX_DEPTH; i++)
		appendStringInfoChar(&b, '}');
	CHECK(parse(b.data, &why) == NULL);
	CHECK(strcmp(why, "nesting deeper than 256 levels at byte 1280") == 0);
}

/* Wide objects: thousands of members, looked up; a name twice refused. */
static void
test_wide(void)
{
	StringInfoData b;
	const char *why;
	const PqJv *v;
	int			i;

	initStringInfo(&b);
	appendStringInfoChar(&b, '{');
	for (i = 0; i < 5000; i++)
		appendStringInfo(&b, "%s\"m%d\":%d", i ? "," : "", i, i * 7);
	appendStringInfoChar(&b, '}');
	v = parse(b.data, &why);
	CHECK(v != NULL && v->type == PQ_JV_OBJECT);
	CHECK_EQ_INT(v->len, 5000);
	CHECK(strcmp(v->u.members[0].name, "m0") == 0);
	CHECK(strcmp(v->u.members[4999].name, "m4999") == 0);
	CHECK(int_is(pq_jv_get(v, "m0"), 0));
	CHECK(int_is(pq_jv_get(v, "m2500"), 17500));
	CHECK(int_is(pq_jv_get(v, "m4999"), 34993));
	CHECK(pq_jv_get(v, "m5000") == NULL);
	CHECK(pq_jv_get(v, "m") == NULL);

	/* the first name again at the end: found by sorting, not pairwise */
	b.data[b.len - 1] = ',';
	appendStringInfoString(&b, "\"m0\":1}");
	CHECK(parse(b.data, &why) == NULL);
	CHECK(strcmp(why, "a name given twice in an object at byte 0") == 0);

	/* 16 members (pairwise) and 17 (sorted), last equal to first */
	resetStringInfo(&b);
	appendStringInfoString(&b, "[{");
	for (i = 0; i < 15; i++)
		appendStringInfo(&b, "\"k%c\":0,", 'a' + i);
	appendStringInfoString(&b, "\"ka\":0}]");
	CHECK(parse(b.data, &why) == NULL);
	CHECK(strcmp(why, "a name given twice in an object at byte 1") == 0);
	resetStringInfo(&b);
	appendStringInfoString(&b, "[{");
	for (i = 0; i < 16; i++)
		appendStringInfo(&b, "\"k%c\":0,", 'a' + i);
	appendStringInfoString(&b, "\"ka\":0}]");
	CHECK(parse(b.data, &why) == NULL);
	CHECK(strcmp(why, "a name given twice in an object at byte 1") == 0);
	/* and names that only share a prefix are different */
	resetStringInfo(&b);
	appendStringInfoString(&b, "{\"\":1,\"a\":2,\"ab\":3,\"a\\u0062c\":4}");
	v = parse(b.data, &why);
	CHECK(v != NULL && v->len == 4);
	CHECK(int_is(pq_jv_get(v, ""), 1));
	CHECK(int_is(pq_jv_get(v, "abc"), 4));
}

/* Hostile texts fail before allocating much; memory stays linear. */
static void
test_memory(void)
{
	size_t		n = 10 * 1024 * 1024;
	char	   *t = palloc(n);
	const char *why;
	size_t		base;
	size_t		i;
	PqJv	   *v;

	/* 10 MB of '[': refused at the 257th */
	memset(t, '[', n);
	base = shim_live_bytes();
	shim_peak_reset();
	CHECK(pq_jv_parse(t, n, &why) == NULL);
	CHECK(strcmp(why, "nesting deeper than 256 levels at byte 256") == 0);
	CHECK(shim_peak_above(base) < 64 * 1024);
	CHECK(shim_live_bytes() - base < 256);	/* only why is left */

	/* a 10 MB string never closed: refused before its bytes are copied */
	memset(t, 'x', n);
	t[0] = '"';
	base = shim_live_bytes();
	shim_peak_reset();
	CHECK(pq_jv_parse(t, n, &why) == NULL);
	CHECK(strcmp(why, "an unterminated string at byte 0") == 0);
	CHECK(shim_peak_above(base) < 64 * 1024);

	/* closed, it takes about its length */
	t[n - 1] = '"';
	base = shim_live_bytes();
	shim_peak_reset();
	v = pq_jv_parse(t, n, &why);
	CHECK(v != NULL && v->type == PQ_JV_STRING && v->len == n - 2);
	CHECK(shim_peak_above(base) < n + 64 * 1024);

	/*
	 * The densest array, "[0,0,...,0]": two bytes a value, each taking a
	 * PqJv in the tree and one on the stack, within a bounded multiple.
	 */
	n--;
	t[0] = '[';
	for (i = 1; i < n - 1; i++)
		t[i] = i % 2 ? '0' : ',';
	t[n - 1] = ']';
	base = shim_live_bytes();
	shim_peak_reset();
	v = pq_jv_parse(t, n, &why);
	CHECK(v != NULL && v->len == (n - 1) / 2);
	CHECK(text_is(&v->u.items[(n - 1) / 2 - 1], PQ_JV_NUMBER, "0"));
	CHECK(shim_peak_above(base) < 24 * n);

	/* the same refused at its last byte: all of it is freed again */
	t[n - 1] = '}';
	base = shim_live_bytes();
	CHECK(pq_jv_parse(t, n, &why) == NULL);
	CHECK(strcmp(why, "a ',' or ']' expected at byte 10485758") == 0);
	CHECK(shim_live_bytes() - base < 256);
}

void
suite_json_tree(void)
{
	ut_run("json_tree: values of every kind, RFC 8259's examples", test_kinds);
	ut_run("json_tree: escapes, surrogate pairs, UTF-8", test_strings);
	ut_run("json_tree: numbers kept as written", test_numbers);
	ut_run("json_tree: whole numbers in int64, exactly", test_int64);
	ut_run("json_tree: malformed texts refused, saying why without quoting", test_refused);
	ut_run("json_tree: every strict prefix refused", test_prefixes);
	ut_run("json_tree: nesting to 256 levels, not 257", test_depth);
	ut_run("json_tree: 5000 members, a name given twice", test_wide);
	ut_run("json_tree: hostile texts and memory", test_memory);
}
