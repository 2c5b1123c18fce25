/*-------------------------------------------------------------------------
 *
 * geo_covering.h
 *		Row group bounding boxes of GeoParquet 1.x geometry columns from
 *		the statistics of their bbox covering columns.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GEO_COVERING_H
#define PQFDW_GEO_COVERING_H

#include "fdw/prune/geo_bbox.h"

/*
 * False when the statistics of the bbox covering that the file's "geo"
 * metadata declares for leaf column c prove that no row of the row group
 * meets the query box q (rounded outward to float4 already).  True when
 * the column has no usable covering (docs/GEOSPATIAL.md has the rules).
 */
extern bool pqfdw_geo_covering_may_match(const PqGeoBox *q,
										 const PqFile *file, int row_group,
										 int c);

#endif							/* PQFDW_GEO_COVERING_H */
