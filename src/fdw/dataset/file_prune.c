/*-------------------------------------------------------------------------
 *
 * file_prune.c
 *		Whole files ruled out by quals on the columns constant per file
 *		(hive partition keys, the file name), before any footer is read.
 *
 * Such a qual is any expression over those columns without volatile
 * functions: each file's values are put in for the columns and the qual
 * evaluated, by PostgreSQL itself.  At plan time the values of constants
 * (and of a custom plan's parameters) are known, and eval_const_expressions
 * folds the qual to false or NULL for files it rules out.  In the executor
 * the qual runs over a tuple of the file's values, with the scan's Params
 * (generic plans, parameterized nested loops), again at each rescan.  The
 * qual also stays among the scan's quals: this only skips files.  Files of
 * one partition directory come one after another and are decided once.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "executor/executor.h"
#include "fdw/dataset/dataset.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "optimizer/optimizer.h"
#include "optimizer/restrictinfo.h"
#include "utils/lsyscache.h"

/* Whether every Var of relid in node is file-constant (and there is one). */
static bool
only_file_constants(const PqfdwDataset *ds, Node *node, Index relid)
{
	Bitmapset  *attrs = NULL;
	int			k = -1;

	pull_varattnos(node, relid, &attrs);
	if (bms_is_empty(attrs))
		return false;
	while ((k = bms_next_member(attrs, k)) >= 0)
		if (!pqfdw_dataset_file_constant(ds,
										 k + FirstLowInvalidHeapAttributeNumber))
			return false;
	return true;
}

List *
pqfdw_file_clauses(const PqfdwDataset *ds, List *restrictinfos, Index relid)
{
	if (ds == NULL || !ds->has_virtual)
		return NIL;
	return pqfdw_file_exprs(ds, extract_actual_clauses(restrictinfos, false),
							relid);
}

List *
pqfdw_file_exprs(const PqfdwDataset *ds, List *exprs, Index relid)
{
	List	   *result = NIL;
	ListCell   *lc;

	if (ds == NULL || !ds->has_virtual)
		return NIL;
	foreach(lc, exprs)
	{
		Node	   *clause = lfirst(lc);

		if (only_file_constants(ds, clause, relid) &&
			!contain_volatile_functions(clause))
			result = lappend(result, clause);
	}
	return result;
}

typedef struct SubstituteContext
{
	PqfdwDataset *ds;
	Index		relid;
	int			file;
} SubstituteContext;

/* The clause with the file's values in place of its file-constant Vars. */
static Node *
substitute_file_values(Node *node, SubstituteContext *sc)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varno == sc->relid &&
		((Var *) node)->varlevelsup == 0)
	{
		Var		   *var = (Var *) node;
		int16		typlen;
		bool		typbyval;
		Datum		value;
		bool		isnull;

		isnull = pqfdw_dataset_file_value(sc->ds, sc->file, var->varattno,
										  &value);
		get_typlenbyval(var->vartype, &typlen, &typbyval);
		return (Node *) makeConst(var->vartype, var->vartypmod,
								  var->varcollid, typlen, value, isnull,
								  typbyval);
	}
	return expression_tree_mutator(node, substitute_file_values, sc);
}

/* The attributes the clauses read, to tell files with equal values apart. */
static Bitmapset *
clause_attrs(List *clauses, Index relid)
{
	Bitmapset  *attrs = NULL;

	pull_varattnos((Node *) clauses, relid, &attrs);
	return attrs;
}

/* Whether files a and b have the same values for attrs (raw strings). */
static bool
same_values(PqfdwDataset *ds, Bitmapset *attrs, int a, int b)
{
	int			k = -1;

	while ((k = bms_next_member(attrs, k)) >= 0)
	{
		int			att = k + FirstLowInvalidHeapAttributeNumber - 1;
		const char *x;
		const char *y;

		if (ds->kind[att] != PQFDW_COLUMN_PARTITION)
			return false;
		x = ds->raw[a * ds->nkeys + ds->key_of[att]];
		y = ds->raw[b * ds->nkeys + ds->key_of[att]];
		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0))
			return false;
	}
	return true;
}

bool *
pqfdw_files_pruned_at_plan(PlannerInfo *root, PqfdwDataset *ds,
						   List *clauses, Index relid, int *npruned,
						   bool *all_true)
{
	bool	   *pruned;
	Bitmapset  *attrs;
	SubstituteContext sc;
	int			f;

	*npruned = 0;
	*all_true = true;
	if (clauses == NIL)
		return NULL;
	pruned = palloc0(sizeof(bool) * Max(ds->nfiles, 1));
	attrs = clause_attrs(clauses, relid);
	sc.ds = ds;
	sc.relid = relid;
	for (f = 0; f < ds->nfiles; f++)
	{
		Node	   *folded;

		if (f > 0 && same_values(ds, attrs, f - 1, f))
		{
			pruned[f] = pruned[f - 1];
			*npruned += pruned[f];
			continue;
		}
		sc.file = f;
		folded = substitute_file_values((Node *) make_ands_explicit(clauses),
										&sc);
		folded = eval_const_expressions(root, folded);
		if (IsA(folded, Const) &&
			(((Const *) folded)->constisnull ||
			 !DatumGetBool(((Const *) folded)->constvalue)))
		{
			pruned[f] = true;
			(*npruned)++;
		}
		else if (!IsA(folded, Const))
			*all_true = false;
	}
	return pruned;
}

struct PqfdwFilePruner
{
	PqfdwDataset *ds;
	ExprState  *qual;
	ExprContext *econtext;
	TupleTableSlot *slot;
	Bitmapset  *attrs;			/* the attributes the qual reads */
	int8	   *decided;		/* per file: -1 undecided, 0 ruled out, 1 */
	int			last;			/* the file decided last, -1: none */
	int64		pruned;			/* files ruled out, over all (re)scans */
};

PqfdwFilePruner *
pqfdw_file_pruner_create(PqfdwDataset *ds, List *clauses, TupleDesc tupdesc,
						 PlanState *parent)
{
	PqfdwFilePruner *fp = palloc0(sizeof(PqfdwFilePruner));
	ListCell   *lc;

	fp->ds = ds;
	fp->qual = ExecInitQual(clauses, parent);
	fp->econtext = CreateExprContext(parent->state);
	/* a copy: the relation's descriptor would stay pinned by the slot */
	fp->slot = MakeSingleTupleTableSlot(CreateTupleDescCopy(tupdesc),
										&TTSOpsVirtual);
	/* after set_plan_references the only Vars are the scan tuple's */
	foreach(lc, pull_var_clause((Node *) clauses, 0))
	{
		Var		   *v = lfirst_node(Var, lc);

		fp->attrs = bms_add_member(fp->attrs,
								   v->varattno - FirstLowInvalidHeapAttributeNumber);
	}
	fp->decided = palloc(sizeof(int8) * Max(ds->nfiles, 1));
	pqfdw_file_pruner_reset(fp);
	return fp;
}

void
pqfdw_file_pruner_reset(PqfdwFilePruner *fp)
{
	memset(fp->decided, -1, sizeof(int8) * Max(fp->ds->nfiles, 1));
	fp->last = -1;
}

bool
pqfdw_file_pruner_check(PqfdwFilePruner *fp, int file)
{
	TupleTableSlot *slot = fp->slot;
	int			k = -1;
	bool		pass;

	if (fp->decided[file] >= 0)
		return fp->decided[file] == 1;
	if (fp->last >= 0 && same_values(fp->ds, fp->attrs, fp->last, file))
	{
		fp->decided[file] = fp->decided[fp->last];
		fp->pruned += fp->decided[file] == 0;
		return fp->decided[file] == 1;
	}
	ExecClearTuple(slot);
	memset(slot->tts_isnull, true, sizeof(bool) * slot->tts_tupleDescriptor->natts);
	while ((k = bms_next_member(fp->attrs, k)) >= 0)
	{
		AttrNumber	attnum = k + FirstLowInvalidHeapAttributeNumber;

		slot->tts_isnull[attnum - 1] =
			pqfdw_dataset_file_value(fp->ds, file, attnum,
									 &slot->tts_values[attnum - 1]);
	}
	ExecStoreVirtualTuple(slot);
	fp->econtext->ecxt_scantuple = slot;
	pass = ExecQual(fp->qual, fp->econtext);
	ResetExprContext(fp->econtext);
	fp->decided[file] = pass ? 1 : 0;
	fp->pruned += !pass;
	fp->last = file;
	return pass;
}

int64
pqfdw_file_pruner_pruned(PqfdwFilePruner *fp)
{
	return fp->pruned;
}
