/*
 * fuzz_assemble.c
 *		Record assembly from repetition and definition levels: a schema
 *		shape chosen by the first byte (lists of lists, a struct of lists,
 *		a map of lists, a top-level repeated field, nested structs), then
 *		for each leaf a level stream from the input, handed to the
 *		assembler in segments of an input-chosen size as a column reader
 *		would (a segment ends where a page does).  Rows are skipped and
 *		assembled in batches; every level rule (and the entries that
 *		repeat a NULL list, which add nothing) is exercised.
 */
#include "fuzz.h"

#include "format/read/assemble.h"
#include "format/metadata/schema.h"

#define LEAF(n, r) FUZZ_LEAF(n, r, PQ_INT64, 0)
#define GROUP(n, r, k, ct) FUZZ_GROUP(n, r, k, ct, 0)

static const FuzzElem list_of_int[] = {
	GROUP("l", PQ_OPTIONAL, 1, PQ_CT_LIST), GROUP("list", PQ_REPEATED, 1, -1),
	LEAF("element", PQ_OPTIONAL)};
static const FuzzElem list_of_list[] = {
	GROUP("ll", PQ_OPTIONAL, 1, PQ_CT_LIST), GROUP("list", PQ_REPEATED, 1, -1),
	GROUP("element", PQ_OPTIONAL, 1, PQ_CT_LIST), GROUP("list", PQ_REPEATED, 1, -1),
	LEAF("element", PQ_OPTIONAL)};
static const FuzzElem struct_of_lists[] = {
	GROUP("s", PQ_OPTIONAL, 2, -1),
	GROUP("x", PQ_OPTIONAL, 1, PQ_CT_LIST), GROUP("list", PQ_REPEATED, 1, -1),
	LEAF("element", PQ_OPTIONAL),
	GROUP("y", PQ_OPTIONAL, 1, PQ_CT_LIST), GROUP("list", PQ_REPEATED, 1, -1),
	LEAF("element", PQ_REQUIRED)};
static const FuzzElem map_of_lists[] = {
	GROUP("m", PQ_OPTIONAL, 1, PQ_CT_MAP), GROUP("key_value", PQ_REPEATED, 2, -1),
	LEAF("key", PQ_REQUIRED),
	GROUP("value", PQ_OPTIONAL, 1, PQ_CT_LIST), GROUP("list", PQ_REPEATED, 1, -1),
	LEAF("element", PQ_OPTIONAL)};
static const FuzzElem repeated_top[] = {LEAF("r", PQ_REPEATED)};
static const FuzzElem nested_structs[] = {
	GROUP("s", PQ_OPTIONAL, 2, -1), LEAF("a", PQ_REQUIRED),
	GROUP("t", PQ_OPTIONAL, 1, -1), LEAF("b", PQ_OPTIONAL)};
static const FuzzElem list_of_structs[] = {
	GROUP("ls", PQ_OPTIONAL, 1, PQ_CT_LIST), GROUP("list", PQ_REPEATED, 1, -1),
	GROUP("element", PQ_OPTIONAL, 2, -1), LEAF("a", PQ_OPTIONAL),
	LEAF("b", PQ_REPEATED)};

static const struct
{
	const FuzzElem *e;
	int			n;
}			shapes[] = {
	{list_of_int, lengthof(list_of_int)},
	{list_of_list, lengthof(list_of_list)},
	{struct_of_lists, lengthof(struct_of_lists)},
	{map_of_lists, lengthof(map_of_lists)},
	{repeated_top, lengthof(repeated_top)},
	{nested_structs, lengthof(nested_structs)},
	{list_of_structs, lengthof(list_of_structs)},
};

/* A leaf's whole level stream, handed out in segments of seg_max entries. */
typedef struct Stream
{
	int			n;
	int16	   *rep;
	int16	   *def;
	int64	   *values;
	int			pos;
	int			vpos;
	int16		max_def;
} Stream;

typedef struct Source
{
	Stream	   *s;
	int			seg_max;
} Source;

static int
src_next(void *arg, int leaf, int max, PqSegment *seg)
{
	Source	   *src = arg;
	Stream	   *s = &src->s[leaf];
	int			n = Min(Min(max, src->seg_max), s->n - s->pos);
	int			nv = 0;
	int			i;

	memset(seg, 0, sizeof(*seg));
	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++)
		nv += (s->def[s->pos + i] == s->max_def);
	seg->n = n;
	seg->rep = s->rep ? s->rep + s->pos : NULL;
	seg->def = s->def + s->pos;
	seg->nvalues = nv;
	/* an exact copy, freed by no one: ASan sees reads past the values */
	seg->fixed = ut_exact_copy(s->values + s->vpos, sizeof(int64) * nv);
	s->pos += n;
	s->vpos += nv;
	return n;
}

static void
src_skip(void *arg, int leaf, int64 n)
{
	Source	   *src = arg;
	Stream	   *s = &src->s[leaf];
	int			i;

	if (n < 0 || n > s->n - s->pos)
		pq_corrupt("skip past the end of the levels");
	for (i = 0; i < n; i++)
		s->vpos += (s->def[s->pos + i] == s->max_def);
	s->pos += (int) n;
}

static int64
src_position(void *arg, int leaf)
{
	return ((Source *) arg)->s[leaf].pos;
}

static void
one(const uint8 *data, size_t size)
{
	FuzzInput	in = {data, size};
	int			which = fuzz_byte(&in) % lengthof(shapes);
	int			seg_max = 1 + fuzz_byte(&in) % 64;
	int			batch = 1 + fuzz_byte(&in) % 8;
	int			skip = fuzz_byte(&in) % 4;
	PqSchema   *schema = fuzz_schema(shapes[which].e, shapes[which].n);
	const PqSchemaNode *field = schema->root->children[0];
	const PqSchemaNode **leaves = palloc(sizeof(PqSchemaNode *) * field->n_leaves);
	Source		src = {palloc0(sizeof(Stream) * field->n_leaves), seg_max};
	PqLeafSource ls = {src_next, src_skip, src_position, &src};
	PqAssembler *a;
	PqValue    *rows = palloc(sizeof(PqValue) * batch);
	int			nrows = 0;
	int			done;
	int			i;
	int			k;

	for (i = 0; i < field->n_leaves; i++)
	{
		Stream	   *s = &src.s[i];
		const PqSchemaNode *leaf = schema->columns[field->first_leaf + i].node;
		int			rows_here = 0;

		leaves[i] = leaf;
		s->max_def = leaf->max_def;
		s->n = fuzz_byte(&in) % 64;
		s->rep = leaf->max_rep > 0 ? palloc(sizeof(int16) * Max(s->n, 1)) : NULL;
		s->def = palloc(sizeof(int16) * Max(s->n, 1));
		s->values = palloc(sizeof(int64) * Max(s->n, 1));
		for (k = 0; k < s->n; k++)
		{
			uint8		b = fuzz_byte(&in);

			/* levels in range, as the column reader checks them */
			if (s->rep)
				s->rep[k] = (b >> 4) % (leaf->max_rep + 1);
			s->def[k] = (b & 15) % (leaf->max_def + 1);
			s->values[k] = k;
			rows_here += (s->rep == NULL || s->rep[k] == 0);
		}
		/* the first leaf's rows are the row group's */
		if (i == 0)
			nrows = rows_here;
	}
	a = pq_assembler_create(field, leaves, field->n_leaves, ls);
	pq_assembler_reset(a);
	done = Min(skip, nrows);
	pq_assembler_skip_to(a, done);
	while (done < nrows)
	{
		int			n = Min(batch, nrows - done);

		pq_assembler_next(a, n);
		pq_assembler_build(a, rows);
		done += n;
	}
}

int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
