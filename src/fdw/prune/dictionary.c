/*-------------------------------------------------------------------------
 *
 * dictionary.c
 *		Skip row groups whose dictionaries prove that a comparison qual
 *		matches no row.
 *
 * When encoding_stats show that every data page of a chunk is
 * dictionary-encoded, its dictionary page lists every non-null value of the
 * chunk.  The entries are converted to the declared type exactly as rows
 * are (so casts need not keep the order) and tested one by one with the
 * quals' comparisons, all the comparisons on one column at once; nulls
 * never satisfy a comparison.  Only dictionary pages are read, each once
 * per row group and attribute.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/prune/prune_method.h"
#include "format/read/dictionary_reader.h"
#include "utils/memutils.h"

static bool enable_dictionary_pruning = true;

/* A chunk's dictionary as declared-type Datums of one attribute. */
typedef struct DictValues
{
	AttrNumber	attnum;
	bool		usable;			/* false: cannot prove anything */
	int			count;
	const Datum *values;
} DictValues;

typedef struct DictState
{
	PqFile	   *file;
	int			row_group;
	PqConverter **cvs;
	const int  *leaf;
	List	   *loaded;			/* DictValues of the row group */
} DictState;

/* Convert the dictionary entries of a chunk with the column's converter. */
static void
load_values(DictState *ds, PqConverter *cv, int leaf, DictValues *dv)
{
	const PqRowGroup *rg = &ds->file->md.row_groups[ds->row_group];
	const PqColumnChunk *cc = &rg->columns[leaf];
	PqDictionary dict;

	/* a narrowing cast would raise for an entry no kept row holds */
	if (cv == NULL || !pqfdw_converter_keeps_values(cv) || cv->narrowing ||
		cv->node->max_rep > 0 ||
		!cc->has_meta_data ||
		!pq_chunk_fully_dictionary_encoded(&cc->meta_data) ||
		!pq_read_dictionary(ds->file, ds->row_group, leaf, &dict))
		return;

	/*
	 * Converted as the scan converts a dictionary, in one pass; the Datums
	 * stay valid until the converter meets another dictionary, after this row
	 * group's check.
	 */
	dv->values = pqfdw_dictionary_datums(cv, &dict);
	dv->count = dict.count;
	dv->usable = pqfdw_dictionary_exact(cv);
}

/* The dictionary of an attribute's chunk, read on first use. */
static DictValues *
get_values(DictState *ds, AttrNumber attnum)
{
	DictValues *dv;
	ListCell   *lc;

	foreach(lc, ds->loaded)
	{
		dv = lfirst(lc);
		if (dv->attnum == attnum)
			return dv;
	}
	dv = palloc0(sizeof(DictValues));
	dv->attnum = attnum;
	if (ds->leaf[attnum - 1] >= 0)
		load_values(ds, ds->cvs[attnum - 1], ds->leaf[attnum - 1], dv);
	ds->loaded = lappend(ds->loaded, dv);
	return dv;
}

/* Does one entry satisfy every comparison of preds[0 .. n)? */
static bool
some_entry_satisfies(const DictValues *dv, PqPrunePred **preds, int n)
{
	int			i;
	int			k;

	if (!dv->usable)
		return true;
	for (i = 0; i < dv->count; i++)
	{
		for (k = 0; k < n; k++)
			if (!pqfdw_pred_value_may_match(preds[k], dv->values[i]))
				break;
		if (k == n)
			return true;
	}
	return false;
}

static bool
pred_may_match(DictState *ds, PqPrunePred *p)
{
	int			i;

	switch (p->kind)
	{
		case PQ_PRUNE_COMPARE:
			/* a nested leaf's qual does not compare the attribute's values */
			return PQ_PRED_IS_NESTED(p) ||
				some_entry_satisfies(get_values(ds, p->attnum), &p, 1);
		case PQ_PRUNE_OR:
			for (i = 0; i < p->nargs; i++)
				if (pred_may_match(ds, &p->args[i]))
					return true;
			return false;
		default:
			/* dictionaries hold no nulls: IS [NOT] NULL is for statistics */
			return true;
	}
}

static bool
dictionary_may_match(PqPrunePred *preds, int npreds, PqFile *file,
					 int row_group, PqConverter **cvs, const int *leaf)
{
	DictState	ds;
	MemoryContext cxt;
	MemoryContext old;
	PqPrunePred **group;
	bool	   *done;
	bool		match = true;
	int			i;
	int			j;

	cxt = AllocSetContextCreate(CurrentMemoryContext,
								"parquet_fdw dictionary pruning",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	ds.file = file;
	ds.row_group = row_group;
	ds.cvs = cvs;
	ds.leaf = leaf;
	ds.loaded = NIL;
	group = palloc(sizeof(PqPrunePred *) * Max(npreds, 1));
	done = palloc0(sizeof(bool) * Max(npreds, 1));
	for (i = 0; i < npreds && match; i++)
	{
		int			n = 0;

		if (preds[i].kind != PQ_PRUNE_COMPARE)
		{
			match = pred_may_match(&ds, &preds[i]);
			continue;
		}
		if (done[i] || PQ_PRED_IS_NESTED(&preds[i]))
			continue;

		/*
		 * The comparisons on one column must hold for one entry together:
		 * BETWEEN 11 AND 12 excludes {0, 100} though each bound alone does
		 * not.
		 */
		for (j = i; j < npreds; j++)
			if (preds[j].kind == PQ_PRUNE_COMPARE &&
				!PQ_PRED_IS_NESTED(&preds[j]) &&
				preds[j].attnum == preds[i].attnum)
			{
				group[n++] = &preds[j];
				done[j] = true;
			}
		match = some_entry_satisfies(get_values(&ds, preds[i].attnum),
									 group, n);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return match;
}

static void
dictionary_check(PqPruner *pr, const PqPruneTarget *t, PqPruneMethodState *ms,
				 PqPruneVerdict *v)
{
	v->may_match = dictionary_may_match(pr->preds, pr->npreds, t->file,
										t->row_group, t->att_cv, t->att_leaf);
}

const PqPruneMethod pqfdw_prune_dictionary = {
	.explain = "Row Groups Pruned by Dictionary",
	.guc = "parquet_fdw.enable_dictionary_pruning",
	.guc_description = "Skips row groups whose dictionaries hold no value that satisfies a comparison.",
	.enabled = &enable_dictionary_pruning,
	.check = dictionary_check,
};
