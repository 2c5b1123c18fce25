/*-------------------------------------------------------------------------
 *
 * chunk_fetch.h
 *		Starting the column readers of one row group with their chunks read
 *		together.
 *
 * Writers put a row group's column chunks back to back, so the chunks a
 * query needs are often adjacent: each run of adjacent chunks is read with
 * one read instead of one per column.  For local files only adjacent
 * chunks are merged, so no byte the readers do not need is read; sources
 * that pay per request merge chunks up to their coalesce_gap apart and
 * read all runs together.  On files of a few thousand
 * rows the read calls, not the bytes, are what a scan pays per file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_CHUNK_FETCH_H
#define PQ_CHUNK_FETCH_H

#include "format/read/column_reader.h"

typedef struct PqChunkFetch PqChunkFetch;

/* A fetch buffer in cxt, given back to the buffer pool when cxt goes. */
extern PqChunkFetch *pq_chunk_fetch_create(MemoryContext cxt);

/*
 * Start readers[0, n), all of one file, on row_group as
 * pq_column_reader_start() would.  Their chunks live in cf's buffer until
 * the next call: every reader this call started must be started again or
 * released before a reader of the next call reads.
 */
extern void pq_chunk_fetch_start(PqChunkFetch *cf, PqColumnReader **readers,
								 int n, int row_group);

/*
 * Sources that pay per request: fetch the chunks readers[0, n) will read in
 * row_groups[0, nrg) (in the order the scan enters them) in one batch, for
 * now or for later (background; PqSource.prefetch), as far as budget bytes allow
 * (the first always).  Returns how many row groups the batch covers; 0
 * when the source reads cheaply anyway.
 */
extern int	pq_chunk_fetch_prefetch(PqColumnReader **readers, int n,
									const int *row_groups, int nrg,
									size_t budget, bool background);

#endif							/* PQ_CHUNK_FETCH_H */
