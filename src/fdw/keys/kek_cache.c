/*-------------------------------------------------------------------------
 *
 * kek_cache.c
 *		Unwrapped key-encryption keys (KEKs) of double-wrapped key material,
 *		kept for parquet_fdw.kek_cache_lifetime seconds per backend.
 *
 * Files written by key tools within a while share KEKs (one per master
 * key), so a query over many files asks the KMS once per master key rather
 * than once per file and column; parquet-java's KEK caches do the same,
 * for 600 s by default.  Writing reuses the KEK it made for a master key
 * in the same way.  An entry is found by the wrapped KEK's bytes too (their
 * SHA-256), not by its id alone: the id is any string a file chooses, and a
 * crafted file naming the id of a cached KEK must not have its data keys
 * unwrapped, or its reader's later files answered, by another file's KEK.
 * Entries live in TopMemoryContext, never on disk, and are wiped when they
 * expire, are evicted, or the backend exits.  Whether
 * the user may use the master key is checked before every use
 * (key_material.c), so a cached KEK never outlives a revoked grant.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/cryptohash.h"
#include "common/sha2.h"
#include "fdw/keys/keys.h"
#include "storage/ipc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

int			pqfdw_kek_cache_lifetime = 600;

#define KEK_CACHE_ENTRIES 256

typedef struct KekEntry
{
	char	   *kms;			/* pqfdw_kms_identity(); NULL: a free slot */
	char	   *master_id;
	char	   *kek_id;			/* base64, as in the key material */
	uint8		wrapped_digest[PG_SHA256_DIGEST_LENGTH];	/* of wrappedKEK */
	char	   *wrapped_kek;	/* made by this backend for writing, or NULL */
	PqKey		kek;
	TimestampTz expires;
} KekEntry;

static KekEntry cache[KEK_CACHE_ENTRIES];
static bool wipe_registered = false;

static void
drop_entry(KekEntry *e)
{
	explicit_bzero(&e->kek, sizeof(PqKey));
	pfree(e->kms);
	pfree(e->master_id);
	pfree(e->kek_id);
	if (e->wrapped_kek)
		pfree(e->wrapped_kek);
	memset(e, 0, sizeof(KekEntry));
}

static void
wipe_all(int code, Datum arg)
{
	int			i;

	for (i = 0; i < KEK_CACHE_ENTRIES; i++)
		explicit_bzero(&cache[i].kek, sizeof(PqKey));
}

/* Drop expired entries (all of them when the cache is off). */
static void
expire(void)
{
	TimestampTz now = GetCurrentTimestamp();
	int			i;

	for (i = 0; i < KEK_CACHE_ENTRIES; i++)
		if (cache[i].kms &&
			(pqfdw_kek_cache_lifetime == 0 || cache[i].expires <= now))
			drop_entry(&cache[i]);
}

static bool
matches(const KekEntry *e, const char *kms, const char *master_id)
{
	return e->kms && strcmp(e->kms, kms) == 0 &&
		strcmp(e->master_id, master_id) == 0;
}

static void
digest(const char *wrapped_kek, uint8 *out)
{
	pg_cryptohash_ctx *ctx = pg_cryptohash_create(PG_SHA256);

	if (ctx == NULL ||
		pg_cryptohash_init(ctx) < 0 ||
		pg_cryptohash_update(ctx, (const uint8 *) wrapped_kek,
							 strlen(wrapped_kek)) < 0 ||
		pg_cryptohash_final(ctx, out, PG_SHA256_DIGEST_LENGTH) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute the SHA-256 of a wrapped key-encryption key: %s",
						pg_cryptohash_error(ctx))));
	pg_cryptohash_free(ctx);
}

bool
pqfdw_kek_cache_get(const char *kms, const char *master_id, const char *kek_id,
					const char *wrapped_kek, PqKey *out)
{
	uint8		d[PG_SHA256_DIGEST_LENGTH];
	int			i;

	expire();
	digest(wrapped_kek, d);
	for (i = 0; i < KEK_CACHE_ENTRIES; i++)
		if (matches(&cache[i], kms, master_id) &&
			strcmp(cache[i].kek_id, kek_id) == 0 &&
			memcmp(cache[i].wrapped_digest, d, sizeof(d)) == 0)
		{
			*out = cache[i].kek;
			return true;
		}
	return false;
}

bool
pqfdw_kek_cache_current(const char *kms, const char *master_id,
						char **kek_id, char **wrapped_kek, PqKey *out)
{
	int			i;

	expire();
	for (i = 0; i < KEK_CACHE_ENTRIES; i++)
		if (matches(&cache[i], kms, master_id) && cache[i].wrapped_kek)
		{
			*kek_id = pstrdup(cache[i].kek_id);
			*wrapped_kek = pstrdup(cache[i].wrapped_kek);
			*out = cache[i].kek;
			return true;
		}
	return false;
}

void
pqfdw_kek_cache_put(const char *kms, const char *master_id, const char *kek_id,
					const char *wrapped_kek, bool own, const PqKey *kek)
{
	MemoryContext old;
	KekEntry   *slot = NULL;
	int			i;

	expire();
	if (pqfdw_kek_cache_lifetime == 0)
		return;
	if (!wipe_registered)
	{
		on_proc_exit(wipe_all, 0);
		wipe_registered = true;
	}
	/* a free slot, else the entry that expires first */
	for (i = 0; i < KEK_CACHE_ENTRIES; i++)
	{
		if (cache[i].kms == NULL)
		{
			slot = &cache[i];
			break;
		}
		if (slot == NULL || cache[i].expires < slot->expires)
			slot = &cache[i];
	}
	if (slot->kms)
		drop_entry(slot);
	old = MemoryContextSwitchTo(TopMemoryContext);
	slot->kms = pstrdup(kms);
	slot->master_id = pstrdup(master_id);
	slot->kek_id = pstrdup(kek_id);
	slot->wrapped_kek = own ? pstrdup(wrapped_kek) : NULL;
	MemoryContextSwitchTo(old);
	digest(wrapped_kek, slot->wrapped_digest);
	slot->kek = *kek;
	slot->expires = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
												(int64) pqfdw_kek_cache_lifetime * 1000);
}
