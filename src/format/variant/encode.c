/*-------------------------------------------------------------------------
 *
 * encode.c
 *		JSON text -> Variant metadata and value (VariantEncoding.md).
 *
 * Two steps: the JSON text is parsed into a tree (strings unescaped,
 * numbers kept as text), every object key is collected into the metadata
 * dictionary, sorted and deduplicated (so sorted_strings is set and field
 * ids follow key order), then the tree is encoded bottom-up: a container's
 * header needs the size of its children, so they are encoded into a
 * scratch buffer first.  Duplicate keys keep the last value, as jsonb
 * does.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/variant/encode.h"

#ifndef HAVE_INT128
#error "the Variant encoder needs a compiler with a 128-bit integer type"
#endif

/* basic types and primitive type ids of the value_metadata byte */
#define VB_PRIMITIVE 0
#define VB_SHORT_STRING 1
#define VB_OBJECT 2
#define VB_ARRAY 3
#define VP_NULL 0
#define VP_TRUE 1
#define VP_FALSE 2
#define VP_INT8 3
#define VP_INT16 4
#define VP_INT32 5
#define VP_INT64 6
#define VP_DECIMAL4 8
#define VP_DECIMAL8 9
#define VP_DECIMAL16 10
#define VP_STRING 16

/* ASCII digits only, whatever the locale */
#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')

#define MAX_DECIMAL_DIGITS 38
#define MAX_SHORT_STRING 63

typedef enum JvKind
{
	JV_NULL,
	JV_TRUE,
	JV_FALSE,
	JV_NUMBER,
	JV_STRING,
	JV_ARRAY,
	JV_OBJECT
} JvKind;

typedef struct JvNode JvNode;

typedef struct JvMember
{
	const char *key;
	size_t		key_len;
	uint32		id;				/* in the dictionary */
	int			pos;			/* in the object as written */
	JvNode	   *value;
} JvMember;

struct JvNode
{
	JvKind		kind;
	const char *str;			/* NUMBER: its text; STRING: UTF-8 */
	size_t		len;
	int			n;				/* ARRAY: items; OBJECT: members */
	JvNode	  **items;
	JvMember   *members;
};

typedef struct JvParser
{
	const char *p;
	const char *end;
	const char *start;
	/* every key, for the dictionary */
	JvMember  **keys;
	int			nkeys;
	int			cap_keys;
} JvParser;

typedef struct JvKey
{
	const char *s;
	size_t		len;
} JvKey;

static void
bad_json(JvParser *ps, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid JSON for a Variant: %s at byte %d", what,
					(int) (ps->p - ps->start))));
}

static void
skip_space(JvParser *ps)
{
	while (ps->p < ps->end &&
		   (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int
hex_value(JvParser *ps, char c)
{
	int			v = pq_hex_digit(c);

	if (v < 0)
		bad_json(ps, "bad \\u escape");
	return v;
}

static uint32
parse_u4(JvParser *ps)
{
	uint32		v = 0;
	int			i;

	if (ps->end - ps->p < 4)
		bad_json(ps, "short \\u escape");
	for (i = 0; i < 4; i++)
		v = (v << 4) | hex_value(ps, *ps->p++);
	return v;
}

static void
append_utf8(PqBuffer *b, uint32 cp)
{
	if (cp < 0x80)
		pq_buffer_append_byte(b, (uint8) cp);
	else if (cp < 0x800)
	{
		pq_buffer_append_byte(b, (uint8) (0xC0 | (cp >> 6)));
		pq_buffer_append_byte(b, (uint8) (0x80 | (cp & 0x3F)));
	}
	else if (cp < 0x10000)
	{
		pq_buffer_append_byte(b, (uint8) (0xE0 | (cp >> 12)));
		pq_buffer_append_byte(b, (uint8) (0x80 | ((cp >> 6) & 0x3F)));
		pq_buffer_append_byte(b, (uint8) (0x80 | (cp & 0x3F)));
	}
	else
	{
		pq_buffer_append_byte(b, (uint8) (0xF0 | (cp >> 18)));
		pq_buffer_append_byte(b, (uint8) (0x80 | ((cp >> 12) & 0x3F)));
		pq_buffer_append_byte(b, (uint8) (0x80 | ((cp >> 6) & 0x3F)));
		pq_buffer_append_byte(b, (uint8) (0x80 | (cp & 0x3F)));
	}
}

/* A string after its opening quote; returns the unescaped bytes. */
static const char *
parse_string(JvParser *ps, size_t *len)
{
	const char *s = ps->p;
	PqBuffer	b;

	/* the common case: no escapes, the bytes are used in place */
	while (ps->p < ps->end && *ps->p != '"' && *ps->p != '\\')
	{
		if ((uint8) *ps->p < 0x20)
			bad_json(ps, "control character in a string");
		ps->p++;
	}
	if (ps->p >= ps->end)
		bad_json(ps, "unterminated string");
	if (*ps->p == '"')
	{
		*len = ps->p - s;
		ps->p++;
		return s;
	}

	pq_buffer_init(&b, (ps->p - s) + 16);
	pq_buffer_append(&b, s, ps->p - s);
	while (ps->p < ps->end && *ps->p != '"')
	{
		char		c = *ps->p++;

		if ((uint8) c < 0x20)
			bad_json(ps, "control character in a string");
		if (c != '\\')
		{
			pq_buffer_append_byte(&b, (uint8) c);
			continue;
		}
		if (ps->p >= ps->end)
			break;
		c = *ps->p++;
		switch (c)
		{
			case '"':
			case '\\':
			case '/':
				pq_buffer_append_byte(&b, (uint8) c);
				break;
			case 'b':
				pq_buffer_append_byte(&b, '\b');
				break;
			case 'f':
				pq_buffer_append_byte(&b, '\f');
				break;
			case 'n':
				pq_buffer_append_byte(&b, '\n');
				break;
			case 'r':
				pq_buffer_append_byte(&b, '\r');
				break;
			case 't':
				pq_buffer_append_byte(&b, '\t');
				break;
			case 'u':
				{
					uint32		cp = parse_u4(ps);

					if (cp >= 0xD800 && cp <= 0xDBFF)
					{
						uint32		lo;

						if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
							bad_json(ps, "lone surrogate in \\u escape");
						ps->p += 2;
						lo = parse_u4(ps);
						if (lo < 0xDC00 || lo > 0xDFFF)
							bad_json(ps, "bad surrogate pair in \\u escape");
						cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					}
					else if (cp >= 0xDC00 && cp <= 0xDFFF)
						bad_json(ps, "lone surrogate in \\u escape");
					append_utf8(&b, cp);
				}
				break;
			default:
				bad_json(ps, "bad escape");
		}
	}
	if (ps->p >= ps->end)
		bad_json(ps, "unterminated string");
	ps->p++;
	*len = b.len;
	return (const char *) b.data;
}

/* RFC 8259 number grammar; the text is kept. */
static void
parse_number(JvParser *ps, JvNode *node)
{
	const char *s = ps->p;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || !IS_DIGIT(*ps->p))
		bad_json(ps, "bad number");
	if (*ps->p == '0')
		ps->p++;
	else
		while (ps->p < ps->end && IS_DIGIT(*ps->p))
			ps->p++;
	if (ps->p < ps->end && *ps->p == '.')
	{
		ps->p++;
		if (ps->p >= ps->end || !IS_DIGIT(*ps->p))
			bad_json(ps, "bad number");
		while (ps->p < ps->end && IS_DIGIT(*ps->p))
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E'))
	{
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || !IS_DIGIT(*ps->p))
			bad_json(ps, "bad number");
		while (ps->p < ps->end && IS_DIGIT(*ps->p))
			ps->p++;
	}
	node->kind = JV_NUMBER;
	node->str = s;
	node->len = ps->p - s;
}

static bool
match_word(JvParser *ps, const char *word)
{
	size_t		n = strlen(word);

	if ((size_t) (ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return false;
	ps->p += n;
	return true;
}

static void
remember_key(JvParser *ps, JvMember *m)
{
	if (ps->nkeys == ps->cap_keys)
	{
		ps->cap_keys = Max(16, ps->cap_keys * 2);
		ps->keys = ps->keys == NULL ?
			palloc(sizeof(JvMember *) * ps->cap_keys) :
			repalloc_huge(ps->keys, sizeof(JvMember *) * ps->cap_keys);
	}
	ps->keys[ps->nkeys++] = m;
}

static JvNode *parse_value(JvParser *ps, int depth);

static void
parse_array(JvParser *ps, JvNode *node, int depth)
{
	int			cap = 0;

	node->kind = JV_ARRAY;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == ']')
	{
		ps->p++;
		return;
	}
	for (;;)
	{
		if (node->n == cap)
		{
			cap = Max(8, cap * 2);
			node->items = node->items == NULL ?
				palloc(sizeof(JvNode *) * cap) :
				repalloc_huge(node->items, sizeof(JvNode *) * cap);
		}
		node->items[node->n++] = parse_value(ps, depth + 1);
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',')
		{
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == ']')
		{
			ps->p++;
			return;
		}
		bad_json(ps, "expected ',' or ']'");
	}
}

static void
parse_object(JvParser *ps, JvNode *node, int depth)
{
	int			cap = 0;

	node->kind = JV_OBJECT;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == '}')
	{
		ps->p++;
		return;
	}
	for (;;)
	{
		JvMember   *m;

		if (node->n == cap)
		{
			cap = Max(8, cap * 2);
			node->members = node->members == NULL ?
				palloc(sizeof(JvMember) * cap) :
				repalloc_huge(node->members, sizeof(JvMember) * cap);
		}
		m = &node->members[node->n];
		m->pos = node->n;
		skip_space(ps);
		if (ps->p >= ps->end || *ps->p != '"')
			bad_json(ps, "expected an object key");
		ps->p++;
		m->key = parse_string(ps, &m->key_len);
		skip_space(ps);
		if (ps->p >= ps->end || *ps->p != ':')
			bad_json(ps, "expected ':'");
		ps->p++;
		m->value = parse_value(ps, depth + 1);
		node->n++;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',')
		{
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == '}')
		{
			ps->p++;
			return;
		}
		bad_json(ps, "expected ',' or '}'");
	}
}

static JvNode *
parse_value(JvParser *ps, int depth)
{
	JvNode	   *node = palloc0(sizeof(JvNode));

	if (depth > PQ_VARIANT_MAX_DEPTH)
		bad_json(ps, "nesting deeper than " CppAsString2(PQ_VARIANT_MAX_DEPTH));
	skip_space(ps);
	if (ps->p >= ps->end)
		bad_json(ps, "unexpected end");
	switch (*ps->p)
	{
		case '{':
			ps->p++;
			parse_object(ps, node, depth);
			break;
		case '[':
			ps->p++;
			parse_array(ps, node, depth);
			break;
		case '"':
			ps->p++;
			node->kind = JV_STRING;
			node->str = parse_string(ps, &node->len);
			break;
		case 't':
			if (!match_word(ps, "true"))
				bad_json(ps, "unexpected token");
			node->kind = JV_TRUE;
			break;
		case 'f':
			if (!match_word(ps, "false"))
				bad_json(ps, "unexpected token");
			node->kind = JV_FALSE;
			break;
		case 'n':
			if (!match_word(ps, "null"))
				bad_json(ps, "unexpected token");
			node->kind = JV_NULL;
			break;
		default:
			parse_number(ps, node);
			break;
	}
	return node;
}

/* ------------------------------------------------------------ dictionary */

static int
key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int			c = memcmp(a, b, Min(alen, blen));

	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

static int
key_qsort_cmp(const void *a, const void *b)
{
	const JvKey *x = a;
	const JvKey *y = b;

	return key_cmp(x->s, x->len, y->s, y->len);
}

static int
member_qsort_cmp(const void *a, const void *b)
{
	const JvMember *x = a;
	const JvMember *y = b;

	/* equal ids: the one written later first, so that it is kept */
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->pos > y->pos ? -1 : x->pos < y->pos ? 1 : 0;
}

/* Bytes of an unsigned little-endian field holding v (1 to 4). */
static int
int_size(uint64 v)
{
	if (v < (1U << 8))
		return 1;
	if (v < (1U << 16))
		return 2;
	if (v < (1U << 24))
		return 3;
	if (v <= PG_UINT32_MAX)
		return 4;
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("Variant value exceeds 4 GB")));
	return 4;					/* keep compiler quiet */
}

static void
put_le(PqBuffer *b, uint64 v, int size)
{
	int			i;

	for (i = 0; i < size; i++)
		pq_buffer_append_byte(b, (uint8) (v >> (8 * i)));
}

/*
 * The sorted, unique keys as the metadata; each member gets its id (the
 * position of its key).
 */
static void
build_dictionary(JvParser *ps, PqBuffer *metadata)
{
	JvKey	   *keys = palloc(sizeof(JvKey) * Max(ps->nkeys, 1));
	int			nuniq = 0;
	uint64		total = 0;
	int			osize;
	int			i;

	for (i = 0; i < ps->nkeys; i++)
	{
		keys[i].s = ps->keys[i]->key;
		keys[i].len = ps->keys[i]->key_len;
	}
	if (ps->nkeys > 1)
		qsort(keys, ps->nkeys, sizeof(JvKey), key_qsort_cmp);
	for (i = 0; i < ps->nkeys; i++)
		if (nuniq == 0 || key_cmp(keys[nuniq - 1].s, keys[nuniq - 1].len,
								  keys[i].s, keys[i].len) != 0)
			keys[nuniq++] = keys[i];
	for (i = 0; i < nuniq; i++)
		total += keys[i].len;

	/* each member's id: binary search of its key */
	for (i = 0; i < ps->nkeys; i++)
	{
		JvMember   *m = ps->keys[i];
		int			lo = 0;
		int			hi = nuniq - 1;

		while (lo < hi)
		{
			int			mid = (lo + hi) / 2;

			if (key_cmp(keys[mid].s, keys[mid].len, m->key, m->key_len) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		m->id = (uint32) lo;
	}

	osize = int_size(Max(total, (uint64) nuniq));
	/* version 1, sorted_strings, offset_size_minus_one */
	pq_buffer_append_byte(metadata, (uint8) (1 | (1 << 4) | ((osize - 1) << 6)));
	put_le(metadata, nuniq, osize);
	total = 0;
	put_le(metadata, 0, osize);
	for (i = 0; i < nuniq; i++)
	{
		total += keys[i].len;
		put_le(metadata, total, osize);
	}
	for (i = 0; i < nuniq; i++)
		pq_buffer_append(metadata, keys[i].s, keys[i].len);
}

/* ------------------------------------------------------------ values */

static void
number_error(const JvNode *node, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("JSON number %.*s cannot be a Variant number: %s",
					(int) Min(node->len, 80), node->str, why),
			 errhint("Variant numbers hold at most 38 decimal digits; jsonb_as 'json' writes the column as JSON text, which keeps every number.")));
}

/*
 * The exact value of a JSON number, digits * 10^-scale: int8/16/32/64 when
 * the scale is 0 and the value fits, else decimal4/8/16 by the number of
 * digits.
 */
static void
encode_number(const JvNode *node, PqBuffer *out)
{
	const char *p = node->str;
	const char *end = p + node->len;
	char		digits[MAX_DECIMAL_DIGITS];
	int			ndigits = 0;
	int64		frac_digits = 0;
	int64		exp = 0;
	int64		dropped_zeros = 0;
	int64		e10;
	int64		scale;
	bool		neg = false;
	bool		in_frac = false;
	int128		v = 0;
	int			i;

	if (*p == '-')
	{
		neg = true;
		p++;
	}
	/* significant digits (leading zeros dropped); fraction digits count */
	for (; p < end && (IS_DIGIT(*p) || *p == '.'); p++)
	{
		if (*p == '.')
		{
			in_frac = true;
			continue;
		}
		if (in_frac)
			frac_digits++;
		if (ndigits == 0 && *p == '0')
			continue;
		if (ndigits == MAX_DECIMAL_DIGITS)
		{
			/* a zero past 38 digits only scales the value */
			if (*p != '0')
				number_error(node, "more than 38 significant digits");
			dropped_zeros++;
			continue;
		}
		digits[ndigits++] = *p;
	}
	if (p < end)
	{
		/* exponent, bounded so that the arithmetic below cannot overflow */
		bool		eneg = false;

		p++;
		if (*p == '+' || *p == '-')
			eneg = (*p++ == '-');
		for (; p < end; p++)
		{
			exp = exp * 10 + (*p - '0');
			if (exp > 100000)
				number_error(node, "exponent out of range");
		}
		if (eneg)
			exp = -exp;
	}

	/* value = digits * 10^e10 */
	e10 = exp + dropped_zeros - frac_digits;
	if (ndigits == 0)
		scale = Min(Max(-e10, 0), MAX_DECIMAL_DIGITS);	/* zero */
	else if (e10 >= 0)
	{
		if (ndigits + e10 > MAX_DECIMAL_DIGITS)
			number_error(node, "more than 38 digits");
		for (i = 0; i < e10; i++)
			digits[ndigits++] = '0';
		scale = 0;
	}
	else
	{
		scale = -e10;
		/* trailing fractional zeros may go when the scale is too large */
		while (scale > MAX_DECIMAL_DIGITS && digits[ndigits - 1] == '0')
		{
			ndigits--;
			scale--;
		}
		if (scale > MAX_DECIMAL_DIGITS)
			number_error(node, "scale beyond 38");
	}
	for (i = 0; i < ndigits; i++)
		v = v * 10 + (digits[i] - '0');
	if (neg)
		v = -v;

	if (scale == 0 && v >= PG_INT64_MIN && v <= PG_INT64_MAX)
	{
		int64		iv = (int64) v;

		if (iv >= PG_INT8_MIN && iv <= PG_INT8_MAX)
		{
			pq_buffer_append_byte(out, VP_INT8 << 2);
			put_le(out, (uint64) iv, 1);
		}
		else if (iv >= PG_INT16_MIN && iv <= PG_INT16_MAX)
		{
			pq_buffer_append_byte(out, VP_INT16 << 2);
			put_le(out, (uint64) iv, 2);
		}
		else if (iv >= PG_INT32_MIN && iv <= PG_INT32_MAX)
		{
			pq_buffer_append_byte(out, VP_INT32 << 2);
			put_le(out, (uint64) iv, 4);
		}
		else
		{
			pq_buffer_append_byte(out, VP_INT64 << 2);
			put_le(out, (uint64) iv, 8);
		}
	}
	else if (ndigits <= 9)
	{
		pq_buffer_append_byte(out, VP_DECIMAL4 << 2);
		pq_buffer_append_byte(out, (uint8) scale);
		put_le(out, (uint64) (int64) v, 4);
	}
	else if (ndigits <= 18)
	{
		pq_buffer_append_byte(out, VP_DECIMAL8 << 2);
		pq_buffer_append_byte(out, (uint8) scale);
		put_le(out, (uint64) (int64) v, 8);
	}
	else
	{
		uint128		u = (uint128) v;

		pq_buffer_append_byte(out, VP_DECIMAL16 << 2);
		pq_buffer_append_byte(out, (uint8) scale);
		put_le(out, (uint64) u, 8);
		put_le(out, (uint64) (u >> 64), 8);
	}
}

static void
encode_string(const char *s, size_t len, PqBuffer *out)
{
	if (len <= MAX_SHORT_STRING)
		pq_buffer_append_byte(out, (uint8) (VB_SHORT_STRING | (len << 2)));
	else
	{
		pq_buffer_append_byte(out, VP_STRING << 2);
		put_le(out, len, 4);
	}
	pq_buffer_append(out, s, len);
}

static void encode_value(const JvNode *node, PqBuffer *out);

/* Header, element count, ids, offsets, then the children's bytes. */
static void
encode_container(const JvNode *node, PqBuffer *out)
{
	bool		is_object = node->kind == JV_OBJECT;
	JvMember   *members = NULL;
	int			n = node->n;
	uint64	   *offsets = palloc(sizeof(uint64) * (n + 1));
	uint32		max_id = 0;
	PqBuffer	kids;
	int			osize;
	int			isize = 1;
	bool		is_large = n > 255;
	int			i;

	pq_buffer_init(&kids, 256);
	if (is_object && n > 0)
	{
		int			k = 0;

		/* key order, duplicates reduced to their last value */
		members = palloc(sizeof(JvMember) * n);
		memcpy(members, node->members, sizeof(JvMember) * n);
		qsort(members, n, sizeof(JvMember), member_qsort_cmp);
		for (i = 0; i < n; i++)
			if (k == 0 || members[k - 1].id != members[i].id)
				members[k++] = members[i];
		n = k;
		is_large = n > 255;
		for (i = 0; i < n; i++)
			max_id = Max(max_id, members[i].id);
		isize = int_size(max_id);
	}
	for (i = 0; i < n; i++)
	{
		offsets[i] = kids.len;
		encode_value(is_object ? members[i].value : node->items[i], &kids);
	}
	offsets[n] = kids.len;
	osize = int_size(kids.len);

	if (is_object)
		pq_buffer_append_byte(out, (uint8) (VB_OBJECT |
											((((is_large ? 1 : 0) << 4) |
											  ((isize - 1) << 2) |
											  (osize - 1)) << 2)));
	else
		pq_buffer_append_byte(out, (uint8) (VB_ARRAY |
											((((is_large ? 1 : 0) << 2) |
											  (osize - 1)) << 2)));
	put_le(out, n, is_large ? 4 : 1);
	if (is_object)
		for (i = 0; i < n; i++)
			put_le(out, members[i].id, isize);
	for (i = 0; i <= n; i++)
		put_le(out, offsets[i], osize);
	pq_buffer_append(out, kids.data, kids.len);
	pfree(kids.data);
	pfree(offsets);
	if (members != NULL)
		pfree(members);
}

static void
encode_value(const JvNode *node, PqBuffer *out)
{
	switch (node->kind)
	{
		case JV_NULL:
			pq_buffer_append_byte(out, VP_NULL << 2);
			break;
		case JV_TRUE:
			pq_buffer_append_byte(out, VP_TRUE << 2);
			break;
		case JV_FALSE:
			pq_buffer_append_byte(out, VP_FALSE << 2);
			break;
		case JV_NUMBER:
			encode_number(node, out);
			break;
		case JV_STRING:
			encode_string(node->str, node->len, out);
			break;
		case JV_ARRAY:
		case JV_OBJECT:
			encode_container(node, out);
			break;
	}
}

/* Every key of the tree, for the dictionary. */
static void
collect_keys(JvParser *ps, JvNode *node)
{
	int			i;

	if (node->kind == JV_ARRAY)
		for (i = 0; i < node->n; i++)
			collect_keys(ps, node->items[i]);
	else if (node->kind == JV_OBJECT)
		for (i = 0; i < node->n; i++)
		{
			remember_key(ps, &node->members[i]);
			collect_keys(ps, node->members[i].value);
		}
}

void
pq_variant_encode_json(const char *json, size_t len, PqBuffer *metadata,
					   PqBuffer *value)
{
	JvParser	ps;
	JvNode	   *root;

	memset(&ps, 0, sizeof(ps));
	ps.p = ps.start = json;
	ps.end = json + len;
	root = parse_value(&ps, 0);
	skip_space(&ps);
	if (ps.p != ps.end)
		bad_json(&ps, "trailing characters");
	collect_keys(&ps, root);
	build_dictionary(&ps, metadata);
	encode_value(root, value);
}
