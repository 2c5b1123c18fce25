/*-------------------------------------------------------------------------
 *
 * distinct.h
 *		DISTINCT aggregates of a grouped scan (count(DISTINCT x), sum,
 *		avg, min and max of DISTINCT values): each group's state sees each
 *		of its values once.
 *
 * A set of (group, value) pairs passes the first row of each pair to the
 * aggregate's state and masks the others (as NULLs, which states skip).
 * Values are equal as the type's default equality decides: integers and
 * unscaled numerics by value, floats with -0 = 0 and one NaN, text by its
 * bytes (deterministic collations only).  Past hash_mem the sets take no
 * new pair: rows of pairs they do not hold go to temporary files by the
 * pair's hash and are deduplicated there, partition by partition, before
 * the groups are returned (pqfdw_distinct_next).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_DISTINCT_H
#define PQFDW_DISTINCT_H

#include "fdw/pushdown/vexpr.h"

typedef struct PqDistinct PqDistinct;

/* Whether the scan can compute DISTINCT agg (a supported aggregate). */
extern bool pqfdw_distinct_supported(Aggref *agg);

/*
 * The pairs of values of type (of the given vector kind) for batches of
 * at most batch_rows rows; allocated in cxt, which the grouped scan resets
 * for each input (the table, a spilled partition).
 */
extern PqDistinct *pqfdw_distinct_create(Oid type, int batch_rows,
										 MemoryContext cxt);

/*
 * Row r of arg goes to state slots[r] (slots NULL: state 0; slot 0 with
 * slots: a row the grouped scan spilled, masked here).  The vector masks
 * every row but the first of each pair; valid until the next call.
 */
extern const PqVector *pqfdw_distinct_filter(PqDistinct *d, const int32 *slots,
											 int n, const PqVector *arg);

/* Take no new pair: rows of pairs not held go to temporary files. */
extern void pqfdw_distinct_set_full(PqDistinct *d);

/*
 * After the input: the pairs written to files, each once, a batch at a
 * time (their states and values); false when none is left.
 */
extern bool pqfdw_distinct_next(PqDistinct *d, const int32 **slots,
								const PqVector **arg, int *n);

/* Pairs written to temporary files, and their bytes. */
extern int64 pqfdw_distinct_spilled_rows(PqDistinct *d);
extern int64 pqfdw_distinct_spilled_bytes(PqDistinct *d);

#endif							/* PQFDW_DISTINCT_H */
