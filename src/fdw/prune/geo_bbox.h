/*-------------------------------------------------------------------------
 *
 * geo_bbox.h
 *		Row group pruning on geometry columns with bounding boxes
 *		(geo_bbox.c), and the bounding box of a WKB value and box
 *		arithmetic (wkb_bbox.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GEO_BBOX_H
#define PQFDW_GEO_BBOX_H

#include "fdw/prune/prune.h"

/* an X/Y box, bounds included */
typedef struct PqGeoBox
{
	double		xmin;
	double		ymin;
	double		xmax;
	double		ymax;
} PqGeoBox;

/*
 * The X/Y bounding box of the WKB (ISO or PostGIS extended) value of len
 * bytes, NaN coordinates skipped; false when it has no coordinates (an
 * empty geometry).  Malformed WKB is an error; so is a curved geometry
 * (whose arcs may leave the box of its points), unless curved is given:
 * then *curved is set and the result is false.
 */
extern bool pqfdw_wkb_bbox(const char *wkb, int len, PqGeoBox *box,
						   bool *curved);

/*
 * Recognise a bounding box clause on a column of relid: "&&",
 * ST_Intersects, ST_Contains, ST_Within, ST_DWithin on a PostGIS geometry
 * column, or parquet_fdw.bbox_intersects on a bytea column.  Its value
 * expressions are appended to *values (when values is not NULL).
 */
extern bool pqfdw_geo_prune_clause(Expr *clause, Index relid, List **values);

/* The clause with its value expressions taken from *next on. */
extern Expr *pqfdw_geo_substitute_values(Expr *clause, Index relid,
										 ListCell **next, List *values);

/* Set up p (kind PQ_PRUNE_BBOX) for a clause that pqfdw_geo_prune_clause accepts. */
extern void pqfdw_geo_init_pred(PqPrunePred *p, Expr *clause, Index relid,
								int *next_value);

/* The query box of p from its evaluated value expressions. */
extern void pqfdw_geo_set_values(PqPrunePred *p, const Datum *values,
								 const bool *isnull);

/* Round b outward to float4 bounds, as PostGIS keeps the boxes "&&" compares. */
extern void pqfdw_geo_box_outward(PqGeoBox *b);

/* Do the closed boxes a and b meet? */
extern bool pqfdw_geo_boxes_meet(const PqGeoBox *a, const PqGeoBox *b);

/*
 * False when the GeospatialStatistics of leaf column c in the row group, or
 * the statistics of its GeoParquet bbox covering, prove that no row
 * satisfies the bounding box predicate p.
 */
extern bool pqfdw_geo_may_match(PqPrunePred *p, const PqFile *file,
								const PqRowGroup *rg, PqConverter *cv, int c);

#endif							/* PQFDW_GEO_BBOX_H */
