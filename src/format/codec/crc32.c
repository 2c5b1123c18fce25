/*-------------------------------------------------------------------------
 *
 * crc32.c
 *		CRC-32 of Parquet page checksums (the gzip/zlib polynomial).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <zlib.h>

#include "format/codec/codec.h"

uint32
pq_crc32(const uint8 *buf, size_t len)
{
	/* crc32_z() takes a size_t length, so no chunking is needed. */
	return (uint32) crc32_z(0, buf, len);
}
