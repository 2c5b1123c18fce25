/*
 * fuzz_json.c
 *		JSON text as the table formats' metadata reader takes it
 *		(src/table/common/json_tree.c): the input is one text.  A refused
 *		text must say why, at a byte within it; a parsed one must keep what
 *		json_tree.h promises, checked here by code of this file's own:
 *		strings and names valid UTF-8 without NUL, numbers as RFC 8259
 *		writes them, names unique in their object and found by pq_jv_get,
 *		nesting within PQ_JV_MAX_DEPTH, whole numbers read exactly; and the
 *		tree written out again parses to the same tree.
 */
#include "fuzz.h"

#include <stdlib.h>

#include "lib/stringinfo.h"
#include "table/common/json_tree.h"

/* Strict UTF-8 (RFC 3629): shortest form, no surrogates, to U+10FFFF. */
static bool
utf8_ok(const unsigned char *s, size_t len)
{
	size_t		i = 0;

	while (i < len)
	{
		unsigned char c = s[i];
		uint32		cp;
		size_t		n;
		size_t		k;

		if (c == 0)
			return false;
		if (c < 0x80)
		{
			i++;
			continue;
		}
		/* n: the continuation bytes */
		if (c >= 0xC2 && c <= 0xDF)
			n = 1;
		else if (c >= 0xE0 && c <= 0xEF)
			n = 2;
		else if (c >= 0xF0 && c <= 0xF4)
			n = 3;
		else
			return false;
		cp = c & (0x3F >> n);
		if (len - i - 1 < n)
			return false;
		for (k = 1; k <= n; k++)
		{
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
			cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		i += n + 1;
	}
	return true;
}

/* RFC 8259's number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static bool
number_ok(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.')
	{
		s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E')
	{
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static void
check_number(const PqJv *v)
{
	int64		i;
	const char *s = v->u.str;

	if (s == NULL || strlen(s) != v->len || !number_ok(s))
		abort();
	if (pq_jv_int64(v, &i))
	{
		/* every int64 is exact in x86's long double, as is its rounding */
		if ((long double) i != strtold(s, NULL))
			abort();
	}
	else if (strpbrk(s, ".eE") == NULL && v->len <= 18)
		abort();				/* a plain integer of 18 digits fits */
}

static void
check_tree(const PqJv *v, int depth)
{
	uint32		i;

	switch (v->type)
	{
		case PQ_JV_NULL:
		case PQ_JV_TRUE:
		case PQ_JV_FALSE:
			break;
		case PQ_JV_NUMBER:
			check_number(v);
			break;
		case PQ_JV_STRING:
			if (v->u.str == NULL || strlen(v->u.str) != v->len ||
				!utf8_ok((const unsigned char *) v->u.str, v->len) ||
				pq_jv_str(v) != v->u.str)
				abort();
			break;
		case PQ_JV_ARRAY:
			if (depth + 1 > PQ_JV_MAX_DEPTH ||
				(v->len > 0) != (v->u.items != NULL))
				abort();
			for (i = 0; i < v->len; i++)
				check_tree(&v->u.items[i], depth + 1);
			break;
		case PQ_JV_OBJECT:
			if (depth + 1 > PQ_JV_MAX_DEPTH ||
				(v->len > 0) != (v->u.members != NULL))
				abort();
			if (v->len > 1)
			{
				const char **names = palloc(v->len * sizeof(char *));

				for (i = 0; i < v->len; i++)
					names[i] = v->u.members[i].name;
				qsort(names, v->len, sizeof(char *), str_cmp);
				for (i = 1; i < v->len; i++)
					if (strcmp(names[i - 1], names[i]) == 0)
						abort();
				pfree(names);
			}
			for (i = 0; i < v->len; i++)
			{
				const char *name = v->u.members[i].name;

				if (name == NULL ||
					!utf8_ok((const unsigned char *) name, strlen(name)))
					abort();
				if (i < 64 && pq_jv_get(v, name) != &v->u.members[i].value)
					abort();
				check_tree(&v->u.members[i].value, depth + 1);
			}
			break;
		default:
			abort();
	}
}

static void
write_string(StringInfo b, const char *s)
{
	appendStringInfoChar(b, '"');
	for (; *s; s++)
	{
		if (*s == '"' || *s == '\\')
			appendStringInfo(b, "\\%c", *s);
		else if ((unsigned char) *s < 0x20)
			appendStringInfo(b, "\\u%04x", (unsigned char) *s);
		else
			appendStringInfoChar(b, *s);
	}
	appendStringInfoChar(b, '"');
}

static void
write_tree(StringInfo b, const PqJv *v)
{
	uint32		i;

	switch (v->type)
	{
		case PQ_JV_NULL:
			appendStringInfoString(b, "null");
			break;
		case PQ_JV_TRUE:
			appendStringInfoString(b, "true");
			break;
		case PQ_JV_FALSE:
			appendStringInfoString(b, "false");
			break;
		case PQ_JV_NUMBER:
			appendStringInfoString(b, v->u.str);
			break;
		case PQ_JV_STRING:
			write_string(b, v->u.str);
			break;
		case PQ_JV_ARRAY:
			appendStringInfoChar(b, '[');
			for (i = 0; i < v->len; i++)
			{
				if (i > 0)
					appendStringInfoChar(b, ',');
				write_tree(b, &v->u.items[i]);
			}
			appendStringInfoChar(b, ']');
			break;
		case PQ_JV_OBJECT:
			appendStringInfoChar(b, '{');
			for (i = 0; i < v->len; i++)
			{
				if (i > 0)
					appendStringInfoChar(b, ',');
				write_string(b, v->u.members[i].name);
				appendStringInfoChar(b, ':');
				write_tree(b, &v->u.members[i].value);
			}
			appendStringInfoChar(b, '}');
			break;
	}
}

static bool
same_tree(const PqJv *a, const PqJv *b)
{
	uint32		i;

	if (a->type != b->type || a->len != b->len)
		return false;
	switch (a->type)
	{
		case PQ_JV_NUMBER:
		case PQ_JV_STRING:
			return memcmp(a->u.str, b->u.str, a->len + 1) == 0;
		case PQ_JV_ARRAY:
			for (i = 0; i < a->len; i++)
				if (!same_tree(&a->u.items[i], &b->u.items[i]))
					return false;
			return true;
		case PQ_JV_OBJECT:
			for (i = 0; i < a->len; i++)
				if (strcmp(a->u.members[i].name, b->u.members[i].name) != 0 ||
					!same_tree(&a->u.members[i].value, &b->u.members[i].value))
					return false;
			return true;
		default:
			return true;
	}
}

static void
one(const uint8 *data, size_t size)
{
	const char *why = NULL;
	PqJv	   *v = pq_jv_parse((const char *) data, size, &why);

	if (v == NULL)
	{
		const char *at = why ? strstr(why, " at byte ") : NULL;

		/* a reason, at a byte of the text (or just past it) */
		if (at == NULL || strtoull(at + 9, NULL, 10) > size)
			abort();
		return;
	}
	if (why != NULL)
		abort();
	check_tree(v, 0);
	{
		StringInfoData b;
		PqJv	   *again;

		initStringInfo(&b);
		write_tree(&b, v);
		again = pq_jv_parse(b.data, b.len, &why);
		if (again == NULL || !same_tree(v, again))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
