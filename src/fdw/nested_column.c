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

/* Names the column (and field) whose values failed to convert. */
static void
nested_error_context(void *arg)
{
	PqNestedColumn *nc = arg;

	if (pq_errloc.filename)
		errcontext("reading %s of Parquet file \"%s\"", nc->converting,
				   pq_errloc.filename);
	else
		errcontext("reading %s", nc->converting);
}

void
pqfdw_nested_column_fill(PqNestedColumn *nc, int64 rg_pos, int n,
						 Datum *values, bool *nulls, int stride,
						 int64 file_row)
{
	const PqLeafBatch *lb;
	ErrorContextCallback cb;
	int			i;

	pq_assembler_skip_to(nc->assembler, rg_pos);
	lb = pq_assembler_next(nc->assembler, n);

	cb.callback = nested_error_context;
	cb.arg = nc;
	cb.previous = error_context_stack;
	error_context_stack = &cb;

	/* scalar leaves: all of the batch's values at once */
	for (i = 0; i < nc->nleaves; i++)
	{
		PqNestedPlan *p = nc->leaf_scalar[i];

		if (p == NULL)
			continue;
		nc->converting = psprintf("column \"%s\" (Parquet field \"%s\")",
								  p->what, p->path);
		p->cv.row_base = file_row;
		p->cv.cur_def = lb[i].def;
		p->cv.cur_rep = lb[i].rep;
		nc->leaf_datums[i] = palloc(sizeof(Datum) * Max(lb[i].nvalues, 1));
		pqfdw_convert_values(&p->cv, lb[i].fixed, lb[i].ba, lb[i].nvalues,
							 nc->leaf_datums[i]);
	}

	nc->converting = psprintf("column \"%s\"", nc->attname);
	pq_assembler_build(nc->assembler, nc->rows);
	for (i = 0; i < n; i++)
		values[(size_t) i * stride] =
			pqfdw_nested_datum(nc, nc->plan, &nc->rows[i],
							   &nulls[(size_t) i * stride]);
	error_context_stack = cb.previous;
}
