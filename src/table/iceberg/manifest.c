/*-------------------------------------------------------------------------
 *
 * manifest.c
 *		Iceberg manifest lists and manifests decoded from their Avro
 *		records into PqIcebergManifestFile and PqIcebergEntry arrays.
 *
 * Every field is asked of the record by name (avro_file.h): a field this
 * reader needs that is absent, null where the spec says required, or of
 * another type refuses the file, naming the field, rather than guessing a
 * value.  What the spec lets a version leave out gets the spec's default.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>

#include "table/common/json_tree.h"
#include "table/iceberg/avro_file.h"
#include "table/iceberg/manifest.h"

/* ---------------------------------------------------------------- fields */

/* What is wrong with a field, for *why. */
static const char *
field_why(const char *what, int64 index, const char *field, PqAvroGot got)
{
	return psprintf("%s " INT64_FORMAT ": %s %s", what, index, field,
					got == PQ_AVRO_ABSENT ? "is missing"
					: got == PQ_AVRO_NULL ? "is null"
					: "has a type this reader does not take");
}

/* A required long (an int too), not negative when nonneg. */
static bool
need_long(const avro_value_t *rec, const char *field, bool nonneg,
		  int64 *out, const char *what, int64 index, const char **why)
{
	PqAvroGot	got = pq_avro_get_long(rec, field, out);

	if (got != PQ_AVRO_VALUE)
	{
		*why = field_why(what, index, field, got);
		return false;
	}
	if (nonneg && *out < 0)
	{
		*why = psprintf("%s " INT64_FORMAT ": %s is negative", what, index,
						field);
		return false;
	}
	return true;
}

/* A required int within lo..hi. */
static bool
need_int(const avro_value_t *rec, const char *field, int32 lo, int32 hi,
		 int32 *out, const char *what, int64 index, const char **why)
{
	PqAvroGot	got = pq_avro_get_int(rec, field, out);

	if (got != PQ_AVRO_VALUE)
	{
		*why = field_why(what, index, field, got);
		return false;
	}
	if (*out < lo || *out > hi)
	{
		*why = psprintf("%s " INT64_FORMAT ": %s is %d, not %d to %d", what,
						index, field, *out, lo, hi);
		return false;
	}
	return true;
}

static bool
need_string(const avro_value_t *rec, const char *field, const char **out,
			const char *what, int64 index, const char **why)
{
	char	   *s;
	PqAvroGot	got = pq_avro_get_string(rec, field, &s);

	if (got != PQ_AVRO_VALUE)
	{
		*why = field_why(what, index, field, got);
		return false;
	}
	*out = s;
	return true;
}

/* An optional long: *has false when absent or null. */
static bool
opt_long(const avro_value_t *rec, const char *field, bool *has, int64 *out,
		 const char *what, int64 index, const char **why)
{
	PqAvroGot	got = pq_avro_get_long(rec, field, out);

	*has = got == PQ_AVRO_VALUE;
	if (got == PQ_AVRO_WRONG)
	{
		*why = field_why(what, index, field, got);
		return false;
	}
	return true;
}

/* An optional bytes field: NULL when absent or null. */
static bool
opt_bytes(const avro_value_t *rec, const char *field, const uint8 **out,
		  int32 *len, const char *what, int64 index, const char **why)
{
	uint8	   *b = NULL;
	PqAvroGot	got = pq_avro_get_bytes(rec, field, &b, len);

	if (got == PQ_AVRO_WRONG)
	{
		*why = field_why(what, index, field, got);
		return false;
	}
	*out = got == PQ_AVRO_VALUE ? b : NULL;
	if (*out == NULL)
		*len = 0;
	return true;
}

/* Room for one more element of size each in *arr (*n used of *cap). */
static void *
grow_array(void *arr, int n, int *cap, size_t each)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 16;
	return arr ? repalloc_huge(arr, *cap * each)
		: MemoryContextAllocHuge(CurrentMemoryContext, *cap * each);
}

/* ---------------------------------------------------------- manifest list */

typedef struct ListRead
{
	int			format_version;
	PqIcebergManifestFile *files;
	int			n;
	int			cap;
} ListRead;

/* content, sequence_number, min_sequence_number: v2 on, else v1's 0 */
static bool
v2_long(const avro_value_t *rec, const char *field, int version,
		int64 *out, int64 index, const char **why)
{
	PqAvroGot	got = pq_avro_get_long(rec, field, out);

	if (got == PQ_AVRO_ABSENT && version < 2)
	{
		*out = 0;
		return true;
	}
	if (got != PQ_AVRO_VALUE)
	{
		*why = field_why("manifest list entry", index, field, got);
		return false;
	}
	return true;
}

static bool
read_summaries(const avro_value_t *rec, PqIcebergManifestFile *m,
			   int64 index, const char **why)
{
	const char *what = "manifest list entry";
	avro_value_t array;
	int			n;
	int			i;
	PqAvroGot	got = pq_avro_get_array(rec, "partitions", &array, &n);

	if (got == PQ_AVRO_NULL || got == PQ_AVRO_ABSENT)
		return true;
	if (got != PQ_AVRO_VALUE)
	{
		*why = field_why(what, index, "partitions", got);
		return false;
	}
	m->partitions = n > 0 ? palloc0(n * sizeof(PqIcebergFieldSummary)) : NULL;
	for (i = 0; i < n; i++)
	{
		PqIcebergFieldSummary *s = &m->partitions[i];
		avro_value_t fs;

		got = pq_avro_array_item(&array, i, &fs);
		if (got != PQ_AVRO_VALUE)
		{
			*why = field_why(what, index, "a partitions summary", got);
			return false;
		}
		got = pq_avro_get_bool(&fs, "contains_null", &s->contains_null);
		if (got != PQ_AVRO_VALUE)
		{
			*why = field_why(what, index, "contains_null", got);
			return false;
		}
		got = pq_avro_get_bool(&fs, "contains_nan", &s->contains_nan);
		if (got == PQ_AVRO_WRONG)
		{
			*why = field_why(what, index, "contains_nan", got);
			return false;
		}
		s->has_contains_nan = got == PQ_AVRO_VALUE;
		if (!opt_bytes(&fs, "lower_bound", &s->lower_bound, &s->lower_len,
					   what, index, why) ||
			!opt_bytes(&fs, "upper_bound", &s->upper_bound, &s->upper_len,
					   what, index, why))
			return false;
	}
	m->npartitions = n;
	return true;
}

static bool
list_record(void *arg, int64 index, const avro_value_t *rec, const char **why)
{
	const char *what = "manifest list entry";
	ListRead   *lr = arg;
	PqIcebergManifestFile *m;
	int64		content;

	lr->files = grow_array(lr->files, lr->n, &lr->cap,
						   sizeof(PqIcebergManifestFile));
	m = &lr->files[lr->n];
	memset(m, 0, sizeof(*m));
	if (!need_string(rec, "manifest_path", &m->manifest_path, what, index, why) ||
		!need_long(rec, "manifest_length", true, &m->manifest_length,
				   what, index, why) ||
		!need_int(rec, "partition_spec_id", 0, PG_INT32_MAX,
				  &m->partition_spec_id, what, index, why) ||
		!v2_long(rec, "content", lr->format_version, &content, index, why) ||
		!v2_long(rec, "sequence_number", lr->format_version,
				 &m->sequence_number, index, why) ||
		!v2_long(rec, "min_sequence_number", lr->format_version,
				 &m->min_sequence_number, index, why) ||
		!need_long(rec, "added_snapshot_id", false, &m->added_snapshot_id,
				   what, index, why) ||
		!opt_long(rec, "first_row_id", &m->has_first_row_id,
				  &m->first_row_id, what, index, why) ||
		!read_summaries(rec, m, index, why))
		return false;
	if (content != PQ_ICEBERG_MANIFEST_DATA &&
		content != PQ_ICEBERG_MANIFEST_DELETES)
	{
		*why = psprintf("%s " INT64_FORMAT ": content is neither 0 (data) nor 1 (deletes)",
						what, index);
		return false;
	}
	m->content = (int) content;
	lr->n++;
	return true;
}

bool
pq_iceberg_read_manifest_list(const uint8 *data, size_t len,
							  int format_version, PqIcebergManifestFile **out,
							  int *n, const char **why)
{
	PqAvroFile	f;
	ListRead	lr;
	int64		records;

	*out = NULL;
	*n = 0;
	if (!pq_avro_open(data, len, &f, why))
		return false;
	memset(&lr, 0, sizeof(lr));
	lr.format_version = format_version;
	if (format_version <= 0)
	{
		const char *v = pq_avro_meta_string(&f, "format-version");

		if (v == NULL)
			lr.format_version = 1;
		else if (strlen(v) == 1 && v[0] >= '1' && v[0] <= '3')
			lr.format_version = v[0] - '0';
		else
		{
			*why = "the manifest list's format-version is not 1, 2 or 3";
			return false;
		}
	}
	if (!pq_avro_read(&f, PQ_ICEBERG_MAX_MANIFESTS, list_record, &lr,
					  &records, why))
		return false;
	*out = lr.files;
	*n = lr.n;
	return true;
}

/* ---------------------------------------------------------------- manifest */

/* A partition field's name and id, sorted by name for bsearch(). */
typedef struct NamedId
{
	const char *name;
	int32		id;
} NamedId;

static int
cmp_named(const void *a, const void *b)
{
	return strcmp(((const NamedId *) a)->name, ((const NamedId *) b)->name);
}

typedef struct ManifestRead
{
	const PqIcebergManifestFile *list;
	PqIcebergEntry *entries;
	int			n;
	int			cap;
	NamedId    *spec;			/* partition-spec metadata's fields */
	int			nspec;
	NamedId    *declared;		/* the schema's partition struct's field-ids */
	int			ndeclared;
	const char **names;			/* per partition field, from the first entry */
	int32	   *ids;
	int			nids;
} ManifestRead;

/* The fields of a JSON array of {name, field-id} objects, sorted. */
static NamedId *
named_ids(const PqJv *fields, bool position_ids, int *n)
{
	NamedId    *out;
	uint32		i;

	*n = 0;
	if (fields == NULL || fields->type != PQ_JV_ARRAY || fields->len == 0)
		return NULL;
	out = palloc(fields->len * sizeof(NamedId));
	for (i = 0; i < fields->len; i++)
	{
		const PqJv *f = &fields->u.items[i];
		const char *name = pq_jv_str(pq_jv_get(f, "name"));
		int64		id;

		if (name == NULL)
			continue;
		if (!pq_jv_int64(pq_jv_get(f, "field-id"), &id) ||
			id < 0 || id > PG_INT32_MAX)
		{
			if (!position_ids)
				continue;
			/* a v1 spec's field ids are 1000 on, by position */
			id = 1000 + i;
		}
		out[*n].name = name;
		out[(*n)++].id = (int32) id;
	}
	qsort(out, *n, sizeof(NamedId), cmp_named);
	return out;
}

/* A record type's object in a schema node (a union: its record branch). */
static const PqJv *
record_type(const PqJv *t)
{
	uint32		i;

	if (t != NULL && t->type == PQ_JV_ARRAY)
	{
		for (i = 0; i < t->len; i++)
			if (t->u.items[i].type == PQ_JV_OBJECT)
				return &t->u.items[i];
		return NULL;
	}
	return t != NULL && t->type == PQ_JV_OBJECT ? t : NULL;
}

/* The field called name of a record type object. */
static const PqJv *
schema_field(const PqJv *record, const char *name)
{
	const PqJv *fields = pq_jv_get(record, "fields");
	uint32		i;

	if (fields == NULL || fields->type != PQ_JV_ARRAY)
		return NULL;
	for (i = 0; i < fields->len; i++)
	{
		const char *fn = pq_jv_str(pq_jv_get(&fields->u.items[i], "name"));

		if (fn != NULL && strcmp(fn, name) == 0)
			return &fields->u.items[i];
	}
	return NULL;
}

/* The partition-spec metadata and the schema's partition field-ids. */
static bool
partition_ids(const PqAvroFile *f, ManifestRead *mr, const char **why)
{
	const PqAvroMeta *m = NULL;
	const PqJv *df;
	const PqJv *part;
	int			i;

	for (i = 0; i < f->nmeta; i++)
		if (strcmp(f->meta[i].key, "partition-spec") == 0)
			m = &f->meta[i];
	if (m != NULL)
	{
		const char *jwhy = NULL;
		const PqJv *spec = pq_jv_parse((const char *) m->value, m->len, &jwhy);

		/* the fields array; a whole spec object is taken too */
		if (spec != NULL && spec->type == PQ_JV_OBJECT)
			spec = pq_jv_get(spec, "fields");
		if (spec == NULL || spec->type != PQ_JV_ARRAY)
		{
			*why = "the manifest's partition-spec is not a JSON array of fields";
			return false;
		}
		mr->spec = named_ids(spec, true, &mr->nspec);
	}
	df = record_type(pq_jv_get(schema_field(f->schema, "data_file"), "type"));
	part = record_type(pq_jv_get(schema_field(df, "partition"), "type"));
	mr->declared = named_ids(pq_jv_get(part, "fields"), false, &mr->ndeclared);
	return true;
}

static int32
lookup_id(const NamedId *ids, int n, const char *name)
{
	NamedId		key;
	const NamedId *hit;

	if (n == 0)
		return -1;
	key.name = name;
	hit = bsearch(&key, ids, n, sizeof(NamedId), cmp_named);
	return hit ? hit->id : -1;
}

static bool
read_partition(const avro_value_t *df, ManifestRead *mr, PqIcebergDataFile *d,
			   int64 index, const char **why)
{
	const char *what = "manifest entry";
	avro_value_t part;
	PqAvroGot	got = pq_avro_field(df, "partition", &part);
	int			n;
	int			i;

	if (got == PQ_AVRO_ABSENT || got == PQ_AVRO_NULL)
		return true;
	if (got != PQ_AVRO_VALUE || avro_value_get_type(&part) != AVRO_RECORD)
	{
		*why = field_why(what, index, "partition", PQ_AVRO_WRONG);
		return false;
	}
	n = pq_avro_record_size(&part);
	/* every entry has the schema's fields: names and ids are found once */
	if (mr->names == NULL)
	{
		mr->nids = n;
		mr->names = palloc0(Max(n, 1) * sizeof(char *));
		mr->ids = palloc(Max(n, 1) * sizeof(int32));
	}
	if (n != mr->nids)
	{
		*why = "manifest entries have partitions of different fields";
		return false;
	}
	d->partition = n > 0 ? palloc(n * sizeof(PqIcebergPartitionValue)) : NULL;
	for (i = 0; i < n; i++)
	{
		PqIcebergPartitionValue *pv = &d->partition[i];
		avro_value_t v;
		PqAvroScalar s;
		const char *name = NULL;

		memset(&s, 0, sizeof(s));
		got = pq_avro_record_field(&part, i, &name, &v);
		if (got == PQ_AVRO_VALUE)
			got = pq_avro_scalar(&v, &s);
		if (got == PQ_AVRO_WRONG)
		{
			*why = field_why(what, index, "a partition value", got);
			return false;
		}
		if (mr->names[i] == NULL)
		{
			mr->names[i] = pstrdup(name);
			mr->ids[i] = lookup_id(mr->spec, mr->nspec, name);
			if (mr->ids[i] < 0)
				mr->ids[i] = lookup_id(mr->declared, mr->ndeclared, name);
		}
		pv->field_id = mr->ids[i];
		pv->name = mr->names[i];
		memset(&pv->value, 0, sizeof(pv->value));
		pv->value.type = got == PQ_AVRO_NULL ? PQ_ICEBERG_NULL
			: (PqIcebergValueType) s.kind;
		pv->value.i = s.i;
		pv->value.d = s.d;
		pv->value.bytes = s.bytes;
		pv->value.len = s.len;
	}
	d->npartition = n;
	return true;
}

/* The scalar kinds map one to one on partition value types. */
StaticAssertDecl((int) PQ_AVRO_KIND_FIXED == (int) PQ_ICEBERG_FIXED &&
				 (int) PQ_AVRO_KIND_NULL == (int) PQ_ICEBERG_NULL,
				 "PqAvroKind and PqIcebergValueType differ");

typedef struct Keyed
{
	PqAvroIntEntry e;
	int			pos;
} Keyed;

static int
cmp_keyed(const void *a, const void *b)
{
	const Keyed *x = a;
	const Keyed *y = b;

	if (x->e.key != y->e.key)
		return x->e.key < y->e.key ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* An int-keyed map, sorted by key, of each key its last entry. */
static bool
read_map(const avro_value_t *df, const char *field, bool bytes_values,
		 Keyed **out, int *n, int64 index, const char **why)
{
	PqAvroIntEntry *e;
	int			ne;
	int			i;
	PqAvroGot	got = pq_avro_get_int_map(df, field, bytes_values, &e, &ne);

	*out = NULL;
	*n = 0;
	if (got == PQ_AVRO_ABSENT || got == PQ_AVRO_NULL)
		return true;
	if (got != PQ_AVRO_VALUE)
	{
		*why = field_why("manifest entry", index, field, got);
		return false;
	}
	if (ne == 0)
		return true;
	*out = palloc(ne * sizeof(Keyed));
	for (i = 0; i < ne; i++)
	{
		(*out)[i].e = e[i];
		(*out)[i].pos = i;
	}
	qsort(*out, ne, sizeof(Keyed), cmp_keyed);
	for (i = 0; i < ne; i++)
	{
		if (i + 1 < ne && (*out)[i + 1].e.key == (*out)[i].e.key)
			continue;
		(*out)[(*n)++] = (*out)[i];
	}
	pfree(e);
	return true;
}

static bool
read_counts(const avro_value_t *df, const char *field, PqIcebergCount **out,
			int *n, int64 index, const char **why)
{
	Keyed	   *k;
	int			i;

	if (!read_map(df, field, false, &k, n, index, why))
		return false;
	*out = *n > 0 ? palloc(*n * sizeof(PqIcebergCount)) : NULL;
	for (i = 0; i < *n; i++)
	{
		(*out)[i].field_id = k[i].e.key;
		(*out)[i].count = k[i].e.value;
	}
	return true;
}

static bool
read_bounds(const avro_value_t *df, const char *field, PqIcebergBound **out,
			int *n, int64 index, const char **why)
{
	Keyed	   *k;
	int			i;

	if (!read_map(df, field, true, &k, n, index, why))
		return false;
	*out = *n > 0 ? palloc(*n * sizeof(PqIcebergBound)) : NULL;
	for (i = 0; i < *n; i++)
	{
		(*out)[i].field_id = k[i].e.key;
		(*out)[i].bytes = k[i].e.bytes;
		(*out)[i].len = k[i].e.len;
	}
	return true;
}

static bool
read_equality_ids(const avro_value_t *df, PqIcebergDataFile *d, int64 index,
				  const char **why)
{
	avro_value_t array;
	int			n;
	int			i;
	PqAvroGot	got = pq_avro_get_array(df, "equality_ids", &array, &n);

	if (got == PQ_AVRO_ABSENT || got == PQ_AVRO_NULL)
		return true;
	if (got == PQ_AVRO_VALUE && n > 0)
		d->equality_ids = palloc(n * sizeof(int32));
	for (i = 0; got == PQ_AVRO_VALUE && i < n; i++)
	{
		avro_value_t item;
		PqAvroScalar s;

		got = pq_avro_array_item(&array, i, &item);
		if (got == PQ_AVRO_VALUE)
			got = pq_avro_scalar(&item, &s);
		if (got == PQ_AVRO_VALUE && s.kind != PQ_AVRO_KIND_INT)
			got = PQ_AVRO_WRONG;
		if (got == PQ_AVRO_VALUE)
			d->equality_ids[i] = (int32) s.i;
	}
	if (got != PQ_AVRO_VALUE)
	{
		*why = field_why("manifest entry", index, "equality_ids", got);
		return false;
	}
	d->nequality_ids = n;
	return true;
}

static bool
read_data_file(const avro_value_t *df, ManifestRead *mr, PqIcebergDataFile *d,
			   int64 index, const char **why)
{
	const char *what = "manifest entry";
	int32		content;
	char	   *ref = NULL;
	bool		has_size;
	PqAvroGot	got = pq_avro_get_int(df, "content", &content);

	if (got == PQ_AVRO_ABSENT)
		content = PQ_ICEBERG_CONTENT_DATA;
	else if (got != PQ_AVRO_VALUE)
	{
		*why = field_why(what, index, "content", got);
		return false;
	}
	if (content < 0 || content > 2)
	{
		*why = psprintf("%s " INT64_FORMAT ": content is %d, not 0 to 2",
						what, index, content);
		return false;
	}
	d->content = content;
	if (mr->list != NULL &&
		(mr->list->content == PQ_ICEBERG_MANIFEST_DELETES) !=
		(content != PQ_ICEBERG_CONTENT_DATA))
	{
		*why = psprintf("%s " INT64_FORMAT ": a %s file in a %s manifest",
						what, index, content ? "delete" : "data",
						content ? "data" : "delete");
		return false;
	}
	if (!need_string(df, "file_path", &d->file_path, what, index, why) ||
		!need_string(df, "file_format", &d->file_format, what, index, why) ||
		!read_partition(df, mr, d, index, why) ||
		!need_long(df, "record_count", true, &d->record_count,
				   what, index, why) ||
		!need_long(df, "file_size_in_bytes", true, &d->file_size_in_bytes,
				   what, index, why) ||
		!read_counts(df, "value_counts", &d->value_counts,
					 &d->nvalue_counts, index, why) ||
		!read_counts(df, "null_value_counts", &d->null_value_counts,
					 &d->nnull_value_counts, index, why) ||
		!read_counts(df, "nan_value_counts", &d->nan_value_counts,
					 &d->nnan_value_counts, index, why) ||
		!read_bounds(df, "lower_bounds", &d->lower_bounds,
					 &d->nlower_bounds, index, why) ||
		!read_bounds(df, "upper_bounds", &d->upper_bounds,
					 &d->nupper_bounds, index, why) ||
		!read_equality_ids(df, d, index, why) ||
		!opt_long(df, "content_offset", &d->has_content_offset,
				  &d->content_offset, what, index, why) ||
		!opt_long(df, "content_size_in_bytes", &has_size,
				  &d->content_size_in_bytes, what, index, why) ||
		!opt_long(df, "first_row_id", &d->has_first_row_id,
				  &d->first_row_id, what, index, why))
		return false;
	got = pq_avro_get_string(df, "referenced_data_file", &ref);
	if (got == PQ_AVRO_WRONG)
	{
		*why = field_why(what, index, "referenced_data_file", got);
		return false;
	}
	d->referenced_data_file = got == PQ_AVRO_VALUE ? ref : NULL;
	if (d->has_content_offset != has_size ||
		(has_size && (d->content_offset < 0 || d->content_size_in_bytes < 0)))
	{
		*why = psprintf("%s " INT64_FORMAT ": content_offset and content_size_in_bytes are not both given and not negative",
						what, index);
		return false;
	}
	return true;
}

/* A null sequence number inherited (InheritableMetadataFactory's rule). */
static void
inherit_seq(const ManifestRead *mr, int status, bool *has, int64 *seq)
{
	if (*has || mr->list == NULL)
		return;
	if (mr->list->sequence_number == 0 || status == PQ_ICEBERG_STATUS_ADDED)
	{
		*has = true;
		*seq = mr->list->sequence_number;
	}
}

static bool
entry_record(void *arg, int64 index, const avro_value_t *rec,
			 const char **why)
{
	const char *what = "manifest entry";
	ManifestRead *mr = arg;
	PqIcebergEntry *e;
	int32		status;
	avro_value_t df;
	PqAvroGot	got;

	mr->entries = grow_array(mr->entries, mr->n, &mr->cap,
							 sizeof(PqIcebergEntry));
	e = &mr->entries[mr->n];
	memset(e, 0, sizeof(*e));
	if (!need_int(rec, "status", 0, 2, &status, what, index, why) ||
		!opt_long(rec, "snapshot_id", &e->has_snapshot_id, &e->snapshot_id,
				  what, index, why) ||
		!opt_long(rec, "sequence_number", &e->has_sequence_number,
				  &e->sequence_number, what, index, why) ||
		!opt_long(rec, "file_sequence_number", &e->has_file_sequence_number,
				  &e->file_sequence_number, what, index, why))
		return false;
	e->status = status;
	if (!e->has_snapshot_id && mr->list != NULL)
	{
		e->has_snapshot_id = true;
		e->snapshot_id = mr->list->added_snapshot_id;
	}
	inherit_seq(mr, status, &e->has_sequence_number, &e->sequence_number);
	inherit_seq(mr, status, &e->has_file_sequence_number,
				&e->file_sequence_number);
	got = pq_avro_field(rec, "data_file", &df);
	if (got == PQ_AVRO_VALUE && avro_value_get_type(&df) != AVRO_RECORD)
		got = PQ_AVRO_WRONG;
	if (got != PQ_AVRO_VALUE)
	{
		*why = field_why(what, index, "data_file", got);
		return false;
	}
	if (!read_data_file(&df, mr, &e->file, index, why))
		return false;
	mr->n++;
	return true;
}

bool
pq_iceberg_read_manifest(const uint8 *data, size_t len,
						 const PqIcebergManifestFile *from_list,
						 PqIcebergEntry **out, int *n, const char **why)
{
	PqAvroFile	f;
	ManifestRead mr;
	int64		records;

	*out = NULL;
	*n = 0;
	if (!pq_avro_open(data, len, &f, why))
		return false;
	memset(&mr, 0, sizeof(mr));
	mr.list = from_list;
	if (!partition_ids(&f, &mr, why) ||
		!pq_avro_read(&f, PQ_ICEBERG_MAX_ENTRIES, entry_record, &mr,
					  &records, why))
		return false;
	*out = mr.entries;
	*n = mr.n;
	return true;
}
