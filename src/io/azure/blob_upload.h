/*-------------------------------------------------------------------------
 *
 * blob_upload.h
 *		Writing block blobs: a whole blob in one Put Blob, or blocks (Put
 *		Block) committed by Put Block List; deleting blobs.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_BLOB_UPLOAD_H
#define PQ_IO_BLOB_UPLOAD_H

#include "io/azure/blob_client.h"

/* Most blocks of a blob. */
#define PQ_BLOB_MAX_BLOCKS 50000

/* container/blob := the len bytes at data, in one Put Blob. */
extern void pq_blob_put(const PqAzureConfig *c, const char *container,
						const char *blob, const char *display,
						const void *data, size_t len, const char *content_type);

/*
 * A random tag for the block ids of one upload, so that blocks another
 * writer of the blob puts meanwhile never get the same ids.
 */
extern char *pq_blob_block_tag(void);

/*
 * The id of block number n (from 1) of an upload named by tag (the same
 * length for every n, as Azure requires of a blob's blocks), base64.
 */
extern char *pq_blob_block_id(const char *tag, int n);

/*
 * Put Block of the len bytes at data (which must live until it is done)
 * as block_id; with background, started and left to go on.
 */
extern PqHttpRequest *pq_blob_put_block(const PqAzureConfig *c,
										const char *container,
										const char *blob, const char *display,
										const char *block_id,
										const void *data, size_t len,
										PqHttpBatch **background);

/*
 * Put Block List: the blob becomes these blocks, in order, at once (with
 * background, started and left to go on).
 */
extern void pq_blob_put_block_list(const PqAzureConfig *c,
								   const char *container, const char *blob,
								   const char *display,
								   char *const *block_ids, int n,
								   const char *content_type,
								   PqHttpBatch **background);

/* Delete Blob, one attempt, never an ERROR: true when it is gone. */
extern bool pq_blob_delete_quietly(const PqAzureConfig *c,
								   const char *container, const char *blob,
								   const char *display, long timeout_ms);

/* Delete Blob of each name, all in flight together; a missing one is fine. */
extern void pq_blob_delete(const PqAzureConfig *c, const char *container,
						   const char *const *blobs, int n,
						   const char *const *displays);

#endif							/* PQ_IO_BLOB_UPLOAD_H */
