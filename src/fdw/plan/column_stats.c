/*-------------------------------------------------------------------------
 *
 * column_stats.c
 *		Planner statistics of a foreign table's columns from its files'
 *		footers, for columns ANALYZE has not seen.
 *
 * PostgreSQL estimates IS NULL selectivities, join selectivities and the
 * number of GROUP BY groups from pg_statistic's stanullfrac and stadistinct;
 * without ANALYZE a foreign table has none, and every key counts as 200
 * groups.  The footers already hold each column chunk's null count and, for
 * chunks whose every value is in the dictionary, its distinct count (DuckDB
 * and our COPY TO write it).  get_relation_stats_hook hands the planner a
 * pg_statistic row made from them, without MCV or histogram slots; a row
 * ANALYZE wrote wins.
 *
 * The table's distinct values from its row groups': a row group of n
 * values drawn from D distinct ones holds about D (1 - e^(-n/D)) of them,
 * and D is solved for the observed sum, between the largest row group's
 * count and the sum of all (values that never repeat across row groups).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "fdw/common/columns.h"
#include "fdw/convert/nested.h"
#include "fdw/plan/plan.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

static get_relation_stats_hook_type prev_stats_hook = NULL;

/* Row groups' (values, distinct values) of one column. */
typedef struct RgCounts
{
	double		values;
	double		distinct;
} RgCounts;

/* The distinct values expected in the row groups if there are d in all. */
static double
expected_distinct(const RgCounts *rg, int n, double d)
{
	double		sum = 0;
	int			i;

	for (i = 0; i < n; i++)
		sum += d * -expm1(-rg[i].values / d);
	return sum;
}

static double
solve_distinct(const RgCounts *rg, int n, double lo, double hi, double target)
{
	int			i;

	if (expected_distinct(rg, n, hi) <= target)
		return hi;
	if (expected_distinct(rg, n, lo) >= target)
		return lo;
	for (i = 0; i < 60 && hi - lo > 0.5; i++)
	{
		double		mid = (lo + hi) / 2;

		if (expected_distinct(rg, n, mid) < target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The null fraction and stadistinct (0: unknown) of a flat column from
 * every row group's statistics; false when a null count is missing.
 */
static bool
footer_stats(PqfdwPlanState *st, AttrNumber attnum, float4 *nullfrac,
			 float4 *stadistinct)
{
	RgCounts   *rg = palloc(sizeof(RgCounts) * Max(st->row_groups, 1));
	int			nrg = 0;
	double		rows = 0;
	double		nulls = 0;
	double		sum_d = 0;
	double		max_d = 0;
	bool		have_distinct = true;
	ListCell   *lc;

	foreach(lc, st->files)
	{
		PqFile	   *f = lfirst(lc);
		PqSchemaNode *node = pqfdw_find_column(f, st->relid, attnum,
											   f->src->name);
		int			i;

		if (pqfdw_is_nested_field(node))
			return false;
		for (i = 0; i < f->md.n_row_groups && nrg < st->row_groups; i++)
		{
			const PqRowGroup *g = &f->md.row_groups[i];
			const PqColumnChunk *cc = &g->columns[node->first_leaf];
			const PqStatistics *s = &cc->meta_data.statistics;
			double		n = (double) g->num_rows;

			if (!cc->has_meta_data || !cc->meta_data.has_statistics ||
				!s->has_null_count || s->null_count < 0 || s->null_count > n)
				return false;
			rows += n;
			nulls += s->null_count;
			if (!s->has_distinct_count || s->distinct_count < 0 ||
				s->distinct_count > n - s->null_count)
			{
				have_distinct = false;
				continue;
			}
			rg[nrg].values = n - s->null_count;
			rg[nrg].distinct = s->distinct_count;
			sum_d += s->distinct_count;
			max_d = Max(max_d, s->distinct_count);
			nrg++;
		}
	}
	if (rows <= 0)
		return false;
	*nullfrac = nulls / rows;
	*stadistinct = 0;
	if (have_distinct && sum_d > 0)
	{
		double		d = solve_distinct(rg, nrg, max_d, sum_d, sum_d);

		/* many values: a fraction of the rows, which grows with the table */
		*stadistinct = d > 0.1 * rows ? -(d / rows) : d;
	}
	return true;
}

static bool
footer_stats_hook(PlannerInfo *root, RangeTblEntry *rte, AttrNumber attnum,
				  VariableStatData *vardata)
{
	Var		   *var = (Var *) vardata->var;
	RelOptInfo *rel;
	PqfdwPlanState *st;
	float4		nullfrac;
	float4		stadistinct;
	Relation	statrel;
	Datum		values[Natts_pg_statistic];
	bool		nulls[Natts_pg_statistic];
	int			k;

	if (prev_stats_hook && prev_stats_hook(root, rte, attnum, vardata))
		return true;
	if (rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_FOREIGN_TABLE ||
		attnum <= 0 || var == NULL || !IsA(var, Var) ||
		var->varno < 1 || var->varno >= root->simple_rel_array_size)
		return false;
	rel = root->simple_rel_array[var->varno];
	if (rel == NULL || rel->fdwroutine == NULL ||
		rel->fdwroutine->GetForeignRelSize != pqfdw_GetForeignRelSize ||
		rel->fdw_private == NULL)
		return false;
	st = rel->fdw_private;
	if (st->relid != rte->relid || st->ds->union_by_name ||
		pqfdw_dataset_is_virtual(st->ds, attnum) ||
		SearchSysCacheExists3(STATRELATTINH, ObjectIdGetDatum(rte->relid),
							  Int16GetDatum(attnum), BoolGetDatum(rte->inh)) ||
		!footer_stats(st, attnum, &nullfrac, &stadistinct))
		return false;

	memset(nulls, true, sizeof(nulls));
	values[Anum_pg_statistic_starelid - 1] = ObjectIdGetDatum(rte->relid);
	values[Anum_pg_statistic_staattnum - 1] = Int16GetDatum(attnum);
	values[Anum_pg_statistic_stainherit - 1] = BoolGetDatum(rte->inh);
	values[Anum_pg_statistic_stanullfrac - 1] = Float4GetDatum(nullfrac);
	values[Anum_pg_statistic_stawidth - 1] = Int32GetDatum(0);
	values[Anum_pg_statistic_stadistinct - 1] = Float4GetDatum(stadistinct);
	/* every fixed-width field; the slots' arrays stay NULL */
	for (k = 0; k < Anum_pg_statistic_stanumbers1 - 1; k++)
		nulls[k] = false;
	for (k = 0; k < STATISTIC_NUM_SLOTS; k++)
	{
		values[Anum_pg_statistic_stakind1 - 1 + k] = Int16GetDatum(0);
		values[Anum_pg_statistic_staop1 - 1 + k] = ObjectIdGetDatum(InvalidOid);
		values[Anum_pg_statistic_stacoll1 - 1 + k] = ObjectIdGetDatum(InvalidOid);
	}
	statrel = table_open(StatisticRelationId, AccessShareLock);
	vardata->statsTuple = heap_form_tuple(RelationGetDescr(statrel), values,
										  nulls);
	table_close(statrel, AccessShareLock);
	vardata->freefunc = heap_freetuple;
	return true;
}

void
pqfdw_column_stats_init(void)
{
	prev_stats_hook = get_relation_stats_hook;
	get_relation_stats_hook = footer_stats_hook;
}
