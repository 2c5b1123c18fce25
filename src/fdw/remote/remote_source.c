/*-------------------------------------------------------------------------
 *
 * remote_source.c
 *		PqSource over an object behind a URL: ranged GETs of the version
 *		its ETag names, the tail prefetched with the first read.
 *
 * Opening a file reads its first four bytes, then its last eight, then the
 * footer: three round trips to a store.  So the first read of the magic
 * also fetches the last TAIL_PREFETCH bytes, in flight together with it,
 * and the footer (and, for small files, the page indexes after the row
 * groups) are read from that copy.  A footer longer than the prefetch
 * costs one more request, and so does the first read of a page index or
 * Bloom filter in the last megabyte, which takes the rest of the object
 * with it.  Reads of many ranges at once (a row group's
 * column chunks) go out together, up to the server's max_connections.
 * The table reader fetches the chunks of the row groups it enters next in
 * batches (prefetch): the current one and the next, in flight in the
 * background while the scan decodes (moved on by poll and by every other
 * request; the current one's requests first); a read waits for its own
 * range only, and a read within the next batch makes it the current one.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/remote/remote.h"

#define TAIL_PREFETCH PQFDW_TAIL_PREFETCH

/* Reads this close to the end take the rest of the object with them. */
#define TAIL_WINDOW (1024 * 1024)

/*
 * Ranges closer than this are fetched as one: a request costs a round
 * trip, and a gap of this size costs about as much at 100 MB/s and 5 ms.
 */
#define REMOTE_COALESCE_GAP (512 * 1024)

/* A batch of ranges fetched ahead, and their bytes. */
typedef struct Ahead
{
	int			n;
	int64	   *off;
	int64	   *len;
	uint8	  **buf;
	PqHttpBatch *pending;		/* still in flight: wait before reading */
} Ahead;

typedef struct RemoteSource
{
	PqSource	src;
	PqStoreConfig cfg;			/* a copy: invalidations cannot touch it */
	PqUrl	   *url;
	char	   *etag;			/* NULL: the store sent none */
	uint8	   *tail;			/* bytes [tail_start, size), or NULL */
	int64		tail_start;
	uint8		head[4];
	bool		have_head;
	MemoryContext cxt;			/* where the source lives */
	Ahead		cur;			/* fetched */
	Ahead		next;			/* in flight, or fetched but not yet read */
} RemoteSource;

static char *
copy_or_null(const char *s)
{
	return s ? pstrdup(s) : NULL;
}

static void
copy_config(PqStoreConfig *dst, const PqStoreConfig *src)
{
	*dst = *src;
	dst->s3.endpoint = copy_or_null(src->s3.endpoint);
	dst->s3.region = copy_or_null(src->s3.region);
	dst->s3.key_id = copy_or_null(src->s3.key_id);
	dst->s3.secret = copy_or_null(src->s3.secret);
	dst->s3.session_token = copy_or_null(src->s3.session_token);
	dst->azure.endpoint = copy_or_null(src->azure.endpoint);
	dst->azure.account = copy_or_null(src->azure.account);
	dst->azure.account_key = copy_or_null(src->azure.account_key);
	dst->azure.sas_token = copy_or_null(src->azure.sas_token);
	dst->http.ca_file = copy_or_null(src->http.ca_file);
}

static void
check_range(PqSource *src, int64 offset, size_t len)
{
	if (offset < 0 || offset > src->size || (int64) len > src->size - offset)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("corrupt Parquet file \"%s\": read of %zu bytes at offset " INT64_FORMAT " is past the end of the object (" INT64_FORMAT " bytes)",
						src->name, len, offset, src->size)));
}

static void
drop_ahead(Ahead *a)
{
	int			i;

	/* the transfers first: they write into the buffers */
	if (a->pending)
		pq_http_batch_cancel(a->pending);
	for (i = 0; i < a->n; i++)
		pfree(a->buf[i]);
	if (a->off)
	{
		pfree(a->off);
		pfree(a->len);
		pfree(a->buf);
	}
	memset(a, 0, sizeof(Ahead));
}

/*
 * Range i of a window in flight: wait for it alone, so that decoding starts
 * as soon as the first chunks are in; the window's transfers are freed once
 * all have come.
 */
static void
settle_range(Ahead *a, int i)
{
	if (a->pending == NULL)
		return;
	pq_http_batch_wait_one(a->pending, i);
	if (pq_http_batch_poll(a->pending))
	{
		pq_http_batch_wait(a->pending);
		a->pending = NULL;
	}
}

/* The next window becomes the current one, arrived or not. */
static void
promote_next(RemoteSource *rs)
{
	drop_ahead(&rs->cur);
	rs->cur = rs->next;
	memset(&rs->next, 0, sizeof(Ahead));
}

/* Whether [offset, offset + len) was fetched already; then copied to buf. */
static bool
from_copy(RemoteSource *rs, int64 offset, size_t len, uint8 *buf)
{
	int			i;

	if (rs->tail != NULL && offset >= rs->tail_start)
	{
		memcpy(buf, rs->tail + (offset - rs->tail_start), len);
		return true;
	}
	if (rs->have_head && offset + (int64) len <= (int64) sizeof(rs->head))
	{
		memcpy(buf, rs->head + offset, len);
		return true;
	}
	for (i = 0; i < rs->cur.n; i++)
		if (offset >= rs->cur.off[i] &&
			offset + (int64) len <= rs->cur.off[i] + rs->cur.len[i])
		{
			settle_range(&rs->cur, i);
			memcpy(buf, rs->cur.buf[i] + (offset - rs->cur.off[i]), len);
			return true;
		}
	for (i = 0; i < rs->next.n; i++)
		if (offset >= rs->next.off[i] &&
			offset + (int64) len <= rs->next.off[i] + rs->next.len[i])
		{
			/* the scan has reached the next window */
			promote_next(rs);
			settle_range(&rs->cur, i);
			memcpy(buf, rs->cur.buf[i] + (offset - rs->cur.off[i]), len);
			return true;
		}
	return false;
}


/* GET n ranges, all in flight together (with background: left to go on). */
static void
fetch(RemoteSource *rs, int n, const int64 *offsets, const int64 *lengths,
	  uint8 **bufs, PqHttpBatch **background)
{
	int			i;

	pq_store_get_ranges(&rs->cfg, rs->url, rs->etag, n, offsets, lengths, bufs,
						background);
	for (i = 0; i < n; i++)
		rs->src.bytes_read += lengths[i];
}

static void
remote_read(PqSource *src, int64 offset, size_t len, uint8 *buf)
{
	RemoteSource *rs = (RemoteSource *) src;
	int64		offsets[2];
	int64		lengths[2];
	uint8	   *bufs[2];
	int			n = 0;

	check_range(src, offset, len);
	if (len == 0 || from_copy(rs, offset, len, buf))
		return;
	if (offset == 0 && len <= sizeof(rs->head) && rs->tail == NULL)
	{
		/* opening the file: the footer is wanted next */
		rs->tail_start = Max(0, src->size - TAIL_PREFETCH);
		rs->tail = MemoryContextAlloc(rs->cxt, src->size - rs->tail_start);
		if (rs->tail_start > 0)
		{
			offsets[n] = 0;
			lengths[n] = sizeof(rs->head) <= src->size ? sizeof(rs->head) : src->size;
			bufs[n++] = rs->head;
		}
		offsets[n] = rs->tail_start;
		lengths[n] = src->size - rs->tail_start;
		bufs[n++] = rs->tail;
		PG_TRY();
		{
			fetch(rs, n, offsets, lengths, bufs, NULL);
		}
		PG_CATCH();
		{
			pfree(rs->tail);
			rs->tail = NULL;
			PG_RE_THROW();
		}
		PG_END_TRY();
		rs->have_head = true;
		if (!from_copy(rs, offset, len, buf))
			elog(ERROR, "prefetched bytes of \"%s\" do not cover offset 0", src->name);
		return;
	}
	if (offset >= src->size - TAIL_WINDOW && len <= TAIL_WINDOW)
	{
		/*
		 * Page indexes and Bloom filters lie between the column data and the
		 * footer, read a piece at a time: the first such read takes the
		 * object from there to the end (or to the tail already held).
		 */
		int64		end = rs->tail ? rs->tail_start : src->size;
		uint8	   *tail = MemoryContextAlloc(rs->cxt, src->size - offset);

		offsets[0] = offset;
		lengths[0] = end - offset;
		bufs[0] = tail;
		fetch(rs, 1, offsets, lengths, bufs, NULL);
		if (rs->tail)
		{
			memcpy(tail + (end - offset), rs->tail, src->size - end);
			pfree(rs->tail);
		}
		rs->tail = tail;
		rs->tail_start = offset;
		if (from_copy(rs, offset, len, buf))
			return;
	}
	offsets[0] = offset;
	lengths[0] = len;
	bufs[0] = buf;
	fetch(rs, 1, offsets, lengths, bufs, NULL);
}

static void
remote_read_many(PqSource *src, int n, const int64 *offsets,
				 const size_t *lens, uint8 **bufs)
{
	RemoteSource *rs = (RemoteSource *) src;
	int64	   *o = palloc(sizeof(int64) * Max(n, 1));
	int64	   *l = palloc(sizeof(int64) * Max(n, 1));
	uint8	  **b = palloc(sizeof(uint8 *) * Max(n, 1));
	int			m = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		check_range(src, offsets[i], lens[i]);
		if (lens[i] == 0 || from_copy(rs, offsets[i], lens[i], bufs[i]))
			continue;
		o[m] = offsets[i];
		l[m] = lens[i];
		b[m++] = bufs[i];
	}
	if (m > 0)
		fetch(rs, m, o, l, b, NULL);
	pfree(o);
	pfree(l);
	pfree(b);
}

static void
remote_prefetch(PqSource *src, int n, const int64 *offsets, const size_t *lens,
				bool background)
{
	RemoteSource *rs = (RemoteSource *) src;
	Ahead	   *a = background ? &rs->next : &rs->cur;
	MemoryContext old;
	int			i;

	/*
	 * The scan asks for the window after the one it enters, which is the next
	 * one (it becomes current, in flight or not); a window fetched now means
	 * the scan left both behind.
	 */
	if (!background)
		drop_ahead(&rs->next);
	else if (rs->next.n > 0)
		promote_next(rs);
	drop_ahead(a);
	/* the batch and everything it writes or signs with live with rs */
	old = MemoryContextSwitchTo(rs->cxt);
	a->off = palloc(sizeof(int64) * Max(n, 1));
	a->len = palloc(sizeof(int64) * Max(n, 1));
	a->buf = palloc(sizeof(uint8 *) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		check_range(src, offsets[i], lens[i]);
		if (lens[i] == 0 ||
			(rs->tail != NULL && offsets[i] >= rs->tail_start))
			continue;
		a->off[a->n] = offsets[i];
		a->len[a->n] = lens[i];
		a->buf[a->n++] = palloc(lens[i]);
	}
	/* in flight either way: a read waits for its own range only */
	if (a->n > 0)
		fetch(rs, a->n, a->off, a->len, a->buf, &a->pending);
	MemoryContextSwitchTo(old);
}

/* Move the windows in flight on; their transfers freed once they are done. */
static void
poll_ahead(Ahead *a)
{
	if (a->pending && pq_http_batch_poll(a->pending))
	{
		pq_http_batch_wait(a->pending);
		a->pending = NULL;
	}
}

static void
remote_poll(PqSource *src)
{
	RemoteSource *rs = (RemoteSource *) src;

	poll_ahead(&rs->cur);
	poll_ahead(&rs->next);
}

void
pqfdw_remote_source_release(PqSource *src)
{
	RemoteSource *rs = (RemoteSource *) src;

	drop_ahead(&rs->next);
	drop_ahead(&rs->cur);
	if (rs->tail)
		pfree(rs->tail);
	rs->tail = NULL;
	rs->have_head = false;
}

PqSource *
pqfdw_remote_source_open(const PqfdwRemoteId *id, const char *url,
						 int64 size, const char *etag)
{
	RemoteSource *rs = palloc0(sizeof(RemoteSource));

	copy_config(&rs->cfg, pqfdw_remote_config(id));
	rs->url = pq_url_parse(url);
	rs->etag = etag ? pstrdup(etag) : NULL;
	rs->src.name = rs->url->display;
	rs->src.size = size;
	rs->src.read = remote_read;
	rs->src.read_many = remote_read_many;
	rs->src.coalesce_gap = REMOTE_COALESCE_GAP;
	rs->src.prefetch = remote_prefetch;
	rs->src.poll = remote_poll;
	rs->cxt = CurrentMemoryContext;
	/* opened with others: its ends may have come with theirs */
	if (pqfdw_remote_take_tail(id, url, size, etag, rs->head, &rs->tail,
							   &rs->tail_start))
		rs->have_head = true;
	rs->src.opaque = rs;
	return &rs->src;
}
