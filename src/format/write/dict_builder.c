/*-------------------------------------------------------------------------
 *
 * dict_builder.c
 *		Hash tables of distinct values for the writer: dictionary entries
 *		and Bloom filter hashes.
 *
 * Both are open-addressing tables with linear probing, kept at most half
 * full, and reset (not freed) between column chunks so a file reuses one
 * allocation per column.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

/* inlined: a call per short string was 5% of writing low-cardinality text */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "format/common/pq_common.h"
#include "format/write/dict_builder.h"
#include "utils/memutils.h"

#define DICT_INITIAL_SLOTS 1024

/* Mixes a 64-bit value so that its low bits are usable as a slot number. */
static inline uint64
mix64(uint64 x)
{
	x ^= x >> 33;
	x *= UINT64CONST(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64CONST(0xc4ceb9fe1a85ec53);
	x ^= x >> 33;
	return x;
}

static inline uint64
hash_value(const uint8 *v, uint32 len, int width)
{
	if (width == 4)
		return mix64(pq_load_le32(v));
	if (width == 8)
		return mix64(pq_load_le64(v));
	return (uint64) XXH3_64bits(v, len);
}

/*
 * memcmp() == 0 of len bytes.  Up to 16 bytes, two overlapping loads
 * compare them: short strings (flags, modes, codes) are what dictionaries
 * hold, and a call to memcmp was a tenth of writing them.
 */
static inline bool
bytes_equal(const uint8 *a, const uint8 *b, uint32 len)
{
	if (len >= 8 && len <= 16)
		return pq_load_le64(a) == pq_load_le64(b) &&
			pq_load_le64(a + len - 8) == pq_load_le64(b + len - 8);
	if (len >= 4 && len < 8)
		return pq_load_le32(a) == pq_load_le32(b) &&
			pq_load_le32(a + len - 4) == pq_load_le32(b + len - 4);
	if (len < 4)
	{
		uint32		i;

		for (i = 0; i < len; i++)
			if (a[i] != b[i])
				return false;
		return true;
	}
	return memcmp(a, b, len) == 0;
}

/* bytes_equal(), with the common fixed widths as plain loads */
static inline bool
values_equal(const uint8 *a, const uint8 *b, uint32 len, int width)
{
	if (width == 4)
		return pq_load_le32(a) == pq_load_le32(b);
	if (width == 8)
		return pq_load_le64(a) == pq_load_le64(b);
	return bytes_equal(a, b, len);
}

/*
 * 4- and 8-byte values are kept in their slots too, so that a probe reads
 * one array instead of the slot, its entry's offset and the entry.
 */
static inline bool
key_width(int width)
{
	return width == 4 || width == 8;
}

static inline uint64
load_key(const uint8 *v, int width)
{
	return width == 4 ? pq_load_le32(v) : pq_load_le64(v);
}

void
pq_dict_init(PqDictBuilder *d, int width)
{
	d->width = width;
	pq_buffer_init(&d->plain, 4096);
	d->cap_entries = 256;
	d->offsets = palloc(sizeof(uint32) * d->cap_entries);
	d->n_entries = 0;
	d->mask = DICT_INITIAL_SLOTS - 1;
	d->slots = palloc0(sizeof(uint32) * DICT_INITIAL_SLOTS);
	d->slot_hash = palloc(sizeof(uint32) * DICT_INITIAL_SLOTS);
	d->slot_key = key_width(width) ?
		palloc(sizeof(uint64) * DICT_INITIAL_SLOTS) : NULL;
}

void
pq_dict_reset(PqDictBuilder *d)
{
	pq_buffer_reset(&d->plain);
	d->n_entries = 0;
	memset(d->slots, 0, sizeof(uint32) * ((size_t) d->mask + 1));
}

/* Double the slots and re-insert every entry. */
static void
dict_grow(PqDictBuilder *d)
{
	uint32		nslots = (d->mask + 1) * 2;
	int			i;

	if (nslots > (uint32) (MaxAllocSize / sizeof(uint32)))
		elog(ERROR, "dictionary of %d entries is too large", d->n_entries);
	pfree(d->slots);
	pfree(d->slot_hash);
	d->slots = palloc0(sizeof(uint32) * nslots);
	d->slot_hash = palloc(sizeof(uint32) * nslots);
	if (d->slot_key != NULL)
	{
		pfree(d->slot_key);
		d->slot_key = palloc(sizeof(uint64) * nslots);
	}
	d->mask = nslots - 1;
	for (i = 0; i < d->n_entries; i++)
	{
		uint32		len;
		const uint8 *v = pq_dict_entry(d, i, &len);
		uint64		h = hash_value(v, len, d->width);
		uint32		s = (uint32) h & d->mask;

		while (d->slots[s] != 0)
			s = (s + 1) & d->mask;
		d->slots[s] = (uint32) i + 1;
		d->slot_hash[s] = (uint32) (h >> 32);
		if (d->slot_key != NULL)
			d->slot_key[s] = load_key(v, d->width);
	}
}

/* A new entry for v, in the empty slot s. */
static uint32
dict_add(PqDictBuilder *d, const uint8 *v, uint32 len, uint64 h, uint32 s)
{
	uint32		id;

	if (d->n_entries == PG_INT32_MAX)
		elog(ERROR, "too many dictionary entries");
	if (d->n_entries == d->cap_entries)
	{
		d->cap_entries *= 2;
		d->offsets = repalloc_huge(d->offsets,
								   sizeof(uint32) * (size_t) d->cap_entries);
	}
	if (d->plain.len + 4 + len > PG_UINT32_MAX)
		elog(ERROR, "dictionary exceeds 4 GB");
	id = (uint32) d->n_entries++;
	d->offsets[id] = (uint32) d->plain.len;
	if (d->width == 0)
	{
		uint8		prefix[4];

		pq_store_le32(prefix, len);
		pq_buffer_append(&d->plain, prefix, 4);
	}
	pq_buffer_append(&d->plain, v, len);
	d->slots[s] = id + 1;
	d->slot_hash[s] = (uint32) (h >> 32);
	if (d->slot_key != NULL)
		d->slot_key[s] = load_key(v, d->width);
	if ((uint32) d->n_entries * 2 > d->mask)
		dict_grow(d);
	return id;
}

static uint32
dict_lookup(PqDictBuilder *d, const uint8 *v, uint32 len, uint64 h)
{
	uint32		tag = (uint32) (h >> 32);
	uint32		s = (uint32) h & d->mask;

	for (;;)
	{
		uint32		e = d->slots[s];
		uint32		elen;
		const uint8 *ev;

		if (e == 0)
			break;
		if (d->slot_hash[s] == tag)
		{
			ev = pq_dict_entry(d, (int) e - 1, &elen);
			if (elen == len && values_equal(ev, v, len, d->width))
				return e - 1;
		}
		s = (s + 1) & d->mask;
	}
	return dict_add(d, v, len, h, s);
}

/* dict_lookup() of a 4- or 8-byte value */
static inline uint32
dict_lookup_key(PqDictBuilder *d, const uint8 *v, uint64 h)
{
	uint64		key = load_key(v, d->width);
	uint32		s = (uint32) h & d->mask;

	for (;;)
	{
		uint32		e = d->slots[s];

		if (e == 0)
			break;
		if (d->slot_key[s] == key)
			return e - 1;
		s = (s + 1) & d->mask;
	}
	return dict_add(d, v, (uint32) d->width, h, s);
}

/*
 * Values are looked up DICT_CHUNK at a time: their hashes first, with the
 * slots they start at prefetched, then the probes, which a dictionary
 * larger than the cache would otherwise wait on one by one.  A value equal
 * to the one before it takes its id without a lookup: sorted columns come
 * in runs.
 */
#define DICT_CHUNK 32

static inline void
prefetch_slot(const PqDictBuilder *d, uint64 h)
{
	uint32		s = (uint32) h & d->mask;

	__builtin_prefetch(&d->slots[s]);
	if (d->slot_key != NULL)
		__builtin_prefetch(&d->slot_key[s]);
	else
		__builtin_prefetch(&d->slot_hash[s]);
}

void
pq_dict_insert_fixed(PqDictBuilder *d, const uint8 *fixed, int n, uint32 *ids)
{
	uint64		h[DICT_CHUNK];
	bool		same[DICT_CHUNK];
	int			w = d->width;
	int			at;
	int			i;

	for (at = 0; at < n; at += DICT_CHUNK)
	{
		int			m = Min(DICT_CHUNK, n - at);

		for (i = 0; i < m; i++)
		{
			const uint8 *v = fixed + (size_t) (at + i) * w;

			same[i] = at + i > 0 && values_equal(v, v - w, w, w);
			if (!same[i])
			{
				h[i] = hash_value(v, w, w);
				prefetch_slot(d, h[i]);
			}
		}
		if (d->slot_key != NULL)
			for (i = 0; i < m; i++)
				ids[at + i] = same[i] ? ids[at + i - 1] :
					dict_lookup_key(d, fixed + (size_t) (at + i) * w, h[i]);
		else
			for (i = 0; i < m; i++)
				ids[at + i] = same[i] ? ids[at + i - 1] :
					dict_lookup(d, fixed + (size_t) (at + i) * w, w, h[i]);
	}
}

void
pq_dict_insert_bytes(PqDictBuilder *d, const PqByteArray *ba, int n,
					 uint32 *ids)
{
	uint64		h[DICT_CHUNK];
	bool		same[DICT_CHUNK];
	int			at;
	int			i;

	for (at = 0; at < n; at += DICT_CHUNK)
	{
		int			m = Min(DICT_CHUNK, n - at);

		for (i = 0; i < m; i++)
		{
			const PqByteArray *v = &ba[at + i];

			same[i] = at + i > 0 && v->len == v[-1].len &&
				(v->len == 0 || bytes_equal(v->ptr, v[-1].ptr, v->len));
			if (!same[i])
			{
				h[i] = hash_value(v->len > 0 ? v->ptr : (const uint8 *) "",
								  v->len, d->width);
				prefetch_slot(d, h[i]);
			}
		}
		for (i = 0; i < m; i++)
			ids[at + i] = same[i] ? ids[at + i - 1] :
				dict_lookup(d, ba[at + i].len > 0 ? ba[at + i].ptr :
							(const uint8 *) "", ba[at + i].len, h[i]);
	}
}

/* ---- hash set ---- */

void
pq_hashset_init(PqHashSet64 *h)
{
	h->mask = DICT_INITIAL_SLOTS - 1;
	h->slots = palloc0(sizeof(uint64) * DICT_INITIAL_SLOTS);
	h->count = 0;
	h->has_zero = false;
}

void
pq_hashset_reset(PqHashSet64 *h)
{
	memset(h->slots, 0, sizeof(uint64) * ((size_t) h->mask + 1));
	h->count = 0;
	h->has_zero = false;
}

static void
hashset_put(uint64 *slots, uint32 mask, uint64 v)
{
	uint32		s = (uint32) mix64(v) & mask;

	while (slots[s] != 0)
		s = (s + 1) & mask;
	slots[s] = v;
}

void
pq_hashset_add(PqHashSet64 *h, uint64 v)
{
	uint32		s;

	if (v == 0)
	{
		h->count += h->has_zero ? 0 : 1;
		h->has_zero = true;
		return;
	}
	s = (uint32) mix64(v) & h->mask;
	while (h->slots[s] != 0)
	{
		if (h->slots[s] == v)
			return;
		s = (s + 1) & h->mask;
	}
	h->slots[s] = v;
	h->count++;
	if ((uint64) h->count * 2 > h->mask)
	{
		uint32		nslots = (h->mask + 1) * 2;
		uint64	   *slots;
		uint32		i;

		if (nslots > (uint32) (MaxAllocHugeSize / sizeof(uint64)))
			elog(ERROR, "too many distinct values for a Bloom filter");
		slots = palloc_extended(sizeof(uint64) * nslots,
								MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		for (i = 0; i <= h->mask; i++)
			if (h->slots[i] != 0)
				hashset_put(slots, nslots - 1, h->slots[i]);
		pfree(h->slots);
		h->slots = slots;
		h->mask = nslots - 1;
	}
}
