/*-------------------------------------------------------------------------
 *
 * scan.c
 *		Executor callbacks: iterate files and row groups, decode a batch of
 *		rows per projected column, then hand out tuples from the batch.
 *
 * Memory: the scan context holds converters; the file context (reset per
 * file) holds the footer and column readers, whose chunk contexts are reset
 * per row group; the batch context (reset per batch) holds the Datums the
 * slots point to.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/explain.h"
#include "convert.h"
#include "executor/executor.h"
#include "fdw_api.h"
#include "filter.h"
#include "prune.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/value.h"
#include "parquet_fdw.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/ruleutils.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/*
 * Rows decoded per batch: up to a segment's worth, fewer for very wide
 * tables so that a batch stays around 4 MB of Datums.
 */
#define PQFDW_BATCH_MAX_ROWS PQ_SEGMENT_CAP
#define PQFDW_BATCH_TARGET_DATUMS (512 * 1024)

typedef struct PqScanColumn
{
	AttrNumber	attnum;			/* 1-based */
	char	   *attname;
	PqConverter conv;
	bool		conv_ready;
	PqColumnReader *reader;		/* for the current file */
} PqScanColumn;

typedef struct PqScanState
{
	Oid			relid;
	List	   *paths;
	int			total_row_groups;
	int			ncols;
	PqScanColumn *cols;

	MemoryContext scan_cxt;
	MemoryContext file_cxt;
	MemoryContext batch_cxt;

	int			file_index;		/* into paths; -1 before the first */
	PqFile	   *file;
	PqFile	   *first_file;		/* schema every later file must match */
	int			row_group;
	int64		rg_rows_left;
	int64		file_row;		/* rows of this file already decoded */

	/* the batch, row-major: natts Datums and nulls per row */
	int			natts;
	int			batch_rows;		/* capacity */
	Datum	   *batch_values;
	bool	   *batch_nulls;
	int			batch_n;		/* rows that passed the filters */
	int			batch_pos;
	int		   *batch_sel;		/* their row numbers, when filtering */

	/* quals evaluated on batches */
	PqBatchFilter *filters;
	int			nfilters;
	List	   *filter_exprs;
	Index		scanrelid;
	ExprContext *econtext;

	/* row group pruning */
	PqPrunePred *preds;
	int			npreds;
	List	   *prune_exprs;
	List	   *prune_value_states; /* ExprStates of fdw_exprs */
	bool		prune_values_ready;
	MemoryContext param_cxt;	/* evaluated values, reset on rescan */
	PqConverter **att_cv;		/* per attribute: its converter, or NULL */
	int		   *att_leaf;		/* per attribute: leaf column in the file */

	/* EXPLAIN ANALYZE */
	int64		row_groups_read;
	int64		bytes_read;
	int64		rows_filtered;
	int64		row_groups_pruned_stats;
} PqScanState;

void
pqfdw_BeginForeignScan(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	Relation	rel = node->ss.ss_currentRelation;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PqScanState *st;
	List	   *paths;
	List	   *attnums;
	ListCell   *lc;
	int			i;

	st = palloc0(sizeof(PqScanState));
	node->fdw_state = st;
	st->relid = RelationGetRelid(rel);
	paths = list_nth(plan->fdw_private, PQFDW_PRIVATE_PATHS);
	attnums = list_nth(plan->fdw_private, PQFDW_PRIVATE_ATTNUMS);
	st->total_row_groups = intVal(list_nth(plan->fdw_private,
										   PQFDW_PRIVATE_ROW_GROUPS));
	foreach(lc, paths)
		st->paths = lappend(st->paths, strVal(lfirst(lc)));
	st->filter_exprs = list_nth(plan->fdw_private, PQFDW_PRIVATE_FILTERS);
	st->prune_exprs = list_nth(plan->fdw_private, PQFDW_PRIVATE_PRUNE);
	st->scanrelid = plan->scan.scanrelid;
	st->econtext = node->ss.ps.ps_ExprContext;

	st->scan_cxt = AllocSetContextCreate(CurrentMemoryContext,
										 "parquet_fdw scan",
										 ALLOCSET_DEFAULT_SIZES);
	st->file_cxt = AllocSetContextCreate(st->scan_cxt, "parquet_fdw file",
										 ALLOCSET_DEFAULT_SIZES);
	st->batch_cxt = AllocSetContextCreate(st->scan_cxt, "parquet_fdw batch",
										  ALLOCSET_DEFAULT_SIZES);

	st->ncols = list_length(attnums);
	st->cols = MemoryContextAllocZero(st->scan_cxt,
									  sizeof(PqScanColumn) * Max(st->ncols, 1));
	i = 0;
	foreach(lc, attnums)
	{
		PqScanColumn *c = &st->cols[i++];

		c->attnum = lfirst_int(lc);
		c->attname = MemoryContextStrdup(st->scan_cxt,
										 NameStr(TupleDescAttr(tupdesc, c->attnum - 1)->attname));
	}
	st->file_index = -1;

	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;

	/* columns that are not read stay NULL in every row */
	st->natts = tupdesc->natts;
	st->batch_rows = Max(1, Min(PQFDW_BATCH_MAX_ROWS,
								PQFDW_BATCH_TARGET_DATUMS / Max(st->natts, 1)));
	st->batch_values = MemoryContextAllocZero(st->scan_cxt,
											  sizeof(Datum) * st->batch_rows * Max(st->natts, 1));
	st->batch_nulls = MemoryContextAlloc(st->scan_cxt,
										 sizeof(bool) * st->batch_rows * Max(st->natts, 1));
	memset(st->batch_nulls, true, sizeof(bool) * st->batch_rows * Max(st->natts, 1));
	st->filters = pqfdw_batch_filters_init(st->filter_exprs, st->scanrelid,
										   &st->nfilters);
	if (st->nfilters > 0)
		st->batch_sel = MemoryContextAlloc(st->scan_cxt,
										   sizeof(int) * st->batch_rows);
	st->preds = pqfdw_prune_init(st->prune_exprs, st->scanrelid, &st->npreds);
	st->prune_value_states = ExecInitExprList(plan->fdw_exprs,
											  (PlanState *) node);
	st->param_cxt = AllocSetContextCreate(st->scan_cxt, "parquet_fdw params",
										  ALLOCSET_SMALL_SIZES);
	st->att_cv = MemoryContextAllocZero(st->scan_cxt,
										sizeof(PqConverter *) * Max(st->natts, 1));
	st->att_leaf = MemoryContextAlloc(st->scan_cxt,
									  sizeof(int) * Max(st->natts, 1));
}

/*
 * Open the next file and map the projected columns onto it; the first file
 * also sets up the converters, which checks the declared types once before
 * any row is returned.
 */
static bool
open_next_file(PqScanState *st, TupleDesc tupdesc)
{
	MemoryContext old;
	const char *path;
	int			i;

	if (st->file)
		pqfdw_source_close(st->file->src);
	st->file = NULL;
	MemoryContextReset(st->file_cxt);

	if (++st->file_index >= list_length(st->paths))
		return false;
	path = list_nth(st->paths, st->file_index);

	/* the first file's footer lives as long as the scan, for comparisons */
	old = MemoryContextSwitchTo(st->first_file ? st->file_cxt : st->scan_cxt);
	st->file = pqfdw_file_open(path);
	MemoryContextSwitchTo(old);
	if (st->first_file == NULL)
		st->first_file = st->file;
	else if (!pq_schema_node_equal(st->first_file->schema->root,
								   st->file->schema->root))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION),
				 errmsg("schema of Parquet file \"%s\" differs from the schema of \"%s\"",
						path, st->first_file->src->name),
				 errhint("All files of one foreign table must have the same columns and types.")));

	for (i = 0; i < st->ncols; i++)
	{
		PqScanColumn *c = &st->cols[i];
		PqSchemaNode *leaf = pqfdw_find_column(st->file, st->relid, c->attnum,
											   path);
		Form_pg_attribute att = TupleDescAttr(tupdesc, c->attnum - 1);

		if (!leaf->is_leaf || leaf->max_rep > 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("nested Parquet column \"%s\" is not supported yet",
							leaf->name)));
		if (!c->conv_ready)
		{
			pqfdw_converter_init(&c->conv, leaf, att->atttypid, att->atttypmod,
								 c->attname, st->scan_cxt);
			c->conv_ready = true;
		}
		c->reader = pq_column_reader_create(st->file, leaf->first_leaf,
											st->file_cxt);
		st->att_cv[c->attnum - 1] = &c->conv;
		st->att_leaf[c->attnum - 1] = leaf->first_leaf;
	}
	st->row_group = -1;
	st->rg_rows_left = 0;
	st->file_row = 0;
	return true;
}

/*
 * Evaluate the values the pruning predicates compare with: constants,
 * parameters of prepared statements and initplans.  Done at the first row
 * group of each (re)scan, not in BeginForeignScan, so that initplans run
 * only when the scan does.
 */
static void
evaluate_prune_values(PqScanState *st, ExprContext *econtext)
{
	int			n = list_length(st->prune_value_states);
	Datum	   *values;
	bool	   *isnull;
	ListCell   *lc;
	int			i = 0;
	MemoryContext old;

	MemoryContextReset(st->param_cxt);
	old = MemoryContextSwitchTo(st->param_cxt);
	values = palloc(sizeof(Datum) * Max(n, 1));
	isnull = palloc(sizeof(bool) * Max(n, 1));
	foreach(lc, st->prune_value_states)
	{
		ExprState  *es = (ExprState *) lfirst(lc);
		Oid			type = exprType((Node *) es->expr);
		int16		typlen;
		bool		typbyval;
		Datum		v;

		MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
		v = ExecEvalExpr(es, econtext, &isnull[i]);
		MemoryContextSwitchTo(st->param_cxt);
		get_typlenbyval(type, &typlen, &typbyval);
		values[i] = isnull[i] ? (Datum) 0 : datumCopy(v, typbyval, typlen);
		i++;
	}
	pqfdw_prune_set_values(st->preds, st->npreds, values, isnull);
	MemoryContextSwitchTo(old);
	ResetExprContext(econtext);
	st->prune_values_ready = true;
}

/* Advance to a row group with rows; false when every file is done. */
static bool
next_row_group(PqScanState *st, TupleDesc tupdesc)
{
	int			i;

	for (;;)
	{
		if (st->file == NULL || st->row_group + 1 >= st->file->md.n_row_groups)
		{
			if (st->file)
				for (i = 0; i < st->ncols; i++)
					st->bytes_read += st->cols[i].reader->bytes_read;
			if (!open_next_file(st, tupdesc))
				return false;
			continue;
		}
		st->row_group++;
		st->rg_rows_left = st->file->md.row_groups[st->row_group].num_rows;
		if (st->rg_rows_left == 0)
			continue;
		if (st->npreds > 0 && pqfdw_enable_statistics_pruning)
		{
			MemoryContext old;
			bool		match;

			if (!st->prune_values_ready)
				evaluate_prune_values(st, st->econtext);
			old = MemoryContextSwitchTo(st->batch_cxt);
			match = pqfdw_row_group_may_match(st->preds, st->npreds, st->file,
											  st->row_group, st->att_cv,
											  st->att_leaf);
			MemoryContextSwitchTo(old);
			if (!match)
			{
				st->row_groups_pruned_stats++;
				st->rg_rows_left = 0;
				continue;
			}
		}
		for (i = 0; i < st->ncols; i++)
			pq_column_reader_start(st->cols[i].reader, st->row_group);
		st->row_groups_read++;
		return true;
	}
}

static void
fill_column(PqScanState *st, PqScanColumn *c, int n)
{
	int			filled = 0;
	int			att = c->attnum - 1;

	while (filled < n)
	{
		PqSegment	seg;
		int			got;

		got = pq_column_reader_next(c->reader, n - filled, &seg);
		if (got == 0)
			pq_corrupt("column chunk ends after " INT64_FORMAT " of " INT64_FORMAT " rows of its row group",
					   st->file->md.row_groups[st->row_group].num_rows -
					   st->rg_rows_left + filled,
					   st->file->md.row_groups[st->row_group].num_rows);
		c->conv.row_base = st->file_row + filled;
		pqfdw_convert_segment(&c->conv, &seg,
							  st->batch_values + (size_t) filled * st->natts + att,
							  st->batch_nulls + (size_t) filled * st->natts + att,
							  st->natts);
		filled += got;
	}
}

static bool
next_batch(PqScanState *st, TupleDesc tupdesc)
{
	MemoryContext old;
	int			n;
	int			i;

	if (st->rg_rows_left == 0 && !next_row_group(st, tupdesc))
		return false;

	CHECK_FOR_INTERRUPTS();
	n = (int) Min((int64) st->batch_rows, st->rg_rows_left);
	MemoryContextReset(st->batch_cxt);
	old = MemoryContextSwitchTo(st->batch_cxt);
	for (i = 0; i < st->ncols; i++)
		fill_column(st, &st->cols[i], n);
	MemoryContextSwitchTo(old);

	st->rg_rows_left -= n;
	st->file_row += n;
	st->batch_pos = 0;
	st->batch_n = n;
	if (st->nfilters > 0)
	{
		st->batch_n = pqfdw_batch_filter(st->filters, st->nfilters,
										 st->batch_values, st->batch_nulls,
										 st->natts, n, st->batch_sel);
		st->rows_filtered += n - st->batch_n;
	}
	return true;
}

TupleTableSlot *
pqfdw_IterateForeignScan(ForeignScanState *node)
{
	PqScanState *st = node->fdw_state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	size_t		row;

	ExecClearTuple(slot);
	while (st->batch_pos >= st->batch_n)
	{
		if (!next_batch(st, slot->tts_tupleDescriptor))
			return slot;
	}

	row = (size_t) (st->nfilters > 0 ? st->batch_sel[st->batch_pos] :
					st->batch_pos) * st->natts;
	st->batch_pos++;
	memcpy(slot->tts_values, st->batch_values + row, sizeof(Datum) * st->natts);
	memcpy(slot->tts_isnull, st->batch_nulls + row, sizeof(bool) * st->natts);
	return ExecStoreVirtualTuple(slot);
}

void
pqfdw_ReScanForeignScan(ForeignScanState *node)
{
	PqScanState *st = node->fdw_state;

	if (st->file)
		pqfdw_source_close(st->file->src);
	st->file = NULL;
	st->file_index = -1;
	st->row_group = -1;
	st->rg_rows_left = 0;
	st->batch_n = st->batch_pos = 0;
	st->prune_values_ready = false;
	MemoryContextReset(st->batch_cxt);
	MemoryContextReset(st->file_cxt);
}

void
pqfdw_EndForeignScan(ForeignScanState *node)
{
	PqScanState *st = node->fdw_state;

	if (st == NULL)
		return;
	if (st->file)
		pqfdw_source_close(st->file->src);
	st->file = NULL;
	MemoryContextDelete(st->scan_cxt);
}

void
pqfdw_ExplainForeignScan(ForeignScanState *node, ExplainState *es)
{
	PqScanState *st = node->fdw_state;
	StringInfoData buf;
	ListCell   *lc;
	int			i;

	initStringInfo(&buf);
	foreach(lc, st->paths)
		appendStringInfo(&buf, "%s%s", buf.len ? ", " : "",
						 (const char *) lfirst(lc));
	ExplainPropertyText(list_length(st->paths) == 1 ? "Parquet File" :
						"Parquet Files", buf.data, es);
	ExplainPropertyInteger("Row Groups", NULL, st->total_row_groups, es);

	resetStringInfo(&buf);
	for (i = 0; i < st->ncols; i++)
		appendStringInfo(&buf, "%s%s", i ? ", " : "",
						 pqfdw_column_name(st->relid, st->cols[i].attnum));
	if (st->ncols == 0)
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
							deparse_expression(expr, context, false, false),
							es);
	}
	if (st->prune_exprs != NIL && es->verbose)
	{
		List	   *context = set_deparse_context_plan(es->deparse_cxt,
													   node->ss.ps.plan, NIL);

		ExplainPropertyText("Pruning Quals",
							deparse_expression((Node *) make_ands_explicit(st->prune_exprs),
											   context, false, false),
							es);
	}

	if (es->analyze)
	{
		int64		bytes = st->bytes_read;

		if (st->file)
			for (i = 0; i < st->ncols; i++)
				bytes += st->cols[i].reader->bytes_read;
		if (st->filter_exprs != NIL)
			ExplainPropertyInteger("Rows Removed by Parquet Filter", NULL,
								   st->rows_filtered, es);
		ExplainPropertyInteger("Row Groups Read", NULL, st->row_groups_read, es);
		if (st->prune_exprs != NIL)
			ExplainPropertyInteger("Row Groups Pruned by Statistics", NULL,
								   st->row_groups_pruned_stats, es);
		ExplainPropertyInteger("Bytes Read", "bytes", bytes, es);
	}
}
