/*-------------------------------------------------------------------------
 *
 * remote_objects.c
 *		What a statement knows of the objects behind URLs: size and ETag
 *		from its listings and HEADs, so that planning and execution ask
 *		the store once per object, and a listing gives every object's size
 *		without a HEAD each.
 *
 * An object seen in this statement is not asked about again; the
 * executor's ranged reads carry its ETag in If-Match, so a change after
 * that is an ERROR rather than a stale read.  With the server's
 * listing_cache_ttl, what a listing saw is also trusted by later
 * statements for that long; by default every statement lists and asks
 * again (correct first).  Entries are per (server, role): one role's
 * listing never answers for another.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "common/hashfn.h"
#include "fdw/remote/remote.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

typedef struct ObjectEntry
{
	const char *key;			/* "server/role/url", in objects_cxt */
	int64		size;
	char	   *etag;
	TimestampTz stmt;			/* the statement that saw it */
	TimestampTz xact;
	TimestampTz listed_at;		/* from a listing: when; else 0 */
} ObjectEntry;

typedef struct ListingEntry
{
	const char *key;			/* "server/role/delimiter/url" */
	PqListing	listing;
	TimestampTz stmt;
	TimestampTz xact;
	TimestampTz listed_at;
} ListingEntry;

static MemoryContext objects_cxt = NULL;
static HTAB *objects = NULL;
static HTAB *listings = NULL;
static long objects_at_reset = 0;
static TimestampTz written_at = 0;	/* this backend last wrote an object */

/* More entries than this since the last reset: start over. */
#define MAX_OBJECT_ENTRIES 1000000

static uint32
key_hash(const void *key, Size keysize)
{
	const char *s = *(const char *const *) key;

	return hash_bytes((const unsigned char *) s, strlen(s));
}

static int
key_match(const void *a, const void *b, Size keysize)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static HTAB *
new_table(const char *name, Size entrysize)
{
	HASHCTL		ctl;

	ctl.keysize = sizeof(const char *);
	ctl.entrysize = entrysize;
	ctl.hash = key_hash;
	ctl.match = key_match;
	ctl.hcxt = objects_cxt;
	return hash_create(name, 256, &ctl,
					   HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
}

static void
reset_tables(void)
{
	if (objects_cxt == NULL)
		objects_cxt = AllocSetContextCreate(TopMemoryContext,
											"parquet_fdw remote objects",
											ALLOCSET_DEFAULT_SIZES);
	else
		MemoryContextReset(objects_cxt);
	objects = new_table("parquet_fdw remote objects", sizeof(ObjectEntry));
	listings = new_table("parquet_fdw remote listings", sizeof(ListingEntry));
	objects_at_reset = 0;
}

static bool
this_statement(TimestampTz stmt, TimestampTz xact)
{
	return stmt == GetCurrentStatementStartTimestamp() &&
		xact == GetCurrentTransactionStartTimestamp();
}

static bool
still_fresh(const PqfdwRemoteId *id, TimestampTz stmt, TimestampTz xact,
			TimestampTz listed_at)
{
	int			ttl;

	if (this_statement(stmt, xact))
		return true;
	if (listed_at == 0 || listed_at <= written_at ||
		(ttl = pqfdw_remote_listing_ttl(id)) == 0)
		return false;
	return !TimestampDifferenceExceeds(listed_at, GetCurrentTimestamp(), ttl);
}

static char *
object_key(const PqfdwRemoteId *id, const char *url)
{
	return psprintf("%u/%u/%s", id->serverid, id->userid, url);
}

static void
remember(const PqfdwRemoteId *id, const char *url, int64 size,
		 const char *etag, TimestampTz listed_at)
{
	MemoryContext old;
	ObjectEntry *e;
	char	   *key;
	bool		found;

	if (objects == NULL || objects_at_reset > MAX_OBJECT_ENTRIES)
		reset_tables();
	old = MemoryContextSwitchTo(objects_cxt);
	key = object_key(id, url);
	e = hash_search(objects, &key, HASH_ENTER, &found);
	if (found)
		pfree(key);
	else
		objects_at_reset++;
	/* a replaced entry's etag stays in the context until the next reset */
	e->size = size;
	e->etag = etag ? pstrdup(etag) : NULL;
	e->stmt = GetCurrentStatementStartTimestamp();
	e->xact = GetCurrentTransactionStartTimestamp();
	e->listed_at = listed_at;
	MemoryContextSwitchTo(old);
}

/* As pqfdw_remote_stat, but false for a missing object when missing_ok. */
static bool
stat_object(const PqfdwRemoteId *id, const char *url, int64 *size,
			char **etag, bool missing_ok)
{
	const PqStoreConfig *cfg = pqfdw_remote_config(id);
	PqUrl	   *u;

	if (objects != NULL)
	{
		char	   *key = object_key(id, url);
		ObjectEntry *e = hash_search(objects, &key, HASH_FIND, NULL);

		pfree(key);
		if (e != NULL && still_fresh(id, e->stmt, e->xact, e->listed_at))
		{
			*size = e->size;
			*etag = e->etag ? pstrdup(e->etag) : NULL;
			return true;
		}
	}
	u = pq_url_parse(url);
	if (!pq_store_head(cfg, u, size, etag))
	{
		if (missing_ok)
			return false;
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("could not open \"%s\": no such object", u->display),
				 u->key[0] != '\0' && u->key[strlen(u->key) - 1] != '/' ?
				 errhint("For every *.parquet object below a prefix, end the URL with \"/\".") : 0));
	}
	remember(id, url, *size, *etag, 0);
	return true;
}

void
pqfdw_remote_stat(const PqfdwRemoteId *id, const char *url, int64 *size,
				  char **etag)
{
	(void) stat_object(id, url, size, etag, false);
}

char *
pqfdw_remote_read_object(const PqfdwRemoteId *id, const char *url,
						 int64 max, bool missing_ok)
{
	int64		size;
	char	   *etag;
	char	   *buf;
	uint8	   *dest;

	if (!stat_object(id, url, &size, &etag, missing_ok))
		return NULL;
	if (size > max)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("object \"%s\" is larger than %lld bytes",
						pq_url_parse(url)->display, (long long) max)));
	buf = palloc(size + 1);
	dest = (uint8 *) buf;
	if (size > 0)
	{
		int64		offset = 0;

		pq_store_get_ranges(pqfdw_remote_config(id), pq_url_parse(url), etag,
							1, &offset, &size, &dest, NULL);
	}
	buf[size] = '\0';
	return buf;
}

char *
pqfdw_remote_key_url(const PqUrl *u, const char *key)
{
	const char *scheme = pq_url_scheme_name(u->scheme);

	if (u->scheme == PQ_URL_ABFSS)
		return psprintf("abfss://%s@%s.dfs.core.windows.net/%s", u->bucket,
						u->account, key);
	return psprintf("%s://%s/%s", scheme, u->bucket, key);
}

void
pqfdw_remote_list(const PqfdwRemoteId *id, const char *url,
				  const char *delimiter, PqListing *out)
{
	const PqStoreConfig *cfg = pqfdw_remote_config(id);
	PqUrl	   *u = pq_url_parse(url);
	char	   *key;
	ListingEntry *le;
	TimestampTz now;
	MemoryContext old;
	bool		found;
	int			i;

	if (objects == NULL || objects_at_reset > MAX_OBJECT_ENTRIES)
		reset_tables();
	key = psprintf("%u/%u/%s/%s", id->serverid, id->userid,
				   delimiter ? delimiter : "", url);
	le = hash_search(listings, &key, HASH_FIND, NULL);
	if (le != NULL && still_fresh(id, le->stmt, le->xact, le->listed_at))
	{
		*out = le->listing;
		return;
	}

	pq_listing_init(out);
	pq_store_list(cfg, u, delimiter, out);
	now = GetCurrentTimestamp();

	/* keys become URLs, kept for the statement (or the TTL) */
	old = MemoryContextSwitchTo(objects_cxt);
	for (i = 0; i < out->nobjects; i++)
		out->objects[i].key = pqfdw_remote_key_url(u, out->objects[i].key);
	for (i = 0; i < out->nprefixes; i++)
		out->prefixes[i] = pqfdw_remote_key_url(u, out->prefixes[i]);
	MemoryContextSwitchTo(old);
	for (i = 0; i < out->nobjects; i++)
		remember(id, out->objects[i].key, out->objects[i].size,
				 out->objects[i].etag, now);

	old = MemoryContextSwitchTo(objects_cxt);
	key = pstrdup(key);
	le = hash_search(listings, &key, HASH_ENTER, &found);
	le->listing = *out;
	le->listing.objects = palloc(sizeof(PqObjectInfo) * Max(out->nobjects, 1));
	memcpy(le->listing.objects, out->objects, sizeof(PqObjectInfo) * out->nobjects);
	for (i = 0; i < out->nobjects; i++)
		le->listing.objects[i].etag = out->objects[i].etag ?
			pstrdup(out->objects[i].etag) : NULL;
	le->listing.prefixes = palloc(sizeof(char *) * Max(out->nprefixes, 1));
	memcpy(le->listing.prefixes, out->prefixes, sizeof(char *) * out->nprefixes);
	le->stmt = GetCurrentStatementStartTimestamp();
	le->xact = GetCurrentTransactionStartTimestamp();
	le->listed_at = now;
	MemoryContextSwitchTo(old);
	*out = le->listing;
}

void
pqfdw_remote_objects_forget(void)
{
	written_at = GetCurrentTimestamp();
}
