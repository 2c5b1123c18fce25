/*-------------------------------------------------------------------------
 *
 * grouped_top_n.c
 *		ORDER BY ... LIMIT n over the groups of a grouped scan, offered as a
 *		ForeignScan of the final relation: the scan keeps the best groups
 *		in a bounded heap (fdw/pushdown/group_top_n.c) instead of returning
 *		every group to a Sort.
 *
 * A query qualifies when its grouping relation has a grouped scan path
 * (grouping.c), it has no HAVING (which would have to pass before a group
 * is ranked), DISTINCT, window functions, set-returning functions or row
 * locks, every sort key is one of the scan's grouping keys or aggregates
 * with a btree ordering operator, and LIMIT and OFFSET are constants (as
 * for top-N scans, top_n.c).  Groups with equal sort keys may come in
 * another order than PostgreSQL's Sort would give them, which SQL leaves
 * open.  Partial aggregation would need all groups in the leader, but a
 * partitioned grouped scan finishes each group in one process: under
 * Gather Merge, each process keeps its best groups.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/pg_compat.h"
#include "fdw/plan/plan.h"
#include "fdw/scan/scan.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/tlist.h"

/* The grouped scan path of the grouping relation, NULL if it has none. */
static ForeignPath *
grouped_path(PlannerInfo *root)
{
	RelOptInfo *grel = fetch_upper_rel(root, UPPERREL_GROUP_AGG, NULL);
	ListCell   *lc;

	foreach(lc, grel->pathlist)
	{
		ForeignPath *p = lfirst(lc);

		if (IsA(p, ForeignPath) && p->fdw_private != NIL &&
			intVal(linitial(p->fdw_private)) == PQFDW_PLAN_GROUPED)
			return p;
	}
	return NULL;
}

/*
 * The sort keys as (scan tuple column, sortop, collation, nulls_first)
 * IntLists, NIL when one is not a column of the scan tuple.
 */
static List *
group_sort_keys(PlannerInfo *root, List *scan_tlist)
{
	List	   *keys = NIL;
	ListCell   *lc;

	foreach(lc, root->parse->sortClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Expr	   *expr = (Expr *) get_sortgroupclause_expr(sgc,
															 root->processed_tlist);
		TargetEntry *tle = tlist_member(expr, scan_tlist);

		if (tle == NULL || !OidIsValid(sgc->sortop))
			return NIL;
		keys = lappend(keys, list_make4_int(tle->resno - 1, sgc->sortop,
											exprCollation((Node *) expr),
											sgc->nulls_first));
	}
	return keys;
}

/*
 * Limit over Gather Merge over a partitioned grouped scan (group_shared.h)
 * whose processes each keep the best LIMIT + OFFSET groups of the
 * partitions they aggregate, sorted: when the grouping relation has one
 * (grouping.c left its figures in the table's plan state).
 */
static void
add_partitioned_path(PlannerInfo *root, RelOptInfo *output_rel, List *priv,
					 List *keys, int64 count, int64 offset, double groups)
{
	PathTarget *target = root->upper_targets[UPPERREL_FINAL];
	RelOptInfo *baserel;
	PqfdwPlanState *st;
	ForeignPath *partial;
	GatherMergePath *merge;
	double		rows;
	double		all_rows;
	Cost		startup;

	if (bms_membership(root->all_baserels) != BMS_SINGLETON)
		return;
	baserel = root->simple_rel_array[bms_singleton_member(root->all_baserels)];
	st = baserel->fdw_private;
	if (st == NULL || st->grouped_workers == 0)
		return;
	priv = list_copy(priv);
	list_nth_cell(priv, 7)->ptr_value = list_make3(makeInteger((int) (count + offset)),
												   makeInteger(0), keys);
	list_nth_cell(priv, 8)->ptr_value = makeInteger(1);
	rows = Min(count + offset, groups / st->grouped_divisor);
	all_rows = rows * st->grouped_divisor;
	startup = st->grouped_startup +
		groups / st->grouped_divisor * cpu_operator_cost * list_length(keys);
	partial = pqfdw_create_foreign_upper_path(root, output_rel, target, rows,
											  startup,
											  startup + rows * cpu_tuple_cost,
											  root->sort_pathkeys, NULL,
											  list_make2(makeInteger(PQFDW_PLAN_GROUPED),
														 priv));
	partial->path.parallel_aware = true;
	partial->path.parallel_safe = true;
	partial->path.parallel_workers = st->grouped_workers;
	merge = create_gather_merge_path(root, output_rel, &partial->path, target,
									 root->sort_pathkeys, NULL, &all_rows);
	add_path(output_rel,
			 (Path *) create_limit_path(root, output_rel, &merge->path,
										root->parse->limitOffset,
										root->parse->limitCount,
										root->parse->limitOption, offset,
										count));
}

void
pqfdw_grouped_top_n_paths(PlannerInfo *root, RelOptInfo *output_rel,
						  FinalPathExtraData *extra)
{
	Query	   *parse = root->parse;
	ForeignPath *grouped;
	List	   *priv;
	List	   *keys;
	int64		count;
	int64		offset;
	double		rows;
	Cost		startup;

	if (!pqfdw_enable_top_n_scan || !extra->limit_needed ||
		parse->sortClause == NIL || parse->groupingSets ||
		parse->havingQual || parse->distinctClause ||
		parse->hasWindowFuncs || parse->hasTargetSRFs || parse->rowMarks ||
		parse->setOperations || parse->limitOption != LIMIT_OPTION_COUNT ||
		!pqfdw_top_n_limit(parse, &count, &offset) ||
		(grouped = grouped_path(root)) == NULL)
		return;
	priv = lsecond(grouped->fdw_private);
	keys = group_sort_keys(root, lthird(priv));
	if (keys == NIL)
		return;

	/* every group is ranked; only the kept ones are formed */
	rows = grouped->path.rows;
	startup = grouped->path.total_cost +
		rows * cpu_operator_cost * list_length(keys);
	priv = list_copy(priv);
	list_nth_cell(priv, 7)->ptr_value = list_make3(makeInteger((int) count),
												   makeInteger((int) offset),
												   keys);
	add_path(output_rel, (Path *)
			 pqfdw_create_foreign_upper_path(root, output_rel,
											 root->upper_targets[UPPERREL_FINAL],
											 Min(count, rows), startup,
											 startup + Min(count, rows) * cpu_tuple_cost,
											 root->sort_pathkeys, NULL,
											 list_make2(makeInteger(PQFDW_PLAN_GROUPED),
														priv)));
	if (output_rel->consider_parallel)
		add_partitioned_path(root, output_rel, priv, keys, count, offset,
							 rows);
}
