/*-------------------------------------------------------------------------
 *
 * iceberg_files.h
 *		The files of an Iceberg table as iceberg_table.c reads them
 *		(iceberg_files.c): finding the current metadata file, reading
 *		metadata files, manifest lists and manifests, and mapping the
 *		prefixes they record (option location_map).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_ICEBERG_FILES_H
#define PQFDW_ICEBERG_FILES_H

#include "fdw/table/table_snapshot.h"

/* Most bytes of one metadata file, manifest list or manifest read. */
#define PQFDW_ICEBERG_MAX_FILE (INT64CONST(256) * 1024 * 1024)

/* What tells a metadata file from another under its name. */
typedef struct PqfdwIcebergStamp
{
	uint64		etag;			/* in a bucket: a hash of its ETag */
	uint64		ino;
	int64		size;
	int64		mtime_ns;
} PqfdwIcebergStamp;

/* A pair of option location_map: OLD_PREFIX -> NEW_PREFIX. */
typedef struct PqfdwLocationPair
{
	char	   *from;
	char	   *to;
} PqfdwLocationPair;

/* How recorded paths become paths to read. */
typedef struct PqfdwIcebergPaths
{
	const char *location;		/* the table as option location names it */
	const char *recorded_location;	/* the metadata's "location", or NULL */
	List	   *map;			/* of PqfdwLocationPair */
	bool		remote;			/* location is a URL */
} PqfdwIcebergPaths;

/* ERROR: the table at location cannot be read, for why. */
extern void pqfdw_iceberg_corrupt(const char *location,
								  const char *why) pg_attribute_noreturn();

/*
 * The whole of path (a local file or an object), at most max bytes and
 * NUL-terminated, *len its length; NULL when missing_ok and it does not
 * exist.  what names the kind of file in messages.  stamp, when not NULL,
 * gets what tells this file from another under its name.
 */
extern uint8 *pqfdw_iceberg_read(const PqfdwRemoteId *remote, const char *path,
								 const char *what, int64 max, size_t *len,
								 bool missing_ok, PqfdwIcebergStamp *stamp);

/*
 * The current metadata file of the table at location: location itself
 * when it names a .metadata.json file; else the one metadata/version-hint.text
 * names, else the highest numbered in metadata/.
 */
extern char *pqfdw_iceberg_metadata_file(const char *location,
										 const PqfdwRemoteId *remote);

/*
 * Where a path the metadata records is now: the longest OLD_PREFIX of the
 * map that it starts with (at a '/') replaced by NEW_PREFIX, else the
 * table's recorded location replaced by option location; "file:" dropped.
 * An ERROR when the result is not a local path (for a local table) or a
 * URL of the table's store.
 */
extern char *pqfdw_iceberg_map_path(const PqfdwIcebergPaths *paths,
									const char *recorded);

/* The same, NULL where that would be an ERROR. */
extern char *pqfdw_iceberg_try_map_path(const PqfdwIcebergPaths *paths,
										const char *recorded);

/* iceberg_table.c: pqfdw_snapshot_field_id() of an Iceberg table */
extern bool pqfdw_iceberg_field_id(const PqfdwTableSnapshot *s,
								   const char *name, int32 *id,
								   const char *const **names);

/* iceberg_table.c: pqfdw_snapshot_missing_value() of an Iceberg table */
extern const char *pqfdw_iceberg_missing_value(const PqfdwTableSnapshot *s,
											   int file, const char *name);

#endif							/* PQFDW_ICEBERG_FILES_H */
