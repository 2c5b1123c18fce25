/*-------------------------------------------------------------------------
 *
 * value_text.h
 *		Iceberg values as text that PostgreSQL's input function of the
 *		matching type reads: partition values of a manifest entry, column
 *		bounds (the spec's single-value binary serialization, Appendix D)
 *		and v3 default values (its JSON single-value serialization).
 *
 * The scan turns these texts into Datums with the declared column's input
 * function, as it does hive partition values, so that one path converts
 * every per-file constant.  PostgreSQL-free: malformed input gives NULL
 * and *why (a sentence part quoting none of the value).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_ICEBERG_VALUE_TEXT_H
#define PQ_ICEBERG_VALUE_TEXT_H

#include "table/common/json_tree.h"
#include "table/iceberg/manifest.h"

/*
 * type: a primitive type's canonical name (metadata.h).  Text forms:
 * integers and decimals in decimal notation, floats in shortest-exact
 * notation ("NaN", "Infinity"), date "YYYY-MM-DD" (" BC" before year 1),
 * time "HH:MM:SS.ffffff", timestamp "YYYY-MM-DD HH:MM:SS.ffffff" (with
 * "+00" for timestamptz), uuid 8-4-4-4-12, fixed and binary "\x" and hex,
 * strings as they are (refused when holding NUL).  Nanosecond timestamps
 * are truncated to microseconds.
 */
extern char *pq_iceberg_value_text(const PqIcebergValue *v, const char *type,
								   const char **why);

/*
 * A bound of lower_bounds or upper_bounds.  Bounds written before a type
 * promotion keep the narrower encoding (an int's 4 bytes in a long column,
 * a float's in a double column), as Java's Conversions reads them.
 */
extern char *pq_iceberg_bound_text(const uint8 *bytes, int32 len,
								   const char *type, const char **why);

/* An initial-default or write-default as metadata JSON gives it. */
extern char *pq_iceberg_default_text(const PqJv *v, const char *type,
									 const char **why);

/* Whether type is one whose values these functions give as text. */
extern bool pq_iceberg_type_has_text(const char *type);

#endif							/* PQ_ICEBERG_VALUE_TEXT_H */
