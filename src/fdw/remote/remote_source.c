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
 * costs one more request.  Reads of many ranges at once (a row group's
 * column chunks) go out together, up to the server's max_connections, and
 * the table reader fetches the chunks of the next row groups in one batch
 * (prefetch), kept until the next batch or the source's release.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/remote/remote.h"

#define TAIL_PREFETCH (64 * 1024)

/*
 * Ranges closer than this are fetched as one: a request costs a round
 * trip, and a gap of this size costs about as much at 100 MB/s and 5 ms.
 */
#define REMOTE_COALESCE_GAP (512 * 1024)

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
	/* the last prefetch's ranges and their bytes */
	int			nahead;
	int64	   *ahead_off;
	int64	   *ahead_len;
	uint8	  **ahead_buf;
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
	for (i = 0; i < rs->nahead; i++)
		if (offset >= rs->ahead_off[i] &&
			offset + (int64) len <= rs->ahead_off[i] + rs->ahead_len[i])
		{
			memcpy(buf, rs->ahead_buf[i] + (offset - rs->ahead_off[i]), len);
			return true;
		}
	return false;
}

static void
drop_ahead(RemoteSource *rs)
{
	int			i;

	for (i = 0; i < rs->nahead; i++)
		pfree(rs->ahead_buf[i]);
	if (rs->ahead_off)
	{
		pfree(rs->ahead_off);
		pfree(rs->ahead_len);
		pfree(rs->ahead_buf);
	}
	rs->nahead = 0;
	rs->ahead_off = NULL;
	rs->ahead_len = NULL;
	rs->ahead_buf = NULL;
}

/* GET n ranges, all in flight together. */
static void
fetch(RemoteSource *rs, int n, const int64 *offsets, const int64 *lengths,
	  uint8 **bufs)
{
	int			i;

	pq_store_get_ranges(&rs->cfg, rs->url, rs->etag, n, offsets, lengths, bufs);
	pqfdw_remote_requests += n;
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
		rs->tail = palloc(src->size - rs->tail_start);
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
			fetch(rs, n, offsets, lengths, bufs);
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
	offsets[0] = offset;
	lengths[0] = len;
	bufs[0] = buf;
	fetch(rs, 1, offsets, lengths, bufs);
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
		fetch(rs, m, o, l, b);
	pfree(o);
	pfree(l);
	pfree(b);
}

static void
remote_prefetch(PqSource *src, int n, const int64 *offsets, const size_t *lens)
{
	RemoteSource *rs = (RemoteSource *) src;
	MemoryContext old;
	int			m = 0;
	int			i;

	drop_ahead(rs);
	old = MemoryContextSwitchTo(rs->cxt);
	rs->ahead_off = palloc(sizeof(int64) * Max(n, 1));
	rs->ahead_len = palloc(sizeof(int64) * Max(n, 1));
	rs->ahead_buf = palloc(sizeof(uint8 *) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		check_range(src, offsets[i], lens[i]);
		if (lens[i] == 0 ||
			(rs->tail != NULL && offsets[i] >= rs->tail_start))
			continue;
		rs->ahead_off[m] = offsets[i];
		rs->ahead_len[m] = lens[i];
		rs->ahead_buf[m++] = palloc(lens[i]);
	}
	MemoryContextSwitchTo(old);
	rs->nahead = m;
	if (m > 0)
		fetch(rs, m, rs->ahead_off, rs->ahead_len, rs->ahead_buf);
}

void
pqfdw_remote_source_release(PqSource *src)
{
	RemoteSource *rs = (RemoteSource *) src;

	drop_ahead(rs);
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
	rs->cxt = CurrentMemoryContext;
	rs->src.opaque = rs;
	return &rs->src;
}
