/*-------------------------------------------------------------------------
 *
 * write_numeric.c
 *		bool, int2/int4/int8, float4/float8 and numeric -> Parquet
 *		BOOLEAN, INT32/INT64, FLOAT/DOUBLE and DECIMAL.
 *
 * numeric is read through its binary send form (base-10000 digits, a
 * weight and a sign: the stable wire format, unlike the private on-disk
 * one) and scaled exactly in 128-bit arithmetic; a value with more
 * fractional digits than the scale or more integer digits than the
 * precision allows, NaN and ±Infinity are errors, never rounded.
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

/* sign field of numeric_send */
#define NUMERIC_SEND_NEG	0x4000
#define NUMERIC_SEND_NAN	0xC000
#define NUMERIC_SEND_PINF	0xD000
#define NUMERIC_SEND_NINF	0xF000

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

static inline uint16
load_be16(const uint8 *p)
{
	return (uint16) ((p[0] << 8) | p[1]);
}

/*
 * The unscaled DECIMAL(precision, scale) integer of one numeric, or an
 * ERROR.  Digit i of the send form is worth digit * 10000^(weight - i),
 * so in the unscaled integer its unit sits at 10^(4 * (weight - i) +
 * scale); a negative exponent must only drop zeros.
 */
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

static int128
numeric_to_unscaled(PqWriteColumn *col, int64 row_base, int row)
{
	bytea	   *b = DatumGetByteaPP(DirectFunctionCall1(numeric_send,
														col->values[row]));
	const uint8 *p = (const uint8 *) VARDATA_ANY(b);
	int			ndigits = (int16) load_be16(p);
	int			weight = (int16) load_be16(p + 2);
	uint16		sign = load_be16(p + 4);
	int			precision = col->decimal_precision;
	int			scale = col->decimal_scale;
	int128		acc = 0;
	int			i;

	if (sign == NUMERIC_SEND_NAN || sign == NUMERIC_SEND_PINF ||
		sign == NUMERIC_SEND_NINF)
		pqfdw_write_value_error(col, row_base, row,
								ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
								psprintf("%s cannot be written as a Parquet DECIMAL.",
										 sign == NUMERIC_SEND_NAN ? "NaN" :
										 sign == NUMERIC_SEND_PINF ? "Infinity" :
										 "-Infinity"),
								col->typmod >= (int32) VARHDRSZ ?
								"COPY from a query that replaces the value (for example nullif(col, 'NaN')) or writes the column as text (col::text)." :
								"Use numeric_as 'string' to write the column as text, or COPY from a query that replaces the value (for example nullif(col, 'NaN')).");

	for (i = 0; i < ndigits; i++)
	{
		int			digit = load_be16(p + 8 + 2 * i);
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
	pfree(b);
	return (sign == NUMERIC_SEND_NEG) ? -acc : acc;

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
