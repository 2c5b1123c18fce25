/*-------------------------------------------------------------------------
 *
 * metadata_schema.c
 *		The schemas and partition specs of an Iceberg table metadata file
 *		(metadata.h): field ids, names and types checked at every level of
 *		nesting, v1's single schema and spec, transforms.
 *
 * Types are checked once here, so that a caller walking a field's nested
 * type (its JSON, kept) needs no checks of its own: every struct has an
 * array of fields, every list and map its ids, requiredness and types.
 * Names of types and transforms are taken in any case, as the Java
 * reference reads them, and given in their canonical form.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdlib.h>
#include <string.h>

#include "table/iceberg/metadata_read.h"

/* The ids of a schema's fields, nested ones included. */
typedef struct IdList
{
	int64	   *ids;
	int			n;
	int			cap;
} IdList;

static bool check_type(const PqJv *t, int depth, IdList *ids, char **kind,
					   const char **why);

static int
int64_cmp(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return x < y ? -1 : x > y;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* Whether any of the n values v is given twice (v is then sorted). */
static bool
int64s_repeat(int64 *v, int n)
{
	int			i;

	if (n < 2)
		return false;			/* and v may be NULL */
	qsort(v, n, sizeof(int64), int64_cmp);
	for (i = 1; i < n; i++)
		if (v[i - 1] == v[i])
			return true;
	return false;
}

/* Whether any of the n strings v is given twice (v is then sorted). */
static bool
strings_repeat(const char **v, int n)
{
	int			i;

	if (n < 2)
		return false;			/* and v may be NULL */
	qsort(v, n, sizeof(char *), str_cmp);
	for (i = 1; i < n; i++)
		if (strcmp(v[i - 1], v[i]) == 0)
			return true;
	return false;
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Whether s begins with word, in any case; *rest is then past it. */
static bool
word_at(const char *s, const char *word, const char **rest)
{
	size_t		n = strlen(word);
	size_t		i;

	for (i = 0; i < n; i++)
		if (lower(s[i]) != word[i])
			return false;
	*rest = s + n;
	return true;
}

static const char *
skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Decimal digits at *s as a positive int32 (no sign); *s is moved past them. */
static bool
digits(const char **s, int32 *out)
{
	int64		v = 0;
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
	{
		v = v * 10 + (*p - '0');
		if (v > PG_INT32_MAX)
			return false;
	}
	*s = p;
	*out = (int32) v;
	return true;
}

/* s[0..n) with the blanks around it dropped, as a new string. */
static char *
trimmed(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return pnstrdup(s, n);
}

/*
 * The canonical name (metadata.h) of primitive type s, as Appendix C
 * writes them, in any case as the Java reader takes them; NULL when s is
 * none.  A v3 type in an older table is taken: the spec says it "can break
 * forward compatibility", not that it is invalid.
 */
static char *
primitive(const char *s)
{
	static const char *const simple[] = {
		"boolean", "int", "long", "float", "double", "date", "time",
		"timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns",
		"string", "uuid", "binary", "unknown", "variant"
	};
	static const char *const edges[] = {
		"spherical", "vincenty", "thomas", "andoyer", "karney"
	};
	const char *p;
	int32		a;
	int32		b;
	int			i;

	for (i = 0; i < (int) lengthof(simple); i++)
		if (word_at(s, simple[i], &p) && *p == '\0')
			return pstrdup(simple[i]);
	if (word_at(s, "decimal", &p))
	{
		/* "decimal(9,2)"; Appendix C also shows "decimal(9, 2)" */
		p = skip_blanks(p);
		if (*p++ != '(')
			return NULL;
		p = skip_blanks(p);
		if (!digits(&p, &a))
			return NULL;
		p = skip_blanks(p);
		if (*p++ != ',')
			return NULL;
		p = skip_blanks(p);
		if (!digits(&p, &b))
			return NULL;
		p = skip_blanks(p);
		if (*p++ != ')' || *p != '\0' || a < 1 || a > 38 || b > a)
			return NULL;
		return psprintf("decimal(%d,%d)", a, b);
	}
	if (word_at(s, "fixed", &p))
	{
		if (*p++ != '[' || !digits(&p, &a) || *p++ != ']' || *p != '\0' ||
			a < 1)
			return NULL;
		return psprintf("fixed[%d]", a);
	}
	if (word_at(s, "geometry", &p) || word_at(s, "geography", &p))
	{
		bool		geography = lower(s[3]) == 'g';
		const char *kw = geography ? "geography" : "geometry";
		const char *close;
		const char *comma;
		char	   *crs;
		char	   *edge;

		p = skip_blanks(p);
		if (*p == '\0')
			return pstrdup(kw);
		close = strchr(p, ')');
		if (*p != '(' || close == NULL || close[1] != '\0' ||
			memchr(p + 1, '(', close - p - 1) != NULL)
			return NULL;
		comma = memchr(p + 1, ',', close - p - 1);
		if (comma != NULL && !geography)
			return NULL;
		crs = trimmed(p + 1, (comma ? comma : close) - p - 1);
		if (comma == NULL)
			return *crs == '\0' ? pstrdup(kw) : psprintf("%s(%s)", kw, crs);
		edge = trimmed(comma + 1, close - comma - 1);
		for (i = 0; edge[i] != '\0'; i++)
			edge[i] = lower(edge[i]);
		for (i = 0; i < (int) lengthof(edges); i++)
			if (strcmp(edge, edges[i]) == 0 && *crs != '\0')
				return psprintf("geography(%s,%s)", crs, edge);
		return NULL;
	}
	return NULL;
}

static bool
add_id(IdList *ids, int32 id, const char **why)
{
	if (ids->n == ids->cap)
	{
		if (ids->cap >= PQ_ICEBERG_MAX_COUNT)
			return refuse(why, "a schema has more than a million fields");
		ids->cap = Max(16, ids->cap * 2);
		ids->ids = ids->ids == NULL ? palloc(sizeof(int64) * ids->cap) :
			repalloc(ids->ids, sizeof(int64) * ids->cap);
	}
	ids->ids[ids->n++] = id;
	return true;
}

/* A field id (of a field, a list's element, a map's key or value). */
static bool
id_member(const PqJv *o, const char *name, const char *what, IdList *ids,
		  int32 *out, const char **why)
{
	if (!int32_member(o, name, what, true, 0, 0, out, why))
		return false;
	if (*out > PQ_ICEBERG_MAX_FIELD_ID)
	{
		*why = psprintf("%s's %s is reserved for metadata columns", what,
						name);
		return false;
	}
	return add_id(ids, *out, why);
}

/*
 * A field of a struct; out, when not NULL, is filled.  depth: that of the
 * struct.
 */
static bool
check_field(const PqJv *f, int depth, IdList *ids, PqIcebergField *out,
			const char **why)
{
	const char *name;
	const PqJv *type;
	int32		id;
	bool		required;
	char	   *kind;

	if (f->type != PQ_JV_OBJECT)
		return refuse(why, "a schema field is not an object");
	if (!id_member(f, "id", "a schema field", ids, &id, why) ||
		!string_member(f, "name", "a schema field", true, &name, why) ||
		!bool_member(f, "required", "a schema field", &required, why))
		return false;
	if (*name == '\0' || strlen(name) > PQ_ICEBERG_MAX_NAME)
		return refuse(why, "a schema field's name is empty or too long");
	type = member(f, "type");
	if (type == NULL)
		return refuse(why, "a schema field lacks its type");
	if (!check_type(type, depth, ids, &kind, why))
		return false;
	if (out != NULL)
	{
		out->id = id;
		out->name = keep(name);
		out->required = required;
		out->type = kind;
		out->type_tree = type;
		out->initial_default = member(f, "initial-default");
		out->write_default = member(f, "write-default");
	}
	return true;
}

/*
 * The fields of struct type t (a schema is one); out, when not NULL, gets
 * an array of them.
 */
static bool
check_struct(const PqJv *t, int depth, IdList *ids, PqIcebergField **out,
			 int *nout, const char **why)
{
	const PqJv *fields;
	const char **names;
	uint32		i;

	if (!get_member(t, "fields", "a struct type", true, PQ_JV_ARRAY, &fields,
					why))
		return false;
	if (out != NULL)
	{
		*out = palloc0(sizeof(PqIcebergField) * Max(fields->len, 1));
		*nout = fields->len;
	}
	names = palloc(sizeof(char *) * Max(fields->len, 1));
	for (i = 0; i < fields->len; i++)
	{
		if (!check_field(&fields->u.items[i], depth, ids,
						 out ? &(*out)[i] : NULL, why))
			return false;
		names[i] = pq_jv_str(pq_jv_get(&fields->u.items[i], "name"));
	}
	/* the Java reader refuses a struct naming a field twice, as would SQL */
	if (strings_repeat(names, fields->len))
		return refuse(why, "a struct type names a field twice");
	pfree(names);
	return true;
}

/*
 * Type t of a field (depth: that of its struct, list or map); *kind is its
 * canonical name.
 */
static bool
check_type(const PqJv *t, int depth, IdList *ids, char **kind,
		   const char **why)
{
	const char *k;
	char	   *sub;			/* an element's, key's or value's kind */
	int32		id;
	bool		b;

	if (t->type == PQ_JV_STRING)
	{
		*kind = primitive(t->u.str);
		return *kind != NULL ||
			refuse(why, "a schema field's type is unknown or malformed");
	}
	if (t->type != PQ_JV_OBJECT)
		return refuse(why, "a schema field's type is neither a string nor an object");
	if (depth >= PQ_ICEBERG_MAX_TYPE_DEPTH)
		return refuse(why, "types are nested deeper than "
					  CppAsString2(PQ_ICEBERG_MAX_TYPE_DEPTH) " levels");
	if (!string_member(t, "type", "a nested type", true, &k, why))
		return false;
	if (strcmp(k, "struct") == 0)
	{
		*kind = "struct";
		return check_struct(t, depth + 1, ids, NULL, NULL, why);
	}
	if (strcmp(k, "list") == 0)
	{
		const PqJv *e = member(t, "element");

		*kind = "list";
		if (!id_member(t, "element-id", "a list type", ids, &id, why) ||
			!bool_member(t, "element-required", "a list type", &b, why))
			return false;
		if (e == NULL)
			return refuse(why, "a list type lacks its element");
		return check_type(e, depth + 1, ids, &sub, why);
	}
	if (strcmp(k, "map") == 0)
	{
		const PqJv *key = member(t, "key");
		const PqJv *value = member(t, "value");

		*kind = "map";
		if (!id_member(t, "key-id", "a map type", ids, &id, why) ||
			!id_member(t, "value-id", "a map type", ids, &id, why) ||
			!bool_member(t, "value-required", "a map type", &b, why))
			return false;
		if (key == NULL || value == NULL)
			return refuse(why, "a map type lacks its key or value");
		return check_type(key, depth + 1, ids, &sub, why) &&
			check_type(value, depth + 1, ids, &sub, why);
	}
	return refuse(why, "a nested type is not a struct, list or map");
}

/* A schema: an object of "type" "struct" with schema-id (dflt: v1's). */
static bool
read_schema(const PqJv *s, int version, int32 dflt, PqIcebergSchema *out,
			const char **why)
{
	IdList		ids = {NULL, 0, 0};
	const PqJv *idents;
	const char *type;
	uint32		i;

	if (s->type != PQ_JV_OBJECT)
		return refuse(why, "a schema is not an object");
	if (!string_member(s, "type", "a schema", false, &type, why) ||
		!int32_member(s, "schema-id", "a schema", version >= 2, PG_INT32_MIN,
					  dflt, &out->schema_id, why))
		return false;
	if (type != NULL && strcmp(type, "struct") != 0)
		return refuse(why, "a schema is not a struct type");
	if (!check_struct(s, 0, &ids, &out->fields, &out->nfields, why))
		return false;
	if (int64s_repeat(ids.ids, ids.n))
		return refuse(why, "a schema gives a field id twice");
	if (!get_member(s, "identifier-field-ids", "a schema", false, PQ_JV_ARRAY,
					&idents, why))
		return false;
	out->nidentifiers = idents ? idents->len : 0;
	out->identifier_ids = palloc(sizeof(int32) * Max(out->nidentifiers, 1));
	for (i = 0; i < (uint32) out->nidentifiers; i++)
	{
		int64		v;

		if (!pq_jv_int64(&idents->u.items[i], &v) || v < 0 || v > PG_INT32_MAX)
			return refuse(why, "a schema's identifier-field-ids are not field ids");
		out->identifier_ids[i] = (int32) v;
		if (ids.n == 0 ||
			bsearch(&v, ids.ids, ids.n, sizeof(int64), int64_cmp) == NULL)
			return refuse(why, "an identifier field is not a field of its schema");
	}
	if (ids.ids != NULL)
		pfree(ids.ids);
	return true;
}

bool
pq_iceberg_read_schemas(const PqJv *root, PqIcebergMetadata *md,
						const char **why)
{
	const PqJv *schemas;
	int64	   *sids;
	uint32		i;

	if (!get_member(root, "schemas", "the metadata", md->format_version >= 2,
					PQ_JV_ARRAY, &schemas, why))
		return false;
	if (schemas == NULL)
	{
		/* v1: the single current schema */
		const PqJv *s = member(root, "schema");

		if (s == NULL)
			return refuse(why, "the metadata lacks its schemas and schema");
		md->nschemas = 1;
		md->schemas = palloc0(sizeof(PqIcebergSchema));
		if (!read_schema(s, md->format_version, 0, &md->schemas[0], why))
			return false;
		md->current_schema_id = md->schemas[0].schema_id;
		return true;
	}
	if (schemas->len == 0)
		return refuse(why, "the metadata's schemas are empty");
	if (!int32_member(root, "current-schema-id", "the metadata", true,
					  PG_INT32_MIN, 0, &md->current_schema_id, why))
		return false;
	md->nschemas = schemas->len;
	md->schemas = palloc0(sizeof(PqIcebergSchema) * schemas->len);
	sids = palloc(sizeof(int64) * schemas->len);
	for (i = 0; i < schemas->len; i++)
	{
		/* a v1 list without ids: their places, as iceberg-rust reads it */
		if (!read_schema(&schemas->u.items[i], md->format_version, (int32) i,
						 &md->schemas[i], why))
			return false;
		sids[i] = md->schemas[i].schema_id;
	}
	if (int64s_repeat(sids, schemas->len))
		return refuse(why, "the metadata gives a schema id twice");
	pfree(sids);
	if (pq_iceberg_schema(md, md->current_schema_id) == NULL)
		return refuse(why, "the current schema is not among the schemas");
	return true;
}

/* A transform's canonical form (metadata.h); NULL: a malformed width. */
static char *
transform(const char *t)
{
	static const char *const simple[] = {
		"identity", "year", "month", "day", "hour", "void"
	};
	const char *p;
	int32		n;
	int			i;

	for (i = 0; i < (int) lengthof(simple); i++)
		if (word_at(t, simple[i], &p) && *p == '\0')
			return pstrdup(simple[i]);
	if (word_at(t, "bucket[", &p) || word_at(t, "truncate[", &p))
	{
		if (!digits(&p, &n) || *p++ != ']' || *p != '\0' || n < 1)
			return NULL;
		return psprintf("%s[%d]", lower(t[0]) == 'b' ? "bucket" : "truncate",
						n);
	}
	return pstrdup(t);
}

/* The fields of a partition spec (v1: its ids assigned when not given). */
static bool
read_spec_fields(const PqJv *fields, int version, PqIcebergSpec *spec,
				 const char **why)
{
	const char *what = "a partition field";
	int64	   *fids = palloc(sizeof(int64) * Max(fields->len, 1));
	const char **names = palloc(sizeof(char *) * Max(fields->len, 1));
	int32		last = 999;		/* ids are 1000 on, as Java assigns them */
	uint32		i;

	spec->nfields = fields->len;
	spec->fields = palloc0(sizeof(PqIcebergPartitionField) *
						   Max(fields->len, 1));
	for (i = 0; i < fields->len; i++)
	{
		const PqJv *f = &fields->u.items[i];
		PqIcebergPartitionField *pf = &spec->fields[i];
		const PqJv *sources;
		const char *s;
		int64		fid;
		uint32		k;

		if (f->type != PQ_JV_OBJECT)
			return refuse(why, "a partition field is not an object");
		if (!get_member(f, "source-ids", what, false, PQ_JV_ARRAY, &sources,
						why))
			return false;
		if (sources != NULL && sources->len > 0)
		{
			pf->nsource_ids = sources->len;
			pf->source_ids = palloc(sizeof(int32) * sources->len);
			for (k = 0; k < sources->len; k++)
			{
				int64		v;

				if (!pq_jv_int64(&sources->u.items[k], &v) || v < 0 ||
					v > PG_INT32_MAX)
					return refuse(why, "a partition field's source-ids are not field ids");
				pf->source_ids[k] = (int32) v;
			}
		}
		else
		{
			pf->nsource_ids = 1;
			pf->source_ids = palloc(sizeof(int32));
			if (!int32_member(f, "source-id", what, true, 0, 0,
							  &pf->source_ids[0], why))
				return false;
		}
		pf->source_id = pf->nsource_ids == 1 ? pf->source_ids[0] : -1;
		if (!int_member(f, "field-id", what, version >= 2, 0, PG_INT32_MAX,
						-1, &fid, why))
			return false;
		if (fid < 0 && last == PG_INT32_MAX)
			return refuse(why, "a partition field's id is out of range");
		pf->field_id = fid >= 0 ? (int32) fid : ++last;
		last = Max(last, pf->field_id);
		fids[i] = pf->field_id;
		if (!string_member(f, "name", what, true, &s, why))
			return false;
		if (*s == '\0' || strlen(s) > PQ_ICEBERG_MAX_NAME)
			return refuse(why, "a partition field's name is empty or too long");
		pf->name = keep(s);
		names[i] = pf->name;
		if (!string_member(f, "transform", what, true, &s, why))
			return false;
		if (*s == '\0' || strlen(s) > PQ_ICEBERG_MAX_NAME)
			return refuse(why, "a partition field's transform is empty or too long");
		pf->transform = transform(s);
		if (pf->transform == NULL)
			return refuse(why, "a partition field's bucket or truncate width is not a positive integer");
	}
	if (int64s_repeat(fids, fields->len))
		return refuse(why, "a partition spec gives a field id twice");
	if (strings_repeat(names, fields->len))
		return refuse(why, "a partition spec names a field twice");
	pfree(fids);
	pfree(names);
	return true;
}

bool
pq_iceberg_read_specs(const PqJv *root, PqIcebergMetadata *md, const char **why)
{
	const PqJv *specs;
	int64	   *ids;
	uint32		i;

	if (!get_member(root, "partition-specs", "the metadata",
					md->format_version >= 2, PQ_JV_ARRAY, &specs, why))
		return false;
	if (specs == NULL)
	{
		/* v1: the current spec's fields alone, as spec 0; none: unpartitioned */
		const PqJv *fields;

		if (!get_member(root, "partition-spec", "the metadata", false,
						PQ_JV_ARRAY, &fields, why))
			return false;
		md->nspecs = 1;
		md->specs = palloc0(sizeof(PqIcebergSpec));
		md->default_spec_id = 0;
		return fields == NULL ||
			read_spec_fields(fields, md->format_version, &md->specs[0], why);
	}
	if (specs->len == 0)
		return refuse(why, "the metadata's partition-specs are empty");
	if (!int32_member(root, "default-spec-id", "the metadata", true,
					  PG_INT32_MIN, 0, &md->default_spec_id, why))
		return false;
	md->nspecs = specs->len;
	md->specs = palloc0(sizeof(PqIcebergSpec) * specs->len);
	ids = palloc(sizeof(int64) * specs->len);
	for (i = 0; i < specs->len; i++)
	{
		const PqJv *s = &specs->u.items[i];
		const PqJv *fields;

		if (s->type != PQ_JV_OBJECT)
			return refuse(why, "a partition spec is not an object");
		if (!int32_member(s, "spec-id", "a partition spec", true,
						  PG_INT32_MIN, 0, &md->specs[i].spec_id, why) ||
			!get_member(s, "fields", "a partition spec", true, PQ_JV_ARRAY,
						&fields, why) ||
			!read_spec_fields(fields, md->format_version, &md->specs[i], why))
			return false;
		ids[i] = md->specs[i].spec_id;
	}
	if (int64s_repeat(ids, specs->len))
		return refuse(why, "the metadata gives a partition spec id twice");
	pfree(ids);
	if (pq_iceberg_spec(md, md->default_spec_id) == NULL)
		return refuse(why, "the default partition spec is not among the specs");
	return true;
}

const PqIcebergSpec *
pq_iceberg_spec(const PqIcebergMetadata *md, int32 spec_id)
{
	int			i;

	for (i = 0; i < md->nspecs; i++)
		if (md->specs[i].spec_id == spec_id)
			return &md->specs[i];
	return NULL;
}

const PqIcebergSchema *
pq_iceberg_schema(const PqIcebergMetadata *md, int32 schema_id)
{
	int			i;

	for (i = 0; i < md->nschemas; i++)
		if (md->schemas[i].schema_id == schema_id)
			return &md->schemas[i];
	return NULL;
}
