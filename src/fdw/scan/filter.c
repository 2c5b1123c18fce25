/*-------------------------------------------------------------------------
 *
 * filter.c
 *		Quals evaluated on a decoded batch, before rows become tuples.
 *
 * A qual of the form "column op constant" (or "constant op column") with a
 * strict, immutable operator is evaluated on the batch's Datums; rows that
 * fail it are never handed to the executor.  The filter calls the same
 * function with the same collation as the executor would, so the clause is
 * removed from the executor's quals.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "fdw/scan/filter.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "utils/lsyscache.h"

/* Var of the scanned relation, possibly under a binary-compatible relabel. */
static Var *
scan_var(Node *node, Index relid)
{
	while (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	if (node && IsA(node, Var) &&
		((Var *) node)->varno == relid &&
		((Var *) node)->varattno > 0 &&
		((Var *) node)->varlevelsup == 0)
		return (Var *) node;
	return NULL;
}

static bool
is_batch_filter(Expr *clause, Index relid)
{
	OpExpr	   *op;
	Node	   *left;
	Node	   *right;

	if (!IsA(clause, OpExpr))
		return false;
	op = (OpExpr *) clause;
	if (list_length(op->args) != 2 || op->opretset)
		return false;
	left = linitial(op->args);
	right = lsecond(op->args);
	if (!((scan_var(left, relid) && IsA(right, Const)) ||
		  (scan_var(right, relid) && IsA(left, Const))))
		return false;
	if (IsA(left, Const) ? ((Const *) left)->constisnull :
		((Const *) right)->constisnull)
		return false;
	set_opfuncid(op);
	return func_strict(op->opfuncid) &&
		func_volatile(op->opfuncid) == PROVOLATILE_IMMUTABLE;
}

List *
pqfdw_batch_filter_clauses(List *clauses, Index relid)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (ri->pseudoconstant || !is_batch_filter(ri->clause, relid))
			continue;

		/*
		 * Evaluating quals in a different order must not let a leaky
		 * function see rows a security barrier would hide.
		 */
		if (ri->security_level > 0 &&
			!get_func_leakproof(((OpExpr *) ri->clause)->opfuncid))
			continue;
		result = lappend(result, ri->clause);
	}
	return result;
}

PqBatchFilter *
pqfdw_batch_filters_init(List *clauses, Index relid, int *nfilters)
{
	PqBatchFilter *filters;
	ListCell   *lc;
	int			i = 0;

	*nfilters = list_length(clauses);
	filters = palloc0(sizeof(PqBatchFilter) * Max(*nfilters, 1));
	foreach(lc, clauses)
	{
		OpExpr	   *op = lfirst_node(OpExpr, lc);
		PqBatchFilter *f = &filters[i++];
		Node	   *left = linitial(op->args);
		Var		   *var = scan_var(left, relid);
		Const	   *c;

		f->var_on_left = (var != NULL);
		if (var == NULL)
			var = scan_var(lsecond(op->args), relid);
		if (var == NULL)
			elog(ERROR, "unrecognized parquet_fdw filter clause");
		c = (Const *) (f->var_on_left ? lsecond(op->args) : left);
		f->attnum = var->varattno;
		f->constval = c->constvalue;
		f->collation = op->inputcollid;
		fmgr_info(op->opfuncid, &f->fn);
		f->expr = (Expr *) op;
	}
	return filters;
}

int
pqfdw_batch_filter(PqBatchFilter *filters, int nfilters,
				   const Datum *values, const bool *nulls, int batch_rows,
				   int n, int *sel)
{
	LOCAL_FCINFO(fcinfo, 2);
	int			nsel = n;
	int			i;
	int			f;

	for (i = 0; i < n; i++)
		sel[i] = i;
	for (f = 0; f < nfilters && nsel > 0; f++)
	{
		PqBatchFilter *flt = &filters[f];
		const Datum *cvals = values + (size_t) (flt->attnum - 1) * batch_rows;
		const bool *cnulls = nulls + (size_t) (flt->attnum - 1) * batch_rows;
		int			varpos = flt->var_on_left ? 0 : 1;
		int			kept = 0;

		InitFunctionCallInfoData(*fcinfo, &flt->fn, 2, flt->collation,
								 NULL, NULL);
		fcinfo->args[1 - varpos].value = flt->constval;
		fcinfo->args[1 - varpos].isnull = false;
		fcinfo->args[varpos].isnull = false;
		for (i = 0; i < nsel; i++)
		{
			Datum		result;

			/* strict operator: NULL input, NULL result, row fails */
			if (cnulls[sel[i]])
				continue;
			fcinfo->args[varpos].value = cvals[sel[i]];
			fcinfo->isnull = false;
			result = FunctionCallInvoke(fcinfo);
			if (!fcinfo->isnull && DatumGetBool(result))
				sel[kept++] = sel[i];
		}
		nsel = kept;
	}
	return nsel;
}
