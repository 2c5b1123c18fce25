/*-------------------------------------------------------------------------
 *
 * chunk_fetch.h
 *		Starting the column readers of one row group with their chunks read
 *		together.
 *
 * Writers put a row group's column chunks back to back, so the chunks a
 * query needs are often adjacent: each run of adjacent chunks is read with
 * one read instead of one per column.  Only adjacent chunks are merged, so
 * no byte the readers do not need is read.  On files of a few thousand
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

#endif							/* PQ_CHUNK_FETCH_H */
