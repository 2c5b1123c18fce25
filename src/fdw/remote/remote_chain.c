/*-------------------------------------------------------------------------
 *
 * remote_chain.c
 *		The database server process's own AWS credentials (environment,
 *		~/.aws files, web identity, container, instance metadata) for a
 *		server with use_credential_chain, as the AWS SDKs find them.
 *
 * remote_config.c has already checked that the role may use them.  The
 * credentials go into the role's cached settings with their expiry, so
 * that temporary ones are found again before they run out.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/remote/remote.h"
#include "io/aws/credentials.h"
#include "io/aws/profile_files.h"

int64
pqfdw_remote_chain_credentials(PqStoreConfig *c, const char *profile)
{
	PqAwsCredentials creds;

	if (!pq_aws_credential_chain(&c->http, profile, &creds))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				 errmsg("the database server has no AWS credentials of its own"),
				 errdetail("The server's option use_credential_chain is on, and none of the environment, the shared credentials and config files, web identity, container credentials and instance metadata gave credentials."),
				 errhint("Give the role a user mapping with key_id and secret, or set up credentials for the server process.")));
	c->s3.key_id = creds.key_id;
	c->s3.secret = creds.secret;
	c->s3.session_token = creds.session_token;
	if (c->s3.region == NULL)
		c->s3.region = pq_aws_profile_region(profile);
	return creds.expires_at;
}

void
pqfdw_remote_chain_endpoint(PqStoreConfig *c)
{
	const char *setting = "AWS_ENDPOINT_URL_S3";
	const char *e = pq_aws_env(setting);

	if (e == NULL)
	{
		setting = "AWS_ENDPOINT_URL";
		e = pq_aws_env(setting);
	}
	if (e == NULL)
		return;
	if (strncmp(e, "http://", 7) != 0 && strncmp(e, "https://", 8) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the server's environment variable %s is not an http:// or https:// URL",
						setting)));
	/* endpoints other than AWS's take buckets in the path */
	c->s3.endpoint = pstrdup(e);
	c->s3.path_style = true;
}
