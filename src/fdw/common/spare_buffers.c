/*-------------------------------------------------------------------------
 *
 * spare_buffers.c
 *		The backend's spare large buffers for column readers
 *		(pq_buffer_pool of format/read/buffer_pool.h).
 *
 * A column chunk or a decompressed page takes megabytes; allocated afresh,
 * each is a new mapping whose pages fault in on first write, which cost a
 * point lookup more than decompressing its pages.  Readers give their
 * buffers back here when their memory context goes, and the next reader,
 * in this query or the next, takes the smallest that fits.  At most
 * POOL_BUFFERS buffers and POOL_BYTES bytes are kept; the rest are freed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/spare_buffers.h"
#include "utils/memutils.h"

#define POOL_BUFFERS 16
#define POOL_BYTES ((size_t) 64 * 1024 * 1024)
/* sizes are rounded up so that slightly larger pages reuse a buffer */
#define POOL_ROUND ((size_t) 64 * 1024)

typedef struct SpareBuffer
{
	uint8	   *buf;
	size_t		cap;
} SpareBuffer;

static MemoryContext pool_cxt = NULL;
static SpareBuffer spares[POOL_BUFFERS];
static int	nspares = 0;
static size_t spare_bytes = 0;

static uint8 *
pool_get(size_t size, size_t *cap)
{
	int			best = -1;
	int			i;
	uint8	   *buf;

	for (i = 0; i < nspares; i++)
		if (spares[i].cap >= size &&
			(best < 0 || spares[i].cap < spares[best].cap))
			best = i;
	if (best >= 0)
	{
		buf = spares[best].buf;
		*cap = spares[best].cap;
		spare_bytes -= *cap;
		spares[best] = spares[--nspares];
		return buf;
	}
	if (pool_cxt == NULL)
		pool_cxt = AllocSetContextCreate(TopMemoryContext,
										 "parquet_fdw reader buffers",
										 ALLOCSET_DEFAULT_SIZES);
	size = (size + POOL_ROUND - 1) / POOL_ROUND * POOL_ROUND;
	buf = MemoryContextAllocHuge(pool_cxt, size);
	*cap = size;
	return buf;
}

static void
pool_put(uint8 *buf, size_t cap)
{
	if (nspares < POOL_BUFFERS && spare_bytes + cap <= POOL_BYTES)
	{
		spares[nspares].buf = buf;
		spares[nspares].cap = cap;
		nspares++;
		spare_bytes += cap;
	}
	else
		pfree(buf);
}

const PqBufferPool pqfdw_buffer_pool = {pool_get, pool_put};
