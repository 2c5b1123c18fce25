/*-------------------------------------------------------------------------
 *
 * vexpr_support.c
 *		Which expressions compile to vector expressions (the planner asks
 *		before it pushes an aggregate or a key into the scan): the
 *		operators by function, simple CASE as searched CASE, text
 *		comparisons by collation, and the bounds that keep numeric
 *		arithmetic exact in 64 bits.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "fdw/pushdown/vexpr_node.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"

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
	/* numeric: exact + - * (decimal_bound() keeps them in 64 bits) */
	{F_NUMERIC_ADD, VOP_ADD}, {F_NUMERIC_SUB, VOP_SUB},
	{F_NUMERIC_MUL, VOP_MUL}, {F_NUMERIC_UMINUS, VOP_NEG},
	{F_NUMERIC_INT2, VOP_CAST}, {F_NUMERIC_INT4, VOP_CAST},
	{F_NUMERIC_INT8, VOP_CAST}, {F_FLOAT8_NUMERIC, VOP_CAST},
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
	CMPS(NUMERIC_),
	{F_TEXTEQ, VOP_CMP, VCMP_EQ}, {F_TEXTNE, VOP_CMP, VCMP_NE},
	{F_TEXT_LT, VOP_CMP, VCMP_LT}, {F_TEXT_LE, VOP_CMP, VCMP_LE},
	{F_TEXT_GT, VOP_CMP, VCMP_GT}, {F_TEXT_GE, VOP_CMP, VCMP_GE},
};

/* The operator a function computes, NULL for others. */
const VOpInfo *
pqfdw_vop_of(Oid funcid)
{
	int			i;

	for (i = 0; i < lengthof(vops); i++)
		if (vops[i].funcid == funcid)
			return &vops[i];
	return NULL;
}

/* The function and arguments of an operator or cast node, else false. */
bool
pqfdw_vexpr_call_of(Expr *expr, Oid *funcid, List **args)
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

/*
 * A numeric constant's unscaled value and display scale (numeric_out
 * prints that many fraction digits); false for NaN, infinities and values
 * whose unscaled integer passes 64 bits.
 */
bool
pqfdw_numeric_const_unscaled(Datum d, int64 *v, int *scale)
{
	char	   *str = DatumGetCString(DirectFunctionCall1(numeric_out, d));
	int128		acc = 0;
	bool		neg = false;
	int			sc = -1;
	char	   *p;

	for (p = str; *p; p++)
	{
		if (*p == '-')
			neg = true;
		else if (*p == '.')
			sc = 0;
		else if (*p >= '0' && *p <= '9')
		{
			acc = acc * 10 + (*p - '0');
			if (acc > PG_INT64_MAX)
				return false;
			if (sc >= 0)
				sc++;
		}
		else
			return false;
	}
	*v = neg ? -(int64) acc : (int64) acc;
	*scale = Max(sc, 0);
	return true;
}

/*
 * Bring two bounds of unscaled values to their common scale (the larger);
 * false when one then passes 64 bits.
 */
static bool
align_bounds(int128 *ba, int sa, int128 *bb, int sb, int *s)
{
	*s = Max(sa, sb);
	if (*s - sa > 18 || *s - sb > 18)
		return false;
	*ba *= (int64) pqfdw_pow10[*s - sa];
	*bb *= (int64) pqfdw_pow10[*s - sb];
	return *ba <= PG_INT64_MAX && *bb <= PG_INT64_MAX;
}

static bool func_args_ok(List *args, Index relid, const PqVexprNumerics *num);

/*
 * extract(field FROM timestamp, date or time) of a field whose values are
 * integers: numerics of display scale 0 (int64_to_numeric), below 10^8
 * (microseconds of a minute are the largest), and NULL rather than
 * infinite for infinite inputs (unlike year or epoch).  A vector holds
 * them unscaled, as integers.
 */
static bool
integral_extract(Expr *expr, Index relid, const PqVexprNumerics *num)
{
	static const char *const fields[] = {"microseconds", "minute", "hour",
	"day", "month", "quarter", "week", "dow", "isodow", "doy"};
	FuncExpr   *fe = (FuncExpr *) expr;
	Const	   *field;
	char	   *name;
	int			i;

	if (!IsA(expr, FuncExpr) ||
		(fe->funcid != F_EXTRACT_TEXT_TIMESTAMP &&
		 fe->funcid != F_EXTRACT_TEXT_DATE &&
		 fe->funcid != F_EXTRACT_TEXT_TIME) ||
		!IsA(linitial(fe->args), Const) ||
		((Const *) linitial(fe->args))->constisnull ||
		!func_args_ok(fe->args, relid, num))
		return false;
	field = linitial(fe->args);
	name = asc_tolower(TextDatumGetCString(field->constvalue),
					   VARSIZE_ANY_EXHDR(DatumGetPointer(field->constvalue)));
	for (i = 0; i < lengthof(fields); i++)
		if (strcmp(name, fields[i]) == 0)
			return true;
	return false;
}

/*
 * A bound on the magnitude of a numeric expression's unscaled values and
 * its display scale (the one of all its values: + and - take the larger
 * of their operands', * their sum, as numeric.c's add_var and mul_var);
 * false when it is not supported or may pass 64 bits.
 */
static bool
decimal_bound(Expr *expr, Index relid, const PqVexprNumerics *num,
			  int128 *bound, int *scale)
{
	Oid			funcid;
	List	   *args;
	const VOpInfo *op;
	int128		bb;
	int			sb;

	if (IsA(expr, Var))
	{
		AttrNumber	att = ((Var *) expr)->varattno;

		/* wide columns take part in no arithmetic */
		if (!pqfdw_vexpr_supported(expr, relid, num) || att > num->natts ||
			bms_is_member(att, num->wide))
			return false;
		*bound = num->max_abs[att];
		*scale = num->scale[att];
		return true;
	}
	if (integral_extract(expr, relid, num))
	{
		*bound = 100000000;
		*scale = 0;
		return true;
	}
	if (IsA(expr, Const))
	{
		int64		v = 0;

		*scale = 0;
		if (!((Const *) expr)->constisnull &&
			!pqfdw_numeric_const_unscaled(((Const *) expr)->constvalue, &v, scale))
			return false;
		*bound = v < 0 ? -(int128) v : v;
		return true;
	}
	if (!pqfdw_vexpr_call_of(expr, &funcid, &args) || (op = pqfdw_vop_of(funcid)) == NULL)
		return false;
	switch (op->op)
	{
		case VOP_CAST:
			/* of an integer: its type's range */
			if (!pqfdw_vexpr_supported(linitial(args), relid, num))
				return false;
			*scale = 0;
			switch (exprType(linitial(args)))
			{
				case INT2OID:
					*bound = PG_INT16_MAX + 1;
					return true;
				case INT4OID:
					*bound = (int128) PG_INT32_MAX + 1;
					return true;
				case INT8OID:
					*bound = PG_INT64_MAX;
					return true;
			}
			return false;
		case VOP_NEG:
			return decimal_bound(linitial(args), relid, num, bound, scale);
		case VOP_ADD:
		case VOP_SUB:
			if (!decimal_bound(linitial(args), relid, num, bound, scale) ||
				!decimal_bound(lsecond(args), relid, num, &bb, &sb) ||
				!align_bounds(bound, *scale, &bb, sb, scale))
				return false;
			*bound += bb;
			return *bound <= PG_INT64_MAX;
		case VOP_MUL:
			if (!decimal_bound(linitial(args), relid, num, bound, scale) ||
				!decimal_bound(lsecond(args), relid, num, &bb, &sb))
				return false;
			*bound *= bb;
			*scale += sb;
			return *bound <= PG_INT64_MAX;
		default:
			return false;
	}
}

/*
 * A call with numeric arguments whose result is not numeric: a comparison
 * of two (at their common scale) or float8(numeric).
 */
static bool
numeric_call_ok(Oid funcid, List *args, Index relid,
				const PqVexprNumerics *num)
{
	int128		ba;
	int128		bb;
	int			sa;
	int			sb;

	if (funcid == F_FLOAT8_NUMERIC)
		return decimal_bound(linitial(args), relid, num, &ba, &sa);
	return pqfdw_vop_of(funcid)->op == VOP_CMP &&
		exprType(lsecond(args)) == NUMERICOID &&
		decimal_bound(linitial(args), relid, num, &ba, &sa) &&
		decimal_bound(lsecond(args), relid, num, &bb, &sb) &&
		align_bounds(&ba, sa, &bb, sb, &sa);
}

/*
 * A comparison of text: equality is of bytes only under a deterministic
 * collation (as texteq decides); orderings compare with varstr_cmp under
 * any collation, as text_lt and the others do.
 */
static bool
text_cmp_ok(Expr *expr, Oid funcid)
{
	Oid			collid = exprInputCollation((Node *) expr);

	if (pqfdw_vop_of(funcid)->op != VOP_CMP || !OidIsValid(collid))
		return false;
	return (funcid != F_TEXTEQ && funcid != F_TEXTNE) ||
		get_collation_isdeterministic(collid);
}

bool
pqfdw_vexpr_is_vop(Expr *expr)
{
	Oid			funcid;
	List	   *args;
	PqVKind		kind;

	if (!pqfdw_vexpr_call_of(expr, &funcid, &args) || pqfdw_vop_of(funcid) == NULL)
		return false;
	/* text compared under a collation the operator cannot: a call */
	return !pqfdw_vkind_of(exprType(linitial(args)), &kind) ||
		kind != PQV_DATUM || text_cmp_ok(expr, funcid);
}

/*
 * A call of an immutable function (or operator) that returns no set and is
 * safe in parallel workers (grouped scans run in them).
 */
bool
pqfdw_vexpr_func_of(Expr *expr, Oid *funcid, List **args)
{
	if (IsA(expr, FuncExpr) && !((FuncExpr *) expr)->funcretset)
	{
		*funcid = ((FuncExpr *) expr)->funcid;
		*args = ((FuncExpr *) expr)->args;
	}
	else if (IsA(expr, OpExpr) && !((OpExpr *) expr)->opretset)
	{
		set_opfuncid((OpExpr *) expr);
		*funcid = ((OpExpr *) expr)->opfuncid;
		*args = ((OpExpr *) expr)->args;
	}
	else
		return false;
	return func_volatile(*funcid) == PROVOLATILE_IMMUTABLE &&
		func_parallel(*funcid) == PROPARALLEL_SAFE;
}

/*
 * A call whose result vectors cannot hold (bytea, say) as another call's
 * argument: its Datums pass between the two, so a varlena or a by-value
 * type.
 */
static bool
opaque_call_ok(Expr *expr, Index relid, const PqVexprNumerics *num)
{
	Oid			funcid;
	List	   *args;
	int16		typlen;
	bool		typbyval;

	get_typlenbyval(exprType((Node *) expr), &typlen, &typbyval);
	return (typlen == -1 || typbyval) &&
		pqfdw_vexpr_func_of(expr, &funcid, &args) &&
		func_args_ok(args, relid, num);
}

/*
 * The arguments of a VOP_FUNC call: constants of any type, vector
 * expressions of any kind but numeric (which vectors hold unscaled), or
 * calls of other types.
 */
static bool
func_args_ok(List *args, Index relid, const PqVexprNumerics *num)
{
	ListCell   *lc;

	foreach(lc, args)
	{
		PqVKind		kind;

		if (IsA(lfirst(lc), Const))
			continue;
		if (!pqfdw_vkind_of(exprType(lfirst(lc)), &kind))
		{
			if (!opaque_call_ok(lfirst(lc), relid, num))
				return false;
		}
		else if (kind == PQV_DECIMAL ||
				 !pqfdw_vexpr_supported(lfirst(lc), relid, num))
			return false;
	}
	return true;
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
		node = (Node *) pqfdw_vexpr_searched_case((CaseExpr *) node);
	return expression_tree_mutator(node, replace_case_test, arg);
}

/*
 * CASE x WHEN v THEN ... as CASE WHEN x = v THEN ...: x is evaluated by
 * each WHEN instead of once, for the same rows (the first WHEN sees every
 * row the CASE does), so the same values and the same errors.
 */
Expr *
pqfdw_vexpr_searched_case(CaseExpr *c)
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
case_supported(CaseExpr *c, Index relid, const PqVexprNumerics *num)
{
	ListCell   *lc;

	foreach(lc, c->args)
	{
		CaseWhen   *w = lfirst_node(CaseWhen, lc);

		if (exprType((Node *) w->expr) != BOOLOID ||
			exprType((Node *) w->result) != c->casetype ||
			!pqfdw_vexpr_supported(w->expr, relid, num) ||
			!pqfdw_vexpr_supported(w->result, relid, num))
			return false;
	}
	return c->defresult != NULL &&
		exprType((Node *) c->defresult) == c->casetype &&
		pqfdw_vexpr_supported(c->defresult, relid, num);
}

bool
pqfdw_vexpr_supported(Expr *expr, Index relid, const PqVexprNumerics *num)
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
			(kind != PQV_DECIMAL || bms_is_member(var->varattno, num->unscaled));
	}
	if (IsA(expr, CaseExpr))
	{
		CaseExpr   *c = (CaseExpr *) expr;

		if (c->arg != NULL)
			return pqfdw_vexpr_supported(pqfdw_vexpr_searched_case(c), relid, num);
		return kind != PQV_DECIMAL && case_supported(c, relid, num);
	}
	if (!pqfdw_vexpr_is_vop(expr) && pqfdw_vexpr_func_of(expr, &funcid, &args))
	{
		int128		bound;
		int			scale;

		/* numeric results only where they are integers (extract) */
		if (kind == PQV_DECIMAL)
			return decimal_bound(expr, relid, num, &bound, &scale);
		return func_args_ok(args, relid, num);
	}
	/* text: a column, a varchar column seen as text, a constant, a CASE */
	if (kind == PQV_DATUM)
		return IsA(expr, Const) ||
			(IsA(expr, RelabelType) &&
			 pqfdw_vexpr_supported(((RelabelType *) expr)->arg, relid,
								   num));
	if (kind == PQV_DECIMAL)
	{
		int128		bound;
		int			scale;

		return decimal_bound(expr, relid, num, &bound, &scale);
	}
	if (IsA(expr, Const))
		return true;
	if (IsA(expr, NullTest))
	{
		NullTest   *nt = (NullTest *) expr;

		return !nt->argisrow && pqfdw_vexpr_supported(nt->arg, relid, num);
	}
	if (IsA(expr, BoolExpr))
	{
		foreach(lc, ((BoolExpr *) expr)->args)
			if (exprType(lfirst(lc)) != BOOLOID ||
				!pqfdw_vexpr_supported(lfirst(lc), relid, num))
			return false;
		return true;
	}
	if (!pqfdw_vexpr_call_of(expr, &funcid, &args) || pqfdw_vop_of(funcid) == NULL)
		return false;
	if (exprType(linitial(args)) == NUMERICOID)
		return numeric_call_ok(funcid, args, relid, num);
	foreach(lc, args)
	{
		PqVKind		arg_kind;

		if (!pqfdw_vkind_of(exprType(lfirst(lc)), &arg_kind) ||
			arg_kind == PQV_DECIMAL ||
			(arg_kind == PQV_DATUM && !text_cmp_ok(expr, funcid)) ||
			!pqfdw_vexpr_supported(lfirst(lc), relid, num))
			return false;
	}
	return true;
}
