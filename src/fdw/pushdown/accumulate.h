/*-------------------------------------------------------------------------
 *
 * accumulate.h
 *		Aggregates computed by a grouped scan: one state per group, updated
 *		a batch at a time, finished into PostgreSQL's result Datums.
 *
 * Each supported aggregate (pqfdw_accum_supported) repeats its PostgreSQL
 * transition and final functions exactly: count; sum and avg of integers
 * (int8 sums and every avg in 128 bits, finished as numeric through
 * PostgreSQL's own numeric functions); sum of floats with float4pl /
 * float8pl in row order and avg with float8_accum's Youngs-Cramer updates,
 * overflow errors included; min and max keeping the newer value on ties as
 * float8smaller and text_smaller do; bool_and and bool_or.  In parallel
 * plans they return their transition states instead, for PostgreSQL's
 * combine functions.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_ACCUMULATE_H
#define PQFDW_ACCUMULATE_H

#include "fdw/pushdown/vexpr.h"

typedef struct PqAccum PqAccum;

/*
 * Whether the scan can compute agg (its arguments and FILTER aside: the
 * caller evaluates them; rows the filter rejects reach the states as NULL
 * arguments, and count(*) FILTER counts a vector of the filter's rows).
 */
extern bool pqfdw_accum_supported(Aggref *agg);

/*
 * Whether agg (supported) is a text min or max that compares each of a
 * dictionary's values once: its argument, when a column, should come with
 * dictionary indices (pqfdw_table_reader_set_codes).
 */
extern bool pqfdw_accum_skips_seen(Aggref *agg);

/* The states of agg, allocated in cxt and grown with the groups. */
extern PqAccum *pqfdw_accum_create(Aggref *agg, MemoryContext cxt);

/* Make room for groups [0, ngroups). */
extern void pqfdw_accum_reserve(PqAccum *a, int ngroups);

/*
 * Add n rows: row r to group gids[r] (gids NULL: all to group 0), its
 * argument arg's value r (arg NULL for count(*)).
 */
extern void pqfdw_accum_update(PqAccum *a, const int32 *gids, int n,
							   const PqVector *arg);

/*
 * Add to group 0 of a sum or avg of integers a batch's sum of count
 * non-NULL values (offset_sums.c), as adding them one by one would.
 */
extern void pqfdw_accum_add_sum(PqAccum *a, int128 sum, int64 count);

/*
 * The aggregate's result for group g, allocated in the current context; for
 * a partial aggregate (AGGSPLIT_INITIAL_SERIAL) its transition state.
 */
extern Datum pqfdw_accum_final(PqAccum *a, int g, bool *isnull);

/* Bytes each group's state takes (for the planner's memory estimate). */
extern Size pqfdw_accum_group_bytes(Aggref *agg);

#endif							/* PQFDW_ACCUMULATE_H */
