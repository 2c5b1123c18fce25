/*-------------------------------------------------------------------------
 *
 * table_reader.c
 *		Files -> row groups -> batches of decoded rows for one foreign table.
 *
 * Memory: the reader's context holds converters, the first file's footer
 * and the batch arrays; the file context (reset per file) holds the footer
 * and column readers, whose chunk contexts are reset per row group; the
 * batch context (reset per batch) holds the Datums of the batch.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/footer_cache.h"
#include "fdw/common/source.h"
#include "fdw/common/table_options.h"
#include "fdw/scan/table_reader_state.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/*
 * Rows decoded per batch: up to a segment's worth, fewer for very wide
 * tables so that a batch stays around 4 MB of Datums.
 */
#define PQFDW_BATCH_MAX_ROWS PQ_SEGMENT_CAP
#define PQFDW_BATCH_TARGET_DATUMS (512 * 1024)

/*
 * relid: a foreign table (columns found with its column options, keys from
 * its options); InvalidOid: tupdesc of relname, columns found by name.
 */
static PqTableReader *
reader_create(TupleDesc tupdesc, Oid relid, const char *relname,
			  List *paths, List *attnums, const PqfdwAccess *access,
			  MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "parquet_fdw reader",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	PqTableReader *tr = palloc0(sizeof(PqTableReader));
	Size		cells;
	ListCell   *lc;
	int			i;

	tr->cxt = cxt;
	tr->file_cxt = AllocSetContextCreate(cxt, "parquet_fdw file",
										 ALLOCSET_DEFAULT_SIZES);
	tr->batch_cxt = AllocSetContextCreate(cxt, "parquet_fdw batch",
										  ALLOCSET_DEFAULT_SIZES);
	tr->rg_cxt = AllocSetContextCreate(cxt, "parquet_fdw row group",
									   ALLOCSET_DEFAULT_SIZES);
	tr->chunk_fetch = pq_chunk_fetch_create(cxt);
	tr->relid = relid;
	tr->relname = pstrdup(relname);
	tr->tupdesc = tupdesc;
	tr->natts = tupdesc->natts;
	tr->paths = list_copy(paths);
	if (access)
		tr->access = *access;
	else
		pqfdw_access_local(&tr->access, NULL);
	tr->ncols = list_length(attnums);
	tr->cols = palloc0(sizeof(PqTableColumn) * Max(tr->ncols, 1));
	i = 0;
	foreach(lc, attnums)
	{
		PqTableColumn *c = &tr->cols[i++];

		c->attnum = lfirst_int(lc);
		c->output = true;
		c->attname = pstrdup(NameStr(TupleDescAttr(tupdesc, c->attnum - 1)->attname));
	}
	tr->att_cv = palloc0(sizeof(PqConverter *) * Max(tr->natts, 1));
	tr->batch.codes = palloc0(sizeof(PqBatchCodes *) * Max(tr->natts, 1));
	tr->batch.converters = palloc0(sizeof(PqConverter *) * Max(tr->natts, 1));
	tr->batch_cols = palloc(sizeof(PqBatchColumn) * Max(tr->ncols, 1));
	for (i = 0; i < tr->ncols; i++)
	{
		tr->batch_cols[i].att = tr->cols[i].attnum - 1;
		tr->batch_cols[i].output = true;
	}
	tr->batch.ncols = tr->ncols;
	tr->batch.cols = tr->batch_cols;
	tr->batch.natts = tr->natts;
	tr->att_leaf = palloc(sizeof(int) * Max(tr->natts, 1));
	for (i = 0; i < tr->natts; i++)
		tr->att_leaf[i] = -1;

	tr->batch.capacity = Max(1, Min(PQFDW_BATCH_MAX_ROWS,
									PQFDW_BATCH_TARGET_DATUMS / Max(tr->natts, 1)));
	cells = (Size) tr->batch.capacity * Max(tr->natts, 1);
	tr->batch.values = palloc0(sizeof(Datum) * cells);
	/* columns that are not read stay NULL in every row */
	tr->batch.nulls = palloc(sizeof(bool) * cells);
	memset(tr->batch.nulls, true, sizeof(bool) * cells);
	tr->file_index = -1;
	MemoryContextSwitchTo(old);
	return tr;
}

PqTableReader *
pqfdw_table_reader_create(Relation rel, Oid userid, List *paths,
						  List *attnums, PqfdwHiveMode hive,
						  MemoryContext parent)
{
	Oid			relid = RelationGetRelid(rel);
	PqTableReader *tr;
	PqfdwTableOptions opts;

	pqfdw_get_table_options_as(relid, userid, &opts);
	tr = reader_create(RelationGetDescr(rel), relid,
					   RelationGetRelationName(rel), paths, attnums,
					   &opts.access, parent);
	tr->ds = pqfdw_dataset_create(relid, tr->tupdesc, tr->paths, &opts, hive,
								  tr->cxt);
	return tr;
}

PqTableReader *
pqfdw_table_reader_create_desc(TupleDesc tupdesc, const char *relname,
							   List *paths, List *attnums,
							   const PqfdwAccess *access,
							   MemoryContext parent)
{
	return reader_create(tupdesc, InvalidOid, relname, paths, attnums,
						 access, parent);
}

/*
 * Column c's reader of leaf in the open file: the last file's, rebound, or
 * a new one when the leaf's values need other scratch (BYTE_ARRAY or not,
 * another width).  Creating three readers per file was 2% of a scan over
 * 10,000 one-row-group files.
 */
static PqColumnReader *
column_reader(PqTableReader *tr, PqTableColumn *c, int leaf)
{
	if (c->kept != NULL && pq_column_reader_rebind(c->kept, tr->file, leaf))
		return c->kept;
	if (c->kept != NULL)
		pq_column_reader_free(c->kept);
	c->kept = pq_column_reader_create(tr->file, leaf, tr->cxt);
	return c->kept;
}

/*
 * Open file next (an index into paths; false past the last) and map the
 * columns read onto it; the first file also sets up the converters, which
 * checks the declared types once before any row is returned.
 */
static bool
open_file(PqTableReader *tr, int next)
{
	MemoryContext conv_cxt;
	MemoryContext old;
	ErrorContextCallback cb;
	PqTableColumnContext mc;
	const char *path;
	int			i;

	/*
	 * The open file stays open when no other follows, and a rescan that comes
	 * back to it reuses it with its footer and page indexes.
	 */
	while (tr->file_check && next < list_length(tr->paths) &&
		   !tr->file_check(tr->file_check_arg, next))
		next++;
	if (tr->file && tr->open_index == next)
	{
		tr->file_index = next;
		tr->row_group = -1;
		tr->rg_rows_left = 0;
		tr->file_row = 0;
		return true;
	}
	if (next >= list_length(tr->paths))
	{
		tr->file_index = next;
		return false;
	}
	if (tr->file)
	{
		tr->bytes_read += pqfdw_table_reader_columns_stat(tr, true);
		tr->pages_read += pqfdw_table_reader_columns_stat(tr, false);
		pqfdw_source_close(tr->file->src);
	}

	/*
	 * Read one after another, the small objects among the next files come
	 * whole in one batch, not a round trip each (parallel scans claim row
	 * groups out of file order).
	 */
	if (next >= tr->small_fetched && tr->claim == NULL)
		tr->small_fetched = pqfdw_fetch_object_ends(tr->paths, next, true,
													tr->file_check,
													tr->file_check_arg,
													&tr->access);
	tr->file = NULL;
	MemoryContextReset(tr->file_cxt);
	tr->file_index = next;
	tr->open_index = next;
	path = list_nth(tr->paths, tr->file_index);

	/* the first file's footer lives as long as the reader, for comparisons */
	old = MemoryContextSwitchTo(tr->first_file ? tr->file_cxt : tr->cxt);
	tr->file = pqfdw_file_open_named(path, tr->only_name ? tr->only_name : path,
									 &tr->access);
	tr->file->schema = pqfdw_dataset_file_schema(tr->ds, tr->file->schema);
	pqfdw_dataset_check_size(tr->ds, tr->file_index, tr->file->src->size);
	MemoryContextSwitchTo(old);
	/* from here on, path is what messages call the file */
	path = tr->file->src->name;
	tr->loc.filename = path;
	if (tr->first_file == NULL)
		tr->first_file = tr->file;
	else if ((tr->ds == NULL || !tr->ds->union_by_name) &&
			 !pqfdw_footer_cache_same_schema(tr->first_file, tr->file))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION),
				 errmsg("schema of Parquet file \"%s\" differs from the schema of \"%s\"",
						path, tr->first_file->src->name),
				 errhint("All files of one foreign table must have the same columns and types, unless its option union_by_name is true.")));

	/* under union_by_name converters are made per file */
	conv_cxt = tr->ds && tr->ds->union_by_name ? tr->file_cxt : tr->cxt;
	for (i = 0; i < tr->ncols; i++)
	{
		PqTableColumn *c = &tr->cols[i];
		PqSchemaNode *leaf;
		Form_pg_attribute att = TupleDescAttr(tr->tupdesc, c->attnum - 1);

		if (!pqfdw_table_column_map(tr, c, path, &leaf))
			continue;
		pqfdw_table_column_error_context(&cb, &mc, c, path, leaf);

		if (pqfdw_is_nested_field(leaf))
		{
			/* nested fields have no dictionary indices of rows */
			c->codes = NULL;
			tr->batch.codes[c->attnum - 1] = NULL;
			if (c->nested == NULL)
				c->nested = pqfdw_nested_column_create(leaf, att->atttypid,
													   att->atttypmod,
													   c->attname,
													   c->variant_keys,
													   tr->batch.capacity,
													   conv_cxt);
			pqfdw_nested_column_open(c->nested, tr->file, leaf, tr->file_cxt);
			error_context_stack = cb.previous;
			continue;
		}
		if (!c->conv_ready && c->unscaled && !c->filtered)
		{
			if (!pqfdw_converter_init_unscaled(&c->conv, leaf, c->attname,
											   conv_cxt))
				elog(ERROR, "column \"%s\" is not a DECIMAL read unscaled",
					 c->attname);
			c->conv_ready = true;
		}
		else if (!c->conv_ready)
		{
			pqfdw_converter_init(&c->conv, leaf, att->atttypid, att->atttypmod,
								 c->attname, conv_cxt);
			c->conv_ready = true;
			pqfdw_geo_bind_file(&c->conv, leaf, &tr->file->md, path, true);
			/* the filter tests numerics, the batch hands out unscaled */
			if (c->unscaled)
			{
				if (!pqfdw_converter_init_unscaled(&c->uconv, leaf, c->attname,
												   conv_cxt))
					elog(ERROR, "column \"%s\" is not a DECIMAL read unscaled",
						 c->attname);
				c->split = true;
			}
		}
		else
			pqfdw_geo_bind_file(&c->conv, leaf, &tr->file->md, path, false);
		c->reader = column_reader(tr, c, leaf->first_leaf);
		tr->att_cv[c->attnum - 1] = &c->conv;
		tr->batch.converters[c->attnum - 1] = c->split ? &c->uconv : &c->conv;
		tr->att_leaf[c->attnum - 1] = leaf->first_leaf;
		error_context_stack = cb.previous;
	}
	tr->row_group = -1;
	tr->ahead_last = -1;
	tr->next_first = tr->next_last = -1;
	tr->rg_rows_left = 0;
	tr->file_row = 0;
	return true;
}

/* Start a column reader on the row group's pages holding tr->rg_ranges. */
static void
start_reader(PqTableReader *tr, PqColumnReader *r)
{
	PqOffsetIndex oi;
	bool		have_oi = false;

	if (tr->rg_ranges != NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(tr->rg_cxt);
		int64		before = tr->file->src->bytes_read;

		have_oi = pq_offset_index_read(tr->file, tr->row_group,
									   r->col->index, &oi);
		tr->bytes_read += tr->file->src->bytes_read - before;
		MemoryContextSwitchTo(old);
	}
	pq_column_reader_start_ranges(r, tr->row_group, have_oi ? &oi : NULL,
								  tr->rg_ranges, tr->rg_nranges);
}

/* Start column i: its reader, or a nested column's leaf readers. */
static void
start_column(PqTableReader *tr, int i)
{
	PqNestedColumn *nc = tr->cols[i].nested;
	int			k;

	if (!pqfdw_column_reads_file(&tr->cols[i]))
		return;
	if (nc == NULL)
	{
		start_reader(tr, tr->cols[i].reader);
		return;
	}
	for (k = 0; k < nc->nleaves; k++)
		start_reader(tr, nc->readers[k]);
	pq_assembler_reset(nc->assembler);
}

bool		pqfdw_enable_late_materialization = true;

/* Move flat column c's reader to row group row rg_row. */
static inline void
seek_column(PqTableColumn *c, int64 rg_row)
{
	pq_column_reader_skip(c->reader, rg_row - pq_column_reader_row(c->reader));
}

/*
 * The next segment of flat column c, at most max rows, with the converter
 * told its first row for messages.
 */
static int
next_segment(PqTableReader *tr, PqTableColumn *c, int max, PqSegment *seg)
{
	int64		row = pq_column_reader_row(c->reader);
	int			got;

	tr->loc.column = c->reader->col->path;
	got = pq_column_reader_next(c->reader, max, seg);
	if (got == 0)
		pq_corrupt("column chunk ends after " INT64_FORMAT " of " INT64_FORMAT " rows of its row group",
				   row, tr->file->md.row_groups[tr->row_group].num_rows);
	c->conv.row_base = c->uconv.row_base = tr->file_row + row;
	return got;
}

/*
 * Column c's codes for batch rows [at, at + seg->n) of segment seg (or of
 * the rows of it a caller selected, whose codes are in place): rows of a
 * dictionary other than the batch's first lose theirs (a batch stays in one
 * row group, so that only happens after a fallback to plain pages).
 */
static void
note_codes(PqTableColumn *c, const PqSegment *seg, int at, int n,
		   bool in_place)
{
	PqBatchCodes *bc = c->codes;
	int			i;

	if (!in_place)
		pqfdw_segment_codes(&c->conv, seg, bc->codes + at);
	if (seg->indices == NULL)
		return;
	if (bc->dict_id == 0)
	{
		bc->dict_id = seg->dict->id;
		bc->dict_count = seg->dict->count;
	}
	else if (bc->dict_id != seg->dict->id)
		for (i = 0; i < n; i++)
			bc->codes[at + i] = PQFDW_NO_CODE;
}

/*
 * Decode rows [tr->rg_pos, tr->rg_pos + n) of filtered column c and
 * evaluate the filter's leaves on them; their Datums go to the batch when
 * convert is set or the leaves need them.
 */
static void
filter_column(PqTableReader *tr, PqTableColumn *c, int n, bool convert)
{
	int			att = c->attnum - 1;
	Datum	   *values = tr->batch.values + pqfdw_batch_index(&tr->batch, att, 0);
	bool	   *nulls = tr->batch.nulls + pqfdw_batch_index(&tr->batch, att, 0);
	int			filled = 0;

	if (c->nested)
	{
		/* its error context names the column and field */
		tr->loc.column = NULL;
		pqfdw_nested_column_fill(c->nested, tr->rg_pos, n, values, nulls,
								 tr->file_row + tr->rg_pos);
		pqfdw_filter_datums(tr->filter, c->attnum, 0, n, values, nulls);
		return;
	}
	seek_column(c, tr->rg_pos);
	while (filled < n)
	{
		PqSegment	seg;
		int			got = next_segment(tr, c, n - filled, &seg);
		bool		datums;

		datums = (convert && !c->split) ||
			pqfdw_filter_needs_datums(tr->filter, c->attnum, &c->conv, &seg);
		if (datums)
			pqfdw_convert_segment(&c->conv, &seg, values + filled,
								  nulls + filled);
		if (convert && c->codes)
			note_codes(c, &seg, filled, got, false);
		pqfdw_filter_segment(tr->filter, c->attnum, &c->conv, &seg, filled,
							 datums ? values + filled : NULL,
							 datums ? nulls + filled : NULL);
		/* the filter has read the numerics: hand out the unscaled values */
		if (convert && c->split)
			pqfdw_convert_segment(&c->uconv, &seg, values + filled,
								  nulls + filled);
		filled += got;
	}
}

/*
 * Evaluate the filter on the n rows at tr->rg_pos: the passing ones go to
 * tr->sel, their number is returned.  With convert, the filtered columns
 * handed out have all n rows' Datums in the batch.
 */
static int
filter_rows(PqTableReader *tr, int n, bool convert)
{
	int			k;

	for (k = 0; k < tr->nfilter_cols; k++)
	{
		PqTableColumn *c = &tr->cols[tr->filter_cols[k]];

		filter_column(tr, c, n, convert && c->output);
	}
	return pqfdw_filter_select(tr->filter, n, tr->sel);
}

/*
 * Late materialization over a page index's ranges: evaluate the filter on
 * tr->rg_ranges, keep the passing rows as the new ranges, and rewind the
 * filtered columns onto their already fetched pages.  False when it cannot
 * be done here (a filtered column read without selected pages); the ranges
 * are then unchanged.
 */
static bool
narrow_ranges(PqTableReader *tr)
{
	PqRowRangeList tight;
	MemoryContext old;
	int			k;

	for (k = 0; k < tr->nfilter_cols; k++)
	{
		PqTableColumn *c = &tr->cols[tr->filter_cols[k]];

		/* nested columns read whole chunks when repeated: no narrowing */
		if (c->nested != NULL || c->reader->sel == NULL)
			return false;
	}

	old = MemoryContextSwitchTo(tr->rg_cxt);
	pq_row_range_list_init(&tight);
	MemoryContextSwitchTo(old);
	for (k = 0; k < tr->rg_nranges; k++)
	{
		int64		pos = tr->rg_ranges[k].start;

		while (pos < tr->rg_ranges[k].end)
		{
			int			n = (int) Min((int64) tr->batch.capacity,
									  tr->rg_ranges[k].end - pos);
			int			m;

			CHECK_FOR_INTERRUPTS();
			MemoryContextReset(tr->batch_cxt);
			old = MemoryContextSwitchTo(tr->batch_cxt);
			tr->rg_pos = pos;
			m = filter_rows(tr, n, false);
			MemoryContextSwitchTo(old);
			tr->rows_filtered += n - m;
			pq_row_range_list_add(&tight, pos, tr->sel, m);
			pos += n;
		}
	}
	MemoryContextReset(tr->batch_cxt);
	tr->rg_ranges = tight.ranges;
	tr->rg_nranges = tight.n;
	for (k = 0; k < tr->nfilter_cols; k++)
		pq_column_reader_rewind(tr->cols[tr->filter_cols[k]].reader);
	return true;
}

/*
 * Start every column on the whole row group, with adjacent chunks read
 * together (the chunk fetch's buffer holds them until the next row group).
 */
static void
start_whole_columns(PqTableReader *tr)
{
	PqColumnReader **readers;
	int			n;
	int			i;

	readers = pqfdw_table_reader_file_readers(tr, &n);
	if (n == 0)
		return;
	for (i = 0; i < tr->ncols; i++)
		if (pqfdw_column_reads_file(&tr->cols[i]) && tr->cols[i].nested)
			pq_assembler_reset(tr->cols[i].nested->assembler);
	pq_chunk_fetch_start(tr->chunk_fetch, readers, n, tr->row_group);
}


/*
 * Start the column readers on the row group, narrowing the row ranges by
 * the filter first when there are ranges and columns besides the filtered
 * ones.
 */
static void
start_columns(PqTableReader *tr)
{
	int			i;

	tr->rg_filtered = false;
	if (tr->rg_ranges != NULL && tr->filter != NULL &&
		tr->nfilter_cols < tr->ncols && pqfdw_enable_late_materialization)
	{
		for (i = 0; i < tr->nfilter_cols; i++)
			start_column(tr, tr->filter_cols[i]);
		tr->rg_filtered = narrow_ranges(tr);
	}
	if (tr->rg_ranges == NULL)
	{
		start_whole_columns(tr);
		return;
	}
	for (i = 0; i < tr->ncols; i++)
		if (!tr->rg_filtered || !tr->cols[i].filtered)
			start_column(tr, i);
}

/*
 * Keep only the rows of the row group's piece tr->unit_piece (of
 * tr->unit_pieces equal row ranges) in tr->rg_ranges.
 */
static void
restrict_to_piece(PqTableReader *tr, int64 num_rows)
{
	PqRowRange	piece = {num_rows * tr->unit_piece / tr->unit_pieces,
	num_rows * (tr->unit_piece + 1) / tr->unit_pieces};
	PqRowRange	whole = {0, num_rows};
	MemoryContext old = MemoryContextSwitchTo(tr->rg_cxt);

	tr->rg_ranges = pq_row_ranges_intersect(tr->rg_ranges ? tr->rg_ranges : &whole,
											tr->rg_ranges ? tr->rg_nranges : 1,
											&piece, 1, &tr->rg_nranges);
	MemoryContextSwitchTo(old);
}

/*
 * Enter row group tr->row_group of the open file: prune it, start the
 * column readers on its rows.  False when it has no rows to return.
 */
static bool
enter_row_group(PqTableReader *tr)
{
	int64		num_rows = tr->file->md.row_groups[tr->row_group].num_rows;

	tr->loc.row_group = tr->row_group;
	tr->loc.column = NULL;
	if (num_rows == 0)
		return false;
	MemoryContextReset(tr->rg_cxt);
	tr->rg_ranges = NULL;
	tr->rg_nranges = 0;
	if (tr->sample &&
		!tr->sample[tr->sample_first[tr->file_index] + tr->row_group])
		return false;
	if (tr->want_rows && !pqfdw_table_reader_wanted_ranges(tr, num_rows))
		return false;
	if (tr->pruner && pqfdw_pruner_active(tr->pruner) &&
		!pqfdw_table_reader_prune(tr))
		return false;
	if ((tr->rg_ranges && pq_row_ranges_rows(tr->rg_ranges, tr->rg_nranges) == 0) ||
		!pqfdw_table_reader_skip_deleted(tr, num_rows))
		return false;
	if (tr->unit_pieces > 1)
	{
		/* the row group counts as read once: by its first piece */
		if (tr->unit_piece == 0)
			tr->row_groups_read++;
		restrict_to_piece(tr, num_rows);
		if (tr->rg_nranges == 0)
			return false;
	}
	pqfdw_table_reader_read_ahead(tr);
	start_columns(tr);
	tr->rg_rows_left = tr->rg_ranges ?
		pq_row_ranges_rows(tr->rg_ranges, tr->rg_nranges) : num_rows;
	if (tr->rg_rows_left == 0)
		return false;
	tr->rg_range = 0;
	tr->rg_pos = tr->rg_ranges ? tr->rg_ranges[0].start : 0;
	if (tr->unit_pieces <= 1)
		tr->row_groups_read++;
	return true;
}

/*
 * Parallel scans: the file this process opened must be the one the leader
 * found when the scan began.  A file replaced in between, even by one of
 * the same size and row groups, would give rows of two versions under one
 * name, and units would be lost or read twice.
 */
static void
check_same_file(PqTableReader *tr, const PqFileStamp *leader)
{
	PqFileStamp now;

	pqfdw_source_stamp(tr->file->src, &now);
	/* compared as the footer cache compares stamps */
	if (memcmp(&now, leader, sizeof(PqFileStamp)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION),
				 errmsg("Parquet file \"%s\" changed during a parallel scan",
						tr->file->src->name),
				 errdetail("It was replaced or written to after the scan began."),
				 errhint("Run the query again once the file is no longer being written.")));
}

/* Parallel scans: the next row group the shared cursor gives this process. */
static bool
next_claimed_row_group(PqTableReader *tr)
{
	for (;;)
	{
		PqScanUnit	unit;
		int			file;
		int			rg;
		int			i;

		if (!tr->claim(tr->claim_arg, &unit))
			return false;
		if (tr->file_check &&
			!tr->file_check(tr->file_check_arg, unit.file))
			continue;
		file = unit.file;
		rg = unit.row_group;
		tr->unit_piece = unit.piece;
		tr->unit_pieces = unit.pieces;
		if (tr->file == NULL || tr->file_index != file)
		{
			open_file(tr, file);
			check_same_file(tr, unit.file_stamp);
		}
		/* a process's units only increase: add the row groups skipped */
		Assert(rg >= tr->row_group);
		for (i = Max(tr->row_group, 0); i < rg; i++)
			tr->file_row += tr->file->md.row_groups[i].num_rows;
		tr->row_group = rg;
		if (enter_row_group(tr))
			return true;
	}
}

/* Advance to a row group with rows; false when every file is done. */
static bool
next_row_group(PqTableReader *tr)
{
	if (tr->claim)
		return next_claimed_row_group(tr);
	for (;;)
	{
		if (tr->file == NULL || tr->file_index < 0 ||
			tr->row_group + 1 >= tr->file->md.n_row_groups)
		{
			if (!open_file(tr, tr->file_index + 1))
				return false;
			continue;
		}
		if (tr->row_group >= 0)
			tr->file_row += tr->file->md.row_groups[tr->row_group].num_rows;
		tr->row_group++;
		if (enter_row_group(tr))
			return true;
	}
}

/* Decode rows [tr->rg_pos, tr->rg_pos + n) of column c into the batch. */
static void
fill_column(PqTableReader *tr, PqTableColumn *c, int n)
{
	int			filled = 0;
	int			att = c->attnum - 1;

	if (c->nested)
	{
		/* its error context names the column and field */
		tr->loc.column = NULL;
		pqfdw_nested_column_fill(c->nested, tr->rg_pos, n,
								 tr->batch.values + pqfdw_batch_index(&tr->batch, att, 0),
								 tr->batch.nulls + pqfdw_batch_index(&tr->batch, att, 0),
								 tr->file_row + tr->rg_pos);
		return;
	}
	seek_column(c, tr->rg_pos);
	while (filled < n)
	{
		PqSegment	seg;
		int			got = next_segment(tr, c, n - filled, &seg);

		pqfdw_convert_segment(c->split ? &c->uconv : &c->conv, &seg,
							  tr->batch.values + pqfdw_batch_index(&tr->batch, att, filled),
							  tr->batch.nulls + pqfdw_batch_index(&tr->batch, att, filled));
		if (c->codes)
			note_codes(c, &seg, filled, got, false);
		filled += got;
	}
}

/* Keep batch rows sel[0..m) of attribute att, in order, at 0..m. */
static void
compact_column(PqTableReader *tr, int att, const int *sel, int m)
{
	Datum	   *values = tr->batch.values + pqfdw_batch_index(&tr->batch, att, 0);
	bool	   *nulls = tr->batch.nulls + pqfdw_batch_index(&tr->batch, att, 0);
	PqBatchCodes *bc = tr->batch.codes[att];
	int			j;

	for (j = 0; j < m; j++)
	{
		values[j] = values[sel[j]];
		nulls[j] = nulls[sel[j]];
	}
	for (j = 0; bc && j < m; j++)
		bc->codes[j] = bc->codes[sel[j]];
}

/*
 * Decode only rows sel[0..m) (ascending, below n) of the n at tr->rg_pos
 * of flat column c into batch rows 0..m: the reader skips from one to the
 * next (pages in between are not decompressed) and converts only them.
 */
static void
fill_column_rows(PqTableReader *tr, PqTableColumn *c, int n, const int *sel,
				 int m)
{
	int			att = c->attnum - 1;
	Datum	   *values = tr->batch.values + pqfdw_batch_index(&tr->batch, att, 0);
	bool	   *nulls = tr->batch.nulls + pqfdw_batch_index(&tr->batch, att, 0);
	int			k = 0;

	while (k < m)
	{
		PqSegment	seg;
		int			got;
		int			j;

		seek_column(c, tr->rg_pos + sel[k]);
		got = next_segment(tr, c, n - sel[k], &seg);
		for (j = k; j < m && sel[j] < sel[k] + got; j++)
			tr->seg_rows[j - k] = sel[j] - sel[k];
		pqfdw_convert_segment_rows(c->split ? &c->uconv : &c->conv, &seg,
								   tr->seg_rows, j - k,
								   values + k, nulls + k,
								   c->codes ? c->codes->codes + k : NULL);
		if (c->codes)
			note_codes(c, &seg, k, j - k, true);
		k = j;
	}
}

/* The ERROR of a value out of range in a row of the n that the filter kept m of. */
static void
check_kept(PqTableReader *tr, int n, int m)
{
	int			i;

	for (i = 0; i < tr->ncols; i++)
		if (tr->cols[i].conv.nbad_rows > 0)
		{
			tr->loc.column = tr->cols[i].reader ?
				tr->cols[i].reader->col->path : NULL;
			pqfdw_converter_check_kept(&tr->cols[i].conv,
									   tr->file_row + tr->rg_pos,
									   m < n ? tr->sel : NULL, m, n);
		}
}

/*
 * Fill the batch with the n rows at tr->rg_pos, or with those of them the
 * filter passes; returns how many rows the batch holds.
 */
static int
fill_batch(PqTableReader *tr, int n)
{
	bool		filtering = tr->filter != NULL && !tr->rg_filtered;
	bool		selecting = filtering || tr->rg_ndel > 0;
	bool		late = pqfdw_enable_late_materialization;
	int			m = n;
	int			i;

	/*
	 * A value out of range is an ERROR only in a row the filter keeps (and no
	 * deletion vector deleted): rows are converted before that is known.
	 */
	for (i = 0; i < tr->ncols; i++)
		tr->cols[i].conv.defer_bad_rows = selecting;
	if (filtering)
	{
		m = filter_rows(tr, n, true);
		tr->rows_filtered += n - m;
	}
	if (tr->rg_ndel > 0)
		m = pqfdw_table_reader_drop_deleted(tr, n, m);
	if (selecting && m == 0)
	{
		check_kept(tr, n, m);
		return 0;
	}
	for (i = 0; i < tr->ncols; i++)
	{
		PqTableColumn *c = &tr->cols[i];

		if (!c->output || c->deferred || (filtering && c->filtered))
			continue;
		if (!pqfdw_column_reads_file(c))
		{
			pqfdw_table_column_fill_from_file(tr, c, n, tr->sel, m);
			continue;
		}

		/*
		 * Selecting rows costs more per row than converting all and
		 * compacting, unless the filter removed a good part of them.
		 */
		if (m == n || !late || c->nested || m >= n - n / 8)
		{
			fill_column(tr, c, n);
			if (m < n)
				compact_column(tr, c->attnum - 1, tr->sel, m);
		}
		else
			fill_column_rows(tr, c, n, tr->sel, m);
	}
	if (filtering && m < n)
		for (i = 0; i < tr->nfilter_cols; i++)
		{
			PqTableColumn *c = &tr->cols[tr->filter_cols[i]];

			if (c->output)
				compact_column(tr, c->attnum - 1, tr->sel, m);
		}
	if (selecting)
		check_kept(tr, n, m);
	return m;
}

const PqBatch *
pqfdw_table_reader_batch(PqTableReader *tr)
{
	return &tr->batch;
}

static const PqBatch *
next_batch(PqTableReader *tr)
{
	for (;;)
	{
		MemoryContext old;
		int64		end;
		int			n;
		int			m;
		int			i;

		/* the previous batch's Datums are no longer referenced */
		MemoryContextReset(tr->batch_cxt);
		if (tr->rg_rows_left == 0 && !next_row_group(tr))
		{
			tr->batch.nrows = 0;
			return NULL;
		}

		/* a batch stays inside one range */
		if (tr->rg_ranges)
		{
			if (tr->rg_pos >= tr->rg_ranges[tr->rg_range].end)
				tr->rg_pos = tr->rg_ranges[++tr->rg_range].start;
			end = tr->rg_ranges[tr->rg_range].end;
		}
		else
			end = tr->file->md.row_groups[tr->row_group].num_rows;

		CHECK_FOR_INTERRUPTS();
		n = (int) Min((int64) tr->batch.capacity, end - tr->rg_pos);
		for (i = 0; i < tr->ncols; i++)
			if (tr->cols[i].codes)
				tr->cols[i].codes->dict_id = 0;
		old = MemoryContextSwitchTo(tr->batch_cxt);
		tr->batch_row0 = tr->file_row + tr->rg_pos;
		m = fill_batch(tr, n);
		tr->batch_sel = m < n ? tr->sel : NULL;
		MemoryContextSwitchTo(old);

		tr->rg_rows_left -= n;
		tr->rg_pos += n;
		if (m > 0)
		{
			tr->batch.nrows = m;
			return &tr->batch;
		}
	}
}

const PqBatch *
pqfdw_table_reader_next(PqTableReader *tr)
{
	const PqBatch *b;

	pq_errloc_push(&tr->loc, tr->file ? tr->file->src->name : NULL);
	if (tr->file && tr->row_group >= 0)
		tr->loc.row_group = tr->row_group;
	/* the next window, in flight behind the URL, moves on between batches */
	if (tr->file && tr->file->src->poll)
		tr->file->src->poll(tr->file->src);
	b = next_batch(tr);
	pq_errloc_pop(&tr->loc);
	return b;
}

void
pqfdw_table_reader_rescan(PqTableReader *tr)
{
	/* the open file is kept: open_file() reuses it */
	tr->file_index = -1;
	tr->small_fetched = 0;
	tr->row_group = -1;
	tr->rg_rows_left = 0;
	MemoryContextReset(tr->batch_cxt);
}


void
pqfdw_table_reader_end(PqTableReader *tr)
{
	if (tr->file)
		pqfdw_source_close(tr->file->src);
	tr->file = NULL;
	MemoryContextDelete(tr->cxt);
}
