/*-------------------------------------------------------------------------
 *
 * write_error.c
 *		The ERROR for a value COPY ... TO ... (FORMAT parquet) cannot write:
 *		its column, its row, why and what to do, shared by every family.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/copy/write_convert.h"

void
pqfdw_write_value_error(PqWriteColumn *col, int64 row_base, int row,
						int sqlstate, const char *reason, const char *hint)
{
	if (col->value_rows != NULL)
		row = col->value_rows[row];
	ereport(ERROR,
			(errcode(sqlstate),
			 errmsg("cannot write row %lld of column \"%s\" to Parquet",
					(long long) (row_base + row + 1), col->name),
			 errdetail_internal("%s", reason),
			 hint ? errhint("%s", hint) : 0));
}
