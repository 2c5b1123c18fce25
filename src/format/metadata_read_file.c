/*-------------------------------------------------------------------------
 *
 * metadata_read_file.c
 *		Decoders for the footer structures: FileMetaData with its schema,
 *		row groups and column chunks, ColumnMetaData, and FileCryptoMetaData.
 *
 *-------------------------------------------------------------------------
 */
#include "pq_common.h"

#include "metadata_read_int.h"

/* TimeUnit union: an unknown or missing unit is PQ_UNIT_NONE */
static int
read_time_unit(PqThriftReader *r)
{
	int			id;

	if (pq_md_rd_union_id(r, "TimeUnit", &id) &&
		id >= PQ_UNIT_MILLIS && id <= PQ_UNIT_NANOS)
		return id;
	return PQ_UNIT_NONE;
}

static void
read_decimal_type(PqThriftReader *r, PqLogicalType *out)
{
	static const uint8 types[] = {[1] = PQ_TT_I32, [2] = PQ_TT_I32};
	static const char *const st = "DecimalType";
	int16		id;
	int			type;
	uint32		seen = 0;

	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->decimal_scale = pq_thrift_read_i32(r);
		else
			out->decimal_precision = pq_thrift_read_i32(r);
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "scale");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "precision");
}

/* TimeType and TimestampType have the same fields */
static void
read_time_type(PqThriftReader *r, const char *st, PqLogicalType *out)
{
	static const uint8 types[] = {[1] = PQ_TT_TRUE, [2] = PQ_TT_STRUCT};
	int16		id;
	int			type;
	uint32		seen = 0;

	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->is_adjusted_to_utc = (type == PQ_TT_TRUE);
		else
			out->time_unit = read_time_unit(r);
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "isAdjustedToUTC");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "unit");
}

static void
read_int_type(PqThriftReader *r, PqLogicalType *out)
{
	static const uint8 types[] = {[1] = PQ_TT_I8, [2] = PQ_TT_TRUE};
	static const char *const st = "IntType";
	int16		id;
	int			type;
	uint32		seen = 0;

	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->int_bit_width = pq_thrift_read_i8(r);
		else
			out->int_is_signed = (type == PQ_TT_TRUE);
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "bitWidth");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "isSigned");
}

static void
read_variant_type(PqThriftReader *r, PqLogicalType *out)
{
	static const uint8 types[] = {[1] = PQ_TT_I8};
	int16		id;
	int			type;

	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		out->variant_spec_version = pq_thrift_read_i8(r);
		out->has_variant_spec_version = true;
	}
	pq_thrift_read_struct_end(r);
}

/* GeometryType (crs) and GeographyType (crs, algorithm) */
static void
read_geo_type(PqThriftReader *r, PqLogicalType *out)
{
	static const uint8 geometry_types[] = {[1] = PQ_TT_BINARY};
	static const uint8 geography_types[] = {[1] = PQ_TT_BINARY, [2] = PQ_TT_I32};
	bool		geography = (out->id == PQ_LT_GEOGRAPHY);
	int16		id;
	int			type;

	pq_thrift_read_struct_begin(r);
	while (geography ? NEXT_FIELD(r, geography_types, &id, &type) :
		   NEXT_FIELD(r, geometry_types, &id, &type))
	{
		if (id == 1)
			out->geo_crs = pq_thrift_read_string(r);
		else
		{
			out->geo_algorithm = pq_thrift_read_i32(r);
			out->has_geo_algorithm = true;
		}
	}
	pq_thrift_read_struct_end(r);
}

/*
 * LogicalType union.  A member this reader does not know, or an empty
 * union (what older Thrift readers see for a newer member), yields
 * PQ_LT_UNRECOGNIZED: readers fall back to the ConvertedType.
 */
static void
read_logical_type(PqThriftReader *r, PqLogicalType *out)
{
	int16		id;
	int			type;
	bool		found = false;

	memset(out, 0, sizeof(*out));
	out->id = PQ_LT_UNRECOGNIZED;
	pq_thrift_read_struct_begin(r);
	while (pq_thrift_read_field(r, &id, &type))
	{
		if (found)
			pq_corrupt("LogicalType union has more than one member");
		found = true;
		out->id = (type == PQ_TT_STRUCT) ? id : PQ_LT_UNRECOGNIZED;
		switch (out->id)
		{
			case PQ_LT_DECIMAL:
				read_decimal_type(r, out);
				break;
			case PQ_LT_TIME:
				read_time_type(r, "TimeType", out);
				break;
			case PQ_LT_TIMESTAMP:
				read_time_type(r, "TimestampType", out);
				break;
			case PQ_LT_INTEGER:
				read_int_type(r, out);
				break;
			case PQ_LT_VARIANT:
				read_variant_type(r, out);
				break;
			case PQ_LT_GEOMETRY:
			case PQ_LT_GEOGRAPHY:
				read_geo_type(r, out);
				break;
			case PQ_LT_STRING:
			case PQ_LT_MAP:
			case PQ_LT_LIST:
			case PQ_LT_ENUM:
			case PQ_LT_DATE:
			case PQ_LT_UNKNOWN:
			case PQ_LT_JSON:
			case PQ_LT_BSON:
			case PQ_LT_UUID:
			case PQ_LT_FLOAT16:
			case PQ_LT_FILE:
				/* empty structs, but skip whatever a newer writer put there */
				pq_thrift_skip(r, type);
				break;
			default:
				out->id = PQ_LT_UNRECOGNIZED;
				pq_thrift_skip(r, type);
		}
	}
	pq_thrift_read_struct_end(r);
}

static void
read_schema_element(PqThriftReader *r, PqSchemaElement *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_I32, [3] = PQ_TT_I32, [4] = PQ_TT_BINARY,
		[5] = PQ_TT_I32, [6] = PQ_TT_I32, [7] = PQ_TT_I32, [8] = PQ_TT_I32,
		[9] = PQ_TT_I32, [10] = PQ_TT_STRUCT
	};
	static const char *const st = "SchemaElement";
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				out->type = pq_thrift_read_i32(r);
				out->has_type = true;
				break;
			case 2:
				out->type_length = pq_md_rd_size32(r, st, "type_length");
				out->has_type_length = true;
				break;
			case 3:
				out->repetition_type = pq_thrift_read_i32(r);
				out->has_repetition_type = true;
				break;
			case 4:
				out->name = pq_thrift_read_string(r);
				break;
			case 5:
				out->num_children = pq_md_rd_size32(r, st, "num_children");
				out->has_num_children = true;
				break;
			case 6:
				out->converted_type = pq_thrift_read_i32(r);
				out->has_converted_type = true;
				break;
			case 7:
				out->scale = pq_thrift_read_i32(r);
				out->has_scale = true;
				break;
			case 8:
				out->precision = pq_thrift_read_i32(r);
				out->has_precision = true;
				break;
			case 9:
				out->field_id = pq_thrift_read_i32(r);
				out->has_field_id = true;
				break;
			case 10:
				read_logical_type(r, &out->logical_type);
				break;
		}
	}
	pq_thrift_read_struct_end(r);
	if (out->name == NULL)
		pq_md_missing_field(st, "name");
}

static void
read_page_encoding_stats(PqThriftReader *r, PqPageEncodingStats *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_I32, [3] = PQ_TT_I32
	};
	static const char *const st = "PageEncodingStats";
	int16		id;
	int			type;
	uint32		seen = 0;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->page_type = pq_thrift_read_i32(r);
		else if (id == 2)
			out->encoding = pq_thrift_read_i32(r);
		else
			out->count = pq_md_rd_size32(r, st, "count");
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "page_type");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "encoding");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "count");
}

static void
read_size_statistics(PqThriftReader *r, PqSizeStatistics *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I64, [2] = PQ_TT_LIST, [3] = PQ_TT_LIST
	};
	static const char *const st = "SizeStatistics";
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
		{
			out->unencoded_byte_array_data_bytes =
				pq_md_rd_size64(r, st, "unencoded_byte_array_data_bytes");
			out->has_unencoded_byte_array_data_bytes = true;
		}
		else if (id == 2)
			out->repetition_level_histogram =
				pq_md_rd_i64_list(r, st, "repetition_level_histogram",
								  &out->n_repetition_level_histogram);
		else
			out->definition_level_histogram =
				pq_md_rd_i64_list(r, st, "definition_level_histogram",
								  &out->n_definition_level_histogram);
	}
	pq_thrift_read_struct_end(r);
}

static void
read_bounding_box(PqThriftReader *r, PqBoundingBox *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_DOUBLE, [2] = PQ_TT_DOUBLE, [3] = PQ_TT_DOUBLE,
		[4] = PQ_TT_DOUBLE, [5] = PQ_TT_DOUBLE, [6] = PQ_TT_DOUBLE,
		[7] = PQ_TT_DOUBLE, [8] = PQ_TT_DOUBLE
	};
	static const char *const names[] = {
		NULL, "xmin", "xmax", "ymin", "ymax"
	};
	double	   *slots[] = {
		NULL, &out->xmin, &out->xmax, &out->ymin, &out->ymax,
		&out->zmin, &out->zmax, &out->mmin, &out->mmax
	};
	int16		id;
	int			type;
	uint32		seen = 0;
	int			i;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		*slots[id] = pq_thrift_read_double(r);
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	for (i = 1; i <= 4; i++)
		if (!(seen & FIELD_BIT(i)))
			pq_md_missing_field("BoundingBox", names[i]);
	/* a Z or M range is only usable with both ends */
	out->has_z = (seen & FIELD_BIT(5)) && (seen & FIELD_BIT(6));
	out->has_m = (seen & FIELD_BIT(7)) && (seen & FIELD_BIT(8));
}

static void
read_geospatial_statistics(PqThriftReader *r, PqGeospatialStatistics *out)
{
	static const uint8 types[] = {[1] = PQ_TT_STRUCT, [2] = PQ_TT_LIST};
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
		{
			read_bounding_box(r, &out->bbox);
			out->has_bbox = true;
		}
		else
			out->geospatial_types =
				pq_md_rd_i32_list(r, "GeospatialStatistics",
								  "geospatial_types",
								  &out->n_geospatial_types);
	}
	pq_thrift_read_struct_end(r);
}

static void
read_column_metadata(PqThriftReader *r, PqColumnMetaData *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_LIST, [3] = PQ_TT_LIST, [4] = PQ_TT_I32,
		[5] = PQ_TT_I64, [6] = PQ_TT_I64, [7] = PQ_TT_I64, [8] = PQ_TT_LIST,
		[9] = PQ_TT_I64, [10] = PQ_TT_I64, [11] = PQ_TT_I64,
		[12] = PQ_TT_STRUCT, [13] = PQ_TT_LIST, [14] = PQ_TT_I64,
		[15] = PQ_TT_I32, [16] = PQ_TT_STRUCT, [17] = PQ_TT_STRUCT
	};
	static const char *const st = "ColumnMetaData";
	int16		id;
	int			type;
	uint32		seen = 0;
	int32		count;
	int			cap = 0;
	int32		i;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				out->type = pq_thrift_read_i32(r);
				break;
			case 2:
				out->encodings = pq_md_rd_i32_list(r, st, "encodings",
												   &out->n_encodings);
				break;
			case 3:
				out->path_in_schema =
					pq_md_rd_string_list(r, st, "path_in_schema",
										 &out->n_path_in_schema);
				break;
			case 4:
				out->codec = pq_thrift_read_i32(r);
				break;
			case 5:
				out->num_values = pq_md_rd_size64(r, st, "num_values");
				break;
			case 6:
				out->total_uncompressed_size =
					pq_md_rd_size64(r, st, "total_uncompressed_size");
				break;
			case 7:
				out->total_compressed_size =
					pq_md_rd_size64(r, st, "total_compressed_size");
				break;
			case 8:
				out->key_value_metadata =
					pq_md_rd_key_value_list(r, st, &out->n_key_value_metadata);
				break;
			case 9:
				out->data_page_offset =
					pq_md_rd_size64(r, st, "data_page_offset");
				break;
			case 10:
				/* not used by readers, so not checked */
				out->index_page_offset = pq_thrift_read_i64(r);
				out->has_index_page_offset = true;
				break;
			case 11:
				out->dictionary_page_offset =
					pq_md_rd_size64(r, st, "dictionary_page_offset");
				out->has_dictionary_page_offset = true;
				break;
			case 12:
				pq_md_read_statistics(r, &out->statistics);
				out->has_statistics = true;
				break;
			case 13:
				count = pq_md_rd_list(r, PQ_TT_STRUCT, st, "encoding_stats");
				for (i = 0; i < count; i++)
				{
					out->encoding_stats =
						pq_md_grow_list(out->encoding_stats, &cap, i, count,
										sizeof(PqPageEncodingStats));
					read_page_encoding_stats(r, &out->encoding_stats[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_encoding_stats = count;
				out->has_encoding_stats = true;
				break;
			case 14:
				out->bloom_filter_offset =
					pq_md_rd_size64(r, st, "bloom_filter_offset");
				out->has_bloom_filter_offset = true;
				break;
			case 15:
				out->bloom_filter_length =
					pq_md_rd_size32(r, st, "bloom_filter_length");
				out->has_bloom_filter_length = true;
				break;
			case 16:
				read_size_statistics(r, &out->size_statistics);
				out->has_size_statistics = true;
				break;
			case 17:
				read_geospatial_statistics(r, &out->geospatial_statistics);
				out->has_geospatial_statistics = true;
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "type");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "encodings");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "path_in_schema");
	if (!(seen & FIELD_BIT(4)))
		pq_md_missing_field(st, "codec");
	if (!(seen & FIELD_BIT(5)))
		pq_md_missing_field(st, "num_values");
	if (!(seen & FIELD_BIT(6)))
		pq_md_missing_field(st, "total_uncompressed_size");
	if (!(seen & FIELD_BIT(7)))
		pq_md_missing_field(st, "total_compressed_size");
	if (!(seen & FIELD_BIT(9)))
		pq_md_missing_field(st, "data_page_offset");
}

static void
read_encryption_with_column_key(PqThriftReader *r, PqColumnCryptoMetaData *out)
{
	static const uint8 types[] = {[1] = PQ_TT_LIST, [2] = PQ_TT_BINARY};
	static const char *const st = "EncryptionWithColumnKey";
	int16		id;
	int			type;
	bool		has_path = false;

	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
		{
			out->path_in_schema = pq_md_rd_string_list(r, st, "path_in_schema",
													   &out->n_path_in_schema);
			has_path = true;
		}
		else
			out->key_metadata = pq_thrift_read_binary(r);
	}
	pq_thrift_read_struct_end(r);
	if (!has_path)
		pq_md_missing_field(st, "path_in_schema");
}

static void
read_column_crypto_metadata(PqThriftReader *r, PqColumnCryptoMetaData *out)
{
	static const char *const st = "ColumnCryptoMetaData";
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (pq_thrift_read_field(r, &id, &type))
	{
		if (out->kind != PQ_CRYPTO_NONE)
			pq_corrupt("%s union has more than one member", st);
		if (type == PQ_TT_STRUCT && id == PQ_CRYPTO_FOOTER_KEY)
		{
			pq_thrift_skip(r, type);
			out->kind = PQ_CRYPTO_FOOTER_KEY;
		}
		else if (type == PQ_TT_STRUCT && id == PQ_CRYPTO_COLUMN_KEY)
		{
			read_encryption_with_column_key(r, out);
			out->kind = PQ_CRYPTO_COLUMN_KEY;
		}
		else
			pq_unsupported("column encryption method %d is not supported", id);
	}
	pq_thrift_read_struct_end(r);
	if (out->kind == PQ_CRYPTO_NONE)
		pq_corrupt("%s union has no member", st);
}

static void
read_column_chunk(PqThriftReader *r, PqColumnChunk *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_BINARY, [2] = PQ_TT_I64, [3] = PQ_TT_STRUCT,
		[4] = PQ_TT_I64, [5] = PQ_TT_I32, [6] = PQ_TT_I64, [7] = PQ_TT_I32,
		[8] = PQ_TT_STRUCT, [9] = PQ_TT_BINARY
	};
	static const char *const st = "ColumnChunk";
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				out->file_path = pq_thrift_read_string(r);
				break;
			case 2:
				/* required, but old writers omit it: default 0, unused */
				out->file_offset = pq_thrift_read_i64(r);
				break;
			case 3:
				read_column_metadata(r, &out->meta_data);
				out->has_meta_data = true;
				break;
			case 4:
				out->offset_index_offset =
					pq_md_rd_size64(r, st, "offset_index_offset");
				out->has_offset_index_offset = true;
				break;
			case 5:
				out->offset_index_length =
					pq_md_rd_size32(r, st, "offset_index_length");
				out->has_offset_index_length = true;
				break;
			case 6:
				out->column_index_offset =
					pq_md_rd_size64(r, st, "column_index_offset");
				out->has_column_index_offset = true;
				break;
			case 7:
				out->column_index_length =
					pq_md_rd_size32(r, st, "column_index_length");
				out->has_column_index_length = true;
				break;
			case 8:
				read_column_crypto_metadata(r, &out->crypto_metadata);
				break;
			case 9:
				out->encrypted_column_metadata = pq_thrift_read_binary(r);
				break;
		}
	}
	pq_thrift_read_struct_end(r);
}

static void
read_sorting_column(PqThriftReader *r, PqSortingColumn *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_TRUE, [3] = PQ_TT_TRUE
	};
	static const char *const st = "SortingColumn";
	int16		id;
	int			type;
	uint32		seen = 0;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->column_idx = pq_md_rd_size32(r, st, "column_idx");
		else if (id == 2)
			out->descending = (type == PQ_TT_TRUE);
		else
			out->nulls_first = (type == PQ_TT_TRUE);
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "column_idx");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "descending");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "nulls_first");
}

static void
read_row_group(PqThriftReader *r, PqRowGroup *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_LIST, [2] = PQ_TT_I64, [3] = PQ_TT_I64, [4] = PQ_TT_LIST,
		[5] = PQ_TT_I64, [6] = PQ_TT_I64, [7] = PQ_TT_I16
	};
	static const char *const st = "RowGroup";
	int16		id;
	int			type;
	uint32		seen = 0;
	int32		count;
	int			cap;
	int32		i;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				count = pq_md_rd_list(r, PQ_TT_STRUCT, st, "columns");
				cap = 0;
				for (i = 0; i < count; i++)
				{
					out->columns =
						pq_md_grow_list(out->columns, &cap, i, count,
										sizeof(PqColumnChunk));
					read_column_chunk(r, &out->columns[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_columns = count;
				break;
			case 2:
				out->total_byte_size =
					pq_md_rd_size64(r, st, "total_byte_size");
				break;
			case 3:
				out->num_rows = pq_md_rd_size64(r, st, "num_rows");
				break;
			case 4:
				count = pq_md_rd_list(r, PQ_TT_STRUCT, st, "sorting_columns");
				cap = 0;
				for (i = 0; i < count; i++)
				{
					out->sorting_columns =
						pq_md_grow_list(out->sorting_columns, &cap, i, count,
										sizeof(PqSortingColumn));
					read_sorting_column(r, &out->sorting_columns[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_sorting_columns = count;
				break;
			case 5:
				/* some writers got this wrong; informational only */
				out->file_offset = pq_thrift_read_i64(r);
				out->has_file_offset = true;
				break;
			case 6:
				out->total_compressed_size =
					pq_md_rd_size64(r, st, "total_compressed_size");
				out->has_total_compressed_size = true;
				break;
			case 7:
				out->ordinal = pq_thrift_read_i16(r);
				out->has_ordinal = true;
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "columns");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "total_byte_size");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "num_rows");
}

/* ColumnOrder union: unknown or missing members are PQ_ORDER_UNKNOWN */
static int
read_column_order(PqThriftReader *r)
{
	int			id;

	if (pq_md_rd_union_id(r, "ColumnOrder", &id) &&
		id >= PQ_ORDER_TYPE_DEFINED && id <= PQ_ORDER_INT96_TIMESTAMP)
		return id;
	return PQ_ORDER_UNKNOWN;
}

/* AesGcmV1 and AesGcmCtrV1 have the same fields */
static void
read_aes_gcm(PqThriftReader *r, PqEncryptionAlgorithm *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_BINARY, [2] = PQ_TT_BINARY, [3] = PQ_TT_TRUE
	};
	int16		id;
	int			type;

	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->aad_prefix = pq_thrift_read_binary(r);
		else if (id == 2)
			out->aad_file_unique = pq_thrift_read_binary(r);
		else
			out->supply_aad_prefix = (type == PQ_TT_TRUE);
	}
	pq_thrift_read_struct_end(r);
}

static void
read_encryption_algorithm(PqThriftReader *r, PqEncryptionAlgorithm *out)
{
	static const char *const st = "EncryptionAlgorithm";
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (pq_thrift_read_field(r, &id, &type))
	{
		if (out->kind != PQ_ENCRYPTION_NONE)
			pq_corrupt("%s union has more than one member", st);
		if (type != PQ_TT_STRUCT ||
			(id != PQ_AES_GCM_V1 && id != PQ_AES_GCM_CTR_V1))
			pq_unsupported("encryption algorithm %d is not supported", id);
		read_aes_gcm(r, out);
		out->kind = id;
	}
	pq_thrift_read_struct_end(r);
	if (out->kind == PQ_ENCRYPTION_NONE)
		pq_corrupt("%s union has no member", st);
}

static void
read_file_metadata(PqThriftReader *r, PqFileMetaData *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_LIST, [3] = PQ_TT_I64, [4] = PQ_TT_LIST,
		[5] = PQ_TT_LIST, [6] = PQ_TT_BINARY, [7] = PQ_TT_LIST,
		[8] = PQ_TT_STRUCT, [9] = PQ_TT_BINARY
	};
	static const char *const st = "FileMetaData";
	int16		id;
	int			type;
	uint32		seen = 0;
	int32		count;
	int			cap;
	int32		i;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				out->version = pq_thrift_read_i32(r);
				break;
			case 2:
				count = pq_md_rd_list(r, PQ_TT_STRUCT, st, "schema");
				cap = 0;
				for (i = 0; i < count; i++)
				{
					out->schema = pq_md_grow_list(out->schema, &cap, i, count,
												  sizeof(PqSchemaElement));
					read_schema_element(r, &out->schema[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_schema = count;
				break;
			case 3:
				out->num_rows = pq_md_rd_size64(r, st, "num_rows");
				break;
			case 4:
				count = pq_md_rd_list(r, PQ_TT_STRUCT, st, "row_groups");
				cap = 0;
				for (i = 0; i < count; i++)
				{
					out->row_groups =
						pq_md_grow_list(out->row_groups, &cap, i, count,
										sizeof(PqRowGroup));
					read_row_group(r, &out->row_groups[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_row_groups = count;
				break;
			case 5:
				out->key_value_metadata =
					pq_md_rd_key_value_list(r, st, &out->n_key_value_metadata);
				break;
			case 6:
				out->created_by = pq_thrift_read_string(r);
				break;
			case 7:
				count = pq_md_rd_list(r, PQ_TT_STRUCT, st, "column_orders");
				out->column_orders = palloc(sizeof(int) * count);
				for (i = 0; i < count; i++)
					out->column_orders[i] = read_column_order(r);
				pq_thrift_read_list_end(r);
				out->n_column_orders = count;
				break;
			case 8:
				read_encryption_algorithm(r, &out->encryption_algorithm);
				break;
			case 9:
				out->footer_signing_key_metadata = pq_thrift_read_binary(r);
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "version");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "schema");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "num_rows");
	if (!(seen & FIELD_BIT(4)))
		pq_md_missing_field(st, "row_groups");
}

static void
read_file_crypto_metadata(PqThriftReader *r, PqFileCryptoMetaData *out)
{
	static const uint8 types[] = {[1] = PQ_TT_STRUCT, [2] = PQ_TT_BINARY};
	int16		id;
	int			type;
	bool		has_algorithm = false;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
		{
			read_encryption_algorithm(r, &out->encryption_algorithm);
			has_algorithm = true;
		}
		else
			out->key_metadata = pq_thrift_read_binary(r);
	}
	pq_thrift_read_struct_end(r);
	if (!has_algorithm)
		pq_md_missing_field("FileCryptoMetaData", "encryption_algorithm");
}

/* ---- entry points ---- */

size_t
pq_read_file_metadata(const uint8 *buf, size_t len, PqFileMetaData *out)
{
	PqThriftReader r;

	pq_thrift_reader_init(&r, buf, len);
	read_file_metadata(&r, out);
	return pq_thrift_offset(&r);
}

size_t
pq_read_file_crypto_metadata(const uint8 *buf, size_t len,
							 PqFileCryptoMetaData *out)
{
	PqThriftReader r;

	pq_thrift_reader_init(&r, buf, len);
	read_file_crypto_metadata(&r, out);
	return pq_thrift_offset(&r);
}

size_t
pq_read_column_metadata(const uint8 *buf, size_t len, PqColumnMetaData *out)
{
	PqThriftReader r;

	pq_thrift_reader_init(&r, buf, len);
	read_column_metadata(&r, out);
	return pq_thrift_offset(&r);
}
