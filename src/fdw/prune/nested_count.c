/*-------------------------------------------------------------------------
 *
 * nested_count.c
 *		EXPLAIN ANALYZE's "Row Groups Pruned by Nested Fields": of the row
 *		groups statistics or Bloom filters pruned, those that a top-level
 *		qual on struct fields or list elements (nested_path.c, json_path.c)
 *		excludes by itself; "by Variant Fields" the same for quals on
 *		shredded VARIANT fields (json_path.c).
 *
 * Checked only for row groups already pruned, so a scan that prunes
 * nothing pays nothing; a Bloom filter is read again for the check.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/prune/bloom.h"
#include "fdw/prune/prune.h"

/* A nested comparison (of the kind variant), or an OR of nothing else. */
static bool
all_nested(const PqPrunePred *p, bool variant)
{
	int			i;

	if (p->kind == PQ_PRUNE_OR)
	{
		for (i = 0; i < p->nargs; i++)
			if (!all_nested(&p->args[i], variant))
				return false;
		return p->nargs > 0;
	}
	return p->kind == PQ_PRUNE_COMPARE && PQ_PRED_IS_NESTED(p) &&
		p->json_variant == variant;
}

bool
pqfdw_prune_has_nested(const PqPrunePred *preds, int npreds, bool variant)
{
	int			i;

	for (i = 0; i < npreds; i++)
		if (all_nested(&preds[i], variant))
			return true;
	return false;
}

bool
pqfdw_nested_preds_exclude(PqPrunePred *preds, int npreds,
						   const PqBloomProbe *probes, PqFile *file,
						   int row_group, bool variant)
{
	int			i;

	for (i = 0; i < npreds; i++)
	{
		PqPrunePred *p = &preds[i];

		/* a nested predicate reads no per-attribute converter or leaf */
		if (!all_nested(p, variant))
			continue;
		if (probes == NULL ?
			!pqfdw_row_group_may_match(p, 1, file, row_group, NULL, NULL) :
			!pqfdw_row_group_bloom_may_match(p, &probes[i], 1, file,
											 row_group, NULL))
			return true;
	}
	return false;
}
