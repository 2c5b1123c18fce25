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
 * _SUCCESS, _temporary, .crc files and our own COPY's temporary files.  The
 * files of each item come sorted by path, so a table reads them in a
 * stable order.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <fnmatch.h>
#include <glob.h>
#include <sys/stat.h>

#include "fdw/common/parquet_fdw.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"

/* Directory levels walked at most (a symlink cycle ends here). */
#define MAX_DEPTH 64
/* "**" segments a pattern may hold (each multiplies the matching work). */
#define MAX_STARSTAR 4

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

static bool
hidden(const char *name)
{
	return name[0] == '.' || name[0] == '_';
}

/*
 * Every regular file below dir (relative path rel, "" at the top) that
 * keep() accepts, appended to *out, in the order of their paths unless an
 * entry's type had to be found with stat() (then *sorted is cleared).
 * Unreadable subdirectories are errors: a table that silently lost a
 * partition would return wrong rows.
 */
typedef struct WalkEntry
{
	char	   *path;
	const char *sub;			/* the tail of path below the walk's top */
	PqfdwDirentKind kind;
} WalkEntry;

static void
walk(const char *dir, const char *rel, int depth,
	 bool (*keep) (const char *rel, void *arg), void *arg, List **out,
	 bool *sorted)
{
	const PqfdwDirListing *listing;
	WalkEntry  *entries;
	size_t		dirlen = strlen(dir);
	size_t		sub_at;
	int			n = 0;
	int			i;

	if (depth > MAX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("directory \"%s\" is nested more than %d levels deep",
						dir, MAX_DEPTH),
				 errhint("A symbolic link may point back to a directory above it.")));

	/* copied first: listing the subdirectories may replace this listing */
	listing = pqfdw_dir_listing(dir);
	entries = palloc(sizeof(WalkEntry) * Max(listing->n, 1));

	/*
	 * dir ends with "/" rel, so an entry's relative path is a tail of its
	 * path: one allocation per entry (two psprintf calls each were a
	 * quarter of planning a 10,000-file table).
	 */
	sub_at = rel[0] ? dirlen - strlen(rel) : dirlen + 1;
	for (i = 0; i < listing->n; i++)
	{
		const PqfdwDirEntry *e = &listing->entries[i];
		size_t		namelen;
		char	   *path;

		if (hidden(e->name))
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
		bool		is_dir = e->kind == PQFDW_DIRENT_DIR;
		bool		is_file = e->kind == PQFDW_DIRENT_FILE;
		struct stat st;

		if (e->kind == PQFDW_DIRENT_OTHER)
		{
			if (stat(e->path, &st) != 0)
				continue;		/* removed meanwhile, or a dangling link */
			is_dir = S_ISDIR(st.st_mode);
			is_file = S_ISREG(st.st_mode);
			*sorted = false;
		}
		if (is_dir)
			walk(e->path, e->sub, depth + 1, keep, arg, out, sorted);
		else if (is_file && keep(e->sub, arg))
			*out = lappend(*out, e->path);
	}
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
expand_starstar(const char *pattern, bool *sorted)
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
	walk(base.data, "", 0, keep_matching, rest, &result, sorted);
	return result;
}

static List *
expand_glob(const char *pattern, bool *sorted)
{
	glob_t		g;
	List	   *result = NIL;
	int			rc;
	size_t		i;

	if (strstr(pattern, "**") != NULL)
		return expand_starstar(pattern, sorted);
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

List *
pqfdw_split_paths(const char *filename)
{
	List	   *items = NIL;
	char	   *copy = pstrdup(filename);
	char	   *p = copy;

	for (;;)
	{
		char	   *comma = strchr(p, ',');
		char	   *end;

		if (comma)
			*comma = '\0';
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		end = p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
			*--end = '\0';
		if (*p == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
					 errmsg("empty path in filename option \"%s\"", filename)));
		if (!is_absolute_path(p))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_STRING_FORMAT),
					 errmsg("relative path not allowed in filename option: \"%s\"", p),
					 errhint("Use an absolute path.")));
		items = lappend(items, p);
		if (!comma)
			break;
		p = comma + 1;
	}
	return items;
}

List *
pqfdw_expand_paths(const char *filename)
{
	List	   *items = pqfdw_split_paths(filename);
	List	   *result = NIL;
	ListCell   *lc;

	foreach(lc, items)
	{
		char	   *item = lfirst(lc);
		List	   *files = NIL;
		bool		sorted = true;
		struct stat st;

		if (has_glob_chars(item))
			files = expand_glob(item, &sorted);
		else if (stat(item, &st) == 0 && S_ISDIR(st.st_mode))
			walk(item, "", 0, keep_parquet, NULL, &files, &sorted);
		else
			files = list_make1(item);
		if (!sorted)
			list_sort(files, path_cmp);
		result = list_concat(result, files);
	}
	return result;
}
