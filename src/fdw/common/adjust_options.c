/*-------------------------------------------------------------------------
 *
 * adjust_options.c
 *		The foreign-table options and settings of adjust/parquet_fdw, which
 *		has the same extension name: files_func and files_func_arg, and the
 *		options and GUCs accepted without effect.
 *
 * files_func names a function of one jsonb argument that returns text[]:
 * the paths a query reads, asked when the query is planned (and by the
 * executor when a plan made in an earlier statement runs), as the
 * querying role, with the jsonb of files_func_arg (NULL without it).  Each
 * element is read as one item of filename: a file, a directory, a glob or
 * a URL.  A NULL result or an empty array is no file: a scan returns no
 * row.  Who may name files with it is table_options.c's business.
 *
 * use_mmap and use_threads switched Apache Arrow's memory mapping and its
 * threads decoding columns; parquet_fdw has its own reader, without
 * Arrow, and parallel scans, so they are validated booleans and nothing
 * more.  max_open_files bounded the files adjust's merging reader kept open
 * at once (0 or less: no bound); a scan here holds one file open in each
 * process, so every bound holds already: any 32-bit integer is accepted.
 * adjust's README gave user mappings an option user, which meant nothing
 * there either: it is accepted (table_options.c).  files_in_order (fdw/plan/planner.c) says
 * whether the order of option sorted holds across files or only within
 * each.  The GUCs parquet_fdw.use_threads, parquet_fdw.enable_multifile and
 * parquet_fdw.enable_multifile_merge chose among adjust's readers and
 * Arrow's threads: here they are accepted booleans that change nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "fdw/common/adjust_options.h"
#include "fdw/common/pg_compat.h"
#include "fmgr.h"
#include "io/common/url.h"
#include "miscadmin.h"
#include "parser/parse_func.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

static bool adjust_use_threads = true;
static bool adjust_enable_multifile = true;
static bool adjust_enable_multifile_merge = true;

bool
pqfdw_adjust_check_option(DefElem *def)
{
	if (strcmp(def->defname, "use_mmap") == 0 ||
		strcmp(def->defname, "use_threads") == 0 ||
		strcmp(def->defname, "files_in_order") == 0)
		(void) defGetBoolean(def);
	else if (strcmp(def->defname, "max_open_files") == 0)
	{
		char	   *value = defGetString(def);
		char	   *end;
		long		n;

		errno = 0;
		n = strtol(value, &end, 10);
		if (errno != 0 || end == value || *end != '\0' ||
			n < PG_INT32_MIN || n > PG_INT32_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid value for option \"max_open_files\": \"%s\"",
							value),
					 errhint("Give a whole number; a scan holds one file open in each process whatever the number.")));
	}
	else if (strcmp(def->defname, "files_func_arg") == 0)
		(void) DirectFunctionCall1(jsonb_in, CStringGetDatum(defGetString(def)));
	else
		return false;
	return true;
}

Oid
pqfdw_files_func_check(Oid funcid, const char *name)
{
	HeapTuple	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	Form_pg_proc proc;
	Oid			owner;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", funcid);
	proc = (Form_pg_proc) GETSTRUCT(tup);
	if (proc->pronargs != 1 || proc->proargtypes.values[0] != JSONBOID ||
		proc->prorettype != TEXTARRAYOID || proc->proretset ||
		proc->prokind != PROKIND_FUNCTION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("function %s is not a function of one jsonb argument returning text[]",
						name),
				 errhint("A files function takes one jsonb argument and returns the paths to read as text[].")));
	owner = proc->proowner;
	ReleaseSysCache(tup);
	return owner;
}

Oid
pqfdw_files_func_lookup(const char *name, Oid *owner)
{
	Oid			argtype = JSONBOID;
	Oid			funcid;

	funcid = LookupFuncName(pqfdw_qualified_name_list(name), 1, &argtype,
							true);
	if (!OidIsValid(funcid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("function %s(jsonb) named by option files_func does not exist",
						name),
				 errhint("Name the function with its schema, as in 'public.list_files': from PostgreSQL 17 on, ANALYZE looks names up in pg_catalog only.")));
	*owner = pqfdw_files_func_check(funcid, name);
	return funcid;
}

List *
pqfdw_files_func_call(Oid funcid, const char *arg)
{
	LOCAL_FCINFO(fcinfo, 1);
	FmgrInfo	flinfo;
	AclResult	acl = pqfdw_function_aclcheck(funcid, GetUserId());
	Datum		result;
	Datum	   *values;
	bool	   *nulls;
	int			n;
	int			i;
	List	   *items = NIL;

	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_FUNCTION, get_func_name(funcid));
	fmgr_info(funcid, &flinfo);
	if (arg == NULL && flinfo.fn_strict)
		return NIL;
	InitFunctionCallInfoData(*fcinfo, &flinfo, 1, InvalidOid, NULL, NULL);
	fcinfo->args[0].value = arg == NULL ? (Datum) 0 :
		DirectFunctionCall1(jsonb_in, CStringGetDatum(arg));
	fcinfo->args[0].isnull = arg == NULL;
	result = FunctionCallInvoke(fcinfo);
	if (fcinfo->isnull)
		return NIL;
	deconstruct_array(DatumGetArrayTypeP(result), TEXTOID, -1, false,
					  TYPALIGN_INT, &values, &nulls, &n);
	for (i = 0; i < n; i++)
	{
		char	   *item;

		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("function %s returned a NULL path",
							format_procedure(funcid)),
					 errhint("Return the paths to read, or an empty array for none.")));
		item = TextDatumGetCString(values[i]);
		if (pq_url_is_remote(item))
			(void) pq_url_parse(item);
		else if (!is_absolute_path(item))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
					 errmsg("function %s returned \"%s\", which is not an absolute path",
							format_procedure(funcid), item),
					 errhint("Return absolute paths or URLs.")));
		items = lappend(items, item);
	}
	return items;
}

void
pqfdw_adjust_define_gucs(void)
{
	DefineCustomBoolVariable("parquet_fdw.use_threads",
							 "Accepted for adjust/parquet_fdw's settings; has no effect.",
							 "It switched Apache Arrow's threads, which parquet_fdw does not use; parallel scans spread a table's row groups over processes.",
							 &adjust_use_threads,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("parquet_fdw.enable_multifile",
							 "Accepted for adjust/parquet_fdw's settings; has no effect.",
							 "One reader reads any number of files.",
							 &adjust_enable_multifile,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("parquet_fdw.enable_multifile_merge",
							 "Accepted for adjust/parquet_fdw's settings; has no effect.",
							 "parquet_fdw never merges files by the order of option sorted.",
							 &adjust_enable_multifile_merge,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
}
