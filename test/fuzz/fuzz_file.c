/*
 * fuzz_file.c
 *		A whole Parquet file from memory, as the FDW reads it: footer and
 *		schema (nested, legacy list and map rules), then for every row group
 *		the page index, the dictionary and every column chunk through the
 *		column reader (every encoding and codec the pages name), and the
 *		record assembly of every top-level field from its leaves.
 */
#include "fuzz.h"

#include "format/read/assemble.h"
#include "format/read/column_reader.h"
#include "format/read/dictionary_reader.h"
#include "format/read/page_index.h"

/* the whole input is the file */
static void
mem_read(PqSource *src, int64 offset, size_t len, uint8 *buf)
{
	const uint8 *data = src->opaque;

	if (offset < 0 || (uint64) offset > (uint64) src->size ||
		len > (uint64) (src->size - offset))
		pq_corrupt("read of %zu bytes at " INT64_FORMAT " is past the end",
				   len, offset);
	memcpy(buf, data + offset, len);
}

/* The assembler's leaves come from column readers of one row group. */
typedef struct Readers
{
	PqColumnReader **r;			/* per leaf of the field */
} Readers;

static int
src_next(void *arg, int leaf, int max, PqSegment *seg)
{
	return pq_column_reader_next(((Readers *) arg)->r[leaf], max, seg);
}

static void
src_skip(void *arg, int leaf, int64 n)
{
	pq_column_reader_skip(((Readers *) arg)->r[leaf], n);
}

static int64
src_position(void *arg, int leaf)
{
	return pq_column_reader_row(((Readers *) arg)->r[leaf]);
}

/* Every leaf of the file, one chunk after the other. */
static void
read_columns(PqFile *file, int rg)
{
	int			c;

	for (c = 0; c < file->schema->n_columns; c++)
	{
		PqColumnReader *r = pq_column_reader_create(file, c,
													CurrentMemoryContext);
		PqOffsetIndex oi;
		PqColumnIndex ci;
		PqDictionary dict;
		PqSegment	seg;

		if (pq_offset_index_read(file, rg, c, &oi))
			(void) pq_column_index_read(file, rg, c, &oi, &ci);
		(void) pq_read_dictionary(file, rg, c, &dict);
		pq_column_reader_start(r, rg);
		while (pq_column_reader_next(r, PQ_SEGMENT_CAP, &seg) > 0)
			;
	}
}

/* Each top-level field assembled from all its leaves, in batches of 7. */
static void
assemble_fields(PqFile *file, int rg)
{
	const PqSchemaNode *root = file->schema->root;
	int64		nrows = file->md.row_groups[rg].num_rows;
	int			f;

	for (f = 0; f < root->n_children; f++)
	{
		const PqSchemaNode *field = root->children[f];
		const PqSchemaNode **leaves = palloc(sizeof(PqSchemaNode *) *
											 Max(field->n_leaves, 1));
		Readers		rd;
		PqLeafSource src = {src_next, src_skip, src_position, &rd};
		PqAssembler *a;
		PqValue    *rows = palloc(sizeof(PqValue) * 7);
		int64		done = 0;
		int			i;

		if (field->n_leaves < 1)
			continue;
		rd.r = palloc(sizeof(PqColumnReader *) * field->n_leaves);
		for (i = 0; i < field->n_leaves; i++)
		{
			leaves[i] = file->schema->columns[field->first_leaf + i].node;
			rd.r[i] = pq_column_reader_create(file, field->first_leaf + i,
											  CurrentMemoryContext);
			pq_column_reader_start(rd.r[i], rg);
		}
		a = pq_assembler_create(field, leaves, field->n_leaves, src);
		pq_assembler_reset(a);
		/* skip the first row, then assemble the rest */
		if (nrows > 1)
		{
			pq_assembler_skip_to(a, 1);
			done = 1;
		}
		while (done < nrows)
		{
			int			n = (int) Min(7, nrows - done);

			pq_assembler_next(a, n);
			pq_assembler_build(a, rows);
			done += n;
		}
	}
}

static void
one(const uint8 *data, size_t size)
{
	PqSource	src = {0};
	PqFile	   *file;
	int			rg;

	src.name = "fuzz.parquet";
	src.size = size;
	src.read = mem_read;
	src.opaque = (void *) data;
	file = pq_file_open(&src);
	for (rg = 0; rg < file->md.n_row_groups; rg++)
	{
		read_columns(file, rg);
		assemble_fields(file, rg);
	}
}

int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
