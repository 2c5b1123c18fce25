/*-------------------------------------------------------------------------
 *
 * grouped_scan.c
 *		Grouped scans: the table's batches (pruned and filtered by the scan,
 *		fdw/scan/scan.c) go through the grouping keys' vector expressions
 *		into the group table, and through the aggregates' arguments into
 *		their states; when the input is done, each group is one scan tuple.
 *
 * The scan tuple (the plan's fdw_scan_tlist) holds the grouping keys
 * first, then the aggregates; PostgreSQL projects the query's target list
 * and evaluates HAVING on it.  Without grouping keys there is exactly one
 * group, even over no rows, as PostgreSQL's plain aggregation has.
 *
 * Memory: when the groups and their states pass hash_mem (work_mem *
 * hash_mem_multiplier), no group is added; rows of other groups are
 * spilled, partitioned by hash (spill.h), and aggregated partition by
 * partition once the groups in memory are returned, as PostgreSQL's hash
 * aggregation does.  A group's rows still reach its states in file order,
 * so float sums are PostgreSQL's, bit for bit.
 *
 * Under Gather, a partitioned plan (group_shared.h) first writes every row
 * its process reads to the shared partition files, waits for the other
 * processes to do the same, then aggregates whole partitions it claims and
 * returns their groups, final ones: no group is in two processes.  Rows
 * of a group then reach its states in no fixed order, as in PostgreSQL's
 * own parallel aggregation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "fdw/common/pg_compat.h"	/* commands/explain.h and its 18 parts */
#include "fdw/pushdown/grouped_state.h"
#include "fdw/pushdown/pushdown.h"
#include "fdw/scan/scan.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

/* The range table index of the table a grouped plan reads. */
static Index
grouped_relid(ForeignScan *plan)
{
	return bms_singleton_member(plan->fs_relids);
}

/* Empty groups and fresh states, for the table's rows or a partition's. */
static void
init_states(PqGrouped *gs, ForeignScan *plan)
{
	ListCell   *lc;
	int			i = 0;

	MemoryContextReset(gs->agg_cxt);
	gs->groups = gs->nkeys > 0 ?
		pqfdw_group_table_create(gs->nkeys, gs->vec_types, gs->agg_cxt) : NULL;
	foreach(lc, plan->fdw_scan_tlist)
	{
		if (i >= gs->nkeys)
		{
			Aggref	   *agg = castNode(Aggref, lfirst_node(TargetEntry, lc)->expr);

			gs->accs[i - gs->nkeys] = pqfdw_accum_create(agg, gs->agg_cxt);
			gs->distinct[i - gs->nkeys] = agg->aggdistinct == NIL ? NULL :
				pqfdw_distinct_create(exprType((Node *) linitial_node(TargetEntry, agg->args)->expr),
									  gs->batch_rows, gs->agg_cxt);
		}
		i++;
	}
	gs->ngroups = 0;
	gs->next_group = 0;
}

/* Column c of the scan tuple for group g (its states at state). */
static Datum
group_column(PqGrouped *gs, int g, int state, int c, bool *isnull)
{
	if (c < gs->nkeys)
		return pqfdw_group_table_key(gs->groups, g, c, isnull);
	return pqfdw_accum_final(gs->accs[c - gs->nkeys], state, isnull);
}

static bool next_input(PqGrouped *gs, ForeignScan *plan);

/*
 * Every group, those in memory and those of the spilled partitions, ranked
 * by its sort keys; the ones the top-N keeps are formed whole.
 */
static void
rank_groups(PqGrouped *gs, ForeignScan *plan)
{
	int			ncols = gs->nkeys + gs->naggs;
	int			nsort;
	const int  *cols = pqfdw_group_top_n_columns(gs->top_n, &nsort);

	for (;;)
	{
		int			g;

		for (g = gs->next_group; g < gs->ngroups; g++)
		{
			int			state = gs->nkeys > 0 ? g + 1 : 0;
			MemoryContext old = MemoryContextSwitchTo(gs->rank_cxt);
			int			k;

			for (k = 0; k < nsort; k++)
				gs->rank_values[cols[k]] =
					group_column(gs, g, state, cols[k],
								 &gs->rank_nulls[cols[k]]);
			if (pqfdw_group_top_n_wants(gs->top_n, gs->rank_values,
										gs->rank_nulls))
			{
				int			c;

				for (c = 0; c < ncols; c++)
					gs->rank_values[c] = group_column(gs, g, state, c,
													  &gs->rank_nulls[c]);
				pqfdw_group_top_n_add(gs->top_n, gs->rank_values,
									  gs->rank_nulls);
			}
			MemoryContextSwitchTo(old);
			MemoryContextReset(gs->rank_cxt);
		}
		gs->next_group = gs->ngroups;
		if (!next_input(gs, plan))
			break;
	}
	pqfdw_group_top_n_finish(gs->top_n);
}

static void
grouped_begin(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	EState	   *estate = node->ss.ps.state;
	PqGrouped  *gs = palloc0(sizeof(PqGrouped));
	Relation	rel;
	PqTableReader *tr;
	int			rows;			/* a batch's capacity */
	ListCell   *lc;
	Aggref	  **aggs;
	int			i = 0;
	int			b;
	Bitmapset  *coded;

	node->fdw_state = gs;
	gs->scanrelid = grouped_relid(plan);
	rel = ExecOpenScanRelation(estate, gs->scanrelid, eflags);
	gs->scan = pqfdw_scan_begin(node, rel, gs->scanrelid, eflags);
	gs->nkeys = intVal(list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA));
	gs->partitioned = intVal(list_nth(plan->fdw_private,
									  PQFDW_PRIVATE_EXTRA + 4)) != 0;
	gs->naggs = list_length(plan->fdw_scan_tlist) - gs->nkeys;
	tr = pqfdw_scan_reader(gs->scan);
	if (tr == NULL)
		return;
	rows = pqfdw_table_reader_batch(tr)->capacity;

	gs->exprs = palloc0(sizeof(PqVExpr *) * list_length(plan->fdw_scan_tlist));
	gs->vec_types = palloc0(sizeof(Oid) * list_length(plan->fdw_scan_tlist));
	gs->vec_scales = palloc0(sizeof(int) * list_length(plan->fdw_scan_tlist));
	gs->vecs = palloc0(sizeof(PqVector *) * list_length(plan->fdw_scan_tlist));
	gs->arg_vec = palloc0(sizeof(int) * Max(gs->naggs, 1));
	gs->accs = palloc0(sizeof(PqAccum *) * Max(gs->naggs, 1));
	gs->distinct = palloc0(sizeof(PqDistinct *) * Max(gs->naggs, 1));
	gs->batch_rows = rows;
	gs->gids = palloc(sizeof(int32) * rows);
	gs->filters = palloc0(sizeof(PqVExpr *) * Max(gs->naggs, 1));
	gs->filter_of = palloc(sizeof(int) * Max(gs->naggs, 1));
	aggs = palloc0(sizeof(Aggref *) * Max(gs->naggs, 1));
	gs->skip = palloc0(sizeof(bool *) * Max(gs->naggs, 1));
	gs->masked = palloc0(sizeof(PqVector) * Max(gs->naggs, 1));
	gs->masked_nulls = palloc0(sizeof(bool *) * Max(gs->naggs, 1));
	gs->zeros = palloc0(sizeof(int64) * rows);
	gs->slots = palloc(sizeof(int32) * rows);
	foreach(lc, plan->fdw_scan_tlist)
	{
		Expr	   *expr = lfirst_node(TargetEntry, lc)->expr;

		if (i >= gs->nkeys)
		{
			Aggref	   *agg = castNode(Aggref, expr);
			int			a = i - gs->nkeys;

			aggs[a] = agg;
			gs->arg_vec[a] = agg->aggstar && !agg->aggfilter ? -1 : gs->nvec;
			expr = agg->aggstar ? NULL :
				linitial_node(TargetEntry, agg->args)->expr;
			gs->filter_of[a] = agg->aggfilter ? a : -1;
			for (b = 0; agg->aggfilter && b < a; b++)
				if (aggs[b]->aggfilter &&
					equal(aggs[b]->aggfilter, agg->aggfilter))
				{
					gs->filter_of[a] = b;
					break;
				}
			if (gs->filter_of[a] == a)
			{
				gs->filters[a] = pqfdw_vexpr_compile(agg->aggfilter,
													 gs->scanrelid,
													 rows);
				gs->skip[a] = palloc(sizeof(bool) * rows);
			}
			if (agg->aggfilter)
			{
				gs->skip[a] = gs->skip[gs->filter_of[a]];
				if (expr == NULL)
				{
					/* count(*) FILTER: the filter's rows, as a bool vector */
					gs->vec_types[gs->nvec++] = BOOLOID;
					i++;
					continue;
				}
				gs->masked_nulls[a] = palloc(sizeof(bool) * rows);
			}
		}
		if (expr)
		{
			gs->exprs[gs->nvec] = pqfdw_vexpr_compile(expr, gs->scanrelid,
													  rows);
			gs->vec_types[gs->nvec] = exprType((Node *) expr);
			gs->nvec++;
		}
		i++;
	}
	for (i = 0; i < gs->naggs; i++)
		gs->ndistinct += aggs[i]->aggdistinct != NIL;
	if (gs->nkeys == 0)
		gs->offsets = pqfdw_offset_sums_create(aggs, gs->naggs, gs->scanrelid,
											   rows);
	/* keys that are columns come with dictionary indices (group_table.c) */
	i = 0;
	foreach(lc, plan->fdw_scan_tlist)
	{
		Expr	   *expr = lfirst_node(TargetEntry, lc)->expr;

		if (i++ >= gs->nkeys)
			break;
		if (IsA(expr, Var))
			pqfdw_table_reader_set_codes(tr, ((Var *) expr)->varattno);
	}
	/* the quals the scan's batch filter left, as one vector expression */
	if (list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA + 1) != NIL)
	{
		gs->quals = pqfdw_vexpr_compile(make_ands_explicit(list_nth(plan->fdw_private,
																	PQFDW_PRIVATE_EXTRA + 1)),
										gs->scanrelid, rows);
		gs->keep = palloc(sizeof(int) * rows);
	}
	foreach(lc, (List *) list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA + 2))
		gs->checks = lappend(gs->checks,
							 pqfdw_vexpr_compile(lfirst(lc), gs->scanrelid, rows));
	/* and the columns of function calls, computed once per entry */
	coded = NULL;
	if (gs->quals)
		coded = pqfdw_vexpr_coded_inputs(gs->quals, coded);
	foreach(lc, gs->checks)
		coded = pqfdw_vexpr_coded_inputs(lfirst(lc), coded);
	for (i = 0; i < gs->nvec; i++)
		if (gs->exprs[i] != NULL)
			coded = pqfdw_vexpr_coded_inputs(gs->exprs[i], coded);
	for (i = 0; i < gs->naggs; i++)
		if (gs->filters[i] != NULL)
			coded = pqfdw_vexpr_coded_inputs(gs->filters[i], coded);
	i = -1;
	while ((i = bms_next_member(coded, i)) >= 0)
		pqfdw_table_reader_set_codes(tr, i);
	/* and so do the columns text min/max read (accumulate.c) */
	for (i = 0; i < gs->naggs; i++)
	{
		Expr	   *arg;

		if (!pqfdw_accum_skips_seen(aggs[i]) || aggs[i]->aggfilter)
			continue;
		arg = linitial_node(TargetEntry, aggs[i]->args)->expr;
		if (IsA(arg, Var))
			pqfdw_table_reader_set_codes(tr, ((Var *) arg)->varattno);
	}
	/* numeric columns arrive as unscaled integers (grouping.c checked) */
	foreach(lc, pull_var_clause((Node *) plan->fdw_scan_tlist,
								PVC_RECURSE_AGGREGATES))
	{
		Var		   *var = lfirst_node(Var, lc);

		if (var->vartype == NUMERICOID)
			pqfdw_table_reader_set_unscaled(tr, var->varattno);
	}
	if (list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA + 3) != NIL)
	{
		TupleDesc	desc = node->ss.ss_ScanTupleSlot->tts_tupleDescriptor;

		gs->top_n = pqfdw_group_top_n_create(list_nth(plan->fdw_private,
													  PQFDW_PRIVATE_EXTRA + 3),
											 desc, CurrentMemoryContext);
		gs->rank_cxt = AllocSetContextCreate(CurrentMemoryContext,
											 "parquet_fdw group ranking",
											 ALLOCSET_SMALL_SIZES);
		gs->rank_values = palloc(sizeof(Datum) * desc->natts);
		gs->rank_nulls = palloc(sizeof(bool) * desc->natts);
	}
	gs->mem_limit = get_hash_memory_limit();
	gs->agg_cxt = AllocSetContextCreate(CurrentMemoryContext,
										"parquet_fdw groups",
										ALLOCSET_DEFAULT_SIZES);
	gs->spill_cxt = AllocSetContextCreate(CurrentMemoryContext,
										  "parquet_fdw grouping spill",
										  ALLOCSET_DEFAULT_SIZES);
}

/*
 * Aggregate the n rows of gs->vecs.  Rows of groups the full table does
 * not hold go to the spill files, with the hash that partitions them.
 */
static void
add_rows(PqGrouped *gs, int n)
{
	const int32 *slots = NULL;
	int			nstates = 1;
	int			i;

	if (gs->nkeys > 0)
	{
		int			r;

		gs->dict_rows += pqfdw_group_table_lookup(gs->groups, gs->vecs, n,
												  gs->gids);
		for (r = 0; r < n; r++)
		{
			gs->slots[r] = gs->gids[r] + 1;
			if (gs->gids[r] >= 0)
				continue;
			if (gs->spill == NULL)
			{
				gs->spill = MemoryContextAllocZero(gs->spill_cxt,
												   sizeof(PqSpill));
				gs->spill->level = gs->level;
			}
			pqfdw_spill_row(gs->spill, gs->vecs, gs->nvec, r,
							pqfdw_group_table_hash(gs->groups, gs->vecs, r));
			gs->spilled_rows++;
		}
		slots = gs->slots;
		nstates = pqfdw_group_table_count(gs->groups) + 1;
	}
	for (i = 0; i < gs->naggs; i++)
	{
		const PqVector *arg = gs->arg_vec[i] < 0 ? NULL : gs->vecs[gs->arg_vec[i]];

		pqfdw_accum_reserve(gs->accs[i], nstates);
		if (gs->answered && gs->answered[i])
		{
			pqfdw_offset_sums_add(gs->offsets, i, gs->accs[i]);
			continue;
		}
		if (gs->distinct[i])
			arg = pqfdw_distinct_filter(gs->distinct[i], slots, n, arg);
		pqfdw_accum_update(gs->accs[i], slots, n, arg);
	}
	if ((gs->nkeys > 0 || gs->ndistinct > 0) &&
		gs->level < PQFDW_SPILL_MAX_LEVEL)
	{
		Size		mem = MemoryContextMemAllocated(gs->agg_cxt, true);

		gs->peak_memory = Max(gs->peak_memory, mem);
		if (mem > gs->mem_limit)
		{
			if (gs->groups)
				pqfdw_group_table_set_full(gs->groups);
			for (i = 0; i < gs->naggs; i++)
				if (gs->distinct[i])
					pqfdw_distinct_set_full(gs->distinct[i]);
		}
	}
}

/* The partitions written while aggregating one input join the pending. */
static void
end_input(PqGrouped *gs)
{
	int			p;
	int			i;

	gs->answered = NULL;
	/* pairs of DISTINCT aggregates written to files reach their states */
	for (i = 0; i < gs->naggs; i++)
	{
		PqDistinct *d = gs->distinct[i];
		const int32 *slots;
		const PqVector *arg;
		int			n;

		if (d == NULL)
			continue;
		while (pqfdw_distinct_next(d, &slots, &arg, &n))
			pqfdw_accum_update(gs->accs[i], slots, n, arg);
		gs->distinct_spilled_rows += pqfdw_distinct_spilled_rows(d);
		gs->distinct_spilled_bytes += pqfdw_distinct_spilled_bytes(d);
	}
	gs->ngroups = gs->nkeys > 0 ? pqfdw_group_table_count(gs->groups) : 1;
	gs->total_groups += gs->nkeys > 0 ? gs->ngroups : 0;
	gs->peak_memory = Max(gs->peak_memory,
						  MemoryContextMemAllocated(gs->agg_cxt, true));
	if (gs->spill == NULL)
		return;
	gs->spilled_bytes += gs->spill->bytes;
	for (p = 0; p < PQFDW_SPILL_PARTS; p++)
		if (gs->spill->parts[p].file != NULL)
		{
			PqSpillPart *part = MemoryContextAlloc(gs->spill_cxt,
												   sizeof(PqSpillPart));

			*part = gs->spill->parts[p];
			gs->pending = lappend(gs->pending, part);
		}
	pfree(gs->spill);
	gs->spill = NULL;
}

/*
 * The batch's vectors: keys, then each aggregate's argument; with FILTER,
 * the argument only for the rows the filter passes (PostgreSQL evaluates
 * neither the argument nor its errors for the others), NULL elsewhere.
 */
static void
eval_vectors(PqGrouped *gs, const PqBatch *b, int n)
{
	int			i;
	int			r;

	ListCell   *lc;

	for (i = 0; i < gs->nkeys; i++)
		gs->vecs[i] = pqfdw_vexpr_eval(gs->exprs[i], b, n, NULL);
	foreach(lc, gs->checks)
		(void) pqfdw_vexpr_eval(lfirst(lc), b, n, NULL);
	gs->answered = gs->offsets ?
		pqfdw_offset_sums_batch(gs->offsets, b, n) : NULL;
	for (i = 0; i < gs->naggs; i++)
	{
		int			v = gs->arg_vec[i];
		PqVector   *m = &gs->masked[i];
		bool	   *skip = gs->skip[i];

		if (gs->answered && gs->answered[i])
			continue;

		/* the first aggregate with this filter computes the shared mask */
		if (gs->filter_of[i] == i)
		{
			const PqVector *f = pqfdw_vexpr_eval(gs->filters[i], b, n, NULL);

			for (r = 0; r < n; r++)
				skip[r] = f->nulls[r] || f->i[r] == 0;
		}
		if (v < 0)
			continue;
		if (gs->filter_of[i] < 0)
		{
			gs->vecs[v] = pqfdw_vexpr_eval(gs->exprs[v], b, n, NULL);
			continue;
		}
		if (gs->exprs[v] != NULL)
		{
			bool	   *mnulls = gs->masked_nulls[i];

			*m = *pqfdw_vexpr_eval(gs->exprs[v], b, n, skip);
			/* constants are not masked by skip: every rejected row is NULL */
			for (r = 0; r < n; r++)
				mnulls[r] = m->nulls[r] || skip[r];
			m->nulls = mnulls;
		}
		else
		{
			m->kind = PQV_INT;
			m->type = BOOLOID;
			m->i = gs->zeros;
			m->nulls = skip;
		}
		gs->vecs[v] = m;
	}
	for (i = 0; i < gs->nvec; i++)
		if (gs->vecs[i] != NULL)
			gs->vec_scales[i] = gs->vecs[i]->scale;
}

/*
 * The rows of b the grouped scan's own quals pass, as a batch of their
 * own (b itself when all do): keys and arguments then see only the rows
 * PostgreSQL would aggregate, with their dictionary indices.
 */
static const PqBatch *
qualified_rows(PqGrouped *gs, const PqBatch *b)
{
	const PqVector *q = pqfdw_vexpr_eval(gs->quals, b, b->nrows, NULL);
	PqBatch    *c = gs->qbatch;
	int			n = 0;
	int			r;
	int			i;

	for (r = 0; r < b->nrows; r++)
		if (!q->nulls[r] && q->i[r] != 0)
			gs->keep[n++] = r;
	if (n == b->nrows)
		return b;
	if (c == NULL)
	{
		c = gs->qbatch = palloc0(sizeof(PqBatch));
		c->capacity = b->capacity;
		c->natts = b->natts;
		c->values = palloc(sizeof(Datum) * b->natts * b->capacity);
		c->nulls = palloc(sizeof(bool) * b->natts * b->capacity);
		c->codes = palloc0(sizeof(PqBatchCodes *) * b->natts);
		gs->qcodes = palloc0(sizeof(PqBatchCodes *) * b->natts);
	}
	c->nrows = n;
	c->ncols = b->ncols;
	c->cols = b->cols;
	c->converters = b->converters;
	for (i = 0; i < b->ncols; i++)
	{
		int			att = b->cols[i].att;
		const Datum *sv = b->values + pqfdw_batch_index(b, att, 0);
		const bool *sn = b->nulls + pqfdw_batch_index(b, att, 0);
		Datum	   *dv = c->values + pqfdw_batch_index(c, att, 0);
		bool	   *dn = c->nulls + pqfdw_batch_index(c, att, 0);
		const PqBatchCodes *sc = b->codes[att];
		int			j;

		for (j = 0; j < n; j++)
		{
			dv[j] = sv[gs->keep[j]];
			dn[j] = sn[gs->keep[j]];
		}
		c->codes[att] = NULL;
		if (sc == NULL)
			continue;
		if (gs->qcodes[att] == NULL)
		{
			gs->qcodes[att] = palloc0(sizeof(PqBatchCodes));
			gs->qcodes[att]->codes = palloc(sizeof(uint32) * b->capacity);
		}
		gs->qcodes[att]->dict_id = sc->dict_id;
		gs->qcodes[att]->dict_count = sc->dict_count;
		for (j = 0; j < n; j++)
			gs->qcodes[att]->codes[j] = sc->codes[gs->keep[j]];
		c->codes[att] = gs->qcodes[att];
	}
	return c;
}

/* Read every batch of the table into the groups. */
static void
consume_table(PqGrouped *gs, ForeignScan *plan)
{
	PqTableReader *tr = pqfdw_scan_reader(gs->scan);
	const PqBatch *b;
	int			i;

	init_states(gs, plan);
	gs->level = 0;
	if (gs->nkeys == 0)
		for (i = 0; i < gs->naggs; i++)
			pqfdw_accum_reserve(gs->accs[i], 1);
	while ((b = pqfdw_table_reader_next(tr)) != NULL)
	{
		if (gs->quals)
			b = qualified_rows(gs, b);
		eval_vectors(gs, b, b->nrows);
		add_rows(gs, b->nrows);
	}
	end_input(gs);
}

/* Aggregate the next pending partition. */
/* Fresh states, and the reader of spilled rows as the batch's vectors. */
static void
start_reader(PqGrouped *gs, ForeignScan *plan)
{
	int			i;

	if (gs->reader == NULL)
		gs->reader = pqfdw_spill_reader_create(gs->nvec, gs->vec_types,
											   pqfdw_table_reader_batch(pqfdw_scan_reader(gs->scan))->capacity,
											   gs->spill_cxt);
	init_states(gs, plan);
	for (i = 0; i < gs->nvec; i++)
	{
		gs->reader->vecs[i].scale = gs->shared ? gs->shared->scales[i] :
			gs->vec_scales[i];
		gs->vecs[i] = &gs->reader->vecs[i];
	}
}

static void
consume_partition(PqGrouped *gs, ForeignScan *plan)
{
	PqSpillPart *part = linitial(gs->pending);
	int			n;

	gs->pending = list_delete_first(gs->pending);
	start_reader(gs, plan);
	gs->level = part->level + 1;
	gs->partitions++;
	pqfdw_spill_reader_start(gs->reader, *part);
	pfree(part);
	while ((n = pqfdw_spill_reader_next(gs->reader)) > 0)
		add_rows(gs, n);
	end_input(gs);
}

/*
 * Partitioned parallel grouping, first phase: every row this process reads
 * goes, with its keys' hash, to its own file of the row's partition; the
 * files are then closed for the other processes to read.
 */
static void
scatter_table(PqGrouped *gs, ForeignScan *plan)
{
	PqTableReader *tr = pqfdw_scan_reader(gs->scan);
	PqGroupShared *sh = gs->shared;
	int			proc = pqfdw_group_shared_proc();
	const PqBatch *b;
	PqSpill    *sp;
	bool		read = false;
	int			p;
	int			r;

	/* the group table gives the keys' hash; no group is added to it */
	init_states(gs, plan);
	sp = MemoryContextAllocZero(gs->spill_cxt, sizeof(PqSpill));
	sp->fileset = &sh->fileset.fs;
	sp->proc = proc;
	while ((b = pqfdw_table_reader_next(tr)) != NULL)
	{
		if (gs->quals)
			b = qualified_rows(gs, b);
		eval_vectors(gs, b, b->nrows);
		for (r = 0; r < b->nrows; r++)
			pqfdw_spill_row(sp, gs->vecs, gs->nvec, r,
							pqfdw_group_table_hash(gs->groups, gs->vecs, r));
		gs->moved_rows += b->nrows;
		read = true;
	}
	/* every writer's scales are the plan's: the last one's stand */
	for (p = 0; read && p < gs->nvec; p++)
		sh->scales[p] = gs->vec_scales[p];
	for (p = 0; p < PQFDW_SPILL_PARTS; p++)
	{
		sh->rows[proc][p] = sp->parts[p].rows;
		if (sp->parts[p].file != NULL)
			BufFileClose(sp->parts[p].file);
	}
	gs->moved_bytes += sp->bytes;
	pfree(sp);
}

/* Aggregate shared partition part: the rows every process wrote to it. */
static void
consume_shared_partition(PqGrouped *gs, ForeignScan *plan, int part)
{
	int			proc;
	int			n;

	start_reader(gs, plan);
	gs->level = 1;
	for (proc = 0; proc < PQFDW_GROUP_PROCS; proc++)
	{
		PqSpillPart sp = pqfdw_group_shared_part(gs->shared, part, proc);
		char		name[MAXPGPATH];

		if (sp.file == NULL)
			continue;
		pqfdw_spill_reader_start(gs->reader, sp);
		while ((n = pqfdw_spill_reader_next(gs->reader)) > 0)
			add_rows(gs, n);
		pqfdw_spill_shared_name(name, sizeof(name), part, proc);
		BufFileDeleteFileSet(&gs->shared->fileset.fs, name, true);
	}
	end_input(gs);
}

/*
 * The table's rows into the groups: all of them, or, in a partitioned
 * plan under Gather, this process's into the shared partitions, after
 * which it waits for the others.  A process that joins once the rows are
 * written has none to read: the others took every unit.
 */
static void
start_input(PqGrouped *gs, ForeignScan *plan)
{
	if (!gs->partitioned || gs->shared == NULL)
	{
		consume_table(gs, plan);
		return;
	}
	gs->attached = true;
	if (BarrierAttach(&gs->shared->barrier) == PQFDW_GROUP_PHASE_WRITE)
	{
		scatter_table(gs, plan);
		BarrierArriveAndWait(&gs->shared->barrier, PG_WAIT_EXTENSION);
	}
	gs->ngroups = gs->next_group = 0;
}

static void
detach_shared(PqGrouped *gs)
{
	if (!gs->attached)
		return;
	BarrierDetach(&gs->shared->barrier);
	gs->attached = false;
}

/*
 * Groups from the next input: a partition this process spilled, else, in
 * a partitioned plan, the next shared partition nobody has claimed.  False
 * when there is none.
 */
static bool
next_input(PqGrouped *gs, ForeignScan *plan)
{
	int			part;

	if (gs->pending != NIL)
	{
		consume_partition(gs, plan);
		return true;
	}
	if (!gs->attached)
		return false;
	part = pqfdw_group_shared_claim(gs->shared);
	if (part < 0)
	{
		detach_shared(gs);
		return false;
	}
	consume_shared_partition(gs, plan, part);
	return true;
}

static TupleTableSlot *
grouped_next(ForeignScanState *node)
{
	PqGrouped  *gs = node->fdw_state;
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	MemoryContext old;
	int			g;
	int			state;
	int			i;

	/*
	 * Spill files and the list of partitions outlive this call, which runs in
	 * the per-tuple context: they are made in the spill context.
	 */
	old = MemoryContextSwitchTo(gs->spill_cxt);
	if (!gs->started)
	{
		start_input(gs, plan);
		if (gs->top_n)
			rank_groups(gs, plan);
		gs->started = true;
	}
	ExecClearTuple(slot);
	if (gs->top_n)
	{
		MemoryContextSwitchTo(old);
		if (!pqfdw_group_top_n_next(gs->top_n, slot->tts_values,
									slot->tts_isnull))
			return slot;
		return ExecStoreVirtualTuple(slot);
	}
	while (gs->next_group >= gs->ngroups && next_input(gs, plan))
		;
	MemoryContextSwitchTo(old);
	if (gs->next_group >= gs->ngroups)
		return slot;
	g = gs->next_group++;
	state = gs->nkeys > 0 ? g + 1 : 0;
	old = MemoryContextSwitchTo(node->ss.ps.ps_ExprContext->ecxt_per_tuple_memory);
	for (i = 0; i < gs->nkeys + gs->naggs; i++)
		slot->tts_values[i] = group_column(gs, g, state, i,
										   &slot->tts_isnull[i]);
	MemoryContextSwitchTo(old);
	return ExecStoreVirtualTuple(slot);
}

/* Close the spill files not yet read. */
static void
drop_pending(PqGrouped *gs)
{
	ListCell   *lc;

	foreach(lc, gs->pending)
		BufFileClose(((PqSpillPart *) lfirst(lc))->file);
	gs->pending = NIL;
	if (gs->reader && gs->reader->part.file)
	{
		BufFileClose(gs->reader->part.file);
		gs->reader->part.file = NULL;
	}
}

static void
grouped_rescan(ForeignScanState *node)
{
	PqGrouped  *gs = node->fdw_state;

	pqfdw_scan_rescan(gs->scan);
	drop_pending(gs);
	detach_shared(gs);
	if (gs->top_n)
		pqfdw_group_top_n_reset(gs->top_n);
	gs->started = false;
	gs->ngroups = gs->next_group = 0;
}

static void
grouped_end(ForeignScanState *node)
{
	PqGrouped  *gs = node->fdw_state;

	if (gs == NULL)
		return;
	pqfdw_scan_end(gs->scan);
	if (gs->agg_cxt)
	{
		drop_pending(gs);
		MemoryContextDelete(gs->agg_cxt);
		MemoryContextDelete(gs->spill_cxt);
	}
}

/* A partitioned plan's shared memory (group_shared.h), before the scan's. */
static Size
grouped_dsm_size(ForeignScanState *node)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;

	return intVal(list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA + 4)) != 0 ?
		sizeof(PqGroupShared) : 0;
}

static void
grouped_dsm_init(ForeignScanState *node, dsm_segment *seg, void *area)
{
	PqGrouped  *gs = node->fdw_state;

	pqfdw_group_shared_init(area, seg);
	gs->shared = area;
}

static void
grouped_dsm_attach(ForeignScanState *node, void *area)
{
	PqGrouped  *gs = node->fdw_state;

	gs->shared = area;
}

/*
 * No process runs the plan now: the leader's attachment ends with it, and
 * the finished workers' counters join those of earlier scans.
 */
static void
grouped_dsm_reinit(ForeignScanState *node, void *area)
{
	PqGrouped  *gs = node->fdw_state;
	PqGroupShared *sh = area;

	gs->attached = false;
	gs->prior_groups += (int64) pg_atomic_read_u64(&sh->groups);
	gs->prior_moved_rows += (int64) pg_atomic_read_u64(&sh->rows_moved);
	gs->prior_moved_bytes += (int64) pg_atomic_read_u64(&sh->bytes_moved);
	pqfdw_group_shared_reset(area);
}

/*
 * A worker adds what it did to the shared counters as its plan finishes;
 * the leader, whose plan finishes after Gather has seen every worker's,
 * takes their sums for EXPLAIN ANALYZE.
 */
static void
grouped_shutdown(ForeignScanState *node)
{
	PqGrouped  *gs = node->fdw_state;
	PqGroupShared *sh;

	if (gs == NULL || gs->shared == NULL)
		return;
	sh = gs->shared;
	detach_shared(gs);
	if (IsParallelWorker())
	{
		pg_atomic_fetch_add_u64(&sh->groups, (uint64) gs->total_groups);
		pg_atomic_fetch_add_u64(&sh->rows_moved, (uint64) gs->moved_rows);
		pg_atomic_fetch_add_u64(&sh->bytes_moved, (uint64) gs->moved_bytes);
		gs->total_groups = gs->moved_rows = gs->moved_bytes = 0;
	}
	else
	{
		gs->worker_groups = gs->prior_groups +
			(int64) pg_atomic_read_u64(&sh->groups);
		gs->worker_moved_rows = gs->prior_moved_rows +
			(int64) pg_atomic_read_u64(&sh->rows_moved);
		gs->worker_moved_bytes = gs->prior_moved_bytes +
			(int64) pg_atomic_read_u64(&sh->bytes_moved);
	}
}

static PqScanState *
grouped_shared_scan(ForeignScanState *node)
{
	PqGrouped  *gs = node->fdw_state;

	return gs ? gs->scan : NULL;
}

const PqExecMethods pqfdw_grouped_methods = {
	.begin = grouped_begin,
	.next = grouped_next,
	.rescan = grouped_rescan,
	.end = grouped_end,
	.explain = pqfdw_grouped_explain,
	.shared_scan = grouped_shared_scan,
	.dsm_size = grouped_dsm_size,
	.dsm_init = grouped_dsm_init,
	.dsm_attach = grouped_dsm_attach,
	.dsm_reinit = grouped_dsm_reinit,
	.shutdown = grouped_shutdown,
};
