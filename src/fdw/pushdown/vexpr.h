/*-------------------------------------------------------------------------
 *
 * vexpr.h
 *		Expressions of a foreign table's columns evaluated a batch at a
 *		time: grouping keys and aggregate arguments of grouped scans.
 *
 * A vector expression is a tree of columns, constants, integer and float
 * arithmetic (+ - * / %, unary minus), casts between those types,
 * comparisons of numbers, dates, times, bools and text, IS [NOT] NULL,
 * AND, OR, NOT and CASE, searched or simple, of any of those types
 * including text (operands and branches evaluated only where PostgreSQL
 * evaluates them).  Each
 * operator is PostgreSQL's, row for row: the same results, the same
 * overflow, underflow and division-by-zero errors; a NULL operand gives
 * NULL.  Anything else is not compiled (pqfdw_vexpr_supported() is false)
 * and the plan leaves the expression to PostgreSQL.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_VEXPR_H
#define PQFDW_VEXPR_H

#include "fdw/scan/table_reader.h"
#include "nodes/bitmapset.h"
#include "nodes/primnodes.h"

/* How a vector holds its values. */
typedef enum PqVKind
{
	PQV_INT,					/* int2, int4, int8, date, time, timestamp,
								 * timestamptz, bool: in int64 */
	PQV_FLOAT4,					/* float4 values, held exactly in double */
	PQV_FLOAT8,
	PQV_DATUM,					/* text: Datums of the batch */
	PQV_DECIMAL					/* numeric of a DECIMAL column read unscaled
								 * (pqfdw_table_reader_set_unscaled): in
								 * int64, or in int128 (w) for precisions over
								 * 18, with the column's scale */
} PqVKind;

/* Kinds whose values are in PqVector.i */
static inline bool
pqfdw_vkind_integral(PqVKind kind)
{
	return kind == PQV_INT || kind == PQV_DECIMAL;
}

typedef struct PqVExpr PqVExpr;

/* One expression's values for the rows of a batch. */
typedef struct PqVector
{
	PqVKind		kind;
	Oid			type;
	int64	   *i;				/* PQV_INT, PQV_DECIMAL */
	const int128 *w;			/* PQV_DECIMAL instead of i, when wide */
	int			scale;			/* PQV_DECIMAL */
	double	   *d;				/* PQV_FLOAT4, PQV_FLOAT8 */
	const Datum *p;				/* PQV_DATUM */
	const bool *nulls;			/* per row */
	const PqBatchCodes *codes;	/* a column's dictionary indices, or NULL */
} PqVector;

/* Row r's unscaled value of a PQV_DECIMAL vector, narrow or wide. */
static inline int128
pqfdw_vdecimal(const PqVector *v, int r)
{
	return v->w ? v->w[r] : (int128) v->i[r];
}

/* The kind of a type's values, false when vectors cannot hold it. */
extern bool pqfdw_vkind_of(Oid type, PqVKind *kind);

/*
 * The numeric columns of a table that vectors can hold (fdw/plan/grouping.c
 * finds them in the files): DECIMAL columns the scan can read unscaled, the
 * one scale of each in every file, and a bound on their unscaled values'
 * magnitude (from the chunks' statistics, else from the precision), by
 * attribute number.
 */
typedef struct PqVexprNumerics
{
	Bitmapset  *unscaled;
	Bitmapset  *wide;			/* of those, held in byte arrays: only as bare
								 * columns (min, max, count, keys) */
	Bitmapset  *summable;		/* wide ones whose sum stays in 128 bits */
	int			natts;
	int		   *scale;			/* [natts + 1] */
	int64	   *max_abs;		/* [natts + 1] */
} PqVexprNumerics;

/*
 * Whether expr can be compiled: its Vars are columns of relation relid
 * (attribute numbers > 0) of types vectors hold, text as a column, a
 * constant, a CASE result or compared (equality only under deterministic
 * collations), numeric as a column of num->unscaled, a constant, a cast of
 * an integer, + - * and unary minus of those, compared or cast to float8,
 * where the bounds show every value's unscaled integer fits in 64 bits (so
 * the result is exact: PostgreSQL's numeric + - * are exact too).
 */
extern bool pqfdw_vexpr_supported(Expr *expr, Index relid,
								  const PqVexprNumerics *num);

/*
 * ERROR for an unscaled numeric past the bound the plan derived from the
 * files' statistics (they understated it, or the plan predates the files).
 */
extern void pqfdw_numeric_bound_error(const char *detail) pg_attribute_noreturn();

/* The numeric of unscaled value v at the given scale (its dscale). */
extern Datum pqfdw_unscaled_numeric(int128 v, int scale);

/* The Datum of value v of a PQV_INT type, and the value of a Datum. */
extern Datum pqfdw_vint_datum(Oid type, int64 v);
extern int64 pqfdw_vint_value(Oid type, Datum d);

/*
 * Row r's value of vector v as a Datum of v's type; not for PQV_DECIMAL
 * (pqfdw_unscaled_numeric() of pqfdw_vdecimal()).
 */
static inline Datum
pqfdw_vector_datum(const PqVector *v, int r)
{
	switch (v->kind)
	{
		case PQV_INT:
			return pqfdw_vint_datum(v->type, v->i[r]);
		case PQV_FLOAT4:
			return Float4GetDatum((float4) v->d[r]);
		case PQV_FLOAT8:
			return Float8GetDatum(v->d[r]);
		case PQV_DECIMAL:
		case PQV_DATUM:
			break;
	}
	return v->p[r];
}

/*
 * Add to atts the columns (attribute numbers) a function call in e takes
 * as its one variable argument, directly or through other such calls: with
 * their dictionary indices (pqfdw_table_reader_set_codes), the call runs
 * once per dictionary entry.
 */
extern Bitmapset *pqfdw_vexpr_coded_inputs(PqVExpr *e, Bitmapset *atts);

/* Compile expr (supported) for batches of at most batch_rows rows. */
extern PqVExpr *pqfdw_vexpr_compile(Expr *expr, Index relid, int batch_rows);

/*
 * Evaluate on the n rows of tr's current batch; valid until the next call.
 * Rows where skip (may be NULL) is set are not computed: their columns read
 * as NULL, so no operator can fail on them (an aggregate's FILTER: PostgreSQL
 * does not evaluate the arguments of rows the filter rejects).
 */
extern const PqVector *pqfdw_vexpr_eval(PqVExpr *e, const PqBatch *b, int n,
										const bool *skip);

#endif							/* PQFDW_VEXPR_H */
