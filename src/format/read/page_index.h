/*-------------------------------------------------------------------------
 *
 * page_index.h
 *		Page index of a column chunk (OffsetIndex, ColumnIndex) and sorted
 *		lists of row ranges within a row group.
 *
 * The OffsetIndex says where each data page of a chunk starts and which
 * row it starts with; the ColumnIndex gives each page's bounds, null flags
 * and counts.  Both are read only on demand, from the byte ranges the
 * ColumnChunk names, and validated before anything uses them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_PAGE_INDEX_H
#define PQ_PAGE_INDEX_H

#include "format/read/file_reader.h"

/* Rows [start, end) of one row group. */
typedef struct PqRowRange
{
	int64		start;
	int64		end;
} PqRowRange;

/*
 * Read, decode and validate the OffsetIndex of a column chunk, allocating
 * in the current memory context.  False when the chunk has none.  Valid
 * means: the first page starts at row 0, first_row_index never decreases
 * and stays within num_rows, pages do not overlap, lie in ascending order
 * inside the file's data area and have a positive size.
 */
extern bool pq_offset_index_read(PqFile *file, int row_group, int column,
								 PqOffsetIndex *oi);

/*
 * Read, decode and validate the ColumnIndex of a column chunk whose
 * OffsetIndex is oi: every per-page list present has one entry per page and
 * boundary_order is known (else pq_corrupt()).  False when the chunk has
 * none, or its statistics cannot be believed: unknown (negative) null
 * counts, or a "null" page of a flat column that holds values.  Negative
 * nan_counts are dropped (set to NULL).  Bounds point into a buffer in the
 * current memory context.
 */
extern bool pq_column_index_read(PqFile *file, int row_group, int column,
								 const PqOffsetIndex *oi, PqColumnIndex *ci);

/*
 * pq_corrupt() unless oi is valid (as above) for a row group of num_rows
 * rows whose pages must lie in [area_start, area_end) of the file.
 */
extern void pq_offset_index_check(const PqOffsetIndex *oi, int64 num_rows,
								  int64 area_start, int64 area_end);

/* First row after page i: the next page's first row, or num_rows. */
extern int64 pq_page_end_row(const PqOffsetIndex *oi, int page,
							 int64 num_rows);

/*
 * Rows of the pages with keep[i] set, as a sorted list of disjoint,
 * non-adjacent ranges (*n of them; the result is never NULL).
 */
extern PqRowRange *pq_page_row_ranges(const PqOffsetIndex *oi, int64 num_rows,
									  const bool *keep, int *n);

/*
 * Intersection and union of two sorted lists of disjoint ranges, as a new
 * sorted list of disjoint, non-adjacent ranges (never NULL).
 */
extern PqRowRange *pq_row_ranges_intersect(const PqRowRange *a, int na,
										   const PqRowRange *b, int nb,
										   int *n);
extern PqRowRange *pq_row_ranges_union(const PqRowRange *a, int na,
									   const PqRowRange *b, int nb, int *n);

/*
 * A list of ranges built from sorted rows: add rows base + rows[0 .. m),
 * ascending and after every row added before; adjacent rows join a range.
 * Allocated in the memory context current at init.
 */
typedef struct PqRowRangeList
{
	PqRowRange *ranges;
	int			n;
	int			cap;
} PqRowRangeList;

extern void pq_row_range_list_init(PqRowRangeList *l);
extern void pq_row_range_list_add(PqRowRangeList *l, int64 base,
								  const int *rows, int m);

/* Rows covered by a list of disjoint ranges. */
extern int64 pq_row_ranges_rows(const PqRowRange *r, int n);

#endif							/* PQ_PAGE_INDEX_H */
