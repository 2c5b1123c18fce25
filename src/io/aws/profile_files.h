/*-------------------------------------------------------------------------
 *
 * profile_files.h
 *		AWS's shared credentials and config files as the server process
 *		sees them: which files, which profile, its settings.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_PROFILE_FILES_H
#define PQ_IO_PROFILE_FILES_H

#include "io/common/ini.h"

/* Largest credentials or config file read, and largest token file. */
#define PQ_AWS_FILE_MAX (1024 * 1024)
#define PQ_AWS_TOKEN_FILE_MAX (64 * 1024)

/* One of the two files: where it is, and what it says. */
typedef struct PqAwsSharedFile
{
	const char *what;			/* "shared credentials file" or "shared config
								 * file", for messages and sources */
	char	   *path;			/* NULL: none (HOME not set) */
	bool		present;		/* false: no file at path */
	PqIniFile	ini;
	const char *sections[2];	/* the profile's sections in it */
	int			nsections;
} PqAwsSharedFile;

typedef struct PqAwsProfile
{
	const char *name;
	bool		named;			/* by the caller or AWS_PROFILE: must exist */
	PqAwsSharedFile credentials;
	PqAwsSharedFile config;
} PqAwsProfile;

/*
 * Find and read both files (AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE,
 * else ~/.aws/credentials and ~/.aws/config with HOME) for profile (NULL:
 * AWS_PROFILE, else "default").  A malformed file, or a named profile in
 * neither file, is an ERROR naming the files.
 */
extern void pq_aws_profile_load(const char *profile, PqAwsProfile *p);

/*
 * The profile's setting key in file f, or NULL when it has none (or an
 * empty one); a setting given twice or written over several lines is an
 * ERROR naming the file and lines.
 */
extern const char *pq_aws_profile_value(const PqAwsProfile *p,
										const PqAwsSharedFile *f,
										const char *key);

/* The setting from the credentials file, else from the config file. */
extern const char *pq_aws_profile_setting(const PqAwsProfile *p,
										  const char *key);

/*
 * The whole of a file a setting names (what names it in messages), at
 * most max bytes, NUL-terminated; NULL when there is no such file and
 * missing_ok.  Anything but a regular file is refused without waiting on
 * it (a FIFO put in its place must not hang the backend).
 */
extern char *pq_aws_read_file(const char *path, const char *what,
							  size_t max, bool missing_ok, size_t *len);

/* The value of environment variable name, or NULL when unset or empty. */
extern const char *pq_aws_env(const char *name);

#endif							/* PQ_IO_PROFILE_FILES_H */
