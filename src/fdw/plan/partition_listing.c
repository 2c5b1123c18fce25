/*-------------------------------------------------------------------------
 *
 * partition_listing.c
 *		Listing a hive dataset in a bucket for a plan: only the partitions
 *		its quals leave.
 *
 * A store lists up to 1,000 keys a request, so a dataset of a million
 * files costs a thousand requests before any pruning.  With
 * hive_partitioning 'true' a prefix is listed a level at a time instead
 * (file_list.c), and each key=value directory is put to the quals on
 * partition columns as if it held a file: the quals the plan-time file
 * pruning evaluates (file_prune.c), over the keys the directory names so
 * far, so a directory is ruled out exactly when every file below it would
 * be.  Only 'true': under 'auto' the keys of the whole listing decide
 * whether the table is partitioned at all.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/dataset/dataset.h"
#include "fdw/plan/plan.h"
#include "utils/memutils.h"
#include "utils/rel.h"

typedef struct PartitionProbe
{
	PlannerInfo *root;
	RelOptInfo *baserel;
	Oid			relid;
	TupleDesc	tupdesc;
	PqfdwTableOptions opts;		/* no file name or row number column */
	MemoryContext cxt;			/* reset after each directory */
} PartitionProbe;

static bool
partition_may_match(const char *dir_url, void *arg)
{
	PartitionProbe *pp = arg;
	MemoryContext old = MemoryContextSwitchTo(pp->cxt);
	PqfdwDataset *ds;
	List	   *clauses;
	int			npruned = 0;
	bool		all_true;

	ds = pqfdw_dataset_create(pp->relid, pp->tupdesc,
							  list_make1(psprintf("%sprobe.parquet", dir_url)),
							  &pp->opts, PQFDW_HIVE_AUTO, pp->cxt);
	clauses = pqfdw_file_clauses(ds, pp->baserel->baserestrictinfo,
								 pp->baserel->relid);
	(void) pqfdw_files_pruned_at_plan(pp->root, ds, clauses,
									  pp->baserel->relid, &npruned, &all_true);
	MemoryContextSwitchTo(old);
	MemoryContextReset(pp->cxt);
	return npruned == 0;
}

void
pqfdw_plan_table_files(PlannerInfo *root, RelOptInfo *baserel,
					   Relation rel, PqfdwTableOptions *opts)
{
	PartitionProbe pp;
	PqfdwPrefixFilter filter;

	if (opts->hive != PQFDW_HIVE_ON || baserel->baserestrictinfo == NIL)
	{
		pqfdw_table_files(opts, NULL);
		return;
	}
	pp.root = root;
	pp.baserel = baserel;
	pp.relid = RelationGetRelid(rel);
	pp.tupdesc = RelationGetDescr(rel);
	pp.opts = *opts;
	pp.opts.filename_column = NULL;
	pp.opts.row_number_column = NULL;
	pp.cxt = AllocSetContextCreate(CurrentMemoryContext,
								   "parquet_fdw partition listing",
								   ALLOCSET_SMALL_SIZES);
	filter.may_match = partition_may_match;
	filter.arg = &pp;
	pqfdw_table_files(opts, &filter);
	MemoryContextDelete(pp.cxt);
}
