/*-------------------------------------------------------------------------
 *
 * jsonb.c
 *		Value trees of nested fields as JSON: JSON text (json columns, and
 *		what jsonb is defined by) and jsonb built directly.
 *
 * Structs become objects keyed by field name, lists arrays, maps objects
 * whose keys are the keys' JSON renderings as text (a string key as it is,
 * a number or boolean as its digits or true/false; later entries win over
 * earlier ones with the same key, as the MAP spec says), VARIANT groups
 * their Variant value; primitives follow the rules of docs/JSON.md
 * (format/json/render.c).  A NULL map key cannot be an object key: it is an
 * error.
 *
 * jsonb is built with pushJsonbValue() from the same renderings rather
 * than by parsing the whole text with jsonb_in: integers go straight to
 * numerics, strings are the rendered strings unescaped, other numbers go
 * through numeric_in as jsonb_in would take them.  Embedded JSON values
 * (JSON leaves, VARIANT groups) are parsed and spliced in.  The result is
 * the jsonb that jsonb_in would make of pqfdw_json_render()'s text.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/convert/nested.h"
#include "format/json/render.h"
#include "format/variant/variant.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

static void
null_key_error(const PqSchemaNode *key)
{
	ereport(ERROR,
			(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			 errmsg("map \"%s\" has a NULL key, which a JSON object cannot hold",
					pqfdw_node_path(key->parent->parent)),
			 errhint("Declare the column as an array of a composite type of key and value.")));
}

/* ------------------------------------------------------------ JSON text */

static void
render_map_key(PqBuffer *buf, const PqSchemaNode *node, const PqValue *key)
{
	PqBuffer	tmp;

	pq_buffer_init(&tmp, 32);
	if (!pqfdw_json_render(&tmp, node, false, key))
		null_key_error(node);
	/* a string is already a key; anything else becomes one */
	if (tmp.len > 0 && tmp.data[0] == '"')
		pq_buffer_append(buf, tmp.data, tmp.len);
	else
		pq_json_string(buf, (const char *) tmp.data, tmp.len);
	pfree(tmp.data);
}

bool
pqfdw_json_render(PqBuffer *buf, const PqSchemaNode *node, bool as_element,
				  const PqValue *slot)
{
	PqShape		sh;
	const PqValue *items;
	int			n;
	int			i;

	/* schemas nest up to 1000 levels (format/metadata/schema.c) */
	check_stack_depth();
	pq_shape_of(node, as_element, &sh);
	switch (sh.kind)
	{
		case PQ_SHAPE_VARIANT:
			return pq_variant_group_to_json(buf, slot);

		case PQ_SHAPE_PRIMITIVE:
			if (slot->kind == PQ_VAL_NULL)
				return false;
			pq_json_scalar(buf, node, slot);
			return true;

		case PQ_SHAPE_STRUCT:
			if (slot->kind == PQ_VAL_NULL)
				return false;
			pq_buffer_append_byte(buf, '{');
			for (i = 0; i < node->n_children; i++)
			{
				const PqSchemaNode *c = node->children[i];

				if (i > 0)
					pq_buffer_append_byte(buf, ',');
				pq_json_string(buf, c->name, strlen(c->name));
				pq_buffer_append_byte(buf, ':');
				if (!pqfdw_json_render(buf, c, false, &slot->u.children.items[i]))
					pq_buffer_append(buf, "null", 4);
			}
			pq_buffer_append_byte(buf, '}');
			return true;

		case PQ_SHAPE_LIST:
			if (!pq_value_items(slot, &items, &n))
				return false;
			pq_buffer_append_byte(buf, '[');
			for (i = 0; i < n; i++)
			{
				bool		occ = pq_shape_element_is_occurrence(&sh);

				if (i > 0)
					pq_buffer_append_byte(buf, ',');
				if (!pqfdw_json_render(buf, sh.element, occ,
									   pq_list_element(occ, &items[i])))
					pq_buffer_append(buf, "null", 4);
			}
			pq_buffer_append_byte(buf, ']');
			return true;

		case PQ_SHAPE_MAP:
			if (!pq_value_items(slot, &items, &n))
				return false;
			pq_buffer_append_byte(buf, '{');
			for (i = 0; i < n; i++)
			{
				const PqValue *entry = &items[i];

				if (i > 0)
					pq_buffer_append_byte(buf, ',');
				render_map_key(buf, sh.key, &entry->u.children.items[0]);
				pq_buffer_append_byte(buf, ':');
				if (sh.value == NULL ||
					!pqfdw_json_render(buf, sh.value, false,
									   &entry->u.children.items[1]))
					pq_buffer_append(buf, "null", 4);
			}
			pq_buffer_append_byte(buf, '}');
			return true;
	}
	return false;
}

/* -------------------------------------------------------- jsonb directly */

typedef struct JsonbBuild
{
	JsonbParseState *state;
	JsonbValue *result;
	PqBuffer	tmp;			/* one scalar's rendering */
} JsonbBuild;

static void
push(JsonbBuild *b, JsonbIteratorToken tok, JsonbValue *v)
{
	b->result = pushJsonbValue(&b->state, tok, v);
}

static int
hex_value(uint8 c)
{
	int			v = pq_hex_digit((char) c);

	if (v < 0)
		elog(ERROR, "unexpected escape in a rendered JSON string");
	return v;
}

/*
 * The string a rendered JSON string literal stands for, in the server
 * encoding.  The renderer escapes only '"', '\' and control characters.
 */
static void
unescape_string(const uint8 *p, size_t len, JsonbValue *v)
{
	char	   *out = palloc(len + 1);
	size_t		n = 0;
	size_t		i;

	for (i = 1; i + 1 < len; i++)
	{
		char		c = (char) p[i];

		if (c == '\\')
		{
			c = (char) p[++i];
			switch (c)
			{
				case 'b':
					c = '\b';
					break;
				case 'f':
					c = '\f';
					break;
				case 'n':
					c = '\n';
					break;
				case 'r':
					c = '\r';
					break;
				case 't':
					c = '\t';
					break;
				case 'u':
					{
						unsigned int cp = 0;
						int			k;

						for (k = 1; k <= 4 && i + k < len; k++)
							cp = cp * 16 + (unsigned int) hex_value(p[i + k]);
						if (k <= 4 || cp >= 0x80)
							elog(ERROR, "unexpected escape in a rendered JSON string");
						if (cp == 0)
							ereport(ERROR,
									(errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
									 errmsg("unsupported Unicode escape sequence"),
									 errdetail("\\u0000 cannot be converted to text.")));
						c = (char) cp;
						i += 4;
						break;
					}
				default:
					break;		/* '"', '\\', '/' stand for themselves */
			}
		}
		out[n++] = c;
	}
	out[n] = '\0';
	v->type = jbvString;
	v->val.string.val = pg_any_to_server(out, (int) n, PG_UTF8);
	v->val.string.len = (v->val.string.val == out) ? (int) n :
		(int) strlen(v->val.string.val);
}

/* Splice a JSON text (JSON leaves, VARIANT values) in as one value. */
static void
push_json_text(JsonbBuild *b, JsonbIteratorToken tok, const uint8 *p,
			   size_t len)
{
	char	   *text = pnstrdup((const char *) p, len);
	Jsonb	   *jb;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken r;

	text = pg_any_to_server(text, (int) len, PG_UTF8);

	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));
	it = JsonbIteratorInit(&jb->root);
	if (JB_ROOT_IS_SCALAR(jb))
	{
		(void) JsonbIteratorNext(&it, &v, false);	/* the raw-scalar array */
		(void) JsonbIteratorNext(&it, &v, false);
		push(b, tok, &v);
		return;
	}
	while ((r = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
		push(b, r, (r == WJB_BEGIN_ARRAY || r == WJB_BEGIN_OBJECT ||
					r == WJB_END_ARRAY || r == WJB_END_OBJECT) ? NULL : &v);
}

/* A leaf value (not NULL) as a jsonb scalar, pushed as tok. */
static void
push_scalar(JsonbBuild *b, JsonbIteratorToken tok, const PqSchemaNode *node,
			const PqValue *v)
{
	const PqLogicalType *lt = &node->logical;
	JsonbValue	jv;
	const uint8 *p;

	/* plain and signed integers need no text */
	if ((node->physical_type == PQ_INT32 || node->physical_type == PQ_INT64) &&
		(lt->id == PQ_LT_NONE ||
		 (lt->id == PQ_LT_INTEGER && lt->int_is_signed)))
	{
		jv.type = jbvNumeric;
		jv.val.numeric = int64_to_numeric(node->physical_type == PQ_INT32 ?
										  v->u.scalar.i32 : v->u.scalar.i64);
		push(b, tok, &jv);
		return;
	}
	if (node->physical_type == PQ_BOOLEAN)
	{
		jv.type = jbvBool;
		jv.val.boolean = v->u.scalar.b;
		push(b, tok, &jv);
		return;
	}

	pq_buffer_reset(&b->tmp);
	pq_json_scalar(&b->tmp, node, v);
	p = b->tmp.data;
	if (lt->id == PQ_LT_JSON)
		push_json_text(b, tok, p, b->tmp.len);
	else if (p[0] == '"')
	{
		unescape_string(p, b->tmp.len, &jv);
		push(b, tok, &jv);
	}
	else if (p[0] == 'n')
	{
		jv.type = jbvNull;
		push(b, tok, &jv);
	}
	else
	{
		pq_buffer_append_byte(&b->tmp, '\0');
		jv.type = jbvNumeric;
		jv.val.numeric = DatumGetNumeric(DirectFunctionCall3(numeric_in,
															 CStringGetDatum((const char *) b->tmp.data),
															 ObjectIdGetDatum(InvalidOid),
															 Int32GetDatum(-1)));
		push(b, tok, &jv);
	}
}

static void
push_null(JsonbBuild *b, JsonbIteratorToken tok)
{
	JsonbValue	jv;

	jv.type = jbvNull;
	push(b, tok, &jv);
}

static void
push_key(JsonbBuild *b, const char *s, int len)
{
	JsonbValue	jv;

	jv.type = jbvString;
	jv.val.string.val = pg_any_to_server(s, len, PG_UTF8);
	jv.val.string.len = (jv.val.string.val == s) ? len :
		(int) strlen(jv.val.string.val);
	push(b, WJB_KEY, &jv);
}

/* A map key: its rendering, a string as it is, anything else as text. */
static void
push_map_key(JsonbBuild *b, const PqSchemaNode *node, const PqValue *key)
{
	JsonbValue	jv;

	if (key->kind == PQ_VAL_NULL)
		null_key_error(node);
	if (key->kind != PQ_VAL_SCALAR)
	{
		PqBuffer	tmp;

		pq_buffer_init(&tmp, 32);
		pqfdw_json_render(&tmp, node, false, key);
		push_key(b, (const char *) tmp.data, (int) tmp.len);
		return;
	}
	pq_buffer_reset(&b->tmp);
	pq_json_scalar(&b->tmp, node, key);
	if (b->tmp.data[0] == '"')
	{
		unescape_string(b->tmp.data, b->tmp.len, &jv);
		push(b, WJB_KEY, &jv);
	}
	else
		push_key(b, pnstrdup((const char *) b->tmp.data, b->tmp.len),
				 (int) b->tmp.len);
}

/* Push slot, a value of node, as tok (WJB_ELEM, WJB_VALUE or the root). */
static void
push_node(JsonbBuild *b, JsonbIteratorToken tok, const PqSchemaNode *node,
		  bool as_element, const PqValue *slot)
{
	PqShape		sh;
	const PqValue *items;
	int			n;
	int			i;

	/* schemas nest up to 1000 levels (format/metadata/schema.c) */
	check_stack_depth();
	pq_shape_of(node, as_element, &sh);
	switch (sh.kind)
	{
		case PQ_SHAPE_VARIANT:
			pq_buffer_reset(&b->tmp);
			if (!pq_variant_group_to_json(&b->tmp, slot))
				push_null(b, tok);
			else
			{
				/* the buffer is reused below: take the text out */
				uint8	   *text = palloc(b->tmp.len);

				memcpy(text, b->tmp.data, b->tmp.len);
				push_json_text(b, tok, text, b->tmp.len);
			}
			return;

		case PQ_SHAPE_PRIMITIVE:
			if (slot->kind == PQ_VAL_NULL)
				push_null(b, tok);
			else
				push_scalar(b, tok, node, slot);
			return;

		case PQ_SHAPE_STRUCT:
			if (slot->kind == PQ_VAL_NULL)
			{
				push_null(b, tok);
				return;
			}
			push(b, WJB_BEGIN_OBJECT, NULL);
			for (i = 0; i < node->n_children; i++)
			{
				const PqSchemaNode *c = node->children[i];

				push_key(b, c->name, (int) strlen(c->name));
				push_node(b, WJB_VALUE, c, false, &slot->u.children.items[i]);
			}
			push(b, WJB_END_OBJECT, NULL);
			return;

		case PQ_SHAPE_LIST:
			if (!pq_value_items(slot, &items, &n))
			{
				push_null(b, tok);
				return;
			}
			push(b, WJB_BEGIN_ARRAY, NULL);
			for (i = 0; i < n; i++)
			{
				bool		occ = pq_shape_element_is_occurrence(&sh);

				push_node(b, WJB_ELEM, sh.element, occ,
						  pq_list_element(occ, &items[i]));
			}
			push(b, WJB_END_ARRAY, NULL);
			return;

		case PQ_SHAPE_MAP:
			if (!pq_value_items(slot, &items, &n))
			{
				push_null(b, tok);
				return;
			}
			push(b, WJB_BEGIN_OBJECT, NULL);
			for (i = 0; i < n; i++)
			{
				const PqValue *entry = &items[i];

				push_map_key(b, sh.key, &entry->u.children.items[0]);
				if (sh.value == NULL)
					push_null(b, WJB_VALUE);
				else
					push_node(b, WJB_VALUE, sh.value, false,
							  &entry->u.children.items[1]);
			}
			push(b, WJB_END_OBJECT, NULL);
			return;
	}
}

/* The text path: render, then let json_in / jsonb_in read it. */
static Datum
json_datum_from_text(const PqNestedPlan *p, const PqValue *slot, bool *isnull)
{
	PqBuffer	buf;
	char	   *text;

	pq_buffer_init(&buf, 256);
	if (!pqfdw_json_render(&buf, slot->node, p->as_element, slot))
	{
		*isnull = true;
		return (Datum) 0;
	}
	text = pg_any_to_server((const char *) buf.data, (int) buf.len, PG_UTF8);

	if (text == (char *) buf.data)
	{
		pq_buffer_append_byte(&buf, '\0');
		text = (char *) buf.data;
	}
	return p->jsonb ? DirectFunctionCall1(jsonb_in, CStringGetDatum(text)) :
		DirectFunctionCall1(json_in, CStringGetDatum(text));
}

Datum
pqfdw_json_datum(const PqNestedPlan *p, const PqValue *slot, bool *isnull)
{
	JsonbBuild	b;
	PqShape		sh;

	*isnull = false;
	pq_shape_of(slot->node, p->as_element, &sh);
	/* json keeps the text; a jsonb scalar or VARIANT root is parsed */
	if (!p->jsonb || sh.kind == PQ_SHAPE_PRIMITIVE ||
		sh.kind == PQ_SHAPE_VARIANT)
		return json_datum_from_text(p, slot, isnull);
	if (slot->kind == PQ_VAL_NULL)
	{
		*isnull = true;
		return (Datum) 0;
	}
	memset(&b, 0, sizeof(b));
	pq_buffer_init(&b.tmp, 64);
	push_node(&b, WJB_ELEM, slot->node, p->as_element, slot);
	return JsonbPGetDatum(JsonbValueToJsonb(b.result));
}
