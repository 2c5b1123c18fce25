/*-------------------------------------------------------------------------
 *
 * dictionary_reader.h
 *		Read only the dictionary page of a column chunk, and tell from the
 *		chunk's encoding_stats whether that dictionary holds every value.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_DICTIONARY_READER_H
#define PQ_DICTIONARY_READER_H

#include "format/read/column_reader.h"

/*
 * True when the chunk's encoding_stats prove that every data page is
 * dictionary-encoded (PLAIN_DICTIONARY or RLE_DICTIONARY), so that the
 * dictionary page lists every non-null value of the chunk.  Without
 * encoding_stats the answer is false: the encodings list does not say which
 * pages use which encoding.
 */
extern bool pq_chunk_fully_dictionary_encoded(const PqColumnMetaData *cm);

/*
 * Read, check (sizes, CRC) and decode the dictionary page of a column chunk
 * into *out; nothing else of the chunk is read.  False when there is no
 * dictionary page to use: the chunk starts with another page, or its data
 * lies in another file, is encrypted, or uses a codec or dictionary
 * encoding this build cannot read (the column reader reports those).
 *
 * The dictionary stays in the file until dictionaries of another of its
 * row groups are read (a second call returns it again), and the column
 * reader of the same chunk takes it (pq_cached_dictionary) instead of
 * decoding the dictionary page a second time: pruning and reading a row
 * group share one decoded dictionary and its id.  Callers must not read
 * another row group's dictionaries while a column reader of this one is
 * in use.
 */
extern bool pq_read_dictionary(PqFile *file, int row_group, int column,
							   PqDictionary *out);

/* The dictionary pq_read_dictionary() keeps for the chunk, or NULL. */
extern const PqDictionary *pq_cached_dictionary(PqFile *file, int row_group,
												int column);

#endif							/* PQ_DICTIONARY_READER_H */
