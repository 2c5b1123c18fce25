/*-------------------------------------------------------------------------
 *
 * write_numeric.c
 *		bool, int2/int4/int8, float4/float8 and numeric -> Parquet
 *		BOOLEAN, INT32/INT64, FLOAT/DOUBLE and DECIMAL.
 *
 * numeric is read in its on-disk form (base-10000 digits, a weight and a
 * sign behind a short or long header) and scaled exactly in 128-bit
 * arithmetic; a value with more fractional digits than the scale or more
 * integer digits than the precision allows, NaN and ±Infinity are
 * errors, never rounded.  numeric.c keeps that form private, but
 * pg_upgrade keeps data files, so it cannot change between major
 * versions; numeric_send, the public route, cost a palloc'd copy per
 * value and 8% of a lineitem COPY.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/copy/write_convert.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"

#ifndef HAVE_INT128
#error "COPY TO parquet needs a compiler with a 128-bit integer type"
#endif

/* the on-disk header's first 16 bits (numeric.c) */
#define NUMERIC_SIGN_MASK	0xC000
#define NUMERIC_NEG			0x4000
#define NUMERIC_SHORT		0x8000
#define NUMERIC_SPECIAL		0xC000
#define NUMERIC_EXT_SIGN_MASK	0xF000
#define NUMERIC_NAN			0xC000
#define NUMERIC_PINF		0xD000
#define NUMERIC_SHORT_SIGN_MASK	0x2000
#define NUMERIC_SHORT_WEIGHT_SIGN_MASK	0x0040
#define NUMERIC_SHORT_WEIGHT_MASK	0x003F

#define NBASE_DIGITS 4			/* decimal digits per numeric digit */

static int128 pow10_tab[39];

static void
init_pow10(void)
{
	int			i;

	if (pow10_tab[0] != 0)
		return;
	pow10_tab[0] = 1;
	for (i = 1; i < lengthof(pow10_tab); i++)
		pow10_tab[i] = pow10_tab[i - 1] * 10;
}

/* a 16-bit field of the on-disk form, which a 1-byte varlena header leaves unaligned */
static inline uint16
load_u16(const uint8 *p)
{
	uint16		v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * What a user can do about a numeric that does not fit: only unconstrained
 * numerics have a DECIMAL chosen by options (numeric_scale); numeric_as
 * 'string' applies to them too.
 */
static const char *
numeric_hint(PqWriteColumn *col, bool integer_digits)
{
	if (col->typmod >= (int32) VARHDRSZ)
		return "COPY from a query that writes the column as text (col::text).";
	if (integer_digits)
		return psprintf("Use numeric_scale with a value below %d to leave more integer digits, numeric_as 'string' to write exact text, or COPY from a query that casts the column to numeric(38,s) with the scale it needs.",
						col->decimal_scale);
	return psprintf("Use numeric_scale with a value above %d, numeric_as 'string' to write exact text, or COPY from a query that rounds the column (round(col, %d)).",
					col->decimal_scale, col->decimal_scale);
}

/*
 * The unscaled DECIMAL(precision, scale) integer of one numeric, or an
 * ERROR.  Digit i is worth digit * 10000^(weight - i), so in the
 * unscaled integer its unit sits at 10^(4 * (weight - i) + scale); a
 * negative exponent must only drop zeros.
 */
static int128
numeric_to_unscaled(PqWriteColumn *col, int64 row_base, int row)
{
	struct varlena *t = PG_DETOAST_DATUM_PACKED(col->values[row]);
	const uint8 *p = (const uint8 *) VARDATA_ANY(t);
	Size		len = VARSIZE_ANY_EXHDR(t);
	uint16		header = load_u16(p);
	int			ndigits;
	int			weight;
	bool		negative;
	const uint8 *digits;
	int			precision = col->decimal_precision;
	int			scale = col->decimal_scale;
	int128		acc = 0;
	int			i;

	if ((header & NUMERIC_SIGN_MASK) == NUMERIC_SPECIAL)
	{
		uint16		special = header & NUMERIC_EXT_SIGN_MASK;

		pqfdw_write_value_error(col, row_base, row,
								ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
								psprintf("%s cannot be written as a Parquet DECIMAL.",
										 special == NUMERIC_NAN ? "NaN" :
										 special == NUMERIC_PINF ? "Infinity" :
										 "-Infinity"),
								col->typmod >= (int32) VARHDRSZ ?
								"COPY from a query that replaces the value (for example nullif(col, 'NaN')) or writes the column as text (col::text)." :
								"Use numeric_as 'string' to write the column as text, or COPY from a query that replaces the value (for example nullif(col, 'NaN')).");
	}
	if ((header & NUMERIC_SIGN_MASK) == NUMERIC_SHORT)
	{
		negative = (header & NUMERIC_SHORT_SIGN_MASK) != 0;
		weight = (header & NUMERIC_SHORT_WEIGHT_MASK) |
			((header & NUMERIC_SHORT_WEIGHT_SIGN_MASK) ?
			 ~NUMERIC_SHORT_WEIGHT_MASK : 0);
		digits = p + sizeof(uint16);
	}
	else
	{
		negative = (header & NUMERIC_SIGN_MASK) == NUMERIC_NEG;
		weight = (int16) load_u16(p + sizeof(uint16));
		digits = p + 2 * sizeof(uint16);
	}
	ndigits = (int) ((len - (digits - p)) / sizeof(int16));

	for (i = 0; i < ndigits; i++)
	{
		int			digit = (int16) load_u16(digits + sizeof(int16) * i);
		int			exp = NBASE_DIGITS * (weight - i) + scale;
		int128		part;

		if (digit == 0)
			continue;
		if (exp < 0)
		{
			if (exp <= -NBASE_DIGITS || digit % (int) pow10_tab[-exp] != 0)
				pqfdw_write_value_error(col, row_base, row,
										ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
										psprintf("The value has more than %d fractional digits, so DECIMAL(%d,%d) would round it.",
												 scale, precision, scale),
										numeric_hint(col, false));
			part = digit / (int) pow10_tab[-exp];
		}
		else
		{
			/* part < 10^precision <= 10^38 keeps the product in range */
			if (exp >= precision || digit >= pow10_tab[precision - exp])
				goto overflow;
			part = digit * pow10_tab[exp];
		}
		/* acc + part >= 10^precision, without overflowing the sum */
		if (acc >= pow10_tab[precision] - part)
			goto overflow;
		acc += part;
	}
	if ((Pointer) t != DatumGetPointer(col->values[row]))
		pfree(t);
	return negative ? -acc : acc;

overflow:
	pqfdw_write_value_error(col, row_base, row,
							ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
							psprintf("The value has more than %d integer digits, so it does not fit DECIMAL(%d,%d).",
									 precision - scale, precision, scale),
							numeric_hint(col, true));
}

static void
write_decimal(PqWriteColumn *col, int n, int64 row_base)
{
	int			k = 0;
	int			i;

	init_pow10();
	for (i = 0; i < n; i++)
	{
		int128		v;

		if (col->nulls[i])
			continue;
		v = numeric_to_unscaled(col, row_base, i);
		switch (col->physical_type)
		{
			case PQ_INT32:
				((int32 *) col->fixed)[k] = (int32) v;
				break;
			case PQ_INT64:
				((int64 *) col->fixed)[k] = (int64) v;
				break;
			default:
				{
					/* big-endian two's complement, type_length bytes */
					uint8	   *out = col->fixed + (size_t) k * col->type_length;
					uint128		u = (uint128) v;
					int			b;

					for (b = col->type_length - 1; b >= 0; b--)
					{
						out[b] = (uint8) (u & 0xff);
						u >>= 8;
					}
				}
				break;
		}
		k++;
	}
}

void
pqfdw_write_numeric(PqWriteColumn *col, int n, int64 row_base)
{
	const Datum *v = col->values;
	const bool *nulls = col->nulls;
	int			k = 0;
	int			i;

	switch (col->kind)
	{
		case PQW_BOOL:
			for (i = 0; i < n; i++)
				if (!nulls[i])
					col->fixed[k++] = DatumGetBool(v[i]) ? 1 : 0;
			break;
		case PQW_INT2:
			for (i = 0; i < n; i++)
				if (!nulls[i])
					((int32 *) col->fixed)[k++] = DatumGetInt16(v[i]);
			break;
		case PQW_INT4:
			for (i = 0; i < n; i++)
				if (!nulls[i])
					((int32 *) col->fixed)[k++] = DatumGetInt32(v[i]);
			break;
		case PQW_INT8:
			for (i = 0; i < n; i++)
				if (!nulls[i])
					((int64 *) col->fixed)[k++] = DatumGetInt64(v[i]);
			break;
		case PQW_FLOAT4:
			for (i = 0; i < n; i++)
				if (!nulls[i])
					((float4 *) col->fixed)[k++] = DatumGetFloat4(v[i]);
			break;
		case PQW_FLOAT8:
			for (i = 0; i < n; i++)
				if (!nulls[i])
					((float8 *) col->fixed)[k++] = DatumGetFloat8(v[i]);
			break;
		case PQW_DECIMAL:
			write_decimal(col, n, row_base);
			break;
		default:
			elog(ERROR, "unexpected write kind %d", (int) col->kind);
	}
}
