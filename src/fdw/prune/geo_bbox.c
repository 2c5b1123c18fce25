/*-------------------------------------------------------------------------
 *
 * geo_bbox.c
 *		Skip row groups of GEOMETRY columns whose bounding box
 *		(GeospatialStatistics) does not meet the box a qual needs.
 *
 * A qual on a column holds only for rows whose bounding box meets a
 * query box: "col && g", ST_Intersects(col, g), ST_Contains and ST_Within
 * either way round (one geometry inside the other), ST_DWithin(col, g, d)
 * (g's box grown by d) on a PostGIS geometry column, and
 * parquet_fdw.bbox_intersects(col, xmin, ymin, xmax, ymax) on a bytea
 * column.  A row group whose box misses the query box is skipped.  Only
 * GEOMETRY columns prune with their GeospatialStatistics: their edges are
 * straight, so a value lies in the box of its points.  GEOGRAPHY columns
 * never do (docs/GEOSPATIAL.md).  The box of a GeoParquet 1.x bbox
 * covering (geo_covering.c) may prune too: either box is a sound bound.
 *
 * PostGIS is found at run time (fdw/common/postgis.c): operators and
 * functions by name in the schema of the column's type, the constant's box
 * from its ST_AsBinary.  PostGIS compares boxes of float4 bounds rounded
 * outward, so both boxes are rounded outward the same way before they are
 * compared: pruning never disagrees with "&&".
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "fdw/common/postgis.h"
#include "fdw/prune/geo_bbox.h"
#include "fdw/prune/geo_covering.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "parser/parse_oper.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

typedef enum PqGeoShape
{
	PQ_GEO_BOX,					/* bbox_intersects(col, xmin, ymin, xmax,
								 * ymax) */
	PQ_GEO_MEETS,				/* &&, ST_Intersects, ST_Contains, ST_Within */
	PQ_GEO_DWITHIN				/* ST_DWithin(col, g, d) */
} PqGeoShape;

struct PqGeoPred
{
	PqGeoShape	shape;
	FmgrInfo	asbinary;		/* PostGIS ST_AsBinary(geometry) */
	bool		usable;			/* the query box is known */
	PqGeoBox	box;
};

/* The parts of a recognised clause. */
typedef struct GeoClause
{
	PqGeoShape	shape;
	Var		   *var;
	List	   *values;			/* the value expressions, in order */
	int			var_arg;		/* the column's argument position */
	char	   *nspname;		/* PostGIS's schema, NULL for PQ_GEO_BOX */
} GeoClause;

static const char *const meets_functions[] = {
	"st_intersects", "st_contains", "st_within"
};

/* A column of relid itself (not a field of it). */
static Var *
column_var(Node *node, Index relid)
{
	int16		fields[PQ_PRUNE_MAX_STEPS];
	int			nfields;
	Var		   *var = pqfdw_prune_field_var(node, relid, fields, &nfields);

	return nfields == 0 ? var : NULL;
}

/* A constant or an expression evaluated once per scan (no Var at all). */
static bool
value_expr(Node *node)
{
	if (IsA(node, Const))
		return !((Const *) node)->constisnull;
	return !contain_var_clause(node) && !contain_volatile_functions(node) &&
		!contain_subplans(node);
}

/* The PostGIS schema of a geometry (not geography) column. */
static char *
geometry_column(Var *var)
{
	bool		geography;
	char	   *nspname;

	/* PostGIS types are never built in: no catalog lookup for those */
	if (var == NULL || var->vartype < FirstNormalObjectId ||
		!pqfdw_postgis_type(var->vartype, &geography, &nspname) || geography)
		return NULL;
	return nspname;
}

static Oid
lookup_function(const char *nspname, const char *name, int nargs,
				Oid *argtypes)
{
	return LookupFuncName(list_make2(makeString(pstrdup(nspname)),
									 makeString(pstrdup(name))),
						  nargs, argtypes, true);
}

/*
 * Of the first two arguments, a geometry column and a value expression,
 * either way round; the value becomes the clause's first value.
 */
static bool
geometry_operands(List *args, Index relid, GeoClause *gc)
{
	int			i;

	for (i = 0; i < 2; i++)
	{
		gc->var = column_var(list_nth(args, i), relid);
		if ((gc->nspname = geometry_column(gc->var)) != NULL &&
			value_expr(list_nth(args, 1 - i)))
		{
			gc->var_arg = i;
			gc->values = list_make1(list_nth(args, 1 - i));
			return true;
		}
	}
	return false;
}

/* "col && g" or "g && col" */
static bool
op_clause(OpExpr *op, Index relid, GeoClause *gc)
{
	Oid			geom;
	Oid			opno;

	if (list_length(op->args) != 2 ||
		!geometry_operands(op->args, relid, gc))
		return false;
	geom = gc->var->vartype;
	opno = LookupOperName(NULL, list_make2(makeString(gc->nspname),
										   makeString("&&")),
						  geom, geom, true, -1);
	if (op->opno != opno)
		return false;
	gc->shape = PQ_GEO_MEETS;
	return true;
}

/* ST_Intersects, ST_Contains, ST_Within or ST_DWithin on a geometry column */
static bool
postgis_func_clause(FuncExpr *fe, Index relid, GeoClause *gc)
{
	int			nargs = list_length(fe->args);
	Oid			argtypes[3];
	int			i;

	if ((nargs != 2 && nargs != 3) ||
		!geometry_operands(fe->args, relid, gc))
		return false;
	argtypes[0] = argtypes[1] = gc->var->vartype;
	argtypes[2] = FLOAT8OID;
	if (nargs == 3)
	{
		if (!value_expr(lthird(fe->args)) ||
			fe->funcid != lookup_function(gc->nspname, "st_dwithin", 3,
										  argtypes))
			return false;
		gc->shape = PQ_GEO_DWITHIN;
		gc->values = lappend(gc->values, lthird(fe->args));
		return true;
	}
	gc->shape = PQ_GEO_MEETS;
	for (i = 0; i < lengthof(meets_functions); i++)
		if (fe->funcid == lookup_function(gc->nspname, meets_functions[i], 2,
										  argtypes))
			return true;
	return false;
}

/* parquet_fdw.bbox_intersects(col, xmin, ymin, xmax, ymax) */
static bool
box_func_clause(FuncExpr *fe, Index relid, GeoClause *gc)
{
	Oid			argtypes[5] = {BYTEAOID, FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID};
	ListCell   *lc;

	if (list_length(fe->args) != 5 ||
		(gc->var = column_var(linitial(fe->args), relid)) == NULL)
		return false;
	for_each_from(lc, fe->args, 1)
	{
		if (!value_expr(lfirst(lc)))
			return false;
	}
	if (fe->funcid != lookup_function("parquet_fdw", "bbox_intersects", 5,
									  argtypes))
		return false;
	gc->shape = PQ_GEO_BOX;
	gc->var_arg = 0;
	gc->values = list_copy_tail(fe->args, 1);
	gc->nspname = NULL;
	return true;
}

static bool
geo_clause(Expr *clause, Index relid, GeoClause *gc)
{
	if (IsA(clause, OpExpr))
		return op_clause((OpExpr *) clause, relid, gc);
	if (IsA(clause, FuncExpr))
		return box_func_clause((FuncExpr *) clause, relid, gc) ||
			postgis_func_clause((FuncExpr *) clause, relid, gc);
	return false;
}

bool
pqfdw_geo_prune_clause(Expr *clause, Index relid, List **values)
{
	GeoClause	gc;

	if (!geo_clause(clause, relid, &gc))
		return false;
	if (values)
		*values = list_concat(*values, gc.values);
	return true;
}

Expr *
pqfdw_geo_substitute_values(Expr *clause, Index relid, ListCell **next,
							List *values)
{
	GeoClause	gc;
	List	  **args;
	int			i;

	if (!geo_clause(clause, relid, &gc))
		elog(ERROR, "unrecognized parquet_fdw bounding box clause");
	clause = copyObject(clause);
	args = IsA(clause, OpExpr) ? &((OpExpr *) clause)->args :
		&((FuncExpr *) clause)->args;
	for (i = 0; i < list_length(*args); i++)
	{
		if (i == gc.var_arg)
			continue;
		lfirst(list_nth_cell(*args, i)) = lfirst(*next);
		*next = lnext(values, *next);
	}
	return clause;
}

void
pqfdw_geo_init_pred(PqPrunePred *p, Expr *clause, Index relid, int *next_value)
{
	GeoClause	gc;

	if (!geo_clause(clause, relid, &gc))
		elog(ERROR, "unrecognized parquet_fdw bounding box clause");
	p->kind = PQ_PRUNE_BBOX;
	p->attnum = gc.var->varattno;
	p->value_index = *next_value;
	*next_value += list_length(gc.values);
	p->geo = palloc0(sizeof(PqGeoPred));
	p->geo->shape = gc.shape;
	if (gc.nspname)
	{
		Oid			geom = gc.var->vartype;

		fmgr_info(pqfdw_postgis_function(gc.nspname, "st_asbinary", 1, &geom,
										 BYTEAOID),
				  &p->geo->asbinary);
	}
}

void
pqfdw_geo_set_values(PqPrunePred *p, const Datum *values, const bool *isnull)
{
	PqGeoPred  *g = p->geo;
	int			v = p->value_index;
	int			nvalues = g->shape == PQ_GEO_BOX ? 4 :
	g->shape == PQ_GEO_DWITHIN ? 2 : 1;
	int			i;

	g->usable = false;
	for (i = 0; i < nvalues; i++)
		if (isnull[v + i])
			return;
	if (g->shape == PQ_GEO_BOX)
	{
		g->box.xmin = DatumGetFloat8(values[v]);
		g->box.ymin = DatumGetFloat8(values[v + 1]);
		g->box.xmax = DatumGetFloat8(values[v + 2]);
		g->box.ymax = DatumGetFloat8(values[v + 3]);
	}
	else
	{
		bytea	   *wkb = DatumGetByteaPP(FunctionCall1(&g->asbinary,
														values[v]));
		bool		curved;

		/* an empty or curved constant: no box to prune with */
		if (!pqfdw_wkb_bbox(VARDATA_ANY(wkb), VARSIZE_ANY_EXHDR(wkb), &g->box,
							&curved))
			return;
		if (g->shape == PQ_GEO_DWITHIN)
		{
			double		d = DatumGetFloat8(values[v + 1]);

			/* PostGIS rejects a negative distance: leave that error to it */
			if (!(d >= 0))
				return;
			g->box.xmin -= d;
			g->box.ymin -= d;
			g->box.xmax += d;
			g->box.ymax += d;
		}
	}
	pqfdw_geo_box_outward(&g->box);
	g->usable = true;
}

/* Types whose edges are straight (no curves): WKB codes mod 1000. */
static bool
linear_types(const PqGeospatialStatistics *gs)
{
	int			i;

	/* an empty list means "not known" */
	if (gs->n_geospatial_types == 0)
		return false;
	for (i = 0; i < gs->n_geospatial_types; i++)
	{
		int			t = gs->geospatial_types[i] % 1000;

		if (!((t >= 1 && t <= 7) || (t >= 15 && t <= 17)))
			return false;
	}
	return true;
}

/* Can the GeospatialStatistics box of GEOMETRY leaf c meet the query box? */
static bool
statistics_may_match(PqPrunePred *p, const PqFile *file, int row_group, int c)
{
	const PqColumnMetaData *cm;
	const PqGeospatialStatistics *gs;
	PqGeoBox	b;

	if (file->schema->columns[c].node->logical.id != PQ_LT_GEOMETRY)
		return true;
	/* decrypted when the column is encrypted: it is read anyway */
	cm = pq_file_chunk_meta(file, row_group, c);
	if (!cm->has_geospatial_statistics)
		return true;
	gs = &cm->geospatial_statistics;
	if (!gs->has_bbox || !linear_types(gs))
		return true;
	b.xmin = gs->bbox.xmin;
	b.ymin = gs->bbox.ymin;
	b.xmax = gs->bbox.xmax;
	b.ymax = gs->bbox.ymax;
	/* NaN bounds, or a wrapped X range that GEOMETRY must not have */
	if (isnan(b.xmin) || isnan(b.xmax) || isnan(b.ymin) || isnan(b.ymax) ||
		b.xmin > b.xmax || b.ymin > b.ymax)
		return true;
	pqfdw_geo_box_outward(&b);
	return pqfdw_geo_boxes_meet(&b, &p->geo->box);
}

bool
pqfdw_geo_may_match(PqPrunePred *p, const PqFile *file, const PqRowGroup *rg,
					PqConverter *cv, int c)
{
	int			row_group = rg - file->md.row_groups;

	if (!p->geo->usable || cv->node->max_rep > 0)
		return true;
	return statistics_may_match(p, file, row_group, c) &&
		pqfdw_geo_covering_may_match(&p->geo->box, file, row_group, c);
}
