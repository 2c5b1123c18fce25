/*-------------------------------------------------------------------------
 *
 * schema.c
 *		Build the schema tree from FileMetaData.schema (a depth-first list),
 *		compute levels and resolve logical types.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/metadata/schema.h"
#include "format/metadata/type_rules.h"
#include "utils/memutils.h"

/*
 * Deeper nesting than this is not a real schema: Impala's deepest (100
 * nested complex types) has leaves 199 levels down; the walks of the tree
 * are recursive and stay far below a megabyte of stack at this depth.
 */
#define PQ_MAX_SCHEMA_DEPTH 1000

/*
 * All column paths together: a few names repeated on every leaf of a deep
 * tree would otherwise make megabytes of footer into gigabytes of paths.
 */
#define PQ_MAX_PATH_BYTES (64 * 1024 * 1024)

typedef struct SchemaBuildState
{
	const PqFileMetaData *md;
	int			next;			/* next schema element to consume */
	PqSchema   *schema;
	int			n_leaves;
	size_t		path_bytes;		/* column paths made so far */
} SchemaBuildState;

/*
 * LogicalType from the legacy ConvertedType, as the LogicalTypes spec's
 * backward-compatibility rules say (TIME_* and TIMESTAMP_* are UTC-adjusted).
 */
static void
logical_from_converted(const PqSchemaElement *e, PqLogicalType *lt)
{
	memset(lt, 0, sizeof(*lt));
	switch (e->converted_type)
	{
		case PQ_CT_UTF8:
			lt->id = PQ_LT_STRING;
			break;
		case PQ_CT_MAP:
		case PQ_CT_MAP_KEY_VALUE:
			lt->id = PQ_LT_MAP;
			break;
		case PQ_CT_LIST:
			lt->id = PQ_LT_LIST;
			break;
		case PQ_CT_ENUM:
			lt->id = PQ_LT_ENUM;
			break;
		case PQ_CT_DECIMAL:
			lt->id = PQ_LT_DECIMAL;
			lt->decimal_scale = e->has_scale ? e->scale : 0;
			lt->decimal_precision = e->has_precision ? e->precision : 0;
			break;
		case PQ_CT_DATE:
			lt->id = PQ_LT_DATE;
			break;
		case PQ_CT_TIME_MILLIS:
		case PQ_CT_TIME_MICROS:
			lt->id = PQ_LT_TIME;
			lt->is_adjusted_to_utc = true;
			lt->time_unit = e->converted_type == PQ_CT_TIME_MILLIS ?
				PQ_UNIT_MILLIS : PQ_UNIT_MICROS;
			break;
		case PQ_CT_TIMESTAMP_MILLIS:
		case PQ_CT_TIMESTAMP_MICROS:
			lt->id = PQ_LT_TIMESTAMP;
			lt->is_adjusted_to_utc = true;
			lt->time_unit = e->converted_type == PQ_CT_TIMESTAMP_MILLIS ?
				PQ_UNIT_MILLIS : PQ_UNIT_MICROS;
			break;
		case PQ_CT_UINT_8:
		case PQ_CT_UINT_16:
		case PQ_CT_UINT_32:
		case PQ_CT_UINT_64:
			lt->id = PQ_LT_INTEGER;
			lt->int_is_signed = false;
			lt->int_bit_width = 8 << (e->converted_type - PQ_CT_UINT_8);
			break;
		case PQ_CT_INT_8:
		case PQ_CT_INT_16:
		case PQ_CT_INT_32:
		case PQ_CT_INT_64:
			lt->id = PQ_LT_INTEGER;
			lt->int_is_signed = true;
			lt->int_bit_width = 8 << (e->converted_type - PQ_CT_INT_8);
			break;
		case PQ_CT_JSON:
			lt->id = PQ_LT_JSON;
			break;
		case PQ_CT_BSON:
			lt->id = PQ_LT_BSON;
			break;
		case PQ_CT_INTERVAL:
			lt->id = PQ_LT_INTERVAL;
			break;
		default:
			/* an unknown converted type is read as its physical type */
			lt->id = PQ_LT_NONE;
			break;
	}
}

/*
 * Check that a resolved logical type fits the node's physical type
 * (type_rules.c, the writer's rule too); a mismatch (e.g. STRING on INT32)
 * is a corrupt schema.  Unrecognized LogicalType ids are read as the
 * physical type.
 */
static void
validate_logical(PqSchemaNode *n)
{
	if (!n->is_leaf)
		return;
	if (n->logical.id == PQ_LT_UNRECOGNIZED)
		n->logical.id = PQ_LT_NONE;
	if (!pq_logical_fits_physical(&n->logical, n->physical_type,
								  n->type_length))
		pq_corrupt("column \"%s\" has logical type %s, which is invalid for physical type %s",
				   n->name, pq_logical_type_string(n),
				   pq_physical_type_name(n->physical_type));
}

static PqSchemaNode *
build_node(SchemaBuildState *st, PqSchemaNode *parent, int depth)
{
	const PqFileMetaData *md = st->md;
	const PqSchemaElement *e;
	PqSchemaNode *n;

	if (depth > PQ_MAX_SCHEMA_DEPTH)
		pq_corrupt("schema is nested deeper than %d levels", PQ_MAX_SCHEMA_DEPTH);
	if (st->next >= md->n_schema)
		pq_corrupt("schema ends before all declared children were seen");
	e = &md->schema[st->next++];

	n = palloc0(sizeof(PqSchemaNode));
	n->elem = e;
	n->name = e->name ? e->name : "";
	n->parent = parent;
	n->depth = depth;
	n->converted_type = e->has_converted_type ? e->converted_type : -1;
	n->repetition = (parent == NULL) ? PQ_REQUIRED :
		(e->has_repetition_type ? e->repetition_type : PQ_OPTIONAL);
	if (n->repetition < PQ_REQUIRED || n->repetition > PQ_REPEATED)
		pq_corrupt("schema element \"%s\" has invalid repetition type %d",
				   n->name, n->repetition);

	n->max_def = parent ? parent->max_def : 0;
	n->max_rep = parent ? parent->max_rep : 0;
	if (parent && n->repetition != PQ_REQUIRED)
		n->max_def++;
	if (parent && n->repetition == PQ_REPEATED)
		n->max_rep++;

	if (e->logical_type.id != PQ_LT_NONE &&
		e->logical_type.id != PQ_LT_UNRECOGNIZED)
		n->logical = e->logical_type;
	else if (e->has_converted_type)
		logical_from_converted(e, &n->logical);
	else
		n->logical = e->logical_type;

	n->first_leaf = st->n_leaves;
	if (parent == NULL || (e->has_num_children && e->num_children > 0) ||
		!e->has_type)
	{
		int			nc = e->has_num_children ? e->num_children : 0;
		int			i;

		if (nc < 0 || nc > md->n_schema - st->next)
			pq_corrupt("schema element \"%s\" claims %d children, but only %d elements follow",
					   n->name, nc, md->n_schema - st->next);
		if (parent != NULL && nc == 0)
			pq_corrupt("schema element \"%s\" has neither a type nor children",
					   n->name);
		n->is_leaf = false;
		n->physical_type = -1;
		n->n_children = nc;
		n->children = palloc(sizeof(PqSchemaNode *) * Max(nc, 1));
		for (i = 0; i < nc; i++)
			n->children[i] = build_node(st, n, depth + 1);
	}
	else
	{
		n->is_leaf = true;
		n->physical_type = e->type;
		if (e->type < PQ_BOOLEAN || e->type > PQ_FIXED_LEN_BYTE_ARRAY)
			pq_corrupt("column \"%s\" has invalid physical type %d",
					   n->name, e->type);
		if (e->type == PQ_FIXED_LEN_BYTE_ARRAY)
		{
			if (!e->has_type_length || e->type_length <= 0)
				pq_corrupt("FIXED_LEN_BYTE_ARRAY column \"%s\" has invalid type_length %d",
						   n->name, e->has_type_length ? e->type_length : 0);
			/* one value must fit a page, itself at most 1 GB */
			if ((Size) e->type_length > MaxAllocSize)
				pq_corrupt("FIXED_LEN_BYTE_ARRAY column \"%s\" has type_length %d, more than the largest page of %zu bytes",
						   n->name, e->type_length, (size_t) MaxAllocSize);
			n->type_length = e->type_length;
		}
		else if (e->type == PQ_INT96)
			n->type_length = 12;
		validate_logical(n);
		st->n_leaves++;
	}
	n->n_leaves = st->n_leaves - n->first_leaf;
	return n;
}

/* The dotted path of leaf n below the root, its size bounded. */
static char *
leaf_path(SchemaBuildState *st, const PqSchemaNode *n)
{
	const PqSchemaNode *p;
	size_t		len = 0;
	char	   *path;
	char	   *end;

	for (p = n; p->parent != NULL; p = p->parent)
	{
		len += strlen(p->name) + 1;
		if (len > PQ_MAX_PATH_BYTES)
			break;
	}
	st->path_bytes += len;
	if (st->path_bytes > PQ_MAX_PATH_BYTES)
		pq_corrupt("column paths of the schema take more than %d bytes",
				   PQ_MAX_PATH_BYTES);
	path = palloc(Max(len, 1));
	end = path + Max(len, 1) - 1;
	*end = '\0';
	for (p = n; p->parent != NULL; p = p->parent)
	{
		size_t		l = strlen(p->name);

		end -= l;
		memcpy(end, p->name, l);
		if (p->parent->parent != NULL)
			*--end = '.';
	}
	return path;
}

static void
collect_leaves(SchemaBuildState *st, PqSchemaNode *n)
{
	PqSchema   *schema = st->schema;
	const PqFileMetaData *md = st->md;
	int			i;

	if (n->is_leaf)
	{
		PqColumnDescr *c = &schema->columns[n->first_leaf];

		c->index = n->first_leaf;
		c->node = n;
		c->path = leaf_path(st, n);
		c->physical_type = n->physical_type;
		c->type_length = n->type_length;
		c->max_def = n->max_def;
		c->max_rep = n->max_rep;
		c->column_order = (md->column_orders && c->index < md->n_column_orders) ?
			md->column_orders[c->index] : PQ_ORDER_UNKNOWN;
		return;
	}
	for (i = 0; i < n->n_children; i++)
		collect_leaves(st, n->children[i]);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static bool
names_unique(const PqSchemaNode *root)
{
	const char **names;
	bool		unique = true;
	int			i;

	if (root->n_children < 2)
		return true;
	names = palloc(sizeof(char *) * root->n_children);
	for (i = 0; i < root->n_children; i++)
		names[i] = root->children[i]->name;
	qsort(names, root->n_children, sizeof(char *), name_cmp);
	for (i = 1; i < root->n_children && unique; i++)
		unique = strcmp(names[i - 1], names[i]) != 0;
	pfree(names);
	return unique;
}

PqSchema *
pq_schema_build(const PqFileMetaData *md)
{
	SchemaBuildState st;
	PqSchema   *schema;

	if (md->n_schema < 1)
		pq_corrupt("schema is empty");
	memset(&st, 0, sizeof(st));
	st.md = md;
	schema = palloc0(sizeof(PqSchema));
	st.schema = schema;
	schema->root = build_node(&st, NULL, 0);
	if (st.next != md->n_schema)
		pq_corrupt("schema has %d elements, but the tree rooted at \"%s\" uses %d",
				   md->n_schema, schema->root->name, st.next);
	schema->n_columns = st.n_leaves;
	schema->columns = palloc0(sizeof(PqColumnDescr) * Max(st.n_leaves, 1));
	collect_leaves(&st, schema->root);
	schema->unique_names = names_unique(schema->root);
	return schema;
}

static PqSchemaNode *
copy_node(const PqSchemaNode *n, PqSchemaNode *parent, PqSchema *copy)
{
	PqSchemaNode *c = palloc(sizeof(PqSchemaNode));
	int			i;

	*c = *n;
	c->parent = parent;
	if (n->is_leaf)
	{
		copy->columns[n->first_leaf].node = c;
		return c;
	}
	c->children = palloc(sizeof(PqSchemaNode *) * Max(n->n_children, 1));
	for (i = 0; i < n->n_children; i++)
		c->children[i] = copy_node(n->children[i], c, copy);
	return c;
}

PqSchema *
pq_schema_copy(const PqSchema *schema)
{
	PqSchema   *copy = palloc(sizeof(PqSchema));

	*copy = *schema;
	copy->columns = palloc(sizeof(PqColumnDescr) * Max(schema->n_columns, 1));
	memcpy(copy->columns, schema->columns,
		   sizeof(PqColumnDescr) * schema->n_columns);
	copy->root = copy_node(schema->root, NULL, copy);
	return copy;
}

/* The position of the field name matches, -1 if none. */
static int
find_field(const PqSchemaNode *root, const char *name)
{
	int			found = -1;
	int			nfound = 0;
	int			i;

	for (i = 0; i < root->n_children; i++)
		if (strcmp(root->children[i]->name, name) == 0)
			return i;
	for (i = 0; i < root->n_children; i++)
		if (pg_strcasecmp(root->children[i]->name, name) == 0)
		{
			found = i;
			nfound++;
		}
	return nfound == 1 ? found : -1;
}

PqSchemaNode *
pq_schema_child(const PqSchemaNode *node, const char *name)
{
	PqSchemaNode *found = NULL;
	int			i;

	for (i = 0; i < node->n_children; i++)
		if (strcmp(node->children[i]->name, name) == 0)
		{
			if (found != NULL)
				return NULL;
			found = node->children[i];
		}
	return found;
}

PqSchemaNode *
pq_schema_find_field(const PqSchema *schema, const char *name)
{
	int			i = find_field(schema->root, name);

	return i >= 0 ? schema->root->children[i] : NULL;
}

PqSchemaNode *
pq_schema_find_field_hinted(const PqSchema *schema, const char *name,
							int *hint)
{
	PqSchemaNode *root = schema->root;
	int			i;

	/* with distinct names, an exact match is the first exact match */
	if (schema->unique_names && *hint >= 0 && *hint < root->n_children &&
		strcmp(root->children[*hint]->name, name) == 0)
		return root->children[*hint];
	i = find_field(root, name);
	if (i < 0)
		return NULL;
	*hint = i;
	return root->children[i];
}

static const char *
time_unit_name(int unit)
{
	switch (unit)
	{
		case PQ_UNIT_MILLIS:
			return "MILLIS";
		case PQ_UNIT_MICROS:
			return "MICROS";
		case PQ_UNIT_NANOS:
			return "NANOS";
	}
	return "UNKNOWN";
}

char *
pq_logical_type_string(const PqSchemaNode *node)
{
	const PqLogicalType *lt = &node->logical;

	switch (lt->id)
	{
		case PQ_LT_NONE:
			return pstrdup("");
		case PQ_LT_STRING:
			return pstrdup("STRING");
		case PQ_LT_MAP:
			return pstrdup("MAP");
		case PQ_LT_LIST:
			return pstrdup("LIST");
		case PQ_LT_ENUM:
			return pstrdup("ENUM");
		case PQ_LT_DECIMAL:
			return psprintf("DECIMAL(%d,%d)", lt->decimal_precision,
							lt->decimal_scale);
		case PQ_LT_DATE:
			return pstrdup("DATE");
		case PQ_LT_TIME:
			return psprintf("TIME(%s,%s)",
							lt->is_adjusted_to_utc ? "true" : "false",
							time_unit_name(lt->time_unit));
		case PQ_LT_TIMESTAMP:
			return psprintf("TIMESTAMP(%s,%s)",
							lt->is_adjusted_to_utc ? "true" : "false",
							time_unit_name(lt->time_unit));
		case PQ_LT_INTEGER:
			return psprintf("INT(%d,%s)", lt->int_bit_width,
							lt->int_is_signed ? "true" : "false");
		case PQ_LT_UNKNOWN:
			return pstrdup("UNKNOWN");
		case PQ_LT_JSON:
			return pstrdup("JSON");
		case PQ_LT_BSON:
			return pstrdup("BSON");
		case PQ_LT_UUID:
			return pstrdup("UUID");
		case PQ_LT_FLOAT16:
			return pstrdup("FLOAT16");
		case PQ_LT_VARIANT:
			return pstrdup("VARIANT");
		case PQ_LT_GEOMETRY:
			return lt->geo_crs ? psprintf("GEOMETRY(%s)", lt->geo_crs) :
				pstrdup("GEOMETRY");
		case PQ_LT_GEOGRAPHY:
			return lt->geo_crs ? psprintf("GEOGRAPHY(%s)", lt->geo_crs) :
				pstrdup("GEOGRAPHY");
		case PQ_LT_FILE:
			return pstrdup("FILE");
		case PQ_LT_INTERVAL:
			return pstrdup("INTERVAL");
	}
	return pstrdup("UNRECOGNIZED");
}

bool
pq_schema_node_equal(const PqSchemaNode *a, const PqSchemaNode *b)
{
	int			i;

	if (strcmp(a->name, b->name) != 0 ||
		a->repetition != b->repetition ||
		a->is_leaf != b->is_leaf ||
		a->n_children != b->n_children ||
		a->logical.id != b->logical.id)
		return false;
	if (a->is_leaf)
	{
		if (a->physical_type != b->physical_type ||
			a->type_length != b->type_length)
			return false;
		if (a->logical.id == PQ_LT_DECIMAL &&
			(a->logical.decimal_scale != b->logical.decimal_scale ||
			 a->logical.decimal_precision != b->logical.decimal_precision))
			return false;
		if ((a->logical.id == PQ_LT_TIMESTAMP || a->logical.id == PQ_LT_TIME) &&
			(a->logical.time_unit != b->logical.time_unit ||
			 a->logical.is_adjusted_to_utc != b->logical.is_adjusted_to_utc))
			return false;
		if (a->logical.id == PQ_LT_INTEGER &&
			(a->logical.int_bit_width != b->logical.int_bit_width ||
			 a->logical.int_is_signed != b->logical.int_is_signed))
			return false;
		return true;
	}
	for (i = 0; i < a->n_children; i++)
		if (!pq_schema_node_equal(a->children[i], b->children[i]))
			return false;
	return true;
}
