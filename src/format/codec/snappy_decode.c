/*-------------------------------------------------------------------------
 *
 * snappy_decode.c
 *		SNAPPY decompression (raw snappy format, no framing), without
 *		libsnappy.
 *
 * Debian's libsnappy 1.1.9 copies each element through two out-of-line
 * calls (snappy::MemMove, then memmove): on the PLAIN doubles of small
 * files, perf showed those calls at half the decompression time.  Here the
 * short copies, nearly all of them, are fixed-size moves the compiler
 * inlines, done whenever both buffers have room for the overshoot; the
 * bytes past an element's end are rewritten by the elements after it.
 * Every length and offset is checked before use: nothing is read outside
 * src or written outside dst, and a stream that does not fill dst exactly
 * is an error.
 *
 * Such columns alternate 1-2 byte literals with copies of 4 to 11 bytes.
 * Far from both ends one test per element covers every read and write
 * (decode_fast), and a copy's moves do not depend on its length through a
 * loop: a loop of 8-byte moves mispredicted on lengths around 8.  A copy
 * of at most 8 bytes from an offset of 8 to 15 moves two overlapping
 * 4-byte words that read only the bytes it copies, so that each load is
 * served from the one earlier store that wrote them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/codec/codec.h"

/*
 * By the element tag's low two bits: 0 a literal, else a copy whose offset
 * takes this many bytes after the tag.
 */
static const int copy_offset_bytes[4] = {0, 1, 2, 4};

/* The stream's length prefix (a varint of at most 32 bits). */
static size_t
read_length(const uint8 *src, size_t srclen, uint32 *len)
{
	uint32		v = 0;
	size_t		i;

	for (i = 0; i < srclen && i < 5; i++)
	{
		uint8		b = src[i];

		if (i == 4 && b > 0x0f)
			break;
		v |= (uint32) (b & 0x7f) << (7 * i);
		if (b < 0x80)
		{
			*len = v;
			return i + 1;
		}
	}
	pq_corrupt("could not decompress SNAPPY data: invalid length prefix");
}

/*
 * Copy len bytes from op - offset to op (1 <= offset <= bytes written):
 * the source may overlap what is written, repeating its last offset bytes.
 */
static inline void
copy_back(uint8 *op, size_t offset, size_t len)
{
	const uint8 *from = op - offset;
	size_t		i;

	if (offset >= len)
	{
		memcpy(op, from, len);
		return;
	}
	for (i = 0; i < len; i++)
		op[i] = from[i];
}

/*
 * The room decode_fast needs: an element's header (at most 5 bytes) and a
 * 16-byte literal move in src, the longest copy of its path (64 bytes) in
 * dst.
 */
#define FAST_SRC_ROOM 21
#define FAST_DST_ROOM 64

/*
 * Decode elements while src and dst have the room above, up to an element
 * the careful loop must take (a literal over 16 bytes, a 4-byte offset).
 * Returns the new *ip; *opp advanced.
 */
static const uint8 *
decode_fast(const uint8 *ip, const uint8 *ip_end, uint8 **opp,
			uint8 *dst, const uint8 *op_end)
{
	uint8	   *op = *opp;

	while (ip_end - ip >= FAST_SRC_ROOM && op_end - op >= FAST_DST_ROOM)
	{
		uint8		tag = ip[0];
		size_t		n;
		size_t		offset;
		const uint8 *from;
		size_t		i;

		if ((tag & 3) == 0)
		{
			n = (tag >> 2) + 1;
			if (n > 16)
				break;
			memcpy(op, ip + 1, 16);
			op += n;
			ip += 1 + n;
			continue;
		}
		if ((tag & 3) == 1)
		{
			/* 11-bit offset: 3 bits in the tag */
			n = ((tag >> 2) & 7) + 4;
			offset = ((size_t) (tag >> 5) << 8) | ip[1];
			ip += 2;
		}
		else if ((tag & 3) == 2)
		{
			n = (tag >> 2) + 1;
			offset = pq_load_le_n(ip + 1, 2);
			ip += 3;
		}
		else
			break;
		/* offset 0 wraps around and fails too */
		if (offset - 1 >= (size_t) (op - dst))
			pq_corrupt("could not decompress SNAPPY data: copy from offset %zu with %zu bytes written",
					   offset, (size_t) (op - dst));
		from = op - offset;
		if (offset >= 16)
		{
			/* each 16-byte move reads only bytes written before it */
			for (i = 0; i < n; i += 16)
				memcpy(op + i, from + i, 16);
		}
		else if (offset >= 8 && n >= 4 && n <= 8)
		{
			memcpy(op, from, 4);
			memcpy(op + n - 4, from + n - 4, 4);
		}
		else if (offset >= 8)
		{
			for (i = 0; i < n; i += 8)
				memcpy(op + i, from + i, 8);
		}
		else
			copy_back(op, offset, n);
		op += n;
	}
	*opp = op;
	return ip;
}

void
pq_snappy_decompress(const uint8 *src, size_t srclen,
					 uint8 *dst, size_t dstlen)
{
	uint32		len;
	const uint8 *ip;
	const uint8 *ip_end = src + srclen;
	uint8	   *op = dst;
	uint8	   *op_end = dst + dstlen;

	if (srclen == 0 && dstlen == 0)
		return;
	ip = src + read_length(src, srclen, &len);
	if (len != dstlen)
		pq_corrupt("SNAPPY data decompresses to %u bytes, expected %zu",
				   len, dstlen);

	for (;;)
	{
		uint8		tag;
		size_t		n;
		size_t		offset;
		int			nb;

		ip = decode_fast(ip, ip_end, &op, dst, op_end);
		if (ip >= ip_end)
			break;
		tag = *ip++;
		nb = copy_offset_bytes[tag & 3];
		if (nb == 0)
		{
			n = (tag >> 2) + 1;
			if (n > 60)
			{
				/* the length, less one, in the next 1 to 4 bytes */
				int			lb = (int) n - 60;

				if (ip_end - ip < lb)
					pq_corrupt("could not decompress SNAPPY data: literal length past the end of the stream");
				n = (size_t) pq_load_le_n(ip, lb) + 1;
				ip += lb;
			}
			if ((size_t) (ip_end - ip) < n || (size_t) (op_end - op) < n)
				pq_corrupt("could not decompress SNAPPY data: literal of %zu bytes past the end of the %s",
						   n, (size_t) (ip_end - ip) < n ? "stream" : "output");
			memcpy(op, ip, n);
			op += n;
			ip += n;
			continue;
		}
		if (ip_end - ip < nb)
			pq_corrupt("could not decompress SNAPPY data: copy past the end of the stream");
		if (nb == 1)
		{
			/* 11-bit offset: 3 bits in the tag */
			n = ((tag >> 2) & 7) + 4;
			offset = ((size_t) (tag >> 5) << 8) | ip[0];
		}
		else
		{
			n = (tag >> 2) + 1;
			offset = pq_load_le_n(ip, nb);
		}
		ip += nb;
		if (offset == 0 || offset > (size_t) (op - dst))
			pq_corrupt("could not decompress SNAPPY data: copy from offset %zu with %zu bytes written",
					   offset, (size_t) (op - dst));
		if ((size_t) (op_end - op) < n)
			pq_corrupt("could not decompress SNAPPY data: copy of %zu bytes past the end of the output",
					   n);
		copy_back(op, offset, n);
		op += n;
	}
	if (op != op_end)
		pq_corrupt("SNAPPY data decompresses to %zu bytes, expected %zu",
				   (size_t) (op - dst), dstlen);
}
