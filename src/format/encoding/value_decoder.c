/*-------------------------------------------------------------------------
 *
 * value_decoder.c
 *		PqValueDecoder: the values section of one page, in any encoding.
 *
 * The encoding and physical type are dispatched once per batch; the loops
 * that touch every value live in the per-encoding files and are
 * specialised there.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/encoding/encoding_parts.h"

/* Values decoded per step where a temporary array is needed */
#define VALDEC_CHUNK 256

/* Is this value encoding defined for this physical type? */
static bool
encoding_applies(int encoding, int ptype)
{
	switch (encoding)
	{
		case PQ_ENC_PLAIN:
		case PQ_ENC_PLAIN_DICTIONARY:
		case PQ_ENC_RLE_DICTIONARY:
			return true;
		case PQ_ENC_RLE:
			return ptype == PQ_BOOLEAN;
		case PQ_ENC_DELTA_BINARY_PACKED:
			return ptype == PQ_INT32 || ptype == PQ_INT64;
		case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
			return ptype == PQ_BYTE_ARRAY;
		case PQ_ENC_DELTA_BYTE_ARRAY:
			return ptype == PQ_BYTE_ARRAY || ptype == PQ_FIXED_LEN_BYTE_ARRAY;
		case PQ_ENC_BYTE_STREAM_SPLIT:
			return ptype == PQ_INT32 || ptype == PQ_INT64 ||
				ptype == PQ_FLOAT || ptype == PQ_DOUBLE ||
				ptype == PQ_FIXED_LEN_BYTE_ARRAY;
		default:
			return false;
	}
}

void
pq_valdec_init(PqValueDecoder *d, int encoding, int ptype, int type_length,
			   const uint8 *buf, size_t len, int num_values)
{
	if (ptype < PQ_BOOLEAN || ptype > PQ_FIXED_LEN_BYTE_ARRAY)
		pq_corrupt("invalid physical type %d", ptype);
	if (ptype == PQ_FIXED_LEN_BYTE_ARRAY && type_length <= 0)
		pq_corrupt("invalid FIXED_LEN_BYTE_ARRAY length %d", type_length);
	if (num_values < 0)
		pq_corrupt("negative value count %d", num_values);
	if (encoding == PQ_ENC_BIT_PACKED)
		pq_corrupt("encoding BIT_PACKED is only valid for levels");
	if (!encoding_applies(encoding, ptype))
		pq_unsupported("encoding %s is not supported for %s columns",
					   pq_encoding_name(encoding),
					   pq_physical_type_name(ptype));

	memset(d, 0, sizeof(PqValueDecoder));
	d->encoding = encoding;
	d->ptype = ptype;
	d->type_length = ptype == PQ_INT96 ? 12 : type_length;
	d->pos = buf;
	d->end = buf + len;
	d->remaining = num_values;
	if (num_values == 0)
		return;					/* empty pages may have no bytes at all */

	switch (encoding)
	{
		case PQ_ENC_PLAIN:
			break;				/* bytes are checked as values are read */
		case PQ_ENC_PLAIN_DICTIONARY:
		case PQ_ENC_RLE_DICTIONARY:
			if (len < 1)
				pq_corrupt("dictionary-encoded page has no bit width byte");
			if (buf[0] > 32)
				pq_corrupt("dictionary index bit width %d exceeds 32", buf[0]);
			pq_rle_init(&d->rle, buf + 1, len - 1, buf[0]);
			break;
		case PQ_ENC_RLE:
			{
				uint32		section;

				if (len < 4)
					pq_corrupt("RLE boolean data of %zu bytes is too short for its length prefix",
							   len);
				section = pq_load_le32(buf);
				if (section > len - 4)
					pq_corrupt("RLE boolean data length %u exceeds the %zu bytes available",
							   section, len - 4);
				pq_rle_init(&d->rle, buf + 4, section, 1);
				break;
			}
		case PQ_ENC_DELTA_BINARY_PACKED:
			pq_delta_init(&d->delta, buf, len);
			d->remaining = (int) Min(d->delta.total_values,
									 (uint64) num_values);
			break;
		case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
			pq_delta_length_decode(d, buf, len, num_values);
			break;
		case PQ_ENC_DELTA_BYTE_ARRAY:
			pq_delta_byte_array_decode(d, buf, len, num_values);
			break;
		case PQ_ENC_BYTE_STREAM_SPLIT:
			pq_bss_init(d, buf, len, pq_fixed_width(ptype, type_length));
			break;
	}
}

static void
valdec_check_count(PqValueDecoder *d, int n)
{
	if (n < 0 || n > d->remaining)
		pq_corrupt("page has %d values left, %d requested", d->remaining, n);
}

static void valdec_wrong_call(PqValueDecoder *d, const char *what) pg_attribute_noreturn();

static void
valdec_wrong_call(PqValueDecoder *d, const char *what)
{
	elog(ERROR, "cannot read %s %s values as %s",
		 pq_encoding_name(d->encoding), pq_physical_type_name(d->ptype), what);
}

/* RLE booleans: 0 or 1, one uint8 each. */
static void
valdec_read_rle_bools(PqValueDecoder *d, int n, uint8 *out)
{
	int			done = 0;

	while (done < n)
	{
		uint32		tmp[VALDEC_CHUNK];
		int			want = Min(n - done, VALDEC_CHUNK);
		int			got = pq_rle_read_u32(&d->rle, tmp, want);
		uint32		maxv = 0;
		int			i;

		if (got < want)
			pq_corrupt("RLE boolean data ends %d values early",
					   (n - done) - got);
		for (i = 0; i < got; i++)
		{
			maxv |= tmp[i];
			out[done + i] = (uint8) tmp[i];
		}
		if (maxv > 1)
			pq_corrupt("RLE boolean value is not 0 or 1");
		done += got;
	}
}

void
pq_valdec_read_fixed(PqValueDecoder *d, int n, void *out)
{
	valdec_check_count(d, n);
	if (n == 0)
		return;
	switch (d->encoding)
	{
		case PQ_ENC_PLAIN:
			if (d->ptype == PQ_BYTE_ARRAY)
				valdec_wrong_call(d, "fixed-size values");
			pq_plain_read_fixed(d, n, out);
			break;
		case PQ_ENC_RLE:
			valdec_read_rle_bools(d, n, out);
			break;
		case PQ_ENC_DELTA_BINARY_PACKED:
			if (d->ptype == PQ_INT32)
				pq_delta_read_i32(&d->delta, out, n);
			else
				pq_delta_read_i64(&d->delta, out, n);
			break;
		case PQ_ENC_DELTA_BYTE_ARRAY:
			{
				/* every value was checked to be type_length bytes */
				uint8	   *o = out;
				size_t		w = d->type_length;
				int			i;

				if (d->ptype != PQ_FIXED_LEN_BYTE_ARRAY)
					valdec_wrong_call(d, "fixed-size values");
				for (i = 0; i < n; i++)
					memcpy(o + i * w, d->arrays[d->array_pos + i].ptr, w);
				d->array_pos += n;
				break;
			}
		case PQ_ENC_BYTE_STREAM_SPLIT:
			pq_bss_read(d, n, pq_fixed_width(d->ptype, d->type_length), out);
			break;
		default:
			valdec_wrong_call(d, "fixed-size values");
	}
	d->remaining -= n;
}

void
pq_valdec_read_byte_array(PqValueDecoder *d, int n, PqByteArray *out)
{
	valdec_check_count(d, n);
	if (n == 0)
		return;
	if (d->ptype != PQ_BYTE_ARRAY && d->ptype != PQ_FIXED_LEN_BYTE_ARRAY)
		valdec_wrong_call(d, "byte arrays");
	switch (d->encoding)
	{
		case PQ_ENC_PLAIN:
			pq_plain_read_byte_array(d, n, out);
			break;
		case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
		case PQ_ENC_DELTA_BYTE_ARRAY:
			memcpy(out, d->arrays + d->array_pos, sizeof(PqByteArray) * n);
			d->array_pos += n;
			break;
		case PQ_ENC_BYTE_STREAM_SPLIT:
			{
				/* FIXED_LEN_BYTE_ARRAY: the bytes must be gathered first */
				size_t		w = d->type_length;
				uint8	   *vals = palloc_extended(w * n, MCXT_ALLOC_HUGE);
				int			i;

				pq_bss_read(d, n, (int) w, vals);
				for (i = 0; i < n; i++)
				{
					out[i].ptr = vals + i * w;
					out[i].len = (uint32) w;
				}
				break;
			}
		default:
			valdec_wrong_call(d, "byte arrays");
	}
	d->remaining -= n;
}

void
pq_valdec_read_indices(PqValueDecoder *d, int n, uint32 *out,
					   uint32 dict_size)
{
	uint32		maxv = 0;
	int			got;
	int			i;

	valdec_check_count(d, n);
	if (n == 0)
		return;
	if (!pq_encoding_is_dictionary(d->encoding))
		valdec_wrong_call(d, "dictionary indices");
	got = pq_rle_read_u32(&d->rle, out, n);
	if (got < n)
		pq_corrupt("dictionary indices end %d values early", n - got);
	for (i = 0; i < n; i++)
		maxv = Max(maxv, out[i]);
	if (maxv >= dict_size)
		pq_corrupt("dictionary index %u out of range (dictionary has %u entries)",
				   maxv, dict_size);
	d->remaining -= n;
}

bool
pq_valdec_skip(PqValueDecoder *d, int n)
{
	valdec_check_count(d, n);
	if (pq_encoding_is_dictionary(d->encoding))
	{
		int			got = pq_rle_skip(&d->rle, n);

		if (got < n)
			pq_corrupt("dictionary indices end %d values early", n - got);
	}
	else if (d->encoding == PQ_ENC_PLAIN && d->ptype != PQ_BOOLEAN &&
			 d->ptype != PQ_BYTE_ARRAY)
	{
		size_t		nbytes = (size_t) n * pq_fixed_width(d->ptype, d->type_length);

		if (nbytes > (size_t) (d->end - d->pos))
			pq_corrupt("PLAIN %s data ends before %d more values (%zu bytes left)",
					   pq_physical_type_name(d->ptype), n,
					   (size_t) (d->end - d->pos));
		d->pos += nbytes;
	}
	else
		return false;
	d->remaining -= n;
	return true;
}
