/*-------------------------------------------------------------------------
 *
 * explain.c
 *		EXPLAIN lines every plan of parquet_fdw shows: the files it reads.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"	/* ExplainProperty*() */
#include "commands/explain_state.h"	/* ExplainState */
#endif
#include "fdw/common/parquet_fdw.h"

void
pqfdw_explain_files(List *paths, ExplainState *es)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, paths)
		appendStringInfo(&buf, "%s%s", buf.len ? ", " : "",
						 (const char *) lfirst(lc));
	ExplainPropertyText(list_length(paths) == 1 ? "Parquet File" :
						"Parquet Files", buf.data, es);
}
