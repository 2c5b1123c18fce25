/*-------------------------------------------------------------------------
 *
 * metadata_write.c
 *		Encoders for the Parquet Thrift structures (compact protocol).
 *
 * Fields are written in increasing id order and absent optional fields are
 * omitted, as Thrift's own generated writers do, so that parquet-java,
 * Arrow and DuckDB read the result.  Each write_* function emits one
 * complete struct (field headers and stop byte); the caller writes the
 * field header or list header in front of it.
 *
 *-------------------------------------------------------------------------
 */
#include "pq_common.h"

#include "metadata.h"
#include "thrift.h"

static void
write_bytes_field(PqThriftWriter *w, int16 id, PqBytes b)
{
	if (b.ptr != NULL)
		pq_thrift_write_binary_field(w, id, b.ptr, b.len);
}

static void
write_i32_list_field(PqThriftWriter *w, int16 id, const int32 *v, int n)
{
	int			i;

	pq_thrift_write_list_field(w, id, PQ_TT_I32, n);
	for (i = 0; i < n; i++)
		pq_thrift_write_i32(w, v[i]);
}

static void
write_i64_list_field(PqThriftWriter *w, int16 id, const int64 *v, int n)
{
	int			i;

	pq_thrift_write_list_field(w, id, PQ_TT_I64, n);
	for (i = 0; i < n; i++)
		pq_thrift_write_i64(w, v[i]);
}

static void
write_string_list_field(PqThriftWriter *w, int16 id, char *const *v, int n)
{
	int			i;

	pq_thrift_write_list_field(w, id, PQ_TT_BINARY, n);
	for (i = 0; i < n; i++)
		pq_thrift_write_string(w, v[i]);
}

static void
write_binary_list_field(PqThriftWriter *w, int16 id, const PqBytes *v, int n)
{
	int			i;

	pq_thrift_write_list_field(w, id, PQ_TT_BINARY, n);
	for (i = 0; i < n; i++)
		pq_thrift_write_binary(w, v[i].ptr, v[i].len);
}

/* A union whose member is an empty struct: TimeUnit, ColumnOrder, ... */
static void
write_empty_member_union(PqThriftWriter *w, int16 member)
{
	pq_thrift_write_struct_begin(w);
	pq_thrift_write_struct_field(w, member);
	pq_thrift_write_struct_end(w);
	pq_thrift_write_struct_end(w);
}

static void
write_statistics(PqThriftWriter *w, const PqStatistics *s)
{
	pq_thrift_write_struct_begin(w);
	write_bytes_field(w, 1, s->max);
	write_bytes_field(w, 2, s->min);
	if (s->has_null_count)
		pq_thrift_write_i64_field(w, 3, s->null_count);
	if (s->has_distinct_count)
		pq_thrift_write_i64_field(w, 4, s->distinct_count);
	write_bytes_field(w, 5, s->max_value);
	write_bytes_field(w, 6, s->min_value);
	if (s->has_is_max_value_exact)
		pq_thrift_write_bool_field(w, 7, s->is_max_value_exact);
	if (s->has_is_min_value_exact)
		pq_thrift_write_bool_field(w, 8, s->is_min_value_exact);
	if (s->has_nan_count)
		pq_thrift_write_i64_field(w, 9, s->nan_count);
	pq_thrift_write_struct_end(w);
}

static void
write_logical_type(PqThriftWriter *w, const PqLogicalType *lt)
{
	pq_thrift_write_struct_begin(w);
	pq_thrift_write_struct_field(w, (int16) lt->id);
	switch (lt->id)
	{
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
			break;
		case PQ_LT_DECIMAL:
			pq_thrift_write_i32_field(w, 1, lt->decimal_scale);
			pq_thrift_write_i32_field(w, 2, lt->decimal_precision);
			break;
		case PQ_LT_TIME:
		case PQ_LT_TIMESTAMP:
			if (lt->time_unit < PQ_UNIT_MILLIS || lt->time_unit > PQ_UNIT_NANOS)
				elog(ERROR, "cannot write time unit %d", lt->time_unit);
			pq_thrift_write_bool_field(w, 1, lt->is_adjusted_to_utc);
			pq_thrift_write_field(w, 2, PQ_TT_STRUCT);
			write_empty_member_union(w, (int16) lt->time_unit);
			break;
		case PQ_LT_INTEGER:
			pq_thrift_write_i8_field(w, 1, (int8) lt->int_bit_width);
			pq_thrift_write_bool_field(w, 2, lt->int_is_signed);
			break;
		case PQ_LT_VARIANT:
			if (lt->has_variant_spec_version)
				pq_thrift_write_i8_field(w, 1, (int8) lt->variant_spec_version);
			break;
		case PQ_LT_GEOMETRY:
		case PQ_LT_GEOGRAPHY:
			if (lt->geo_crs != NULL)
				pq_thrift_write_string_field(w, 1, lt->geo_crs);
			if (lt->id == PQ_LT_GEOGRAPHY && lt->has_geo_algorithm)
				pq_thrift_write_i32_field(w, 2, lt->geo_algorithm);
			break;
		default:
			elog(ERROR, "cannot write LogicalType %d", lt->id);
	}
	pq_thrift_write_struct_end(w);
	pq_thrift_write_struct_end(w);
}

static void
write_schema_element(PqThriftWriter *w, const PqSchemaElement *se)
{
	pq_thrift_write_struct_begin(w);
	if (se->has_type)
		pq_thrift_write_i32_field(w, 1, se->type);
	if (se->has_type_length)
		pq_thrift_write_i32_field(w, 2, se->type_length);
	if (se->has_repetition_type)
		pq_thrift_write_i32_field(w, 3, se->repetition_type);
	pq_thrift_write_string_field(w, 4, se->name);
	if (se->has_num_children)
		pq_thrift_write_i32_field(w, 5, se->num_children);
	if (se->has_converted_type)
		pq_thrift_write_i32_field(w, 6, se->converted_type);
	if (se->has_scale)
		pq_thrift_write_i32_field(w, 7, se->scale);
	if (se->has_precision)
		pq_thrift_write_i32_field(w, 8, se->precision);
	if (se->has_field_id)
		pq_thrift_write_i32_field(w, 9, se->field_id);
	if (se->logical_type.id != PQ_LT_NONE)
	{
		pq_thrift_write_field(w, 10, PQ_TT_STRUCT);
		write_logical_type(w, &se->logical_type);
	}
	pq_thrift_write_struct_end(w);
}

static void
write_key_value_list_field(PqThriftWriter *w, int16 id, const PqKeyValue *kv,
						   int n)
{
	int			i;

	pq_thrift_write_list_field(w, id, PQ_TT_STRUCT, n);
	for (i = 0; i < n; i++)
	{
		pq_thrift_write_struct_begin(w);
		pq_thrift_write_string_field(w, 1, kv[i].key);
		if (kv[i].value != NULL)
			pq_thrift_write_string_field(w, 2, kv[i].value);
		pq_thrift_write_struct_end(w);
	}
}

static void
write_size_statistics(PqThriftWriter *w, const PqSizeStatistics *s)
{
	pq_thrift_write_struct_begin(w);
	if (s->has_unencoded_byte_array_data_bytes)
		pq_thrift_write_i64_field(w, 1, s->unencoded_byte_array_data_bytes);
	if (s->repetition_level_histogram != NULL)
		write_i64_list_field(w, 2, s->repetition_level_histogram,
							 s->n_repetition_level_histogram);
	if (s->definition_level_histogram != NULL)
		write_i64_list_field(w, 3, s->definition_level_histogram,
							 s->n_definition_level_histogram);
	pq_thrift_write_struct_end(w);
}

static void
write_geospatial_statistics(PqThriftWriter *w,
							const PqGeospatialStatistics *g)
{
	pq_thrift_write_struct_begin(w);
	if (g->has_bbox)
	{
		const PqBoundingBox *b = &g->bbox;

		pq_thrift_write_struct_field(w, 1);
		pq_thrift_write_double_field(w, 1, b->xmin);
		pq_thrift_write_double_field(w, 2, b->xmax);
		pq_thrift_write_double_field(w, 3, b->ymin);
		pq_thrift_write_double_field(w, 4, b->ymax);
		if (b->has_z)
		{
			pq_thrift_write_double_field(w, 5, b->zmin);
			pq_thrift_write_double_field(w, 6, b->zmax);
		}
		if (b->has_m)
		{
			pq_thrift_write_double_field(w, 7, b->mmin);
			pq_thrift_write_double_field(w, 8, b->mmax);
		}
		pq_thrift_write_struct_end(w);
	}
	if (g->geospatial_types != NULL)
		write_i32_list_field(w, 2, g->geospatial_types, g->n_geospatial_types);
	pq_thrift_write_struct_end(w);
}

static void
write_column_metadata(PqThriftWriter *w, const PqColumnMetaData *md)
{
	int			i;

	pq_thrift_write_struct_begin(w);
	pq_thrift_write_i32_field(w, 1, md->type);
	write_i32_list_field(w, 2, md->encodings, md->n_encodings);
	write_string_list_field(w, 3, md->path_in_schema, md->n_path_in_schema);
	pq_thrift_write_i32_field(w, 4, md->codec);
	pq_thrift_write_i64_field(w, 5, md->num_values);
	pq_thrift_write_i64_field(w, 6, md->total_uncompressed_size);
	pq_thrift_write_i64_field(w, 7, md->total_compressed_size);
	if (md->key_value_metadata != NULL)
		write_key_value_list_field(w, 8, md->key_value_metadata,
								   md->n_key_value_metadata);
	pq_thrift_write_i64_field(w, 9, md->data_page_offset);
	if (md->has_index_page_offset)
		pq_thrift_write_i64_field(w, 10, md->index_page_offset);
	if (md->has_dictionary_page_offset)
		pq_thrift_write_i64_field(w, 11, md->dictionary_page_offset);
	if (md->has_statistics)
	{
		pq_thrift_write_field(w, 12, PQ_TT_STRUCT);
		write_statistics(w, &md->statistics);
	}
	if (md->has_encoding_stats)
	{
		pq_thrift_write_list_field(w, 13, PQ_TT_STRUCT, md->n_encoding_stats);
		for (i = 0; i < md->n_encoding_stats; i++)
		{
			const PqPageEncodingStats *es = &md->encoding_stats[i];

			pq_thrift_write_struct_begin(w);
			pq_thrift_write_i32_field(w, 1, es->page_type);
			pq_thrift_write_i32_field(w, 2, es->encoding);
			pq_thrift_write_i32_field(w, 3, es->count);
			pq_thrift_write_struct_end(w);
		}
	}
	if (md->has_bloom_filter_offset)
		pq_thrift_write_i64_field(w, 14, md->bloom_filter_offset);
	if (md->has_bloom_filter_length)
		pq_thrift_write_i32_field(w, 15, md->bloom_filter_length);
	if (md->has_size_statistics)
	{
		pq_thrift_write_field(w, 16, PQ_TT_STRUCT);
		write_size_statistics(w, &md->size_statistics);
	}
	if (md->has_geospatial_statistics)
	{
		pq_thrift_write_field(w, 17, PQ_TT_STRUCT);
		write_geospatial_statistics(w, &md->geospatial_statistics);
	}
	pq_thrift_write_struct_end(w);
}

static void
write_column_crypto_metadata(PqThriftWriter *w,
							 const PqColumnCryptoMetaData *cc)
{
	pq_thrift_write_struct_begin(w);
	if (cc->kind == PQ_CRYPTO_FOOTER_KEY)
		pq_thrift_write_struct_field(w, PQ_CRYPTO_FOOTER_KEY);
	else if (cc->kind == PQ_CRYPTO_COLUMN_KEY)
	{
		pq_thrift_write_struct_field(w, PQ_CRYPTO_COLUMN_KEY);
		write_string_list_field(w, 1, cc->path_in_schema,
								cc->n_path_in_schema);
		write_bytes_field(w, 2, cc->key_metadata);
	}
	else
		elog(ERROR, "cannot write column crypto kind %d", cc->kind);
	pq_thrift_write_struct_end(w);
	pq_thrift_write_struct_end(w);
}

static void
write_column_chunk(PqThriftWriter *w, const PqColumnChunk *cc)
{
	pq_thrift_write_struct_begin(w);
	if (cc->file_path != NULL)
		pq_thrift_write_string_field(w, 1, cc->file_path);
	pq_thrift_write_i64_field(w, 2, cc->file_offset);
	if (cc->has_meta_data)
	{
		pq_thrift_write_field(w, 3, PQ_TT_STRUCT);
		write_column_metadata(w, &cc->meta_data);
	}
	if (cc->has_offset_index_offset)
		pq_thrift_write_i64_field(w, 4, cc->offset_index_offset);
	if (cc->has_offset_index_length)
		pq_thrift_write_i32_field(w, 5, cc->offset_index_length);
	if (cc->has_column_index_offset)
		pq_thrift_write_i64_field(w, 6, cc->column_index_offset);
	if (cc->has_column_index_length)
		pq_thrift_write_i32_field(w, 7, cc->column_index_length);
	if (cc->crypto_metadata.kind != PQ_CRYPTO_NONE)
	{
		pq_thrift_write_field(w, 8, PQ_TT_STRUCT);
		write_column_crypto_metadata(w, &cc->crypto_metadata);
	}
	write_bytes_field(w, 9, cc->encrypted_column_metadata);
	pq_thrift_write_struct_end(w);
}

static void
write_row_group(PqThriftWriter *w, const PqRowGroup *rg)
{
	int			i;

	pq_thrift_write_struct_begin(w);
	pq_thrift_write_list_field(w, 1, PQ_TT_STRUCT, rg->n_columns);
	for (i = 0; i < rg->n_columns; i++)
		write_column_chunk(w, &rg->columns[i]);
	pq_thrift_write_i64_field(w, 2, rg->total_byte_size);
	pq_thrift_write_i64_field(w, 3, rg->num_rows);
	if (rg->sorting_columns != NULL)
	{
		pq_thrift_write_list_field(w, 4, PQ_TT_STRUCT, rg->n_sorting_columns);
		for (i = 0; i < rg->n_sorting_columns; i++)
		{
			const PqSortingColumn *sc = &rg->sorting_columns[i];

			pq_thrift_write_struct_begin(w);
			pq_thrift_write_i32_field(w, 1, sc->column_idx);
			pq_thrift_write_bool_field(w, 2, sc->descending);
			pq_thrift_write_bool_field(w, 3, sc->nulls_first);
			pq_thrift_write_struct_end(w);
		}
	}
	if (rg->has_file_offset)
		pq_thrift_write_i64_field(w, 5, rg->file_offset);
	if (rg->has_total_compressed_size)
		pq_thrift_write_i64_field(w, 6, rg->total_compressed_size);
	if (rg->has_ordinal)
		pq_thrift_write_i16_field(w, 7, rg->ordinal);
	pq_thrift_write_struct_end(w);
}

static void
write_encryption_algorithm(PqThriftWriter *w, const PqEncryptionAlgorithm *ea)
{
	if (ea->kind != PQ_AES_GCM_V1 && ea->kind != PQ_AES_GCM_CTR_V1)
		elog(ERROR, "cannot write encryption algorithm %d", ea->kind);
	pq_thrift_write_struct_begin(w);
	pq_thrift_write_struct_field(w, (int16) ea->kind);
	write_bytes_field(w, 1, ea->aad_prefix);
	write_bytes_field(w, 2, ea->aad_file_unique);
	if (ea->supply_aad_prefix)
		pq_thrift_write_bool_field(w, 3, true);
	pq_thrift_write_struct_end(w);
	pq_thrift_write_struct_end(w);
}

static void
write_file_metadata(PqThriftWriter *w, const PqFileMetaData *md)
{
	int			i;

	pq_thrift_write_struct_begin(w);
	pq_thrift_write_i32_field(w, 1, md->version);
	pq_thrift_write_list_field(w, 2, PQ_TT_STRUCT, md->n_schema);
	for (i = 0; i < md->n_schema; i++)
		write_schema_element(w, &md->schema[i]);
	pq_thrift_write_i64_field(w, 3, md->num_rows);
	pq_thrift_write_list_field(w, 4, PQ_TT_STRUCT, md->n_row_groups);
	for (i = 0; i < md->n_row_groups; i++)
		write_row_group(w, &md->row_groups[i]);
	if (md->key_value_metadata != NULL)
		write_key_value_list_field(w, 5, md->key_value_metadata,
								   md->n_key_value_metadata);
	if (md->created_by != NULL)
		pq_thrift_write_string_field(w, 6, md->created_by);
	if (md->column_orders != NULL)
	{
		pq_thrift_write_list_field(w, 7, PQ_TT_STRUCT, md->n_column_orders);
		for (i = 0; i < md->n_column_orders; i++)
		{
			int			kind = md->column_orders[i];

			if (kind < PQ_ORDER_TYPE_DEFINED || kind > PQ_ORDER_INT96_TIMESTAMP)
				elog(ERROR, "cannot write column order %d", kind);
			write_empty_member_union(w, (int16) kind);
		}
	}
	if (md->encryption_algorithm.kind != PQ_ENCRYPTION_NONE)
	{
		pq_thrift_write_field(w, 8, PQ_TT_STRUCT);
		write_encryption_algorithm(w, &md->encryption_algorithm);
	}
	write_bytes_field(w, 9, md->footer_signing_key_metadata);
	pq_thrift_write_struct_end(w);
}

static void
write_page_header(PqThriftWriter *w, const PqPageHeader *ph)
{
	pq_thrift_write_struct_begin(w);
	pq_thrift_write_i32_field(w, 1, ph->type);
	pq_thrift_write_i32_field(w, 2, ph->uncompressed_page_size);
	pq_thrift_write_i32_field(w, 3, ph->compressed_page_size);
	if (ph->has_crc)
		pq_thrift_write_i32_field(w, 4, ph->crc);
	if (ph->has_data_page_header)
	{
		const PqDataPageHeader *d = &ph->data_page_header;

		pq_thrift_write_struct_field(w, 5);
		pq_thrift_write_i32_field(w, 1, d->num_values);
		pq_thrift_write_i32_field(w, 2, d->encoding);
		pq_thrift_write_i32_field(w, 3, d->definition_level_encoding);
		pq_thrift_write_i32_field(w, 4, d->repetition_level_encoding);
		if (d->has_statistics)
		{
			pq_thrift_write_field(w, 5, PQ_TT_STRUCT);
			write_statistics(w, &d->statistics);
		}
		pq_thrift_write_struct_end(w);
	}
	if (ph->has_dictionary_page_header)
	{
		const PqDictionaryPageHeader *d = &ph->dictionary_page_header;

		pq_thrift_write_struct_field(w, 7);
		pq_thrift_write_i32_field(w, 1, d->num_values);
		pq_thrift_write_i32_field(w, 2, d->encoding);
		if (d->has_is_sorted)
			pq_thrift_write_bool_field(w, 3, d->is_sorted);
		pq_thrift_write_struct_end(w);
	}
	if (ph->has_data_page_header_v2)
	{
		const PqDataPageHeaderV2 *d = &ph->data_page_header_v2;

		pq_thrift_write_struct_field(w, 8);
		pq_thrift_write_i32_field(w, 1, d->num_values);
		pq_thrift_write_i32_field(w, 2, d->num_nulls);
		pq_thrift_write_i32_field(w, 3, d->num_rows);
		pq_thrift_write_i32_field(w, 4, d->encoding);
		pq_thrift_write_i32_field(w, 5, d->definition_levels_byte_length);
		pq_thrift_write_i32_field(w, 6, d->repetition_levels_byte_length);
		/* always explicit: the default (true) is easy to get wrong */
		pq_thrift_write_bool_field(w, 7, d->is_compressed);
		if (d->has_statistics)
		{
			pq_thrift_write_field(w, 8, PQ_TT_STRUCT);
			write_statistics(w, &d->statistics);
		}
		pq_thrift_write_struct_end(w);
	}
	pq_thrift_write_struct_end(w);
}

/* ---- entry points ---- */

void
pq_write_file_metadata(PqBuffer *out, const PqFileMetaData *md)
{
	PqThriftWriter w;

	pq_thrift_writer_init(&w, out);
	write_file_metadata(&w, md);
}

void
pq_write_file_crypto_metadata(PqBuffer *out, const PqFileCryptoMetaData *md)
{
	PqThriftWriter w;

	pq_thrift_writer_init(&w, out);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_field(&w, 1, PQ_TT_STRUCT);
	write_encryption_algorithm(&w, &md->encryption_algorithm);
	write_bytes_field(&w, 2, md->key_metadata);
	pq_thrift_write_struct_end(&w);
}

void
pq_write_column_metadata(PqBuffer *out, const PqColumnMetaData *md)
{
	PqThriftWriter w;

	pq_thrift_writer_init(&w, out);
	write_column_metadata(&w, md);
}

void
pq_write_page_header(PqBuffer *out, const PqPageHeader *ph)
{
	PqThriftWriter w;

	pq_thrift_writer_init(&w, out);
	write_page_header(&w, ph);
}

void
pq_write_offset_index(PqBuffer *out, const PqOffsetIndex *oi)
{
	PqThriftWriter w;
	int			i;

	pq_thrift_writer_init(&w, out);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_list_field(&w, 1, PQ_TT_STRUCT, oi->n_page_locations);
	for (i = 0; i < oi->n_page_locations; i++)
	{
		const PqPageLocation *pl = &oi->page_locations[i];

		pq_thrift_write_struct_begin(&w);
		pq_thrift_write_i64_field(&w, 1, pl->offset);
		pq_thrift_write_i32_field(&w, 2, pl->compressed_page_size);
		pq_thrift_write_i64_field(&w, 3, pl->first_row_index);
		pq_thrift_write_struct_end(&w);
	}
	if (oi->unencoded_byte_array_data_bytes != NULL)
		write_i64_list_field(&w, 2, oi->unencoded_byte_array_data_bytes,
							 oi->n_unencoded_byte_array_data_bytes);
	pq_thrift_write_struct_end(&w);
}

void
pq_write_column_index(PqBuffer *out, const PqColumnIndex *ci)
{
	PqThriftWriter w;
	int			i;

	pq_thrift_writer_init(&w, out);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_list_field(&w, 1, PQ_TT_TRUE, ci->n_null_pages);
	for (i = 0; i < ci->n_null_pages; i++)
		pq_thrift_write_bool(&w, ci->null_pages[i]);
	write_binary_list_field(&w, 2, ci->min_values, ci->n_min_values);
	write_binary_list_field(&w, 3, ci->max_values, ci->n_max_values);
	pq_thrift_write_i32_field(&w, 4, ci->boundary_order);
	if (ci->null_counts != NULL)
		write_i64_list_field(&w, 5, ci->null_counts, ci->n_null_counts);
	if (ci->repetition_level_histograms != NULL)
		write_i64_list_field(&w, 6, ci->repetition_level_histograms,
							 ci->n_repetition_level_histograms);
	if (ci->definition_level_histograms != NULL)
		write_i64_list_field(&w, 7, ci->definition_level_histograms,
							 ci->n_definition_level_histograms);
	if (ci->nan_counts != NULL)
		write_i64_list_field(&w, 8, ci->nan_counts, ci->n_nan_counts);
	pq_thrift_write_struct_end(&w);
}

void
pq_write_bloom_filter_header(PqBuffer *out, const PqBloomFilterHeader *bf)
{
	PqThriftWriter w;

	pq_thrift_writer_init(&w, out);
	pq_thrift_write_struct_begin(&w);
	pq_thrift_write_i32_field(&w, 1, bf->num_bytes);
	pq_thrift_write_field(&w, 2, PQ_TT_STRUCT);
	write_empty_member_union(&w, (int16) bf->algorithm);
	pq_thrift_write_field(&w, 3, PQ_TT_STRUCT);
	write_empty_member_union(&w, (int16) bf->hash);
	pq_thrift_write_field(&w, 4, PQ_TT_STRUCT);
	write_empty_member_union(&w, (int16) bf->compression);
	pq_thrift_write_struct_end(&w);
}
