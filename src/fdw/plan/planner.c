/*-------------------------------------------------------------------------
 *
 * planner.c
 *		Relation size, paths and plan for parquet_fdw foreign tables.
 *
 * Row counts come from the footers; costs from the compressed bytes of the
 * column chunks the query needs.  Besides the plain scan, a parameterized
 * path is offered for each join clause that pruning can use, so that a
 * nested loop can look up outer rows in a file sorted on the join column.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/pg_type.h"
#include "fdw/common/columns.h"
#include "fdw/common/footer_cache.h"
#include "fdw/common/pg_compat.h"
#include "fdw/common/source.h"
#include "fdw/common/table_options.h"
#include "fdw/plan/plan.h"
#include "fdw/prune/prune.h"
#include "fdw/prune/table_stats.h"
#include "fdw/scan/filter.h"
#include "fdw/scan/row_former.h"
#include "fdw/scan/scan.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/prep.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* State of ec_member_matches_foreign(), as in postgres_fdw. */
typedef struct EcMemberArg
{
	Expr	   *current;
	List	   *already_used;
} EcMemberArg;

/* Attribute numbers referenced by the target list and the quals. */
static List *
needed_attnums(RelOptInfo *baserel, Relation rel)
{
	Bitmapset  *attrs = NULL;
	ListCell   *lc;
	List	   *result = NIL;
	bool		whole_row;
	int			i;
	TupleDesc	tupdesc = RelationGetDescr(rel);

	pull_varattnos((Node *) baserel->reltarget->exprs, baserel->relid, &attrs);
	foreach(lc, baserel->baserestrictinfo)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		pull_varattnos((Node *) ri->clause, baserel->relid, &attrs);
	}
	whole_row = bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, attrs);
	for (i = 1; i <= tupdesc->natts; i++)
	{
		if (TupleDescAttr(tupdesc, i - 1)->attisdropped)
			continue;
		if (whole_row ||
			bms_is_member(i - FirstLowInvalidHeapAttributeNumber, attrs))
			result = lappend_int(result, i);
	}
	return result;
}

/*
 * Which row groups statistics rule out at plan time, for quals whose
 * values are known now (constants and what the planner can fold): NULL when
 * nothing can be decided.  Indexed by row group over all files in order.
 * *estimate is the rows of the other row groups expected to match, from
 * their min/max, when the statistics judge every qual (-1 otherwise).
 */
static bool *
plan_time_pruning(PlannerInfo *root, RelOptInfo *baserel, Relation rel,
				  PqfdwPlanState *st, int total_row_groups, double *estimate)
{
	List	   *files = st->files;
	List	   *field_quals = pqfdw_dataset_field_clauses(st->ds,
														  baserel->baserestrictinfo,
														  baserel->relid);
	List	   *values;
	List	   *clauses;
	MemoryContext cxt;
	MemoryContext old;
	PqPrunePred *preds;
	PqConverter **cvs;
	int		   *leaf;
	Datum	   *vals;
	bool	   *nulls;
	bool	   *pruned;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PqFile	   *first;
	double		rows = 0;
	bool		all_known = true;
	ListCell   *lc;
	int			npreds;
	int			i;
	int			k;

	*estimate = -1;

	/*
	 * Under union_by_name a column's type may differ between files, and a
	 * converter is made per file: only the executor prunes then.
	 */
	if (!pqfdw_enable_statistics_pruning || files == NIL ||
		st->ds->union_by_name)
		return NULL;
	clauses = pqfdw_prune_clauses(field_quals, baserel->relid, &values);
	first = linitial(files);
	if (clauses == NIL)
		return NULL;

	pruned = palloc0(sizeof(bool) * Max(total_row_groups, 1));
	cxt = AllocSetContextCreate(CurrentMemoryContext, "parquet_fdw planning",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	vals = palloc(sizeof(Datum) * Max(list_length(values), 1));
	nulls = palloc(sizeof(bool) * Max(list_length(values), 1));
	i = 0;
	foreach(lc, values)
	{
		Node	   *v = estimate_expression_value(root, (Node *) lfirst(lc));

		if (!IsA(v, Const))
		{
			/* a value known only at run time: decide nothing now */
			MemoryContextSwitchTo(old);
			MemoryContextDelete(cxt);
			return NULL;
		}
		vals[i] = ((Const *) v)->constvalue;
		nulls[i++] = ((Const *) v)->constisnull;
	}
	preds = pqfdw_prune_init(clauses, baserel->relid, &npreds);
	pqfdw_prune_set_values(preds, npreds, vals, nulls);

	/* converters of the flat columns the quals use (same in every file) */
	cvs = palloc0(sizeof(PqConverter *) * Max(tupdesc->natts, 1));
	leaf = palloc(sizeof(int) * Max(tupdesc->natts, 1));
	for (i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		PqSchemaNode *node;

		leaf[i] = -1;
		if (att->attisdropped || pqfdw_dataset_is_virtual(st->ds, i + 1))
			continue;
		node = pqfdw_find_column_opt(first, RelationGetRelid(rel), i + 1);
		if (node == NULL || !node->is_leaf || node->max_rep > 0)
			continue;
		cvs[i] = palloc(sizeof(PqConverter));
		pqfdw_converter_init(cvs[i], node, att->atttypid, att->atttypmod,
							 NameStr(att->attname), cxt);
		leaf[i] = node->first_leaf;
	}

	k = 0;
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);

		for (i = 0; i < f->md.n_row_groups; i++, k++)
		{
			pruned[k] = !pqfdw_row_group_may_match(preds, npreds, f, i, cvs, leaf);
			if (!pruned[k])
				rows += f->md.row_groups[i].num_rows *
					pqfdw_row_group_fraction(preds, npreds, f, i, cvs, leaf,
											 &all_known);
		}
	}
	if (all_known && npreds == list_length(baserel->baserestrictinfo))
		*estimate = rows;
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return pruned;
}

/*
 * A table's options, files and footers, read once per statement's
 * planning: the planner sizes a relation again for each min/max aggregate
 * it tries as a subquery (preprocess_minmax_aggregates: four aggregates,
 * five sizings).  The last table sized is remembered for its root->glob
 * (and, for hive datasets, whose listing the quals narrow, for its quals)
 * until the memory they were made in is reset, with the footers of the
 * files the last partition pruning kept.
 */
typedef struct SizedTable
{
	PlannerGlobal *glob;
	Oid			relid;
	Oid			userid;			/* whose user mapping reads it (a view's
								 * owner) */
	List	   *quals;			/* baserel's restrictions, which the files of
								 * a hive dataset hang on (NIL otherwise) */
	MemoryContext cxt;
	PqfdwTableOptions opts;
	PqfdwDataset *ds;			/* all files */
	bool	   *kept;			/* the files footers were read for */
	List	   *files;
	MemoryContextCallback forget;
	MemoryContextCallback forget_footers;	/* when the footers go */
	bool		forget_footers_registered;
} SizedTable;

static SizedTable *last_sized = NULL;

static void
forget_sized(void *arg)
{
	if (last_sized == arg)
		last_sized = NULL;
}

static SizedTable *
sized_table(PlannerInfo *root, RelOptInfo *baserel, Oid relid, Relation rel)
{
	SizedTable *s = last_sized;

	if (s != NULL && s->glob == root->glob && s->relid == relid &&
		s->userid == baserel->userid && s->cxt == CurrentMemoryContext &&
		(s->opts.hive == PQFDW_HIVE_OFF ||
		 equal(s->quals, baserel->baserestrictinfo)))
		return s;
	s = palloc0(sizeof(SizedTable));
	s->glob = root->glob;
	s->relid = relid;
	s->userid = baserel->userid;
	s->cxt = CurrentMemoryContext;
	pqfdw_get_table_options_as(relid, baserel->userid, &s->opts);
	if (s->opts.hive != PQFDW_HIVE_OFF)
		s->quals = list_copy(baserel->baserestrictinfo);
	pqfdw_plan_table_files(root, baserel, rel, &s->opts);
	s->ds = pqfdw_dataset_create(relid, RelationGetDescr(rel), s->opts.paths,
								 &s->opts, s->opts.hive, CurrentMemoryContext);
	s->forget.func = forget_sized;
	s->forget.arg = s;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &s->forget);
	last_sized = s;
	return s;
}

/*
 * The footers of the files partition pruning keeps (pruned: NULL or by
 * file), and those files' paths.
 */
static List *
kept_footers(SizedTable *s, const bool *pruned, List **paths)
{
	int			n = s->ds->nfiles;
	bool	   *kept = palloc(sizeof(bool) * Max(n, 1));
	int			i;
	MemoryContext cxt;
	MemoryContext old;

	*paths = NIL;
	for (i = 0; i < n; i++)
	{
		kept[i] = pruned == NULL || !pruned[i];
		if (kept[i])
			*paths = lappend(*paths, s->ds->paths[i]);
	}
	if (s->kept != NULL && memcmp(s->kept, kept, sizeof(bool) * n) == 0)
		return s->files;
	s->kept = kept;
	/* released when planning returns (plan_footers.c) */
	cxt = pqfdw_footer_cache_planning_context();
	if (cxt != CurrentMemoryContext && !s->forget_footers_registered)
	{
		s->forget_footers.func = forget_sized;
		s->forget_footers.arg = s;
		MemoryContextRegisterResetCallback(cxt, &s->forget_footers);
		s->forget_footers_registered = true;
	}
	old = MemoryContextSwitchTo(cxt);
	s->files = pqfdw_plan_footers(*paths, &s->opts.access,
								  !s->opts.union_by_name);
	MemoryContextSwitchTo(old);
	return s->files;
}

/*
 * A table format's files may lack columns added later, so its dataset
 * starts under union_by_name; when every file the plan reads has one
 * schema, the plan reads them as one (batch filters, footer answers,
 * vector expressions: all that union_by_name leaves out), and the
 * executor follows it (PQFDW_PRIVATE_DATASET).
 */
static void
one_schema(PqfdwDataset *ds, List *files, Relation rel)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	ListCell   *lc;
	int			i;

	if (ds->location == NULL || !ds->union_by_name || files == NIL)
		return;
	foreach(lc, files)
		if (!pqfdw_footer_cache_same_schema(linitial(files), lfirst(lc)))
		return;
	/* and a field for every column: a void column is in no file */
	for (i = 0; i < tupdesc->natts; i++)
		if (!TupleDescAttr(tupdesc, i)->attisdropped &&
			!pqfdw_dataset_is_virtual(ds, i + 1) &&
			pqfdw_find_column_opt(linitial(files), RelationGetRelid(rel),
								  i + 1) == NULL)
			return;
	ds->union_by_name = false;
}

/* Which dataset columns the scan's target and quals use. */
static void
note_virtual_uses(PqfdwPlanState *st, RelOptInfo *baserel)
{
	ListCell   *lc;
	int			file_quals = 0;

	st->virtual_in_target =
		pqfdw_dataset_uses_virtual(st->ds, (Node *) baserel->reltarget->exprs,
								   baserel->relid);
	foreach(lc, baserel->baserestrictinfo)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (pqfdw_dataset_uses_virtual(st->ds, (Node *) ri->clause,
									   baserel->relid))
			st->virtual_in_quals = true;
		if (list_member_ptr(st->file_clauses, ri->clause))
			file_quals++;
	}
	st->file_quals_decided = st->file_quals_decided &&
		file_quals == list_length(baserel->baserestrictinfo);
}

/* The leaves a needed column reads (none for a virtual column). */
typedef struct LeafSpan
{
	int			first;
	int			n;
} LeafSpan;

static LeafSpan *
column_leaves(PqFile *f, Oid relid, PqfdwPlanState *st)
{
	LeafSpan   *spans = palloc0(sizeof(LeafSpan) * Max(st->ncolumns, 1));
	ListCell   *lc;
	int			a = 0;

	foreach(lc, st->attnums)
	{
		AttrNumber	attnum = lfirst_int(lc);

		if (!pqfdw_dataset_is_virtual(st->ds, attnum))
		{
			PqSchemaNode *node = pqfdw_find_column(f, relid, attnum,
												   f->src->name);

			spans[a].first = node->first_leaf;
			spans[a].n = node->n_leaves;
		}
		a++;
	}
	return spans;
}

void
pqfdw_GetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel,
						Oid foreigntableid)
{
	PqfdwPlanState *st = palloc0(sizeof(PqfdwPlanState));
	SizedTable *sized;
	List	   *files;
	ListCell   *lc;
	double		tuples = 0;
	double		surviving = 0;
	Relation	rel;
	bool	   *pruned;
	bool	   *files_pruned;
	int			by_partition;
	double		minmax_rows;
	bool		never_analyzed;
	LeafSpan   *shared = NULL;
	int			k = 0;

	rel = table_open(foreigntableid, NoLock);
	sized = sized_table(root, baserel, foreigntableid, rel);
	st->relid = foreigntableid;
	st->ds = sized->ds;
	st->hive = sized->ds->nkeys > 0;
	st->files_total = sized->ds->nfiles;
	st->dirs_skipped = sized->opts.dirs_skipped;
	st->paths_hash = sized->opts.paths_hash;
	st->file_clauses = pqfdw_file_clauses(st->ds, baserel->baserestrictinfo,
										  baserel->relid);
	files_pruned = pqfdw_files_pruned_at_plan(root, st->ds, st->file_clauses,
											  baserel->relid,
											  &st->files_pruned,
											  &st->file_quals_decided);
	st->files_pruned_stats = pqfdw_table_stats_prune(root, st->ds,
													 baserel->baserestrictinfo,
													 baserel->relid,
													 foreigntableid,
													 &files_pruned,
													 &by_partition);
	st->files_pruned += by_partition;
	note_virtual_uses(st, baserel);
	files = kept_footers(sized, files_pruned, &st->paths);
	one_schema(st->ds, files, rel);
	/* compute_parallel_worker() takes it as heap takes the storage option */
	baserel->rel_parallel_workers = sized->opts.parallel_workers;
	/* files_in_order 'false': in order only when one file is read */
	st->sorted = sized->opts.sorted_per_file && list_length(files) > 1 ?
		NIL : sized->opts.sorted;
	st->files = files;

	never_analyzed = rel->rd_rel->reltuples < 0;
	st->attnums = needed_attnums(baserel, rel);
	st->ncolumns = list_length(st->attnums);
	foreach(lc, files)
		st->row_groups += ((PqFile *) lfirst(lc))->md.n_row_groups;
	pruned = plan_time_pruning(root, baserel, rel, st, st->row_groups,
							   &minmax_rows);

	/*
	 * Without union_by_name every file has the first one's schema, so a
	 * column's leaves are found once, not once per file (10,000 lookups by
	 * name were a third of planning a 10,000-file table).
	 */
	if (!st->ds->union_by_name && files != NIL)
		shared = column_leaves(linitial(files), foreigntableid, st);
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);
		ListCell   *ac;
		int			rg;
		int			a = 0;

		tuples += f->md.num_rows;
		for (rg = 0; rg < f->md.n_row_groups; rg++)
			if (!pruned || !pruned[k + rg])
				surviving += f->md.row_groups[rg].num_rows;
		foreach(ac, st->attnums)
		{
			AttrNumber	attnum = lfirst_int(ac);
			PqSchemaNode *node = NULL;
			int			first;
			int			nleaves;

			if (shared != NULL)
			{
				first = shared[a].first;
				nleaves = shared[a++].n;
			}
			else if (!pqfdw_dataset_is_virtual(st->ds, attnum) &&
					 (node = pqfdw_find_column_opt(f, foreigntableid,
												   attnum)) != NULL)
			{
				first = node->first_leaf;
				nleaves = node->n_leaves;
			}
			else
				continue;
			for (rg = 0; rg < f->md.n_row_groups; rg++)
			{
				int			c;

				if (pruned && pruned[k + rg])
					continue;
				for (c = first; c < first + nleaves; c++)
				{
					const PqColumnChunk *cc = &f->md.row_groups[rg].columns[c];

					if (cc->has_meta_data)
						st->bytes += cc->meta_data.total_compressed_size;
				}
			}
		}
		k += f->md.n_row_groups;
	}
	table_close(rel, NoLock);

	/*
	 * Rows pruned by statistics cannot be returned.  Of the rest: without
	 * ANALYZE, what the chunks' min/max let through when they judge every
	 * qual (PostgreSQL would use default selectivities); else PostgreSQL's
	 * estimate.
	 */
	baserel->tuples = tuples;
	if (minmax_rows >= 0 && never_analyzed)
		baserel->rows = Min(surviving, minmax_rows);
	else
		baserel->rows = Min(surviving,
							tuples * clauselist_selectivity(root,
															baserel->baserestrictinfo,
															0, JOIN_INNER, NULL));
	baserel->rows = clamp_row_est(baserel->rows);
	st->scanned_tuples = surviving;
	baserel->fdw_private = st;
}

/* An integer statistics bound (signed INT32/INT64 columns only). */
static bool
int_bound(const PqColumnDescr *col, PqBytes b, int64 *v)
{
	if (col->physical_type == PQ_INT32 && b.len == 4)
		*v = (int32) pq_load_le32(b.ptr);
	else if (col->physical_type == PQ_INT64 && b.len == 8)
		*v = (int64) pq_load_le64(b.ptr);
	else
		return false;
	return !(col->node->logical.id == PQ_LT_INTEGER &&
			 !col->node->logical.int_is_signed);
}

typedef struct RgRange
{
	int64		min;
	int64		max;
} RgRange;

static int
rg_range_cmp(const void *a, const void *b)
{
	const RgRange *x = a;
	const RgRange *y = b;

	return x->min < y->min ? -1 : x->min > y->min;
}

/*
 * Fraction of the column's data one equality lookup is expected to read:
 * one row group when the row groups' ranges of the column are disjoint
 * (a file sorted on it), a small part of it when the chunks also carry a
 * page index; everything otherwise.
 */
static double
lookup_fraction(PqfdwPlanState *st, AttrNumber attnum)
{
	RgRange    *ranges;
	int			n = 0;
	bool		page_index = true;
	ListCell   *lc;
	int			i;

	ranges = palloc(sizeof(RgRange) * Max(st->row_groups, 1));
	foreach(lc, st->files)
	{
		PqFile	   *f = lfirst(lc);
		PqSchemaNode *node;
		const PqColumnDescr *col;

		if (pqfdw_dataset_is_virtual(st->ds, attnum) || st->ds->union_by_name)
			return 1.0;
		node = pqfdw_find_column(f, st->relid, attnum, f->src->name);
		if (!node->is_leaf)
			return 1.0;
		col = &f->schema->columns[node->first_leaf];
		for (i = 0; i < f->md.n_row_groups; i++)
		{
			const PqColumnChunk *cc = &f->md.row_groups[i].columns[col->index];
			const PqStatistics *s = &cc->meta_data.statistics;
			PqBytes		lo = s->min_value.ptr ? s->min_value : s->min;
			PqBytes		hi = s->max_value.ptr ? s->max_value : s->max;

			if (!cc->has_meta_data || !cc->meta_data.has_statistics ||
				!int_bound(col, lo, &ranges[n].min) ||
				!int_bound(col, hi, &ranges[n].max))
				return 1.0;
			page_index &= cc->has_column_index_offset && cc->has_offset_index_offset;
			n++;
		}
	}
	if (n == 0)
		return 1.0;
	qsort(ranges, n, sizeof(RgRange), rg_range_cmp);
	for (i = 1; i < n; i++)
		if (ranges[i].min <= ranges[i - 1].max)
			return 1.0;
	return (1.0 / n) * (page_index ? 0.02 : 1.0);
}

static bool
ec_member_matches_foreign(PlannerInfo *root, RelOptInfo *rel,
						  EquivalenceClass *ec, EquivalenceMember *em,
						  void *arg)
{
	EcMemberArg *state = arg;
	Expr	   *expr = em->em_expr;

	if (state->current != NULL)
		return equal(expr, state->current);
	if (list_member(state->already_used, expr))
		return false;
	state->current = expr;
	return true;
}

/*
 * Whether a join clause prunes: row groups by statistics (on a field), or
 * files (on columns constant per file).
 */
static bool
param_clause_prunes(PqfdwPlanState *st, RestrictInfo *ri, Index relid)
{
	if (pqfdw_dataset_uses_virtual(st->ds, (Node *) ri->clause, relid))
		return pqfdw_file_clauses(st->ds, list_make1(ri), relid) != NIL;
	return pqfdw_is_prune_clause(ri->clause, relid);
}

/* Parameterizations from join clauses (and equivalence classes) pruning can use. */
static List *
prunable_param_infos(PlannerInfo *root, RelOptInfo *baserel,
					 PqfdwPlanState *st)
{
	List	   *ppis = NIL;
	List	   *clauses = list_copy(baserel->joininfo);
	ListCell   *lc;

	if (baserel->has_eclass_joins)
	{
		EcMemberArg arg = {NULL, NIL};

		for (;;)
		{
			List	   *eclauses;

			eclauses = generate_implied_equalities_for_column(root, baserel,
															  ec_member_matches_foreign,
															  &arg,
															  baserel->lateral_referencers);
			if (arg.current == NULL)
				break;
			clauses = list_concat(clauses, eclauses);
			arg.already_used = lappend(arg.already_used, arg.current);
			arg.current = NULL;
		}
	}

	foreach(lc, clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		Relids		required_outer;

		if (!join_clause_is_movable_to(ri, baserel) ||
			!param_clause_prunes(st, ri, baserel->relid))
			continue;
		required_outer = bms_union(ri->clause_relids, baserel->lateral_relids);
		required_outer = bms_del_member(required_outer, baserel->relid);
		if (bms_is_empty(required_outer))
			continue;
		ppis = list_append_unique_ptr(ppis,
									  get_baserel_parampathinfo(root, baserel,
																required_outer));
	}
	return ppis;
}

/* The column a parameterized path's clauses look up, if a plain one. */
static AttrNumber
lookup_attnum(ParamPathInfo *ppi, Index relid)
{
	ListCell   *lc;

	foreach(lc, ppi->ppi_clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		Bitmapset  *attrs = NULL;
		int			attno;

		pull_varattnos((Node *) ri->clause, relid, &attrs);
		attno = -1;
		if (bms_get_singleton_member(attrs, &attno))
			return attno + FirstLowInvalidHeapAttributeNumber;
	}
	return InvalidAttrNumber;
}

/*
 * Workers share the row groups (fdw/scan/parallel.c): a partial path with
 * as many workers as heap would get for the bytes to read (the
 * parallel_workers option when set), at most one per row group.  Decoding
 * is the work, so all of the run cost divides, as cost_seqscan() divides
 * the CPU part of a heap scan.
 */
static void
add_parallel_path(PlannerInfo *root, RelOptInfo *baserel, PqfdwPlanState *st,
				  Cost startup_cost, Cost run_cost, List *pathkeys)
{
	ForeignPath *path;
	int			workers;
	double		divisor;

	if (!baserel->consider_parallel || baserel->lateral_relids != NULL)
		return;
	workers = compute_parallel_worker(baserel, st->bytes / BLCKSZ, -1,
									  max_parallel_workers_per_gather);
	workers = Min(workers, st->row_groups);
	if (workers <= 0)
		return;

	/* get_parallel_divisor() of costsize.c */
	divisor = workers;
	if (parallel_leader_participation && 1.0 - 0.3 * workers > 0)
		divisor += 1.0 - 0.3 * workers;

	path = pqfdw_create_foreignscan_path(root, baserel, NULL,
										 clamp_row_est(baserel->rows / divisor),
										 startup_cost,
										 startup_cost + run_cost / divisor,
										 pathkeys, NULL, NULL, NIL);
	path->path.parallel_aware = true;
	path->path.parallel_safe = true;
	path->path.parallel_workers = workers;
	add_partial_path(baserel, (Path *) path);
}

void
pqfdw_GetForeignPaths(PlannerInfo *root, RelOptInfo *baserel,
					  Oid foreigntableid)
{
	PqfdwPlanState *st = baserel->fdw_private;
	Cost		startup_cost;
	Cost		run_cost;
	QualCost	qcost;
	ListCell   *lc;
	List	   *pathkeys;

	/* reading footers, then sequential reads of the needed chunks */
	startup_cost = 10.0 * list_length(st->paths);
	run_cost = seq_page_cost * (st->bytes / BLCKSZ);
	/* decoding is cheap per value; forming tuples costs like a heap scan */
	run_cost += st->scanned_tuples * (cpu_tuple_cost * 0.5 +
									  cpu_operator_cost * 0.25 * st->ncolumns);
	cost_qual_eval(&qcost, baserel->baserestrictinfo, root);
	startup_cost += qcost.startup;
	run_cost += qcost.per_tuple * st->scanned_tuples;
	run_cost += baserel->reltarget->cost.per_tuple * baserel->rows;

	/* rows come in the declared order (option sorted), in workers too */
	pathkeys = pqfdw_sort_pathkeys(root, baserel, st, st->sorted);
	add_path(baserel, (Path *)
			 pqfdw_create_foreignscan_path(root, baserel, NULL,
										   baserel->rows,
										   startup_cost,
										   startup_cost + run_cost,
										   pathkeys, NULL, NULL, NIL));
	add_parallel_path(root, baserel, st, startup_cost, run_cost, pathkeys);

	foreach(lc, prunable_param_infos(root, baserel, st))
	{
		ParamPathInfo *ppi = lfirst(lc);
		AttrNumber	attnum = lookup_attnum(ppi, baserel->relid);
		double		fraction = attnum > 0 ? lookup_fraction(st, attnum) : 1.0;
		Cost		param_run;

		/*
		 * repeated scans reuse the open file; a lookup returns at most the
		 * rows of what it reads
		 */
		param_run = run_cost * fraction;
		add_path(baserel, (Path *)
				 pqfdw_create_foreignscan_path(root, baserel, NULL,
											   clamp_row_est(Min(ppi->ppi_rows,
																 st->scanned_tuples * fraction)),
											   startup_cost / 10,
											   startup_cost / 10 + param_run,
											   NIL, ppi->ppi_req_outer, NULL, NIL));
	}
}

/*
 * The scan target list: when the plan needs the table's whole-row value
 * (t.*, row_to_json(t)) or the scan computes expressions (*computed), every
 * Var that the target list and the quals use, and those expressions, so
 * that the scan forms the composites itself (fdw/scan/row_former.c) and
 * the expressions match the plan's above it.  NIL otherwise (and no
 * expressions computed): with system columns, which the scan does not
 * produce; with whole rows the scan must not form; and when the table has
 * a row mark: EvalPlanQual stores the row mark's copy of the row into the
 * scan tuple, which must then have the table's row type.
 */
static List *
scan_tlist(PlannerInfo *root, RelOptInfo *baserel, Oid relid, List *tlist,
		   List *quals, List *file_clauses, List **computed)
{
	List	   *vars;
	bool		whole_row = false;
	ListCell   *lc;

	if (get_plan_rowmark(root->rowMarks, baserel->relid) != NULL)
		goto none;
	/* tlist is NIL when a projection replaces it: the rel's Vars then */
	vars = list_concat(pull_var_clause((Node *) tlist, PVC_RECURSE_PLACEHOLDERS),
					   pull_var_clause((Node *) quals, PVC_RECURSE_PLACEHOLDERS));
	vars = list_concat(vars, pull_var_clause((Node *) baserel->reltarget->exprs,
											 PVC_RECURSE_PLACEHOLDERS));
	/* the executor prunes files by these (scan.c maps them back) */
	vars = list_concat(vars, pull_var_clause((Node *) file_clauses,
											 PVC_RECURSE_PLACEHOLDERS));
	foreach(lc, vars)
	{
		Var		   *var = lfirst_node(Var, lc);

		if (var->varno != baserel->relid || var->varlevelsup != 0 ||
			var->varattno < 0)
			goto none;
		if (var->varattno == 0)
		{
			if (var->vartype != get_rel_type_id(relid) ||
				!pqfdw_enable_whole_row_forming)
				goto none;
			whole_row = true;
		}
	}
	if (!whole_row && *computed == NIL)
		return NIL;
	return add_to_flat_tlist(add_to_flat_tlist(NIL, vars), *computed);

none:
	*computed = NIL;
	return NIL;
}

ForeignScan *
pqfdw_GetForeignPlan(PlannerInfo *root, RelOptInfo *baserel,
					 Oid foreigntableid, ForeignPath *best_path,
					 List *tlist, List *scan_clauses, Plan *outer_plan)
{
	List	   *fdw_private;
	List	   *local_clauses;
	List	   *prune_values;
	List	   *vector_quals;
	List	   *computed;
	List	   *fdw_scan_tlist;

	if (IS_UPPER_REL(baserel))
		return pqfdw_upper_plan(root, baserel, best_path, tlist, outer_plan);

	fdw_private = pqfdw_scan_private(root, baserel, foreigntableid,
									 scan_clauses, &local_clauses,
									 &prune_values);
	vector_quals = pqfdw_vector_quals(root, baserel, local_clauses);
	if (vector_quals != NIL)
		local_clauses = NIL;
	computed = pqfdw_vector_columns(root, baserel);
	fdw_scan_tlist = scan_tlist(root, baserel, foreigntableid, tlist,
								local_clauses, prune_values, &computed);
	if (vector_quals != NIL || computed != NIL)
	{
		linitial(fdw_private) = makeInteger(PQFDW_PLAN_VECTOR_SCAN);
		fdw_private = lappend(fdw_private, vector_quals);
	}

	/* the executor evaluates the values pruning compares with */
	return make_foreignscan(tlist, local_clauses, baserel->relid,
							prune_values, fdw_private, fdw_scan_tlist,
							NIL, outer_plan);
}
