/*-------------------------------------------------------------------------
 *
 * vector_scan.c
 *		A plain scan that evaluates vector expressions (vexpr.h) on its
 *		batches: the quals beyond the batch filter (a row filter), and the
 *		expressions of its scan target list (computed columns), instead of
 *		the executor's ExecQual and ExecProject on each tuple.
 *
 * A function call whose one variable argument is a dictionary-encoded
 * column (length(URL), lower(Title), regexp_replace(...)) then runs once
 * per dictionary entry that the rows reaching it use.  The row filter
 * takes the quals only when it takes all of the executor's (so they still
 * run after the cheaper batch filter and in the planner's order, AND
 * evaluating its later arms only where the earlier ones passed) and none
 * is under a security barrier; computed columns are evaluated for the rows
 * the filters passed only.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"
#include "fdw/common/pg_compat.h"
#include "fdw/pushdown/pushdown.h"
#include "fdw/pushdown/vexpr.h"
#include "nodes/makefuncs.h"
#include "rewrite/rewriteManip.h"
#include "utils/memutils.h"

typedef struct PqVectorScan
{
	PqVExpr    *quals;			/* NULL: no row filter */
	int			ncomputed;
	PqVExpr   **computed;		/* the scan target list's expressions */
	bool	   *skip;			/* per batch row: not selected */
	MemoryContext values_cxt;	/* computed numerics, per batch */
} PqVectorScan;

/* The rows of b for which the quals are true. */
static int
select_rows(void *arg, const PqBatch *b, int *rows)
{
	PqVectorScan *vs = arg;
	const PqVector *q = pqfdw_vexpr_eval(vs->quals, b, b->nrows, NULL);
	int			n = 0;
	int			r;

	for (r = 0; r < b->nrows; r++)
		if (!q->nulls[r] && q->i[r] != 0)
			rows[n++] = r;
	return n;
}

/*
 * The computed columns of the n rows of b that rows names (all when NULL):
 * other rows are not evaluated, so no expression fails on a row the
 * filters removed.
 */
static void
compute_columns(void *arg, const PqBatch *b, const int *rows, int n,
				Datum **values, bool **nulls)
{
	PqVectorScan *vs = arg;
	MemoryContext old;
	int			k;
	int			i;

	MemoryContextReset(vs->values_cxt);
	old = MemoryContextSwitchTo(vs->values_cxt);
	if (rows != NULL)
	{
		memset(vs->skip, true, sizeof(bool) * b->nrows);
		for (i = 0; i < n; i++)
			vs->skip[rows[i]] = false;
	}
	for (k = 0; k < vs->ncomputed; k++)
	{
		const PqVector *v = pqfdw_vexpr_eval(vs->computed[k], b, b->nrows,
											 rows ? vs->skip : NULL);

		for (i = 0; i < n; i++)
		{
			int			r = rows ? rows[i] : i;

			nulls[k][r] = v->nulls[r];
			if (v->nulls[r])
				values[k][r] = (Datum) 0;
			else if (v->kind == PQV_DECIMAL)
				values[k][r] = pqfdw_unscaled_numeric(pqfdw_vdecimal(v, r),
													  v->scale);
			else
				values[k][r] = pqfdw_vector_datum(v, r);
		}
	}
	MemoryContextSwitchTo(old);
}

static void
vector_scan_begin(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	Index		scanrelid = plan->scan.scanrelid;
	Index		plan_relid = intVal(list_nth(plan->fdw_private,
											 PQFDW_PRIVATE_RELID));
	List	   *quals = list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA);
	List	   *computed = NIL;
	PqVectorScan *vs;
	PqTableReader *reader;
	Bitmapset  *coded = NULL;
	int			rows;
	int			att = -1;
	int			k;
	ListCell   *lc;

	pqfdw_scan_methods.begin(node, eflags);
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	foreach(lc, plan->fdw_scan_tlist)
	{
		Expr	   *e = lfirst_node(TargetEntry, lc)->expr;

		if (!IsA(e, Var))
			computed = lappend(computed, e);
	}
	if (plan_relid != scanrelid)
	{
		/* flattened into an outer query's range table: renumber our Vars */
		quals = copyObject(quals);
		computed = copyObject(computed);
		ChangeVarNodes((Node *) quals, plan_relid, scanrelid, 0);
		ChangeVarNodes((Node *) computed, plan_relid, scanrelid, 0);
	}
	reader = pqfdw_scan_reader(node->fdw_state);
	rows = pqfdw_table_reader_batch(reader)->capacity;
	vs = palloc0(sizeof(PqVectorScan));
	if (quals != NIL)
	{
		vs->quals = pqfdw_vexpr_compile(make_ands_explicit(quals), scanrelid,
										rows);
		coded = pqfdw_vexpr_coded_inputs(vs->quals, coded);
		pqfdw_scan_set_row_select(node->fdw_state, select_rows, vs);
	}
	if (computed != NIL)
	{
		vs->ncomputed = list_length(computed);
		vs->computed = palloc(sizeof(PqVExpr *) * vs->ncomputed);
		k = 0;
		foreach(lc, computed)
		{
			vs->computed[k] = pqfdw_vexpr_compile(lfirst(lc), scanrelid, rows);
			coded = pqfdw_vexpr_coded_inputs(vs->computed[k], coded);
			k++;
		}
		vs->skip = palloc(sizeof(bool) * rows);
		vs->values_cxt = AllocSetContextCreate(CurrentMemoryContext,
											   "parquet_fdw computed columns",
											   ALLOCSET_DEFAULT_SIZES);
		pqfdw_scan_set_computed(node->fdw_state, compute_columns, vs);
	}
	while ((att = bms_next_member(coded, att)) >= 0)
		pqfdw_table_reader_set_codes(reader, att);
}

/* The rest is the scan's. */
static TupleTableSlot *
vector_scan_next(ForeignScanState *node)
{
	return pqfdw_scan_methods.next(node);
}

static void
vector_scan_rescan(ForeignScanState *node)
{
	pqfdw_scan_methods.rescan(node);
}

static void
vector_scan_end(ForeignScanState *node)
{
	pqfdw_scan_methods.end(node);
}

static void
vector_scan_explain(ForeignScanState *node, ExplainState *es)
{
	pqfdw_scan_methods.explain(node, es);
}

static PqScanState *
vector_scan_shared_scan(ForeignScanState *node)
{
	return pqfdw_scan_methods.shared_scan(node);
}

const PqExecMethods pqfdw_vector_scan_methods = {
	.begin = vector_scan_begin,
	.next = vector_scan_next,
	.rescan = vector_scan_rescan,
	.end = vector_scan_end,
	.explain = vector_scan_explain,
	.shared_scan = vector_scan_shared_scan,
};
