/*-------------------------------------------------------------------------
 *
 * remove_tree.c
 *		Remove a directory tree without following symbolic links.
 *
 * PostgreSQL's rmtree() opens the directory it is given by name, so a
 * symbolic link planted under that name makes it empty the directory the
 * link points to.  Here each directory is opened relative to its parent's
 * descriptor with O_NOFOLLOW: a link is removed itself, never what it
 * points to, and nothing can be swapped in between a check and a use.
 * It never throws, so that exit callbacks and error cleanup can use it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "fdw/copy/copy_to.h"

/* Directory levels removed at most: each holds a descriptor meanwhile. */
#define REMOVE_MAX_DEPTH 64
/* Listings of a directory that files keep appearing in. */
#define REMOVE_ATTEMPTS 5

static bool
remove_at(int dirfd, const char *name, int depth)
{
	int			fd;
	DIR		   *d;
	struct dirent *de;
	bool		ok = true;
	int			attempt;
	int			save_errno;

	/* a file or a link goes at once; Linux says EISDIR for a directory */
	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return true;
	if (errno != EISDIR && errno != EPERM)
		return false;
	if (depth >= REMOVE_MAX_DEPTH)
	{
		errno = ELOOP;
		return false;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	d = fdopendir(fd);
	if (d == NULL)
	{
		close(fd);
		return false;
	}

	/*
	 * Another backend may still be adding a file (its COPY into the old tree
	 * of an overwrite): list again while the directory is not empty.
	 */
	for (attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++)
	{
		ok = true;
		rewinddir(d);
		for (;;)
		{
			errno = 0;
			de = readdir(d);
			if (de == NULL)
			{
				if (errno != 0)
					ok = false;
				break;
			}
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			if (!remove_at(fd, de->d_name, depth + 1))
				ok = false;
		}
		if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			break;
		ok = false;
		if (errno != ENOTEMPTY && errno != EEXIST)
			break;
	}
	save_errno = errno;
	closedir(d);
	errno = save_errno;
	return ok;
}

bool
pqfdw_remove_tree(const char *path)
{
	char	   *copy = pstrdup(path);
	char	   *slash = strrchr(copy, '/');
	int			dirfd;
	bool		ok;
	int			save_errno;

	/* the callers' paths are absolute: the parent is named before "/" */
	if (slash == NULL || slash[1] == '\0')
	{
		pfree(copy);
		errno = EINVAL;
		return false;
	}
	*slash = '\0';
	dirfd = open(copy[0] ? copy : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
	{
		save_errno = errno;
		pfree(copy);
		errno = save_errno;
		return false;
	}
	ok = remove_at(dirfd, slash + 1, 0);
	save_errno = errno;
	close(dirfd);
	pfree(copy);
	errno = save_errno;
	return ok;
}
