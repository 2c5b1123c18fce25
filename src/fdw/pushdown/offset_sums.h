/*-------------------------------------------------------------------------
 *
 * offset_sums.h
 *		sum() and avg() of an integer column plus a constant, over all
 *		rows, from one pass over the column per batch (offset_sums.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_OFFSET_SUMS_H
#define PQFDW_OFFSET_SUMS_H

#include "fdw/pushdown/accumulate.h"

typedef struct PqOffsetSums PqOffsetSums;

/*
 * The aggregates (of a scan without grouping keys) that are sum or avg of
 * an integer column, plus or minus a constant, without FILTER or
 * DISTINCT; NULL if none is.
 */
extern PqOffsetSums *pqfdw_offset_sums_create(Aggref **aggs, int naggs,
											  Index relid, int batch_rows);

/*
 * Read the batch's columns; per aggregate, whether it is answered for this
 * batch (no row's column plus constant leaves the result type).
 */
extern const bool *pqfdw_offset_sums_batch(PqOffsetSums *os, const PqBatch *b,
										   int n);

/* Add answered aggregate i's batch to its state. */
extern void pqfdw_offset_sums_add(PqOffsetSums *os, int i, PqAccum *acc);

#endif							/* PQFDW_OFFSET_SUMS_H */
