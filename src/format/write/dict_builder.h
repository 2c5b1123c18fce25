/*-------------------------------------------------------------------------
 *
 * dict_builder.h
 *		Distinct values of a column chunk: the dictionary being built for
 *		dictionary encoding, and a set of 64-bit hashes for Bloom filters.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_DICT_BUILDER_H
#define PQ_DICT_BUILDER_H

#include "format/common/pq_common.h"

/*
 * Dictionary of one chunk.  The entries are kept in their PLAIN encoding,
 * in insertion order, so the buffer is the dictionary page as is.
 */
typedef struct PqDictBuilder
{
	int			width;			/* bytes per fixed-width value; 0 for
								 * BYTE_ARRAY */
	PqBuffer	plain;			/* the entries, PLAIN encoded */
	uint32	   *offsets;		/* entry -> its offset in plain */
	int			n_entries;
	int			cap_entries;
	uint32	   *slots;			/* open addressing: entry + 1, 0 if empty */
	uint32	   *slot_hash;		/* high hash bits of the slot's entry */
	uint64	   *slot_key;		/* widths 4 and 8: the slot's value */
	uint32		mask;			/* number of slots - 1 */
} PqDictBuilder;

extern void pq_dict_init(PqDictBuilder *d, int width);
extern void pq_dict_reset(PqDictBuilder *d);

/*
 * Look up n values, adding the new ones, and store their entry numbers in
 * ids.  fixed holds n values of d->width bytes; ba n byte arrays.
 */
extern void pq_dict_insert_fixed(PqDictBuilder *d, const uint8 *fixed, int n,
								 uint32 *ids);
extern void pq_dict_insert_bytes(PqDictBuilder *d, const PqByteArray *ba,
								 int n, uint32 *ids);

/* Entry i: its value bytes (without PLAIN's length prefix). */
static inline const uint8 *
pq_dict_entry(const PqDictBuilder *d, int i, uint32 *len)
{
	const uint8 *p = d->plain.data + d->offsets[i];

	if (d->width > 0)
	{
		*len = (uint32) d->width;
		return p;
	}
	*len = pq_load_le32(p);
	return p + 4;
}

/* Set of 64-bit hashes (the Bloom filter hashes of a chunk's values). */
typedef struct PqHashSet64
{
	uint64	   *slots;			/* 0 = empty; the hash 0 is has_zero */
	uint32		mask;
	int64		count;
	bool		has_zero;
} PqHashSet64;

extern void pq_hashset_init(PqHashSet64 *h);
extern void pq_hashset_reset(PqHashSet64 *h);
extern void pq_hashset_add(PqHashSet64 *h, uint64 v);

#endif							/* PQ_DICT_BUILDER_H */
