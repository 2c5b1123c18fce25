/*-------------------------------------------------------------------------
 *
 * geo.c
 *		GEOMETRY/GEOGRAPHY columns declared as PostGIS geometry or geography.
 *
 * parquet_fdw does not link against PostGIS: when the declared type is the
 * type "geometry" or "geography" of the extension postgis, its functions
 * are looked up by name in that type's schema and called through fmgr:
 *
 *		WKB bytea -> ST_GeomFromWKB(bytea) -> ST_SetSRID(geometry, srid)
 *				  [-> geography(geometry)]
 *
 * with the SRID the column's CRS names (geo_crs.c); 0 leaves PostGIS's
 * "unknown" SRID (and geography's default, 4326).  Without PostGIS, or for
 * any other declared type, the ordinary casts of convert.c apply.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fdw/common/postgis.h"
#include "fdw/convert/convert.h"
#include "fdw/convert/geo_crs.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

struct PqGeoCast
{
	FmgrInfo	from_wkb;		/* ST_GeomFromWKB(bytea) */
	FmgrInfo	set_srid;		/* ST_SetSRID(geometry, integer) */
	FmgrInfo	to_geography;	/* geography(geometry), for geography */
	bool		geography;
	int32		srid;
};

bool
pqfdw_geo_setup_cast(PqConverter *cv, MemoryContext cxt)
{
	bool		geography;
	char	   *nspname;
	Oid			geometry;
	Oid			args[2];
	struct PqGeoCast *geo;

	if (!pqfdw_is_geo_column(cv->node) ||
		!pqfdw_postgis_type(cv->target_type, &geography, &nspname))
		return false;
	geometry = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
							   CStringGetDatum("geometry"),
							   ObjectIdGetDatum(get_namespace_oid(nspname, false)));
	if (!OidIsValid(geometry))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("PostGIS type %s.geometry not found",
						quote_identifier(nspname))));

	geo = MemoryContextAllocZero(cxt, sizeof(*geo));
	geo->geography = geography;
	geo->srid = pqfdw_geo_srid(cv->node, NULL);
	args[0] = BYTEAOID;
	fmgr_info_cxt(pqfdw_postgis_function(nspname, "st_geomfromwkb", 1, args, geometry),
				  &geo->from_wkb, cxt);
	args[0] = geometry;
	args[1] = INT4OID;
	fmgr_info_cxt(pqfdw_postgis_function(nspname, "st_setsrid", 2, args, geometry),
				  &geo->set_srid, cxt);
	if (geo->geography)
		fmgr_info_cxt(pqfdw_postgis_function(nspname, "geography", 1, args,
											 cv->target_type),
					  &geo->to_geography, cxt);
	cv->geo = geo;
	cv->cast = PQ_CAST_GEO;
	return true;
}

/* Names the column and the file when PostGIS rejects a value. */
static void
geo_error_context(void *arg)
{
	PqConverter *cv = arg;
	const char *filename = pq_errloc_filename();

	if (filename)
		errcontext("converting Parquet column \"%s\" of file \"%s\" to PostGIS %s",
				   cv->node->name, filename,
				   cv->geo->geography ? "geography" : "geometry");
	else
		errcontext("converting Parquet column \"%s\" to PostGIS %s",
				   cv->node->name,
				   cv->geo->geography ? "geography" : "geometry");
}

Datum
pqfdw_geo_cast(PqConverter *cv, Datum wkb)
{
	struct PqGeoCast *geo = cv->geo;
	ErrorContextCallback cb;
	Datum		g;

	cb.callback = geo_error_context;
	cb.arg = cv;
	cb.previous = error_context_stack;
	error_context_stack = &cb;

	g = FunctionCall1(&geo->from_wkb, wkb);
	if (geo->srid != 0)
		g = FunctionCall2(&geo->set_srid, g, Int32GetDatum(geo->srid));
	if (geo->geography)
		g = FunctionCall1(&geo->to_geography, g);

	error_context_stack = cb.previous;
	return g;
}

void
pqfdw_geo_bind_file(PqConverter *cv, const PqSchemaNode *node,
					const PqFileMetaData *md, const char *path, bool first)
{
	int32		srid;

	if (cv->cast != PQ_CAST_GEO)
		return;
	srid = pqfdw_geo_srid(node, md);
	if (first)
		cv->geo->srid = srid;
	else if (srid != cv->geo->srid)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION),
				 errmsg("column \"%s\" of Parquet file \"%s\" has SRID %d, but the table's first file gives it SRID %d",
						cv->attname, path, srid, cv->geo->srid),
				 errhint("The files of one table must agree on the CRS of a column read as PostGIS geometry; read it as bytea otherwise.")));
}
