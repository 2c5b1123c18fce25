/*-------------------------------------------------------------------------
 *
 * numeric.c
 *		BOOLEAN, integers (signed and unsigned), FLOAT, DOUBLE, FLOAT16 and
 *		DECIMAL (INT32, INT64, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY) to Datums.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fdw/convert/convert.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

static void
conv_bool(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
		  Datum *out)
{
	const uint8 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = BoolGetDatum(v[i] != 0);
}

static void
conv_int32_int4(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				int n, Datum *out)
{
	const int32 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = Int32GetDatum(v[i]);
}

/* INT(8/16, signed) stored in INT32 */
static void
conv_int32_int2(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				int n, Datum *out)
{
	const int32 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
	{
		if (unlikely(v[i] < PG_INT16_MIN || v[i] > PG_INT16_MAX))
		{
			/* in a dictionary or statistic: the nearest end of the range */
			pqfdw_value_out_of_range_deferred(cv, i, "value");
			out[i] = Int16GetDatum(v[i] < 0 ? PG_INT16_MIN : PG_INT16_MAX);
			continue;
		}
		out[i] = Int16GetDatum((int16) v[i]);
	}
}

/* INT(8, unsigned) -> int2; INT(16, unsigned) -> int4 */
static void
conv_uint32_small(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				  int n, Datum *out)
{
	const uint32 *v = fixed;
	uint32		limit = cv->node->logical.int_bit_width == 8 ? 0xFF : 0xFFFF;
	bool		to_int2 = (cv->natural_type == INT2OID);
	int			i;

	for (i = 0; i < n; i++)
	{
		uint32		u = v[i];

		if (unlikely(u > limit))
		{
			/* in a dictionary or statistic: just above the range */
			pqfdw_value_out_of_range_deferred(cv, i, "unsigned value");
			u = limit + 1;
		}
		out[i] = to_int2 ? Int16GetDatum((int16) u) : Int32GetDatum((int32) u);
	}
}

/* INT(32, unsigned) -> int8 */
static void
conv_uint32_int8(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				 int n, Datum *out)
{
	const uint32 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = Int64GetDatum((int64) v[i]);
}

static void
conv_int64_int8(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				int n, Datum *out)
{
	const int64 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = Int64GetDatum(v[i]);
}

/* DECIMAL in INT32, unscaled: int8 (grouped scans aggregate these) */
static void
conv_int32_int8(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				int n, Datum *out)
{
	const int32 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = Int64GetDatum((int64) v[i]);
}

static Datum
numeric_from_cstring(const char *s)
{
	return DirectFunctionCall3(numeric_in, CStringGetDatum(s),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* INT(64, unsigned) -> numeric */
static void
conv_uint64_numeric(PqConverter *cv, const void *fixed, const PqByteArray *ba,
					int n, Datum *out)
{
	const uint64 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
	{
		if (v[i] <= (uint64) PG_INT64_MAX)
			out[i] = NumericGetDatum(int64_to_numeric((int64) v[i]));
		else
		{
			char		buf[32];

			snprintf(buf, sizeof(buf), UINT64_FORMAT, v[i]);
			out[i] = numeric_from_cstring(buf);
		}
	}
}

static void
conv_float4(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
			Datum *out)
{
	const float4 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = Float4GetDatum(v[i]);
}

static void
conv_float8(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
			Datum *out)
{
	const float8 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = Float8GetDatum(v[i]);
}

/* IEEE 754 binary16 (little-endian) to float, exact for every input. */
static float4
half_to_float(uint16 h)
{
	uint32		sign = (uint32) (h >> 15) << 31;
	int			exp = (h >> 10) & 0x1f;
	uint32		mant = h & 0x3ff;
	uint32		bits;
	float4		f;

	if (exp == 0x1f)
		bits = sign | 0x7f800000 | (mant << 13);	/* Inf, NaN */
	else if (exp != 0)
		bits = sign | ((uint32) (exp - 15 + 127) << 23) | (mant << 13);
	else if (mant == 0)
		bits = sign;			/* +-0 */
	else
	{
		/* subnormal: mant * 2^-24, exactly representable as a float */
		f = ldexpf((float4) mant, -24);
		return sign ? -f : f;
	}
	memcpy(&f, &bits, sizeof(f));
	return f;
}

static void
conv_float16(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
			 Datum *out)
{
	const uint8 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = Float4GetDatum(half_to_float((uint16) (v[2 * i] | (v[2 * i + 1] << 8))));
}

static void
conv_decimal_int32(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				   int n, Datum *out)
{
	pqfdw_decimals_to_numeric(fixed, true, n, cv->decimal_scale, out);
}

static void
conv_decimal_int64(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				   int n, Datum *out)
{
	pqfdw_decimals_to_numeric(fixed, false, n, cv->decimal_scale, out);
}

/*
 * Big-endian two's complement of any length to a numeric with the given
 * scale.  Values that fit in int64 take the fast path; longer ones go
 * through a decimal string built by repeated division by 10^9.
 */
static Datum
decimal_from_bytes(const uint8 *p, uint32 len, int scale)
{
	bool		negative;
	char	   *digits;
	char	   *out;
	int			ndigits;
	int			i;
	uint32		j;
	int			start;

	if (len == 0)
		return NumericGetDatum(int64_div_fast_to_numeric(0, scale));

	negative = (p[0] & 0x80) != 0;
	if (len <= 8)
	{
		uint64		u = negative ? ~UINT64CONST(0) : 0;

		for (j = 0; j < len; j++)
			u = (u << 8) | p[j];
		return NumericGetDatum(int64_div_fast_to_numeric((int64) u, scale));
	}

	digits = palloc(PQ_DECIMAL_DIGITS_CAP(len));
	ndigits = pq_twos_be_digits(p, len, digits, &negative);

	/* add sign, point and leading zeros */
	out = palloc(ndigits + scale + 4);
	start = 0;
	if (negative)
		out[start++] = '-';
	if (ndigits <= scale)
	{
		out[start++] = '0';
		out[start++] = '.';
		for (i = 0; i < scale - ndigits; i++)
			out[start++] = '0';
		for (i = 0; i < ndigits; i++)
			out[start++] = digits[i];
	}
	else
	{
		for (i = 0; i < ndigits; i++)
		{
			out[start++] = digits[i];
			if (ndigits - 1 - i == scale && scale > 0)
				out[start++] = '.';
		}
	}
	out[start] = '\0';
	return numeric_from_cstring(out);
}

static void
conv_decimal_flba(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				  int n, Datum *out)
{
	const uint8 *v = fixed;
	uint32		w = cv->type_length;
	int			i;

	for (i = 0; i < n; i++)
		out[i] = decimal_from_bytes(v + (size_t) i * w, w, cv->decimal_scale);
}

static void
conv_decimal_ba(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				int n, Datum *out)
{
	int			i;

	for (i = 0; i < n; i++)
		out[i] = decimal_from_bytes(ba[i].ptr, ba[i].len, cv->decimal_scale);
}

PqConvertFn
pqfdw_numeric_converter(PqConverter *cv)
{
	int			pt = cv->physical_type;
	const PqLogicalType *lt = &cv->node->logical;

	if (lt->id == PQ_LT_DECIMAL)
	{
		switch (pt)
		{
			case PQ_INT32:
				return conv_decimal_int32;
			case PQ_INT64:
				return conv_decimal_int64;
			case PQ_FIXED_LEN_BYTE_ARRAY:
				return conv_decimal_flba;
			case PQ_BYTE_ARRAY:
				return conv_decimal_ba;
		}
		return NULL;
	}
	if (lt->id == PQ_LT_FLOAT16)
		return conv_float16;
	if (lt->id == PQ_LT_INTEGER)
	{
		if (pt == PQ_INT64)
			return lt->int_is_signed ? conv_int64_int8 : conv_uint64_numeric;
		if (lt->int_is_signed)
			return lt->int_bit_width == 32 ? conv_int32_int4 : conv_int32_int2;
		return lt->int_bit_width == 32 ? conv_uint32_int8 : conv_uint32_small;
	}
	if (lt->id != PQ_LT_NONE)
		return NULL;
	switch (pt)
	{
		case PQ_BOOLEAN:
			return conv_bool;
		case PQ_INT32:
			return conv_int32_int4;
		case PQ_INT64:
			return conv_int64_int8;
		case PQ_FLOAT:
			return conv_float4;
		case PQ_DOUBLE:
			return conv_float8;
	}
	return NULL;
}

/*
 * A big-endian two's complement DECIMAL of a byte array as int128; longer
 * than 16 bytes only with sign extension (precision <= 38 fits 16 bytes).
 */
static int128
be_int128(PqConverter *cv, int dense_index, const uint8 *p, uint32 len)
{
	uint128		u;
	uint8		sign = len > 0 && (p[0] & 0x80) ? 0xFF : 0;
	uint32		j;

	for (j = 0; len > 16 && j < len - 16; j++)
		if (p[j] != sign)
			pqfdw_value_out_of_range(cv, dense_index, "DECIMAL");
	u = sign ? ~(uint128) 0 : 0;
	for (j = len > 16 ? len - 16 : 0; j < len; j++)
		u = (u << 8) | p[j];
	return (int128) u;
}

/* DECIMAL in a byte array, unscaled: Datums pointing to int128 values */
static void
conv_bytes_int128(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				  int n, Datum *out)
{
	int128	   *vals = palloc(sizeof(int128) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
	{
		if (cv->physical_type == PQ_FIXED_LEN_BYTE_ARRAY)
			vals[i] = be_int128(cv, i, (const uint8 *) fixed +
								(size_t) i * cv->type_length, cv->type_length);
		else
			vals[i] = be_int128(cv, i, ba[i].ptr, ba[i].len);
		out[i] = PointerGetDatum(&vals[i]);
	}
}

PqConvertFn
pqfdw_unscaled_converter(PqConverter *cv)
{
	if (cv->node->logical.id != PQ_LT_DECIMAL)
		return NULL;
	if (cv->physical_type == PQ_INT32)
		return conv_int32_int8;
	if (cv->physical_type == PQ_INT64)
		return conv_int64_int8;
	if ((cv->physical_type == PQ_FIXED_LEN_BYTE_ARRAY ||
		 cv->physical_type == PQ_BYTE_ARRAY) &&
		cv->node->logical.decimal_precision <= 38)
		return conv_bytes_int128;
	return NULL;
}
