/*-------------------------------------------------------------------------
 *
 * metadata.h
 *		In-memory form of the Parquet Thrift structures (parquet.thrift),
 *		decoded and encoded by the descriptor tables of thrift_tables.c.
 *
 * Decoded binary fields (PqBytes) point into the input buffer, which the
 * caller keeps alive as long as the decoded struct is used.  Strings that
 * are used as names (schema names, paths, key/value metadata, created_by)
 * are palloc'd NUL-terminated copies.  Every optional field has a has_*
 * flag; a missing required field is a corrupt-file error.  Field ids follow
 * ../shared/spec/thrift-fields.md.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_METADATA_H
#define PQ_METADATA_H

#include "format/common/pq_common.h"

typedef struct PqStatistics
{
	PqBytes		max;			/* 1: legacy, signed byte order */
	PqBytes		min;			/* 2: legacy */
	bool		has_null_count;
	int64		null_count;		/* 3 */
	bool		has_distinct_count;
	int64		distinct_count; /* 4 */
	PqBytes		max_value;		/* 5 */
	PqBytes		min_value;		/* 6 */
	bool		has_is_max_value_exact;
	bool		is_max_value_exact; /* 7 */
	bool		has_is_min_value_exact;
	bool		is_min_value_exact; /* 8 */
	bool		has_nan_count;
	int64		nan_count;		/* 9 */
} PqStatistics;

typedef struct PqLogicalType
{
	int			id;				/* PqLogicalTypeId; PQ_LT_NONE if absent */
	int32		decimal_scale;
	int32		decimal_precision;
	bool		is_adjusted_to_utc; /* TIME, TIMESTAMP */
	int			time_unit;		/* PqTimeUnit, TIME and TIMESTAMP */
	int			int_bit_width;	/* INTEGER */
	bool		int_is_signed;
	bool		has_variant_spec_version;
	int			variant_spec_version;
	char	   *geo_crs;		/* GEOMETRY/GEOGRAPHY, NULL when absent */
	bool		has_geo_algorithm;
	int			geo_algorithm;	/* GEOGRAPHY EdgeInterpolationAlgorithm */
} PqLogicalType;

typedef struct PqSchemaElement
{
	bool		has_type;
	int			type;			/* 1: PqPhysicalType */
	bool		has_type_length;
	int32		type_length;	/* 2 */
	bool		has_repetition_type;
	int			repetition_type;	/* 3 */
	char	   *name;			/* 4 */
	bool		has_num_children;
	int32		num_children;	/* 5 */
	bool		has_converted_type;
	int			converted_type; /* 6 */
	bool		has_scale;
	int32		scale;			/* 7 */
	bool		has_precision;
	int32		precision;		/* 8 */
	bool		has_field_id;
	int32		field_id;		/* 9 */
	PqLogicalType logical_type; /* 10; id == PQ_LT_NONE when absent */
} PqSchemaElement;

typedef struct PqKeyValue
{
	char	   *key;
	char	   *value;			/* NULL when absent */
} PqKeyValue;

typedef struct PqPageEncodingStats
{
	int			page_type;
	int			encoding;
	int32		count;
} PqPageEncodingStats;

typedef struct PqSizeStatistics
{
	bool		has_unencoded_byte_array_data_bytes;
	int64		unencoded_byte_array_data_bytes;
	int64	   *repetition_level_histogram;
	int			n_repetition_level_histogram;
	int64	   *definition_level_histogram;
	int			n_definition_level_histogram;
} PqSizeStatistics;

typedef struct PqBoundingBox
{
	double		xmin,
				xmax,
				ymin,
				ymax;
	bool		has_z;
	double		zmin,
				zmax;
	bool		has_m;
	double		mmin,
				mmax;
} PqBoundingBox;

typedef struct PqGeospatialStatistics
{
	bool		has_bbox;
	PqBoundingBox bbox;
	int32	   *geospatial_types;
	int			n_geospatial_types;
} PqGeospatialStatistics;

typedef struct PqColumnMetaData
{
	int			type;			/* 1 */
	int		   *encodings;		/* 2 */
	int			n_encodings;
	char	  **path_in_schema; /* 3 */
	int			n_path_in_schema;
	int			codec;			/* 4 */
	int64		num_values;		/* 5 */
	int64		total_uncompressed_size;	/* 6 */
	int64		total_compressed_size;	/* 7 */
	PqKeyValue *key_value_metadata; /* 8 */
	int			n_key_value_metadata;
	int64		data_page_offset;	/* 9 */
	bool		has_index_page_offset;
	int64		index_page_offset;	/* 10 */
	bool		has_dictionary_page_offset;
	int64		dictionary_page_offset; /* 11 */
	bool		has_statistics;
	PqStatistics statistics;	/* 12 */
	bool		has_encoding_stats;
	PqPageEncodingStats *encoding_stats;	/* 13 */
	int			n_encoding_stats;
	bool		has_bloom_filter_offset;
	int64		bloom_filter_offset;	/* 14 */
	bool		has_bloom_filter_length;
	int32		bloom_filter_length;	/* 15 */
	bool		has_size_statistics;
	PqSizeStatistics size_statistics;	/* 16 */
	bool		has_geospatial_statistics;
	PqGeospatialStatistics geospatial_statistics;	/* 17 */
} PqColumnMetaData;

typedef enum PqColumnCryptoKind
{
	PQ_CRYPTO_NONE = 0,
	PQ_CRYPTO_FOOTER_KEY = 1,
	PQ_CRYPTO_COLUMN_KEY = 2
} PqColumnCryptoKind;

typedef struct PqColumnCryptoMetaData
{
	int			kind;			/* PqColumnCryptoKind */
	char	  **path_in_schema; /* column key only */
	int			n_path_in_schema;
	PqBytes		key_metadata;
} PqColumnCryptoMetaData;

typedef struct PqColumnChunk
{
	char	   *file_path;		/* 1: NULL when absent */
	int64		file_offset;	/* 2 */
	bool		has_meta_data;
	PqColumnMetaData meta_data; /* 3 */
	bool		has_offset_index_offset;
	int64		offset_index_offset;	/* 4 */
	bool		has_offset_index_length;
	int32		offset_index_length;	/* 5 */
	bool		has_column_index_offset;
	int64		column_index_offset;	/* 6 */
	bool		has_column_index_length;
	int32		column_index_length;	/* 7 */
	PqColumnCryptoMetaData crypto_metadata; /* 8; kind NONE when absent */
	PqBytes		encrypted_column_metadata;	/* 9 */
} PqColumnChunk;

typedef struct PqSortingColumn
{
	int32		column_idx;
	bool		descending;
	bool		nulls_first;
} PqSortingColumn;

typedef struct PqRowGroup
{
	PqColumnChunk *columns;		/* 1 */
	int			n_columns;
	int64		total_byte_size;	/* 2 */
	int64		num_rows;		/* 3 */
	PqSortingColumn *sorting_columns;	/* 4 */
	int			n_sorting_columns;
	bool		has_file_offset;
	int64		file_offset;	/* 5 */
	bool		has_total_compressed_size;
	int64		total_compressed_size;	/* 6 */
	bool		has_ordinal;
	int16		ordinal;		/* 7 */
} PqRowGroup;

typedef enum PqColumnOrderKind
{
	PQ_ORDER_UNKNOWN = 0,		/* absent, or a union member we do not know */
	PQ_ORDER_TYPE_DEFINED = 1,
	PQ_ORDER_IEEE754_TOTAL = 2,
	PQ_ORDER_INT96_TIMESTAMP = 3
} PqColumnOrderKind;

typedef enum PqEncryptionKind
{
	PQ_ENCRYPTION_NONE = 0,
	PQ_AES_GCM_V1 = 1,
	PQ_AES_GCM_CTR_V1 = 2
} PqEncryptionKind;

typedef struct PqEncryptionAlgorithm
{
	int			kind;			/* PqEncryptionKind */
	PqBytes		aad_prefix;
	PqBytes		aad_file_unique;
	bool		supply_aad_prefix;
} PqEncryptionAlgorithm;

typedef struct PqFileMetaData
{
	int32		version;		/* 1 */
	PqSchemaElement *schema;	/* 2 */
	int			n_schema;
	int64		num_rows;		/* 3 */
	PqRowGroup *row_groups;		/* 4 */
	int			n_row_groups;
	PqKeyValue *key_value_metadata; /* 5 */
	int			n_key_value_metadata;
	char	   *created_by;		/* 6: NULL when absent */
	int		   *column_orders;	/* 7: PqColumnOrderKind per leaf; NULL if
								 * absent */
	int			n_column_orders;
	PqEncryptionAlgorithm encryption_algorithm; /* 8; kind NONE if absent */
	PqBytes		footer_signing_key_metadata;	/* 9 */
} PqFileMetaData;

typedef struct PqFileCryptoMetaData
{
	PqEncryptionAlgorithm encryption_algorithm; /* 1 */
	PqBytes		key_metadata;	/* 2 */
} PqFileCryptoMetaData;

typedef struct PqDataPageHeader
{
	int32		num_values;
	int			encoding;
	int			definition_level_encoding;
	int			repetition_level_encoding;
	bool		has_statistics;
	PqStatistics statistics;
} PqDataPageHeader;

typedef struct PqDictionaryPageHeader
{
	int32		num_values;
	int			encoding;
	bool		has_is_sorted;
	bool		is_sorted;
} PqDictionaryPageHeader;

typedef struct PqDataPageHeaderV2
{
	int32		num_values;
	int32		num_nulls;
	int32		num_rows;
	int			encoding;
	int32		definition_levels_byte_length;
	int32		repetition_levels_byte_length;
	bool		is_compressed;	/* default true */
	bool		has_statistics;
	PqStatistics statistics;
} PqDataPageHeaderV2;

typedef struct PqPageHeader
{
	int			type;			/* PqPageType */
	int32		uncompressed_page_size;
	int32		compressed_page_size;
	bool		has_crc;
	int32		crc;
	bool		has_data_page_header;
	PqDataPageHeader data_page_header;
	bool		has_dictionary_page_header;
	PqDictionaryPageHeader dictionary_page_header;
	bool		has_data_page_header_v2;
	PqDataPageHeaderV2 data_page_header_v2;
} PqPageHeader;

typedef struct PqPageLocation
{
	int64		offset;
	int32		compressed_page_size;
	int64		first_row_index;
} PqPageLocation;

typedef struct PqOffsetIndex
{
	PqPageLocation *page_locations;
	int			n_page_locations;
	int64	   *unencoded_byte_array_data_bytes;	/* NULL when absent */
	int			n_unencoded_byte_array_data_bytes;
} PqOffsetIndex;

typedef enum PqBoundaryOrder
{
	PQ_BOUNDARY_UNORDERED = 0,
	PQ_BOUNDARY_ASCENDING = 1,
	PQ_BOUNDARY_DESCENDING = 2
} PqBoundaryOrder;

typedef struct PqColumnIndex
{
	bool	   *null_pages;
	int			n_null_pages;
	PqBytes    *min_values;
	int			n_min_values;
	PqBytes    *max_values;
	int			n_max_values;
	int			boundary_order;
	int64	   *null_counts;	/* NULL when absent */
	int			n_null_counts;
	int64	   *repetition_level_histograms;
	int			n_repetition_level_histograms;
	int64	   *definition_level_histograms;
	int			n_definition_level_histograms;
	int64	   *nan_counts;		/* NULL when absent */
	int			n_nan_counts;
} PqColumnIndex;

typedef struct PqBloomFilterHeader
{
	int32		num_bytes;
	int			algorithm;		/* union member id: 1 = BLOCK */
	int			hash;			/* 1 = XXHASH */
	int			compression;	/* 1 = UNCOMPRESSED */
} PqBloomFilterHeader;

/*
 * Decoders.  Each decodes one struct from buf[0..len) and returns the number
 * of bytes consumed; trailing bytes are allowed (page headers are followed by
 * page data).  Corrupt or truncated input raises pq_corrupt().
 */
extern size_t pq_read_file_metadata(const uint8 *buf, size_t len,
									PqFileMetaData *out);
extern size_t pq_read_file_crypto_metadata(const uint8 *buf, size_t len,
										   PqFileCryptoMetaData *out);
extern size_t pq_read_column_metadata(const uint8 *buf, size_t len,
									  PqColumnMetaData *out);
extern size_t pq_read_page_header(const uint8 *buf, size_t len,
								  PqPageHeader *out);
extern size_t pq_read_offset_index(const uint8 *buf, size_t len,
								   PqOffsetIndex *out);
extern size_t pq_read_column_index(const uint8 *buf, size_t len,
								   PqColumnIndex *out);
extern size_t pq_read_bloom_filter_header(const uint8 *buf, size_t len,
										  PqBloomFilterHeader *out);

/*
 * Encoders: append the compact-protocol form of the struct to out.  Absent
 * optional fields (has_* false, NULL pointers, PqBytes.ptr NULL) are omitted.
 */
extern void pq_write_file_metadata(PqBuffer *out, const PqFileMetaData *md);
extern void pq_write_file_crypto_metadata(PqBuffer *out,
										  const PqFileCryptoMetaData *md);
extern void pq_write_column_metadata(PqBuffer *out, const PqColumnMetaData *md);
extern void pq_write_page_header(PqBuffer *out, const PqPageHeader *ph);
extern void pq_write_offset_index(PqBuffer *out, const PqOffsetIndex *oi);
extern void pq_write_column_index(PqBuffer *out, const PqColumnIndex *ci);
extern void pq_write_bloom_filter_header(PqBuffer *out,
										 const PqBloomFilterHeader *bf);

#endif							/* PQ_METADATA_H */
