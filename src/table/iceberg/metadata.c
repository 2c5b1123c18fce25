/*-------------------------------------------------------------------------
 *
 * metadata.c
 *		Parsing and checking an Apache Iceberg table metadata file
 *		(metadata.h), format versions 1 to 3: the file's own members, its
 *		snapshots, snapshot log, refs and properties, and the lookups; its
 *		schemas and partition specs are metadata_schema.c's.
 *
 * The file is parsed into a JSON tree (json_tree.h) which is kept: the
 * result's strings are copies, but a field's nested type and its defaults
 * are pointers into the tree, checked once so that callers need not.
 *
 * The checks are those a reader needs to trust what it is given, after
 * the Java reference implementation where the spec is silent (which names
 * must be unique, what a v1 file may leave out): ids that name things are
 * unique, and every id that points at something (current schema, default
 * spec, current snapshot, refs) points at something there.  Ids that may
 * name what has been expired (a snapshot's parent or schema, the snapshot
 * log's entries, a partition field's source columns) are not checked.
 *
 * Reasons for a refusal name the member, never the text: a metadata file
 * may hold paths and property values that are nobody else's business.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>
#include <string.h>

#include "table/iceberg/metadata_read.h"

/* Private to the lookups: the snapshots' places sorted by snapshot id. */
typedef struct PqIcebergSnapshotIndex
{
	int64		id;
	int			at;				/* in PqIcebergMetadata.snapshots */
} SnapshotIndex;

static bool
read_snapshot(const PqJv *s, int version, PqIcebergSnapshot *out,
			  const char **why)
{
	const char *what = "a snapshot";
	const PqJv *summary;
	const PqJv *manifests;
	const char *str;
	int64		v;
	uint32		i;

	if (s->type != PQ_JV_OBJECT)
		return refuse(why, "a snapshot is not an object");
	if (!int_member(s, "snapshot-id", what, true, PG_INT64_MIN, PG_INT64_MAX,
					0, &out->snapshot_id, why) ||
		!int_member(s, "parent-snapshot-id", what, false, PG_INT64_MIN,
					PG_INT64_MAX, -1, &out->parent_id, why) ||
		!int_member(s, "sequence-number", what, version >= 2, 0, PG_INT64_MAX,
					0, &out->sequence_number, why) ||
		!int_member(s, "timestamp-ms", what, true, PG_INT64_MIN, PG_INT64_MAX,
					0, &out->timestamp_ms, why) ||
		!int_member(s, "schema-id", what, false, PG_INT32_MIN, PG_INT32_MAX,
					-1, &v, why) ||
		!int_member(s, "first-row-id", what, false, 0, PG_INT64_MAX, -1,
					&out->first_row_id, why) ||
		!int_member(s, "added-rows", what, false, 0, PG_INT64_MAX, -1,
					&out->added_rows, why))
		return false;
	/* -1 says "no snapshot" in current-snapshot-id and parent-snapshot-id */
	if (out->snapshot_id == -1)
		return refuse(why, "a snapshot's snapshot-id is -1");
	out->schema_id = (int32) v;
	if (!string_member(s, "manifest-list", what, false, &str, why) ||
		!get_member(s, "manifests", what, false, PQ_JV_ARRAY, &manifests,
					why))
		return false;
	out->manifest_list = keep(str);
	/* v1 writes one or the other; with both, Java reads the list */
	if (str == NULL && (version >= 2 || manifests == NULL))
		return refuse(why, "a snapshot lacks its manifest-list");
	if (str == NULL)
	{
		out->nmanifests = manifests->len;
		out->manifests = palloc(sizeof(char *) * Max(manifests->len, 1));
		for (i = 0; i < manifests->len; i++)
		{
			if (manifests->u.items[i].type != PQ_JV_STRING)
				return refuse(why, "a snapshot's manifests are not strings");
			out->manifests[i] = keep(manifests->u.items[i].u.str);
		}
	}
	if (!get_member(s, "summary", what, version >= 2, PQ_JV_OBJECT, &summary,
					why))
		return false;
	if (summary != NULL)
	{
		if (!string_member(summary, "operation", "a snapshot summary", true,
						   &str, why))
			return false;
		out->operation = keep(str);
	}
	return true;
}

static int
index_cmp(const void *a, const void *b)
{
	const SnapshotIndex *x = a;
	const SnapshotIndex *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static bool
read_snapshots(const PqJv *root, PqIcebergMetadata *md, const char **why)
{
	const PqJv *snaps;
	const PqJv *log;
	SnapshotIndex *index;
	uint32		i;

	if (!get_member(root, "snapshots", "the metadata", false, PQ_JV_ARRAY,
					&snaps, why) ||
		!get_member(root, "snapshot-log", "the metadata", false, PQ_JV_ARRAY,
					&log, why))
		return false;
	md->nsnapshots = snaps ? snaps->len : 0;
	md->snapshots = palloc0(sizeof(PqIcebergSnapshot) * Max(md->nsnapshots, 1));
	index = palloc(sizeof(SnapshotIndex) * Max(md->nsnapshots, 1));
	for (i = 0; i < (uint32) md->nsnapshots; i++)
	{
		if (!read_snapshot(&snaps->u.items[i], md->format_version,
						   &md->snapshots[i], why))
			return false;
		if (md->format_version >= 2 &&
			md->snapshots[i].sequence_number > md->last_sequence_number)
			return refuse(why, "a snapshot's sequence-number is above the last-sequence-number");
		index[i].id = md->snapshots[i].snapshot_id;
		index[i].at = (int) i;
	}
	qsort(index, md->nsnapshots, sizeof(SnapshotIndex), index_cmp);
	for (i = 1; i < (uint32) md->nsnapshots; i++)
		if (index[i - 1].id == index[i].id)
			return refuse(why, "the metadata gives a snapshot id twice");
	md->snapshot_index = index;

	md->nlog = log ? log->len : 0;
	md->log = palloc(sizeof(PqIcebergLogEntry) * Max(md->nlog, 1));
	for (i = 0; i < (uint32) md->nlog; i++)
	{
		const PqJv *e = &log->u.items[i];

		if (e->type != PQ_JV_OBJECT)
			return refuse(why, "a snapshot-log entry is not an object");
		if (!int_member(e, "timestamp-ms", "a snapshot-log entry", true,
						PG_INT64_MIN, PG_INT64_MAX, 0,
						&md->log[i].timestamp_ms, why) ||
			!int_member(e, "snapshot-id", "a snapshot-log entry", true,
						PG_INT64_MIN, PG_INT64_MAX, 0,
						&md->log[i].snapshot_id, why))
			return false;
	}
	return true;
}

static bool
read_refs(const PqJv *root, PqIcebergMetadata *md, const char **why)
{
	const PqJv *refs;
	uint32		i;

	if (!get_member(root, "refs", "the metadata", false, PQ_JV_OBJECT, &refs,
					why))
		return false;
	md->nrefs = refs ? refs->len : 0;
	md->refs = palloc0(sizeof(PqIcebergRef) * Max(md->nrefs, 1));
	for (i = 0; i < (uint32) md->nrefs; i++)
	{
		const PqJv *r = &refs->u.members[i].value;
		PqIcebergRef *ref = &md->refs[i];
		const char *type;

		if (r->type != PQ_JV_OBJECT)
			return refuse(why, "a ref is not an object");
		if (!int_member(r, "snapshot-id", "a ref", true, PG_INT64_MIN,
						PG_INT64_MAX, 0, &ref->snapshot_id, why) ||
			!string_member(r, "type", "a ref", true, &type, why))
			return false;
		if (strcmp(type, "tag") != 0 && strcmp(type, "branch") != 0)
			return refuse(why, "a ref's type is neither branch nor tag");
		ref->name = keep(refs->u.members[i].name);
		ref->is_tag = type[0] == 't';
		if (pq_iceberg_snapshot(md, ref->snapshot_id) == NULL)
			return refuse(why, "a ref's snapshot is not among the snapshots");
		if (strcmp(ref->name, "main") == 0)
		{
			/* the spec: current-snapshot-id "must be the same" as main's */
			if (ref->is_tag)
				return refuse(why, "the main ref is a tag, not a branch");
			if (ref->snapshot_id != md->current_snapshot_id)
				return refuse(why, "the main branch is not the current snapshot");
		}
	}
	return true;
}

static bool
read_properties(const PqJv *root, PqIcebergMetadata *md, const char **why)
{
	const PqJv *props;
	uint32		i;

	if (!get_member(root, "properties", "the metadata", false, PQ_JV_OBJECT,
					&props, why))
		return false;
	md->nproperties = props ? props->len : 0;
	md->property_keys = palloc(sizeof(char *) * Max(md->nproperties, 1));
	md->property_values = palloc(sizeof(char *) * Max(md->nproperties, 1));
	for (i = 0; i < (uint32) md->nproperties; i++)
	{
		const PqJv *v = &props->u.members[i].value;

		if (v->type != PQ_JV_STRING)
			return refuse(why, "a table property's value is not a string");
		md->property_keys[i] = keep(props->u.members[i].name);
		md->property_values[i] = keep(v->u.str);
	}
	return true;
}

/* Whether s is a UUID's text: 8-4-4-4-12 hexadecimal digits. */
static bool
is_uuid(const char *s)
{
	const char *form = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
	int			i;

	for (i = 0; form[i] != '\0'; i++)
		if (form[i] == '-' ? s[i] != '-' :
			strchr("0123456789abcdefABCDEF", s[i]) == NULL || s[i] == '\0')
			return false;
	return s[i] == '\0';
}

static bool
parse_metadata(const char *text, size_t len, PqIcebergMetadata *md,
			   const char **why)
{
	const PqJv *root = pq_jv_parse(text, len, why);
	const char *s;
	int64		v;

	if (root == NULL)
		return false;
	if (root->type != PQ_JV_OBJECT)
		return refuse(why, "the metadata is not a JSON object");
	md->root = root;
	if (!int_member(root, "format-version", "the metadata", true,
					PG_INT64_MIN, PG_INT64_MAX, 0, &v, why))
		return false;
	if (v < 1 || v > PQ_ICEBERG_MAX_FORMAT_VERSION)
	{
		*why = psprintf("format version " INT64_FORMAT " is not supported", v);
		return false;
	}
	md->format_version = (int) v;
	if (!string_member(root, "table-uuid", "the metadata", v >= 2, &s, why))
		return false;
	if (s != NULL && !is_uuid(s))
		return refuse(why, "the metadata's table-uuid is not a UUID");
	md->table_uuid = keep(s);
	if (!string_member(root, "location", "the metadata", true, &s, why))
		return false;
	md->location = keep(s);
	if (!int_member(root, "last-sequence-number", "the metadata", v >= 2, 0,
					PG_INT64_MAX, 0, &md->last_sequence_number, why) ||
		!int_member(root, "last-updated-ms", "the metadata", true,
					PG_INT64_MIN, PG_INT64_MAX, 0, &md->last_updated_ms, why) ||
		!int_member(root, "current-snapshot-id", "the metadata", false,
					PG_INT64_MIN, PG_INT64_MAX, -1, &md->current_snapshot_id,
					why))
		return false;

	if (!pq_iceberg_read_schemas(root, md, why) ||
		!pq_iceberg_read_specs(root, md, why) ||
		!read_snapshots(root, md, why))
		return false;
	if (md->current_snapshot_id != -1 &&
		pq_iceberg_snapshot(md, md->current_snapshot_id) == NULL)
		return refuse(why, "the current snapshot is not among the snapshots");
	return read_refs(root, md, why) && read_properties(root, md, why);
}

bool
pq_iceberg_parse_metadata(const char *text, size_t len,
						  PqIcebergMetadata *out, const char **why)
{
	const char *reason = NULL;

	memset(out, 0, sizeof(*out));
	out->current_snapshot_id = -1;
	if (!parse_metadata(text, len, out, &reason))
	{
		memset(out, 0, sizeof(*out));
		*why = reason != NULL ? reason : "the metadata is malformed";
		return false;
	}
	*why = NULL;
	return true;
}

const PqIcebergSnapshot *
pq_iceberg_snapshot(const PqIcebergMetadata *md, int64 snapshot_id)
{
	const SnapshotIndex *index = md->snapshot_index;
	SnapshotIndex key;
	const SnapshotIndex *hit;

	if (index == NULL || md->nsnapshots == 0)
		return NULL;
	key.id = snapshot_id;
	key.at = 0;
	hit = bsearch(&key, index, md->nsnapshots, sizeof(SnapshotIndex),
				  index_cmp);
	return hit != NULL ? &md->snapshots[hit->at] : NULL;
}

const PqIcebergSnapshot *
pq_iceberg_snapshot_by_ref(const PqIcebergMetadata *md, const char *ref)
{
	int			i;

	for (i = 0; i < md->nrefs; i++)
		if (strcmp(md->refs[i].name, ref) == 0)
			return pq_iceberg_snapshot(md, md->refs[i].snapshot_id);
	if (strcmp(ref, "main") == 0)
		return pq_iceberg_snapshot(md, md->current_snapshot_id);
	return NULL;
}

const PqIcebergSnapshot *
pq_iceberg_snapshot_as_of(const PqIcebergMetadata *md, int64 ms)
{
	const PqIcebergSnapshot *s;
	int			i;
	int			steps;

	if (md->nlog > 0)
	{
		for (i = md->nlog - 1; i >= 0; i--)
			if (md->log[i].timestamp_ms <= ms)
				return pq_iceberg_snapshot(md, md->log[i].snapshot_id);
		return NULL;
	}
	/* parents may loop in a hostile file: no chain is longer than all */
	s = pq_iceberg_snapshot(md, md->current_snapshot_id);
	for (steps = 0; s != NULL && steps < md->nsnapshots; steps++)
	{
		if (s->timestamp_ms <= ms)
			return s;
		s = pq_iceberg_snapshot(md, s->parent_id);
	}
	return NULL;
}

const char *
pq_iceberg_property(const PqIcebergMetadata *md, const char *key)
{
	int			i;

	/* a name given twice is refused by the JSON parser: one match at most */
	for (i = 0; i < md->nproperties; i++)
		if (strcmp(md->property_keys[i], key) == 0)
			return md->property_values[i];
	return NULL;
}
