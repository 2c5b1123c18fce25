/*-------------------------------------------------------------------------
 *
 * z85.h
 *		Z85 (ZeroMQ RFC 32), the base-85 text Delta Lake uses for the UUID
 *		of a deletion vector's file name and for inline deletion vectors.
 *
 * Five characters give four bytes, most significant first.  Delta pads
 * what it encodes with zero bytes to a multiple of four and records the
 * length before padding elsewhere (a deletion vector's sizeInBytes), so
 * the text's length is always a multiple of five here.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_Z85_H
#define PQ_Z85_H

/* The bytes len characters decode to (len a multiple of 5). */
#define PQ_Z85_DECODED_LEN(len) ((len) / 5 * 4)

/*
 * Decode the len characters at text into PQ_Z85_DECODED_LEN(len) bytes at
 * out.  False, with *why (which quotes none of the text), when len is not
 * a multiple of 5, a character is not one of Z85's 85, or a group of five
 * stands for more than 2^32 - 1 (no encoder writes that; RFC 32 leaves it
 * undefined).  out may then be partly written.  Allocates nothing.
 */
extern bool pq_z85_decode(const char *text, size_t len, uint8 *out,
						  const char **why);

#endif							/* PQ_Z85_H */
