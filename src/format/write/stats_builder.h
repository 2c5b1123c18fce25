/*-------------------------------------------------------------------------
 *
 * stats_builder.h
 *		Writer-side statistics: the sort order of a column, min/max/null/NaN
 *		accumulation per page and per column chunk, the bounds as written
 *		(float zero rules, truncated byte arrays) and the ColumnIndex
 *		boundary order.
 *
 * Bounds are kept exact while accumulating, in their PLAIN encoding without
 * a length prefix (what Statistics.min_value/max_value hold); truncation
 * happens only when a bound is written.  The rules follow ColumnOrder
 * TYPE_ORDER in parquet.thrift: floats ignore NaN, a zero minimum is
 * written as -0.0 and a zero maximum as +0.0, nan_count is always set for
 * floats; INTERVAL, GEOMETRY, GEOGRAPHY, VARIANT and INT96 get no bounds.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_STATS_BUILDER_H
#define PQ_STATS_BUILDER_H

#include "format/metadata/metadata.h"

/* How a column's values compare (ColumnOrder TYPE_ORDER). */
typedef enum PqSortOrder
{
	PQ_SORT_NONE = 0,			/* undefined: no min/max is written */
	PQ_SORT_BOOL,				/* false < true */
	PQ_SORT_INT32,				/* signed */
	PQ_SORT_UINT32,
	PQ_SORT_INT64,
	PQ_SORT_UINT64,
	PQ_SORT_FLOAT,				/* NaN ignored, -0.0 == +0.0 */
	PQ_SORT_DOUBLE,
	PQ_SORT_FLOAT16,			/* FLBA(2) little-endian half floats */
	PQ_SORT_BYTES,				/* unsigned lexicographic */
	PQ_SORT_DECIMAL				/* big-endian two's complement, any length */
} PqSortOrder;

/* The order of a leaf column; converted_type -1 when absent. */
extern int	pq_sort_order(int physical_type, const PqLogicalType *logical,
						  int converted_type);

static inline bool
pq_sort_order_is_float(int order)
{
	return order == PQ_SORT_FLOAT || order == PQ_SORT_DOUBLE ||
		order == PQ_SORT_FLOAT16;
}

/*
 * Compare two bounds in their PLAIN encoding (no length prefix) under
 * order: <0, 0, >0.  Not for PQ_SORT_NONE.  NaNs compare as equal to
 * everything; they never reach a bound.
 */
extern int	pq_stats_compare(int order, const uint8 *a, int alen,
							 const uint8 *b, int blen);

/* Statistics of one page or one column chunk. */
typedef struct PqStatsAcc
{
	int			order;			/* PqSortOrder */
	int			ptype;			/* physical type */
	int			width;			/* bytes per fixed-width value; 0 for
								 * BYTE_ARRAY */
	bool		utf8;			/* STRING/ENUM/JSON: truncate at characters */
	bool		truncatable;	/* BYTE_ARRAY with byte order: may truncate */
	int64		null_count;
	int64		nan_count;
	bool		has_bounds;		/* min/max hold at least one value */
	PqBuffer	min;			/* exact bounds, PLAIN without length prefix */
	PqBuffer	max;
} PqStatsAcc;

extern void pq_stats_init(PqStatsAcc *s, int physical_type, int type_length,
						  const PqLogicalType *logical, int converted_type);
extern void pq_stats_reset(PqStatsAcc *s);

/*
 * Account n non-null values: fixed holds n values of width bytes (BOOLEAN:
 * one byte 0/1 each), or ba holds n byte arrays.  The values are only read.
 */
extern void pq_stats_update(PqStatsAcc *s, const void *fixed,
							const PqByteArray *ba, int n);

/* Fold src (a page) into dst (its chunk). */
extern void pq_stats_merge(PqStatsAcc *dst, const PqStatsAcc *src);

/*
 * The bounds as written, appended to out; b gives their offsets and
 * lengths in out (offsets, as out may move).
 * Byte arrays longer than truncate_len (> 0) are truncated: the minimum to
 * a prefix, the maximum to a prefix whose last byte (or character, for
 * UTF-8 types) is incremented so it stays an upper bound; a maximum that
 * cannot be incremented stays exact.  Returns false, appending nothing, if
 * there are no bounds (order NONE, only nulls or NaNs).
 */
typedef struct PqStatsBounds
{
	size_t		min_off;
	int			min_len;
	bool		min_exact;
	size_t		max_off;
	int			max_len;
	bool		max_exact;
} PqStatsBounds;

extern bool pq_stats_bounds(const PqStatsAcc *s, int truncate_len,
							PqBuffer *out, PqStatsBounds *b);

/*
 * Statistics as written (pointers into store, valid until it is appended
 * to again): null_count always, nan_count for floats, min_value/max_value
 * with their exactness when there are bounds, and the deprecated min/max
 * too where the order is the signed one old readers assume (INT32, INT64,
 * FLOAT, DOUBLE), as Arrow writes them.
 */
extern void pq_stats_to_thrift(const PqStatsAcc *s, int truncate_len,
							   PqBuffer *store, PqStatistics *st);

/*
 * Truncation primitives (exposed for tests).  pq_truncate_min returns the
 * length of the prefix to keep (<= limit, at a character boundary for
 * UTF-8).  pq_truncate_max appends a bound > every value starting with the
 * kept prefix and returns true, or returns false (appending nothing) when
 * no such bound of at most about limit bytes exists.
 */
extern int	pq_truncate_min(const uint8 *v, int len, int limit, bool utf8);
extern bool pq_truncate_max(const uint8 *v, int len, int limit, bool utf8,
							PqBuffer *out);

/*
 * ColumnIndex boundary order of npages pages whose bounds (as written) are
 * min[i]/max[i]; pages with null_page[i] are skipped.  ASCENDING when both
 * lists never decrease (also for 0 or 1 page), DESCENDING when both never
 * increase, else UNORDERED.
 */
extern int	pq_boundary_order(int order, const PqBytes *min,
							  const PqBytes *max, const bool *null_page,
							  int npages);


#endif							/* PQ_STATS_BUILDER_H */
