/*-------------------------------------------------------------------------
 *
 * table_reader_setup.c
 *		What a table reader is asked for before its first batch: its files
 *		and the name messages give them, dictionary indices (grouped
 *		scans), unscaled DECIMALs, the VARIANT fields a query uses, the
 *		quals evaluated on batches, a parallel scan's cursor and a file
 *		check; and what it tells of itself.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/table_options.h"
#include "fdw/scan/table_reader_state.h"
#include "utils/memutils.h"

void
pqfdw_table_reader_set_paths(PqTableReader *tr, List *paths,
							 PqfdwHiveMode hive, const PqfdwTableVersion *at)
{
	PqfdwTableOptions opts;
	MemoryContext old = MemoryContextSwitchTo(tr->cxt);

	Assert(tr->file_index < 0 && tr->ds != NULL);
	tr->paths = list_copy(paths);
	pqfdw_get_table_options_only(tr->relid, &opts);
	if (at != NULL)
		opts.at = *at;
	tr->ds = pqfdw_dataset_create(tr->relid, tr->tupdesc, tr->paths, &opts,
								  hive, tr->cxt);
	MemoryContextSwitchTo(old);
}

void
pqfdw_table_reader_set_name(PqTableReader *tr, const char *name)
{
	Assert(list_length(tr->paths) == 1 && tr->file_index < 0);
	tr->only_name = MemoryContextStrdup(tr->cxt, name);
}

bool
pqfdw_table_reader_set_codes(PqTableReader *tr, AttrNumber attnum)
{
	int			i;

	for (i = 0; i < tr->ncols; i++)
	{
		PqTableColumn *c = &tr->cols[i];

		if (c->attnum != attnum || c->nested || !c->output)
			continue;
		if (c->codes == NULL)
		{
			c->codes = MemoryContextAllocZero(tr->cxt, sizeof(PqBatchCodes));
			c->codes->codes = MemoryContextAlloc(tr->cxt, sizeof(uint32) *
												 tr->batch.capacity);
			tr->batch.codes[attnum - 1] = c->codes;
		}
		return true;
	}
	return false;
}

void
pqfdw_table_reader_set_unscaled(PqTableReader *tr, AttrNumber attnum)
{
	int			i;

	for (i = 0; i < tr->ncols; i++)
		if (tr->cols[i].attnum == attnum)
		{
			if (tr->cols[i].conv_ready)
				elog(ERROR, "column \"%s\" cannot be read unscaled",
					 tr->cols[i].attname);
			tr->cols[i].unscaled = true;
		}
}

void
pqfdw_table_reader_set_variant_keys(PqTableReader *tr, AttrNumber attnum,
									List *keys)
{
	int			i;

	for (i = 0; i < tr->ncols; i++)
		if (tr->cols[i].attnum == attnum)
		{
			MemoryContext old = MemoryContextSwitchTo(tr->cxt);

			tr->cols[i].variant_keys = copyObject(keys);
			MemoryContextSwitchTo(old);
		}
}

void
pqfdw_table_reader_set_filter(PqTableReader *tr, PqFilter *filter,
							  List *output)
{
	List	   *attnums = pqfdw_filter_attnums(filter);
	int			i;

	tr->filter = filter;
	tr->filter_cols = MemoryContextAlloc(tr->cxt, sizeof(int) * Max(tr->ncols, 1));
	tr->nfilter_cols = 0;
	for (i = 0; i < tr->ncols; i++)
	{
		PqTableColumn *c = &tr->cols[i];

		c->filtered = list_member_int(attnums, c->attnum);
		c->output = !c->filtered || list_member_int(output, c->attnum);
		tr->batch_cols[i].output = c->output;
		if (c->filtered)
			tr->filter_cols[tr->nfilter_cols++] = i;
	}
	if (tr->nfilter_cols != list_length(attnums))
		elog(ERROR, "parquet_fdw filter tests a column that is not read");
	tr->sel = MemoryContextAlloc(tr->cxt, sizeof(int) * tr->batch.capacity);
	tr->seg_rows = MemoryContextAlloc(tr->cxt, sizeof(int) * PQ_SEGMENT_CAP);
}

void
pqfdw_table_reader_set_claim(PqTableReader *tr, PqUnitClaim claim, void *arg)
{
	tr->claim = claim;
	tr->claim_arg = arg;
}

void
pqfdw_table_reader_set_file_check(PqTableReader *tr,
								  bool (*check) (void *arg, int file),
								  void *arg)
{
	tr->file_check = check;
	tr->file_check_arg = arg;
}

PqfdwDataset *
pqfdw_table_reader_dataset(PqTableReader *tr)
{
	return tr->ds;
}

const PqfdwAccess *
pqfdw_table_reader_access(PqTableReader *tr)
{
	return &tr->access;
}

int64
pqfdw_table_reader_rows_filtered(PqTableReader *tr)
{
	return tr->rows_filtered;
}

int64
pqfdw_table_reader_rows_deleted(PqTableReader *tr)
{
	return tr->rows_deleted;
}

int64
pqfdw_table_reader_row_groups_read(PqTableReader *tr)
{
	return tr->row_groups_read;
}

/* Bytes (or data pages) read so far by the open file's column readers. */
int64
pqfdw_table_reader_columns_stat(PqTableReader *tr, bool bytes)
{
	int64		sum = 0;
	int			i;
	int			k;

	for (i = 0; i < tr->ncols; i++)
	{
		PqNestedColumn *nc = tr->cols[i].nested;

		if (!pqfdw_column_reads_file(&tr->cols[i]))
			continue;
		if (nc == NULL)
			sum += bytes ? tr->cols[i].reader->bytes_read :
				tr->cols[i].reader->pages_read;
		else
			for (k = 0; k < nc->nleaves; k++)
				sum += bytes ? nc->readers[k]->bytes_read :
					nc->readers[k]->pages_read;
	}
	return sum;
}

int64
pqfdw_table_reader_pages_read(PqTableReader *tr)
{
	return tr->pages_read + (tr->file ? pqfdw_table_reader_columns_stat(tr, false) : 0);
}

int64
pqfdw_table_reader_bytes_read(PqTableReader *tr)
{
	return tr->bytes_read + (tr->file ? pqfdw_table_reader_columns_stat(tr, true) : 0);
}
