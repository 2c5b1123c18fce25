/*-------------------------------------------------------------------------
 *
 * geo_crs.h
 *		What the CRS and edge algorithm of a GEOMETRY/GEOGRAPHY column mean:
 *		defaults, names, and the PostGIS SRID a CRS names (docs/GEOSPATIAL.md).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GEO_CRS_H
#define PQFDW_GEO_CRS_H

#include "format/metadata/schema.h"

/* True for GEOMETRY and GEOGRAPHY leaves. */
extern bool pqfdw_is_geo_column(const PqSchemaNode *node);

/* The column's CRS as stored, or "OGC:CRS84" when absent (the default). */
extern const char *pqfdw_geo_crs(const PqSchemaNode *node);

/*
 * GEOGRAPHY's edge interpolation algorithm (SPHERICAL when absent); NULL for
 * GEOMETRY, whose edges are planar by definition.
 */
extern const char *pqfdw_geo_algorithm(const PqSchemaNode *node);

/*
 * The SRID the CRS names, 0 when it names none PostGIS would know:
 * absent, OGC:CRS84, EPSG:4326 -> 4326; EPSG:N, srid:N -> N; a PROJJSON
 * object whose top-level "id" is EPSG N (or OGC CRS84) -> N (4326);
 * projjson:KEY -> the PROJJSON object of the file's key/value metadata
 * KEY (md NULL, or no such key: 0).
 */
extern int32 pqfdw_geo_srid(const PqSchemaNode *node, const PqFileMetaData *md);
extern int32 pqfdw_geo_crs_srid(const char *crs, const PqFileMetaData *md);

#endif							/* PQFDW_GEO_CRS_H */
