/*-------------------------------------------------------------------------
 *
 * stats_builder.c
 *		Min/max, null and NaN counts of pages and column chunks, as the
 *		writer produces them.
 *
 * Each update scans one batch with a loop specialised for the column's
 * order and offers the batch's extremes to the accumulator, so the
 * generic comparison on encoded bounds runs twice per batch, not per
 * value.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "format/common/pq_common.h"
#include "format/write/stats_builder.h"

int
pq_sort_order(int physical_type, const PqLogicalType *logical,
			  int converted_type)
{
	bool		by_type = true;

	if (logical != NULL && logical->id != PQ_LT_NONE)
	{
		by_type = false;
		switch (logical->id)
		{
			case PQ_LT_STRING:
			case PQ_LT_ENUM:
			case PQ_LT_JSON:
			case PQ_LT_BSON:
			case PQ_LT_UUID:
			case PQ_LT_DATE:
			case PQ_LT_TIME:
			case PQ_LT_TIMESTAMP:
			case PQ_LT_UNKNOWN:
				by_type = true;
				break;
			case PQ_LT_DECIMAL:
				if (physical_type == PQ_BYTE_ARRAY ||
					physical_type == PQ_FIXED_LEN_BYTE_ARRAY)
					return PQ_SORT_DECIMAL;
				by_type = true;
				break;
			case PQ_LT_INTEGER:
				if (logical->int_is_signed)
					by_type = true;
				else if (physical_type == PQ_INT32)
					return PQ_SORT_UINT32;
				else if (physical_type == PQ_INT64)
					return PQ_SORT_UINT64;
				break;
			case PQ_LT_FLOAT16:
				if (physical_type == PQ_FIXED_LEN_BYTE_ARRAY)
					return PQ_SORT_FLOAT16;
				break;
			default:
				/* VARIANT, GEOMETRY, GEOGRAPHY, LIST, MAP, FILE, unknown */
				break;
		}
	}
	else
	{
		switch (converted_type)
		{
			case PQ_CT_UINT_8:
			case PQ_CT_UINT_16:
			case PQ_CT_UINT_32:
				return physical_type == PQ_INT32 ? PQ_SORT_UINT32 : PQ_SORT_NONE;
			case PQ_CT_UINT_64:
				return physical_type == PQ_INT64 ? PQ_SORT_UINT64 : PQ_SORT_NONE;
			case PQ_CT_DECIMAL:
				if (physical_type == PQ_BYTE_ARRAY ||
					physical_type == PQ_FIXED_LEN_BYTE_ARRAY)
					return PQ_SORT_DECIMAL;
				break;
			case PQ_CT_INTERVAL:
				return PQ_SORT_NONE;
			default:
				break;
		}
	}
	if (!by_type)
		return PQ_SORT_NONE;
	switch (physical_type)
	{
		case PQ_BOOLEAN:
			return PQ_SORT_BOOL;
		case PQ_INT32:
			return PQ_SORT_INT32;
		case PQ_INT64:
			return PQ_SORT_INT64;
		case PQ_FLOAT:
			return PQ_SORT_FLOAT;
		case PQ_DOUBLE:
			return PQ_SORT_DOUBLE;
		case PQ_BYTE_ARRAY:
		case PQ_FIXED_LEN_BYTE_ARRAY:
			return PQ_SORT_BYTES;
		default:
			/* INT96: TYPE_ORDER leaves it undefined */
			return PQ_SORT_NONE;
	}
}

static inline int32
load_i32(const uint8 *p)
{
	return (int32) pq_load_le32(p);
}

static inline int64
load_i64(const uint8 *p)
{
	return (int64) pq_load_le64(p);
}

static inline float
load_float(const uint8 *p)
{
	uint32		bits = pq_load_le32(p);
	float		f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

static inline double
load_double(const uint8 *p)
{
	uint64		bits = pq_load_le64(p);
	double		d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static inline uint32
load_u32(const uint8 *p)
{
	return pq_load_le32(p);
}

static inline uint64
load_u64(const uint8 *p)
{
	return pq_load_le64(p);
}

static inline float
load_half(const uint8 *p)
{
	return pq_half_to_float((uint16) (p[0] | (p[1] << 8)));
}

static inline int
cmp_bytes(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int			c;

	/* most values differ in their first 8 bytes: compared as one number */
	if (alen >= 8 && blen >= 8)
	{
		uint64		x = __builtin_bswap64(pq_load_le64(a));
		uint64		y = __builtin_bswap64(pq_load_le64(b));

		if (x != y)
			return x < y ? -1 : 1;
	}
	/* empty byte arrays may come with a NULL pointer */
	c = Min(alen, blen) > 0 ? memcmp(a, b, Min(alen, blen)) : 0;

	if (c != 0)
		return c;
	return (alen > blen) - (alen < blen);
}

/* Big-endian two's complement numbers of any length (DECIMAL bytes). */
static int
cmp_decimal(const uint8 *a, int alen, const uint8 *b, int blen)
{
	bool		neg_a = alen > 0 && (a[0] & 0x80) != 0;
	bool		neg_b = blen > 0 && (b[0] & 0x80) != 0;
	uint8		pad = neg_a ? 0xFF : 0x00;
	int			n = Max(alen, blen);
	int			i;

	if (neg_a != neg_b)
		return neg_a ? -1 : 1;
	/* same sign: sign-extend to one length, then unsigned bytes decide */
	for (i = 0; i < n; i++)
	{
		uint8		ca = i < n - alen ? pad : a[i - (n - alen)];
		uint8		cb = i < n - blen ? pad : b[i - (n - blen)];

		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return 0;
}

#define CMP3(x, y) (((x) > (y)) - ((x) < (y)))

int
pq_stats_compare(int order, const uint8 *a, int alen, const uint8 *b,
				 int blen)
{
	switch (order)
	{
		case PQ_SORT_BOOL:
			return CMP3(a[0] != 0, b[0] != 0);
		case PQ_SORT_INT32:
			return CMP3(load_i32(a), load_i32(b));
		case PQ_SORT_UINT32:
			return CMP3(pq_load_le32(a), pq_load_le32(b));
		case PQ_SORT_INT64:
			return CMP3(load_i64(a), load_i64(b));
		case PQ_SORT_UINT64:
			return CMP3(pq_load_le64(a), pq_load_le64(b));
		case PQ_SORT_FLOAT:
			return CMP3(load_float(a), load_float(b));
		case PQ_SORT_DOUBLE:
			return CMP3(load_double(a), load_double(b));
		case PQ_SORT_FLOAT16:
			return CMP3(load_half(a), load_half(b));
		case PQ_SORT_BYTES:
			return cmp_bytes(a, alen, b, blen);
		case PQ_SORT_DECIMAL:
			return cmp_decimal(a, alen, b, blen);
		default:
			elog(ERROR, "no comparison for sort order %d", order);
	}
	return 0;					/* keep compiler quiet */
}

void
pq_stats_init(PqStatsAcc *s, int physical_type, int type_length,
			  const PqLogicalType *logical, int converted_type)
{
	int			lt = logical != NULL ? logical->id : PQ_LT_NONE;

	memset(s, 0, sizeof(PqStatsAcc));
	s->order = pq_sort_order(physical_type, logical, converted_type);
	s->ptype = physical_type;
	s->width = physical_type == PQ_BYTE_ARRAY ? 0 :
		physical_type == PQ_BOOLEAN ? 1 :
		physical_type == PQ_INT32 || physical_type == PQ_FLOAT ? 4 :
		physical_type == PQ_INT64 || physical_type == PQ_DOUBLE ? 8 :
		physical_type == PQ_INT96 ? 12 : type_length;
	s->utf8 = lt == PQ_LT_STRING || lt == PQ_LT_ENUM || lt == PQ_LT_JSON ||
		(lt == PQ_LT_NONE && (converted_type == PQ_CT_UTF8 ||
							  converted_type == PQ_CT_ENUM ||
							  converted_type == PQ_CT_JSON));
	/* FLBA bounds must keep their length; decimals their value */
	s->truncatable = physical_type == PQ_BYTE_ARRAY &&
		s->order == PQ_SORT_BYTES;
	pq_buffer_init(&s->min, 16);
	pq_buffer_init(&s->max, 16);
}

void
pq_stats_reset(PqStatsAcc *s)
{
	s->null_count = 0;
	s->nan_count = 0;
	s->has_bounds = false;
	pq_buffer_reset(&s->min);
	pq_buffer_reset(&s->max);
}

static void
set_bound(PqBuffer *buf, const uint8 *v, int len)
{
	pq_buffer_reset(buf);
	pq_buffer_append(buf, v, len);
}

/* Widen the bounds to include [lo, hi]. */
static void
acc_offer(PqStatsAcc *s, const uint8 *lo, int lolen, const uint8 *hi,
		  int hilen)
{
	if (!s->has_bounds)
	{
		set_bound(&s->min, lo, lolen);
		set_bound(&s->max, hi, hilen);
		s->has_bounds = true;
		return;
	}
	if (pq_stats_compare(s->order, lo, lolen, s->min.data, (int) s->min.len) < 0)
		set_bound(&s->min, lo, lolen);
	if (pq_stats_compare(s->order, hi, hilen, s->max.data, (int) s->max.len) > 0)
		set_bound(&s->max, hi, hilen);
}

/*
 * Extremes of n fixed-width values by a typed comparison: the loop body is
 * instantiated per C type so that it compiles to plain compares.
 */
#define FIXED_MINMAX(ctype, load, width) \
	do { \
		const uint8 *p = fixed; \
		const uint8 *lop = p, *hip = p; \
		ctype		lo = load(p), hi = lo; \
		int			i; \
		for (i = 1; i < n; i++) \
		{ \
			ctype		v = load(p + (size_t) i * (width)); \
			if (v < lo) { lo = v; lop = p + (size_t) i * (width); } \
			if (v > hi) { hi = v; hip = p + (size_t) i * (width); } \
		} \
		acc_offer(s, lop, width, hip, width); \
	} while (0)

/* Floats: skip NaNs (counted), offer nothing if every value is NaN. */
#define FLOAT_MINMAX(ctype, load, width) \
	do { \
		const uint8 *p = fixed; \
		const uint8 *lop = NULL, *hip = NULL; \
		ctype		lo = 0, hi = 0; \
		int			i; \
		for (i = 0; i < n; i++) \
		{ \
			ctype		v = load(p + (size_t) i * (width)); \
			if (isnan(v)) { s->nan_count++; continue; } \
			if (lop == NULL || v < lo) { lo = v; lop = p + (size_t) i * (width); } \
			if (hip == NULL || v > hi) { hi = v; hip = p + (size_t) i * (width); } \
		} \
		if (lop != NULL) \
			acc_offer(s, lop, width, hip, width); \
	} while (0)

static void
update_bytes(PqStatsAcc *s, const void *fixed, const PqByteArray *ba, int n)
{
	const uint8 *lop,
			   *hip;
	int			lolen,
				hilen;
	int			i;
	bool		dec = s->order == PQ_SORT_DECIMAL;

	if (ba != NULL)
	{
		lop = hip = ba[0].ptr;
		lolen = hilen = (int) ba[0].len;
		for (i = 1; i < n; i++)
		{
			const uint8 *v = ba[i].ptr;
			int			len = (int) ba[i].len;

			if ((dec ? cmp_decimal(v, len, lop, lolen) :
				 cmp_bytes(v, len, lop, lolen)) < 0)
			{
				lop = v;
				lolen = len;
			}
			if ((dec ? cmp_decimal(v, len, hip, hilen) :
				 cmp_bytes(v, len, hip, hilen)) > 0)
			{
				hip = v;
				hilen = len;
			}
		}
	}
	else
	{
		const uint8 *p = fixed;
		int			w = s->width;

		lop = hip = p;
		lolen = hilen = w;
		for (i = 1; i < n; i++)
		{
			const uint8 *v = p + (size_t) i * w;

			if ((dec ? cmp_decimal(v, w, lop, w) : memcmp(v, lop, w)) < 0)
				lop = v;
			if ((dec ? cmp_decimal(v, w, hip, w) : memcmp(v, hip, w)) > 0)
				hip = v;
		}
	}
	/* byte arrays of length 0 may have a NULL pointer */
	acc_offer(s, lop != NULL ? lop : (const uint8 *) "", lolen,
			  hip != NULL ? hip : (const uint8 *) "", hilen);
}

void
pq_stats_update(PqStatsAcc *s, const void *fixed, const PqByteArray *ba,
				int n)
{
	if (n <= 0)
		return;
	switch (s->order)
	{
		case PQ_SORT_NONE:
			break;
		case PQ_SORT_BOOL:
			{
				const uint8 *p = fixed;
				static const uint8 f = 0,
							t = 1;
				bool		any_false = false,
							any_true = false;
				int			i;

				for (i = 0; i < n && !(any_false && any_true); i++)
				{
					if (p[i])
						any_true = true;
					else
						any_false = true;
				}
				acc_offer(s, any_false ? &f : &t, 1, any_true ? &t : &f, 1);
				break;
			}
		case PQ_SORT_INT32:
			FIXED_MINMAX(int32, load_i32, 4);
			break;
		case PQ_SORT_UINT32:
			FIXED_MINMAX(uint32, load_u32, 4);
			break;
		case PQ_SORT_INT64:
			FIXED_MINMAX(int64, load_i64, 8);
			break;
		case PQ_SORT_UINT64:
			FIXED_MINMAX(uint64, load_u64, 8);
			break;
		case PQ_SORT_FLOAT:
			FLOAT_MINMAX(float, load_float, 4);
			break;
		case PQ_SORT_DOUBLE:
			FLOAT_MINMAX(double, load_double, 8);
			break;
		case PQ_SORT_FLOAT16:
			FLOAT_MINMAX(float, load_half, 2);
			break;
		case PQ_SORT_BYTES:
		case PQ_SORT_DECIMAL:
			update_bytes(s, fixed, ba, n);
			break;
	}
}

void
pq_stats_merge(PqStatsAcc *dst, const PqStatsAcc *src)
{
	dst->null_count += src->null_count;
	dst->nan_count += src->nan_count;
	if (src->has_bounds)
		acc_offer(dst, src->min.data, (int) src->min.len,
				  src->max.data, (int) src->max.len);
}

/* ---- truncation ---- */

/* Length of the UTF-8 sequence starting with byte c, 0 if c cannot start one */
static int
utf8_seq_len(uint8 c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return 2;
	if (c >= 0xE0 && c <= 0xEF)
		return 3;
	if (c >= 0xF0 && c <= 0xF4)
		return 4;
	return 0;
}

/* Decode one complete sequence of len bytes; -1 if it is not valid UTF-8. */
static int32
utf8_decode(const uint8 *p, int len)
{
	int32		cp;
	int			i;

	if (len != utf8_seq_len(p[0]))
		return -1;
	if (len == 1)
		return p[0];
	cp = p[0] & (0x7F >> len);
	for (i = 1; i < len; i++)
	{
		if ((p[i] & 0xC0) != 0x80)
			return -1;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	/* overlong forms, surrogates and values past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		(cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return -1;
	return cp;
}

static bool
utf8_valid(const uint8 *p, int len)
{
	int			i = 0;

	while (i < len)
	{
		int			n = utf8_seq_len(p[i]);

		if (n == 0 || i + n > len || utf8_decode(p + i, n) < 0)
			return false;
		i += n;
	}
	return true;
}

static void
utf8_append(PqBuffer *out, int32 cp)
{
	if (cp < 0x80)
		pq_buffer_append_byte(out, (uint8) cp);
	else if (cp < 0x800)
	{
		pq_buffer_append_byte(out, (uint8) (0xC0 | (cp >> 6)));
		pq_buffer_append_byte(out, (uint8) (0x80 | (cp & 0x3F)));
	}
	else if (cp < 0x10000)
	{
		pq_buffer_append_byte(out, (uint8) (0xE0 | (cp >> 12)));
		pq_buffer_append_byte(out, (uint8) (0x80 | ((cp >> 6) & 0x3F)));
		pq_buffer_append_byte(out, (uint8) (0x80 | (cp & 0x3F)));
	}
	else
	{
		pq_buffer_append_byte(out, (uint8) (0xF0 | (cp >> 18)));
		pq_buffer_append_byte(out, (uint8) (0x80 | ((cp >> 12) & 0x3F)));
		pq_buffer_append_byte(out, (uint8) (0x80 | ((cp >> 6) & 0x3F)));
		pq_buffer_append_byte(out, (uint8) (0x80 | (cp & 0x3F)));
	}
}

int
pq_truncate_min(const uint8 *v, int len, int limit, bool utf8)
{
	int			n = limit;

	if (len <= limit)
		return len;
	/* v[n] is the first byte dropped: it must not continue a character */
	if (utf8)
		while (n > 0 && (v[n] & 0xC0) == 0x80)
			n--;
	return n;
}

bool
pq_truncate_max(const uint8 *v, int len, int limit, bool utf8, PqBuffer *out)
{
	int			n;

	if (len <= limit)
		return false;
	n = pq_truncate_min(v, len, limit, utf8);
	if (utf8 && n == 0)
		n = Min(Max(utf8_seq_len(v[0]), 1), len);
	if (utf8 && utf8_valid(v, n))
	{
		/*
		 * Increment the last character that can be incremented: UTF-8 bytes
		 * order like code points, so the result exceeds every string with the
		 * kept prefix, and it stays valid UTF-8 (surrogates skipped).
		 */
		int			end = n;

		while (end > 0)
		{
			int			start = end - 1;
			int32		cp;

			while (start > 0 && (v[start] & 0xC0) == 0x80)
				start--;
			cp = utf8_decode(v + start, end - start) + 1;
			if (cp >= 0xD800 && cp <= 0xDFFF)
				cp = 0xE000;
			if (cp <= 0x10FFFF)
			{
				pq_buffer_append(out, v, start);
				utf8_append(out, cp);
				return true;
			}
			end = start;
		}
		return false;
	}
	/* bytes: drop trailing 0xFF, increment the last byte left */
	n = limit;
	while (n > 0 && v[n - 1] == 0xFF)
		n--;
	if (n == 0)
		return false;
	pq_buffer_append(out, v, n - 1);
	pq_buffer_append_byte(out, (uint8) (v[n - 1] + 1));
	return true;
}

/* Append a bound with the float zero rule: min -0.0, max +0.0. */
static bool
append_float_zero(const PqStatsAcc *s, const PqBuffer *bound, bool is_min,
				  PqBuffer *out)
{
	const uint8 *p = bound->data;
	uint8		z[8] = {0};

	switch (s->order)
	{
		case PQ_SORT_FLOAT:
			if (load_float(p) != 0.0f)
				return false;
			if (is_min)
				z[3] = 0x80;
			pq_buffer_append(out, z, 4);
			return true;
		case PQ_SORT_DOUBLE:
			if (load_double(p) != 0.0)
				return false;
			if (is_min)
				z[7] = 0x80;
			pq_buffer_append(out, z, 8);
			return true;
		case PQ_SORT_FLOAT16:
			if ((p[1] & 0x7F) != 0 || p[0] != 0)
				return false;
			if (is_min)
				z[1] = 0x80;
			pq_buffer_append(out, z, 2);
			return true;
		default:
			return false;
	}
}

bool
pq_stats_bounds(const PqStatsAcc *s, int truncate_len, PqBuffer *out,
				PqStatsBounds *b)
{
	const uint8 *lo = s->min.data;
	const uint8 *hi = s->max.data;
	int			lolen = (int) s->min.len;
	int			hilen = (int) s->max.len;
	bool		trunc = s->truncatable && truncate_len > 0;

	if (!s->has_bounds || s->order == PQ_SORT_NONE)
		return false;

	b->min_off = out->len;
	b->min_exact = true;
	if (!append_float_zero(s, &s->min, true, out))
	{
		if (trunc && lolen > truncate_len)
		{
			lolen = pq_truncate_min(lo, lolen, truncate_len, s->utf8);
			b->min_exact = false;
		}
		pq_buffer_append(out, lo, lolen);
	}
	b->min_len = (int) (out->len - b->min_off);

	b->max_off = out->len;
	b->max_exact = true;
	if (!append_float_zero(s, &s->max, false, out))
	{
		if (trunc && hilen > truncate_len &&
			pq_truncate_max(hi, hilen, truncate_len, s->utf8, out))
			b->max_exact = false;
		else
			pq_buffer_append(out, hi, hilen);
	}
	b->max_len = (int) (out->len - b->max_off);
	return true;
}

void
pq_stats_to_thrift(const PqStatsAcc *s, int truncate_len, PqBuffer *store,
				   PqStatistics *st)
{
	PqStatsBounds b;

	memset(st, 0, sizeof(PqStatistics));
	st->has_null_count = true;
	st->null_count = s->null_count;
	if (pq_sort_order_is_float(s->order))
	{
		st->has_nan_count = true;
		st->nan_count = s->nan_count;
	}
	if (!pq_stats_bounds(s, truncate_len, store, &b))
		return;
	st->min_value.ptr = store->data + b.min_off;
	st->min_value.len = b.min_len;
	st->max_value.ptr = store->data + b.max_off;
	st->max_value.len = b.max_len;
	st->has_is_min_value_exact = true;
	st->is_min_value_exact = b.min_exact;
	st->has_is_max_value_exact = true;
	st->is_max_value_exact = b.max_exact;
	if (s->order == PQ_SORT_INT32 || s->order == PQ_SORT_INT64 ||
		s->order == PQ_SORT_FLOAT || s->order == PQ_SORT_DOUBLE)
	{
		st->min = st->min_value;
		st->max = st->max_value;
	}
}

int
pq_boundary_order(int order, const PqBytes *min, const PqBytes *max,
				  const bool *null_page, int npages)
{
	bool		asc = true;
	bool		desc = true;
	int			prev = -1;
	int			i;

	for (i = 0; i < npages; i++)
	{
		int			cmin,
					cmax;

		if (null_page[i])
			continue;
		if (prev >= 0)
		{
			cmin = pq_stats_compare(order, min[prev].ptr, min[prev].len,
									min[i].ptr, min[i].len);
			cmax = pq_stats_compare(order, max[prev].ptr, max[prev].len,
									max[i].ptr, max[i].len);
			if (cmin > 0 || cmax > 0)
				asc = false;
			if (cmin < 0 || cmax < 0)
				desc = false;
		}
		prev = i;
	}
	if (asc)
		return PQ_BOUNDARY_ASCENDING;
	return desc ? PQ_BOUNDARY_DESCENDING : PQ_BOUNDARY_UNORDERED;
}
