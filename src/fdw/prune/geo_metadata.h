/*-------------------------------------------------------------------------
 *
 * geo_metadata.h
 *		The parts of a GeoParquet 1.x "geo" key/value entry that bounding
 *		box pruning uses (geo_covering.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GEO_METADATA_H
#define PQFDW_GEO_METADATA_H

#include "format/metadata/metadata.h"
#include "nodes/pg_list.h"

/* The order of a bbox covering's paths */
#define PQ_COVER_XMIN 0
#define PQ_COVER_YMIN 1
#define PQ_COVER_XMAX 2
#define PQ_COVER_YMAX 3
#define PQ_COVER_NPATHS 4

/* A covering path of this many names is a field of a root-level group */
#define PQ_COVER_PATH_LEN 2

/* One entry of "columns" */
typedef struct PqGeoParquetColumn
{
	char	   *name;
	bool		wkb;			/* "encoding" is "WKB" */
	bool		planar;			/* "edges" absent or "planar" */
	bool		projected;		/* "crs" is a PROJJSON ProjectedCRS */
	/* covering.bbox paths; npath -1 when one is not an array of strings */
	int			npath[PQ_COVER_NPATHS];
	char	   *path[PQ_COVER_NPATHS][PQ_COVER_PATH_LEN];
} PqGeoParquetColumn;

/*
 * The columns (PqGeoParquetColumn *) of the file's "geo" entry; NIL when
 * there is none or it is not valid JSON.  Never an error: the entry is a
 * hint, and a bad one must not stop the file from being read.
 */
extern List *pqfdw_geoparquet_columns(const PqFileMetaData *md);

#endif							/* PQFDW_GEO_METADATA_H */
