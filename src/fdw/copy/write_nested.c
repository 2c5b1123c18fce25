/*-------------------------------------------------------------------------
 *
 * write_nested.c
 *		Arrays, composites and (jsonb_as variant) jsonb -> Parquet groups:
 *		3-level LISTs, structs and VARIANT, nested in any combination.
 *
 *		int4[]          optional group a (LIST) {
 *		                  repeated group list { optional int32 element; } }
 *		composite       optional group c { optional ... field; ... }
 *		jsonb           optional group j (VARIANT) {
 *		                  required binary metadata; required binary value; }
 *
 * A column's values are shredded (Dremel): each value is walked down the
 * type tree and every leaf under it receives one level entry per
 * occurrence (repetition level: where in the nesting the entry starts;
 * definition level: how deep the path is defined), plus the value when
 * the leaf itself is defined.  The leaves then convert their dense values
 * with the flat conversion loops (write_leaf.c and its families).
 *
 * Only one-dimensional arrays have a LIST form: a multi-dimensional array
 * is an error (nesting them as lists of lists would not read back as the
 * same PostgreSQL value); lower bounds are not kept.  Composite fields and
 * array elements are OPTIONAL; the column itself is REQUIRED when NOT
 * NULL.  A record without a registered row type has no schema before its
 * first value and is written as text.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/tupdesc.h"
#include "catalog/pg_type.h"
#include "fdw/common/pg_compat.h"
#include "fdw/copy/write_convert.h"
#include "format/variant/encode.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

typedef enum PqNodeKind
{
	PQN_LEAF,
	PQN_LIST,
	PQN_STRUCT,
	PQN_VARIANT
} PqNodeKind;

typedef struct PqWriteNode PqWriteNode;

struct PqWriteNode
{
	PqNodeKind	kind;
	bool		optional;
	int			def;			/* definition level when the node is non-null */
	int			rep;			/* LIST: repetition level of its items */
	int			first_leaf;		/* its leaves: [first_leaf, + nleaves) */
	int			nleaves;

	/* LIST */
	Oid			elemtype;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	PqWriteNode *element;

	/* STRUCT: children of the non-dropped attributes */
	TupleDesc	tupdesc;
	int			nchildren;
	PqWriteNode **children;
	int		   *child_att;
	Datum	   *scratch_values; /* one deformed value at a time */
	bool	   *scratch_nulls;
};

typedef struct PqNestedLeaf
{
	PqWriteColumn col;			/* converts the dense values */
	int			max_def;
	int			max_rep;
	int16	   *def;
	int16	   *rep;
	int			nlevels;
	int			cap_levels;
	int			nvalues;
	int		   *value_rows;		/* batch row of each value */
} PqNestedLeaf;

struct PqNestedColumn
{
	const char *name;
	PqWriteNode *root;
	int			nleaves;
	PqNestedLeaf *leaves;
	bool		to_utf8;		/* VARIANT strings from another encoding */
	int			row;			/* row being shredded */
	const int  *rows;			/* the batch row of each row, or NULL */
	int64		row_base;
	ErrorContextCallback errcb; /* names column and row while shredding */
};

/* The row an ERROR names, counted from row_base. */
static inline int
batch_row(const PqNestedColumn *nc)
{
	return nc->rows != NULL ? nc->rows[nc->row] : nc->row;
}

typedef struct BuildState
{
	PqNestedColumn *nc;
	PqWriterFieldList *fields;
	const PqWriteTypeOptions *topts;
	int			capacity;
	int			cap_leaves;
} BuildState;

/* Is base (not a domain) written as a group? */
static bool
is_nested_type(Oid base, int32 typmod, const PqWriteTypeOptions *topts)
{
	if (OidIsValid(get_element_type(base)))
		return true;
	if (base == JSONBOID)
		return topts->jsonb_as_variant;
	if (base == RECORDOID)
		return typmod >= 0;		/* a registered anonymous row type */
	return get_typtype(base) == TYPTYPE_COMPOSITE;
}

static PqNestedLeaf *
add_leaf(BuildState *bs, int max_def, int max_rep)
{
	PqNestedColumn *nc = bs->nc;
	PqNestedLeaf *leaf;

	if (nc->nleaves == bs->cap_leaves)
	{
		bs->cap_leaves = Max(4, bs->cap_leaves * 2);
		nc->leaves = nc->leaves == NULL ?
			palloc(sizeof(PqNestedLeaf) * bs->cap_leaves) :
			repalloc(nc->leaves, sizeof(PqNestedLeaf) * bs->cap_leaves);
	}
	leaf = &nc->leaves[nc->nleaves++];
	memset(leaf, 0, sizeof(*leaf));
	leaf->max_def = max_def;
	leaf->max_rep = max_rep;
	leaf->cap_levels = bs->capacity;
	leaf->def = palloc(sizeof(int16) * leaf->cap_levels);
	leaf->rep = palloc(sizeof(int16) * leaf->cap_levels);
	leaf->value_rows = palloc(sizeof(int) * bs->capacity);
	return leaf;
}

/* A leaf column inside a group: its field and its converter. */
static void
build_leaf(BuildState *bs, PqWriteNode *node, const char *field_name,
		   const char *path, Oid typid, int32 typmod, int rep)
{
	PqNestedLeaf *leaf = add_leaf(bs, node->def, rep);

	pqfdw_write_leaf_init(&leaf->col, pqfdw_field_list_add(bs->fields),
						  path, typid, typmod, false, bs->topts, bs->capacity);
	/* the leaf converts dense values: no nulls, no levels of its own */
	leaf->col.required = true;
	bs->fields->items[bs->fields->n - 1].name = field_name;
	bs->fields->items[bs->fields->n - 1].repetition =
		node->optional ? PQ_OPTIONAL : PQ_REQUIRED;
}

static PqWriterField *
add_group(BuildState *bs, const char *name, bool optional, int nchildren)
{
	PqWriterField *f = pqfdw_field_list_add(bs->fields);

	f->name = name;
	f->repetition = optional ? PQ_OPTIONAL : PQ_REQUIRED;
	f->num_children = nchildren;
	f->logical.id = PQ_LT_NONE;
	f->converted_type = -1;
	return f;
}

/*
 * The node of a value of type typid (domains resolved here) named
 * field_name in the schema and path in messages, whose parent is defined
 * at parent_def and repeated at rep; appends its fields depth first.
 */
static PqWriteNode *
build_node(BuildState *bs, const char *field_name, const char *path,
		   Oid typid, int32 typmod, bool optional, int parent_def, int rep)
{
	PqWriteNode *node = palloc0(sizeof(PqWriteNode));
	int32		base_typmod = typmod;
	Oid			base = getBaseTypeAndTypmod(typid, &base_typmod);
	Oid			elem;

	node->optional = optional;
	node->def = parent_def + (optional ? 1 : 0);
	node->first_leaf = bs->nc->nleaves;

	if (!is_nested_type(base, base_typmod, bs->topts))
	{
		node->kind = PQN_LEAF;
		build_leaf(bs, node, field_name, path, base, base_typmod, rep);
	}
	else if (OidIsValid(elem = get_element_type(base)))
	{
		PqWriterField *f = add_group(bs, field_name, optional, 1);

		f->logical.id = PQ_LT_LIST;
		node->kind = PQN_LIST;
		node->rep = rep + 1;
		node->elemtype = elem;
		get_typlenbyvalalign(elem, &node->elmlen, &node->elmbyval,
							 &node->elmalign);
		add_group(bs, "list", false, 1)->repetition = PQ_REPEATED;
		/* an array's typmod is its elements' */
		node->element = build_node(bs, "element", psprintf("%s[]", path),
								   elem, base_typmod, true, node->def + 1,
								   node->rep);
	}
	else if (base == JSONBOID)
	{
		PqWriterField *f = add_group(bs, field_name, optional, 2);
		PqNestedLeaf *leaf;
		int			k;

		f->logical.id = PQ_LT_VARIANT;
		f->logical.has_variant_spec_version = true;
		f->logical.variant_spec_version = 1;
		node->kind = PQN_VARIANT;
		for (k = 0; k < 2; k++)
		{
			leaf = add_leaf(bs, node->def, rep);
			pqfdw_write_leaf_init(&leaf->col, pqfdw_field_list_add(bs->fields),
								  path, BYTEAOID, -1, true, bs->topts,
								  bs->capacity);
			bs->fields->items[bs->fields->n - 1].name = k == 0 ? "metadata" : "value";
		}
	}
	else
	{
		TupleDesc	td = lookup_rowtype_tupdesc(base, base_typmod);
		int			nlive = 0;
		int			i;

		node->kind = PQN_STRUCT;
		node->tupdesc = CreateTupleDescCopy(td);
		ReleaseTupleDesc(td);
		for (i = 0; i < node->tupdesc->natts; i++)
			nlive += !TupleDescAttr(node->tupdesc, i)->attisdropped;
		if (nlive == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("column \"%s\" of type %s has no fields, so it has no Parquet form",
							path, format_type_be(typid))));
		add_group(bs, field_name, optional, nlive);
		node->children = palloc(sizeof(PqWriteNode *) * nlive);
		node->child_att = palloc(sizeof(int) * nlive);
		node->scratch_values = palloc(sizeof(Datum) * node->tupdesc->natts);
		node->scratch_nulls = palloc(sizeof(bool) * node->tupdesc->natts);
		for (i = 0; i < node->tupdesc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(node->tupdesc, i);
			char	   *name;

			if (att->attisdropped)
				continue;
			name = pstrdup(NameStr(att->attname));
			node->child_att[node->nchildren] = i;
			node->children[node->nchildren++] =
				build_node(bs, name, psprintf("%s.%s", path, name),
						   att->atttypid, att->atttypmod, true, node->def,
						   rep);
		}
	}
	node->nleaves = bs->nc->nleaves - node->first_leaf;
	return node;
}

PqNestedColumn *
pqfdw_nested_create(PqWriterFieldList *fields, const char *name, Oid typid,
					int32 typmod, bool required,
					const PqWriteTypeOptions *topts, int capacity)
{
	BuildState	bs;
	PqNestedColumn *nc;
	int			encoding = GetDatabaseEncoding();

	if (!is_nested_type(typid, typmod, topts))
		return NULL;
	nc = palloc0(sizeof(PqNestedColumn));
	nc->name = name;
	nc->to_utf8 = encoding != PG_UTF8 && encoding != PG_SQL_ASCII;
	memset(&bs, 0, sizeof(bs));
	bs.nc = nc;
	bs.fields = fields;
	bs.topts = topts;
	bs.capacity = capacity;
	nc->root = build_node(&bs, name, name, typid, typmod, !required, 0, 0);
	return nc;
}

int
pqfdw_nested_num_leaves(const PqNestedColumn *nc)
{
	return nc->nleaves;
}

void
pqfdw_nested_leaf_levels(const PqNestedColumn *nc, int leaf, int *max_def,
						 int *max_rep)
{
	*max_def = nc->leaves[leaf].max_def;
	*max_rep = nc->leaves[leaf].max_rep;
}

/* ------------------------------------------------------------ shredding */

static inline void
add_level(PqNestedLeaf *leaf, int def, int rep)
{
	if (leaf->nlevels == leaf->cap_levels)
	{
		if (leaf->cap_levels > PG_INT32_MAX / 2)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many values in one batch of column \"%s\"",
							leaf->col.name),
					 errhint("Use a smaller row_group_size.")));
		leaf->cap_levels *= 2;
		leaf->def = repalloc_huge(leaf->def, sizeof(int16) * leaf->cap_levels);
		leaf->rep = repalloc_huge(leaf->rep, sizeof(int16) * leaf->cap_levels);
	}
	leaf->def[leaf->nlevels] = (int16) def;
	leaf->rep[leaf->nlevels] = (int16) rep;
	leaf->nlevels++;
}

static inline void
add_value(PqNestedColumn *nc, PqNestedLeaf *leaf, Datum v, int def, int rep)
{
	if (leaf->nvalues == leaf->col.capacity)
	{
		pqfdw_write_column_reserve(&leaf->col, leaf->nvalues + 1);
		leaf->value_rows = repalloc_huge(leaf->value_rows,
										 sizeof(int) * leaf->col.capacity);
	}
	leaf->col.values[leaf->nvalues] = v;
	leaf->value_rows[leaf->nvalues] = batch_row(nc);
	leaf->nvalues++;
	add_level(leaf, def, rep);
}

/* An absent value: every leaf under node stops at level def. */
static void
add_absent(PqNestedColumn *nc, const PqWriteNode *node, int def, int rep)
{
	int			k;

	for (k = node->first_leaf; k < node->first_leaf + node->nleaves; k++)
		add_level(&nc->leaves[k], def, rep);
}

static void
value_error(PqNestedColumn *nc, int sqlstate, const char *reason,
			const char *hint)
{
	/* the message names column and row itself (the ERROR unwinds the stack) */
	error_context_stack = nc->errcb.previous;
	ereport(ERROR,
			(errcode(sqlstate),
			 errmsg("cannot write row %lld of column \"%s\" to Parquet",
					(long long) (nc->row_base + batch_row(nc) + 1), nc->name),
			 errdetail_internal("%s", reason),
			 hint ? errhint("%s", hint) : 0));
}

static Datum
bytes_datum(const uint8 *data, size_t len)
{
	bytea	   *b = palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	memcpy(VARDATA(b), data, len);
	return PointerGetDatum(b);
}

static void
shred_variant(PqNestedColumn *nc, const PqWriteNode *node, Datum v, int rep)
{
	char	   *json = DatumGetCString(DirectFunctionCall1(jsonb_out, v));
	PqBuffer	metadata;
	PqBuffer	value;

	/* Variant strings are UTF-8 */
	if (nc->to_utf8)
		json = pg_server_to_any(json, strlen(json), PG_UTF8);
	pq_buffer_init(&metadata, 64);
	pq_buffer_init(&value, 64);
	pq_variant_encode_json(json, strlen(json), &metadata, &value);
	add_value(nc, &nc->leaves[node->first_leaf],
			  bytes_datum(metadata.data, metadata.len), node->def, rep);
	add_value(nc, &nc->leaves[node->first_leaf + 1],
			  bytes_datum(value.data, value.len), node->def, rep);
}

/*
 * One value of node: parent_def is the level its parent reached (where an
 * absent value stops), rep the repetition level of its first entry.
 */
static void
shred(PqNestedColumn *nc, const PqWriteNode *node, Datum v, bool isnull,
	  int parent_def, int rep)
{
	if (isnull)
	{
		/* only the column itself can be REQUIRED */
		if (!node->optional)
			value_error(nc, ERRCODE_NOT_NULL_VIOLATION,
						"The column is NOT NULL, so it is written as REQUIRED, but the value is null.",
						"COPY from a query that filters out or replaces the nulls (for example with coalesce()).");
		add_absent(nc, node, parent_def, rep);
		return;
	}
	switch (node->kind)
	{
		case PQN_LEAF:
			add_value(nc, &nc->leaves[node->first_leaf], v, node->def, rep);
			break;
		case PQN_VARIANT:
			shred_variant(nc, node, v, rep);
			break;
		case PQN_LIST:
			{
				ArrayType  *a = DatumGetArrayTypeP(v);
				Datum	   *elems;
				bool	   *enulls;
				int			n;
				int			i;

				if (ARR_NDIM(a) > 1)
					value_error(nc, ERRCODE_FEATURE_NOT_SUPPORTED,
								psprintf("The array has %d dimensions; only one-dimensional arrays can be written as a Parquet LIST.",
										 ARR_NDIM(a)),
								"COPY from a query that writes the column as jsonb (to_jsonb() keeps the dimensions as nested arrays).");
				deconstruct_array(a, node->elemtype, node->elmlen,
								  node->elmbyval, node->elmalign,
								  &elems, &enulls, &n);
				if (n == 0)
					add_absent(nc, node, node->def, rep);
				for (i = 0; i < n; i++)
					shred(nc, node->element, elems[i], enulls[i],
						  node->def + 1, i == 0 ? rep : node->rep);
			}
			break;
		case PQN_STRUCT:
			{
				HeapTupleHeader th = pqfdw_datum_get_heap_tuple_header(v);
				HeapTupleData tuple;
				int			i;

				tuple.t_len = HeapTupleHeaderGetDatumLength(th);
				ItemPointerSetInvalid(&tuple.t_self);
				tuple.t_tableOid = InvalidOid;
				tuple.t_data = th;
				heap_deform_tuple(&tuple, node->tupdesc, node->scratch_values,
								  node->scratch_nulls);
				for (i = 0; i < node->nchildren; i++)
				{
					int			att = node->child_att[i];

					shred(nc, node->children[i], node->scratch_values[att],
						  node->scratch_nulls[att], node->def, rep);
				}
			}
			break;
	}
}

/* Errors from detoasting or the Variant encoder name column and row. */
static void
shred_error_context(void *arg)
{
	PqNestedColumn *nc = arg;

	errcontext("writing row %lld of column \"%s\" to Parquet",
			   (long long) (nc->row_base + batch_row(nc) + 1), nc->name);
}

void
pqfdw_nested_write(PqWriteColumn *col, int n, int64 row_base,
				   const int *rows, PqFileWriter *w, int first_leaf)
{
	PqNestedColumn *nc = col->nested;
	int			k;

	for (k = 0; k < nc->nleaves; k++)
	{
		nc->leaves[k].nlevels = 0;
		nc->leaves[k].nvalues = 0;
	}
	nc->row_base = row_base;
	nc->rows = rows;
	nc->errcb.callback = shred_error_context;
	nc->errcb.arg = nc;
	nc->errcb.previous = error_context_stack;
	error_context_stack = &nc->errcb;
	for (nc->row = 0; nc->row < n; nc->row++)
		shred(nc, nc->root, col->values[nc->row], col->nulls[nc->row], 0, 0);
	error_context_stack = nc->errcb.previous;

	for (k = 0; k < nc->nleaves; k++)
	{
		PqNestedLeaf *leaf = &nc->leaves[k];
		int			nvalues;

		leaf->col.value_rows = leaf->value_rows;
		nvalues = pqfdw_write_convert(&leaf->col, leaf->nvalues, row_base);
		Assert(nvalues == leaf->nvalues);
		pq_file_writer_write_column(w, first_leaf + k, leaf->nlevels,
									leaf->max_def > 0 ? leaf->def : NULL,
									leaf->max_rep > 0 ? leaf->rep : NULL,
									nvalues, leaf->col.fixed, leaf->col.ba);
	}
}
