/*-------------------------------------------------------------------------
 *
 * iceberg_files.c
 *		Reading an Iceberg table's metadata files: which metadata file is
 *		current, the whole of a metadata file, manifest list or manifest
 *		(local or in a bucket), and the option location_map that moves the
 *		prefixes they record to where the files are now.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hashfn.h"
#include "fdw/table/iceberg_files.h"
#include "storage/fd.h"

void
pqfdw_iceberg_corrupt(const char *location, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("Iceberg table \"%s\" cannot be read: %s", location, why)));
}

/* ------------------------------------------------------------ reading */

static uint8 *
read_local(const char *path, const char *what, int64 max, size_t *len,
		   bool missing_ok, PqfdwIcebergStamp *stamp)
{
	int			fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	struct stat st;
	uint8	   *buf;
	size_t		done = 0;

	if (fd < 0)
	{
		if (missing_ok && errno == ENOENT)
			return NULL;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open Iceberg %s \"%s\": %m", what, path)));
	}
	if (fstat(fd, &st) < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat Iceberg %s \"%s\": %m", what, path)));
	if (!S_ISREG(st.st_mode) || st.st_size > max)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Iceberg %s \"%s\" is not a regular file of at most " INT64_FORMAT " MB",
						what, path, max / (1024 * 1024))));
	if (stamp != NULL)
	{
		memset(stamp, 0, sizeof(*stamp));
		stamp->ino = st.st_ino;
		stamp->size = st.st_size;
		stamp->mtime_ns = (int64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	}
	buf = palloc_extended(st.st_size + 1, MCXT_ALLOC_HUGE);
	while (done < (size_t) st.st_size)
	{
		ssize_t		n = read(fd, buf + done, st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read Iceberg %s \"%s\": %m", what, path)));
		if (n == 0)
			break;
		done += n;
	}
	CloseTransientFile(fd);
	buf[done] = '\0';
	*len = done;
	return buf;
}

uint8 *
pqfdw_iceberg_read(const PqfdwRemoteId *remote, const char *path,
				   const char *what, int64 max, size_t *len, bool missing_ok,
				   PqfdwIcebergStamp *stamp)
{
	int64		size;
	char	   *etag;
	char	   *buf;

	if (remote == NULL)
		return read_local(path, what, max, len, missing_ok, stamp);
	buf = pqfdw_remote_read_object(remote, path, max, missing_ok);
	if (buf == NULL)
		return NULL;
	/* the stat is the read's: the object may hold NULs */
	pqfdw_remote_stat(remote, path, &size, &etag);
	*len = (size_t) size;
	if (stamp != NULL)
	{
		memset(stamp, 0, sizeof(*stamp));
		stamp->size = size;
		stamp->etag = etag ? hash_bytes((const unsigned char *) etag,
										strlen(etag)) : 0;
	}
	return (uint8 *) buf;
}

/* ------------------------------------------------------ metadata file */

/* N of "vN.metadata.json", "vN.gz.metadata.json" or "N-<uuid>.metadata.json"; -1 */
static int64
metadata_number(const char *name)
{
	const char *p = name;
	int64		n = 0;
	int			digits = 0;
	size_t		len = strlen(name);

	if (len < 15 || strcmp(name + len - 14, ".metadata.json") != 0)
		return -1;
	if (*p == 'v')
		p++;
	while (*p >= '0' && *p <= '9' && digits < 18)
	{
		n = n * 10 + (*p++ - '0');
		digits++;
	}
	if (digits == 0)
		return -1;
	if (name[0] == 'v' &&
		(strcmp(p, ".metadata.json") == 0 || strcmp(p, ".gz.metadata.json") == 0))
		return n;
	if (name[0] != 'v' && *p == '-')
		return n;
	return -1;
}

/* The metadata file version-hint.text (or .txt) names; NULL. */
static char *
hinted(const char *dir, const PqfdwRemoteId *remote)
{
	static const char *const hints[] = {"version-hint.text", "version-hint.txt"};
	int			i;

	for (i = 0; i < lengthof(hints); i++)
	{
		char	   *path = psprintf("%s/%s", dir, hints[i]);
		size_t		len;
		char	   *text = (char *) pqfdw_iceberg_read(remote, path, "version hint",
													   4096, &len, true, NULL);
		char	   *p;
		char	   *file;
		struct stat st;

		if (text == NULL)
			continue;
		text[		len] = '\0';

		while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
						   text[len - 1] == ' '))
			text[	  --len] = '\0';

		for (p = text; *p >= '0' && *p <= '9'; p++)
			;
		if (len == 0 || *p != '\0')
			continue;
		file = psprintf("%s/v%s.metadata.json", dir, text);
		/* a hint may outlive its file: then the listing decides */
		if (remote != NULL || stat(file, &st) == 0)
			return file;
	}
	return NULL;
}

char *
pqfdw_iceberg_metadata_file(const char *location, const PqfdwRemoteId *remote)
{
	char	   *dir;
	char	   *hint;
	char	   *best = NULL;
	int64		best_n = -1;
	size_t		len = strlen(location);

	if (len > 14 && strcmp(location + len - 14, ".metadata.json") == 0)
		return pstrdup(location);
	dir = psprintf("%s/metadata", location);
	if (remote == NULL && (hint = hinted(dir, NULL)) != NULL)
		return hint;
	if (remote == NULL)
	{
		DIR		   *d = pqfdw_table_dir_open(dir, PQFDW_FORMAT_ICEBERG, location,
											 "Option location names the table's directory, the one holding metadata/, or a metadata.json file.");
		struct dirent *de;

		while ((de = ReadDir(d, dir)) != NULL)
		{
			int64		n = metadata_number(de->d_name);

			if (n > best_n || (n == best_n && n >= 0 && strcmp(de->d_name, best) > 0))
			{
				best_n = n;
				best = pstrdup(de->d_name);
			}
		}
		FreeDir(d);
	}
	else
	{
		char	   *prefix = psprintf("%s/", dir);
		PqListing	listing;
		int			i;

		pqfdw_remote_list(remote, prefix, "/", &listing);
		for (i = 0; i < listing.nobjects; i++)
		{
			const char *key = listing.objects[i].key;
			const char *name;
			int64		n;

			if (strncmp(key, prefix, strlen(prefix)) != 0)
				continue;
			name = key + strlen(prefix);
			if (strcmp(name, "version-hint.text") == 0 ||
				strcmp(name, "version-hint.txt") == 0)
			{
				char	   *h = hinted(dir, remote);

				if (h != NULL)
					return h;
			}
			n = metadata_number(name);
			if (n > best_n || (n == best_n && n >= 0 && strcmp(name, best) > 0))
			{
				best_n = n;
				best = pstrdup(name);
			}
		}
	}
	if (best == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("Iceberg table \"%s\" does not exist", location),
				 errdetail("No metadata file (vN.metadata.json or NNNNN-<uuid>.metadata.json) is in \"%s\".",
						   dir),
				 errhint("Option location names the table's directory, the one holding metadata/, or a metadata.json file.")));
	return psprintf("%s/%s", dir, best);
}

/* ------------------------------------------------------- location_map */

static char *
trim(char *s)
{
	char	   *e;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
					 e[-1] == '\r' || e[-1] == '/'))
		*--e = '\0';
	return s;
}

List *
pqfdw_iceberg_parse_location_map(const char *text)
{
	char	   *copy = pstrdup(text);
	char	   *item;
	char	   *save = NULL;
	List	   *pairs = NIL;

	for (item = strtok_r(copy, ";", &save); item != NULL;
		 item = strtok_r(NULL, ";", &save))
	{
		char	   *arrow = strstr(item, "->");
		PqfdwLocationPair *p;

		if (trim(item)[0] == '\0')
			continue;
		if (arrow == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for option \"location_map\": \"%s\" is not a pair OLD_PREFIX -> NEW_PREFIX",
							trim(item)),
					 errhint("Give pairs such as 's3://old/warehouse -> /data/warehouse', separated by \";\".")));
		*arrow = '\0';
		p = palloc(sizeof(PqfdwLocationPair));
		p->from = trim(item);
		p->to = trim(arrow + 2);
		if (p->from[0] == '\0' || p->to[0] == '\0' || strstr(p->to, "->"))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for option \"location_map\": a prefix of a pair is empty or holds \"->\" twice"),
					 errhint("Give pairs such as 's3://old/warehouse -> /data/warehouse', separated by \";\".")));
		if (p->to[0] != '/' && strstr(p->to, "://") == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for option \"location_map\": \"%s\" is neither an absolute path nor a URL",
							p->to)));
		pairs = lappend(pairs, p);
	}
	return pairs;
}

/* Whether path starts with prefix up to a '/' (or its end). */
static bool
has_prefix(const char *path, const char *prefix)
{
	size_t		n = strlen(prefix);

	return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* recorded moved as the map says; NULL when it then is not readable here */
static char *
try_map_path(const PqfdwIcebergPaths *paths, const char *recorded)
{
	const PqfdwLocationPair *best = NULL;
	size_t		best_len = 0;
	ListCell   *lc;
	char	   *mapped;

	foreach(lc, paths->map)
	{
		PqfdwLocationPair *pair = lfirst(lc);

		if (has_prefix(recorded, pair->from) && strlen(pair->from) >= best_len)
		{
			best = pair;
			best_len = strlen(pair->from);
		}
	}
	if (best == NULL && paths->recorded_location != NULL &&
		has_prefix(recorded, paths->recorded_location))
		mapped = psprintf("%s%s", paths->location,
						  recorded + strlen(paths->recorded_location));
	else if (best != NULL)
		mapped = psprintf("%s%s", best->to, recorded + best_len);
	else
		mapped = pstrdup(recorded);
	if (strncmp(mapped, "file:", 5) == 0)
	{
		mapped += 5;
		/* file:///x and file:/x */
		while (strncmp(mapped, "//", 2) == 0)
			mapped++;
	}
	if (paths->remote)
	{
		const char *sep = strstr(paths->location, "://");

		if (strncmp(mapped, paths->location, sep - paths->location + 3) != 0)
			return NULL;
	}
	else if (mapped[0] != '/')
		return NULL;
	return mapped;
}

char *
pqfdw_iceberg_try_map_path(const PqfdwIcebergPaths *paths, const char *recorded)
{
	return try_map_path(paths, recorded);
}

char *
pqfdw_iceberg_map_path(const PqfdwIcebergPaths *paths, const char *recorded)
{
	char	   *mapped = try_map_path(paths, recorded);

	if (mapped == NULL && paths->remote)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Iceberg table \"%s\" names file \"%s\" in another store, which is not supported",
						paths->location, recorded),
				 errhint("Map its prefix to where the file is now with option location_map.")));
	if (mapped == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Iceberg table \"%s\" names file \"%s\", which is not a local path",
						paths->location, recorded),
				 errhint("Map its prefix to where the file is now with option location_map, as in '%s -> /path'.",
						 recorded)));
	return mapped;
}
