/*-------------------------------------------------------------------------
 *
 * chunk_metadata.c
 *		What a finished column chunk says about itself: its ColumnMetaData,
 *		OffsetIndex and ColumnIndex, and its Bloom filter.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/metadata/bloom.h"
#include "format/write/column_writer.h"

void
pq_column_writer_metadata(PqColumnWriter *cw, int64 chunk_offset,
						  PqColumnMetaData *md)
{
	bool		used[PQ_ENC_ALP + 1] = {false};
	int			data_page_type = cw->cfg.page_version == 2 ?
	PQ_PAGE_DATA_V2 : PQ_PAGE_DATA;
	int			e;

	memset(md, 0, sizeof(PqColumnMetaData));
	md->type = cw->cfg.physical_type;
	md->codec = cw->cfg.codec;
	md->num_values = cw->num_values;
	md->total_uncompressed_size = cw->uncompressed_bytes;
	md->total_compressed_size = cw->compressed_bytes;
	md->data_page_offset = chunk_offset + (int64) cw->dict_page.len;

	md->encoding_stats = palloc(sizeof(PqPageEncodingStats) * (PQ_ENC_ALP + 2));
	md->has_encoding_stats = true;
	if (cw->dict_page.len > 0)
	{
		md->has_dictionary_page_offset = true;
		md->dictionary_page_offset = chunk_offset;
		md->encoding_stats[0].page_type = PQ_PAGE_DICTIONARY;
		md->encoding_stats[0].encoding = PQ_ENC_PLAIN;
		md->encoding_stats[0].count = 1;
		md->n_encoding_stats = 1;
		used[PQ_ENC_PLAIN] = true;
	}
	for (e = 0; e <= PQ_ENC_ALP; e++)
	{
		PqPageEncodingStats *es;

		if (cw->page_encodings[e] == 0)
			continue;
		es = &md->encoding_stats[md->n_encoding_stats++];
		es->page_type = data_page_type;
		es->encoding = e;
		es->count = cw->page_encodings[e];
		used[e] = true;
	}
	if (cw->cfg.max_def > 0 || cw->cfg.max_rep > 0)
		used[PQ_ENC_RLE] = true;
	md->encodings = palloc(sizeof(int) * (PQ_ENC_ALP + 1));
	for (e = 0; e <= PQ_ENC_ALP; e++)
		if (used[e])
			md->encodings[md->n_encodings++] = e;

	if (cw->cfg.statistics)
	{
		PqBuffer   *store = palloc(sizeof(PqBuffer));

		/* the footer needs the bounds after the chunk is gone */
		pq_buffer_init(store, 32);
		md->has_statistics = true;
		pq_stats_to_thrift(&cw->chunk_stats, cw->cfg.truncate_length, store,
						   &md->statistics);
		/* every value is in the dictionary: it counts the distinct ones */
		if (cw->page_encodings[PQ_ENC_RLE_DICTIONARY] == cw->n_pages &&
			cw->n_pages > 0)
		{
			md->statistics.has_distinct_count = true;
			md->statistics.distinct_count = cw->dict.n_entries;
		}
	}
}

void
pq_column_writer_offset_index(PqColumnWriter *cw, int64 chunk_offset,
							  PqBuffer *out)
{
	PqOffsetIndex oi;
	int64		base = chunk_offset + (int64) cw->dict_page.len;
	int			i;

	memset(&oi, 0, sizeof(oi));
	oi.n_page_locations = cw->n_pages;
	oi.page_locations = palloc(sizeof(PqPageLocation) * Max(cw->n_pages, 1));
	for (i = 0; i < cw->n_pages; i++)
	{
		oi.page_locations[i].offset = base + cw->page_info[i].offset;
		oi.page_locations[i].compressed_page_size = cw->page_info[i].size;
		oi.page_locations[i].first_row_index = cw->page_info[i].first_row;
	}
	pq_write_offset_index(out, &oi);
	pfree(oi.page_locations);
}

bool
pq_column_writer_column_index(PqColumnWriter *cw, PqBuffer *out)
{
	PqColumnIndex ci;
	int			n = cw->n_pages;
	int			order = cw->chunk_stats.order;
	bool		floats = pq_sort_order_is_float(order);
	int			i;

	if (!cw->cfg.page_index || !cw->index_ok || n == 0)
		return false;
	memset(&ci, 0, sizeof(ci));
	ci.n_null_pages = ci.n_min_values = ci.n_max_values = ci.n_null_counts = n;
	ci.null_pages = palloc(sizeof(bool) * n);
	ci.min_values = palloc(sizeof(PqBytes) * n);
	ci.max_values = palloc(sizeof(PqBytes) * n);
	ci.null_counts = palloc(sizeof(int64) * n);
	if (floats)
	{
		ci.n_nan_counts = n;
		ci.nan_counts = palloc(sizeof(int64) * n);
	}
	for (i = 0; i < n; i++)
	{
		const PqPageInfo *pi = &cw->page_info[i];

		ci.null_pages[i] = pi->null_page;
		ci.null_counts[i] = pi->null_count;
		if (floats)
			ci.nan_counts[i] = pi->nan_count;
		if (pi->has_bounds)
		{
			ci.min_values[i].ptr = cw->bounds.data + pi->bounds.min_off;
			ci.min_values[i].len = pi->bounds.min_len;
			ci.max_values[i].ptr = cw->bounds.data + pi->bounds.max_off;
			ci.max_values[i].len = pi->bounds.max_len;
		}
		else
		{
			/* null pages carry empty bounds */
			ci.min_values[i].ptr = ci.max_values[i].ptr = (const uint8 *) "";
			ci.min_values[i].len = ci.max_values[i].len = 0;
		}
	}
	ci.boundary_order = pq_boundary_order(order, ci.min_values, ci.max_values,
										  ci.null_pages, n);
	pq_write_column_index(out, &ci);
	pfree(ci.null_pages);
	pfree(ci.min_values);
	pfree(ci.max_values);
	pfree(ci.null_counts);
	if (floats)
		pfree(ci.nan_counts);
	return true;
}

bool
pq_column_writer_bloom_filter(PqColumnWriter *cw, PqBuffer *out)
{
	const PqHashSet64 *h = &cw->bloom_hashes;
	uint64		ndv;
	size_t		nbytes;
	uint8	   *bits;
	uint32		i;

	if (!cw->cfg.bloom_filter)
		return false;
	ndv = cw->cfg.bloom_ndv > 0 ? (uint64) cw->cfg.bloom_ndv :
		(uint64) Max(h->count, 1);
	nbytes = pq_bloom_optimal_bytes(ndv, cw->cfg.bloom_fpp);
	pq_buffer_reserve(out, nbytes);
	bits = out->data + out->len;
	memset(bits, 0, nbytes);
	out->len += nbytes;
	for (i = 0; i <= h->mask; i++)
		if (h->slots[i] != 0)
			pq_bloom_insert(bits, nbytes, h->slots[i]);
	if (h->has_zero)
		pq_bloom_insert(bits, nbytes, 0);
	return true;
}
