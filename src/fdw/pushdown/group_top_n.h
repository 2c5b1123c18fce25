/*-------------------------------------------------------------------------
 *
 * group_top_n.h
 *		The best LIMIT + OFFSET groups of a grouped scan in ORDER BY order
 *		(fdw/plan/grouped_top_n.c plans it): a bounded heap of formed
 *		groups, each group ranked by its sort keys alone first.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GROUP_TOP_N_H
#define PQFDW_GROUP_TOP_N_H

#include "access/tupdesc.h"
#include "nodes/pg_list.h"

typedef struct PqGroupTopN PqGroupTopN;

/*
 * From the plan's (count, offset, sort keys: (column, sortop, collation,
 * nulls_first) IntLists) for scan tuples of desc; allocated in cxt.
 */
extern PqGroupTopN *pqfdw_group_top_n_create(List *spec, TupleDesc desc,
											 MemoryContext cxt);

/* The scan tuple columns the sort keys are (nkeys of them). */
extern const int *pqfdw_group_top_n_columns(PqGroupTopN *t, int *nkeys);

/*
 * Whether a group whose sort key columns hold values/isnull (indexed by
 * column) would be kept.
 */
extern bool pqfdw_group_top_n_wants(PqGroupTopN *t, const Datum *values,
									const bool *isnull);

/* Keep a group (every column), copied. */
extern void pqfdw_group_top_n_add(PqGroupTopN *t, const Datum *values,
								  const bool *isnull);

/* Every group was offered: put the kept ones in order, past OFFSET. */
extern void pqfdw_group_top_n_finish(PqGroupTopN *t);

/* The next group in order into values/isnull; false after the last. */
extern bool pqfdw_group_top_n_next(PqGroupTopN *t, Datum *values,
								   bool *isnull);

/* Forget every group (a rescan). */
extern void pqfdw_group_top_n_reset(PqGroupTopN *t);

#endif							/* PQFDW_GROUP_TOP_N_H */
