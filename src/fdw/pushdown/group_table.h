/*-------------------------------------------------------------------------
 *
 * group_table.h
 *		The groups of a grouped scan: a hash table from grouping key values
 *		to group numbers 0, 1, ... in order of first appearance.
 *
 * Keys are integers (every PQV_INT type: equal exactly when their values
 * are) and text under a deterministic collation (equal exactly when their
 * bytes are, as texteq decides); NULL is a key value of its own.  Keys
 * that are columns with dictionary indices (PqBatchCodes) are looked up by
 * those while their dictionaries are small.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_GROUP_TABLE_H
#define PQFDW_GROUP_TABLE_H

#include "fdw/pushdown/vexpr.h"

typedef struct PqGroupTable PqGroupTable;

/* A table of nkeys keys of the given types, allocated in cxt. */
extern PqGroupTable *pqfdw_group_table_create(int nkeys, const Oid *types,
											  MemoryContext cxt);

/*
 * The group of each of n rows (keys[k] holds key k), adding new groups;
 * once the table is full, -1 for rows of groups it does not hold.  Returns
 * how many rows were found by their keys' dictionary indices.
 */
extern int	pqfdw_group_table_lookup(PqGroupTable *gt, const PqVector **keys,
									 int n, int32 *gids);

/* Add no more groups (the grouped scan spills their rows). */
extern void pqfdw_group_table_set_full(PqGroupTable *gt);

/* The hash of row r's keys (the one the table uses). */
extern uint32 pqfdw_group_table_hash(PqGroupTable *gt, const PqVector **keys,
									 int r);

extern int	pqfdw_group_table_count(PqGroupTable *gt);

/* Key k of group g, allocated in the current context. */
extern Datum pqfdw_group_table_key(PqGroupTable *gt, int g, int k,
								   bool *isnull);

/* Memory the table holds. */
extern Size pqfdw_group_table_memory(PqGroupTable *gt);

#endif							/* PQFDW_GROUP_TABLE_H */
