/*-------------------------------------------------------------------------
 *
 * s3_upload.h
 *		Writing S3 objects: a whole object in one PUT, multipart uploads,
 *		deleting objects.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_S3_UPLOAD_H
#define PQ_IO_S3_UPLOAD_H

#include "io/aws/s3_client.h"

/* Smallest part but the last, and most parts, of a multipart upload. */
#define PQ_S3_MIN_PART (5 * 1024 * 1024)
#define PQ_S3_MAX_PARTS 10000

/* bucket/key := the len bytes at data, in one PUT. */
extern void pq_s3_put_object(const PqS3Config *c, const char *bucket,
							 const char *key, const char *display,
							 const void *data, size_t len,
							 const char *content_type);

/*
 * CreateMultipartUpload, run now or (with background) started; then
 * _id gives the new upload's UploadId from the finished request.
 */
extern PqHttpRequest *pq_s3_create_upload_start(const PqS3Config *c,
												const char *bucket,
												const char *key,
												const char *display,
												const char *content_type,
												PqHttpBatch **background);
extern char *pq_s3_create_upload_id(const PqHttpRequest *r,
									const char *display);

/*
 * UploadPart number part (from 1) of the len bytes at data, which must
 * live until it is done; with background, started and left to go on
 * (io/http/http.h).  The returned request's etag is the part's once done.
 */
extern PqHttpRequest *pq_s3_upload_part(const PqS3Config *c, const char *bucket,
										const char *key, const char *display,
										const char *upload_id, int part,
										const void *data, size_t len,
										PqHttpBatch **background);

/*
 * CompleteMultipartUpload of parts 1..nparts with their ETags, started
 * (background) or run; then _check the answer: the object (size bytes)
 * has appeared, else an ERROR, even for a 200 (S3 may report errors so).
 */
extern PqHttpRequest *pq_s3_complete_upload_start(const PqS3Config *c,
												  const char *bucket,
												  const char *key,
												  const char *display,
												  const char *upload_id,
												  int nparts,
												  char *const *etags,
												  PqHttpBatch **background);
extern void pq_s3_complete_upload_check(const PqS3Config *c,
										const char *bucket, const char *key,
										const char *display,
										const PqHttpRequest *r, int64 size);

/* AbortMultipartUpload; an upload the store does not know is fine. */
extern void pq_s3_abort_upload(const PqS3Config *c, const char *bucket,
							   const char *key, const char *display,
							   const char *upload_id);

/*
 * The same, one attempt within timeout_ms and never an ERROR (cleanup on
 * an error or at exit): true when the store confirmed it.
 */
extern bool pq_s3_abort_upload_quietly(const PqS3Config *c, const char *bucket,
									   const char *key, const char *display,
									   const char *upload_id, long timeout_ms);

/* DELETE of key, as pq_s3_abort_upload_quietly: true when it is gone. */
extern bool pq_s3_delete_object_quietly(const PqS3Config *c, const char *bucket,
										const char *key, const char *display,
										long timeout_ms);

/* DELETE of each key (displays[i] names it), all in flight together. */
extern void pq_s3_delete_objects(const PqS3Config *c, const char *bucket,
								 const char *const *keys, int n,
								 const char *const *displays);

/* Every multipart upload in progress below prefix, all pages. */
extern void pq_s3_list_uploads(const PqS3Config *c, const char *bucket,
							   const char *prefix, const char *display,
							   PqS3UploadPage *out);

#endif							/* PQ_IO_S3_UPLOAD_H */
