/*-------------------------------------------------------------------------
 *
 * metadata.h
 *		An Apache Iceberg table's metadata file (vN.metadata.json or
 *		NNNNN-<uuid>.metadata.json), format versions 1, 2 and 3: its
 *		schemas, partition specs, snapshots, snapshot log, refs and
 *		properties, checked against the spec ("Table Metadata", Appendix C).
 *
 * PostgreSQL-free: the caller finds and reads the file (local or in a
 * bucket, gunzipped when it is a .gz.metadata.json) and hands its bytes
 * over.  Everything is allocated in the current memory context, the parsed
 * JSON tree included: it stays alive with the result, so that callers can
 * walk a field's nested type (type_tree) and its defaults.  Nothing is
 * allocated elsewhere and nothing needs freeing but that context.
 *
 * Read by metadata.c (the file, snapshots, log, refs, properties, lookups)
 * and metadata_schema.c (schemas, types, partition specs), which share the
 * private metadata_read.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_ICEBERG_METADATA_H
#define PQ_ICEBERG_METADATA_H

#include "table/common/json_tree.h"

/* The highest format version read. */
#define PQ_ICEBERG_MAX_FORMAT_VERSION 3

/* Nested types (struct, list, map) deeper than this are refused. */
#define PQ_ICEBERG_MAX_TYPE_DEPTH 64

/*
 * Most schemas, fields of a schema (nested ones counted), partition specs,
 * fields of a spec, snapshots, manifests of a snapshot, snapshot-log
 * entries, refs or properties one file may hold: more is refused.
 */
#define PQ_ICEBERG_MAX_COUNT 1000000

/* Field ids above this are reserved for metadata columns (_file, _pos, ...) */
#define PQ_ICEBERG_MAX_FIELD_ID 2147483447

/* A top-level field of a schema. */
typedef struct PqIcebergField
{
	int32		id;				/* 0 .. PQ_ICEBERG_MAX_FIELD_ID */
	char	   *name;			/* never empty */
	bool		required;

	/*
	 * A primitive type's name, canonical: lower case, "decimal(P,S)" without
	 * blanks (1 <= P <= 38, 0 <= S <= P), "fixed[L]" (L >= 1), "geometry" or
	 * "geometry(C)", "geography", "geography(C)" or "geography(C,A)" (C and A
	 * as written, blanks around them dropped); or "struct", "list", "map" for
	 * a nested type.
	 */
	char	   *type;

	/*
	 * The member "type" as written: a string, or an object whose every level
	 * was checked (struct: "fields", an array of fields as these; list:
	 * "element-id", "element-required", "element"; map: "key-id", "key",
	 * "value-id", "value-required", "value"), so that a walk of it needs no
	 * checks but the names above.
	 */
	const PqJv *type_tree;

	/* "initial-default" and "write-default" as parsed; NULL: none (or null) */
	const PqJv *initial_default;
	const PqJv *write_default;
} PqIcebergField;

typedef struct PqIcebergSchema
{
	int32		schema_id;		/* unique among the schemas */
	int			nfields;		/* top-level fields, in order */
	PqIcebergField *fields;
	int			nidentifiers;	/* identifier-field-ids: ids of this schema */
	int32	   *identifier_ids;
} PqIcebergSchema;

typedef struct PqIcebergPartitionField
{
	int32		source_id;		/* the source column; -1 when the transform
								 * takes several (source_ids) */
	int			nsource_ids;	/* >= 1: "source-id", or v3's "source-ids" */
	int32	   *source_ids;
	int32		field_id;		/* unique in its spec; v1 may lack it: then
								 * 1000, 1001, ... (past the spec's highest) */
	char	   *name;			/* unique in its spec */

	/*
	 * As written: "identity", "bucket[N]" and "truncate[W]" (N, W positive
	 * 32-bit integers, checked), "year", "month", "day", "hour", "void", or
	 * one this reader does not know, to be ignored (the spec requires v3
	 * readers to read such tables).
	 */
	char	   *transform;
} PqIcebergPartitionField;

typedef struct PqIcebergSpec
{
	int32		spec_id;		/* unique among the specs */
	int			nfields;
	PqIcebergPartitionField *fields;
} PqIcebergSpec;

typedef struct PqIcebergSnapshot
{
	int64		snapshot_id;	/* unique among the snapshots; never -1 */
	int64		parent_id;		/* -1: none */
	int64		sequence_number;	/* v1: 0 when absent; >= 0 */
	int64		timestamp_ms;
	char	   *manifest_list;	/* NULL for v1 "manifests" */
	int			nmanifests;		/* v1 "manifests" (without manifest-list) */
	char	  **manifests;
	int32		schema_id;		/* -1: not given */
	char	   *operation;		/* summary's "operation"; NULL without a
								 * summary (v1 only) */
	int64		first_row_id;	/* v3 row lineage; -1: not given */
	int64		added_rows;		/* v3 row lineage; -1: not given */
} PqIcebergSnapshot;

typedef struct PqIcebergRef
{
	char	   *name;
	int64		snapshot_id;	/* one of the snapshots */
	bool		is_tag;			/* else a branch */
} PqIcebergRef;

/* An entry of the snapshot log: the current snapshot changed at time_ms. */
typedef struct PqIcebergLogEntry
{
	int64		timestamp_ms;
	int64		snapshot_id;	/* may name an expired snapshot */
} PqIcebergLogEntry;

typedef struct PqIcebergMetadata
{
	int			format_version; /* 1, 2 or 3 */
	char	   *table_uuid;		/* NULL only in v1; else 8-4-4-4-12 hex */
	char	   *location;
	int64		last_sequence_number;	/* v1: 0 when absent */
	int64		last_updated_ms;
	int64		current_snapshot_id;	/* -1: none (-1, null or absent); else
										 * one of the snapshots */
	int32		current_schema_id;	/* one of the schemas */
	int			nschemas;		/* >= 1 */
	PqIcebergSchema *schemas;
	int32		default_spec_id;	/* one of the specs */
	int			nspecs;			/* >= 1 */
	PqIcebergSpec *specs;
	int			nsnapshots;
	PqIcebergSnapshot *snapshots;	/* in the file's order */
	int			nlog;			/* snapshot-log, in the file's order */
	PqIcebergLogEntry *log;
	int			nrefs;			/* refs as written (no "main" added) */
	PqIcebergRef *refs;
	int			nproperties;	/* all of them, in the file's order */
	char	  **property_keys;
	char	  **property_values;
	const PqJv *root;			/* the whole file, parsed */
	const struct PqIcebergSnapshotIndex *snapshot_index;	/* the lookups' */
} PqIcebergMetadata;

/*
 * Parse and check the metadata file text (len bytes, not NUL-terminated).
 *
 * v1 files are read as the spec's Appendix E says: "schemas" with
 * "current-schema-id" when given, else "schema" (its schema-id, or 0);
 * "partition-specs" with "default-spec-id" when given, else
 * "partition-spec" as spec 0 (neither: one unpartitioned spec 0); partition
 * field ids assigned when missing; sequence numbers 0 when missing;
 * "manifests" when a snapshot has no "manifest-list".
 *
 * Refused, with *why a sentence part that quotes none of the text (e.g.
 * "a schema field lacks its id", "format version 4 is not supported"):
 * malformed JSON; a format version other than 1..3; a member the spec
 * requires of the version missing or of the wrong JSON type (a property's
 * value included); a table-uuid that is no UUID; an integer out of its
 * range (a field id above PQ_ICEBERG_MAX_FIELD_ID, a snapshot id of -1); a
 * field or partition field name empty or longer than 4096 bytes; an
 * unknown or malformed primitive type, or nested types deeper than
 * PQ_ICEBERG_MAX_TYPE_DEPTH; an identifier field id that is none of its
 * schema's; a field id, or a name within one struct, given twice in a
 * schema; a schema, spec or snapshot id given twice, or a partition field
 * id or name twice in a spec; a bucket or truncate transform without a
 * positive width; a current schema, default spec, current snapshot or ref
 * naming none there is; a "main" ref that is a tag or differs from
 * current-snapshot-id; a snapshot's sequence number above
 * last-sequence-number (v2+); more than PQ_ICEBERG_MAX_COUNT of anything
 * counted.  *out is then zeroed, and what was allocated stays in the
 * current context.  On success *why is NULL.
 */
extern bool pq_iceberg_parse_metadata(const char *text, size_t len,
									  PqIcebergMetadata *out,
									  const char **why);

/* The schema of that id; NULL when there is none. */
extern const PqIcebergSchema *pq_iceberg_schema(const PqIcebergMetadata *md,
												int32 schema_id);

/* The partition spec of that id; NULL when there is none. */
extern const PqIcebergSpec *pq_iceberg_spec(const PqIcebergMetadata *md,
											int32 spec_id);

/* The snapshot of that id; NULL when there is none (-1 included). */
extern const PqIcebergSnapshot *pq_iceberg_snapshot(const PqIcebergMetadata *md,
													int64 snapshot_id);

/*
 * The snapshot a ref (branch or tag) points at; "main" is the current
 * snapshot when refs lack it.  NULL when there is no such ref (or "main"
 * with no current snapshot).
 */
extern const PqIcebergSnapshot *pq_iceberg_snapshot_by_ref(const PqIcebergMetadata *md,
														   const char *ref);

/*
 * The snapshot current at time ms (since the epoch), as the spec's
 * Appendix F says: from the snapshot log, the last entry whose timestamp
 * is <= ms; without a log (absent or empty), the newest ancestor of the
 * current snapshot (itself included) whose timestamp-ms is <= ms.  NULL
 * when there is none, or when that entry's snapshot has expired (it is no
 * longer among the snapshots: the table's state then is not known).
 */
extern const PqIcebergSnapshot *pq_iceberg_snapshot_as_of(const PqIcebergMetadata *md,
														  int64 ms);

/* The value of table property key; NULL when it is not set. */
extern const char *pq_iceberg_property(const PqIcebergMetadata *md,
									   const char *key);

#endif							/* PQ_ICEBERG_METADATA_H */
