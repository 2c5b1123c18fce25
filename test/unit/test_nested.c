/*
 * test_nested.c
 *		Nested data in the format layer: LIST/MAP shapes by the
 *		LogicalTypes rules (format/metadata/schema_nested.c) and record assembly from
 *		hand-built level streams (format/read/assemble.c), among them the Dremel
 *		paper's Document example with levels and records worked out by
 *		hand.
 */
#include "postgres.h"

#include "format/read/assemble.h"
#include "format/metadata/schema_nested.h"
#include "unit_test.h"
#include "utils/memutils.h"

/* ---- hand-built schema trees ---- */

#define GROUP (-1)

static PqSchemaNode *
node(const char *name, int repetition, int ptype, int lt, int ct,
	 int nchildren, PqSchemaNode **children)
{
	PqSchemaNode *n = palloc0(sizeof(PqSchemaNode));
	PqSchemaElement *e = palloc0(sizeof(PqSchemaElement));
	int			i;

	e->name = pstrdup(name);
	e->logical_type.id = lt;
	e->has_converted_type = (ct >= 0);
	e->converted_type = ct;
	n->elem = e;
	n->name = e->name;
	n->repetition = repetition;
	n->is_leaf = (ptype != GROUP);
	n->physical_type = ptype;
	n->type_length = ptype == PQ_INT96 ? 12 : 0;
	n->logical.id = lt;
	/* format/metadata/schema.c resolves MAP_KEY_VALUE and LIST converted types likewise */
	if (lt == PQ_LT_NONE && (ct == PQ_CT_MAP || ct == PQ_CT_MAP_KEY_VALUE))
		n->logical.id = PQ_LT_MAP;
	if (lt == PQ_LT_NONE && ct == PQ_CT_LIST)
		n->logical.id = PQ_LT_LIST;
	n->converted_type = ct;
	n->n_children = nchildren;
	n->children = palloc0(sizeof(PqSchemaNode *) * Max(nchildren, 1));
	for (i = 0; i < nchildren; i++)
	{
		n->children[i] = children[i];
		children[i]->parent = n;
	}
	return n;
}

static PqSchemaNode *
leaf(const char *name, int repetition, int ptype)
{
	return node(name, repetition, ptype, PQ_LT_NONE, -1, 0, NULL);
}

static PqSchemaNode *
group1(const char *name, int repetition, int lt, int ct, PqSchemaNode *c)
{
	return node(name, repetition, GROUP, lt, ct, 1, &c);
}

static PqSchemaNode *
group2(const char *name, int repetition, int lt, int ct, PqSchemaNode *a,
	   PqSchemaNode *b)
{
	PqSchemaNode *c[2] = {a, b};

	return node(name, repetition, GROUP, lt, ct, 2, c);
}

/* Levels, depths and leaf ranges, as format/metadata/schema.c computes them. */
static void
finish(PqSchemaNode *n, int *next_leaf)
{
	int			i;

	if (n->parent == NULL)
	{
		n->max_def = n->max_rep = 0;
		n->depth = 0;
		n->repetition = PQ_REQUIRED;
	}
	else
	{
		n->depth = n->parent->depth + 1;
		n->max_def = n->parent->max_def + (n->repetition != PQ_REQUIRED);
		n->max_rep = n->parent->max_rep + (n->repetition == PQ_REPEATED);
	}
	n->first_leaf = *next_leaf;
	if (n->is_leaf)
		(*next_leaf)++;
	for (i = 0; i < n->n_children; i++)
		finish(n->children[i], next_leaf);
	n->n_leaves = *next_leaf - n->first_leaf;
}

static PqSchemaNode *
root_of(int nfields, PqSchemaNode **fields)
{
	PqSchemaNode *r = node("schema", PQ_REQUIRED, GROUP, PQ_LT_NONE, -1,
						   nfields, fields);
	int			next = 0;

	finish(r, &next);
	return r;
}

static PqSchemaNode *
root1(PqSchemaNode *f)
{
	return root_of(1, &f);
}

/* ---- shapes ---- */

static void
test_shape_three_level_list(void)
{
	PqSchemaNode *el = leaf("element", PQ_OPTIONAL, PQ_INT32);
	PqSchemaNode *l = group1("my_list", PQ_OPTIONAL, PQ_LT_LIST, -1,
							 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, el));
	PqShape		sh;

	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_LIST);
	CHECK(sh.repeated == l->children[0]);
	CHECK(sh.element == el);
	pq_shape_of(el, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_PRIMITIVE);
}

static void
test_shape_list_rules(void)
{
	PqShape		sh;
	PqSchemaNode *l;
	PqSchemaNode *rep;

	/* misnamed 3-level: repeated group "element" with one field "str" */
	rep = group1("element", PQ_REPEATED, PQ_LT_NONE, -1,
				 leaf("str", PQ_REQUIRED, PQ_BYTE_ARRAY));
	l = group1("my_list", PQ_OPTIONAL, PQ_LT_NONE, PQ_CT_LIST, rep);
	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_LIST);
	CHECK(sh.element == rep->children[0]);

	/* rule 1: repeated primitive */
	rep = leaf("element", PQ_REPEATED, PQ_INT32);
	l = group1("my_list", PQ_OPTIONAL, PQ_LT_LIST, -1, rep);
	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK(sh.repeated == rep && sh.element == rep);
	pq_shape_of(sh.element, true, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_PRIMITIVE);

	/* rule 2: repeated group of several fields */
	rep = group2("element", PQ_REPEATED, PQ_LT_NONE, -1,
				 leaf("str", PQ_REQUIRED, PQ_BYTE_ARRAY),
				 leaf("num", PQ_REQUIRED, PQ_INT32));
	l = group1("my_list", PQ_OPTIONAL, PQ_LT_LIST, -1, rep);
	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK(sh.element == rep);
	pq_shape_of(sh.element, true, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_STRUCT);

	/* rule 3: one field that is itself repeated (old_list_structure) */
	rep = group1("array", PQ_REPEATED, PQ_LT_LIST, -1,
				 leaf("array", PQ_REPEATED, PQ_INT32));
	l = group1("a", PQ_REQUIRED, PQ_LT_LIST, -1, rep);
	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK(sh.element == rep);
	pq_shape_of(rep, true, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_LIST);
	CHECK(sh.repeated == rep->children[0] && sh.element == rep->children[0]);

	/* rule 3 without the inner annotation */
	rep = group1("things", PQ_REPEATED, PQ_LT_NONE, -1,
				 leaf("x", PQ_REPEATED, PQ_INT32));
	l = group1("a", PQ_OPTIONAL, PQ_LT_LIST, -1, rep);
	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK(sh.element == rep);
	pq_shape_of(rep, true, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_STRUCT);

	/* rule 4: "array" and "<name>_tuple" */
	rep = group1("array", PQ_REPEATED, PQ_LT_NONE, -1,
				 leaf("str", PQ_REQUIRED, PQ_BYTE_ARRAY));
	l = group1("my_list", PQ_OPTIONAL, PQ_LT_LIST, -1, rep);
	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK(sh.element == rep);
	rep = group1("my_list_tuple", PQ_REPEATED, PQ_LT_NONE, -1,
				 leaf("str", PQ_REQUIRED, PQ_BYTE_ARRAY));
	l = group1("my_list", PQ_OPTIONAL, PQ_LT_LIST, -1, rep);
	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK(sh.element == rep);
	/* ... but not another list's name */
	rep = group1("other_tuple", PQ_REPEATED, PQ_LT_NONE, -1,
				 leaf("str", PQ_REQUIRED, PQ_BYTE_ARRAY));
	l = group1("my_list", PQ_OPTIONAL, PQ_LT_LIST, -1, rep);
	root1(l);
	pq_shape_of(l, false, &sh);
	CHECK(sh.element == rep->children[0]);

	/* a LIST annotation on anything else is corrupt */
	l = group1("bad", PQ_OPTIONAL, PQ_LT_LIST, -1,
			   leaf("x", PQ_OPTIONAL, PQ_INT32));
	root1(l);
	CHECK_ERROR(pq_shape_of(l, false, &sh), ERRCODE_DATA_CORRUPTED);
}

static void
test_shape_unannotated(void)
{
	PqShape		sh;
	PqSchemaNode *r = leaf("Int32_list", PQ_REPEATED, PQ_INT32);
	PqSchemaNode *g = group2("phone", PQ_REPEATED, PQ_LT_NONE, -1,
							 leaf("number", PQ_REQUIRED, PQ_INT64),
							 leaf("kind", PQ_OPTIONAL, PQ_BYTE_ARRAY));
	PqSchemaNode *s = group1("phoneNumbers", PQ_OPTIONAL, PQ_LT_NONE, -1, g);
	PqSchemaNode *f[2] = {r, s};

	root_of(2, f);
	pq_shape_of(r, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_LIST);
	CHECK(sh.repeated == r && sh.element == r);
	CHECK(pq_shape_element_is_occurrence(&sh));
	pq_shape_of(r, true, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_PRIMITIVE);
	pq_shape_of(s, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_STRUCT);
	pq_shape_of(g, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_LIST);
	pq_shape_of(g, true, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_STRUCT);
}

static void
test_shape_maps(void)
{
	PqShape		sh;
	PqSchemaNode *kv;
	PqSchemaNode *m;

	/* standard */
	kv = group2("key_value", PQ_REPEATED, PQ_LT_NONE, -1,
				leaf("key", PQ_REQUIRED, PQ_BYTE_ARRAY),
				leaf("value", PQ_OPTIONAL, PQ_INT32));
	m = group1("my_map", PQ_REQUIRED, PQ_LT_MAP, -1, kv);
	root1(m);
	pq_shape_of(m, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_MAP);
	CHECK(sh.repeated == kv && sh.key == kv->children[0] &&
		  sh.value == kv->children[1]);

	/* misnamed (by position), MAP_KEY_VALUE on the outer group */
	kv = group2("map", PQ_REPEATED, PQ_LT_NONE, -1,
				leaf("str", PQ_REQUIRED, PQ_BYTE_ARRAY),
				leaf("num", PQ_REQUIRED, PQ_INT32));
	m = group1("my_map", PQ_OPTIONAL, PQ_LT_NONE, PQ_CT_MAP_KEY_VALUE, kv);
	root1(m);
	pq_shape_of(m, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_MAP);
	CHECK(sh.key == kv->children[0] && sh.value == kv->children[1]);

	/* no value field */
	kv = group1("key_value", PQ_REPEATED, PQ_LT_NONE, -1,
				leaf("key", PQ_REQUIRED, PQ_INT32));
	m = group1("my_map_no_v", PQ_REQUIRED, PQ_LT_MAP, -1, kv);
	root1(m);
	pq_shape_of(m, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_MAP);
	CHECK(sh.key == kv->children[0] && sh.value == NULL);

	/* a stray MAP_KEY_VALUE on a struct is ignored */
	m = group2("kv", PQ_OPTIONAL, PQ_LT_NONE, PQ_CT_MAP_KEY_VALUE,
			   leaf("key", PQ_REQUIRED, PQ_INT32),
			   leaf("value", PQ_REQUIRED, PQ_INT32));
	root1(m);
	pq_shape_of(m, false, &sh);
	CHECK_EQ_INT(sh.kind, PQ_SHAPE_STRUCT);

	/* ... but a MAP annotation that does not fit is corrupt */
	m = group2("bad", PQ_OPTIONAL, PQ_LT_MAP, -1,
			   leaf("key", PQ_REQUIRED, PQ_INT32),
			   leaf("value", PQ_REQUIRED, PQ_INT32));
	root1(m);
	CHECK_ERROR(pq_shape_of(m, false, &sh), ERRCODE_DATA_CORRUPTED);
	kv = node("key_value", PQ_REPEATED, GROUP, PQ_LT_NONE, -1, 3,
			  (PqSchemaNode *[]) {
			  leaf("k", PQ_REQUIRED, PQ_INT32),
			  leaf("v", PQ_REQUIRED, PQ_INT32),
			  leaf("w", PQ_REQUIRED, PQ_INT32)});
	m = group1("bad3", PQ_OPTIONAL, PQ_LT_MAP, -1, kv);
	root1(m);
	CHECK_ERROR(pq_shape_of(m, false, &sh), ERRCODE_DATA_CORRUPTED);
}

/* ---- level streams ---- */

typedef struct TestLeaf
{
	int			n;
	const int16 *rep;
	const int16 *def;
	const int64 *i64;			/* values (dense) */
	const char *const *str;
	bool		dict;			/* serve values as dictionary ids */
	/* position */
	int			pos;
	int			vpos;
	/* scratch segment arrays, exact size for ASan */
	int64	   *vals;
	PqByteArray *ba;
	uint32	   *ids;
	int			nba;
	PqDictionary d;
} TestLeaf;

typedef struct TestSource
{
	TestLeaf   *leaves;
	int			seg_max;		/* entries per segment */
	int			skipped;		/* entries passed by skip() */
} TestSource;

static int16 max_def_of[16];

static int
ts_next(void *arg, int li, int max, PqSegment *seg)
{
	TestSource *ts = arg;
	TestLeaf   *l = &ts->leaves[li];
	int			n = Min(Min(max, ts->seg_max), l->n - l->pos);
	int			nv = 0;
	int			i;

	memset(seg, 0, sizeof(*seg));
	/* the previous segment's arrays die, as a column reader's would */
	if (l->vals)
		pfree(l->vals);
	if (l->ids)
		pfree(l->ids);
	if (l->ba)
	{
		if (!l->dict)
			for (i = 0; i < l->nba; i++)
				pfree((void *) l->ba[i].ptr);
		pfree(l->ba);
	}
	l->vals = NULL;
	l->ids = NULL;
	l->ba = NULL;
	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++)
		nv += (l->def == NULL || l->def[l->pos + i] == max_def_of[li]);
	seg->n = n;
	seg->rep = l->rep ? l->rep + l->pos : NULL;
	seg->def = l->def ? l->def + l->pos : NULL;
	seg->nvalues = nv;
	/* fresh arrays each time: the assembler must not keep old pointers */
	if (l->i64)
	{
		l->vals = palloc(sizeof(int64) * Max(nv, 1));
		memcpy(l->vals, l->i64 + l->vpos, sizeof(int64) * nv);
		seg->fixed = l->vals;
	}
	else if (l->dict)
	{
		int			nd = 0;

		while (l->str[nd])
			nd++;
		l->ba = palloc(sizeof(PqByteArray) * nd);
		for (i = 0; i < nd; i++)
		{
			l->ba[i].ptr = (const uint8 *) l->str[i];
			l->ba[i].len = strlen(l->str[i]);
		}
		l->d.id = 1;
		l->d.count = nd;
		l->d.ba = l->ba;
		l->ids = palloc(sizeof(uint32) * Max(nv, 1));
		/* values are the dictionary entries in turn */
		for (i = 0; i < nv; i++)
			l->ids[i] = (uint32) ((l->vpos + i) % nd);
		seg->indices = l->ids;
		seg->dict = &l->d;
	}
	else
	{
		l->ba = palloc(sizeof(PqByteArray) * Max(nv, 1));
		l->nba = nv;
		for (i = 0; i < nv; i++)
		{
			const char *s = l->str[l->vpos + i];

			l->ba[i].ptr = ut_exact_copy(s, strlen(s));
			l->ba[i].len = strlen(s);
		}
		seg->ba = l->ba;
	}
	l->pos += n;
	l->vpos += nv;
	return n;
}

static int64
ts_position(void *arg, int li)
{
	TestSource *ts = arg;

	return ts->leaves[li].pos;
}

static void
ts_skip(void *arg, int li, int64 n)
{
	TestSource *ts = arg;
	TestLeaf   *l = &ts->leaves[li];
	int			i;

	for (i = 0; i < n; i++)
		l->vpos += (l->def == NULL || l->def[l->pos + i] == max_def_of[li]);
	l->pos += (int) n;
	ts->skipped += (int) n;
}

/* Render a tree compactly: lists [..], groups {..}, strings '..'. */
static void
render(const PqValue *v, PqBuffer *out)
{
	char		tmp[64];
	int			i;

	switch (v->kind)
	{
		case PQ_VAL_NULL:
			pq_buffer_append(out, "null", 4);
			break;
		case PQ_VAL_SCALAR:
			if (v->node->physical_type == PQ_INT64)
			{
				snprintf(tmp, sizeof(tmp), INT64_FORMAT, v->u.scalar.i64);
				pq_buffer_append(out, tmp, strlen(tmp));
			}
			else
			{
				pq_buffer_append_byte(out, '\'');
				pq_buffer_append(out, v->u.scalar.bytes.ptr,
								 v->u.scalar.bytes.len);
				pq_buffer_append_byte(out, '\'');
			}
			break;
		case PQ_VAL_LIST:
		case PQ_VAL_GROUP:
			pq_buffer_append_byte(out, v->kind == PQ_VAL_LIST ? '[' : '{');
			for (i = 0; i < v->u.children.n; i++)
			{
				if (i)
					pq_buffer_append_byte(out, ',');
				render(&v->u.children.items[i], out);
			}
			pq_buffer_append_byte(out, v->kind == PQ_VAL_LIST ? ']' : '}');
			break;
	}
}

static char *
render_rows(const PqValue *rows, int n)
{
	PqBuffer	b;
	int			i;

	pq_buffer_init(&b, 64);
	for (i = 0; i < n; i++)
	{
		if (i)
			pq_buffer_append(&b, " | ", 3);
		render(&rows[i], &b);
	}
	pq_buffer_append_byte(&b, '\0');
	return (char *) b.data;
}

/*
 * Assemble nrows rows of field from the leaves' streams, in batches of
 * `batch` rows, with segments of seg_max entries; the rows rendered.
 */
static char *
assemble(PqSchemaNode *field, PqSchemaNode **leaves, TestLeaf *tl, int nleaves,
		 int nrows, int batch, int seg_max)
{
	TestSource	ts;
	PqLeafSource src;
	PqAssembler *a;
	PqValue    *rows = palloc0(sizeof(PqValue) * Max(batch, 1));
	PqBuffer	out;
	int			done = 0;
	int			i;

	for (i = 0; i < nleaves; i++)
	{
		tl[i].pos = tl[i].vpos = 0;
		max_def_of[i] = leaves[i]->max_def;
	}
	ts.leaves = tl;
	ts.seg_max = seg_max;
	ts.skipped = 0;
	src.next = ts_next;
	src.skip = ts_skip;
	src.position = ts_position;
	src.arg = &ts;
	a = pq_assembler_create(field, (const PqSchemaNode *const *) leaves,
							nleaves, src);
	pq_assembler_reset(a);
	pq_buffer_init(&out, 64);
	while (done < nrows)
	{
		int			n = Min(batch, nrows - done);
		char	   *part;

		pq_assembler_next(a, n);
		pq_assembler_build(a, rows);
		/* values are valid until the next batch: render them now */
		part = render_rows(rows, n);
		if (done > 0)
			pq_buffer_append(&out, " | ", 3);
		pq_buffer_append(&out, part, strlen(part));
		done += n;
	}
	pq_buffer_append_byte(&out, '\0');
	return (char *) out.data;
}

/*
 * The Document schema of the Dremel paper (Melnik et al., 2010, figure 2)
 * and its two records r1 and r2; the levels are those of figure 3.
 */
static PqSchemaNode *doc_links;
static PqSchemaNode *doc_name;

static void
document_schema(void)
{
	PqSchemaNode *f[3];

	f[0] = leaf("DocId", PQ_REQUIRED, PQ_INT64);
	f[1] = doc_links = group2("Links", PQ_OPTIONAL, PQ_LT_NONE, -1,
							  leaf("Backward", PQ_REPEATED, PQ_INT64),
							  leaf("Forward", PQ_REPEATED, PQ_INT64));
	f[2] = doc_name = group2("Name", PQ_REPEATED, PQ_LT_NONE, -1,
							 group2("Language", PQ_REPEATED, PQ_LT_NONE, -1,
									leaf("Code", PQ_REQUIRED, PQ_BYTE_ARRAY),
									leaf("Country", PQ_OPTIONAL, PQ_BYTE_ARRAY)),
							 leaf("Url", PQ_OPTIONAL, PQ_BYTE_ARRAY));
	root_of(3, f);
}

static const int16 back_r[] = {0, 0, 1}, back_d[] = {1, 2, 2};
static const int64 back_v[] = {10, 30};
static const int16 fwd_r[] = {0, 1, 1, 0}, fwd_d[] = {2, 2, 2, 2};
static const int64 fwd_v[] = {20, 40, 60, 80};
static const int16 code_r[] = {0, 2, 1, 1, 0}, code_d[] = {2, 2, 1, 2, 1};
static const char *const code_v[] = {"en-us", "en", "en-gb", NULL};
static const int16 country_r[] = {0, 2, 1, 1, 0}, country_d[] = {3, 2, 1, 3, 1};
static const char *const country_v[] = {"us", "gb", NULL};
static const int16 url_r[] = {0, 1, 1, 0}, url_d[] = {2, 2, 1, 2};
static const char *const url_v[] = {"http://A", "http://B", "http://C", NULL};

#define R1_LINKS "{[],[20,40,60]}"
#define R2_LINKS "{[10,30],[80]}"
#define R1_NAME "[{[{'en-us','us'},{'en',null}],'http://A'},{[],'http://B'},{[{'en-gb','gb'}],null}]"
#define R2_NAME "[{[],'http://C'}]"

static void
test_dremel_document(void)
{
	TestLeaf	links[2] = {
		{.n = 3,.rep = back_r,.def = back_d,.i64 = back_v},
		{.n = 4,.rep = fwd_r,.def = fwd_d,.i64 = fwd_v}};
	TestLeaf	name[3] = {
		{.n = 5,.rep = code_r,.def = code_d,.str = code_v},
		{.n = 5,.rep = country_r,.def = country_d,.str = country_v},
		{.n = 4,.rep = url_r,.def = url_d,.str = url_v}};
	PqSchemaNode *ll[2];
	PqSchemaNode *nl[3];
	const char *want_links = R1_LINKS " | " R2_LINKS;
	const char *want_name = R1_NAME " | " R2_NAME;
	int			seg;
	int			batch;

	document_schema();
	ll[0] = doc_links->children[0];
	ll[1] = doc_links->children[1];
	nl[0] = doc_name->children[0]->children[0];
	nl[1] = doc_name->children[0]->children[1];
	nl[2] = doc_name->children[1];
	CHECK_EQ_INT(nl[1]->max_def, 3);
	CHECK_EQ_INT(nl[1]->max_rep, 2);

	/* every segment size and batch size gives the same records */
	for (seg = 1; seg <= 5; seg++)
		for (batch = 1; batch <= 2; batch++)
		{
			char	   *got = assemble(doc_links, ll, links, 2, 2, batch, seg);

			if (strcmp(got, want_links) != 0)
			{
				fprintf(stderr, "Links (segments of %d, batches of %d): %s\n",
						seg, batch, got);
				CHECK(false);
			}
			got = assemble(doc_name, nl, name, 3, 2, batch, seg);
			if (strcmp(got, want_name) != 0)
			{
				fprintf(stderr, "Name (segments of %d, batches of %d): %s\n",
						seg, batch, got);
				CHECK(false);
			}
		}

	/* projection: Url alone; Code alone (Country, Url not read) */
	CHECK(strcmp(assemble(doc_name, &nl[2], &name[2], 1, 2, 2, 3),
				 "[{null,'http://A'},{null,'http://B'},{null,null}] | [{null,'http://C'}]") == 0);
	CHECK(strcmp(assemble(doc_name, &nl[0], &name[0], 1, 2, 1, 2),
				 "[{[{'en-us',null},{'en',null}],null},{[],null},{[{'en-gb',null}],null}] | [{[],null}]") == 0);
}

/* NULL list, empty list, list of NULLs, list with values, dictionary-encoded. */
static void
test_null_empty_lists(void)
{
	PqSchemaNode *el = leaf("element", PQ_OPTIONAL, PQ_BYTE_ARRAY);
	PqSchemaNode *l = group1("l", PQ_OPTIONAL, PQ_LT_LIST, -1,
							 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, el));
	static const int16 r[] = {0, 0, 0, 0, 1, 1, 0, 1};
	static const int16 d[] = {0, 1, 2, 3, 2, 3, 3, 3};
	static const char *const dict[] = {"a", "b", NULL};
	TestLeaf	tl = {.n = 8,.rep = r,.def = d,.str = dict,.dict = true};
	const char *want = "null | {[]} | {[{null}]} | {[{'a'},{null},{'b'}]} | {[{'a'},{'b'}]}";
	char	   *got;
	int			seg;

	root1(l);
	for (seg = 1; seg <= 8; seg++)
	{
		got = assemble(l, &el, &tl, 1, 5, 2, seg);
		if (strcmp(got, want) != 0)
		{
			fprintf(stderr, "segments of %d: %s\n", seg, got);
			CHECK(false);
		}
	}
}

/* A repeated primitive at the top level; skipping rows. */
static void
test_top_level_repeated_and_skip(void)
{
	PqSchemaNode *f = leaf("Int32_list", PQ_REPEATED, PQ_INT64);
	PqSchemaNode *s = group1("s", PQ_OPTIONAL, PQ_LT_NONE, -1,
							 leaf("x", PQ_OPTIONAL, PQ_INT64));
	PqSchemaNode *fs[2] = {f, s};
	static const int16 r[] = {0, 1, 1, 0, 0, 0, 1};
	static const int16 d[] = {1, 1, 1, 0, 1, 1, 1};
	static const int64 v[] = {1, 2, 3, 4, 5, 6};
	static const int16 xd[] = {2, 1, 0, 2};
	static const int64 xv[] = {7, 8};
	TestLeaf	tl = {.n = 7,.rep = r,.def = d,.i64 = v};
	TestLeaf	xl = {.n = 4,.def = xd,.i64 = xv};
	TestSource	ts = {.leaves = &tl,.seg_max = 2};
	PqLeafSource src = {ts_next, ts_skip, ts_position, &ts};
	PqAssembler *a;
	PqValue		rows[2];
	const PqLeafBatch *b;

	root_of(2, fs);
	CHECK(strcmp(assemble(f, &f, &tl, 1, 4, 3, 2),
				 "[1,2,3] | [] | [4] | [5,6]") == 0);
	CHECK(strcmp(assemble(s, &s->children[0], &xl, 1, 4, 4, 3),
				 "{7} | {null} | null | {8}") == 0);

	/* skip one row, read one, skip one, read one */
	tl.pos = tl.vpos = 0;
	max_def_of[0] = 1;
	a = pq_assembler_create(f, (const PqSchemaNode *const *) &f, 1, src);
	pq_assembler_reset(a);
	pq_assembler_skip_to(a, 1);
	b = pq_assembler_next(a, 1);
	CHECK_EQ_INT(b[0].n, 1);
	CHECK_EQ_INT(b[0].def[0], 0);
	pq_assembler_build(a, rows);
	CHECK(strcmp(render_rows(rows, 1), "[]") == 0);
	pq_assembler_skip_to(a, 3);
	CHECK_EQ_INT(pq_assembler_row(a), 3);
	pq_assembler_next(a, 1);
	pq_assembler_build(a, rows);
	CHECK(strcmp(render_rows(rows, 1), "[5,6]") == 0);
	CHECK_ERROR(pq_assembler_skip_to(a, 2), ERRCODE_INTERNAL_ERROR);

	/*
	 * Leaves with max_rep 0 skip through the source without decoding, from
	 * wherever it is: a reader of selected pages starts at the first one.
	 */
	xl.pos = xl.vpos = 0;
	ts.leaves = &xl;
	ts.skipped = 0;
	ts.seg_max = 1;
	max_def_of[0] = 2;
	a = pq_assembler_create(s, (const PqSchemaNode *const *) &s->children[0],
							1, src);
	pq_assembler_reset(a);
	ts_skip(&ts, 0, 1);			/* the source starts at row 1 */
	pq_assembler_skip_to(a, 3);
	CHECK_EQ_INT(ts.skipped, 3);
	pq_assembler_next(a, 1);
	pq_assembler_build(a, rows);
	CHECK(strcmp(render_rows(rows, 1), "{8}") == 0);

	/* inside the current segment */
	xl.pos = xl.vpos = 0;
	ts.seg_max = 4;
	pq_assembler_reset(a);
	pq_assembler_next(a, 1);
	pq_assembler_build(a, rows);
	CHECK(strcmp(render_rows(rows, 1), "{7}") == 0);
	pq_assembler_skip_to(a, 3);
	pq_assembler_next(a, 1);
	pq_assembler_build(a, rows);
	CHECK(strcmp(render_rows(rows, 1), "{8}") == 0);
}

static void
test_bad_levels(void)
{
	PqSchemaNode *el = leaf("element", PQ_OPTIONAL, PQ_INT64);
	PqSchemaNode *l = group1("l", PQ_OPTIONAL, PQ_LT_LIST, -1,
							 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, el));
	static const int16 r_ok[] = {0, 1, 0};
	static const int16 d_big[] = {3, 4, 3};
	static const int16 r_big[] = {0, 2, 0};
	static const int16 r_first[] = {1, 0, 0};
	static const int16 d_ok[] = {3, 3, 3};
	static const int16 d_norep[] = {3, 1, 3};
	static const int64 v[] = {1, 2, 3};
	TestLeaf	tl = {.n = 3,.rep = r_ok,.def = d_big,.i64 = v};

	root1(l);
	CHECK_ERROR(assemble(l, &el, &tl, 1, 2, 2, 3), ERRCODE_DATA_CORRUPTED);
	tl.def = d_ok;
	tl.rep = r_big;
	CHECK_ERROR(assemble(l, &el, &tl, 1, 2, 2, 3), ERRCODE_DATA_CORRUPTED);
	tl.rep = r_first;
	CHECK_ERROR(assemble(l, &el, &tl, 1, 2, 2, 3), ERRCODE_DATA_CORRUPTED);
	/* ... also when the first rows are skipped */
	{
		TestSource	ts = {.leaves = &tl,.seg_max = 3};
		PqLeafSource src = {ts_next, ts_skip, ts_position, &ts};
		PqAssembler *a;

		tl.pos = tl.vpos = 0;
		max_def_of[0] = el->max_def;
		a = pq_assembler_create(l, (const PqSchemaNode *const *) &el, 1, src);
		pq_assembler_reset(a);
		CHECK_ERROR(pq_assembler_skip_to(a, 1), ERRCODE_DATA_CORRUPTED);
	}
	/* an entry that repeats the list below its definition level adds nothing */
	tl.rep = r_ok;
	tl.def = d_norep;
	CHECK(strcmp(assemble(l, &el, &tl, 1, 2, 2, 1), "{[{1}]} | {[{2}]}") == 0);
	/* the column ends before the row group does */
	tl.def = d_ok;
	CHECK_ERROR(assemble(l, &el, &tl, 1, 3, 3, 2), ERRCODE_DATA_CORRUPTED);
	CHECK(strcmp(assemble(l, &el, &tl, 1, 2, 3, 2), "{[{1},{2}]} | {[{3}]}") == 0);
}

/*
 * DuckDB's fixed-size arrays: a NULL INTEGER[3] is (rep 0, def 0) and then
 * (rep 1, def 0) twice, entries that continue a NULL list.  They add
 * nothing, at any depth, wherever segments (pages) cut them off from the
 * entry that began the row, and when rows are skipped.
 */
static void
test_fixed_size_arrays(void)
{
	PqSchemaNode *el = leaf("element", PQ_OPTIONAL, PQ_INT64);
	PqSchemaNode *l = group1("a", PQ_OPTIONAL, PQ_LT_LIST, -1,
							 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, el));
	/* [1, NULL, 10], NULL, [3, NULL, 30], NULL */
	static const int16 r[] = {0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1};
	static const int16 d[] = {3, 2, 3, 0, 0, 0, 3, 2, 3, 0, 0, 0};
	static const int64 v[] = {1, 10, 3, 30};
	TestLeaf	tl = {.n = 12,.rep = r,.def = d,.i64 = v};
	const char *want = "{[{1},{null},{10}]} | null | {[{3},{null},{30}]} | null";

	/* INTEGER[2][3] with a NULL inner array: [[1, 2], NULL, [NULL, 4]], NULL */
	PqSchemaNode *iel = leaf("element", PQ_OPTIONAL, PQ_INT64);
	PqSchemaNode *inner = group1("element", PQ_OPTIONAL, PQ_LT_LIST, -1,
								 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, iel));
	PqSchemaNode *ll = group1("aa", PQ_OPTIONAL, PQ_LT_LIST, -1,
							  group1("list", PQ_REPEATED, PQ_LT_NONE, -1, inner));
	static const int16 llr[] = {0, 2, 1, 2, 1, 2, 0, 2, 1, 2, 1, 2};
	static const int16 lld[] = {5, 5, 2, 2, 4, 5, 0, 0, 0, 0, 0, 0};
	static const int64 llv[] = {1, 2, 4};
	TestLeaf	ltl = {.n = 12,.rep = llr,.def = lld,.i64 = llv};
	const char *llwant = "{[{{[{1},{2}]}},{null},{{[{null},{4}]}}]} | null";

	/* a struct of two fixed arrays, each leaf with its own NULL slots */
	PqSchemaNode *xe = leaf("element", PQ_OPTIONAL, PQ_INT64);
	PqSchemaNode *ye = leaf("element", PQ_OPTIONAL, PQ_INT64);
	PqSchemaNode *st = group2("s", PQ_OPTIONAL, PQ_LT_NONE, -1,
							  group1("x", PQ_OPTIONAL, PQ_LT_LIST, -1,
									 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, xe)),
							  group1("y", PQ_OPTIONAL, PQ_LT_LIST, -1,
									 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, ye)));
	PqSchemaNode *sl[2] = {xe, ye};
	static const int16 xr[] = {0, 1, 0, 1, 0, 1};
	static const int16 xd[] = {4, 4, 1, 1, 0, 0};
	static const int64 xv[] = {5, 6};
	static const int16 yr[] = {0, 1, 0, 1, 0, 1};
	static const int16 yd[] = {1, 1, 4, 3, 0, 0};
	static const int64 yv[] = {7};
	TestLeaf	stl[2] = {
		{.n = 6,.rep = xr,.def = xd,.i64 = xv},
		{.n = 6,.rep = yr,.def = yd,.i64 = yv}};
	const char *swant = "{{[{5},{6}]},null} | {null,{[{7},{null}]}} | null";
	int			seg;
	int			batch;

	root1(l);
	for (seg = 1; seg <= 12; seg++)
		for (batch = 1; batch <= 4; batch++)
		{
			char	   *got = assemble(l, &el, &tl, 1, 4, batch, seg);

			if (strcmp(got, want) != 0)
			{
				fprintf(stderr, "segments of %d, batches of %d: %s\n", seg, batch, got);
				CHECK(false);
			}
		}
	root1(ll);
	for (seg = 1; seg <= 12; seg++)
	{
		char	   *got = assemble(ll, &iel, &ltl, 1, 2, 1, seg);

		if (strcmp(got, llwant) != 0)
		{
			fprintf(stderr, "segments of %d: %s\n", seg, got);
			CHECK(false);
		}
	}
	root1(st);
	for (seg = 1; seg <= 6; seg++)
	{
		char	   *got = assemble(st, sl, stl, 2, 3, 2, seg);

		if (strcmp(got, swant) != 0)
		{
			fprintf(stderr, "segments of %d: %s\n", seg, got);
			CHECK(false);
		}
	}

	/* skipping over NULL arrays and their slots */
	{
		TestSource	ts = {.leaves = &tl,.seg_max = 2};
		PqLeafSource src = {ts_next, ts_skip, ts_position, &ts};
		PqAssembler *a;
		PqValue		rows[1];
		const PqLeafBatch *b;

		tl.pos = tl.vpos = 0;
		max_def_of[0] = el->max_def;
		a = pq_assembler_create(l, (const PqSchemaNode *const *) &el, 1, src);
		pq_assembler_reset(a);
		pq_assembler_skip_to(a, 2);
		b = pq_assembler_next(a, 1);
		/* the batch holds the row's three entries and two values */
		CHECK_EQ_INT(b[0].n, 3);
		CHECK_EQ_INT(b[0].nvalues, 2);
		pq_assembler_build(a, rows);
		CHECK(strcmp(render_rows(rows, 1), "{[{3},{null},{30}]}") == 0);
		b = pq_assembler_next(a, 1);
		/* a NULL array is one entry once its slots are dropped */
		CHECK_EQ_INT(b[0].n, 1);
		CHECK_EQ_INT(b[0].nvalues, 0);
	}
}

/* Leaves of one field that disagree about the shape of a row. */
static void
test_leaves_disagree(void)
{
	PqSchemaNode *nl[2];
	static const int16 c_r[] = {0, 2}, c_d[] = {2, 2};
	static const char *const c_v[] = {"a", "b", NULL};
	static const int16 k_r[] = {0, 1}, k_d[] = {3, 3};
	static const char *const k_v[] = {"x", "y", NULL};
	static const int16 k2_r[] = {0, 2}, k2_d[] = {3, 0};
	static const int16 k3_r[] = {0, 2, 2}, k3_d[] = {3, 3, 3};
	static const char *const k3_v[] = {"x", "y", "z", NULL};
	TestLeaf	tl[2] = {
		{.n = 2,.rep = c_r,.def = c_d,.str = c_v},
		{.n = 2,.rep = k_r,.def = k_d,.str = k_v}};

	document_schema();
	nl[0] = doc_name->children[0]->children[0];
	nl[1] = doc_name->children[0]->children[1];
	/* Country repeats Name where Code repeats Language */
	CHECK_ERROR(assemble(doc_name, nl, tl, 2, 1, 1, 2), ERRCODE_DATA_CORRUPTED);
	/* Country says Name is undefined where Code has a value */
	tl[1].rep = k2_r;
	tl[1].def = k2_d;
	CHECK_ERROR(assemble(doc_name, nl, tl, 2, 1, 1, 2), ERRCODE_DATA_CORRUPTED);
	/* Country has an extra entry in the row */
	tl[1].n = 3;
	tl[1].rep = k3_r;
	tl[1].def = k3_d;
	tl[1].str = k3_v;
	CHECK_ERROR(assemble(doc_name, nl, tl, 2, 1, 1, 2), ERRCODE_DATA_CORRUPTED);
	/* ... which is fine when only Country is read */
	CHECK(strcmp(assemble(doc_name, &nl[1], &tl[1], 1, 1, 1, 2),
				 "[{[{null,'x'},{null,'y'},{null,'z'}],null}]") == 0);
}

/*
 * One row whose list of null elements never ends: RLE levels make such a
 * list a few bytes long (issue 38).  Gathering it must stop at the entry
 * limit with program_limit_exceeded, not grow until memory runs out or an
 * int count wraps.
 */
typedef struct EndlessList
{
	int64		given;
	int64		total;
	int16		rep[PQ_SEGMENT_CAP];
	int16		def[PQ_SEGMENT_CAP];
	/* with a dictionary: every entry is a value, dictionary id 0 */
	const PqDictionary *dict;
	uint32		indices[PQ_SEGMENT_CAP];
} EndlessList;

static int
endless_next(void *arg, int leaf, int max, PqSegment *seg)
{
	EndlessList *el = arg;
	int			n = (int) Min((int64) max, el->total - el->given);

	memset(seg, 0, sizeof(PqSegment));
	if (n <= 0)
		return 0;
	el->rep[0] = el->given == 0 ? 0 : 1;
	seg->n = n;
	seg->rep = el->rep;
	seg->def = el->def;
	if (el->dict)
	{
		seg->nvalues = n;
		seg->indices = el->indices;
		seg->dict = el->dict;
	}
	el->given += n;
	return n;
}

static int64
endless_position(void *arg, int leaf)
{
	return ((EndlessList *) arg)->given;
}

static void
endless_skip(void *arg, int leaf, int64 n)
{
	((EndlessList *) arg)->given += n;
}

static void
test_list_entry_limit(void)
{
	PqSchemaNode *el = leaf("element", PQ_OPTIONAL, PQ_INT32);
	PqSchemaNode *l = group1("my_list", PQ_OPTIONAL, PQ_LT_LIST, -1,
							 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, el));
	EndlessList *src = palloc0(sizeof(EndlessList));
	PqLeafSource ls = {endless_next, endless_skip, endless_position, src};
	PqAssembler *a;
	int			limit = (int) (MaxAllocSize / sizeof(PqValue));
	int			i;

	root1(l);
	/* entries after the first repeat at level 1; each is a null element */
	for (i = 0; i < PQ_SEGMENT_CAP; i++)
	{
		src->rep[i] = 1;
		src->def[i] = 2;
	}

	/* a list of exactly the limit is gathered */
	src->total = limit;
	a = pq_assembler_create(l, (const PqSchemaNode *const *) &el, 1, ls);
	pq_assembler_reset(a);
	CHECK_EQ_INT(pq_assembler_next(a, 1)[0].n, limit);

	/* one entry more is refused */
	src->given = 0;
	src->total = (int64) limit + 1;
	a = pq_assembler_create(l, (const PqSchemaNode *const *) &el, 1, ls);
	pq_assembler_reset(a);
	CHECK_ERROR(pq_assembler_next(a, 1), ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	CHECK(strstr(shim_last_message, "level entries") != NULL);
}

/*
 * One dictionary entry of 1 MB named by every element of a list: the
 * index bytes cost nothing, but each element is converted on its own.
 * 1023 of them fit the 1 GB a leaf's values may take in a batch; 1024 do
 * not.
 */
static void
test_list_dictionary_bytes(void)
{
	PqSchemaNode *el = leaf("element", PQ_OPTIONAL, PQ_BYTE_ARRAY);
	PqSchemaNode *l = group1("my_list", PQ_OPTIONAL, PQ_LT_LIST, -1,
							 group1("list", PQ_REPEATED, PQ_LT_NONE, -1, el));
	EndlessList *src = palloc0(sizeof(EndlessList));
	PqLeafSource ls = {endless_next, endless_skip, endless_position, src};
	PqDictionary dict;
	PqByteArray entry;
	PqAssembler *a;
	const PqLeafBatch *lb;
	int			i;

	root1(l);
	entry.len = 1024 * 1024;
	entry.ptr = palloc0(entry.len);
	dict.id = 1;
	dict.count = 1;
	dict.fixed = NULL;
	dict.ba = &entry;
	src->dict = &dict;
	for (i = 0; i < PQ_SEGMENT_CAP; i++)
	{
		src->rep[i] = 1;
		src->def[i] = 3;
		src->indices[i] = 0;
	}

	src->total = 1023;
	a = pq_assembler_create(l, (const PqSchemaNode *const *) &el, 1, ls);
	pq_assembler_reset(a);
	lb = pq_assembler_next(a, 1);
	CHECK_EQ_INT(lb[0].nvalues, 1023);
	CHECK(lb[0].ba[1022].ptr == entry.ptr);

	src->given = 0;
	src->total = 1024;
	a = pq_assembler_create(l, (const PqSchemaNode *const *) &el, 1, ls);
	pq_assembler_reset(a);
	CHECK_ERROR(pq_assembler_next(a, 1), ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	CHECK(strstr(shim_last_message, "bytes of values") != NULL);
}

void
suite_nested(void)
{
	ut_run("nested: 3-level LIST", test_shape_three_level_list);
	ut_run("nested: LIST backward-compatibility rules", test_shape_list_rules);
	ut_run("nested: unannotated repeated fields", test_shape_unannotated);
	ut_run("nested: MAP, MAP_KEY_VALUE, misnamed, no value", test_shape_maps);
	ut_run("nested: Dremel Document records", test_dremel_document);
	ut_run("nested: NULL, empty, NULL-element lists", test_null_empty_lists);
	ut_run("nested: top-level repeated field, skip", test_top_level_repeated_and_skip);
	ut_run("nested: invalid levels", test_bad_levels);
	ut_run("nested: DuckDB fixed-size arrays (NULL slots)", test_fixed_size_arrays);
	ut_run("nested: leaves that disagree", test_leaves_disagree);
	ut_run("nested: list entries of a batch are limited", test_list_entry_limit);
	ut_run("nested: dictionary bytes of a batch are limited", test_list_dictionary_bytes);
}
