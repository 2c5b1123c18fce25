/*-------------------------------------------------------------------------
 *
 * stat_bounds.c
 *		Which min/max pair of a column chunk's statistics is usable: the
 *		type-defined min_value/max_value, or the legacy min/max where old
 *		writers' signed byte order is also the type's own order.
 *
 * Shared by every user of chunk bounds (row-group and page pruning,
 * bounding box coverings, aggregates from footers, estimates).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/prune/prune.h"

/*
 * Physical/logical types whose legacy min/max (written in signed byte
 * order by old writers) are also correct in the type's own order.
 */
bool
pqfdw_signed_order_is_type_order(const PqSchemaNode *node)
{
	const PqLogicalType *lt = &node->logical;

	switch (node->physical_type)
	{
		case PQ_BOOLEAN:
		case PQ_FLOAT:
		case PQ_DOUBLE:
			return lt->id == PQ_LT_NONE;
		case PQ_INT32:
		case PQ_INT64:
			return !(lt->id == PQ_LT_INTEGER && !lt->int_is_signed);
		default:
			return false;
	}
}

/*
 * The min/max pair of chunk statistics that is usable for the column: the
 * type-defined min_value/max_value, or legacy min/max where signed byte
 * order is the type's order.
 */
bool
pqfdw_chunk_stat_bytes(const PqColumnDescr *col, const PqStatistics *s,
					   PqBytes *lo, PqBytes *hi)
{
	if (s->min_value.ptr && s->max_value.ptr &&
		(col->column_order == PQ_ORDER_TYPE_DEFINED ||
		 (col->column_order == PQ_ORDER_UNKNOWN &&
		  pqfdw_signed_order_is_type_order(col->node))))
	{
		*lo = s->min_value;
		*hi = s->max_value;
		return true;
	}
	if (s->min.ptr && s->max.ptr && pqfdw_signed_order_is_type_order(col->node))
	{
		*lo = s->min;
		*hi = s->max;
		return true;
	}
	return false;
}
