/*-------------------------------------------------------------------------
 *
 * filter.c
 *		Which quals the scan evaluates on batches, and their compiled form.
 *
 * A qual qualifies when it is built from AND, OR and NOT over tests of one
 * column of the scanned relation against constants: "column op constant"
 * (either side), "column op ANY/ALL (constant array)", "column IS [NOT]
 * NULL", where op is strict and immutable.  Such a qual gives the same
 * answer wherever it is evaluated, so it is removed from the executor's
 * quals and rows that fail it are never formed.  Operators of PostgreSQL's
 * own btree families are also classified (less than, equal, ...) so that
 * filter_eval.c can compare raw Parquet values without calling them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "access/transam.h"
#include "catalog/pg_proc.h"
#include "fdw/common/pg_compat.h"
#include "fdw/scan/filter_program.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "utils/array.h"
#include "utils/fmgroids.h"
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
usable_function(Oid funcid, bool leakproof)
{
	return func_strict(funcid) &&
		func_volatile(funcid) == PROVOLATILE_IMMUTABLE &&
		(!leakproof || get_func_leakproof(funcid));
}

static bool
non_null_const(Node *node)
{
	return node && IsA(node, Const) && !((Const *) node)->constisnull;
}

/*
 * Whether the scan can evaluate node; leakproof: every function must be
 * (a security barrier's quals run first in the executor).
 */
static bool
filter_node_ok(Node *node, Index relid, bool leakproof)
{
	if (node == NULL)
		return false;
	switch (nodeTag(node))
	{
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) node;
				Node	   *l;
				Node	   *r;

				if (list_length(op->args) != 2 || op->opretset)
					return false;
				l = linitial(op->args);
				r = lsecond(op->args);
				if (!((scan_var(l, relid) && non_null_const(r)) ||
					  (scan_var(r, relid) && non_null_const(l))))
					return false;
				set_opfuncid(op);
				return usable_function(op->opfuncid, leakproof);
			}
		case T_ScalarArrayOpExpr:
			{
				ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) node;

				if (list_length(sa->args) != 2 ||
					!scan_var(linitial(sa->args), relid) ||
					!non_null_const(lsecond(sa->args)))
					return false;
				set_sa_opfuncid(sa);
				return usable_function(sa->opfuncid, leakproof);
			}
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) node;

				/* a row's IS NULL looks into its fields */
				return !nt->argisrow && scan_var((Node *) nt->arg, relid) &&
					!type_is_rowtype(exprType((Node *) nt->arg));
			}
		case T_BoolExpr:
			{
				ListCell   *lc;

				foreach(lc, ((BoolExpr *) node)->args)
					if (!filter_node_ok(lfirst(lc), relid, leakproof))
					return false;
				return true;
			}
		default:
			return false;
	}
}

List *
pqfdw_batch_filter_clauses(List *clauses, Index relid)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (ri->pseudoconstant ||
			!filter_node_ok((Node *) ri->clause, relid, ri->security_level > 0))
			continue;
		result = lappend(result, ri->clause);
	}
	return result;
}

/*
 * The comparison opno makes, with its left input the column, when it is an
 * operator of one of PostgreSQL's own btree families (whose order raw
 * values can reproduce); PQC_NONE otherwise.
 */
static PqCmp
classify_operator(Oid opno, Oid funcid, bool var_on_left, Oid *opfamily)
{
	static const PqCmp by_strategy[] = {PQC_NONE, PQC_LT, PQC_LE, PQC_EQ,
	PQC_GE, PQC_GT, PQC_NE};
	static const PqCmp flipped[] = {PQC_NONE, PQC_GT, PQC_GE, PQC_EQ,
	PQC_LE, PQC_LT, PQC_NE};
	List	   *interps;
	ListCell   *lc;

	*opfamily = InvalidOid;
	switch (funcid)
	{
		case F_TEXTLIKE:
			return var_on_left ? PQC_LIKE : PQC_NONE;
		case F_TEXTNLIKE:
			return var_on_left ? PQC_NOT_LIKE : PQC_NONE;
		case F_TEXTICLIKE:
			return var_on_left ? PQC_ILIKE : PQC_NONE;
		case F_TEXTICNLIKE:
			return var_on_left ? PQC_NOT_ILIKE : PQC_NONE;
	}
	if (opno >= FirstNormalObjectId)
		return PQC_NONE;
	interps = pqfdw_op_btree_interpretation(opno);
	foreach(lc, interps)
	{
		PqBtreeInterp *bi = lfirst(lc);
		int			strategy = PQFDW_INTERP_STRATEGY(bi);

		if (bi->opfamily_id >= FirstNormalObjectId ||
			strategy < BTLessStrategyNumber ||
			strategy > PQFDW_STRATEGY_NE)
			continue;
		*opfamily = bi->opfamily_id;
		return var_on_left ? by_strategy[strategy] : flipped[strategy];
	}
	return PQC_NONE;
}

static int
add_leaf(PqFilter *f, PqFilterLeaf *leaf)
{
	if (f->nleaves % 8 == 0)
		f->leaves = f->nleaves == 0 ?
			palloc(sizeof(PqFilterLeaf) * 8) :
			repalloc(f->leaves, sizeof(PqFilterLeaf) * (f->nleaves + 8));
	f->leaves[f->nleaves] = *leaf;
	f->leaves[f->nleaves].tri = palloc(f->batch_rows);
	f->attnums = list_append_unique_int(f->attnums, leaf->attnum);
	return f->nleaves++;
}

static void
op_leaf(PqFilterLeaf *leaf, Oid opno, Oid funcid, Oid collation,
		bool var_on_left)
{
	leaf->kind = PQL_OP;
	leaf->var_on_left = var_on_left;
	leaf->collation = collation;
	fmgr_info(funcid, &leaf->fn);
	leaf->cmp = classify_operator(opno, funcid, var_on_left, &leaf->opfamily);
}

static PqFilterNode *compile_node(PqFilter *f, Node *node, Index relid);

static PqFilterNode *
leaf_node(PqFilter *f, PqFilterLeaf *leaf)
{
	PqFilterNode *n = palloc0(sizeof(PqFilterNode));

	n->kind = PQN_LEAF;
	n->leaf = add_leaf(f, leaf);
	return n;
}

static PqFilterNode *
compile_node(PqFilter *f, Node *node, Index relid)
{
	PqFilterLeaf leaf;

	memset(&leaf, 0, sizeof(leaf));
	switch (nodeTag(node))
	{
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) node;
				Var		   *var = scan_var(linitial(op->args), relid);
				Const	   *c;

				op_leaf(&leaf, op->opno, op->opfuncid, op->inputcollid,
						var != NULL);
				if (var == NULL)
					var = scan_var(lsecond(op->args), relid);
				c = (Const *) (leaf.var_on_left ? lsecond(op->args) :
							   linitial(op->args));
				leaf.attnum = var->varattno;
				leaf.consttype = c->consttype;
				leaf.nconsts = 1;
				leaf.consts = palloc(sizeof(Datum));
				leaf.consts[0] = c->constvalue;
				leaf.use_or = true;
				return leaf_node(f, &leaf);
			}
		case T_ScalarArrayOpExpr:
			{
				ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) node;
				Const	   *c = lsecond(sa->args);
				ArrayType  *arr = DatumGetArrayTypeP(c->constvalue);
				Oid			elemtype = ARR_ELEMTYPE(arr);
				int16		typlen;
				bool		typbyval;
				char		typalign;
				Datum	   *elems;
				bool	   *nulls;
				int			nelems;
				int			i;

				op_leaf(&leaf, sa->opno, sa->opfuncid, sa->inputcollid, true);
				leaf.attnum = scan_var(linitial(sa->args), relid)->varattno;
				leaf.consttype = elemtype;
				leaf.use_or = sa->useOr;
				get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
				deconstruct_array(arr, elemtype, typlen, typbyval, typalign,
								  &elems, &nulls, &nelems);
				leaf.consts = palloc(sizeof(Datum) * Max(nelems, 1));
				for (i = 0; i < nelems; i++)
				{
					if (nulls[i])
						leaf.null_const = true;
					else
						leaf.consts[leaf.nconsts++] = elems[i];
				}
				return leaf_node(f, &leaf);
			}
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) node;

				leaf.kind = PQL_NULLTEST;
				leaf.attnum = scan_var((Node *) nt->arg, relid)->varattno;
				leaf.is_null = nt->nulltesttype == IS_NULL;
				return leaf_node(f, &leaf);
			}
		case T_BoolExpr:
			{
				BoolExpr   *be = (BoolExpr *) node;
				PqFilterNode *n = palloc0(sizeof(PqFilterNode));
				ListCell   *lc;
				int			i = 0;

				n->kind = be->boolop == AND_EXPR ? PQN_AND :
					be->boolop == OR_EXPR ? PQN_OR : PQN_NOT;
				n->nargs = list_length(be->args);
				n->args = palloc(sizeof(PqFilterNode *) * n->nargs);
				n->tri = palloc(f->batch_rows);
				foreach(lc, be->args)
					n->args[i++] = compile_node(f, lfirst(lc), relid);
				return n;
			}
		default:
			elog(ERROR, "unrecognized parquet_fdw filter node: %d",
				 (int) nodeTag(node));
	}
	return NULL;				/* keep compiler quiet */
}

PqFilter *
pqfdw_filter_create(List *clauses, Index relid, int batch_rows,
					MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	PqFilter   *f = palloc0(sizeof(PqFilter));
	ListCell   *lc;
	int			i = 0;

	f->cxt = cxt;
	f->batch_rows = batch_rows;
	f->dense = palloc(PQ_SEGMENT_CAP);
	f->dense2 = palloc(PQ_SEGMENT_CAP);
	f->root = palloc0(sizeof(PqFilterNode));
	f->root->kind = PQN_AND;
	f->root->nargs = list_length(clauses);
	f->root->args = palloc(sizeof(PqFilterNode *) * Max(f->root->nargs, 1));
	f->root->tri = palloc(batch_rows);
	foreach(lc, clauses)
		f->root->args[i++] = compile_node(f, lfirst(lc), relid);
	MemoryContextSwitchTo(old);
	return f;
}

List *
pqfdw_filter_attnums(PqFilter *f)
{
	return f->attnums;
}
