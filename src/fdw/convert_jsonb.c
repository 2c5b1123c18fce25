/*-------------------------------------------------------------------------
 *
 * convert_jsonb.c
 *		Value trees of nested fields as JSON text, then jsonb or json.
 *
 * Structs become objects keyed by field name, lists arrays, maps objects
 * whose keys are the keys' JSON renderings as text (a string key as it is,
 * a number or boolean as its digits or true/false; later entries win over
 * earlier ones with the same key, as the MAP spec says), VARIANT groups
 * their Variant value; primitives follow the rules of docs/JSON.md
 * (json_render.c).  A NULL map key cannot be an object key: it is an
 * error.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "convert_nested.h"
#include "json_render.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "variant.h"

static void
render_map_key(PqBuffer *buf, const PqSchemaNode *node, const PqValue *key)
{
	PqBuffer	tmp;

	pq_buffer_init(&tmp, 32);
	if (!pqfdw_json_render(&tmp, node, false, key))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("map \"%s\" has a NULL key, which a JSON object cannot hold",
						node->parent->parent ? node->parent->parent->name : node->name),
				 errhint("Declare the column as an array of a composite type of key and value.")));
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

Datum
pqfdw_json_datum(const PqNestedPlan *p, const PqValue *slot, bool *isnull)
{
	PqBuffer	buf;
	const PqSchemaNode *node = slot->node;
	Datum		d;

	/* an unannotated repeated field's slot is its list of occurrences */
	pq_buffer_init(&buf, 256);
	if (!pqfdw_json_render(&buf, node, p->as_element, slot))
	{
		pfree(buf.data);
		*isnull = true;
		return (Datum) 0;
	}
	pq_buffer_append_byte(&buf, '\0');
	*isnull = false;
	d = p->jsonb ?
		DirectFunctionCall1(jsonb_in, CStringGetDatum((char *) buf.data)) :
		DirectFunctionCall1(json_in, CStringGetDatum((char *) buf.data));
	pfree(buf.data);
	return d;
}
