/*-------------------------------------------------------------------------
 *
 * blob_client.h
 *		Azure Blob service requests: Get Blob Properties, ranged Get Blob
 *		of one version, List Blobs; Shared Key, SAS token or anonymous.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_BLOB_CLIENT_H
#define PQ_IO_BLOB_CLIENT_H

#include "io/common/listing.h"
#include "io/common/url.h"
#include "io/http/http.h"

typedef struct PqAzureConfig
{
	const char *endpoint;		/* "scheme://host[:port][/path]" (an emulator
								 * names the account in the path); NULL:
								 * https://ACCOUNT.blob.core.windows.net */
	const char *account;
	const char *account_key;	/* base64: Shared Key; NULL: none */
	const char *sas_token;		/* query string of a SAS, or NULL */
	int			list_page_size; /* maxresults of List Blobs; 0: the store's
								 * (5,000) */
	PqHttpConfig http;
} PqAzureConfig;

/* Size and ETag of container/blob; false when there is no such blob. */
extern bool pq_blob_head(const PqAzureConfig *c, const char *container,
						 const char *blob, const char *display,
						 int64 *size, char **etag);

/* As pq_s3_get_ranges: all ranges in flight together, If-Match etag. */
extern void pq_blob_get_ranges(const PqAzureConfig *c, const char *container,
							   const char *blob, const char *display,
							   const char *etag, int n, const int64 *offsets,
							   const int64 *lengths, uint8 **bufs,
							   PqHttpBatch **background);

/* Every blob whose name starts with prefix (with delimiter: prefixes). */
extern void pq_blob_list(const PqAzureConfig *c, const char *container,
						 const char *prefix, const char *delimiter,
						 const char *display, PqListing *out);

/*
 * A request for container/blob (blob NULL: the container) with the query
 * params, and the transport settings that sign it (for blob_upload.c).
 */
extern PqHttpRequest *pq_blob_request(const PqAzureConfig *c,
									  const char *method,
									  const char *container, const char *blob,
									  PqQueryParam *params, int nparams,
									  const char *display, size_t max_body);
extern PqHttpConfig pq_blob_http_config(const PqAzureConfig *c);

/* len bytes at data (which must outlive r) as r's body, of content_type. */
extern void pq_blob_request_body(PqHttpRequest *r, const void *data,
								 size_t len, const char *content_type);

/* An x-ms-* header of r (at most two), signed; the strings must outlive r. */
extern void pq_blob_request_ms_header(PqHttpRequest *r, const char *name,
									  const char *value);

#endif							/* PQ_IO_BLOB_CLIENT_H */
