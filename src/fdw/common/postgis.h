/*-------------------------------------------------------------------------
 *
 * postgis.h
 *		Recognising PostGIS types and finding PostGIS functions at run time
 *		(parquet_fdw does not link against PostGIS).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_POSTGIS_H
#define PQFDW_POSTGIS_H

#include "postgres.h"

/*
 * Whether typid is the type "geometry" or "geography" of the extension
 * postgis; *geography tells which, *nspname is its schema.
 */
extern bool pqfdw_postgis_type(Oid typid, bool *geography, char **nspname);

/*
 * The PostGIS function nspname.name(argtypes) returning rettype; an ERROR
 * naming it when it does not exist.
 */
extern Oid	pqfdw_postgis_function(const char *nspname, const char *name,
								   int nargs, Oid *argtypes, Oid rettype);

/* The SRID of a PostGIS typmod (0: none given). */
extern int32 pqfdw_postgis_typmod_srid(int32 typmod);

#endif							/* PQFDW_POSTGIS_H */
