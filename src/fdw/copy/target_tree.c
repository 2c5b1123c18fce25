/*-------------------------------------------------------------------------
 *
 * target_tree.c
 *		The target directory of a dataset COPY TO (partition_by,
 *		file_size_bytes, row_groups_per_file): a temporary directory next to
 *		it, put in place whole at the end.
 *
 * The files are written into ".<target name>.<pid>.<random>.tmp" beside
 * the target, so that one rename() puts the tree in place:
 *
 *	- no option: the target must not exist, or be an empty directory (which
 *	  rename() replaces); else ERROR 58P02 (duplicate_file) naming it;
 *	- overwrite: an existing target (a tree, a file or a symbolic link) is
 *	  exchanged with the new tree in one renameat2(RENAME_EXCHANGE), then
 *	  removed: a link itself, never what it points to; a directory only if
 *	  the server's user owns it;
 *	- overwrite_or_ignore: an existing target must be a directory, not a
 *	  link to one; the new files are moved into it one by one at the end,
 *	  each under the next free data_<n>.parquet name of its folder, so
 *	  nothing in it is replaced.  Each file appears whole, but not all of
 *	  them at one instant.  Without a target the tree is renamed into place.
 *
 * The parent directory may be writable by other users, who can see our pid
 * and plant links under the names we will use.  So the temporary directory
 * is made by mkdir() under a name nobody can guess, which fails rather
 * than follow or reuse anything there; what we made is only ever opened
 * relative to descriptors of directories we made, with O_NOFOLLOW, and
 * removed by remove_tree.c, which never follows a link.  Inside the
 * temporary tree (0755, ours) nobody else can create anything.
 *
 * On ERROR the caller removes the temporary tree (pqfdw_dataset_abort());
 * a FATAL exits without unwinding, so the temporary directories are also
 * listed for a before_shmem_exit callback.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_perm.h"
#include "fdw/copy/copy_to.h"
#include "fdw/copy/new_file.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "utils/memutils.h"

/* temporary trees being written, in TopMemoryContext */
static List *pending_dirs = NIL;
static bool exit_callback_registered = false;

static void
remove_pending_at_exit(int code, Datum arg)
{
	ListCell   *lc;

	foreach(lc, pending_dirs)
		(void) pqfdw_remove_tree((char *) lfirst(lc));
}

/* Remove a tree of ours; what is left is named in a WARNING. */
static void
remove_tree_or_warn(const char *path)
{
	if (!pqfdw_remove_tree(path))
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("could not remove directory \"%s\": %m", path)));
}

static void
forget_pending(const char *path)
{
	ListCell   *lc;

	foreach(lc, pending_dirs)
	{
		if (strcmp((char *) lfirst(lc), path) == 0)
		{
			char	   *p = lfirst(lc);

			pending_dirs = foreach_delete_current(pending_dirs, lc);
			pfree(p);
			return;
		}
	}
}

/* A directory in the temporary tree, where only we can create anything. */
void
pqfdw_dataset_mkdir(const char *path)
{
	mode_t		oumask;
	int			rc;

	/* as COPY's files: readable by everyone */
	oumask = umask(S_IWGRP | S_IWOTH);
	rc = mkdir(path, S_IRWXU | S_IRWXG | S_IRWXO);
	umask(oumask);
	if (rc != 0 && errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create directory \"%s\": %m", path)));
}

static bool
is_empty_dir(const char *path)
{
	DIR		   *d = AllocateDir(path);
	struct dirent *de;
	bool		empty = true;

	while ((de = ReadDir(d, path)) != NULL)
	{
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
		{
			empty = false;
			break;
		}
	}
	FreeDir(d);
	return empty;
}

static void
target_exists(const char *target)
{
	ereport(ERROR,
			(errcode(ERRCODE_DUPLICATE_FILE),
			 errmsg("COPY target \"%s\" already exists", target),
			 errhint("Use COPY option overwrite_or_ignore to add files to its tree, or overwrite to replace it.")));
}

/*
 * Make ".<name>.<pid>.<random>.tmp" in dir: mkdir() fails on any existing
 * name, a planted link included, so what it makes is new and ours.
 */
static char *
make_tmp_dir(const char *dir, const char *name)
{
	int			attempt;

	for (attempt = 0; attempt < 100; attempt++)
	{
		uint32		r;
		char	   *path;
		mode_t		oumask;
		int			rc;

		if (!pg_strong_random(&r, sizeof(r)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate a random name for a temporary directory")));
		path = psprintf("%s/.%s.%d.%08x.tmp", dir, name, MyProcPid, r);
		oumask = umask(S_IWGRP | S_IWOTH);
		rc = mkdir(path, S_IRWXU | S_IRWXG | S_IRWXO);
		umask(oumask);
		if (rc == 0)
			return path;
		if (errno != EEXIST)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not create directory \"%s\": %m", path)));
		pfree(path);
	}
	ereport(ERROR,
			(errcode(ERRCODE_DUPLICATE_FILE),
			 errmsg("could not create a temporary directory in \"%s\"", dir),
			 errdetail("100 random names were all taken.")));
	return NULL;				/* keep compiler quiet */
}

void
pqfdw_dataset_open(PqCopyDataset *d, const char *target,
				   const PqCopyDatasetOptions *o)
{
	struct stat st;
	char	   *dir = pstrdup(target);
	char	   *slash;
	MemoryContext old;

	memset(d, 0, sizeof(*d));
	d->overwrite = o->overwrite;
	d->overwrite_or_ignore = o->overwrite_or_ignore;
	/* the caller has made sure the path is absolute */
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	d->target = pstrdup(dir);
	slash = strrchr(dir, '/');
	if (slash[1] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("COPY target \"%s\" cannot be a root directory", target)));

	if (lstat(d->target, &st) == 0)
	{
		if (o->overwrite_or_ignore && !S_ISDIR(st.st_mode))
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("COPY target \"%s\" is not a directory", d->target),
					 S_ISLNK(st.st_mode) ?
					 errdetail("It is a symbolic link, which overwrite_or_ignore does not follow.") : 0,
					 errhint("overwrite_or_ignore adds files to an existing directory tree.")));
		if (!o->overwrite && !o->overwrite_or_ignore &&
			!(S_ISDIR(st.st_mode) && is_empty_dir(d->target)))
			target_exists(d->target);
		if (o->overwrite && S_ISDIR(st.st_mode) && st.st_uid != geteuid())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("COPY target \"%s\" is a directory of another user", d->target),
					 errdetail("overwrite removes only directories that the database server's user owns.")));
	}
	else if (errno != ENOENT)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", d->target)));

	*slash = '\0';
	d->parent = pstrdup(dir[0] ? dir : "/");

	if (!exit_callback_registered)
	{
		before_shmem_exit(remove_pending_at_exit, (Datum) 0);
		exit_callback_registered = true;
	}
	d->tmp_dir = make_tmp_dir(dir, slash + 1);
	old = MemoryContextSwitchTo(TopMemoryContext);
	pending_dirs = lappend(pending_dirs, pstrdup(d->tmp_dir));
	MemoryContextSwitchTo(old);
}

/* fsync every directory of the tree (the files were, when renamed). */
static void
fsync_tree(const char *path)
{
	DIR		   *dir = AllocateDir(path);
	struct dirent *de;

	while ((de = ReadDir(dir, path)) != NULL)
	{
		char	   *sub;
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		sub = psprintf("%s/%s", path, de->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			fsync_tree(sub);
		pfree(sub);
	}
	FreeDir(dir);
	fsync_fname(path, true);
}

/*
 * A directory below dirfd, made if missing; a link or a file there is an
 * ERROR: the target tree may be writable by others, and its files must not
 * land wherever a planted link points.
 */
static int
open_subdir(int dirfd, const char *name, const char *path)
{
	mode_t		oumask;
	int			fd;

	oumask = umask(S_IWGRP | S_IWOTH);
	if (mkdirat(dirfd, name, S_IRWXU | S_IRWXG | S_IRWXO) != 0 && errno != EEXIST)
	{
		umask(oumask);
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create directory \"%s\": %m", path)));
	}
	umask(oumask);
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" in the COPY target is not a directory", path),
				 errdetail("overwrite_or_ignore does not follow symbolic links in the target tree.")));
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open directory \"%s\": %m", path)));
	return fd;
}

/* A stream over the directory dirfd (named path), from its start. */
static DIR *
dir_stream(int dirfd, const char *path)
{
	int			fd = dup(dirfd);
	DIR		   *d = fd < 0 ? NULL : fdopendir(fd);

	if (d == NULL)
	{
		if (fd >= 0)
			close(fd);
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open directory \"%s\": %m", path)));
	}
	rewinddir(d);
	return d;
}

/* The next free data_<n>.parquet number of the directory dirfd. */
static int
next_data_file(int dirfd, const char *path)
{
	DIR		   *d = dir_stream(dirfd, path);
	struct dirent *de;
	int			next = 0;

	while ((de = readdir(d)) != NULL)
		next = Max(next, pqfdw_data_file_number(de->d_name) + 1);
	closedir(d);
	return next;
}

static void merge_tree(int tmp_fd, const char *tmp, int dst_fd,
					   const char *target);

/* merge_tree of the subdirectory name of both trees. */
static void
merge_subdir(int tmp_fd, const char *tmp, int dst_fd, const char *target,
			 const char *name)
{
	char	   *from = psprintf("%s/%s", tmp, name);
	char	   *to = psprintf("%s/%s", target, name);
	int			sub_tmp;
	volatile int sub_dst = -1;

	sub_tmp = openat(tmp_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub_tmp < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open directory \"%s\": %m", from)));
	PG_TRY();
	{
		sub_dst = open_subdir(dst_fd, name, to);
		merge_tree(sub_tmp, from, sub_dst, to);
	}
	PG_FINALLY();
	{
		close(sub_tmp);
		if (sub_dst >= 0)
			close(sub_dst);
	}
	PG_END_TRY();
}

/* Move the file name of tmp_fd into dst_fd under the next free number. */
static void
merge_file(int tmp_fd, const char *tmp, int dst_fd, const char *target,
		   const char *name, int *next)
{
	/* RENAME_NOREPLACE: a name taken meanwhile is skipped, not replaced */
	if (*next < 0)
		*next = next_data_file(dst_fd, target);
	for (;;)
	{
		char	   *to = psprintf("data_%d.parquet", (*next)++);

		if (renameat2(tmp_fd, name, dst_fd, to, RENAME_NOREPLACE) == 0)
			return;
		if (errno != EEXIST)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not rename file \"%s/%s\" to \"%s/%s\": %m",
							tmp, name, target, to)));
	}
}

/*
 * overwrite_or_ignore: move the files of the temporary tree (tmp_fd, ours)
 * into the target's (dst_fd), under names not yet taken.
 */
static void
merge_tree(int tmp_fd, const char *tmp, int dst_fd, const char *target)
{
	DIR		   *dir = dir_stream(tmp_fd, tmp);
	int			next = -1;

	PG_TRY();
	{
		struct dirent *de;

		while ((de = readdir(dir)) != NULL)
		{
			struct stat st;

			CHECK_FOR_INTERRUPTS();
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			if (fstatat(tmp_fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not stat file \"%s/%s\": %m", tmp, de->d_name)));
			if (S_ISDIR(st.st_mode))
				merge_subdir(tmp_fd, tmp, dst_fd, target, de->d_name);
			else
				merge_file(tmp_fd, tmp, dst_fd, target, de->d_name, &next);
		}
	}
	PG_FINALLY();
	{
		closedir(dir);
	}
	PG_END_TRY();
	if (fsync(dst_fd) != 0)
		ereport(data_sync_elevel(ERROR),
				(errcode_for_file_access(),
				 errmsg("could not fsync directory \"%s\": %m", target)));
}

/* merge_tree from the top: the target itself must be a directory. */
static void
merge_into_target(PqCopyDataset *d)
{
	int			tmp_fd = open(d->tmp_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int			dst_fd = open(d->target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (tmp_fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open directory \"%s\": %m", d->tmp_dir)));
	if (dst_fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("COPY target \"%s\" is not a directory", d->target),
				 errhint("overwrite_or_ignore adds files to an existing directory tree.")));
	if (dst_fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open directory \"%s\": %m", d->target)));
	PG_TRY();
	{
		merge_tree(tmp_fd, d->tmp_dir, dst_fd, d->target);
	}
	PG_FINALLY();
	{
		close(tmp_fd);
		close(dst_fd);
	}
	PG_END_TRY();
}

void
pqfdw_dataset_finish(PqCopyDataset *d)
{
	struct stat st;

	fsync_tree(d->tmp_dir);
	if (d->overwrite_or_ignore && lstat(d->target, &st) == 0)
	{
		merge_into_target(d);
		pqfdw_dataset_abort(d);
		return;
	}
	if (d->overwrite && lstat(d->target, &st) == 0)
	{
		/* checked again: the target may have changed since the start */
		if (S_ISDIR(st.st_mode) && st.st_uid != geteuid())
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("COPY target \"%s\" is a directory of another user", d->target),
					 errdetail("overwrite removes only directories that the database server's user owns.")));
		/* the old target is at tmp_dir afterwards, removed below */
		if (renameat2(AT_FDCWD, d->tmp_dir, AT_FDCWD, d->target,
					  RENAME_EXCHANGE) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not exchange \"%s\" with \"%s\": %m",
							d->tmp_dir, d->target)));
		fsync_fname(d->parent, true);
		pqfdw_dataset_abort(d);
		return;
	}
	if (rename(d->tmp_dir, d->target) != 0)
	{
		if (errno == EEXIST || errno == ENOTEMPTY || errno == ENOTDIR ||
			errno == EISDIR)
			target_exists(d->target);
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rename directory \"%s\" to \"%s\": %m",
						d->tmp_dir, d->target)));
	}
	fsync_fname(d->parent, true);
	forget_pending(d->tmp_dir);
}

void
pqfdw_dataset_abort(PqCopyDataset *d)
{
	if (d->tmp_dir == NULL)
		return;
	remove_tree_or_warn(d->tmp_dir);
	forget_pending(d->tmp_dir);
}

void
pqfdw_dataset_write_marker(PqCopyDataset *d)
{
	char	   *path = psprintf("%s/_SUCCESS", d->target);
	int			fd;

	/*
	 * A new file, never an old one truncated: a link planted under the name
	 * (symbolic or hard) goes, and what it points to stays untouched.
	 */
	if (unlink(path) != 0 && errno != ENOENT)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not remove file \"%s\": %m", path)));
	fd = pqfdw_create_new_file(path);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", path)));
	if (pg_fsync(fd) != 0 || CloseTransientFile(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", path)));
	fsync_fname(d->target, true);
}
