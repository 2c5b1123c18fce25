/*-------------------------------------------------------------------------
 *
 * table_reader_prune.c
 *		The table reader's side of pruning: which row groups it reads (a
 *		pruner, a sample), and the row group it enters as the pruner sees
 *		it (fdw/prune/pruner.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/scan/table_reader_state.h"

void
pqfdw_table_reader_set_pruner(PqTableReader *tr, PqPruner *pr)
{
	tr->pruner = pr;
}

void
pqfdw_table_reader_set_sample(PqTableReader *tr, const bool *sample,
							  const int *first)
{
	tr->sample = sample;
	tr->sample_first = first;
}

bool
pqfdw_table_reader_prune(PqTableReader *tr)
{
	PqPruneTarget t;
	int			i;

	/* predicates on nested leaves read this file's leaves */
	for (i = 0; i < tr->ncols; i++)
		if (tr->cols[i].nested != NULL)
			pqfdw_pruner_bind_column(tr->pruner, tr->cols[i].attnum,
									 tr->cols[i].nested, tr->cols[i].missing,
									 tr->row_group, tr->rg_cxt);
	t.file = tr->file;
	t.file_index = tr->file_index;
	t.row_group = tr->row_group;
	t.att_cv = tr->att_cv;
	t.att_leaf = tr->att_leaf;
	t.union_by_name = tr->ds != NULL && tr->ds->union_by_name;
	t.counted = tr->unit_piece == 0;
	t.parallel = tr->claim != NULL;
	t.rg_cxt = tr->rg_cxt;
	t.tmp_cxt = tr->batch_cxt;
	return pqfdw_prune_row_group(tr->pruner, &t, &tr->rg_ranges,
								 &tr->rg_nranges);
}
