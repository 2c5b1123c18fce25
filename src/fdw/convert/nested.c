/*-------------------------------------------------------------------------
 *
 * nested.c
 *		Nested fields as arrays and composites: the declared type matched
 *		against the field's shape, natural types, Datums from value trees.
 *
 * Rules (docs/ARCHITECTURE.md, "Nested data"):
 *	 * any nested value may be declared jsonb (or json);
 *	 * a LIST becomes an array of its element's declared type;
 *	 * a struct becomes a composite type: attributes match fields by name
 *	   (exactly, else case-insensitively when unambiguous); an attribute
 *	   without a field is NULL, a field without an attribute is not read;
 *	 * a MAP becomes an array of a composite type whose first attribute is
 *	   the key and second the value (by position, as the spec identifies
 *	   them); a map without values leaves the second NULL;
 *	 * a primitive becomes its declared type through a PqConverter (casts
 *	   as for flat columns).
 * Anything else is an error at the first file, naming the column and the
 * field path.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fdw/convert/nested.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

void
pqfdw_nested_natural_type(const PqSchemaNode *field, Oid *typid,
						  int32 *typmod)
{
	PqShape		sh;

	pq_shape_of(field, false, &sh);
	if (sh.kind == PQ_SHAPE_PRIMITIVE)
	{
		pqfdw_natural_type(field, typid, typmod);
		return;
	}
	if (sh.kind == PQ_SHAPE_LIST)
	{
		PqShape		es;

		pq_shape_of(sh.element, pq_shape_element_is_occurrence(&sh), &es);
		if (es.kind == PQ_SHAPE_PRIMITIVE)
		{
			Oid			elt;

			pqfdw_natural_type(sh.element, &elt, typmod);
			*typid = get_array_type(elt);
			if (OidIsValid(*typid))
				return;
		}
	}
	*typid = JSONBOID;
	*typmod = -1;
}

typedef struct NestedPlanState
{
	MemoryContext cxt;
	List	   *leaves;			/* leaf ordinals read (int) */
	List	   *scalars;		/* SCALAR plans */
	List	   *variant_keys;	/* top-level VARIANT: object fields used */
} NestedPlanState;

static void
add_leaves(NestedPlanState *ps, const PqSchemaNode *node)
{
	int			i;

	for (i = 0; i < node->n_leaves; i++)
		ps->leaves = lappend_int(ps->leaves, node->first_leaf + i);
}

static bool
key_wanted(List *keys, const char *name)
{
	ListCell   *lc;

	foreach(lc, keys)
		if (strcmp(strVal(lfirst(lc)), name) == 0)
		return true;
	return false;
}

/*
 * The leaves of a VARIANT group that v -> 'key' needs for the keys: the
 * metadata, the value (unshredded values and unshredded object fields) and,
 * of an object-shredded typed_value, only the groups of those keys (other
 * typed_value shapes whole).  Fields left out read as missing.
 */
static void
add_variant_leaves(NestedPlanState *ps, const PqSchemaNode *node, List *keys)
{
	int			i;

	for (i = 0; i < node->n_children; i++)
	{
		const PqSchemaNode *c = node->children[i];
		PqShape		sh;
		int			k;
		bool		added;

		if (strcmp(c->name, "typed_value") != 0)
		{
			add_leaves(ps, c);
			continue;
		}
		pq_shape_of(c, false, &sh);
		if (sh.kind != PQ_SHAPE_STRUCT)
		{
			add_leaves(ps, c);
			continue;
		}
		added = false;
		for (k = 0; k < c->n_children; k++)
			if (key_wanted(keys, c->children[k]->name))
			{
				add_leaves(ps, c->children[k]);
				added = true;
			}

		/*
		 * Without a field group the object typed_value would read as null,
		 * and a partially shredded object in value as invalid: one group
		 * tells whether it is there.
		 */
		if (!added && c->n_children > 0)
			add_leaves(ps, c->children[0]);
	}
}

static const char *
shape_name(PqShapeKind kind)
{
	switch (kind)
	{
		case PQ_SHAPE_LIST:
			return "list";
		case PQ_SHAPE_MAP:
			return "map";
		case PQ_SHAPE_STRUCT:
			return "struct";
		case PQ_SHAPE_VARIANT:
			return "VARIANT";
		default:
			return "field";
	}
}

static void
shape_error(const char *what, Oid typid, int32 typmod,
			const PqSchemaNode *node, PqShapeKind kind, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg("column \"%s\" of type %s cannot hold Parquet %s \"%s\"",
					what, format_type_with_typemod(typid, typmod),
					shape_name(kind), pqfdw_node_path(node)),
			 errhint("%s", hint)));
}

/* Child of a struct by name: exact, else a unique case-insensitive match. */
static int
child_by_name(const PqSchemaNode *node, const char *name)
{
	int			found = -1;
	int			i;

	for (i = 0; i < node->n_children; i++)
		if (strcmp(node->children[i]->name, name) == 0)
			return i;
	for (i = 0; i < node->n_children; i++)
		if (pg_strcasecmp(node->children[i]->name, name) == 0)
		{
			if (found >= 0)
				return -1;
			found = i;
		}
	return found;
}

static PqNestedPlan *plan_node(NestedPlanState *ps, const PqSchemaNode *node,
							   bool as_element, Oid typid, int32 typmod,
							   const char *what);

/*
 * A composite over a group: attribute i reads child child_of[i] (-1: no
 * field, always NULL).  Named attributes match fields by name; entries of
 * a map (by_position) take key and value from the first two attributes.
 */
static PqNestedPlan *
plan_composite(NestedPlanState *ps, PqNestedPlan *p, const PqSchemaNode *node,
			   bool by_position)
{
	TupleDesc	td = lookup_rowtype_tupdesc_copy(p->type, p->typmod);
	int			live = 0;
	bool		any = false;
	int			i;

	p->kind = PQ_NESTED_COMPOSITE;
	p->tupdesc = td;
	p->atts = palloc0(sizeof(PqNestedPlan *) * Max(td->natts, 1));
	p->att_child = palloc(sizeof(int) * Max(td->natts, 1));
	for (i = 0; i < td->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(td, i);
		int			c;

		p->att_child[i] = -1;
		if (att->attisdropped)
			continue;
		if (by_position)
			c = live < node->n_children ? live : -1;
		else
			c = child_by_name(node, NameStr(att->attname));
		live++;
		if (c < 0)
			continue;
		p->att_child[i] = c;
		p->atts[i] = plan_node(ps, node->children[c], false, att->atttypid,
							   att->atttypmod,
							   psprintf("%s.%s", p->what, NameStr(att->attname)));
		any = true;
	}
	/* no field read: one leaf still tells which values exist */
	if (!any)
		ps->leaves = lappend_int(ps->leaves, node->first_leaf);
	return p;
}

static PqNestedPlan *
plan_node(NestedPlanState *ps, const PqSchemaNode *node, bool as_element,
		  Oid typid, int32 typmod, const char *what)
{
	PqNestedPlan *p;
	PqShape		sh;
	Oid			elemtype;

	/* schemas nest up to 1000 levels (format/metadata/schema.c) */
	check_stack_depth();
	p = palloc0(sizeof(PqNestedPlan));
	p->what = what;
	p->type = typid;
	p->typmod = typmod;
	p->as_element = as_element;
	pq_shape_of(node, as_element, &sh);

	if (typid == JSONBOID || typid == JSONOID)
	{
		p->kind = PQ_NESTED_JSON;
		p->jsonb = (typid == JSONBOID);
		p->first_leaf = node->first_leaf;
		p->n_leaves = node->n_leaves;
		if (ps->variant_keys != NIL && sh.kind == PQ_SHAPE_VARIANT)
			add_variant_leaves(ps, node, ps->variant_keys);
		else
			add_leaves(ps, node);
		return p;
	}

	elemtype = get_element_type(typid);
	switch (sh.kind)
	{
		case PQ_SHAPE_PRIMITIVE:
			p->kind = PQ_NESTED_SCALAR;
			p->path = pqfdw_node_path(node);
			pqfdw_converter_init(&p->cv, node, typid, typmod, what, ps->cxt);
			p->leaf_column = node->first_leaf;
			ps->leaves = lappend_int(ps->leaves, node->first_leaf);
			ps->scalars = lappend(ps->scalars, p);
			return p;

		case PQ_SHAPE_LIST:
			if (!OidIsValid(elemtype))
				shape_error(what, typid, typmod, node, sh.kind,
							"Declare it as an array of the element type, or as jsonb.");
			p->kind = PQ_NESTED_ARRAY;
			p->elem_is_occurrence = pq_shape_element_is_occurrence(&sh);
			get_typlenbyvalalign(elemtype, &p->elmlen, &p->elmbyval,
								 &p->elmalign);
			p->elem = plan_node(ps, sh.element, p->elem_is_occurrence,
								elemtype, typmod, psprintf("%s[]", what));
			/* levels that say NULL list, empty list (see list_from_levels) */
			p->list_def = (sh.repeated != node && node->repetition == PQ_OPTIONAL) ?
				node->max_def : 0;
			p->elem_def = sh.repeated->max_def;
			return p;

		case PQ_SHAPE_MAP:
			if (!OidIsValid(elemtype) ||
				get_typtype(elemtype) != TYPTYPE_COMPOSITE)
				shape_error(what, typid, typmod, node, sh.kind,
							"Declare it as jsonb, or as an array of a composite type of key and value.");
			p->kind = PQ_NESTED_ARRAY;
			p->elem_is_occurrence = true;
			get_typlenbyvalalign(elemtype, &p->elmlen, &p->elmbyval,
								 &p->elmalign);
			p->elem = palloc0(sizeof(PqNestedPlan));
			p->elem->what = psprintf("%s[]", what);
			p->elem->type = elemtype;
			p->elem->typmod = -1;
			p->elem->as_element = true;
			plan_composite(ps, p->elem, sh.repeated, true);
			return p;

		case PQ_SHAPE_STRUCT:
			if (get_typtype(typid) != TYPTYPE_COMPOSITE)
				shape_error(what, typid, typmod, node, sh.kind,
							"Declare it as a composite type with attributes named like its fields, or as jsonb.");
			return plan_composite(ps, p, node, false);

		case PQ_SHAPE_VARIANT:
			shape_error(what, typid, typmod, node, sh.kind,
						"Declare it as jsonb.");
	}
	return p;
}

static int
int_cmp(const ListCell *a, const ListCell *b)
{
	int			x = lfirst_int(a);
	int			y = lfirst_int(b);

	return x < y ? -1 : x > y;
}

void
pqfdw_nested_plan(PqNestedColumn *nc, const PqSchemaNode *field, Oid typid,
				  int32 typmod, const char *attname, List *variant_keys,
				  MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	NestedPlanState ps;
	ListCell   *lc;
	int			n = 0;
	int			prev = -1;

	ps.cxt = cxt;
	ps.leaves = NIL;
	ps.scalars = NIL;
	ps.variant_keys = variant_keys;
	nc->attname = attname;
	nc->plan = plan_node(&ps, field, false, typid, typmod, attname);

	/* the leaves read, in column order, each once */
	list_sort(ps.leaves, int_cmp);
	nc->leaf_columns = palloc(sizeof(int) * list_length(ps.leaves));
	foreach(lc, ps.leaves)
	{
		if (lfirst_int(lc) != prev)
			nc->leaf_columns[n++] = lfirst_int(lc);
		prev = lfirst_int(lc);
	}
	nc->nleaves = n;
	nc->leaf_scalar = palloc0(sizeof(PqNestedPlan *) * n);
	nc->leaf_datums = palloc0(sizeof(Datum *) * n);
	foreach(lc, ps.scalars)
	{
		PqNestedPlan *p = lfirst(lc);
		int			i;

		for (i = 0; i < n; i++)
			if (nc->leaf_columns[i] == p->leaf_column)
			{
				p->leaf = i;
				nc->leaf_scalar[i] = p;
			}
	}
	MemoryContextSwitchTo(old);
}

static Datum
array_datum(PqNestedColumn *nc, PqNestedPlan *p, const PqValue *slot,
			bool *isnull)
{
	const PqValue *items;
	int			n;
	Datum	   *elems;
	bool	   *nulls;
	int			dims[1];
	int			lbs[1] = {1};
	int			i;

	if (!pq_value_items(slot, &items, &n))
	{
		*isnull = true;
		return (Datum) 0;
	}
	if (n == 0)
		return PointerGetDatum(construct_empty_array(p->elem->type));
	elems = palloc(sizeof(Datum) * n);
	nulls = palloc(sizeof(bool) * n);
	for (i = 0; i < n; i++)
		elems[i] = pqfdw_nested_datum(nc, p->elem,
									  pq_list_element(p->elem_is_occurrence,
													  &items[i]),
									  &nulls[i]);
	dims[0] = n;
	return PointerGetDatum(construct_md_array(elems, nulls, 1, dims, lbs,
											  p->elem->type, p->elmlen,
											  p->elmbyval, p->elmalign));
}

static Datum
composite_datum(PqNestedColumn *nc, PqNestedPlan *p, const PqValue *slot,
				bool *isnull)
{
	TupleDesc	td = p->tupdesc;
	Datum	   *values;
	bool	   *nulls;
	int			i;

	if (slot->kind == PQ_VAL_NULL)
	{
		*isnull = true;
		return (Datum) 0;
	}
	if (slot->kind != PQ_VAL_GROUP)
		elog(ERROR, "value of \"%s\" is not a group", slot->node->name);
	values = palloc(sizeof(Datum) * Max(td->natts, 1));
	nulls = palloc(sizeof(bool) * Max(td->natts, 1));
	for (i = 0; i < td->natts; i++)
	{
		int			c = p->att_child[i];

		values[i] = (Datum) 0;
		nulls[i] = true;
		if (c >= 0)
			values[i] = pqfdw_nested_datum(nc, p->atts[i],
										   &slot->u.children.items[c],
										   &nulls[i]);
	}
	return HeapTupleGetDatum(heap_form_tuple(td, values, nulls));
}

Datum
pqfdw_nested_datum(PqNestedColumn *nc, PqNestedPlan *p, const PqValue *slot,
				   bool *isnull)
{
	check_stack_depth();
	*isnull = false;
	switch (p->kind)
	{
		case PQ_NESTED_SCALAR:
			if (slot->kind != PQ_VAL_SCALAR || p->cv.always_null)
			{
				*isnull = true;
				return (Datum) 0;
			}
			return nc->leaf_datums[p->leaf][slot->vindex];
		case PQ_NESTED_ARRAY:
			return array_datum(nc, p, slot, isnull);
		case PQ_NESTED_COMPOSITE:
			return composite_datum(nc, p, slot, isnull);
		case PQ_NESTED_JSON:
			return pqfdw_json_datum(p, slot, isnull);
	}
	*isnull = true;
	return (Datum) 0;
}
