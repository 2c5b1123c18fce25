/*-------------------------------------------------------------------------
 *
 * sort_order.c
 *		The foreign-table option sorted: the order the files' rows are in,
 *		as pathkeys of the scan, so that Merge Join, Gather Merge and
 *		ORDER BY ... LIMIT need no Sort.
 *
 * The scan returns the files in path order and each file's row groups and
 * rows in file order (a parallel scan's processes each take row groups in
 * that order), so the declared order holds for the scan's output when it
 * holds for the files read one after another.  What the footers can say
 * against it is checked when the table is planned: a row group's
 * sorting_columns must agree with the declared keys, and on the first key
 * each row group's statistics must start where the previous one ended
 * (NULLs only at the declared end).  A contradiction is an error, never a
 * plan that trusts a wrong order; without such metadata the declaration is
 * taken as given.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "access/table.h"
#include "fdw/common/columns.h"
#include "fdw/common/pg_compat.h"
#include "fdw/common/table_options.h"
#include "fdw/plan/plan.h"
#include "fdw/prune/prune.h"
#include "nodes/makefuncs.h"
#include "optimizer/paths.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/rel.h"
#include "utils/typcache.h"

/* A declared key, resolved against the table and the first file. */
typedef struct SortKey
{
	PqfdwSortKey *decl;
	Form_pg_attribute att;
	int			leaf;			/* leaf column, -1 when nested or absent */
	const PqSchemaNode *node;
} SortKey;

/*
 * Rows out of the declared order.  A file that starts before the previous
 * one ended (across_files), when each file alone is in order
 * (adjust/parquet_fdw's sorted, which merged files): option files_in_order
 * 'false' says so.
 */
static void
order_error(Relation rel, const char *path, const char *detail,
			bool across_files)
{
	const char *name = RelationGetRelationName(rel);

	ereport(ERROR,
			(errcode(ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION),
			 errmsg("rows of Parquet file \"%s\" are not in the order that option \"sorted\" of foreign table \"%s\" declares",
					path, name),
			 errdetail("%s", detail),
			 across_files ?
			 errhint("If each file is in that order but not the files one after another, add files_in_order 'false': ALTER FOREIGN TABLE %s OPTIONS (ADD files_in_order 'false').",
					 name) :
			 errhint("Correct the option or drop it: ALTER FOREIGN TABLE %s OPTIONS (DROP sorted).",
					 name)));
}

static AttrNumber
find_attribute(Relation rel, const char *name)
{
	TupleDesc	desc = RelationGetDescr(rel);
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
			return i + 1;
	}
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_COLUMN),
			 errmsg("column \"%s\" named in option \"sorted\" of foreign table \"%s\" does not exist",
					name, RelationGetRelationName(rel))));
	return InvalidAttrNumber;	/* keep compiler quiet */
}

/* sorting_columns of a row group, where present, must agree with keys. */
static void
check_sorting_columns(Relation rel, const PqFile *f, int rg, SortKey *keys,
					  int nkeys)
{
	const PqRowGroup *g = &f->md.row_groups[rg];
	int			k;

	for (k = 0; k < Min(nkeys, g->n_sorting_columns); k++)
	{
		const PqSortingColumn *sc = &g->sorting_columns[k];

		if (keys[k].leaf < 0)
			return;
		if (sc->column_idx != keys[k].leaf ||
			sc->descending != keys[k].decl->descending ||
			sc->nulls_first != keys[k].decl->nulls_first)
			order_error(rel, f->src->name,
						psprintf("Row group %d says it is sorted by leaf column %d%s%s as its key %d; the option names column \"%s\"%s%s.",
								 rg, sc->column_idx,
								 sc->descending ? " DESC" : "",
								 sc->nulls_first ? " NULLS FIRST" : " NULLS LAST",
								 k + 1, keys[k].decl->column,
								 keys[k].decl->descending ? " DESC" : "",
								 keys[k].decl->nulls_first ? " NULLS FIRST" : " NULLS LAST"),
						false);
	}
}

/*
 * Statistics of the first key, row group after row group over all files:
 * each must begin at or after the previous one's end, and NULLs may only
 * be at the declared end.
 */
static void
check_statistics(Relation rel, List *files, SortKey *key)
{
	Form_pg_attribute att = key->att;
	TypeCacheEntry *tce;
	PqConverter cv;
	bool		have_prev = false;
	Datum		prev_end = (Datum) 0;
	bool		seen_values = false;
	bool		seen_nulls = false;
	PqFile	   *prev_file = NULL;
	ListCell   *lc;

	/* string statistics are in byte order: only "C" order can be checked */
	if (key->leaf < 0 ||
		(OidIsValid(att->attcollation) && !pqfdw_collate_is_c(att->attcollation)))
		return;
	tce = lookup_type_cache(att->atttypid, TYPECACHE_CMP_PROC_FINFO);
	if (!OidIsValid(tce->cmp_proc_finfo.fn_oid))
		return;
	pqfdw_converter_init(&cv, key->node, att->atttypid, att->atttypmod,
						 NameStr(att->attname), CurrentMemoryContext);
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);
		int			rg;

		for (rg = 0; rg < f->md.n_row_groups; rg++)
		{
			Datum		min;
			Datum		max;
			double		null_fraction;
			bool		has_values;
			bool		has_nulls;

			if (f->md.row_groups[rg].num_rows == 0)
				continue;
			if (!pqfdw_chunk_bounds(f, rg, key->leaf, &cv, &min, &max,
									&null_fraction))
			{
				/* unknown: the next row group cannot be compared */
				have_prev = false;
				continue;
			}
			has_nulls = null_fraction > 0;
			has_values = null_fraction < 1;
			if ((key->decl->nulls_first ? seen_values && has_nulls :
				 seen_nulls && has_values))
				order_error(rel, f->src->name,
							psprintf("Row group %d has %s of column \"%s\" after row groups with %s.",
									 rg, has_nulls && key->decl->nulls_first ? "NULLs" : "values",
									 key->decl->column,
									 key->decl->nulls_first ? "values" : "NULLs"),
							false);
			seen_values |= has_values;
			seen_nulls |= has_nulls;
			if (!has_values)
				continue;
			if (have_prev)
			{
				Datum		start = key->decl->descending ? max : min;
				int32		c = DatumGetInt32(FunctionCall2Coll(&tce->cmp_proc_finfo,
																att->attcollation,
																prev_end, start));

				if (key->decl->descending ? c < 0 : c > 0)
					order_error(rel, f->src->name,
								psprintf("The statistics of row group %d show values of column \"%s\" %s than the end of the %s read before it.",
										 rg, key->decl->column,
										 key->decl->descending ? "greater" : "less",
										 prev_file != f ? "file" : "row group"),
								prev_file != f);
			}
			prev_end = key->decl->descending ? min : max;
			prev_file = f;
			have_prev = true;
		}
	}
}

List *
pqfdw_sort_pathkeys(PlannerInfo *root, RelOptInfo *baserel,
					PqfdwPlanState *st, List *sorted)
{
	Relation	rel;
	SortKey    *keys;
	PqFile	   *first;
	List	   *pathkeys = NIL;
	ListCell   *lc;
	int			nkeys = list_length(sorted);
	int			k = 0;

	if (sorted == NIL || st->files == NIL)
		return NIL;
	rel = table_open(st->relid, NoLock);
	first = linitial(st->files);
	keys = palloc0(sizeof(SortKey) * nkeys);
	foreach(lc, sorted)
	{
		SortKey    *key = &keys[k++];
		AttrNumber	attnum;
		const PqSchemaNode *node;

		key->decl = lfirst(lc);
		attnum = find_attribute(rel, key->decl->column);
		key->att = TupleDescAttr(RelationGetDescr(rel), attnum - 1);
		node = pqfdw_find_column_opt(first, st->relid, attnum);
		key->leaf = -1;
		if (node != NULL && node->is_leaf && node->max_rep == 0)
		{
			key->node = node;
			key->leaf = node->first_leaf;
		}
	}
	foreach(lc, st->files)
	{
		PqFile	   *f = lfirst(lc);
		int			rg;

		for (rg = 0; rg < f->md.n_row_groups; rg++)
			check_sorting_columns(rel, f, rg, keys, nkeys);
	}
	check_statistics(rel, st->files, &keys[0]);

	for (k = 0; k < nkeys; k++)
	{
		Form_pg_attribute att = keys[k].att;
		TypeCacheEntry *tce = lookup_type_cache(att->atttypid,
												TYPECACHE_LT_OPR | TYPECACHE_GT_OPR);
		Oid			sortop = keys[k].decl->descending ? tce->gt_opr : tce->lt_opr;
		Oid			opfamily;
		Oid			opcintype;
		PqOrderingStrategy strategy;
		Var		   *var;
		EquivalenceClass *ec;
		PathKey    *pk;

		if (!OidIsValid(sortop) ||
			!get_ordering_op_properties(sortop, &opfamily, &opcintype, &strategy))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_FUNCTION),
					 errmsg("column \"%s\" named in option \"sorted\" of foreign table \"%s\" has a type without a default order",
							keys[k].decl->column, RelationGetRelationName(rel))));
		var = makeVar(baserel->relid, att->attnum, att->atttypid,
					  att->atttypmod, att->attcollation, 0);
		/* a key no query orders or joins by ends what is useful */
		ec = pqfdw_get_eclass_for_sort_expr(root, (Expr *) var,
											list_make1_oid(opfamily), opcintype,
											att->attcollation, 0, NULL, false);
		if (ec == NULL)
			break;
		if (EC_MUST_BE_REDUNDANT(ec))
			continue;
		pk = make_canonical_pathkey(root, ec, opfamily,
									keys[k].decl->descending ?
									BTGreaterStrategyNumber : BTLessStrategyNumber,
									keys[k].decl->nulls_first);
		if (!list_member_ptr(pathkeys, pk))
			pathkeys = lappend(pathkeys, pk);
	}
	table_close(rel, NoLock);
	return truncate_useless_pathkeys(root, baserel, pathkeys);
}
