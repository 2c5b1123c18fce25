/*-------------------------------------------------------------------------
 *
 * table_options.c
 *		Option validation and file list expansion for parquet_fdw.
 *
 * The filename option names one file, a comma-separated list, a glob or a
 * directory (file_list.c).  Every path must be absolute.  As with file_fdw,
 * setting it requires superuser or pg_read_server_files.  Option
 * files_func of adjust/parquet_fdw (adjust_options.c) names a function
 * that returns the paths instead: setting it needs the same, and its owner
 * must be a role that may name files too, since it decides which files
 * are read.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/reloptions.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_foreign_table.h"
#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "fdw/common/adjust_options.h"
#include "fdw/common/file_list.h"
#include "fdw/common/pg_compat.h"
#include "fdw/common/table_options.h"
#include "fdw/keys/keys.h"
#include "fdw/remote/remote.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/varlena.h"

typedef struct PqfdwOption
{
	const char *name;
	Oid			context;
} PqfdwOption;

static const PqfdwOption valid_options[] = {
	{"filename", ForeignTableRelationId},
	{"format", ForeignTableRelationId},
	{"location", ForeignTableRelationId},
	{"version", ForeignTableRelationId},
	{"timestamp", ForeignTableRelationId},
	{"snapshot_id", ForeignTableRelationId},
	{"ref", ForeignTableRelationId},
	{"location_map", ForeignTableRelationId},
	{"footer_key", ForeignTableRelationId},
	{"column_keys", ForeignTableRelationId},
	{"aad_prefix", ForeignTableRelationId},
	{"parallel_workers", ForeignTableRelationId},
	{"sorted", ForeignTableRelationId},
	{"hive_partitioning", ForeignTableRelationId},
	{"union_by_name", ForeignTableRelationId},
	{"filename_column", ForeignTableRelationId},
	{"file_row_number_column", ForeignTableRelationId},
	/* adjust/parquet_fdw's (adjust_options.c) */
	{"files_func", ForeignTableRelationId},
	{"files_func_arg", ForeignTableRelationId},
	{"files_in_order", ForeignTableRelationId},
	{"use_mmap", ForeignTableRelationId},
	{"use_threads", ForeignTableRelationId},
	{"max_open_files", ForeignTableRelationId},
	/* adjust's README maps users with it; it never meant anything */
	{"user", UserMappingRelationId},
	{"column_name", AttributeRelationId},
	{"kms_command", ForeignServerRelationId},
	{NULL, InvalidOid}
};

PG_FUNCTION_INFO_V1(parquet_fdw_validator);

bool
pqfdw_parse_int64(const char *s, int64 min, int64 max, int64 *value)
{
	char	   *end;

	errno = 0;
	*value = strtoi64(s, &end, 10);
	return errno == 0 && end != s && *end == '\0' &&
		*value >= min && *value <= max;
}

/* parallel_workers: as the storage parameter of tables, 0 to 1024. */
static int
parallel_workers_option(DefElem *def)
{
	char	   *value = defGetString(def);
	int64		n;

	if (!pqfdw_parse_int64(value, 0, 1024, &n))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for option \"parallel_workers\": \"%s\"",
						value),
				 errhint("Give a number of workers from 0 to 1024.")));
	return (int) n;
}

/* version: a table version, 0 or more. */
static int64
version_option(DefElem *def)
{
	char	   *value = defGetString(def);
	int64		v;

	if (!pqfdw_parse_int64(value, 0, PG_INT64_MAX, &v))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for option \"version\": \"%s\"", value),
				 errhint("Give a table version: a whole number, 0 or more.")));
	return v;
}

/* snapshot_id: an Iceberg snapshot id, any 64-bit integer but -1. */
static int64
snapshot_id_option(DefElem *def)
{
	char	   *value = defGetString(def);
	int64		v;

	if (!pqfdw_parse_int64(value, PG_INT64_MIN, PG_INT64_MAX, &v) || v == -1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for option \"snapshot_id\": \"%s\"", value),
				 errhint("Give an Iceberg snapshot id: a whole number.")));
	return v;
}

/*
 * timestamp (and parquet_fdw.as_of): a timestamptz, as its input function
 * reads it (whose ERROR names the text), and finite.
 */
static TimestampTz
timestamp_option(const char *name, const char *value)
{
	TimestampTz t = DatumGetTimestampTz(DirectFunctionCall3(timestamptz_in,
															CStringGetDatum(value),
															ObjectIdGetDatum(InvalidOid),
															Int32GetDatum(-1)));

	if (TIMESTAMP_NOT_FINITE(t))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for %s: \"%s\"", name, value),
				 errhint("Give a finite timestamp with time zone, for example '2024-05-01 12:00:00+00'.")));
	return t;
}

char	   *pqfdw_as_of = NULL;

/* hive_partitioning: auto (the default), true or false. */
static PqfdwHiveMode
hive_option(DefElem *def)
{
	char	   *value = defGetString(def);
	bool		b;

	if (pg_strcasecmp(value, "auto") == 0)
		return PQFDW_HIVE_AUTO;
	if (!parse_bool(value, &b))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for option \"hive_partitioning\": \"%s\"",
						value),
				 errhint("Give auto, true or false.")));
	return b ? PQFDW_HIVE_ON : PQFDW_HIVE_OFF;
}

static void
sorted_syntax_error(const char *value, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for option \"sorted\": \"%s\"", value),
			 errdetail("%s", detail),
			 errhint("List columns as in ORDER BY, for example 'a, b DESC NULLS LAST'.")));
}

/*
 * adjust/parquet_fdw's sorted: column names separated by spaces ('a b'), in
 * ascending order and as written (not folded to lower case), as the same
 * list with commas and quotes.  Taken so when the value has two or more
 * words, neither comma nor double quote, and no keyword of ORDER BY among
 * its words: 'a desc' stays a descending a; one word is read as ours.
 */
static const char *
adjust_sorted(const char *value)
{
	static const char *const keywords[] = {"asc", "desc", "nulls", "first", "last"};
	char	   *copy;
	char	   *word;
	char	   *save = NULL;
	int			words = 0;
	StringInfoData buf;

	if (strpbrk(value, ",\"") != NULL)
		return value;
	copy = pstrdup(value);
	initStringInfo(&buf);
	for (word = strtok_r(copy, " \t\n", &save); word;
		 word = strtok_r(NULL, " \t\n", &save))
	{
		int			i;

		for (i = 0; i < lengthof(keywords); i++)
			if (pg_strcasecmp(word, keywords[i]) == 0)
				return value;
		appendStringInfo(&buf, "%s\"%s\"", buf.len ? ", " : "", word);
		words++;
	}
	return words > 1 ? buf.data : value;
}

List *
pqfdw_parse_sorted(const char *value)
{
	char	   *copy = pstrdup(adjust_sorted(value));
	char	   *item;
	char	   *save = NULL;
	List	   *keys = NIL;

	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save))
	{
		PqfdwSortKey *key = palloc0(sizeof(PqfdwSortKey));
		char	   *tok;
		char	   *tsave = NULL;
		List	   *names;
		bool		dir_seen = false;
		bool		nulls_seen = false;

		/* the column: an identifier, quoted or not, then keywords */
		tok = item + strspn(item, " \t\n");
		if (*tok == '"')
		{
			char	   *end = strchr(tok + 1, '"');

			if (end == NULL)
				sorted_syntax_error(value, "A quoted column name is not closed.");
			*end = '\0';
			key->column = pstrdup(tok + 1);
			tok = end + 1;
		}
		else
		{
			size_t		len = strcspn(tok, " \t\n");
			char	   *name = pnstrdup(tok, len);

			if (len == 0)
				sorted_syntax_error(value, "A column name is missing.");
			if (!SplitIdentifierString(name, '.', &names) || list_length(names) != 1)
				sorted_syntax_error(value, "A column name is not a plain identifier.");
			key->column = linitial(names);
			tok += len;
		}
		for (tok = strtok_r(tok, " \t\n", &tsave); tok;
			 tok = strtok_r(NULL, " \t\n", &tsave))
		{
			if ((pg_strcasecmp(tok, "ASC") == 0 || pg_strcasecmp(tok, "DESC") == 0) &&
				!dir_seen && !nulls_seen)
			{
				key->descending = pg_strcasecmp(tok, "DESC") == 0;
				dir_seen = true;
			}
			else if (pg_strcasecmp(tok, "NULLS") == 0 && !nulls_seen)
			{
				tok = strtok_r(NULL, " \t\n", &tsave);
				if (tok == NULL ||
					(pg_strcasecmp(tok, "FIRST") != 0 && pg_strcasecmp(tok, "LAST") != 0))
					sorted_syntax_error(value, "NULLS must be followed by FIRST or LAST.");
				key->nulls_first = pg_strcasecmp(tok, "FIRST") == 0;
				nulls_seen = true;
			}
			else
				sorted_syntax_error(value, psprintf("Unexpected word \"%s\".", tok));
		}
		/* ORDER BY's default: NULLS FIRST exactly when DESC */
		if (!nulls_seen)
			key->nulls_first = key->descending;
		keys = lappend(keys, key);
	}
	if (keys == NIL)
		sorted_syntax_error(value, "No column is listed.");
	return keys;
}

/* parquet_fdw.read_files_role: a role whose members may read Parquet files */
char	   *pqfdw_read_files_role = NULL;

/*
 * Whether the current user reads Parquet files on the server as a member
 * of parquet_fdw.read_files_role only (false: superuser or
 * pg_read_server_files); an ERROR when neither.
 */
static bool
read_files_member_of(Oid roleid)
{
	Oid			role = pqfdw_read_files_role && pqfdw_read_files_role[0] ?
	get_role_oid(pqfdw_read_files_role, true) : InvalidOid;

	return OidIsValid(role) && has_privs_of_role(roleid, role);
}

bool
pqfdw_read_files_member(void)
{
	return read_files_member_of(GetUserId());
}

bool
pqfdw_check_read_permission(void)
{
	if (has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
		return false;
	if (!pqfdw_read_files_member())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read Parquet files on the server"),
				 errhint("Only superusers, roles with privileges of the pg_read_server_files role and members of the role named by parquet_fdw.read_files_role may read Parquet files on the server.")));
	return true;
}

/*
 * The paths of a filename option that a member of read_files_role may not
 * name: those in the key directory (never Parquet, and only the server's).
 */
void
pqfdw_check_readable_paths(List *items)
{
	ListCell   *lc;

	foreach(lc, items)
	{
		char	   *item = pstrdup(lfirst(lc));
		char	   *glob = strpbrk(item, "*?[");

		/* a pattern: the directory its matches are in or below */
		if (glob != NULL)
		{
			*glob = '\0';
			if (strrchr(item, '/') != NULL)
				strrchr(item, '/')[1] = '\0';
		}
		if (pqfdw_in_key_directory(item))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to read \"%s\"", (char *) lfirst(lc)),
					 errdetail("The path is in parquet_fdw's key directory.")));
	}
}

/*
 * A files function names the files its table reads: its owner must be a
 * role that may name them (pqfdw_check_read_permission()), and the files
 * of a member of read_files_role (its local items) are checked as a
 * filename option of theirs is.
 */
static void
check_files_func_owner(Oid owner, const char *func, List *items)
{
	List	   *local = NIL;
	ListCell   *lc;

	if (has_privs_of_role(owner, ROLE_PG_READ_SERVER_FILES))
		return;
	if (!read_files_member_of(owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read Parquet files named by function %s",
						func),
				 errdetail("Its owner, role \"%s\", may not read Parquet files on the server.",
						   GetUserNameFromId(owner, false)),
				 errhint("A files function must be owned by a superuser, a role with privileges of the pg_read_server_files role or a member of the role named by parquet_fdw.read_files_role.")));
	foreach(lc, items)
		if (!pq_url_is_remote(lfirst(lc)))
		local = lappend(local, lfirst(lc));
	pqfdw_check_readable_paths(local);
}

/*
 * The foreign server whose options and the role's user mapping on it reach
 * a URL: a server of parquet_fdw the role may use, as CREATE FOREIGN TABLE
 * requires.
 */
Oid
pqfdw_url_server(const char *name)
{
	ForeignServer *server;
	ForeignDataWrapper *fdw;
	char	   *handler;

	if (name == NULL)
		return InvalidOid;
	server = GetForeignServerByName(name, false);
	fdw = GetForeignDataWrapper(server->fdwid);
	handler = OidIsValid(fdw->fdwhandler) ? get_func_name(fdw->fdwhandler) : NULL;
	if (handler == NULL || strcmp(handler, "parquet_fdw_handler") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("server \"%s\" is not a server of parquet_fdw", name)));
	pqfdw_check_server_usage(server);
	return server->serverid;
}

/* kms_command runs a program as the server's user, as COPY PROGRAM does. */
void
pqfdw_check_program_permission(const char *option)
{
	if (!has_privs_of_role(GetUserId(), ROLE_PG_EXECUTE_SERVER_PROGRAM))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to set %s", option),
				 errhint("Only superusers and roles with privileges of the pg_execute_server_program role may run programs on the server.")));
}

Datum
parquet_fdw_validator(PG_FUNCTION_ARGS)
{
	List	   *options = untransformRelOptions(PG_GETARG_DATUM(0));
	Oid			catalog = PG_GETARG_OID(1);
	char	   *filename = NULL;
	char	   *files_func = NULL;
	bool		files_func_arg = false;
	char	   *location = NULL;
	PqfdwTableFormat format = PQFDW_FORMAT_PARQUET;
	int			at_given = 0;
	List	   *at_names = NIL;
	char	   *location_map = NULL;
	List	   *items;
	List	   *local;
	ListCell   *cell;
	ListCell   *lc;

	foreach(cell, options)
	{
		DefElem    *def = (DefElem *) lfirst(cell);
		const PqfdwOption *opt;
		bool		known = false;

		for (opt = valid_options; opt->name; opt++)
			if (opt->context == catalog && strcmp(opt->name, def->defname) == 0)
				known = true;
		if (!known && pqfdw_remote_option(def->defname, catalog))
		{
			pqfdw_remote_check_option(def, catalog);
			continue;
		}
		if (!known)
		{
			StringInfoData buf;

			initStringInfo(&buf);
			for (opt = valid_options; opt->name; opt++)
				if (opt->context == catalog)
					appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "",
									 opt->name);
			pqfdw_remote_option_names(catalog, &buf);
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\"", def->defname),
					 buf.len > 0 ?
					 errhint("Valid options in this context are: %s", buf.data) :
					 errhint("There are no valid options in this context.")));
		}

		if (strcmp(def->defname, "filename") == 0)
		{
			if (filename)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("conflicting or redundant options")));
			filename = defGetString(def);
			/* syntax only: files may be created after the table */
			items = pqfdw_split_paths(filename);
			/* URLs are reached with the role's user mapping, not as files */
			local = NIL;
			foreach(lc, items)
				if (!pq_url_is_remote(lfirst(lc)))
				local = lappend(local, lfirst(lc));
			if (local != NIL && pqfdw_check_read_permission())
				pqfdw_check_readable_paths(local);
		}
		else if (strcmp(def->defname, "location") == 0)
		{
			location = defGetString(def);
			if (pq_url_is_remote(location))
			{
				/* credentials go in the user mapping, never in the URL */
				if (strchr(location, '?') != NULL)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("location must not have a query string"),
							 errhint("Give credentials in the user mapping of the server.")));
				(void) pq_url_parse(location);
				continue;
			}
			if (location[0] != '/')
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("location \"%s\" is not an absolute path", location),
						 errhint("Give the table's directory as an absolute path.")));
			if (pqfdw_check_read_permission())
				pqfdw_check_readable_paths(list_make1(location));
		}
		else if (strcmp(def->defname, "format") == 0)
			format = pqfdw_table_format(defGetString(def));
		else if (strcmp(def->defname, "version") == 0 ||
				 strcmp(def->defname, "snapshot_id") == 0 ||
				 strcmp(def->defname, "ref") == 0 ||
				 strcmp(def->defname, "timestamp") == 0)
		{
			if (strcmp(def->defname, "version") == 0)
				(void) version_option(def);
			else if (strcmp(def->defname, "snapshot_id") == 0)
				(void) snapshot_id_option(def);
			else if (strcmp(def->defname, "timestamp") == 0)
				(void) timestamp_option("option \"timestamp\"", defGetString(def));
			at_names = lappend(at_names, def->defname);
			if (at_given++)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("options %s and %s cannot both be set",
								(char *) linitial(at_names), def->defname),
						 errhint("Choose the table's version by one option.")));
		}
		else if (strcmp(def->defname, "location_map") == 0)
		{
			location_map = defGetString(def);
			(void) pqfdw_iceberg_parse_location_map(location_map);
		}
		else if (strcmp(def->defname, "footer_key") == 0)
			pqfdw_check_key_id(defGetString(def), "footer_key");
		else if (strcmp(def->defname, "column_keys") == 0)
			(void) pqfdw_parse_column_keys(defGetString(def));
		else if (strcmp(def->defname, "parallel_workers") == 0)
			(void) parallel_workers_option(def);
		else if (strcmp(def->defname, "sorted") == 0)
			(void) pqfdw_parse_sorted(defGetString(def));
		else if (strcmp(def->defname, "kms_command") == 0)
		{
			pqfdw_check_program_permission("kms_command");
			pqfdw_check_kms_command(defGetString(def));
		}
		else if (strcmp(def->defname, "hive_partitioning") == 0)
			(void) hive_option(def);
		else if (strcmp(def->defname, "union_by_name") == 0)
			(void) defGetBoolean(def);
		else if (strcmp(def->defname, "files_func") == 0)
			files_func = defGetString(def);
		else if (pqfdw_adjust_check_option(def))
			files_func_arg |= strcmp(def->defname, "files_func_arg") == 0;
	}

	if (files_func != NULL)
	{
		Oid			owner;

		(void) pqfdw_files_func_lookup(files_func, &owner);
		/* who may name files may name a function that names them */
		(void) pqfdw_check_read_permission();
		check_files_func_owner(owner, files_func, NIL);
	}
	else if (files_func_arg)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("option files_func_arg needs option files_func"),
				 errhint("files_func_arg is the jsonb argument of the function that option files_func names.")));

	pqfdw_remote_check_options(options, catalog);
	if (catalog == ForeignTableRelationId && format != PQFDW_FORMAT_PARQUET)
	{
		const char *fname = format == PQFDW_FORMAT_DELTA ? "delta" : "iceberg";
		ListCell   *an;

		if (location == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_DYNAMIC_PARAMETER_VALUE_NEEDED),
					 errmsg("location is required for foreign tables of format %s",
							fname)));
		if (filename != NULL || files_func != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("options %s and location cannot both be set",
							filename != NULL ? "filename" : "files_func"),
					 errhint("A table of format %s reads the files its %s names, under location.",
							 fname, format == PQFDW_FORMAT_DELTA ? "log" : "metadata")));
		foreach(an, at_names)
		{
			const char *n = lfirst(an);
			bool		delta_only = strcmp(n, "version") == 0;
			bool		iceberg_only = strcmp(n, "snapshot_id") == 0 ||
			strcmp(n, "ref") == 0;

			if ((delta_only && format != PQFDW_FORMAT_DELTA) ||
				(iceberg_only && format != PQFDW_FORMAT_ICEBERG))
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("option %s does not apply to tables of format %s",
								n, fname),
						 errhint("Delta tables take version or timestamp; Iceberg tables snapshot_id, ref or timestamp.")));
		}
		if (location_map != NULL && format != PQFDW_FORMAT_ICEBERG)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("option location_map applies to tables of format iceberg only")));
	}
	else if (catalog == ForeignTableRelationId &&
			 (location != NULL || at_given || location_map != NULL))
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("options location, version, snapshot_id, ref, timestamp and location_map need option format"),
				 errhint("Set format 'delta' or 'iceberg' to read a Delta Lake or Iceberg table, or use option filename for Parquet files.")));
	else if (catalog == ForeignTableRelationId && filename == NULL &&
			 files_func == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_DYNAMIC_PARAMETER_VALUE_NEEDED),
				 errmsg("filename is required for parquet_fdw foreign tables"),
				 errhint("Name the files with option filename, or with files_func a function that returns their paths.")));

	PG_RETURN_VOID();
}

/* The key options of a foreign table as a decryption config. */
bool
pqfdw_key_option(DefElem *def, PqfdwKeyOptions *ko)
{
	if (strcmp(def->defname, "footer_key") == 0)
		ko->footer_key = defGetString(def);
	else if (strcmp(def->defname, "column_keys") == 0)
		ko->column_keys = defGetString(def);
	else if (strcmp(def->defname, "aad_prefix") == 0)
		ko->aad_prefix = defGetString(def);
	else
		return false;
	return true;
}

PqDecryptionConfig *
pqfdw_table_decryption(Oid relid)
{
	ForeignTable *table = GetForeignTable(relid);
	PqfdwKeyOptions ko = {NULL, NULL, NULL};
	ListCell   *lc;

	foreach(lc, table->options)
		(void) pqfdw_key_option((DefElem *) lfirst(lc), &ko);
	return pqfdw_decryption_config(ko.footer_key, ko.column_keys, ko.aad_prefix,
								   pqfdw_server_kms_command(GetForeignServer(table->serverid)));
}

void
pqfdw_table_access(Oid relid, Oid userid, PqfdwAccess *access)
{
	access->decrypt = pqfdw_table_decryption(relid);
	access->remote.serverid = GetForeignTable(relid)->serverid;
	access->remote.userid = OidIsValid(userid) ? userid : GetUserId();
}

const char *
pqfdw_server_kms_command(ForeignServer *server)
{
	ListCell   *lc;

	foreach(lc, server->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "kms_command") == 0)
			return defGetString(def);
	}
	return NULL;
}

void
pqfdw_get_table_options_only(Oid relid, PqfdwTableOptions *opts)
{
	pqfdw_get_table_options_as(relid, InvalidOid, opts);
}

void
pqfdw_get_table_options_as(Oid relid, Oid userid, PqfdwTableOptions *opts)
{
	ForeignTable *table = GetForeignTable(relid);
	ListCell   *lc;

	opts->filename = NULL;
	opts->files_func = NULL;
	opts->files_func_arg = NULL;
	opts->files_func_called = false;
	opts->func_items = NIL;
	opts->sorted_per_file = false;
	opts->format = PQFDW_FORMAT_PARQUET;
	opts->location = NULL;
	opts->at.version = -1;
	opts->at.by_time = false;
	opts->at.time = 0;
	opts->at.ref = NULL;
	opts->at.schema_id = -1;
	opts->location_map = NULL;
	opts->dirs_skipped = 0;
	opts->parallel_workers = -1;
	opts->sorted = NIL;
	opts->hive = PQFDW_HIVE_AUTO;
	opts->union_by_name = false;
	opts->filename_column = NULL;
	opts->row_number_column = NULL;
	foreach(lc, table->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "filename") == 0)
			opts->filename = defGetString(def);
		else if (strcmp(def->defname, "format") == 0)
			opts->format = pqfdw_table_format(defGetString(def));
		else if (strcmp(def->defname, "location") == 0)
		{
			/* s3://b/t/ and /x/t/: the table's files are below "t/" */
			opts->location = pstrdup(defGetString(def));
			while (strlen(opts->location) > 1 &&
				   opts->location[strlen(opts->location) - 1] == '/')
				opts->location[strlen(opts->location) - 1] = '\0';
		}
		else if (strcmp(def->defname, "version") == 0)
			opts->at.version = version_option(def);
		else if (strcmp(def->defname, "snapshot_id") == 0)
			opts->at.version = snapshot_id_option(def);
		else if (strcmp(def->defname, "ref") == 0)
			opts->at.ref = defGetString(def);
		else if (strcmp(def->defname, "location_map") == 0)
			opts->location_map = defGetString(def);
		else if (strcmp(def->defname, "timestamp") == 0)
		{
			opts->at.by_time = true;
			opts->at.time = timestamp_option("option \"timestamp\"",
											 defGetString(def));
		}
		else if (strcmp(def->defname, "parallel_workers") == 0)
			opts->parallel_workers = parallel_workers_option(def);
		else if (strcmp(def->defname, "sorted") == 0)
			opts->sorted = pqfdw_parse_sorted(defGetString(def));
		else if (strcmp(def->defname, "hive_partitioning") == 0)
			opts->hive = hive_option(def);
		else if (strcmp(def->defname, "union_by_name") == 0)
			opts->union_by_name = defGetBoolean(def);
		else if (strcmp(def->defname, "filename_column") == 0)
			opts->filename_column = defGetString(def);
		else if (strcmp(def->defname, "file_row_number_column") == 0)
			opts->row_number_column = defGetString(def);
		else if (strcmp(def->defname, "files_func") == 0)
			opts->files_func = defGetString(def);
		else if (strcmp(def->defname, "files_func_arg") == 0)
			opts->files_func_arg = defGetString(def);
		else if (strcmp(def->defname, "files_in_order") == 0)
			opts->sorted_per_file = !defGetBoolean(def);
	}
	/* as in adjust/parquet_fdw, a files function wins over filename */
	if (opts->files_func != NULL && opts->format == PQFDW_FORMAT_PARQUET)
		opts->filename = psprintf("files_func %s(%s)", opts->files_func,
								  opts->files_func_arg ? opts->files_func_arg : "NULL");
	pqfdw_table_access(relid, userid, &opts->access);
	if (opts->format != PQFDW_FORMAT_PARQUET && opts->location != NULL)
	{
		/* the log gives the partitions, and files may lack added columns */
		opts->filename = opts->location;
		opts->hive = PQFDW_HIVE_OFF;
		opts->union_by_name = true;
		/* a statement's choice of time wins over the table's */
		if (pqfdw_as_of != NULL && pqfdw_as_of[0] != '\0')
		{
			opts->at.version = -1;
			opts->at.ref = NULL;
			opts->at.by_time = true;
			opts->at.time = timestamp_option("parquet_fdw.as_of", pqfdw_as_of);
		}
	}
	if (opts->filename == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_DYNAMIC_PARAMETER_VALUE_NEEDED),
				 errmsg("foreign table \"%s\" has no filename option",
						get_rel_name(relid))));
	opts->paths = NIL;
}

void
pqfdw_table_ref(const PqfdwTableOptions *opts, PqfdwTableRef *ref)
{
	ref->format = opts->format;
	ref->location = opts->location;
	ref->at = opts->at;
	ref->remote = pqfdw_table_remote(opts);
	ref->location_map = opts->location_map;
}

/* The data files of a table format's table, as of the current statement. */
static void
table_format_files(PqfdwTableOptions *opts)
{
	PqfdwTableRef ref;
	const PqfdwTableSnapshot *snap;
	int			i;

	pqfdw_table_ref(opts, &ref);
	snap = pqfdw_table_snapshot(&ref);
	opts->paths = NIL;
	for (i = 0; i < snap->nfiles; i++)
		opts->paths = lappend(opts->paths, pstrdup(snap->paths[i]));
	opts->paths_hash = pqfdw_paths_hash(opts->paths);
	pqfdw_note_expansion(opts->filename, opts->paths_hash);
}

List *
pqfdw_list_table_files(PqfdwTableOptions *opts,
					   const PqfdwPrefixFilter *filter, uint64 *hash)
{
	if (opts->files_func == NULL)
		return pqfdw_expand_paths_hashed(opts->filename, &opts->access.remote,
										 filter, hash);
	if (!opts->files_func_called)
	{
		Oid			owner;
		Oid			funcid = pqfdw_files_func_lookup(opts->files_func, &owner);

		opts->func_items = pqfdw_files_func_call(funcid, opts->files_func_arg);
		check_files_func_owner(owner, opts->files_func, opts->func_items);
		opts->files_func_called = true;
	}
	return pqfdw_expand_items_hashed(opts->filename, opts->func_items,
									 &opts->access.remote, filter, hash);
}

bool
pqfdw_table_files(PqfdwTableOptions *opts, const PqfdwPrefixFilter *filter)
{
	bool		filtered = filter != NULL;

	if (opts->format != PQFDW_FORMAT_PARQUET)
	{
		table_format_files(opts);
		return false;
	}

	opts->paths = pqfdw_list_table_files(opts, filter, &opts->paths_hash);

	/*
	 * Every partition ruled out: the whole listing then tells an empty
	 * location (an ERROR) from a plan that prunes every file.
	 */
	if (opts->paths == NIL && filter != NULL)
	{
		filtered = false;
		opts->paths = pqfdw_list_table_files(opts, NULL, &opts->paths_hash);
	}
	/* a files function's empty answer is no file */
	if (opts->paths == NIL && opts->files_func == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("no Parquet files match \"%s\"", opts->filename),
				 errhint("A directory must contain files named *.parquet; a pattern must match at least one file.")));
	return filtered;
}

void
pqfdw_get_table_options(Oid relid, Oid userid, PqfdwTableOptions *opts)
{
	pqfdw_get_table_options_as(relid, userid, opts);
	(void) pqfdw_table_files(opts, NULL);
}

char *
pqfdw_column_declared_name(Oid relid, AttrNumber attnum)
{
	List	   *options = GetForeignColumnOptions(relid, attnum);
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "column_name") == 0)
			return defGetString(def);
	}
	return get_attname(relid, attnum, false);
}

char *
pqfdw_column_name(Oid relid, AttrNumber attnum)
{
	char	   *name = pqfdw_column_declared_name(relid, attnum);
	PqfdwTableOptions opts;

	/* a table format's column: by its logical name, its name in the files */
	pqfdw_get_table_options_as(relid, InvalidOid, &opts);
	if (opts.format != PQFDW_FORMAT_PARQUET)
	{
		PqfdwTableRef ref;
		const char *physical;

		pqfdw_table_ref(&opts, &ref);
		physical = pqfdw_snapshot_field_name(pqfdw_table_snapshot(&ref), name);

		if (physical != NULL)
			return pstrdup(physical);
	}
	return name;
}

bool
pqfdw_column_field_id(Oid relid, AttrNumber attnum, int32 *id,
					  const char *const **names)
{
	PqfdwTableOptions opts;
	PqfdwTableRef ref;

	pqfdw_get_table_options_as(relid, InvalidOid, &opts);
	if (opts.format == PQFDW_FORMAT_PARQUET)
		return false;
	pqfdw_table_ref(&opts, &ref);
	return pqfdw_snapshot_field_id(pqfdw_table_snapshot(&ref),
								   pqfdw_column_declared_name(relid, attnum),
								   id, names);
}
