/*-------------------------------------------------------------------------
 *
 * io_common.h
 *		What the transport layer needs from the layer above it without
 *		including it: the interrupt check that waits call.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_COMMON_H
#define PQ_IO_COMMON_H

/*
 * Called at least every PQ_IO_POLL_MS while a request is in flight or a
 * retry waits; may raise an ERROR (the fdw layer sets it to
 * CHECK_FOR_INTERRUPTS, so cancel and statement_timeout stop a wait).
 * NULL: no check.
 */
extern void (*pq_io_check_interrupts) (void);

#define PQ_IO_POLL_MS 100

#endif							/* PQ_IO_COMMON_H */
