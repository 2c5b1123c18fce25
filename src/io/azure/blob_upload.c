/*-------------------------------------------------------------------------
 *
 * blob_upload.c
 *		Writing block blobs over the HTTP transport.
 *
 * A large blob is written as blocks, which stay uncommitted (invisible)
 * until Put Block List names them; the blob then appears whole at once.
 * Uncommitted blocks cannot be deleted one by one: Azure discards them
 * after a week, or when the blob is next committed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "io/azure/blob_upload.h"

#define SMALL_BODY_MAX (64 * 1024)

static const char *const OCTETS = "application/octet-stream";

void
pq_blob_put(const PqAzureConfig *c, const char *container, const char *blob,
			const char *display, const void *data, size_t len,
			const char *content_type)
{
	PqHttpRequest *r = pq_blob_request(c, "PUT", container, blob, NULL, 0,
									   display, SMALL_BODY_MAX);
	PqHttpConfig h = pq_blob_http_config(c);

	r->verb = "write";
	pq_blob_request_ms_header(r, "x-ms-blob-type", "BlockBlob");
	pq_blob_request_body(r, data, len, content_type ? content_type : OCTETS);
	pq_http_run(&r, 1, &h, NULL);
}

char *
pq_blob_block_tag(void)
{
	uint8		r[8];

	if (RAND_bytes(r, sizeof(r)) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random bytes for block ids")));
	return psprintf("pqfdw-%02x%02x%02x%02x%02x%02x%02x%02x", r[0], r[1],
					r[2], r[3], r[4], r[5], r[6], r[7]);
}

char *
pq_blob_block_id(const char *tag, int n)
{
	char	   *raw = psprintf("%s-%08d", tag, n);
	int			len = strlen(raw);
	char	   *out = palloc(4 * ((len + 2) / 3) + 1);

	EVP_EncodeBlock((unsigned char *) out, (const unsigned char *) raw, len);
	return out;
}

PqHttpRequest *
pq_blob_put_block(const PqAzureConfig *c, const char *container,
				  const char *blob, const char *display, const char *block_id,
				  const void *data, size_t len, PqHttpBatch **background)
{
	PqQueryParam *p = palloc(sizeof(PqQueryParam) * 2);
	PqAzureConfig *copy = palloc(sizeof(PqAzureConfig));
	PqHttpRequest *r;
	PqHttpConfig h;

	/* signing a retry, later, needs c then */
	*copy = *c;
	h = pq_blob_http_config(copy);
	p[0].name = "comp";
	p[0].value = "block";
	p[1].name = "blockid";
	p[1].value = pstrdup(block_id);
	r = pq_blob_request(copy, "PUT", container, blob, p, 2, display,
						SMALL_BODY_MAX);
	r->verb = "write";
	pq_blob_request_body(r, data, len, OCTETS);
	pq_http_run_or_start(&r, 1, &h, NULL, background);
	return r;
}

void
pq_blob_put_block_list(const PqAzureConfig *c, const char *container,
					   const char *blob, const char *display,
					   char *const *block_ids, int n, const char *content_type,
					   PqHttpBatch **background)
{
	PqQueryParam *p = palloc(sizeof(PqQueryParam));
	PqAzureConfig *copy = palloc(sizeof(PqAzureConfig));
	PqHttpRequest *r;
	PqHttpConfig h;
	StringInfoData body;
	int			i;

	*copy = *c;
	c = copy;
	h = pq_blob_http_config(c);
	initStringInfo(&body);
	appendStringInfoString(&body, "<?xml version=\"1.0\" encoding=\"utf-8\"?><BlockList>");
	for (i = 0; i < n; i++)
		appendStringInfo(&body, "<Latest>%s</Latest>", block_ids[i]);
	appendStringInfoString(&body, "</BlockList>");
	p[0].name = "comp";
	p[0].value = "blocklist";
	r = pq_blob_request(c, "PUT", container, blob, p, 1, display,
						SMALL_BODY_MAX);
	r->verb = "write";
	pq_blob_request_ms_header(r, "x-ms-blob-content-type",
							  content_type ? content_type : OCTETS);
	pq_blob_request_body(r, body.data, body.len, "application/xml");
	pq_http_run_or_start(&r, 1, &h, NULL, background);
}

bool
pq_blob_delete_quietly(const PqAzureConfig *c, const char *container,
					   const char *blob, const char *display, long timeout_ms)
{
	PqHttpRequest *r = pq_blob_request(c, "DELETE", container, blob, NULL, 0,
									   display, SMALL_BODY_MAX);
	PqHttpConfig h = pq_blob_http_config(c);
	long		status = pq_http_send_quietly(r, &h, timeout_ms);

	return (status >= 200 && status < 300) || status == 404;
}

void
pq_blob_delete(const PqAzureConfig *c, const char *container,
			   const char *const *blobs, int n, const char *const *displays)
{
	static const long gone[] = {404, 0};
	PqHttpRequest **rs = palloc(sizeof(PqHttpRequest *) * Max(n, 1));
	PqHttpConfig h = pq_blob_http_config(c);
	int			i;

	for (i = 0; i < n; i++)
	{
		rs[i] = pq_blob_request(c, "DELETE", container, blobs[i], NULL, 0,
								displays[i], SMALL_BODY_MAX);
		rs[i]->verb = "delete";
	}
	pq_http_run(rs, n, &h, gone);
}
