/*-------------------------------------------------------------------------
 *
 * schema_nested.c
 *		Shapes of schema nodes: the LIST and MAP rules of the LogicalTypes
 *		spec with its backward-compatibility rules.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/metadata/schema_nested.h"

static bool
is_list_annotated(const PqSchemaNode *n)
{
	return n->logical.id == PQ_LT_LIST;
}

/* MAP, or MAP_KEY_VALUE (which schema.c resolves to MAP as well) */
static bool
is_map_annotated(const PqSchemaNode *n)
{
	return n->logical.id == PQ_LT_MAP;
}

/* Annotated only with the legacy MAP_KEY_VALUE converted type. */
static bool
is_map_key_value_only(const PqSchemaNode *n)
{
	return n->converted_type == PQ_CT_MAP_KEY_VALUE &&
		n->elem->logical_type.id != PQ_LT_MAP;
}

/*
 * Element of a LIST-annotated group whose only child is the repeated node
 * rep, by the backward-compatibility rules:
 *	1. rep is not a group: rep is the element (required elements);
 *	2. rep is a group with several fields: rep is the element;
 *	3. rep has one field, itself repeated: rep is the element;
 *	4. rep has one field and is named "array" or "<list name>_tuple": rep
 *	   is the element;
 *	5. otherwise rep's only field is the element, with its repetition.
 */
static const PqSchemaNode *
list_element(const PqSchemaNode *list, const PqSchemaNode *rep)
{
	size_t		nlen;

	if (rep->is_leaf || rep->n_children > 1)
		return rep;
	if (rep->children[0]->repetition == PQ_REPEATED)
		return rep;
	if (strcmp(rep->name, "array") == 0)
		return rep;
	nlen = strlen(list->name);
	if (strncmp(rep->name, list->name, nlen) == 0 &&
		strcmp(rep->name + nlen, "_tuple") == 0)
		return rep;
	return rep->children[0];
}

static bool
map_shape(const PqSchemaNode *node, PqShape *shape)
{
	const PqSchemaNode *kv;

	if (node->n_children != 1 || node->children[0]->repetition != PQ_REPEATED ||
		node->children[0]->is_leaf)
		return false;
	kv = node->children[0];
	if (kv->n_children < 1 || kv->n_children > 2)
		return false;
	shape->kind = PQ_SHAPE_MAP;
	shape->repeated = kv;
	/* key and value by position: their names are not always key/value */
	shape->key = kv->children[0];
	shape->value = kv->n_children == 2 ? kv->children[1] : NULL;
	return true;
}

void
pq_shape_of(const PqSchemaNode *node, bool as_element, PqShape *shape)
{
	memset(shape, 0, sizeof(*shape));

	/* an unannotated repeated field: a required list of required elements */
	if (node->repetition == PQ_REPEATED && !as_element)
	{
		shape->kind = PQ_SHAPE_LIST;
		shape->repeated = node;
		shape->element = node;
		return;
	}
	if (node->is_leaf)
	{
		shape->kind = PQ_SHAPE_PRIMITIVE;
		return;
	}
	if (is_list_annotated(node))
	{
		if (node->n_children != 1 ||
			node->children[0]->repetition != PQ_REPEATED)
			pq_corrupt("LIST-annotated group \"%s\" must have exactly one field, a repeated one",
					   node->name);
		shape->kind = PQ_SHAPE_LIST;
		shape->repeated = node->children[0];
		shape->element = list_element(node, shape->repeated);
		return;
	}
	if (is_map_annotated(node))
	{
		if (map_shape(node, shape))
			return;
		if (!is_map_key_value_only(node))
			pq_corrupt("MAP-annotated group \"%s\" must have exactly one field, a repeated group of a key and an optional value",
					   node->name);
		/* a stray MAP_KEY_VALUE: read the group as it is */
	}
	if (node->logical.id == PQ_LT_VARIANT)
	{
		shape->kind = PQ_SHAPE_VARIANT;
		return;
	}
	shape->kind = PQ_SHAPE_STRUCT;
}

bool
pq_value_items(const PqValue *slot, const PqValue **items, int *n)
{
	const PqValue *list = slot;

	*items = NULL;
	*n = 0;
	if (slot->kind == PQ_VAL_NULL)
		return false;
	if (slot->kind == PQ_VAL_GROUP && slot->u.children.n == 1)
		list = &slot->u.children.items[0];
	if (list->kind != PQ_VAL_LIST)
		elog(ERROR, "value of \"%s\" is not a list", slot->node->name);
	*items = list->u.children.items;
	*n = list->u.children.n;
	return true;
}
