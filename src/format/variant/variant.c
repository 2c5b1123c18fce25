/*-------------------------------------------------------------------------
 *
 * variant.c
 *		The Variant binary encoding (metadata + value) as JSON text, by the
 *		rules of docs/JSON.md.
 *
 * Every size, offset and id is checked against the bytes that exist
 * before it is used; anything the encoding does not allow is corrupt
 * data.  Values are rendered straight from the buffers, without building
 * a tree.
 *
 * The fields or elements of a container must not share their bytes: with
 * repeated offsets a few nested containers would stand for JSON of any
 * size (2^d values from 5d bytes).  Each value is contiguous, so the sizes
 * of a container's children add up to at most its data length; a
 * container whose children add up to more is corrupt.  The rendering of a
 * value thus stays proportional to its bytes and the keys it names.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/json/render.h"
#include "format/variant/variant.h"
#include "format/variant/variant_binary.h"

void
pq_variant_meta_parse(PqVariantMeta *m, const uint8 *p, size_t len)
{
	int			version;
	size_t		need;

	if (len < 1)
		pq_corrupt("Variant metadata is empty");
	version = p[0] & 0x0F;
	/* later versions may change the layout: not ours to guess */
	if (version > 1)
		pq_unsupported("Variant metadata version %d is not supported", version);
	if (version != 1)
		pq_corrupt("Variant metadata has version %d", version);
	m->offset_size = ((p[0] >> 6) & 3) + 1;
	if (len < 1 + (size_t) m->offset_size)
		pq_corrupt("Variant metadata of %zu bytes ends inside its header", len);
	m->dict_size = pq_load_le_n(p + 1, m->offset_size);
	/* cannot overflow: at most 1 + 4 + (2^32) * 4 */
	need = 1 + (size_t) m->offset_size * ((size_t) m->dict_size + 2);
	if (need > len)
		pq_corrupt("Variant metadata dictionary of %u strings needs %zu bytes, has %zu",
				   m->dict_size, need, len);
	m->offsets = p + 1 + m->offset_size;
	m->strings = p + need;
	m->strings_len = len - need;
	/* the last offset is the length of the string bytes */
	if (pq_load_le_n(m->offsets + (size_t) m->dict_size * m->offset_size,
					 m->offset_size) != m->strings_len)
		pq_corrupt("Variant metadata string bytes end at offset %u, but %zu bytes follow the offsets",
				   pq_load_le_n(m->offsets + (size_t) m->dict_size * m->offset_size,
								m->offset_size),
				   m->strings_len);
}

void
pq_variant_meta_key(const PqVariantMeta *m, uint32 id, const uint8 **key,
					size_t *len)
{
	uint32		start;
	uint32		end;

	if (id >= m->dict_size)
		pq_corrupt("Variant field id %u is outside the metadata dictionary of %u strings",
				   id, m->dict_size);
	start = pq_load_le_n(m->offsets + (size_t) id * m->offset_size, m->offset_size);
	end = pq_load_le_n(m->offsets + ((size_t) id + 1) * m->offset_size,
					   m->offset_size);
	if (start > end || end > m->strings_len)
		pq_corrupt("Variant metadata string %u has offsets %u..%u outside its %zu bytes",
				   id, start, end, m->strings_len);
	*key = m->strings + start;
	*len = end - start;
}

int
pq_variant_key_cmp(const uint8 *a, size_t alen, const uint8 *b, size_t blen)
{
	int			c = memcmp(a, b, Min(alen, blen));

	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/*
 * Header of an object or array at p: element count (1 or 4 bytes) and the
 * position after it, checked against avail.
 */
static size_t
read_count(const uint8 *p, size_t avail, bool is_large, uint32 *n)
{
	size_t		width = is_large ? 4 : 1;

	if (avail < 1 + width)
		pq_corrupt("Variant object or array of %zu bytes ends inside its header",
				   avail);
	*n = pq_load_le_n(p + 1, (int) width);
	return 1 + width;
}

/*
 * The offsets list (n + 1 entries of offset_size bytes) starts at pos; the
 * data follows it and is as long as the last offset says.  Returns the
 * data length, checked to fit in avail.
 */
static size_t
check_data(const uint8 *p, size_t avail, size_t pos, uint32 n, int offset_size,
		   const char *what)
{
	size_t		data_start = pos + ((size_t) n + 1) * offset_size;
	size_t		data_len;

	if (data_start > avail)
		pq_corrupt("Variant %s of %u elements needs %zu header bytes, has %zu",
				   what, n, data_start, avail);
	data_len = pq_load_le_n(p + pos + (size_t) n * offset_size, offset_size);
	if (data_len > avail - data_start)
		pq_corrupt("Variant %s data of %zu bytes exceeds the %zu bytes left",
				   what, data_len, avail - data_start);
	return data_len;
}

bool
pq_variant_object_open(PqVariantObject *o, const uint8 *p, size_t avail)
{
	int			header;
	size_t		pos;

	if (avail < 1)
		pq_corrupt("Variant value is empty");
	if ((p[0] & 3) != PQ_VARIANT_OBJECT)
		return false;
	header = p[0] >> 2;
	o->offset_size = (header & 3) + 1;
	o->id_size = ((header >> 2) & 3) + 1;
	pos = read_count(p, avail, (header >> 4) & 1, &o->n);
	o->ids = p + pos;
	pos += (size_t) o->n * o->id_size;
	if (pos > avail)
		pq_corrupt("Variant object of %u fields needs %zu bytes for field ids, has %zu",
				   o->n, pos, avail);
	o->offsets = p + pos;
	o->data_len = check_data(p, avail, pos, o->n, o->offset_size, "object");
	o->data = p + pos + ((size_t) o->n + 1) * o->offset_size;
	o->size = (o->data - p) + o->data_len;
	return true;
}

void
pq_variant_object_field(const PqVariantObject *o, const PqVariantMeta *m,
						uint32 i, const uint8 **key, size_t *key_len,
						const uint8 **value, size_t *avail)
{
	uint32		id = pq_load_le_n(o->ids + (size_t) i * o->id_size, o->id_size);
	uint32		off = pq_load_le_n(o->offsets + (size_t) i * o->offset_size,
								   o->offset_size);

	pq_variant_meta_key(m, id, key, key_len);
	/* every value has at least its one header byte */
	if (off >= o->data_len)
		pq_corrupt("Variant object field %u starts at offset %u, outside the %zu data bytes",
				   i, off, o->data_len);
	*value = o->data + off;
	*avail = o->data_len - off;
}

void
pq_variant_check_disjoint(size_t used, size_t data_len, const char *what)
{
	if (used > data_len)
		pq_corrupt("Variant %s values overlap: they take %zu bytes of its %zu data bytes",
				   what, used, data_len);
}

/* A key of an object, for the duplicate check of unsorted objects. */
typedef struct ObjectKey
{
	const uint8 *key;
	size_t		len;
} ObjectKey;

static int
object_key_cmp(const void *a, const void *b)
{
	const ObjectKey *x = a;
	const ObjectKey *y = b;

	return pq_variant_key_cmp(x->key, x->len, y->key, y->len);
}

/*
 * An object's keys must be unique.  The spec also orders them, which
 * makes the check one comparison per field, but DuckDB writes field ids in
 * insertion order: an unsorted object is checked by sorting a copy of its
 * keys.  No lookup by key ever searches the object itself (jsonb, which
 * the rendered text becomes, sorts its keys).
 */
static void
check_unique_keys(const PqVariantObject *o, const PqVariantMeta *m)
{
	ObjectKey  *keys = palloc(sizeof(ObjectKey) * o->n);
	uint32		i;

	for (i = 0; i < o->n; i++)
	{
		const uint8 *value;
		size_t		avail;

		pq_variant_object_field(o, m, i, &keys[i].key, &keys[i].len,
								&value, &avail);
	}
	qsort(keys, o->n, sizeof(ObjectKey), object_key_cmp);
	for (i = 1; i < o->n; i++)
		if (object_key_cmp(&keys[i - 1], &keys[i]) == 0)
			pq_corrupt("Variant object has field \"%.*s\" twice",
					   (int) Min(keys[i].len, 100), (const char *) keys[i].key);
	pfree(keys);
}

static size_t
render_object(PqBuffer *buf, const PqVariantMeta *m, const uint8 *p,
			  size_t avail, int depth)
{
	PqVariantObject o;
	const uint8 *prev = NULL;
	size_t		prev_len = 0;
	bool		ascending = true;
	size_t		used = 0;
	uint32		i;

	pq_variant_object_open(&o, p, avail);
	pq_buffer_append_byte(buf, '{');
	for (i = 0; i < o.n; i++)
	{
		const uint8 *key;
		size_t		key_len;
		const uint8 *value;
		size_t		value_avail;

		pq_variant_object_field(&o, m, i, &key, &key_len, &value, &value_avail);
		if (prev != NULL && pq_variant_key_cmp(prev, prev_len, key, key_len) >= 0)
			ascending = false;
		if (i > 0)
			pq_buffer_append_byte(buf, ',');
		pq_json_string(buf, (const char *) key, key_len);
		pq_buffer_append_byte(buf, ':');
		used += pq_variant_render(buf, m, value, value_avail, depth + 1);
		pq_variant_check_disjoint(used, o.data_len, "object");
		prev = key;
		prev_len = key_len;
	}
	pq_buffer_append_byte(buf, '}');
	if (!ascending)
		check_unique_keys(&o, m);
	return o.size;
}

static size_t
render_array(PqBuffer *buf, const PqVariantMeta *m, const uint8 *p,
			 size_t avail, int depth)
{
	int			header = p[0] >> 2;
	int			offset_size = (header & 3) + 1;
	uint32		n;
	size_t		pos = read_count(p, avail, (header >> 2) & 1, &n);
	size_t		data_len = check_data(p, avail, pos, n, offset_size, "array");
	const uint8 *data = p + pos + ((size_t) n + 1) * offset_size;
	size_t		used = 0;
	uint32		i;

	pq_buffer_append_byte(buf, '[');
	for (i = 0; i < n; i++)
	{
		uint32		off = pq_load_le_n(p + pos + (size_t) i * offset_size,
									   offset_size);

		if (off >= data_len)
			pq_corrupt("Variant array element %u starts at offset %u, outside the %zu data bytes",
					   i, off, data_len);
		if (i > 0)
			pq_buffer_append_byte(buf, ',');
		used += pq_variant_render(buf, m, data + off, data_len - off, depth + 1);
		pq_variant_check_disjoint(used, data_len, "array");
	}
	pq_buffer_append_byte(buf, ']');
	return (data - p) + data_len;
}

/* Fixed-size primitive payloads, by type id 0..20 (-1: variable size). */
static const int8 primitive_size[21] = {
	0, 0, 0,					/* null, true, false */
	1, 2, 4, 8,					/* int8, int16, int32, int64 */
	8,							/* double */
	5, 9, 17,					/* decimal4, 8, 16: scale byte + value */
	4, 8, 8,					/* date, timestamp, timestamp ntz */
	4,							/* float */
	-1, -1,						/* binary, string */
	8, 8, 8,					/* time ntz, timestamp(9), ntz(9) */
	16							/* uuid */
};

static int
decimal_scale(const uint8 *d)
{
	if (d[0] > 38)
		pq_corrupt("Variant decimal has scale %d (at most 38)", d[0]);
	return d[0];
}

static size_t
render_primitive(PqBuffer *buf, const uint8 *p, size_t avail)
{
	int			type = p[0] >> 2;
	const uint8 *d = p + 1;
	size_t		size;

	if (type >= (int) lengthof(primitive_size))
		pq_unsupported("Variant primitive type %d is not supported", type);
	if (primitive_size[type] >= 0)
		size = 1 + primitive_size[type];
	else
	{
		uint32		len;

		if (avail < 5)
			pq_corrupt("Variant %s of %zu bytes ends inside its length",
					   type == 15 ? "binary" : "string", avail);
		len = pq_load_le32(d);
		size = 5 + (size_t) len;
		d += 4;
	}
	if (size > avail)
		pq_corrupt("Variant primitive of type %d needs %zu bytes, has %zu",
				   type, size, avail);

	switch (type)
	{
		case 0:
			pq_buffer_append(buf, "null", 4);
			break;
		case 1:
			pq_buffer_append(buf, "true", 4);
			break;
		case 2:
			pq_buffer_append(buf, "false", 5);
			break;
		case 3:
			pq_json_int64(buf, (int8) d[0]);
			break;
		case 4:
			pq_json_int64(buf, (int16) (d[0] | (d[1] << 8)));
			break;
		case 5:
			pq_json_int64(buf, (int32) pq_load_le32(d));
			break;
		case 6:
			pq_json_int64(buf, (int64) pq_load_le64(d));
			break;
		case 7:
			{
				uint64		bits = pq_load_le64(d);
				double		v;

				memcpy(&v, &bits, sizeof(v));
				pq_json_double(buf, v);
				break;
			}
		case 8:
			pq_json_decimal_int64(buf, (int32) pq_load_le32(d + 1),
								  decimal_scale(d));
			break;
		case 9:
			pq_json_decimal_int64(buf, (int64) pq_load_le64(d + 1),
								  decimal_scale(d));
			break;
		case 10:
			{
				uint8		be[16];
				int			i;

				for (i = 0; i < 16; i++)
					be[i] = d[16 - i];
				pq_json_decimal_be(buf, be, 16, decimal_scale(d));
				break;
			}
		case 11:
			pq_json_date(buf, (int32) pq_load_le32(d));
			break;
		case 12:
		case 13:
			pq_json_timestamp(buf, (int64) pq_load_le64(d), 6, type == 12);
			break;
		case 14:
			{
				uint32		bits = pq_load_le32(d);
				float		v;

				memcpy(&v, &bits, sizeof(v));
				pq_json_float(buf, v);
				break;
			}
		case 15:
			pq_json_base64(buf, d, size - 5);
			break;
		case 16:
			pq_json_string(buf, (const char *) d, size - 5);
			break;
		case 17:
			pq_json_time(buf, (int64) pq_load_le64(d), 6, false);
			break;
		case 18:
		case 19:
			pq_json_timestamp(buf, (int64) pq_load_le64(d), 9, type == 18);
			break;
		case 20:
			pq_json_uuid(buf, d);
			break;
	}
	return size;
}

size_t
pq_variant_render(PqBuffer *buf, const PqVariantMeta *m, const uint8 *p,
				  size_t avail, int depth)
{
	size_t		len;

	if (avail < 1)
		pq_corrupt("Variant value is empty");
	if (depth > PQ_VARIANT_MAX_DEPTH)
		pq_corrupt("Variant value is nested deeper than %d levels",
				   PQ_VARIANT_MAX_DEPTH);
	switch (p[0] & 3)
	{
		case PQ_VARIANT_PRIMITIVE:
			return render_primitive(buf, p, avail);
		case PQ_VARIANT_SHORT_STRING:
			len = p[0] >> 2;
			if (1 + len > avail)
				pq_corrupt("Variant short string of %zu bytes exceeds the %zu bytes left",
						   len, avail - 1);
			pq_json_string(buf, (const char *) p + 1, len);
			return 1 + len;
		case PQ_VARIANT_OBJECT:
			return render_object(buf, m, p, avail, depth);
		default:
			return render_array(buf, m, p, avail, depth);
	}
}

void
pq_variant_binary_to_json(PqBuffer *buf, const uint8 *metadata,
						  size_t metadata_len, const uint8 *value,
						  size_t value_len)
{
	PqVariantMeta m;
	size_t		used;

	pq_variant_meta_parse(&m, metadata, metadata_len);
	used = pq_variant_render(buf, &m, value, value_len, 0);
	if (used != value_len)
		pq_corrupt("Variant value of %zu bytes is followed by %zu more bytes",
				   used, value_len - used);
}
