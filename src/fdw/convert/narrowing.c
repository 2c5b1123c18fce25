/*-------------------------------------------------------------------------
 *
 * narrowing.c
 *		Columns declared narrower than the file's type (smallint over
 *		INT32, real over DOUBLE, numeric(8,2) over DECIMAL(18,4)): which
 *		of these casts keep the order statistics are in, and whether a
 *		statistic fits without raising the cast's error.
 *
 * Values read go through PostgreSQL's own assignment cast, which raises
 * 22003 or 22001 for a value that does not fit, as an INSERT would.  A
 * statistic that does not fit is no row's value yet: it bounds nothing,
 * and only reading a row that holds such a value is an ERROR.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fdw/convert/convert.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

/* Smallest and largest value of an integer type, as int64. */
static bool
int_bounds(Oid typid, int64 *lo, int64 *hi)
{
	switch (typid)
	{
		case INT2OID:
			*lo = PG_INT16_MIN;
			*hi = PG_INT16_MAX;
			return true;
		case INT4OID:
			*lo = PG_INT32_MIN;
			*hi = PG_INT32_MAX;
			return true;
		case INT8OID:
			*lo = PG_INT64_MIN;
			*hi = PG_INT64_MAX;
			return true;
	}
	return false;
}

bool
pqfdw_narrowing_keeps_order(const PqConverter *cv)
{
	Oid			n = cv->natural_type;
	Oid			t = cv->target_type;
	int64		lo;
	int64		hi;

	/*
	 * Integers, floats and numerics narrow by range and round to nearest:
	 * both keep the order.  A timestamp with time zone in local time does not
	 * (DST moves the clock back), nor does any time of day.
	 */
	if (int_bounds(t, &lo, &hi))
		return int_bounds(n, &lo, &hi) || n == FLOAT4OID ||
			n == FLOAT8OID || n == NUMERICOID;
	if (t == FLOAT4OID)
		return n == FLOAT8OID;
	if (t == NUMERICOID)
		return n == FLOAT4OID || n == FLOAT8OID;
	if (t == DATEOID)
		return n == TIMESTAMPOID;
	return false;
}

/* numeric(p,s) holds d: rounded to s digits, below 10^(p-s) in magnitude. */
static bool
numeric_typmod_fits(Datum d, int32 typmod)
{
	int			precision;
	int			scale;
	Datum		rounded;
	Datum		limit;

	if (typmod < (int32) VARHDRSZ)
		return true;
	if (numeric_is_nan(DatumGetNumeric(d)))
		return true;
	if (numeric_is_inf(DatumGetNumeric(d)))
		return false;
	precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
	scale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
	rounded = DirectFunctionCall2(numeric_round, d, Int32GetDatum(scale));
	rounded = DirectFunctionCall1(numeric_abs, rounded);
	limit = DirectFunctionCall3(numeric_in,
								CStringGetDatum(psprintf("1e%d", precision - scale)),
								ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp, rounded, limit)) < 0;
}

/* A numeric rounded to an integer within [lo, hi]. */
static bool
numeric_fits_int(Datum d, int64 lo, int64 hi)
{
	Numeric		num = DatumGetNumeric(d);
	Datum		rounded;

	if (numeric_is_nan(num) || numeric_is_inf(num))
		return false;
	rounded = DirectFunctionCall2(numeric_round, d, Int32GetDatum(0));
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp, rounded,
											 NumericGetDatum(int64_to_numeric(lo)))) >= 0 &&
		DatumGetInt32(DirectFunctionCall2(numeric_cmp, rounded,
										  NumericGetDatum(int64_to_numeric(hi)))) <= 0;
}

/*
 * A float rounded to an integer of the type whose smallest value is lo, as
 * dtoi4() and kin test it: lo is minus a power of two, exact as a double.
 */
static bool
float_fits_int(double x, int64 lo)
{
	x = rint(x);
	return !isnan(x) && x >= (double) lo && x < -(double) lo;
}

bool
pqfdw_narrowing_fits(PqConverter *cv, Datum d)
{
	Oid			n = cv->natural_type;
	Oid			t = cv->target_type;
	int64		lo;
	int64		hi;

	if (cv->cast == PQ_CAST_FUNC && cv->assignment_cast)
	{
		if (int_bounds(t, &lo, &hi))
		{
			if (n == INT8OID || n == INT4OID)
			{
				int64		v = n == INT8OID ? DatumGetInt64(d) :
				DatumGetInt32(d);

				if (v < lo || v > hi)
					return false;
			}
			else if (n == FLOAT8OID || n == FLOAT4OID)
			{
				if (!float_fits_int(n == FLOAT8OID ? DatumGetFloat8(d) :
									DatumGetFloat4(d), lo))
					return false;
			}
			else if (n == NUMERICOID)
			{
				if (!numeric_fits_int(d, lo, hi))
					return false;
			}
			else
				return false;
		}
		else if (t == FLOAT4OID && n == FLOAT8OID)
		{
			double		x = DatumGetFloat8(d);
			float4		f = (float4) x;

			/* float8_to_float4()'s overflow and underflow */
			if ((isinf(f) && !isinf(x)) || (f == 0.0f && x != 0.0))
				return false;
		}
		else if (!(t == NUMERICOID && (n == FLOAT4OID || n == FLOAT8OID)) &&
				 !(t == DATEOID && n == TIMESTAMPOID))
			return false;
	}
	else if (cv->cast != PQ_CAST_NONE && cv->cast != PQ_CAST_FUNC)
		return false;

	if (!cv->need_typmod_func)
		return true;
	if (t == NUMERICOID)
	{
		/* to numeric, which none of these casts fails */
		if (cv->cast == PQ_CAST_FUNC)
		{
			if (cv->cast_nargs != 1)
				return false;
			d = FunctionCall1(&cv->cast_func, d);
		}
		return numeric_typmod_fits(d, cv->target_typmod);
	}
	/* rounding a timestamp or time to fewer digits cannot fail */
	return t == TIMESTAMPOID || t == TIMESTAMPTZOID || t == TIMEOID;
}
