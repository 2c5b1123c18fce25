/*-------------------------------------------------------------------------
 *
 * dir_cache.c
 *		Directory listings kept across queries in the backend.
 *
 * A table over a dataset lists its directories at every planning: 10,000
 * files in 100 directories cost 10,000 stat() calls, which dominated
 * planning.  A directory's listing (names, and whether each is a file or a
 * directory, from readdir's d_type) is kept under the directory's stamp:
 * creating, removing or renaming an entry changes the directory's mtime
 * and ctime, so one stat() of the directory tells whether the listing is
 * still true.  Symbolic links (and file systems without d_type) are
 * resolved with stat() at every listing: their targets can change without
 * the directory changing.  When the listings outgrow their budget they are
 * all dropped and built again as needed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <sys/stat.h>

#include "fdw/common/dir_cache.h"
#include "storage/fd.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

/* Bytes of listings kept at most. */
#define DIR_CACHE_BUDGET (64 * 1024 * 1024)

typedef struct DirStamp
{
	int64		mtime_sec;
	int64		mtime_nsec;
	int64		ctime_sec;
	int64		ctime_nsec;
	uint64		inode;
	uint64		device;
} DirStamp;

typedef struct CachedDir
{
	char		path[MAXPGPATH];	/* hash key */
	DirStamp	stamp;
	PqfdwDirListing listing;
	Size		bytes;
} CachedDir;

static HTAB *dir_cache = NULL;
static MemoryContext dir_cxt = NULL;
static Size dir_bytes = 0;

static void
dir_stamp(const struct stat *st, DirStamp *s)
{
	s->mtime_sec = st->st_mtim.tv_sec;
	s->mtime_nsec = st->st_mtim.tv_nsec;
	s->ctime_sec = st->st_ctim.tv_sec;
	s->ctime_nsec = st->st_ctim.tv_nsec;
	s->inode = st->st_ino;
	s->device = st->st_dev;
}

static void
reset_cache(void)
{
	HASHCTL		ctl;

	if (dir_cxt == NULL)
		dir_cxt = AllocSetContextCreate(TopMemoryContext,
										"parquet_fdw directory listings",
										ALLOCSET_DEFAULT_SIZES);
	else
		MemoryContextReset(dir_cxt);
	ctl.keysize = MAXPGPATH;
	ctl.entrysize = sizeof(CachedDir);
	ctl.hcxt = dir_cxt;
	dir_cache = hash_create("parquet_fdw directory listings", 64, &ctl,
							HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	dir_bytes = 0;
}

/* Copy listing into the cache's memory; the bytes it takes there. */
static Size
copy_listing(const PqfdwDirListing *from, PqfdwDirListing *to)
{
	Size		bytes = sizeof(PqfdwDirEntry) * Max(from->n, 1);
	int			i;

	to->n = from->n;
	to->device = from->device;
	to->inode = from->inode;
	to->entries = MemoryContextAlloc(dir_cxt, bytes);
	for (i = 0; i < from->n; i++)
	{
		to->entries[i].name = MemoryContextStrdup(dir_cxt, from->entries[i].name);
		to->entries[i].kind = from->entries[i].kind;
		bytes += strlen(from->entries[i].name) + 1;
	}
	return bytes;
}

/*
 * Entries in the order their paths sort in: a directory's name as if it
 * ended in "/", so that walking the sorted entries depth first lists the
 * files in strcmp() order of their whole paths.
 */
static int
entry_cmp(const void *a, const void *b)
{
	const PqfdwDirEntry *x = a;
	const PqfdwDirEntry *y = b;
	const unsigned char *p = (const unsigned char *) x->name;
	const unsigned char *q = (const unsigned char *) y->name;
	int			cp;
	int			cq;

	while (*p && *p == *q)
		p++, q++;
	cp = *p ? *p : x->kind == PQFDW_DIRENT_DIR ? '/' : 0;
	cq = *q ? *q : y->kind == PQFDW_DIRENT_DIR ? '/' : 0;
	return cp - cq;
}

/* Read dir into listing, sorted, allocating in cxt. */
static void
read_listing(const char *dir, PqfdwDirListing *listing, MemoryContext cxt)
{
	DIR		   *d;
	struct dirent *de;
	int			cap = 16;

	listing->n = 0;
	listing->entries = MemoryContextAlloc(cxt, sizeof(PqfdwDirEntry) * cap);
	d = AllocateDir(dir);
	while ((de = ReadDir(d, dir)) != NULL)
	{
		PqfdwDirEntry *e;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (listing->n == cap)
		{
			cap *= 2;
			listing->entries = repalloc(listing->entries,
										sizeof(PqfdwDirEntry) * cap);
		}
		e = &listing->entries[listing->n++];
		e->name = MemoryContextStrdup(cxt, de->d_name);
		e->kind = de->d_type == DT_DIR ? PQFDW_DIRENT_DIR :
			de->d_type == DT_REG ? PQFDW_DIRENT_FILE : PQFDW_DIRENT_OTHER;
	}
	FreeDir(d);
	qsort(listing->entries, listing->n, sizeof(PqfdwDirEntry), entry_cmp);
}

const PqfdwDirListing *
pqfdw_dir_listing(const char *dir)
{
	struct stat st;
	DirStamp	stamp;
	CachedDir  *cd;
	bool		found;
	PqfdwDirListing *fresh;

	if (strlen(dir) >= MAXPGPATH || stat(dir, &st) != 0)
	{
		/* too long to key, or gone: listed, uncached, with its own errors */
		fresh = palloc(sizeof(PqfdwDirListing));
		read_listing(dir, fresh, CurrentMemoryContext);
		if (stat(dir, &st) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not stat directory \"%s\": %m", dir)));
		fresh->device = st.st_dev;
		fresh->inode = st.st_ino;
		return fresh;
	}
	dir_stamp(&st, &stamp);
	if (dir_cache == NULL)
		reset_cache();
	cd = hash_search(dir_cache, dir, HASH_FIND, NULL);
	if (cd != NULL && memcmp(&cd->stamp, &stamp, sizeof(DirStamp)) == 0)
		return &cd->listing;

	/* list into a transient context first: an error leaves the cache whole */
	fresh = palloc(sizeof(PqfdwDirListing));
	read_listing(dir, fresh, CurrentMemoryContext);
	fresh->device = st.st_dev;
	fresh->inode = st.st_ino;
	if (dir_bytes > DIR_CACHE_BUDGET)
		reset_cache();
	cd = hash_search(dir_cache, dir, HASH_ENTER, &found);
	if (found)
		dir_bytes -= cd->bytes;
	cd->stamp = stamp;
	/* the entry itself counts: its key alone is MAXPGPATH bytes */
	cd->bytes = sizeof(CachedDir) + copy_listing(fresh, &cd->listing);
	dir_bytes += cd->bytes;
	return &cd->listing;
}
