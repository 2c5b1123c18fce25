/*-------------------------------------------------------------------------
 *
 * nested_count.c
 *		EXPLAIN ANALYZE's "Row Groups Pruned by Nested Fields": of the row
 *		groups statistics or Bloom filters pruned, those that a top-level
 *		qual on struct fields or list elements (nested_path.c) excludes by
 *		itself.
 *
 * Checked only for row groups already pruned, so a scan that prunes
 * nothing pays nothing; a Bloom filter is read again for the check.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/prune/bloom.h"
#include "fdw/prune/prune.h"

/* A nested comparison, or an OR of nothing else. */
static bool
all_nested(const PqPrunePred *p)
{
	int			i;

	if (p->kind == PQ_PRUNE_OR)
	{
		for (i = 0; i < p->nargs; i++)
			if (!all_nested(&p->args[i]))
				return false;
		return p->nargs > 0;
	}
	return p->kind == PQ_PRUNE_COMPARE && PQ_PRED_IS_NESTED(p);
}

bool
pqfdw_prune_has_nested(const PqPrunePred *preds, int npreds)
{
	int			i;

	for (i = 0; i < npreds; i++)
		if (all_nested(&preds[i]))
			return true;
	return false;
}

bool
pqfdw_nested_preds_exclude(PqPrunePred *preds, int npreds,
						   const PqBloomProbe *probes, PqFile *file,
						   int row_group)
{
	int			i;

	for (i = 0; i < npreds; i++)
	{
		PqPrunePred *p = &preds[i];

		/* a nested predicate reads no per-attribute converter or leaf */
		if (!all_nested(p))
			continue;
		if (probes == NULL ?
			!pqfdw_row_group_may_match(p, 1, file, row_group, NULL, NULL) :
			!pqfdw_row_group_bloom_may_match(p, &probes[i], 1, file,
											 row_group, NULL))
			return true;
	}
	return false;
}
