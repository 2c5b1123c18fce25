/*-------------------------------------------------------------------------
 *
 * delta_table.c
 *		A Delta Lake table's snapshot: _delta_log listed, the commits up to
 *		the version wanted read and replayed (table/delta/), the result
 *		checked (protocol, format, schema) and turned into what the scan
 *		reads: absolute paths, partition values, physical column names.
 *
 * A snapshot is kept per backend, keyed by location and version, and
 * revalidated once per statement by listing _delta_log: a table with no
 * new commit is not read again.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "fdw/table/delta_log_read.h"
#include "utils/memutils.h"

/*
 * A snapshot kept: a version of a table never changes, so (location,
 * version) is its key; which version a statement reads is decided by one
 * listing of _delta_log per statement and table (asked).
 */
typedef struct CachedSnapshot
{
	char	   *location;
	PqfdwRemoteId remote;		/* zero for a directory */
	int64		version;
	PqfdwDeltaStamp stamp;		/* of the version's commit when read */
	MemoryContext cxt;
	PqfdwTableSnapshot *snap;
} CachedSnapshot;

typedef struct Asked
{
	char	   *location;
	PqfdwRemoteId remote;
	PqfdwTableVersion at;
	int64		version;		/* the answer */
	PqfdwDeltaStamp stamp;
} Asked;

#define PQFDW_DELTA_KEPT 8		/* snapshots kept per backend */

static List *cache = NIL;		/* of CachedSnapshot, in TopMemoryContext, the
								 * most recently used first */
static List *asked = NIL;		/* of Asked in this statement */
static TimestampTz asked_stmt = 0;
static TimestampTz asked_xact = 0;

/* The logged path of a data file as an absolute path. */
static char *
absolute_path(const char *location, bool remote, const char *logged)
{
	char	   *decoded = pq_delta_decode_path(logged);

	if (decoded == NULL)
		pqfdw_delta_corrupt(location, "a data file's path has a malformed escape");

	/*
	 * A table in a bucket names its files below its prefix, or by URLs of the
	 * same store; a local table by paths (file: URIs).
	 */
	if (remote)
	{
		const char *sep = strstr(location, "://");

		if (strstr(decoded, "://") == NULL)
			return psprintf("%s/%s", location, decoded);
		if (strncmp(decoded, location, sep - location + 3) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("Delta table \"%s\" names data file \"%s\" in another store, which is not supported",
							location, decoded)));
		return pstrdup(decoded);
	}
	if (strncmp(decoded, "file:", 5) == 0)
	{
		decoded += 5;
		/* file:///x and file:/x */
		if (strncmp(decoded, "//", 2) == 0)
			decoded += 2;
	}
	else if (strstr(decoded, "://") != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Delta table \"%s\" names data file \"%s\" by a URL, which is not supported yet",
						location, decoded)));
	if (decoded[0] == '/')
		return pstrdup(decoded);
	return psprintf("%s/%s", location, decoded);
}

typedef struct PathFile
{
	char	   *path;
	PqDeltaFile *file;
} PathFile;

static int
path_file_cmp(const void *a, const void *b)
{
	return strcmp(((const PathFile *) a)->path, ((const PathFile *) b)->path);
}

/* The key's value in f's partitionValues; NULL: null (or an empty string). */
static const char *
pv_value(const PqDeltaFile *f, const char *key, bool *found)
{
	int			i;

	*found = false;
	for (i = 0; i < f->npv; i++)
		if (strcmp(f->pv_keys[i], key) == 0)
		{
			*found = true;
			return f->pv_values[i] && f->pv_values[i][0] ? f->pv_values[i] : NULL;
		}
	return NULL;
}

static PqfdwTableSnapshot *
build_snapshot(const char *location, bool remote, const PqDeltaSnapshot *ds)
{
	PqfdwTableSnapshot *s = palloc0(sizeof(PqfdwTableSnapshot));
	const char *unsupported = pq_delta_unsupported(&ds->protocol);
	const char *why = NULL;
	PathFile   *pf;
	int			i;

	if (unsupported != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Delta table \"%s\" requires %s, which parquet_fdw does not support",
						location, unsupported)));
	if (ds->metadata.provider != NULL &&
		strcmp(ds->metadata.provider, "parquet") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Delta table \"%s\" stores its data as \"%s\", not Parquet",
						location, ds->metadata.provider)));
	if (!pq_delta_parse_schema(ds->metadata.schema_string, &s->schema, &why))
		pqfdw_delta_corrupt(location, psprintf("its schema is invalid: %s", why));
	if (!pq_delta_mapping(&ds->metadata, &s->mapping, &why))
		pqfdw_delta_corrupt(location, why);
	s->format = PQFDW_FORMAT_DELTA;
	s->location = pstrdup(location);
	s->version = ds->version;
	s->schema_string = ds->metadata.schema_string;
	for (i = 0; i < s->schema.nfields && s->mapping != PQ_DELTA_MAPPING_NONE; i++)
		if (s->schema.fields[i].type_tree->type == PQ_JV_OBJECT)
			s->nested_mapped = true;

	/* partition columns: by their names in the files */
	s->nkeys = ds->metadata.npartition;
	s->keys = palloc(sizeof(char *) * Max(s->nkeys, 1));
	s->key_types = palloc(sizeof(char *) * Max(s->nkeys, 1));
	for (i = 0; i < s->nkeys; i++)
	{
		const PqDeltaField *f = NULL;
		int			k;

		for (k = 0; k < s->schema.nfields; k++)
			if (strcmp(s->schema.fields[k].name, ds->metadata.partition[i]) == 0)
				f = &s->schema.fields[k];
		if (f == NULL)
			pqfdw_delta_corrupt(location,
								psprintf("partition column \"%s\" is not in its schema",
										 ds->metadata.partition[i]));
		s->keys[i] = pstrdup(pq_delta_physical_name(f, s->mapping));
		s->key_types[i] = f->type;
	}

	s->nfiles = ds->nfiles;
	pf = palloc(sizeof(PathFile) * Max(s->nfiles, 1));
	for (i = 0; i < s->nfiles; i++)
	{
		pf[i].path = absolute_path(location, remote, ds->files[i].path);
		pf[i].file = &ds->files[i];
	}
	if (s->nfiles > 1)
		qsort(pf, s->nfiles, sizeof(PathFile), path_file_cmp);
	s->paths = palloc(sizeof(char *) * Max(s->nfiles, 1));
	s->files = palloc(sizeof(PqDeltaFile *) * Max(s->nfiles, 1));
	for (i = 0; i < s->nfiles; i++)
	{
		if (i > 0 && strcmp(pf[i].path, pf[i - 1].path) == 0)
			pqfdw_delta_corrupt(location,
								psprintf("data file \"%s\" is live twice", pf[i].path));
		s->paths[i] = pf[i].path;
		s->files[i] = pf[i].file;
		s->path_list = lappend(s->path_list, pf[i].path);
	}
	return s;
}

/*
 * The kept snapshot of (location, version) whose commit had stamp, made
 * the most recent; NULL.
 */
static CachedSnapshot *
cached(const char *location, const PqfdwRemoteId *remote, int64 version,
	   const PqfdwDeltaStamp *stamp)
{
	ListCell   *lc;

	foreach(lc, cache)
	{
		CachedSnapshot *c = lfirst(lc);

		if (c->version == version && strcmp(c->location, location) == 0 &&
			memcmp(&c->remote, remote, sizeof(PqfdwRemoteId)) == 0 &&
			memcmp(&c->stamp, stamp, sizeof(PqfdwDeltaStamp)) == 0)
		{
			MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

			cache = list_delete_cell(cache, lc);
			cache = lcons(c, cache);
			MemoryContextSwitchTo(old);
			return c;
		}
	}
	return NULL;
}

/* The version of location this statement reads for at, when asked before. */
static Asked *
asked_before(const char *location, const PqfdwRemoteId *remote,
			 const PqfdwTableVersion *at)
{
	ListCell   *lc;

	if (asked_stmt != GetCurrentStatementStartTimestamp() ||
		asked_xact != GetCurrentTransactionStartTimestamp())
	{
		foreach(lc, asked)
			pfree(((Asked *) lfirst(lc))->location);
		list_free_deep(asked);
		asked = NIL;
		asked_stmt = GetCurrentStatementStartTimestamp();
		asked_xact = GetCurrentTransactionStartTimestamp();
	}
	foreach(lc, asked)
	{
		Asked	   *a = lfirst(lc);

		if (strcmp(a->location, location) == 0 &&
			memcmp(&a->remote, remote, sizeof(PqfdwRemoteId)) == 0 &&
			a->at.version == at->version && a->at.by_time == at->by_time &&
			(!at->by_time || a->at.time == at->time))
			return a;
	}
	return NULL;
}

const PqfdwTableSnapshot *
pqfdw_delta_snapshot(const char *location, const PqfdwTableVersion *at,
					 const PqfdwRemoteId *remote)
{
	PqfdwRemoteId none = {InvalidOid, InvalidOid};
	const PqfdwRemoteId *key = remote ? remote : &none;
	Asked	   *a = asked_before(location, key, at);
	CachedSnapshot *c;
	LogListing	ll;
	PqDeltaSnapshot ds;
	MemoryContext cxt;
	MemoryContext old;
	PqfdwTableSnapshot *snap;
	int64		version;
	ListCell   *lc;

	if (a != NULL && (c = cached(location, key, a->version, &a->stamp)) != NULL)
		return c->snap;
	pqfdw_delta_list_log(location, remote, &ll);
	version = pqfdw_delta_resolve_version(location, &ll, at);
	old = MemoryContextSwitchTo(TopMemoryContext);
	a = palloc(sizeof(Asked));
	a->location = pstrdup(location);
	a->remote = *key;
	a->at = *at;
	a->version = version;
	pqfdw_delta_version_stamp(location, &ll, version, &a->stamp);
	asked = lappend(asked, a);
	MemoryContextSwitchTo(old);
	if ((c = cached(location, key, version, &a->stamp)) != NULL)
		return c->snap;

	pqfdw_delta_replay(location, &ll, version, &ds, &cxt);
	old = MemoryContextSwitchTo(cxt);
	snap = build_snapshot(location, remote != NULL, &ds);
	MemoryContextSwitchTo(old);

	/* keep it: the replay's context moves under TopMemoryContext */
	MemoryContextSetParent(cxt, TopMemoryContext);
	foreach(lc, cache)
	{
		CachedSnapshot *k = lfirst(lc);

		if (strcmp(k->location, location) == 0 &&
			memcmp(&k->remote, key, sizeof(PqfdwRemoteId)) == 0 &&
			strcmp(k->snap->schema_string, snap->schema_string) != 0)
			pqfdw_table_schema_generation++;
	}
	old = MemoryContextSwitchTo(TopMemoryContext);
	if (list_length(cache) >= PQFDW_DELTA_KEPT)
	{
		c = llast(cache);
		cache = list_delete_last(cache);
		MemoryContextDelete(c->cxt);
		pfree(c->location);
		pfree(c);
	}
	c = palloc0(sizeof(CachedSnapshot));
	c->location = pstrdup(location);
	c->remote = *key;
	c->version = version;
	c->stamp = a->stamp;
	c->cxt = cxt;
	c->snap = snap;
	cache = lcons(c, cache);
	MemoryContextSwitchTo(old);
	return snap;
}

const char *
pqfdw_snapshot_partition_value(const PqfdwTableSnapshot *s, int file, int key)
{
	bool		found;
	const char *v = pv_value(s->files[file], s->keys[key], &found);

	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("Delta table \"%s\" gives data file \"%s\" no value of partition column \"%s\"",
						s->location, s->paths[file], s->keys[key])));
	if (v == NULL)
		return NULL;

	/*
	 * A timestamp without a zone is UTC (as delta-kernel reads it); with
	 * "+00" the declared type's input function reads it so in any TimeZone.
	 */
	if (strcmp(s->key_types[key], "timestamp") == 0 &&
		strpbrk(v, "Z+") == NULL)
		return psprintf("%s+00", v);
	return v;
}
