/*-------------------------------------------------------------------------
 *
 * table_snapshot.h
 *		A table format's table (Delta Lake) as the scan reads it: its data
 *		files, their partition values and deleted rows, the names its
 *		columns have in the files.  Resolved from the table's log once per
 *		statement and kept per backend while the log is unchanged.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_TABLE_SNAPSHOT_H
#define PQFDW_TABLE_SNAPSHOT_H

#include "datatype/timestamp.h"
#include "fdw/remote/remote.h"
#include "nodes/pg_list.h"
#include "table/delta/delta_log.h"

typedef enum PqfdwTableFormat
{
	PQFDW_FORMAT_PARQUET,		/* files named by the filename option */
	PQFDW_FORMAT_DELTA
} PqfdwTableFormat;

/* The option format: parquet, delta; an ERROR for anything else. */
extern PqfdwTableFormat pqfdw_table_format(const char *value);

typedef struct PqfdwTableSnapshot
{
	char	   *location;		/* the table's directory, absolute */
	int64		version;
	int			nfiles;
	char	  **paths;			/* absolute, sorted */
	PqDeltaFile **files;		/* each path's add action */
	int			nkeys;			/* partition columns */
	char	  **keys;			/* their names in the files */
	char	  **key_types;		/* their Delta types */
	char	   *schema_string;	/* metaData.schemaString */
	PqDeltaSchema schema;
	PqDeltaMapping mapping;
	bool		nested_mapped;	/* nested fields have physical names */
	List	   *path_list;		/* paths as a List (char *) */
} PqfdwTableSnapshot;

/* Which version of a table to read: options version, timestamp; as_of. */
typedef struct PqfdwTableVersion
{
	int64		version;		/* -1: by timestamp, or the latest */
	bool		by_time;
	TimestampTz time;			/* the newest version committed at or before */
} PqfdwTableVersion;

/*
 * The Delta table at location (a directory, or a URL reached as remote
 * says; NULL for a directory) as of at.  Valid until the end of the
 * statement; the caller copies what it keeps longer.
 */
extern const PqfdwTableSnapshot *pqfdw_delta_snapshot(const char *location,
													  const PqfdwTableVersion *at,
													  const PqfdwRemoteId *remote);

/* A version of a Delta table, as its commit tells (table_versions()). */
typedef struct PqfdwDeltaVersion
{
	int64		version;
	int64		ms;				/* commit time, ms since the epoch; -1 */
	char	   *operation;		/* or NULL */
} PqfdwDeltaVersion;

/* The versions whose commits are in location's log, ascending. */
extern List *pqfdw_delta_versions(const char *location,
								  const PqfdwRemoteId *remote);

/* The index of absolute path in s->paths, or -1. */
extern int	pqfdw_snapshot_file(const PqfdwTableSnapshot *s, const char *path);

/*
 * The name the column called name (logical, as declared: exactly, else
 * case-insensitively when unambiguous) has in the data files; NULL when
 * the table has no such column.
 */
extern const char *pqfdw_snapshot_field_name(const PqfdwTableSnapshot *s,
											 const char *name);

/* The value text of partition key key of file, as an input function reads it. */
extern const char *pqfdw_snapshot_partition_value(const PqfdwTableSnapshot *s,
												  int file, int key);

/*
 * delete_rows.c: the rows deletion vector dv of a data file of the table
 * at location deletes, read (or decoded, when inline) into cxt.
 */
extern PqDeletedRows *pqfdw_delta_deleted_rows(const char *location,
											   const PqfdwRemoteId *remote,
											   const PqDeltaDv *dv,
											   const char *data_path,
											   MemoryContext cxt);

#endif							/* PQFDW_TABLE_SNAPSHOT_H */
