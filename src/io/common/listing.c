/*-------------------------------------------------------------------------
 *
 * listing.c
 *		Listing pages: the keys a store lists become paths and messages, so
 *		each is checked as a URL's key is, and a page is bounded.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/common/listing.h"
#include "io/common/url.h"
#include "utils/memutils.h"

void
pq_list_page_init(PqListPage *p)
{
	memset(p, 0, sizeof(*p));
	p->objects_cap = 16;
	p->objects = palloc(sizeof(PqObjectInfo) * p->objects_cap);
	p->prefixes_cap = 4;
	p->prefixes = palloc(sizeof(char *) * p->prefixes_cap);
}

static bool
valid_key(const char *k)
{
	const unsigned char *c;

	if (*k == '\0' || strlen(k) > PQ_URL_MAX_KEY)
		return false;
	for (c = (const unsigned char *) k; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return false;
	return true;
}

bool
pq_list_page_add_object(PqListPage *p, char *key, int64 size, char *etag,
						const char **why)
{
	if (!valid_key(key))
	{
		*why = "an object's key is empty, longer than 1024 bytes or holds a control character";
		return false;
	}
	if (p->nobjects >= PQ_LIST_MAX_PAGE)
	{
		*why = "the page lists more objects than a page holds";
		return false;
	}
	if (p->nobjects == p->objects_cap)
	{
		p->objects_cap *= 2;
		p->objects = repalloc(p->objects, sizeof(PqObjectInfo) * p->objects_cap);
	}
	p->objects[p->nobjects].key = key;
	p->objects[p->nobjects].size = size;
	p->objects[p->nobjects].etag = etag;
	p->nobjects++;
	return true;
}

bool
pq_list_page_add_prefix(PqListPage *p, char *prefix, const char **why)
{
	if (!valid_key(prefix))
	{
		*why = "a common prefix is empty, too long or holds a control character";
		return false;
	}
	if (p->nprefixes >= PQ_LIST_MAX_PAGE)
	{
		*why = "the page lists more prefixes than a page holds";
		return false;
	}
	if (p->nprefixes == p->prefixes_cap)
	{
		p->prefixes_cap *= 2;
		p->prefixes = repalloc(p->prefixes, sizeof(char *) * p->prefixes_cap);
	}
	p->prefixes[p->nprefixes++] = prefix;
	return true;
}

bool
pq_list_parse_count(const char *s, int64 *out)
{
	int64		v = 0;
	int			digits = 0;

	for (; *s; s++)
	{
		if (*s < '0' || *s > '9' || ++digits > 18)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return digits > 0;
}

void
pq_listing_init(PqListing *l)
{
	memset(l, 0, sizeof(*l));
}

void
pq_listing_append(PqListing *l, const PqListPage *p)
{
	if (p->nobjects > 0)
	{
		Size		sz = sizeof(PqObjectInfo) * (l->nobjects + p->nobjects);

		l->objects = l->objects ? repalloc_huge(l->objects, sz) :
			palloc_extended(sz, MCXT_ALLOC_HUGE);
		memcpy(l->objects + l->nobjects, p->objects,
			   sizeof(PqObjectInfo) * p->nobjects);
		l->nobjects += p->nobjects;
	}
	if (p->nprefixes > 0)
	{
		Size		sz = sizeof(char *) * (l->nprefixes + p->nprefixes);

		l->prefixes = l->prefixes ? repalloc_huge(l->prefixes, sz) :
			palloc_extended(sz, MCXT_ALLOC_HUGE);
		memcpy(l->prefixes + l->nprefixes, p->prefixes,
			   sizeof(char *) * p->nprefixes);
		l->nprefixes += p->nprefixes;
	}
	l->requests++;
}
