/*-------------------------------------------------------------------------
 *
 * import.h
 *		IMPORT FOREIGN SCHEMA callback of parquet_fdw (import.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_IMPORT_H
#define PQFDW_IMPORT_H

#include "fdw/common/source.h"
#include "foreign/fdwapi.h"

extern List *pqfdw_ImportForeignSchema(ImportForeignSchemaStmt *stmt,
									   Oid serverOid);

/*
 * How the files of filename are read: an ERROR unless the role may read
 * its local paths; its URLs with the role's user mapping on server.
 */
extern void pqfdw_filename_access(const char *filename, const char *server,
								  PqfdwAccess *access);

/*
 * The CREATE FOREIGN TABLE statement of table (NULL: named after the first
 * file; in schema, or unqualified when NULL) reading the Parquet files of
 * filename through server: the first file's fields with their natural
 * types, the files' hive partition keys after them, options (", name
 * 'value'" each, or "") after filename.  An ERROR when there is no file.
 */
extern char *pqfdw_parquet_table_sql(const char *filename, const char *table,
									 const char *schema, const char *server,
									 const PqfdwAccess *access,
									 const char *options);

#endif							/* PQFDW_IMPORT_H */
