/*-------------------------------------------------------------------------
 *
 * columns.c
 *		Match foreign table columns to Parquet fields.
 *
 * A column matches the top-level field named by its column_name option, or
 * else by its own name: exactly, or case-insensitively when that is
 * unambiguous (PostgreSQL folds unquoted names to lower case).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/parquet_fdw.h"
#include "utils/lsyscache.h"

PqSchemaNode *
pqfdw_find_column(const PqFile *file, Oid relid, AttrNumber attnum,
				  const char *filename)
{
	char	   *name = pqfdw_column_name(relid, attnum);
	PqSchemaNode *node = pq_schema_find_field(file->schema, name);

	if (node == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_COLUMN_NAME_NOT_FOUND),
				 errmsg("column \"%s\" of foreign table \"%s\" does not exist in Parquet file \"%s\"",
						name, get_rel_name(relid), filename),
				 errhint("Use the column option column_name to map a column to a differently named Parquet field; parquet_fdw.schema() lists the fields.")));
	return node;
}
