/*-------------------------------------------------------------------------
 *
 * group_top_n.c
 *		The best groups of a grouped scan (group_top_n.h): a max-heap of
 *		LIMIT + OFFSET formed groups, the worst kept at its root, compared
 *		with PostgreSQL's SortSupport for each key's ordering operator and
 *		collation, NULLs first or last as the query asks.
 *
 * A group is formed (every aggregate finished) only when its sort keys
 * beat the root, so a million groups cost a million sort key values and
 * a few formed groups, not a million tuples through a Sort.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/pushdown/group_top_n.h"
#include "nodes/value.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/sortsupport.h"

typedef struct TopGroup
{
	Datum	   *values;
	bool	   *isnull;
} TopGroup;

struct PqGroupTopN
{
	int64		count;
	int64		offset;
	int			nkeys;
	int		   *cols;
	SortSupport ssup;
	TupleDesc	desc;
	MemoryContext cxt;
	int			cap;			/* count + offset */
	int			n;
	TopGroup   *heap;
	int			next;			/* after finish: the next to return */
};

/* The sort order of two groups' keys: < 0 when a comes first. */
static int
compare(const PqGroupTopN *t, const Datum *av, const bool *an,
		const Datum *bv, const bool *bn)
{
	int			k;

	for (k = 0; k < t->nkeys; k++)
	{
		int			c = t->cols[k];
		int			r = ApplySortComparator(av[c], an[c], bv[c], bn[c],
											&t->ssup[k]);

		if (r != 0)
			return r;
	}
	return 0;
}

PqGroupTopN *
pqfdw_group_top_n_create(List *spec, TupleDesc desc, MemoryContext cxt)
{
	PqGroupTopN *t = MemoryContextAllocZero(cxt, sizeof(PqGroupTopN));
	List	   *keys = lthird(spec);
	ListCell   *lc;
	int			k = 0;

	t->count = intVal(linitial(spec));
	t->offset = intVal(lsecond(spec));
	t->cap = (int) (t->count + t->offset);
	t->nkeys = list_length(keys);
	t->cols = MemoryContextAlloc(cxt, sizeof(int) * t->nkeys);
	t->ssup = MemoryContextAllocZero(cxt, sizeof(SortSupportData) * t->nkeys);
	t->desc = desc;
	t->cxt = cxt;
	t->heap = MemoryContextAllocZero(cxt, sizeof(TopGroup) * Max(t->cap, 1));
	foreach(lc, keys)
	{
		List	   *key = lfirst(lc);

		t->cols[k] = linitial_int(key);
		t->ssup[k].ssup_cxt = cxt;
		t->ssup[k].ssup_collation = lthird_int(key);
		t->ssup[k].ssup_nulls_first = lfourth_int(key) != 0;
		PrepareSortSupportFromOrderingOp(lsecond_int(key), &t->ssup[k]);
		k++;
	}
	return t;
}

const int  *
pqfdw_group_top_n_columns(PqGroupTopN *t, int *nkeys)
{
	*nkeys = t->nkeys;
	return t->cols;
}

static inline int
compare_groups(const PqGroupTopN *t, int a, int b)
{
	return compare(t, t->heap[a].values, t->heap[a].isnull,
				   t->heap[b].values, t->heap[b].isnull);
}

static void
swap(PqGroupTopN *t, int a, int b)
{
	TopGroup	x = t->heap[a];

	t->heap[a] = t->heap[b];
	t->heap[b] = x;
}

/* Restore the heap (the worst at 0) below i. */
static void
sift_down(PqGroupTopN *t, int i)
{
	for (;;)
	{
		int			l = 2 * i + 1;
		int			worst = i;

		if (l < t->n && compare_groups(t, l, worst) > 0)
			worst = l;
		if (l + 1 < t->n && compare_groups(t, l + 1, worst) > 0)
			worst = l + 1;
		if (worst == i)
			return;
		swap(t, i, worst);
		i = worst;
	}
}

bool
pqfdw_group_top_n_wants(PqGroupTopN *t, const Datum *values,
						const bool *isnull)
{
	if (t->cap == 0)
		return false;
	if (t->n < t->cap)
		return true;
	return compare(t, values, isnull, t->heap[0].values,
				   t->heap[0].isnull) < 0;
}

/* A copy of the group's columns in the top-N's context. */
static void
copy_group(PqGroupTopN *t, TopGroup *g, const Datum *values,
		   const bool *isnull)
{
	int			natts = t->desc->natts;
	int			i;

	if (g->values == NULL)
	{
		g->values = MemoryContextAlloc(t->cxt, sizeof(Datum) * natts);
		g->isnull = MemoryContextAlloc(t->cxt, sizeof(bool) * natts);
	}
	for (i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(t->desc, i);

		g->isnull[i] = isnull[i];
		g->values[i] = isnull[i] ? (Datum) 0 :
			datumCopy(values[i], att->attbyval, att->attlen);
	}
}

/* Free what copy_group copied (the arrays stay for the next group). */
static void
free_group(PqGroupTopN *t, TopGroup *g)
{
	int			i;

	for (i = 0; i < t->desc->natts; i++)
		if (!g->isnull[i] && !TupleDescAttr(t->desc, i)->attbyval)
			pfree(DatumGetPointer(g->values[i]));
}

void
pqfdw_group_top_n_add(PqGroupTopN *t, const Datum *values, const bool *isnull)
{
	MemoryContext old = MemoryContextSwitchTo(t->cxt);
	int			i;

	if (t->n < t->cap)
	{
		/* a new leaf, moved up while it is worse than its parent */
		i = t->n++;
		copy_group(t, &t->heap[i], values, isnull);
		while (i > 0 && compare_groups(t, i, (i - 1) / 2) > 0)
		{
			swap(t, i, (i - 1) / 2);
			i = (i - 1) / 2;
		}
	}
	else
	{
		/* in place of the worst, then down to its place */
		free_group(t, &t->heap[0]);
		copy_group(t, &t->heap[0], values, isnull);
		sift_down(t, 0);
	}
	MemoryContextSwitchTo(old);
}

void
pqfdw_group_top_n_finish(PqGroupTopN *t)
{
	int			n = t->n;

	/* heapsort: the worst to the end, one at a time */
	while (t->n > 1)
	{
		swap(t, 0, t->n - 1);
		t->n--;
		sift_down(t, 0);
	}
	t->n = n;
	t->next = (int) Min(t->offset, (int64) n);
}

bool
pqfdw_group_top_n_next(PqGroupTopN *t, Datum *values, bool *isnull)
{
	if (t->next >= t->n)
		return false;
	memcpy(values, t->heap[t->next].values, sizeof(Datum) * t->desc->natts);
	memcpy(isnull, t->heap[t->next].isnull, sizeof(bool) * t->desc->natts);
	t->next++;
	return true;
}

void
pqfdw_group_top_n_reset(PqGroupTopN *t)
{
	int			i;

	for (i = 0; i < t->n; i++)
		free_group(t, &t->heap[i]);
	t->n = 0;
	t->next = 0;
}
