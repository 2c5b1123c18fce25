/*-------------------------------------------------------------------------
 *
 * import.c
 *		IMPORT FOREIGN SCHEMA "<directory>" (one table per *.parquet file,
 *		hive dataset or Delta table) and parquet_fdw.create_table_sql(path,
 *		table_name, server_name).
 *
 * Both write CREATE FOREIGN TABLE statements with each field's natural
 * PostgreSQL type (a Delta table's: delta_ddl.c).  IMPORT FOREIGN SCHEMA's
 * options are the key options and, as adjust/parquet_fdw took them, table
 * options that every Parquet table it creates gets.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "fdw/common/file_list.h"
#include "fdw/common/source.h"
#include "fdw/common/table_options.h"
#include "fdw/convert/nested.h"
#include "fdw/dataset/dataset.h"
#include "fdw/inspect/delta_ddl.h"
#include "fdw/inspect/iceberg_ddl.h"
#include "fdw/inspect/import.h"
#include "fdw/keys/keys.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

PG_FUNCTION_INFO_V1(parquet_fdw_create_table_sql);

/* Lists of primitives become arrays, other nested fields jsonb. */
static void
field_type(const PqSchemaNode *node, Oid *typid, int32 *typmod)
{
	if (pqfdw_is_nested_field(node))
		pqfdw_nested_natural_type(node, typid, typmod);
	else
		pqfdw_natural_type(node, typid, typmod);
}

/* Table name for a file (its base name without .parquet) or directory. */
static char *
table_name_for_path(const char *path)
{
	char	   *trimmed = pstrdup(path);
	const char *base;
	char	   *name;
	size_t		len = strlen(trimmed);

	/* a directory's name, for a dataset */
	while (len > 1 && trimmed[len - 1] == '/')
		trimmed[--len] = '\0';
	base = strrchr(trimmed, '/');
	base = base ? base + 1 : trimmed;
	name = pstrdup(base);
	len = strlen(name);
	if (len > 8 && strcmp(name + len - 8, ".parquet") == 0)
		name[len - 8] = '\0';
	return name;
}

/*
 * The hive partition keys of paths (when every path has the same ones),
 * each with the type its values suggest, as "name" => type OID pairs.
 */
typedef struct PartitionColumn
{
	char	   *name;
	Oid			type;
} PartitionColumn;

static List *
partition_columns(List *paths)
{
	PqfdwHivePath *parsed;
	List	   *keys = pqfdw_hive_keys(paths, PQFDW_HIVE_AUTO, &parsed);
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, keys)
	{
		PartitionColumn *pc = palloc(sizeof(PartitionColumn));

		pc->name = lfirst(lc);
		pc->type = pqfdw_hive_key_type(parsed, list_length(paths),
									   foreach_current_index(lc));
		result = lappend(result, pc);
	}
	return result;
}

static char *
create_table_statement(const char *table_name, const char *schema_name,
					   const char *server_name, const char *filename,
					   const PqFile *file, List *partitions,
					   const char *key_options)
{
	StringInfoData buf;
	const PqSchemaNode *root = file->schema->root;
	ListCell   *lc;
	int			i;

	initStringInfo(&buf);
	appendStringInfo(&buf, "CREATE FOREIGN TABLE %s (",
					 schema_name ?
					 quote_qualified_identifier(schema_name, table_name) :
					 quote_identifier(table_name));
	for (i = 0; i < root->n_children; i++)
	{
		const PqSchemaNode *f = root->children[i];
		Oid			typid;
		int32		typmod;

		field_type(f, &typid, &typmod);
		/* a field may have an empty name, which no column can have */
		appendStringInfo(&buf, "%s\n  %s %s", i ? "," : "",
						 f->name[0] != '\0' ? quote_identifier(f->name) :
						 psprintf("column%d", i + 1),
						 format_type_with_typemod(typid, typmod));
		/* names longer than NAMEDATALEN are truncated: map them back */
		if (f->name[0] == '\0' || strlen(f->name) >= NAMEDATALEN)
			appendStringInfo(&buf, " OPTIONS (column_name %s)",
							 quote_literal_cstr(f->name));
		/* a repeated field is a list that is never NULL, at most empty */
		if (f->repetition != PQ_OPTIONAL)
			appendStringInfoString(&buf, " NOT NULL");
	}
	/* partition keys after the fields, as DuckDB lists them */
	foreach(lc, partitions)
	{
		PartitionColumn *pc = lfirst(lc);

		if (pq_schema_find_field(file->schema, pc->name) != NULL)
			continue;
		appendStringInfo(&buf, "%s\n  %s %s", buf.data[buf.len - 1] == '(' ? "" : ",",
						 quote_identifier(pc->name), format_type_be(pc->type));
	}
	appendStringInfo(&buf, "\n) SERVER %s OPTIONS (filename %s%s)",
					 quote_identifier(server_name), quote_literal_cstr(filename),
					 key_options);
	return buf.data;
}

/*
 * The key options (footer_key, column_keys, aad_prefix) as they go into the
 * OPTIONS of the generated tables, and the decryption config they make.
 */
static char *
key_options_sql(const char *footer_key, const char *column_keys,
				const char *aad_prefix, const char *kms_command,
				PqDecryptionConfig **decrypt)
{
	StringInfoData buf;

	initStringInfo(&buf);
	if (footer_key)
		appendStringInfo(&buf, ", footer_key %s", quote_literal_cstr(footer_key));
	if (column_keys)
		appendStringInfo(&buf, ", column_keys %s", quote_literal_cstr(column_keys));
	if (aad_prefix)
		appendStringInfo(&buf, ", aad_prefix %s", quote_literal_cstr(aad_prefix));
	*decrypt = pqfdw_decryption_config(footer_key, column_keys, aad_prefix,
									   kms_command);
	return buf.data;
}

/*
 * The files of an imported directory by the entry of it they are in:
 * Lists of (subdirectory path or NULL for files of the directory itself,
 * then its files).
 */
static List *
group_by_subdirectory(const char *dir, List *files)
{
	List	   *groups = NIL;
	List	   *current = NIL;
	size_t		dlen = strlen(dir);
	ListCell   *lc;

	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	foreach(lc, files)
	{
		const char *path = lfirst(lc);
		const char *rest = path + dlen + 1;
		const char *slash = strchr(rest, '/');
		char	   *sub = slash ? pnstrdup(path, slash - path) : NULL;
		const char *cur = current ? linitial(current) : NULL;

		if (current == NIL || (sub == NULL) != (cur == NULL) ||
			(sub && strcmp(sub, cur) != 0))
		{
			if (current != NIL)
				groups = lappend(groups, current);
			current = list_make1(sub);
		}
		current = lappend(current, (void *) path);
	}
	if (current != NIL)
		groups = lappend(groups, current);
	return groups;
}

/* Whether table is one IMPORT FOREIGN SCHEMA's LIMIT TO / EXCEPT leaves. */
static bool
table_wanted(ImportForeignSchemaStmt *stmt, const char *table)
{
	ListCell   *tc;
	bool		listed = false;

	foreach(tc, stmt->table_list)
		if (strcmp(((RangeVar *) lfirst(tc))->relname, table) == 0)
		listed = true;
	return !((stmt->list_type == FDW_IMPORT_SCHEMA_LIMIT_TO && !listed) ||
			 (stmt->list_type == FDW_IMPORT_SCHEMA_EXCEPT && listed));
}

/* Add the statement for table name over filename (paths), unless excluded. */
static List *
import_table(ImportForeignSchemaStmt *stmt, ForeignServer *server,
			 const char *table, const char *filename, List *paths,
			 List *partitions, const char *keyopts,
			 const PqfdwAccess *access, List *commands)
{
	PqFile	   *file;

	if (!table_wanted(stmt, table))
		return commands;
	file = pqfdw_file_open(linitial(paths), access);
	pqfdw_source_close(file->src);
	return lappend(commands,
				   create_table_statement(table, NULL, server->servername,
										  filename, file, partitions,
										  keyopts));
}

/*
 * The CREATE FOREIGN TABLE statement of the Delta or Iceberg table at
 * location; NULL when it is neither.
 */
static char *
table_format_create(const char *name, const char *server,
					const char *location, const PqfdwRemoteId *remote)
{
	if (pqfdw_is_delta_table(location, remote))
		return pqfdw_delta_create_table(name, server, location, remote);
	if (pqfdw_is_iceberg_table(location, remote))
		return pqfdw_iceberg_create_table(name, server, location, remote);
	return NULL;
}

/*
 * The Delta (and, in a directory, Iceberg) tables directly below dir, each a table named after its
 * directory (prefix); their data files are left out of files.
 */
static List *
import_delta_tables(ImportForeignSchemaStmt *stmt, ForeignServer *server,
					const char *dir, const PqfdwRemoteId *remote,
					List **files, List *commands)
{
	ListCell   *lc;
	List	   *tables = pqfdw_delta_tables_below(dir, remote);

	if (remote == NULL)
		tables = list_concat(tables, pqfdw_iceberg_tables_below(dir));
	foreach(lc, tables)
	{
		const char *sub = lfirst(lc);
		size_t		len = strlen(sub);
		List	   *rest = NIL;
		ListCell   *fc;

		if (table_wanted(stmt, table_name_for_path(sub)))
			commands = lappend(commands,
							   table_format_create(table_name_for_path(sub),
												   server->servername, sub,
												   remote));
		foreach(fc, *files)
			if (strncmp(lfirst(fc), sub, len) != 0 ||
				((char *) lfirst(fc))[len] != '/')
			rest = lappend(rest, lfirst(fc));
		*files = rest;
	}
	return commands;
}

/* Table options IMPORT FOREIGN SCHEMA gives every table (as adjust's did). */
static const char *const table_options[] = {
	"sorted", "files_in_order", "parallel_workers", "hive_partitioning",
	"union_by_name", "filename_column", "file_row_number_column",
	"use_mmap", "use_threads", "max_open_files"
};

List *
pqfdw_ImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid)
{
	ForeignServer *server = GetForeignServer(serverOid);
	List	   *files;
	List	   *commands = NIL;
	List	   *partitions;
	ListCell   *lc;
	ListCell   *fc;
	PqfdwKeyOptions ko = {NULL, NULL, NULL};
	char	   *keyopts;
	PqDecryptionConfig *decrypt;
	PqfdwAccess access;
	const PqfdwRemoteId *remote;
	char	   *dir = stmt->remote_schema;
	char	   *location;
	StringInfoData more;

	initStringInfo(&more);

	foreach(lc, stmt->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		int			i;

		if (pqfdw_key_option(def, &ko))
			continue;
		for (i = 0; i < lengthof(table_options); i++)
			if (strcmp(def->defname, table_options[i]) == 0)
				break;
		if (i == lengthof(table_options))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\" for IMPORT FOREIGN SCHEMA", def->defname),
					 errhint("Valid options are footer_key, column_keys, aad_prefix, and the table options that every table created gets: sorted, files_in_order, parallel_workers, hive_partitioning, union_by_name, filename_column, file_row_number_column, use_mmap, use_threads and max_open_files.")));
		appendStringInfo(&more, ", %s %s", def->defname,
						 quote_literal_cstr(defGetString(def)));
	}
	keyopts = key_options_sql(ko.footer_key, ko.column_keys, ko.aad_prefix,
							  pqfdw_server_kms_command(server), &decrypt);
	keyopts = psprintf("%s%s", keyopts, more.data);
	access.decrypt = decrypt;
	access.remote.serverid = serverOid;
	access.remote.userid = GetUserId();
	if (pq_url_is_remote(dir))
	{
		/* a prefix, read with the role's user mapping on the server */
		if (dir[strlen(dir) - 1] != '/')
			dir = psprintf("%s/", dir);
		(void) pq_url_parse(dir);
	}
	else
	{
		if (!is_absolute_path(dir))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_SCHEMA_NOT_FOUND),
					 errmsg("IMPORT FOREIGN SCHEMA needs an absolute directory path or a URL, not \"%s\"",
							dir)));
		if (pqfdw_check_read_permission())
			pqfdw_check_readable_paths(list_make1(dir));

	}

	/* the directory is a Delta or Iceberg table: one table */
	remote = pq_url_is_remote(dir) ? &access.remote : NULL;
	location = remote ? pnstrdup(dir, strlen(dir) - 1) : dir;
	if (pqfdw_is_delta_table(location, remote) ||
		pqfdw_is_iceberg_table(location, remote))
		return table_wanted(stmt, table_name_for_path(location)) ?
			list_make1(table_format_create(table_name_for_path(location),
										   server->servername, location,
										   remote)) :
			NIL;
	files = pqfdw_expand_paths(dir, &access.remote);
	commands = import_delta_tables(stmt, server, dir, remote, &files, commands);

	/* the directory is one hive-partitioned dataset: one table */
	partitions = partition_columns(files);
	if (partitions != NIL)
		return import_table(stmt, server, table_name_for_path(dir),
							dir, files, partitions, keyopts, &access, NIL);

	/*
	 * Else a table for each file, but for each subdirectory that is a hive-
	 * partitioned dataset one table named after it.
	 */
	foreach(lc, group_by_subdirectory(dir, files))
	{
		List	   *group = lfirst(lc);
		const char *sub = linitial(group);
		List	   *paths = list_delete_first(list_copy(group));

		if (sub != NULL && (partitions = partition_columns(paths)) != NIL)
		{
			commands = import_table(stmt, server, table_name_for_path(sub),
									pq_url_is_remote(sub) ? psprintf("%s/", sub) : sub,
									paths, partitions, keyopts, &access,
									commands);
			continue;
		}
		foreach(fc, paths)
			commands = import_table(stmt, server,
									table_name_for_path(lfirst(fc)),
									lfirst(fc), list_make1(lfirst(fc)), NIL,
									keyopts, &access, commands);
	}
	return commands;
}

/*
 * Argument n as a C string, or NULL when it is NULL or not passed at all:
 * version 0.1's create_table_sql(path, table_name, server_name) has no key
 * arguments, and a database keeps that declaration until ALTER EXTENSION
 * parquet_fdw UPDATE, while this library is already the new one.
 */
static char *
optional_text_arg(FunctionCallInfo fcinfo, int n)
{
	if (PG_NARGS() <= n || PG_ARGISNULL(n))
		return NULL;
	return text_to_cstring(PG_GETARG_TEXT_PP(n));
}

void
pqfdw_filename_access(const char *filename, const char *server,
					  PqfdwAccess *access)
{
	List	   *items = pqfdw_split_paths(filename);
	List	   *local = NIL;
	ListCell   *lc;

	foreach(lc, items)
		if (!pq_url_is_remote(lfirst(lc)))
		local = lappend(local, lfirst(lc));
	if (local != NIL && pqfdw_check_read_permission())
		pqfdw_check_readable_paths(local);
	pqfdw_access_local(access, NULL);
	/* URLs are read with the role's user mapping on the server named */
	if (list_length(local) < list_length(items))
	{
		access->remote.serverid = GetForeignServerByName(server, false)->serverid;
		access->remote.userid = GetUserId();
	}
}

char *
pqfdw_parquet_table_sql(const char *filename, const char *table,
						const char *schema, const char *server,
						const PqfdwAccess *access, const char *options)
{
	List	   *paths = pqfdw_expand_paths(filename, &access->remote);
	PqFile	   *file;

	if (paths == NIL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("no Parquet files match \"%s\"", filename)));
	file = linitial(pqfdw_open_footers(paths, access, true));
	return create_table_statement(table ? table : table_name_for_path(linitial(paths)),
								  schema, server, filename, file,
								  partition_columns(paths), options);
}

Datum
parquet_fdw_create_table_sql(PG_FUNCTION_ARGS)
{
	char	   *filename;
	char	   *server;
	char	   *keyopts;
	PqDecryptionConfig *decrypt;
	PqfdwAccess access;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("path must not be NULL")));
	filename = text_to_cstring(PG_GETARG_TEXT_PP(0));
	server = PG_ARGISNULL(2) ? "parquet_srv" :
		text_to_cstring(PG_GETARG_TEXT_PP(2));
	pqfdw_filename_access(filename, server, &access);
	/* a Delta or Iceberg table's directory (prefix): its schema */
	if (list_length(pqfdw_split_paths(filename)) == 1)
	{
		const PqfdwRemoteId *remote = OidIsValid(access.remote.serverid) ?
		&access.remote : NULL;
		char	   *location = pstrdup(filename);
		const char *name;
		char	   *sql;

		while (strlen(location) > 1 && location[strlen(location) - 1] == '/')
			location[strlen(location) - 1] = '\0';
		name = PG_ARGISNULL(1) ? table_name_for_path(location) :
			text_to_cstring(PG_GETARG_TEXT_PP(1));

		sql = table_format_create(name, server, location, remote);
		if (sql != NULL)
			PG_RETURN_TEXT_P(cstring_to_text(sql));
	}

	keyopts = key_options_sql(optional_text_arg(fcinfo, 3),
							  optional_text_arg(fcinfo, 4),
							  optional_text_arg(fcinfo, 5),
							  NULL, &decrypt);
	access.decrypt = decrypt;
	PG_RETURN_TEXT_P(cstring_to_text(pqfdw_parquet_table_sql(filename,
															 PG_ARGISNULL(1) ? NULL :
															 text_to_cstring(PG_GETARG_TEXT_PP(1)),
															 NULL, server,
															 &access, keyopts)));
}
