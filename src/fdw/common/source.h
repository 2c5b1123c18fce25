/*-------------------------------------------------------------------------
 *
 * source.h
 *		Parquet files through PostgreSQL's transient file descriptors or
 *		behind URLs (source.c): sources, files with their footers, footer
 *		lists.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_SOURCE_H
#define PQFDW_SOURCE_H

#include "fdw/common/footer_cache.h"
#include "fdw/remote/remote.h"
#include "nodes/pg_list.h"

/*
 * What opening a table's files needs besides their names: keys, and whose
 * settings reach URLs.  A NULL PqfdwAccess: no keys but the files' key
 * metadata, and no URLs.
 */
typedef struct PqfdwAccess
{
	const PqDecryptionConfig *decrypt;	/* NULL: keys only from key metadata */
	PqfdwRemoteId remote;
} PqfdwAccess;

/* Local paths: no URL is reached (remote.serverid invalid). */
extern void pqfdw_access_local(PqfdwAccess *access,
							   const PqDecryptionConfig *decrypt);

/*
 * The source of path (a local file, or an object behind a URL), called
 * name in messages and the footer cache (for URLs: the URL without its
 * query).
 */
extern PqSource *pqfdw_source_open_named(const char *path, const char *name,
										 const PqfdwAccess *access);
extern void pqfdw_source_close(PqSource *src);

/* what fstat (or stat, or the store) said of src's file when it was opened */
extern void pqfdw_source_stamp(const PqSource *src, PqFileStamp *stamp);

extern PqFile *pqfdw_file_open(const char *path, const PqfdwAccess *access);
extern PqFile *pqfdw_file_open_named(const char *path, const char *name,
									 const PqfdwAccess *access);

/*
 * Opens every path and, with same_schema (not under union_by_name), checks
 * that the schemas agree; returns a List of PqFile (each source already
 * closed: only the footers are kept).
 */
extern List *pqfdw_open_footers(List *paths, const PqfdwAccess *access,
								bool same_schema);

/*
 * The footers the planner estimates with: from the cache without checking
 * the files (read and cached when not there); same_schema as in
 * pqfdw_open_footers.  Cached footers name their file by the string in
 * paths, not a copy (perf: 7% of planning over 10,000 files), so the paths
 * must live as long as the footers.
 */
extern List *pqfdw_plan_footers(List *paths, const PqfdwAccess *access,
								bool same_schema);

/*
 * The ends of many objects fetched together (remote_tails.c), for the
 * sources that open them next, so that opening them costs a round trip per
 * batch, not per object: of the URLs among paths[from, from +
 * PQFDW_TAIL_BATCH) that keep(arg, index) leaves (or all), those whose
 * footers the cache lacks, or (whole_small: a scan reading objects one
 * after another) those no larger than the tail prefetch, fetched whole.
 * Returns the index after the last path looked at.
 */
#define PQFDW_TAIL_BATCH 256

extern int	pqfdw_fetch_object_ends(List *paths, int from, bool whole_small,
									bool (*keep) (void *arg, int path),
									void *arg, const PqfdwAccess *access);

#endif							/* PQFDW_SOURCE_H */
