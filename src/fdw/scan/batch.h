/*-------------------------------------------------------------------------
 *
 * batch.h
 *		A batch of rows as the table reader hands it to its consumers (the
 *		scan, grouped and top-N scans, ANALYZE, COPY FROM), as DuckDB passes
 *		a DataChunk and arrow-rs a RecordBatch: column-major Datums and
 *		nulls per attribute, the columns read, and for grouped scans each
 *		column's dictionary indices and converter.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_BATCH_H
#define PQFDW_BATCH_H

#include "fdw/convert/convert.h"

/*
 * A column's dictionary indices for the rows of a batch (set_codes): rows
 * of one dictionary share an index exactly when they share a value, so a
 * grouping can key on indices (PQFDW_NO_CODE for NULLs and for values not
 * from dictionary dict_id).
 */
typedef struct PqBatchCodes
{
	uint32	   *codes;			/* capacity of them */
	uint32		dict_id;		/* 0: no row has a code */
	int			dict_count;		/* entries of that dictionary */
} PqBatchCodes;

/* A column the reader reads. */
typedef struct PqBatchColumn
{
	int			att;			/* 0-based attribute number */
	bool		output;			/* its values are handed out (false: only the
								 * batch filter tests them, and they stay
								 * NULL) */
} PqBatchColumn;

typedef struct PqBatch
{
	int			nrows;			/* rows in this batch */
	int			capacity;		/* rows an attribute has room for */
	int			natts;			/* of the relation; attributes not read are
								 * NULL in every row */
	Datum	   *values;			/* natts * capacity, pqfdw_batch_index() */
	bool	   *nulls;
	int			ncols;			/* the columns read, in the reader's order */
	const PqBatchColumn *cols;

	/* per attribute: dictionary indices (NULL unless asked for) */
	PqBatchCodes **codes;
	/* per attribute: the converter of the values handed out (NULL: none) */
	PqConverter **converters;
} PqBatch;

/* Index of attribute att's (0-based) value in row row. */
static inline size_t
pqfdw_batch_index(const PqBatch *b, int att, int row)
{
	return (size_t) att * b->capacity + row;
}

#endif							/* PQFDW_BATCH_H */
