/*-------------------------------------------------------------------------
 *
 * spill.h
 *		Rows a grouped scan has no memory for: written, by the hash of
 *		their grouping keys, to one of PQFDW_SPILL_PARTS temporary files,
 *		and read back as vectors when the groups in memory are done.
 *
 * A row is its vectors' values in order (keys, then aggregate arguments):
 * per value a NULL flag, then 8 bytes (integers, floats) or a length and
 * the bytes (text).  Level L partitions by the hash's bits [32 - (L + 1)
 * * BITS, 32 - L * BITS), from the top, so a partition spilled again
 * splits into new ones and the group table of a partition, which takes
 * the low bits for its slots, still spreads its groups over all of them.
 *
 * A partitioned parallel grouped scan (group_shared.h) writes the rows of
 * level 0 to files of a shared file set, one per partition and process,
 * which the process aggregating the partition opens by name.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_SPILL_H
#define PQFDW_SPILL_H

#include "fdw/pushdown/vexpr.h"
#include "storage/buffile.h"
#include "storage/fileset.h"

#define PQFDW_SPILL_BITS 4
#define PQFDW_SPILL_PARTS (1 << PQFDW_SPILL_BITS)
/* levels of partitions before the groups are kept in memory regardless */
#define PQFDW_SPILL_MAX_LEVEL 5

typedef struct PqSpillPart
{
	BufFile    *file;			/* NULL: no row */
	int64		rows;
	int			level;			/* of the partitioning that made it */
} PqSpillPart;

typedef struct PqSpill
{
	int			level;
	FileSet    *fileset;		/* NULL: private temporary files */
	int			proc;			/* with fileset: the writer's number */
	PqSpillPart parts[PQFDW_SPILL_PARTS];
	int64		bytes;			/* written */
} PqSpill;

/* Reads a partition back, a batch at a time, into vectors it owns. */
typedef struct PqSpillReader
{
	int			nvec;
	PqVector   *vecs;
	bool	  **nulls;			/* the vectors' buffers */
	Datum	  **texts;
	int128	  **wides;			/* numeric vectors' values */
	int			max_rows;
	MemoryContext text_cxt;		/* text values of the current batch */
	PqSpillPart part;
} PqSpillReader;

/* Write row r of vecs[0..nvec) with keys' hash to sp's partition. */
extern void pqfdw_spill_row(PqSpill *sp, const PqVector **vecs, int nvec,
							int r, uint32 hash);

/* The partition of level a hash goes to. */
static inline int
pqfdw_spill_partition(uint32 hash, int level)
{
	return (int) (hash >> (32 - PQFDW_SPILL_BITS * (level + 1))) &
		(PQFDW_SPILL_PARTS - 1);
}

/* The name of process proc's file of partition part in a shared file set. */
extern void pqfdw_spill_shared_name(char *name, size_t size, int part,
									int proc);

/* A reader of vectors of the given types, allocated in cxt. */
extern PqSpillReader *pqfdw_spill_reader_create(int nvec, const Oid *types,
												int max_rows,
												MemoryContext cxt);

/* Read part from its start (the reader closes its file when done). */
extern void pqfdw_spill_reader_start(PqSpillReader *rd, PqSpillPart part);

/* The next rows (at most max_rows) into rd->vecs; 0 at the end. */
extern int	pqfdw_spill_reader_next(PqSpillReader *rd);

#endif							/* PQFDW_SPILL_H */
