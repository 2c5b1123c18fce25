/*-------------------------------------------------------------------------
 *
 * adjust_import.c
 *		import_parquet() and import_parquet_explicit() of adjust/parquet_fdw:
 *		a foreign table over the files a function returns.
 *
 * The function (one jsonb argument, text[] returned) is called once, as
 * the calling role, with arg; the new table's filename lists the paths it
 * returned, comma-separated (in adjust's form, space-separated and double
 * quoted, when a path has a comma: fdw/common/file_list.c).  The columns
 * of import_parquet() are those create_table_sql() writes: the first
 * file's fields with their natural types, hive partition keys after them;
 * those of import_parquet_explicit() are given by name and type, and no
 * file is read.  options, a jsonb object of scalars, become the table's
 * options.  As adjust's did, an empty answer creates no table (a WARNING);
 * so does a NULL one here.  A NULL schemaname leaves the table's name
 * unqualified: it goes into the first schema of the search path.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fdw/common/adjust_options.h"
#include "fdw/inspect/import.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"

PG_FUNCTION_INFO_V1(parquet_fdw_import_parquet);
PG_FUNCTION_INFO_V1(parquet_fdw_import_parquet_explicit);

static char *
required_text(FunctionCallInfo fcinfo, int n, const char *name)
{
	if (PG_ARGISNULL(n))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", name)));
	return text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* The filename option of items: comma-separated, or adjust's form. */
static char *
filename_of(List *items)
{
	StringInfoData buf;
	bool		commas = false;
	ListCell   *lc;

	foreach(lc, items)
		commas |= strchr(lfirst(lc), ',') != NULL;
	initStringInfo(&buf);
	foreach(lc, items)
	{
		const char *item = lfirst(lc);

		if (!commas)
			appendStringInfo(&buf, "%s%s", buf.len ? ", " : "", item);
		else if (strchr(item, '"') == NULL && item[0] == '/')
			appendStringInfo(&buf, "%s\"%s\"", buf.len ? " " : "", item);
		else
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
					 errmsg("path \"%s\" cannot be listed in option filename with the others",
							item),
					 errdetail("A list of paths in which one has a comma is written with double quotes around each path, so each must be an absolute path without a double quote.")));
	}
	return buf.data;
}

/* options, a jsonb object of scalars, as ", name 'value'" each. */
static char *
options_sql(Jsonb *options)
{
	StringInfoData buf;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	char	   *key = NULL;

	initStringInfo(&buf);
	if (options == NULL)
		return buf.data;
	if (!JB_ROOT_IS_OBJECT(options) || JB_ROOT_IS_SCALAR(options))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("options must be a jsonb object"),
				 errhint("Give the table's options as {\"name\": \"value\", ...}.")));
	it = JsonbIteratorInit(&options->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		char	   *value;

		if (tok == WJB_KEY)
		{
			key = pnstrdup(v.val.string.val, v.val.string.len);
			continue;
		}
		if (tok != WJB_VALUE)
			continue;
		if (v.type == jbvString)
			value = pnstrdup(v.val.string.val, v.val.string.len);
		else if (v.type == jbvNumeric)
			value = DatumGetCString(DirectFunctionCall1(numeric_out,
														NumericGetDatum(v.val.numeric)));
		else if (v.type == jbvBool)
			value = v.val.boolean ? "true" : "false";
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("value of option \"%s\" must be a string, number or boolean",
							key)));
		appendStringInfo(&buf, ", %s %s", quote_identifier(key),
						 quote_literal_cstr(value));
	}
	return buf.data;
}

/* The columns of import_parquet_explicit(): "name type" each. */
static char *
columns_sql(FunctionCallInfo fcinfo)
{
	ArrayType  *names;
	ArrayType  *types;
	Datum	   *nv;
	Datum	   *tv;
	bool	   *nn;
	bool	   *tn;
	int			n;
	int			nt;
	int			i;
	StringInfoData buf;

	if (PG_ARGISNULL(3) || PG_ARGISNULL(4))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("attnames and atttypes must not be NULL")));
	names = PG_GETARG_ARRAYTYPE_P(3);
	types = PG_GETARG_ARRAYTYPE_P(4);
	deconstruct_array(names, TEXTOID, -1, false, TYPALIGN_INT, &nv, &nn, &n);
	deconstruct_array(types, REGTYPEOID, sizeof(Oid), true, TYPALIGN_INT,
					  &tv, &tn, &nt);
	if (n != nt)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("attnames has %d elements and atttypes %d", n, nt),
				 errhint("Give one type for each column name.")));
	initStringInfo(&buf);
	for (i = 0; i < n; i++)
	{
		if (nn[i] || tn[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("attnames and atttypes must not contain NULLs")));
		appendStringInfo(&buf, "%s\n  %s %s", i ? "," : "",
						 quote_identifier(TextDatumGetCString(nv[i])),
						 format_type_be(DatumGetObjectId(tv[i])));
	}
	return buf.data;
}

/*
 * Create the table over what the function (argument func_arg, then its
 * jsonb argument and options) returns; with given_columns, the columns from
 * arguments 3 and 4.
 */
static void
import_parquet(FunctionCallInfo fcinfo, int func_arg, bool given_columns)
{
	char	   *table = required_text(fcinfo, 0, "tablename");
	char	   *schema = PG_ARGISNULL(1) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(1));
	char	   *server = required_text(fcinfo, 2, "servername");
	char	   *columns = given_columns ? columns_sql(fcinfo) : NULL;
	Oid			funcid;
	char	   *arg;
	List	   *items;
	char	   *filename;
	char	   *options;
	char	   *sql;
	int			rc;

	if (PG_ARGISNULL(func_arg))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("func must not be NULL"),
				 errhint("Name a function of one jsonb argument that returns the paths to read as text[].")));
	funcid = PG_GETARG_OID(func_arg);
	(void) pqfdw_files_func_check(funcid, format_procedure(funcid));
	arg = PG_ARGISNULL(func_arg + 1) ? NULL :
		JsonbToCString(NULL, &PG_GETARG_JSONB_P(func_arg + 1)->root, -1);
	options = options_sql(PG_ARGISNULL(func_arg + 2) ? NULL :
						  PG_GETARG_JSONB_P(func_arg + 2));
	items = pqfdw_files_func_call(funcid, arg);
	if (items == NIL)
	{
		ereport(WARNING,
				(errmsg("function %s returned no path: foreign table \"%s\" was not created",
						format_procedure(funcid), table)));
		return;
	}
	filename = filename_of(items);
	if (given_columns)
		sql = psprintf("CREATE FOREIGN TABLE %s (%s\n) SERVER %s OPTIONS (filename %s%s)",
					   schema ? quote_qualified_identifier(schema, table) :
					   quote_identifier(table),
					   columns, quote_identifier(server),
					   quote_literal_cstr(filename), options);
	else
	{
		PqfdwAccess access;

		pqfdw_filename_access(filename, server, &access);
		sql = pqfdw_parquet_table_sql(filename, table, schema, server, &access,
									  options);
	}
	SPI_connect();
	rc = SPI_execute(sql, false, 0);
	if (rc != SPI_OK_UTILITY)
		elog(ERROR, "SPI_execute of CREATE FOREIGN TABLE returned %s",
			 SPI_result_code_string(rc));
	SPI_finish();
}

Datum
parquet_fdw_import_parquet(PG_FUNCTION_ARGS)
{
	import_parquet(fcinfo, 3, false);
	PG_RETURN_VOID();
}

Datum
parquet_fdw_import_parquet_explicit(PG_FUNCTION_ARGS)
{
	import_parquet(fcinfo, 5, true);
	PG_RETURN_VOID();
}
