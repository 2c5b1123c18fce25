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
