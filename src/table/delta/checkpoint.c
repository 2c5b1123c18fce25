/*-------------------------------------------------------------------------
 *
 * checkpoint.c
 *		Delta Lake checkpoints (Parquet) read into the JSON action lines
 *		that the log replay takes from commit files.
 *
 * The file is read from memory with the format layer, as the scan reads a
 * data file: one column reader per projected leaf, and the record assembler
 * (format/read/assemble.h) building each action column's value trees, a
 * batch of rows at a time.  A plan made once per file from the schema says
 * how each node is written (struct, list, map or scalar) and which fields
 * are left out, so that rendering a row only follows it.
 *
 * Every line must be one the replay's JSON parser takes (table/common/
 * json_tree.h): names unique in their object (a map's key given twice keeps
 * its last entry, as the MAP spec says; of two struct fields of one name
 * the last is written), strings valid UTF-8 without NUL, nesting bounded.
 * What cannot be written so is refused rather than written wrong.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/json/render.h"
#include "format/metadata/schema_nested.h"
#include "format/read/assemble.h"
#include "format/read/column_reader.h"
#include "table/common/json_tree.h"
#include "table/delta/checkpoint.h"
#include "utils/memutils.h"

/* Rows assembled at a time: a few MB of actions with their stats. */
#define BATCH_ROWS 256

/* Output allowed whatever the file's size (PQ_DELTA_CHECKPOINT_MAX_EXPANSION) */
#define EXPANSION_FLOOR ((size_t) 64 * 1024 * 1024)

/* The replay's parser must take every line this nesting allows. */
StaticAssertDecl(PQ_DELTA_CHECKPOINT_MAX_DEPTH < PQ_JV_MAX_DEPTH,
				 "checkpoint lines nest deeper than the replay parses");

/* The action columns written, in the order of one row's lines. */
static const char *const action_names[] = {
	"add", "remove", "metaData", "protocol", "sidecar", "checkpointMetadata"
};

#define NACTIONS ((int) lengthof(action_names))

/* The first this many of action_names: a checkpoint has one at least. */
#define NDEFINING 5

/*
 * Fields of an action that are typed copies of others (Delta's
 * checkpoint.writeStatsAsStruct): as wide as the table, and not needed.
 */
static const char *const skipped_fields[] = {
	"stats_parsed", "partitionValues_parsed"
};

/* How the values of a schema node are written. */
typedef struct Plan Plan;

struct Plan
{
	const PqSchemaNode *node;
	PqShapeKind kind;			/* PRIMITIVE, STRUCT (VARIANT groups too),
								 * LIST or MAP */
	Plan	  **kids;			/* STRUCT: one per child of node; NULL: not
								 * written */
	Plan	   *elem;			/* LIST */
	bool		elem_is_occurrence;
	const PqSchemaNode *entry;	/* MAP: the repeated key_value group */
	Plan	   *key;			/* MAP; NULL: no projected leaf (a null key) */
	Plan	   *value;			/* MAP; NULL: no values (all null) */
};

/* An action column of the file and what reads it. */
typedef struct Action
{
	const char *name;
	const PqSchemaNode *field;
	Plan	   *plan;
	int			nleaves;
	int		   *columns;		/* leaf ordinals */
	PqColumnReader **readers;	/* per projected leaf */
	PqAssembler *assembler;
	PqValue    *rows;			/* the batch's values, BATCH_ROWS */
} Action;

static bool render(PqBuffer *buf, const Plan *p, const PqValue *v,
				   const char **why);

/* The whole file is in memory. */
static void
mem_read(PqSource *src, int64 offset, size_t len, uint8 *buf)
{
	const uint8 *data = src->opaque;

	if (offset < 0 || offset > src->size || len > (uint64) (src->size - offset))
		pq_corrupt("read of %zu bytes at " INT64_FORMAT " is past the end",
				   len, offset);
	if (len > 0)
		memcpy(buf, data + offset, len);
}

/* The assembler's leaves come from the action's column readers. */
static int
src_next(void *arg, int leaf, int max, PqSegment *seg)
{
	return pq_column_reader_next(((Action *) arg)->readers[leaf], max, seg);
}

static void
src_skip(void *arg, int leaf, int64 n)
{
	pq_column_reader_skip(((Action *) arg)->readers[leaf], n);
}

static int64
src_position(void *arg, int leaf)
{
	return pq_column_reader_row(((Action *) arg)->readers[leaf]);
}

static bool
is_skipped_field(const char *name)
{
	int			i;

	for (i = 0; i < (int) lengthof(skipped_fields); i++)
		if (strcmp(name, skipped_fields[i]) == 0)
			return true;
	return false;
}

/* qsort_arg comparator of positions: by name, then position */
static int
name_cmp(const void *a, const void *b, void *arg)
{
	const PqSchemaNode *node = arg;
	int			x = *(const int *) a;
	int			y = *(const int *) b;
	int			c = strcmp(node->children[x]->name, node->children[y]->name);

	return c != 0 ? c : (x > y) - (x < y);
}

/* A map's keys as written: key i is text[off[i], off[i + 1]) */
typedef struct Keys
{
	const uint8 *text;
	const size_t *off;
} Keys;

static bool
same_key(const Keys *k, int x, int y)
{
	size_t		lx = k->off[x + 1] - k->off[x];

	return lx == k->off[y + 1] - k->off[y] &&
		memcmp(k->text +k->off[x], k->text +k->off[y], lx) == 0;
}

/* qsort_arg comparator of positions: by key, then position */
static int
key_cmp(const void *a, const void *b, void *arg)
{
	const Keys *k = arg;
	int			x = *(const int *) a;
	int			y = *(const int *) b;
	size_t		lx = k->off[x + 1] - k->off[x];
	size_t		ly = k->off[y + 1] - k->off[y];
	int			c = memcmp(k->text +k->off[x], k->text +k->off[y],
						   Min(lx, ly));

	if (c == 0)
		c = (lx > ly) - (lx < ly);
	return c != 0 ? c : (x > y) - (x < y);
}

/*
 * keep[i] is false where a later one of the n keys is the same: sorting
 * the positions finds them in n log n, whatever n the file has.
 */
static bool *
last_of_each_key(const Keys *k, int n)
{
	int		   *order = palloc(sizeof(int) * Max(n, 1));
	bool	   *keep = palloc(sizeof(bool) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
	{
		order[i] = i;
		keep[i] = true;
	}
	if (n > 1)
		qsort_arg(order, n, sizeof(int), key_cmp, (void *) k);
	for (i = 0; i + 1 < n; i++)
		if (same_key(k, order[i], order[i + 1]))
			keep[order[i]] = false;
	pfree(order);
	return keep;
}

/*
 * The plan of node's values.  depth: the JSON nesting of the object or
 * array the node's value would open (the line's object is 1).  action:
 * node is an action column, whose typed copies are left out.  *out NULL:
 * nothing of node is read (no leaf below it), nothing written.
 */
static bool
plan_node(const PqSchemaNode *node, bool as_element, int depth, bool action,
		  Plan **out, const char **why)
{
	PqShape		sh;
	Plan	   *p;
	int			i;

	*out = NULL;
	if (node->n_leaves < 1)
		return true;
	pq_shape_of(node, as_element, &sh);
	p = palloc0(sizeof(Plan));
	p->node = node;
	p->kind = sh.kind == PQ_SHAPE_VARIANT ? PQ_SHAPE_STRUCT : sh.kind;
	/* this bounds the recursion too: every level below is a container */
	if (p->kind != PQ_SHAPE_PRIMITIVE && depth > PQ_DELTA_CHECKPOINT_MAX_DEPTH)
	{
		*why = "its actions nest deeper than a log line may";
		return false;
	}
	switch (p->kind)
	{
		case PQ_SHAPE_STRUCT:
			{
				int		   *order = palloc(sizeof(int) * Max(node->n_children, 1));

				p->kids = palloc0(sizeof(Plan *) * Max(node->n_children, 1));
				for (i = 0; i < node->n_children; i++)
					order[i] = i;
				qsort_arg(order, node->n_children, sizeof(int), name_cmp,
						  (void *) node);
				for (i = 0; i < node->n_children; i++)
				{
					int			c = order[i];
					const PqSchemaNode *child = node->children[c];

					/* of fields of one name, the last (sorted after) */
					if (i + 1 < node->n_children &&
						strcmp(child->name,
							   node->children[order[i + 1]]->name) == 0)
						continue;
					if (action && is_skipped_field(child->name))
						continue;
					if (!plan_node(child, false, depth + 1, false,
								   &p->kids[c], why))
						return false;
				}
				pfree(order);
			}
			break;
		case PQ_SHAPE_LIST:
			p->elem_is_occurrence = pq_shape_element_is_occurrence(&sh);
			if (!plan_node(sh.element, p->elem_is_occurrence, depth + 1,
						   false, &p->elem, why))
				return false;
			break;
		case PQ_SHAPE_MAP:
			p->entry = sh.repeated;
			if (!plan_node(sh.key, false, depth + 1, false, &p->key, why))
				return false;
			if (sh.value != NULL &&
				!plan_node(sh.value, false, depth + 1, false, &p->value, why))
				return false;
			break;
		default:
			break;
	}
	*out = p;
	return true;
}

static void
append_cstr(PqBuffer *buf, const char *s)
{
	pq_buffer_append(buf, s, strlen(s));
}

/*
 * A leaf value.  Text (binary annotated as a string, enum or JSON, or not
 * annotated at all) as a JSON string, everything else by the format
 * layer's JSON rules (exact integers and decimals; docs/JSON.md).
 */
static bool
render_scalar(PqBuffer *buf, const PqSchemaNode *node, const PqValue *v,
			  const char **why)
{
	int			lt = node->logical.id;
	const uint8 *s;
	uint32		len;

	if (v->kind != PQ_VAL_SCALAR)
		elog(ERROR, "Delta checkpoint: a value of \"%s\" is not a scalar",
			 node->name);
	if ((node->physical_type != PQ_BYTE_ARRAY &&
		 node->physical_type != PQ_FIXED_LEN_BYTE_ARRAY) ||
		(lt != PQ_LT_NONE && lt != PQ_LT_STRING && lt != PQ_LT_ENUM &&
		 lt != PQ_LT_JSON))
	{
		pq_json_scalar(buf, node, v);
		return true;
	}
	s = v->u.scalar.bytes.ptr;
	len = v->u.scalar.bytes.len;
	if (len == 0)
	{
		append_cstr(buf, "\"\"");
		return true;
	}
	if (lt == PQ_LT_NONE &&
		(memchr(s, 0, len) != NULL || !pq_utf8_valid(s, len)))
	{
		/* binary that is not text */
		pq_json_base64(buf, s, len);
		return true;
	}
	if (memchr(s, 0, len) != NULL)
	{
		*why = "a string of its actions holds a NUL character";
		return false;
	}
	/* invalid UTF-8 in a string column is corrupt: pq_json_string says so */
	pq_json_string(buf, (const char *) s, len);
	return true;
}

static bool
render_struct(PqBuffer *buf, const Plan *p, const PqValue *v,
			  const char **why)
{
	const PqSchemaNode *node = p->node;
	bool		first = true;
	int			i;

	if (v->kind != PQ_VAL_GROUP || v->u.children.n != node->n_children)
		elog(ERROR, "Delta checkpoint: a value of \"%s\" is not its group",
			 node->name);
	pq_buffer_append_byte(buf, '{');
	for (i = 0; i < node->n_children; i++)
	{
		const PqValue *c = &v->u.children.items[i];

		/* the replay takes an absent member as null */
		if (p->kids[i] == NULL || c->kind == PQ_VAL_NULL)
			continue;
		if (!first)
			pq_buffer_append_byte(buf, ',');
		first = false;
		pq_json_string(buf, node->children[i]->name,
					   strlen(node->children[i]->name));
		pq_buffer_append_byte(buf, ':');
		if (!render(buf, p->kids[i], c, why))
			return false;
	}
	pq_buffer_append_byte(buf, '}');
	return true;
}

static bool
render_list(PqBuffer *buf, const Plan *p, const PqValue *v, const char **why)
{
	const PqValue *items;
	int			n;
	int			i;

	(void) pq_value_items(v, &items, &n);
	pq_buffer_append_byte(buf, '[');
	for (i = 0; i < n; i++)
	{
		if (i > 0)
			pq_buffer_append_byte(buf, ',');
		if (p->elem == NULL)
			append_cstr(buf, "null");
		else if (!render(buf, p->elem,
						 pq_list_element(p->elem_is_occurrence, &items[i]),
						 why))
			return false;
	}
	pq_buffer_append_byte(buf, ']');
	return true;
}

/*
 * A map as an object: keys are their renderings as JSON strings (a string
 * as it is, anything else as its JSON text), each written once, with its
 * last entry's value.
 */
static bool
render_map(PqBuffer *buf, const Plan *p, const PqValue *v, const char **why)
{
	const PqValue *items;
	int			n;
	int			i;
	PqBuffer	keys;
	PqBuffer	one;
	size_t	   *off;
	bool	   *keep;
	bool		first = true;
	Keys		k;

	(void) pq_value_items(v, &items, &n);
	pq_buffer_init(&keys, 64);
	pq_buffer_init(&one, 64);
	off = palloc(sizeof(size_t) * (n + 1));
	for (i = 0; i < n; i++)
	{
		const PqValue *e = &items[i];

		if (e->kind != PQ_VAL_GROUP ||
			e->u.children.n != p->entry->n_children)
			elog(ERROR, "Delta checkpoint: an entry of map \"%s\" is not its group",
				 p->node->name);
		if (p->key == NULL || e->u.children.items[0].kind == PQ_VAL_NULL)
		{
			*why = "a map of its actions has a null key";
			return false;
		}
		off[i] = keys.len;
		pq_buffer_reset(&one);
		if (!render(&one, p->key, &e->u.children.items[0], why))
			return false;
		if (one.len > 0 && one.data[0] == '"')
			pq_buffer_append(&keys, one.data, one.len);
		else
			pq_json_string(&keys, (const char *) one.data, one.len);
	}
	off[n] = keys.len;
	k.text = keys.data;
	k.off = off;
	keep = last_of_each_key(&k, n);
	pq_buffer_append_byte(buf, '{');
	for (i = 0; i < n; i++)
	{
		const PqValue *e = &items[i];

		if (!keep[i])
			continue;
		if (!first)
			pq_buffer_append_byte(buf, ',');
		first = false;
		pq_buffer_append(buf, keys.data + off[i], off[i + 1] - off[i]);
		pq_buffer_append_byte(buf, ':');
		if (p->value == NULL)
			append_cstr(buf, "null");
		else if (!render(buf, p->value, &e->u.children.items[1], why))
			return false;
	}
	pq_buffer_append_byte(buf, '}');
	pfree(keys.data);
	pfree(one.data);
	pfree(off);
	pfree(keep);
	return true;
}

static bool
render(PqBuffer *buf, const Plan *p, const PqValue *v, const char **why)
{
	if (v->kind == PQ_VAL_NULL)
	{
		append_cstr(buf, "null");
		return true;
	}
	switch (p->kind)
	{
		case PQ_SHAPE_PRIMITIVE:
			return render_scalar(buf, p->node, v, why);
		case PQ_SHAPE_STRUCT:
			return render_struct(buf, p, v, why);
		case PQ_SHAPE_LIST:
			return render_list(buf, p, v, why);
		case PQ_SHAPE_MAP:
			return render_map(buf, p, v, why);
		default:
			elog(ERROR, "Delta checkpoint: unexpected shape %d", (int) p->kind);
	}
	return false;
}

/*
 * The action columns of file, in action_names order, with their plans and
 * projected leaves; false when the file is no checkpoint.
 */
static bool
find_actions(PqFile *file, Action *acts, int *nacts, const char **why)
{
	const PqSchemaNode *root = file->schema->root;
	bool		checkpoint = false;
	int			a;
	int			i;

	*nacts = 0;
	for (a = 0; a < NACTIONS; a++)
	{
		const PqSchemaNode *field = NULL;
		Action	   *act = &acts[*nacts];
		PqShape		sh;

		for (i = 0; i < root->n_children; i++)
		{
			if (strcmp(root->children[i]->name, action_names[a]) != 0)
				continue;
			if (field != NULL)
			{
				*why = "one of its action columns is there twice";
				return false;
			}
			field = root->children[i];
		}
		if (field == NULL)
			continue;
		if (a < NDEFINING)
			checkpoint = true;
		pq_shape_of(field, false, &sh);
		if (sh.kind != PQ_SHAPE_STRUCT)
		{
			*why = "one of its action columns is not a struct";
			return false;
		}
		memset(act, 0, sizeof(Action));
		act->name = action_names[a];
		act->field = field;
		if (!plan_node(field, false, 2, true, &act->plan, why))
			return false;

		/* the leaves below the fields written: none of the typed copies */
		act->columns = palloc(sizeof(int) * Max(field->n_leaves, 1));
		for (i = 0; i < field->n_children; i++)
		{
			const PqSchemaNode *c = field->children[i];
			int			l;

			if (act->plan == NULL || act->plan->kids[i] == NULL)
				continue;
			for (l = 0; l < c->n_leaves; l++)
				act->columns[act->nleaves++] = c->first_leaf + l;
		}
		/* an action of nothing but typed copies: no line to write */
		if (act->nleaves > 0)
			(*nacts)++;
	}
	if (!checkpoint)
	{
		*why = "it has none of the columns add, remove, metaData, protocol and sidecar";
		return false;
	}
	return true;
}

/* Column readers and the assembler of an action's projected leaves. */
static void
open_action(PqFile *file, Action *act, MemoryContext cxt)
{
	const PqSchemaNode **leaves = palloc(sizeof(PqSchemaNode *) * act->nleaves);
	PqLeafSource src = {src_next, src_skip, src_position, act};
	int			i;

	/*
	 * Struct fields not written were left out above, in column order, so the
	 * leaves stay in column order as the assembler needs them.
	 */
	act->readers = palloc(sizeof(PqColumnReader *) * act->nleaves);
	for (i = 0; i < act->nleaves; i++)
	{
		leaves[i] = file->schema->columns[act->columns[i]].node;
		act->readers[i] = pq_column_reader_create(file, act->columns[i], cxt);
	}
	act->assembler = pq_assembler_create(act->field, leaves, act->nleaves, src);
	act->rows = palloc(sizeof(PqValue) * BATCH_ROWS);
}

/* Start every action's leaves on row group rg (bytes of data, not copied). */
static void
start_row_group(PqFile *file, const uint8 *data, Action *acts, int nacts,
				int rg)
{
	int			a;
	int			i;

	for (a = 0; a < nacts; a++)
	{
		for (i = 0; i < acts[a].nleaves; i++)
		{
			int64		start;
			int64		len;
			int64		slack;

			/* validated to lie within the file */
			pq_file_chunk_range(file, rg, acts[a].columns[i], &start, &len,
								&slack);
			pq_column_reader_start_bytes(acts[a].readers[i], rg, data + start);
		}
		pq_assembler_reset(acts[a].assembler);
	}
}

/* One line: {"<action>":<the action>}\n */
static bool
write_line(PqBuffer *out, const Action *act, const PqValue *v,
		   const char **why)
{
	pq_buffer_append_byte(out, '{');
	pq_json_string(out, act->name, strlen(act->name));
	pq_buffer_append_byte(out, ':');
	if (!render(out, act->plan, v, why))
		return false;
	pq_buffer_append(out, "}\n", 2);
	return true;
}

static bool
read_checkpoint(PqFile *file, const uint8 *data, size_t len, PqBuffer *out,
				size_t start_len, MemoryContext cxt, const char **why)
{
	Action		acts[NACTIONS];
	int			nacts;
	MemoryContext batch_cxt;
	size_t		limit;
	int			rg;
	int			a;

	if (!find_actions(file, acts, &nacts, why))
		return false;
	for (a = 0; a < nacts; a++)
		open_action(file, &acts[a], cxt);
	limit = len > EXPANSION_FLOOR / PQ_DELTA_CHECKPOINT_MAX_EXPANSION ?
		(len > SIZE_MAX / PQ_DELTA_CHECKPOINT_MAX_EXPANSION ? SIZE_MAX :
		 len * PQ_DELTA_CHECKPOINT_MAX_EXPANSION) : EXPANSION_FLOOR;
	batch_cxt = AllocSetContextCreate(cxt, "parquet_fdw Delta checkpoint batch",
									  ALLOCSET_DEFAULT_SIZES);
	for (rg = 0; rg < file->md.n_row_groups && nacts > 0; rg++)
	{
		int64		nrows = file->md.row_groups[rg].num_rows;
		int64		done;
		int			n;

		if (nrows < 0)
			pq_corrupt("row group %d has a negative number of rows", rg);
		if (nrows == 0)
			continue;
		start_row_group(file, data, acts, nacts, rg);
		for (done = 0; done < nrows; done += n)
		{
			MemoryContext old = MemoryContextSwitchTo(batch_cxt);
			int			i;

			n = (int) Min(BATCH_ROWS, nrows - done);
			for (a = 0; a < nacts; a++)
			{
				(void) pq_assembler_next(acts[a].assembler, n);
				pq_assembler_build(acts[a].assembler, acts[a].rows);
			}
			for (i = 0; i < n; i++)
			{
				for (a = 0; a < nacts; a++)
				{
					if (acts[a].rows[i].kind == PQ_VAL_NULL)
						continue;
					if (!write_line(out, &acts[a], &acts[a].rows[i], why))
					{
						MemoryContextSwitchTo(old);
						return false;
					}
				}
				if (out->len - start_len > limit)
				{
					*why = "its actions are more than a thousand times its size as JSON";
					MemoryContextSwitchTo(old);
					return false;
				}
			}
			MemoryContextSwitchTo(old);
			MemoryContextReset(batch_cxt);
		}
	}
	return true;
}

bool
pq_delta_checkpoint_json(const uint8 *data, size_t len, PqBuffer *out,
						 const char **why)
{
	MemoryContext cxt;
	MemoryContext old;
	PqSource	src;
	PqErrorLocation loc;
	PqFile	   *file;
	size_t		start_len = out->len;
	const char *name = pq_errloc_filename();
	bool		ok;

	*why = NULL;
	if (len > (size_t) PG_INT64_MAX)
		pq_too_large("a checkpoint of %zu bytes is too large", len);
	cxt = AllocSetContextCreate(CurrentMemoryContext,
								"parquet_fdw Delta checkpoint",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	memset(&src, 0, sizeof(src));
	src.name = name ? name : "Delta checkpoint";
	src.size = (int64) len;
	src.read = mem_read;
	src.opaque = (void *) data;
	/* messages of the renderer (pq_json_string) name the file too */
	pq_errloc_push(&loc, src.name);
	file = pq_file_open(&src);
	ok = read_checkpoint(file, data, len, out, start_len, cxt, why);
	pq_errloc_pop(&loc);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	if (!ok)
		out->len = start_len;
	return ok;
}
