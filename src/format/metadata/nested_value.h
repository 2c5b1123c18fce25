/*-------------------------------------------------------------------------
 *
 * nested_value.h
 *		One top-level field's value of one row, assembled from the
 *		repetition and definition levels of its leaf columns: a tree that
 *		mirrors the schema tree below the field.
 *
 * The record assembler (format/read/assemble.c) builds these; the glue turns them into
 * arrays, composites or jsonb, and the VARIANT decoder reads shredded
 * VARIANT groups from them.  Values live in the memory context of the batch
 * that produced them; byte pointers point into page buffers and are valid
 * only until the assembler moves on (the caller converts first).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_NESTED_VALUE_H
#define PQ_NESTED_VALUE_H

#include "format/metadata/schema.h"

typedef enum PqValueKind
{
	PQ_VAL_NULL,				/* null, or a field absent at this level */
	PQ_VAL_SCALAR,				/* a leaf value */
	PQ_VAL_LIST,				/* the elements of a repeated node */
	PQ_VAL_GROUP				/* a group: one entry per schema child */
} PqValueKind;

typedef struct PqValue
{
	PqValueKind kind;

	/*
	 * PQ_VAL_SCALAR: the value's index among its leaf's values in the batch
	 * (format/read/assemble.h), for callers that converted a batch's values
	 * in bulk.
	 */
	int			vindex;

	/*
	 * The schema node this value is of.  For PQ_VAL_LIST, the repeated node
	 * whose occurrences are the items (each item is of that node).
	 */
	const PqSchemaNode *node;
	union
	{
		/* PQ_VAL_SCALAR, as stored (physical type of node) */
		union
		{
			bool		b;
			int32		i32;
			int64		i64;
			float		f;
			double		d;
			struct
			{
				const uint8 *ptr;	/* BYTE_ARRAY, FLBA, INT96 (12 bytes) */
				uint32		len;
			}			bytes;
		}			scalar;
		/* PQ_VAL_LIST and PQ_VAL_GROUP */
		struct
		{
			struct PqValue *items;	/* LIST: occurrences; GROUP: one per child
									 * of node, in schema order */
			int			n;
		}			children;
	}			u;
} PqValue;

#endif							/* PQ_NESTED_VALUE_H */
