/*-------------------------------------------------------------------------
 *
 * validate.c
 *		UTF-8 and JSON (RFC 8259) syntax checks for text that is embedded in
 *		generated JSON: a Parquet JSON value is spliced into the output as
 *		is, so it must be exactly one well-formed JSON value, or it could
 *		change the structure around it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/json/render.h"

/* Deeper JSON is refused rather than risking the C stack. */
#define PQ_JSON_MAX_DEPTH 1000

int
pq_utf8_sequence(const uint8 *p, size_t avail)
{
	static const uint32 shortest[] = {0, 0, 0x80, 0x800, 0x10000};
	uint32		c;
	int			n;
	int			i;

	if (avail == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xE0) == 0xC0)
		n = 2;
	else if ((p[0] & 0xF0) == 0xE0)
		n = 3;
	else if ((p[0] & 0xF8) == 0xF0)
		n = 4;
	else
		return 0;
	if (avail < (size_t) n)
		return 0;
	c = p[0] & (0x7F >> n);
	for (i = 1; i < n; i++)
	{
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3F);
	}
	/* overlong forms, surrogates and code points beyond Unicode */
	if (c < shortest[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return n;
}

bool
pq_utf8_valid(const uint8 *p, size_t len)
{
	size_t		i = 0;

	while (i < len)
	{
		int			n = pq_utf8_sequence(p + i, len - i);

		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

typedef struct JsonScan
{
	const uint8 *p;
	const uint8 *end;
} JsonScan;

static void
skip_ws(JsonScan *s)
{
	while (s->p < s->end &&
		   (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static bool
scan_literal(JsonScan *s, const char *word)
{
	size_t		n = strlen(word);

	if ((size_t) (s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return false;
	s->p += n;
	return true;
}

static bool
is_digit(JsonScan *s)
{
	return s->p < s->end && *s->p >= '0' && *s->p <= '9';
}

static bool
scan_number(JsonScan *s)
{
	if (s->p < s->end && *s->p == '-')
		s->p++;
	if (!is_digit(s))
		return false;
	if (*s->p == '0')
		s->p++;
	else
		while (is_digit(s))
			s->p++;
	if (s->p < s->end && *s->p == '.')
	{
		s->p++;
		if (!is_digit(s))
			return false;
		while (is_digit(s))
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
	{
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (!is_digit(s))
			return false;
		while (is_digit(s))
			s->p++;
	}
	return true;
}

static bool
is_hex(uint8 c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		(c >= 'A' && c <= 'F');
}

/* A string after its opening quote; raw bytes are checked as UTF-8 later. */
static bool
scan_string(JsonScan *s)
{
	while (s->p < s->end)
	{
		uint8		c = *s->p++;
		int			k;

		if (c == '"')
			return true;
		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		if (s->p >= s->end)
			return false;
		c = *s->p++;
		if (c == 'u')
		{
			for (k = 0; k < 4; k++)
			{
				if (s->p >= s->end || !is_hex(*s->p))
					return false;
				s->p++;
			}
		}
		else if (strchr("\"\\/bfnrt", c) == NULL || c == '\0')
			return false;
	}
	return false;
}

static bool
scan_value(JsonScan *s, int depth)
{
	uint8		close;

	skip_ws(s);
	if (s->p >= s->end)
		return false;
	switch (*s->p)
	{
		case '"':
			s->p++;
			return scan_string(s);
		case 't':
			return scan_literal(s, "true");
		case 'f':
			return scan_literal(s, "false");
		case 'n':
			return scan_literal(s, "null");
		case '{':
		case '[':
			break;
		default:
			return scan_number(s);
	}

	/* object or array */
	if (depth >= PQ_JSON_MAX_DEPTH)
		return false;
	close = (*s->p == '{') ? '}' : ']';
	s->p++;
	skip_ws(s);
	if (s->p < s->end && *s->p == close)
	{
		s->p++;
		return true;
	}
	for (;;)
	{
		if (close == '}')
		{
			skip_ws(s);
			if (s->p >= s->end || *s->p++ != '"' || !scan_string(s))
				return false;
			skip_ws(s);
			if (s->p >= s->end || *s->p++ != ':')
				return false;
		}
		if (!scan_value(s, depth + 1))
			return false;
		skip_ws(s);
		if (s->p >= s->end)
			return false;
		if (*s->p == close)
		{
			s->p++;
			return true;
		}
		if (*s->p++ != ',')
			return false;
	}
}

bool
pq_json_valid(const uint8 *p, size_t len)
{
	JsonScan	s;

	if (!pq_utf8_valid(p, len))
		return false;
	s.p = p;
	s.end = p + len;
	if (!scan_value(&s, 0))
		return false;
	skip_ws(&s);
	return s.p == s.end;
}
