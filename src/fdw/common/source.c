/*-------------------------------------------------------------------------
 *
 * source.c
 *		PqSource over PostgreSQL transient files (closed on abort) or
 *		objects behind URLs, and opening the footers of a table's files.
 *
 * Every source carries a stamp saying which version of its file it reads:
 * for a local file what fstat() says, for an object its size, ETag and
 * whose settings reached it (one role's cached footer never answers
 * another's).  Objects without an ETag are read but never cached.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdw/common/footer_cache.h"
#include "fdw/common/source.h"
#include "fdw/keys/keys.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "xxhash.h"

typedef struct FdSource
{
	PqSource	src;
	int			fd;
	PqFileStamp stamp;
	PqSource   *remote;			/* an object's source, read through this */
	bool		cacheable;		/* the stamp identifies the version */
} FdSource;

static void
remote_read(PqSource *src, int64 offset, size_t len, uint8 *buf)
{
	PqSource   *remote = ((FdSource *) src)->remote;

	remote->read(remote, offset, len, buf);
	src->bytes_read = remote->bytes_read;
}

static void
remote_read_many(PqSource *src, int n, const int64 *offsets,
				 const size_t *lens, uint8 **bufs)
{
	PqSource   *remote = ((FdSource *) src)->remote;

	remote->read_many(remote, n, offsets, lens, bufs);
	src->bytes_read = remote->bytes_read;
}

static void
fd_source_read(PqSource *src, int64 offset, size_t len, uint8 *buf)
{
	FdSource   *fs = (FdSource *) src;
	size_t		done = 0;

	if (offset < 0 || offset > src->size || (int64) len > src->size - offset)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("corrupt Parquet file \"%s\": read of %zu bytes at offset " INT64_FORMAT " is past the end of the file (" INT64_FORMAT " bytes)",
						src->name, len, offset, src->size)));
	while (done < len)
	{
		ssize_t		n;

		CHECK_FOR_INTERRUPTS();
		n = pg_pread(fs->fd, buf + done, Min(len - done, (size_t) 64 * 1024 * 1024),
					 offset + done);
		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read file \"%s\": %m", src->name)));
		}
		if (n == 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("could not read file \"%s\": file was truncated while reading",
							src->name)));
		done += n;
	}
	src->bytes_read += len;
}

/* A source named name, which must live as long as it: not copied. */
static FdSource *
new_source_named(const char *name, int fd, const PqFileStamp *stamp)
{
	FdSource   *fs = palloc0(sizeof(FdSource));

	fs->fd = fd;
	fs->stamp = *stamp;
	fs->src.name = name;
	fs->src.size = stamp->size;
	fs->src.read = fd_source_read;
	fs->src.opaque = fs;
	fs->cacheable = true;
	return fs;
}

static FdSource *
new_source(const char *path, int fd, const PqFileStamp *stamp)
{
	return new_source_named(pstrdup(path), fd, stamp);
}

static void
stat_stamp(const struct stat *st, PqFileStamp *stamp)
{
	stamp->size = st->st_size;
	stamp->mtime_sec = st->st_mtim.tv_sec;
	stamp->mtime_nsec = st->st_mtim.tv_nsec;
	stamp->inode = st->st_ino;
	stamp->device = st->st_dev;
}

void
pqfdw_access_local(PqfdwAccess *access, const PqDecryptionConfig *decrypt)
{
	access->decrypt = decrypt;
	access->remote.serverid = InvalidOid;
	access->remote.userid = InvalidOid;
}

/*
 * An object's stamp: its size and ETag, and whose settings reached it.
 * mtime -1 keeps it apart from any local file's.
 */
static void
remote_stamp(const PqfdwAccess *access, int64 size, const char *etag,
			 PqFileStamp *stamp)
{
	memset(stamp, 0, sizeof(*stamp));
	stamp->size = size;
	stamp->mtime_sec = -1;
	stamp->inode = XXH3_64bits(etag, strlen(etag));
	stamp->device = (uint64) access->remote.serverid << 32 |
		access->remote.userid;
}

static void
remote_prefetch(PqSource *src, int n, const int64 *offsets, const size_t *lens,
				bool background)
{
	PqSource   *remote = ((FdSource *) src)->remote;

	remote->prefetch(remote, n, offsets, lens, background);
	src->bytes_read = remote->bytes_read;
}

static void
remote_poll(PqSource *src)
{
	PqSource   *remote = ((FdSource *) src)->remote;

	remote->poll(remote);
	src->bytes_read = remote->bytes_read;
}

static FdSource *
remote_source_open(const char *url, const PqfdwAccess *access)
{
	PqfdwRemoteId none = {InvalidOid, InvalidOid};
	const PqfdwRemoteId *id = access ? &access->remote : &none;
	PqSource   *remote;
	FdSource   *fs;
	PqFileStamp stamp;
	int64		size;
	char	   *etag;

	pqfdw_remote_stat(id, url, &size, &etag);
	remote = pqfdw_remote_source_open(id, url, size, etag);
	if (etag)
		remote_stamp(access, size, etag, &stamp);
	else
		memset(&stamp, 0, sizeof(stamp));
	fs = new_source_named(remote->name, -1, &stamp);
	fs->remote = remote;
	fs->cacheable = etag != NULL;
	fs->src.read = remote_read;
	fs->src.read_many = remote_read_many;
	fs->src.prefetch = remote_prefetch;
	fs->src.poll = remote_poll;
	fs->src.coalesce_gap = remote->coalesce_gap;
	return fs;
}

static FdSource *
source_open(const char *path, const char *name, const PqfdwAccess *access)
{
	struct stat st;
	PqFileStamp stamp;
	int			fd;

	if (pq_url_is_remote(path))
		return remote_source_open(path, access);

	/*
	 * O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
	 * writer in the kernel, where neither cancel nor terminate reaches.  It
	 * changes nothing for the regular files we go on to read.
	 */
	fd = OpenTransientFile(path, O_RDONLY | O_NONBLOCK | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open Parquet file \"%s\": %m", name)));
	if (fstat(fd, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat Parquet file \"%s\": %m", name)));
	if (S_ISDIR(st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a directory", name)));
	if (!S_ISREG(st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a regular file", name),
				 errhint("Parquet files are read from regular files only, not from FIFOs, sockets or devices.")));

	stat_stamp(&st, &stamp);
	return new_source(name, fd, &stamp);
}

PqSource *
pqfdw_source_open_named(const char *path, const char *name,
						const PqfdwAccess *access)
{
	return &source_open(path, name, access)->src;
}

void
pqfdw_source_close(PqSource *src)
{
	FdSource   *fs = (FdSource *) src;

	if (fs->fd >= 0)
	{
		CloseTransientFile(fs->fd);
		fs->fd = -1;
	}
	if (fs->remote)
		pqfdw_remote_source_release(fs->remote);
}

void
pqfdw_source_stamp(const PqSource *src, PqFileStamp *stamp)
{
	*stamp = ((const FdSource *) src)->stamp;
}

PqFile *
pqfdw_file_open(const char *path, const PqfdwAccess *access)
{
	return pqfdw_file_open_named(path, path, access);
}

PqFile *
pqfdw_file_open_named(const char *path, const char *name,
					  const PqfdwAccess *access)
{
	FdSource   *fs = source_open(path, name, access);

	if (fs->remote)
		fs->src.decrypt = pqfdw_decryption_for_remote(access->decrypt,
													  &access->remote);
	else
		fs->src.decrypt = access && access->decrypt ? access->decrypt :
			pqfdw_decryption_config(NULL, NULL, NULL, NULL);
	if (!fs->cacheable)
		return pq_file_open(&fs->src);
	return pqfdw_footer_cache_open(&fs->src, &fs->stamp);
}

static void
schema_error(const PqFile *f, const PqFile *first)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION),
			 errmsg("schema of Parquet file \"%s\" differs from the schema of \"%s\"",
					f->src->name, first->src->name),
			 errhint("All files of one foreign table must have the same columns and types, unless its option union_by_name is true.")));
}

/*
 * The footer of path, from the cache when the file is unchanged: known to
 * be in this statement, or shown by stat() (one system call, no open);
 * else read.  Its source is closed either way.
 */
static PqFile *
footer_only(const char *path, const PqfdwAccess *access)
{
	const PqDecryptionConfig *decrypt = access ? access->decrypt : NULL;
	struct stat st;
	PqFileStamp stamp;
	bool		known;
	PqFile	   *f;

	/* objects: the statement's listings and HEADs know them */
	if (pq_url_is_remote(path))
	{
		f = pqfdw_file_open(path, access);
		pqfdw_source_close(f->src);
		return f;
	}
	known = pqfdw_footer_cache_checked(path, &stamp);
	if (!known && stat(path, &st) == 0 && S_ISREG(st.st_mode))
	{
		stat_stamp(&st, &stamp);
		known = true;
	}
	if (known)
	{
		FdSource   *fs = new_source(path, -1, &stamp);

		fs->src.decrypt = decrypt;
		f = pqfdw_footer_cache_lookup(&fs->src, &fs->stamp);
		if (f != NULL)
			return f;
	}
	f = pqfdw_file_open(path, access);
	pqfdw_source_close(f->src);
	return f;
}

int
pqfdw_fetch_object_ends(List *paths, int from, bool whole_small,
						bool (*keep) (void *arg, int path), void *arg,
						const PqfdwAccess *access)
{
	const char **urls = palloc(sizeof(char *) * PQFDW_TAIL_BATCH);
	int			n = 0;
	int			i;

	for (i = from; i < list_length(paths) && i < from + PQFDW_TAIL_BATCH; i++)
	{
		const char *path = list_nth(paths, i);
		PqFileStamp stamp;
		int64		size;
		char	   *etag;

		if (!pq_url_is_remote(path) || (keep && !keep(arg, i)))
			continue;
		pqfdw_remote_stat(&access->remote, path, &size, &etag);
		if (whole_small)
		{
			if (etag == NULL || size > PQFDW_TAIL_PREFETCH)
				continue;
		}
		else if (etag != NULL)
		{
			remote_stamp(access, size, etag, &stamp);
			if (pqfdw_footer_cache_holds(pq_url_parse(path)->display, &stamp))
				continue;
		}
		urls[n++] = path;
	}
	if (n > 1)
		pqfdw_remote_fetch_tails(&access->remote, urls, n);
	pfree(urls);
	return i;
}

List *
pqfdw_plan_footers(List *paths, const PqfdwAccess *access,
				   bool same_schema)
{
	List	   *files = NIL;
	PqFile	   *first = NULL;
	PqFileStamp unknown;
	ListCell   *lc;

	memset(&unknown, 0, sizeof(unknown));
	foreach(lc, paths)
	{
		const char *path = lfirst(lc);
		PqFile	   *f = NULL;

		if (access && foreach_current_index(lc) % PQFDW_TAIL_BATCH == 0)
			(void) pqfdw_fetch_object_ends(paths, foreach_current_index(lc),
										   false, NULL, NULL, access);

		/* an object's cached footer may be another role's: not peeked at */
		if (!pq_url_is_remote(path))
		{
			FdSource   *fs = new_source_named(path, -1, &unknown);

			fs->src.decrypt = access ? access->decrypt : NULL;
			f = pqfdw_footer_cache_peek(&fs->src);
		}
		if (f == NULL)
			f = footer_only(path, access);
		if (first == NULL)
			first = f;
		else if (same_schema && !pqfdw_footer_cache_same_schema(first, f))
			schema_error(f, first);
		files = lappend(files, f);
	}
	return files;
}

List *
pqfdw_open_footers(List *paths, const PqfdwAccess *access, bool same_schema)
{
	List	   *files = NIL;
	PqFile	   *first = NULL;
	ListCell   *lc;

	foreach(lc, paths)
	{
		PqFile	   *f;

		if (access && foreach_current_index(lc) % PQFDW_TAIL_BATCH == 0)
			(void) pqfdw_fetch_object_ends(paths, foreach_current_index(lc),
										   false, NULL, NULL, access);
		f = footer_only((const char *) lfirst(lc), access);

		if (first == NULL)
			first = f;
		else if (same_schema && !pqfdw_footer_cache_same_schema(first, f))
			schema_error(f, first);
		files = lappend(files, f);
	}
	return files;
}
