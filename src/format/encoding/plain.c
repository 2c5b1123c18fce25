/*-------------------------------------------------------------------------
 *
 * plain.c
 *		PLAIN encoding for every physical type.
 *
 * Fixed-size values are stored little-endian and copied as they are, which
 * requires a little-endian host.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/encoding/encoding_parts.h"

#ifdef WORDS_BIGENDIAN
#error "the PLAIN encoding code assumes a little-endian host"
#endif

/* Booleans are one bit each, LSB first; a read may start mid-byte. */
static void
plain_read_bool(PqValueDecoder *d, int n, uint8 *out)
{
	const uint8 *p = d->pos;
	int			bit = d->bool_bit;
	int			i = 0;

	while (i < n && bit != 0)
	{
		out[i++] = (*p >> bit) & 1;
		if (++bit == 8)
		{
			bit = 0;
			p++;
		}
	}
	for (; i + 8 <= n; i += 8)
	{
		uint8		b = *p++;

		out[i] = b & 1;
		out[i + 1] = (b >> 1) & 1;
		out[i + 2] = (b >> 2) & 1;
		out[i + 3] = (b >> 3) & 1;
		out[i + 4] = (b >> 4) & 1;
		out[i + 5] = (b >> 5) & 1;
		out[i + 6] = (b >> 6) & 1;
		out[i + 7] = b >> 7;
	}
	for (; i < n; i++)
		out[i] = (*p >> bit++) & 1;
	d->pos = p;
	d->bool_bit = bit;
}

/*
 * The caller's value count may include nulls, so the bytes are checked per
 * read rather than for the whole page up front.
 */
void
pq_plain_read_fixed(PqValueDecoder *d, int n, uint8 *out)
{
	size_t		avail = d->end - d->pos;
	size_t		nbytes;

	if (d->ptype == PQ_BOOLEAN)
	{
		if (((size_t) d->bool_bit + n + 7) / 8 > avail)
			pq_corrupt("PLAIN BOOLEAN data ends before %d more values", n);
		plain_read_bool(d, n, out);
		return;
	}
	nbytes = (size_t) n * pq_fixed_width(d->ptype, d->type_length);
	if (nbytes > avail)
		pq_corrupt("PLAIN %s data ends before %d more values (%zu bytes left)",
				   pq_physical_type_name(d->ptype), n, avail);
	memcpy(out, d->pos, nbytes);
	d->pos += nbytes;
}

void
pq_plain_read_byte_array(PqValueDecoder *d, int n, PqByteArray *out)
{
	const uint8 *p = d->pos;
	const uint8 *end = d->end;
	int			i;

	if (d->ptype == PQ_FIXED_LEN_BYTE_ARRAY)
	{
		uint32		width = (uint32) d->type_length;

		if ((size_t) n * width > (size_t) (end - p))
			pq_corrupt("PLAIN FIXED_LEN_BYTE_ARRAY data ends before %d more values",
					   n);
		for (i = 0; i < n; i++)
		{
			out[i].ptr = p;
			out[i].len = width;
			p += width;
		}
		d->pos = p;
		return;
	}
	for (i = 0; i < n; i++)
	{
		uint32		len;

		if (end - p < 4)
			pq_corrupt("PLAIN BYTE_ARRAY length runs past the end of the page");
		len = pq_load_le32(p);
		p += 4;
		if (len > (size_t) (end - p))
			pq_corrupt("PLAIN BYTE_ARRAY value of %u bytes runs past the end of the page (%zu bytes left)",
					   len, (size_t) (end - p));
		out[i].ptr = p;
		out[i].len = len;
		p += len;
	}
	d->pos = p;
}

void
pq_plain_encode_fixed(PqBuffer *out, int ptype, int type_length,
					  const void *values, int n)
{
	if (ptype == PQ_BOOLEAN)
	{
		/*
		 * One uint8 (0 or 1) per value in.  Each call starts a new byte, so a
		 * page's booleans must be encoded in one call.
		 */
		const uint8 *in = values;
		int			i;

		pq_buffer_reserve(out, ((size_t) n + 7) / 8);
		for (i = 0; i < n; i += 8)
		{
			int			k = Min(n - i, 8);
			uint8		b = 0;
			int			j;

			for (j = 0; j < k; j++)
				b |= (in[i + j] != 0) << j;
			out->data[out->len++] = b;
		}
		return;
	}
	pq_buffer_append(out, values,
					 (size_t) n * pq_fixed_width(ptype, type_length));
}

void
pq_plain_encode_byte_array(PqBuffer *out, const PqByteArray *values, int n)
{
	size_t		total = 0;
	int			i;

	for (i = 0; i < n; i++)
		total += 4 + (size_t) values[i].len;
	pq_buffer_reserve(out, total);
	for (i = 0; i < n; i++)
	{
		pq_store_le32(out->data + out->len, values[i].len);
		out->len += 4;
		if (values[i].len > 0)
			memcpy(out->data + out->len, values[i].ptr, values[i].len);
		out->len += values[i].len;
	}
}
