/*-------------------------------------------------------------------------
 *
 * hive.c
 *		Hive partition keys in paths: directories named key=value.
 *
 * Writers (Hive, Spark, DuckDB, our COPY TO partition_by) percent-encode
 * the characters a path cannot hold or that would be ambiguous ('/', '=',
 * '%', ...), and name a NULL value's directory __HIVE_DEFAULT_PARTITION__.
 * Every directory of the path counts, as in DuckDB: a key above the
 * dataset's root is a key of every file alike.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/dataset/dataset.h"

#define HIVE_DEFAULT_PARTITION "__HIVE_DEFAULT_PARTITION__"

/* s[0, len) with %XX decoded; a '%' not followed by two hex digits stays. */
static char *
percent_decode(const char *s, int len)
{
	char	   *out = palloc(len + 1);
	int			n = 0;
	int			i;

	for (i = 0; i < len; i++)
	{
		if (s[i] == '%' && i + 2 < len &&
			pq_hex_digit(s[i + 1]) >= 0 && pq_hex_digit(s[i + 2]) >= 0)
		{
			out[n++] = (char) (pq_hex_digit(s[i + 1]) * 16 + pq_hex_digit(s[i + 2]));
			i += 2;
		}
		else
			out[n++] = s[i];
	}
	out[n] = '\0';
	return out;
}

void
pqfdw_hive_parse(const char *path, PqfdwHivePath *hp)
{
	const char *seg = path;
	const char *last = strrchr(path, '/');
	int			cap = 4;

	hp->nkeys = 0;
	hp->keys = palloc(sizeof(char *) * cap);
	hp->values = palloc(sizeof(char *) * cap);
	if (last == NULL)
		return;
	while (seg < last)
	{
		const char *end = strchr(seg, '/');
		const char *eq;

		if (end == NULL || end > last)
			end = last;
		eq = memchr(seg, '=', end - seg);
		if (eq != NULL && eq > seg)
		{
			const char *v = eq + 1;
			int			vlen = (int) (end - v);

			if (hp->nkeys == cap)
			{
				cap *= 2;
				hp->keys = repalloc(hp->keys, sizeof(char *) * cap);
				hp->values = repalloc(hp->values, sizeof(char *) * cap);
			}
			hp->keys[hp->nkeys] = percent_decode(seg, (int) (eq - seg));
			if (vlen == strlen(HIVE_DEFAULT_PARTITION) &&
				memcmp(v, HIVE_DEFAULT_PARTITION, vlen) == 0)
				hp->values[hp->nkeys] = NULL;
			else
				hp->values[hp->nkeys] = percent_decode(v, vlen);
			hp->nkeys++;
		}
		seg = end + 1;
	}
}

/* Whether two parsed paths have the same keys in the same order. */
static bool
same_keys(const PqfdwHivePath *a, const PqfdwHivePath *b)
{
	int			i;

	if (a->nkeys != b->nkeys)
		return false;
	for (i = 0; i < a->nkeys; i++)
		if (strcmp(a->keys[i], b->keys[i]) != 0)
			return false;
	return true;
}

/* The length of path's directory part (what pqfdw_hive_parse reads), or -1. */
static int
directory_length(const char *path)
{
	const char *last = strrchr(path, '/');

	return last ? (int) (last - path) : -1;
}

List *
pqfdw_hive_keys(List *paths, PqfdwHiveMode mode, PqfdwHivePath **parsed)
{
	PqfdwHivePath *hps;
	PqfdwHivePath first;
	const char *first_path;
	const char *prev;
	int			prev_dir;
	List	   *keys = NIL;
	ListCell   *lc;
	int			i;

	if (parsed)
		*parsed = NULL;
	if (mode == PQFDW_HIVE_OFF || paths == NIL)
		return NIL;
	hps = palloc(sizeof(PqfdwHivePath) * list_length(paths));
	first_path = linitial(paths);
	pqfdw_hive_parse(first_path, &hps[0]);
	first = hps[0];
	if (first.nkeys == 0)
	{
		if (mode == PQFDW_HIVE_ON)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION),
					 errmsg("Parquet file \"%s\" is not in a hive partition directory",
							first_path),
					 errhint("With hive_partitioning true every file must be below directories named key=value.")));
		return NIL;
	}
	prev = first_path;
	prev_dir = directory_length(first_path);
	for_each_from(lc, paths, 1)
	{
		const char *path = lfirst(lc);
		int			dir = directory_length(path);
		PqfdwHivePath *hp = &hps[foreach_current_index(lc)];

		/*
		 * A file in the directory of the one before it has the same keys and
		 * values: files come sorted, so a directory is parsed once, not once
		 * per file.
		 */
		if (dir >= 0 && dir == prev_dir && memcmp(path, prev, dir) == 0)
		{
			*hp = hp[-1];
			continue;
		}
		prev = path;
		prev_dir = dir;
		pqfdw_hive_parse(path, hp);
		if (!same_keys(&first, hp))
		{
			if (mode == PQFDW_HIVE_ON)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION),
						 errmsg("hive partition keys of Parquet file \"%s\" differ from those of \"%s\"",
								(char *) lfirst(lc), first_path),
						 errhint("With hive_partitioning true every file must be below the same key=value directories; set it to false to read the files without partition columns.")));
			return NIL;
		}
	}
	for (i = 0; i < first.nkeys; i++)
		keys = lappend(keys, first.keys[i]);
	if (parsed)
		*parsed = hps;
	return keys;
}
