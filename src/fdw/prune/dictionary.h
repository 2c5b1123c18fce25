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

/* GUC parquet_fdw.enable_dictionary_pruning (the method: pqfdw_prune_dictionary) */
extern bool pqfdw_enable_dictionary_pruning;

#endif							/* PQFDW_DICT_PRUNE_H */
