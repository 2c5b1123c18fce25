/*-------------------------------------------------------------------------
 *
 * write_convert.h
 *		PostgreSQL Datums -> Parquet values (the write direction of
 *		fdw/convert/convert.h), for COPY ... TO ... (FORMAT parquet).
 *
 * Each output column gets a PqWriteColumn: its Parquet schema node is
 * chosen once from the column's type (domains resolved to their base
 * type), together with a PqWriteKind naming the conversion loop.  Rows
 * are collected column-major (values/nulls, by-reference Datums copied)
 * and converted one column and one batch at a time into the dense arrays
 * pq_file_writer_write_column() takes: definition levels, then the
 * non-null values as fixed-width values or PqByteArrays.  A value that
 * Parquet cannot hold exactly is an ERROR naming column and row; nothing
 * is rounded or clamped.
 *
 *		write_column.c				type mapping, batches, levels, errors
 *		write_numeric.c		bool, integers, floats, numeric
 *		write_datetime.c	date, time, timetz, timestamp[tz],
 *									interval
 *		write_binary.c		text-like, bytea, uuid, jsonb, and
 *									everything else through its output
 *									function
 *		write_nested.c		arrays (LIST), composites (struct) and
 *									jsonb as VARIANT: columns written as a
 *									group of leaves, with repetition levels
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_WRITE_CONVERT_H
#define PQFDW_WRITE_CONVERT_H

#include "fmgr.h"
#include "format/write/file_writer.h"

/* How some types are written (COPY options). */
typedef struct PqWriteTypeOptions
{
	int			numeric_scale;	/* DECIMAL scale of numeric without typmod */
	bool		numeric_as_string;	/* numeric without typmod as STRING */
	bool		interval_truncate;	/* drop sub-millisecond interval parts */
	bool		jsonb_as_variant;	/* jsonb as VARIANT instead of JSON */
} PqWriteTypeOptions;

/* A growing depth-first list of schema fields (format/write/file_writer.h). */
typedef struct PqWriterFieldList
{
	PqWriterField *items;
	int			n;
	int			cap;
} PqWriterFieldList;

/* Append a zeroed field and return it (valid until the next append). */
extern PqWriterField *pqfdw_field_list_add(PqWriterFieldList *list);

typedef struct PqNestedColumn PqNestedColumn;

/* The conversion loop of a column (one switch per column and batch). */
typedef enum PqWriteKind
{
	PQW_BOOL,
	PQW_INT2,
	PQW_INT4,
	PQW_INT8,
	PQW_FLOAT4,
	PQW_FLOAT8,
	PQW_DECIMAL,				/* numeric -> INT32/INT64/FLBA decimal */
	PQW_DATE,
	PQW_TIME,
	PQW_TIMETZ,
	PQW_TIMESTAMP,				/* timestamp and timestamptz */
	PQW_INTERVAL,
	PQW_VARLENA,				/* text, varchar, bpchar, json, bytea: the
								 * bytes of the varlena as they are */
	PQW_NAME,
	PQW_UUID,
	PQW_JSONB,					/* its text form */
	PQW_GEO,					/* PostGIS geometry/geography: ST_AsBinary */
	PQW_OUTPUT					/* the type's output function (enums, and
								 * every type without a mapping) */
} PqWriteKind;

typedef struct PqWriteColumn
{
	const char *name;			/* output column, for messages */
	Oid			typid;			/* base type */
	int32		typmod;
	int16		typlen;
	bool		typbyval;
	PqWriteKind kind;
	bool		required;		/* NOT NULL column: REQUIRED, no levels */
	int			physical_type;
	int			type_length;	/* FIXED_LEN_BYTE_ARRAY */
	int			decimal_precision;
	int			decimal_scale;
	bool		to_utf8;		/* STRING/JSON/ENUM in a database encoding
								 * other than UTF8 (and SQL_ASCII) */
	bool		interval_truncate;
	FmgrInfo	out_func;		/* PQW_OUTPUT; PQW_GEO: ST_AsBinary */
	int			width;			/* bytes of a fixed value; 0: BYTE_ARRAY */

	/* not NULL: written as a group of leaves (write_nested.c) */
	PqNestedColumn *nested;

	/*
	 * Leaves of nested columns convert dense values; value_rows gives the
	 * batch row of each, for messages (NULL: values are rows).
	 */
	const int  *value_rows;

	/* the current batch, capacity rows (values/nulls filled by the caller) */
	int			capacity;
	Datum	   *values;
	bool	   *nulls;

	/* converted batch: levels and dense values */
	int16	   *def;
	uint8	   *fixed;			/* capacity * fixed width */
	PqByteArray *ba;
} PqWriteColumn;

/*
 * Set up col for an output column of type typid/typmod and append its
 * Parquet schema to fields: one leaf, or for arrays, composites and
 * VARIANT a group and its subtree (col->nested is then set).  Allocates
 * batch arrays of capacity rows in the current memory context.
 */
extern void pqfdw_write_column_init(PqWriteColumn *col,
									PqWriterFieldList *fields,
									const char *name, Oid typid,
									int32 typmod, bool required,
									const PqWriteTypeOptions *topts,
									int capacity);

/* The same for a leaf: typid is a base type that is not nested. */
extern void pqfdw_write_leaf_init(PqWriteColumn *col, PqWriterField *field,
								  const char *name, Oid typid, int32 typmod,
								  bool required,
								  const PqWriteTypeOptions *topts,
								  int capacity);

/* Grow col's batch arrays to hold at least n values. */
extern void pqfdw_write_column_reserve(PqWriteColumn *col, int n);

/* Leaves written for col: 1, or those of its group. */
extern int	pqfdw_write_column_leaves(const PqWriteColumn *col);

/*
 * Convert the first n rows of the batch (row_base: number of rows written
 * before it, for messages) into col->def and col->fixed / col->ba, and
 * return the number of non-null values.  Transient memory (detoasted or
 * printed values) comes from the current memory context and must live
 * until the values are handed to the writer.
 */
extern int	pqfdw_write_convert(PqWriteColumn *col, int n, int64 row_base);

/* The loops of each family: nulls skipped, values appended densely. */
extern void pqfdw_write_numeric(PqWriteColumn *col, int n, int64 row_base);
extern void pqfdw_write_datetime(PqWriteColumn *col, int n, int64 row_base);
extern void pqfdw_write_binary(PqWriteColumn *col, int n, int64 row_base);

/*
 * Nested columns (write_nested.c).  pqfdw_nested_create() returns
 * NULL when typid (a base type) is written as a single leaf.
 */
extern PqNestedColumn *pqfdw_nested_create(PqWriterFieldList *fields,
										   const char *name, Oid typid,
										   int32 typmod, bool required,
										   const PqWriteTypeOptions *topts,
										   int capacity);
extern int	pqfdw_nested_num_leaves(const PqNestedColumn *nc);

/*
 * Shred the first n rows of col's batch into the levels and values of its
 * leaves, then hand each leaf to w as column first_leaf + k.  An ERROR
 * names row row_base + 1 + (rows ? rows[i] : i) for row i.
 */
extern void pqfdw_nested_write(PqWriteColumn *col, int n, int64 row_base,
							   const int *rows, PqFileWriter *w,
							   int first_leaf);

/*
 * write_rows.c: the first n rows of the columns' batch arrays into w, as
 * rows of its current row group: column c as leaves from first_leaf[c]
 * (-1: not written).  row_base and rows name a row in an ERROR as
 * pqfdw_nested_write() does.
 */
extern void pqfdw_write_rows(PqWriteColumn *cols, int ncols,
							 const int *first_leaf, PqFileWriter *w, int n,
							 int64 row_base, const int *rows);

/* The maximum levels the shredder produces, to check against the writer. */
extern void pqfdw_nested_leaf_levels(const PqNestedColumn *nc, int leaf,
									 int *max_def, int *max_rep);

/* ERROR for a value Parquet cannot hold; row is the 0-based batch index. */
extern void pqfdw_write_value_error(PqWriteColumn *col, int64 row_base,
									int row, int sqlstate, const char *reason,
									const char *hint) pg_attribute_noreturn();

#endif							/* PQFDW_WRITE_CONVERT_H */
