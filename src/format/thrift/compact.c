/*-------------------------------------------------------------------------
 *
 * compact.c
 *		Thrift compact protocol reader and writer.
 *
 * Wire format summary (Thrift compact protocol):
 *	- i16/i32/i64 are zigzag ULEB128 varints, i8 is one raw byte, double is
 *	  8 bytes little-endian, binary is a varint length followed by bytes.
 *	- A field header is one byte, delta << 4 | type, where delta (1..15) is
 *	  the increase over the previous field id of the same struct; delta 0
 *	  means the id follows as a zigzag varint i16.  Byte 0 ends the struct.
 *	- A list/set header is one byte, size << 4 | element type, where size 15
 *	  means the size follows as a varint.
 *	- A map header is the size as a varint, then (when the size is not 0)
 *	  one byte key type << 4 | value type.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/thrift/compact.h"

static void thrift_truncated(const PqThriftReader *r) pg_attribute_noreturn();
static void skip_value(PqThriftReader *r, int type, bool in_field);

const char *
pq_thrift_type_name(int type)
{
	static const char *const names[] = {
		"stop", "bool", "bool", "i8", "i16", "i32", "i64", "double",
		"binary", "list", "set", "map", "struct"
	};

	if (type >= 0 && type < (int) lengthof(names))
		return names[type];
	return "invalid";
}

/* ---- reader ---- */

static void
thrift_truncated(const PqThriftReader *r)
{
	pq_corrupt("Thrift data truncated at byte %zu", pq_thrift_offset(r));
}

static inline uint8
read_byte(PqThriftReader *r)
{
	if (r->pos >= r->end)
		thrift_truncated(r);
	return *r->pos++;
}

static void
check_wire_type(const PqThriftReader *r, int type)
{
	if (type < PQ_TT_TRUE || type > PQ_TT_STRUCT)
		pq_corrupt("invalid Thrift wire type %d at byte %zu", type,
				   pq_thrift_offset(r));
}

static void
enter_nested(PqThriftReader *r)
{
	if (r->depth >= PQ_THRIFT_MAX_DEPTH)
		pq_corrupt("Thrift data nested deeper than %d levels at byte %zu",
				   PQ_THRIFT_MAX_DEPTH, pq_thrift_offset(r));
	r->saved_field_id[r->depth++] = r->last_field_id;
}

void
pq_thrift_reader_init(PqThriftReader *r, const uint8 *buf, size_t len)
{
	r->start = buf;
	r->pos = buf;
	r->end = buf + len;
	r->depth = 0;
	r->last_field_id = 0;
}

uint64
pq_thrift_read_varint(PqThriftReader *r)
{
	uint64		result = 0;
	int			shift;

	for (shift = 0;; shift += 7)
	{
		uint8		b = read_byte(r);

		/* the 10th byte may only supply bit 63 and must end the varint */
		if (shift == 63 && b > 1)
			pq_corrupt("Thrift varint longer than 64 bits at byte %zu",
					   pq_thrift_offset(r) - 1);
		result |= (uint64) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return result;
	}
}

static inline int64
zigzag_decode(uint64 v)
{
	return (int64) ((v >> 1) ^ (0 - (v & 1)));
}

int8
pq_thrift_read_i8(PqThriftReader *r)
{
	return (int8) read_byte(r);
}

int16
pq_thrift_read_i16(PqThriftReader *r)
{
	int64		v = zigzag_decode(pq_thrift_read_varint(r));

	if (v < PG_INT16_MIN || v > PG_INT16_MAX)
		pq_corrupt("Thrift i16 value " INT64_FORMAT " out of range", v);
	return (int16) v;
}

int32
pq_thrift_read_i32(PqThriftReader *r)
{
	int64		v = zigzag_decode(pq_thrift_read_varint(r));

	if (v < PG_INT32_MIN || v > PG_INT32_MAX)
		pq_corrupt("Thrift i32 value " INT64_FORMAT " out of range", v);
	return (int32) v;
}

int64
pq_thrift_read_i64(PqThriftReader *r)
{
	return zigzag_decode(pq_thrift_read_varint(r));
}

double
pq_thrift_read_double(PqThriftReader *r)
{
	uint64		bits;
	double		d;

	if (pq_thrift_remaining(r) < 8)
		thrift_truncated(r);
	bits = pq_load_le64(r->pos);
	r->pos += 8;
	memcpy(&d, &bits, sizeof(d));
	return d;
}

bool
pq_thrift_read_bool(PqThriftReader *r)
{
	/* writers use 1 for true and 2 (older ones 0) for false */
	return read_byte(r) == PQ_TT_TRUE;
}

PqBytes
pq_thrift_read_binary(PqThriftReader *r)
{
	uint64		len = pq_thrift_read_varint(r);
	PqBytes		result;

	if (len > pq_thrift_remaining(r) || len > PG_INT32_MAX)
		pq_corrupt("Thrift binary of " UINT64_FORMAT " bytes at byte %zu exceeds the %zu bytes remaining",
				   len, pq_thrift_offset(r), pq_thrift_remaining(r));
	result.ptr = r->pos;
	result.len = (int32) len;
	r->pos += len;
	return result;
}

char *
pq_thrift_read_string(PqThriftReader *r)
{
	PqBytes		b = pq_thrift_read_binary(r);
	char	   *s = palloc(b.len + 1);

	memcpy(s, b.ptr, b.len);
	s[b.len] = '\0';
	return s;
}

void
pq_thrift_read_struct_begin(PqThriftReader *r)
{
	enter_nested(r);
	r->last_field_id = 0;
}

bool
pq_thrift_read_field(PqThriftReader *r, int16 *id, int *type)
{
	uint8		b = read_byte(r);
	int			delta = b >> 4;
	int			t = b & 0x0f;
	int			fid;

	if (b == PQ_TT_STOP)
		return false;
	check_wire_type(r, t);
	if (delta != 0)
	{
		fid = r->last_field_id + delta;
		if (fid > PG_INT16_MAX)
			pq_corrupt("Thrift field id %d out of range at byte %zu", fid,
					   pq_thrift_offset(r) - 1);
	}
	else
		fid = pq_thrift_read_i16(r);
	r->last_field_id = (int16) fid;
	*id = (int16) fid;
	*type = t;
	return true;
}

void
pq_thrift_read_struct_end(PqThriftReader *r)
{
	Assert(r->depth > 0);
	r->last_field_id = r->saved_field_id[--r->depth];
}

int32
pq_thrift_read_list_begin(PqThriftReader *r, int *elem_type)
{
	uint8		b = read_byte(r);
	uint64		count = b >> 4;
	int			t = b & 0x0f;

	if (count == 15)
	{
		count = pq_thrift_read_varint(r);
		if (count > PG_INT32_MAX)
			pq_corrupt("Thrift list size " UINT64_FORMAT " out of range at byte %zu",
					   count, pq_thrift_offset(r));
	}

	/*
	 * Every element takes at least one byte, so a count beyond the bytes left
	 * is corrupt; this also bounds what callers allocate from it.
	 */
	if (count > pq_thrift_remaining(r))
		pq_corrupt("Thrift list of " UINT64_FORMAT " elements at byte %zu exceeds the %zu bytes remaining",
				   count, pq_thrift_offset(r), pq_thrift_remaining(r));
	/* some writers leave the element type of empty lists 0 */
	if (count > 0)
		check_wire_type(r, t);
	enter_nested(r);
	*elem_type = t;
	return (int32) count;
}

void
pq_thrift_read_list_end(PqThriftReader *r)
{
	Assert(r->depth > 0);
	r->depth--;
}

static void
skip_map(PqThriftReader *r)
{
	uint64		count = pq_thrift_read_varint(r);
	int			ktype = 0;
	int			vtype = 0;
	uint64		i;

	/* the key/value type byte and every key and value take a byte */
	if (count > 0)
	{
		uint8		b;

		if (count > PG_INT32_MAX || count * 2 + 1 > pq_thrift_remaining(r))
			pq_corrupt("Thrift map of " UINT64_FORMAT " entries at byte %zu exceeds the %zu bytes remaining",
					   count, pq_thrift_offset(r), pq_thrift_remaining(r));
		b = read_byte(r);
		ktype = b >> 4;
		vtype = b & 0x0f;
		check_wire_type(r, ktype);
		check_wire_type(r, vtype);
	}
	enter_nested(r);
	for (i = 0; i < count; i++)
	{
		skip_value(r, ktype, false);
		skip_value(r, vtype, false);
	}
	r->depth--;
}

/*
 * Skip one value.  Bool field values live in the field header (in_field),
 * bool container elements take one byte.
 */
static void
skip_value(PqThriftReader *r, int type, bool in_field)
{
	switch (type)
	{
		case PQ_TT_TRUE:
		case PQ_TT_FALSE:
			if (!in_field)
				(void) read_byte(r);
			break;
		case PQ_TT_I8:
			(void) read_byte(r);
			break;
		case PQ_TT_I16:
		case PQ_TT_I32:
		case PQ_TT_I64:
			(void) pq_thrift_read_varint(r);
			break;
		case PQ_TT_DOUBLE:
			(void) pq_thrift_read_double(r);
			break;
		case PQ_TT_BINARY:
			(void) pq_thrift_read_binary(r);
			break;
		case PQ_TT_LIST:
		case PQ_TT_SET:
			{
				int			elem_type;
				int32		count = pq_thrift_read_list_begin(r, &elem_type);
				int32		i;

				for (i = 0; i < count; i++)
					skip_value(r, elem_type, false);
				pq_thrift_read_list_end(r);
			}
			break;
		case PQ_TT_MAP:
			skip_map(r);
			break;
		case PQ_TT_STRUCT:
			{
				int16		id;
				int			ftype;

				pq_thrift_read_struct_begin(r);
				while (pq_thrift_read_field(r, &id, &ftype))
					skip_value(r, ftype, true);
				pq_thrift_read_struct_end(r);
			}
			break;
		default:
			check_wire_type(r, type);
	}
}

void
pq_thrift_skip(PqThriftReader *r, int type)
{
	skip_value(r, type, true);
}

/* ---- writer ---- */

void
pq_thrift_writer_init(PqThriftWriter *w, PqBuffer *out)
{
	w->out = out;
	w->depth = 0;
	w->last_field_id = 0;
}

void
pq_thrift_write_varint(PqThriftWriter *w, uint64 v)
{
	uint8		tmp[10];
	int			n = 0;

	while (v >= 0x80)
	{
		tmp[n++] = (uint8) (v | 0x80);
		v >>= 7;
	}
	tmp[n++] = (uint8) v;
	pq_buffer_append(w->out, tmp, n);
}

static inline uint64
zigzag_encode(int64 v)
{
	return v < 0 ? ~((uint64) v << 1) : (uint64) v << 1;
}

void
pq_thrift_write_i8(PqThriftWriter *w, int8 v)
{
	pq_buffer_append_byte(w->out, (uint8) v);
}

void
pq_thrift_write_i16(PqThriftWriter *w, int16 v)
{
	pq_thrift_write_varint(w, zigzag_encode(v));
}

void
pq_thrift_write_i32(PqThriftWriter *w, int32 v)
{
	pq_thrift_write_varint(w, zigzag_encode(v));
}

void
pq_thrift_write_i64(PqThriftWriter *w, int64 v)
{
	pq_thrift_write_varint(w, zigzag_encode(v));
}

void
pq_thrift_write_double(PqThriftWriter *w, double v)
{
	uint64		bits;
	uint8		tmp[8];

	memcpy(&bits, &v, sizeof(bits));
	pq_store_le64(tmp, bits);
	pq_buffer_append(w->out, tmp, sizeof(tmp));
}

void
pq_thrift_write_bool(PqThriftWriter *w, bool v)
{
	pq_buffer_append_byte(w->out, v ? PQ_TT_TRUE : PQ_TT_FALSE);
}

void
pq_thrift_write_binary(PqThriftWriter *w, const uint8 *data, size_t len)
{
	pq_thrift_write_varint(w, len);
	pq_buffer_append(w->out, data, len);
}

void
pq_thrift_write_string(PqThriftWriter *w, const char *s)
{
	pq_thrift_write_binary(w, (const uint8 *) s, strlen(s));
}

void
pq_thrift_write_struct_begin(PqThriftWriter *w)
{
	if (w->depth >= PQ_THRIFT_MAX_DEPTH)
		elog(ERROR, "Thrift writer nested deeper than %d levels",
			 PQ_THRIFT_MAX_DEPTH);
	w->saved_field_id[w->depth++] = w->last_field_id;
	w->last_field_id = 0;
}

void
pq_thrift_write_struct_end(PqThriftWriter *w)
{
	Assert(w->depth > 0);
	pq_buffer_append_byte(w->out, PQ_TT_STOP);
	w->last_field_id = w->saved_field_id[--w->depth];
}

void
pq_thrift_write_list_begin(PqThriftWriter *w, int elem_type, int32 count)
{
	Assert(count >= 0);
	if (count < 15)
		pq_buffer_append_byte(w->out, (uint8) (count << 4 | elem_type));
	else
	{
		pq_buffer_append_byte(w->out, (uint8) (0xf0 | elem_type));
		pq_thrift_write_varint(w, (uint64) count);
	}
}

void
pq_thrift_write_field(PqThriftWriter *w, int16 id, int type)
{
	int			delta = id - w->last_field_id;

	if (delta > 0 && delta <= 15)
		pq_buffer_append_byte(w->out, (uint8) (delta << 4 | type));
	else
	{
		pq_buffer_append_byte(w->out, (uint8) type);
		pq_thrift_write_i16(w, id);
	}
	w->last_field_id = id;
}

void
pq_thrift_write_bool_field(PqThriftWriter *w, int16 id, bool v)
{
	pq_thrift_write_field(w, id, v ? PQ_TT_TRUE : PQ_TT_FALSE);
}

void
pq_thrift_write_i8_field(PqThriftWriter *w, int16 id, int8 v)
{
	pq_thrift_write_field(w, id, PQ_TT_I8);
	pq_thrift_write_i8(w, v);
}

void
pq_thrift_write_i16_field(PqThriftWriter *w, int16 id, int16 v)
{
	pq_thrift_write_field(w, id, PQ_TT_I16);
	pq_thrift_write_i16(w, v);
}

void
pq_thrift_write_i32_field(PqThriftWriter *w, int16 id, int32 v)
{
	pq_thrift_write_field(w, id, PQ_TT_I32);
	pq_thrift_write_i32(w, v);
}

void
pq_thrift_write_i64_field(PqThriftWriter *w, int16 id, int64 v)
{
	pq_thrift_write_field(w, id, PQ_TT_I64);
	pq_thrift_write_i64(w, v);
}

void
pq_thrift_write_double_field(PqThriftWriter *w, int16 id, double v)
{
	pq_thrift_write_field(w, id, PQ_TT_DOUBLE);
	pq_thrift_write_double(w, v);
}

void
pq_thrift_write_binary_field(PqThriftWriter *w, int16 id, const uint8 *data,
							 size_t len)
{
	pq_thrift_write_field(w, id, PQ_TT_BINARY);
	pq_thrift_write_binary(w, data, len);
}

void
pq_thrift_write_string_field(PqThriftWriter *w, int16 id, const char *s)
{
	pq_thrift_write_field(w, id, PQ_TT_BINARY);
	pq_thrift_write_string(w, s);
}

void
pq_thrift_write_struct_field(PqThriftWriter *w, int16 id)
{
	pq_thrift_write_field(w, id, PQ_TT_STRUCT);
	pq_thrift_write_struct_begin(w);
}

void
pq_thrift_write_list_field(PqThriftWriter *w, int16 id, int elem_type,
						   int32 count)
{
	pq_thrift_write_field(w, id, PQ_TT_LIST);
	pq_thrift_write_list_begin(w, elem_type, count);
}
