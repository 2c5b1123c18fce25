/*-------------------------------------------------------------------------
 *
 * geo_covering.c
 *		Skip row groups of GeoParquet 1.x geometry columns whose bbox
 *		covering (per-row xmin/ymin/xmax/ymax leaves) proves that no row
 *		meets the box a qual needs.
 *
 * GeoParquet keeps WKB in an unannotated BYTE_ARRAY column described by
 * the file's "geo" metadata (geo_metadata.c), which may name a covering:
 * a root-level group whose FLOAT or DOUBLE leaves hold each row's box.
 * The row group's box is then the minimum of the xmin/ymin leaves and the
 * maximum of the xmax/ymax leaves.  That bound is sound only where every
 * row has a box (no nulls, no NaN) and the boxes do not wrap: GeoParquet
 * boxes follow GeoJSON, whose box crossing the antimeridian has xmin >
 * xmax, and statistics cannot show such a row.  Latitudes never wrap, so
 * Y always prunes; X only when the CRS is projected.  Spherical edges
 * bulge beyond their vertices' latitudes: no pruning at all.
 *
 * The "geo" entry is parsed once per opened file, and each geometry
 * column's covering resolved against the schema once, in a cache kept
 * with the file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "fdw/prune/geo_covering.h"
#include "fdw/prune/geo_metadata.h"
#include "fdw/prune/prune.h"
#include "utils/float.h"

typedef enum CoverState
{
	COVER_UNRESOLVED = 0,
	COVER_NONE,					/* no usable covering: never prunes */
	COVER_USABLE
} CoverState;

typedef struct Covering
{
	CoverState	state;
	bool		use_x;			/* X bounds are sound: a projected CRS */
	int			leaf[PQ_COVER_NPATHS];	/* leaf columns, PQ_COVER_* order */
} Covering;

typedef struct CoveringCache
{
	List	   *columns;		/* of "geo": PqGeoParquetColumn */
	Covering   *by_leaf;		/* per leaf column of the file */
} CoveringCache;

static CoveringCache *
covering_cache(const PqFile *file)
{
	/* a cache of what the footer says, not a change of the file */
	PqFile	   *f = unconstify(PqFile *, file);
	CoveringCache *cache = f->geo_cache;

	if (cache == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(f->cxt);

		cache = palloc0(sizeof(CoveringCache));
		cache->columns = pqfdw_geoparquet_columns(&f->md);
		cache->by_leaf = palloc0(sizeof(Covering) *
								 Max(f->schema->n_columns, 1));
		MemoryContextSwitchTo(old);
		f->geo_cache = cache;
	}
	return cache;
}

/* The "geo" entry of the column named name, if exactly one. */
static const PqGeoParquetColumn *
geo_entry(const List *columns, const char *name)
{
	const PqGeoParquetColumn *found = NULL;
	ListCell   *lc;

	foreach(lc, columns)
	{
		const PqGeoParquetColumn *e = lfirst(lc);

		if (strcmp(e->name, name) == 0)
		{
			if (found != NULL)
				return NULL;
			found = e;
		}
	}
	return found;
}

/* Find the covering leaves of geometry leaf c, or mark it COVER_NONE. */
static void
resolve(const PqFile *file, const List *columns, int c, Covering *cov)
{
	const PqSchemaNode *root = file->schema->root;
	const PqSchemaNode *geom = file->schema->columns[c].node;
	const PqGeoParquetColumn *gc;
	const PqSchemaNode *group = NULL;
	int			type = -1;
	int			k;
	int			j;

	cov->state = COVER_NONE;
	/* a GEOGRAPHY annotation means geodesic edges, whatever "geo" says */
	if (geom->depth != 1 || geom->physical_type != PQ_BYTE_ARRAY ||
		(geom->logical.id != PQ_LT_NONE &&
		 geom->logical.id != PQ_LT_GEOMETRY) ||
		pq_schema_child(root, geom->name) != geom)
		return;
	gc = geo_entry(columns, geom->name);
	if (gc == NULL || !gc->wkb || !gc->planar)
		return;
	for (k = 0; k < PQ_COVER_NPATHS; k++)
	{
		const PqSchemaNode *leaf;

		if (gc->npath[k] != PQ_COVER_PATH_LEN)
			return;
		if (group == NULL)
			group = pq_schema_child(root, gc->path[k][0]);
		else if (strcmp(group->name, gc->path[k][0]) != 0)
			return;
		if (group == NULL || group->is_leaf || group->max_rep > 0)
			return;
		leaf = pq_schema_child(group, gc->path[k][1]);
		if (leaf == NULL || !leaf->is_leaf ||
			leaf->logical.id != PQ_LT_NONE ||
			(leaf->physical_type != PQ_FLOAT &&
			 leaf->physical_type != PQ_DOUBLE) ||
			(type >= 0 && leaf->physical_type != type))
			return;
		type = leaf->physical_type;
		cov->leaf[k] = leaf->first_leaf;
		for (j = 0; j < k; j++)
			if (cov->leaf[j] == cov->leaf[k])
				return;
	}
	cov->use_x = gc->projected;
	cov->state = COVER_USABLE;
}

/*
 * The row group's minimum (maximum when upper) of covering leaf c, whose
 * geometry column has geom_nulls NULLs (-1: unknown); -inf (+inf) when it
 * is not a sound bound.
 */
static double
leaf_bound(const PqFile *file, int row_group, int c, bool upper,
		   int64 geom_nulls)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[c];
	const PqColumnDescr *col = &file->schema->columns[c];
	double		none = upper ? get_float8_infinity() : -get_float8_infinity();
	const PqStatistics *s;
	PqBytes		lo;
	PqBytes		hi;
	PqBytes		b;
	double		v;

	/* an encrypted leaf would need a key that reading the query does not */
	if (cc->crypto_metadata.kind != PQ_CRYPTO_NONE || !cc->has_meta_data ||
		cc->file_path != NULL || cc->meta_data.type != col->physical_type ||
		!cc->meta_data.has_statistics)
		return none;
	s = &cc->meta_data.statistics;

	/*
	 * A row has a box if and only if it has a geometry (GeoParquet 1.1), so
	 * the NULL boxes are the NULL geometries when the counts agree; a row
	 * without a box but with a geometry could hold any geometry.
	 */
	if (!s->has_null_count || geom_nulls < 0 || s->null_count != geom_nulls ||
		(s->has_nan_count && s->nan_count > 0))
		return none;
	if (!pqfdw_chunk_stat_bytes(col, s, &lo, &hi))
		return none;
	b = upper ? hi : lo;
	if (col->physical_type == PQ_FLOAT && b.len == 4)
	{
		uint32		bits = pq_load_le32(b.ptr);
		float		f;

		memcpy(&f, &bits, sizeof(f));
		/* a writer may have rounded the box's doubles to the nearest float */
		v = nextafterf(f, upper ? get_float4_infinity() :
					   -get_float4_infinity());
	}
	else if (col->physical_type == PQ_DOUBLE && b.len == 8)
	{
		uint64		bits = pq_load_le64(b.ptr);

		memcpy(&v, &bits, sizeof(v));
	}
	else
		return none;
	return isnan(v) ? none : v;
}

/* The NULLs of the geometry chunk, -1 when its statistics do not say. */
static int64
geometry_nulls(const PqFile *file, int row_group, int c)
{
	/* decrypted when the column is encrypted: it is read anyway */
	const PqColumnMetaData *cm = pq_file_chunk_meta(file, row_group, c);

	return cm->has_statistics && cm->statistics.has_null_count &&
		cm->statistics.null_count >= 0 &&
		cm->statistics.null_count <= cm->num_values ?
		cm->statistics.null_count : -1;
}

bool
pqfdw_geo_covering_may_match(const PqGeoBox *q, const PqFile *file,
							 int row_group, int c)
{
	CoveringCache *cache = covering_cache(file);
	Covering   *cov = &cache->by_leaf[c];
	PqGeoBox	b;
	int64		nulls;

	if (cov->state == COVER_UNRESOLVED)
		resolve(file, cache->columns, c, cov);
	if (cov->state != COVER_USABLE)
		return true;
	nulls = geometry_nulls(file, row_group, c);
	/* every bounding box qual is strict: NULL never satisfies it */
	if (nulls > 0 && nulls == file->md.row_groups[row_group].num_rows)
		return false;
	b.ymin = leaf_bound(file, row_group, cov->leaf[PQ_COVER_YMIN], false, nulls);
	b.ymax = leaf_bound(file, row_group, cov->leaf[PQ_COVER_YMAX], true, nulls);
	if (cov->use_x)
	{
		b.xmin = leaf_bound(file, row_group, cov->leaf[PQ_COVER_XMIN], false, nulls);
		b.xmax = leaf_bound(file, row_group, cov->leaf[PQ_COVER_XMAX], true, nulls);
	}
	else
	{
		b.xmin = -get_float8_infinity();
		b.xmax = get_float8_infinity();
	}
	pqfdw_geo_box_outward(&b);
	return pqfdw_geo_boxes_meet(&b, q);
}
