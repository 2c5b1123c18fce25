/*
 * test_metadata.c
 *		Unit tests for the Parquet metadata decoders and encoders: byte
 *		vectors derived by hand from the compact protocol and parquet.thrift,
 *		round trips of fully populated structs, truncation and mutation of
 *		encoded footers, and the footers of real files from the
 *		parquet-testing corpus when it is present.
 */
#include "postgres.h"

#include <dirent.h>
#include <sys/stat.h>

#include "format/metadata/metadata.h"
#include "format/metadata/schema.h"
#include "format/thrift/compact.h"
#include "unit_test.h"
#include "utils/memutils.h"

/* ---- helpers ---- */

static PqBytes
mkbytes(const char *s)
{
	PqBytes		b;

	b.ptr = (const uint8 *) s;
	b.len = strlen(s);
	return b;
}

static bool
bytes_eq(PqBytes a, PqBytes b)
{
	if (a.ptr == NULL || b.ptr == NULL)
		return a.ptr == NULL && b.ptr == NULL;
	return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

static bool
str_eq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == NULL && b == NULL;
	return strcmp(a, b) == 0;
}

static bool
i64_array_eq(const int64 *a, int na, const int64 *b, int nb)
{
	if (a == NULL || b == NULL)
		return a == NULL && b == NULL;
	return na == nb && memcmp(a, b, sizeof(int64) * na) == 0;
}

static bool
msg_contains(const char *s)
{
	return strstr(shim_last_message, s) != NULL;
}

/* ---- a fully populated FileMetaData ---- */

static const PqLogicalType *
sample_logical_types(int *n)
{
	static PqLogicalType lts[20];
	int			i = 0;

	memset(lts, 0, sizeof(lts));
	lts[i++].id = PQ_LT_STRING;
	lts[i++].id = PQ_LT_MAP;
	lts[i++].id = PQ_LT_LIST;
	lts[i++].id = PQ_LT_ENUM;
	lts[i].id = PQ_LT_DECIMAL;
	lts[i].decimal_scale = 2;
	lts[i++].decimal_precision = 10;
	lts[i++].id = PQ_LT_DATE;
	lts[i].id = PQ_LT_TIME;
	lts[i].is_adjusted_to_utc = true;
	lts[i++].time_unit = PQ_UNIT_MILLIS;
	lts[i].id = PQ_LT_TIMESTAMP;
	lts[i].is_adjusted_to_utc = false;
	lts[i++].time_unit = PQ_UNIT_NANOS;
	lts[i].id = PQ_LT_TIMESTAMP;
	lts[i].is_adjusted_to_utc = true;
	lts[i++].time_unit = PQ_UNIT_MICROS;
	lts[i].id = PQ_LT_INTEGER;
	lts[i].int_bit_width = 16;
	lts[i++].int_is_signed = false;
	lts[i].id = PQ_LT_INTEGER;
	lts[i].int_bit_width = 64;
	lts[i++].int_is_signed = true;
	lts[i++].id = PQ_LT_UNKNOWN;
	lts[i++].id = PQ_LT_JSON;
	lts[i++].id = PQ_LT_BSON;
	lts[i++].id = PQ_LT_UUID;
	lts[i++].id = PQ_LT_FLOAT16;
	lts[i].id = PQ_LT_VARIANT;
	lts[i].has_variant_spec_version = true;
	lts[i++].variant_spec_version = 1;
	lts[i].id = PQ_LT_GEOMETRY;
	lts[i++].geo_crs = "OGC:CRS84";
	lts[i].id = PQ_LT_GEOGRAPHY;
	lts[i].has_geo_algorithm = true;
	lts[i++].geo_algorithm = 2;
	lts[i++].id = PQ_LT_FILE;
	*n = i;
	return lts;
}

static void
fill_statistics(PqStatistics *s)
{
	memset(s, 0, sizeof(*s));
	s->max = mkbytes("zz");
	s->min = mkbytes("");
	s->has_null_count = true;
	s->null_count = 3;
	s->has_distinct_count = true;
	s->distinct_count = 77;
	s->max_value = mkbytes("max-value");
	s->min_value = mkbytes("a");
	s->has_is_max_value_exact = true;
	s->is_max_value_exact = false;
	s->has_is_min_value_exact = true;
	s->is_min_value_exact = true;
	s->has_nan_count = true;
	s->nan_count = 0;
}

static void
fill_column_metadata(PqColumnMetaData *md, int salt)
{
	static int	encodings[] = {PQ_ENC_PLAIN, PQ_ENC_RLE, PQ_ENC_RLE_DICTIONARY};
	static char *path[] = {"outer", "inner"};
	static PqKeyValue kv[] = {{"ck1", "cv1"}, {"ck2", NULL}};
	static PqPageEncodingStats es[] = {
		{PQ_PAGE_DICTIONARY, PQ_ENC_PLAIN, 1},
		{PQ_PAGE_DATA, PQ_ENC_RLE_DICTIONARY, 12}
	};
	static int64 rep_hist[] = {10, 5, 0};
	static int64 def_hist[] = {1, 2, 3, 4};
	static int32 geo_types[] = {1, 3, 1003};

	memset(md, 0, sizeof(*md));
	md->type = PQ_BYTE_ARRAY;
	md->encodings = encodings;
	md->n_encodings = lengthof(encodings);
	md->path_in_schema = path;
	md->n_path_in_schema = lengthof(path);
	md->codec = PQ_CODEC_ZSTD;
	md->num_values = 1000 + salt;
	md->total_uncompressed_size = INT64CONST(5000000000);
	md->total_compressed_size = 123456;
	md->key_value_metadata = kv;
	md->n_key_value_metadata = lengthof(kv);
	md->data_page_offset = 4 + salt;
	md->has_index_page_offset = true;
	md->index_page_offset = 99;
	md->has_dictionary_page_offset = true;
	md->dictionary_page_offset = 4;
	md->has_statistics = true;
	fill_statistics(&md->statistics);
	md->has_encoding_stats = true;
	md->encoding_stats = es;
	md->n_encoding_stats = lengthof(es);
	md->has_bloom_filter_offset = true;
	md->bloom_filter_offset = 777;
	md->has_bloom_filter_length = true;
	md->bloom_filter_length = 1024;
	md->has_size_statistics = true;
	md->size_statistics.has_unencoded_byte_array_data_bytes = true;
	md->size_statistics.unencoded_byte_array_data_bytes = 4242;
	md->size_statistics.repetition_level_histogram = rep_hist;
	md->size_statistics.n_repetition_level_histogram = lengthof(rep_hist);
	md->size_statistics.definition_level_histogram = def_hist;
	md->size_statistics.n_definition_level_histogram = lengthof(def_hist);
	md->has_geospatial_statistics = true;
	md->geospatial_statistics.has_bbox = true;
	md->geospatial_statistics.bbox.xmin = -180;
	md->geospatial_statistics.bbox.xmax = 180;
	md->geospatial_statistics.bbox.ymin = -90.5;
	md->geospatial_statistics.bbox.ymax = 90.25;
	md->geospatial_statistics.bbox.has_z = true;
	md->geospatial_statistics.bbox.zmin = -1;
	md->geospatial_statistics.bbox.zmax = 1e300;
	md->geospatial_statistics.bbox.has_m = true;
	md->geospatial_statistics.bbox.mmin = 0;
	md->geospatial_statistics.bbox.mmax = 0.5;
	md->geospatial_statistics.geospatial_types = geo_types;
	md->geospatial_statistics.n_geospatial_types = lengthof(geo_types);
}

static void
build_file_metadata(PqFileMetaData *md)
{
	static char *key_path[] = {"secret"};
	static PqKeyValue kv[] = {{"writer.model", "{\"a\":1}"}, {"novalue", NULL}};
	static int	orders[] = {
		PQ_ORDER_TYPE_DEFINED, PQ_ORDER_IEEE754_TOTAL, PQ_ORDER_INT96_TIMESTAMP
	};
	const PqLogicalType *lts;
	int			nlt;
	PqSchemaElement *schema;
	int			i;

	memset(md, 0, sizeof(*md));
	md->version = 2;
	lts = sample_logical_types(&nlt);
	schema = palloc0(sizeof(PqSchemaElement) * (nlt + 2));
	schema[0].name = "schema";
	schema[0].has_num_children = true;
	schema[0].num_children = nlt + 1;
	for (i = 0; i < nlt; i++)
	{
		PqSchemaElement *se = &schema[i + 1];

		se->name = psprintf("col_%d", i);
		se->has_type = true;
		se->type = PQ_FIXED_LEN_BYTE_ARRAY;
		se->has_type_length = true;
		se->type_length = 16 + i;
		se->has_repetition_type = true;
		se->repetition_type = i % 3;
		se->logical_type = lts[i];
		if (i % 2 == 0)
		{
			se->has_field_id = true;
			se->field_id = -i;
		}
	}
	/* a leaf with every legacy annotation field and no LogicalType */
	schema[nlt + 1].name = "legacy";
	schema[nlt + 1].has_type = true;
	schema[nlt + 1].type = PQ_INT32;
	schema[nlt + 1].has_converted_type = true;
	schema[nlt + 1].converted_type = PQ_CT_DECIMAL;
	schema[nlt + 1].has_scale = true;
	schema[nlt + 1].scale = 3;
	schema[nlt + 1].has_precision = true;
	schema[nlt + 1].precision = 9;
	md->schema = schema;
	md->n_schema = nlt + 2;
	md->num_rows = INT64CONST(10000000000);

	md->n_row_groups = 2;
	md->row_groups = palloc0(sizeof(PqRowGroup) * 2);
	for (i = 0; i < 2; i++)
	{
		PqRowGroup *rg = &md->row_groups[i];
		PqColumnChunk *cc;

		rg->n_columns = 2;
		rg->columns = palloc0(sizeof(PqColumnChunk) * 2);
		cc = &rg->columns[0];
		cc->file_offset = 1000 * i + 4;
		cc->has_meta_data = true;
		fill_column_metadata(&cc->meta_data, i);
		cc->has_offset_index_offset = true;
		cc->offset_index_offset = 5000;
		cc->has_offset_index_length = true;
		cc->offset_index_length = 50;
		cc->has_column_index_offset = true;
		cc->column_index_offset = 6000;
		cc->has_column_index_length = true;
		cc->column_index_length = 60;
		cc->crypto_metadata.kind = PQ_CRYPTO_FOOTER_KEY;

		cc = &rg->columns[1];
		cc->file_path = "other.parquet";
		cc->file_offset = 0;
		cc->crypto_metadata.kind = PQ_CRYPTO_COLUMN_KEY;
		cc->crypto_metadata.path_in_schema = key_path;
		cc->crypto_metadata.n_path_in_schema = 1;
		cc->crypto_metadata.key_metadata = mkbytes("kid:col");
		cc->encrypted_column_metadata = mkbytes("\x01\x02\x03 ciphertext");

		rg->total_byte_size = 8888;
		rg->num_rows = 5000000000 + i;
		rg->n_sorting_columns = 2;
		rg->sorting_columns = palloc0(sizeof(PqSortingColumn) * 2);
		rg->sorting_columns[0].column_idx = 0;
		rg->sorting_columns[0].descending = true;
		rg->sorting_columns[1].column_idx = 1;
		rg->sorting_columns[1].nulls_first = true;
		rg->has_file_offset = true;
		rg->file_offset = 4;
		rg->has_total_compressed_size = true;
		rg->total_compressed_size = 7777;
		rg->has_ordinal = true;
		rg->ordinal = (int16) i;
	}
	md->key_value_metadata = kv;
	md->n_key_value_metadata = lengthof(kv);
	md->created_by = "parquet_fdw unit test";
	md->column_orders = orders;
	md->n_column_orders = lengthof(orders);
	md->encryption_algorithm.kind = PQ_AES_GCM_CTR_V1;
	md->encryption_algorithm.aad_prefix = mkbytes("tester");
	md->encryption_algorithm.aad_file_unique = mkbytes("\x00\x01unique");
	md->encryption_algorithm.supply_aad_prefix = true;
	md->footer_signing_key_metadata = mkbytes("kid:footer");
}

/* ---- comparisons (CHECK returns from the helper, recording the failure) */

static void
compare_statistics(const PqStatistics *a, const PqStatistics *b)
{
	CHECK(bytes_eq(a->max, b->max));
	CHECK(bytes_eq(a->min, b->min));
	CHECK(a->has_null_count == b->has_null_count && a->null_count == b->null_count);
	CHECK(a->has_distinct_count == b->has_distinct_count &&
		  a->distinct_count == b->distinct_count);
	CHECK(bytes_eq(a->max_value, b->max_value));
	CHECK(bytes_eq(a->min_value, b->min_value));
	CHECK(a->has_is_max_value_exact == b->has_is_max_value_exact &&
		  a->is_max_value_exact == b->is_max_value_exact);
	CHECK(a->has_is_min_value_exact == b->has_is_min_value_exact &&
		  a->is_min_value_exact == b->is_min_value_exact);
	CHECK(a->has_nan_count == b->has_nan_count && a->nan_count == b->nan_count);
}

static void
compare_logical_type(const PqLogicalType *a, const PqLogicalType *b)
{
	CHECK_EQ_INT(a->id, b->id);
	CHECK_EQ_INT(a->decimal_scale, b->decimal_scale);
	CHECK_EQ_INT(a->decimal_precision, b->decimal_precision);
	CHECK_EQ_INT(a->is_adjusted_to_utc, b->is_adjusted_to_utc);
	CHECK_EQ_INT(a->time_unit, b->time_unit);
	CHECK_EQ_INT(a->int_bit_width, b->int_bit_width);
	CHECK_EQ_INT(a->int_is_signed, b->int_is_signed);
	CHECK_EQ_INT(a->has_variant_spec_version, b->has_variant_spec_version);
	CHECK_EQ_INT(a->variant_spec_version, b->variant_spec_version);
	CHECK(str_eq(a->geo_crs, b->geo_crs));
	CHECK_EQ_INT(a->has_geo_algorithm, b->has_geo_algorithm);
	CHECK_EQ_INT(a->geo_algorithm, b->geo_algorithm);
}

static void
compare_schema_element(const PqSchemaElement *a, const PqSchemaElement *b)
{
	CHECK(str_eq(a->name, b->name));
	CHECK(a->has_type == b->has_type && a->type == b->type);
	CHECK(a->has_type_length == b->has_type_length &&
		  a->type_length == b->type_length);
	CHECK(a->has_repetition_type == b->has_repetition_type &&
		  a->repetition_type == b->repetition_type);
	CHECK(a->has_num_children == b->has_num_children &&
		  a->num_children == b->num_children);
	CHECK(a->has_converted_type == b->has_converted_type &&
		  a->converted_type == b->converted_type);
	CHECK(a->has_scale == b->has_scale && a->scale == b->scale);
	CHECK(a->has_precision == b->has_precision && a->precision == b->precision);
	CHECK(a->has_field_id == b->has_field_id && a->field_id == b->field_id);
	compare_logical_type(&a->logical_type, &b->logical_type);
}

static void
compare_key_values(const PqKeyValue *a, int na, const PqKeyValue *b, int nb)
{
	int			i;

	CHECK((a == NULL) == (b == NULL));
	CHECK_EQ_INT(na, nb);
	for (i = 0; i < na; i++)
	{
		CHECK(str_eq(a[i].key, b[i].key));
		CHECK(str_eq(a[i].value, b[i].value));
	}
}

static void
compare_strings(char *const *a, int na, char *const *b, int nb)
{
	int			i;

	CHECK_EQ_INT(na, nb);
	for (i = 0; i < na; i++)
		CHECK(str_eq(a[i], b[i]));
}

static void
compare_column_metadata(const PqColumnMetaData *a, const PqColumnMetaData *b)
{
	const PqSizeStatistics *sa = &a->size_statistics;
	const PqSizeStatistics *sb = &b->size_statistics;
	const PqGeospatialStatistics *ga = &a->geospatial_statistics;
	const PqGeospatialStatistics *gb = &b->geospatial_statistics;
	int			i;

	CHECK_EQ_INT(a->type, b->type);
	CHECK_EQ_INT(a->n_encodings, b->n_encodings);
	for (i = 0; i < a->n_encodings; i++)
		CHECK_EQ_INT(a->encodings[i], b->encodings[i]);
	compare_strings(a->path_in_schema, a->n_path_in_schema,
					b->path_in_schema, b->n_path_in_schema);
	CHECK_EQ_INT(a->codec, b->codec);
	CHECK_EQ_INT(a->num_values, b->num_values);
	CHECK_EQ_INT(a->total_uncompressed_size, b->total_uncompressed_size);
	CHECK_EQ_INT(a->total_compressed_size, b->total_compressed_size);
	compare_key_values(a->key_value_metadata, a->n_key_value_metadata,
					   b->key_value_metadata, b->n_key_value_metadata);
	CHECK_EQ_INT(a->data_page_offset, b->data_page_offset);
	CHECK(a->has_index_page_offset == b->has_index_page_offset &&
		  a->index_page_offset == b->index_page_offset);
	CHECK(a->has_dictionary_page_offset == b->has_dictionary_page_offset &&
		  a->dictionary_page_offset == b->dictionary_page_offset);
	CHECK_EQ_INT(a->has_statistics, b->has_statistics);
	compare_statistics(&a->statistics, &b->statistics);
	CHECK_EQ_INT(a->has_encoding_stats, b->has_encoding_stats);
	CHECK_EQ_INT(a->n_encoding_stats, b->n_encoding_stats);
	for (i = 0; i < a->n_encoding_stats; i++)
	{
		CHECK_EQ_INT(a->encoding_stats[i].page_type, b->encoding_stats[i].page_type);
		CHECK_EQ_INT(a->encoding_stats[i].encoding, b->encoding_stats[i].encoding);
		CHECK_EQ_INT(a->encoding_stats[i].count, b->encoding_stats[i].count);
	}
	CHECK(a->has_bloom_filter_offset == b->has_bloom_filter_offset &&
		  a->bloom_filter_offset == b->bloom_filter_offset);
	CHECK(a->has_bloom_filter_length == b->has_bloom_filter_length &&
		  a->bloom_filter_length == b->bloom_filter_length);
	CHECK_EQ_INT(a->has_size_statistics, b->has_size_statistics);
	CHECK(sa->has_unencoded_byte_array_data_bytes ==
		  sb->has_unencoded_byte_array_data_bytes &&
		  sa->unencoded_byte_array_data_bytes ==
		  sb->unencoded_byte_array_data_bytes);
	CHECK(i64_array_eq(sa->repetition_level_histogram,
					   sa->n_repetition_level_histogram,
					   sb->repetition_level_histogram,
					   sb->n_repetition_level_histogram));
	CHECK(i64_array_eq(sa->definition_level_histogram,
					   sa->n_definition_level_histogram,
					   sb->definition_level_histogram,
					   sb->n_definition_level_histogram));
	CHECK_EQ_INT(a->has_geospatial_statistics, b->has_geospatial_statistics);
	CHECK_EQ_INT(ga->has_bbox, gb->has_bbox);
	CHECK(ga->bbox.xmin == gb->bbox.xmin && ga->bbox.xmax == gb->bbox.xmax);
	CHECK(ga->bbox.ymin == gb->bbox.ymin && ga->bbox.ymax == gb->bbox.ymax);
	CHECK(ga->bbox.has_z == gb->bbox.has_z && ga->bbox.zmin == gb->bbox.zmin &&
		  ga->bbox.zmax == gb->bbox.zmax);
	CHECK(ga->bbox.has_m == gb->bbox.has_m && ga->bbox.mmin == gb->bbox.mmin &&
		  ga->bbox.mmax == gb->bbox.mmax);
	CHECK_EQ_INT(ga->n_geospatial_types, gb->n_geospatial_types);
	for (i = 0; i < ga->n_geospatial_types; i++)
		CHECK_EQ_INT(ga->geospatial_types[i], gb->geospatial_types[i]);
}

static void
compare_column_chunk(const PqColumnChunk *a, const PqColumnChunk *b)
{
	CHECK(str_eq(a->file_path, b->file_path));
	CHECK_EQ_INT(a->file_offset, b->file_offset);
	CHECK_EQ_INT(a->has_meta_data, b->has_meta_data);
	if (a->has_meta_data)
		compare_column_metadata(&a->meta_data, &b->meta_data);
	CHECK(a->has_offset_index_offset == b->has_offset_index_offset &&
		  a->offset_index_offset == b->offset_index_offset);
	CHECK(a->has_offset_index_length == b->has_offset_index_length &&
		  a->offset_index_length == b->offset_index_length);
	CHECK(a->has_column_index_offset == b->has_column_index_offset &&
		  a->column_index_offset == b->column_index_offset);
	CHECK(a->has_column_index_length == b->has_column_index_length &&
		  a->column_index_length == b->column_index_length);
	CHECK_EQ_INT(a->crypto_metadata.kind, b->crypto_metadata.kind);
	compare_strings(a->crypto_metadata.path_in_schema,
					a->crypto_metadata.n_path_in_schema,
					b->crypto_metadata.path_in_schema,
					b->crypto_metadata.n_path_in_schema);
	CHECK(bytes_eq(a->crypto_metadata.key_metadata,
				   b->crypto_metadata.key_metadata));
	CHECK(bytes_eq(a->encrypted_column_metadata, b->encrypted_column_metadata));
}

static void
compare_encryption(const PqEncryptionAlgorithm *a,
				   const PqEncryptionAlgorithm *b)
{
	CHECK_EQ_INT(a->kind, b->kind);
	CHECK(bytes_eq(a->aad_prefix, b->aad_prefix));
	CHECK(bytes_eq(a->aad_file_unique, b->aad_file_unique));
	CHECK_EQ_INT(a->supply_aad_prefix, b->supply_aad_prefix);
}

static void
compare_file_metadata(const PqFileMetaData *a, const PqFileMetaData *b)
{
	int			i,
				j;

	CHECK_EQ_INT(a->version, b->version);
	CHECK_EQ_INT(a->n_schema, b->n_schema);
	for (i = 0; i < a->n_schema; i++)
		compare_schema_element(&a->schema[i], &b->schema[i]);
	CHECK_EQ_INT(a->num_rows, b->num_rows);
	CHECK_EQ_INT(a->n_row_groups, b->n_row_groups);
	for (i = 0; i < a->n_row_groups; i++)
	{
		const PqRowGroup *ra = &a->row_groups[i];
		const PqRowGroup *rb = &b->row_groups[i];

		CHECK_EQ_INT(ra->n_columns, rb->n_columns);
		for (j = 0; j < ra->n_columns; j++)
			compare_column_chunk(&ra->columns[j], &rb->columns[j]);
		CHECK_EQ_INT(ra->total_byte_size, rb->total_byte_size);
		CHECK_EQ_INT(ra->num_rows, rb->num_rows);
		CHECK_EQ_INT(ra->n_sorting_columns, rb->n_sorting_columns);
		for (j = 0; j < ra->n_sorting_columns; j++)
		{
			CHECK_EQ_INT(ra->sorting_columns[j].column_idx,
						 rb->sorting_columns[j].column_idx);
			CHECK_EQ_INT(ra->sorting_columns[j].descending,
						 rb->sorting_columns[j].descending);
			CHECK_EQ_INT(ra->sorting_columns[j].nulls_first,
						 rb->sorting_columns[j].nulls_first);
		}
		CHECK(ra->has_file_offset == rb->has_file_offset &&
			  ra->file_offset == rb->file_offset);
		CHECK(ra->has_total_compressed_size == rb->has_total_compressed_size &&
			  ra->total_compressed_size == rb->total_compressed_size);
		CHECK(ra->has_ordinal == rb->has_ordinal && ra->ordinal == rb->ordinal);
	}
	compare_key_values(a->key_value_metadata, a->n_key_value_metadata,
					   b->key_value_metadata, b->n_key_value_metadata);
	CHECK(str_eq(a->created_by, b->created_by));
	CHECK((a->column_orders == NULL) == (b->column_orders == NULL));
	CHECK_EQ_INT(a->n_column_orders, b->n_column_orders);
	for (i = 0; i < a->n_column_orders; i++)
		CHECK_EQ_INT(a->column_orders[i], b->column_orders[i]);
	compare_encryption(&a->encryption_algorithm, &b->encryption_algorithm);
	CHECK(bytes_eq(a->footer_signing_key_metadata,
				   b->footer_signing_key_metadata));
}

/* ---- hand-written byte vectors ---- */

/* A flat schema of INT32 columns named names[0..n-1]. */
static PqSchema *
flat_schema(const char **names, int n)
{
	PqFileMetaData md;
	int			i;

	memset(&md, 0, sizeof(md));
	md.n_schema = n + 1;
	md.schema = palloc0(sizeof(PqSchemaElement) * (n + 1));
	md.schema[0].name = "root";
	md.schema[0].has_num_children = true;
	md.schema[0].num_children = n;
	for (i = 0; i < n; i++)
	{
		md.schema[i + 1].name = (char *) names[i];
		md.schema[i + 1].has_type = true;
		md.schema[i + 1].type = PQ_INT32;
		md.schema[i + 1].has_repetition_type = true;
		md.schema[i + 1].repetition_type = PQ_OPTIONAL;
	}
	return pq_schema_build(&md);
}

/*
 * Field lookup with a position hint: the hint is only taken when names are
 * distinct (else the first exact match wins, as without a hint); a wrong
 * hint falls back to the search and moves to where the name is.
 */
static void
test_find_field_hinted(void)
{
	const char *uniq[] = {"a", "b", "C"};
	const char *dup[] = {"a", "b", "a"};
	PqSchema   *s = flat_schema(uniq, 3);
	int			hint = 0;

	CHECK(s->unique_names);
	CHECK(pq_schema_find_field_hinted(s, "C", &hint) == s->root->children[2]);
	CHECK(hint == 2);
	CHECK(pq_schema_find_field_hinted(s, "C", &hint) == s->root->children[2]);
	CHECK(pq_schema_find_field_hinted(s, "a", &hint) == s->root->children[0]);
	CHECK(hint == 0);
	/* case-insensitive when unambiguous */
	CHECK(pq_schema_find_field_hinted(s, "c", &hint) == s->root->children[2]);
	hint = 7;
	CHECK(pq_schema_find_field_hinted(s, "zz", &hint) == NULL);
	CHECK(hint == 7);
	CHECK(pq_schema_find_field_hinted(s, "b", &hint) == s->root->children[1]);
	CHECK(hint == 1);

	s = flat_schema(dup, 3);
	CHECK(!s->unique_names);
	hint = 2;
	CHECK(pq_schema_find_field_hinted(s, "a", &hint) == s->root->children[0]);
	CHECK(pq_schema_find_field(s, "a") == s->root->children[0]);
	shim_free_all();
}

/*
 * A chain of depth groups, each the only child of the one above, over one
 * INT32 leaf: every group named name, OPTIONAL, and every third REPEATED
 * (as lists nest).  depth counts the levels below the root, leaf included.
 */
static PqFileMetaData *
chain_metadata(int depth, const char *name)
{
	PqFileMetaData *md = palloc0(sizeof(PqFileMetaData));
	int			i;

	md->n_schema = depth + 1;
	md->schema = palloc0(sizeof(PqSchemaElement) * (depth + 1));
	md->schema[0].name = "root";
	for (i = 0; i < depth; i++)
	{
		PqSchemaElement *e = &md->schema[i];

		e->has_num_children = true;
		e->num_children = 1;
		e[1].name = (char *) name;
		e[1].has_repetition_type = true;
		e[1].repetition_type = i % 3 == 2 ? PQ_REPEATED : PQ_OPTIONAL;
	}
	md->schema[depth].has_type = true;
	md->schema[depth].type = PQ_INT32;
	return md;
}

/*
 * Impala's deepest schemas (100 nested complex types, leaves about 200
 * levels down) build, up to the limit of 1000 levels; a hostile depth is a
 * clean ERROR, not a stack overflow.
 */
static void
test_schema_depth(void)
{
	PqSchema   *s;
	const PqColumnDescr *c;
	int			depths[] = {200, 1000};
	int			k;

	for (k = 0; k < 2; k++)
	{
		int			d = depths[k];

		s = pq_schema_build(chain_metadata(d, "f"));
		CHECK_EQ_INT(s->n_columns, 1);
		c = &s->columns[0];
		CHECK_EQ_INT(c->node->depth, d);
		CHECK_EQ_INT(c->max_rep, d / 3);
		CHECK_EQ_INT(c->max_def, d);
		/* "f.f. ... .f": d names and d - 1 dots */
		CHECK_EQ_INT(strlen(c->path), 2 * d - 1);
		CHECK(strncmp(c->path, "f.f.f", 5) == 0);
		CHECK(c->path[2 * d - 2] == 'f');
		shim_free_all();
	}
	CHECK_ERROR(pq_schema_build(chain_metadata(1001, "f")),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("nested deeper than 1000 levels"));
	shim_free_all();
	CHECK_ERROR(pq_schema_build(chain_metadata(10000, "f")),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("nested deeper than 1000 levels"));
	shim_free_all();
}

/*
 * A FIXED_LEN_BYTE_ARRAY's width is a number from the file: one value must
 * fit a page of at most 1 GB, so a wider type is refused when the schema
 * is built, before any reader sizes anything by it.
 */
static void
test_flba_width_limit(void)
{
	int			widths[] = {16, 4 * 1024 * 1024, (int) MaxAllocSize};
	int			k;

	for (k = 0; k < 3; k++)
	{
		PqFileMetaData *md = chain_metadata(1, "w");
		PqSchema   *s;

		md->schema[1].type = PQ_FIXED_LEN_BYTE_ARRAY;
		md->schema[1].has_type_length = true;
		md->schema[1].type_length = widths[k];
		s = pq_schema_build(md);
		CHECK_EQ_INT(s->columns[0].type_length, widths[k]);
		shim_free_all();
	}
	{
		PqFileMetaData *md = chain_metadata(1, "w");

		md->schema[1].type = PQ_FIXED_LEN_BYTE_ARRAY;
		md->schema[1].has_type_length = true;
		md->schema[1].type_length = (int) MaxAllocSize + 1;
		CHECK_ERROR(pq_schema_build(md), ERRCODE_DATA_CORRUPTED);
		CHECK(msg_contains("more than the largest page"));
		shim_free_all();
	}
}

/*
 * Column paths repeat every ancestor's name: long names over a deep chain
 * with many leaves must not turn a small footer into gigabytes of paths.
 */
static void
test_schema_path_bytes(void)
{
	char	   *name = palloc(4001);
	PqFileMetaData *md;
	int			depth = 900;
	int			leaves = 100;
	int			i;

	memset(name, 'n', 4000);
	name[4000] = '\0';
	/* 900 levels of 4000-byte names over 100 leaves: 360 MB of paths */
	md = chain_metadata(depth, name);
	md->schema[depth - 1].num_children = leaves;
	md->schema = repalloc(md->schema, sizeof(PqSchemaElement) * (depth + leaves));
	for (i = 0; i < leaves; i++)
	{
		PqSchemaElement *e = &md->schema[depth + i];

		memset(e, 0, sizeof(*e));
		e->name = "x";
		e->has_type = true;
		e->type = PQ_INT32;
	}
	md->n_schema = depth + leaves;
	CHECK_ERROR(pq_schema_build(md), ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("column paths of the schema take more than"));
	shim_free_all();
}

static void
test_page_header_hand_bytes(void)
{
	/*
	 * PageHeader { type: DATA_PAGE, uncompressed_page_size: 100,
	 * compressed_page_size: 80, crc: -2, data_page_header: { num_values: 10,
	 * encoding: PLAIN, definition_level_encoding: RLE,
	 * repetition_level_encoding: RLE } } followed by two bytes of page data.
	 */
	static const uint8 bytes[] = {
		0x15, 0x00,				/* 1: i32 0 */
		0x15, 0xc8, 0x01,		/* 2: i32 100 (zigzag 200) */
		0x15, 0xa0, 0x01,		/* 3: i32 80 (zigzag 160) */
		0x15, 0x03,				/* 4: i32 -2 (zigzag 3) */
		0x1c,					/* 5: struct */
		0x15, 0x14,				/* 1: i32 10 */
		0x15, 0x00,				/* 2: i32 0 */
		0x15, 0x06,				/* 3: i32 3 */
		0x15, 0x06,				/* 4: i32 3 */
		0x00,					/* end DataPageHeader */
		0x00,					/* end PageHeader */
		0xaa, 0xbb				/* page data */
	};
	PqPageHeader ph;
	size_t		used;

	used = pq_read_page_header(ut_exact_copy(bytes, sizeof(bytes)), sizeof(bytes), &ph);
	CHECK_EQ_INT(used, sizeof(bytes) - 2);
	CHECK_EQ_INT(ph.type, PQ_PAGE_DATA);
	CHECK_EQ_INT(ph.uncompressed_page_size, 100);
	CHECK_EQ_INT(ph.compressed_page_size, 80);
	CHECK(ph.has_crc);
	CHECK_EQ_INT(ph.crc, -2);
	CHECK(ph.has_data_page_header);
	CHECK(!ph.has_dictionary_page_header);
	CHECK(!ph.has_data_page_header_v2);
	CHECK_EQ_INT(ph.data_page_header.num_values, 10);
	CHECK_EQ_INT(ph.data_page_header.encoding, PQ_ENC_PLAIN);
	CHECK_EQ_INT(ph.data_page_header.definition_level_encoding, PQ_ENC_RLE);
	CHECK_EQ_INT(ph.data_page_header.repetition_level_encoding, PQ_ENC_RLE);
	CHECK(!ph.data_page_header.has_statistics);
}

static void
test_dictionary_and_v2_hand_bytes(void)
{
	/* DICTIONARY_PAGE with dictionary_page_header (field 7: delta 4) */
	static const uint8 dict[] = {
		0x15, 0x04,				/* type 2 */
		0x15, 0x10,				/* uncompressed 8 */
		0x15, 0x10,				/* compressed 8 */
		0x4c,					/* 7: struct */
		0x15, 0x04,				/* num_values 2 */
		0x15, 0x04,				/* encoding PLAIN_DICTIONARY */
		0x11,					/* 3: is_sorted true */
		0x00, 0x00
	};

	/*
	 * DATA_PAGE_V2 without is_compressed, with a crc given in long form
	 * (short would do, long is legal too); field 8 is then delta 4.
	 */
	static const uint8 v2[] = {
		0x15, 0x06,				/* type 3 */
		0x15, 0x20,				/* uncompressed 16 */
		0x15, 0x18,				/* compressed 12 */
		0x05, 0x08, 0x7e,		/* 4 (long form): crc 63 */
		0x4c,					/* 8: struct */
		0x15, 0x08,				/* num_values 4 */
		0x15, 0x02,				/* num_nulls 1 */
		0x15, 0x08,				/* num_rows 4 */
		0x15, 0x00,				/* encoding PLAIN */
		0x15, 0x04,				/* definition_levels_byte_length 2 */
		0x15, 0x00,				/* repetition_levels_byte_length 0 */
		0x00, 0x00
	};
	PqPageHeader ph;

	CHECK_EQ_INT(pq_read_page_header(ut_exact_copy(dict, sizeof(dict)), sizeof(dict), &ph),
				 sizeof(dict));
	CHECK_EQ_INT(ph.type, PQ_PAGE_DICTIONARY);
	CHECK(ph.has_dictionary_page_header);
	CHECK_EQ_INT(ph.dictionary_page_header.num_values, 2);
	CHECK_EQ_INT(ph.dictionary_page_header.encoding, PQ_ENC_PLAIN_DICTIONARY);
	CHECK(ph.dictionary_page_header.has_is_sorted);
	CHECK(ph.dictionary_page_header.is_sorted);

	CHECK_EQ_INT(pq_read_page_header(ut_exact_copy(v2, sizeof(v2)), sizeof(v2), &ph),
				 sizeof(v2));
	CHECK_EQ_INT(ph.type, PQ_PAGE_DATA_V2);
	CHECK(ph.has_crc);
	CHECK_EQ_INT(ph.crc, 63);
	CHECK(ph.has_data_page_header_v2);
	CHECK_EQ_INT(ph.data_page_header_v2.num_values, 4);
	CHECK_EQ_INT(ph.data_page_header_v2.num_nulls, 1);
	CHECK_EQ_INT(ph.data_page_header_v2.num_rows, 4);
	CHECK_EQ_INT(ph.data_page_header_v2.definition_levels_byte_length, 2);
	CHECK_EQ_INT(ph.data_page_header_v2.repetition_levels_byte_length, 0);
	CHECK(ph.data_page_header_v2.is_compressed);	/* the default */
}

static void
test_bloom_filter_header_hand_bytes(void)
{
	/* numBytes 32, then three unions each holding member 1 (empty struct) */
	static const uint8 bytes[] = {
		0x15, 0x40,
		0x1c, 0x1c, 0x00, 0x00,
		0x1c, 0x1c, 0x00, 0x00,
		0x1c, 0x1c, 0x00, 0x00,
		0x00
	};
	static const uint8 no_member[] = {
		0x15, 0x40, 0x1c, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00
	};
	PqBloomFilterHeader bf;
	PqBuffer	buf;

	CHECK_EQ_INT(pq_read_bloom_filter_header(ut_exact_copy(bytes, sizeof(bytes)),
											 sizeof(bytes), &bf), sizeof(bytes));
	CHECK_EQ_INT(bf.num_bytes, 32);
	CHECK_EQ_INT(bf.algorithm, 1);
	CHECK_EQ_INT(bf.hash, 1);
	CHECK_EQ_INT(bf.compression, 1);

	/* the writer produces exactly these bytes */
	pq_buffer_init(&buf, 0);
	pq_write_bloom_filter_header(&buf, &bf);
	CHECK_EQ_INT(buf.len, sizeof(bytes));
	CHECK(memcmp(buf.data, bytes, sizeof(bytes)) == 0);

	CHECK_ERROR(pq_read_bloom_filter_header(no_member, sizeof(no_member), &bf),
				ERRCODE_DATA_CORRUPTED);
}

static void
test_required_and_negative(void)
{
	static const uint8 missing[] = {0x15, 0x00, 0x15, 0xc8, 0x01, 0x00};
	static const uint8 negative[] = {0x15, 0x00, 0x15, 0x02, 0x15, 0x09, 0x00};
	/* compressed_page_size as i64: skipped, so missing */
	static const uint8 wrong_type[] = {0x15, 0x00, 0x15, 0x02, 0x16, 0x02, 0x00};
	/* data page header without definition_level_encoding */
	static const uint8 missing_nested[] = {
		0x15, 0x00, 0x15, 0x02, 0x15, 0x02, 0x2c,
		0x15, 0x02, 0x15, 0x00, 0x25, 0x06, 0x00, 0x00
	};
	/* FileMetaData: version 1, schema list of 0x7fffffff structs */
	static const uint8 absurd_schema[] = {
		0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x00, 0x00
	};
	/* FileMetaData: num_rows -1 */
	static const uint8 negative_rows[] = {
		0x15, 0x02, 0x19, 0x0c, 0x16, 0x01, 0x19, 0x0c, 0x00
	};
	PqPageHeader ph;
	PqFileMetaData md;

	CHECK_ERROR(pq_read_page_header(missing, sizeof(missing), &ph),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("PageHeader is missing required field compressed_page_size"));
	CHECK_ERROR(pq_read_page_header(negative, sizeof(negative), &ph),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("compressed_page_size is negative"));
	CHECK_ERROR(pq_read_page_header(wrong_type, sizeof(wrong_type), &ph),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("PageHeader is missing required field compressed_page_size"));
	CHECK_ERROR(pq_read_page_header(missing_nested, sizeof(missing_nested), &ph),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("DataPageHeader is missing required field "
					   "definition_level_encoding"));
	CHECK_ERROR(pq_read_file_metadata(absurd_schema, sizeof(absurd_schema), &md),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("exceeds"));
	CHECK_ERROR(pq_read_file_metadata(negative_rows, sizeof(negative_rows), &md),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("num_rows is negative"));
}

/* ---- unknown fields and union members ---- */

/* Writes one unknown field of every wire type, ids starting at first_id. */
static void
write_unknown_fields(PqThriftWriter *w, int16 first_id)
{
	static const uint8 map_bytes[] = {0x02, 0x58, 0x02, 0x01, 'a', 0x04, 0x00};
	int16		id = first_id;

	pq_thrift_write_bool_field(w, id++, true);
	pq_thrift_write_bool_field(w, id++, false);
	pq_thrift_write_i8_field(w, id++, 7);
	pq_thrift_write_i16_field(w, id++, -7);
	pq_thrift_write_i32_field(w, id++, 70000);
	pq_thrift_write_i64_field(w, id++, -INT64CONST(7000000000));
	pq_thrift_write_double_field(w, id++, 0.125);
	pq_thrift_write_binary_field(w, id++, (const uint8 *) "unknown", 7);
	pq_thrift_write_list_field(w, id++, PQ_TT_STRUCT, 1);
	pq_thrift_write_struct_begin(w);
	pq_thrift_write_list_field(w, 1, PQ_TT_TRUE, 2);
	pq_thrift_write_bool(w, true);
	pq_thrift_write_bool(w, false);
	pq_thrift_write_struct_end(w);
	pq_thrift_write_field(w, id++, PQ_TT_SET);
	pq_thrift_write_list_begin(w, PQ_TT_I32, 2);
	pq_thrift_write_i32(w, 1);
	pq_thrift_write_i32(w, 2);
	pq_thrift_write_field(w, id++, PQ_TT_MAP);
	pq_buffer_append(w->out, map_bytes, sizeof(map_bytes));
	pq_thrift_write_struct_field(w, id++);
	pq_thrift_write_struct_field(w, 3);
	pq_thrift_write_double_field(w, 1, 1.0);
	pq_thrift_write_struct_end(w);
	pq_thrift_write_struct_end(w);
}

static void
test_mismatched_types_skipped(void)
{
	/*
	 * PageHeader with crc (field 4) as binary and data_page_header (field 5)
	 * as a list: both skipped like unknown fields.
	 */
	static const uint8 bytes[] = {
		0x15, 0x00, 0x15, 0x02, 0x15, 0x02,
		0x18, 0x02, 'x', 'y',	/* 4: binary "xy" */
		0x19, 0x25, 0x02, 0x04,	/* 5: list<i32> [1, 2] */
		0x00
	};
	PqPageHeader ph;

	CHECK_EQ_INT(pq_read_page_header(ut_exact_copy(bytes, sizeof(bytes)),
									 sizeof(bytes), &ph), sizeof(bytes));
	CHECK_EQ_INT(ph.compressed_page_size, 1);
	CHECK(!ph.has_crc);
	CHECK(!ph.has_data_page_header);
}

static void
test_unknown_fields_skipped(void)
{
	PqBuffer	buf;
	PqThriftWriter w;
	PqPageHeader ph;

	/*
	 * A v2 data page header with unknown fields of every type between and
	 * after the known ones, at the top level and inside the nested struct,
	 * including the extension-style field id 32767.
	 */
	pq_buffer_init(&buf, 0);
	pq_thrift_writer_init(&w, &buf);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_i32_field(&w, 1, PQ_PAGE_DATA_V2);
	pq_thrift_write_i32_field(&w, 2, 500);
	pq_thrift_write_i32_field(&w, 3, 400);
	pq_thrift_write_struct_field(&w, 8);
	pq_thrift_write_i32_field(&w, 1, 9);
	write_unknown_fields(&w, 100);
	pq_thrift_write_i32_field(&w, 2, 0);
	pq_thrift_write_i32_field(&w, 3, 9);
	pq_thrift_write_i32_field(&w, 4, PQ_ENC_DELTA_BINARY_PACKED);
	pq_thrift_write_i32_field(&w, 5, 3);
	pq_thrift_write_i32_field(&w, 6, 0);
	pq_thrift_write_bool_field(&w, 7, false);
	pq_thrift_write_struct_end(&w);
	write_unknown_fields(&w, 9);
	pq_thrift_write_binary_field(&w, 32767, (const uint8 *) "extension", 9);
	pq_thrift_write_i64_field(&w, -3, 1);
	pq_thrift_write_struct_end(&w);

	CHECK_EQ_INT(pq_read_page_header(ut_exact_copy(buf.data, buf.len), buf.len, &ph),
				 buf.len);
	CHECK_EQ_INT(ph.type, PQ_PAGE_DATA_V2);
	CHECK_EQ_INT(ph.uncompressed_page_size, 500);
	CHECK_EQ_INT(ph.compressed_page_size, 400);
	CHECK(ph.has_data_page_header_v2);
	CHECK_EQ_INT(ph.data_page_header_v2.num_values, 9);
	CHECK_EQ_INT(ph.data_page_header_v2.num_rows, 9);
	CHECK_EQ_INT(ph.data_page_header_v2.encoding, PQ_ENC_DELTA_BINARY_PACKED);
	CHECK_EQ_INT(ph.data_page_header_v2.definition_levels_byte_length, 3);
	CHECK(!ph.data_page_header_v2.is_compressed);
}

/*
 * A minimal FileMetaData whose single leaf has the given LogicalType bytes
 * (a complete union struct) and whose one column order union is also given.
 * The column chunk has no file_offset, as some old writers produce.
 */
static void
minimal_footer(PqBuffer *buf, const uint8 *lt, size_t lt_len,
			   const uint8 *order, size_t order_len)
{
	PqThriftWriter w;

	pq_buffer_init(buf, 0);
	pq_thrift_writer_init(&w, buf);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_i32_field(&w, 1, 1);
	pq_thrift_write_list_field(&w, 2, PQ_TT_STRUCT, 2);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_string_field(&w, 4, "root");
	pq_thrift_write_i32_field(&w, 5, 1);
	pq_thrift_write_struct_end(&w);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_i32_field(&w, 1, PQ_INT64);
	pq_thrift_write_string_field(&w, 4, "leaf");
	if (lt != NULL)
	{
		pq_thrift_write_field(&w, 10, PQ_TT_STRUCT);
		pq_buffer_append(buf, lt, lt_len);
	}
	pq_thrift_write_struct_end(&w);
	pq_thrift_write_i64_field(&w, 3, 1);
	pq_thrift_write_list_field(&w, 4, PQ_TT_STRUCT, 1);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_list_field(&w, 1, PQ_TT_STRUCT, 1);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_struct_end(&w);
	pq_thrift_write_i64_field(&w, 2, 10);
	pq_thrift_write_i64_field(&w, 3, 1);
	pq_thrift_write_struct_end(&w);
	if (order != NULL)
	{
		pq_thrift_write_list_field(&w, 7, PQ_TT_STRUCT, 1);
		pq_buffer_append(buf, order, order_len);
	}
	pq_thrift_write_struct_end(&w);
}

static void
test_unknown_union_members(void)
{
	/* LogicalType member 42 holding a struct with an i32 field */
	static const uint8 lt_unknown[] = {0x0c, 0x54, 0x15, 0x02, 0x00, 0x00};
	/* empty LogicalType union: what older readers see for newer members */
	static const uint8 lt_empty[] = {0x00};
	/* TIMESTAMP with unit member 9 */
	static const uint8 lt_ts_unit9[] = {
		0x8c, 0x11, 0x1c, 0x9c, 0x00, 0x00, 0x00, 0x00
	};
	/* two members: STRING and DATE */
	static const uint8 lt_two[] = {0x1c, 0x00, 0x5c, 0x00, 0x00};
	/* INTEGER without isSigned */
	static const uint8 lt_int_missing[] = {0xac, 0x13, 0x08, 0x00, 0x00};
	/* a member that is not a struct counts as an unknown member */
	static const uint8 lt_not_struct[] = {0x15, 0x00, 0x00};
	static const uint8 order_unknown[] = {0x7c, 0x00, 0x00};
	static const uint8 order_type[] = {0x1c, 0x00, 0x00};
	PqBuffer	buf;
	PqFileMetaData md;

	minimal_footer(&buf, lt_unknown, sizeof(lt_unknown),
				   order_unknown, sizeof(order_unknown));
	CHECK_EQ_INT(pq_read_file_metadata(buf.data, buf.len, &md), buf.len);
	CHECK_EQ_INT(md.n_schema, 2);
	CHECK_EQ_INT(md.schema[0].logical_type.id, PQ_LT_NONE);
	CHECK_EQ_INT(md.schema[1].logical_type.id, PQ_LT_UNRECOGNIZED);
	CHECK_EQ_INT(md.n_column_orders, 1);
	CHECK_EQ_INT(md.column_orders[0], PQ_ORDER_UNKNOWN);
	/* ColumnChunk.file_offset absent: defaults to 0 */
	CHECK_EQ_INT(md.n_row_groups, 1);
	CHECK_EQ_INT(md.row_groups[0].n_columns, 1);
	CHECK_EQ_INT(md.row_groups[0].columns[0].file_offset, 0);
	CHECK(!md.row_groups[0].columns[0].has_meta_data);
	CHECK(md.key_value_metadata == NULL);
	CHECK(md.created_by == NULL);

	minimal_footer(&buf, lt_empty, sizeof(lt_empty), order_type, sizeof(order_type));
	pq_read_file_metadata(buf.data, buf.len, &md);
	CHECK_EQ_INT(md.schema[1].logical_type.id, PQ_LT_UNRECOGNIZED);
	CHECK_EQ_INT(md.column_orders[0], PQ_ORDER_TYPE_DEFINED);

	minimal_footer(&buf, lt_ts_unit9, sizeof(lt_ts_unit9), NULL, 0);
	pq_read_file_metadata(buf.data, buf.len, &md);
	CHECK_EQ_INT(md.schema[1].logical_type.id, PQ_LT_TIMESTAMP);
	CHECK(md.schema[1].logical_type.is_adjusted_to_utc);
	CHECK_EQ_INT(md.schema[1].logical_type.time_unit, PQ_UNIT_NONE);
	CHECK(md.column_orders == NULL);

	minimal_footer(&buf, lt_two, sizeof(lt_two), NULL, 0);
	CHECK_ERROR(pq_read_file_metadata(buf.data, buf.len, &md),
				ERRCODE_DATA_CORRUPTED);
	minimal_footer(&buf, lt_int_missing, sizeof(lt_int_missing), NULL, 0);
	CHECK_ERROR(pq_read_file_metadata(buf.data, buf.len, &md),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("IntType is missing required field isSigned"));
	minimal_footer(&buf, lt_not_struct, sizeof(lt_not_struct), NULL, 0);
	pq_read_file_metadata(buf.data, buf.len, &md);
	CHECK_EQ_INT(md.schema[1].logical_type.id, PQ_LT_UNRECOGNIZED);
}

static void
test_encryption_unions(void)
{
	/* FileCryptoMetaData { AES_GCM_V1 { aad_file_unique "u" }, key_metadata "k" } */
	static const uint8 gcm[] = {
		0x1c, 0x1c, 0x28, 0x01, 'u', 0x00, 0x00, 0x18, 0x01, 'k', 0x00
	};
	/* algorithm member 3 does not exist (yet) */
	static const uint8 unknown[] = {0x1c, 0x3c, 0x00, 0x00, 0x00};
	static const uint8 empty[] = {0x1c, 0x00, 0x00};
	static const uint8 missing[] = {0x28, 0x01, 'k', 0x00};
	PqFileCryptoMetaData cm;

	CHECK_EQ_INT(pq_read_file_crypto_metadata(ut_exact_copy(gcm, sizeof(gcm)),
											  sizeof(gcm), &cm), sizeof(gcm));
	CHECK_EQ_INT(cm.encryption_algorithm.kind, PQ_AES_GCM_V1);
	CHECK(cm.encryption_algorithm.aad_prefix.ptr == NULL);
	CHECK(cm.encryption_algorithm.aad_file_unique.len == 1);
	CHECK(!cm.encryption_algorithm.supply_aad_prefix);
	CHECK(cm.key_metadata.len == 1 && cm.key_metadata.ptr[0] == 'k');

	CHECK_ERROR(pq_read_file_crypto_metadata(unknown, sizeof(unknown), &cm),
				ERRCODE_FEATURE_NOT_SUPPORTED);
	CHECK_ERROR(pq_read_file_crypto_metadata(empty, sizeof(empty), &cm),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_read_file_crypto_metadata(missing, sizeof(missing), &cm),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("FileCryptoMetaData is missing required field "
					   "encryption_algorithm"));
}

static void
test_depth_limit_in_metadata(void)
{
	PqBuffer	buf;
	PqThriftWriter w;
	PqPageHeader ph;
	int			i;

	/* unknown field 20 holding 100 nested structs (field 1 in each) */
	pq_buffer_init(&buf, 0);
	pq_thrift_writer_init(&w, &buf);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_i32_field(&w, 1, 0);
	pq_thrift_write_i32_field(&w, 2, 0);
	pq_thrift_write_i32_field(&w, 3, 0);
	pq_thrift_write_field(&w, 20, PQ_TT_STRUCT);
	for (i = 0; i < 99; i++)
		pq_buffer_append_byte(&buf, 0x1c);
	for (i = 0; i < 101; i++)
		pq_buffer_append_byte(&buf, 0x00);
	CHECK_ERROR(pq_read_page_header(buf.data, buf.len, &ph),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("nested deeper"));
}

/* ---- round trips ---- */

static void
test_file_metadata_round_trip(void)
{
	PqFileMetaData md;
	PqFileMetaData back;
	PqBuffer	buf;
	PqBuffer	again;
	const uint8 *copy;

	build_file_metadata(&md);
	pq_buffer_init(&buf, 0);
	pq_write_file_metadata(&buf, &md);
	copy = ut_exact_copy(buf.data, buf.len);
	CHECK_EQ_INT(pq_read_file_metadata(copy, buf.len, &back), buf.len);
	compare_file_metadata(&md, &back);
	CHECK_EQ_INT(ut_failures_in_test, 0);

	/* decoded binaries point into the input */
	CHECK(back.footer_signing_key_metadata.ptr >= copy &&
		  back.footer_signing_key_metadata.ptr < copy + buf.len);

	/* re-encoding what was decoded gives the same bytes */
	pq_buffer_init(&again, 0);
	pq_write_file_metadata(&again, &back);
	CHECK_EQ_INT(again.len, buf.len);
	CHECK(memcmp(again.data, buf.data, buf.len) == 0);
}

static void
test_file_metadata_minimal_round_trip(void)
{
	PqFileMetaData md;
	PqFileMetaData back;
	PqSchemaElement root;
	PqBuffer	buf;

	/* nothing optional set: no optional field may appear or be invented */
	memset(&md, 0, sizeof(md));
	memset(&root, 0, sizeof(root));
	root.name = "";
	md.version = 1;
	md.schema = &root;
	md.n_schema = 1;
	pq_buffer_init(&buf, 0);
	pq_write_file_metadata(&buf, &md);
	/* 1: i32 1; 2: list of 1 struct {4: ""}; 3: i64 0; 4: empty list; stop */
	{
		static const uint8 expected[] = {
			0x15, 0x02, 0x19, 0x1c, 0x48, 0x00, 0x00, 0x16, 0x00, 0x19, 0x0c, 0x00
		};

		CHECK_EQ_INT(buf.len, sizeof(expected));
		CHECK(memcmp(buf.data, expected, sizeof(expected)) == 0);
	}
	pq_read_file_metadata(buf.data, buf.len, &back);
	compare_file_metadata(&md, &back);
	CHECK_EQ_INT(back.encryption_algorithm.kind, PQ_ENCRYPTION_NONE);
	CHECK(back.footer_signing_key_metadata.ptr == NULL);
}

static void
check_all_truncations(const uint8 *data, size_t len,
					  size_t (*reader) (const uint8 *, size_t, void *),
					  void *out)
{
	size_t		i;

	for (i = 0; i < len; i++)
	{
		uint8	   *prefix = palloc(i > 0 ? i : 1);

		memcpy(prefix, data, i);
		CHECK_ERROR(reader(prefix, i, out), ERRCODE_DATA_CORRUPTED);
		pfree(prefix);
	}
}

static size_t
read_fmd(const uint8 *b, size_t l, void *o)
{
	return pq_read_file_metadata(b, l, o);
}

static size_t
read_ph(const uint8 *b, size_t l, void *o)
{
	return pq_read_page_header(b, l, o);
}

static size_t
read_ci(const uint8 *b, size_t l, void *o)
{
	return pq_read_column_index(b, l, o);
}

static size_t
read_oi(const uint8 *b, size_t l, void *o)
{
	return pq_read_offset_index(b, l, o);
}

static size_t
read_cmd(const uint8 *b, size_t l, void *o)
{
	return pq_read_column_metadata(b, l, o);
}

static size_t
read_fcm(const uint8 *b, size_t l, void *o)
{
	return pq_read_file_crypto_metadata(b, l, o);
}

static size_t
read_bf(const uint8 *b, size_t l, void *o)
{
	return pq_read_bloom_filter_header(b, l, o);
}

static void
test_file_metadata_truncated(void)
{
	PqFileMetaData md;
	PqFileMetaData back;
	PqBuffer	buf;

	build_file_metadata(&md);
	pq_buffer_init(&buf, 0);
	pq_write_file_metadata(&buf, &md);
	check_all_truncations(buf.data, buf.len, read_fmd, &back);
}

/* xorshift: deterministic mutations */
static uint32
next_random(uint32 *state)
{
	uint32		x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static void
test_file_metadata_mutations(void)
{
	PqFileMetaData md;
	PqFileMetaData back;
	PqBuffer	buf;
	uint32		state = 0x12345678;
	uint8	   *copy;
	int			iter;
	int			decoded = 0;

	build_file_metadata(&md);
	pq_buffer_init(&buf, 0);
	pq_write_file_metadata(&buf, &md);
	copy = palloc(buf.len);
	for (iter = 0; iter < 3000; iter++)
	{
		int			nmut = 1 + next_random(&state) % 4;
		int			k;
		volatile bool ok = true;

		memcpy(copy, buf.data, buf.len);
		for (k = 0; k < nmut; k++)
			copy[next_random(&state) % buf.len] = (uint8) next_random(&state);
		shim_last_sqlstate = 0;
		PG_TRY();
		{
			pq_read_file_metadata(copy, buf.len, &back);
		}
		PG_CATCH();
		{
			ok = false;
		}
		PG_END_TRY();
		if (ok)
			decoded++;
		else
			CHECK(shim_last_sqlstate == ERRCODE_DATA_CORRUPTED ||
				  shim_last_sqlstate == ERRCODE_FEATURE_NOT_SUPPORTED);
	}
	/* some mutations only change values: both outcomes must occur */
	CHECK(decoded > 0 && decoded < 3000);
}

static void
test_page_header_round_trip(void)
{
	PqPageHeader ph[3];
	PqPageHeader back;
	int			i;

	memset(ph, 0, sizeof(ph));
	ph[0].type = PQ_PAGE_DATA;
	ph[0].uncompressed_page_size = 1 << 20;
	ph[0].compressed_page_size = 12345;
	ph[0].has_crc = true;
	ph[0].crc = (int32) 0x89abcdef;
	ph[0].has_data_page_header = true;
	ph[0].data_page_header.num_values = 1000;
	ph[0].data_page_header.encoding = PQ_ENC_RLE_DICTIONARY;
	ph[0].data_page_header.definition_level_encoding = PQ_ENC_RLE;
	ph[0].data_page_header.repetition_level_encoding = PQ_ENC_BIT_PACKED;
	ph[0].data_page_header.has_statistics = true;
	fill_statistics(&ph[0].data_page_header.statistics);

	ph[1].type = PQ_PAGE_DICTIONARY;
	ph[1].uncompressed_page_size = 0;
	ph[1].compressed_page_size = 0;
	ph[1].has_dictionary_page_header = true;
	ph[1].dictionary_page_header.num_values = 0;
	ph[1].dictionary_page_header.encoding = PQ_ENC_PLAIN;
	ph[1].dictionary_page_header.has_is_sorted = true;
	ph[1].dictionary_page_header.is_sorted = false;

	ph[2].type = PQ_PAGE_DATA_V2;
	ph[2].uncompressed_page_size = 70;
	ph[2].compressed_page_size = 50;
	ph[2].has_data_page_header_v2 = true;
	ph[2].data_page_header_v2.num_values = 20;
	ph[2].data_page_header_v2.num_nulls = 5;
	ph[2].data_page_header_v2.num_rows = 10;
	ph[2].data_page_header_v2.encoding = PQ_ENC_DELTA_BYTE_ARRAY;
	ph[2].data_page_header_v2.definition_levels_byte_length = 6;
	ph[2].data_page_header_v2.repetition_levels_byte_length = 4;
	ph[2].data_page_header_v2.is_compressed = false;
	ph[2].data_page_header_v2.has_statistics = true;
	fill_statistics(&ph[2].data_page_header_v2.statistics);

	for (i = 0; i < 3; i++)
	{
		PqBuffer	buf;
		const PqDataPageHeaderV2 *a2 = &ph[i].data_page_header_v2;
		const PqDataPageHeaderV2 *b2 = &back.data_page_header_v2;

		pq_buffer_init(&buf, 0);
		pq_write_page_header(&buf, &ph[i]);
		/* page data follows the header */
		pq_buffer_append(&buf, "DATA", 4);
		CHECK_EQ_INT(pq_read_page_header(ut_exact_copy(buf.data, buf.len), buf.len, &back),
					 buf.len - 4);
		CHECK_EQ_INT(back.type, ph[i].type);
		CHECK_EQ_INT(back.uncompressed_page_size, ph[i].uncompressed_page_size);
		CHECK_EQ_INT(back.compressed_page_size, ph[i].compressed_page_size);
		CHECK(back.has_crc == ph[i].has_crc && back.crc == ph[i].crc);
		CHECK_EQ_INT(back.has_data_page_header, ph[i].has_data_page_header);
		CHECK_EQ_INT(back.data_page_header.num_values, ph[i].data_page_header.num_values);
		CHECK_EQ_INT(back.data_page_header.encoding, ph[i].data_page_header.encoding);
		CHECK_EQ_INT(back.data_page_header.definition_level_encoding,
					 ph[i].data_page_header.definition_level_encoding);
		CHECK_EQ_INT(back.data_page_header.repetition_level_encoding,
					 ph[i].data_page_header.repetition_level_encoding);
		CHECK_EQ_INT(back.data_page_header.has_statistics,
					 ph[i].data_page_header.has_statistics);
		if (back.data_page_header.has_statistics)
			compare_statistics(&back.data_page_header.statistics,
							   &ph[i].data_page_header.statistics);
		CHECK_EQ_INT(back.has_dictionary_page_header, ph[i].has_dictionary_page_header);
		CHECK_EQ_INT(back.dictionary_page_header.num_values,
					 ph[i].dictionary_page_header.num_values);
		CHECK_EQ_INT(back.dictionary_page_header.encoding,
					 ph[i].dictionary_page_header.encoding);
		CHECK_EQ_INT(back.dictionary_page_header.has_is_sorted,
					 ph[i].dictionary_page_header.has_is_sorted);
		CHECK_EQ_INT(back.dictionary_page_header.is_sorted,
					 ph[i].dictionary_page_header.is_sorted);
		CHECK_EQ_INT(back.has_data_page_header_v2, ph[i].has_data_page_header_v2);
		if (back.has_data_page_header_v2)
		{
			CHECK_EQ_INT(b2->num_values, a2->num_values);
			CHECK_EQ_INT(b2->num_nulls, a2->num_nulls);
			CHECK_EQ_INT(b2->num_rows, a2->num_rows);
			CHECK_EQ_INT(b2->encoding, a2->encoding);
			CHECK_EQ_INT(b2->definition_levels_byte_length,
						 a2->definition_levels_byte_length);
			CHECK_EQ_INT(b2->repetition_levels_byte_length,
						 a2->repetition_levels_byte_length);
			CHECK_EQ_INT(b2->is_compressed, a2->is_compressed);
			CHECK_EQ_INT(b2->has_statistics, a2->has_statistics);
			compare_statistics(&b2->statistics, &a2->statistics);
		}
		check_all_truncations(buf.data, buf.len - 4, read_ph, &back);
	}
}

static void
test_index_round_trip(void)
{
	static bool null_pages[] = {false, true, false};
	static int64 null_counts[] = {0, 100, 3};
	static int64 rep_hist[] = {1, 2, 3, 4, 5, 6};
	static int64 def_hist[] = {6, 5, 4, 3, 2, 1};
	static int64 nan_counts[] = {0, 0, 9};
	static PqPageLocation locs[20];
	static int64 unenc[20];
	PqBytes		mins[3];
	PqBytes		maxs[3];
	PqColumnIndex ci;
	PqColumnIndex ci_back;
	PqOffsetIndex oi;
	PqOffsetIndex oi_back;
	PqBuffer	buf;
	int			i;

	mins[0] = mkbytes("aaa");
	mins[1] = mkbytes("");
	mins[2] = mkbytes("m");
	maxs[0] = mkbytes("abz");
	maxs[1].ptr = NULL;			/* null page: written as empty */
	maxs[1].len = 0;
	maxs[2] = mkbytes("zzzz");
	memset(&ci, 0, sizeof(ci));
	ci.null_pages = null_pages;
	ci.n_null_pages = 3;
	ci.min_values = mins;
	ci.n_min_values = 3;
	ci.max_values = maxs;
	ci.n_max_values = 3;
	ci.boundary_order = PQ_BOUNDARY_ASCENDING;
	ci.null_counts = null_counts;
	ci.n_null_counts = 3;
	ci.repetition_level_histograms = rep_hist;
	ci.n_repetition_level_histograms = 6;
	ci.definition_level_histograms = def_hist;
	ci.n_definition_level_histograms = 6;
	ci.nan_counts = nan_counts;
	ci.n_nan_counts = 3;

	pq_buffer_init(&buf, 0);
	pq_write_column_index(&buf, &ci);
	CHECK_EQ_INT(pq_read_column_index(ut_exact_copy(buf.data, buf.len), buf.len, &ci_back),
				 buf.len);
	CHECK_EQ_INT(ci_back.n_null_pages, 3);
	for (i = 0; i < 3; i++)
		CHECK_EQ_INT(ci_back.null_pages[i], null_pages[i]);
	CHECK_EQ_INT(ci_back.n_min_values, 3);
	CHECK_EQ_INT(ci_back.n_max_values, 3);
	for (i = 0; i < 3; i++)
	{
		CHECK(bytes_eq(ci_back.min_values[i], mins[i]));
		if (i != 1)
			CHECK(bytes_eq(ci_back.max_values[i], maxs[i]));
	}
	CHECK(ci_back.max_values[1].ptr != NULL && ci_back.max_values[1].len == 0);
	CHECK_EQ_INT(ci_back.boundary_order, PQ_BOUNDARY_ASCENDING);
	CHECK(i64_array_eq(ci_back.null_counts, ci_back.n_null_counts, null_counts, 3));
	CHECK(i64_array_eq(ci_back.repetition_level_histograms,
					   ci_back.n_repetition_level_histograms, rep_hist, 6));
	CHECK(i64_array_eq(ci_back.definition_level_histograms,
					   ci_back.n_definition_level_histograms, def_hist, 6));
	CHECK(i64_array_eq(ci_back.nan_counts, ci_back.n_nan_counts, nan_counts, 3));
	check_all_truncations(buf.data, buf.len, read_ci, &ci_back);

	/* optional lists absent stay absent */
	ci.null_counts = NULL;
	ci.nan_counts = NULL;
	ci.repetition_level_histograms = NULL;
	ci.definition_level_histograms = NULL;
	pq_buffer_reset(&buf);
	pq_write_column_index(&buf, &ci);
	pq_read_column_index(buf.data, buf.len, &ci_back);
	CHECK(ci_back.null_counts == NULL && ci_back.nan_counts == NULL);
	CHECK(ci_back.repetition_level_histograms == NULL);
	CHECK(ci_back.definition_level_histograms == NULL);

	/* 20 page locations: the list header needs the long form */
	for (i = 0; i < 20; i++)
	{
		locs[i].offset = INT64CONST(4000000000) + i * 1000;
		locs[i].compressed_page_size = 1000 - i;
		locs[i].first_row_index = i * 50;
		unenc[i] = i * 7;
	}
	memset(&oi, 0, sizeof(oi));
	oi.page_locations = locs;
	oi.n_page_locations = 20;
	oi.unencoded_byte_array_data_bytes = unenc;
	oi.n_unencoded_byte_array_data_bytes = 20;
	pq_buffer_reset(&buf);
	pq_write_offset_index(&buf, &oi);
	CHECK_EQ_INT(buf.data[0], 0x19);
	CHECK_EQ_INT(buf.data[1], 0xfc);
	CHECK_EQ_INT(buf.data[2], 20);
	CHECK_EQ_INT(pq_read_offset_index(ut_exact_copy(buf.data, buf.len), buf.len, &oi_back),
				 buf.len);
	CHECK_EQ_INT(oi_back.n_page_locations, 20);
	for (i = 0; i < 20; i++)
	{
		CHECK_EQ_INT(oi_back.page_locations[i].offset, locs[i].offset);
		CHECK_EQ_INT(oi_back.page_locations[i].compressed_page_size,
					 locs[i].compressed_page_size);
		CHECK_EQ_INT(oi_back.page_locations[i].first_row_index,
					 locs[i].first_row_index);
	}
	CHECK(i64_array_eq(oi_back.unencoded_byte_array_data_bytes,
					   oi_back.n_unencoded_byte_array_data_bytes, unenc, 20));
	check_all_truncations(buf.data, buf.len, read_oi, &oi_back);

	oi.unencoded_byte_array_data_bytes = NULL;
	pq_buffer_reset(&buf);
	pq_write_offset_index(&buf, &oi);
	pq_read_offset_index(buf.data, buf.len, &oi_back);
	CHECK(oi_back.unencoded_byte_array_data_bytes == NULL);
}

static void
test_other_round_trips(void)
{
	PqColumnMetaData cmd;
	PqColumnMetaData cmd_back;
	PqFileCryptoMetaData fcm;
	PqFileCryptoMetaData fcm_back;
	PqBloomFilterHeader bf;
	PqBloomFilterHeader bf_back;
	PqBuffer	buf;

	/* ColumnMetaData on its own: the form of encrypted_column_metadata */
	fill_column_metadata(&cmd, 5);
	pq_buffer_init(&buf, 0);
	pq_write_column_metadata(&buf, &cmd);
	CHECK_EQ_INT(pq_read_column_metadata(ut_exact_copy(buf.data, buf.len),
										 buf.len, &cmd_back), buf.len);
	compare_column_metadata(&cmd, &cmd_back);
	check_all_truncations(buf.data, buf.len, read_cmd, &cmd_back);

	memset(&fcm, 0, sizeof(fcm));
	fcm.encryption_algorithm.kind = PQ_AES_GCM_V1;
	fcm.encryption_algorithm.aad_prefix = mkbytes("prefix");
	fcm.encryption_algorithm.aad_file_unique = mkbytes("uniq");
	fcm.encryption_algorithm.supply_aad_prefix = true;
	fcm.key_metadata = mkbytes("footer-key");
	pq_buffer_reset(&buf);
	pq_write_file_crypto_metadata(&buf, &fcm);
	CHECK_EQ_INT(pq_read_file_crypto_metadata(ut_exact_copy(buf.data, buf.len),
											  buf.len, &fcm_back), buf.len);
	compare_encryption(&fcm.encryption_algorithm, &fcm_back.encryption_algorithm);
	CHECK(bytes_eq(fcm.key_metadata, fcm_back.key_metadata));
	check_all_truncations(buf.data, buf.len, read_fcm, &fcm_back);

	bf.num_bytes = 1 << 20;
	bf.algorithm = 1;
	bf.hash = 1;
	bf.compression = 1;
	pq_buffer_reset(&buf);
	pq_write_bloom_filter_header(&buf, &bf);
	CHECK_EQ_INT(pq_read_bloom_filter_header(ut_exact_copy(buf.data, buf.len),
											 buf.len, &bf_back), buf.len);
	CHECK_EQ_INT(bf_back.num_bytes, 1 << 20);
	CHECK_EQ_INT(bf_back.algorithm, 1);
	CHECK_EQ_INT(bf_back.hash, 1);
	CHECK_EQ_INT(bf_back.compression, 1);
	check_all_truncations(buf.data, buf.len, read_bf, &bf_back);
}

/* ---- the parquet-testing corpus ---- */

#define CORPUS_CHECKS 4

static const char *
corpus_dir(void)
{
	static char path[1024];
	const char *base = getenv("PARQUET_TESTING_DIR");
	struct stat st;

	if (base == NULL)
		base = "../shared/testdata/parquet-testing";
	snprintf(path, sizeof(path), "%s/data", base);
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return NULL;
	snprintf(path, sizeof(path), "%s", base);
	return path;
}

static uint8 *
read_whole_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	uint8	   *data;
	long		size;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = palloc(size > 0 ? size : 1);
	if (fread(data, 1, size, f) != (size_t) size)
		size = 0;
	fclose(f);
	*len = size;
	return data;
}

/*
 * The footer of a plaintext file: [footer][4-byte LE length]["PAR1"].
 * Returns NULL (len 0) when the file is not one.
 */
static const uint8 *
footer_of(const uint8 *file, size_t file_len, const char *magic,
		  size_t *footer_len)
{
	uint32		flen;

	*footer_len = 0;
	if (file_len < 12 || memcmp(file + file_len - 4, magic, 4) != 0)
		return NULL;
	flen = pq_load_le32(file + file_len - 8);
	if (flen > file_len - 12)
		return NULL;
	*footer_len = flen;
	return ut_exact_copy(file + file_len - 8 - flen, flen);
}

static void
test_corpus_alltypes_plain(void)
{
	static const char *const names[] = {
		"id", "bool_col", "tinyint_col", "smallint_col", "int_col",
		"bigint_col", "float_col", "double_col", "date_string_col",
		"string_col", "timestamp_col"
	};
	char		path[1200];
	uint8	   *file;
	size_t		file_len;
	const uint8 *footer;
	size_t		footer_len;
	PqFileMetaData md;
	PqPageHeader ph;
	const PqColumnMetaData *cm;
	int			i;

	snprintf(path, sizeof(path), "%s/data/alltypes_plain.parquet", corpus_dir());
	file = read_whole_file(path, &file_len);
	CHECK(file != NULL);
	footer = footer_of(file, file_len, "PAR1", &footer_len);
	CHECK(footer != NULL);
	CHECK_EQ_INT(pq_read_file_metadata(footer, footer_len, &md), footer_len);
	CHECK_EQ_INT(md.num_rows, 8);
	CHECK_EQ_INT(md.n_schema, 12);
	CHECK_EQ_INT(md.schema[0].num_children, 11);
	for (i = 0; i < 11; i++)
	{
		CHECK(strcmp(md.schema[i + 1].name, names[i]) == 0);
		CHECK(md.schema[i + 1].has_type);
	}
	CHECK_EQ_INT(md.schema[1].type, PQ_INT32);
	CHECK_EQ_INT(md.schema[2].type, PQ_BOOLEAN);
	CHECK_EQ_INT(md.schema[11].type, PQ_INT96);
	CHECK_EQ_INT(md.n_row_groups, 1);
	CHECK_EQ_INT(md.row_groups[0].num_rows, 8);
	CHECK_EQ_INT(md.row_groups[0].n_columns, 11);

	/* the first page of column "id" is a readable page header */
	cm = &md.row_groups[0].columns[0].meta_data;
	CHECK(md.row_groups[0].columns[0].has_meta_data);
	CHECK_EQ_INT(cm->n_path_in_schema, 1);
	CHECK(strcmp(cm->path_in_schema[0], "id") == 0);
	CHECK_EQ_INT(cm->num_values, 8);
	CHECK(cm->data_page_offset > 0 && (size_t) cm->data_page_offset < file_len);
	pq_read_page_header(file + cm->data_page_offset,
						file_len - cm->data_page_offset, &ph);
	CHECK(ph.type == PQ_PAGE_DATA || ph.type == PQ_PAGE_DICTIONARY);
	CHECK(ph.compressed_page_size > 0);
}

static void
test_corpus_unknown_logical_type(void)
{
	char		path[1200];
	uint8	   *file;
	size_t		file_len;
	const uint8 *footer;
	size_t		footer_len;
	PqFileMetaData md;
	int			unrecognized = 0;
	int			i;

	snprintf(path, sizeof(path), "%s/data/unknown-logical-type.parquet",
			 corpus_dir());
	file = read_whole_file(path, &file_len);
	CHECK(file != NULL);
	footer = footer_of(file, file_len, "PAR1", &footer_len);
	CHECK(footer != NULL);
	pq_read_file_metadata(footer, footer_len, &md);
	for (i = 0; i < md.n_schema; i++)
		if (md.schema[i].logical_type.id == PQ_LT_UNRECOGNIZED)
			unrecognized++;
	CHECK_EQ_INT(unrecognized, 1);
}

/*
 * Decode a plaintext-footer file thoroughly: the footer, the first page
 * header of every column chunk, page indexes and bloom filter headers; then
 * re-encode the footer and check the encoding is stable.
 */
static void
decode_corpus_file(const uint8 *file, size_t file_len, const uint8 *footer,
				   size_t footer_len, bool encrypted_columns)
{
	PqFileMetaData md;
	PqFileMetaData back;
	PqBuffer	b1;
	PqBuffer	b2;
	int			g,
				c;

	CHECK_EQ_INT(pq_read_file_metadata(footer, footer_len, &md), footer_len);
	for (g = 0; g < md.n_row_groups && !encrypted_columns; g++)
	{
		for (c = 0; c < md.row_groups[g].n_columns; c++)
		{
			const PqColumnChunk *cc = &md.row_groups[g].columns[c];
			const PqColumnMetaData *cm = &cc->meta_data;
			int64		start;
			PqPageHeader ph;
			PqColumnIndex ci;
			PqOffsetIndex oi;
			PqBloomFilterHeader bf;

			if (!cc->has_meta_data || cc->file_path != NULL)
				continue;
			/*
			 * The chunk starts at the smaller valid offset; offsets inside
			 * the leading magic mean "absent" (some writers put 0 there,
			 * even in data_page_offset of an empty chunk).
			 */
			start = cm->data_page_offset;
			if (cm->has_dictionary_page_offset &&
				cm->dictionary_page_offset >= 4 &&
				(start < 4 || cm->dictionary_page_offset < start))
				start = cm->dictionary_page_offset;
			if (start >= 4)
			{
				CHECK(start < (int64) file_len);
				pq_read_page_header(file + start, file_len - start, &ph);
				CHECK(ph.compressed_page_size <= (int64) file_len - start);
			}
			if (cc->has_column_index_offset && cc->has_column_index_length)
			{
				CHECK(cc->column_index_offset + cc->column_index_length <=
					  (int64) file_len);
				CHECK_EQ_INT(pq_read_column_index(file + cc->column_index_offset,
												  cc->column_index_length, &ci),
							 cc->column_index_length);
				CHECK_EQ_INT(ci.n_null_pages, ci.n_min_values);
			}
			if (cc->has_offset_index_offset && cc->has_offset_index_length)
			{
				CHECK(cc->offset_index_offset + cc->offset_index_length <=
					  (int64) file_len);
				CHECK_EQ_INT(pq_read_offset_index(file + cc->offset_index_offset,
												  cc->offset_index_length, &oi),
							 cc->offset_index_length);
				CHECK(oi.n_page_locations > 0);
				CHECK_EQ_INT(oi.page_locations[0].first_row_index, 0);
			}
			if (cm->has_bloom_filter_offset)
			{
				CHECK(cm->bloom_filter_offset < (int64) file_len);
				pq_read_bloom_filter_header(file + cm->bloom_filter_offset,
											file_len - cm->bloom_filter_offset,
											&bf);
				CHECK_EQ_INT(bf.algorithm, 1);
				CHECK(bf.num_bytes > 0);
			}
		}
	}

	/* the writer refuses LogicalTypes it does not know */
	for (g = 0; g < md.n_schema; g++)
		if (md.schema[g].logical_type.id == PQ_LT_UNRECOGNIZED)
			md.schema[g].logical_type.id = PQ_LT_NONE;
	pq_buffer_init(&b1, footer_len);
	pq_write_file_metadata(&b1, &md);
	pq_read_file_metadata(b1.data, b1.len, &back);
	compare_file_metadata(&md, &back);
	pq_buffer_init(&b2, b1.len);
	pq_write_file_metadata(&b2, &back);
	CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
}

static int	corpus_files_decoded;

/* One corpus file: decode what a reader would decode. */
static void
check_corpus_file(const char *path, bool bad)
{
	uint8	   *file;
	size_t		file_len;
	const uint8 *footer;
	size_t		footer_len;

	file = read_whole_file(path, &file_len);
	CHECK(file != NULL);
	if (bad)
	{
		footer = footer_of(file, file_len, "PAR1", &footer_len);
		if (footer != NULL)
			decode_corpus_file(file, file_len, footer, footer_len, false);
	}
	else if ((footer = footer_of(file, file_len, "PARE", &footer_len)) != NULL)
	{
		/* encrypted footer: FileCryptoMetaData comes first, in clear */
		PqFileCryptoMetaData cm;

		CHECK(pq_read_file_crypto_metadata(footer, footer_len, &cm) < footer_len);
		CHECK(cm.encryption_algorithm.kind == PQ_AES_GCM_V1 ||
			  cm.encryption_algorithm.kind == PQ_AES_GCM_CTR_V1);
	}
	else
	{
		footer = footer_of(file, file_len, "PAR1", &footer_len);
		CHECK(footer != NULL);
		if (strstr(path, ".encrypted") != NULL)
		{
			PqFileMetaData md;

			/* plaintext footer: signed, columns encrypted */
			pq_read_file_metadata(footer, footer_len, &md);
			CHECK(md.encryption_algorithm.kind != PQ_ENCRYPTION_NONE);
		}
		else
			decode_corpus_file(file, file_len, footer, footer_len, false);
	}
	pfree(file);
}

static int	corpus_files_decoded;

static bool
ends_with(const char *s, const char *suffix)
{
	size_t		n = strlen(s);
	size_t		k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/*
 * Every .parquet file under dir, recursively; stops at the first failure.
 * Valid files must decode; bad ones may also fail, but only as corrupt.
 */
static void
walk_corpus(const char *dir, bool bad)
{
	DIR		   *d = opendir(dir);
	struct dirent *de;

	if (d == NULL)
		return;
	while (ut_failures_in_test == 0 && (de = readdir(d)) != NULL)
	{
		char		path[2048];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk_corpus(path, bad);
		else if (ends_with(de->d_name, ".parquet") ||
				 ends_with(de->d_name, ".parquet.encrypted"))
		{
			volatile bool raised = false;

			PG_TRY();
			{
				check_corpus_file(path, bad);
			}
			PG_CATCH();
			{
				raised = true;
			}
			PG_END_TRY();
			if (raised && (!bad || shim_last_sqlstate != ERRCODE_DATA_CORRUPTED))
				ut_fail(__FILE__, __LINE__, "unexpected ERROR");
			if (ut_failures_in_test > 0)
				fprintf(stderr, "  while decoding %s: %s\n", path,
						shim_last_message);
			corpus_files_decoded++;
		}
	}
	closedir(d);
}

static void
test_corpus_all_footers(void)
{
	char		path[1200];

	corpus_files_decoded = 0;
	snprintf(path, sizeof(path), "%s/data", corpus_dir());
	walk_corpus(path, false);
	snprintf(path, sizeof(path), "%s/shredded_variant", corpus_dir());
	walk_corpus(path, false);
	snprintf(path, sizeof(path), "%s/variant", corpus_dir());
	walk_corpus(path, false);
	CHECK(corpus_files_decoded > 50);
}

static void
test_corpus_bad_data(void)
{
	char		path[1200];
	char		file_path[1300];
	uint8	   *file;
	size_t		file_len;
	const uint8 *footer;
	size_t		footer_len;
	PqFileMetaData md;
	const PqColumnMetaData *cm;
	PqPageHeader ph;

	snprintf(path, sizeof(path), "%s/bad_data", corpus_dir());
	walk_corpus(path, true);

	/*
	 * Its first page header was fuzzed: DataPageHeader.num_values has wire
	 * type i16, so (as in Thrift's generated readers) the field is skipped
	 * and the required field is missing.
	 */
	snprintf(file_path, sizeof(file_path),
			 "%s/ARROW-RS-GH-6229-DICTHEADER.parquet", path);
	file = read_whole_file(file_path, &file_len);
	CHECK(file != NULL);
	footer = footer_of(file, file_len, "PAR1", &footer_len);
	CHECK(footer != NULL);
	pq_read_file_metadata(footer, footer_len, &md);
	CHECK(md.n_row_groups > 0 && md.row_groups[0].n_columns > 0);
	cm = &md.row_groups[0].columns[0].meta_data;
	CHECK(cm->data_page_offset < (int64) file_len);
	CHECK_ERROR(pq_read_page_header(file + cm->data_page_offset,
									file_len - cm->data_page_offset, &ph),
				ERRCODE_DATA_CORRUPTED);
	CHECK(msg_contains("DataPageHeader is missing required field num_values"));
}

void
suite_metadata(void)
{
	ut_run("metadata_page_header_hand_bytes", test_page_header_hand_bytes);
	ut_run("metadata_dictionary_and_v2_hand_bytes",
		   test_dictionary_and_v2_hand_bytes);
	ut_run("metadata_bloom_filter_header_hand_bytes",
		   test_bloom_filter_header_hand_bytes);
	ut_run("metadata_required_and_negative", test_required_and_negative);
	ut_run("metadata_mismatched_types_skipped", test_mismatched_types_skipped);
	ut_run("metadata_unknown_fields_skipped", test_unknown_fields_skipped);
	ut_run("metadata_unknown_union_members", test_unknown_union_members);
	ut_run("metadata_encryption_unions", test_encryption_unions);
	ut_run("metadata_depth_limit", test_depth_limit_in_metadata);
	ut_run("metadata_file_metadata_round_trip", test_file_metadata_round_trip);
	ut_run("metadata_file_metadata_minimal_round_trip",
		   test_file_metadata_minimal_round_trip);
	ut_run("metadata_file_metadata_truncated", test_file_metadata_truncated);
	ut_run("metadata_file_metadata_mutations", test_file_metadata_mutations);
	ut_run("metadata_page_header_round_trip", test_page_header_round_trip);
	ut_run("metadata_index_round_trip", test_index_round_trip);
	ut_run("metadata_other_round_trips", test_other_round_trips);
	ut_run("metadata_find_field_hinted", test_find_field_hinted);
	ut_run("metadata_schema_depth", test_schema_depth);
	ut_run("metadata_schema_path_bytes", test_schema_path_bytes);
	ut_run("metadata_flba_width_limit", test_flba_width_limit);

	if (corpus_dir() == NULL)
	{
		printf("#\n# corpus absent: skipping %d corpus unit checks\n#\n",
			   CORPUS_CHECKS);
		return;
	}
	ut_run("metadata_corpus_alltypes_plain", test_corpus_alltypes_plain);
	ut_run("metadata_corpus_unknown_logical_type",
		   test_corpus_unknown_logical_type);
	ut_run("metadata_corpus_all_footers", test_corpus_all_footers);
	ut_run("metadata_corpus_bad_data", test_corpus_bad_data);
}
