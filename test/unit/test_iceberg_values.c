/*
 * test_iceberg_values.c
 *		Iceberg partition values, bounds and defaults as input-function
 *		text (table/iceberg/value_text.c).  The expected texts were computed
 *		independently with Python's datetime, uuid and int.from_bytes:
 *
 *	  date(1970,1,1) + timedelta(days=19000)         -> 2022-01-08
 *	  date(1970,1,1) + timedelta(days=-719162)       -> 0001-01-01
 *	  datetime(1970,1,1) + timedelta(microseconds=1577880000123456)
 *	                                                 -> 2020-01-01 12:00:00.123456
 *	  datetime(1970,1,1) + timedelta(microseconds=-1)
 *	                                                 -> 1969-12-31 23:59:59.999999
 *	  int.from_bytes(bytes.fromhex('ff85'), 'big', signed=True) -> -123
 *	  int.from_bytes(bytes.fromhex('7f' + 'ff' * 15), 'big', signed=True)
 *	                                                 -> 170141183460469231731687303715884105727
 */
#include "unit_test.h"

#include <string.h>

#include "table/iceberg/value_text.h"

static bool
text_is(char *got, const char *want)
{
	return got != NULL && strcmp(got, want) == 0;
}

static PqIcebergValue
int_value(PqIcebergValueType type, int64 i)
{
	PqIcebergValue v;

	memset(&v, 0, sizeof(v));
	v.type = type;
	v.i = i;
	return v;
}

static PqIcebergValue
bytes_value(PqIcebergValueType type, const void *b, int32 len)
{
	PqIcebergValue v;

	memset(&v, 0, sizeof(v));
	v.type = type;
	v.bytes = b;
	v.len = len;
	return v;
}

static void
test_partition_values(void)
{
	const char *why;
	PqIcebergValue v;
	static const uint8 dec[] = {0xff, 0x85};
	static const uint8 uuid[] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
	static const uint8 nul[] = {'a', 0, 'b'};

	v = int_value(PQ_ICEBERG_INT, 19000);
	CHECK(text_is(pq_iceberg_value_text(&v, "date", &why), "2022-01-08"));
	v = int_value(PQ_ICEBERG_INT, -719162);
	CHECK(text_is(pq_iceberg_value_text(&v, "date", &why), "0001-01-01"));
	v = int_value(PQ_ICEBERG_INT, -719163);
	CHECK(text_is(pq_iceberg_value_text(&v, "date", &why), "0001-12-31 BC"));
	v = int_value(PQ_ICEBERG_LONG, INT64CONST(1577880000123456));
	CHECK(text_is(pq_iceberg_value_text(&v, "timestamp", &why),
				  "2020-01-01 12:00:00.123456"));
	CHECK(text_is(pq_iceberg_value_text(&v, "timestamptz", &why),
				  "2020-01-01 12:00:00.123456+00"));
	v = int_value(PQ_ICEBERG_LONG, -1);
	CHECK(text_is(pq_iceberg_value_text(&v, "timestamp", &why),
				  "1969-12-31 23:59:59.999999"));
	v = int_value(PQ_ICEBERG_LONG, INT64CONST(1577880000123456789));
	CHECK(text_is(pq_iceberg_value_text(&v, "timestamp_ns", &why),
				  "2020-01-01 12:00:00.123456"));
	v = int_value(PQ_ICEBERG_LONG, INT64CONST(3723000004));
	CHECK(text_is(pq_iceberg_value_text(&v, "time", &why), "01:02:03.000004"));
	v = int_value(PQ_ICEBERG_INT, -42);
	CHECK(text_is(pq_iceberg_value_text(&v, "int", &why), "-42"));
	v = int_value(PQ_ICEBERG_BOOLEAN, 1);
	CHECK(text_is(pq_iceberg_value_text(&v, "boolean", &why), "true"));
	v = bytes_value(PQ_ICEBERG_FIXED, dec, 2);
	CHECK(text_is(pq_iceberg_value_text(&v, "decimal(9,2)", &why), "-1.23"));
	CHECK(text_is(pq_iceberg_value_text(&v, "decimal(9,0)", &why), "-123"));
	CHECK(text_is(pq_iceberg_value_text(&v, "decimal(9,5)", &why), "-0.00123"));
	v = bytes_value(PQ_ICEBERG_FIXED, uuid, 16);
	CHECK(text_is(pq_iceberg_value_text(&v, "uuid", &why),
				  "12345678-9abc-def0-0123-456789abcdef"));
	CHECK(text_is(pq_iceberg_value_text(&v, "fixed[16]", &why),
				  "\\x123456789abcdef00123456789abcdef"));
	v = bytes_value(PQ_ICEBERG_STRING, "caf\xc3\xa9", 5);
	CHECK(text_is(pq_iceberg_value_text(&v, "string", &why), "caf\xc3\xa9"));

	/* refused, saying why */
	v = bytes_value(PQ_ICEBERG_STRING, nul, 3);
	CHECK(pq_iceberg_value_text(&v, "string", &why) == NULL && why != NULL);
	v = bytes_value(PQ_ICEBERG_FIXED, uuid, 15);
	CHECK(pq_iceberg_value_text(&v, "uuid", &why) == NULL && why != NULL);
	v = int_value(PQ_ICEBERG_BOOLEAN, 1);
	CHECK(pq_iceberg_value_text(&v, "int", &why) == NULL && why != NULL);
	v = int_value(PQ_ICEBERG_LONG, INT64CONST(86400000000));
	CHECK(pq_iceberg_value_text(&v, "time", &why) == NULL && why != NULL);
	v = int_value(PQ_ICEBERG_NULL, 0);
	CHECK(pq_iceberg_value_text(&v, "int", &why) == NULL && why == NULL);
}

static void
test_bounds(void)
{
	const char *why;
	static const uint8 i4[] = {0x85, 0xff, 0xff, 0xff}; /* -123 LE */
	static const uint8 i8[] = {0x40, 0xe2, 0x01, 0, 0, 0, 0, 0};	/* 123456 */
	static const uint8 f4[] = {0x00, 0x00, 0xc0, 0x3f}; /* 1.5f */
	static const uint8 d8[] = {0, 0, 0, 0, 0, 0, 0x04, 0xc0};	/* -2.5 */
	static const uint8 big[] = {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	static const uint8 one[] = {1};

	CHECK(text_is(pq_iceberg_bound_text(i4, 4, "int", &why), "-123"));
	CHECK(text_is(pq_iceberg_bound_text(i4, 4, "long", &why), "-123"));
	CHECK(text_is(pq_iceberg_bound_text(i8, 8, "long", &why), "123456"));
	CHECK(text_is(pq_iceberg_bound_text(i8, 8, "timestamp", &why),
				  "1970-01-01 00:00:00.123456"));
	CHECK(text_is(pq_iceberg_bound_text(f4, 4, "float", &why), "1.5"));
	CHECK(text_is(pq_iceberg_bound_text(f4, 4, "double", &why), "1.5"));
	CHECK(text_is(pq_iceberg_bound_text(d8, 8, "double", &why), "-2.5"));
	CHECK(text_is(pq_iceberg_bound_text(big, 16, "decimal(38,0)", &why),
				  "170141183460469231731687303715884105727"));
	CHECK(text_is(pq_iceberg_bound_text(one, 1, "boolean", &why), "true"));
	CHECK(text_is(pq_iceberg_bound_text((const uint8 *) "abc", 3, "string", &why),
				  "abc"));

	/* wrong lengths for their types */
	CHECK(pq_iceberg_bound_text(i8, 8, "int", &why) == NULL && why != NULL);
	CHECK(pq_iceberg_bound_text(i4, 3, "date", &why) == NULL && why != NULL);
	CHECK(pq_iceberg_bound_text(i4, 4, "timestamp", &why) == NULL && why != NULL);
	CHECK(pq_iceberg_bound_text(d8, 8, "float", &why) == NULL && why != NULL);
	CHECK(pq_iceberg_bound_text(big, 16, "boolean", &why) == NULL && why != NULL);
	CHECK(pq_iceberg_bound_text(big, 0, "decimal(9,2)", &why) == NULL && why != NULL);
}

static void
test_defaults(void)
{
	const char *why;
	PqJv	   *v;

	v = pq_jv_parse("-1", 2, &why);
	CHECK(text_is(pq_iceberg_default_text(v, "int", &why), "-1"));
	v = pq_jv_parse("\"14.20\"", 7, &why);
	CHECK(text_is(pq_iceberg_default_text(v, "decimal(9,2)", &why), "14.20"));
	v = pq_jv_parse("\"2017-11-16T22:31:08.123456\"", 28, &why);
	CHECK(text_is(pq_iceberg_default_text(v, "timestamp", &why),
				  "2017-11-16T22:31:08.123456"));
	v = pq_jv_parse("true", 4, &why);
	CHECK(text_is(pq_iceberg_default_text(v, "boolean", &why), "true"));
	v = pq_jv_parse("\"0aFF\"", 6, &why);
	CHECK(text_is(pq_iceberg_default_text(v, "binary", &why), "\\x0aFF"));
	v = pq_jv_parse("null", 4, &why);
	CHECK(pq_iceberg_default_text(v, "int", &why) == NULL && why == NULL);

	/* mismatched JSON types, odd hex, nested types */
	v = pq_jv_parse("\"1\"", 3, &why);
	CHECK(pq_iceberg_default_text(v, "int", &why) == NULL && why != NULL);
	v = pq_jv_parse("\"abc\"", 5, &why);
	CHECK(pq_iceberg_default_text(v, "binary", &why) == NULL && why != NULL);
	v = pq_jv_parse("{}", 2, &why);
	CHECK(pq_iceberg_default_text(v, "struct", &why) == NULL && why != NULL);
}

void
suite_iceberg_values(void)
{
	ut_run("iceberg_values: partition values of every type", test_partition_values);
	ut_run("iceberg_values: bounds, promoted ones included", test_bounds);
	ut_run("iceberg_values: v3 defaults", test_defaults);
}
