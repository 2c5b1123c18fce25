/*-------------------------------------------------------------------------
 *
 * file_list.c
 *		The files of the filename option.
 *
 * filename is a comma-separated list of absolute paths, each a file, a
 * directory (every *.parquet file below it, at any depth) or a glob, in
 * which "**" as a whole path segment stands for any number of directories
 * (a pattern of /data, ** and *.parquet is a directory tree too).  Below a
 * directory and under "**", names starting with "." or "_" are skipped,
 * files and directories alike, as Spark, Hive and DuckDB readers skip
 * _SUCCESS, _temporary, .crc files and our own COPY's temporary files, but
 * never a key=value folder.  Only regular files are read: anything else a
 * walk finds is skipped, and one named or matched is refused when opened
 * (source.c).  The files of each item come sorted by path, so a table
 * reads them in a stable order.
 *
 * adjust/parquet_fdw, which has the same extension name, took a list of
 * paths separated by spaces, a path with spaces in double quotes.  A value
 * is read that way when it has no comma outside double quotes, holds two
 * or more paths or a quoted one, each an absolute path, and is not itself
 * the path of an existing file or directory: a single path with spaces in
 * it ("/data/my files/x.parquet") stays one path, as before.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fnmatch.h>
#include <glob.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "access/xact.h"
#include "fdw/common/dir_cache.h"
#include "fdw/common/file_list.h"
#include "fdw/common/table_options.h"
#include "fdw/keys/keys.h"
#include "fdw/remote/remote.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

/* Directory levels walked at most (a symlink cycle ends here). */
#define MAX_DEPTH 64
/* "**" segments a pattern may hold (each multiplies the matching work). */
#define MAX_STARSTAR 4

/* levels of a prefix walked one at a time; below, one listing each */
#define MAX_PARTITION_LEVELS 16

static int
path_cmp(const ListCell *a, const ListCell *b)
{
	return strcmp((const char *) lfirst(a), (const char *) lfirst(b));
}

static bool
has_glob_chars(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static bool
ends_with_parquet(const char *name)
{
	size_t		len = strlen(name);

	return len > 8 && strcmp(name + len - 8, ".parquet") == 0;
}

/*
 * Spark's rule: names starting with "." are hidden, and so are names
 * starting with "_" unless they hold "=", since "_t=0" is the folder of a
 * partition column named _t, not a _SUCCESS or _temporary.
 */
bool
pqfdw_hidden_name(const char *name)
{
	return name[0] == '.' || (name[0] == '_' && strchr(name, '=') == NULL);
}

/*
 * A walk of a directory tree: every regular file below it that keep()
 * accepts, in the order of their paths unless an entry's type had to be
 * found with stat() (then sorted is cleared).  Unreadable subdirectories
 * are errors: a table that silently lost a partition would return wrong
 * rows.
 *
 * Each directory is listed once, by device and inode: a symbolic link to a
 * directory already walked (a "latest" link to a partition, a loop) adds
 * nothing, where following it would return rows twice or, with links to
 * links, exponentially often.  Linked directories are walked after the
 * whole tree of real ones, so that a file is found under its real path,
 * whose folder names are its partition values.
 */
typedef struct WalkEntry
{
	char	   *path;
	const char *sub;			/* the tail of path below the walk's top */
	PqfdwDirentKind kind;
} WalkEntry;

typedef struct DirId
{
	uint64		device;
	uint64		inode;
} DirId;

typedef struct Walk
{
	bool		(*keep) (const char *rel, void *arg);
	void	   *arg;
	List	   *out;
	bool		sorted;
	HTAB	   *seen;			/* DirId of each directory listed */
	List	   *linked;			/* WalkEntry * of linked directories to walk */
	List	   *linked_depth;	/* their depths */
	const PqfdwPrefixFilter *filter;	/* or NULL */
	List	   *excluded;		/* WalkEntry * of directories it ruled out */
} Walk;

/*
 * Whether the filter rules out a key=value directory.  Only such a
 * directory can: one without "=" adds no partition value to the files
 * below it, so its parent's verdict (kept) holds for it.
 */
static bool
excluded_dir(Walk *w, WalkEntry *e)
{
	const char *slash = strrchr(e->path, '/');
	char	   *dir_url;
	bool		keep;

	if (w->filter == NULL || strchr(slash ? slash + 1 : e->path, '=') == NULL)
		return false;
	dir_url = psprintf("%s/", e->path);
	keep = w->filter->may_match(dir_url, w->filter->arg);
	pfree(dir_url);
	if (!keep)
		w->excluded = lappend(w->excluded, e);
	return !keep;
}

static void
walk_dir(Walk *w, const char *dir, const char *rel, int depth)
{
	const PqfdwDirListing *listing;
	WalkEntry  *entries;
	size_t		dirlen = strlen(dir);
	size_t		sub_at;
	DirId		id;
	bool		found;
	int			n = 0;
	int			i;

	CHECK_FOR_INTERRUPTS();
	if (depth > MAX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("directory \"%s\" is nested more than %d levels deep",
						dir, MAX_DEPTH)));

	/* copied first: listing the subdirectories may replace this listing */
	listing = pqfdw_dir_listing(dir);
	id.device = listing->device;
	id.inode = listing->inode;
	(void) hash_search(w->seen, &id, HASH_ENTER, &found);
	if (found)
		return;
	entries = palloc(sizeof(WalkEntry) * Max(listing->n, 1));

	/*
	 * dir ends with "/" rel, so an entry's relative path is a tail of its
	 * path: one allocation per entry (two psprintf calls each were a quarter
	 * of planning a 10,000-file table).
	 */
	sub_at = rel[0] ? dirlen - strlen(rel) : dirlen + 1;
	for (i = 0; i < listing->n; i++)
	{
		const PqfdwDirEntry *e = &listing->entries[i];
		size_t		namelen;
		char	   *path;

		if (pqfdw_hidden_name(e->name))
			continue;
		namelen = strlen(e->name);
		path = palloc(dirlen + namelen + 2);
		memcpy(path, dir, dirlen);
		path[dirlen] = '/';
		memcpy(path + dirlen + 1, e->name, namelen + 1);
		entries[n].path = path;
		entries[n].sub = path + sub_at;
		entries[n++].kind = e->kind;
	}
	for (i = 0; i < n; i++)
	{
		WalkEntry  *e = &entries[i];
		struct stat st;

		if (e->kind == PQFDW_DIRENT_DIR)
		{
			if (!excluded_dir(w, e))
				walk_dir(w, e->path, e->sub, depth + 1);
		}
		else if (e->kind == PQFDW_DIRENT_FILE)
		{
			if (w->keep(e->sub, w->arg))
				w->out = lappend(w->out, e->path);
		}
		else if (stat(e->path, &st) != 0)
			continue;			/* removed meanwhile, or a dangling link */
		else if (S_ISDIR(st.st_mode))
		{
			if (excluded_dir(w, e))
				continue;
			w->linked = lappend(w->linked, e);
			w->linked_depth = lappend_int(w->linked_depth, depth + 1);
		}
		else if (S_ISREG(st.st_mode) && w->keep(e->sub, w->arg))
		{
			w->out = lappend(w->out, e->path);
			w->sorted = false;
		}
	}
}

/*
 * The first file keep() accepts below dir (top_len: the length of the
 * walk's top in its paths), or NULL; symbolic links are not followed.
 */
static char *
first_kept_below(Walk *w, const char *dir, size_t top_len, int depth)
{
	const PqfdwDirListing *listing = pqfdw_dir_listing(dir);
	int			n = listing->n;
	char	  **paths = palloc(sizeof(char *) * Max(n, 1));
	bool	   *is_dir = palloc(sizeof(bool) * Max(n, 1));
	int			i;

	CHECK_FOR_INTERRUPTS();
	if (depth > MAX_DEPTH)
		return NULL;
	/* copied first: listing a subdirectory may replace this listing */
	for (i = 0; i < n; i++)
	{
		const PqfdwDirEntry *e = &listing->entries[i];

		paths[i] = pqfdw_hidden_name(e->name) || e->kind == PQFDW_DIRENT_OTHER ?
			NULL : psprintf("%s/%s", dir, e->name);
		is_dir[i] = e->kind == PQFDW_DIRENT_DIR;
	}
	for (i = 0; i < n; i++)
	{
		char	   *found;

		if (paths[i] == NULL)
			continue;
		if (!is_dir[i])
			found = w->keep(paths[i] + top_len, w->arg) ? paths[i] : NULL;
		else
			found = first_kept_below(w, paths[i], top_len, depth + 1);
		if (found)
			return found;
	}
	return NULL;
}

/*
 * A walk with a filter: directories it rules out are neither listed nor
 * stat()ed.  When it rules out every file, one file of a ruled-out
 * directory stands for them, so that the plan prunes that file by its
 * partition values (an empty result) where an empty directory is an
 * error; without one, the caller's listing without the filter decides.
 */
static void
walk(const char *dir, bool (*keep) (const char *rel, void *arg), void *arg,
	 const PqfdwPrefixFilter *filter, List **out, bool *sorted)
{
	Walk		w;
	HASHCTL		ctl;
	ListCell   *lc;
	int			i;

	memset(&w, 0, sizeof(w));
	w.keep = keep;
	w.arg = arg;
	w.filter = filter;
	w.out = *out;
	w.sorted = *sorted;
	ctl.keysize = sizeof(DirId);
	ctl.entrysize = sizeof(DirId);
	ctl.hcxt = CurrentMemoryContext;
	w.seen = hash_create("parquet_fdw directories walked", 64, &ctl,
						 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	walk_dir(&w, dir, "", 0);
	/* walking a linked directory may find more links: the list grows */
	for (i = 0; i < list_length(w.linked); i++)
	{
		WalkEntry  *e = list_nth(w.linked, i);

		walk_dir(&w, e->path, e->sub, list_nth_int(w.linked_depth, i));
		w.sorted = false;
	}
	foreach(lc, w.excluded)
	{
		WalkEntry  *e = lfirst(lc);
		char	   *found;

		if (list_length(w.out) > list_length(*out))
			break;
		found = first_kept_below(&w, e->path, e->sub - e->path, 0);
		if (found)
			w.out = lappend(w.out, found);
	}
	hash_destroy(w.seen);
	*out = w.out;
	*sorted = w.sorted;
}

static bool
keep_parquet(const char *rel, void *arg)
{
	const char *slash = strrchr(rel, '/');

	return ends_with_parquet(slash ? slash + 1 : rel);
}

/* The segments of a "/"-separated path (empty segments dropped). */
static List *
segments(const char *path)
{
	List	   *out = NIL;
	char	   *copy = pstrdup(path);
	char	   *tok;
	char	   *save;

	for (tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save))
		out = lappend(out, tok);
	return out;
}

/* Whether name segments [n, ...) match pattern segments [p, ...). */
static bool
match_from(List *pat, int p, List *name, int n)
{
	if (p == list_length(pat))
		return n == list_length(name);
	if (strcmp(list_nth(pat, p), "**") == 0)
	{
		int			i;

		for (i = n; i <= list_length(name); i++)
			if (match_from(pat, p + 1, name, i))
				return true;
		return false;
	}
	return n < list_length(name) &&
		fnmatch(list_nth(pat, p), list_nth(name, n), FNM_PERIOD) == 0 &&
		match_from(pat, p + 1, name, n + 1);
}

static bool
keep_matching(const char *rel, void *arg)
{
	return match_from((List *) arg, 0, segments(rel), 0);
}

/*
 * A glob with "**": walk the tree below its longest prefix without
 * wildcards and keep what the remaining segments match.
 */
static List *
expand_starstar(const char *pattern, const PqfdwPrefixFilter *filter,
				bool *sorted)
{
	List	   *segs = segments(pattern);
	StringInfoData base;
	List	   *rest = NIL;
	List	   *result = NIL;
	ListCell   *lc;
	int			starstar = 0;
	struct stat st;

	initStringInfo(&base);
	foreach(lc, segs)
	{
		char	   *seg = lfirst(lc);

		if (rest == NIL && !has_glob_chars(seg))
		{
			appendStringInfo(&base, "/%s", seg);
			continue;
		}
		if (strstr(seg, "**") != NULL && strcmp(seg, "**") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
					 errmsg("\"**\" must be a whole path segment in \"%s\"", pattern),
					 errhint("Write /data/**/*.parquet for every *.parquet file below /data.")));
		starstar += strcmp(seg, "**") == 0;
		rest = lappend(rest, seg);
	}
	if (starstar > MAX_STARSTAR)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
				 errmsg("pattern \"%s\" has more than %d \"**\" segments",
						pattern, MAX_STARSTAR)));
	if (base.len == 0)
		appendStringInfoChar(&base, '/');
	if (stat(base.data, &st) != 0 || !S_ISDIR(st.st_mode))
		return NIL;
	walk(base.data, keep_matching, rest, filter, &result, sorted);
	return result;
}

static List *
expand_glob(const char *pattern, const PqfdwPrefixFilter *filter,
			bool *sorted)
{
	glob_t		g;
	List	   *result = NIL;
	int			rc;
	size_t		i;

	if (strstr(pattern, "**") != NULL)
		return expand_starstar(pattern, filter, sorted);
	/* glob() sorts by the locale's collation: sorted again by bytes */
	*sorted = false;
	rc = glob(pattern, 0, NULL, &g);
	if (rc == GLOB_NOMATCH)
	{
		globfree(&g);
		return NIL;
	}
	if (rc != 0)
	{
		globfree(&g);
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not expand pattern \"%s\"", pattern)));
	}
	for (i = 0; i < g.gl_pathc; i++)
		result = lappend(result, pstrdup(g.gl_pathv[i]));
	globfree(&g);
	return result;
}

/* Whether any "/"-separated segment of rel is hidden. */
static bool
any_hidden_segment(const char *rel)
{
	const char *p = rel;

	for (;;)
	{
		const char *slash = strchr(p, '/');
		char	   *seg = slash ? pnstrdup(p, slash - p) : pstrdup(p);
		bool		hidden = seg[0] != '\0' && pqfdw_hidden_name(seg);

		pfree(seg);
		if (hidden)
			return true;
		if (!slash)
			return false;
		p = slash + 1;
	}
}

/* The *.parquet objects below prefix_url (a URL ending with "/") a listing holds. */
static List *
parquet_objects(const PqListing *listing, const char *prefix_url, List *result)
{
	size_t		skip = strlen(prefix_url);
	int			i;

	for (i = 0; i < listing->nobjects; i++)
	{
		const char *url = listing->objects[i].key;

		if (strncmp(url, prefix_url, skip) == 0 &&
			!any_hidden_segment(url + skip) && ends_with_parquet(url + skip))
			result = lappend(result, pstrdup(url));
	}
	return result;
}

/*
 * Every *.parquet object below prefix_url, a level at a time while the
 * filter rules out directories of the level (hive partitions a query
 * cannot read are never listed), then below each directory left in one
 * listing: a level the filter keeps whole costs one request more than
 * listing everything at once, a level it narrows saves the listings of
 * every partition it rules out.
 */
static List *
walk_prefix(const PqfdwRemoteId *remote, const char *prefix_url,
			const PqfdwPrefixFilter *filter, int depth, List *result)
{
	PqListing	listing;
	List	   *kept = NIL;
	bool		narrowed = false;
	size_t		skip = strlen(prefix_url);
	ListCell   *lc;
	int			i;

	pqfdw_remote_list(remote, prefix_url, "/", &listing);
	for (i = 0; i < listing.nprefixes; i++)
	{
		const char *dir = listing.prefixes[i];
		char	   *name;

		if (strncmp(dir, prefix_url, skip) != 0)
			continue;
		name = pnstrdup(dir + skip, strlen(dir + skip) - 1);
		if (pqfdw_hidden_name(name))
			continue;
		if (filter->may_match(dir, filter->arg))
			kept = lappend(kept, (char *) dir);
		else
			narrowed = true;
	}
	if (!narrowed && kept != NIL)
	{
		/* nothing ruled out at this level: the rest in one listing */
		pqfdw_remote_list(remote, prefix_url, NULL, &listing);
		return parquet_objects(&listing, prefix_url, result);
	}
	result = parquet_objects(&listing, prefix_url, result);
	foreach(lc, kept)
	{
		const char *dir = lfirst(lc);

		if (depth + 1 < MAX_PARTITION_LEVELS)
			result = walk_prefix(remote, dir, filter, depth + 1, result);
		else
		{
			pqfdw_remote_list(remote, dir, NULL, &listing);
			result = parquet_objects(&listing, dir, result);
		}
	}
	return result;
}

/*
 * The objects a URL names: itself; every *.parquet object below it when it
 * ends with "/" (a prefix, as a local directory), walked level by level
 * with a filter; or the keys a glob matches, listed below its longest
 * literal prefix, with delimiter "/" when the pattern is one segment (then
 * only that level is listed).  http(s):// URLs name single files.
 * Listings come sorted by key, and are sorted again by bytes as local
 * paths are.
 */
static List *
expand_url(const char *item, const PqfdwRemoteId *remote,
		   const PqfdwPrefixFilter *filter, bool *sorted)
{
	PqUrl	   *u = pq_url_parse(item);
	PqListing	listing;
	List	   *pattern = NIL;
	List	   *result = NIL;
	char	   *prefix;
	char	   *prefix_url;
	size_t		skip;
	int			at;
	int			i;

	*sorted = false;
	if (u->scheme == PQ_URL_HTTP || u->scheme == PQ_URL_HTTPS)
		return list_make1(pstrdup(item));
	if (pq_url_key_has_glob(u->key, &at))
	{
		ListCell   *lc;
		int			starstar = 0;

		prefix = pnstrdup(u->key, at);
		if (strrchr(prefix, '/') != NULL)
			strrchr(prefix, '/')[1] = '\0';
		else
			prefix[0] = '\0';
		pattern = segments(u->key + strlen(prefix));
		foreach(lc, pattern)
		{
			char	   *seg = lfirst(lc);

			if (strstr(seg, "**") != NULL && strcmp(seg, "**") != 0)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
						 errmsg("\"**\" must be a whole path segment in \"%s\"", u->display),
						 errhint("Write s3://bucket/data/**/*.parquet for every *.parquet object below data/.")));
			starstar += strcmp(seg, "**") == 0;
		}
		if (starstar > MAX_STARSTAR)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
					 errmsg("pattern \"%s\" has more than %d \"**\" segments",
							u->display, MAX_STARSTAR)));
	}
	else if (u->key[0] == '\0' || u->key[strlen(u->key) - 1] == '/')
		prefix = u->key;
	else
		return list_make1(pstrdup(item));

	prefix_url = u->scheme == PQ_URL_ABFSS ?
		psprintf("abfss://%s@%s.dfs.core.windows.net/%s", u->bucket, u->account, prefix) :
		psprintf("%s://%s/%s", pq_url_scheme_name(u->scheme), u->bucket, prefix);
	if (pattern == NIL && filter != NULL)
		return walk_prefix(remote, prefix_url, filter, 0, NIL);
	pqfdw_remote_list(remote, prefix_url,
					  list_length(pattern) == 1 ? "/" : NULL, &listing);
	skip = strlen(prefix_url);
	for (i = 0; i < listing.nobjects; i++)
	{
		const char *url = listing.objects[i].key;
		const char *rel;

		if (strncmp(url, prefix_url, skip) != 0)
			continue;
		rel = url + skip;
		if (pattern != NIL ?
			match_from(pattern, 0, segments(rel), 0) :
			(!any_hidden_segment(rel) && ends_with_parquet(rel)))
			result = lappend(result, pstrdup(url));
	}
	return result;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* s without the spaces at either end (s is cut). */
static char *
trim_spaces(char *s)
{
	char	   *end;

	while (is_space(*s))
		s++;
	end = s + strlen(s);
	while (end > s && is_space(end[-1]))
		*--end = '\0';
	return s;
}

/*
 * The paths of filename in adjust/parquet_fdw's form (above), or NIL when
 * it is not in that form.
 */
static List *
adjust_paths(const char *filename)
{
	List	   *items = NIL;
	char	   *copy = pstrdup(filename);
	char	   *p = copy;
	bool		quoted = false;
	ListCell   *lc;
	struct stat st;

	for (;;)
	{
		char	   *start;

		while (is_space(*p))
			p++;
		if (*p == '\0')
			break;
		if (*p == '"')
		{
			start = ++p;
			p = strchr(p, '"');
			if (p == NULL)
				return NIL;		/* not closed: not a quoted path */
			quoted = true;
		}
		else
		{
			start = p;
			while (*p != '\0' && !is_space(*p))
			{
				if (*p == ',' || *p == '"')
					return NIL;
				p++;
			}
		}
		items = lappend(items, start);
		if (*p == '\0')
			break;
		*p++ = '\0';
	}
	if (list_length(items) < (quoted ? 1 : 2))
		return NIL;
	foreach(lc, items)
		if (!is_absolute_path((char *) lfirst(lc)))
		return NIL;
	/* one existing path that has spaces in it */
	if (stat(trim_spaces(pstrdup(filename)), &st) == 0)
		return NIL;
	return items;
}

List *
pqfdw_split_paths(const char *filename)
{
	List	   *items = adjust_paths(filename);
	char	   *rest;

	if (items != NIL)
		return items;

	for (rest = pstrdup(filename);;)
	{
		char	   *comma = strchr(rest, ',');
		char	   *p;

		if (comma)
			*comma = '\0';
		p = trim_spaces(rest);
		if (*p == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
					 errmsg("empty path in filename option \"%s\"", filename)));
		if (pq_url_is_remote(p))
			(void) pq_url_parse(p);
		else if (!is_absolute_path(p))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
					 errmsg("relative path not allowed in filename option: \"%s\"", p),
					 errhint("Use an absolute path.")));
		items = lappend(items, p);
		if (!comma)
			break;
		rest = comma + 1;
	}
	return items;
}

/*
 * The option's check (pqfdw_check_readable_paths) sees a pattern's text
 * only: what a glob or a walk reaches in the key directory (through a
 * link too) is left out for all but superusers, never opened.
 */
static List *
without_key_files(List *files)
{
	List	   *kept = NIL;
	ListCell   *lc;

	foreach(lc, files)
		if (!pqfdw_in_key_directory(lfirst(lc)))
		kept = lappend(kept, lfirst(lc));
	return kept;
}

static List *
expand_items(List *items, const PqfdwRemoteId *remote,
			 const PqfdwPrefixFilter *filter)
{
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, items)
	{
		char	   *item = lfirst(lc);
		List	   *files = NIL;
		bool		sorted = true;
		struct stat st;
		bool		expanded = false;

		if (pq_url_is_remote(item))
			files = expand_url(item, remote, filter, &sorted);
		else if (has_glob_chars(item))
		{
			files = expand_glob(item, filter, &sorted);
			expanded = true;
		}
		else if (stat(item, &st) == 0 && S_ISDIR(st.st_mode))
		{
			walk(item, keep_parquet, NULL, filter, &files, &sorted);
			expanded = true;
		}
		else
			files = list_make1(item);
		if (!sorted)
			list_sort(files, path_cmp);
		if (expanded && !superuser())
			files = without_key_files(files);
		result = list_concat(result, files);
	}
	return result;
}

List *
pqfdw_expand_paths(const char *filename, const PqfdwRemoteId *remote)
{
	return expand_items(pqfdw_split_paths(filename), remote, NULL);
}

uint64
pqfdw_paths_hash(List *paths)
{
	uint64		h = list_length(paths);
	ListCell   *lc;

	/* XXH3: hash_bytes_extended was 60% of this file's planning cost */
	foreach(lc, paths)
	{
		const char *p = lfirst(lc);

		h = XXH3_64bits_withSeed(p, strlen(p), h);
	}
	return h;
}

/*
 * The filename options expanded in the current statement, and the hash of
 * what they named: a plan made in this statement needs no second listing
 * at execution.  Kept in TopMemoryContext, dropped when the statement
 * changes.
 */
typedef struct Expansion
{
	char	   *filename;
	uint64		hash;
} Expansion;

static List *expansions = NIL;
static TimestampTz expansions_stmt = 0;
static TimestampTz expansions_xact = 0;

static void
forget_other_statements(void)
{
	if (expansions_stmt == GetCurrentStatementStartTimestamp() &&
		expansions_xact == GetCurrentTransactionStartTimestamp())
		return;
	list_free_deep(expansions);
	expansions = NIL;
	expansions_stmt = GetCurrentStatementStartTimestamp();
	expansions_xact = GetCurrentTransactionStartTimestamp();
}

void
pqfdw_note_expansion(const char *filename, uint64 hash)
{
	MemoryContext old;
	Expansion  *e;
	ListCell   *lc;

	forget_other_statements();
	foreach(lc, expansions)
	{
		e = lfirst(lc);
		if (strcmp(e->filename, filename) == 0)
		{
			e->hash = hash;
			return;
		}
	}
	old = MemoryContextSwitchTo(TopMemoryContext);
	e = palloc(sizeof(Expansion));
	e->filename = pstrdup(filename);
	e->hash = hash;
	expansions = lappend(expansions, e);
	MemoryContextSwitchTo(old);
}

List *
pqfdw_expand_paths_hashed(const char *filename, const PqfdwRemoteId *remote,
						  const PqfdwPrefixFilter *filter, uint64 *hash)
{
	return pqfdw_expand_items_hashed(filename, pqfdw_split_paths(filename),
									 remote, filter, hash);
}

List *
pqfdw_expand_items_hashed(const char *key, List *items,
						  const PqfdwRemoteId *remote,
						  const PqfdwPrefixFilter *filter, uint64 *hash)
{
	List	   *paths = expand_items(items, remote, filter);

	*hash = pqfdw_paths_hash(paths);
	pqfdw_note_expansion(key, *hash);
	return paths;
}

bool
pqfdw_expanded_in_statement(const char *filename, uint64 hash)
{
	ListCell   *lc;

	forget_other_statements();
	foreach(lc, expansions)
	{
		Expansion  *e = lfirst(lc);

		if (strcmp(e->filename, filename) == 0)
			return e->hash == hash;
	}
	return false;
}
