/*-------------------------------------------------------------------------
 *
 * io_common.h
 *		What the transport layer needs from the layer above it without
 *		including it (the interrupt check that waits call), and its one
 *		PostgreSQL version difference.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_COMMON_H
#define PQ_IO_COMMON_H

/*
 * PostgreSQL 18 replaced the postfix pg_attribute_noreturn() by the prefix
 * pg_noreturn (c.h); GCC and Clang accept the attribute in either place.
 * The format layer has the same lines: the transport includes neither it
 * nor fdw's pg_compat.h.
 */
#if PG_VERSION_NUM >= 180000 && !defined(pg_attribute_noreturn)
#define pg_attribute_noreturn() __attribute__((noreturn))
#endif

/*
 * Called at least every PQ_IO_POLL_MS while a request is in flight or a
 * retry waits; may raise an ERROR (the fdw layer sets it to
 * CHECK_FOR_INTERRUPTS, so cancel and statement_timeout stop a wait).
 * NULL: no check.
 */
extern void (*pq_io_check_interrupts) (void);

#define PQ_IO_POLL_MS 100

#endif							/* PQ_IO_COMMON_H */
