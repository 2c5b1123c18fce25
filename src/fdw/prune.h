/*-------------------------------------------------------------------------
 *
 * prune.h
 *		Row group pruning from column chunk statistics (prune.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PRUNE_H
#define PQFDW_PRUNE_H

#include "convert.h"
#include "fmgr.h"
#include "nodes/pg_list.h"
#include "nodes/primnodes.h"

typedef enum PqPruneKind
{
	PQ_PRUNE_COMPARE,			/* column op constant(s) */
	PQ_PRUNE_IS_NULL,
	PQ_PRUNE_IS_NOT_NULL
} PqPruneKind;

typedef struct PqPrunePred
{
	PqPruneKind kind;
	AttrNumber	attnum;			/* 1-based */
	int			strategy;		/* btree strategy, column on the left; 6 = <> */
	Datum	   *values;			/* constants; several for = ANY(array) */
	int			nvalues;
	FmgrInfo	cmp;			/* btree order proc (column type, const type) */
	Oid			collation;
	bool		bytewise;		/* string equality: compare bytes */
} PqPrunePred;

/* Quals (bare Exprs) of a RestrictInfo list that statistics can decide. */
extern List *pqfdw_prune_clauses(List *restrictinfos, Index relid);

/* Executor-side form of those quals; unusable ones are left out. */
extern PqPrunePred *pqfdw_prune_init(List *clauses, Index relid, int *npreds);

/*
 * False when the statistics of the row group prove that no row can satisfy
 * every predicate.  cvs[i] is the converter of attribute i + 1 (or NULL when
 * the attribute is not read); leaf[i] its leaf column in the file.
 */
extern bool pqfdw_row_group_may_match(PqPrunePred *preds, int npreds,
									  const PqFile *file, int row_group,
									  PqConverter **cvs, const int *leaf);

/*
 * Can a value in [lo, hi] (statistics bytes of the column: chunk or page
 * bounds) satisfy the comparison predicate p?  nan_free: the bounds'
 * source says the values hold no NaN.  True whenever the bounds cannot be
 * trusted for this column and type.
 */
extern bool pqfdw_pred_bounds_may_match(PqPrunePred *p, PqConverter *cv,
										const PqColumnDescr *col,
										PqBytes lo, PqBytes hi, bool nan_free);

/* Can this one declared-type value satisfy the comparison predicate p? */
extern bool pqfdw_pred_value_may_match(PqPrunePred *p, Datum value);

/* GUC parquet_fdw.enable_statistics_pruning */
extern bool pqfdw_enable_statistics_pruning;

#endif							/* PQFDW_PRUNE_H */
