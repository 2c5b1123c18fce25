/*-------------------------------------------------------------------------
 *
 * parquet_fdw.h
 *		Declarations shared by the PostgreSQL glue of parquet_fdw.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARQUET_FDW_H
#define PARQUET_FDW_H

#include "postgres.h"

#include "access/attnum.h"
#include "foreign/foreign.h"
#include "format/read/buffer_pool.h"
#include "format/read/column_reader.h"
#include "format/read/file_reader.h"
#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"

/* What says a file is unchanged since its footer was parsed (fstat). */
typedef struct PqFileStamp
{
	int64		size;
	int64		mtime_sec;
	int64		mtime_nsec;
	uint64		inode;
	uint64		device;
} PqFileStamp;

/*
 * footer_cache.c: the file src (opened by pqfdw_source_open, as stamp
 * says it is now) with its footer parsed, from the backend's cache when an
 * entry for it has the same stamp; GUC parquet_fdw.metadata_cache_size.
 */
extern PqFile *pqfdw_footer_cache_open(PqSource *src, const PqFileStamp *stamp);

/*
 * Whether the current statement found path unchanged in the cache already
 * (then *stamp is the file's); such a file need not be checked again.
 */
extern bool pqfdw_footer_cache_checked(const char *path, PqFileStamp *stamp);

/* Drop path's entry: the file was just written (COPY TO). */
extern void pqfdw_footer_cache_forget(const char *path);

/*
 * The cached footer of src's file whatever the file is now, or NULL: for
 * the planner's estimates only (the executor opens and checks every file).
 */
extern PqFile *pqfdw_footer_cache_peek(PqSource *src);

/* The cached file as stamp says it is now, viewed through src; or NULL. */
extern PqFile *pqfdw_footer_cache_lookup(PqSource *src,
										 const PqFileStamp *stamp);

/*
 * Whether two files' schemas are equal (pq_schema_node_equal), remembered
 * for cached files so that a table of many files compares each only once.
 */
extern bool pqfdw_footer_cache_same_schema(const PqFile *a, const PqFile *b);

/* Evict unpinned entries, least recently used first, to fit the budget. */
extern void pqfdw_footer_cache_trim(void);

/*
 * A planning starts (returns what _end takes back) and ends: the footers
 * it views are made in pqfdw_footer_cache_planning_context() (the current
 * context outside planning), deleted at its end (plan/plan_footers.c).
 */
extern MemoryContext pqfdw_footer_cache_planning_begin(void);
extern MemoryContext pqfdw_footer_cache_planning_context(void);
extern void pqfdw_footer_cache_planning_end(MemoryContext outer);
extern int	pqfdw_metadata_cache_size;

/* buffer_pool.c: spare buffers of column readers (pq_buffer_pool) */
extern const PqBufferPool pqfdw_buffer_pool;

/* options.c: foreign table and column options, file lists */
typedef enum PqfdwHiveMode
{
	PQFDW_HIVE_AUTO,			/* on when every path has the same keys */
	PQFDW_HIVE_ON,
	PQFDW_HIVE_OFF
} PqfdwHiveMode;

typedef struct PqfdwTableOptions
{
	char	   *filename;		/* the option as given */
	List	   *paths;			/* expanded, absolute, sorted (char *) */
	uint64		paths_hash;		/* pqfdw_paths_hash(paths) */
	PqDecryptionConfig *decrypt;	/* key ids and AAD prefix */
	int			parallel_workers;	/* the option; -1 when not set */
	List	   *sorted;			/* the option: PqfdwSortKey, NIL when not set */
	PqfdwHiveMode hive;			/* hive_partitioning */
	bool		union_by_name;
	char	   *filename_column;	/* column names, or NULL */
	char	   *row_number_column;	/* file_row_number_column */
} PqfdwTableOptions;

/* A key of the option sorted: the order the files' rows are in. */
typedef struct PqfdwSortKey
{
	char	   *column;			/* a column of the table */
	bool		descending;
	bool		nulls_first;
} PqfdwSortKey;

/* The keys of a value of the option sorted ('a, b DESC NULLS LAST'). */
extern List *pqfdw_parse_sorted(const char *value);

extern void pqfdw_get_table_options(Oid relid, PqfdwTableOptions *opts);
/* ... without listing the files (paths NIL) */
extern void pqfdw_get_table_options_only(Oid relid, PqfdwTableOptions *opts);
extern PqDecryptionConfig *pqfdw_table_decryption(Oid relid);

/* The kms_command option of a server, or NULL. */
extern const char *pqfdw_server_kms_command(ForeignServer *server);

/* ERROR unless the user may run programs on the server (option names it). */
extern void pqfdw_check_program_permission(const char *option);

/* The key options of tables (and IMPORT FOREIGN SCHEMA): key ids only. */
typedef struct PqfdwKeyOptions
{
	char	   *footer_key;
	char	   *column_keys;
	char	   *aad_prefix;
} PqfdwKeyOptions;

/* Take def into ko if it is a key option; false otherwise. */
extern bool pqfdw_key_option(DefElem *def, PqfdwKeyOptions *ko);

/*
 * file_list.c: the filename option's absolute paths (no file system
 * access), and the files they name: files, directories (*.parquet at any
 * depth) and globs ("**": any number of directories), each sorted.
 */
extern List *pqfdw_split_paths(const char *filename);
extern List *pqfdw_expand_paths(const char *filename);
/* a name walks skip (_SUCCESS, .tmp files), never a key=value folder */
extern bool pqfdw_hidden_name(const char *name);

/*
 * Plans keep the files named when they were made; the executor compares
 * with the files named now (fdw/scan/file_set.c).  A hash of a file list;
 * pqfdw_expand_paths, noting the hash for the rest of the statement; and
 * whether filename was expanded in this statement to files of this hash.
 */
extern uint64 pqfdw_paths_hash(List *paths);
extern List *pqfdw_expand_paths_hashed(const char *filename, uint64 *hash);
extern bool pqfdw_expanded_in_statement(const char *filename, uint64 hash);

/*
 * dir_cache.c: the entries of directory dir but "." and "..", kept across
 * queries while the directory's stamp is unchanged (valid until the next
 * call), sorted as their paths sort (a directory's name as if it ended in
 * "/").  OTHER: a symbolic link or an unknown type, to stat() each time.
 */
typedef enum PqfdwDirentKind
{
	PQFDW_DIRENT_FILE,
	PQFDW_DIRENT_DIR,
	PQFDW_DIRENT_OTHER
} PqfdwDirentKind;

typedef struct PqfdwDirEntry
{
	char	   *name;
	PqfdwDirentKind kind;
} PqfdwDirEntry;

typedef struct PqfdwDirListing
{
	int			n;
	PqfdwDirEntry *entries;
	uint64		device;			/* of the directory: walks list each once */
	uint64		inode;
} PqfdwDirListing;

extern const PqfdwDirListing *pqfdw_dir_listing(const char *dir);

/* s as a whole decimal integer in [min, max]? */
extern bool pqfdw_parse_int64(const char *s, int64 min, int64 max,
							  int64 *value);
extern char *pqfdw_column_name(Oid relid, AttrNumber attnum);
extern char *pqfdw_read_files_role;
/* a member of parquet_fdw.read_files_role? */
extern bool pqfdw_read_files_member(void);
extern bool pqfdw_check_read_permission(void);
extern void pqfdw_check_readable_paths(List *items);

/* source.c: files through transient file descriptors */
extern PqSource *pqfdw_source_open(const char *path);
/* the same, called name in messages and the footer cache */
extern PqSource *pqfdw_source_open_named(const char *path, const char *name);
extern void pqfdw_source_close(PqSource *src);
/* what fstat (or stat) said of src's file when it was opened */
extern void pqfdw_source_stamp(const PqSource *src, PqFileStamp *stamp);
/* decrypt NULL: keys only from the files' key metadata */
extern PqFile *pqfdw_file_open(const char *path,
							   const PqDecryptionConfig *decrypt);
extern PqFile *pqfdw_file_open_named(const char *path, const char *name,
									 const PqDecryptionConfig *decrypt);

/*
 * Opens every path and checks that the schemas agree; returns a List of
 * PqFile (each source already closed: only the footers are kept).
 */
extern List *pqfdw_open_footers(List *paths,
								const PqDecryptionConfig *decrypt);
/*
 * The footers the planner estimates with: from the cache without checking
 * the files (read and cached when not there); same_schema as in
 * pqfdw_open_footers.  Cached footers name their file by the string in
 * paths, not a copy (perf: 7% of planning over 10,000 files), so the paths
 * must live as long as the footers.
 */
extern List *pqfdw_plan_footers(List *paths, const PqDecryptionConfig *decrypt,
								bool same_schema);

/* Map each attribute of relid to a top-level field of file's schema. */
extern PqSchemaNode *pqfdw_find_column(const PqFile *file, Oid relid,
									   AttrNumber attnum, const char *filename);

/* The same, NULL when file has no such field. */
extern PqSchemaNode *pqfdw_find_column_opt(const PqFile *file, Oid relid,
										   AttrNumber attnum);

/* The name an attribute of relid matches fields by (remembered). */
extern const char *pqfdw_field_name(Oid relid, AttrNumber attnum);

/* explain.c: "Parquet File(s): paths" (char * List) */
struct ExplainState;
extern void pqfdw_explain_files(List *paths, struct ExplainState *es);
/*
 * "Files: N of M (pruned by partition: K)": for hive-partitioned tables,
 * where pruning happened, or where the list of files is cut short
 */
extern void pqfdw_explain_file_counts(int planned, int total, int pruned,
									  bool hive, struct ExplainState *es);

#endif							/* PARQUET_FDW_H */
