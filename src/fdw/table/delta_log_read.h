/*-------------------------------------------------------------------------
 *
 * delta_log_read.h
 *		The files of a Delta table's _delta_log as delta_table.c reads
 *		them (delta_log_read.c): listing, reading, replaying a version.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_DELTA_LOG_READ_H
#define PQFDW_DELTA_LOG_READ_H

#include "fdw/table/table_snapshot.h"

typedef struct Checkpoint
{
	int64		version;
	PqDeltaLogFile kind;
	int			part;
	int			parts;
	char	   *name;
} Checkpoint;

typedef struct LogListing
{
	const PqfdwRemoteId *remote;	/* a bucket's prefix: how to reach it;
									 * NULL: a local directory */
	int64		latest;			/* highest commit version, -1: none */
	int64		ncommits;
	int64	   *commits;		/* versions, ascending */
	int			ncheckpoints;
	Checkpoint *checkpoints;	/* by version, then name */
} LogListing;

/* The commits and checkpoints in location's _delta_log. */
extern void pqfdw_delta_list_log(const char *location,
								 const PqfdwRemoteId *remote, LogListing *ll);

/* The whole of a log file, NUL-terminated; *len its length. */
extern char *pqfdw_delta_read_log_file(const LogListing *ll, const char *path,
									   size_t *len);

/* ERROR: the table at location cannot be read, for why. */
extern void pqfdw_delta_corrupt(const char *location,
								const char *why) pg_attribute_noreturn();

/*
 * Replay version's state into a snapshot: the newest checkpoint at or
 * before it, then the commits after that; *cxt the context it lives in.
 */
extern void pqfdw_delta_replay(const char *location, const LogListing *ll,
							   int64 version, PqDeltaSnapshot *out,
							   MemoryContext *cxt);

/*
 * When commit version was made (ms): its inCommitTimestamp, else its file's
 * mtime (in a bucket: its commitInfo's timestamp).
 */
extern int64 pqfdw_delta_commit_time(const char *location,
									 const LogListing *ll, int64 version);

/*
 * The version at asks for: the option's, the newest committed at or
 * before its time, the latest.
 */
extern int64 pqfdw_delta_resolve_version(const char *location,
										 const LogListing *ll,
										 const PqfdwTableVersion *at);

/*
 * What tells a version's files from others under the same name (a table
 * deleted and written again): its commit's (or checkpoint's) inode, size
 * and modification time.
 */
typedef struct PqfdwDeltaStamp
{
	uint64		etag;			/* in a bucket: a hash of its ETag */
	uint64		ino;
	int64		size;
	int64		mtime_ns;
} PqfdwDeltaStamp;

extern void pqfdw_delta_version_stamp(const char *location,
									  const LogListing *ll, int64 version,
									  PqfdwDeltaStamp *stamp);

#endif							/* PQFDW_DELTA_LOG_READ_H */
