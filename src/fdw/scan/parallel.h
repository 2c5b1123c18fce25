/*-------------------------------------------------------------------------
 *
 * parallel.h
 *		The shared state of a parallel foreign scan (parallel.c): a cursor
 *		over the units of the table (row groups, or pieces of row groups
 *		when there are too few) that every process takes its next unit
 *		from, and the scan's counters summed over the workers for EXPLAIN
 *		ANALYZE.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PARALLEL_H
#define PQFDW_PARALLEL_H

#include "fdw/common/footer_cache.h"
#include "fdw/common/source.h"
#include "fdw/dataset/dataset.h"
#include "fdw/prune/pruner.h"
#include "format/read/file_crypto.h"
#include "nodes/pg_list.h"
#include "port/atomics.h"

/* Counters of a scan that EXPLAIN ANALYZE shows, summed over processes. */
typedef enum PqScanCounter
{
	PQFDW_COUNT_ROWS_FILTERED,
	PQFDW_COUNT_ROWS_SELECTED_OUT,	/* by a row selector */
	PQFDW_COUNT_ROWS_DELETED,	/* by deletion vectors */
	PQFDW_COUNT_ROW_GROUPS_READ,
	PQFDW_COUNT_PAGES_READ,
	PQFDW_COUNT_BYTES_READ,
	PQFDW_COUNT_PRUNE,			/* the pruner's, in PqPruneCounter order */
	PQFDW_NCOUNTERS = PQFDW_COUNT_PRUNE + PQ_NPRUNE_COUNTERS
} PqScanCounter;

/*
 * A file as the leader found it: every process must read that very file,
 * or two processes could read two versions of it under one name.
 */
typedef struct PqParallelFile
{
	int			row_groups;
	int			pieces;			/* each row group is cut into (1: whole) */
	PqFileStamp stamp;
} PqParallelFile;

/* Processes of a parallel top-N scan that share their bounds (the first). */
#define PQFDW_TOP_N_SLOTS 32

typedef struct PqParallelScan
{
	pg_atomic_uint64 next_unit; /* the next unit nobody has taken */

	/*
	 * Top-N scans: per process (the leader's slot 0, worker i's i + 1), the
	 * first sort key (a by-value Datum) of the worst row it keeps once it
	 * keeps LIMIT rows, bound_set once it has one (top_n_scan.c).
	 */
	pg_atomic_uint32 bound_set[PQFDW_TOP_N_SLOTS];
	pg_atomic_uint64 bound[PQFDW_TOP_N_SLOTS];
	uint64		nunits;			/* pieces of the row groups of all files */
	pg_atomic_uint64 counters[PQFDW_NCOUNTERS]; /* of finished workers */
	int			nfiles;
	uint64		paths_hash;		/* of the leader's files (file_set.c) */
	int64		table_version;	/* a table format's version the leader reads
								 * (its files' deletes), or -1 */
	bool		union_by_name;	/* the leader's dataset's */
	int32		table_schema_id;	/* the Iceberg schema the leader reads
									 * with, -1 */
	int			split_row_groups;	/* row groups cut into pieces */

	/* the leader's files; after them its paths, each ending in a NUL */
	PqParallelFile files[FLEXIBLE_ARRAY_MEMBER];
} PqParallelScan;

/* One unit: a row group, or piece `piece` of its `pieces` equal parts. */
typedef struct PqScanUnit
{
	int			file;
	int			row_group;
	const PqFileStamp *file_stamp;	/* the file when the scan began */
	int			piece;
	int			pieces;
} PqScanUnit;

/* A process's view of the cursor: where its last unit was. */
typedef struct PqParallelCursor
{
	PqParallelScan *shared;
	int			file;			/* file of the last unit taken */
	uint64		file_first;		/* its first unit */
} PqParallelCursor;

/* The shared state's size for the leader's files paths (char *). */
extern Size pqfdw_parallel_size(List *paths);

/* The leader's files, copied: a worker's plan may name other ones. */
extern List *pqfdw_parallel_paths(PqParallelScan *shared);

/*
 * Fill shared from the footers of paths (read now, by the leader), so that
 * every process maps unit numbers to the same units; with fewer row groups
 * than 4 units per process (nprocs, the leader included), row groups of
 * files with an offset index are cut into pieces.
 */
extern void pqfdw_parallel_init(PqParallelScan *shared, List *paths,
								const PqfdwDataset *ds,
								uint64 paths_hash,
								const PqfdwAccess *access, int nprocs);

/* Start the units again (a rescan of the parallel plan). */
extern void pqfdw_parallel_reset(PqParallelScan *shared);

extern void pqfdw_parallel_cursor_init(PqParallelCursor *cur,
									   PqParallelScan *shared);

/* Take the next unit: false when none is left (PqUnitClaim). */
extern bool pqfdw_parallel_claim(void *arg, PqScanUnit *unit);

/*
 * Top-N scans: publish this process's bound; the bounds published so far
 * into keys (PQFDW_TOP_N_SLOTS of them), returning how many.
 */
extern void pqfdw_parallel_publish_bound(PqParallelScan *shared, Datum key);
extern int	pqfdw_parallel_bounds(PqParallelScan *shared, Datum *keys);

/* A worker's counters, added when it finishes. */
extern void pqfdw_parallel_add_counters(PqParallelScan *shared,
										const int64 *counters);
extern void pqfdw_parallel_read_counters(PqParallelScan *shared,
										 int64 *counters);

#endif							/* PQFDW_PARALLEL_H */
