/*-------------------------------------------------------------------------
 *
 * delta_log_read.c
 *		A Delta table's _delta_log: listed (commits, checkpoints), its files
 *		read whole (bounded), the version a statement asks for found (by
 *		number or commit time), and that version replayed from its newest
 *		checkpoint (classic, multi-part, v2 with sidecars) and the commits
 *		after it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hashfn.h"
#include "fdw/table/delta_log_read.h"
#include "storage/fd.h"
#include "table/delta/checkpoint.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

/* The largest log file read: Spark's commits are kilobytes to megabytes. */
#define PQFDW_DELTA_MAX_COMMIT ((off_t) 1024 * 1024 * 1024)

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

/* Note a file of _delta_log, by its name, in ll. */
static void
note_log_file(LogListing *ll, const char *name, int64 *maxc, int *maxcp)
{
	int64		v;
	int			part,
				parts;
	PqDeltaLogFile kind = pq_delta_log_file(name, &v, &part, &parts);
	Checkpoint *cp;

	if (kind == PQ_DELTA_LOG_COMMIT)
	{
		if (ll->ncommits == *maxc)
		{
			*maxc *= 2;
			ll->commits = repalloc_huge(ll->commits, sizeof(int64) * *maxc);
		}
		ll->commits[ll->ncommits++] = v;
		return;
	}
	if (kind == PQ_DELTA_LOG_OTHER)
		return;
	if (ll->ncheckpoints == *maxcp)
	{
		*maxcp *= 2;
		ll->checkpoints = repalloc_huge(ll->checkpoints,
										sizeof(Checkpoint) * *maxcp);
	}
	cp = &ll->checkpoints[ll->ncheckpoints++];
	cp->version = v;
	cp->kind = kind;
	cp->part = part;
	cp->parts = parts;
	cp->name = pstrdup(name);
}

/* location's _delta_log, a directory: its files' names into ll */
static void
list_local(const char *location, LogListing *ll, int64 *maxc, int *maxcp)
{
	char	   *dir = psprintf("%s/_delta_log", location);
	DIR		   *d = pqfdw_table_dir_open(dir, PQFDW_FORMAT_DELTA, location,
										 "Option location names the table's directory, the one holding _delta_log.");
	struct dirent *de;

	while ((de = ReadDir(d, dir)) != NULL)
		note_log_file(ll, de->d_name, maxc, maxcp);
	FreeDir(d);
}

/* location's _delta_log, a prefix in a bucket: one listing (per statement) */
static void
list_remote(const char *location, LogListing *ll, int64 *maxc, int *maxcp)
{
	char	   *prefix = psprintf("%s/_delta_log/", location);
	PqListing	listing;
	int			i;

	pqfdw_remote_list(ll->remote, prefix, "/", &listing);
	for (i = 0; i < listing.nobjects; i++)
	{
		const char *key = listing.objects[i].key;

		if (strncmp(key, prefix, strlen(prefix)) == 0 &&
			strchr(key + strlen(prefix), '/') == NULL)
			note_log_file(ll, key + strlen(prefix), maxc, maxcp);
	}
	if (ll->ncommits == 0 && ll->ncheckpoints == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("Delta table \"%s\" does not exist", location),
				 errdetail("No object is below \"%s\".", prefix),
				 errhint("Option location names the table's prefix, the one holding _delta_log/.")));
}

/* The commits and checkpoints in location's _delta_log. */
void
pqfdw_delta_list_log(const char *location, const PqfdwRemoteId *remote,
					 LogListing *ll)
{
	int64		maxc = 64;
	int			maxcp = 8;

	memset(ll, 0, sizeof(*ll));
	ll->latest = -1;
	ll->remote = remote;
	ll->commits = palloc(sizeof(int64) * maxc);
	ll->checkpoints = palloc(sizeof(Checkpoint) * maxcp);
	if (remote != NULL)
		list_remote(location, ll, &maxc, &maxcp);
	else
		list_local(location, ll, &maxc, &maxcp);
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
char *
pqfdw_delta_read_log_file(const LogListing *ll, const char *path, size_t *len)
{
	int			fd;
	struct stat st;
	char	   *buf;
	size_t		done = 0;

	if (ll->remote != NULL)
	{
		int64		size;
		char	   *etag;

		/* the listing's size: the object may hold NULs (a checkpoint) */
		pqfdw_remote_stat(ll->remote, path, &size, &etag);
		buf = pqfdw_remote_read_object(ll->remote, path,
									   PQFDW_DELTA_MAX_COMMIT, false);
		*len = (size_t) size;
		return buf;
	}
	fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
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

void
pqfdw_delta_corrupt(const char *location, const char *why)
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
replay_checkpoint_file(PqDeltaReplay *r, const LogListing *ll,
					   const char *path, int64 version,
					   bool json)
{
	size_t		len;
	char	   *data = pqfdw_delta_read_log_file(ll, path, &len);
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
replay_checkpoint(PqDeltaReplay *r, const LogListing *ll,
				  const char *location, const Checkpoint *cp,
				  int n)
{
	int			i;
	int			nsidecars;
	char	  **sidecars;

	for (i = 0; i < n; i++)
		replay_checkpoint_file(r, ll, psprintf("%s/_delta_log/%s", location,
											   cp[i].name),
							   cp[i].version,
							   cp[i].kind == PQ_DELTA_LOG_CHECKPOINT_V2_JSON);
	sidecars = pq_delta_replay_sidecars(r, &nsidecars);
	for (i = 0; i < nsidecars; i++)
		replay_checkpoint_file(r, ll, psprintf("%s/_delta_log/_sidecars/%s",
											   location, sidecars[i]),
							   cp[0].version, false);
}

/* The earliest version the log can give: its first commit or checkpoint. */
static int64
earliest_version(const LogListing *ll)
{
	int64		v = ll->ncommits > 0 ? ll->commits[0] : PG_INT64_MAX;

	if (ll->ncheckpoints > 0)
		v = Min(v, ll->checkpoints[0].version);
	return v;
}

/*
 * Replay version's state into a snapshot: the newest checkpoint at or
 * before it, then the commits after that.
 */
void
pqfdw_delta_replay(const char *location, const LogListing *ll, int64 version,
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
		pqfdw_delta_corrupt(location, "its _delta_log holds no commit");
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
							 earliest_version(ll))));
		pqfdw_delta_corrupt(location,
							psprintf("its log lacks version " INT64_FORMAT
									 " (versions must be contiguous)", expect));
	}

	if (cp >= 0)
		replay_checkpoint(r, ll, location, &ll->checkpoints[cp], ncp);
	for (i = first; i < ll->ncommits && ll->commits[i] <= version; i++)
	{
		char	   *path = psprintf("%s/_delta_log/%020lld.json", location,
									(long long) ll->commits[i]);
		size_t		len;
		char	   *text = pqfdw_delta_read_log_file(ll, path, &len);

		replay_text(r, path, ll->commits[i], text, len);
		pfree(text);
		pfree(path);
	}
	if (!pq_delta_replay_finish(r, out, &why))
		pqfdw_delta_corrupt(location, why);
}

/* ms since the Unix epoch of t */
static int64
unix_ms(TimestampTz t)
{
	return t / 1000 +
		(int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000;
}

/* When commit version was made: its inCommitTimestamp, else its file's mtime. */
int64
pqfdw_delta_commit_time(const char *location, const LogListing *ll,
						int64 version)
{
	char	   *path = psprintf("%s/_delta_log/%020lld.json", location,
								(long long) version);
	size_t		len;
	char	   *text = pqfdw_delta_read_log_file(ll, path, &len);
	int64		ms;
	struct stat st;

	if (!pq_delta_commit_timestamp(text, len, &ms))
	{
		char	   *op;

		/* in a bucket, commitInfo's timestamp: listings give no times */
		if (ll->remote != NULL)
		{
			if (!pq_delta_commit_info(text, len, &ms, &op) || ms < 0)
				pqfdw_delta_corrupt(location,
									psprintf("commit " INT64_FORMAT " has no commitInfo timestamp",
											 version));
		}
		else if (stat(path, &st) < 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not stat Delta log file \"%s\": %m", path)));
		else
			ms = (int64) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
	}
	pfree(text);
	pfree(path);
	return ms;
}

/*
 * The version at asks for: the option's, the newest committed at or
 * before its time (commit times only grow: a binary search), the latest.
 */
int64
pqfdw_delta_resolve_version(const char *location, const LogListing *ll,
							const PqfdwTableVersion *at)
{
	int64		want;
	int64		lo = 0;
	int64		hi;

	if (at->version >= 0)
		return at->version;
	if (!at->by_time)
		return ll->latest;
	want = unix_ms(at->time);
	hi = ll->ncommits;
	while (lo < hi)
	{
		int64		mid = lo + (hi - lo) / 2;

		if (pqfdw_delta_commit_time(location, ll, ll->commits[mid]) <= want)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Delta table \"%s\" has no version committed at or before %s",
						location, timestamptz_to_str(at->time)),
				 ll->ncommits > 0 ?
				 errhint("Its earliest version in the log, " INT64_FORMAT ", was committed later.",
						 ll->commits[0]) : 0));
	return ll->commits[lo - 1];
}

List *
pqfdw_delta_versions(const char *location, const PqfdwRemoteId *remote)
{
	LogListing	ll;
	List	   *out = NIL;
	int64		i;

	pqfdw_delta_list_log(location, remote, &ll);
	for (i = 0; i < ll.ncommits; i++)
	{
		PqfdwDeltaVersion *v = palloc0(sizeof(PqfdwDeltaVersion));
		char	   *path = psprintf("%s/_delta_log/%020lld.json", location,
									(long long) ll.commits[i]);
		size_t		len;
		char	   *text = pqfdw_delta_read_log_file(&ll, path, &len);

		v->version = ll.commits[i];
		(void) pq_delta_commit_info(text, len, &v->ms, &v->operation);
		pfree(text);
		pfree(path);
		out = lappend(out, v);
	}
	return out;
}

void
pqfdw_delta_version_stamp(const char *location, const LogListing *ll,
						  int64 version, PqfdwDeltaStamp *stamp)
{
	char	   *path = NULL;
	struct stat st;
	int64		i;

	memset(stamp, 0, sizeof(*stamp));
	for (i = 0; i < ll->ncommits; i++)
		if (ll->commits[i] == version)
			path = psprintf("%s/_delta_log/%020lld.json", location,
							(long long) version);
	/* a version of checkpoints only (its commit cleaned up): its first */
	for (i = 0; path == NULL && i < ll->ncheckpoints; i++)
		if (ll->checkpoints[i].version == version)
			path = psprintf("%s/_delta_log/%s", location,
							ll->checkpoints[i].name);
	if (path == NULL)
		return;
	if (ll->remote != NULL)
	{
		int64		size;
		char	   *etag;

		/* as the statement's listing saw it: no request of its own */
		pqfdw_remote_stat(ll->remote, path, &size, &etag);
		stamp->size = size;
		stamp->etag = etag ? hash_bytes((const unsigned char *) etag,
										strlen(etag)) : 0;
		return;
	}
	if (stat(path, &st) < 0)
		return;
	stamp->ino = st.st_ino;
	stamp->size = st.st_size;
	stamp->mtime_ns = (int64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}
