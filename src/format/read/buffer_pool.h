/*-------------------------------------------------------------------------
 *
 * buffer_pool.h
 *		Where readers take their large buffers.
 *
 * A row group's column chunk, a decompressed page or a dictionary kept for
 * a row group takes megabytes.  Readers take such buffers from the pool
 * the extension installs and give them back when their memory context is
 * reset or deleted: the scan keeps freed ones for the next reader, so their
 * pages are not faulted in again for every chunk and every query.  NULL
 * (unit tests, fuzzers): the readers' memory contexts.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_BUFFER_POOL_H
#define PQ_BUFFER_POOL_H

#include "format/common/pq_common.h"

typedef struct PqBufferPool
{
	uint8	   *(*get) (size_t size, size_t *cap);
	void		(*put) (uint8 *buf, size_t cap);
} PqBufferPool;

extern const PqBufferPool *pq_buffer_pool;

/*
 * A buffer of size bytes: *buf, grown from the pool (*cap its capacity),
 * when there is a pool, else an allocation in cxt.  Its contents are not
 * kept.  The owner gives *buf back to the pool when it goes.
 */
extern uint8 *pq_pooled_buffer(uint8 **buf, size_t *cap, MemoryContext cxt,
							   size_t size);

/*
 * Call func(arg) when cxt is reset or deleted, if there is a pool: the
 * owner's buffers go back to it then (also on error).
 */
extern void pq_buffer_pool_on_reset(MemoryContext cxt,
									MemoryContextCallbackFunction func,
									void *arg);

#endif							/* PQ_BUFFER_POOL_H */
