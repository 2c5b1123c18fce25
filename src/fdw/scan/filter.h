/*-------------------------------------------------------------------------
 *
 * filter.h
 *		Quals evaluated on decoded batches inside the scan (filter.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_FILTER_H
#define PQFDW_FILTER_H

#include "fmgr.h"
#include "nodes/primnodes.h"

typedef struct PqBatchFilter
{
	AttrNumber	attnum;			/* 1-based */
	bool		var_on_left;
	Datum		constval;
	Oid			collation;
	FmgrInfo	fn;
	Expr	   *expr;			/* for EXPLAIN */
} PqBatchFilter;

/* The clauses of a RestrictInfo list that can run on batches (bare Exprs). */
extern List *pqfdw_batch_filter_clauses(List *clauses, Index relid);

extern PqBatchFilter *pqfdw_batch_filters_init(List *clauses, Index relid,
											   int *nfilters);

/*
 * Row numbers of the batch that pass every filter, in sel[0..result);
 * values/nulls are the column-major batch (batch_rows per attribute).
 */
extern int	pqfdw_batch_filter(PqBatchFilter *filters, int nfilters,
							   const Datum *values, const bool *nulls,
							   int batch_rows, int n, int *sel);

#endif							/* PQFDW_FILTER_H */
