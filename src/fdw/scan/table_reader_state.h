/*-------------------------------------------------------------------------
 *
 * table_reader_state.h
 *		The table reader's state, private to the table_reader*.c files (the
 *		layout check enforces it): consumers see batches (batch.h) and the
 *		functions of table_reader.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_TABLE_READER_STATE_H
#define PQFDW_TABLE_READER_STATE_H

#include "fdw/scan/table_reader.h"

typedef struct PqTableColumn
{
	AttrNumber	attnum;			/* 1-based */
	char	   *attname;
	PqConverter conv;
	bool		conv_ready;
	PqColumnReader *reader;		/* for the current file */
	PqColumnReader *kept;		/* the reader, rebound from file to file */
	PqNestedColumn *nested;		/* instead of conv and reader: a nested field
								 * (fdw/convert/nested.h) */
	List	   *variant_keys;	/* VARIANT as jsonb: the object fields the
								 * query uses (NIL: all) */
	bool		output;			/* its Datums are handed out (false: only the
								 * filter reads it) */
	bool		filtered;		/* the filter tests it */
	bool		deferred;		/* not read: another reader fetches the rows
								 * wanted (set_deferred) */
	bool		unscaled;		/* DECIMAL as unscaled int8 (set_unscaled) */
	PqConverter uconv;			/* a filtered unscaled column: conv gives the
								 * filter numerics, uconv the Datums handed
								 * out (split) */
	bool		split;
	PqBatchCodes *codes;		/* NULL unless set_codes asked for them */

	/*
	 * Not a field of the open file: a column of the dataset (dataset.h), or
	 * under union_by_name a field this file lacks (NULL in its rows).
	 */
	PqfdwColumnKind kind;
	bool		missing;
	Datum		file_value;		/* PARTITION, FILENAME: the file's */
	bool		file_null;
	char	   *first_path;		/* union_by_name: the first file with the */
	char	   *first_type;		/* field, and the field's type there */
} PqTableColumn;

struct PqTableReader
{
	Oid			relid;			/* InvalidOid: not a foreign table */
	char	   *relname;		/* for messages */
	TupleDesc	tupdesc;
	int			natts;
	List	   *paths;
	const char *only_name;		/* the one file's name in messages, or NULL */
	PqfdwAccess access;			/* keys of encrypted files; store settings */
	int			ncols;			/* columns read */
	PqTableColumn *cols;
	PqErrorLocation loc;		/* pushed while next() works: file, row group
								 * and column being converted */

	/* per attribute (attnum - 1): converter and leaf column, when read */
	PqConverter **att_cv;
	int		   *att_leaf;

	MemoryContext cxt;			/* lives as long as the reader */
	MemoryContext file_cxt;		/* reset per file */
	MemoryContext batch_cxt;	/* reset per batch: the Datums handed out */

	int			file_index;		/* into paths; -1 before the first */
	PqFile	   *file;
	int			open_index;		/* file's index in paths */
	int			small_fetched;	/* files before it: small objects prefetched */
	PqFile	   *first_file;		/* schema every later file must match */
	PqfdwDataset *ds;			/* NULL: not a foreign table */

	/* Called before a file is opened; false skips it. */
	bool		(*file_check) (void *arg, int file);
	void	   *file_check_arg;
	int			row_group;
	int64		rg_rows_left;	/* rows still to return from the row group */
	int64		file_row;		/* file row of the row group's first row */

	/*
	 * Rows of the row group to read, sorted (NULL: all of them); pruning may
	 * set them, allocated in rg_cxt.  rg_pos is the next row to return.
	 */
	PqRowRange *rg_ranges;
	int			rg_nranges;
	int			rg_range;
	int64		rg_pos;
	MemoryContext rg_cxt;		/* reset per row group */
	PqChunkFetch *chunk_fetch;	/* the row group's chunks, read whole */
	int			ahead_last;		/* last row group of the current window */
	int			next_first;		/* the background window's, or -1 */
	int			next_last;

	/*
	 * The batch handed out (batch.h), column-major: capacity Datums and nulls
	 * per attribute, so that each column's values are written, and whole rows
	 * formed (row_former.c), in sequence; its converters are uconv for split
	 * columns; batch_cols, its columns, follow cols.
	 */
	PqBatch		batch;
	PqBatchColumn *batch_cols;

	/*
	 * What prunes the row groups (set_pruner; NULL: nothing), and which row
	 * groups a sample reads (set_sample; NULL: all).
	 */
	PqPruner   *pruner;
	const bool *sample;			/* per row group of all files */
	const int  *sample_first;	/* per file: index of its first row group */

	/*
	 * Parallel scans: row groups come from claim, not in order; a unit may be
	 * piece unit_piece of unit_pieces equal row ranges of its row group.
	 */
	PqUnitClaim claim;
	void	   *claim_arg;
	int			unit_piece;
	int			unit_pieces;

	/*
	 * Quals evaluated on batches (filter.h): the columns they test (filtered)
	 * are decoded first, the others only for the rows that pass (late
	 * materialization).  When pruning left row ranges (a page index), the
	 * ranges are first narrowed to the passing rows, so that the other
	 * columns read only the pages holding them (rg_filtered).
	 */
	PqFilter   *filter;
	int		   *filter_cols;	/* indexes into cols */
	int			nfilter_cols;
	int		   *sel;			/* batch_rows: passing rows of a batch */
	int		   *seg_rows;		/* PQ_SEGMENT_CAP: those of a segment */
	bool		rg_filtered;
	int64		rows_filtered;	/* rows the filter removed */
	int64		rows_deleted;	/* rows deletion vectors removed */

	/*
	 * Where the batch's rows are: its first row's number in the file, and the
	 * rows of the n from there it holds (NULL: all).
	 */
	int64		batch_row0;
	const int  *batch_sel;

	/* Rows of the one file to read (set_rows; NULL: all), ascending. */
	int64	   *want_rows;
	int			nwant_rows;

	/*
	 * Rows of the row group a deletion vector deleted that batches leave out
	 * as a filter does (scattered ones: as row ranges, each a few rows long,
	 * they would cost more than decoding them), file row numbers ascending;
	 * rg_del_next is the first not yet passed.
	 */
	const uint64 *rg_del;
	int64		rg_ndel;
	int64		rg_del_next;

	/* statistics */
	int64		row_groups_read;
	int64		bytes_read;		/* of files already closed; OffsetIndexes */
	int64		pages_read;		/* data pages, of files already closed */
};

/*
 * table_reader_dataset.c (for table_reader.c): map column c onto the open
 * file's field *leaf, false when it reads none there; fill its m batch
 * rows from the file itself; name the column's first file in errors while
 * it is set up for another (union_by_name).
 */
typedef struct PqTableColumnContext
{
	PqTableColumn *c;
	const char *path;
	PqSchemaNode *leaf;
} PqTableColumnContext;

extern bool pqfdw_table_column_map(PqTableReader *tr, PqTableColumn *c,
								   const char *path, PqSchemaNode **leaf);
extern void pqfdw_table_column_fill_from_file(PqTableReader *tr,
											  PqTableColumn *c, int n,
											  const int *sel, int m);
extern void pqfdw_table_column_error_context(ErrorContextCallback *cb,
											 PqTableColumnContext *mc,
											 PqTableColumn *c,
											 const char *path,
											 PqSchemaNode *leaf);

/*
 * table_reader_prune.c (for table_reader.c): whether the row group just
 * entered may hold rows to return, its row ranges set in rg_ranges.
 */
extern bool pqfdw_table_reader_prune(PqTableReader *tr);

/*
 * table_reader_rows.c (for table_reader.c): the rows set_rows() wants of
 * the row group just entered as its row ranges (adjacent rows merged);
 * false when it wants none.
 */
/* Bytes (or data pages) read so far by the open file's column readers. */
extern int64 pqfdw_table_reader_columns_stat(PqTableReader *tr, bool bytes);
extern bool pqfdw_table_reader_skip_deleted(PqTableReader *tr,
											int64 num_rows);
extern int	pqfdw_table_reader_drop_deleted(PqTableReader *tr, int n, int m);
extern bool pqfdw_table_reader_wanted_ranges(PqTableReader *tr,
											 int64 num_rows);

/* Whether column c reads a field of the open file. */
static inline bool
pqfdw_column_reads_file(const PqTableColumn *c)
{
	return c->kind == PQFDW_COLUMN_FIELD && !c->missing && !c->deferred;
}

/*
 * table_reader_ahead.c (for table_reader.c): the column readers of the open
 * file (nested columns: each leaf's), allocated in rg_cxt; and, entering a
 * row group, the read-ahead batch of files behind URLs.
 */
extern PqColumnReader **pqfdw_table_reader_file_readers(PqTableReader *tr,
														int *nreaders);
extern void pqfdw_table_reader_read_ahead(PqTableReader *tr);

/*
 * table_reader_nested.c: a nested field read into one column, as flat
 * columns are (for table_reader.c).
 */
extern PqNestedColumn *pqfdw_nested_column_create(const PqSchemaNode *field,
												  Oid typid, int32 typmod,
												  const char *attname,
												  List *variant_keys,
												  int max_rows,
												  MemoryContext cxt);

/* Open the readers and assembler on file (field is its node), in cxt. */
extern void pqfdw_nested_column_open(PqNestedColumn *nc, PqFile *file,
									 const PqSchemaNode *field,
									 MemoryContext cxt);

/*
 * Convert the next n rows of the row group, starting at row group row
 * rg_pos (rows before it are skipped), into values[0, n) / nulls[0, n);
 * file_row is the file row of rg_pos, for messages.
 */
extern void pqfdw_nested_column_fill(PqNestedColumn *nc, int64 rg_pos, int n,
									 Datum *values, bool *nulls, int64 file_row);

#endif							/* PQFDW_TABLE_READER_STATE_H */
