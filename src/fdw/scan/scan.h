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

#include "foreign/fdwapi.h"

/* scan.c */
extern void pqfdw_BeginForeignScan(ForeignScanState *node, int eflags);
extern TupleTableSlot *pqfdw_IterateForeignScan(ForeignScanState *node);
extern void pqfdw_ReScanForeignScan(ForeignScanState *node);
extern void pqfdw_EndForeignScan(ForeignScanState *node);
extern void pqfdw_ExplainForeignScan(ForeignScanState *node,
									 struct ExplainState *es);

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
	PQFDW_PRIVATE_OUTPUT
};

#endif							/* PQFDW_SCAN_H */
