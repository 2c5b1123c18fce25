/*-------------------------------------------------------------------------
 *
 * delta_binary.c
 *		DELTA_BINARY_PACKED for INT32 and INT64.
 *
 * All arithmetic is unsigned so that deltas wrap as the specification
 * demands; INT32 results are the low 32 bits.  Miniblocks are unpacked 32
 * values at a time.  Bit widths of miniblocks past the last value may be
 * garbage and are never looked at; only the bytes of values actually
 * decoded must exist (the last miniblock's padding may be missing), except
 * that pq_delta_end() needs the padding because data follows it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/encoding/encoding.h"

#define ENC_BLOCK_SIZE 128
#define ENC_MINIBLOCKS 4
#define ENC_MINIBLOCK_VALUES (ENC_BLOCK_SIZE / ENC_MINIBLOCKS)

static inline int64
zigzag_decode(uint64 v)
{
	return (int64) ((v >> 1) ^ (~(v & 1) + 1));
}

static inline uint64
zigzag_encode(int64 v)
{
	return ((uint64) v << 1) ^ (uint64) (v >> 63);
}

void
pq_delta_init(PqDeltaDecoder *d, const uint8 *buf, size_t len)
{
	const uint8 *p = buf;
	const uint8 *end = buf + len;
	uint64		block_size;
	uint64		miniblocks;
	uint64		total;
	int64		first;

	block_size = pq_read_uleb128(&p, end);
	miniblocks = pq_read_uleb128(&p, end);
	total = pq_read_uleb128(&p, end);
	first = zigzag_decode(pq_read_uleb128(&p, end));

	if (block_size == 0 || block_size % 128 != 0 || block_size > PG_INT32_MAX)
		pq_corrupt("DELTA_BINARY_PACKED block size " UINT64_FORMAT " is not a positive multiple of 128",
				   block_size);
	if (miniblocks == 0 || block_size % miniblocks != 0 ||
		(block_size / miniblocks) % 32 != 0)
		pq_corrupt("DELTA_BINARY_PACKED block of " UINT64_FORMAT " values cannot have " UINT64_FORMAT " miniblocks",
				   block_size, miniblocks);

	/*
	 * Every block needs a min delta byte and the miniblock bit widths, which
	 * bounds the value count by the bytes that exist.
	 */
	if (total > 1)
	{
		uint64		deltas = total - 1;
		uint64		blocks = deltas / block_size + (deltas % block_size != 0);

		if (blocks > (uint64) (end - p) / (1 + miniblocks))
			pq_corrupt("DELTA_BINARY_PACKED header claims " UINT64_FORMAT " values, more than %zu bytes can hold",
					   total, len);
	}

	d->pos = p;
	d->end = end;
	d->block_size = block_size;
	d->miniblocks_per_block = miniblocks;
	d->values_per_miniblock = block_size / miniblocks;
	d->total_values = total;
	d->values_read = 0;
	d->last_value = (uint64) first;
	d->min_delta = 0;
	d->bit_widths = NULL;
	d->miniblock_index = 0;
	d->miniblock_left = 0;
	d->buf_pos = 0;
	d->buf_len = 0;
}

/* Move to the next miniblock, reading a block header when one starts. */
static void
delta_next_miniblock(PqDeltaDecoder *d)
{
	if (d->bit_widths == NULL ||
		d->miniblock_index + 1 == d->miniblocks_per_block)
	{
		d->min_delta = (uint64) zigzag_decode(pq_read_uleb128(&d->pos, d->end));
		if ((uint64) (d->end - d->pos) < d->miniblocks_per_block)
			pq_corrupt("DELTA_BINARY_PACKED miniblock bit widths run past the end of the data");
		d->bit_widths = d->pos;
		d->pos += d->miniblocks_per_block;
		d->miniblock_index = 0;
	}
	else
		d->miniblock_index++;
	if (d->bit_widths[d->miniblock_index] > 64)
		pq_corrupt("DELTA_BINARY_PACKED miniblock bit width %d exceeds 64",
				   d->bit_widths[d->miniblock_index]);
	d->miniblock_left = d->values_per_miniblock;
}

/*
 * Unpack the next group of 32 deltas.  Groups are whole (4 * bit width
 * bytes) except possibly the one holding the last value, which may lack
 * its padding; then pos and miniblock_left stay at that group so that
 * pq_delta_end() notices.
 */
static void
delta_refill(PqDeltaDecoder *d)
{
	uint64		left = d->total_values - d->values_read;
	int			need = (int) Min(left, 32);
	int			bw;
	size_t		group_bytes;

	if (d->miniblock_left == 0)
		delta_next_miniblock(d);
	bw = d->bit_widths[d->miniblock_index];
	group_bytes = (size_t) 4 * bw;
	if ((size_t) (d->end - d->pos) >= group_bytes)
	{
		pq_unpack64(d->pos, bw, d->buf, 32);
		d->pos += group_bytes;
		d->miniblock_left -= 32;
	}
	else
	{
		if ((size_t) (d->end - d->pos) < ((size_t) need * bw + 7) / 8)
			pq_corrupt("DELTA_BINARY_PACKED miniblock runs past the end of the data");
		pq_unpack64(d->pos, bw, d->buf, need);
	}
	d->buf_pos = 0;
	d->buf_len = need;
}

static void
delta_check_count(PqDeltaDecoder *d, int n)
{
	if (n < 0 || (uint64) n > d->total_values - d->values_read)
		pq_corrupt("DELTA_BINARY_PACKED data holds " UINT64_FORMAT " more values, %d requested",
				   d->total_values - d->values_read, n);
}

void
pq_delta_read_i64(PqDeltaDecoder *d, int64 *out, int n)
{
	uint64		last = d->last_value;
	int			done = 0;

	delta_check_count(d, n);
	if (n > 0 && d->values_read == 0)
	{
		out[done++] = (int64) last;
		d->values_read = 1;
	}
	while (done < n)
	{
		uint64		min_delta;
		const uint64 *src;
		int			k;
		int			i;

		if (d->buf_pos == d->buf_len)
			delta_refill(d);
		k = Min(n - done, d->buf_len - d->buf_pos);
		min_delta = d->min_delta;
		src = d->buf + d->buf_pos;
		for (i = 0; i < k; i++)
		{
			last += min_delta + src[i];
			out[done + i] = (int64) last;
		}
		d->buf_pos += k;
		d->values_read += k;
		done += k;
	}
	d->last_value = last;
}

void
pq_delta_read_i32(PqDeltaDecoder *d, int32 *out, int n)
{
	uint64		last = d->last_value;
	int			done = 0;

	delta_check_count(d, n);
	if (n > 0 && d->values_read == 0)
	{
		out[done++] = (int32) last;
		d->values_read = 1;
	}
	while (done < n)
	{
		uint64		min_delta;
		const uint64 *src;
		int			k;
		int			i;

		if (d->buf_pos == d->buf_len)
			delta_refill(d);
		k = Min(n - done, d->buf_len - d->buf_pos);
		min_delta = d->min_delta;
		src = d->buf + d->buf_pos;
		for (i = 0; i < k; i++)
		{
			last += min_delta + src[i];
			out[done + i] = (int32) last;
		}
		d->buf_pos += k;
		d->values_read += k;
		done += k;
	}
	d->last_value = last;
}

const uint8 *
pq_delta_end(PqDeltaDecoder *d)
{
	/* values whose bits have not been reached yet */
	uint64		left = d->total_values - d->values_read -
	(d->buf_len - d->buf_pos);
	size_t		tail;

	if (d->values_read == 0 && d->total_values > 0)
		left--;					/* the first value is in the header */

	/* skip unread values a miniblock at a time, without unpacking them */
	while (left > 0)
	{
		size_t		bytes;

		if (d->miniblock_left == 0)
			delta_next_miniblock(d);
		if (left <= d->miniblock_left)
			break;
		bytes = d->miniblock_left / 32 * 4 * d->bit_widths[d->miniblock_index];
		if (bytes > (size_t) (d->end - d->pos))
			pq_corrupt("DELTA_BINARY_PACKED miniblock runs past the end of the data");
		d->pos += bytes;
		left -= d->miniblock_left;
		d->miniblock_left = 0;
	}

	/* the miniblock holding the last value is padded to its full size */
	tail = 0;
	if (d->miniblock_left > 0)
		tail = d->miniblock_left / 32 * 4 * d->bit_widths[d->miniblock_index];
	if (tail > (size_t) (d->end - d->pos))
		pq_corrupt("DELTA_BINARY_PACKED last miniblock lacks its padding");
	return d->pos + tail;
}

/* ---- encoder ---- */

/*
 * One block of count (1..128) deltas.  The deltas are signed and wrapped;
 * subtracting the minimum in unsigned arithmetic gives the exact
 * non-negative offsets.  Miniblocks with no values get width 0 and no data.
 */
static void
delta_encode_block(PqBuffer *out, const int64 *deltas, int count)
{
	int64		min_delta = deltas[0];
	uint64		rel[ENC_BLOCK_SIZE];
	size_t		widths_pos;
	int			i;
	int			m;

	for (i = 1; i < count; i++)
		min_delta = Min(min_delta, deltas[i]);
	for (i = 0; i < count; i++)
		rel[i] = (uint64) deltas[i] - (uint64) min_delta;
	for (; i < ENC_BLOCK_SIZE; i++)
		rel[i] = 0;

	pq_write_uleb128(out, zigzag_encode(min_delta));
	widths_pos = out->len;
	for (m = 0; m < ENC_MINIBLOCKS; m++)
		pq_buffer_append_byte(out, 0);
	for (m = 0; m * ENC_MINIBLOCK_VALUES < count; m++)
	{
		const uint64 *mb = rel + m * ENC_MINIBLOCK_VALUES;
		uint64		bits = 0;
		int			bw;

		for (i = 0; i < ENC_MINIBLOCK_VALUES; i++)
			bits |= mb[i];
		bw = pq_bit_width64(bits);
		out->data[widths_pos + m] = (uint8) bw;
		pq_pack64(out, mb, ENC_MINIBLOCK_VALUES, bw);
	}
}

static void
delta_write_header(PqBuffer *out, int n, int64 first)
{
	pq_write_uleb128(out, ENC_BLOCK_SIZE);
	pq_write_uleb128(out, ENC_MINIBLOCKS);
	pq_write_uleb128(out, (uint64) n);
	pq_write_uleb128(out, zigzag_encode(first));
}

void
pq_delta_encode_i64(PqBuffer *out, const int64 *in, int n)
{
	int64		deltas[ENC_BLOCK_SIZE];
	int			i;

	delta_write_header(out, n, n > 0 ? in[0] : 0);
	for (i = 1; i < n; i += ENC_BLOCK_SIZE)
	{
		int			count = Min(n - i, ENC_BLOCK_SIZE);
		int			j;

		for (j = 0; j < count; j++)
			deltas[j] = (int64) ((uint64) in[i + j] - (uint64) in[i + j - 1]);
		delta_encode_block(out, deltas, count);
	}
}

/* INT32 deltas wrap at 32 bits so that no miniblock needs more than 32. */
void
pq_delta_encode_i32(PqBuffer *out, const int32 *in, int n)
{
	int64		deltas[ENC_BLOCK_SIZE];
	int			i;

	delta_write_header(out, n, n > 0 ? in[0] : 0);
	for (i = 1; i < n; i += ENC_BLOCK_SIZE)
	{
		int			count = Min(n - i, ENC_BLOCK_SIZE);
		int			j;

		for (j = 0; j < count; j++)
			deltas[j] = (int32) ((uint32) in[i + j] - (uint32) in[i + j - 1]);
		delta_encode_block(out, deltas, count);
	}
}
