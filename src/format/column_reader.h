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
 *-------------------------------------------------------------------------
 */
#ifndef PQ_COLUMN_READER_H
#define PQ_COLUMN_READER_H

#include "encoding.h"
#include "file_reader.h"

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

typedef struct PqColumnReader
{
	PqFile	   *file;
	const PqColumnDescr *col;
	int			row_group;
	int			codec;
	int			value_width;	/* pq_fixed_width(), 0 for BYTE_ARRAY */
	MemoryContext chunk_cxt;	/* chunk bytes and dictionary */
	MemoryContext page_cxt;		/* decompressed page, decoder arenas */

	/* the column chunk's bytes */
	uint8	   *chunk;
	int64		chunk_start;
	size_t		chunk_len;
	size_t		pos;

	bool		has_dict;
	PqDictionary dict;

	/* current data page */
	bool		in_page;
	int64		page_offset;
	int			page_left;		/* level entries not yet returned */
	bool		page_is_dict;
	bool		rep_rle;		/* levels streamed from RLE decoders */
	bool		def_rle;
	PqRleDecoder rep_dec;
	PqRleDecoder def_dec;
	int16	   *rep_all;		/* whole-page BIT_PACKED levels */
	int16	   *def_all;
	int			level_pos;		/* position in rep_all/def_all */
	PqValueDecoder values;

	/* scratch for one segment */
	int			cap;
	int16	   *def;
	int16	   *rep;
	uint32	   *indices;
	uint8	   *fixed;
	PqByteArray *ba;

	/* statistics */
	int64		pages_read;
	int64		bytes_read;
} PqColumnReader;

/* Maximum level entries per segment. */
#define PQ_SEGMENT_CAP 4096

extern PqColumnReader *pq_column_reader_create(PqFile *file, int column,
											   MemoryContext parent);

/* Read the column chunk of row_group into memory and start at its first page. */
extern void pq_column_reader_start(PqColumnReader *r, int row_group);

/*
 * Next segment of at most max level entries.  Returns seg->n, 0 at the end
 * of the chunk.
 */
extern int	pq_column_reader_next(PqColumnReader *r, int max, PqSegment *seg);

/* Release the chunk's memory (the reader can be started again). */
extern void pq_column_reader_release(PqColumnReader *r);

#endif							/* PQ_COLUMN_READER_H */
