/*-------------------------------------------------------------------------
 *
 * table_options.h
 *		Foreign table, column and server options (table_options.c): the
 *		validator's results, key options, who may read server files.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_TABLE_OPTIONS_H
#define PQFDW_TABLE_OPTIONS_H

#include "access/attnum.h"
#include "fdw/common/file_list.h"
#include "fdw/common/source.h"
#include "fdw/table/table_snapshot.h"
#include "foreign/foreign.h"
#include "format/read/file_reader.h"
#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"

typedef enum PqfdwHiveMode
{
	PQFDW_HIVE_AUTO,			/* on when every path has the same keys */
	PQFDW_HIVE_ON,
	PQFDW_HIVE_OFF
} PqfdwHiveMode;

typedef struct PqfdwTableOptions
{
	PqfdwTableFormat format;	/* option format */
	char	   *location;		/* a table format's table (option location) */
	PqfdwTableVersion at;		/* options version, snapshot_id, ref,
								 * timestamp; GUC parquet_fdw.as_of */
	char	   *location_map;	/* Iceberg: option location_map, or NULL */
	char	   *filename;		/* the option as given (a table format's: its
								 * location; a files function's: what names
								 * it, "files_func f(arg)") */
	char	   *files_func;		/* option files_func (adjust/parquet_fdw's): a
								 * function returning the paths, or NULL */
	char	   *files_func_arg; /* its jsonb argument, or NULL */
	bool		files_func_called;	/* func_items holds its answer */
	List	   *func_items;		/* the items it returned (char *) */
	List	   *paths;			/* expanded, absolute, sorted (char *) */
	uint64		paths_hash;		/* pqfdw_paths_hash(paths) */
	int			dirs_skipped;	/* partition directories the plan's listing
								 * left out */
	PqfdwAccess access;			/* key ids, AAD prefix; server and role */
	int			parallel_workers;	/* the option; -1 when not set */
	List	   *sorted;			/* the option: PqfdwSortKey, NIL when not set */
	bool		sorted_per_file;	/* files_in_order 'false': the order holds
									 * within each file only */
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

/*
 * The keys of a value of the option sorted ('a, b DESC NULLS LAST', or
 * adjust/parquet_fdw's 'a b').
 */
extern List *pqfdw_parse_sorted(const char *value);

/*
 * A table's options and files, its files in buckets reached with the user
 * mapping of userid.  A scan reads as the role its plan checks permissions
 * as (a view's owner, as postgres_fdw does: ForeignScan.checkAsUser,
 * RelOptInfo.userid), or as the current role (InvalidOid).
 */
extern void pqfdw_get_table_options(Oid relid, Oid userid,
									PqfdwTableOptions *opts);

/* ... without listing the files (paths NIL) */
extern void pqfdw_get_table_options_as(Oid relid, Oid userid,
									   PqfdwTableOptions *opts);

/* ... as the current role */
extern void pqfdw_get_table_options_only(Oid relid, PqfdwTableOptions *opts);

/*
 * The files of options read without them: paths and paths_hash, listing
 * only what filter (or NULL) leaves of directories and URL prefixes; an
 * ERROR when there are none.  False when the filter left no file and the
 * listing without it was used.
 */
extern bool pqfdw_table_files(PqfdwTableOptions *opts,
							  const PqfdwPrefixFilter *filter);

/*
 * The files named now, listed with filter (or NULL), and their hash
 * (noted for the statement): those of the filename option, or the items
 * the files function returns, which it is asked for once per opts.  NIL
 * may mean no file (without an ERROR here).
 */
extern List *pqfdw_list_table_files(PqfdwTableOptions *opts,
									const PqfdwPrefixFilter *filter,
									uint64 *hash);
extern PqDecryptionConfig *pqfdw_table_decryption(Oid relid);

/* Keys and the store settings of a table's files, read as userid (above). */
extern void pqfdw_table_access(Oid relid, Oid userid, PqfdwAccess *access);

/* How a table format's location is reached: NULL for a local directory. */
static inline const PqfdwRemoteId *
pqfdw_table_remote(const PqfdwTableOptions *opts)
{
	return opts->location && pq_url_is_remote(opts->location) ?
		&opts->access.remote : NULL;
}

/* The table format's table options name (strings point into opts). */
extern void pqfdw_table_ref(const PqfdwTableOptions *opts, PqfdwTableRef *ref);

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

/* s as a whole decimal integer in [min, max]? */
extern bool pqfdw_parse_int64(const char *s, int64 min, int64 max,
							  int64 *value);
extern char *pqfdw_column_name(Oid relid, AttrNumber attnum);

/*
 * Whether a column of a table format's table is matched by field id
 * (Iceberg; Delta under id column mapping): its id, and the names files
 * without ids give it (NULL-terminated, or NULL: its name).
 */
extern bool pqfdw_column_field_id(Oid relid, AttrNumber attnum, int32 *id,
								  const char *const **names);

/* The name a column is declared to read: option column_name, or its own. */
extern char *pqfdw_column_declared_name(Oid relid, AttrNumber attnum);
extern char *pqfdw_read_files_role;

/* GUC parquet_fdw.as_of: the time table formats' tables are read as of */
extern char *pqfdw_as_of;

/* a member of parquet_fdw.read_files_role? */
extern bool pqfdw_read_files_member(void);
extern bool pqfdw_check_read_permission(void);
extern void pqfdw_check_readable_paths(List *items);

/*
 * The foreign server named name that reaches URLs: a server of parquet_fdw
 * the role may use.  InvalidOid when name is NULL: the server process's
 * own credentials, which fdw/remote allows only to the roles that may.
 */
extern Oid	pqfdw_url_server(const char *name);

#endif							/* PQFDW_TABLE_OPTIONS_H */
