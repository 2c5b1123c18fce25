/*-------------------------------------------------------------------------
 *
 * s3_list.h
 *		One page of a ListObjectsV2 answer (io/common/listing.h's page).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_S3_LIST_H
#define PQ_IO_S3_LIST_H

#include "io/common/listing.h"

/*
 * Parse a ListBucketResult body; false with *why set when it is malformed
 * (a key that is empty, too long or holds a control character, a size
 * that is not a count, an entry without key or size, a truncated page
 * without a continuation token, more entries than a page holds).
 */
extern bool pq_s3_parse_list(const char *body, size_t len,
							 PqListPage *out, const char **why);

#endif							/* PQ_IO_S3_LIST_H */
