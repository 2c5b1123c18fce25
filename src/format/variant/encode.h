/*-------------------------------------------------------------------------
 *
 * encode.h
 *		JSON text -> the Variant binary encoding (metadata + value), for
 *		writing VARIANT columns.
 *
 * The metadata is a sorted dictionary of the object keys the value uses;
 * objects list their fields in key order.  JSON numbers become the
 * smallest exact Variant number: int8/16/32/64 for integers, decimal4/8/16
 * (the digits as written, scale up to 38) otherwise; strings of fewer
 * than 64 bytes are short strings.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_VARIANT_ENCODE_H
#define PQ_VARIANT_ENCODE_H

#include "format/common/pq_common.h"

/* Deepest nesting of arrays and objects accepted. */
#define PQ_VARIANT_MAX_DEPTH 1000

/*
 * Encode one JSON text (RFC 8259, UTF-8) and append its metadata and value
 * to the two buffers.  Invalid JSON is an ERROR
 * (ERRCODE_INVALID_TEXT_REPRESENTATION), and so is a number with more than
 * 38 significant digits or a scale beyond 38, which no Variant number
 * holds exactly (ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE).
 */
extern void pq_variant_encode_json(const char *json, size_t len,
								   PqBuffer *metadata, PqBuffer *value);

#endif							/* PQ_VARIANT_ENCODE_H */
