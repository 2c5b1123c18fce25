/*-------------------------------------------------------------------------
 *
 * physical_value.c
 *		The PLAIN encoding a writer gave the values that equal a constant.
 *
 * The constant is mapped into the column's stored domain type by type
 * (unscaled integers for integers and decimals, days for DATE, units of the
 * column for TIME and TIMESTAMP, UTF-8 bytes for strings), then read back
 * through the column's own converter and compared with the constant by the
 * qual's comparison function: only a stored value that reads back equal is
 * returned.  Mapping and read-back are exact, so when the read-back differs
 * no stored value can equal the constant.
 *
 * This needs the declared type to tell every stored value apart: casts
 * from the natural type that round (int8 -> float8), fold values
 * (timestamp -> timestamptz across a daylight saving gap, varchar(n)
 * dropping trailing spaces, numeric(p,s) rounding) or reformat (I/O casts)
 * give PQ_PHYS_UNKNOWN, as do types with several encodings of one value
 * (-0.0 and 0.0, NaNs, nanoseconds read as microseconds, INT96).  The
 * casts accepted all keep the order, so this is a subset of what
 * pqfdw_stat_converter_keeps_order() accepts.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "catalog/pg_type.h"
#include "common/int.h"
#include "datatype/timestamp.h"
#include "fdw/prune/physical_value.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

/* Days and microseconds between 1970-01-01 and 2000-01-01 */
#define UNIX_TO_PG_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)
#define UNIX_TO_PG_USECS ((int64) UNIX_TO_PG_DAYS * USECS_PER_DAY)

/*
 * Does the cast from the natural to the declared type keep distinct stored
 * values distinct?
 */
static bool
cast_is_injective(PqConverter *cv)
{
	Oid			n = cv->natural_type;
	Oid			t = cv->target_type;

	if (cv->need_typmod_func)
		return false;
	if (n == t)
		return true;
	if (cv->cast == PQ_CAST_NONE)
		return n == TEXTOID && t == VARCHAROID;
	if (cv->cast != PQ_CAST_FUNC)
		return false;
	switch (n)
	{
		case INT2OID:
			return t == INT4OID || t == INT8OID || t == NUMERICOID ||
				t == FLOAT4OID || t == FLOAT8OID;
		case INT4OID:
			return t == INT8OID || t == NUMERICOID || t == FLOAT8OID;
		case INT8OID:
			return t == NUMERICOID;
		case FLOAT4OID:
			return t == FLOAT8OID;
		case DATEOID:
			return t == TIMESTAMPOID;
	}
	return false;
}

static PqPhysResult
set_bytes(const void *data, size_t len, PqBytes *out)
{
	uint8	   *buf;

	if (len > PG_INT32_MAX)
		return PQ_PHYS_UNKNOWN;
	buf = palloc(Max(len, 1));
	memcpy(buf, data, len);
	out->ptr = buf;
	out->len = (int32) len;
	return PQ_PHYS_OK;
}

/* Byte arrays: FIXED_LEN_BYTE_ARRAY holds only values of its length. */
static PqPhysResult
binary_value(PqConverter *cv, const void *data, size_t len, PqBytes *out)
{
	if (cv->physical_type == PQ_FIXED_LEN_BYTE_ARRAY &&
		len != (size_t) cv->type_length)
		return PQ_PHYS_NO_MATCH;
	return set_bytes(data, len, out);
}

static PqPhysResult
encode_text(PqConverter *cv, Datum value, Oid valtype, Oid collation,
			PqBytes *out)
{
	const char *s;
	size_t		len;
	int			encoding = GetDatabaseEncoding();

	/* other collations call strings with different bytes equal */
	if (!OidIsValid(collation) || !get_collation_isdeterministic(collation))
		return PQ_PHYS_UNKNOWN;
	if (valtype == TEXTOID || valtype == VARCHAROID)
	{
		text	   *t = DatumGetTextPP(value);

		s = VARDATA_ANY(t);
		len = VARSIZE_ANY_EXHDR(t);
	}
	else if (valtype == NAMEOID)
	{
		s = NameStr(*DatumGetName(value));
		len = strlen(s);
	}
	else
		return PQ_PHYS_UNKNOWN;

	/* stored as UTF-8, read into the database encoding (SQL_ASCII: as is) */
	if (encoding != PG_UTF8 && encoding != PG_SQL_ASCII)
	{
		char	   *conv = pg_server_to_any(s, len, PG_UTF8);

		if (conv != s)
		{
			s = conv;
			len = strlen(conv);
		}
	}
	return binary_value(cv, s, len, out);
}

/*
 * value * 10^scale as decimal digits (leading zeros allowed) and a sign.
 * PQ_PHYS_NO_MATCH when that is not an integer.
 */
static PqPhysResult
unscaled_digits(Datum value, Oid valtype, int scale, bool *negative,
				StringInfo digits)
{
	int			i;

	*negative = false;
	switch (valtype)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			{
				int64		v;

				if (valtype == INT2OID)
					v = DatumGetInt16(value);
				else if (valtype == INT4OID)
					v = DatumGetInt32(value);
				else
					v = DatumGetInt64(value);

				*negative = v < 0;
				appendStringInfo(digits, UINT64_FORMAT,
								 v < 0 ? -(uint64) v : (uint64) v);
				for (i = 0; i < scale; i++)
					appendStringInfoChar(digits, '0');
				return PQ_PHYS_OK;
			}
		case NUMERICOID:
			{
				Numeric		num = DatumGetNumeric(value);
				const char *s;
				const char *frac;
				int			nfrac;

				if (numeric_is_nan(num) || numeric_is_inf(num))
					return PQ_PHYS_NO_MATCH;
				/* plain notation: [-]digits[.digits] */
				s = DatumGetCString(DirectFunctionCall1(numeric_out, value));
				if (*s == '-')
				{
					*negative = true;
					s++;
				}
				frac = strchr(s, '.');
				appendBinaryStringInfo(digits, s, frac ? frac - s : strlen(s));
				frac = frac ? frac + 1 : "";
				nfrac = strlen(frac);
				for (i = 0; i < scale; i++)
					appendStringInfoChar(digits, i < nfrac ? frac[i] : '0');
				for (i = scale; i < nfrac; i++)
					if (frac[i] != '0')
						return PQ_PHYS_NO_MATCH;
				return PQ_PHYS_OK;
			}
		case FLOAT4OID:
		case FLOAT8OID:
			{
				double		d = valtype == FLOAT4OID ?
				DatumGetFloat4(value) : DatumGetFloat8(value);

				/* floats meet only integer columns (int4 read as float8) */
				if (scale != 0)
					return PQ_PHYS_UNKNOWN;
				if (!isfinite(d) || d != floor(d) || fabs(d) >= 18446744073709551616.0)
					return PQ_PHYS_NO_MATCH;
				*negative = d < 0;
				/* an integral double below 2^64 prints exactly */
				appendStringInfo(digits, "%.0f", fabs(d));
				return PQ_PHYS_OK;
			}
	}
	return PQ_PHYS_UNKNOWN;
}

/*
 * Big-endian two's complement (unsigned: plain binary) of a decimal number
 * in width bytes.  False when it does not fit.
 */
static bool
digits_to_bytes(const char *digits, bool negative, bool is_unsigned,
				int width, uint8 *be)
{
	/* mag[0] is a spare byte: non-zero means the value needs more bytes */
	uint8	   *mag = palloc0(width + 1);
	bool		zero = true;
	int			i;
	int			j;

	for (i = 0; digits[i]; i++)
	{
		uint32		carry = digits[i] - '0';

		for (j = width; j >= 0; j--)
		{
			uint32		x = mag[j] * 10 + carry;

			mag[j] = (uint8) x;
			carry = x >> 8;
		}
		if (mag[0] != 0)
			return false;
	}
	for (j = 1; j <= width; j++)
		zero &= (mag[j] == 0);
	if (zero)
		negative = false;

	if (is_unsigned)
	{
		if (negative)
			return false;
		memcpy(be, mag + 1, width);
		return true;
	}

	/* signed: up to 2^(8 width - 1) - 1, or 2^(8 width - 1) when negative */
	if (mag[1] & 0x80)
	{
		if (!negative)
			return false;
		for (j = 2; j <= width; j++)
			if (mag[j] != 0)
				return false;
		if (mag[1] != 0x80)
			return false;
	}
	if (negative)
	{
		uint32		carry = 1;

		for (j = width; j >= 1; j--)
		{
			uint32		x = (uint8) ~mag[j] + carry;

			mag[j] = (uint8) x;
			carry = x >> 8;
		}
	}
	memcpy(be, mag + 1, width);
	return true;
}

/* INT32/INT64 integers and decimals, FIXED_LEN_BYTE_ARRAY decimals. */
static PqPhysResult
encode_integer(PqConverter *cv, Datum value, Oid valtype, PqBytes *out)
{
	const PqLogicalType *lt = &cv->node->logical;
	bool		is_decimal = (lt->id == PQ_LT_DECIMAL);
	bool		is_unsigned = (lt->id == PQ_LT_INTEGER && !lt->int_is_signed);
	int			scale = is_decimal ? lt->decimal_scale : 0;
	StringInfoData digits;
	bool		negative;
	PqPhysResult res;
	int			width;
	uint8	   *be;
	uint8		le[8];
	int64		v = 0;
	int			j;

	switch (cv->physical_type)
	{
		case PQ_INT32:
			width = 4;
			break;
		case PQ_INT64:
			width = 8;
			break;
		case PQ_FIXED_LEN_BYTE_ARRAY:
			if (!is_decimal)
				return PQ_PHYS_UNKNOWN;
			width = cv->type_length;
			break;
		default:

			/*
			 * BYTE_ARRAY decimals: writers choose the length (minimal or
			 * not), and the filter hashes the bytes as stored.
			 */
			return PQ_PHYS_UNKNOWN;
	}
	if (scale < 0 || width <= 0)
		return PQ_PHYS_UNKNOWN;

	initStringInfo(&digits);
	res = unscaled_digits(value, valtype, scale, &negative, &digits);
	if (res != PQ_PHYS_OK)
		return res;
	be = palloc(width);
	if (!digits_to_bytes(digits.data, negative, is_unsigned, width, be))
		return PQ_PHYS_NO_MATCH;
	if (cv->physical_type == PQ_FIXED_LEN_BYTE_ARRAY)
		return set_bytes(be, width, out);

	/* the converter reads INT(8/16) into int2, unsigned ones into 8/16 bits */
	for (j = 0; j < width; j++)
		v = (int64) (((uint64) v << 8) | be[j]);
	if (width == 4)
		v = is_unsigned ? (int64) (uint32) v : (int64) (int32) v;
	if (lt->id == PQ_LT_INTEGER && lt->int_bit_width <= 16)
	{
		if (is_unsigned ?
			v > (lt->int_bit_width == 8 ? 0xFF : 0xFFFF) :
			(v < PG_INT16_MIN || v > PG_INT16_MAX))
			return PQ_PHYS_NO_MATCH;
	}
	for (j = 0; j < width; j++)
		le[j] = be[width - 1 - j];
	return set_bytes(le, width, out);
}

static PqPhysResult
encode_float(PqConverter *cv, Datum value, Oid valtype, PqBytes *out)
{
	double		d;
	uint8		buf[8];

	if (valtype == FLOAT8OID)
		d = DatumGetFloat8(value);
	else if (valtype == FLOAT4OID)
		d = DatumGetFloat4(value);
	else
		return PQ_PHYS_UNKNOWN;

	/* -0.0 equals 0.0, and NaN equals every NaN, whatever their bits */
	if (isnan(d) || d == 0.0)
		return PQ_PHYS_UNKNOWN;
	if (cv->physical_type == PQ_FLOAT)
	{
		float4		f;
		uint32		bits;

		if (!isinf(d) && fabs(d) > FLT_MAX)
			return PQ_PHYS_NO_MATCH;
		f = (float4) d;
		if ((double) f != d)
			return PQ_PHYS_NO_MATCH;
		memcpy(&bits, &f, sizeof(bits));
		pq_store_le32(buf, bits);
		return set_bytes(buf, 4, out);
	}
	else
	{
		uint64		bits;

		memcpy(&bits, &d, sizeof(bits));
		pq_store_le64(buf, bits);
		return set_bytes(buf, 8, out);
	}
}

static PqPhysResult
encode_date(PqConverter *cv, Datum value, Oid valtype, PqBytes *out)
{
	DateADT		d;
	int32		days;
	int			overflow = 0;
	uint8		buf[4];

	if (cv->physical_type != PQ_INT32)
		return PQ_PHYS_UNKNOWN;
	if (valtype == DATEOID)
	{
		d = DatumGetDateADT(value);
		if (DATE_NOT_FINITE(d))
			return PQ_PHYS_NO_MATCH;
	}
	else if (valtype == TIMESTAMPOID)
	{
		Timestamp	ts = DatumGetTimestamp(value);

		if (TIMESTAMP_NOT_FINITE(ts))
			return PQ_PHYS_NO_MATCH;
		/* its day; only midnight reads back equal */
		d = (DateADT) (ts / USECS_PER_DAY - (ts % USECS_PER_DAY < 0));
	}
	else
		return PQ_PHYS_UNKNOWN;

	/* a date read as timestamp: the cast fails for dates it cannot hold */
	if (cv->target_type == TIMESTAMPOID)
	{
		date2timestamp_opt_overflow(d, &overflow);
		if (overflow != 0)
			return PQ_PHYS_NO_MATCH;
	}
	if (pg_add_s32_overflow(d, UNIX_TO_PG_DAYS, &days))
		return PQ_PHYS_NO_MATCH;
	pq_store_le32(buf, (uint32) days);
	return set_bytes(buf, 4, out);
}

static PqPhysResult
encode_time(PqConverter *cv, Datum value, Oid valtype, PqBytes *out)
{
	TimeADT		t;
	uint8		buf[8];

	if (valtype != TIMEOID)
		return PQ_PHYS_UNKNOWN;
	t = DatumGetTimeADT(value);
	if (cv->time_unit == PQ_UNIT_MILLIS && cv->physical_type == PQ_INT32)
	{
		if (t % 1000 != 0)
			return PQ_PHYS_NO_MATCH;
		pq_store_le32(buf, (uint32) (int32) (t / 1000));
		return set_bytes(buf, 4, out);
	}
	if (cv->time_unit == PQ_UNIT_MICROS && cv->physical_type == PQ_INT64)
	{
		pq_store_le64(buf, (uint64) t);
		return set_bytes(buf, 8, out);
	}
	/* NANOS: a thousand stored values read as one microsecond */
	return PQ_PHYS_UNKNOWN;
}

static PqPhysResult
encode_timestamp(PqConverter *cv, Datum value, Oid valtype, PqBytes *out)
{
	Timestamp	ts;
	int			overflow = 0;
	int64		us;
	uint8		buf[8];

	if (cv->physical_type != PQ_INT64)
		return PQ_PHYS_UNKNOWN;
	if (valtype == cv->natural_type)
		ts = DatumGetTimestamp(value);
	else if (valtype == DATEOID)
	{
		DateADT		d = DatumGetDateADT(value);

		if (DATE_NOT_FINITE(d))
			return PQ_PHYS_NO_MATCH;
		ts = cv->natural_type == TIMESTAMPTZOID ?
			date2timestamptz_opt_overflow(d, &overflow) :
			date2timestamp_opt_overflow(d, &overflow);
	}
	else if (valtype == TIMESTAMPOID && cv->natural_type == TIMESTAMPTZOID)
		ts = timestamp2timestamptz_opt_overflow(DatumGetTimestamp(value),
												&overflow);
	else
		return PQ_PHYS_UNKNOWN;
	if (overflow != 0 || TIMESTAMP_NOT_FINITE(ts) ||
		pg_add_s64_overflow(ts, UNIX_TO_PG_USECS, &us))
		return PQ_PHYS_NO_MATCH;

	switch (cv->time_unit)
	{
		case PQ_UNIT_MILLIS:
			if (us % 1000 != 0)
				return PQ_PHYS_NO_MATCH;
			us /= 1000;
			break;
		case PQ_UNIT_MICROS:
			break;
		default:
			/* NANOS: a thousand stored values read as one microsecond */
			return PQ_PHYS_UNKNOWN;
	}
	pq_store_le64(buf, (uint64) us);
	return set_bytes(buf, 8, out);
}

/* Columns without a logical type: by physical type. */
static PqPhysResult
encode_plain(PqConverter *cv, Datum value, Oid valtype, Oid collation,
			 PqBytes *out)
{
	switch (cv->physical_type)
	{
		case PQ_BOOLEAN:
			{
				uint8		b;

				if (valtype != BOOLOID)
					return PQ_PHYS_UNKNOWN;
				b = DatumGetBool(value) ? 1 : 0;
				return set_bytes(&b, 1, out);
			}
		case PQ_INT32:
		case PQ_INT64:
			return encode_integer(cv, value, valtype, out);
		case PQ_FLOAT:
		case PQ_DOUBLE:
			return encode_float(cv, value, valtype, out);
		case PQ_BYTE_ARRAY:
		case PQ_FIXED_LEN_BYTE_ARRAY:
			if (cv->natural_type == TEXTOID)
				return encode_text(cv, value, valtype, collation, out);
			if (valtype != BYTEAOID)
				return PQ_PHYS_UNKNOWN;
			{
				bytea	   *b = DatumGetByteaPP(value);

				return binary_value(cv, VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b),
									out);
			}
	}
	return PQ_PHYS_UNKNOWN;
}

PqPhysResult
pqfdw_value_to_physical(PqConverter *cv, Datum value, Oid valtype,
						FmgrInfo *cmp, Oid collation, PqBytes *out)
{
	PqPhysResult res;
	Datum		stored;

	if (cv->always_null || !cast_is_injective(cv))
		return PQ_PHYS_UNKNOWN;

	switch (cv->node->logical.id)
	{
		case PQ_LT_STRING:
		case PQ_LT_ENUM:
			res = encode_text(cv, value, valtype, collation, out);
			break;
		case PQ_LT_UUID:
			if (valtype != UUIDOID)
				return PQ_PHYS_UNKNOWN;
			res = binary_value(cv, DatumGetUUIDP(value)->data, UUID_LEN, out);
			break;
		case PQ_LT_INTEGER:
		case PQ_LT_DECIMAL:
			res = encode_integer(cv, value, valtype, out);
			break;
		case PQ_LT_DATE:
			res = encode_date(cv, value, valtype, out);
			break;
		case PQ_LT_TIME:
			res = encode_time(cv, value, valtype, out);
			break;
		case PQ_LT_TIMESTAMP:
			res = encode_timestamp(cv, value, valtype, out);
			break;
		case PQ_LT_NONE:
			res = encode_plain(cv, value, valtype, collation, out);
			break;
		default:
			/* JSON, BSON, FLOAT16, INTERVAL, geometry, ... */
			return PQ_PHYS_UNKNOWN;
	}
	if (res != PQ_PHYS_OK)
		return res;

	/* the stored form must read back as a value equal to the constant */
	if (!pqfdw_stat_to_datum(cv, *out, &stored))
		return PQ_PHYS_UNKNOWN;
	if (DatumGetInt32(FunctionCall2Coll(cmp, collation, stored, value)) != 0)
		return PQ_PHYS_NO_MATCH;
	return PQ_PHYS_OK;
}
