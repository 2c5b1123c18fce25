/*-------------------------------------------------------------------------
 *
 * stats.c
 *		A Delta data file's statistics (the JSON of add.stats): record
 *		count, min and max values and null counts per column.
 *
 * Values stay as parsed (numbers keep their text), for the reader to read
 * in the declared type of the column it prunes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "table/delta/delta_log.h"

/* An object member, or NULL when absent, null or not an object. */
static const PqJv *
object_member(const PqJv *o, const char *name)
{
	const PqJv *v = pq_jv_get(o, name);

	return v != NULL && v->type == PQ_JV_OBJECT ? v : NULL;
}

bool
pq_delta_stats_parse(const char *json, PqDeltaStats *out, const char **why)
{
	PqJv	   *root = pq_jv_parse(json, strlen(json), why);
	bool		tight = true;

	memset(out, 0, sizeof(*out));
	out->num_records = -1;
	if (root == NULL)
		return false;
	if (root->type != PQ_JV_OBJECT)
	{
		*why = "the statistics are not a JSON object";
		return false;
	}
	if (pq_jv_get(root, "numRecords") != NULL &&
		(!pq_jv_int64(pq_jv_get(root, "numRecords"), &out->num_records) ||
		 out->num_records < 0))
	{
		*why = "numRecords is not a count";
		return false;
	}
	out->min_values = object_member(root, "minValues");
	out->max_values = object_member(root, "maxValues");
	out->null_count = object_member(root, "nullCount");
	if (pq_jv_get(root, "tightBounds") != NULL)
		(void) pq_jv_bool(pq_jv_get(root, "tightBounds"), &tight);
	out->tight = tight;
	return true;
}
