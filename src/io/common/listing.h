/*-------------------------------------------------------------------------
 *
 * listing.h
 *		One page of a store's listing (S3's ListObjectsV2, Azure's List
 *		Blobs): objects, common prefixes, where the next page starts; and
 *		the checks every store's listing parser applies.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_LISTING_H
#define PQ_IO_LISTING_H

/* An object in a listing. */
typedef struct PqObjectInfo
{
	char	   *key;
	int64		size;
	char	   *etag;			/* as the store's ETag header gives it, or
								 * NULL */
} PqObjectInfo;

typedef struct PqListPage
{
	PqObjectInfo *objects;
	int			nobjects;
	int			objects_cap;
	char	  **prefixes;		/* common prefixes, with a delimiter */
	int			nprefixes;
	int			prefixes_cap;
	bool		truncated;
	char	   *next_token;		/* where the next page starts, when truncated */
} PqListPage;

/* Most objects or prefixes one page may hold (stores send up to 5,000). */
#define PQ_LIST_MAX_PAGE 10000

extern void pq_list_page_init(PqListPage *p);

/*
 * Add an object or a prefix; false with *why set when the key is empty,
 * over PQ_URL_MAX_KEY bytes or holds a control character, or the page is
 * full.
 */
extern bool pq_list_page_add_object(PqListPage *p, char *key, int64 size,
									char *etag, const char **why);
extern bool pq_list_page_add_prefix(PqListPage *p, char *prefix,
									const char **why);

/* A whole listing: every page's objects and prefixes, in the store's order. */
typedef struct PqListing
{
	PqObjectInfo *objects;
	int			nobjects;
	char	  **prefixes;
	int			nprefixes;
	int			requests;		/* pages fetched */
} PqListing;

extern void pq_listing_init(PqListing *l);
extern void pq_listing_append(PqListing *l, const PqListPage *p);

/* A count of up to 18 decimal digits, nothing else; false otherwise. */
extern bool pq_list_parse_count(const char *s, int64 *out);

#endif							/* PQ_IO_LISTING_H */
