/*-------------------------------------------------------------------------
 *
 * xml_scan.c
 *		Tokens of the XML that object stores answer with.  Everything is
 *		bounded: element names (63 bytes), depth, the length of a text.
 *		Anything outside the subset (DTDs, CDATA, unknown entities,
 *		mismatched tags) is an error the caller reports, never a guess.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/common/utf8.h"
#include "io/common/xml_scan.h"

void
pq_xml_scan_init(PqXmlScanner *s, const char *body, size_t len,
				 size_t max_text)
{
	memset(s, 0, sizeof(*s));
	s->p = body;
	s->end = body + len;
	s->max_text = max_text;
	initStringInfo(&s->text);
	/* a UTF-8 byte order mark (Azure sends one) */
	if (len >= 3 && memcmp(body, "\xEF\xBB\xBF", 3) == 0)
		s->p += 3;
}

static PqXmlToken
bad(PqXmlScanner *s, const char *why)
{
	s->error = why;
	return PQ_XML_BAD;
}

static bool
name_char(char c)
{
	return isalnum((unsigned char) c) || c == '_' || c == '-' || c == '.' ||
		c == ':';
}

/* Skip past the first occurrence of what; false if there is none. */
static bool
skip_past(PqXmlScanner *s, const char *what)
{
	size_t		n = strlen(what);

	for (; s->p + n <= s->end; s->p++)
		if (memcmp(s->p, what, n) == 0)
		{
			s->p += n;
			return true;
		}
	return false;
}

/* An entity after "&" at s->p; false when unknown or malformed. */
static bool
entity(PqXmlScanner *s)
{
	static const struct
	{
		const char *name;
		char		c;
	}			named[] = {
		{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}
	};
	int			i;

	for (i = 0; i < lengthof(named); i++)
	{
		size_t		n = strlen(named[i].name);

		if ((size_t) (s->end - s->p) >= n && memcmp(s->p, named[i].name, n) == 0)
		{
			appendStringInfoChar(&s->text, named[i].c);
			s->p += n;
			return true;
		}
	}
	if (s->p < s->end && *s->p == '#')
	{
		bool		hex = s->p + 1 < s->end && (s->p[1] == 'x' || s->p[1] == 'X');
		const char *q = s->p + (hex ? 2 : 1);
		uint32		c = 0;
		int			digits = 0;

		for (; q < s->end && *q != ';'; q++)
		{
			int			d;

			if (*q >= '0' && *q <= '9')
				d = *q - '0';
			else if (hex && *q >= 'a' && *q <= 'f')
				d = *q - 'a' + 10;
			else if (hex && *q >= 'A' && *q <= 'F')
				d = *q - 'A' + 10;
			else
				return false;
			c = c * (hex ? 16 : 10) + d;
			if (++digits > 8 || c > 0x10FFFF)
				return false;
		}
		if (q >= s->end || digits == 0 || c == 0 ||
			(c >= 0xD800 && c <= 0xDFFF))
			return false;
		pq_append_utf8(&s->text, c);
		s->p = q + 1;
		return true;
	}
	return false;
}

PqXmlToken
pq_xml_scan_next(PqXmlScanner *s)
{
	if (s->error)
		return PQ_XML_BAD;
	if (s->pending_close)
	{
		s->pending_close = false;
		memcpy(s->tag, s->stack[--s->depth], sizeof(s->tag));
		return PQ_XML_CLOSE;
	}
	for (;;)
	{
		const char *start;
		bool		closing;
		size_t		n;

		if (s->p >= s->end)
			return s->depth == 0 ? PQ_XML_END : bad(s, "the document ends inside an element");
		if (*s->p != '<')
		{
			bool		blank = true;

			resetStringInfo(&s->text);
			while (s->p < s->end && *s->p != '<')
			{
				char		c = *s->p++;

				if (c == '\0')
					return bad(s, "text holds a NUL byte");
				if (c == '&')
				{
					if (!entity(s))
						return bad(s, "an unknown or malformed entity");
					blank = false;
				}
				else
				{
					if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
						blank = false;
					appendStringInfoChar(&s->text, c);
				}
				if ((size_t) s->text.len > s->max_text)
					return bad(s, "a text is longer than allowed");
			}
			/* consumers pass over the layout between elements */
			if (s->depth > 0)
				return PQ_XML_TEXT;
			if (!blank)
				return bad(s, "text outside the root element");
			continue;
		}
		if (s->end - s->p >= 4 && memcmp(s->p, "<!--", 4) == 0)
		{
			if (!skip_past(s, "-->"))
				return bad(s, "an unterminated comment");
			continue;
		}
		if (s->end - s->p >= 2 && s->p[1] == '?')
		{
			if (!skip_past(s, "?>"))
				return bad(s, "an unterminated declaration");
			continue;
		}
		if (s->end - s->p >= 2 && s->p[1] == '!')
			return bad(s, "DTDs and CDATA sections are not accepted");
		s->p++;
		closing = s->p < s->end && *s->p == '/';
		if (closing)
			s->p++;
		start = s->p;
		while (s->p < s->end && name_char(*s->p))
			s->p++;
		n = s->p - start;
		if (n == 0 || n >= sizeof(s->tag))
			return bad(s, "an element name is empty or too long");
		memcpy(s->tag, start, n);
		s->tag[n] = '\0';
		/* attributes (xmlns) are passed over: quoted values may hold ">" */
		while (s->p < s->end && *s->p != '>' && !(*s->p == '/' && s->p + 1 < s->end && s->p[1] == '>'))
		{
			if (*s->p == '"' || *s->p == '\'')
			{
				char		q = *s->p++;

				while (s->p < s->end && *s->p != q)
					s->p++;
				if (s->p >= s->end)
					return bad(s, "an unterminated attribute value");
			}
			s->p++;
		}
		if (s->p >= s->end)
			return bad(s, "an unterminated tag");
		if (closing)
		{
			s->p++;
			if (s->depth == 0 || strcmp(s->stack[s->depth - 1], s->tag) != 0)
				return bad(s, "a closing tag does not match the open element");
			s->depth--;
			return PQ_XML_CLOSE;
		}
		if (s->depth >= PQ_XML_MAX_DEPTH)
			return bad(s, "elements are nested too deeply");
		memcpy(s->stack[s->depth++], s->tag, sizeof(s->stack[0]));
		if (*s->p == '/')
		{
			s->p += 2;
			s->pending_close = true;
		}
		else
			s->p++;
		return PQ_XML_OPEN;
	}
}

char *
pq_xml_scan_path(const PqXmlScanner *s)
{
	StringInfoData b;
	int			i;

	initStringInfo(&b);
	for (i = 0; i < s->depth; i++)
		appendStringInfo(&b, "%s%s", i ? "/" : "", s->stack[i]);
	return b.data;
}
