/*-------------------------------------------------------------------------
 *
 * url.c
 *		Parsing object-store and HTTP URLs.  Everything in a URL comes from
 *		a user, so each part is checked here once: names against the
 *		store's rules, keys and paths for bytes that could break a request
 *		line or header, ports for their range.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/common/io_common.h"
#include "io/common/url.h"
#include "lib/stringinfo.h"

typedef struct SchemeInfo
{
	const char *prefix;			/* with "://" */
	PqUrlScheme scheme;
} SchemeInfo;

static const SchemeInfo schemes[] = {
	{"s3://", PQ_URL_S3},
	{"gs://", PQ_URL_GS},
	{"az://", PQ_URL_AZ},
	{"abfss://", PQ_URL_ABFSS},
	{"http://", PQ_URL_HTTP},
	{"https://", PQ_URL_HTTPS},
};

/* The Azure Data Lake host suffix that abfss:// URLs name accounts by. */
static const char abfss_host_suffix[] = ".dfs.core.windows.net";

static const SchemeInfo *
scheme_of(const char *s)
{
	int			i;

	for (i = 0; i < lengthof(schemes); i++)
		if (pg_strncasecmp(s, schemes[i].prefix, strlen(schemes[i].prefix)) == 0)
			return &schemes[i];
	return NULL;
}

bool
pq_url_is_remote(const char *s)
{
	return scheme_of(s) != NULL;
}

const char *
pq_url_scheme_name(PqUrlScheme scheme)
{
	int			i;

	for (i = 0; i < lengthof(schemes); i++)
		if (schemes[i].scheme == scheme)
			return pnstrdup(schemes[i].prefix, strlen(schemes[i].prefix) - 3);
	return "?";
}

static void bad_url(const char *url, const char *detail) pg_attribute_noreturn();

static void
bad_url(const char *url, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid URL \"%s\"", url),
			 errdetail_internal("%s", detail)));
}

/*
 * Bucket (S3, GCS) or container (Azure) names: lower-case letters, digits
 * and the store's punctuation, starting and ending with a letter or digit.
 */
static bool
valid_bucket(const char *b, size_t len, PqUrlScheme scheme)
{
	bool		azure = scheme == PQ_URL_AZ || scheme == PQ_URL_ABFSS;
	size_t		max = azure ? 63 : (scheme == PQ_URL_GS ? 222 : 63);
	size_t		i;

	if (len < 3 || len > max)
		return false;
	for (i = 0; i < len; i++)
	{
		char		c = b[i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			continue;
		if (c == '-' || (!azure && c == '.') ||
			(scheme == PQ_URL_GS && c == '_'))
		{
			if (i == 0 || i == len - 1)
				return false;
			continue;
		}
		return false;
	}
	return true;
}

/*
 * Keys and paths: no control characters (they would end up in a request
 * line or a signed header), no longer than the store allows.
 */
static const char *
key_problem(const char *k)
{
	const unsigned char *p;

	if (strlen(k) > PQ_URL_MAX_KEY)
		return psprintf(_("The key is longer than %d bytes."), PQ_URL_MAX_KEY);
	for (p = (const unsigned char *) k; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return _("The key holds a control character.");
	return NULL;
}

/* host[:port] of an HTTP URL, between "//" and the path; NULL when fine */
static const char *
parse_authority(const char *a, size_t len, PqUrl *u)
{
	size_t		hostlen = len;
	const char *colon = NULL;
	size_t		i;

	if (memchr(a, '@', len) != NULL)
		return _("User names and passwords in URLs are not accepted: use a user mapping.");
	if (len > 0 && a[0] == '[')
	{
		const char *close = memchr(a, ']', len);

		if (close == NULL)
			return _("The IPv6 address is not closed with \"]\".");
		for (i = 1; a + i < close; i++)
			if (!isxdigit((unsigned char) a[i]) && a[i] != ':' && a[i] != '.')
				return _("The IPv6 address holds a character other than hexadecimal digits, \":\" and \".\".");
		hostlen = close - a + 1;
		if (hostlen < len)
		{
			if (a[hostlen] != ':')
				return _("Only a port may follow the IPv6 address.");
			colon = a + hostlen;
		}
	}
	else
	{
		colon = memchr(a, ':', len);
		if (colon)
			hostlen = colon - a;
		if (hostlen == 0)
			return _("The URL names no host.");
		for (i = 0; i < hostlen; i++)
			if (!isalnum((unsigned char) a[i]) && a[i] != '-' && a[i] != '.' &&
				a[i] != '_')
				return _("The host name holds a character other than letters, digits, \"-\", \".\" and \"_\".");
	}
	u->host = pnstrdup(a, hostlen);
	if (colon)
	{
		const char *p = colon + 1;
		const char *end = a + len;
		int			port = 0;

		if (p == end)
			return _("The port is empty.");
		for (; p < end; p++)
		{
			if (*p < '0' || *p > '9')
				return _("The port is not a number.");
			port = port * 10 + (*p - '0');
			if (port > 65535)
				return _("The port is not between 1 and 65535.");
		}
		if (port == 0)
			return _("The port is not between 1 and 65535.");
		u->port = port;
	}
	return NULL;
}

/* http:// and https://: authority, then path, query and fragment */
static void
parse_http(const char *s, const char *rest, PqUrl *u)
{
	size_t		alen = strcspn(rest, "/?#");
	const char *path = rest + alen;
	size_t		plen = strcspn(path, "?#");
	const char *problem;

	if ((problem = parse_authority(rest, alen, u)) != NULL)
		bad_url(s, problem);
	u->key = pnstrdup(path[0] == '/' ? path + 1 : path,
					  path[0] == '/' ? plen - 1 : plen);
	if (path[plen] == '?')
		u->query = pnstrdup(path + plen + 1, strcspn(path + plen + 1, "#"));
	if ((problem = key_problem(u->key)) != NULL ||
		(u->query && (problem = key_problem(u->query)) != NULL))
		bad_url(s, problem);
	if (strchr(u->key, ' ') || (u->query && strchr(u->query, ' ')))
		bad_url(s, _("The URL holds a space: write it as %20."));
	/* the query may hold a signature or a token: messages leave it out */
	u->display = psprintf("%s://%s%s/%s%s",
						  u->scheme == PQ_URL_HTTPS ? "https" : "http",
						  u->host,
						  u->port ? psprintf(":%d", u->port) : "",
						  u->key, u->query ? "?..." : "");
}

PqUrl *
pq_url_parse(const char *s)
{
	const SchemeInfo *si = scheme_of(s);
	PqUrl	   *u = palloc0(sizeof(PqUrl));
	const char *rest;
	const char *slash;
	const char *problem;
	size_t		len;

	Assert(si != NULL);
	u->scheme = si->scheme;
	rest = s + strlen(si->prefix);
	if (si->scheme == PQ_URL_HTTP || si->scheme == PQ_URL_HTTPS)
	{
		parse_http(s, rest, u);
		return u;
	}

	slash = strchr(rest, '/');
	len = slash ? (size_t) (slash - rest) : strlen(rest);
	u->key = pstrdup(slash ? slash + 1 : "");
	if (si->scheme == PQ_URL_ABFSS)
	{
		const char *at = memchr(rest, '@', len);
		const char *host;
		size_t		hostlen;
		size_t		suffix = strlen(abfss_host_suffix);
		size_t		acctlen;

		if (at == NULL)
			bad_url(s, _("An abfss:// URL names container@account.dfs.core.windows.net."));
		host = at + 1;
		hostlen = rest + len - host;
		if (hostlen <= suffix ||
			pg_strncasecmp(host + hostlen - suffix, abfss_host_suffix,
						   suffix) != 0)
			bad_url(s, _("An abfss:// URL names container@account.dfs.core.windows.net."));
		acctlen = hostlen - suffix;
		u->account = pnstrdup(host, acctlen);
		if (acctlen < 3 || acctlen > 24 ||
			strspn(u->account, "abcdefghijklmnopqrstuvwxyz0123456789") != acctlen)
			bad_url(s, _("A storage account name has 3 to 24 lower-case letters and digits."));
		len = at - rest;
	}
	if (!valid_bucket(rest, len, si->scheme))
		bad_url(s, si->scheme == PQ_URL_AZ || si->scheme == PQ_URL_ABFSS ?
				_("A container name has 3 to 63 lower-case letters, digits and \"-\", starting and ending with a letter or digit.") :
				_("A bucket name has 3 to 63 lower-case letters, digits, \".\" and \"-\", starting and ending with a letter or digit."));
	u->bucket = pnstrdup(rest, len);
	if ((problem = key_problem(u->key)) != NULL)
		bad_url(s, problem);
	u->display = pstrdup(s);
	return u;
}

bool
pq_url_key_has_glob(const char *key, int *at)
{
	size_t		n = strcspn(key, "*?[");

	if (key[n] == '\0')
		return false;
	if (at)
		*at = (int) n;
	return true;
}

char *
pq_url_encode(const char *s, bool keep_slash)
{
	StringInfoData b;
	const unsigned char *p;

	initStringInfo(&b);
	for (p = (const unsigned char *) s; *p; p++)
	{
		if (isalnum(*p) && *p < 0x80)
			appendStringInfoChar(&b, *p);
		else if (*p == '-' || *p == '.' || *p == '_' || *p == '~' ||
				 (keep_slash && *p == '/'))
			appendStringInfoChar(&b, *p);
		else
			appendStringInfo(&b, "%%%02X", *p);
	}
	return b.data;
}

typedef struct EncodedParam
{
	char	   *name;
	char	   *value;
} EncodedParam;

static int
param_cmp(const void *a, const void *b)
{
	const EncodedParam *x = a;
	const EncodedParam *y = b;
	int			c = strcmp(x->name, y->name);

	return c != 0 ? c : strcmp(x->value, y->value);
}

char *
pq_url_query_string(const PqQueryParam *params, int n)
{
	EncodedParam *e = palloc(sizeof(EncodedParam) * Max(n, 1));
	StringInfoData b;
	int			i;

	for (i = 0; i < n; i++)
	{
		e[i].name = pq_url_encode(params[i].name, false);
		e[i].value = pq_url_encode(params[i].value ? params[i].value : "",
								   false);
	}
	qsort(e, n, sizeof(EncodedParam), param_cmp);
	initStringInfo(&b);
	for (i = 0; i < n; i++)
		appendStringInfo(&b, "%s%s=%s", i ? "&" : "", e[i].name, e[i].value);
	return b.data;
}
