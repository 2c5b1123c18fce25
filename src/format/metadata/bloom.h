/*-------------------------------------------------------------------------
 *
 * bloom.h
 *		Parquet split-block Bloom filters (SBBF) hashed with XXH64.
 *
 * A filter is a bitset of 32-byte blocks, each eight little-endian 32-bit
 * words.  A value is hashed with XXH64 (seed 0) over its PLAIN encoding;
 * the hash picks a block with its upper half and one bit per word with its
 * lower half.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_BLOOM_H
#define PQ_BLOOM_H

#include "format/common/pq_common.h"

#define PQ_BLOOM_BLOCK_BYTES 32
#define PQ_BLOOM_MIN_BYTES PQ_BLOOM_BLOCK_BYTES
#define PQ_BLOOM_MAX_BYTES ((size_t) 128 * 1024 * 1024)

/*
 * Hashes of one value in its PLAIN encoding.  BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
 * and INT96 hash their bytes (no length prefix).  Floating-point values hash
 * their bit pattern, so -0.0 and +0.0, and NaNs with different payloads,
 * hash differently: do not prune float equality on zero or NaN with a
 * filter.
 */
extern uint64 pq_bloom_hash_int32(int32 value);
extern uint64 pq_bloom_hash_int64(int64 value);
extern uint64 pq_bloom_hash_float(float4 value);
extern uint64 pq_bloom_hash_double(float8 value);
extern uint64 pq_bloom_hash_bytes(const uint8 *data, size_t len);

/*
 * pq_corrupt() unless nbytes is a valid bitset size read from a file: a
 * positive multiple of 32 no larger than PQ_BLOOM_MAX_BYTES.
 */
extern void pq_bloom_validate(size_t nbytes);

/*
 * Probe or set a hash in a bitset of nbytes bytes (validated or sized by
 * pq_bloom_optimal_bytes()).  pq_bloom_check() never returns false for an
 * inserted hash; a bitset smaller than one block excludes nothing.
 */
/* The block (of nblocks) a hash falls in, and the check within a block. */
extern size_t pq_bloom_block(uint64 hash, size_t nblocks);
extern bool pq_bloom_check_block(const uint8 *block, uint64 hash);

extern bool pq_bloom_check(const uint8 *bitset, size_t nbytes, uint64 hash);
extern void pq_bloom_insert(uint8 *bitset, size_t nbytes, uint64 hash);

/*
 * Bitset size for ndv distinct values at false positive probability fpp
 * (0 < fpp < 1): a power of two between PQ_BLOOM_MIN_BYTES and
 * PQ_BLOOM_MAX_BYTES.
 */
extern size_t pq_bloom_optimal_bytes(uint64 ndv, double fpp);

#endif							/* PQ_BLOOM_H */
