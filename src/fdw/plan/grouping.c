/*-------------------------------------------------------------------------
 *
 * grouping.c
 *		GROUP BY and aggregates computed inside the scan (grouped scans,
 *		fdw/pushdown/), offered as a ForeignScan of the grouping relation.
 *
 * A query over one parquet_fdw table qualifies when the scan evaluates all
 * of its WHERE quals, its grouping keys are vector expressions of integer,
 * date, time, timestamp, bool or text columns (text under a deterministic
 * collation, grouped by the type's own equality) or numeric expressions of
 * columns read unscaled (numeric_columns()), and every aggregate in its target list and HAVING is one
 * accumulate.c computes, over a vector expression, without DISTINCT or
 * ORDER BY, with a FILTER that is a vector expression too.  Anything else,
 * grouping sets, window functions, set-returning functions and volatile or
 * sub-select expressions leave the query to PostgreSQL's Aggregate.  HAVING
 * is evaluated by PostgreSQL on the scan's groups (the plan's qual).
 *
 * Groups beyond hash_mem spill to temporary files (grouped_scan.c); the
 * cost counts writing and reading back the rows of the groups that would
 * not fit, as cost_agg() does for hash aggregation.
 *
 * With a parallel scan of the table on offer, the partially grouped
 * relation gets a parallel grouped scan too: each process aggregates the
 * row groups it claims into partial states (the aggregates' transition
 * states, in the form their combine functions take), and PostgreSQL's
 * Finalize Aggregate over Gather combines them.  Aggregates whose state is
 * `internal` (sum and avg of bigint) have no such form here: then the
 * partial path is not offered and PostgreSQL aggregates the parallel scan.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "catalog/pg_type.h"
#include "fdw/common/columns.h"
#include "fdw/common/pg_compat.h"
#include "fdw/convert/nested.h"
#include "fdw/plan/plan.h"
#include "fdw/prune/prune.h"
#include "fdw/pushdown/accumulate.h"
#include "fdw/pushdown/group_shared.h"
#include "fdw/scan/scan.h"
#include "format/encoding/encoding.h"
#include "format/read/dictionary_reader.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"

bool		pqfdw_enable_grouped_scan = true;

#define INT128_MAX_VALUE ((int128) (~(uint128) 0 >> 1))

/* A statistics bound of a DECIMAL as its unscaled value; false if unusable. */
static bool
decimal_stat(const PqSchemaNode *node, PqBytes b, int128 *v)
{
	uint128		u;
	uint32		j;

	switch (node->physical_type)
	{
		case PQ_INT32:
			if (b.len != 4)
				return false;
			*v = (int32) pq_load_le32((const uint8 *) b.ptr);
			return true;
		case PQ_INT64:
			if (b.len != 8)
				return false;
			*v = (int64) pq_load_le64((const uint8 *) b.ptr);
			return true;
	}
	/* big-endian two's complement */
	if (b.len == 0 || b.len > 16)
		return false;
	u = (b.ptr[0] & 0x80) ? ~(uint128) 0 : 0;
	for (j = 0; j < b.len; j++)
		u = (u << 8) | b.ptr[j];
	*v = (int128) u;
	return true;
}

/*
 * The largest magnitude of a DECIMAL chunk's unscaled values by its
 * statistics, or 10^precision - 1 without them.
 */
static int128
decimal_max_abs(const PqFile *f, const PqSchemaNode *node)
{
	const PqColumnDescr *col = &f->schema->columns[node->first_leaf];
	int128		by_precision = 1;
	int128		result = 0;
	int			rg;
	int			i;

	for (i = 0; i < Min(node->logical.decimal_precision, 38); i++)
		by_precision *= 10;
	by_precision -= 1;
	for (rg = 0; rg < f->md.n_row_groups; rg++)
	{
		const PqRowGroup *g = &f->md.row_groups[rg];
		const PqColumnMetaData *m = &g->columns[node->first_leaf].meta_data;
		const PqStatistics *st = &m->statistics;
		PqBytes		b[2];
		int			k;

		if (g->num_rows == 0)
			continue;
		if (!g->columns[node->first_leaf].has_meta_data || !m->has_statistics)
			return by_precision;
		if (st->has_null_count && st->null_count == m->num_values)
			continue;
		if (!pqfdw_chunk_stat_bytes(col, st, &b[0], &b[1]))
			return by_precision;
		for (k = 0; k < 2; k++)
		{
			int128		v;

			if (!decimal_stat(node, b[k], &v) || v < -by_precision ||
				v > by_precision)
				return by_precision;
			result = Max(result, v < 0 ? -v : v);
		}
	}
	return result;
}

/*
 * The numeric columns the scan can read as unscaled integers (so that
 * their sums are exact 128-bit integer sums and vector expressions can
 * compute with them): in every file a flat DECIMAL of one scale held in
 * INT32/INT64, or in every file in a byte array of precision <= 38 (wide),
 * declared numeric with no typmod or exactly the DECIMAL's (no rounding;
 * a qual's filter still reads numerics: table_reader.c converts twice);
 * with the bound of their magnitude over all files.  A wide column's sums
 * are allowed (summable) when that bound times the table's rows fits 127
 * bits.
 */
static PqVexprNumerics *
numeric_columns(RelOptInfo *input_rel, PqfdwPlanState *st)
{
	PqVexprNumerics *num = palloc0(sizeof(PqVexprNumerics));
	int64		rows = 0;
	ListCell   *lc;
	ListCell   *fc;

	num->natts = input_rel->max_attr;
	num->scale = palloc0(sizeof(int) * (num->natts + 1));
	num->max_abs = palloc0(sizeof(int64) * (num->natts + 1));
	foreach(fc, st->files)
		rows += Max(((PqFile *) lfirst(fc))->md.num_rows, 0);
	foreach(lc, st->attnums)
	{
		AttrNumber	attnum = lfirst_int(lc);
		Oid			type;
		int32		typmod;
		Oid			collation;
		int			scale = -1;
		int			wide = -1;
		int128		max_abs = 0;
		bool		ok = true;

		get_atttypetypmodcoll(st->relid, attnum, &type, &typmod, &collation);
		if (type != NUMERICOID || attnum > num->natts)
			continue;
		foreach(fc, st->files)
		{
			PqFile	   *f = lfirst(fc);
			PqSchemaNode *node = pqfdw_find_column(f, st->relid, attnum,
												   f->src->name);
			int			w = node->physical_type == PQ_FIXED_LEN_BYTE_ARRAY ||
			node->physical_type == PQ_BYTE_ARRAY;

			if (pqfdw_is_nested_field(node) ||
				node->logical.id != PQ_LT_DECIMAL ||
				(node->physical_type != PQ_INT32 &&
				 node->physical_type != PQ_INT64 && !w) ||
				(w && node->logical.decimal_precision > 38) ||
				(wide >= 0 && w != wide) ||
				(scale >= 0 && node->logical.decimal_scale != scale) ||
				(typmod >= 0 &&
				 typmod != (int32) (((node->logical.decimal_precision << 16) |
									 node->logical.decimal_scale) + VARHDRSZ)))
			{
				ok = false;
				break;
			}
			scale = node->logical.decimal_scale;
			wide = w;
			max_abs = Max(max_abs, decimal_max_abs(f, node));
		}
		if (!ok)
			continue;
		num->unscaled = bms_add_member(num->unscaled, attnum);
		num->scale[attnum] = Max(scale, 0);
		if (wide == 1)
		{
			num->wide = bms_add_member(num->wide, attnum);
			if (rows == 0 || max_abs <= INT128_MAX_VALUE / rows)
				num->summable = bms_add_member(num->summable, attnum);
		}
		else
			num->max_abs[attnum] = (int64) max_abs;
	}
	return num;
}

/*
 * sum and avg of a wide numeric column only where the statistics bound
 * their 128-bit sums (numeric_columns()).
 */
static bool
wide_sum_ok(Aggref *agg, const PqVexprNumerics *num)
{
	Expr	   *arg = linitial_node(TargetEntry, agg->args)->expr;

	if (!IsA(arg, Var) || !bms_is_member(((Var *) arg)->varattno, num->wide) ||
		bms_is_member(((Var *) arg)->varattno, num->summable))
		return true;
	return agg->aggfnoid != F_SUM_NUMERIC && agg->aggfnoid != F_AVG_NUMERIC;
}

/* A grouping key the group table can hold, grouped by its type's equality. */
static bool
key_ok(Expr *expr, SortGroupClause *sgc, Index relid,
	   const PqVexprNumerics *num)
{
	Oid			type = exprType((Node *) expr);
	PqVKind		kind;
	TypeCacheEntry *tc;

	if (!pqfdw_vkind_of(type, &kind) || kind == PQV_FLOAT4 ||
		kind == PQV_FLOAT8 || !pqfdw_vexpr_supported(expr, relid, num))
		return false;
	tc = lookup_type_cache(type, TYPECACHE_EQ_OPR);
	if (sgc->eqop != tc->eq_opr)
		return false;
	return kind != PQV_DATUM ||
		get_collation_isdeterministic(exprCollation((Node *) expr));
}

/*
 * A grouping key the other keys decide: an expression, not a column, whose
 * columns are all keys themselves, of types whose equal values are the
 * same value (integers, dates, times, timestamps, bool).  Groups need not
 * hash or hold it: PostgreSQL computes it from those keys above the scan
 * (GROUP BY ClientIP, ClientIP - 1).  Not text, numeric or floats, where
 * equal values may print differently ('1.0' and '1.00').
 */
static bool
dependent_key(Expr *expr, List *keys)
{
	List	   *vars;
	ListCell   *lc;

	if (IsA(expr, Var))
		return false;
	vars = pull_var_clause((Node *) expr, 0);
	if (vars == NIL || contain_mutable_functions((Node *) expr))
		return false;
	foreach(lc, vars)
	{
		Var		   *var = lfirst_node(Var, lc);
		PqVKind		kind;

		/* PQV_INT: the integer, date, time, timestamp and bool types */
		if (!list_member(keys, var) ||
			!pqfdw_vkind_of(var->vartype, &kind) || kind != PQV_INT)
			return false;
	}
	return true;
}

/*
 * Whether a chunk's values are all dictionary indices, as far as a cost
 * needs to know: its page encoding counts say so, or, where the writer left
 * them out (DuckDB), its encodings are dictionary ones and not PLAIN, the
 * fallback.
 */
static bool
likely_dictionary(const PqColumnMetaData *cm)
{
	bool		dict = false;
	int			i;

	if (cm->has_encoding_stats)
		return pq_chunk_fully_dictionary_encoded(cm);
	for (i = 0; i < cm->n_encodings; i++)
	{
		if (cm->encodings[i] == PQ_ENC_PLAIN)
			return false;
		dict |= pq_encoding_is_dictionary(cm->encodings[i]);
	}
	return dict;
}

/*
 * Whether key's one input column is dictionary-encoded in the chunks of
 * nine rows in ten at least: the group table then finds most rows' groups
 * by dictionary index (group_table.c), however many groups there are.
 */
static bool
dictionary_key(PqfdwPlanState *st, Expr *key)
{
	List	   *vars = pull_var_clause((Node *) key, 0);
	AttrNumber	attnum;
	ListCell   *lc;
	double		rows = 0;
	double		coded = 0;

	if (vars == NIL)
		return false;
	attnum = linitial_node(Var, vars)->varattno;
	foreach(lc, vars)
		if (lfirst_node(Var, lc)->varattno != attnum)
		return false;
	if (attnum <= 0 || pqfdw_dataset_is_virtual(st->ds, attnum))
		return false;
	foreach(lc, st->files)
	{
		PqFile	   *f = lfirst(lc);
		PqSchemaNode *node = pqfdw_find_column(f, st->relid, attnum,
											   f->src->name);
		int			i;

		if (pqfdw_is_nested_field(node))
			return false;
		for (i = 0; i < f->md.n_row_groups; i++)
		{
			const PqRowGroup *g = &f->md.row_groups[i];
			const PqColumnChunk *cc = &g->columns[node->first_leaf];

			rows += g->num_rows;
			if (cc->has_meta_data && likely_dictionary(&cc->meta_data))
				coded += g->num_rows;
		}
	}
	return rows > 0 && coded >= 0.9 * rows;
}

/* get_parallel_divisor() of costsize.c */
static double
parallel_divisor(int workers)
{
	double		divisor = workers;

	if (parallel_leader_participation && 1.0 - 0.3 * workers > 0)
		divisor += 1.0 - 0.3 * workers;
	return divisor;
}

/* Workers of the table's parallel scan and get_parallel_divisor()'s share. */
static int
grouping_workers(RelOptInfo *input_rel, double *divisor)
{
	int			workers;

	*divisor = 1.0;
	if (input_rel->partial_pathlist == NIL)
		return 0;
	workers = ((Path *) linitial(input_rel->partial_pathlist))->parallel_workers;
	if (workers <= 0)
		return 0;
	*divisor = parallel_divisor(workers);
	return workers;
}

/*
 * Workers of a partitioned grouped scan: as compute_parallel_worker()
 * gives them for a table of what the processes write and read back (per
 * row, each key and aggregate argument: its width, 8 bytes for one by
 * value, 32 for text, and 8 more), or the table's parallel_workers option.
 * Not the plain parallel scan's count, which follows the compressed bytes
 * read: grouping many rows costs more than decoding them.  Small inputs
 * stay serial: parallel_setup_cost underrates what starting workers costs
 * next to a scan that prunes most of the table.
 */
static int
partitioned_workers(RelOptInfo *input_rel, List *scan_tlist, double *divisor)
{
	double		row_bytes = 0;
	int			workers = 0;
	ListCell   *lc;

	foreach(lc, scan_tlist)
	{
		Expr	   *expr = lfirst_node(TargetEntry, lc)->expr;

		if (IsA(expr, Aggref))
			expr = ((Aggref *) expr)->aggstar ? NULL :
				linitial_node(TargetEntry, ((Aggref *) expr)->args)->expr;
		if (expr != NULL)
			row_bytes += 8.0 + (get_typbyval(exprType((Node *) expr)) ? 8.0 :
								get_typavgwidth(exprType((Node *) expr),
												exprTypmod((Node *) expr)));
	}
	*divisor = 1.0;
	if (input_rel->consider_parallel)
		workers = Min(compute_parallel_worker(input_rel,
											  input_rel->rows * row_bytes / BLCKSZ,
											  -1, max_parallel_workers_per_gather),
					  PQFDW_GROUP_PROCS - 1);
	if (workers > 0)
		*divisor = parallel_divisor(workers);
	return workers;
}

/*
 * What a row of a partitioned grouped scan costs against a serial one's
 * (hits.sh: the queries whose 2-worker plans gained, 1.5-1.8x on 2 vCPUs).
 */
#define PQFDW_PARTITION_OVERHEAD 1.3

/*
 * Gather over a partitioned grouped scan (group_shared.h): each process
 * writes the rows it reads to the shared partitions, then aggregates the
 * partitions it claims to final groups; offered where pqfdw_grouping_paths
 * finds the groups spread (many, or DISTINCT aggregates).
 * Its cost is the serial scan's work shared by the processes, each row
 * costing PQFDW_PARTITION_OVERHEAD times as much, for writing it to a
 * partition file and reading it back and for keys looked up by value;
 * Gather counts the groups it passes on.  grouped_top_n.c builds the same
 * scan per ORDER BY ...
 * LIMIT from what is kept in the table's plan state.
 */
static void
add_partitioned_path(PlannerInfo *root, RelOptInfo *input_rel,
					 RelOptInfo *output_rel, ForeignPath *serial,
					 int workers, double divisor, Cost work, Cost footers,
					 double ngroups)
{
	PqfdwPlanState *st = input_rel->fdw_private;
	List	   *priv = list_copy(lsecond(serial->fdw_private));
	ForeignPath *path;
	Cost		startup;

	startup = work * PQFDW_PARTITION_OVERHEAD / divisor + footers;
	st->grouped_workers = workers;
	st->grouped_divisor = divisor;
	st->grouped_startup = startup;
	list_nth_cell(priv, 8)->ptr_value = makeInteger(1);
	path = pqfdw_create_foreign_upper_path(root, output_rel,
										   output_rel->reltarget,
										   ngroups / divisor, startup,
										   startup + ngroups / divisor * cpu_tuple_cost,
										   NIL, NULL,
										   list_make2(makeInteger(PQFDW_PLAN_GROUPED),
													  priv));
	path->path.parallel_aware = true;
	path->path.parallel_safe = true;
	path->path.parallel_workers = workers;
	add_path(output_rel, (Path *)
			 create_gather_path(root, output_rel, &path->path,
								output_rel->reltarget, NULL, &ngroups));
}

/*
 * Whether expr (of the target list or HAVING) is computable from the
 * grouping keys and supported aggregates; adds its aggregates to *aggrefs.
 */
static bool
upper_expr_ok(Node *expr, List *keys, Index relid, const PqVexprNumerics *num,
			  List **aggrefs)
{
	List	   *found;
	ListCell   *lc;

	if (list_member(keys, expr))
		return true;
	if (contain_volatile_functions(expr) || contain_subplans(expr))
		return false;
	found = pull_var_clause(expr, PVC_INCLUDE_AGGREGATES |
							PVC_INCLUDE_PLACEHOLDERS | PVC_INCLUDE_WINDOWFUNCS);
	foreach(lc, found)
	{
		Node	   *n = lfirst(lc);
		Aggref	   *agg;

		if (IsA(n, Var) && list_member(keys, n))
			continue;
		if (!IsA(n, Aggref))
			return false;
		agg = (Aggref *) n;
		if (!pqfdw_accum_supported(agg))
			return false;
		if (!agg->aggstar &&
			!pqfdw_vexpr_supported(linitial_node(TargetEntry, agg->args)->expr,
								   relid, num))
			return false;
		if (!agg->aggstar && !wide_sum_ok(agg, num))
			return false;
		/* FILTER (WHERE ...): a bool vector expression */
		if (agg->aggfilter != NULL &&
			(exprType((Node *) agg->aggfilter) != BOOLOID ||
			 !pqfdw_vexpr_supported(agg->aggfilter, relid, num)))
			return false;
		*aggrefs = lappend(*aggrefs, agg);
	}
	return true;
}

void
pqfdw_grouping_paths(PlannerInfo *root, UpperRelationKind stage,
					 RelOptInfo *input_rel, RelOptInfo *output_rel,
					 GroupPathExtraData *extra)
{
	Query	   *parse = root->parse;
	PqfdwPlanState *st = input_rel->fdw_private;
	Index		relid = input_rel->relid;
	List	   *keys = NIL;
	List	   *held = NIL;		/* the keys groups hold */
	List	   *checks = NIL;	/* the keys the others decide */
	List	   *aggrefs = NIL;
	PqVexprNumerics *num;
	List	   *scan_tlist;
	List	   *scan_private;
	List	   *local;
	List	   *prune_values;
	bool		partial = stage == UPPERREL_PARTIAL_GROUP_AGG;
	List	   *having = partial ? NIL : (List *) extra->havingQual;
	int			workers = 0;
	double		divisor = 1.0;
	ForeignPath *path;
	ListCell   *lc;
	int			nkeys;
	double		ngroups;
	double		group_bytes;
	double		spill_fraction;
	EstimationInfo estinfo = {0};
	int			ndistinct = 0;
	bool		spread;
	Cost		work;
	Cost		footers;
	Cost		startup;
	Cost		total;
	QualCost	qcost;

	/* a base relation: extra->patype then only says the setting is on */
	if (!pqfdw_enable_grouped_scan || st == NULL ||
		input_rel->reloptkind != RELOPT_BASEREL ||
		!pqfdw_upper_pushdown_ok(st) ||
		parse->groupingSets != NIL || parse->hasWindowFuncs ||
		parse->hasTargetSRFs || root->hasPseudoConstantQuals)
		return;
	if (partial)
	{
		workers = grouping_workers(input_rel, &divisor);
		if (workers == 0)
			return;
	}
	else
		st->grouped_workers = 0;

	num = numeric_columns(input_rel, st);
	foreach(lc, parse->groupClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Expr	   *expr = (Expr *) get_sortgroupclause_expr(sgc,
															 root->processed_tlist);

		if (!key_ok(expr, sgc, relid, num))
			return;
		keys = lappend(keys, expr);
	}
	foreach(lc, output_rel->reltarget->exprs)
		if (!upper_expr_ok(lfirst(lc), keys, relid, num, &aggrefs))
		return;
	foreach(lc, having)
		if (!upper_expr_ok(lfirst(lc), keys, relid, num, &aggrefs))
		return;

	/*
	 * Every WHERE qual is the scan's: its batch filter's, or a bool vector
	 * expression the grouped scan evaluates on the rows the filter passed
	 * (function calls: once per dictionary entry), as PostgreSQL evaluates
	 * the costlier quals after the cheap ones.  Not under security barrier
	 * quals, which must run first.
	 */
	scan_private = pqfdw_scan_private(root, input_rel,
									  planner_rt_fetch(relid, root)->relid,
									  input_rel->baserestrictinfo, &local,
									  &prune_values);
	foreach(lc, input_rel->baserestrictinfo)
		if (lfirst_node(RestrictInfo, lc)->security_level > 0 && local != NIL)
		return;
	foreach(lc, local)
		if (exprType(lfirst(lc)) != BOOLOID ||
			!pqfdw_vexpr_supported(lfirst(lc), relid, num))
		return;

	/*
	 * Keys the others decide are left out of the groups; the scan still
	 * evaluates them on every row (checks), for the errors PostgreSQL's
	 * grouping would raise.
	 */
	foreach(lc, keys)
	{
		if (dependent_key(lfirst(lc), keys))
			checks = lappend(checks, lfirst(lc));
		else
			held = lappend(held, lfirst(lc));
	}
	scan_tlist = add_to_flat_tlist(NIL, held);
	nkeys = list_length(scan_tlist);
	scan_tlist = add_to_flat_tlist(scan_tlist, aggrefs);

	ngroups = nkeys == 0 ? 1 :
		estimate_num_groups(root, keys, input_rel->rows, NULL, &estinfo);

	group_bytes = 64.0 + 32.0 * nkeys;
	foreach(lc, aggrefs)
	{
		group_bytes += pqfdw_accum_group_bytes(lfirst(lc));
		ndistinct += ((Aggref *) lfirst(lc))->aggdistinct != NIL;
	}

	/*
	 * Processes that finish whole partitions of the groups (the partitioned
	 * path) pay off for DISTINCT and for many groups (over 10,000, or a count
	 * nothing tells), unless one key decides them that the serial scan looks
	 * up fast: a value of 8 bytes, or a column's dictionary index (moving the
	 * rows costs more than such lookups: hits.sh's users and
	 * referer_domains).
	 */
	spread = nkeys > 0 &&
		(ndistinct > 0 ||
		 ((ngroups > 10000.0 || (estinfo.flags & SELFLAG_USED_DEFAULT)) &&
		  !(nkeys == 1 && (get_typbyval(exprType(linitial(held))) ||
						   dictionary_key(st, linitial(held))))));

	/*
	 * Partial states pay off for few groups.  With the count of the keys'
	 * values unknown (no statistics, no dictionary counts in the footers) and
	 * keys the partitioned path takes, 200 groups could be a million, each
	 * through Gather to a Finalize Aggregate.
	 */
	if (partial && spread && (estinfo.flags & SELFLAG_USED_DEFAULT))
		return;
	spill_fraction = 0.0;
	if (ngroups * group_bytes > (double) get_hash_memory_limit())
		spill_fraction = 1.0 - (double) get_hash_memory_limit() /
			(ngroups * group_bytes);

	/*
	 * The scan's decoding and filtering as a plain scan costs them, but no
	 * tuple per row: each row costs a fraction of an operator per key and
	 * aggregate, and all of it comes before the first group.
	 */
	cost_qual_eval(&qcost, input_rel->baserestrictinfo, root);
	work = seq_page_cost * (st->bytes / BLCKSZ) +
		st->scanned_tuples * cpu_operator_cost * 0.25 * st->ncolumns +
		qcost.per_tuple * st->scanned_tuples * 0.5 +
		input_rel->rows * cpu_operator_cost * 0.25 *
		(nkeys + list_length(scan_tlist) - nkeys);
	startup = work + 2.0 * seq_page_cost * spill_fraction * input_rel->rows *
		(8.0 * list_length(scan_tlist)) / BLCKSZ;
	/* a parallel scan's processes share the work; the footers each read */
	footers = 10.0 * list_length(st->paths) + qcost.startup;
	startup = (partial ? startup / divisor : startup) + footers;
	total = startup + ngroups * cpu_tuple_cost;

	path = pqfdw_create_foreign_upper_path(root, output_rel, output_rel->reltarget,
										   ngroups, startup, total, NIL, NULL,
										   list_make2(makeInteger(PQFDW_PLAN_GROUPED),
													  lappend(lappend(lappend(lappend(list_make5(scan_private,
																								 prune_values,
																								 scan_tlist,
																								 makeInteger(nkeys),
																								 having),
																					  local),
																			  checks),
																	  NIL),
															  makeInteger(0))));
	if (!partial)
	{
		add_path(output_rel, (Path *) path);
		if (spread && output_rel->consider_parallel &&
			list_length(scan_tlist) <= PQFDW_GROUP_MAX_VECS &&
			(workers = partitioned_workers(input_rel, scan_tlist,
										   &divisor)) > 0)
			add_partitioned_path(root, input_rel, output_rel, path, workers,
								 divisor, work, footers, ngroups);
		return;
	}

	/*
	 * Each process aggregates the row groups it claims and returns partial
	 * states, which PostgreSQL gathers and combines (Finalize Aggregate).
	 */
	path->path.parallel_aware = true;
	path->path.parallel_safe = true;
	path->path.parallel_workers = workers;
	add_partial_path(output_rel, (Path *) path);
}

/*
 * The plan of that path: no relation scanned (the executor finds it in
 * fs_relids); the scan's fdw_private and the number of grouping keys; the
 * scan tuple is the keys and aggregates, HAVING the plan's qual.
 */
ForeignScan *
pqfdw_grouping_plan(PlannerInfo *root, RelOptInfo *rel,
					ForeignPath *best_path, List *tlist, Plan *outer_plan)
{
	List	   *priv = lsecond(best_path->fdw_private);
	List	   *fdw_private = list_copy(linitial(priv));

	Assert(list_length(fdw_private) == PQFDW_PRIVATE_EXTRA);
	linitial(fdw_private) = makeInteger(PQFDW_PLAN_GROUPED);
	fdw_private = lappend(fdw_private, list_nth(priv, 3));
	/* the quals the grouped scan evaluates itself */
	fdw_private = lappend(fdw_private, copyObject(list_nth(priv, 5)));
	/* the keys the others decide, evaluated for their errors */
	fdw_private = lappend(fdw_private, copyObject(list_nth(priv, 6)));
	/* ORDER BY ... LIMIT of the groups (grouped_top_n.c), or NIL */
	fdw_private = lappend(fdw_private, list_nth(priv, 7));
	/* whether the processes share partitions (group_shared.h) */
	fdw_private = lappend(fdw_private, list_nth(priv, 8));
	return make_foreignscan(tlist, list_nth(priv, 4), 0, lsecond(priv),
							fdw_private, copyObject(lthird(priv)), NIL,
							outer_plan);
}
