/*-------------------------------------------------------------------------
 *
 * top_n_scan.c
 *		Top-N scans: ORDER BY ... LIMIT computed on the scan's batches.
 *
 * The best LIMIT + OFFSET rows seen so far are kept in a heap whose top is
 * the worst of them; a batch row enters only when it sorts strictly before
 * that worst row (so among equal rows the first read stays, as in
 * PostgreSQL's bounded sort).  Rows are compared key by key with
 * PostgreSQL's SortSupport for each ORDER BY column's sort operator,
 * collation and NULLS FIRST/LAST, so the order is PostgreSQL's for every
 * type.  Once the heap is full, a row group whose statistics show that no
 * row's first key can reach the worst kept row is skipped before any of
 * its pages is read (the statistics predicate "key <= worst", or >= for
 * DESC, through fdw/prune's row group check; a row group that may hold
 * NULL keys is read when NULLs sort first).  Of a row group that is read,
 * the pages whose page index shows the same are left out (the row ranges
 * of the other pages, intersected with those the scan's quals left).  At
 * the end the kept rows are sorted and returned after OFFSET.
 *
 * Late materialization: only the sort keys and the columns the filter
 * tests are read while the rows compete; a kept row remembers its file
 * and row number, and the other columns are read for the rows returned
 * only, by a reader of each of their files that fetches only the row
 * groups (and, with a page index, the pages) holding them.  A SELECT *
 * top-10 of a wide table decodes ten rows of most columns, not every row
 * passing the filter, and an out-of-range value in a column not needed is
 * no error, as with the batch filter.
 *
 * In a parallel plan each process returns its best rows to Gather Merge,
 * and Limit takes the best of all.  A process that keeps LIMIT rows
 * publishes its worst row's first key (by-value key types); a row whose
 * first key sorts after any process's published key is behind that
 * process's LIMIT rows, so no process needs it: it is not kept, row groups
 * holding only such keys are skipped, and kept rows behind the bound when
 * the scan ends are not returned (nor read late).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "executor/executor.h"
#include "fdw/common/pg_compat.h"
#include "fdw/common/table_options.h"
#include "fdw/prune/pages.h"
#include "fdw/prune/prune.h"
#include "fdw/pushdown/pushdown.h"
#include "fdw/scan/scan.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/sortsupport.h"

typedef struct PqTopNRow
{
	Datum	   *values;			/* per read column (batch->cols order) */
	bool	   *nulls;
	int			file;			/* where the row is: an index into the */
	int64		row;			/* reader's paths, the row in the file */
} PqTopNRow;

typedef struct PqTopN
{
	PqScanState *scan;
	PqTableReader *tr;
	const PqBatch *batch;		/* the reader's, refilled by each next */
	TupleDesc	tupdesc;
	int64		count;
	int64		offset;
	int			capacity;		/* count + offset */
	int			nkeys;
	int		   *key_col;		/* index into batch->cols of each key */
	SortSupportData *ssup;

	PqTopNRow  *rows;			/* capacity of them */
	PqTopNRow	scratch;		/* a batch row's keys, to compare */
	int			nrows;
	int		   *heap;			/* rows by position, worst on top */
	MemoryContext row_cxt;		/* the kept rows' values */
	bool		done;
	int			next;			/* of the sorted output */

	/*
	 * Skipping row groups and pages: the pruner's bound, "first key <= (>=)
	 * the worst kept" (key_preds[0]), OR "first key IS NULL" (key_preds[1])
	 * when NULLs sort first.
	 */
	PqPruner   *pruner;
	PqPrunePred key_preds[2];
	PqPrunePred key_or;
	Datum		worst_key;

	/* late materialization: the columns read for the rows returned only */
	List	   *deferred;		/* attnums (NULL in the scan's batches) */
	int		   *col_of_att;		/* batch column of each attribute, or -1 */
	Relation	rel;
	Oid			userid;
	int64		late_rows;
	int64		late_row_groups;
	int64		late_pages;
	int64		late_bytes;

	/*
	 * Parallel plans: the best first key other processes published (bound
	 * over statistics: shared_pred, or shared_or when NULLs sort first).
	 */
	bool		share;			/* publishes and reads bounds */
	bool		have_shared;
	Datum		shared_key;
	Datum	   *slot_keys;
	PqPrunePred shared_preds[2];
	PqPrunePred shared_or;
	int64		shared_dropped; /* rows the shared bound kept out */
} PqTopN;

static int
compare_rows(const PqTopNRow *a, const PqTopNRow *b, PqTopN *tn)
{
	int			k;

	for (k = 0; k < tn->nkeys; k++)
	{
		int			c = tn->key_col[k];
		int			cmp = ApplySortComparator(a->values[c], a->nulls[c],
											  b->values[c], b->nulls[c],
											  &tn->ssup[k]);

		if (cmp != 0)
			return cmp;
	}
	return 0;
}

/* Compare batch row r with kept row a: r's keys through the scratch row. */
static inline int
compare_row_batch(PqTopN *tn, int r, const PqTopNRow *a)
{
	const PqBatch *b = tn->batch;
	int			k;

	for (k = 0; k < tn->nkeys; k++)
	{
		int			c = tn->key_col[k];
		size_t		pos = pqfdw_batch_index(b, b->cols[c].att, r);

		tn->scratch.values[c] = b->values[pos];
		tn->scratch.nulls[c] = b->nulls[pos];
	}
	return compare_rows(&tn->scratch, a, tn);
}

/* The heap: worst row on top (a max-heap in sort order). */
static void
sift_down(PqTopN *tn, int i)
{
	int			n = tn->nrows;

	for (;;)
	{
		int			l = 2 * i + 1;
		int			worst = i;
		int			t;

		if (l < n && compare_rows(&tn->rows[tn->heap[l]],
								  &tn->rows[tn->heap[worst]], tn) > 0)
			worst = l;
		if (l + 1 < n && compare_rows(&tn->rows[tn->heap[l + 1]],
									  &tn->rows[tn->heap[worst]], tn) > 0)
			worst = l + 1;
		if (worst == i)
			return;
		t = tn->heap[i];
		tn->heap[i] = tn->heap[worst];
		tn->heap[worst] = t;
		i = worst;
	}
}

static void
sift_up(PqTopN *tn, int i)
{
	while (i > 0)
	{
		int			parent = (i - 1) / 2;
		int			t;

		if (compare_rows(&tn->rows[tn->heap[i]],
						 &tn->rows[tn->heap[parent]], tn) <= 0)
			return;
		t = tn->heap[i];
		tn->heap[i] = tn->heap[parent];
		tn->heap[parent] = t;
		i = parent;
	}
}

/* Copy batch row r's output columns into kept row dst. */
static void
keep_row(PqTopN *tn, int r, PqTopNRow *dst)
{
	const PqBatch *b = tn->batch;
	MemoryContext old = MemoryContextSwitchTo(tn->row_cxt);
	int			i;

	for (i = 0; i < b->ncols; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tn->tupdesc, b->cols[i].att);
		size_t		pos = pqfdw_batch_index(b, b->cols[i].att, r);

		if (!att->attbyval && !dst->nulls[i] && dst->values[i] != (Datum) 0)
			pfree(DatumGetPointer(dst->values[i]));
		dst->nulls[i] = !b->cols[i].output || b->nulls[pos];
		dst->values[i] = dst->nulls[i] ? (Datum) 0 :
			datumCopy(b->values[pos], att->attbyval, att->attlen);
	}
	if (tn->deferred != NIL)
		pqfdw_table_reader_row_position(tn->tr, r, &dst->file, &dst->row);
	MemoryContextSwitchTo(old);
}

/* The best first key the processes published so far. */
static void
read_shared_bound(PqTopN *tn, PqParallelScan *shared)
{
	int			n = pqfdw_parallel_bounds(shared, tn->slot_keys);
	int			i;

	for (i = 0; i < n; i++)
		if (!tn->have_shared ||
			ApplySortComparator(tn->slot_keys[i], false, tn->shared_key, false,
								&tn->ssup[0]) < 0)
		{
			tn->shared_key = tn->slot_keys[i];
			tn->have_shared = true;
		}
}

/* Whether a first key sorts after the shared bound: no process needs it. */
static inline bool
behind_shared(PqTopN *tn, Datum key, bool isnull)
{
	return tn->have_shared &&
		ApplySortComparator(key, isnull, tn->shared_key, false,
							&tn->ssup[0]) > 0;
}

/*
 * Once the heap is full, a row group or page can matter only if it may hold
 * a first key that sorts before the worst kept row's (or equal, when later
 * keys decide), or a NULL first key when NULLs sort first: the pruner's
 * bound, for the row groups after this batch.  A NULL worst key lets only
 * NULLs in, and none when NULLs sort last.
 */
static void
update_bound(PqTopN *tn)
{
	PqTopNRow  *worst = NULL;
	int			c = tn->key_col[0];
	bool		nulls_first = tn->ssup[0].ssup_nulls_first;
	PqPrunePred *bound = NULL;

	if (tn->capacity > 0 && tn->nrows == tn->capacity)
	{
		worst = &tn->rows[tn->heap[0]];
		if (worst->nulls[c])
			bound = nulls_first ? &tn->key_preds[1] : NULL;
		else
		{
			tn->worst_key = worst->values[c];
			bound = nulls_first ? &tn->key_or : &tn->key_preds[0];
		}
	}
	if (tn->share)
	{
		PqParallelScan *shared = pqfdw_scan_parallel_state(tn->scan);

		if (worst != NULL && !worst->nulls[c])
			pqfdw_parallel_publish_bound(shared, worst->values[c]);
		read_shared_bound(tn, shared);
		/* the shared key, when it lets fewer rows in than this heap's */
		if (tn->have_shared &&
			(worst == NULL || worst->nulls[c] ||
			 ApplySortComparator(tn->shared_key, false, worst->values[c],
								 false, &tn->ssup[0]) < 0))
			bound = nulls_first ? &tn->shared_or : &tn->shared_preds[0];
	}
	pqfdw_pruner_set_bound(tn->pruner, bound);
}

/* The statistics predicates of the first key, against the worst kept row. */
static void
init_key_preds(PqTopN *tn, Oid sortop, Oid collation)
{
	const PqBatchColumn *col = &tn->batch->cols[tn->key_col[0]];
	Oid			opfamily;
	Oid			opcintype;
	PqOrderingStrategy strategy;
	Oid			cmp_proc;
	bool		reverse;

	if (!get_ordering_op_properties(sortop, &opfamily, &opcintype, &strategy))
		elog(ERROR, "operator %u is not a valid ordering operator", sortop);
	reverse = strategy == BTGreaterStrategyNumber;
	tn->key_preds[0].kind = PQ_PRUNE_COMPARE;
	tn->key_preds[0].attnum = col->att + 1;
	/* with one key, an equal first key does not enter; else later keys decide */
	if (tn->nkeys == 1)
		tn->key_preds[0].strategy = reverse ? BTGreaterStrategyNumber :
			BTLessStrategyNumber;
	else
		tn->key_preds[0].strategy = reverse ? BTGreaterEqualStrategyNumber :
			BTLessEqualStrategyNumber;
	tn->key_preds[0].values = &tn->worst_key;
	tn->key_preds[0].nvalues = 1;
	tn->key_preds[0].value_index = -1;
	tn->key_preds[0].collation = collation;
	/* the opclass's input type: varchar columns compare with text's proc */
	cmp_proc = get_opfamily_proc(opfamily, opcintype, opcintype, BTORDER_PROC);
	if (!OidIsValid(cmp_proc))
		elog(ERROR, "missing support function %d(%u,%u) in opfamily %u",
			 BTORDER_PROC, opcintype, opcintype, opfamily);
	fmgr_info(cmp_proc, &tn->key_preds[0].cmp);
	tn->key_preds[1].kind = PQ_PRUNE_IS_NULL;
	tn->key_preds[1].attnum = col->att + 1;
	tn->key_preds[1].value_index = -1;
	tn->key_or.kind = PQ_PRUNE_OR;
	tn->key_or.args = tn->key_preds;
	tn->key_or.nargs = 2;
	tn->key_or.value_index = -1;

	/* the shared bound lets equal first keys in: only later ones are out */
	tn->shared_preds[0] = tn->key_preds[0];
	tn->shared_preds[0].strategy = reverse ? BTGreaterEqualStrategyNumber :
		BTLessEqualStrategyNumber;
	tn->shared_preds[0].values = &tn->shared_key;
	tn->shared_preds[1] = tn->key_preds[1];
	tn->shared_or = tn->key_or;
	tn->shared_or.args = tn->shared_preds;
}

/*
 * Defer the columns besides the sort keys and the filter's to the rows
 * returned (when late materialization is on and the LIMIT keeps rows).
 */
static void
init_late(PqTopN *tn, ForeignScanState *node)
{
	Bitmapset  *keep = NULL;
	int			k;
	int			i;

	tn->col_of_att = palloc(sizeof(int) * Max(tn->batch->natts, 1));
	for (i = 0; i < tn->batch->natts; i++)
		tn->col_of_att[i] = -1;
	for (i = 0; i < tn->batch->ncols; i++)
		tn->col_of_att[tn->batch->cols[i].att] = i;
	if (!pqfdw_enable_late_materialization || tn->count == 0)
		return;
	for (k = 0; k < tn->nkeys; k++)
		keep = bms_add_member(keep, tn->batch->cols[tn->key_col[k]].att + 1);
	tn->deferred = pqfdw_table_reader_set_deferred(tn->tr, keep);
	tn->rel = node->ss.ss_currentRelation;
	tn->userid = pqfdw_scan_check_as_user(node);
}

static void
top_n_begin(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	PqTopN	   *tn = palloc0(sizeof(PqTopN));
	List	   *spec = list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA);
	ListCell   *lc;
	int			k = 0;
	int			i;
	Oid			first_sortop = InvalidOid;
	Oid			first_collation = InvalidOid;

	node->fdw_state = tn;
	tn->scan = pqfdw_scan_begin(node, node->ss.ss_currentRelation,
								plan->scan.scanrelid, eflags);
	tn->count = intVal(linitial(spec));
	tn->offset = intVal(lsecond(spec));
	tn->capacity = (int) (tn->count + tn->offset);
	tn->tr = pqfdw_scan_reader(tn->scan);
	if (tn->tr == NULL)
		return;
	tn->batch = pqfdw_table_reader_batch(tn->tr);
	tn->tupdesc = RelationGetDescr(node->ss.ss_currentRelation);

	tn->nkeys = list_length(lthird(spec));
	tn->key_col = palloc(sizeof(int) * tn->nkeys);
	tn->ssup = palloc0(sizeof(SortSupportData) * tn->nkeys);
	foreach(lc, (List *) lthird(spec))
	{
		List	   *key = lfirst(lc);
		AttrNumber	attnum = linitial_int(key);

		tn->key_col[k] = -1;
		for (i = 0; i < tn->batch->ncols; i++)
			if (tn->batch->cols[i].att == attnum - 1)
				tn->key_col[k] = i;
		if (tn->key_col[k] < 0)
			elog(ERROR, "sort key %d of a top-N scan is not read", attnum);
		tn->ssup[k].ssup_cxt = CurrentMemoryContext;
		tn->ssup[k].ssup_collation = lthird_int(key);
		tn->ssup[k].ssup_nulls_first = lfourth_int(key);
		PrepareSortSupportFromOrderingOp(lsecond_int(key), &tn->ssup[k]);
		if (k == 0)
		{
			first_sortop = lsecond_int(key);
			first_collation = lthird_int(key);
		}
		k++;
	}
	tn->row_cxt = AllocSetContextCreate(CurrentMemoryContext,
										"parquet_fdw top-N rows",
										ALLOCSET_DEFAULT_SIZES);
	tn->rows = palloc0(sizeof(PqTopNRow) * Max(tn->capacity, 1));
	for (i = 0; i < tn->capacity; i++)
	{
		tn->rows[i].values = palloc0(sizeof(Datum) * Max(tn->batch->ncols, 1));
		tn->rows[i].nulls = palloc(sizeof(bool) * Max(tn->batch->ncols, 1));
		memset(tn->rows[i].nulls, true, sizeof(bool) * Max(tn->batch->ncols, 1));
	}
	tn->heap = palloc(sizeof(int) * Max(tn->capacity, 1));
	tn->scratch.values = palloc0(sizeof(Datum) * Max(tn->batch->ncols, 1));
	tn->scratch.nulls = palloc0(sizeof(bool) * Max(tn->batch->ncols, 1));
	init_key_preds(tn, first_sortop, first_collation);
	tn->pruner = pqfdw_scan_pruner(tn->scan);
	tn->slot_keys = palloc(sizeof(Datum) * PQFDW_TOP_N_SLOTS);
	init_late(tn, node);
}

static int
cmp_positions(const void *a, const void *b, void *arg)
{
	PqTopN	   *tn = arg;

	return compare_rows(&tn->rows[*(const int *) a],
						&tn->rows[*(const int *) b], tn);
}

static int
cmp_places(const void *a, const void *b, void *arg)
{
	PqTopN	   *tn = arg;
	const PqTopNRow *x = &tn->rows[*(const int *) a];
	const PqTopNRow *y = &tn->rows[*(const int *) b];

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/*
 * The deferred columns of kept rows rows[0..n) (by position in tn->rows),
 * all of file file and at its rows want (ascending).
 */
static void
read_late(PqTopN *tn, int file, const int *rows, const int64 *want, int n)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "parquet_fdw top-N late columns",
											  ALLOCSET_DEFAULT_SIZES);
	PqfdwDataset *ds = pqfdw_table_reader_dataset(tn->tr);
	PqTableReader *tr;
	const PqBatch *b;
	int			k = 0;

	tr = pqfdw_table_reader_create(tn->rel, tn->userid,
								   list_make1((char *) pqfdw_table_reader_path(tn->tr, file)),
								   tn->deferred,
								   ds && ds->nkeys > 0 ? PQFDW_HIVE_ON : PQFDW_HIVE_OFF,
								   cxt);
	pqfdw_table_reader_set_rows(tr, want, n);
	while ((b = pqfdw_table_reader_next(tr)) != NULL)
	{
		int			r;

		for (r = 0; r < b->nrows; r++, k++)
		{
			PqTopNRow  *dst;
			MemoryContext old;
			int			i;

			if (k >= n)
				elog(ERROR, "late materialization read more rows than the %d wanted",
					 n);
			dst = &tn->rows[rows[k]];
			old = MemoryContextSwitchTo(tn->row_cxt);
			for (i = 0; i < b->ncols; i++)
			{
				int			att = b->cols[i].att;
				int			c = tn->col_of_att[att];
				Form_pg_attribute fa = TupleDescAttr(tn->tupdesc, att);
				size_t		pos = pqfdw_batch_index(b, att, r);

				dst->nulls[c] = b->nulls[pos];
				dst->values[c] = b->nulls[pos] ? (Datum) 0 :
					datumCopy(b->values[pos], fa->attbyval, fa->attlen);
			}
			MemoryContextSwitchTo(old);
		}
	}
	if (k != n)
		elog(ERROR, "late materialization read %d of the %d rows wanted", k, n);
	tn->late_rows += n;
	tn->late_row_groups += pqfdw_table_reader_row_groups_read(tr);
	tn->late_pages += pqfdw_table_reader_pages_read(tr);
	tn->late_bytes += pqfdw_table_reader_bytes_read(tr);
	pqfdw_table_reader_end(tr);
	MemoryContextDelete(cxt);
}

/* The deferred columns of the rows returned, file by file. */
static void
fetch_late(PqTopN *tn)
{
	int			n = tn->nrows - tn->next;
	int		   *order = palloc(sizeof(int) * n);
	int64	   *want = palloc(sizeof(int64) * n);
	int			i;
	int			j;

	memcpy(order, tn->heap + tn->next, sizeof(int) * n);
	qsort_arg(order, n, sizeof(int), cmp_places, tn);
	for (i = 0; i < n; i = j)
	{
		int			file = tn->rows[order[i]].file;

		for (j = i; j < n && tn->rows[order[j]].file == file; j++)
			want[j - i] = tn->rows[order[j]].row;
		read_late(tn, file, order + i, want, j - i);
	}
	pfree(order);
	pfree(want);
}

/* Read every batch through the heap, then sort what it kept. */
static void
consume(PqTopN *tn)
{
	const PqBatch *b;

	tn->share = pqfdw_scan_parallel_state(tn->scan) != NULL &&
		TupleDescAttr(tn->tupdesc, tn->batch->cols[tn->key_col[0]].att)->attbyval;
	while (tn->capacity > 0 && (b = pqfdw_table_reader_next(tn->tr)) != NULL)
	{
		int			r;

		for (r = 0; r < b->nrows; r++)
		{
			if (tn->have_shared)
			{
				size_t		pos = pqfdw_batch_index(b, b->cols[tn->key_col[0]].att, r);

				if (behind_shared(tn, b->values[pos], b->nulls[pos]))
				{
					tn->shared_dropped++;
					continue;
				}
			}
			if (tn->nrows < tn->capacity)
			{
				keep_row(tn, r, &tn->rows[tn->nrows]);
				tn->heap[tn->nrows] = tn->nrows;
				tn->nrows++;
				sift_up(tn, tn->nrows - 1);
			}
			else if (compare_row_batch(tn, r, &tn->rows[tn->heap[0]]) < 0)
			{
				keep_row(tn, r, &tn->rows[tn->heap[0]]);
				sift_down(tn, 0);
			}
		}
		update_bound(tn);
	}
	qsort_arg(tn->heap, tn->nrows, sizeof(int), cmp_positions, tn);
	if (tn->share)
	{
		int			c = tn->key_col[0];

		/* sorted: the rows behind the bound are the last ones */
		read_shared_bound(tn, pqfdw_scan_parallel_state(tn->scan));
		while (tn->nrows > 0 &&
			   behind_shared(tn, tn->rows[tn->heap[tn->nrows - 1]].values[c],
							 tn->rows[tn->heap[tn->nrows - 1]].nulls[c]))
		{
			tn->nrows--;
			tn->shared_dropped++;
		}
	}
	tn->next = (int) Min(tn->offset, (int64) tn->nrows);
	if (tn->deferred != NIL && tn->next < tn->nrows)
		fetch_late(tn);
	tn->done = true;
}

static TupleTableSlot *
top_n_next(ForeignScanState *node)
{
	PqTopN	   *tn = node->fdw_state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	const PqBatch *b = tn->batch;
	PqTopNRow  *row;
	int			i;

	if (!tn->done)
		consume(tn);
	ExecClearTuple(slot);
	if (tn->next >= tn->nrows)
		return slot;
	row = &tn->rows[tn->heap[tn->next++]];
	/* columns not read are NULL */
	memset(slot->tts_isnull, true, sizeof(bool) * b->natts);
	for (i = 0; i < b->ncols; i++)
	{
		int			att = b->cols[i].att;

		slot->tts_values[att] = row->values[i];
		slot->tts_isnull[att] = row->nulls[i];
	}
	return ExecStoreVirtualTuple(slot);
}

static void
top_n_rescan(ForeignScanState *node)
{
	PqTopN	   *tn = node->fdw_state;
	int			i;
	int			c;

	pqfdw_scan_rescan(tn->scan);
	MemoryContextReset(tn->row_cxt);
	for (i = 0; i < tn->capacity; i++)
		for (c = 0; c < tn->batch->ncols; c++)
		{
			tn->rows[i].values[c] = (Datum) 0;
			tn->rows[i].nulls[c] = true;
		}
	tn->nrows = 0;
	tn->next = 0;
	tn->done = false;
	/* consume() decides again, once the shared state is reset */
	tn->share = false;
	tn->have_shared = false;
	update_bound(tn);
}

static void
top_n_end(ForeignScanState *node)
{
	PqTopN	   *tn = node->fdw_state;

	if (tn == NULL)
		return;
	pqfdw_scan_end(tn->scan);
	if (tn->row_cxt)
		MemoryContextDelete(tn->row_cxt);
}

static PqScanState *
top_n_shared_scan(ForeignScanState *node)
{
	PqTopN	   *tn = node->fdw_state;

	return tn ? tn->scan : NULL;
}

static void
top_n_explain(ForeignScanState *node, ExplainState *es)
{
	PqTopN	   *tn = node->fdw_state;
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	List	   *spec = list_nth(plan->fdw_private, PQFDW_PRIVATE_EXTRA);
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	/* per process, under Gather Merge and Limit */
	if (plan->scan.plan.parallel_aware)
		appendStringInfoString(&buf, "PARTIAL ");
	appendStringInfo(&buf, INT64_FORMAT, (int64) intVal(linitial(spec)));
	if (intVal(lsecond(spec)) > 0)
		appendStringInfo(&buf, " after " INT64_FORMAT,
						 (int64) intVal(lsecond(spec)));
	appendStringInfoString(&buf, " by ");
	foreach(lc, (List *) lthird(spec))
	{
		List	   *key = lfirst(lc);
		Oid			opfamily;
		Oid			opcintype;
		PqOrderingStrategy strategy;
		bool		desc;

		get_ordering_op_properties(lsecond_int(key), &opfamily, &opcintype,
								   &strategy);
		desc = strategy == BTGreaterStrategyNumber;
		appendStringInfo(&buf, "%s%s%s%s",
						 foreach_current_index(lc) > 0 ? ", " : "",
						 quote_identifier(pqfdw_column_name(RelationGetRelid(node->ss.ss_currentRelation),
															linitial_int(key))),
						 desc ? " DESC" : "",
						 lfourth_int(key) != desc ?
						 (lfourth_int(key) ? " NULLS FIRST" : " NULLS LAST") : "");
	}
	ExplainPropertyText("Parquet Top-N", buf.data, es);
	pqfdw_scan_explain(tn->scan, node, es);
	if (es->analyze && tn->tr)
	{
		int64		row_groups;
		int64		rows;

		pqfdw_pruner_bound_counts(tn->pruner, &row_groups, &rows);
		ExplainPropertyInteger("Row Groups Skipped by Top-N", NULL,
							   row_groups, es);
		ExplainPropertyInteger("Rows Skipped by Top-N Page Index", NULL,
							   rows, es);
		if (tn->share)
			ExplainPropertyInteger("Rows Behind Shared Top-N Bound", NULL,
								   tn->shared_dropped, es);
		if (tn->deferred != NIL)
		{
			ExplainPropertyInteger("Late Columns", NULL,
								   list_length(tn->deferred), es);
			ExplainPropertyInteger("Late Rows", NULL, tn->late_rows, es);
			ExplainPropertyInteger("Late Row Groups Read", NULL,
								   tn->late_row_groups, es);
			ExplainPropertyInteger("Late Data Pages Read", NULL,
								   tn->late_pages, es);
			ExplainPropertyInteger("Late Bytes Read", "bytes",
								   tn->late_bytes, es);
		}
	}
}

const PqExecMethods pqfdw_top_n_methods = {
	.begin = top_n_begin,
	.next = top_n_next,
	.rescan = top_n_rescan,
	.end = top_n_end,
	.explain = top_n_explain,
	.shared_scan = top_n_shared_scan,
};
