/*-------------------------------------------------------------------------
 *
 * scan_private.c
 *		What the executor's scan gets from the planner (fdw_private, see
 *		fdw/scan/scan.h): the files, the columns to read, the quals split
 *		into those that prune row groups and those evaluated on batches,
 *		the jsonb columns used only as v -> 'key', and the columns used
 *		above the scan.  For plain scans (planner.c) and grouped scans
 *		(grouping.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "catalog/pg_type.h"
#include "fdw/plan/plan.h"
#include "fdw/prune/prune.h"
#include "fdw/scan/filter.h"
#include "fdw/scan/scan.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/restrictinfo.h"
#include "utils/lsyscache.h"

/*
 * For each jsonb attribute read that the query uses only as v -> 'key':
 * (attnum, keys), so that a VARIANT field reads only those fields.
 */
static List *
variant_keys(PlannerInfo *root, RelOptInfo *baserel, Oid relid, List *attnums)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, attnums)
	{
		AttrNumber	attnum = lfirst_int(lc);
		List	   *keys;

		if (get_atttype(relid, attnum) != JSONBOID)
			continue;
		keys = pqfdw_variant_field_uses(root, baserel->relid, attnum);
		if (keys != NIL)
			result = lappend(result, list_make2(makeInteger(attnum), keys));
	}
	return result;
}

/*
 * The attributes of attnums the plan uses above the scan: its target and
 * the quals the executor still evaluates (a whole-row reference uses all).
 */
static List *
output_attnums(RelOptInfo *baserel, List *exec_quals, List *attnums)
{
	Bitmapset  *used = NULL;
	List	   *result = NIL;
	ListCell   *lc;
	bool		whole;

	pull_varattnos((Node *) baserel->reltarget->exprs, baserel->relid, &used);
	pull_varattnos((Node *) exec_quals, baserel->relid, &used);
	whole = bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, used);
	foreach(lc, attnums)
	{
		int			a = lfirst_int(lc);

		if (whole || bms_is_member(a - FirstLowInvalidHeapAttributeNumber, used))
			result = lappend_int(result, a);
	}
	return result;
}

/*
 * The paths were allocated where the plan is (the planner's context) and
 * copyObject copies them with it, so the String nodes need no copies; one
 * list serves the scan, grouping, top-N and footer paths alike (perf: making
 * them for each took 9% of planning over 10,000 files).
 */
List *
pqfdw_path_nodes(PqfdwPlanState *st)
{
	ListCell   *lc;

	if (st->path_nodes == NIL)
		foreach(lc, st->paths)
			st->path_nodes = lappend(st->path_nodes, makeString(lfirst(lc)));
	return st->path_nodes;
}

List *
pqfdw_scan_private(PlannerInfo *root, RelOptInfo *baserel,
				   Oid foreigntableid, List *scan_clauses,
				   List **local_clauses, List **prune_values)
{
	PqfdwPlanState *st = baserel->fdw_private;
	List	   *fdw_private;
	List	   *filters;
	List	   *prune;
	List	   *fields;
	List	   *file_clauses;
	int			nprune_values;

	/*
	 * quals that prune row groups, and quals evaluated on batches: on fields;
	 * under union_by_name a field's type may change from file to file, which
	 * batch filters, bound once, cannot follow
	 */
	fields = pqfdw_dataset_field_clauses(st->ds, scan_clauses, baserel->relid);
	prune = pqfdw_prune_clauses(fields, baserel->relid, prune_values);
	filters = st->ds->union_by_name ? NIL :
		pqfdw_batch_filter_clauses(fields, baserel->relid);
	nprune_values = list_length(*prune_values);
	file_clauses = pqfdw_file_clauses(st->ds, scan_clauses, baserel->relid);
	*local_clauses = list_difference_ptr(extract_actual_clauses(scan_clauses, false),
										 filters);

	fdw_private = list_make5(makeInteger(PQFDW_PLAN_SCAN),
							 pqfdw_path_nodes(st), st->attnums,
							 makeInteger(st->row_groups), filters);
	fdw_private = lappend(fdw_private, prune);
	fdw_private = lappend(fdw_private, makeInteger(baserel->relid));
	fdw_private = lappend(fdw_private, variant_keys(root, baserel, foreigntableid,
													st->attnums));
	fdw_private = lappend(fdw_private, output_attnums(baserel, *local_clauses,
													  st->attnums));
	fdw_private = lappend(fdw_private,
						  list_concat(list_make5(makeInteger(st->hive),
												 makeInteger(st->files_total),
												 makeInteger(st->files_pruned),
												 makeInteger(nprune_values),
												 pqfdw_plan_hash(st->paths_hash)),
									  list_make3(makeInteger(st->dirs_skipped),
												 makeInteger(st->files_pruned_stats),
												 makeBoolean(st->ds->union_by_name))));
	/* the executor evaluates the file clauses too: after the values */
	*prune_values = list_concat(*prune_values, file_clauses);
	return fdw_private;
}
