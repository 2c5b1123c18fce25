/*-------------------------------------------------------------------------
 *
 * grouped_scan.h
 *		Executor callbacks of grouped scans: plans of fdw/plan/grouping.c
 *		whose scan tuple is the groups' keys and aggregates, computed on
 *		the table's batches inside the scan.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GROUPED_SCAN_H
#define PQFDW_GROUPED_SCAN_H

#include "foreign/fdwapi.h"

extern void pqfdw_grouped_begin(ForeignScanState *node, int eflags);
extern TupleTableSlot *pqfdw_grouped_next(ForeignScanState *node);
extern void pqfdw_grouped_rescan(ForeignScanState *node);
extern void pqfdw_grouped_end(ForeignScanState *node);
extern void pqfdw_grouped_explain(ForeignScanState *node,
								  struct ExplainState *es);

#endif							/* PQFDW_GROUPED_SCAN_H */
