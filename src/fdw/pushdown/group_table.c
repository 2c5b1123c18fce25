/*-------------------------------------------------------------------------
 *
 * group_table.c
 *		Grouping keys -> group numbers, by open addressing with linear
 *		probing over a power-of-two array of (hash, group number) slots.
 *
 * A slot holds its group's hash beside the group's number, and groups keep
 * their keys in per-key arrays (text keys as copies in the table's
 * context): growing rehashes without reading keys, and a probe passes
 * over slots of other hashes without touching their groups, which with a
 * million groups is a cache miss per key saved on every slot passed.
 *
 * When every key is a column whose batch comes with dictionary indices
 * (PqBatchCodes) and the product of the dictionaries' sizes is small, a
 * row's indices address a dense array of groups directly: values are
 * hashed and compared only the first time a combination of indices
 * appears under those dictionaries.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "fdw/pushdown/group_table.h"
#include "utils/builtins.h"

#include <xxhash.h>

#define PQFDW_MEMO_SIZE 256
#define PQFDW_MEMO_MAX_KEYS 32

/* the dense path: at most this many combinations of dictionary indices */
#define PQFDW_DENSE_MAX (1 << 16)
#define PQFDW_DENSE_MAX_KEYS 8

typedef struct GroupKey
{
	PqVKind		kind;
	Oid			type;
	int			scale;			/* PQV_DECIMAL: of every value */
	int64	   *i;				/* per group (PQV_INT) */
	int128	   *w;				/* per group (PQV_DECIMAL) */
	char	  **s;				/* text bytes, per group */
	int32	   *len;
	bool	   *null;
} GroupKey;

struct PqGroupTable
{
	MemoryContext cxt;
	int			nkeys;
	GroupKey   *keys;
	int			ngroups;
	int			capacity;		/* of the per-group arrays */
	uint64	   *slots;			/* hash << 32 | group + 1; 0 for empty */
	uint32		mask;			/* slots - 1 */
	Size		text_bytes;

	/*
	 * With text keys, a direct-mapped memo of the current batch's key
	 * identities (see identity_hash) to their groups: rows of repeated
	 * strings skip hashing and comparing them.
	 */
	bool		full;			/* no group is added */
	bool		memo_on;
	uint64	   *memo_ids;		/* PQFDW_MEMO_SIZE * nkeys */
	uint32	   *memo_null;
	int32	   *memo_gid;
	uint32	   *memo_gen_of;	/* the batch each entry is of */
	uint32		memo_gen;

	/*
	 * The dense path: the dictionaries its entries are of, each key's stride
	 * in it, and per combination the group (valid when dense_gen_of is
	 * dense_gen: a change of dictionaries starts a new generation).
	 */
	uint32		dense_dict[PQFDW_DENSE_MAX_KEYS];
	uint32		dense_stride[PQFDW_DENSE_MAX_KEYS];
	int			dense_cap;
	int32	   *dense_gid;
	uint32	   *dense_gen_of;
	uint32		dense_gen;
};

static inline uint32
hash_int(int64 v)
{
	uint64		x = (uint64) v;

	/* splitmix64's finalizer */
	x ^= x >> 30;
	x *= UINT64CONST(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64CONST(0x94d049bb133111eb);
	x ^= x >> 31;
	return (uint32) x;
}

PqGroupTable *
pqfdw_group_table_create(int nkeys, const Oid *types, MemoryContext cxt)
{
	PqGroupTable *gt = MemoryContextAllocZero(cxt, sizeof(PqGroupTable));
	int			k;

	gt->cxt = cxt;
	gt->nkeys = nkeys;
	gt->keys = MemoryContextAllocZero(cxt, sizeof(GroupKey) * Max(nkeys, 1));
	for (k = 0; k < nkeys; k++)
	{
		gt->keys[k].type = types[k];
		if (!pqfdw_vkind_of(types[k], &gt->keys[k].kind) ||
			gt->keys[k].kind == PQV_FLOAT4 || gt->keys[k].kind == PQV_FLOAT8)
			elog(ERROR, "grouping key of type %u in a grouped scan", types[k]);
	}
	for (k = 0; k < nkeys; k++)
		if (gt->keys[k].kind == PQV_DATUM)
			gt->memo_on = nkeys <= PQFDW_MEMO_MAX_KEYS;
	if (gt->memo_on)
	{
		gt->memo_ids = MemoryContextAlloc(cxt, sizeof(uint64) * nkeys *
										  PQFDW_MEMO_SIZE);
		gt->memo_null = MemoryContextAlloc(cxt, sizeof(uint32) * PQFDW_MEMO_SIZE);
		gt->memo_gid = MemoryContextAlloc(cxt, sizeof(int32) * PQFDW_MEMO_SIZE);
		gt->memo_gen_of = MemoryContextAllocZero(cxt, sizeof(uint32) *
												 PQFDW_MEMO_SIZE);
	}
	gt->mask = 1023;
	gt->slots = MemoryContextAllocZero(cxt, sizeof(uint64) * (gt->mask + 1));
	return gt;
}

static void *
grow(MemoryContext cxt, void *p, Size width, int new)
{
	return p == NULL ? MemoryContextAllocHuge(cxt, width * new) :
		repalloc_huge(p, width * new);
}

static void
reserve_groups(PqGroupTable *gt)
{
	int			cap = Max(64, gt->capacity * 2);
	int			k;

	if (gt->ngroups < gt->capacity)
		return;
	for (k = 0; k < gt->nkeys; k++)
	{
		GroupKey   *key = &gt->keys[k];

		key->null = grow(gt->cxt, key->null, sizeof(bool), cap);
		if (key->kind == PQV_DECIMAL)
			key->w = grow(gt->cxt, key->w, sizeof(int128), cap);
		else if (key->kind == PQV_INT)
			key->i = grow(gt->cxt, key->i, sizeof(int64), cap);
		else
		{
			key->s = grow(gt->cxt, key->s, sizeof(char *), cap);
			key->len = grow(gt->cxt, key->len, sizeof(int32), cap);
		}
	}
	gt->capacity = cap;
}

/* Double the slots when they are half full, placing every group again. */
static void
grow_slots(PqGroupTable *gt)
{
	uint64	   *old = gt->slots;
	uint32		old_size = gt->mask + 1;
	uint32		size = old_size * 2;
	uint32		i;

	gt->slots = MemoryContextAllocHuge(gt->cxt, sizeof(uint64) * size);
	memset(gt->slots, 0, sizeof(uint64) * size);
	gt->mask = size - 1;
	for (i = 0; i < old_size; i++)
	{
		uint32		s;

		if (old[i] == 0)
			continue;
		s = (uint32) (old[i] >> 32) & gt->mask;
		while (gt->slots[s] != 0)
			s = (s + 1) & gt->mask;
		gt->slots[s] = old[i];
	}
	pfree(old);
}

static inline bool
keys_equal(PqGroupTable *gt, int g, const PqVector **keys, int r)
{
	int			k;

	for (k = 0; k < gt->nkeys; k++)
	{
		GroupKey   *key = &gt->keys[k];
		bool		null = keys[k]->nulls[r];

		if (key->null[g] != null)
			return false;
		if (null)
			continue;
		if (key->kind == PQV_DECIMAL)
		{
			if (key->w[g] != pqfdw_vdecimal(keys[k], r))
				return false;
		}
		else if (key->kind == PQV_INT)
		{
			if (key->i[g] != keys[k]->i[r])
				return false;
		}
		else
		{
			Datum		d = keys[k]->p[r];

			if (key->len[g] != VARSIZE_ANY_EXHDR(DatumGetPointer(d)) ||
				memcmp(key->s[g], VARDATA_ANY(DatumGetPointer(d)),
					   key->len[g]) != 0)
				return false;
		}
	}
	return true;
}

static int
add_group(PqGroupTable *gt, const PqVector **keys, int r)
{
	int			g = gt->ngroups;
	int			k;

	reserve_groups(gt);
	for (k = 0; k < gt->nkeys; k++)
	{
		GroupKey   *key = &gt->keys[k];

		key->null[g] = keys[k]->nulls[r];
		key->scale = keys[k]->scale;
		if (key->kind == PQV_DECIMAL)
			key->w[g] = key->null[g] ? 0 : pqfdw_vdecimal(keys[k], r);
		else if (key->kind == PQV_INT)
			key->i[g] = key->null[g] ? 0 : keys[k]->i[r];
		else if (key->null[g])
		{
			key->s[g] = NULL;
			key->len[g] = 0;
		}
		else
		{
			Pointer		t = DatumGetPointer(keys[k]->p[r]);

			key->len[g] = VARSIZE_ANY_EXHDR(t);
			key->s[g] = MemoryContextAlloc(gt->cxt, key->len[g] + 1);
			memcpy(key->s[g], VARDATA_ANY(t), key->len[g]);
			gt->text_bytes += key->len[g] + 1;
		}
	}
	gt->ngroups++;
	return g;
}

/* The hash of row r's keys (text by its bytes). */
uint32
pqfdw_group_table_hash(PqGroupTable *gt, const PqVector **keys, int r)
{
	uint32		h = 0;
	int			k;

	for (k = 0; k < gt->nkeys; k++)
	{
		const PqVector *v = keys[k];
		uint32		kh;

		if (v->nulls[r])
			kh = 0x9e3779b9;
		else if (v->kind == PQV_DECIMAL)
		{
			int128		x = pqfdw_vdecimal(v, r);

			kh = hash_int((int64) x ^ (int64) (x >> 64) * 31);
		}
		else if (v->kind == PQV_INT)
			kh = hash_int(v->i[r]);
		else
		{
			Pointer		t = DatumGetPointer(v->p[r]);

			kh = (uint32) XXH3_64bits(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
		}
		h = hash_combine(h, kh);
	}
	return h;
}

/*
 * The group of row r, whose keys' hash is h, found or added through the
 * hash table; -1 when it is new and the table is full.
 */
static int32
find_group_hashed(PqGroupTable *gt, const PqVector **keys, int r, uint32 h)
{
	uint32		s = h & gt->mask;
	uint64		e;
	int32		g;

	while ((e = gt->slots[s]) != 0)
	{
		if ((uint32) (e >> 32) == h &&
			keys_equal(gt, (int32) (uint32) e - 1, keys, r))
			return (int32) (uint32) e - 1;
		s = (s + 1) & gt->mask;
	}
	if (gt->full)
		return -1;
	g = add_group(gt, keys, r);
	gt->slots[s] = (uint64) h << 32 | (uint32) (g + 1);
	if ((uint32) gt->ngroups * 2 > gt->mask)
		grow_slots(gt);
	return g;
}

static inline int32
find_group(PqGroupTable *gt, const PqVector **keys, int r)
{
	return find_group_hashed(gt, keys, r,
							 pqfdw_group_table_hash(gt, keys, r));
}

/*
 * Rows [from, to) (at most PQFDW_PROBE_AHEAD) through the hash table:
 * their hashes first, each slot prefetched, then the probes, whose first
 * loads (a cache miss each with many groups) overlap.  rows, when not
 * NULL, lists the rows instead.
 */
#define PQFDW_PROBE_AHEAD 64

static void
find_groups(PqGroupTable *gt, const PqVector **keys, const int *rows, int n,
			int32 *gids)
{
	uint32		h[PQFDW_PROBE_AHEAD];
	int			i;

	Assert(n <= PQFDW_PROBE_AHEAD);
	for (i = 0; i < n; i++)
	{
		h[i] = pqfdw_group_table_hash(gt, keys, rows[i]);
		__builtin_prefetch(&gt->slots[h[i] & gt->mask]);
	}
	for (i = 0; i < n; i++)
		gids[rows[i]] = find_group_hashed(gt, keys, rows[i], h[i]);
}

/*
 * Row r's key identities: integers by value, text by the address of its
 * Datum, which within one batch stands for one string (a dictionary's
 * strings are shared by all rows that use them); NULL keys set nullmask.
 */
static inline uint32
identity_hash(PqGroupTable *gt, const PqVector **keys, int r, uint64 *ids,
			  uint32 *nullmask)
{
	uint32		h = 0;
	int			k;

	*nullmask = 0;
	for (k = 0; k < gt->nkeys; k++)
	{
		const PqVector *v = keys[k];

		if (v->nulls[r])
		{
			ids[k] = 0;
			*nullmask |= 1u << k;
		}
		else
			ids[k] = pqfdw_vkind_integral(v->kind) ? (uint64) v->i[r] :
				(uint64) v->p[r];
		h = hash_combine(h, hash_int((int64) ids[k]));
	}
	return h;
}

static inline bool
ids_equal(const uint64 *a, const uint64 *b, int n)
{
	int			k;

	for (k = 0; k < n; k++)
		if (a[k] != b[k])
			return false;
	return true;
}

/*
 * Whether the dense path serves this batch: every key has dictionary
 * indices and their combinations are few.  Sets up its strides, and a new
 * generation when the dictionaries changed.
 */
static bool
dense_ready(PqGroupTable *gt, const PqVector **keys)
{
	bool		same = true;
	uint64		size = 1;
	int			k;

	if (gt->nkeys > PQFDW_DENSE_MAX_KEYS)
		return false;
	for (k = 0; k < gt->nkeys; k++)
	{
		if (keys[k]->codes == NULL)
			return false;
		size *= (uint64) Max(keys[k]->codes->dict_count, 1);
		if (size > PQFDW_DENSE_MAX)
			return false;
		same &= keys[k]->codes->dict_id == gt->dense_dict[k];
	}
	if (same)
		return true;
	if (size > (uint64) gt->dense_cap)
	{
		if (gt->dense_gid)
		{
			pfree(gt->dense_gid);
			pfree(gt->dense_gen_of);
		}
		gt->dense_cap = (int) size;
		gt->dense_gid = MemoryContextAlloc(gt->cxt, sizeof(int32) * size);
		gt->dense_gen_of = MemoryContextAllocZero(gt->cxt,
												  sizeof(uint32) * size);
		gt->dense_gen = 0;
	}
	if (++gt->dense_gen == 0)
	{
		memset(gt->dense_gen_of, 0, sizeof(uint32) * gt->dense_cap);
		gt->dense_gen = 1;
	}
	size = 1;
	for (k = 0; k < gt->nkeys; k++)
	{
		gt->dense_dict[k] = keys[k]->codes->dict_id;
		gt->dense_stride[k] = (uint32) size;
		size *= (uint64) Max(keys[k]->codes->dict_count, 1);
	}
	return true;
}

/*
 * Rows through the dense array; a row with a key that has no index (NULL,
 * or not from the batch's dictionary) goes through the hash table.
 */
static int
dense_lookup(PqGroupTable *gt, const PqVector **keys, int n, int32 *gids)
{
	uint32		gen = gt->dense_gen;
	int			by_code = n;
	int			r;

	for (r = 0; r < n; r++)
	{
		uint32		at = 0;
		int			k;
		int32		g;

		for (k = 0; k < gt->nkeys; k++)
		{
			uint32		code = keys[k]->codes->codes[r];

			if (code == PQFDW_NO_CODE)
				break;
			at += code * gt->dense_stride[k];
		}
		if (k < gt->nkeys)
		{
			gids[r] = find_group(gt, keys, r);
			by_code--;
			continue;
		}
		if (gt->dense_gen_of[at] == gen)
		{
			gids[r] = gt->dense_gid[at];
			continue;
		}
		g = find_group(gt, keys, r);
		if (g >= 0)
		{
			gt->dense_gen_of[at] = gen;
			gt->dense_gid[at] = g;
		}
		gids[r] = g;
	}
	return by_code;
}

int
pqfdw_group_table_lookup(PqGroupTable *gt, const PqVector **keys, int n,
						 int32 *gids)
{
	int			rows[PQFDW_PROBE_AHEAD];
	int			r;

	if (gt->nkeys > 0 && dense_ready(gt, keys))
		return dense_lookup(gt, keys, n, gids);
	for (r = 0; r < gt->nkeys && gt->memo_on; r++)
		if (keys[r]->w != NULL)
			break;
	/* the memo holds 64-bit identities: not wide numerics */
	if (!gt->memo_on || r < gt->nkeys)
	{
		for (r = 0; r < n; r += PQFDW_PROBE_AHEAD)
		{
			int			m = Min(PQFDW_PROBE_AHEAD, n - r);
			int			i;

			for (i = 0; i < m; i++)
				rows[i] = r + i;
			find_groups(gt, keys, rows, m, gids);
		}
		return 0;
	}

	/*
	 * The memo's entries are of this batch only: its Datums' addresses.  Rows
	 * it misses go through the table PQFDW_PROBE_AHEAD at a time, then enter
	 * it (a later row of the same chunk missed it too: the table finds the
	 * group that row's predecessor added).
	 */
	gt->memo_gen++;
	for (r = 0; r < n;)
	{
		uint64		miss_ids[PQFDW_PROBE_AHEAD][PQFDW_MEMO_MAX_KEYS];
		uint32		miss_null[PQFDW_PROBE_AHEAD];
		uint32		miss_m[PQFDW_PROBE_AHEAD];
		int			nmiss = 0;
		int			i;

		for (; r < n && nmiss < PQFDW_PROBE_AHEAD; r++)
		{
			uint64	   *ids = miss_ids[nmiss];
			uint32		nullmask;
			uint32		m = identity_hash(gt, keys, r, ids, &nullmask) &
			(PQFDW_MEMO_SIZE - 1);
			uint64	   *mids = gt->memo_ids + (size_t) m * gt->nkeys;

			if (gt->memo_gen_of[m] == gt->memo_gen &&
				gt->memo_null[m] == nullmask && ids_equal(mids, ids, gt->nkeys))
				gids[r] = gt->memo_gid[m];
			else
			{
				miss_null[nmiss] = nullmask;
				miss_m[nmiss] = m;
				rows[nmiss++] = r;
			}
		}
		find_groups(gt, keys, rows, nmiss, gids);
		/* the misses enter the memo with the identities computed above */
		for (i = 0; i < nmiss; i++)
		{
			uint32		m = miss_m[i];

			gt->memo_gen_of[m] = gt->memo_gen;
			gt->memo_null[m] = miss_null[i];
			gt->memo_gid[m] = gids[rows[i]];
			memcpy(gt->memo_ids + (size_t) m * gt->nkeys, miss_ids[i],
				   sizeof(uint64) * gt->nkeys);
		}
	}
	return 0;
}

void
pqfdw_group_table_set_full(PqGroupTable *gt)
{
	gt->full = true;
}

int
pqfdw_group_table_count(PqGroupTable *gt)
{
	return gt->ngroups;
}

Datum
pqfdw_group_table_key(PqGroupTable *gt, int g, int k, bool *isnull)
{
	GroupKey   *key = &gt->keys[k];

	*isnull = key->null[g];
	if (*isnull)
		return (Datum) 0;
	if (key->kind == PQV_DATUM)
		return PointerGetDatum(cstring_to_text_with_len(key->s[g],
														key->len[g]));
	if (key->kind == PQV_DECIMAL)
		return pqfdw_unscaled_numeric(key->w[g], key->scale);
	return pqfdw_vint_datum(key->type, key->i[g]);
}

Size
pqfdw_group_table_memory(PqGroupTable *gt)
{
	return (Size) gt->capacity * (sizeof(uint32) + gt->nkeys * (sizeof(int64) + sizeof(char *) + sizeof(int32) + 1)) +
		(Size) (gt->mask + 1) * sizeof(int32) + gt->text_bytes;
}
