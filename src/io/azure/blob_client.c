/*-------------------------------------------------------------------------
 *
 * blob_client.c
 *		Blob service requests over the HTTP transport.  Each attempt is
 *		signed anew (x-ms-date), with the If-Match and Range the transport
 *		sends, since Shared Key signs both.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "io/azure/blob_client.h"
#include "io/azure/blob_list.h"
#include "io/azure/shared_key.h"
#include "io/common/url.h"

#define LIST_BODY_MAX (16 * 1024 * 1024)
#define API_VERSION "2021-08-06"

typedef struct BlobRequest
{
	const PqAzureConfig *c;
	const char *method;
	char	   *path;			/* encoded, as sent */
	PqQueryParam *params;
	int			nparams;
	PqHttpHeader ms[2];			/* x-ms-* headers of this request */
	int			nms;
	const char *content_type;	/* of a body; NULL: none */
} BlobRequest;

/* RFC 1123 date in English whatever the locale: Azure's x-ms-date. */
static char *
http_date(void)
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	time_t		now = time(NULL);
	struct tm	tm;

	gmtime_r(&now, &tm);
	return psprintf("%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday],
					tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900,
					tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void
sign(void *arg, PqHttpRequest *r)
{
	BlobRequest *q = r->prepare_data;
	const PqAzureConfig *c = q->c;
	char	   *date = http_date();
	PqHttpHeader ms[4];
	int			nms = 0;
	PqSharedKeyRequest sk;
	char	   *auth = NULL;
	int			i;

	ms[nms].name = "x-ms-date";
	ms[nms++].value = date;
	ms[nms].name = "x-ms-version";
	ms[nms++].value = API_VERSION;
	for (i = 0; i < q->nms; i++)
		ms[nms++] = q->ms[i];
	r->nheaders = 0;
	r->headers = palloc(sizeof(char *) * (nms + 2));
	for (i = 0; i < nms; i++)
		r->headers[r->nheaders++] = psprintf("%s: %s", ms[i].name, ms[i].value);
	if (q->content_type)
		r->headers[r->nheaders++] = psprintf("Content-Type: %s", q->content_type);
	if (c->account_key == NULL)
		return;
	memset(&sk, 0, sizeof(sk));
	sk.method = q->method;
	sk.path = q->path;
	sk.params = q->params;
	sk.nparams = q->nparams;
	sk.ms_headers = ms;
	sk.nms_headers = nms;
	sk.if_match = r->if_match;
	/* a body's length (none for 0 bytes, since version 2015-02-21) */
	if (r->send_len > 0)
		sk.content_length = psprintf("%zu", r->send_len);
	sk.content_type = q->content_type;
	if (r->range_start >= 0)
		sk.range = psprintf("bytes=" INT64_FORMAT "-" INT64_FORMAT,
							r->range_start, r->range_start + r->range_len - 1);
	if (!pq_shared_key_sign(&sk, c->account, c->account_key, &auth))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the account key for \"%s\" is not base64", r->display)));
	r->headers[r->nheaders++] = psprintf("Authorization: %s", auth);
}

PqHttpRequest *
pq_blob_request(const PqAzureConfig *c, const char *method, const char *container,
				const char *blob, PqQueryParam *params, int nparams,
				const char *display, size_t max_body)
{
	BlobRequest *q = palloc0(sizeof(BlobRequest));
	PqHttpRequest *r = palloc(sizeof(PqHttpRequest));
	char	   *base;
	const char *after_host;
	char	   *query;
	char	   *url;

	base = c->endpoint ? pstrdup(c->endpoint) :
		psprintf("https://%s.blob.core.windows.net", c->account);
	if (base[0] && base[strlen(base) - 1] == '/')
		base[strlen(base) - 1] = '\0';
	if (strstr(base, "://") == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the Azure endpoint \"%s\" is not a URL", base)));
	after_host = strchr(strstr(base, "://") + 3, '/');
	q->c = c;
	q->method = method;
	q->params = params;
	q->nparams = nparams;
	q->path = psprintf("%s/%s%s%s", after_host ? after_host : "", container,
					   blob ? "/" : "", blob ? pq_url_encode(blob, true) : "");
	query = pq_url_query_string(params, nparams);
	if (c->sas_token && c->account_key == NULL)
		query = psprintf("%s%s%s", query, query[0] ? "&" : "",
						 c->sas_token[0] == '?' ? c->sas_token + 1 : c->sas_token);
	url = psprintf("%.*s%s%s%s", (int) (after_host ? after_host - base : strlen(base)),
				   base, q->path, query[0] ? "?" : "", query);
	pq_http_request_init(r, method, url, display, max_body);
	r->prepare_data = q;
	return r;
}

void
pq_blob_request_body(PqHttpRequest *r, const void *data, size_t len,
					 const char *content_type)
{
	BlobRequest *q = r->prepare_data;

	r->send_body = data;
	r->send_len = len;
	q->content_type = content_type;
}

void
pq_blob_request_ms_header(PqHttpRequest *r, const char *name,
						  const char *value)
{
	BlobRequest *q = r->prepare_data;

	Assert(q->nms < lengthof(q->ms));
	q->ms[q->nms].name = name;
	q->ms[q->nms++].value = value;
}

PqHttpConfig
pq_blob_http_config(const PqAzureConfig *c)
{
	PqHttpConfig h = c->http;

	h.prepare = sign;
	h.prepare_arg = NULL;
	return h;
}

bool
pq_blob_head(const PqAzureConfig *c, const char *container, const char *blob,
			 const char *display, int64 *size, char **etag)
{
	static const long not_found[] = {404, 0};
	PqHttpRequest *r = pq_blob_request(c, "HEAD", container, blob, NULL, 0,
									   display, 0);
	PqHttpConfig h = pq_blob_http_config(c);

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
pq_blob_get_ranges(const PqAzureConfig *c, const char *container,
				   const char *blob, const char *display, const char *etag,
				   int n, const int64 *offsets, const int64 *lengths,
				   uint8 **bufs, PqHttpBatch **background)
{
	PqHttpRequest **rs = palloc(sizeof(PqHttpRequest *) * Max(n, 1));
	PqHttpConfig h = pq_blob_http_config(c);
	int			i;

	/* signing later, from the background, needs c then: a copy */
	if (background)
	{
		PqAzureConfig *copy = palloc(sizeof(PqAzureConfig));

		*copy = *c;
		c = copy;
	}
	for (i = 0; i < n; i++)
	{
		rs[i] = pq_blob_request(c, "GET", container, blob, NULL, 0, display, 0);
		rs[i]->range_start = offsets[i];
		rs[i]->range_len = lengths[i];
		rs[i]->dest = bufs[i];
		rs[i]->if_match = etag;
	}
	pq_http_run_or_start(rs, n, &h, NULL, background);
}

void
pq_blob_list(const PqAzureConfig *c, const char *container,
			 const char *prefix, const char *delimiter, const char *display,
			 PqListing *out)
{
	PqHttpConfig h = pq_blob_http_config(c);
	char	   *marker = NULL;

	pq_listing_init(out);
	do
	{
		PqQueryParam *p = palloc(sizeof(PqQueryParam) * 6);
		int			np = 0;
		PqHttpRequest *r;
		PqListPage	page;
		const char *why;

		p[np].name = "restype";
		p[np++].value = "container";
		p[np].name = "comp";
		p[np++].value = "list";
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
		if (marker)
		{
			p[np].name = "marker";
			p[np++].value = marker;
		}
		if (c->list_page_size > 0)
		{
			p[np].name = "maxresults";
			p[np++].value = psprintf("%d", c->list_page_size);
		}
		r = pq_blob_request(c, "GET", container, NULL, p, np, display,
							LIST_BODY_MAX);
		pq_http_run(&r, 1, &h, NULL);
		if (!pq_blob_parse_list(r->body.data, r->body.len, &page, &why))
			ereport(ERROR,
					(errcode(ERRCODE_IO_ERROR),
					 errmsg("could not list \"%s\": the store's answer is malformed", display),
					 errdetail("In page %d of the listing, %s.", out->requests + 1, why)));
		pq_listing_append(out, &page);
		if (page.truncated && marker && strcmp(marker, page.next_token) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_IO_ERROR),
					 errmsg("could not list \"%s\": the store gave the same marker twice", display)));
		marker = page.truncated ? page.next_token : NULL;
	} while (marker);
}
