/*-------------------------------------------------------------------------
 *
 * avro_file.c
 *		Avro container files from memory: the header and its metadata,
 *		blocks checked and decompressed, records decoded by libavro into
 *		generic values, fields read by name.
 *
 * libavro reports errors by return codes and allocates with malloc, while
 * a record callback may palloc and raise ERRORs: everything libavro made
 * for a read is kept in one palloc'd state and released in PG_FINALLY, so
 * that an ERROR leaves nothing of libavro's behind.  No ERROR is raised
 * here while libavro holds memory outside that block.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <string.h>

#include "table/iceberg/avro_file.h"
#include "table/iceberg/avro_guard.h"

#define AVRO_MAGIC "Obj\001"

/* ---------------------------------------------------------------- header */

/* Bytes (a length, then that many) at *p: false past end. */
static bool
read_bytes(const uint8 **p, const uint8 *end, const uint8 **bytes,
		   size_t *len)
{
	int64		n;

	if (!pq_avro_read_long(p, end, &n) || n < 0 || n > end - *p)
		return false;
	*bytes = *p;
	*len = (size_t) n;
	*p += n;
	return true;
}

static const PqAvroMeta *
find_meta(const PqAvroFile *f, const char *key)
{
	int			i;

	for (i = 0; i < f->nmeta; i++)
		if (strcmp(f->meta[i].key, key) == 0)
			return &f->meta[i];
	return NULL;
}

const char *
pq_avro_meta_string(const PqAvroFile *f, const char *key)
{
	const PqAvroMeta *m = find_meta(f, key);

	if (m == NULL || memchr(m->value, '\0', m->len) != NULL)
		return NULL;
	return (const char *) m->value;
}

/* The metadata map<bytes>: blocks of entries, a count of 0 ending them. */
static bool
read_meta(PqAvroFile *f, const uint8 **p, const uint8 *end, const char **why)
{
	int			cap = 0;

	*why = "the file's metadata is truncated or malformed";
	for (;;)
	{
		int64		count;
		int64		size;
		int64		i;

		if (!pq_avro_read_long(p, end, &count))
			return false;
		if (count == 0)
			return true;
		if (count < 0)
		{
			if (count == PG_INT64_MIN || !pq_avro_read_long(p, end, &size) ||
				size < 0 || size > end - *p)
				return false;
			count = -count;
		}
		/* an entry takes two bytes at least */
		if (count > (end - *p) / 2)
			return false;
		if (count > PQ_AVRO_MAX_META - f->nmeta)
		{
			*why = psprintf("the file has more than %d metadata entries",
							PQ_AVRO_MAX_META);
			return false;
		}
		if (f->nmeta + count > cap)
		{
			cap = f->nmeta + (int) count;
			f->meta = f->meta ? repalloc(f->meta, cap * sizeof(PqAvroMeta))
				: palloc(cap * sizeof(PqAvroMeta));
		}
		for (i = 0; i < count; i++)
		{
			const uint8 *k,
					   *v;
			size_t		klen,
						vlen;
			char	   *key;
			uint8	   *value;

			if (!read_bytes(p, end, &k, &klen) || !read_bytes(p, end, &v, &vlen))
				return false;
			if (memchr(k, '\0', klen) != NULL)
			{
				*why = "a metadata key of the file holds NUL";
				return false;
			}
			key = pnstrdup((const char *) k, klen);
			if (find_meta(f, key) != NULL)
			{
				*why = "the file's metadata has a key twice";
				return false;
			}
			value = palloc(vlen + 1);
			memcpy(value, v, vlen);
			value[vlen] = '\0';
			f->meta[f->nmeta].key = key;
			f->meta[f->nmeta].value = value;
			f->meta[f->nmeta].len = vlen;
			f->nmeta++;
		}
	}
}

bool
pq_avro_open(const uint8 *data, size_t len, PqAvroFile *f, const char **why)
{
	const uint8 *p = data;
	const uint8 *end = data + len;
	const PqAvroMeta *m;
	const char *jwhy = NULL;

	memset(f, 0, sizeof(*f));
	f->data = data;
	f->len = len;
	if (len < 4 || memcmp(data, AVRO_MAGIC, 4) != 0)
	{
		*why = "not an Avro container file (no magic bytes Obj 1)";
		return false;
	}
	p += 4;
	if (!read_meta(f, &p, end, why))
		return false;
	if (end - p < 16)
	{
		*why = "the file's header is truncated";
		return false;
	}
	memcpy(f->sync, p, 16);
	p += 16;
	f->first_block = p - data;

	m = find_meta(f, "avro.codec");
	if (!pq_avro_codec(m ? m->value : NULL, m ? m->len : 0, &f->codec, why))
		return false;
	m = find_meta(f, "avro.schema");
	if (m == NULL)
	{
		*why = "the file has no avro.schema";
		return false;
	}
	f->schema = pq_jv_parse((const char *) m->value, m->len, &jwhy);
	if (f->schema == NULL)
	{
		*why = psprintf("the file's avro.schema is not JSON: %s", jwhy);
		return false;
	}
	return pq_avro_guard_json(f->schema, why);
}

/* ---------------------------------------------------------------- records */

/* What libavro made for a read: freed in PG_FINALLY. */
typedef struct AvroState
{
	avro_schema_t schema;
	avro_value_iface_t *iface;
	avro_value_t value;
	bool		have_value;
	avro_reader_t reader;
} AvroState;

static void
release(AvroState *st)
{
	if (st->reader)
		avro_reader_free(st->reader);
	if (st->have_value)
		avro_value_decref(&st->value);
	if (st->iface)
		avro_value_iface_decref(st->iface);
	if (st->schema)
		avro_schema_decref(st->schema);
	memset(st, 0, sizeof(*st));
}

/* libavro's schema and a value to decode into. */
static bool
make_values(const PqAvroFile *f, AvroState *st, const PqAvroNode **root,
			const char **why)
{
	const PqAvroMeta *m = find_meta(f, "avro.schema");

	if (avro_schema_from_json_length((const char *) m->value, m->len,
									 &st->schema) != 0)
	{
		st->schema = NULL;
		*why = "the file's avro.schema is not a schema libavro reads";
		return false;
	}
	*root = pq_avro_guard_compile(st->schema, why);
	if (*root == NULL)
		return false;
	st->iface = avro_generic_class_from_schema(st->schema);
	if (st->iface == NULL)
	{
		*why = "libavro cannot make values of the file's schema";
		return false;
	}
	if (avro_generic_value_new(st->iface, &st->value) != 0)
	{
		*why = "libavro cannot make a value of the file's schema";
		return false;
	}
	st->have_value = true;
	st->reader = avro_reader_memory(NULL, 0);
	if (st->reader == NULL)
	{
		*why = "libavro cannot make a reader";
		return false;
	}
	return true;
}

static bool
read_blocks(const PqAvroFile *f, AvroState *st, int64 max_records,
			PqAvroRecordFn fn, void *arg, int64 *nrec, const char **why)
{
	const PqAvroNode *root;
	const uint8 *p = f->data + f->first_block;
	const uint8 *end = f->data + f->len;
	size_t		decoded = 0;
	size_t		decoded_cap;
	int64		min_size;
	int64		block;

	if (!make_values(f, st, &root, why))
		return false;
	min_size = pq_avro_guard_min_size(root);
	decoded_cap = f->len > PQ_AVRO_DECODED_FLOOR / PQ_AVRO_MAX_EXPANSION
		? f->len * PQ_AVRO_MAX_EXPANSION : PQ_AVRO_DECODED_FLOOR;
	for (block = 0; p < end; block++)
	{
		int64		count;
		int64		size;
		const uint8 *raw;
		const uint8 *buf;
		size_t		blen;
		size_t		off = 0;
		int64		i;

		if (!pq_avro_read_long(&p, end, &count) ||
			!pq_avro_read_long(&p, end, &size) ||
			count < 0 || size < 0 || size > end - p)
		{
			*why = psprintf("block " INT64_FORMAT " is truncated or malformed",
							block);
			return false;
		}
		raw = p;
		p += size;
		if (end - p < 16 || memcmp(p, f->sync, 16) != 0)
		{
			*why = psprintf("block " INT64_FORMAT " does not end with the file's sync marker",
							block);
			return false;
		}
		p += 16;
		if (count > max_records - *nrec)
		{
			*why = psprintf("the file has more than " INT64_FORMAT " records",
							max_records);
			return false;
		}
		if (!pq_avro_decompress(f->codec, raw, size,
								Min(PQ_AVRO_MAX_BLOCK, decoded_cap - decoded),
								&buf, &blen, why))
			return false;
		decoded += blen;
		if (min_size > 0 && count > (int64) (blen / min_size))
		{
			*why = psprintf("block " INT64_FORMAT " is too short for its records",
							block);
			return false;
		}
		for (i = 0; i < count; i++)
		{
			size_t		used;
			int64		values = 0;

			if (!pq_avro_guard_record(root, buf + off, blen - off, &used,
									  &values, why))
			{
				*why = psprintf("record " INT64_FORMAT ": %s", *nrec, *why);
				return false;
			}
			avro_reader_memory_set_source(st->reader,
										  (const char *) buf + off, used);
			if (avro_value_read(st->reader, &st->value) != 0)
			{
				*why = psprintf("record " INT64_FORMAT ": libavro cannot decode it",
								*nrec);
				return false;
			}
			if (!fn(arg, *nrec, &st->value, why))
				return false;
			off += used;
			(*nrec)++;
		}
		if (off != blen)
		{
			*why = psprintf("block " INT64_FORMAT " has bytes after its records",
							block);
			return false;
		}
		if (buf != raw)
			pfree((void *) buf);
	}
	return true;
}

bool
pq_avro_read(const PqAvroFile *f, int64 max_records, PqAvroRecordFn fn,
			 void *arg, int64 *n, const char **why)
{
	AvroState  *st = palloc0(sizeof(AvroState));
	volatile bool ok = false;

	*n = 0;
	PG_TRY();
	{
		ok = read_blocks(f, st, max_records, fn, arg, n, why);
	}
	PG_FINALLY();
	{
		release(st);
	}
	PG_END_TRY();
	pfree(st);
	return ok;
}

/* -------------------------------------------------------------- accessors */

/* v with a union seen through: its branch, NULL for null. */
static PqAvroGot
unwrap(const avro_value_t *v, avro_value_t *out)
{
	avro_value_t cur = *v;

	if (avro_value_get_type(&cur) == AVRO_UNION)
	{
		avro_value_t branch;

		if (avro_value_get_current_branch(&cur, &branch) != 0)
			return PQ_AVRO_WRONG;
		cur = branch;
		if (avro_value_get_type(&cur) == AVRO_UNION)
			return PQ_AVRO_WRONG;
	}
	if (avro_value_get_type(&cur) == AVRO_NULL)
		return PQ_AVRO_NULL;
	*out = cur;
	return PQ_AVRO_VALUE;
}

PqAvroGot
pq_avro_field(const avro_value_t *rec, const char *name, avro_value_t *out)
{
	avro_value_t field;

	if (avro_value_get_type(rec) != AVRO_RECORD)
		return PQ_AVRO_WRONG;
	if (avro_value_get_by_name(rec, name, &field, NULL) != 0)
		return PQ_AVRO_ABSENT;
	return unwrap(&field, out);
}

int
pq_avro_record_size(const avro_value_t *v)
{
	size_t		n;

	if (avro_value_get_type(v) != AVRO_RECORD ||
		avro_value_get_size(v, &n) != 0)
		return 0;
	return (int) n;
}

PqAvroGot
pq_avro_record_field(const avro_value_t *rec, int i, const char **name,
					 avro_value_t *out)
{
	avro_value_t field;

	if (avro_value_get_type(rec) != AVRO_RECORD ||
		avro_value_get_by_index(rec, i, &field, name) != 0 || *name == NULL)
		return PQ_AVRO_WRONG;
	return unwrap(&field, out);
}

/* A long or int value. */
static PqAvroGot
value_long(const avro_value_t *v, int64 *out)
{
	int32		i32;
	int64		i64;

	switch (avro_value_get_type(v))
	{
		case AVRO_INT32:
			if (avro_value_get_int(v, &i32) != 0)
				return PQ_AVRO_WRONG;
			*out = i32;
			return PQ_AVRO_VALUE;
		case AVRO_INT64:
			if (avro_value_get_long(v, &i64) != 0)
				return PQ_AVRO_WRONG;
			*out = i64;
			return PQ_AVRO_VALUE;
		default:
			return PQ_AVRO_WRONG;
	}
}

/* bytes or fixed, copied */
static PqAvroGot
value_bytes(const avro_value_t *v, uint8 **out, int32 *len)
{
	const void *buf;
	size_t		size;
	int			rc;

	if (avro_value_get_type(v) == AVRO_BYTES)
		rc = avro_value_get_bytes(v, &buf, &size);
	else if (avro_value_get_type(v) == AVRO_FIXED)
		rc = avro_value_get_fixed(v, &buf, &size);
	else
		return PQ_AVRO_WRONG;
	if (rc != 0 || size > PG_INT32_MAX - 1)
		return PQ_AVRO_WRONG;
	*out = palloc(size + 1);
	if (size > 0)
		memcpy(*out, buf, size);
	(*out)[size] = '\0';
	*len = (int32) size;
	return PQ_AVRO_VALUE;
}

/* a string without NUL, copied */
static PqAvroGot
value_string(const avro_value_t *v, char **out)
{
	const char *str;
	size_t		size;

	/* libavro's size counts the terminating NUL */
	if (avro_value_get_type(v) != AVRO_STRING ||
		avro_value_get_string(v, &str, &size) != 0 || size == 0 ||
		memchr(str, '\0', size - 1) != NULL)
		return PQ_AVRO_WRONG;
	*out = pnstrdup(str, size - 1);
	return PQ_AVRO_VALUE;
}

PqAvroGot
pq_avro_get_long(const avro_value_t *rec, const char *name, int64 *out)
{
	avro_value_t v;
	PqAvroGot	got = pq_avro_field(rec, name, &v);

	return got == PQ_AVRO_VALUE ? value_long(&v, out) : got;
}

PqAvroGot
pq_avro_get_int(const avro_value_t *rec, const char *name, int32 *out)
{
	int64		v;
	PqAvroGot	got = pq_avro_get_long(rec, name, &v);

	if (got != PQ_AVRO_VALUE)
		return got;
	if (v < PG_INT32_MIN || v > PG_INT32_MAX)
		return PQ_AVRO_WRONG;
	*out = (int32) v;
	return PQ_AVRO_VALUE;
}

PqAvroGot
pq_avro_get_bool(const avro_value_t *rec, const char *name, bool *out)
{
	avro_value_t v;
	PqAvroGot	got = pq_avro_field(rec, name, &v);
	int			b;

	if (got != PQ_AVRO_VALUE)
		return got;
	if (avro_value_get_type(&v) != AVRO_BOOLEAN ||
		avro_value_get_boolean(&v, &b) != 0)
		return PQ_AVRO_WRONG;
	*out = b != 0;
	return PQ_AVRO_VALUE;
}

PqAvroGot
pq_avro_get_string(const avro_value_t *rec, const char *name, char **out)
{
	avro_value_t v;
	PqAvroGot	got = pq_avro_field(rec, name, &v);

	return got == PQ_AVRO_VALUE ? value_string(&v, out) : got;
}

PqAvroGot
pq_avro_get_bytes(const avro_value_t *rec, const char *name, uint8 **out,
				  int32 *len)
{
	avro_value_t v;
	PqAvroGot	got = pq_avro_field(rec, name, &v);

	return got == PQ_AVRO_VALUE ? value_bytes(&v, out, len) : got;
}

PqAvroGot
pq_avro_get_array(const avro_value_t *rec, const char *name,
				  avro_value_t *out, int *n)
{
	PqAvroGot	got = pq_avro_field(rec, name, out);
	size_t		size;

	if (got != PQ_AVRO_VALUE)
		return got;
	/* a record holds at most PQ_AVRO_MAX_RECORD_VALUES items */
	if (avro_value_get_type(out) != AVRO_ARRAY ||
		avro_value_get_size(out, &size) != 0 || size > PG_INT32_MAX)
		return PQ_AVRO_WRONG;
	*n = (int) size;
	return PQ_AVRO_VALUE;
}

PqAvroGot
pq_avro_array_item(const avro_value_t *array, int i, avro_value_t *out)
{
	avro_value_t item;

	if (avro_value_get_type(array) != AVRO_ARRAY ||
		avro_value_get_by_index(array, i, &item, NULL) != 0)
		return PQ_AVRO_WRONG;
	return unwrap(&item, out);
}

PqAvroGot
pq_avro_get_int_map(const avro_value_t *rec, const char *name,
					bool bytes_values, PqAvroIntEntry **out, int *n)
{
	avro_value_t array;
	int			size;
	int			i;
	PqAvroGot	got = pq_avro_get_array(rec, name, &array, &size);

	*out = NULL;
	*n = 0;
	if (got != PQ_AVRO_VALUE)
		return got;
	if (size > 0)
		*out = palloc(size * sizeof(PqAvroIntEntry));
	for (i = 0; i < size; i++)
	{
		avro_value_t kv;
		avro_value_t v;
		PqAvroIntEntry *e = &(*out)[*n];

		if (pq_avro_array_item(&array, i, &kv) != PQ_AVRO_VALUE ||
			pq_avro_get_int(&kv, "key", &e->key) != PQ_AVRO_VALUE)
			return PQ_AVRO_WRONG;
		got = pq_avro_field(&kv, "value", &v);
		if (got == PQ_AVRO_NULL)
			continue;
		if (got != PQ_AVRO_VALUE)
			return PQ_AVRO_WRONG;
		e->bytes = NULL;
		e->len = 0;
		e->value = 0;
		if ((bytes_values ? value_bytes(&v, &e->bytes, &e->len)
			 : value_long(&v, &e->value)) != PQ_AVRO_VALUE)
			return PQ_AVRO_WRONG;
		(*n)++;
	}
	return PQ_AVRO_VALUE;
}

PqAvroGot
pq_avro_scalar(const avro_value_t *v, PqAvroScalar *out)
{
	avro_value_t s;
	PqAvroGot	got = unwrap(v, &s);
	int			b;
	float		f;

	memset(out, 0, sizeof(*out));
	if (got == PQ_AVRO_NULL)
	{
		out->kind = PQ_AVRO_KIND_NULL;
		return got;
	}
	if (got != PQ_AVRO_VALUE)
		return got;
	switch (avro_value_get_type(&s))
	{
		case AVRO_BOOLEAN:
			out->kind = PQ_AVRO_KIND_BOOLEAN;
			if (avro_value_get_boolean(&s, &b) != 0)
				return PQ_AVRO_WRONG;
			out->i = b != 0;
			return PQ_AVRO_VALUE;
		case AVRO_INT32:
		case AVRO_INT64:
			out->kind = avro_value_get_type(&s) == AVRO_INT32
				? PQ_AVRO_KIND_INT : PQ_AVRO_KIND_LONG;
			return value_long(&s, &out->i);
		case AVRO_FLOAT:
			out->kind = PQ_AVRO_KIND_FLOAT;
			if (avro_value_get_float(&s, &f) != 0)
				return PQ_AVRO_WRONG;
			out->d = f;
			return PQ_AVRO_VALUE;
		case AVRO_DOUBLE:
			out->kind = PQ_AVRO_KIND_DOUBLE;
			return avro_value_get_double(&s, &out->d) == 0
				? PQ_AVRO_VALUE : PQ_AVRO_WRONG;
		case AVRO_STRING:
			out->kind = PQ_AVRO_KIND_STRING;
			if (value_string(&s, (char **) &out->bytes) != PQ_AVRO_VALUE)
				return PQ_AVRO_WRONG;
			out->len = (int32) strlen((char *) out->bytes);
			return PQ_AVRO_VALUE;
		case AVRO_BYTES:
		case AVRO_FIXED:
			out->kind = avro_value_get_type(&s) == AVRO_BYTES
				? PQ_AVRO_KIND_BYTES : PQ_AVRO_KIND_FIXED;
			return value_bytes(&s, &out->bytes, &out->len);
		default:
			return PQ_AVRO_WRONG;
	}
}
