/*-------------------------------------------------------------------------
 *
 * group_shared.c
 *		The shared state of a partitioned parallel grouped scan
 *		(group_shared.h): its file set, barrier and partition cursor.
 *
 * Workers do not attach to the file set (the InitializeWorker callback of
 * an FDW has no segment to register the detach on): the leader holds it
 * until Gather has seen every worker finish, and it deletes the files.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "fdw/pushdown/group_shared.h"

void
pqfdw_group_shared_init(PqGroupShared *sh, dsm_segment *seg)
{
	SharedFileSetInit(&sh->fileset, seg);
	BarrierInit(&sh->barrier, 0);
	pg_atomic_init_u32(&sh->next_part, 0);
	pg_atomic_init_u64(&sh->groups, 0);
	pg_atomic_init_u64(&sh->rows_moved, 0);
	pg_atomic_init_u64(&sh->bytes_moved, 0);
	memset(sh->rows, 0, sizeof(sh->rows));
}

void
pqfdw_group_shared_reset(PqGroupShared *sh)
{
	SharedFileSetDeleteAll(&sh->fileset);
	BarrierInit(&sh->barrier, 0);
	pg_atomic_write_u32(&sh->next_part, 0);
	pg_atomic_write_u64(&sh->groups, 0);
	pg_atomic_write_u64(&sh->rows_moved, 0);
	pg_atomic_write_u64(&sh->bytes_moved, 0);
	memset(sh->rows, 0, sizeof(sh->rows));
}

int
pqfdw_group_shared_proc(void)
{
	int			proc = ParallelWorkerNumber + 1;

	/* the planner asks for at most PQFDW_GROUP_PROCS - 1 workers */
	if (proc < 0 || proc >= PQFDW_GROUP_PROCS)
		elog(ERROR, "parquet_fdw: parallel worker %d of a grouped scan out of range",
			 ParallelWorkerNumber);
	return proc;
}

int
pqfdw_group_shared_claim(PqGroupShared *sh)
{
	uint32		part = pg_atomic_fetch_add_u32(&sh->next_part, 1);

	return part < PQFDW_SPILL_PARTS ? (int) part : -1;
}

PqSpillPart
pqfdw_group_shared_part(PqGroupShared *sh, int part, int proc)
{
	PqSpillPart p = {NULL, sh->rows[proc][part], 0};
	char		name[MAXPGPATH];

	if (p.rows > 0)
	{
		pqfdw_spill_shared_name(name, sizeof(name), part, proc);
		p.file = BufFileOpenFileSet(&sh->fileset.fs, name, O_RDONLY, false);
	}
	return p;
}
