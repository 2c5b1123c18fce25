/*-------------------------------------------------------------------------
 *
 * write_column.c
 *		A column of COPY ... TO ... (FORMAT parquet): a nested value
 *		(write_nested.c) or one leaf (write_leaf.c), by its type.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/copy/write_convert.h"
#include "utils/lsyscache.h"

void
pqfdw_write_column_init(PqWriteColumn *col, PqWriterFieldList *fields,
						const char *name, Oid typid, int32 typmod,
						bool required, const PqWriteTypeOptions *topts,
						int capacity)
{
	int32		base_typmod = typmod;
	Oid			base = getBaseTypeAndTypmod(typid, &base_typmod);
	PqNestedColumn *nested;

	nested = pqfdw_nested_create(fields, name, base, base_typmod, required,
								 topts, capacity);
	if (nested == NULL)
	{
		pqfdw_write_leaf_init(col, pqfdw_field_list_add(fields), name, base,
							  base_typmod, required, topts, capacity);
		return;
	}
	/* the batch of whole values; the leaves convert */
	memset(col, 0, sizeof(*col));
	col->name = name;
	col->typid = base;
	col->typmod = base_typmod;
	col->required = required;
	col->capacity = capacity;
	col->nested = nested;
	get_typlenbyval(base, &col->typlen, &col->typbyval);
	col->values = palloc(sizeof(Datum) * capacity);
	col->nulls = palloc(sizeof(bool) * capacity);
}

int
pqfdw_write_column_leaves(const PqWriteColumn *col)
{
	return col->nested != NULL ? pqfdw_nested_num_leaves(col->nested) : 1;
}
