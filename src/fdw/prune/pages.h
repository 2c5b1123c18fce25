/*-------------------------------------------------------------------------
 *
 * pages.h
 *		Rows of a row group that the page index (ColumnIndex) says may
 *		satisfy the pruning predicates (pages.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PAGE_PRUNE_H
#define PQFDW_PAGE_PRUNE_H

#include "fdw/prune/prune.h"
#include "format/read/page_index.h"

/*
 * The rows of row_group that may satisfy every predicate, as sorted,
 * disjoint ranges (*nranges of them; none when no row can match), or NULL
 * when every row may match: no predicate can use a page index, or none of
 * the pages it rules out.  cvs and leaf are as for
 * pqfdw_row_group_may_match().  Adds to *pages_total the pages of the
 * columns whose page index was used, and to *pages_pruned those of them
 * that hold none of the returned rows.  Allocates (and reads the indexes)
 * in the current memory context.
 */
extern PqRowRange *pqfdw_page_ranges(PqPrunePred *preds, int npreds,
									 PqFile *file, int row_group,
									 PqConverter **cvs, const int *leaf,
									 int *nranges, int64 *pages_total,
									 int64 *pages_pruned);

/* GUC parquet_fdw.enable_page_index_pruning */
extern bool pqfdw_enable_page_index_pruning;

#endif							/* PQFDW_PAGE_PRUNE_H */
