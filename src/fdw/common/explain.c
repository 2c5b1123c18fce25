/*-------------------------------------------------------------------------
 *
 * explain.c
 *		EXPLAIN lines every plan of parquet_fdw shows: the files it reads.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/explain.h"
#include "fdw/common/pg_compat.h"	/* commands/explain.h and its 18 parts */

/* Beyond this many files, EXPLAIN names the first few and counts the rest. */
#define PQFDW_EXPLAIN_MAX_FILES 20
#define PQFDW_EXPLAIN_FIRST_FILES 3

void
pqfdw_explain_files(List *paths, ExplainState *es)
{
	StringInfoData buf;
	ListCell   *lc;
	int			n = list_length(paths);

	initStringInfo(&buf);
	foreach(lc, paths)
	{
		if (n > PQFDW_EXPLAIN_MAX_FILES &&
			foreach_current_index(lc) == PQFDW_EXPLAIN_FIRST_FILES)
		{
			appendStringInfo(&buf, ", ... (%d more)",
							 n - PQFDW_EXPLAIN_FIRST_FILES);
			break;
		}
		appendStringInfo(&buf, "%s%s", buf.len ? ", " : "",
						 (const char *) lfirst(lc));
	}
	if (paths == NIL)
		appendStringInfoString(&buf, "(none: every file pruned)");
	ExplainPropertyText(list_length(paths) == 1 ? "Parquet File" :
						"Parquet Files", buf.data, es);
}

void
pqfdw_explain_file_counts(int planned, int total, int pruned,
						  int pruned_stats, bool hive, ExplainState *es)
{
	if (pruned_stats > 0)
		ExplainPropertyText("Files",
							psprintf("%d of %d (pruned by partition: %d, by table statistics: %d)",
									 planned, total, pruned, pruned_stats),
							es);
	else if (hive || pruned > 0)
		ExplainPropertyText("Files",
							psprintf("%d of %d (pruned by partition: %d)",
									 planned, total, pruned), es);
	else if (total > PQFDW_EXPLAIN_MAX_FILES)
		ExplainPropertyText("Files", psprintf("%d of %d", planned, total), es);
}
