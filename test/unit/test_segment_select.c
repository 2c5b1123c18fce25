/*
 * test_segment_select.c
 *		pq_segment_select(): selected entries of a flat segment.
 *
 * The expected segment is built from a row-major reference (each entry's
 * own value or NULL, written out before the segment is made dense), not by
 * the code under test.
 */
#include "postgres.h"

#include "format/read/segment_select.h"
#include "unit_test.h"

#define N 300

/* Reference rows: present[i] and, when present, value[i] (and its bytes). */
typedef struct RefRows
{
	bool		present[N];
	int64		value[N];
} RefRows;

static void
make_rows(RefRows *ref, int null_every)
{
	int			i;

	for (i = 0; i < N; i++)
	{
		ref->present[i] = null_every == 0 || (ut_rng_next() % null_every) != 0;
		ref->value[i] = (int64) (ut_rng_next() % 1000000) - 500000;
	}
}

/*
 * Segment of the reference rows in the given form: kind 0 fixed int64,
 * 1 dictionary ids (the value modulo 50), 2 byte arrays (8 bytes each).
 */
static void
make_segment(const RefRows *ref, int kind, bool with_def, PqSegment *seg,
			 int16 *def, int64 *fixed, uint32 *ids, PqByteArray *ba)
{
	int			k = 0;
	int			i;

	memset(seg, 0, sizeof(*seg));
	seg->n = N;
	for (i = 0; i < N; i++)
	{
		def[i] = ref->present[i] ? 1 : 0;
		if (!ref->present[i])
			continue;
		fixed[k] = ref->value[i];
		ids[k] = (uint32) (ref->value[i] + 500000) % 50;
		ba[k].ptr = (const uint8 *) &ref->value[i];
		ba[k].len = 8;
		k++;
	}
	seg->nvalues = k;
	seg->def = with_def ? def : NULL;
	if (kind == 0)
		seg->fixed = fixed;
	else if (kind == 1)
		seg->indices = ids;
	else
		seg->ba = ba;
}

static void
check_selection(int kind, int null_every)
{
	RefRows		ref;
	PqSegment	seg;
	PqSegment	out;
	int16		def[N];
	int64		fixed[N];
	uint32		ids[N];
	PqByteArray ba[N];
	int			rows[N];
	int			nrows = 0;
	PqSegmentScratch scratch;
	int			k;
	int			v = 0;

	make_rows(&ref, null_every);
	make_segment(&ref, kind, null_every != 0, &seg, def, fixed, ids, ba);
	for (k = 0; k < N; k++)
		if (ut_rng_next() % 3 == 0)
			rows[nrows++] = k;
	scratch.def = palloc(sizeof(int16) * PQ_SEGMENT_CAP);
	scratch.indices = palloc(sizeof(uint32) * PQ_SEGMENT_CAP);
	scratch.fixed = palloc(8 * PQ_SEGMENT_CAP);
	scratch.ba = palloc(sizeof(PqByteArray) * PQ_SEGMENT_CAP);

	pq_segment_select(&seg, 8, 1, rows, nrows, &scratch, &out);
	CHECK_EQ_INT(out.n, nrows);
	for (k = 0; k < nrows; k++)
	{
		int			r = rows[k];
		bool		present = out.def == NULL || out.def[k] == 1;

		CHECK_EQ_INT(present, ref.present[r]);
		if (!present)
			continue;
		if (kind == 0)
			CHECK_EQ_INT(((const int64 *) out.fixed)[v], ref.value[r]);
		else if (kind == 1)
			CHECK_EQ_INT(out.indices[v], (uint32) (ref.value[r] + 500000) % 50);
		else
		{
			int64		got;

			CHECK_EQ_INT(out.ba[v].len, 8);
			memcpy(&got, out.ba[v].ptr, 8);
			CHECK_EQ_INT(got, ref.value[r]);
		}
		v++;
	}
	CHECK_EQ_INT(out.nvalues, v);
}

static void
test_fixed_without_nulls(void)
{
	ut_rng_seed(11);
	check_selection(0, 0);
}

static void
test_fixed_with_nulls(void)
{
	ut_rng_seed(12);
	check_selection(0, 4);
}

static void
test_dictionary_with_nulls(void)
{
	ut_rng_seed(13);
	check_selection(1, 3);
}

static void
test_byte_arrays_with_nulls(void)
{
	ut_rng_seed(14);
	check_selection(2, 2);
}

static void
test_byte_arrays_without_nulls(void)
{
	ut_rng_seed(15);
	check_selection(2, 0);
}

void
suite_segment_select(void)
{
	ut_run("segment select: fixed, no NULLs", test_fixed_without_nulls);
	ut_run("segment select: fixed, NULLs", test_fixed_with_nulls);
	ut_run("segment select: dictionary ids, NULLs", test_dictionary_with_nulls);
	ut_run("segment select: byte arrays, NULLs", test_byte_arrays_with_nulls);
	ut_run("segment select: byte arrays, no NULLs",
		   test_byte_arrays_without_nulls);
}
