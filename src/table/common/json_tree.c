/*-------------------------------------------------------------------------
 *
 * json_tree.c
 *		Parsing JSON text (RFC 8259) into a PqJv tree, strictly and within
 *		bounds, for the table formats' metadata (json_tree.h).
 *
 * The text comes from files anyone may have written, so nothing in it is
 * trusted: every read is checked against the end of the text (which is not
 * NUL-terminated), nesting is bounded, and what is allocated is linear in
 * the text's length.
 *
 * The tree's strings and arrays are cut from a few large blocks (an arena)
 * rather than allocated one by one: a number like "0" would otherwise cost
 * a chunk header ten times its size.  The members of an array or object
 * are collected on a stack shared by all open containers, then copied to
 * an array of exactly their number when the container closes, so nothing
 * grows quadratically.  A string's decoded form is never longer than its
 * text, so that length is reserved for it and the unused tail given back.
 *
 * At worst, for "[0,0,...]" (a 16-byte PqJv in the tree and one on the
 * stack for every two bytes), the peak is about 22 bytes a byte of text;
 * metadata, mostly names and strings, takes a few bytes a byte.  A refused
 * text leaves nothing allocated but its reason.
 *
 * Byte positions in the reasons count from 0.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>
#include <string.h>

#include "format/json/render.h"
#include "table/common/json_tree.h"

/* Arena blocks grow from the first size to the last, doubling. */
#define JV_FIRST_BLOCK	1024
#define JV_LAST_BLOCK	(64 * 1024)

/* palloc's limit (MaxAllocSize, of utils/memutils.h, not included here) */
#define JV_MAX_ALLOC	((size_t) 0x3fffffff)

/* Objects of up to this many members are checked for a name twice pairwise. */
#define JV_PAIRWISE_MAX 16

/* Every arena block, and every allocation too large for one, starts so. */
typedef struct JvBlock
{
	struct JvBlock *next;
} JvBlock;

#define JV_BLOCK_HEADER MAXALIGN(sizeof(JvBlock))

typedef struct JvParser
{
	const char *text;			/* for byte positions */
	const char *p;
	const char *end;
	const char *why;			/* the first failure */

	/* the arena: every block allocated, the free part of the last one */
	JvBlock    *blocks;
	char	   *free;
	size_t		avail;
	char	   *last;			/* the last allocation cut from a block */
	size_t		block_size;		/* of the next block */

	/* items and members of the open arrays and objects, innermost last */
	PqJv	   *items;
	size_t		nitems;
	size_t		items_cap;
	PqJvMember *members;
	size_t		nmembers;
	size_t		members_cap;
} JvParser;

static bool parse_value(JvParser *ps, PqJv *out, int depth);

/* Record the first failure, what happened at byte at. */
static bool
fail_at(JvParser *ps, const char *what, const char *at)
{
	if (ps->why == NULL)
		ps->why = psprintf("%s at byte %zu", what, (size_t) (at - ps->text));
	return false;
}

static void
skip_blanks(JvParser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
							   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

/*
 * size bytes from the arena, MAXALIGN'd when aligned; NULL (and a reason)
 * when more than palloc can give.
 */
static void *
arena_alloc(JvParser *ps, size_t size, bool aligned, const char *at)
{
	size_t		pad = 0;
	JvBlock    *b;
	char	   *r;

	if (aligned && ps->free != NULL)
		pad = MAXALIGN((uintptr_t) ps->free) - (uintptr_t) ps->free;
	if (ps->free != NULL && ps->avail >= pad && ps->avail - pad >= size)
	{
		r = ps->free + pad;
		ps->free = r + size;
		ps->avail -= pad + size;
		ps->last = r;
		return r;
	}
	if (size > JV_MAX_ALLOC - JV_BLOCK_HEADER)
	{
		fail_at(ps, "a value too large to hold", at);
		return NULL;
	}
	if (size > ps->block_size / 4)
	{
		/* its own allocation, so that a block is never mostly wasted */
		b = palloc(JV_BLOCK_HEADER + size);
		b->next = ps->blocks;
		ps->blocks = b;
		ps->last = NULL;
		return (char *) b + JV_BLOCK_HEADER;
	}
	b = palloc(JV_BLOCK_HEADER + ps->block_size);
	b->next = ps->blocks;
	ps->blocks = b;
	r = (char *) b + JV_BLOCK_HEADER;
	ps->free = r + size;
	ps->avail = ps->block_size - size;
	ps->last = r;
	if (ps->block_size < JV_LAST_BLOCK)
		ps->block_size *= 2;
	return r;
}

/*
 * Give back what the arena's last allocation, at start, does not use from
 * used on (when it was cut from a block).
 */
static void
arena_shrink(JvParser *ps, char *start, char *used)
{
	if (start == ps->last)
	{
		ps->avail += ps->free - used;
		ps->free = used;
	}
}

/*
 * A full scratch stack of *cap elements of size bytes, grown; NULL (and a
 * reason) when it cannot grow.
 */
static void *
stack_grow(JvParser *ps, void *stack, size_t *cap, size_t size)
{
	size_t		newcap = *cap == 0 ? 16 : Min(*cap * 2, JV_MAX_ALLOC / size);

	if (newcap <= *cap)
	{
		fail_at(ps, "too many values in open arrays or objects", ps->p);
		return NULL;
	}
	stack = stack == NULL ? palloc(newcap * size) :
		repalloc(stack, newcap * size);
	*cap = newcap;
	return stack;
}

/* Code point c (checked by the caller) as UTF-8 at out; its length. */
static int
utf8_encode(uint32 c, char *out)
{
	if (c < 0x80)
	{
		out[0] = (char) c;
		return 1;
	}
	if (c < 0x800)
	{
		out[0] = (char) (0xC0 | (c >> 6));
		out[1] = (char) (0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000)
	{
		out[0] = (char) (0xE0 | (c >> 12));
		out[1] = (char) (0x80 | ((c >> 6) & 0x3F));
		out[2] = (char) (0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char) (0xF0 | (c >> 18));
	out[1] = (char) (0x80 | ((c >> 12) & 0x3F));
	out[2] = (char) (0x80 | ((c >> 6) & 0x3F));
	out[3] = (char) (0x80 | (c & 0x3F));
	return 4;
}

/* Four hex digits at *s, before end; false when they are not. */
static bool
hex4(const char **s, const char *end, uint32 *out)
{
	int			i;

	*out = 0;
	if (end - *s < 4)
		return false;
	for (i = 0; i < 4; i++)
	{
		char		c = (*s)[i];
		uint32		d;

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
	*s += 4;
	return true;
}

/*
 * The code point of the \u escape at *s (its backslash), before close, a
 * surrogate pair's two escapes taken together; *s is moved past it.
 */
static bool
unicode_escape(JvParser *ps, const char **s, const char *close, uint32 *u)
{
	const char *h = *s + 2;
	uint32		lo;

	if (!hex4(&h, close, u))
		return fail_at(ps, "a \\u escape without four hexadecimal digits",
					   *s);
	if (*u >= 0xDC00 && *u <= 0xDFFF)
		return fail_at(ps, "a lone surrogate in a \\u escape", *s);
	if (*u >= 0xD800 && *u <= 0xDBFF)
	{
		/* a high surrogate must have its low one next */
		if (close - h < 6 || h[0] != '\\' || h[1] != 'u')
			return fail_at(ps, "a lone surrogate in a \\u escape", *s);
		h += 2;
		if (!hex4(&h, close, &lo) || lo < 0xDC00 || lo > 0xDFFF)
			return fail_at(ps, "a lone surrogate in a \\u escape", *s);
		*u = 0x10000 + ((*u - 0xD800) << 10) + (lo - 0xDC00);
	}
	if (*u == 0)
		return fail_at(ps, "\\u0000 in a string", *s);
	*s = h;
	return true;
}

/*
 * A string at ps->p (its opening quote), decoded into the arena; *str is
 * NUL-terminated, *len its bytes.
 */
static bool
parse_string(JvParser *ps, const char **str, uint32 *len)
{
	const char *open = ps->p;
	const char *close = open + 1;
	const char *s;
	char	   *buf;
	char	   *o;

	/* find the closing quote first: what it encloses bounds the decoding */
	while (close < ps->end && *close != '"')
		close += (*close == '\\' && ps->end - close >= 2) ? 2 : 1;
	if (close >= ps->end)
		return fail_at(ps, "an unterminated string", open);
	buf = arena_alloc(ps, close - open, false, open);
	if (buf == NULL)
		return false;

	o = buf;
	s = open + 1;
	while (s < close)
	{
		unsigned char c = (unsigned char) *s;
		uint32		u;
		int			n;

		if (c < 0x20)
			return fail_at(ps, "a control character in a string", s);
		if (c >= 0x80)
		{
			n = pq_utf8_sequence((const uint8 *) s, close - s);
			if (n == 0)
				return fail_at(ps, "invalid UTF-8 in a string", s);
			memcpy(o, s, n);
			o += n;
			s += n;
			continue;
		}
		if (c != '\\')
		{
			*o++ = (char) c;
			s++;
			continue;
		}
		/* an escape: the search above left its second byte before close */
		switch (s[1])
		{
			case '"':
			case '\\':
			case '/':
				*o++ = s[1];
				break;
			case 'b':
				*o++ = '\b';
				break;
			case 'f':
				*o++ = '\f';
				break;
			case 'n':
				*o++ = '\n';
				break;
			case 'r':
				*o++ = '\r';
				break;
			case 't':
				*o++ = '\t';
				break;
			case 'u':
				if (!unicode_escape(ps, &s, close, &u))
					return false;
				o += utf8_encode(u, o);
				continue;
			default:
				return fail_at(ps, "an unknown escape in a string", s);
		}
		s += 2;
	}
	*o = '\0';
	arena_shrink(ps, buf, o + 1);
	*str = buf;
	*len = (uint32) (o - buf);
	ps->p = close + 1;
	return true;
}

/* A number as RFC 8259 writes it; its text, as written, into the arena. */
static bool
parse_number(JvParser *ps, PqJv *out)
{
	const char *start = ps->p;
	const char *s = ps->p;
	const char *end = ps->end;
	char	   *buf;

#define DIGIT() (s < end && *s >= '0' && *s <= '9')
	if (s < end && *s == '-')
		s++;
	if (!DIGIT())
		return fail_at(ps, "a malformed number", start);
	if (*s == '0')
		s++;					/* no leading zeros: "01" ends after "0" */
	else
		while (DIGIT())
			s++;
	if (s < end && *s == '.')
	{
		s++;
		if (!DIGIT())
			return fail_at(ps, "a malformed number", start);
		while (DIGIT())
			s++;
	}
	if (s < end && (*s == 'e' || *s == 'E'))
	{
		s++;
		if (s < end && (*s == '+' || *s == '-'))
			s++;
		if (!DIGIT())
			return fail_at(ps, "a malformed number", start);
		while (DIGIT())
			s++;
	}
#undef DIGIT
	buf = arena_alloc(ps, s - start + 1, false, start);
	if (buf == NULL)
		return false;
	memcpy(buf, start, s - start);
	buf[s - start] = '\0';
	out->type = PQ_JV_NUMBER;
	out->len = (uint32) (s - start);
	out->u.str = buf;
	ps->p = s;
	return true;
}

static bool
parse_literal(JvParser *ps, const char *word, PqJvType type, PqJv *out)
{
	size_t		n = strlen(word);

	if ((size_t) (ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return fail_at(ps, "a word other than true, false or null", ps->p);
	ps->p += n;
	out->type = type;
	out->len = 0;
	out->u.str = NULL;
	return true;
}

/* An array at ps->p (its '['), of nesting depth depth. */
static bool
parse_array(JvParser *ps, PqJv *out, int depth)
{
	const char *open = ps->p;
	size_t		base = ps->nitems;
	size_t		n;

	ps->p++;
	out->type = PQ_JV_ARRAY;
	out->len = 0;
	out->u.items = NULL;
	skip_blanks(ps);
	if (ps->p < ps->end && *ps->p == ']')
	{
		ps->p++;
		return true;
	}
	for (;;)
	{
		PqJv		v;

		if (!parse_value(ps, &v, depth))
			return false;
		if (ps->nitems == ps->items_cap)
		{
			PqJv	   *grown = stack_grow(ps, ps->items, &ps->items_cap,
										   sizeof(PqJv));

			if (grown == NULL)
				return false;
			ps->items = grown;
		}
		ps->items[ps->nitems++] = v;
		skip_blanks(ps);
		if (ps->p >= ps->end)
			return fail_at(ps, "an unterminated array", open);
		if (*ps->p == ']')
			break;
		if (*ps->p != ',')
			return fail_at(ps, "a ',' or ']' expected", ps->p);
		ps->p++;
	}
	ps->p++;
	n = ps->nitems - base;
	out->u.items = arena_alloc(ps, n * sizeof(PqJv), true, open);
	if (out->u.items == NULL)
		return false;
	memcpy(out->u.items, &ps->items[base], n * sizeof(PqJv));
	out->len = (uint32) n;
	ps->nitems = base;
	return true;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* Whether any name of the n members m is given twice. */
static bool
names_repeat(const PqJvMember *m, size_t n)
{
	const char **names;
	bool		repeat = false;
	size_t		i;
	size_t		j;

	if (n <= JV_PAIRWISE_MAX)
	{
		for (i = 1; i < n; i++)
			for (j = 0; j < i; j++)
				if (strcmp(m[i].name, m[j].name) == 0)
					return true;
		return false;
	}
	/* sorted, equal names are neighbours: O(n log n) for wide objects */
	names = palloc(n * sizeof(const char *));
	for (i = 0; i < n; i++)
		names[i] = m[i].name;
	qsort(names, n, sizeof(const char *), name_cmp);
	for (i = 1; i < n && !repeat; i++)
		repeat = strcmp(names[i - 1], names[i]) == 0;
	pfree(names);
	return repeat;
}

/* An object at ps->p (its '{'), of nesting depth depth. */
static bool
parse_object(JvParser *ps, PqJv *out, int depth)
{
	const char *open = ps->p;
	size_t		base = ps->nmembers;
	size_t		n;

	ps->p++;
	out->type = PQ_JV_OBJECT;
	out->len = 0;
	out->u.members = NULL;
	skip_blanks(ps);
	if (ps->p < ps->end && *ps->p == '}')
	{
		ps->p++;
		return true;
	}
	for (;;)
	{
		PqJvMember	m;
		uint32		namelen;

		skip_blanks(ps);
		if (ps->p >= ps->end)
			return fail_at(ps, "an unterminated object", open);
		if (*ps->p != '"')
			return fail_at(ps, "a member's name expected", ps->p);
		if (!parse_string(ps, &m.name, &namelen))
			return false;
		skip_blanks(ps);
		if (ps->p >= ps->end)
			return fail_at(ps, "an unterminated object", open);
		if (*ps->p != ':')
			return fail_at(ps, "a ':' expected", ps->p);
		ps->p++;
		if (!parse_value(ps, &m.value, depth))
			return false;
		if (ps->nmembers == ps->members_cap)
		{
			PqJvMember *grown = stack_grow(ps, ps->members, &ps->members_cap,
										   sizeof(PqJvMember));

			if (grown == NULL)
				return false;
			ps->members = grown;
		}
		ps->members[ps->nmembers++] = m;
		skip_blanks(ps);
		if (ps->p >= ps->end)
			return fail_at(ps, "an unterminated object", open);
		if (*ps->p == '}')
			break;
		if (*ps->p != ',')
			return fail_at(ps, "a ',' or '}' expected", ps->p);
		ps->p++;
	}
	ps->p++;
	n = ps->nmembers - base;
	if (names_repeat(&ps->members[base], n))
		return fail_at(ps, "a name given twice in an object", open);
	out->u.members = arena_alloc(ps, n * sizeof(PqJvMember), true, open);
	if (out->u.members == NULL)
		return false;
	memcpy(out->u.members, &ps->members[base], n * sizeof(PqJvMember));
	out->len = (uint32) n;
	ps->nmembers = base;
	return true;
}

/*
 * A value after blanks at ps->p.  depth: the arrays and objects it is in;
 * one more is refused past PQ_JV_MAX_DEPTH, which bounds the recursion.
 */
static bool
parse_value(JvParser *ps, PqJv *out, int depth)
{
	skip_blanks(ps);
	if (ps->p >= ps->end)
		return fail_at(ps, "a value expected where the text ends", ps->p);
	switch (*ps->p)
	{
		case '[':
		case '{':
			if (depth >= PQ_JV_MAX_DEPTH)
				return fail_at(ps, "nesting deeper than "
							   CppAsString2(PQ_JV_MAX_DEPTH) " levels", ps->p);
			if (*ps->p == '[')
				return parse_array(ps, out, depth + 1);
			return parse_object(ps, out, depth + 1);
		case '"':
			out->type = PQ_JV_STRING;
			return parse_string(ps, &out->u.str, &out->len);
		case 't':
			return parse_literal(ps, "true", PQ_JV_TRUE, out);
		case 'f':
			return parse_literal(ps, "false", PQ_JV_FALSE, out);
		case 'n':
			return parse_literal(ps, "null", PQ_JV_NULL, out);
		case '-':
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
		case '8':
		case '9':
			return parse_number(ps, out);
		default:
			return fail_at(ps, "a value expected", ps->p);
	}
}

PqJv *
pq_jv_parse(const char *text, size_t len, const char **why)
{
	JvParser	ps;
	PqJv		v;
	PqJv	   *root = NULL;
	bool		ok;

	memset(&ps, 0, sizeof(ps));
	/* no arithmetic on a null pointer, even of zero */
	ps.text = text !=NULL ? text : "";

	ps.p = ps.text;
	ps.end = text !=NULL ? text +len : ps.text;

	ps.block_size = JV_FIRST_BLOCK;

	ok = parse_value(&ps, &v, 0);
	if (ok)
	{
		skip_blanks(&ps);
		if (ps.p < ps.end)
			ok = fail_at(&ps, "more than blanks after the value", ps.p);
	}
	if (ok)
	{
		root = arena_alloc(&ps, sizeof(PqJv), true, ps.p);
		if (root != NULL)
			*root = v;
	}
	if (ps.items != NULL)
		pfree(ps.items);
	if (ps.members != NULL)
		pfree(ps.members);
	if (root == NULL)
	{
		/* nothing of a refused text is kept */
		while (ps.blocks != NULL)
		{
			JvBlock    *next = ps.blocks->next;

			pfree(ps.blocks);
			ps.blocks = next;
		}
	}
	if (why != NULL)
		*why = root != NULL ? NULL : ps.why;
	return root;
}

const PqJv *
pq_jv_get(const PqJv *o, const char *name)
{
	uint32		i;

	if (o == NULL || o->type != PQ_JV_OBJECT || name == NULL)
		return NULL;
	for (i = 0; i < o->len; i++)
		if (strcmp(o->u.members[i].name, name) == 0)
			return &o->u.members[i].value;
	return NULL;
}

const char *
pq_jv_str(const PqJv *v)
{
	if (v == NULL || v->type != PQ_JV_STRING)
		return NULL;
	return v->u.str;
}

/*
 * Exactly, without floating point: the number is its significant digits
 * (those of the integer and fraction parts, leading and trailing zeros
 * dropped) times a power of ten, which must not be negative.
 */
bool
pq_jv_int64(const PqJv *v, int64 *out)
{
	const char *s;
	const char *end;
	const char *digits;			/* the integer part's first digit */
	const char *point = NULL;	/* the '.', if any */
	const char *digits_end;		/* after the fraction's last digit */
	const char *first = NULL;	/* the first and last non-zero digits */
	const char *last = NULL;
	bool		neg = false;
	bool		exp_neg = false;
	int64		exp = 0;
	int64		scale;
	uint64		mag = 0;
	const char *d;

	if (v == NULL || v->type != PQ_JV_NUMBER || v->u.str == NULL)
		return false;
	s = v->u.str;
	end = s + v->len;
	if (s < end && *s == '-')
	{
		neg = true;
		s++;
	}
	digits = s;
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	if (s == digits)
		return false;
	if (s < end && *s == '.')
	{
		point = s++;
		if (s >= end || *s < '0' || *s > '9')
			return false;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	digits_end = s;
	if (s < end && (*s == 'e' || *s == 'E'))
	{
		s++;
		if (s < end && (*s == '+' || *s == '-'))
			exp_neg = *s++ == '-';
		if (s >= end || *s < '0' || *s > '9')
			return false;
		/* saturated: past 10^15 the answer no longer depends on it */
		for (; s < end && *s >= '0' && *s <= '9'; s++)
			if (exp < INT64CONST(1000000000000000))
				exp = exp * 10 + (*s - '0');
		if (exp_neg)
			exp = -exp;
	}
	if (s != end)
		return false;

	for (d = digits; d < digits_end; d++)
		if (d != point && *d != '0')
		{
			if (first == NULL)
				first = d;
			last = d;
		}
	if (first == NULL)
	{
		*out = 0;				/* "0", "-0", "0.0e5" */
		return true;
	}
	/* the power of ten after the last non-zero digit */
	scale = exp;
	if (point != NULL)
		scale -= last < point ? -(int64) (point - last - 1) :
			(int64) (last - point);
	else
		scale += (int64) (digits_end - last - 1);
	if (scale < 0)
		return false;			/* a fraction is left */
	/* 19 digits at most: 10^19 is beyond int64 */
	{
		int64		ndigits = (int64) (last - first + 1) -
		(point != NULL && first < point && point < last ? 1 : 0);

		if (ndigits + scale > 19)
			return false;
	}
	for (d = first; d <= last; d++)
		if (d != point)
			mag = mag * 10 + (uint64) (*d - '0');
	while (scale-- > 0)
		mag *= 10;
	if (neg)
	{
		if (mag > (uint64) PG_INT64_MAX + 1)
			return false;
		*out = mag == (uint64) PG_INT64_MAX + 1 ? PG_INT64_MIN : -(int64) mag;
	}
	else
	{
		if (mag > (uint64) PG_INT64_MAX)
			return false;
		*out = (int64) mag;
	}
	return true;
}

bool
pq_jv_bool(const PqJv *v, bool *out)
{
	if (v == NULL || (v->type != PQ_JV_TRUE && v->type != PQ_JV_FALSE))
		return false;
	*out = v->type == PQ_JV_TRUE;
	return true;
}
