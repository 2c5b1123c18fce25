/*-------------------------------------------------------------------------
 *
 * top_n.c
 *		ORDER BY ... LIMIT n over one foreign table computed by the scan
 *		(top-N scans, fdw/pushdown/top_n_scan.c), offered as a ForeignScan of
 *		the final relation.
 *
 * A query qualifies when it reads one parquet_fdw table without grouping,
 * aggregates, DISTINCT, window functions, set-returning functions, row
 * locks or set operations; every WHERE qual is the scan's; it sorts by
 * columns of the table with their types' default orderings (any type with
 * a btree ordering: the executor compares with PostgreSQL's SortSupport for
 * the sort operator and collation); and LIMIT and OFFSET are constants
 * with at most PQFDW_TOP_N_MAX rows kept.  The scan keeps the best rows in
 * a bounded heap and skips row groups whose statistics show that no row
 * can enter it.  The plan is a scan of the table (scanrelid), so that
 * PostgreSQL projects the target list from the table's columns as usual.
 *
 * When the table has a parallel scan, a second path runs the top-N in
 * each process over the row groups it claims (keeping LIMIT + OFFSET rows,
 * sorted) under Gather Merge and PostgreSQL's Limit, the plan PostgreSQL
 * makes for a heap table with a Sort per worker.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/common/pg_compat.h"
#include "fdw/plan/plan.h"
#include "fdw/scan/scan.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

bool		pqfdw_enable_top_n_scan = true;

/* rows a top-N scan keeps at most (LIMIT + OFFSET) */
#define PQFDW_TOP_N_MAX 10000

/*
 * The sort keys of parse->sortClause as (attnum, sortop, collation,
 * nulls_first) lists, or NIL when one is not a plain column of relid
 * sorted by its type's default < or >.
 */
static List *
sort_keys(PlannerInfo *root, Index relid)
{
	List	   *keys = NIL;
	ListCell   *lc;

	foreach(lc, root->parse->sortClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Expr	   *expr = (Expr *) get_sortgroupclause_expr(sgc,
															 root->processed_tlist);
		Oid			collation = exprCollation((Node *) expr);
		Var		   *var;
		TypeCacheEntry *tc;

		/* a column, or one with another collation (COLLATE) */
		if (IsA(expr, RelabelType) &&
			((RelabelType *) expr)->resulttype == exprType((Node *) ((RelabelType *) expr)->arg))
			expr = ((RelabelType *) expr)->arg;
		var = (Var *) expr;
		if (!IsA(expr, Var) || var->varno != relid || var->varlevelsup != 0 ||
			var->varattno <= 0)
			return NIL;
		tc = lookup_type_cache(var->vartype, TYPECACHE_LT_OPR | TYPECACHE_GT_OPR);
		if (!OidIsValid(sgc->sortop) ||
			(sgc->sortop != tc->lt_opr && sgc->sortop != tc->gt_opr))
			return NIL;
		keys = lappend(keys, list_make4_int(var->varattno, sgc->sortop,
											collation, sgc->nulls_first));
	}
	return keys;
}

/* Whether every Var of the final target is a user column of relid. */
static bool
plain_columns(List *exprs, Index relid)
{
	List	   *vars = pull_var_clause((Node *) exprs, PVC_INCLUDE_PLACEHOLDERS);
	ListCell   *lc;

	foreach(lc, vars)
	{
		Var		   *var = lfirst(lc);

		if (!IsA(var, Var) || var->varno != relid || var->varattno <= 0)
			return false;
	}
	return true;
}

/*
 * Limit over Gather Merge over a parallel top-N scan of workers processes
 * (and the leader), each keeping the best rows (count + offset of them:
 * private's count) of the row groups it claims.
 */
static void
add_parallel_path(PlannerInfo *root, RelOptInfo *output_rel,
				  PathTarget *target, int workers, Cost startup,
				  List *private, int64 count, int64 offset, double rows)
{
	Query	   *parse = root->parse;
	double		divisor = workers;
	double		all_rows;
	ForeignPath *partial;
	GatherMergePath *merge;

	/* the leader's share of the scan, as costsize.c's get_parallel_divisor */
	if (parallel_leader_participation && workers < 4)
		divisor += 1.0 - 0.3 * workers;
	all_rows = rows * divisor;
	partial = pqfdw_create_foreign_upper_path(root, output_rel, target, rows,
											  startup / divisor,
											  startup / divisor + rows * cpu_tuple_cost,
											  root->sort_pathkeys, NULL,
											  list_make2(makeInteger(PQFDW_PLAN_TOP_N),
														 private));
	partial->path.parallel_aware = true;
	partial->path.parallel_safe = true;
	partial->path.parallel_workers = workers;
	merge = create_gather_merge_path(root, output_rel, &partial->path, target,
									 root->sort_pathkeys, NULL, &all_rows);
	add_path(output_rel,
			 (Path *) create_limit_path(root, output_rel, &merge->path,
										parse->limitOffset, parse->limitCount,
										parse->limitOption, offset, count));
}

bool
pqfdw_top_n_limit(Query *parse, int64 *count, int64 *offset)
{
	/* LIMIT and OFFSET: constants (not NULL: that is no limit) */
	*offset = 0;
	if (parse->limitCount == NULL || !IsA(parse->limitCount, Const) ||
		((Const *) parse->limitCount)->constisnull)
		return false;
	*count = DatumGetInt64(((Const *) parse->limitCount)->constvalue);
	if (parse->limitOffset != NULL)
	{
		if (!IsA(parse->limitOffset, Const))
			return false;
		if (!((Const *) parse->limitOffset)->constisnull)
			*offset = DatumGetInt64(((Const *) parse->limitOffset)->constvalue);
	}
	return *count >= 0 && *offset >= 0 &&
		*count + *offset <= PQFDW_TOP_N_MAX;
}

void
pqfdw_top_n_paths(PlannerInfo *root, RelOptInfo *input_rel,
				  RelOptInfo *output_rel, FinalPathExtraData *extra)
{
	Query	   *parse = root->parse;
	RelOptInfo *baserel;
	PqfdwPlanState *st;
	Index		relid;
	List	   *keys;
	List	   *scan_private;
	List	   *local;
	List	   *prune_values;
	int64		count;
	int64		offset;
	Cost		startup;
	PathTarget *target;
	ForeignPath *path;

	if (!pqfdw_enable_top_n_scan || !extra->limit_needed ||
		parse->sortClause == NIL || parse->hasAggs || parse->groupClause ||
		parse->groupingSets || parse->havingQual || parse->distinctClause ||
		parse->hasWindowFuncs || parse->hasTargetSRFs || parse->rowMarks ||
		parse->setOperations || root->hasPseudoConstantQuals ||
		parse->limitOption != LIMIT_OPTION_COUNT ||
		bms_membership(root->all_baserels) != BMS_SINGLETON)
		return;
	relid = bms_singleton_member(root->all_baserels);
	baserel = root->simple_rel_array[relid];
	st = baserel->fdw_private;
	if (st == NULL || baserel->reloptkind != RELOPT_BASEREL ||
		!pqfdw_upper_pushdown_ok(st))
		return;

	if (!pqfdw_top_n_limit(parse, &count, &offset))
		return;

	/* the final relation's target is in upper_targets, not its reltarget */
	target = root->upper_targets[UPPERREL_FINAL];
	keys = sort_keys(root, relid);
	if (keys == NIL || !plain_columns(target->exprs, relid))
		return;
	scan_private = pqfdw_scan_private(root, baserel,
									  planner_rt_fetch(relid, root)->relid,
									  baserel->baserestrictinfo, &local,
									  &prune_values);
	if (local != NIL)
		return;

	/* the scan's decoding, but no tuple per row nor a sort of all rows */
	startup = 10.0 * list_length(st->paths) +
		seq_page_cost * (st->bytes / BLCKSZ) +
		st->scanned_tuples * cpu_operator_cost * (0.25 * st->ncolumns + 1.0);
	path = pqfdw_create_foreign_upper_path(root, output_rel, target,
										   Min(count, baserel->rows), startup,
										   startup + count * cpu_tuple_cost,
										   root->sort_pathkeys, NULL,
										   list_make2(makeInteger(PQFDW_PLAN_TOP_N),
													  list_make5(scan_private,
																 prune_values,
																 keys,
																 makeInteger(count),
																 makeInteger(offset))));
	add_path(output_rel, (Path *) path);

	if (output_rel->consider_parallel && baserel->partial_pathlist != NIL)
	{
		Path	   *scan = linitial(baserel->partial_pathlist);

		add_parallel_path(root, output_rel, target, scan->parallel_workers,
						  startup, list_make5(scan_private, prune_values, keys,
											  makeInteger(count + offset),
											  makeInteger(0)),
						  count, offset, Min(count + offset, baserel->rows));
	}
}

/*
 * The plan of that path: a scan of the table (scanrelid, so that the
 * target list projects the table's columns), its fdw_private a scan's plus
 * the top-N: (count, offset, sort keys).
 */
ForeignScan *
pqfdw_top_n_plan(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path,
				 List *tlist, Plan *outer_plan)
{
	List	   *priv = lsecond(best_path->fdw_private);
	List	   *fdw_private = list_copy(linitial(priv));
	Index		relid = bms_singleton_member(root->all_baserels);

	Assert(list_length(fdw_private) == PQFDW_PRIVATE_EXTRA);
	linitial(fdw_private) = makeInteger(PQFDW_PLAN_TOP_N);
	fdw_private = lappend(fdw_private,
						  list_make3(list_nth(priv, 3), list_nth(priv, 4),
									 lthird(priv)));
	return make_foreignscan(tlist, NIL, relid, lsecond(priv), fdw_private,
							NIL, NIL, outer_plan);
}
