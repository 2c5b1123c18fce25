/*-------------------------------------------------------------------------
 *
 * statistics.c
 *		Skip row groups whose column statistics prove that no row matches.
 *
 * Quals of the form "column op constant" (op a btree comparison, including
 * <> and = ANY(array)), IS [NOT] NULL and bare boolean columns are checked
 * against each row group's min/max and null count before the row group is
 * read.  The statistics are decoded with the column's own converter, so a
 * bound is compared in the column's declared PostgreSQL type with the
 * btree comparison function of the qual's operator family: cross-type
 * quals (int4 column, int8 constant) are exact.  Pruning is conservative:
 * whenever the statistics cannot be trusted for the comparison (legacy
 * signed-order bounds of strings, NaN in floats, non-C collations for
 * ranges, casts that do not keep order) the row group is read.
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
#include "fdw/prune/prune_method.h"
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

bool		pqfdw_enable_statistics_pruning = true;

static bool range_may_match(PqPrunePred *p, Datum min, Datum max,
							bool max_known, Datum value);


/* Logical types whose statistics must be ignored. */
static bool
stats_ignored(const PqSchemaNode *node)
{
	switch (node->logical.id)
	{
		case PQ_LT_INTERVAL:
		case PQ_LT_GEOMETRY:
		case PQ_LT_GEOGRAPHY:
		case PQ_LT_UNKNOWN:
		case PQ_LT_JSON:
		case PQ_LT_BSON:
		case PQ_LT_VARIANT:
			return true;
	}
	return node->physical_type == PQ_INT96;
}

bool
pqfdw_pred_bounds_may_match(PqPrunePred *p, PqConverter *cv,
							const PqColumnDescr *col, PqBytes lo, PqBytes hi,
							bool nan_free)
{
	Datum		min;
	Datum		max;
	bool		max_known = true;
	int			k;

	if (stats_ignored(col->node) || !pqfdw_stat_converter_keeps_order(cv) ||
		!pqfdw_stat_to_datum(cv, lo, &min) || !pqfdw_stat_to_datum(cv, hi, &max))
		return true;

	if (cv->target_type == FLOAT4OID || cv->target_type == FLOAT8OID)
	{
		double		dmin = cv->target_type == FLOAT4OID ?
		DatumGetFloat4(min) : DatumGetFloat8(min);
		double		dmax = cv->target_type == FLOAT4OID ?
		DatumGetFloat4(max) : DatumGetFloat8(max);

		/* never prune on a NaN bound */
		if (isnan(dmin) || isnan(dmax))
			return true;

		/*
		 * NaN sorts above every number in PostgreSQL, but writers leave NaN
		 * out of the bounds: the upper bound holds only if there is no NaN.
		 */
		if (!nan_free)
			max_known = false;
	}

	for (k = 0; k < p->nvalues; k++)
		if (range_may_match(p, min, max, max_known, p->values[k]))
			return true;
	return false;
}

bool
pqfdw_pred_value_may_match(PqPrunePred *p, Datum value)
{
	int			k;

	for (k = 0; k < p->nvalues; k++)
		if (range_may_match(p, value, value, true, p->values[k]))
			return true;
	return false;
}

/* bound: a value of the column (cast as the clause casts it) */
static int
compare(PqPrunePred *p, Datum bound, Datum value)
{
	if (p->has_cast)
		bound = FunctionCall1(&p->cast, bound);
	return DatumGetInt32(FunctionCall2Coll(&p->cmp, p->collation, bound, value));
}

/* Can some value in [min, max] satisfy "column strategy value"? */
static bool
range_may_match(PqPrunePred *p, Datum min, Datum max, bool max_known,
				Datum value)
{
	switch (p->strategy)
	{
		case BTLessStrategyNumber:
			return compare(p, min, value) < 0;
		case BTLessEqualStrategyNumber:
			return compare(p, min, value) <= 0;
		case BTEqualStrategyNumber:
			return compare(p, min, value) <= 0 &&
				(!max_known || compare(p, max, value) >= 0);
		case BTGreaterEqualStrategyNumber:
			return !max_known || compare(p, max, value) >= 0;
		case BTGreaterStrategyNumber:
			return !max_known || compare(p, max, value) > 0;
		case PQ_STRATEGY_NE:
			return !max_known || compare(p, min, value) != 0 ||
				compare(p, max, value) != 0;
		case PQ_STRATEGY_PREFIX:
			/* value = the prefix; every match lies in [prefix, prefix_end) */
			return (!max_known || compare(p, max, value) >= 0) &&
				(!p->has_prefix_end || compare(p, min, p->prefix_end) < 0);
	}
	return true;
}

bool
pqfdw_pred_range_may_match(PqPrunePred *p, Datum min, bool min_known,
						   Datum max, bool max_known)
{
	int			k;

	if (!min_known && !max_known)
		return true;
	for (k = 0; k < p->nvalues; k++)
	{
		Datum		v = p->values[k];

		if (min_known)
		{
			if (range_may_match(p, min, max, max_known, v))
				return true;
			continue;
		}
		/* only the upper bound: "column >= value" and the like */
		switch (p->strategy)
		{
			case BTEqualStrategyNumber:
			case BTGreaterEqualStrategyNumber:
			case PQ_STRATEGY_PREFIX:
				if (compare(p, max, v) >= 0)
					return true;
				break;
			case BTGreaterStrategyNumber:
				if (compare(p, max, v) > 0)
					return true;
				break;
			default:
				return true;
		}
	}
	return false;
}

/* Can a row of the row group satisfy predicate p? */
static bool
pred_may_match(PqPrunePred *p, const PqFile *file, const PqRowGroup *rg,
			   PqConverter **cvs, const int *leaf)
{
	PqConverter *cv;
	int			c;
	const PqColumnChunk *cc;
	const PqColumnMetaData *cm;
	const PqStatistics *s;
	bool		all_null;
	PqBytes		lo;
	PqBytes		hi;
	int			i;

	if (p->kind == PQ_PRUNE_OR)
	{
		for (i = 0; i < p->nargs; i++)
			if (pred_may_match(&p->args[i], file, rg, cvs, leaf))
				return true;
		return false;
	}
	/* a comparison with NULL (or only NULL array elements) is never true */
	if (p->kind == PQ_PRUNE_COMPARE && p->nvalues == 0)
		return false;

	if (!pqfdw_pred_column(p, cvs, leaf, &cv, &c) ||
		cv->node->max_rep > (p->element ? 1 : 0))
		return true;
	if (p->kind == PQ_PRUNE_BBOX)
		return pqfdw_geo_may_match(p, file, rg, cv, c);
	cc = &rg->columns[c];

	/*
	 * An encrypted column's statistics are in its decrypted metadata (a
	 * plaintext footer has them stripped); the column is read anyway, so its
	 * key is needed regardless.
	 */
	if (cc->crypto_metadata.kind != PQ_CRYPTO_NONE)
		cm = pq_file_chunk_meta(file, rg - file->md.row_groups, c);
	else if (cc->has_meta_data)
		cm = &cc->meta_data;
	else
		return true;
	if (!cm->has_statistics)
		return true;
	s = &cm->statistics;
	all_null = s->has_null_count && cm->num_values > 0 &&
		s->null_count == cm->num_values;

	switch (p->kind)
	{
		case PQ_PRUNE_IS_NULL:
			return !(s->has_null_count && s->null_count == 0);
		case PQ_PRUNE_IS_NOT_NULL:
			return !all_null;
		default:
			break;
	}

	/* comparisons never match NULL */
	if (all_null)
		return false;
	if (!pqfdw_chunk_stat_bytes(&file->schema->columns[c], s, &lo, &hi))
		return true;
	return pqfdw_pred_bounds_may_match(p, cv, &file->schema->columns[c], lo, hi,
									   s->has_nan_count && s->nan_count == 0);
}

bool
pqfdw_chunk_bounds(const PqFile *file, int row_group, int c, PqConverter *cv,
				   Datum *min, Datum *max, double *null_fraction)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[c];
	const PqColumnDescr *col = &file->schema->columns[c];
	const PqColumnMetaData *cm;
	const PqStatistics *s;
	PqBytes		lo;
	PqBytes		hi;

	*null_fraction = 0.0;
	if (cc->crypto_metadata.kind != PQ_CRYPTO_NONE)
		cm = pq_file_chunk_meta(file, row_group, c);
	else if (cc->has_meta_data)
		cm = &cc->meta_data;
	else
		return false;
	if (!cm->has_statistics || cm->num_values <= 0)
		return false;
	s = &cm->statistics;
	*null_fraction = s->has_null_count ?
		Min(1.0, (double) s->null_count / cm->num_values) : 0.0;
	return !stats_ignored(col->node) && pqfdw_stat_converter_keeps_order(cv) &&
		pqfdw_chunk_stat_bytes(col, s, &lo, &hi) &&
		pqfdw_stat_to_datum(cv, lo, min) && pqfdw_stat_to_datum(cv, hi, max);
}

bool
pqfdw_row_group_may_match(PqPrunePred *preds, int npreds, const PqFile *file,
						  int row_group, PqConverter **cvs, const int *leaf)
{
	const PqRowGroup *rg = &file->md.row_groups[row_group];
	int			i;

	for (i = 0; i < npreds; i++)
		if (!pred_may_match(&preds[i], file, rg, cvs, leaf))
			return false;
	return true;
}

static bool
statistics_exclude(PqPruner *pr, int i, const PqPruneTarget *t, void *arg)
{
	return !pred_may_match(&pr->preds[i], t->file,
						   &t->file->md.row_groups[t->row_group],
						   t->att_cv, t->att_leaf);
}

static void
statistics_check(PqPruner *pr, const PqPruneTarget *t, PqPruneMethodState *ms,
				 PqPruneVerdict *v)
{
	pqfdw_prune_by_predicate(pr, t, statistics_exclude, NULL, v);
}

const PqPruneMethod pqfdw_prune_statistics = {
	.explain = "Row Groups Pruned by Statistics",
	.guc = "parquet_fdw.enable_statistics_pruning",
	.guc_description = "Skips row groups whose column statistics rule out every row.",
	.enabled = &pqfdw_enable_statistics_pruning,
	.check = statistics_check,
};
