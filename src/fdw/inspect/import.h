/*-------------------------------------------------------------------------
 *
 * import.h
 *		IMPORT FOREIGN SCHEMA callback of parquet_fdw (import.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_IMPORT_H
#define PQFDW_IMPORT_H

#include "foreign/fdwapi.h"

extern List *pqfdw_ImportForeignSchema(ImportForeignSchemaStmt *stmt,
									   Oid serverOid);

#endif							/* PQFDW_IMPORT_H */
