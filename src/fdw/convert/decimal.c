/*-------------------------------------------------------------------------
 *
 * decimal.c
 *		DECIMAL values held in INT32/INT64 (unscaled integers) to numeric
 *		Datums, written directly in numeric's storage format.
 *
 * int64_div_fast_to_numeric() builds each value through a NumericVar and two
 * allocations; here a segment's values are encoded into one block.  The
 * bytes are those make_result() produces for the same value (leading and
 * trailing zero base-10000 digits removed, zero positive with weight 0,
 * the short header form): numeric's on-disk format, which cannot change
 * without breaking pg_upgrade.  Values with a scale beyond 18 (not a valid
 * 64-bit DECIMAL) take PostgreSQL's own path.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/convert/convert.h"
#include "utils/numeric.h"

/* numeric's storage format (utils/adt/numeric.c) */
#define NUMERIC_SHORT			0x8000
#define NUMERIC_SHORT_SIGN_MASK 0x2000
#define NUMERIC_SHORT_DSCALE_SHIFT 7
#define NUMERIC_SHORT_WEIGHT_SIGN_MASK 0x0040
#define NUMERIC_SHORT_WEIGHT_MASK 0x003F
#define NUMERIC_HDRSZ_SHORT		(VARHDRSZ + sizeof(uint16))
#define NBASE_DIGITS			4

#define MAX_SCALE 18
#define MAX_GROUPS 10			/* 5 integer + 5 fraction base-10000 digits */
#define MAX_BYTES INTALIGN(NUMERIC_HDRSZ_SHORT + MAX_GROUPS * sizeof(int16))

const uint64 pqfdw_pow10[MAX_SCALE + 1] = {
	UINT64CONST(1), UINT64CONST(10), UINT64CONST(100), UINT64CONST(1000),
	UINT64CONST(10000), UINT64CONST(100000), UINT64CONST(1000000),
	UINT64CONST(10000000), UINT64CONST(100000000), UINT64CONST(1000000000),
	UINT64CONST(10000000000), UINT64CONST(100000000000),
	UINT64CONST(1000000000000), UINT64CONST(10000000000000),
	UINT64CONST(100000000000000), UINT64CONST(1000000000000000),
	UINT64CONST(10000000000000000), UINT64CONST(100000000000000000),
	UINT64CONST(1000000000000000000)
};

/*
 * Encode v / 10^scale at dst (4-byte aligned, MAX_BYTES available); returns
 * the bytes used.
 */
static inline Size
encode_numeric(int64 v, int scale, char *dst)
{
	uint64		u = v < 0 ? -(uint64) v : (uint64) v;
	uint64		ip = u / pqfdw_pow10[scale];
	uint64		fp = u % pqfdw_pow10[scale];
	int16		groups[MAX_GROUPS];
	int16		intg[MAX_GROUPS / 2];
	int			fg = (scale + NBASE_DIGITS - 1) / NBASE_DIGITS;
	int			ig = 0;
	int			first = 0;
	int			n;
	int			weight;
	int			i;
	uint16		header;
	Size		len;

	/* integer groups, most significant first */
	while (ip > 0)
	{
		intg[ig++] = (int16) (ip % 10000);
		ip /= 10000;
	}
	for (i = 0; i < ig; i++)
		groups[i] = intg[ig - 1 - i];
	/* then the fraction's; the last is padded with zeros on the right */
	if (fg > 0)
	{
		int			pad = fg * NBASE_DIGITS - scale;
		int			last = NBASE_DIGITS - pad;

		groups[ig + fg - 1] = (int16) ((fp % pqfdw_pow10[last]) * pqfdw_pow10[pad]);
		fp /= pqfdw_pow10[last];
		for (i = fg - 2; i >= 0; i--)
		{
			groups[ig + i] = (int16) (fp % 10000);
			fp /= 10000;
		}
	}
	n = ig + fg;
	weight = ig - 1;

	while (first < n && groups[first] == 0)
	{
		first++;
		weight--;
	}
	while (n > first && groups[n - 1] == 0)
		n--;
	n -= first;
	if (n == 0)
	{
		weight = 0;
		v = 0;
	}

	len = NUMERIC_HDRSZ_SHORT + n * sizeof(int16);
	header = NUMERIC_SHORT |
		(v < 0 ? NUMERIC_SHORT_SIGN_MASK : 0) |
		(scale << NUMERIC_SHORT_DSCALE_SHIFT) |
		(weight < 0 ? NUMERIC_SHORT_WEIGHT_SIGN_MASK : 0) |
		(weight & NUMERIC_SHORT_WEIGHT_MASK);
	SET_VARSIZE(dst, len);
	memcpy(dst + VARHDRSZ, &header, sizeof(uint16));
	/* at most MAX_GROUPS digits: no call to memcpy() */
	for (i = 0; i < n; i++)
		memcpy(dst + NUMERIC_HDRSZ_SHORT + i * sizeof(int16), &groups[first + i],
			   sizeof(int16));
	return len;
}

/*
 * Encode n values at block; scale is a constant where this is inlined, so
 * that the divisions by its powers of ten become multiplications.
 */
static pg_attribute_always_inline void
encode_block(const void *values, bool narrow, int n, int scale, char *block,
			 Datum *out)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		int64		v = narrow ? ((const int32 *) values)[i] :
		((const int64 *) values)[i];

		out[i] = PointerGetDatum(block);
		block += INTALIGN(encode_numeric(v, scale, block));
	}
}

/* n unscaled values (int32 when narrow, else int64) to numeric Datums. */
void
pqfdw_decimals_to_numeric(const void *values, bool narrow, int n, int scale,
						  Datum *out)
{
	char	   *block;
	int			i;

	if (scale < 0 || scale > MAX_SCALE)
	{
		for (i = 0; i < n; i++)
			out[i] = NumericGetDatum(int64_div_fast_to_numeric(narrow ?
															   ((const int32 *) values)[i] :
															   ((const int64 *) values)[i],
															   scale));
		return;
	}
	block = palloc_extended(Max((Size) n * MAX_BYTES, 1), MCXT_ALLOC_HUGE);
	/* the usual scales get a loop of their own */
	switch (scale)
	{
		case 0:
			encode_block(values, narrow, n, 0, block, out);
			break;
		case 1:
			encode_block(values, narrow, n, 1, block, out);
			break;
		case 2:
			encode_block(values, narrow, n, 2, block, out);
			break;
		case 3:
			encode_block(values, narrow, n, 3, block, out);
			break;
		case 4:
			encode_block(values, narrow, n, 4, block, out);
			break;
		case 6:
			encode_block(values, narrow, n, 6, block, out);
			break;
		default:
			encode_block(values, narrow, n, scale, block, out);
			break;
	}
}
