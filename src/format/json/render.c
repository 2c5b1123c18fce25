/*-------------------------------------------------------------------------
 *
 * render.c
 *		Parquet values as JSON text, by the rules of docs/JSON.md.
 *
 * Numbers are exact (integers, decimals of any scale) or the shortest
 * text that reads back as the same float, as PostgreSQL prints floats;
 * dates and times follow
 * PostgreSQL's to_json() text, so that (j->>'k')::date and friends read
 * them back; everything else that JSON has no type for becomes a string.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "common/shortest_dec.h"
#include "format/json/render.h"

/* The largest numeric display scale PostgreSQL can hold. */
#define PQ_JSON_MAX_SCALE 16383

static const int64 pow10_int64[] = {
	INT64CONST(1), INT64CONST(10), INT64CONST(100), INT64CONST(1000),
	INT64CONST(10000), INT64CONST(100000), INT64CONST(1000000),
	INT64CONST(10000000), INT64CONST(100000000), INT64CONST(1000000000)
};

static void
append_cstr(PqBuffer *buf, const char *s)
{
	pq_buffer_append(buf, s, strlen(s));
}

void
pq_json_string(PqBuffer *buf, const char *s, size_t len)
{
	size_t		start = 0;
	size_t		i;

	if (!pq_utf8_valid((const uint8 *) s, len))
		pq_corrupt("string value is not valid UTF-8");
	pq_buffer_reserve(buf, len + 2);
	pq_buffer_append_byte(buf, '"');
	for (i = 0; i < len; i++)
	{
		uint8		c = (uint8) s[i];
		char		esc[8];

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		pq_buffer_append(buf, s + start, i - start);
		start = i + 1;
		switch (c)
		{
			case '"':
				append_cstr(buf, "\\\"");
				break;
			case '\\':
				append_cstr(buf, "\\\\");
				break;
			case '\b':
				append_cstr(buf, "\\b");
				break;
			case '\f':
				append_cstr(buf, "\\f");
				break;
			case '\n':
				append_cstr(buf, "\\n");
				break;
			case '\r':
				append_cstr(buf, "\\r");
				break;
			case '\t':
				append_cstr(buf, "\\t");
				break;
			default:
				snprintf(esc, sizeof(esc), "\\u%04x", c);
				append_cstr(buf, esc);
				break;
		}
	}
	pq_buffer_append(buf, s + start, len - start);
	pq_buffer_append_byte(buf, '"');
}

void
pq_json_int64(PqBuffer *buf, int64 v)
{
	char		s[32];

	snprintf(s, sizeof(s), INT64_FORMAT, v);
	append_cstr(buf, s);
}

void
pq_json_uint64(PqBuffer *buf, uint64 v)
{
	char		s[32];

	snprintf(s, sizeof(s), UINT64_FORMAT, v);
	append_cstr(buf, s);
}

/* NaN and the infinities have no JSON number: strings, as jsonb spells them */
static bool
append_nonfinite(PqBuffer *buf, double v)
{
	if (isnan(v))
		append_cstr(buf, "\"NaN\"");
	else if (isinf(v))
		append_cstr(buf, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
	else
		return false;
	return true;
}

/*
 * The digits PostgreSQL's float8out and float4out print (Ryu: the shortest
 * decimal that reads back as the same value, the closest such one), so
 * that the number equals to_jsonb() of the same float8 or float4.
 */
void
pq_json_double(PqBuffer *buf, double v)
{
	char		s[DOUBLE_SHORTEST_DECIMAL_LEN];

	if (append_nonfinite(buf, v))
		return;
	pq_buffer_append(buf, s, double_to_shortest_decimal_buf(v, s));
}

void
pq_json_float(PqBuffer *buf, float v)
{
	char		s[FLOAT_SHORTEST_DECIMAL_LEN];

	if (append_nonfinite(buf, v))
		return;
	pq_buffer_append(buf, s, float_to_shortest_decimal_buf(v, s));
}

/*
 * Sign, then the decimal digits (most significant first, no leading zeros
 * unless the value is 0) with the point placed scale digits from the right.
 */
static void
append_scaled(PqBuffer *buf, bool negative, const char *digits, int nd,
			  int scale)
{
	if (scale < 0)
		pq_corrupt("decimal scale %d is negative", scale);
	if (scale > PQ_JSON_MAX_SCALE)
		pq_unsupported("decimal scale %d exceeds %d", scale, PQ_JSON_MAX_SCALE);
	pq_buffer_reserve(buf, nd + scale + 3);
	if (negative && !(nd == 1 && digits[0] == '0'))
		pq_buffer_append_byte(buf, '-');
	if (nd <= scale)
	{
		int			i;

		append_cstr(buf, "0.");
		for (i = nd; i < scale; i++)
			pq_buffer_append_byte(buf, '0');
		pq_buffer_append(buf, digits, nd);
	}
	else
	{
		pq_buffer_append(buf, digits, nd - scale);
		if (scale > 0)
		{
			pq_buffer_append_byte(buf, '.');
			pq_buffer_append(buf, digits + nd - scale, scale);
		}
	}
}

void
pq_json_decimal_int64(PqBuffer *buf, int64 unscaled, int scale)
{
	char		s[32];
	uint64		mag = unscaled < 0 ? -(uint64) unscaled : (uint64) unscaled;

	snprintf(s, sizeof(s), UINT64_FORMAT, mag);
	append_scaled(buf, unscaled < 0, s, strlen(s), scale);
}

void
pq_json_decimal_be(PqBuffer *buf, const uint8 *be, size_t len, int scale)
{
	char		digits[PQ_DECIMAL_DIGITS_CAP(32)];
	bool		negative;
	int			nd;

	if (len > 32)
		pq_unsupported("decimal value of %zu bytes (at most 32 are supported)",
					   len);
	nd = pq_twos_be_digits(be, len, digits, &negative);
	append_scaled(buf, negative, digits, nd, scale);
}

static int64
floor_div(int64 a, int64 b)
{
	int64		q = a / b;

	if ((a % b) != 0 && ((a < 0) != (b < 0)))
		q--;
	return q;
}

/*
 * Proleptic Gregorian date of a day number (0 = 1970-01-01); astronomical
 * years (0 = 1 BC).  H. Hinnant's civil_from_days, exact for any int64 day
 * count that does not overflow the shift below.
 */
static void
civil_from_days(int64 days, int64 *year, int *month, int *day)
{
	int64		z = days + 719468;
	int64		era = floor_div(z, 146097);
	int64		doe = z - era * 146097; /* [0, 146096] */
	int64		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64		mp = (5 * doy + 2) / 153;

	*day = (int) (doy - (153 * mp + 2) / 5 + 1);
	*month = (int) (mp < 10 ? mp + 3 : mp - 9);
	*year = yoe + era * 400 + (*month <= 2);
}

/*
 * "YYYY-MM-DD" as PostgreSQL prints dates: at least four year digits, and
 * years before 1 AD as 1 BC, 2 BC, ... (the caller appends " BC").
 */
static bool
append_date(PqBuffer *buf, int64 days)
{
	int64		year;
	int			month;
	int			day;
	char		s[64];
	bool		bc;

	civil_from_days(days, &year, &month, &day);
	bc = year <= 0;
	snprintf(s, sizeof(s), "%04lld-%02d-%02d",
			 (long long) (bc ? 1 - year : year), month, day);
	append_cstr(buf, s);
	return bc;
}

/* "HH:MM:SS" and, when frac (units of 10^-digits s) is not 0, ".f" */
static void
append_time_of_day(PqBuffer *buf, int64 secs, int64 frac, int digits)
{
	char		s[40];
	int			n;

	snprintf(s, sizeof(s), "%02d:%02d:%02d", (int) (secs / 3600),
			 (int) (secs / 60 % 60), (int) (secs % 60));
	append_cstr(buf, s);
	if (frac == 0)
		return;
	n = snprintf(s, sizeof(s), ".%0*lld", digits, (long long) frac);
	while (s[n - 1] == '0')
		n--;
	pq_buffer_append(buf, s, n);
}

static void
check_digits(int digits)
{
	if (digits < 0 || digits > 9)
		elog(ERROR, "fractional second digits %d out of range", digits);
}

void
pq_json_date(PqBuffer *buf, int32 days)
{
	bool		bc;

	pq_buffer_append_byte(buf, '"');
	bc = append_date(buf, days);
	if (bc)
		append_cstr(buf, " BC");
	pq_buffer_append_byte(buf, '"');
}

void
pq_json_time(PqBuffer *buf, int64 v, int digits, bool utc)
{
	int64		unit;

	check_digits(digits);
	unit = pow10_int64[digits];
	/* 24:00:00 is a valid end-of-day time, as in PostgreSQL */
	if (v < 0 || v > 86400 * unit)
		pq_corrupt("time of day " INT64_FORMAT " (units of 10^-%d s) is out of range",
				   v, digits);
	pq_buffer_append_byte(buf, '"');
	append_time_of_day(buf, v / unit, v % unit, digits);
	if (utc)
		append_cstr(buf, "+00:00");
	pq_buffer_append_byte(buf, '"');
}

/* secs since the epoch plus frac (0 <= frac < 10^digits) */
static void
append_timestamp(PqBuffer *buf, int64 secs, int64 frac, int digits, bool utc)
{
	int64		days = floor_div(secs, 86400);
	bool		bc;

	pq_buffer_append_byte(buf, '"');
	bc = append_date(buf, days);
	pq_buffer_append_byte(buf, 'T');
	append_time_of_day(buf, secs - days * 86400, frac, digits);
	if (utc)
		append_cstr(buf, "+00:00");
	if (bc)
		append_cstr(buf, " BC");
	pq_buffer_append_byte(buf, '"');
}

void
pq_json_timestamp(PqBuffer *buf, int64 v, int digits, bool utc)
{
	int64		unit;
	int64		secs;
	int64		frac;

	check_digits(digits);
	unit = pow10_int64[digits];
	secs = v / unit;
	frac = v % unit;
	if (frac < 0)
	{
		secs--;
		frac += unit;
	}
	append_timestamp(buf, secs, frac, digits, utc);
}

/*
 * INT96: nanoseconds of the day (8 bytes LE), then the Julian day (4 bytes
 * LE).  The microseconds are computed as the reader (and Spark) do, in
 * wrapping 64-bit arithmetic with truncating division, so Spark's wrapped
 * encodings of far-future values (negative nanoseconds) read back as
 * written; the nanoseconds below the microsecond are kept.
 */
static void
json_int96(PqBuffer *buf, const uint8 *p)
{
	int64		nanos = (int64) pq_load_le64(p);
	int64		jday = (int32) pq_load_le32(p + 8);
	int64		rem = nanos % 1000;
	uint64		wrapped;
	int64		us;
	int64		secs;

	wrapped = (uint64) (jday - 2440588) * UINT64CONST(86400000000) +
		(uint64) (nanos / 1000);
	if (rem < 0)
	{
		wrapped--;
		rem += 1000;
	}
	us = (int64) wrapped;
	secs = floor_div(us, 1000000);
	append_timestamp(buf, secs, (us - secs * 1000000) * 1000 + rem, 9, false);
}

void
pq_json_base64(PqBuffer *buf, const uint8 *p, size_t len)
{
	static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t		i;

	pq_buffer_reserve(buf, (len + 2) / 3 * 4 + 2);
	pq_buffer_append_byte(buf, '"');
	for (i = 0; i + 2 < len; i += 3)
	{
		uint32		w = ((uint32) p[i] << 16) | ((uint32) p[i + 1] << 8) | p[i + 2];

		pq_buffer_append_byte(buf, alphabet[w >> 18]);
		pq_buffer_append_byte(buf, alphabet[(w >> 12) & 63]);
		pq_buffer_append_byte(buf, alphabet[(w >> 6) & 63]);
		pq_buffer_append_byte(buf, alphabet[w & 63]);
	}
	if (i < len)
	{
		uint32		w = (uint32) p[i] << 16;

		if (i + 1 < len)
			w |= (uint32) p[i + 1] << 8;
		pq_buffer_append_byte(buf, alphabet[w >> 18]);
		pq_buffer_append_byte(buf, alphabet[(w >> 12) & 63]);
		pq_buffer_append_byte(buf, i + 1 < len ? alphabet[(w >> 6) & 63] : '=');
		pq_buffer_append_byte(buf, '=');
	}
	pq_buffer_append_byte(buf, '"');
}

void
pq_json_uuid(PqBuffer *buf, const uint8 *p)
{
	static const char hex[] = "0123456789abcdef";
	int			i;

	pq_buffer_reserve(buf, 38);
	pq_buffer_append_byte(buf, '"');
	for (i = 0; i < 16; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			pq_buffer_append_byte(buf, '-');
		pq_buffer_append_byte(buf, hex[p[i] >> 4]);
		pq_buffer_append_byte(buf, hex[p[i] & 15]);
	}
	pq_buffer_append_byte(buf, '"');
}

/* Like PostgreSQL's IntervalStyle iso_8601: "P1Y2M3DT4H5M6.7S", "PT0S". */
void
pq_json_interval(PqBuffer *buf, const uint8 *p)
{
	uint32		months = pq_load_le32(p);
	uint32		days = pq_load_le32(p + 4);
	uint32		millis = pq_load_le32(p + 8);
	uint32		hours = millis / 3600000;
	uint32		mins = millis / 60000 % 60;
	uint32		secs = millis / 1000 % 60;
	uint32		ms = millis % 1000;
	char		s[96];
	int			n = 0;

	if (months == 0 && days == 0 && millis == 0)
	{
		append_cstr(buf, "\"PT0S\"");
		return;
	}
	n += snprintf(s + n, sizeof(s) - n, "\"P");
	if (months / 12)
		n += snprintf(s + n, sizeof(s) - n, "%uY", months / 12);
	if (months % 12)
		n += snprintf(s + n, sizeof(s) - n, "%uM", months % 12);
	if (days)
		n += snprintf(s + n, sizeof(s) - n, "%uD", days);
	if (millis)
		n += snprintf(s + n, sizeof(s) - n, "T");
	if (hours)
		n += snprintf(s + n, sizeof(s) - n, "%uH", hours);
	if (mins)
		n += snprintf(s + n, sizeof(s) - n, "%uM", mins);
	if (secs || ms)
	{
		n += snprintf(s + n, sizeof(s) - n, "%u", secs);
		if (ms)
		{
			n += snprintf(s + n, sizeof(s) - n, ".%03u", ms);
			while (s[n - 1] == '0')
				n--;
		}
		n += snprintf(s + n, sizeof(s) - n, "S");
	}
	n += snprintf(s + n, sizeof(s) - n, "\"");
	pq_buffer_append(buf, s, n);
}

static void
need_physical(const PqSchemaNode *node, int physical)
{
	if (node->physical_type != physical)
		pq_corrupt("column \"%s\" has physical type %s, expected %s for its logical type",
				   node->name, pq_physical_type_name(node->physical_type),
				   pq_physical_type_name(physical));
}

static void
need_length(const PqSchemaNode *node, const PqValue *v, uint32 len)
{
	if (v->u.scalar.bytes.len != len)
		pq_corrupt("value of column \"%s\" has %u bytes, expected %u",
				   node->name, v->u.scalar.bytes.len, len);
}

static void
need_binary(const PqSchemaNode *node)
{
	if (node->physical_type != PQ_BYTE_ARRAY &&
		node->physical_type != PQ_FIXED_LEN_BYTE_ARRAY)
		need_physical(node, PQ_BYTE_ARRAY);
}

static int
unit_digits(const PqSchemaNode *node)
{
	switch (node->logical.time_unit)
	{
		case PQ_UNIT_MILLIS:
			return 3;
		case PQ_UNIT_MICROS:
			return 6;
		case PQ_UNIT_NANOS:
			return 9;
	}
	pq_corrupt("column \"%s\" has no valid time unit", node->name);
}

static void
json_integer(PqBuffer *buf, const PqSchemaNode *node, const PqValue *v)
{
	const PqLogicalType *lt = &node->logical;
	int64		x;

	if (lt->int_bit_width == 64)
	{
		need_physical(node, PQ_INT64);
		if (lt->int_is_signed)
			pq_json_int64(buf, v->u.scalar.i64);
		else
			pq_json_uint64(buf, (uint64) v->u.scalar.i64);
		return;
	}
	need_physical(node, PQ_INT32);
	x = lt->int_is_signed ? (int64) v->u.scalar.i32 :
		(int64) (uint32) v->u.scalar.i32;
	if (lt->int_bit_width == 8 || lt->int_bit_width == 16)
	{
		int64		lo = lt->int_is_signed ? -(INT64CONST(1) << (lt->int_bit_width - 1)) : 0;
		int64		hi = lt->int_is_signed ?
		(INT64CONST(1) << (lt->int_bit_width - 1)) - 1 :
		(INT64CONST(1) << lt->int_bit_width) - 1;

		if (x < lo || x > hi)
			pq_corrupt("value " INT64_FORMAT " of column \"%s\" is out of range for INT(%d, %s)",
					   x, node->name, lt->int_bit_width,
					   lt->int_is_signed ? "signed" : "unsigned");
	}
	else if (lt->int_bit_width != 32)
		pq_corrupt("column \"%s\" has integer bit width %d",
				   node->name, lt->int_bit_width);
	pq_json_int64(buf, x);
}

static void
json_decimal(PqBuffer *buf, const PqSchemaNode *node, const PqValue *v)
{
	int			scale = node->logical.decimal_scale;

	switch (node->physical_type)
	{
		case PQ_INT32:
			pq_json_decimal_int64(buf, v->u.scalar.i32, scale);
			break;
		case PQ_INT64:
			pq_json_decimal_int64(buf, v->u.scalar.i64, scale);
			break;
		case PQ_BYTE_ARRAY:
		case PQ_FIXED_LEN_BYTE_ARRAY:
			pq_json_decimal_be(buf, v->u.scalar.bytes.ptr,
							   v->u.scalar.bytes.len, scale);
			break;
		default:
			need_physical(node, PQ_BYTE_ARRAY);
	}
}

/* Un-annotated values, by physical type. */
static void
json_physical(PqBuffer *buf, const PqSchemaNode *node, const PqValue *v)
{
	switch (node->physical_type)
	{
		case PQ_BOOLEAN:
			append_cstr(buf, v->u.scalar.b ? "true" : "false");
			break;
		case PQ_INT32:
			pq_json_int64(buf, v->u.scalar.i32);
			break;
		case PQ_INT64:
			pq_json_int64(buf, v->u.scalar.i64);
			break;
		case PQ_INT96:
			need_length(node, v, 12);
			json_int96(buf, v->u.scalar.bytes.ptr);
			break;
		case PQ_FLOAT:
			pq_json_float(buf, v->u.scalar.f);
			break;
		case PQ_DOUBLE:
			pq_json_double(buf, v->u.scalar.d);
			break;
		case PQ_BYTE_ARRAY:
		case PQ_FIXED_LEN_BYTE_ARRAY:
			pq_json_base64(buf, v->u.scalar.bytes.ptr, v->u.scalar.bytes.len);
			break;
		default:
			pq_corrupt("column \"%s\" has unknown physical type %d",
					   node->name, node->physical_type);
	}
}

void
pq_json_scalar(PqBuffer *buf, const PqSchemaNode *node, const PqValue *v)
{
	const PqLogicalType *lt = &node->logical;

	if (v->kind == PQ_VAL_NULL)
	{
		append_cstr(buf, "null");
		return;
	}
	if (v->kind != PQ_VAL_SCALAR || !node->is_leaf)
		elog(ERROR, "JSON rendering of \"%s\": not a leaf value", node->name);

	switch (lt->id)
	{
		case PQ_LT_STRING:
		case PQ_LT_ENUM:
			need_binary(node);
			pq_json_string(buf, (const char *) v->u.scalar.bytes.ptr,
						   v->u.scalar.bytes.len);
			break;
		case PQ_LT_JSON:
			need_binary(node);
			if (!pq_json_valid(v->u.scalar.bytes.ptr, v->u.scalar.bytes.len))
				pq_corrupt("value of JSON column \"%s\" is not valid JSON",
						   node->name);
			pq_buffer_append(buf, v->u.scalar.bytes.ptr, v->u.scalar.bytes.len);
			break;
		case PQ_LT_BSON:
		case PQ_LT_GEOMETRY:
		case PQ_LT_GEOGRAPHY:
			need_binary(node);
			pq_json_base64(buf, v->u.scalar.bytes.ptr, v->u.scalar.bytes.len);
			break;
		case PQ_LT_UUID:
			need_physical(node, PQ_FIXED_LEN_BYTE_ARRAY);
			need_length(node, v, 16);
			pq_json_uuid(buf, v->u.scalar.bytes.ptr);
			break;
		case PQ_LT_FLOAT16:
			need_physical(node, PQ_FIXED_LEN_BYTE_ARRAY);
			need_length(node, v, 2);
			pq_json_float(buf, pq_half_to_float((uint16) (v->u.scalar.bytes.ptr[0] |
														  (v->u.scalar.bytes.ptr[1] << 8))));
			break;
		case PQ_LT_DECIMAL:
			json_decimal(buf, node, v);
			break;
		case PQ_LT_DATE:
			need_physical(node, PQ_INT32);
			pq_json_date(buf, v->u.scalar.i32);
			break;
		case PQ_LT_TIME:
			if (lt->time_unit == PQ_UNIT_MILLIS)
			{
				need_physical(node, PQ_INT32);
				pq_json_time(buf, v->u.scalar.i32, 3, lt->is_adjusted_to_utc);
			}
			else
			{
				need_physical(node, PQ_INT64);
				pq_json_time(buf, v->u.scalar.i64, unit_digits(node),
							 lt->is_adjusted_to_utc);
			}
			break;
		case PQ_LT_TIMESTAMP:
			need_physical(node, PQ_INT64);
			pq_json_timestamp(buf, v->u.scalar.i64, unit_digits(node),
							  lt->is_adjusted_to_utc);
			break;
		case PQ_LT_INTEGER:
			json_integer(buf, node, v);
			break;
		case PQ_LT_INTERVAL:
			need_physical(node, PQ_FIXED_LEN_BYTE_ARRAY);
			need_length(node, v, 12);
			pq_json_interval(buf, v->u.scalar.bytes.ptr);
			break;
		case PQ_LT_UNKNOWN:
			/* the UNKNOWN (null) logical type: always null, as the reader */
			append_cstr(buf, "null");
			break;
		default:
			json_physical(buf, node, v);
			break;
	}
}
