/*-------------------------------------------------------------------------
 *
 * s3_upload.c
 *		Writing objects to S3 (and stores speaking its XML API): PUT of a
 *		whole object, multipart uploads (create, parts, complete, abort,
 *		list), DELETE.
 *
 * Bodies are signed with their SHA-256, which the store checks, so a part
 * damaged on the way is refused rather than stored.  A multipart upload's
 * object appears only when CompleteMultipartUpload succeeds; until then
 * its parts are invisible (and cost storage until aborted).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/aws/s3_list.h"
#include "io/aws/s3_upload.h"
#include "io/http/response.h"

/* Answers of CreateMultipartUpload, CompleteMultipartUpload, errors. */
#define SMALL_BODY_MAX (64 * 1024)
/* A ListMultipartUploads page: 1,000 uploads of a 1 kB key, escaped. */
#define LIST_BODY_MAX (16 * 1024 * 1024)

static const char *const OCTETS = "application/octet-stream";

void
pq_s3_put_object(const PqS3Config *c, const char *bucket, const char *key,
				 const char *display, const void *data, size_t len,
				 const char *content_type)
{
	PqHttpRequest *r = pq_s3_request(c, "PUT", bucket, key, NULL, 0, display,
									 SMALL_BODY_MAX);
	PqHttpConfig h = pq_s3_http_config(c);

	r->verb = "write";
	pq_s3_request_body(r, data, len, content_type ? content_type : OCTETS);
	pq_http_run(&r, 1, &h, NULL);
}

PqHttpRequest *
pq_s3_create_upload_start(const PqS3Config *c, const char *bucket,
						  const char *key, const char *display,
						  const char *content_type, PqHttpBatch **background)
{
	PqQueryParam *p = palloc(sizeof(PqQueryParam));
	PqS3Config *copy = palloc(sizeof(PqS3Config));
	PqHttpRequest *r;
	PqHttpConfig h;

	/* signing a retry, later, needs c then */
	*copy = *c;
	h = pq_s3_http_config(copy);
	p[0].name = "uploads";
	p[0].value = "";
	r = pq_s3_request(copy, "POST", bucket, key, p, 1, display,
					  SMALL_BODY_MAX);
	r->verb = "write";
	pq_s3_request_body(r, "", 0, content_type ? content_type : OCTETS);
	pq_http_run_or_start(&r, 1, &h, NULL, background);
	return r;
}

char *
pq_s3_create_upload_id(const PqHttpRequest *r, const char *display)
{
	char	   *id = pq_xml_element_text(r->body.data, r->body.len, "UploadId",
										 1024);

	if (id == NULL || id[0] == '\0' || strchr(id, '?') != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("could not write \"%s\": the store's answer to CreateMultipartUpload has no usable UploadId",
						display)));
	return id;
}

PqHttpRequest *
pq_s3_upload_part(const PqS3Config *c, const char *bucket, const char *key,
				  const char *display, const char *upload_id, int part,
				  const void *data, size_t len, PqHttpBatch **background)
{
	PqQueryParam *p = palloc(sizeof(PqQueryParam) * 2);
	PqS3Config *copy = palloc(sizeof(PqS3Config));
	PqHttpRequest *r;
	PqHttpConfig h;

	/* signing a retry, later, needs c then */
	*copy = *c;
	h = pq_s3_http_config(copy);
	p[0].name = "partNumber";
	p[0].value = psprintf("%d", part);
	p[1].name = "uploadId";
	p[1].value = pstrdup(upload_id);
	r = pq_s3_request(copy, "PUT", bucket, key, p, 2, display, SMALL_BODY_MAX);
	r->verb = "write";
	pq_s3_request_body(r, data, len, OCTETS);
	pq_http_run_or_start(&r, 1, &h, NULL, background);
	return r;
}

PqHttpRequest *
pq_s3_complete_upload_start(const PqS3Config *c, const char *bucket,
							const char *key, const char *display,
							const char *upload_id, int nparts,
							char *const *etags, PqHttpBatch **background)
{
	static const long not_found[] = {404, 0};
	PqQueryParam *p = palloc(sizeof(PqQueryParam));
	PqS3Config *copy = palloc(sizeof(PqS3Config));
	PqHttpRequest *r;
	PqHttpConfig h;
	StringInfoData body;
	int			i;

	*copy = *c;
	h = pq_s3_http_config(copy);
	initStringInfo(&body);
	appendStringInfoString(&body, "<CompleteMultipartUpload>");
	for (i = 0; i < nparts; i++)
		appendStringInfo(&body, "<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>",
						 i + 1, etags[i]);
	appendStringInfoString(&body, "</CompleteMultipartUpload>");
	p[0].name = "uploadId";
	p[0].value = pstrdup(upload_id);
	r = pq_s3_request(copy, "POST", bucket, key, p, 1, display, SMALL_BODY_MAX);
	r->verb = "write";
	pq_s3_request_body(r, body.data, body.len, "application/xml");
	pq_http_run_or_start(&r, 1, &h, not_found, background);
	return r;
}

void
pq_s3_complete_upload_check(const PqS3Config *c, const char *bucket,
							const char *key, const char *display,
							const PqHttpRequest *r, int64 size)
{
	char	   *code;

	if (r->status == 404)
	{
		int64		found_size;
		char	   *etag;

		/*
		 * After a retry, the first attempt may have completed the upload and
		 * only its answer was lost: then the object is there, whole.
		 */
		if (r->attempts > 1 &&
			pq_s3_head(c, bucket, key, display, &found_size, &etag) &&
			found_size == size)
			return;
		ereport(ERROR,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("could not write \"%s\": the store no longer knows its multipart upload",
						display),
				 errdetail("CompleteMultipartUpload answered HTTP status 404.")));
	}

	/* S3 may answer 200 and still report an error in the body */
	code = pq_xml_element_text(r->body.data, r->body.len, "Code", 128);
	if (code != NULL ||
		pq_xml_element_text(r->body.data, r->body.len,
							"CompleteMultipartUploadResult", 4096) == NULL)
	{
		char	   *message = pq_xml_element_text(r->body.data, r->body.len,
												  "Message", 512);

		ereport(ERROR,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("could not write \"%s\": CompleteMultipartUpload failed",
						display),
				 code && message ?
				 errdetail("The store answered %s: %s", code, message) :
				 code ? errdetail("The store answered %s.", code) :
				 errdetail("The store's answer is not a CompleteMultipartUploadResult.")));
	}
}

/* The AbortMultipartUpload request of upload_id. */
static PqHttpRequest *
abort_request(const PqS3Config *c, const char *bucket, const char *key,
			  const char *display, const char *upload_id)
{
	PqQueryParam *p = palloc(sizeof(PqQueryParam));
	PqHttpRequest *r;

	p[0].name = "uploadId";
	p[0].value = upload_id;
	r = pq_s3_request(c, "DELETE", bucket, key, p, 1, display, SMALL_BODY_MAX);
	r->verb = "abort the upload of";
	return r;
}

void
pq_s3_abort_upload(const PqS3Config *c, const char *bucket, const char *key,
				   const char *display, const char *upload_id)
{
	static const long gone[] = {404, 0};
	PqHttpRequest *r = abort_request(c, bucket, key, display, upload_id);
	PqHttpConfig h = pq_s3_http_config(c);

	pq_http_run(&r, 1, &h, gone);
}

bool
pq_s3_abort_upload_quietly(const PqS3Config *c, const char *bucket,
						   const char *key, const char *display,
						   const char *upload_id, long timeout_ms)
{
	PqHttpRequest *r = abort_request(c, bucket, key, display, upload_id);
	PqHttpConfig h = pq_s3_http_config(c);
	long		status = pq_http_send_quietly(r, &h, timeout_ms);

	/* 404: the store has no such upload (any more) */
	return (status >= 200 && status < 300) || status == 404;
}

bool
pq_s3_delete_object_quietly(const PqS3Config *c, const char *bucket,
							const char *key, const char *display,
							long timeout_ms)
{
	PqHttpRequest *r = pq_s3_request(c, "DELETE", bucket, key, NULL, 0,
									 display, SMALL_BODY_MAX);
	PqHttpConfig h = pq_s3_http_config(c);
	long		status = pq_http_send_quietly(r, &h, timeout_ms);

	return (status >= 200 && status < 300) || status == 404;
}

void
pq_s3_delete_objects(const PqS3Config *c, const char *bucket,
					 const char *const *keys, int n, const char *const *displays)
{
	static const long gone[] = {404, 0};
	PqHttpRequest **rs = palloc(sizeof(PqHttpRequest *) * Max(n, 1));
	PqHttpConfig h = pq_s3_http_config(c);
	int			i;

	for (i = 0; i < n; i++)
	{
		rs[i] = pq_s3_request(c, "DELETE", bucket, keys[i], NULL, 0,
							  displays[i], SMALL_BODY_MAX);
		rs[i]->verb = "delete";
	}
	pq_http_run(rs, n, &h, gone);
}

void
pq_s3_list_uploads(const PqS3Config *c, const char *bucket,
				   const char *prefix, const char *display,
				   PqS3UploadPage *out)
{
	PqHttpConfig h = pq_s3_http_config(c);
	char	   *key_marker = NULL;
	char	   *id_marker = NULL;
	int			pages = 0;

	pq_s3_upload_page_init(out);
	do
	{
		PqQueryParam *p = palloc(sizeof(PqQueryParam) * 4);
		int			np = 0;
		PqHttpRequest *r;
		PqS3UploadPage page;
		const char *why;
		int			i;

		p[np].name = "uploads";
		p[np++].value = "";
		if (prefix && prefix[0])
		{
			p[np].name = "prefix";
			p[np++].value = prefix;
		}
		if (key_marker)
		{
			p[np].name = "key-marker";
			p[np++].value = key_marker;
			p[np].name = "upload-id-marker";
			p[np++].value = id_marker ? id_marker : "";
		}
		r = pq_s3_request(c, "GET", bucket, NULL, p, np, display, LIST_BODY_MAX);
		pq_http_run(&r, 1, &h, NULL);
		pages++;
		if (!pq_s3_parse_uploads(r->body.data, r->body.len, &page, &why))
			ereport(ERROR,
					(errcode(ERRCODE_IO_ERROR),
					 errmsg("could not list the multipart uploads of \"%s\": the store's answer is malformed",
							display),
					 errdetail("In page %d of the listing, %s.", pages, why)));
		for (i = 0; i < page.n; i++)
			if (!pq_s3_upload_page_add(out, page.uploads[i].key,
									   page.uploads[i].upload_id,
									   page.uploads[i].initiated, &why))
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("could not list the multipart uploads of \"%s\": %s",
								display, why)));
		if (page.truncated && key_marker &&
			strcmp(key_marker, page.next_key_marker) == 0 &&
			strcmp(id_marker ? id_marker : "",
				   page.next_upload_id_marker ? page.next_upload_id_marker : "") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_IO_ERROR),
					 errmsg("could not list the multipart uploads of \"%s\": the store gave the same markers twice",
							display)));
		key_marker = page.truncated ? page.next_key_marker : NULL;
		id_marker = page.next_upload_id_marker;
	} while (key_marker);
}
