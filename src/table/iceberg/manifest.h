/*-------------------------------------------------------------------------
 *
 * manifest.h
 *		Apache Iceberg manifest lists and manifests (Avro container files,
 *		format/spec.md "Manifest Lists", "Manifests"): the manifests of a
 *		snapshot, and the data and delete files each manifest tracks.
 *
 * Fields are picked by name from the file's own schema, so v1, v2 and v3
 * files and writers' extra fields are all read; what this reader needs and
 * the file lacks, or holds with another type, is refused.  Sequence
 * numbers and snapshot ids are inherited from the manifest list as the
 * spec's "Sequence Number Inheritance" says (and Java's
 * InheritableMetadataFactory does): an entry's null data or file sequence
 * number becomes its manifest's sequence number when the entry is ADDED
 * or that number is 0 (v1), and stays unknown otherwise; a null snapshot
 * id becomes the manifest's added_snapshot_id.
 *
 * PostgreSQL-free, like the rest of src/table: the caller reads the file
 * and hands its bytes over.  Refusals give false and *why, a sentence part
 * that quotes none of the file (the entry it concerns counted from 0).
 * Memory: palloc in the current context; nothing of libavro's outlives a
 * call, an ERROR included (avro_file.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_ICEBERG_MANIFEST_H
#define PQ_ICEBERG_MANIFEST_H

/* Manifests one manifest list, and entries one manifest, may hold. */
#define PQ_ICEBERG_MAX_MANIFESTS 1000000
#define PQ_ICEBERG_MAX_ENTRIES 1000000

/* manifest_file.content and data_file.content */
#define PQ_ICEBERG_MANIFEST_DATA 0
#define PQ_ICEBERG_MANIFEST_DELETES 1

#define PQ_ICEBERG_CONTENT_DATA 0
#define PQ_ICEBERG_CONTENT_POSITION_DELETES 1
#define PQ_ICEBERG_CONTENT_EQUALITY_DELETES 2

/* manifest_entry.status */
#define PQ_ICEBERG_STATUS_EXISTING 0
#define PQ_ICEBERG_STATUS_ADDED 1
#define PQ_ICEBERG_STATUS_DELETED 2

/* A partition field's summary in a manifest list (field_summary). */
typedef struct PqIcebergFieldSummary
{
	bool		contains_null;
	bool		has_contains_nan;	/* contains_nan not null */
	bool		contains_nan;
	const uint8 *lower_bound;	/* single-value serialization; NULL: null */
	int32		lower_len;
	const uint8 *upper_bound;
	int32		upper_len;
} PqIcebergFieldSummary;

/* A manifest as its manifest list gives it (manifest_file). */
typedef struct PqIcebergManifestFile
{
	const char *manifest_path;
	int64		manifest_length;
	int32		partition_spec_id;
	int			content;		/* PQ_ICEBERG_MANIFEST_*; v1: 0 */
	int64		sequence_number;	/* v1: 0 */
	int64		min_sequence_number;	/* v1: 0 */
	int64		added_snapshot_id;
	bool		has_first_row_id;	/* v3 */
	int64		first_row_id;
	int			npartitions;	/* partitions (null: 0), one per field of the
								 * manifest's partition spec */
	PqIcebergFieldSummary *partitions;
} PqIcebergManifestFile;

/* A partition value's type: the Avro type it is written with. */
typedef enum PqIcebergValueType
{
	PQ_ICEBERG_NULL,
	PQ_ICEBERG_BOOLEAN,
	PQ_ICEBERG_INT,				/* int, date, bucket, year..hour */
	PQ_ICEBERG_LONG,			/* long, time, timestamps */
	PQ_ICEBERG_FLOAT,
	PQ_ICEBERG_DOUBLE,
	PQ_ICEBERG_STRING,
	PQ_ICEBERG_BYTES,			/* binary */
	PQ_ICEBERG_FIXED			/* fixed(L), uuid, decimal (big-endian) */
} PqIcebergValueType;

typedef struct PqIcebergValue
{
	PqIcebergValueType type;
	int64		i;				/* BOOLEAN (0, 1), INT, LONG */
	double		d;				/* FLOAT (exactly), DOUBLE */
	const uint8 *bytes;			/* STRING (UTF-8), BYTES, FIXED;
								 * NUL-terminated past len */
	int32		len;
} PqIcebergValue;

/*
 * One field of a data file's partition tuple.  field_id: the
 * partition-spec metadata's field of the same name (a v1 spec without
 * field ids: 1000 + its position), else the Avro schema's field-id of the
 * partition struct's field, else -1.
 */
typedef struct PqIcebergPartitionValue
{
	int32		field_id;
	const char *name;
	PqIcebergValue value;
} PqIcebergPartitionValue;

/*
 * Int-keyed maps of a data file (column id -> count, or -> bound in the
 * single-value serialization), ascending by field_id, each field_id once:
 * of a key written twice, the last entry (as Java's map keeps it).
 */
typedef struct PqIcebergCount
{
	int32		field_id;
	int64		count;
} PqIcebergCount;

typedef struct PqIcebergBound
{
	int32		field_id;
	const uint8 *bytes;
	int32		len;
} PqIcebergBound;

/* A data or delete file (data_file). */
typedef struct PqIcebergDataFile
{
	int			content;		/* PQ_ICEBERG_CONTENT_*; v1: data */
	const char *file_path;
	const char *file_format;	/* as written: "PARQUET", "parquet", ... */
	int			npartition;
	PqIcebergPartitionValue *partition;
	int64		record_count;
	int64		file_size_in_bytes;
	int			nvalue_counts;
	PqIcebergCount *value_counts;
	int			nnull_value_counts;
	PqIcebergCount *null_value_counts;
	int			nnan_value_counts;
	PqIcebergCount *nan_value_counts;
	int			nlower_bounds;
	PqIcebergBound *lower_bounds;
	int			nupper_bounds;
	PqIcebergBound *upper_bounds;
	int			nequality_ids;
	int32	   *equality_ids;
	const char *referenced_data_file;	/* NULL: null or absent */
	bool		has_content_offset; /* v3: a deletion vector's blob in a
									 * Puffin file: both or neither */
	int64		content_offset;
	int64		content_size_in_bytes;
	bool		has_first_row_id;	/* as written (no inheritance) */
	int64		first_row_id;
} PqIcebergDataFile;

/* A manifest's entry (manifest_entry), inherited numbers applied. */
typedef struct PqIcebergEntry
{
	int			status;			/* PQ_ICEBERG_STATUS_* */
	bool		has_snapshot_id;
	int64		snapshot_id;
	bool		has_sequence_number;	/* data sequence number */
	int64		sequence_number;
	bool		has_file_sequence_number;
	int64		file_sequence_number;
	PqIcebergDataFile file;
} PqIcebergEntry;

/*
 * The manifests listed in the manifest list file data (len bytes): *out,
 * *n of them, in the file's order.  format_version is the table's (1, 2,
 * 3); 0 takes the file's format-version metadata, absent: 1.  From
 * version 2 on, content, sequence_number and min_sequence_number are
 * required; in v1 they are 0 when absent.
 */
extern bool pq_iceberg_read_manifest_list(const uint8 *data, size_t len,
										  int format_version,
										  PqIcebergManifestFile **out,
										  int *n, const char **why);

/*
 * The entries of the manifest file data (len bytes), in the file's order.
 * from_list: the manifest's entry in the manifest list, whose numbers are
 * inherited, and whose content an entry's must agree with (a data
 * manifest lists data files only, a delete manifest delete files only);
 * NULL: nothing is inherited or checked.
 */
extern bool pq_iceberg_read_manifest(const uint8 *data, size_t len,
									 const PqIcebergManifestFile *from_list,
									 PqIcebergEntry **out, int *n,
									 const char **why);

#endif							/* PQ_ICEBERG_MANIFEST_H */
