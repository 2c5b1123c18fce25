/*-------------------------------------------------------------------------
 *
 * type_rules.c
 *		Which logical type may annotate which physical type (LogicalTypes.md),
 *		for the reader and the writer alike.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <math.h>

#include "format/metadata/schema.h"
#include "format/metadata/type_rules.h"

int
pq_decimal_max_precision(int pt, int type_length)
{
	switch (pt)
	{
		case PQ_INT32:
			return 9;
		case PQ_INT64:
			return 18;
		case PQ_BYTE_ARRAY:
			return INT_MAX;
		case PQ_FIXED_LEN_BYTE_ARRAY:

			/*
			 * the digits of 2^(8n-1) - 1; past 256 bytes (616 digits, more
			 * than numeric's 1000 can need of a file) n only risks overflow
			 */
			if (type_length <= 0)
				return 0;
			return (int) floor(log10(2) * (8.0 * Min(type_length, 256) - 1));
		default:
			return 0;
	}
}

bool
pq_logical_fits_physical(const PqLogicalType *lt, int pt, int type_length)
{
	switch (lt->id)
	{
		case PQ_LT_NONE:
		case PQ_LT_UNKNOWN:
			return true;
		case PQ_LT_STRING:
		case PQ_LT_ENUM:
		case PQ_LT_JSON:
		case PQ_LT_BSON:
		case PQ_LT_GEOMETRY:
		case PQ_LT_GEOGRAPHY:
			return pt == PQ_BYTE_ARRAY;
		case PQ_LT_UUID:
			return pt == PQ_FIXED_LEN_BYTE_ARRAY && type_length == 16;
		case PQ_LT_FLOAT16:
			return pt == PQ_FIXED_LEN_BYTE_ARRAY && type_length == 2;
		case PQ_LT_INTERVAL:
			return pt == PQ_FIXED_LEN_BYTE_ARRAY && type_length == 12;
		case PQ_LT_DATE:
			return pt == PQ_INT32;
		case PQ_LT_TIME:
			if (lt->time_unit == PQ_UNIT_MILLIS)
				return pt == PQ_INT32;
			return pt == PQ_INT64 && (lt->time_unit == PQ_UNIT_MICROS ||
									  lt->time_unit == PQ_UNIT_NANOS);
		case PQ_LT_TIMESTAMP:
			return pt == PQ_INT64 && (lt->time_unit == PQ_UNIT_MILLIS ||
									  lt->time_unit == PQ_UNIT_MICROS ||
									  lt->time_unit == PQ_UNIT_NANOS);
		case PQ_LT_INTEGER:
			if (lt->int_bit_width == 64)
				return pt == PQ_INT64;
			return pt == PQ_INT32 && (lt->int_bit_width == 8 ||
									  lt->int_bit_width == 16 ||
									  lt->int_bit_width == 32);
		case PQ_LT_DECIMAL:
			return lt->decimal_precision >= 1 &&
				lt->decimal_precision <= pq_decimal_max_precision(pt, type_length) &&
				lt->decimal_scale >= 0 &&
				lt->decimal_scale <= lt->decimal_precision;
		default:
			/* LIST, MAP and VARIANT annotate groups; unknown ids nothing */
			return false;
	}
}
