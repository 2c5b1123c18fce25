/*-------------------------------------------------------------------------
 *
 * row_former.h
 *		Whole-row values (t.*) of a batch of rows as composite Datums.
 *
 * The planner asks the scan for a whole-row reference of the foreign table
 * through fdw_scan_tlist (fdw/plan/planner.c); the scan then forms those composites
 * itself from the batch's Datums, a chunk of rows at a time, instead of
 * leaving ExecEvalWholeRowVar to deform and form each row generically.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_ROW_FORMER_H
#define PQFDW_ROW_FORMER_H

#include "access/tupdesc.h"

/* Rows formed per call: small enough that a chunk stays in cache. */
#define PQFDW_FORM_CHUNK 256

typedef struct PqRowFormer PqRowFormer;

/*
 * A former of composites of rowtype desc (a relation's descriptor, whose
 * tdtypeid and tdtypmod the composites carry), allocated in cxt.
 */
extern PqRowFormer *pqfdw_row_former_create(TupleDesc desc,
											const char *relname,
											MemoryContext cxt);

/*
 * Form n (1 to PQFDW_FORM_CHUNK) rows into out[0..n): row k is batch row
 * rows[k] (ascending), or first + k when rows is NULL, of the column-major
 * batch values/nulls (batch_rows Datums per attribute).  The composites
 * stay valid until the next call: they live in the former's buffer (rows
 * with TOAST pointers: in the current memory context).  Their bytes are
 * those heap_form_tuple() gives.
 */
extern void pqfdw_form_rows(PqRowFormer *rf, const Datum *values,
							const bool *nulls, int batch_rows, const int *rows,
							int first, int n, Datum *out);

/* GUC parquet_fdw.enable_whole_row_forming */
extern bool pqfdw_enable_whole_row_forming;

#endif							/* PQFDW_ROW_FORMER_H */
