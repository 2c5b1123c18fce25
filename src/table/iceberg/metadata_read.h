/*-------------------------------------------------------------------------
 *
 * metadata_read.h
 *		What the two parts of the Iceberg metadata file's reader share
 *		(metadata.c: the file, its snapshots, log, refs and properties;
 *		metadata_schema.c: its schemas and partition specs): members of the
 *		file's JSON objects read with their checks, and a refusal's reason
 *		naming the member, never quoting the text.
 *
 * Private to src/table/iceberg/metadata*.c; callers include metadata.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_ICEBERG_METADATA_READ_H
#define PQ_ICEBERG_METADATA_READ_H

#include "table/iceberg/metadata.h"

/* A table's metadata is megabytes; a field or spec name is short. */
#define PQ_ICEBERG_MAX_NAME 4096

/* A copy of s in the current context, or NULL. */
static inline char *
keep(const char *s)
{
	return s != NULL ? pstrdup(s) : NULL;
}

static inline bool
refuse(const char **why, const char *reason)
{
	*why = reason;
	return false;
}

/* Member name of o, or NULL when absent or null (both mean "not given"). */
static inline const PqJv *
member(const PqJv *o, const char *name)
{
	const PqJv *v = pq_jv_get(o, name);

	return v != NULL && v->type != PQ_JV_NULL ? v : NULL;
}

/*
 * Member name of o (what names o in a reason: "a snapshot") of JSON type
 * type (PQ_JV_TRUE: true or false), an array or object of at most
 * PQ_ICEBERG_MAX_COUNT values; *out = NULL when it is not given, which is
 * refused when it is required.
 */
static inline bool
get_member(const PqJv *o, const char *name, const char *what, bool required,
		   PqJvType type, const PqJv **out, const char **why)
{
	static const char *const kinds[] = {
		[PQ_JV_TRUE] = "true or false",[PQ_JV_NUMBER] = "an integer",
		[PQ_JV_STRING] = "a string",[PQ_JV_ARRAY] = "an array",
		[PQ_JV_OBJECT] = "an object"
	};
	const PqJv *v = member(o, name);

	*out = NULL;
	if (v == NULL)
	{
		if (required)
			*why = psprintf("%s lacks its %s", what, name);
		return !required;
	}
	if ((v->type == PQ_JV_FALSE ? PQ_JV_TRUE : v->type) != type)
	{
		*why = psprintf("%s's %s is not %s", what, name, kinds[type]);
		return false;
	}
	if ((type == PQ_JV_ARRAY || type == PQ_JV_OBJECT) &&
		v->len > PQ_ICEBERG_MAX_COUNT)
	{
		*why = psprintf("%s's %s holds more than a million values", what,
						name);
		return false;
	}
	*out = v;
	return true;
}

/* Member name of o as an integer in lo..hi; *out = dflt when not given. */
static inline bool
int_member(const PqJv *o, const char *name, const char *what, bool required,
		   int64 lo, int64 hi, int64 dflt, int64 *out, const char **why)
{
	const PqJv *v;

	*out = dflt;
	if (!get_member(o, name, what, required, PQ_JV_NUMBER, &v, why))
		return false;
	if (v == NULL)
		return true;
	if (!pq_jv_int64(v, out))
	{
		*why = psprintf("%s's %s is not an integer", what, name);
		return false;
	}
	if (*out < lo || *out > hi)
	{
		*why = psprintf("%s's %s is out of range", what, name);
		return false;
	}
	return true;
}

/* int_member for a 32-bit member. */
static inline bool
int32_member(const PqJv *o, const char *name, const char *what, bool required,
			 int64 lo, int32 dflt, int32 *out, const char **why)
{
	int64		v;

	if (!int_member(o, name, what, required, lo, PG_INT32_MAX, dflt, &v, why))
		return false;
	*out = (int32) v;
	return true;
}

/* Member name of o as a string; *out = NULL when not given. */
static inline bool
string_member(const PqJv *o, const char *name, const char *what,
			  bool required, const char **out, const char **why)
{
	const PqJv *v;

	*out = NULL;
	if (!get_member(o, name, what, required, PQ_JV_STRING, &v, why))
		return false;
	*out = pq_jv_str(v);
	return true;
}

/* A required boolean member. */
static inline bool
bool_member(const PqJv *o, const char *name, const char *what, bool *out,
			const char **why)
{
	const PqJv *v;

	return get_member(o, name, what, true, PQ_JV_TRUE, &v, why) &&
		pq_jv_bool(v, out);
}

/* "schemas" (v1: or "schema") and "current-schema-id" into md. */
extern bool pq_iceberg_read_schemas(const PqJv *root, PqIcebergMetadata *md,
									const char **why);

/* "partition-specs" (v1: or "partition-spec") and "default-spec-id". */
extern bool pq_iceberg_read_specs(const PqJv *root, PqIcebergMetadata *md,
								  const char **why);

#endif							/* PQ_ICEBERG_METADATA_READ_H */
