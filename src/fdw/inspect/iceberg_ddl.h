/*-------------------------------------------------------------------------
 *
 * iceberg_ddl.h
 *		CREATE FOREIGN TABLE statements of Apache Iceberg tables, and the
 *		type each Iceberg type is read as (iceberg_ddl.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_ICEBERG_DDL_H
#define PQFDW_ICEBERG_DDL_H

#include "fdw/remote/remote.h"
#include "table/iceberg/metadata.h"

/* The PostgreSQL type (SQL text) a column of field f's type reads as. */
extern const char *pqfdw_iceberg_column_type(const PqIcebergField *f);

/*
 * Whether location (a directory, or a prefix as remote reaches it) is an
 * Iceberg table: a metadata.json file, or a metadata/ holding one.
 */
extern bool pqfdw_is_iceberg_table(const char *location,
								   const PqfdwRemoteId *remote);

/* The Iceberg tables directly below local directory dir, sorted. */
extern List *pqfdw_iceberg_tables_below(const char *dir);

/* The CREATE FOREIGN TABLE statement of the table at location. */
extern char *pqfdw_iceberg_create_table(const char *table_name,
										const char *server_name,
										const char *location,
										const PqfdwRemoteId *remote);

#endif							/* PQFDW_ICEBERG_DDL_H */
