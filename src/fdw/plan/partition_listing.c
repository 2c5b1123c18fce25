/*-------------------------------------------------------------------------
 *
 * partition_listing.c
 *		Listing a hive dataset for a plan: only the partitions its quals
 *		leave.
 *
 * A store lists up to 1,000 keys a request, so a dataset of a million
 * files costs a thousand requests before any pruning, and a local tree of
 * 10,000 partition directories 10,000 listings (cached, but each checked
 * with a stat()) when the quals name one.  Unless hive_partitioning is
 * 'false', a tree is walked (a prefix listed) a level at a time instead
 * (file_list.c), and each key=value directory the quals rule out is left
 * out (fdw/dataset/dir_filter.c).  Under 'auto' the files the walk keeps
 * decide whether the table is partitioned, as if the ruled-out
 * directories were not there: a tree whose keys differ only in partitions
 * a query cannot read is read as partitioned by that query.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/dataset/dataset.h"
#include "fdw/plan/plan.h"
#include "optimizer/restrictinfo.h"
#include "utils/rel.h"

void
pqfdw_plan_table_files(PlannerInfo *root, RelOptInfo *baserel,
					   Relation rel, PqfdwTableOptions *opts)
{
	PqfdwDirFilter df;
	List	   *quals = extract_actual_clauses(baserel->baserestrictinfo, false);

	if (opts->hive == PQFDW_HIVE_OFF || quals == NIL)
	{
		(void) pqfdw_table_files(opts, NULL);
		return;
	}
	pqfdw_dir_filter_init(&df, root, RelationGetRelid(rel),
						  RelationGetDescr(rel), opts, quals, baserel->relid);
	if (pqfdw_table_files(opts, &df.filter))
		opts->dirs_skipped = df.skipped;
	pqfdw_dir_filter_end(&df);
}
