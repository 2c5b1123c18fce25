/*-------------------------------------------------------------------------
 *
 * common.c
 *		What every converter family shares: the dotted path that names a
 *		nested field in messages, and the ERROR for a value out of range,
 *		naming its column and row.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/convert/convert.h"
#include "utils/builtins.h"

/* The dotted path of a node below the root, for messages. */
char *
pqfdw_node_path(const PqSchemaNode *node)
{
	if (node->parent == NULL || node->parent->parent == NULL)
		return pstrdup(node->name);
	return psprintf("%s.%s", pqfdw_node_path(node->parent), node->name);
}

void
pqfdw_value_out_of_range(PqConverter *cv, int dense_index, const char *what)
{
	int64		row = cv->row_base;
	int			sqlstate;

	switch (cv->natural_type)
	{
		case DATEOID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case INTERVALOID:
			sqlstate = ERRCODE_DATETIME_VALUE_OUT_OF_RANGE;
			break;
		default:
			sqlstate = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
			break;
	}

	if (row < 0)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("%s in dictionary entry %d of column \"%s\" is out of range for type %s",
						what, dense_index, cv->attname,
						format_type_be(cv->natural_type))));

	/* map the dense index back to its row through the levels */
	if (cv->cur_def)
	{
		int			seen = 0;
		int			i;

		for (i = 0;; i++)
			if (cv->cur_def[i] == cv->max_def && seen++ == dense_index)
				break;
		if (cv->cur_rep)
		{
			int			entry = i;

			/* the row of entry i: rows start at repetition level 0 */
			for (i = 1; i <= entry; i++)
				row += (cv->cur_rep[i] == 0);
		}
		else
			row += cv->cur_rows ? cv->cur_rows[i] : i;
	}
	else
		row += cv->cur_rows ? cv->cur_rows[dense_index] : dense_index;

	ereport(ERROR,
			(errcode(sqlstate),
			 errmsg("%s in column \"%s\", row " INT64_FORMAT ", is out of range for type %s",
					what, cv->attname, row + 1, format_type_be(cv->natural_type)),
			 pq_errloc.filename ?
			 errdetail("Rows are counted from 1 in Parquet file \"%s\".",
					   pq_errloc.filename) : 0));
}
