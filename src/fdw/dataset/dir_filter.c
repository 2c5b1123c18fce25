/*-------------------------------------------------------------------------
 *
 * dir_filter.c
 *		Partition directories a walk or listing need not enter: each
 *		key=value directory put to the file clauses as if it held a file.
 *
 * The probe is a dataset of one file below the directory, whose partition
 * columns are the keys the directory's path names so far; the clauses
 * that only those keys decide are evaluated as plan-time file pruning
 * does (file_prune.c), so a directory is ruled out exactly when every
 * file below it would be.  The planner filters with the query's quals;
 * the executor, checking whether the files changed since the plan, with
 * the plan's file clauses (Params unknown in both: they fold to nothing),
 * so that an unchanged tree gives the plan's own listing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/dataset/dataset.h"
#include "utils/memutils.h"

static bool
dir_may_match(const char *dir_url, void *arg)
{
	PqfdwDirFilter *df = arg;
	MemoryContext old = MemoryContextSwitchTo(df->cxt);
	PqfdwDataset *ds;
	List	   *clauses;
	int			npruned = 0;
	bool		all_true;

	ds = pqfdw_dataset_create(df->relid, df->tupdesc,
							  list_make1(psprintf("%sprobe.parquet", dir_url)),
							  &df->opts, PQFDW_HIVE_AUTO, df->cxt);
	clauses = pqfdw_file_exprs(ds, df->clauses, df->varno);
	(void) pqfdw_files_pruned_at_plan(df->root, ds, clauses, df->varno,
									  &npruned, &all_true);
	MemoryContextSwitchTo(old);
	MemoryContextReset(df->cxt);
	df->skipped += npruned > 0;
	return npruned == 0;
}

void
pqfdw_dir_filter_init(PqfdwDirFilter *df, struct PlannerInfo *root,
					  Oid relid, TupleDesc tupdesc,
					  const PqfdwTableOptions *opts, List *clauses,
					  Index varno)
{
	df->filter.may_match = dir_may_match;
	df->filter.arg = df;
	df->root = root;
	df->relid = relid;
	df->tupdesc = tupdesc;
	df->opts = *opts;
	/* a directory has no file name or row numbers to decide on */
	df->opts.filename_column = NULL;
	df->opts.row_number_column = NULL;
	df->clauses = clauses;
	df->varno = varno;
	df->skipped = 0;
	df->cxt = AllocSetContextCreate(CurrentMemoryContext,
									"parquet_fdw partition directories",
									ALLOCSET_SMALL_SIZES);
}

void
pqfdw_dir_filter_end(PqfdwDirFilter *df)
{
	MemoryContextDelete(df->cxt);
}
