/*-------------------------------------------------------------------------
 *
 * nested.h
 *		Nested Parquet fields (LIST, MAP, structs, VARIANT, repeated
 *		fields) as one column: arrays, composites or jsonb.
 *
 *		nested.c	the declared type against the field's shape: a
 *							plan of arrays, composites, scalars and JSON;
 *							Datums from value trees; natural types
 *		jsonb.c		value trees -> JSON text -> jsonb / json
 *
 * The reading of a nested column (its leaf readers and assembler, batches
 * of rows -> Datums) is the table reader's: fdw/scan/table_reader_nested.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_CONVERT_NESTED_H
#define PQFDW_CONVERT_NESTED_H

#include "access/tupdesc.h"
#include "fdw/convert/convert.h"
#include "format/metadata/schema_nested.h"
#include "format/read/assemble.h"

typedef enum PqNestedKind
{
	PQ_NESTED_SCALAR,			/* a leaf through a PqConverter */
	PQ_NESTED_ARRAY,			/* a LIST, or a MAP as composite entries */
	PQ_NESTED_COMPOSITE,		/* a struct, or a MAP entry */
	PQ_NESTED_JSON				/* anything, rendered as JSON */
} PqNestedKind;

/*
 * How one schema node's values become Datums of one type.  Built against
 * the first file's schema; every file of a table has the same structure, so
 * a plan only keeps positions, types and leaf numbers.
 */
typedef struct PqNestedPlan
{
	PqNestedKind kind;
	const char *what;			/* column, field path: for messages */
	Oid			type;
	int32		typmod;
	bool		as_element;		/* the node is looked at as an occurrence */

	/* SCALAR */
	const char *path;			/* the leaf's dotted path, for messages */
	PqConverter cv;
	int			leaf_column;	/* leaf ordinal in the file */
	int			leaf;			/* position among the column's leaves read */

	/* ARRAY: elements (LIST) or entries (MAP, each a COMPOSITE) */
	bool		elem_is_occurrence; /* see PqShape.element */
	int16		list_def;		/* LIST: below this level, the list is NULL */
	int16		elem_def;		/* LIST: below this level, no element */
	struct PqNestedPlan *elem;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;

	/* COMPOSITE: attribute i <- child att_child[i] (-1: always NULL) */
	TupleDesc	tupdesc;
	struct PqNestedPlan **atts;
	int		   *att_child;

	/* JSON: jsonb, else json */
	bool		jsonb;
	int			first_leaf;		/* the node's leaves, all read */
	int			n_leaves;
} PqNestedPlan;

/* A nested field read into one column of a table. */
typedef struct PqNestedColumn
{
	const char *attname;
	PqNestedPlan *plan;
	int			nleaves;		/* leaves read, in column order */
	int		   *leaf_columns;
	PqNestedPlan **leaf_scalar; /* per leaf read: its SCALAR plan or NULL */
	Datum	  **leaf_datums;	/* per leaf read: the batch's values */
	PqValue    *rows;			/* value trees of a batch */
	int			max_rows;
	const char *converting;		/* for error context: what is converted */
	bool		list_from_levels;	/* a list of primitives: no value trees */
	bool		struct_from_levels; /* a struct of primitives: no value trees */
	int16		struct_def;		/* below this level, the struct is NULL */

	/* the current file, in its context */
	PqFile	   *file;
	PqColumnReader **readers;
	PqAssembler *assembler;
} PqNestedColumn;

/* Does this top-level field need record assembly (not a flat leaf)? */
static inline bool
pqfdw_is_nested_field(const PqSchemaNode *field)
{
	return !field->is_leaf || field->repetition == PQ_REPEATED;
}

/* nested.c */


/*
 * The type IMPORT FOREIGN SCHEMA gives a nested field: an array of the
 * element's natural type for a list of primitives, jsonb otherwise.
 */
extern void pqfdw_nested_natural_type(const PqSchemaNode *field, Oid *typid,
									  int32 *typmod);

/*
 * A plan for reading field into a column of type typid/typmod; an
 * impossible declaration is an error naming the column and the field.
 * Allocates in cxt.  Fills nc's plan and leaves.  variant_keys (String
 * nodes; NIL: all): for a VARIANT field read as jsonb, the only object
 * fields the query uses (v -> 'key'), so that the shredded columns of the
 * other fields are not read.
 */
extern void pqfdw_nested_plan(PqNestedColumn *nc, const PqSchemaNode *field,
							  Oid typid, int32 typmod, const char *attname,
							  List *variant_keys, MemoryContext cxt);

/* The Datum of slot, a value of the plan's node. */
extern Datum pqfdw_nested_datum(PqNestedColumn *nc, PqNestedPlan *p,
								const PqValue *slot, bool *isnull);

/* jsonb.c */

/*
 * Append slot, a value of node (as_element: one occurrence of a repeated
 * node), to buf as JSON.  False when it is NULL (nothing appended).
 */
extern bool pqfdw_json_render(PqBuffer *buf, const PqSchemaNode *node,
							  bool as_element, const PqValue *slot);

/* jsonb (or json) Datum of slot; *isnull when it is NULL. */
extern Datum pqfdw_json_datum(const PqNestedPlan *p, const PqValue *slot,
							  bool *isnull);

#endif							/* PQFDW_CONVERT_NESTED_H */
