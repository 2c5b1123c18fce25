/*-------------------------------------------------------------------------
 *
 * shredded.c
 *		A shredded VARIANT group, assembled into a PqValue tree, as JSON
 *		text: the Variant Shredding spec's "Reconstructing a Shredded
 *		Variant", rendered by the rules of docs/JSON.md.
 *
 * Each level is a (value, typed_value) pair of optional columns, found by
 * name.  typed_value holds a primitive (its Parquet type says which
 * Variant type), a LIST of element pairs (an array) or a group of field
 * pairs (an object, merged with the unshredded fields of value when value
 * is an object too).  Both null means "missing": a field that does not
 * exist, or Variant null where a value is required.  Combinations the spec
 * calls invalid are corrupt data.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/json/render.h"
#include "format/variant/variant.h"
#include "format/variant/variant_binary.h"

/* A value/typed_value pair: nodes NULL when the schema lacks the column */
typedef struct ShreddedPair
{
	const PqSchemaNode *value_node;
	const PqSchemaNode *typed_node;
	const PqValue *value;
	const PqValue *typed;
} ShreddedPair;

/* One output field of a reconstructed object */
typedef struct ObjectEntry
{
	const uint8 *key;
	size_t		key_len;
	bool		shredded;
	bool		missing;		/* a shredded field absent in this row */
	ShreddedPair pair;			/* shredded fields */
	const uint8 *bin;			/* fields of value: the encoded value */
	size_t		bin_avail;
} ObjectEntry;

static bool render_pair(PqBuffer *buf, const PqVariantMeta *m,
						const ShreddedPair *pair, int depth);

static bool
is_null(const PqValue *v)
{
	return v == NULL || v->kind == PQ_VAL_NULL;
}

/* The child of group node g called name (or NULL) and its value in gv. */
static const PqSchemaNode *
child_by_name(const PqSchemaNode *g, const PqValue *gv, const char *name,
			  const PqValue **value)
{
	int			i;

	for (i = 0; i < g->n_children; i++)
	{
		if (strcmp(g->children[i]->name, name) != 0)
			continue;
		if (value)
		{
			*value = NULL;
			if (gv != NULL && gv->kind == PQ_VAL_GROUP)
			{
				if (gv->u.children.n != g->n_children)
					elog(ERROR, "group value of \"%s\" has %d children, its node %d",
						 g->name, gv->u.children.n, g->n_children);
				*value = &gv->u.children.items[i];
			}
		}
		return g->children[i];
	}
	if (value)
		*value = NULL;
	return NULL;
}

/*
 * A short name of a node's logical type for messages (format/metadata/schema.c's
 * pq_logical_type_string is not available to the standalone unit build).
 */
static const char *
type_name(const PqSchemaNode *n)
{
	const PqLogicalType *lt = &n->logical;
	static const char *const units[] = {"", "MILLIS", "MICROS", "NANOS"};
	const char *unit = lt->time_unit >= 0 && lt->time_unit <= 3 ?
	units[lt->time_unit] : "?";

	switch (lt->id)
	{
		case PQ_LT_NONE:
			return "without logical type";
		case PQ_LT_INTEGER:
			return psprintf("INTEGER(%d, %s)", lt->int_bit_width,
							lt->int_is_signed ? "signed" : "unsigned");
		case PQ_LT_DECIMAL:
			return psprintf("DECIMAL(%d, %d)", lt->decimal_precision,
							lt->decimal_scale);
		case PQ_LT_TIME:
		case PQ_LT_TIMESTAMP:
			return psprintf("%s(%s, %s)", lt->id == PQ_LT_TIME ? "TIME" : "TIMESTAMP",
							lt->is_adjusted_to_utc ? "UTC" : "local", unit);
		case PQ_LT_STRING:
			return "STRING";
		case PQ_LT_LIST:
			return "LIST";
		case PQ_LT_MAP:
			return "MAP";
		case PQ_LT_UUID:
			return "UUID";
		default:
			return psprintf("logical type %d", lt->id);
	}
}

/* Shredded primitives may use only the types the shredding spec lists. */
static void
check_shredded_leaf(const PqSchemaNode *n)
{
	const PqLogicalType *lt = &n->logical;
	bool		ok;

	switch (n->physical_type)
	{
		case PQ_BOOLEAN:
		case PQ_FLOAT:
		case PQ_DOUBLE:
			ok = lt->id == PQ_LT_NONE;
			break;
		case PQ_INT32:
			ok = lt->id == PQ_LT_NONE || lt->id == PQ_LT_DATE ||
				lt->id == PQ_LT_DECIMAL ||
				(lt->id == PQ_LT_INTEGER && lt->int_is_signed &&
				 lt->int_bit_width <= 32);
			break;
		case PQ_INT64:
			ok = lt->id == PQ_LT_NONE || lt->id == PQ_LT_DECIMAL ||
				(lt->id == PQ_LT_INTEGER && lt->int_is_signed &&
				 lt->int_bit_width == 64) ||
				(lt->id == PQ_LT_TIME && !lt->is_adjusted_to_utc &&
				 lt->time_unit == PQ_UNIT_MICROS) ||
				(lt->id == PQ_LT_TIMESTAMP &&
				 (lt->time_unit == PQ_UNIT_MICROS || lt->time_unit == PQ_UNIT_NANOS));
			break;
		case PQ_BYTE_ARRAY:
			ok = lt->id == PQ_LT_NONE || lt->id == PQ_LT_STRING ||
				lt->id == PQ_LT_DECIMAL;
			break;
		case PQ_FIXED_LEN_BYTE_ARRAY:
			ok = lt->id == PQ_LT_DECIMAL ||
				(lt->id == PQ_LT_UUID && n->type_length == 16);
			break;
		default:
			ok = false;
			break;
	}
	if (ok && lt->id == PQ_LT_DECIMAL && lt->decimal_precision > 38)
		ok = false;
	if (!ok)
		pq_corrupt("shredded Variant column \"%s\" has type %s %s, which the Variant shredding spec does not allow",
				   n->name, pq_physical_type_name(n->physical_type),
				   type_name(n));
}

/*
 * The value/typed_value pair of group node g (value gv, NULL when the
 * group itself is null), checking the columns' shapes.
 */
static void
get_pair(const PqSchemaNode *g, const PqValue *gv, ShreddedPair *pair)
{
	pair->value_node = child_by_name(g, gv, "value", &pair->value);
	pair->typed_node = child_by_name(g, gv, "typed_value", &pair->typed);
	if (pair->value_node == NULL && pair->typed_node == NULL)
		pq_corrupt("shredded Variant group \"%s\" has neither a value nor a typed_value field",
				   g->name);
	if (pair->value_node &&
		(!pair->value_node->is_leaf ||
		 pair->value_node->physical_type != PQ_BYTE_ARRAY ||
		 pair->value_node->repetition == PQ_REPEATED))
		pq_corrupt("Variant field \"value\" in \"%s\" is not a binary column",
				   g->name);
	if (pair->typed_node && pair->typed_node->repetition == PQ_REPEATED)
		pq_corrupt("Variant field \"typed_value\" in \"%s\" is repeated",
				   g->name);
}

/* The encoded value bytes of a non-null value column entry */
static void
value_bytes(const PqValue *v, const uint8 **p, size_t *len)
{
	if (v->kind != PQ_VAL_SCALAR)
		elog(ERROR, "Variant value column entry is not a scalar");
	*p = v->u.scalar.bytes.ptr;
	*len = v->u.scalar.bytes.len;
}

static void
render_binary_exact(PqBuffer *buf, const PqVariantMeta *m, const PqValue *v,
					int depth)
{
	const uint8 *p;
	size_t		len;
	size_t		used;

	value_bytes(v, &p, &len);
	used = pq_variant_render(buf, m, p, len, depth);
	if (used != len)
		pq_corrupt("Variant value of %zu bytes is followed by %zu more bytes",
				   used, len - used);
}

/*
 * typed_value as a LIST: repeated group (one occurrence per element) of a
 * required element group holding the element's pair.
 */
static void
render_shredded_array(PqBuffer *buf, const PqVariantMeta *m,
					  const PqSchemaNode *list_node, const PqValue *list,
					  int depth)
{
	const PqSchemaNode *rep;
	const PqSchemaNode *elem;
	const PqValue *occ;
	int			i;

	if (list_node->n_children != 1 ||
		list_node->children[0]->repetition != PQ_REPEATED ||
		list_node->children[0]->is_leaf ||
		list_node->children[0]->n_children != 1 ||
		list_node->children[0]->children[0]->is_leaf ||
		list_node->children[0]->children[0]->repetition == PQ_REPEATED)
		pq_corrupt("shredded Variant array \"%s\" is not a 3-level LIST of element groups",
				   list_node->name);
	rep = list_node->children[0];
	elem = rep->children[0];
	if (list->kind != PQ_VAL_GROUP || list->u.children.n != 1)
		elog(ERROR, "LIST value of \"%s\" is not a group of one child",
			 list_node->name);
	occ = &list->u.children.items[0];

	pq_buffer_append_byte(buf, '[');
	for (i = 0; occ->kind == PQ_VAL_LIST && i < occ->u.children.n; i++)
	{
		const PqValue *item = &occ->u.children.items[i];
		const PqValue *ev = NULL;
		ShreddedPair pair;

		if (item->kind == PQ_VAL_GROUP && item->u.children.n == 1)
			ev = &item->u.children.items[0];
		/* required element groups as the spec says; DuckDB's are optional */
		if (is_null(ev) && elem->repetition == PQ_REQUIRED)
			pq_corrupt("shredded Variant array \"%s\" has a null element group",
					   list_node->name);
		get_pair(elem, ev, &pair);
		if (i > 0)
			pq_buffer_append_byte(buf, ',');
		/* a missing element is where a value is required: Variant null */
		if (!render_pair(buf, m, &pair, depth + 1))
			pq_buffer_append(buf, "null", 4);
	}
	pq_buffer_append_byte(buf, ']');
}

static int
entry_cmp(const void *a, const void *b)
{
	const ObjectEntry *x = a;
	const ObjectEntry *y = b;

	return pq_variant_key_cmp(x->key, x->key_len, y->key, y->key_len);
}

/*
 * typed_value as a group of fields, each a required group with its own
 * pair; merged with the fields of value (a partially shredded object)
 * when value is not null.
 */
static void
render_shredded_object(PqBuffer *buf, const PqVariantMeta *m,
					   const PqSchemaNode *obj_node, const PqValue *obj,
					   const PqValue *value, int depth)
{
	PqVariantObject rest;
	ObjectEntry *entries;
	int			n = 0;
	int			max;
	int			i;
	bool		first = true;
	size_t		used = 0;

	max = obj_node->n_children;
	if (value != NULL)
	{
		const uint8 *p;
		size_t		len;

		value_bytes(value, &p, &len);
		if (!pq_variant_object_open(&rest, p, len))
			pq_corrupt("shredded Variant object \"%s\" has a value that is not an object",
					   obj_node->name);
		if (rest.size != len)
			pq_corrupt("Variant value of %zu bytes is followed by %zu more bytes",
					   rest.size, len - rest.size);
		max += rest.n;
	}
	entries = palloc(sizeof(ObjectEntry) * Max(max, 1));
	if (obj->kind != PQ_VAL_GROUP || obj->u.children.n != obj_node->n_children)
		elog(ERROR, "group value of \"%s\" does not match its node",
			 obj_node->name);

	for (i = 0; i < obj_node->n_children; i++)
	{
		const PqSchemaNode *f = obj_node->children[i];
		ObjectEntry *e = &entries[n++];

		/*
		 * The spec asks for required groups; DuckDB and hyparquet-writer
		 * write optional ones, whose null means the field is missing.
		 */
		if (f->is_leaf || f->repetition == PQ_REPEATED)
			pq_corrupt("shredded Variant field \"%s\" is not a group",
					   f->name);
		e->key = (const uint8 *) f->name;
		e->key_len = strlen(f->name);
		e->shredded = true;
		get_pair(f, &obj->u.children.items[i], &e->pair);
		e->missing = is_null(e->pair.value) && is_null(e->pair.typed);
	}
	if (value != NULL)
	{
		uint32		j;

		for (j = 0; j < rest.n; j++)
		{
			ObjectEntry *e = &entries[n++];

			/* in any order (DuckDB's are unsorted): sorted below */
			pq_variant_object_field(&rest, m, j, &e->key, &e->key_len,
									&e->bin, &e->bin_avail);
			e->shredded = false;
			e->missing = false;
		}
	}

	qsort(entries, n, sizeof(ObjectEntry), entry_cmp);
	for (i = 1; i < n; i++)
		if (entry_cmp(&entries[i - 1], &entries[i]) == 0)
			pq_corrupt("shredded Variant object \"%s\" has field \"%.*s\" both shredded and in its value (or twice)",
					   obj_node->name, (int) Min(entries[i].key_len, 100),
					   (const char *) entries[i].key);

	pq_buffer_append_byte(buf, '{');
	for (i = 0; i < n; i++)
	{
		ObjectEntry *e = &entries[i];

		if (e->missing)
			continue;
		if (!first)
			pq_buffer_append_byte(buf, ',');
		first = false;
		pq_json_string(buf, (const char *) e->key, e->key_len);
		pq_buffer_append_byte(buf, ':');
		if (e->shredded)
			render_pair(buf, m, &e->pair, depth + 1);
		else
		{
			used += pq_variant_render(buf, m, e->bin, e->bin_avail, depth + 1);
			pq_variant_check_disjoint(used, rest.data_len, "object");
		}
	}
	pq_buffer_append_byte(buf, '}');
	pfree(entries);
}

/*
 * Render the value a pair stands for; false (nothing rendered) when it is
 * missing.
 */
static bool
render_pair(PqBuffer *buf, const PqVariantMeta *m, const ShreddedPair *pair,
			int depth)
{
	bool		has_value = !is_null(pair->value);
	const PqSchemaNode *tn = pair->typed_node;

	if (depth > PQ_VARIANT_MAX_DEPTH)
		pq_corrupt("Variant value is nested deeper than %d levels",
				   PQ_VARIANT_MAX_DEPTH);
	if (tn != NULL && !tn->is_leaf && tn->logical.id != PQ_LT_LIST &&
		tn->logical.id != PQ_LT_NONE)
		pq_corrupt("shredded Variant group \"%s\" is annotated %s (only LIST or nothing is allowed)",
				   tn->name, type_name(tn));
	if (tn != NULL && tn->is_leaf)
		check_shredded_leaf(tn);

	if (!is_null(pair->typed))
	{
		if (tn->is_leaf || tn->logical.id == PQ_LT_LIST)
		{
			if (has_value)
				pq_corrupt("shredded Variant \"%s\" has both value and typed_value, and is not an object",
						   tn->name);
			if (tn->is_leaf)
				pq_json_scalar(buf, tn, pair->typed);
			else
				render_shredded_array(buf, m, tn, pair->typed, depth);
		}
		else
			render_shredded_object(buf, m, tn, pair->typed,
								   has_value ? pair->value : NULL, depth);
		return true;
	}
	if (!has_value)
		return false;

	/* an object must be in typed_value when that shreds objects */
	if (tn != NULL && !tn->is_leaf && tn->logical.id == PQ_LT_NONE)
	{
		const uint8 *p;
		size_t		len;

		value_bytes(pair->value, &p, &len);
		if (len > 0 && (p[0] & 3) == PQ_VARIANT_OBJECT)
			pq_corrupt("shredded Variant object \"%s\" is null while its value is an object",
					   tn->name);
	}
	render_binary_exact(buf, m, pair->value, depth);
	return true;
}

bool
pq_variant_group_to_json(PqBuffer *buf, const PqValue *v)
{
	const PqSchemaNode *g = v->node;
	const PqSchemaNode *meta_node;
	const PqValue *meta;
	const uint8 *p;
	size_t		len;
	PqVariantMeta m;
	ShreddedPair pair;

	if (v->kind == PQ_VAL_NULL)
		return false;
	if (v->kind != PQ_VAL_GROUP || g->is_leaf)
		elog(ERROR, "VARIANT value of \"%s\" is not a group", g->name);

	meta_node = child_by_name(g, v, "metadata", &meta);
	if (meta_node == NULL || !meta_node->is_leaf ||
		meta_node->physical_type != PQ_BYTE_ARRAY)
		pq_corrupt("VARIANT group \"%s\" has no binary metadata field", g->name);
	if (is_null(meta))
		pq_corrupt("VARIANT group \"%s\" has a null metadata", g->name);
	get_pair(g, v, &pair);
	value_bytes(meta, &p, &len);
	pq_variant_meta_parse(&m, p, len);

	/* a missing value where one is required is Variant null */
	if (!render_pair(buf, &m, &pair, 0))
		pq_buffer_append(buf, "null", 4);
	return true;
}
