/*-------------------------------------------------------------------------
 *
 * column_writer.h
 *		One leaf column of a file being written: levels and values in,
 *		encoded and compressed pages of the current column chunk out, with
 *		the chunk's metadata, statistics, page index and Bloom filter.
 *
 * The writer buffers one column chunk (a row group's worth of this
 * column): its data pages as they will be stored, and the dictionary,
 * whose page is produced when the chunk is finished and goes first.  The
 * file writer then writes the chunk and resets the column writer for the
 * next row group, keeping its buffers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_COLUMN_WRITER_H
#define PQ_COLUMN_WRITER_H

#include "format/metadata/metadata.h"
#include "format/write/dict_builder.h"
#include "format/write/file_encrypt.h"
#include "format/write/stats_builder.h"


/* Settings of one leaf column, fixed for the file. */
typedef struct PqColumnWriterConfig
{
	int			physical_type;
	int			type_length;	/* FIXED_LEN_BYTE_ARRAY */
	PqLogicalType logical;
	int			converted_type; /* -1 when none */
	int			max_def;
	int			max_rep;
	int			codec;
	int			compression_level;	/* < 0: the codec's default */
	int			page_version;	/* 1 or 2 */
	bool		dictionary;
	int64		dictionary_page_limit;	/* bytes of PLAIN entries */
	int64		data_page_bytes;
	int64		data_page_rows;
	bool		statistics;		/* chunk statistics in ColumnMetaData */
	bool		page_statistics;	/* statistics in data page headers */
	bool		page_index;		/* ColumnIndex and OffsetIndex */
	int			truncate_length;	/* byte array bounds; <= 0: never */
	bool		bloom_filter;
	double		bloom_fpp;
	int64		bloom_ndv;		/* <= 0: distinct values of the chunk */
	PqFileEncryptor *encryptor; /* NULL, or encrypts this column's pages (set
								 * by the file writer once the schema is
								 * known) */
	int			column;			/* leaf ordinal (AAD) */
} PqColumnWriterConfig;

/* A data page of the current chunk. */
typedef struct PqPageInfo
{
	int64		offset;			/* in PqColumnWriter.pages */
	int32		size;			/* header and body as stored */
	int64		first_row;		/* in the row group */
	int64		null_count;
	int64		nan_count;
	bool		null_page;		/* no non-null value */
	bool		has_bounds;
	PqStatsBounds bounds;		/* in PqColumnWriter.bounds */
} PqPageInfo;

/* Dictionary encoding state of the current chunk */
typedef enum PqDictState
{
	PQ_DICT_ACTIVE,				/* pages so far are dictionary encoded */
	PQ_DICT_FALLEN_BACK,		/* dictionary full: later pages use the
								 * fallback encoding */
	PQ_DICT_NONE				/* no dictionary in this chunk */
} PqDictState;

typedef struct PqColumnWriter
{
	PqColumnWriterConfig cfg;
	int			width;			/* fixed value width; 0 for BYTE_ARRAY */
	bool		track_stats;	/* any statistics or page index wanted */

	/* the page being filled */
	PqBuffer	def;			/* int16 levels */
	PqBuffer	rep;
	int			page_levels;
	int			page_values;	/* non-null */
	int			page_rows;
	PqBuffer	values;			/* PLAIN values (BOOLEAN: a byte each) */
	PqBuffer	ids;			/* uint32 dictionary entries */
	int64		page_plain_bytes;	/* PLAIN size of the page's values */
	PqStatsAcc	page_stats;
	bool		stats_by_entry; /* dictionary pages: bounds from entries */
	uint32		page_number;	/* of the writer's pages, from 1 */
	uint32	   *entry_page;		/* entry -> last page_number it was in */
	int			cap_entry_page;
	PqBuffer	page_entries;	/* entries new to the page, as values */

	/* the chunk */
	int			dict_state;		/* PqDictState */
	PqDictBuilder dict;
	bool		dict_checked;	/* paid off on the first page with values */
	int			fallback_encoding;	/* -1 until a fallback page is written */
	PqBuffer	pages;			/* data pages, header and body each */
	PqBuffer	dict_page;		/* header and body; empty if none */
	PqPageInfo *page_info;
	int			n_pages;
	int			cap_pages;
	PqBuffer	bounds;			/* page bounds for the ColumnIndex */
	bool		index_ok;		/* every non-null page has bounds */
	PqStatsAcc	chunk_stats;
	PqHashSet64 bloom_hashes;
	int32		page_encodings[PQ_ENC_ALP + 1]; /* data pages by encoding */
	int64		num_values;		/* level entries */
	int64		num_rows;
	int			chunk_ordinal;	/* row group of the chunk (AAD) */
	int64		uncompressed_bytes; /* headers included */
	int64		compressed_bytes;

	/* scratch buffers for one page */
	PqBuffer	enc;			/* levels and values, uncompressed */
	PqBuffer	body;			/* as stored */
	PqBuffer	header;
	PqBuffer	tmp;
	PqBuffer	sealed;			/* encrypted body */
} PqColumnWriter;

extern PqColumnWriter *pq_column_writer_create(const PqColumnWriterConfig *cfg);

/*
 * Append nlevels level entries, which must be whole rows (the first rep
 * level, if any, is 0).  def NULL: every entry is defined at max_def; rep
 * NULL: every entry starts a row.  nvalues must be the number of entries at
 * max_def; their values are in fixed (nvalues values of the physical
 * type's width; BOOLEAN one byte 0/1 each; FLBA type_length bytes each) or
 * ba (BYTE_ARRAY).  Values are copied.  Returns the number of rows.
 */
extern int	pq_column_writer_write(PqColumnWriter *cw, int nlevels,
								   const int16 *def, const int16 *rep,
								   int nvalues, const void *fixed,
								   const PqByteArray *ba);

/* Bytes the current chunk would take if finished now (an estimate). */
extern int64 pq_column_writer_buffered_bytes(const PqColumnWriter *cw);

/* Flush the last page and produce the dictionary page. */
extern void pq_column_writer_finish_chunk(PqColumnWriter *cw);

/*
 * After finish_chunk, for a chunk stored at chunk_offset in the file
 * (dictionary page, then data pages): its ColumnMetaData (all but
 * path_in_schema; arrays palloc'd), its serialized OffsetIndex, and its
 * serialized ColumnIndex and Bloom filter bitset, which may not exist
 * (false: nothing appended).
 */
extern void pq_column_writer_metadata(PqColumnWriter *cw, int64 chunk_offset,
									  PqColumnMetaData *md);
extern void pq_column_writer_offset_index(PqColumnWriter *cw,
										  int64 chunk_offset, PqBuffer *out);
extern bool pq_column_writer_column_index(PqColumnWriter *cw, PqBuffer *out);
extern bool pq_column_writer_bloom_filter(PqColumnWriter *cw, PqBuffer *out);

/* Forget the chunk, keeping the buffers, for the next row group. */
extern void pq_column_writer_reset_chunk(PqColumnWriter *cw);

#endif							/* PQ_COLUMN_WRITER_H */
