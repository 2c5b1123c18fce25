/*-------------------------------------------------------------------------
 *
 * distinct.c
 *		DISTINCT aggregates of grouped scans: a set of (group, value) pairs
 *		in front of each aggregate's states, and the pairs past hash_mem
 *		deduplicated through temporary files (distinct.h).
 *
 * PostgreSQL sorts each group's values and feeds the distinct ones in
 * order; the states here see them in file order instead, so only
 * aggregates whose result does not depend on the order qualify: count,
 * integer and numeric sum and avg (exact), min and max.  Float sums and
 * averages stay PostgreSQL's.
 *
 * A pair the full set does not hold is written, with its state, to one of
 * PQFDW_SPILL_PARTS files by its hash; every row of that pair goes to the
 * same file, and none reached a state.  Each file is then read into a new
 * set (which may spill again, by the next bits of the hash), so that each
 * pair reaches its state once.  The groups of those states stay in memory
 * until then: only pairs of groups in memory are written here (rows of the
 * others are in the grouped scan's own spill, with their values).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "fdw/pushdown/dict_seen.h"
#include "fdw/pushdown/distinct.h"
#include "fdw/pushdown/spill.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

#include <xxhash.h>

/*
 * A pair: the state's slot and the value, in 64-bit halves (not an int128,
 * whose alignment would make entries 48 bytes instead of 32), text by
 * address (lo) and length.
 */
typedef struct DistinctKey
{
	int64		lo;
	int64		hi;
	int32		slot;
	int32		len;			/* text: its bytes; -1 for other values */
} DistinctKey;

typedef struct DistinctEntry
{
	DistinctKey key;
	uint32		hash;
	char		status;
} DistinctEntry;

static inline bool
key_equal(const DistinctKey *a, const DistinctKey *b)
{
	if (a->slot != b->slot || a->len != b->len)
		return false;
	if (a->len < 0)
		return a->lo == b->lo && a->hi == b->hi;
	return memcmp((const char *) (uintptr_t) a->lo,
				  (const char *) (uintptr_t) b->lo, a->len) == 0;
}

static inline uint32
hash_u64(uint64 x)
{
	return murmurhash32((uint32) x ^ murmurhash32((uint32) (x >> 32)));
}

static inline uint32
key_hash(const DistinctKey *k)
{
	uint32		h;

	if (k->len >= 0)
		h = (uint32) XXH3_64bits((const void *) (uintptr_t) k->lo, k->len);
	else
		h = hash_u64((uint64) k->lo ^ hash_u64((uint64) k->hi));
	return hash_combine(h, murmurhash32((uint32) k->slot));
}

#define SH_PREFIX dset
#define SH_ELEMENT_TYPE DistinctEntry
#define SH_KEY_TYPE DistinctKey
#define SH_KEY key
#define SH_HASH_KEY(tb, k) key_hash(&(k))
#define SH_EQUAL(tb, a, b) key_equal(&(a), &(b))
#define SH_GET_HASH(tb, a) a->hash
#define SH_STORE_HASH
#define SH_SCOPE static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

struct PqDistinct
{
	Oid			type;
	PqVKind		kind;
	int			batch_rows;
	int			scale;			/* numeric: of the values spilled */
	Size		mem_limit;
	MemoryContext cxt;

	/* the set of the current pass: the input, then each file */
	MemoryContext set_cxt;
	dset_hash  *set;
	bool		full;
	int			level;			/* of the hash bits the next spill uses */

	PqVector	out;			/* the masked vector handed out */
	bool	   *out_nulls;
	int32	   *slot_buf;		/* states of pairs read back */

	/* pairs written: the current pass's files, and those to read */
	PqSpill    *spill;
	List	   *pending;		/* PqSpillPart * */
	PqSpillReader *reader;
	bool		reading;
	int64		spilled_rows;
	int64		spilled_bytes;

	/* without groups: the indices of the current dictionary met */
	PqDictSeen	seen;

	/* the slots of rows to spill, as a vector */
	PqVector	slot_vec;
	int64	   *slot64;
};

bool
pqfdw_distinct_supported(Aggref *agg)
{
	SortGroupClause *sgc;
	Oid			type;
	PqVKind		kind;

	if (list_length(agg->aggdistinct) != 1 || list_length(agg->args) != 1 ||
		agg->aggsplit != AGGSPLIT_SIMPLE)
		return false;
	sgc = linitial_node(SortGroupClause, agg->aggdistinct);
	type = exprType((Node *) linitial_node(TargetEntry, agg->args)->expr);
	if (!pqfdw_vkind_of(type, &kind) ||
		sgc->eqop != lookup_type_cache(type, TYPECACHE_EQ_OPR)->eq_opr)
		return false;
	if (kind == PQV_DATUM &&
		(!OidIsValid(agg->inputcollid) ||
		 !get_collation_isdeterministic(agg->inputcollid)))
		return false;
	switch (agg->aggfnoid)
	{
		case F_SUM_FLOAT4:
		case F_SUM_FLOAT8:
		case F_AVG_FLOAT4:
		case F_AVG_FLOAT8:
			/* rounding depends on the order of the values */
			return false;
		default:
			return true;
	}
}

static void
new_set(PqDistinct *d)
{
	MemoryContextReset(d->set_cxt);
	d->set = dset_create(d->set_cxt, 1024, NULL);
	d->full = false;
}

PqDistinct *
pqfdw_distinct_create(Oid type, int batch_rows, MemoryContext cxt)
{
	PqDistinct *d = MemoryContextAllocZero(cxt, sizeof(PqDistinct));

	d->type = type;
	if (!pqfdw_vkind_of(type, &d->kind))
		elog(ERROR, "DISTINCT aggregate over type %u in a grouped scan", type);
	d->batch_rows = batch_rows;
	d->mem_limit = get_hash_memory_limit();
	d->cxt = cxt;
	d->set_cxt = AllocSetContextCreate(cxt, "parquet_fdw distinct values",
									   ALLOCSET_DEFAULT_SIZES);
	d->out_nulls = MemoryContextAlloc(cxt, sizeof(bool) * batch_rows);
	d->slot_buf = MemoryContextAlloc(cxt, sizeof(int32) * batch_rows);
	d->slot64 = MemoryContextAlloc(cxt, sizeof(int64) * batch_rows);
	d->slot_vec.kind = PQV_INT;
	d->slot_vec.type = INT4OID;
	d->slot_vec.i = d->slot64;
	d->slot_vec.nulls = MemoryContextAllocZero(cxt, sizeof(bool) * batch_rows);
	new_set(d);
	return d;
}

void
pqfdw_distinct_set_full(PqDistinct *d)
{
	d->full = true;
}

/* Row r's pair (text pointing into the row's value). */
static inline void
row_key(const PqVector *arg, int r, int32 slot, DistinctKey *k)
{
	k->slot = slot;
	k->len = -1;
	k->hi = 0;
	switch (arg->kind)
	{
		case PQV_INT:
			k->lo = arg->i[r];
			break;
		case PQV_DECIMAL:
			{
				int128		x = pqfdw_vdecimal(arg, r);

				k->lo = (int64) x;
				k->hi = (int64) (x >> 64);
				break;
			}
		case PQV_FLOAT4:
		case PQV_FLOAT8:
			{
				double		x = arg->d[r];
				int64		bits;

				/* float8eq: -0 = 0 and every NaN equal */
				if (x == 0)
					x = 0;
				else if (isnan(x))
					x = get_float8_nan();
				memcpy(&bits, &x, sizeof(bits));
				k->lo = bits;
				break;
			}
		default:
			{
				Pointer		t = DatumGetPointer(arg->p[r]);

				k->len = VARSIZE_ANY_EXHDR(t);
				k->lo = (uintptr_t) VARDATA_ANY(t);
				break;
			}
	}
}

/*
 * Whether row r's pair is new (to reach the state); a new pair the full
 * set cannot take is written to the pass's files instead.
 */
static bool
take_pair_hashed(PqDistinct *d, const PqVector *arg, int r, DistinctKey k,
				 uint32 h, bool may_spill)
{
	int32		slot = k.slot;
	DistinctEntry *e;
	bool		found;

	if (d->full && may_spill)
	{
		if (dset_lookup_hash(d->set, k, h) != NULL)
			return false;
		if (d->spill == NULL)
		{
			d->spill = MemoryContextAllocZero(d->cxt, sizeof(PqSpill));
			d->spill->level = d->level;
		}
		d->slot64[r] = slot;
		{
			const PqVector *vecs[2] = {&d->slot_vec, arg};

			pqfdw_spill_row(d->spill, vecs, 2, r, h);
		}
		d->scale = arg->scale;
		d->spilled_rows++;
		return false;
	}
	e = dset_insert_hash(d->set, k, h, &found);
	if (found)
		return false;
	if (k.len >= 0)
	{
		char	   *copy = MemoryContextAlloc(d->set_cxt, Max(k.len, 1));

		memcpy(copy, (const char *) (uintptr_t) k.lo, k.len);
		e->key.lo = (uintptr_t) copy;
	}
	return true;
}

static bool
take_pair(PqDistinct *d, const PqVector *arg, int r, int32 slot,
		  bool may_spill)
{
	DistinctKey k;

	row_key(arg, r, slot, &k);
	return take_pair_hashed(d, arg, r, k, key_hash(&k), may_spill);
}

/*
 * Rows take their pairs PQFDW_DISTINCT_AHEAD at a time: keys and hashes
 * first, each bucket prefetched, then the lookups, whose cache misses (a
 * set of a million pairs is tens of MB) overlap.  Row r's state is
 * slots[r] (slots NULL: 0); with spilled_groups, state 0 is a row the
 * grouped scan spilled, masked here.  masked[r]: not the pair's first row.
 */
#define PQFDW_DISTINCT_AHEAD 32

static void
take_pairs(PqDistinct *d, const int32 *slots, bool spilled_groups, int n,
		   const PqVector *arg, bool may_spill, bool *masked)
{
	DistinctKey k[PQFDW_DISTINCT_AHEAD];
	uint32		h[PQFDW_DISTINCT_AHEAD];
	int			rows[PQFDW_DISTINCT_AHEAD];
	int			r = 0;

	while (r < n)
	{
		int			m = 0;
		int			i;

		for (; r < n && m < PQFDW_DISTINCT_AHEAD; r++)
		{
			int32		slot = slots ? slots[r] : 0;

			masked[r] = true;
			if (arg->nulls[r] || (spilled_groups && slot == 0))
				continue;
			row_key(arg, r, slot, &k[m]);
			h[m] = key_hash(&k[m]);
			__builtin_prefetch(&d->set->data[h[m] & d->set->sizemask]);
			rows[m++] = r;
		}
		for (i = 0; i < m; i++)
			masked[rows[i]] = !take_pair_hashed(d, arg, rows[i], k[i], h[i],
												may_spill);
	}
}

/*
 * Without groups, a value with a dictionary index: only the first row of
 * each index in a dictionary needs the set (the others share its value).
 */
static bool
code_seen(PqDistinct *d, const PqBatchCodes *bc, int r)
{
	uint32		code = bc->codes[r];
	bool	   *seen;

	if (code == PQFDW_NO_CODE)
		return false;
	seen = pqfdw_dict_seen(&d->seen, bc, d->cxt);
	if (seen[code])
		return true;
	seen[code] = true;
	return false;
}

const PqVector *
pqfdw_distinct_filter(PqDistinct *d, const int32 *slots, int n,
					  const PqVector *arg)
{
	const PqBatchCodes *bc = arg->codes;
	int			r;

	d->out = *arg;
	if (slots == NULL && bc != NULL && bc->dict_id != 0)
	{
		for (r = 0; r < n; r++)
			d->out_nulls[r] = arg->nulls[r] || code_seen(d, bc, r) ||
				!take_pair(d, arg, r, 0, true);
		d->out.nulls = d->out_nulls;
		return &d->out;
	}
	take_pairs(d, slots, slots != NULL, n, arg, true, d->out_nulls);
	d->out.nulls = d->out_nulls;
	return &d->out;
}

/* The files written during the pass join those to read. */
static void
end_pass(PqDistinct *d)
{
	int			p;

	if (d->spill == NULL)
		return;
	for (p = 0; p < PQFDW_SPILL_PARTS; p++)
		if (d->spill->parts[p].file != NULL)
		{
			PqSpillPart *part = MemoryContextAlloc(d->cxt, sizeof(PqSpillPart));

			*part = d->spill->parts[p];
			d->pending = lappend(d->pending, part);
		}
	d->spilled_bytes += d->spill->bytes;
	pfree(d->spill);
	d->spill = NULL;
}

bool
pqfdw_distinct_next(PqDistinct *d, const int32 **slots, const PqVector **arg,
					int *n)
{
	for (;;)
	{
		int			got;
		int			r;
		const PqVector *v;
		bool		may_spill;

		if (!d->reading)
		{
			MemoryContext old;
			PqSpillPart *part;

			end_pass(d);
			if (d->pending == NIL)
				return false;
			part = linitial(d->pending);
			d->pending = list_delete_first(d->pending);
			if (d->reader == NULL)
			{
				Oid			types[2] = {INT4OID, d->type};

				d->reader = pqfdw_spill_reader_create(2, types, d->batch_rows,
													  d->cxt);
			}
			pqfdw_spill_reader_start(d->reader, *part);
			d->level = part->level + 1;
			old = MemoryContextSwitchTo(d->cxt);
			new_set(d);
			MemoryContextSwitchTo(old);
			d->reading = true;
		}
		CHECK_FOR_INTERRUPTS();
		got = pqfdw_spill_reader_next(d->reader);
		if (got == 0)
		{
			d->reading = false;
			continue;
		}
		v = &d->reader->vecs[1];
		d->reader->vecs[1].scale = d->scale;
		may_spill = d->level < PQFDW_SPILL_MAX_LEVEL;
		if (!d->full && may_spill &&
			MemoryContextMemAllocated(d->set_cxt, true) > d->mem_limit)
			d->full = true;
		d->out = *v;
		for (r = 0; r < got; r++)
			d->slot_buf[r] = (int32) d->reader->vecs[0].i[r];
		take_pairs(d, d->slot_buf, false, got, v, may_spill, d->out_nulls);
		d->out.nulls = d->out_nulls;
		*slots = d->slot_buf;
		*arg = &d->out;
		*n = got;
		return true;
	}
}

int64
pqfdw_distinct_spilled_rows(PqDistinct *d)
{
	return d->spilled_rows;
}

int64
pqfdw_distinct_spilled_bytes(PqDistinct *d)
{
	return d->spilled_bytes + (d->spill ? d->spill->bytes : 0);
}
