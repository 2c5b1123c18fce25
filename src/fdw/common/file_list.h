/*-------------------------------------------------------------------------
 *
 * file_list.h
 *		The files a filename option names (file_list.c): paths, trees, globs,
 *		and the hash plans keep of them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_FILE_LIST_H
#define PQFDW_FILE_LIST_H

#include "fdw/remote/remote.h"
#include "nodes/pg_list.h"

/*
 * file_list.c: the filename option's absolute paths and URLs (no store
 * access; a stat() of the whole value tells adjust/parquet_fdw's
 * space-separated list from one path with spaces), and the files they
 * name: files, directories and URLs ending with "/" (*.parquet at any
 * depth) and globs ("**": any number of directories), each sorted.  remote
 * reaches URLs.
 */
extern List *pqfdw_split_paths(const char *filename);

/*
 * Whether the files below a directory of a URL prefix (a URL ending with
 * "/") may be wanted; with one, a prefix is listed a level at a time and
 * what it rules out is never listed (hive partitions a query cannot read).
 */
typedef struct PqfdwPrefixFilter
{
	bool		(*may_match) (const char *dir_url, void *arg);
	void	   *arg;
} PqfdwPrefixFilter;

extern List *pqfdw_expand_paths(const char *filename,
								const PqfdwRemoteId *remote);

/* a name walks skip (_SUCCESS, .tmp files), never a key=value folder */
extern bool pqfdw_hidden_name(const char *name);

/*
 * Plans keep the files named when they were made; the executor compares
 * with the files named now (fdw/scan/file_set.c).  A hash of a file list;
 * pqfdw_expand_paths (with a filter, or NULL), noting the hash for the rest
 * of the statement (pqfdw_note_expansion: files found otherwise, as a
 * table format's log names them); and whether filename was expanded in
 * this statement to files of this hash.
 */
extern uint64 pqfdw_paths_hash(List *paths);
extern void pqfdw_note_expansion(const char *filename, uint64 hash);
extern List *pqfdw_expand_paths_hashed(const char *filename,
									   const PqfdwRemoteId *remote,
									   const PqfdwPrefixFilter *filter,
									   uint64 *hash);
extern bool pqfdw_expanded_in_statement(const char *filename, uint64 hash);

/*
 * The same for items already split (the paths a function returned, option
 * files_func), noted under key, which names them in the statement.
 */
extern List *pqfdw_expand_items_hashed(const char *key, List *items,
									   const PqfdwRemoteId *remote,
									   const PqfdwPrefixFilter *filter,
									   uint64 *hash);

#endif							/* PQFDW_FILE_LIST_H */
