/*-------------------------------------------------------------------------
 *
 * decode_limits.c
 *		The sizes a decoder may allocate by: the limit on a page's decoded
 *		values and the fewest bytes a claimed value count needs.
 *
 * The readers and decoders above check a count or size from a file
 * against these before they allocate by it (docs/ARCHITECTURE.md, "Decode
 * limits").
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/encoding/encoding.h"
#include "utils/memutils.h"

uint64
pq_decoded_limit(size_t encoded)
{
	uint64		limit = Max((uint64) PQ_DECODED_MIN,
							(uint64) encoded * PQ_DECODED_RATIO);

	return Min(limit, (uint64) MaxAllocSize);
}

void
pq_check_decoded_size(const char *what, size_t encoded, uint64 decoded)
{
	uint64		limit = pq_decoded_limit(encoded);

	if (decoded > limit)
		pq_corrupt("%s of %zu bytes decodes to " UINT64_FORMAT " bytes, more than the " UINT64_FORMAT " allowed for it",
				   what, encoded, decoded, limit);
}

uint64
pq_plain_min_bytes(int ptype, int type_length, int64 n)
{
	if (n <= 0)
		return 0;
	if (ptype == PQ_BOOLEAN)
		return ((uint64) n + 7) / 8;
	if (ptype == PQ_BYTE_ARRAY)
		return (uint64) n * 4;
	return (uint64) n * pq_fixed_width(ptype, type_length);
}
