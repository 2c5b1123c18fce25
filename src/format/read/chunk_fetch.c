/*-------------------------------------------------------------------------
 *
 * chunk_fetch.c
 *		Read a row group's adjacent column chunks with one read each run,
 *		all runs at once where the source can
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

/*
 * The runs of readers[0, n)'s chunks in row_group into run_start and
 * run_len (n entries each at most), slots sorted by offset and run_of[i]
 * the run of slots[i]: chunks each starting where the run before ends, or
 * within the source's coalesce_gap of it (the gap's bytes are read and
 * skipped).  Chunks are inside the data area, so a run's length fits.
 * Returns the number of runs; *total is their bytes.
 */
static int
plan_runs(PqColumnReader **readers, int n, int row_group, ChunkSlot *slots,
		  int64 *run_start, size_t *run_len, int *run_of, size_t *total)
{
	PqSource   *src = readers[0]->file->src;
	int			nruns = 0;
	int64		slack;
	int			i;

	*total = 0;
	for (i = 0; i < n; i++)
	{
		slots[i].reader = readers[i];
		pq_file_chunk_range(readers[i]->file, row_group,
							readers[i]->col->index, &slots[i].start,
							&slots[i].len, &slack);
	}
	qsort(slots, n, sizeof(ChunkSlot), slot_cmp);
	for (i = 0; i < n; i++)
	{
		int64		end = slots[i].start + slots[i].len;
		int64		run_end = nruns > 0 ?
		run_start[nruns - 1] + (int64) run_len[nruns - 1] : 0;

		if (nruns > 0 && slots[i].start >= run_end &&
			slots[i].start - run_end <= src->coalesce_gap)
		{
			*total += end - run_end;
			run_len[nruns - 1] = end - run_start[nruns - 1];
		}
		else
		{
			/* overlapping chunks (a malformed file) get runs of their own */
			run_start[nruns] = slots[i].start;
			run_len[nruns++] = slots[i].len;
			*total += slots[i].len;
		}
		if (run_of)
			run_of[i] = nruns - 1;
	}
	return nruns;
}

void
pq_chunk_fetch_start(PqChunkFetch *cf, PqColumnReader **readers, int n,
					 int row_group)
{
	PqSource   *src;
	ChunkSlot  *slots;
	int64	   *run_start;
	size_t	   *run_len;
	uint8	  **run_buf;
	int		   *run_of;
	int			nruns;
	size_t		total;
	uint8	   *buf;
	int			i;

	if (n == 0)
		return;
	src = readers[0]->file->src;
	slots = palloc(sizeof(ChunkSlot) * n);
	run_start = palloc(sizeof(int64) * n);
	run_len = palloc(sizeof(size_t) * n);
	run_buf = palloc(sizeof(uint8 *) * n);
	run_of = palloc(sizeof(int) * n);
	nruns = plan_runs(readers, n, row_group, slots, run_start, run_len, run_of,
					  &total);
	buf = pq_pooled_buffer(&cf->buf, &cf->cap, cf->cxt, total);
	total = 0;
	for (i = 0; i < nruns; i++)
	{
		run_buf[i] = buf + total;
		total += run_len[i];
	}
	if (src->read_many != NULL && nruns > 1)
		src->read_many(src, nruns, run_start, run_len, run_buf);
	else
		for (i = 0; i < nruns; i++)
			src->read(src, run_start[i], run_len[i], run_buf[i]);
	for (i = 0; i < n; i++)
		pq_column_reader_start_bytes(slots[i].reader, row_group,
									 run_buf[run_of[i]] +
									 (slots[i].start - run_start[run_of[i]]));
	pfree(slots);
	pfree(run_start);
	pfree(run_len);
	pfree(run_buf);
	pfree(run_of);
}

int
pq_chunk_fetch_prefetch(PqColumnReader **readers, int n,
						const int *row_groups, int nrg, size_t budget,
						bool background)
{
	PqSource   *src;
	ChunkSlot  *slots;
	int64	   *run_start;
	size_t	   *run_len;
	int			nruns = 0;
	size_t		bytes = 0;
	int			g;

	if (n == 0 || nrg == 0 || readers[0]->file->src->prefetch == NULL)
		return 0;
	src = readers[0]->file->src;
	slots = palloc(sizeof(ChunkSlot) * n);
	run_start = palloc(sizeof(int64) * n * nrg);
	run_len = palloc(sizeof(size_t) * n * nrg);
	for (g = 0; g < nrg; g++)
	{
		size_t		total;
		int			k = plan_runs(readers, n, row_groups[g], slots,
								  run_start + nruns, run_len + nruns, NULL,
								  &total);

		/* the first row group always; the others while the budget lasts */
		if (g > 0 && bytes + total > budget)
			break;
		nruns += k;
		bytes += total;
	}
	src->prefetch(src, nruns, run_start, run_len, background);
	pfree(slots);
	pfree(run_start);
	pfree(run_len);
	return g;
}
