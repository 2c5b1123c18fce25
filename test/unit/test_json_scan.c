/*
 * test_json_scan.c
 *		The JSON object reader (src/io/common/json_scan.c), with texts and
 *		decoded values written out from RFC 8259 (its examples, its
 *		grammar) and the refusals the reader promises.
 */
#include "postgres.h"

#include "io/common/json_scan.h"
#include "lib/stringinfo.h"
#include "unit_test.h"

static bool
parse(const char *text, PqJsonObject *o, const char **why)
{
	size_t		n = strlen(text);

	return pq_json_parse_object((const char *) ut_exact_copy(text, n), n,
								1024, o, why);
}

static bool
member_is(const PqJsonObject *o, const char *name, PqJsonKind kind,
		  const char *value)
{
	const PqJsonMember *m = pq_json_member(o, name);

	if (m == NULL || m->kind != kind)
		return false;
	if (value == NULL)
		return m->value == NULL;
	return m->value != NULL && strcmp(m->value, value) == 0;
}

static void
test_values(void)
{
	PqJsonObject o;
	const char *why;

	/* every kind of value, blanks of all four kinds around the tokens */
	CHECK(parse(" \t\r\n{ \"s\" : \"text\" ,\"n\":-12.5e+3,\"z\":0,\"t\":true,"
				"\"f\":false,\"u\":null,\"a\":[1,[2,{}],\"x\"],\"o\":{\"k\":[]},"
				"\"e\":\"\"}\n", &o, &why));
	CHECK(why == NULL);
	CHECK_EQ_INT(o.nmembers, 9);
	CHECK(member_is(&o, "s", PQ_JSON_STRING, "text"));
	CHECK(member_is(&o, "n", PQ_JSON_NUMBER, "-12.5e+3"));
	CHECK(member_is(&o, "z", PQ_JSON_NUMBER, "0"));
	CHECK(member_is(&o, "t", PQ_JSON_TRUE, NULL));
	CHECK(member_is(&o, "f", PQ_JSON_FALSE, NULL));
	CHECK(member_is(&o, "u", PQ_JSON_NULL, NULL));
	CHECK(member_is(&o, "a", PQ_JSON_NESTED, NULL));
	CHECK(member_is(&o, "o", PQ_JSON_NESTED, NULL));
	CHECK(member_is(&o, "e", PQ_JSON_STRING, ""));
	CHECK(pq_json_member(&o, "S") == NULL);

	CHECK(parse("{}", &o, &why));
	CHECK_EQ_INT(o.nmembers, 0);

	/* RFC 8259, section 13: an object whose one member is an object */
	CHECK(parse("{\n \"Image\": {\n \"Width\":  800,\n \"Height\": 600,\n"
				" \"Title\":  \"View from 15th Floor\",\n \"Thumbnail\": {\n"
				" \"Url\":    \"http://www.example.com/image/481989943\",\n"
				" \"Height\": 125,\n \"Width\":  100\n },\n \"Animated\" : false,\n"
				" \"IDs\": [116, 943, 234, 38793]\n }\n }", &o, &why));
	CHECK_EQ_INT(o.nmembers, 1);
	CHECK(member_is(&o, "Image", PQ_JSON_NESTED, NULL));
}

static void
test_strings(void)
{
	PqJsonObject o;
	const char *why;

	/* the escapes of RFC 8259, section 7 */
	CHECK(parse("{\"e\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}", &o, &why));
	CHECK(member_is(&o, "e", PQ_JSON_STRING, "\"\\/\b\f\n\r\t"));
	/* U+00E9, and RFC 8259's G clef U+1D11E as a surrogate pair */
	CHECK(parse("{\"e\":\"caf\\u00e9 \\uD834\\uDD1E\"}", &o, &why));
	CHECK(member_is(&o, "e", PQ_JSON_STRING, "caf\xc3\xa9 \xf0\x9d\x84\x9e"));
	/* UTF-8 as it is, names decoded too */
	CHECK(parse("{\"n\\u0041me\":\"\xe2\x82\xac\"}", &o, &why));
	CHECK(member_is(&o, "nAme", PQ_JSON_STRING, "\xe2\x82\xac"));
}

/* Each text must be refused with why, and why must hold none of it. */
static void
test_refused(void)
{
	static const struct
	{
		const char *text;
		const char *why;
	}			cases[] = {
		{"", "the answer is not a JSON object"},
		{"[1]", "the answer is not a JSON object"},
		{"\"SECRET\"", "the answer is not a JSON object"},
		{"{\"a\":1,}", "a string was expected"},
		{"{\"a\" 1}", "a member's name is not followed by \":\""},
		{"{\"a\":1 \"b\":2}", "the object is not closed"},
		{"{\"a\":1", "the object is not closed"},
		{"{\"a\":\"SECRET", "a string is not closed"},
		{"{\"a\":\"SECRET\\", "a string is not closed"},
		{"{\"a\":1,\"a\":2}", "a member's name is given twice"},
		{"{\"a\":1} x", "something follows the object"},
		{"{\"a\":1}{}", "something follows the object"},
		{"{\"a\":\"SE\tCRET\"}", "a string holds a control character"},
		{"{\"a\":\"SECRET\\x\"}", "a string holds an unknown escape"},
		{"{\"a\":\"\\u12G4\"}", "a \\u escape is not four hexadecimal digits"},
		{"{\"a\":\"\\uD800\"}", "a \\u escape is half a surrogate pair"},
		{"{\"a\":\"\\uDC00\\uD800\"}", "a \\u escape is half a surrogate pair"},
		{"{\"a\":\"\\uD800\\u0041\"}", "a \\u escape is half a surrogate pair"},
		{"{\"a\":\"\\u0000\"}", "a string holds \\u0000"},
		{"{\"a\":\"\xc0\xaf\"}", "a string is not valid UTF-8"},
		{"{\"a\":\"\xed\xa0\x80\"}", "a string is not valid UTF-8"},
		{"{\"a\":\"\xf4\x90\x80\x80\"}", "a string is not valid UTF-8"},
		{"{\"a\":\"\xe2\x82\"}", "a string is not valid UTF-8"},
		{"{\"a\":\"\xff\"}", "a string is not valid UTF-8"},
		{"{\"a\":01}", "the object is not closed"},
		{"{\"a\":1.}", "a number is malformed"},
		{"{\"a\":.5}", "a number is malformed"},
		{"{\"a\":-}", "a number is malformed"},
		{"{\"a\":1e}", "a number is malformed"},
		{"{\"a\":+1}", "a number is malformed"},
		{"{\"a\":tru}", "a value is not JSON"},
		{"{\"a\":nulls}", "the object is not closed"},
		{"{\"a\":}", "a number is malformed"},
		{"{\"a\":[1,]}", "a number is malformed"},
		{"{\"a\":[1 2]}", "an object or array is not closed"},
		{"{\"a\":{\"b\"}}", "a member's name is not followed by \":\""},
		{"{\"a\":[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]}", "values are nested too deeply"},
	};
	int			i;

	for (i = 0; i < lengthof(cases); i++)
	{
		PqJsonObject o;
		const char *why = NULL;

		if (parse(cases[i].text, &o, &why) || why == NULL ||
			strcmp(why, cases[i].why) != 0 || strstr(why, "SECRET") != NULL)
		{
			char		m[256];

			snprintf(m, sizeof(m), "case %d: why is \"%s\", not \"%s\"", i,
					 why ? why : "(none)", cases[i].why);
			ut_fail(__FILE__, __LINE__, m);
			return;
		}
	}
}

static void
test_bounds(void)
{
	PqJsonObject o;
	const char *why;
	StringInfoData b;
	int			i;

	/* fifteen levels inside the object are allowed, sixteen are not */
	CHECK(parse("{\"a\":[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]}", &o, &why));

	/* 64 members, then 65 */
	initStringInfo(&b);
	appendStringInfoChar(&b, '{');
	for (i = 0; i < PQ_JSON_MAX_MEMBERS; i++)
		appendStringInfo(&b, "%s\"m%d\":%d", i ? "," : "", i, i);
	appendStringInfoChar(&b, '}');
	CHECK(parse(b.data, &o, &why));
	CHECK_EQ_INT(o.nmembers, PQ_JSON_MAX_MEMBERS);
	CHECK(member_is(&o, "m63", PQ_JSON_NUMBER, "63"));
	b.data[b.len - 1] = ',';
	appendStringInfoString(&b, "\"one more\":0}");
	CHECK(!parse(b.data, &o, &why));
	CHECK(strcmp(why, "the object has too many members") == 0);

	/* a string of max_string bytes, then one byte more */
	resetStringInfo(&b);
	appendStringInfoString(&b, "{\"s\":\"");
	for (i = 0; i < 1024; i++)
		appendStringInfoChar(&b, 'x');
	appendStringInfoString(&b, "\"}");
	CHECK(parse(b.data, &o, &why));
	CHECK_EQ_INT(strlen(pq_json_member(&o, "s")->value), 1024);
	b.data[b.len - 2] = 'x';
	appendStringInfoString(&b, "\"}");
	CHECK(!parse(b.data, &o, &why));
	CHECK(strcmp(why, "a string is longer than allowed") == 0);
}

void
suite_json_scan(void)
{
	ut_run("json_scan: values of every kind, nested ones passed over", test_values);
	ut_run("json_scan: escapes, surrogate pairs, UTF-8", test_strings);
	ut_run("json_scan: malformed texts refused, saying why without quoting", test_refused);
	ut_run("json_scan: depth, member count and string length bounds", test_bounds);
}
