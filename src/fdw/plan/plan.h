/*-------------------------------------------------------------------------
 *
 * plan.h
 *		FdwRoutine callbacks of the planner side (planner.c) and the
 *		analysis of jsonb key uses it relies on (variant_fields.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PLAN_H
#define PQFDW_PLAN_H

#include "fdw/dataset/dataset.h"
#include "foreign/fdwapi.h"

/* What GetForeignRelSize learnt of a foreign table (RelOptInfo.fdw_private). */
typedef struct PqfdwPlanState
{
	List	   *paths;
	List	   *path_nodes;		/* paths as String nodes for fdw_private, made
								 * once for every path considered */
	List	   *attnums;		/* attribute numbers the scan must produce */
	int			row_groups;
	double		bytes;			/* compressed bytes of the needed chunks */
	int			ncolumns;
	List	   *files;			/* PqFile footers */
	Oid			relid;
	double		scanned_tuples; /* in row groups statistics do not prune */
	List	   *sorted;			/* the option sorted (PqfdwSortKey) */

	/* datasets (fdw/dataset/): paths are the files partition pruning kept */
	PqfdwDataset *ds;			/* column kinds (over all files) */
	bool		hive;			/* hive partitioning is on */
	int			files_total;	/* files before partition pruning */
	int			dirs_skipped;	/* partition directories never listed */
	uint64		paths_hash;		/* pqfdw_paths_hash() of those files */
	int			files_pruned;	/* files pruned by partition at plan time */
	int			files_pruned_stats; /* ... by a table format's statistics */
	List	   *file_clauses;	/* quals that prune files at execution */
	bool		file_quals_decided; /* every qual prunes files and is true for
									 * every file planned */
	bool		virtual_in_target;	/* the scan produces dataset columns */
	bool		virtual_in_quals;

	/*
	 * The grouping relation's partitioned grouped scan (grouping.c), for
	 * grouped_top_n.c: its workers (0: none), their share of the work as
	 * get_parallel_divisor() counts it, and the cost before its first group.
	 */
	int			grouped_workers;
	double		grouped_divisor;
	Cost		grouped_startup;
} PqfdwPlanState;

/* Whether aggregates, grouping and top-N may run inside the scan. */
static inline bool
pqfdw_upper_pushdown_ok(const PqfdwPlanState *st)
{
	return !st->ds->union_by_name && !st->virtual_in_target &&
		!st->virtual_in_quals;
}

/*
 * column_stats.c: null fractions and distinct counts from the footers for
 * the planner (get_relation_stats_hook), where ANALYZE has not run.
 */
extern void pqfdw_column_stats_init(void);

/* plan_footers.c: the planner_hook marking plannings for the footer cache */
extern void pqfdw_plan_footers_init(void);

/*
 * partition_listing.c: the files of a table's options for a plan (paths,
 * paths_hash): of hive datasets in buckets, only the partitions baserel's
 * quals leave are listed.
 */
extern void pqfdw_plan_table_files(PlannerInfo *root, RelOptInfo *baserel,
								   Relation rel, PqfdwTableOptions *opts);

/* planner.c */
extern void pqfdw_GetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel,
									Oid foreigntableid);
extern void pqfdw_GetForeignPaths(PlannerInfo *root, RelOptInfo *baserel,
								  Oid foreigntableid);
extern ForeignScan *pqfdw_GetForeignPlan(PlannerInfo *root,
										 RelOptInfo *baserel,
										 Oid foreigntableid,
										 ForeignPath *best_path,
										 List *tlist, List *scan_clauses,
										 Plan *outer_plan);

/*
 * scan_private.c: the scan's fdw_private (scan.h) for the quals scan_clauses
 * (RestrictInfos); *local_clauses are those the executor must evaluate
 * above the scan, *prune_values the values pruning compares with (the
 * plan's fdw_exprs).
 */
extern List *pqfdw_scan_private(PlannerInfo *root, RelOptInfo *baserel,
								Oid foreigntableid, List *scan_clauses,
								List **local_clauses, List **prune_values);

/* st->paths as String nodes for an fdw_private (made once per relation) */
extern List *pqfdw_path_nodes(PqfdwPlanState *st);

/*
 * grouping.c: GROUP BY and aggregates computed by the scan (grouped scans,
 * fdw/pushdown/), as a ForeignScan of the grouping relation.
 */
extern void pqfdw_grouping_paths(PlannerInfo *root, UpperRelationKind stage,
								 RelOptInfo *input_rel,
								 RelOptInfo *output_rel,
								 GroupPathExtraData *extra);
extern bool pqfdw_enable_grouped_scan;	/* GUC */
extern ForeignScan *pqfdw_grouping_plan(PlannerInfo *root, RelOptInfo *rel,
										ForeignPath *best_path, List *tlist,
										Plan *outer_plan);

/*
 * top_n.c: ORDER BY ... LIMIT over one table computed by the scan (top-N
 * scans, fdw/pushdown/top_n_scan.c), as a ForeignScan of the final relation.
 */
extern void pqfdw_top_n_paths(PlannerInfo *root, RelOptInfo *input_rel,
							  RelOptInfo *output_rel,
							  FinalPathExtraData *extra);

/*
 * The query's LIMIT and OFFSET when both are constants and keep at most
 * the rows a top-N scan keeps (top_n.c).
 */
extern bool pqfdw_top_n_limit(Query *parse, int64 *count, int64 *offset);

/*
 * grouped_top_n.c: ORDER BY ... LIMIT of a grouped scan's groups (the
 * final relation), by grouping keys and aggregates.
 */
extern void pqfdw_grouped_top_n_paths(PlannerInfo *root,
									  RelOptInfo *output_rel,
									  FinalPathExtraData *extra);

extern ForeignScan *pqfdw_top_n_plan(PlannerInfo *root, RelOptInfo *rel,
									 ForeignPath *best_path, List *tlist,
									 Plan *outer_plan);
extern bool pqfdw_enable_top_n_scan;	/* GUC */

/*
 * sort_order.c: the pathkeys of the order the option sorted (PqfdwSortKey
 * list) declares, checked against the footers in st->files (an ERROR when
 * they contradict it); NIL when no query would use them.
 */
extern List *pqfdw_sort_pathkeys(PlannerInfo *root, RelOptInfo *baserel,
								 PqfdwPlanState *st, List *sorted);

/*
 * upper.c: aggregates the footers answer (count(*) of a table without
 * quals), as a ForeignScan of the grouping relation.
 */
extern void pqfdw_GetForeignUpperPaths(PlannerInfo *root,
									   UpperRelationKind stage,
									   RelOptInfo *input_rel,
									   RelOptInfo *output_rel, void *extra);
extern ForeignScan *pqfdw_upper_plan(PlannerInfo *root, RelOptInfo *rel,
									 ForeignPath *best_path, List *tlist,
									 Plan *outer_plan);

/* variant_fields.c: the keys of v -> 'key' uses of column attno, or NIL */
extern List *pqfdw_variant_field_uses(PlannerInfo *root, Index relid,
									  AttrNumber attno);

/*
 * vector_plan.c: the vector work of a plain scan
 * (fdw/pushdown/vector_scan.c): the quals the batch filter left (local),
 * when the scan takes them all, else NIL; and the expressions of the
 * scan's target it computes, NIL when none.
 */
extern List *pqfdw_vector_quals(PlannerInfo *root, RelOptInfo *baserel,
								List *local);
extern List *pqfdw_vector_columns(PlannerInfo *root, RelOptInfo *baserel);
extern bool pqfdw_enable_row_filter;	/* GUC */
extern bool pqfdw_enable_scan_projection;	/* GUC */

#endif							/* PQFDW_PLAN_H */
