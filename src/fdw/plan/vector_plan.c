/*-------------------------------------------------------------------------
 *
 * vector_plan.c
 *		What a plain scan evaluates as vector expressions
 *		(fdw/pushdown/vector_scan.c): the quals the batch filter leaves,
 *		and the expressions of its target (computed columns).
 *
 * Both are left to the executor when a LIMIT without ORDER BY may stop
 * the scan early: a batch evaluates rows the executor would never reach,
 * and one of them could fail.  Numeric columns are left out: vectors hold
 * them unscaled, which the tuples handed out must not see.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/plan/plan.h"
#include "fdw/pushdown/vexpr.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"

bool		pqfdw_enable_row_filter = true;
bool		pqfdw_enable_scan_projection = true;

/*
 * Whether rows past the ones the query returns may go unread: a LIMIT
 * without ORDER BY (rows an OFFSET skips are still read and projected).
 */
static bool
limit_may_stop(PlannerInfo *root)
{
	Node	   *count = root->parse->limitCount;

	return count != NULL &&
		!(IsA(count, Const) && ((Const *) count)->constisnull) &&
		root->parse->sortClause == NIL;
}

/*
 * All the quals, so that they still follow the cheaper ones in the
 * planner's order; none under a security barrier (those quals run first);
 * not under union_by_name, whose columns' types can change from file to
 * file.
 */
List *
pqfdw_vector_quals(PlannerInfo *root, RelOptInfo *baserel, List *local)
{
	PqfdwPlanState *st = baserel->fdw_private;
	PqVexprNumerics no_numerics = {0};
	ListCell   *lc;

	if (local == NIL || !pqfdw_enable_row_filter || st->ds->union_by_name ||
		limit_may_stop(root))
		return NIL;
	foreach(lc, baserel->baserestrictinfo)
		if (lfirst_node(RestrictInfo, lc)->security_level > 0)
		return NIL;
	foreach(lc, local)
		if (exprType(lfirst(lc)) != BOOLOID ||
			!pqfdw_vexpr_supported(lfirst(lc), baserel->relid, &no_numerics))
		return NIL;
	return local;
}

/*
 * The expressions the scan computes: those of the query's scan/join
 * target (what the plan node over the table projects when nothing is
 * grouped and the table is the query's only one) that vectors compute and
 * hold, other than bare columns and constants.  The executor's projection
 * then finds each in the scan tuple (set_plan_references matches equal
 * expressions).
 */
List *
pqfdw_vector_columns(PlannerInfo *root, RelOptInfo *baserel)
{
	Query	   *parse = root->parse;
	PqfdwPlanState *st = baserel->fdw_private;
	PqVexprNumerics no_numerics = {0};
	PathTarget *target;
	List	   *computed = NIL;
	ListCell   *lc;

	if (!pqfdw_enable_scan_projection || st->ds->union_by_name ||
		baserel->reloptkind != RELOPT_BASEREL ||
		bms_membership(root->all_baserels) != BMS_SINGLETON ||
		parse->hasAggs || parse->groupClause != NIL ||
		parse->groupingSets != NIL || root->hasHavingQual ||
		parse->hasWindowFuncs || parse->hasTargetSRFs ||
		parse->setOperations != NULL || parse->rowMarks != NIL ||
		limit_may_stop(root))
		return NIL;

	/* without grouping or windows, grouping_planner's scan/join target */
	target = root->upper_targets[UPPERREL_GROUP_AGG];
	if (target == NULL)
		return NIL;
	foreach(lc, target->exprs)
	{
		Expr	   *e = lfirst(lc);
		Expr	   *bare = e;
		PqVKind		kind;

		while (IsA(bare, RelabelType))
			bare = ((RelabelType *) bare)->arg;
		if (IsA(bare, Var) || IsA(bare, Const) || IsA(bare, Param) ||
			!pqfdw_vkind_of(exprType((Node *) e), &kind) ||
			!pqfdw_vexpr_supported(e, baserel->relid, &no_numerics))
			continue;
		computed = list_append_unique(computed, e);
	}
	return computed;
}
