/*-------------------------------------------------------------------------
 *
 * avro_guard.c
 *		Checks that keep libavro to input it handles: the schema's JSON,
 *		the parsed schema, and each record's bytes (avro_guard.h says
 *		what libavro does with unchecked input).
 *
 * A record's bytes are checked by walking the schema as libavro's decoder
 * (value-read.c) will, over a compiled copy of the schema libavro parsed,
 * so that both read the same grammar: named types are followed as libavro
 * resolved them, not as this file would.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>
#include <string.h>

#include "table/iceberg/avro_guard.h"

struct PqAvroNode
{
	avro_type_t type;
	int			nkids;			/* record fields, union branches; 1 for an
								 * array's items and a map's values */
	PqAvroNode **kids;
	int64		size;			/* FIXED: bytes; ENUM: symbols */
	int64		min;			/* fewest bytes a value takes */
};

/* ---------------------------------------------------------------- JSON */

typedef struct JsonCheck
{
	const char **names;			/* named types' last name parts */
	int			nnames;
	int			cap;
	const char *why;
} JsonCheck;

static void
add_name(JsonCheck *c, const char *name)
{
	const char *dot = strrchr(name, '.');

	if (c->nnames == c->cap)
	{
		c->cap = c->cap ? c->cap * 2 : 16;
		c->names = c->names ? repalloc(c->names, c->cap * sizeof(char *))
			: palloc(c->cap * sizeof(char *));
	}
	c->names[c->nnames++] = dot ? dot + 1 : name;
}

static bool
json_type(const PqJv *v, JsonCheck *c)
{
	const PqJv *t;
	const char *type;
	uint32		i;

	if (v->type == PQ_JV_ARRAY)
	{
		/* a union */
		for (i = 0; i < v->len; i++)
		{
			if (v->u.items[i].type == PQ_JV_ARRAY)
			{
				c->why = "the schema has a union directly inside a union";
				return false;
			}
			if (!json_type(&v->u.items[i], c))
				return false;
		}
		return true;
	}
	if (v->type != PQ_JV_OBJECT)
		return true;			/* a type's name: libavro resolves it */
	t = pq_jv_get(v, "type");
	type = pq_jv_str(t);
	if (type == NULL)
		return true;			/* libavro refuses a "type" not a string */
	if (strcmp(type, "record") == 0 || strcmp(type, "error") == 0 ||
		strcmp(type, "enum") == 0 || strcmp(type, "fixed") == 0)
	{
		const char *name = pq_jv_str(pq_jv_get(v, "name"));

		if (name != NULL)
			add_name(c, name);
	}
	if (strcmp(type, "record") == 0 || strcmp(type, "error") == 0)
	{
		const PqJv *fields = pq_jv_get(v, "fields");

		if (fields == NULL || fields->type != PQ_JV_ARRAY)
			return true;
		for (i = 0; i < fields->len; i++)
		{
			const PqJv *f = &fields->u.items[i];
			const PqJv *ft = pq_jv_get(f, "type");

			if (pq_jv_str(pq_jv_get(f, "name")) == NULL || ft == NULL)
			{
				c->why = "the schema has a record field without a name or a type";
				return false;
			}
			if (!json_type(ft, c))
				return false;
		}
	}
	else if (strcmp(type, "array") == 0 && pq_jv_get(v, "items") != NULL)
		return json_type(pq_jv_get(v, "items"), c);
	else if (strcmp(type, "map") == 0 && pq_jv_get(v, "values") != NULL)
		return json_type(pq_jv_get(v, "values"), c);
	else if (t->type != PQ_JV_STRING)
		return json_type(t, c);
	return true;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

bool
pq_avro_guard_json(const PqJv *schema, const char **why)
{
	JsonCheck	c;
	int			i;

	memset(&c, 0, sizeof(c));
	/* json_tree bounds the nesting, so this recursion is bounded too */
	if (!json_type(schema, &c))
	{
		*why = c.why;
		return false;
	}
	if (c.nnames > 1)
	{
		qsort(c.names, c.nnames, sizeof(char *), cmp_names);
		for (i = 1; i < c.nnames; i++)
			if (strcmp(c.names[i - 1], c.names[i]) == 0)
			{
				*why = "the schema defines two types of one name";
				return false;
			}
	}
	if (c.names)
		pfree(c.names);
	return true;
}

/* ------------------------------------------------------------- compile */

typedef struct Compile
{
	int			nodes;
	const char *why;
} Compile;

static PqAvroNode *
compile(avro_schema_t s, int depth, Compile *c)
{
	PqAvroNode *n;
	int			i;

	if (depth > PQ_AVRO_MAX_DEPTH)
	{
		c->why = psprintf("the schema nests types deeper than %d (or is recursive)",
						  PQ_AVRO_MAX_DEPTH);
		return NULL;
	}
	if (++c->nodes > PQ_AVRO_MAX_NODES)
	{
		c->why = psprintf("the schema has more than %d types", PQ_AVRO_MAX_NODES);
		return NULL;
	}
	if (s != NULL && is_avro_link(s))
		s = avro_schema_link_target(s);
	if (s == NULL || !is_avro_schema(s))
	{
		c->why = "the schema has a type libavro did not resolve";
		return NULL;
	}
	n = palloc0(sizeof(PqAvroNode));
	n->type = avro_typeof(s);
	switch (n->type)
	{
		case AVRO_NULL:
			n->min = 0;
			break;
		case AVRO_BOOLEAN:
		case AVRO_INT32:
		case AVRO_INT64:
		case AVRO_STRING:
		case AVRO_BYTES:
			n->min = 1;
			break;
		case AVRO_FLOAT:
			n->min = 4;
			break;
		case AVRO_DOUBLE:
			n->min = 8;
			break;
		case AVRO_FIXED:
			n->size = avro_schema_fixed_size(s);
			if (n->size < 0 || n->size > PQ_AVRO_MAX_FIXED)
			{
				c->why = psprintf("the schema has a fixed type of a size outside 0 to %d",
								  PQ_AVRO_MAX_FIXED);
				return NULL;
			}
			n->min = n->size;
			break;
		case AVRO_ENUM:
			n->size = avro_schema_enum_number_of_symbols(s);
			if (n->size <= 0)
			{
				c->why = "the schema has an enum without symbols";
				return NULL;
			}
			n->min = 1;
			break;
		case AVRO_ARRAY:
		case AVRO_MAP:
			n->nkids = 1;
			n->kids = palloc(sizeof(PqAvroNode *));
			n->kids[0] = compile(n->type == AVRO_ARRAY ? avro_schema_array_items(s)
								 : avro_schema_map_values(s), depth + 1, c);
			if (n->kids[0] == NULL)
				return NULL;
			/* a count of items taking no bytes would cost nothing to claim */
			if (n->type == AVRO_ARRAY && n->kids[0]->min == 0)
			{
				c->why = "the schema has an array of items that take no bytes";
				return NULL;
			}
			n->min = 1;
			break;
		case AVRO_RECORD:
		case AVRO_UNION:
			{
				size_t		k = n->type == AVRO_RECORD ? avro_schema_record_size(s)
				: avro_schema_union_size(s);

				if (n->type == AVRO_UNION && k == 0)
				{
					c->why = "the schema has a union without branches";
					return NULL;
				}
				if (k > PQ_AVRO_MAX_NODES)
				{
					c->why = psprintf("the schema has more than %d types",
									  PQ_AVRO_MAX_NODES);
					return NULL;
				}
				n->nkids = (int) k;
				n->kids = palloc(Max(k, 1) * sizeof(PqAvroNode *));
				n->min = n->type == AVRO_RECORD ? 0 : PG_INT64_MAX;
				for (i = 0; i < n->nkids; i++)
				{
					avro_schema_t sub;

					if (n->type == AVRO_RECORD)
						sub = avro_schema_record_field_get_by_index(s, i);
					else
						sub = avro_schema_union_branch(s, i);
					n->kids[i] = compile(sub, depth + 1, c);
					if (n->kids[i] == NULL)
						return NULL;
					if (n->type == AVRO_RECORD)
						n->min += n->kids[i]->min;
					else
						n->min = Min(n->min, n->kids[i]->min);
				}
				if (n->type == AVRO_UNION)
					n->min += 1;	/* the branch's index */
				break;
			}
		default:
			c->why = "the schema has a type libavro cannot read";
			return NULL;
	}
	return n;
}

PqAvroNode *
pq_avro_guard_compile(avro_schema_t schema, const char **why)
{
	Compile		c;
	PqAvroNode *root;

	memset(&c, 0, sizeof(c));
	root = compile(schema, 1, &c);
	if (root == NULL)
		*why = c.why;
	return root;
}

int64
pq_avro_guard_min_size(const PqAvroNode *node)
{
	return node->min;
}

/* -------------------------------------------------------------- values */

bool
pq_avro_read_long(const uint8 **p, const uint8 *end, int64 *out)
{
	const uint8 *q = *p;
	uint64		v = 0;
	int			i;

	for (i = 0;; i++)
	{
		uint8		b;

		if (q == end)
			return false;
		b = *q++;
		/* the tenth byte holds the 64th bit only */
		if (i == 9 && b > 1)
			return false;
		v |= (uint64) (b & 0x7f) << (7 * i);
		if ((b & 0x80) == 0)
			break;
	}
	*p = q;
	*out = (int64) ((v >> 1) ^ (~(v & 1) + 1));
	return true;
}

typedef struct Cursor
{
	const uint8 *p;
	const uint8 *end;
	int64		values;
	const char *why;
} Cursor;

static bool
fail(Cursor *c, const char *why)
{
	c->why = why;
	return false;
}

static bool
cursor_long(Cursor *c, int64 *v)
{
	if (!pq_avro_read_long(&c->p, c->end, v))
		return fail(c, c->end - c->p >= 10 ? "a record has a varint longer than 10 bytes"
					: "a record is truncated");
	return true;
}

/* A length or count of n things of at least each bytes, that fits. */
static bool
cursor_fits(Cursor *c, int64 n, int64 each)
{
	if (n < 0)
		return fail(c, "a record has a negative length or count");
	if (each > 0 && n > (c->end - c->p) / each)
		return fail(c, "a record's length or count runs past its block");
	return true;
}

static bool check_value(const PqAvroNode *n, Cursor *c);

/* An array's or map's blocks: count, [byte size], items; 0 ends them. */
static bool
check_blocks(const PqAvroNode *n, Cursor *c)
{
	const PqAvroNode *item = n->kids[0];
	int64		each = n->type == AVRO_ARRAY ? item->min : item->min + 1;

	for (;;)
	{
		int64		count;
		int64		size = -1;
		const uint8 *start;
		int64		i;

		if (!cursor_long(c, &count))
			return false;
		if (count == 0)
			return true;
		if (count < 0)
		{
			if (count == PG_INT64_MIN)
				return fail(c, "a record has a block count out of range");
			count = -count;
			if (!cursor_long(c, &size) || !cursor_fits(c, size, 1))
				return false;
		}
		if (!cursor_fits(c, count, each))
			return false;
		start = c->p;
		for (i = 0; i < count; i++)
		{
			if (n->type == AVRO_MAP)
			{
				int64		klen;

				if (!cursor_long(c, &klen) || !cursor_fits(c, klen, 1))
					return false;
				c->p += klen;
			}
			if (!check_value(item, c))
				return false;
		}
		if (size >= 0 && c->p - start != size)
			return fail(c, "a record's array or map block has a wrong byte size");
	}
}

static bool
check_value(const PqAvroNode *n, Cursor *c)
{
	int64		v;
	int			i;

	if (++c->values > PQ_AVRO_MAX_RECORD_VALUES)
		return fail(c, psprintf("a record holds more than %d values",
								PQ_AVRO_MAX_RECORD_VALUES));
	switch (n->type)
	{
		case AVRO_NULL:
			return true;
		case AVRO_BOOLEAN:
			if (c->p == c->end)
				return fail(c, "a record is truncated");
			if (*c->p > 1)
				return fail(c, "a record has a boolean that is neither 0 nor 1");
			c->p++;
			return true;
		case AVRO_INT32:
			if (!cursor_long(c, &v))
				return false;
			if (v < PG_INT32_MIN || v > PG_INT32_MAX)
				return fail(c, "a record has an int out of range");
			return true;
		case AVRO_INT64:
			return cursor_long(c, &v);
		case AVRO_FLOAT:
		case AVRO_DOUBLE:
		case AVRO_FIXED:
			v = n->type == AVRO_FLOAT ? 4 : n->type == AVRO_DOUBLE ? 8 : n->size;
			if (c->end - c->p < v)
				return fail(c, "a record is truncated");
			c->p += v;
			return true;
		case AVRO_STRING:
		case AVRO_BYTES:
			if (!cursor_long(c, &v) || !cursor_fits(c, v, 1))
				return false;
			c->p += v;
			return true;
		case AVRO_ENUM:
			if (!cursor_long(c, &v))
				return false;
			if (v < 0 || v >= n->size)
				return fail(c, "a record has an enum symbol that does not exist");
			return true;
		case AVRO_UNION:
			if (!cursor_long(c, &v))
				return false;
			if (v < 0 || v >= n->nkids)
				return fail(c, "a record has a union branch that does not exist");
			return check_value(n->kids[v], c);
		case AVRO_RECORD:
			for (i = 0; i < n->nkids; i++)
				if (!check_value(n->kids[i], c))
					return false;
			return true;
		case AVRO_ARRAY:
		case AVRO_MAP:
			return check_blocks(n, c);
		default:
			return fail(c, "a record has a type libavro cannot read");
	}
}

bool
pq_avro_guard_record(const PqAvroNode *root, const uint8 *p, size_t len,
					 size_t *used, int64 *values, const char **why)
{
	Cursor		c;

	c.p = p;
	c.end = p + len;
	c.values = 0;
	c.why = NULL;
	if (!check_value(root, &c))
	{
		*why = c.why;
		return false;
	}
	*used = c.p - p;
	*values += c.values;
	return true;
}
