/*-------------------------------------------------------------------------
 *
 * credentials.c
 *		The AWS credential chain of the server process, in the AWS SDKs'
 *		order: the environment; web identity (STS AssumeRoleWithWebIdentity,
 *		as on EKS); the shared credentials, then config, file; container
 *		credentials (ECS, EKS Pod Identity); EC2 instance metadata (IMDSv2).
 *
 * Not supported, and an ERROR when a profile asks for them rather than a
 * silent fall-through to other credentials: credential_process (running a
 * program a file names would let whoever can write the file, or set the
 * server's environment, run code as the database server), IAM Identity
 * Center (SSO) and roles assumed from another profile (source_profile,
 * credential_source).
 *
 * The metadata services live at link-local addresses, which the transport
 * refuses for user URLs; their requests alone are allowed there.
 *
 * The last result (credentials, or that there were none) is kept per
 * backend with its profile: temporary credentials until five minutes
 * before they expire, anything else for five minutes, so that a query does
 * not ask the services every time and a changed file is seen soon.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <time.h>

#include "io/aws/credential_answers.h"
#include "io/aws/credentials.h"
#include "io/aws/profile_files.h"
#include "io/common/url.h"
#include "utils/memutils.h"

/* Largest answer of a credential service. */
#define ANSWER_MAX (64 * 1024)

/* Temporary credentials are renewed this long before they expire. */
#define REFRESH_MARGIN_S 300
/* Other results (static keys, none found) are kept this long. */
#define KEEP_S 300

#define DEFAULT_SESSION_NAME "parquet_fdw"
#define ECS_ENDPOINT "http://169.254.170.2"
#define IMDS_ENDPOINT "http://169.254.169.254"
#define IMDS_ENDPOINT_IPV6 "http://[fd00:ec2::254]"
#define IMDS_TOKEN_TTL "21600"
/* IAM role names have at most 64 characters. */
#define ROLE_NAME_MAX 64

typedef struct CachedResult
{
	bool		valid;
	char	   *profile;		/* the argument, "" for NULL */
	bool		found;
	PqAwsCredentials c;			/* strings in TopMemoryContext */
	int64		good_until;		/* Unix seconds */
} CachedResult;

static CachedResult cache;

/* Run one request (the transport takes an array). */
static void
run_one(PqHttpRequest *r, const PqHttpConfig *h, const long *statuses_ok)
{
	pq_http_run(&r, 1, h, statuses_ok);
}

/* A URL from a setting: http:// or https://, checked by url.c. */
static PqUrl *
setting_url(const char *url, const char *setting)
{
	PqUrl	   *u = NULL;

	if (pq_url_is_remote(url))
		u = pq_url_parse(url);
	if (u == NULL || (u->scheme != PQ_URL_HTTP && u->scheme != PQ_URL_HTTPS))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is not an http:// or https:// URL", setting)));
	if (u->query)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s has a query, which is not accepted", setting)));
	return u;
}

/* url without a trailing "/", for paths to be added */
static char *
without_slash(const char *url)
{
	size_t		n = strlen(url);

	return pnstrdup(url, n > 0 && url[n - 1] == '/' ? n - 1 : n);
}

/* A token read from a file, without the line break that may end it. */
static char *
token_from_file(const char *path, const char *what)
{
	size_t		len;
	char	   *t = pq_aws_read_file(path, what, PQ_AWS_TOKEN_FILE_MAX, false,
									 &len);

	while (len > 0 && (t[len - 1] == '\n' || t[len - 1] == '\r' ||
					   t[len - 1] == ' ' || t[len - 1] == '\t'))
		t[--len] = '\0';
	if (len == 0 || strlen(t) != len || strpbrk(t, "\r\n") != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the %s \"%s\" does not hold a token", what, path),
				 errdetail("It is empty, or holds a NUL byte or a line break.")));
	return t;
}

/* The HTTP settings of the chain's own requests. */
static PqHttpConfig
chain_http(const PqHttpConfig *http, bool metadata)
{
	PqHttpConfig h = *http;

	h.prepare = NULL;
	h.prepare_arg = NULL;
	if (metadata)
	{
		/* the metadata services are at link-local addresses */
		h.allow_link_local = true;
	}
	return h;
}

static void
malformed_answer(const char *display, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_IO_ERROR),
			 errmsg("could not read AWS credentials from \"%s\"", display),
			 errdetail("In the answer, %s.", why)));
}

/* 1: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN */
static bool
from_environment(PqAwsCredentials *out)
{
	const char *key = pq_aws_env("AWS_ACCESS_KEY_ID");
	const char *secret = pq_aws_env("AWS_SECRET_ACCESS_KEY");
	const char *token = pq_aws_env("AWS_SESSION_TOKEN");
	const char *why;

	if (key == NULL && secret == NULL)
		return false;
	if (key == NULL || secret == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the environment variable %s is set, but %s is not",
						key ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
						key ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID")));
	out->key_id = pstrdup(key);
	out->secret = pstrdup(secret);
	out->session_token = token ? pstrdup(token) : NULL;
	out->source = "environment";
	if ((why = pq_aws_credentials_problem(out)) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the AWS credentials in the environment are not usable"),
				 errdetail("In them, %s.", why)));
	return true;
}

/* The region for STS: the environment's, else the profile's. */
static const char *
region_of(const PqAwsProfile *p)
{
	const char *r = pq_aws_env("AWS_REGION");

	if (r == NULL)
		r = pq_aws_env("AWS_DEFAULT_REGION");
	if (r == NULL)
		r = pq_aws_profile_value(p, &p->config, "region");
	if (r && (strlen(r) > 64 ||
			  strspn(r, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(r)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the AWS region \"%s\" is not a region name", r),
				 errdetail("A region name has up to 64 lower-case letters, digits and \"-\".")));
	return r;
}

/* 2: web identity, from the environment or the profile */
static bool
from_web_identity(const PqHttpConfig *http, const PqAwsProfile *p,
				  PqAwsCredentials *out)
{
	const char *token_file = pq_aws_env("AWS_WEB_IDENTITY_TOKEN_FILE");
	const char *role_arn = pq_aws_env("AWS_ROLE_ARN");
	const char *session = pq_aws_env("AWS_ROLE_SESSION_NAME");
	const char *endpoint_setting = "AWS_ENDPOINT_URL_STS";
	const char *endpoint = pq_aws_env(endpoint_setting);
	const char *region;
	PqQueryParam params[5];
	PqHttpRequest r;
	PqHttpConfig h = chain_http(http, false);
	PqUrl	   *u;
	char	   *token;
	char	   *body;
	char	   *header = pstrdup("Content-Type: application/x-www-form-urlencoded");
	const char *why;

	if (token_file == NULL)
		token_file = pq_aws_profile_setting(p, "web_identity_token_file");
	if (token_file == NULL)
		return false;
	if (role_arn == NULL)
		role_arn = pq_aws_profile_setting(p, "role_arn");
	if (session == NULL)
		session = pq_aws_profile_setting(p, "role_session_name");
	if (role_arn == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a web identity token file is set, but no role to assume"),
				 errhint("Set AWS_ROLE_ARN, or role_arn in profile \"%s\".",
						 p->name)));

	if (endpoint == NULL)
	{
		endpoint_setting = "AWS_ENDPOINT_URL";
		endpoint = pq_aws_env(endpoint_setting);
	}
	region = region_of(p);
	if (endpoint == NULL)
		endpoint = region ? psprintf("https://sts.%s.amazonaws.com", region) :
			"https://sts.amazonaws.com";
	u = setting_url(endpoint, endpoint_setting);

	token = token_from_file(token_file, "web identity token file");
	params[0].name = "Action";
	params[0].value = "AssumeRoleWithWebIdentity";
	params[1].name = "Version";
	params[1].value = "2011-06-15";
	params[2].name = "RoleArn";
	params[2].value = role_arn;
	params[3].name = "RoleSessionName";
	params[3].value = session ? session : DEFAULT_SESSION_NAME;
	params[4].name = "WebIdentityToken";
	params[4].value = token;
	/* a form body: the token stays out of the URL */
	body = pq_url_query_string(params, lengthof(params));
	explicit_bzero(token, strlen(token));

	pq_http_request_init(&r, "POST",
						 u->key[0] ? endpoint : psprintf("%s/", without_slash(endpoint)),
						 u->display, ANSWER_MAX);
	r.send_body = body;
	r.send_len = strlen(body);
	r.headers = &header;
	r.nheaders = 1;
	run_one(&r, &h, NULL);
	explicit_bzero(body, r.send_len);
	if (!pq_aws_parse_sts_answer(r.body.data, r.body.len, out, &why))
		malformed_answer(u->display, why);
	out->source = "web identity";
	return true;
}

/* The settings of a profile that get credentials in ways not supported. */
static void
refuse_unsupported(const PqAwsProfile *p, bool process)
{
	static const char *const assumed[] = {"source_profile", "credential_source"};
	static const char *const sso[] = {"sso_session", "sso_start_url"};
	int			i;

	if (process)
	{
		if (pq_aws_profile_setting(p, "credential_process"))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("AWS profile \"%s\" gets its credentials from credential_process, which parquet_fdw does not run",
							p->name),
					 errdetail("Running a program a file names would let whoever can change the file run code as the database server.")));
		return;
	}
	for (i = 0; i < lengthof(assumed); i++)
		if (pq_aws_profile_setting(p, assumed[i]))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("AWS profile \"%s\" assumes a role with %s, which parquet_fdw does not support",
							p->name, assumed[i])));
	for (i = 0; i < lengthof(sso); i++)
		if (pq_aws_profile_setting(p, sso[i]))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("AWS profile \"%s\" uses IAM Identity Center (%s), which parquet_fdw does not support",
							p->name, sso[i])));
}

/* 3: the profile's keys in one of the files */
static bool
from_file(const PqAwsProfile *p, const PqAwsSharedFile *f,
		  PqAwsCredentials *out)
{
	const char *key = pq_aws_profile_value(p, f, "aws_access_key_id");
	const char *secret = pq_aws_profile_value(p, f, "aws_secret_access_key");
	const char *token = pq_aws_profile_value(p, f, "aws_session_token");
	const char *why;

	if (key == NULL && secret == NULL)
		return false;
	if (key == NULL || secret == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("profile \"%s\" of the %s \"%s\" sets %s but not %s",
						p->name, f->what, f->path,
						key ? "aws_access_key_id" : "aws_secret_access_key",
						key ? "aws_secret_access_key" : "aws_access_key_id")));
	out->key_id = pstrdup(key);
	out->secret = pstrdup(secret);
	out->session_token = token ? pstrdup(token) : NULL;
	out->source = f->what;
	if ((why = pq_aws_credentials_problem(out)) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("the AWS credentials of profile \"%s\" in the %s \"%s\" are not usable",
						p->name, f->what, f->path),
				 errdetail("In them, %s.", why)));
	return true;
}

/*
 * Hosts the SDKs let AWS_CONTAINER_CREDENTIALS_FULL_URI name: loopback,
 * and the addresses of the ECS and EKS Pod Identity agents.
 */
static bool
allowed_container_host(const char *host)
{
	static const char *const v4[] = {"169.254.170.2", "169.254.170.23"};
	static const char *const v6[] = {"::1", "fd00:ec2::23"};
	char	   *h = pstrdup(host);
	unsigned char a[16];
	unsigned char b[16];
	int			i;

	if (pg_strcasecmp(h, "localhost") == 0)
		return true;
	if (h[0] == '[')
	{
		/* url.c gives IPv6 hosts as "[address]" */
		h[strlen(h) - 1] = '\0';
		if (inet_pton(AF_INET6, h + 1, a) != 1)
			return false;
		for (i = 0; i < lengthof(v6); i++)
			if (inet_pton(AF_INET6, v6[i], b) == 1 && memcmp(a, b, 16) == 0)
				return true;
		return false;
	}
	if (inet_pton(AF_INET, h, a) != 1)
		return false;
	if (a[0] == 127)
		return true;
	for (i = 0; i < lengthof(v4); i++)
		if (inet_pton(AF_INET, v4[i], b) == 1 && memcmp(a, b, 4) == 0)
			return true;
	return false;
}

/* 4: ECS and EKS Pod Identity */
static bool
from_container(const PqHttpConfig *http, PqAwsCredentials *out)
{
	const char *relative = pq_aws_env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
	const char *full = pq_aws_env("AWS_CONTAINER_CREDENTIALS_FULL_URI");
	const char *token_file = pq_aws_env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
	const char *token = pq_aws_env("AWS_CONTAINER_AUTHORIZATION_TOKEN");
	PqHttpConfig h = chain_http(http, true);
	PqHttpRequest r;
	char	   *header = NULL;
	char	   *url;
	PqUrl	   *u;
	const char *why;

	if (relative)
	{
		if (relative[0] != '/')
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI does not start with \"/\"")));
		url = psprintf("%s%s", ECS_ENDPOINT, relative);
		u = setting_url(url, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
	}
	else if (full)
	{
		url = pstrdup(full);
		u = setting_url(url, "AWS_CONTAINER_CREDENTIALS_FULL_URI");
		if (!allowed_container_host(u->host))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("AWS_CONTAINER_CREDENTIALS_FULL_URI names host \"%s\", from which credentials are not taken",
							u->host),
					 errdetail("Only loopback addresses, 169.254.170.2, 169.254.170.23 and fd00:ec2::23 are accepted, as by the AWS SDKs.")));
	}
	else
		return false;

	if (token_file)
		token = token_from_file(token_file, "container authorization token file");
	else if (token && strpbrk(token, "\r\n") != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("AWS_CONTAINER_AUTHORIZATION_TOKEN holds a line break")));

	/* the SDKs' timeouts: a local agent answers at once or not at all */
	h.connect_timeout_ms = Min(h.connect_timeout_ms, 2000);
	h.idle_timeout_ms = Min(h.idle_timeout_ms, 5000);
	h.max_retries = Min(h.max_retries, 2);
	pq_http_request_init(&r, "GET", url, u->display, ANSWER_MAX);
	if (token)
	{
		header = psprintf("Authorization: %s", token);
		r.headers = &header;
		r.nheaders = 1;
	}
	run_one(&r, &h, NULL);
	if (header)
		explicit_bzero(header, strlen(header));
	if (!pq_aws_parse_json_answer(r.body.data, r.body.len, out, &why))
		malformed_answer(u->display, why);
	out->source = "container";
	return true;
}

/* 5: EC2 instance metadata, IMDSv2 (a session token first) */
static bool
from_instance_metadata(const PqHttpConfig *http, PqAwsCredentials *out)
{
	static const long not_there[] = {403, 404, 405, 0};
	static const long no_role[] = {404, 0};
	const char *disabled = pq_aws_env("AWS_EC2_METADATA_DISABLED");
	const char *endpoint = pq_aws_env("AWS_EC2_METADATA_SERVICE_ENDPOINT");
	const char *mode = pq_aws_env("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE");
	PqHttpConfig h = chain_http(http, true);
	PqHttpRequest r;
	char	   *base;
	char	   *url;
	char	   *headers[1];
	char	   *token;
	char	   *role;
	const char *why;
	size_t		n;

	if (disabled && pg_strcasecmp(disabled, "true") == 0)
		return false;
	if (endpoint == NULL)
	{
		if (mode && pg_strcasecmp(mode, "IPv6") == 0)
			endpoint = IMDS_ENDPOINT_IPV6;
		else if (mode == NULL || pg_strcasecmp(mode, "IPv4") == 0)
			endpoint = IMDS_ENDPOINT;
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE is neither IPv4 nor IPv6")));
	}
	setting_url(endpoint, "AWS_EC2_METADATA_SERVICE_ENDPOINT");
	base = without_slash(endpoint);

	/*
	 * A machine without the service must not wait long: one retry, short
	 * timeouts, and no answer at all means no credentials here.
	 */
	h.connect_timeout_ms = 1000;
	h.idle_timeout_ms = 1000;
	h.max_retries = Min(h.max_retries, 1);
	h.retry_base_ms = Min(h.retry_base_ms, 100);
	url = psprintf("%s/latest/api/token", base);
	pq_http_request_init(&r, "PUT", url, url, 4096);
	headers[0] = pstrdup("X-aws-ec2-metadata-token-ttl-seconds: " IMDS_TOKEN_TTL);
	r.headers = headers;
	r.nheaders = 1;
	r.unreachable_ok = true;
	run_one(&r, &h, not_there);
	if (r.status != 200)
		return false;
	token = r.body.data;
	if (r.body.len == 0 || strlen(token) != (size_t) r.body.len ||
		strspn(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-") != (size_t) r.body.len)
		malformed_answer(r.display, "the token is empty or holds a character other than base64's");
	headers[0] = psprintf("X-aws-ec2-metadata-token: %s", token);

	/* the role of the instance profile; none: no credentials here */
	url = psprintf("%s/latest/meta-data/iam/security-credentials/", base);
	pq_http_request_init(&r, "GET", url, url, 4096);
	r.headers = headers;
	r.nheaders = 1;
	run_one(&r, &h, no_role);
	if (r.status == 404)
		return false;
	role = r.body.data;
	n = strcspn(role, "\r\n");
	role[n] = '\0';
	if (n == 0 || n > ROLE_NAME_MAX || strlen(role) != n ||
		strspn(role, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+=,.@_-") != n)
		malformed_answer(r.display, "the role name is empty, longer than 64 bytes, or holds a character IAM does not allow in one");

	url = psprintf("%s%s", url, role);
	pq_http_request_init(&r, "GET", url, url, ANSWER_MAX);
	r.headers = headers;
	r.nheaders = 1;
	run_one(&r, &h, NULL);
	explicit_bzero(headers[0], strlen(headers[0]));
	if (!pq_aws_parse_json_answer(r.body.data, r.body.len, out, &why))
		malformed_answer(r.display, why);
	out->source = "instance metadata";
	return true;
}

static bool
find_credentials(const PqHttpConfig *http, const char *profile,
				 PqAwsCredentials *out)
{
	PqAwsProfile p;

	memset(out, 0, sizeof(*out));

	/* a profile the caller names is meant instead of the environment's keys */
	if (profile == NULL && from_environment(out))
		return true;
	pq_aws_profile_load(profile, &p);
	if (from_web_identity(http, &p, out))
		return true;
	refuse_unsupported(&p, false);
	if (from_file(&p, &p.credentials, out))
		return true;
	refuse_unsupported(&p, true);
	if (from_file(&p, &p.config, out))
		return true;
	if (from_container(http, out))
		return true;
	return from_instance_metadata(http, out);
}

static char *
keep(const char *s)
{
	return s ? MemoryContextStrdup(TopMemoryContext, s) : NULL;
}

static void
forget(char *s)
{
	if (s)
	{
		explicit_bzero(s, strlen(s));
		pfree(s);
	}
}

bool
pq_aws_credential_chain(const PqHttpConfig *http, const char *profile,
						PqAwsCredentials *out)
{
	int64		now = (int64) time(NULL);
	const char *key = profile ? profile : "";

	if (!cache.valid || strcmp(cache.profile, key) != 0 ||
		now >= cache.good_until)
	{
		PqAwsCredentials fresh;
		bool		found = find_credentials(http, profile, &fresh);

		if (cache.valid)
		{
			forget(cache.profile);
			forget(cache.c.key_id);
			forget(cache.c.secret);
			forget(cache.c.session_token);
		}
		memset(&cache, 0, sizeof(cache));
		cache.profile = keep(key);
		cache.found = found;
		if (found)
		{
			cache.c.key_id = keep(fresh.key_id);
			cache.c.secret = keep(fresh.secret);
			cache.c.session_token = keep(fresh.session_token);
			cache.c.expires_at = fresh.expires_at;
			cache.c.source = fresh.source;
		}
		cache.good_until = found && fresh.expires_at != 0 ?
			fresh.expires_at - REFRESH_MARGIN_S : now + KEEP_S;
		cache.valid = true;
	}
	memset(out, 0, sizeof(*out));
	if (!cache.found)
		return false;
	out->key_id = pstrdup(cache.c.key_id);
	out->secret = pstrdup(cache.c.secret);
	out->session_token = cache.c.session_token ?
		pstrdup(cache.c.session_token) : NULL;
	out->expires_at = cache.c.expires_at;
	out->source = cache.c.source;
	return true;
}

char *
pq_aws_profile_region(const char *profile)
{
	PqAwsProfile p;
	const char *r;

	/* the environment's region needs no file, and wins over them */
	if (pq_aws_env("AWS_REGION") == NULL &&
		pq_aws_env("AWS_DEFAULT_REGION") == NULL)
		pq_aws_profile_load(profile, &p);
	else
		memset(&p, 0, sizeof(p));
	r = region_of(&p);
	return r ? pstrdup(r) : NULL;
}
