/*-------------------------------------------------------------------------
 *
 * store.c
 *		Requests for a URL, sent to the client of its scheme: S3 (and GCS,
 *		which speaks S3's XML API with HMAC keys), Azure Blob, or plain
 *		HTTP(S) for single objects.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/store/store.h"

#define GCS_ENDPOINT "https://storage.googleapis.com"

void
pq_store_config_init(PqStoreConfig *c)
{
	memset(c, 0, sizeof(*c));
	pq_http_config_defaults(&c->http);
	c->s3.path_style = false;
}

PqS3Config
pq_store_s3_config(const PqStoreConfig *c, const PqUrl *u)
{
	PqS3Config	s = c->s3;

	s.http = c->http;
	if (u->scheme == PQ_URL_GS && s.endpoint == NULL)
	{
		s.endpoint = GCS_ENDPOINT;
		s.path_style = true;
		if (s.region == NULL)
			s.region = "auto";
	}
	return s;
}

PqAzureConfig
pq_store_azure_config(const PqStoreConfig *c, const PqUrl *u)
{
	PqAzureConfig a = c->azure;

	a.http = c->http;
	if (u->account)
		a.account = u->account;
	if (a.account == NULL && a.endpoint == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
				 errmsg("no storage account is named for \"%s\"", u->display),
				 errhint("Set the server's option account, or use an abfss:// URL, which names it.")));
	return a;
}

/* The URL of an http(s):// object, as sent (its query included). */
static char *
http_url(const PqUrl *u)
{
	return psprintf("%s://%s%s/%s%s%s", pq_url_scheme_name(u->scheme), u->host,
					u->port ? psprintf(":%d", u->port) : "", u->key,
					u->query ? "?" : "", u->query ? u->query : "");
}

bool
pq_store_is_s3(const PqUrl *u)
{
	return u->scheme == PQ_URL_S3 || u->scheme == PQ_URL_GS;
}

bool
pq_store_is_azure(const PqUrl *u)
{
	return u->scheme == PQ_URL_AZ || u->scheme == PQ_URL_ABFSS;
}

bool
pq_store_head(const PqStoreConfig *c, const PqUrl *u, int64 *size,
			  char **etag)
{
	static const long not_found[] = {404, 0};
	PqHttpRequest r;
	PqHttpRequest *rp = &r;

	if (pq_store_is_s3(u))
	{
		PqS3Config	s = pq_store_s3_config(c, u);

		return pq_s3_head(&s, u->bucket, u->key, u->display, size, etag);
	}
	if (pq_store_is_azure(u))
	{
		PqAzureConfig a = pq_store_azure_config(c, u);

		return pq_blob_head(&a, u->bucket, u->key, u->display, size, etag);
	}
	pq_http_request_init(&r, "HEAD", http_url(u), u->display, 0);
	pq_http_run(&rp, 1, &c->http, not_found);
	if (r.status == 404)
		return false;
	if (r.content_length < 0)
		ereport(ERROR,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("could not read \"%s\": the server gave no Content-Length for it",
						u->display)));
	*size = r.content_length;
	*etag = r.etag;
	return true;
}

void
pq_store_get_ranges(const PqStoreConfig *c, const PqUrl *u, const char *etag,
					int n, const int64 *offsets, const int64 *lengths,
					uint8 **bufs, PqHttpBatch **background)
{
	PqHttpRequest **rs;
	char	   *url;
	int			i;

	if (pq_store_is_s3(u))
	{
		PqS3Config	s = pq_store_s3_config(c, u);

		pq_s3_get_ranges(&s, u->bucket, u->key, u->display, etag, n, offsets,
						 lengths, bufs, background);
		return;
	}
	if (pq_store_is_azure(u))
	{
		PqAzureConfig a = pq_store_azure_config(c, u);

		pq_blob_get_ranges(&a, u->bucket, u->key, u->display, etag, n,
						   offsets, lengths, bufs, background);
		return;
	}
	url = http_url(u);
	rs = palloc(sizeof(PqHttpRequest *) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		rs[i] = palloc(sizeof(PqHttpRequest));
		pq_http_request_init(rs[i], "GET", url, u->display, 0);
		rs[i]->range_start = offsets[i];
		rs[i]->range_len = lengths[i];
		rs[i]->dest = bufs[i];
		rs[i]->if_match = etag;
	}
	pq_http_run_or_start(rs, n, &c->http, NULL, background);
}

void
pq_store_list(const PqStoreConfig *c, const PqUrl *u, const char *delimiter,
			  PqListing *out)
{
	if (pq_store_is_s3(u))
	{
		PqS3Config	s = pq_store_s3_config(c, u);

		pq_s3_list(&s, u->bucket, u->key, delimiter, u->display, out);
		return;
	}
	if (pq_store_is_azure(u))
	{
		PqAzureConfig a = pq_store_azure_config(c, u);

		pq_blob_list(&a, u->bucket, u->key, delimiter, u->display, out);
		return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("cannot list \"%s\": HTTP servers have no listing", u->display),
			 errhint("Name each file of an http:// or https:// location.")));
}
