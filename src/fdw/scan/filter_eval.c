/*-------------------------------------------------------------------------
 *
 * filter_eval.c
 *		Run a filter (filter_program.h) on a batch, segment by segment.
 *
 * Each leaf turns a segment into truth values by the cheapest exact means:
 *
 *	- a dictionary-encoded segment: the test runs once per dictionary entry
 *	  and each row looks its entry's answer up;
 *	- raw values: integers, floats, dates and timestamps are compared as the
 *	  numbers the file holds, the constants translated into the file's
 *	  terms once (a date's epoch, a timestamp's microseconds); strings as
 *	  bytes where that is PostgreSQL's answer (equality under deterministic
 *	  collations, order under "C", LIKE with literal parts and '%');
 *	- otherwise the segment's Datums, through the operator's function.
 *
 * Raw tests never skip what converting the value would check: strings are
 * validated as the text conversion validates them, and a date or timestamp
 * outside PostgreSQL's range makes the segment be converted, which raises
 * the conversion's error.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation_d.h"
#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_type_d.h"
#include "datatype/timestamp.h"
#include "fdw/scan/filter_program.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/timestamp.h"

/* PostgreSQL's epochs after Unix's, in days and microseconds */
#define PG_EPOCH_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)
#define PG_EPOCH_USECS ((int64) PG_EPOCH_DAYS * USECS_PER_DAY)

static const uint8 and3[3][3] = {
	{PQF_FALSE, PQF_FALSE, PQF_FALSE},
	{PQF_FALSE, PQF_TRUE, PQF_NULL},
	{PQF_FALSE, PQF_NULL, PQF_NULL}
};
static const uint8 or3[3][3] = {
	{PQF_FALSE, PQF_TRUE, PQF_NULL},
	{PQF_TRUE, PQF_TRUE, PQF_TRUE},
	{PQF_NULL, PQF_TRUE, PQF_NULL}
};
static const uint8 not3[3] = {PQF_TRUE, PQF_FALSE, PQF_NULL};

/*
 * Where needle first occurs in hay, or NULL.  Strings here are short: a
 * scan for the first byte beats memmem()'s set-up per call.
 */
static inline const char *
find_bytes(const char *hay, int hlen, const char *needle, int nlen)
{
	const char *end = hay + hlen - nlen + 1;
	const char *p = hay;

	if (nlen > hlen)
		return NULL;
	while (p < end)
	{
		p = memchr(p, needle[0], end - p);
		if (p == NULL)
			return NULL;
		if (memcmp(p + 1, needle + 1, nlen - 1) == 0)
			return p;
		p++;
	}
	return NULL;
}

static bool
like_match(const PqLikePattern *lp, const char *s, int len)
{
	int			pos = 0;
	int			end = len;
	int			first = 0;
	int			last = lp->nparts - 1;
	int			k;

	if (lp->nparts == 0)
		return !lp->anchored_start || len == 0;
	if (lp->anchored_start && lp->anchored_end && lp->nparts == 1)
		return len == lp->lens[0] && memcmp(s, lp->parts[0], len) == 0;
	if (lp->anchored_start)
	{
		if (len < lp->lens[0] || memcmp(s, lp->parts[0], lp->lens[0]) != 0)
			return false;
		pos = lp->lens[0];
		first = 1;
	}
	if (lp->anchored_end)
	{
		end = len - lp->lens[last];
		if (end < pos || memcmp(s + end, lp->parts[last], lp->lens[last]) != 0)
			return false;
		last--;
	}
	/* leftmost matches in order: each later part only has more room */
	for (k = first; k <= last; k++)
	{
		const char *hit = find_bytes(s + pos, end - pos, lp->parts[k],
									 lp->lens[k]);

		if (hit == NULL)
			return false;
		pos = (hit - s) + lp->lens[k];
	}
	return true;
}

/* ANY/ALL over the constants, and NULL constants, into a final answer. */
static inline uint8
finish(const PqFilterLeaf *leaf, bool hit)
{
	if (leaf->use_or)
		return hit ? PQF_TRUE : leaf->null_const ? PQF_NULL : PQF_FALSE;
	return !hit ? PQF_FALSE : leaf->null_const ? PQF_NULL : PQF_TRUE;
}

#define CMP_LOOP(T, OP) \
	for (i = 0; i < n; i++) \
		out[i] = (((const T *) vals)[i] OP c)

/* out[i] = (vals[i] cmp c) for n raw integers of type T */
#define INT_CMP(T) \
	switch (cmp) \
	{ \
		case PQC_LT: CMP_LOOP(T, <); break; \
		case PQC_LE: CMP_LOOP(T, <=); break; \
		case PQC_EQ: CMP_LOOP(T, ==); break; \
		case PQC_GE: CMP_LOOP(T, >=); break; \
		case PQC_GT: CMP_LOOP(T, >); break; \
		default: CMP_LOOP(T, !=); break; \
	}

static void
int32_cmp(PqCmp cmp, const void *vals, int n, int64 c, uint8 *out)
{
	int			i;

	INT_CMP(int32);
}

static void
int64_cmp(PqCmp cmp, const void *vals, int n, int64 c, uint8 *out)
{
	int			i;

	INT_CMP(int64);
}

/* PostgreSQL's float order: NaN equals NaN and sorts above everything. */
#define FLOAT_LOOP(T, FN) \
	for (i = 0; i < n; i++) \
		out[i] = FN((float8) ((const T *) vals)[i], c)

#define FLOAT_CMP(T) \
	switch (cmp) \
	{ \
		case PQC_LT: FLOAT_LOOP(T, float8_lt); break; \
		case PQC_LE: FLOAT_LOOP(T, float8_le); break; \
		case PQC_EQ: FLOAT_LOOP(T, float8_eq); break; \
		case PQC_GE: FLOAT_LOOP(T, float8_ge); break; \
		case PQC_GT: FLOAT_LOOP(T, float8_gt); break; \
		default: FLOAT_LOOP(T, float8_ne); break; \
	}

static void
float_cmp(PqCmp cmp, bool is_double, const void *vals, int n, double c,
		  uint8 *out)
{
	int			i;

	if (is_double)
		FLOAT_CMP(double)
	else
		FLOAT_CMP(float)
}

static inline bool
text_cmp(PqFilter *f, const PqFilterLeaf *leaf, int k, const char *s, int len)
{
	int			r;
	int			i;

	switch (leaf->cmp)
	{
		case PQC_ILIKE:
		case PQC_NOT_ILIKE:
			/* lower() under a "C" ctype: ASCII letters only */
			if (len > f->lower_cap)
			{
				f->lower_cap = Max(len, 2 * f->lower_cap);
				f->lower = f->lower ? repalloc_huge(f->lower, f->lower_cap) :
					MemoryContextAllocHuge(f->cxt, f->lower_cap);
			}
			for (i = 0; i < len; i++)
				f->lower[i] = pg_ascii_tolower((unsigned char) s[i]);
			return like_match(leaf->like, f->lower, len) ==
				(leaf->cmp == PQC_ILIKE);
		case PQC_EQ:
			return len == leaf->lens[k] && memcmp(s, leaf->strs[k], len) == 0;
		case PQC_NE:
			return !(len == leaf->lens[k] && memcmp(s, leaf->strs[k], len) == 0);
		case PQC_LIKE:
			return like_match(leaf->like, s, len);
		case PQC_NOT_LIKE:
			return !like_match(leaf->like, s, len);
		default:
			break;
	}
	/* "C" order: bytes, then length */
	r = memcmp(s, leaf->strs[k], Min(len, leaf->lens[k]));
	if (r == 0)
		r = (len > leaf->lens[k]) - (len < leaf->lens[k]);
	switch (leaf->cmp)
	{
		case PQC_LT:
			return r < 0;
		case PQC_LE:
			return r <= 0;
		case PQC_GE:
			return r >= 0;
		default:
			return r > 0;
	}
}

/* Whether n raw values of a check_range leaf all convert. */
static bool
in_range(const PqFilterLeaf *leaf, const void *fixed, int n)
{
	int64		lo = PG_INT64_MAX;
	int64		hi = PG_INT64_MIN;
	int			i;

	for (i = 0; i < n; i++)
	{
		int64		v = leaf->raw == PQR_INT32 ? ((const int32 *) fixed)[i] :
			((const int64 *) fixed)[i];

		lo = Min(lo, v);
		hi = Max(hi, v);
	}
	return lo >= leaf->raw_min && hi <= leaf->raw_max;
}

static void
text_dense(PqFilter *f, PqFilterLeaf *leaf, PqConverter *cv,
		   const PqByteArray *ba, int n, uint8 *out)
{
	int			i;
	int			k;

	for (i = 0; i < n; i++)
	{
		bool		r = !leaf->use_or;

		if (!pqfdw_ascii_without_nul((const char *) ba[i].ptr, ba[i].len))
			pqfdw_check_utf8_text(cv, i, (const char *) ba[i].ptr, ba[i].len);
		for (k = 0; k < leaf->nconsts; k++)
		{
			if (text_cmp(f, leaf, k, (const char *) ba[i].ptr, ba[i].len) ==
				leaf->use_or)
			{
				r = leaf->use_or;
				break;
			}
		}
		out[i] = finish(leaf, r);
	}
}

/* Big-endian two's complement of width bytes (1 to 8) as int64s. */
static void
widen_decimals(const uint8 *p, int width, int n, int64 *out)
{
	int			i;
	int			b;

	for (i = 0; i < n; i++, p += width)
	{
		uint64		u = (p[0] & 0x80) ? PG_UINT64_MAX : 0;

		for (b = 0; b < width; b++)
			u = (u << 8) | p[b];
		out[i] = (int64) u;
	}
}

/* Truth values of n <= PQ_SEGMENT_CAP fixed-width raw values. */
static void
fixed_chunk(PqFilter *f, PqFilterLeaf *leaf, PqConverter *cv,
			const void *fixed, int n, uint8 *out)
{
	uint8	   *hit = f->dense2;
	PqRawKind	raw = leaf->raw;
	int			i;
	int			k;

	if (raw == PQR_DECIMAL_BE)
	{
		if (f->wide == NULL)
			f->wide = MemoryContextAlloc(f->cxt, sizeof(int64) * PQ_SEGMENT_CAP);
		widen_decimals(fixed, cv->type_length, n, f->wide);
		fixed = f->wide;
		raw = PQR_INT64;
	}

	/* one pass per constant, OR'ed (ANY) or AND'ed (ALL) */
	for (k = 0; k < leaf->nconsts; k++)
	{
		uint8	   *dst = k == 0 ? out : hit;

		switch (raw)
		{
			case PQR_INT32:
				int32_cmp(leaf->cmp, fixed, n, leaf->ivals[k], dst);
				break;
			case PQR_INT64:
				int64_cmp(leaf->cmp, fixed, n, leaf->ivals[k], dst);
				break;
			default:
				float_cmp(leaf->cmp, raw == PQR_DOUBLE, fixed, n,
						  leaf->fvals[k], dst);
				break;
		}
		if (k > 0)
		{
			if (leaf->use_or)
				for (i = 0; i < n; i++)
					out[i] |= hit[i];
			else
				for (i = 0; i < n; i++)
					out[i] &= hit[i];
		}
	}
	if (leaf->nconsts == 0)
		memset(out, !leaf->use_or, n);
	if (leaf->null_const)
		for (i = 0; i < n; i++)
			out[i] = finish(leaf, out[i]);
}

/*
 * Truth values of n dense raw values (fixed or ba) into out; false when a
 * value is outside what converts (check_range), with out unset.  A
 * dictionary's n can pass PQ_SEGMENT_CAP, the scratch's size: fixed-width
 * values go in chunks.
 */
static bool
raw_dense(PqFilter *f, PqFilterLeaf *leaf, PqConverter *cv, const void *fixed,
		  const PqByteArray *ba, int n, uint8 *out)
{
	size_t		width;
	int			off;

	if (n == 0)
		return true;
	if (leaf->check_range && !in_range(leaf, fixed, n))
		return false;
	if (leaf->raw == PQR_TEXT)
	{
		text_dense(f, leaf, cv, ba, n, out);
		return true;
	}
	width = leaf->raw == PQR_DECIMAL_BE ? cv->type_length :
		(leaf->raw == PQR_INT32 || leaf->raw == PQR_FLOAT) ? 4 : 8;
	for (off = 0; off < n; off += PQ_SEGMENT_CAP)
		fixed_chunk(f, leaf, cv, (const char *) fixed + off * width,
					Min(PQ_SEGMENT_CAP, n - off), out + off);
	return true;
}

/* Truth value of the leaf's test of one Datum, through its function. */
static uint8
datum_test(PqFilterLeaf *leaf, Datum v)
{
	LOCAL_FCINFO(fcinfo, 2);
	int			varpos = leaf->var_on_left ? 0 : 1;
	bool		any_null = leaf->null_const;
	int			k;

	InitFunctionCallInfoData(*fcinfo, &leaf->fn, 2, leaf->collation,
							 NULL, NULL);
	fcinfo->args[varpos].value = v;
	fcinfo->args[varpos].isnull = false;
	fcinfo->args[1 - varpos].isnull = false;
	for (k = 0; k < leaf->nconsts; k++)
	{
		Datum		r;

		fcinfo->args[1 - varpos].value = leaf->consts[k];
		fcinfo->isnull = false;
		r = FunctionCallInvoke(fcinfo);
		if (fcinfo->isnull)
			any_null = true;
		else if (DatumGetBool(r) == leaf->use_or)
			return leaf->use_or ? PQF_TRUE : PQF_FALSE;
	}
	if (any_null)
		return PQF_NULL;
	return leaf->use_or ? PQF_FALSE : PQF_TRUE;
}

/* The leaf's answer for each entry of the segment's dictionary. */
static const uint8 *
dictionary_answers(PqFilter *f, PqFilterLeaf *leaf, PqConverter *cv,
				   const PqDictionary *dict)
{
	int			i;

	if (leaf->dict_tri != NULL && leaf->dict_id == dict->id)
		return leaf->dict_tri;
	if (leaf->dict_cap < dict->count)
	{
		if (leaf->dict_tri)
			pfree(leaf->dict_tri);
		leaf->dict_cap = Max(dict->count, 64);
		leaf->dict_tri = MemoryContextAllocHuge(f->cxt, leaf->dict_cap);
	}
	leaf->dict_id = 0;
	if (leaf->raw != PQR_DATUM)
	{
		int64		saved = cv->row_base;
		bool		ok;

		cv->row_base = -1;
		ok = raw_dense(f, leaf, cv, dict->fixed, dict->ba, dict->count,
					   leaf->dict_tri);
		cv->row_base = saved;
		if (!ok)
			leaf->raw = PQR_DATUM;
	}
	if (leaf->raw == PQR_DATUM)
	{
		/* converting the dictionary raises any conversion error */
		const Datum *dd = pqfdw_dictionary_datums(cv, dict);

		for (i = 0; i < dict->count; i++)
			leaf->dict_tri[i] = datum_test(leaf, dd[i]);
	}
	leaf->dict_id = dict->id;
	return leaf->dict_tri;
}

bool
pqfdw_filter_needs_datums(PqFilter *f, AttrNumber attnum, PqConverter *cv,
						  const PqSegment *seg)
{
	int			l;

	for (l = 0; l < f->nleaves; l++)
	{
		PqFilterLeaf *leaf = &f->leaves[l];

		if (leaf->attnum != attnum || leaf->kind != PQL_OP)
			continue;
		if (!leaf->bound)
			pqfdw_filter_bind_leaf(f, leaf, cv);
		if (seg->indices == NULL && leaf->raw == PQR_DATUM)
			return true;
	}
	return false;
}

/*
 * The answer for a NULL value: NULL (strict operators), except against an
 * empty array, whose ANY is false and ALL true whatever the value.
 */
static inline uint8
null_answer(const PqFilterLeaf *leaf)
{
	if (leaf->nconsts == 0 && !leaf->null_const)
		return leaf->use_or ? PQF_FALSE : PQF_TRUE;
	return PQF_NULL;
}

/* Spread dense answers over the segment's rows; absent values get absent. */
static void
scatter(const PqSegment *seg, int16 max_def, const uint8 *dense,
		uint8 absent, uint8 *tri)
{
	int			i;
	int			k = 0;

	if (seg->def == NULL)
	{
		memcpy(tri, dense, seg->n);
		return;
	}
	for (i = 0; i < seg->n; i++)
		tri[i] = seg->def[i] == max_def ? dense[k++] : absent;
}

static void
datum_rows(PqFilterLeaf *leaf, int n, const Datum *values, const bool *nulls,
		   uint8 *tri)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		if (leaf->kind == PQL_NULLTEST)
			tri[i] = (nulls[i] == leaf->is_null) ? PQF_TRUE : PQF_FALSE;
		else
			tri[i] = nulls[i] ? null_answer(leaf) : datum_test(leaf, values[i]);
	}
}

void
pqfdw_filter_segment(PqFilter *f, AttrNumber attnum, PqConverter *cv,
					 const PqSegment *seg, int first, const Datum *values,
					 const bool *nulls)
{
	int16		max_def = cv->max_def;
	int			l;
	int			i;

	for (l = 0; l < f->nleaves; l++)
	{
		PqFilterLeaf *leaf = &f->leaves[l];
		uint8	   *tri = leaf->tri + first;

		if (leaf->attnum != attnum)
			continue;
		if (!leaf->bound)
			pqfdw_filter_bind_leaf(f, leaf, cv);
		if (leaf->kind == PQL_NULLTEST)
		{
			for (i = 0; i < seg->n; i++)
			{
				bool		isnull = seg->def != NULL && seg->def[i] != max_def;

				tri[i] = (isnull == leaf->is_null) ? PQF_TRUE : PQF_FALSE;
			}
			continue;
		}
		if (cv->always_null)
		{
			memset(tri, null_answer(leaf), seg->n);
			continue;
		}
		if (seg->indices)
		{
			const uint8 *answers = dictionary_answers(f, leaf, cv, seg->dict);

			/* entries out of range compare right only uncast */
			if (leaf->raw != PQR_DATUM || pqfdw_dictionary_exact(cv))
			{
				for (i = 0; i < seg->nvalues; i++)
					f->dense[i] = answers[seg->indices[i]];
				scatter(seg, max_def, f->dense, null_answer(leaf), tri);
				continue;
			}
		}
		if (leaf->raw != PQR_DATUM &&
			raw_dense(f, leaf, cv, seg->fixed, seg->ba, seg->nvalues, f->dense))
		{
			scatter(seg, max_def, f->dense, null_answer(leaf), tri);
			continue;
		}
		if (values == NULL)
		{
			Datum	   *v = palloc(sizeof(Datum) * seg->n);
			bool	   *nl = palloc(sizeof(bool) * seg->n);

			/* a value that does not convert: this raises its error */
			pqfdw_convert_segment(cv, seg, v, nl);
			values = v;
			nulls = nl;
		}
		datum_rows(leaf, seg->n, values, nulls, tri);
	}
}

void
pqfdw_filter_datums(PqFilter *f, AttrNumber attnum, int first, int n,
					const Datum *values, const bool *nulls)
{
	int			l;

	for (l = 0; l < f->nleaves; l++)
		if (f->leaves[l].attnum == attnum)
			datum_rows(&f->leaves[l], n, values, nulls, f->leaves[l].tri + first);
}

/* The node's truth values for rows [0, n). */
static const uint8 *
eval_node(PqFilter *f, PqFilterNode *node, int n)
{
	const uint8 *a;
	int			i;
	int			k;

	switch (node->kind)
	{
		case PQN_LEAF:
			return f->leaves[node->leaf].tri;
		case PQN_NOT:
			a = eval_node(f, node->args[0], n);
			for (i = 0; i < n; i++)
				node->tri[i] = not3[a[i]];
			return node->tri;
		case PQN_AND:
		case PQN_OR:
			memset(node->tri, node->kind == PQN_AND ? PQF_TRUE : PQF_FALSE, n);
			for (k = 0; k < node->nargs; k++)
			{
				a = eval_node(f, node->args[k], n);
				if (node->kind == PQN_AND)
					for (i = 0; i < n; i++)
						node->tri[i] = and3[node->tri[i]][a[i]];
				else
					for (i = 0; i < n; i++)
						node->tri[i] = or3[node->tri[i]][a[i]];
			}
			return node->tri;
	}
	return NULL;				/* keep compiler quiet */
}

int
pqfdw_filter_select(PqFilter *f, int n, int *sel)
{
	PqFilterNode *root = f->root;
	const uint8 *r;
	int			m = 0;
	int			i;

	/* quals that are single tests (the usual case): no three-valued pass */
	if (root->nargs == 1 && root->args[0]->kind == PQN_LEAF)
		r = f->leaves[root->args[0]->leaf].tri;
	else if (root->nargs == 2 && root->args[0]->kind == PQN_LEAF &&
			 root->args[1]->kind == PQN_LEAF)
	{
		const uint8 *a = f->leaves[root->args[0]->leaf].tri;
		const uint8 *b = f->leaves[root->args[1]->leaf].tri;

		for (i = 0; i < n; i++)
		{
			sel[m] = i;
			m += (a[i] == PQF_TRUE) & (b[i] == PQF_TRUE);
		}
		return m;
	}
	else
		r = eval_node(f, root, n);
	for (i = 0; i < n; i++)
	{
		sel[m] = i;
		m += (r[i] == PQF_TRUE);
	}
	return m;
}
