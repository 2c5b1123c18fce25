/*-------------------------------------------------------------------------
 *
 * upload.h
 *		Writing objects of any store: an object in one request, or in
 *		parts sent while the next is made (S3 multipart uploads, Azure
 *		blocks) that appear together at the end; deleting objects; the
 *		uploads a store still holds.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_UPLOAD_H
#define PQ_IO_UPLOAD_H

#include "io/aws/s3_upload.h"
#include "io/azure/blob_upload.h"
#include "io/store/store.h"

/* Smallest part but the last: S3's (Azure has none). */
#define PQ_STORE_MIN_PART PQ_S3_MIN_PART

typedef struct PqStoreUpload PqStoreUpload;

/*
 * An object written in parts to u (s3://, gs://, az://, abfss://; an ERROR
 * for http(s)://).  Nothing is sent until the first part.  c's strings
 * and u must live as long as the upload, which belongs to the current
 * memory context.
 */
extern PqStoreUpload *pq_store_upload_begin(const PqStoreConfig *c,
											const PqUrl *u);

/*
 * Start the next part: len bytes at data, which must live until the part
 * is done (pq_store_upload_free_buffer hands it back).  Every part but the
 * last must hold PQ_STORE_MIN_PART bytes or more.  The parts wait for the
 * upload's CreateMultipartUpload, started with the first, in the
 * background.  A callback on the upload's memory context registered after
 * begin still finds its requests there (to abort it).
 */
extern void pq_store_upload_part(PqStoreUpload *up, const void *data,
								 size_t len);

/* Parts started and not yet done (moves them on, never waits). */
extern int	pq_store_upload_in_flight(PqStoreUpload *up);

/* Wait for the oldest part not yet done. */
extern void pq_store_upload_wait_oldest(PqStoreUpload *up);

/* The data of a part done not yet handed back, oldest first, or NULL. */
extern const void *pq_store_upload_free_buffer(PqStoreUpload *up);

/* Wait for every part, then make the object appear, whole, at once. */
extern void pq_store_upload_complete(PqStoreUpload *up,
									 const char *content_type);

/*
 * The same in two steps, so that many objects' completions are in flight
 * together: _start waits for the parts and starts the request, _end waits
 * for its answer (an ERROR if the object did not appear).
 */
extern void pq_store_upload_complete_start(PqStoreUpload *up,
										   const char *content_type);
extern void pq_store_upload_complete_end(PqStoreUpload *up);

/*
 * Stop the parts in flight and drop those sent (S3: AbortMultipartUpload;
 * Azure keeps uncommitted blocks, invisible, for a week); an object whose
 * completion was started is deleted.  One attempt per request within
 * timeout_ms, never an ERROR: true when nothing is left behind.
 */
extern bool pq_store_upload_abort_quietly(PqStoreUpload *up, long timeout_ms);

/* u := the len bytes at data, in one request. */
extern void pq_store_put(const PqStoreConfig *c, const PqUrl *u,
						 const void *data, size_t len,
						 const char *content_type);

/* Delete the n objects (of one bucket), all in flight together. */
extern void pq_store_delete(const PqStoreConfig *c, PqUrl *const *us, int n);

/*
 * The multipart uploads in progress below u's key (S3 and GCS; an ERROR
 * for other stores, which have none to list).
 */
extern void pq_store_list_uploads(const PqStoreConfig *c, const PqUrl *u,
								  PqS3UploadPage *out);

/* AbortMultipartUpload of upload_id of the object u. */
extern void pq_store_abort_upload(const PqStoreConfig *c, const PqUrl *u,
								  const char *upload_id);

#endif							/* PQ_IO_UPLOAD_H */
