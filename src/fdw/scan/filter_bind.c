/*-------------------------------------------------------------------------
 *
 * filter_bind.c
 *		How a filter leaf reads a column's values: raw, in the file's own
 *		terms, or as Datums through the operator's function.
 *
 * A leaf is bound at the first segment of its column, when the converter
 * tells what the file holds.  Raw evaluation is chosen only where comparing
 * the file's values with the constants translated once gives PostgreSQL's
 * answer: integers, floats, dates and microsecond timestamps against
 * constants of their own kind; DECIMALs held as integers against numeric
 * constants scaled to the column's scale; strings as bytes for equality
 * under deterministic collations, order under "C", LIKE, and ILIKE where
 * lower() is ASCII's (a "C" or "POSIX" ctype).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_type_d.h"
#include "common/int.h"
#include "datatype/timestamp.h"
#include "fdw/common/pg_compat.h"
#include "fdw/scan/filter_program.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/pg_locale.h"
#include "utils/timestamp.h"

/* PostgreSQL's epochs after Unix's, in days and microseconds */
#define PG_EPOCH_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)
#define PG_EPOCH_USECS ((int64) PG_EPOCH_DAYS * USECS_PER_DAY)

/*
 * LIKE's pattern as literal parts between '%' (escape '\'); NULL when it
 * has '_' or ends in an escape (the operator's function decides those).
 * ILIKE's pattern is lowered first, as PostgreSQL lowers it before
 * matching.
 */
static PqLikePattern *
parse_like(text *pat, bool lower)
{
	const char *p = VARDATA_ANY(pat);
	int			len = VARSIZE_ANY_EXHDR(pat);
	PqLikePattern *lp = palloc0(sizeof(PqLikePattern));
	char	   *buf = palloc(len + 1);
	int			blen = 0;
	int			i;

	lp->parts = palloc(sizeof(char *) * (len + 1));
	lp->lens = palloc(sizeof(int) * (len + 1));
	lp->anchored_start = len == 0 || p[0] != '%';
	lp->anchored_end = true;
	for (i = 0; i < len; i++)
	{
		if (p[i] == '_')
			return NULL;
		if (p[i] == '\\')
		{
			if (++i == len)
				return NULL;
			buf[blen++] = lower ? pg_ascii_tolower(p[i]) : p[i];
			lp->anchored_end = true;
			continue;
		}
		if (p[i] == '%')
		{
			if (blen > 0)
			{
				lp->parts[lp->nparts] = pnstrdup(buf, blen);
				lp->lens[lp->nparts++] = blen;
				blen = 0;
			}
			lp->anchored_end = false;
			continue;
		}
		buf[blen++] = lower ? pg_ascii_tolower(p[i]) : p[i];
		lp->anchored_end = true;
	}
	if (blen > 0)
	{
		lp->parts[lp->nparts] = pnstrdup(buf, blen);
		lp->lens[lp->nparts++] = blen;
	}
	return lp;
}

static bool
int_const(Oid type, Datum d, int64 *out)
{
	switch (type)
	{
		case INT2OID:
			*out = DatumGetInt16(d);
			return true;
		case INT4OID:
			*out = DatumGetInt32(d);
			return true;
		case INT8OID:
			*out = DatumGetInt64(d);
			return true;
	}
	return false;
}

static int
numeric_order(Numeric a, Numeric b)
{
	return DatumGetInt32(DirectFunctionCall2(numeric_cmp, NumericGetDatum(a),
											 NumericGetDatum(b)));
}

/* n as an int64 when it is an integer in int64's range. */
static bool
numeric_to_int64(Numeric n, int64 *out)
{
	if (numeric_order(n, int64_to_numeric(PG_INT64_MIN)) < 0 ||
		numeric_order(n, int64_to_numeric(PG_INT64_MAX)) > 0)
		return false;
	*out = DatumGetInt64(DirectFunctionCall1(numeric_int8,
											 NumericGetDatum(n)));
	return true;
}

/*
 * A numeric constant c as a bound on a DECIMAL's unscaled values u (the
 * value is u / 10^scale), such that "u cmp bound" is "value cmp c": c is
 * multiplied by 10^scale; when that is not an integer, "<" and ">=" move
 * to its ceiling and "<=" and ">" to its floor, and "=" and "<>" are left
 * to the operator.  False for NaN, infinities and bounds past int64.
 */
static bool
decimal_bound(Numeric c, int scale, PqCmp cmp, int64 *bound)
{
	Numeric		scaled;
	Numeric		whole;
	int64		pow10 = 1;
	bool		err = false;

	/* an INT64 DECIMAL's scale is at most its precision, 18 */
	if (numeric_is_nan(c) || numeric_is_inf(c) || scale < 0 || scale > 18)
		return false;
	while (scale-- > 0)
		pow10 *= 10;
	scaled = numeric_mul_opt_error(c, int64_to_numeric(pow10), &err);
	if (err)
		return false;
	whole = DatumGetNumeric(DirectFunctionCall1(numeric_floor,
												NumericGetDatum(scaled)));
	if (numeric_order(whole, scaled) != 0)
	{
		if (cmp == PQC_EQ || cmp == PQC_NE)
			return false;
		if (cmp == PQC_LT || cmp == PQC_GE)
			whole = DatumGetNumeric(DirectFunctionCall1(numeric_ceil,
														NumericGetDatum(scaled)));
	}
	return numeric_to_int64(whole, bound);
}

/* Whether the leaf's constants become raw terms of kind raw. */
static bool
translate_consts(PqFilterLeaf *leaf, PqConverter *cv, PqRawKind raw)
{
	Oid			nat = cv->natural_type;
	int			k;

	leaf->ivals = palloc(sizeof(int64) * Max(leaf->nconsts, 1));
	leaf->fvals = palloc(sizeof(double) * Max(leaf->nconsts, 1));
	leaf->strs = palloc(sizeof(char *) * Max(leaf->nconsts, 1));
	leaf->lens = palloc(sizeof(int) * Max(leaf->nconsts, 1));
	for (k = 0; k < leaf->nconsts; k++)
	{
		Datum		c = leaf->consts[k];

		if (raw == PQR_FLOAT || raw == PQR_DOUBLE)
		{
			if (leaf->consttype == FLOAT4OID)
				leaf->fvals[k] = DatumGetFloat4(c);
			else if (leaf->consttype == FLOAT8OID)
				leaf->fvals[k] = DatumGetFloat8(c);
			else
				return false;
		}
		else if (raw == PQR_TEXT)
		{
			text	   *t = DatumGetTextPP(c);

			leaf->strs[k] = VARDATA_ANY(t);
			leaf->lens[k] = VARSIZE_ANY_EXHDR(t);
			if (leaf->cmp == PQC_LIKE || leaf->cmp == PQC_NOT_LIKE ||
				leaf->cmp == PQC_ILIKE || leaf->cmp == PQC_NOT_ILIKE)
			{
				bool		lower = leaf->cmp == PQC_ILIKE ||
				leaf->cmp == PQC_NOT_ILIKE;

				if (leaf->nconsts != 1 ||
					(leaf->like = parse_like(t, lower)) == NULL)
					return false;
			}
		}
		else if (nat == NUMERICOID)
		{
			if (leaf->consttype != NUMERICOID ||
				!decimal_bound(DatumGetNumeric(c), cv->decimal_scale,
							   leaf->cmp, &leaf->ivals[k]))
				return false;
		}
		else if (nat == DATEOID)
		{
			if (leaf->consttype != DATEOID || DATE_NOT_FINITE(DatumGetDateADT(c)))
				return false;
			leaf->ivals[k] = (int64) DatumGetDateADT(c) + PG_EPOCH_DAYS;
		}
		else if (nat == TIMESTAMPOID || nat == TIMESTAMPTZOID)
		{
			if (leaf->consttype != nat ||
				TIMESTAMP_NOT_FINITE(DatumGetTimestamp(c)) ||
				pg_add_s64_overflow(DatumGetTimestamp(c), PG_EPOCH_USECS,
									&leaf->ivals[k]))
				return false;
		}
		else if (!int_const(leaf->consttype, c, &leaf->ivals[k]))
			return false;
	}
	return true;
}

/* The raw kind for a text column's leaf, or PQR_DATUM. */
static PqRawKind
text_raw(PqFilterLeaf *leaf, int pt)
{
	Oid			coll = leaf->collation;

	if (pt != PQ_BYTE_ARRAY || GetDatabaseEncoding() != PG_UTF8 ||
		leaf->consttype != TEXTOID || !OidIsValid(coll))
		return PQR_DATUM;
	switch (leaf->cmp)
	{
		case PQC_LIKE:
		case PQC_NOT_LIKE:
			return get_collation_isdeterministic(coll) ? PQR_TEXT : PQR_DATUM;
		case PQC_ILIKE:
		case PQC_NOT_ILIKE:
			/* lower() of a "C" ctype lowers ASCII letters only */
			return pqfdw_ctype_is_c(coll) ? PQR_TEXT : PQR_DATUM;
		case PQC_EQ:
		case PQC_NE:
			return leaf->opfamily == TEXT_BTREE_FAM_OID &&
				get_collation_isdeterministic(coll) ? PQR_TEXT : PQR_DATUM;
		default:
			return leaf->opfamily == TEXT_BTREE_FAM_OID &&
				pqfdw_collate_is_c(coll) ? PQR_TEXT : PQR_DATUM;
	}
}

/* Whether the leaf's function is one of numeric's comparisons. */
static bool
numeric_comparison(const PqFilterLeaf *leaf)
{
	switch (leaf->fn.fn_oid)
	{
		case F_NUMERIC_EQ:
		case F_NUMERIC_NE:
		case F_NUMERIC_LT:
		case F_NUMERIC_LE:
		case F_NUMERIC_GT:
		case F_NUMERIC_GE:
			return true;
	}
	return false;
}

/* The raw kind for a DECIMAL column's leaf, or PQR_DATUM. */
static PqRawKind
decimal_raw(PqFilterLeaf *leaf, PqConverter *cv)
{
	if (cv->node->logical.id != PQ_LT_DECIMAL || !numeric_comparison(leaf))
		return PQR_DATUM;
	switch (cv->physical_type)
	{
		case PQ_INT32:
			return PQR_INT32;
		case PQ_INT64:
			return PQR_INT64;
		case PQ_FIXED_LEN_BYTE_ARRAY:
			return cv->type_length >= 1 && cv->type_length <= 8 ?
				PQR_DECIMAL_BE : PQR_DATUM;
	}
	return PQR_DATUM;
}

/* How the leaf reads values of the column converter cv gives. */
static void
choose_raw(PqFilterLeaf *leaf, PqConverter *cv)
{
	const PqLogicalType *lt = &cv->node->logical;
	int			pt = cv->physical_type;
	PqRawKind	raw = PQR_DATUM;
	bool		pattern = leaf->cmp == PQC_LIKE || leaf->cmp == PQC_NOT_LIKE ||
	leaf->cmp == PQC_ILIKE || leaf->cmp == PQC_NOT_ILIKE;

	leaf->bound = true;
	leaf->raw = PQR_DATUM;
	if (leaf->kind != PQL_OP || leaf->cmp == PQC_NONE || cv->always_null ||
		cv->cast != PQ_CAST_NONE || cv->need_typmod_func)
		return;
	switch (cv->natural_type)
	{
		case INT4OID:
			if (pt == PQ_INT32 && (lt->id == PQ_LT_NONE ||
								   (lt->id == PQ_LT_INTEGER && lt->int_is_signed &&
									lt->int_bit_width == 32)))
				raw = PQR_INT32;
			break;
		case INT8OID:
			if (pt == PQ_INT64 && (lt->id == PQ_LT_NONE ||
								   (lt->id == PQ_LT_INTEGER && lt->int_is_signed)))
				raw = PQR_INT64;
			break;
		case FLOAT4OID:
			if (pt == PQ_FLOAT && lt->id == PQ_LT_NONE)
				raw = PQR_FLOAT;
			break;
		case FLOAT8OID:
			if (pt == PQ_DOUBLE && lt->id == PQ_LT_NONE)
				raw = PQR_DOUBLE;
			break;
		case NUMERICOID:
			raw = decimal_raw(leaf, cv);
			break;
		case DATEOID:
			if (pt == PQ_INT32 && lt->id == PQ_LT_DATE)
			{
				raw = PQR_INT32;
				leaf->check_range = true;
				leaf->raw_min = (int64) (DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE) +
					PG_EPOCH_DAYS;
				leaf->raw_max = (int64) (DATE_END_JULIAN - POSTGRES_EPOCH_JDATE) - 1 +
					PG_EPOCH_DAYS;
			}
			break;
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			if (pt == PQ_INT64 && lt->id == PQ_LT_TIMESTAMP &&
				cv->time_unit == PQ_UNIT_MICROS)
			{
				raw = PQR_INT64;
				leaf->check_range = true;
				leaf->raw_min = MIN_TIMESTAMP + PG_EPOCH_USECS;
				/* END_TIMESTAMP + the epoch is past int64: all fit */
				leaf->raw_max = PG_INT64_MAX;
			}
			break;
		case TEXTOID:
			raw = text_raw(leaf, pt);
			break;
	}
	if (raw != PQR_DATUM && raw != PQR_TEXT && pattern)
		raw = PQR_DATUM;
	if (raw != PQR_DATUM && translate_consts(leaf, cv, raw))
		leaf->raw = raw;
	else
		leaf->check_range = false;
}

/*
 * Choose how the leaf reads values of the column converter cv gives; what
 * it keeps lives as long as the filter.
 */
void
pqfdw_filter_bind_leaf(PqFilter *f, PqFilterLeaf *leaf, PqConverter *cv)
{
	MemoryContext old = MemoryContextSwitchTo(f->cxt);

	choose_raw(leaf, cv);
	MemoryContextSwitchTo(old);
}
