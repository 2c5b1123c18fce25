/*-------------------------------------------------------------------------
 *
 * scan.h
 *		The scan of a foreign table (scan.c, analyze.c), the method table
 *		every plan kind's executor callbacks fill, and the plan-time facts
 *		the planner hands them in fdw_private.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_SCAN_H
#define PQFDW_SCAN_H

#include "fdw/scan/table_reader.h"
#include "foreign/fdwapi.h"

/*
 * What a ForeignScan plan runs, stored as the first item of its
 * fdw_private: a scan of the table (scan.c), or work pushed into the scan
 * (fdw/pushdown/): aggregates the footers answer, a grouped scan, a top-N
 * scan.  The planner (fdw/plan/) writes it; fdw/parquet_fdw.c sends each
 * executor callback to the kind's methods.
 */
typedef enum PqfdwPlanKind
{
	PQFDW_PLAN_SCAN,
	PQFDW_PLAN_FOOTER,
	PQFDW_PLAN_GROUPED,
	PQFDW_PLAN_TOP_N,
	PQFDW_PLAN_VECTOR_SCAN		/* a scan whose other quals and scan target
								 * list expressions run as vector expressions
								 * (fdw/pushdown/vector_scan.c) */
} PqfdwPlanKind;

#define PQFDW_NPLAN_KINDS (PQFDW_PLAN_VECTOR_SCAN + 1)

typedef struct PqScanState PqScanState;

/*
 * The executor callbacks of one plan kind, as CustomExecMethods are for a
 * custom scan.  shared_scan (NULL: never parallel) gives the scan whose
 * row-group cursor parallel processes share; end may be NULL.  A kind
 * whose processes share more than the cursor has dsm_size (NULL or 0:
 * nothing) bytes of shared memory before the scan's, set up by dsm_init in
 * the leader, found by dsm_attach in each worker and reset by dsm_reinit
 * before a rescan's workers start; shutdown (may be NULL) runs as the
 * process's plan finishes, while that memory is still there.
 */
typedef struct PqExecMethods
{
	void		(*begin) (ForeignScanState *node, int eflags);
	TupleTableSlot *(*next) (ForeignScanState *node);
	void		(*rescan) (ForeignScanState *node);
	void		(*end) (ForeignScanState *node);
	void		(*explain) (ForeignScanState *node, struct ExplainState *es);
	PqScanState *(*shared_scan) (ForeignScanState *node);
	Size		(*dsm_size) (ForeignScanState *node);
	void		(*dsm_init) (ForeignScanState *node, dsm_segment *seg,
							 void *area);
	void		(*dsm_attach) (ForeignScanState *node, void *area);
	void		(*dsm_reinit) (ForeignScanState *node, void *area);
	void		(*shutdown) (ForeignScanState *node);
} PqExecMethods;

/* scan.c: plans of PQFDW_PLAN_SCAN */
extern const PqExecMethods pqfdw_scan_methods;

/*
 * scan.c, for plans that read a table through a scan (fdw/pushdown/): the
 * scan of rel, range table entry scanrelid, set up from the plan's
 * fdw_private and fdw_exprs; its reader (NULL with EXPLAIN only) hands out
 * the batches, pruned and filtered.
 */
extern PqScanState *pqfdw_scan_begin(ForeignScanState *node, Relation rel,
									 Index scanrelid, int eflags);
extern PqTableReader *pqfdw_scan_reader(PqScanState *st);
extern PqPruner *pqfdw_scan_pruner(PqScanState *st);
extern void pqfdw_scan_rescan(PqScanState *st);
extern void pqfdw_scan_end(PqScanState *st);
extern void pqfdw_scan_explain(PqScanState *st, ForeignScanState *node,
							   struct ExplainState *es);

/*
 * A row selector of the scan's batches: the rows of b (after the batch
 * filter) that the scan hands out, ascending into rows (room for
 * b->capacity); returns their number.  Installed after begin.
 */
typedef int (*PqRowSelect) (void *arg, const PqBatch *b, int *rows);

extern void pqfdw_scan_set_row_select(PqScanState *st, PqRowSelect select,
									  void *arg);

/*
 * The computer of a scan target list's expressions (the entries that are
 * not Vars, in their order): for the n rows of b that rows names
 * (ascending; NULL: all), values[k][row] and nulls[k][row] of expression
 * k.  Installed after begin; the values live until the next batch.
 */
typedef void (*PqComputeColumns) (void *arg, const PqBatch *b,
								  const int *rows, int n, Datum **values,
								  bool **nulls);

extern void pqfdw_scan_set_computed(PqScanState *st, PqComputeColumns compute,
									void *arg);

/* ... and as a parallel scan (ReInitializeDSM needs no state) */
extern Size pqfdw_scan_estimate_dsm(PqScanState *st);
extern void pqfdw_scan_init_dsm(PqScanState *st, ParallelContext *pcxt,
								void *coordinate);
extern void pqfdw_scan_init_worker(PqScanState *st, void *coordinate);
extern void pqfdw_scan_shutdown(PqScanState *st);

/* The shared state once the scan runs in parallel, else NULL. */
extern PqParallelScan *pqfdw_scan_parallel_state(PqScanState *st);

/* scan.c: parallel scans (the shared state is in parallel.c) */
extern bool pqfdw_IsForeignScanParallelSafe(PlannerInfo *root,
											RelOptInfo *rel,
											RangeTblEntry *rte);
extern void pqfdw_ReInitializeDSMForeignScan(ForeignScanState *node,
											 ParallelContext *pcxt,
											 void *coordinate);

/* analyze.c */
extern bool pqfdw_AnalyzeForeignTable(Relation relation,
									  AcquireSampleRowsFunc *func,
									  BlockNumber *totalpages);

/*
 * Plan-time facts passed to the executor in ForeignScan.fdw_private, as a
 * List: the plan kind (Integer), paths (List of String), attnums to read (IntList), row groups
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
	PQFDW_PRIVATE_KIND,			/* PqfdwPlanKind, in every kind's fdw_private */
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
								 * pqfdw_plan_hash() of all files, partition
								 * directories never listed) */
	PQFDW_PRIVATE_EXTRA			/* vector scans: the quals they evaluate as
								 * vector expressions (the scan target list's
								 * expressions are their computed columns);
								 * grouped scans: their number of grouping
								 * keys, then the quals they evaluate as
								 * vector expressions, then the keys the
								 * others decide (evaluated for errors only),
								 * then (count, offset, sort keys) for ORDER
								 * BY ... LIMIT of the groups; top-N scans:
								 * (count, offset, sort keys: (attnum, sortop,
								 * collation, nulls_first) IntLists) */
};

/*
 * file_set.c: NIL when the files named now are those a plan was made for
 * (planned_hash: pqfdw_plan_hash() of the expanded filename option), else
 * the files named now; *hash is theirs, which differs from the planned one
 * exactly when they changed (NIL then only from a files function that
 * answers no file: else no file is an ERROR).
 * userid: the plan's checkAsUser (listing with its user mapping).
 * file_clauses (Vars numbered varno): the plan's, which its listing of a
 * hive dataset left the partitions of; listed again the same way.
 */
extern List *pqfdw_scan_files(Relation rel, Oid userid, List *planned_hash,
							  List *file_clauses, Index varno, uint64 *hash);
extern List *pqfdw_plan_hash(uint64 hash);
extern uint64 pqfdw_plan_hash_value(List *pair);

/* The kind a plan's fdw_private names (elog when it names none). */
static inline PqfdwPlanKind
pqfdw_plan_kind(ForeignScan *plan)
{
	int			kind = intVal(linitial(plan->fdw_private));

	if (kind < 0 || kind >= PQFDW_NPLAN_KINDS)
		elog(ERROR, "parquet_fdw: unknown plan kind %d", kind);
	return (PqfdwPlanKind) kind;
}

#endif							/* PQFDW_SCAN_H */
