/*-------------------------------------------------------------------------
 *
 * response.c
 *		Response headers and XML error bodies.  Every number read from a
 *		header is parsed with overflow checks; a value that does not parse
 *		is treated as absent, so that the transfer's own checks (bytes
 *		received against bytes asked for) decide.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/http/http.h"
#include "io/http/response.h"
#include "lib/stringinfo.h"

void
pq_response_headers_init(PqResponseHeaders *h)
{
	h->etag[0] = '\0';
	h->content_length = -1;
	h->range_first = -1;
	h->range_last = -1;
	h->object_size = -1;
	h->retry_after_s = -1;
}

/* A decimal number of up to 18 digits at *p (advanced past it), or -1. */
static int64
parse_count(const char **p, const char *end)
{
	int64		v = 0;
	int			digits = 0;

	while (*p < end && **p >= '0' && **p <= '9')
	{
		if (++digits > 18)
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	return digits > 0 ? v : -1;
}

static bool
name_is(const char *line, size_t len, const char *name, const char **value)
{
	size_t		n = strlen(name);

	if (len <= n || line[n] != ':' || pg_strncasecmp(line, name, n) != 0)
		return false;
	*value = line + n + 1;
	return true;
}

void
pq_response_header_line(PqResponseHeaders *h, const char *line, size_t len)
{
	const char *end = line + len;
	const char *v;
	int64		n;

	/* strip the line end and the blanks around the value */
	while (end > line && (end[-1] == '\r' || end[-1] == '\n' ||
						  end[-1] == ' ' || end[-1] == '\t'))
		end--;
	len = end - line;
	if (name_is(line, len, "ETag", &v))
	{
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		if ((size_t) (end - v) < sizeof(h->etag))
		{
			memcpy(h->etag, v, end - v);
			h->etag[end - v] = '\0';
		}
	}
	else if (name_is(line, len, "Content-Length", &v))
	{
		while (v < end && *v == ' ')
			v++;
		n = parse_count(&v, end);
		h->content_length = v == end ? n : -1;
	}
	else if (name_is(line, len, "Content-Range", &v))
	{
		int64		first;
		int64		last;

		while (v < end && *v == ' ')
			v++;
		if (end - v < 6 || pg_strncasecmp(v, "bytes ", 6) != 0)
			return;
		v += 6;
		first = parse_count(&v, end);
		if (first < 0 || v >= end || *v++ != '-')
			return;
		last = parse_count(&v, end);
		if (last < first || v >= end || *v++ != '/')
			return;
		h->range_first = first;
		h->range_last = last;
		n = (v < end && *v == '*') ? -1 : parse_count(&v, end);
		h->object_size = (n >= 0 && v == end && n > last) ? n : -1;
	}
	else if (name_is(line, len, "Retry-After", &v))
	{
		while (v < end && *v == ' ')
			v++;
		n = parse_count(&v, end);
		/* seconds only; an HTTP date falls back to our own backoff */
		h->retry_after_s = (n >= 0 && v == end) ? (int) Min(n, 3600) : -1;
	}
}

/* Append the text of [p, end), entities decoded, to b (at most max). */
static void
append_text(StringInfo b, const char *p, const char *end, size_t max)
{
	static const struct
	{
		const char *name;
		char		c;
	}			entities[] = {
		{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}
	};

	while (p < end && (size_t) b->len < max)
	{
		int			c = (unsigned char) *p++;

		if (c == '&')
		{
			int			i;
			bool		done = false;

			for (i = 0; i < lengthof(entities) && !done; i++)
			{
				size_t		n = strlen(entities[i].name);

				if ((size_t) (end - p) >= n && memcmp(p, entities[i].name, n) == 0)
				{
					c = entities[i].c;
					p += n;
					done = true;
				}
			}
			if (!done && p < end && *p == '#')
			{
				const char *q = p + 1;
				int64		v = parse_count(&q, end);

				if (v >= 0 && q < end && *q == ';')
				{
					c = v < 0x80 ? (int) v : '?';
					p = q + 1;
				}
			}
		}
		appendStringInfoChar(b, (c >= 0x20 && c < 0x7f) ? c : '?');
	}
}

char *
pq_xml_element_text(const char *body, size_t len, const char *tag,
					size_t max)
{
	char	   *open = psprintf("<%s>", tag);
	char	   *close = psprintf("</%s>", tag);
	size_t		ol = strlen(open);
	size_t		cl = strlen(close);
	const char *end = body + len;
	const char *p;
	const char *start = NULL;
	StringInfoData b;

	for (p = body; p + ol <= end; p++)
		if (memcmp(p, open, ol) == 0)
		{
			start = p + ol;
			break;
		}
	if (start == NULL)
		return NULL;
	for (p = start; p + cl <= end; p++)
		if (memcmp(p, close, cl) == 0)
			break;
	if (p + cl > end)
		return NULL;
	initStringInfo(&b);
	append_text(&b, start, p, max);
	return b.data;
}

void
pq_http_append_folded(StringInfo b, const char *v)
{
	bool		space = false;

	while (*v == ' ' || *v == '\t')
		v++;
	for (; *v; v++)
	{
		if (*v == ' ' || *v == '\t')
		{
			space = true;
			continue;
		}
		if (space)
			appendStringInfoChar(b, ' ');
		space = false;
		appendStringInfoChar(b, *v);
	}
}
