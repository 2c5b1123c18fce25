/*-------------------------------------------------------------------------
 *
 * delta_ddl.h
 *		CREATE FOREIGN TABLE statements of Delta Lake tables, and the
 *		type each Delta type is read as (delta_ddl.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_DELTA_DDL_H
#define PQFDW_DELTA_DDL_H

#include "fdw/remote/remote.h"
#include "table/common/json_tree.h"

/*
 * The PostgreSQL type of a table format's primitive type t: map's second
 * column where its first is t, numeric(p,s) for "decimal(p,s)"; NULL.
 */
extern const char *pqfdw_ddl_type(const char *const(*map)[2], int n,
								  const char *t);

/* The PostgreSQL type (SQL text) a column of Delta type type reads as. */
extern const char *pqfdw_delta_column_type(const PqJv *type);

/*
 * Whether location (a directory, or a URL reached as remote says) holds a
 * Delta table: a _delta_log.
 */
extern bool pqfdw_is_delta_table(const char *location,
								 const PqfdwRemoteId *remote);

/*
 * The Delta tables directly below dir (a directory, or a URL prefix
 * reached as remote says), as locations, sorted.
 */
extern List *pqfdw_delta_tables_below(const char *dir,
									  const PqfdwRemoteId *remote);

/* The statement of a foreign table named table_name over location's table. */
extern char *pqfdw_delta_create_table(const char *table_name,
									  const char *server_name,
									  const char *location,
									  const PqfdwRemoteId *remote);

#endif							/* PQFDW_DELTA_DDL_H */
