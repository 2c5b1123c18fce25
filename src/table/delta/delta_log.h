/*-------------------------------------------------------------------------
 *
 * delta_log.h
 *		A Delta Lake table's state from its transaction log: the actions of
 *		each commit (JSON lines), replayed into the protocol, the metadata
 *		and the live data files with their partition values, statistics
 *		and deletion vectors (PROTOCOL.md, "Action Reconciliation").
 *
 * PostgreSQL-free: the caller lists _delta_log, reads the files (local or
 * in a bucket) and hands their bytes over, in version order; everything
 * read is checked here and refused with a reason that quotes none of it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_DELTA_LOG_H
#define PQ_DELTA_LOG_H

#include "format/metadata/schema.h"
#include "table/common/json_tree.h"
#include "table/delta/deletion_vector.h"

/* The highest reader version read (3: table features). */
#define PQ_DELTA_MAX_READER_VERSION 3

typedef struct PqDeltaProtocol
{
	int32		min_reader;
	int32		min_writer;
	int			nfeatures;		/* readerFeatures (reader version 3) */
	char	  **features;
} PqDeltaProtocol;

typedef enum PqDeltaMapping
{
	PQ_DELTA_MAPPING_NONE,
	PQ_DELTA_MAPPING_NAME,
	PQ_DELTA_MAPPING_ID
} PqDeltaMapping;

typedef struct PqDeltaMetadata
{
	char	   *id;
	char	   *schema_string;	/* JSON text of the table's struct type */
	int			npartition;
	char	  **partition;		/* partitionColumns: logical names */
	int			nconfig;
	char	  **config_keys;
	char	  **config_values;
	char	   *provider;		/* format.provider: "parquet" */
	int64		created_time;	/* ms since the epoch; -1 when absent */
} PqDeltaMetadata;

/* A live data file: the add action that put it in the table. */
typedef struct PqDeltaFile
{
	char	   *path;			/* as logged: a URI-encoded relative path or
								 * an absolute URI */
	int			npv;			/* partitionValues, keyed by physical name */
	char	  **pv_keys;
	char	  **pv_values;		/* NULL: null */
	int64		size;
	int64		modification_time;
	char	   *stats;			/* JSON text, or NULL */
	bool		has_dv;
	PqDeltaDv	dv;
	int64		version;		/* the commit that added it */
} PqDeltaFile;

typedef struct PqDeltaSnapshot
{
	int64		version;
	int64		timestamp;		/* of the last commit read: commitInfo's
								 * inCommitTimestamp or timestamp; -1 */
	PqDeltaProtocol protocol;
	PqDeltaMetadata metadata;
	int			nfiles;
	PqDeltaFile *files;			/* sorted by path */
} PqDeltaSnapshot;

/* Replay state: allocated in a context of its own (see create). */
typedef struct PqDeltaReplay PqDeltaReplay;

/* A replay whose memory lives in a new child of the current context. */
extern PqDeltaReplay *pq_delta_replay_create(void);

/*
 * The actions of commit (or checkpoint) version, len bytes of JSON lines,
 * in ascending version order (a checkpoint first, then the commits after
 * it).  False when a line is not a valid action: *line its number (from
 * 1), *why the reason.
 */
extern bool pq_delta_replay_add(PqDeltaReplay *r, int64 version,
								const char *text, size_t len, int64 *line,
								const char **why);

/*
 * The table as of the last version added: files reconciled by path and
 * deletion vector, newest action winning.  False when the log has no
 * protocol or no metadata (*why says which).  The snapshot is allocated
 * in the replay's context, which the caller owns from then on
 * (pq_delta_replay_context).
 */
extern bool pq_delta_replay_finish(PqDeltaReplay *r, PqDeltaSnapshot *out,
								   const char **why);
extern MemoryContext pq_delta_replay_context(PqDeltaReplay *r);

/*
 * The sidecar files a v2 checkpoint's actions named since the last call
 * (their paths as logged, relative to _delta_log/_sidecars), in the
 * replay's context.
 */
extern char **pq_delta_replay_sidecars(PqDeltaReplay *r, int *n);

/*
 * The inCommitTimestamp of a commit (len bytes of JSON lines): its
 * commitInfo's, in ms since the epoch; false when it has none (then the
 * commit file's modification time is the commit's time).
 */
extern bool pq_delta_commit_timestamp(const char *text, size_t len,
									  int64 *ms);

/*
 * What a commit's commitInfo says of it: its time (inCommitTimestamp, else
 * timestamp; -1 when it has neither) and operation (NULL when none), in
 * the current context; false when it has no commitInfo.
 */
extern bool pq_delta_commit_info(const char *text, size_t len, int64 *ms,
								 char **operation);

/*
 * The first reader feature (or version) of protocol that this reader does
 * not support, as text for a message; NULL when it reads the table.
 */
extern const char *pq_delta_unsupported(const PqDeltaProtocol *protocol);

/* The value of configuration key, or NULL. */
extern const char *pq_delta_config(const PqDeltaMetadata *md,
								   const char *key);

/* delta.columnMapping.mode; false with *why for an unknown mode */
extern bool pq_delta_mapping(const PqDeltaMetadata *md, PqDeltaMapping *mode,
							 const char **why);

/*
 * stats.c: a file's statistics (add.stats): its record count and, keyed by
 * physical name (nested objects for struct fields), min and max values
 * (JSON numbers as written, or strings) and null counts; absent parts
 * NULL.  tight: false when deleted rows may widen the bounds.
 */
typedef struct PqDeltaStats
{
	int64		num_records;	/* -1: unknown */
	const PqJv *min_values;
	const PqJv *max_values;
	const PqJv *null_count;
	bool		tight;
} PqDeltaStats;

extern bool pq_delta_stats_parse(const char *json, PqDeltaStats *out,
								 const char **why);

/* schema.c: the top-level fields of a schemaString */
typedef struct PqDeltaField
{
	char	   *name;			/* logical */
	char	   *physical;		/* delta.columnMapping.physicalName, or NULL */
	int64		id;				/* delta.columnMapping.id, or -1 */
	char	   *type;			/* a primitive's name ("long",
								 * "decimal(10,2)"), or "struct", "array",
								 * "map" */
	const PqJv *type_tree;		/* the type as parsed (nested types) */
	bool		nullable;
} PqDeltaField;

typedef struct PqDeltaSchema
{
	int			nfields;
	PqDeltaField *fields;
} PqDeltaSchema;

extern bool pq_delta_parse_schema(const char *schema_string,
								  PqDeltaSchema *out, const char **why);

/*
 * Rename the nested fields of schema (a data file's, copied: the caller's
 * to change) from their physical names to their logical ones, walking the
 * Delta types of its top-level fields (found by physical name) along the
 * Parquet groups: struct fields, list elements, map keys and values.
 */
extern void pq_delta_logical_names(PqSchema *schema, const PqDeltaSchema *ds,
								   PqDeltaMapping mode);

/*
 * The name a field has in the data files (and in partitionValues and
 * stats) under mode.
 */
extern const char *pq_delta_physical_name(const PqDeltaField *f,
										  PqDeltaMapping mode);

/*
 * Percent-decode a logged path (RFC 3986: %XX only); NULL when an escape
 * is malformed or decodes to NUL.
 */
extern char *pq_delta_decode_path(const char *path);

/*
 * The kind of a file of _delta_log by its name: a commit
 * (00000000000000000010.json), a classic checkpoint
 * (...10.checkpoint.parquet), one part of a multi-part checkpoint
 * (...10.checkpoint.0000000001.0000000003.parquet: *part, *parts), a v2
 * checkpoint (...10.checkpoint.<uuid>.json or .parquet), or none of them.
 */
typedef enum PqDeltaLogFile
{
	PQ_DELTA_LOG_OTHER,
	PQ_DELTA_LOG_COMMIT,
	PQ_DELTA_LOG_CHECKPOINT,
	PQ_DELTA_LOG_CHECKPOINT_PART,
	PQ_DELTA_LOG_CHECKPOINT_V2_JSON,
	PQ_DELTA_LOG_CHECKPOINT_V2_PARQUET
} PqDeltaLogFile;

extern PqDeltaLogFile pq_delta_log_file(const char *name, int64 *version,
										int *part, int *parts);

#endif							/* PQ_DELTA_LOG_H */
