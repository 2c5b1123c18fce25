/*-------------------------------------------------------------------------
 *
 * group_shared.h
 *		Partitioned parallel grouping: what the processes of a grouped scan
 *		under Gather share.  Each process writes every row it reads (keys
 *		and aggregate arguments, spill.h's format) to its own file of the
 *		row's partition, by the hash of the keys; once every process has
 *		written its rows (a barrier), the processes claim whole partitions
 *		and aggregate each to final groups.  A group's rows all land in one
 *		partition, so no group is split between processes and no combine
 *		step is needed, DISTINCT aggregates included.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GROUP_SHARED_H
#define PQFDW_GROUP_SHARED_H

#include "fdw/pushdown/spill.h"
#include "port/atomics.h"
#include "storage/barrier.h"
#include "storage/sharedfileset.h"

/* processes of one scan: the leader and up to 31 workers */
#define PQFDW_GROUP_PROCS 32

/* vectors of a row (keys and arguments) a partitioned plan may have */
#define PQFDW_GROUP_MAX_VECS 64

/* Barrier phases: rows are written, then partitions are aggregated. */
#define PQFDW_GROUP_PHASE_WRITE 0
#define PQFDW_GROUP_PHASE_AGGREGATE 1

typedef struct PqGroupShared
{
	SharedFileSet fileset;
	Barrier		barrier;
	pg_atomic_uint32 next_part; /* the next partition nobody has claimed */

	/* EXPLAIN ANALYZE: what the workers did, added as each finishes */
	pg_atomic_uint64 groups;
	pg_atomic_uint64 rows_moved;
	pg_atomic_uint64 bytes_moved;

	/* rows of each process's file of each partition */
	int64		rows[PQFDW_GROUP_PROCS][PQFDW_SPILL_PARTS];

	/* the scales of numeric vectors, for readers that wrote no row */
	int32		scales[PQFDW_GROUP_MAX_VECS];
} PqGroupShared;

/* The leader sets it up in the scan's shared memory segment seg. */
extern void pqfdw_group_shared_init(PqGroupShared *sh, dsm_segment *seg);

/* Before a rescan's workers start: no rows, no files, phase 0. */
extern void pqfdw_group_shared_reset(PqGroupShared *sh);

/* This process's number: the leader 0, worker i i + 1. */
extern int	pqfdw_group_shared_proc(void);

/* The next partition to aggregate, -1 when all are claimed. */
extern int	pqfdw_group_shared_claim(PqGroupShared *sh);

/* Process proc's rows of partition part, as a spill partition to read. */
extern PqSpillPart pqfdw_group_shared_part(PqGroupShared *sh, int part,
										   int proc);

#endif							/* PQFDW_GROUP_SHARED_H */
