/*-------------------------------------------------------------------------
 *
 * page_index.c
 *		Reading and validating OffsetIndex/ColumnIndex; row range lists.
 *
 * The index structures are stored between the column data and the footer.
 * Everything the rest of the reader relies on (page order, row numbers,
 * list lengths) is checked here, so that pruning and page skipping can
 * index the lists without further checks.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/read/page_index.h"
#include "utils/memutils.h"

/* Report errors at the column chunk until pq_errloc_pop(). */
static void
enter_chunk(PqErrorLocation *loc, PqFile *file, int row_group, int column)
{
	pq_errloc_push(loc, file->src->name);
	loc->row_group = row_group;
	loc->column = file->schema->columns[column].path;
}

/*
 * The bytes of an index structure, checked to lie in the data area, and
 * decrypted when the column chunk is encrypted; *len is their length.
 */
static uint8 *
read_index_bytes(PqFile *file, int row_group, int column, PqModuleType type,
				 int64 offset, int32 length, const char *what, size_t *len)
{
	uint8	   *buf;
	const PqChunkCipher *cipher;

	if (length <= 0 || (Size) length > MaxAllocSize)
		pq_corrupt("%s has invalid length %d", what, length);
	if (offset < 4 || offset > file->data_end - length)
		pq_corrupt("%s of %d bytes at offset " INT64_FORMAT " lies outside the data area [4, " INT64_FORMAT ")",
				   what, length, offset, file->data_end);
	buf = palloc(length);
	file->src->read(file->src, offset, length, buf);
	*len = length;
	cipher = pq_file_chunk_cipher(file, row_group, column);
	if (cipher)
	{
		size_t		consumed;
		uint8	   *plain = pq_chunk_decrypt(cipher, type, 0, buf, length,
											 &consumed, len);

		if (consumed != (size_t) length)
			pq_corrupt("encrypted %s of %zu bytes does not fill its %d bytes",
					   what, consumed, length);
		pfree(buf);
		buf = plain;
	}
	return buf;
}

void
pq_offset_index_check(const PqOffsetIndex *oi, int64 num_rows,
					  int64 area_start, int64 area_end)
{
	int64		prev_end = area_start;
	int64		prev_row = 0;
	int			i;

	if (oi->n_page_locations == 0 && num_rows > 0)
		pq_corrupt("offset index has no pages for " INT64_FORMAT " rows",
				   num_rows);
	for (i = 0; i < oi->n_page_locations; i++)
	{
		const PqPageLocation *loc = &oi->page_locations[i];

		if (loc->compressed_page_size <= 0)
			pq_corrupt("offset index page %d has size %d", i,
					   loc->compressed_page_size);
		if (loc->offset < prev_end ||
			loc->offset > area_end - loc->compressed_page_size)
			pq_corrupt("offset index page %d at offset " INT64_FORMAT " (%d bytes) overlaps the previous page or lies outside [" INT64_FORMAT ", " INT64_FORMAT ")",
					   i, loc->offset, loc->compressed_page_size,
					   area_start, area_end);
		if (i == 0 ? loc->first_row_index != 0 :
			loc->first_row_index < prev_row || loc->first_row_index > num_rows)
			pq_corrupt("offset index page %d starts at row " INT64_FORMAT ", after row " INT64_FORMAT " of a row group of " INT64_FORMAT " rows",
					   i, loc->first_row_index, prev_row, num_rows);
		prev_end = loc->offset + loc->compressed_page_size;
		prev_row = loc->first_row_index;
	}
}

/*
 * Decoded page indexes are kept with the file: a nested loop re-scans the
 * same row groups once per outer row.  States: 0 not read, 1 absent (or
 * not to be trusted), 2 present.
 */
typedef struct PageIndexEntry
{
	int8		oi_state;
	int8		ci_state;
	PqOffsetIndex oi;
	PqColumnIndex ci;
} PageIndexEntry;

static PageIndexEntry *
cache_entry(PqFile *file, int row_group, int column)
{
	PageIndexEntry **rgs = file->page_index_cache;

	if (rgs == NULL)
	{
		rgs = MemoryContextAllocZero(file->cxt, sizeof(PageIndexEntry *) *
									 Max(file->md.n_row_groups, 1));
		file->page_index_cache = rgs;
	}
	if (rgs[row_group] == NULL)
		rgs[row_group] = MemoryContextAllocZero(file->cxt, sizeof(PageIndexEntry) *
												Max(file->schema->n_columns, 1));
	return &rgs[row_group][column];
}

static bool offset_index_read(PqFile *file, int row_group, int column,
							  PqOffsetIndex *oi);
static bool column_index_read(PqFile *file, int row_group, int column,
							  const PqOffsetIndex *oi, PqColumnIndex *ci);

bool
pq_offset_index_read(PqFile *file, int row_group, int column,
					 PqOffsetIndex *oi)
{
	PageIndexEntry *e = cache_entry(file, row_group, column);

	if (e->oi_state == 0)
	{
		MemoryContext old = MemoryContextSwitchTo(file->cxt);
		PqErrorLocation loc;
		bool		found;

		enter_chunk(&loc, file, row_group, column);
		found = offset_index_read(file, row_group, column, &e->oi);
		pq_errloc_pop(&loc);
		MemoryContextSwitchTo(old);
		e->oi_state = found ? 2 : 1;
	}
	if (e->oi_state == 1)
		return false;
	*oi = e->oi;
	return true;
}

bool
pq_column_index_read(PqFile *file, int row_group, int column,
					 const PqOffsetIndex *oi, PqColumnIndex *ci)
{
	PageIndexEntry *e = cache_entry(file, row_group, column);

	if (e->ci_state == 0)
	{
		MemoryContext old = MemoryContextSwitchTo(file->cxt);
		PqErrorLocation loc;
		bool		found;

		enter_chunk(&loc, file, row_group, column);
		found = column_index_read(file, row_group, column, oi, &e->ci);
		pq_errloc_pop(&loc);
		MemoryContextSwitchTo(old);
		e->ci_state = found ? 2 : 1;
	}
	if (e->ci_state == 1)
		return false;
	*ci = e->ci;
	return true;
}

static bool
offset_index_read(PqFile *file, int row_group, int column,
				  PqOffsetIndex *oi)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[column];
	uint8	   *buf;
	size_t		len;

	if (!cc->has_offset_index_offset || !cc->has_offset_index_length)
		return false;
	buf = read_index_bytes(file, row_group, column, PQ_MODULE_OFFSET_INDEX,
						   cc->offset_index_offset, cc->offset_index_length,
						   "offset index", &len);
	pq_read_offset_index(buf, len, oi);
	pq_offset_index_check(oi, file->md.row_groups[row_group].num_rows, 4,
						  file->data_end);
	return true;
}

static void
check_list(const char *name, int n, int npages)
{
	if (n != npages)
		pq_corrupt("column index has %d %s for %d pages", n, name, npages);
}

/* Counts are known when none is negative (parquet-mr writes -1). */
static bool
counts_known(const int64 *counts, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (counts[i] < 0)
			return false;
	return true;
}

/*
 * Whether the page statistics can be believed.  parquet-mr writes a
 * ColumnIndex even when it collected no statistics: every page "null",
 * with null count -1.  A null page of a flat column must hold only nulls.
 */
static bool
column_index_trusted(const PqColumnDescr *col, const PqOffsetIndex *oi,
					 const PqColumnIndex *ci, int64 num_rows)
{
	int			i;

	if (ci->null_counts && !counts_known(ci->null_counts, ci->n_null_counts))
		return false;
	if (col->max_rep > 0)
		return true;
	for (i = 0; i < oi->n_page_locations; i++)
		if (ci->null_pages[i] &&
			(col->max_def == 0 ||
			 (ci->null_counts &&
			  ci->null_counts[i] != pq_page_end_row(oi, i, num_rows) -
			  oi->page_locations[i].first_row_index)))
			return false;
	return true;
}

static bool
column_index_read(PqFile *file, int row_group, int column,
				  const PqOffsetIndex *oi, PqColumnIndex *ci)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[column];
	int			npages = oi->n_page_locations;
	uint8	   *buf;
	size_t		len;

	if (!cc->has_column_index_offset || !cc->has_column_index_length)
		return false;
	buf = read_index_bytes(file, row_group, column, PQ_MODULE_COLUMN_INDEX,
						   cc->column_index_offset, cc->column_index_length,
						   "column index", &len);
	pq_read_column_index(buf, len, ci);

	check_list("null_pages", ci->n_null_pages, npages);
	check_list("min_values", ci->n_min_values, npages);
	check_list("max_values", ci->n_max_values, npages);
	if (ci->null_counts)
		check_list("null_counts", ci->n_null_counts, npages);
	if (ci->nan_counts)
	{
		check_list("nan_counts", ci->n_nan_counts, npages);
		if (!counts_known(ci->nan_counts, npages))
			ci->nan_counts = NULL;
	}
	if (ci->boundary_order != PQ_BOUNDARY_UNORDERED &&
		ci->boundary_order != PQ_BOUNDARY_ASCENDING &&
		ci->boundary_order != PQ_BOUNDARY_DESCENDING)
		pq_corrupt("column index has unknown boundary order %d",
				   ci->boundary_order);
	return column_index_trusted(&file->schema->columns[column], oi, ci,
								file->md.row_groups[row_group].num_rows);
}

int64
pq_page_end_row(const PqOffsetIndex *oi, int page, int64 num_rows)
{
	return page + 1 < oi->n_page_locations ?
		oi->page_locations[page + 1].first_row_index : num_rows;
}

/* Append [start, end) to a sorted list, merging with its last range. */
static void
append_range(PqRowRange *out, int *n, int64 start, int64 end)
{
	if (start >= end)
		return;
	if (*n > 0 && out[*n - 1].end >= start)
	{
		out[*n - 1].end = Max(out[*n - 1].end, end);
		return;
	}
	out[*n].start = start;
	out[*n].end = end;
	(*n)++;
}

PqRowRange *
pq_page_row_ranges(const PqOffsetIndex *oi, int64 num_rows, const bool *keep,
				   int *n)
{
	PqRowRange *out = palloc(sizeof(PqRowRange) * Max(oi->n_page_locations, 1));
	int			i;

	*n = 0;
	for (i = 0; i < oi->n_page_locations; i++)
		if (keep[i])
			append_range(out, n, oi->page_locations[i].first_row_index,
						 pq_page_end_row(oi, i, num_rows));
	return out;
}

PqRowRange *
pq_row_ranges_intersect(const PqRowRange *a, int na, const PqRowRange *b,
						int nb, int *n)
{
	PqRowRange *out = palloc(sizeof(PqRowRange) * Max(na + nb, 1));
	int			i = 0;
	int			j = 0;

	*n = 0;
	while (i < na && j < nb)
	{
		append_range(out, n, Max(a[i].start, b[j].start),
					 Min(a[i].end, b[j].end));
		/* the range that ends first cannot meet anything further on */
		if (a[i].end < b[j].end)
			i++;
		else
			j++;
	}
	return out;
}

PqRowRange *
pq_row_ranges_union(const PqRowRange *a, int na, const PqRowRange *b, int nb,
					int *n)
{
	PqRowRange *out = palloc(sizeof(PqRowRange) * Max(na + nb, 1));
	int			i = 0;
	int			j = 0;

	*n = 0;
	while (i < na || j < nb)
	{
		const PqRowRange *next;

		if (j >= nb || (i < na && a[i].start <= b[j].start))
			next = &a[i++];
		else
			next = &b[j++];
		append_range(out, n, next->start, next->end);
	}
	return out;
}

int64
pq_row_ranges_rows(const PqRowRange *r, int n)
{
	int64		rows = 0;
	int			i;

	for (i = 0; i < n; i++)
		rows += r[i].end - r[i].start;
	return rows;
}

void
pq_row_range_list_init(PqRowRangeList *l)
{
	l->cap = 16;
	l->n = 0;
	l->ranges = palloc(sizeof(PqRowRange) * l->cap);
}

void
pq_row_range_list_add(PqRowRangeList *l, int64 base, const int *rows, int m)
{
	int			j;

	for (j = 0; j < m; j++)
	{
		int64		row = base + rows[j];

		if (l->n > 0 && l->ranges[l->n - 1].end == row)
			l->ranges[l->n - 1].end++;
		else
		{
			if (l->n == l->cap)
			{
				l->cap *= 2;
				l->ranges = repalloc(l->ranges, sizeof(PqRowRange) * l->cap);
			}
			l->ranges[l->n].start = row;
			l->ranges[l->n].end = row + 1;
			l->n++;
		}
	}
}
