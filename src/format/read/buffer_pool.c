/*-------------------------------------------------------------------------
 *
 * buffer_pool.c
 *		The pool readers take large buffers from (buffer_pool.h); the
 *		extension sets it, the format layer's own tools leave it NULL.
 *
 *-------------------------------------------------------------------------
 */
#include "format/read/buffer_pool.h"

const PqBufferPool *pq_buffer_pool = NULL;
