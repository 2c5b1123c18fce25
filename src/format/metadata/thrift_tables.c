/*-------------------------------------------------------------------------
 *
 * thrift_tables.c
 *		The structs and unions of parquet.thrift as descriptor tables
 *		(format/thrift/struct.h), and the entry points that decode and encode them
 *		(metadata.h).
 *
 * Rules beyond the generic ones: enum values pass through unchecked (the
 * layers that act on them know which they support); statistics counts are
 * not checked either, since pruning treats implausible statistics as
 * absent rather than failing the whole file; ColumnChunk.file_offset is
 * required by the spec but old writers leave it out, so it is read as
 * optional; fields that are only informational (index_page_offset,
 * RowGroup.file_offset, which some writers got wrong) are not checked.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/metadata/metadata.h"
#include "format/thrift/struct.h"

#define REQ PQ_TF_REQUIRED
#define NONE PQ_TF_NONE

/* a field; has and count are offsetof() expressions or NONE */
#define TF(i, k, fl, nm, T, m, has, count) \
	{ .id = (i), .kind = (k), .flags = (fl), .name = (nm), \
	  .offset = offsetof(T, m), .has_offset = (has), .count_offset = (count) }
#define TF_SUB(i, k, fl, nm, T, m, has, count, sb) \
	{ .id = (i), .kind = (k), .flags = (fl), .name = (nm), \
	  .offset = offsetof(T, m), .has_offset = (has), .count_offset = (count), \
	  .sub = &(sb) }
#define TF_UNION(i, k, fl, nm, T, m, count, un, l, h) \
	{ .id = (i), .kind = (k), .flags = (fl), .name = (nm), \
	  .offset = offsetof(T, m), .has_offset = NONE, .count_offset = (count), \
	  .union_name = (un), .lo = (l), .hi = (h) }
#define TF_UNION_OF(i, fl, nm, T, m, ud) \
	{ .id = (i), .kind = PQ_FK_UNION, .flags = (fl), .name = (nm), \
	  .offset = offsetof(T, m), .has_offset = NONE, .count_offset = NONE, \
	  .udesc = &(ud) }
#define HAS(T, m) offsetof(T, m)

/* ---------------------------------------------------------- statistics */

static const PqThriftField statistics_fields[] = {
	TF(1, PQ_FK_BINARY, 0, "max", PqStatistics, max, NONE, NONE),
	TF(2, PQ_FK_BINARY, 0, "min", PqStatistics, min, NONE, NONE),
	TF(3, PQ_FK_I64, 0, "null_count", PqStatistics, null_count,
	   HAS(PqStatistics, has_null_count), NONE),
	TF(4, PQ_FK_I64, 0, "distinct_count", PqStatistics, distinct_count,
	   HAS(PqStatistics, has_distinct_count), NONE),
	TF(5, PQ_FK_BINARY, 0, "max_value", PqStatistics, max_value, NONE, NONE),
	TF(6, PQ_FK_BINARY, 0, "min_value", PqStatistics, min_value, NONE, NONE),
	TF(7, PQ_FK_BOOL, 0, "is_max_value_exact", PqStatistics,
	   is_max_value_exact, HAS(PqStatistics, has_is_max_value_exact), NONE),
	TF(8, PQ_FK_BOOL, 0, "is_min_value_exact", PqStatistics,
	   is_min_value_exact, HAS(PqStatistics, has_is_min_value_exact), NONE),
	TF(9, PQ_FK_I64, 0, "nan_count", PqStatistics, nan_count,
	   HAS(PqStatistics, has_nan_count), NONE),
};
static const PqThriftStructDesc statistics_desc =
PQ_THRIFT_STRUCT("Statistics", PqStatistics, statistics_fields);

static const PqThriftField key_value_fields[] = {
	TF(1, PQ_FK_STRING, REQ, "key", PqKeyValue, key, NONE, NONE),
	TF(2, PQ_FK_STRING, 0, "value", PqKeyValue, value, NONE, NONE),
};
static const PqThriftStructDesc key_value_desc =
PQ_THRIFT_STRUCT("KeyValue", PqKeyValue, key_value_fields);

static const PqThriftField size_statistics_fields[] = {
	TF(1, PQ_FK_SIZE64, 0, "unencoded_byte_array_data_bytes",
	   PqSizeStatistics, unencoded_byte_array_data_bytes,
	   HAS(PqSizeStatistics, has_unencoded_byte_array_data_bytes), NONE),
	TF(2, PQ_FK_LIST_I64, 0, "repetition_level_histogram", PqSizeStatistics,
	   repetition_level_histogram, NONE,
	   offsetof(PqSizeStatistics, n_repetition_level_histogram)),
	TF(3, PQ_FK_LIST_I64, 0, "definition_level_histogram", PqSizeStatistics,
	   definition_level_histogram, NONE,
	   offsetof(PqSizeStatistics, n_definition_level_histogram)),
};
static const PqThriftStructDesc size_statistics_desc =
PQ_THRIFT_STRUCT("SizeStatistics", PqSizeStatistics, size_statistics_fields);

static const PqThriftField bounding_box_fields[] = {
	TF(1, PQ_FK_DOUBLE, REQ, "xmin", PqBoundingBox, xmin, NONE, NONE),
	TF(2, PQ_FK_DOUBLE, REQ, "xmax", PqBoundingBox, xmax, NONE, NONE),
	TF(3, PQ_FK_DOUBLE, REQ, "ymin", PqBoundingBox, ymin, NONE, NONE),
	TF(4, PQ_FK_DOUBLE, REQ, "ymax", PqBoundingBox, ymax, NONE, NONE),
	TF(5, PQ_FK_DOUBLE, 0, "zmin", PqBoundingBox, zmin, HAS(PqBoundingBox, has_z), NONE),
	TF(6, PQ_FK_DOUBLE, 0, "zmax", PqBoundingBox, zmax, HAS(PqBoundingBox, has_z), NONE),
	TF(7, PQ_FK_DOUBLE, 0, "mmin", PqBoundingBox, mmin, HAS(PqBoundingBox, has_m), NONE),
	TF(8, PQ_FK_DOUBLE, 0, "mmax", PqBoundingBox, mmax, HAS(PqBoundingBox, has_m), NONE),
};

/* a Z or M range is only usable with both ends */
static void
bounding_box_finish(void *out, uint64 seen)
{
	PqBoundingBox *b = out;

	b->has_z = PQ_TF_SEEN(seen, 4) && PQ_TF_SEEN(seen, 5);
	b->has_m = PQ_TF_SEEN(seen, 6) && PQ_TF_SEEN(seen, 7);
}

static const PqThriftStructDesc bounding_box_desc =
PQ_THRIFT_STRUCT("BoundingBox", PqBoundingBox, bounding_box_fields,
				 .finish = bounding_box_finish);

static const PqThriftField geospatial_statistics_fields[] = {
	TF_SUB(1, PQ_FK_STRUCT, 0, "bbox", PqGeospatialStatistics, bbox,
		   HAS(PqGeospatialStatistics, has_bbox), NONE, bounding_box_desc),
	TF(2, PQ_FK_LIST_I32, 0, "geospatial_types", PqGeospatialStatistics,
	   geospatial_types, NONE,
	   offsetof(PqGeospatialStatistics, n_geospatial_types)),
};
static const PqThriftStructDesc geospatial_statistics_desc =
PQ_THRIFT_STRUCT("GeospatialStatistics", PqGeospatialStatistics,
				 geospatial_statistics_fields);

/* -------------------------------------------------------- logical types */

/* The members of LogicalType fill one PqLogicalType: never cleared. */
static const PqThriftField decimal_type_fields[] = {
	TF(1, PQ_FK_I32, REQ, "scale", PqLogicalType, decimal_scale, NONE, NONE),
	TF(2, PQ_FK_I32, REQ, "precision", PqLogicalType, decimal_precision, NONE, NONE),
};
static const PqThriftStructDesc decimal_type_desc =
PQ_THRIFT_STRUCT("DecimalType", PqLogicalType, decimal_type_fields,
				 .no_clear = true);

static const PqThriftField time_type_fields[] = {
	TF(1, PQ_FK_BOOL, REQ, "isAdjustedToUTC", PqLogicalType,
	   is_adjusted_to_utc, NONE, NONE),
	TF_UNION(2, PQ_FK_UNION_ID, REQ, "unit", PqLogicalType, time_unit, NONE,
			 "TimeUnit", PQ_UNIT_MILLIS, PQ_UNIT_NANOS),
};
static const PqThriftStructDesc time_type_desc =
PQ_THRIFT_STRUCT("TimeType", PqLogicalType, time_type_fields,
				 .no_clear = true);
static const PqThriftStructDesc timestamp_type_desc =
PQ_THRIFT_STRUCT("TimestampType", PqLogicalType, time_type_fields,
				 .no_clear = true);

static const PqThriftField int_type_fields[] = {
	TF(1, PQ_FK_I8, REQ, "bitWidth", PqLogicalType, int_bit_width, NONE, NONE),
	TF(2, PQ_FK_BOOL, REQ, "isSigned", PqLogicalType, int_is_signed, NONE, NONE),
};
static const PqThriftStructDesc int_type_desc =
PQ_THRIFT_STRUCT("IntType", PqLogicalType, int_type_fields,.no_clear = true);

static const PqThriftField variant_type_fields[] = {
	TF(1, PQ_FK_I8, 0, "specification_version", PqLogicalType,
	   variant_spec_version, HAS(PqLogicalType, has_variant_spec_version), NONE),
};
static const PqThriftStructDesc variant_type_desc =
PQ_THRIFT_STRUCT("VariantType", PqLogicalType, variant_type_fields,
				 .no_clear = true);

static const PqThriftField geometry_type_fields[] = {
	TF(1, PQ_FK_STRING, 0, "crs", PqLogicalType, geo_crs, NONE, NONE),
};
static const PqThriftStructDesc geometry_type_desc =
PQ_THRIFT_STRUCT("GeometryType", PqLogicalType, geometry_type_fields,
				 .no_clear = true);

static const PqThriftField geography_type_fields[] = {
	TF(1, PQ_FK_STRING, 0, "crs", PqLogicalType, geo_crs, NONE, NONE),
	TF(2, PQ_FK_I32, 0, "algorithm", PqLogicalType, geo_algorithm,
	   HAS(PqLogicalType, has_geo_algorithm), NONE),
};
static const PqThriftStructDesc geography_type_desc =
PQ_THRIFT_STRUCT("GeographyType", PqLogicalType, geography_type_fields,
				 .no_clear = true);

/* StringType, DateType, ...: no fields, but skip what a newer writer adds */
static const PqThriftStructDesc empty_type_desc = {
	.name = "LogicalType member",.size = sizeof(PqLogicalType),
	.no_clear = true
};

/* The member struct of a LogicalType id; NULL for members we do not know. */
static const PqThriftStructDesc *
logical_member_desc(int id)
{
	switch (id)
	{
		case PQ_LT_DECIMAL:
			return &decimal_type_desc;
		case PQ_LT_TIME:
			return &time_type_desc;
		case PQ_LT_TIMESTAMP:
			return &timestamp_type_desc;
		case PQ_LT_INTEGER:
			return &int_type_desc;
		case PQ_LT_VARIANT:
			return &variant_type_desc;
		case PQ_LT_GEOMETRY:
			return &geometry_type_desc;
		case PQ_LT_GEOGRAPHY:
			return &geography_type_desc;
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
			return &empty_type_desc;
		default:
			return NULL;
	}
}

/*
 * LogicalType union.  A member this reader does not know, or an empty
 * union (what older Thrift readers see for a newer member), yields
 * PQ_LT_UNRECOGNIZED: readers fall back to the ConvertedType.
 */
static const PqThriftUnionDesc logical_type_desc = {
	.name = "LogicalType",.size = sizeof(PqLogicalType),
	.id_offset = offsetof(PqLogicalType, id),
	.member = logical_member_desc,.unknown_id = PQ_LT_UNRECOGNIZED
};

static const PqThriftField schema_element_fields[] = {
	TF(1, PQ_FK_I32, 0, "type", PqSchemaElement, type,
	   HAS(PqSchemaElement, has_type), NONE),
	TF(2, PQ_FK_SIZE32, 0, "type_length", PqSchemaElement, type_length,
	   HAS(PqSchemaElement, has_type_length), NONE),
	TF(3, PQ_FK_I32, 0, "repetition_type", PqSchemaElement, repetition_type,
	   HAS(PqSchemaElement, has_repetition_type), NONE),
	TF(4, PQ_FK_STRING, REQ, "name", PqSchemaElement, name, NONE, NONE),
	TF(5, PQ_FK_SIZE32, 0, "num_children", PqSchemaElement, num_children,
	   HAS(PqSchemaElement, has_num_children), NONE),
	TF(6, PQ_FK_I32, 0, "converted_type", PqSchemaElement, converted_type,
	   HAS(PqSchemaElement, has_converted_type), NONE),
	TF(7, PQ_FK_I32, 0, "scale", PqSchemaElement, scale,
	   HAS(PqSchemaElement, has_scale), NONE),
	TF(8, PQ_FK_I32, 0, "precision", PqSchemaElement, precision,
	   HAS(PqSchemaElement, has_precision), NONE),
	TF(9, PQ_FK_I32, 0, "field_id", PqSchemaElement, field_id,
	   HAS(PqSchemaElement, has_field_id), NONE),
	TF_UNION_OF(10, 0, "logicalType", PqSchemaElement, logical_type,
				logical_type_desc),
};
static const PqThriftStructDesc schema_element_desc =
PQ_THRIFT_STRUCT("SchemaElement", PqSchemaElement, schema_element_fields);

/* ------------------------------------------------------- column chunks */

static const PqThriftField page_encoding_stats_fields[] = {
	TF(1, PQ_FK_I32, REQ, "page_type", PqPageEncodingStats, page_type, NONE, NONE),
	TF(2, PQ_FK_I32, REQ, "encoding", PqPageEncodingStats, encoding, NONE, NONE),
	TF(3, PQ_FK_SIZE32, REQ, "count", PqPageEncodingStats, count, NONE, NONE),
};
static const PqThriftStructDesc page_encoding_stats_desc =
PQ_THRIFT_STRUCT("PageEncodingStats", PqPageEncodingStats,
				 page_encoding_stats_fields);

static const PqThriftField column_metadata_fields[] = {
	TF(1, PQ_FK_I32, REQ, "type", PqColumnMetaData, type, NONE, NONE),
	TF(2, PQ_FK_LIST_I32, REQ, "encodings", PqColumnMetaData, encodings, NONE,
	   offsetof(PqColumnMetaData, n_encodings)),
	TF(3, PQ_FK_LIST_STRING, REQ, "path_in_schema", PqColumnMetaData,
	   path_in_schema, NONE, offsetof(PqColumnMetaData, n_path_in_schema)),
	TF(4, PQ_FK_I32, REQ, "codec", PqColumnMetaData, codec, NONE, NONE),
	TF(5, PQ_FK_SIZE64, REQ, "num_values", PqColumnMetaData, num_values, NONE, NONE),
	TF(6, PQ_FK_SIZE64, REQ, "total_uncompressed_size", PqColumnMetaData,
	   total_uncompressed_size, NONE, NONE),
	TF(7, PQ_FK_SIZE64, REQ, "total_compressed_size", PqColumnMetaData,
	   total_compressed_size, NONE, NONE),
	TF_SUB(8, PQ_FK_LIST_STRUCT, 0, "key_value_metadata", PqColumnMetaData,
		   key_value_metadata, NONE,
		   offsetof(PqColumnMetaData, n_key_value_metadata), key_value_desc),
	TF(9, PQ_FK_SIZE64, REQ, "data_page_offset", PqColumnMetaData,
	   data_page_offset, NONE, NONE),
	TF(10, PQ_FK_I64, 0, "index_page_offset", PqColumnMetaData,
	   index_page_offset, HAS(PqColumnMetaData, has_index_page_offset), NONE),
	TF(11, PQ_FK_SIZE64, 0, "dictionary_page_offset", PqColumnMetaData,
	   dictionary_page_offset,
	   HAS(PqColumnMetaData, has_dictionary_page_offset), NONE),
	TF_SUB(12, PQ_FK_STRUCT, 0, "statistics", PqColumnMetaData, statistics,
		   HAS(PqColumnMetaData, has_statistics), NONE, statistics_desc),
	TF_SUB(13, PQ_FK_LIST_STRUCT, 0, "encoding_stats", PqColumnMetaData,
		   encoding_stats, HAS(PqColumnMetaData, has_encoding_stats),
		   offsetof(PqColumnMetaData, n_encoding_stats),
		   page_encoding_stats_desc),
	TF(14, PQ_FK_SIZE64, 0, "bloom_filter_offset", PqColumnMetaData,
	   bloom_filter_offset, HAS(PqColumnMetaData, has_bloom_filter_offset), NONE),
	TF(15, PQ_FK_SIZE32, 0, "bloom_filter_length", PqColumnMetaData,
	   bloom_filter_length, HAS(PqColumnMetaData, has_bloom_filter_length), NONE),
	TF_SUB(16, PQ_FK_STRUCT, 0, "size_statistics", PqColumnMetaData,
		   size_statistics, HAS(PqColumnMetaData, has_size_statistics), NONE,
		   size_statistics_desc),
	TF_SUB(17, PQ_FK_STRUCT, 0, "geospatial_statistics", PqColumnMetaData,
		   geospatial_statistics,
		   HAS(PqColumnMetaData, has_geospatial_statistics), NONE,
		   geospatial_statistics_desc),
};
static const PqThriftStructDesc column_metadata_desc =
PQ_THRIFT_STRUCT("ColumnMetaData", PqColumnMetaData, column_metadata_fields);

/* EncryptionWithColumnKey fills the PqColumnCryptoMetaData of its union */
static const PqThriftField encryption_with_column_key_fields[] = {
	TF(1, PQ_FK_LIST_STRING, REQ, "path_in_schema", PqColumnCryptoMetaData,
	   path_in_schema, NONE, offsetof(PqColumnCryptoMetaData, n_path_in_schema)),
	TF(2, PQ_FK_BINARY, 0, "key_metadata", PqColumnCryptoMetaData,
	   key_metadata, NONE, NONE),
};
static const PqThriftStructDesc encryption_with_column_key_desc =
PQ_THRIFT_STRUCT("EncryptionWithColumnKey", PqColumnCryptoMetaData,
				 encryption_with_column_key_fields,.no_clear = true);

/* EncryptionWithFooterKey has no fields */
static const PqThriftStructDesc encryption_with_footer_key_desc = {
	.name = "EncryptionWithFooterKey",.size = sizeof(PqColumnCryptoMetaData),
	.no_clear = true
};

static const PqThriftStructDesc *
column_crypto_member_desc(int id)
{
	if (id == PQ_CRYPTO_FOOTER_KEY)
		return &encryption_with_footer_key_desc;
	if (id == PQ_CRYPTO_COLUMN_KEY)
		return &encryption_with_column_key_desc;
	return NULL;
}

static const PqThriftUnionDesc column_crypto_metadata_desc = {
	.name = "ColumnCryptoMetaData",.size = sizeof(PqColumnCryptoMetaData),
	.id_offset = offsetof(PqColumnCryptoMetaData, kind),
	.member = column_crypto_member_desc,
	.unsupported = "column encryption method %d is not supported"
};

static const PqThriftField column_chunk_fields[] = {
	TF(1, PQ_FK_STRING, 0, "file_path", PqColumnChunk, file_path, NONE, NONE),
	TF(2, PQ_FK_I64, PQ_TF_WRITE_ALWAYS, "file_offset", PqColumnChunk,
	   file_offset, NONE, NONE),
	TF_SUB(3, PQ_FK_STRUCT, 0, "meta_data", PqColumnChunk, meta_data,
		   HAS(PqColumnChunk, has_meta_data), NONE, column_metadata_desc),
	TF(4, PQ_FK_SIZE64, 0, "offset_index_offset", PqColumnChunk,
	   offset_index_offset, HAS(PqColumnChunk, has_offset_index_offset), NONE),
	TF(5, PQ_FK_SIZE32, 0, "offset_index_length", PqColumnChunk,
	   offset_index_length, HAS(PqColumnChunk, has_offset_index_length), NONE),
	TF(6, PQ_FK_SIZE64, 0, "column_index_offset", PqColumnChunk,
	   column_index_offset, HAS(PqColumnChunk, has_column_index_offset), NONE),
	TF(7, PQ_FK_SIZE32, 0, "column_index_length", PqColumnChunk,
	   column_index_length, HAS(PqColumnChunk, has_column_index_length), NONE),
	TF_UNION_OF(8, 0, "crypto_metadata", PqColumnChunk, crypto_metadata,
				column_crypto_metadata_desc),
	TF(9, PQ_FK_BINARY, 0, "encrypted_column_metadata", PqColumnChunk,
	   encrypted_column_metadata, NONE, NONE),
};
static const PqThriftStructDesc column_chunk_desc =
PQ_THRIFT_STRUCT("ColumnChunk", PqColumnChunk, column_chunk_fields);

static const PqThriftField sorting_column_fields[] = {
	TF(1, PQ_FK_SIZE32, REQ, "column_idx", PqSortingColumn, column_idx, NONE, NONE),
	TF(2, PQ_FK_BOOL, REQ, "descending", PqSortingColumn, descending, NONE, NONE),
	TF(3, PQ_FK_BOOL, REQ, "nulls_first", PqSortingColumn, nulls_first, NONE, NONE),
};
static const PqThriftStructDesc sorting_column_desc =
PQ_THRIFT_STRUCT("SortingColumn", PqSortingColumn, sorting_column_fields);

static const PqThriftField row_group_fields[] = {
	TF_SUB(1, PQ_FK_LIST_STRUCT, REQ, "columns", PqRowGroup, columns, NONE,
		   offsetof(PqRowGroup, n_columns), column_chunk_desc),
	TF(2, PQ_FK_SIZE64, REQ, "total_byte_size", PqRowGroup, total_byte_size,
	   NONE, NONE),
	TF(3, PQ_FK_SIZE64, REQ, "num_rows", PqRowGroup, num_rows, NONE, NONE),
	TF_SUB(4, PQ_FK_LIST_STRUCT, 0, "sorting_columns", PqRowGroup,
		   sorting_columns, NONE, offsetof(PqRowGroup, n_sorting_columns),
		   sorting_column_desc),
	TF(5, PQ_FK_I64, 0, "file_offset", PqRowGroup, file_offset,
	   HAS(PqRowGroup, has_file_offset), NONE),
	TF(6, PQ_FK_SIZE64, 0, "total_compressed_size", PqRowGroup,
	   total_compressed_size, HAS(PqRowGroup, has_total_compressed_size), NONE),
	TF(7, PQ_FK_I16, 0, "ordinal", PqRowGroup, ordinal,
	   HAS(PqRowGroup, has_ordinal), NONE),
};
static const PqThriftStructDesc row_group_desc =
PQ_THRIFT_STRUCT("RowGroup", PqRowGroup, row_group_fields);

/* ----------------------------------------------------------- encryption */

/* AesGcmV1 and AesGcmCtrV1 fill the PqEncryptionAlgorithm of their union */
static const PqThriftField aes_gcm_fields[] = {
	TF(1, PQ_FK_BINARY, 0, "aad_prefix", PqEncryptionAlgorithm, aad_prefix,
	   NONE, NONE),
	TF(2, PQ_FK_BINARY, 0, "aad_file_unique", PqEncryptionAlgorithm,
	   aad_file_unique, NONE, NONE),
	TF(3, PQ_FK_BOOL, PQ_TF_WRITE_IF_TRUE, "supply_aad_prefix",
	   PqEncryptionAlgorithm, supply_aad_prefix, NONE, NONE),
};
static const PqThriftStructDesc aes_gcm_desc =
PQ_THRIFT_STRUCT("AesGcmV1", PqEncryptionAlgorithm, aes_gcm_fields,
				 .no_clear = true);

static const PqThriftStructDesc *
encryption_member_desc(int id)
{
	return (id == PQ_AES_GCM_V1 || id == PQ_AES_GCM_CTR_V1) ? &aes_gcm_desc : NULL;
}

static const PqThriftUnionDesc encryption_algorithm_desc = {
	.name = "EncryptionAlgorithm",.size = sizeof(PqEncryptionAlgorithm),
	.id_offset = offsetof(PqEncryptionAlgorithm, kind),
	.member = encryption_member_desc,
	.unsupported = "encryption algorithm %d is not supported"
};

static const PqThriftField file_crypto_metadata_fields[] = {
	TF_UNION_OF(1, REQ, "encryption_algorithm", PqFileCryptoMetaData,
				encryption_algorithm, encryption_algorithm_desc),
	TF(2, PQ_FK_BINARY, 0, "key_metadata", PqFileCryptoMetaData, key_metadata,
	   NONE, NONE),
};
static const PqThriftStructDesc file_crypto_metadata_desc =
PQ_THRIFT_STRUCT("FileCryptoMetaData", PqFileCryptoMetaData,
				 file_crypto_metadata_fields);

/* --------------------------------------------------------------- footer */

static const PqThriftField file_metadata_fields[] = {
	TF(1, PQ_FK_I32, REQ, "version", PqFileMetaData, version, NONE, NONE),
	TF_SUB(2, PQ_FK_LIST_STRUCT, REQ, "schema", PqFileMetaData, schema, NONE,
		   offsetof(PqFileMetaData, n_schema), schema_element_desc),
	TF(3, PQ_FK_SIZE64, REQ, "num_rows", PqFileMetaData, num_rows, NONE, NONE),
	TF_SUB(4, PQ_FK_LIST_STRUCT, REQ, "row_groups", PqFileMetaData,
		   row_groups, NONE, offsetof(PqFileMetaData, n_row_groups),
		   row_group_desc),
	TF_SUB(5, PQ_FK_LIST_STRUCT, 0, "key_value_metadata", PqFileMetaData,
		   key_value_metadata, NONE,
		   offsetof(PqFileMetaData, n_key_value_metadata), key_value_desc),
	TF(6, PQ_FK_STRING, 0, "created_by", PqFileMetaData, created_by, NONE, NONE),
	/* unknown or missing ColumnOrder members are PQ_ORDER_UNKNOWN */
	TF_UNION(7, PQ_FK_LIST_UNION_ID, 0, "column_orders", PqFileMetaData,
			 column_orders, offsetof(PqFileMetaData, n_column_orders),
			 "ColumnOrder", PQ_ORDER_TYPE_DEFINED, PQ_ORDER_INT96_TIMESTAMP),
	TF_UNION_OF(8, 0, "encryption_algorithm", PqFileMetaData,
				encryption_algorithm, encryption_algorithm_desc),
	TF(9, PQ_FK_BINARY, 0, "footer_signing_key_metadata", PqFileMetaData,
	   footer_signing_key_metadata, NONE, NONE),
};
static const PqThriftStructDesc file_metadata_desc =
PQ_THRIFT_STRUCT("FileMetaData", PqFileMetaData, file_metadata_fields);

/* ---------------------------------------------------------- page headers */

static const PqThriftField data_page_header_fields[] = {
	TF(1, PQ_FK_SIZE32, REQ, "num_values", PqDataPageHeader, num_values, NONE, NONE),
	TF(2, PQ_FK_I32, REQ, "encoding", PqDataPageHeader, encoding, NONE, NONE),
	TF(3, PQ_FK_I32, REQ, "definition_level_encoding", PqDataPageHeader,
	   definition_level_encoding, NONE, NONE),
	TF(4, PQ_FK_I32, REQ, "repetition_level_encoding", PqDataPageHeader,
	   repetition_level_encoding, NONE, NONE),
	TF_SUB(5, PQ_FK_STRUCT, 0, "statistics", PqDataPageHeader, statistics,
		   HAS(PqDataPageHeader, has_statistics), NONE, statistics_desc),
};
static const PqThriftStructDesc data_page_header_desc =
PQ_THRIFT_STRUCT("DataPageHeader", PqDataPageHeader, data_page_header_fields);

static const PqThriftField dictionary_page_header_fields[] = {
	TF(1, PQ_FK_SIZE32, REQ, "num_values", PqDictionaryPageHeader, num_values,
	   NONE, NONE),
	TF(2, PQ_FK_I32, REQ, "encoding", PqDictionaryPageHeader, encoding, NONE, NONE),
	TF(3, PQ_FK_BOOL, 0, "is_sorted", PqDictionaryPageHeader, is_sorted,
	   HAS(PqDictionaryPageHeader, has_is_sorted), NONE),
};
static const PqThriftStructDesc dictionary_page_header_desc =
PQ_THRIFT_STRUCT("DictionaryPageHeader", PqDictionaryPageHeader,
				 dictionary_page_header_fields);

static const PqThriftField data_page_header_v2_fields[] = {
	TF(1, PQ_FK_SIZE32, REQ, "num_values", PqDataPageHeaderV2, num_values, NONE, NONE),
	TF(2, PQ_FK_SIZE32, REQ, "num_nulls", PqDataPageHeaderV2, num_nulls, NONE, NONE),
	TF(3, PQ_FK_SIZE32, REQ, "num_rows", PqDataPageHeaderV2, num_rows, NONE, NONE),
	TF(4, PQ_FK_I32, REQ, "encoding", PqDataPageHeaderV2, encoding, NONE, NONE),
	TF(5, PQ_FK_SIZE32, REQ, "definition_levels_byte_length",
	   PqDataPageHeaderV2, definition_levels_byte_length, NONE, NONE),
	TF(6, PQ_FK_SIZE32, REQ, "repetition_levels_byte_length",
	   PqDataPageHeaderV2, repetition_levels_byte_length, NONE, NONE),
	/* always written: the default (true) is easy to get wrong */
	TF(7, PQ_FK_BOOL, PQ_TF_WRITE_ALWAYS, "is_compressed", PqDataPageHeaderV2,
	   is_compressed, NONE, NONE),
	TF_SUB(8, PQ_FK_STRUCT, 0, "statistics", PqDataPageHeaderV2, statistics,
		   HAS(PqDataPageHeaderV2, has_statistics), NONE, statistics_desc),
};

static void
data_page_header_v2_init(void *out)
{
	((PqDataPageHeaderV2 *) out)->is_compressed = true;
}

static const PqThriftStructDesc data_page_header_v2_desc =
PQ_THRIFT_STRUCT("DataPageHeaderV2", PqDataPageHeaderV2,
				 data_page_header_v2_fields,
				 .init = data_page_header_v2_init);

/* field 6, the empty IndexPageHeader, is skipped as unknown */
static const PqThriftField page_header_fields[] = {
	TF(1, PQ_FK_I32, REQ, "type", PqPageHeader, type, NONE, NONE),
	TF(2, PQ_FK_SIZE32, REQ, "uncompressed_page_size", PqPageHeader,
	   uncompressed_page_size, NONE, NONE),
	TF(3, PQ_FK_SIZE32, REQ, "compressed_page_size", PqPageHeader,
	   compressed_page_size, NONE, NONE),
	TF(4, PQ_FK_I32, 0, "crc", PqPageHeader, crc, HAS(PqPageHeader, has_crc), NONE),
	TF_SUB(5, PQ_FK_STRUCT, 0, "data_page_header", PqPageHeader,
		   data_page_header, HAS(PqPageHeader, has_data_page_header), NONE,
		   data_page_header_desc),
	TF_SUB(7, PQ_FK_STRUCT, 0, "dictionary_page_header", PqPageHeader,
		   dictionary_page_header,
		   HAS(PqPageHeader, has_dictionary_page_header), NONE,
		   dictionary_page_header_desc),
	TF_SUB(8, PQ_FK_STRUCT, 0, "data_page_header_v2", PqPageHeader,
		   data_page_header_v2, HAS(PqPageHeader, has_data_page_header_v2),
		   NONE, data_page_header_v2_desc),
};
static const PqThriftStructDesc page_header_desc =
PQ_THRIFT_STRUCT("PageHeader", PqPageHeader, page_header_fields);

/* ----------------------------------------------------------- page index */

static const PqThriftField page_location_fields[] = {
	TF(1, PQ_FK_SIZE64, REQ, "offset", PqPageLocation, offset, NONE, NONE),
	TF(2, PQ_FK_SIZE32, REQ, "compressed_page_size", PqPageLocation,
	   compressed_page_size, NONE, NONE),
	TF(3, PQ_FK_SIZE64, REQ, "first_row_index", PqPageLocation,
	   first_row_index, NONE, NONE),
};
static const PqThriftStructDesc page_location_desc =
PQ_THRIFT_STRUCT("PageLocation", PqPageLocation, page_location_fields);

static const PqThriftField offset_index_fields[] = {
	TF_SUB(1, PQ_FK_LIST_STRUCT, REQ, "page_locations", PqOffsetIndex,
		   page_locations, NONE, offsetof(PqOffsetIndex, n_page_locations),
		   page_location_desc),
	TF(2, PQ_FK_LIST_I64, 0, "unencoded_byte_array_data_bytes", PqOffsetIndex,
	   unencoded_byte_array_data_bytes, NONE,
	   offsetof(PqOffsetIndex, n_unencoded_byte_array_data_bytes)),
};
static const PqThriftStructDesc offset_index_desc =
PQ_THRIFT_STRUCT("OffsetIndex", PqOffsetIndex, offset_index_fields);

static const PqThriftField column_index_fields[] = {
	TF(1, PQ_FK_LIST_BOOL, REQ, "null_pages", PqColumnIndex, null_pages, NONE,
	   offsetof(PqColumnIndex, n_null_pages)),
	TF(2, PQ_FK_LIST_BINARY, REQ, "min_values", PqColumnIndex, min_values,
	   NONE, offsetof(PqColumnIndex, n_min_values)),
	TF(3, PQ_FK_LIST_BINARY, REQ, "max_values", PqColumnIndex, max_values,
	   NONE, offsetof(PqColumnIndex, n_max_values)),
	TF(4, PQ_FK_I32, REQ, "boundary_order", PqColumnIndex, boundary_order,
	   NONE, NONE),
	TF(5, PQ_FK_LIST_I64, 0, "null_counts", PqColumnIndex, null_counts, NONE,
	   offsetof(PqColumnIndex, n_null_counts)),
	TF(6, PQ_FK_LIST_I64, 0, "repetition_level_histograms", PqColumnIndex,
	   repetition_level_histograms, NONE,
	   offsetof(PqColumnIndex, n_repetition_level_histograms)),
	TF(7, PQ_FK_LIST_I64, 0, "definition_level_histograms", PqColumnIndex,
	   definition_level_histograms, NONE,
	   offsetof(PqColumnIndex, n_definition_level_histograms)),
	TF(8, PQ_FK_LIST_I64, 0, "nan_counts", PqColumnIndex, nan_counts, NONE,
	   offsetof(PqColumnIndex, n_nan_counts)),
};
static const PqThriftStructDesc column_index_desc =
PQ_THRIFT_STRUCT("ColumnIndex", PqColumnIndex, column_index_fields);

/* --------------------------------------------------------- bloom filter */

static const PqThriftField bloom_filter_header_fields[] = {
	TF(1, PQ_FK_SIZE32, REQ, "numBytes", PqBloomFilterHeader, num_bytes, NONE, NONE),
	TF_UNION(2, PQ_FK_UNION_ID, REQ | PQ_TF_MEMBER_REQUIRED, "algorithm",
			 PqBloomFilterHeader, algorithm, NONE, "BloomFilterAlgorithm", 1, 0),
	TF_UNION(3, PQ_FK_UNION_ID, REQ | PQ_TF_MEMBER_REQUIRED, "hash",
			 PqBloomFilterHeader, hash, NONE, "BloomFilterHash", 1, 0),
	TF_UNION(4, PQ_FK_UNION_ID, REQ | PQ_TF_MEMBER_REQUIRED, "compression",
			 PqBloomFilterHeader, compression, NONE, "BloomFilterCompression",
			 1, 0),
};
static const PqThriftStructDesc bloom_filter_header_desc =
PQ_THRIFT_STRUCT("BloomFilterHeader", PqBloomFilterHeader,
				 bloom_filter_header_fields);

/* --------------------------------------------------------- entry points */

static size_t
decode(const PqThriftStructDesc *desc, const uint8 *buf, size_t len,
	   void *out)
{
	PqThriftReader r;

	pq_thrift_reader_init(&r, buf, len);
	pq_thrift_decode_struct(&r, desc, out);
	return pq_thrift_offset(&r);
}

static void
encode(const PqThriftStructDesc *desc, PqBuffer *out, const void *in)
{
	PqThriftWriter w;

	pq_thrift_writer_init(&w, out);
	pq_thrift_encode_struct(&w, desc, in);
}

/* pq_read_<x>() and pq_write_<x>() of metadata.h for the struct <x>_desc */
#define PQ_METADATA_CODEC(x, T) \
size_t \
pq_read_##x(const uint8 *buf, size_t len, T *out) \
{ \
	return decode(&x##_desc, buf, len, out); \
} \
void \
pq_write_##x(PqBuffer *out, const T *in) \
{ \
	encode(&x##_desc, out, in); \
}

PQ_METADATA_CODEC(file_metadata, PqFileMetaData)
PQ_METADATA_CODEC(file_crypto_metadata, PqFileCryptoMetaData)
PQ_METADATA_CODEC(column_metadata, PqColumnMetaData)
PQ_METADATA_CODEC(page_header, PqPageHeader)
PQ_METADATA_CODEC(offset_index, PqOffsetIndex)
PQ_METADATA_CODEC(column_index, PqColumnIndex)
PQ_METADATA_CODEC(bloom_filter_header, PqBloomFilterHeader)
