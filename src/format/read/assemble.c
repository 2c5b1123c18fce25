/*-------------------------------------------------------------------------
 *
 * assemble.c
 *		Record assembly from repetition and definition levels.
 *
 * Gathering (pq_assembler_next) cuts each leaf's entry stream at row
 * starts (repetition level 0) and copies the batch's levels and values
 * into the assembler's buffers: the column reader reuses its segment
 * arrays and frees a page when it loads the next one, and a batch may
 * span pages.  Byte arrays are copied into blocks that stay put until the
 * next batch; dictionary values are not copied (the dictionary lives as
 * long as the row group, and a batch never leaves its row group).  The
 * segment that holds the next batch's first entries stays with the leaf
 * until it is used up.
 *
 * Building (pq_assembler_build) walks the projected part of the schema
 * once per row, consuming the leaves' entries in lock step: a node is
 * undefined (NULL, or an empty list for a repeated node) when the entry of
 * the first leaf below it has a definition level under the node's; a list
 * goes on while that leaf's next entry repeats at the list's level.  Every
 * entry consumed is checked against what the others said: its definition
 * level (an undefined node means exactly the level of its parent) and its
 * repetition level (each leaf's first entry after a new row or a new list
 * occurrence must repeat at that level).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/read/assemble.h"
#include "utils/memutils.h"

#define PQ_BYTE_BLOCK (64 * 1024)
#define PQ_ARENA_VALUES 1024

/*
 * Level entries of one leaf in one batch.  RLE levels make a list of any
 * length a few bytes long, so the count is bounded here: at most as many
 * as PostgreSQL can allocate value trees for in one chunk (33 million),
 * which also keeps every count and index an int.
 */
#define PQ_MAX_BATCH_ENTRIES ((int) (MaxAllocSize / sizeof(PqValue)))

/*
 * Bytes of one leaf's byte-array values in one batch.  A dictionary value
 * is not copied here, but each row that names it is converted on its own:
 * a few index bytes can name a large entry thousands of times.
 */
#define PQ_MAX_BATCH_BYTES ((size_t) MaxAllocSize)

/* A block of copied byte-array values; blocks never move. */
typedef struct ByteBlock
{
	struct ByteBlock *next;
	size_t		used;
	size_t		cap;
	uint8		data[FLEXIBLE_ARRAY_MEMBER];
} ByteBlock;

typedef struct LeafStream
{
	const PqSchemaNode *leaf;
	int			index;			/* position in the assembler's leaves */
	int			width;			/* pq_fixed_width(), 0 for BYTE_ARRAY */
	int16		max_def;
	int16		max_rep;
	/* [r]: definition level of the leaf's repeated ancestor at level r */
	int16	   *rep_def;

	/* the current segment, its first entry, the next entry and value */
	PqSegment	seg;
	int64		seg_start;
	int			pos;
	int			vpos;

	/* the gathered batch */
	int			cap;			/* entries */
	int16	   *rep;
	int16	   *def;
	int			vcap;			/* values */
	uint8	   *fixed;
	PqByteArray *ba;
	ByteBlock  *blocks;			/* copies of this batch's byte arrays */
	size_t		batch_bytes;	/* their lengths, dictionary values too */
	PqLeafBatch batch;

	/* building: next entry and value of the batch, expected repetition */
	int			bpos;
	int			bvpos;
	int			expect_rep;
} LeafStream;

/* A schema node on the path to a projected leaf. */
typedef struct AsmNode
{
	const PqSchemaNode *node;
	bool		repeated;
	int16		max_def;
	int16		max_rep;
	int			lo;				/* leaf streams [lo, hi) are below */
	int			hi;
	struct AsmNode **child;		/* per schema child; NULL: not projected */
	PqValue    *scratch;		/* repeated nodes: occurrences of a list */
	int			scratch_cap;
} AsmNode;

struct PqAssembler
{
	MemoryContext cxt;			/* buffers */
	const PqSchemaNode *field;
	PqLeafSource src;
	int			nleaves;
	LeafStream *leaves;
	PqLeafBatch *batches;
	AsmNode    *root;
	int64		row;			/* row of the row group the next batch is at */
	int			nrows;			/* rows of the gathered batch */

	/* arena for value trees, in the caller's context during a build */
	PqValue    *arena;
	int			arena_left;
};

/* ---------------------------------------------------------------- setup */

static AsmNode *
plan_node(PqAssembler *a, const PqSchemaNode *n, int lo, int hi)
{
	AsmNode    *an = palloc0(sizeof(AsmNode));
	int			i;

	an->node = n;
	an->repeated = (n->repetition == PQ_REPEATED);
	an->max_def = n->max_def;
	an->max_rep = n->max_rep;
	an->lo = lo;
	an->hi = hi;
	if (n->is_leaf)
		return an;
	an->child = palloc0(sizeof(AsmNode *) * n->n_children);
	for (i = 0; i < n->n_children; i++)
	{
		const PqSchemaNode *c = n->children[i];
		int			clo = lo;
		int			chi;

		while (clo < hi && a->leaves[clo].leaf->first_leaf < c->first_leaf)
			clo++;
		chi = clo;
		while (chi < hi &&
			   a->leaves[chi].leaf->first_leaf < c->first_leaf + c->n_leaves)
			chi++;
		if (chi > clo)
			an->child[i] = plan_node(a, c, clo, chi);
	}
	return an;
}

PqAssembler *
pq_assembler_create(const PqSchemaNode *field,
					const PqSchemaNode *const *leaves, int nleaves,
					PqLeafSource src)
{
	PqAssembler *a = palloc0(sizeof(PqAssembler));
	const PqSchemaNode *n;
	int			i;

	if (nleaves < 1)
		elog(ERROR, "record assembly of \"%s\" needs at least one leaf",
			 field->name);
	a->cxt = CurrentMemoryContext;
	a->field = field;
	a->src = src;
	a->nleaves = nleaves;
	a->leaves = palloc0(sizeof(LeafStream) * nleaves);
	a->batches = palloc0(sizeof(PqLeafBatch) * nleaves);
	for (i = 0; i < nleaves; i++)
	{
		LeafStream *s = &a->leaves[i];
		const PqSchemaNode *leaf = leaves[i];

		if (!leaf->is_leaf ||
			leaf->first_leaf < field->first_leaf ||
			leaf->first_leaf >= field->first_leaf + field->n_leaves ||
			(i > 0 && leaf->first_leaf <= leaves[i - 1]->first_leaf))
			elog(ERROR, "leaves of \"%s\" must be distinct leaves below it, in column order",
				 field->name);
		s->leaf = leaf;
		s->index = i;
		s->width = pq_fixed_width(leaf->physical_type, leaf->type_length);
		s->max_def = leaf->max_def;
		s->max_rep = leaf->max_rep;
		s->rep_def = palloc0(sizeof(int16) * (s->max_rep + 1));
		for (n = leaf; n != NULL && n != field->parent; n = n->parent)
			if (n->repetition == PQ_REPEATED &&
				n->max_rep >= 1 && n->max_rep <= s->max_rep)
				s->rep_def[n->max_rep] = n->max_def;
	}
	a->root = plan_node(a, field, 0, nleaves);
	return a;
}

void
pq_assembler_reset(PqAssembler *a)
{
	int			i;

	for (i = 0; i < a->nleaves; i++)
	{
		LeafStream *s = &a->leaves[i];

		memset(&s->seg, 0, sizeof(s->seg));
		s->pos = s->vpos = 0;
	}
	a->row = 0;
	a->nrows = 0;
}

int64
pq_assembler_row(const PqAssembler *a)
{
	return a->row;
}

/* ------------------------------------------------------------ gathering */

/* Load the leaf's next segment; false at the end of its chunk. */
static bool
load_segment(PqAssembler *a, LeafStream *s)
{
	int			n;

	s->seg_start = a->src.position(a->src.arg, s->index);
	n = a->src.next(a->src.arg, s->index, PQ_SEGMENT_CAP, &s->seg);
	s->pos = 0;
	s->vpos = 0;
	if (n <= 0)
	{
		memset(&s->seg, 0, sizeof(s->seg));
		return false;
	}
	if (s->seg.nvalues < 0 || s->seg.nvalues > n ||
		(s->max_rep > 0 && s->seg.rep == NULL) ||
		(s->max_def > 0 && s->seg.def == NULL && s->seg.nvalues != n) ||
		(s->seg.nvalues > 0 && s->seg.indices == NULL && s->seg.fixed == NULL &&
		 s->seg.ba == NULL))
		elog(ERROR, "inconsistent segment of column \"%s\"", s->leaf->name);
	return true;
}

static void
ensure_entries(PqAssembler *a, LeafStream *s, int need)
{
	MemoryContext old;
	int			cap = Max(s->cap, 256);

	if (need <= s->cap)
		return;
	while (cap < need)
		cap *= 2;
	old = MemoryContextSwitchTo(a->cxt);
	if (s->max_rep > 0)
		s->rep = s->rep ? repalloc_huge(s->rep, sizeof(int16) * cap) :
			palloc_extended(sizeof(int16) * cap, MCXT_ALLOC_HUGE);
	if (s->max_def > 0)
		s->def = s->def ? repalloc_huge(s->def, sizeof(int16) * cap) :
			palloc_extended(sizeof(int16) * cap, MCXT_ALLOC_HUGE);
	MemoryContextSwitchTo(old);
	s->cap = cap;
}

static void
ensure_values(PqAssembler *a, LeafStream *s, int need)
{
	MemoryContext old;
	int			cap = Max(s->vcap, Min(256, pq_segment_cap(s->width)));

	if (need <= s->vcap)
		return;
	while (cap < need)
		cap *= 2;
	old = MemoryContextSwitchTo(a->cxt);
	if (s->width > 0)
		s->fixed = s->fixed ? repalloc_huge(s->fixed, (size_t) s->width * cap) :
			palloc_extended((size_t) s->width * cap, MCXT_ALLOC_HUGE);
	else
		s->ba = s->ba ? repalloc_huge(s->ba, sizeof(PqByteArray) * cap) :
			palloc_extended(sizeof(PqByteArray) * cap, MCXT_ALLOC_HUGE);
	MemoryContextSwitchTo(old);
	s->vcap = cap;
}

/* Room for len bytes that stay where they are until the next batch. */
static uint8 *
byte_space(PqAssembler *a, LeafStream *s, size_t len)
{
	ByteBlock  *b = s->blocks;
	uint8	   *p;

	if (b == NULL || b->cap - b->used < len)
	{
		size_t		cap = Max((size_t) PQ_BYTE_BLOCK, len);
		MemoryContext old = MemoryContextSwitchTo(a->cxt);

		b = palloc_extended(offsetof(ByteBlock, data) + cap, MCXT_ALLOC_HUGE);
		MemoryContextSwitchTo(old);
		b->cap = cap;
		b->used = 0;
		b->next = s->blocks;
		s->blocks = b;
	}
	p = b->data + b->used;
	b->used += len;
	return p;
}

/* Free the byte copies of the previous batch, keeping one block. */
static void
reset_bytes(LeafStream *s)
{
	ByteBlock  *b = s->blocks;

	if (b == NULL)
		return;
	while (b->next)
	{
		ByteBlock  *next = b->next;

		pfree(b);
		b = next;
	}
	if (b->cap > PQ_BYTE_BLOCK)
	{
		pfree(b);
		s->blocks = NULL;
		return;
	}
	b->used = 0;
	s->blocks = b;
}

static void batch_too_large(PqAssembler *a, LeafStream *s) pg_attribute_noreturn();

static void
batch_too_large(PqAssembler *a, LeafStream *s)
{
	pq_too_large("column \"%s\" has more than %zu bytes of values in a batch of rows starting at row " INT64_FORMAT,
				 s->leaf->name, PQ_MAX_BATCH_BYTES, a->row);
}

/* Append the values of the segment's next k values to the batch. */
static void
copy_values(PqAssembler *a, LeafStream *s, int k)
{
	const PqSegment *seg = &s->seg;
	int			base = s->batch.nvalues;
	int			i;

	if (k == 0)
		return;
	if (s->vpos + k > seg->nvalues)
		pq_corrupt("column \"%s\" has fewer values than its definition levels say",
				   s->leaf->name);
	ensure_values(a, s, base + k);
	if (seg->indices)
	{
		const PqDictionary *dict = seg->dict;

		for (i = 0; i < k; i++)
		{
			uint32		id = seg->indices[s->vpos + i];

			if (id >= (uint32) dict->count)
				pq_corrupt("dictionary id %u of column \"%s\" is out of range (%d entries)",
						   id, s->leaf->name, dict->count);
			if (s->width > 0)
				memcpy(s->fixed + (size_t) (base + i) * s->width,
					   (const uint8 *) dict->fixed + (size_t) id * s->width,
					   s->width);
			else
			{
				s->ba[base + i] = dict->ba[id];
				s->batch_bytes += dict->ba[id].len;
			}
		}
		if (s->batch_bytes > PQ_MAX_BATCH_BYTES)
			batch_too_large(a, s);
	}
	else if (s->width > 0)
		memcpy(s->fixed + (size_t) base * s->width,
			   (const uint8 *) seg->fixed + (size_t) s->vpos * s->width,
			   (size_t) k * s->width);
	else
	{
		for (i = 0; i < k; i++)
		{
			const PqByteArray *v = &seg->ba[s->vpos + i];
			uint8	   *p;

			s->batch_bytes += v->len;
			if (s->batch_bytes > PQ_MAX_BATCH_BYTES)
				batch_too_large(a, s);
			p = byte_space(a, s, v->len);

			if (v->len > 0)
				memcpy(p, v->ptr, v->len);
			s->ba[base + i].ptr = p;
			s->ba[base + i].len = v->len;
		}
	}
	s->vpos += k;
	s->batch.nvalues += k;
}

/*
 * Append the segment's entries [pos, end) with their values to the batch,
 * checking each level against the leaf's maxima.
 *
 * An entry that repeats at level r but is defined below the repeated field
 * of level r adds no occurrence: it continues a list that is NULL or empty.
 * DuckDB writes such entries for fixed-size arrays (a NULL INTEGER[3] is
 * (rep 0, def 0) then (rep 1, def 0) twice), and DuckDB and arrow-rs read
 * them as nothing.  They are dropped here, before anything counts rows,
 * values or occurrences, so every consumer of the batch sees the list as
 * the entry before them left it.  They carry no value (their definition
 * level is below the leaf's), so the values stay aligned.
 */
static void
copy_entries(PqAssembler *a, LeafStream *s, int end)
{
	const PqSegment *seg = &s->seg;
	int			k = end - s->pos;
	int			base = s->batch.n;
	int			kept = 0;
	int			nvalues = 0;
	int			i;

	if (k <= 0)
		return;
	if (k > PQ_MAX_BATCH_ENTRIES - base)
		pq_too_large("column \"%s\" has more than %d level entries in a batch of rows starting at row " INT64_FORMAT,
					 s->leaf->name, PQ_MAX_BATCH_ENTRIES, a->row);
	ensure_entries(a, s, base + k);
	for (i = 0; i < k; i++)
	{
		int16		r = s->max_rep > 0 ? seg->rep[s->pos + i] : 0;
		int16		d = seg->def ? seg->def[s->pos + i] : s->max_def;

		if (r < 0 || r > s->max_rep)
			pq_corrupt("repetition level %d of column \"%s\" exceeds its maximum %d",
					   r, s->leaf->name, s->max_rep);
		if (d < 0 || d > s->max_def)
			pq_corrupt("definition level %d of column \"%s\" exceeds its maximum %d",
					   d, s->leaf->name, s->max_def);
		if (r > 0 && d < s->rep_def[r])
			continue;
		if (s->max_rep > 0)
			s->rep[base + kept] = r;
		if (s->max_def > 0)
			s->def[base + kept] = d;
		nvalues += (d == s->max_def);
		kept++;
	}
	s->batch.n += kept;
	s->pos = end;
	copy_values(a, s, nvalues);
}

/* Gather the leaf's entries of the next nrows rows. */
static void
gather_leaf(PqAssembler *a, LeafStream *s, int nrows)
{
	int			rows = 0;

	s->batch.n = 0;
	s->batch.nvalues = 0;
	s->batch_bytes = 0;
	reset_bytes(s);
	for (;;)
	{
		int			end;

		if (s->pos >= s->seg.n && (rows == nrows && s->max_rep == 0))
			break;
		if (s->pos >= s->seg.n && !load_segment(a, s))
			break;
		end = s->pos;
		if (s->max_rep == 0)
		{
			end = s->pos + Min(s->seg.n - s->pos, nrows - rows);
			rows += end - s->pos;
		}
		else
		{
			/* a row goes on until the next entry at repetition level 0 */
			for (; end < s->seg.n; end++)
			{
				if (s->seg.rep[end] == 0)
				{
					if (rows == nrows)
						break;
					rows++;
				}
				else if (rows == 0)
					pq_corrupt("column \"%s\" starts a row with repetition level %d, not 0",
							   s->leaf->name, s->seg.rep[end]);
			}
		}
		copy_entries(a, s, end);
		if (end < s->seg.n || (rows == nrows && s->max_rep == 0))
			break;
	}
	if (rows < nrows)
		pq_corrupt("column \"%s\" ends after " INT64_FORMAT " rows of its row group",
				   s->leaf->name, a->row + rows);

	s->batch.leaf = s->leaf;
	s->batch.rep = s->max_rep > 0 ? s->rep : NULL;
	s->batch.def = s->max_def > 0 ? s->def : NULL;
	s->batch.fixed = s->width > 0 ? s->fixed : NULL;
	s->batch.ba = s->width > 0 ? NULL : s->ba;
}

const PqLeafBatch *
pq_assembler_next(PqAssembler *a, int nrows)
{
	int			i;

	if (nrows < 1)
		elog(ERROR, "record assembly needs at least one row");
	for (i = 0; i < a->nleaves; i++)
	{
		gather_leaf(a, &a->leaves[i], nrows);
		a->batches[i] = a->leaves[i].batch;
	}
	a->row += nrows;
	a->nrows = nrows;
	return a->batches;
}

/*
 * Move a leaf without repetition levels (entries are rows) to row `row`:
 * inside its segment, or through the source past what it holds.
 */
static void
skip_flat_leaf(PqAssembler *a, LeafStream *s, int64 row)
{
	int64		at;

	if (s->pos < s->seg.n && row < s->seg_start + s->seg.n)
	{
		at = s->seg_start + s->pos;
		if (row < at)
			elog(ERROR, "column \"%s\" cannot go back to row " INT64_FORMAT,
				 s->leaf->name, row);
		/* values of the entries passed over */
		for (; at < row; at++, s->pos++)
			if (s->seg.def == NULL || s->seg.def[s->pos] == s->max_def)
				s->vpos++;
		return;
	}
	s->pos = s->seg.n;
	at = a->src.position(a->src.arg, s->index);
	if (row < at)
		elog(ERROR, "column \"%s\" cannot go back to row " INT64_FORMAT,
			 s->leaf->name, row);
	if (row > at)
		a->src.skip(a->src.arg, s->index, row - at);
}

void
pq_assembler_skip_to(PqAssembler *a, int64 row)
{
	int64		nrows = row - a->row;
	int			i;

	if (nrows < 0)
		elog(ERROR, "record assembly of \"%s\" cannot go back to row " INT64_FORMAT,
			 a->field->name, row);
	for (i = 0; i < a->nleaves; i++)
	{
		LeafStream *s = &a->leaves[i];
		int64		rows = 0;

		if (s->max_rep == 0)
		{
			skip_flat_leaf(a, s, row);
			continue;
		}
		if (nrows == 0)
			continue;
		/* rows start at repetition level 0: count them */
		for (;;)
		{
			if (s->pos >= s->seg.n && !load_segment(a, s))
				break;
			for (; s->pos < s->seg.n; s->pos++)
			{
				if (s->seg.rep[s->pos] == 0)
				{
					if (rows == nrows)
						break;
					rows++;
				}
				else if (rows == 0)
					pq_corrupt("column \"%s\" starts a row with repetition level %d, not 0",
							   s->leaf->name, s->seg.rep[s->pos]);
				if (s->seg.def == NULL || s->seg.def[s->pos] == s->max_def)
					s->vpos++;
			}
			if (s->pos < s->seg.n)
				break;
		}
		if (rows < nrows)
			pq_corrupt("column \"%s\" ends after " INT64_FORMAT " rows of its row group",
					   s->leaf->name, a->row + rows);
	}
	a->row = row;
}

/* ------------------------------------------------------------- building */

static PqValue *
arena_alloc(PqAssembler *a, int n)
{
	PqValue    *p;

	if (n == 0)
		return NULL;
	if (n > a->arena_left)
	{
		if (n > PQ_ARENA_VALUES / 4)
			return palloc_extended(sizeof(PqValue) * n, MCXT_ALLOC_HUGE);
		a->arena = palloc(sizeof(PqValue) * PQ_ARENA_VALUES);
		a->arena_left = PQ_ARENA_VALUES;
	}
	p = a->arena;
	a->arena += n;
	a->arena_left -= n;
	return p;
}

static void
leaves_disagree(LeafStream *s, const char *what)
{
	pq_corrupt("column \"%s\" disagrees with the other columns of its field: %s",
			   s->leaf->name, what);
}

/* The current entry of s, which must exist. */
static inline void
peek(LeafStream *s, int16 *rep, int16 *def)
{
	if (s->bpos >= s->batch.n)
		leaves_disagree(s, "it has fewer level entries");
	*rep = s->batch.rep ? s->batch.rep[s->bpos] : 0;
	*def = s->batch.def ? s->batch.def[s->bpos] : 0;
}

/* Consume s's current entry, checking its repetition level. */
static inline void
consume(LeafStream *s, int16 rep)
{
	if (rep != s->expect_rep)
		leaves_disagree(s, "repetition levels differ");
	s->expect_rep = -1;
	s->bpos++;
}

/* Every leaf below n: its next entry must repeat at level rep. */
static void
start_event(PqAssembler *a, AsmNode *n, int rep)
{
	int			i;

	for (i = n->lo; i < n->hi; i++)
		a->leaves[i].expect_rep = rep;
}

/* n is undefined: consume one entry, defined exactly up to n's parent. */
static void
consume_undefined(PqAssembler *a, AsmNode *n)
{
	int16		want = n->max_def - 1;
	int			i;

	for (i = n->lo; i < n->hi; i++)
	{
		LeafStream *s = &a->leaves[i];
		int16		rep;
		int16		def;

		peek(s, &rep, &def);
		if (def != want)
			leaves_disagree(s, "definition levels differ");
		consume(s, rep);
	}
}

static void assemble_slot(PqAssembler *a, AsmNode *n, PqValue *out);

/* One occurrence of n (its parent, and n if repeated, are defined). */
static void
assemble_occurrence(PqAssembler *a, AsmNode *n, PqValue *out)
{
	LeafStream *first = &a->leaves[n->lo];
	const PqSchemaNode *sn = n->node;
	int16		rep;
	int16		def;
	int			i;

	out->node = sn;
	out->vindex = -1;
	peek(first, &rep, &def);
	if (def < n->max_def)
	{
		/* only an optional node can be undefined here */
		if (sn->repetition != PQ_OPTIONAL)
			leaves_disagree(first, "definition level below a required field's");
		consume_undefined(a, n);
		out->kind = PQ_VAL_NULL;
		return;
	}
	if (sn->is_leaf)
	{
		LeafStream *s = first;

		consume(s, rep);
		out->kind = PQ_VAL_SCALAR;
		out->vindex = s->bvpos;
		if (s->bvpos >= s->batch.nvalues)
			leaves_disagree(s, "it has fewer values");
		if (s->width > 0)
		{
			const uint8 *p = (const uint8 *) s->batch.fixed +
			(size_t) s->bvpos * s->width;

			switch (sn->physical_type)
			{
				case PQ_BOOLEAN:
					out->u.scalar.b = (*p != 0);
					break;
				case PQ_INT32:
					memcpy(&out->u.scalar.i32, p, 4);
					break;
				case PQ_INT64:
					memcpy(&out->u.scalar.i64, p, 8);
					break;
				case PQ_FLOAT:
					memcpy(&out->u.scalar.f, p, 4);
					break;
				case PQ_DOUBLE:
					memcpy(&out->u.scalar.d, p, 8);
					break;
				default:		/* INT96, FIXED_LEN_BYTE_ARRAY */
					out->u.scalar.bytes.ptr = p;
					out->u.scalar.bytes.len = (uint32) s->width;
					break;
			}
		}
		else
		{
			out->u.scalar.bytes.ptr = s->batch.ba[s->bvpos].ptr;
			out->u.scalar.bytes.len = s->batch.ba[s->bvpos].len;
		}
		s->bvpos++;
		return;
	}
	out->kind = PQ_VAL_GROUP;
	out->u.children.n = sn->n_children;
	out->u.children.items = arena_alloc(a, sn->n_children);
	for (i = 0; i < sn->n_children; i++)
	{
		PqValue    *item = &out->u.children.items[i];

		if (n->child[i])
			assemble_slot(a, n->child[i], item);
		else
		{
			item->kind = PQ_VAL_NULL;
			item->vindex = -1;
			item->node = sn->children[i];
		}
	}
}

/* The value of n in its parent's slot: a list of occurrences if repeated. */
static void
assemble_slot(PqAssembler *a, AsmNode *n, PqValue *out)
{
	LeafStream *first = &a->leaves[n->lo];
	int16		rep;
	int16		def;
	int			count = 0;

	if (!n->repeated)
	{
		assemble_occurrence(a, n, out);
		return;
	}
	out->kind = PQ_VAL_LIST;
	out->vindex = -1;
	out->node = n->node;
	out->u.children.items = NULL;
	out->u.children.n = 0;
	peek(first, &rep, &def);
	if (def < n->max_def)
	{
		/* no occurrence: an empty list */
		consume_undefined(a, n);
		return;
	}
	for (;;)
	{
		if (count == n->scratch_cap)
		{
			MemoryContext old = MemoryContextSwitchTo(a->cxt);
			int			cap = Max(16, n->scratch_cap * 2);

			n->scratch = n->scratch ?
				repalloc_huge(n->scratch, sizeof(PqValue) * cap) :
				palloc(sizeof(PqValue) * cap);
			n->scratch_cap = cap;
			MemoryContextSwitchTo(old);
		}
		assemble_occurrence(a, n, &n->scratch[count++]);
		if (first->bpos >= first->batch.n)
			break;
		peek(first, &rep, &def);
		if (rep != n->max_rep)
			break;
		if (def < n->max_def)
			leaves_disagree(first, "an entry repeats a list without an element");
		start_event(a, n, n->max_rep);
	}
	out->u.children.items = arena_alloc(a, count);
	memcpy(out->u.children.items, n->scratch, sizeof(PqValue) * count);
	out->u.children.n = count;
}

void
pq_assembler_build(PqAssembler *a, PqValue *rows)
{
	int			r;
	int			i;

	a->arena = NULL;
	a->arena_left = 0;
	for (i = 0; i < a->nleaves; i++)
	{
		a->leaves[i].bpos = 0;
		a->leaves[i].bvpos = 0;
	}
	for (r = 0; r < a->nrows; r++)
	{
		start_event(a, a->root, 0);
		assemble_slot(a, a->root, &rows[r]);
	}
	for (i = 0; i < a->nleaves; i++)
		if (a->leaves[i].bpos != a->leaves[i].batch.n)
			leaves_disagree(&a->leaves[i], "it has more level entries");
}
