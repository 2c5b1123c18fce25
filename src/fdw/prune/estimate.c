/*-------------------------------------------------------------------------
 *
 * estimate.c
 *		Row estimates from column chunk statistics: the fraction of a row
 *		group a predicate keeps, with values taken as uniform between the
 *		chunk's min and max.
 *
 * Only the planner uses this, for row groups that pruning keeps: on a file
 * sorted by the column the bounds are tight and a range query's estimate
 * follows the data instead of PostgreSQL's default selectivities.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/stratnum.h"
#include "catalog/pg_type.h"
#include "fdw/prune/prune.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

/* A value of a type with a numeric order as a double; false otherwise. */
static bool
as_double(Oid type, Datum d, double *out)
{
	switch (type)
	{
		case INT2OID:
			*out = DatumGetInt16(d);
			return true;
		case INT4OID:
		case DATEOID:
			*out = DatumGetInt32(d);
			return true;
		case INT8OID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			*out = (double) DatumGetInt64(d);
			return true;
		case FLOAT4OID:
			*out = DatumGetFloat4(d);
			return !isnan(*out);
		case FLOAT8OID:
			*out = DatumGetFloat8(d);
			return !isnan(*out);
		case NUMERICOID:
			*out = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, d));
			return !isnan(*out);
	}
	return false;
}

/* Fraction of [min, max] below v (uniform values). */
static double
fraction_below(double min, double max, double v)
{
	if (v <= min)
		return 0.0;
	if (v > max)
		return 1.0;
	if (max <= min)
		return 1.0;
	return (v - min) / (max - min);
}

/* Fraction of rows kept by p; -1 when the statistics say nothing. */
static double
pred_fraction(PqPrunePred *p, const PqFile *file, int row_group,
			  PqConverter **cvs, const int *leaf)
{
	PqConverter *cv;
	Datum		min;
	Datum		max;
	double		nulls;
	double		lo;
	double		hi;
	double		v;
	Oid		   *argtypes;
	int			nargs;
	int			c;

	if (p->kind == PQ_PRUNE_OR)
		return -1;
	cv = cvs[p->attnum - 1];
	c = leaf[p->attnum - 1];
	if (cv == NULL || c < 0 || cv->node->max_rep > 0)
		return -1;
	if (!pqfdw_chunk_bounds(file, row_group, c, cv, &min, &max, &nulls))
	{
		if (p->kind == PQ_PRUNE_IS_NULL || p->kind == PQ_PRUNE_IS_NOT_NULL)
		{
			/* null counts alone may be there */
			if (p->kind == PQ_PRUNE_IS_NULL)
				return nulls;
			return 1.0 - nulls;
		}
		return -1;
	}
	if (p->kind == PQ_PRUNE_IS_NULL)
		return nulls;
	if (p->kind == PQ_PRUNE_IS_NOT_NULL)
		return 1.0 - nulls;
	if (p->nvalues != 1 || p->value_is_array || p->has_cast)
		return -1;

	/* the comparison's argument types: (column, value) */
	get_func_signature(p->cmp.fn_oid, &argtypes, &nargs);
	if (nargs != 2 ||
		!as_double(cv->target_type, min, &lo) ||
		!as_double(cv->target_type, max, &hi) ||
		!as_double(argtypes[1], p->values[0], &v))
		return -1;
	if (cv->target_type == DATEOID && argtypes[1] != DATEOID)
		return -1;				/* days against microseconds */
	if ((cv->target_type == TIMESTAMPOID || cv->target_type == TIMESTAMPTZOID) &&
		argtypes[1] != TIMESTAMPOID && argtypes[1] != TIMESTAMPTZOID)
		return -1;

	switch (p->strategy)
	{
		case BTLessStrategyNumber:
		case BTLessEqualStrategyNumber:
			return (1.0 - nulls) * fraction_below(lo, hi, v);
		case BTGreaterStrategyNumber:
		case BTGreaterEqualStrategyNumber:
			return (1.0 - nulls) * (1.0 - fraction_below(lo, hi, v));
	}
	return -1;
}

double
pqfdw_row_group_fraction(PqPrunePred *preds, int npreds, const PqFile *file,
						 int row_group, PqConverter **cvs, const int *leaf,
						 bool *all_known)
{
	double		f = 1.0;
	int			i;

	for (i = 0; i < npreds; i++)
	{
		double		pf = pred_fraction(&preds[i], file, row_group, cvs, leaf);

		if (pf < 0)
			*all_known = false;
		else
			f *= pf;
	}
	return f;
}
