/*-------------------------------------------------------------------------
 *
 * nested_column.c
 *		A nested field read into one column: a column reader per leaf read,
 *		the record assembler over them, and each batch of rows turned into
 *		Datums (the values of scalar leaves converted in bulk first).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "convert_nested.h"
#include "utils/memutils.h"

PqNestedColumn *
pqfdw_nested_column_create(const PqSchemaNode *field, Oid typid, int32 typmod,
						   const char *attname, int max_rows,
						   MemoryContext cxt)
{
	PqNestedColumn *nc = MemoryContextAllocZero(cxt, sizeof(PqNestedColumn));

	pqfdw_nested_plan(nc, field, typid, typmod, attname, cxt);
	nc->max_rows = max_rows;
	nc->rows = MemoryContextAlloc(cxt, sizeof(PqValue) * max_rows);
	return nc;
}

static int
source_next(void *arg, int leaf, int max, PqSegment *seg)
{
	PqNestedColumn *nc = arg;

	return pq_column_reader_next(nc->readers[leaf], max, seg);
}

static void
source_skip(void *arg, int leaf, int64 n)
{
	PqNestedColumn *nc = arg;

	pq_column_reader_skip(nc->readers[leaf], n);
}

static int64
source_position(void *arg, int leaf)
{
	PqNestedColumn *nc = arg;

	return pq_column_reader_row(nc->readers[leaf]);
}

void
pqfdw_nested_column_open(PqNestedColumn *nc, PqFile *file,
						 const PqSchemaNode *field, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	const PqSchemaNode **leaves;
	PqLeafSource src;
	int			i;

	nc->file = file;
	nc->readers = palloc(sizeof(PqColumnReader *) * nc->nleaves);
	leaves = palloc(sizeof(PqSchemaNode *) * nc->nleaves);
	for (i = 0; i < nc->nleaves; i++)
	{
		nc->readers[i] = pq_column_reader_create(file, nc->leaf_columns[i], cxt);
		leaves[i] = file->schema->columns[nc->leaf_columns[i]].node;
	}
	src.next = source_next;
	src.skip = source_skip;
	src.position = source_position;
	src.arg = nc;
	nc->assembler = pq_assembler_create(field, leaves, nc->nleaves, src);
	MemoryContextSwitchTo(old);
}

void
pqfdw_nested_column_fill(PqNestedColumn *nc, int64 rg_pos, int n,
						 Datum *values, bool *nulls, int stride,
						 int64 file_row)
{
	const PqLeafBatch *lb;
	int			i;

	pq_assembler_skip_to(nc->assembler, rg_pos);
	lb = pq_assembler_next(nc->assembler, n);

	/* scalar leaves: all of the batch's values at once */
	for (i = 0; i < nc->nleaves; i++)
	{
		PqNestedPlan *p = nc->leaf_scalar[i];

		if (p == NULL)
			continue;
		p->cv.row_base = file_row;
		p->cv.cur_def = lb[i].def;
		p->cv.cur_rep = lb[i].rep;
		nc->leaf_datums[i] = palloc(sizeof(Datum) * Max(lb[i].nvalues, 1));
		pqfdw_convert_values(&p->cv, lb[i].fixed, lb[i].ba, lb[i].nvalues,
							 nc->leaf_datums[i]);
	}

	pq_assembler_build(nc->assembler, nc->rows);
	for (i = 0; i < n; i++)
		values[(size_t) i * stride] =
			pqfdw_nested_datum(nc, nc->plan, &nc->rows[i],
							   &nulls[(size_t) i * stride]);
}
