/*-------------------------------------------------------------------------
 *
 * remote_tails.c
 *		The first bytes and the tail of many objects fetched together, so
 *		that opening the footers of a dataset of many objects costs a round
 *		trip per batch of objects rather than per object.
 *
 * A statement's tails wait here until a source over the same object (same
 * server, role, size and ETag) takes them; what no source took is dropped
 * when the next statement fetches tails.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "fdw/remote/remote.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

typedef struct FetchedTail
{
	char		key[NAMEDATALEN + PQ_URL_MAX_KEY * 3 + 64]; /* server/role/url */
	char	   *etag;
	int64		size;
	uint8		head[4];
	uint8	   *tail;			/* bytes [tail_start, size) */
	int64		tail_start;
} FetchedTail;

static MemoryContext tails_cxt = NULL;
static HTAB *tails = NULL;
static TimestampTz tails_stmt = 0;
static TimestampTz tails_xact = 0;

static bool
tail_key(const PqfdwRemoteId *id, const char *url, char *key)
{
	return snprintf(key, sizeof(((FetchedTail *) NULL)->key), "%u/%u/%s",
					id->serverid, id->userid, url) <
		(int) sizeof(((FetchedTail *) NULL)->key);
}

/* The table for this statement, the last statement's dropped. */
static void
this_statement(void)
{
	HASHCTL		ctl;

	if (tails != NULL && tails_stmt == GetCurrentStatementStartTimestamp() &&
		tails_xact == GetCurrentTransactionStartTimestamp())
		return;
	if (tails_cxt == NULL)
		tails_cxt = AllocSetContextCreate(TopMemoryContext,
										  "parquet_fdw object tails",
										  ALLOCSET_DEFAULT_SIZES);
	else
		MemoryContextReset(tails_cxt);
	ctl.keysize = sizeof(((FetchedTail *) NULL)->key);
	ctl.entrysize = sizeof(FetchedTail);
	ctl.hcxt = tails_cxt;
	tails = hash_create("parquet_fdw object tails", 64, &ctl,
						HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	tails_stmt = GetCurrentStatementStartTimestamp();
	tails_xact = GetCurrentTransactionStartTimestamp();
}

/* Requests for t's ends: one when its tail holds its head. */
static int
tail_requests(const FetchedTail *t)
{
	return t->tail_start == 0 ? 1 : 2;
}

/* Start the requests for t's ends, left to go on in *batch. */
static void
start_tail(const PqStoreConfig *cfg, FetchedTail *t, PqHttpBatch **batch)
{
	int64		offsets[2] = {0, t->tail_start};
	int64		lengths[2] = {4, t->size - t->tail_start};
	uint8	   *bufs[2] = {t->head, t->tail};
	const char *url = strchr(strchr(t->key, '/') + 1, '/') + 1;

	if (t->tail_start == 0)
		pq_store_get_ranges(cfg, pq_url_parse(url), t->etag, 1, offsets + 1,
							lengths + 1, bufs + 1, batch);
	else
		pq_store_get_ranges(cfg, pq_url_parse(url), t->etag, 2, offsets,
							lengths, bufs, batch);
}

void
pqfdw_remote_fetch_tails(const PqfdwRemoteId *id, const char **urls, int n)
{
	const PqStoreConfig *cfg;
	FetchedTail **wanted;
	PqHttpBatch **batches;
	int			nwanted = 0;
	int			i;

	if (n == 0)
		return;
	this_statement();
	wanted = palloc(sizeof(FetchedTail *) * n);
	for (i = 0; i < n; i++)
	{
		char		key[sizeof(((FetchedTail *) NULL)->key)];
		FetchedTail *t;
		int64		size;
		char	   *etag;
		bool		found;

		pqfdw_remote_stat(id, urls[i], &size, &etag);
		if (etag == NULL || size < 4 || !tail_key(id, urls[i], key))
			continue;
		t = hash_search(tails, key, HASH_ENTER, &found);
		if (found)
			continue;
		t->etag = MemoryContextStrdup(tails_cxt, etag);
		t->size = size;
		t->tail_start = Max(0, size - PQFDW_TAIL_PREFETCH);
		t->tail = MemoryContextAlloc(tails_cxt, size - t->tail_start);
		wanted[nwanted++] = t;
	}

	/*
	 * Settings looked up once, before any request: a lookup may drop settings
	 * an invalidation made stale, which requests in flight use.  Objects are
	 * started while their requests fit in max_connections, and one more as
	 * each of them, oldest first, is done.
	 */
	cfg = pqfdw_remote_config(id);
	batches = palloc0(sizeof(PqHttpBatch *) * Max(nwanted, 1));
	PG_TRY();
	{
		int			next = 0;
		int			oldest = 0;
		int			in_flight = 0;

		while (oldest < nwanted)
		{
			MemoryContext old = MemoryContextSwitchTo(tails_cxt);

			while (next < nwanted &&
				   (in_flight == 0 ||
					in_flight + tail_requests(wanted[next]) <= cfg->http.max_in_flight))
			{
				start_tail(cfg, wanted[next], &batches[next]);
				in_flight += tail_requests(wanted[next++]);
			}
			MemoryContextSwitchTo(old);
			pq_http_batch_wait(batches[oldest]);
			in_flight -= tail_requests(wanted[oldest++]);
		}
	}
	PG_CATCH();
	{
		/* nothing may go on writing into the tails after an ERROR */
		for (i = 0; i < nwanted; i++)
			if (batches[i])
				pq_http_batch_cancel(batches[i]);
		hash_destroy(tails);
		tails = NULL;
		PG_RE_THROW();
	}
	PG_END_TRY();
	pfree(batches);
	pfree(wanted);
}

bool
pqfdw_remote_take_tail(const PqfdwRemoteId *id, const char *url, int64 size,
					   const char *etag, uint8 *head, uint8 **tail,
					   int64 *tail_start)
{
	char		key[sizeof(((FetchedTail *) NULL)->key)];
	FetchedTail *t;

	if (tails == NULL || etag == NULL || !tail_key(id, url, key))
		return false;
	this_statement();
	t = hash_search(tails, key, HASH_FIND, NULL);
	if (t == NULL || t->size != size || strcmp(t->etag, etag) != 0)
		return false;
	memcpy(head, t->tail_start == 0 ? t->tail : t->head, 4);
	*tail = palloc(size - t->tail_start);
	memcpy(*tail, t->tail, size - t->tail_start);
	*tail_start = t->tail_start;
	pfree(t->tail);
	hash_search(tails, key, HASH_REMOVE, NULL);
	return true;
}
