/*-------------------------------------------------------------------------
 *
 * bloom_filters.c
 *		Skip row groups whose Bloom filters prove that an equality or IN
 *		qual matches no row.
 *
 * Each value is turned into the PLAIN encoding the writer hashed
 * (physical_value.c) once per (re)scan; a row group is skipped when the
 * filter of the qual's column chunk has none of the hashes.  Values that no
 * stored value can equal need no hash; one without a single stored form
 * turns the filters off for the qual.  Filters are read only for row groups
 * that survived the statistics: the header, then only the 32-byte blocks
 * the probes fall in (or the whole bitset for long IN lists).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "fdw/prune/physical_value.h"
#include "fdw/prune/prune_method.h"
#include "format/metadata/bloom.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

static bool enable_bloom_pruning = true;

/*
 * What the Bloom filters look for to decide one predicate: the hashes of
 * the stored forms of its values, or one probe per branch of an OR.
 */
typedef struct PqBloomProbe
{
	bool		usable;			/* false: Bloom filters cannot decide it */
	int			nhashes;		/* 0 (usable): no value can be stored */
	uint64	   *hashes;			/* XXH64 of each value's stored form */
	struct PqBloomProbe *args;	/* PQ_PRUNE_OR: one per branch */
} PqBloomProbe;

/* BloomFilterHeader union members this reader knows */
#define PQ_BLOOM_ALGORITHM_BLOCK 1
#define PQ_BLOOM_HASH_XXHASH 1
#define PQ_BLOOM_COMPRESSION_UNCOMPRESSED 1

/* Bytes read for a header: it takes a few dozen (a longer one is corrupt). */
#define PQ_BLOOM_HEADER_PREFIX 256

/* Hashes of the stored forms of a comparison predicate's values. */
static void
probe_hashes(PqBloomProbe *probe, PqPrunePred *p, PqConverter *cv,
			 MemoryContext cxt)
{
	MemoryContext tmp;
	MemoryContext old;
	Oid		   *argtypes;
	int			nargs;
	int			k;

	/* writers do not agree on hashing booleans, nor would it pay */
	if (p->kind != PQ_PRUNE_COMPARE || p->strategy != BTEqualStrategyNumber ||
		cv == NULL || cv->node->max_rep > (p->element ? 1 : 0) ||
		cv->physical_type == PQ_BOOLEAN ||
		p->has_cast)
		return;

	/* the values' type: the right-hand argument of the order proc */
	get_func_signature(p->cmp.fn_oid, &argtypes, &nargs);
	if (nargs != 2)
		return;

	probe->usable = true;
	probe->hashes = MemoryContextAlloc(cxt,
									   sizeof(uint64) * Max(p->nvalues, 1));
	tmp = AllocSetContextCreate(CurrentMemoryContext, "parquet_fdw bloom probe",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	for (k = 0; k < p->nvalues && probe->usable; k++)
	{
		PqBytes		b;

		switch (pqfdw_value_to_physical(cv, p->values[k], argtypes[1],
										&p->cmp, p->collation, &b))
		{
			case PQ_PHYS_OK:
				probe->hashes[probe->nhashes++] =
					pq_bloom_hash_bytes(b.ptr, b.len);
				break;
			case PQ_PHYS_NO_MATCH:
				break;
			case PQ_PHYS_UNKNOWN:
				probe->usable = false;
				break;
		}
		MemoryContextReset(tmp);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
}

static void
probe_init(PqBloomProbe *probe, PqPrunePred *p, PqConverter **cvs,
		   MemoryContext cxt)
{
	int			i;

	memset(probe, 0, sizeof(*probe));
	if (p->kind != PQ_PRUNE_OR)
	{
		probe_hashes(probe, p, PQ_PRED_IS_NESTED(p) ? p->nested_cv :
					 cvs[p->attnum - 1], cxt);
		return;
	}
	probe->args = MemoryContextAllocZero(cxt, sizeof(PqBloomProbe) *
										 Max(p->nargs, 1));
	probe->usable = true;
	for (i = 0; i < p->nargs; i++)
	{
		probe_init(&probe->args[i], &p->args[i], cvs, cxt);
		probe->usable &= probe->args[i].usable;
	}
}

static PqBloomProbe *
bloom_probes_create(PqPrunePred *preds, int npreds, PqConverter **cvs,
					MemoryContext cxt)
{
	PqBloomProbe *probes = MemoryContextAlloc(cxt, sizeof(PqBloomProbe) *
											  Max(npreds, 1));
	int			i;

	for (i = 0; i < npreds; i++)
		probe_init(&probes[i], &preds[i], cvs, cxt);
	return probes;
}

/*
 * The bitset of a chunk's Bloom filter, in the current memory context; NULL
 * when the filter uses an algorithm, hash or compression we do not know.
 * Filters lie in the data area, between row groups or after all of them.
 */
/*
 * Locate a chunk's bloom filter: validate its header and return the file
 * offset and size of the bitset, false when the filter is of a kind this
 * reader does not know.  Reads only the header (with a short prefix).
 */
static bool
locate_bloom_filter(PqFile *file, const PqColumnMetaData *cm,
					int64 *bitset_offset, size_t *nbytes)
{
	int64		off = cm->bloom_filter_offset;
	int64		avail;
	size_t		want;
	size_t		hlen;
	uint8	   *buf;
	PqBloomFilterHeader h;

	if (off < 4 || off >= file->data_end)
		pq_corrupt("Bloom filter offset " INT64_FORMAT " is outside the data area [4, " INT64_FORMAT ")",
				   off, file->data_end);
	avail = file->data_end - off;
	if (cm->has_bloom_filter_length &&
		(cm->bloom_filter_length <= 0 || cm->bloom_filter_length > avail))
		pq_corrupt("Bloom filter of %d bytes at offset " INT64_FORMAT " does not fit in the data area, which ends at " INT64_FORMAT,
				   cm->bloom_filter_length, off, file->data_end);
	want = Min(avail, PQ_BLOOM_HEADER_PREFIX);
	if (cm->has_bloom_filter_length)
		want = Min(want, (size_t) cm->bloom_filter_length);

	buf = palloc(want);
	file->src->read(file->src, off, want, buf);
	hlen = pq_read_bloom_filter_header(buf, want, &h);
	if (h.algorithm != PQ_BLOOM_ALGORITHM_BLOCK ||
		h.hash != PQ_BLOOM_HASH_XXHASH ||
		h.compression != PQ_BLOOM_COMPRESSION_UNCOMPRESSED)
		return false;
	*nbytes = h.num_bytes;
	pq_bloom_validate(*nbytes);
	if (*nbytes > (size_t) avail - hlen)
		pq_corrupt("Bloom filter bitset of %zu bytes at offset " INT64_FORMAT " extends past the data area",
				   *nbytes, off + (int64) hlen);
	if (cm->has_bloom_filter_length &&
		hlen + *nbytes > (size_t) cm->bloom_filter_length)
		pq_corrupt("Bloom filter header and bitset (%zu bytes) exceed bloom_filter_length %d",
				   hlen + *nbytes, cm->bloom_filter_length);
	*bitset_offset = off + hlen;
	return true;
}

/*
 * An encrypted chunk's Bloom filter: the header module, then the bitset
 * module, both GCM.  Returns the decrypted bitset, NULL when the filter is
 * of a kind this reader does not know.
 */
static uint8 *
read_encrypted_bloom_filter(PqFile *file, const PqColumnMetaData *cm,
							const PqChunkCipher *cipher, size_t *nbytes)
{
	int64		off = cm->bloom_filter_offset;
	int64		avail;
	uint8		lenbuf[4];
	size_t		size;
	size_t		consumed;
	size_t		len;
	uint8	   *buf;
	uint8	   *plain;
	PqBloomFilterHeader h;

	if (off < 4 || off > file->data_end - 4)
		pq_corrupt("Bloom filter offset " INT64_FORMAT " is outside the data area [4, " INT64_FORMAT ")",
				   off, file->data_end);
	avail = file->data_end - off;
	file->src->read(file->src, off, 4, lenbuf);
	size = pq_chunk_module_size(cipher, PQ_MODULE_BLOOM_HEADER, lenbuf, avail);
	buf = palloc(size);
	file->src->read(file->src, off, size, buf);
	plain = pq_chunk_decrypt(cipher, PQ_MODULE_BLOOM_HEADER, 0, buf, size,
							 &consumed, &len);
	(void) pq_read_bloom_filter_header(plain, len, &h);
	if (h.algorithm != PQ_BLOOM_ALGORITHM_BLOCK ||
		h.hash != PQ_BLOOM_HASH_XXHASH ||
		h.compression != PQ_BLOOM_COMPRESSION_UNCOMPRESSED)
		return NULL;
	*nbytes = h.num_bytes;
	pq_bloom_validate(*nbytes);
	off += size;
	avail -= size;
	if (*nbytes + PQ_GCM_OVERHEAD > (size_t) avail)
		pq_corrupt("encrypted Bloom filter bitset of %zu bytes at offset " INT64_FORMAT " extends past the data area",
				   *nbytes, off);
	size = *nbytes + PQ_GCM_OVERHEAD;
	buf = palloc_extended(size, MCXT_ALLOC_HUGE);
	file->src->read(file->src, off, size, buf);
	plain = pq_chunk_decrypt(cipher, PQ_MODULE_BLOOM_BITSET, 0, buf, size,
							 &consumed, &len);
	if (consumed != size || len != *nbytes)
		pq_corrupt("encrypted Bloom filter bitset does not hold the %zu bytes its header gives",
				   *nbytes);
	return plain;
}

/* May the chunk of column leaf in row_group hold one of the probe's values? */
static bool
chunk_may_match(const PqBloomProbe *probe, PqFile *file, int row_group,
				int leaf)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[leaf];
	const PqColumnMetaData *cm = &cc->meta_data;
	const PqColumnDescr *col = &file->schema->columns[leaf];
	const PqChunkCipher *cipher = NULL;
	MemoryContext tmp;
	MemoryContext old;
	int64		bitset_offset;
	size_t		nbytes;
	bool		match = false;
	PqErrorLocation loc;
	int			k;

	/* the column reader reports chunks it cannot read */
	if (cc->file_path != NULL)
		return true;
	if (cc->crypto_metadata.kind != PQ_CRYPTO_NONE)
	{
		/* decrypted metadata; the column is read anyway, so its key too */
		cm = pq_file_chunk_meta(file, row_group, leaf);
		cipher = pq_file_chunk_cipher(file, row_group, leaf);
	}
	else if (!cc->has_meta_data)
		return true;
	if (!cm->has_bloom_filter_offset || cm->type != col->physical_type)
		return true;
	if (probe->nhashes == 0)
		return false;

	pq_errloc_push(&loc, file->src->name);
	loc.row_group = row_group;
	loc.column = col->path;
	tmp = AllocSetContextCreate(CurrentMemoryContext, "parquet_fdw bloom filter",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(tmp);
	if (cipher)
	{
		uint8	   *bitset = read_encrypted_bloom_filter(file, cm, cipher, &nbytes);

		match = bitset == NULL;
		for (k = 0; bitset && k < probe->nhashes && !match; k++)
			match = pq_bloom_check(bitset, nbytes, probe->hashes[k]);
	}
	else if (!locate_bloom_filter(file, cm, &bitset_offset, &nbytes))
		match = true;
	else if ((size_t) probe->nhashes * PQ_BLOOM_BLOCK_BYTES * 4 >= nbytes)
	{
		/* many probes: read the whole bitset once */
		uint8	   *bitset = palloc_extended(nbytes, MCXT_ALLOC_HUGE);

		file->src->read(file->src, bitset_offset, nbytes, bitset);
		for (k = 0; k < probe->nhashes && !match; k++)
			match = pq_bloom_check(bitset, nbytes, probe->hashes[k]);
	}
	else
	{
		/* few probes: each needs only its 32-byte block */
		size_t		nblocks = nbytes / PQ_BLOOM_BLOCK_BYTES;
		uint8		block[PQ_BLOOM_BLOCK_BYTES];

		for (k = 0; k < probe->nhashes && !match; k++)
		{
			size_t		b = pq_bloom_block(probe->hashes[k], nblocks);

			file->src->read(file->src, bitset_offset + (int64) b * PQ_BLOOM_BLOCK_BYTES,
							PQ_BLOOM_BLOCK_BYTES, block);
			match = pq_bloom_check_block(block, probe->hashes[k]);
		}
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
	pq_errloc_pop(&loc);
	return match;
}

static bool
pred_may_match(PqPrunePred *p, const PqBloomProbe *probe, PqFile *file,
			   int row_group, const int *leaf)
{
	int			i;

	if (!probe->usable)
		return true;
	if (p->kind != PQ_PRUNE_OR)
	{
		int			c = PQ_PRED_IS_NESTED(p) ? p->nested_leaf :
		leaf[p->attnum - 1];

		return c < 0 || chunk_may_match(probe, file, row_group, c);
	}
	for (i = 0; i < p->nargs; i++)
		if (pred_may_match(&p->args[i], &probe->args[i], file, row_group, leaf))
			return true;
	return false;
}

static bool
bloom_exclude(PqPruner *pr, int i, const PqPruneTarget *t, void *arg)
{
	const PqBloomProbe *probes = arg;

	return !pred_may_match(&pr->preds[i], &probes[i], t->file, t->row_group,
						   t->att_leaf);
}

/* The values' hashes, made once per (re)scan, or per file under union_by_name */
static void
bloom_check(PqPruner *pr, const PqPruneTarget *t, PqPruneMethodState *ms,
			PqPruneVerdict *v)
{
	PqBloomProbe *probes = ms->state;

	/* under union_by_name a column's physical type may change per file */
	if (t->union_by_name && ms->file != t->file_index)
		probes = NULL;
	ms->file = t->file_index;
	if (probes == NULL)
	{
		probes = bloom_probes_create(pr->preds, pr->npreds, t->att_cv,
									 pr->value_cxt);
		ms->state = probes;
	}
	pqfdw_prune_by_predicate(pr, t, bloom_exclude, probes, v);
}

const PqPruneMethod pqfdw_prune_bloom = {
	.explain = "Row Groups Pruned by Bloom Filter",
	.guc = "parquet_fdw.enable_bloom_pruning",
	.guc_description = "Skips row groups whose Bloom filters rule out every value of an equality or IN.",
	.enabled = &enable_bloom_pruning,
	.check = bloom_check,
};
