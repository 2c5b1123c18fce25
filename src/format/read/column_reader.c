/*-------------------------------------------------------------------------
 *
 * column_reader.c
 *		Page iteration over one column chunk: page headers, CRC, codecs,
 *		dictionary, levels (streamed, never allocated by a page's claimed
 *		count) and values.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/codec/codec.h"
#include "format/read/buffer_pool.h"
#include "format/read/column_reader.h"
#include "format/read/dictionary_reader.h"
#include "format/read/page_crypto.h"
#include "format/read/segment_decode.h"
#include "utils/memutils.h"

/*
 * Selected pages separated by less than this are fetched with one read:
 * reading the gap costs less than another request.
 */
#define PQ_COALESCE_GAP (64 * 1024)


/* The reader's memory context goes: its buffers go back to the pool. */
static void
give_back_buffers(void *arg)
{
	PqColumnReader *r = arg;

	if (r->chunk_buf)
		pq_buffer_pool->put(r->chunk_buf, r->chunk_buf_cap);
	if (r->page_buf)
		pq_buffer_pool->put(r->page_buf, r->page_buf_cap);
	r->chunk_buf = r->page_buf = NULL;
	r->chunk_buf_cap = r->page_buf_cap = 0;
}

static int
value_width(const PqColumnDescr *col)
{
	return col->physical_type == PQ_BYTE_ARRAY ? 0 :
		pq_fixed_width(col->physical_type, col->type_length);
}

PqColumnReader *
pq_column_reader_create(PqFile *file, int column, MemoryContext parent)
{
	PqColumnReader *r;
	MemoryContext cxt;
	MemoryContext old;
	const PqColumnDescr *col = &file->schema->columns[column];

	cxt = AllocSetContextCreate(parent, "parquet column reader",
								ALLOCSET_SMALL_SIZES);
	r = MemoryContextAllocZero(cxt, sizeof(PqColumnReader));
	r->cxt = cxt;
	pq_buffer_pool_on_reset(cxt, give_back_buffers, r);
	r->file = file;
	r->col = col;
	r->row_group = -1;
	r->chunk_cxt = AllocSetContextCreate(cxt, "parquet column chunk",
										 ALLOCSET_DEFAULT_SIZES);
	r->page_cxt = AllocSetContextCreate(cxt, "parquet page",
										ALLOCSET_DEFAULT_SIZES);
	r->value_width = value_width(col);

	old = MemoryContextSwitchTo(cxt);
	r->cap = pq_segment_cap(r->value_width);
	r->def = palloc(sizeof(int16) * r->cap);
	r->rep = palloc(sizeof(int16) * r->cap);
	r->indices = palloc(sizeof(uint32) * r->cap);
	/* fixed values get room when a page shows they exist (pq_segment_decode) */
	if (col->physical_type == PQ_BYTE_ARRAY)
		r->ba = palloc(sizeof(PqByteArray) * r->cap);
	MemoryContextSwitchTo(old);
	return r;
}

bool
pq_column_reader_rebind(PqColumnReader *r, PqFile *file, int column)
{
	const PqColumnDescr *col = &file->schema->columns[column];

	/* r->file and r->col may be gone: the file's memory is the caller's */
	if ((col->physical_type == PQ_BYTE_ARRAY) != (r->ba != NULL) ||
		value_width(col) != r->value_width)
		return false;
	/* what starting a row group does not set again */
	pq_column_reader_release(r);
	r->file = file;
	r->col = col;
	r->row_group = -1;
	r->pages_read = 0;
	r->pages_skipped = 0;
	r->bytes_read = 0;
	return true;
}

void
pq_column_reader_free(PqColumnReader *r)
{
	MemoryContextDelete(r->cxt);
}

void
pq_column_reader_release(PqColumnReader *r)
{
	MemoryContextReset(r->page_cxt);
	MemoryContextReset(r->chunk_cxt);
	r->chunk = NULL;
	r->chunk_len = 0;
	r->chunk_slack = 0;
	r->pos = 0;
	r->sel = NULL;
	r->nsel = 0;
	r->sel_next = 0;
	r->row = 0;
	r->end_row = 0;
	r->chunk_values = 0;
	r->entries_seen = 0;
	r->has_dict = false;
	r->in_page = false;
	r->rereading = false;
}

bool
pq_column_reader_rewind(PqColumnReader *r)
{
	if (r->sel == NULL || r->nsel == 0)
		return false;
	/* the bytes before the first page (the dictionary) were consumed */
	r->pos = r->chunk_len;
	r->sel_next = 0;
	r->row = r->sel[0].first_row;
	r->in_page = false;
	r->page_left = 0;
	r->rereading = true;
	return true;
}

/* Report errors at r's chunk (and page) until leave_chunk(). */
static void
enter_chunk(PqColumnReader *r)
{
	pq_errloc_push(&r->loc, r->file->src->name);
	r->loc.row_group = r->row_group;
	r->loc.column = r->col->path;
	r->loc.page_offset = r->in_page ? r->page_offset : -1;
}

static void
leave_chunk(PqColumnReader *r)
{
	pq_errloc_pop(&r->loc);
}

/* Reset the reader for row_group; returns the chunk's byte range. */
static void
begin_chunk(PqColumnReader *r, int row_group, int64 *start, int64 *len)
{
	const PqColumnMetaData *cm;
	int64		slack;

	pq_column_reader_release(r);
	r->row_group = row_group;
	r->loc.row_group = row_group;
	r->loc.page_offset = -1;
	cm = pq_file_chunk_meta(r->file, row_group, r->col->index);
	pq_file_chunk_range(r->file, row_group, r->col->index, start, len, &slack);
	r->chunk_slack = slack;
	r->codec = cm->codec;
	if (!pq_codec_supported(r->codec))
		pq_unsupported("compression codec %s is not supported",
					   pq_codec_name(r->codec));
	r->end_row = r->col->max_rep > 0 ? cm->num_values :
		r->file->md.row_groups[row_group].num_rows;

	/*
	 * num_values counts level entries, NULLs included: one per row without
	 * repetition.  Metadata that disagrees with the pages is never guessed
	 * right (Impala and DuckDB refuse such chunks too).
	 */
	r->chunk_values = cm->num_values;
	if (r->col->max_rep == 0 && cm->num_values != r->end_row)
		pq_corrupt("column chunk metadata states " INT64_FORMAT " values, but the row group has " INT64_FORMAT " rows",
				   cm->num_values, r->end_row);
	r->cipher = pq_file_chunk_cipher(r->file, row_group, r->col->index);
	r->dict_first = cm->has_dictionary_page_offset &&
		cm->dictionary_page_offset > 0 &&
		cm->dictionary_page_offset < cm->data_page_offset;
	r->page_ordinal = 0;
}

/* The whole chunk, [start, start + len) of the file, is at chunk. */
static void
use_chunk(PqColumnReader *r, const uint8 *chunk, int64 start, int64 len)
{
	r->chunk = chunk;
	r->chunk_start = start;
	r->chunk_len = len - r->chunk_slack;
	r->bytes_read += len;
}

static void
start_whole_chunk(PqColumnReader *r, int row_group)
{
	int64		start;
	int64		len;
	uint8	   *chunk;

	begin_chunk(r, row_group, &start, &len);
	chunk = pq_pooled_buffer(&r->chunk_buf, &r->chunk_buf_cap, r->chunk_cxt, len);
	r->file->src->read(r->file->src, start, len, chunk);
	use_chunk(r, chunk, start, len);
}

void
pq_column_reader_start(PqColumnReader *r, int row_group)
{
	enter_chunk(r);
	start_whole_chunk(r, row_group);
	leave_chunk(r);
}

void
pq_column_reader_start_bytes(PqColumnReader *r, int row_group,
							 const uint8 *chunk)
{
	int64		start;
	int64		len;

	enter_chunk(r);
	begin_chunk(r, row_group, &start, &len);
	use_chunk(r, chunk, start, len);
	leave_chunk(r);
}

/* Bytes [start, end) of the file. */
typedef struct ByteExtent
{
	int64		start;
	int64		end;
} ByteExtent;

/* Append [start, end) to a sorted list of extents to read. */
static void
add_extent(ByteExtent *ext, int *n, int64 start, int64 end)
{
	if (*n > 0 && start - ext[*n - 1].end < PQ_COALESCE_GAP)
		ext[*n - 1].end = end;
	else
	{
		ext[*n].start = start;
		ext[*n].end = end;
		(*n)++;
	}
}

static void
start_ranges(PqColumnReader *r, int row_group, const PqOffsetIndex *oi,
			 const PqRowRange *ranges, int nranges)
{
	int64		start;
	int64		len;
	int64		prefix;
	int64		total;
	ByteExtent *ext;
	int			next;
	uint8	   *buf;
	int			i;
	int			k;

	if (oi == NULL || ranges == NULL || r->col->max_rep > 0)
	{
		start_whole_chunk(r, row_group);
		return;
	}
	begin_chunk(r, row_group, &start, &len);
	pq_offset_index_check(oi, r->end_row, start, start + len);
	for (k = 0; k < nranges; k++)
		if (ranges[k].start < (k > 0 ? ranges[k - 1].end : 0) ||
			ranges[k].end < ranges[k].start || ranges[k].end > r->end_row)
			elog(ERROR, "row ranges must be sorted, disjoint and inside the row group");

	/* the pages that overlap a non-empty range; both lists are sorted */
	r->sel = MemoryContextAlloc(r->chunk_cxt, sizeof(PqPageRef) *
								Max(oi->n_page_locations, 1));
	k = 0;
	for (i = 0; i < oi->n_page_locations; i++)
	{
		const PqPageLocation *loc = &oi->page_locations[i];
		int64		end = pq_page_end_row(oi, i, r->end_row);

		while (k < nranges && (ranges[k].end <= loc->first_row_index ||
							   ranges[k].end == ranges[k].start))
			k++;
		if (k < nranges && ranges[k].start < end && loc->first_row_index < end)
		{
			PqPageRef  *p = &r->sel[r->nsel++];

			p->offset = loc->offset;
			p->size = loc->compressed_page_size;
			p->first_row = loc->first_row_index;
			p->nrows = end - loc->first_row_index;
			p->ordinal = i;
		}
	}
	r->pages_skipped += oi->n_page_locations - r->nsel;
	r->row = r->nsel > 0 ? r->sel[0].first_row : r->end_row;
	if (r->nsel == 0)
		return;

	/*
	 * Read what precedes the first data page (the dictionary, if any) and the
	 * selected pages, merging extents separated by small gaps.
	 */
	ext = MemoryContextAlloc(r->chunk_cxt, sizeof(ByteExtent) * (r->nsel + 1));
	next = 0;
	prefix = oi->page_locations[0].offset - start;
	if (prefix > 0)
		add_extent(ext, &next, start, start + prefix);
	for (i = 0; i < r->nsel; i++)
		add_extent(ext, &next, r->sel[i].offset,
				   r->sel[i].offset + r->sel[i].size);
	total = 0;
	for (k = 0; k < next; k++)
		total += ext[k].end - ext[k].start;
	buf = pq_pooled_buffer(&r->chunk_buf, &r->chunk_buf_cap, r->chunk_cxt, total);

	total = 0;
	i = 0;
	for (k = 0; k < next; k++)
	{
		r->file->src->read(r->file->src, ext[k].start,
						   ext[k].end - ext[k].start, buf + total);
		for (; i < r->nsel && r->sel[i].offset < ext[k].end; i++)
			r->sel[i].data = buf + total + (r->sel[i].offset - ext[k].start);
		total += ext[k].end - ext[k].start;
	}
	r->bytes_read += total;

	/* the prefix, if any, is at the start of buf */
	r->chunk = buf;
	r->chunk_start = start;
	r->chunk_len = prefix;
	r->chunk_slack = 0;
}

void
pq_column_reader_start_ranges(PqColumnReader *r, int row_group,
							  const PqOffsetIndex *oi,
							  const PqRowRange *ranges, int nranges)
{
	enter_chunk(r);
	start_ranges(r, row_group, oi, ranges, nranges);
	leave_chunk(r);
}

/*
 * Decompressed page body (or the input when uncompressed): a dictionary's
 * in chunk_cxt, a data page's in the reader's page buffer.
 */
static const uint8 *
page_body(PqColumnReader *r, bool dict, const uint8 *src, size_t srclen,
		  size_t dstlen)
{
	uint8	   *dst;

	if (r->codec == PQ_CODEC_UNCOMPRESSED)
	{
		if (srclen != dstlen)
			pq_corrupt("uncompressed page has compressed size %zu but uncompressed size %zu",
					   srclen, dstlen);
		return src;
	}
	pq_check_page_size(r->codec, srclen, dstlen);
	dst = dict ? MemoryContextAllocHuge(r->chunk_cxt, Max(dstlen, 1)) :
		pq_pooled_buffer(&r->page_buf, &r->page_buf_cap, r->page_cxt, dstlen);
	pq_decompress(r->codec, src, srclen, dst, dstlen);
	return dst;
}

static void
load_dictionary(PqColumnReader *r, const PqPageHeader *ph, const uint8 *src)
{
	const PqDictionaryPageHeader *dh = &ph->dictionary_page_header;
	const uint8 *body;
	PqValueDecoder dec;
	size_t		bodylen = ph->uncompressed_page_size;
	MemoryContext old;

	if (!ph->has_dictionary_page_header)
		pq_corrupt("dictionary page has no dictionary_page_header");
	if (r->has_dict)
		pq_corrupt("column chunk has more than one dictionary page");
	if (dh->num_values < 0)
		pq_corrupt("dictionary page has a negative value count %d",
				   dh->num_values);
	if (dh->encoding != PQ_ENC_PLAIN && dh->encoding != PQ_ENC_PLAIN_DICTIONARY)
		pq_unsupported("dictionary page encoding %s is not supported",
					   pq_encoding_name(dh->encoding));

	/* the entries are sized by the claim: it must fit the bytes */
	if (pq_plain_min_bytes(r->col->physical_type, r->col->type_length,
						   dh->num_values) > bodylen)
		pq_corrupt("dictionary page claims %d values in %zu bytes",
				   dh->num_values, bodylen);

	old = MemoryContextSwitchTo(r->chunk_cxt);
	body = page_body(r, true, src, ph->compressed_page_size, bodylen);
	pq_valdec_init(&dec, PQ_ENC_PLAIN, r->col->physical_type,
				   r->col->type_length, body, bodylen, dh->num_values);
	r->dict.count = dh->num_values;
	if (r->col->physical_type == PQ_BYTE_ARRAY)
	{
		PqByteArray *ba = palloc_extended(sizeof(PqByteArray) * Max(dh->num_values, 1),
										  MCXT_ALLOC_HUGE);

		pq_valdec_read_byte_array(&dec, dh->num_values, ba);
		r->dict.ba = ba;
		r->dict.fixed = NULL;
	}
	else
	{
		uint8	   *fixed = palloc_extended((Size) r->value_width * Max(dh->num_values, 1),
											MCXT_ALLOC_HUGE);

		pq_valdec_read_fixed(&dec, dh->num_values, fixed);
		r->dict.fixed = fixed;
		r->dict.ba = NULL;
	}
	MemoryContextSwitchTo(old);
	r->dict.id = pq_new_dictionary_id();
	r->has_dict = true;
}

/*
 * The dictionary that pruning decoded from this chunk's dictionary page
 * (dictionary_reader.c), when there is one: the same entries and id, so
 * converters and filters reuse what they made of it.
 */
static bool
take_pruning_dictionary(PqColumnReader *r)
{
	const PqDictionary *d = pq_cached_dictionary(r->file, r->row_group,
												 (int) (r->col - r->file->schema->columns));

	if (d == NULL)
		return false;
	if (r->has_dict)
		pq_corrupt("column chunk has more than one dictionary page");
	r->dict = *d;
	r->has_dict = true;
	return true;
}

/*
 * Set up one level stream.  v1 RLE levels carry a 4-byte length; BIT_PACKED
 * levels are decoded whole (their size is bounded by the bytes present).
 * Returns the bytes consumed.
 */
static size_t
setup_levels(PqColumnReader *r, int encoding, bool prefixed, const uint8 *p,
			 size_t avail, int max_level, int num_values, bool is_rep)
{
	int			bw = pq_bit_width32(max_level);
	PqRleDecoder *dec = is_rep ? &r->rep_dec : &r->def_dec;

	if (encoding == PQ_ENC_RLE)
	{
		size_t		len = avail;
		size_t		used = 0;

		if (prefixed)
		{
			if (avail < 4)
				pq_corrupt("page ends inside the %s level length",
						   is_rep ? "repetition" : "definition");
			len = pq_load_le32(p);
			if (len > avail - 4)
				pq_corrupt("%s levels of %zu bytes do not fit in the %zu bytes of the page",
						   is_rep ? "repetition" : "definition", len, avail - 4);
			p += 4;
			used = 4;
		}
		pq_rle_init(dec, p, len, bw);
		if (is_rep)
			r->rep_rle = true;
		else
			r->def_rle = true;
		return used + len;
	}
	else if (encoding == PQ_ENC_BIT_PACKED)
	{
		size_t		len = ((size_t) num_values * bw + 7) / 8;
		int16	   *out;

		if (len > avail)
			pq_corrupt("BIT_PACKED %s levels need %zu bytes, the page has %zu",
					   is_rep ? "repetition" : "definition", len, avail);
		out = MemoryContextAlloc(r->page_cxt, sizeof(int16) * Max(num_values, 1));
		pq_decode_levels(PQ_ENC_BIT_PACKED, false, p, len, max_level, out,
						 num_values);
		if (is_rep)
		{
			r->rep_rle = false;
			r->rep_all = out;
		}
		else
		{
			r->def_rle = false;
			r->def_all = out;
		}
		return len;
	}
	pq_unsupported("level encoding %s is not supported",
				   pq_encoding_name(encoding));
}

/* Values section: set up the value decoder. */
static void
setup_values(PqColumnReader *r, int encoding, const uint8 *p, size_t len,
			 int max_values)
{
	MemoryContext old;

	if (pq_encoding_is_dictionary(encoding))
	{
		if (!r->has_dict)
			pq_corrupt("dictionary-encoded page without a dictionary page");
		r->page_is_dict = true;
	}
	else
		r->page_is_dict = false;

	/* BYTE_STREAM_SPLIT's stride is the real value count: len / width */
	if (encoding == PQ_ENC_BYTE_STREAM_SPLIT && r->value_width > 0)
		max_values = Min((size_t) max_values, len / r->value_width);

	old = MemoryContextSwitchTo(r->page_cxt);
	pq_valdec_init(&r->values, encoding, r->col->physical_type,
				   r->col->type_length, p, len, max_values);
	MemoryContextSwitchTo(old);
}

static void
open_data_page_v1(PqColumnReader *r, const PqPageHeader *ph, const uint8 *src)
{
	const PqDataPageHeader *dh = &ph->data_page_header;
	size_t		len = ph->uncompressed_page_size;
	const uint8 *body;
	size_t		off = 0;

	body = page_body(r, false, src, ph->compressed_page_size, len);
	if (r->col->max_rep > 0)
		off += setup_levels(r, dh->repetition_level_encoding, true, body, len,
							r->col->max_rep, dh->num_values, true);
	if (r->col->max_def > 0)
		off += setup_levels(r, dh->definition_level_encoding, true, body + off,
							len - off, r->col->max_def, dh->num_values, false);
	setup_values(r, dh->encoding, body + off, len - off, dh->num_values);
	r->page_left = dh->num_values;
	r->page_counts = false;
}

static void
open_data_page_v2(PqColumnReader *r, const PqPageHeader *ph, const uint8 *src)
{
	const PqDataPageHeaderV2 *dh = &ph->data_page_header_v2;
	size_t		clen = ph->compressed_page_size;
	size_t		ulen = ph->uncompressed_page_size;
	size_t		levels_len;
	const uint8 *values;
	size_t		values_len;

	if (dh->repetition_levels_byte_length < 0 ||
		dh->definition_levels_byte_length < 0)
		pq_corrupt("data page v2 has negative level lengths");
	levels_len = (size_t) dh->repetition_levels_byte_length +
		dh->definition_levels_byte_length;
	if (levels_len > clen || levels_len > ulen)
		pq_corrupt("data page v2 levels (%zu bytes) exceed the page size", levels_len);

	if (r->col->max_rep > 0)
		setup_levels(r, PQ_ENC_RLE, false, src,
					 dh->repetition_levels_byte_length, r->col->max_rep,
					 dh->num_values, true);
	if (r->col->max_def > 0)
		setup_levels(r, PQ_ENC_RLE, false,
					 src + dh->repetition_levels_byte_length,
					 dh->definition_levels_byte_length, r->col->max_def,
					 dh->num_values, false);

	/* only the values section is compressed, and only if is_compressed */
	values_len = ulen - levels_len;
	if (!dh->is_compressed || r->codec == PQ_CODEC_UNCOMPRESSED)
	{
		if (clen - levels_len != values_len)
			pq_corrupt("uncompressed data page v2 has compressed size %zu but uncompressed size %zu",
					   clen, ulen);
		values = src + levels_len;
	}
	else if (values_len == 0)
		values = src + levels_len;
	else
		values = page_body(r, false, src + levels_len, clen - levels_len,
						   values_len);
	setup_values(r, dh->encoding, values, values_len,
				 dh->num_values - dh->num_nulls);
	r->page_left = dh->num_values;
	r->page_counts = true;
	r->page_rows = dh->num_rows;
	r->page_values = dh->num_values - dh->num_nulls;
	r->page_rows_seen = r->page_values_seen = 0;
}

/* Level entries of a data page (v1 or v2), with its counts checked. */
static int32
data_page_entries(const PqPageHeader *ph)
{
	if (ph->type == PQ_PAGE_DATA)
	{
		if (!ph->has_data_page_header)
			pq_corrupt("data page has no data_page_header");
		if (ph->data_page_header.num_values < 0)
			pq_corrupt("data page has a negative value count %d",
					   ph->data_page_header.num_values);
		return ph->data_page_header.num_values;
	}
	else
	{
		const PqDataPageHeaderV2 *dh = &ph->data_page_header_v2;

		if (!ph->has_data_page_header_v2)
			pq_corrupt("data page v2 has no data_page_header_v2");
		if (dh->num_values < 0 || dh->num_nulls < 0 || dh->num_rows < 0 ||
			dh->num_nulls > dh->num_values)
			pq_corrupt("data page v2 has invalid counts (values %d, nulls %d, rows %d)",
					   dh->num_values, dh->num_nulls, dh->num_rows);
		return dh->num_values;
	}
}

static void
check_crc(const PqPageHeader *ph, const uint8 *body)
{
	if (ph->has_crc &&
		pq_crc32(body, ph->compressed_page_size) != (uint32) ph->crc)
		pq_corrupt("page CRC32 mismatch (stored %08x, computed %08x)",
				   (uint32) ph->crc, pq_crc32(body, ph->compressed_page_size));
}

/*
 * The page body as stored after decryption (body itself when the chunk is
 * not encrypted); a dictionary's stays with the chunk, as its values may
 * point into it.
 */
static const uint8 *
decrypt_body(PqColumnReader *r, PqPageHeader *ph, const uint8 *body, bool dict)
{
	if (r->cipher == NULL)
		return body;
	return pq_decrypt_page_body(r->cipher, dict, r->page_ordinal,
								dict ? r->chunk_cxt : r->page_cxt, ph, body);
}

/*
 * Advance to the next data page with values and open it; false at the end
 * of the chunk.  A data page of at most skip level entries is passed over
 * without being decoded: r->row moves past it and the result is true with
 * no page open.  With selected pages, the bytes before the first data page
 * come first (dictionary), then the selected pages, each of which must
 * start at r->row.
 */
static bool
load_next_page(PqColumnReader *r, int64 skip)
{
	for (;;)
	{
		PqPageHeader ph;
		PqPageRef  *ref = NULL;
		const uint8 *p;
		size_t		avail;
		size_t		hlen;
		const uint8 *body;
		int32		entries;

		if (r->pos < r->chunk_len)
		{
			p = r->chunk + r->pos;
			avail = r->chunk_len - r->pos;
			r->page_offset = r->chunk_start + r->pos;
		}
		else if (r->sel != NULL && r->sel_next < r->nsel)
		{
			ref = &r->sel[r->sel_next];
			if (ref->first_row != r->row)
				elog(ERROR, "rows " INT64_FORMAT " to " INT64_FORMAT " of column \"%s\" were not loaded",
					 r->row, ref->first_row - 1, r->col->path);
			p = ref->data;
			avail = ref->size;
			r->page_offset = ref->offset;
		}
		else
		{
			if (r->sel != NULL && r->row < r->end_row)
				elog(ERROR, "rows " INT64_FORMAT " to " INT64_FORMAT " of column \"%s\" were not loaded",
					 r->row, r->end_row - 1, r->col->path);
			if (r->sel == NULL && r->entries_seen != r->chunk_values)
			{
				r->loc.page_offset = -1;
				pq_corrupt("column chunk metadata states " INT64_FORMAT " values, but its pages hold " INT64_FORMAT,
						   r->chunk_values, r->entries_seen);
			}
			return false;
		}
		MemoryContextReset(r->page_cxt);
		r->rep_all = r->def_all = NULL;
		r->level_pos = 0;
		r->loc.page_offset = r->page_offset;

		if (ref)
			r->page_ordinal = ref->ordinal;
		if (ref == NULL && r->chunk_slack > 0)
			avail += r->chunk_slack;
		if (r->cipher)
			hlen = pq_decrypt_page_header(r->cipher,
										  r->dict_first && !r->has_dict &&
										  r->page_ordinal == 0,
										  r->page_ordinal, r->page_cxt,
										  p, avail, &ph);
		else
			hlen = pq_read_page_header(p, avail, &ph);
		if (ref == NULL && r->chunk_slack > 0)
		{
			/* the chunk's size left out this header and no other bytes */
			if (r->pos == 0 && ph.type == PQ_PAGE_DICTIONARY &&
				hlen <= r->chunk_slack)
				r->chunk_len += hlen;
			r->chunk_slack = 0;
			avail = r->chunk_len - r->pos;
			if (hlen > avail)
				pq_corrupt("page header of %zu bytes extends past the end of the column chunk",
						   hlen);
		}
		if (ph.compressed_page_size < 0 || ph.uncompressed_page_size < 0)
			pq_corrupt("page header has negative sizes (compressed %d, uncompressed %d)",
					   ph.compressed_page_size, ph.uncompressed_page_size);
		if ((size_t) ph.compressed_page_size > avail - hlen)
			pq_corrupt("page of %d bytes extends past the end of the %s",
					   ph.compressed_page_size,
					   ref ? "page the offset index gives" : "column chunk");
		body = p + hlen;
		if (ref)
		{
			if (hlen + ph.compressed_page_size != (size_t) ref->size)
				pq_corrupt("page has %zu bytes with its header, but the offset index says %d",
						   hlen + ph.compressed_page_size, ref->size);
			r->sel_next++;
		}
		else
			r->pos += hlen + ph.compressed_page_size;

		if (ph.type != PQ_PAGE_DATA && ph.type != PQ_PAGE_DATA_V2)
		{
			if (ref)
				pq_corrupt("offset index points at a %s page, not a data page",
						   pq_page_type_name(ph.type));
			if (ph.type == PQ_PAGE_DICTIONARY && take_pruning_dictionary(r))
				continue;
			check_crc(&ph, body);
			if (ph.type == PQ_PAGE_DICTIONARY)
				load_dictionary(r, &ph, decrypt_body(r, &ph, body, true));
			/* index pages and page types from the future are skipped */
			continue;
		}
		if (r->sel != NULL && ref == NULL)
			pq_corrupt("data page precedes the first page of the offset index");

		entries = data_page_entries(&ph);
		if (!r->rereading)
		{
			r->entries_seen += entries;
			if (r->entries_seen > r->chunk_values)
				pq_corrupt("column chunk metadata states " INT64_FORMAT " values, but its pages hold " INT64_FORMAT " or more",
						   r->chunk_values, r->entries_seen);
		}
		if (ref && entries != ref->nrows)
			pq_corrupt("data page has %d rows, but the offset index gives it " INT64_FORMAT,
					   entries, ref->nrows);
		if (entries > 0 && entries <= skip)
		{
			r->row += entries;
			r->page_ordinal++;
			return true;
		}

		check_crc(&ph, body);
		body = decrypt_body(r, &ph, body, false);
		r->page_ordinal++;
		r->in_page = true;
		if (!r->rereading)
			r->pages_read++;
		if (ph.type == PQ_PAGE_DATA)
			open_data_page_v1(r, &ph, body);
		else
			open_data_page_v2(r, &ph, body);
		if (r->page_left > 0)
			return true;
		r->in_page = false;
	}
}

int
pq_column_reader_next(PqColumnReader *r, int max, PqSegment *seg)
{
	int			n;

	enter_chunk(r);
	if (!r->in_page && !load_next_page(r, 0))
	{
		n = 0;
		seg->n = 0;
	}
	else
	{
		n = Min(Min(max, r->page_left), r->cap);
		pq_segment_decode(r, n, seg);
	}
	leave_chunk(r);
	return n;
}

void
pq_column_reader_skip(PqColumnReader *r, int64 nrows)
{
	int64		target = r->row + nrows;

	if (nrows < 0 || target > r->end_row)
		elog(ERROR, "cannot skip " INT64_FORMAT " rows at row " INT64_FORMAT " of " INT64_FORMAT,
			 nrows, r->row, r->end_row);
	enter_chunk(r);
	while (r->row < target)
	{
		if (r->in_page)
		{
			/* the value decoders only go forward */
			pq_segment_skip(r, (int) Min(Min((int64) r->page_left, target - r->row),
										 (int64) r->cap));
			continue;
		}
		if (r->sel != NULL)
		{
			/* rows up to the next selected page were never loaded */
			if (r->sel_next >= r->nsel || r->sel[r->sel_next].first_row >= target)
			{
				r->row = target;
				break;
			}
			r->row = r->sel[r->sel_next].first_row;
		}
		if (!load_next_page(r, target - r->row))
			pq_corrupt("column chunk ends after " INT64_FORMAT " of " INT64_FORMAT " level entries",
					   r->row, r->end_row);
	}
	leave_chunk(r);
}
