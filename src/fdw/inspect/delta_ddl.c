/*-------------------------------------------------------------------------
 *
 * delta_ddl.c
 *		The CREATE FOREIGN TABLE statement of a Delta Lake table
 *		(create_table_sql(), IMPORT FOREIGN SCHEMA): its columns from the
 *		table's schema, each with the type the reader reads it as.
 *
 * Delta's types map as the files' natural types do (docs/TYPES.md):
 * byte and short to smallint, timestamp to timestamptz, timestamp_ntz to
 * timestamp, decimal(p,s) to numeric(p,s); an array of a primitive to an
 * array of it, other nested types to jsonb.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <sys/stat.h>

#include "fdw/inspect/delta_ddl.h"
#include "fdw/table/table_snapshot.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"
#include "utils/builtins.h"

const char *
pqfdw_ddl_type(const char *const(*map)[2], int n, const char *t)
{
	int			i;
	int			p,
				s;
	char		rest;

	for (i = 0; i < n; i++)
		if (strcmp(t, map[i][0]) == 0)
			return map[i][1];
	if (sscanf(t, "decimal(%d,%d)%c", &p, &s, &rest) == 2 &&
		p >= 1 && p <= 38 && s >= 0 && s <= p)
		return psprintf("numeric(%d,%d)", p, s);
	return NULL;
}

/* A primitive Delta type's PostgreSQL type, or NULL when not one. */
static const char *
primitive_type(const char *t)
{
	static const char *const map[][2] = {
		{"boolean", "boolean"},
		{"byte", "smallint"},
		{"short", "smallint"},
		{"integer", "integer"},
		{"long", "bigint"},
		{"float", "real"},
		{"double", "double precision"},
		{"string", "text"},
		{"binary", "bytea"},
		{"date", "date"},
		{"timestamp", "timestamp with time zone"},
		{"timestamp_ntz", "timestamp without time zone"},
	};

	return pqfdw_ddl_type(map, lengthof(map), t);
}

const char *
pqfdw_delta_column_type(const PqJv *type)
{
	const char *kind;

	if (type == NULL)
		return "text";
	if (type->type == PQ_JV_STRING)
	{
		const char *t = primitive_type(type->u.str);

		return t ? t : "text";
	}
	kind = pq_jv_str(pq_jv_get(type, "type"));
	if (kind != NULL && strcmp(kind, "array") == 0)
	{
		const PqJv *elem = pq_jv_get(type, "elementType");
		const char *t = elem && elem->type == PQ_JV_STRING ?
		primitive_type(elem->u.str) : NULL;

		if (t != NULL)
			return psprintf("%s[]", t);
	}
	return "jsonb";
}

bool
pqfdw_is_delta_table(const char *location, const PqfdwRemoteId *remote)
{
	struct stat st;
	PqListing	listing;

	if (remote == NULL)
		return stat(psprintf("%s/_delta_log", location), &st) == 0 &&
			S_ISDIR(st.st_mode);
	pqfdw_remote_list(remote, psprintf("%s/_delta_log/", location), "/",
					  &listing);
	return listing.nobjects > 0;
}

static int
path_cmp(const ListCell *a, const ListCell *b)
{
	return strcmp(lfirst(a), lfirst(b));
}

List *
pqfdw_delta_tables_below(const char *dir, const PqfdwRemoteId *remote)
{
	size_t		dlen = strlen(dir);
	List	   *tables = NIL;

	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	if (remote == NULL)
	{
		DIR		   *d = AllocateDir(dir);
		struct dirent *de;

		while ((de = ReadDir(d, dir)) != NULL)
		{
			char	   *sub = psprintf("%.*s/%s", (int) dlen, dir, de->d_name);

			if (de->d_name[0] != '.' && de->d_name[0] != '_' &&
				pqfdw_is_delta_table(sub, NULL))
				tables = lappend(tables, sub);
		}
		FreeDir(d);
	}
	else
	{
		PqListing	listing;
		int			i;

		/* one listing of everything below: prefixes of a _delta_log/ */
		pqfdw_remote_list(remote, psprintf("%.*s/", (int) dlen, dir), NULL,
						  &listing);
		for (i = 0; i < listing.nobjects; i++)
		{
			const char *key = listing.objects[i].key;
			const char *log = strstr(key + dlen, "/_delta_log/");
			char	   *sub;
			ListCell   *lc;
			bool		seen = false;

			/* a table directly below dir: one name between them */
			if (log == NULL || key[dlen] != '/' ||
				memchr(key + dlen + 1, '/', log - (key + dlen + 1)) != NULL ||
				log == key + dlen)
				continue;
			sub = pnstrdup(key, log - key);
			foreach(lc, tables)
				if (strcmp(lfirst(lc), sub) == 0)
				seen = true;
			if (!seen)
				tables = lappend(tables, sub);
		}
	}
	list_sort(tables, path_cmp);
	return tables;
}

char *
pqfdw_delta_create_table(const char *table_name, const char *server_name,
						 const char *location, const PqfdwRemoteId *remote)
{
	PqfdwTableVersion latest = {-1, false, 0, NULL, -1};
	const PqfdwTableSnapshot *snap = pqfdw_delta_snapshot(location, &latest,
														  remote);
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	appendStringInfo(&buf, "CREATE FOREIGN TABLE %s (",
					 quote_identifier(table_name));
	for (i = 0; i < snap->schema.nfields; i++)
	{
		const PqDeltaField *f = &snap->schema.fields[i];

		appendStringInfo(&buf, "%s\n  %s %s", i ? "," : "",
						 quote_identifier(f->name),
						 pqfdw_delta_column_type(f->type_tree));
		/* names longer than NAMEDATALEN are truncated: map them back */
		if (strlen(f->name) >= NAMEDATALEN)
			appendStringInfo(&buf, " OPTIONS (column_name %s)",
							 quote_literal_cstr(f->name));
	}
	appendStringInfo(&buf, "\n) SERVER %s OPTIONS (format 'delta', location %s)",
					 quote_identifier(server_name),
					 quote_literal_cstr(location));
	return buf.data;
}
