/*-------------------------------------------------------------------------
 *
 * json_path.c
 *		Pruning quals on a key path of a nested column read as jsonb (or
 *		json): "s->>'f' op text", "(s->'a'->>'f')::numeric op value", on a
 *		struct's field or on a shredded VARIANT's typed field.
 *
 * The qual reads one value per row: the JSON text rendering of a leaf
 * (docs/JSON.md), taken back out by ->> and, when cast, read by the cast
 * type's input function.  For the leaf types below that round trip gives
 * back exactly the leaf's value in the operand's type, so the qual is
 * "leaf op value" and is decided by the leaf's statistics, Bloom filter
 * and page index like a struct field's (nested_path.c):
 *
 *	 text (no cast)		STRING or ENUM: ->> gives the string itself
 *	 integer, bigint	signed integers (integer: 32 bits at most)
 *	 numeric			signed integers, DECIMAL (exact digits)
 *	 real, double		FLOAT, DOUBLE respectively (shortest text that
 *						reads back as the same float; NaN and the
 *						infinities as the strings the input reads)
 *
 * Any other pairing (a number compared as text, a DOUBLE cast to numeric
 * (the shortest text is not the binary value), a date) decides nothing.
 * A row whose struct, field or key is NULL or absent gives NULL, which no
 * comparison satisfies, and leaves a null in the leaf.
 *
 * A shredded VARIANT field ("typed_value.f" of the object group) holds a
 * row's value in its typed_value leaf only when the value has the shredded
 * type; a value of another type is in the field's own "value" column (an
 * encoded Variant), so a null typed_value does not mean the key is absent.
 * The typed leaf decides a row group only where that "value" column is
 * null in every row (its chunk's null count equals its value count).  No
 * other residual can hold the key: the object's own "value" holds only
 * fields that are not shredded (the spec forbids a field in both, and the
 * reader rejects it), and an object level whose typed_value is null holds
 * in its "value" something that is not an object (else the file is
 * invalid), whose ->'key' is NULL.
 *
 * The binding is made per row group (tr->rg_cxt): the leaf is checked
 * against the open file's schema, the residual against that row group's
 * statistics.  Plan time has no file and decides nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/prune/prune.h"
#include "format/read/file_reader.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

/* The key of "arg -> 'key'" / "arg ->> 'key'" (text: ->>), else NULL. */
static char *
object_field(Node *node, Node **arg, bool *as_text)
{
	OpExpr	   *op;
	Oid			fn;
	Const	   *key;

	if (node == NULL || !IsA(node, OpExpr))
		return NULL;
	op = (OpExpr *) node;
	fn = get_opcode(op->opno);
	if (fn != F_JSONB_OBJECT_FIELD && fn != F_JSONB_OBJECT_FIELD_TEXT &&
		fn != F_JSON_OBJECT_FIELD && fn != F_JSON_OBJECT_FIELD_TEXT)
		return NULL;
	key = (Const *) lsecond(op->args);
	if (!IsA(key, Const) || key->constisnull || key->consttype != TEXTOID)
		return NULL;
	*arg = linitial(op->args);
	*as_text = (fn == F_JSONB_OBJECT_FIELD_TEXT || fn == F_JSON_OBJECT_FIELD_TEXT);
	return TextDatumGetCString(key->constvalue);
}

Var *
pqfdw_prune_json_var(Node *node, Index relid, PqPrunePred *p)
{
	Oid			type = TEXTOID;
	char	   *keys[PQ_PRUNE_MAX_STEPS];
	int			n = 0;
	Node	   *arg;
	bool		as_text;
	char	   *key;
	int			i;

	/* the casts whose input reads the rendering back exactly */
	if (node && IsA(node, CoerceViaIO))
	{
		type = ((CoerceViaIO *) node)->resulttype;
		if (type != NUMERICOID && type != INT4OID && type != INT8OID &&
			type != FLOAT4OID && type != FLOAT8OID)
			return NULL;
		node = (Node *) ((CoerceViaIO *) node)->arg;
	}
	key = object_field(node, &arg, &as_text);
	if (key == NULL || !as_text)
		return NULL;
	keys[n++] = key;
	while ((key = object_field(arg, &arg, &as_text)) != NULL)
	{
		if (as_text || n == PQ_PRUNE_MAX_STEPS)
			return NULL;
		keys[n++] = key;
	}
	while (arg && IsA(arg, RelabelType))
		arg = (Node *) ((RelabelType *) arg)->arg;
	if (arg == NULL || !IsA(arg, Var) || ((Var *) arg)->varno != relid ||
		((Var *) arg)->varattno <= 0 || ((Var *) arg)->varlevelsup != 0)
		return NULL;
	if (p != NULL)
	{
		/* outermost key first */
		p->json_keys = palloc(sizeof(char *) * n);
		for (i = 0; i < n; i++)
			p->json_keys[i] = keys[n - 1 - i];
		p->njson_keys = n;
		p->leaf_type = type;
	}
	return (Var *) arg;
}

/* Does the JSON rendering of leaf, read back as type, give its value? */
static bool
renders_as(const PqSchemaNode *leaf, Oid type)
{
	const PqLogicalType *lt = &leaf->logical;
	bool		integer = (leaf->physical_type == PQ_INT32 ||
						   leaf->physical_type == PQ_INT64) &&
	(lt->id == PQ_LT_NONE || (lt->id == PQ_LT_INTEGER && lt->int_is_signed));

	switch (type)
	{
		case TEXTOID:
			return leaf->physical_type == PQ_BYTE_ARRAY &&
				(lt->id == PQ_LT_STRING || lt->id == PQ_LT_ENUM);
		case INT4OID:
			return integer && leaf->physical_type == PQ_INT32;
		case INT8OID:
			return integer;
		case NUMERICOID:
			return integer || lt->id == PQ_LT_DECIMAL;
		case FLOAT4OID:
			return leaf->physical_type == PQ_FLOAT && lt->id == PQ_LT_NONE;
		case FLOAT8OID:
			return leaf->physical_type == PQ_DOUBLE && lt->id == PQ_LT_NONE;
	}
	return false;
}

/* An object level: a group that is neither a list, a map nor repeated. */
static bool
is_object_group(const PqSchemaNode *node)
{
	return node != NULL && !node->is_leaf && node->repetition != PQ_REPEATED;
}

/*
 * The leaf p's key path reaches from field (a struct, or a struct holding
 * a VARIANT), and for a shredded VARIANT field its residual "value" column
 * in *residual; NULL when the path is not a plain leaf.
 */
static const PqSchemaNode *
resolve(PqPrunePred *p, const PqSchemaNode *field,
		const PqSchemaNode **residual)
{
	const PqSchemaNode *node = field;
	bool		in_variant = false;
	int			i;

	*residual = NULL;
	for (i = 0; i < p->njson_keys; i++)
	{
		if (!is_object_group(node))
			return NULL;
		if (node->logical.id == PQ_LT_VARIANT)
			in_variant = p->json_variant = true;
		if (in_variant)
		{
			/* a shredded object: typed_value's fields */
			node = pq_schema_child(node, "typed_value");
			if (!is_object_group(node) || node->logical.id != PQ_LT_NONE)
				return NULL;
		}
		else if (node->logical.id != PQ_LT_NONE)
			return NULL;		/* LIST, MAP: not keyed by field names */
		/* none for two fields of that name: JSON keeps the later one */
		node = pq_schema_child(node, p->json_keys[i]);
		if (node == NULL)
			return NULL;
	}
	if (in_variant)
	{
		if (!is_object_group(node))
			return NULL;
		*residual = pq_schema_child(node, "value");
		if (*residual != NULL && !(*residual)->is_leaf)
			return NULL;
		node = pq_schema_child(node, "typed_value");
	}
	if (node == NULL || !node->is_leaf || node->max_rep > 0)
		return NULL;
	return node;
}

/*
 * Is leaf column c null in every row of the row group, by its statistics?
 * (The scan reads the column anyway, so its metadata is needed regardless.)
 */
static bool
chunk_all_null(const PqFile *file, int row_group, int c)
{
	const PqColumnMetaData *cm = pq_file_chunk_meta(file, row_group, c);

	return cm->has_statistics && cm->statistics.has_null_count &&
		cm->statistics.null_count == cm->num_values;
}

/* The top-level field the nested column reads in its open file. */
static const PqSchemaNode *
column_field(const PqNestedColumn *nc)
{
	const PqSchemaNode *node;

	if (nc == NULL || nc->file == NULL || nc->nleaves == 0)
		return NULL;
	node = nc->file->schema->columns[nc->leaf_columns[0]].node;
	while (node->depth > 1)
		node = node->parent;
	return node;
}

/* Bind the key path predicate p to nc's file for row_group. */
static void
bind_one(PqPrunePred *p, const PqNestedColumn *nc, int row_group,
		 MemoryContext cxt)
{
	const PqSchemaNode *field = column_field(nc);
	const PqSchemaNode *leaf;
	const PqSchemaNode *residual;
	PqConverter *cv;

	p->nested_cv = NULL;
	p->nested_leaf = -1;
	if (field == NULL)
		return;
	leaf = resolve(p, field, &residual);
	if (leaf == NULL || !renders_as(leaf, p->leaf_type))
		return;
	cv = MemoryContextAlloc(cxt, sizeof(PqConverter));
	pqfdw_converter_init(cv, leaf, p->leaf_type, -1, nc->attname, cxt);
	p->nested_cv = cv;

	/*
	 * The converter stays bound (Bloom probes are made from it once); the
	 * leaf only where no row holds the key in the residual.
	 */
	if (residual == NULL ||
		chunk_all_null(nc->file, row_group, residual->first_leaf))
		p->nested_leaf = leaf->first_leaf;
}

void
pqfdw_prune_bind_json(PqPrunePred *preds, int npreds, AttrNumber attnum,
					  const PqNestedColumn *nc, int row_group,
					  MemoryContext cxt)
{
	int			i;
	int			c;

	for (i = 0; i < npreds; i++)
	{
		PqPrunePred *p = &preds[i];

		if (p->kind == PQ_PRUNE_OR)
		{
			pqfdw_prune_bind_json(p->args, p->nargs, attnum, nc, row_group,
								  cxt);
			continue;
		}
		if (p->attnum != attnum || p->njson_keys == 0)
			continue;
		if (p->njson_cands == 0)
		{
			bind_one(p, nc, row_group, cxt);
			continue;
		}
		/* containment: the first scalar whose key has a leaf */
		for (c = 0; c < p->njson_cands; c++)
		{
			pqfdw_prune_json_use_candidate(p, c);
			bind_one(p, nc, row_group, cxt);
			if (p->nested_cv != NULL)
				break;
		}
	}
}
