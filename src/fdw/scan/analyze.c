/*-------------------------------------------------------------------------
 *
 * analyze.c
 *		ANALYZE for parquet_fdw foreign tables.
 *
 * The row count comes from the footers.  The sample is drawn from a random
 * subset of row groups (every row group of a small table, at least several
 * of a large one) so that ANALYZE does not decode whole files; within the
 * chosen row groups rows are sampled with PostgreSQL's reservoir sampling.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "access/htup_details.h"
#include "common/pg_prng.h"
#include "fdw/common/source.h"
#include "fdw/common/table_options.h"
#include "fdw/scan/scan.h"
#include "fdw/scan/table_reader.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/sampling.h"

/* Row groups read: enough rows for this many samples, and at least ... */
#define PQFDW_ANALYZE_ROWS_FACTOR 3
/* ... this many row groups, when the table has them. */
#define PQFDW_ANALYZE_MIN_ROW_GROUPS 10

typedef struct SampleSelection
{
	int			nfiles;
	int		   *first;			/* per file: index of its first row group */
	bool	   *chosen;			/* per row group of all files */
} SampleSelection;

/* Pick row groups at random until they hold enough rows. */
static SampleSelection *
choose_row_groups(List *files, int targrows, double *totalrows)
{
	SampleSelection *sel = palloc0(sizeof(SampleSelection));
	int			total_rgs = 0;
	int64	   *rows;
	int		   *order;
	double		picked_rows = 0;
	ListCell   *lc;
	int			i;
	int			k;

	sel->nfiles = list_length(files);
	sel->first = palloc(sizeof(int) * Max(sel->nfiles, 1));
	*totalrows = 0;
	i = 0;
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);

		sel->first[i++] = total_rgs;
		total_rgs += f->md.n_row_groups;
		*totalrows += f->md.num_rows;
	}
	sel->chosen = palloc0(sizeof(bool) * Max(total_rgs, 1));
	rows = palloc(sizeof(int64) * Max(total_rgs, 1));
	k = 0;
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);

		for (i = 0; i < f->md.n_row_groups; i++)
			rows[k++] = f->md.row_groups[i].num_rows;
	}

	/* a random permutation of the row groups, taken from the front */
	order = palloc(sizeof(int) * Max(total_rgs, 1));
	for (i = 0; i < total_rgs; i++)
		order[i] = i;
	for (i = total_rgs - 1; i > 0; i--)
	{
		int			j = (int) pg_prng_uint64_range(&pg_global_prng_state, 0, i);
		int			t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < total_rgs; i++)
	{
		if (picked_rows >= (double) targrows * PQFDW_ANALYZE_ROWS_FACTOR &&
			i >= PQFDW_ANALYZE_MIN_ROW_GROUPS)
			break;
		sel->chosen[order[i]] = true;
		picked_rows += rows[order[i]];
	}
	return sel;
}

static int
acquire_sample_rows(Relation rel, int elevel, HeapTuple *rows, int targrows,
					double *totalrows, double *totaldeadrows)
{
	PqfdwTableOptions opts;
	List	   *files;
	List	   *attnums = NIL;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	SampleSelection *sel;
	PqTableReader *tr;
	ReservoirStateData rstate;
	MemoryContext caller = CurrentMemoryContext;
	double		seen = 0;
	double		rowstoskip = -1;
	int			nsampled = 0;
	int			i;
	Datum	   *values = palloc(sizeof(Datum) * Max(tupdesc->natts, 1));
	bool	   *nulls = palloc(sizeof(bool) * Max(tupdesc->natts, 1));

	/* as postgres_fdw: the owner's user mapping, whoever runs ANALYZE */
	pqfdw_get_table_options(RelationGetRelid(rel), rel->rd_rel->relowner, &opts);
	files = pqfdw_open_footers(opts.paths, &opts.access, !opts.union_by_name);
	sel = choose_row_groups(files, targrows, totalrows);
	*totaldeadrows = 0;

	for (i = 1; i <= tupdesc->natts; i++)
		if (!TupleDescAttr(tupdesc, i - 1)->attisdropped)
			attnums = lappend_int(attnums, i);
	tr = pqfdw_table_reader_create(rel, rel->rd_rel->relowner, opts.paths,
								   attnums, opts.hive, caller);
	pqfdw_table_reader_set_sample(tr, sel->chosen, sel->first);

	/* reservoir sampling as in file_fdw (Vitter's algorithm Z) */
	reservoir_init_selection_state(&rstate, targrows);
	for (;;)
	{
		const PqBatch *b = pqfdw_table_reader_next(tr);
		int			r;

		if (b == NULL)
			break;
		for (r = 0; r < b->nrows; r++)
		{
			int			k = -1;

			if (nsampled < targrows)
				k = nsampled++;
			else
			{
				if (rowstoskip < 0)
					rowstoskip = reservoir_get_next_S(&rstate, seen, targrows);
				if (rowstoskip <= 0)
				{
					k = (int) (targrows * sampler_random_fract(&rstate.randstate));
					heap_freetuple(rows[k]);
				}
				rowstoskip -= 1;
			}
			if (k >= 0)
			{
				for (i = 0; i < tupdesc->natts; i++)
				{
					size_t		pos = pqfdw_batch_index(b, i, r);

					values[i] = b->values[pos];
					nulls[i] = b->nulls[pos];
				}
				rows[k] = heap_form_tuple(tupdesc, values, nulls);
			}
			seen += 1;
		}
	}
	pqfdw_table_reader_end(tr);

	ereport(elevel,
			(errmsg("\"%s\": sampled %d rows from %.0f rows of %d Parquet files",
					RelationGetRelationName(rel), nsampled, seen,
					list_length(files)),
			 errdetail("The table has %.0f rows in total.", *totalrows)));
	return nsampled;
}

bool
pqfdw_AnalyzeForeignTable(Relation relation, AcquireSampleRowsFunc *func,
						  BlockNumber *totalpages)
{
	PqfdwTableOptions opts;
	ListCell   *lc;
	double		bytes = 0;

	pqfdw_get_table_options(RelationGetRelid(relation),
							relation->rd_rel->relowner, &opts);
	foreach(lc, opts.paths)
	{
		const char *path = lfirst(lc);
		struct stat st;
		int64		size;
		char	   *etag;

		if (pq_url_is_remote(path))
		{
			pqfdw_remote_stat(&opts.access.remote, path, &size, &etag);
			bytes += size;
		}
		else if (stat(path, &st) == 0)
			bytes += st.st_size;
	}
	*totalpages = (BlockNumber) Max(1, Min(bytes / BLCKSZ, (double) MaxBlockNumber));
	*func = acquire_sample_rows;
	return true;
}
