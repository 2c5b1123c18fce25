/*-------------------------------------------------------------------------
 *
 * value_text.c
 *		Iceberg partition values, bounds and defaults as input-function
 *		text (value_text.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "table/iceberg/value_text.h"

#define USECS_PER_DAY INT64CONST(86400000000)

static bool
type_is(const char *type, const char *name)
{
	return strcmp(type, name) == 0;
}

static bool
type_is_decimal(const char *type, int *scale)
{
	int			p;

	if (strncmp(type, "decimal(", 8) != 0 ||
		sscanf(type + 8, "%d,%d", &p, scale) != 2)
		return false;
	return true;
}

bool
pq_iceberg_type_has_text(const char *type)
{
	int			scale;

	return type_is(type, "boolean") || type_is(type, "int") ||
		type_is(type, "long") || type_is(type, "float") ||
		type_is(type, "double") || type_is(type, "date") ||
		type_is(type, "time") || type_is(type, "timestamp") ||
		type_is(type, "timestamptz") || type_is(type, "timestamp_ns") ||
		type_is(type, "timestamptz_ns") || type_is(type, "string") ||
		type_is(type, "uuid") || type_is(type, "binary") ||
		strncmp(type, "fixed[", 6) == 0 || type_is_decimal(type, &scale);
}

/* Days since 1970-01-01 as a proleptic Gregorian "YYYY-MM-DD[ BC]". */
static void
date_text(int64 days, char *out, size_t size, char **suffix)
{
	int64		z = days + 719468;
	int64		era = (z >= 0 ? z : z - 146096) / 146097;
	int64		doe = z - era * 146097;
	int64		yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64		y = yoe + era * 400;
	int64		doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64		mp = (5 * doy + 2) / 153;
	int64		d = doy - (153 * mp + 2) / 5 + 1;
	int64		m = mp < 10 ? mp + 3 : mp - 9;

	if (m <= 2)
		y++;
	*suffix = "";
	if (y <= 0)
	{
		y = 1 - y;
		*suffix = " BC";
	}
	snprintf(out, size, "%04lld-%02lld-%02lld", (long long) y, (long long) m,
			 (long long) d);
}

static char *
date_string(int64 days)
{
	char		buf[64];
	char	   *suffix;

	date_text(days, buf, sizeof(buf), &suffix);
	return psprintf("%s%s", buf, suffix);
}

static char *
time_string(int64 us)
{
	return psprintf("%02lld:%02lld:%02lld.%06lld",
					(long long) (us / INT64CONST(3600000000)),
					(long long) (us / 60000000 % 60),
					(long long) (us / 1000000 % 60),
					(long long) (us % 1000000));
}

static char *
timestamp_string(int64 us, bool tz)
{
	int64		days = us / USECS_PER_DAY;
	int64		rest = us % USECS_PER_DAY;
	char		buf[64];
	char	   *suffix;

	if (rest < 0)
	{
		rest += USECS_PER_DAY;
		days--;
	}
	date_text(days, buf, sizeof(buf), &suffix);
	return psprintf("%s %s%s%s", buf, time_string(rest), tz ? "+00" : "",
					suffix);
}

static char *
float_string(double d, bool single)
{
	if (isnan(d))
		return pstrdup("NaN");
	if (isinf(d))
		return pstrdup(d > 0 ? "Infinity" : "-Infinity");
	return psprintf(single ? "%.9g" : "%.17g", d);
}

static char *
hex_string(const uint8 *b, int32 len)
{
	char	   *out = palloc(2 * (size_t) len + 3);
	int32		i;

	out[0] = '\\';
	out[1] = 'x';
	for (i = 0; i < len; i++)
		snprintf(out + 2 + 2 * i, 3, "%02x", b[i]);
	out[2 + 2 * len] = '\0';
	return out;
}

static char *
uuid_string(const uint8 *b)
{
	return psprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
					"%02x%02x%02x%02x%02x%02x",
					b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
					b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* A big-endian two's-complement unscaled value of scale as decimal text. */
static char *
decimal_string(const uint8 *b, int32 len, int scale, const char **why)
{
	__int128	v;
	unsigned	__int128 u;
	char		digits[64];
	int			n = 0;
	bool		neg;
	char		out[72];
	int			o = 0;
	int32		i;

	if (len < 1 || len > 16)
	{
		*why = "a decimal value is not 1 to 16 bytes long";
		return NULL;
	}
	v = (b[0] & 0x80) ? -1 : 0;
	for (i = 0; i < len; i++)
		v = (__int128) (((unsigned __int128) v << 8) | b[i]);
	neg = v < 0;
	u = neg ? -(unsigned __int128) v : (unsigned __int128) v;
	do
	{
		digits[n++] = '0' + (int) (u % 10);
		u /= 10;
	} while (u > 0);
	while (n <= scale)
		digits[n++] = '0';
	if (neg)
		out[o++] = '-';
	while (n > 0)
	{
		if (n == scale)
			out[o++] = '.';
		out[o++] = digits[--n];
	}
	out[o] = '\0';
	return pstrdup(out);
}

static char *
string_value(const uint8 *b, int32 len, const char **why)
{
	if (memchr(b, '\0', len) != NULL)
	{
		*why = "a string value holds a NUL character";
		return NULL;
	}
	return pnstrdup((const char *) b, len);
}

/* An integer of the kinds int, long, date, time and the timestamps. */
static char *
integer_text(int64 i, const char *type, const char **why)
{
	if (type_is(type, "int") || type_is(type, "long"))
		return psprintf(INT64_FORMAT, i);
	if (type_is(type, "date"))
		return date_string(i);
	if (type_is(type, "time"))
	{
		if (i < 0 || i >= USECS_PER_DAY)
		{
			*why = "a time value is out of range";
			return NULL;
		}
		return time_string(i);
	}
	if (type_is(type, "timestamp") || type_is(type, "timestamptz"))
		return timestamp_string(i, type_is(type, "timestamptz"));
	if (type_is(type, "timestamp_ns") || type_is(type, "timestamptz_ns"))
		return timestamp_string(i / 1000 - (i % 1000 < 0 ? 1 : 0),
								type_is(type, "timestamptz_ns"));
	*why = "a value's encoding does not match its column's type";
	return NULL;
}

/* Bytes of a string, binary, fixed, uuid or decimal. */
static char *
bytes_text(const uint8 *b, int32 len, const char *type, const char **why)
{
	int			scale;

	if (type_is(type, "string"))
		return string_value(b, len, why);
	if (type_is(type, "binary") || strncmp(type, "fixed[", 6) == 0)
		return hex_string(b, len);
	if (type_is(type, "uuid"))
	{
		if (len != 16)
		{
			*why = "a uuid value is not 16 bytes long";
			return NULL;
		}
		return uuid_string(b);
	}
	if (type_is_decimal(type, &scale))
		return decimal_string(b, len, scale, why);
	*why = "a value's encoding does not match its column's type";
	return NULL;
}

char *
pq_iceberg_value_text(const PqIcebergValue *v, const char *type,
					  const char **why)
{
	*why = NULL;
	switch (v->type)
	{
		case PQ_ICEBERG_NULL:
			return NULL;
		case PQ_ICEBERG_BOOLEAN:
			if (type_is(type, "boolean"))
				return pstrdup(v->i ? "true" : "false");
			break;
		case PQ_ICEBERG_INT:
		case PQ_ICEBERG_LONG:
			return integer_text(v->i, type, why);
		case PQ_ICEBERG_FLOAT:
		case PQ_ICEBERG_DOUBLE:
			if (type_is(type, "float") || type_is(type, "double"))
				return float_string(v->d, type_is(type, "float"));
			break;
		case PQ_ICEBERG_STRING:
		case PQ_ICEBERG_BYTES:
		case PQ_ICEBERG_FIXED:
			return bytes_text(v->bytes, v->len, type, why);
	}
	*why = "a partition value's type does not match its column's type";
	return NULL;
}

static int64
le_int(const uint8 *b, int32 len)
{
	uint64		u = 0;
	int32		i;

	for (i = len - 1; i >= 0; i--)
		u = (u << 8) | b[i];
	/* sign-extend 4-byte values */
	if (len == 4)
		return (int64) (int32) (uint32) u;
	return (int64) u;
}

char *
pq_iceberg_bound_text(const uint8 *bytes, int32 len, const char *type,
					  const char **why)
{
	*why = NULL;
	if (type_is(type, "boolean"))
	{
		if (len != 1 || bytes[0] > 1)
		{
			*why = "a boolean bound is not one byte 0 or 1";
			return NULL;
		}
		return pstrdup(bytes[0] ? "true" : "false");
	}
	if (type_is(type, "int") || type_is(type, "date"))
	{
		if (len != 4)
		{
			*why = "a 4-byte bound has another length";
			return NULL;
		}
		return integer_text(le_int(bytes, 4), type, why);
	}
	if (type_is(type, "long") || type_is(type, "time") ||
		strncmp(type, "timestamp", 9) == 0)
	{
		/* a long promoted from int keeps its old bounds */
		if (len != 8 && !(len == 4 && type_is(type, "long")))
		{
			*why = "an 8-byte bound has another length";
			return NULL;
		}
		return integer_text(le_int(bytes, len), type, why);
	}
	if (type_is(type, "float") || type_is(type, "double"))
	{
		if (len == 4)
		{
			float		f;

			memcpy(&f, bytes, 4);
			return float_string(f, type_is(type, "float"));
		}
		if (len == 8 && type_is(type, "double"))
		{
			double		d;

			memcpy(&d, bytes, 8);
			return float_string(d, false);
		}
		*why = "a floating-point bound has a wrong length";
		return NULL;
	}
	return bytes_text(bytes, len, type, why);
}

/* The bytes of hex text, for fixed and binary defaults. */
static char *
hex_default(const char *s, const char **why)
{
	size_t		n = strlen(s);
	size_t		i;

	if (n % 2 != 0)
	{
		*why = "a binary default is not hex text";
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char) s[i]))
		{
			*why = "a binary default is not hex text";
			return NULL;
		}
	return psprintf("\\x%s", s);
}

char *
pq_iceberg_default_text(const PqJv *v, const char *type, const char **why)
{
	*why = NULL;
	if (v == NULL || v->type == PQ_JV_NULL)
		return NULL;
	if (type_is(type, "boolean"))
	{
		if (v->type == PQ_JV_TRUE || v->type == PQ_JV_FALSE)
			return pstrdup(v->type == PQ_JV_TRUE ? "true" : "false");
	}
	else if (type_is(type, "int") || type_is(type, "long") ||
			 type_is(type, "float") || type_is(type, "double"))
	{
		if (v->type == PQ_JV_NUMBER)
			return pnstrdup(v->u.str, v->len);
		/* "NaN", "Infinity" */
		if (v->type == PQ_JV_STRING &&
			(type_is(type, "float") || type_is(type, "double")))
			return pstrdup(v->u.str);
	}
	else if (type_is(type, "binary") || strncmp(type, "fixed[", 6) == 0)
	{
		if (v->type == PQ_JV_STRING)
			return hex_default(v->u.str, why);
	}
	else if (pq_iceberg_type_has_text(type))
	{
		/* decimal, date, time, timestamps, string, uuid: ISO text */
		if (v->type == PQ_JV_STRING)
			return pstrdup(v->u.str);
	}
	else
	{
		*why = "a default of a nested or unsupported type is not read";
		return NULL;
	}
	*why = "a default value's JSON type does not match its column's type";
	return NULL;
}
