/*-------------------------------------------------------------------------
 *
 * parallel.c
 *		The shared cursor of a parallel foreign scan: units are the row
 *		groups of all files in order, handed out one at a time from an
 *		atomic counter, so a process that finishes early takes more.
 *
 * A table with fewer than 4 row groups per process would leave processes
 * idle while one finishes a large row group: the row groups of files with
 * an offset index are then cut into equal row ranges ("pieces"), each read
 * through the page index (only the pages holding its rows); a page across
 * a boundary is decoded by both neighbours, each keeping its own rows.
 *
 * Each unit goes to exactly one process, which prunes it (statistics,
 * Bloom filters, dictionaries, page index) and reads it: pruning is done
 * once per row group, never by every worker.  The leader reads the
 * footers once when it sets up the shared memory; every process then maps
 * a unit number to (file, row group) through the same per-file counts, and
 * the table reader checks, when it opens a file, that it is the file the
 * leader found (same inode, size and modification time): a file replaced
 * between two processes' opens would otherwise give rows of two versions
 * under one name.  Only counts and stamps go into shared memory:
 * encryption keys are looked up by each process from the key store, never
 * shared.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "fdw/common/source.h"
#include "fdw/scan/parallel.h"
#include "utils/memutils.h"

/* Where the leader's paths are: after its files, each ending in a NUL. */
static char *
paths_area(PqParallelScan *shared)
{
	return (char *) &shared->files[Max(shared->nfiles, 1)];
}

Size
pqfdw_parallel_size(List *paths)
{
	Size		size = add_size(offsetof(PqParallelScan, files),
								mul_size(sizeof(PqParallelFile),
										 Max(list_length(paths), 1)));
	ListCell   *lc;

	foreach(lc, paths)
		size = add_size(size, strlen(lfirst(lc)) + 1);
	return size;
}

List *
pqfdw_parallel_paths(PqParallelScan *shared)
{
	List	   *paths = NIL;
	char	   *p = paths_area(shared);
	int			i;

	for (i = 0; i < shared->nfiles; i++)
	{
		paths = lappend(paths, pstrdup(p));
		p += strlen(p) + 1;
	}
	return paths;
}

/* Rows a piece should hold at least: smaller ones cost more than they give. */
#define PQFDW_MIN_PIECE_ROWS 8192
#define PQFDW_MAX_PIECES 64

/* Whether every column chunk of the file's first row group has an OffsetIndex. */
static bool
has_offset_indexes(const PqFile *f)
{
	int			c;

	if (f->md.n_row_groups == 0)
		return false;
	for (c = 0; c < f->md.row_groups[0].n_columns; c++)
		if (!f->md.row_groups[0].columns[c].has_offset_index_offset)
			return false;
	return true;
}

void
pqfdw_parallel_init(PqParallelScan *shared, List *paths,
					const PqfdwDataset *ds, uint64 paths_hash,
					const PqfdwAccess *access, int nprocs)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "parquet_fdw parallel footers",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	List	   *files = pqfdw_open_footers(paths, access, !ds->union_by_name);
	ListCell   *lc;
	int			i = 0;
	int			c;
	int64		total = 0;
	int			wanted;
	char	   *dst;

	foreach(lc, files)
		total += ((PqFile *) lfirst(lc))->md.n_row_groups;
	wanted = total >= 4 * nprocs || total == 0 ? 1 :
		(int) Min((4 * nprocs + total - 1) / total, PQFDW_MAX_PIECES);

	shared->nfiles = list_length(files);
	shared->paths_hash = paths_hash;
	shared->table_version = ds->location ? ds->version : -1;
	shared->table_schema_id = ds->location ? ds->schema_id : -1;
	shared->union_by_name = ds->union_by_name;
	shared->nunits = 0;
	shared->split_row_groups = 0;
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);
		int64		most = 0;
		int			pieces = 1;
		int			rg;

		for (rg = 0; rg < f->md.n_row_groups; rg++)
			most = Max(most, f->md.row_groups[rg].num_rows);
		if (wanted > 1 && has_offset_indexes(f))
			pieces = (int) Max(1, Min((int64) wanted, most / PQFDW_MIN_PIECE_ROWS));
		shared->files[i].row_groups = f->md.n_row_groups;
		shared->files[i].pieces = pieces;
		pqfdw_source_stamp(f->src, &shared->files[i].stamp);
		shared->nunits += (uint64) f->md.n_row_groups * pieces;
		if (pieces > 1)
			shared->split_row_groups += f->md.n_row_groups;
		i++;
	}
	dst = paths_area(shared);
	foreach(lc, paths)
	{
		size_t		len = strlen(lfirst(lc)) + 1;

		memcpy(dst, lfirst(lc), len);
		dst += len;
	}
	pg_atomic_init_u64(&shared->next_unit, 0);
	for (c = 0; c < PQFDW_NCOUNTERS; c++)
		pg_atomic_init_u64(&shared->counters[c], 0);
	for (c = 0; c < PQFDW_TOP_N_SLOTS; c++)
	{
		pg_atomic_init_u32(&shared->bound_set[c], 0);
		pg_atomic_init_u64(&shared->bound[c], 0);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

void
pqfdw_parallel_reset(PqParallelScan *shared)
{
	int			i;

	pg_atomic_write_u64(&shared->next_unit, 0);
	for (i = 0; i < PQFDW_TOP_N_SLOTS; i++)
		pg_atomic_write_u32(&shared->bound_set[i], 0);
}

void
pqfdw_parallel_publish_bound(PqParallelScan *shared, Datum key)
{
	int			slot = ParallelWorkerNumber + 1;

	if (slot < 0 || slot >= PQFDW_TOP_N_SLOTS)
		return;
	pg_atomic_write_u64(&shared->bound[slot], (uint64) key);
	/* the value before the flag: a reader that sees the flag sees a value */
	pg_write_barrier();
	pg_atomic_write_u32(&shared->bound_set[slot], 1);
}

int
pqfdw_parallel_bounds(PqParallelScan *shared, Datum *keys)
{
	int			n = 0;
	int			i;

	for (i = 0; i < PQFDW_TOP_N_SLOTS; i++)
		if (pg_atomic_read_u32(&shared->bound_set[i]) != 0)
		{
			pg_read_barrier();
			keys[n++] = (Datum) pg_atomic_read_u64(&shared->bound[i]);
		}
	return n;
}

void
pqfdw_parallel_cursor_init(PqParallelCursor *cur, PqParallelScan *shared)
{
	cur->shared = shared;
	cur->file = 0;
	cur->file_first = 0;
}

bool
pqfdw_parallel_claim(void *arg, PqScanUnit *out)
{
	PqParallelCursor *cur = arg;
	PqParallelScan *shared = cur->shared;
	uint64		unit;
	uint64		index;

	/* a process's units only increase: restart the map after a rescan */
	unit = pg_atomic_fetch_add_u64(&shared->next_unit, 1);
	if (unit >= shared->nunits)
		return false;
	if (unit < cur->file_first)
	{
		cur->file = 0;
		cur->file_first = 0;
	}
	for (;;)
	{
		uint64		units = (uint64) shared->files[cur->file].row_groups *
		shared->files[cur->file].pieces;

		if (unit < cur->file_first + units)
			break;
		cur->file_first += units;
		cur->file++;
	}
	index = unit - cur->file_first;
	out->file = cur->file;
	out->file_stamp = &shared->files[cur->file].stamp;
	out->pieces = shared->files[cur->file].pieces;
	out->row_group = (int) (index / out->pieces);
	out->piece = (int) (index % out->pieces);
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
