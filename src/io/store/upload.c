/*-------------------------------------------------------------------------
 *
 * upload.c
 *		Objects written in parts to the client of their scheme: S3
 *		multipart uploads (and GCS's, which its XML API has too) or Azure
 *		block blobs.
 *
 * Parts go out in the background, in order; the caller bounds how many
 * are in flight by waiting for the oldest.  The object appears only when
 * the upload is completed (CompleteMultipartUpload, Put Block List), so a
 * reader never sees part of it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/http/response.h"
#include "io/store/upload.h"
#include "utils/memutils.h"

typedef struct StorePart
{
	const void *data;
	size_t		len;
	PqHttpRequest *req;			/* NULL until started */
	PqHttpBatch *batch;			/* NULL once done */
} StorePart;

struct PqStoreUpload
{
	const PqUrl *u;
	bool		s3;
	PqS3Config	s3c;
	PqAzureConfig azc;
	MemoryContext cxt;			/* what lives as long as the upload */
	MemoryContext requests;		/* requests in flight, or NULL */
	PqHttpRequest *create;		/* S3: CreateMultipartUpload, in flight */
	PqHttpBatch *create_batch;
	char	   *upload_id;		/* S3: once the create has its answer */
	char	   *block_tag;		/* Azure: names this upload's blocks */
	StorePart  *parts;
	char	  **ids;			/* per part: S3's ETag, Azure's block id */
	int			nparts;
	int			cap;
	int			nstarted;		/* parts from here on wait for the UploadId */
	int			oldest;			/* first part not known to be done */
	int			handed_back;	/* parts whose data went back to the caller */
	int64		size;
	PqHttpRequest *complete;	/* the completing request, once started */
	PqHttpBatch *complete_batch;
	bool		completed;		/* the object has appeared */
	MemoryContextCallback on_delete;
};

static void
delete_requests(void *arg)
{
	PqStoreUpload *up = (PqStoreUpload *) arg;

	if (up->requests)
		MemoryContextDelete(up->requests);
	up->requests = NULL;
}

/*
 * Where requests go: made when one starts, deleted when none is left, so
 * that a closed file keeps only what completing it needs.  Not a child of
 * cxt: a callback on cxt registered after begin (the caller's abort) runs
 * before delete_requests() and still finds them.
 */
static MemoryContext
requests_cxt(PqStoreUpload *up)
{
	if (up->requests == NULL)
		up->requests = AllocSetContextCreate(TopMemoryContext,
											 "parquet_fdw upload requests",
											 ALLOCSET_SMALL_SIZES);
	return up->requests;
}

PqStoreUpload *
pq_store_upload_begin(const PqStoreConfig *c, const PqUrl *u)
{
	PqStoreUpload *up = palloc0(sizeof(PqStoreUpload));

	up->u = u;
	if (pq_store_is_s3(u))
	{
		up->s3 = true;
		up->s3c = pq_store_s3_config(c, u);
	}
	else if (pq_store_is_azure(u))
		up->azc = pq_store_azure_config(c, u);
	else
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot write \"%s\": HTTP servers take no uploads",
						u->display),
				 errhint("Write to an s3://, gs://, az:// or abfss:// URL.")));
	if (u->key[0] == '\0' || u->key[strlen(u->key) - 1] == '/')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot write \"%s\": it names no object", u->display),
				 errhint("Name the object after the bucket, as in s3://bucket/file.parquet.")));
	up->cxt = CurrentMemoryContext;
	up->on_delete.func = delete_requests;
	up->on_delete.arg = up;
	MemoryContextRegisterResetCallback(up->cxt, &up->on_delete);
	return up;
}

/*
 * Start the parts that wait for the UploadId, once the create has its
 * answer; with wait, waiting for it.
 */
static void
start_parts(PqStoreUpload *up, bool wait)
{
	MemoryContext old;

	if (up->nstarted == up->nparts)
		return;
	old = MemoryContextSwitchTo(requests_cxt(up));
	if (up->s3 && up->upload_id == NULL)
	{
		if (!wait && !pq_http_batch_poll(up->create_batch))
		{
			MemoryContextSwitchTo(old);
			return;
		}
		pq_http_batch_wait(up->create_batch);
		up->create_batch = NULL;
		up->upload_id = MemoryContextStrdup(up->cxt,
											pq_s3_create_upload_id(up->create,
																   up->u->display));
		up->create = NULL;
	}
	for (; up->nstarted < up->nparts; up->nstarted++)
	{
		StorePart  *p = &up->parts[up->nstarted];

		if (up->s3)
			p->req = pq_s3_upload_part(&up->s3c, up->u->bucket, up->u->key,
									   up->u->display, up->upload_id,
									   up->nstarted + 1, p->data, p->len,
									   &p->batch);
		else
			p->req = pq_blob_put_block(&up->azc, up->u->bucket, up->u->key,
									   up->u->display, up->ids[up->nstarted],
									   p->data, p->len, &p->batch);
	}
	MemoryContextSwitchTo(old);
}

/* The oldest part not done has its answer: take its ETag. */
static void
take_oldest(PqStoreUpload *up)
{
	StorePart  *p = &up->parts[up->oldest];

	if (up->oldest >= up->nstarted)
		start_parts(up, true);
	pq_http_batch_wait(p->batch);
	p->batch = NULL;
	if (up->s3)
	{
		if (p->req->etag == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_IO_ERROR),
					 errmsg("could not write \"%s\": the store gave no ETag for part %d",
							up->u->display, up->oldest + 1)));
		up->ids[up->oldest] = MemoryContextStrdup(up->cxt, p->req->etag);
	}
	p->req = NULL;
	up->oldest++;
	if (up->oldest == up->nparts)
		delete_requests(up);
}

void
pq_store_upload_part(PqStoreUpload *up, const void *data, size_t len)
{
	StorePart  *p;
	MemoryContext old;
	int			n = up->nparts + 1;

	if (n > (up->s3 ? PQ_S3_MAX_PARTS : PQ_BLOB_MAX_BLOCKS))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("could not write \"%s\": it would need more than %d parts",
						up->u->display,
						up->s3 ? PQ_S3_MAX_PARTS : PQ_BLOB_MAX_BLOCKS),
				 errhint("Raise the COPY option part_size, or split the output with file_size_bytes.")));
	old = MemoryContextSwitchTo(up->cxt);
	if (up->nparts == up->cap)
	{
		up->cap = Max(4, up->cap * 2);
		up->parts = up->parts ? repalloc(up->parts, sizeof(StorePart) * up->cap) :
			palloc(sizeof(StorePart) * up->cap);
		up->ids = up->ids ? repalloc(up->ids, sizeof(char *) * up->cap) :
			palloc(sizeof(char *) * up->cap);
	}
	p = &up->parts[up->nparts];
	p->data = data;
	p->len = len;
	p->req = NULL;
	p->batch = NULL;
	up->ids[up->nparts] = NULL;
	if (!up->s3)
	{
		if (up->block_tag == NULL)
			up->block_tag = pq_blob_block_tag();
		up->ids[up->nparts] = pq_blob_block_id(up->block_tag, n);
	}
	MemoryContextSwitchTo(old);
	if (up->s3 && up->upload_id == NULL && up->create == NULL)
	{
		/* the parts wait for the UploadId; the writer goes on meanwhile */
		old = MemoryContextSwitchTo(requests_cxt(up));
		up->create = pq_s3_create_upload_start(&up->s3c, up->u->bucket,
											   up->u->key, up->u->display,
											   NULL, &up->create_batch);
		MemoryContextSwitchTo(old);
	}
	up->nparts++;
	up->size += len;
	start_parts(up, false);
}

int
pq_store_upload_in_flight(PqStoreUpload *up)
{
	start_parts(up, false);
	while (up->oldest < up->nstarted &&
		   pq_http_batch_poll(up->parts[up->oldest].batch))
		take_oldest(up);
	return up->nparts - up->oldest;
}

void
pq_store_upload_wait_oldest(PqStoreUpload *up)
{
	Assert(up->oldest < up->nparts);
	take_oldest(up);
}

const void *
pq_store_upload_free_buffer(PqStoreUpload *up)
{
	if (up->handed_back == up->oldest)
		return NULL;
	return up->parts[up->handed_back++].data;
}

void
pq_store_upload_complete_start(PqStoreUpload *up, const char *content_type)
{
	MemoryContext old;

	while (up->oldest < up->nparts)
		take_oldest(up);
	old = MemoryContextSwitchTo(requests_cxt(up));
	if (up->s3)
		up->complete = pq_s3_complete_upload_start(&up->s3c, up->u->bucket,
												   up->u->key, up->u->display,
												   up->upload_id, up->nparts,
												   up->ids,
												   &up->complete_batch);
	else
		pq_blob_put_block_list(&up->azc, up->u->bucket, up->u->key,
							   up->u->display, up->ids, up->nparts,
							   content_type, &up->complete_batch);
	MemoryContextSwitchTo(old);
}

void
pq_store_upload_complete_end(PqStoreUpload *up)
{
	MemoryContext old = MemoryContextSwitchTo(requests_cxt(up));

	pq_http_batch_wait(up->complete_batch);
	up->complete_batch = NULL;
	up->completed = true;
	if (up->s3)
		pq_s3_complete_upload_check(&up->s3c, up->u->bucket, up->u->key,
									up->u->display, up->complete, up->size);
	up->complete = NULL;
	MemoryContextSwitchTo(old);
	delete_requests(up);
}

void
pq_store_upload_complete(PqStoreUpload *up, const char *content_type)
{
	pq_store_upload_complete_start(up, content_type);
	pq_store_upload_complete_end(up);
}

/*
 * A create in flight may have made an upload already: its answer, awaited
 * quietly, gives the UploadId to abort.
 */
static void
finish_create_quietly(PqStoreUpload *up, long timeout_ms)
{
	MemoryContext old;

	if (up->create_batch == NULL)
		return;
	old = MemoryContextSwitchTo(requests_cxt(up));
	if (pq_http_batch_finish_quietly(up->create_batch, timeout_ms) == 200)
	{
		char	   *id = pq_xml_element_text(up->create->body.data,
											 up->create->body.len,
											 "UploadId", 1024);

		if (id && id[0] != '\0' && strchr(id, '?') == NULL)
			up->upload_id = MemoryContextStrdup(up->cxt, id);
	}
	up->create_batch = NULL;
	up->create = NULL;
	MemoryContextSwitchTo(old);
}

bool
pq_store_upload_abort_quietly(PqStoreUpload *up, long timeout_ms)
{
	int			i;

	for (i = up->oldest; i < up->nstarted; i++)
		if (up->parts[i].batch)
		{
			pq_http_batch_cancel(up->parts[i].batch);
			up->parts[i].batch = NULL;
		}
	up->oldest = up->nstarted = up->nparts;
	finish_create_quietly(up, timeout_ms);
	if (up->complete_batch || up->completed)
	{
		/* the object may have appeared already: delete it */
		if (up->complete_batch)
			pq_http_batch_cancel(up->complete_batch);
		up->complete_batch = NULL;
		if (up->s3)
			return pq_s3_abort_upload_quietly(&up->s3c, up->u->bucket,
											  up->u->key, up->u->display,
											  up->upload_id, timeout_ms) &&
				pq_s3_delete_object_quietly(&up->s3c, up->u->bucket,
											up->u->key, up->u->display,
											timeout_ms);
		return pq_blob_delete_quietly(&up->azc, up->u->bucket, up->u->key,
									  up->u->display, timeout_ms);
	}
	if (!up->s3 || up->upload_id == NULL)
		return true;
	return pq_s3_abort_upload_quietly(&up->s3c, up->u->bucket, up->u->key,
									  up->u->display, up->upload_id,
									  timeout_ms);
}

void
pq_store_put(const PqStoreConfig *c, const PqUrl *u, const void *data,
			 size_t len, const char *content_type)
{
	if (pq_store_is_s3(u))
	{
		PqS3Config	s = pq_store_s3_config(c, u);

		pq_s3_put_object(&s, u->bucket, u->key, u->display, data, len,
						 content_type);
	}
	else if (pq_store_is_azure(u))
	{
		PqAzureConfig a = pq_store_azure_config(c, u);

		pq_blob_put(&a, u->bucket, u->key, u->display, data, len,
					content_type);
	}
	else
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot write \"%s\": HTTP servers take no uploads",
						u->display)));
}

void
pq_store_delete(const PqStoreConfig *c, PqUrl *const *us, int n)
{
	const char **keys = palloc(sizeof(char *) * Max(n, 1));
	const char **displays = palloc(sizeof(char *) * Max(n, 1));
	int			i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
	{
		if (us[i]->scheme != us[0]->scheme ||
			strcmp(us[i]->bucket ? us[i]->bucket : "",
				   us[0]->bucket ? us[0]->bucket : "") != 0)
			elog(ERROR, "objects deleted together must share a bucket");
		keys[i] = us[i]->key;
		displays[i] = us[i]->display;
	}
	if (pq_store_is_s3(us[0]))
	{
		PqS3Config	s = pq_store_s3_config(c, us[0]);

		pq_s3_delete_objects(&s, us[0]->bucket, keys, n, displays);
	}
	else if (pq_store_is_azure(us[0]))
	{
		PqAzureConfig a = pq_store_azure_config(c, us[0]);

		pq_blob_delete(&a, us[0]->bucket, keys, n, displays);
	}
	else
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot delete \"%s\": HTTP servers take no deletions",
						us[0]->display)));
}

void
pq_store_list_uploads(const PqStoreConfig *c, const PqUrl *u,
					  PqS3UploadPage *out)
{
	PqS3Config	s;

	if (!pq_store_is_s3(u))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" is not in a store with multipart uploads",
						u->display),
				 errhint("Only s3:// and gs:// stores keep unfinished uploads; Azure discards uncommitted blocks after a week.")));
	s = pq_store_s3_config(c, u);
	pq_s3_list_uploads(&s, u->bucket, u->key, u->display, out);
}

void
pq_store_abort_upload(const PqStoreConfig *c, const PqUrl *u,
					  const char *upload_id)
{
	PqS3Config	s = pq_store_s3_config(c, u);

	Assert(pq_store_is_s3(u));
	pq_s3_abort_upload(&s, u->bucket, u->key, u->display, upload_id);
}
