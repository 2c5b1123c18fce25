/*-------------------------------------------------------------------------
 *
 * footer_answers.c
 *		Execution of the aggregates the footers answer (fdw/plan/upper.c):
 *		one row of count(*) and min/max values.
 *
 * count(*) is the sum of the row groups' num_rows: what the table reader
 * returns, since it reads exactly num_rows entries of every row group or
 * fails.  count(column) of a flat column is the sum of its chunks'
 * num_values less null_count; a chunk without a null count makes the
 * column be read (its values are only tested for NULL).  min/max of a
 * column combine its row groups' statistics, converted as the scan converts
 * values (the converter must keep the order), skipping row groups whose
 * values are all null.  When a row group with values has no exact min/max
 * for the column (no statistics, bounds in an order that is not the
 * type's and collation's, or binary bounds not marked exact), that column
 * is read instead: its values, through the table reader, over every file,
 * once for all of its aggregates.  The footers are read at the first
 * fetch, not at plan start, so EXPLAIN without ANALYZE reads nothing and a
 * prepared statement sees the files as they are.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "executor/executor.h"
#include "fdw/common/columns.h"
#include "fdw/common/explain.h"
#include "fdw/common/pg_compat.h"
#include "fdw/common/source.h"
#include "fdw/common/table_options.h"
#include "fdw/dataset/dataset.h"
#include "fdw/prune/prune.h"
#include "fdw/pushdown/pushdown.h"
#include "fdw/scan/scan.h"
#include "fdw/scan/table_reader.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/pg_locale.h"
#include "utils/rel.h"
#include "utils/typcache.h"

typedef struct PqFooterColumn
{
	PqfdwFooterKind kind;
	AttrNumber	attnum;			/* min/max, count(column) */
	bool		isnull;
	Datum		value;
	bool		scanned;		/* read from the values */
	TypeCacheEntry *tc;			/* min/max: the type's comparison */
} PqFooterColumn;

typedef struct PqFooterAggregate
{
	List	   *paths;			/* char * */
	List	   *file_set;		/* hash of all files, varno, file clauses */
	Oid			relid;
	Oid			userid;			/* the plan's checkAsUser */
	int			ncols;
	PqFooterColumn *cols;		/* per scan tuple column */
	bool		done;			/* the row was returned */
	bool		computed;
	int64		row_groups;
	int64		pages_read;		/* by columns that had to be read */
	int64		bytes_read;
	MemoryContext cxt;			/* the values */
} PqFooterAggregate;

static void
footer_begin(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	PqFooterAggregate *fa = palloc0(sizeof(PqFooterAggregate));
	List	   *kinds = list_nth(plan->fdw_private, PQFDW_FOOTER_PRIVATE_KINDS);
	ListCell   *lc;
	ListCell   *ac;
	int			i = 0;

	foreach(lc, (List *) list_nth(plan->fdw_private, PQFDW_FOOTER_PRIVATE_PATHS))
		fa->paths = lappend(fa->paths, strVal(lfirst(lc)));
	fa->relid = intVal(list_nth(plan->fdw_private, PQFDW_FOOTER_PRIVATE_RELID));
	fa->userid = pqfdw_scan_check_as_user(node);
	fa->file_set = list_nth(plan->fdw_private, PQFDW_FOOTER_PRIVATE_FILE_SET);
	fa->ncols = list_length(kinds);
	fa->cols = palloc0(sizeof(PqFooterColumn) * fa->ncols);
	forboth(lc, kinds, ac, list_nth(plan->fdw_private, PQFDW_FOOTER_PRIVATE_ATTNUMS))
	{
		fa->cols[i].kind = lfirst_int(lc);
		fa->cols[i].attnum = lfirst_int(ac);
		i++;
	}
	fa->cxt = AllocSetContextCreate(CurrentMemoryContext,
									"parquet_fdw footer aggregates",
									ALLOCSET_DEFAULT_SIZES);
	node->fdw_state = fa;
}

/*
 * Keep v in c when it is below (min) or above (max) what c holds; a value
 * passed by reference is copied into the current memory context.
 */
static void
accumulate(PqFooterColumn *c, Oid collation, Datum v)
{
	TypeCacheEntry *tc = c->tc;
	int			cmp;

	if (!c->isnull)
	{
		cmp = DatumGetInt32(FunctionCall2Coll(&tc->cmp_proc_finfo, collation,
											  v, c->value));
		if (!((c->kind == PQFDW_FOOTER_MIN && cmp < 0) ||
			  (c->kind == PQFDW_FOOTER_MAX && cmp > 0)))
			return;
		if (!tc->typbyval)
			pfree(DatumGetPointer(c->value));
	}
	c->value = datumCopy(v, tc->typbyval, tc->typlen);
	c->isnull = false;
}

/*
 * Whether the bounds of a chunk of col, converted, are in the order of the
 * declared type and collation: strings compare as unsigned bytes, which is
 * PostgreSQL's order under "C" for UTF-8 text.  Binary bounds (strings,
 * DECIMALs in byte arrays) may be truncated by writers: only bounds marked
 * exact are taken.
 */
static bool
bounds_usable(const PqColumnDescr *col, const PqStatistics *s,
			  PqConverter *cv, Oid collation)
{
	if (col->physical_type == PQ_BYTE_ARRAY ||
		col->physical_type == PQ_FIXED_LEN_BYTE_ARRAY)
	{
		if (!s->has_is_min_value_exact || !s->is_min_value_exact ||
			!s->has_is_max_value_exact || !s->is_max_value_exact)
			return false;
	}
	else if ((s->has_is_min_value_exact && !s->is_min_value_exact) ||
			 (s->has_is_max_value_exact && !s->is_max_value_exact))
		return false;
	if (cv->natural_type == TEXTOID)
		return pqfdw_collate_is_c(collation) &&
			(GetDatabaseEncoding() == PG_UTF8 ||
			 GetDatabaseEncoding() == PG_SQL_ASCII);
	return true;
}

/*
 * min/max of column c from the statistics of every row group of files;
 * false when some row group with values cannot say.
 */
static bool
minmax_from_footers(PqFooterAggregate *fa, PqFooterColumn *c, List *files,
					Form_pg_attribute att)
{
	PqConverter cv;
	bool		cv_ready = false;
	ListCell   *lc;

	c->isnull = true;
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);
		PqSchemaNode *leaf = pqfdw_find_column(f, fa->relid, c->attnum,
											   f->src->name);
		const PqColumnDescr *col = &f->schema->columns[leaf->first_leaf];
		int			rg;

		if (!cv_ready)
		{
			pqfdw_converter_init(&cv, leaf, att->atttypid, att->atttypmod,
								 NameStr(att->attname), fa->cxt);
			cv_ready = true;
			if (!pqfdw_stat_converter_keeps_order(&cv))
				break;
		}
		for (rg = 0; rg < f->md.n_row_groups; rg++)
		{
			const PqRowGroup *g = &f->md.row_groups[rg];
			const PqColumnMetaData *m = &g->columns[leaf->first_leaf].meta_data;
			const PqStatistics *s = &m->statistics;
			PqBytes		lo;
			PqBytes		hi;
			Datum		v;

			if (g->num_rows == 0)
				continue;
			if (!g->columns[leaf->first_leaf].has_meta_data || !m->has_statistics)
				return false;
			/* every value null: nothing to add */
			if (s->has_null_count && s->null_count == m->num_values)
				continue;
			if (!pqfdw_chunk_stat_bytes(col, s, &lo, &hi) ||
				!bounds_usable(col, s, &cv, att->attcollation) ||
				!pqfdw_stat_to_datum(&cv, c->kind == PQFDW_FOOTER_MIN ? lo : hi, &v))
				return false;
			accumulate(c, att->attcollation, v);
		}
	}
	return cv_ready && pqfdw_stat_converter_keeps_order(&cv);
}

/*
 * count(column) of c from the null counts of every chunk of files; false
 * when a chunk has none.
 */
static bool
count_from_footers(PqFooterAggregate *fa, PqFooterColumn *c, List *files)
{
	int64		count = 0;
	ListCell   *lc;

	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);
		PqSchemaNode *leaf = pqfdw_find_column(f, fa->relid, c->attnum,
											   f->src->name);
		int			rg;

		/* UNKNOWN is NULL whatever the chunk says */
		if (leaf->logical.id == PQ_LT_UNKNOWN)
			continue;
		for (rg = 0; rg < f->md.n_row_groups; rg++)
		{
			const PqRowGroup *g = &f->md.row_groups[rg];
			const PqColumnMetaData *m = &g->columns[leaf->first_leaf].meta_data;
			const PqStatistics *s = &m->statistics;

			if (g->num_rows == 0)
				continue;
			if (!g->columns[leaf->first_leaf].has_meta_data ||
				!m->has_statistics || !s->has_null_count ||
				s->null_count < 0 || s->null_count > m->num_values ||
				m->num_values != g->num_rows)
				return false;
			count += m->num_values - s->null_count;
		}
	}
	c->value = Int64GetDatum(count);
	c->isnull = false;
	return true;
}

/*
 * The aggregates of column attnum that the footers could not answer
 * (scanned), from its values: one pass through the table reader.
 */
static void
aggregate_values(PqFooterAggregate *fa, AttrNumber attnum, Relation rel)
{
	PqTableReader *tr = pqfdw_table_reader_create(rel, fa->userid, fa->paths,
												  list_make1_int(attnum),
												  PQFDW_HIVE_AUTO,
												  CurrentMemoryContext);
	Oid			collation = TupleDescAttr(RelationGetDescr(rel),
										  attnum - 1)->attcollation;
	PqFooterColumn **minmax = palloc(sizeof(PqFooterColumn *) * fa->ncols);
	int			nminmax = 0;
	const PqBatch *b;
	int			k;
	int64		count = 0;

	for (k = 0; k < fa->ncols; k++)
	{
		PqFooterColumn *c = &fa->cols[k];

		if (!c->scanned || c->attnum != attnum)
			continue;
		c->isnull = true;
		if (c->kind != PQFDW_FOOTER_COUNT_COLUMN)
			minmax[nminmax++] = c;
	}
	while ((b = pqfdw_table_reader_next(tr)) != NULL)
	{
		int			i;

		for (i = 0; i < b->nrows; i++)
		{
			size_t		pos = pqfdw_batch_index(b, attnum - 1, i);

			if (b->nulls[pos])
				continue;
			count++;
			for (k = 0; k < nminmax; k++)
				accumulate(minmax[k], collation, b->values[pos]);
		}
		CHECK_FOR_INTERRUPTS();
	}
	for (k = 0; k < fa->ncols; k++)
		if (fa->cols[k].scanned && fa->cols[k].attnum == attnum &&
			fa->cols[k].kind == PQFDW_FOOTER_COUNT_COLUMN)
		{
			fa->cols[k].value = Int64GetDatum(count);
			fa->cols[k].isnull = false;
		}
	fa->pages_read += pqfdw_table_reader_pages_read(tr);
	fa->bytes_read += pqfdw_table_reader_bytes_read(tr);
	pqfdw_table_reader_end(tr);
}

/* Whether an earlier footer column than i reads the same attribute. */
static bool
read_before(PqFooterAggregate *fa, int i)
{
	int			k;

	for (k = 0; k < i; k++)
		if (fa->cols[k].scanned && fa->cols[k].attnum == fa->cols[i].attnum)
			return true;
	return false;
}

/*
 * The plan's files, or those named now pruned by the plan's file clauses
 * (file_set.c): the clauses only compare partition values with constants,
 * so they decide every file.
 */
static void
current_files(PqFooterAggregate *fa, Relation rel)
{
	uint64		hash;
	List	   *clauses = lthird(fa->file_set);
	List	   *now = pqfdw_scan_files(rel, fa->userid, linitial(fa->file_set),
									   clauses, intVal(lsecond(fa->file_set)),
									   &hash);
	PqfdwTableOptions opts;
	PqfdwDataset *ds;
	bool	   *pruned;
	int			npruned;
	bool		all_true;
	int			i;

	if (hash == pqfdw_plan_hash_value(linitial(fa->file_set)))
		return;
	fa->paths = now;
	if (clauses == NIL)
		return;
	pqfdw_get_table_options_as(fa->relid, fa->userid, &opts);
	ds = pqfdw_dataset_create(fa->relid, RelationGetDescr(rel), now, &opts,
							  opts.hive, CurrentMemoryContext);
	pruned = pqfdw_files_pruned_at_plan(NULL, ds, clauses,
										intVal(lsecond(fa->file_set)),
										&npruned, &all_true);
	if (!all_true)
		elog(ERROR, "partition clauses of a footer aggregate left a file undecided");
	fa->paths = NIL;
	for (i = 0; i < ds->nfiles; i++)
		if (!pruned[i])
			fa->paths = lappend(fa->paths, ds->paths[i]);
}

static void
compute(PqFooterAggregate *fa)
{
	MemoryContext old = MemoryContextSwitchTo(fa->cxt);
	Relation	rel = table_open(fa->relid, NoLock);
	List	   *files;
	PqfdwAccess access;
	int64		rows = 0;
	ListCell   *lc;
	int			i;

	current_files(fa, rel);
	pqfdw_table_access(fa->relid, fa->userid, &access);
	files = pqfdw_open_footers(fa->paths, &access, true);

	fa->row_groups = 0;
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);
		int			rg;

		for (rg = 0; rg < f->md.n_row_groups; rg++)
			rows += f->md.row_groups[rg].num_rows;
		fa->row_groups += f->md.n_row_groups;
	}
	for (i = 0; i < fa->ncols; i++)
	{
		PqFooterColumn *c = &fa->cols[i];
		Form_pg_attribute att;
		TypeCacheEntry *tc;

		if (c->kind == PQFDW_FOOTER_COUNT)
		{
			c->value = Int64GetDatum(rows);
			c->isnull = false;
			continue;
		}
		if (c->kind == PQFDW_FOOTER_COUNT_COLUMN)
		{
			c->scanned = !count_from_footers(fa, c, files);
			continue;
		}
		att = TupleDescAttr(RelationGetDescr(rel), c->attnum - 1);
		tc = lookup_type_cache(att->atttypid, TYPECACHE_CMP_PROC_FINFO);
		if (!OidIsValid(tc->cmp_proc_finfo.fn_oid))
			elog(ERROR, "no btree comparison function for type %s",
				 format_type_be(att->atttypid));
		c->tc = tc;
		c->scanned = !minmax_from_footers(fa, c, files, att);
	}
	/* each column the footers could not answer is read once */
	for (i = 0; i < fa->ncols; i++)
		if (fa->cols[i].scanned && !read_before(fa, i))
			aggregate_values(fa, fa->cols[i].attnum, rel);
	table_close(rel, NoLock);
	MemoryContextSwitchTo(old);
	fa->computed = true;
}

static TupleTableSlot *
footer_next(ForeignScanState *node)
{
	PqFooterAggregate *fa = node->fdw_state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	int			i;

	ExecClearTuple(slot);
	if (fa->done)
		return slot;
	if (!fa->computed)
		compute(fa);
	for (i = 0; i < fa->ncols; i++)
	{
		slot->tts_values[i] = fa->cols[i].value;
		slot->tts_isnull[i] = fa->cols[i].isnull;
	}
	fa->done = true;
	return ExecStoreVirtualTuple(slot);
}

static void
footer_rescan(ForeignScanState *node)
{
	((PqFooterAggregate *) node->fdw_state)->done = false;
}

static void
footer_explain(ForeignScanState *node, ExplainState *es)
{
	PqFooterAggregate *fa = node->fdw_state;
	StringInfoData buf;
	int			i;

	ExplainPropertyText("Relations",
						psprintf("Aggregate on (%s)",
								 quote_identifier(get_rel_name(fa->relid))),
						es);
	pqfdw_explain_files(fa->paths, es);
	initStringInfo(&buf);
	for (i = 0; i < fa->ncols; i++)
	{
		PqFooterColumn *c = &fa->cols[i];

		if (c->kind == PQFDW_FOOTER_COUNT)
			appendStringInfo(&buf, "%scount(*)", i ? ", " : "");
		else if (c->kind == PQFDW_FOOTER_COUNT_COLUMN)
			appendStringInfo(&buf, "%scount(%s)", i ? ", " : "",
							 quote_identifier(pqfdw_column_name(fa->relid,
																c->attnum)));
		else
			appendStringInfo(&buf, "%s%s(%s)", i ? ", " : "",
							 c->kind == PQFDW_FOOTER_MIN ? "min" : "max",
							 quote_identifier(pqfdw_column_name(fa->relid,
																c->attnum)));
	}
	appendStringInfoString(&buf, " from the footers");
	ExplainPropertyText("Parquet Aggregate", buf.data, es);
	if (es->analyze && fa->computed)
	{
		resetStringInfo(&buf);
		for (i = 0; i < fa->ncols; i++)
			if (fa->cols[i].scanned && !read_before(fa, i))
				appendStringInfo(&buf, "%s%s", buf.len ? ", " : "",
								 quote_identifier(pqfdw_column_name(fa->relid,
																	fa->cols[i].attnum)));
		if (buf.len > 0)
			ExplainPropertyText("Columns Read for Lack of Statistics",
								buf.data, es);
		ExplainPropertyInteger("Row Groups Counted", NULL, fa->row_groups, es);
		ExplainPropertyInteger("Data Pages Read", NULL, fa->pages_read, es);
		ExplainPropertyInteger("Bytes Read", "bytes", fa->bytes_read, es);
	}
}

const PqExecMethods pqfdw_footer_methods = {
	.begin = footer_begin,
	.next = footer_next,
	.rescan = footer_rescan,
	.explain = footer_explain,
};
