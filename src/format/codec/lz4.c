/*-------------------------------------------------------------------------
 *
 * lz4.c
 *		LZ4_RAW (a bare LZ4 block) and the deprecated LZ4 codec.
 *
 * The deprecated LZ4 codec is Hadoop's block framing: frames of
 * [4-byte big-endian uncompressed size][4-byte big-endian compressed size]
 * [LZ4 block] until the input ends.  Older parquet-cpp wrote a bare block
 * under the same codec id, so a stream whose framing does not add up is
 * decoded as one bare block instead.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <lz4.h>

#include "format/codec/codec.h"

#define PQ_LZ4_HADOOP_PREFIX 8

static inline uint32
pq_load_be32(const uint8 *p)
{
	return ((uint32) p[0] << 24) | ((uint32) p[1] << 16) |
		((uint32) p[2] << 8) | (uint32) p[3];
}

static inline void
pq_store_be32(uint8 *p, uint32 v)
{
	p[0] = (uint8) (v >> 24);
	p[1] = (uint8) (v >> 16);
	p[2] = (uint8) (v >> 8);
	p[3] = (uint8) v;
}

/* Decode one bare block that must fill dst exactly; name is for messages. */
static void
pq_lz4_block_decompress(const char *name, const uint8 *src, size_t srclen,
						uint8 *dst, size_t dstlen)
{
	int			ret;

	/* codec.c has checked that both sizes fit in int. */
	ret = LZ4_decompress_safe((const char *) src, (char *) dst,
							  (int) srclen, (int) dstlen);
	if (ret < 0)
		pq_corrupt("could not decompress %s data: invalid LZ4 block", name);
	if ((size_t) ret != dstlen)
		pq_corrupt("%s data decompresses to %d bytes, expected %zu",
				   name, ret, dstlen);
}

void
pq_lz4_raw_decompress(const uint8 *src, size_t srclen,
					  uint8 *dst, size_t dstlen)
{
	pq_lz4_block_decompress("LZ4_RAW", src, srclen, dst, dstlen);
}

/*
 * Decode src as Hadoop frames.  False if the framing does not fit src and
 * dst exactly; dst may then hold partial output.
 */
static bool
pq_lz4_try_hadoop(const uint8 *src, size_t srclen, uint8 *dst, size_t dstlen)
{
	size_t		in = 0;
	size_t		out = 0;

	while (in < srclen)
	{
		uint32		ulen;
		uint32		clen;

		if (srclen - in < PQ_LZ4_HADOOP_PREFIX)
			return false;
		ulen = pq_load_be32(src + in);
		clen = pq_load_be32(src + in + 4);
		in += PQ_LZ4_HADOOP_PREFIX;
		if (clen > srclen - in || ulen > dstlen - out)
			return false;
		if (LZ4_decompress_safe((const char *) src + in, (char *) dst + out,
								(int) clen, (int) ulen) != (int) ulen)
			return false;
		in += clen;
		out += ulen;
	}
	return out == dstlen;
}

void
pq_lz4_hadoop_decompress(const uint8 *src, size_t srclen,
						 uint8 *dst, size_t dstlen)
{
	if (pq_lz4_try_hadoop(src, srclen, dst, dstlen))
		return;
	pq_lz4_block_decompress("LZ4", src, srclen, dst, dstlen);
}

/* Append one bare block; returns its compressed length. */
static size_t
pq_lz4_block_compress(const uint8 *src, size_t srclen, PqBuffer *out)
{
	int			bound = LZ4_compressBound((int) srclen);
	int			ret;

	/* 0 means srclen exceeds LZ4_MAX_INPUT_SIZE (a little under 2 GB). */
	if (bound <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Parquet page of %zu bytes is too large for LZ4",
						srclen)));
	pq_buffer_reserve(out, bound);
	ret = LZ4_compress_default((const char *) src,
							   (char *) out->data + out->len,
							   (int) srclen, bound);
	if (ret <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compress data with LZ4")));
	out->len += ret;
	return (size_t) ret;
}

void
pq_lz4_raw_compress(int level, const uint8 *src, size_t srclen, PqBuffer *out)
{
	pq_lz4_block_compress(src, srclen, out);
}

/* One Hadoop frame for the whole page, as Arrow and parquet-rs write it. */
void
pq_lz4_hadoop_compress(int level, const uint8 *src, size_t srclen, PqBuffer *out)
{
	size_t		prefix;
	size_t		clen;

	pq_buffer_reserve(out, PQ_LZ4_HADOOP_PREFIX);
	prefix = out->len;
	out->len += PQ_LZ4_HADOOP_PREFIX;
	clen = pq_lz4_block_compress(src, srclen, out);
	pq_store_be32(out->data + prefix, (uint32) srclen);
	pq_store_be32(out->data + prefix + 4, (uint32) clen);
}
