/*-------------------------------------------------------------------------
 *
 * schema.h
 *		The Parquet schema as a tree, with leaf columns, definition and
 *		repetition levels, and logical types resolved (LogicalType, with the
 *		legacy ConvertedType as fallback).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_SCHEMA_H
#define PQ_SCHEMA_H

#include "format/metadata/metadata.h"

/*
 * Resolved logical type ids beyond the LogicalType union: INTERVAL exists
 * only as a ConvertedType.
 */
#define PQ_LT_INTERVAL 1001

typedef struct PqSchemaNode
{
	const PqSchemaElement *elem;
	const char *name;
	int			repetition;		/* PqRepetition; root is REQUIRED */
	bool		is_leaf;
	int			physical_type;	/* leaves only */
	int			type_length;	/* FLBA length; 12 for INT96 */
	PqLogicalType logical;		/* resolved; id PQ_LT_NONE if plain */
	int			converted_type; /* -1 when absent */
	int			max_def;		/* definition level of this node */
	int			max_rep;		/* repetition level of this node */
	int			depth;			/* root 0 */
	struct PqSchemaNode *parent;
	struct PqSchemaNode **children;
	int			n_children;
	int			first_leaf;		/* leaves under this node: [first_leaf,
								 * first_leaf + n_leaves) */
	int			n_leaves;
} PqSchemaNode;

typedef struct PqColumnDescr
{
	int			index;			/* leaf ordinal = ColumnChunk index */
	PqSchemaNode *node;
	const char *path;			/* dotted path, for messages */
	int			physical_type;
	int			type_length;
	int			max_def;
	int			max_rep;
	int			column_order;	/* PqColumnOrderKind */
} PqColumnDescr;

typedef struct PqSchema
{
	PqSchemaNode *root;
	PqColumnDescr *columns;
	int			n_columns;
	bool		unique_names;	/* no two top-level fields share a name */
} PqSchema;

/*
 * Build the tree from the flattened schema list of md, validating its
 * structure (child counts, leaves have a physical type, FLBA length > 0,
 * depth limit).  Errors with pq_corrupt().
 */
extern PqSchema *pq_schema_build(const PqFileMetaData *md);

/*
 * The child of node called name, exactly; NULL when there is none, or two
 * (which of them a name means is unknown).
 */
extern PqSchemaNode *pq_schema_child(const PqSchemaNode *node,
									 const char *name);

/* Top-level field by name: exact match, else a unique case-insensitive one. */
extern PqSchemaNode *pq_schema_find_field(const PqSchema *schema,
										  const char *name);

/*
 * The same, trying first the field at *hint (the position where the name
 * was found in another file's schema: files of one table mostly share a
 * layout), and setting *hint to the position found.
 */
extern PqSchemaNode *pq_schema_find_field_hinted(const PqSchema *schema,
												 const char *name, int *hint);

/* A short text form of a node's logical type, e.g. "DECIMAL(9,2)". */
extern char *pq_logical_type_string(const PqSchemaNode *node);

/*
 * A copy of schema's tree (nodes, child arrays, columns pointing into the
 * copy) in the current memory context, whose names the caller may change:
 * a view of a file under other names (Delta column mapping).
 */
extern PqSchema *pq_schema_copy(const PqSchema *schema);

/* Same physical layout and types (used to check multi-file tables). */
extern bool pq_schema_node_equal(const PqSchemaNode *a, const PqSchemaNode *b);

#endif							/* PQ_SCHEMA_H */
