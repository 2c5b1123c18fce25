/*-------------------------------------------------------------------------
 *
 * explain.h
 *		The EXPLAIN lines every plan shows: its files (explain.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_EXPLAIN_H
#define PQFDW_EXPLAIN_H

#include "nodes/pg_list.h"

struct ExplainState;

/* "Parquet File(s): paths" (char * List) */
extern void pqfdw_explain_files(List *paths, struct ExplainState *es);

/*
 * "Files: N of M (pruned by partition: K[, by table statistics: S])": for
 * hive-partitioned tables, where pruning happened, or where the list of
 * files is cut short
 */
extern void pqfdw_explain_file_counts(int planned, int total, int pruned,
									  int pruned_stats, bool hive,
									  struct ExplainState *es);

#endif							/* PQFDW_EXPLAIN_H */
