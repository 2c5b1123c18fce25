/*-------------------------------------------------------------------------
 *
 * delete_keys.c
 *		The canonical bytes of the values of Iceberg equality delete keys
 *		(delete_files.h), the same for a value whichever physical type
 *		Iceberg's type promotion lets a file store it with.
 *
 * Values come as the format layer's decoders leave them: fixed-width
 * values in their little-endian (or, for FIXED_LEN_BYTE_ARRAY, stored)
 * bytes, BYTE_ARRAY values as pointer and length.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "table/iceberg/delete_files.h"

bool
pq_iceberg_key_type(const PqSchemaNode *leaf, PqIcebergKeyType *t,
					const char **why)
{
	bool		decimal;

	memset(t, 0, sizeof(PqIcebergKeyType));
	if (!leaf->is_leaf || leaf->depth != 1 || leaf->max_rep > 0 ||
		leaf->repetition == PQ_REPEATED)
	{
		*why = "a key column is not a top-level primitive column";
		return false;
	}
	decimal = leaf->logical.id == PQ_LT_DECIMAL ||
		leaf->converted_type == PQ_CT_DECIMAL;
	t->physical_type = leaf->physical_type;
	t->type_length = leaf->type_length;
	switch (leaf->physical_type)
	{
		case PQ_BOOLEAN:
			t->tag = PQ_ICEBERG_KEY_BOOLEAN;
			break;
		case PQ_INT32:
			t->is_unsigned = leaf->logical.id == PQ_LT_INTEGER &&
				!leaf->logical.int_is_signed;
			/* FALLTHROUGH */
		case PQ_INT64:
			t->tag = decimal ? PQ_ICEBERG_KEY_DECIMAL : PQ_ICEBERG_KEY_INT;
			break;
		case PQ_INT96:
			t->tag = PQ_ICEBERG_KEY_INT96;
			break;
		case PQ_FLOAT:
		case PQ_DOUBLE:
			t->tag = PQ_ICEBERG_KEY_FLOAT;
			break;
		case PQ_BYTE_ARRAY:
		case PQ_FIXED_LEN_BYTE_ARRAY:
			t->tag = decimal ? PQ_ICEBERG_KEY_DECIMAL : PQ_ICEBERG_KEY_BYTES;
			break;
		default:
			*why = "a key column has a physical type this reader does not know";
			return false;
	}
	return true;
}

/* A DECIMAL's unscaled value as 16 big-endian bytes into out. */
static bool
decimal_be16(uint8 *out, const PqIcebergKeyType *t, const uint8 *fixed,
			 const PqByteArray *ba, const char **why)
{
	const uint8 *p;
	uint32		len;
	uint8		fill;
	uint32		i;

	if (t->physical_type == PQ_INT32 || t->physical_type == PQ_INT64)
	{
		int64		v;

		if (t->physical_type == PQ_INT32)
		{
			int32		x;

			memcpy(&x, fixed, sizeof(int32));
			v = x;
		}
		else
			memcpy(&v, fixed, sizeof(int64));
		memset(out, v < 0 ? 0xff : 0, 8);
		for (i = 0; i < 8; i++)
			out[15 - i] = (uint8) ((uint64) v >> (8 * i));
		return true;
	}
	if (ba != NULL)
	{
		p = ba->ptr;
		len = ba->len;
	}
	else
	{
		p = fixed;
		len = (uint32) t->type_length;
	}
	/* the bytes beyond 16 may only repeat the sign */
	fill = len > 0 && (p[len > 16 ? len - 16 : 0] & 0x80) ? 0xff : 0;
	for (i = 0; i + 16 < len; i++)
		if (p[i] != fill)
		{
			*why = "a DECIMAL key value does not fit 16 bytes";
			return false;
		}
	if (len > 16)
	{
		p += len - 16;
		len = 16;
	}
	memset(out, fill, 16 - len);
	if (len > 0)
		memcpy(out + 16 - len, p, len);
	return true;
}

bool
pq_iceberg_key_append(PqBuffer *key, const PqIcebergKeyType *t,
					  const uint8 *fixed, const PqByteArray *ba,
					  const char **why)
{
	uint8		b[1 + 16];
	Size		len = 1;

	if (fixed == NULL && ba == NULL)
	{
		pq_buffer_append_byte(key, PQ_ICEBERG_KEY_NULL);
		return true;
	}
	b[0] = t->tag;
	switch (t->tag)
	{
		case PQ_ICEBERG_KEY_BOOLEAN:
			b[1] = fixed[0] != 0;
			len = 2;
			break;
		case PQ_ICEBERG_KEY_INT:
			{
				int64		v;

				if (t->physical_type == PQ_INT32)
				{
					int32		x;

					memcpy(&x, fixed, sizeof(int32));
					v = t->is_unsigned ? (int64) (uint32) x : (int64) x;
				}
				else
					memcpy(&v, fixed, sizeof(int64));
				pq_store_le64(b + 1, (uint64) v);
				len = 9;
			}
			break;
		case PQ_ICEBERG_KEY_FLOAT:
			{
				double		d;
				uint64		bits;

				if (t->physical_type == PQ_FLOAT)
				{
					float		f;

					memcpy(&f, fixed, sizeof(float));
					d = f;
				}
				else
					memcpy(&d, fixed, sizeof(double));
				if (isnan(d))
					bits = UINT64CONST(0x7ff8000000000000);
				else
					memcpy(&bits, &d, sizeof(uint64));
				pq_store_le64(b + 1, bits);
				len = 9;
			}
			break;
		case PQ_ICEBERG_KEY_DECIMAL:
			if (!decimal_be16(b + 1, t, fixed, ba, why))
				return false;
			len = 17;
			break;
		case PQ_ICEBERG_KEY_INT96:
			pq_buffer_append_byte(key, b[0]);
			pq_buffer_append(key, fixed, 12);
			return true;
		case PQ_ICEBERG_KEY_BYTES:
			{
				const uint8 *p = ba ? ba->ptr : fixed;
				uint32		n = ba ? ba->len : (uint32) t->type_length;

				if (key->len > PQ_ICEBERG_MAX_KEY_BYTES ||
					(Size) n + 5 > PQ_ICEBERG_MAX_KEY_BYTES - key->len)
				{
					*why = psprintf("a row's key is longer than %zu bytes",
									PQ_ICEBERG_MAX_KEY_BYTES);
					return false;
				}
				pq_store_le32(b + 1, n);
				pq_buffer_append(key, b, 5);
				if (n > 0)
					pq_buffer_append(key, p, n);
			}
			return true;
		default:
			elog(ERROR, "Iceberg key: unknown class %d", (int) t->tag);
	}
	pq_buffer_append(key, b, len);
	return true;
}

Size
pq_iceberg_key_value_len(const PqIcebergKeyType *t, const uint8 *fixed,
						 const PqByteArray *ba)
{
	if (fixed == NULL && ba == NULL)
		return 1;
	switch (t->tag)
	{
		case PQ_ICEBERG_KEY_BOOLEAN:
			return 2;
		case PQ_ICEBERG_KEY_INT:
		case PQ_ICEBERG_KEY_FLOAT:
			return 9;
		case PQ_ICEBERG_KEY_DECIMAL:
			return 17;
		case PQ_ICEBERG_KEY_INT96:
			return 13;
		default:
			return (Size) 5 + (ba ? ba->len : (uint32) t->type_length);
	}
}
