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
pqfdw_value_out_of_range_deferred(PqConverter *cv, int dense_index,
								  const char *what)
{
	if (cv->bad == NULL)
		pqfdw_value_out_of_range(cv, dense_index, what);
	cv->bad[dense_index] = 1;
	cv->nbad++;
	cv->bad_what = what;
}

/*
 * The row number (as row_base counts) of the segment's dense value
 * dense_index, through the levels.
 */
int64
pqfdw_dense_row(const PqConverter *cv, int dense_index)
{
	int64		row = cv->row_base;

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
	return row;
}

static int
sqlstate_for(const PqConverter *cv)
{
	switch (cv->natural_type)
	{
		case DATEOID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case INTERVALOID:
			return ERRCODE_DATETIME_VALUE_OUT_OF_RANGE;
		default:
			return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
	}
}

static void row_out_of_range(const PqConverter *cv, int64 row,
							 const char *what) pg_attribute_noreturn();

static void
row_out_of_range(const PqConverter *cv, int64 row, const char *what)
{
	const char *filename = pq_errloc_filename();

	ereport(ERROR,
			(errcode(sqlstate_for(cv)),
			 errmsg("%s in column \"%s\", row " INT64_FORMAT ", is out of range for type %s",
					what, cv->attname, row + 1, format_type_be(cv->natural_type)),
			 filename ?
			 errdetail("Rows are counted from 1 in Parquet file \"%s\".",
					   filename) : 0));
	pg_unreachable();
}

void
pqfdw_value_out_of_range(PqConverter *cv, int dense_index, const char *what)
{
	if (cv->row_base < 0)
		ereport(ERROR,
				(errcode(sqlstate_for(cv)),
				 errmsg("%s in dictionary entry %d of column \"%s\" is out of range for type %s",
						what, dense_index, cv->attname,
						format_type_be(cv->natural_type))));
	row_out_of_range(cv, pqfdw_dense_row(cv, dense_index), what);
}

void
pqfdw_converter_check_kept(PqConverter *cv, int64 first_row, const int *sel,
						   int m, int n)
{
	int64		first_bad = -1;
	int			b;

	for (b = 0; b < cv->nbad_rows; b++)
	{
		int64		r = cv->bad_rows[b] - first_row;
		bool		kept = false;

		if (r < 0 || r >= n)
			kept = true;		/* not among the rows filtered: keep it */
		else if (sel == NULL)
			kept = true;
		else
		{
			int			lo = 0;
			int			hi = m;

			/* sel is ascending */
			while (lo < hi)
			{
				int			mid = (lo + hi) / 2;

				if (sel[mid] < r)
					lo = mid + 1;
				else
					hi = mid;
			}
			kept = lo < m && sel[lo] == r;
		}
		if (kept && (first_bad < 0 || cv->bad_rows[b] < first_bad))
			first_bad = cv->bad_rows[b];
	}
	cv->nbad_rows = 0;
	if (first_bad >= 0)
		row_out_of_range(cv, first_bad, cv->dict_bad_what);
}
