/*-------------------------------------------------------------------------
 *
 * ini.c
 *		Reading INI files line by line.  The rules are those the AWS SDKs
 *		share for their files (comments, blanks around names and values,
 *		indented sub-settings); what does not fit them is refused with the
 *		line's number, never guessed at.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/common/ini.h"

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* [*start, *end) without blanks at either end. */
static void
trim(const char **start, const char **end)
{
	while (*start < *end && blank(**start))
		(*start)++;
	while (*end > *start && blank((*end)[-1]))
		(*end)--;
}

static bool
comment_start(char c)
{
	return c == '#' || c == ';';
}

static void
add_entry(PqIniFile *f, int *cap, const char *section, const char *k,
		  size_t klen, const char *v, size_t vlen, int line)
{
	PqIniEntry *e;

	if (f->nentries == *cap)
	{
		*cap *= 2;
		f->entries = repalloc(f->entries, sizeof(PqIniEntry) * *cap);
	}
	e = &f->entries[f->nentries++];
	e->section = section;
	e->key = pnstrdup(k, klen);
	e->value = pnstrdup(v, vlen);
	e->line = line;
	e->continued = false;
}

static const char *
add_section(PqIniFile *f, int *cap, const char *name, size_t len)
{
	if (f->nsections == *cap)
	{
		*cap *= 2;
		f->sections = repalloc(f->sections, sizeof(char *) * *cap);
	}
	f->sections[f->nsections] = pnstrdup(name, len);
	return f->sections[f->nsections++];
}

bool
pq_ini_parse(const char *text, size_t len, PqIniFile *out, const char **why,
			 int *lineno)
{
	const char *p = text;
	const char *end = text +len;
	const char *section = NULL;
	int			last = -1;		/* the setting indented lines continue */
	int			entries_cap = 16;
	int			sections_cap = 8;

	out->entries = palloc(sizeof(PqIniEntry) * entries_cap);
	out->nentries = 0;
	out->sections = palloc(sizeof(char *) * sections_cap);
	out->nsections = 0;
	*why = NULL;
	*lineno = 0;
	if (memchr(text, '\0', len) != NULL)
	{
		*why = "the file holds a NUL byte";
		return false;
	}
	while (p < end)
	{
		const char *nl = memchr(p, '\n', end - p);
		const char *s = p;
		const char *e = nl ? nl : end;
		bool		indented;

		p = nl ? nl + 1 : end;
		(*lineno)++;
		if (e > s && e[-1] == '\r')
			e--;
		if (e - s > PQ_INI_MAX_LINE)
		{
			*why = psprintf("the line is longer than %d bytes", PQ_INI_MAX_LINE);
			return false;
		}
		indented = s < e && blank(*s);
		trim(&s, &e);
		if (s == e || comment_start(*s))
			continue;
		if (*s == '[')
		{
			const char *close = memchr(s, ']', e - s);
			const char *ns = s + 1;
			const char *ne = close;
			const char *rest = close ? close + 1 : e;

			if (close == NULL)
			{
				*why = "a section's name is not closed with \"]\"";
				return false;
			}
			trim(&ns, &ne);
			trim(&rest, &e);
			if (ns == ne)
			{
				*why = "a section has no name";
				return false;
			}
			if (rest < e && !comment_start(*rest))
			{
				*why = "something other than a comment follows a section's name";
				return false;
			}
			section = add_section(out, &sections_cap, ns, ne - ns);
			last = -1;
			continue;
		}
		if (indented && last >= 0)
		{
			out->entries[last].continued = true;
			continue;
		}
		{
			const char *eq = memchr(s, '=', e - s);
			const char *ks = s;
			const char *ke = eq;
			const char *vs = eq ? eq + 1 : e;
			const char *ve = e;
			const char *c;

			if (eq == NULL)
			{
				*why = "the line is neither a section, a setting nor a comment";
				return false;
			}
			if (section == NULL)
			{
				*why = "a setting comes before any section";
				return false;
			}
			trim(&ks, &ke);
			if (ks == ke)
			{
				*why = "a setting has no name";
				return false;
			}
			/* a comment starts at "#" or ";" after a blank */
			for (c = vs; c < ve; c++)
				if (comment_start(*c) && c > vs && blank(c[-1]))
				{
					ve = c;
					break;
				}
			trim(&vs, &ve);
			add_entry(out, &entries_cap, section, ks, ke - ks, vs, ve - vs,
					  *lineno);
			last = out->nentries - 1;
		}
	}
	return true;
}

bool
pq_ini_has_section(const PqIniFile *f, const char *section)
{
	int			i;

	for (i = 0; i < f->nsections; i++)
		if (strcmp(f->sections[i], section) == 0)
			return true;
	return false;
}

const PqIniEntry *
pq_ini_lookup(const PqIniFile *f, const char *section, const char *key,
			  const PqIniEntry **again)
{
	const PqIniEntry *found = NULL;
	int			i;

	*again = NULL;
	for (i = 0; i < f->nentries; i++)
	{
		const PqIniEntry *e = &f->entries[i];

		if (strcmp(e->section, section) != 0 || pg_strcasecmp(e->key, key) != 0)
			continue;
		if (found == NULL)
			found = e;
		else
		{
			*again = e;
			break;
		}
	}
	return found;
}
