/*-------------------------------------------------------------------------
 *
 * vexpr.c
 *		Vector expressions: columns, constants, integer and float arithmetic
 *		and casts, comparisons, AND/OR/NOT and CASE, evaluated for a whole
 *		batch per node.
 *
 * Every operator repeats its PostgreSQL function's semantics: integers are
 * computed in 64 bits and checked against the result type's range
 * ("integer out of range"), division and modulo check for a zero divisor
 * first, floats go through utils/float.h's checked operators.  Rows whose
 * operand is NULL are not computed at all, so that a NULL row's leftover
 * value can never raise an error PostgreSQL would not.
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
#include "common/int.h"
#include "fdw/aggregate/vexpr.h"
#include "nodes/nodeFuncs.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/varlena.h"

typedef enum VOp
{
	VOP_VAR,
	VOP_CONST,
	VOP_ADD,
	VOP_SUB,
	VOP_MUL,
	VOP_DIV,
	VOP_MOD,
	VOP_NEG,
	VOP_CAST,
	VOP_CMP,					/* comparison: a bool */
	VOP_ISNULL,
	VOP_ISNOTNULL,
	VOP_AND,					/* args: the operands, in order */
	VOP_OR,
	VOP_NOT,
	VOP_CASE					/* args: WHEN, THEN pairs, then ELSE */
} VOp;

typedef enum VCmp
{
	VCMP_EQ,
	VCMP_NE,
	VCMP_LT,
	VCMP_LE,
	VCMP_GT,
	VCMP_GE
} VCmp;

struct PqVExpr
{
	VOp			op;
	VCmp		cmp;			/* VOP_CMP */
	PqVector	out;
	int			att;			/* VOP_VAR: 0-based attribute */
	PqVExpr    *a;
	PqVExpr    *b;
	PqVExpr   **args;			/* VOP_AND, VOP_OR, VOP_CASE */
	int			nargs;
	bool	   *sk;				/* VOP_AND, VOP_OR, VOP_CASE: the children's
								 * skip mask */
	int		   *branch;			/* VOP_CASE: per row, the branch it takes
								 * (nargs / 2 for ELSE), -1 if skipped */
	bool	   *nbuf;			/* nulls of computed nodes and masked columns */
	Datum	   *pbuf;			/* PQV_DATUM values of constants and CASE */
	Oid			collid;			/* VOP_CMP of text */
	bool		const_null;
	int64		const_i;
	double		const_d;
};

/* Operators by function: what they compute (their types are the Expr's). */
typedef struct VOpInfo
{
	Oid			funcid;
	VOp			op;
	VCmp		cmp;
} VOpInfo;

/* the six comparisons of one family of operator functions */
#define CMPS(p) \
	{F_##p##EQ, VOP_CMP, VCMP_EQ}, {F_##p##NE, VOP_CMP, VCMP_NE}, \
	{F_##p##LT, VOP_CMP, VCMP_LT}, {F_##p##LE, VOP_CMP, VCMP_LE}, \
	{F_##p##GT, VOP_CMP, VCMP_GT}, {F_##p##GE, VOP_CMP, VCMP_GE}

static const VOpInfo vops[] = {
	{F_INT2PL, VOP_ADD}, {F_INT4PL, VOP_ADD}, {F_INT8PL, VOP_ADD},
	{F_INT24PL, VOP_ADD}, {F_INT42PL, VOP_ADD}, {F_INT48PL, VOP_ADD},
	{F_INT84PL, VOP_ADD}, {F_INT28PL, VOP_ADD}, {F_INT82PL, VOP_ADD},
	{F_INT2MI, VOP_SUB}, {F_INT4MI, VOP_SUB}, {F_INT8MI, VOP_SUB},
	{F_INT24MI, VOP_SUB}, {F_INT42MI, VOP_SUB}, {F_INT48MI, VOP_SUB},
	{F_INT84MI, VOP_SUB}, {F_INT28MI, VOP_SUB}, {F_INT82MI, VOP_SUB},
	{F_INT2MUL, VOP_MUL}, {F_INT4MUL, VOP_MUL}, {F_INT8MUL, VOP_MUL},
	{F_INT24MUL, VOP_MUL}, {F_INT42MUL, VOP_MUL}, {F_INT48MUL, VOP_MUL},
	{F_INT84MUL, VOP_MUL}, {F_INT28MUL, VOP_MUL}, {F_INT82MUL, VOP_MUL},
	{F_INT2DIV, VOP_DIV}, {F_INT4DIV, VOP_DIV}, {F_INT8DIV, VOP_DIV},
	{F_INT24DIV, VOP_DIV}, {F_INT42DIV, VOP_DIV}, {F_INT48DIV, VOP_DIV},
	{F_INT84DIV, VOP_DIV}, {F_INT28DIV, VOP_DIV}, {F_INT82DIV, VOP_DIV},
	{F_INT2MOD, VOP_MOD}, {F_INT4MOD, VOP_MOD}, {F_INT8MOD, VOP_MOD},
	{F_INT2UM, VOP_NEG}, {F_INT4UM, VOP_NEG}, {F_INT8UM, VOP_NEG},
	{F_FLOAT4PL, VOP_ADD}, {F_FLOAT8PL, VOP_ADD}, {F_FLOAT48PL, VOP_ADD},
	{F_FLOAT84PL, VOP_ADD},
	{F_FLOAT4MI, VOP_SUB}, {F_FLOAT8MI, VOP_SUB}, {F_FLOAT48MI, VOP_SUB},
	{F_FLOAT84MI, VOP_SUB},
	{F_FLOAT4MUL, VOP_MUL}, {F_FLOAT8MUL, VOP_MUL}, {F_FLOAT48MUL, VOP_MUL},
	{F_FLOAT84MUL, VOP_MUL},
	{F_FLOAT4DIV, VOP_DIV}, {F_FLOAT8DIV, VOP_DIV}, {F_FLOAT48DIV, VOP_DIV},
	{F_FLOAT84DIV, VOP_DIV},
	{F_FLOAT4UM, VOP_NEG}, {F_FLOAT8UM, VOP_NEG},
	/* casts between integers and to floats */
	{F_INT8_INT4, VOP_CAST}, {F_INT8_INT2, VOP_CAST}, {F_INT4_INT2, VOP_CAST},
	{F_INT4_INT8, VOP_CAST}, {F_INT2_INT4, VOP_CAST},
	{F_FLOAT8_INT2, VOP_CAST}, {F_FLOAT8_INT4, VOP_CAST},
	{F_FLOAT8_INT8, VOP_CAST}, {F_FLOAT8_FLOAT4, VOP_CAST},
	{F_FLOAT4_INT2, VOP_CAST}, {F_FLOAT4_INT4, VOP_CAST},
	{F_FLOAT4_INT8, VOP_CAST},
	/* comparisons of numbers, dates, times, bools and text */
	CMPS(INT2), CMPS(INT4), CMPS(INT8), CMPS(INT24), CMPS(INT42),
	CMPS(INT48), CMPS(INT84), CMPS(INT28), CMPS(INT82),
	CMPS(FLOAT4), CMPS(FLOAT8), CMPS(FLOAT48), CMPS(FLOAT84),
	CMPS(DATE_), CMPS(TIMESTAMP_), CMPS(TIMESTAMPTZ_), CMPS(TIME_), CMPS(BOOL),
	{F_TEXTEQ, VOP_CMP, VCMP_EQ}, {F_TEXTNE, VOP_CMP, VCMP_NE},
	{F_TEXT_LT, VOP_CMP, VCMP_LT}, {F_TEXT_LE, VOP_CMP, VCMP_LE},
	{F_TEXT_GT, VOP_CMP, VCMP_GT}, {F_TEXT_GE, VOP_CMP, VCMP_GE},
};

bool
pqfdw_vkind_of(Oid type, PqVKind *kind)
{
	switch (type)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case DATEOID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case BOOLOID:
			*kind = PQV_INT;
			return true;
		case FLOAT4OID:
			*kind = PQV_FLOAT4;
			return true;
		case FLOAT8OID:
			*kind = PQV_FLOAT8;
			return true;
		case TEXTOID:
		case VARCHAROID:
			*kind = PQV_DATUM;
			return true;
		case NUMERICOID:
			*kind = PQV_DECIMAL;
			return true;
	}
	return false;
}

Datum
pqfdw_unscaled_numeric(int128 v, int scale)
{
	char		digits[64];
	char		text[72];
	uint128		u = v < 0 ? -(uint128) v : (uint128) v;
	int			n = 0;
	int			pos = 0;

	/* the digits, least significant first, at least scale + 1 of them */
	do
	{
		digits[n++] = '0' + (int) (u % 10);
		u /= 10;
	} while (u != 0 || n <= scale);
	if (v < 0)
		text[pos++] = '-';
	while (n > 0)
	{
		if (n == scale)
			text[pos++] = '.';
		text[pos++] = digits[--n];
	}
	text[pos] = '\0';
	return DirectFunctionCall3(numeric_in, CStringGetDatum(text),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

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

/* The operator a function computes, NULL for others. */
static const VOpInfo *
op_of(Oid funcid)
{
	int			i;

	for (i = 0; i < lengthof(vops); i++)
		if (vops[i].funcid == funcid)
			return &vops[i];
	return NULL;
}

/* The value of a Const of a PQV_INT type. */
static int64
const_int(Oid type, Datum d)
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

/* The function and arguments of an operator or cast node, else false. */
static bool
call_of(Expr *expr, Oid *funcid, List **args)
{
	if (IsA(expr, OpExpr))
	{
		*funcid = ((OpExpr *) expr)->opfuncid;
		*args = ((OpExpr *) expr)->args;
		return true;
	}
	if (IsA(expr, FuncExpr) && ((FuncExpr *) expr)->funcformat != COERCE_EXPLICIT_CALL)
	{
		*funcid = ((FuncExpr *) expr)->funcid;
		*args = ((FuncExpr *) expr)->args;
		return true;
	}
	return false;
}

static Expr *searched_case(CaseExpr *c);

/*
 * A comparison of text: equality is of bytes only under a deterministic
 * collation (as texteq decides); orderings compare with varstr_cmp under
 * any collation, as text_lt and the others do.
 */
static bool
text_cmp_ok(Expr *expr, Oid funcid)
{
	Oid			collid = exprInputCollation((Node *) expr);

	if (op_of(funcid)->op != VOP_CMP || !OidIsValid(collid))
		return false;
	return (funcid != F_TEXTEQ && funcid != F_TEXTNE) ||
		get_collation_isdeterministic(collid);
}

/*
 * A WHEN condition of a simple CASE with the CaseTestExpr placeholders of
 * its CASE replaced by arg; nested simple CASEs become searched first, so
 * that the placeholders left are this CASE's.
 */
static Node *
replace_case_test(Node *node, void *arg)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, CaseTestExpr))
		return copyObject(arg);
	/* its placeholder is its own element, not a CASE's (never compiled) */
	if (IsA(node, ArrayCoerceExpr))
		return node;
	if (IsA(node, CaseExpr) && ((CaseExpr *) node)->arg != NULL)
		node = (Node *) searched_case((CaseExpr *) node);
	return expression_tree_mutator(node, replace_case_test, arg);
}

/*
 * CASE x WHEN v THEN ... as CASE WHEN x = v THEN ...: x is evaluated by
 * each WHEN instead of once, for the same rows (the first WHEN sees every
 * row the CASE does), so the same values and the same errors.
 */
static Expr *
searched_case(CaseExpr *c)
{
	CaseExpr   *s = makeNode(CaseExpr);
	ListCell   *lc;

	*s = *c;
	s->arg = NULL;
	s->args = NIL;
	foreach(lc, c->args)
	{
		CaseWhen   *w = copyObject(lfirst_node(CaseWhen, lc));

		w->expr = (Expr *) replace_case_test((Node *) w->expr, c->arg);
		s->args = lappend(s->args, w);
	}
	return (Expr *) s;
}

/* The WHEN conditions and results of a searched CASE are supported. */
static bool
case_supported(CaseExpr *c, Index relid, const Bitmapset *unscaled)
{
	ListCell   *lc;

	foreach(lc, c->args)
	{
		CaseWhen   *w = lfirst_node(CaseWhen, lc);

		if (exprType((Node *) w->expr) != BOOLOID ||
			exprType((Node *) w->result) != c->casetype ||
			!pqfdw_vexpr_supported(w->expr, relid, unscaled) ||
			!pqfdw_vexpr_supported(w->result, relid, unscaled))
			return false;
	}
	return c->defresult != NULL &&
		exprType((Node *) c->defresult) == c->casetype &&
		pqfdw_vexpr_supported(c->defresult, relid, unscaled);
}

bool
pqfdw_vexpr_supported(Expr *expr, Index relid, const Bitmapset *unscaled)
{
	PqVKind		kind;
	Oid			funcid;
	List	   *args;
	ListCell   *lc;

	if (!pqfdw_vkind_of(exprType((Node *) expr), &kind))
		return false;
	if (IsA(expr, Var))
	{
		Var		   *var = (Var *) expr;

		return var->varno == relid && var->varlevelsup == 0 &&
			var->varattno > 0 &&
			(kind != PQV_DECIMAL || bms_is_member(var->varattno, unscaled));
	}
	if (IsA(expr, CaseExpr))
	{
		CaseExpr   *c = (CaseExpr *) expr;

		if (c->arg != NULL)
			return pqfdw_vexpr_supported(searched_case(c), relid, unscaled);
		return kind != PQV_DECIMAL && case_supported(c, relid, unscaled);
	}
	/* text: a column, a varchar column seen as text, a constant, a CASE */
	if (kind == PQV_DATUM)
		return IsA(expr, Const) ||
			(IsA(expr, RelabelType) &&
			 pqfdw_vexpr_supported(((RelabelType *) expr)->arg, relid,
								   unscaled));
	if (kind == PQV_DECIMAL)
		return false;
	if (IsA(expr, Const))
		return true;
	if (IsA(expr, NullTest))
	{
		NullTest   *nt = (NullTest *) expr;

		return !nt->argisrow && pqfdw_vexpr_supported(nt->arg, relid, unscaled);
	}
	if (IsA(expr, BoolExpr))
	{
		foreach(lc, ((BoolExpr *) expr)->args)
			if (exprType(lfirst(lc)) != BOOLOID ||
				!pqfdw_vexpr_supported(lfirst(lc), relid, unscaled))
				return false;
		return true;
	}
	if (!call_of(expr, &funcid, &args) || op_of(funcid) == NULL)
		return false;
	foreach(lc, args)
	{
		PqVKind		arg_kind;

		if (!pqfdw_vkind_of(exprType(lfirst(lc)), &arg_kind) ||
			arg_kind == PQV_DECIMAL ||
			(arg_kind == PQV_DATUM && !text_cmp_ok(expr, funcid)) ||
			!pqfdw_vexpr_supported(lfirst(lc), relid, unscaled))
			return false;
	}
	return true;
}

static PqVExpr *
new_node(VOp op, Oid type, int batch_rows)
{
	PqVExpr    *e = palloc0(sizeof(PqVExpr));

	e->op = op;
	e->out.type = type;
	if (!pqfdw_vkind_of(type, &e->out.kind))
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
			e->const_i = const_int(type, c->constvalue);
		else if (type == FLOAT4OID)
			e->const_d = DatumGetFloat4(c->constvalue);
		else
			e->const_d = DatumGetFloat8(c->constvalue);
		/* a constant's vector is filled once */
		for (i = 0; i < batch_rows; i++)
		{
			e->nbuf[i] = e->const_null;
			if (e->out.kind == PQV_INT)
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
			return pqfdw_vexpr_compile(searched_case(c), relid, batch_rows);
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
	if (!call_of(expr, &funcid, &args) || op_of(funcid) == NULL)
		elog(ERROR, "unsupported node %d in a vector expression",
			 (int) nodeTag(expr));
	e = new_node(op_of(funcid)->op, type, batch_rows);
	e->cmp = op_of(funcid)->cmp;
	e->collid = exprInputCollation((Node *) expr);
	e->a = pqfdw_vexpr_compile(linitial(args), relid, batch_rows);
	if (list_length(args) > 1)
		e->b = pqfdw_vexpr_compile(lsecond(args), relid, batch_rows);
	return e;
}

/*
 * A column's values from the batch: NULL rows hold 0.  Rows of skip are
 * NULL too, so that every strict operator above leaves them alone.
 */
static void
eval_var(PqVExpr *e, PqTableReader *tr, int n, const bool *skip)
{
	const Datum *v = tr->batch_values + pqfdw_batch_index(tr, e->att, 0);
	const bool *nulls = tr->batch_nulls + pqfdw_batch_index(tr, e->att, 0);
	int			r;

	e->out.codes = NULL;
	if (skip)
	{
		for (r = 0; r < n; r++)
			e->nbuf[r] = nulls[r] || skip[r];
		nulls = e->nbuf;
	}
	else if (tr->att_codes[e->att] && tr->att_codes[e->att]->dict_id != 0)
		e->out.codes = tr->att_codes[e->att];
	e->out.nulls = nulls;
	switch (e->out.type)
	{
		case NUMERICOID:
			/* read unscaled: int8 Datums, the converter knows the scale */
			e->out.scale = tr->att_cv[e->att]->decimal_scale;
			for (r = 0; r < n; r++)
				e->out.i[r] = nulls[r] ? 0 : DatumGetInt64(v[r]);
			break;
		case INT8OID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			for (r = 0; r < n; r++)
				e->out.i[r] = nulls[r] ? 0 : DatumGetInt64(v[r]);
			break;
		case INT4OID:
		case DATEOID:
			for (r = 0; r < n; r++)
				e->out.i[r] = nulls[r] ? 0 : DatumGetInt32(v[r]);
			break;
		case INT2OID:
			for (r = 0; r < n; r++)
				e->out.i[r] = nulls[r] ? 0 : DatumGetInt16(v[r]);
			break;
		case BOOLOID:
			for (r = 0; r < n; r++)
				e->out.i[r] = nulls[r] ? 0 : DatumGetBool(v[r]);
			break;
		case FLOAT4OID:
			for (r = 0; r < n; r++)
				e->out.d[r] = nulls[r] ? 0 : DatumGetFloat4(v[r]);
			break;
		case FLOAT8OID:
			for (r = 0; r < n; r++)
				e->out.d[r] = nulls[r] ? 0 : DatumGetFloat8(v[r]);
			break;
		default:
			e->out.p = v;
			break;
	}
}

static pg_attribute_noreturn() void
int_range_error(Oid type)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("%s out of range",
					type == INT2OID ? "smallint" :
					type == INT4OID ? "integer" : "bigint")));
}

static pg_attribute_noreturn() void
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
static void
eval_cast(PqVExpr *e, int n)
{
	const PqVector *a = &e->a->out;
	int			r;

	for (r = 0; r < n; r++)
	{
		e->nbuf[r] = a->nulls[r];
		if (a->nulls[r])
			continue;
		if (e->out.kind == PQV_INT)
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

	if (a->kind == PQV_INT)
	{
		const int64 *X = a->i;
		const int64 *Y = b->i;

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

static void eval_node(PqVExpr *e, PqTableReader *tr, int n,
					  const bool *skip);

/*
 * AND (OR): its operands in order, each only on the rows that no earlier
 * operand has made false (true), as ExecInterpExpr's BOOL_AND_STEP; then
 * false (true) if one was, else NULL if one was NULL, else true (false).
 */
static void
eval_and_or(PqVExpr *e, PqTableReader *tr, int n, const bool *skip)
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

		eval_node(e->args[j], tr, n, sk);
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
eval_case(PqVExpr *e, PqTableReader *tr, int n, const bool *skip)
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

		eval_node(e->args[2 * j], tr, n, sk);
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
		eval_node(res, tr, n, sk);
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
eval_node(PqVExpr *e, PqTableReader *tr, int n, const bool *skip)
{
	const PqVector *a;
	const PqVector *b;
	bool		f4 = e->out.kind == PQV_FLOAT4;
	int			r;

	if (e->op == VOP_VAR)
	{
		eval_var(e, tr, n, skip);
		return;
	}
	if (e->op == VOP_CONST)
		return;
	if (e->op == VOP_AND || e->op == VOP_OR)
	{
		eval_and_or(e, tr, n, skip);
		return;
	}
	if (e->op == VOP_CASE)
	{
		eval_case(e, tr, n, skip);
		return;
	}
	eval_node(e->a, tr, n, skip);
	if (e->b)
		eval_node(e->b, tr, n, skip);
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
			if (e->out.kind == PQV_INT)
			{
				if (a->i[r] == PG_INT64_MIN)
					int_range_error(e->out.type);
				e->out.i[r] = int_result(e->out.type, -a->i[r]);
			}
			else
				e->out.d[r] = -a->d[r];
		}
		return;
	}
	b = &e->b->out;
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

const PqVector *
pqfdw_vexpr_eval(PqVExpr *e, PqTableReader *tr, int n, const bool *skip)
{
	eval_node(e, tr, n, skip);
	return &e->out;
}
