/*-------------------------------------------------------------------------
 *
 * avro_guard.h
 *		What libavro is never handed unchecked: the writer schema's JSON
 *		before its parser, the parsed schema before values are made of it,
 *		and each record's bytes before its decoder.
 *
 * libavro 1.11 (Apache Avro C) trusts its input.  Its binary decoder
 * allocates a string's or bytes' declared length before it reads them (a
 * 10-byte record can ask for a terabyte) and leaks the buffer when the
 * read then fails; its array and map readers loop over a declared count
 * (items of a type that takes no bytes: forever); its schema parser leaks
 * a named type defined twice and accepts recursive and exponentially
 * nesting schemas; its container reader (avro_file_reader_fp, not used
 * here) allocates a block's declared size unchecked, negative included.
 * So the checks here decide, with the schema libavro itself parsed, that
 * the bytes are a well-formed value of it whose every length and count is
 * within the bytes; libavro then decodes only such bytes.
 *
 * Refusals give false and *why, a sentence part that quotes none of the
 * input.  Memory: palloc (the compiled schema), nothing of libavro's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_AVRO_GUARD_H
#define PQ_AVRO_GUARD_H

#include <avro.h>

#include "table/common/json_tree.h"

/* Nesting of a schema's types, the top record counting 1. */
#define PQ_AVRO_MAX_DEPTH 32

/* Types of a schema with every named type's uses expanded. */
#define PQ_AVRO_MAX_NODES 65536

/* The largest fixed type (an Iceberg fixed(L) or decimal: a few bytes). */
#define PQ_AVRO_MAX_FIXED (1024 * 1024)

/*
 * Values (schema nodes met, array items and map entries included) one
 * record may hold: libavro allocates per value, so this bounds its memory
 * per record to a few tens of MB.
 */
#define PQ_AVRO_MAX_RECORD_VALUES (1024 * 1024)

/* A schema compiled for checking records (opaque). */
typedef struct PqAvroNode PqAvroNode;

/*
 * The schema's JSON (the file's avro.schema, parsed) as libavro's parser
 * may be given it: every named type (record, enum, fixed) of a name no
 * other one has (compared by the name's last part, so stricter than Avro's
 * full names), every record field an object with a string "name" and a
 * "type", no union directly inside a union.  What the parser itself
 * refuses cleanly (unknown types, bad names) is left to it.
 */
extern bool pq_avro_guard_json(const PqJv *schema, const char **why);

/*
 * The schema libavro parsed, compiled for pq_avro_guard_record() (palloc),
 * or NULL when it is one libavro must not make values of: nested deeper
 * than PQ_AVRO_MAX_DEPTH (a recursive schema always is), more than
 * PQ_AVRO_MAX_NODES types once expanded, a fixed type over
 * PQ_AVRO_MAX_FIXED bytes or negative, an enum or union without members,
 * an array whose items can take no bytes.
 */
extern PqAvroNode *pq_avro_guard_compile(avro_schema_t schema,
										 const char **why);

/* The fewest bytes a value of the compiled schema takes. */
extern int64 pq_avro_guard_min_size(const PqAvroNode *node);

/*
 * Whether the len bytes at p begin with one value of the compiled schema
 * that libavro's decoder reads within them: varints of at most 10 bytes,
 * ints in range, booleans 0 or 1, lengths and counts neither negative nor
 * past the bytes (an array or map block's byte size, where given, equal
 * to its items'), union branches and enum symbols that exist, at most
 * PQ_AVRO_MAX_RECORD_VALUES values.  *used is then the value's length and
 * *values is increased by the values counted.
 */
extern bool pq_avro_guard_record(const PqAvroNode *root, const uint8 *p,
								 size_t len, size_t *used, int64 *values,
								 const char **why);

/*
 * An Avro long (zigzag varint of at most 10 bytes) at *p, before end:
 * false when the bytes end first or the varint is longer.  *p is advanced.
 */
extern bool pq_avro_read_long(const uint8 **p, const uint8 *end, int64 *out);

#endif							/* PQ_AVRO_GUARD_H */
