/*-------------------------------------------------------------------------
 *
 * scan.c
 *		The scan of a foreign table: its table reader (with the pruner of
 *		its quals and the filter of its batches) hands out batches, the
 *		scan a tuple per row; and the parallel scan's shared cursor.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "executor/executor.h"
#include "fdw/common/explain.h"
#include "fdw/common/pg_compat.h"	/* commands/explain.h and its 18 parts */
#include "fdw/common/table_options.h"
#include "fdw/prune/prune.h"
#include "fdw/scan/filter.h"
#include "fdw/scan/parallel.h"
#include "fdw/scan/row_former.h"
#include "fdw/scan/scan.h"
#include "fdw/scan/table_reader.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/value.h"
#include "optimizer/optimizer.h"
#include "rewrite/rewriteManip.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

struct PqScanState
{
	PqTableReader *reader;		/* NULL with EXPLAIN only */
	Oid			relid;
	List	   *paths;
	List	   *attnums;
	int			total_row_groups;
	MemoryContext scan_cxt;

	/* the current batch (only rows that passed the filter) */
	const PqBatch *batch;
	int			batch_n;
	int			batch_pos;

	/* a row selector's choice of the batch's rows; rows NULL: every row */
	PqRowSelect row_select;
	void	   *row_select_arg;
	int		   *selected;
	const int  *rows;
	int64		rows_selected_out;

	/* computed columns of the scan target list, per batch row */
	PqComputeColumns compute;
	void	   *compute_arg;
	int			ncomputed;
	Datum	  **computed_values;
	bool	  **computed_nulls;

	/*
	 * With a scan target list (a whole-row reference or computed columns,
	 * fdw/plan/planner.c): the attribute number of each scan tuple column, 0
	 * for the whole row, SCAN_COMPUTED for an expression (the computed column
	 * of scan_computed), and the whole-row values of the batch rows
	 * [formed_first, formed_end), allocated in form_cxt.
	 */
	int			nscan;
	AttrNumber *scan_attnos;
	int		   *scan_computed;
	PqRowFormer *former;
	Datum	   *formed;
	int			formed_first;
	int			formed_end;
	MemoryContext form_cxt;

	/* quals evaluated on batches (filter.h) */
	List	   *filter_exprs;
	Index		scanrelid;
	ExprContext *econtext;

	/* row group pruning (NULL with EXPLAIN only) */
	List	   *prune_exprs;
	PqPruner   *pruner;

	/* datasets: files pruned by partition (plan time, run time) */
	bool		hive;
	int			files_total;
	int			files_pruned_plan;
	int			files_pruned_stats; /* by a table format's statistics */
	int			dirs_skipped;	/* by the plan's listing */
	uint64		paths_hash;		/* of all files: workers check the leader's */
	List	   *file_clauses;	/* of fdw_exprs, evaluated per file */
	PqfdwFilePruner *file_pruner;
	Relation	rel;
	ForeignScanState *node;

	/* parallel scans: the shared cursor; the workers' counters */
	PqParallelScan *shared;
	PqParallelCursor cursor;
	bool		counters_shared;	/* a worker's, added to shared */
	int			split_row_groups;	/* the leader's copy: EXPLAIN runs after
									 * the shared memory is gone */
	int64		parallel_units;
	int64		worker_counters[PQFDW_NCOUNTERS];
};

/* scan_attnos of a scan target list's expression */
#define SCAN_COMPUTED (-1)

/* File check of the table reader: files the file clauses rule out. */
static bool
file_check(void *arg, int file)
{
	return pqfdw_file_pruner_check(((PqScanState *) arg)->file_pruner, file);
}

static void init_scan_tlist(PqScanState *st, List *scan_tlist, Relation rel);

static Node *
table_var_mutator(Node *node, void *context)
{
	List	   *scan_tlist = context;

	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varno == INDEX_VAR)
	{
		Var		   *var = (Var *) node;

		Assert(var->varattno >= 1 && var->varattno <= list_length(scan_tlist));
		return (Node *) copyObject(((TargetEntry *) list_nth(scan_tlist,
															 var->varattno - 1))->expr);
	}
	return expression_tree_mutator(node, table_var_mutator, context);
}

/*
 * With a scan target list, set_plan_references() made the Vars of the file
 * clauses point into it (INDEX_VAR); the file pruner evaluates them over
 * the table's columns.
 */
static List *
table_vars(List *clauses, List *scan_tlist)
{
	if (scan_tlist == NIL)
		return clauses;
	return (List *) table_var_mutator((Node *) clauses, scan_tlist);
}

/* The file clauses, over the reader's files. */
static void
prune_files(PqScanState *st)
{
	if (st->file_clauses == NIL)
		return;
	st->file_pruner = pqfdw_file_pruner_create(pqfdw_table_reader_dataset(st->reader), st->file_clauses,
											   RelationGetDescr(st->rel),
											   (PlanState *) st->node);
	pqfdw_table_reader_set_file_check(st->reader, file_check, st);
}

PqScanState *
pqfdw_scan_begin(ForeignScanState *node, Relation rel, Index scanrelid,
				 int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	PqScanState *st;
	ListCell   *lc;
	Index		plan_relid;
	List	   *dataset;
	int			nvalues;
	List	   *now = NIL;
	bool		changed = false;
	bool		plan_union;

	st = palloc0(sizeof(PqScanState));
	st->relid = RelationGetRelid(rel);
	foreach(lc, (List *) list_nth(plan->fdw_private, PQFDW_PRIVATE_PATHS))
		st->paths = lappend(st->paths, strVal(lfirst(lc)));
	st->attnums = list_nth(plan->fdw_private, PQFDW_PRIVATE_ATTNUMS);
	st->total_row_groups = intVal(list_nth(plan->fdw_private,
										   PQFDW_PRIVATE_ROW_GROUPS));
	st->filter_exprs = list_nth(plan->fdw_private, PQFDW_PRIVATE_FILTERS);
	st->prune_exprs = list_nth(plan->fdw_private, PQFDW_PRIVATE_PRUNE);
	st->scanrelid = scanrelid;
	dataset = list_nth(plan->fdw_private, PQFDW_PRIVATE_DATASET);
	st->hive = intVal(linitial(dataset));
	st->files_total = intVal(lsecond(dataset));
	st->files_pruned_plan = intVal(lthird(dataset));
	st->dirs_skipped = intVal(list_nth(dataset, 5));
	st->files_pruned_stats = intVal(list_nth(dataset, 6));
	plan_union = boolVal(list_nth(dataset, 7));
	nvalues = intVal(lfourth(dataset));
	plan_relid = intVal(list_nth(plan->fdw_private, PQFDW_PRIVATE_RELID));
	if (plan_relid != st->scanrelid)
	{
		/* flattened into an outer query's range table: renumber our Vars */
		st->filter_exprs = copyObject(st->filter_exprs);
		st->prune_exprs = copyObject(st->prune_exprs);
		ChangeVarNodes((Node *) st->filter_exprs, plan_relid, st->scanrelid, 0);
		ChangeVarNodes((Node *) st->prune_exprs, plan_relid, st->scanrelid, 0);
	}
	st->econtext = node->ss.ps.ps_ExprContext;

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return st;

	/*
	 * Files added or removed since planning: read those named now.  A
	 * parallel worker reads the leader's files (pqfdw_scan_init_worker()).
	 */
	st->file_clauses = table_vars(list_copy_tail(plan->fdw_exprs, nvalues),
								  plan->fdw_scan_tlist);
	if (IsParallelWorker())
		st->paths_hash = pqfdw_plan_hash_value(list_nth(dataset, 4));
	else
	{
		now = pqfdw_scan_files(rel, pqfdw_scan_check_as_user(node),
							   list_nth(dataset, 4), st->file_clauses,
							   st->scanrelid, &st->paths_hash);
		changed = st->paths_hash != pqfdw_plan_hash_value(list_nth(dataset, 4));
		if (changed)
		{
			st->paths = now;
			st->files_total = list_length(now);
			st->files_pruned_plan = 0;
			st->files_pruned_stats = 0;
		}
	}

	st->scan_cxt = AllocSetContextCreate(CurrentMemoryContext,
										 "parquet_fdw scan",
										 ALLOCSET_DEFAULT_SIZES);
	st->reader = pqfdw_table_reader_create(rel, pqfdw_scan_check_as_user(node),
										   st->paths,
										   st->attnums,
										   st->hive ? PQFDW_HIVE_ON : PQFDW_HIVE_OFF,
										   st->scan_cxt);
	/* the plan's files, read as it read them (planner.c, one_schema()) */
	if (!changed)
		pqfdw_table_reader_dataset(st->reader)->union_by_name &= plan_union;
	if (st->filter_exprs != NIL)
		pqfdw_table_reader_set_filter(st->reader,
									  pqfdw_filter_create(st->filter_exprs,
														  st->scanrelid,
														  pqfdw_table_reader_batch(st->reader)->capacity,
														  st->scan_cxt),
									  list_nth(plan->fdw_private,
											   PQFDW_PRIVATE_OUTPUT));
	foreach(lc, (List *) list_nth(plan->fdw_private, PQFDW_PRIVATE_VARIANT_KEYS))
	{
		List	   *pair = lfirst(lc);

		pqfdw_table_reader_set_variant_keys(st->reader, intVal(linitial(pair)),
											lsecond(pair));
	}
	st->pruner = pqfdw_pruner_create(st->prune_exprs, st->scanrelid,
									 list_copy_head(plan->fdw_exprs, nvalues),
									 (PlanState *) node, st->scan_cxt);
	pqfdw_table_reader_set_pruner(st->reader, st->pruner);
	st->rel = rel;
	st->node = node;
	prune_files(st);
	return st;
}

PqTableReader *
pqfdw_scan_reader(PqScanState *st)
{
	return st->reader;
}

PqPruner *
pqfdw_scan_pruner(PqScanState *st)
{
	return st->pruner;
}

static void
scan_begin(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	PqScanState *st;

	st = pqfdw_scan_begin(node, node->ss.ss_currentRelation,
						  plan->scan.scanrelid, eflags);
	node->fdw_state = st;
	if (st->reader && plan->fdw_scan_tlist != NIL)
		init_scan_tlist(st, plan->fdw_scan_tlist, node->ss.ss_currentRelation);
}

/*
 * The scan tuple holds the entries of scan_tlist: columns and whole rows
 * (Vars), and expressions a computer installed later fills in.
 */
static void
init_scan_tlist(PqScanState *st, List *scan_tlist, Relation rel)
{
	ListCell   *lc;
	int			i = 0;

	st->nscan = list_length(scan_tlist);
	st->scan_attnos = MemoryContextAlloc(st->scan_cxt,
										 sizeof(AttrNumber) * st->nscan);
	st->scan_computed = MemoryContextAlloc(st->scan_cxt,
										   sizeof(int) * st->nscan);
	foreach(lc, scan_tlist)
	{
		Var		   *var = (Var *) lfirst_node(TargetEntry, lc)->expr;

		if (!IsA(var, Var))
		{
			st->scan_computed[i] = st->ncomputed++;
			st->scan_attnos[i++] = SCAN_COMPUTED;
			continue;
		}
		st->scan_attnos[i++] = var->varattno;
		if (var->varattno == 0 && st->former == NULL)
		{
			st->former = pqfdw_row_former_create(RelationGetDescr(rel),
												 RelationGetRelationName(rel),
												 st->scan_cxt);
			st->formed = MemoryContextAlloc(st->scan_cxt,
											sizeof(Datum) * PQFDW_FORM_CHUNK);
			st->form_cxt = AllocSetContextCreate(st->scan_cxt,
												 "parquet_fdw whole rows",
												 ALLOCSET_DEFAULT_SIZES);
		}
	}
}

void
pqfdw_scan_set_computed(PqScanState *st, PqComputeColumns compute, void *arg)
{
	int			capacity = pqfdw_table_reader_batch(st->reader)->capacity;
	int			k;

	st->compute = compute;
	st->compute_arg = arg;
	st->computed_values = MemoryContextAlloc(st->scan_cxt,
											 sizeof(Datum *) * Max(st->ncomputed, 1));
	st->computed_nulls = MemoryContextAlloc(st->scan_cxt,
											sizeof(bool *) * Max(st->ncomputed, 1));
	for (k = 0; k < st->ncomputed; k++)
	{
		st->computed_values[k] = MemoryContextAlloc(st->scan_cxt,
													sizeof(Datum) * capacity);
		st->computed_nulls[k] = MemoryContextAlloc(st->scan_cxt,
												   sizeof(bool) * capacity);
	}
}

void
pqfdw_scan_set_row_select(PqScanState *st, PqRowSelect select, void *arg)
{
	st->row_select = select;
	st->row_select_arg = arg;
	st->selected = MemoryContextAlloc(st->scan_cxt, sizeof(int) *
									  pqfdw_table_reader_batch(st->reader)->capacity);
}

static bool
next_batch(PqScanState *st)
{
	const PqBatch *b = pqfdw_table_reader_next(st->reader);

	if (b == NULL)
		return false;
	st->batch = b;
	st->batch_pos = 0;
	st->batch_n = b->nrows;
	st->rows = NULL;
	if (st->row_select != NULL)
	{
		int			n = st->row_select(st->row_select_arg, b, st->selected);

		st->rows_selected_out += b->nrows - n;
		if (n < b->nrows)
		{
			st->rows = st->selected;
			st->batch_n = n;
		}
	}
	if (st->ncomputed > 0)
	{
		if (st->compute == NULL)
			elog(ERROR, "parquet_fdw: computed scan columns without a computer");
		if (st->batch_n > 0)
			st->compute(st->compute_arg, b, st->rows, st->batch_n,
						st->computed_values, st->computed_nulls);
	}
	st->formed_first = st->formed_end = 0;
	return true;
}

/*
 * The scan tuple of batch row st->batch_pos (row in the batch): its
 * columns, and whole rows formed a chunk ahead.
 */
static void
fill_scan_tuple(PqScanState *st, TupleTableSlot *slot, int row)
{
	const PqBatch *b = st->batch;
	int			i;

	if (st->former && st->batch_pos >= st->formed_end)
	{
		MemoryContext old;
		int			n = Min(PQFDW_FORM_CHUNK, st->batch_n - st->batch_pos);

		MemoryContextReset(st->form_cxt);
		old = MemoryContextSwitchTo(st->form_cxt);
		pqfdw_form_rows(st->former, b->values, b->nulls, b->capacity,
						st->rows ? st->rows + st->batch_pos : NULL,
						st->batch_pos, n, st->formed);
		MemoryContextSwitchTo(old);
		st->formed_first = st->batch_pos;
		st->formed_end = st->batch_pos + n;
	}
	for (i = 0; i < st->nscan; i++)
	{
		AttrNumber	attno = st->scan_attnos[i];

		if (attno == 0)
		{
			slot->tts_values[i] = st->formed[st->batch_pos - st->formed_first];
			slot->tts_isnull[i] = false;
		}
		else if (attno == SCAN_COMPUTED)
		{
			int			k = st->scan_computed[i];

			slot->tts_values[i] = st->computed_values[k][row];
			slot->tts_isnull[i] = st->computed_nulls[k][row];
		}
		else
		{
			size_t		pos = pqfdw_batch_index(b, attno - 1, row);

			slot->tts_values[i] = b->values[pos];
			slot->tts_isnull[i] = b->nulls[pos];
		}
	}
}

static TupleTableSlot *
scan_next(ForeignScanState *node)
{
	PqScanState *st = node->fdw_state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	const PqBatch *b;
	int			row;

	ExecClearTuple(slot);
	while (st->batch_pos >= st->batch_n)
	{
		if (!next_batch(st))
			return slot;
	}

	row = st->rows ? st->rows[st->batch_pos] : st->batch_pos;
	b = st->batch;
	if (st->scan_attnos)
		fill_scan_tuple(st, slot, row);
	else
	{
		int			i;

		/* columns not read are NULL */
		memset(slot->tts_isnull, true, sizeof(bool) * b->natts);
		for (i = 0; i < b->ncols; i++)
		{
			int			att = b->cols[i].att;
			size_t		pos = pqfdw_batch_index(b, att, row);

			if (!b->cols[i].output)
				continue;

			slot->tts_values[att] = b->values[pos];
			slot->tts_isnull[att] = b->nulls[pos];
		}
	}
	st->batch_pos++;
	return ExecStoreVirtualTuple(slot);
}

void
pqfdw_scan_rescan(PqScanState *st)
{
	pqfdw_table_reader_rescan(st->reader);
	st->batch_n = st->batch_pos = 0;
	st->formed_first = st->formed_end = 0;
	pqfdw_pruner_rescan(st->pruner);
	if (st->file_pruner)
		pqfdw_file_pruner_reset(st->file_pruner);
}

static void
scan_rescan(ForeignScanState *node)
{
	pqfdw_scan_rescan(node->fdw_state);
}

void
pqfdw_scan_end(PqScanState *st)
{
	if (st == NULL || st->reader == NULL)
		return;
	pqfdw_table_reader_end(st->reader);
	MemoryContextDelete(st->scan_cxt);
}

static void
scan_end(ForeignScanState *node)
{
	pqfdw_scan_end(node->fdw_state);
}

/* This process's counters, in the order of PqScanCounter. */
static void
local_counters(PqScanState *st, int64 *c)
{
	const int64 *pc = pqfdw_pruner_counts(st->pruner);

	c[PQFDW_COUNT_ROWS_FILTERED] = pqfdw_table_reader_rows_filtered(st->reader);
	c[PQFDW_COUNT_ROWS_SELECTED_OUT] = st->rows_selected_out;
	c[PQFDW_COUNT_ROWS_DELETED] = pqfdw_table_reader_rows_deleted(st->reader);
	c[PQFDW_COUNT_ROW_GROUPS_READ] = pqfdw_table_reader_row_groups_read(st->reader);
	c[PQFDW_COUNT_PAGES_READ] = pqfdw_table_reader_pages_read(st->reader);
	c[PQFDW_COUNT_BYTES_READ] = pqfdw_table_reader_bytes_read(st->reader) +
		pc[PQ_PRUNE_BYTES_READ];
	memcpy(&c[PQFDW_COUNT_PRUNE], pc, sizeof(int64) * PQ_NPRUNE_COUNTERS);
}

static void
scan_explain(ForeignScanState *node, ExplainState *es)
{
	pqfdw_scan_explain(node->fdw_state, node, es);
}

/*
 * A vector scan's row filter and computed columns; whole rows the scan
 * forms (VERBOSE).
 */
static void
explain_vectors(ForeignScan *plan, ExplainState *es, bool useprefix)
{
	List	   *context = set_deparse_context_plan(es->deparse_cxt,
												   (Plan *) plan, NIL);
	List	   *computed = NIL;
	bool		whole_rows = false;
	ListCell   *lc;

	/* other kinds' scan target lists are theirs to explain */
	if (pqfdw_plan_kind(plan) != PQFDW_PLAN_SCAN &&
		pqfdw_plan_kind(plan) != PQFDW_PLAN_VECTOR_SCAN)
		return;
	foreach(lc, plan->fdw_scan_tlist)
	{
		Expr	   *e = lfirst_node(TargetEntry, lc)->expr;

		if (!IsA(e, Var))
			computed = lappend(computed, e);
		else if (((Var *) e)->varattno == 0)
			whole_rows = true;
	}
	if (pqfdw_plan_kind(plan) == PQFDW_PLAN_VECTOR_SCAN &&
		list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA) != NIL)
		ExplainPropertyText("Parquet Row Filter",
							deparse_expression((Node *) make_ands_explicit(list_nth(plan->fdw_private,
																					PQFDW_PRIVATE_EXTRA)),
											   context, useprefix, false),
							es);
	if (computed != NIL)
		ExplainPropertyText("Parquet Computed Columns",
							deparse_expression((Node *) computed, context,
											   useprefix, false),
							es);
	if (es->verbose && whole_rows)
		ExplainPropertyText("Whole Rows", "formed by the scan", es);
}

void
pqfdw_scan_explain(PqScanState *st, ForeignScanState *node, ExplainState *es)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	StringInfoData buf;
	ListCell   *lc;
	bool		useprefix = PQFDW_EXPLAIN_RTABLE_SIZE(es) > 1 || es->verbose;

	pqfdw_explain_files(st->paths, es);
	pqfdw_explain_file_counts(list_length(st->paths), st->files_total,
							  st->files_pruned_plan, st->files_pruned_stats,
							  st->hive, es);
	if (st->dirs_skipped > 0)
		ExplainPropertyInteger("Partition Directories Skipped", NULL,
							   st->dirs_skipped, es);
	if (es->analyze && st->file_pruner)
		ExplainPropertyInteger("Files Pruned at Run Time", NULL,
							   pqfdw_file_pruner_pruned(st->file_pruner), es);
	ExplainPropertyInteger("Row Groups", NULL, st->total_row_groups, es);

	initStringInfo(&buf);
	foreach(lc, st->attnums)
		appendStringInfo(&buf, "%s%s", buf.len ? ", " : "",
						 pqfdw_column_name(st->relid, lfirst_int(lc)));
	if (st->attnums == NIL)
		appendStringInfoString(&buf, "(none)");
	ExplainPropertyText("Parquet Columns", buf.data, es);

	if (st->filter_exprs != NIL)
	{
		List	   *context;
		Node	   *expr;

		context = set_deparse_context_plan(es->deparse_cxt,
										   node->ss.ps.plan, NIL);
		expr = (Node *) make_ands_explicit(st->filter_exprs);
		ExplainPropertyText("Parquet Filter",
							deparse_expression(expr, context, useprefix, false),
							es);
	}
	explain_vectors(plan, es, useprefix);
	if (st->prune_exprs != NIL && es->verbose)
	{
		List	   *context = set_deparse_context_plan(es->deparse_cxt,
													   node->ss.ps.plan, NIL);

		List	   *clauses;

		clauses = pqfdw_prune_clauses_with_values(st->prune_exprs, st->scanrelid,
												  plan->fdw_exprs);
		ExplainPropertyText("Pruning Quals",
							deparse_expression((Node *) make_ands_explicit(clauses),
											   context, useprefix, false),
							es);
	}

	if (es->analyze && st->reader)
	{
		int64		c[PQFDW_NCOUNTERS];
		int			i;

		/* this process's work plus the workers' (summed when they ended) */
		local_counters(st, c);
		for (i = 0; i < PQFDW_NCOUNTERS; i++)
			c[i] += st->worker_counters[i];
		if (st->filter_exprs != NIL)
			ExplainPropertyInteger("Rows Removed by Parquet Filter", NULL,
								   c[PQFDW_COUNT_ROWS_FILTERED], es);
		if (st->row_select != NULL)
			ExplainPropertyInteger("Rows Removed by Parquet Row Filter", NULL,
								   c[PQFDW_COUNT_ROWS_SELECTED_OUT], es);
		if (pqfdw_dataset_has_deletes(pqfdw_table_reader_dataset(st->reader)))
			ExplainPropertyInteger("Rows Removed by Deletion Vectors", NULL,
								   c[PQFDW_COUNT_ROWS_DELETED], es);
		ExplainPropertyInteger("Row Groups Read", NULL,
							   c[PQFDW_COUNT_ROW_GROUPS_READ], es);
		/* a parallel scan with too few row groups for its processes */
		if (st->split_row_groups > 0)
		{
			ExplainPropertyInteger("Row Groups Split for Workers", NULL,
								   st->split_row_groups, es);
			ExplainPropertyInteger("Parallel Units", NULL,
								   st->parallel_units, es);
		}
		if (st->prune_exprs != NIL)
		{
			/* a file all of whose row groups statistics exclude */
			if (st->files_total > 1 && st->shared == NULL)
				ExplainPropertyInteger("Files Pruned by Statistics", NULL,
									   pqfdw_pruner_files_pruned(st->pruner),
									   es);
			pqfdw_pruner_explain(st->pruner, &c[PQFDW_COUNT_PRUNE], es);
		}
		ExplainPropertyInteger("Data Pages Read", NULL,
							   c[PQFDW_COUNT_PAGES_READ], es);
		ExplainPropertyInteger("Bytes Read", "bytes",
							   c[PQFDW_COUNT_BYTES_READ], es);
	}
}

/*
 * Parallel scans.  Nothing a worker could not do itself is shared: each
 * process opens the files, looks up encryption keys in the key store and
 * evaluates the pruning values (Params reach workers through the executor);
 * only the cursor over the row groups and the counters live in the
 * dynamic shared memory.
 */
bool
pqfdw_IsForeignScanParallelSafe(PlannerInfo *root, RelOptInfo *rel,
								RangeTblEntry *rte)
{
	return true;
}

Size
pqfdw_scan_estimate_dsm(PqScanState *st)
{
	return pqfdw_parallel_size(st->paths);
}

static void
attach_shared(PqScanState *st, PqParallelScan *shared)
{
	st->shared = shared;
	pqfdw_parallel_cursor_init(&st->cursor, shared);
	pqfdw_table_reader_set_claim(st->reader, pqfdw_parallel_claim, &st->cursor);
}

void
pqfdw_scan_init_dsm(PqScanState *st, ParallelContext *pcxt, void *coordinate)
{
	pqfdw_parallel_init(coordinate, st->paths,
						pqfdw_table_reader_dataset(st->reader), st->paths_hash,
						pqfdw_table_reader_access(st->reader),
						Max(1, pcxt->nworkers +
							(parallel_leader_participation ? 1 : 0)));
	st->split_row_groups = ((PqParallelScan *) coordinate)->split_row_groups;
	st->parallel_units = (int64) ((PqParallelScan *) coordinate)->nunits;
	attach_shared(st, coordinate);
}

void
pqfdw_ReInitializeDSMForeignScan(ForeignScanState *node,
								 ParallelContext *pcxt, void *coordinate)
{
	pqfdw_parallel_reset(coordinate);
}

void
pqfdw_scan_init_worker(PqScanState *st, void *coordinate)
{
	PqParallelScan *shared = coordinate;
	PqfdwDataset *ds = pqfdw_table_reader_dataset(st->reader);

	/*
	 * The units are numbered over the leader's files: read those, and of a
	 * table format the version the leader reads (a commit may have come
	 * between), whose deletes go with them.
	 */
	if (shared->paths_hash != st->paths_hash ||
		(ds->location != NULL && ds->version != shared->table_version))
	{
		PqfdwTableVersion at = {shared->table_version, false, 0, NULL,
		shared->table_schema_id};

		st->paths = pqfdw_parallel_paths(shared);
		pqfdw_table_reader_set_paths(st->reader, st->paths,
									 st->hive ? PQFDW_HIVE_ON : PQFDW_HIVE_OFF,
									 shared->table_version >= 0 ? &at : NULL);
		prune_files(st);
	}
	pqfdw_table_reader_dataset(st->reader)->union_by_name = shared->union_by_name;
	attach_shared(st, coordinate);
}

/*
 * A worker adds its counters to the shared ones as its plan finishes,
 * before it detaches from the leader's Gather; the leader, whose scan ends
 * after Gather has seen every worker finish, takes their sum for EXPLAIN.
 */
void
pqfdw_scan_shutdown(PqScanState *st)
{
	if (st == NULL || st->shared == NULL)
		return;
	if (IsParallelWorker())
	{
		int64		c[PQFDW_NCOUNTERS];

		if (st->counters_shared)
			return;
		local_counters(st, c);
		pqfdw_parallel_add_counters(st->shared, c);
		st->counters_shared = true;
	}
	else
		pqfdw_parallel_read_counters(st->shared, st->worker_counters);
}

PqParallelScan *
pqfdw_scan_parallel_state(PqScanState *st)
{
	return st->shared;
}

static PqScanState *
scan_shared(ForeignScanState *node)
{
	return node->fdw_state;
}

const PqExecMethods pqfdw_scan_methods = {
	.begin = scan_begin,
	.next = scan_next,
	.rescan = scan_rescan,
	.end = scan_end,
	.explain = scan_explain,
	.shared_scan = scan_shared,
};
