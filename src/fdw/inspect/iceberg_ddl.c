/*-------------------------------------------------------------------------
 *
 * iceberg_ddl.c
 *		The CREATE FOREIGN TABLE statement of an Apache Iceberg table
 *		(create_table_sql(), IMPORT FOREIGN SCHEMA): its columns from the
 *		current schema, each with the type the reader reads it as.
 *
 * Iceberg's types map as the files' natural types do (docs/TYPES.md):
 * timestamp to timestamp, timestamptz to timestamptz (nanosecond ones
 * too, read to microseconds), fixed and binary to bytea, a list of a
 * primitive to an array of it, other nested types to jsonb.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <sys/stat.h>

#include "fdw/inspect/delta_ddl.h"
#include "fdw/inspect/iceberg_ddl.h"
#include "fdw/table/table_snapshot.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"
#include "utils/builtins.h"

/* A primitive Iceberg type's PostgreSQL type, or NULL when not one. */
static const char *
primitive_type(const char *t)
{
	static const char *const map[][2] = {
		{"boolean", "boolean"},
		{"int", "integer"},
		{"long", "bigint"},
		{"float", "real"},
		{"double", "double precision"},
		{"string", "text"},
		{"uuid", "uuid"},
		{"binary", "bytea"},
		{"date", "date"},
		{"time", "time without time zone"},
		{"timestamp", "timestamp without time zone"},
		{"timestamptz", "timestamp with time zone"},
		{"timestamp_ns", "timestamp without time zone"},
		{"timestamptz_ns", "timestamp with time zone"},
		{"variant", "jsonb"},
	};
	const char *pg = pqfdw_ddl_type(map, lengthof(map), t);

	if (pg != NULL)
		return pg;
	if (strncmp(t, "fixed[", 6) == 0 || strncmp(t, "geometry", 8) == 0 ||
		strncmp(t, "geography", 9) == 0)
		return "bytea";
	return NULL;
}

const char *
pqfdw_iceberg_column_type(const PqIcebergField *f)
{
	const char *prim = primitive_type(f->type);

	if (prim != NULL)
		return prim;
	if (strcmp(f->type, "list") == 0 && f->type_tree->type == PQ_JV_OBJECT)
	{
		const PqJv *e = pq_jv_get(f->type_tree, "element");
		const char *et = e && e->type == PQ_JV_STRING ? primitive_type(e->u.str) : NULL;

		if (et != NULL && strcmp(et, "jsonb") != 0)
			return psprintf("%s[]", et);
	}
	return "jsonb";
}

bool
pqfdw_is_iceberg_table(const char *location, const PqfdwRemoteId *remote)
{
	size_t		len = strlen(location);
	PqListing	listing;
	DIR		   *d;
	struct dirent *de;
	bool		found = false;
	char	   *dir;

	if (len > 14 && strcmp(location + len - 14, ".metadata.json") == 0)
		return true;
	dir = psprintf("%s/metadata", location);
	if (remote != NULL)
	{
		int			i;

		pqfdw_remote_list(remote, psprintf("%s/", dir), "/", &listing);
		for (i = 0; i < listing.nobjects && !found; i++)
		{
			size_t		k = strlen(listing.objects[i].key);

			found = k > 14 &&
				strcmp(listing.objects[i].key + k - 14, ".metadata.json") == 0;
		}
		return found;
	}
	d = AllocateDir(dir);
	if (d == NULL)
		return false;
	while (!found && (de = ReadDir(d, dir)) != NULL)
	{
		size_t		k = strlen(de->d_name);

		found = k > 14 && strcmp(de->d_name + k - 14, ".metadata.json") == 0;
	}
	FreeDir(d);
	return found;
}

static int
path_cmp(const ListCell *a, const ListCell *b)
{
	return strcmp(lfirst(a), lfirst(b));
}

List *
pqfdw_iceberg_tables_below(const char *dir)
{
	size_t		dlen = strlen(dir);
	List	   *tables = NIL;
	DIR		   *d = AllocateDir(dir);
	struct dirent *de;

	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	while ((de = ReadDir(d, dir)) != NULL)
	{
		char	   *sub = psprintf("%.*s/%s", (int) dlen, dir, de->d_name);

		if (de->d_name[0] != '.' && de->d_name[0] != '_' &&
			pqfdw_is_iceberg_table(sub, NULL))
			tables = lappend(tables, sub);
	}
	FreeDir(d);
	list_sort(tables, path_cmp);
	return tables;
}

char *
pqfdw_iceberg_create_table(const char *table_name, const char *server_name,
						   const char *location, const PqfdwRemoteId *remote)
{
	PqfdwTableRef ref;
	const PqfdwTableSnapshot *snap;
	StringInfoData buf;
	int			i;

	memset(&ref, 0, sizeof(ref));
	ref.format = PQFDW_FORMAT_ICEBERG;
	ref.location = location;
	ref.at.version = -1;
	ref.at.schema_id = -1;
	ref.remote = remote;
	snap = pqfdw_table_snapshot(&ref);
	initStringInfo(&buf);
	appendStringInfo(&buf, "CREATE FOREIGN TABLE %s (",
					 quote_identifier(table_name));
	for (i = 0; i < snap->ice_schema->nfields; i++)
	{
		const PqIcebergField *f = &snap->ice_schema->fields[i];

		appendStringInfo(&buf, "%s\n  %s %s", i ? "," : "",
						 quote_identifier(f->name),
						 pqfdw_iceberg_column_type(f));
		/* names longer than NAMEDATALEN are truncated: map them back */
		if (strlen(f->name) >= NAMEDATALEN)
			appendStringInfo(&buf, " OPTIONS (column_name %s)",
							 quote_literal_cstr(f->name));
	}
	appendStringInfo(&buf, "\n) SERVER %s OPTIONS (format 'iceberg', location %s)",
					 quote_identifier(server_name),
					 quote_literal_cstr(location));
	return buf.data;
}
