/*-------------------------------------------------------------------------
 *
 * geo_crs.c
 *		CRS and edge algorithm of GEOMETRY/GEOGRAPHY columns: the spec's
 *		defaults, and the PostGIS SRID a CRS string names.
 *
 * The SRID depends on the CRS string alone, so that parquet_fdw.schema()
 * shows exactly the SRID that values declared as PostGIS geometry get.
 * PostGIS SRIDs are EPSG codes by convention (spatial_ref_sys), hence
 * EPSG:N -> N.  "projjson:KEY" names a file property that is not resolved
 * (SRID 0); a PROJJSON object written as the CRS itself (DuckDB, GeoArrow)
 * is read for its top-level "id".
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/jsonapi.h"
#include "fdw/common/pg_compat.h"
#include "fdw/convert/geo_crs.h"

#define GEO_DEFAULT_CRS "OGC:CRS84"
#define SRID_WGS84 4326
#define SRID_MAX 999999			/* PostGIS's SRID_MAXIMUM */

bool
pqfdw_is_geo_column(const PqSchemaNode *node)
{
	return node->logical.id == PQ_LT_GEOMETRY ||
		node->logical.id == PQ_LT_GEOGRAPHY;
}

const char *
pqfdw_geo_crs(const PqSchemaNode *node)
{
	return node->logical.geo_crs ? node->logical.geo_crs : GEO_DEFAULT_CRS;
}

const char *
pqfdw_geo_algorithm(const PqSchemaNode *node)
{
	static const char *const names[] = {
		"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"
	};
	int			a;

	if (node->logical.id != PQ_LT_GEOGRAPHY)
		return NULL;
	if (!node->logical.has_geo_algorithm)
		return names[0];
	a = node->logical.geo_algorithm;
	if (a >= 0 && a < (int) lengthof(names))
		return names[a];
	/* an algorithm added after this was written: show its number */
	return psprintf("%d", a);
}

/* A decimal SRID in [1, SRID_MAX], else 0. */
static int32
parse_srid(const char *s)
{
	int32		v = 0;

	if (*s == '\0')
		return 0;
	for (; *s; s++)
	{
		if (*s < '0' || *s > '9')
			return 0;
		v = v * 10 + (*s - '0');
		if (v > SRID_MAX)
			return 0;
	}
	return v;
}

/* SRID of an authority:code pair */
static int32
authority_code_srid(const char *authority, const char *code)
{
	if (pg_strcasecmp(authority, "OGC") == 0 && pg_strcasecmp(code, "CRS84") == 0)
		return SRID_WGS84;
	if (pg_strcasecmp(authority, "EPSG") == 0)
		return parse_srid(code);
	return 0;
}

/* Top-level "id": {"authority": ..., "code": ...} of a PROJJSON object */
typedef struct ProjjsonIdState
{
	int			depth;			/* nesting of objects and arrays */
	bool		id_pending;		/* value of the top-level "id" field next */
	bool		in_id;
	const char *field;			/* current field inside "id" */
	char	   *authority;
	char	   *code;
} ProjjsonIdState;

static PqJsonCbResult
pj_object_start(void *state)
{
	ProjjsonIdState *st = state;

	st->depth++;
	if (st->depth == 2 && st->id_pending)
		st->in_id = true;
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
pj_object_end(void *state)
{
	ProjjsonIdState *st = state;

	if (st->depth == 2)
		st->in_id = false;
	st->depth--;
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
pj_array_start(void *state)
{
	((ProjjsonIdState *) state)->depth++;
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
pj_array_end(void *state)
{
	((ProjjsonIdState *) state)->depth--;
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
pj_field_start(void *state, char *fname, bool isnull)
{
	ProjjsonIdState *st = state;

	if (st->depth == 1)
		st->id_pending = (strcmp(fname, "id") == 0);
	else if (st->depth == 2 && st->in_id)
		st->field = fname;
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
pj_field_end(void *state, char *fname, bool isnull)
{
	ProjjsonIdState *st = state;

	if (st->depth == 1)
		st->id_pending = false;
	else if (st->depth == 2)
		st->field = NULL;
	return PQFDW_JSON_CB_OK;
}

static PqJsonCbResult
pj_scalar(void *state, char *token, JsonTokenType tokentype)
{
	ProjjsonIdState *st = state;

	if (!st->in_id || st->depth != 2 || st->field == NULL)
		return PQFDW_JSON_CB_OK;
	if (strcmp(st->field, "authority") == 0 && tokentype == JSON_TOKEN_STRING)
		st->authority = token;
	else if (strcmp(st->field, "code") == 0 &&
			 (tokentype == JSON_TOKEN_STRING || tokentype == JSON_TOKEN_NUMBER))
		st->code = token;
	return PQFDW_JSON_CB_OK;
}

static int32
projjson_srid(const char *crs)
{
	ProjjsonIdState st = {0};
	JsonSemAction sem = {0};

	sem.semstate = &st;
	sem.object_start = pj_object_start;
	sem.object_end = pj_object_end;
	sem.array_start = pj_array_start;
	sem.array_end = pj_array_end;
	sem.object_field_start = pj_field_start;
	sem.object_field_end = pj_field_end;
	sem.scalar = pj_scalar;
	if (!pqfdw_json_parse_text(crs, &sem) ||
		st.authority == NULL || st.code == NULL)
		return 0;
	return authority_code_srid(st.authority, st.code);
}

int32
pqfdw_geo_crs_srid(const char *crs, const PqFileMetaData *md)
{
	const char *colon;
	char	   *authority;

	if (crs == NULL)
		return SRID_WGS84;
	if (crs[0] == '{')
		return projjson_srid(crs);
	colon = strchr(crs, ':');
	if (colon == NULL)
		return 0;
	authority = pnstrdup(crs, colon - crs);
	if (pg_strcasecmp(authority, "srid") == 0)
		return parse_srid(colon + 1);
	if (pg_strcasecmp(authority, "projjson") == 0)
	{
		int			i;

		/* the PROJJSON object is the value of a file key/value entry */
		for (i = 0; md && i < md->n_key_value_metadata; i++)
			if (strcmp(md->key_value_metadata[i].key, colon + 1) == 0 &&
				md->key_value_metadata[i].value != NULL &&
				md->key_value_metadata[i].value[0] == '{')
				return projjson_srid(md->key_value_metadata[i].value);
		return 0;
	}
	return authority_code_srid(authority, colon + 1);
}

int32
pqfdw_geo_srid(const PqSchemaNode *node, const PqFileMetaData *md)
{
	return pqfdw_geo_crs_srid(node->logical.geo_crs, md);
}
