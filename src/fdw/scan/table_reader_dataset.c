/*-------------------------------------------------------------------------
 *
 * table_reader_dataset.c
 *		A table reader's columns in a dataset (fdw/dataset/): which field of
 *		each file a column reads, and the values of those it reads from the
 *		file itself (partition keys, the path, row numbers) or, under
 *		union_by_name, of fields a file lacks (NULL, or an Iceberg
 *		column's default).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/columns.h"
#include "fdw/scan/table_reader_state.h"
#include "utils/memutils.h"

/* The top-level field of an attribute of a reader without a relation. */
static PqSchemaNode *
find_field_by_name(PqTableReader *tr, PqTableColumn *c, const char *path)
{
	PqSchemaNode *node = pq_schema_find_field(tr->file->schema, c->attname);

	if (node == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist in Parquet file \"%s\"",
						c->attname, tr->relname, path),
				 errhint("Name the columns to load in a column list; parquet_fdw.schema() lists the file's fields.")));
	return node;
}

/* A field's type as messages show it: physical, then logical. */
static char *
field_type(const PqSchemaNode *node)
{
	char	   *logical = pq_logical_type_string(node);

	if (!node->is_leaf)
		return logical[0] ? logical : "a group";
	return psprintf("%s%s%s", pq_physical_type_name(node->physical_type),
					logical[0] ? " " : "", logical);
}

/*
 * The field column c reads in the open file (*leaf); false when it reads
 * none there: a dataset column (its value for the file set), or a field
 * the file lacks under union_by_name.  Under union_by_name a file's field
 * may differ in type from the last file's: its converter is set up again.
 */
bool
pqfdw_table_column_map(PqTableReader *tr, PqTableColumn *c, const char *path,
					   PqSchemaNode **leaf)
{
	int			att = c->attnum - 1;
	bool		by_name = tr->ds != NULL && tr->ds->union_by_name;

	c->kind = tr->ds ? tr->ds->kind[att] : PQFDW_COLUMN_FIELD;
	c->missing = false;
	if (c->kind != PQFDW_COLUMN_FIELD || by_name)
	{
		tr->att_cv[att] = NULL;
		tr->batch.converters[att] = NULL;
		tr->att_leaf[att] = -1;
		tr->batch.codes[att] = NULL;
		c->codes = NULL;
	}
	c->reader = NULL;
	if (c->kind == PQFDW_COLUMN_PARTITION || c->kind == PQFDW_COLUMN_FILENAME)
	{
		c->file_null = pqfdw_dataset_file_value(tr->ds, tr->file_index,
												c->attnum, &c->file_value);
		return false;
	}
	if (c->kind == PQFDW_COLUMN_ROW_NUMBER)
		return false;
	if (!OidIsValid(tr->relid))
		*leaf = find_field_by_name(tr, c, path);
	else if (!by_name)
		*leaf = pqfdw_find_column(tr->file, tr->relid, c->attnum, path);
	else
	{
		*leaf = pqfdw_find_column_opt(tr->file, tr->relid, c->attnum);
		c->missing = *leaf == NULL;
		c->conv_ready = false;
		c->nested = NULL;
		if (c->missing)
		{
			/* NULL, or an Iceberg column's default for files without it */
			c->file_null = pqfdw_dataset_missing_value(tr->ds, tr->file_index,
													   c->attnum,
													   &c->file_value);
			return false;
		}
		if (c->first_path == NULL)
		{
			c->first_path = MemoryContextStrdup(tr->cxt, path);
			c->first_type = MemoryContextStrdup(tr->cxt, field_type(*leaf));
		}
	}
	return true;
}

/*
 * Under union_by_name, an error setting up a column's converter for a
 * file names the file where the column was first seen, and its type there.
 */
static void
map_error_context(void *arg)
{
	PqTableColumnContext *mc = arg;

	errcontext("column \"%s\" is %s in Parquet file \"%s\" and %s in \"%s\" (union_by_name)",
			   mc->c->attname, field_type(mc->leaf), mc->path,
			   mc->c->first_type, mc->c->first_path);
}

void
pqfdw_table_column_error_context(ErrorContextCallback *cb,
								 PqTableColumnContext *mc, PqTableColumn *c,
								 const char *path, PqSchemaNode *leaf)
{
	mc->c = c;
	mc->path = path;
	mc->leaf = leaf;
	cb->callback = map_error_context;
	cb->arg = mc;
	cb->previous = error_context_stack;
	if (c->first_path != NULL && strcmp(c->first_path, path) != 0)
		error_context_stack = cb;
}

/*
 * Rows of column c that no field holds, for the m batch rows (sel: their
 * positions among the n at tr->rg_pos when the filter removed some).
 */
void
pqfdw_table_column_fill_from_file(PqTableReader *tr, PqTableColumn *c, int n, const int *sel,
								  int m)
{
	int			att = c->attnum - 1;
	Datum	   *values = tr->batch.values + pqfdw_batch_index(&tr->batch, att, 0);
	bool	   *nulls = tr->batch.nulls + pqfdw_batch_index(&tr->batch, att, 0);
	int64		first = tr->file_row + tr->rg_pos;
	int			j;

	if (c->kind == PQFDW_COLUMN_ROW_NUMBER)
	{
		for (j = 0; j < m; j++)
		{
			values[j] = Int64GetDatum(first + (m < n ? sel[j] : j));
			nulls[j] = false;
		}
		return;
	}
	for (j = 0; j < m; j++)
	{
		values[j] = c->file_value;
		nulls[j] = c->file_null;
	}
}
