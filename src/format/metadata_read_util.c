/*-------------------------------------------------------------------------
 *
 * metadata_read_util.c
 *		Helpers shared by the Parquet Thrift decoders: field iteration,
 *		checked sizes, lists, unions, and the Statistics and KeyValue
 *		structures.  See metadata_read_int.h for the decoding rules.
 *
 *-------------------------------------------------------------------------
 */
#include "pq_common.h"

#include "metadata_read_int.h"

static void negative_value(const char *st, const char *field,
						   int64 v) pg_attribute_noreturn();

/* ---- field helpers ---- */

void
pq_md_missing_field(const char *st, const char *field)
{
	pq_corrupt("%s is missing required field %s", st, field);
}

static void
negative_value(const char *st, const char *field, int64 v)
{
	pq_corrupt("%s field %s is negative: " INT64_FORMAT, st, field, v);
}

/*
 * Next field of a struct whose known fields have the wire types in types[]
 * (indexed by field id, 0 for ids the struct does not have; PQ_TT_TRUE
 * stands for bool).  Other fields are skipped.  Returns false at the end.
 */
bool
pq_md_next_field(PqThriftReader *r, const uint8 *types, int ntypes,
				 int16 *id, int *type)
{
	while (pq_thrift_read_field(r, id, type))
	{
		int			want = (*id > 0 && *id < ntypes) ? types[*id] : 0;

		if (want != 0 &&
			(*type == want ||
			 (want == PQ_TT_TRUE && pq_thrift_is_bool(*type))))
			return true;
		pq_thrift_skip(r, *type);
	}
	return false;
}

/* i32 that cannot be negative (counts, sizes, lengths) */
int32
pq_md_rd_size32(PqThriftReader *r, const char *st, const char *field)
{
	int32		v = pq_thrift_read_i32(r);

	if (v < 0)
		negative_value(st, field, v);
	return v;
}

/* i64 that cannot be negative (counts, sizes, offsets) */
int64
pq_md_rd_size64(PqThriftReader *r, const char *st, const char *field)
{
	int64		v = pq_thrift_read_i64(r);

	if (v < 0)
		negative_value(st, field, v);
	return v;
}

/* List header; the caller reads the elements and calls list_end. */
int32
pq_md_rd_list(PqThriftReader *r, int elem_type, const char *st,
			  const char *field)
{
	int			et;
	int32		count = pq_thrift_read_list_begin(r, &et);

	if (count > 0 && et != elem_type &&
		!(pq_thrift_is_bool(et) && pq_thrift_is_bool(elem_type)))
		pq_corrupt("%s field %s is a list of %s, expected a list of %s",
				   st, field, pq_thrift_type_name(et),
				   pq_thrift_type_name(elem_type));
	return count;
}

int32 *
pq_md_rd_i32_list(PqThriftReader *r, const char *st, const char *field,
				  int *n)
{
	int32		count = pq_md_rd_list(r, PQ_TT_I32, st, field);
	int32	   *arr = palloc(sizeof(int32) * count);
	int32		i;

	for (i = 0; i < count; i++)
		arr[i] = pq_thrift_read_i32(r);
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}

int64 *
pq_md_rd_i64_list(PqThriftReader *r, const char *st, const char *field,
				  int *n)
{
	int32		count = pq_md_rd_list(r, PQ_TT_I64, st, field);
	int64	   *arr = palloc(sizeof(int64) * count);
	int32		i;

	for (i = 0; i < count; i++)
		arr[i] = pq_thrift_read_i64(r);
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}

PqBytes *
pq_md_rd_binary_list(PqThriftReader *r, const char *st, const char *field,
					 int *n)
{
	int32		count = pq_md_rd_list(r, PQ_TT_BINARY, st, field);
	PqBytes    *arr = palloc(sizeof(PqBytes) * count);
	int32		i;

	for (i = 0; i < count; i++)
		arr[i] = pq_thrift_read_binary(r);
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}

char **
pq_md_rd_string_list(PqThriftReader *r, const char *st, const char *field,
					 int *n)
{
	int32		count = pq_md_rd_list(r, PQ_TT_BINARY, st, field);
	char	  **arr = palloc(sizeof(char *) * count);
	int32		i;

	for (i = 0; i < count; i++)
		arr[i] = pq_thrift_read_string(r);
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}

/*
 * Make room for element i of a list of count structs.  An empty struct is a
 * single byte on the wire but a decoded struct can be hundreds of bytes, so
 * the array grows as elements are decoded rather than being sized by the
 * count up front: a count that the input cannot back fails on truncation
 * before much is allocated.
 */
void *
pq_md_grow_list(void *arr, int *cap, int i, int32 count, size_t elem_size)
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

/*
 * Union members are structs.  Reads the union's single member, skipping its
 * contents, and returns its field id; a member of another wire type counts
 * as an unknown member and yields 0 (no union in parquet.thrift uses id 0).
 * Returns false for an empty union.
 */
bool
pq_md_rd_union_id(PqThriftReader *r, const char *st, int *id)
{
	int16		fid;
	int			type;
	bool		found = false;

	pq_thrift_read_struct_begin(r);
	while (pq_thrift_read_field(r, &fid, &type))
	{
		if (found)
			pq_corrupt("%s union has more than one member", st);
		found = true;
		*id = (type == PQ_TT_STRUCT) ? fid : 0;
		pq_thrift_skip(r, type);
	}
	pq_thrift_read_struct_end(r);
	return found;
}

/* ---- struct decoders ---- */

void
pq_md_read_statistics(PqThriftReader *r, PqStatistics *out)
{
	static const uint8 types[] = {
		[1] = PQ_TT_BINARY, [2] = PQ_TT_BINARY, [3] = PQ_TT_I64,
		[4] = PQ_TT_I64, [5] = PQ_TT_BINARY, [6] = PQ_TT_BINARY,
		[7] = PQ_TT_TRUE, [8] = PQ_TT_TRUE, [9] = PQ_TT_I64
	};
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		switch (id)
		{
			case 1:
				out->max = pq_thrift_read_binary(r);
				break;
			case 2:
				out->min = pq_thrift_read_binary(r);
				break;
			case 3:
				out->null_count = pq_thrift_read_i64(r);
				out->has_null_count = true;
				break;
			case 4:
				out->distinct_count = pq_thrift_read_i64(r);
				out->has_distinct_count = true;
				break;
			case 5:
				out->max_value = pq_thrift_read_binary(r);
				break;
			case 6:
				out->min_value = pq_thrift_read_binary(r);
				break;
			case 7:
				out->is_max_value_exact = (type == PQ_TT_TRUE);
				out->has_is_max_value_exact = true;
				break;
			case 8:
				out->is_min_value_exact = (type == PQ_TT_TRUE);
				out->has_is_min_value_exact = true;
				break;
			case 9:
				out->nan_count = pq_thrift_read_i64(r);
				out->has_nan_count = true;
				break;
		}
	}
	pq_thrift_read_struct_end(r);
}

static void
read_key_value(PqThriftReader *r, PqKeyValue *out)
{
	static const uint8 types[] = {[1] = PQ_TT_BINARY, [2] = PQ_TT_BINARY};
	int16		id;
	int			type;

	memset(out, 0, sizeof(*out));
	pq_thrift_read_struct_begin(r);
	while (NEXT_FIELD(r, types, &id, &type))
	{
		if (id == 1)
			out->key = pq_thrift_read_string(r);
		else
			out->value = pq_thrift_read_string(r);
	}
	pq_thrift_read_struct_end(r);
	if (out->key == NULL)
		pq_md_missing_field("KeyValue", "key");
}

PqKeyValue *
pq_md_rd_key_value_list(PqThriftReader *r, const char *st, int *n)
{
	int32		count = pq_md_rd_list(r, PQ_TT_STRUCT, st,
									  "key_value_metadata");
	PqKeyValue *arr = NULL;
	int			cap = 0;
	int32		i;

	for (i = 0; i < count; i++)
	{
		arr = pq_md_grow_list(arr, &cap, i, count, sizeof(PqKeyValue));
		read_key_value(r, &arr[i]);
	}
	pq_thrift_read_list_end(r);
	*n = count;
	return arr;
}
