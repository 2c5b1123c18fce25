/*-------------------------------------------------------------------------
 *
 * sigv4.h
 *		AWS Signature Version 4: the Authorization header of a request to
 *		S3 or an S3-compatible store (GCS's XML API, MinIO, R2, Ceph).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_SIGV4_H
#define PQ_IO_SIGV4_H

#include "io/common/url.h"
#include "io/http/http.h"


typedef struct PqSigV4Request
{
	const char *method;
	const char *path;			/* as sent: percent-encoded, starting "/" */
	const PqQueryParam *params;
	int			nparams;
	const PqHttpHeader *headers;	/* those to sign: host, x-amz-date, ... */
	int			nheaders;
	const char *payload_hash;	/* hex SHA-256 of the body, or
								 * "UNSIGNED-PAYLOAD" */
} PqSigV4Request;

typedef struct PqSigV4Signed
{
	char	   *query;			/* the query to send: encoded, in canonical
								 * order ("" when none) */
	char	   *canonical_request;
	char	   *string_to_sign;
	char	   *authorization;	/* the Authorization header's value */
} PqSigV4Signed;

/*
 * Sign r for region and service ("s3") at amz_date ("20150830T123600Z",
 * which the x-amz-date header must also carry) with the key id and secret.
 * The keys derived from the secret are wiped before returning.
 */
extern void pq_sigv4_sign(const PqSigV4Request *r, const char *region,
						  const char *service, const char *amz_date,
						  const char *key_id, const char *secret,
						  PqSigV4Signed *out);

/* Lower-case hex SHA-256 of len bytes at data, into out[65]. */
extern void pq_sha256_hex(const void *data, size_t len, char *out);

#endif							/* PQ_IO_SIGV4_H */
