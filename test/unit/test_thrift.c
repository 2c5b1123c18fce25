/*
 * test_thrift.c
 *		Unit tests for the Thrift compact protocol reader and writer.
 *
 * Expected byte sequences are derived by hand from the compact protocol
 * specification, not from the writer, so that reader and writer cannot
 * agree on a shared mistake.
 */
#include "postgres.h"

#include "format/thrift/compact.h"
#include "unit_test.h"

/* Copy bytes into an exactly sized allocation so ASan sees any overread. */
static void
reader_on(PqThriftReader *r, const uint8 *bytes, size_t len)
{
	pq_thrift_reader_init(r, ut_exact_copy(bytes, len), len);
}

static bool
bytes_equal(const PqBuffer *buf, const uint8 *expected, size_t len)
{
	return buf->len == len && memcmp(buf->data, expected, len) == 0;
}

static void
test_varint_edges(void)
{
	static const struct
	{
		uint64		value;
		int			len;
		uint8		bytes[10];
	}			cases[] = {
		{0, 1, {0x00}},
		{1, 1, {0x01}},
		{127, 1, {0x7f}},
		{128, 2, {0x80, 0x01}},
		{300, 2, {0xac, 0x02}},
		{UINT64CONST(0x7fffffffffffffff), 9,
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
		{UINT64CONST(0x8000000000000000), 10,
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{PG_UINT64_MAX, 10,
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	};
	int			i;

	for (i = 0; i < (int) lengthof(cases); i++)
	{
		PqBuffer	buf;
		PqThriftWriter w;
		PqThriftReader r;

		pq_buffer_init(&buf, 0);
		pq_thrift_writer_init(&w, &buf);
		pq_thrift_write_varint(&w, cases[i].value);
		CHECK(bytes_equal(&buf, cases[i].bytes, cases[i].len));
		reader_on(&r, cases[i].bytes, cases[i].len);
		CHECK(pq_thrift_read_varint(&r) == cases[i].value);
		CHECK_EQ_INT(pq_thrift_offset(&r), cases[i].len);
	}
}

static void
test_varint_malformed(void)
{
	/* 11 bytes: continuation bit still set in the 10th byte */
	static const uint8 overlong[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x01
	};
	static const uint8 overlong_zero[] = {
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00
	};
	/* 10th byte carries bits beyond 64 */
	static const uint8 overflow[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02
	};
	static const uint8 truncated[] = {0x80, 0x80};
	static const uint8 noncanonical[] = {0x80, 0x00};
	PqThriftReader r;

	reader_on(&r, overlong, sizeof(overlong));
	CHECK_ERROR(pq_thrift_read_varint(&r), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, overlong_zero, sizeof(overlong_zero));
	CHECK_ERROR(pq_thrift_read_varint(&r), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, overflow, sizeof(overflow));
	CHECK_ERROR(pq_thrift_read_varint(&r), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, truncated, sizeof(truncated));
	CHECK_ERROR(pq_thrift_read_varint(&r), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, truncated, 0);
	CHECK_ERROR(pq_thrift_read_varint(&r), ERRCODE_DATA_CORRUPTED);
	/* padded encodings are wasteful but valid */
	reader_on(&r, noncanonical, sizeof(noncanonical));
	CHECK(pq_thrift_read_varint(&r) == 0);
}

static void
test_zigzag(void)
{
	/* zigzag: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, ... */
	static const uint8 expected[] = {
		0x00,					/* 0 */
		0x01,					/* -1 */
		0x02,					/* 1 */
		0x03,					/* -2 */
		0x7f,					/* -64 */
		0x80, 0x01,				/* 64 */
		0xfe, 0xff, 0xff, 0xff, 0x0f,	/* INT32_MAX */
		0xff, 0xff, 0xff, 0xff, 0x0f,	/* INT32_MIN */
		0xff, 0xff, 0x03,		/* INT16_MIN */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, /* INT64_MIN */
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, /* INT64_MAX */
		0xff					/* i8 -1: one raw byte */
	};
	PqBuffer	buf;
	PqThriftWriter w;
	PqThriftReader r;

	pq_buffer_init(&buf, 0);
	pq_thrift_writer_init(&w, &buf);
	pq_thrift_write_i32(&w, 0);
	pq_thrift_write_i32(&w, -1);
	pq_thrift_write_i32(&w, 1);
	pq_thrift_write_i64(&w, -2);
	pq_thrift_write_i32(&w, -64);
	pq_thrift_write_i16(&w, 64);
	pq_thrift_write_i32(&w, PG_INT32_MAX);
	pq_thrift_write_i32(&w, PG_INT32_MIN);
	pq_thrift_write_i16(&w, PG_INT16_MIN);
	pq_thrift_write_i64(&w, PG_INT64_MIN);
	pq_thrift_write_i64(&w, PG_INT64_MAX);
	pq_thrift_write_i8(&w, -1);
	CHECK(bytes_equal(&buf, expected, sizeof(expected)));

	reader_on(&r, expected, sizeof(expected));
	CHECK_EQ_INT(pq_thrift_read_i32(&r), 0);
	CHECK_EQ_INT(pq_thrift_read_i32(&r), -1);
	CHECK_EQ_INT(pq_thrift_read_i32(&r), 1);
	CHECK_EQ_INT(pq_thrift_read_i64(&r), -2);
	CHECK_EQ_INT(pq_thrift_read_i16(&r), -64);
	CHECK_EQ_INT(pq_thrift_read_i16(&r), 64);
	CHECK_EQ_INT(pq_thrift_read_i32(&r), PG_INT32_MAX);
	CHECK_EQ_INT(pq_thrift_read_i32(&r), PG_INT32_MIN);
	CHECK_EQ_INT(pq_thrift_read_i16(&r), PG_INT16_MIN);
	CHECK(pq_thrift_read_i64(&r) == PG_INT64_MIN);
	CHECK(pq_thrift_read_i64(&r) == PG_INT64_MAX);
	CHECK_EQ_INT(pq_thrift_read_i8(&r), -1);
	CHECK_EQ_INT(pq_thrift_remaining(&r), 0);
}

static void
test_int_range(void)
{
	/* zigzag 2^32 = 2^31 * 2: one past what an i32 can hold */
	static const uint8 big32[] = {0x80, 0x80, 0x80, 0x80, 0x10};
	static const uint8 big16[] = {0x80, 0x80, 0x04};	/* 32768 */
	PqThriftReader r;

	reader_on(&r, big32, sizeof(big32));
	CHECK_ERROR(pq_thrift_read_i32(&r), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, big16, sizeof(big16));
	CHECK_ERROR(pq_thrift_read_i16(&r), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, big32, sizeof(big32));
	CHECK(pq_thrift_read_i64(&r) == INT64CONST(2147483648));
}

static void
test_double(void)
{
	/* 1.5 = 0x3FF8000000000000, little-endian */
	static const uint8 bytes[] = {0, 0, 0, 0, 0, 0, 0xf8, 0x3f};
	PqBuffer	buf;
	PqThriftWriter w;
	PqThriftReader r;

	pq_buffer_init(&buf, 0);
	pq_thrift_writer_init(&w, &buf);
	pq_thrift_write_double(&w, 1.5);
	CHECK(bytes_equal(&buf, bytes, sizeof(bytes)));
	reader_on(&r, bytes, sizeof(bytes));
	CHECK(pq_thrift_read_double(&r) == 1.5);
	reader_on(&r, bytes, 7);
	CHECK_ERROR(pq_thrift_read_double(&r), ERRCODE_DATA_CORRUPTED);
}

static void
test_binary(void)
{
	static const uint8 abc[] = {0x03, 'a', 'b', 'c'};
	static const uint8 empty[] = {0x00};
	static const uint8 too_long[] = {0x05, 'a', 'b', 'c'};
	static const uint8 huge[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 'x'};
	PqThriftReader r;
	PqBytes		b;
	char	   *s;

	reader_on(&r, abc, sizeof(abc));
	b = pq_thrift_read_binary(&r);
	CHECK_EQ_INT(b.len, 3);
	CHECK(memcmp(b.ptr, "abc", 3) == 0);
	CHECK(b.ptr == r.start + 1);	/* zero copy */

	reader_on(&r, abc, sizeof(abc));
	s = pq_thrift_read_string(&r);
	CHECK(strcmp(s, "abc") == 0);

	reader_on(&r, empty, sizeof(empty));
	b = pq_thrift_read_binary(&r);
	CHECK(b.ptr != NULL);
	CHECK_EQ_INT(b.len, 0);

	reader_on(&r, too_long, sizeof(too_long));
	CHECK_ERROR(pq_thrift_read_binary(&r), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, huge, sizeof(huge));
	CHECK_ERROR(pq_thrift_read_binary(&r), ERRCODE_DATA_CORRUPTED);
}

static void
test_field_headers(void)
{
	/*
	 * i32 fields 1, 2, 17, 33, 5, -1, 32767, each with value 0: deltas 1, 1
	 * and 15 use the short form, deltas 16 and negative ones the long form
	 * (type byte, then the id as a zigzag varint).
	 */
	static const uint8 expected[] = {
		0x15, 0x00,				/* id 1 */
		0x15, 0x00,				/* id 2 */
		0xf5, 0x00,				/* id 17 */
		0x05, 0x42, 0x00,		/* id 33: zigzag 66 */
		0x05, 0x0a, 0x00,		/* id 5 */
		0x05, 0x01, 0x00,		/* id -1 */
		0x05, 0xfe, 0xff, 0x03, 0x00,	/* id 32767 */
		0x00					/* stop */
	};
	static const int16 ids[] = {1, 2, 17, 33, 5, -1, 32767};
	PqBuffer	buf;
	PqThriftWriter w;
	PqThriftReader r;
	int16		id;
	int			type;
	int			i;

	pq_buffer_init(&buf, 0);
	pq_thrift_writer_init(&w, &buf);
	pq_thrift_write_struct_begin(&w);
	for (i = 0; i < (int) lengthof(ids); i++)
		pq_thrift_write_i32_field(&w, ids[i], 0);
	pq_thrift_write_struct_end(&w);
	CHECK(bytes_equal(&buf, expected, sizeof(expected)));

	reader_on(&r, expected, sizeof(expected));
	pq_thrift_read_struct_begin(&r);
	for (i = 0; i < (int) lengthof(ids); i++)
	{
		CHECK(pq_thrift_read_field(&r, &id, &type));
		CHECK_EQ_INT(id, ids[i]);
		CHECK_EQ_INT(type, PQ_TT_I32);
		CHECK_EQ_INT(pq_thrift_read_i32(&r), 0);
	}
	CHECK(!pq_thrift_read_field(&r, &id, &type));
	pq_thrift_read_struct_end(&r);
	CHECK_EQ_INT(r.depth, 0);
	CHECK_EQ_INT(pq_thrift_remaining(&r), 0);
}

static void
test_bad_field_headers(void)
{
	static const uint8 type13[] = {0x1d, 0x00};
	static const uint8 type0_delta[] = {0x10, 0x00};
	/* id 32767 (long form) followed by a delta that overflows int16 */
	static const uint8 id_overflow[] = {0x05, 0xfe, 0xff, 0x03, 0x00, 0x15, 0x00};
	PqThriftReader r;
	int16		id;
	int			type;

	reader_on(&r, type13, sizeof(type13));
	CHECK_ERROR(pq_thrift_read_field(&r, &id, &type), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, type0_delta, sizeof(type0_delta));
	CHECK_ERROR(pq_thrift_read_field(&r, &id, &type), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, id_overflow, sizeof(id_overflow));
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STRUCT), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, type13, 0);
	CHECK_ERROR(pq_thrift_read_field(&r, &id, &type), ERRCODE_DATA_CORRUPTED);
}

static void
test_bool_fields(void)
{
	/* bool fields: the value is the type nibble, 1 = true, 2 = false */
	static const uint8 expected[] = {0x11, 0x12, 0x71, 0x00};
	PqBuffer	buf;
	PqThriftWriter w;
	PqThriftReader r;
	int16		id;
	int			type;

	pq_buffer_init(&buf, 0);
	pq_thrift_writer_init(&w, &buf);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_bool_field(&w, 1, true);
	pq_thrift_write_bool_field(&w, 2, false);
	pq_thrift_write_bool_field(&w, 9, true);
	pq_thrift_write_struct_end(&w);
	CHECK(bytes_equal(&buf, expected, sizeof(expected)));

	reader_on(&r, expected, sizeof(expected));
	pq_thrift_read_struct_begin(&r);
	CHECK(pq_thrift_read_field(&r, &id, &type));
	CHECK(id == 1 && type == PQ_TT_TRUE);
	CHECK(pq_thrift_read_field(&r, &id, &type));
	CHECK(id == 2 && type == PQ_TT_FALSE);
	CHECK(pq_thrift_read_field(&r, &id, &type));
	CHECK(id == 9 && type == PQ_TT_TRUE);
	CHECK(!pq_thrift_read_field(&r, &id, &type));
	pq_thrift_read_struct_end(&r);
	CHECK_EQ_INT(pq_thrift_remaining(&r), 0);
}

static void
test_lists(void)
{
	/* bool list elements are one byte each (1 true, 2 or 0 false) */
	static const uint8 bools[] = {0x41, 0x01, 0x02, 0x01, 0x00};
	static const uint8 short14[] = {0xe5};
	static const uint8 long15[] = {0xf5, 0x0f};
	static const uint8 long300[] = {0xf8, 0xac, 0x02};
	PqBuffer	buf;
	PqThriftWriter w;
	PqThriftReader r;
	int			et;
	int			i;

	pq_buffer_init(&buf, 0);
	pq_thrift_writer_init(&w, &buf);
	pq_thrift_write_list_begin(&w, PQ_TT_TRUE, 4);
	pq_thrift_write_bool(&w, true);
	pq_thrift_write_bool(&w, false);
	pq_thrift_write_bool(&w, true);
	pq_thrift_write_bool(&w, false);
	/* older writers use 0 for false; ours writes 2 */
	CHECK_EQ_INT(buf.len, 5);
	CHECK(memcmp(buf.data, bools, 4) == 0);
	CHECK_EQ_INT(buf.data[4], 2);

	reader_on(&r, bools, sizeof(bools));
	CHECK_EQ_INT(pq_thrift_read_list_begin(&r, &et), 4);
	CHECK_EQ_INT(et, PQ_TT_TRUE);
	CHECK(pq_thrift_read_bool(&r));
	CHECK(!pq_thrift_read_bool(&r));
	CHECK(pq_thrift_read_bool(&r));
	CHECK(!pq_thrift_read_bool(&r));
	pq_thrift_read_list_end(&r);
	CHECK_EQ_INT(r.depth, 0);

	/* 14 elements still fit the size nibble, 15 need the long form */
	pq_buffer_reset(&buf);
	pq_thrift_write_list_begin(&w, PQ_TT_I32, 14);
	CHECK(bytes_equal(&buf, short14, sizeof(short14)));
	pq_buffer_reset(&buf);
	pq_thrift_write_list_begin(&w, PQ_TT_I32, 15);
	CHECK(bytes_equal(&buf, long15, sizeof(long15)));
	pq_buffer_reset(&buf);
	pq_thrift_write_list_begin(&w, PQ_TT_BINARY, 300);
	CHECK(bytes_equal(&buf, long300, sizeof(long300)));

	/* a long-form list of 20 i32 read back */
	pq_buffer_reset(&buf);
	pq_thrift_write_list_begin(&w, PQ_TT_I32, 20);
	for (i = 0; i < 20; i++)
		pq_thrift_write_i32(&w, i - 10);
	CHECK_EQ_INT(buf.data[0], 0xf5);
	CHECK_EQ_INT(buf.data[1], 20);
	reader_on(&r, buf.data, buf.len);
	CHECK_EQ_INT(pq_thrift_read_list_begin(&r, &et), 20);
	CHECK_EQ_INT(et, PQ_TT_I32);
	for (i = 0; i < 20; i++)
		CHECK_EQ_INT(pq_thrift_read_i32(&r), i - 10);
	pq_thrift_read_list_end(&r);
	CHECK_EQ_INT(pq_thrift_remaining(&r), 0);
}

static void
test_absurd_counts(void)
{
	/* list<struct> of 0x7fffffff elements, long form */
	static const uint8 list_max[] = {0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x00};
	/* 2^32 elements: beyond any int32 */
	static const uint8 list_huge[] = {0xfc, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00};
	/* 3 elements but only 2 bytes follow */
	static const uint8 list_short[] = {0x3c, 0x00, 0x00};
	/* map of 0x7fffffff entries inside a struct field */
	static const uint8 map_max[] = {
		0x1b, 0xff, 0xff, 0xff, 0xff, 0x07, 0x55, 0x00, 0x00, 0x00
	};
	/* binary field with length 0x7fffffff */
	static const uint8 bin_max[] = {0x18, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00};
	PqThriftReader r;
	int			et;

	reader_on(&r, list_max, sizeof(list_max));
	CHECK_ERROR(pq_thrift_read_list_begin(&r, &et), ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "exceeds") != NULL);
	reader_on(&r, list_huge, sizeof(list_huge));
	CHECK_ERROR(pq_thrift_read_list_begin(&r, &et), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, list_short, sizeof(list_short));
	CHECK_ERROR(pq_thrift_read_list_begin(&r, &et), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, list_max, sizeof(list_max));
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_LIST), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, map_max, sizeof(map_max));
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STRUCT), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, bin_max, sizeof(bin_max));
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STRUCT), ERRCODE_DATA_CORRUPTED);
}

/*
 * A struct holding a value of every wire type, nested containers, a map
 * written by hand, and an i32 sentinel field 500 at the end.
 */
static void
write_every_type(PqBuffer *buf)
{
	/* map<i32,binary> {1: "a", 2: ""}: size, key/value types, entries */
	static const uint8 map_bytes[] = {0x02, 0x58, 0x02, 0x01, 'a', 0x04, 0x00};
	/* map<bool,list<i8>> {true: [7]} */
	static const uint8 map_nested[] = {0x01, 0x19, 0x01, 0x13, 0x07};
	PqThriftWriter w;

	pq_thrift_writer_init(&w, buf);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_bool_field(&w, 1, true);
	pq_thrift_write_bool_field(&w, 2, false);
	pq_thrift_write_i8_field(&w, 3, -5);
	pq_thrift_write_i16_field(&w, 4, -300);
	pq_thrift_write_i32_field(&w, 5, 1 << 30);
	pq_thrift_write_i64_field(&w, 6, PG_INT64_MIN);
	pq_thrift_write_double_field(&w, 7, -2.25);
	pq_thrift_write_binary_field(&w, 8, (const uint8 *) "xyz", 3);
	pq_thrift_write_list_field(&w, 9, PQ_TT_I64, 2);
	pq_thrift_write_i64(&w, 1);
	pq_thrift_write_i64(&w, -1);
	/* a set has the list header layout */
	pq_thrift_write_field(&w, 10, PQ_TT_SET);
	pq_thrift_write_list_begin(&w, PQ_TT_BINARY, 1);
	pq_thrift_write_string(&w, "s");
	pq_thrift_write_field(&w, 11, PQ_TT_MAP);
	pq_buffer_append(buf, map_bytes, sizeof(map_bytes));
	/* empty map: size 0 and no type byte */
	pq_thrift_write_field(&w, 12, PQ_TT_MAP);
	pq_thrift_write_varint(&w, 0);
	pq_thrift_write_field(&w, 13, PQ_TT_MAP);
	pq_buffer_append(buf, map_nested, sizeof(map_nested));
	/* nested struct with a list of structs, a bool list and a list of lists */
	pq_thrift_write_struct_field(&w, 20);
	pq_thrift_write_list_field(&w, 1, PQ_TT_STRUCT, 2);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_bool_field(&w, 3, true);
	pq_thrift_write_struct_field(&w, 4);
	pq_thrift_write_struct_end(&w);
	pq_thrift_write_struct_end(&w);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_struct_end(&w);
	pq_thrift_write_list_field(&w, 2, PQ_TT_TRUE, 3);
	pq_thrift_write_bool(&w, true);
	pq_thrift_write_bool(&w, false);
	pq_thrift_write_bool(&w, true);
	pq_thrift_write_list_field(&w, 3, PQ_TT_LIST, 2);
	pq_thrift_write_list_begin(&w, PQ_TT_DOUBLE, 1);
	pq_thrift_write_double(&w, 3.0);
	pq_thrift_write_list_begin(&w, PQ_TT_MAP, 0);
	pq_thrift_write_struct_end(&w);
	/* extension-style field ids */
	pq_thrift_write_binary_field(&w, 32767, (const uint8 *) "ext", 3);
	pq_thrift_write_i32_field(&w, -7, 1);
	pq_thrift_write_i32_field(&w, 500, 12345);
	pq_thrift_write_struct_end(&w);
}

static void
test_skip_every_type(void)
{
	PqBuffer	buf;
	PqThriftReader r;
	int16		id;
	int			type;
	int			nfields = 0;
	bool		found_sentinel = false;

	pq_buffer_init(&buf, 0);
	write_every_type(&buf);

	/* skip field by field, then find the sentinel */
	reader_on(&r, buf.data, buf.len);
	pq_thrift_read_struct_begin(&r);
	while (pq_thrift_read_field(&r, &id, &type))
	{
		nfields++;
		if (id == 500)
		{
			CHECK_EQ_INT(type, PQ_TT_I32);
			CHECK_EQ_INT(pq_thrift_read_i32(&r), 12345);
			found_sentinel = true;
		}
		else
			pq_thrift_skip(&r, type);
	}
	pq_thrift_read_struct_end(&r);
	CHECK(found_sentinel);
	CHECK_EQ_INT(nfields, 17);
	CHECK_EQ_INT(pq_thrift_remaining(&r), 0);
	CHECK_EQ_INT(r.depth, 0);

	/* skip the whole struct at once */
	reader_on(&r, buf.data, buf.len);
	pq_thrift_skip(&r, PQ_TT_STRUCT);
	CHECK_EQ_INT(pq_thrift_offset(&r), buf.len);
	CHECK_EQ_INT(r.depth, 0);
}

static void
test_skip_truncated(void)
{
	PqBuffer	buf;
	size_t		len;

	pq_buffer_init(&buf, 0);
	write_every_type(&buf);
	for (len = 0; len < buf.len; len++)
	{
		PqThriftReader r;

		reader_on(&r, buf.data, len);
		CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STRUCT), ERRCODE_DATA_CORRUPTED);
	}
}

static void
test_skip_invalid_types(void)
{
	/* list with element type 13; map with value type 0 */
	static const uint8 bad_list[] = {0x19, 0x1d, 0x00, 0x00};
	static const uint8 bad_map[] = {0x1b, 0x01, 0x50, 0x02, 0x00, 0x00};
	static const uint8 empty_list_type0[] = {0x19, 0x00, 0x00};
	PqThriftReader r;

	reader_on(&r, bad_list, sizeof(bad_list));
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STRUCT), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, bad_map, sizeof(bad_map));
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STRUCT), ERRCODE_DATA_CORRUPTED);
	reader_on(&r, bad_list, sizeof(bad_list));
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STOP), ERRCODE_DATA_CORRUPTED);
	/* an empty list's element type does not matter */
	reader_on(&r, empty_list_type0, sizeof(empty_list_type0));
	pq_thrift_skip(&r, PQ_TT_STRUCT);
	CHECK_EQ_INT(pq_thrift_remaining(&r), 0);
}

/* n nested struct fields (field 1, type struct), then n + 1 stop bytes */
static uint8 *
nested_structs(int n, size_t *len)
{
	uint8	   *bytes = palloc(2 * n + 1);
	int			i;

	for (i = 0; i < n; i++)
		bytes[i] = 0x1c;
	for (i = n; i < 2 * n + 1; i++)
		bytes[i] = 0x00;
	*len = 2 * n + 1;
	return bytes;
}

static void
test_depth_limit(void)
{
	uint8	   *bytes;
	size_t		len;
	PqThriftReader r;
	int			i;

	/* the outer struct plus 63 nested ones is exactly the limit */
	bytes = nested_structs(PQ_THRIFT_MAX_DEPTH - 1, &len);
	reader_on(&r, bytes, len);
	pq_thrift_skip(&r, PQ_TT_STRUCT);
	CHECK_EQ_INT(pq_thrift_remaining(&r), 0);

	bytes = nested_structs(PQ_THRIFT_MAX_DEPTH, &len);
	reader_on(&r, bytes, len);
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STRUCT), ERRCODE_DATA_CORRUPTED);
	CHECK(strstr(shim_last_message, "nested") != NULL);

	bytes = nested_structs(10000, &len);
	reader_on(&r, bytes, len);
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_STRUCT), ERRCODE_DATA_CORRUPTED);

	/* lists of lists: header 0x19 = one element of type list */
	bytes = palloc(10001);
	for (i = 0; i < 10000; i++)
		bytes[i] = 0x19;
	bytes[10000] = 0x00;
	reader_on(&r, bytes, 10001);
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_LIST), ERRCODE_DATA_CORRUPTED);

	/* maps of maps: size 1, key i8, value map */
	bytes = palloc(3 * 1000);
	for (i = 0; i < 1000; i++)
	{
		bytes[3 * i] = 0x01;
		bytes[3 * i + 1] = 0x3b;
		bytes[3 * i + 2] = 0x00;
	}
	reader_on(&r, bytes, 3 * 1000);
	CHECK_ERROR(pq_thrift_skip(&r, PQ_TT_MAP), ERRCODE_DATA_CORRUPTED);
}

static void
test_nested_field_ids(void)
{
	/*
	 * field 1 struct { field 5 i32 0 }, then field 2 i32 1: the delta of
	 * field 2 is relative to field 1, the outer struct's last id.
	 */
	static const uint8 expected[] = {0x1c, 0x55, 0x00, 0x00, 0x15, 0x02, 0x00};
	PqBuffer	buf;
	PqThriftWriter w;
	PqThriftReader r;
	int16		id;
	int			type;

	pq_buffer_init(&buf, 0);
	pq_thrift_writer_init(&w, &buf);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_struct_field(&w, 1);
	pq_thrift_write_i32_field(&w, 5, 0);
	pq_thrift_write_struct_end(&w);
	pq_thrift_write_i32_field(&w, 2, 1);
	pq_thrift_write_struct_end(&w);
	CHECK(bytes_equal(&buf, expected, sizeof(expected)));
	CHECK_EQ_INT(w.depth, 0);

	reader_on(&r, expected, sizeof(expected));
	pq_thrift_read_struct_begin(&r);
	CHECK(pq_thrift_read_field(&r, &id, &type));
	CHECK(id == 1 && type == PQ_TT_STRUCT);
	pq_thrift_read_struct_begin(&r);
	CHECK(pq_thrift_read_field(&r, &id, &type));
	CHECK(id == 5 && type == PQ_TT_I32);
	CHECK_EQ_INT(pq_thrift_read_i32(&r), 0);
	CHECK(!pq_thrift_read_field(&r, &id, &type));
	pq_thrift_read_struct_end(&r);
	CHECK(pq_thrift_read_field(&r, &id, &type));
	CHECK(id == 2 && type == PQ_TT_I32);
	CHECK_EQ_INT(pq_thrift_read_i32(&r), 1);
	CHECK(!pq_thrift_read_field(&r, &id, &type));
	pq_thrift_read_struct_end(&r);
	CHECK_EQ_INT(pq_thrift_remaining(&r), 0);
}

void
suite_thrift(void)
{
	ut_run("thrift_varint_edges", test_varint_edges);
	ut_run("thrift_varint_malformed", test_varint_malformed);
	ut_run("thrift_zigzag", test_zigzag);
	ut_run("thrift_int_range", test_int_range);
	ut_run("thrift_double", test_double);
	ut_run("thrift_binary", test_binary);
	ut_run("thrift_field_headers", test_field_headers);
	ut_run("thrift_bad_field_headers", test_bad_field_headers);
	ut_run("thrift_bool_fields", test_bool_fields);
	ut_run("thrift_lists", test_lists);
	ut_run("thrift_absurd_counts", test_absurd_counts);
	ut_run("thrift_skip_every_type", test_skip_every_type);
	ut_run("thrift_skip_truncated", test_skip_truncated);
	ut_run("thrift_skip_invalid_types", test_skip_invalid_types);
	ut_run("thrift_depth_limit", test_depth_limit);
	ut_run("thrift_nested_field_ids", test_nested_field_ids);
}
