/*
 * test_row_ranges.c
 *		Row-range algebra of format/read/page_index.c: intersection, union,
 *		row counts and lists built from sorted rows, on random sets.
 *
 * Every expected result is computed on a bitmap of rows (a row is in the
 * set or not), not by the code under test; results must also be sorted,
 * disjoint and non-adjacent.
 */
#include "postgres.h"

#include "format/read/page_index.h"
#include "unit_test.h"

#define N 200

/* A random set of rows of [0, N) as sorted, disjoint, non-adjacent ranges. */
static PqRowRange *
random_ranges(bool *in, int *n)
{
	PqRowRange *r = palloc(sizeof(PqRowRange) * N);
	int			density = 1 + (int) (ut_rng_next() % 4);
	int			i;

	*n = 0;
	for (i = 0; i < N; i++)
	{
		in[i] = (int) (ut_rng_next() % 5) < density;
		if (!in[i])
			continue;
		if (*n > 0 && r[*n - 1].end == i)
			r[*n - 1].end++;
		else
		{
			r[*n].start = i;
			r[*n].end = i + 1;
			(*n)++;
		}
	}
	return r;
}

/* ranges[0 .. n) is exactly the set expect, in canonical form. */
static bool
same_set(const PqRowRange *r, int n, const bool *expect)
{
	bool		got[N];
	int			i;
	int			k;

	memset(got, 0, sizeof(got));
	for (k = 0; k < n; k++)
	{
		if (r[k].start >= r[k].end || r[k].start < 0 || r[k].end > N)
			return false;
		if (k > 0 && r[k - 1].end >= r[k].start)
			return false;		/* unsorted, overlapping or adjacent */
		for (i = (int) r[k].start; i < r[k].end; i++)
			got[i] = true;
	}
	return memcmp(got, expect, sizeof(got)) == 0;
}

static void
test_intersect_union(void)
{
	int			round;

	ut_rng_seed(33);
	for (round = 0; round < 500; round++)
	{
		bool		a_in[N];
		bool		b_in[N];
		bool		and[N];
		bool		or[N];
		int			na;
		int			nb;
		int			n;
		int64		rows = 0;
		PqRowRange *a = random_ranges(a_in, &na);
		PqRowRange *b = random_ranges(b_in, &nb);
		PqRowRange *r;
		int			i;

		for (i = 0; i < N; i++)
		{
			and[i] = a_in[i] && b_in[i];
			or[i] = a_in[i] || b_in[i];
			rows += a_in[i];
		}
		r = pq_row_ranges_intersect(a, na, b, nb, &n);
		CHECK(same_set(r, n, and));
		r = pq_row_ranges_union(a, na, b, nb, &n);
		CHECK(same_set(r, n, or));
		CHECK_EQ_INT(pq_row_ranges_rows(a, na), rows);
		shim_free_all();
	}
}

static void
test_list_from_rows(void)
{
	int			round;

	ut_rng_seed(34);
	for (round = 0; round < 500; round++)
	{
		bool		expect[N];
		int			rows[N];
		PqRowRangeList l;
		int			base = 0;

		memset(expect, 0, sizeof(expect));
		pq_row_range_list_init(&l);
		/* batches of up to 40 rows, each giving the rows that pass */
		while (base < N)
		{
			int			width = 1 + (int) (ut_rng_next() % 40);
			int			m = 0;
			int			j;

			if (base + width > N)
				width = N - base;
			for (j = 0; j < width; j++)
				if (ut_rng_next() % 3 != 0)
				{
					rows[m++] = j;
					expect[base + j] = true;
				}
			pq_row_range_list_add(&l, base, rows, m);
			base += width;
		}
		CHECK(same_set(l.ranges, l.n, expect));
		shim_free_all();
	}
}

void
suite_row_ranges(void)
{
	ut_run("row ranges: intersection and union against bitmaps",
		   test_intersect_union);
	ut_run("row ranges: lists built from passing rows", test_list_from_rows);
}
