/*-------------------------------------------------------------------------
 *
 * prune_method.h
 *		A pruning method (statistics, Bloom filters, dictionaries, the
 *		page index): what each method file fills in and the pruner state
 *		it sees.  pruner.c runs them in the order of its table.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PRUNE_METHOD_H
#define PQFDW_PRUNE_METHOD_H

#include "fdw/prune/pruner.h"

/*
 * Kinds of quals EXPLAIN counts apart, as bits: a predicate of a kind reads
 * only leaves of that kind (an OR only of such predicates).
 */
#define PQ_PRED_NESTED 0x1		/* struct fields, list elements, jsonb keys */
#define PQ_PRED_VARIANT 0x2		/* shredded VARIANT fields */
#define PQ_PRED_BBOX 0x4		/* a geometry's bounding box */

/* A method's state made from the values, and the file it was made for. */
typedef struct PqPruneMethodState
{
	void	   *state;
	int			file;
} PqPruneMethodState;

/* What a method decided of a row group. */
typedef struct PqPruneVerdict
{
	/* false: no row can match */
	bool		may_match;

	/*
	 * When it cannot: the kinds (PQ_PRED_*) of the predicates that alone
	 * exclude the row group, for the counters.
	 */
	uint32		kinds;

	/* the page index: the rows that may match (NULL: all), and pages */
	PqRowRange *ranges;
	int			nranges;
	int64		pages_total;
	int64		pages_pruned;
} PqPruneVerdict;

struct PqPruner
{
	PqPrunePred *preds;
	int			npreds;
	uint32	   *pred_kinds;		/* per predicate: its PQ_PRED_* kind, or 0 */
	uint32		kinds;			/* of all predicates */
	bool		kinds_stale;	/* a binding may have changed them */

	/* the values the predicates compare with, evaluated per (re)scan */
	List	   *value_states;	/* ExprStates */
	ExprContext *econtext;
	bool		values_ready;
	MemoryContext value_cxt;	/* the values; reset on rescan */

	/*
	 * Each method's state made from the values (Bloom filter probes), in
	 * value_cxt; NULL until a method makes it, again after a rescan.
	 */
	PqPruneMethodState method_state[PQ_PRUNE_MAX_METHODS];

	PqPrunePred *bound;			/* pqfdw_pruner_set_bound */
	int64		bound_row_groups;
	int64		bound_rows;

	/* Files Pruned by Statistics: the file being counted, -1 none */
	int			stats_file;
	bool		stats_file_kept;
	int64		files_pruned;

	int64		counts[PQ_NPRUNE_COUNTERS];
};

typedef struct PqPruneMethod
{
	const char *explain;		/* "Row Groups Pruned by ..." */
	bool		narrows;		/* gives row ranges (EXPLAIN shows it, with
								 * pages, where a page index was used) */
	const char *guc;			/* parquet_fdw.enable_..._pruning */
	const char *guc_description;
	bool	   *enabled;		/* its value */
	void		(*check) (PqPruner *pr, const PqPruneTarget *t,
						  PqPruneMethodState *ms, PqPruneVerdict *v);
} PqPruneMethod;

/*
 * by_predicate.c, for methods that decide predicate by predicate: whether
 * one of them (excludes(pr, i, t, arg) for predicate i) excludes the row
 * group, with the kinds of all those that do in v->kinds.  Predicates of kinds already
 * found are not asked again.
 */
extern void pqfdw_prune_by_predicate(PqPruner *pr, const PqPruneTarget *t,
									 bool (*excludes) (PqPruner *pr, int i,
													   const PqPruneTarget *t,
													   void *arg),
									 void *arg, PqPruneVerdict *v);

/* by_predicate.c: the PQ_PRED_* kind of a predicate, 0 for none */
extern uint32 pqfdw_pred_kind(const PqPrunePred *p);

/* The methods (one file each), in the order pruner.c runs them. */
extern const PqPruneMethod pqfdw_prune_statistics;
extern const PqPruneMethod pqfdw_prune_bloom;
extern const PqPruneMethod pqfdw_prune_dictionary;
extern const PqPruneMethod pqfdw_prune_page_index;

#endif							/* PQFDW_PRUNE_METHOD_H */
