/*-------------------------------------------------------------------------
 *
 * row_filter.c
 *		A scan whose quals beyond the batch filter run as vector
 *		expressions (vexpr.h) on its batches, instead of the executor's
 *		ExecQual on each tuple.
 *
 * A function call whose one variable argument is a dictionary-encoded
 * column (length(URL), lower(Title), regexp_replace(...)) then runs once
 * per dictionary entry that rows reaching it use, and the rows it rejects
 * never become tuples.  The plan takes these quals only when it takes all
 * of the executor's (so they still run after the cheaper batch filter and
 * in the planner's order, AND evaluating its later arms only where the
 * earlier ones passed) and none is under a security barrier.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/explain.h"
#include "executor/executor.h"
#include "fdw/pushdown/pushdown.h"
#include "fdw/pushdown/vexpr.h"
#include "nodes/makefuncs.h"
#include "rewrite/rewriteManip.h"

/* The rows of b for which the quals are true. */
static int
select_rows(void *arg, const PqBatch *b, int *rows)
{
	const PqVector *q = pqfdw_vexpr_eval((PqVExpr *) arg, b, b->nrows, NULL);
	int			n = 0;
	int			r;

	for (r = 0; r < b->nrows; r++)
		if (!q->nulls[r] && q->i[r] != 0)
			rows[n++] = r;
	return n;
}

static void
row_filter_begin(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	Index		scanrelid = plan->scan.scanrelid;
	Index		plan_relid = intVal(list_nth(plan->fdw_private,
											 PQFDW_PRIVATE_RELID));
	Expr	   *quals;
	PqTableReader *reader;
	PqVExpr    *e;
	Bitmapset  *coded;
	int			att = -1;

	pqfdw_scan_methods.begin(node, eflags);
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	quals = make_ands_explicit(list_nth(plan->fdw_private,
										PQFDW_PRIVATE_EXTRA));
	if (plan_relid != scanrelid)
	{
		/* flattened into an outer query's range table: renumber our Vars */
		quals = copyObject(quals);
		ChangeVarNodes((Node *) quals, plan_relid, scanrelid, 0);
	}
	reader = pqfdw_scan_reader(node->fdw_state);
	e = pqfdw_vexpr_compile(quals, scanrelid,
							pqfdw_table_reader_batch(reader)->capacity);
	coded = pqfdw_vexpr_coded_inputs(e, NULL);
	while ((att = bms_next_member(coded, att)) >= 0)
		pqfdw_table_reader_set_codes(reader, att);
	pqfdw_scan_set_row_select(node->fdw_state, select_rows, e);
}

/* The rest is the scan's. */
static TupleTableSlot *
row_filter_next(ForeignScanState *node)
{
	return pqfdw_scan_methods.next(node);
}

static void
row_filter_rescan(ForeignScanState *node)
{
	pqfdw_scan_methods.rescan(node);
}

static void
row_filter_end(ForeignScanState *node)
{
	pqfdw_scan_methods.end(node);
}

static void
row_filter_explain(ForeignScanState *node, ExplainState *es)
{
	pqfdw_scan_methods.explain(node, es);
}

static PqScanState *
row_filter_shared_scan(ForeignScanState *node)
{
	return pqfdw_scan_methods.shared_scan(node);
}

const PqExecMethods pqfdw_row_filter_methods = {
	.begin = row_filter_begin,
	.next = row_filter_next,
	.rescan = row_filter_rescan,
	.end = row_filter_end,
	.explain = row_filter_explain,
	.shared_scan = row_filter_shared_scan,
};
