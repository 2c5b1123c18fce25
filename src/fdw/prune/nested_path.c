/*-------------------------------------------------------------------------
 *
 * nested_path.c
 *		Pruning quals on a leaf inside a nested column: a struct field
 *		"(s).f op value" of a composite-mapped struct, and a list element
 *		"value op ANY (arr)".
 *
 * Such a qual is decided by the statistics and Bloom filter of the one
 * leaf it reads, as a flat column's qual is by its chunk's.  That is sound
 * because the qual is true only when the leaf holds a non-null value that
 * satisfies it: a NULL struct and a NULL field both leave a null in the
 * leaf (a definition level below the leaf's), and neither satisfies a
 * comparison; an element of a list is one of the leaf's values, and a row
 * matches "value op ANY (arr)" only through a non-null element that
 * satisfies "element op value" (an empty or NULL list never does).  "op
 * ALL" is not one of them: it holds for an empty list.
 *
 * The path (field numbers, then at most one list) is resolved against the
 * column's nested plan (fdw/convert/nested.h), whose scalar at the end has
 * the leaf's converter to the field's declared type: statistics decode to
 * exactly the values the scan would compare.  Plan-time pruning has no
 * nested plans and leaves these predicates undecided.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/prune/prune.h"
#include "nodes/nodeFuncs.h"
#include "nodes/primnodes.h"

/* Strip binary-compatible relabelings. */
static Node *
strip_relabel(Node *node)
{
	while (node && IsA(node, RelabelType))
		node = (Node *) ((RelabelType *) node)->arg;
	return node;
}

Var *
pqfdw_prune_field_var(Node *node, Index relid, int16 *fields, int *nfields)
{
	int16		rev[PQ_PRUNE_MAX_STEPS];
	int			n = 0;
	int			i;

	node = strip_relabel(node);
	while (node && IsA(node, FieldSelect))
	{
		FieldSelect *fs = (FieldSelect *) node;

		if (n == PQ_PRUNE_MAX_STEPS || fs->fieldnum <= 0)
			return NULL;
		rev[n++] = fs->fieldnum;
		node = strip_relabel((Node *) fs->arg);
	}
	if (node == NULL || !IsA(node, Var) || ((Var *) node)->varno != relid ||
		((Var *) node)->varattno <= 0 || ((Var *) node)->varlevelsup != 0)
		return NULL;
	/* outermost selection first */
	for (i = 0; i < n; i++)
		fields[i] = rev[n - 1 - i];
	*nfields = n;
	return (Var *) node;
}

/* The scalar plan at the end of p's path from plan, or NULL. */
static PqNestedPlan *
resolve(const PqPrunePred *p, PqNestedPlan *plan)
{
	int			i;

	for (i = 0; i < p->nfields && plan != NULL; i++)
	{
		int			f = p->fields[i] - 1;

		if (plan->kind != PQ_NESTED_COMPOSITE || plan->tupdesc == NULL ||
			f >= plan->tupdesc->natts || plan->att_child[f] < 0)
			return NULL;
		plan = plan->atts[f];
	}
	if (plan != NULL && p->element)
		plan = plan->kind == PQ_NESTED_ARRAY ? plan->elem : NULL;
	if (plan == NULL || plan->kind != PQ_NESTED_SCALAR)
		return NULL;
	/* one list at most, and it must be the path's own */
	if (plan->cv.node->max_rep != (p->element ? 1 : 0) ||
		plan->cv.target_type != p->leaf_type)
		return NULL;
	return plan;
}

void
pqfdw_prune_bind_nested(PqPrunePred *preds, int npreds, AttrNumber attnum,
						PqNestedPlan *plan)
{
	int			i;

	for (i = 0; i < npreds; i++)
	{
		PqPrunePred *p = &preds[i];
		PqNestedPlan *leaf;

		if (p->kind == PQ_PRUNE_OR)
		{
			pqfdw_prune_bind_nested(p->args, p->nargs, attnum, plan);
			continue;
		}
		/* key paths of jsonb columns are bound by json_path.c */
		if (p->attnum != attnum || !PQ_PRED_IS_NESTED(p) || p->njson_keys > 0)
			continue;
		leaf = resolve(p, plan);
		p->nested_cv = leaf ? &leaf->cv : NULL;
		p->nested_leaf = leaf ? leaf->leaf_column : -1;
	}
}
