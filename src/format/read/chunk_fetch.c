/*-------------------------------------------------------------------------
 *
 * chunk_fetch.c
 *		Read a row group's adjacent column chunks with one read each run
 *		(chunk_fetch.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/read/buffer_pool.h"
#include "format/read/chunk_fetch.h"
#include "utils/memutils.h"

struct PqChunkFetch
{
	MemoryContext cxt;
	uint8	   *buf;
	size_t		cap;
};

/* One reader's chunk: where it is in the file and in the buffer. */
typedef struct ChunkSlot
{
	PqColumnReader *reader;
	int64		start;
	int64		len;
} ChunkSlot;

static void
give_back_buffer(void *arg)
{
	PqChunkFetch *cf = arg;

	if (cf->buf)
		pq_buffer_pool->put(cf->buf, cf->cap);
	cf->buf = NULL;
	cf->cap = 0;
}

PqChunkFetch *
pq_chunk_fetch_create(MemoryContext cxt)
{
	PqChunkFetch *cf = MemoryContextAllocZero(cxt, sizeof(PqChunkFetch));

	cf->cxt = cxt;
	pq_buffer_pool_on_reset(cxt, give_back_buffer, cf);
	return cf;
}

static int
slot_cmp(const void *a, const void *b)
{
	const ChunkSlot *x = a;
	const ChunkSlot *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void
pq_chunk_fetch_start(PqChunkFetch *cf, PqColumnReader **readers, int n,
					 int row_group)
{
	ChunkSlot  *slots;
	size_t		total = 0;
	uint8	   *buf;
	size_t		off;
	int64		slack;
	int			i;

	slots = palloc(sizeof(ChunkSlot) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		slots[i].reader = readers[i];
		pq_file_chunk_range(readers[i]->file, row_group,
							readers[i]->col->index, &slots[i].start,
							&slots[i].len, &slack);
		/* each is inside the data area, so the sum fits */
		total += slots[i].len;
	}
	qsort(slots, n, sizeof(ChunkSlot), slot_cmp);
	buf = pq_pooled_buffer(&cf->buf, &cf->cap, cf->cxt, total);

	/* runs of chunks each starting where the one before ends */
	off = 0;
	for (i = 0; i < n;)
	{
		int			j = i + 1;
		int64		end = slots[i].start + slots[i].len;
		PqSource   *src = slots[i].reader->file->src;

		while (j < n && slots[j].start == end)
			end += slots[j++].len;
		src->read(src, slots[i].start, end - slots[i].start, buf + off);
		for (; i < j; i++)
		{
			pq_column_reader_start_bytes(slots[i].reader, row_group, buf + off);
			off += slots[i].len;
		}
	}
	pfree(slots);
}
