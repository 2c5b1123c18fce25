/*-------------------------------------------------------------------------
 *
 * fdw_api.h
 *		FdwRoutine callbacks of parquet_fdw (planner.c, scan.c, import.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_FDW_API_H
#define PQFDW_FDW_API_H

#include "foreign/fdwapi.h"

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

/* scan.c */
extern void pqfdw_BeginForeignScan(ForeignScanState *node, int eflags);
extern TupleTableSlot *pqfdw_IterateForeignScan(ForeignScanState *node);
extern void pqfdw_ReScanForeignScan(ForeignScanState *node);
extern void pqfdw_EndForeignScan(ForeignScanState *node);
extern void pqfdw_ExplainForeignScan(ForeignScanState *node,
									 struct ExplainState *es);

/* analyze.c */
extern bool pqfdw_AnalyzeForeignTable(Relation relation,
									  AcquireSampleRowsFunc *func,
									  BlockNumber *totalpages);

/* import.c */
extern List *pqfdw_ImportForeignSchema(ImportForeignSchemaStmt *stmt,
									   Oid serverOid);

/*
 * Plan-time facts passed to the executor in ForeignScan.fdw_private, as a
 * List: paths (List of String), attnums to read (IntList), row groups
 * (Integer), quals to evaluate on batches (List of OpExpr, see filter.c),
 * quals to prune row groups with (List of Expr, see prune.c), and the
 * relation's range table index at plan time (Integer): the Vars in those
 * quals carry it, and set_plan_references may renumber the scan; and the
 * jsonb columns used only as v -> 'key' (List of (Integer attnum, List of
 * String keys)).
 */
enum PqfdwPrivateIndex
{
	PQFDW_PRIVATE_PATHS,
	PQFDW_PRIVATE_ATTNUMS,
	PQFDW_PRIVATE_ROW_GROUPS,
	PQFDW_PRIVATE_FILTERS,
	PQFDW_PRIVATE_PRUNE,
	PQFDW_PRIVATE_RELID,
	PQFDW_PRIVATE_VARIANT_KEYS
};

/* variant_fields.c: the keys of v -> 'key' uses of column attno, or NIL */
extern List *pqfdw_variant_field_uses(PlannerInfo *root, Index relid,
									  AttrNumber attno);

#endif							/* PQFDW_FDW_API_H */
