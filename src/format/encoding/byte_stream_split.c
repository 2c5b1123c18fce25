/*-------------------------------------------------------------------------
 *
 * byte_stream_split.c
 *		BYTE_STREAM_SPLIT: byte k of every value is stored in stream k, and
 *		the streams are concatenated.
 *
 * Nothing records the stream length, so it is the page's values section
 * length divided by the value width, as in other readers: that stays
 * right whether or not the caller's value count includes nulls.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/encoding/encoding_parts.h"

void
pq_bss_init(PqValueDecoder *d, const uint8 *buf, size_t len, int width)
{
	size_t		count = len / width;

	if (len % width != 0)
		pq_corrupt("BYTE_STREAM_SPLIT data of %zu bytes is not a multiple of the value width %d",
				   len, width);
	if (count > PG_INT32_MAX)
		pq_corrupt("BYTE_STREAM_SPLIT data of %zu bytes holds too many values",
				   len);
	d->bss_base = buf;
	d->bss_count = (int) count;
	d->bss_index = 0;
	d->remaining = Min(d->remaining, (int) count);
}

/* Gather n values of W bytes; W is a constant after inlining. */
static pg_attribute_always_inline void
bss_gather(const uint8 *base, size_t stride, int n, int w, uint8 *out)
{
	int			i;
	int			k;

	for (i = 0; i < n; i++)
	{
		for (k = 0; k < w; k++)
			out[(size_t) i * w + k] = base[k * stride + i];
	}
}

void
pq_bss_read(PqValueDecoder *d, int n, int width, uint8 *out)
{
	const uint8 *base = d->bss_base + d->bss_index;
	size_t		stride = d->bss_count;

	/* remaining never exceeds bss_count */
	Assert(d->bss_index + n <= d->bss_count);
	if (width == 4)
		bss_gather(base, stride, n, 4, out);
	else if (width == 8)
		bss_gather(base, stride, n, 8, out);
	else
		bss_gather(base, stride, n, width, out);
	d->bss_index += n;
}

void
pq_byte_stream_split_encode(PqBuffer *out, int width, const uint8 *values,
							int n)
{
	size_t		total = (size_t) width * n;
	uint8	   *dst;
	int			i;
	int			k;

	pq_buffer_reserve(out, total);
	dst = out->data + out->len;
	for (k = 0; k < width; k++)
	{
		for (i = 0; i < n; i++)
			dst[(size_t) k * n + i] = values[(size_t) i * width + k];
	}
	out->len += total;
}
