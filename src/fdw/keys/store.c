/*-------------------------------------------------------------------------
 *
 * store.c
 *		The key store: one file per key id in parquet_fdw.key_directory,
 *		holding the key as hexadecimal; grants in parquet_fdw.key_grants.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <openssl/crypto.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "fdw/keys/keys.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "parser/parse_func.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"

char	   *pqfdw_key_directory = NULL;

#define PQFDW_KEY_ID_MAX 64

/* Is id a key id: 1 to PQFDW_KEY_ID_MAX characters, no path syntax? */
bool
pqfdw_key_id_valid(const char *id)
{
	size_t		len = strlen(id);
	size_t		i;

	if (len == 0 || len > PQFDW_KEY_ID_MAX || id[0] == '.')
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char) id[i]) && id[i] != '_' && id[i] != '-' &&
			id[i] != '.')
			return false;
	return true;
}

void
pqfdw_check_key_id(const char *id, const char *option)
{
	if (pqfdw_key_id_valid(id))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 option ?
			 errmsg("invalid value for option \"%s\": \"%s\"", option, id) :
			 errmsg("invalid key id \"%s\"", id),
			 errdetail("A key id has 1 to %d characters: letters, digits, \"_\", \"-\" and \".\", not first.",
					   PQFDW_KEY_ID_MAX),
			 errhint("Raw keys are never accepted: register a key with parquet_fdw.create_key() and name it by its id.")));
}

static char *
key_directory(void)
{
	const char *dir = pqfdw_key_directory ? pqfdw_key_directory : "parquet_fdw_keys";

	if (is_absolute_path(dir))
		return pstrdup(dir);
	return psprintf("%s/%s", DataDir, dir);
}

static char *
key_path(const char *id)
{
	return psprintf("%s/%s.key", key_directory(), id);
}

/* May the current user use key id?  Superusers always; others by grant. */
bool
pqfdw_key_usable(const char *id)
{
	Oid			nsp;
	Oid			fn;
	Oid			argtypes[2] = {TEXTOID, OIDOID};

	if (superuser())
		return true;
	nsp = get_namespace_oid("parquet_fdw", true);
	if (!OidIsValid(nsp))
		return false;
	fn = LookupFuncName(list_make2(makeString("parquet_fdw"),
								   makeString("key_usable")), 2, argtypes, true);
	if (!OidIsValid(fn))
		return false;
	return DatumGetBool(OidFunctionCall2(fn, CStringGetTextDatum(id),
										 ObjectIdGetDatum(GetUserId())));
}

void
pqfdw_check_key_usable(const char *id, const char *purpose)
{
	if (!pqfdw_key_usable(id))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to use encryption key \"%s\"", id),
				 errdetail("The key is needed for %s.", purpose),
				 errhint("A superuser can allow it with parquet_fdw.grant_key().")));
}

void
pqfdw_load_key(const char *id, const char *purpose, PqKey *out)
{
	char	   *path;
	int			fd;
	char		buf[2 * PQ_MAX_KEY_LEN + 16];
	ssize_t		n;
	int			digits = 0;
	ssize_t		i;

	pqfdw_check_key_id(id, NULL);

	/* before the file is looked at: no grant, no telling whether it exists */
	pqfdw_check_key_usable(id, purpose);

	path = key_path(id);
	/* O_NONBLOCK: a FIFO at the name reads as empty, never waits */
	fd = OpenTransientFile(path, O_RDONLY | O_NONBLOCK | PG_BINARY);
	if (fd < 0)
	{
		if (errno == ENOENT)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("encryption key \"%s\" needed for %s is not registered",
							id, purpose),
					 errhint("Create it with parquet_fdw.create_key() or place a key file \"%s.key\" in the directory named by parquet_fdw.key_directory.",
							 id)));
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open the file of encryption key \"%s\": %m", id)));
	}
	n = read(fd, buf, sizeof(buf));
	CloseTransientFile(fd);
	if (n < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the file of encryption key \"%s\": %m", id)));

	memset(out, 0, sizeof(PqKey));
	for (i = 0; i < n; i++)
	{
		int			v = pq_hex_digit(buf[i]);

		if (v < 0)
		{
			if (buf[i] == '\n' || buf[i] == '\r' || buf[i] == ' ')
				continue;
			digits = -1;
			break;
		}
		if (digits >= 2 * PQ_MAX_KEY_LEN)
		{
			digits = -1;
			break;
		}
		out->bytes[digits / 2] |= (uint8) (digits % 2 == 0 ? v << 4 : v);
		digits++;
	}
	explicit_bzero(buf, sizeof(buf));
	if (digits != 32 && digits != 48 && digits != 64)
	{
		explicit_bzero(out, sizeof(PqKey));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the file of encryption key \"%s\" does not hold a 128, 192 or 256-bit key in hexadecimal",
						id)));
	}
	out->len = digits / 2;
}

/* s without leading and trailing spaces (s is changed) */
static char *
trim_spaces(char *s)
{
	size_t		len;

	while (*s == ' ')
		s++;
	len = strlen(s);
	while (len > 0 && s[len - 1] == ' ')
		s[--len] = '\0';
	return s;
}

static void
bad_master_column_keys(const char *value, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid kms_column_keys \"%s\"", value),
			 errdetail("%s", why),
			 errhint("Write \"master_key_id: column, column; master_key_id2: column\".")));
}

List *
pqfdw_parse_master_column_keys(const char *value)
{
	char	   *s = pstrdup(value);
	List	   *pairs = NIL;
	char	   *part;
	char	   *save;

	for (part = strtok_r(s, ";", &save); part; part = strtok_r(NULL, ";", &save))
	{
		char	   *colon = strchr(part, ':');
		char	   *id;
		char	   *col;
		char	   *csave;

		if (colon == NULL)
			bad_master_column_keys(value, psprintf("\"%s\" has no \":\".", part));
		*colon = '\0';
		id = trim_spaces(part);
		if (*id == '\0')
			bad_master_column_keys(value, "A master key id is empty.");
		for (col = strtok_r(colon + 1, ",", &csave); col;
			 col = strtok_r(NULL, ",", &csave))
		{
			col = trim_spaces(col);
			if (*col == '\0')
				bad_master_column_keys(value, "A column name is empty.");
			pairs = lappend(pairs, list_make2(col, id));
		}
	}
	if (pairs == NIL)
		bad_master_column_keys(value, "It names no column.");
	return pairs;
}

List *
pqfdw_parse_column_keys(const char *column_keys)
{
	List	   *result = NIL;
	char	   *s = pstrdup(column_keys);
	char	   *tok;
	char	   *save;

	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *colon = strrchr(tok, ':');
		char	   *path;
		char	   *id;

		if (colon == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("column_keys entry \"%s\" is not of the form column:key_id", tok)));
		*colon = '\0';
		path = trim_spaces(tok);
		id = trim_spaces(colon + 1);
		if (*path == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("column_keys entry has an empty column name")));
		pqfdw_check_key_id(id, "column_keys");
		result = lappend(result, list_make2(path, id));
	}
	return result;
}

/*
 * path as the kernel resolves it (symlinks, "." and ".."), in palloc'd
 * memory: realpath() of its longest existing prefix, and the rest as is
 * (a file COPY TO would create; ".." after a missing directory resolves
 * to nothing).
 */
static char *
resolve_path(const char *path)
{
	/* the server's working directory is the data directory */
	char	   *full = is_absolute_path(path) ? pstrdup(path) :
	psprintf("%s/%s", DataDir, path);
	char	   *prefix = pstrdup(full);
	char	   *rest = pstrdup("");
	char		real[PATH_MAX];

	for (;;)
	{
		char	   *slash;

		if (realpath(prefix[0] != '\0' ? prefix : "/", real) != NULL)
			return psprintf("%s%s%s", real,
							rest[0] != '\0' && strcmp(real, "/") != 0 ? "/" : "",
							rest);
		slash = strrchr(prefix, '/');
		if (slash == NULL || (errno != ENOENT && errno != ENOTDIR))
			return full;
		rest = rest[0] != '\0' ? psprintf("%s/%s", slash + 1, rest) :
			pstrdup(slash + 1);
		*slash = '\0';
	}
}

bool
pqfdw_in_key_directory(const char *path)
{
	char	   *dir = resolve_path(key_directory());
	char	   *file = resolve_path(path);
	size_t		len = strlen(dir);

	return strncmp(file, dir, len) == 0 && (file[len] == '\0' || file[len] == '/');
}

void
pqfdw_check_not_key_directory(const char *path, bool is_from)
{
	if (superuser())
		return;
	if (pqfdw_in_key_directory(path))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 is_from ?
				 errmsg("permission denied to COPY from \"%s\"", path) :
				 errmsg("permission denied to COPY to \"%s\"", path),
				 errdetail("The file is in parquet_fdw's key directory, which only superusers may read or write with COPY.")));
}

bool
pqfdw_key_available(const char *id)
{
	struct stat st;

	return pqfdw_key_usable(id) && stat(key_path(id), &st) == 0;
}
