/*-------------------------------------------------------------------------
 *
 * filter_program.h
 *		The compiled form of a filter (filter.h): built by filter.c, run by
 *		filter_eval.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_FILTER_PROGRAM_H
#define PQFDW_FILTER_PROGRAM_H

#include "fdw/scan/filter.h"

typedef enum PqLeafKind
{
	PQL_OP,						/* column op constant(s): ANY or ALL */
	PQL_NULLTEST				/* column IS [NOT] NULL */
} PqLeafKind;

/* Comparisons a leaf can run on raw values, with the column on the left. */
typedef enum PqCmp
{
	PQC_NONE,					/* only through the operator's function */
	PQC_LT,
	PQC_LE,
	PQC_EQ,
	PQC_GE,
	PQC_GT,
	PQC_NE,
	PQC_LIKE,
	PQC_NOT_LIKE,
	PQC_ILIKE,
	PQC_NOT_ILIKE
} PqCmp;

/* How a leaf reads a segment's values, chosen by the column's converter. */
typedef enum PqRawKind
{
	PQR_DATUM,					/* the Datums (or the dictionary's) */
	PQR_INT32,					/* int32 values, constants as int64 */
	PQR_INT64,
	PQR_FLOAT,					/* float values, constants as double */
	PQR_DOUBLE,
	PQR_TEXT,					/* byte arrays against constants' bytes */
	PQR_DECIMAL_BE				/* FIXED_LEN_BYTE_ARRAY decimals of up to 8
								 * bytes, widened to int64 */
} PqRawKind;

/* A LIKE pattern of literal parts between '%' wildcards. */
typedef struct PqLikePattern
{
	int			nparts;
	char	  **parts;
	int		   *lens;
	bool		anchored_start; /* no '%' in front */
	bool		anchored_end;	/* no '%' at the end */
} PqLikePattern;

typedef struct PqFilterLeaf
{
	PqLeafKind	kind;
	AttrNumber	attnum;

	/*
	 * PQL_OP: "column op c" for each constant c (one for a plain operator),
	 * combined with OR (ANY) or AND (ALL); NULL constants make the result
	 * NULL where no other constant decides it.
	 */
	FmgrInfo	fn;
	Oid			collation;
	bool		var_on_left;
	Oid			consttype;
	int			nconsts;
	Datum	   *consts;			/* the non-NULL ones */
	bool		null_const;
	bool		use_or;
	PqCmp		cmp;			/* from the operator's btree family */
	Oid			opfamily;
	bool		is_null;		/* PQL_NULLTEST */

	/* raw evaluation, chosen at the first segment */
	bool		bound;
	PqRawKind	raw;
	int64	   *ivals;			/* constants in the raw integers' terms (a
								 * decimal's unscaled value) */
	double	   *fvals;
	char	  **strs;			/* text constants' bytes */
	int		   *lens;
	PqLikePattern *like;
	bool		check_range;	/* raw values outside [raw_min, raw_max] do
								 * not convert: the Datums must be made */
	int64		raw_min;
	int64		raw_max;

	/* each entry's truth value for dictionary dict_id */
	uint32		dict_id;
	uint8	   *dict_tri;
	int			dict_cap;

	uint8	   *tri;			/* per batch row */
} PqFilterLeaf;

typedef enum PqNodeKind
{
	PQN_AND,
	PQN_OR,
	PQN_NOT,
	PQN_LEAF
} PqNodeKind;

typedef struct PqFilterNode
{
	PqNodeKind	kind;
	int			nargs;
	struct PqFilterNode **args;
	int			leaf;			/* PQN_LEAF */
	uint8	   *tri;			/* per batch row, for AND, OR, NOT */
} PqFilterNode;

struct PqFilter
{
	int			nleaves;
	PqFilterLeaf *leaves;
	PqFilterNode *root;			/* the AND of the quals */
	int			batch_rows;
	List	   *attnums;
	MemoryContext cxt;
	uint8	   *dense;			/* per-value scratch, PQ_SEGMENT_CAP */
	uint8	   *dense2;
	int64	   *wide;			/* PQR_DECIMAL_BE values as int64 */
	int			wide_cap;
	char	   *lower;			/* a string in lower case (ILIKE) */
	int			lower_cap;
};

/* filter_bind.c: how a leaf reads the values of the column cv converts */
extern void pqfdw_filter_bind_leaf(PqFilter *f, PqFilterLeaf *leaf,
								   PqConverter *cv);

#endif							/* PQFDW_FILTER_PROGRAM_H */
