/*-------------------------------------------------------------------------
 *
 * prune.h
 *		Pruning predicates: their executor form (PqPrunePred), built from
 *		quals by predicate.c, and what the pruning methods share to test
 *		them against statistics (statistics.c) and nested leaves.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PRUNE_H
#define PQFDW_PRUNE_H

#include "fdw/convert/convert.h"
#include "fdw/convert/nested.h"
#include "fmgr.h"
#include "nodes/pg_list.h"
#include "nodes/primnodes.h"

/* strategies beyond btree's: <>, and LIKE 'prefix%' as [prefix, prefix_end) */
#define PQ_STRATEGY_NE 6
#define PQ_STRATEGY_PREFIX 7

/* struct fields a nested predicate may select */
#define PQ_PRUNE_MAX_STEPS 8

typedef enum PqPruneKind
{
	PQ_PRUNE_COMPARE,			/* column op constant(s) */
	PQ_PRUNE_IS_NULL,
	PQ_PRUNE_IS_NOT_NULL,
	PQ_PRUNE_OR,				/* any of args */
	PQ_PRUNE_BBOX				/* a geometry's bounding box (geo_bbox.c) */
} PqPruneKind;

typedef struct PqGeoPred PqGeoPred;

typedef struct PqPrunePred
{
	PqPruneKind kind;
	AttrNumber	attnum;			/* 1-based */
	int			strategy;		/* btree strategy, column on the left; 6 = <> */
	Datum	   *values;			/* non-NULL values compared with; several for
								 * = ANY(array); none: never true */
	int			nvalues;
	int			value_index;	/* its value expression, -1 if fixed */
	bool		value_is_array;
	Oid			elemtype;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	FmgrInfo	cmp;			/* btree order proc (column type, const type) */
	bool		has_cast;		/* the clause casts the column first ... */
	FmgrInfo	cast;			/* ... with this monotonic cast */
	Oid			collation;
	Datum		prefix_end;		/* LIKE 'prefix%': upper bound (exclusive) */
	bool		has_prefix_end;
	struct PqPrunePred *args;	/* PQ_PRUNE_OR */
	int			nargs;

	/*
	 * A leaf inside a nested column (nested_path.c): the struct fields
	 * selected from the attribute, outermost first, then, when element, the
	 * elements of a list ("value op ANY (list)").  Bound per scan to the
	 * leaf's converter and column; unbound (NULL) decides nothing.
	 */
	int16		fields[PQ_PRUNE_MAX_STEPS];
	int			nfields;
	bool		element;
	Oid			leaf_type;		/* the field's or element's declared type */
	PqConverter *nested_cv;
	int			nested_leaf;
	PqGeoPred  *geo;			/* PQ_PRUNE_BBOX: its shape and box */

	/*
	 * Or a key path into a column read as jsonb (json_path.c), outermost key
	 * first; bound like a nested leaf.  json_variant: the path goes into a
	 * VARIANT.
	 */
	char	  **json_keys;
	int			njson_keys;
	bool		json_variant;

	/*
	 * "v @> '{...}'" (json_contains.c): each scalar at a key of the constant,
	 * as "v->>'key' = value"; the first one whose key has a usable leaf is
	 * the predicate's.
	 */
	struct PqJsonCand *json_cands;
	int			njson_cands;
} PqPrunePred;

typedef struct PqJsonCand
{
	char	   *key;
	Oid			type;			/* TEXTOID: a string, NUMERICOID: a number */
	Datum		value;
	FmgrInfo	cmp;			/* btree order proc of type */
} PqJsonCand;

#define PQ_PRED_IS_NESTED(p) \
	((p)->nfields > 0 || (p)->element || (p)->njson_keys > 0)

/*
 * The converter and leaf column predicate p reads: its attribute's
 * (cvs/leaf per attribute), or for a nested leaf the bound one.  False
 * when there is none.
 */
static inline bool
pqfdw_pred_column(const PqPrunePred *p, PqConverter **cvs, const int *leaf,
				  PqConverter **cv, int *c)
{
	if (PQ_PRED_IS_NESTED(p))
	{
		*cv = p->nested_cv;
		*c = p->nested_leaf;
	}
	else
	{
		*cv = cvs[p->attnum - 1];
		*c = leaf[p->attnum - 1];
	}
	return *cv != NULL && *c >= 0;
}

/*
 * Quals (bare Exprs) of a RestrictInfo list that statistics can decide,
 * and in *values the expressions (constants, parameters) they compare
 * with, to be evaluated by the executor in this order.
 */
extern List *pqfdw_prune_clauses(List *restrictinfos, Index relid,
								 List **values);

/* Whether a clause is one of those (for parameterized paths). */
extern bool pqfdw_is_prune_clause(Expr *clause, Index relid);

/*
 * The clauses with their value expressions replaced by values (the plan's
 * fdw_exprs after set_plan_references), for EXPLAIN.
 */
extern List *pqfdw_prune_clauses_with_values(List *clauses, Index relid,
											 List *values);

/* Executor-side form of those quals; unusable ones are left out. */
extern PqPrunePred *pqfdw_prune_init(List *clauses, Index relid, int *npreds);

/* Install the evaluated value expressions (by index) into the predicates. */
extern void pqfdw_prune_set_values(PqPrunePred *preds, int npreds,
								   const Datum *values, const bool *isnull);

/*
 * False when the statistics of the row group prove that no row can satisfy
 * every predicate.  cvs[i] is the converter of attribute i + 1 (or NULL when
 * the attribute is not read); leaf[i] its leaf column in the file.
 */
extern bool pqfdw_row_group_may_match(PqPrunePred *preds, int npreds,
									  const PqFile *file, int row_group,
									  PqConverter **cvs, const int *leaf);

/*
 * Can a value in [lo, hi] (statistics bytes of the column: chunk or page
 * bounds) satisfy the comparison predicate p?  nan_free: the bounds'
 * source says the values hold no NaN.  True whenever the bounds cannot be
 * trusted for this column and type.
 */
extern bool pqfdw_pred_bounds_may_match(PqPrunePred *p, PqConverter *cv,
										const PqColumnDescr *col,
										PqBytes lo, PqBytes hi, bool nan_free);

/*
 * Whether signed byte order (legacy min/max, bounds of files without column
 * orders) is the type's own order for this column.
 */
extern bool pqfdw_signed_order_is_type_order(const PqSchemaNode *node);

/*
 * The min/max pair of chunk statistics usable in the column's type order:
 * type-defined min_value/max_value, or legacy min/max where signed byte
 * order is the type's order.  False when there is none.
 */
extern bool pqfdw_chunk_stat_bytes(const PqColumnDescr *col,
								   const PqStatistics *s,
								   PqBytes *lo, PqBytes *hi);

/*
 * The decoded chunk statistics of leaf column c (declared type of cv), with
 * the fraction of its values that are null; false when unusable.
 */
extern bool pqfdw_chunk_bounds(const PqFile *file, int row_group, int c,
							   PqConverter *cv, Datum *min, Datum *max,
							   double *null_fraction);

/*
 * Estimated fraction of the row group's rows that satisfy every predicate,
 * from the chunks' min/max (values uniform between them) and null counts;
 * a predicate the statistics say nothing about counts as 1 and clears
 * *all_known (estimate.c).
 */
extern double pqfdw_row_group_fraction(PqPrunePred *preds, int npreds,
									   const PqFile *file, int row_group,
									   PqConverter **cvs, const int *leaf,
									   bool *all_known);

/*
 * Can a value between min and max (declared-type values; either bound may
 * be unknown) satisfy the comparison predicate p?
 */
extern bool pqfdw_pred_range_may_match(PqPrunePred *p, Datum min,
									   bool min_known, Datum max,
									   bool max_known);

/* Can this one declared-type value satisfy the comparison predicate p? */
extern bool pqfdw_pred_value_may_match(PqPrunePred *p, Datum value);

/*
 * nested_path.c: the Var under a chain of FieldSelects (fields[0 ..
 * *nfields), outermost first), or the Var itself; NULL otherwise.
 */
extern Var *pqfdw_prune_field_var(Node *node, Index relid, int16 *fields,
								  int *nfields);

/*
 * Bind the nested predicates on attribute attnum to the leaves of plan, the
 * column's nested plan (once it exists, before pruning a row group).
 */
extern void pqfdw_prune_bind_nested(PqPrunePred *preds, int npreds,
									AttrNumber attnum, PqNestedPlan *plan);

/*
 * json_path.c: the Var under a key path "var->'a'->>'f'" (possibly cast
 * as a number), or NULL; with p, the keys and operand type go into p.
 */
extern Var *pqfdw_prune_json_var(Node *node, Index relid, PqPrunePred *p);

/*
 * json_contains.c: whether clause is "var @> jsonb constant" with a scalar
 * at a key; with p, the predicate (its candidates) goes into p.
 */
extern bool pqfdw_prune_json_contains(Expr *clause, Index relid,
									  PqPrunePred *p);

/* Make candidate i the predicate of p (json_contains.c). */
extern void pqfdw_prune_json_use_candidate(PqPrunePred *p, int i);

/*
 * Bind the key path predicates on attribute attnum to the leaves of nc's
 * open file for row_group (converters allocated in cxt).
 */
extern void pqfdw_prune_bind_json(PqPrunePred *preds, int npreds,
								  AttrNumber attnum, const PqNestedColumn *nc,
								  int row_group, MemoryContext cxt);

/* GUC parquet_fdw.enable_statistics_pruning */
extern bool pqfdw_enable_statistics_pruning;

#endif							/* PQFDW_PRUNE_H */
