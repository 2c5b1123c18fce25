/*
 * fuzz_variant.c
 *		VARIANT to JSON.  First byte even: metadata and value bytes (the
 *		next two bytes give the metadata's length) through the binary
 *		decoder.  Odd: a shredded VARIANT group (typed fields of several
 *		types, a nested object, an array of elements) whose values the input
 *		fills in, through the shredded merge.  Whatever is rendered must be
 *		valid JSON.
 */
#include "fuzz.h"

#include "format/json/render.h"
#include "format/metadata/nested_value.h"
#include "format/variant/variant.h"

#define VAL(n) FUZZ_LEAF(n, PQ_OPTIONAL, PQ_BYTE_ARRAY, 0)

static const FuzzElem shredded[] = {
	FUZZ_GROUP("v", PQ_OPTIONAL, 3, -1, PQ_LT_VARIANT),
	FUZZ_LEAF("metadata", PQ_REQUIRED, PQ_BYTE_ARRAY, 0),
	VAL("value"),
	FUZZ_GROUP("typed_value", PQ_OPTIONAL, 4, -1, 0),
	FUZZ_GROUP("a", PQ_REQUIRED, 2, -1, 0),
	VAL("value"),
	FUZZ_LEAF("typed_value", PQ_OPTIONAL, PQ_INT64, 0),
	FUZZ_GROUP("b", PQ_REQUIRED, 2, -1, 0),
	VAL("value"),
	FUZZ_LEAF("typed_value", PQ_OPTIONAL, PQ_BYTE_ARRAY, PQ_LT_STRING),
	FUZZ_GROUP("o", PQ_REQUIRED, 2, -1, 0),
	VAL("value"),
	FUZZ_GROUP("typed_value", PQ_OPTIONAL, 1, -1, 0),
	FUZZ_GROUP("z", PQ_REQUIRED, 2, -1, 0),
	VAL("value"),
	FUZZ_LEAF("typed_value", PQ_OPTIONAL, PQ_DOUBLE, 0),
	FUZZ_GROUP("arr", PQ_REQUIRED, 2, -1, 0),
	VAL("value"),
	FUZZ_GROUP("typed_value", PQ_OPTIONAL, 1, PQ_CT_LIST, PQ_LT_LIST),
	FUZZ_GROUP("list", PQ_REPEATED, 1, -1, 0),
	FUZZ_GROUP("element", PQ_REQUIRED, 2, -1, 0),
	VAL("value"),
	FUZZ_LEAF("typed_value", PQ_OPTIONAL, PQ_INT32, 0),
};

/* A value of node drawn from the input, as the assembler would build it. */
static void
gen(FuzzInput *in, const PqSchemaNode *node, PqValue *v, bool occurrence)
{
	int			i;

	memset(v, 0, sizeof(*v));
	v->node = node;
	v->vindex = -1;
	if (node->repetition == PQ_REPEATED && !occurrence)
	{
		v->kind = PQ_VAL_LIST;
		v->u.children.n = fuzz_byte(in) % 4;
		v->u.children.items = palloc0(sizeof(PqValue) * Max(v->u.children.n, 1));
		for (i = 0; i < v->u.children.n; i++)
			gen(in, node, &v->u.children.items[i], true);
		return;
	}
	if (node->repetition == PQ_OPTIONAL && (fuzz_byte(in) & 1))
	{
		v->kind = PQ_VAL_NULL;
		return;
	}
	if (!node->is_leaf)
	{
		v->kind = PQ_VAL_GROUP;
		v->u.children.n = node->n_children;
		v->u.children.items = palloc0(sizeof(PqValue) * node->n_children);
		for (i = 0; i < node->n_children; i++)
			gen(in, node->children[i], &v->u.children.items[i], false);
		return;
	}
	v->kind = PQ_VAL_SCALAR;
	switch (node->physical_type)
	{
		case PQ_INT32:
			v->u.scalar.i32 = (int32) fuzz_u32(in);
			break;
		case PQ_INT64:
			v->u.scalar.i64 = (int64) ((uint64) fuzz_u32(in) << (fuzz_byte(in) % 33));
			break;
		case PQ_DOUBLE:
			{
				uint64		bits = (uint64) fuzz_u32(in) << 32 | fuzz_u32(in);

				memcpy(&v->u.scalar.d, &bits, 8);
			}
			break;
		default:
			{
				size_t		got;
				uint8	   *p = fuzz_bytes(in, fuzz_byte(in) % 48, &got);

				v->u.scalar.bytes.ptr = p;
				v->u.scalar.bytes.len = (uint32) got;
			}
			break;
	}
}

static void
check_json(const PqBuffer *buf)
{
	if (!pq_json_valid(buf->data, buf->len))
	{
		fprintf(stderr, "fuzz_variant: invalid JSON: %.*s\n",
				(int) Min(buf->len, 200), (const char *) buf->data);
		abort();
	}
}

static void
one(const uint8 *data, size_t size)
{
	FuzzInput	in = {data, size};
	PqBuffer	buf;

	pq_buffer_init(&buf, 64);
	if ((fuzz_byte(&in) & 1) == 0)
	{
		size_t		mlen = fuzz_byte(&in) | (size_t) fuzz_byte(&in) << 8;
		size_t		mgot;
		size_t		vgot;
		uint8	   *meta = fuzz_bytes(&in, mlen, &mgot);
		uint8	   *value = fuzz_bytes(&in, in.left, &vgot);

		pq_variant_binary_to_json(&buf, meta, mgot, value, vgot);
		check_json(&buf);
	}
	else
	{
		PqSchema   *schema = fuzz_schema(shredded, lengthof(shredded));
		PqValue		v;

		gen(&in, schema->root->children[0], &v, false);
		if (pq_variant_group_to_json(&buf, &v))
			check_json(&buf);
	}
}

int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
