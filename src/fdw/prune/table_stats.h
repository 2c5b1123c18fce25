/*-------------------------------------------------------------------------
 *
 * table_stats.h
 *		Files of a table format's table pruned by the statistics its log
 *		keeps (table_stats.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_TABLE_STATS_H
#define PQFDW_TABLE_STATS_H

#include "fdw/dataset/dataset.h"
#include "nodes/pathnodes.h"

/*
 * At plan time, the files of ds (a table format's) whose statistics rule
 * out restrictinfos (quals of relid's Vars numbered varno, with values
 * known now) are marked in *pruned (allocated when NULL; files already
 * marked are passed over); returns how many it marked, *by_partition of
 * them by an Iceberg file's identity partition values.
 */
extern int	pqfdw_table_stats_prune(PlannerInfo *root, PqfdwDataset *ds,
									List *restrictinfos, Index varno,
									Oid relid, bool **pruned,
									int *by_partition);

/*
 * iceberg_bounds.c: whether a row of data file file (an index into snap's
 * files) may satisfy every one of preds, by its identity partition values
 * (partition), or by the counts and bounds its manifest entry keeps.
 */
struct PqPrunePred;
extern bool pqfdw_iceberg_file_may_match(struct PqPrunePred *preds, int npreds,
										 const PqfdwTableSnapshot *snap,
										 int file, Oid relid, PqfdwDataset *ds,
										 bool partition);

/*
 * Whether a row of a data file of manifest mf may satisfy every one of
 * preds, by the manifest list's summaries of its identity partitions.
 */
extern bool pqfdw_iceberg_manifest_may_match(struct PqPrunePred *preds,
											 int npreds,
											 const PqfdwTableSnapshot *snap,
											 const PqIcebergManifestFile *mf,
											 Oid relid, PqfdwDataset *ds);

#endif							/* PQFDW_TABLE_STATS_H */
