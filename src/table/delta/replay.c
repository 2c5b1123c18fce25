/*-------------------------------------------------------------------------
 *
 * replay.c
 *		Delta Lake log replay: the actions of each commit, in version
 *		order, reconciled into the table's protocol, metadata and live
 *		files.
 *
 * A logical file is its path with its deletion vector's unique id (an
 * update that deletes rows removes (path, old vector) and adds (path, new
 * vector) in one commit).  Every add and remove is kept with its version
 * and place, then sorted by (path, vector, version, place): the last action
 * of each file decides whether it is live.  The newest protocol and
 * metadata win.  Each line is parsed in a context reset after it, so a
 * log of many commits costs the size of its live state.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "table/common/json_tree.h"
#include "table/delta/delta_log.h"
#include "utils/memutils.h"

/* Longest line (one action) read; Spark's are kilobytes. */
#define PQ_DELTA_MAX_LINE ((size_t) 256 * 1024 * 1024)

typedef struct FileAction
{
	char	   *path;
	char	   *dv_id;			/* "" without a deletion vector */
	int64		version;
	int64		place;			/* order of reading */
	PqDeltaFile *add;			/* NULL: a remove */
} FileAction;

struct PqDeltaReplay
{
	MemoryContext cxt;
	MemoryContext line_cxt;
	bool		has_protocol;
	bool		has_metadata;
	PqDeltaProtocol protocol;
	PqDeltaMetadata metadata;
	int64		version;
	int64		timestamp;
	FileAction *actions;
	int64		nactions;
	int64		maxactions;
	char	  **sidecars;
	int			nsidecars;
	int			maxsidecars;
};

PqDeltaReplay *
pq_delta_replay_create(void)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "parquet_fdw Delta log replay",
											  ALLOCSET_DEFAULT_SIZES);
	PqDeltaReplay *r = MemoryContextAllocZero(cxt, sizeof(PqDeltaReplay));

	r->cxt = cxt;
	r->line_cxt = AllocSetContextCreate(cxt, "parquet_fdw Delta log line",
										ALLOCSET_DEFAULT_SIZES);
	r->version = -1;
	r->timestamp = -1;
	return r;
}

MemoryContext
pq_delta_replay_context(PqDeltaReplay *r)
{
	return r->cxt;
}

/* A copy in the replay's context of string s, or NULL. */
static char *
keep(PqDeltaReplay *r, const char *s)
{
	return s ? MemoryContextStrdup(r->cxt, s) : NULL;
}

/* Member name of o as a string: required (NULL is refused) or optional. */
static bool
string_member(const PqJv *o, const char *name, bool required,
			  const char **out, const char **why)
{
	const PqJv *v = pq_jv_get(o, name);

	*out = NULL;
	if (v == NULL || v->type == PQ_JV_NULL)
	{
		if (required)
			*why = psprintf("an action lacks its member \"%s\"", name);
		return !required;
	}
	if (v->type != PQ_JV_STRING)
	{
		*why = psprintf("member \"%s\" of an action is not a string", name);
		return false;
	}
	*out = v->u.str;
	return true;
}

/* Member name of o as an integer; *out = dflt when absent or null. */
static bool
int_member(const PqJv *o, const char *name, bool required, int64 dflt,
		   int64 *out, const char **why)
{
	const PqJv *v = pq_jv_get(o, name);

	*out = dflt;
	if (v == NULL || v->type == PQ_JV_NULL)
	{
		if (required)
			*why = psprintf("an action lacks its member \"%s\"", name);
		return !required;
	}
	if (!pq_jv_int64(v, out))
	{
		*why = psprintf("member \"%s\" of an action is not a 64-bit integer",
						name);
		return false;
	}
	return true;
}

/* An array of strings (NULL and absent: none) kept in the replay's context. */
static bool
string_array(PqDeltaReplay *r, const PqJv *o, const char *name, int *n,
			 char ***out, const char **why)
{
	const PqJv *v = pq_jv_get(o, name);
	uint32		i;

	*n = 0;
	*out = NULL;
	if (v == NULL || v->type == PQ_JV_NULL)
		return true;
	if (v->type != PQ_JV_ARRAY)
	{
		*why = psprintf("member \"%s\" of an action is not an array", name);
		return false;
	}
	*out = MemoryContextAlloc(r->cxt, sizeof(char *) * Max(v->len, 1));
	for (i = 0; i < v->len; i++)
	{
		if (v->u.items[i].type != PQ_JV_STRING)
		{
			*why = psprintf("an element of \"%s\" is not a string", name);
			return false;
		}
		(*out)[i] = keep(r, v->u.items[i].u.str);
	}
	*n = v->len;
	return true;
}

/* A map of strings to strings or nulls (absent: empty). */
static bool
string_map(PqDeltaReplay *r, const PqJv *o, const char *name, int *n,
		   char ***keys, char ***values, const char **why)
{
	const PqJv *v = pq_jv_get(o, name);
	uint32		i;

	*n = 0;
	*keys = *values = NULL;
	if (v == NULL || v->type == PQ_JV_NULL)
		return true;
	if (v->type != PQ_JV_OBJECT)
	{
		*why = psprintf("member \"%s\" of an action is not an object", name);
		return false;
	}
	*keys = MemoryContextAlloc(r->cxt, sizeof(char *) * Max(v->len, 1));
	*values = MemoryContextAlloc(r->cxt, sizeof(char *) * Max(v->len, 1));
	for (i = 0; i < v->len; i++)
	{
		const PqJv *e = &v->u.members[i].value;

		if (e->type != PQ_JV_STRING && e->type != PQ_JV_NULL)
		{
			*why = psprintf("a value of \"%s\" is neither a string nor null",
							name);
			return false;
		}
		(*keys)[i] = keep(r, v->u.members[i].name);
		(*values)[i] = e->type == PQ_JV_STRING ? keep(r, e->u.str) : NULL;
	}
	*n = v->len;
	return true;
}

static bool
read_protocol(PqDeltaReplay *r, const PqJv *a, const char **why)
{
	PqDeltaProtocol p;
	int64		v;

	memset(&p, 0, sizeof(p));
	if (!int_member(a, "minReaderVersion", true, 0, &v, why))
		return false;
	if (v < 1 || v > PG_INT32_MAX)
	{
		*why = "minReaderVersion is out of range";
		return false;
	}
	p.min_reader = (int32) v;
	if (!int_member(a, "minWriterVersion", false, 0, &v, why))
		return false;
	p.min_writer = (int32) Min(Max(v, 0), PG_INT32_MAX);
	if (!string_array(r, a, "readerFeatures", &p.nfeatures, &p.features, why))
		return false;
	r->protocol = p;
	r->has_protocol = true;
	return true;
}

static bool
read_metadata(PqDeltaReplay *r, const PqJv *a, const char **why)
{
	PqDeltaMetadata m;
	const char *s;
	const PqJv *format;

	memset(&m, 0, sizeof(m));
	if (!string_member(a, "id", false, &s, why))
		return false;
	m.id = keep(r, s);
	if (!string_member(a, "schemaString", true, &s, why))
		return false;
	m.schema_string = keep(r, s);
	if (!string_array(r, a, "partitionColumns", &m.npartition, &m.partition,
					  why) ||
		!string_map(r, a, "configuration", &m.nconfig, &m.config_keys,
					&m.config_values, why) ||
		!int_member(a, "createdTime", false, -1, &m.created_time, why))
		return false;
	format = pq_jv_get(a, "format");
	if (format != NULL && format->type == PQ_JV_OBJECT)
	{
		if (!string_member(format, "provider", false, &s, why))
			return false;
		m.provider = keep(r, s);
	}
	r->metadata = m;
	r->has_metadata = true;
	return true;
}

static bool
read_dv(const PqJv *a, PqDeltaReplay *r, PqDeltaDv *dv, const char **why)
{
	const PqJv *o = pq_jv_get(a, "deletionVector");
	const char *s;

	if (o == NULL || o->type == PQ_JV_NULL)
		return true;
	if (o->type != PQ_JV_OBJECT)
	{
		*why = "member \"deletionVector\" of an action is not an object";
		return false;
	}
	if (!string_member(o, "storageType", true, &s, why))
		return false;
	if (strlen(s) != 1 || strchr("uip", s[0]) == NULL)
	{
		*why = "a deletion vector's storageType is not u, i or p";
		return false;
	}
	dv->storage_type = s[0];
	if (!string_member(o, "pathOrInlineDv", true, &s, why))
		return false;
	dv->path_or_inline = keep(r, s);
	if (!int_member(o, "offset", false, -1, &dv->offset, why) ||
		!int_member(o, "sizeInBytes", true, 0, &dv->size_in_bytes, why) ||
		!int_member(o, "cardinality", true, 0, &dv->cardinality, why))
		return false;
	return true;
}

/* The unique id of a file's deletion vector: type, path or data, offset. */
static char *
dv_id(PqDeltaReplay *r, const PqDeltaDv *dv, bool has)
{
	if (!has)
		return "";
	if (dv->offset >= 0)
		return MemoryContextStrdup(r->cxt,
								   psprintf("%c%s@" INT64_FORMAT,
											dv->storage_type,
											dv->path_or_inline, dv->offset));
	return MemoryContextStrdup(r->cxt, psprintf("%c%s", dv->storage_type,
												dv->path_or_inline));
}

static FileAction *
new_action(PqDeltaReplay *r)
{
	if (r->nactions == r->maxactions)
	{
		int64		n = Max(64, r->maxactions * 2);

		if ((Size) n * sizeof(FileAction) > MaxAllocHugeSize)
			elog(ERROR, "too many actions in a Delta log");
		r->actions = r->actions == NULL ?
			MemoryContextAllocHuge(r->cxt, n * sizeof(FileAction)) :
			repalloc_huge(r->actions, n * sizeof(FileAction));
		r->maxactions = n;
	}
	return &r->actions[r->nactions++];
}

static bool
read_file_action(PqDeltaReplay *r, const PqJv *a, int64 version, bool add,
				 const char **why)
{
	FileAction *fa;
	PqDeltaFile *f = MemoryContextAllocZero(r->cxt, sizeof(PqDeltaFile));
	const char *s;

	if (!string_member(a, "path", true, &s, why))
		return false;
	if (*s == '\0')
	{
		*why = "an action's path is empty";
		return false;
	}
	f->path = keep(r, s);
	f->version = version;
	f->dv.offset = -1;
	if (!read_dv(a, r, &f->dv, why))
		return false;
	f->has_dv = pq_jv_get(a, "deletionVector") != NULL &&
		pq_jv_get(a, "deletionVector")->type == PQ_JV_OBJECT;
	if (add)
	{
		if (!string_map(r, a, "partitionValues", &f->npv, &f->pv_keys,
						&f->pv_values, why) ||
			!int_member(a, "size", true, 0, &f->size, why) ||
			!int_member(a, "modificationTime", false, 0,
						&f->modification_time, why) ||
			!string_member(a, "stats", false, &s, why))
			return false;
		if (f->size < 0)
		{
			*why = "an add action's size is negative";
			return false;
		}
		f->stats = keep(r, s);
	}
	fa = new_action(r);
	fa->path = f->path;
	fa->dv_id = dv_id(r, &f->dv, f->has_dv);
	fa->version = version;
	fa->place = r->nactions;
	fa->add = add ? f : NULL;
	if (!add)
		pfree(f);
	return true;
}

static bool
read_commit_info(PqDeltaReplay *r, const PqJv *a, const char **why)
{
	int64		ts;

	if (!int_member(a, "inCommitTimestamp", false, -1, &ts, why))
		return false;
	if (ts < 0 && !int_member(a, "timestamp", false, -1, &ts, why))
		return false;
	r->timestamp = ts;
	return true;
}

/* A v2 checkpoint's sidecar: its path, for the caller to read. */
static bool
read_sidecar(PqDeltaReplay *r, const PqJv *a, const char **why)
{
	const char *path;

	if (!string_member(a, "path", true, &path, why))
		return false;
	if (*path == '\0' || strstr(path, "..") != NULL)
	{
		*why = "a sidecar's path is empty or leaves _delta_log/_sidecars";
		return false;
	}
	if (r->nsidecars == r->maxsidecars)
	{
		int			n = Max(8, r->maxsidecars * 2);

		if (n > 1000000)
		{
			*why = "a checkpoint names more than a million sidecars";
			return false;
		}
		r->sidecars = r->sidecars == NULL ?
			MemoryContextAlloc(r->cxt, sizeof(char *) * n) :
			repalloc(r->sidecars, sizeof(char *) * n);
		r->maxsidecars = n;
	}
	r->sidecars[r->nsidecars++] = keep(r, path);
	return true;
}

char	  **
pq_delta_replay_sidecars(PqDeltaReplay *r, int *n)
{
	char	  **list = r->sidecars;

	*n = r->nsidecars;
	r->sidecars = NULL;
	r->nsidecars = r->maxsidecars = 0;
	return list;
}

static bool
read_action(PqDeltaReplay *r, const PqJv *line, int64 version,
			const char **why)
{
	uint32		i;

	if (line->type != PQ_JV_OBJECT)
	{
		*why = "a line is not a JSON object";
		return false;
	}
	for (i = 0; i < line->len; i++)
	{
		const char *name = line->u.members[i].name;
		const PqJv *a = &line->u.members[i].value;

		if (a->type == PQ_JV_NULL)
			continue;
		if (a->type != PQ_JV_OBJECT)
		{
			*why = psprintf("action \"%s\" is not a JSON object",
							strlen(name) < 64 ? name : "(long name)");
			return false;
		}
		if (strcmp(name, "add") == 0 || strcmp(name, "remove") == 0)
		{
			if (!read_file_action(r, a, version, name[0] == 'a', why))
				return false;
		}
		else if (strcmp(name, "protocol") == 0)
		{
			if (!read_protocol(r, a, why))
				return false;
		}
		else if (strcmp(name, "metaData") == 0)
		{
			if (!read_metadata(r, a, why))
				return false;
		}
		else if (strcmp(name, "commitInfo") == 0)
		{
			if (!read_commit_info(r, a, why))
				return false;
		}
		else if (strcmp(name, "sidecar") == 0)
		{
			if (!read_sidecar(r, a, why))
				return false;
		}

		/*
		 * txn, cdc, domainMetadata, checkpointMetadata: nothing a reader of
		 * the table's rows needs
		 */
	}
	return true;
}

bool
pq_delta_replay_add(PqDeltaReplay *r, int64 version, const char *text,
					size_t len, int64 *line, const char **why)
{
	size_t		start = 0;
	MemoryContext old;
	bool		ok = true;

	*line = 0;
	if (version < r->version)
	{
		*why = "versions were given out of order";
		return false;
	}
	r->version = version;
	old = MemoryContextSwitchTo(r->line_cxt);
	while (ok && start < len)
	{
		const char *nl = memchr(text +start, '\n', len - start);
		size_t		end = nl ? (size_t) (nl - text) : len;
		size_t		n = end - start;
		PqJv	   *jv;

		(*line)++;
		while (n > 0 && (text[start + n - 1] == '\r' ||
						 text[start + n - 1] == ' '))
			n--;
		if (n > PQ_DELTA_MAX_LINE)
		{
			*why = "a line is longer than 256 MB";
			ok = false;
		}
		else if (n > 0)
		{
			jv = pq_jv_parse(text +start, n, why);
			ok = jv != NULL && read_action(r, jv, version, why);
		}
		if (!ok)
			*why = MemoryContextStrdup(r->cxt, *why ? *why : "malformed");
		MemoryContextReset(r->line_cxt);
		start = end + 1;
	}
	MemoryContextSwitchTo(old);
	return ok;
}

static int
action_cmp(const void *a, const void *b)
{
	const FileAction *x = a;
	const FileAction *y = b;
	int			c = strcmp(x->path, y->path);

	if (c != 0)
		return c;
	if ((c = strcmp(x->dv_id, y->dv_id)) != 0)
		return c;
	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	return x->place < y->place ? -1 : (x->place > y->place);
}

static int
file_cmp(const void *a, const void *b)
{
	return strcmp(((const PqDeltaFile *) a)->path,
				  ((const PqDeltaFile *) b)->path);
}

/* Whether sorted action i is the last (the newest) of its logical file. */
static bool
last_of_file(PqDeltaReplay *r, int64 i)
{
	return i + 1 == r->nactions ||
		strcmp(r->actions[i].path, r->actions[i + 1].path) != 0 ||
		strcmp(r->actions[i].dv_id, r->actions[i + 1].dv_id) != 0;
}

bool
pq_delta_replay_finish(PqDeltaReplay *r, PqDeltaSnapshot *out,
					   const char **why)
{
	int64		i;
	int64		n = 0;

	memset(out, 0, sizeof(*out));
	if (!r->has_protocol)
	{
		*why = "the log has no protocol action";
		return false;
	}
	if (!r->has_metadata)
	{
		*why = "the log has no metaData action";
		return false;
	}
	if (r->nactions > 0)
		qsort(r->actions, r->nactions, sizeof(FileAction), action_cmp);
	for (i = 0; i < r->nactions; i++)
		if (last_of_file(r, i) && r->actions[i].add != NULL)
			n++;
	if (n > PG_INT32_MAX / 2)
	{
		*why = "the table has too many files";
		return false;
	}
	out->version = r->version;
	out->timestamp = r->timestamp;
	out->protocol = r->protocol;
	out->metadata = r->metadata;
	out->files = MemoryContextAllocHuge(r->cxt,
										sizeof(PqDeltaFile) * Max(n, 1));
	for (i = 0; i < r->nactions; i++)
		if (last_of_file(r, i) && r->actions[i].add != NULL)
			out->files[out->nfiles++] = *r->actions[i].add;
	if (out->nfiles > 1)
		qsort(out->files, out->nfiles, sizeof(PqDeltaFile), file_cmp);
	return true;
}
