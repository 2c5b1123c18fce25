/*-------------------------------------------------------------------------
 *
 * copy_from.h
 *		COPY table [(cols)] FROM 'file' | STDIN WITH (FORMAT parquet).
 *
 *		from.c			permissions, the reader, PostgreSQL's CopyFrom
 *		stdin.c		the client's file into a temporary file
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_COPY_FROM_H
#define PQFDW_COPY_FROM_H

#include "nodes/parsenodes.h"
#include "storage/fd.h"

/* Load the file into the table; returns the number of rows inserted. */
extern uint64 pqfdw_copy_from_parquet(CopyStmt *stmt, const char *queryString);

/*
 * Start COPY-in (binary) and store everything the client sends until
 * CopyDone in a temporary file, deleted when closed or at the end of the
 * transaction.  Reports the bytes received to pg_stat_progress_copy.
 */
extern File pqfdw_copy_receive_stdin(void);

#endif							/* PQFDW_COPY_FROM_H */
