/*-------------------------------------------------------------------------
 *
 * json_scan.c
 *		Reading one JSON object from a credential service's answer.  The
 *		format layer has JSON code of its own, but the transport includes
 *		nothing of it; what is needed here is small: the members of one
 *		object, values that are objects or arrays checked and passed over
 *		(so that a field a service adds one day breaks nothing).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/common/json_scan.h"
#include "io/common/utf8.h"
#include "lib/stringinfo.h"

typedef struct JsonScanner
{
	const char *p;
	const char *end;
	size_t		max_string;
	const char *why;
} JsonScanner;

static bool
fail(JsonScanner *s, const char *why)
{
	if (s->why == NULL)
		s->why = why;
	return false;
}

static void
skip_blanks(JsonScanner *s)
{
	while (s->p < s->end &&
		   (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

/* The length of the UTF-8 sequence at p (shortest form, no surrogate), or 0. */
static int
utf8_sequence(const unsigned char *p, const unsigned char *end)
{
	static const uint32 shortest[] = {0, 0, 0x80, 0x800, 0x10000};
	uint32		c;
	int			n;
	int			i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		n = 2;
	else if ((p[0] & 0xF0) == 0xE0)
		n = 3;
	else if (p[0] >= 0xF0 && p[0] <= 0xF4)
		n = 4;
	else
		return 0;
	if (end - p < n)
		return 0;
	c = p[0] & (0x7F >> n);
	for (i = 1; i < n; i++)
	{
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3F);
	}
	if (c < shortest[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return n;
}

/* Four hex digits after "\u"; false when they are not. */
static bool
hex4(JsonScanner *s, uint32 *out)
{
	int			i;

	*out = 0;
	if (s->end - s->p < 4)
		return false;
	for (i = 0; i < 4; i++)
	{
		char		c = *s->p++;
		int			d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		*out = (*out << 4) | d;
	}
	return true;
}

/* A string at s->p (its opening quote), decoded into b. */
static bool
scan_string(JsonScanner *s, StringInfo b)
{
	resetStringInfo(b);
	if (s->p >= s->end || *s->p != '"')
		return fail(s, "a string was expected");
	s->p++;
	for (;;)
	{
		unsigned char c;

		if (s->p >= s->end)
			return fail(s, "a string is not closed");
		if ((size_t) b->len > s->max_string)
			return fail(s, "a string is longer than allowed");
		c = (unsigned char) *s->p;
		if (c == '"')
		{
			s->p++;
			return true;
		}
		if (c < 0x20)
			return fail(s, "a string holds a control character");
		if (c == '\\')
		{
			uint32		u;

			if (s->end - s->p < 2)
				return fail(s, "a string is not closed");
			s->p += 2;
			switch (s->p[-1])
			{
				case '"':
				case '\\':
				case '/':
					appendStringInfoChar(b, s->p[-1]);
					break;
				case 'b':
					appendStringInfoChar(b, '\b');
					break;
				case 'f':
					appendStringInfoChar(b, '\f');
					break;
				case 'n':
					appendStringInfoChar(b, '\n');
					break;
				case 'r':
					appendStringInfoChar(b, '\r');
					break;
				case 't':
					appendStringInfoChar(b, '\t');
					break;
				case 'u':
					if (!hex4(s, &u))
						return fail(s, "a \\u escape is not four hexadecimal digits");
					if (u >= 0xD800 && u <= 0xDBFF)
					{
						uint32		lo;

						if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u')
							return fail(s, "a \\u escape is half a surrogate pair");
						s->p += 2;
						if (!hex4(s, &lo) || lo < 0xDC00 || lo > 0xDFFF)
							return fail(s, "a \\u escape is half a surrogate pair");
						u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
					}
					else if (u >= 0xDC00 && u <= 0xDFFF)
						return fail(s, "a \\u escape is half a surrogate pair");
					if (u == 0)
						return fail(s, "a string holds \\u0000");
					pq_append_utf8(b, u);
					break;
				default:
					return fail(s, "a string holds an unknown escape");
			}
			continue;
		}
		{
			int			n = utf8_sequence((const unsigned char *) s->p,
										  (const unsigned char *) s->end);

			if (n == 0)
				return fail(s, "a string is not valid UTF-8");
			appendBinaryStringInfo(b, s->p, n);
			s->p += n;
		}
	}
}

/* A number as RFC 8259 writes them; its text goes into b. */
static bool
scan_number(JsonScanner *s, StringInfo b)
{
	const char *start = s->p;

#define DIGIT() (s->p < s->end && *s->p >= '0' && *s->p <= '9')
	if (s->p < s->end && *s->p == '-')
		s->p++;
	if (!DIGIT())
		return fail(s, "a number is malformed");
	if (*s->p == '0')
		s->p++;
	else
		while (DIGIT())
			s->p++;
	if (s->p < s->end && *s->p == '.')
	{
		s->p++;
		if (!DIGIT())
			return fail(s, "a number is malformed");
		while (DIGIT())
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
	{
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (!DIGIT())
			return fail(s, "a number is malformed");
		while (DIGIT())
			s->p++;
	}
#undef DIGIT
	if ((size_t) (s->p - start) > s->max_string)
		return fail(s, "a number is longer than allowed");
	resetStringInfo(b);
	appendBinaryStringInfo(b, start, s->p - start);
	return true;
}

static bool
scan_literal(JsonScanner *s, const char *word)
{
	size_t		n = strlen(word);

	if ((size_t) (s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return fail(s, "a value is not JSON");
	s->p += n;
	return true;
}

/*
 * A value at s->p, of any kind; objects and arrays are only checked (to
 * depth PQ_JSON_MAX_DEPTH).  Strings and numbers leave their text in b.
 */
static bool
scan_value(JsonScanner *s, int depth, PqJsonKind *kind, StringInfo b)
{
	char		close;
	bool		first = true;

	skip_blanks(s);
	if (s->p >= s->end)
		return fail(s, "a value is missing");
	switch (*s->p)
	{
		case '"':
			*kind = PQ_JSON_STRING;
			return scan_string(s, b);
		case 't':
			*kind = PQ_JSON_TRUE;
			return scan_literal(s, "true");
		case 'f':
			*kind = PQ_JSON_FALSE;
			return scan_literal(s, "false");
		case 'n':
			*kind = PQ_JSON_NULL;
			return scan_literal(s, "null");
		case '{':
		case '[':
			break;
		default:
			*kind = PQ_JSON_NUMBER;
			return scan_number(s, b);
	}
	*kind = PQ_JSON_NESTED;
	if (depth >= PQ_JSON_MAX_DEPTH)
		return fail(s, "values are nested too deeply");
	close = *s->p == '{' ? '}' : ']';
	s->p++;
	for (;;)
	{
		PqJsonKind	inner;

		skip_blanks(s);
		if (s->p < s->end && *s->p == close && first)
		{
			s->p++;
			return true;
		}
		if (close == '}')
		{
			if (!scan_string(s, b))
				return false;
			skip_blanks(s);
			if (s->p >= s->end || *s->p != ':')
				return fail(s, "a member's name is not followed by \":\"");
			s->p++;
		}
		if (!scan_value(s, depth + 1, &inner, b))
			return false;
		skip_blanks(s);
		if (s->p < s->end && *s->p == close)
		{
			s->p++;
			return true;
		}
		if (s->p >= s->end || *s->p != ',')
			return fail(s, "an object or array is not closed");
		s->p++;
		first = false;
	}
}

bool
pq_json_parse_object(const char *text, size_t len, size_t max_string,
					 PqJsonObject *out, const char **why)
{
	JsonScanner s;
	StringInfoData b;
	bool		first = true;

	memset(out, 0, sizeof(*out));
	out->members = palloc0(sizeof(PqJsonMember) * PQ_JSON_MAX_MEMBERS);
	s.p = text;
	s.end = text +len;

	s.max_string = max_string;
	s.why = NULL;
	initStringInfo(&b);
	*why = NULL;

	skip_blanks(&s);
	if (s.p >= s.end || *s.p != '{')
	{
		*why = "the answer is not a JSON object";
		return false;
	}
	s.p++;
	for (;;)
	{
		PqJsonMember *m;
		char	   *name;
		int			i;

		skip_blanks(&s);
		if (first && s.p < s.end && *s.p == '}')
		{
			s.p++;
			break;
		}
		if (!scan_string(&s, &b))
			break;
		name = pstrdup(b.data);
		for (i = 0; i < out->nmembers; i++)
			if (strcmp(out->members[i].name, name) == 0)
				fail(&s, "a member's name is given twice");
		if (out->nmembers >= PQ_JSON_MAX_MEMBERS)
			fail(&s, "the object has too many members");
		if (s.why)
			break;
		skip_blanks(&s);
		if (s.p >= s.end || *s.p != ':')
		{
			fail(&s, "a member's name is not followed by \":\"");
			break;
		}
		s.p++;
		m = &out->members[out->nmembers];
		if (!scan_value(&s, 1, &m->kind, &b))
			break;
		m->name = name;
		m->value = m->kind == PQ_JSON_STRING || m->kind == PQ_JSON_NUMBER ?
			pstrdup(b.data) : NULL;
		out->nmembers++;
		skip_blanks(&s);
		if (s.p < s.end && *s.p == '}')
		{
			s.p++;
			break;
		}
		if (s.p >= s.end || *s.p != ',')
		{
			fail(&s, "the object is not closed");
			break;
		}
		s.p++;
		first = false;
	}
	if (s.why == NULL)
	{
		skip_blanks(&s);
		if (s.p < s.end)
			fail(&s, "something follows the object");
	}
	pfree(b.data);
	*why = s.why;
	return s.why == NULL;
}

const PqJsonMember *
pq_json_member(const PqJsonObject *o, const char *name)
{
	int			i;

	for (i = 0; i < o->nmembers; i++)
		if (strcmp(o->members[i].name, name) == 0)
			return &o->members[i];
	return NULL;
}
