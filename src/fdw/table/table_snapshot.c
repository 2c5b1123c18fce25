/*-------------------------------------------------------------------------
 *
 * table_snapshot.c
 *		What the scan asks of a table format's snapshot, whichever format:
 *		the snapshot a foreign table's options name, a file's index, the
 *		name or field id a column has in the files, and the value of a
 *		column a file lacks.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/table/iceberg_files.h"

const PqfdwTableSnapshot *
pqfdw_table_snapshot(const PqfdwTableRef *ref)
{
	if (ref->format == PQFDW_FORMAT_ICEBERG)
		return pqfdw_iceberg_snapshot(ref);
	return pqfdw_delta_snapshot(ref->location, &ref->at, ref->remote);
}

int
pqfdw_snapshot_file(const PqfdwTableSnapshot *s, const char *path)
{
	int			lo = 0;
	int			hi = s->nfiles - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = strcmp(s->paths[mid], path);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The field called name: exactly, else case-insensitively when unambiguous. */
static const PqDeltaField *
field_named(const PqfdwTableSnapshot *s, const char *name)
{
	const PqDeltaField *found = NULL;
	int			i;

	for (i = 0; i < s->schema.nfields; i++)
		if (strcmp(s->schema.fields[i].name, name) == 0)
			return &s->schema.fields[i];
	for (i = 0; i < s->schema.nfields; i++)
		if (pg_strcasecmp(s->schema.fields[i].name, name) == 0)
		{
			if (found != NULL)
				return NULL;
			found = &s->schema.fields[i];
		}
	return found;
}

const char *
pqfdw_snapshot_field_name(const PqfdwTableSnapshot *s, const char *name)
{
	const PqDeltaField *f = field_named(s, name);

	return f ? pq_delta_physical_name(f, s->mapping) : NULL;
}

bool
pqfdw_snapshot_field_id(const PqfdwTableSnapshot *s, const char *name,
						int32 *id, const char *const **names)
{
	const PqDeltaField *f;

	if (s->format == PQFDW_FORMAT_ICEBERG)
		return pqfdw_iceberg_field_id(s, name, id, names);
	if (s->mapping != PQ_DELTA_MAPPING_ID || (f = field_named(s, name)) == NULL ||
		f->id < 0 || f->id > PG_INT32_MAX)
		return false;
	{
		const char **list = palloc(sizeof(char *) * 2);

		list[0] = pq_delta_physical_name(f, s->mapping);
		list[1] = NULL;
		*id = (int32) f->id;
		*names = list;
	}
	return true;
}

const char *
pqfdw_snapshot_missing_value(const PqfdwTableSnapshot *s, int file,
							 const char *name)
{
	if (s->format == PQFDW_FORMAT_ICEBERG)
		return pqfdw_iceberg_missing_value(s, file, name);
	return NULL;
}

char *
pqfdw_snapshot_map_path(const PqfdwTableSnapshot *s, const char *recorded)
{
	if (s->ice_paths == NULL)
		return pstrdup(recorded);
	return pqfdw_iceberg_try_map_path(s->ice_paths, recorded);
}
