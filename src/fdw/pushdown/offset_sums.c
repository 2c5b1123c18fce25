/*-------------------------------------------------------------------------
 *
 * offset_sums.c
 *		sum() and avg() of "column + constant" (or column - constant, or
 *		the column alone) over all rows, from one pass over the column per
 *		batch: sum(x + c) = sum(x) + c * count(x).
 *
 * Queries such as ClickBench's ninety sums of one column differ only in
 * the constant; DuckDB rewrites them the same way.  PostgreSQL computes
 * x + c row by row and raises "integer out of range" where a row's x + c
 * leaves the result type, so a batch takes this path only when its
 * smallest and largest x plus c stay within that type (then no row can
 * fail); otherwise the aggregate's expression runs row by row and raises
 * the error at the row PostgreSQL does.  The states then hold what the
 * row-by-row additions give: integer sums wrap in 64 bits (int4_sum does
 * not check), or are exact in 128 bits.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/pushdown/offset_sums.h"
#include "fdw/pushdown/vexpr_node.h"
#include "nodes/nodeFuncs.h"
#include "utils/fmgroids.h"

/* One column's figures for the batch. */
typedef struct ColumnFigures
{
	PqVExpr    *var;			/* the column as a vector */
	int128		sum;
	int64		count;
	int64		min;
	int64		max;
} ColumnFigures;

struct PqOffsetSums
{
	int			naggs;
	int		   *column;			/* per aggregate: its ColumnFigures, or -1 */
	int64	   *offset;			/* the constant added */
	Oid		   *type;			/* the result type of column + constant */
	bool	   *answered;		/* per aggregate, for the current batch */
	int			ncolumns;
	ColumnFigures *columns;
};

static bool
int_type(Oid type)
{
	return type == INT2OID || type == INT4OID || type == INT8OID;
}

/*
 * Whether expr is an integer column, or one plus or minus a constant: its
 * column (Var) and the constant added.
 */
static bool
column_plus_constant(Expr *expr, Var **var, int64 *offset)
{
	Oid			funcid;
	List	   *args;
	const VOpInfo *op;
	Expr	   *x;
	Expr	   *y;

	if (IsA(expr, Var))
	{
		*var = (Var *) expr;
		*offset = 0;
		return int_type((*var)->vartype);
	}
	if (!int_type(exprType((Node *) expr)) ||
		!pqfdw_vexpr_call_of(expr, &funcid, &args) ||
		(op = pqfdw_vop_of(funcid)) == NULL ||
		(op->op != VOP_ADD && op->op != VOP_SUB))
		return false;
	x = linitial(args);
	y = lsecond(args);
	if (op->op == VOP_ADD && IsA(x, Const))
	{
		Expr	   *t = x;

		x = y;
		y = t;
	}
	if (!IsA(x, Var) || !int_type(((Var *) x)->vartype) ||
		!IsA(y, Const) || ((Const *) y)->constisnull ||
		!int_type(((Const *) y)->consttype))
		return false;
	*var = (Var *) x;
	*offset = pqfdw_vint_value(((Const *) y)->consttype,
							   ((Const *) y)->constvalue);
	/* x - PG_INT64_MIN has no negated constant: left row by row */
	if (op->op == VOP_SUB)
	{
		if (*offset == PG_INT64_MIN)
			return false;
		*offset = -*offset;
	}
	return true;
}

PqOffsetSums *
pqfdw_offset_sums_create(Aggref **aggs, int naggs, Index relid,
						 int batch_rows)
{
	PqOffsetSums *os = palloc0(sizeof(PqOffsetSums));
	AttrNumber *atts = palloc(sizeof(AttrNumber) * naggs);
	int			i;

	os->naggs = naggs;
	os->column = palloc(sizeof(int) * naggs);
	os->offset = palloc0(sizeof(int64) * naggs);
	os->type = palloc0(sizeof(Oid) * naggs);
	os->answered = palloc0(sizeof(bool) * naggs);
	os->columns = palloc0(sizeof(ColumnFigures) * naggs);
	for (i = 0; i < naggs; i++)
	{
		Aggref	   *agg = aggs[i];
		Expr	   *arg;
		Var		   *var;
		int			c;

		os->column[i] = -1;
		if (agg->aggstar || agg->aggfilter || agg->aggdistinct ||
			list_length(agg->args) != 1)
			continue;
		/* sum and avg of int2, int4 and int8 */
		switch (agg->aggfnoid)
		{
			case F_SUM_INT2:
			case F_SUM_INT4:
			case F_SUM_INT8:
			case F_AVG_INT2:
			case F_AVG_INT4:
			case F_AVG_INT8:
				break;
			default:
				continue;
		}
		arg = linitial_node(TargetEntry, agg->args)->expr;
		if (!column_plus_constant(arg, &var, &os->offset[i]))
			continue;
		os->type[i] = exprType((Node *) arg);
		for (c = 0; c < os->ncolumns; c++)
			if (atts[c] == var->varattno)
				break;
		if (c == os->ncolumns)
		{
			atts[c] = var->varattno;
			os->columns[c].var = pqfdw_vexpr_compile((Expr *) var, relid,
													 batch_rows);
			os->ncolumns++;
		}
		os->column[i] = c;
	}
	if (os->ncolumns == 0)
		return NULL;
	return os;
}

/* The sum, count and extremes of a column's non-NULL values. */
static void
figure_column(ColumnFigures *cf, const PqBatch *b, int n)
{
	const PqVector *v = pqfdw_vexpr_eval(cf->var, b, n, NULL);
	const int64 *x = v->i;
	const bool *nulls = v->nulls;
	int128		sum = 0;
	int64		count = 0;
	int64		lo = PG_INT64_MAX;
	int64		hi = PG_INT64_MIN;
	int			r;

	for (r = 0; r < n; r++)
	{
		int64		keep = (int64) nulls[r] - 1;	/* all ones unless NULL */
		int64		val = x[r] & keep;

		sum += val;
		count += !nulls[r];
		/* a NULL row (0 here) must not move the extremes: its own bounds */
		lo = Min(lo, nulls[r] ? lo : val);
		hi = Max(hi, nulls[r] ? hi : val);
	}
	cf->sum = sum;
	cf->count = count;
	cf->min = lo;
	cf->max = hi;
}

/* Whether v + offset stays within type for every v in [lo, hi]. */
static bool
in_range(Oid type, int64 lo, int64 hi, int64 offset)
{
	int128		a = (int128) lo + offset;
	int128		b = (int128) hi + offset;

	switch (type)
	{
		case INT2OID:
			return a >= PG_INT16_MIN && b <= PG_INT16_MAX;
		case INT4OID:
			return a >= PG_INT32_MIN && b <= PG_INT32_MAX;
		default:
			return a >= PG_INT64_MIN && b <= PG_INT64_MAX;
	}
}

const bool *
pqfdw_offset_sums_batch(PqOffsetSums *os, const PqBatch *b, int n)
{
	int			c;
	int			i;

	for (c = 0; c < os->ncolumns; c++)
		figure_column(&os->columns[c], b, n);
	for (i = 0; i < os->naggs; i++)
	{
		ColumnFigures *cf;

		os->answered[i] = false;
		if (os->column[i] < 0)
			continue;
		cf = &os->columns[os->column[i]];
		os->answered[i] = cf->count == 0 ||
			in_range(os->type[i], cf->min, cf->max, os->offset[i]);
	}
	return os->answered;
}

void
pqfdw_offset_sums_add(PqOffsetSums *os, int i, PqAccum *acc)
{
	ColumnFigures *cf = &os->columns[os->column[i]];

	Assert(os->answered[i]);
	pqfdw_accum_add_sum(acc, cf->sum + (int128) os->offset[i] * cf->count,
						cf->count);
}
