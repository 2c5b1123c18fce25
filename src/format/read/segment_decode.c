/*-------------------------------------------------------------------------
 *
 * segment_decode.c
 *		The next segment of a column reader's open data page: its levels,
 *		then its values decoded, or stepped over when the reader skips.
 *
 * A skip still reads the levels (they say how many values the rows hold),
 * but dictionary indices and PLAIN fixed-width values are passed over
 * without being unpacked: late materialization and page-index ranges skip
 * far more rows than they read.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/read/segment_decode.h"

static void
read_levels(PqColumnReader *r, bool is_rep, int16 *out, int n, int max_level)
{
	if (is_rep ? r->rep_rle : r->def_rle)
	{
		if (pq_rle_read_levels(is_rep ? &r->rep_dec : &r->def_dec, out, n,
							   max_level) != n)
			pq_corrupt("page has fewer %s levels than its %d values",
					   is_rep ? "repetition" : "definition",
					   r->page_left);
	}
	else
		memcpy(out, (is_rep ? r->rep_all : r->def_all) + r->level_pos,
			   sizeof(int16) * n);
}

/*
 * Decode the next n (>= 1) level entries of the open page into seg;
 * returns how many values they hold.
 */
static int
decode_levels(PqColumnReader *r, int n, PqSegment *seg)
{
	int			nvalues;
	int			i;

	seg->n = n;
	seg->rep = NULL;
	seg->def = NULL;
	nvalues = n;
	if (r->col->max_rep > 0)
	{
		read_levels(r, true, r->rep, n, r->col->max_rep);
		seg->rep = r->rep;
	}
	if (r->col->max_def > 0)
	{
		int16		max_def = r->col->max_def;
		uint32		run_value;

		if (r->col->max_rep == 0 && r->def_rle &&
			pq_rle_take_run(&r->def_dec, n, &run_value))
		{
			/* one run covers the segment: all present or all null */
			if (run_value > (uint32) max_def)
				pq_corrupt("definition level %u exceeds the maximum %d",
						   run_value, max_def);
			nvalues = (run_value == (uint32) max_def) ? n : 0;
			if (nvalues == 0)
				for (i = 0; i < n; i++)
					r->def[i] = (int16) run_value;
			/* flat columns without nulls need no levels downstream */
			seg->def = (nvalues == n) ? NULL : r->def;
		}
		else
		{
			read_levels(r, false, r->def, n, max_def);
			nvalues = 0;
			for (i = 0; i < n; i++)
				nvalues += (r->def[i] == max_def);
			seg->def = (nvalues == n && r->col->max_rep == 0) ? NULL : r->def;
		}
	}
	r->level_pos += n;
	seg->nvalues = nvalues;
	return nvalues;
}

/* The segment's nvalues values, after its levels. */
static void
decode_values(PqColumnReader *r, int nvalues, PqSegment *seg)
{
	seg->indices = NULL;
	seg->dict = NULL;
	seg->fixed = NULL;
	seg->ba = NULL;
	if (r->page_is_dict)
	{
		pq_valdec_read_indices(&r->values, nvalues, r->indices,
							   (uint32) r->dict.count);
		seg->indices = r->indices;
		seg->dict = &r->dict;
	}
	else if (r->col->physical_type == PQ_BYTE_ARRAY)
	{
		pq_valdec_read_byte_array(&r->values, nvalues, r->ba);
		seg->ba = r->ba;
	}
	else
	{
		if (r->fixed == NULL)
			r->fixed = MemoryContextAlloc(r->cxt,
										  (Size) r->value_width * r->cap);
		pq_valdec_read_fixed(&r->values, nvalues, r->fixed);
		seg->fixed = r->fixed;
	}
}

/* Past the segment's n level entries: the page's counts checked. */
static void
advance(PqColumnReader *r, int n, const PqSegment *seg)
{
	int			i;

	r->row += n;
	r->page_left -= n;
	if (r->page_counts)
	{
		int			rows = n;

		if (seg->rep)
			for (rows = 0, i = 0; i < n; i++)
				rows += (seg->rep[i] == 0);
		r->page_rows_seen += rows;
		r->page_values_seen += seg->nvalues;
		/* levels that disagree with the header: never guess which is right */
		if (r->page_left == 0 &&
			(r->page_rows_seen != r->page_rows ||
			 r->page_values_seen != r->page_values))
			pq_corrupt("data page v2 levels give %d rows and %d values, but its header says %d rows and %d values",
					   r->page_rows_seen, r->page_values_seen,
					   r->page_rows, r->page_values);
	}
	if (r->page_left == 0)
		r->in_page = false;
}

void
pq_segment_decode(PqColumnReader *r, int n, PqSegment *seg)
{
	decode_values(r, decode_levels(r, n, seg), seg);
	advance(r, n, seg);
}

void
pq_segment_skip(PqColumnReader *r, int n)
{
	PqSegment	seg;
	int			nvalues = decode_levels(r, n, &seg);

	if (!pq_valdec_skip(&r->values, nvalues))
		decode_values(r, nvalues, &seg);
	advance(r, n, &seg);
}
