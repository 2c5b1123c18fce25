/*-------------------------------------------------------------------------
 *
 * rle.c
 *		ULEB128 varints, the RLE/bit-packed hybrid (levels, dictionary
 *		indices, RLE booleans) and the deprecated BIT_PACKED levels.
 *
 * Run lengths are limited to 2^31 - 1 values, as the specification
 * requires.  A bit-packed run that claims more bytes than remain is clamped
 * to the values whose bits exist: writers may drop trailing padding, and a
 * caller that needs more values than are left gets a short count and
 * reports the corruption itself.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/encoding/encoding.h"

/* Values decoded per step when narrowing to int16 */
#define LEVEL_CHUNK 256

uint64
pq_read_uleb128(const uint8 **pos, const uint8 *end)
{
	const uint8 *p = *pos;
	uint64		result = 0;
	int			shift = 0;

	for (;;)
	{
		uint8		b;

		if (p >= end)
			pq_corrupt("ULEB128 varint runs past the end of its buffer");
		b = *p++;
		if (shift == 63 && b > 1)
			pq_corrupt("ULEB128 varint does not fit in 64 bits");
		result |= (uint64) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			break;
		shift += 7;
	}
	*pos = p;
	return result;
}

void
pq_write_uleb128(PqBuffer *out, uint64 v)
{
	while (v >= 0x80)
	{
		pq_buffer_append_byte(out, (uint8) (v | 0x80));
		v >>= 7;
	}
	pq_buffer_append_byte(out, (uint8) v);
}

void
pq_rle_init(PqRleDecoder *d, const uint8 *buf, size_t len, int bit_width)
{
	if (bit_width < 0 || bit_width > 32)
		pq_corrupt("RLE bit width %d is out of range", bit_width);
	d->pos = buf;
	d->end = buf + len;
	d->bit_width = bit_width;
	d->in_rle = false;
	d->rle_value = 0;
	d->run_left = 0;
	d->bp_pos = NULL;
	d->bp_group_pos = 8;
}

/*
 * Start the next non-empty run.  Returns false at the end of the input.
 * Empty runs carry no values and are skipped.
 */
static bool
rle_next_run(PqRleDecoder *d)
{
	int			bw = d->bit_width;

	while (d->pos < d->end)
	{
		uint64		header = pq_read_uleb128(&d->pos, d->end);
		uint64		count = header >> 1;

		if (header & 1)
		{
			size_t		avail = d->end - d->pos;

			if (count > PG_INT32_MAX / 8)
				pq_corrupt("bit-packed run of " UINT64_FORMAT " groups is too long",
						   count);
			count *= 8;
			d->bp_pos = d->pos;
			if (count * bw <= (uint64) avail * 8)
				d->pos += count * bw / 8;
			else
			{
				/* truncated run: keep the values whose bits exist */
				count = (uint64) avail * 8 / bw;
				d->pos = d->end;
			}
			d->in_rle = false;
		}
		else
		{
			int			nbytes = (bw + 7) / 8;
			uint32		v = 0;
			int			i;

			if (count > PG_INT32_MAX)
				pq_corrupt("RLE run of " UINT64_FORMAT " values is too long",
						   count);
			if (d->end - d->pos < nbytes)
				pq_corrupt("RLE run value runs past the end of its buffer");
			for (i = 0; i < nbytes; i++)
				v |= (uint32) d->pos[i] << (8 * i);
			d->pos += nbytes;
			d->rle_value = v;
			d->in_rle = true;
		}
		if (count > 0)
		{
			d->run_left = (uint32) count;
			return true;
		}
	}
	return false;
}

/*
 * Unpack the next group of a bit-packed run into bp_group (a truncated
 * run's last group may be short: its values go at the end).
 */
static void
rle_buffer_group(PqRleDecoder *d)
{
	int			m = (int) Min(d->run_left, 8);

	pq_unpack32(d->bp_pos, d->bit_width, d->bp_group + 8 - m, m);
	d->bp_group_pos = 8 - m;
	d->run_left -= m;
	if (d->run_left > 0)
		d->bp_pos += d->bit_width;
}

/*
 * The next n values into out, or passed over when out is NULL (whole
 * bit-packed groups are then stepped over unread); returns how many.
 */
static inline int
rle_take(PqRleDecoder *d, uint32 *out, int n)
{
	int			bw = d->bit_width;
	int			done = 0;

	while (done < n)
	{
		int			want = n - done;

		if (d->bp_group_pos < 8)
		{
			/* values left over from a partly consumed group */
			int			k = Min(want, 8 - d->bp_group_pos);

			if (out)
				memcpy(out + done, d->bp_group + d->bp_group_pos,
					   sizeof(uint32) * k);
			d->bp_group_pos += k;
			done += k;
		}
		else if (d->run_left == 0)
		{
			if (!rle_next_run(d))
				break;
		}
		else if (d->in_rle)
		{
			int			k = (int) Min((uint32) want, d->run_left);

			if (out)
			{
				uint32		v = d->rle_value;
				uint32	   *o = out + done;
				int			i;

				for (i = 0; i < k; i++)
					o[i] = v;
			}
			d->run_left -= k;
			done += k;
		}
		else
		{
			/* whole groups go straight to the output */
			int			k = (int) Min((uint32) want, d->run_left) & ~7;

			if (k > 0)
			{
				if (out)
					pq_unpack32(d->bp_pos, bw, out + done, k);
				d->bp_pos += (size_t) k * bw / 8;
				d->run_left -= k;
				done += k;
			}
			else
				rle_buffer_group(d);
		}
	}
	return done;
}

int
pq_rle_read_u32(PqRleDecoder *d, uint32 *out, int n)
{
	return rle_take(d, out, n);
}

int
pq_rle_skip(PqRleDecoder *d, int n)
{
	return rle_take(d, NULL, n);
}

bool
pq_rle_take_run(PqRleDecoder *d, int n, uint32 *value)
{
	if (d->bp_group_pos < 8)
		return false;
	if (d->run_left == 0 && !rle_next_run(d))
		return false;
	if (!d->in_rle || d->run_left < (uint32) n)
		return false;
	d->run_left -= n;
	*value = d->rle_value;
	return true;
}

/* Decode n values of at most max each into int16. */
static int
rle_read_checked_i16(PqRleDecoder *d, int16 *out, int n, uint32 max)
{
	int			done = 0;

	while (done < n)
	{
		uint32		tmp[LEVEL_CHUNK];
		int			want = Min(n - done, LEVEL_CHUNK);
		int			got = pq_rle_read_u32(d, tmp, want);
		uint32		maxv = 0;
		int			i;

		for (i = 0; i < got; i++)
		{
			maxv = Max(maxv, tmp[i]);
			out[done + i] = (int16) tmp[i];
		}
		if (maxv > max)
			pq_corrupt("level %u exceeds the maximum level %u", maxv, max);
		done += got;
		if (got < want)
			break;
	}
	return done;
}

int
pq_rle_read_levels(PqRleDecoder *d, int16 *out, int n, int max_level)
{
	return rle_read_checked_i16(d, out, n, (uint32) max_level);
}

/* Deprecated BIT_PACKED levels: MSB first, no padding between values. */
static void
decode_bit_packed_levels(const uint8 *p, int bw, int16 *out, int n)
{
	uint32		acc = 0;
	int			nbits = 0;
	uint32		mask = ((uint32) 1 << bw) - 1;
	int			i;

	for (i = 0; i < n; i++)
	{
		while (nbits < bw)
		{
			acc = (acc << 8) | *p++;
			nbits += 8;
		}
		nbits -= bw;
		out[i] = (int16) ((acc >> nbits) & mask);
	}
}

size_t
pq_decode_levels(int encoding, bool prefixed, const uint8 *buf, size_t len,
				 int max_level, int16 *out, int n)
{
	int			bw;

	if (max_level < 0 || max_level > PG_INT16_MAX)
		pq_corrupt("maximum level %d is out of range", max_level);
	if (n < 0)
		pq_corrupt("negative level count %d", n);
	bw = pq_bit_width32((uint32) max_level);
	if (bw == 0)
	{
		/* no level data is stored for columns at the top level */
		memset(out, 0, sizeof(int16) * n);
		return 0;
	}

	if (encoding == PQ_ENC_RLE)
	{
		PqRleDecoder d;
		size_t		start = 0;
		size_t		section = len;
		int			got;

		if (prefixed)
		{
			if (len < 4)
				pq_corrupt("level data of %zu bytes is too short for its length prefix",
						   len);
			section = pq_load_le32(buf);
			start = 4;
			if (section > len - 4)
				pq_corrupt("level data length %zu exceeds the %zu bytes available",
						   section, len - 4);
		}
		pq_rle_init(&d, buf + start, section, bw);
		got = rle_read_checked_i16(&d, out, n, (uint32) max_level);
		if (got < n)
			pq_corrupt("level data holds %d levels, expected %d", got, n);
		return start + section;
	}
	else if (encoding == PQ_ENC_BIT_PACKED)
	{
		uint64		nbytes = ((uint64) n * bw + 7) / 8;
		int			i;

		if (nbytes > len)
			pq_corrupt("BIT_PACKED level data needs " UINT64_FORMAT " bytes, only %zu available",
					   nbytes, len);
		decode_bit_packed_levels(buf, bw, out, n);
		for (i = 0; i < n; i++)
		{
			if (out[i] > max_level)
				pq_corrupt("level %d exceeds the maximum level %d",
						   out[i], max_level);
		}
		return (size_t) nbytes;
	}
	pq_unsupported("encoding %s is not supported for levels",
				   pq_encoding_name(encoding));
}

/* ---- encoder ---- */

void
pq_rle_encoder_init(PqRleEncoder *e, PqBuffer *out, int bit_width)
{
	Assert(bit_width >= 0 && bit_width <= 32);
	e->out = out;
	e->bit_width = bit_width;
	e->n_buffered = 0;
	e->repeat_value = 0;
	e->repeat_count = 0;
	e->bp_header_pos = SIZE_MAX;
	e->bp_groups = 0;
}

/* Patch the header of the open bit-packed run, if any. */
static void
rle_close_bit_packed(PqRleEncoder *e)
{
	if (e->bp_header_pos == SIZE_MAX)
		return;
	e->out->data[e->bp_header_pos] = (uint8) ((e->bp_groups << 1) | 1);
	e->bp_header_pos = SIZE_MAX;
	e->bp_groups = 0;
}

static void
rle_write_repeated(PqRleEncoder *e)
{
	int			nbytes = (e->bit_width + 7) / 8;
	int			i;

	rle_close_bit_packed(e);
	pq_write_uleb128(e->out, (uint64) e->repeat_count << 1);
	for (i = 0; i < nbytes; i++)
		pq_buffer_append_byte(e->out, (uint8) (e->repeat_value >> (8 * i)));
	e->repeat_count = 0;
	e->n_buffered = 0;
}

/*
 * Eight values are buffered.  If they are all one repeated value they
 * become part of an RLE run; otherwise they are appended to the open
 * bit-packed run, whose one-byte header allows at most 63 groups.
 */
static void
rle_flush_group(PqRleEncoder *e)
{
	if (e->repeat_count >= 8)
	{
		e->n_buffered = 0;
		rle_close_bit_packed(e);
		return;
	}
	if (e->bp_header_pos == SIZE_MAX)
	{
		e->bp_header_pos = e->out->len;
		pq_buffer_append_byte(e->out, 0);
		e->bp_groups = 0;
	}
	pq_pack32(e->out, e->buffered, 8, e->bit_width);
	e->bp_groups++;
	e->n_buffered = 0;
	e->repeat_count = 0;
	if (e->bp_groups == 63)
		rle_close_bit_packed(e);
}

static inline void
rle_put(PqRleEncoder *e, uint32 value)
{
	if (value == e->repeat_value)
	{
		e->repeat_count++;
		if (e->repeat_count > 8)
			return;				/* extends the current RLE run */
	}
	else
	{
		if (e->repeat_count >= 8)
			rle_write_repeated(e);
		e->repeat_count = 1;
		e->repeat_value = value;
	}
	e->buffered[e->n_buffered++] = value;
	if (e->n_buffered == 8)
		rle_flush_group(e);
}

void
pq_rle_encoder_put(PqRleEncoder *e, uint32 value)
{
	rle_put(e, value);
}

void
pq_rle_encoder_put_many(PqRleEncoder *e, const uint32 *values, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		rle_put(e, values[i]);
}

void
pq_rle_encoder_put_levels(PqRleEncoder *e, const int16 *levels, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		rle_put(e, (uint32) levels[i]);
}

void
pq_rle_encoder_flush(PqRleEncoder *e)
{
	if (e->repeat_count > 0 && e->bp_header_pos == SIZE_MAX &&
		(e->n_buffered == 0 || e->repeat_count == e->n_buffered))
		rle_write_repeated(e);
	else if (e->n_buffered > 0)
	{
		/* pad the last group with zeros */
		memset(e->buffered + e->n_buffered, 0,
			   sizeof(uint32) * (8 - e->n_buffered));
		e->n_buffered = 8;
		e->repeat_count = 0;
		rle_flush_group(e);
	}
	rle_close_bit_packed(e);
	e->repeat_count = 0;
	e->repeat_value = 0;
	e->n_buffered = 0;
}
