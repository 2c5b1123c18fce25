/*-------------------------------------------------------------------------
 *
 * io_common.c
 *		The transport layer's hooks into the layer above it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/common/io_common.h"

void		(*pq_io_check_interrupts) (void) = NULL;
