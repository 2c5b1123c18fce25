/*-------------------------------------------------------------------------
 *
 * schema_nested.h
 *		What the values of a schema node are: a primitive, a struct, a
 *		list, a map or a VARIANT, by the LIST and MAP rules of the
 *		LogicalTypes spec, backward-compatibility rules included.
 *
 * Values of a node as the assembler builds them (nested_value.h) mirror
 * the schema: a repeated node's slot holds a PQ_VAL_LIST of its
 * occurrences, a group's value a PQ_VAL_GROUP with one entry per child.
 * A shape says how to read a list or a map out of that mirror:
 *
 *	  LIST-annotated group  value GROUP -> items[0] LIST of occurrences of
 *							`repeated`; each element is the occurrence
 *							itself (element == repeated: 2-level lists,
 *							rules 1-4) or its only child (3-level lists).
 *	  MAP-annotated group   value GROUP -> items[0] LIST of key_value
 *							occurrences; key = items[0] and value =
 *							items[1] of each, by position.
 *	  unannotated repeated  the slot itself is the LIST of occurrences:
 *	  field					a required list of required elements, each
 *							element the occurrence (element == repeated).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_SCHEMA_NESTED_H
#define PQ_SCHEMA_NESTED_H

#include "format/metadata/nested_value.h"

typedef enum PqShapeKind
{
	PQ_SHAPE_PRIMITIVE,			/* a leaf value */
	PQ_SHAPE_STRUCT,			/* a group of named fields */
	PQ_SHAPE_LIST,
	PQ_SHAPE_MAP,
	PQ_SHAPE_VARIANT			/* a VARIANT-annotated group */
} PqShapeKind;

typedef struct PqShape
{
	PqShapeKind kind;

	/*
	 * LIST and MAP: the repeated node whose occurrences are the elements
	 * (entries).  It is the node itself for an unannotated repeated field.
	 */
	const PqSchemaNode *repeated;

	/*
	 * LIST: the node of each element, either `repeated` (look at it with
	 * as_element = true) or the only child of `repeated`.
	 */
	const PqSchemaNode *element;

	/* MAP: first and second child of `repeated`; value NULL when absent */
	const PqSchemaNode *key;
	const PqSchemaNode *value;
} PqShape;

/*
 * The shape of node's values.  as_element: node is an element of an
 * enclosing list that is the repeated node itself (shape.element ==
 * shape.repeated), so its REPEATED repetition is already accounted for and
 * one occurrence is looked at.  A LIST or MAP annotation on a structure
 * that cannot be read as one raises pq_corrupt(), naming the node; a
 * MAP_KEY_VALUE annotation that does not fit is ignored (it is legacy and
 * was written on key_value groups).
 */
extern void pq_shape_of(const PqSchemaNode *node, bool as_element,
						PqShape *shape);

/* Is the element of a LIST shape the occurrence itself (as_element)? */
static inline bool
pq_shape_element_is_occurrence(const PqShape *shape)
{
	return shape->element == shape->repeated;
}

/*
 * The occurrences of a LIST or MAP value, slot, where the assembler put it:
 * an unannotated repeated field's slot is the list itself, an annotated
 * group's value holds it as its only child.  False when the value is NULL.
 */
extern bool pq_value_items(const PqValue *slot, const PqValue **items,
						   int *n);

/* The element of one occurrence of a list (see PqShape.element). */
static inline const PqValue *
pq_list_element(bool element_is_occurrence, const PqValue *occurrence)
{
	return element_is_occurrence ? occurrence :
		&occurrence->u.children.items[0];
}

#endif							/* PQ_SCHEMA_NESTED_H */
