/*-------------------------------------------------------------------------
 *
 * metadata_read_page.c
 *		Decoders for the structures read apart from the footer: page headers
 *		(data v1 and v2, dictionary), the page index (OffsetIndex with its
 *		PageLocations, ColumnIndex) and the bloom filter header.
 *
 *-------------------------------------------------------------------------
 */
#include "pq_common.h"

#include "metadata_read_int.h"

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
				out->num_values = pq_md_rd_size32(r, st, "num_values");
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
				pq_md_read_statistics(r, &out->statistics);
				out->has_statistics = true;
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "num_values");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "encoding");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "definition_level_encoding");
	if (!(seen & FIELD_BIT(4)))
		pq_md_missing_field(st, "repetition_level_encoding");
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
			out->num_values = pq_md_rd_size32(r, st, "num_values");
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
		pq_md_missing_field(st, "num_values");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "encoding");
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
				out->num_values = pq_md_rd_size32(r, st, names[1]);
				break;
			case 2:
				out->num_nulls = pq_md_rd_size32(r, st, names[2]);
				break;
			case 3:
				out->num_rows = pq_md_rd_size32(r, st, names[3]);
				break;
			case 4:
				out->encoding = pq_thrift_read_i32(r);
				break;
			case 5:
				out->definition_levels_byte_length =
					pq_md_rd_size32(r, st, names[5]);
				break;
			case 6:
				out->repetition_levels_byte_length =
					pq_md_rd_size32(r, st, names[6]);
				break;
			case 7:
				out->is_compressed = (type == PQ_TT_TRUE);
				break;
			case 8:
				pq_md_read_statistics(r, &out->statistics);
				out->has_statistics = true;
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	for (i = 1; i <= 6; i++)
		if (!(seen & FIELD_BIT(i)))
			pq_md_missing_field(st, names[i]);
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
					pq_md_rd_size32(r, st, "uncompressed_page_size");
				break;
			case 3:
				out->compressed_page_size =
					pq_md_rd_size32(r, st, "compressed_page_size");
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
		pq_md_missing_field(st, "type");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "uncompressed_page_size");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "compressed_page_size");
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
			out->offset = pq_md_rd_size64(r, st, "offset");
		else if (id == 2)
			out->compressed_page_size =
				pq_md_rd_size32(r, st, "compressed_page_size");
		else
			out->first_row_index = pq_md_rd_size64(r, st, "first_row_index");
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "offset");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "compressed_page_size");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "first_row_index");
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
			count = pq_md_rd_list(r, PQ_TT_STRUCT, st, "page_locations");
			for (i = 0; i < count; i++)
			{
				out->page_locations =
					pq_md_grow_list(out->page_locations, &cap, i, count,
									sizeof(PqPageLocation));
				read_page_location(r, &out->page_locations[i]);
			}
			pq_thrift_read_list_end(r);
			out->n_page_locations = count;
			has_locations = true;
		}
		else
			out->unencoded_byte_array_data_bytes =
				pq_md_rd_i64_list(r, st, "unencoded_byte_array_data_bytes",
								  &out->n_unencoded_byte_array_data_bytes);
	}
	pq_thrift_read_struct_end(r);
	if (!has_locations)
		pq_md_missing_field(st, "page_locations");
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
				count = pq_md_rd_list(r, PQ_TT_TRUE, st, "null_pages");
				out->null_pages = palloc(sizeof(bool) * count);
				for (i = 0; i < count; i++)
					out->null_pages[i] = pq_thrift_read_bool(r);
				pq_thrift_read_list_end(r);
				out->n_null_pages = count;
				break;
			case 2:
				out->min_values = pq_md_rd_binary_list(r, st, "min_values",
													   &out->n_min_values);
				break;
			case 3:
				out->max_values = pq_md_rd_binary_list(r, st, "max_values",
													   &out->n_max_values);
				break;
			case 4:
				out->boundary_order = pq_thrift_read_i32(r);
				break;
			case 5:
				out->null_counts = pq_md_rd_i64_list(r, st, "null_counts",
													 &out->n_null_counts);
				break;
			case 6:
				out->repetition_level_histograms =
					pq_md_rd_i64_list(r, st, "repetition_level_histograms",
									  &out->n_repetition_level_histograms);
				break;
			case 7:
				out->definition_level_histograms =
					pq_md_rd_i64_list(r, st, "definition_level_histograms",
									  &out->n_definition_level_histograms);
				break;
			case 8:
				out->nan_counts = pq_md_rd_i64_list(r, st, "nan_counts",
													&out->n_nan_counts);
				break;
		}
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	if (!(seen & FIELD_BIT(1)))
		pq_md_missing_field(st, "null_pages");
	if (!(seen & FIELD_BIT(2)))
		pq_md_missing_field(st, "min_values");
	if (!(seen & FIELD_BIT(3)))
		pq_md_missing_field(st, "max_values");
	if (!(seen & FIELD_BIT(4)))
		pq_md_missing_field(st, "boundary_order");
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
			out->num_bytes = pq_md_rd_size32(r, "BloomFilterHeader", names[1]);
		else if (!pq_md_rd_union_id(r, unions[id], slots[id]))
			pq_corrupt("%s union has no member", unions[id]);
		seen |= FIELD_BIT(id);
	}
	pq_thrift_read_struct_end(r);
	for (i = 1; i <= 4; i++)
		if (!(seen & FIELD_BIT(i)))
			pq_md_missing_field("BloomFilterHeader", names[i]);
}

/* ---- entry points ---- */

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
