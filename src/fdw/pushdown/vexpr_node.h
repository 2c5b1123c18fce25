/*-------------------------------------------------------------------------
 *
 * vexpr_node.h
 *		The nodes of vector expressions, shared by the files that decide
 *		what compiles (vexpr_support.c), compile and evaluate them
 *		(vexpr.c) and compute their operators (vexpr_ops.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_VEXPR_NODE_H
#define PQFDW_VEXPR_NODE_H

#include "fdw/pushdown/vexpr.h"

typedef enum VOp
{
	VOP_VAR,
	VOP_CONST,
	VOP_ADD,
	VOP_SUB,
	VOP_MUL,
	VOP_DIV,
	VOP_MOD,
	VOP_NEG,
	VOP_CAST,
	VOP_CMP,					/* comparison: a bool */
	VOP_ISNULL,
	VOP_ISNOTNULL,
	VOP_AND,					/* args: the operands, in order */
	VOP_OR,
	VOP_NOT,
	VOP_CASE,					/* args: WHEN, THEN pairs, then ELSE */
	VOP_FUNC					/* a function through fmgr (vexpr_func.c);
								 * args: its arguments that are not constants */
} VOp;

typedef enum VCmp
{
	VCMP_EQ,
	VCMP_NE,
	VCMP_LT,
	VCMP_LE,
	VCMP_GT,
	VCMP_GE
} VCmp;

struct PqVExpr
{
	VOp			op;
	VCmp		cmp;			/* VOP_CMP */
	PqVector	out;
	int			att;			/* VOP_VAR: 0-based attribute */
	PqVExpr    *a;
	PqVExpr    *b;
	PqVExpr   **args;			/* VOP_AND, VOP_OR, VOP_CASE */
	int			nargs;
	bool	   *sk;				/* VOP_AND, VOP_OR, VOP_CASE: the children's
								 * skip mask */
	int		   *branch;			/* VOP_CASE: per row, the branch it takes
								 * (nargs / 2 for ELSE), -1 if skipped */
	bool	   *nbuf;			/* nulls of computed nodes and masked columns */
	Datum	   *pbuf;			/* PQV_DATUM values of constants and CASE */
	int128	   *wbuf;			/* VOP_VAR of numeric: wide values */
	Oid			collid;			/* VOP_CMP of text */
	int64	   *sa;				/* VOP_CMP of numerics: the operands at */
	int64	   *sb;				/* their common scale */
	bool		const_null;
	int64		const_i;
	double		const_d;
	struct PqVFunc *fn;			/* VOP_FUNC */
	const PqBatchCodes *var_codes;	/* VOP_VAR: the column's dictionary
									 * indices, under a skip mask too */
};

/* Operators by function: what they compute (their types are the Expr's). */
typedef struct VOpInfo
{
	Oid			funcid;
	VOp			op;
	VCmp		cmp;
} VOpInfo;

/* The operator a function computes, NULL for others. */
extern const VOpInfo *pqfdw_vop_of(Oid funcid);

/* The function and arguments of an operator or cast node, else false. */
extern bool pqfdw_vexpr_call_of(Expr *expr, Oid *funcid, List **args);

/* Whether expr is one of the operators of pqfdw_vop_of(). */
extern bool pqfdw_vexpr_is_vop(Expr *expr);

/*
 * The function and arguments of a call that compiles to VOP_FUNC (the
 * arguments still to be checked), else false.
 */
extern bool pqfdw_vexpr_func_of(Expr *expr, Oid *funcid, List **args);

/*
 * Set up node e (VOP_FUNC, of expr's type, its arguments that are not
 * constants compiled into e->args) for the call (vexpr_func.c).
 */
extern void pqfdw_vexpr_func_setup(PqVExpr *e, Expr *expr, Oid funcid,
								   List *args);

/* The call's results, its arguments evaluated (vexpr_func.c). */
extern void pqfdw_vexpr_func_apply(PqVExpr *e, int n, const bool *skip);

/*
 * CASE x WHEN v THEN ... as CASE WHEN x = v THEN ... (x evaluated by each
 * WHEN for the rows that reach it: the same values and errors).
 */
extern Expr *pqfdw_vexpr_searched_case(CaseExpr *c);

/*
 * A numeric constant's unscaled value and display scale; false for NaN,
 * infinities and values whose unscaled integer passes 64 bits.
 */
extern bool pqfdw_numeric_const_unscaled(Datum d, int64 *v, int *scale);

/* Node e's operator over its children's vectors (vexpr_ops.c). */
extern void pqfdw_vexpr_apply(PqVExpr *e, int n, const bool *skip);

#endif							/* PQFDW_VEXPR_NODE_H */
