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
 * an ad hoc query pays for one listing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/file_list.h"
#include "fdw/common/table_options.h"
#include "fdw/scan/scan.h"
#include "nodes/value.h"
#include "utils/lsyscache.h"

List *
pqfdw_scan_files(Oid relid, Oid userid, List *planned_hash, uint64 *hash)
{
	PqfdwTableOptions opts;
	uint64		want = pqfdw_plan_hash_value(planned_hash);
	List	   *paths;

	*hash = want;
	pqfdw_get_table_options_as(relid, userid, &opts);
	if (pqfdw_expanded_in_statement(opts.filename, want))
		return NIL;
	paths = pqfdw_expand_paths_hashed(opts.filename, &opts.access.remote, NULL,
									  hash);
	if (*hash == want)
		return NIL;
	if (paths == NIL)
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
