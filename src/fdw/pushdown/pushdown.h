/*-------------------------------------------------------------------------
 *
 * pushdown.h
 *		Work pushed into the scan: the executor methods of the plan kinds
 *		fdw/plan/upper.c makes (aggregates the footers answer, grouped
 *		scans, top-N scans) and of vector scans (fdw/plan/planner.c), and
 *		what their fdw_private holds.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_PUSHDOWN_H
#define PQFDW_PUSHDOWN_H

#include "fdw/scan/scan.h"

/*
 * footer_answers.c: one row of count(*), count(column), min and max from
 * the footers.  fdw_private holds the kind (PQFDW_PLAN_FOOTER), the paths
 * (List of String), the relation's OID, per scan tuple column its
 * PqfdwFooterKind and attnum (IntLists), and the file set: the hash of the
 * files planned, the relation's range table index and the file clauses.
 */
typedef enum PqfdwFooterKind
{
	PQFDW_FOOTER_COUNT = 1,		/* count(*) */
	PQFDW_FOOTER_MIN,
	PQFDW_FOOTER_MAX,
	PQFDW_FOOTER_COUNT_COLUMN	/* count(column) */
} PqfdwFooterKind;

enum PqfdwFooterPrivateIndex
{
	PQFDW_FOOTER_PRIVATE_KIND = PQFDW_PRIVATE_KIND,
	PQFDW_FOOTER_PRIVATE_PATHS,
	PQFDW_FOOTER_PRIVATE_RELID,
	PQFDW_FOOTER_PRIVATE_KINDS,
	PQFDW_FOOTER_PRIVATE_ATTNUMS,
	PQFDW_FOOTER_PRIVATE_FILE_SET
};

extern const PqExecMethods pqfdw_footer_methods;

/*
 * grouped_scan.c: GROUP BY and aggregates on the table's batches; no
 * relation scanned, fdw_private a scan's with the kind PQFDW_PLAN_GROUPED
 * and, as PQFDW_PRIVATE_EXTRA, the number of grouping keys.  Parallel
 * grouped scans share the scan's row-group cursor, each process
 * aggregating the row groups it claims.
 */
extern const PqExecMethods pqfdw_grouped_methods;

/*
 * top_n_scan.c: the first LIMIT rows (after OFFSET) in ORDER BY order, kept
 * in a bounded heap as the batches go by; fdw_private a scan's with the
 * kind PQFDW_PLAN_TOP_N and, as PQFDW_PRIVATE_EXTRA, (count, offset, sort
 * keys).  A parallel top-N scan returns each process's best rows, sorted,
 * for Gather Merge.
 */
extern const PqExecMethods pqfdw_top_n_methods;

/*
 * vector_scan.c: a scan with the kind PQFDW_PLAN_VECTOR_SCAN, whose quals
 * beyond the batch filter (PQFDW_PRIVATE_EXTRA, a List of Expr) and whose
 * scan target list's expressions run as vector expressions on its
 * batches.
 */
extern const PqExecMethods pqfdw_vector_scan_methods;

#endif							/* PQFDW_PUSHDOWN_H */
