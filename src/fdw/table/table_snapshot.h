/*-------------------------------------------------------------------------
 *
 * table_snapshot.h
 *		A table format's table (Delta Lake, Apache Iceberg) as the scan
 *		reads it: its data files, their partition values and deleted rows,
 *		the names (or field ids) its columns have in the files.  Resolved
 *		from the table's log or metadata once per statement and kept per
 *		backend while that is unchanged.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_TABLE_SNAPSHOT_H
#define PQFDW_TABLE_SNAPSHOT_H

#include "datatype/timestamp.h"
#include "fdw/remote/remote.h"
#include "nodes/pg_list.h"
#include "storage/fd.h"
#include "table/delta/delta_log.h"
#include "table/iceberg/manifest.h"
#include "table/iceberg/metadata.h"

typedef enum PqfdwTableFormat
{
	PQFDW_FORMAT_PARQUET,		/* files named by the filename option */
	PQFDW_FORMAT_DELTA,
	PQFDW_FORMAT_ICEBERG
} PqfdwTableFormat;

/* The option format: parquet, delta, iceberg; an ERROR for anything else. */
extern PqfdwTableFormat pqfdw_table_format(const char *value);

/*
 * Bumped when a table's snapshot is read with another schema than a kept
 * snapshot of the same location has: what was cached of its columns' names
 * and field ids (fdw/common/columns.c) may then be stale.
 */
extern uint64 pqfdw_table_schema_generation;

/* The format's name as messages give it: "Delta", "Iceberg". */
extern const char *pqfdw_table_format_name(PqfdwTableFormat format);

/*
 * An Iceberg delete file (or deletion vector) that applies to some data
 * files; what it deletes is read on first use (fdw/dataset) and kept in
 * parsed, in the snapshot's memory.
 */
typedef struct PqfdwIcebergDelete
{
	int			content;		/* PQ_ICEBERG_CONTENT_POSITION_DELETES or
								 * _EQUALITY_DELETES */
	char	   *path;			/* where it is now (location_map applied) */
	const PqIcebergDataFile *df;	/* as the manifest gives it */
	int64		sequence_number;
	int32		spec_id;
	bool		dv;				/* a deletion vector in a Puffin file */
	void	   *parsed;			/* position deletes, or an equality key set */
} PqfdwIcebergDelete;

/*
 * An Iceberg data file beyond its path: its data sequence number, the
 * values of identity partition columns (for files that lack the column:
 * migrated tables), its column bounds and the delete files that apply.
 */
typedef struct PqfdwIcebergFile
{
	int64		sequence_number;
	int32		spec_id;
	const PqIcebergDataFile *df;	/* counts and bounds */
	int			nidentity;
	int32	   *identity_ids;	/* source field ids */
	char	  **identity_text;	/* their values (NULL: null) */
	int			ndeletes;		/* delete files (and deletion vectors) */
	PqfdwIcebergDelete **deletes;
	const PqIcebergManifestFile *manifest;	/* its manifest in the list, or
											 * NULL (v1 "manifests") */
} PqfdwIcebergFile;

typedef struct PqfdwTableSnapshot
{
	PqfdwTableFormat format;
	char	   *location;		/* the table's directory, absolute */
	int64		version;		/* Iceberg: the snapshot id, -1 for none */
	int			nfiles;
	char	  **paths;			/* absolute, sorted */
	PqDeltaFile **files;		/* each path's add action (Iceberg: path and
								 * size only) */
	PqfdwIcebergFile **ice;		/* Iceberg: each path's file */
	const PqIcebergMetadata *ice_md;
	const PqIcebergSchema *ice_schema;	/* the schema the snapshot reads */
	char	   *table_dir;		/* Iceberg: the directory holding metadata/ */
	char	   *metadata_file;	/* Iceberg: the metadata file read */
	int			nmapped;		/* Iceberg: schema.name-mapping.default */
	int32	   *mapped_ids;		/* its top-level field ids, ... */
	const char ***mapped_names; /* ... and their names (NULL-terminated) */
	MemoryContext cxt;			/* where the snapshot lives */
	const struct PqfdwIcebergPaths *ice_paths;	/* how recorded paths move */
	int			nkeys;			/* partition columns */
	char	  **keys;			/* their names in the files */
	char	  **key_types;		/* their Delta types */
	char	   *schema_string;	/* metaData.schemaString */
	PqDeltaSchema schema;
	PqDeltaMapping mapping;
	bool		nested_mapped;	/* nested fields have physical names */
	List	   *path_list;		/* paths as a List (char *) */
} PqfdwTableSnapshot;

/*
 * Which version of a table to read: options version (Delta), snapshot_id
 * and ref (Iceberg), timestamp; parquet_fdw.as_of.
 */
typedef struct PqfdwTableVersion
{
	int64		version;		/* Delta: a version; Iceberg: a snapshot id;
								 * -1: by timestamp or ref, or the latest */
	bool		by_time;
	TimestampTz time;			/* the newest version committed at or before */
	const char *ref;			/* Iceberg: a branch or tag; NULL */
	int32		schema_id;		/* Iceberg: the schema to read with (a
								 * parallel worker takes its leader's); -1: as
								 * the version says */
} PqfdwTableVersion;

/* A table format's table as a foreign table's options name it. */
typedef struct PqfdwTableRef
{
	PqfdwTableFormat format;
	const char *location;
	PqfdwTableVersion at;
	const PqfdwRemoteId *remote;	/* NULL for a directory */
	const char *location_map;	/* option location_map, or NULL */
} PqfdwTableRef;

/* The snapshot ref names (Delta or Iceberg), as pqfdw_delta_snapshot. */
extern const PqfdwTableSnapshot *pqfdw_table_snapshot(const PqfdwTableRef *ref);

/*
 * iceberg_files.c: the pairs (PqfdwLocationPair) of an option location_map,
 * 'OLD_PREFIX -> NEW_PREFIX; ...'; an ERROR when malformed.
 */
extern List *pqfdw_iceberg_parse_location_map(const char *text);

/* iceberg_table.c: the top-level field of schema with id id; NULL. */
extern const PqIcebergField *pqfdw_iceberg_schema_field(const PqIcebergSchema *schema,
														int32 id);

/* iceberg_table.c: the Iceberg table ref names; valid as Delta's are. */
extern const PqfdwTableSnapshot *pqfdw_iceberg_snapshot(const PqfdwTableRef *ref);

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

/*
 * A table format's directory dir (of the table at location), for ReadDir;
 * an ERROR (58P01 with hint when it does not exist) otherwise.
 */
extern DIR *pqfdw_table_dir_open(const char *dir, PqfdwTableFormat format,
								 const char *location, const char *hint);

/* The index of absolute path in s->paths, or -1. */
extern int	pqfdw_snapshot_file(const PqfdwTableSnapshot *s, const char *path);

/*
 * The name the column called name (logical, as declared: exactly, else
 * case-insensitively when unambiguous) has in the data files; NULL when
 * the table has no such column.
 */
extern const char *pqfdw_snapshot_field_name(const PqfdwTableSnapshot *s,
											 const char *name);

/*
 * The field id of the column called name (as for pqfdw_snapshot_field_name),
 * and the names a file without field ids gives it (NULL-terminated: the
 * Iceberg name mapping's, or Delta's physical name); false when columns
 * are not matched by id (Delta without id column mapping) or there is no
 * such column.
 */
extern bool pqfdw_snapshot_field_id(const PqfdwTableSnapshot *s,
									const char *name, int32 *id,
									const char *const **names);

/*
 * The text of column name's value in a file that lacks the column (v3
 * initial-default, an identity partition's value), NULL for null.
 */
extern const char *pqfdw_snapshot_missing_value(const PqfdwTableSnapshot *s,
												int file, const char *name);

/*
 * Where a path an Iceberg table records (a position delete file's
 * file_path) is now, as its data files' paths are; NULL when nowhere here.
 */
extern char *pqfdw_snapshot_map_path(const PqfdwTableSnapshot *s,
									 const char *recorded);

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
