/*-------------------------------------------------------------------------
 *
 * buffer_pool.c
 *		The pool readers take large buffers from (buffer_pool.h); the
 *		extension sets it, the format layer's own tools leave it NULL.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/read/buffer_pool.h"
#include "utils/memutils.h"

const PqBufferPool *pq_buffer_pool = NULL;

uint8 *
pq_pooled_buffer(uint8 **buf, size_t *cap, MemoryContext cxt, size_t size)
{
	size = Max(size, 1);
	if (pq_buffer_pool == NULL)
		return MemoryContextAllocHuge(cxt, size);
	if (*cap < size)
	{
		uint8	   *old = *buf;
		size_t		old_cap = *cap;

		*buf = NULL;
		*cap = 0;
		if (old)
			pq_buffer_pool->put(old, old_cap);
		*buf = pq_buffer_pool->get(size, cap);
	}
	return *buf;
}

void
pq_buffer_pool_on_reset(MemoryContext cxt, MemoryContextCallbackFunction func,
						void *arg)
{
	MemoryContextCallback *cb;

	if (pq_buffer_pool == NULL)
		return;
	cb = MemoryContextAllocZero(cxt, sizeof(MemoryContextCallback));
	cb->func = func;
	cb->arg = arg;
	MemoryContextRegisterResetCallback(cxt, cb);
}
