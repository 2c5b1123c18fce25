/*-------------------------------------------------------------------------
 *
 * copy_to.h
 *		COPY ... TO ... (FORMAT parquet): the ProcessUtility hook, its
 *		options and where the bytes go.
 *
 *		hook.c				the hook: permissions, the query, batches
 *		copy_options.c		WITH (...) options -> writer options
 *		encryption.c		encryption options -> keys for the writer
 *		sink.c				temporary file + rename, or COPY protocol
 *		target_tree.c		a target directory: temporary tree + rename
 *		target_prefix.c		a target prefix of a bucket: uploads completed
 *							together at the end
 *		remove_tree.c		removing a tree without following links
 *		partition.c			rows -> partition folders' numbered files
 *		naming.c			hive folder names, data_<n>.parquet
 *		write_column.c		a column: nested (write_nested.c) or a leaf
 *		write_leaf.c		a leaf's type and its family's loop
 *		write_numeric.c, write_datetime.c, write_binary.c
 *							Datums -> Parquet values (write_convert.h)
 *		write_error.c		the ERROR for a value that cannot be written
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_COPY_TO_H
#define PQFDW_COPY_TO_H

#include "fdw/copy/write_convert.h"
#include "fdw/keys/keys.h"
#include "fdw/remote/remote.h"
#include "format/write/file_writer.h"
#include "lib/stringinfo.h"
#include "nodes/pg_list.h"

/* PQFDW_VERSION, written as created_by: the Makefile's, from parquet_fdw.control */

/* numeric without a declared precision: DECIMAL(38, this) by default */
#define PQFDW_DEFAULT_NUMERIC_SCALE 9

/* A column of the bloom_filter option. */
typedef struct PqCopyBloomColumn
{
	char	   *name;
	double		fpp;			/* <= 0: bloom_filter_fpp's */
	int64		ndv;			/* <= 0: bloom_filter_ndv's */
} PqCopyBloomColumn;

/* Encryption as the options name it: key ids only, never keys. */
typedef struct PqCopyEncryption
{
	char	   *footer_key;		/* NULL: a plaintext file */
	List	   *column_keys;	/* (column, key id) pairs, from column_keys */
	int			algorithm;		/* PqEncryptionKind */
	bool		plaintext_footer;
	char	   *aad_prefix;		/* NULL: none */
	bool		store_aad_prefix;
	/* key material of key tools: master key ids instead of footer_key ... */
	char	   *kms_footer_key;
	List	   *kms_column_keys;	/* (column, master key id) pairs */
	bool		double_wrapping;
	bool		external_material;	/* key_material 'external' */
	char	   *kms_url;		/* NULL: "DEFAULT" */
} PqCopyEncryption;

/*
 * Dataset options: the target is a directory of data_<n>.parquet files,
 * in hive folders with partition_by.
 */
typedef struct PqCopyDatasetOptions
{
	bool		enabled;		/* partition_by, file_size_bytes or
								 * row_groups_per_file given */
	List	   *partition_by;	/* column names */
	bool		write_partition_columns;
	bool		overwrite;
	bool		overwrite_or_ignore;
	int64		file_size_bytes;	/* 0: no limit */
	int64		row_groups_per_file;	/* 0: no limit */
	int			max_open_files;
	bool		success_marker; /* an empty _SUCCESS file last */
} PqCopyDatasetOptions;

/* Writing to a URL: the server reaching it, how objects are uploaded. */
#define PQFDW_DEFAULT_PART_SIZE ((int64) 8 * 1024 * 1024)
#define PQFDW_MIN_PART_SIZE ((int64) 5 * 1024 * 1024)
#define PQFDW_MAX_PART_SIZE ((int64) 4 * 1024 * 1024 * 1024)
#define PQFDW_DEFAULT_PARTS_IN_FLIGHT 4

typedef struct PqCopyRemoteOptions
{
	char	   *server;			/* NULL: the server process's credentials */
	int64		part_size;
	int			parts_in_flight;
	bool		given;			/* part_size or parts_in_flight given */
} PqCopyRemoteOptions;

typedef struct PqCopyOptions
{
	PqWriterOptions writer;
	List	   *bloom_columns;	/* PqCopyBloomColumn */
	double		bloom_fpp;		/* <= 0: the writer's default */
	int64		bloom_ndv;		/* <= 0: distinct values of each chunk */
	PqWriteTypeOptions types;
	PqCopyEncryption encryption;
	PqCopyDatasetOptions dataset;
	PqCopyRemoteOptions remote;
} PqCopyOptions;

/* True when the COPY options say FORMAT parquet (any case). */
extern bool pqfdw_copy_is_parquet(List *options);

/*
 * Validate every option (format included) into opts; an unknown option or
 * a bad value is an ERROR naming it.
 */
extern void pqfdw_copy_parse_options(List *options, PqCopyOptions *opts);

/* ERROR when option name is in *seen (a List of names); else add it. */
extern void pqfdw_copy_option_once(List **seen, const char *name);

/*
 * The destination of the file.  A server file is written to a temporary
 * file in the target's directory, renamed over the target (as COPY's
 * truncation replaces it) only once it is complete and durable; STDOUT is
 * a binary COPY-out stream.  Embeds the writer's PqSink (first member).
 */
typedef struct PqCopySink
{
	PqSink		sink;
	const char *target;			/* NULL: STDOUT */
	PqfdwUpload *upload;		/* a URL's, or NULL */
	char	   *tmp_path;
	int			fd;
	char	   *buf;
	int			buf_len;
	int64		bytes;			/* reported to pg_stat_progress_copy */
} PqCopySink;

/*
 * The writer's encryption options for the COPY output's columns (names
 * names[0..ncols)): checks the column_keys columns and loads the named keys,
 * which the current user must be allowed to use.  NULL without footer_key
 * or kms_footer_key.  With kms_footer_key the keys are fresh data keys whose
 * key material *material holds (for the external file); else *material is
 * NULL.  The keys are zeroed when the current memory context goes away.
 */
extern const PqEncryptionOptions *pqfdw_copy_encryption(const PqCopyEncryption *ce,
														const char *const *names,
														int ncols,
														PqKeyMaterialWriter **material);

/* Create the temporary file (target != NULL) or start COPY-out. */
extern void pqfdw_copy_sink_open(PqCopySink *s, const char *target);

/*
 * Start writing the object at url as id's role (nothing is visible until
 * pqfdw_copy_sink_finish()).
 */
extern void pqfdw_copy_sink_open_url(PqCopySink *s, const PqfdwRemoteId *id,
									 const char *url,
									 const PqCopyRemoteOptions *ro);

/*
 * A URL's sink, instead of finishing: every byte sent, the object not yet
 * visible; the upload to complete (pqfdw_upload_complete_many) or abort.
 */
extern PqfdwUpload *pqfdw_copy_sink_close(PqCopySink *s);

/* Flush; file: make it durable and rename it over the target. */
extern void pqfdw_copy_sink_finish(PqCopySink *s);

/* After an error: close and remove the temporary file. */
extern void pqfdw_copy_sink_abort(PqCopySink *s);

/* A dataset's target directory (target_tree.c). */
typedef struct PqCopyDataset
{
	char	   *target;
	char	   *parent;
	char	   *tmp_dir;		/* the files are written here */
	bool		overwrite;
	bool		overwrite_or_ignore;
} PqCopyDataset;

/*
 * Check the target (an ERROR if it exists, unless an option allows it)
 * and create the temporary tree next to it.
 */
extern void pqfdw_dataset_open(PqCopyDataset *d, const char *target,
							   const PqCopyDatasetOptions *opts);

/* Put the temporary tree in place (as the options say). */
extern void pqfdw_dataset_finish(PqCopyDataset *d);

/* Remove the temporary tree. */
extern void pqfdw_dataset_abort(PqCopyDataset *d);

/* success_marker: an empty "_SUCCESS" file in the tree put in place. */
extern void pqfdw_dataset_write_marker(PqCopyDataset *d);

/*
 * mkdir in the temporary tree, readable by everyone as COPY's files; an
 * existing one is fine (nobody else can create anything there).
 */
extern void pqfdw_dataset_mkdir(const char *path);

/*
 * Remove path and everything below it, never following a symbolic link
 * (remove_tree.c).  false with errno set when something could not be
 * removed; never throws.
 */
extern bool pqfdw_remove_tree(const char *path);

/*
 * A dataset's target below a URL prefix (target_prefix.c): the files'
 * uploads, completed together at the end; the old tree's data files.
 */
typedef struct PqCopyPrefix
{
	MemoryContext cxt;			/* the COPY's */
	PqfdwRemoteId remote;
	PqCopyRemoteOptions ro;
	char	   *url;			/* the prefix, without a final "/" */
	bool		overwrite;
	bool		success_marker;
	char	  **old;			/* data files found below it */
	int			nold;
	char	   *old_marker;		/* its _SUCCESS, or NULL */
	struct HTAB *numbers;		/* folder -> first free data_<n> number */
	PqfdwUpload **closed;		/* files written, not yet visible */
	int			nclosed;
	int			closed_cap;
	int			nsettled;		/* closed[0..nsettled): every part sent */
	size_t		held;			/* buffers of the others */
} PqCopyPrefix;

/*
 * List what is below url and check it against the options (an ERROR if
 * objects are there, unless an option allows it).
 */
extern void pqfdw_prefix_open(PqCopyPrefix *d, const PqfdwRemoteId *id,
							  const char *url, const PqCopyDatasetOptions *o,
							  const PqCopyRemoteOptions *ro);

/* The first data_<n> number free in folder (relative to the prefix). */
extern int	pqfdw_prefix_first_number(PqCopyPrefix *d, const char *folder);

/* A written file, to appear with the others at the end. */
extern void pqfdw_prefix_add(PqCopyPrefix *d, PqfdwUpload *u);

/* Make every file appear; overwrite: delete the old ones; the marker. */
extern void pqfdw_prefix_finish(PqCopyPrefix *d);

/* After an error: abort every file's upload (never an ERROR). */
extern void pqfdw_prefix_abort(PqCopyPrefix *d);

/* The files of a dataset (partition.c). */
typedef struct PqPartitionWriter PqPartitionWriter;

/*
 * Files under root for the batches of cols: columns with first_leaf -1
 * are not written (partition columns); part_cols name the partition_by
 * columns, in order.  fields and writer_opts must outlive the writer.
 */
extern PqPartitionWriter *pqfdw_partition_writer_create(const char *root,
														const PqCopyDatasetOptions *opts,
														PqWriteColumn *cols,
														int ncols,
														const int *first_leaf,
														const int *part_cols,
														int npart,
														const PqWriterField *fields,
														int nfields,
														const PqWriterOptions *writer_opts);

/*
 * The files go below a URL prefix (root is its URL): each an upload,
 * completed by pqfdw_prefix_finish() with the others.
 */
extern void pqfdw_partition_writer_set_prefix(PqPartitionWriter *pw,
											  PqCopyPrefix *prefix);

/* Write the first nrows rows of the columns' batch arrays. */
extern void pqfdw_partition_write(PqPartitionWriter *pw, int nrows,
								  int64 row_base);

/* Finish every open file; returns the number of files written. */
extern int64 pqfdw_partition_finish(PqPartitionWriter *pw);

/* After an error: close and remove the open files' temporary files. */
extern void pqfdw_partition_abort(PqPartitionWriter *pw);

/* Hive names (naming.c): a segment of a path, escaped as Hive does. */
extern void pqfdw_hive_escape(StringInfo buf, const char *s);

/*
 * Around pqfdw_partition_segment() calls: DateStyle ISO and IntervalStyle
 * postgres while partition values are printed.
 */
extern int	pqfdw_partition_text_begin(void);
extern void pqfdw_partition_text_end(int level);

/* Append column=value (escaped; NULL: __HIVE_DEFAULT_PARTITION__). */
extern void pqfdw_partition_segment(StringInfo buf, const char *column,
									Oid typid, FmgrInfo *out, Datum value,
									bool isnull);

/* dir/data_<n>.parquet */
extern char *pqfdw_data_file_path(const char *dir, int n);

/* n of a file name data_<n>.parquet, or -1 */
extern int	pqfdw_data_file_number(const char *name);

/* Install the ProcessUtility hook (from _PG_init). */
extern void pqfdw_copy_hook_init(void);

#endif							/* PQFDW_COPY_TO_H */
