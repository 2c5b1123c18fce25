/*-------------------------------------------------------------------------
 *
 * s3_client.h
 *		S3 requests (and those of stores that speak S3's XML API): HEAD,
 *		ranged GETs of one object version, ListObjectsV2, signed with
 *		SigV4 or anonymous.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_S3_CLIENT_H
#define PQ_IO_S3_CLIENT_H

#include "io/aws/s3_list.h"
#include "io/common/url.h"
#include "io/http/http.h"

typedef struct PqS3Config
{
	const char *endpoint;		/* "scheme://host[:port]"; NULL: AWS's for the
								 * region */
	const char *region;			/* NULL: us-east-1 */
	bool		path_style;		/* endpoint/bucket/key, else bucket.host/key */
	const char *key_id;			/* NULL: anonymous (unsigned) requests */
	const char *secret;
	const char *session_token;	/* NULL: none */
	PqHttpConfig http;
} PqS3Config;

/*
 * Size and ETag of bucket/key; false when there is no such object.
 * display names it in messages.
 */
extern bool pq_s3_head(const PqS3Config *c, const char *bucket,
					   const char *key, const char *display,
					   int64 *size, char **etag);

/*
 * Bytes [offsets[i], offsets[i] + lengths[i]) of the object into bufs[i],
 * all requests in flight together (up to http.max_in_flight); with etag,
 * each carries If-Match, so a replaced object is an ERROR, never a mix.
 * With background, started and left to go on (pq_http_batch_start): the
 * strings of c and bufs must live as long as the batch.
 */
extern void pq_s3_get_ranges(const PqS3Config *c, const char *bucket,
							 const char *key, const char *display,
							 const char *etag, int n, const int64 *offsets,
							 const int64 *lengths, uint8 **bufs,
							 PqHttpBatch **background);

/*
 * Every object whose key starts with prefix (with delimiter, the common
 * prefixes instead of what lies below them), all pages.
 */
extern void pq_s3_list(const PqS3Config *c, const char *bucket,
					   const char *prefix, const char *delimiter,
					   const char *display, PqListing *out);

/*
 * A request for bucket/key (key NULL: the bucket) with the query params,
 * and the transport settings that sign it (for s3_upload.c).  display
 * names it in messages.
 */
extern PqHttpRequest *pq_s3_request(const PqS3Config *c, const char *method,
									const char *bucket, const char *key,
									PqQueryParam *params, int nparams,
									const char *display, size_t max_body);
extern PqHttpConfig pq_s3_http_config(const PqS3Config *c);

/*
 * len bytes at data (which must outlive the request) as r's body, of
 * content_type (or none), signed with its SHA-256.
 */
extern void pq_s3_request_body(PqHttpRequest *r, const void *data, size_t len,
							   const char *content_type);

#endif							/* PQ_IO_S3_CLIENT_H */
