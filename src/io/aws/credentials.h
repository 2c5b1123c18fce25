/*-------------------------------------------------------------------------
 *
 * credentials.h
 *		AWS credentials for the server process, found as the AWS SDKs find
 *		them: the environment, web identity (STS), the shared credentials
 *		and config files, container credentials, EC2 instance metadata.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_CREDENTIALS_H
#define PQ_IO_CREDENTIALS_H

#include "io/http/http.h"

typedef struct PqAwsCredentials
{
	char	   *key_id;
	char	   *secret;
	char	   *session_token;	/* NULL: none */
	int64		expires_at;		/* Unix seconds; 0: does not expire */
	const char *source;			/* "environment", "web identity", "shared
								 * credentials file", "shared config file",
								 * "container", "instance metadata" */
} PqAwsCredentials;

/*
 * Credentials of profile (NULL: AWS_PROFILE, else "default") from the first
 * source that has them, into out (palloc'd in the current context).  False
 * when no source has any: anonymous access is then the caller's choice.  A
 * source that is configured but fails (a profile named but absent, a
 * malformed file or answer, an unreachable container endpoint) is an
 * ERROR naming the source and file, never a value read from them.
 * Requests use http's settings (CA file, retries) with shorter timeouts
 * for the metadata endpoints, to which they may connect although they are
 * link-local.  The last result is kept per backend (credentials.c says for
 * how long).
 */
extern bool pq_aws_credential_chain(const PqHttpConfig *http,
									const char *profile,
									PqAwsCredentials *out);

/*
 * The region of profile (NULL as above): AWS_REGION, AWS_DEFAULT_REGION,
 * else the profile's region in the config file; NULL when none.
 */
extern char *pq_aws_profile_region(const char *profile);

#endif							/* PQ_IO_CREDENTIALS_H */
