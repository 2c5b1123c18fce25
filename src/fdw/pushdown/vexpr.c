/*-------------------------------------------------------------------------
 *
 * vexpr.c
 *		Vector expressions: compiled from the plan's expressions and
 *		evaluated for a whole batch per node (columns, constants, AND/OR,
 *		CASE here; the other operators in vexpr_ops.c, what compiles in
 *		vexpr_support.c).
 *
 * PostgreSQL does not evaluate what AND/OR short-circuit past, nor the
 * CASE branches a row does not take.  Here a node is evaluated under a
 * skip mask: the rows it must not compute read their columns as NULL, so
 * every node but a constant is NULL there and no operator computes them.
 * AND, OR and CASE evaluate each child under their own mask, the outer one
 * plus the rows already decided (or taking another branch).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/pushdown/vexpr_node.h"
#include "nodes/nodeFuncs.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

Datum
pqfdw_unscaled_numeric(int128 v, int scale)
{
	char		digits[64];
	char text[	72];
	uint128		u = v < 0 ? -(uint128) v : (uint128) v;
	int			n = 0;
	int			pos = 0;

	/* numeric.c's own constructors where the value fits them */
	if (v >= PG_INT64_MIN && v <= PG_INT64_MAX && scale <= 18)
		return NumericGetDatum(scale == 0 ? int64_to_numeric((int64) v) :
							   int64_div_fast_to_numeric((int64) v, scale));
	/* the digits, least significant first, at least scale + 1 of them */
	do
	{
		digits[n++] = '0' + (int) (u % 10);
		u /= 10;
	} while (u != 0 || n <= scale);
	if (v < 0)
		text[		pos++] = '-';

	while (n > 0)
	{
		if (n == scale)
			text[		pos++] = '.';
		text[		pos++] = digits[--n];
	}
	text[		pos] = '\0';

	return DirectFunctionCall3(numeric_in, CStringGetDatum(text),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

static PqVExpr *
new_node(VOp op, Oid type, int batch_rows)
{
	PqVExpr    *e = palloc0(sizeof(PqVExpr));

	e->op = op;
	e->out.type = type;
	/* a call's result only another call takes: its Datums */
	if (!pqfdw_vkind_of(type, &e->out.kind) && op == VOP_FUNC)
		e->out.kind = PQV_DATUM;
	else if (!pqfdw_vkind_of(type, &e->out.kind))
		elog(ERROR, "type %u in a vector expression", type);
	if (e->out.kind == PQV_INT || e->out.kind == PQV_DECIMAL)
		e->out.i = palloc0(sizeof(int64) * batch_rows);
	else if (e->out.kind != PQV_DATUM)
		e->out.d = palloc0(sizeof(double) * batch_rows);
	else if (op != VOP_VAR)
	{
		e->pbuf = palloc0(sizeof(Datum) * batch_rows);
		e->out.p = e->pbuf;
	}
	if (op == VOP_VAR && e->out.kind == PQV_DECIMAL)
		e->wbuf = palloc(sizeof(int128) * batch_rows);
	e->nbuf = palloc0(sizeof(bool) * batch_rows);
	e->out.nulls = e->nbuf;
	return e;
}

PqVExpr *
pqfdw_vexpr_compile(Expr *expr, Index relid, int batch_rows)
{
	Oid			type = exprType((Node *) expr);
	Oid			funcid;
	List	   *args;
	PqVExpr    *e;

	if (IsA(expr, Var))
	{
		e = new_node(VOP_VAR, type, batch_rows);
		e->att = ((Var *) expr)->varattno - 1;
		return e;
	}
	if (IsA(expr, RelabelType))
	{
		e = pqfdw_vexpr_compile(((RelabelType *) expr)->arg, relid, batch_rows);
		e->out.type = type;
		return e;
	}
	if (IsA(expr, Const))
	{
		Const	   *c = (Const *) expr;
		int			i;

		e = new_node(VOP_CONST, type, batch_rows);
		e->const_null = c->constisnull;
		if (e->out.kind == PQV_DATUM)
		{
			/* the plan's Datum, for every row */
			for (i = 0; i < batch_rows; i++)
			{
				e->nbuf[i] = e->const_null;
				e->pbuf[i] = c->constvalue;
			}
			return e;
		}
		if (c->constisnull)
			;
		else if (e->out.kind == PQV_INT)
			e->const_i = pqfdw_vint_value(type, c->constvalue);
		else if (e->out.kind == PQV_DECIMAL)
		{
			/* decimal_bound() checked it */
			if (!pqfdw_numeric_const_unscaled(c->constvalue, &e->const_i,
											  &e->out.scale))
				elog(ERROR, "numeric constant out of range in a vector expression");
		}
		else if (type == FLOAT4OID)
			e->const_d = DatumGetFloat4(c->constvalue);
		else
			e->const_d = DatumGetFloat8(c->constvalue);
		/* a constant's vector is filled once */
		for (i = 0; i < batch_rows; i++)
		{
			e->nbuf[i] = e->const_null;
			if (pqfdw_vkind_integral(e->out.kind))
				e->out.i[i] = e->const_i;
			else
				e->out.d[i] = e->const_d;
		}
		return e;
	}
	if (IsA(expr, NullTest))
	{
		NullTest   *nt = (NullTest *) expr;

		e = new_node(nt->nulltesttype == IS_NULL ? VOP_ISNULL : VOP_ISNOTNULL,
					 type, batch_rows);
		e->a = pqfdw_vexpr_compile(nt->arg, relid, batch_rows);
		return e;
	}
	if (IsA(expr, BoolExpr))
	{
		BoolExpr   *be = (BoolExpr *) expr;
		ListCell   *lc;
		int			i = 0;

		if (be->boolop == NOT_EXPR)
		{
			e = new_node(VOP_NOT, type, batch_rows);
			e->a = pqfdw_vexpr_compile(linitial(be->args), relid, batch_rows);
			return e;
		}
		e = new_node(be->boolop == AND_EXPR ? VOP_AND : VOP_OR, type,
					 batch_rows);
		e->nargs = list_length(be->args);
		e->args = palloc(sizeof(PqVExpr *) * e->nargs);
		foreach(lc, be->args)
			e->args[i++] = pqfdw_vexpr_compile(lfirst(lc), relid, batch_rows);
		e->sk = palloc(sizeof(bool) * batch_rows);
		return e;
	}
	if (IsA(expr, CaseExpr))
	{
		CaseExpr   *c = (CaseExpr *) expr;
		ListCell   *lc;
		int			i = 0;

		if (c->arg != NULL)
			return pqfdw_vexpr_compile(pqfdw_vexpr_searched_case(c), relid, batch_rows);
		e = new_node(VOP_CASE, type, batch_rows);
		e->nargs = 2 * list_length(c->args) + 1;
		e->args = palloc(sizeof(PqVExpr *) * e->nargs);
		foreach(lc, c->args)
		{
			CaseWhen   *w = lfirst_node(CaseWhen, lc);

			e->args[i++] = pqfdw_vexpr_compile(w->expr, relid, batch_rows);
			e->args[i++] = pqfdw_vexpr_compile(w->result, relid, batch_rows);
		}
		e->args[i] = pqfdw_vexpr_compile(c->defresult, relid, batch_rows);
		e->sk = palloc(sizeof(bool) * batch_rows);
		e->branch = palloc(sizeof(int) * batch_rows);
		return e;
	}
	if (!pqfdw_vexpr_is_vop(expr))
	{
		ListCell   *lc;

		if (!pqfdw_vexpr_func_of(expr, &funcid, &args))
			elog(ERROR, "unsupported node %d in a vector expression",
				 (int) nodeTag(expr));
		e = new_node(VOP_FUNC, type, batch_rows);
		e->args = palloc(sizeof(PqVExpr *) * list_length(args));
		foreach(lc, args)
			if (!IsA(lfirst(lc), Const))
			e->args[e->nargs++] = pqfdw_vexpr_compile(lfirst(lc), relid,
													  batch_rows);
		pqfdw_vexpr_func_setup(e, expr, funcid, args);
		return e;
	}
	(void) pqfdw_vexpr_call_of(expr, &funcid, &args);
	e = new_node(pqfdw_vop_of(funcid)->op, type, batch_rows);
	e->cmp = pqfdw_vop_of(funcid)->cmp;
	e->collid = exprInputCollation((Node *) expr);
	e->a = pqfdw_vexpr_compile(linitial(args), relid, batch_rows);
	if (list_length(args) > 1)
		e->b = pqfdw_vexpr_compile(lsecond(args), relid, batch_rows);
	if (e->op == VOP_CMP && e->a->out.kind == PQV_DECIMAL)
	{
		e->sa = palloc(sizeof(int64) * batch_rows);
		e->sb = palloc(sizeof(int64) * batch_rows);
	}
	return e;
}

/* The column under a chain of one-argument calls, else NULL. */
static PqVExpr *
call_chain_var(PqVExpr *e)
{
	while (e->op == VOP_FUNC && e->nargs == 1)
		e = e->args[0];
	return e->op == VOP_VAR ? e : NULL;
}

Bitmapset *
pqfdw_vexpr_coded_inputs(PqVExpr *e, Bitmapset *atts)
{
	int			j;

	if (e->op == VOP_FUNC && call_chain_var(e) != NULL)
		return bms_add_member(atts, call_chain_var(e)->att + 1);
	if (e->a)
		atts = pqfdw_vexpr_coded_inputs(e->a, atts);
	if (e->b)
		atts = pqfdw_vexpr_coded_inputs(e->b, atts);
	for (j = 0; j < e->nargs; j++)
		atts = pqfdw_vexpr_coded_inputs(e->args[j], atts);
	return atts;
}

/*
 * A column's values from the batch: NULL rows hold 0.  Rows of skip are
 * NULL too, so that every strict operator above leaves them alone.
 */
static void
eval_var(PqVExpr *e, const PqBatch *b, int n, const bool *skip)
{
	const Datum *v = b->values + pqfdw_batch_index(b, e->att, 0);
	const bool *nulls = b->nulls + pqfdw_batch_index(b, e->att, 0);

	/* not e->out's fields in the loops: the compiler would reload them */
	int64	   *restrict oi = e->out.i;
	double	   *restrict od = e->out.d;
	int			r;

	e->out.codes = NULL;
	e->var_codes = b->codes[e->att] && b->codes[e->att]->dict_id != 0 ?
		b->codes[e->att] : NULL;
	if (skip)
	{
		for (r = 0; r < n; r++)
			e->nbuf[r] = nulls[r] || skip[r];
		nulls = e->nbuf;
	}
	else if (b->codes[e->att] && b->codes[e->att]->dict_id != 0)
		e->out.codes = b->codes[e->att];
	e->out.nulls = nulls;
	switch (e->out.type)
	{
		case NUMERICOID:
			/* read unscaled: the converter knows the scale */
			e->out.scale = b->converters[e->att]->decimal_scale;
			e->out.w = NULL;
			if (b->converters[e->att]->unscaled_wide)
			{
				/* Datums point to int128 values */
				for (r = 0; r < n; r++)
					e->wbuf[r] = nulls[r] ? 0 :
						*(const int128 *) DatumGetPointer(v[r]);
				e->out.w = e->wbuf;
			}
			else
				for (r = 0; r < n; r++)
					oi[r] = nulls[r] ? 0 : DatumGetInt64(v[r]);
			break;
		case INT8OID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			for (r = 0; r < n; r++)
				oi[r] = nulls[r] ? 0 : DatumGetInt64(v[r]);
			break;
		case INT4OID:
		case DATEOID:
			for (r = 0; r < n; r++)
				oi[r] = nulls[r] ? 0 : DatumGetInt32(v[r]);
			break;
		case INT2OID:
			for (r = 0; r < n; r++)
				oi[r] = nulls[r] ? 0 : DatumGetInt16(v[r]);
			break;
		case BOOLOID:
			for (r = 0; r < n; r++)
				oi[r] = nulls[r] ? 0 : DatumGetBool(v[r]);
			break;
		case FLOAT4OID:
			for (r = 0; r < n; r++)
				od[r] = nulls[r] ? 0 : DatumGetFloat4(v[r]);
			break;
		case FLOAT8OID:
			for (r = 0; r < n; r++)
				od[r] = nulls[r] ? 0 : DatumGetFloat8(v[r]);
			break;
		default:
			e->out.p = v;
			break;
	}
}

static void eval_node(PqVExpr *e, const PqBatch *b, int n,
					  const bool *skip);

/*
 * AND (OR): its operands in order, each only on the rows that no earlier
 * operand has made false (true), as ExecInterpExpr's BOOL_AND_STEP; then
 * false (true) if one was, else NULL if one was NULL, else true (false).
 */
static void
eval_and_or(PqVExpr *e, const PqBatch *b, int n, const bool *skip)
{
	int64		undecided = e->op == VOP_AND;
	int64	   *restrict out = e->out.i;
	bool	   *restrict sk = e->sk;
	int			r;
	int			j;

	for (r = 0; r < n; r++)
	{
		sk[r] = skip && skip[r];
		e->nbuf[r] = sk[r];
		out[r] = undecided;
	}
	for (j = 0; j < e->nargs; j++)
	{
		const PqVector *v = &e->args[j]->out;

		eval_node(e->args[j], b, n, sk);
		for (r = 0; r < n; r++)
		{
			if (sk[r])
				continue;
			if (v->nulls[r])
				e->nbuf[r] = true;
			else if ((v->i[r] != 0) != undecided)
			{
				out[r] = !undecided;
				e->nbuf[r] = false;
				sk[r] = true;
			}
		}
	}
}

/*
 * CASE WHEN c1 THEN v1 ... ELSE d END: each condition on the rows no
 * earlier one took (true, not NULL), then each branch only on its rows.
 */
static void
eval_case(PqVExpr *e, const PqBatch *b, int n, const bool *skip)
{
	int			nwhen = e->nargs / 2;
	int		   *restrict branch = e->branch;
	bool	   *restrict sk = e->sk;
	PqVKind		kind = e->out.kind;
	int			r;
	int			j;

	for (r = 0; r < n; r++)
	{
		sk[r] = skip && skip[r];
		branch[r] = sk[r] ? -1 : nwhen;
		e->nbuf[r] = true;
	}
	for (j = 0; j < nwhen; j++)
	{
		const PqVector *c = &e->args[2 * j]->out;

		eval_node(e->args[2 * j], b, n, sk);
		for (r = 0; r < n; r++)
			if (!sk[r] && !c->nulls[r] && c->i[r] != 0)
			{
				branch[r] = j;
				sk[r] = true;
			}
	}
	for (j = 0; j <= nwhen; j++)
	{
		PqVExpr    *res = e->args[j < nwhen ? 2 * j + 1 : 2 * nwhen];
		bool		taken = false;

		for (r = 0; r < n; r++)
		{
			sk[r] = branch[r] != j;
			taken |= !sk[r];
		}
		if (!taken)
			continue;
		eval_node(res, b, n, sk);
		for (r = 0; r < n; r++)
		{
			if (sk[r])
				continue;
			e->nbuf[r] = res->out.nulls[r];
			if (pqfdw_vkind_integral(kind))
				e->out.i[r] = res->out.i[r];
			else if (kind == PQV_DATUM)
				e->pbuf[r] = res->out.p[r];
			else
				e->out.d[r] = res->out.d[r];
		}
	}
}

static void
eval_node(PqVExpr *e, const PqBatch *b, int n, const bool *skip)
{
	if (e->op == VOP_VAR)
	{
		eval_var(e, b, n, skip);
		return;
	}
	if (e->op == VOP_CONST)
		return;
	if (e->op == VOP_AND || e->op == VOP_OR)
	{
		eval_and_or(e, b, n, skip);
		return;
	}
	if (e->op == VOP_CASE)
	{
		eval_case(e, b, n, skip);
		return;
	}
	if (e->op == VOP_FUNC)
	{
		int			j;

		for (j = 0; j < e->nargs; j++)
			eval_node(e->args[j], b, n, skip);
		pqfdw_vexpr_func_apply(e, n, skip);
		return;
	}
	eval_node(e->a, b, n, skip);
	if (e->b)
		eval_node(e->b, b, n, skip);
	pqfdw_vexpr_apply(e, n, skip);
}

const PqVector *
pqfdw_vexpr_eval(PqVExpr *e, const PqBatch *b, int n, const bool *skip)
{
	eval_node(e, b, n, skip);
	return &e->out;
}
