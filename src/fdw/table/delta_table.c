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

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/xact.h"
#include "fdw/table/table_snapshot.h"
#include "storage/fd.h"
#include "table/delta/checkpoint.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

/* The largest commit file read: Spark's are kilobytes to megabytes. */
#define PQFDW_DELTA_MAX_COMMIT ((off_t) 1024 * 1024 * 1024)

typedef struct Checkpoint
{
	int64		version;
	PqDeltaLogFile kind;
	int			part;
	int			parts;
	char	   *name;
} Checkpoint;

typedef struct LogListing
{
	int64		latest;			/* highest commit version, -1: none */
	int64		ncommits;
	int64	   *commits;		/* versions, ascending */
	int			ncheckpoints;
	Checkpoint *checkpoints;	/* by version, then name */
} LogListing;

typedef struct CachedSnapshot
{
	char	   *location;
	int64		want;			/* version asked for, -1: latest */
	int64		latest_seen;	/* the listing's latest when resolved */
	TimestampTz stmt;			/* statement that last checked it */
	TimestampTz xact;
	MemoryContext cxt;
	PqfdwTableSnapshot *snap;
} CachedSnapshot;

static List *cache = NIL;		/* of CachedSnapshot, in TopMemoryContext */

PqfdwTableFormat
pqfdw_table_format(const char *value)
{
	if (pg_strcasecmp(value, "parquet") == 0)
		return PQFDW_FORMAT_PARQUET;
	if (pg_strcasecmp(value, "delta") == 0)
		return PQFDW_FORMAT_DELTA;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for option \"format\": \"%s\"", value),
			 errhint("Give parquet or delta.")));
	return PQFDW_FORMAT_PARQUET;	/* keep compiler quiet */
}

static int
int64_cmp(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return x < y ? -1 : (x > y);
}

static int
checkpoint_cmp(const void *a, const void *b)
{
	const Checkpoint *x = a;
	const Checkpoint *y = b;

	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The commits and checkpoints in location's _delta_log. */
static void
list_log(const char *location, LogListing *ll)
{
	char	   *dir = psprintf("%s/_delta_log", location);
	DIR		   *d = AllocateDir(dir);
	struct dirent *de;
	int64		max = 64;
	int			maxcp = 8;

	memset(ll, 0, sizeof(*ll));
	ll->latest = -1;
	if (d == NULL)
	{
		if (errno == ENOENT || errno == ENOTDIR)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_FILE),
					 errmsg("Delta table \"%s\" does not exist", location),
					 errdetail("Directory \"%s\" does not exist.", dir),
					 errhint("Option location names the table's directory, the one holding _delta_log.")));
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open directory \"%s\": %m", dir)));
	}
	ll->commits = palloc(sizeof(int64) * max);
	ll->checkpoints = palloc(sizeof(Checkpoint) * maxcp);
	while ((de = ReadDir(d, dir)) != NULL)
	{
		int64		v;
		int			part,
					parts;
		PqDeltaLogFile kind = pq_delta_log_file(de->d_name, &v, &part, &parts);

		if (kind == PQ_DELTA_LOG_COMMIT)
		{
			if (ll->ncommits == max)
			{
				max *= 2;
				ll->commits = repalloc_huge(ll->commits, sizeof(int64) * max);
			}
			ll->commits[ll->ncommits++] = v;
		}
		else if (kind != PQ_DELTA_LOG_OTHER)
		{
			Checkpoint *cp;

			if (ll->ncheckpoints == maxcp)
			{
				maxcp *= 2;
				ll->checkpoints = repalloc_huge(ll->checkpoints,
												sizeof(Checkpoint) * maxcp);
			}
			cp = &ll->checkpoints[ll->ncheckpoints++];
			cp->version = v;
			cp->kind = kind;
			cp->part = part;
			cp->parts = parts;
			cp->name = pstrdup(de->d_name);
		}
	}
	FreeDir(d);
	if (ll->ncommits > 0)
	{
		qsort(ll->commits, ll->ncommits, sizeof(int64), int64_cmp);
		ll->latest = ll->commits[ll->ncommits - 1];
	}
	if (ll->ncheckpoints > 1)
		qsort(ll->checkpoints, ll->ncheckpoints, sizeof(Checkpoint),
			  checkpoint_cmp);
	/* a table of checkpoints only (its commits cleaned up) */
	if (ll->ncheckpoints > 0 &&
		ll->checkpoints[ll->ncheckpoints - 1].version > ll->latest)
		ll->latest = ll->checkpoints[ll->ncheckpoints - 1].version;
}

/* The whole of a log file, NUL-terminated; *len its length. */
static char *
read_log_file(const char *path, size_t *len)
{
	int			fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	struct stat st;
	char	   *buf;
	size_t		done = 0;

	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open Delta log file \"%s\": %m", path)));
	if (fstat(fd, &st) < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat Delta log file \"%s\": %m", path)));
	if (!S_ISREG(st.st_mode) || st.st_size > PQFDW_DELTA_MAX_COMMIT)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Delta log file \"%s\" is not a regular file of at most 1 GB",
						path)));
	buf = palloc_extended(st.st_size + 1, MCXT_ALLOC_HUGE);
	while (done < (size_t) st.st_size)
	{
		ssize_t		n = read(fd, buf + done, st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read Delta log file \"%s\": %m", path)));
		if (n == 0)
			break;
		done += n;
	}
	CloseTransientFile(fd);
	buf[done] = '\0';
	*len = done;
	return buf;
}

static void
corrupt_log(const char *location, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("Delta table \"%s\" cannot be read: %s", location, why)));
}

/*
 * The newest complete checkpoint at or before version: a classic one, all
 * parts of a multi-part one, or a v2 one; its first entry in ll, *n its
 * files; -1 when there is none.
 */
static int
choose_checkpoint(const LogListing *ll, int64 version, int *n)
{
	int			i = ll->ncheckpoints - 1;

	while (i >= 0)
	{
		int64		v = ll->checkpoints[i].version;
		int			first = i;

		while (first > 0 && ll->checkpoints[first - 1].version == v)
			first--;
		if (v <= version)
		{
			int			k;

			/* a single-file one, v2 or classic */
			for (k = first; k <= i; k++)
				if (ll->checkpoints[k].kind != PQ_DELTA_LOG_CHECKPOINT_PART)
				{
					*n = 1;
					return k;
				}
			/* parts 1..P of one P, each once (names sort by part) */
			for (k = first; k <= i; k++)
			{
				int			parts = ll->checkpoints[k].parts;
				int			j;

				if (ll->checkpoints[k].part != 1 || k + parts - 1 > i)
					continue;
				for (j = 1; j < parts; j++)
					if (ll->checkpoints[k + j].parts != parts ||
						ll->checkpoints[k + j].part != j + 1)
						break;
				if (j == parts)
				{
					*n = parts;
					return k;
				}
			}
		}
		i = first - 1;
	}
	return -1;
}

static void
replay_text(PqDeltaReplay *r, const char *path, int64 version,
			const char *text, size_t len)
{
	const char *why = NULL;
	int64		line;

	if (!pq_delta_replay_add(r, version, text, len, &line, &why))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid Delta log file \"%s\": %s at line " INT64_FORMAT,
						path, why, line)));
}

/* A checkpoint file (Parquet, or a v2 checkpoint's JSON) into the replay. */
static void
replay_checkpoint_file(PqDeltaReplay *r, const char *path, int64 version,
					   bool json)
{
	size_t		len;
	char	   *data = read_log_file(path, &len);
	PqBuffer	lines;
	PqErrorLocation loc;
	bool		ok;
	const char *why = NULL;

	if (json)
	{
		replay_text(r, path, version, data, len);
		pfree(data);
		return;
	}
	pq_buffer_init(&lines, 4096);
	/* corrupt Parquet: the format layer's ERROR names the file */
	pq_errloc_push(&loc, path);
	ok = pq_delta_checkpoint_json((const uint8 *) data, len, &lines, &why);
	pq_errloc_pop(&loc);
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid Delta checkpoint \"%s\": %s", path, why)));
	pfree(data);
	replay_text(r, path, version, (const char *) lines.data, lines.len);
	pfree(lines.data);
}

static void
replay_checkpoint(PqDeltaReplay *r, const char *location, const Checkpoint *cp,
				  int n)
{
	int			i;
	int			nsidecars;
	char	  **sidecars;

	for (i = 0; i < n; i++)
		replay_checkpoint_file(r, psprintf("%s/_delta_log/%s", location,
										   cp[i].name),
							   cp[i].version,
							   cp[i].kind == PQ_DELTA_LOG_CHECKPOINT_V2_JSON);
	sidecars = pq_delta_replay_sidecars(r, &nsidecars);
	for (i = 0; i < nsidecars; i++)
		replay_checkpoint_file(r, psprintf("%s/_delta_log/_sidecars/%s",
										   location, sidecars[i]),
							   cp[0].version, false);
}

/*
 * Replay version's state into a snapshot: the newest checkpoint at or
 * before it, then the commits after that.
 */
static void
replay(const char *location, const LogListing *ll, int64 version,
	   PqDeltaSnapshot *out, MemoryContext *cxt)
{
	PqDeltaReplay *r = pq_delta_replay_create();
	int			ncp = 0;
	int			cp = choose_checkpoint(ll, version, &ncp);
	int64		start = cp >= 0 ? ll->checkpoints[cp].version + 1 : 0;
	int64		i;
	int64		first;
	int64		expect = start;
	const char *why = NULL;

	*cxt = pq_delta_replay_context(r);
	if (ll->ncommits == 0 && cp < 0)
		corrupt_log(location, "its _delta_log holds no commit");
	if (version > ll->latest)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Delta table \"%s\" has no version " INT64_FORMAT,
						location, version),
				 errhint("Its latest version is " INT64_FORMAT ".", ll->latest)));

	/* every version wanted, before any is read: a gap is a broken log */
	for (first = 0; first < ll->ncommits && ll->commits[first] < start; first++)
		;
	for (i = first; i < ll->ncommits && ll->commits[i] == expect &&
		 expect <= version; i++)
		expect++;
	if (expect <= version)
	{
		if (cp < 0 && (ll->ncommits == 0 || ll->commits[0] > 0))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Delta table \"%s\" cannot be read as of version " INT64_FORMAT ": its log was cleaned up before it",
							location, version),
					 errhint("Its earliest version is " INT64_FORMAT ".",
							 ll->ncommits > 0 ? ll->commits[0] :
							 ll->checkpoints[0].version)));
		corrupt_log(location,
					psprintf("its log lacks version " INT64_FORMAT
							 " (versions must be contiguous)", expect));
	}

	if (cp >= 0)
		replay_checkpoint(r, location, &ll->checkpoints[cp], ncp);
	for (i = first; i < ll->ncommits && ll->commits[i] <= version; i++)
	{
		char	   *path = psprintf("%s/_delta_log/%020lld.json", location,
									(long long) ll->commits[i]);
		size_t		len;
		char	   *text = read_log_file(path, &len);

		replay_text(r, path, ll->commits[i], text, len);
		pfree(text);
		pfree(path);
	}
	if (!pq_delta_replay_finish(r, out, &why))
		corrupt_log(location, why);
}

/* The logged path of a data file as an absolute path. */
static char *
absolute_path(const char *location, const char *logged)
{
	char	   *decoded = pq_delta_decode_path(logged);

	if (decoded == NULL)
		corrupt_log(location, "a data file's path has a malformed escape");
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
build_snapshot(const char *location, const PqDeltaSnapshot *ds)
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
		corrupt_log(location, psprintf("its schema is invalid: %s", why));
	if (!pq_delta_mapping(&ds->metadata, &s->mapping, &why))
		corrupt_log(location, why);
	s->location = pstrdup(location);
	s->version = ds->version;

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
			corrupt_log(location,
						psprintf("partition column \"%s\" is not in its schema",
								 ds->metadata.partition[i]));
		s->keys[i] = pstrdup(pq_delta_physical_name(f, s->mapping));
		s->key_types[i] = f->type;
	}

	s->nfiles = ds->nfiles;
	pf = palloc(sizeof(PathFile) * Max(s->nfiles, 1));
	for (i = 0; i < s->nfiles; i++)
	{
		pf[i].path = absolute_path(location, ds->files[i].path);
		pf[i].file = &ds->files[i];
	}
	if (s->nfiles > 1)
		qsort(pf, s->nfiles, sizeof(PathFile), path_file_cmp);
	s->paths = palloc(sizeof(char *) * Max(s->nfiles, 1));
	s->files = palloc(sizeof(PqDeltaFile *) * Max(s->nfiles, 1));
	for (i = 0; i < s->nfiles; i++)
	{
		if (i > 0 && strcmp(pf[i].path, pf[i - 1].path) == 0)
			corrupt_log(location,
						psprintf("data file \"%s\" is live twice", pf[i].path));
		s->paths[i] = pf[i].path;
		s->files[i] = pf[i].file;
		s->path_list = lappend(s->path_list, pf[i].path);
	}
	return s;
}

/* The cached snapshot of (location, want), or NULL. */
static CachedSnapshot *
cached(const char *location, int64 want)
{
	ListCell   *lc;

	foreach(lc, cache)
	{
		CachedSnapshot *c = lfirst(lc);

		if (c->want == want && strcmp(c->location, location) == 0)
			return c;
	}
	return NULL;
}

const PqfdwTableSnapshot *
pqfdw_delta_snapshot(const char *location, int64 version)
{
	CachedSnapshot *c = cached(location, version);
	TimestampTz stmt = GetCurrentStatementStartTimestamp();
	TimestampTz xact = GetCurrentTransactionStartTimestamp();
	LogListing	ll;
	PqDeltaSnapshot ds;
	MemoryContext cxt;
	MemoryContext old;
	PqfdwTableSnapshot *snap;

	if (c != NULL && c->stmt == stmt && c->xact == xact)
		return c->snap;
	list_log(location, &ll);
	if (c != NULL && c->latest_seen == ll.latest)
	{
		c->stmt = stmt;
		c->xact = xact;
		return c->snap;
	}
	replay(location, &ll, version >= 0 ? version : ll.latest, &ds, &cxt);
	old = MemoryContextSwitchTo(cxt);
	snap = build_snapshot(location, &ds);
	MemoryContextSwitchTo(old);

	/* keep it: the replay's context moves under TopMemoryContext */
	MemoryContextSetParent(cxt, TopMemoryContext);
	if (c == NULL)
	{
		c = MemoryContextAllocZero(TopMemoryContext, sizeof(CachedSnapshot));
		c->location = MemoryContextStrdup(TopMemoryContext, location);
		c->want = version;
		old = MemoryContextSwitchTo(TopMemoryContext);
		cache = lappend(cache, c);
		MemoryContextSwitchTo(old);
	}
	else
		MemoryContextDelete(c->cxt);
	c->cxt = cxt;
	c->snap = snap;
	c->latest_seen = ll.latest;
	c->stmt = stmt;
	c->xact = xact;
	return snap;
}

int
pqfdw_snapshot_file(const PqfdwTableSnapshot *s, const char *path)
{
	int			lo = 0;
	int			hi = s->nfiles - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = strcmp(s->paths[mid], path);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

const char *
pqfdw_snapshot_field_name(const PqfdwTableSnapshot *s, const char *name)
{
	const PqDeltaField *found = NULL;
	int			i;

	for (i = 0; i < s->schema.nfields; i++)
		if (strcmp(s->schema.fields[i].name, name) == 0)
			return pq_delta_physical_name(&s->schema.fields[i], s->mapping);
	for (i = 0; i < s->schema.nfields; i++)
		if (pg_strcasecmp(s->schema.fields[i].name, name) == 0)
		{
			if (found != NULL)
				return NULL;
			found = &s->schema.fields[i];
		}
	return found ? pq_delta_physical_name(found, s->mapping) : NULL;
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
