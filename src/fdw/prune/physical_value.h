/*-------------------------------------------------------------------------
 *
 * physical_value.h
 *		The stored (PLAIN-encoded) form of the value an equality qual looks
 *		for, as a writer stored it in the column (physical_value.c).
 *
 * Bloom filters hash a value's PLAIN encoding in the column's physical
 * type, so probing one needs the exact bytes the writer hashed: an int4
 * constant compared with an INT64 column is hashed as 8 bytes, a numeric
 * constant compared with a DECIMAL(9,2) column as its unscaled INT32, a
 * timestamp compared with a TIMESTAMP(MILLIS) column as milliseconds.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PHYSICAL_VALUE_H
#define PQFDW_PHYSICAL_VALUE_H

#include "fdw/convert/convert.h"

typedef enum PqPhysResult
{
	PQ_PHYS_OK,					/* *out: the only stored value equal to it */
	PQ_PHYS_NO_MATCH,			/* no value the column can store equals it */
	PQ_PHYS_UNKNOWN				/* no single stored form: may match */
} PqPhysResult;

/*
 * The stored form of the values of the column read through cv that equal
 * value (of type valtype) under the btree order proc cmp (declared column
 * type, valtype) and collation.  PQ_PHYS_OK sets *out to the PLAIN encoding
 * (byte arrays without their length prefix), palloc'd in the current memory
 * context; it is returned only when exactly one stored value reads back
 * equal to value.  PQ_PHYS_NO_MATCH: no storable value reads back equal to
 * value (1.5 against an INT32 column, a microsecond timestamp against
 * milliseconds), so an equality with it cannot be true.
 */
extern PqPhysResult pqfdw_value_to_physical(PqConverter *cv, Datum value,
											Oid valtype, FmgrInfo *cmp,
											Oid collation, PqBytes *out);

#endif							/* PQFDW_PHYSICAL_VALUE_H */
