/*-------------------------------------------------------------------------
 *
 * binary.c
 *		BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values to text (validated
 *		UTF-8), bytea, uuid and jsonb.
 *
 * Text and bytea Datums of one segment share one allocation: one palloc per
 * segment instead of one per value.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/convert/convert.h"
#include "format/common/pq_common.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"
#include "utils/uuid.h"

static void
check_length(PqConverter *cv, int i, uint32 len)
{
	if (unlikely(len > MaxAllocSize - VARHDRSZ))
		pqfdw_value_out_of_range(cv, i, "value of more than 1 GB");
}

static void invalid_utf8(PqConverter *cv) pg_attribute_noreturn();

static void
invalid_utf8(PqConverter *cv)
{
	ereport(ERROR,
			(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
			 errmsg("invalid UTF-8 in column \"%s\"", cv->attname),
			 errdetail("Parquet STRING values must be valid UTF-8.")));
}

void
pqfdw_check_utf8_text(PqConverter *cv, int dense_index, const char *src,
					  uint32 len)
{
	check_length(cv, dense_index, len);
	if (!pqfdw_ascii_without_nul(src, len) &&
		unlikely(!pg_verify_mbstr(PG_UTF8, src, len, true)))
		invalid_utf8(cv);
}

/* Build varlena Datums for n values of (ptr, len) in one block. */
static void
make_varlenas(PqConverter *cv, const PqByteArray *ba, const uint8 *fixed,
			  uint32 width, int n, Datum *out, bool validate_utf8)
{
	Size		total = 0;
	char	   *block;
	int			i;
	int			encoding = GetDatabaseEncoding();

	for (i = 0; i < n; i++)
	{
		uint32		len = ba ? ba[i].len : width;

		check_length(cv, i, len);
		total += INTALIGN(VARHDRSZ + len);
	}
	block = palloc_extended(Max(total, 1), MCXT_ALLOC_HUGE);

	for (i = 0; i < n; i++)
	{
		const char *src = ba ? (const char *) ba[i].ptr :
		(const char *) fixed + (size_t) i * width;
		uint32		len = ba ? ba[i].len : width;

		if (validate_utf8)
		{
			if (encoding == PG_UTF8)
			{
				if (!pqfdw_ascii_without_nul(src, len) &&
					unlikely(!pg_verify_mbstr(PG_UTF8, src, len, true)))
					invalid_utf8(cv);
			}
			else if (encoding != PG_SQL_ASCII)
			{
				/* convert to the database encoding: a separate datum */
				char	   *conv = pg_any_to_server(src, len, PG_UTF8);

				if (conv != src)
				{
					out[i] = PointerGetDatum(cstring_to_text(conv));
					continue;
				}
			}
		}
		SET_VARSIZE(block, VARHDRSZ + len);
		pq_copy_short(VARDATA(block), src, len);
		out[i] = PointerGetDatum(block);
		block += INTALIGN(VARHDRSZ + len);
	}
}

static void
conv_text(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
		  Datum *out)
{
	make_varlenas(cv, ba, fixed, cv->type_length, n, out, true);
}

static void
conv_bytea(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
		   Datum *out)
{
	make_varlenas(cv, ba, fixed, cv->type_length, n, out, false);
}

static void
conv_uuid(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
		  Datum *out)
{
	pg_uuid_t  *u = palloc(sizeof(pg_uuid_t) * Max(n, 1));
	int			i;

	/* Parquet UUIDs are big-endian, the byte order PostgreSQL uses too */
	memcpy(u, fixed, sizeof(pg_uuid_t) * n);
	for (i = 0; i < n; i++)
		out[i] = UUIDPGetDatum(&u[i]);
}

static void
conv_jsonb(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
		   Datum *out)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		char	   *s;

		check_length(cv, i, ba[i].len);
		if (GetDatabaseEncoding() == PG_UTF8 || GetDatabaseEncoding() == PG_SQL_ASCII)
		{
			s = palloc(ba[i].len + 1);
			memcpy(s, ba[i].ptr, ba[i].len);
			s[ba[i].len] = '\0';
		}
		else
			s = pg_any_to_server((const char *) ba[i].ptr, ba[i].len, PG_UTF8);
		out[i] = DirectFunctionCall1(jsonb_in, CStringGetDatum(s));
	}
}

PqConvertFn
pqfdw_binary_converter(PqConverter *cv)
{
	int			pt = cv->physical_type;

	if (pt != PQ_BYTE_ARRAY && pt != PQ_FIXED_LEN_BYTE_ARRAY)
		return NULL;
	switch (cv->node->logical.id)
	{
		case PQ_LT_STRING:
		case PQ_LT_ENUM:
			return conv_text;
		case PQ_LT_JSON:
			if (pt != PQ_BYTE_ARRAY)
				return NULL;
			return cv->natural_type == TEXTOID ? conv_text : conv_jsonb;
		case PQ_LT_UUID:
			return conv_uuid;
		case PQ_LT_NONE:
			/* un-annotated binary read into a text column: its bytes as text */
			return cv->natural_type == TEXTOID ? conv_text : conv_bytea;
		case PQ_LT_BSON:
		case PQ_LT_GEOMETRY:
		case PQ_LT_GEOGRAPHY:
			return conv_bytea;
	}
	return NULL;
}
