/*-------------------------------------------------------------------------
 *
 * file_reader.h
 *		Open a Parquet file: magic, footer, FileMetaData, schema; locate
 *		column chunks.
 *
 * I/O goes through PqSource so that the format layer does not depend on
 * how the caller opens files (the FDW uses transient files that are closed
 * on transaction abort).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_FILE_READER_H
#define PQ_FILE_READER_H

#include "format/metadata/schema.h"
#include "format/read/file_crypto.h"

typedef struct PqSource PqSource;

struct PqSource
{
	const char *name;			/* for error messages */
	int64		size;
	/* Read exactly len bytes at offset into buf, or raise an ERROR. */
	void		(*read) (PqSource *src, int64 offset, size_t len, uint8 *buf);

	/*
	 * The same for n ranges at once, or NULL (then read is called for each):
	 * sources that pay a round trip per request put them in flight together.
	 */
	void		(*read_many) (PqSource *src, int n, const int64 *offsets,
							  const size_t *lens, uint8 **bufs);
	int64		coalesce_gap;	/* ranges this close are read as one */

	/*
	 * Fetch ranges all at once, for the row groups the scan enters now or
	 * (background) for those after them, and keep them until the next call of
	 * the same kind: reads within them are then served from memory, a read of
	 * a range still in flight waiting for that range alone (the ranges for
	 * now are requested first).  poll moves the transfers on without waiting.
	 * NULL where reads are cheap (local files).
	 */
	void		(*prefetch) (PqSource *src, int n, const int64 *offsets,
							 const size_t *lens, bool background);
	void		(*poll) (PqSource *src);
	void	   *opaque;
	int64		bytes_read;		/* statistics for EXPLAIN ANALYZE */
	const PqDecryptionConfig *decrypt;	/* keys; NULL: none available */
};

typedef struct PqFile
{
	PqSource   *src;
	uint8	   *footer;			/* FileMetaData bytes; md points into it */
	uint32		footer_len;
	int64		data_end;		/* first byte after the column data */
	PqFileMetaData md;
	PqSchema   *schema;
	MemoryContext cxt;			/* where the file was opened: caches live here */
	void	   *page_index_cache;	/* decoded page indexes (page_index.c) */
	void	   *dictionary_cache;	/* dictionaries read for pruning
									 * (dictionary_reader.c) */
	void	   *geo_cache;		/* GeoParquet "geo" metadata read for pruning
								 * (fdw/prune/geo_covering.c) */
	PqFileCrypto *crypto;		/* NULL for files without encryption */
	bool		dict_header_uncounted;	/* written by parquet-mr < 1.2.9 */
} PqFile;

/*
 * parquet-mr before 1.2.9 left the dictionary page header out of a chunk's
 * total_compressed_size (PARQUET-816, IMPALA-694).  For its files the chunk
 * range is read with up to this many bytes more, and the column reader
 * extends the chunk by the header it finds at the chunk's start, never
 * further.
 */
#define PQ_MAX_DICT_HEADER_SIZE 100

/* Smallest valid file: "PAR1" + footer length + "PAR1" and a footer byte */
#define PQ_MIN_FILE_SIZE 12

/*
 * Read and validate the footer.  Allocates in the current memory context.
 * Encrypted footers are decrypted with the key src->decrypt finds; the
 * signature of a plaintext footer is verified when the footer key is
 * available.  Column chunks stored in other files raise pq_unsupported().
 */
extern PqFile *pq_file_open(PqSource *src);

/*
 * A file opened before (by pq_file_open, its footer unchanged since) read
 * again through src: a new PqFile in the current memory context sharing
 * parsed's footer, metadata and schema, which must stay unchanged and
 * alive as long as it.  Only for files without encryption.
 */
extern PqFile *pq_file_view(const PqFile *parsed, PqSource *src);

/*
 * Byte range [*start, *start + *len) of a column chunk, validated against
 * the file.  Uses the smaller valid offset of the dictionary and first data
 * page (dictionary_page_offset 0 means absent).  For dict_header_uncounted
 * files *len includes up to PQ_MAX_DICT_HEADER_SIZE bytes past the stated
 * end (*slack of them; always 0 for other files), which belong to the chunk
 * only as far as its dictionary page header reaches.
 */
extern void pq_file_chunk_range(const PqFile *file, int row_group, int column,
								int64 *start, int64 *len, int64 *slack);

/*
 * Column chunk metadata, with a clear error when it is not usable; for
 * encrypted columns with separately encrypted metadata, the decrypted one.
 */
extern const PqColumnMetaData *pq_file_chunk_meta(const PqFile *file,
												  int row_group, int column);

#endif							/* PQ_FILE_READER_H */
