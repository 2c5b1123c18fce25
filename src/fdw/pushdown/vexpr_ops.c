/*-------------------------------------------------------------------------
 *
 * vexpr_ops.c
 *		The operators of vector expressions, row for row PostgreSQL's:
 *		integer, float and numeric arithmetic, casts, comparisons, NULL
 *		tests and NOT over a batch of a node's operand vectors.
 *
 * Integers are computed in 64 bits and checked against the result type's
 * range ("integer out of range"), division and modulo check for a zero
 * divisor first, floats go through utils/float.h's checked operators,
 * numerics are unscaled integers at numeric.c's display scales.  Rows
 * whose operand is NULL are not computed at all, so that a NULL row's
 * leftover value can never raise an error PostgreSQL would not.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/int.h"
#include "fdw/pushdown/vexpr_node.h"
#include "utils/float.h"
#include "utils/varlena.h"

Datum
pqfdw_vint_datum(Oid type, int64 v)
{
	switch (type)
	{
		case INT2OID:
			return Int16GetDatum((int16) v);
		case INT4OID:
		case DATEOID:
			return Int32GetDatum((int32) v);
		case BOOLOID:
			return BoolGetDatum(v != 0);
		default:
			return Int64GetDatum(v);
	}
}

int64
pqfdw_vint_value(Oid type, Datum d)
{
	switch (type)
	{
		case INT2OID:
			return DatumGetInt16(d);
		case INT4OID:
		case DATEOID:
			return DatumGetInt32(d);
		case BOOLOID:
			return DatumGetBool(d);
		default:
			return DatumGetInt64(d);
	}
}

static pg_attribute_noreturn()
void
int_range_error(Oid type)
{
	/* PostgreSQL's own messages, each whole */
	if (type == INT2OID)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("smallint out of range")));
	if (type == INT4OID)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("integer out of range")));
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("bigint out of range")));
}

static pg_attribute_noreturn()
void
zero_divide_error(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DIVISION_BY_ZERO),
			 errmsg("division by zero")));
}

/* Check an exact result against the range of type. */
static inline int64
int_result(Oid type, int64 v)
{
	if ((type == INT4OID && (v < PG_INT32_MIN || v > PG_INT32_MAX)) ||
		(type == INT2OID && (v < PG_INT16_MIN || v > PG_INT16_MAX)))
		int_range_error(type);
	return v;
}

/* One integer operation; int8 results check their own overflow. */
static inline int64
int_op(VOp op, Oid type, int64 x, int64 y)
{
	int64		r;

	switch (op)
	{
		case VOP_ADD:
			if (pg_add_s64_overflow(x, y, &r))
				int_range_error(type);
			return int_result(type, r);
		case VOP_SUB:
			if (pg_sub_s64_overflow(x, y, &r))
				int_range_error(type);
			return int_result(type, r);
		case VOP_MUL:
			if (pg_mul_s64_overflow(x, y, &r))
				int_range_error(type);
			return int_result(type, r);
		case VOP_DIV:
			if (y == 0)
				zero_divide_error();
			if (y == -1)
			{
				if (x == PG_INT64_MIN)
					int_range_error(type);
				return int_result(type, -x);
			}
			return int_result(type, x / y);
		case VOP_MOD:
			if (y == 0)
				zero_divide_error();
			/* INT_MIN % -1 is 0, but C may trap on it */
			return y == -1 ? 0 : x % y;
		default:
			elog(ERROR, "integer operation %d", (int) op);
	}
	return 0;					/* keep compiler quiet */
}

/*
 * int8 +, - or * over n rows: every row computed, a NULL one too (its
 * result unused), its overflow OR-ed into one flag; no branch, no dispatch.
 */
#define INT8_ARITH_LOOP(CHECKED) \
	do { \
		for (r = 0; r < n; r++) \
		{ \
			int64		v; \
 \
			bad |= CHECKED(x[r], y[r], &v) & !on[r]; \
			out[r] = v; \
		} \
	} while (0)

/*
 * int4 or int2 +, - or * over n rows: operands of these types cannot
 * overflow 64 bits, so the loop computes in wrapping 64-bit arithmetic (a
 * NULL row's stale operands too), a result outside the type's range
 * (one unsigned comparison) sending the caller through the rows again.
 */
#define NARROW_ARITH_LOOP(OP) \
	do { \
		for (r = 0; r < n; r++) \
		{ \
			uint64		v = (uint64) x[r] OP (uint64) y[r]; \
 \
			out[r] = (int64) v; \
			bad |= v - (uint64) lo > span; \
		} \
	} while (0)

/*
 * Integer +, - and * of two vectors.  Only when some row may have left the
 * result type's range are the rows gone through again, in order, so that
 * the first non-NULL one that did raises the error PostgreSQL raises.
 */
static void
int_arith(PqVExpr *e, int n, const PqVector *a, const PqVector *b)
{
	const int64 *x = a->i;
	const int64 *y = b->i;
	const bool *an = a->nulls;
	const bool *bn = b->nulls;
	int64	   *restrict out = e->out.i;
	bool	   *restrict on = e->nbuf;
	bool		bad = false;
	int			r;

	/* eight rows' null flags at a time: the byte loop does not vectorise */
	for (r = 0; r + 8 <= n; r += 8)
	{
		uint64		p;
		uint64		q;

		memcpy(&p, an + r, 8);
		memcpy(&q, bn + r, 8);
		p |= q;
		memcpy(on + r, &p, 8);
	}
	for (; r < n; r++)
		on[r] = an[r] | bn[r];
	if (e->out.type == INT4OID || e->out.type == INT2OID)
	{
		int64		lo = e->out.type == INT4OID ? PG_INT32_MIN : PG_INT16_MIN;
		uint64		span = e->out.type == INT4OID ? PG_UINT32_MAX : PG_UINT16_MAX;

		if (e->op == VOP_ADD)
			NARROW_ARITH_LOOP(+);
		else if (e->op == VOP_SUB)
			NARROW_ARITH_LOOP(-);
		else
			NARROW_ARITH_LOOP(*);
	}
	else if (e->op == VOP_ADD)
		INT8_ARITH_LOOP(pg_add_s64_overflow);
	else if (e->op == VOP_SUB)
		INT8_ARITH_LOOP(pg_sub_s64_overflow);
	else
		INT8_ARITH_LOOP(pg_mul_s64_overflow);
	if (bad)
		for (r = 0; r < n; r++)
			if (!on[r])
				(void) int_op(e->op, e->out.type, x[r], y[r]);
}

/*
 * A float operation over n rows, one loop per operator (the checked
 * operators of utils/float.h); NULL rows are not computed.
 */
#define FLOAT_LOOP(fn, T) \
	for (r = 0; r < n; r++) \
	{ \
		out_null[r] = an[r] || bn[r]; \
		if (!out_null[r]) \
			out[r] = fn((T) x[r], (T) y[r]); \
	}

static void
float_op(VOp op, bool f4, int n, const double *x, const bool *an,
		 const double *y, const bool *bn, double *restrict out,
		 bool *restrict out_null)
{
	int			r;

	if (f4)
	{
		switch (op)
		{
			case VOP_ADD:
				FLOAT_LOOP(float4_pl, float4);
				break;
			case VOP_SUB:
				FLOAT_LOOP(float4_mi, float4);
				break;
			case VOP_MUL:
				FLOAT_LOOP(float4_mul, float4);
				break;
			default:
				FLOAT_LOOP(float4_div, float4);
				break;
		}
		return;
	}
	switch (op)
	{
		case VOP_ADD:
			FLOAT_LOOP(float8_pl, float8);
			break;
		case VOP_SUB:
			FLOAT_LOOP(float8_mi, float8);
			break;
		case VOP_MUL:
			FLOAT_LOOP(float8_mul, float8);
			break;
		default:
			FLOAT_LOOP(float8_div, float8);
			break;
	}
}

/* A cast of one value of a's kind to e's type. */
/*
 * numeric_float8 of an unscaled value: float8in of its text, the correctly
 * rounded double; exact operands divide to it directly.
 */
static double
unscaled_to_float8(int64 v, int scale)
{
	static const double pow10_dbl[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
	};
	char		buf[64];

	if (v > -(INT64CONST(1) << 53) && v < (INT64CONST(1) << 53) &&
		scale < lengthof(pow10_dbl))
		return (double) v / pow10_dbl[scale];
	snprintf(buf, sizeof(buf), INT64_FORMAT "e-%d", v, scale);
	return strtod(buf, NULL);
}

void
pqfdw_numeric_bound_error(const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("numeric value exceeds the bound planned from the Parquet statistics"),
			 errdetail("%s", detail),
			 errhint("Plan the query again, or set parquet_fdw.enable_grouped_scan to off.")));
}

#define EXPR_PAST_BOUND "A numeric expression computed in the scan went past 64 bits."

/* x * 10^k, checked */
static inline int64
rescale(int64 x, int k)
{
	int64		r;

	if (k == 0)
		return x;
	if (k > 18 || pg_mul_s64_overflow(x, (int64) pqfdw_pow10[k], &r))
		pqfdw_numeric_bound_error(EXPR_PAST_BOUND);
	return r;
}

/* numeric + - * of unscaled vectors: exact, at add_var's / mul_var's scale */
static void
eval_decimal_arith(PqVExpr *e, int n)
{
	const PqVector *a = &e->a->out;
	const PqVector *b = &e->b->out;
	int			ka = 0;
	int			kb = 0;
	int			r;

	if (e->op == VOP_MUL)
		e->out.scale = a->scale + b->scale;
	else
	{
		e->out.scale = Max(a->scale, b->scale);
		ka = e->out.scale - a->scale;
		kb = e->out.scale - b->scale;
	}
	for (r = 0; r < n; r++)
	{
		int64		x;
		int64		y;
		bool		over;

		e->nbuf[r] = a->nulls[r] || b->nulls[r];
		if (e->nbuf[r])
			continue;
		x = rescale(a->i[r], ka);
		y = rescale(b->i[r], kb);
		if (e->op == VOP_ADD)
			over = pg_add_s64_overflow(x, y, &e->out.i[r]);
		else if (e->op == VOP_SUB)
			over = pg_sub_s64_overflow(x, y, &e->out.i[r]);
		else
			over = pg_mul_s64_overflow(x, y, &e->out.i[r]);
		if (over)
			pqfdw_numeric_bound_error(EXPR_PAST_BOUND);
	}
}

static void
eval_cast(PqVExpr *e, int n)
{
	const PqVector *a = &e->a->out;
	int			r;

	if (e->out.kind == PQV_DECIMAL)
		e->out.scale = 0;
	for (r = 0; r < n; r++)
	{
		e->nbuf[r] = a->nulls[r];
		if (a->nulls[r])
			continue;
		if (e->out.kind == PQV_DECIMAL)
			e->out.i[r] = a->i[r];	/* an integer, at scale 0 */
		else if (a->kind == PQV_DECIMAL)
			e->out.d[r] = unscaled_to_float8(a->i[r], a->scale);
		else if (e->out.kind == PQV_INT)
			e->out.i[r] = int_result(e->out.type, a->i[r]);
		else if (a->kind != PQV_INT)
			e->out.d[r] = a->d[r];	/* float4 to float8 is exact */
		else if (e->out.kind == PQV_FLOAT4)
			e->out.d[r] = (float4) a->i[r];
		else
			e->out.d[r] = (float8) a->i[r];
	}
}

/* A comparison, integers by value, floats with NaN above all as float.h's */
#define CMP_LOOP(T, TEST) \
	for (r = 0; r < n; r++) \
	{ \
		T			x = X[r]; \
		T			y = Y[r]; \
		out_null[r] = an[r] || bn[r]; \
		out[r] = !out_null[r] && (TEST); \
	}

/* Text comparisons: equality by bytes, orderings by varstr_cmp. */
static void
eval_text_cmp(PqVExpr *e, int n)
{
	const PqVector *a = &e->a->out;
	const PqVector *b = &e->b->out;
	int			r;

	for (r = 0; r < n; r++)
	{
		text	   *x;
		text	   *y;
		int			xl;
		int			yl;
		int			c;

		e->nbuf[r] = a->nulls[r] || b->nulls[r];
		e->out.i[r] = 0;
		if (e->nbuf[r])
			continue;
		x = DatumGetTextPP(a->p[r]);
		y = DatumGetTextPP(b->p[r]);
		xl = VARSIZE_ANY_EXHDR(x);
		yl = VARSIZE_ANY_EXHDR(y);
		if (e->cmp == VCMP_EQ || e->cmp == VCMP_NE)
			c = xl != yl || memcmp(VARDATA_ANY(x), VARDATA_ANY(y), xl) != 0;
		else
			c = varstr_cmp(VARDATA_ANY(x), xl, VARDATA_ANY(y), yl, e->collid);
		switch (e->cmp)
		{
			case VCMP_EQ:
				e->out.i[r] = c == 0;
				break;
			case VCMP_NE:
				e->out.i[r] = c != 0;
				break;
			case VCMP_LT:
				e->out.i[r] = c < 0;
				break;
			case VCMP_LE:
				e->out.i[r] = c <= 0;
				break;
			case VCMP_GT:
				e->out.i[r] = c > 0;
				break;
			case VCMP_GE:
				e->out.i[r] = c >= 0;
				break;
		}
	}
}

/* Comparisons of integers (and of unscaled numerics at one scale). */
static void
cmp_ints(PqVExpr *e, int n, const int64 *X, const int64 *Y, const bool *an,
		 const bool *bn)
{
	bool	   *restrict out_null = e->nbuf;
	int64	   *restrict out = e->out.i;
	int			r;

	switch (e->cmp)
	{
		case VCMP_EQ:
			CMP_LOOP(int64, x == y);
			break;
		case VCMP_NE:
			CMP_LOOP(int64, x != y);
			break;
		case VCMP_LT:
			CMP_LOOP(int64, x < y);
			break;
		case VCMP_LE:
			CMP_LOOP(int64, x <= y);
			break;
		case VCMP_GT:
			CMP_LOOP(int64, x > y);
			break;
		case VCMP_GE:
			CMP_LOOP(int64, x >= y);
			break;
	}
}

static void
eval_cmp(PqVExpr *e, int n)
{
	const PqVector *a = &e->a->out;
	const PqVector *b = &e->b->out;
	const bool *an = a->nulls;
	const bool *bn = b->nulls;
	bool	   *restrict out_null = e->nbuf;
	int64	   *restrict out = e->out.i;
	int			r;

	if (a->kind == PQV_DATUM)
	{
		eval_text_cmp(e, n);
		return;
	}
	if (a->kind == PQV_DECIMAL)
	{
		/* at the common scale, as integers */
		int			s = Max(a->scale, b->scale);
		int64	   *X = e->sa;
		int64	   *Y = e->sb;

		for (r = 0; r < n; r++)
		{
			bool		null = an[r] || bn[r];

			X[r] = null ? 0 : rescale(a->i[r], s - a->scale);
			Y[r] = null ? 0 : rescale(b->i[r], s - b->scale);
		}
		cmp_ints(e, n, X, Y, an, bn);
		return;
	}
	if (a->kind == PQV_INT)
	{
		cmp_ints(e, n, a->i, b->i, an, bn);
		return;
	}
	{
		const double *X = a->d;
		const double *Y = b->d;

		switch (e->cmp)
		{
			case VCMP_EQ:
				CMP_LOOP(double, float8_eq(x, y));
				break;
			case VCMP_NE:
				CMP_LOOP(double, float8_ne(x, y));
				break;
			case VCMP_LT:
				CMP_LOOP(double, float8_lt(x, y));
				break;
			case VCMP_LE:
				CMP_LOOP(double, float8_le(x, y));
				break;
			case VCMP_GT:
				CMP_LOOP(double, float8_gt(x, y));
				break;
			case VCMP_GE:
				CMP_LOOP(double, float8_ge(x, y));
				break;
		}
	}
}

/*
 * Node e's operator on the n rows of its children's vectors (evaluated
 * under skip): casts, NULL tests, NOT, comparisons and arithmetic.
 */
void
pqfdw_vexpr_apply(PqVExpr *e, int n, const bool *skip)
{
	const PqVector *a;
	const PqVector *b;
	bool		f4 = e->out.kind == PQV_FLOAT4;
	int			r;

	if (e->op == VOP_CAST)
	{
		eval_cast(e, n);
		return;
	}
	a = &e->a->out;
	if (e->op == VOP_ISNULL || e->op == VOP_ISNOTNULL)
	{
		/* a skipped row's column reads NULL: the test must not say so */
		for (r = 0; r < n; r++)
		{
			e->nbuf[r] = skip && skip[r];
			e->out.i[r] = a->nulls[r] == (e->op == VOP_ISNULL);
		}
		return;
	}
	if (e->op == VOP_NOT)
	{
		for (r = 0; r < n; r++)
		{
			e->nbuf[r] = a->nulls[r];
			e->out.i[r] = !a->i[r];
		}
		return;
	}
	if (e->op == VOP_CMP)
	{
		eval_cmp(e, n);
		return;
	}
	if (e->op == VOP_NEG)
	{
		for (r = 0; r < n; r++)
		{
			e->nbuf[r] = a->nulls[r];
			if (a->nulls[r])
				continue;
			if (e->out.kind == PQV_DECIMAL)
			{
				if (a->i[r] == PG_INT64_MIN)
					pqfdw_numeric_bound_error(EXPR_PAST_BOUND);
				e->out.i[r] = -a->i[r];
			}
			else if (e->out.kind == PQV_INT)
			{
				if (a->i[r] == PG_INT64_MIN)
					int_range_error(e->out.type);
				e->out.i[r] = int_result(e->out.type, -a->i[r]);
			}
			else
				e->out.d[r] = -a->d[r];
		}
		e->out.scale = a->scale;
		return;
	}
	b = &e->b->out;
	if (e->out.kind == PQV_DECIMAL)
	{
		eval_decimal_arith(e, n);
		return;
	}
	if (e->out.kind == PQV_INT && (e->op == VOP_ADD || e->op == VOP_SUB ||
								   e->op == VOP_MUL))
	{
		int_arith(e, n, a, b);
		return;
	}
	if (e->out.kind == PQV_INT)
	{
		for (r = 0; r < n; r++)
		{
			e->nbuf[r] = a->nulls[r] || b->nulls[r];
			if (!e->nbuf[r])
				e->out.i[r] = int_op(e->op, e->out.type, a->i[r], b->i[r]);
		}
		return;
	}
	float_op(e->op, f4, n, a->d, a->nulls, b->d, b->nulls, e->out.d, e->nbuf);
}
