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

#include <math.h>

#include "access/sysattr.h"
#include "catalog/pg_type.h"
#include "fdw/common/columns.h"
#include "fdw/common/pg_compat.h"
#include "fdw/plan/plan.h"
#include "fdw/scan/scan.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
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
 * What a top-N scan reads while rows compete, as shares of the table's
 * chunks (*bytes) and columns (*columns): with late materialization
 * (table_reader_rows.c) the sort keys' and the quals' columns; the other
 * columns are read late, for the row groups of the kept rows only.
 */
static void
early_shares(PqfdwPlanState *st, RelOptInfo *baserel, List *keys,
			 int64 kept, double *bytes, double *columns)
{
	Bitmapset  *early = NULL;
	double		all = 0;
	double		late = 0;
	int			ncols = 0;
	int			nearly = 0;
	ListCell   *lc;

	*bytes = *columns = 1.0;
	if (!pqfdw_enable_late_materialization || kept == 0)
		return;
	foreach(lc, keys)
		early = bms_add_member(early, linitial_int(lfirst(lc)) -
							   FirstLowInvalidHeapAttributeNumber);
	pull_varattnos((Node *) extract_actual_clauses(baserel->baserestrictinfo,
												   false),
				   baserel->relid, &early);
	foreach(lc, st->attnums)
	{
		ncols++;
		nearly += bms_is_member(lfirst_int(lc) - FirstLowInvalidHeapAttributeNumber,
								early);
	}
	foreach(lc, st->files)
	{
		PqFile	   *f = lfirst(lc);
		ListCell   *ac;

		foreach(ac, st->attnums)
		{
			AttrNumber	attnum = lfirst_int(ac);
			PqSchemaNode *node;
			int			rg;
			int			c;

			if (pqfdw_dataset_is_virtual(st->ds, attnum) ||
				(node = pqfdw_find_column_opt(f, st->relid, attnum)) == NULL)
				continue;
			for (rg = 0; rg < f->md.n_row_groups; rg++)
				for (c = node->first_leaf; c < node->first_leaf + node->n_leaves; c++)
				{
					const PqColumnChunk *cc = &f->md.row_groups[rg].columns[c];
					double		n = cc->has_meta_data ?
					cc->meta_data.total_compressed_size : 0;

					all += n;
					if (!bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber,
									   early))
						late += n;
				}
		}
	}
	if (all > 0)
		*bytes = 1.0 - late / all;
	if (ncols > 0)
		*columns = (double) nearly / ncols;
}

/*
 * The share of the row groups that hold at least one of kept rows, each
 * in a row group of its own process's share (1 / procs of them), at
 * random: what procs processes read late in all.
 */
static double
late_row_groups(PqfdwPlanState *st, int procs, int64 kept)
{
	if (st->row_groups <= 0)
		return 1.0;
	return 1.0 - pow(1.0 - Min(1.0, (double) procs / st->row_groups),
					 (double) kept);
}

/*
 * Limit over Gather Merge over a parallel top-N scan of workers processes
 * (and the leader), each keeping the best rows (count + offset of them:
 * private's count) of the row groups it claims; startup is its cost
 * before the first row.
 */
static void
add_parallel_path(PlannerInfo *root, RelOptInfo *output_rel,
				  PathTarget *target, int workers, double divisor,
				  Cost startup, List *private, int64 count, int64 offset,
				  double rows)
{
	Query	   *parse = root->parse;
	double		all_rows;
	ForeignPath *partial;
	GatherMergePath *merge;

	all_rows = rows * divisor;
	partial = pqfdw_create_foreign_upper_path(root, output_rel, target, rows,
											  startup,
											  startup + rows * cpu_tuple_cost,
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
	double		early_bytes;
	double		early_columns;
	Cost		io;
	Cost		cpu;
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

	/*
	 * The scan's decoding, but no tuple per row nor a sort of all rows: the
	 * columns read early for every row, the others in the kept rows' row
	 * groups only, and decoded for those rows.
	 */
	early_shares(st, baserel, keys, count + offset, &early_bytes,
				 &early_columns);
	io = seq_page_cost * (st->bytes / BLCKSZ);
	cpu = st->scanned_tuples * cpu_operator_cost *
		(0.25 * st->ncolumns * early_columns + 1.0);
	startup = 10.0 * list_length(st->paths) + cpu +
		io * (early_bytes + (1.0 - early_bytes) *
			  late_row_groups(st, 1, count + offset));
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
		int			workers = ((Path *) linitial(baserel->partial_pathlist))->parallel_workers;
		double		divisor = workers;

		/* get_parallel_divisor() of costsize.c */
		if (parallel_leader_participation && workers < 4)
			divisor += 1.0 - 0.3 * workers;

		/*
		 * The processes share the early reading; each reads late the row
		 * groups of its own kept rows, on the cores they share.
		 */
		startup = 10.0 * list_length(st->paths) + cpu / divisor +
			io * (early_bytes / divisor + (1.0 - early_bytes) *
				  late_row_groups(st, workers + 1, count + offset) *
				  (workers + 1) / divisor);
		add_parallel_path(root, output_rel, target, workers, divisor,
						  startup,
						  list_make5(scan_private, prune_values, keys,
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
