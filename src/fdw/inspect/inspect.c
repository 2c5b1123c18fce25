/*-------------------------------------------------------------------------
 *
 * inspect.c
 *		SQL functions that describe a Parquet file: parquet_fdw.metadata(),
 *		parquet_fdw.schema() and parquet_fdw.file_info().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fdw/common/source.h"
#include "fdw/common/table_options.h"
#include "fdw/convert/geo_crs.h"
#include "fdw/convert/nested.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(parquet_fdw_metadata);
PG_FUNCTION_INFO_V1(parquet_fdw_schema);
PG_FUNCTION_INFO_V1(parquet_fdw_file_info);

/*
 * The file argument 0 names: a server file (superuser, pg_read_server_files
 * or parquet_fdw.read_files_role), or a URL read through the server of
 * argument 1 with the caller's user mapping.
 */
static PqFile *
open_for_inspection(FunctionCallInfo fcinfo)
{
	char	   *path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	PqfdwAccess access;
	PqFile	   *file;

	pqfdw_access_local(&access, NULL);
	if (pq_url_is_remote(path))
	{
		access.remote.serverid =
			pqfdw_url_server(PG_NARGS() > 1 ? NameStr(*PG_GETARG_NAME(1)) : NULL);
		access.remote.userid = GetUserId();
	}
	else
	{
		bool		member_only = pqfdw_check_read_permission();

		if (!is_absolute_path(path))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("relative path not allowed: \"%s\"", path),
					 errhint("Use an absolute path, or a URL.")));
		if (member_only)
			pqfdw_check_readable_paths(list_make1(path));
	}
	file = pqfdw_file_open(path, &access);
	pqfdw_source_close(file->src);
	return file;
}

static char *
key_value_text(const PqKeyValue *kv, int n)
{
	StringInfoData buf;
	int			i;

	if (n == 0)
		return NULL;
	initStringInfo(&buf);
	for (i = 0; i < n; i++)
		appendStringInfo(&buf, "%s%s=%s", i ? ", " : "", kv[i].key,
						 kv[i].value ? kv[i].value : "");
	return buf.data;
}

/* Text from a file as is when valid in the database encoding, else as hex. */
static Datum
file_text_datum(const char *s)
{
	StringInfoData buf;
	int			len = strlen(s);
	int			i;

	if (pg_verifymbstr(s, len, true))
		return CStringGetTextDatum(s);
	initStringInfo(&buf);
	appendStringInfoString(&buf, "\\x");
	for (i = 0; i < len; i++)
		appendStringInfo(&buf, "%02x", (unsigned char) s[i]);
	return CStringGetTextDatum(buf.data);
}

/*
 * GeospatialStatistics into values[0..8]: the bounding box (Z and M only
 * when the writer stored them) and the geospatial type codes.
 */
static void
geo_stats_values(const PqColumnMetaData *cm, Datum *values, bool *nulls)
{
	const PqGeospatialStatistics *g = &cm->geospatial_statistics;
	const PqBoundingBox *b = &g->bbox;
	bool		has_bbox = cm->has_geospatial_statistics && g->has_bbox;
	double		v[8] = {b->xmin, b->xmax, b->ymin, b->ymax,
	b->zmin, b->zmax, b->mmin, b->mmax};
	bool		present[8] = {has_bbox, has_bbox, has_bbox, has_bbox,
		has_bbox && b->has_z, has_bbox && b->has_z,
	has_bbox && b->has_m, has_bbox && b->has_m};
	int			i;

	for (i = 0; i < 8; i++)
	{
		values[i] = Float8GetDatum(v[i]);
		nulls[i] = !present[i];
	}
	if (cm->has_geospatial_statistics && g->geospatial_types != NULL)
	{
		Datum	   *codes = palloc(sizeof(Datum) * Max(g->n_geospatial_types, 1));

		for (i = 0; i < g->n_geospatial_types; i++)
			codes[i] = Int32GetDatum(g->geospatial_types[i]);
		values[8] = PointerGetDatum(construct_array(codes, g->n_geospatial_types,
													INT4OID, sizeof(int32),
													true, TYPALIGN_INT));
		nulls[8] = false;
	}
	else
		nulls[8] = true;
}

/* A statistics bound as readable text, by physical and logical type. */
static char *
stat_text(const PqSchemaNode *node, PqBytes b)
{
	StringInfoData buf;
	int			lt = node->logical.id;
	int			i;

	if (b.ptr == NULL)
		return NULL;
	initStringInfo(&buf);
	switch (node->physical_type)
	{
		case PQ_BOOLEAN:
			if (b.len >= 1)
				return pstrdup(b.ptr[0] ? "true" : "false");
			break;
		case PQ_INT32:
			if (b.len == 4)
			{
				int32		v = (int32) pq_load_le32(b.ptr);

				if (lt == PQ_LT_INTEGER && !node->logical.int_is_signed)
					return psprintf("%u", (uint32) v);
				return psprintf("%d", v);
			}
			break;
		case PQ_INT64:
			if (b.len == 8)
			{
				uint64		v = pq_load_le64(b.ptr);

				if (lt == PQ_LT_INTEGER && !node->logical.int_is_signed)
					return psprintf(UINT64_FORMAT, v);
				return psprintf(INT64_FORMAT, (int64) v);
			}
			break;
		case PQ_FLOAT:
			if (b.len == 4)
			{
				uint32		bits = pq_load_le32(b.ptr);
				float4		f;

				memcpy(&f, &bits, 4);
				return float8out_internal(f);
			}
			break;
		case PQ_DOUBLE:
			if (b.len == 8)
			{
				uint64		bits = pq_load_le64(b.ptr);
				float8		d;

				memcpy(&d, &bits, 8);
				return float8out_internal(d);
			}
			break;
		case PQ_BYTE_ARRAY:
			if (lt == PQ_LT_STRING || lt == PQ_LT_ENUM || lt == PQ_LT_JSON)
			{
				appendBinaryStringInfo(&buf, (const char *) b.ptr, b.len);
				if (pg_verifymbstr(buf.data, buf.len, true))
					return buf.data;
				resetStringInfo(&buf);
			}
			break;
		default:
			break;
	}
	appendStringInfoString(&buf, "\\x");
	for (i = 0; i < b.len; i++)
		appendStringInfo(&buf, "%02x", b.ptr[i]);
	return buf.data;
}

static char *
encodings_text(const PqColumnMetaData *cm)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	for (i = 0; i < cm->n_encodings; i++)
		appendStringInfo(&buf, "%s%s", i ? "," : "",
						 pq_encoding_name(cm->encodings[i]));
	return buf.data;
}

Datum
parquet_fdw_metadata(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PqFile	   *file;
	int			rg;

	InitMaterializedSRF(fcinfo, 0);
	file = open_for_inspection(fcinfo);

	for (rg = 0; rg < file->md.n_row_groups; rg++)
	{
		const PqRowGroup *g = &file->md.row_groups[rg];
		int			c;

		for (c = 0; c < g->n_columns; c++)
		{
			const PqColumnChunk *cc = &g->columns[c];
			const PqColumnMetaData *cm = &cc->meta_data;
			const PqColumnDescr *col = &file->schema->columns[c];
			const PqStatistics *s = &cm->statistics;
			Datum		values[36];
			bool		nulls[36];
			char	   *lt;
			PqBytes		minb;
			PqBytes		maxb;

			memset(nulls, 0, sizeof(nulls));
			values[0] = CStringGetTextDatum(file->src->name);
			values[1] = Int32GetDatum(rg);
			values[2] = Int64GetDatum(g->num_rows);
			values[3] = Int32GetDatum(c);
			values[4] = CStringGetTextDatum(col->path);
			values[5] = CStringGetTextDatum(pq_physical_type_name(col->physical_type));
			lt = pq_logical_type_string(col->node);
			values[6] = CStringGetTextDatum(lt);
			nulls[6] = (lt[0] == '\0');
			if (col->node->converted_type >= 0)
				values[7] = CStringGetTextDatum(pq_converted_type_name(col->node->converted_type));
			else
				nulls[7] = true;
			if (!cc->has_meta_data)
			{
				int			k;

				for (k = 8; k < 36; k++)
					nulls[k] = true;
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
									 values, nulls);
				continue;
			}
			values[8] = CStringGetTextDatum(pq_codec_name(cm->codec));
			values[9] = CStringGetTextDatum(encodings_text(cm));
			values[10] = Int64GetDatum(cm->num_values);
			values[11] = Int64GetDatum(cm->total_compressed_size);
			values[12] = Int64GetDatum(cm->total_uncompressed_size);
			values[13] = Int64GetDatum(cm->data_page_offset);
			values[14] = Int64GetDatum(cm->dictionary_page_offset);
			nulls[14] = !cm->has_dictionary_page_offset;
			values[15] = Int64GetDatum(s->null_count);
			nulls[15] = !(cm->has_statistics && s->has_null_count);
			values[16] = Int64GetDatum(s->distinct_count);
			nulls[16] = !(cm->has_statistics && s->has_distinct_count);

			/* min_value/max_value, else the legacy fields */
			minb = s->min_value.ptr ? s->min_value : s->min;
			maxb = s->max_value.ptr ? s->max_value : s->max;
			if (cm->has_statistics && minb.ptr)
				values[17] = CStringGetTextDatum(stat_text(col->node, minb));
			else
				nulls[17] = true;
			if (cm->has_statistics && maxb.ptr)
				values[18] = CStringGetTextDatum(stat_text(col->node, maxb));
			else
				nulls[18] = true;
			values[19] = BoolGetDatum(s->is_min_value_exact);
			nulls[19] = !(cm->has_statistics && s->has_is_min_value_exact);
			values[20] = BoolGetDatum(s->is_max_value_exact);
			nulls[20] = !(cm->has_statistics && s->has_is_max_value_exact);
			values[21] = BoolGetDatum(cm->has_bloom_filter_offset);
			values[22] = Int64GetDatum(cm->bloom_filter_offset);
			nulls[22] = !cm->has_bloom_filter_offset;
			values[23] = Int32GetDatum(cm->bloom_filter_length);
			nulls[23] = !cm->has_bloom_filter_length;
			values[24] = BoolGetDatum(cc->has_column_index_offset);
			values[25] = BoolGetDatum(cc->has_offset_index_offset);
			if (cm->n_key_value_metadata > 0)
				values[26] = CStringGetTextDatum(key_value_text(cm->key_value_metadata,
																cm->n_key_value_metadata));
			else
				nulls[26] = true;
			geo_stats_values(cm, &values[27], &nulls[27]);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
								 values, nulls);
		}
	}
	return (Datum) 0;
}

static void
schema_rows(ReturnSetInfo *rsinfo, const PqFileMetaData *md,
			const PqSchemaNode *n, const char *parent_path, int *position)
{
	Datum		values[18];
	bool		nulls[18];
	char	   *path;
	char	   *lt;
	int			i;

	memset(nulls, 0, sizeof(nulls));
	path = n->parent == NULL ? pstrdup("") :
		parent_path[0] ? psprintf("%s.%s", parent_path, n->name) : pstrdup(n->name);
	values[0] = Int32GetDatum((*position)++);
	values[1] = Int32GetDatum(n->depth);
	values[2] = CStringGetTextDatum(n->name);
	values[3] = CStringGetTextDatum(path);
	values[4] = CStringGetTextDatum(pq_repetition_name(n->repetition));
	if (n->is_leaf)
	{
		Oid			typid;
		int32		typmod;

		values[5] = CStringGetTextDatum(pq_physical_type_name(n->physical_type));
		values[6] = Int32GetDatum(n->type_length);
		nulls[6] = (n->physical_type != PQ_FIXED_LEN_BYTE_ARRAY);
		values[13] = Int32GetDatum(n->first_leaf);
		pqfdw_natural_type(n, &typid, &typmod);
		values[14] = CStringGetTextDatum(format_type_with_typemod(typid, typmod));
	}
	else
	{
		nulls[5] = nulls[6] = nulls[13] = nulls[14] = true;
	}
	/* a nested top-level field: the type IMPORT gives its column */
	if (n->parent != NULL && n->parent->parent == NULL &&
		pqfdw_is_nested_field(n))
	{
		Oid			typid;
		int32		typmod;

		pqfdw_nested_natural_type(n, &typid, &typmod);
		values[14] = CStringGetTextDatum(format_type_with_typemod(typid, typmod));
		nulls[14] = false;
	}
	if (pqfdw_is_geo_column(n))
	{
		const char *alg = pqfdw_geo_algorithm(n);

		values[15] = file_text_datum(pqfdw_geo_crs(n));
		values[16] = alg ? CStringGetTextDatum(alg) : (Datum) 0;
		nulls[16] = (alg == NULL);
		values[17] = Int32GetDatum(pqfdw_geo_srid(n, md));
	}
	else
		nulls[15] = nulls[16] = nulls[17] = true;
	lt = pq_logical_type_string(n);
	values[7] = CStringGetTextDatum(lt);
	nulls[7] = (lt[0] == '\0');
	if (n->converted_type >= 0)
		values[8] = CStringGetTextDatum(pq_converted_type_name(n->converted_type));
	else
		nulls[8] = true;
	values[9] = Int32GetDatum(n->n_children);
	nulls[9] = n->is_leaf;
	values[10] = Int32GetDatum(n->max_def);
	values[11] = Int32GetDatum(n->max_rep);
	values[12] = Int32GetDatum(n->elem->field_id);
	nulls[12] = !n->elem->has_field_id;
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);

	for (i = 0; i < n->n_children; i++)
		schema_rows(rsinfo, md, n->children[i], path, position);
}

Datum
parquet_fdw_schema(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PqFile	   *file;
	int			position = 0;

	InitMaterializedSRF(fcinfo, 0);
	file = open_for_inspection(fcinfo);
	schema_rows(rsinfo, &file->md, file->schema->root, "", &position);
	return (Datum) 0;
}

Datum
parquet_fdw_file_info(PG_FUNCTION_ARGS)
{
	PqFile	   *file = open_for_inspection(fcinfo);
	TupleDesc	tupdesc;
	Datum		values[8];
	bool		nulls[8];
	char	   *kv;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	memset(nulls, 0, sizeof(nulls));
	values[0] = CStringGetTextDatum(file->src->name);
	values[1] = Int64GetDatum(file->src->size);
	values[2] = Int32GetDatum(file->md.version);
	values[3] = Int64GetDatum(file->md.num_rows);
	values[4] = Int32GetDatum(file->md.n_row_groups);
	values[5] = Int32GetDatum(file->schema->n_columns);
	if (file->md.created_by)
		values[6] = CStringGetTextDatum(file->md.created_by);
	else
		nulls[6] = true;
	kv = key_value_text(file->md.key_value_metadata, file->md.n_key_value_metadata);
	if (kv)
		values[7] = CStringGetTextDatum(kv);
	else
		nulls[7] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
