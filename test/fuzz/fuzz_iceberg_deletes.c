/*
 * fuzz_iceberg_deletes.c
 *		An Iceberg delete file from memory, as the Iceberg reader takes it
 *		(src/table/iceberg/delete_files.c): the input is the Parquet file,
 *		read as a position delete file, then as an equality delete file
 *		keyed by its first top-level primitive columns (and a column it
 *		lacks), then matched against itself as a data file.
 *
 * A refusal must say why and leave nothing behind.  Position deletes read
 * must have distinct paths in strcmp order, each found by its lookup, its
 * positions ascending and distinct, no more than the file's rows, and be
 * the same when read again; their union with another path's positions
 * must be ascending and distinct too.  A key set must hold at most one
 * key per row (one at least when there are rows), and matching the file
 * it was made of must find every row.  Files of more than MAX_ROWS rows
 * are not read: they cost time and memory, not coverage.
 */
#include "fuzz.h"

#include "format/read/file_reader.h"
#include "table/iceberg/delete_files.h"

#define MAX_ROWS 200000

static void
mem_read(PqSource *src, int64 offset, size_t len, uint8 *buf)
{
	if (offset < 0 || offset > src->size || len > (uint64) (src->size - offset))
		pq_corrupt("read past the end");
	if (len > 0)
		memcpy(buf, (const uint8 *) src->opaque + offset, len);
}

static bool
ascending(const PqIcebergDeletedRows *r)
{
	uint64		i;

	if ((r->count == 0) != (r->pos == NULL))
		return false;
	for (i = 1; i < r->count; i++)
		if (r->pos[i] <= r->pos[i - 1])
			return false;
	return true;
}

static void
check_positions(PqFile *file, uint64 rows)
{
	PqIcebergPositionDeletes d;
	PqIcebergPositionDeletes again;
	const char *why = NULL;
	uint64		total = 0;
	int			i;

	if (!pq_iceberg_read_position_deletes(file, &d, &why))
	{
		if (why == NULL || d.npaths != 0 || d.paths != NULL || d.rows != NULL)
			abort();
		return;
	}
	/* rows without a path or position are skipped: there may be none left */
	if (d.npaths < 0 || (d.npaths > 0 && rows == 0))
		abort();
	for (i = 0; i < d.npaths; i++)
	{
		if (i > 0 && strcmp(d.paths[i - 1], d.paths[i]) >= 0)
			abort();
		if (d.rows[i].count == 0 || !ascending(&d.rows[i]))
			abort();
		if (pq_iceberg_position_deletes_for(&d, d.paths[i]) != &d.rows[i])
			abort();
		total += d.rows[i].count;
	}
	if (total > rows)
		abort();
	if (d.npaths > 0)
	{
		const PqIcebergDeletedRows *a = &d.rows[0];
		const PqIcebergDeletedRows *b = &d.rows[d.npaths - 1];
		PqIcebergDeletedRows *u = pq_iceberg_deleted_rows_union(a, b);

		if (!ascending(u) || u->count < Max(a->count, b->count) ||
			u->count > a->count + b->count)
			abort();
	}

	/* the same again */
	if (!pq_iceberg_read_position_deletes(file, &again, &why) ||
		again.npaths != d.npaths)
		abort();
	for (i = 0; i < d.npaths; i++)
		if (strcmp(again.paths[i], d.paths[i]) != 0 ||
			again.rows[i].count != d.rows[i].count ||
			memcmp(again.rows[i].pos, d.rows[i].pos,
				   sizeof(uint64) * d.rows[i].count) != 0)
			abort();
}

static void
check_keys(PqFile *file, uint64 rows)
{
	const PqSchemaNode *root = file->schema->root;
	int			cols[4];
	int			ncols = 0;
	int			nested = -1;
	PqIcebergKeySet *set;
	PqIcebergDeletedRows out;
	const char *why = NULL;
	int			i;

	for (i = 0; i < file->schema->n_columns; i++)
	{
		const PqSchemaNode *n = file->schema->columns[i].node;

		if (n->parent == root && n->repetition != PQ_REPEATED)
		{
			if (ncols < 3)
				cols[ncols++] = i;
		}
		else if (nested < 0)
			nested = i;
	}
	cols[ncols++] = -1;
	set = pq_iceberg_keyset_create(ncols);
	if (!pq_iceberg_keyset_add_file(set, file, cols, &why))
	{
		if (why == NULL)
			abort();
		return;
	}
	if ((uint64) pq_iceberg_keyset_size(set) > rows ||
		(rows > 0 && pq_iceberg_keyset_size(set) < 1))
		abort();
	if (!pq_iceberg_keyset_match_file(set, file, cols, &out, &why) ||
		out.count != rows || (rows > 0 && out.pos[rows - 1] != rows - 1) ||
		!ascending(&out))
		abort();

	/* a leaf below the top level is refused */
	if (nested >= 0)
	{
		PqIcebergKeySet *other = pq_iceberg_keyset_create(1);

		if (pq_iceberg_keyset_add_file(other, file, &nested, &why) ||
			why == NULL)
			abort();
	}
}

static void
one(const uint8 *data, size_t size)
{
	/* an exact-size copy: a read past the file's end is caught */
	uint8	   *bytes = ut_exact_copy(data, size);
	PqSource	src;
	PqFile	   *file;
	uint64		rows = 0;
	int			rg;

	memset(&src, 0, sizeof(src));
	src.name = "fuzz";
	src.size = (int64) size;
	src.read = mem_read;
	src.opaque = bytes;
	file = pq_file_open(&src);
	for (rg = 0; rg < file->md.n_row_groups; rg++)
	{
		int64		n = file->md.row_groups[rg].num_rows;

		if (n < 0 || n > MAX_ROWS || rows + n > MAX_ROWS)
			return;
		rows += n;
	}
	check_positions(file, rows);
	check_keys(file, rows);
}

int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
