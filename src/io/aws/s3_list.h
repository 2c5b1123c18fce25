/*-------------------------------------------------------------------------
 *
 * s3_list.h
 *		One page of a ListObjectsV2 answer: the objects, the common
 *		prefixes, and where the next page starts.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_S3_LIST_H
#define PQ_IO_S3_LIST_H

/* An object in a listing. */
typedef struct PqObjectInfo
{
	char	   *key;
	int64		size;
	char	   *etag;			/* NULL when the listing gives none */
} PqObjectInfo;

typedef struct PqS3ListPage
{
	PqObjectInfo *objects;
	int			nobjects;
	char	  **prefixes;		/* CommonPrefixes, with a delimiter */
	int			nprefixes;
	bool		truncated;
	char	   *next_token;		/* NextContinuationToken when truncated */
} PqS3ListPage;

/* Most objects or prefixes one page may hold (S3 sends up to 1,000). */
#define PQ_S3_LIST_MAX_PAGE 10000

/*
 * Parse a ListBucketResult body; false with *why set when it is malformed
 * (a key that is empty, too long or holds a control character, a size
 * that is not a count, an entry without key or size, a truncated page
 * without a continuation token, more entries than a page holds).
 */
extern bool pq_s3_parse_list(const char *body, size_t len,
							 PqS3ListPage *out, const char **why);

#endif							/* PQ_IO_S3_LIST_H */
