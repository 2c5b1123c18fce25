/*-------------------------------------------------------------------------
 *
 * new_file.h
 *		Creating the files COPY TO writes (new_file.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_NEW_FILE_H
#define PQFDW_NEW_FILE_H

/*
 * Create path and open it for writing as a transient file: a new file,
 * never an existing one and never through a link (O_EXCL, O_NOFOLLOW),
 * readable by everyone as COPY TO's files are.  -1 with errno set when it
 * cannot be created.
 */
extern int	pqfdw_create_new_file(const char *path);

#endif							/* PQFDW_NEW_FILE_H */
