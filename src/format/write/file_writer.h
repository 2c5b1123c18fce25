/*-------------------------------------------------------------------------
 *
 * file_writer.h
 *		Write a Parquet file: schema and options in, column batches in,
 *		row groups, page indexes, Bloom filters and the footer out to a
 *		sequential sink.
 *
 * Usage:
 *
 *		w = pq_file_writer_create(&sink, fields, nfields, &opts);
 *		for each batch of rows:
 *			for each leaf column c:
 *				pq_file_writer_write_column(w, c, ...);
 *			pq_file_writer_end_rows(w, nrows);
 *		pq_file_writer_finish(w);
 *
 * The file is: "PAR1", row groups (each column chunk: dictionary page,
 * data pages), all ColumnIndexes, all OffsetIndexes, all Bloom filters,
 * the FileMetaData, its 4-byte length, "PAR1".  With encryption
 * (file_encrypt.h), the modules of encrypted columns are encrypted, and
 * the footer is either encrypted ("PARE" at both ends) or signed.  The writer buffers one row
 * group (compressed pages per column) and writes it when the row group
 * reaches row_group_rows rows or row_group_bytes bytes.  Temporary files,
 * renaming, fsync and cleanup on error are the caller's.
 *
 * Memory: everything is allocated in the memory context current at
 * pq_file_writer_create(), which each call switches to; deleting that
 * context frees the writer.  Per-row-group buffers are reused.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_FILE_WRITER_H
#define PQ_FILE_WRITER_H

#include "format/metadata/metadata.h"
#include "format/write/file_encrypt.h"

/*
 * One node of the schema, listed depth first (a group is followed by its
 * num_children children, each with its own subtree), without the root.
 * A leaf (num_children == 0) is a column; columns are numbered in list
 * order.  Its maximum definition level counts the OPTIONAL and REPEATED
 * nodes on its path, its maximum repetition level the REPEATED ones.
 */
typedef struct PqWriterField
{
	const char *name;
	int			repetition;		/* PqRepetition */
	int			num_children;	/* > 0: a group; 0: a leaf column */
	int			physical_type;	/* leaves: PqPhysicalType */
	int			type_length;	/* FIXED_LEN_BYTE_ARRAY */
	PqLogicalType logical;		/* id PQ_LT_NONE: none; groups: LIST, MAP */

	/*
	 * -1: the ConvertedType matching logical (none where there is no
	 * equivalent); else this one (INTERVAL, which has no LogicalType).
	 */
	int			converted_type;
	bool		bloom_filter;	/* leaves: write a Bloom filter per chunk */
	double		bloom_fpp;		/* false positive rate; <= 0: 0.01 */
	int64		bloom_ndv;		/* distinct values to size for; <= 0: those of
								 * each chunk */
} PqWriterField;

typedef struct PqWriterOptions
{
	int			codec;			/* PqCodec; default SNAPPY */
	int			compression_level;	/* < 0 (default): the codec's default */
	int64		row_group_rows; /* default 122880 */
	int64		row_group_bytes;	/* default 128 MiB (buffered, compressed) */
	int64		data_page_bytes;	/* default 1 MiB (encoded, uncompressed) */
	int64		data_page_rows; /* default 20000, as parquet-mr and arrow-rs:
								 * pages small enough for the page index to
								 * narrow a lookup */
	int			page_version;	/* 1 (default) or 2 */
	bool		dictionary;		/* default on */
	int64		dictionary_page_limit;	/* default 1 MiB: then fall back */
	bool		statistics;		/* chunk statistics; default on */
	bool		page_index;		/* ColumnIndex/OffsetIndex; default on (page
								 * header statistics are written only when
								 * this is off and statistics on) */
	int			stats_truncate_length;	/* byte array bounds; default 64; <=
										 * 0: never truncate */
	const char *created_by;		/* default "parquet_fdw" */
	const PqKeyValue *key_value;	/* file key/value metadata */
	int			n_key_value;
	const PqEncryptionOptions *encryption;	/* NULL: a plaintext file */
} PqWriterOptions;

/*
 * Where the file goes: write() must take all len bytes or raise an ERROR.
 * offset is the number of bytes written so far; the writer advances it.
 */
typedef struct PqSink
{
	void		(*write) (struct PqSink *sink, const uint8 *data, size_t len);
	void	   *opaque;
	int64		offset;
} PqSink;

typedef struct PqFileWriter PqFileWriter;

extern void pq_writer_options_init(PqWriterOptions *opts);

/* ConvertedType matching a LogicalType, -1 when there is none. */
extern int	pq_converted_type_for(const PqLogicalType *logical);

/*
 * Validate schema and options (ERRCODE_INVALID_PARAMETER_VALUE) and write
 * the leading magic.  fields and opts are copied.
 */
extern PqFileWriter *pq_file_writer_create(PqSink *sink,
										   const PqWriterField *fields,
										   int nfields,
										   const PqWriterOptions *opts);

extern int	pq_file_writer_num_columns(const PqFileWriter *w);
extern void pq_file_writer_column_levels(const PqFileWriter *w, int column,
										 int *max_def, int *max_rep);

/*
 * Append whole rows to one column: see pq_column_writer_write() for the
 * levels and values.  Each column must receive the same rows before
 * pq_file_writer_end_rows() is called with their number.
 */
extern void pq_file_writer_write_column(PqFileWriter *w, int column,
										int nlevels, const int16 *def,
										const int16 *rep, int nvalues,
										const void *fixed,
										const PqByteArray *ba);
extern void pq_file_writer_end_rows(PqFileWriter *w, int nrows);

/*
 * Rows the current row group takes before it reaches row_group_rows, so
 * callers can size batches to end row groups exactly.
 */
extern int64 pq_file_writer_row_group_room(const PqFileWriter *w);

/* Row groups written to the sink so far. */
extern int	pq_file_writer_num_row_groups(const PqFileWriter *w);

/* End the current row group now (nothing if it has no rows). */
extern void pq_file_writer_flush_row_group(PqFileWriter *w);

/* Flush, then page indexes, Bloom filters and the footer. */
extern void pq_file_writer_finish(PqFileWriter *w);

#endif							/* PQ_FILE_WRITER_H */
