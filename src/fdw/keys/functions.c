/*-------------------------------------------------------------------------
 *
 * functions.c
 *		SQL functions of the key store: create_key(), drop_key(), keys().
 *
 * Key material is generated on the server and written straight to the key
 * directory; it never passes through SQL, so no statement, log line or
 * query result can contain it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdw/keys/keys.h"
#include "fmgr.h"
#include "format/crypto/crypto.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(parquet_fdw_create_key);
PG_FUNCTION_INFO_V1(parquet_fdw_drop_key);
PG_FUNCTION_INFO_V1(parquet_fdw_keys);

static void
require_superuser(const char *fn)
{
	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("only superusers may call %s", fn)));
}

static char *
keydir(void)
{
	const char *dir = pqfdw_key_directory ? pqfdw_key_directory : "parquet_fdw_keys";

	return is_absolute_path(dir) ? pstrdup(dir) : psprintf("%s/%s", DataDir, dir);
}

/*
 * Keys are written only into a directory of the server's user that no one
 * else may write to: another user could otherwise plant or replace key
 * files.  (An administrator's symlink to such a directory is fine.)
 */
static void
check_key_directory(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat key directory \"%s\": %m", dir)));
	if (!S_ISDIR(st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("key directory \"%s\" is not a directory", dir)));
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("key directory \"%s\" is not owned by the server's user or is writable by others",
						dir),
				 errhint("Make the directory owned by the server's operating system user, mode 0700.")));
}

Datum
parquet_fdw_create_key(PG_FUNCTION_ARGS)
{
	char	   *id = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int32		bits = PG_GETARG_INT32(1);
	char	   *dir;
	char	   *path;
	uint8		key[PQ_MAX_KEY_LEN];
	char		hex[2 * PQ_MAX_KEY_LEN + 2];
	int			fd;
	int			i;
	size_t		len;

	require_superuser("parquet_fdw.create_key()");
	pqfdw_check_key_id(id, NULL);
	if (bits != 128 && bits != 192 && bits != 256)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("key size must be 128, 192 or 256 bits")));
	dir = keydir();
	if (mkdir(dir, S_IRWXU) != 0 && errno != EEXIST)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create key directory \"%s\": %m", dir)));
	check_key_directory(dir);
	path = psprintf("%s/%s.key", dir, id);
	fd = OpenTransientFilePerm(path,
							   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | PG_BINARY,
							   S_IRUSR | S_IWUSR);
	if (fd < 0)
	{
		if (errno == EEXIST)
			ereport(ERROR,
					(errcode(ERRCODE_DUPLICATE_OBJECT),
					 errmsg("encryption key \"%s\" already exists", id)));
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create the file of encryption key \"%s\": %m", id)));
	}
	len = bits / 8;
	pq_crypto_random(key, len);
	for (i = 0; i < (int) len; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	hex[2 * len] = '\n';
	if (write(fd, hex, 2 * len + 1) != (ssize_t) (2 * len + 1) ||
		pg_fsync(fd) != 0)
	{
		int			save = errno;

		CloseTransientFile(fd);
		unlink(path);
		errno = save;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write the file of encryption key \"%s\": %m", id)));
	}
	explicit_bzero(key, sizeof(key));
	explicit_bzero(hex, sizeof(hex));
	CloseTransientFile(fd);
	fsync_fname(dir, true);
	PG_RETURN_VOID();
}

Datum
parquet_fdw_drop_key(PG_FUNCTION_ARGS)
{
	char	   *id = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *path;

	require_superuser("parquet_fdw.drop_key()");
	pqfdw_check_key_id(id, NULL);
	path = psprintf("%s/%s.key", keydir(), id);
	if (unlink(path) != 0)
	{
		if (errno == ENOENT)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("encryption key \"%s\" does not exist", id)));
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not remove the file of encryption key \"%s\": %m", id)));
	}
	PG_RETURN_VOID();
}

/* keys(): the registered key ids with their sizes; never the keys. */
Datum
parquet_fdw_keys(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *dir;
	DIR		   *d;
	struct dirent *de;

	require_superuser("parquet_fdw.keys()");
	InitMaterializedSRF(fcinfo, 0);
	dir = keydir();
	d = AllocateDir(dir);
	if (d == NULL && errno == ENOENT)
		PG_RETURN_VOID();
	while ((de = ReadDir(d, dir)) != NULL)
	{
		size_t		n = strlen(de->d_name);
		Datum		values[2];
		bool		nulls[2] = {false, false};
		PqKey		key;
		char	   *id;

		if (n <= 4 || strcmp(de->d_name + n - 4, ".key") != 0 ||
			de->d_name[0] == '.')
			continue;
		id = pnstrdup(de->d_name, n - 4);
		pqfdw_load_key(id, "parquet_fdw.keys()", &key);
		values[0] = CStringGetTextDatum(id);
		values[1] = Int32GetDatum(key.len * 8);
		explicit_bzero(&key, sizeof(key));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	FreeDir(d);
	PG_RETURN_VOID();
}
