/*-------------------------------------------------------------------------
 *
 * table_stats.c
 *		Whole files of a Delta table ruled out at plan time by the
 *		statistics its log keeps for them (add.stats: min, max, null
 *		counts), before any footer is read; of an Iceberg table by its
 *		manifests' counts and bounds (iceberg_bounds.c).
 *
 * The log's values are JSON: numbers as written, dates and timestamps as
 * ISO strings, strings possibly truncated.  Each is read into the declared
 * type of the column only where that cannot make a bound too tight:
 * timestamps are kept to milliseconds there, so their bounds are widened by
 * one, floating-point ones by a float's step (type widening: a column once
 * float keeps float statistics in its older files); a string's minimum, a prefix, is a lower bound in byte order (so
 * under the C collation only), its maximum is used only when shorter than
 * the 32 characters writers truncate to.  A value that does not parse
 * decides nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "fdw/common/columns.h"
#include "fdw/common/pg_compat.h"
#include "fdw/prune/prune.h"
#include "fdw/prune/table_stats.h"
#include "mb/pg_wchar.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* Writers truncate string statistics to this many characters. */
#define PQFDW_DELTA_STRING_PREFIX 32

/* n digits at s, as a number */
static bool
digits(const char *s, int n, int *out)
{
	int			v = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/*
 * "YYYY-MM-DD" and, when time, "[T ]HH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]"
 * as microseconds since 2000-01-01 UTC (a date: days, in *days).
 */
static bool
parse_datetime(const char *s, bool time, int *days, int64 *usec)
{
	int			y,
				m,
				d,
				hh = 0,
				mi = 0,
				ss = 0;
	int64		frac = 0;
	int			fdigits = 0;
	int			offset = 0;
	const char *p;

	if (strlen(s) < 10 || !digits(s, 4, &y) || s[4] != '-' ||
		!digits(s + 5, 2, &m) || s[7] != '-' || !digits(s + 8, 2, &d) ||
		m < 1 || m > 12 || d < 1 || d > day_tab[isleap(y)][m - 1] || y < 1)
		return false;
	p = s + 10;
	if (time && *p != '\0')
	{
		if ((*p != 'T' && *p != ' ') || !digits(p + 1, 2, &hh) || p[3] != ':' ||
			!digits(p + 4, 2, &mi) || p[6] != ':' || !digits(p + 7, 2, &ss) ||
			hh > 23 || mi > 59 || ss > 59)
			return false;
		p += 9;
		if (*p == '.')
		{
			for (p++; *p >= '0' && *p <= '9'; p++)
			{
				if (fdigits < 6)
					frac = frac * 10 + (*p - '0');
				fdigits++;
			}
			if (fdigits == 0)
				return false;
			for (; fdigits < 6; fdigits++)
				frac *= 10;
		}
		if (*p == 'Z')
			p++;
		else if (*p == '+' || *p == '-')
		{
			int			oh,
						om;
			const char *q = p + 1;

			if (!digits(q, 2, &oh))
				return false;
			q += 2;
			if (*q == ':')
				q++;
			if (!digits(q, 2, &om) || oh > 15 || om > 59)
				return false;
			offset = (oh * 60 + om) * 60 * (*p == '+' ? 1 : -1);
			p = q + 2;
		}
	}
	if (*p != '\0')
		return false;
	*days = date2j(y, m, d) - POSTGRES_EPOCH_JDATE;
	*usec = ((int64) *days * SECS_PER_DAY + hh * 3600 + mi * 60 + ss - offset) *
		USECS_PER_SEC + frac;
	return true;
}

/*
 * The statistic v (a JSON number or string) as a value of type typid for
 * a lower (upper: false) bound; false when it cannot serve as one.
 */
static bool
stat_datum(const PqJv *v, Oid typid, Oid collation, bool lower, Datum *out)
{
	int64		i;
	int			days;
	int64		usec;

	if (v == NULL)
		return false;
	switch (typid)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			if (!pq_jv_int64(v, &i) ||
				(typid == INT2OID && (i < PG_INT16_MIN || i > PG_INT16_MAX)) ||
				(typid == INT4OID && (i < PG_INT32_MIN || i > PG_INT32_MAX)))
				return false;
			*out = typid == INT8OID ? Int64GetDatum(i) :
				typid == INT4OID ? Int32GetDatum((int32) i) :
				Int16GetDatum((int16) i);
			return true;
		case FLOAT4OID:
		case FLOAT8OID:
			{
				double		d;
				char	   *end;

				if (v->type != PQ_JV_NUMBER)
					return false;
				d = strtod(v->u.str, &end);
				if (*end != '\0' || isnan(d) || isinf(d))
					return false;

				/*
				 * A file written before the column widened from float keeps
				 * float statistics, printed shortest for float: as a double
				 * the bound may miss the value by half a float's step.
				 */
				d += (lower ? -1 : 1) * fabs(d) * (1.0 / (1 << 23));
				*out = typid == FLOAT8OID ? Float8GetDatum(d) :
					Float4GetDatum((float4) d);
				return true;
			}
		case NUMERICOID:
			{
				const char *e;

				/* an exponent of up to 4 digits: the input function's range */
				if (v->type != PQ_JV_NUMBER || v->len > 200 ||
					((e = strpbrk(v->u.str, "eE")) != NULL && strlen(e) > 6))
					return false;
				*out = DirectFunctionCall3(numeric_in,
										   CStringGetDatum(v->u.str),
										   ObjectIdGetDatum(InvalidOid),
										   Int32GetDatum(-1));
				return true;
			}
		case DATEOID:
			if (v->type != PQ_JV_STRING || strlen(v->u.str) != 10 ||
				!parse_datetime(v->u.str, false, &days, &usec))
				return false;
			*out = DateADTGetDatum(days);
			return true;
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			if (v->type != PQ_JV_STRING ||
				!parse_datetime(v->u.str, true, &days, &usec))
				return false;
			/* kept to milliseconds: the bound one millisecond out */
			usec += lower ? -1000 : 1000;
			if (!IS_VALID_TIMESTAMP(usec))
				return false;
			*out = TimestampTzGetDatum(usec);
			return true;
		case TEXTOID:
		case VARCHAROID:
			if (v->type != PQ_JV_STRING || !OidIsValid(collation) ||
				!pqfdw_collate_is_c(collation) ||
				(!lower && pg_mbstrlen(v->u.str) >= PQFDW_DELTA_STRING_PREFIX))
				return false;
			*out = PointerGetDatum(cstring_to_text(v->u.str));
			return true;
	}
	return false;
}

/* A manifest's verdict, made once per plan (its files share it). */
typedef struct ManifestVerdict
{
	const PqIcebergManifestFile *mf;
	bool		may_match;
} ManifestVerdict;

static bool
manifest_may_match(List **verdicts, MemoryContext keep, PqPrunePred *preds,
				   int npreds, const PqfdwTableSnapshot *snap,
				   const PqIcebergManifestFile *mf, Oid relid, PqfdwDataset *ds)
{
	ListCell   *lc;
	ManifestVerdict *v;
	bool		may_match;
	MemoryContext old;

	if (mf == NULL)
		return true;
	foreach(lc, *verdicts)
		if (((ManifestVerdict *) lfirst(lc))->mf == mf)
		return ((ManifestVerdict *) lfirst(lc))->may_match;
	may_match = pqfdw_iceberg_manifest_may_match(preds, npreds, snap, mf,
												 relid, ds);
	/* kept past the per-file context's resets */
	old = MemoryContextSwitchTo(keep);
	v = palloc(sizeof(ManifestVerdict));
	v->mf = mf;
	v->may_match = may_match;
	*verdicts = lappend(*verdicts, v);
	MemoryContextSwitchTo(old);
	return may_match;
}

/* Can a row of the file satisfy p, by its statistics st? */
static bool
pred_may_match(PqPrunePred *p, const PqDeltaStats *st, Oid relid,
			   PqfdwDataset *ds)
{
	const char *name;
	const PqJv *nulls;
	int64		nnull = -1;
	Datum		min = 0,
				max = 0;
	bool		has_min,
				has_max;
	Oid			typid;

	if (p->kind == PQ_PRUNE_OR)
	{
		int			i;

		for (i = 0; i < p->nargs; i++)
			if (pred_may_match(&p->args[i], st, relid, ds))
				return true;
		return false;
	}
	if (PQ_PRED_IS_NESTED(p) || p->kind == PQ_PRUNE_BBOX ||
		pqfdw_dataset_is_virtual(ds, p->attnum))
		return true;
	name = pqfdw_field_name(relid, p->attnum);
	nulls = st->null_count ? pq_jv_get(st->null_count, name) : NULL;
	if (nulls != NULL && (!pq_jv_int64(nulls, &nnull) || nnull < 0))
		nnull = -1;
	switch (p->kind)
	{
		case PQ_PRUNE_IS_NULL:
			return nnull != 0;
		case PQ_PRUNE_IS_NOT_NULL:
			return nnull < 0 || st->num_records < 0 || nnull < st->num_records;
		case PQ_PRUNE_COMPARE:
			break;
		default:
			return true;
	}
	/* only nulls: no comparison holds */
	if (nnull >= 0 && st->num_records >= 0 && nnull >= st->num_records)
		return false;
	if (p->has_cast)
		return true;
	typid = get_atttype(relid, p->attnum);
	has_min = st->min_values != NULL &&
		stat_datum(pq_jv_get(st->min_values, name), typid, p->collation, true,
				   &min);
	has_max = st->max_values != NULL &&
		stat_datum(pq_jv_get(st->max_values, name), typid, p->collation, false,
				   &max);
	return pqfdw_pred_range_may_match(p, min, has_min, max, has_max);
}

int
pqfdw_table_stats_prune(PlannerInfo *root, PqfdwDataset *ds,
						List *restrictinfos, Index varno, Oid relid,
						bool **pruned, int *by_partition)
{
	const PqfdwTableSnapshot *snap;
	List	   *values;
	List	   *clauses;
	PqPrunePred *preds;
	Datum	   *vals;
	bool	   *nulls;
	int			npreds;
	int			n = 0;
	int			f;
	int			i = 0;
	ListCell   *lc;
	MemoryContext cxt;
	MemoryContext old;
	List	   *verdicts = NIL;

	*by_partition = 0;
	if (ds == NULL || ds->location == NULL || ds->nfiles == 0 ||
		!pqfdw_enable_statistics_pruning)
		return 0;
	clauses = pqfdw_prune_clauses(pqfdw_dataset_field_clauses(ds, restrictinfos,
															  varno),
								  varno, &values);
	if (clauses == NIL)
		return 0;
	vals = palloc(sizeof(Datum) * Max(list_length(values), 1));
	nulls = palloc(sizeof(bool) * Max(list_length(values), 1));
	foreach(lc, values)
	{
		Node	   *v = estimate_expression_value(root, (Node *) lfirst(lc));

		/* a value known only at run time: decide nothing now */
		if (!IsA(v, Const))
			return 0;
		vals[i] = ((Const *) v)->constvalue;
		nulls[i++] = ((Const *) v)->constisnull;
	}
	preds = pqfdw_prune_init(clauses, varno, &npreds);
	pqfdw_prune_set_values(preds, npreds, vals, nulls);
	snap = pqfdw_table_snapshot(&ds->ref);
	if (*pruned == NULL)
		*pruned = palloc0(sizeof(bool) * ds->nfiles);

	/* a file's statistics parsed, compared, freed */
	cxt = AllocSetContextCreate(CurrentMemoryContext,
								"parquet_fdw table statistics",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	for (f = 0; f < ds->nfiles; f++)
	{
		int			s = pqfdw_snapshot_file(snap, ds->paths[f]);
		PqDeltaStats st;
		const char *why;
		int			k;

		if (!(*pruned)[f] && s >= 0 && snap->ice != NULL)
		{
			if (!manifest_may_match(&verdicts, old, preds, npreds, snap,
									snap->ice[s]->manifest, relid, ds) ||
				!pqfdw_iceberg_file_may_match(preds, npreds, snap, s, relid,
											  ds, true))
			{
				(*pruned)[f] = true;
				(*by_partition)++;
			}
			else if (!pqfdw_iceberg_file_may_match(preds, npreds, snap, s,
												   relid, ds, false))
			{
				(*pruned)[f] = true;
				n++;
			}
			MemoryContextReset(cxt);
			continue;
		}
		if ((*pruned)[f] || s < 0 || snap->files[s]->stats == NULL ||
			!pq_delta_stats_parse(snap->files[s]->stats, &st, &why))
			continue;
		for (k = 0; k < npreds; k++)
			if (!pred_may_match(&preds[k], &st, relid, ds))
			{
				(*pruned)[f] = true;
				n++;
				break;
			}
		MemoryContextReset(cxt);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return n;
}
