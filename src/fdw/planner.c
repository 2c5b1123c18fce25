/*-------------------------------------------------------------------------
 *
 * planner.c
 *		Relation size, paths and plan for parquet_fdw foreign tables.
 *
 * Row counts come from the footers; costs from the compressed bytes of the
 * column chunks the query needs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "access/table.h"
#include "fdw_api.h"
#include "filter.h"
#include "prune.h"
#include "nodes/makefuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "parquet_fdw.h"
#include "utils/rel.h"

typedef struct PqfdwPlanState
{
	List	   *paths;
	List	   *attnums;		/* attribute numbers the scan must produce */
	int			row_groups;
	double		bytes;			/* compressed bytes of the needed chunks */
	int			ncolumns;
} PqfdwPlanState;

/* Attribute numbers referenced by the target list and the quals. */
static List *
needed_attnums(RelOptInfo *baserel, Relation rel)
{
	Bitmapset  *attrs = NULL;
	ListCell   *lc;
	List	   *result = NIL;
	bool		whole_row;
	int			i;
	TupleDesc	tupdesc = RelationGetDescr(rel);

	pull_varattnos((Node *) baserel->reltarget->exprs, baserel->relid, &attrs);
	foreach(lc, baserel->baserestrictinfo)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		pull_varattnos((Node *) ri->clause, baserel->relid, &attrs);
	}
	whole_row = bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, attrs);
	for (i = 1; i <= tupdesc->natts; i++)
	{
		if (TupleDescAttr(tupdesc, i - 1)->attisdropped)
			continue;
		if (whole_row ||
			bms_is_member(i - FirstLowInvalidHeapAttributeNumber, attrs))
			result = lappend_int(result, i);
	}
	return result;
}

void
pqfdw_GetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel,
						Oid foreigntableid)
{
	PqfdwPlanState *st = palloc0(sizeof(PqfdwPlanState));
	PqfdwTableOptions opts;
	List	   *files;
	ListCell   *lc;
	double		tuples = 0;
	Relation	rel;

	pqfdw_get_table_options(foreigntableid, &opts);
	st->paths = opts.paths;
	files = pqfdw_open_footers(opts.paths);

	rel = table_open(foreigntableid, NoLock);
	st->attnums = needed_attnums(baserel, rel);
	st->ncolumns = list_length(st->attnums);

	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);
		ListCell   *ac;
		int			rg;

		tuples += f->md.num_rows;
		st->row_groups += f->md.n_row_groups;
		foreach(ac, st->attnums)
		{
			AttrNumber	attnum = lfirst_int(ac);
			PqSchemaNode *node = pqfdw_find_column(f, foreigntableid, attnum,
												   f->src->name);

			for (rg = 0; rg < f->md.n_row_groups; rg++)
			{
				int			c;

				for (c = node->first_leaf; c < node->first_leaf + node->n_leaves; c++)
				{
					const PqColumnChunk *cc = &f->md.row_groups[rg].columns[c];

					if (cc->has_meta_data)
						st->bytes += cc->meta_data.total_compressed_size;
				}
			}
		}
	}
	table_close(rel, NoLock);

	baserel->tuples = tuples;
	baserel->rows = clamp_row_est(tuples *
								  clauselist_selectivity(root,
														 baserel->baserestrictinfo,
														 0, JOIN_INNER, NULL));
	baserel->fdw_private = st;
}

void
pqfdw_GetForeignPaths(PlannerInfo *root, RelOptInfo *baserel,
					  Oid foreigntableid)
{
	PqfdwPlanState *st = baserel->fdw_private;
	Cost		startup_cost;
	Cost		run_cost;
	QualCost	qcost;

	/* reading footers, then sequential reads of the needed chunks */
	startup_cost = 10.0 * list_length(st->paths);
	run_cost = seq_page_cost * (st->bytes / BLCKSZ);
	/* decoding is cheap per value; forming tuples costs like a heap scan */
	run_cost += baserel->tuples * (cpu_tuple_cost * 0.5 +
								   cpu_operator_cost * 0.25 * st->ncolumns);
	cost_qual_eval(&qcost, baserel->baserestrictinfo, root);
	startup_cost += qcost.startup;
	run_cost += qcost.per_tuple * baserel->tuples;
	run_cost += baserel->reltarget->cost.per_tuple * baserel->rows;

	add_path(baserel, (Path *)
			 create_foreignscan_path(root, baserel, NULL,
									 baserel->rows,
									 startup_cost,
									 startup_cost + run_cost,
									 NIL, NULL, NULL, NIL));
}

ForeignScan *
pqfdw_GetForeignPlan(PlannerInfo *root, RelOptInfo *baserel,
					 Oid foreigntableid, ForeignPath *best_path,
					 List *tlist, List *scan_clauses, Plan *outer_plan)
{
	PqfdwPlanState *st = baserel->fdw_private;
	List	   *paths = NIL;
	List	   *fdw_private;
	List	   *filters;
	List	   *prune;
	List	   *prune_values;
	ListCell   *lc;

	/* quals that prune row groups, and quals evaluated on batches */
	prune = pqfdw_prune_clauses(scan_clauses, baserel->relid, &prune_values);
	filters = pqfdw_batch_filter_clauses(scan_clauses, baserel->relid);
	scan_clauses = list_difference_ptr(extract_actual_clauses(scan_clauses, false),
									   filters);

	foreach(lc, st->paths)
		paths = lappend(paths, makeString(pstrdup(lfirst(lc))));
	fdw_private = list_make5(paths, st->attnums,
							 makeInteger(st->row_groups), filters, prune);

	/* the executor evaluates the values pruning compares with */
	return make_foreignscan(tlist, scan_clauses, baserel->relid,
							prune_values, fdw_private, NIL, NIL, outer_plan);
}
