/*-------------------------------------------------------------------------
 *
 * dictionary_reader.c
 *		The dictionary page of a column chunk on its own, for pruning
 *		before the chunk is read, kept for the chunk's column reader.
 *
 * Like column_reader.c it needs memory contexts of their own, so it is
 * built into the fuzzers (fuzz_file) but not the shim's unit tests.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/codec/codec.h"
#include "format/read/buffer_pool.h"
#include "format/read/dictionary_reader.h"
#include "utils/memutils.h"

/*
 * Bytes read first when the end of the dictionary page is not known: a
 * dictionary page header takes a few dozen bytes, and small dictionaries
 * come whole in the same read.
 */
#define PQ_DICTIONARY_PREFIX (64 * 1024)

bool
pq_chunk_fully_dictionary_encoded(const PqColumnMetaData *cm)
{
	bool		dict_page = false;
	bool		dict_data = false;
	int			i;

	if (!cm->has_encoding_stats)
		return false;
	for (i = 0; i < cm->n_encoding_stats; i++)
	{
		const PqPageEncodingStats *es = &cm->encoding_stats[i];

		if (es->count < 0)
			return false;
		if (es->count == 0)
			continue;
		switch (es->page_type)
		{
			case PQ_PAGE_DICTIONARY:
				dict_page = true;
				break;
			case PQ_PAGE_DATA:
			case PQ_PAGE_DATA_V2:
				if (!pq_encoding_is_dictionary(es->encoding))
					return false;
				dict_data = true;
				break;
			case PQ_PAGE_INDEX:
				break;
			default:
				/* a page type from the future may hold values */
				return false;
		}
	}
	return dict_page && dict_data;
}

/*
 * The dictionaries read for pruning, kept until those of another row group
 * are read, so that the column readers of the same chunks take them
 * instead of decoding their dictionary pages again.
 */
typedef struct HeldBuffer
{
	uint8	   *buf;
	size_t		cap;
} HeldBuffer;

typedef struct DictionaryCache
{
	MemoryContext cxt;			/* reset when the row group changes */
	int			row_group;
	PqDictionary *dicts;		/* per column; id 0: not read */

	/*
	 * Large buffers come from pq_buffer_pool (when there is one), so that
	 * their pages are not faulted in again for every query, and go back when
	 * the row group changes or the file is closed.
	 */
	int			nheld;
	int			maxheld;
	HeldBuffer *held;
	MemoryContextCallback give_back;
} DictionaryCache;

static void
give_back_buffers(void *arg)
{
	DictionaryCache *dc = arg;

	while (dc->nheld > 0)
	{
		dc->nheld--;
		pq_buffer_pool->put(dc->held[dc->nheld].buf, dc->held[dc->nheld].cap);
	}
}

/* size bytes that live until the row group changes */
static void *
cache_alloc(DictionaryCache *dc, size_t size)
{
	size = Max(size, 1);
	if (pq_buffer_pool == NULL || size < PQ_DICTIONARY_PREFIX)
		return MemoryContextAllocHuge(dc->cxt, size);
	if (dc->nheld == dc->maxheld)
	{
		dc->maxheld = Max(8, 2 * dc->maxheld);
		dc->held = dc->held ?
			repalloc(dc->held, sizeof(HeldBuffer) * dc->maxheld) :
			MemoryContextAlloc(dc->cxt, sizeof(HeldBuffer) * dc->maxheld);
	}
	dc->held[dc->nheld].buf = pq_buffer_pool->get(size,
												  &dc->held[dc->nheld].cap);
	return dc->held[dc->nheld++].buf;
}

static DictionaryCache *
dictionary_cache(PqFile *file, int row_group)
{
	DictionaryCache *dc = file->dictionary_cache;
	int			ncols = Max(file->schema->n_columns, 1);

	if (dc == NULL)
	{
		dc = MemoryContextAllocZero(file->cxt, sizeof(DictionaryCache));
		dc->cxt = AllocSetContextCreate(file->cxt, "parquet dictionaries",
										ALLOCSET_DEFAULT_SIZES);
		dc->row_group = -1;
		file->dictionary_cache = dc;
	}
	if (dc->row_group != row_group)
	{
		/* the callback gives the held buffers back */
		MemoryContextReset(dc->cxt);
		dc->held = NULL;
		dc->maxheld = 0;
		if (pq_buffer_pool)
		{
			dc->give_back.func = give_back_buffers;
			dc->give_back.arg = dc;
			MemoryContextRegisterResetCallback(dc->cxt, &dc->give_back);
		}
		dc->dicts = MemoryContextAllocZero(dc->cxt, sizeof(PqDictionary) * ncols);
		dc->row_group = row_group;
	}
	return dc;
}

/* Decode the PLAIN values of a dictionary page body. */
static void
decode_entries(DictionaryCache *dc, const PqColumnDescr *col,
			   const uint8 *body, size_t len, int count, PqDictionary *out)
{
	PqValueDecoder dec;

	pq_valdec_init(&dec, PQ_ENC_PLAIN, col->physical_type, col->type_length,
				   body, len, count);
	out->id = pq_new_dictionary_id();
	out->count = count;
	out->fixed = NULL;
	out->ba = NULL;
	if (col->physical_type == PQ_BYTE_ARRAY)
	{
		PqByteArray *ba = cache_alloc(dc, sizeof(PqByteArray) * count);

		pq_valdec_read_byte_array(&dec, count, ba);
		out->ba = ba;
	}
	else
	{
		int			width = pq_fixed_width(col->physical_type,
										   col->type_length);
		uint8	   *fixed = cache_alloc(dc, (size_t) width * count);

		pq_valdec_read_fixed(&dec, count, fixed);
		out->fixed = fixed;
	}
}

const PqDictionary *
pq_cached_dictionary(PqFile *file, int row_group, int column)
{
	DictionaryCache *dc = file->dictionary_cache;

	if (dc == NULL || dc->row_group != row_group || dc->dicts[column].id == 0)
		return NULL;
	return &dc->dicts[column];
}

/* pq_read_dictionary() of a chunk whose dictionary is not cached yet */
static bool
read_dictionary(PqFile *file, DictionaryCache *dc, int row_group, int column,
				PqErrorLocation *loc, PqDictionary *out)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[column];
	const PqColumnMetaData *cm = &cc->meta_data;
	const PqColumnDescr *col = &file->schema->columns[column];
	const PqDictionaryPageHeader *dh;
	MemoryContext old;
	PqPageHeader ph;
	int64		start;
	int64		avail;
	int64		want;
	uint8	   *buf;
	size_t		hlen;
	size_t		clen;
	size_t		ulen;
	const uint8 *body;

	if (cc->file_path != NULL || cc->crypto_metadata.kind != PQ_CRYPTO_NONE ||
		!cc->has_meta_data || cm->type != col->physical_type ||
		!pq_codec_supported(cm->codec))
		return false;

	/*
	 * The dictionary page comes first in the chunk; dictionary_page_offset 0
	 * means absent (parquet-mr 1.12), and the page header has the last word.
	 */
	start = cm->data_page_offset;
	if (cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
		cm->dictionary_page_offset < start)
		start = cm->dictionary_page_offset;
	if (start < 4 || start >= file->data_end)
		pq_corrupt("column chunk starts at byte " INT64_FORMAT ", outside the data area [4, " INT64_FORMAT ")",
				   start, file->data_end);
	avail = file->data_end - start;
	loc->page_offset = start;

	/* when the data pages follow it, the page ends where they begin */
	if (cm->data_page_offset > start &&
		cm->data_page_offset - start <= cm->total_compressed_size)
		want = cm->data_page_offset - start;
	else
		want = PQ_DICTIONARY_PREFIX;
	want = Min(want, avail);

	old = MemoryContextSwitchTo(dc->cxt);
	buf = cache_alloc(dc, want);
	file->src->read(file->src, start, want, buf);
	hlen = pq_read_page_header(buf, want, &ph);
	if (ph.type != PQ_PAGE_DICTIONARY)
	{
		MemoryContextSwitchTo(old);
		return false;
	}
	if (ph.compressed_page_size < 0 || ph.uncompressed_page_size < 0)
		pq_corrupt("page header has negative sizes (compressed %d, uncompressed %d)",
				   ph.compressed_page_size, ph.uncompressed_page_size);
	clen = ph.compressed_page_size;
	ulen = ph.uncompressed_page_size;
	if (clen > (size_t) avail - hlen)
		pq_corrupt("dictionary page of %zu bytes extends past the column data",
				   clen);
	if (hlen + clen > (size_t) want)
	{
		uint8	   *all = cache_alloc(dc, hlen + clen);

		memcpy(all, buf, want);
		file->src->read(file->src, start + want, hlen + clen - want,
						all + want);
		buf = all;
	}
	body = buf + hlen;
	if (ph.has_crc && pq_crc32(body, clen) != (uint32) ph.crc)
		pq_corrupt("page CRC32 mismatch (stored %08x, computed %08x)",
				   (uint32) ph.crc, pq_crc32(body, clen));

	dh = &ph.dictionary_page_header;
	if (!ph.has_dictionary_page_header)
		pq_corrupt("dictionary page has no dictionary_page_header");
	if (dh->num_values < 0)
		pq_corrupt("dictionary page has a negative value count %d",
				   dh->num_values);
	if (dh->encoding != PQ_ENC_PLAIN && dh->encoding != PQ_ENC_PLAIN_DICTIONARY)
	{
		MemoryContextSwitchTo(old);
		return false;
	}
	/* the entries are sized by the claim: it must fit the bytes */
	if (pq_plain_min_bytes(col->physical_type, col->type_length,
						   dh->num_values) > ulen)
		pq_corrupt("dictionary page claims %d values in %zu bytes",
				   dh->num_values, ulen);

	if (cm->codec == PQ_CODEC_UNCOMPRESSED)
	{
		if (clen != ulen)
			pq_corrupt("uncompressed page has compressed size %zu but uncompressed size %zu",
					   clen, ulen);
	}
	else
	{
		uint8	   *dst;

		pq_check_page_size(cm->codec, clen, ulen);
		dst = cache_alloc(dc, ulen);
		pq_decompress(cm->codec, body, clen, dst, ulen);
		body = dst;
	}
	decode_entries(dc, col, body, ulen, dh->num_values, out);
	MemoryContextSwitchTo(old);
	dc->dicts[column] = *out;
	return true;
}

bool
pq_read_dictionary(PqFile *file, int row_group, int column, PqDictionary *out)
{
	DictionaryCache *dc = dictionary_cache(file, row_group);
	PqErrorLocation loc;
	bool		found;

	if (dc->dicts[column].id != 0)
	{
		*out = dc->dicts[column];
		return true;
	}
	pq_errloc_push(&loc, file->src->name);
	loc.row_group = row_group;
	loc.column = file->schema->columns[column].path;
	found = read_dictionary(file, dc, row_group, column, &loc, out);
	pq_errloc_pop(&loc);
	return found;
}
