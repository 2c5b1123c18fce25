/*-------------------------------------------------------------------------
 *
 * filter.h
 *		Quals evaluated inside the scan, on a batch's Parquet values before
 *		any row becomes a tuple: which quals qualify (filter.c), and their
 *		evaluation, segment by segment (filter_eval.c).
 *
 * A filter is a tree of AND, OR and NOT over leaves, each leaf a test of
 * one column: "column op constant", "column op ANY/ALL (array)" or
 * "column IS [NOT] NULL".  Each leaf yields, per row of the batch, TRUE,
 * FALSE or NULL; the tree combines them with SQL's three-valued logic and a
 * row passes when the whole filter (an AND of the quals) is TRUE.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_FILTER_H
#define PQFDW_FILTER_H

#include "access/attnum.h"
#include "fdw/convert/convert.h"
#include "nodes/pg_list.h"

typedef struct PqFilter PqFilter;

/* Per row and leaf: the three truth values. */
#define PQF_FALSE	0
#define PQF_TRUE	1
#define PQF_NULL	2

/*
 * The clauses of a RestrictInfo list the scan evaluates (bare Exprs);
 * the executor no longer evaluates them.
 */
extern List *pqfdw_batch_filter_clauses(List *clauses, Index relid);

/*
 * Compile clauses (from pqfdw_batch_filter_clauses, their Vars numbered
 * relid) for batches of at most batch_rows rows, allocating in cxt.
 */
extern PqFilter *pqfdw_filter_create(List *clauses, Index relid,
									 int batch_rows, MemoryContext cxt);

/* The attributes the filter tests (IntList). */
extern List *pqfdw_filter_attnums(PqFilter *f);

/*
 * Whether the leaves on attribute attnum need the Datums of seg to be
 * evaluated (a segment of a flat column read with converter cv).
 */
extern bool pqfdw_filter_needs_datums(PqFilter *f, AttrNumber attnum,
									  PqConverter *cv, const PqSegment *seg);

/*
 * Evaluate the leaves on attribute attnum for batch rows [first, first +
 * seg->n), whose values are seg's; values/nulls are their Datums (seg->n
 * of each) when converted, else NULL.
 */
extern void pqfdw_filter_segment(PqFilter *f, AttrNumber attnum,
								 PqConverter *cv, const PqSegment *seg,
								 int first, const Datum *values,
								 const bool *nulls);

/*
 * Evaluate the leaves on attribute attnum for batch rows [first, first + n)
 * from their Datums alone (nested columns).
 */
extern void pqfdw_filter_datums(PqFilter *f, AttrNumber attnum, int first,
								int n, const Datum *values, const bool *nulls);

/*
 * After every attribute's leaves were evaluated on rows [0, n): the rows
 * that pass, ascending, into sel; returns their number.
 */
extern int	pqfdw_filter_select(PqFilter *f, int n, int *sel);

#endif							/* PQFDW_FILTER_H */
