/*-------------------------------------------------------------------------
 *
 * segment_decode.h
 *		A column reader's open page, a segment at a time (segment_decode.c;
 *		for column_reader.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_SEGMENT_DECODE_H
#define PQ_SEGMENT_DECODE_H

#include "format/read/column_reader.h"

/*
 * The next n (>= 1, at most the page's entries left and the reader's cap)
 * level entries of r's open page: decoded into seg, or passed over.
 */
extern void pq_segment_decode(PqColumnReader *r, int n, PqSegment *seg);
extern void pq_segment_skip(PqColumnReader *r, int n);

#endif							/* PQ_SEGMENT_DECODE_H */
