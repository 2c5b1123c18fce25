/*-------------------------------------------------------------------------
 *
 * delete_files.h
 *		Apache Iceberg delete files in Parquet (format/spec.md, "Row-level
 *		Deletes"): the rows a position delete file deletes, per data file,
 *		and equality deletes as a set of row keys that data files' rows are
 *		matched against.
 *
 * A position delete file has the columns file_path (string, field id
 * 2147483546) and pos (long, field id 2147483545), and possibly row (the
 * deleted row, not read here): each row deletes row pos (0-based, across
 * the row groups of the file) of the data file at file_path.  An equality
 * delete file holds the values of a table's equality columns: every row of
 * a data file whose values of those columns equal one of its rows is
 * deleted, a null equal to a null.
 *
 * The caller opens each file with pq_file_open() (from memory, a local
 * file or an object store: a PqSource) and resolves which of the file's
 * columns to read (field ids of the table's schema).  Everything read from
 * the file is untrusted: counts are bounded before anything is allocated
 * by them, and a file this reader cannot take is refused with false and
 * *why, a sentence part that quotes none of the file.  Parquet that cannot
 * be read raises the format layer's ERRORs (pq_corrupt:
 * ERRCODE_DATA_CORRUPTED; pq_unsupported), as for any file.
 *
 * Implemented by delete_files.c (the files, key sets) and delete_keys.c
 * (the key encoding).  PostgreSQL-free, like the rest of src/table.
 * Results are palloc'd in the current memory context (a key set: the
 * context it was created in); the work of a call (column readers, pages)
 * is in a child context deleted before it returns.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_ICEBERG_DELETE_FILES_H
#define PQ_ICEBERG_DELETE_FILES_H

#include "format/read/file_reader.h"

/* Field ids of a position delete file's columns (spec, "Reserved Field IDs") */
#define PQ_ICEBERG_FIELD_FILE_PATH 2147483546
#define PQ_ICEBERG_FIELD_POS 2147483545

/*
 * The most positions one delete file, or one data file's deleted rows, may
 * hold: as many as one palloc'd array of uint64 holds (MaxAllocSize / 8),
 * the bound of Delta's deletion vectors (PQ_DV_MAX_POSITIONS).
 */
#define PQ_ICEBERG_MAX_POSITIONS INT64CONST(134217727)

/*
 * The rows of one data file that deletes delete, as 0-based positions.  The
 * layout of table/delta's PqDeletedRows (deletion_vector.h), which this
 * folder may not include: the two folders are one layer.
 */
typedef struct PqIcebergDeletedRows
{
	uint64		count;
	uint64	   *pos;			/* count positions, ascending and distinct;
								 * palloc'd, NULL when count is 0 */
} PqIcebergDeletedRows;

/* A position delete file's rows, grouped by the data file they delete in. */
typedef struct PqIcebergPositionDeletes
{
	int			npaths;
	char	  **paths;			/* distinct, ascending by strcmp */
	PqIcebergDeletedRows *rows; /* rows[i]: the positions deleted in paths[i] */
} PqIcebergPositionDeletes;

/*
 * Every row of the position delete file file, into *out (zeroed first).
 * The columns are found by field id among the top-level fields, else (no
 * field has the id) by name; file_path must be a BYTE_ARRAY and pos an
 * INT64, both top-level primitive columns.  Rows are sorted and grouped
 * here, whatever order the file has them in; a position given twice is
 * kept once.  A row whose file_path or pos is null names no row: it is
 * skipped (as Impala does; its test tables hold such rows).
 *
 * False with *why (out zeroed) when a column is missing, given twice or of
 * another type, a pos is negative, a
 * file_path holds a NUL character, or the file has more than
 * PQ_ICEBERG_MAX_POSITIONS rows (checked before any is read) or more than
 * PQ_ICEBERG_MAX_KEYS distinct paths.
 */
extern bool pq_iceberg_read_position_deletes(PqFile *file,
											 PqIcebergPositionDeletes *out,
											 const char **why);

/* The rows d deletes in the data file at path, or NULL (binary search). */
extern const PqIcebergDeletedRows *pq_iceberg_position_deletes_for(const PqIcebergPositionDeletes *d,
																   const char *path);

/*
 * The union of a and b (either may be NULL or empty), new and palloc'd.
 * ERROR (ERRCODE_PROGRAM_LIMIT_EXCEEDED) when it holds more than
 * PQ_ICEBERG_MAX_POSITIONS positions.
 */
extern PqIcebergDeletedRows *pq_iceberg_deleted_rows_union(const PqIcebergDeletedRows *a,
														   const PqIcebergDeletedRows *b);

/* ---------------------------------------------------------- equality */

/*
 * A key is the values of a row's key columns, each written in a canonical
 * form after a tag naming its class, so that a value gives the same bytes
 * whichever physical type a file stores it with, as far as Iceberg's type
 * promotion lets files of one table differ:
 *
 *	NULL	 a null, whatever the column's type: NULL equals NULL
 *	BOOLEAN	 1 byte, 0 or 1
 *	INT		 INT32 and INT64 (int, long, date, time, timestamps): the value
 *			 as an 8-byte little-endian int64 (unsigned INT32 zero-extended)
 *	FLOAT	 FLOAT and DOUBLE: the value as a double's 8 bytes, every NaN
 *			 as one NaN (-0.0 and 0.0 differ, as Java's Double.equals has
 *			 them)
 *	DECIMAL	 DECIMAL in INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY: the
 *			 unscaled value as a 16-byte big-endian two's complement integer
 *			 (scales are not compared: Iceberg widens only a decimal's
 *			 precision)
 *	BYTES	 BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (string, binary, fixed,
 *			 uuid): a 4-byte little-endian length, then the bytes
 *	INT96	 the 12 bytes
 */
#define PQ_ICEBERG_KEY_NULL 0
#define PQ_ICEBERG_KEY_BOOLEAN 1
#define PQ_ICEBERG_KEY_INT 2
#define PQ_ICEBERG_KEY_FLOAT 3
#define PQ_ICEBERG_KEY_DECIMAL 4
#define PQ_ICEBERG_KEY_BYTES 5
#define PQ_ICEBERG_KEY_INT96 6

/* Key columns one set may have. */
#define PQ_ICEBERG_MAX_KEY_COLUMNS 1024

/*
 * Distinct keys one set (or distinct paths one position delete file) may
 * hold, and the bytes of its keys (each with a 4-byte length): more is
 * refused.  At the bound a set takes about 1.8 GB: its keys, 512 MB of
 * hash table and 256 MB of key references.
 */
#define PQ_ICEBERG_MAX_KEYS (1 << 25)
#define PQ_ICEBERG_MAX_KEY_BYTES ((Size) 1 << 30)

/* How one key column's values are written. */
typedef struct PqIcebergKeyType
{
	uint8		tag;			/* PQ_ICEBERG_KEY_*, never NULL */
	int			physical_type;	/* PqPhysicalType */
	int			type_length;	/* FIXED_LEN_BYTE_ARRAY */
	bool		is_unsigned;	/* INT32 zero-extended */
} PqIcebergKeyType;

/*
 * The type of a key column, the leaf node of a file's schema.  False with
 * *why for a column that is not a top-level primitive one (a leaf of a
 * group, or repeated).
 */
extern bool pq_iceberg_key_type(const PqSchemaNode *leaf,
								PqIcebergKeyType *t, const char **why);

/*
 * Append one value of a column of type t to key: NULL (fixed and ba both
 * NULL), fixed-width bytes as the format layer decodes them (fixed:
 * pq_fixed_width() bytes) or a BYTE_ARRAY (ba).  False with *why for a
 * DECIMAL whose value does not fit 16 bytes.
 */
extern bool pq_iceberg_key_append(PqBuffer *key, const PqIcebergKeyType *t,
								  const uint8 *fixed, const PqByteArray *ba,
								  const char **why);

/* The bytes pq_iceberg_key_append() appends for the value. */
extern Size pq_iceberg_key_value_len(const PqIcebergKeyType *t,
									 const uint8 *fixed,
									 const PqByteArray *ba);

/* A set of keys of ncolumns columns: a hash table over the key bytes. */
typedef struct PqIcebergKeySet PqIcebergKeySet;

/*
 * A new, empty set of keys of ncolumns columns (at least 1).  More than
 * PQ_ICEBERG_MAX_KEY_COLUMNS (a count a manifest gives): ERROR
 * (ERRCODE_PROGRAM_LIMIT_EXCEEDED).
 */
extern PqIcebergKeySet *pq_iceberg_keyset_create(int ncolumns);

/*
 * Add the key of every row of the equality delete file file to set.
 * cols[0 .. ncolumns): for each key column, its leaf column in the file
 * (format layer numbering: file->schema->columns), or -1 when the file
 * lacks the column, which then reads as null.
 *
 * False with *why when a column is not in the file, not a top-level
 * primitive column (pq_iceberg_key_type), or of another class than the
 * same key column of a file added before; or when the set would hold more
 * than PQ_ICEBERG_MAX_KEYS keys or PQ_ICEBERG_MAX_KEY_BYTES bytes.  The
 * set may then hold some of the file's keys: a caller that goes on must
 * not use it.
 */
extern bool pq_iceberg_keyset_add_file(PqIcebergKeySet *set, PqFile *file,
									   const int *cols, const char **why);

/*
 * The rows of the data file file whose key over cols (as for
 * pq_iceberg_keyset_add_file) is in set, as ascending 0-based positions
 * (across the row groups, in order) into *out.  False with *why (out
 * zeroed) for the columns as pq_iceberg_keyset_add_file() refuses them,
 * a key column whose class differs from the delete files', or more than
 * PQ_ICEBERG_MAX_POSITIONS rows matched.  Reads nothing when set is
 * empty.
 */
extern bool pq_iceberg_keyset_match_file(const PqIcebergKeySet *set,
										 PqFile *file, const int *cols,
										 PqIcebergDeletedRows *out,
										 const char **why);

/* Keys in set. */
extern int64 pq_iceberg_keyset_size(const PqIcebergKeySet *set);

#endif							/* PQ_ICEBERG_DELETE_FILES_H */
