/*-------------------------------------------------------------------------
 *
 * table_reader_rows.c
 *		Which rows a table reader reads and where its batch rows are: the
 *		two halves of a top-N scan's late materialization.
 *
 * The scan reads only its sort keys and filter columns, the others left
 * unread (deferred); each row it keeps remembers its file and row number.
 * For the rows returned, a reader of one file then reads the deferred
 * columns of those rows only: a row group holding none is neither fetched
 * nor decoded, and in one that holds some, the reader skips to them (with
 * a page index, only their pages are fetched).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/scan/table_reader_state.h"
#include "nodes/bitmapset.h"

List *
pqfdw_table_reader_set_deferred(PqTableReader *tr, const Bitmapset *keep)
{
	List	   *deferred = NIL;
	int			i;

	for (i = 0; i < tr->ncols; i++)
	{
		PqTableColumn *c = &tr->cols[i];
		PqfdwColumnKind kind = tr->ds ? tr->ds->kind[c->attnum - 1] :
		PQFDW_COLUMN_FIELD;

		if (c->output && !c->filtered && kind == PQFDW_COLUMN_FIELD &&
			!bms_is_member(c->attnum, keep))
		{
			c->deferred = true;
			deferred = lappend_int(deferred, c->attnum);
		}
	}
	return deferred;
}

void
pqfdw_table_reader_row_position(PqTableReader *tr, int r, int *file,
								int64 *row)
{
	*file = tr->file_index;
	*row = tr->batch_row0 + (tr->batch_sel ? tr->batch_sel[r] : r);
}

const char *
pqfdw_table_reader_path(PqTableReader *tr, int file)
{
	return list_nth(tr->paths, file);
}

void
pqfdw_table_reader_set_rows(PqTableReader *tr, const int64 *rows, int n)
{
	tr->want_rows = MemoryContextAlloc(tr->cxt, sizeof(int64) * Max(n, 1));
	memcpy(tr->want_rows, rows, sizeof(int64) * n);
	tr->nwant_rows = n;
}

/*
 * The rows set_rows() wants of the row group as its row ranges (adjacent
 * rows merged); false when it wants none.
 */
bool
pqfdw_table_reader_wanted_ranges(PqTableReader *tr, int64 num_rows)
{
	int64		first = tr->file_row;
	int			lo = 0;
	int			hi = tr->nwant_rows;
	int			k;

	/* the first wanted row at or after the row group's first */
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (tr->want_rows[mid] < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == tr->nwant_rows || tr->want_rows[lo] >= first + num_rows)
		return false;
	tr->rg_ranges = MemoryContextAlloc(tr->rg_cxt, sizeof(PqRowRange) *
									   (tr->nwant_rows - lo));
	tr->rg_nranges = 0;
	for (k = lo; k < tr->nwant_rows && tr->want_rows[k] < first + num_rows; k++)
	{
		int64		r = tr->want_rows[k] - first;

		if (tr->rg_nranges > 0 && tr->rg_ranges[tr->rg_nranges - 1].end == r)
			tr->rg_ranges[tr->rg_nranges - 1].end = r + 1;
		else
		{
			tr->rg_ranges[tr->rg_nranges].start = r;
			tr->rg_ranges[tr->rg_nranges++].end = r + 1;
		}
	}
	return true;
}

/*
 * Leave out the rows of the row group that its file's table format deleted
 * (deletion vectors); false when none is left.  Long runs of them become
 * gaps in the row ranges, which no column reader decodes; scattered ones
 * (ranges averaging under PQFDW_DELETED_RUN rows) are dropped from each
 * batch instead, as a filter drops rows (pqfdw_table_reader_drop_deleted):
 * a range per few rows cost more than decoding them (bench/delta.sh: 1.5x
 * the dataset's time at 1% deleted as ranges).
 */
#define PQFDW_DELETED_RUN 256

bool
pqfdw_table_reader_skip_deleted(PqTableReader *tr, int64 num_rows)
{
	const PqDeletedRows *del = pqfdw_dataset_deleted_rows(tr->ds,
														  tr->file_index);
	int64		first = tr->file_row;
	uint64		lo = 0;
	uint64		hi;
	uint64		k;
	int64		at = 0;
	int			n = 0;
	PqRowRange *kept;
	MemoryContext old;

	tr->rg_del = NULL;
	tr->rg_ndel = 0;
	if (del == NULL)
		return true;			/* also when ds is NULL: not a foreign table */
	hi = del->count;
	while (lo < hi)
	{
		uint64		mid = lo + (hi - lo) / 2;

		if (del->pos[mid] < (uint64) first)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == del->count || del->pos[lo] >= (uint64) (first + num_rows))
		return true;
	for (hi = lo; hi < del->count && del->pos[hi] < (uint64) (first + num_rows);)
		hi++;
	/* counted once per row group: by its first piece in a parallel scan */
	if (tr->unit_piece == 0 && tr->want_rows == NULL &&
		(int64) (hi - lo) == num_rows)
		tr->rows_deleted += num_rows;
	if ((int64) (hi - lo) == num_rows)
		return false;

	/* runs: the gaps between deleted rows */
	for (k = lo; k < hi; k++)
		if (k == lo || del->pos[k] != del->pos[k - 1] + 1)
			n++;
	if (num_rows - (int64) (hi - lo) < (int64) n * PQFDW_DELETED_RUN)
	{
		/* the selection a filter would have made (set_filter) */
		if (tr->sel == NULL)
			tr->sel = MemoryContextAlloc(tr->cxt,
										 sizeof(int) * tr->batch.capacity);
		if (tr->seg_rows == NULL)
			tr->seg_rows = MemoryContextAlloc(tr->cxt,
											  sizeof(int) * PQ_SEGMENT_CAP);
		tr->rg_del = del->pos + lo;
		tr->rg_ndel = hi - lo;
		tr->rg_del_next = 0;
		return true;
	}

	if (tr->unit_piece == 0 && tr->want_rows == NULL)
		tr->rows_deleted += hi - lo;
	old = MemoryContextSwitchTo(tr->rg_cxt);
	kept = palloc(sizeof(PqRowRange) * (hi - lo + 1));
	n = 0;
	for (k = lo; k < hi; k++)
	{
		int64		r = (int64) del->pos[k] - first;

		if (r > at)
		{
			kept[n].start = at;
			kept[n++].end = r;
		}
		at = r + 1;
	}
	if (at < num_rows)
	{
		kept[n].start = at;
		kept[n++].end = num_rows;
	}
	if (tr->rg_ranges != NULL)
		tr->rg_ranges = pq_row_ranges_intersect(tr->rg_ranges, tr->rg_nranges,
												kept, n, &tr->rg_nranges);
	else
	{
		tr->rg_ranges = kept;
		tr->rg_nranges = n;
	}
	MemoryContextSwitchTo(old);
	return tr->rg_nranges > 0;
}

/*
 * Of the n rows at tr->rg_pos, of which the m in tr->sel (all when m == n)
 * are kept so far, keep those not deleted (tr->rg_del): in tr->sel when
 * fewer than n; their number.
 */
int
pqfdw_table_reader_drop_deleted(PqTableReader *tr, int n, int m)
{
	int64		base = tr->file_row + tr->rg_pos;
	const uint64 *d = tr->rg_del;
	int64		next = tr->rg_del_next;
	int			kept = 0;
	int			i;

	while (next < tr->rg_ndel && d[next] < (uint64) base)
		next++;
	tr->rg_del_next = next;
	if (next == tr->rg_ndel || d[next] >= (uint64) (base + n))
		return m;
	for (i = 0; i < m; i++)
	{
		int			r = m < n ? tr->sel[i] : i;

		while (next < tr->rg_ndel && d[next] < (uint64) (base + r))
			next++;
		if (next < tr->rg_ndel && d[next] == (uint64) (base + r))
			continue;
		tr->sel[kept++] = r;
	}
	if (tr->want_rows == NULL)
		tr->rows_deleted += m - kept;
	return kept;
}
