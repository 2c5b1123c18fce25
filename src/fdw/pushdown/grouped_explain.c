/*-------------------------------------------------------------------------
 *
 * grouped_explain.c
 *		EXPLAIN of a grouped scan: its aggregates and keys, the quals and
 *		keys it evaluates itself, the groups' ORDER BY ... LIMIT and, with
 *		ANALYZE, its groups, memory and spilled rows.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/pg_compat.h"	/* commands/explain.h and its 18 parts */
#include "fdw/pushdown/grouped_state.h"
#include "fdw/pushdown/pushdown.h"
#include "nodes/makefuncs.h"
#include "utils/lsyscache.h"
#include "utils/ruleutils.h"

/* The groups' ORDER BY ... LIMIT the scan keeps (grouped_top_n.c). */
static void
explain_top_n(ForeignScan *plan, List *context, bool useprefix,
			  ExplainState *es)
{
	List	   *spec = list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA + 3);
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, (List *) lthird(spec))
	{
		List	   *key = lfirst(lc);
		TargetEntry *tle = list_nth(plan->fdw_scan_tlist, linitial_int(key));
		bool		desc = false;

		/* reverse: the operator is its family's ">" */
		(void) get_equality_op_for_ordering_op(lsecond_int(key), &desc);
		appendStringInfo(&buf, "%s%s%s%s", buf.len ? ", " : "",
						 deparse_expression((Node *) tle->expr, context,
											useprefix, false),
						 desc ? " DESC" : "",
						 lfourth_int(key) != desc ?
						 (desc ? " NULLS LAST" : " NULLS FIRST") : "");
	}
	appendStringInfo(&buf, " LIMIT %d", intVal(linitial(spec)));
	if (intVal(lsecond(spec)) > 0)
		appendStringInfo(&buf, " OFFSET %d", intVal(lsecond(spec)));
	ExplainPropertyText("Parquet Group Order", buf.data, es);
}

void
pqfdw_grouped_explain(ForeignScanState *node, ExplainState *es)
{
	PqGrouped  *gs = node->fdw_state;
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	List	   *context = set_deparse_context_plan(es->deparse_cxt,
												   node->ss.ps.plan, NIL);
	bool		useprefix = PQFDW_EXPLAIN_RTABLE_SIZE(es) > 1 || es->verbose;
	StringInfoData aggs;
	StringInfoData keys;
	ListCell   *lc;
	int			i = 0;

	initStringInfo(&aggs);
	initStringInfo(&keys);
	foreach(lc, plan->fdw_scan_tlist)
	{
		StringInfo	buf = i < gs->nkeys ? &keys : &aggs;

		appendStringInfo(buf, "%s%s", buf->len ? ", " : "",
						 deparse_expression((Node *) lfirst_node(TargetEntry, lc)->expr,
											context, useprefix, false));
		i++;
	}
	if (keys.len > 0)
		appendStringInfo(&aggs, " GROUP BY %s", keys.data);
	ExplainPropertyText("Parquet Aggregate", aggs.data, es);
	/* a List deparses as its items separated by ", " */
	if (list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA + 2) != NIL)
		ExplainPropertyText("Parquet Keys Decided by Others",
							deparse_expression(list_nth(plan->fdw_private,
														PQFDW_PRIVATE_EXTRA + 2),
											   context, useprefix, false),
							es);
	if (list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA + 1) != NIL)
		ExplainPropertyText("Parquet Row Filter",
							deparse_expression((Node *) make_ands_explicit(list_nth(plan->fdw_private,
																					PQFDW_PRIVATE_EXTRA + 1)),
											   context, useprefix, false),
							es);
	if (list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA + 3) != NIL)
		explain_top_n(plan, context, useprefix, es);
	if (gs->partitioned)
		ExplainPropertyInteger("Shared Partitions", NULL, PQFDW_SPILL_PARTS, es);
	pqfdw_scan_explain(gs->scan, node, es);
	if (es->analyze && gs->started)
	{
		ExplainPropertyInteger("Groups", NULL,
							   gs->nkeys > 0 ?
							   gs->total_groups + gs->worker_groups : 1, es);
		if (gs->partitioned)
			ExplainPropertyInteger("Rows Written to Shared Partitions", NULL,
								   gs->moved_rows + gs->worker_moved_rows, es);
		if (gs->dict_rows > 0 || es->format != EXPLAIN_FORMAT_TEXT)
			ExplainPropertyInteger("Rows Grouped by Dictionary Index", NULL,
								   gs->dict_rows, es);
		/* these depend on the memory allocator: VERBOSE only */
		if (es->verbose)
		{
			ExplainPropertyInteger("Aggregate Memory", "kB",
								   (gs->peak_memory + 1023) / 1024, es);
			ExplainPropertyInteger("Spilled Partitions", NULL,
								   gs->partitions, es);
			ExplainPropertyInteger("Spilled Rows", NULL, gs->spilled_rows, es);
			ExplainPropertyInteger("Disk Usage", "kB",
								   (gs->spilled_bytes + gs->distinct_spilled_bytes +
									gs->moved_bytes + gs->worker_moved_bytes +
									1023) / 1024, es);
			if (gs->ndistinct > 0)
				ExplainPropertyInteger("Distinct Values Spilled", NULL,
									   gs->distinct_spilled_rows, es);
		}
	}
}
