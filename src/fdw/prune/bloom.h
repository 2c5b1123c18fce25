/*-------------------------------------------------------------------------
 *
 * bloom.h
 *		Row group pruning from the split-block Bloom filters of column
 *		chunks, for = and IN (bloom.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_BLOOM_PRUNE_H
#define PQFDW_BLOOM_PRUNE_H

#include "fdw/prune/prune.h"

/*
 * What the Bloom filters look for to decide one predicate: the hashes of
 * the stored forms of its values, or one probe per branch of an OR.
 */
typedef struct PqBloomProbe
{
	bool		usable;			/* false: Bloom filters cannot decide it */
	int			nhashes;		/* 0 (usable): no value can be stored */
	uint64	   *hashes;			/* XXH64 of each value's stored form */
	struct PqBloomProbe *args;	/* PQ_PRUNE_OR: one per branch */
} PqBloomProbe;

/*
 * Probes for preds[0 .. npreds), an array allocated in cxt.  cvs[i] is the
 * converter of attribute i + 1, or NULL when it is not read.  Hashes the
 * predicates' current values: create them again when the values change
 * (parameters, rescans).  Valid for every file of the scan, whose schemas
 * agree.
 */
extern PqBloomProbe *pqfdw_bloom_probes_create(PqPrunePred *preds,
											   int npreds, PqConverter **cvs,
											   MemoryContext cxt);

/*
 * False when the Bloom filters of row_group prove that some predicate
 * matches no row: for an equality or IN, none of its values is in the
 * filter of its column's chunk; for an OR, that holds for every branch.
 * True when every predicate may match or cannot be decided (no filter,
 * unknown filter kind).  leaf[i] is the leaf column of attribute i + 1.
 * Filters are read through file->src.
 */
extern bool pqfdw_row_group_bloom_may_match(PqPrunePred *preds,
											const PqBloomProbe *probes,
											int npreds, PqFile *file,
											int row_group, const int *leaf);

/* GUC parquet_fdw.enable_bloom_pruning */
extern bool pqfdw_enable_bloom_pruning;

/*
 * nested_count.c: whether a top-level predicate on struct fields or list
 * elements only (pqfdw_prune_has_nested; variant: inside a VARIANT) alone
 * excludes row_group, by the chunk statistics (probes NULL) or by the
 * Bloom filters (probes: those of preds); for EXPLAIN's counters.
 */
extern bool pqfdw_nested_preds_exclude(PqPrunePred *preds, int npreds,
									   const PqBloomProbe *probes,
									   PqFile *file, int row_group,
									   bool variant);

#endif							/* PQFDW_BLOOM_PRUNE_H */
