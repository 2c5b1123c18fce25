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

/*
 * The scan the groups are read through (NULL before begin): parallel
 * grouped scans share its row-group cursor, each process aggregating the
 * row groups it claims.
 */
extern struct PqScanState *pqfdw_grouped_scan_state(ForeignScanState *node);

#endif							/* PQFDW_GROUPED_SCAN_H */
