/*-------------------------------------------------------------------------
 *
 * column_reader.h
 *		Reads one column chunk page by page and hands out segments: runs of
 *		level entries with their decoded values, never crossing a page.
 *
 * The caller converts each segment before asking for the next one: segment
 * pointers stay valid only until the next pq_column_reader_next() call.
 * Dictionary-encoded pages are returned as dictionary ids plus the
 * dictionary, so that callers can convert each dictionary entry once.
 *
 * With an OffsetIndex, a reader can load only the pages that hold given row
 * ranges (pq_column_reader_start_ranges) and move forward over rows it does
 * not need (pq_column_reader_skip): pages outside the ranges are never read
 * from the file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_COLUMN_READER_H
#define PQ_COLUMN_READER_H

#include "format/encoding/encoding.h"
#include "format/read/file_reader.h"
#include "format/read/page_index.h"

typedef struct PqDictionary
{
	uint32		id;				/* unique per loaded dictionary (process-wide) */
	int			count;
	const void *fixed;			/* fixed-width values */
	const PqByteArray *ba;		/* BYTE_ARRAY values */
} PqDictionary;

typedef struct PqSegment
{
	int			n;				/* level entries (rows for flat columns) */
	const int16 *def;			/* NULL when every entry of a flat column has
								 * a value */
	const int16 *rep;			/* NULL when max_rep == 0 */
	int			nvalues;		/* non-null values */
	const uint32 *indices;		/* non-NULL: values are ids into dict */
	const PqDictionary *dict;
	const void *fixed;			/* fixed-width values, pq_fixed_width() each */
	const PqByteArray *ba;		/* BYTE_ARRAY values */
} PqSegment;

/* A data page selected by pq_column_reader_start_ranges(). */
typedef struct PqPageRef
{
	int64		offset;			/* file offset of the page header */
	int32		size;			/* header and body (OffsetIndex) */
	int64		first_row;		/* within the row group */
	int64		nrows;
	int			ordinal;		/* data page ordinal in the chunk (AAD) */
	const uint8 *data;			/* the page's bytes, in chunk_cxt */
} PqPageRef;


typedef struct PqColumnReader
{
	MemoryContext cxt;			/* the reader's own: it and all it holds */
	PqFile	   *file;
	const PqColumnDescr *col;
	int			row_group;
	int			codec;
	int			value_width;	/* pq_fixed_width(), 0 for BYTE_ARRAY */
	const PqChunkCipher *cipher;	/* NULL: the chunk is not encrypted */
	bool		dict_first;		/* the chunk starts with a dictionary page */
	int			page_ordinal;	/* next data page's ordinal (AAD) */
	MemoryContext chunk_cxt;	/* chunk bytes and dictionary */
	MemoryContext page_cxt;		/* decompressed page, decoder arenas */
	PqErrorLocation loc;		/* pushed while a call works on the chunk */

	/*
	 * The column chunk's bytes; with selected pages only those before the
	 * first data page (dictionary), the pages themselves are in sel.
	 */
	const uint8 *chunk;
	int64		chunk_start;
	size_t		chunk_len;
	size_t		chunk_slack;	/* bytes after chunk_len read for a dictionary
								 * page header the chunk's size left out
								 * (PQ_MAX_DICT_HEADER_SIZE) */
	size_t		pos;

	PqPageRef  *sel;			/* NULL when reading the whole chunk */
	int			nsel;
	int			sel_next;		/* next page of sel to open */
	bool		rereading;		/* rewound: pages were counted already */

	/* level entries (rows, for flat columns) consumed in the row group */
	int64		row;
	int64		end_row;		/* entries in the row group */
	int64		chunk_values;	/* level entries the chunk's metadata states */
	int64		entries_seen;	/* level entries of the data pages met */

	bool		has_dict;
	PqDictionary dict;

	/* current data page */
	bool		in_page;
	int64		page_offset;
	int			page_left;		/* level entries not yet returned */
	/* data page v2: rows and values its header gives, and those decoded */
	bool		page_counts;
	int			page_rows;
	int			page_values;
	int			page_rows_seen;
	int			page_values_seen;
	bool		page_is_dict;
	bool		rep_rle;		/* levels streamed from RLE decoders */
	bool		def_rle;
	PqRleDecoder rep_dec;
	PqRleDecoder def_dec;
	int16	   *rep_all;		/* whole-page BIT_PACKED levels */
	int16	   *def_all;
	int			level_pos;		/* position in rep_all/def_all */
	PqValueDecoder values;

	/* buffers from pq_buffer_pool, kept from row group to row group */
	uint8	   *chunk_buf;
	size_t		chunk_buf_cap;
	uint8	   *page_buf;
	size_t		page_buf_cap;

	/* scratch for one segment */
	int			cap;
	int16	   *def;
	int16	   *rep;
	uint32	   *indices;
	uint8	   *fixed;
	PqByteArray *ba;

	/* statistics */
	int64		pages_read;		/* data pages decoded */
	int64		pages_skipped;	/* data pages not read from the file */
	int64		bytes_read;
} PqColumnReader;

/* Maximum level entries per segment. */
#define PQ_SEGMENT_CAP 4096

/*
 * Most bytes a segment's fixed-width values take: a wide FIXED_LEN_BYTE_ARRAY
 * gets fewer values a segment (one at least), so that its width, a number
 * from the file, never multiplies PQ_SEGMENT_CAP into an allocation.
 */
#define PQ_SEGMENT_FIXED_BYTES (1024 * 1024)

/* Values a segment holds for values of width bytes (0: BYTE_ARRAY). */
static inline int
pq_segment_cap(int width)
{
	if (width <= PQ_SEGMENT_FIXED_BYTES / PQ_SEGMENT_CAP)
		return PQ_SEGMENT_CAP;
	return Max(1, PQ_SEGMENT_FIXED_BYTES / width);
}

extern PqColumnReader *pq_column_reader_create(PqFile *file, int column,
											   MemoryContext parent);

/*
 * Point r at column of file as pq_column_reader_create() would, keeping its
 * scratch and buffers: a scan over many files reuses one reader per column.
 * False (r unchanged) when the column's values do not fit r's scratch (BYTE_ARRAY
 * or not, another width).  r's last file may have been freed already.  The
 * statistics start again at zero.
 */
extern bool pq_column_reader_rebind(PqColumnReader *r, PqFile *file,
									int column);

/* Free r and everything it holds; its buffers go back to the pool. */
extern void pq_column_reader_free(PqColumnReader *r);

/* Read the column chunk of row_group into memory and start at its first page. */
extern void pq_column_reader_start(PqColumnReader *r, int row_group);

/*
 * Start row_group on its chunk's bytes (pq_file_chunk_range()) that the
 * caller read: they are not copied, and must stay as they are until the
 * reader is started again or released (format/read/chunk_fetch.h).
 */
extern void pq_column_reader_start_bytes(PqColumnReader *r, int row_group,
										 const uint8 *chunk);

/*
 * Start row_group reading only the data pages that overlap ranges (sorted,
 * disjoint, within the row group; empty ones are ignored) plus whatever
 * precedes the first data page (the dictionary).  oi must come from
 * pq_offset_index_read() for this chunk; a page whose header disagrees with
 * it is corrupt.  Nearby pages are fetched with one read.  The reader is
 * positioned at the first row of the first selected page (the row group's
 * end when none is).  With oi or ranges NULL, or for a repeated column, the
 * whole chunk is read, as pq_column_reader_start() does.
 */
extern void pq_column_reader_start_ranges(PqColumnReader *r, int row_group,
										  const PqOffsetIndex *oi,
										  const PqRowRange *ranges,
										  int nranges);

/*
 * Move forward nrows level entries (rows, for flat columns) without
 * returning them.  Rows of pages that were not loaded are passed over
 * without reading; pages that are skipped whole are not decoded.
 */
extern void pq_column_reader_skip(PqColumnReader *r, int64 nrows);

/*
 * Level entries (rows, for flat columns) already returned or skipped in the
 * row group: the row the next segment starts with.
 */
static inline int64
pq_column_reader_row(const PqColumnReader *r)
{
	return r->row;
}

/*
 * Next segment of at most max level entries, starting at
 * pq_column_reader_row().  Returns seg->n, 0 at the end of the chunk.
 * Asking for rows of a page that was not selected is an error.
 */
extern int	pq_column_reader_next(PqColumnReader *r, int max, PqSegment *seg);

/*
 * Go back to the first selected page (after pq_column_reader_start_ranges()
 * selected pages), to read rows of the same pages again without fetching
 * them from the file.  False when the reader did not select pages.
 */
extern bool pq_column_reader_rewind(PqColumnReader *r);

/* Release the chunk's memory (the reader can be started again). */
extern void pq_column_reader_release(PqColumnReader *r);

#endif							/* PQ_COLUMN_READER_H */
