/*-------------------------------------------------------------------------
 *
 * upper.c
 *		Aggregates the footers answer: count(*) (the sum of the row groups'
 *		row counts), count(column) of a flat column (row counts less null
 *		counts) and min/max of integer, date, time, timestamp, DECIMAL and
 *		string columns (the row groups' statistics), so no data page is
 *		read.
 *
 * GetForeignUpperPaths offers, for the grouping relation of a query over
 * one parquet_fdw table with no WHERE, GROUP BY, HAVING or grouping sets
 * whose target uses only such aggregates (plain: no FILTER, DISTINCT or
 * ORDER BY), a ForeignScan of the grouping relation whose scan tuple holds
 * them (fdw/pushdown/footer_answers.c computes them).  Anything else is left
 * to PostgreSQL's Aggregate over the scan.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/common/columns.h"
#include "fdw/common/pg_compat.h"
#include "fdw/convert/nested.h"
#include "fdw/plan/plan.h"
#include "fdw/pushdown/pushdown.h"
#include "fdw/scan/scan.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/tlist.h"
#include "utils/fmgroids.h"

/* min/max: the kind, or 0 when aggfnoid is neither for a supported type */
static int
minmax_kind(Oid aggfnoid)
{
	switch (aggfnoid)
	{
		case F_MIN_INT2:
		case F_MIN_INT4:
		case F_MIN_INT8:
		case F_MIN_DATE:
		case F_MIN_TIME:
		case F_MIN_TIMESTAMP:
		case F_MIN_TIMESTAMPTZ:
		case F_MIN_NUMERIC:
		case F_MIN_TEXT:
			return PQFDW_FOOTER_MIN;
		case F_MAX_INT2:
		case F_MAX_INT4:
		case F_MAX_INT8:
		case F_MAX_DATE:
		case F_MAX_TIME:
		case F_MAX_TIMESTAMP:
		case F_MAX_TIMESTAMPTZ:
		case F_MAX_NUMERIC:
		case F_MAX_TEXT:
			return PQFDW_FOOTER_MAX;
	}
	return 0;
}

/*
 * A column whose statistics can give its min/max, in every file: a flat
 * leaf of signed integers, dates, times, timestamps, DECIMALs or strings.
 * Whether a row group's bounds are exact and in PostgreSQL's order for the
 * declared type and collation is decided when they are read
 * (footer_answers.c), which reads the column where they are not.
 */
static bool
stats_column(PqfdwPlanState *st, AttrNumber attnum)
{
	ListCell   *lc;

	if (pqfdw_dataset_is_virtual(st->ds, attnum))
		return false;
	foreach(lc, st->files)
	{
		PqFile	   *f = lfirst(lc);
		PqSchemaNode *node = pqfdw_find_column(f, st->relid, attnum,
											   f->src->name);
		int			pt = node->physical_type;
		int			lt = node->logical.id;
		bool		ints = pt == PQ_INT32 || pt == PQ_INT64;

		if (pqfdw_is_nested_field(node))
			return false;
		if (ints && (lt == PQ_LT_NONE || lt == PQ_LT_DATE || lt == PQ_LT_TIME ||
					 lt == PQ_LT_TIMESTAMP || lt == PQ_LT_DECIMAL ||
					 (lt == PQ_LT_INTEGER && node->logical.int_is_signed)))
			continue;
		if ((pt == PQ_BYTE_ARRAY || pt == PQ_FIXED_LEN_BYTE_ARRAY) &&
			lt == PQ_LT_DECIMAL)
			continue;
		if (pt == PQ_BYTE_ARRAY && (lt == PQ_LT_STRING || lt == PQ_LT_ENUM))
			continue;
		return false;
	}
	return true;
}

/* A column that is a flat leaf in every file: its chunks count its NULLs. */
static bool
flat_column(PqfdwPlanState *st, AttrNumber attnum)
{
	ListCell   *lc;

	if (pqfdw_dataset_is_virtual(st->ds, attnum))
		return false;
	foreach(lc, st->files)
	{
		PqFile	   *f = lfirst(lc);

		if (pqfdw_is_nested_field(pqfdw_find_column(f, st->relid, attnum,
													f->src->name)))
			return false;
	}
	return true;
}

/* The column an aggregate of one plain Var of input_rel reads, else 0. */
static AttrNumber
aggregated_column(Aggref *agg, RelOptInfo *input_rel)
{
	Var		   *var;

	if (list_length(agg->args) != 1)
		return 0;
	var = (Var *) linitial_node(TargetEntry, agg->args)->expr;
	if (!IsA(var, Var) || var->varno != input_rel->relid ||
		var->varlevelsup != 0 || var->varattno <= 0)
		return 0;
	return var->varattno;
}

/*
 * Is expr built of aggregates the footers answer, constants and
 * operators?  Adds the aggregates to *aggrefs.
 */
static bool
footer_answerable(Node *expr, RelOptInfo *input_rel, PqfdwPlanState *st,
				  List **aggrefs)
{
	List	   *found = pull_var_clause(expr, PVC_INCLUDE_AGGREGATES |
										PVC_INCLUDE_PLACEHOLDERS |
										PVC_INCLUDE_WINDOWFUNCS);
	ListCell   *lc;

	foreach(lc, found)
	{
		Aggref	   *agg = lfirst(lc);

		if (!IsA(agg, Aggref) || agg->aggfilter != NULL ||
			agg->aggdistinct != NIL || agg->aggorder != NIL ||
			agg->agglevelsup != 0 || agg->aggsplit != AGGSPLIT_SIMPLE)
			return false;
		if (agg->aggfnoid == F_COUNT_ && agg->aggstar)
			;
		else if (agg->aggfnoid == F_COUNT_ANY)
		{
			AttrNumber	attnum = aggregated_column(agg, input_rel);

			if (attnum == 0 || !flat_column(st, attnum))
				return false;
		}
		else if (minmax_kind(agg->aggfnoid) != 0)
		{
			AttrNumber	attnum = aggregated_column(agg, input_rel);

			if (attnum == 0 || !stats_column(st, attnum))
				return false;
		}
		else
			return false;
		*aggrefs = lappend(*aggrefs, agg);
	}
	return !contain_volatile_functions(expr);
}

/*
 * The scan tuple: each distinct aggregate once; per column its kind
 * (PqfdwFooterKind) and the attribute number min/max read.
 */
static List *
footer_scan_tlist(List *aggrefs, List **kinds, List **attnums)
{
	List	   *scan_tlist = add_to_flat_tlist(NIL, aggrefs);
	ListCell   *lc;

	*kinds = NIL;
	*attnums = NIL;
	foreach(lc, scan_tlist)
	{
		Aggref	   *agg = (Aggref *) lfirst_node(TargetEntry, lc)->expr;

		if (agg->aggstar)
		{
			*kinds = lappend_int(*kinds, PQFDW_FOOTER_COUNT);
			*attnums = lappend_int(*attnums, 0);
			continue;
		}
		*kinds = lappend_int(*kinds, agg->aggfnoid == F_COUNT_ANY ?
							 PQFDW_FOOTER_COUNT_COLUMN :
							 minmax_kind(agg->aggfnoid));
		*attnums = lappend_int(*attnums,
							   ((Var *) linitial_node(TargetEntry,
													  agg->args)->expr)->varattno);
	}
	return scan_tlist;
}

static void
footer_paths(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel)
{
	Query	   *parse = root->parse;
	PqfdwPlanState *st;
	List	   *aggrefs = NIL;
	List	   *scan_tlist;
	List	   *kinds;
	List	   *attnums;
	List	   *file_set;
	ListCell   *lc;
	Cost		cost;

	/*
	 * Only a base relation, not a partition's child relation (for a base
	 * relation, partitionwise aggregation only means the setting is on).
	 */
	if (input_rel->reloptkind != RELOPT_BASEREL ||
		parse->groupClause != NIL || parse->groupingSets != NIL ||
		root->hasHavingQual || parse->hasWindowFuncs ||
		parse->hasTargetSRFs || input_rel->fdw_private == NULL)
		return;
	st = input_rel->fdw_private;

	/*
	 * Quals only on partition columns, true for every file the plan reads,
	 * leave those files' rows as they are.  Footers count the rows a deletion
	 * vector deleted.
	 */
	if ((input_rel->baserestrictinfo != NIL && !st->file_quals_decided) ||
		st->ds->union_by_name || st->virtual_in_target ||
		pqfdw_dataset_has_deletes(st->ds))
		return;
	foreach(lc, output_rel->reltarget->exprs)
		if (!footer_answerable(lfirst(lc), input_rel, st, &aggrefs))
		return;
	if (aggrefs == NIL)
		return;
	scan_tlist = footer_scan_tlist(aggrefs, &kinds, &attnums);

	/* the footers are read again at execution: as the scan's startup */
	cost = 10.0 * list_length(st->paths);
	/* with the files named now when they are not those planned */
	file_set = list_make3(pqfdw_plan_hash(st->paths_hash),
						  makeInteger(input_rel->relid),
						  copyObject(st->file_clauses));
	add_path(output_rel, (Path *)
			 pqfdw_create_foreign_upper_path(root, output_rel, output_rel->reltarget,
											 1, cost, cost, NIL, NULL,
											 list_make3(makeInteger(PQFDW_PLAN_FOOTER),
														lappend(list_make5(makeInteger(PQFDW_PLAN_FOOTER),
																		   pqfdw_path_nodes(st),
																		   makeInteger(st->relid),
																		   kinds, attnums),
																file_set),
														scan_tlist)));
}

/*
 * The grouping relation of a query over one table: aggregates from the
 * footers, and GROUP BY and aggregates computed by the scan (grouping.c);
 * add_path keeps the cheaper.  The partially grouped relation (parallel
 * plans): partial states computed by a parallel grouped scan.  The final
 * relation: ORDER BY ... LIMIT computed by the scan (top_n.c), or over
 * the groups of a grouped scan (grouped_top_n.c).
 */
void
pqfdw_GetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
						   RelOptInfo *input_rel, RelOptInfo *output_rel,
						   void *extra)
{
	if (stage == UPPERREL_GROUP_AGG)
		footer_paths(root, input_rel, output_rel);
	if (stage == UPPERREL_GROUP_AGG || stage == UPPERREL_PARTIAL_GROUP_AGG)
		pqfdw_grouping_paths(root, stage, input_rel, output_rel, extra);
	if (stage == UPPERREL_FINAL)
	{
		pqfdw_top_n_paths(root, input_rel, output_rel, extra);
		pqfdw_grouped_top_n_paths(root, output_rel, extra);
	}
}

/*
 * The plan of an upper path, whose fdw_private is its plan kind and what
 * that kind's planner needs.  A footer path's: no scanned relation; the
 * scan tuple is the aggregates (fdw_scan_tlist), and setrefs points the
 * target list at them; the executor gets its fdw_private (pushdown.h):
 * paths, relid, kinds, attnums and what it needs to prune the files named
 * at execution when they differ from those planned.
 */
ForeignScan *
pqfdw_upper_plan(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path,
				 List *tlist, Plan *outer_plan)
{
	List	   *priv = lsecond(best_path->fdw_private);

	switch ((PqfdwPlanKind) intVal(linitial(best_path->fdw_private)))
	{
		case PQFDW_PLAN_GROUPED:
			return pqfdw_grouping_plan(root, rel, best_path, tlist, outer_plan);
		case PQFDW_PLAN_TOP_N:
			return pqfdw_top_n_plan(root, rel, best_path, tlist, outer_plan);
		case PQFDW_PLAN_FOOTER:
			return make_foreignscan(tlist, NIL, 0, NIL, list_copy(priv),
									copyObject(lthird(best_path->fdw_private)),
									NIL, outer_plan);
		default:
			elog(ERROR, "parquet_fdw: unknown upper path");
	}
	return NULL;
}
