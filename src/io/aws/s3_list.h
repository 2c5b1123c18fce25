/*-------------------------------------------------------------------------
 *
 * s3_list.h
 *		One page of a ListObjectsV2 answer (io/common/listing.h's page),
 *		or of a ListMultipartUploads answer.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_S3_LIST_H
#define PQ_IO_S3_LIST_H

#include "io/common/listing.h"

/*
 * Parse a ListBucketResult body; false with *why set when it is malformed
 * (a key that is empty, too long or holds a control character, a size
 * that is not a count, an entry without key or size, a truncated page
 * without a continuation token, more entries than a page holds).
 */
extern bool pq_s3_parse_list(const char *body, size_t len,
							 PqListPage *out, const char **why);

/* A multipart upload in progress. */
typedef struct PqS3Upload
{
	char	   *key;
	char	   *upload_id;
	char	   *initiated;		/* ISO 8601, as the store gives it */
} PqS3Upload;

/* Uploads of one page, or of a whole listing. */
typedef struct PqS3UploadPage
{
	PqS3Upload *uploads;
	int			n;
	int			cap;
	bool		truncated;
	char	   *next_key_marker;
	char	   *next_upload_id_marker;
} PqS3UploadPage;

/* Most uploads a whole listing may hold. */
#define PQ_S3_MAX_UPLOADS 1000000

extern void pq_s3_upload_page_init(PqS3UploadPage *p);

/*
 * false with *why set when the key (empty, too long, a control character)
 * or the id (empty, too long, not printable ASCII) is unusable or p is
 * full.
 */
extern bool pq_s3_upload_page_add(PqS3UploadPage *p, char *key,
								  char *upload_id, char *initiated,
								  const char **why);

/*
 * Parse a ListMultipartUploadsResult body; false with *why set when it is
 * malformed (an upload without Key or UploadId, a bad key, a truncated
 * page without NextKeyMarker, more uploads than a page holds).
 */
extern bool pq_s3_parse_uploads(const char *body, size_t len,
								PqS3UploadPage *out, const char **why);

#endif							/* PQ_IO_S3_LIST_H */
