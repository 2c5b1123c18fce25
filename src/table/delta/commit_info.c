/*-------------------------------------------------------------------------
 *
 * commit_info.c
 *		What a Delta commit says of itself (its commitInfo action): when it
 *		was made and by which operation, for time travel and for listing a
 *		table's versions.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "table/delta/delta_log.h"

/* The commitInfo of a commit's first line (where writers put it), or NULL. */
static const PqJv *
first_commit_info(const char *text, size_t len)
{
	size_t		start = 0;

	while (start < len)
	{
		const char *nl = memchr(text +start, '\n', len - start);
		size_t		end = nl ? (size_t) (nl - text) : len;
		const char *why = NULL;
		PqJv	   *line;
		const PqJv *ci;

		if (end == start)
		{
			start++;
			continue;
		}
		line = pq_jv_parse(text +start, end - start, &why);
		ci = line ? pq_jv_get(line, "commitInfo") : NULL;
		return ci != NULL && ci->type == PQ_JV_OBJECT ? ci : NULL;
	}
	return NULL;
}

bool
pq_delta_commit_timestamp(const char *text, size_t len, int64 *ms)
{
	const PqJv *ci = first_commit_info(text, len);

	return ci != NULL && pq_jv_int64(pq_jv_get(ci, "inCommitTimestamp"), ms);
}

bool
pq_delta_commit_info(const char *text, size_t len, int64 *ms,
					 char **operation)
{
	const PqJv *ci = first_commit_info(text, len);
	const char *op;

	*ms = -1;
	*operation = NULL;
	if (ci == NULL)
		return false;
	if (!pq_jv_int64(pq_jv_get(ci, "inCommitTimestamp"), ms) &&
		!pq_jv_int64(pq_jv_get(ci, "timestamp"), ms))
		*ms = -1;
	op = pq_jv_str(pq_jv_get(ci, "operation"));
	if (op != NULL)
		*operation = pstrdup(op);
	return true;
}
