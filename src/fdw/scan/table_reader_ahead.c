/*-------------------------------------------------------------------------
 *
 * table_reader_ahead.c
 *		Reading ahead for files behind URLs: the chunks of the next row
 *		groups the scan will enter, fetched in one batch.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/prune/pruner.h"
#include "fdw/scan/table_reader_state.h"
#include "format/read/chunk_fetch.h"

/* read-ahead of files behind URLs: row groups and bytes per batch */
#define READ_AHEAD_ROW_GROUPS 16
#define READ_AHEAD_BYTES ((size_t) 64 * 1024 * 1024)

/* The column readers of the open file (nested columns: each leaf's). */
PqColumnReader **
pqfdw_table_reader_file_readers(PqTableReader *tr, int *nreaders)
{
	PqColumnReader **readers;
	int			n = 0;
	int			i;
	int			k;

	for (i = 0; i < tr->ncols; i++)
		if (pqfdw_column_reads_file(&tr->cols[i]))
			n += tr->cols[i].nested ? tr->cols[i].nested->nleaves : 1;
	*nreaders = n;
	if (n == 0)
		return NULL;
	readers = MemoryContextAlloc(tr->rg_cxt, sizeof(PqColumnReader *) * n);
	n = 0;
	for (i = 0; i < tr->ncols; i++)
	{
		PqNestedColumn *nc = tr->cols[i].nested;

		if (!pqfdw_column_reads_file(&tr->cols[i]))
			continue;
		if (nc == NULL)
			readers[n++] = tr->cols[i].reader;
		else
			for (k = 0; k < nc->nleaves; k++)
				readers[n++] = nc->readers[k];
	}
	return readers;
}

/*
 * Whether the scan may enter row_group of the open file, as far as its
 * sample and the statistics tell (nothing counted).
 */
static bool
may_enter(PqTableReader *tr, int row_group)
{
	PqPruneTarget t;

	if (tr->file->md.row_groups[row_group].num_rows == 0)
		return false;
	if (tr->sample && !tr->sample[tr->sample_first[tr->file_index] + row_group])
		return false;
	if (tr->pruner == NULL || !pqfdw_pruner_active(tr->pruner))
		return true;
	memset(&t, 0, sizeof(t));
	t.file = tr->file;
	t.file_index = tr->file_index;
	t.row_group = row_group;
	t.att_cv = tr->att_cv;
	t.att_leaf = tr->att_leaf;
	t.union_by_name = tr->ds != NULL && tr->ds->union_by_name;
	t.parallel = tr->claim != NULL;
	t.rg_cxt = tr->batch_cxt;
	t.tmp_cxt = tr->batch_cxt;
	return pqfdw_pruner_peek(tr->pruner, &t);
}

/*
 * A window of row groups from first on (first itself always; after it
 * those the scan may enter), fetched in one batch, for now or for later
 * (background); the last row group it covers (-1: none).
 */
static int
fetch_window(PqTableReader *tr, PqColumnReader **readers, int nreaders,
			 int first, bool background)
{
	int			rgs[READ_AHEAD_ROW_GROUPS];
	int			n = 0;
	int			covered;
	int			rg;

	for (rg = first; rg < tr->file->md.n_row_groups && n < READ_AHEAD_ROW_GROUPS; rg++)
		if ((rg == first && !background) || may_enter(tr, rg))
			rgs[n++] = rg;
	if (n == 0)
		return -1;
	covered = pq_chunk_fetch_prefetch(readers, nreaders, rgs, n,
									  READ_AHEAD_BYTES, background);
	return covered > 0 ? rgs[covered - 1] : -1;
}

/*
 * Files behind URLs pay a round trip per request: entering a row group the
 * current window did not fetch, the window from it is requested (every
 * column's chunks of it and of the next row groups the statistics leave,
 * up to READ_AHEAD_ROW_GROUPS and READ_AHEAD_BYTES, in one batch of
 * requests in flight together; decoding starts when the first row group's
 * chunks are in), or the background window becomes the current one; then
 * the window after it is requested in the background, its requests
 * starting as the current one's finish, to arrive while this one decodes
 * (pqfdw_table_reader_next polls them).  A row
 * group its own pruning (Bloom filters, dictionaries, pages) then drops
 * was fetched for nothing; page ranges within the chunks come from the
 * batch.  Parallel scans claim row groups one at a time: only theirs, and
 * nothing in the background.
 */
void
pqfdw_table_reader_read_ahead(PqTableReader *tr)
{
	PqColumnReader **readers;
	int			nreaders;

	/* pieces of a row group read their pages, not every piece the chunks */
	if (tr->file->src->prefetch == NULL || tr->row_group <= tr->ahead_last ||
		tr->unit_pieces > 1)
		return;
	readers = pqfdw_table_reader_file_readers(tr, &nreaders);
	if (nreaders == 0)
		return;
	if (tr->row_group >= tr->next_first && tr->row_group <= tr->next_last)
		tr->ahead_last = tr->next_last;
	else if (tr->claim)
	{
		(void) pq_chunk_fetch_prefetch(readers, nreaders, &tr->row_group, 1,
									   READ_AHEAD_BYTES, false);
		tr->ahead_last = tr->row_group;
	}
	else
	{
		int			last = fetch_window(tr, readers, nreaders, tr->row_group,
										false);

		tr->ahead_last = Max(last, tr->row_group);
	}
	tr->next_first = tr->next_last = -1;
	if (tr->claim == NULL)
	{
		tr->next_last = fetch_window(tr, readers, nreaders, tr->ahead_last + 1,
									 true);
		if (tr->next_last >= 0)
			tr->next_first = tr->ahead_last + 1;
	}
}
