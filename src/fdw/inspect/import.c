/*-------------------------------------------------------------------------
 *
 * import.c
 *		IMPORT FOREIGN SCHEMA "<directory>" (one table per *.parquet file)
 *		and parquet_fdw.create_table_sql(path, table_name, server_name).
 *
 * Both write CREATE FOREIGN TABLE statements with each field's natural
 * PostgreSQL type.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "fdw/convert/nested.h"
#include "fdw/inspect/import.h"
#include "foreign/foreign.h"
#include "fdw/keys/keys.h"
#include "fdw/common/parquet_fdw.h"
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

/* Table name for a file: its base name without the .parquet suffix. */
static char *
table_name_for_path(const char *path)
{
	const char *base = strrchr(path, '/');
	char	   *name;
	size_t		len;

	base = base ? base + 1 : path;
	name = pstrdup(base);
	len = strlen(name);
	if (len > 8 && strcmp(name + len - 8, ".parquet") == 0)
		name[len - 8] = '\0';
	return name;
}

static char *
create_table_statement(const char *table_name, const char *schema_name,
					   const char *server_name, const char *filename,
					   const PqFile *file, const char *key_options)
{
	StringInfoData buf;
	const PqSchemaNode *root = file->schema->root;
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

List *
pqfdw_ImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid)
{
	ForeignServer *server = GetForeignServer(serverOid);
	List	   *files;
	List	   *commands = NIL;
	ListCell   *lc;
	PqfdwKeyOptions ko = {NULL, NULL, NULL};
	char	   *keyopts;
	PqDecryptionConfig *decrypt;

	pqfdw_check_read_permission();
	foreach(lc, stmt->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (!pqfdw_key_option(def, &ko))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\" for IMPORT FOREIGN SCHEMA", def->defname),
					 errhint("Valid options are footer_key, column_keys and aad_prefix.")));
	}
	keyopts = key_options_sql(ko.footer_key, ko.column_keys, ko.aad_prefix,
							  pqfdw_server_kms_command(server), &decrypt);
	if (!is_absolute_path(stmt->remote_schema))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_SCHEMA_NOT_FOUND),
				 errmsg("IMPORT FOREIGN SCHEMA needs an absolute directory path, not \"%s\"",
						stmt->remote_schema)));
	files = pqfdw_expand_paths(stmt->remote_schema);

	foreach(lc, files)
	{
		const char *path = lfirst(lc);
		char	   *table = table_name_for_path(path);
		ListCell   *tc;
		bool		listed = false;
		PqFile	   *file;

		foreach(tc, stmt->table_list)
		{
			RangeVar   *rv = (RangeVar *) lfirst(tc);

			if (strcmp(rv->relname, table) == 0)
				listed = true;
		}
		if ((stmt->list_type == FDW_IMPORT_SCHEMA_LIMIT_TO && !listed) ||
			(stmt->list_type == FDW_IMPORT_SCHEMA_EXCEPT && listed))
			continue;

		file = pqfdw_file_open(path, decrypt);
		pqfdw_source_close(file->src);
		commands = lappend(commands,
						   create_table_statement(table, NULL,
												  server->servername, path,
												  file, keyopts));
	}
	return commands;
}

Datum
parquet_fdw_create_table_sql(PG_FUNCTION_ARGS)
{
	char	   *filename;
	char	   *table;
	char	   *server;
	List	   *paths;
	PqFile	   *file;
	char	   *keyopts;
	PqDecryptionConfig *decrypt;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("path must not be NULL")));
	pqfdw_check_read_permission();
	filename = text_to_cstring(PG_GETARG_TEXT_PP(0));
	server = PG_ARGISNULL(2) ? "parquet_srv" :
		text_to_cstring(PG_GETARG_TEXT_PP(2));

	paths = pqfdw_expand_paths(filename);
	if (paths == NIL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("no Parquet files match \"%s\"", filename)));
	keyopts = key_options_sql(PG_ARGISNULL(3) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(3)),
							  PG_ARGISNULL(4) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(4)),
							  PG_ARGISNULL(5) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(5)),
							  NULL, &decrypt);
	file = linitial(pqfdw_open_footers(paths, decrypt));
	table = PG_ARGISNULL(1) ? table_name_for_path(linitial(paths)) :
		text_to_cstring(PG_GETARG_TEXT_PP(1));

	PG_RETURN_TEXT_P(cstring_to_text(create_table_statement(table, NULL, server,
															filename, file,
															keyopts)));
}
