/*-------------------------------------------------------------------------
 *
 * source.h
 *		Parquet files through PostgreSQL's transient file descriptors
 *		(source.c): sources, files with their footers, footer lists.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_SOURCE_H
#define PQFDW_SOURCE_H

#include "fdw/common/footer_cache.h"
#include "nodes/pg_list.h"

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

#endif							/* PQFDW_SOURCE_H */
