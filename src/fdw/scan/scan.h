/*-------------------------------------------------------------------------
 *
 * scan.h
 *		FdwRoutine callbacks of the executor side (scan.c, analyze.c) and
 *		the plan-time facts the planner hands them in fdw_private.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_SCAN_H
#define PQFDW_SCAN_H

#include "fdw/scan/table_reader.h"
#include "foreign/fdwapi.h"

/* scan.c */
extern void pqfdw_BeginForeignScan(ForeignScanState *node, int eflags);
extern TupleTableSlot *pqfdw_IterateForeignScan(ForeignScanState *node);
extern void pqfdw_ReScanForeignScan(ForeignScanState *node);
extern void pqfdw_EndForeignScan(ForeignScanState *node);
extern void pqfdw_ExplainForeignScan(ForeignScanState *node,
									 struct ExplainState *es);

/*
 * scan.c, for plans that read a table without being its scan (grouped
 * scans, fdw/aggregate/): the scan of rel, range table entry scanrelid,
 * set up from the plan's fdw_private and fdw_exprs; its reader (NULL with
 * EXPLAIN only) hands out the batches, pruned and filtered.
 */
typedef struct PqScanState PqScanState;

extern PqScanState *pqfdw_scan_begin(ForeignScanState *node, Relation rel,
									 Index scanrelid, int eflags);
extern PqTableReader *pqfdw_scan_reader(PqScanState *st);
extern void pqfdw_scan_rescan(PqScanState *st);
extern void pqfdw_scan_end(PqScanState *st);
extern void pqfdw_scan_explain(PqScanState *st, ForeignScanState *node,
							   struct ExplainState *es);
/* ... and as a parallel scan (ReInitializeDSM needs no state) */
extern Size pqfdw_scan_estimate_dsm(PqScanState *st);
extern void pqfdw_scan_init_dsm(PqScanState *st, ParallelContext *pcxt,
								void *coordinate);
extern void pqfdw_scan_init_worker(PqScanState *st, void *coordinate);
extern void pqfdw_scan_shutdown(PqScanState *st);

/* scan.c: parallel scans (the shared state is in parallel.c) */
extern bool pqfdw_IsForeignScanParallelSafe(PlannerInfo *root,
											RelOptInfo *rel,
											RangeTblEntry *rte);
extern Size pqfdw_EstimateDSMForeignScan(ForeignScanState *node,
										 ParallelContext *pcxt);
extern void pqfdw_InitializeDSMForeignScan(ForeignScanState *node,
										   ParallelContext *pcxt,
										   void *coordinate);
extern void pqfdw_ReInitializeDSMForeignScan(ForeignScanState *node,
											 ParallelContext *pcxt,
											 void *coordinate);
extern void pqfdw_InitializeWorkerForeignScan(ForeignScanState *node,
											  shm_toc *toc,
											  void *coordinate);
extern void pqfdw_ShutdownForeignScan(ForeignScanState *node);

/*
 * footer_aggregate.c: aggregates the footers answer (plans of
 * fdw/plan/upper.c); fdw_private holds, per scan tuple column, its kind and
 * the attribute min/max read.
 */
typedef enum PqfdwFooterKind
{
	PQFDW_FOOTER_COUNT = 1,		/* count(*) */
	PQFDW_FOOTER_MIN,
	PQFDW_FOOTER_MAX,
	PQFDW_FOOTER_COUNT_COLUMN	/* count(column) */
} PqfdwFooterKind;

extern void pqfdw_footer_aggregate_begin(ForeignScanState *node, int eflags);
extern TupleTableSlot *pqfdw_footer_aggregate_next(ForeignScanState *node);
extern void pqfdw_footer_aggregate_rescan(ForeignScanState *node);
extern void pqfdw_footer_aggregate_explain(ForeignScanState *node,
										   struct ExplainState *es);

/* analyze.c */
extern bool pqfdw_AnalyzeForeignTable(Relation relation,
									  AcquireSampleRowsFunc *func,
									  BlockNumber *totalpages);

/*
 * Plan-time facts passed to the executor in ForeignScan.fdw_private, as a
 * List: paths (List of String), attnums to read (IntList), row groups
 * (Integer), quals to evaluate on batches (List of OpExpr, see filter.c),
 * quals to prune row groups with (List of Expr, see fdw/prune/statistics.c),
 * and the relation's range table index at plan time (Integer): the Vars in
 * those quals carry it, and set_plan_references may renumber the scan; and
 * the jsonb columns used only as v -> 'key' (List of (Integer attnum, List
 * of String keys)); and the attributes whose values the plan uses above the
 * scan (IntList; the batch quals' columns not among them are only tested).
 */
enum PqfdwPrivateIndex
{
	PQFDW_PRIVATE_PATHS,
	PQFDW_PRIVATE_ATTNUMS,
	PQFDW_PRIVATE_ROW_GROUPS,
	PQFDW_PRIVATE_FILTERS,
	PQFDW_PRIVATE_PRUNE,
	PQFDW_PRIVATE_RELID,
	PQFDW_PRIVATE_VARIANT_KEYS,
	PQFDW_PRIVATE_OUTPUT,
	PQFDW_PRIVATE_DATASET,		/* (hive on, files before and pruned by
								 * partition at plan time, prune values in
								 * fdw_exprs: the file clauses follow them,
								 * pqfdw_plan_hash() of all files) */
	PQFDW_PRIVATE_EXTRA			/* grouped scans: their number of grouping
								 * keys; top-N scans: (count, offset, sort
								 * keys: (attnum, sortop, collation,
								 * nulls_first) IntLists) */
};

/*
 * file_set.c: NIL when the files named now are those a plan was made for
 * (planned_hash: pqfdw_plan_hash() of the expanded filename option), else
 * the files named now (never NIL: no file is an ERROR); *hash is theirs.
 */
extern List *pqfdw_scan_files(Oid relid, List *planned_hash, uint64 *hash);
extern List *pqfdw_plan_hash(uint64 hash);
extern uint64 pqfdw_plan_hash_value(List *pair);

/*
 * What a ForeignScan plan runs: a scan of the table (scan.c), aggregates
 * from the footers (footer_aggregate.c: no relation, five items of
 * fdw_private), a grouped scan (fdw/aggregate/grouped_scan.c: no relation,
 * a scan's fdw_private and PQFDW_PRIVATE_EXTRA) or a top-N scan
 * (fdw/aggregate/top_n.c: the table, a scan's fdw_private and
 * PQFDW_PRIVATE_EXTRA).
 */
typedef enum PqfdwPlanKind
{
	PQFDW_PLAN_SCAN,
	PQFDW_PLAN_FOOTER,
	PQFDW_PLAN_GROUPED,
	PQFDW_PLAN_TOP_N
} PqfdwPlanKind;

static inline PqfdwPlanKind
pqfdw_plan_kind(ForeignScan *plan)
{
	bool		extra = list_length(plan->fdw_private) > PQFDW_PRIVATE_EXTRA;

	if (plan->scan.scanrelid != 0)
		return extra ? PQFDW_PLAN_TOP_N : PQFDW_PLAN_SCAN;
	return extra ? PQFDW_PLAN_GROUPED : PQFDW_PLAN_FOOTER;
}

#endif							/* PQFDW_SCAN_H */
