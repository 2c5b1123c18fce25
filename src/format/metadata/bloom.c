/*-------------------------------------------------------------------------
 *
 * bloom.c
 *		Parquet split-block Bloom filters, as in the format's
 *		BloomFilter.md.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <xxhash.h>

#include "format/metadata/bloom.h"

/* Odd constants mapping the low 32 hash bits to one bit per word. */
static const uint32 pq_bloom_salt[8] = {
	0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
	0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U
};

uint64
pq_bloom_hash_bytes(const uint8 *data, size_t len)
{
	return (uint64) XXH64(data, len, 0);
}

uint64
pq_bloom_hash_int32(int32 value)
{
	uint8		buf[4];

	pq_store_le32(buf, (uint32) value);
	return pq_bloom_hash_bytes(buf, sizeof(buf));
}

uint64
pq_bloom_hash_int64(int64 value)
{
	uint8		buf[8];

	pq_store_le64(buf, (uint64) value);
	return pq_bloom_hash_bytes(buf, sizeof(buf));
}

uint64
pq_bloom_hash_float(float4 value)
{
	uint32		bits;
	uint8		buf[4];

	memcpy(&bits, &value, sizeof(bits));
	pq_store_le32(buf, bits);
	return pq_bloom_hash_bytes(buf, sizeof(buf));
}

uint64
pq_bloom_hash_double(float8 value)
{
	uint64		bits;
	uint8		buf[8];

	memcpy(&bits, &value, sizeof(bits));
	pq_store_le64(buf, bits);
	return pq_bloom_hash_bytes(buf, sizeof(buf));
}

void
pq_bloom_validate(size_t nbytes)
{
	if (nbytes == 0 || nbytes % PQ_BLOOM_BLOCK_BYTES != 0 ||
		nbytes > PQ_BLOOM_MAX_BYTES)
		pq_corrupt("invalid Bloom filter size %zu bytes (must be a positive multiple of %d up to %zu)",
				   nbytes, PQ_BLOOM_BLOCK_BYTES, PQ_BLOOM_MAX_BYTES);
}

/* The block a hash falls in: its upper 32 bits scaled to the block count. */
size_t
pq_bloom_block(uint64 hash, size_t nblocks)
{
	return (size_t) (((hash >> 32) * (uint64) nblocks) >> 32);
}

bool
pq_bloom_check_block(const uint8 *block, uint64 hash)
{
	uint32		key = (uint32) hash;
	int			i;

	for (i = 0; i < 8; i++)
	{
		uint32		mask = (uint32) 1 << ((key * pq_bloom_salt[i]) >> 27);

		if ((pq_load_le32(block + i * 4) & mask) == 0)
			return false;
	}
	return true;
}

bool
pq_bloom_check(const uint8 *bitset, size_t nbytes, uint64 hash)
{
	size_t		nblocks = nbytes / PQ_BLOOM_BLOCK_BYTES;

	if (nblocks == 0)
		return true;
	return pq_bloom_check_block(bitset + pq_bloom_block(hash, nblocks) *
								PQ_BLOOM_BLOCK_BYTES, hash);
}

void
pq_bloom_insert(uint8 *bitset, size_t nbytes, uint64 hash)
{
	size_t		nblocks = nbytes / PQ_BLOOM_BLOCK_BYTES;
	uint8	   *block;
	uint32		key = (uint32) hash;
	int			i;

	if (nblocks == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg_internal("Bloom filter of %zu bytes has no block",
								 nbytes)));
	block = bitset + pq_bloom_block(hash, nblocks) * PQ_BLOOM_BLOCK_BYTES;
	for (i = 0; i < 8; i++)
	{
		uint32		mask = (uint32) 1 << ((key * pq_bloom_salt[i]) >> 27);

		pq_store_le32(block + i * 4, pq_load_le32(block + i * 4) | mask);
	}
}

/*
 * The spec's sizing (as in parquet-mr and Arrow): m = -8 * ndv /
 * ln(1 - fpp^(1/8)) bits, rounded up to a power of two bytes.
 */
size_t
pq_bloom_optimal_bytes(uint64 ndv, double fpp)
{
	double		bits;
	size_t		need;
	size_t		bytes = PQ_BLOOM_MIN_BYTES;

	if (!(fpp > 0.0 && fpp < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Bloom filter false positive probability must be between 0 and 1, exclusive")));

	bits = -8.0 * (double) ndv / log1p(-pow(fpp, 1.0 / 8.0));
	if (bits / 8.0 >= (double) PQ_BLOOM_MAX_BYTES)
		return PQ_BLOOM_MAX_BYTES;
	need = (size_t) ceil(bits / 8.0);
	while (bytes < need)
		bytes <<= 1;
	return bytes;
}
