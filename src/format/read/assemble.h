/*-------------------------------------------------------------------------
 *
 * assemble.h
 *		Record assembly (Dremel): the level entries and values of the
 *		projected leaf columns of one top-level field -> one value tree
 *		(format/metadata/nested_value.h) per row.
 *
 * Two steps per batch of rows:
 *
 *	pq_assembler_next()   gathers, for every projected leaf, the level
 *						  entries and values of the next nrows rows (rows
 *						  start where the repetition level is 0) into
 *						  row-aligned leaf batches, copying what the column
 *						  readers would free when they move on;
 *	pq_assembler_build()  builds the value trees from those batches.
 *
 * Callers that need no tree (a list of scalars, a struct of scalars) can
 * read the leaf batches directly.  Every level is validated: definition
 * levels <= the leaf's maximum, repetition levels <= its maximum, a leaf's
 * first entry starts a row, and the leaves of one field agree on the shape
 * of every row; anything else raises pq_corrupt().
 *
 * Leaves that are not projected are not read: in the trees, a group child
 * with no projected leaf below it is PQ_VAL_NULL (its node set), whatever
 * its data.  At least one leaf must be projected: it decides which groups
 * and lists exist.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_ASSEMBLE_H
#define PQ_ASSEMBLE_H

#include "format/metadata/nested_value.h"
#include "format/read/column_reader.h"

/*
 * Where the assembler gets a leaf's segments: column readers in the
 * server, hand-built level streams in unit tests.  leaf is the position in
 * the assembler's leaf list.
 */
typedef struct PqLeafSource
{
	/* next segment of at most max entries; 0 at the end of the chunk */
	int			(*next) (void *arg, int leaf, int max, PqSegment *seg);
	/* move over n entries without returning them (leaves with max_rep 0) */
	void		(*skip) (void *arg, int leaf, int64 n);
	/* level entry of the chunk the next segment starts at */
	int64		(*position) (void *arg, int leaf);
	void	   *arg;
} PqLeafSource;

/*
 * One leaf's level entries and values for the rows of a batch.  Definition
 * levels are always present when the leaf's max_def > 0, repetition levels
 * when its max_rep > 0.  Values are dense (one per entry whose definition
 * level is the maximum), dictionary ids already resolved.
 */
typedef struct PqLeafBatch
{
	const PqSchemaNode *leaf;
	int			n;				/* level entries */
	const int16 *rep;			/* NULL when max_rep == 0 */
	const int16 *def;			/* NULL when max_def == 0 */
	int			nvalues;
	const void *fixed;			/* pq_fixed_width() bytes each */
	const PqByteArray *ba;		/* BYTE_ARRAY values */
} PqLeafBatch;

typedef struct PqAssembler PqAssembler;

/*
 * An assembler for field (a child of the schema root) reading leaves (the
 * projected leaf nodes under field, in column order, at least one).
 * Allocates its buffers in the current memory context.
 */
extern PqAssembler *pq_assembler_create(const PqSchemaNode *field,
										const PqSchemaNode *const *leaves,
										int nleaves, PqLeafSource src);

/*
 * Start a row group.  Sources of leaves with repetition levels are at the
 * group's first entry; the others may be further on (a column reader that
 * loads only selected pages starts at the first of them).
 */
extern void pq_assembler_reset(PqAssembler *a);

/* The row of the row group the next batch starts at. */
extern int64 pq_assembler_row(const PqAssembler *a);

/*
 * Move to row `row` of the row group, not before pq_assembler_row(): rows
 * of leaves without repetition levels are passed over by the source,
 * without decoding.
 */
extern void pq_assembler_skip_to(PqAssembler *a, int64 row);

/*
 * Gather the next nrows (>= 1) rows of every leaf.  Returns nleaves leaf
 * batches, valid until the next call.  A leaf that ends earlier is corrupt.
 */
extern const PqLeafBatch *pq_assembler_next(PqAssembler *a, int nrows);

/*
 * Build the value tree of each row of the last gathered batch: rows[i] is
 * the field's value in row i (a PQ_VAL_LIST for a repeated field).  Trees
 * are allocated in the current memory context; scalars point into the
 * leaf batches and carry their index among the leaf's values.
 */
extern void pq_assembler_build(PqAssembler *a, PqValue *rows);

#endif							/* PQ_ASSEMBLE_H */
