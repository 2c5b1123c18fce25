/*-------------------------------------------------------------------------
 *
 * table_reader.h
 *		Reads a foreign table's Parquet files as batches of rows: files ->
 *		row groups -> per-column segments -> a column-major batch of Datums
 *		(batch.h).  Used by the scan (scan.c), by ANALYZE (analyze.c) and,
 *		for a plain table's TupleDesc, by COPY FROM (fdw/copy/from.c).  Its
 *		state is private to the table_reader*.c files
 *		(table_reader_state.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_TABLE_READER_H
#define PQFDW_TABLE_READER_H

#include "fdw/convert/nested.h"
#include "fdw/dataset/dataset.h"
#include "fdw/prune/pruner.h"
#include "fdw/scan/batch.h"
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
 * A reader of rel's attributes attnums (IntList) from paths (List of
 * char *), allocating under parent; hive partitioning as the planner
 * decided it (or as the option says); objects in buckets read with the
 * user mapping of userid (InvalidOid: the current role's).
 */
extern PqTableReader *pqfdw_table_reader_create(Relation rel, Oid userid,
												List *paths, List *attnums,
												PqfdwHiveMode hive,
												MemoryContext parent);

/*
 * Read paths instead, before the first file is opened: a parallel worker
 * takes the leader's files when they are not those of its plan, and a
 * table format's version the leader reads (at; NULL: the options').
 */
extern void pqfdw_table_reader_set_paths(PqTableReader *tr, List *paths,
										 PqfdwHiveMode hive,
										 const PqfdwTableVersion *at);

/*
 * A reader of the attributes attnums of tupdesc (a relation named relname
 * that is not a foreign table): each attribute reads the top-level field of
 * its name (exactly, or case-insensitively when unambiguous) converted to
 * its type.  access NULL: local files without keys.
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
													 const PqfdwAccess *access,
													 MemoryContext parent);

/*
 * Decode the next batch; NULL when every file is done.  Attributes not read
 * stay NULL.  With a filter, the batch holds only rows that pass it.  It
 * lives until the next call.
 */
extern const PqBatch *pqfdw_table_reader_next(PqTableReader *tr);

/* The reader's batch before any is read: its shape (capacity, columns). */
extern const PqBatch *pqfdw_table_reader_batch(PqTableReader *tr);

/*
 * Top-N late materialization.  Leave unread (NULL in every batch) the
 * output columns that are flat fields, not tested by the filter and not in
 * keep (attnums), before the first batch; returns their attnums.  Batch row
 * r's file (an index into the reader's paths, whose path _path gives) and
 * row number in it.  A reader of one file reads only its rows rows
 * (ascending, distinct) with set_rows: row groups without any are not
 * fetched, and each batch holds rows of one run of adjacent ones.
 */
extern List *pqfdw_table_reader_set_deferred(PqTableReader *tr,
											 const Bitmapset *keep);
extern void pqfdw_table_reader_row_position(PqTableReader *tr, int r,
											int *file, int64 *row);
extern const char *pqfdw_table_reader_path(PqTableReader *tr, int file);
extern void pqfdw_table_reader_set_rows(PqTableReader *tr, const int64 *rows,
										int n);

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
 * Where the reader's row groups come from in a parallel scan (claim), and
 * which files it skips (check, before a file is opened; false skips it).
 */
extern void pqfdw_table_reader_set_claim(PqTableReader *tr, PqUnitClaim claim,
										 void *arg);
extern void pqfdw_table_reader_set_file_check(PqTableReader *tr,
											  bool (*check) (void *arg, int file),
											  void *arg);

/* The dataset the reader reads, and how its files are opened. */
extern PqfdwDataset *pqfdw_table_reader_dataset(PqTableReader *tr);
extern const PqfdwAccess *pqfdw_table_reader_access(PqTableReader *tr);

/* Rows the batch filter removed, row groups read, so far. */
extern int64 pqfdw_table_reader_rows_filtered(PqTableReader *tr);
extern int64 pqfdw_table_reader_rows_deleted(PqTableReader *tr);
extern int64 pqfdw_table_reader_row_groups_read(PqTableReader *tr);

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
