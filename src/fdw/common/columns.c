/*-------------------------------------------------------------------------
 *
 * columns.c
 *		Match foreign table columns to Parquet fields.
 *
 * A column matches the top-level field named by its column_name option, or
 * else by its own name: exactly, or case-insensitively when that is
 * unambiguous (PostgreSQL folds unquoted names to lower case).
 *
 * A table of many files asks for each of its columns in each file, at plan
 * and at execution time.  The names are therefore remembered per relation
 * (until a relcache invalidation of it: ALTER FOREIGN TABLE ... OPTIONS
 * changes pg_attribute), with the position each was last found at, which
 * is where the next file of the same writer has it too.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/columns.h"
#include "fdw/common/table_options.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

typedef struct ColumnName
{
	char	   *name;			/* NULL until first asked for */
	int			hint;			/* position last found at */
	bool		by_id;			/* a table format's column matched by id */
	int32		field_id;
	char	  **names;			/* by_id: the names of files without ids */
} ColumnName;

typedef struct RelColumns
{
	Oid			relid;			/* hash key */
	int			ncols;
	ColumnName *cols;			/* by attnum - 1 */
} RelColumns;

static HTAB *rel_columns = NULL;
static uint64 seen_generation = 0;	/* pqfdw_table_schema_generation */

static void
forget_relation(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS seq;
	RelColumns *rc;
	int			i;

	hash_seq_init(&seq, rel_columns);
	while ((rc = hash_seq_search(&seq)) != NULL)
	{
		if (relid != InvalidOid && rc->relid != relid)
			continue;
		for (i = 0; i < rc->ncols; i++)
		{
			if (rc->cols[i].name)
				pfree(rc->cols[i].name);
			if (rc->cols[i].names)
				pfree(rc->cols[i].names);
		}
		if (rc->cols)
			pfree(rc->cols);
		hash_search(rel_columns, &rc->relid, HASH_REMOVE, NULL);
	}
}

/* The remembered name of a column, looked up on first use. */
static ColumnName *
column_name(Oid relid, AttrNumber attnum)
{
	RelColumns *rc;
	bool		found;
	char	   *name;
	int32		id;
	const char *const *names = NULL;
	bool		by_id;

	if (rel_columns == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(RelColumns);
		ctl.hcxt = CacheMemoryContext;
		rel_columns = hash_create("parquet_fdw column names", 16, &ctl,
								  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		CacheRegisterRelcacheCallback(forget_relation, (Datum) 0);
	}
	/* a table format's table read with another schema: names may move */
	if (seen_generation != pqfdw_table_schema_generation)
	{
		forget_relation((Datum) 0, InvalidOid);
		seen_generation = pqfdw_table_schema_generation;
	}
	rc = hash_search(rel_columns, &relid, HASH_FIND, NULL);
	if (rc != NULL && attnum <= rc->ncols && rc->cols[attnum - 1].name)
		return &rc->cols[attnum - 1];

	/* the catalog lookup may run invalidations: enter the entry after it */
	name = MemoryContextStrdup(CacheMemoryContext,
							   pqfdw_column_name(relid, attnum));
	by_id = pqfdw_column_field_id(relid, attnum, &id, &names);
	rc = hash_search(rel_columns, &relid, HASH_ENTER, &found);
	if (!found)
	{
		rc->ncols = 0;
		rc->cols = NULL;
	}
	if (attnum > rc->ncols)
	{
		int			n = Max(attnum, 2 * rc->ncols);
		ColumnName *cols = MemoryContextAllocZero(CacheMemoryContext,
												  sizeof(ColumnName) * n);

		if (rc->cols)
		{
			memcpy(cols, rc->cols, sizeof(ColumnName) * rc->ncols);
			pfree(rc->cols);
		}
		rc->cols = cols;
		rc->ncols = n;
	}
	rc->cols[attnum - 1].name = name;
	rc->cols[attnum - 1].by_id = by_id;
	rc->cols[attnum - 1].field_id = by_id ? id : -1;
	rc->cols[attnum - 1].names = NULL;
	if (by_id && names != NULL)
	{
		int			n = 0;
		Size		size;
		char	  **copy;
		char	   *p;
		int			k;

		size = sizeof(char *);
		for (n = 0; names[n] != NULL; n++)
			size += sizeof(char *) + strlen(names[n]) + 1;
		copy = MemoryContextAlloc(CacheMemoryContext, size);
		p = (char *) (copy + n + 1);
		for (k = 0; k < n; k++)
		{
			copy[k] = p;
			strcpy(p, names[k]);
			p += strlen(names[k]) + 1;
		}
		copy[n] = NULL;
		rc->cols[attnum - 1].names = copy;
	}
	return &rc->cols[attnum - 1];
}

bool
pqfdw_field_id(Oid relid, AttrNumber attnum, int32 *id)
{
	ColumnName *col = column_name(relid, attnum);

	*id = col->field_id;
	return col->by_id;
}

const char *
pqfdw_field_name(Oid relid, AttrNumber attnum)
{
	return column_name(relid, attnum)->name;
}

PqSchemaNode *
pqfdw_field_by_id(const PqSchema *schema, int32 id, const char *const *names,
				  const char *name)
{
	PqSchemaNode *root = schema->root;
	bool		has_ids = false;
	int			i;

	for (i = 0; i < root->n_children; i++)
	{
		const PqSchemaElement *e = root->children[i]->elem;

		if (e != NULL && e->has_field_id)
		{
			has_ids = true;
			if (e->field_id == id)
				return root->children[i];
		}
	}
	if (has_ids)
		return NULL;
	for (i = 0; names != NULL && names[i] != NULL; i++)
	{
		PqSchemaNode *node = pq_schema_child(root, names[i]);

		if (node != NULL)
			return node;
	}
	if (names != NULL || name == NULL)
		return NULL;
	return pq_schema_find_field(schema, name);
}

PqSchemaNode *
pqfdw_find_column_opt(const PqFile *file, Oid relid, AttrNumber attnum)
{
	ColumnName *col = column_name(relid, attnum);

	if (col->by_id)
		return pqfdw_field_by_id(file->schema, col->field_id,
								 (const char *const *) col->names, col->name);
	return pq_schema_find_field_hinted(file->schema, col->name, &col->hint);
}

PqSchemaNode *
pqfdw_find_column(const PqFile *file, Oid relid, AttrNumber attnum,
				  const char *filename)
{
	PqSchemaNode *node = pqfdw_find_column_opt(file, relid, attnum);

	if (node == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_COLUMN_NAME_NOT_FOUND),
				 errmsg("column \"%s\" of foreign table \"%s\" does not exist in Parquet file \"%s\"",
						pqfdw_field_name(relid, attnum), get_rel_name(relid),
						filename),
				 errhint("Use the column option column_name to map a column to a differently named Parquet field; parquet_fdw.schema() lists the fields.")));
	return node;
}
