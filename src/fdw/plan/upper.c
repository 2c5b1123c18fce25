/*-------------------------------------------------------------------------
 *
 * upper.c
 *		Aggregates the footers answer: count(*) of a foreign table without
 *		quals is the sum of its row groups' row counts, which the footers
 *		hold, so no data page is read.
 *
 * GetForeignUpperPaths offers, for the grouping relation of a query over
 * one parquet_fdw table with no WHERE, GROUP BY, HAVING or grouping sets
 * whose target uses only count(*) (plain: no FILTER, DISTINCT or ORDER
 * BY), a ForeignScan of the grouping relation whose scan tuple holds the
 * counts (fdw/scan/footer_count.c computes them).  The row count a row
 * group claims is what the scan would return for it: the table reader
 * reads exactly num_rows entries of every row group, or fails.  Anything
 * else is left to PostgreSQL's Aggregate over the scan.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/plan/plan.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/tlist.h"
#include "utils/fmgroids.h"

/* Is expr built of plain count(*) aggregates and constants only? */
static bool
only_count_star(Node *expr, List **aggrefs)
{
	List	   *found = pull_var_clause(expr, PVC_INCLUDE_AGGREGATES |
										PVC_INCLUDE_PLACEHOLDERS |
										PVC_INCLUDE_WINDOWFUNCS);
	ListCell   *lc;

	foreach(lc, found)
	{
		Aggref	   *agg = lfirst(lc);

		if (!IsA(agg, Aggref) || agg->aggfnoid != F_COUNT_ || !agg->aggstar ||
			agg->aggfilter != NULL || agg->aggdistinct != NIL ||
			agg->aggorder != NIL || agg->agglevelsup != 0 ||
			agg->aggsplit != AGGSPLIT_SIMPLE)
			return false;
		*aggrefs = lappend(*aggrefs, agg);
	}
	return !contain_volatile_functions(expr);
}

void
pqfdw_GetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
						   RelOptInfo *input_rel, RelOptInfo *output_rel,
						   void *extra)
{
	Query	   *parse = root->parse;
	PqfdwPlanState *st;
	List	   *aggrefs = NIL;
	ListCell   *lc;
	List	   *paths = NIL;
	Cost		cost;

	if (stage != UPPERREL_GROUP_AGG ||
		input_rel->reloptkind != RELOPT_BASEREL ||
		((GroupPathExtraData *) extra)->patype != PARTITIONWISE_AGGREGATE_NONE ||
		parse->groupClause != NIL || parse->groupingSets != NIL ||
		root->hasHavingQual || parse->hasWindowFuncs ||
		parse->hasTargetSRFs || input_rel->baserestrictinfo != NIL ||
		input_rel->fdw_private == NULL)
		return;
	foreach(lc, output_rel->reltarget->exprs)
		if (!only_count_star(lfirst(lc), &aggrefs))
			return;
	if (aggrefs == NIL)
		return;

	st = input_rel->fdw_private;
	foreach(lc, st->paths)
		paths = lappend(paths, makeString(pstrdup(lfirst(lc))));
	/* the footers are read again at execution: as the scan's startup */
	cost = 10.0 * list_length(st->paths);
	add_path(output_rel, (Path *)
			 create_foreign_upper_path(root, output_rel, output_rel->reltarget,
									   1, cost, cost, NIL, NULL,
									   list_make2(paths,
												  makeInteger(st->relid))));
}

/*
 * The plan of that path: no scanned relation; the scan tuple is the
 * aggregates (fdw_scan_tlist), and setrefs points the target list at them.
 */
ForeignScan *
pqfdw_upper_plan(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path,
				 List *tlist, Plan *outer_plan)
{
	List	   *aggrefs = NIL;
	ListCell   *lc;

	foreach(lc, rel->reltarget->exprs)
		(void) only_count_star(lfirst(lc), &aggrefs);
	return make_foreignscan(tlist, NIL, 0, NIL, best_path->fdw_private,
							add_to_flat_tlist(NIL, aggrefs), NIL, outer_plan);
}
