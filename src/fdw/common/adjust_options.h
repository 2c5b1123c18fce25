/*-------------------------------------------------------------------------
 *
 * adjust_options.h
 *		The foreign-table options and settings of adjust/parquet_fdw
 *		(adjust_options.c): files_func, and those accepted without effect.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_ADJUST_OPTIONS_H
#define PQFDW_ADJUST_OPTIONS_H

#include "nodes/parsenodes.h"
#include "nodes/pg_list.h"

/*
 * Validate def if it is one of adjust's options files_func_arg,
 * files_in_order, use_mmap, use_threads or max_open_files (true), else
 * false.  files_func is validated by pqfdw_files_func_lookup().
 */
extern bool pqfdw_adjust_check_option(DefElem *def);

/*
 * The function a files_func option names: one jsonb argument, text[]
 * returned (an ERROR otherwise); its owner in *owner.  The check alone of a
 * function (named name in messages) returns its owner.
 */
extern Oid	pqfdw_files_func_lookup(const char *name, Oid *owner);
extern Oid	pqfdw_files_func_check(Oid funcid, const char *name);

/*
 * The items the function returns for arg (jsonb text, or NULL), called as
 * the current role: absolute paths, directories, globs or URLs, each
 * checked as an item of filename.  NIL for a NULL or an empty array.
 */
extern List *pqfdw_files_func_call(Oid funcid, const char *arg);

/* adjust's GUCs, accepted without effect */
extern void pqfdw_adjust_define_gucs(void);

#endif							/* PQFDW_ADJUST_OPTIONS_H */
