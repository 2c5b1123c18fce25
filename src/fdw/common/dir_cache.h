/*-------------------------------------------------------------------------
 *
 * dir_cache.h
 *		Directory listings kept across queries while a directory's stamp is
 *		unchanged (dir_cache.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_DIR_CACHE_H
#define PQFDW_DIR_CACHE_H


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

#endif							/* PQFDW_DIR_CACHE_H */
