/*-------------------------------------------------------------------------
 *
 * by_predicate.c
 *		For pruning methods that decide predicate by predicate (statistics,
 *		Bloom filters): whether a predicate excludes the row group, and the
 *		kinds of leaves the excluding ones read, for EXPLAIN ANALYZE's
 *		"Row Groups Pruned by Nested Fields / Bounding Box / Variant
 *		Fields": of the row groups a method pruned, those a predicate of
 *		that kind excluded by itself.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/prune/prune_method.h"

static uint32
leaf_kind(const PqPrunePred *p)
{
	if (p->kind == PQ_PRUNE_BBOX)
		return PQ_PRED_BBOX;
	if (p->kind == PQ_PRUNE_COMPARE && PQ_PRED_IS_NESTED(p))
		return p->json_variant ? PQ_PRED_VARIANT : PQ_PRED_NESTED;
	return 0;
}

/* A predicate of one kind, or an OR of nothing but predicates of it. */
uint32
pqfdw_pred_kind(const PqPrunePred *p)
{
	uint32		kind = 0;
	int			i;

	if (p->kind != PQ_PRUNE_OR)
		return leaf_kind(p);
	for (i = 0; i < p->nargs; i++)
	{
		uint32		k = pqfdw_pred_kind(&p->args[i]);

		if (k == 0 || (i > 0 && k != kind))
			return 0;
		kind = k;
	}
	return kind;
}

void
pqfdw_prune_by_predicate(PqPruner *pr, const PqPruneTarget *t,
						 bool (*excludes) (PqPruner *pr, int i,
										   const PqPruneTarget *t, void *arg),
						 void *arg, PqPruneVerdict *v)
{
	int			i;

	for (i = 0; i < pr->npreds; i++)
	{
		uint32		kind = pr->pred_kinds[i];

		/* excluded already: only a kind not yet found is worth asking */
		if (!v->may_match && (kind == 0 || (v->kinds & kind)))
			continue;
		if (excludes(pr, i, t, arg))
		{
			v->may_match = false;
			v->kinds |= kind;
		}
	}
}
