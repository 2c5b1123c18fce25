/*-------------------------------------------------------------------------
 *
 * table_reader.h
 *		Reads a foreign table's Parquet files as batches of rows: files ->
 *		row groups -> per-column segments -> a column-major batch of Datums.
 *		Used by the scan (scan.c), by ANALYZE (analyze.c) and, for a plain
 *		table's TupleDesc, by COPY FROM (fdw/copy/from.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_TABLE_READER_H
#define PQFDW_TABLE_READER_H

#include "fdw/convert/nested.h"
#include "fdw/dataset/dataset.h"
#include "fdw/prune/pruner.h"
#include "fdw/scan/filter.h"
#include "fdw/scan/parallel.h"
#include "format/read/chunk_fetch.h"
#include "format/read/page_index.h"
#include "utils/relcache.h"

typedef struct PqTableReader PqTableReader;

/*
 * Parallel scans: the next unit this process reads (a row group or a piece
 * of one); false when no unit is left (fdw/scan/parallel.c).
 */
typedef bool (*PqUnitClaim) (void *arg, PqScanUnit *unit);

/*
 * A column's dictionary indices for the rows of a batch (set_codes): rows
 * of one dictionary share an index exactly when they share a value, so a
 * grouping can key on indices (PQFDW_NO_CODE for NULLs and for values not
 * from dictionary dict_id).
 */
typedef struct PqBatchCodes
{
	uint32	   *codes;			/* batch_rows */
	uint32		dict_id;		/* 0: no row has a code */
	int			dict_count;		/* entries of that dictionary */
} PqBatchCodes;

typedef struct PqTableColumn
{
	AttrNumber	attnum;			/* 1-based */
	char	   *attname;
	PqConverter conv;
	bool		conv_ready;
	PqColumnReader *reader;		/* for the current file */
	PqColumnReader *kept;		/* the reader, rebound from file to file */
	PqNestedColumn *nested;		/* instead of conv and reader: a nested
								 * field (fdw/convert/nested.h) */
	List	   *variant_keys;	/* VARIANT as jsonb: the object fields the
								 * query uses (NIL: all) */
	bool		output;			/* its Datums are handed out (false: only
								 * the filter reads it) */
	bool		filtered;		/* the filter tests it */
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
	PqDecryptionConfig *decrypt;	/* keys of encrypted files */
	int			ncols;			/* columns read */
	PqTableColumn *cols;

	/* per attribute (attnum - 1): converter and leaf column, when read */
	PqConverter **att_cv;
	int		   *att_leaf;
	PqConverter **att_out_cv;	/* of the Datums handed out (uconv if split) */
	PqBatchCodes **att_codes;	/* NULL entries unless set_codes */

	MemoryContext cxt;			/* lives as long as the reader */
	MemoryContext file_cxt;		/* reset per file */
	MemoryContext batch_cxt;	/* reset per batch: the Datums handed out */

	int			file_index;		/* into paths; -1 before the first */
	PqFile	   *file;
	int			open_index;		/* file's index in paths */
	PqFile	   *first_file;		/* schema every later file must match */
	PqfdwDataset *ds;			/* NULL: not a foreign table */

	/* Called before a file is opened; false skips it. */
	bool		(*file_check) (void *arg, int file);
	void	   *file_check_arg;
	int			row_group;
	int64		rg_rows_left;	/* rows still to return from the row group */
	int64		file_row;		/* file row of the row group's first row */

	/*
	 * Rows of the row group to read, sorted (NULL: all of them); pruning
	 * may set them, allocated in rg_cxt.  rg_pos is the next row to return.
	 */
	PqRowRange *rg_ranges;
	int			rg_nranges;
	int			rg_range;
	int64		rg_pos;
	MemoryContext rg_cxt;		/* reset per row group */
	PqChunkFetch *chunk_fetch;	/* the row group's chunks, read whole */

	/*
	 * The batch, column-major (pqfdw_batch_index): batch_rows Datums and
	 * nulls per attribute, so that each column's values are written, and
	 * whole rows formed (row_former.c), in sequence.
	 */
	int			batch_rows;		/* capacity */
	Datum	   *batch_values;
	bool	   *batch_nulls;

	/*
	 * What prunes the row groups (set_pruner; NULL: nothing), and which
	 * row groups a sample reads (set_sample; NULL: all).
	 */
	PqPruner   *pruner;
	const bool *sample;			/* per row group of all files */
	const int  *sample_first;	/* per file: index of its first row group */

	/*
	 * Parallel scans: row groups come from claim, not in order; a unit may
	 * be piece unit_piece of unit_pieces equal row ranges of its row group.
	 */
	PqUnitClaim claim;
	void	   *claim_arg;
	int			unit_piece;
	int			unit_pieces;

	/*
	 * Quals evaluated on batches (filter.h): the columns they test
	 * (filtered) are decoded first, the others only for the rows that pass
	 * (late materialization).  When pruning left row ranges (a page index),
	 * the ranges are first narrowed to the passing rows, so that the other
	 * columns read only the pages holding them (rg_filtered).
	 */
	PqFilter   *filter;
	int		   *filter_cols;	/* indexes into cols */
	int			nfilter_cols;
	int		   *sel;			/* batch_rows: passing rows of a batch */
	int		   *seg_rows;		/* PQ_SEGMENT_CAP: those of a segment */
	bool		rg_filtered;
	int64		rows_filtered;	/* rows the filter removed */

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

/* Index of attribute att's (0-based) value in batch row row. */
static inline size_t
pqfdw_batch_index(const PqTableReader *tr, int att, int row)
{
	return (size_t) att * tr->batch_rows + row;
}

/*
 * A reader of rel's attributes attnums (IntList) from paths (List of
 * char *), allocating under parent; hive partitioning as the planner
 * decided it (or as the option says).
 */
extern PqTableReader *pqfdw_table_reader_create(Relation rel, List *paths,
												List *attnums,
												PqfdwHiveMode hive,
												MemoryContext parent);

/*
 * Read paths instead, before the first file is opened: a parallel worker
 * takes the leader's files when they are not those of its plan.
 */
extern void pqfdw_table_reader_set_paths(PqTableReader *tr, List *paths,
										 PqfdwHiveMode hive);

/*
 * A reader of the attributes attnums of tupdesc (a relation named relname
 * that is not a foreign table): each attribute reads the top-level field of
 * its name (exactly, or case-insensitively when unambiguous) converted to
 * its type.  decrypt may be NULL.
 */
/*
 * Name the reader's one file name in messages instead of its path: COPY
 * FROM STDIN reads the client's stream from a temporary file, whose path
 * means nothing to the user.
 */
extern void pqfdw_table_reader_set_name(PqTableReader *tr, const char *name);

extern PqTableReader *pqfdw_table_reader_create_desc(TupleDesc tupdesc,
													 const char *relname,
													 List *paths,
													 List *attnums,
													 PqDecryptionConfig *decrypt,
													 MemoryContext parent);

/*
 * Decode the next batch into batch_values/batch_nulls; returns its row
 * count, 0 when every file is done.  Columns not read stay NULL.  With a
 * filter, the batch holds only rows that pass it.
 */
extern int	pqfdw_table_reader_next_batch(PqTableReader *tr);

/*
 * Return only the rows filter passes (see filter in PqTableReader); of the
 * attributes it tests, only those in output (IntList) are handed out, the
 * others stay NULL.
 */
extern void pqfdw_table_reader_set_filter(PqTableReader *tr, PqFilter *filter,
										  List *output);

/*
 * Read only the object fields keys (String nodes) of attribute attnum when
 * it is a VARIANT field read as jsonb (the query uses nothing else of it).
 */
extern void pqfdw_table_reader_set_variant_keys(PqTableReader *tr,
												AttrNumber attnum, List *keys);

/*
 * Read attribute attnum, a DECIMAL that the filter does not test, as its
 * unscaled values (grouped scans): int8 Datums, or for byte arrays Datums
 * pointing to int128 (the converter's unscaled_wide); its converter's
 * decimal_scale tells the scale.  An ERROR for other columns.
 */
extern void pqfdw_table_reader_set_unscaled(PqTableReader *tr,
											AttrNumber attnum);

/*
 * Hand out attribute attnum's dictionary indices with each batch
 * (att_codes), when it is a flat column; false otherwise.
 */
extern bool pqfdw_table_reader_set_codes(PqTableReader *tr, AttrNumber attnum);

/* Prune each row group with pr before reading it. */
extern void pqfdw_table_reader_set_pruner(PqTableReader *tr, PqPruner *pr);

/*
 * Read only the row groups sample marks (indexed by the file's first row
 * group, first[file], plus the row group).
 */
extern void pqfdw_table_reader_set_sample(PqTableReader *tr, const bool *sample,
										  const int *first);

/*
 * table_reader_prune.c (for table_reader.c): whether the row group just
 * entered may hold rows to return, its row ranges set in rg_ranges.
 */
extern bool pqfdw_table_reader_prune(PqTableReader *tr);

/* GUC parquet_fdw.enable_late_materialization */
extern bool pqfdw_enable_late_materialization;

/* Start again from the first file. */
extern void pqfdw_table_reader_rescan(PqTableReader *tr);

/* Close files and free memory. */
extern void pqfdw_table_reader_end(PqTableReader *tr);

/* Bytes read from files so far. */
extern int64 pqfdw_table_reader_bytes_read(PqTableReader *tr);

/* Data pages decoded so far, over all columns read. */
extern int64 pqfdw_table_reader_pages_read(PqTableReader *tr);

#endif							/* PQFDW_TABLE_READER_H */
