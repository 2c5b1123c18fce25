/*-------------------------------------------------------------------------
 *
 * shared_key.h
 *		Azure Storage's Shared Key authorization: the Authorization header
 *		of a Blob service request, signed with the account key.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_SHARED_KEY_H
#define PQ_IO_SHARED_KEY_H

#include "io/common/url.h"
#include "io/http/http.h"

typedef struct PqSharedKeyRequest
{
	const char *method;
	const char *path;			/* as sent, encoded, starting "/" */
	const PqQueryParam *params; /* not encoded */
	int			nparams;
	const PqHttpHeader *ms_headers; /* the x-ms-* headers sent */
	int			nms_headers;
	const char *if_match;		/* or NULL */
	const char *range;			/* "bytes=a-b", or NULL */
	const char *content_length; /* of a body of 1 byte or more, or NULL */
	const char *content_type;	/* or NULL */
} PqSharedKeyRequest;

/*
 * "SharedKey account:signature" for r; key_base64 is the account key as
 * the portal shows it.  false when the key is not base64.
 */
extern bool pq_shared_key_sign(const PqSharedKeyRequest *r, const char *account,
							   const char *key_base64, char **authorization);

/* The string Azure signs, for tests. */
extern char *pq_shared_key_string_to_sign(const PqSharedKeyRequest *r,
										  const char *account);

#endif							/* PQ_IO_SHARED_KEY_H */
