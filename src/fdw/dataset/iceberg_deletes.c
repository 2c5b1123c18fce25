/*-------------------------------------------------------------------------
 *
 * iceberg_deletes.c
 *		The rows of an Iceberg data file that its table deleted: positions
 *		from position delete files and deletion vectors, and the rows whose
 *		equality-key columns match a row of an equality delete file, all as
 *		one ascending list of positions that the scan skips as Delta's
 *		deletion vectors are skipped (never read, then filtered).
 *
 * A delete file usually applies to many data files, so what it deletes is
 * read once per snapshot and kept with it (PqfdwIcebergDelete.parsed, in
 * the snapshot's memory).  Equality deletes are matched by reading the
 * data file's key columns before its rows are read: a cost only files
 * with equality deletes pay, and what makes them a row selection too.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/columns.h"
#include "fdw/common/source.h"
#include "fdw/dataset/dataset.h"
#include "table/iceberg/delete_files.h"
#include "utils/memutils.h"

static void
bad_delete(const PqfdwTableSnapshot *s, const PqfdwIcebergDelete *d,
		   const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("Iceberg table \"%s\" cannot be read: delete file \"%s\" is invalid: %s",
					s->location, d->path, why)));
}

/* A deletion vector: the blob of its Puffin file, decoded as Delta's are. */
static PqIcebergDeletedRows *
read_dv(const PqfdwTableSnapshot *s, PqfdwIcebergDelete *d,
		const PqfdwAccess *access)
{
	const PqIcebergDataFile *df = d->df;
	PqDeltaDv	dv;
	PqDeletedRows rows;
	PqIcebergDeletedRows *out;
	PqSource   *src;
	uint8	   *buf;
	const char *why = NULL;

	if (df->content_offset < 0 || df->content_size_in_bytes < 8 ||
		df->content_size_in_bytes > PQ_DV_MAX_BYTES + 8 ||
		df->record_count < 0 || df->record_count > PQ_DV_MAX_POSITIONS)
		bad_delete(s, d, "its deletion vector's offset, size or count is out of range");
	src = pqfdw_source_open_named(d->path, d->path, access);
	if (df->content_offset > src->size ||
		df->content_size_in_bytes > src->size - df->content_offset)
		bad_delete(s, d, "its deletion vector lies past the file's end");
	buf = palloc_extended(df->content_size_in_bytes, MCXT_ALLOC_HUGE);
	src->read(src, df->content_offset, df->content_size_in_bytes, buf);
	pqfdw_source_close(src);

	/* the blob is Delta's stored form: size, magic and bitmap, CRC-32 */
	dv.storage_type = 'p';
	dv.path_or_inline = d->path;
	dv.offset = Max(df->content_offset, 1);
	dv.size_in_bytes = df->content_size_in_bytes - 8;
	dv.cardinality = df->record_count;
	if (!pq_delta_dv_decode(&dv, buf, df->content_size_in_bytes, &rows, &why))
		bad_delete(s, d, why);
	pfree(buf);
	out = palloc(sizeof(PqIcebergDeletedRows));
	out->count = rows.count;
	out->pos = rows.pos;
	return out;
}

/*
 * The leaf column of field id in file (by id; in a file without ids by a
 * mapped name, else its name in the table's schema); -1 when the file
 * lacks it.  Nested columns are refused by the key set, which names them.
 */
static int
key_column(const PqfdwTableSnapshot *s, const PqFile *file, int32 id)
{
	const PqIcebergField *f = pqfdw_iceberg_schema_field(s->ice_schema, id);
	const char *const *names = NULL;
	PqSchemaNode *node;
	int			i;

	for (i = 0; i < s->nmapped; i++)
		if (s->mapped_ids[i] == id)
			names = s->mapped_names[i];
	node = pqfdw_field_by_id(file->schema, id, names, f ? f->name : NULL);
	return node ? node->first_leaf : -1;
}

static int *
key_columns(const PqfdwTableSnapshot *s, const PqFile *file,
			const PqfdwIcebergDelete *d)
{
	int		   *cols = palloc(sizeof(int) * d->df->nequality_ids);
	int			i;

	for (i = 0; i < d->df->nequality_ids; i++)
		cols[i] = key_column(s, file, d->df->equality_ids[i]);
	return cols;
}

typedef struct MappedRows
{
	char	   *path;
	PqIcebergDeletedRows *rows;
} MappedRows;

static int
mapped_cmp(const void *a, const void *b)
{
	return strcmp(((const MappedRows *) a)->path, ((const MappedRows *) b)->path);
}

/*
 * A position delete file's rows keyed by where their data files are now:
 * writers may name a data file otherwise than the manifest does (another
 * scheme for one store), which the location map makes one path.
 */
static PqIcebergPositionDeletes *
mapped_deletes(const PqfdwTableSnapshot *s, const PqIcebergPositionDeletes *pd)
{
	PqIcebergPositionDeletes *out = palloc0(sizeof(PqIcebergPositionDeletes));
	MappedRows *m = palloc(sizeof(MappedRows) * Max(pd->npaths, 1));
	int			i;

	for (i = 0; i < pd->npaths; i++)
	{
		char	   *mapped = pqfdw_snapshot_map_path(s, pd->paths[i]);

		m[i].path = mapped ? mapped : pd->paths[i];
		m[i].rows = &pd->rows[i];
	}
	if (pd->npaths > 1)
		qsort(m, pd->npaths, sizeof(MappedRows), mapped_cmp);
	out->paths = palloc(sizeof(char *) * Max(pd->npaths, 1));
	out->rows = palloc(sizeof(PqIcebergDeletedRows) * Max(pd->npaths, 1));
	for (i = 0; i < pd->npaths; i++)
	{
		if (out->npaths > 0 &&
			strcmp(out->paths[out->npaths - 1], m[i].path) == 0)
		{
			out->rows[out->npaths - 1] =
				*pq_iceberg_deleted_rows_union(&out->rows[out->npaths - 1],
											   m[i].rows);
			continue;
		}
		out->paths[out->npaths] = m[i].path;
		out->rows[out->npaths++] = *m[i].rows;
	}
	return out;
}

/* What d deletes, read on first use into the snapshot's memory. */
static void *
parsed(const PqfdwTableSnapshot *s, PqfdwIcebergDelete *d,
	   const PqfdwAccess *access)
{
	MemoryContext old;
	PqFile	   *file;
	const char *why = NULL;

	if (d->parsed != NULL)
		return d->parsed;
	old = MemoryContextSwitchTo(s->cxt);
	if (d->dv)
		d->parsed = read_dv(s, d, access);
	else
	{
		file = pqfdw_file_open_named(d->path, d->path, access);
		if (d->content == PQ_ICEBERG_CONTENT_POSITION_DELETES)
		{
			PqIcebergPositionDeletes *pd = palloc0(sizeof(PqIcebergPositionDeletes));

			if (!pq_iceberg_read_position_deletes(file, pd, &why))
				bad_delete(s, d, why);
			d->parsed = mapped_deletes(s, pd);
			pqfdw_source_close(file->src);
		}
		else
		{
			PqIcebergKeySet *set = pq_iceberg_keyset_create(d->df->nequality_ids);

			if (!pq_iceberg_keyset_add_file(set, file, key_columns(s, file, d),
											&why))
				bad_delete(s, d, why);
			d->parsed = set;
			pqfdw_source_close(file->src);
		}
	}
	MemoryContextSwitchTo(old);
	return d->parsed;
}

PqDeletedRows *
pqfdw_iceberg_deleted_rows(PqfdwDataset *ds, int file)
{
	const PqfdwTableSnapshot *s = pqfdw_table_snapshot(&ds->ref);
	int			i = pqfdw_snapshot_file(s, ds->paths[file]);
	const PqfdwIcebergFile *f;
	PqIcebergDeletedRows *all = NULL;
	PqFile	   *data = NULL;
	PqDeletedRows *out;
	MemoryContext old;
	int			k;

	if (i < 0)
		return NULL;
	f = s->ice[i];
	old = MemoryContextSwitchTo(ds->cxt);
	for (k = 0; k < f->ndeletes; k++)
	{
		PqfdwIcebergDelete *d = f->deletes[k];
		const PqIcebergDeletedRows *rows;
		PqIcebergDeletedRows matched;
		const char *why = NULL;

		if (d->dv)
			rows = parsed(s, d, &ds->access);
		else if (d->content == PQ_ICEBERG_CONTENT_POSITION_DELETES)
			rows = pq_iceberg_position_deletes_for(parsed(s, d, &ds->access),
												   s->paths[i]);
		else
		{
			const PqIcebergKeySet *set = parsed(s, d, &ds->access);

			if (pq_iceberg_keyset_size(set) == 0)
				continue;
			if (data == NULL)
				data = pqfdw_file_open_named(ds->paths[file], ds->paths[file],
											 &ds->access);
			if (!pq_iceberg_keyset_match_file(set, data,
											  key_columns(s, data, d),
											  &matched, &why))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("Iceberg table \"%s\" cannot be read: equality delete file \"%s\" does not fit data file \"%s\": %s",
								s->location, d->path, ds->paths[file], why)));
			rows = &matched;
		}
		if (rows != NULL && rows->count > 0)
			all = pq_iceberg_deleted_rows_union(all, rows);
	}
	if (data != NULL)
		pqfdw_source_close(data->src);
	out = palloc0(sizeof(PqDeletedRows));
	if (all != NULL)
	{
		out->count = all->count;
		out->pos = all->pos;
	}
	MemoryContextSwitchTo(old);
	return out;
}
