/*-------------------------------------------------------------------------
 *
 * dataset.h
 *		A foreign table over many files as one dataset: hive partition
 *		columns taken from the paths, virtual columns (the file's path, the
 *		row's number in it), columns matched by name across files whose
 *		schemas differ (union_by_name), and pruning of whole files by quals
 *		on the columns that are constant per file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_DATASET_H
#define PQFDW_DATASET_H

#include "access/tupdesc.h"
#include "fdw/common/table_options.h"
#include "fmgr.h"

struct PlannerInfo;
struct PlanState;

/* Where an attribute's values come from. */
typedef enum PqfdwColumnKind
{
	PQFDW_COLUMN_FIELD,			/* a Parquet field of the file */
	PQFDW_COLUMN_PARTITION,		/* a hive partition key of the path */
	PQFDW_COLUMN_FILENAME,		/* the file's path (filename_column) */
	PQFDW_COLUMN_ROW_NUMBER		/* the row's ordinal in its file, from 0
								 * (file_row_number_column) */
} PqfdwColumnKind;

typedef struct PqfdwDataset
{
	Oid			relid;
	MemoryContext cxt;
	int			nfiles;
	char	  **paths;
	bool		union_by_name;

	/* hive partitioning: keys of every path, values [file * nkeys + key] */
	int			nkeys;			/* 0: partitioning is off */
	char	  **keys;
	char	  **raw;			/* decoded; NULL for the default partition */

	int			natts;
	PqfdwColumnKind *kind;		/* by attnum - 1 */
	int		   *key_of;			/* PARTITION: index into keys */
	bool		has_virtual;	/* some attribute is not a field */

	/*
	 * A table format's deleted rows (deletion vectors): per file, NULL for
	 * none; read on first use (pqfdw_dataset_deleted_rows).
	 */
	char	   *location;
	const PqfdwRemoteId *remote;	/* how location is reached (NULL: a
									 * directory) */
	PqfdwTableVersion at;		/* the snapshot's, for its statistics */
	PqfdwTableRef ref;			/* the table: format, location, at, ... */
	PqfdwAccess access;			/* how its delete files are reached */
	int64		version;		/* the version read */
	int32		schema_id;		/* Iceberg: the schema read with, -1 */
	PqDeltaDv **dv;
	bool	   *ice_deletes;	/* Iceberg: files with deletes */
	PqDeletedRows **deleted;

	/*
	 * Delta column mapping of nested fields: the table's schemaString, and it
	 * parsed (on first use) to rename the fields of each file read.
	 */
	char	   *schema_string;
	PqDeltaMapping mapping;
	PqDeltaSchema *logical;
	/* Iceberg variant columns: their ids and names (files may not annotate) */
	int			nvariant;
	int32	   *variant_ids;
	char	  **variant_names;

	/* typed values of partition columns: input functions, last value */
	FmgrInfo   *in_func;		/* by attnum - 1 */
	Oid		   *in_ioparam;
	int32	   *in_typmod;
	Oid		   *att_type;		/* by attnum - 1 */
	int32	   *att_typmod;
	int		   *memo_file;		/* file of memo_value, -1: none */
	Datum	   *memo_value;
	bool	   *memo_null;
} PqfdwDataset;

/* hive.c: the key=value directories of a path, in order */
typedef struct PqfdwHivePath
{
	int			nkeys;
	char	  **keys;
	char	  **values;			/* decoded; NULL: __HIVE_DEFAULT_PARTITION__ */
} PqfdwHivePath;

extern void pqfdw_hive_parse(const char *path, PqfdwHivePath *hp);

/*
 * The partition keys of paths under mode (NIL when partitioning is off):
 * auto means on when every path has the same keys, in the same order;
 * true requires that.  parsed (optional) gets every path's keys and values
 * when partitioning is on (read-only: the files of one directory share
 * their arrays).
 */
extern List *pqfdw_hive_keys(List *paths, PqfdwHiveMode mode,
							 PqfdwHivePath **parsed);

/*
 * hive_types.c: the type to declare partition key key (an index into
 * every parsed path's keys) with: bigint, date, timestamp or text.
 */
extern Oid	pqfdw_hive_key_type(const PqfdwHivePath *parsed, int nfiles,
								int key);

/*
 * dataset.c: the dataset of relid's files paths, with its columns' kinds;
 * hive as the option says (the executor passes on the planner's decision,
 * for it may see only the files that survived pruning).
 */
extern PqfdwDataset *pqfdw_dataset_create(Oid relid, TupleDesc tupdesc,
										  List *paths,
										  const PqfdwTableOptions *opts,
										  PqfdwHiveMode hive,
										  MemoryContext cxt);

/* An attribute constant within a file: a partition or the file name. */
static inline bool
pqfdw_dataset_file_constant(const PqfdwDataset *ds, AttrNumber attnum)
{
	return ds != NULL && attnum >= 1 && attnum <= ds->natts &&
		(ds->kind[attnum - 1] == PQFDW_COLUMN_PARTITION ||
		 ds->kind[attnum - 1] == PQFDW_COLUMN_FILENAME);
}

static inline bool
pqfdw_dataset_is_virtual(const PqfdwDataset *ds, AttrNumber attnum)
{
	return ds != NULL && attnum >= 1 && attnum <= ds->natts &&
		ds->kind[attnum - 1] != PQFDW_COLUMN_FIELD;
}

/*
 * The value of file-constant attribute attnum in file (an index into
 * paths), allocated in ds->cxt; returns whether it is NULL.
 */
extern bool pqfdw_dataset_file_value(PqfdwDataset *ds, int file,
									 AttrNumber attnum, Datum *value);

/*
 * The rows of file that the table format deleted, ascending; NULL when
 * none.  Allocated in ds->cxt.
 */
extern const PqDeletedRows *pqfdw_dataset_deleted_rows(PqfdwDataset *ds,
													   int file);

/*
 * The schema to read file's fields by: schema itself, or (Delta column
 * mapping of nested fields) a copy in the current context whose nested
 * fields have the table's names.
 */
extern PqSchema *pqfdw_dataset_file_schema(PqfdwDataset *ds, PqSchema *schema);

/*
 * ERROR when file is not as long as its Iceberg manifest says: the file
 * was replaced, and its rows and positions are not the table's.
 */
extern void pqfdw_dataset_check_size(PqfdwDataset *ds, int file, int64 size);

/* Whether some file of ds has deleted rows (footers overcount them). */
static inline bool
pqfdw_dataset_has_deletes(const PqfdwDataset *ds)
{
	return ds != NULL && (ds->dv != NULL || ds->ice_deletes != NULL);
}

/*
 * The value of field attnum in file when the file lacks the field: NULL
 * but for an Iceberg column's initial-default or identity partition value
 * (*value in ds->cxt); returns whether it is NULL.
 */
extern bool pqfdw_dataset_missing_value(PqfdwDataset *ds, int file,
										AttrNumber attnum, Datum *value);

/* iceberg_deletes.c: the rows of file its Iceberg table deleted; NULL. */
extern PqDeletedRows *pqfdw_iceberg_deleted_rows(PqfdwDataset *ds, int file);

/* Whether some Var of relid in node is a virtual column of ds. */
extern bool pqfdw_dataset_uses_virtual(const PqfdwDataset *ds, Node *node,
									   Index relid);

/* restrictinfos without those on virtual columns (pruning cannot use them) */
extern List *pqfdw_dataset_field_clauses(const PqfdwDataset *ds,
										 List *restrictinfos, Index relid);

/*
 * file_prune.c: the clauses of restrictinfos that only file-constant
 * columns decide (no volatile functions): they prune whole files.
 */
extern List *pqfdw_file_clauses(const PqfdwDataset *ds, List *restrictinfos,
								Index relid);

/* ... of a list of expressions (a plan's file clauses) */
extern List *pqfdw_file_exprs(const PqfdwDataset *ds, List *exprs,
							  Index relid);

/*
 * At plan time: which files the clauses rule out with the values known
 * now (NULL when there are no clauses); *npruned counts them, *all_true
 * says whether the clauses hold for every other file.
 */
extern bool *pqfdw_files_pruned_at_plan(struct PlannerInfo *root,
										PqfdwDataset *ds, List *clauses,
										Index relid, int *npruned,
										bool *all_true);

/* At execution: the clauses over a scan tuple of the file's constants. */
typedef struct PqfdwFilePruner PqfdwFilePruner;

extern PqfdwFilePruner *pqfdw_file_pruner_create(PqfdwDataset *ds,
												 List *clauses,
												 TupleDesc tupdesc,
												 struct PlanState *parent);

/* Whether file may hold rows passing the clauses, for the current Params. */
extern bool pqfdw_file_pruner_check(PqfdwFilePruner *fp, int file);

/* Params changed (rescan): decide again. */
extern void pqfdw_file_pruner_reset(PqfdwFilePruner *fp);

/* Files ruled out so far, over all (re)scans. */
extern int64 pqfdw_file_pruner_pruned(PqfdwFilePruner *fp);

/*
 * dir_filter.c: a filter for walks and listings (file_list.h) ruling out
 * the key=value directories below which clauses (expressions over relid's
 * Vars numbered varno) would prune every file, evaluated as
 * pqfdw_files_pruned_at_plan() does (root: NULL in the executor); skipped
 * counts them.  Allocates in a context of its own until
 * pqfdw_dir_filter_end().
 */
typedef struct PqfdwDirFilter
{
	PqfdwPrefixFilter filter;	/* may_match and arg: pass &df->filter */
	struct PlannerInfo *root;
	Oid			relid;
	TupleDesc	tupdesc;
	PqfdwTableOptions opts;
	List	   *clauses;
	Index		varno;
	int			skipped;
	MemoryContext cxt;			/* reset after each directory */
} PqfdwDirFilter;

extern void pqfdw_dir_filter_init(PqfdwDirFilter *df,
								  struct PlannerInfo *root, Oid relid,
								  TupleDesc tupdesc,
								  const PqfdwTableOptions *opts,
								  List *clauses, Index varno);
extern void pqfdw_dir_filter_end(PqfdwDirFilter *df);

#endif							/* PQFDW_DATASET_H */
