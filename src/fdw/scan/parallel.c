/*-------------------------------------------------------------------------
 *
 * parallel.c
 *		The shared cursor of a parallel foreign scan: units are the row
 *		groups of all files in order, handed out one at a time from an
 *		atomic counter, so a process that finishes early takes more.
 *
 * Each unit goes to exactly one process, which prunes it (statistics,
 * Bloom filters, dictionaries, page index) and reads it: pruning is done
 * once per row group, never by every worker.  The leader reads the
 * footers once when it sets up the shared memory; every process then maps
 * a unit number to (file, row group) through the same per-file counts, and
 * the table reader checks, when it opens a file, that the file still has
 * that many row groups.  Only counts go into shared memory: encryption
 * keys are looked up by each process from the key store, never shared.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/parquet_fdw.h"
#include "fdw/scan/parallel.h"
#include "utils/memutils.h"

Size
pqfdw_parallel_size(int nfiles)
{
	return add_size(offsetof(PqParallelScan, row_groups),
					mul_size(sizeof(int), Max(nfiles, 1)));
}

void
pqfdw_parallel_init(PqParallelScan *shared, List *paths,
					const PqDecryptionConfig *decrypt)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "parquet_fdw parallel footers",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	List	   *files = pqfdw_open_footers(paths, decrypt);
	ListCell   *lc;
	int			i = 0;
	int			c;

	shared->nunits = 0;
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);

		shared->row_groups[i++] = f->md.n_row_groups;
		shared->nunits += f->md.n_row_groups;
	}
	shared->nfiles = i;
	pg_atomic_init_u64(&shared->next_unit, 0);
	for (c = 0; c < PQFDW_NCOUNTERS; c++)
		pg_atomic_init_u64(&shared->counters[c], 0);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

void
pqfdw_parallel_reset(PqParallelScan *shared)
{
	pg_atomic_write_u64(&shared->next_unit, 0);
}

void
pqfdw_parallel_cursor_init(PqParallelCursor *cur, PqParallelScan *shared)
{
	cur->shared = shared;
	cur->file = 0;
	cur->file_first = 0;
}

bool
pqfdw_parallel_claim(void *arg, int *file, int *row_group,
					 int *file_row_groups)
{
	PqParallelCursor *cur = arg;
	PqParallelScan *shared = cur->shared;
	uint64		unit;

	/* a process's units only increase: restart the map after a rescan */
	unit = pg_atomic_fetch_add_u64(&shared->next_unit, 1);
	if (unit >= shared->nunits)
		return false;
	if (unit < cur->file_first)
	{
		cur->file = 0;
		cur->file_first = 0;
	}
	while (unit >= cur->file_first + shared->row_groups[cur->file])
	{
		cur->file_first += shared->row_groups[cur->file];
		cur->file++;
	}
	*file = cur->file;
	*row_group = (int) (unit - cur->file_first);
	*file_row_groups = shared->row_groups[cur->file];
	return true;
}

void
pqfdw_parallel_add_counters(PqParallelScan *shared, const int64 *counters)
{
	int			c;

	for (c = 0; c < PQFDW_NCOUNTERS; c++)
		pg_atomic_fetch_add_u64(&shared->counters[c], (uint64) counters[c]);
}

void
pqfdw_parallel_read_counters(PqParallelScan *shared, int64 *counters)
{
	int			c;

	for (c = 0; c < PQFDW_NCOUNTERS; c++)
		counters[c] = (int64) pg_atomic_read_u64(&shared->counters[c]);
}
