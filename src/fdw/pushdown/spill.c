/*-------------------------------------------------------------------------
 *
 * spill.c
 *		Spilled rows of a grouped scan: written to and read back from
 *		temporary files (BufFile), as PostgreSQL's hash aggregation spills.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/pushdown/spill.h"
#include "utils/memutils.h"

static void
write_bytes(PqSpill *sp, BufFile *file, const void *p, size_t n)
{
	BufFileWrite(file, unconstify(void *, p), n);
	sp->bytes += n;
}

void
pqfdw_spill_row(PqSpill *sp, const PqVector **vecs, int nvec, int r,
				uint32 hash)
{
	int			p = pqfdw_spill_partition(hash, sp->level);
	PqSpillPart *part = &sp->parts[p];
	int			k;

	if (part->file == NULL)
	{
		if (sp->fileset != NULL)
		{
			char		name[MAXPGPATH];

			pqfdw_spill_shared_name(name, sizeof(name), p, sp->proc);
			part->file = BufFileCreateFileSet(sp->fileset, name);
		}
		else
			part->file = BufFileCreateTemp(false);
		part->level = sp->level;
	}
	part->rows++;
	for (k = 0; k < nvec; k++)
	{
		const PqVector *v = vecs[k];
		char		null = v->nulls[r];

		write_bytes(sp, part->file, &null, 1);
		if (null)
			continue;
		if (v->kind == PQV_DECIMAL)
		{
			/* numerics as int128: narrow and wide read back alike */
			int128		x = pqfdw_vdecimal(v, r);

			write_bytes(sp, part->file, &x, sizeof(int128));
		}
		else if (v->kind == PQV_INT)
			write_bytes(sp, part->file, &v->i[r], sizeof(int64));
		else if (v->kind != PQV_DATUM)
			write_bytes(sp, part->file, &v->d[r], sizeof(double));
		else
		{
			Pointer		t = DatumGetPointer(v->p[r]);
			uint32		len = VARSIZE_ANY_EXHDR(t);

			write_bytes(sp, part->file, &len, sizeof(len));
			write_bytes(sp, part->file, VARDATA_ANY(t), len);
		}
	}
}

void
pqfdw_spill_shared_name(char *name, size_t size, int part, int proc)
{
	snprintf(name, size, "pqfdw_group.%d.%d", part, proc);
}

PqSpillReader *
pqfdw_spill_reader_create(int nvec, const Oid *types, int max_rows,
						  MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	PqSpillReader *rd = palloc0(sizeof(PqSpillReader));
	int			k;

	rd->nvec = nvec;
	rd->max_rows = max_rows;
	rd->vecs = palloc0(sizeof(PqVector) * Max(nvec, 1));
	rd->nulls = palloc0(sizeof(bool *) * Max(nvec, 1));
	rd->texts = palloc0(sizeof(Datum *) * Max(nvec, 1));
	rd->wides = palloc0(sizeof(int128 *) * Max(nvec, 1));
	for (k = 0; k < nvec; k++)
	{
		PqVector   *v = &rd->vecs[k];

		v->type = types[k];
		if (!pqfdw_vkind_of(types[k], &v->kind))
			elog(ERROR, "type %u in a spilled row", types[k]);
		rd->nulls[k] = palloc(sizeof(bool) * max_rows);
		v->nulls = rd->nulls[k];
		if (v->kind == PQV_DECIMAL)
		{
			rd->wides[k] = palloc(sizeof(int128) * max_rows);
			v->w = rd->wides[k];
		}
		else if (v->kind == PQV_INT)
			v->i = palloc(sizeof(int64) * max_rows);
		else if (v->kind == PQV_DATUM)
		{
			rd->texts[k] = palloc(sizeof(Datum) * max_rows);
			v->p = rd->texts[k];
		}
		else
			v->d = palloc(sizeof(double) * max_rows);
	}
	rd->text_cxt = AllocSetContextCreate(cxt, "parquet_fdw spilled text",
										 ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(old);
	return rd;
}

void
pqfdw_spill_reader_start(PqSpillReader *rd, PqSpillPart part)
{
	rd->part = part;
	if (BufFileSeek(part.file, 0, 0, SEEK_SET) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rewind a parquet_fdw grouping spill file: %m")));
}

static void
read_bytes(BufFile *file, void *p, size_t n)
{
	if (BufFileRead(file, p, n) != n)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read from a parquet_fdw grouping spill file: %m")));
}

int
pqfdw_spill_reader_next(PqSpillReader *rd)
{
	BufFile    *file = rd->part.file;
	int			n = (int) Min((int64) rd->max_rows, rd->part.rows);
	int			r;
	int			k;

	MemoryContextReset(rd->text_cxt);
	if (n == 0)
	{
		if (file != NULL)
			BufFileClose(file);
		rd->part.file = NULL;
		return 0;
	}
	for (r = 0; r < n; r++)
		for (k = 0; k < rd->nvec; k++)
		{
			PqVector   *v = &rd->vecs[k];
			char		null;

			read_bytes(file, &null, 1);
			rd->nulls[k][r] = null != 0;
			if (null)
				continue;
			if (v->kind == PQV_DECIMAL)
				read_bytes(file, &rd->wides[k][r], sizeof(int128));
			else if (v->kind == PQV_INT)
				read_bytes(file, &v->i[r], sizeof(int64));
			else if (v->kind != PQV_DATUM)
				read_bytes(file, &v->d[r], sizeof(double));
			else
			{
				uint32		len;
				text	   *t;

				read_bytes(file, &len, sizeof(len));
				if (len > MaxAllocSize - VARHDRSZ)
					elog(ERROR, "corrupt parquet_fdw grouping spill file");
				t = MemoryContextAlloc(rd->text_cxt, len + VARHDRSZ);
				SET_VARSIZE(t, len + VARHDRSZ);
				read_bytes(file, VARDATA(t), len);
				rd->texts[k][r] = PointerGetDatum(t);
			}
		}
	rd->part.rows -= n;
	return n;
}
