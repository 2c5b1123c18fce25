/*-------------------------------------------------------------------------
 *
 * pages.c
 *		Page-level pruning: which rows of a row group can match, from the
 *		ColumnIndex (per-page bounds, null flags, null counts) of the
 *		predicate columns and their OffsetIndex (first row of each page).
 *
 * Each predicate keeps the pages of its column that may hold a matching
 * row; those pages' rows form its row ranges.  AND intersects the ranges of
 * the predicates, OR unites those of its branches.  Since pages of
 * different columns start at different rows, the result is in rows, and
 * the scan aligns it with each projected column's own pages.
 *
 * When boundary_order says the page bounds are sorted, the pages that can
 * hold a value are found by binary search; the pages in between are then
 * tested one by one, so the result is the one a test of every page gives.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/prune/pages.h"
#include "fdw/prune/prune_method.h"
#include "utils/memutils.h"

bool		pqfdw_enable_page_index_pruning = true;

/* The page index of one column chunk, read once per row group. */
typedef struct PageIndexEntry
{
	int			column;
	bool		usable;			/* flat column with both indexes */
	bool		used;			/* some predicate used it */
	PqOffsetIndex oi;
	PqColumnIndex ci;
} PageIndexEntry;

typedef struct PagePruneState
{
	PqFile	   *file;
	int			row_group;
	int64		num_rows;
	PqConverter **cvs;
	const int  *leaf;
	PageIndexEntry *entries;	/* one per distinct predicate column */
	int			nentries;
} PagePruneState;

static PageIndexEntry *
page_index_entry(PagePruneState *st, int column)
{
	PageIndexEntry *e;
	int			i;

	for (i = 0; i < st->nentries; i++)
		if (st->entries[i].column == column)
			return &st->entries[i];
	e = &st->entries[st->nentries++];
	e->column = column;
	e->used = false;
	e->usable = st->file->schema->columns[column].max_rep == 0 &&
		pq_offset_index_read(st->file, st->row_group, column, &e->oi) &&
		pq_column_index_read(st->file, st->row_group, column, &e->oi, &e->ci);
	return e;
}

/*
 * Page bounds are in the column's sort order when it is type-defined, or,
 * for files that do not say, when signed byte order is the type's order
 * (as for chunk statistics in statistics.c).
 */
static bool
page_bounds_usable(const PqColumnDescr *col)
{
	if (col->column_order == PQ_ORDER_TYPE_DEFINED)
		return true;
	return col->column_order == PQ_ORDER_UNKNOWN &&
		pqfdw_signed_order_is_type_order(col->node);
}

/* May page i hold a row satisfying the leaf predicate p? */
static bool
page_may_match(PqPrunePred *p, PqConverter *cv, const PqColumnDescr *col,
			   const PqColumnIndex *ci, bool bounds_usable, int i)
{
	switch (p->kind)
	{
		case PQ_PRUNE_IS_NULL:
			return ci->null_pages[i] || ci->null_counts == NULL ||
				ci->null_counts[i] > 0;
		case PQ_PRUNE_IS_NOT_NULL:
			return !ci->null_pages[i];
		default:
			/* comparisons never match NULL; bounds of null pages are empty */
			if (ci->null_pages[i])
				return false;
			return !bounds_usable ||
				pqfdw_pred_bounds_may_match(p, cv, col, ci->min_values[i],
											ci->max_values[i],
											ci->nan_counts != NULL &&
											ci->nan_counts[i] == 0);
	}
}

/*
 * Mark in cand the non-null pages nn[first..last] that may hold value k of
 * p, found by binary search in bounds sorted as order says.
 *
 * The bounds of pages nn[0..j] together are [min(nn[0]), max(nn[j])] when
 * ascending ([min(nn[j]), max(nn[0])] descending) and grow with j; those of
 * nn[j..] shrink with j.  A page that may match lies in both, so the pages
 * that may match are between the first j whose prefix may match and the
 * last j whose suffix may.
 */
static void
mark_candidates(PqPrunePred *p, int k, PqConverter *cv,
				const PqColumnDescr *col, const PqColumnIndex *ci,
				const int *nn, int n, bool *cand)
{
	bool		asc = ci->boundary_order == PQ_BOUNDARY_ASCENDING;
	PqPrunePred one = *p;		/* p restricted to value k */
	int			lo;
	int			hi;
	int			first;
	int			j;

	one.values = &p->values[k];
	one.nvalues = 1;

	/* first j whose prefix may match */
	lo = 0;
	hi = n;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		bool		m = asc ?
		pqfdw_pred_bounds_may_match(&one, cv, col, ci->min_values[nn[0]],
									ci->max_values[nn[mid]], false) :
		pqfdw_pred_bounds_may_match(&one, cv, col, ci->min_values[nn[mid]],
									ci->max_values[nn[0]], false);

		if (m)
			hi = mid;
		else
			lo = mid + 1;
	}
	first = lo;

	/* one past the last j whose suffix may match */
	lo = first;
	hi = n;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		bool		m = asc ?
		pqfdw_pred_bounds_may_match(&one, cv, col, ci->min_values[nn[mid]],
									ci->max_values[nn[n - 1]], false) :
		pqfdw_pred_bounds_may_match(&one, cv, col, ci->min_values[nn[n - 1]],
									ci->max_values[nn[mid]], false);

		if (m)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (j = first; j < lo; j++)
		cand[nn[j]] = true;
}

/*
 * Set keep[i] for the pages of the column that may hold a row satisfying
 * the leaf predicate p.
 */
static void
pages_may_match(PqPrunePred *p, PqConverter *cv, const PqColumnDescr *col,
				const PqColumnIndex *ci, int npages, bool *keep)
{
	bool		bounds_usable = page_bounds_usable(col);
	bool	   *cand;
	int		   *nn;
	int			n = 0;
	int			i;
	int			k;

	/*
	 * Binary search needs bounds that convert monotonically: floats may carry
	 * NaN bounds anywhere, which are never pruned on.
	 */
	if (p->kind != PQ_PRUNE_COMPARE || !bounds_usable ||
		ci->boundary_order == PQ_BOUNDARY_UNORDERED ||
		cv->target_type == FLOAT4OID || cv->target_type == FLOAT8OID)
	{
		for (i = 0; i < npages; i++)
			keep[i] = page_may_match(p, cv, col, ci, bounds_usable, i);
		return;
	}

	/* bounds of null pages are not in the order */
	nn = palloc(sizeof(int) * npages);
	for (i = 0; i < npages; i++)
		if (!ci->null_pages[i])
			nn[n++] = i;
	cand = palloc0(sizeof(bool) * npages);
	if (n > 0)
		for (k = 0; k < p->nvalues; k++)
			mark_candidates(p, k, cv, col, ci, nn, n, cand);
	for (i = 0; i < npages; i++)
		keep[i] = cand[i] && page_may_match(p, cv, col, ci, true, i);
	pfree(nn);
	pfree(cand);
}

/*
 * Rows that may satisfy p, in *ranges (*n of them); false when the page
 * index cannot tell (every row may).
 */
static bool
pred_ranges(PagePruneState *st, PqPrunePred *p, PqRowRange **ranges, int *n)
{
	PqConverter *cv;
	int			c;
	PageIndexEntry *e;
	bool	   *keep;
	int			i;

	if (p->kind == PQ_PRUNE_OR)
	{
		*ranges = palloc(sizeof(PqRowRange));
		*n = 0;
		for (i = 0; i < p->nargs; i++)
		{
			PqRowRange *r;
			int			nr;

			if (!pred_ranges(st, &p->args[i], &r, &nr))
				return false;
			*ranges = pq_row_ranges_union(*ranges, *n, r, nr, n);
		}
		return true;
	}
	/* a comparison with NULL (or only NULL array elements) is never true */
	if (p->kind == PQ_PRUNE_COMPARE && p->nvalues == 0)
	{
		*ranges = palloc(sizeof(PqRowRange));
		*n = 0;
		return true;
	}

	/* a bounding box is no byte range (geo_bbox.c) */
	if (p->kind == PQ_PRUNE_BBOX ||
		!pqfdw_pred_column(p, st->cvs, st->leaf, &cv, &c))
		return false;
	e = page_index_entry(st, c);
	if (!e->usable)
		return false;
	e->used = true;
	keep = palloc(sizeof(bool) * Max(e->oi.n_page_locations, 1));
	pages_may_match(p, cv, &st->file->schema->columns[c], &e->ci,
					e->oi.n_page_locations, keep);
	*ranges = pq_page_row_ranges(&e->oi, st->num_rows, keep, n);
	pfree(keep);
	return true;
}

/* Pages of oi that hold none of the rows in ranges (sorted). */
static int64
pages_outside(const PqOffsetIndex *oi, int64 num_rows,
			  const PqRowRange *ranges, int nranges)
{
	int64		outside = 0;
	int			k = 0;
	int			i;

	for (i = 0; i < oi->n_page_locations; i++)
	{
		int64		first = oi->page_locations[i].first_row_index;
		int64		end = pq_page_end_row(oi, i, num_rows);

		while (k < nranges && ranges[k].end <= first)
			k++;
		if (!(k < nranges && ranges[k].start < end && first < end))
			outside++;
	}
	return outside;
}

PqRowRange *
pqfdw_page_ranges(PqPrunePred *preds, int npreds, PqFile *file, int row_group,
				  PqConverter **cvs, const int *leaf, int *nranges,
				  int64 *pages_total, int64 *pages_pruned)
{
	PagePruneState st;
	PqRowRange *result = NULL;
	int			n = 0;
	int			i;

	st.file = file;
	st.row_group = row_group;
	st.num_rows = file->md.row_groups[row_group].num_rows;
	st.cvs = cvs;
	st.leaf = leaf;
	st.entries = palloc(sizeof(PageIndexEntry) * Max(file->schema->n_columns, 1));
	st.nentries = 0;

	for (i = 0; i < npreds; i++)
	{
		PqRowRange *r;
		int			nr;

		if (!pred_ranges(&st, &preds[i], &r, &nr))
			continue;
		if (result == NULL)
		{
			result = r;
			n = nr;
		}
		else
			result = pq_row_ranges_intersect(result, n, r, nr, &n);
	}

	for (i = 0; i < st.nentries; i++)
	{
		PageIndexEntry *e = &st.entries[i];

		if (!e->used)
			continue;
		*pages_total += e->oi.n_page_locations;
		if (result != NULL)
			*pages_pruned += pages_outside(&e->oi, st.num_rows, result, n);
	}

	if (result != NULL && pq_row_ranges_rows(result, n) == st.num_rows)
		result = NULL;
	*nranges = result ? n : 0;
	return result;
}

/* The ranges live as long as the row group. */
static void
page_index_check(PqPruner *pr, const PqPruneTarget *t, PqPruneMethodState *ms,
				 PqPruneVerdict *v)
{
	MemoryContext old = MemoryContextSwitchTo(t->rg_cxt);

	v->ranges = pqfdw_page_ranges(pr->preds, pr->npreds, t->file,
								  t->row_group, t->att_cv, t->att_leaf,
								  &v->nranges, &v->pages_total,
								  &v->pages_pruned);
	MemoryContextSwitchTo(old);
	v->may_match = !(v->ranges != NULL && v->nranges == 0);
}

const PqPruneMethod pqfdw_prune_page_index = {
	.explain = "Row Groups Pruned by Page Index",
	.narrows = true,
	.guc = "parquet_fdw.enable_page_index_pruning",
	.guc_description = "Reads only the pages whose page index says they may hold matching rows.",
	.enabled = &pqfdw_enable_page_index_pruning,
	.check = page_index_check,
};
