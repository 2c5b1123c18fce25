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

#endif							/* PQFDW_TOP_N_H */
