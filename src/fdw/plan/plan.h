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

/* variant_fields.c: the keys of v -> 'key' uses of column attno, or NIL */
extern List *pqfdw_variant_field_uses(PlannerInfo *root, Index relid,
									  AttrNumber attno);

#endif							/* PQFDW_PLAN_H */
