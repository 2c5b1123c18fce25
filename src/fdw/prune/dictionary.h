/*-------------------------------------------------------------------------
 *
 * dictionary.h
 *		Row group pruning from the dictionary pages of fully
 *		dictionary-encoded column chunks (dictionary.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_DICT_PRUNE_H
#define PQFDW_DICT_PRUNE_H

#include "fdw/prune/prune.h"

/*
 * False when the dictionaries of row_group prove that the predicates (which
 * are ANDed) match no row: a column's chunk is fully dictionary-encoded
 * (encoding_stats) and no dictionary entry satisfies all the comparisons on
 * that column (any strategy, IN lists too), or, for an OR, that holds for
 * every branch.  True when every predicate may match or cannot be decided.
 * cvs[i] is the converter of attribute i + 1 (NULL when not read), leaf[i]
 * its leaf column.  Reads only dictionary pages, each at most once per
 * attribute, through file->src.
 */
extern bool pqfdw_row_group_dictionary_may_match(PqPrunePred *preds,
												 int npreds, PqFile *file,
												 int row_group,
												 PqConverter **cvs,
												 const int *leaf);

/* GUC parquet_fdw.enable_dictionary_pruning */
extern bool pqfdw_enable_dictionary_pruning;

#endif							/* PQFDW_DICT_PRUNE_H */
