/*-------------------------------------------------------------------------
 *
 * file_set.c
 *		The files a scan reads: those its plan was made for, unless the
 *		table's directories and globs name other files now.
 *
 * A plan may run long after it was made (a prepared statement's generic
 * plan, a PL/pgSQL statement's cached plan), and files come and go in a
 * dataset meanwhile.  A plan never reads a stale file list: the executor
 * compares a hash of the files named now with the hash of the files the
 * plan was made for.  When they differ, the scan reads the files named
 * now and prunes them by partition at run time (the file clauses are
 * evaluated there anyway), as a fresh plan would have.  A plan made in the
 * same statement is not listed again (pqfdw_expanded_in_statement()), so
 * an ad hoc query pays for one listing.  A hive dataset's plan listed only
 * the partitions its quals leave; the executor lists with the plan's file
 * clauses (dir_filter.c), which leave the same partitions (Params are
 * unknown to both), so an unchanged tree compares equal.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/file_list.h"
#include "fdw/common/table_options.h"
#include "fdw/dataset/dataset.h"
#include "fdw/scan/scan.h"
#include "nodes/value.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

List *
pqfdw_scan_files(Relation rel, Oid userid, List *planned_hash,
				 List *file_clauses, Index varno, uint64 *hash)
{
	Oid			relid = RelationGetRelid(rel);
	PqfdwTableOptions opts;
	uint64		want = pqfdw_plan_hash_value(planned_hash);
	List	   *paths = NIL;

	*hash = want;
	pqfdw_get_table_options_as(relid, userid, &opts);
	if (pqfdw_expanded_in_statement(opts.filename, want))
		return NIL;
	if (opts.format != PQFDW_FORMAT_PARQUET)
	{
		(void) pqfdw_table_files(&opts, NULL);
		paths = opts.paths;
		*hash = opts.paths_hash;
	}
	else if (opts.hive != PQFDW_HIVE_OFF && file_clauses != NIL)
	{
		PqfdwDirFilter df;

		pqfdw_dir_filter_init(&df, NULL, relid, RelationGetDescr(rel), &opts,
							  file_clauses, varno);
		paths = pqfdw_list_table_files(&opts, &df.filter, hash);
		pqfdw_dir_filter_end(&df);
	}
	if (paths == NIL && opts.format == PQFDW_FORMAT_PARQUET)
		paths = pqfdw_list_table_files(&opts, NULL, hash);
	if (*hash == want)
		return NIL;
	/* a files function may answer no file (*hash tells the change) */
	if (paths == NIL && opts.files_func == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("no Parquet files match \"%s\"", opts.filename),
				 errdetail("Files of foreign table \"%s\" were removed after its plan was made.",
						   get_rel_name(relid)),
				 errhint("A directory must contain files named *.parquet; a pattern must match at least one file.")));
	return paths;
}

List *
pqfdw_plan_hash(uint64 hash)
{
	return list_make2(makeInteger((int) (uint32) (hash >> 32)),
					  makeInteger((int) (uint32) hash));
}

uint64
pqfdw_plan_hash_value(List *pair)
{
	return ((uint64) (uint32) intVal(linitial(pair)) << 32) |
		(uint64) (uint32) intVal(lsecond(pair));
}
