/*-------------------------------------------------------------------------
 *
 * remote_upload.c
 *		Writing an object behind a URL: a PqSink whose bytes go out in
 *		parts while the next part is made, the object appearing only when
 *		it is finished; small objects in one request.
 *
 * Memory is bounded by parts_in_flight parts being sent plus the one being
 * filled: once parts_in_flight are in flight, a full part waits for the
 * oldest, whose buffer it then reuses.  An object smaller than one part is
 * sent whole by pqfdw_upload_finish(), so it never starts a multipart
 * upload.
 *
 * An upload not finished is aborted (AbortMultipartUpload), so that no
 * part is left stored: by pqfdw_upload_abort() on an ERROR, when its memory
 * context goes away unfinished, and by a before_shmem_exit callback when
 * the backend exits (a FATAL, pg_terminate_backend) in the middle of it.
 * Only a backend killed outright leaves the upload behind:
 * parquet_fdw.abort_uploads() or a bucket's lifecycle rule removes it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/remote/remote.h"
#include "io/store/upload.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "utils/memutils.h"

/* How long an abort may take on an ERROR or at exit. */
#define ABORT_TIMEOUT_MS 5000
/* The first buffer; it doubles up to the part size. */
#define FIRST_BUFFER (64 * 1024)

struct PqfdwUpload
{
	PqSink		sink;			/* first: the writer's view */
	const PqStoreConfig *config;
	PqUrl	   *u;
	PqStoreUpload *up;
	MemoryContext cxt;
	MemoryContextCallback on_delete;
	size_t		part_size;
	int			parts_in_flight;
	uint8	   *buf;			/* the part being filled */
	size_t		len;
	size_t		cap;
	size_t		held;			/* bytes of all its buffers */
	uint8	  **spare;			/* buffers of parts done */
	int			nspare;
	bool		started;		/* a part has been sent */
	bool		settled;		/* closed, every part sent, buffers freed */
	bool		done;			/* finished or aborted */
	struct PqfdwUpload *next;	/* in the list of uploads not done */
};

static PqfdwUpload *unfinished = NULL;
static bool exit_callback_registered = false;

static void
forget(PqfdwUpload *u)
{
	PqfdwUpload **p;

	for (p = &unfinished; *p; p = &(*p)->next)
		if (*p == u)
		{
			*p = u->next;
			break;
		}
}

/* Never an ERROR, with interrupts held: for error handling and exit. */
static void
abort_quietly(PqfdwUpload *u)
{
	if (u->done)
		return;
	u->done = true;
	forget(u);
	HOLD_INTERRUPTS();
	if (!pq_store_upload_abort_quietly(u->up, ABORT_TIMEOUT_MS))
		ereport(WARNING,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("could not abort the upload of \"%s\"", u->u->display),
				 errdetail("Its parts stay stored, invisible, until the upload is aborted."),
				 errhint("Run SELECT parquet_fdw.abort_uploads(...) for its prefix, or give the bucket a lifecycle rule that aborts incomplete multipart uploads.")));
	RESUME_INTERRUPTS();
}

static void
abort_at_exit(int code, Datum arg)
{
	while (unfinished)
		abort_quietly(unfinished);
}

static void
on_context_delete(void *arg)
{
	abort_quietly((PqfdwUpload *) arg);
}

/* The buffers of parts done, to fill again. */
static void
take_free_buffers(PqfdwUpload *u)
{
	const void *data;

	while ((data = pq_store_upload_free_buffer(u->up)) != NULL)
		u->spare[u->nspare++] = (uint8 *) data;
}

/*
 * Send the filled buffer as the next part (in the upload's context: the
 * writer's may be reset before the part is done); with refill, take a free
 * buffer to fill next.
 */
static void
send_part(PqfdwUpload *u, bool refill)
{
	MemoryContext old = MemoryContextSwitchTo(u->cxt);

	if (pq_store_upload_in_flight(u->up) >= u->parts_in_flight)
		pq_store_upload_wait_oldest(u->up);
	take_free_buffers(u);
	pq_store_upload_part(u->up, u->buf, u->len);
	u->started = true;
	u->buf = NULL;
	if (refill && u->nspare > 0)
		u->buf = u->spare[--u->nspare];
	else if (refill)
	{
		u->buf = MemoryContextAllocHuge(u->cxt, u->part_size);
		u->held += u->part_size;
	}
	u->cap = u->part_size;
	u->len = 0;
	MemoryContextSwitchTo(old);
}

static void
upload_write(PqSink *sink, const uint8 *data, size_t len)
{
	PqfdwUpload *u = (PqfdwUpload *) sink;

	while (len > 0)
	{
		size_t		n;

		if (u->len == u->cap)
		{
			if (u->cap < u->part_size)
			{
				/* still small: one buffer, doubled, up to a part */
				u->held -= u->cap;
				u->cap = Min(u->cap * 2, u->part_size);
				u->buf = repalloc_huge(u->buf, u->cap);
				u->held += u->cap;
			}
			else
				send_part(u, true);
		}
		n = Min(len, u->cap - u->len);
		memcpy(u->buf + u->len, data, n);
		u->len += n;
		data += n;
		len -= n;
	}
}

PqfdwUpload *
pqfdw_upload_begin(const PqfdwRemoteId *id, const char *url,
				   int64 part_size, int parts_in_flight)
{
	/* small: a dataset keeps thousands of closed uploads until the end */
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "parquet_fdw upload",
											  ALLOCSET_SMALL_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	PqfdwUpload *u = palloc0(sizeof(PqfdwUpload));

	u->sink.write = upload_write;
	u->sink.opaque = u;
	u->config = pqfdw_remote_config(id);
	u->u = pq_url_parse(url);
	/* checks the target now, before any row is read; sends nothing */
	u->up = pq_store_upload_begin(u->config, u->u);
	u->cxt = cxt;
	u->part_size = (size_t) Max(part_size, (int64) PQ_STORE_MIN_PART);
	u->parts_in_flight = Max(parts_in_flight, 1);
	u->cap = Min((size_t) FIRST_BUFFER, u->part_size);
	u->buf = palloc(u->cap);
	u->held = u->cap;
	u->spare = palloc(sizeof(uint8 *) * (u->parts_in_flight + 1));
	if (!exit_callback_registered)
	{
		before_shmem_exit(abort_at_exit, (Datum) 0);
		exit_callback_registered = true;
	}
	u->next = unfinished;
	unfinished = u;
	u->on_delete.func = on_context_delete;
	u->on_delete.arg = u;
	MemoryContextRegisterResetCallback(cxt, &u->on_delete);
	MemoryContextSwitchTo(old);
	return u;
}

PqSink *
pqfdw_upload_sink(PqfdwUpload *u)
{
	return &u->sink;
}

void
pqfdw_upload_finish(PqfdwUpload *u)
{
	MemoryContext old = MemoryContextSwitchTo(u->cxt);

	Assert(!u->done);
	if (!u->started)
		pq_store_put(u->config, u->u, u->buf, u->len, NULL);
	else
	{
		if (u->len > 0)
			send_part(u, false);
		pq_store_upload_complete(u->up, NULL);
	}
	u->done = true;
	forget(u);
	MemoryContextSwitchTo(old);
	pqfdw_remote_objects_forget();
	MemoryContextDelete(u->cxt);
}

void
pqfdw_upload_close(PqfdwUpload *u)
{
	Assert(!u->done);
	/* even a small object goes as a part: it appears only when completed */
	if (u->len > 0 || !u->started)
		send_part(u, false);
}

size_t
pqfdw_upload_held(PqfdwUpload *u)
{
	return u->settled ? 0 : u->held;
}

bool
pqfdw_upload_settle(PqfdwUpload *u, bool wait)
{
	if (u->settled)
		return true;
	if (!wait && pq_store_upload_in_flight(u->up) > 0)
		return false;
	while (pq_store_upload_in_flight(u->up) > 0)
		pq_store_upload_wait_oldest(u->up);
	take_free_buffers(u);
	while (u->nspare > 0)
		pfree(u->spare[--u->nspare]);
	u->held = 0;
	u->settled = true;
	return true;
}

/* Completions in flight at once. */
#define COMPLETE_WINDOW 64

void
pqfdw_upload_complete_many(PqfdwUpload **us, int n)
{
	int			from;

	for (from = 0; from < n; from += COMPLETE_WINDOW)
	{
		int			to = Min(n, from + COMPLETE_WINDOW);
		int			i;

		for (i = from; i < to; i++)
		{
			pqfdw_upload_settle(us[i], true);
			pq_store_upload_complete_start(us[i]->up, NULL);
		}
		for (i = from; i < to; i++)
			pq_store_upload_complete_end(us[i]->up);
	}
	for (from = 0; from < n; from++)
	{
		us[from]->done = true;
		forget(us[from]);
		MemoryContextDelete(us[from]->cxt);
	}
	pqfdw_remote_objects_forget();
}

void
pqfdw_upload_abort(PqfdwUpload *u)
{
	abort_quietly(u);
	MemoryContextDelete(u->cxt);
}

void
pqfdw_remote_put(const PqfdwRemoteId *id, const char *url, const void *data,
				 size_t len)
{
	pq_store_put(pqfdw_remote_config(id), pq_url_parse(url), data, len, NULL);
	pqfdw_remote_objects_forget();
}

void
pqfdw_remote_delete(const PqfdwRemoteId *id, const char *const *urls, int n)
{
	PqUrl	  **us = palloc(sizeof(PqUrl *) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
		us[i] = pq_url_parse(urls[i]);
	pq_store_delete(pqfdw_remote_config(id), us, n);
	pqfdw_remote_objects_forget();
}

void
pqfdw_remote_list_uploads(const PqfdwRemoteId *id, const char *url,
						  PqS3UploadPage *out)
{
	PqUrl	   *u = pq_url_parse(url);

	pq_store_list_uploads(pqfdw_remote_config(id), u, out);
}

void
pqfdw_remote_abort_upload(const PqfdwRemoteId *id, const char *url,
						  const char *upload_id)
{
	pq_store_abort_upload(pqfdw_remote_config(id), pq_url_parse(url),
						  upload_id);
}
