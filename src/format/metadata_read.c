/*-------------------------------------------------------------------------
 *
 * metadata_read.c
 *		Decoders for the Parquet Thrift structures (compact protocol).
 *
 * Unknown fields of any wire type are skipped, as Thrift requires for
 * forward compatibility.  So is a known field id with an unexpected wire
 * type, as Thrift's generated readers do: forks have used field ids for
 * their own extensions (Dremio's parquet-mr wrote a list as ColumnMetaData
 * field 15, see dict-page-offset-zero.parquet).  A missing required field,
 * or a negative count, size or offset, is a corrupt file.
 *
 * Enum values are passed through unchecked: the layers that act on them
 * know which values they support.  Statistics counts are not checked
 * either; pruning treats implausible statistics as absent rather than
 * failing the whole file.
 *
 *-------------------------------------------------------------------------
 */
#include "pq_common.h"

#include "metadata.h"
#include "thrift.h"

#define FIELD_BIT(id) ((uint32) 1 << (id))

static void missing_field(const char *st,
						  const char *field) pg_attribute_noreturn();
static void negative_value(const char *st, const char *field,
						   int64 v) pg_attribute_noreturn();

/* ---- field helpers ---- */

static void
missing_field(const char *st, const char *field)
{
	pq_corrupt("%s is missing required field %s", st, field);
}

static void
negative_value(const char *st, const char *field, int64 v)
{
	pq_corrupt("%s field %s is negative: " INT64_FORMAT, st, field, v);
}

/*
 * Next field of a struct whose known fields have the wire types in types[]
 * (indexed by field id, 0 for ids the struct does not have; PQ_TT_TRUE
 * stands for bool).  Other fields are skipped.  Returns false at the end.
 */
static bool
next_field(PqThriftReader *r, const uint8 *types, int ntypes, int16 *id,
		   int *type)
{
	while (pq_thrift_read_field(r, id, type))
	{
		int			want = (*id > 0 && *id < ntypes) ? types[*id] : 0;

		if (want != 0 &&
			(*type == want ||
			 (want == PQ_TT_TRUE && pq_thrift_is_bool(*type))))
			return true;
		pq_thrift_skip(r, *type);
	}
	return false;
}

#define NEXT_FIELD(r, types, id, type) \
	next_field(r, types, lengthof(types), id, type)

/* i32 that cannot be negative (counts, sizes, lengths) */
static int32
rd_size32(PqThriftReader *r, const char *st, const char *field)
{
	int32		v = pq_thrift_read_i32(r);

	if (v < 0)
		negative_value(st, field, v);
	return v;
}

/* i64 that cannot be negative (counts, sizes, offsets) */
static int64
rd_size64(PqThriftReader *r, const char *st, const char *field)
{
	int64		v = pq_thrift_read_i64(r);

	if (v < 0)
		negative_value(st, field, v);
	return v;
}

/* List header; the caller reads the elements and calls list_end. */
static int32
rd_list(PqThriftReader *r, int elem_type, const char *st, const char *field)
{
	int			et;
	int32		count = pq_thrift_read_list_begin(r, &et);

	if (count > 0 && et != elem_type &&
		!(pq_thrift_is_bool(et) && pq_thrift_is_bool(elem_type)))
		pq_corrupt("%s field %s is a list of %s, expected a list of %s",
				   st, field, pq_thrift_type_name(et),
				   pq_thrift_type_name(elem_type));
	return count;
}

static int32 *
rd_i32_list(PqThriftReader *r, const char *st, const char *field, int *n)
{
	int32		count = rd_list(r, PQ_TT_I32, st, field);
	int32	   *arr = palloc(sizeof(int32) * count);
	int32		i;

	for (i = 0; i < count; i++)
		arr[i] = pq_thrift_read_i32(r);
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}

static int64 *
rd_i64_list(PqThriftReader *r, const char *st, const char *field, int *n)
{
	int32		count = rd_list(r, PQ_TT_I64, st, field);
	int64	   *arr = palloc(sizeof(int64) * count);
	int32		i;

	for (i = 0; i < count; i++)
		arr[i] = pq_thrift_read_i64(r);
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}

static PqBytes *
rd_binary_list(PqThriftReader *r, const char *st, const char *field, int *n)
{
	int32		count = rd_list(r, PQ_TT_BINARY, st, field);
	PqBytes    *arr = palloc(sizeof(PqBytes) * count);
	int32		i;

	for (i = 0; i < count; i++)
		arr[i] = pq_thrift_read_binary(r);
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}

static char **
rd_string_list(PqThriftReader *r, const char *st, const char *field, int *n)
{
	int32		count = rd_list(r, PQ_TT_BINARY, st, field);
	char	  **arr = palloc(sizeof(char *) * count);
	int32		i;

	for (i = 0; i < count; i++)
		arr[i] = pq_thrift_read_string(r);
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}

/*
 * Make room for element i of a list of count structs.  An empty struct is a
 * single byte on the wire but a decoded struct can be hundreds of bytes, so
 * the array grows as elements are decoded rather than being sized by the
 * count up front: a count that the input cannot back fails on truncation
 * before much is allocated.
 */
static void *
grow_list(void *arr, int *cap, int i, int32 count, size_t elem_size)
{
	int			newcap;

	if (i < *cap)
		return arr;
	newcap = Min(Max(*cap * 2, 16), count);
	*cap = newcap;
	if (arr == NULL)
		return palloc(elem_size * newcap);
	return repalloc(arr, elem_size * newcap);
}

/*
 * Union members are structs.  Reads the union's single member, skipping its
 * contents, and returns its field id; a member of another wire type counts
 * as an unknown member and yields 0 (no union in parquet.thrift uses id 0).
 * Returns false for an empty union.
 */
static bool
rd_union_id(PqThriftReader *r, const char *st, int *id)
{
	int16		fid;
	int			type;
	bool		found = false;

	pq_thrift_read_struct_begin(r);
	while (pq_thrift_read_field(r, &fid, &type))
	{
		if (found)
			pq_corrupt("%s union has more than one member", st);
		found = true;
		*id = (type == PQ_TT_STRUCT) ? fid : 0;
		pq_thrift_skip(r, type);
	}
	pq_thrift_read_struct_end(r);
	return found;
}

/* ---- struct decoders ---- */

static void
read_statistics(PqThriftReader *r, PqStatistics *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_BINARY, [2] = PQ_TT_BINARY, [3] = PQ_TT_I64,
		[4] = PQ_TT_I64, [5] = PQ_TT_BINARY, [6] = PQ_TT_BINARY,
		[7] = PQ_TT_TRUE, [8] = PQ_TT_TRUE, [9] = PQ_TT_I64
	};
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				out->max = pq_thrift_read_binary(r);
				break;
			case 2:
				out->min = pq_thrift_read_binary(r);
				break;
			case 3:
				out->null_count = pq_thrift_read_i64(r);
				out->has_null_count = true;
				break;
			case 4:
				out->distinct_count = pq_thrift_read_i64(r);
				out->has_distinct_count = true;
				break;
			case 5:
				out->max_value = pq_thrift_read_binary(r);
				break;
			case 6:
				out->min_value = pq_thrift_read_binary(r);
				break;
			case 7:
				out->is_max_value_exact = (type == PQ_TT_TRUE);
				out->has_is_max_value_exact = true;
				break;
			case 8:
				out->is_min_value_exact = (type == PQ_TT_TRUE);
				out->has_is_min_value_exact = true;
				break;
			case 9:
				out->nan_count = pq_thrift_read_i64(r);
				out->has_nan_count = true;
				break;
		}
	}
	pq_thrift_read_struct_end(r);
}

/* TimeUnit union: an unknown or missing unit is PQ_UNIT_NONE */
static int
read_time_unit(PqThriftReader *r)
{
	int			id;

	if (rd_union_id(r, "TimeUnit", &id) &&
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
		missing_field(st, "scale");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "precision");
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
		missing_field(st, "isAdjustedToUTC");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "unit");
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
		missing_field(st, "bitWidth");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "isSigned");
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
				out->type_length = rd_size32(r, st, "type_length");
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
				out->num_children = rd_size32(r, st, "num_children");
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
		missing_field(st, "name");
}

static void
read_key_value(PqThriftReader *r, PqKeyValue *out)
{
	static const uint8 types[] = {[1] = PQ_TT_BINARY, [2] = PQ_TT_BINARY};
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->key = pq_thrift_read_string(r);
		else
			out->value = pq_thrift_read_string(r);
	}
	pq_thrift_read_struct_end(r);
	if (out->key == NULL)
		missing_field("KeyValue", "key");
}

static PqKeyValue *
rd_key_value_list(PqThriftReader *r, const char *st, int *n)
{
	int32		count = rd_list(r, PQ_TT_STRUCT, st, "key_value_metadata");
	PqKeyValue *arr = NULL;
	int			cap = 0;
	int32		i;

	for (i = 0; i < count; i++)
	{
		arr = grow_list(arr, &cap, i, count, sizeof(PqKeyValue));
		read_key_value(r, &arr[i]);
	}
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
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
			out->count = rd_size32(r, st, "count");
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		missing_field(st, "page_type");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "encoding");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "count");
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
				rd_size64(r, st, "unencoded_byte_array_data_bytes");
			out->has_unencoded_byte_array_data_bytes = true;
		}
		else if (id == 2)
			out->repetition_level_histogram =
				rd_i64_list(r, st, "repetition_level_histogram",
							&out->n_repetition_level_histogram);
		else
			out->definition_level_histogram =
				rd_i64_list(r, st, "definition_level_histogram",
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
			missing_field("BoundingBox", names[i]);
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
				rd_i32_list(r, "GeospatialStatistics", "geospatial_types",
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
				out->encodings = rd_i32_list(r, st, "encodings",
											 &out->n_encodings);
				break;
			case 3:
				out->path_in_schema = rd_string_list(r, st, "path_in_schema",
													 &out->n_path_in_schema);
				break;
			case 4:
				out->codec = pq_thrift_read_i32(r);
				break;
			case 5:
				out->num_values = rd_size64(r, st, "num_values");
				break;
			case 6:
				out->total_uncompressed_size =
					rd_size64(r, st, "total_uncompressed_size");
				break;
			case 7:
				out->total_compressed_size =
					rd_size64(r, st, "total_compressed_size");
				break;
			case 8:
				out->key_value_metadata =
					rd_key_value_list(r, st, &out->n_key_value_metadata);
				break;
			case 9:
				out->data_page_offset = rd_size64(r, st, "data_page_offset");
				break;
			case 10:
				/* not used by readers, so not checked */
				out->index_page_offset = pq_thrift_read_i64(r);
				out->has_index_page_offset = true;
				break;
			case 11:
				out->dictionary_page_offset =
					rd_size64(r, st, "dictionary_page_offset");
				out->has_dictionary_page_offset = true;
				break;
			case 12:
				read_statistics(r, &out->statistics);
				out->has_statistics = true;
				break;
			case 13:
				count = rd_list(r, PQ_TT_STRUCT, st, "encoding_stats");
				for (i = 0; i < count; i++)
				{
					out->encoding_stats =
						grow_list(out->encoding_stats, &cap, i, count,
								  sizeof(PqPageEncodingStats));
					read_page_encoding_stats(r, &out->encoding_stats[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_encoding_stats = count;
				out->has_encoding_stats = true;
				break;
			case 14:
				out->bloom_filter_offset =
					rd_size64(r, st, "bloom_filter_offset");
				out->has_bloom_filter_offset = true;
				break;
			case 15:
				out->bloom_filter_length =
					rd_size32(r, st, "bloom_filter_length");
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
		missing_field(st, "type");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "encodings");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "path_in_schema");
	if (!(seen & FIELD_BIT(4)))
		missing_field(st, "codec");
	if (!(seen & FIELD_BIT(5)))
		missing_field(st, "num_values");
	if (!(seen & FIELD_BIT(6)))
		missing_field(st, "total_uncompressed_size");
	if (!(seen & FIELD_BIT(7)))
		missing_field(st, "total_compressed_size");
	if (!(seen & FIELD_BIT(9)))
		missing_field(st, "data_page_offset");
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
			out->path_in_schema = rd_string_list(r, st, "path_in_schema",
												 &out->n_path_in_schema);
			has_path = true;
		}
		else
			out->key_metadata = pq_thrift_read_binary(r);
	}
	pq_thrift_read_struct_end(r);
	if (!has_path)
		missing_field(st, "path_in_schema");
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
					rd_size64(r, st, "offset_index_offset");
				out->has_offset_index_offset = true;
				break;
			case 5:
				out->offset_index_length =
					rd_size32(r, st, "offset_index_length");
				out->has_offset_index_length = true;
				break;
			case 6:
				out->column_index_offset =
					rd_size64(r, st, "column_index_offset");
				out->has_column_index_offset = true;
				break;
			case 7:
				out->column_index_length =
					rd_size32(r, st, "column_index_length");
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
			out->column_idx = rd_size32(r, st, "column_idx");
		else if (id == 2)
			out->descending = (type == PQ_TT_TRUE);
		else
			out->nulls_first = (type == PQ_TT_TRUE);
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		missing_field(st, "column_idx");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "descending");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "nulls_first");
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
				count = rd_list(r, PQ_TT_STRUCT, st, "columns");
				cap = 0;
				for (i = 0; i < count; i++)
				{
					out->columns = grow_list(out->columns, &cap, i, count,
											 sizeof(PqColumnChunk));
					read_column_chunk(r, &out->columns[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_columns = count;
				break;
			case 2:
				out->total_byte_size = rd_size64(r, st, "total_byte_size");
				break;
			case 3:
				out->num_rows = rd_size64(r, st, "num_rows");
				break;
			case 4:
				count = rd_list(r, PQ_TT_STRUCT, st, "sorting_columns");
				cap = 0;
				for (i = 0; i < count; i++)
				{
					out->sorting_columns =
						grow_list(out->sorting_columns, &cap, i, count,
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
					rd_size64(r, st, "total_compressed_size");
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
		missing_field(st, "columns");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "total_byte_size");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "num_rows");
}

/* ColumnOrder union: unknown or missing members are PQ_ORDER_UNKNOWN */
static int
read_column_order(PqThriftReader *r)
{
	int			id;

	if (rd_union_id(r, "ColumnOrder", &id) &&
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
				count = rd_list(r, PQ_TT_STRUCT, st, "schema");
				cap = 0;
				for (i = 0; i < count; i++)
				{
					out->schema = grow_list(out->schema, &cap, i, count,
											sizeof(PqSchemaElement));
					read_schema_element(r, &out->schema[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_schema = count;
				break;
			case 3:
				out->num_rows = rd_size64(r, st, "num_rows");
				break;
			case 4:
				count = rd_list(r, PQ_TT_STRUCT, st, "row_groups");
				cap = 0;
				for (i = 0; i < count; i++)
				{
					out->row_groups = grow_list(out->row_groups, &cap, i, count,
												sizeof(PqRowGroup));
					read_row_group(r, &out->row_groups[i]);
				}
				pq_thrift_read_list_end(r);
				out->n_row_groups = count;
				break;
			case 5:
				out->key_value_metadata =
					rd_key_value_list(r, st, &out->n_key_value_metadata);
				break;
			case 6:
				out->created_by = pq_thrift_read_string(r);
				break;
			case 7:
				count = rd_list(r, PQ_TT_STRUCT, st, "column_orders");
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
		missing_field(st, "version");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "schema");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "num_rows");
	if (!(seen & FIELD_BIT(4)))
		missing_field(st, "row_groups");
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
		missing_field("FileCryptoMetaData", "encryption_algorithm");
}

static void
read_data_page_header(PqThriftReader *r, PqDataPageHeader *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_I32, [3] = PQ_TT_I32, [4] = PQ_TT_I32,
		[5] = PQ_TT_STRUCT
	};
	static const char *const st = "DataPageHeader";
	int16		id;
	int			type;
	uint32		seen = 0;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				out->num_values = rd_size32(r, st, "num_values");
				break;
			case 2:
				out->encoding = pq_thrift_read_i32(r);
				break;
			case 3:
				out->definition_level_encoding = pq_thrift_read_i32(r);
				break;
			case 4:
				out->repetition_level_encoding = pq_thrift_read_i32(r);
				break;
			case 5:
				read_statistics(r, &out->statistics);
				out->has_statistics = true;
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		missing_field(st, "num_values");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "encoding");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "definition_level_encoding");
	if (!(seen & FIELD_BIT(4)))
		missing_field(st, "repetition_level_encoding");
}

static void
read_dictionary_page_header(PqThriftReader *r, PqDictionaryPageHeader *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_I32, [3] = PQ_TT_TRUE
	};
	static const char *const st = "DictionaryPageHeader";
	int16		id;
	int			type;
	uint32		seen = 0;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->num_values = rd_size32(r, st, "num_values");
		else if (id == 2)
			out->encoding = pq_thrift_read_i32(r);
		else
		{
			out->is_sorted = (type == PQ_TT_TRUE);
			out->has_is_sorted = true;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		missing_field(st, "num_values");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "encoding");
}

static void
read_data_page_header_v2(PqThriftReader *r, PqDataPageHeaderV2 *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_I32, [3] = PQ_TT_I32, [4] = PQ_TT_I32,
		[5] = PQ_TT_I32, [6] = PQ_TT_I32, [7] = PQ_TT_TRUE,
		[8] = PQ_TT_STRUCT
	};
	static const char *const names[] = {
		NULL, "num_values", "num_nulls", "num_rows", "encoding",
		"definition_levels_byte_length", "repetition_levels_byte_length"
	};
	static const char *const st = "DataPageHeaderV2";
	int16		id;
	int			type;
	uint32		seen = 0;
	int			i;

	memset(out, 0, sizeof(*out));
	out->is_compressed = true;
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				out->num_values = rd_size32(r, st, names[1]);
				break;
			case 2:
				out->num_nulls = rd_size32(r, st, names[2]);
				break;
			case 3:
				out->num_rows = rd_size32(r, st, names[3]);
				break;
			case 4:
				out->encoding = pq_thrift_read_i32(r);
				break;
			case 5:
				out->definition_levels_byte_length =
					rd_size32(r, st, names[5]);
				break;
			case 6:
				out->repetition_levels_byte_length =
					rd_size32(r, st, names[6]);
				break;
			case 7:
				out->is_compressed = (type == PQ_TT_TRUE);
				break;
			case 8:
				read_statistics(r, &out->statistics);
				out->has_statistics = true;
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	for (i = 1; i <= 6; i++)
		if (!(seen & FIELD_BIT(i)))
			missing_field(st, names[i]);
}

static void
read_page_header(PqThriftReader *r, PqPageHeader *out)
{
	/* field 6, the empty IndexPageHeader, is skipped as unknown */
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_I32, [3] = PQ_TT_I32, [4] = PQ_TT_I32,
		[5] = PQ_TT_STRUCT, [7] = PQ_TT_STRUCT, [8] = PQ_TT_STRUCT
	};
	static const char *const st = "PageHeader";
	int16		id;
	int			type;
	uint32		seen = 0;

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
				out->uncompressed_page_size =
					rd_size32(r, st, "uncompressed_page_size");
				break;
			case 3:
				out->compressed_page_size =
					rd_size32(r, st, "compressed_page_size");
				break;
			case 4:
				out->crc = pq_thrift_read_i32(r);
				out->has_crc = true;
				break;
			case 5:
				read_data_page_header(r, &out->data_page_header);
				out->has_data_page_header = true;
				break;
			case 7:
				read_dictionary_page_header(r, &out->dictionary_page_header);
				out->has_dictionary_page_header = true;
				break;
			case 8:
				read_data_page_header_v2(r, &out->data_page_header_v2);
				out->has_data_page_header_v2 = true;
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		missing_field(st, "type");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "uncompressed_page_size");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "compressed_page_size");
}

static void
read_page_location(PqThriftReader *r, PqPageLocation *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I64, [2] = PQ_TT_I32, [3] = PQ_TT_I64
	};
	static const char *const st = "PageLocation";
	int16		id;
	int			type;
	uint32		seen = 0;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->offset = rd_size64(r, st, "offset");
		else if (id == 2)
			out->compressed_page_size =
				rd_size32(r, st, "compressed_page_size");
		else
			out->first_row_index = rd_size64(r, st, "first_row_index");
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		missing_field(st, "offset");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "compressed_page_size");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "first_row_index");
}

static void
read_offset_index(PqThriftReader *r, PqOffsetIndex *out)
{
	static const uint8 types[] = {[1] = PQ_TT_LIST, [2] = PQ_TT_LIST};
	static const char *const st = "OffsetIndex";
	int16		id;
	int			type;
	bool		has_locations = false;
	int32		count;
	int			cap = 0;
	int32		i;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
		{
			count = rd_list(r, PQ_TT_STRUCT, st, "page_locations");
			for (i = 0; i < count; i++)
			{
				out->page_locations =
					grow_list(out->page_locations, &cap, i, count,
							  sizeof(PqPageLocation));
				read_page_location(r, &out->page_locations[i]);
			}
			pq_thrift_read_list_end(r);
			out->n_page_locations = count;
			has_locations = true;
		}
		else
			out->unencoded_byte_array_data_bytes =
				rd_i64_list(r, st, "unencoded_byte_array_data_bytes",
							&out->n_unencoded_byte_array_data_bytes);
	}
	pq_thrift_read_struct_end(r);
	if (!has_locations)
		missing_field(st, "page_locations");
}

static void
read_column_index(PqThriftReader *r, PqColumnIndex *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_LIST, [2] = PQ_TT_LIST, [3] = PQ_TT_LIST, [4] = PQ_TT_I32,
		[5] = PQ_TT_LIST, [6] = PQ_TT_LIST, [7] = PQ_TT_LIST, [8] = PQ_TT_LIST
	};
	static const char *const st = "ColumnIndex";
	int16		id;
	int			type;
	uint32		seen = 0;
	int32		count;
	int32		i;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				count = rd_list(r, PQ_TT_TRUE, st, "null_pages");
				out->null_pages = palloc(sizeof(bool) * count);
				for (i = 0; i < count; i++)
					out->null_pages[i] = pq_thrift_read_bool(r);
				pq_thrift_read_list_end(r);
				out->n_null_pages = count;
				break;
			case 2:
				out->min_values = rd_binary_list(r, st, "min_values",
												 &out->n_min_values);
				break;
			case 3:
				out->max_values = rd_binary_list(r, st, "max_values",
												 &out->n_max_values);
				break;
			case 4:
				out->boundary_order = pq_thrift_read_i32(r);
				break;
			case 5:
				out->null_counts = rd_i64_list(r, st, "null_counts",
											   &out->n_null_counts);
				break;
			case 6:
				out->repetition_level_histograms =
					rd_i64_list(r, st, "repetition_level_histograms",
								&out->n_repetition_level_histograms);
				break;
			case 7:
				out->definition_level_histograms =
					rd_i64_list(r, st, "definition_level_histograms",
								&out->n_definition_level_histograms);
				break;
			case 8:
				out->nan_counts = rd_i64_list(r, st, "nan_counts",
											  &out->n_nan_counts);
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		missing_field(st, "null_pages");
	if (!(seen & FIELD_BIT(2)))
		missing_field(st, "min_values");
	if (!(seen & FIELD_BIT(3)))
		missing_field(st, "max_values");
	if (!(seen & FIELD_BIT(4)))
		missing_field(st, "boundary_order");
}

static void
read_bloom_filter_header(PqThriftReader *r, PqBloomFilterHeader *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_I32, [2] = PQ_TT_STRUCT, [3] = PQ_TT_STRUCT,
		[4] = PQ_TT_STRUCT
	};
	static const char *const names[] = {
		NULL, "numBytes", "algorithm", "hash", "compression"
	};
	static const char *const unions[] = {
		NULL, NULL, "BloomFilterAlgorithm", "BloomFilterHash",
		"BloomFilterCompression"
	};
	int		   *slots[] = {
		NULL, NULL, &out->algorithm, &out->hash, &out->compression
	};
	int16		id;
	int			type;
	uint32		seen = 0;
	int			i;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->num_bytes = rd_size32(r, "BloomFilterHeader", names[1]);
		else if (!rd_union_id(r, unions[id], slots[id]))
			pq_corrupt("%s union has no member", unions[id]);
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	for (i = 1; i <= 4; i++)
		if (!(seen & FIELD_BIT(i)))
			missing_field("BloomFilterHeader", names[i]);
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

size_t
pq_read_page_header(const uint8 *buf, size_t len, PqPageHeader *out)
{
	PqThriftReader r;

	pq_thrift_reader_init(&r, buf, len);
	read_page_header(&r, out);
	return pq_thrift_offset(&r);
}

size_t
pq_read_offset_index(const uint8 *buf, size_t len, PqOffsetIndex *out)
{
	PqThriftReader r;

	pq_thrift_reader_init(&r, buf, len);
	read_offset_index(&r, out);
	return pq_thrift_offset(&r);
}

size_t
pq_read_column_index(const uint8 *buf, size_t len, PqColumnIndex *out)
{
	PqThriftReader r;

	pq_thrift_reader_init(&r, buf, len);
	read_column_index(&r, out);
	return pq_thrift_offset(&r);
}

size_t
pq_read_bloom_filter_header(const uint8 *buf, size_t len,
							PqBloomFilterHeader *out)
{
	PqThriftReader r;

	pq_thrift_reader_init(&r, buf, len);
	read_bloom_filter_header(&r, out);
	return pq_thrift_offset(&r);
}
