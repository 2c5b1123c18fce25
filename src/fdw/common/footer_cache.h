/*-------------------------------------------------------------------------
 *
 * footer_cache.h
 *		The footer cache (footer_cache.c): parsed footers kept across queries
 *		in each backend, by path and the file's stamp.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_FOOTER_CACHE_H
#define PQFDW_FOOTER_CACHE_H

#include "format/read/file_reader.h"

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

/* Whether the cache holds path's footer as stamp says the file is now. */
extern bool pqfdw_footer_cache_holds(const char *path,
									 const PqFileStamp *stamp);

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

#endif							/* PQFDW_FOOTER_CACHE_H */
