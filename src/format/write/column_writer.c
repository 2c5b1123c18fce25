/*-------------------------------------------------------------------------
 *
 * column_writer.c
 *		Levels and values of one leaf column -> pages of a column chunk.
 *
 * Input is cut into slices of about SLICE_LEVELS level entries ending at
 * row boundaries (and shorter when byte arrays are large); after each
 * slice the page is flushed once its estimated size reaches the page
 * size, so pages start at row boundaries, as the OffsetIndex requires.
 *
 * Dictionary encoding starts every chunk.  At the end of the first page
 * with values, or after DICT_SAMPLE_BYTES of its values if that comes
 * first, the dictionary must make the page smaller than PLAIN would, else
 * the page is re-encoded and the chunk gets no dictionary; once the
 * dictionary outgrows its limit, the current page is flushed and the rest
 * of the chunk uses the fallback encoding (v1: PLAIN; v2: DELTA_BINARY_PACKED for
 * integers, the smaller of DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY
 * for byte arrays, chosen at the chunk's first such page, else PLAIN).
 * BOOLEAN is never dictionary encoded: PLAIN in v1 pages, RLE in v2.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/codec/codec.h"
#include "format/common/pq_common.h"
#include "format/encoding/encoding.h"
#include "format/metadata/bloom.h"
#include "format/write/column_writer.h"

/* Level entries per slice: how often the page size is checked. */
#define SLICE_LEVELS 1024

/*
 * PLAIN bytes after which the dictionary must have paid off, if the first
 * page has not ended before: distinct values cost a hash lookup each, so
 * columns of mostly distinct values leave the dictionary early.
 */
#define DICT_SAMPLE_BYTES 65536

static void
reset_page(PqColumnWriter *cw)
{
	pq_buffer_reset(&cw->def);
	pq_buffer_reset(&cw->rep);
	pq_buffer_reset(&cw->values);
	pq_buffer_reset(&cw->ids);
	cw->page_levels = 0;
	cw->page_values = 0;
	cw->page_rows = 0;
	cw->page_plain_bytes = 0;
	pq_stats_reset(&cw->page_stats);
	if (++cw->page_number == 0)
	{
		/* wrapped: no entry may look seen in the new page */
		memset(cw->entry_page, 0, sizeof(uint32) * cw->cap_entry_page);
		cw->page_number = 1;
	}
}

static bool
uses_dictionary(const PqColumnWriterConfig *cfg)
{
	return cfg->dictionary && cfg->physical_type != PQ_BOOLEAN;
}

PqColumnWriter *
pq_column_writer_create(const PqColumnWriterConfig *cfg)
{
	PqColumnWriter *cw = palloc0(sizeof(PqColumnWriter));

	cw->cfg = *cfg;
	cw->width = cfg->physical_type == PQ_BYTE_ARRAY ? 0 :
		pq_fixed_width(cfg->physical_type, cfg->type_length);
	cw->track_stats = cfg->statistics || cfg->page_statistics ||
		cfg->page_index;
	pq_buffer_init(&cw->def, 1024);
	pq_buffer_init(&cw->rep, 64);
	pq_buffer_init(&cw->values, 4096);
	pq_buffer_init(&cw->ids, 1024);
	pq_buffer_init(&cw->pages, 4096);
	pq_buffer_init(&cw->dict_page, 64);
	pq_buffer_init(&cw->bounds, 256);
	pq_buffer_init(&cw->enc, 4096);
	pq_buffer_init(&cw->body, 4096);
	pq_buffer_init(&cw->header, 256);
	pq_buffer_init(&cw->tmp, 256);
	pq_buffer_init(&cw->sealed, 64);
	pq_stats_init(&cw->page_stats, cfg->physical_type, cfg->type_length,
				  &cfg->logical, cfg->converted_type);
	pq_stats_init(&cw->chunk_stats, cfg->physical_type, cfg->type_length,
				  &cfg->logical, cfg->converted_type);
	if (uses_dictionary(cfg))
		pq_dict_init(&cw->dict, cw->width);

	/*
	 * Byte-wise bounds cost a comparison per value; a dictionary page's
	 * bounds are those of the entries it uses, met once each.  Float bounds
	 * stay per value: every NaN is counted.
	 */
	cw->stats_by_entry = uses_dictionary(cfg) && cw->track_stats &&
		(cw->page_stats.order == PQ_SORT_BYTES ||
		 cw->page_stats.order == PQ_SORT_DECIMAL);
	if (cw->stats_by_entry)
	{
		cw->cap_entry_page = 256;
		cw->entry_page = palloc0(sizeof(uint32) * cw->cap_entry_page);
		pq_buffer_init(&cw->page_entries, 256);
	}
	if (cfg->bloom_filter)
		pq_hashset_init(&cw->bloom_hashes);
	cw->cap_pages = 16;
	cw->page_info = palloc(sizeof(PqPageInfo) * cw->cap_pages);
	reset_page(cw);
	cw->chunk_ordinal = -1;
	pq_column_writer_reset_chunk(cw);
	return cw;
}

void
pq_column_writer_reset_chunk(PqColumnWriter *cw)
{
	cw->dict_state = uses_dictionary(&cw->cfg) ? PQ_DICT_ACTIVE : PQ_DICT_NONE;
	if (uses_dictionary(&cw->cfg))
		pq_dict_reset(&cw->dict);
	cw->dict_checked = false;
	cw->fallback_encoding = -1;
	pq_buffer_reset(&cw->pages);
	pq_buffer_reset(&cw->dict_page);
	pq_buffer_reset(&cw->bounds);
	cw->n_pages = 0;
	cw->index_ok = true;
	pq_stats_reset(&cw->chunk_stats);
	if (cw->cfg.bloom_filter)
		pq_hashset_reset(&cw->bloom_hashes);
	memset(cw->page_encodings, 0, sizeof(cw->page_encodings));
	cw->num_values = 0;
	cw->num_rows = 0;
	cw->chunk_ordinal++;
	cw->uncompressed_bytes = 0;
	cw->compressed_bytes = 0;
}

/* ---- pages ---- */

/* RLE levels; v1 pages prefix them with their 4-byte length. */
static void
encode_levels(PqBuffer *out, const PqBuffer *levels, int n, int max_level,
			  bool prefixed)
{
	const int16 *lv = (const int16 *) levels->data;
	size_t		start = out->len;
	PqRleEncoder e;

	if (prefixed)
	{
		pq_buffer_reserve(out, 4);
		out->len += 4;
	}
	pq_rle_encoder_init(&e, out, pq_bit_width32((uint32) max_level));
	pq_rle_encoder_put_levels(&e, lv, n);
	pq_rle_encoder_flush(&e);
	if (prefixed)
		pq_store_le32(out->data + start, (uint32) (out->len - start - 4));
}

/*
 * Does the dictionary pay for itself on the chunk's first page with values?
 * Both sides count the dictionary as written once more for this page.
 */
static bool
dictionary_pays(const PqColumnWriter *cw)
{
	int			bw = pq_bit_width32((uint32) cw->dict.n_entries);
	int64		dict_bytes = (int64) cw->dict.plain.len + 1 +
	((int64) cw->page_values * bw + 7) / 8;

	return dict_bytes < cw->page_plain_bytes;
}

/* Turn the page's dictionary ids back into PLAIN values; no dictionary. */
static void
abandon_dictionary(PqColumnWriter *cw)
{
	const uint32 *ids = (const uint32 *) cw->ids.data;
	int			i;

	pq_buffer_reset(&cw->values);
	for (i = 0; i < cw->page_values; i++)
	{
		uint32		len;
		const uint8 *v = pq_dict_entry(&cw->dict, (int) ids[i], &len);

		/* byte array entries are preceded by their PLAIN length prefix */
		if (cw->width == 0)
			pq_buffer_append(&cw->values, v - 4, (size_t) len + 4);
		else
			pq_buffer_append(&cw->values, v, len);
	}
	pq_buffer_reset(&cw->ids);
	pq_dict_reset(&cw->dict);
	cw->dict_state = PQ_DICT_NONE;
}

/* v2 byte arrays: the smaller DELTA encoding, chosen once per chunk. */
static int
encode_delta_bytes(PqColumnWriter *cw, PqBuffer *out)
{
	int			n = cw->page_values;
	PqByteArray *ba;
	const uint8 *p = cw->values.data;
	size_t		start = out->len;
	int			i;

	pq_buffer_reset(&cw->tmp);
	pq_buffer_reserve(&cw->tmp, sizeof(PqByteArray) * n);
	ba = (PqByteArray *) cw->tmp.data;
	for (i = 0; i < n; i++)
	{
		ba[i].len = pq_load_le32(p);
		ba[i].ptr = p + 4;
		p += 4 + ba[i].len;
	}
	if (cw->fallback_encoding < 0)
	{
		/* body is free until the values are compressed into it */
		pq_delta_length_encode(out, ba, n);
		pq_buffer_reset(&cw->body);
		pq_delta_byte_array_encode(&cw->body, ba, n);
		if (cw->body.len < out->len - start)
		{
			out->len = start;
			pq_buffer_append(out, cw->body.data, cw->body.len);
			cw->fallback_encoding = PQ_ENC_DELTA_BYTE_ARRAY;
		}
		else
			cw->fallback_encoding = PQ_ENC_DELTA_LENGTH_BYTE_ARRAY;
	}
	else if (cw->fallback_encoding == PQ_ENC_DELTA_BYTE_ARRAY)
		pq_delta_byte_array_encode(out, ba, n);
	else
		pq_delta_length_encode(out, ba, n);
	return cw->fallback_encoding;
}

/* Append the page's values to out; returns their encoding. */
static int
encode_values(PqColumnWriter *cw, PqBuffer *out)
{
	int			n = cw->page_values;
	bool		v2 = cw->cfg.page_version == 2;

	/* no values: PLAIN is empty for every type */
	if (n == 0)
		return PQ_ENC_PLAIN;

	if (cw->dict_state == PQ_DICT_ACTIVE && !cw->dict_checked)
	{
		cw->dict_checked = true;
		if (!dictionary_pays(cw))
			abandon_dictionary(cw);
	}
	if (cw->dict_state == PQ_DICT_ACTIVE)
	{
		const uint32 *ids = (const uint32 *) cw->ids.data;
		int			bw = pq_bit_width32((uint32) (cw->dict.n_entries - 1));
		PqRleEncoder e;

		pq_buffer_append_byte(out, (uint8) bw);
		pq_rle_encoder_init(&e, out, bw);
		pq_rle_encoder_put_many(&e, ids, n);
		pq_rle_encoder_flush(&e);
		return PQ_ENC_RLE_DICTIONARY;
	}

	switch (cw->cfg.physical_type)
	{
		case PQ_BOOLEAN:
			if (v2)
			{
				const uint8 *b = cw->values.data;
				size_t		start = out->len;
				PqRleEncoder e;
				int			i;

				pq_buffer_reserve(out, 4);
				out->len += 4;
				pq_rle_encoder_init(&e, out, 1);
				for (i = 0; i < n; i++)
					pq_rle_encoder_put(&e, b[i] != 0);
				pq_rle_encoder_flush(&e);
				pq_store_le32(out->data + start,
							  (uint32) (out->len - start - 4));
				return PQ_ENC_RLE;
			}
			pq_plain_encode_fixed(out, PQ_BOOLEAN, 0, cw->values.data, n);
			return PQ_ENC_PLAIN;
		case PQ_INT32:
			if (v2)
			{
				pq_delta_encode_i32(out, (const int32 *) cw->values.data, n);
				return PQ_ENC_DELTA_BINARY_PACKED;
			}
			break;
		case PQ_INT64:
			if (v2)
			{
				pq_delta_encode_i64(out, (const int64 *) cw->values.data, n);
				return PQ_ENC_DELTA_BINARY_PACKED;
			}
			break;
		case PQ_BYTE_ARRAY:
			if (v2)
				return encode_delta_bytes(cw, out);
			break;
		default:
			break;
	}
	pq_buffer_append(out, cw->values.data, cw->values.len);
	return PQ_ENC_PLAIN;
}

/*
 * The one place pages leave the column writer: the body as stored (for an
 * encrypted column, its module: the header's compressed_page_size and the
 * CRC describe what is stored), its CRC, its header (encrypted likewise),
 * then both appended to dst.  ordinal: the data page's ordinal in the
 * chunk (AAD).  Returns the size stored.
 */
static int32
emit_page(PqColumnWriter *cw, PqPageHeader *ph, PqBuffer *dst, int ordinal)
{
	PqFileEncryptor *fe = cw->cfg.encryptor;
	bool		dict = ph->type == PQ_PAGE_DICTIONARY;
	size_t		start = dst->len;
	size_t		total;

	if (fe != NULL)
	{
		PqBuffer	plain = cw->body;

		pq_buffer_reset(&cw->sealed);
		pq_encrypt_module(fe, dict ? PQ_MODULE_DICT_PAGE : PQ_MODULE_DATA_PAGE,
						  cw->chunk_ordinal, cw->cfg.column, ordinal,
						  plain.data, plain.len, &cw->sealed);
		/* swap, keeping both buffers for the next page */
		cw->body = cw->sealed;
		cw->sealed = plain;
		if (cw->body.len > PG_INT32_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("encrypted Parquet page of %zu bytes exceeds the format's limit",
							cw->body.len)));
		ph->compressed_page_size = (int32) cw->body.len;
	}
	ph->has_crc = true;
	ph->crc = (int32) pq_crc32(cw->body.data, cw->body.len);
	pq_buffer_reset(&cw->header);
	pq_write_page_header(&cw->header, ph);
	if (fe != NULL)
		pq_encrypt_module(fe, dict ? PQ_MODULE_DICT_PAGE_HEADER :
						  PQ_MODULE_DATA_PAGE_HEADER,
						  cw->chunk_ordinal, cw->cfg.column, ordinal,
						  cw->header.data, cw->header.len, dst);
	else
		pq_buffer_append(dst, cw->header.data, cw->header.len);
	pq_buffer_append(dst, cw->body.data, cw->body.len);
	total = dst->len - start;
	cw->uncompressed_bytes += (total - cw->body.len) + ph->uncompressed_page_size;
	cw->compressed_bytes += total;
	return (int32) total;
}

/* Compress src into body; page sizes are i32 in the format. */
static void
compress_into_body(PqColumnWriter *cw, const uint8 *src, size_t len)
{
	pq_compress(cw->cfg.codec, cw->cfg.compression_level, src, len, &cw->body);
	if (cw->body.len > PG_INT32_MAX || len > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Parquet page of %zu bytes exceeds the format's limit",
						Max(len, cw->body.len))));
}

static void
flush_page(PqColumnWriter *cw)
{
	const PqColumnWriterConfig *cfg = &cw->cfg;
	bool		v2 = cfg->page_version == 2;
	PqPageHeader ph;
	PqPageInfo *pi;
	size_t		rep_len;
	size_t		levels_len;
	int			encoding;

	if (cw->page_levels == 0)
		return;

	/* rep levels, def levels, values: the order of both page versions */
	pq_buffer_reset(&cw->enc);
	if (cfg->max_rep > 0)
		encode_levels(&cw->enc, &cw->rep, cw->page_levels, cfg->max_rep, !v2);
	rep_len = cw->enc.len;
	if (cfg->max_def > 0)
		encode_levels(&cw->enc, &cw->def, cw->page_levels, cfg->max_def, !v2);
	levels_len = cw->enc.len;
	encoding = encode_values(cw, &cw->enc);

	/* v1 compresses the whole page, v2 only the values */
	pq_buffer_reset(&cw->body);
	if (v2)
	{
		pq_buffer_append(&cw->body, cw->enc.data, levels_len);
		compress_into_body(cw, cw->enc.data + levels_len,
						   cw->enc.len - levels_len);
	}
	else
		compress_into_body(cw, cw->enc.data, cw->enc.len);

	memset(&ph, 0, sizeof(ph));
	ph.uncompressed_page_size = (int32) cw->enc.len;
	ph.compressed_page_size = (int32) cw->body.len;
	if (v2)
	{
		PqDataPageHeaderV2 *h = &ph.data_page_header_v2;

		ph.type = PQ_PAGE_DATA_V2;
		ph.has_data_page_header_v2 = true;
		h->num_values = cw->page_levels;
		h->num_nulls = cw->page_levels - cw->page_values;
		h->num_rows = cw->page_rows;
		h->encoding = encoding;
		h->definition_levels_byte_length = (int32) (levels_len - rep_len);
		h->repetition_levels_byte_length = (int32) rep_len;
		h->is_compressed = cfg->codec != PQ_CODEC_UNCOMPRESSED;
		if (cfg->page_statistics)
		{
			h->has_statistics = true;
			pq_buffer_reset(&cw->tmp);
			pq_stats_to_thrift(&cw->page_stats, cfg->truncate_length, &cw->tmp,
							   &h->statistics);
		}
	}
	else
	{
		PqDataPageHeader *h = &ph.data_page_header;

		ph.type = PQ_PAGE_DATA;
		ph.has_data_page_header = true;
		h->num_values = cw->page_levels;
		h->encoding = encoding;
		h->definition_level_encoding = PQ_ENC_RLE;
		h->repetition_level_encoding = PQ_ENC_RLE;
		if (cfg->page_statistics)
		{
			h->has_statistics = true;
			pq_buffer_reset(&cw->tmp);
			pq_stats_to_thrift(&cw->page_stats, cfg->truncate_length, &cw->tmp,
							   &h->statistics);
		}
	}

	if (cw->n_pages == cw->cap_pages)
	{
		cw->cap_pages *= 2;
		cw->page_info = repalloc_huge(cw->page_info,
									  sizeof(PqPageInfo) * (size_t) cw->cap_pages);
	}
	pi = &cw->page_info[cw->n_pages++];
	pi->offset = (int64) cw->pages.len;
	pi->first_row = cw->num_rows;
	pi->null_count = cw->page_levels - cw->page_values;
	pi->nan_count = cw->page_stats.nan_count;
	pi->null_page = cw->page_values == 0;
	pi->has_bounds = cfg->page_index &&
		pq_stats_bounds(&cw->page_stats, cfg->truncate_length, &cw->bounds,
						&pi->bounds);
	if (!pi->null_page && !pi->has_bounds)
		cw->index_ok = false;	/* no order, or only NaNs: no ColumnIndex */
	pi->size = emit_page(cw, &ph, &cw->pages, cw->n_pages - 1);

	cw->page_encodings[encoding]++;
	cw->num_values += cw->page_levels;
	cw->num_rows += cw->page_rows;
	if (cw->track_stats)
		pq_stats_merge(&cw->chunk_stats, &cw->page_stats);
	reset_page(cw);
}

/* ---- input ---- */

static void
append_levels(PqBuffer *buf, const int16 *lv, int n, int16 fill)
{
	int16	   *dst;
	int			i;

	pq_buffer_reserve(buf, sizeof(int16) * n);
	dst = (int16 *) (buf->data + buf->len);
	if (lv != NULL)
		memcpy(dst, lv, sizeof(int16) * n);
	else
		for (i = 0; i < n; i++)
			dst[i] = fill;
	buf->len += sizeof(int16) * n;
}

static inline void
bloom_add(PqColumnWriter *cw, const uint8 *v, uint32 len)
{
	pq_hashset_add(&cw->bloom_hashes, pq_bloom_hash_bytes(v, len));
}

/* Offer the page's statistics the entries of ids it has not met yet. */
static void
entry_stats(PqColumnWriter *cw, const uint32 *ids, int n)
{
	uint32		page = cw->page_number;
	int			nnew = 0;
	int			i;

	if (cw->dict.n_entries > cw->cap_entry_page)
	{
		int			cap = Max(cw->dict.n_entries, cw->cap_entry_page * 2);

		cw->entry_page = repalloc_huge(cw->entry_page, sizeof(uint32) * (Size) cap);
		memset(cw->entry_page + cw->cap_entry_page, 0,
			   sizeof(uint32) * (Size) (cap - cw->cap_entry_page));
		cw->cap_entry_page = cap;
	}
	pq_buffer_reset(&cw->page_entries);
	for (i = 0; i < n; i++)
	{
		uint32		id = ids[i];
		uint32		len;
		const uint8 *v;

		if (cw->entry_page[id] == page)
			continue;
		cw->entry_page[id] = page;
		v = pq_dict_entry(&cw->dict, (int) id, &len);
		if (cw->width == 0)
		{
			PqByteArray e = {v, len};

			pq_buffer_append(&cw->page_entries, &e, sizeof(e));
		}
		else
			pq_buffer_append(&cw->page_entries, v, len);
		nnew++;
	}
	if (nnew > 0)
		pq_stats_update(&cw->page_stats,
						cw->width > 0 ? cw->page_entries.data : NULL,
						cw->width == 0 ?
						(const PqByteArray *) cw->page_entries.data : NULL,
						nnew);
}

/* Add n values (plain_bytes of them in PLAIN) to the page. */
static void
add_values(PqColumnWriter *cw, const uint8 *fixed, const PqByteArray *ba,
		   int n, int64 plain_bytes)
{
	int			i;

	if (n == 0)
		return;
	if (cw->track_stats &&
		!(cw->stats_by_entry && cw->dict_state == PQ_DICT_ACTIVE))
		pq_stats_update(&cw->page_stats, fixed, ba, n);
	cw->page_plain_bytes += plain_bytes;
	if (cw->dict_state == PQ_DICT_ACTIVE)
	{
		int			old_entries = cw->dict.n_entries;
		uint32	   *ids;

		pq_buffer_reserve(&cw->ids, sizeof(uint32) * n);
		ids = (uint32 *) (cw->ids.data + cw->ids.len);
		if (ba != NULL)
			pq_dict_insert_bytes(&cw->dict, ba, n, ids);
		else
			pq_dict_insert_fixed(&cw->dict, fixed, n, ids);
		cw->ids.len += sizeof(uint32) * n;
		if (cw->stats_by_entry)
			entry_stats(cw, ids, n);
		/* a value's hash is needed once: when it enters the dictionary */
		if (cw->cfg.bloom_filter)
			for (i = old_entries; i < cw->dict.n_entries; i++)
			{
				uint32		len;
				const uint8 *v = pq_dict_entry(&cw->dict, i, &len);

				bloom_add(cw, v, len);
			}
		return;
	}
	if (ba != NULL)
		pq_plain_encode_byte_array(&cw->values, ba, n);
	else
		pq_buffer_append(&cw->values, fixed, (size_t) n * cw->width);
	if (cw->cfg.bloom_filter)
		for (i = 0; i < n; i++)
		{
			if (ba != NULL)
				bloom_add(cw, ba[i].len > 0 ? ba[i].ptr : (const uint8 *) "",
						  ba[i].len);
			else
				bloom_add(cw, fixed + (size_t) i * cw->width, cw->width);
		}
}

/* Estimated size of the page so far, encoded but not compressed. */
static int64
page_estimate(const PqColumnWriter *cw)
{
	int			level_bits = pq_bit_width32((uint32) cw->cfg.max_def) +
	pq_bit_width32((uint32) cw->cfg.max_rep);
	int64		est = ((int64) cw->page_levels * level_bits + 7) / 8;

	/*
	 * Until the dictionary has paid off, size the page as PLAIN (as
	 * parquet-java does), so that a page re-encoded without the dictionary
	 * stays within the page size.
	 */
	if (cw->dict_state == PQ_DICT_ACTIVE && cw->dict_checked)
		est += ((int64) cw->page_values *
				pq_bit_width32((uint32) cw->dict.n_entries) + 7) / 8;
	else if (cw->dict_state == PQ_DICT_ACTIVE)
		est += cw->page_plain_bytes;
	else if (cw->cfg.physical_type == PQ_BOOLEAN)
		est += (int64) (cw->values.len + 7) / 8;
	else
		est += (int64) cw->values.len;
	return est;
}

int64
pq_column_writer_buffered_bytes(const PqColumnWriter *cw)
{
	int64		bytes = (int64) cw->pages.len + page_estimate(cw);

	if (cw->dict_state != PQ_DICT_NONE)
		bytes += (int64) cw->dict.plain.len;
	return bytes;
}

/*
 * The slice of a column without repetition whose values have a fixed
 * width, as the general loop below cuts it: every level is a row, and
 * unless the slice's values could reach the page size, only the levels
 * and rows limit it.  That loop, for the common columns of a table, was
 * 6% of a COPY.  Returns the slice's end, or -1 for the general loop.
 */
static int
flat_fixed_slice(const PqColumnWriter *cw, const int16 *def, int pos,
				 int nlevels, int vpos, int nvalues, int *nv, int64 *bytes,
				 int *rows)
{
	const PqColumnWriterConfig *cfg = &cw->cfg;
	int			len = Max(Min(SLICE_LEVELS,
							  cfg->data_page_rows - cw->page_rows), 1);
	int			end;
	int			n = 0;
	int			i;

	if ((int64) (len - 1) * cw->width >= cfg->data_page_bytes)
		return -1;
	end = Min(pos + len, nlevels);
	if (def == NULL)
		n = end - pos;
	else
	{
		int16		max_def = (int16) cfg->max_def;
		bool		bad = false;

		for (i = pos; i < end; i++)
		{
			n += def[i] == max_def;
			bad |= def[i] < 0 || def[i] > max_def;
		}
		if (bad)
			for (i = pos; i < end; i++)
				if (def[i] < 0 || def[i] > max_def)
					elog(ERROR, "definition level %d out of range", def[i]);
	}
	if (n > nvalues - vpos)
		elog(ERROR, "column batch has more defined levels than its %d values",
			 nvalues);
	*nv = n;
	*bytes = (int64) n * cw->width;
	*rows = end - pos;
	return end;
}

/*
 * The slice of levels from pos to write next: whole rows, SLICE_LEVELS
 * or a page of bytes.  Returns its end; *nv its values, *bytes their
 * PLAIN size, *rows its rows.
 */
static int
general_slice(const PqColumnWriter *cw, const int16 *def, const int16 *rep,
			  const PqByteArray *ba, int pos, int nlevels, int vpos,
			  int nvalues, int *nv, int64 *bytes, int *rows)
{
	const PqColumnWriterConfig *cfg = &cw->cfg;
	int			end;
	int			n = 0;
	int			slice_rows = 0;
	int64		b = 0;

	for (end = pos; end < nlevels; end++)
	{
		if (rep == NULL || rep[end] == 0)
		{
			if (end > pos && (end - pos >= SLICE_LEVELS ||
							  b >= cfg->data_page_bytes ||
							  cw->page_rows + slice_rows >= cfg->data_page_rows))
				break;
			slice_rows++;
		}
		else if (rep[end] < 0 || rep[end] > cfg->max_rep)
			elog(ERROR, "repetition level %d out of range", rep[end]);
		if (def == NULL || def[end] == cfg->max_def)
		{
			if (vpos + n >= nvalues)
				elog(ERROR, "column batch has more defined levels than its %d values",
					 nvalues);
			b += ba != NULL ? (int64) ba[vpos + n].len + 4 : cw->width;
			n++;
		}
		else if (def[end] < 0 || def[end] > cfg->max_def)
			elog(ERROR, "definition level %d out of range", def[end]);
	}
	*nv = n;
	*bytes = b;
	*rows = slice_rows;
	return end;
}

int
pq_column_writer_write(PqColumnWriter *cw, int nlevels, const int16 *def,
					   const int16 *rep, int nvalues, const void *fixed,
					   const PqByteArray *ba)
{
	const PqColumnWriterConfig *cfg = &cw->cfg;
	const uint8 *fx = fixed;
	int			pos = 0;
	int			vpos = 0;
	int			rows = 0;

	if (nlevels < 0 || nvalues < 0 || nvalues > nlevels ||
		(def == NULL && nvalues != nlevels) ||
		(nvalues > 0 && (cw->width == 0 ? ba == NULL : fixed == NULL)))
		elog(ERROR, "invalid column batch: %d levels, %d values",
			 nlevels, nvalues);
	if (cfg->max_rep == 0)
		rep = NULL;
	if (rep != NULL && nlevels > 0 && rep[0] != 0)
		elog(ERROR, "column batch does not start at a row");

	while (pos < nlevels)
	{
		int			end;
		int			nv = 0;
		int			slice_rows = 0;
		int64		bytes = 0;

		/* find the slice: whole rows, SLICE_LEVELS or a page of bytes */
		end = -1;
		if (rep == NULL && ba == NULL)
			end = flat_fixed_slice(cw, def, pos, nlevels, vpos, nvalues,
								   &nv, &bytes, &slice_rows);
		if (end < 0)
			end = general_slice(cw, def, rep, ba, pos, nlevels, vpos, nvalues,
								&nv, &bytes, &slice_rows);

		if (cfg->max_def > 0)
			append_levels(&cw->def, def != NULL ? def + pos : NULL, end - pos,
						  (int16) cfg->max_def);
		if (cfg->max_rep > 0)
			append_levels(&cw->rep, rep != NULL ? rep + pos : NULL, end - pos, 0);
		add_values(cw, fx != NULL ? fx + (size_t) vpos * cw->width : NULL,
				   ba != NULL ? ba + vpos : NULL, nv, bytes);
		cw->page_stats.null_count += (end - pos) - nv;
		cw->page_levels += end - pos;
		cw->page_values += nv;
		cw->page_rows += slice_rows;
		rows += slice_rows;
		pos = end;
		vpos += nv;

		if (cw->dict_state == PQ_DICT_ACTIVE && !cw->dict_checked &&
			cw->page_plain_bytes >= DICT_SAMPLE_BYTES)
		{
			/* the page goes on, PLAIN from its first value if need be */
			cw->dict_checked = true;
			if (!dictionary_pays(cw))
				abandon_dictionary(cw);
		}
		if (cw->dict_state == PQ_DICT_ACTIVE &&
			(int64) cw->dict.plain.len > cfg->dictionary_page_limit)
		{
			flush_page(cw);
			if (cw->dict_state == PQ_DICT_ACTIVE)
				cw->dict_state = PQ_DICT_FALLEN_BACK;
		}
		else if (page_estimate(cw) >= cfg->data_page_bytes ||
				 cw->page_rows >= cfg->data_page_rows)
			flush_page(cw);
	}
	if (vpos != nvalues)
		elog(ERROR, "column batch has %d values for %d defined levels",
			 nvalues, vpos);
	return rows;
}

/* ---- chunk ---- */

void
pq_column_writer_finish_chunk(PqColumnWriter *cw)
{
	PqPageHeader ph;

	flush_page(cw);
	if (cw->page_encodings[PQ_ENC_RLE_DICTIONARY] == 0)
		return;

	pq_buffer_reset(&cw->body);
	compress_into_body(cw, cw->dict.plain.data, cw->dict.plain.len);
	memset(&ph, 0, sizeof(ph));
	ph.type = PQ_PAGE_DICTIONARY;
	ph.uncompressed_page_size = (int32) cw->dict.plain.len;
	ph.compressed_page_size = (int32) cw->body.len;
	ph.has_dictionary_page_header = true;
	ph.dictionary_page_header.num_values = cw->dict.n_entries;
	ph.dictionary_page_header.encoding = PQ_ENC_PLAIN;
	emit_page(cw, &ph, &cw->dict_page, 0);
}
