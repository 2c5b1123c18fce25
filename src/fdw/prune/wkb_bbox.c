/*-------------------------------------------------------------------------
 *
 * wkb_bbox.c
 *		The X/Y bounding box of a WKB value, and the SQL function
 *		parquet_fdw.bbox_intersects(wkb, xmin, ymin, xmax, ymax) that tests
 *		it against a box: the bounding box qual of bytea columns, which
 *		geo_bbox.c prunes with.  Also the box arithmetic that pruning
 *		shares (geo_bbox.c, geo_covering.c).
 *
 * Parquet stores ISO WKB; PostGIS's extended WKB (flags for Z, M and an
 * SRID in the type word) is read too, since that is what a PostGIS
 * geometry cast to bytea gives.  Every count is checked against the bytes
 * left before anything is read.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>
#include <math.h>

#include "fdw/prune/geo_bbox.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/float.h"

PG_FUNCTION_INFO_V1(parquet_fdw_bbox_intersects);

/* nesting of collections PostGIS itself accepts */
#define WKB_MAX_DEPTH 32

#define EWKB_Z 0x80000000u
#define EWKB_M 0x40000000u
#define EWKB_SRID 0x20000000u

typedef struct WkbReader
{
	const unsigned char *data;
	int			len;
	int			pos;
	bool		little;			/* byte order of the current geometry */
	PqGeoBox   *box;
	bool	   *curved;			/* where to report a curve, or NULL */
	bool		any_x;			/* a coordinate seen in X, in Y */
	bool		any_y;
} WkbReader;

static void
wkb_error(WkbReader *r, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid WKB value: %s at byte %d of %d", what, r->pos,
					r->len)));
}

static void
need(WkbReader *r, int64 bytes, const char *what)
{
	if (bytes > r->len - r->pos)
		wkb_error(r, what);
}

static uint32
read_u32(WkbReader *r)
{
	const unsigned char *b = r->data + r->pos;
	uint32		v;

	need(r, 4, "truncated integer");
	v = r->little ?
		(uint32) b[0] | (uint32) b[1] << 8 | (uint32) b[2] << 16 | (uint32) b[3] << 24 :
		(uint32) b[3] | (uint32) b[2] << 8 | (uint32) b[1] << 16 | (uint32) b[0] << 24;
	r->pos += 4;
	return v;
}

static double
read_double(WkbReader *r)
{
	const unsigned char *b = r->data + r->pos;
	uint64		v = 0;
	double		d;
	int			i;

	for (i = 0; i < 8; i++)
		v |= (uint64) b[r->little ? i : 7 - i] << (8 * i);
	memcpy(&d, &v, sizeof(d));
	r->pos += 8;
	return d;
}

/* npoints points of ndims doubles each; only X and Y count */
static void
read_points(WkbReader *r, uint32 npoints, int ndims)
{
	uint32		i;
	int			d;

	need(r, (int64) npoints * ndims * 8, "point count beyond the value");
	for (i = 0; i < npoints; i++)
	{
		double		x = read_double(r);
		double		y = read_double(r);

		for (d = 2; d < ndims; d++)
			(void) read_double(r);
		/* NaN coordinates are skipped, as the Parquet bounding box does */
		if (!isnan(x))
		{
			r->box->xmin = r->any_x ? Min(r->box->xmin, x) : x;
			r->box->xmax = r->any_x ? Max(r->box->xmax, x) : x;
			r->any_x = true;
		}
		if (!isnan(y))
		{
			r->box->ymin = r->any_y ? Min(r->box->ymin, y) : y;
			r->box->ymax = r->any_y ? Max(r->box->ymax, y) : y;
			r->any_y = true;
		}
	}
}

static void
read_geometry(WkbReader *r, int depth)
{
	uint32		type;
	uint32		base;
	int			ndims;
	uint32		n;
	uint32		i;

	check_stack_depth();
	if (depth > WKB_MAX_DEPTH)
		wkb_error(r, "collections nested too deeply");
	need(r, 1, "missing byte order");
	if (r->data[r->pos] > 1)
		wkb_error(r, "byte order neither 0 nor 1");
	r->little = r->data[r->pos++] == 1;
	type = read_u32(r);
	base = type & 0x0FFFFFFF;
	if (base / 1000 > 3)
		wkb_error(r, "unknown geometry type");
	/* ISO: 1000 Z, 2000 M, 3000 ZM; extended WKB: flag bits */
	ndims = 2 + (base / 1000 == 1 || base / 1000 == 3) +
		(base / 1000 == 2 || base / 1000 == 3) +
		((type & EWKB_Z) != 0) + ((type & EWKB_M) != 0);
	if (ndims > 4)
		wkb_error(r, "Z or M given twice");
	if (type & EWKB_SRID)
		(void) read_u32(r);
	base %= 1000;
	switch (base)
	{
		case 1:					/* Point */
			read_points(r, 1, ndims);
			break;
		case 2:					/* LineString */
			n = read_u32(r);
			read_points(r, n, ndims);
			break;
		case 3:					/* Polygon */
		case 17:				/* Triangle */
			n = read_u32(r);
			need(r, (int64) n * 4, "ring count beyond the value");
			for (i = 0; i < n; i++)
				read_points(r, read_u32(r), ndims);
			break;
		case 4:					/* MultiPoint */
		case 5:					/* MultiLineString */
		case 6:					/* MultiPolygon */
		case 7:					/* GeometryCollection */
		case 15:				/* PolyhedralSurface */
		case 16:				/* TIN */
			n = read_u32(r);
			/* the smallest member: an empty line string, 9 bytes */
			need(r, (int64) n * 9, "member count beyond the value");
			for (i = 0; i < n && !(r->curved && *r->curved); i++)
				read_geometry(r, depth + 1);
			break;
		case 8:
		case 9:
		case 10:
		case 11:
		case 12:
		case 13:
		case 14:
			if (r->curved)
			{
				*r->curved = true;
				r->pos = r->len;
				break;
			}
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("WKB geometry type %u (a curve) has no bounding box from its points",
							type & 0x0FFFFFFF),
					 errdetail("The arcs of curved geometries can leave the box of their points.")));
			break;
		default:
			wkb_error(r, "unknown geometry type");
	}
}

bool
pqfdw_wkb_bbox(const char *wkb, int len, PqGeoBox *box, bool *curved)
{
	WkbReader	r;

	memset(&r, 0, sizeof(r));
	r.data = (const unsigned char *) wkb;
	r.len = len;
	r.box = box;
	r.curved = curved;
	if (curved)
		*curved = false;
	read_geometry(&r, 0);
	if (curved && *curved)
		return false;
	if (r.pos != r.len)
		wkb_error(&r, "bytes after the geometry");
	/* without X or Y values there is no box (the spec's rule) */
	return r.any_x && r.any_y;
}

/*
 * The smallest float4 at or below d (at or above when up): PostGIS keeps
 * boxes in float4, rounded outward.
 */
static double
float_outward(double d, bool up)
{
	float		f;

	if (isnan(d) || isinf(d))
		return d;
	/* beyond float4's range PostGIS's box is infinite on that side */
	if (d > FLT_MAX)
		return up ? get_float8_infinity() : FLT_MAX;
	if (d < -FLT_MAX)
		return up ? -FLT_MAX : -get_float8_infinity();
	f = (float) d;
	if (up ? (double) f >= d : (double) f <= d)
		return f;
	return nextafterf(f, up ? FLT_MAX : -FLT_MAX);
}

void
pqfdw_geo_box_outward(PqGeoBox *b)
{
	b->xmin = float_outward(b->xmin, false);
	b->ymin = float_outward(b->ymin, false);
	b->xmax = float_outward(b->xmax, true);
	b->ymax = float_outward(b->ymax, true);
}

bool
pqfdw_geo_boxes_meet(const PqGeoBox *a, const PqGeoBox *b)
{
	return a->xmin <= b->xmax && a->xmax >= b->xmin &&
		a->ymin <= b->ymax && a->ymax >= b->ymin;
}

/*
 * bbox_intersects(wkb bytea, xmin, ymin, xmax, ymax): whether the value's
 * bounding box and the box share a point.  An empty geometry, an empty
 * box (xmin > xmax or ymin > ymax) and NaN bounds intersect nothing.
 */
Datum
parquet_fdw_bbox_intersects(PG_FUNCTION_ARGS)
{
	bytea	   *wkb = PG_GETARG_BYTEA_PP(0);
	PqGeoBox	b;
	PqGeoBox	q;

	if (!pqfdw_wkb_bbox(VARDATA_ANY(wkb), VARSIZE_ANY_EXHDR(wkb), &b, NULL))
		PG_RETURN_BOOL(false);
	q.xmin = PG_GETARG_FLOAT8(1);
	q.ymin = PG_GETARG_FLOAT8(2);
	q.xmax = PG_GETARG_FLOAT8(3);
	q.ymax = PG_GETARG_FLOAT8(4);
	/* an empty box is not a wrapped one: there is no antimeridian here */
	if (!(q.xmin <= q.xmax && q.ymin <= q.ymax))
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(pqfdw_geo_boxes_meet(&b, &q));
}
