/*-------------------------------------------------------------------------
 *
 * variant.h
 *		Parquet VARIANT values as JSON text: the Variant binary encoding
 *		(metadata + value) and shredded VARIANT groups reconstructed from
 *		their typed_value columns.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_VARIANT_H
#define PQ_VARIANT_H

#include "format/metadata/nested_value.h"

/*
 * Append the JSON rendering (docs/JSON.md) of one Variant value, given its
 * metadata and value components.  Every offset, id and length is checked;
 * invalid input raises pq_corrupt().
 */
extern void pq_variant_binary_to_json(PqBuffer *buf,
									  const uint8 *metadata, size_t metadata_len,
									  const uint8 *value, size_t value_len);

/*
 * Append the JSON rendering of the VARIANT-annotated group value v (its
 * metadata, value and, when shredded, typed_value children, found by name),
 * reconstructing shredded values as the Variant Shredding spec says.
 * Returns false when the whole value is SQL NULL (v is PQ_VAL_NULL).  A
 * Variant null renders as JSON null.  Invalid shredding raises pq_corrupt().
 */
extern bool pq_variant_group_to_json(PqBuffer *buf, const PqValue *v);

#endif							/* PQ_VARIANT_H */
