/*-------------------------------------------------------------------------
 *
 * schema.c
 *		A Delta table's schema (metaData.schemaString, a JSON struct type):
 *		its top-level fields with their logical and physical names, field
 *		ids and types.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "table/common/json_tree.h"
#include "table/delta/delta_log.h"

/* Longest field or type name kept; Spark's are short. */
#define PQ_DELTA_MAX_NAME 4096

static bool
read_field(const PqJv *f, PqDeltaField *out, const char **why)
{
	const char *name = pq_jv_str(pq_jv_get(f, "name"));
	const PqJv *type = pq_jv_get(f, "type");
	const PqJv *md = pq_jv_get(f, "metadata");
	bool		nullable = true;

	if (f->type != PQ_JV_OBJECT || name == NULL || type == NULL)
	{
		*why = "a field of the schema lacks its name or type";
		return false;
	}
	if (*name == '\0' || strlen(name) > PQ_DELTA_MAX_NAME)
	{
		*why = "a field of the schema has an empty or overlong name";
		return false;
	}
	out->name = pstrdup(name);
	out->type_tree = type;
	if (type->type == PQ_JV_STRING)
		out->type = pstrdup(type->u.str);
	else if (type->type == PQ_JV_OBJECT &&
			 pq_jv_str(pq_jv_get(type, "type")) != NULL)
		out->type = pstrdup(pq_jv_str(pq_jv_get(type, "type")));
	else
	{
		*why = psprintf("field \"%.64s\" of the schema has a malformed type",
						name);
		return false;
	}
	if (pq_jv_get(f, "nullable") != NULL &&
		!pq_jv_bool(pq_jv_get(f, "nullable"), &nullable))
	{
		*why = psprintf("field \"%.64s\" of the schema has a malformed nullable",
						name);
		return false;
	}
	out->nullable = nullable;
	out->physical = NULL;
	out->id = -1;
	if (md != NULL && md->type == PQ_JV_OBJECT)
	{
		const PqJv *phys = pq_jv_get(md, "delta.columnMapping.physicalName");
		const PqJv *id = pq_jv_get(md, "delta.columnMapping.id");

		if (phys != NULL)
		{
			if (pq_jv_str(phys) == NULL || *phys->u.str == '\0')
			{
				*why = psprintf("field \"%.64s\" has a malformed physical name",
								name);
				return false;
			}
			out->physical = pstrdup(phys->u.str);
		}
		if (id != NULL && !pq_jv_int64(id, &out->id))
		{
			*why = psprintf("field \"%.64s\" has a malformed column mapping id",
							name);
			return false;
		}
	}
	return true;
}

bool
pq_delta_parse_schema(const char *schema_string, PqDeltaSchema *out,
					  const char **why)
{
	PqJv	   *root = pq_jv_parse(schema_string, strlen(schema_string), why);
	const PqJv *fields;
	uint32		i;

	memset(out, 0, sizeof(*out));
	if (root == NULL)
		return false;
	fields = pq_jv_get(root, "fields");
	if (pq_jv_str(pq_jv_get(root, "type")) == NULL ||
		strcmp(pq_jv_str(pq_jv_get(root, "type")), "struct") != 0 ||
		fields == NULL || fields->type != PQ_JV_ARRAY)
	{
		*why = "the schema is not a struct type with fields";
		return false;
	}
	out->fields = palloc0(sizeof(PqDeltaField) * Max(fields->len, 1));
	for (i = 0; i < fields->len; i++)
	{
		uint32		k;

		if (!read_field(&fields->u.items[i], &out->fields[i], why))
			return false;
		for (k = 0; k < i; k++)
			if (strcmp(out->fields[k].name, out->fields[i].name) == 0)
			{
				*why = psprintf("the schema names field \"%.64s\" twice",
								out->fields[i].name);
				return false;
			}
	}
	out->nfields = fields->len;
	return true;
}

/* The physical name of a field of a Delta struct type (its JSON). */
static const char *
physical_of(const PqJv *field, PqDeltaMapping mode)
{
	const PqJv *md = pq_jv_get(field, "metadata");
	const char *phys = md ? pq_jv_str(pq_jv_get(md, "delta.columnMapping.physicalName")) : NULL;

	if (mode != PQ_DELTA_MAPPING_NONE && phys != NULL)
		return phys;
	return pq_jv_str(pq_jv_get(field, "name"));
}

/* The element node of a Parquet list group (3-level, or legacy 2-level). */
static PqSchemaNode *
list_element(PqSchemaNode *list, const PqJv *elem_type, PqDeltaMapping mode)
{
	PqSchemaNode *rep;
	const PqJv *fields;

	if (list->is_leaf || list->n_children != 1)
		return NULL;
	rep = list->children[0];
	if (rep->is_leaf || rep->n_children != 1 || rep->repetition != PQ_REPEATED)
		return rep;

	/*
	 * A repeated group of one child is the 3-level "list" group, unless the
	 * element is a struct of just that child (the legacy 2-level form).
	 */
	fields = elem_type ? pq_jv_get(elem_type, "fields") : NULL;
	if (fields != NULL && fields->type == PQ_JV_ARRAY && fields->len == 1 &&
		physical_of(&fields->u.items[0], mode) != NULL &&
		strcmp(physical_of(&fields->u.items[0], mode),
			   rep->children[0]->name) == 0)
		return rep;
	return rep->children[0];
}

static void
rename_node(PqSchemaNode *node, const PqJv *type, PqDeltaMapping mode)
{
	const char *kind;
	int			i;

	if (type == NULL || type->type != PQ_JV_OBJECT || node->is_leaf)
		return;
	kind = pq_jv_str(pq_jv_get(type, "type"));
	if (kind == NULL)
		return;
	if (strcmp(kind, "struct") == 0)
	{
		const PqJv *fields = pq_jv_get(type, "fields");

		if (fields == NULL || fields->type != PQ_JV_ARRAY)
			return;
		for (i = 0; i < node->n_children; i++)
		{
			PqSchemaNode *c = node->children[i];
			uint32		k;

			for (k = 0; k < fields->len; k++)
			{
				const PqJv *f = &fields->u.items[k];
				const char *phys = physical_of(f, mode);

				if (phys != NULL && strcmp(phys, c->name) == 0)
				{
					c->name = pq_jv_str(pq_jv_get(f, "name"));
					rename_node(c, pq_jv_get(f, "type"), mode);
					break;
				}
			}
		}
	}
	else if (strcmp(kind, "array") == 0)
	{
		const PqJv *elem = pq_jv_get(type, "elementType");
		PqSchemaNode *e = list_element(node, elem, mode);

		if (e != NULL)
			rename_node(e, elem, mode);
	}
	else if (strcmp(kind, "map") == 0)
	{
		PqSchemaNode *kv;

		if (node->n_children != 1 || node->children[0]->is_leaf ||
			node->children[0]->n_children != 2)
			return;
		kv = node->children[0];
		rename_node(kv->children[0], pq_jv_get(type, "keyType"), mode);
		rename_node(kv->children[1], pq_jv_get(type, "valueType"), mode);
	}
}

void
pq_delta_logical_names(PqSchema *schema, const PqDeltaSchema *ds,
					   PqDeltaMapping mode)
{
	int			i;
	int			k;

	for (i = 0; i < schema->root->n_children; i++)
	{
		PqSchemaNode *top = schema->root->children[i];

		for (k = 0; k < ds->nfields; k++)
			if (strcmp(pq_delta_physical_name(&ds->fields[k], mode),
					   top->name) == 0)
			{
				rename_node(top, ds->fields[k].type_tree, mode);
				break;
			}
	}
}
