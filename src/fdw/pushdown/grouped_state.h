/*-------------------------------------------------------------------------
 *
 * grouped_state.h
 *		The executor state of a grouped scan (grouped_scan.c), which its
 *		EXPLAIN (grouped_explain.c) reads.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GROUPED_STATE_H
#define PQFDW_GROUPED_STATE_H

#include "fdw/pushdown/accumulate.h"
#include "fdw/pushdown/distinct.h"
#include "fdw/pushdown/group_shared.h"
#include "fdw/pushdown/group_table.h"
#include "fdw/pushdown/group_top_n.h"
#include "fdw/pushdown/offset_sums.h"
#include "fdw/pushdown/spill.h"
#include "fdw/scan/scan.h"

typedef struct PqGrouped
{
	PqScanState *scan;
	Index		scanrelid;
	int			nkeys;
	int			naggs;
	PqAccum   **accs;
	PqDistinct **distinct;		/* per aggregate: its pairs, NULL unless
								 * DISTINCT */
	int			ndistinct;
	int			batch_rows;

	/*
	 * The vectors of a batch: grouping keys first, then the arguments of the
	 * aggregates that have one (arg_vec: each aggregate's, -1 for count(*));
	 * from the table's batches (exprs) or from spilled rows.
	 */
	int			nvec;
	PqVExpr   **exprs;
	Oid		   *vec_types;
	int		   *vec_scales;		/* numeric vectors' scales, for spilled rows */
	const PqVector **vecs;
	int		   *arg_vec;
	int32	   *gids;
	int32	   *slots;			/* per row: its group's state, 0 for spilled
								 * rows (a state nothing reads) */

	/*
	 * Aggregates with FILTER: the filter's expression, the rows it rejects
	 * (skip) and the argument vector with those rows NULL (masked; for
	 * count(*), a vector of zeros, NULL where the filter rejects the row).
	 * Aggregates with equal filters share the first one's skip mask
	 * (filter_of: that aggregate, itself for the first, -1 without FILTER),
	 * so a filter is evaluated once per batch.
	 */
	PqVExpr   **filters;
	int		   *filter_of;
	bool	  **skip;
	PqVector   *masked;
	bool	  **masked_nulls;
	int64	   *zeros;

	/*
	 * Without keys: sums of a column plus constants, from one pass over the
	 * column; answered: those the current batch's figures answer.
	 */
	PqOffsetSums *offsets;
	const bool *answered;

	PqGroupTable *groups;		/* NULL without grouping keys */
	MemoryContext agg_cxt;		/* groups and states, reset per partition */
	Size		mem_limit;		/* hash_mem: past it, new groups spill */

	/* spilling (spill.h) */
	int			level;			/* 0: the table's rows; else a partition's */
	PqSpill    *spill;			/* partitions being written */
	List	   *pending;		/* PqSpillPart * still to aggregate */
	PqSpillReader *reader;
	MemoryContext spill_cxt;

	bool		started;
	int			ngroups;		/* of the groups in memory */
	int			next_group;

	/*
	 * WHERE quals the batch filter does not evaluate (function calls): one
	 * bool vector expression, and the batch of the rows it passes.
	 */
	PqVExpr    *quals;
	PqBatch    *qbatch;

	/* keys the others decide: evaluated per row for their errors only */
	List	   *checks;			/* PqVExpr * */
	PqBatchCodes **qcodes;
	int		   *keep;

	/* ORDER BY ... LIMIT of the groups (group_top_n.c), or NULL */
	PqGroupTopN *top_n;
	MemoryContext rank_cxt;		/* a group's sort key values */
	Datum	   *rank_values;
	bool	   *rank_nulls;

	/*
	 * Partitioned parallel grouping (group_shared.h): the plan's choice; the
	 * shared state once under Gather's workers (else the scan runs alone, as
	 * a serial one); whether this process is attached to its barrier.
	 */
	bool		partitioned;
	PqGroupShared *shared;
	bool		attached;

	/* EXPLAIN ANALYZE */
	int64		moved_rows;		/* written to the shared partitions */
	int64		moved_bytes;
	int64		worker_groups;	/* the workers' sums, at the leader's end */
	int64		worker_moved_rows;
	int64		worker_moved_bytes;
	int64		prior_groups;	/* theirs in scans before the last rescan */
	int64		prior_moved_rows;
	int64		prior_moved_bytes;
	Size		peak_memory;
	int64		total_groups;
	int64		partitions;
	int64		spilled_rows;
	int64		spilled_bytes;
	int64		dict_rows;		/* rows grouped by dictionary indices */
	int64		distinct_spilled_rows;
	int64		distinct_spilled_bytes;
} PqGrouped;

/* grouped_explain.c: the grouped scan's EXPLAIN */
extern void pqfdw_grouped_explain(ForeignScanState *node,
								  struct ExplainState *es);

#endif							/* PQFDW_GROUPED_STATE_H */
