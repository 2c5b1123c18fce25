/*-------------------------------------------------------------------------
 *
 * delete_rows.c
 *		The rows a Delta deletion vector deletes: decoded from the
 *		descriptor (inline) or from the span of its file that the
 *		descriptor names, checked by table/delta/deletion_vector.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "fdw/table/table_snapshot.h"
#include "storage/fd.h"
#include "utils/memutils.h"

static void
bad_dv(const char *location, const char *data_path, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("invalid deletion vector of data file \"%s\" in Delta table \"%s\": %s",
					data_path, location, why)));
}

/*
 * len bytes of path at offset; an ERROR when the file is shorter, or when
 * its first byte is not a format version this reader knows.
 */
static uint8 *
read_span(const char *path, int64 offset, int64 len)
{
	int			fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	uint8	   *buf = palloc_extended(Max(len, 1), MCXT_ALLOC_HUGE);
	int64		done = 0;
	uint8		version;
	const char *why = NULL;

	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open deletion vector file \"%s\": %m", path)));
	if (pread(fd, &version, 1, 0) != 1 ||
		!pq_delta_dv_file_version_ok(version, &why))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid deletion vector file \"%s\": %s", path,
						why ? why : "it is empty")));
	while (done < len)
	{
		ssize_t		n = pread(fd, buf + done, len - done, offset + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read deletion vector file \"%s\": %m",
							path)));
		if (n == 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("deletion vector file \"%s\" ends before byte " INT64_FORMAT,
							path, offset + len)));
		done += n;
	}
	CloseTransientFile(fd);
	return buf;
}

/* The same from an object: the version byte and the span, ranged reads. */
static uint8 *
read_object_span(const PqfdwRemoteId *remote, const char *url, int64 offset,
				 int64 len)
{
	int64		size;
	char	   *etag;
	PqSource   *src;
	uint8	   *buf = palloc_extended(Max(len, 1), MCXT_ALLOC_HUGE);
	uint8		version;
	const char *why = NULL;

	pqfdw_remote_stat(remote, url, &size, &etag);
	if (offset < 1 || offset > size || len > size - offset)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("deletion vector object \"%s\" ends before byte " INT64_FORMAT,
						url, offset + len)));
	src = pqfdw_remote_source_open(remote, url, size, etag);
	src->read(src, 0, 1, &version);
	if (!pq_delta_dv_file_version_ok(version, &why))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid deletion vector object \"%s\": %s", url, why)));
	src->read(src, offset, len, buf);
	pqfdw_remote_source_release(src);
	return buf;
}

PqDeletedRows *
pqfdw_delta_deleted_rows(const char *location, const PqfdwRemoteId *remote,
						 const PqDeltaDv *dv, const char *data_path,
						 MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	PqDeletedRows *rows = palloc0(sizeof(PqDeletedRows));
	const char *why = NULL;
	uint8	   *at = NULL;
	int64		len = 0;

	if (dv->storage_type != 'i')
	{
		char	   *file = pq_delta_dv_file(dv, &why);
		char	   *decoded;
		int64		offset;

		if (file == NULL)
			bad_dv(location, data_path, why);
		decoded = pq_delta_decode_path(file);
		if (decoded == NULL)
			bad_dv(location, data_path, "its path has a malformed escape");
		if (dv->storage_type == 'p' && remote != NULL)
		{
			if (strncmp(decoded, location, strstr(location, "://") - location + 3) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("deletion vector \"%s\" of Delta table \"%s\" is in another store, which is not supported",
								decoded, location)));
		}
		else if (dv->storage_type == 'p')
		{
			if (strncmp(decoded, "file:", 5) == 0)
				decoded += strncmp(decoded + 5, "//", 2) == 0 ? 7 : 5;
			if (decoded[0] != '/')
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("deletion vector \"%s\" of Delta table \"%s\" is not a local file, which is not supported yet",
								decoded, location)));
		}
		else
			decoded = psprintf("%s/%s", location, decoded);
		if (!pq_delta_dv_stored_span(dv, &offset, &len, &why))
			bad_dv(location, data_path, why);
		at = remote ? read_object_span(remote, decoded, offset, len) :
			read_span(decoded, offset, len);
	}
	if (!pq_delta_dv_decode(dv, at, (size_t) len, rows, &why))
		bad_dv(location, data_path, why);
	if (at != NULL)
		pfree(at);
	MemoryContextSwitchTo(old);
	return rows;
}
