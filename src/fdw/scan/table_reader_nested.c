/*-------------------------------------------------------------------------
 *
 * table_reader_nested.c
 *		A nested field read into one column by the table reader: a column reader per leaf read,
 *		the record assembler over them, and each batch of rows turned into
 *		Datums (the values of scalar leaves converted in bulk first).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fdw/scan/table_reader_state.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/memutils.h"

/* Is leaf column `column` a direct child of group? */
static bool
child_is_leaf(const PqSchemaNode *group, int column)
{
	int			i;

	for (i = 0; i < group->n_children; i++)
		if (group->children[i]->is_leaf &&
			group->children[i]->first_leaf == column)
			return true;
	return false;
}

/* A composite whose attributes are primitive fields (or none)? */
static bool
struct_of_primitives(PqNestedColumn *nc, const PqSchemaNode *field)
{
	PqNestedPlan *p = nc->plan;
	int			i;

	if (p->kind != PQ_NESTED_COMPOSITE || field->repetition == PQ_REPEATED ||
		field->is_leaf)
		return false;
	for (i = 0; i < p->tupdesc->natts; i++)
		if (p->att_child[i] >= 0 && p->atts[i]->kind != PQ_NESTED_SCALAR)
			return false;
	/* every leaf read is a field of the struct: one entry per row */
	for (i = 0; i < nc->nleaves; i++)
		if (!child_is_leaf(field, nc->leaf_columns[i]))
			return false;
	return true;
}

PqNestedColumn *
pqfdw_nested_column_create(const PqSchemaNode *field, Oid typid, int32 typmod,
						   const char *attname, List *variant_keys,
						   int max_rows, MemoryContext cxt)
{
	PqNestedColumn *nc = MemoryContextAllocZero(cxt, sizeof(PqNestedColumn));
	const PqSchemaNode *leaf = field;

	pqfdw_nested_plan(nc, field, typid, typmod, attname, variant_keys, cxt);
	while (!leaf->is_leaf && leaf->n_children == 1)
		leaf = leaf->children[0];
	nc->list_from_levels = nc->plan->kind == PQ_NESTED_ARRAY &&
		nc->plan->elem->kind == PQ_NESTED_SCALAR &&
		leaf->is_leaf && leaf->max_rep == 1;
	nc->struct_from_levels = struct_of_primitives(nc, field);
	nc->struct_def = field->repetition == PQ_OPTIONAL ? field->max_def : 0;
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

/*
 * A top-level list of primitives, one level deep, straight from the
 * levels of its one leaf: a row is NULL when its first entry's definition
 * level is below list_def, empty when below elem_def, and every entry of
 * the row is an element otherwise (NULL when below the leaf's maximum).
 * The same arrays the value trees would give, without building them.
 */
static void
list_from_levels(PqNestedColumn *nc, const PqLeafBatch *lb, int n,
				 Datum *values, bool *nulls)
{
	PqNestedPlan *p = nc->plan;
	PqNestedPlan *ep = p->elem;
	const Datum *dense = nc->leaf_datums[0];
	int16		max_def = lb->leaf->max_def;
	Datum	   *elems = palloc(sizeof(Datum) * Max(lb->n, 1));
	bool	   *enulls = palloc(sizeof(bool) * Max(lb->n, 1));
	int			lbs[1] = {1};
	int			e = 0;
	int			v = 0;
	int			r;

	for (r = 0; r < n; r++)
	{
		int16		def = lb->def[e];
		int			k = 0;
		int			dims[1];

		nulls[r] = false;
		if (def < p->list_def)
		{
			nulls[r] = true;
			e++;
			continue;
		}
		if (def < p->elem_def)
		{
			values[r] = PointerGetDatum(construct_empty_array(ep->type));
			e++;
			continue;
		}
		do
		{
			def = lb->def[e];
			if (def < p->elem_def)
				pq_corrupt("column \"%s\" repeats a list without an element",
						   lb->leaf->name);
			enulls[k] = (def < max_def) || ep->cv.always_null;
			elems[k] = def < max_def ? (Datum) 0 : dense[v];
			v += (def == max_def);
			k++;
			e++;
		} while (e < lb->n && lb->rep[e] != 0);
		dims[0] = k;
		values[r] =
			PointerGetDatum(construct_md_array(elems, enulls, 1, dims, lbs,
											   ep->type, p->elmlen,
											   p->elmbyval, p->elmalign));
	}
}

/*
 * A top-level struct of primitives straight from its leaves' levels: each
 * leaf has one entry per row; the struct is NULL where they are below its
 * definition level (and they must agree), a field is NULL where its leaf
 * is below its own.
 */
static void
struct_from_levels(PqNestedColumn *nc, const PqLeafBatch *lb, int n,
				   Datum *values, bool *nulls)
{
	PqNestedPlan *p = nc->plan;
	TupleDesc	td = p->tupdesc;
	int16		sdef = nc->struct_def;
	int		   *vpos = palloc0(sizeof(int) * nc->nleaves);
	int		   *vcur = palloc(sizeof(int) * nc->nleaves);	/* -1: NULL */
	Datum	   *av = palloc(sizeof(Datum) * Max(td->natts, 1));
	bool	   *an = palloc(sizeof(bool) * Max(td->natts, 1));
	int			r;
	int			i;

	for (r = 0; r < n; r++)
	{
		bool		isnull = lb[0].def != NULL && lb[0].def[r] < sdef;

		/* each leaf's value in this row (one leaf may serve two attributes) */
		for (i = 0; i < nc->nleaves; i++)
		{
			bool		present = lb[i].def == NULL ||
			lb[i].def[r] == lb[i].leaf->max_def;

			if ((lb[i].def != NULL && lb[i].def[r] < sdef) != isnull)
				pq_corrupt("column \"%s\" disagrees with the other columns of its field: definition levels differ",
						   lb[i].leaf->name);
			vcur[i] = present ? vpos[i]++ : -1;
		}
		nulls[r] = isnull;
		if (isnull)
			continue;
		for (i = 0; i < td->natts; i++)
		{
			int			j;

			an[i] = true;
			av[i] = (Datum) 0;
			if (p->att_child[i] < 0)
				continue;
			j = p->atts[i]->leaf;
			if (vcur[j] < 0 || p->atts[i]->cv.always_null)
				continue;
			an[i] = false;
			av[i] = nc->leaf_datums[j][vcur[j]];
		}
		values[r] = HeapTupleGetDatum(heap_form_tuple(td, av, an));
	}
}

/* Names the column (and field) whose values failed to convert. */
static void
nested_error_context(void *arg)
{
	PqNestedColumn *nc = arg;
	const char *filename = pq_errloc_filename();

	if (filename)
		errcontext("reading %s of Parquet file \"%s\"", nc->converting,
				   filename);
	else
		errcontext("reading %s", nc->converting);
}

void
pqfdw_nested_column_fill(PqNestedColumn *nc, int64 rg_pos, int n,
						 Datum *values, bool *nulls, int64 file_row)
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
	if (nc->list_from_levels || nc->struct_from_levels)
	{
		if (nc->list_from_levels)
			list_from_levels(nc, &lb[0], n, values, nulls);
		else
			struct_from_levels(nc, lb, n, values, nulls);
		error_context_stack = cb.previous;
		return;
	}
	pq_assembler_build(nc->assembler, nc->rows);
	for (i = 0; i < n; i++)
		values[i] = pqfdw_nested_datum(nc, nc->plan, &nc->rows[i], &nulls[i]);
	error_context_stack = cb.previous;
}
