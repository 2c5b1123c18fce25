/*-------------------------------------------------------------------------
 *
 * delta_bytes.c
 *		DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
 *
 * A page is decoded completely when the decoder is set up, into one array
 * of PqByteArray.  DELTA_LENGTH values point into the page.  DELTA_BYTE_ARRAY
 * values point into the page when they have no prefix, into the previous
 * value when they have no suffix, and otherwise into one arena whose size
 * is computed and checked before it is allocated.
 *
 * Zero-width miniblocks make a length stream of any count a few bytes
 * long, and prefixes make a value of any length: the array is checked
 * against pq_decoded_limit() before it is allocated, and the total of the
 * values' lengths after the lengths are read, before the arena.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/encoding/encoding_parts.h"

/* Lengths decoded per step */
#define LENGTH_CHUNK 256

/* Decode count lengths into out[i].len, each checked non-negative. */
static uint64
delta_bytes_read_lengths(PqDeltaDecoder *dd, PqByteArray *out, int count,
						 const char *what)
{
	uint64		sum = 0;
	int			done = 0;

	while (done < count)
	{
		int32		tmp[LENGTH_CHUNK];
		int			k = Min(count - done, LENGTH_CHUNK);
		int			i;

		pq_delta_read_i32(dd, tmp, k);
		for (i = 0; i < k; i++)
		{
			if (tmp[i] < 0)
				pq_corrupt("%s has negative length %d", what, tmp[i]);
			out[done + i].len = (uint32) tmp[i];
			sum += (uint32) tmp[i];
		}
		done += k;
	}
	return sum;
}

/*
 * The first count values of a DELTA_LENGTH_BYTE_ARRAY section whose lengths
 * header dd has read; the section ends at end.
 */
static void
delta_length_decode_into(PqDeltaDecoder *dd, PqByteArray *out, int count,
						 const uint8 *end, const char *what)
{
	const uint8 *data;
	uint64		sum;
	int			i;

	sum = delta_bytes_read_lengths(dd, out, count, what);
	data = pq_delta_end(dd);
	if (sum > (uint64) (end - data))
		pq_corrupt("%s needs " UINT64_FORMAT " bytes, only %zu available",
				   what, sum, (size_t) (end - data));
	for (i = 0; i < count; i++)
	{
		out[i].ptr = data;
		data += out[i].len;
	}
}

/*
 * The caller's count may include nulls: the lengths header says how many
 * values there are, and at most max_values of them are decoded.
 */
void
pq_delta_length_decode(PqValueDecoder *d, const uint8 *buf, size_t len,
					   int max_values)
{
	PqDeltaDecoder dd;
	int			count;

	pq_delta_init(&dd, buf, len);
	count = (int) Min(dd.total_values, (uint64) max_values);
	pq_check_decoded_size("DELTA_LENGTH_BYTE_ARRAY data", len,
						  (uint64) count * sizeof(PqByteArray));
	d->arrays = palloc(sizeof(PqByteArray) * count);
	d->array_pos = 0;
	d->remaining = count;
	delta_length_decode_into(&dd, d->arrays, count, buf + len,
							 "DELTA_LENGTH_BYTE_ARRAY data");
}

void
pq_delta_byte_array_decode(PqValueDecoder *d, const uint8 *buf, size_t len,
						   int max_values)
{
	const uint8 *end = buf + len;
	PqDeltaDecoder pd;
	PqDeltaDecoder sd;
	const uint8 *suffixes;
	PqByteArray *vals;
	int32	   *prefix;
	uint8	   *arena = NULL;
	uint64		arena_size = 0;
	uint64		total;
	uint64		prev_len = 0;
	size_t		used;
	int			count;
	int			i;

	pq_delta_init(&pd, buf, len);
	count = (int) Min(pd.total_values, (uint64) max_values);
	total = (uint64) count * sizeof(PqByteArray);
	pq_check_decoded_size("DELTA_BYTE_ARRAY data", len, total);
	prefix = palloc(sizeof(int32) * count);
	pq_delta_read_i32(&pd, prefix, count);
	suffixes = pq_delta_end(&pd);
	pq_delta_init(&sd, suffixes, end - suffixes);
	if (sd.total_values < (uint64) count)
		pq_corrupt("DELTA_BYTE_ARRAY data has " UINT64_FORMAT " suffixes for %d prefix lengths",
				   sd.total_values, count);
	vals = palloc(sizeof(PqByteArray) * count);
	delta_length_decode_into(&sd, vals, count, end,
							 "DELTA_BYTE_ARRAY suffix data");

	/* check every prefix and size the arena before allocating it */
	for (i = 0; i < count; i++)
	{
		uint64		vlen;

		if (prefix[i] < 0 || (uint64) prefix[i] > prev_len)
			pq_corrupt("DELTA_BYTE_ARRAY prefix length %d exceeds the previous value's length " UINT64_FORMAT,
					   prefix[i], prev_len);
		vlen = (uint64) prefix[i] + vals[i].len;
		if (vlen > PG_INT32_MAX)
			pq_corrupt("DELTA_BYTE_ARRAY value of " UINT64_FORMAT " bytes is too long",
					   vlen);
		if (d->ptype == PQ_FIXED_LEN_BYTE_ARRAY && vlen != (uint64) d->type_length)
			pq_corrupt("DELTA_BYTE_ARRAY value of " UINT64_FORMAT " bytes in a FIXED_LEN_BYTE_ARRAY(%d) column",
					   vlen, d->type_length);
		if (prefix[i] > 0 && vals[i].len > 0)
			arena_size += vlen;
		total += vlen;
		prev_len = vlen;
	}
	/* values without a suffix take no arena, but the scan copies each */
	pq_check_decoded_size("DELTA_BYTE_ARRAY data", len, total);
	if (arena_size > 0)
		arena = palloc(arena_size);

	/* value i replaces suffix i in place; it only needs value i - 1 */
	used = 0;
	for (i = 0; i < count; i++)
	{
		uint32		plen = (uint32) prefix[i];

		if (plen == 0)
			continue;			/* the suffix is the value */
		if (vals[i].len == 0)
			vals[i].ptr = vals[i - 1].ptr;
		else
		{
			uint8	   *dst = arena + used;

			memcpy(dst, vals[i - 1].ptr, plen);
			memcpy(dst + plen, vals[i].ptr, vals[i].len);
			vals[i].ptr = dst;
			used += plen + vals[i].len;
		}
		vals[i].len += plen;
	}
	pfree(prefix);
	d->arrays = vals;
	d->array_pos = 0;
	d->remaining = count;
}

/* ---- encoders ---- */

void
pq_delta_length_encode(PqBuffer *out, const PqByteArray *values, int n)
{
	int32	   *lengths = palloc(sizeof(int32) * n);
	int			i;

	for (i = 0; i < n; i++)
	{
		if (values[i].len > PG_INT32_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("byte array of %u bytes is too long for Parquet",
							values[i].len)));
		lengths[i] = (int32) values[i].len;
	}
	pq_delta_encode_i32(out, lengths, n);
	pfree(lengths);
	for (i = 0; i < n; i++)
	{
		if (values[i].len > 0)
			pq_buffer_append(out, values[i].ptr, values[i].len);
	}
}

void
pq_delta_byte_array_encode(PqBuffer *out, const PqByteArray *values, int n)
{
	int32	   *prefix = palloc(sizeof(int32) * n);
	PqByteArray *suffix = palloc(sizeof(PqByteArray) * n);
	int			i;

	for (i = 0; i < n; i++)
	{
		uint32		p = 0;

		if (i > 0)
		{
			uint32		max = Min(values[i].len, values[i - 1].len);

			while (p < max && values[i].ptr[p] == values[i - 1].ptr[p])
				p++;
		}
		prefix[i] = (int32) p;
		suffix[i].ptr = p > 0 ? values[i].ptr + p : values[i].ptr;
		suffix[i].len = values[i].len - p;
	}
	pq_delta_encode_i32(out, prefix, n);
	pq_delta_length_encode(out, suffix, n);
	pfree(prefix);
	pfree(suffix);
}
