/*-------------------------------------------------------------------------
 *
 * segment_select.h
 *		Some entries of a flat column's segment as a segment of their own,
 *		so that only the rows a filter kept are converted to Datums.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_SEGMENT_SELECT_H
#define PQ_SEGMENT_SELECT_H

#include "format/read/column_reader.h"

/*
 * Where a selected segment's arrays live: room for PQ_SEGMENT_CAP entries
 * each (fixed: PQ_SEGMENT_CAP values of the column's value width).
 */
typedef struct PqSegmentScratch
{
	int16	   *def;
	uint32	   *indices;
	uint8	   *fixed;
	PqByteArray *ba;
} PqSegmentScratch;

/*
 * Entries rows[0..nrows) (ascending, each below seg->n) of seg, a segment
 * of a column without repetition whose fixed values are value_width bytes
 * wide, into out, whose arrays are scratch's (the dictionary and the byte
 * array contents stay seg's).
 */
extern void pq_segment_select(const PqSegment *seg, int value_width,
							  int16 max_def, const int *rows, int nrows,
							  const PqSegmentScratch *scratch,
							  PqSegment *out);

#endif							/* PQ_SEGMENT_SELECT_H */
