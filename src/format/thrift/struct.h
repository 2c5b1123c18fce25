/*-------------------------------------------------------------------------
 *
 * struct.h
 *		Table-driven Thrift structs: one descriptor per struct of
 *		parquet.thrift says, for each field, its id, how it is stored in
 *		the C struct and whether it is required; one decode loop and one
 *		encode loop serve every struct.
 *
 * Decoding skips unknown fields of any wire type, as Thrift requires, and
 * a known field id with an unexpected wire type, as Thrift's generated
 * readers do (forks have used ids for extensions of their own: Dremio's
 * parquet-mr wrote a list as ColumnMetaData field 15).  A missing required
 * field, a negative value in a field that cannot be negative, or a list of
 * the wrong element type is a corrupt file.  Encoding writes fields in
 * increasing id order and leaves absent optional fields out, as Thrift's
 * generated writers do.
 *
 * A field is present for the encoder when it is required (or marked
 * PQ_TF_WRITE_ALWAYS), when its "has" flag is set, or, with no flag, when
 * its pointer is not NULL (strings, binaries, lists); a bool marked
 * PQ_TF_WRITE_IF_TRUE only when true.  Decoding sets the "has" flag of
 * every field it reads.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_THRIFT_STRUCT_H
#define PQ_THRIFT_STRUCT_H

#include "format/thrift/compact.h"

/* How a field is stored in its C struct (and so its wire type). */
typedef enum PqFieldKind
{
	PQ_FK_I8,					/* int */
	PQ_FK_I16,					/* int16 */
	PQ_FK_I32,					/* int32 (or an int enum) */
	PQ_FK_I64,					/* int64 */
	PQ_FK_SIZE32,				/* int32 that cannot be negative */
	PQ_FK_SIZE64,				/* int64 that cannot be negative */
	PQ_FK_DOUBLE,				/* double */
	PQ_FK_BOOL,					/* bool */
	PQ_FK_STRING,				/* char *, NUL-terminated */
	PQ_FK_BINARY,				/* PqBytes */
	PQ_FK_LIST_BOOL,			/* bool *, count */
	PQ_FK_LIST_I32,				/* int32 *, count */
	PQ_FK_LIST_I64,				/* int64 *, count */
	PQ_FK_LIST_STRING,			/* char **, count */
	PQ_FK_LIST_BINARY,			/* PqBytes *, count */
	PQ_FK_STRUCT,				/* embedded struct of descriptor sub */
	PQ_FK_LIST_STRUCT,			/* array of structs of sub, count */
	PQ_FK_UNION_ID,				/* int: the member id of a union of empty
								 * structs (TimeUnit, BloomFilterHash, ...) */
	PQ_FK_LIST_UNION_ID,		/* int *, count: a list of such unions */
	PQ_FK_UNION					/* a union whose members carry fields: one C
								 * struct with the member id (udesc) */
} PqFieldKind;

/* flags */
#define PQ_TF_REQUIRED		0x01	/* decode: must be present; encode: always */
#define PQ_TF_WRITE_ALWAYS	0x02	/* optional when read, always written */
#define PQ_TF_WRITE_IF_TRUE	0x04	/* bools without a "has" flag */
#define PQ_TF_MEMBER_REQUIRED 0x08	/* unions: an empty union is corrupt */

#define PQ_TF_NONE (-1)			/* no "has" flag / count field */

typedef struct PqThriftStructDesc PqThriftStructDesc;
typedef struct PqThriftUnionDesc PqThriftUnionDesc;

typedef struct PqThriftField
{
	int16		id;
	uint8		kind;			/* PqFieldKind */
	uint8		flags;
	const char *name;
	int			offset;			/* of the value */
	int			has_offset;		/* of its bool "has" flag, or PQ_TF_NONE */
	int			count_offset;	/* lists: of their int count */
	const PqThriftStructDesc *sub;	/* STRUCT, LIST_STRUCT */
	const char *union_name;		/* UNION_ID, LIST_UNION_ID */
	int			lo;				/* UNION_ID: members [lo, hi] are kept, */
	int			hi;				/* others read as 0 (lo > hi: all kept) */
	const PqThriftUnionDesc *udesc; /* UNION */
} PqThriftField;

struct PqThriftStructDesc
{
	const char *name;
	size_t		size;			/* sizeof the C struct */
	bool		no_clear;		/* decode into a struct that is shared with
								 * other members (LogicalType's) */
	const PqThriftField *fields;	/* in increasing id order */
	int			nfields;
	/* after decoding: defaults, flags that depend on several fields */
	void		(*init) (void *out);
	void		(*finish) (void *out, uint64 seen);
};

/*
 * A union (LogicalType, EncryptionAlgorithm, ...) decoded into one C struct
 * of size bytes: the member's id goes to the int at id_offset (0 when the
 * union is absent), the member's fields through its own descriptor (which
 * must not clear the struct).  A member without a descriptor, or not a
 * struct, reads as unknown_id when unknown_id > 0, and is otherwise an
 * unsupported feature (unsupported, with the id); an empty union reads as
 * unknown_id when unknown_id > 0, and is otherwise corrupt.
 */
struct PqThriftUnionDesc
{
	const char *name;
	size_t		size;
	int			id_offset;
	const PqThriftStructDesc *(*member) (int id);
	int			unknown_id;
	const char *unsupported;	/* message format with one %d */
};

#define PQ_THRIFT_STRUCT(nm, ctype, flds, ...) \
	{ .name = (nm), .size = sizeof(ctype), .fields = (flds), \
	  .nfields = lengthof(flds), __VA_ARGS__ }

/* bit of field index i of a descriptor in the "seen" mask of finish() */
#define PQ_TF_SEEN(seen, i) (((seen) >> (i)) & 1)

extern void pq_thrift_decode_struct(PqThriftReader *r,
									const PqThriftStructDesc *desc,
									void *out);
extern void pq_thrift_encode_struct(PqThriftWriter *w,
									const PqThriftStructDesc *desc,
									const void *in);


#endif							/* PQ_THRIFT_STRUCT_H */
