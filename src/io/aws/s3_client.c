/*-------------------------------------------------------------------------
 *
 * s3_client.c
 *		S3 requests over the HTTP transport.  Each attempt is signed anew
 *		(the signature carries the time), in the transport's prepare
 *		callback; the path and query are encoded once, as SigV4 wants them,
 *		and sent exactly as signed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "io/aws/s3_client.h"
#include "io/aws/sigv4.h"

/* A listing page's body may be this large (1,000 keys of 1 kB, escaped). */
#define LIST_BODY_MAX (16 * 1024 * 1024)

/* What signing one request needs. */
typedef struct S3Request
{
	const PqS3Config *c;
	const char *method;
	char	   *host;			/* as in the URL, with a port if given */
	char	   *path;			/* encoded */
	PqQueryParam *params;
	int			nparams;
	char		payload_hash[65];	/* "": UNSIGNED-PAYLOAD */
	const char *content_type;	/* NULL: none */
} S3Request;

static const char *
region_of(const PqS3Config *c)
{
	return c->region ? c->region : "us-east-1";
}

/* "scheme://host[:port]" of the endpoint, split. */
static void
endpoint_parts(const PqS3Config *c, const char **scheme, char **host)
{
	const char *e = c->endpoint;
	const char *sep;

	if (e == NULL)
	{
		*scheme = "https";
		*host = psprintf("s3.%s.amazonaws.com", region_of(c));
		return;
	}
	sep = strstr(e, "://");
	Assert(sep != NULL);
	*scheme = pnstrdup(e, sep - e);
	*host = pstrdup(sep + 3);
	/* a trailing "/" of the option's value is not part of the host */
	if ((*host)[0] && (*host)[strlen(*host) - 1] == '/')
		(*host)[strlen(*host) - 1] = '\0';
}

static void
sign(void *arg, PqHttpRequest *r)
{
	S3Request  *q = r->prepare_data;
	const PqS3Config *c = q->c;
	PqHttpHeader h[4];
	int			nh = 0;
	const char *payload = q->payload_hash[0] ? q->payload_hash : "UNSIGNED-PAYLOAD";
	char		amz_date[17];
	time_t		now = time(NULL);
	struct tm	tm;
	PqSigV4Request sr;
	PqSigV4Signed out;

	gmtime_r(&now, &tm);
	strftime(amz_date, sizeof(amz_date), "%Y%m%dT%H%M%SZ", &tm);
	h[nh].name = "host";
	h[nh++].value = q->host;
	h[nh].name = "x-amz-content-sha256";
	h[nh++].value = payload;
	h[nh].name = "x-amz-date";
	h[nh++].value = pstrdup(amz_date);
	if (c->session_token)
	{
		h[nh].name = "x-amz-security-token";
		h[nh++].value = c->session_token;
	}
	sr.method = q->method;
	sr.path = q->path;
	sr.params = q->params;
	sr.nparams = q->nparams;
	sr.headers = h;
	sr.nheaders = nh;
	sr.payload_hash = payload;
	pq_sigv4_sign(&sr, region_of(c), "s3", amz_date, c->key_id, c->secret,
				  &out);
	r->nheaders = 0;
	r->headers = palloc(sizeof(char *) * 6);
	r->headers[r->nheaders++] = psprintf("x-amz-content-sha256: %s", payload);
	r->headers[r->nheaders++] = psprintf("x-amz-date: %s", amz_date);
	if (c->session_token)
		r->headers[r->nheaders++] = psprintf("x-amz-security-token: %s", c->session_token);
	r->headers[r->nheaders++] = psprintf("Authorization: %s", out.authorization);
	if (q->content_type)
		r->headers[r->nheaders++] = psprintf("Content-Type: %s", q->content_type);
}

/* Anonymous requests: only the body's type. */
static void
unsigned_headers(void *arg, PqHttpRequest *r)
{
	S3Request  *q = r->prepare_data;

	r->nheaders = 0;
	r->headers = palloc(sizeof(char *));
	if (q->content_type)
		r->headers[r->nheaders++] = psprintf("Content-Type: %s", q->content_type);
}

PqHttpRequest *
pq_s3_request(const PqS3Config *c, const char *method, const char *bucket,
			  const char *key, PqQueryParam *params, int nparams,
			  const char *display, size_t max_body)
{
	S3Request  *q = palloc0(sizeof(S3Request));
	PqHttpRequest *r = palloc(sizeof(PqHttpRequest));
	const char *scheme;
	char	   *host;
	char	   *query;
	char	   *url;

	endpoint_parts(c, &scheme, &host);
	q->c = c;
	q->method = method;
	q->params = params;
	q->nparams = nparams;
	if (c->path_style)
	{
		q->host = host;
		q->path = psprintf("/%s%s%s", bucket, key ? "/" : "",
						   key ? pq_url_encode(key, true) : "");
	}
	else
	{
		q->host = psprintf("%s.%s", bucket, host);
		q->path = psprintf("/%s", key ? pq_url_encode(key, true) : "");
	}

	/* the query is sent as it is signed: encoded and sorted */
	query = pq_url_query_string(params, nparams);
	url = psprintf("%s://%s%s%s%s", scheme, q->host, q->path,
				   query[0] ? "?" : "", query);
	pq_http_request_init(r, method, url, display, max_body);
	r->prepare_data = q;
	return r;
}

void
pq_s3_request_body(PqHttpRequest *r, const void *data, size_t len,
				   const char *content_type)
{
	S3Request  *q = r->prepare_data;

	r->send_body = data;
	r->send_len = len;
	q->content_type = content_type;
	/* the store checks the body against it: no part arrives damaged */
	pq_sha256_hex(data, len, q->payload_hash);
}

PqHttpConfig
pq_s3_http_config(const PqS3Config *c)
{
	PqHttpConfig h = c->http;

	h.prepare = c->key_id ? sign : unsigned_headers;
	h.prepare_arg = NULL;
	return h;
}

bool
pq_s3_head(const PqS3Config *c, const char *bucket, const char *key,
		   const char *display, int64 *size, char **etag)
{
	static const long not_found[] = {404, 0};
	PqHttpRequest *r = pq_s3_request(c, "HEAD", bucket, key, NULL, 0, display, 0);
	PqHttpConfig h = pq_s3_http_config(c);

	pq_http_run(&r, 1, &h, not_found);
	if (r->status == 404)
		return false;
	if (r->content_length < 0)
		ereport(ERROR,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("could not read \"%s\": the store gave no Content-Length for it",
						display)));
	*size = r->content_length;
	*etag = r->etag;
	return true;
}

void
pq_s3_get_ranges(const PqS3Config *c, const char *bucket, const char *key,
				 const char *display, const char *etag, int n,
				 const int64 *offsets, const int64 *lengths, uint8 **bufs,
				 PqHttpBatch **background)
{
	PqHttpRequest **rs = palloc(sizeof(PqHttpRequest *) * Max(n, 1));
	PqHttpConfig h = pq_s3_http_config(c);
	int			i;

	/* signing later, from the background, needs c then: a copy */
	if (background)
	{
		PqS3Config *copy = palloc(sizeof(PqS3Config));

		*copy = *c;
		c = copy;
	}
	for (i = 0; i < n; i++)
	{
		rs[i] = pq_s3_request(c, "GET", bucket, key, NULL, 0, display, 0);
		rs[i]->range_start = offsets[i];
		rs[i]->range_len = lengths[i];
		rs[i]->dest = bufs[i];
		rs[i]->if_match = etag;
	}
	pq_http_run_or_start(rs, n, &h, NULL, background);
}

void
pq_s3_list(const PqS3Config *c, const char *bucket, const char *prefix,
		   const char *delimiter, const char *display, PqListing *out)
{
	PqHttpConfig h = pq_s3_http_config(c);
	char	   *token = NULL;

	pq_listing_init(out);
	do
	{
		PqQueryParam *p = palloc(sizeof(PqQueryParam) * 4);
		int			np = 0;
		PqHttpRequest *r;
		PqListPage	page;
		const char *why;

		p[np].name = "list-type";
		p[np++].value = "2";
		if (prefix && prefix[0])
		{
			p[np].name = "prefix";
			p[np++].value = prefix;
		}
		if (delimiter)
		{
			p[np].name = "delimiter";
			p[np++].value = delimiter;
		}
		if (token)
		{
			p[np].name = "continuation-token";
			p[np++].value = token;
		}
		r = pq_s3_request(c, "GET", bucket, NULL, p, np, display, LIST_BODY_MAX);
		pq_http_run(&r, 1, &h, NULL);
		if (!pq_s3_parse_list(r->body.data, r->body.len, &page, &why))
			ereport(ERROR,
					(errcode(ERRCODE_IO_ERROR),
					 errmsg("could not list \"%s\": the store's answer is malformed", display),
					 errdetail("In page %d of the listing, %s.", out->requests + 1, why)));
		pq_listing_append(out, &page);
		/* a store that repeats its token would make us loop for ever */
		if (page.truncated && token && strcmp(token, page.next_token) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_IO_ERROR),
					 errmsg("could not list \"%s\": the store gave the same continuation token twice", display)));
		token = page.truncated ? page.next_token : NULL;
	} while (token);
}
