/*-------------------------------------------------------------------------
 *
 * accumulate.c
 *		Aggregate states per group, with PostgreSQL's transition and final
 *		functions repeated on vectors (see accumulate.h).
 *
 * States are arrays indexed by group, so that one batch updates one
 * aggregate in one loop per (function, type).  Text min/max keep copies
 * of their values in the states' context.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_aggregate.h"
#include "catalog/pg_type.h"
#include "fdw/common/pg_compat.h"
#include "fdw/pushdown/accumulate.h"
#include "fdw/pushdown/dict_seen.h"
#include "fdw/pushdown/distinct.h"
#include "nodes/nodeFuncs.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

typedef enum PqAggFn
{
	AGG_COUNT_STAR,
	AGG_COUNT,
	AGG_SUM,
	AGG_AVG,
	AGG_MIN,
	AGG_MAX,
	AGG_BOOL_AND,
	AGG_BOOL_OR
} PqAggFn;

struct PqAccum
{
	PqAggFn		fn;
	Oid			argtype;
	PqVKind		kind;
	Oid			collation;
	bool		wide;			/* int8 sum/avg: 128-bit sums */
	bool		partial;		/* return the transition state (parallel) */
	int			scale;			/* PQV_DECIMAL: of every value */
	MemoryContext cxt;
	int			capacity;
	int64	   *count;			/* count; avg of integers: N */
	int64	   *i;				/* integer sums, min/max, bools */
	int128	   *i128;			/* int8 sums */
	double	   *d;				/* float sums, min/max; avg: Sx */
	double	   *n;				/* avg of floats: N */
	double	   *sxx;			/* avg of floats: Sxx */
	Datum	   *datum;			/* text min/max */
	bool	   *has;			/* a non-null state */
	FmgrInfo	cmp;			/* text min/max: bttextcmp */
	bool		bytewise;		/* text min/max: the collation is C */

	/*
	 * Text min/max under a deterministic collation: a value's dictionary
	 * index that already reached a state cannot change it again (see
	 * update_text).  Without groups, the indices of the current dictionary
	 * met so far; with groups, each state's last (dictionary, index).
	 */
	bool		skip_seen;
	PqDictSeen	seen;
	uint32	   *last_dict;
	uint32	   *last_code;
};

typedef struct AggInfo
{
	Oid			aggfnoid;
	PqAggFn		fn;
	Oid			argtype;
} AggInfo;

static const AggInfo aggs[] = {
	{F_COUNT_, AGG_COUNT_STAR, InvalidOid},
	{F_COUNT_ANY, AGG_COUNT, InvalidOid},
	{F_SUM_INT2, AGG_SUM, INT2OID}, {F_SUM_INT4, AGG_SUM, INT4OID},
	{F_SUM_INT8, AGG_SUM, INT8OID}, {F_SUM_FLOAT4, AGG_SUM, FLOAT4OID},
	{F_SUM_FLOAT8, AGG_SUM, FLOAT8OID},
	{F_AVG_INT2, AGG_AVG, INT2OID}, {F_AVG_INT4, AGG_AVG, INT4OID},
	{F_AVG_INT8, AGG_AVG, INT8OID}, {F_AVG_FLOAT4, AGG_AVG, FLOAT4OID},
	{F_AVG_FLOAT8, AGG_AVG, FLOAT8OID},
	{F_MIN_INT2, AGG_MIN, INT2OID}, {F_MIN_INT4, AGG_MIN, INT4OID},
	{F_MIN_INT8, AGG_MIN, INT8OID}, {F_MIN_FLOAT4, AGG_MIN, FLOAT4OID},
	{F_MIN_FLOAT8, AGG_MIN, FLOAT8OID}, {F_MIN_DATE, AGG_MIN, DATEOID},
	{F_MIN_TIME, AGG_MIN, TIMEOID}, {F_MIN_TIMESTAMP, AGG_MIN, TIMESTAMPOID},
	{F_MIN_TIMESTAMPTZ, AGG_MIN, TIMESTAMPTZOID},
	{F_MIN_TEXT, AGG_MIN, TEXTOID},
	{F_MAX_INT2, AGG_MAX, INT2OID}, {F_MAX_INT4, AGG_MAX, INT4OID},
	{F_MAX_INT8, AGG_MAX, INT8OID}, {F_MAX_FLOAT4, AGG_MAX, FLOAT4OID},
	{F_MAX_FLOAT8, AGG_MAX, FLOAT8OID}, {F_MAX_DATE, AGG_MAX, DATEOID},
	{F_MAX_TIME, AGG_MAX, TIMEOID}, {F_MAX_TIMESTAMP, AGG_MAX, TIMESTAMPOID},
	{F_MAX_TIMESTAMPTZ, AGG_MAX, TIMESTAMPTZOID},
	{F_MAX_TEXT, AGG_MAX, TEXTOID},
	{F_BOOL_AND, AGG_BOOL_AND, BOOLOID}, {F_BOOL_OR, AGG_BOOL_OR, BOOLOID},
	/* of DECIMAL columns read unscaled (PQV_DECIMAL) */
	{F_SUM_NUMERIC, AGG_SUM, NUMERICOID}, {F_AVG_NUMERIC, AGG_AVG, NUMERICOID},
	{F_MIN_NUMERIC, AGG_MIN, NUMERICOID}, {F_MAX_NUMERIC, AGG_MAX, NUMERICOID},
};

static const AggInfo *
agg_info(Oid aggfnoid)
{
	int			i;

	for (i = 0; i < lengthof(aggs); i++)
		if (aggs[i].aggfnoid == aggfnoid)
			return &aggs[i];
	return NULL;
}

bool
pqfdw_accum_supported(Aggref *agg)
{
	const AggInfo *info = agg_info(agg->aggfnoid);

	if (info == NULL || agg->aggorder != NIL ||
		agg->agglevelsup != 0 || agg->aggkind != AGGKIND_NORMAL)
		return false;
	if (agg->aggdistinct != NIL)
		return pqfdw_distinct_supported(agg);

	/*
	 * Partial aggregation hands the combine function the transition state;
	 * int8 and numeric sum/avg's is internal (a 128-bit or numeric sum),
	 * whose serialized form is numeric.c's own: those stay PostgreSQL's.
	 */
	if (agg->aggsplit == AGGSPLIT_INITIAL_SERIAL)
	{
		if ((info->argtype == INT8OID || info->argtype == NUMERICOID) &&
			(info->fn == AGG_SUM || info->fn == AGG_AVG))
			return false;
	}
	else if (agg->aggsplit != AGGSPLIT_SIMPLE)
		return false;
	return info->fn == AGG_COUNT_STAR ? agg->aggstar :
		list_length(agg->args) == 1;
}

bool
pqfdw_accum_skips_seen(Aggref *agg)
{
	const AggInfo *info = agg_info(agg->aggfnoid);

	return info != NULL && info->argtype == TEXTOID &&
		(info->fn == AGG_MIN || info->fn == AGG_MAX) &&
		OidIsValid(agg->inputcollid) &&
		get_collation_isdeterministic(agg->inputcollid);
}

Size
pqfdw_accum_group_bytes(Aggref *agg)
{
	/* the widest state: avg of floats, or a text value and its header */
	return 3 * sizeof(double) + sizeof(int128) + sizeof(bool) + 32 +
		2 * sizeof(uint32);
}

PqAccum *
pqfdw_accum_create(Aggref *agg, MemoryContext cxt)
{
	const AggInfo *info = agg_info(agg->aggfnoid);
	PqAccum    *a = MemoryContextAllocZero(cxt, sizeof(PqAccum));

	a->fn = info->fn;
	a->argtype = info->argtype;
	a->cxt = cxt;
	a->collation = agg->inputcollid;
	if (a->fn == AGG_COUNT)
		a->argtype = exprType((Node *) linitial_node(TargetEntry, agg->args)->expr);
	/* count(*) FILTER counts the rows its filter vector leaves non-null */
	if (a->fn == AGG_COUNT_STAR && agg->aggfilter != NULL)
	{
		a->fn = AGG_COUNT;
		a->argtype = BOOLOID;
	}
	if (a->fn != AGG_COUNT_STAR && !pqfdw_vkind_of(a->argtype, &a->kind))
		elog(ERROR, "aggregate %u over type %u in a grouped scan",
			 agg->aggfnoid, a->argtype);
	/* int8 sums and every numeric state: 128 bits */
	a->wide = (a->argtype == INT8OID &&
			   (a->fn == AGG_SUM || a->fn == AGG_AVG)) ||
		(a->argtype == NUMERICOID && a->fn != AGG_COUNT);
	a->partial = agg->aggsplit == AGGSPLIT_INITIAL_SERIAL;
	if (a->kind == PQV_DATUM && a->fn != AGG_COUNT)
	{
		fmgr_info_cxt(F_BTTEXTCMP, &a->cmp, cxt);
		a->bytewise = OidIsValid(a->collation) &&
			pqfdw_collate_is_c(a->collation);
		a->skip_seen = pqfdw_accum_skips_seen(agg);
	}
	return a;
}

/* Grow one state array from old to new elements, zeroing the new ones. */
static void *
grow(MemoryContext cxt, void *p, Size width, int old, int new)
{
	char	   *q;

	if (p == NULL)
		q = MemoryContextAllocHuge(cxt, width * new);
	else
		q = repalloc_huge(p, width * new);
	memset(q + width * old, 0, width * (new - old));
	return q;
}

void
pqfdw_accum_reserve(PqAccum *a, int ngroups)
{
	int			old = a->capacity;
	int			cap;

	if (ngroups <= old)
		return;
	cap = Max(ngroups, Max(16, old * 2));
	a->count = grow(a->cxt, a->count, sizeof(int64), old, cap);
	a->has = grow(a->cxt, a->has, sizeof(bool), old, cap);
	if (a->wide)
		a->i128 = grow(a->cxt, a->i128, sizeof(int128), old, cap);
	else if (pqfdw_vkind_integral(a->kind))
		a->i = grow(a->cxt, a->i, sizeof(int64), old, cap);
	else if (a->kind == PQV_DATUM)
	{
		a->datum = grow(a->cxt, a->datum, sizeof(Datum), old, cap);
		if (a->skip_seen)
		{
			a->last_dict = grow(a->cxt, a->last_dict, sizeof(uint32), old, cap);
			a->last_code = grow(a->cxt, a->last_code, sizeof(uint32), old, cap);
		}
	}
	else
		a->d = grow(a->cxt, a->d, sizeof(double), old, cap);
	if (a->fn == AGG_AVG && !pqfdw_vkind_integral(a->kind))
	{
		a->n = grow(a->cxt, a->n, sizeof(double), old, cap);
		a->sxx = grow(a->cxt, a->sxx, sizeof(double), old, cap);
	}
	a->capacity = cap;
}

/*
 * BODY for each row r with a value, g its group: one loop for grouped
 * input, one for a single group, with the states in restrict locals.
 */
#define FOR_VALUES(BODY) \
	do { \
		if (gids) \
			for (r = 0; r < n; r++) \
			{ \
				int			g = gids[r]; \
				if (!nulls[r]) { BODY; } \
			} \
		else \
			for (r = 0; r < n; r++) \
			{ \
				const int	g = 0; \
				if (!nulls[r]) { BODY; } \
			} \
	} while (0)

/* float8_accum()'s Youngs-Cramer step, its overflow error included */
static inline void
float_accum(double *restrict an, double *restrict asx, double *restrict asxx,
			int g, double v)
{
	double		n0 = an[g];
	double		sx0 = asx[g];
	double		n = n0 + 1.0;
	double		sx = sx0 + v;
	double		sxx = asxx[g];

	if (n0 > 0.0)
	{
		double		tmp = v * n - sx;

		sxx += tmp * tmp / (n * n0);
		if (isinf(sx) || isinf(sxx))
		{
			if (!isinf(sx0) && !isinf(v))
				float_overflow_error();
			sxx = get_float8_nan();
		}
	}
	else if (isnan(v) || isinf(v))
		sxx = get_float8_nan();
	an[g] = n;
	asx[g] = sx;
	asxx[g] = sxx;
}

/*
 * Integer sum or avg of one group (no GROUP BY): the batch summed into
 * locals without a branch (a NULL row adds 0 and counts nothing), then
 * into the state.  Integer sums wrap as the state's own additions do, so
 * the order does not change the result.
 */
static void
sum_one_group(PqAccum *a, int n, const PqVector *arg)
{
	const bool *nulls = arg->nulls;
	const int64 *v = arg->i;
	int64		c = 0;
	int			r;

	if (a->wide)
	{
		int128		s = 0;

		for (r = 0; r < n; r++)
		{
			uint64		keep = (uint64) nulls[r] - 1;	/* all ones unless NULL */

			s += (int64) ((uint64) v[r] & keep);
			c += !nulls[r];
		}
		a->i128[0] += s;
	}
	else
	{
		uint64		s = 0;

		for (r = 0; r < n; r++)
		{
			uint64		keep = (uint64) nulls[r] - 1;

			s += (uint64) v[r] & keep;
			c += !nulls[r];
		}
		a->i[0] = (int64) ((uint64) a->i[0] + s);
	}
	a->count[0] += c;
	if (c > 0)
		a->has[0] = true;
}

void
pqfdw_accum_add_sum(PqAccum *a, int128 sum, int64 count)
{
	Assert(a->fn == AGG_SUM || a->fn == AGG_AVG);
	if (a->wide)
		a->i128[0] += sum;
	else
		a->i[0] = (int64) ((uint64) a->i[0] + (uint64) (int64) sum);
	a->count[0] += count;
	if (count > 0)
		a->has[0] = true;
}

static void
update_int(PqAccum *a, const int32 *gids, int n, const PqVector *arg)
{
	const bool *nulls = arg->nulls;
	const int64 *v = arg->i;
	int64	   *restrict cnt = a->count;
	int64	   *restrict st = a->i;
	int128	   *restrict wide = a->i128;
	bool	   *restrict has = a->has;
	int			r;

	if (gids == NULL && (a->fn == AGG_SUM || a->fn == AGG_AVG))
	{
		sum_one_group(a, n, arg);
		return;
	}
	switch (a->fn)
	{
		case AGG_SUM:
		case AGG_AVG:
			if (a->wide)
				FOR_VALUES(cnt[g]++; has[g] = true; wide[g] += v[r]);
			else
				/* int4_sum and int4_avg_accum add without overflow checks */
				FOR_VALUES(cnt[g]++; has[g] = true;
						   st[g] = (int64) ((uint64) st[g] + (uint64) v[r]));
			break;
		case AGG_MIN:
			FOR_VALUES(if (!has[g] || v[r] < st[g]) st[g] = v[r];
					   has[g] = true);
			break;
		case AGG_MAX:
			FOR_VALUES(if (!has[g] || v[r] > st[g]) st[g] = v[r];
					   has[g] = true);
			break;
		case AGG_BOOL_AND:
			FOR_VALUES(st[g] = has[g] ? (st[g] && v[r]) : v[r];
					   has[g] = true);
			break;
		case AGG_BOOL_OR:
			FOR_VALUES(st[g] = has[g] ? (st[g] || v[r]) : v[r];
					   has[g] = true);
			break;
		default:
			elog(ERROR, "integer aggregate %d", (int) a->fn);
	}
}

/* numeric states in 128 bits, of narrow (i) or wide (w) values */
static void
update_numeric(PqAccum *a, const int32 *gids, int n, const PqVector *arg)
{
	const bool *nulls = arg->nulls;
	int64	   *restrict cnt = a->count;
	int128	   *restrict st = a->i128;
	bool	   *restrict has = a->has;
	int			r;

	switch (a->fn)
	{
		case AGG_SUM:
		case AGG_AVG:
			if (arg->w == NULL)
				FOR_VALUES(cnt[g]++; has[g] = true; st[g] += arg->i[r]);
			else				/* only wide values can pass 128 bits: the
								 * plan bounded their sums */
				FOR_VALUES(cnt[g]++; has[g] = true;
						   if (__builtin_add_overflow(st[g], arg->w[r], &st[g]))
						   pqfdw_numeric_bound_error("A numeric sum went past 128 bits."));
			break;
		case AGG_MIN:
			FOR_VALUES(int128 v = pqfdw_vdecimal(arg, r);
					   if (!has[g] || v < st[g]) st[g] = v;
					   has[g] = true);
			break;
		case AGG_MAX:
			FOR_VALUES(int128 v = pqfdw_vdecimal(arg, r);
					   if (!has[g] || v > st[g]) st[g] = v;
					   has[g] = true);
			break;
		default:
			elog(ERROR, "numeric aggregate %d", (int) a->fn);
	}
}

static void
update_float(PqAccum *a, const int32 *gids, int n, const PqVector *arg)
{
	const bool *nulls = arg->nulls;
	const double *v = arg->d;
	double	   *restrict st = a->d;
	bool	   *restrict has = a->has;
	int			r;

	switch (a->fn)
	{
		case AGG_SUM:
			/* the first value is the state; then float4pl or float8pl */
			if (a->kind == PQV_FLOAT4)
				FOR_VALUES(st[g] = has[g] ?
						   float4_pl((float4) st[g], (float4) v[r]) : v[r];
						   has[g] = true);
			else
				FOR_VALUES(st[g] = has[g] ? float8_pl(st[g], v[r]) : v[r];
						   has[g] = true);
			break;
		case AGG_AVG:
			{
				double	   *restrict an = a->n;
				double	   *restrict asxx = a->sxx;

				FOR_VALUES(float_accum(an, st, asxx, g, v[r]));
			}
			break;
		case AGG_MIN:
			/* float8smaller: the state stays only when strictly smaller */
			FOR_VALUES(if (!has[g] || !float8_lt(st[g], v[r])) st[g] = v[r];
					   has[g] = true);
			break;
		case AGG_MAX:
			FOR_VALUES(if (!has[g] || !float8_gt(st[g], v[r])) st[g] = v[r];
					   has[g] = true);
			break;
		default:
			elog(ERROR, "float aggregate %d", (int) a->fn);
	}
}

static inline bool
toasted(const struct varlena *v)
{
	return VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v);
}

/*
 * bttextcmp(x, y).  Under the C collation that is varstr_cmp's memcmp and
 * then the lengths, done here without a function call per row: on many
 * small dictionaries the call was most of the comparison's time.
 */
static inline int
text_cmp(PqAccum *a, Datum x, Datum y)
{
	struct varlena *vx = (struct varlena *) DatumGetPointer(x);
	struct varlena *vy = (struct varlena *) DatumGetPointer(y);

	if (a->bytewise && !toasted(vx) && !toasted(vy))
	{
		Size		lx = VARSIZE_ANY_EXHDR(vx);
		Size		ly = VARSIZE_ANY_EXHDR(vy);
		int			c = memcmp(VARDATA_ANY(vx), VARDATA_ANY(vy), Min(lx, ly));

		if (c != 0 || lx == ly)
			return c;
		return lx < ly ? -1 : 1;
	}
	return DatumGetInt32(FunctionCall2Coll(&a->cmp, a->collation, x, y));
}

/* text min/max: text_smaller/text_larger keep the new value on ties */
static inline void
update_text_row(PqAccum *a, int g, Datum value)
{
	MemoryContext old;

	if (a->has[g])
	{
		int			c = text_cmp(a, a->datum[g], value);

		if (a->fn == AGG_MIN ? c < 0 : c > 0)
			return;
		pfree(DatumGetPointer(a->datum[g]));
	}
	old = MemoryContextSwitchTo(a->cxt);
	a->datum[g] = PointerGetDatum(PG_DETOAST_DATUM_COPY(value));
	MemoryContextSwitchTo(old);
	a->has[g] = true;
}

/*
 * Rows of one dictionary index hold the same bytes.  Once such a value has
 * reached a min state, the state is at most that value from then on; under
 * a deterministic collation only identical bytes compare equal, so taking
 * the value again on a tie changes nothing.  The same holds for max.  So
 * each index is compared once per dictionary (once per run in a group).
 */
static void
update_text_codes(PqAccum *a, const int32 *gids, int n, const PqVector *arg)
{
	const PqBatchCodes *bc = arg->codes;
	const uint32 *codes = bc->codes;
	int			r;

	if (gids == NULL)
	{
		bool	   *seen = pqfdw_dict_seen(&a->seen, bc, a->cxt);

		for (r = 0; r < n; r++)
		{
			uint32		code = codes[r];

			if (arg->nulls[r])
				continue;
			if (code < (uint32) bc->dict_count)
			{
				if (seen[code])
					continue;
				seen[code] = true;
			}
			update_text_row(a, 0, arg->p[r]);
		}
		return;
	}
	for (r = 0; r < n; r++)
	{
		int			g = gids[r];
		uint32		code = codes[r];

		if (arg->nulls[r])
			continue;
		if (code != PQFDW_NO_CODE)
		{
			if (a->last_dict[g] == bc->dict_id && a->last_code[g] == code)
				continue;
			a->last_dict[g] = bc->dict_id;
			a->last_code[g] = code;
		}
		update_text_row(a, g, arg->p[r]);
	}
}

static void
update_text(PqAccum *a, const int32 *gids, int n, const PqVector *arg)
{
	int			r;

	if (a->skip_seen && arg->codes != NULL && arg->codes->dict_id != 0)
	{
		update_text_codes(a, gids, n, arg);
		return;
	}
	for (r = 0; r < n; r++)
		if (!arg->nulls[r])
			update_text_row(a, gids ? gids[r] : 0, arg->p[r]);
}

void
pqfdw_accum_update(PqAccum *a, const int32 *gids, int n, const PqVector *arg)
{
	int			r;

	if (a->fn == AGG_COUNT_STAR)
	{
		if (gids == NULL)
			a->count[0] += n;
		else
			for (r = 0; r < n; r++)
				a->count[gids[r]]++;
		return;
	}
	if (a->fn == AGG_COUNT)
	{
		const bool *nulls = arg->nulls;
		int64	   *restrict cnt = a->count;

		FOR_VALUES(cnt[g]++);
		return;
	}
	if (a->kind == PQV_DECIMAL)
	{
		a->scale = arg->scale;
		update_numeric(a, gids, n, arg);
	}
	else if (pqfdw_vkind_integral(a->kind))
		update_int(a, gids, n, arg);
	else if (a->kind == PQV_DATUM)
		update_text(a, gids, n, arg);
	else
		update_float(a, gids, n, arg);
}

/*
 * avg's transition state, for its combine function: int8[] {count, sum}
 * of int4_avg_accum, float8[] {N, Sx, Sxx} of float8_accum.
 */
static Datum
avg_state(PqAccum *a, int g)
{
	Datum		elems[3];

	if (a->kind == PQV_INT)
	{
		elems[0] = Int64GetDatum(a->count[g]);
		elems[1] = Int64GetDatum(a->i[g]);
		return PointerGetDatum(construct_array(elems, 2, INT8OID, sizeof(int64),
											   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	}
	elems[0] = Float8GetDatum(a->n[g]);
	elems[1] = Float8GetDatum(a->d[g]);
	elems[2] = Float8GetDatum(a->sxx[g]);
	return PointerGetDatum(construct_array(elems, 3, FLOAT8OID, sizeof(float8),
										   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

Datum
pqfdw_accum_final(PqAccum *a, int g, bool *isnull)
{
	*isnull = false;
	switch (a->fn)
	{
		case AGG_COUNT_STAR:
		case AGG_COUNT:
			return Int64GetDatum(a->count[g]);
		case AGG_SUM:
			if (!a->has[g])
				break;
			/* numeric_poly_sum, numeric_sum: dscale the inputs' (0 or scale) */
			if (a->wide)
				return pqfdw_unscaled_numeric(a->i128[g], a->scale);
			if (a->kind == PQV_INT)
				return Int64GetDatum(a->i[g]);
			if (a->kind == PQV_FLOAT4)
				return Float4GetDatum((float4) a->d[g]);
			return Float8GetDatum(a->d[g]);
		case AGG_AVG:
			if (a->partial)
				return avg_state(a, g);
			if (!pqfdw_vkind_integral(a->kind))
			{
				/* float8_avg */
				if (a->n[g] == 0.0)
					break;
				return Float8GetDatum(a->d[g] / a->n[g]);
			}
			/* int8_avg, numeric_poly_avg, numeric_avg: sum / count in numeric */
			if (a->count[g] == 0)
				break;
			return DirectFunctionCall2(numeric_div,
									   a->wide ? pqfdw_unscaled_numeric(a->i128[g], a->scale) :
									   NumericGetDatum(int64_to_numeric(a->i[g])),
									   NumericGetDatum(int64_to_numeric(a->count[g])));
		case AGG_MIN:
		case AGG_MAX:
		case AGG_BOOL_AND:
		case AGG_BOOL_OR:
			if (!a->has[g])
				break;
			if (a->kind == PQV_INT)
				return pqfdw_vint_datum(a->argtype, a->i[g]);
			if (a->kind == PQV_DECIMAL)
				return pqfdw_unscaled_numeric(a->i128[g], a->scale);
			if (a->kind == PQV_FLOAT4)
				return Float4GetDatum((float4) a->d[g]);
			if (a->kind == PQV_FLOAT8)
				return Float8GetDatum(a->d[g]);
			return datumCopy(a->datum[g], false, -1);
	}
	*isnull = true;
	return (Datum) 0;
}
