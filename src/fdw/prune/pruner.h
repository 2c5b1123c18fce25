/*-------------------------------------------------------------------------
 *
 * pruner.h
 *		The one entry point of row group pruning (pruner.c): a scan's
 *		pruning predicates and their values, asked for each row group the
 *		table reader enters which rows of it can match, and counting what
 *		each pruning method (prune_method.h) left out.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PRUNER_H
#define PQFDW_PRUNER_H

#include "fdw/prune/prune.h"
#include "format/read/page_index.h"
#include "nodes/execnodes.h"

typedef struct PqPruner PqPruner;
struct ExplainState;

/* A row group as the table reader has it open. */
typedef struct PqPruneTarget
{
	PqFile	   *file;
	int			file_index;
	int			row_group;
	PqConverter **att_cv;		/* per attribute: its converter, NULL when not
								 * read */
	const int  *att_leaf;		/* ... and its leaf column in the file */
	bool		union_by_name;	/* a column's physical type may change from
								 * file to file */
	bool		counted;		/* counts for EXPLAIN (of a row group cut into
								 * pieces for workers, its first) */
	bool		parallel;		/* row groups come from a shared cursor */
	MemoryContext rg_cxt;		/* lives as long as the row group */
	MemoryContext tmp_cxt;		/* reset soon after */
} PqPruneTarget;

/* Pruning methods there may be (pruner.c's table). */
#define PQ_PRUNE_MAX_METHODS 8

/* What pruning left out, for EXPLAIN ANALYZE (summed over processes). */
typedef enum PqPruneCounter
{
	PQ_PRUNED_BY_METHOD,		/* row groups, by each method: + its place in
								 * pruner.c's table */
	PQ_PRUNED_NESTED = PQ_PRUNE_MAX_METHODS,	/* of those, by a qual on
												 * nested leaves */
	PQ_PRUNED_BBOX,				/* ... on a geometry's bounding box */
	PQ_PRUNED_VARIANT,			/* ... on shredded VARIANT fields */
	PQ_PRUNE_PAGES_TOTAL,		/* pages of the page indexes used */
	PQ_PRUNE_PAGES_PRUNED,		/* ... and of them, left out */
	PQ_PRUNE_BYTES_READ,		/* Bloom filters, dictionaries, page indexes */
	PQ_NPRUNE_COUNTERS
} PqPruneCounter;

/*
 * The pruner of the quals clauses (of range table entry relid; see
 * pqfdw_prune_clauses()), whose values are value_exprs evaluated by ps's
 * expression context at the first row group of each (re)scan; allocated in
 * cxt.  Without clauses it prunes only by the bound.
 */
extern PqPruner *pqfdw_pruner_create(List *clauses, Index relid,
									 List *value_exprs, PlanState *ps,
									 MemoryContext cxt);

/* The methods' GUCs (parquet_fdw.enable_<method>_pruning), at _PG_init. */
extern void pqfdw_pruner_define_gucs(void);

/* Evaluate the values again at the next row group (a rescan). */
extern void pqfdw_pruner_rescan(PqPruner *pr);

/* Whether it has anything to prune with (else the reader need not ask). */
extern bool pqfdw_pruner_active(const PqPruner *pr);

/*
 * Before a row group is pruned: the predicates on nested column nc
 * (attribute attnum, missing from the open file or not) read its leaves in
 * row group row_group (bindings allocated in cxt).
 */
extern void pqfdw_pruner_bind_column(PqPruner *pr, AttrNumber attnum,
									 const PqNestedColumn *nc, bool missing,
									 int row_group, MemoryContext cxt);

/*
 * Whether a row of the row group can satisfy the quals, and which: in
 * *ranges (allocated in t->rg_cxt; NULL: all rows) the rows that may.
 */
extern bool pqfdw_prune_row_group(PqPruner *pr, const PqPruneTarget *t,
								  PqRowRange **ranges, int *nranges);

/*
 * Whether the statistics (and the bound) leave the row group possible,
 * counting nothing: for reading ahead, which the row group's own pruning
 * may still prove wasted.  Nested predicates are not bound to it: true.
 */
extern bool pqfdw_pruner_peek(PqPruner *pr, const PqPruneTarget *t);

/*
 * A bound that changes as the scan goes (top-N scans: "first key before
 * the worst row kept"): when set, checked first against the statistics
 * and then against the page index of what the quals leave, each time with
 * its predicate's current values; what it leaves out is counted apart
 * (pqfdw_pruner_bound_counts), not as the quals' pruning.
 */
extern void pqfdw_pruner_set_bound(PqPruner *pr, PqPrunePred *bound);
extern void pqfdw_pruner_bound_counts(const PqPruner *pr, int64 *row_groups,
									  int64 *rows);

/* This process's counters (PqPruneCounter order). */
extern const int64 *pqfdw_pruner_counts(const PqPruner *pr);

/* Files all of whose row groups statistics excluded (scans without workers). */
extern int64 pqfdw_pruner_files_pruned(const PqPruner *pr);

/*
 * EXPLAIN ANALYZE's lines of counters (this process's and the workers',
 * summed): row groups by each method and by the kinds of quals the quals
 * have, pages when a page index was used.
 */
extern void pqfdw_pruner_explain(const PqPruner *pr, const int64 *counts,
								 struct ExplainState *es);

#endif							/* PQFDW_PRUNER_H */
