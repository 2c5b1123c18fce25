/*-------------------------------------------------------------------------
 *
 * blob_list.h
 *		One page of a List Blobs answer (Azure's EnumerationResults) as a
 *		listing page.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_BLOB_LIST_H
#define PQ_IO_BLOB_LIST_H

#include "io/common/listing.h"

/*
 * Parse an EnumerationResults body; false with *why set when malformed (as
 * pq_s3_parse_list).  Etags are given quoted, as the ETag header has them.
 */
extern bool pq_blob_parse_list(const char *body, size_t len, PqListPage *out,
							   const char **why);

#endif							/* PQ_IO_BLOB_LIST_H */
