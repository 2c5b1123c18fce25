/*-------------------------------------------------------------------------
 *
 * vexpr_func.c
 *		Calls of immutable PostgreSQL functions in vector expressions
 *		(regexp_replace(), length(), lower(), date_trunc(), casts ...):
 *		once per dictionary entry where the one variable argument comes
 *		with dictionary indices, else once per row, through fmgr.
 *
 * An immutable function's result depends on its arguments only, so rows
 * that share a dictionary index share a result: the node computes it the
 * first time a row of the batch names the index (only the entries rows
 * reach, so an entry no row uses cannot raise an error PostgreSQL would
 * not) and gathers the results by index.  The results of one dictionary
 * are kept until another comes; a memo by input value carries them to the
 * next row group's dictionary, which mostly holds the same strings.  The
 * result vector keeps the argument's indices: rows with one index still
 * have one value (several indices may now share a value, which the group
 * table and the text accumulators allow).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "fdw/pushdown/vexpr_node.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "portability/instr_time.h"
#include "utils/datum.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* A memoised result, by input value. */
typedef struct MemoEntry
{
	Datum		key;			/* the input: a varlena copy, or by value */
	uint32		hash;
	char		status;
	bool		isnull;
	Datum		result;
} MemoEntry;

struct PqVFunc;

static inline uint32 memo_key_hash(struct PqVFunc *f, Datum key);
static inline bool memo_key_equal(struct PqVFunc *f, Datum a, Datum b);

#define SH_PREFIX vmemo
#define SH_ELEMENT_TYPE MemoEntry
#define SH_KEY_TYPE Datum
#define SH_KEY key
#define SH_HASH_KEY(tb, k) memo_key_hash((struct PqVFunc *) (tb)->private_data, k)
#define SH_EQUAL(tb, a, b) memo_key_equal((struct PqVFunc *) (tb)->private_data, a, b)
#define SH_GET_HASH(tb, a) a->hash
#define SH_STORE_HASH
#define SH_SCOPE static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

typedef struct PqVFunc
{
	FmgrInfo	flinfo;
	FunctionCallInfo fcinfo;
	bool		strict;
	bool		null_const;		/* strict, with a NULL constant argument */
	int		   *pos;			/* per variable argument: its position */
	bool		by_text;		/* the one variable argument is text */
	Oid			arg_type;		/* of the one variable argument */
	int16		typlen;			/* of the result */
	bool		typbyval;
	MemoryContext row_cxt;		/* per-row results and calls, per batch */
	MemoryContext cache_cxt;	/* results by index and memo */
	Size		cache_limit;

	/* results by dictionary index of dictionary dict_id */
	uint32		dict_id;
	int			dict_cap;
	bool	   *done;
	bool	   *cnull;
	int64	   *ci;
	double	   *cd;
	Datum	   *cp;

	vmemo_hash *memo;
	bool		use_memo;		/* calls cost more than lookups */
	int			timed_calls;
	double		timed_seconds;
} PqVFunc;

static inline uint32
memo_key_hash(PqVFunc *f, Datum key)
{
	if (f->by_text)
	{
		Pointer		t = DatumGetPointer(key);

		return hash_bytes((const unsigned char *) VARDATA_ANY(t),
						  VARSIZE_ANY_EXHDR(t));
	}
	return hash_combine(hash_bytes_uint32((uint32) key),
						hash_bytes_uint32((uint32) (key >> 32)));
}

static inline bool
memo_key_equal(PqVFunc *f, Datum a, Datum b)
{
	Pointer		x;
	Pointer		y;

	if (!f->by_text)
		return a == b;
	x = DatumGetPointer(a);
	y = DatumGetPointer(b);
	return VARSIZE_ANY_EXHDR(x) == VARSIZE_ANY_EXHDR(y) &&
		memcmp(VARDATA_ANY(x), VARDATA_ANY(y), VARSIZE_ANY_EXHDR(x)) == 0;
}

/* A result of a float type as the vector holds it. */
static inline double
result_float(Oid type, Datum d)
{
	return type == FLOAT4OID ? DatumGetFloat4(d) : DatumGetFloat8(d);
}

/*
 * A result in PqVector.i: an integer type's value, or a numeric's (always
 * an integer: vexpr_support.c's integral_extract()) at scale 0.
 */
static inline int64
result_integer(PqVExpr *e, Datum d)
{
	if (e->out.kind == PQV_DECIMAL)
		return DatumGetInt64(DirectFunctionCall1(numeric_int8, d));
	return pqfdw_vint_value(e->out.type, d);
}

/* Result d of the function into row r of e's vector. */
static inline void
set_result(PqVExpr *e, int r, Datum d, bool isnull)
{
	e->nbuf[r] = isnull;
	if (isnull)
		d = (Datum) 0;
	if (pqfdw_vkind_integral(e->out.kind))
		e->out.i[r] = isnull ? 0 : result_integer(e, d);
	else if (e->out.kind == PQV_DATUM)
		e->pbuf[r] = d;
	else
		e->out.d[r] = isnull ? 0 : result_float(e->out.type, d);
}

void
pqfdw_vexpr_func_setup(PqVExpr *e, Expr *expr, Oid funcid, List *args)
{
	PqVFunc    *f = palloc0(sizeof(PqVFunc));
	ListCell   *lc;
	int			nargs = list_length(args);
	int			i = 0;
	int			j = 0;

	e->fn = f;
	fmgr_info(funcid, &f->flinfo);
	fmgr_info_set_expr((Node *) expr, &f->flinfo);
	f->strict = f->flinfo.fn_strict;
	f->fcinfo = palloc0(SizeForFunctionCallInfo(nargs));
	InitFunctionCallInfoData(*f->fcinfo, &f->flinfo, nargs,
							 exprInputCollation((Node *) expr), NULL, NULL);
	f->pos = palloc(sizeof(int) * nargs);
	foreach(lc, args)
	{
		Expr	   *arg = lfirst(lc);

		if (IsA(arg, Const))
		{
			f->fcinfo->args[i].value = ((Const *) arg)->constvalue;
			f->fcinfo->args[i].isnull = ((Const *) arg)->constisnull;
			f->null_const |= f->strict && ((Const *) arg)->constisnull;
		}
		else
		{
			f->pos[j++] = i;
			f->arg_type = exprType((Node *) arg);
		}
		i++;
	}
	Assert(j == e->nargs);
	f->by_text = j == 1 && e->args[0]->out.kind == PQV_DATUM &&
		get_typlen(f->arg_type) == -1;
	get_typlenbyval(e->out.type, &f->typlen, &f->typbyval);
	f->row_cxt = AllocSetContextCreate(CurrentMemoryContext,
									   "parquet_fdw function results",
									   ALLOCSET_DEFAULT_SIZES);
	f->cache_cxt = AllocSetContextCreate(CurrentMemoryContext,
										 "parquet_fdw function results by value",
										 ALLOCSET_DEFAULT_SIZES);
	f->cache_limit = (Size) work_mem * 1024;
	f->memo = vmemo_create(f->cache_cxt, 256, f);
}

/*
 * The memo pays when a call costs more than a lookup (a cache miss or two
 * on the stored input): regexp_replace() takes microseconds, length() tens
 * of nanoseconds.  The first calls are timed to decide.
 */
#define MEMO_PROBE_CALLS 64
#define MEMO_MIN_CALL_SECONDS 250e-9

/* The result for the rows of one dictionary index: memo, else a call. */
static void
compute_entry(PqVExpr *e, PqVFunc *f, uint32 code, Datum in)
{
	MemoEntry  *m = f->use_memo ? vmemo_lookup(f->memo, in) : NULL;
	Datum		d;
	bool		isnull;

	if (m != NULL)
	{
		d = m->result;
		isnull = m->isnull;
	}
	else
	{
		FunctionCallInfo fc = f->fcinfo;
		bool		timed = f->timed_calls < MEMO_PROBE_CALLS;
		instr_time	start;
		instr_time	end;
		MemoryContext old = MemoryContextSwitchTo(f->row_cxt);

		if (timed)
			INSTR_TIME_SET_CURRENT(start);
		fc->args[f->pos[0]].value = in;
		fc->args[f->pos[0]].isnull = false;
		fc->isnull = false;
		d = FunctionCallInvoke(fc);
		isnull = fc->isnull;
		if (timed)
		{
			INSTR_TIME_SET_CURRENT(end);
			INSTR_TIME_SUBTRACT(end, start);
			f->timed_seconds += INSTR_TIME_GET_DOUBLE(end);
			if (++f->timed_calls == MEMO_PROBE_CALLS)
				f->use_memo = f->timed_seconds >=
					MEMO_MIN_CALL_SECONDS * MEMO_PROBE_CALLS;
		}
		/* kept with the dictionary's results, past this batch */
		MemoryContextSwitchTo(f->cache_cxt);
		if (!isnull)
			d = datumCopy(d, f->typbyval, f->typlen);
		if (f->use_memo)
		{
			bool		found;

			if (f->by_text)
				in = PointerGetDatum(PG_DETOAST_DATUM_COPY(in));
			m = vmemo_insert(f->memo, in, &found);
			m->isnull = isnull;
			m->result = isnull ? (Datum) 0 : d;
		}
		MemoryContextSwitchTo(old);
	}
	f->done[code] = true;
	f->cnull[code] = isnull;
	if (pqfdw_vkind_integral(e->out.kind))
		f->ci[code] = isnull ? 0 : result_integer(e, d);
	else if (e->out.kind == PQV_DATUM)
		f->cp[code] = isnull ? (Datum) 0 : d;
	else
		f->cd[code] = isnull ? 0 : result_float(e->out.type, d);
}

/* Start on dictionary bc: its results, or none yet. */
static void
use_dictionary(PqVFunc *f, const PqBatchCodes *bc, PqVKind kind)
{
	if (f->dict_id == bc->dict_id)
		return;
	if (f->dict_cap < bc->dict_count)
	{
		MemoryContext cxt = GetMemoryChunkContext(f);
		int			cap = Max(bc->dict_count, 1024);

		if (f->done)
		{
			pfree(f->done);
			pfree(f->cnull);
			if (f->ci)
				pfree(f->ci);
			if (f->cd)
				pfree(f->cd);
			if (f->cp)
				pfree(f->cp);
		}
		f->done = MemoryContextAllocHuge(cxt, cap);
		f->cnull = MemoryContextAllocHuge(cxt, cap);
		f->ci = pqfdw_vkind_integral(kind) ?
			MemoryContextAllocHuge(cxt, sizeof(int64) * cap) : NULL;
		f->cd = kind == PQV_FLOAT4 || kind == PQV_FLOAT8 ?
			MemoryContextAllocHuge(cxt, sizeof(double) * cap) : NULL;
		f->cp = kind == PQV_DATUM ?
			MemoryContextAllocHuge(cxt, sizeof(Datum) * cap) : NULL;
		f->dict_cap = cap;
	}
	memset(f->done, 0, bc->dict_count);
	f->dict_id = bc->dict_id;
}

/* Row r's own call: the argument's value or NULL. */
static void
row_call(PqVExpr *e, PqVFunc *f, int r, const PqVector *a, const bool *skip)
{
	FunctionCallInfo fc = f->fcinfo;
	MemoryContext old;
	Datum		d;

	if (a->nulls[r] && (f->strict || (skip && skip[r])))
	{
		set_result(e, r, (Datum) 0, true);
		return;
	}
	old = MemoryContextSwitchTo(f->row_cxt);
	fc->args[f->pos[0]].isnull = a->nulls[r];
	fc->args[f->pos[0]].value = a->nulls[r] ? (Datum) 0 : pqfdw_vector_datum(a, r);
	fc->isnull = false;
	d = FunctionCallInvoke(fc);
	MemoryContextSwitchTo(old);
	set_result(e, r, d, fc->isnull);
}

/*
 * Rows by dictionary index bc: compute the indices rows name for the first
 * time, then gather.  Rows without one (NULLs, rows the skip mask left
 * NULL, values of pages that fell back from the dictionary) get their own
 * calls, or none.
 */
static void
eval_by_code(PqVExpr *e, PqVFunc *f, int n, const PqVector *a,
			 const PqBatchCodes *bc, const bool *skip)
{
	const uint32 *codes = bc->codes;
	PqVKind		kind = e->out.kind;
	int			r;

	use_dictionary(f, bc, kind);
	for (r = 0; r < n; r++)
	{
		uint32		code = codes[r];

		if (code != PQFDW_NO_CODE && !a->nulls[r] && !f->done[code])
			compute_entry(e, f, code, pqfdw_vector_datum(a, r));
	}
	for (r = 0; r < n; r++)
	{
		uint32		code = codes[r];

		if (code == PQFDW_NO_CODE || a->nulls[r])
		{
			row_call(e, f, r, a, skip);
			continue;
		}
		e->nbuf[r] = f->cnull[code];
		if (pqfdw_vkind_integral(kind))
			e->out.i[r] = f->ci[code];
		else if (kind == PQV_DATUM)
			e->pbuf[r] = f->cp[code];
		else
			e->out.d[r] = f->cd[code];
	}
}

/* Every row its own call (NULL without one for a strict function). */
static void
eval_by_row(PqVExpr *e, PqVFunc *f, int n, const bool *skip)
{
	FunctionCallInfo fc = f->fcinfo;
	MemoryContext old = MemoryContextSwitchTo(f->row_cxt);
	int			r;
	int			j;

	for (r = 0; r < n; r++)
	{
		bool		any_null = false;
		Datum		d;

		if (skip && skip[r])
		{
			set_result(e, r, (Datum) 0, true);
			continue;
		}
		for (j = 0; j < e->nargs; j++)
		{
			const PqVector *v = &e->args[j]->out;
			NullableDatum *arg = &fc->args[f->pos[j]];

			arg->isnull = v->nulls[r];
			arg->value = v->nulls[r] ? (Datum) 0 : pqfdw_vector_datum(v, r);
			any_null |= v->nulls[r];
		}
		if (f->null_const || (f->strict && any_null))
		{
			set_result(e, r, (Datum) 0, true);
			continue;
		}
		fc->isnull = false;
		d = FunctionCallInvoke(fc);
		set_result(e, r, d, fc->isnull);
	}
	MemoryContextSwitchTo(old);
}

void
pqfdw_vexpr_func_apply(PqVExpr *e, int n, const bool *skip)
{
	PqVFunc    *f = e->fn;
	const PqVector *a = e->nargs == 1 ? &e->args[0]->out : NULL;

	/* the previous batch's results are no longer used */
	MemoryContextReset(f->row_cxt);
	if (MemoryContextMemAllocated(f->cache_cxt, false) > f->cache_limit)
	{
		MemoryContextReset(f->cache_cxt);
		f->memo = vmemo_create(f->cache_cxt, 256, f);
		f->dict_id = 0;
	}
	e->out.codes = NULL;
	e->out.scale = 0;
	if (a != NULL)
	{
		const PqBatchCodes *bc = a->codes;

		/* a column's indices under a skip mask too (its rows then NULL) */
		if (bc == NULL && e->args[0]->op == VOP_VAR)
			bc = e->args[0]->var_codes;
		if (bc != NULL && bc->dict_id != 0 && !f->null_const &&
			a->kind != PQV_DECIMAL)
		{
			eval_by_code(e, f, n, a, bc, skip);
			/* handed on only without a mask, as eval_var hands them */
			if (skip == NULL)
				e->out.codes = bc;
			return;
		}
	}
	eval_by_row(e, f, n, skip);
}
