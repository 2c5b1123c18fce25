/*-------------------------------------------------------------------------
 *
 * encoding_parts.h
 *		Interfaces between value_decoder.c and the per-encoding files.  Only
 *		the encoding files include this; other layers use encoding.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_ENC_INTERNAL_H
#define PQ_ENC_INTERNAL_H

#include "format/encoding/encoding.h"

/* plain.c: PLAIN values of d->ptype from [d->pos, d->end). */
extern void pq_plain_read_fixed(PqValueDecoder *d, int n, uint8 *out);
extern void pq_plain_read_byte_array(PqValueDecoder *d, int n,
									 PqByteArray *out);

/*
 * delta_bytes.c: decode the page's values, at most max_values, into
 * d->arrays (pointing into buf or into one arena) and set d->remaining to
 * their number.  For FIXED_LEN_BYTE_ARRAY every value must be type_length
 * bytes long.
 */
extern void pq_delta_length_decode(PqValueDecoder *d, const uint8 *buf,
								   size_t len, int max_values);
extern void pq_delta_byte_array_decode(PqValueDecoder *d, const uint8 *buf,
									   size_t len, int max_values);

/*
 * byte_stream_split.c: values of width bytes; lowers d->remaining to
 * the number of values the section holds.
 */
extern void pq_bss_init(PqValueDecoder *d, const uint8 *buf, size_t len,
						int width);
extern void pq_bss_read(PqValueDecoder *d, int n, int width, uint8 *out);

#endif							/* PQ_ENC_INTERNAL_H */
