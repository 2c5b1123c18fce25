/*-------------------------------------------------------------------------
 *
 * new_file.c
 *		Creating the files COPY TO writes: a target may lie in a directory
 *		others can write, where a name may be planted as a link to a file
 *		the server can write.  O_EXCL neither follows nor reuses a link, so
 *		a planted name makes the creation fail rather than write through it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "fdw/copy/new_file.h"
#include "storage/fd.h"

int
pqfdw_create_new_file(const char *path)
{
	mode_t		oumask = umask(S_IWGRP | S_IWOTH);
	int			fd;

	PG_TRY();
	{
		fd = OpenTransientFilePerm(path,
								   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | PG_BINARY,
								   S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
	}
	PG_FINALLY();
	{
		umask(oumask);
	}
	PG_END_TRY();
	return fd;
}
