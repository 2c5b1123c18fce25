/*-------------------------------------------------------------------------
 *
 * avro_file.h
 *		Avro object container files held in memory (Iceberg's manifest
 *		lists and manifests): header and metadata, records as libavro
 *		generic values read with the file's own (writer) schema, and
 *		typed accessors of a record's fields by name.
 *
 * The container (magic, metadata map, sync marker, blocks, codecs null,
 * deflate, snappy and zstandard) is read here, not by libavro's
 * avro_file_reader, which trusts block sizes and does not give the
 * metadata.  libavro parses the schema and decodes each record into a
 * generic value, from bytes avro_guard.c has checked first (avro_guard.h
 * says why).  Readers pick fields by name, so a writer's extra fields,
 * field order and int-for-long are all read; no reader schema is resolved.
 *
 * Refusals give false and *why, a sentence part that quotes none of the
 * file.  Memory: palloc in the current context for what is returned;
 * libavro's own (malloc) exists only during pq_avro_read() and is freed
 * on every path, an ERROR raised by the record callback included.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_AVRO_FILE_H
#define PQ_AVRO_FILE_H

#include <avro.h>

#include "table/common/json_tree.h"
#include "table/iceberg/avro_codec.h"

/* Metadata entries a file may have (Iceberg writes about ten). */
#define PQ_AVRO_MAX_META 1024

/* Bytes one block may decompress to. */
#define PQ_AVRO_MAX_BLOCK ((size_t) 64 * 1024 * 1024)

/*
 * Bytes all blocks may decompress to: this many times the file's size,
 * and PQ_AVRO_DECODED_FLOOR whatever its size (a deflate bomb is refused
 * before it costs more).
 */
#define PQ_AVRO_MAX_EXPANSION 64
#define PQ_AVRO_DECODED_FLOOR ((size_t) 64 * 1024 * 1024)

/* One metadata entry: value is NUL-terminated past its len bytes. */
typedef struct PqAvroMeta
{
	const char *key;
	const uint8 *value;
	size_t		len;
} PqAvroMeta;

/* A container file's header; data stays the caller's, alive meanwhile. */
typedef struct PqAvroFile
{
	const uint8 *data;
	size_t		len;
	int			nmeta;
	PqAvroMeta *meta;			/* in the file's order, keys distinct */
	PqAvroCodec codec;
	const PqJv *schema;			/* avro.schema, parsed and checked */
	uint8		sync[16];
	size_t		first_block;	/* offset of the first block */
} PqAvroFile;

/*
 * Read the header of the len bytes at data into *f: the magic "Obj\1",
 * the metadata (at most PQ_AVRO_MAX_META entries, no key twice), a codec
 * this reader has, an avro.schema that is JSON pq_avro_guard_json() takes,
 * the sync marker.
 */
extern bool pq_avro_open(const uint8 *data, size_t len, PqAvroFile *f,
						 const char **why);

/* A metadata value as a string: NULL when absent or holding a NUL. */
extern const char *pq_avro_meta_string(const PqAvroFile *f, const char *key);

/*
 * Called with each record, index counting from 0.  The record and what
 * the accessors below give of it are valid during the call only; return
 * false with *why to stop the read.  It may palloc and raise ERRORs.
 */
typedef bool (*PqAvroRecordFn) (void *arg, int64 index,
								const avro_value_t *record,
								const char **why);

/*
 * Decode the file's records in order, calling fn with each.  Refused (no
 * more calls) when the schema is one avro_guard.c does not let libavro
 * use, a block is truncated, negative, not followed by the sync marker,
 * fails to decompress or holds bytes after its records, the blocks
 * decompress to more than PQ_AVRO_MAX_BLOCK each or the file's expansion
 * limit together, a record is not a well-formed value of the schema
 * (pq_avro_guard_record), or the file has more than max_records records.
 * *n is then the number of records fn was called with.
 */
extern bool pq_avro_read(const PqAvroFile *f, int64 max_records,
						 PqAvroRecordFn fn, void *arg, int64 *n,
						 const char **why);

/* ---- accessors, for use within a PqAvroRecordFn ---- */

/* What an accessor found. */
typedef enum PqAvroGot
{
	PQ_AVRO_VALUE,				/* a value of the type asked */
	PQ_AVRO_NULL,				/* null, or a union's null branch */
	PQ_AVRO_ABSENT,				/* the record has no such field */
	PQ_AVRO_WRONG				/* a value of another type, or a string
								 * holding NUL */
} PqAvroGot;

/*
 * The field name of record rec (a union of null and a type seen through:
 * its branch).  *out is set for PQ_AVRO_VALUE.
 */
extern PqAvroGot pq_avro_field(const avro_value_t *rec, const char *name,
							   avro_value_t *out);

/* Number of fields of a record (0 when v is not a record). */
extern int	pq_avro_record_size(const avro_value_t *v);

/* Field i of a record: its name and value, unions seen through. */
extern PqAvroGot pq_avro_record_field(const avro_value_t *rec, int i,
									  const char **name, avro_value_t *out);

/* Scalars of a field: long takes an int too; int takes a long in range. */
extern PqAvroGot pq_avro_get_long(const avro_value_t *rec, const char *name,
								  int64 *out);
extern PqAvroGot pq_avro_get_int(const avro_value_t *rec, const char *name,
								 int32 *out);
extern PqAvroGot pq_avro_get_bool(const avro_value_t *rec, const char *name,
								  bool *out);

/* A string, palloc'd and NUL-terminated; one holding NUL is PQ_AVRO_WRONG. */
extern PqAvroGot pq_avro_get_string(const avro_value_t *rec, const char *name,
									char **out);

/* bytes or fixed, palloc'd (NUL-terminated past *len bytes) */
extern PqAvroGot pq_avro_get_bytes(const avro_value_t *rec, const char *name,
								   uint8 **out, int32 *len);

/* An array field and its number of items. */
extern PqAvroGot pq_avro_get_array(const avro_value_t *rec, const char *name,
								   avro_value_t *out, int *n);

/* Item i of an array, unions seen through. */
extern PqAvroGot pq_avro_array_item(const avro_value_t *array, int i,
									avro_value_t *out);

/* An entry of an int-keyed map (Iceberg: an array of key/value records). */
typedef struct PqAvroIntEntry
{
	int32		key;
	int64		value;			/* long values */
	uint8	   *bytes;			/* bytes values (palloc'd), else NULL */
	int32		len;
} PqAvroIntEntry;

/*
 * A map of int keys to long values (bytes_values false) or bytes values,
 * as Iceberg writes one in Avro: an array of records with an int "key"
 * and a "value" field.  Entries in the file's order; an entry whose value
 * is null is left out.  PQ_AVRO_WRONG when the field is anything else.
 */
extern PqAvroGot pq_avro_get_int_map(const avro_value_t *rec, const char *name,
									 bool bytes_values, PqAvroIntEntry **out,
									 int *n);

/* A scalar value of any Avro primitive type (a partition value). */
typedef enum PqAvroKind
{
	PQ_AVRO_KIND_NULL,
	PQ_AVRO_KIND_BOOLEAN,
	PQ_AVRO_KIND_INT,
	PQ_AVRO_KIND_LONG,
	PQ_AVRO_KIND_FLOAT,
	PQ_AVRO_KIND_DOUBLE,
	PQ_AVRO_KIND_STRING,
	PQ_AVRO_KIND_BYTES,
	PQ_AVRO_KIND_FIXED
} PqAvroKind;

typedef struct PqAvroScalar
{
	PqAvroKind	kind;
	int64		i;				/* BOOLEAN (0, 1), INT, LONG */
	double		d;				/* FLOAT (exactly), DOUBLE */
	uint8	   *bytes;			/* STRING, BYTES, FIXED: palloc'd,
								 * NUL-terminated past len */
	int32		len;
} PqAvroScalar;

/*
 * v (a union seen through) as a scalar: PQ_AVRO_WRONG for records,
 * arrays, maps, enums and strings holding NUL.
 */
extern PqAvroGot pq_avro_scalar(const avro_value_t *v, PqAvroScalar *out);

#endif							/* PQ_AVRO_FILE_H */
