/*-------------------------------------------------------------------------
 *
 * compact.h
 *		Thrift compact protocol: a bounds-checked reader over a byte range
 *		and a writer that appends to a PqBuffer.
 *
 * The reader never reads outside [buf, buf + len): truncated or malformed
 * input raises pq_corrupt().  Nesting of structs, lists, sets and maps is
 * limited to PQ_THRIFT_MAX_DEPTH so that hostile input cannot exhaust the
 * stack when unknown values are skipped.
 *
 * Reading a struct:
 *
 *		pq_thrift_read_struct_begin(r);
 *		while (pq_thrift_read_field(r, &id, &type))
 *			switch (id) { ... default: pq_thrift_skip(r, type); }
 *		pq_thrift_read_struct_end(r);
 *
 * Bool fields carry their value in the field type (PQ_TT_TRUE/PQ_TT_FALSE)
 * and have no payload; bool list elements are one byte each.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_THRIFT_H
#define PQ_THRIFT_H

#include "format/common/pq_common.h"

/* Compact protocol wire types (field type nibble, list element type) */
typedef enum PqThriftType
{
	PQ_TT_STOP = 0,
	PQ_TT_TRUE = 1,				/* bool field true; bool list element type */
	PQ_TT_FALSE = 2,			/* bool field false */
	PQ_TT_I8 = 3,
	PQ_TT_I16 = 4,
	PQ_TT_I32 = 5,
	PQ_TT_I64 = 6,
	PQ_TT_DOUBLE = 7,
	PQ_TT_BINARY = 8,
	PQ_TT_LIST = 9,
	PQ_TT_SET = 10,
	PQ_TT_MAP = 11,
	PQ_TT_STRUCT = 12
} PqThriftType;

/* Deepest nesting of structs and containers the reader accepts. */
#define PQ_THRIFT_MAX_DEPTH 64

static inline bool
pq_thrift_is_bool(int type)
{
	return type == PQ_TT_TRUE || type == PQ_TT_FALSE;
}

/* Name of a wire type, for error messages. */
extern const char *pq_thrift_type_name(int type);

/* ---- reader ---- */

typedef struct PqThriftReader
{
	const uint8 *start;
	const uint8 *pos;
	const uint8 *end;
	int			depth;			/* open structs and containers */
	int16		last_field_id;	/* of the innermost open struct */
	int16		saved_field_id[PQ_THRIFT_MAX_DEPTH];
} PqThriftReader;

extern void pq_thrift_reader_init(PqThriftReader *r, const uint8 *buf,
								  size_t len);

/* Bytes consumed so far. */
static inline size_t
pq_thrift_offset(const PqThriftReader *r)
{
	return (size_t) (r->pos - r->start);
}

static inline size_t
pq_thrift_remaining(const PqThriftReader *r)
{
	return (size_t) (r->end - r->pos);
}

/* Scalars.  Out-of-range values for i16/i32 are corrupt. */
extern uint64 pq_thrift_read_varint(PqThriftReader *r);
extern int8 pq_thrift_read_i8(PqThriftReader *r);
extern int16 pq_thrift_read_i16(PqThriftReader *r);
extern int32 pq_thrift_read_i32(PqThriftReader *r);
extern int64 pq_thrift_read_i64(PqThriftReader *r);
extern double pq_thrift_read_double(PqThriftReader *r);
extern bool pq_thrift_read_bool(PqThriftReader *r); /* list element */

/* Binary: points into the input buffer.  String: palloc'd NUL-terminated. */
extern PqBytes pq_thrift_read_binary(PqThriftReader *r);
extern char *pq_thrift_read_string(PqThriftReader *r);

/*
 * Structs.  pq_thrift_read_field returns false at the stop byte, otherwise
 * sets *id and *type (a PqThriftType) of the next field.
 */
extern void pq_thrift_read_struct_begin(PqThriftReader *r);
extern bool pq_thrift_read_field(PqThriftReader *r, int16 *id, int *type);
extern void pq_thrift_read_struct_end(PqThriftReader *r);

/*
 * Lists and sets: returns the element count (checked against the bytes
 * remaining) and sets *elem_type.  Call pq_thrift_read_list_end after the
 * elements.
 */
extern int32 pq_thrift_read_list_begin(PqThriftReader *r, int *elem_type);
extern void pq_thrift_read_list_end(PqThriftReader *r);

/* Skip a field value of the given wire type, whatever it contains. */
extern void pq_thrift_skip(PqThriftReader *r, int type);

/* ---- writer ---- */

typedef struct PqThriftWriter
{
	PqBuffer   *out;
	int			depth;
	int16		last_field_id;
	int16		saved_field_id[PQ_THRIFT_MAX_DEPTH];
} PqThriftWriter;

extern void pq_thrift_writer_init(PqThriftWriter *w, PqBuffer *out);

/* Values (list elements, or field payloads after pq_thrift_write_field) */
extern void pq_thrift_write_varint(PqThriftWriter *w, uint64 v);
extern void pq_thrift_write_i8(PqThriftWriter *w, int8 v);
extern void pq_thrift_write_i16(PqThriftWriter *w, int16 v);
extern void pq_thrift_write_i32(PqThriftWriter *w, int32 v);
extern void pq_thrift_write_i64(PqThriftWriter *w, int64 v);
extern void pq_thrift_write_double(PqThriftWriter *w, double v);
extern void pq_thrift_write_bool(PqThriftWriter *w, bool v);	/* list element */
extern void pq_thrift_write_binary(PqThriftWriter *w, const uint8 *data,
								   size_t len);
extern void pq_thrift_write_string(PqThriftWriter *w, const char *s);

/* Structs and lists */
extern void pq_thrift_write_struct_begin(PqThriftWriter *w);
extern void pq_thrift_write_struct_end(PqThriftWriter *w);
extern void pq_thrift_write_list_begin(PqThriftWriter *w, int elem_type,
									   int32 count);

/* Field header; for bool fields use pq_thrift_write_bool_field instead. */
extern void pq_thrift_write_field(PqThriftWriter *w, int16 id, int type);

/* Field header plus payload */
extern void pq_thrift_write_bool_field(PqThriftWriter *w, int16 id, bool v);
extern void pq_thrift_write_i8_field(PqThriftWriter *w, int16 id, int8 v);
extern void pq_thrift_write_i16_field(PqThriftWriter *w, int16 id, int16 v);
extern void pq_thrift_write_i32_field(PqThriftWriter *w, int16 id, int32 v);
extern void pq_thrift_write_i64_field(PqThriftWriter *w, int16 id, int64 v);
extern void pq_thrift_write_double_field(PqThriftWriter *w, int16 id,
										 double v);
extern void pq_thrift_write_binary_field(PqThriftWriter *w, int16 id,
										 const uint8 *data, size_t len);
extern void pq_thrift_write_string_field(PqThriftWriter *w, int16 id,
										 const char *s);

/* field header, then pq_thrift_write_struct_begin */
extern void pq_thrift_write_struct_field(PqThriftWriter *w, int16 id);
extern void pq_thrift_write_list_field(PqThriftWriter *w, int16 id,
									   int elem_type, int32 count);

#endif							/* PQ_THRIFT_H */
