/*-------------------------------------------------------------------------
 *
 * deletion_vector.h
 *		Delta Lake deletion vectors (PROTOCOL.md, "Deletion Vectors" and
 *		"Deletion Vector Format"): where a descriptor's bytes are, and the
 *		row positions they delete.
 *
 * A descriptor (the deletionVector of an add or remove action) keeps its
 * deletion vector inline ('i': Z85 text in the log) or in a file ('u': a
 * file named after a UUID under the table's root, 'p': a path of its own).
 * A file starts with a version byte (1); at the descriptor's offset come a
 * big-endian 4-byte size, that many bytes of data and a big-endian CRC-32
 * of the data.  The data, inline or stored, is a 4-byte magic number and a
 * 64-bit roaring bitmap of row positions (RoaringBitmapArray).
 *
 * Nothing here reads files or raises errors: malformed input gives false
 * and a reason (a sentence part that quotes none of the input).  Memory
 * comes from the current memory context; libroaring's own is freed before
 * any function returns.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_DELETION_VECTOR_H
#define PQ_DELETION_VECTOR_H

/*
 * The most positions one deletion vector may delete here: as many as one
 * palloc'd array of uint64 holds (MaxAllocSize / 8).  A descriptor saying
 * more is refused before anything is read.
 */
#define PQ_DV_MAX_POSITIONS	INT64CONST(134217727)

/* The most bytes of data (sizeInBytes) one deletion vector may have. */
#define PQ_DV_MAX_BYTES		INT64CONST(1073741815)

/* The rows a deletion vector deletes, as 0-based positions in the file. */
typedef struct PqDeletedRows
{
	uint64		count;
	uint64	   *pos;			/* count positions, ascending and distinct;
								 * palloc'd, NULL when count is 0 */
} PqDeletedRows;

/* A deletionVector descriptor as the log gives it. */
typedef struct PqDeltaDv
{
	char		storage_type;	/* 'u', 'i' or 'p' */
	const char *path_or_inline; /* pathOrInlineDv, NUL-terminated */
	int64		offset;			/* -1 when absent */
	int64		size_in_bytes;
	int64		cardinality;
} PqDeltaDv;

/*
 * The file holding a 'u' or 'p' deletion vector, palloc'd.  For 'u', a
 * path relative to the table's root: "<prefix>/deletion_vector_<uuid>.bin"
 * or, without a prefix, "deletion_vector_<uuid>.bin", the UUID in lower
 * case hex with dashes; the prefix (the characters before the last 20) is
 * limited to letters, digits, '-' and '_', so that the path cannot leave
 * the table's root.  For 'p', pathOrInlineDv as given (a URI or absolute
 * path: percent-decoding and resolving it are the caller's).  NULL, with
 * *why, for an inline deletion vector or a malformed path.
 */
extern char *pq_delta_dv_file(const PqDeltaDv *dv, const char **why);

/*
 * Where a stored ('u' or 'p') deletion vector is in its file: the caller
 * reads *len bytes at *offset (the size, the data and the CRC; *len is
 * sizeInBytes + 8) and passes them to pq_delta_dv_decode().  An absent
 * offset is read as 1, the first place after the version byte (the
 * protocol says 0, which is the version byte itself; delta-kernel-rs reads
 * from 1 too).  False, with *why, for an inline deletion vector or a
 * descriptor out of bounds: offset 0 or above 2^31 - 1, sizeInBytes below
 * 8 or above PQ_DV_MAX_BYTES, cardinality negative or above
 * PQ_DV_MAX_POSITIONS, an unknown storage type.
 */
extern bool pq_delta_dv_stored_span(const PqDeltaDv *dv, int64 *offset,
									int64 *len, const char **why);

/*
 * Whether the first byte of a deletion vector file is the version this
 * reader knows (1).  The data's own CRC does not cover this byte; a reader
 * that has it (for example having read the file from its start) should
 * check it.
 */
extern bool pq_delta_dv_file_version_ok(uint8 first_byte, const char **why);

/*
 * The positions a deletion vector deletes, into *out.  For 'i' from the
 * descriptor alone (at and len are not used); for 'u' and 'p' from the len
 * bytes at that the caller read at pq_delta_dv_stored_span()'s place.
 *
 * Checks the descriptor as pq_delta_dv_stored_span() does; for stored
 * data that len is the span's, the size word equals sizeInBytes and the
 * CRC-32 matches; for inline data that the text is exactly the Z85 of
 * sizeInBytes bytes padded to a multiple of 4.  Then the data: the magic
 * number, every count and length against the bytes there are, 64-bit keys
 * strictly ascending and below 2^31, each 32-bit bitmap well formed
 * (container keys ascending, array values ascending, runs ordered and
 * inside their container, a bitset's cardinality), no bytes left over,
 * and as many positions as the descriptor's cardinality.
 *
 * The data may be the protocol's format (magic 1681511377, the portable
 * 64-bit bitmap: an 8-byte count of 32-bit bitmaps, each after its 4-byte
 * key, all little-endian) or Delta's "native" one (magic 1681511376, a
 * 4-byte count, each bitmap after its 4-byte length, its key its index),
 * little-endian as Delta writes it today or big-endian as in the
 * protocol's inline example.
 *
 * Memory: besides the positions, at most the Z85 text's length and one
 * 32-bit bitmap at a time (libroaring's, freed before returning); a count
 * or cardinality the data cannot back fails before anything is allocated
 * for it.  False, with *why and out->count 0, when anything is wrong.
 */
extern bool pq_delta_dv_decode(const PqDeltaDv *dv, const uint8 *at,
							   size_t len, PqDeletedRows *out,
							   const char **why);

#endif							/* PQ_DELETION_VECTOR_H */
