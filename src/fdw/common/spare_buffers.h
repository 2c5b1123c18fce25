/*-------------------------------------------------------------------------
 *
 * spare_buffers.h
 *		Spare chunk and page buffers of column readers, kept for the next
 *		reader (spare_buffers.c): the PostgreSQL side of pq_buffer_pool.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_SPARE_BUFFERS_H
#define PQFDW_SPARE_BUFFERS_H

#include "format/read/buffer_pool.h"

/* the pool column readers take spare buffers from (pq_buffer_pool) */
extern const PqBufferPool pqfdw_buffer_pool;

#endif							/* PQFDW_SPARE_BUFFERS_H */
