/*-------------------------------------------------------------------------
 *
 * struct.c
 *		The decode and encode loops of table-driven Thrift structs (see
 *		struct.h for the rules they follow).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/thrift/struct.h"

#define FIELD_PTR(base, off) ((char *) (base) + (off))
#define FIELD_CPTR(base, off) ((const char *) (base) + (off))

static void negative_value(const char *st, const char *field,
						   int64 v) pg_attribute_noreturn();
static void missing_field(const char *st,
						  const char *field) pg_attribute_noreturn();

static void
missing_field(const char *st, const char *field)
{
	pq_corrupt("%s is missing required field %s", st, field);
}

static void
negative_value(const char *st, const char *field, int64 v)
{
	pq_corrupt("%s field %s is negative: " INT64_FORMAT, st, field, v);
}

/* ---------------------------------------------------------------- decode */

/* The wire type a field of this kind has. */
static int
wire_type(uint8 kind)
{
	switch (kind)
	{
		case PQ_FK_I8:
			return PQ_TT_I8;
		case PQ_FK_I16:
			return PQ_TT_I16;
		case PQ_FK_I32:
		case PQ_FK_SIZE32:
			return PQ_TT_I32;
		case PQ_FK_I64:
		case PQ_FK_SIZE64:
			return PQ_TT_I64;
		case PQ_FK_DOUBLE:
			return PQ_TT_DOUBLE;
		case PQ_FK_BOOL:
			return PQ_TT_TRUE;
		case PQ_FK_STRING:
		case PQ_FK_BINARY:
			return PQ_TT_BINARY;
		case PQ_FK_STRUCT:
		case PQ_FK_UNION_ID:
		case PQ_FK_UNION:
			return PQ_TT_STRUCT;
		default:
			return PQ_TT_LIST;
	}
}

/* The element wire type of a list field. */
static int
element_type(uint8 kind)
{
	switch (kind)
	{
		case PQ_FK_LIST_BOOL:
			return PQ_TT_TRUE;
		case PQ_FK_LIST_I32:
			return PQ_TT_I32;
		case PQ_FK_LIST_I64:
			return PQ_TT_I64;
		case PQ_FK_LIST_STRING:
		case PQ_FK_LIST_BINARY:
			return PQ_TT_BINARY;
		default:
			return PQ_TT_STRUCT;
	}
}

static size_t
element_size(const PqThriftField *f)
{
	switch (f->kind)
	{
		case PQ_FK_LIST_BOOL:
			return sizeof(bool);
		case PQ_FK_LIST_I32:
			return sizeof(int32);
		case PQ_FK_LIST_I64:
			return sizeof(int64);
		case PQ_FK_LIST_STRING:
			return sizeof(char *);
		case PQ_FK_LIST_BINARY:
			return sizeof(PqBytes);
		case PQ_FK_LIST_UNION_ID:
			return sizeof(int);
		default:
			return f->sub->size;
	}
}

static const PqThriftField *
find_field(const PqThriftStructDesc *desc, int16 id)
{
	int			i;

	for (i = 0; i < desc->nfields; i++)
		if (desc->fields[i].id == id)
			return &desc->fields[i];
	return NULL;
}

/* The member id of a union of empty structs; false when it is empty. */
static bool
read_union_id(PqThriftReader *r, const char *union_name, int *id)
{
	int16		fid;
	int			type;
	bool		found = false;

	pq_thrift_read_struct_begin(r);
	while (pq_thrift_read_field(r, &fid, &type))
	{
		if (found)
			pq_corrupt("%s union has more than one member", union_name);
		found = true;
		/* a member of another wire type is one this reader does not know */
		*id = (type == PQ_TT_STRUCT) ? fid : 0;
		pq_thrift_skip(r, type);
	}
	pq_thrift_read_struct_end(r);
	return found;
}

static int
read_union_value(PqThriftReader *r, const PqThriftField *f)
{
	int			id = 0;

	if (!read_union_id(r, f->union_name, &id))
	{
		if (f->flags & PQ_TF_MEMBER_REQUIRED)
			pq_corrupt("%s union has no member", f->union_name);
		return 0;
	}
	if (f->lo <= f->hi && (id < f->lo || id > f->hi))
		return 0;
	return id;
}

static void
read_union(PqThriftReader *r, const PqThriftUnionDesc *u, void *out)
{
	int		   *id_out = (int *) FIELD_PTR(out, u->id_offset);
	int16		id;
	int			type;
	bool		found = false;

	memset(out, 0, u->size);
	pq_thrift_read_struct_begin(r);
	while (pq_thrift_read_field(r, &id, &type))
	{
		const PqThriftStructDesc *desc = (type == PQ_TT_STRUCT) ?
		u->member(id) : NULL;

		if (found)
			pq_corrupt("%s union has more than one member", u->name);
		found = true;
		if (desc == NULL)
		{
			if (u->unknown_id <= 0)
				pq_unsupported(u->unsupported, id);
			pq_thrift_skip(r, type);
			*id_out = u->unknown_id;
			continue;
		}
		pq_thrift_decode_struct(r, desc, out);
		*id_out = id;
	}
	pq_thrift_read_struct_end(r);
	if (!found)
	{
		if (u->unknown_id <= 0)
			pq_corrupt("%s union has no member", u->name);
		*id_out = u->unknown_id;
	}
}

/*
 * Room for element i of a list of count elements.  A list element can be
 * a single byte on the wire (an empty struct) but hundreds in memory, so
 * arrays grow as elements are decoded rather than being sized by the count
 * up front: a count the input cannot back fails on truncation before much
 * is allocated.
 */
static void *
grow_list(void *arr, int *cap, int i, int32 count, size_t elem_size)
{
	int			newcap;

	if (i < *cap)
		return arr;
	newcap = Min(Max(*cap * 2, 16), count);
	*cap = newcap;
	if (arr == NULL)
		return palloc(elem_size * newcap);
	return repalloc(arr, elem_size * newcap);
}

static void
read_list(PqThriftReader *r, const char *st, const PqThriftField *f,
		  void *value, int *count_out)
{
	int			want = element_type(f->kind);
	size_t		esize = element_size(f);
	int			et;
	int32		count = pq_thrift_read_list_begin(r, &et);
	char	   *arr = NULL;
	int			cap = 0;
	int32		i;

	if (count > 0 && et != want &&
		!(pq_thrift_is_bool(et) && pq_thrift_is_bool(want)))
		pq_corrupt("%s field %s is a list of %s, expected a list of %s",
				   st, f->name, pq_thrift_type_name(et),
				   pq_thrift_type_name(want));
	for (i = 0; i < count; i++)
	{
		char	   *e;

		arr = grow_list(arr, &cap, i, count, esize);
		e = arr + (size_t) i * esize;
		switch (f->kind)
		{
			case PQ_FK_LIST_BOOL:
				*(bool *) e = pq_thrift_read_bool(r);
				break;
			case PQ_FK_LIST_I32:
				*(int32 *) e = pq_thrift_read_i32(r);
				break;
			case PQ_FK_LIST_I64:
				*(int64 *) e = pq_thrift_read_i64(r);
				break;
			case PQ_FK_LIST_STRING:
				*(char **) e = pq_thrift_read_string(r);
				break;
			case PQ_FK_LIST_BINARY:
				*(PqBytes *) e = pq_thrift_read_binary(r);
				break;
			case PQ_FK_LIST_UNION_ID:
				*(int *) e = read_union_value(r, f);
				break;
			default:
				pq_thrift_decode_struct(r, f->sub, e);
				break;
		}
	}
	pq_thrift_read_list_end(r);
	/* an empty list is a list, not an absent one: never NULL */
	*(void **) value = arr ? arr : palloc(1);
	*count_out = count;
}

static void
read_value(PqThriftReader *r, const char *st, const PqThriftField *f,
		   int type, void *out)
{
	void	   *value = FIELD_PTR(out, f->offset);
	int64		v;

	switch (f->kind)
	{
		case PQ_FK_I8:
			*(int *) value = pq_thrift_read_i8(r);
			break;
		case PQ_FK_I16:
			*(int16 *) value = pq_thrift_read_i16(r);
			break;
		case PQ_FK_I32:
			*(int32 *) value = pq_thrift_read_i32(r);
			break;
		case PQ_FK_SIZE32:
			v = pq_thrift_read_i32(r);
			if (v < 0)
				negative_value(st, f->name, v);
			*(int32 *) value = (int32) v;
			break;
		case PQ_FK_I64:
			*(int64 *) value = pq_thrift_read_i64(r);
			break;
		case PQ_FK_SIZE64:
			v = pq_thrift_read_i64(r);
			if (v < 0)
				negative_value(st, f->name, v);
			*(int64 *) value = v;
			break;
		case PQ_FK_DOUBLE:
			*(double *) value = pq_thrift_read_double(r);
			break;
		case PQ_FK_BOOL:
			/* the compact protocol keeps a bool field's value in its type */
			*(bool *) value = (type == PQ_TT_TRUE);
			break;
		case PQ_FK_STRING:
			*(char **) value = pq_thrift_read_string(r);
			break;
		case PQ_FK_BINARY:
			*(PqBytes *) value = pq_thrift_read_binary(r);
			break;
		case PQ_FK_STRUCT:
			pq_thrift_decode_struct(r, f->sub, value);
			break;
		case PQ_FK_UNION_ID:
			*(int *) value = read_union_value(r, f);
			break;
		case PQ_FK_UNION:
			read_union(r, f->udesc, value);
			break;
		default:
			read_list(r, st, f, value,
					  (int *) FIELD_PTR(out, f->count_offset));
			break;
	}
}

void
pq_thrift_decode_struct(PqThriftReader *r, const PqThriftStructDesc *desc,
						void *out)
{
	uint64		seen = 0;
	int16		id;
	int			type;
	int			i;

	if (!desc->no_clear)
		memset(out, 0, desc->size);
	if (desc->init)
		desc->init(out);
	pq_thrift_read_struct_begin(r);
	while (pq_thrift_read_field(r, &id, &type))
	{
		const PqThriftField *f = find_field(desc, id);
		int			want = f ? wire_type(f->kind) : 0;

		if (f == NULL ||
			(type != want && !(want == PQ_TT_TRUE && pq_thrift_is_bool(type))))
		{
			pq_thrift_skip(r, type);
			continue;
		}
		read_value(r, desc->name, f, type, out);
		if (f->has_offset != PQ_TF_NONE)
			*(bool *) FIELD_PTR(out, f->has_offset) = true;
		seen |= (uint64) 1 << (f - desc->fields);
	}
	pq_thrift_read_struct_end(r);
	for (i = 0; i < desc->nfields; i++)
		if ((desc->fields[i].flags & PQ_TF_REQUIRED) && !PQ_TF_SEEN(seen, i))
			missing_field(desc->name, desc->fields[i].name);
	if (desc->finish)
		desc->finish(out, seen);
}

/* ---------------------------------------------------------------- encode */

/* A union whose member (id) is an empty struct. */
static void
write_empty_member_union(PqThriftWriter *w, int16 id)
{
	pq_thrift_write_struct_begin(w);
	pq_thrift_write_struct_field(w, id);
	pq_thrift_write_struct_end(w);
	pq_thrift_write_struct_end(w);
}

static void
write_union_value(PqThriftWriter *w, const PqThriftField *f, int id)
{
	if (f->lo <= f->hi && (id < f->lo || id > f->hi))
		elog(ERROR, "cannot write %s member %d", f->union_name, id);
	write_empty_member_union(w, (int16) id);
}

static void
write_union(PqThriftWriter *w, const PqThriftField *f, const void *value)
{
	const PqThriftUnionDesc *u = f->udesc;
	int			id = *(const int *) FIELD_CPTR(value, u->id_offset);
	const PqThriftStructDesc *desc = u->member(id);

	if (desc == NULL)
		elog(ERROR, "cannot write %s member %d", u->name, id);
	pq_thrift_write_field(w, f->id, PQ_TT_STRUCT);
	pq_thrift_write_struct_begin(w);
	pq_thrift_write_field(w, (int16) id, PQ_TT_STRUCT);
	pq_thrift_encode_struct(w, desc, value);
	pq_thrift_write_struct_end(w);
}

static bool
present(const PqThriftField *f, const void *in)
{
	const void *value = FIELD_CPTR(in, f->offset);

	if (f->flags & (PQ_TF_REQUIRED | PQ_TF_WRITE_ALWAYS))
		return true;
	if (f->has_offset != PQ_TF_NONE)
		return *(const bool *) FIELD_CPTR(in, f->has_offset);
	if (f->flags & PQ_TF_WRITE_IF_TRUE)
		return *(const bool *) value;
	switch (f->kind)
	{
		case PQ_FK_UNION:
			return *(const int *) FIELD_CPTR(value, f->udesc->id_offset) != 0;
		case PQ_FK_BINARY:
			return ((const PqBytes *) value)->ptr != NULL;
		case PQ_FK_STRING:
		case PQ_FK_LIST_BOOL:
		case PQ_FK_LIST_I32:
		case PQ_FK_LIST_I64:
		case PQ_FK_LIST_STRING:
		case PQ_FK_LIST_BINARY:
		case PQ_FK_LIST_STRUCT:
		case PQ_FK_LIST_UNION_ID:
			return *(void *const *) value != NULL;
		default:
			elog(ERROR, "optional Thrift field %s has no presence flag",
				 f->name);
	}
	return false;				/* keep compiler quiet */
}

static void
write_list(PqThriftWriter *w, const PqThriftField *f, const void *value,
		   int count)
{
	const char *arr = *(const char *const *) value;
	size_t		esize = element_size(f);
	int			i;

	pq_thrift_write_list_field(w, f->id, element_type(f->kind), count);
	for (i = 0; i < count; i++)
	{
		const char *e = arr + (size_t) i * esize;

		switch (f->kind)
		{
			case PQ_FK_LIST_BOOL:
				pq_thrift_write_bool(w, *(const bool *) e);
				break;
			case PQ_FK_LIST_I32:
				pq_thrift_write_i32(w, *(const int32 *) e);
				break;
			case PQ_FK_LIST_I64:
				pq_thrift_write_i64(w, *(const int64 *) e);
				break;
			case PQ_FK_LIST_STRING:
				pq_thrift_write_string(w, *(char *const *) e);
				break;
			case PQ_FK_LIST_BINARY:
				pq_thrift_write_binary(w, ((const PqBytes *) e)->ptr,
									   ((const PqBytes *) e)->len);
				break;
			case PQ_FK_LIST_UNION_ID:
				write_union_value(w, f, *(const int *) e);
				break;
			default:
				pq_thrift_encode_struct(w, f->sub, e);
				break;
		}
	}
}

static void
write_field(PqThriftWriter *w, const PqThriftField *f, const void *in)
{
	const void *value = FIELD_CPTR(in, f->offset);

	switch (f->kind)
	{
		case PQ_FK_I8:
			pq_thrift_write_i8_field(w, f->id, (int8) *(const int *) value);
			break;
		case PQ_FK_I16:
			pq_thrift_write_i16_field(w, f->id, *(const int16 *) value);
			break;
		case PQ_FK_I32:
		case PQ_FK_SIZE32:
			pq_thrift_write_i32_field(w, f->id, *(const int32 *) value);
			break;
		case PQ_FK_I64:
		case PQ_FK_SIZE64:
			pq_thrift_write_i64_field(w, f->id, *(const int64 *) value);
			break;
		case PQ_FK_DOUBLE:
			pq_thrift_write_double_field(w, f->id, *(const double *) value);
			break;
		case PQ_FK_BOOL:
			pq_thrift_write_bool_field(w, f->id, *(const bool *) value);
			break;
		case PQ_FK_STRING:
			pq_thrift_write_string_field(w, f->id, *(char *const *) value);
			break;
		case PQ_FK_BINARY:
			pq_thrift_write_binary_field(w, f->id,
										 ((const PqBytes *) value)->ptr,
										 ((const PqBytes *) value)->len);
			break;
		case PQ_FK_STRUCT:
			pq_thrift_write_field(w, f->id, PQ_TT_STRUCT);
			pq_thrift_encode_struct(w, f->sub, value);
			break;
		case PQ_FK_UNION_ID:
			pq_thrift_write_field(w, f->id, PQ_TT_STRUCT);
			write_union_value(w, f, *(const int *) value);
			break;
		case PQ_FK_UNION:
			write_union(w, f, value);
			break;
		default:
			write_list(w, f, value,
					   *(const int *) FIELD_CPTR(in, f->count_offset));
			break;
	}
}

void
pq_thrift_encode_struct(PqThriftWriter *w, const PqThriftStructDesc *desc,
						const void *in)
{
	int			i;

	pq_thrift_write_struct_begin(w);
	for (i = 0; i < desc->nfields; i++)
	{
		const PqThriftField *f = &desc->fields[i];

		if (present(f, in))
			write_field(w, f, in);
	}
	pq_thrift_write_struct_end(w);
}
