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

/* parallel grouped scans: each process aggregates the row groups it claims */
extern Size pqfdw_grouped_estimate_dsm(ForeignScanState *node,
									   ParallelContext *pcxt);
extern void pqfdw_grouped_init_dsm(ForeignScanState *node,
								   ParallelContext *pcxt, void *coordinate);
extern void pqfdw_grouped_init_worker(ForeignScanState *node, shm_toc *toc,
									  void *coordinate);
extern void pqfdw_grouped_shutdown(ForeignScanState *node);

#endif							/* PQFDW_GROUPED_SCAN_H */
