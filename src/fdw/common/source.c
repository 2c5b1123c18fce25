/*-------------------------------------------------------------------------
 *
 * source.c
 *		PqSource over PostgreSQL transient files (closed on abort), and
 *		opening the footers of a table's files.
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

typedef struct FdSource
{
	PqSource	src;
	int			fd;
	PqFileStamp stamp;
} FdSource;

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

PqSource *
pqfdw_source_open(const char *path)
{
	return pqfdw_source_open_named(path, path);
}

PqSource *
pqfdw_source_open_named(const char *path, const char *name)
{
	struct stat st;
	PqFileStamp stamp;
	int			fd;

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
	return &new_source(name, fd, &stamp)->src;
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
}

void
pqfdw_source_stamp(const PqSource *src, PqFileStamp *stamp)
{
	*stamp = ((const FdSource *) src)->stamp;
}

PqFile *
pqfdw_file_open(const char *path, const PqDecryptionConfig *decrypt)
{
	return pqfdw_file_open_named(path, path, decrypt);
}

PqFile *
pqfdw_file_open_named(const char *path, const char *name,
					  const PqDecryptionConfig *decrypt)
{
	PqSource   *src = pqfdw_source_open_named(path, name);

	src->decrypt = decrypt ? decrypt :
		pqfdw_decryption_config(NULL, NULL, NULL, NULL);
	return pqfdw_footer_cache_open(src, &((FdSource *) src)->stamp);
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
footer_only(const char *path, const PqDecryptionConfig *decrypt)
{
	struct stat st;
	PqFileStamp stamp;
	bool		known = pqfdw_footer_cache_checked(path, &stamp);
	PqFile	   *f;

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
	f = pqfdw_file_open(path, decrypt);
	pqfdw_source_close(f->src);
	return f;
}

List *
pqfdw_plan_footers(List *paths, const PqDecryptionConfig *decrypt,
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
		FdSource   *fs = new_source_named(path, -1, &unknown);
		PqFile	   *f;

		fs->src.decrypt = decrypt;
		f = pqfdw_footer_cache_peek(&fs->src);
		if (f == NULL)
			f = footer_only(path, decrypt);
		if (first == NULL)
			first = f;
		else if (same_schema && !pqfdw_footer_cache_same_schema(first, f))
			schema_error(f, first);
		files = lappend(files, f);
	}
	return files;
}

List *
pqfdw_open_footers(List *paths, const PqDecryptionConfig *decrypt)
{
	List	   *files = NIL;
	PqFile	   *first = NULL;
	ListCell   *lc;

	foreach(lc, paths)
	{
		PqFile	   *f = footer_only((const char *) lfirst(lc), decrypt);

		if (first == NULL)
			first = f;
		else if (!pqfdw_footer_cache_same_schema(first, f))
			schema_error(f, first);
		files = lappend(files, f);
	}
	return files;
}
