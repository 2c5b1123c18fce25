/*-------------------------------------------------------------------------
 *
 * checkpoint.h
 *		A Delta Lake checkpoint (a Parquet file of _delta_log: classic,
 *		multi-part, v2, or a v2 checkpoint's sidecar) as the JSON action
 *		lines the log replay reads (delta_log.h, pq_delta_replay_add).
 *
 * Each row of a checkpoint holds one action in one of its top-level struct
 * columns (add, remove, metaData, protocol, txn, domainMetadata,
 * checkpointMetadata, sidecar), the others null.  A line is written for
 * every non-null action of add, remove, metaData, protocol, sidecar and
 * checkpointMetadata, in row order (within a row, in that order); txn and
 * domainMetadata are not read.  The line is the action as a commit file
 * writes it:
 *
 *	{"add":{"path":"a.parquet","partitionValues":{"p":"1"},"size":10,...}}
 *
 * structs as objects keyed by the file's field names (null fields left
 * out), maps (partitionValues, configuration, tags, format.options) as
 * objects (null values as null; a key given twice: its last entry), lists
 * (partitionColumns, readerFeatures) as arrays, strings, integers (exact)
 * and booleans as JSON values.  Text in binary columns without a string
 * annotation (writers that leave it out) is written as a string: base64
 * when it is not UTF-8.  The typed copies stats_parsed and
 * partitionValues_parsed are not read at all (their columns are never
 * loaded: they are as wide as the table), nor is any column that is not
 * part of an action written.
 *
 * PostgreSQL-free, like the rest of src/table: the caller reads the file
 * (local or in a bucket) and hands its bytes over.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_DELTA_CHECKPOINT_H
#define PQ_DELTA_CHECKPOINT_H

#include "format/common/pq_common.h"

/*
 * The actions of the checkpoint file data (whole, len bytes) as JSON lines
 * appended to out (initialized by pq_buffer_init; each line ends with
 * '\n'; nothing else is written), ready for
 * pq_delta_replay_add(r, version, (const char *) out->data, out->len, ...).
 *
 * False with *why (a sentence part that quotes none of the file) when the
 * file is valid Parquet but not a checkpoint this reader can give as lines:
 * none of the columns add, remove, metaData, protocol and sidecar, one of
 * them given twice or not a struct, a map with a null key, a string
 * holding a NUL character (JSON lines cannot hold one), structs nested
 * deeper than PQ_DELTA_CHECKPOINT_MAX_DEPTH, or JSON more than
 * PQ_DELTA_CHECKPOINT_MAX_EXPANSION times the file's size (a file that
 * decodes to more than any checkpoint writes is refused before it fills
 * memory).  out->len is then as it was.
 *
 * Parquet that cannot be read raises the format layer's ERRORs (pq_corrupt:
 * ERRCODE_DATA_CORRUPTED; pq_unsupported for an encrypted file or an
 * unknown codec), naming the file of the innermost PqErrorLocation the
 * caller pushed (pq_errloc_push), if any.  Memory: a child context of the
 * current one, deleted before returning; the file is read row group by row
 * group, 256 rows at a time.
 */
extern bool pq_delta_checkpoint_json(const uint8 *data, size_t len,
									 PqBuffer *out, const char **why);

/* Nesting of JSON containers in a line, the line's object counting 1. */
#define PQ_DELTA_CHECKPOINT_MAX_DEPTH 64

/* Output per byte of input refused (with a floor of 64 MB of output). */
#define PQ_DELTA_CHECKPOINT_MAX_EXPANSION 1000

#endif							/* PQ_DELTA_CHECKPOINT_H */
