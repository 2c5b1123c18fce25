/*-------------------------------------------------------------------------
 *
 * postgis.c
 *		PostGIS types and functions looked up by name at run time.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/dependency.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "fdw/common/postgis.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

bool
pqfdw_postgis_type(Oid typid, bool *geography, char **nspname)
{
	Oid			ext;
	char	   *extname;
	HeapTuple	tp;
	char	   *typname;
	Oid			nsp;

	ext = getExtensionOfObject(TypeRelationId, typid);
	if (!OidIsValid(ext))
		return false;
	extname = get_extension_name(ext);
	if (extname == NULL || strcmp(extname, "postgis") != 0)
		return false;

	tp = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (!HeapTupleIsValid(tp))
		elog(ERROR, "cache lookup failed for type %u", typid);
	typname = pstrdup(NameStr(((Form_pg_type) GETSTRUCT(tp))->typname));
	nsp = ((Form_pg_type) GETSTRUCT(tp))->typnamespace;
	ReleaseSysCache(tp);
	if (strcmp(typname, "geometry") != 0 && strcmp(typname, "geography") != 0)
		return false;
	*geography = strcmp(typname, "geography") == 0;
	*nspname = get_namespace_name(nsp);
	return true;
}

Oid
pqfdw_postgis_function(const char *nspname, const char *name, int nargs,
					   Oid *argtypes, Oid rettype)
{
	Oid			fn;

	fn = LookupFuncName(list_make2(makeString(pstrdup(nspname)),
								   makeString(pstrdup(name))),
						nargs, argtypes, true);
	if (!OidIsValid(fn) || get_func_rettype(fn) != rettype)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("PostGIS function %s.%s not found",
						quote_identifier(nspname), name),
				 errdetail("parquet_fdw converts between WKB and PostGIS values with ST_GeomFromWKB, ST_SetSRID, geography(geometry) and ST_AsBinary.")));
	return fn;
}

int32
pqfdw_postgis_typmod_srid(int32 typmod)
{
	/* PostGIS keeps a signed 21-bit SRID in bits 8..28 of the typmod */
	if (typmod < 0)
		return 0;
	return ((typmod & 0x0FFFFF00) - (typmod & 0x10000000)) >> 8;
}
