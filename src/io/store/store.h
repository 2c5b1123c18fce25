/*-------------------------------------------------------------------------
 *
 * store.h
 *		One interface over every kind of URL: the size and ETag of an
 *		object, ranges of one version of it, listings below a prefix.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_STORE_H
#define PQ_IO_STORE_H

#include "io/aws/s3_client.h"
#include "io/azure/blob_client.h"
#include "io/common/url.h"

/* How to reach objects of each scheme (a foreign server's options). */
typedef struct PqStoreConfig
{
	PqS3Config	s3;				/* s3:// and gs:// (GCS's XML API) */
	PqAzureConfig azure;		/* az:// and abfss:// */
	PqHttpConfig http;			/* every request; http(s):// as it is */
} PqStoreConfig;

extern void pq_store_config_init(PqStoreConfig *c);

/* Which client serves u: S3's (s3://, gs://) or Azure's (az://, abfss://). */
extern bool pq_store_is_s3(const PqUrl *u);
extern bool pq_store_is_azure(const PqUrl *u);

/*
 * The client settings for u: GCS's endpoint (path style) for gs:// by
 * default; the account an abfss:// URL names (an ERROR when there is none).
 */
extern PqS3Config pq_store_s3_config(const PqStoreConfig *c, const PqUrl *u);
extern PqAzureConfig pq_store_azure_config(const PqStoreConfig *c,
										   const PqUrl *u);

/* Size and ETag (NULL if the server sends none) of u; false when absent. */
extern bool pq_store_head(const PqStoreConfig *c, const PqUrl *u,
						  int64 *size, char **etag);

/*
 * Ranges of u into bufs, all in flight together; with etag, each request
 * carries If-Match (a replaced object is HV021).  With background, started
 * and left to go on (io/http/http.h): c's strings, u, etag and bufs must
 * live as long as the batch.
 */
extern void pq_store_get_ranges(const PqStoreConfig *c, const PqUrl *u,
								const char *etag, int n, const int64 *offsets,
								const int64 *lengths, uint8 **bufs,
								PqHttpBatch **background);

/*
 * Every object below u's key taken as a prefix (with delimiter, the common
 * prefixes instead of what lies below them).  http(s):// URLs cannot be
 * listed: an ERROR.
 */
extern void pq_store_list(const PqStoreConfig *c, const PqUrl *u,
						  const char *delimiter, PqListing *out);

#endif							/* PQ_IO_STORE_H */
