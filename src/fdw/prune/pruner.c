/*-------------------------------------------------------------------------
 *
 * pruner.c
 *		Row group pruning, one entry point: the methods of the table below
 *		run in order on each row group the table reader enters, each only
 *		if the ones before left it in, cheapest first (statistics are in
 *		the footer; Bloom filters, dictionaries and page indexes are
 *		reads).  The page index narrows a row group to row ranges.
 *
 * The values the predicates compare with (constants, parameters of
 * prepared statements, initplans) are evaluated at the first row group of
 * each (re)scan, not at plan start, so that initplans run only when the
 * scan does.  The counters say what each method left out; EXPLAIN reads
 * them and never prunes again.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"
#include "fdw/common/pg_compat.h"	/* commands/explain.h and its 18 parts */
#include "fdw/prune/pages.h"
#include "fdw/prune/prune_method.h"
#include "nodes/nodeFuncs.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* Adding a method: its file, and its line here. */
static const PqPruneMethod *const methods[] = {
	&pqfdw_prune_statistics,
	&pqfdw_prune_bloom,
	&pqfdw_prune_dictionary,
	&pqfdw_prune_page_index,
};

StaticAssertDecl(lengthof(methods) <= PQ_PRUNE_MAX_METHODS,
				 "more pruning methods than counters");

void
pqfdw_pruner_define_gucs(void)
{
	int			i;

	for (i = 0; i < lengthof(methods); i++)
		DefineCustomBoolVariable(methods[i]->guc, methods[i]->guc_description,
								 NULL, methods[i]->enabled, true, PGC_USERSET,
								 0, NULL, NULL, NULL);
}

/*
 * The predicates' kinds: a key path learns that it goes into a VARIANT when
 * it is bound to a file's leaves, so after each binding.
 */
static void
set_kinds(PqPruner *pr)
{
	int			i;

	pr->kinds = 0;
	for (i = 0; i < pr->npreds; i++)
	{
		pr->pred_kinds[i] = pqfdw_pred_kind(&pr->preds[i]);
		pr->kinds |= pr->pred_kinds[i];
	}
}

PqPruner *
pqfdw_pruner_create(List *clauses, Index relid, List *value_exprs,
					PlanState *ps, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	PqPruner   *pr = palloc0(sizeof(PqPruner));

	pr->preds = pqfdw_prune_init(clauses, relid, &pr->npreds);
	pr->pred_kinds = palloc0(sizeof(uint32) * Max(pr->npreds, 1));
	set_kinds(pr);
	pr->value_states = ExecInitExprList(value_exprs, ps);
	pr->econtext = ps->ps_ExprContext;
	pr->value_cxt = AllocSetContextCreate(cxt, "parquet_fdw params",
										  ALLOCSET_SMALL_SIZES);
	pr->stats_file = -1;
	MemoryContextSwitchTo(old);
	return pr;
}

void
pqfdw_pruner_rescan(PqPruner *pr)
{
	pr->values_ready = false;
	pr->stats_file = -1;
}

bool
pqfdw_pruner_active(const PqPruner *pr)
{
	return pr->npreds > 0 || pr->bound != NULL;
}

void
pqfdw_pruner_bind_column(PqPruner *pr, AttrNumber attnum,
						 const PqNestedColumn *nc, bool missing, int row_group,
						 MemoryContext cxt)
{
	pqfdw_prune_bind_nested(pr->preds, pr->npreds, attnum, nc->plan);
	pqfdw_prune_bind_json(pr->preds, pr->npreds, attnum, missing ? NULL : nc,
						  row_group, cxt);
	pr->kinds_stale = true;
}

/* The values of this (re)scan into the predicates; method states anew. */
static void
evaluate_values(PqPruner *pr)
{
	ExprContext *econtext = pr->econtext;
	int			n = list_length(pr->value_states);
	Datum	   *values;
	bool	   *isnull;
	ListCell   *lc;
	int			i = 0;
	MemoryContext old;

	MemoryContextReset(pr->value_cxt);
	old = MemoryContextSwitchTo(pr->value_cxt);
	values = palloc(sizeof(Datum) * Max(n, 1));
	isnull = palloc(sizeof(bool) * Max(n, 1));
	foreach(lc, pr->value_states)
	{
		ExprState  *es = (ExprState *) lfirst(lc);
		Oid			type = exprType((Node *) es->expr);
		int16		typlen;
		bool		typbyval;
		Datum		v;

		MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
		v = ExecEvalExpr(es, econtext, &isnull[i]);
		MemoryContextSwitchTo(pr->value_cxt);
		get_typlenbyval(type, &typlen, &typbyval);
		values[i] = isnull[i] ? (Datum) 0 : datumCopy(v, typbyval, typlen);
		i++;
	}
	pqfdw_prune_set_values(pr->preds, pr->npreds, values, isnull);
	MemoryContextSwitchTo(old);
	ResetExprContext(econtext);
	memset(pr->method_state, 0, sizeof(pr->method_state));
	for (i = 0; i < PQ_PRUNE_MAX_METHODS; i++)
		pr->method_state[i].file = -1;
	pr->values_ready = true;
}

/*
 * Files Pruned by Statistics: a file all of whose row groups the
 * statistics excluded, counted at its last row group (not for workers,
 * who see row groups of many files in any order).
 */
static void
count_file(PqPruner *pr, const PqPruneTarget *t, bool kept)
{
	if (t->parallel)
		return;
	if (pr->stats_file != t->file_index)
	{
		pr->stats_file = t->file_index;
		pr->stats_file_kept = false;
	}
	pr->stats_file_kept |= kept;
	if (t->row_group == t->file->md.n_row_groups - 1 && !pr->stats_file_kept)
		pr->files_pruned++;
}

/* The quals' methods, in order; *ranges as the page index leaves them. */
static bool
prune_by_quals(PqPruner *pr, const PqPruneTarget *t, PqRowRange **ranges,
			   int *nranges)
{
	int64		weight = t->counted ? 1 : 0;
	int64		bytes_before = t->file->src->bytes_read;
	bool		match = true;
	int			i;

	if (!pr->values_ready)
		evaluate_values(pr);
	for (i = 0; i < lengthof(methods) && match; i++)
	{
		const PqPruneMethod *m = methods[i];
		PqPruneVerdict v = {.may_match = true};

		if (*m->enabled)
		{
			MemoryContext old = MemoryContextSwitchTo(t->tmp_cxt);

			m->check(pr, t, &pr->method_state[i], &v);
			MemoryContextSwitchTo(old);
			pr->counts[PQ_PRUNE_PAGES_TOTAL] += v.pages_total * weight;
			pr->counts[PQ_PRUNE_PAGES_PRUNED] += v.pages_pruned * weight;
			if (v.ranges != NULL)
			{
				*ranges = v.ranges;
				*nranges = v.nranges;
			}
			if (!v.may_match)
			{
				pr->counts[PQ_PRUNED_BY_METHOD + i] += weight;
				if (v.kinds & PQ_PRED_NESTED)
					pr->counts[PQ_PRUNED_NESTED] += weight;
				if (v.kinds & PQ_PRED_BBOX)
					pr->counts[PQ_PRUNED_BBOX] += weight;
				if (v.kinds & PQ_PRED_VARIANT)
					pr->counts[PQ_PRUNED_VARIANT] += weight;
				match = false;
			}
		}
		if (m == &pqfdw_prune_statistics)
			count_file(pr, t, match);
	}
	pr->counts[PQ_PRUNE_BYTES_READ] += t->file->src->bytes_read - bytes_before;
	return match;
}

/* The bound against the statistics: false when no row can pass it. */
static bool
bound_may_match(PqPruner *pr, const PqPruneTarget *t)
{
	return pqfdw_row_group_may_match(pr->bound, 1, t->file, t->row_group,
									 t->att_cv, t->att_leaf);
}

/* The bound against the page index, within *ranges. */
static bool
bound_narrow(PqPruner *pr, const PqPruneTarget *t, PqRowRange **ranges,
			 int *nranges)
{
	int64		num_rows = t->file->md.row_groups[t->row_group].num_rows;
	int64		before = *ranges ? pq_row_ranges_rows(*ranges, *nranges) :
	num_rows;
	int64		pages_total = 0;
	int64		pages_pruned = 0;
	PqRowRange *r;
	int			nr = 0;
	MemoryContext old = MemoryContextSwitchTo(t->rg_cxt);

	r = pqfdw_page_ranges(pr->bound, 1, t->file, t->row_group, t->att_cv,
						  t->att_leaf, &nr, &pages_total, &pages_pruned);
	if (r != NULL && *ranges != NULL)
		r = pq_row_ranges_intersect(*ranges, *nranges, r, nr, &nr);
	MemoryContextSwitchTo(old);
	if (r == NULL)
		return true;
	*ranges = r;
	*nranges = nr;
	pr->bound_rows += before - pq_row_ranges_rows(r, nr);
	return nr > 0;
}

bool
pqfdw_prune_row_group(PqPruner *pr, const PqPruneTarget *t,
					  PqRowRange **ranges, int *nranges)
{
	/* the bound decides with the statistics, or not at all */
	bool		bound = pr->bound != NULL && pqfdw_enable_statistics_pruning;

	*ranges = NULL;
	*nranges = 0;
	if (pr->kinds_stale)
	{
		set_kinds(pr);
		pr->kinds_stale = false;
	}
	if (bound && !bound_may_match(pr, t))
	{
		pr->bound_row_groups++;
		return false;
	}
	if (pr->npreds > 0 && !prune_by_quals(pr, t, ranges, nranges))
		return false;
	if (bound && pqfdw_enable_page_index_pruning &&
		!bound_narrow(pr, t, ranges, nranges))
	{
		pr->bound_row_groups++;
		return false;
	}
	return true;
}

bool
pqfdw_pruner_peek(PqPruner *pr, const PqPruneTarget *t)
{
	PqPruneVerdict v = {.may_match = true};
	int			i;

	if (!pqfdw_enable_statistics_pruning)
		return true;
	if (pr->bound != NULL && !bound_may_match(pr, t))
		return false;
	if (pr->npreds == 0)
		return true;
	if (pr->kinds_stale)
	{
		set_kinds(pr);
		pr->kinds_stale = false;
	}
	if (pr->kinds & (PQ_PRED_NESTED | PQ_PRED_VARIANT))
		return true;
	if (!pr->values_ready)
		evaluate_values(pr);
	for (i = 0; i < lengthof(methods); i++)
		if (methods[i] == &pqfdw_prune_statistics)
		{
			MemoryContext old = MemoryContextSwitchTo(t->tmp_cxt);

			methods[i]->check(pr, t, &pr->method_state[i], &v);
			MemoryContextSwitchTo(old);
		}
	return v.may_match;
}

void
pqfdw_pruner_set_bound(PqPruner *pr, PqPrunePred *bound)
{
	pr->bound = bound;
}

void
pqfdw_pruner_bound_counts(const PqPruner *pr, int64 *row_groups, int64 *rows)
{
	*row_groups = pr->bound_row_groups;
	*rows = pr->bound_rows;
}

const int64 *
pqfdw_pruner_counts(const PqPruner *pr)
{
	return pr->counts;
}

int64
pqfdw_pruner_files_pruned(const PqPruner *pr)
{
	return pr->files_pruned;
}

void
pqfdw_pruner_explain(const PqPruner *pr, const int64 *counts, ExplainState *es)
{
	int			i;

	for (i = 0; i < lengthof(methods); i++)
		if (!methods[i]->narrows)
			ExplainPropertyInteger(methods[i]->explain, NULL,
								   counts[PQ_PRUNED_BY_METHOD + i], es);
	/* of the above, by quals on struct fields and list elements ... */
	if (pr->kinds & PQ_PRED_NESTED)
		ExplainPropertyInteger("Row Groups Pruned by Nested Fields",
							   NULL, counts[PQ_PRUNED_NESTED], es);
	/* ... on a geometry's bounding box */
	if (pr->kinds & PQ_PRED_BBOX)
		ExplainPropertyInteger("Row Groups Pruned by Bounding Box",
							   NULL, counts[PQ_PRUNED_BBOX], es);
	/* ... and on shredded VARIANT fields */
	if (pr->kinds & PQ_PRED_VARIANT)
		ExplainPropertyInteger("Row Groups Pruned by Variant Fields",
							   NULL, counts[PQ_PRUNED_VARIANT], es);
	/* only files with a page index that a qual could use */
	if (counts[PQ_PRUNE_PAGES_TOTAL] > 0)
	{
		for (i = 0; i < lengthof(methods); i++)
			if (methods[i]->narrows)
				ExplainPropertyInteger(methods[i]->explain, NULL,
									   counts[PQ_PRUNED_BY_METHOD + i], es);
		ExplainPropertyInteger("Pages Total", NULL,
							   counts[PQ_PRUNE_PAGES_TOTAL], es);
		ExplainPropertyInteger("Pages Pruned by Page Index", NULL,
							   counts[PQ_PRUNE_PAGES_PRUNED], es);
	}
}
