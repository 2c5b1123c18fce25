/*-------------------------------------------------------------------------
 *
 * top_n.h
 *		Executor callbacks of top-N scans: plans of fdw/plan/top_n.c, which
 *		return the first LIMIT rows (after OFFSET) of the table in ORDER BY
 *		order, kept in a bounded heap as the scan's batches go by.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_TOP_N_H
#define PQFDW_TOP_N_H

#include "foreign/fdwapi.h"

extern void pqfdw_top_n_begin(ForeignScanState *node, int eflags);
extern TupleTableSlot *pqfdw_top_n_next(ForeignScanState *node);
extern void pqfdw_top_n_rescan(ForeignScanState *node);
extern void pqfdw_top_n_end(ForeignScanState *node);
extern void pqfdw_top_n_explain(ForeignScanState *node,
								struct ExplainState *es);

/*
 * The scan the rows are read through (NULL before begin).  A parallel
 * top-N scan shares its row-group cursor: each process returns the best
 * rows of the row groups it claims, sorted, for Gather Merge.
 */
extern struct PqScanState *pqfdw_top_n_scan_state(ForeignScanState *node);

#endif							/* PQFDW_TOP_N_H */
