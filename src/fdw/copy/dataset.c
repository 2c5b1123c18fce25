/*-------------------------------------------------------------------------
 *
 * dataset.c
 *		The target directory of a dataset COPY TO (partition_by,
 *		file_size_bytes, row_groups_per_file): a temporary directory next to
 *		it, put in place whole at the end.
 *
 * The files are written into ".<target name>.<pid>.tmp" beside the target,
 * so that one rename() puts the tree in place:
 *
 *	- no option: the target must not exist, or be an empty directory (which
 *	  rename() replaces); else ERROR 58P02 (duplicate_file) naming it;
 *	- overwrite: an existing target (a tree or a file) is exchanged with
 *	  the new tree in one renameat2(RENAME_EXCHANGE), then removed;
 *	- overwrite_or_ignore: an existing target must be a directory; the new
 *	  files are moved into it one by one at the end, each under the next
 *	  free data_<n>.parquet name of its folder, so nothing in it is
 *	  replaced.  Each file appears whole, but not all of them at one
 *	  instant.  Without a target the tree is renamed into place.
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
#include "miscadmin.h"
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
		(void) rmtree((char *) lfirst(lc), true);
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

	if (stat(d->target, &st) == 0)
	{
		if (o->overwrite_or_ignore && !S_ISDIR(st.st_mode))
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("COPY target \"%s\" is not a directory", d->target),
					 errhint("overwrite_or_ignore adds files to an existing directory tree.")));
		if (!o->overwrite && !o->overwrite_or_ignore &&
			!(S_ISDIR(st.st_mode) && is_empty_dir(d->target)))
			target_exists(d->target);
	}
	else if (errno != ENOENT)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", d->target)));

	*slash = '\0';
	d->parent = pstrdup(dir[0] ? dir : "/");
	d->tmp_dir = psprintf("%s/.%s.%d.tmp", dir, slash + 1, MyProcPid);

	if (!exit_callback_registered)
	{
		before_shmem_exit(remove_pending_at_exit, (Datum) 0);
		exit_callback_registered = true;
	}
	old = MemoryContextSwitchTo(TopMemoryContext);
	pending_dirs = lappend(pending_dirs, pstrdup(d->tmp_dir));
	MemoryContextSwitchTo(old);

	/* a leftover of a crashed backend with our pid is ours to replace */
	if (lstat(d->tmp_dir, &st) == 0)
		(void) rmtree(d->tmp_dir, true);
	PG_TRY();
	{
		pqfdw_dataset_mkdir(d->tmp_dir);
	}
	PG_CATCH();
	{
		forget_pending(d->tmp_dir);
		PG_RE_THROW();
	}
	PG_END_TRY();
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

/* overwrite_or_ignore: move the files of tmp/rel into target/rel. */
static void
merge_tree(const char *tmp, const char *target)
{
	DIR		   *dir = AllocateDir(tmp);
	struct dirent *de;
	int			next = -1;

	pqfdw_dataset_mkdir(target);
	while ((de = ReadDir(dir, tmp)) != NULL)
	{
		char	   *from;
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		from = psprintf("%s/%s", tmp, de->d_name);
		if (lstat(from, &st) == 0 && S_ISDIR(st.st_mode))
			merge_tree(from, psprintf("%s/%s", target, de->d_name));
		else
		{
			char	   *to;

			if (next < 0)
				next = pqfdw_next_data_file(target);
			to = pqfdw_data_file_path(target, next++);
			(void) durable_rename(from, to, ERROR);
		}
	}
	FreeDir(dir);
	fsync_fname(target, true);
}

void
pqfdw_dataset_finish(PqCopyDataset *d)
{
	struct stat st;

	fsync_tree(d->tmp_dir);
	if (d->overwrite_or_ignore && lstat(d->target, &st) == 0)
	{
		merge_tree(d->tmp_dir, d->target);
		pqfdw_dataset_abort(d);
		return;
	}
	if (d->overwrite && lstat(d->target, &st) == 0)
	{
		/* the old tree is at tmp_dir afterwards, removed below */
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
	struct stat st;

	if (d->tmp_dir == NULL)
		return;
	if (lstat(d->tmp_dir, &st) == 0)
		(void) rmtree(d->tmp_dir, true);
	forget_pending(d->tmp_dir);
}
