/*-------------------------------------------------------------------------
 *
 * sink.c
 *		Where COPY ... TO ... (FORMAT parquet) writes: a temporary file in
 *		the target's directory, renamed into place when complete, an
 *		object behind a URL, or the client through the COPY protocol.
 *
 * The temporary file is ".<target name>.<pid>.<random>.tmp" next to the
 * target, so that rename() is atomic and a reader never sees a partial
 * file.  It is created with O_EXCL, which neither follows nor reuses a link
 * or file planted under that name by another user of the directory; the
 * random part keeps such plants from blocking the COPY.  The
 * caller removes it on ERROR (pqfdw_copy_sink_abort() from PG_CATCH);
 * a FATAL exits without unwinding, so the paths of files being written
 * are also kept in a list that a before_shmem_exit callback removes.
 *
 * A URL is an object written through fdw/remote's upload, which makes it
 * visible only when complete and drops what it sent on an ERROR.
 *
 * STDOUT is sent as binary COPY-out data ('d' messages of up to the
 * buffer size), which psql's \copy writes to its local file byte for
 * byte.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands/progress.h"
#include "fdw/common/footer_cache.h"
#include "fdw/copy/copy_to.h"
#include "fdw/copy/new_file.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "tcop/tcopprot.h"
#include "utils/backend_progress.h"
#include "utils/memutils.h"

#define SINK_BUFFER_SIZE (256 * 1024)

/* temporary files being written, in TopMemoryContext */
static List *pending_tmp_paths = NIL;
static bool exit_callback_registered = false;

static void
remove_pending_at_exit(int code, Datum arg)
{
	ListCell   *lc;

	foreach(lc, pending_tmp_paths)
		(void) unlink((char *) lfirst(lc));
}

static void
forget_pending(const char *path)
{
	ListCell   *lc;

	foreach(lc, pending_tmp_paths)
	{
		if (strcmp((char *) lfirst(lc), path) == 0)
		{
			char	   *p = lfirst(lc);

			pending_tmp_paths = foreach_delete_current(pending_tmp_paths, lc);
			pfree(p);
			return;
		}
	}
}

static void
flush_buffer(PqCopySink *s)
{
	const char *p = s->buf;
	int			left = s->buf_len;

	if (left == 0)
		return;
	s->bytes += left;
	pgstat_progress_update_param(PROGRESS_COPY_BYTES_PROCESSED, s->bytes);
	if (s->target == NULL)
	{
		StringInfoData msg;

		/* (libpq/libpq.h's pq_putmessage() needs the GSSAPI headers) */
		pq_beginmessage(&msg, 'd');
		pq_sendbytes(&msg, p, left);
		pq_endmessage(&msg);
		s->buf_len = 0;
		return;
	}
	while (left > 0)
	{
		ssize_t		n;

		errno = 0;
		pgstat_report_wait_start(WAIT_EVENT_COPY_FILE_WRITE);
		n = write(s->fd, p, left);
		pgstat_report_wait_end();
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			/* a short write without errno means the disk is full */
			if (errno == 0)
				errno = ENOSPC;
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not write to file \"%s\": %m", s->target)));
		}
		p += n;
		left -= n;
	}
	s->buf_len = 0;
}

/* A URL: the upload buffers in parts itself. */
static void
upload_write(PqSink *sink, const uint8 *data, size_t len)
{
	PqCopySink *s = (PqCopySink *) sink;
	PqSink	   *up = pqfdw_upload_sink(s->upload);

	s->bytes += len;
	pgstat_progress_update_param(PROGRESS_COPY_BYTES_PROCESSED, s->bytes);
	up->write(up, data, len);
}

static void
sink_write(PqSink *sink, const uint8 *data, size_t len)
{
	PqCopySink *s = (PqCopySink *) sink;

	while (len > 0)
	{
		size_t		n = Min(len, (size_t) (SINK_BUFFER_SIZE - s->buf_len));

		memcpy(s->buf + s->buf_len, data, n);
		s->buf_len += n;
		data += n;
		len -= n;
		if (s->buf_len == SINK_BUFFER_SIZE)
			flush_buffer(s);
	}
}

void
pqfdw_copy_sink_open(PqCopySink *s, const char *target)
{
	memset(s, 0, sizeof(*s));
	s->sink.write = sink_write;
	s->sink.opaque = s;
	s->target = target;
	s->fd = -1;
	s->buf = palloc(SINK_BUFFER_SIZE);

	if (target == NULL)
	{
		StringInfoData msg;

		if (whereToSendOutput != DestRemote)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("COPY TO STDOUT with FORMAT parquet needs a client connection")));
		/* CopyOutResponse: binary, no per-column formats */
		pq_beginmessage(&msg, 'H');
		pq_sendbyte(&msg, 1);
		pq_sendint16(&msg, 0);
		pq_endmessage(&msg);
		return;
	}
	else
	{
		struct stat st;
		char	   *dir = pstrdup(target);
		char	   *slash = strrchr(dir, '/');
		MemoryContext old;
		uint32		r;

		if (stat(target, &st) == 0 && S_ISDIR(st.st_mode))
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("\"%s\" is a directory", target)));
		/* the caller has made sure the path is absolute */
		*slash = '\0';
		if (!pg_strong_random(&r, sizeof(r)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate a random name for a temporary file")));
		s->tmp_path = psprintf("%s/.%s.%d.%08x.tmp", dir, slash + 1,
							   MyProcPid, r);

		if (!exit_callback_registered)
		{
			before_shmem_exit(remove_pending_at_exit, (Datum) 0);
			exit_callback_registered = true;
		}
		old = MemoryContextSwitchTo(TopMemoryContext);
		pending_tmp_paths = lappend(pending_tmp_paths, pstrdup(s->tmp_path));
		MemoryContextSwitchTo(old);

		s->fd = pqfdw_create_new_file(s->tmp_path);
		if (s->fd < 0)
		{
			int			save_errno = errno;

			forget_pending(s->tmp_path);
			errno = save_errno;
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\" for writing: %m",
							target)));
		}
	}
}

void
pqfdw_copy_sink_open_url(PqCopySink *s, const PqfdwRemoteId *id,
						 const char *url, const PqCopyRemoteOptions *ro)
{
	memset(s, 0, sizeof(*s));
	s->sink.write = upload_write;
	s->sink.opaque = s;
	s->target = url;
	s->fd = -1;
	s->upload = pqfdw_upload_begin(id, url, ro->part_size, ro->parts_in_flight);
}

PqfdwUpload *
pqfdw_copy_sink_close(PqCopySink *s)
{
	PqfdwUpload *u = s->upload;

	pqfdw_upload_close(u);
	s->upload = NULL;
	return u;
}

void
pqfdw_copy_sink_finish(PqCopySink *s)
{
	if (s->upload)
	{
		pqfdw_upload_finish(s->upload);
		s->upload = NULL;
		return;
	}
	flush_buffer(s);
	if (s->target == NULL)
	{
		pq_putemptymessage('c');
		return;
	}
	if (CloseTransientFile(s->fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", s->tmp_path)));
	s->fd = -1;

	/* fsyncs the file, renames it, and fsyncs the directory */
	durable_rename(s->tmp_path, s->target, ERROR);
	forget_pending(s->tmp_path);
	/* this statement may read the file next without checking it */
	pqfdw_footer_cache_forget(s->target);
}

void
pqfdw_copy_sink_abort(PqCopySink *s)
{
	if (s->upload)
	{
		pqfdw_upload_abort(s->upload);
		s->upload = NULL;
		return;
	}
	if (s->target == NULL || s->tmp_path == NULL)
		return;
	if (s->fd >= 0)
	{
		CloseTransientFile(s->fd);
		s->fd = -1;
	}
	(void) unlink(s->tmp_path);
	forget_pending(s->tmp_path);
}
