/*-------------------------------------------------------------------------
 *
 * predicate.c
 *		Quals -> pruning predicates: which quals of a scan statistics,
 *		Bloom filters, dictionaries and page indexes can decide, their
 *		executor form (PqPrunePred), the values they compare with, and the
 *		quals with those values for EXPLAIN.
 *
 * Quals of the form "column op constant" (op a btree comparison, including
 * <> and = ANY(array)), LIKE 'prefix%', IS [NOT] NULL, bare boolean
 * columns, comparisons of struct fields, list elements and jsonb key paths,
 * and geometry box tests, possibly under OR.  A value that is not a
 * constant (a parameter, an initplan) is evaluated by the executor and
 * installed with pqfdw_prune_set_values().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/nbtree.h"
#include "access/stratnum.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "fdw/common/pg_compat.h"
#include "fdw/prune/geo_bbox.h"
#include "fdw/prune/prune.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"

static Var *
plain_var(Node *node, Index relid)
{
	while (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	if (node && IsA(node, Var) && ((Var *) node)->varno == relid &&
		((Var *) node)->varattno > 0 && ((Var *) node)->varlevelsup == 0)
		return (Var *) node;
	return NULL;
}

/*
 * Casts whose result order follows the argument's order (non-decreasing):
 * the bounds of the cast values are the cast bounds, so statistics still
 * decide "cast(column) op value".  timestamp -> timestamptz is not one
 * (local times in a DST gap move forward).
 */
static bool
monotonic_cast(Oid from, Oid to)
{
	switch (from)
	{
		case INT2OID:
			return to == INT4OID || to == INT8OID || to == NUMERICOID ||
				to == FLOAT4OID || to == FLOAT8OID;
		case INT4OID:
			return to == INT8OID || to == NUMERICOID || to == FLOAT4OID ||
				to == FLOAT8OID;
		case INT8OID:
			return to == NUMERICOID || to == FLOAT4OID || to == FLOAT8OID;
		case FLOAT4OID:
			return to == FLOAT8OID;
		case NUMERICOID:
			return to == FLOAT8OID;
		case DATEOID:
			return to == TIMESTAMPOID || to == TIMESTAMPTZOID;
	}
	return false;
}

/*
 * The column of a comparison operand: a plain Var (a struct field, a jsonb
 * key path), or a monotonic cast of one (whose cast function goes to
 * *castfn; InvalidOid otherwise).
 */
static Var *
column_operand(Node *node, Index relid, Oid *castfn)
{
	int16		fields[PQ_PRUNE_MAX_STEPS];
	int			nfields;
	Var		   *var;

	*castfn = InvalidOid;
	if ((var = pqfdw_prune_json_var(node, relid, NULL)) != NULL)
		return var;
	if (node && IsA(node, FuncExpr))
	{
		FuncExpr   *fe = (FuncExpr *) node;
		Oid			argtype;
		Oid			pathfn;

		if ((fe->funcformat != COERCE_IMPLICIT_CAST &&
			 fe->funcformat != COERCE_EXPLICIT_CAST) ||
			list_length(fe->args) != 1 ||
			(var = pqfdw_prune_field_var(linitial(fe->args), relid, fields,
										 &nfields)) == NULL)
			return NULL;
		argtype = exprType(linitial(fe->args));
		if (!monotonic_cast(argtype, fe->funcresulttype) ||
			find_coercion_pathway(fe->funcresulttype, argtype,
								  COERCION_EXPLICIT, &pathfn) != COERCION_PATH_FUNC ||
			pathfn != fe->funcid)
			return NULL;
		*castfn = fe->funcid;
		return var;
	}
	return pqfdw_prune_field_var(node, relid, fields, &nfields);
}

/*
 * The struct fields the column operand of a clause selects (a cast of
 * them included), into p.
 */
static void
set_fields(PqPrunePred *p, Node *operand, Index relid)
{
	/* a key path of a jsonb column (json_path.c) */
	if (pqfdw_prune_json_var(operand, relid, p) != NULL)
		return;
	if (operand && IsA(operand, FuncExpr))
		operand = linitial(((FuncExpr *) operand)->args);
	if (pqfdw_prune_field_var(operand, relid, p->fields, &p->nfields) == NULL)
		elog(ERROR, "unrecognized parquet_fdw pruning clause");
	while (IsA(operand, RelabelType))
		operand = (Node *) ((RelabelType *) operand)->arg;
	/* the type the leaf's converter must give */
	p->leaf_type = exprType(operand);
}

/* The btree interpretation of opno, if any. */
static PqBtreeInterp *
btree_interpretation(Oid opno)
{
	List	   *interps = pqfdw_op_btree_interpretation(opno);

	return interps ? linitial(interps) : NULL;
}

static bool
references_rel(Node *node, Index *relid)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
		return ((Var *) node)->varno == *relid &&
			((Var *) node)->varlevelsup == 0;
	if (IsA(node, PlaceHolderVar))
		return true;
	return expression_tree_walker(node, references_rel, relid);
}

/*
 * The side of a comparison that is not the column: a constant, a
 * parameter, a column of an outer relation (parameterized paths) or any
 * stable expression of these, evaluated once per (re)scan.
 */
static bool
is_value_expr(Node *node, Index relid)
{
	if (IsA(node, Const))
		return !((Const *) node)->constisnull;
	return !references_rel(node, &relid) && !contain_volatile_functions(node) &&
		!contain_subplans(node);
}

/*
 * The column and value sides of a two-argument operator clause; *castfn is
 * the monotonic cast applied to the column, if any.
 */
static bool
split_operands(List *args, Index relid, Var **var, Node **value, bool *var_left,
			   Oid *castfn)
{
	Node	   *l;
	Node	   *r;

	if (list_length(args) != 2)
		return false;
	l = linitial(args);
	r = lsecond(args);
	if ((*var = column_operand(l, relid, castfn)) != NULL && is_value_expr(r, relid))
	{
		*value = r;
		*var_left = true;
		return true;
	}
	if ((*var = column_operand(r, relid, castfn)) != NULL && is_value_expr(l, relid))
	{
		*value = l;
		*var_left = false;
		return true;
	}
	return false;
}

/*
 * Recognise a prunable clause; value expressions are appended to *values
 * in the order pqfdw_prune_init() consumes them.
 */
static bool
is_prune_clause(Expr *clause, Index relid, List **values)
{
	Var		   *var;
	Node	   *value;
	bool		var_left;
	Oid			castfn;

	if (pqfdw_geo_prune_clause(clause, relid, values))
		return true;
	if (IsA(clause, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) clause;

		/* "v @> '{...}'": its values are fixed (json_contains.c) */
		if (pqfdw_prune_json_contains(clause, relid, NULL))
			return true;
		if (!split_operands(op->args, relid, &var, &value, &var_left, &castfn))
			return false;
		if (op->opno == OID_TEXT_LIKE_OP)
		{
			/* a LIKE pattern is a byte range when it has a fixed prefix */
			if (!var_left || OidIsValid(castfn) ||
				(OidIsValid(op->inputcollid) &&
				 !get_collation_isdeterministic(op->inputcollid)))
				return false;
		}
		else if (btree_interpretation(op->opno) == NULL)
			return false;
		*values = lappend(*values, value);
		return true;
	}
	if (IsA(clause, ScalarArrayOpExpr))
	{
		ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) clause;
		PqBtreeInterp *bi;

		if (!sa->useOr ||
			!split_operands(sa->args, relid, &var, &value, &var_left, &castfn))
			return false;
		bi = btree_interpretation(sa->opno);
		if (!bi)
			return false;

		/*
		 * "value op ANY (list column)": any comparison, on the list's
		 * elements (nested_path.c); "column = ANY (values)": equality.
		 */
		if (!var_left)
		{
			if (OidIsValid(castfn) ||
				!OidIsValid(get_element_type(exprType(lsecond(sa->args)))))
				return false;
		}
		else if (PQFDW_INTERP_STRATEGY(bi) != BTEqualStrategyNumber)
			return false;
		*values = lappend(*values, value);
		return true;
	}
	if (IsA(clause, NullTest))
	{
		NullTest   *nt = (NullTest *) clause;

		return !nt->argisrow && plain_var((Node *) nt->arg, relid);
	}
	if (IsA(clause, Var))
		return plain_var((Node *) clause, relid) &&
			((Var *) clause)->vartype == BOOLOID;
	if (is_notclause(clause))
	{
		Node	   *arg = (Node *) get_notclausearg(clause);

		return plain_var(arg, relid) && exprType(arg) == BOOLOID;
	}
	if (is_orclause(clause))
	{
		List	   *branch_values = NIL;
		ListCell   *lc;

		foreach(lc, ((BoolExpr *) clause)->args)
			if (!is_prune_clause((Expr *) lfirst(lc), relid, &branch_values))
			return false;
		*values = list_concat(*values, branch_values);
		return true;
	}
	return false;
}

bool
pqfdw_is_prune_clause(Expr *clause, Index relid)
{
	List	   *values = NIL;

	return is_prune_clause(clause, relid, &values);
}

/* Copy of clause with its value expressions taken from *values. */
static Expr *
substitute_values(Expr *clause, Index relid, ListCell **next, List *values)
{
	Var		   *var;
	Node	   *value;
	bool		var_left;
	Oid			castfn;

	if (pqfdw_geo_prune_clause(clause, relid, NULL))
		return pqfdw_geo_substitute_values(clause, relid, next, values);
	if (pqfdw_prune_json_contains(clause, relid, NULL))
		return clause;
	if (IsA(clause, OpExpr) || IsA(clause, ScalarArrayOpExpr))
	{
		List	  **args;

		clause = copyObject(clause);
		args = IsA(clause, OpExpr) ? &((OpExpr *) clause)->args :
			&((ScalarArrayOpExpr *) clause)->args;
		split_operands(*args, relid, &var, &value, &var_left, &castfn);
		if (var_left)
			lsecond(*args) = lfirst(*next);
		else
			linitial(*args) = lfirst(*next);
		*next = lnext(values, *next);
		return clause;
	}
	if (is_orclause(clause))
	{
		List	   *args = NIL;
		ListCell   *lc;

		foreach(lc, ((BoolExpr *) clause)->args)
			args = lappend(args, substitute_values((Expr *) lfirst(lc), relid,
												   next, values));
		return make_orclause(args);
	}
	return clause;
}

List *
pqfdw_prune_clauses_with_values(List *clauses, Index relid, List *values)
{
	List	   *result = NIL;
	ListCell   *next = list_head(values);
	ListCell   *lc;

	foreach(lc, clauses)
		result = lappend(result, substitute_values((Expr *) lfirst(lc), relid,
												   &next, values));
	return result;
}

List *
pqfdw_prune_clauses(List *restrictinfos, Index relid, List **values)
{
	List	   *result = NIL;
	ListCell   *lc;

	*values = NIL;
	foreach(lc, restrictinfos)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (!ri->pseudoconstant && is_prune_clause(ri->clause, relid, values))
			result = lappend(result, ri->clause);
	}
	return result;
}

/*
 * Fill in the comparison of a predicate on column type coltype with
 * constants of type consttype.  False when the operator family has no
 * order proc for the pair, or the comparison cannot use byte-ordered
 * statistics.
 */
static bool
setup_compare(PqPrunePred *p, Oid opfamily, Oid coltype, Oid consttype,
			  Oid collation)
{
	Oid			proc = get_opfamily_proc(opfamily, coltype, consttype,
										 BTORDER_PROC);
	char		category;
	bool		preferred;

	if (!OidIsValid(proc))
		return false;
	fmgr_info(proc, &p->cmp);
	p->collation = collation;
	get_type_category_preferred(coltype, &category, &preferred);
	if (coltype == BPCHAROID || coltype == NAMEOID)
		return false;			/* padding/length semantics differ from bytes */
	if (category == TYPCATEGORY_STRING)
	{
		/*
		 * Parquet orders strings by bytes: equal to the C collation, and for
		 * equality to any deterministic one (a nondeterministic collation
		 * calls different bytes equal)
		 */
		if ((p->strategy == BTEqualStrategyNumber ||
			 p->strategy == PQ_STRATEGY_NE) &&
			(!OidIsValid(collation) || get_collation_isdeterministic(collation)))
			p->collation = C_COLLATION_OID;
		else if (!OidIsValid(collation) || !pqfdw_collate_is_c(collation))
			return false;
	}
	return true;
}

static void
set_cast(PqPrunePred *p, Oid castfn)
{
	p->has_cast = OidIsValid(castfn);
	if (p->has_cast)
		fmgr_info(castfn, &p->cast);
}

static int
commute_strategy(int strategy)
{
	switch (strategy)
	{
		case BTLessStrategyNumber:
			return BTGreaterStrategyNumber;
		case BTLessEqualStrategyNumber:
			return BTGreaterEqualStrategyNumber;
		case BTGreaterEqualStrategyNumber:
			return BTLessEqualStrategyNumber;
		case BTGreaterStrategyNumber:
			return BTLessStrategyNumber;
	}
	return strategy;
}

/*
 * Set up the predicate for a clause accepted by is_prune_clause().
 * *next_value is the index of the clause's first value expression; it
 * advances past the clause's values even when the predicate is unusable.
 */
static bool
init_pred(PqPrunePred *p, Expr *clause, Index relid, int *next_value)
{
	Var		   *var;
	Node	   *value;
	bool		var_left;
	Oid			castfn = InvalidOid;

	memset(p, 0, sizeof(*p));
	p->kind = PQ_PRUNE_COMPARE;
	p->value_index = -1;
	if (pqfdw_geo_prune_clause(clause, relid, NULL))
	{
		pqfdw_geo_init_pred(p, clause, relid, next_value);
		return true;
	}
	if (pqfdw_prune_json_contains(clause, relid, p))
		return true;
	if (IsA(clause, OpExpr) && ((OpExpr *) clause)->opno == OID_TEXT_LIKE_OP)
	{
		OpExpr	   *op = (OpExpr *) clause;

		if (!split_operands(op->args, relid, &var, &value, &var_left, &castfn))
			elog(ERROR, "unrecognized parquet_fdw pruning clause");
		p->attnum = var->varattno;
		p->value_index = (*next_value)++;
		p->strategy = PQ_STRATEGY_PREFIX;
		return setup_compare(p, TEXT_BTREE_FAM_OID, TEXTOID, TEXTOID,
							 C_COLLATION_OID);
	}
	if (IsA(clause, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) clause;
		PqBtreeInterp *bi = btree_interpretation(op->opno);

		if (!split_operands(op->args, relid, &var, &value, &var_left, &castfn))
			elog(ERROR, "unrecognized parquet_fdw pruning clause");
		p->attnum = var->varattno;
		p->value_index = (*next_value)++;
		p->strategy = var_left ? PQFDW_INTERP_STRATEGY(bi) : commute_strategy(PQFDW_INTERP_STRATEGY(bi));
		set_cast(p, castfn);
		set_fields(p, var_left ? linitial(op->args) : lsecond(op->args), relid);
		return setup_compare(p, bi->opfamily_id,
							 var_left ? bi->oplefttype : bi->oprighttype,
							 var_left ? bi->oprighttype : bi->oplefttype,
							 op->inputcollid);
	}
	if (IsA(clause, ScalarArrayOpExpr))
	{
		ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) clause;
		PqBtreeInterp *bi = btree_interpretation(sa->opno);

		if (!split_operands(sa->args, relid, &var, &value, &var_left, &castfn))
			elog(ERROR, "unrecognized parquet_fdw pruning clause");
		p->attnum = var->varattno;
		p->value_index = (*next_value)++;
		if (!var_left)
		{
			/* "value op ANY (list)": "element op' value" on the elements */
			set_fields(p, lsecond(sa->args), relid);
			p->element = true;
			p->leaf_type = get_element_type(p->leaf_type);
			p->strategy = commute_strategy(PQFDW_INTERP_STRATEGY(bi));
			return setup_compare(p, bi->opfamily_id, bi->oprighttype,
								 bi->oplefttype, sa->inputcollid);
		}
		set_fields(p, linitial(sa->args), relid);
		p->strategy = BTEqualStrategyNumber;
		set_cast(p, castfn);
		p->value_is_array = true;
		p->elemtype = get_element_type(exprType(value));
		if (!OidIsValid(p->elemtype))
			return false;
		get_typlenbyvalalign(p->elemtype, &p->elmlen, &p->elmbyval,
							 &p->elmalign);
		return setup_compare(p, bi->opfamily_id, bi->oplefttype,
							 bi->oprighttype, sa->inputcollid);
	}
	if (IsA(clause, NullTest))
	{
		NullTest   *nt = (NullTest *) clause;

		p->kind = nt->nulltesttype == IS_NULL ? PQ_PRUNE_IS_NULL :
			PQ_PRUNE_IS_NOT_NULL;
		var = plain_var((Node *) nt->arg, relid);
		if (var == NULL)
			elog(ERROR, "unrecognized parquet_fdw pruning clause");
		p->attnum = var->varattno;
		return true;
	}
	if (is_orclause(clause))
	{
		List	   *args = ((BoolExpr *) clause)->args;
		ListCell   *lc;
		bool		ok = true;

		p->kind = PQ_PRUNE_OR;
		p->args = palloc0(sizeof(PqPrunePred) * list_length(args));
		foreach(lc, args)
			ok &= init_pred(&p->args[p->nargs++], (Expr *) lfirst(lc), relid,
							next_value);
		/* one branch we cannot judge makes the whole OR undecidable */
		return ok;
	}

	/* a bare boolean column is "column = true"; NOT column "= false" */
	{
		bool		negated = is_notclause(clause);

		var = plain_var(negated ? (Node *) get_notclausearg(clause) :
						(Node *) clause, relid);
		p->attnum = var->varattno;
		p->strategy = BTEqualStrategyNumber;
		p->values = palloc(sizeof(Datum));
		p->values[0] = BoolGetDatum(!negated);
		p->nvalues = 1;
		return setup_compare(p, BOOL_BTREE_FAM_OID, BOOLOID, BOOLOID,
							 InvalidOid);
	}
}

PqPrunePred *
pqfdw_prune_init(List *clauses, Index relid, int *npreds)
{
	PqPrunePred *preds = palloc0(sizeof(PqPrunePred) * Max(list_length(clauses), 1));
	ListCell   *lc;
	int			next_value = 0;
	int			n = 0;

	foreach(lc, clauses)
		if (init_pred(&preds[n], (Expr *) lfirst(lc), relid, &next_value))
		n++;
	*npreds = n;
	return preds;
}

/*
 * The fixed prefix of a LIKE pattern (up to the first unescaped % or _) and
 * the smallest byte string above every string with that prefix.  Without a
 * prefix the predicate tells nothing: it is left with one value and no
 * upper bound, which every non-null range matches.
 */
static void
set_like_prefix(PqPrunePred *p, text *pattern)
{
	const char *s = VARDATA_ANY(pattern);
	int			len = VARSIZE_ANY_EXHDR(pattern);
	char	   *prefix = palloc(len + 1);
	int			n = 0;
	int			i;

	for (i = 0; i < len; i++)
	{
		if (s[i] == '%' || s[i] == '_')
			break;
		if (s[i] == '\\' && i + 1 < len)
			i++;
		prefix[n++] = s[i];
	}
	p->values = palloc(sizeof(Datum));
	p->values[0] = PointerGetDatum(cstring_to_text_with_len(prefix, n));
	p->nvalues = 1;

	/* increment the last byte that can be incremented, dropping 0xFF bytes */
	p->has_prefix_end = false;
	while (n > 0 && (unsigned char) prefix[n - 1] == 0xFF)
		n--;
	if (n > 0)
	{
		prefix[n - 1]++;
		p->prefix_end = PointerGetDatum(cstring_to_text_with_len(prefix, n));
		p->has_prefix_end = true;
	}
}

void
pqfdw_prune_set_values(PqPrunePred *preds, int npreds, const Datum *values,
					   const bool *isnull)
{
	int			i;

	for (i = 0; i < npreds; i++)
	{
		PqPrunePred *p = &preds[i];
		int			v = p->value_index;

		if (p->kind == PQ_PRUNE_OR)
		{
			pqfdw_prune_set_values(p->args, p->nargs, values, isnull);
			continue;
		}
		if (p->kind == PQ_PRUNE_BBOX)
		{
			pqfdw_geo_set_values(p, values, isnull);
			continue;
		}
		if (v < 0)
			continue;
		p->nvalues = 0;
		if (isnull[v])
			continue;			/* compared with NULL: never true */
		if (p->value_is_array)
		{
			ArrayType  *arr = DatumGetArrayTypeP(values[v]);
			bool	   *nulls;
			Datum	   *elems;
			int			nelems;
			int			k;

			deconstruct_array(arr, p->elemtype, p->elmlen, p->elmbyval,
							  p->elmalign, &elems, &nulls, &nelems);
			p->values = palloc(sizeof(Datum) * Max(nelems, 1));
			for (k = 0; k < nelems; k++)
				if (!nulls[k])	/* NULL elements never match */
					p->values[p->nvalues++] = elems[k];
		}
		else if (p->strategy == PQ_STRATEGY_PREFIX)
			set_like_prefix(p, DatumGetTextPP(values[v]));
		else
		{
			p->values = palloc(sizeof(Datum));
			p->values[0] = values[v];
			p->nvalues = 1;
		}
	}
}
