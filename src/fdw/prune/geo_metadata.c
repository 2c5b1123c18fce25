/*-------------------------------------------------------------------------
 *
 * geo_metadata.c
 *		Read the GeoParquet 1.x "geo" key/value entry: per column, its
 *		encoding, edges, whether its CRS is projected, and the paths of
 *		its bbox covering.
 *
 * The entry is JSON written by any tool, so it is read with PostgreSQL's
 * JSON parser, which reports a syntax error instead of raising it, and
 * semantic actions that keep only the few fields needed: a malformed or
 * unexpected entry yields no columns (no pruning), never an error.
 * Numbers are not converted, so no value can overflow.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/jsonapi.h"
#include "fdw/common/pg_compat.h"
#include "fdw/prune/geo_metadata.h"

/* Deeper levels are only counted: nothing needed lies there */
#define GEO_MAX_LEVELS 8

typedef struct GeoLevel
{
	bool		array;
	char	   *field;			/* an object's current field */
} GeoLevel;

typedef struct GeoParse
{
	int			depth;			/* open objects and arrays */
	GeoLevel	level[GEO_MAX_LEVELS];
	List	   *columns;
	PqGeoParquetColumn *col;	/* the column entry being read */
	int			cover;			/* the covering path being read, or -1 */
} GeoParse;

static const char *const cover_names[PQ_COVER_NPATHS] = {
	"xmin", "ymin", "xmax", "ymax"
};

/* Is the current field of the object at level d name? */
static bool
field_is(const GeoParse *st, int d, const char *name)
{
	return d < st->depth && d < GEO_MAX_LEVELS && !st->level[d].array &&
		st->level[d].field != NULL && strcmp(st->level[d].field, name) == 0;
}

static void
push(GeoParse *st, bool array)
{
	if (st->depth < GEO_MAX_LEVELS)
	{
		st->level[st->depth].array = array;
		st->level[st->depth].field = NULL;
	}
	st->depth++;
}

/* Inside a column entry: {"columns": {NAME: {...}}} */
static bool
in_column(const GeoParse *st)
{
	return st->col != NULL && st->depth >= 3;
}

static PqJsonCbResult
geo_object_start(void *state)
{
	GeoParse   *st = state;

	if (st->depth == 2 && field_is(st, 0, "columns") &&
		!st->level[1].array && st->level[1].field != NULL)
	{
		PqGeoParquetColumn *col = palloc0(sizeof(PqGeoParquetColumn));
		int			k;

		col->name = st->level[1].field;
		col->planar = true;		/* absent edges are planar */
		for (k = 0; k < PQ_COVER_NPATHS; k++)
			col->npath[k] = -1;
		st->columns = lappend(st->columns, col);
		st->col = col;
	}
	else if (st->cover >= 0)
		st->col->npath[st->cover] = -1;
	push(st, false);
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
geo_array_start(void *state)
{
	GeoParse   *st = state;
	int			k;

	if (st->cover >= 0)
		st->col->npath[st->cover] = -1;
	else if (st->depth == 5 && in_column(st) && field_is(st, 2, "covering") &&
			 field_is(st, 3, "bbox"))
	{
		for (k = 0; k < PQ_COVER_NPATHS; k++)
			if (field_is(st, 4, cover_names[k]))
			{
				st->cover = k;
				st->col->npath[k] = 0;
			}
	}
	push(st, true);
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
geo_end(void *state)
{
	GeoParse   *st = state;

	st->depth--;
	if (st->depth == 5)
		st->cover = -1;
	else if (st->depth == 2)
		st->col = NULL;
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
geo_field_start(void *state, char *fname, bool isnull)
{
	GeoParse   *st = state;

	if (st->depth <= GEO_MAX_LEVELS)
		st->level[st->depth - 1].field = fname;
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
geo_scalar(void *state, char *token, JsonTokenType tokentype)
{
	GeoParse   *st = state;
	bool		string = tokentype == JSON_TOKEN_STRING;
	PqGeoParquetColumn *col = st->col;

	if (st->cover >= 0 && st->depth == 6)
	{
		int		   *n = &col->npath[st->cover];

		if (string && *n >= 0 && *n < PQ_COVER_PATH_LEN)
			col->path[st->cover][(*n)++] = token;
		else
			*n = -1;
	}
	else if (!in_column(st))
		return PQFDW_JSON_CB_OK;
	else if (st->depth == 3 && field_is(st, 2, "encoding"))
		col->wkb = string && strcmp(token, "WKB") == 0;
	else if (st->depth == 3 && field_is(st, 2, "edges"))
		col->planar = string && strcmp(token, "planar") == 0;
	else if (st->depth == 3 && field_is(st, 2, "crs"))
		col->projected = false;
	else if (st->depth == 4 && field_is(st, 2, "crs") &&
			 field_is(st, 3, "type"))
		col->projected = string && strcmp(token, "ProjectedCRS") == 0;
	return PQFDW_JSON_CB_OK;
}

List *
pqfdw_geoparquet_columns(const PqFileMetaData *md)
{
	const char *json = NULL;
	GeoParse	st = {0};
	JsonSemAction sem = {0};
	int			i;

	for (i = 0; i < md->n_key_value_metadata; i++)
		if (strcmp(md->key_value_metadata[i].key, "geo") == 0)
		{
			/* two "geo" entries: which one the writer meant is unknown */
			if (json != NULL)
				return NIL;
			json = md->key_value_metadata[i].value;
		}
	if (json == NULL)
		return NIL;
	st.cover = -1;
	sem.semstate = &st;
	sem.object_start = geo_object_start;
	sem.object_end = geo_end;
	sem.array_start = geo_array_start;
	sem.array_end = geo_end;
	sem.object_field_start = geo_field_start;
	sem.scalar = geo_scalar;
	if (!pqfdw_json_parse_text(json, &sem))
		return NIL;
	return st.columns;
}
