/*
 * test_variant.c
 *		VARIANT to JSON: the binary encoding (format/variant/variant.c) against values
 *		encoded by hand from the spec's layout, every kind of corruption,
 *		and shredded reconstruction (format/variant/shredded.c) from PqValue trees
 *		built by hand, following the examples and the invalid cases of the
 *		Variant Shredding spec.
 */
#include "postgres.h"

#include "unit_test.h"
#include "format/variant/variant.h"

/* ---------------------------------------------------------- binary */

/* Metadata with 1-byte offsets for up to 8 keys. */
static size_t
make_meta(uint8 *out, const char *const *keys, int n)
{
	size_t		pos = 2 + n + 1;
	int			i;
	int			off = 0;

	out[0] = 0x01;
	out[1] = (uint8) n;
	for (i = 0; i < n; i++)
	{
		out[2 + i] = (uint8) off;
		memcpy(out + pos + off, keys[i], strlen(keys[i]));
		off += strlen(keys[i]);
	}
	out[2 + n] = (uint8) off;
	return pos + off;
}

static const uint8 empty_meta[] = {0x01, 0x00, 0x00};

/*
 * Render (metadata, value) and compare with the expected JSON; the outer
 * macros let V() and EMPTY_META expand to (pointer, length) first.
 */
#define CHECK_VARIANT(...) CHECK_VARIANT_(__VA_ARGS__)
#define CHECK_VARIANT_(meta, meta_len, value, value_len, expected) \
	do { \
		PqBuffer	buf; \
		pq_buffer_init(&buf, 16); \
		pq_variant_binary_to_json(&buf, ut_exact_copy(meta, meta_len), meta_len, \
								  ut_exact_copy(value, value_len), value_len); \
		if (buf.len != strlen(expected) || memcmp(buf.data, expected, buf.len) != 0) \
		{ \
			char _m[512]; \
			snprintf(_m, sizeof(_m), "got %.*s, expected %s", (int) buf.len, \
					 (const char *) buf.data, expected); \
			ut_fail(__FILE__, __LINE__, _m); \
			return; \
		} \
	} while (0)

#define CHECK_VARIANT_ERROR(...) CHECK_VARIANT_ERROR_(__VA_ARGS__)
#define CHECK_VARIANT_ERROR_(meta, meta_len, value, value_len, sqlstate) \
	do { \
		PqBuffer	buf; \
		pq_buffer_init(&buf, 16); \
		CHECK_ERROR(pq_variant_binary_to_json(&buf, ut_exact_copy(meta, meta_len), meta_len, \
											  ut_exact_copy(value, value_len), value_len), \
					sqlstate); \
	} while (0)

#define V(...) ((const uint8[]) {__VA_ARGS__}), sizeof((const uint8[]) {__VA_ARGS__})
#define EMPTY_META empty_meta, sizeof(empty_meta)

/* Every primitive type id, values worked out by hand from the spec table. */
static void
test_variant_primitives(void)
{
	CHECK_VARIANT(EMPTY_META, V(0x00), "null");
	CHECK_VARIANT(EMPTY_META, V(0x04), "true");
	CHECK_VARIANT(EMPTY_META, V(0x08), "false");
	CHECK_VARIANT(EMPTY_META, V(3 << 2, 0x80), "-128");
	CHECK_VARIANT(EMPTY_META, V(4 << 2, 0xd2, 0x04), "1234");
	CHECK_VARIANT(EMPTY_META, V(5 << 2, 0x40, 0xe2, 0x01, 0x00), "123456");
	CHECK_VARIANT(EMPTY_META, V(6 << 2, 0, 0, 0, 0, 0, 0, 0, 0x80), "-9223372036854775808");
	/* double 1.5 = 0x3FF8000000000000 */
	CHECK_VARIANT(EMPTY_META, V(7 << 2, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f), "1.5");
	CHECK_VARIANT(EMPTY_META, V(7 << 2, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f), "\"NaN\"");
	/* decimal4 scale 2, unscaled 1234 */
	CHECK_VARIANT(EMPTY_META, V(8 << 2, 2, 0xd2, 0x04, 0, 0), "12.34");
	/* decimal8 scale 1, unscaled -1 */
	CHECK_VARIANT(EMPTY_META, V(9 << 2, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), "-0.1");
	/* decimal16 scale 0, unscaled 2^64 (little-endian) */
	CHECK_VARIANT(EMPTY_META, V(10 << 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0),
				  "18446744073709551616");
	/* decimal16 scale 38, 10^38 - 1 = 0x4B3B4CA85A86C47A098A223FFFFFFFFF */
	CHECK_VARIANT(EMPTY_META, V(10 << 2, 38, 0xff, 0xff, 0xff, 0xff, 0x3f, 0x22, 0x8a, 0x09,
								0x7a, 0xc4, 0x86, 0x5a, 0xa8, 0x4c, 0x3b, 0x4b),
				  "0.99999999999999999999999999999999999999");
	/* date 20194 = 2025-04-16 */
	CHECK_VARIANT(EMPTY_META, V(11 << 2, 0xe2, 0x4e, 0, 0), "\"2025-04-16\"");
	/* timestamp (UTC) and without time zone: 1744806896780000 us */
	CHECK_VARIANT(EMPTY_META, V(12 << 2, 0xe0, 0xc2, 0x48, 0x83, 0xe4, 0x32, 0x06, 0x00),
				  "\"2025-04-16T12:34:56.78+00:00\"");
	CHECK_VARIANT(EMPTY_META, V(13 << 2, 0xe0, 0xc2, 0x48, 0x83, 0xe4, 0x32, 0x06, 0x00),
				  "\"2025-04-16T12:34:56.78\"");
	/* float 1.0f = 0x3F800000 */
	CHECK_VARIANT(EMPTY_META, V(14 << 2, 0, 0, 0x80, 0x3f), "1");
	CHECK_VARIANT(EMPTY_META, V(15 << 2, 3, 0, 0, 0, 'a', 'b', 'c'), "\"YWJj\"");
	CHECK_VARIANT(EMPTY_META, V(16 << 2, 3, 0, 0, 0, 'a', '"', 'c'), "\"a\\\"c\"");
	/* time 12:33:54.123456 = 45234123456 us */
	CHECK_VARIANT(EMPTY_META, V(17 << 2, 0xc0, 0xf2, 0x29, 0x88, 0x0a, 0, 0, 0),
				  "\"12:33:54.123456\"");
	/* nanosecond timestamps: 1 ns before the epoch */
	CHECK_VARIANT(EMPTY_META, V(18 << 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
				  "\"1969-12-31T23:59:59.999999999+00:00\"");
	CHECK_VARIANT(EMPTY_META, V(19 << 2, 1, 0, 0, 0, 0, 0, 0, 0),
				  "\"1970-01-01T00:00:00.000000001\"");
	CHECK_VARIANT(EMPTY_META, V(20 << 2, 0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1,
								0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56),
				  "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\"");
	/* short strings: empty and "hé" */
	CHECK_VARIANT(EMPTY_META, V(0x01), "\"\"");
	CHECK_VARIANT(EMPTY_META, V((3 << 2) | 1, 'h', 0xc3, 0xa9), "\"h\xc3\xa9\"");
}

/* The spec's {"c": 3, "b": 2, "a": 1}: ids sorted by name, values in any order. */
static void
test_variant_objects(void)
{
	static const char *const keys[] = {"c", "b", "a"};
	uint8		meta[32];
	size_t		ml = make_meta(meta, keys, 3);
	uint8		big[4 + 300 + 300 * 2 + 2 + 300];
	size_t		pos;
	int			i;

	/* ids a=2, b=1, c=0; values stored c, b, a */
	CHECK_VARIANT(meta, ml, V(0x02, 3, 2, 1, 0, 4, 2, 0, 6,
							  3 << 2, 3, 3 << 2, 2, 3 << 2, 1),
				  "{\"a\":1,\"b\":2,\"c\":3}");
	CHECK_VARIANT(EMPTY_META, V(0x02, 0, 0), "{}");
	/* field ids in insertion order (DuckDB): c, b, a; rendered in that order */
	CHECK_VARIANT(meta, ml, V(0x02, 3, 0, 1, 2, 4, 2, 0, 6,
							  3 << 2, 3, 3 << 2, 2, 3 << 2, 1),
				  "{\"c\":1,\"b\":2,\"a\":3}");
	/* unsorted nested objects, c twice in different objects: {"c": {"b": 1, "c": 2}} */
	CHECK_VARIANT(meta, ml, V(0x02, 1, 0, 0, 11,
							  0x02, 2, 1, 0, 0, 2, 4, 3 << 2, 1, 3 << 2, 2),
				  "{\"c\":{\"b\":1,\"c\":2}}");
	/* is_large, 4-byte ids and 4-byte offsets (header 0b11111 << 2 | 2) */
	CHECK_VARIANT(meta, ml, V((0x1f << 2) | 2, 1, 0, 0, 0, 2, 0, 0, 0,
							  0, 0, 0, 0, 1, 0, 0, 0, 0x00),
				  "{\"a\":null}");
	/* 2-byte ids, 3-byte offsets */
	CHECK_VARIANT(meta, ml, V(((1 << 2 | 2) << 2) | 2, 2, 1, 0, 0, 0,
							  0, 0, 0, 1, 0, 0, 2, 0, 0, 0x04, 0x08),
				  "{\"b\":true,\"c\":false}");
	/* nested: {"a": [1, {"b": null}]} */
	CHECK_VARIANT(meta, ml, V(0x02, 1, 2, 0, 13,
							  0x03, 2, 0, 2, 8, 3 << 2, 1,
							  0x02, 1, 1, 0, 1, 0x00),
				  "{\"a\":[1,{\"b\":null}]}");

	/* arrays: empty, is_large with 2-byte offsets, 300 elements */
	CHECK_VARIANT(EMPTY_META, V(0x03, 0, 0), "[]");
	CHECK_VARIANT(EMPTY_META, V(((1 << 2 | 1) << 2) | 3, 2, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0x04, 0x08),
				  "[true,false]");
	big[0] = ((1 << 2 | 1) << 2) | 3;
	pq_store_le32(big + 1, 300);
	pos = 5;
	for (i = 0; i <= 300; i++)
	{
		big[pos++] = (uint8) i;
		big[pos++] = (uint8) (i >> 8);
	}
	for (i = 0; i < 300; i++)
		big[pos++] = 0x00;
	{
		PqBuffer	buf;

		pq_buffer_init(&buf, 16);
		pq_variant_binary_to_json(&buf, empty_meta, sizeof(empty_meta),
								  ut_exact_copy(big, pos), pos);
		CHECK(buf.len == 2 + 300 * 4 + 299);
		CHECK(memcmp(buf.data, "[null,null,", 11) == 0);
	}

	/* metadata with 2-byte offsets (header 0x41) */
	CHECK_VARIANT(V(0x41, 1, 0, 0, 0, 2, 0, 'h', 'i'), V(0x02, 1, 0, 0, 1, 0x00),
				  "{\"hi\":null}");
	/* and 4-byte offsets, sorted_strings set (0xd1) */
	CHECK_VARIANT(V(0xd1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 'k'), V(0x02, 1, 0, 0, 1, 0x04),
				  "{\"k\":true}");
}

static void
test_variant_corrupt(void)
{
	static const char *const keys[] = {"a", "b"};
	uint8		meta[32];
	size_t		ml = make_meta(meta, keys, 2);
	int			i;

	/* metadata */
	CHECK_VARIANT_ERROR(V(0x01), V(0x00), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(V(0x00, 0, 0), V(0x00), ERRCODE_DATA_CORRUPTED);	/* version 0 */
	CHECK_VARIANT_ERROR(V(0x02, 0, 0), V(0x00), ERRCODE_FEATURE_NOT_SUPPORTED);	/* version 2 */
	CHECK_VARIANT_ERROR(V(0x01, 5, 0), V(0x00), ERRCODE_DATA_CORRUPTED);	/* offsets cut */
	CHECK_VARIANT_ERROR(V(0x01, 1, 0, 2, 'a'), V(0x00), ERRCODE_DATA_CORRUPTED);	/* last offset */
	CHECK_VARIANT_ERROR(V(0x01, 0, 0, 'x'), V(0x00), ERRCODE_DATA_CORRUPTED);	/* trailing */
	CHECK_VARIANT_ERROR(V(0x01, 2, 0, 3, 1, 'a', 'b'), V(0x02, 1, 1, 0, 1, 0x00),
						ERRCODE_DATA_CORRUPTED);	/* offsets decrease */
	CHECK_VARIANT_ERROR(V(0x01, 1, 0, 1, 0xff), V(0x02, 1, 0, 0, 1, 0x00),
						ERRCODE_DATA_CORRUPTED);	/* key not UTF-8 */

	/* values */
	CHECK_VARIANT_ERROR(EMPTY_META, NULL, 0, ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(0x00, 0x00), ERRCODE_DATA_CORRUPTED);	/* trailing */
	CHECK_VARIANT_ERROR(EMPTY_META, V(6 << 2, 1, 2, 3), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(16 << 2, 5, 0, 0, 0, 'a'), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(16 << 2, 0xff, 0xff, 0xff, 0xff), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(15 << 2, 1, 0), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V((5 << 2) | 1, 'a'), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V((1 << 2) | 1, 0xc3), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(8 << 2, 39, 0, 0, 0, 0), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(17 << 2, 0x01, 0x60, 0xd7, 0x1d, 0x14, 0, 0, 0),
						ERRCODE_DATA_CORRUPTED);	/* 24:00:00.000001 */
	CHECK_VARIANT_ERROR(EMPTY_META, V(21 << 2), ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(63 << 2), ERRCODE_FEATURE_NOT_SUPPORTED);

	/* objects */
	CHECK_VARIANT_ERROR(meta, ml, V(0x02), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(meta, ml, V(0x02, 2, 0, 1), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(meta, ml, V(0x02, 1, 5, 0, 1, 0x00), ERRCODE_DATA_CORRUPTED);	/* id */
	CHECK_VARIANT_ERROR(meta, ml, V(0x02, 1, 0, 0, 9, 0x00), ERRCODE_DATA_CORRUPTED);	/* data */
	CHECK_VARIANT_ERROR(meta, ml, V(0x02, 1, 0, 1, 1, 0x00), ERRCODE_DATA_CORRUPTED);	/* offset */
	CHECK_VARIANT_ERROR(meta, ml, V(0x02, 2, 0, 0, 0, 1, 2, 0x00, 0x00),
						ERRCODE_DATA_CORRUPTED);	/* a twice */
	/* unsorted (as DuckDB writes them), a twice: b, a, a */
	CHECK_VARIANT_ERROR(meta, ml, V(0x02, 3, 1, 0, 0, 0, 1, 2, 3, 0x00, 0x00, 0x00),
						ERRCODE_DATA_CORRUPTED);
	/* a value running past its object's data */
	CHECK_VARIANT_ERROR(meta, ml, V(0x02, 1, 0, 0, 2, 6 << 2, 0, 0, 0),
						ERRCODE_DATA_CORRUPTED);

	/* arrays */
	CHECK_VARIANT_ERROR(EMPTY_META, V(0x03), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(0x03, 1, 0), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(((1 << 2) << 2) | 3, 1, 0, 0), ERRCODE_DATA_CORRUPTED);
	CHECK_VARIANT_ERROR(EMPTY_META, V(0x03, 1, 1, 1, 0x00), ERRCODE_DATA_CORRUPTED);

	/* 1001 nested one-element arrays around a null */
	{
		uint8		enc[6 * 1001 + 1];
		size_t		len = 1;
		uint8		tmp[6 * 1001 + 1];

		enc[0] = 0x00;
		for (i = 0; i < 1001; i++)
		{
			/* wrap: [0x0B (array, 2-byte offsets), 1, 0 0, len lo hi] + enc */
			tmp[0] = (1 << 2) | 3;
			tmp[1] = 1;
			tmp[2] = 0;
			tmp[3] = 0;
			tmp[4] = (uint8) len;
			tmp[5] = (uint8) (len >> 8);
			memcpy(tmp + 6, enc, len);
			len += 6;
			memcpy(enc, tmp, len);
			if (i == 999)
			{
				PqBuffer	buf;

				/* 1000 levels are fine */
				pq_buffer_init(&buf, 16);
				pq_variant_binary_to_json(&buf, empty_meta, sizeof(empty_meta),
										  ut_exact_copy(enc, len), len);
				CHECK(buf.len == 1000 * 2 + 4);
			}
		}
		CHECK_VARIANT_ERROR(EMPTY_META, enc, len, ERRCODE_DATA_CORRUPTED);
	}
}

/* ---------------------------------------------------------- shredded */

static PqSchemaNode *
node_new(const char *name, int repetition, bool is_leaf, int physical,
		 int lt_id)
{
	PqSchemaNode *n = palloc0(sizeof(PqSchemaNode));

	n->name = name;
	n->repetition = repetition;
	n->is_leaf = is_leaf;
	n->physical_type = physical;
	n->logical.id = lt_id;
	n->converted_type = -1;
	return n;
}

static PqSchemaNode *
leaf(const char *name, int repetition, int physical, int lt_id)
{
	return node_new(name, repetition, true, physical, lt_id);
}

static PqSchemaNode *
group(const char *name, int repetition, int lt_id, int n,...)
{
	PqSchemaNode *g = node_new(name, repetition, false, -1, lt_id);
	va_list		args;
	int			i;

	g->n_children = n;
	g->children = palloc0(sizeof(PqSchemaNode *) * Max(n, 1));
	va_start(args, n);
	for (i = 0; i < n; i++)
	{
		g->children[i] = va_arg(args, PqSchemaNode *);
		g->children[i]->parent = g;
	}
	va_end(args);
	return g;
}

/* {value, typed_value} field group */
static PqSchemaNode *
field(const char *name, PqSchemaNode *typed)
{
	if (typed == NULL)
		return group(name, PQ_REQUIRED, PQ_LT_NONE, 1,
					 leaf("value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_NONE));
	return group(name, PQ_REQUIRED, PQ_LT_NONE, 2,
				 leaf("value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_NONE), typed);
}

/* the VARIANT group: metadata, value, [typed_value] */
static PqSchemaNode *
variant(PqSchemaNode *typed)
{
	PqSchemaNode *meta = leaf("metadata", PQ_REQUIRED, PQ_BYTE_ARRAY, PQ_LT_NONE);
	PqSchemaNode *value = leaf("value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_NONE);

	if (typed == NULL)
		return group("v", PQ_OPTIONAL, PQ_LT_VARIANT, 2, meta, value);
	return group("v", PQ_OPTIONAL, PQ_LT_VARIANT, 3, meta, value, typed);
}

/* 3-level LIST of {value, typed_value} elements */
static PqSchemaNode *
list_of(PqSchemaNode *elem_typed)
{
	return group("typed_value", PQ_OPTIONAL, PQ_LT_LIST, 1,
				 group("list", PQ_REPEATED, PQ_LT_NONE, 1,
					   field("element", elem_typed)));
}

/* Values */

static PqValue
v_null(void)
{
	PqValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_NULL;
	return v;
}

static PqValue
v_bytes(const void *p, size_t len)
{
	PqValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.bytes.ptr = ut_exact_copy(p, len);
	v.u.scalar.bytes.len = len;
	return v;
}

#define B(...) v_bytes((const uint8[]) {__VA_ARGS__}, sizeof((const uint8[]) {__VA_ARGS__}))

static PqValue
v_str(const char *s)
{
	return v_bytes(s, strlen(s));
}

static PqValue
v_i64(int64 x)
{
	PqValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.i64 = x;
	return v;
}

static PqValue
v_i32(int32 x)
{
	PqValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.i32 = x;
	return v;
}

static PqValue
v_double(double x)
{
	PqValue		v;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_SCALAR;
	v.u.scalar.d = x;
	return v;
}

/* Group or list value of n children; nodes are filled in by attach(). */
static PqValue
v_group(int n,...)
{
	PqValue		v;
	va_list		args;
	int			i;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_GROUP;
	v.u.children.n = n;
	v.u.children.items = palloc0(sizeof(PqValue) * Max(n, 1));
	va_start(args, n);
	for (i = 0; i < n; i++)
		v.u.children.items[i] = va_arg(args, PqValue);
	va_end(args);
	return v;
}

static PqValue
v_list(int n,...)
{
	PqValue		v;
	va_list		args;
	int			i;

	memset(&v, 0, sizeof(v));
	v.kind = PQ_VAL_LIST;
	v.u.children.n = n;
	v.u.children.items = palloc0(sizeof(PqValue) * Max(n, 1));
	va_start(args, n);
	for (i = 0; i < n; i++)
		v.u.children.items[i] = va_arg(args, PqValue);
	va_end(args);
	return v;
}

/* Set node pointers through a value tree, as the assembler does. */
static void
attach(PqValue *v, const PqSchemaNode *node)
{
	int			i;

	v->node = node;
	if (v->kind == PQ_VAL_GROUP)
		for (i = 0; i < v->u.children.n && i < node->n_children; i++)
			attach(&v->u.children.items[i], node->children[i]);
	else if (v->kind == PQ_VAL_LIST)
		for (i = 0; i < v->u.children.n; i++)
			attach(&v->u.children.items[i], node);
}

static bool
render_group(PqSchemaNode *schema, PqValue v, PqBuffer *buf)
{
	attach(&v, schema);
	pq_buffer_init(buf, 16);
	return pq_variant_group_to_json(buf, &v);
}

#define CHECK_SHREDDED(schema, value, expected) \
	do { \
		PqBuffer	buf; \
		CHECK(render_group(schema, value, &buf)); \
		if (buf.len != strlen(expected) || memcmp(buf.data, expected, buf.len) != 0) \
		{ \
			char _m[512]; \
			snprintf(_m, sizeof(_m), "got %.*s, expected %s", (int) buf.len, \
					 (const char *) buf.data, expected); \
			ut_fail(__FILE__, __LINE__, _m); \
			return; \
		} \
	} while (0)

#define CHECK_SHREDDED_ERROR(schema, value) \
	do { \
		PqBuffer	buf; \
		CHECK_ERROR(render_group(schema, value, &buf), ERRCODE_DATA_CORRUPTED); \
	} while (0)

#define META_EMPTY B(0x01, 0x00, 0x00)

/* The event example's dictionary: event_type, event_ts, email, error_msg, click */
#define META_EVENT B(0x01, 5, 0, 10, 18, 23, 32, 37, \
	'e','v','e','n','t','_','t','y','p','e', 'e','v','e','n','t','_','t','s', \
	'e','m','a','i','l', 'e','r','r','o','r','_','m','s','g', 'c','l','i','c','k')

static void
test_shredded_unshredded_and_null(void)
{
	PqSchemaNode *s = variant(NULL);
	PqBuffer	buf;

	CHECK_SHREDDED(s, v_group(2, META_EMPTY, B(0x0d, 'n', '/', 'a')), "\"n/a\"");
	CHECK_SHREDDED(s, v_group(2, META_EMPTY, B(0x00)), "null");
	/* SQL NULL group */
	CHECK(!render_group(s, v_null(), &buf));
	CHECK(buf.len == 0);
	/* metadata null, metadata missing from the schema, value not binary */
	CHECK_SHREDDED_ERROR(s, v_group(2, v_null(), B(0x00)));
	CHECK_SHREDDED_ERROR(group("v", PQ_OPTIONAL, PQ_LT_VARIANT, 1,
							   leaf("value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_NONE)),
						 v_group(1, B(0x00)));
	CHECK_SHREDDED_ERROR(group("v", PQ_OPTIONAL, PQ_LT_VARIANT, 2,
							   leaf("metadata", PQ_REQUIRED, PQ_BYTE_ARRAY, PQ_LT_NONE),
							   leaf("value", PQ_OPTIONAL, PQ_INT32, PQ_LT_NONE)),
						 v_group(2, META_EMPTY, v_i32(1)));
	/* neither value nor typed_value */
	CHECK_SHREDDED_ERROR(group("v", PQ_OPTIONAL, PQ_LT_VARIANT, 1,
							   leaf("metadata", PQ_REQUIRED, PQ_BYTE_ARRAY, PQ_LT_NONE)),
						 v_group(1, META_EMPTY));
	/* a corrupt metadata */
	CHECK_SHREDDED_ERROR(s, v_group(2, B(0x01, 0x05, 0x00), B(0x00)));
}

/* The measurement example: 34, null, "n/a", 100 shredded as int64 */
static void
test_shredded_primitive(void)
{
	PqSchemaNode *s = variant(leaf("typed_value", PQ_OPTIONAL, PQ_INT64, PQ_LT_NONE));
	PqSchemaNode *ts;
	PqSchemaNode *dec;
	PqSchemaNode *uuid;

	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(), v_i64(34)), "34");
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, B(0x00), v_null()), "null");
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, B(0x0d, 'n', '/', 'a'), v_null()), "\"n/a\"");
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(), v_i64(100)), "100");
	/* missing at the top: Variant null */
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(), v_null()), "null");
	/* both non-null for a non-object */
	CHECK_SHREDDED_ERROR(s, v_group(3, META_EMPTY, B(0x00), v_i64(1)));
	/* trailing bytes after the value */
	CHECK_SHREDDED_ERROR(s, v_group(3, META_EMPTY, B(0x00, 0x00), v_null()));

	/* typed_value's Parquet type says how to render */
	ts = leaf("typed_value", PQ_OPTIONAL, PQ_INT64, PQ_LT_TIMESTAMP);
	ts->logical.is_adjusted_to_utc = true;
	ts->logical.time_unit = PQ_UNIT_NANOS;
	CHECK_SHREDDED(variant(ts), v_group(3, META_EMPTY, v_null(), v_i64(INT64CONST(1730982834123456789))),
				   "\"2024-11-07T12:33:54.123456789+00:00\"");
	dec = leaf("typed_value", PQ_OPTIONAL, PQ_INT32, PQ_LT_DECIMAL);
	dec->logical.decimal_precision = 9;
	dec->logical.decimal_scale = 4;
	CHECK_SHREDDED(variant(dec), v_group(3, META_EMPTY, v_null(), v_i32(-123456789)), "-12345.6789");
	uuid = leaf("typed_value", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY, PQ_LT_UUID);
	uuid->type_length = 16;
	CHECK_SHREDDED(variant(uuid), v_group(3, META_EMPTY, v_null(),
										  B(0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1,
											0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56)),
				   "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\"");
	CHECK_SHREDDED(variant(leaf("typed_value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_NONE)),
				   v_group(3, META_EMPTY, v_null(), v_str("abc")), "\"YWJj\"");
	CHECK_SHREDDED(variant(leaf("typed_value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_STRING)),
				   v_group(3, META_EMPTY, v_null(), v_str("abc")), "\"abc\"");
	CHECK_SHREDDED(variant(leaf("typed_value", PQ_OPTIONAL, PQ_DOUBLE, PQ_LT_NONE)),
				   v_group(3, META_EMPTY, v_null(), v_double(-0.0)), "-0");
}

/* Types the shredding spec does not list are corrupt, null or not. */
static void
test_shredded_bad_types(void)
{
	PqSchemaNode *u32 = leaf("typed_value", PQ_OPTIONAL, PQ_INT32, PQ_LT_INTEGER);
	PqSchemaNode *flba = leaf("typed_value", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY, PQ_LT_NONE);
	PqSchemaNode *ms = leaf("typed_value", PQ_OPTIONAL, PQ_INT64, PQ_LT_TIMESTAMP);
	PqSchemaNode *timeutc = leaf("typed_value", PQ_OPTIONAL, PQ_INT64, PQ_LT_TIME);
	PqSchemaNode *dec = leaf("typed_value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_DECIMAL);

	u32->logical.int_bit_width = 32;
	u32->logical.int_is_signed = false;
	flba->type_length = 4;
	ms->logical.time_unit = PQ_UNIT_MILLIS;
	timeutc->logical.time_unit = PQ_UNIT_MICROS;
	timeutc->logical.is_adjusted_to_utc = true;
	dec->logical.decimal_precision = 39;

	CHECK_SHREDDED_ERROR(variant(u32), v_group(3, META_EMPTY, v_null(), v_i32(1)));
	CHECK_SHREDDED_ERROR(variant(u32), v_group(3, META_EMPTY, B(0x00), v_null()));
	CHECK_SHREDDED_ERROR(variant(flba), v_group(3, META_EMPTY, B(0x00), v_null()));
	CHECK_SHREDDED_ERROR(variant(ms), v_group(3, META_EMPTY, B(0x00), v_null()));
	CHECK_SHREDDED_ERROR(variant(timeutc), v_group(3, META_EMPTY, B(0x00), v_null()));
	CHECK_SHREDDED_ERROR(variant(dec), v_group(3, META_EMPTY, B(0x00), v_null()));
	CHECK_SHREDDED_ERROR(variant(leaf("typed_value", PQ_OPTIONAL, PQ_INT96, PQ_LT_NONE)),
						 v_group(3, META_EMPTY, B(0x00), v_null()));
	CHECK_SHREDDED_ERROR(variant(leaf("typed_value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_JSON)),
						 v_group(3, META_EMPTY, B(0x00), v_null()));
	/* a MAP group */
	CHECK_SHREDDED_ERROR(variant(group("typed_value", PQ_OPTIONAL, PQ_LT_MAP, 1,
									   leaf("key_value", PQ_REPEATED, PQ_BYTE_ARRAY, PQ_LT_NONE))),
						 v_group(3, META_EMPTY, B(0x00), v_null()));
	/* a repeated typed_value */
	CHECK_SHREDDED_ERROR(variant(leaf("typed_value", PQ_REPEATED, PQ_INT64, PQ_LT_NONE)),
						 v_group(3, META_EMPTY, B(0x00), v_list(0)));
}

/* The tags example: ["comedy", "drama"], ["horror", null], [...], null */
static void
test_shredded_array(void)
{
	PqSchemaNode *s = variant(list_of(leaf("typed_value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_STRING)));
	PqSchemaNode *bad;

#define ELEM(value, typed) v_group(1, v_group(2, value, typed))

	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(),
							  v_group(1, v_list(2, ELEM(v_null(), v_str("comedy")),
												ELEM(v_null(), v_str("drama"))))),
				   "[\"comedy\",\"drama\"]");
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(),
							  v_group(1, v_list(2, ELEM(v_null(), v_str("horror")),
												ELEM(B(0x00), v_null())))),
				   "[\"horror\",null]");
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, B(0x00), v_null()), "null");
	/* empty list, as an empty LIST value or as no occurrences at all */
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(), v_group(1, v_list(0))), "[]");
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(), v_group(1, v_null())), "[]");
	/* an element of another type in value */
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(),
							  v_group(1, v_list(1, ELEM(B(3 << 2, 7), v_null())))),
				   "[7]");
	/* a missing element where a value is required: Variant null */
	CHECK_SHREDDED(s, v_group(3, META_EMPTY, v_null(),
							  v_group(1, v_list(1, ELEM(v_null(), v_null())))),
				   "[null]");
	/* not an array in value while typed_value is one */
	CHECK_SHREDDED_ERROR(s, v_group(3, META_EMPTY, B(0x00),
									v_group(1, v_list(0))));
	/* an element with both */
	CHECK_SHREDDED_ERROR(s, v_group(3, META_EMPTY, v_null(),
									v_group(1, v_list(1, ELEM(B(0x00), v_str("x"))))));
	/* a null element group of required elements */
	CHECK_SHREDDED_ERROR(s, v_group(3, META_EMPTY, v_null(),
									v_group(1, v_list(1, v_group(1, v_null())))));
	/* optional element groups (DuckDB writes them); a null one is null */
	bad = variant(group("typed_value", PQ_OPTIONAL, PQ_LT_LIST, 1,
						group("list", PQ_REPEATED, PQ_LT_NONE, 1,
							  group("element", PQ_OPTIONAL, PQ_LT_NONE, 1,
									leaf("value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_NONE)))));
	CHECK_SHREDDED(bad, v_group(3, META_EMPTY, v_null(),
								v_group(1, v_list(2, v_group(1, v_group(1, B(0x0C, 5))),
												  v_group(1, v_null())))),
				   "[5,null]");
	bad = variant(group("typed_value", PQ_OPTIONAL, PQ_LT_LIST, 1,
						leaf("element", PQ_REPEATED, PQ_BYTE_ARRAY, PQ_LT_NONE)));
	CHECK_SHREDDED_ERROR(bad, v_group(3, META_EMPTY, v_null(), v_group(1, v_list(0))));
#undef ELEM
}

/*
 * The event example: typed_value {event_type: string, event_ts:
 * timestamp(true, MICROS)}; each row of the spec's table.
 */
static void
test_shredded_object(void)
{
	PqSchemaNode *ts = leaf("typed_value", PQ_OPTIONAL, PQ_INT64, PQ_LT_TIMESTAMP);
	PqSchemaNode *s;

	ts->logical.is_adjusted_to_utc = true;
	ts->logical.time_unit = PQ_UNIT_MICROS;
	s = variant(group("typed_value", PQ_OPTIONAL, PQ_LT_NONE, 2,
					  field("event_type", leaf("typed_value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_STRING)),
					  field("event_ts", ts)));

#define OBJ(value, type_v, type_t, ts_v, ts_t) \
	v_group(3, META_EVENT, value, v_group(2, v_group(2, type_v, type_t), v_group(2, ts_v, ts_t)))

	/* fully shredded */
	CHECK_SHREDDED(s, OBJ(v_null(), v_null(), v_str("noop"), v_null(), v_i64(INT64CONST(1729794114937000))),
				   "{\"event_ts\":\"2024-10-24T18:21:54.937+00:00\",\"event_type\":\"noop\"}");
	/* partially shredded: {"email": "user@example.com"} in value (id 2) */
	CHECK_SHREDDED(s, OBJ(B(0x02, 1, 2, 0, 17, (16 << 2) | 1, 'u', 's', 'e', 'r', '@', 'e', 'x', 'a', 'm', 'p', 'l', 'e', '.', 'c', 'o', 'm'),
						  v_null(), v_str("login"), v_null(), v_i64(INT64CONST(1729794146402000))),
				   "{\"email\":\"user@example.com\",\"event_ts\":\"2024-10-24T18:22:26.402+00:00\",\"event_type\":\"login\"}");
	/* all shredded fields missing, the rest in value (error_msg, id 3) */
	CHECK_SHREDDED(s, OBJ(B(0x02, 1, 3, 0, 2, (1 << 2) | 1, 'm'),
						  v_null(), v_null(), v_null(), v_null()),
				   "{\"error_msg\":\"m\"}");
	/* not an object: typed_value null, value a string */
	CHECK_SHREDDED(s, v_group(3, META_EVENT, B((3 << 2) | 1, 'n', 'o', 't'), v_null()), "\"not\"");
	/* field event_type missing, click in value (id 4) */
	CHECK_SHREDDED(s, OBJ(B(0x02, 1, 4, 0, 2, (1 << 2) | 1, 'b'),
						  v_null(), v_null(), v_null(), v_i64(0)),
				   "{\"click\":\"b\",\"event_ts\":\"1970-01-01T00:00:00+00:00\"}");
	/* event_type present and null */
	CHECK_SHREDDED(s, OBJ(v_null(), B(0x00), v_null(), v_null(), v_i64(0)),
				   "{\"event_ts\":\"1970-01-01T00:00:00+00:00\",\"event_type\":null}");
	/* event_ts present but not a timestamp */
	CHECK_SHREDDED(s, OBJ(v_null(), v_null(), v_str("noop"), B((10 << 2) | 1, '2', '0', '2', '4', '-', '1', '0', '-', '2', '4'), v_null()),
				   "{\"event_ts\":\"2024-10-24\",\"event_type\":\"noop\"}");
	/* empty object */
	CHECK_SHREDDED(s, OBJ(v_null(), v_null(), v_null(), v_null(), v_null()), "{}");
	/* null, and missing (Variant null at the top) */
	CHECK_SHREDDED(s, v_group(3, META_EVENT, B(0x00), v_null()), "null");
	CHECK_SHREDDED(s, v_group(3, META_EVENT, v_null(), v_null()), "null");

	/* INVALID: a shredded field present in value */
	CHECK_SHREDDED_ERROR(s, OBJ(B(0x02, 1, 0, 0, 2, (1 << 2) | 1, 'x'),
								v_null(), v_str("login"), v_null(), v_i64(0)));
	/* ... even when the shredded field is missing in this row */
	CHECK_SHREDDED_ERROR(s, OBJ(B(0x02, 1, 0, 0, 2, (1 << 2) | 1, 'x'),
								v_null(), v_null(), v_null(), v_i64(0)));
	/* INVALID: shredded field in value while typed_value is null */
	CHECK_SHREDDED_ERROR(s, v_group(3, META_EVENT, B(0x02, 1, 0, 0, 2, (1 << 2) | 1, 'x'), v_null()));
	/* INVALID: typed_value present and value not an object */
	CHECK_SHREDDED_ERROR(s, OBJ(B((1 << 2) | 1, 'a'), v_null(), v_null(), v_null(), v_null()));
	/* INVALID: {} in value with typed_value null */
	CHECK_SHREDDED_ERROR(s, v_group(3, META_EVENT, B(0x02, 0x00, 0x00), v_null()));
	/* a field with both value and typed_value */
	CHECK_SHREDDED_ERROR(s, OBJ(v_null(), B(0x00), v_str("x"), v_null(), v_null()));
	/* a partially shredded value with keys in any order (email, click), as DuckDB writes them */
	CHECK_SHREDDED(s, OBJ(B(0x02, 2, 2, 4, 0, 1, 2, 0x04, 0x00), v_null(), v_null(), v_null(), v_null()),
				   "{\"click\":null,\"email\":true}");
	CHECK_SHREDDED(s, OBJ(B(0x02, 2, 4, 2, 0, 1, 2, 0x00, 0x04), v_null(), v_null(), v_null(), v_null()),
				   "{\"click\":null,\"email\":true}");
	/* ... but each once */
	CHECK_SHREDDED_ERROR(s, OBJ(B(0x02, 2, 4, 4, 0, 1, 2, 0x00, 0x04), v_null(), v_null(), v_null(), v_null()));
	/* a corrupt partially shredded value */
	CHECK_SHREDDED_ERROR(s, OBJ(B(0x02, 1, 9, 0, 1, 0x00), v_null(), v_null(), v_null(), v_null()));
	CHECK_SHREDDED_ERROR(s, OBJ(B(0x02, 0, 0, 0x00), v_null(), v_null(), v_null(), v_null()));
#undef OBJ
}

/*
 * Field groups are groups of value/typed_value: required as the spec says,
 * or optional as DuckDB and hyparquet-writer write them (null: missing).
 */
static void
test_shredded_object_schema(void)
{
	PqSchemaNode *s;

	/* optional field group: present, and null (the field is missing) */
	s = variant(group("typed_value", PQ_OPTIONAL, PQ_LT_NONE, 1,
					  group("a", PQ_OPTIONAL, PQ_LT_NONE, 1,
							leaf("value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_NONE))));
	CHECK_SHREDDED(s, v_group(3, B(0x01, 1, 0, 1, 'a'), v_null(), v_group(1, v_group(1, B(0x00)))),
				   "{\"a\":null}");
	CHECK_SHREDDED(s, v_group(3, B(0x01, 1, 0, 1, 'a'), v_null(), v_group(1, v_null())),
				   "{}");
	/* a leaf where a field group belongs */
	s = variant(group("typed_value", PQ_OPTIONAL, PQ_LT_NONE, 1,
					  leaf("a", PQ_REQUIRED, PQ_INT32, PQ_LT_NONE)));
	CHECK_SHREDDED_ERROR(s, v_group(3, B(0x01, 1, 0, 1, 'a'), v_null(), v_group(1, v_i32(1))));
	/* a field group with neither value nor typed_value */
	s = variant(group("typed_value", PQ_OPTIONAL, PQ_LT_NONE, 1,
					  group("a", PQ_REQUIRED, PQ_LT_NONE, 1,
							leaf("other", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_NONE))));
	CHECK_SHREDDED_ERROR(s, v_group(3, B(0x01, 1, 0, 1, 'a'), v_null(), v_group(1, v_group(1, B(0x00)))));
}

/*
 * Keys come out in byte order whatever the schema's order; nested objects
 * and arrays shred recursively (the spec's Nesting example, trimmed).
 */
static void
test_shredded_nested(void)
{
	PqSchemaNode *s;

	s = variant(group("typed_value", PQ_OPTIONAL, PQ_LT_NONE, 3,
					  field("z", leaf("typed_value", PQ_OPTIONAL, PQ_INT64, PQ_LT_NONE)),
					  field("location", group("typed_value", PQ_OPTIONAL, PQ_LT_NONE, 2,
											  field("latitude", leaf("typed_value", PQ_OPTIONAL, PQ_DOUBLE, PQ_LT_NONE)),
											  field("longitude", leaf("typed_value", PQ_OPTIONAL, PQ_DOUBLE, PQ_LT_NONE)))),
					  field("tags", list_of(leaf("typed_value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_STRING)))));

	/* metadata: "m" (0), "z", "location", "latitude", "longitude", "tags" */
#define META_NESTED B(0x01, 6, 0, 1, 2, 10, 18, 27, 31, \
	'm', 'z', 'l','o','c','a','t','i','o','n', 'l','a','t','i','t','u','d','e', \
	'l','o','n','g','i','t','u','d','e', 't','a','g','s')

	CHECK_SHREDDED(s, v_group(3, META_NESTED, B(0x02, 1, 0, 0, 1, 0x04),
							  v_group(3,
									  v_group(2, v_null(), v_i64(1)),
									  v_group(2, v_null(),
											  v_group(2, v_group(2, v_null(), v_double(1.5)),
													  v_group(2, B(0x00), v_null()))),
									  v_group(2, v_null(),
											  v_group(1, v_list(1, v_group(1, v_group(2, v_null(), v_str("t")))))))),
				   "{\"location\":{\"latitude\":1.5,\"longitude\":null},\"m\":true,\"tags\":[\"t\"],\"z\":1}");
	/* location not an object this time: in its value */
	CHECK_SHREDDED(s, v_group(3, META_NESTED, v_null(),
							  v_group(3,
									  v_group(2, v_null(), v_null()),
									  v_group(2, B((2 << 2) | 1, 'h', 'i'), v_null()),
									  v_group(2, v_null(), v_null()))),
				   "{\"location\":\"hi\"}");
	/* a nested shredded object with a conflicting value */
	CHECK_SHREDDED_ERROR(s, v_group(3, META_NESTED, v_null(),
									v_group(3,
											v_group(2, v_null(), v_null()),
											v_group(2, B(0x00),
													v_group(2, v_group(2, v_null(), v_null()),
															v_group(2, v_null(), v_null()))),
											v_group(2, v_null(), v_null()))));
#undef META_NESTED
}

void
suite_variant(void)
{
	ut_run("variant: every primitive type", test_variant_primitives);
	ut_run("variant: objects and arrays, every width", test_variant_objects);
	ut_run("variant: corrupt encodings", test_variant_corrupt);
	ut_run("variant shredded: unshredded, SQL NULL, group shape", test_shredded_unshredded_and_null);
	ut_run("variant shredded: primitives", test_shredded_primitive);
	ut_run("variant shredded: types the spec does not allow", test_shredded_bad_types);
	ut_run("variant shredded: arrays", test_shredded_array);
	ut_run("variant shredded: objects (the spec's event table)", test_shredded_object);
	ut_run("variant shredded: field group shapes", test_shredded_object_schema);
	ut_run("variant shredded: nesting and key order", test_shredded_nested);
}
