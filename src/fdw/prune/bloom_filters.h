/*-------------------------------------------------------------------------
 *
 * bloom_filters.h
 *		Row group pruning from the split-block Bloom filters of column
 *		chunks, for = and IN (bloom_filters.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_BLOOM_PRUNE_H
#define PQFDW_BLOOM_PRUNE_H

#include "fdw/prune/prune.h"

/* GUC parquet_fdw.enable_bloom_pruning (the method: pqfdw_prune_bloom) */
extern bool pqfdw_enable_bloom_pruning;

#endif							/* PQFDW_BLOOM_PRUNE_H */
