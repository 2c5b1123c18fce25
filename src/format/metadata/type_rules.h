/*-------------------------------------------------------------------------
 *
 * type_rules.h
 *		Which logical type may annotate which physical type: the one rule
 *		the reader (schema.c) and the writer (file_writer.c) apply, so that
 *		every file the writer makes, the reader reads.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_TYPE_RULES_H
#define PQ_TYPE_RULES_H

#include "format/metadata/metadata.h"

/*
 * Whether a leaf of physical type pt (type_length bytes when it is a
 * FIXED_LEN_BYTE_ARRAY) may carry logical type lt: its id resolved
 * (PQ_LT_INTERVAL for the INTERVAL ConvertedType, PQ_LT_NONE for none).
 * Groups' types (LIST, MAP, VARIANT) and unknown ids never fit a leaf.
 */
extern bool pq_logical_fits_physical(const PqLogicalType *lt, int pt,
									 int type_length);

/* Digits a DECIMAL can have in a physical type; 0 if it cannot be one. */
extern int	pq_decimal_max_precision(int pt, int type_length);

#endif							/* PQ_TYPE_RULES_H */
